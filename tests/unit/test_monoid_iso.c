/* Unit tests for src/lib/rewrite/monoid_iso.c.  Oracle: a brute force
 * written here over every bijection fixing the identity (orders up to 8),
 * checked from the definition of an isomorphism of monoids with a marked
 * subset; and random relabellings of direct products of cyclic monoids
 * C(i, p) = <a | a^(i+p) = a^i>, which are isomorphic by construction. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/monoid_iso.h"
#include "unit.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(uint32_t n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng % n);
}

/* The product of cyclic monoids C(idx[k], per[k]); element = mixed-radix
 * exponent vector, e_k < idx[k] + per[k]. */
typedef struct Mon {
    size_t n;
    uint32_t *mul;
    bool *mark;
} Mon;

static uint32_t cyc_add(uint32_t a, uint32_t b, uint32_t idx, uint32_t per)
{
    uint32_t s = a + b;
    while (s >= idx + per)
        s -= per;
    return s;
}

static Mon product(const uint32_t *idx, const uint32_t *per, int k)
{
    Mon m = {1, NULL, NULL};
    for (int i = 0; i < k; i++)
        m.n *= idx[i] + per[i];
    m.mul = malloc(m.n * m.n * sizeof *m.mul);
    m.mark = calloc(m.n, sizeof *m.mark);
    for (size_t x = 0; x < m.n; x++)
        for (size_t y = 0; y < m.n; y++) {
            size_t a = x, b = y, z = 0, base = 1;
            for (int i = 0; i < k; i++) {
                uint32_t r = idx[i] + per[i];
                z += base * cyc_add((uint32_t)(a % r), (uint32_t)(b % r), idx[i], per[i]);
                a /= r;
                b /= r;
                base *= r;
            }
            m.mul[x * m.n + y] = (uint32_t)z;
        }
    return m;
}

/* m relabelled by the permutation pi (pi[0] may move the identity). */
static Mon relabel(const Mon *m, const uint32_t *pi)
{
    Mon r = {m->n, malloc(m->n * m->n * sizeof *m->mul), calloc(m->n, sizeof *m->mark)};
    for (size_t x = 0; x < m->n; x++) {
        r.mark[pi[x]] = m->mark[x];
        for (size_t y = 0; y < m->n; y++)
            r.mul[(size_t)pi[x] * m->n + pi[y]] = pi[m->mul[x * m->n + y]];
    }
    return r;
}

static bool iso_by_def(const Mon *a, const Mon *b, const uint32_t *f)
{
    for (size_t x = 0; x < a->n; x++) {
        for (size_t y = 0; y < x; y++)
            if (f[x] == f[y])
                return false;
        if (a->mark[x] != b->mark[f[x]])
            return false;
        for (size_t y = 0; y < a->n; y++)
            if (f[a->mul[x * a->n + y]] != b->mul[(size_t)f[x] * b->n + f[y]])
                return false;
    }
    return true;
}

/* Every bijection, by Heap's algorithm. */
static bool brute(const Mon *a, const Mon *b)
{
    size_t n = a->n;
    uint32_t f[8], c[8] = {0};
    for (size_t i = 0; i < n; i++)
        f[i] = (uint32_t)i;
    if (iso_by_def(a, b, f))
        return true;
    size_t i = 1;
    while (i < n) {
        if (c[i] < i) {
            size_t j = i % 2 ? c[i] : 0;
            uint32_t t = f[j];
            f[j] = f[i];
            f[i] = t;
            if (iso_by_def(a, b, f))
                return true;
            c[i]++;
            i = 1;
        } else {
            c[i++] = 0;
        }
    }
    return false;
}

static size_t identity_of(const Mon *m)
{
    for (size_t e = 0; e < m->n; e++) {
        bool ok = true;
        for (size_t x = 0; x < m->n && ok; x++)
            ok = m->mul[e * m->n + x] == x;
        if (ok)
            return e;
    }
    return 0;
}

static bool decide(const Mon *a, const Mon *b, bool *checked_map)
{
    MonoidTab ta = {a->n, identity_of(a), a->mul, a->mark};
    MonoidTab tb = {b->n, identity_of(b), b->mul, b->mark};
    MonoidIso r;
    CgtError err;
    cgt_error_clear(&err);
    CHECK(monoid_tab_isomorphism(&ta, &tb, 0, &r, &err) == CGT_OK);
    *checked_map = !r.isomorphic || iso_by_def(a, b, r.map);
    bool found = r.isomorphic;
    monoid_iso_free(&r);
    return found;
}

