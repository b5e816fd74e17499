/* Core searches of the misère-quotient engine: least games, least
 * P-failure, least N-failure with antichains of transition sets, marking a
 * trial monoid (docs/misere.md "The searches"), automaton minimisation and
 * trial direct sums (docs/misere.md "One heap at a time").  After A. N.
 * Siegel's MisereSolver; Plambeck & Siegel, JCTA 115 (2008). */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqint.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

static inline void setbit(uint64_t *b, uint32_t i)
{
    b[i >> 6] |= (uint64_t)1 << (i & 63);
}

void mqpret_free(MqPret *q)
{
    if (!q)
        return;
    for (uint32_t l = 0; l < q->nl; l++)
        free(q->act[l]);
    free(q->act);
    free(q->hl);
    free(q->p);
    free(q->pred);
    free(q->predh);
    free(q);
}

MqPret *mqpret_copy(const MqPret *q)
{
    MqPret *c = xcalloc(1, sizeof *c);
    *c = *q;
    c->hl = xmalloc((q->nh ? q->nh : 1) * sizeof *c->hl);
    memcpy(c->hl, q->hl, q->nh * sizeof *c->hl);
    c->act = xmalloc((q->nl ? q->nl : 1) * sizeof *c->act);
    for (uint32_t l = 0; l < q->nl; l++) {
        c->act[l] = xmalloc(q->n * sizeof **c->act);
        memcpy(c->act[l], q->act[l], q->n * sizeof **c->act);
    }
    size_t w = ((size_t)q->n + 63) / 64;
    c->p = xmalloc(w * 8);
    memcpy(c->p, q->p, w * 8);
    c->pred = xmalloc(q->n * sizeof *c->pred);
    memcpy(c->pred, q->pred, q->n * sizeof *c->pred);
    c->predh = xmalloc(q->n * sizeof *c->predh);
    memcpy(c->predh, q->predh, q->n * sizeof *c->predh);
    return c;
}

uint32_t mqpret_eval(const MqPret *q, const uint32_t *g)
{
    uint32_t x = 0;
    for (uint32_t h = 0; h < q->nh; h++)
        if (q->hl[h] >= 0)
            for (uint32_t k = 0; k < g[h]; k++)
                x = q->act[q->hl[h]][x];
    return x;
}

void mqpret_least(const MqPret *q, uint32_t x, uint32_t *g)
{
    memset(g, 0, q->nh * sizeof *g);
    while (x != 0) {
        g[q->predh[x]]++;
        x = q->pred[x];
    }
}

int mq_cmp_games(const uint32_t *a, const uint32_t *b, uint32_t nh)
{
    for (uint32_t i = nh; i-- > 0;)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* ---- options and transition lists ---- */

/* The transition lists of heaps 0..nh-1 in a monoid of `size` elements
 * where heap h acts by letter hl[h] (-1: the identity) and act(ctx, l, x)
 * is x times letter l: an explicit pretension's tables or a trial's
 * direct sum.  Built once per trial, so the call through a pointer costs
 * nothing that shows beside the searches. */
static void tr_build(MqTr *t, uint32_t nh, const int32_t *hl, uint32_t size, const MqOpts *o,
                     uint32_t (*act)(const void *ctx, uint32_t l, uint32_t x), const void *ctx)
{
    t->nh = nh;
    t->off = xmalloc((nh + 1) * sizeof *t->off);
    size_t cap = 64, lcap = 64, ne = 0, nlet = 0;
    t->elem = xmalloc(cap * sizeof *t->elem);
    t->loff = xmalloc((cap + 1) * sizeof *t->loff);
    t->let = xmalloc(lcap * sizeof *t->let);
    t->loff[0] = 0;
    uint32_t *stamp = xcalloc(size ? size : 1, sizeof *stamp);
    for (uint32_t h = 0; h < nh; h++) {
        t->off[h] = (uint32_t)ne;
        MqOptIt it;
        mqopt_begin(&it, &o->o[h]);
        const uint32_t *parts;
        uint32_t np;
        while ((parts = mqopt_next(&it, &np))) {
            uint32_t x = 0;
            size_t base = nlet;
            for (uint32_t k = 0; k < np; k++) {
                int32_t l = hl[parts[k]];
                if (l < 0)
                    continue;
                x = act(ctx, (uint32_t)l, x);
                if (nlet + 1 > lcap) {
                    lcap *= 2;
                    t->let = xrealloc(t->let, lcap * sizeof *t->let);
                }
                t->let[nlet++] = (uint32_t)l;
            }
            if (stamp[x] == h + 1) {
                nlet = base;
                continue;
            }
            stamp[x] = h + 1;
            if (ne + 1 > cap) {
                cap *= 2;
                t->elem = xrealloc(t->elem, cap * sizeof *t->elem);
                t->loff = xrealloc(t->loff, (cap + 1) * sizeof *t->loff);
            }
            t->elem[ne++] = x;
            t->loff[ne] = (uint32_t)nlet;
        }
    }
    t->off[nh] = (uint32_t)ne;
    free(stamp);
}

static uint32_t pret_act(const void *ctx, uint32_t l, uint32_t x)
{
    return ((const MqPret *)ctx)->act[l][x];
}

void mqtr_build(MqTr *t, const MqPret *q, const MqOpts *o)
{
    tr_build(t, q->nh, q->hl, q->n, o, pret_act, q);
}

void mqtr_free(MqTr *t)
{
    free(t->off);
    free(t->elem);
    free(t->loff);
    free(t->let);
    memset(t, 0, sizeof *t);
}

/* ---- antichains ---- */

void mqanti_init(MqAnti *a, uint32_t n)
{
    a->n = n;
    a->words = (n + 63) / 64;
    a->row = xcalloc(n ? n : 1, sizeof *a->row);
    a->total = 0;
    a->stamp = NULL;
    a->nstamp = a->gen = 0;
}

static void row_free(MqAntiRow *r)
{
    for (uint32_t b = 0; b < r->nb; b++)
        free(r->b[b].e);
    free(r->b);
    free(r->el);
}

void mqanti_free(MqAnti *a)
{
    if (!a->row)
        return;
    for (uint32_t x = 0; x < a->n; x++)
        row_free(&a->row[x]);
    free(a->row);
    free(a->stamp);
    memset(a, 0, sizeof *a);
}

/* The bucket of element e in a row of 2^lg buckets (Fibonacci hashing:
 * nearby elements fall into different buckets). */
static inline uint32_t bkt_of(uint32_t e, uint32_t lg)
{
    return lg ? (uint32_t)(e * 0x9E3779B1u) >> (32 - lg) : 0;
}

static void bkt_push(MqAntiBkt *b, MqAntiEnt v)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 2;
        b->e = xrealloc(b->e, (size_t)b->cap * sizeof *b->e);
    }
    b->e[b->n++] = v;
}

/* Lay the entries v[0..n-1] (elements in r->el) out in 2^lg buckets,
 * each set in the bucket of its largest element; the old buckets are
 * freed. */
static void row_layout(MqAntiRow *r, const MqAntiEnt *v, uint32_t n, uint32_t lg)
{
    for (uint32_t b = 0; b < r->nb; b++)
        free(r->b[b].e);
    free(r->b);
    r->lg = lg;
    r->nb = (uint32_t)1 << lg;
    r->b = xcalloc(r->nb, sizeof *r->b);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t top = v[i].k ? r->el[v[i].off + v[i].k - 1] : 0;
        bkt_push(&r->b[bkt_of(top, lg)], v[i]);
    }
    r->nrec = n;
}

/* log2 of the buckets for a row of n sets: about two sets a bucket. */
static uint32_t lg_for(uint32_t n)
{
    uint32_t lg = 0;
    while (((uint32_t)2 << lg) < n && lg < 24)
        lg++;
    return lg;
}

/* The entries of row r in bucket order, into a fresh array. */
static MqAntiEnt *row_entries(const MqAntiRow *r)
{
    MqAntiEnt *v = xmalloc((size_t)(r->nrec ? r->nrec : 1) * sizeof *v);
    uint32_t n = 0;
    for (uint32_t b = 0; b < r->nb; b++) {
        if (!r->b[b].n)
            continue;
        memcpy(v + n, r->b[b].e, (size_t)r->b[b].n * sizeof *v);
        n += r->b[b].n;
    }
    return v;
}

