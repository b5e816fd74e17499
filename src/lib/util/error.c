/* Filling CgtError records. */
#include "lib/util/error.h"

#include <stdarg.h>
#include <stdio.h>

CgtStatus cgt_error_set(CgtError *e, CgtStatus st, const char *fmt, ...)
{
    if (!e)
        return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->status = st;
    e->hint[0] = '\0';
    return st;
}

void cgt_error_hint(CgtError *e, const char *fmt, ...)
{
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->hint, sizeof e->hint, fmt, ap);
    va_end(ap);
}

void cgt_error_clear(CgtError *e)
{
    if (!e)
        return;
    e->status = CGT_OK;
    e->msg[0] = '\0';
    e->hint[0] = '\0';
}
