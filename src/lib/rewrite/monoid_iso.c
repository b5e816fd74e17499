/* Isomorphism of finite monoids with a marked subset (monoid_iso.h).
 *
 * Invariants prune first; then the images of a generating set of the
 * first monoid are chosen one generator at a time among the elements of
 * the second with the same signature.  After each choice the map is
 * extended over the submonoid generated so far by f(x g) = f(x) f(g),
 * which must stay injective and signature-preserving: a map built this
 * way on all of M that passes the check for every x and every generator g
 * is a homomorphism (f(x g1 ... gk) = f(x) f(g1) ... f(gk) by induction,
 * and f(1) = 1), and a bijection because it is injective between sets of
 * the same size.  The complete map is checked once more against the whole
 * tables (monoid_tab_is_isomorphism) before it is returned. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/monoid_iso.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

#define NONE UINT32_MAX

/* What an isomorphism preserves about one element. */
typedef struct Sig {
    uint32_t index, period; /* x^index = x^(index+period), both least */
    uint32_t ideal;         /* |xM| */
    uint32_t pcount;        /* |{z : xz in P}| */
    uint8_t marked, idem;
} Sig;

static int sig_cmp(const Sig *a, const Sig *b)
{
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    if (a->period != b->period)
        return a->period < b->period ? -1 : 1;
    if (a->ideal != b->ideal)
        return a->ideal < b->ideal ? -1 : 1;
    if (a->pcount != b->pcount)
        return a->pcount < b->pcount ? -1 : 1;
    if (a->marked != b->marked)
        return a->marked < b->marked ? -1 : 1;
    if (a->idem != b->idem)
        return a->idem < b->idem ? -1 : 1;
    return 0;
}

static int sig_qcmp(const void *a, const void *b) { return sig_cmp(a, b); }

static bool marked(const MonoidTab *t, size_t x) { return t->mark && t->mark[x]; }

static CgtStatus signatures(const MonoidTab *t, Sig *s, CgtError *err)
{
    size_t n = t->order;
    uint32_t *seen = xmalloc(n * sizeof *seen); /* stamp: power exponent + 1, or 0 */
    uint32_t *stamp = xcalloc(n, sizeof *stamp);
    for (size_t x = 0; x < n; x++) {
        if ((x & 63) == 0) {
            CgtStatus st = cgt_poll();
            if (st != CGT_OK) {
                free(seen);
                free(stamp);
                return cgt_poll_error(err, st, "the isomorphism invariants");
            }
        }
        memset(&s[x], 0, sizeof s[x]);
        /* powers x^1, x^2, ... until one repeats */
        for (size_t i = 0; i < n; i++)
            seen[i] = 0;
        size_t p = x;
        for (uint32_t e = 1;; e++) {
            if (seen[p]) {
                s[x].index = seen[p];
                s[x].period = e - seen[p];
                break;
            }
            seen[p] = e;
            p = t->mul[p * n + x];
        }
        uint32_t mark_no = (uint32_t)x + 1, ideal = 0, pc = 0;
        for (size_t z = 0; z < n; z++) {
            size_t y = t->mul[x * n + z];
            if (stamp[y] != mark_no) {
                stamp[y] = mark_no;
                ideal++;
            }
            if (marked(t, y))
                pc++;
        }
        s[x].ideal = ideal;
        s[x].pcount = pc;
        s[x].marked = marked(t, x);
        s[x].idem = t->mul[x * n + x] == x;
    }
    free(seen);
    free(stamp);
    return CGT_OK;
}

static bool table_ok(const MonoidTab *t)
{
    size_t n = t->order;
    if (n == 0 || t->identity >= n)
        return false;
    for (size_t i = 0; i < n * n; i++)
        if (t->mul[i] >= n)
            return false;
    return true;
}

bool monoid_tab_is_isomorphism(const MonoidTab *a, const MonoidTab *b, const uint32_t *map)
{
    size_t n = a->order;
    if (b->order != n)
        return false;
    bool *hit = xcalloc(n, sizeof *hit);
    bool ok = true;
    for (size_t x = 0; x < n && ok; x++) {
        if (map[x] >= n || hit[map[x]])
            ok = false;
        else
            hit[map[x]] = true;
    }
    free(hit);
    for (size_t x = 0; x < n && ok; x++) {
        if (marked(a, x) != marked(b, map[x]))
            ok = false;
        for (size_t y = 0; y < n && ok; y++)
            if (map[a->mul[x * n + y]] != b->mul[(size_t)map[x] * n + map[y]])
                ok = false;
    }
    return ok;
}

