/* Explicit finite commutative monoids (monoid.h): element tables from a
 * confluent rewriting system, idempotents, maximal subgroups with abelian
 * invariants, and the bipartite (P-portion) quotient by partition
 * refinement (Plambeck & Siegel 2008, §3). */
#include "lib/rewrite/monoid.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

static uint64_t word_hash(const uint32_t *w, int g)
{
    return hash_bytes(w, (size_t)g * sizeof *w);
}

static void build_hash(FiniteMonoid *m)
{
    size_t cap = 16;
    while (cap < 2 * m->order + 2)
        cap *= 2;
    m->hash_cap = cap;
    m->hash = xmalloc(cap * sizeof *m->hash);
    for (size_t i = 0; i < cap; i++)
        m->hash[i] = MONOID_NONE;
    for (size_t i = 0; i < m->order; i++) {
        size_t h = word_hash(m->elems + i * (size_t)m->ngens, m->ngens) & (cap - 1);
        while (m->hash[h] != MONOID_NONE)
            h = (h + 1) & (cap - 1);
        m->hash[h] = i;
    }
}

size_t monoid_find(const FiniteMonoid *m, const uint32_t *w)
{
    size_t g = (size_t)m->ngens;
    size_t h = word_hash(w, m->ngens) & (m->hash_cap - 1);
    while (m->hash[h] != MONOID_NONE) {
        if (memcmp(m->elems + m->hash[h] * g, w, g * sizeof *w) == 0)
            return m->hash[h];
        h = (h + 1) & (m->hash_cap - 1);
    }
    return MONOID_NONE;
}

size_t monoid_eval(const FiniteMonoid *m, const uint32_t *w)
{
    size_t x = 0, g = (size_t)m->ngens;
    for (size_t t = 0; t < g; t++)
        for (uint32_t k = 0; k < w[t]; k++)
            x = m->gen_act[x * g + t];
    return x;
}

size_t monoid_mul(const FiniteMonoid *m, size_t a, size_t b)
{
    if (m->mul)
        return m->mul[a * m->order + b];
    size_t g = (size_t)m->ngens;
    const uint32_t *w = m->elems + b * g;
    for (size_t t = 0; t < g; t++)
        for (uint32_t k = 0; k < w[t]; k++)
            a = m->gen_act[a * g + t];
    return a;
}

static FiniteMonoid *monoid_alloc(int g, char *const *names)
{
    FiniteMonoid *m = xcalloc(1, sizeof *m);
    m->ngens = g;
    m->gen_names = names_copy(g, (const char *const *)names);
    return m;
}

static CgtStatus build_mul(FiniteMonoid *m, size_t mul_limit, CgtError *err)
{
    if (m->order > mul_limit)
        return CGT_OK;
    size_t n = m->order;
    uint32_t *mul = xmalloc(n * n * sizeof *mul + 1);
    for (size_t a = 0; a < n; a++) {
        if ((a & 63) == 0) {
            CgtStatus st = cgt_poll();
            if (st != CGT_OK) {
                free(mul);
                return cgt_poll_error(err, st, "product table");
            }
        }
        for (size_t b = 0; b < n; b++)
            mul[a * n + b] = (uint32_t)monoid_mul(m, a, b);
    }
    m->mul = mul;
    return CGT_OK;
}

