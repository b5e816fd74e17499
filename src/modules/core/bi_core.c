/* Core builtins: help, list and string helpers, mex and nim-sum. */
#include <stdlib.h>
#include <string.h>

#include "modules/core/module.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

Value *bi_help(Call *c)
{
    if (c->nargs == 1) {
        const char *name = c->args[0]->u.str.s;
        char *t = builtin_help_text(name);
        if (!t) {
            rt_error(c->I, DIAG_NAME, c->arg_locs[0], "no help for '%s': not a builtin", name);
            const char *s = builtin_suggest(name);
            if (s)
                rt_hint(c->I, "did you mean '%s'?", s);
            return NULL;
        }
        if (rt_json(c->I)) {
            StrBuf b;
            sb_init(&b);
            JsonWriter w;
            rt_json_begin(&w, &b, "help");
            jw_kv_str(&w, "name", name);
            jw_kv_str(&w, "text", t);
            rt_json_end(&w);
            rt_emit(c->I, &b);
        } else {
            rt_out(c->I, t);
        }
        free(t);
        return val_null();
    }
    size_t n;
    const Builtin *const *t = builtin_table(&n);
    StrBuf s;
    sb_init(&s);
    if (rt_json(c->I)) {
        JsonWriter w;
        rt_json_begin(&w, &s, "help");
        jw_key(&w, "builtins");
        jw_arr_begin(&w);
        for (size_t i = 0; i < n; i++) {
            jw_obj_begin(&w);
            jw_kv_str(&w, "name", t[i]->name);
            jw_kv_str(&w, "synopsis", t[i]->synopsis);
            jw_kv_str(&w, "module", builtin_module(t[i])->name);
            jw_kv_bool(&w, "statement", (t[i]->flags & BI_CMD) != 0);
            jw_kv_bool(&w, "function", (t[i]->flags & BI_FUNC) != 0);
            jw_kv_bool(&w, "declaration", (t[i]->flags & BI_DECL) != 0);
            jw_obj_end(&w);
        }
        jw_arr_end(&w);
        rt_json_end(&w);
    } else {
        /* one line per builtin, grouped by module: the name and the first
           sentence of its doc, cut to the width of the terminal */
        int width = help_width();
        sb_puts(&s, "Builtins by module (help NAME for one of them):\n");
        const Module *last = NULL;
        for (size_t i = 0; i < n; i++) {
            if (builtin_module(t[i]) != last) {
                last = builtin_module(t[i]);
                sb_printf(&s, "\n%s\n", last->title);
            }
            const char *d = t[i]->doc;
            size_t len = strcspn(d, "\n");
            const char *dot = strstr(d, ". ");
            if (dot && (size_t)(dot - d) < len)
                len = (size_t)(dot - d);
            else if (len > 0 && d[len - 1] == '.')
                len--;
            int room = width - 18;
            if ((int)len > room)
                sb_printf(&s, "  %-15s %.*s...\n", t[i]->name, room - 3, d);
            else
                sb_printf(&s, "  %-15s %.*s\n", t[i]->name, (int)len, d);
        }
        size_t nk;
        const char *const *kw = builtin_keywords(&nk);
        sb_puts(&s, "\nKeywords (help KEYWORD):");
        StrBuf line;
        sb_init(&line);
        size_t col = 0;
        for (size_t i = 0; i < nk; i++) {
            size_t l = strlen(kw[i]);
            if (col == 0 || col + 1 + l > (size_t)width) {
                sb_puts(&s, "\n ");
                col = 1;
            }
            sb_printf(&s, " %s", kw[i]);
            col += 1 + l;
        }
        sb_free(&line);
        sb_putc(&s, '\n');
    }
    rt_emit(c->I, &s);
    return val_null();
}

Value *bi_len(Call *c)
{
    Value *v = c->args[0];
    switch (v->kind) {
    case VAL_LIST:
        return val_int((int64_t)v->u.list.len);
    case VAL_STR:
        return val_int((int64_t)v->u.str.len);
    case VAL_MAP:
        return val_int((int64_t)v->u.map.len);
    case VAL_RANGE: {
        mpz_t n;
        mpz_init(n);
        val_range_len_mpz(v, n);
        Value *r = val_int_mpz(n);
        mpz_clear(n);
        return r;
    }
    default:
        return rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "a %s has no length",
                        val_kind_name(v));
    }
}

Value *bi_str(Call *c)
{
    StrBuf b;
    sb_init(&b);
    CgtError err;
    cgt_error_clear(&err);
    if (val_format_checked(c->args[0], &b, true, VAL_TEXT_MAX, &err) != CGT_OK) {
        sb_free(&b);
        return rt_error_from(c->I, c->loc, &err);
    }
    return val_str_own(b.s);
}