void mqanti_copy(MqAnti *dst, const MqAnti *src)
{
    mqanti_init(dst, src->n);
    dst->total = src->total;
    for (uint32_t x = 0; x < src->n; x++) {
        const MqAntiRow *r = &src->row[x];
        MqAntiRow *d = &dst->row[x];
        if (!r->nb)
            continue;
        d->nb = r->nb;
        d->lg = r->lg;
        d->nrec = r->nrec;
        d->b = xcalloc(r->nb, sizeof *d->b);
        d->el = xmalloc((size_t)(r->nel ? r->nel : 1) * sizeof *d->el);
        d->capel = r->nel ? r->nel : 1;
        if (r->nel)
            memcpy(d->el, r->el, (size_t)r->nel * sizeof *d->el);
        d->nel = r->nel;
        for (uint32_t b = 0; b < r->nb; b++) {
            uint32_t m = r->b[b].n;
            if (!m)
                continue;
            d->b[b].e = xmalloc((size_t)m * sizeof *d->b[b].e);
            memcpy(d->b[b].e, r->b[b].e, (size_t)m * sizeof *d->b[b].e);
            d->b[b].n = d->b[b].cap = m;
        }
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void mqanti_map(MqAnti *dst, const MqAnti *src, const uint32_t *emb, uint32_t n)
{
    mqanti_init(dst, n);
    dst->total = src->total;
    for (uint32_t x = 0; x < src->n; x++) {
        const MqAntiRow *r = &src->row[x];
        if (!r->nrec)
            continue; /* (emb[x] may be undefined then) */
        MqAntiRow *d = &dst->row[emb[x]];
        MqAntiEnt *v = row_entries(r);
        d->el = xmalloc((size_t)(r->nel ? r->nel : 1) * sizeof *d->el);
        d->capel = r->nel ? r->nel : 1;
        for (uint32_t j = 0; j < r->nrec; j++) {
            uint32_t k = v[j].k, *e = d->el + d->nel;
            uint64_t sig = 0;
            for (uint32_t i = 0; i < k; i++) {
                e[i] = emb[r->el[v[j].off + i]];
                sig |= (uint64_t)1 << (e[i] & 63);
            }
            qsort(e, k, sizeof *e, cmp_u32);
            v[j] = (MqAntiEnt){.sig = sig, .k = k, .off = d->nel};
            d->nel += k;
        }
        row_layout(d, v, r->nrec, lg_for(r->nrec));
        free(v);
    }
}

static uint64_t sig_of(const uint64_t *T, uint32_t W)
{
    uint64_t s = 0;
    for (uint32_t w = 0; w < W; w++)
        s |= T[w];
    return s;
}

/* The set of entry v of row r is a subset of the bitset T. */
static inline bool ent_in(const MqAntiRow *r, const MqAntiEnt *v, const uint64_t *T)
{
    const uint32_t *e = r->el + v->off;
    uint32_t k = v->k, i = 0;
    while (i < k && mq_bit(T, e[i]))
        i++;
    return i == k;
}

/* A fresh mark for the buckets of one query (a->stamp[b] == a->gen: read
 * already), for rows of up to nb buckets. */
static void stamp_next(MqAnti *a, uint32_t nb)
{
    if (nb > a->nstamp) {
        free(a->stamp);
        a->stamp = xcalloc(nb, sizeof *a->stamp);
        a->nstamp = nb;
        a->gen = 0;
    }
    if (++a->gen == 0) {
        memset(a->stamp, 0, (size_t)a->nstamp * sizeof *a->stamp);
        a->gen = 1;
    }
}

/* Some stored set of row x is a subset of the set T, given as its bitset
 * T, its elements te[0..tn-1] (in any order, te[top] the largest) and its
 * signature sT.  The buckets of T's elements are read, each once, the
 * largest element's first: the set that answers has most often the
 * largest element of T as its own (on 0.54 to heap 230 this reads 1.7
 * buckets a query instead of 8).  The set found moves to the front of its
 * bucket (the order of a bucket carries no meaning: the sets that answer
 * most often are tried first). */
static bool row_covered(MqAnti *a, uint32_t x, const uint64_t *T, const uint32_t *te,
                        uint32_t tn, uint32_t top, uint64_t sT)
{
    MqAntiRow *r = &a->row[x];
    if (!r->nrec)
        return false;
    uint32_t lg = r->lg;
    if (tn == 0) { /* only an empty set lies in it */
        for (uint32_t b = 0; b < r->nb; b++)
            for (uint32_t j = 0; j < r->b[b].n; j++)
                if (r->b[b].e[j].k == 0)
                    return true;
        return false;
    }
    if (lg)
        stamp_next(a, r->nb);
    for (uint32_t i = 0; i <= tn; i++) {
        if (i == top + 1)
            continue; /* read first */
        uint32_t b = bkt_of(te[i ? i - 1 : top], lg);
        if (lg) {
            if (a->stamp[b] == a->gen)
                continue;
            a->stamp[b] = a->gen;
        }
        MqAntiBkt *B = &r->b[b];
        for (uint32_t j = 0; j < B->n; j++) {
            if ((B->e[j].sig & ~sT) || !ent_in(r, &B->e[j], T))
                continue;
            if (j) {
                MqAntiEnt t = B->e[j];
                memmove(B->e + 1, B->e, j * sizeof *B->e);
                B->e[0] = t;
            }
            return true;
        }
        if (!lg)
            return false; /* one bucket: read whole */
    }
    return false;
}

bool mqanti_covered(MqAnti *a, uint32_t x, const uint64_t *T)
{
    uint32_t n = 0, cap = 64, *te = xmalloc(cap * sizeof *te);
    for (uint32_t w = 0; w < a->words; w++)
        for (uint64_t bits = T[w]; bits; bits &= bits - 1) {
            if (n == cap) {
                cap *= 2;
                te = xrealloc(te, cap * sizeof *te);
            }
            te[n++] = w * 64 + (uint32_t)__builtin_ctzll(bits);
        }
    bool r = row_covered(a, x, T, te, n, n ? n - 1 : 0, sig_of(T, a->words));
    free(te);
    return r;
}

/* Sorted list s (length m) is a subset of sorted list t (length k). */
static bool list_subset(const uint32_t *s, uint32_t m, const uint32_t *t, uint32_t k)
{
    uint32_t j = 0;
    for (uint32_t i = 0; i < m; i++) {
        while (j < k && t[j] < s[i])
            j++;
        if (j == k || t[j] != s[i])
            return false;
        j++;
    }
    return true;
}

/* Drop the sets of row r that contain another set of the row, compact
 * its pool and lay it out again for its size.  Each set is tested
 * against the live sets in the buckets of its own elements, so a set
 * whose only subsets were dropped before it is still dropped (one of
 * their least subsets stays). */
static void row_tidy(MqAnti *a, MqAntiRow *r)
{
    for (uint32_t b = 0; b < r->nb; b++) {
        MqAntiBkt *B = &r->b[b];
        for (uint32_t j = 0; j < B->n; j++) {
            MqAntiEnt *v = &B->e[j];
            const uint32_t *s = r->el + v->off;
            bool dom = false;
            stamp_next(a, r->nb);
            for (uint32_t i = 0; i < v->k && !dom; i++) {
                uint32_t c = bkt_of(s[i], r->lg);
                if (a->stamp[c] == a->gen)
                    continue;
                a->stamp[c] = a->gen;
                const MqAntiBkt *C = &r->b[c];
                for (uint32_t m = 0; m < C->n && !dom; m++) {
                    const MqAntiEnt *u = &C->e[m];
                    dom = u != v && u->k != UINT32_MAX && u->k <= v->k && !(u->sig & ~v->sig) &&
                          list_subset(r->el + u->off, u->k, s, v->k);
                }
            }
            if (dom) {
                v->k = UINT32_MAX; /* dropped */
                a->total--;
            }
        }
    }
    MqAntiEnt *v = xmalloc((size_t)r->nrec * sizeof *v);
    uint32_t n = 0, nel = 0;
    for (uint32_t b = 0; b < r->nb; b++)
        for (uint32_t j = 0; j < r->b[b].n; j++)
            if (r->b[b].e[j].k != UINT32_MAX) {
                v[n] = r->b[b].e[j];
                nel += v[n++].k;
            }
    uint32_t cap = nel > 16 ? nel : 16, *el = xmalloc((size_t)cap * sizeof *el), o = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (v[i].k)
            memcpy(el + o, r->el + v[i].off, (size_t)v[i].k * sizeof *el);
        v[i].off = o;
        o += v[i].k;
    }
    free(r->el);
    r->el = el;
    r->nel = nel;
    r->capel = cap;
    row_layout(r, v, n, lg_for(n));
    free(v);
}

/* One query of the N-failure search for the set T (bitset T, elements
 * te[0..tn-1] in any order, te[top] the largest, signature sT) at element
 * x: true when some
 * stored set is a subset of T; otherwise T is added, as its ascending
 * list (sorted in list), and the result is false.  A row that outgrows
 * its buckets (more than four sets a bucket) is tidied. */
static bool anti_cover_or_insert(MqAnti *a, uint32_t x, const uint64_t *T, const uint32_t *te,
                                 uint32_t tn, uint32_t top, uint64_t sT, uint32_t *list)
{
    if (row_covered(a, x, T, te, tn, top, sT))
        return true;
    MqAntiRow *r = &a->row[x];
    uint32_t m = tn;
    if (m)
        memcpy(list, te, (size_t)m * sizeof *list);
    if (m > 32)
        qsort(list, m, sizeof *list, cmp_u32);
    else
        for (uint32_t i = 1; i < m; i++) {
            uint32_t v = list[i], j = i;
            for (; j > 0 && list[j - 1] > v; j--)
                list[j] = list[j - 1];
            list[j] = v;
        }
    if (!r->nb)
        row_layout(r, NULL, 0, 0);
    if (r->nel + m > r->capel) {
        uint32_t nc = r->capel ? 2 * r->capel : 16;
        while (nc < r->nel + m)
            nc *= 2;
        r->el = xrealloc(r->el, (size_t)nc * sizeof *r->el);
        r->capel = nc;
    }
    if (m)
        memcpy(r->el + r->nel, list, (size_t)m * sizeof *list);
    bkt_push(&r->b[bkt_of(m ? list[m - 1] : 0, r->lg)],
             (MqAntiEnt){.sig = sT, .k = m, .off = r->nel});
    r->nel += m;
    r->nrec++;
    a->total++;
    if (r->nrec > 4 * r->nb)
        row_tidy(a, r);
    return false;
}

/* ---- transition-set recurrence (docs/misere.md "Word order and failures") ---- */

/* A transition set of the N-failure search: its bitset over the
 * trial's elements, the list of its elements (in the order they were
 * met) and its signature, so that a step, a query and the test for P
 * cost the size of the set and not the trial's bitset width (a trial
 * of heap 34 of 0.07 has 49,606 elements and sets of a few dozen). */
typedef struct TSet {
    uint64_t *bits;
    uint32_t *el;
    uint32_t n, cap;
    uint32_t top; /* el[top] is the largest element */
    uint64_t sig;
} TSet;

/* out = T(G + h) from T = T(G) and x = phi(G): T·phi(h) ∪ x·trans(h).
 * The images are written first and deduplicated after, so that their
 * table look-ups do not wait for one another. */
static void tr_step(const MqPret *q, const MqTr *t, uint32_t h, uint32_t x, const TSet *T,
                    TSet *out, uint32_t W)
{
    if (out->n > W / 4)
        memset(out->bits, 0, (size_t)W * 8);
    else
        for (uint32_t i = 0; i < out->n; i++)
            out->bits[out->el[i] >> 6] = 0;
    uint32_t nt = t->off[h + 1] - t->off[h], need = T->n + nt;
    if (need > out->cap) {
        out->cap = need > 2 * out->cap ? need : 2 * out->cap;
        out->el = xrealloc(out->el, (size_t)out->cap * sizeof *out->el);
    }
    const uint32_t *a = q->act[q->hl[h]];
    uint32_t *o = out->el;
    for (uint32_t i = 0; i < T->n; i++)
        o[i] = a[T->el[i]];
    for (uint32_t i = 0; i < nt; i++)
        o[T->n + i] = mq_fold(q, t, t->off[h] + i, x);
    uint32_t n = 0, top = 0;
    uint64_t sig = 0, *bits = out->bits;
    for (uint32_t i = 0; i < need; i++) {
        uint32_t e = o[i];
        uint64_t m = (uint64_t)1 << (e & 63);
        if (bits[e >> 6] & m)
            continue;
        bits[e >> 6] |= m;
        sig |= m;
        if (e > o[top])
            top = n;
        o[n++] = e;
    }
    out->n = n;
    out->top = top;
    out->sig = sig;
}

static bool tset_meets(const TSet *T, const uint64_t *p)
{
    for (uint32_t i = 0; i < T->n; i++)
        if (mq_bit(p, T->el[i]))
            return true;
    return false;
}

static uint32_t levels_of(const MqPret *q, uint32_t *lev)
{
    uint32_t k = 0;
    for (uint32_t h = 1; h < q->nh; h++)
        if (q->hl[h] >= 0)
            lev[k++] = h;
    return k;
}

/* ---- 1a: least games ---- */

static void least_dfs(const MqPret *q, const uint32_t *lev, int li, uint32_t x, uint8_t *seen,
                      uint32_t *pred, uint32_t *predh)
{
    if (li < 0)
        return;
    uint32_t h = lev[li];
    const uint32_t *a = q->act[q->hl[h]];
    for (;;) {
        least_dfs(q, lev, li - 1, x, seen, pred, predh);
        uint32_t y = a[x];
        if (seen[y])
            break;
        seen[y] = 1;
        pred[y] = x;
        predh[y] = h;
        x = y;
    }
}

void mqpret_least_tree(MqPret *q)
{
    uint32_t *lev = xmalloc((q->nh + 1) * sizeof *lev);
    uint32_t nlev = levels_of(q, lev);
    uint8_t *seen = xcalloc(q->n, 1);
    seen[0] = 1;
    q->pred[0] = 0;
    q->predh[0] = 0;
    least_dfs(q, lev, (int)nlev - 1, 0, seen, q->pred, q->predh);
    free(seen);
    free(lev);
}

/* ---- 1b: least P-failure ---- */

/* st NULL: no polling; otherwise a stop sets *st (found is then void). */
static bool least_pfail(const MqPret *q, const MqTr *t, uint32_t *g, CgtStatus *st)
{
    uint32_t nh = q->nh;
    uint32_t *cand = xmalloc((nh + 1) * sizeof *cand);
    bool found = false;
    for (uint32_t x = 0; x < q->n; x++) {
        if (st && (x & 63) == 0 && (*st = cgt_poll()) != CGT_OK)
            break;
        for (uint32_t h = 1; h < nh; h++) {
            if (q->hl[h] < 0 || !mq_bit(q->p, q->act[q->hl[h]][x]))
                continue;
            bool bad = false;
            for (uint32_t i = t->off[h]; i < t->off[h + 1] && !bad; i++)
                bad = mq_bit(q->p, mq_fold(q, t, i, x));
            if (!bad)
                continue;
            mqpret_least(q, x, cand);
            cand[h]++;
            if (!found || mq_cmp_games(cand, g, nh) < 0) {
                memcpy(g, cand, nh * sizeof *g);
                found = true;
            }
        }
    }
    free(cand);
    return found;
}

bool mq_least_pfail(const MqPret *q, const MqTr *t, uint32_t *g)
{
    return least_pfail(q, t, g, NULL);
}

CgtStatus mq_least_pfail_polled(const MqPret *q, const MqTr *t, uint32_t *g, bool *found,
                                CgtError *err)
{
    CgtStatus st = CGT_OK;
    *found = least_pfail(q, t, g, &st);
    return st == CGT_OK ? CGT_OK : cgt_poll_error(err, st, "misere quotient");
}

/* ---- 1c: least N-failure ---- */

typedef struct NfCtx {
    const MqPret *q;
    const MqTr *t;
    const uint32_t *max;
    MqAnti *anti;
    const uint32_t *lev;
    TSet *ts; /* two per level */
    uint32_t W; /* words of a set's bitset */
    uint32_t *cur;
    uint32_t *g;
    uint32_t *list; /* scratch: elements of a transition set */
    bool skip;      /* the positions without heaps >= `from` are searched already: */
    int skip_li;    /* the lowest level of such a heap skips its first descent */
    CgtStatus st;
} NfCtx;

/* Returns 0 to continue, 1 failure found, 2 bound reached, 3 poll stop. */
static int nf_dfs(NfCtx *c, int li, uint32_t x, const TSet *T)
{
    if (li < 0)
        return 0;
    uint32_t h = c->lev[li];
    /* T is borrowed from the caller (unchanged while we run); our own two
     * sets alternate for the games with more copies of heap h */
    const TSet *cur = T;
    TSet *nxt = &c->ts[2 * li], *spare = nxt + 1;
    const uint32_t *a = c->q->act[c->q->hl[h]];
    int r = 0;
    for (;;) {
        if (c->skip && li == c->skip_li)
            c->skip = false;
        else
            r = nf_dfs(c, li - 1, x, cur);
        if (r)
            break;
        CgtStatus st = cgt_poll();
        if (st != CGT_OK) {
            c->st = st;
            r = 3;
            break;
        }
        uint32_t y = a[x];
        tr_step(c->q, c->t, h, x, cur, nxt, c->W);
        c->cur[h]++;
        if (c->max && mq_cmp_games(c->cur, c->max, c->q->nh) >= 0) {
            r = 2;
            break;
        }
        /* no size bound: the signature and the elements decide */
        if (anti_cover_or_insert(c->anti, y, nxt->bits, nxt->el, nxt->n, nxt->top, nxt->sig,
                                 c->list))
            break;
        if (!mq_bit(c->q->p, y) && !tset_meets(nxt, c->q->p)) {
            memcpy(c->g, c->cur, c->q->nh * sizeof *c->g);
            r = 1;
            break;
        }
        x = y;
        cur = nxt;
        nxt = spare;
        spare = (TSet *)cur;
    }
    c->cur[h] = 0;
    return r;
}

/* from < nh: the positions without heaps >= from are searched already
 * (`anti` holds their antichains); from >= nh: none is. */
static CgtStatus least_nfail(const MqPret *q, const MqTr *t, const uint32_t *max, MqAnti *anti,
                             uint32_t from, bool *found, uint32_t *g, bool *complete,
                             CgtError *err)
{
    NfCtx c = {0};
    uint32_t *lev = xmalloc((q->nh + 1) * sizeof *lev);
    uint32_t nlev = levels_of(q, lev);
    c.q = q;
    c.t = t;
    c.max = max;
    c.anti = anti;
    c.lev = lev;
    c.skip = false;
    for (uint32_t i = 0; i < nlev && !c.skip; i++)
        if (lev[i] >= from) {
            c.skip = true;
            c.skip_li = (int)i;
        }
    uint32_t W = (q->n + 63) / 64, nts = 2 * nlev + 1;
    c.W = W;
    uint64_t *bits = xcalloc((size_t)nts * W + 1, 8);
    c.ts = xcalloc(nts, sizeof *c.ts);
    for (uint32_t i = 0; i < nts; i++) {
        c.ts[i].bits = bits + (size_t)i * W;
        c.ts[i].cap = 16;
        c.ts[i].el = xmalloc(c.ts[i].cap * sizeof *c.ts[i].el);
    }
    c.cur = xcalloc(q->nh + 1, sizeof *c.cur);
    c.g = g;
    c.list = xmalloc(((size_t)W * 64 + 1) * sizeof *c.list);
    /* the last set stays empty: T of the empty position */
    int r = nf_dfs(&c, (int)nlev - 1, 0, &c.ts[nts - 1]);
    for (uint32_t i = 0; i < nts; i++)
        free(c.ts[i].el);
    free(c.ts);
    free(bits);
    free(c.cur);
    free(c.list);
    free(lev);
    *found = (r == 1);
    *complete = (r == 0);
    if (r == 3)
        return cgt_poll_error(err, c.st, "misere quotient");
    return CGT_OK;
}

CgtStatus mq_least_nfail(const MqPret *q, const MqTr *t, const uint32_t *max, MqAnti *anti,
                         bool *found, uint32_t *g, bool *complete, CgtError *err)
{
    return least_nfail(q, t, max, anti, UINT32_MAX, found, g, complete, err);
}

CgtStatus mq_least_nfail_from(const MqPret *q, const MqTr *t, const uint32_t *max, MqAnti *anti,
                              uint32_t from, bool *found, uint32_t *g, bool *complete,
                              CgtError *err)
{
    /* the walk must hold a heap >= from with options, and a bound must
       lie beyond the skipped part (every position with such a heap is
       larger than every position without one) */
    bool any = false, bound = !max;
    for (uint32_t h = from; h < q->nh; h++) {
        any |= q->hl[h] >= 0;
        bound |= max && max[h] > 0;
    }
    if (from == 0 || !any || !bound) {
        /* nothing to search apart: start again from nothing */
        mqanti_free(anti);
        mqanti_init(anti, q->n);
        from = UINT32_MAX;
    }
    return least_nfail(q, t, max, anti, from, found, g, complete, err);
}

CgtStatus mq_least_nfail_top(const MqPret *q, const MqTr *t, const uint32_t *max, MqAnti *anti,
                             bool *found, uint32_t *g, bool *complete, CgtError *err)
{
    uint32_t top = q->nh ? q->nh - 1 : 0;
    if (q->nh > 1 && q->hl[top] < 0)
        top = 0; /* no top heap to search apart */
    return mq_least_nfail_from(q, t, max, anti, top, found, g, complete, err);
}

/* ---- 1d: marking a trial monoid ---- */

/* A trial is the direct sum R + C1 + ... + Ck of a base monoid R (the
 * explicit tables of the kept heaps' images) and cyclic monoids Ci
 * (docs/misere.md "One heap at a time").  It is never written out as
 * tables: element (r, c), r in R and c in the product C of the cyclic
 * components, is the number c << shift | r (R padded to a power of two),
 * and a letter acts on r through its base table and on c through the
 * successor table of its cyclic component.  This keeps a trial's memory
 * at |R| + |C| per letter instead of |R|·|C| per letter, and building a
 * trial costs its marking alone. */
typedef struct TrialAct {
    uint32_t shift, mask;
    uint32_t nl;
    const int32_t *lb;     /* per letter: base letter, -1 = none */
    const int32_t *lc;     /* per letter: cyclic component, -1 = none */
    uint32_t *const *bact; /* base tables (borrowed) */
    uint32_t **cnext;      /* per cyclic component: c -> c * generator */
} TrialAct;

static inline uint32_t ta_act(const TrialAct *a, uint32_t l, uint32_t x)
{
    uint32_t r = x & a->mask, c = x >> a->shift;
    if (a->lb[l] >= 0)
        r = a->bact[a->lb[l]][r];
    if (a->lc[l] >= 0)
        c = a->cnext[a->lc[l]][c];
    return c << a->shift | r;
}

static inline uint32_t ta_fold(const TrialAct *a, const MqTr *t, uint32_t i, uint32_t x)
{
    for (uint32_t k = t->loff[i]; k < t->loff[i + 1]; k++)
        x = ta_act(a, t->let[k], x);
    return x;
}

static uint32_t ta_act_of(const void *ctx, uint32_t l, uint32_t x)
{
    return ta_act((const TrialAct *)ctx, l, x);
}

/* A transition set of the marking: a bitset for membership and the list
 * of its elements, so that a step costs the size of the set and not the
 * O(W) words of a trial that may have 10^5 elements and more. */
typedef struct MarkSet {
    uint64_t *bits;
    uint32_t *el;
    uint32_t n, cap;
} MarkSet;

static void mset_clear(MarkSet *s)
{
    for (uint32_t i = 0; i < s->n; i++)
        s->bits[s->el[i] >> 6] &= ~(1ULL << (s->el[i] & 63));
    s->n = 0;
}

typedef struct MarkCtx {
    const TrialAct *a;
    const int32_t *hl;
    const MqTr *t;
    const uint32_t *lev;
    MarkSet *buf; /* two sets per level */
    uint8_t *seen;
    uint64_t *p;
    uint32_t *pred, *predh, *order;
    uint32_t norder;
    CgtStatus st; /* a poll stopped the marking */
    /* the element of the trial's check game, and the label it must get:
       once it is marked with the other label the trial is refused, and
       the marking stops there (halt) */
    uint32_t watch;
    bool want_p, halt;
} MarkCtx;

/* T(G + h) from T(G) (docs/misere.md "Word order and failures"); returns
 * whether it meets P.  The letter's tables are looked up once, not per
 * element, and the set's room is made once. */
static bool mset_step(const MarkCtx *c, uint32_t h, uint32_t x, const MarkSet *T, MarkSet *out)
{
    mset_clear(out);
    const TrialAct *a = c->a;
    uint32_t l = (uint32_t)c->hl[h];
    uint32_t need = T->n + (c->t->off[h + 1] - c->t->off[h]);
    if (need > out->cap) {
        out->cap = need > 2 * out->cap ? need : 2 * out->cap;
        out->el = xrealloc(out->el, (size_t)out->cap * sizeof *out->el);
    }
    const uint32_t *b = a->lb[l] >= 0 ? a->bact[a->lb[l]] : NULL;
    const uint32_t *cn = a->lc[l] >= 0 ? a->cnext[a->lc[l]] : NULL;
    uint32_t shift = a->shift, mask = a->mask, n = 0;
    uint64_t *bits = out->bits;
    uint32_t *el = out->el;
    const uint64_t *p = c->p;
    bool meets = false;
#define MSET_ADD(E)                                                                               \
    do {                                                                                          \
        uint32_t e_ = (E);                                                                        \
        if (!mq_bit(bits, e_)) {                                                                  \
            setbit(bits, e_);                                                                     \
            el[n++] = e_;                                                                         \
            meets |= mq_bit(p, e_);                                                               \
        }                                                                                         \
    } while (0)
    if (b && !cn)
        for (uint32_t i = 0; i < T->n; i++) {
            uint32_t t = T->el[i];
            MSET_ADD((t & ~mask) | b[t & mask]);
        }
    else
        for (uint32_t i = 0; i < T->n; i++) {
            uint32_t t = T->el[i], r = t & mask, cc = t >> shift;
            MSET_ADD((cn ? cn[cc] : cc) << shift | (b ? b[r] : r));
        }
    for (uint32_t i = c->t->off[h]; i < c->t->off[h + 1]; i++)
        MSET_ADD(ta_fold(a, c->t, i, x));
#undef MSET_ADD
    out->n = n;
    return meets;
}

/* Every element once, at its least game, in increasing order (docs/misere.md
 * "The searches", marking P).  A trial may have 10^5 elements and more, so
 * the marking polls at every step, as nf_dfs does. */
static void mark_dfs(MarkCtx *c, int li, uint32_t x, const MarkSet *T)
{
    if (li < 0 || c->halt)
        return;
    uint32_t h = c->lev[li];
    uint32_t l = (uint32_t)c->hl[h];
    const MarkSet *cur = T; /* borrowed, as in nf_dfs */
    MarkSet *nxt = c->buf + 2 * li, *spare = nxt + 1;
    for (;;) {
        mark_dfs(c, li - 1, x, cur);
        if (c->halt || c->st != CGT_OK || (c->st = cgt_poll()) != CGT_OK)
            return;
        uint32_t y = ta_act(c->a, l, x);
        if (c->seen[y])
            break;
        bool meets = mset_step(c, h, x, cur, nxt);
        c->seen[y] = 1;
        c->pred[y] = x;
        c->predh[y] = h;
        c->order[c->norder++] = y;
        if (!meets)
            setbit(c->p, y);
        /* a label is final once marked: the options' elements come first */
        if (y == c->watch && mq_bit(c->p, y) != c->want_p) {
            c->halt = true;
            return;
        }
        x = y;
        cur = nxt;
        nxt = spare;
        spare = (MarkSet *)cur;
    }
}

/* ---- automaton minimisation (Moore refinement) ---- */

/* st NULL: no polling; otherwise polled once per round and every 4096
 * elements, and on a stop *st is set and the classes are not final. */
static uint32_t minimise(uint32_t n, uint32_t nl, uint32_t *const *act, const uint64_t *p,
                         uint32_t *cls, CgtStatus *st)
{
    uint32_t *nc = xmalloc((n ? n : 1) * sizeof *nc);
    size_t hsz = 16;
    while (hsz < 2 * (size_t)n)
        hsz *= 2;
    uint32_t *tab = xmalloc(hsz * sizeof *tab);
    uint32_t *rep = xmalloc((n ? n : 1) * sizeof *rep);
    uint64_t *mult = xmalloc((nl + 1) * sizeof *mult);
    /* the images of x under every letter side by side: a round reads them
     * in order instead of one cache line per letter */
    uint32_t *img = xmalloc(((size_t)n * nl + 1) * sizeof *img);
    for (uint32_t l = 0; l < nl; l++)
        for (uint32_t x = 0; x < n; x++)
            img[(size_t)x * nl + l] = act[l][x];
    for (uint32_t l = 0; l < nl; l++)
        mult[l] = ((0x9e3779b97f4a7c15ULL * (l + 1)) ^ ((uint64_t)(l + 7) << 33)) | 1;
    /* initial partition by P, numbered by first occurrence */
    int first = -1;
    uint32_t count = 0;
    for (uint32_t x = 0; x < n; x++) {
        int b = mq_bit(p, x);
        if (first < 0)
            first = b;
        cls[x] = (b == first) ? 0 : 1;
        if (cls[x] + 1 > count)
            count = cls[x] + 1;
    }
    for (;;) {
        memset(tab, 0xff, hsz * sizeof *tab);
        uint32_t k = 0;
        for (uint32_t x = 0; x < n; x++) {
            if (st && (x & 4095) == 0 && (*st = cgt_poll()) != CGT_OK)
                goto out;
            const uint32_t *ix = img + (size_t)x * nl;
            uint64_t hv = cls[x] * 0x9e3779b97f4a7c15ULL;
            for (uint32_t l = 0; l < nl; l++)
                hv += (uint64_t)cls[ix[l]] * mult[l];
            hv ^= hv >> 29;
            hv *= 0xbf58476d1ce4e5b9ULL;
            hv ^= hv >> 32;
            size_t i = (size_t)hv & (hsz - 1);
            for (;;) {
                uint32_t r = tab[i];
                if (r == UINT32_MAX) {
                    tab[i] = k;
                    rep[k] = x;
                    nc[x] = k++;
                    break;
                }
                uint32_t y = rep[r];
                const uint32_t *iy = img + (size_t)y * nl;
                bool eq = cls[x] == cls[y];
                for (uint32_t l = 0; eq && l < nl; l++)
                    eq = cls[ix[l]] == cls[iy[l]];
                if (eq) {
                    nc[x] = r;
                    break;
                }
                i = (i + 1) & (hsz - 1);
            }
        }
        memcpy(cls, nc, n * sizeof *cls);
        if (k == count)
            break;
        count = k;
    }
out:
    free(img);
    free(nc);
    free(tab);
    free(rep);
    free(mult);
    return count;
}

uint32_t mq_minimise(uint32_t n, uint32_t nl, uint32_t *const *act, const uint64_t *p,
                     uint32_t *cls)
{
    return minimise(n, nl, act, p, cls, NULL);
}

/* ---- submonoids ---- */

void mq_submonoid(const MqPret *q, const bool *keep, uint32_t *out_n, uint32_t *out_nl,
                  uint32_t ***out_act, int32_t **out_hl)
{
    int32_t *lmap = xmalloc((q->nl + 1) * sizeof *lmap);
    for (uint32_t l = 0; l < q->nl; l++)
        lmap[l] = -1;
    int32_t *hl = xmalloc((q->nh + 1) * sizeof *hl);
    uint32_t nl = 0;
    uint32_t *used = xmalloc((q->nl + 1) * sizeof *used);
    for (uint32_t h = 0; h < q->nh; h++) {
        hl[h] = -1;
        if (!keep[h] || q->hl[h] < 0)
            continue;
        int32_t l = q->hl[h];
        if (lmap[l] < 0) {
            lmap[l] = (int32_t)nl;
            used[nl++] = (uint32_t)l;
        }
        hl[h] = lmap[l];
    }
    uint32_t *idx = xmalloc(q->n * sizeof *idx);
    uint32_t *list = xmalloc(q->n * sizeof *list);
    for (uint32_t x = 0; x < q->n; x++)
        idx[x] = UINT32_MAX;
    uint32_t cnt = 1;
    idx[0] = 0;
    list[0] = 0;
    for (uint32_t i = 0; i < cnt; i++)
        for (uint32_t j = 0; j < nl; j++) {
            uint32_t y = q->act[used[j]][list[i]];
            if (idx[y] == UINT32_MAX) {
                idx[y] = cnt;
                list[cnt++] = y;
            }
        }
    uint32_t **act = xmalloc((nl ? nl : 1) * sizeof *act);
    for (uint32_t j = 0; j < nl; j++) {
        act[j] = xmalloc(cnt * sizeof **act);
        for (uint32_t i = 0; i < cnt; i++)
            act[j][i] = idx[q->act[used[j]][list[i]]];
    }
    free(idx);
    free(list);
    free(used);
    free(lmap);
    *out_n = cnt;
    *out_nl = nl;
    *out_act = act;
    *out_hl = hl;
}

/* ---- trial direct sums (expansion and recalibration) ---- */

/* Moore refinement of a trial's reached elements (the automaton
 * minimisation of docs/misere.md "One heap at a time": letters = heap
 * images, accepting = P), read through the direct sum's tables.  A round
 * gives x the signature (class of x, class of x*l for every letter l); the
 * signature of each new class's first member is kept, so that a later
 * member is compared with that record and not by reading the first
 * member's images again.  Once a round moves few elements the rounds go
 * on element by element (ta_rounds), with the same classes.  Classes are
 * numbered by first occurrence in `order` (the reach order).  On a stop
 * *st is set and the classes are not final. */
/* Letters of trial a that generate it, written to ul (their count is
 * returned): every letter with a cyclic part, and the letters acting on
 * the base R alone whose image is not a product of the images of earlier
 * ones (the identity letter never).  A partition stable under these
 * letters is stable under all: in the commutative monoid R a letter acts
 * as multiplication by its image g, and g = g1·...·gk makes that action
 * the composite of theirs.  So Moore refinement over these letters gives
 * the same classes as over all letters, at the cost of a closure in R of
 * |R| times their number. */
static uint32_t ta_generators(const TrialAct *a, uint32_t bn, uint32_t *ul)
{
    uint8_t *in = xcalloc(bn ? bn : 1, 1);
    uint32_t *list = xmalloc((bn ? bn : 1) * sizeof *list);
    uint32_t *gens = xmalloc((a->nl + 1) * sizeof *gens);
    uint32_t len = 1, ng = 0, nu = 0;
    in[0] = 1;
    list[0] = 0;
    for (uint32_t l = 0; l < a->nl; l++) {
        if (a->lc[l] >= 0) {
            ul[nu++] = l;
            continue;
        }
        if (a->lb[l] < 0)
            continue;
        const uint32_t *b = a->bact[a->lb[l]];
        if (in[b[0]])
            continue;
        ul[nu++] = l;
        gens[ng++] = (uint32_t)a->lb[l];
        /* the closure: old elements times the new image, new elements
         * times every image kept */
        uint32_t old = len;
        for (uint32_t i = 0; i < len; i++)
            for (uint32_t j = i < old ? ng - 1 : 0; j < ng; j++) {
                uint32_t y = a->bact[gens[j]][list[i]];
                if (!in[y]) {
                    in[y] = 1;
                    list[len++] = y;
                }
            }
    }
    free(in);
    free(list);
    free(gens);
    return nu;
}

/* The last rounds of a trial's Moore refinement, element by element.
 * After a round that moved few elements (a class's largest part keeps its
 * number, and the elements of its other parts move to new numbers), a
 * class can split in the next round only at its members an image of which
 * moved: two members x, x' that no letter sends to a moved element had
 * equal signatures in the round that made their class, and their images'
 * numbers have not changed since, so their signatures are still equal.
 * So the next round needs the signatures of these "touched" elements only,
 * each compared with that of an untouched member of its class; it splits
 * the class exactly as a round over the whole trial would, and the rounds
 * go on, each from the elements the one before moved, until none moves
 * (Moore's fixpoint: the reduction's classes).  The touched elements are
 * the preimages of the moved ones, read from inverse tables of the base R
 * and of the cyclic components (a trial is their direct sum, docs/misere.md
 * "One heap at a time"), so a round costs its touched elements' signatures
 * and not the whole trial's: a trial whose refinement ends in a long chain
 * of rounds that each split a class or two (a cyclic component of high
 * index) no longer pays a full round for each.  This is the idea of
 * Hopcroft's refinement (J. E. Hopcroft, "An n log n algorithm for
 * minimizing states in a finite automaton", 1971: only the preimages of
 * what split are looked at again), kept in Moore's rounds so that the
 * classes are those of the rounds over the whole trial. */
typedef struct TaRef {
    const TrialAct *a;
    const uint32_t *bt, *ul;
    uint32_t nl, nb, bn, csize, ncyc;
    const uint8_t *seen;
    /* inverse tables (built for the first round element by element): the r with bt[r * nl + l]
     * = s are binv[l * bn + boff[l * (bn + 1) + s] ...]; the c with
     * cnext[j][c] = d are cinv[j * csize + coff[j * (csize + 1) + d] ...] */
    uint32_t *boff, *binv, *coff, *cinv;
    uint8_t *touched;
} TaRef;

static inline uint32_t ta_img(const TaRef *f, uint32_t l, uint32_t x)
{
    uint32_t c = x >> f->a->shift, r = x & f->a->mask;
    if (l >= f->nb)
        c = f->a->cnext[f->a->lc[f->ul[l]]][c];
    return c << f->a->shift | f->bt[(size_t)r * f->nl + l];
}

static void ta_inverse(TaRef *f)
{
    uint32_t nl = f->nl, bn = f->bn, cs = f->csize;
    f->boff = xcalloc((size_t)nl * (bn + 1) + 1, sizeof *f->boff);
    f->binv = xmalloc(((size_t)nl * bn + 1) * sizeof *f->binv);
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t *o = f->boff + (size_t)l * (bn + 1), *v = f->binv + (size_t)l * bn;
        for (uint32_t r = 0; r < bn; r++)
            o[f->bt[(size_t)r * nl + l] + 1]++;
        for (uint32_t s = 0; s < bn; s++)
            o[s + 1] += o[s];
        for (uint32_t r = 0; r < bn; r++)
            v[o[f->bt[(size_t)r * nl + l]]++] = r;
        for (uint32_t s = bn; s > 0; s--)
            o[s] = o[s - 1];
        o[0] = 0;
    }
    f->coff = xcalloc((size_t)f->ncyc * (cs + 1) + 1, sizeof *f->coff);
    f->cinv = xmalloc(((size_t)f->ncyc * cs + 1) * sizeof *f->cinv);
    for (uint32_t j = 0; j < f->ncyc; j++) {
        const uint32_t *cn = f->a->cnext[j];
        uint32_t *o = f->coff + (size_t)j * (cs + 1), *v = f->cinv + (size_t)j * cs;
        for (uint32_t c = 0; c < cs; c++)
            o[cn[c] + 1]++;
        for (uint32_t d = 0; d < cs; d++)
            o[d + 1] += o[d];
        for (uint32_t c = 0; c < cs; c++)
            v[o[cn[c]]++] = c;
        for (uint32_t d = cs; d > 0; d--)
            o[d] = o[d - 1];
        o[0] = 0;
    }
}