CgtStatus monoid_from_system(const KbSystem *sys, size_t max_order, size_t mul_limit,
                             FiniteMonoid **out, CgtError *err)
{
    *out = NULL;
    if (!sys->confluent)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "the rewriting system is not confluent, so its normal forms are "
                             "not the elements");
    if (!max_order)
        max_order = 1000000;
    if (!mul_limit)
        mul_limit = 2048;
    uint32_t *el;
    size_t n;
    CgtStatus st = kb_elements(sys, max_order, &el, &n, err);
    if (st != CGT_OK)
        return st;
    if (n > UINT32_MAX - 1) {
        free(el);
        return cgt_error_set(err, CGT_ERR_LIMIT, "monoid too large");
    }
    int g = sys->ngens;
    size_t gg = (size_t)g;
    FiniteMonoid *m = monoid_alloc(g, sys->gen_names);
    m->order = n;
    m->elems = el;
    build_hash(m);
    m->gen_act = xmalloc((n * gg + 1) * sizeof *m->gen_act);
    uint32_t *w = xmalloc((gg + 1) * sizeof *w);
    for (size_t i = 0; i < n && st == CGT_OK; i++) {
        if ((i & 1023) == 0 && (st = cgt_poll()) != CGT_OK) {
            cgt_poll_error(err, st, "monoid tables");
            break;
        }
        for (size_t t = 0; t < gg; t++) {
            memcpy(w, el + i * gg, gg * sizeof *w);
            w[t]++;
            st = kb_reduce(sys, w, 0, err);
            if (st != CGT_OK)
                break;
            size_t j = monoid_find(m, w);
            if (j == MONOID_NONE) {
                st = cgt_error_set(err, CGT_ERR_INTERNAL,
                                   "normal form missing from the element list");
                break;
            }
            m->gen_act[i * gg + t] = (uint32_t)j;
        }
    }
    free(w);
    if (st == CGT_OK)
        st = build_mul(m, mul_limit, err);
    if (st != CGT_OK) {
        monoid_free(m);
        return st;
    }
    *out = m;
    return CGT_OK;
}

void monoid_free(FiniteMonoid *m)
{
    if (!m)
        return;
    names_free(m->gen_names, m->ngens);
    free(m->elems);
    free(m->gen_act);
    free(m->mul);
    free(m->hash);
    free(m);
}

void monoid_idempotents(const FiniteMonoid *m, size_t **out, size_t *count)
{
    VEC(size_t) v = {0};
    for (size_t i = 0; i < m->order; i++)
        if (monoid_mul(m, i, i) == i)
            VEC_PUSH(v, i);
    VEC_RESERVE(v, 1);
    *out = v.data;
    *count = v.len;
}

/* Invariant factors of a finite abelian group from its element orders:
 * for each prime p, the number of cyclic p-factors of order >= p^k is
 * log_p |G[p^k]| - log_p |G[p^(k-1)]| (G[n] = elements killed by n). */
static void abelian_invariants(const size_t *ord, size_t n, MonoidGroup *G)
{
    G->invariants = NULL;
    G->ninvariants = 0;
    if (n <= 1)
        return;
    VEC(uint64_t) inv = {0}; /* invariant factors, largest first, built up */
    size_t rest = n;
    for (uint64_t p = 2; rest > 1; p++) {
        if (rest % p)
            continue;
        while (rest % p == 0)
            rest /= p;
        /* c[k] = log_p of #{x : ord(x) | p^k} */
        VEC(size_t) parts = {0}; /* exponents of the cyclic p-factors */
        size_t prevlog = 0;
        for (uint64_t pk = p, k = 1;; pk *= p, k++) {
            size_t cnt = 0;
            for (size_t i = 0; i < n; i++)
                if (pk % ord[i] == 0)
                    cnt++;
            size_t lg = 0;
            for (size_t c = cnt; c > 1; c /= (size_t)p)
                lg++;
            size_t nge = lg - prevlog; /* factors of order >= p^k */
            if (nge == 0)
                break;
            /* factors of order >= p^k: bump the first nge exponents */
            while (parts.len < nge)
                VEC_PUSH(parts, 0);
            for (size_t i = 0; i < nge; i++)
                parts.data[i] = (size_t)k;
            prevlog = lg;
            if (pk > (uint64_t)n)
                break;
        }
        /* parts is sorted descending; multiply into invariant factors */
        for (size_t i = 0; i < parts.len; i++) {
            uint64_t q = 1;
            for (size_t k = 0; k < parts.data[i]; k++)
                q *= p;
            if (i < inv.len)
                inv.data[i] *= q;
            else
                VEC_PUSH(inv, q);
        }
        VEC_FREE(parts);
    }
    /* ascending: d1 | d2 | ... */
    for (size_t i = 0; i < inv.len / 2; i++) {
        uint64_t t = inv.data[i];
        inv.data[i] = inv.data[inv.len - 1 - i];
        inv.data[inv.len - 1 - i] = t;
    }
    G->invariants = inv.data;
    G->ninvariants = inv.len;
}

