/* Checked allocation: every allocation in cgt goes through these.  On
 * failure they print "cgt: fatal: out of memory (N bytes)" and exit 4. */
#ifndef CGT_UTIL_XALLOC_H
#define CGT_UTIL_XALLOC_H
#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* n bytes on whole 64-byte cache lines of their own (aligned, the size
 * rounded up), for data one thread writes while another works beside it:
 * no line is shared with another allocation.  Freed with free(). */
void *xmalloc_lines(size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a freshly allocated string, owned by the caller. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Route GMP's allocations through the checked allocator. */
void xalloc_init_gmp(void);

#endif