/* The rounds element by element, from the moved elements of the last
 * full round (cls numbered so that an element that did not move kept its
 * number; count numbers in use): each round touches the preimages of the
 * elements moved by the one before, computes their signatures against the
 * numbers at the round's start, and moves those whose signature differs
 * from their class's untouched members' (or, in a class with none, from
 * its first touched member's) to new numbers, one per signature.  Returns
 * the number of classes, or UINT32_MAX when stopped by a poll (*st set). */
static uint32_t ta_rounds(TaRef *f, const uint32_t *order, uint32_t nord, uint32_t *cls,
                          uint32_t count, uint32_t *moved, uint32_t nmoved, CgtStatus *st)
{
    if (!f->boff)
        ta_inverse(f);
    const TrialAct *a = f->a;
    uint32_t nl = f->nl, bn = f->bn, cs = f->csize, none = UINT32_MAX;
    uint32_t size = cs << a->shift;
    /* the members of each class, as doubly linked lists */
    uint32_t *head = xmalloc(((size_t)nord + 2) * sizeof *head);
    uint32_t *nx = xmalloc((size ? size : 1) * sizeof *nx),
             *pv = xmalloc((size ? size : 1) * sizeof *pv);
    uint32_t *thead = xmalloc(((size_t)nord + 2) * sizeof *thead),
             *tnx = xmalloc((size ? size : 1) * sizeof *tnx);
    for (uint32_t q = 0; q < nord + 2; q++)
        head[q] = thead[q] = none;
    for (uint32_t i = nord; i-- > 0;) {
        uint32_t x = order[i], q = cls[x];
        nx[x] = head[q];
        pv[x] = none;
        if (head[q] != none)
            pv[head[q]] = x;
        head[q] = x;
    }
    uint32_t *tl = xmalloc(((size_t)nord + 1) * sizeof *tl),
             *aff = xmalloc(((size_t)nord + 1) * sizeof *aff);
    uint32_t *dx = xmalloc(((size_t)nord + 1) * sizeof *dx),
             *did = xmalloc(((size_t)nord + 1) * sizeof *did);
    size_t gcap = 16;
    uint32_t *gsig = xmalloc(gcap * nl * sizeof *gsig + 4), *gid = xmalloc(gcap * sizeof *gid);
    uint64_t *gh = xmalloc(gcap * sizeof *gh);
    uint32_t *sg = xmalloc(((size_t)nl + 1) * sizeof *sg);
    uint32_t result = none;
    while (nmoved > 0) {
        if ((*st = cgt_poll()) != CGT_OK)
            goto out;
        /* the touched elements, by class */
        uint32_t nt = 0, na = 0;
        for (uint32_t i = 0; i < nmoved; i++) {
            uint32_t y = moved[i], d = y >> a->shift, s = y & a->mask;
            for (uint32_t l = 0; l < nl; l++) {
                const uint32_t *o = f->boff + (size_t)l * (bn + 1), *v = f->binv + (size_t)l * bn;
                const uint32_t *cl = &d;
                uint32_t ncs = 1;
                if (l >= f->nb) {
                    uint32_t j = (uint32_t)a->lc[f->ul[l]];
                    const uint32_t *co = f->coff + (size_t)j * (cs + 1);
                    cl = f->cinv + (size_t)j * cs + co[d];
                    ncs = co[d + 1] - co[d];
                }
                for (uint32_t ci = 0; ci < ncs; ci++)
                    for (uint32_t q = o[s]; q < o[s + 1]; q++) {
                        uint32_t x = cl[ci] << a->shift | v[q];
                        if (!f->seen[x] || f->touched[x])
                            continue;
                        f->touched[x] = 1;
                        tl[nt++] = x;
                        uint32_t B = cls[x];
                        if (thead[B] == none)
                            aff[na++] = B;
                        tnx[x] = thead[B];
                        thead[B] = x;
                    }
            }
        }
        /* each touched class split by signature */
        uint32_t nd = 0;
        for (uint32_t t = 0; t < na; t++) {
            uint32_t B = aff[t], ng = 0, u = none;
            for (uint32_t m = head[B]; m != none; m = nx[m])
                if (!f->touched[m]) {
                    u = m;
                    break;
                }
            for (uint32_t x = u != none ? u : thead[B]; x != none;
                 x = x == u ? thead[B] : tnx[x]) {
                uint64_t hv = 0;
                for (uint32_t l = 0; l < nl; l++) {
                    sg[l] = cls[ta_img(f, l, x)];
                    hv += sg[l] * (0x9e3779b97f4a7c15ULL * (l + 1) | 1);
                }
                uint32_t g = 0;
                while (g < ng &&
                       (gh[g] != hv || memcmp(gsig + (size_t)g * nl, sg, nl * sizeof *sg) != 0))
                    g++;
                if (g == ng) {
                    if (ng == gcap) {
                        gcap *= 2;
                        gsig = xrealloc(gsig, gcap * nl * sizeof *gsig + 4);
                        gid = xrealloc(gid, gcap * sizeof *gid);
                        gh = xrealloc(gh, gcap * sizeof *gh);
                    }
                    memcpy(gsig + (size_t)g * nl, sg, nl * sizeof *sg);
                    gh[g] = hv;
                    gid[g] = ng == 0 ? B : count++;
                    if (gid[g] != B)
                        head[gid[g]] = none;
                    ng++;
                }
                if (gid[g] != B) {
                    dx[nd] = x;
                    did[nd++] = gid[g];
                }
            }
            thead[B] = none;
        }
        for (uint32_t t = 0; t < nt; t++)
            f->touched[tl[t]] = 0;
        /* the moves, after every signature of the round is read */
        for (uint32_t i = 0; i < nd; i++) {
            uint32_t x = dx[i], q = did[i];
            if (pv[x] != none)
                nx[pv[x]] = nx[x];
            else
                head[cls[x]] = nx[x];
            if (nx[x] != none)
                pv[nx[x]] = pv[x];
            cls[x] = q;
            nx[x] = head[q];
            pv[x] = none;
            if (head[q] != none)
                pv[head[q]] = x;
            head[q] = x;
            moved[i] = x;
        }
        nmoved = nd;
    }
    result = count;
out:
    free(head);
    free(nx);
    free(pv);
    free(thead);
    free(tnx);
    free(tl);
    free(aff);
    free(dx);
    free(did);
    free(gsig);
    free(gid);
    free(gh);
    free(sg);
    return result;
}