CgtStatus monoid_maximal_subgroup(const FiniteMonoid *m, size_t e, MonoidGroup *out,
                                  CgtError *err)
{
    memset(out, 0, sizeof *out);
    if (e >= m->order || monoid_mul(m, e, e) != e)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "element %zu is not an idempotent", e);
    VEC(size_t) els = {0};
    VEC(size_t) ords = {0};
    /* stamp[y] == x + 1: y already seen among the powers of x */
    size_t *stamp = xcalloc(m->order + 1, sizeof *stamp);
    for (size_t x = 0; x < m->order; x++) {
        if ((x & 255) == 0) {
            CgtStatus st = cgt_poll();
            if (st != CGT_OK) {
                VEC_FREE(els);
                VEC_FREE(ords);
                free(stamp);
                return cgt_poll_error(err, st, "maximal subgroup");
            }
        }
        if (monoid_mul(m, x, e) != x)
            continue;
        /* powers of x stay in eM; x is a unit of eM iff some power is e;
         * stop when the powers start to repeat without meeting e */
        size_t y = x, k = 1;
        while (y != e && stamp[y] != x + 1) {
            stamp[y] = x + 1;
            y = monoid_mul(m, y, x);
            k++;
        }
        if (y == e) {
            VEC_PUSH(els, x);
            VEC_PUSH(ords, k);
        }
    }
    free(stamp);
    out->idempotent = e;
    out->order = els.len;
    out->elems = els.data;
    out->elem_order = ords.data;
    abelian_invariants(ords.data, ords.len, out);
    return CGT_OK;
}

void monoid_group_free(MonoidGroup *g)
{
    free(g->elems);
    free(g->elem_order);
    free(g->invariants);
    memset(g, 0, sizeof *g);
}

char *monoid_group_structure(const MonoidGroup *g)
{
    if (g->ninvariants == 0)
        return xstrdup("1");
    VEC(char) b = {0};
    for (size_t i = 0; i < g->ninvariants; i++) {
        char *s = xasprintf("%sC%llu", i ? " x " : "", (unsigned long long)g->invariants[i]);
        size_t n = strlen(s);
        VEC_RESERVE(b, b.len + n + 1);
        memcpy(b.data + b.len, s, n);
        b.len += n;
        free(s);
    }
    VEC_PUSH(b, '\0');
    return b.data;
}

/* ------------------------------------------------------------ bipartite */

typedef struct {
    const size_t *sig; /* per element: (1 + ngens) class numbers */
    size_t w;
} SigCtx;

static int sig_cmp(const SigCtx *c, size_t a, size_t b)
{
    const size_t *x = c->sig + a * c->w, *y = c->sig + b * c->w;
    for (size_t i = 0; i < c->w; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return a < b ? -1 : a > b;
}

static void sort_by_sig(const SigCtx *c, size_t *ids, size_t n)
{
    size_t *tmp = xmalloc((n + 1) * sizeof *tmp);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid || b < hi) {
                bool ta = b >= hi || (a < mid && sig_cmp(c, ids[a], ids[b]) <= 0);
                tmp[k++] = ta ? ids[a++] : ids[b++];
            }
        }
        memcpy(ids, tmp, n * sizeof *ids);
    }
    free(tmp);
}

/* renumber classes by smallest element; returns the number of classes */
static size_t renumber(size_t *cls, size_t n, size_t *map)
{
    for (size_t i = 0; i < n; i++)
        map[i] = MONOID_NONE;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (map[cls[i]] == MONOID_NONE)
            map[cls[i]] = k++;
        cls[i] = map[cls[i]];
    }
    return k;
}