static void mon_free(Mon *m)
{
    free(m->mul);
    free(m->mark);
}

static void random_shape(uint32_t *idx, uint32_t *per, int *k, size_t cap)
{
    size_t n;
    do {
        *k = 1 + (int)rnd(3);
        n = 1;
        for (int i = 0; i < *k; i++) {
            idx[i] = rnd(3);
            per[i] = 1 + rnd(4);
            n *= idx[i] + per[i];
        }
    } while (n > cap || n < 2);
}

/* Small monoids: the answer equals the brute force, both ways. */
static void test_small(int rounds)
{
    for (int r = 0; r < rounds; r++) {
        uint32_t idx[3], per[3], idx2[3], per2[3];
        int k, k2;
        random_shape(idx, per, &k, 8);
        Mon a = product(idx, per, k);
        for (size_t x = 0; x < a.n; x++)
            a.mark[x] = rnd(3) == 0;
        Mon b;
        if (rnd(2)) {
            /* a relabelled copy, perhaps with one mark moved */
            uint32_t pi[8];
            for (size_t i = 0; i < a.n; i++)
                pi[i] = (uint32_t)i;
            for (size_t i = a.n - 1; i > 0; i--) {
                size_t j = rnd((uint32_t)i + 1);
                uint32_t t = pi[i];
                pi[i] = pi[j];
                pi[j] = t;
            }
            b = relabel(&a, pi);
            if (rnd(2)) {
                size_t x = rnd((uint32_t)b.n), y = rnd((uint32_t)b.n);
                bool t = b.mark[x];
                b.mark[x] = b.mark[y];
                b.mark[y] = t;
            }
        } else {
            random_shape(idx2, per2, &k2, 8);
            b = product(idx2, per2, k2);
            for (size_t x = 0; x < b.n; x++)
                b.mark[x] = rnd(3) == 0;
        }
        bool ok_map;
        bool got = decide(&a, &b, &ok_map);
        bool want = a.n == b.n && brute(&a, &b);
        CHECK(ok_map);
        CHECK_EQ_INT(got, want);
        mon_free(&a);
        mon_free(&b);
    }
}

/* Larger relabelled products: always isomorphic, the map checked. */
static void test_relabelled(int rounds)
{
    for (int r = 0; r < rounds; r++) {
        uint32_t idx[3] = {rnd(3), rnd(3), rnd(3)}, per[3] = {1 + rnd(4), 1 + rnd(4), 2};
        Mon a = product(idx, per, 3);
        for (size_t x = 0; x < a.n; x++)
            a.mark[x] = rnd(4) == 0;
        uint32_t *pi = malloc(a.n * sizeof *pi);
        for (size_t i = 0; i < a.n; i++)
            pi[i] = (uint32_t)i;
        for (size_t i = a.n - 1; i > 0; i--) {
            size_t j = rnd((uint32_t)i + 1);
            uint32_t t = pi[i];
            pi[i] = pi[j];
            pi[j] = t;
        }
        Mon b = relabel(&a, pi);
        bool ok_map;
        CHECK(decide(&a, &b, &ok_map));
        CHECK(ok_map);
        mon_free(&a);
        mon_free(&b);
        free(pi);
    }
}

/* C4 with P = {a} against C4 with P = {a^2}: same order and |P|, not
 * isomorphic (a has order 4, a^2 order 2); C2 x C2 against C4. */
static void test_fixed(void)
{
    uint32_t i4[1] = {0}, p4[1] = {4}, i22[2] = {0, 0}, p22[2] = {2, 2};
    Mon a = product(i4, p4, 1), b = product(i4, p4, 1), c = product(i22, p22, 2);
    a.mark[1] = true;
    b.mark[2] = true;
    bool ok;
    CHECK(!decide(&a, &b, &ok));
    b.mark[2] = false;
    b.mark[3] = true; /* a^3 = a^-1: the automorphism a -> a^3 */
    CHECK(decide(&a, &b, &ok) && ok);
    CHECK(!decide(&c, &b, &ok));
    mon_free(&a);
    mon_free(&b);
    mon_free(&c);
}

int main(void)
{
    bool slow = getenv("CGT_SLOW") != NULL;
    test_fixed();
    test_small(slow ? 4000 : 400);
    test_relabelled(slow ? 400 : 40);
    UNIT_MAIN_END();
}