static uint32_t ta_minimise(const TrialAct *a, uint32_t bn, uint32_t csize, const uint8_t *seen,
                            const uint64_t *p, const uint32_t *order, uint32_t nord, uint32_t *cls,
                            CgtStatus *st)
{
    uint32_t size = csize << a->shift;
    uint32_t *ul = xmalloc((a->nl + 1) * sizeof *ul);
    uint32_t nl = ta_generators(a, bn, ul), len = nl + 1;
    /* the letters acting on R alone first (nb of them), then those with a
     * cyclic part: an element's images under the first stay in its own
     * c-slice and are read without the cyclic step (the order of the
     * letters does not change the classes) */
    uint32_t nb = 0;
    for (uint32_t l = 0; l < nl; l++)
        if (a->lc[ul[l]] < 0) {
            uint32_t u = ul[l];
            memmove(ul + nb + 1, ul + nb, (l - nb) * sizeof *ul);
            ul[nb++] = u;
        }
    uint32_t *nc = xcalloc(size ? size : 1, sizeof *nc);
    size_t hsz = 16;
    while (hsz < 2 * (size_t)nord)
        hsz *= 2;
    uint32_t *tab = xmalloc(hsz * sizeof *tab);
    size_t cap = 64;
    uint32_t *rs = xmalloc(cap * len * sizeof *rs);
    uint32_t *sg = xmalloc(len * sizeof *sg);
    /* letter l sends (r, c) to (bt[r * nl + l], cpart[l] >> shift): the
     * base images of r side by side (the identity on R is a column too),
     * so that a round reads them in order and has no branch */
    uint32_t *bt = xmalloc(((size_t)bn * nl + 1) * sizeof *bt);
    for (uint32_t l = 0; l < nl; l++) {
        const uint32_t *b = a->lb[ul[l]] >= 0 ? a->bact[a->lb[ul[l]]] : NULL;
        for (uint32_t r = 0; r < bn; r++)
            bt[(size_t)r * nl + l] = b ? b[r] : r;
    }
    uint32_t *cpart = xmalloc((nl + 1) * sizeof *cpart);
    uint64_t *mult = xmalloc((nl + 1) * sizeof *mult);
    for (uint32_t l = 0; l < nl; l++)
        mult[l] = ((0x9e3779b97f4a7c15ULL * (l + 1)) ^ ((uint64_t)(l + 7) << 33)) | 1;
    bool inp = false, outp = false;
    for (uint32_t x = 0; x < size; x++) {
        cls[x] = 0;
        if (!seen[x])
            continue;
        cls[x] = mq_bit(p, x);
        inp |= cls[x];
        outp |= !cls[x];
    }
    uint32_t count = (uint32_t)inp + (uint32_t)outp;
    /* The first round starts from the partition by P, whose classes are 0
     * and 1: with fewer than 64 letters a signature is then a word of bits,
     * hashed and compared as one number. */
    uint64_t *keys = nl < 64 ? xmalloc(((size_t)nord + 1) * sizeof *keys) : NULL;
    uint32_t ncyc = 0;
    for (uint32_t l = nb; l < nl; l++)
        if ((uint32_t)a->lc[ul[l]] + 1 > ncyc)
            ncyc = (uint32_t)a->lc[ul[l]] + 1;
    TaRef ref = {a, bt, ul, nl, nb, bn, csize, ncyc, seen, NULL, NULL, NULL, NULL, NULL};
    ref.touched = xcalloc(size ? size : 1, 1);
    /* per new class its size and old class; per old class its largest part */
    uint32_t *csz = xmalloc(((size_t)nord + 2) * sizeof *csz);
    uint32_t *par = xmalloc(((size_t)nord + 2) * sizeof *par);
    uint32_t *big = xmalloc(((size_t)nord + 2) * sizeof *big);
    uint32_t *moved = xmalloc(((size_t)nord + 1) * sizeof *moved);
    for (bool bin = keys != NULL;; bin = false) {
        memset(tab, 0xff, hsz * sizeof *tab);
        uint32_t k = 0;
        for (uint32_t c = 0; c < csize; c++) {
            if ((*st = cgt_poll()) != CGT_OK)
                goto out;
            uint32_t cb = c << a->shift;
            for (uint32_t l = 0; l < nl; l++)
                cpart[l] = a->lc[ul[l]] >= 0 ? a->cnext[a->lc[ul[l]]][c] << a->shift : cb;
            for (uint32_t r = 0; r < bn; r++) {
                uint32_t x = cb | r;
                if (!seen[x])
                    continue;
                const uint32_t *br = bt + (size_t)r * nl, *cs = cls + cb;
                if (bin) {
                    uint64_t key = cls[x];
                    for (uint32_t l = 0; l < nb; l++)
                        key |= (uint64_t)cs[br[l]] << (l + 1);
                    for (uint32_t l = nb; l < nl; l++)
                        key |= (uint64_t)cls[cpart[l] | br[l]] << (l + 1);
                    uint64_t hv = (key ^ key >> 31) * 0x9e3779b97f4a7c15ULL;
                    hv ^= hv >> 29;
                    hv *= 0xbf58476d1ce4e5b9ULL;
                    hv ^= hv >> 32;
                    size_t i = (size_t)hv & (hsz - 1);
                    for (;; i = (i + 1) & (hsz - 1)) {
                        uint32_t q = tab[i];
                        if (q == UINT32_MAX) {
                            keys[k] = key;
                            tab[i] = k;
                            nc[x] = k++;
                            break;
                        }
                        if (keys[q] == key) {
                            nc[x] = q;
                            break;
                        }
                    }
                    continue;
                }
                sg[0] = cls[x];
                uint64_t hv = cls[x] * 0x9e3779b97f4a7c15ULL;
                for (uint32_t l = 0; l < nb; l++) {
                    uint32_t v = cs[br[l]];
                    sg[l + 1] = v;
                    hv += v * mult[l];
                }
                for (uint32_t l = nb; l < nl; l++) {
                    uint32_t v = cls[cpart[l] | br[l]];
                    sg[l + 1] = v;
                    hv += v * mult[l];
                }
                hv ^= hv >> 29;
                hv *= 0xbf58476d1ce4e5b9ULL;
                hv ^= hv >> 32;
                size_t i = (size_t)hv & (hsz - 1);
                for (;;) {
                    uint32_t q = tab[i];
                    if (q == UINT32_MAX) {
                        if (k == cap) {
                            cap *= 2;
                            rs = xrealloc(rs, cap * len * sizeof *rs);
                        }
                        memcpy(rs + (size_t)k * len, sg, len * sizeof *sg);
                        tab[i] = k;
                        nc[x] = k++;
                        break;
                    }
                    if (memcmp(rs + (size_t)q * len, sg, len * sizeof *sg) == 0) {
                        nc[x] = q;
                        break;
                    }
                    i = (i + 1) & (hsz - 1);
                }
            }
        }
        uint32_t nmoved = 0;
        if (k != count) {
            for (uint32_t q = 0; q < k; q++)
                csz[q] = 0;
            for (uint32_t b = 0; b < count + 2; b++)
                big[b] = UINT32_MAX;
            for (uint32_t i = 0; i < nord; i++) {
                uint32_t x = order[i];
                csz[nc[x]]++;
                par[nc[x]] = cls[x];
            }
            for (uint32_t q = 0; q < k; q++)
                if (big[par[q]] == UINT32_MAX || csz[q] > csz[big[par[q]]])
                    big[par[q]] = q;
            for (uint32_t q = 0; q < k; q++)
                if (big[par[q]] != q)
                    nmoved += csz[q];
            /* the rounds go element by element once the moved elements'
               preimages (about nl each) are fewer than the trial's
               elements; the largest part of each old class keeps its
               number, the others take count, count + 1, ... */
            if ((uint64_t)nmoved * nl < nord) {
                uint32_t fresh = count;
                for (uint32_t q = 0; q < k; q++)
                    csz[q] = big[par[q]] == q ? par[q] : fresh++;
                nmoved = 0;
                for (uint32_t i = 0; i < nord; i++) {
                    uint32_t x = order[i];
                    if (csz[nc[x]] != cls[x])
                        moved[nmoved++] = x;
                    nc[x] = csz[nc[x]];
                }
            } else {
                nmoved = UINT32_MAX;
            }
        }
        memcpy(cls, nc, size * sizeof *cls);
        if (k == count)
            break;
        count = k;
        if (nmoved != UINT32_MAX) {
            /* the full rounds' arrays make room for the lists of ta_rounds */
            free(nc);
            free(csz);
            free(par);
            free(big);
            free(tab);
            nc = csz = par = big = tab = NULL;
            count = ta_rounds(&ref, order, nord, cls, count, moved, nmoved, st);
            if (count == UINT32_MAX)
                goto out;
            break;
        }
    }
    /* renumber by first occurrence in the reach order (count <= nord) */
    memset(moved, 0xff, (count ? count : 1) * sizeof *moved);
    uint32_t next = 0;
    for (uint32_t i = 0; i < nord; i++)
        if (moved[cls[order[i]]] == UINT32_MAX)
            moved[cls[order[i]]] = next++;
    for (uint32_t x = 0; x < size; x++)
        if (seen[x])
            cls[x] = moved[cls[x]];
out:
    free(ref.boff);
    free(ref.binv);
    free(ref.coff);
    free(ref.cinv);
    free(ref.touched);
    free(csz);
    free(par);
    free(big);
    free(moved);
    free(keys);
    free(nc);
    free(tab);
    free(rs);
    free(sg);
    free(bt);
    free(cpart);
    free(mult);
    free(ul);
    return count;
}

