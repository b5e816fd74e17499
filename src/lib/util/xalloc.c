/* Checked allocation: out of memory is the one fatal,
 * non-local exit besides internal assertion failures. */
#include "lib/util/xalloc.h"

#include <gmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void oom(size_t n)
{
    fprintf(stderr, "cgt: fatal: out of memory (%zu bytes)\n", n);
    exit(4);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xmalloc_lines(size_t n)
{
    size_t m = n ? (n + 63) & ~(size_t)63 : 64;
    if (m < n)
        oom(n);
    void *p = aligned_alloc(64, m);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        oom(count * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
    char *p = xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *s = xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, aq);
    va_end(aq);
    return s;
}

static void *gmp_alloc(size_t n)
{
    return xmalloc(n);
}

static void *gmp_realloc(void *p, size_t old, size_t n)
{
    (void)old;
    return xrealloc(p, n);
}

static void gmp_free(void *p, size_t n)
{
    (void)n;
    free(p);
}

void xalloc_init_gmp(void)
{
    mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}