typedef struct Search {
    const MonoidTab *a, *b;
    const Sig *sa, *sb;
    size_t n;
    uint32_t *gens; /* generators of a */
    size_t ngens;
    uint32_t *map;   /* a -> b, NONE when not yet mapped */
    bool *used;      /* b elements already images */
    uint32_t *list;  /* mapped elements of a, in the order they were mapped */
    size_t nlist;
    uint64_t nodes, max_nodes;
    CgtStatus st;
} Search;

/* Map ax -> bx; false if that breaks injectivity or the signature. */
static bool assign(Search *S, uint32_t ax, uint32_t bx)
{
    if (S->map[ax] != NONE)
        return S->map[ax] == bx;
    if (S->used[bx] || sig_cmp(&S->sa[ax], &S->sb[bx]) != 0)
        return false;
    S->map[ax] = bx;
    S->used[bx] = true;
    S->list[S->nlist++] = ax;
    return true;
}

/* Extend the map over <gens[0..i]>: elements mapped before level i need
 * only the new generator; new ones need all of gens[0..i]. */
static bool extend(Search *S, size_t i, size_t old)
{
    size_t n = S->n;
    for (size_t k = 0; k < S->nlist; k++) {
        uint32_t x = S->list[k];
        for (size_t j = k < old ? i : 0; j <= i; j++) {
            uint32_t g = S->gens[j];
            uint32_t ax = S->a->mul[(size_t)x * n + g];
            uint32_t bx = S->b->mul[(size_t)S->map[x] * n + S->map[g]];
            if (!assign(S, ax, bx))
                return false;
        }
    }
    return true;
}

static void undo(Search *S, size_t to)
{
    while (S->nlist > to) {
        uint32_t x = S->list[--S->nlist];
        S->used[S->map[x]] = false;
        S->map[x] = NONE;
    }
}

static bool search(Search *S, size_t i)
{
    if (i == S->ngens)
        return S->nlist == S->n;
    uint32_t g = S->gens[i];
    for (uint32_t c = 0; c < S->n; c++) {
        if (S->used[c] || sig_cmp(&S->sa[g], &S->sb[c]) != 0)
            continue;
        if (++S->nodes > S->max_nodes) {
            S->st = CGT_ERR_LIMIT;
            return false;
        }
        if ((S->nodes & 1023) == 0 && (S->st = cgt_poll()) != CGT_OK)
            return false;
        size_t old = S->nlist;
        if (assign(S, g, c) && extend(S, i, old) && search(S, i + 1))
            return true;
        undo(S, old);
        if (S->st != CGT_OK)
            return false;
    }
    return false;
}

/* A generating set of a, chosen greedily: elements whose signature is
 * rarest in a come first (fewest candidates to try), each taken when the
 * ones before do not generate it. */