static CgtStatus trial_too_big(CgtError *err, uint32_t nh, uint64_t max_trial)
{
    cgt_error_set(err, CGT_ERR_LIMIT, "trial monoid for heap %u would exceed %llu elements",
                  nh - 1, (unsigned long long)max_trial);
    cgt_error_hint(err, "raise the trial size limit (MqLimits.max_trial)");
    return CGT_ERR_LIMIT;
}

CgtStatus mq_trial_build(const MqTrial *tr, const MqOpts *o, uint64_t max_trial, MqPret **out,
                         CgtError *err)
{
    uint32_t nh = tr->nh;
    *out = NULL;
    /* the cyclic components and their product C */
    uint64_t size = tr->base_n, csize = 1;
    uint32_t ncyc = 0;
    int32_t *comp = xmalloc((nh + 1) * sizeof *comp);
    uint64_t *cstride = xmalloc((nh + 1) * sizeof *cstride);
    for (uint32_t h = 0; h < nh; h++) {
        comp[h] = -1;
        if (tr->cyc_index[h] < 0)
            continue;
        uint64_t z = (uint64_t)(tr->cyc_index[h] + tr->cyc_period[h]);
        cstride[ncyc] = csize;
        comp[h] = (int32_t)ncyc++;
        csize *= z;
        size *= z;
        if (size > max_trial) {
            free(comp);
            free(cstride);
            return trial_too_big(err, nh, max_trial);
        }
    }
    uint32_t shift = 0;
    while (((uint64_t)1 << shift) < tr->base_n)
        shift++;
    if ((csize << shift) > UINT32_MAX) {
        free(comp);
        free(cstride);
        return trial_too_big(err, nh, max_trial);
    }
    uint32_t padded = (uint32_t)(csize << shift);
    uint32_t **cnext = xmalloc((ncyc + 1) * sizeof *cnext);
    for (uint32_t h = 0; h < nh; h++) {
        if (comp[h] < 0)
            continue;
        uint32_t z = (uint32_t)(tr->cyc_index[h] + tr->cyc_period[h]);
        uint64_t s = cstride[comp[h]];
        uint32_t *cn = xmalloc(csize * sizeof *cn);
        for (uint32_t c = 0; c < csize; c++) {
            uint32_t d = (uint32_t)((c / s) % z);
            uint32_t nd = d + 1 < z ? d + 1 : (uint32_t)tr->cyc_index[h];
            cn[c] = (uint32_t)(c + ((int64_t)nd - (int64_t)d) * (int64_t)s);
        }
        cnext[comp[h]] = cn;
    }
    free(cstride);
    /* the letters of the trial, in the order of their first heap */
    int32_t *hl = xmalloc((nh + 1) * sizeof *hl);
    int32_t *lb = xmalloc((nh + 1) * sizeof *lb), *lc = xmalloc((nh + 1) * sizeof *lc);
    int32_t *bmap = xmalloc((tr->base_nl + 1) * sizeof *bmap);
    for (uint32_t l = 0; l < tr->base_nl; l++)
        bmap[l] = -1;
    uint32_t nl = 0;
    int32_t idl = -1;
    for (uint32_t h = 0; h < nh; h++) {
        hl[h] = -1;
        if (o->o[h].count == 0)
            continue;
        if (comp[h] >= 0) {
            lb[nl] = tr->cyc_lift && tr->cyc_lift[h] ? tr->base_hl[h] : -1;
            lc[nl] = comp[h];
            hl[h] = (int32_t)nl++;
        } else if (tr->base_hl[h] >= 0) {
            int32_t bl = tr->base_hl[h];
            if (bmap[bl] < 0) {
                lb[nl] = bl;
                lc[nl] = -1;
                bmap[bl] = (int32_t)nl++;
            }
            hl[h] = bmap[bl];
        } else {
            if (idl < 0) {
                lb[nl] = lc[nl] = -1;
                idl = (int32_t)nl++;
            }
            hl[h] = idl;
        }
    }
    free(bmap);
    TrialAct a = {shift, (uint32_t)(((uint64_t)1 << shift) - 1), nl, lb, lc, tr->base_act, cnext};
    /* mark P (1d) */
    uint32_t W = (padded + 63) / 64;
    uint64_t *p = xcalloc(W + 1, 8);
    uint32_t *pred = xcalloc(padded, sizeof *pred), *predh = xcalloc(padded, sizeof *predh);
    MqTr t;
    tr_build(&t, nh, hl, padded, o, ta_act_of, &a);
    uint32_t *lev = xmalloc((nh + 1) * sizeof *lev);
    uint32_t nlev = 0;
    for (uint32_t h = 1; h < nh; h++)
        if (hl[h] >= 0)
            lev[nlev++] = h;
    MarkCtx c = {0};
    c.a = &a;
    c.hl = hl;
    c.t = &t;
    c.lev = lev;
    uint64_t *bits = xcalloc((size_t)2 * (nlev + 1) * W + 1, 8);
    c.buf = xcalloc((size_t)2 * (nlev + 1), sizeof *c.buf);
    for (uint32_t i = 0; i < 2 * (nlev + 1); i++)
        c.buf[i].bits = bits + (size_t)i * W;
    c.seen = xcalloc(padded, 1);
    c.p = p;
    c.pred = pred;
    c.predh = predh;
    c.order = xmalloc((size_t)size * sizeof *c.order);
    c.seen[0] = 1;
    c.order[c.norder++] = 0;
    c.watch = 0; /* the identity, labelled before the walk, is checked after it */
    if (tr->check_game) {
        for (uint32_t h = 0; h < nh; h++)
            if (hl[h] >= 0)
                for (uint32_t k = 0; k < tr->check_game[h]; k++)
                    c.watch = ta_act(&a, (uint32_t)hl[h], c.watch);
        c.want_p = tr->want_p;
    }
    MarkSet empty = {0};
    mark_dfs(&c, (int)nlev - 1, 0, &empty);
    for (uint32_t i = 0; i < 2 * (nlev + 1); i++)
        free(c.buf[i].el);
    free(c.buf);
    free(bits);
    free(lev);
    mqtr_free(&t);
    CgtStatus pst = c.st;
    bool keep = pst == CGT_OK && !c.halt;
    if (keep && tr->check_game)
        keep = mq_bit(p, c.watch) == tr->want_p;
    MqPret *q = NULL;
    uint32_t *cls = NULL;
    if (!keep)
        goto done;
    /* reduce */
    cls = xmalloc((padded ? padded : 1) * sizeof *cls);
    uint32_t k = ta_minimise(&a, tr->base_n, (uint32_t)csize, c.seen, p, c.order, c.norder, cls,
                             &pst);
    if (pst != CGT_OK)
        goto done;
    /* the reduced pretension; the representative of a class is its first
     * member in the reach order */
    uint32_t *rep = xmalloc(k * sizeof *rep);
    for (uint32_t i = c.norder; i-- > 0;)
        rep[cls[c.order[i]]] = c.order[i];
    q = xcalloc(1, sizeof *q);
    q->n = k;
    q->nh = nh;
    q->hl = xmalloc((nh + 1) * sizeof *q->hl);
    q->act = xmalloc((nl + 1) * sizeof *q->act);
    q->p = xcalloc((k + 63) / 64 + 1, 8);
    q->pred = xmalloc(k * sizeof *q->pred);
    q->predh = xmalloc(k * sizeof *q->predh);
    int32_t *lnew = xmalloc((nl + 1) * sizeof *lnew);
    uint32_t *limg = xmalloc((nl + 1) * sizeof *limg);
    for (uint32_t l = 0; l < nl; l++) {
        uint32_t img = cls[ta_act(&a, l, 0)];
        lnew[l] = -1;
        for (uint32_t j = 0; j < q->nl; j++)
            if (limg[j] == img)
                lnew[l] = (int32_t)j;
        if (lnew[l] >= 0)
            continue;
        limg[q->nl] = img;
        lnew[l] = (int32_t)q->nl;
        uint32_t *qa = xmalloc(k * sizeof *qa);
        for (uint32_t cc = 0; cc < k; cc++)
            qa[cc] = cls[ta_act(&a, l, rep[cc])];
        q->act[q->nl++] = qa;
    }
    for (uint32_t h = 0; h < nh; h++)
        q->hl[h] = hl[h] < 0 ? -1 : lnew[hl[h]];
    for (uint32_t cc = 0; cc < k; cc++) {
        uint32_t e = rep[cc];
        if (mq_bit(p, e))
            setbit(q->p, cc);
        q->pred[cc] = cc ? cls[pred[e]] : 0;
        q->predh[cc] = cc ? predh[e] : 0;
    }
    free(lnew);
    free(limg);
    free(rep);
done:
    free(cls);
    free(c.seen);
    free(c.order);
    free(p);
    free(pred);
    free(predh);
    for (uint32_t i = 0; i < ncyc; i++)
        free(cnext[i]);
    free(cnext);
    free(comp);
    free(hl);
    free(lb);
    free(lc);
    *out = q;
    return pst == CGT_OK ? CGT_OK : cgt_poll_error(err, pst, "misere quotient");
}