Value *bi_int(Call *c)
{
    Value *v = c->args[0];
    if (v->kind == VAL_INT)
        return val_ref(v);
    const char *s = v->u.str.s;
    const char *p = s + (*s == '-');
    if (!*p || strspn(p, "0123456789") != strlen(p)) {
        rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "\"%s\" is not a decimal integer", s);
        return NULL;
    }
    return val_int_str(s);
}

Value *bi_type(Call *c)
{
    return val_str(val_kind_name(c->args[0]));
}

Value *bi_list(Call *c)
{
    Value *v = c->args[0], *l = val_list();
    if (v->kind == VAL_RANGE) {
        if (val_range_count(v) > 100000000) {
            val_unref(l);
            rt_error(c->I, DIAG_LIMIT, c->arg_locs[0], "range too long for a list");
            return NULL;
        }
        for (int64_t x = v->u.range.lo; x <= v->u.range.hi; x++) {
            val_list_push(l, val_int(x));
            if (x == INT64_MAX)
                break;
            CgtStatus st;
            if ((l->u.list.len & 4095) == 0 && (st = cgt_poll()) != CGT_OK) {
                /* 10^8 values take seconds and gigabytes */
                val_unref(l);
                CgtError err;
                cgt_poll_error(&err, st, "list");
                return rt_error_from(c->I, c->loc, &err);
            }
        }
    } else if (v->kind == VAL_LIST) {
        for (size_t i = 0; i < v->u.list.len; i++)
            val_list_push(l, val_ref(v->u.list.items[i]));
    } else {
        for (size_t i = 0; i < v->u.str.len; i++)
            val_list_push(l, val_str_n(v->u.str.s + i, 1));
    }
    return l;
}

Value *bi_append(Call *c)
{
    Value *l = val_list(), *v = c->args[0];
    for (size_t i = 0; i < v->u.list.len; i++)
        val_list_push(l, val_ref(v->u.list.items[i]));
    val_list_push(l, val_ref(c->args[1]));
    return l;
}

static int cmp_values(const void *a, const void *b)
{
    const Value *x = *(Value *const *)a, *y = *(Value *const *)b;
    if (x->kind == VAL_STR)
        return strcmp(x->u.str.s, y->u.str.s);
    mpz_t zx, zy;
    mpz_inits(zx, zy, NULL);
    val_get_mpz(x, zx);
    val_get_mpz(y, zy);
    int r = mpz_cmp(zx, zy);
    mpz_clears(zx, zy, NULL);
    return r;
}

static bool homogeneous(Call *c, const Value *l, ValKind *kind)
{
    *kind = VAL_INT;
    if (l->u.list.len)
        *kind = l->u.list.items[0]->kind;
    if (*kind != VAL_INT && *kind != VAL_STR)
        goto bad;
    for (size_t i = 0; i < l->u.list.len; i++)
        if (l->u.list.items[i]->kind != *kind)
            goto bad;
    return true;
bad:
    rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "expected a list of integers or of strings");
    return false;
}

Value *bi_sort(Call *c)
{
    Value *v = c->args[0];
    ValKind k;
    if (!homogeneous(c, v, &k))
        return NULL;
    Value *l = val_list();
    for (size_t i = 0; i < v->u.list.len; i++)
        val_list_push(l, val_ref(v->u.list.items[i]));
    if (l->u.list.len > 1)
        qsort(l->u.list.items, l->u.list.len, sizeof(Value *), cmp_values);
    return l;
}

Value *bi_reverse(Call *c)
{
    Value *v = c->args[0];
    if (v->kind == VAL_STR) {
        char *s = xstrndup(v->u.str.s, v->u.str.len);
        for (size_t i = 0; i < v->u.str.len / 2; i++) {
            char t = s[i];
            s[i] = s[v->u.str.len - 1 - i];
            s[v->u.str.len - 1 - i] = t;
        }
        return val_str_own(s);
    }
    Value *l = val_list();
    for (size_t i = v->u.list.len; i-- > 0;)
        val_list_push(l, val_ref(v->u.list.items[i]));
    return l;
}