static size_t generators(const MonoidTab *a, const Sig *sa, uint32_t *gens)
{
    size_t n = a->order;
    /* class size of each element's signature */
    uint32_t *cls = xcalloc(n, sizeof *cls);
    Sig *sorted = xmalloc(n * sizeof *sorted);
    memcpy(sorted, sa, n * sizeof *sorted);
    qsort(sorted, n, sizeof *sorted, sig_qcmp);
    for (size_t x = 0; x < n; x++) {
        size_t lo = 0, hi = n;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (sig_cmp(&sorted[mid], &sa[x]) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        size_t k = lo;
        while (k < n && sig_cmp(&sorted[k], &sa[x]) == 0)
            k++;
        cls[x] = (uint32_t)(k - lo);
    }
    free(sorted);
    uint32_t *order = xmalloc(n * sizeof *order);
    size_t m = 0;
    /* counting sort by class size, stable in element order */
    for (uint32_t size = 1; size <= n && m < n; size++)
        for (size_t x = 0; x < n; x++)
            if (cls[x] == size)
                order[m++] = (uint32_t)x;
    free(cls);
    bool *in = xcalloc(n, sizeof *in);
    uint32_t *queue = xmalloc(n * sizeof *queue);
    size_t ng = 0, nin = 1;
    in[a->identity] = true;
    for (size_t k = 0; k < n && nin < n; k++) {
        uint32_t x = order[k];
        if (in[x])
            continue;
        gens[ng++] = x;
        /* the submonoid generated by gens[0..ng-1], from scratch */
        memset(in, 0, n * sizeof *in);
        size_t qh = 0, qt = 0;
        in[a->identity] = true;
        queue[qt++] = (uint32_t)a->identity;
        while (qh < qt) {
            uint32_t y = queue[qh++];
            for (size_t j = 0; j < ng; j++) {
                uint32_t z = a->mul[(size_t)y * n + gens[j]];
                if (!in[z]) {
                    in[z] = true;
                    queue[qt++] = z;
                }
            }
        }
        nin = qt;
    }
    free(in);
    free(queue);
    free(order);
    return ng;
}

static size_t count_if(const Sig *s, size_t n, bool idem)
{
    size_t c = 0;
    for (size_t x = 0; x < n; x++)
        c += idem ? s[x].idem : s[x].marked;
    return c;
}

CgtStatus monoid_tab_isomorphism(const MonoidTab *a, const MonoidTab *b, uint64_t max_nodes,
                                 MonoidIso *out, CgtError *err)
{
    memset(out, 0, sizeof *out);
    if (a->order > MONOID_ISO_MAX_ORDER || b->order > MONOID_ISO_MAX_ORDER)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "isomorphism is decided for monoids of at most %u elements, not %zu",
                             MONOID_ISO_MAX_ORDER, a->order > b->order ? a->order : b->order);
    if (!table_ok(a) || !table_ok(b))
        return cgt_error_set(err, CGT_ERR_DOMAIN, "multiplication table entry out of range");
    if (a->order != b->order) {
        snprintf(out->why, sizeof out->why, "orders differ: %zu and %zu", a->order, b->order);
        return CGT_OK;
    }
    size_t n = a->order;
    Sig *sa = xmalloc(n * sizeof *sa), *sb = xmalloc(n * sizeof *sb);
    CgtStatus st = signatures(a, sa, err);
    if (st == CGT_OK)
        st = signatures(b, sb, err);
    if (st != CGT_OK)
        goto done;
    size_t pa = count_if(sa, n, false), pb = count_if(sb, n, false);
    size_t ia = count_if(sa, n, true), ib = count_if(sb, n, true);
    if (pa != pb) {
        snprintf(out->why, sizeof out->why, "P-portions differ in size: %zu and %zu", pa, pb);
        goto done;
    }
    if (ia != ib) {
        snprintf(out->why, sizeof out->why, "numbers of idempotents differ: %zu and %zu", ia,
                 ib);
        goto done;
    }
    {
        Sig *xa = xmalloc(n * sizeof *xa), *xb = xmalloc(n * sizeof *xb);
        memcpy(xa, sa, n * sizeof *xa);
        memcpy(xb, sb, n * sizeof *xb);
        qsort(xa, n, sizeof *xa, sig_qcmp);
        qsort(xb, n, sizeof *xb, sig_qcmp);
        size_t k = 0;
        while (k < n && sig_cmp(&xa[k], &xb[k]) == 0)
            k++;
        if (k < n)
            snprintf(out->why, sizeof out->why,
                     "element invariants differ (index and period of powers, |xM|, "
                     "|{z : xz in P}|): first %u, %u, %u, %u in one, %u, %u, %u, %u in the "
                     "other",
                     xa[k].index, xa[k].period, xa[k].ideal, xa[k].pcount, xb[k].index,
                     xb[k].period, xb[k].ideal, xb[k].pcount);
        free(xa);
        free(xb);
        if (k < n)
            goto done;
    }
    {
        Search S = {.a = a, .b = b, .sa = sa, .sb = sb, .n = n};
        S.gens = xmalloc(n * sizeof *S.gens);
        S.ngens = generators(a, sa, S.gens);
        S.map = xmalloc(n * sizeof *S.map);
        for (size_t x = 0; x < n; x++)
            S.map[x] = NONE;
        S.used = xcalloc(n, sizeof *S.used);
        S.list = xmalloc(n * sizeof *S.list);
        S.max_nodes = max_nodes ? max_nodes : 50000000u;
        bool found = assign(&S, (uint32_t)a->identity, (uint32_t)b->identity) && search(&S, 0);
        out->nodes = S.nodes;
        out->ngens = S.ngens;
        if (S.st == CGT_ERR_LIMIT)
            st = cgt_error_set(err, CGT_ERR_LIMIT,
                               "isomorphism search passed %llu images of generators",
                               (unsigned long long)S.max_nodes);
        else if (S.st != CGT_OK)
            st = cgt_poll_error(err, S.st, "the isomorphism search");
        else if (found && !monoid_tab_is_isomorphism(a, b, S.map))
            st = cgt_error_set(err, CGT_ERR_INTERNAL,
                               "isomorphism search returned a map that is not an isomorphism");
        else if (found) {
            out->isomorphic = true;
            out->map = S.map;
            S.map = NULL;
        } else {
            snprintf(out->why, sizeof out->why,
                     "the invariants agree, but no choice of images of %zu generators "
                     "extends to an isomorphism (%llu images tried)",
                     S.ngens, (unsigned long long)S.nodes);
        }
        free(S.gens);
        free(S.map);
        free(S.used);
        free(S.list);
    }
done:
    free(sa);
    free(sb);
    return st;
}

void monoid_iso_free(MonoidIso *r)
{
    free(r->map);
    memset(r, 0, sizeof *r);
}
