/* Language builtins: map and filter over user functions, keys,
 * values and has for records, nim multiplication, gcd, binomial
 * coefficients and string formatting. */
#include <stdlib.h>
#include <string.h>

#include "modules/core/module.h"
#include "lib/util/xalloc.h"

/* The items of a list or range argument, one at a time: *n items, item i
 * is a new reference. */
static Value *item_at(const Value *v, uint64_t i)
{
    return v->kind == VAL_LIST ? val_ref(v->u.list.items[i]) : val_int(val_range_at(v, i));
}

static uint64_t items_count(const Value *v)
{
    return v->kind == VAL_LIST ? v->u.list.len : val_range_count(v);
}

static Value *map_filter(Call *c, bool filter)
{
    Value *fn = c->args[0], *src = c->args[1];
    uint64_t n = items_count(src);
    Value *out = val_list();
    for (uint64_t i = 0; i < n; i++) {
        Value *x = item_at(src, i);
        Value *r = rt_call_value(c->I, fn, &x, 1, c->loc);
        if (!r) {
            val_unref(x);
            val_unref(out);
            return NULL;
        }
        if (filter) {
            if (val_truthy(r))
                val_list_push(out, val_ref(x));
            val_unref(r);
        } else {
            val_list_push(out, r);
        }
        val_unref(x);
    }
    return out;
}

Value *bi_map(Call *c)
{
    return map_filter(c, false);
}

Value *bi_filter(Call *c)
{
    return map_filter(c, true);
}

static Value *need_record(Call *c)
{
    if (c->args[0]->kind == VAL_MAP)
        return c->args[0];
    rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "bad argument #1 to '%s' (record expected, got %s)",
             c->bi->name, val_kind_name(c->args[0]));
    rt_hint(c->I, "usage: %s", c->bi->synopsis);
    return NULL;
}

Value *bi_keys(Call *c)
{
    Value *m = need_record(c);
    if (!m)
        return NULL;
    Value *l = val_list();
    for (size_t i = 0; i < m->u.map.len; i++)
        val_list_push(l, val_str(m->u.map.keys[i]));
    return l;
}

Value *bi_values(Call *c)
{
    Value *m = need_record(c);
    if (!m)
        return NULL;
    Value *l = val_list();
    for (size_t i = 0; i < m->u.map.len; i++)
        val_list_push(l, val_ref(m->u.map.vals[i]));
    return l;
}

Value *bi_has(Call *c)
{
    Value *a = c->args[0], *k = c->args[1];
    if (a->kind == VAL_MAP) {
        if (k->kind != VAL_STR)
            return rt_error(c->I, DIAG_TYPE, c->arg_locs[1],
                            "a record's keys are strings, got %s", val_kind_name(k));
        return val_bool(val_map_get(a, k->u.str.s) != NULL);
    }
    if (a->kind == VAL_STR) {
        if (k->kind != VAL_STR)
            return rt_error(c->I, DIAG_TYPE, c->arg_locs[1],
                            "has(STRING, X) looks for a string, got %s", val_kind_name(k));
        return val_bool(strstr(a->u.str.s, k->u.str.s) != NULL);
    }
    if (a->kind == VAL_RANGE) {
        int64_t x;
        return val_bool(k->kind == VAL_INT && val_get_i64(k, &x) && x >= a->u.range.lo &&
                        x <= a->u.range.hi);
    }
    if (a->kind != VAL_LIST) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                 "bad argument #1 to 'has' (record, list, range or string expected, got %s)",
                 val_kind_name(a));
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
        return NULL;
    }
    CgtError err;
    cgt_error_clear(&err);
    for (size_t i = 0; i < a->u.list.len; i++) {
        bool eq;
        if (val_equal_checked(a->u.list.items[i], k, &eq, &err) != CGT_OK)
            return rt_error_from(c->I, c->loc, &err);
        if (eq)
            return val_bool(true);
    }
    return val_bool(false);
}

/* ---- integers ---- */

/* A non-negative integer below 2^64. */
static bool get_u64(Call *c, int i, uint64_t *out)
{
    mpz_t z;
    mpz_init(z);
    val_get_mpz(c->args[i], z);
    bool ok = mpz_sgn(z) >= 0 && mpz_sizeinbase(z, 2) <= 64;
    if (ok) {
        /* two 32-bit halves: unsigned long may be 32 bits */
        mpz_t lo;
        mpz_init(lo);
        mpz_fdiv_r_2exp(lo, z, 32);
        mpz_fdiv_q_2exp(z, z, 32);
        *out = ((uint64_t)mpz_get_ui(z) << 32) | (uint64_t)mpz_get_ui(lo);
        mpz_clear(lo);
    } else {
        rt_error(c->I, DIAG_DOMAIN, c->arg_locs[i],
                 "bad argument #%d to '%s' (an integer in 0..2^64-1 expected)", i + 1,
                 c->bi->name);
    }
    mpz_clear(z);
    return ok;
}

