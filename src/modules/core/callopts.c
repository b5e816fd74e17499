/* Options of a call read into C variables (callopts.h). */
#include "modules/core/callopts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool callopt_int(Call *c, const char *name, int64_t lo, int64_t hi, int64_t *out)
{
    Value *v = call_opt(c, name);
    if (!v)
        return true;
    return call_int(c, v, call_opt_loc(c, name), name, lo, hi, out);
}

bool callopt_int32(Call *c, const char *name, int lo, int hi, int *out)
{
    int64_t x = *out;
    if (!callopt_int(c, name, lo, hi, &x))
        return false;
    *out = (int)x;
    return true;
}

bool callopt_word(Call *c, const char *name, const char *const *words, int n, int *out)
{
    Value *v = call_opt(c, name);
    if (!v)
        return true;
    for (int i = 0; i < n; i++)
        if (strcmp(v->u.str.s, words[i]) == 0) {
            *out = i;
            return true;
        }
    rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, name), "unknown %s '%s'", name, v->u.str.s);
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < n; i++)
        sb_printf(&b, "%s%s", i ? ", " : "", words[i]);
    rt_hint(c->I, "%s is one of %s", name, b.s);
    sb_free(&b);
    return false;
}

bool callopt_prob(Call *c, const char *name, double *out, char *text, size_t tsize)
{
    Value *v = call_opt(c, name);
    if (!v)
        return true;
    if (v->kind == VAL_INT) {
        int64_t x;
        if (!call_int(c, v, call_opt_loc(c, name), name, 0, 1, &x))
            return false;
        *out = (double)x;
        if (text)
            snprintf(text, tsize, "%d", (int)x);
        return true;
    }
    char *end;
    double d = strtod(v->u.str.s, &end);
    if (*end || end == v->u.str.s || !(d >= 0 && d <= 1)) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, name), "%s must be a number in 0..1, not %s",
                 name, v->u.str.s);
        rt_hint(c->I, "write probabilities like 0.9 or 0.005");
        return false;
    }
    *out = d;
    if (text)
        snprintf(text, tsize, "%s", v->u.str.s);
    return true;
}