CgtStatus monoid_bipartite(const FiniteMonoid *m, const bool *in_p, MonoidBipartite *out,
                           CgtError *err)
{
    memset(out, 0, sizeof *out);
    size_t n = m->order, g = (size_t)m->ngens, w = g + 1;
    size_t *cls = xmalloc((n + 1) * sizeof *cls);
    size_t *map = xmalloc((n + 1) * sizeof *map);
    size_t *sig = xmalloc((n * w + 1) * sizeof *sig);
    size_t *ids = xmalloc((n + 1) * sizeof *ids);
    for (size_t i = 0; i < n; i++)
        cls[i] = in_p[i] ? 1 : 0;
    size_t k = renumber(cls, n, map);
    CgtStatus st = CGT_OK;
    /* Moore refinement: split classes by the classes of x*g until stable */
    for (;;) {
        if ((st = cgt_poll()) != CGT_OK) {
            cgt_poll_error(err, st, "bipartite quotient");
            break;
        }
        for (size_t i = 0; i < n; i++) {
            sig[i * w] = cls[i];
            for (size_t t = 0; t < g; t++)
                sig[i * w + 1 + t] = cls[m->gen_act[i * g + t]];
            ids[i] = i;
        }
        SigCtx c = {sig, w};
        sort_by_sig(&c, ids, n);
        size_t nk = 0;
        for (size_t t = 0; t < n; t++) {
            if (t > 0 && memcmp(sig + ids[t] * w, sig + ids[t - 1] * w, w * sizeof *sig) != 0)
                nk++;
            cls[ids[t]] = nk;
        }
        nk = n ? nk + 1 : 0;
        nk = renumber(cls, n, map);
        if (nk == k)
            break;
        k = nk;
    }
    free(sig);
    free(ids);
    free(map);
    if (st != CGT_OK) {
        free(cls);
        return st;
    }
    out->nclasses = k;
    out->cls = cls;
    out->rep = xmalloc((k + 1) * sizeof *out->rep);
    out->class_in_p = xcalloc(k + 1, sizeof *out->class_in_p);
    for (size_t i = n; i-- > 0;) {
        out->rep[cls[i]] = i;
        out->class_in_p[cls[i]] = in_p[i];
    }
    out->reduced = k == n;
    out->identity_not_in_p = n > 0 && !in_p[0];
    out->could_be_misere = out->reduced && out->identity_not_in_p;
    out->star = MONOID_NONE;
    for (size_t a = 1; a < n && out->star == MONOID_NONE; a++) {
        if (!in_p[a] || monoid_mul(m, a, a) != 0)
            continue;
        bool ok = true;
        for (size_t x = 0; x < n && ok; x++)
            if (in_p[x] && in_p[monoid_mul(m, a, x)])
                ok = false;
        if (ok)
            out->star = a;
    }
    out->star_candidate = out->star != MONOID_NONE;
    return CGT_OK;
}

void monoid_bipartite_free(MonoidBipartite *b)
{
    free(b->cls);
    free(b->rep);
    free(b->class_in_p);
    memset(b, 0, sizeof *b);
}

FiniteMonoid *monoid_quotient(const FiniteMonoid *m, const MonoidBipartite *b)
{
    FiniteMonoid *q = monoid_alloc(m->ngens, m->gen_names);
    size_t k = b->nclasses, g = (size_t)m->ngens;
    q->order = k;
    q->elems = xmalloc((k * g + 1) * sizeof *q->elems);
    q->gen_act = xmalloc((k * g + 1) * sizeof *q->gen_act);
    for (size_t c = 0; c < k; c++) {
        size_t r = b->rep[c];
        memcpy(q->elems + c * g, m->elems + r * g, g * sizeof *q->elems);
        for (size_t t = 0; t < g; t++)
            q->gen_act[c * g + t] = (uint32_t)b->cls[m->gen_act[r * g + t]];
    }
    build_hash(q);
    CgtError e;
    build_mul(q, 2048, &e);
    return q;
}