/* Nim multiplication of x, y < 2^(2L) (L = 32, 16, ..., 1), by the Fermat
 * 2-power recursion (Conway, ONAG ch. 6; Winning Ways ch. 14): with
 * F = 2^L, x = aF + b and y = cF + d (a, b, c, d < F, + here is nim
 * addition), F (x) F = F + F/2 and F (x) z = F z for z < F give
 *   x (x) y = ((a+b)(x)(c+d) + b(x)d) F + b(x)d + (a(x)c)(x)(F/2). */
static uint64_t nim_mul(uint64_t x, uint64_t y, unsigned L)
{
    if (x < 2 || y < 2)
        return x * y;
    uint64_t mask = (1ull << L) - 1;
    uint64_t a = x >> L, b = x & mask, c = y >> L, d = y & mask;
    uint64_t ac = nim_mul(a, c, L / 2), bd = nim_mul(b, d, L / 2);
    uint64_t abcd = nim_mul(a ^ b, c ^ d, L / 2);
    return ((abcd ^ bd) << L) ^ bd ^ nim_mul(ac, 1ull << (L - 1), L / 2);
}

static Value *val_u64(uint64_t x)
{
    if (x <= (uint64_t)INT64_MAX)
        return val_int((int64_t)x);
    char buf[32];
    snprintf(buf, sizeof buf, "%llu", (unsigned long long)x);
    return val_int_str(buf);
}

Value *bi_nimmul(Call *c)
{
    uint64_t x, y;
    if (!get_u64(c, 0, &x) || !get_u64(c, 1, &y))
        return NULL;
    return val_u64(nim_mul(x, y, 32));
}

Value *bi_gcd(Call *c)
{
    mpz_t a, b;
    mpz_inits(a, b, NULL);
    val_get_mpz(c->args[0], a);
    val_get_mpz(c->args[1], b);
    mpz_gcd(a, a, b);
    Value *r = val_int_mpz(a);
    mpz_clears(a, b, NULL);
    return r;
}

/* Largest k of binomial(n, k): the result has about k log2 n bits, and
 * the language caps integers at 64 million bits. */
#define BINOMIAL_MAX_K 1000000

Value *bi_binomial(Call *c)
{
    int64_t k;
    if (!val_get_i64(c->args[1], &k) || k > BINOMIAL_MAX_K)
        return rt_error(c->I, DIAG_LIMIT, c->arg_locs[1], "binomial(n, k) needs k <= %d",
                        BINOMIAL_MAX_K);
    mpz_t n, r;
    mpz_inits(n, r, NULL);
    val_get_mpz(c->args[0], n);
    if (k < 0)
        mpz_set_ui(r, 0);
    else if (mpz_sizeinbase(n, 2) * (size_t)k > 64000000)
        goto too_big;
    else
        mpz_bin_ui(r, n, (unsigned long)k); /* (-1)^k binomial(k-n-1, k) for n < 0 */
    Value *v = val_int_mpz(r);
    mpz_clears(n, r, NULL);
    return v;
too_big:
    mpz_clears(n, r, NULL);
    return rt_error(c->I, DIAG_LIMIT, c->loc,
                    "binomial(n, k) would have more than 64000000 bits");
}

/* ---- format ---- */

Value *bi_format(Call *c)
{
    const char *f = c->args[0]->u.str.s;
    StrBuf b;
    sb_init(&b);
    size_t next = 1;
    for (const char *p = f; *p; p++) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            sb_putc(&b, *p++);
            continue;
        }
        if (p[0] == '{' && p[1] == '}') {
            if (next >= c->nargs) {
                sb_free(&b);
                rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                         "the format has more {} than the %zu value%s given", c->nargs - 1,
                         c->nargs == 2 ? "" : "s");
                rt_hint(c->I, "write {{ and }} for literal braces");
                return NULL;
            }
            CgtError err;
            cgt_error_clear(&err);
            size_t room = b.len < VAL_TEXT_MAX ? VAL_TEXT_MAX - b.len : 1;
            if (val_format_checked(c->args[next], &b, true, room, &err) != CGT_OK) {
                sb_free(&b);
                return rt_error_from(c->I, c->arg_locs[next], &err);
            }
            next++;
            p++;
            continue;
        }
        if (*p == '{' || *p == '}') {
            sb_free(&b);
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "a lone '%c' in the format", *p);
            rt_hint(c->I, "{} takes the next value; write {{ and }} for literal braces");
            return NULL;
        }
        sb_putc(&b, *p);
    }
    if (next < c->nargs) {
        sb_free(&b);
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[next],
                        "the format has %zu {} but %zu value%s given", next - 1, c->nargs - 1,
                        c->nargs == 2 ? " was" : "s were");
    }
    return val_str_own(b.s);
}
