/* A strict CSV reader (RFC 4180) for read_csv (docs/language.md "Reading
 * data").
 *
 * Fields are separated by commas and records by LF or CR LF; a field is
 * either unquoted (no '"', ',', CR or LF in it) or quoted ("..." where a
 * doubled "" stands for one quote, and commas and line ends are text).  A
 * UTF-8 byte order mark at the start is skipped, a record of no bytes at
 * all (an empty line) is skipped, and the last record need not end with a
 * line end.  Refused, with the line and column: a quote inside an unquoted
 * field, anything but a comma or a line end after a closing quote, a quote
 * left open at the end of the file, a NUL byte, a lone CR.  Bad input never
 * crashes: csv_parse returns NULL and fills a CsvError. */
#ifndef CGT_UTIL_CSV_H
#define CGT_UTIL_CSV_H
#include <stddef.h>

typedef struct CsvField {
    char *s;          /* the decoded text (owned, NUL-terminated) */
    size_t len;       /* its length in bytes */
    unsigned line, col; /* where the field starts (1-based; col counts bytes) */
} CsvField;

typedef struct CsvRow {
    CsvField *fields;
    size_t n;
} CsvRow;

typedef struct CsvTable {
    CsvRow *rows;
    size_t n;
} CsvTable;

typedef struct CsvError {
    unsigned line, col;
    char msg[160];
} CsvError;

/* Parse text[0..len).  Returns an owned table (csv_free) or NULL with *err
 * filled. */
CsvTable *csv_parse(const char *text, size_t len, CsvError *err);
void csv_free(CsvTable *t);

#endif