/* Integers of a list or range argument, as mpz; returns count or -1. */
static long ints_of(Call *c, mpz_t **out)
{
    Value *v = c->args[0];
    if (v->kind == VAL_RANGE) {
        uint64_t n = val_range_count(v);
        if (n > 10000000) {
            rt_error(c->I, DIAG_LIMIT, c->arg_locs[0], "range too long (more than 10^7 integers)");
            return -1;
        }
        *out = xmalloc((size_t)(n ? n : 1) * sizeof(mpz_t));
        for (uint64_t i = 0; i < n; i++)
            mpz_init_set_si((*out)[i], (long)val_range_at(v, i));
        return (long)n;
    }
    for (size_t i = 0; i < v->u.list.len; i++)
        if (v->u.list.items[i]->kind != VAL_INT) {
            rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "element %zu is a %s, not an integer", i,
                     val_kind_name(v->u.list.items[i]));
            return -1;
        }
    *out = xmalloc((v->u.list.len ? v->u.list.len : 1) * sizeof(mpz_t));
    for (size_t i = 0; i < v->u.list.len; i++) {
        mpz_init((*out)[i]);
        val_get_mpz(v->u.list.items[i], (*out)[i]);
    }
    return (long)v->u.list.len;
}

static void free_ints(mpz_t *z, long n)
{
    for (long i = 0; i < n; i++)
        mpz_clear(z[i]);
    free(z);
}

Value *bi_sum(Call *c)
{
    Value *v = c->args[0];
    if (v->kind == VAL_RANGE) {
        /* lo + ... + hi = n (lo + hi) / 2, exact in GMP for any int64 bounds */
        mpz_t n, t;
        mpz_inits(n, t, NULL);
        val_range_len_mpz(v, n);
        if (mpz_sgn(n)) {
            mpz_set_si(t, v->u.range.lo);
            mpz_t hi;
            mpz_init_set_si(hi, v->u.range.hi);
            mpz_add(t, t, hi);
            mpz_clear(hi);
            mpz_mul(t, t, n);
            mpz_divexact_ui(t, t, 2);
        }
        Value *r = val_int_mpz(t);
        mpz_clears(n, t, NULL);
        return r;
    }
    mpz_t *z;
    long n = ints_of(c, &z);
    if (n < 0)
        return NULL;
    mpz_t s;
    mpz_init(s);
    for (long i = 0; i < n; i++)
        mpz_add(s, s, z[i]);
    Value *r = val_int_mpz(s);
    mpz_clear(s);
    free_ints(z, n);
    return r;
}

static Value *extreme(Call *c, int sign)
{
    Value *v = c->args[0];
    if (v->kind == VAL_RANGE && v->u.range.lo <= v->u.range.hi)
        return val_int(sign > 0 ? v->u.range.hi : v->u.range.lo);
    mpz_t *z;
    long n = ints_of(c, &z);
    if (n < 0)
        return NULL;
    if (n == 0) {
        free_ints(z, n);
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "%s of an empty list",
                        sign > 0 ? "max" : "min");
    }
    long best = 0;
    for (long i = 1; i < n; i++)
        if (mpz_cmp(z[i], z[best]) * sign > 0)
            best = i;
    Value *r = val_int_mpz(z[best]);
    free_ints(z, n);
    return r;
}

Value *bi_min(Call *c)
{
    return extreme(c, -1);
}

Value *bi_max(Call *c)
{
    return extreme(c, 1);
}

/* Non-negative small integers of a list (for mex and nim-sum). */
static bool nonneg_list(Call *c, int64_t **out, size_t *n)
{
    Value *v = c->args[0];
    *n = v->u.list.len;
    *out = xmalloc((*n ? *n : 1) * sizeof **out);
    for (size_t i = 0; i < *n; i++) {
        int64_t x;
        if (!val_get_i64(v->u.list.items[i], &x) || x < 0) {
            free(*out);
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                     "element %zu must be a non-negative integer below 2^63", i);
            return false;
        }
        (*out)[i] = x;
    }
    return true;
}

Value *bi_mex(Call *c)
{
    int64_t *x;
    size_t n;
    if (!nonneg_list(c, &x, &n))
        return NULL;
    /* the mex is at most n: mark the values below n */
    char *seen = xcalloc(n + 1, 1);
    for (size_t i = 0; i < n; i++)
        if ((uint64_t)x[i] <= n)
            seen[x[i]] = 1;
    size_t m = 0;
    while (seen[m])
        m++;
    free(seen);
    free(x);
    return val_int((int64_t)m);
}

Value *bi_nimsum(Call *c)
{
    int64_t *x;
    size_t n;
    if (!nonneg_list(c, &x, &n))
        return NULL;
    int64_t s = 0;
    for (size_t i = 0; i < n; i++)
        s ^= x[i];
    free(x);
    return val_int(s);
}
