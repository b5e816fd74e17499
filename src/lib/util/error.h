/* The error record that library code (src/lib/) fills instead of
 * printing.  The runtime turns it into a diagnostic with a location. */
#ifndef CGT_UTIL_ERROR_H
#define CGT_UTIL_ERROR_H

typedef enum {
    CGT_OK = 0,
    CGT_ERR_DOMAIN,      /* mathematically invalid input: bad digit, ... */
    CGT_ERR_LIMIT,       /* size cap, node limit, --timeout reached */
    CGT_ERR_INTERRUPTED, /* SIGINT */
    CGT_ERR_IO,          /* cannot read/write a file */
    CGT_ERR_TYPE,        /* wrong kind of argument */
    CGT_ERR_INTERNAL     /* a bug: "please report" */
} CgtStatus;

typedef struct CgtError {
    CgtStatus status;
    char msg[512];  /* lowercase, no final period */
    char hint[512]; /* optional, "" if none */
} CgtError;

/* Set status and message (printf-style); clears the hint.  Returns status. */
CgtStatus cgt_error_set(CgtError *e, CgtStatus st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Set the hint of an already set error. */
void cgt_error_hint(CgtError *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cgt_error_clear(CgtError *e);

#endif
