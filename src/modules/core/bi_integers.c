/* Core builtins on integers: int, sum, min, max, mex, nimsum, nimmul, gcd,
 * binomial, abs, cputime. */
#include <stdlib.h>
#include <string.h>

#include "modules/core/module.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

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
            rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "element %zu is %s %s, not an integer", i,
                     val_article(val_kind_name(v->u.list.items[i])), val_kind_name(v->u.list.items[i]));
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

Value *bi_abs(Call *c)
{
    int64_t x;
    if (val_get_i64(c->args[0], &x) && x != INT64_MIN)
        return val_int(x < 0 ? -x : x);
    mpz_t z;
    mpz_init(z);
    val_get_mpz(c->args[0], z);
    mpz_abs(z, z);
    Value *r = val_int_mpz(z);
    mpz_clear(z);
    return r;
}

/* The CPU time of the process (all threads) in milliseconds. */
Value *bi_cputime(Call *c)
{
    (void)c;
    return val_int((int64_t)(cgt_cpu_seconds() * 1000.0));
}
