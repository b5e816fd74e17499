/* Genus of heap positions by memoised recursion over options (ONAG ch. 12):
 * g = mex{g'}; γ0 = mex{γ0'} (1 with no options); γk = mex({γk'} ∪ {γ(k-1),
 * γ(k-1) xor 1}) for k >= 1, since the options of G + k*2 are G' + k*2,
 * G + (k-1)*2 + *1 and G + (k-1)*2, and the misère nim value of H + *1 is
 * that of H xor 1 (ONAG ch. 12; Siegel, Combinatorial Game Theory, ch. V).
 * With a GenusKnown hook the γk are searched only where the hook has no
 * answer, those a position lacks in one pass over its options; g is then the
 * nim-sum of the heaps' Grundy values (Sprague-Grundy). */
#include "lib/heap/genus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/heap/outcome.h"
#include "lib/heap/outcome_map.h"
#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

#define LAZY_UNKNOWN UINT16_MAX
typedef struct LazyRec {
    uint16_t v[GENUS_LEN];
} LazyRec;

typedef struct GenusRec {
    uint32_t v[GENUS_LEN + 1]; /* v[0] = g, v[1+k] = γk */
    int done;
} GenusRec;

/* The options of a heap or a position as the searches use them: option j
 * is the canonical position parts[start[j] .. start[j+1]-1] of live heaps
 * without *1 heaps, and odd[j] says whether an odd number of *1 heaps was
 * taken out of it (its g and every γk are then those of the parts xor 1). */
typedef struct Moves {
    VEC(uint32_t) parts;
    VEC(size_t) start;
    VEC(unsigned char) odd;
} Moves;

/* A heap with no option is the game 0: a position is the same game without
 * it, so the search drops such heaps (dead heaps: 1 in 0.07, 2 in 0.16) from
 * every position and keeps one memo entry where there would be one per
 * number of dead heaps.  A heap that is *1 as a game (it has a move, and
 * every move leaves only dead heaps: heaps 2 and 3 of 0.07) is taken out of
 * every option too, with its parity kept: g(G + *1) = g(G) xor 1 and the
 * misère nim value of H + *1 is that of H xor 1 (ONAG ch. 12), so γk(G + *1)
 * = γk(G) xor 1.  live[h] holds the options of heap h so reduced (built
 * once per heap; the arrays of an entry never move once built). */
struct GenusCache {
    OutcomeCache *oc; /* for the cached heap option lists */
    OutcomeMap *map;
    VEC(GenusRec) rec;
    size_t limit;
    Moves *live;
    unsigned char *have; /* have[h]: live[h] is built */
    size_t nlive;
    /* the search with a GenusKnown hook: its own positions, and per position
       γk or LAZY_UNKNOWN */
    GenusKnown known;
    void *kctx;
    OutcomeMap *lmap;
    VEC(LazyRec) lrec;
    size_t call_limit, call_base;
    VEC(uint32_t) hgrundy; /* Grundy value of heap h, or UINT32_MAX */
    VEC(unsigned char) star1; /* heap h is *1: 1, is not: 0, not known: 2 */
};

static void moves_free(Moves *m)
{
    VEC_FREE(m->parts);
    VEC_FREE(m->start);
    VEC_FREE(m->odd);
}

GenusCache *genus_new(const HeapGame *hg)
{
    GenusCache *gc = xcalloc(1, sizeof *gc);
    gc->oc = outcome_new(hg);
    gc->map = outcome_map_new();
    gc->limit = GENUS_LIMIT_DEFAULT;
    outcome_set_limit(gc->oc, gc->limit);
    return gc;
}

void genus_free(GenusCache *gc)
{
    if (!gc)
        return;
    outcome_free(gc->oc);
    outcome_map_free(gc->map);
    VEC_FREE(gc->rec);
    if (gc->lmap)
        outcome_map_free(gc->lmap);
    VEC_FREE(gc->lrec);
    VEC_FREE(gc->hgrundy);
    VEC_FREE(gc->star1);
    for (size_t h = 0; h < gc->nlive; h++)
        if (gc->have[h])
            moves_free(&gc->live[h]);
    free(gc->live);
    free(gc->have);
    free(gc);
}

void genus_set_limit(GenusCache *gc, size_t max_positions)
{
    gc->limit = max_positions;
    outcome_set_limit(gc->oc, max_positions);
}

void genus_set_known(GenusCache *gc, GenusKnown fn, void *ctx)
{
    gc->known = fn;
    gc->kctx = ctx;
}

void genus_set_call_limit(GenusCache *gc, size_t max_new)
{
    gc->call_limit = max_new;
}

size_t genus_cache_size(const GenusCache *gc)
{
    return outcome_map_size(gc->map) + (gc->lmap ? outcome_map_size(gc->lmap) : 0);
}

/* The caps of genus_set_limit and genus_set_call_limit, checked when a
 * position is added. */
static CgtStatus check_caps(const GenusCache *gc, CgtError *err)
{
    size_t n = genus_cache_size(gc);
    if (gc->limit && n > gc->limit) {
        cgt_error_set(err, CGT_ERR_LIMIT, "genus search passed %zu positions", gc->limit);
        cgt_error_hint(err, "try a smaller position");
        return CGT_ERR_LIMIT;
    }
    if (gc->call_limit && n - gc->call_base > gc->call_limit) {
        cgt_error_set(err, CGT_ERR_LIMIT, "genus search passed %zu positions", gc->call_limit);
        return CGT_ERR_LIMIT;
    }
    return CGT_OK;
}

/* mex of vals[0], vals[stride], ... (n values), with extra1 and extra2
 * when use_extra. */
static uint32_t mex_of(const uint32_t *vals, size_t n, size_t stride, uint32_t extra1,
                       uint32_t extra2, int use_extra)
{
    size_t lim = n + 3;
    unsigned char small[256];
    unsigned char *seen = lim <= sizeof small ? small : xmalloc(lim);
    memset(seen, 0, lim);
    for (size_t i = 0; i < n; i++)
        if (vals[i * stride] < lim)
            seen[vals[i * stride]] = 1;
    if (use_extra) {
        if (extra1 < lim)
            seen[extra1] = 1;
        if (extra2 < lim)
            seen[extra2] = 1;
    }
    uint32_t m = 0;
    while (seen[m])
        m++;
    if (seen != small)
        free(seen);
    return m;
}

/* The options of heap h (borrowed from the outcome cache: valid until its
 * next call), an error of the cap named as the genus search's. */
static CgtStatus heap_options(GenusCache *gc, uint32_t h, const HeapOptions **o, CgtError *err)
{
    CgtStatus st = outcome_heap_options(gc->oc, h, o, err);
    if (st == CGT_ERR_LIMIT) /* the options cached count as positions */
        cgt_error_set(err, CGT_ERR_LIMIT, "genus search passed %zu positions", gc->limit);
    return st;
}

/* Whether heap h is dead (no option). */
static CgtStatus is_dead(GenusCache *gc, uint32_t h, bool *yes, CgtError *err)
{
    const HeapOptions *o;
    CgtStatus st = heap_options(gc, h, &o, err);
    if (st == CGT_OK)
        *yes = o->count == 0;
    return st;
}

/* Whether heap h is the game *1 itself: it has a move, and every move
 * leaves only dead heaps (heaps 2 and 3 of 0.07). */
static CgtStatus is_star1(GenusCache *gc, uint32_t h, bool *yes, CgtError *err)
{
    if (h < gc->star1.len && gc->star1.data[h] != 2) {
        *yes = gc->star1.data[h];
        return CGT_OK;
    }
    while (gc->star1.len <= h)
        VEC_PUSH(gc->star1, 2);
    const HeapOptions *o;
    CgtStatus st = heap_options(gc, h, &o, err);
    if (st != CGT_OK)
        return st;
    /* a copy: the calls for the parts may move o */
    size_t np = o->start[o->count];
    bool any = o->count > 0;
    uint32_t *parts = xmalloc((np ? np : 1) * sizeof *parts);
    memcpy(parts, o->parts, np * sizeof *parts);
    *yes = any;
    for (size_t a = 0; a < np && *yes && st == CGT_OK; a++) {
        bool dead = false;
        st = is_dead(gc, parts[a], &dead, err);
        *yes = dead;
    }
    free(parts);
    if (st == CGT_OK)
        gc->star1.data[h] = *yes;
    return st;
}

/* The options of heap h without dead and *1 heaps (gc->live[h]; see
 * GenusCache). */
static CgtStatus live_options(GenusCache *gc, uint32_t h, const Moves **out, CgtError *err)
{
    if (h >= gc->nlive) {
        size_t nn = gc->nlive ? gc->nlive : 64;
        while (nn <= h)
            nn *= 2;
        gc->live = xrealloc(gc->live, nn * sizeof *gc->live);
        gc->have = xrealloc(gc->have, nn);
        memset(gc->have + gc->nlive, 0, nn - gc->nlive);
        gc->nlive = nn;
    }
    if (!gc->have[h]) {
        const HeapOptions *o;
        CgtStatus st = heap_options(gc, h, &o, err);
        if (st != CGT_OK)
            return st;
        HeapOptions raw;
        heapopts_init(&raw);
        for (size_t j = 0; j < o->count; j++)
            heapopts_add(&raw, o->parts + o->start[j], o->start[j + 1] - o->start[j]);
        /* o is not used below: the calls for the parts may move it */
        Moves lo = {0};
        VEC_PUSH(lo.start, 0);
        for (size_t j = 0; j < raw.count && st == CGT_OK; j++) {
            unsigned char odd = 0;
            for (size_t a = raw.start[j]; a < raw.start[j + 1] && st == CGT_OK; a++) {
                bool dead = false, one = false;
                st = is_dead(gc, raw.parts[a], &dead, err);
                if (st == CGT_OK && !dead)
                    st = is_star1(gc, raw.parts[a], &one, err);
                if (st == CGT_OK && one)
                    odd ^= 1;
                else if (st == CGT_OK && !dead)
                    VEC_PUSH(lo.parts, raw.parts[a]);
            }
            VEC_PUSH(lo.start, lo.parts.len);
            VEC_PUSH(lo.odd, odd);
        }
        heapopts_free(&raw);
        if (st != CGT_OK) {
            moves_free(&lo);
            return st;
        }
        gc->live[h] = lo;
        gc->have[h] = 1;
    }
    *out = &gc->live[h];
    return CGT_OK;
}

/* The options of the canonical position pos[0..len-1] of live heaps into
 * *out (emptied first), each reduced as in live_options: the searches' one
 * loop over the moves, a heap that occurs several times moved once. */
static CgtStatus position_options(GenusCache *gc, const uint32_t *pos, size_t len, Moves *out,
                                  CgtError *err)
{
    out->parts.len = out->start.len = out->odd.len = 0;
    VEC_PUSH(out->start, 0);
    CgtStatus st = CGT_OK;
    for (size_t i = 0; i < len && st == CGT_OK; i++) {
        if (i > 0 && pos[i] == pos[i - 1])
            continue;
        const Moves *o;
        st = live_options(gc, pos[i], &o, err);
        for (size_t j = 0; st == CGT_OK && j < o->odd.len; j++) {
            const uint32_t *parts = o->parts.data + o->start.data[j];
            size_t np = o->start.data[j + 1] - o->start.data[j], at = out->parts.len;
            VEC_RESERVE(out->parts, at + len - 1 + np);
            out->parts.len += outcome_replace(pos, len, i, parts, np, out->parts.data + at);
            VEC_PUSH(out->start, out->parts.len);
            VEC_PUSH(out->odd, o->odd.data[j]);
        }
    }
    return st;
}

static CgtStatus genus_rec(GenusCache *gc, const uint32_t *pos, size_t len, uint32_t *id_out,
                           CgtError *err)
{
    bool ins;
    uint32_t id = outcome_map_intern(gc->map, pos, len, &ins);
    if (ins) {
        CgtStatus cs = check_caps(gc, err);
        if (cs != CGT_OK)
            return cs;
        GenusRec r;
        memset(&r, 0, sizeof r);
        VEC_PUSH(gc->rec, r);
    }
    *id_out = id;
    if (gc->rec.data[id].done)
        return CGT_OK;
    CgtStatus st = cgt_poll();
    if (st != CGT_OK)
        return cgt_poll_error(err, st, "genus computation");
    /* collect the options' values, then combine */
    Moves opts = {0};
    st = position_options(gc, pos, len, &opts, err);
    size_t n = opts.odd.len;
    uint32_t *vals = xmalloc((n ? n : 1) * (GENUS_LEN + 1) * sizeof *vals);
    for (size_t j = 0; j < n && st == CGT_OK; j++) {
        uint32_t oid;
        st = genus_rec(gc, opts.parts.data + opts.start.data[j],
                       opts.start.data[j + 1] - opts.start.data[j], &oid, err);
        for (int c = 0; st == CGT_OK && c <= GENUS_LEN; c++)
            vals[j * (GENUS_LEN + 1) + c] = gc->rec.data[oid].v[c] ^ opts.odd.data[j];
    }
    moves_free(&opts);
    if (st != CGT_OK) {
        free(vals);
        return st;
    }
    GenusRec r;
    memset(&r, 0, sizeof r);
    for (int c = 0; c <= GENUS_LEN; c++) {
        if (c == 0)
            r.v[0] = mex_of(vals, n, GENUS_LEN + 1, 0, 0, 0);
        else if (c == 1)
            r.v[1] = n ? mex_of(vals + 1, n, GENUS_LEN + 1, 0, 0, 0) : 1;
        else
            r.v[c] = mex_of(vals + c, n, GENUS_LEN + 1, r.v[c - 1], r.v[c - 1] ^ 1, 1);
    }
    r.done = 1;
    gc->rec.data[id] = r;
    free(vals);
    return CGT_OK;
}

/* Grundy value of one heap: the mex of the nim-sums of its options' parts. */
static CgtStatus genus_grundy_of(GenusCache *gc, uint32_t h, uint32_t *out, CgtError *err)
{
    while (gc->hgrundy.len <= h)
        VEC_PUSH(gc->hgrundy, UINT32_MAX);
    if (gc->hgrundy.data[h] != UINT32_MAX) {
        *out = gc->hgrundy.data[h];
        return CGT_OK;
    }
    const Moves *o;
    CgtStatus st = live_options(gc, h, &o, err);
    if (st != CGT_OK)
        return st;
    size_t cnt = o->odd.len;
    const size_t *start = o->start.data;
    const uint32_t *parts = o->parts.data;
    const unsigned char *odd = o->odd.data;
    uint32_t *vals = xmalloc((cnt ? cnt : 1) * sizeof *vals);
    for (size_t j = 0; j < cnt && st == CGT_OK; j++) {
        uint32_t x = odd[j], v = 0;
        for (size_t a = start[j]; a < start[j + 1] && st == CGT_OK; a++) {
            st = genus_grundy_of(gc, parts[a], &v, err);
            x ^= v;
        }
        vals[j] = x;
    }
    if (st == CGT_OK)
        *out = gc->hgrundy.data[h] = mex_of(vals, cnt, 1, 0, 0, 0);
    free(vals);
    return st;
}

/* The hook's answers for pos into out; returns the set of k answered. */
static unsigned hook_known(GenusCache *gc, const uint32_t *pos, size_t len, uint32_t *out)
{
    int32_t kv[GENUS_LEN];
    gc->known(gc->kctx, pos, len, kv);
    unsigned have = 0;
    for (unsigned k = 0; k < GENUS_LEN; k++)
        if (kv[k] >= 0) {
            out[k] = (uint32_t)kv[k];
            have |= 1u << k;
        }
    return have;
}

/* The position's id in the hooked search's memo, a new entry knowing no γk. */
static CgtStatus lazy_intern(GenusCache *gc, const uint32_t *pos, size_t len, uint32_t *id,
                             CgtError *err)
{
    bool ins;
    *id = outcome_map_intern(gc->lmap, pos, len, &ins);
    if (!ins)
        return CGT_OK;
    LazyRec r;
    for (int i = 0; i < GENUS_LEN; i++)
        r.v[i] = LAZY_UNKNOWN;
    VEC_PUSH(gc->lrec, r);
    return check_caps(gc, err);
}

static void prefetch(const void *p)
{
#if defined(__GNUC__)
    __builtin_prefetch(p);
#else
    (void)p;
#endif
}

/* The γk for every k in the bit set `need` of the canonical position
 * pos[0..len-1] of live heaps without *1 heaps (memo entry id) into out[k],
 * where out already holds those of the set `have` (the hook's).  The γk
 * that neither the hook nor the memo has are searched together: each needs
 * γ(k-1) of the position and γk of every option, so one pass over the
 * options asks each for all of them (Conway's rule of the file's head).
 * The pass asks the hook about every option, then looks up in the memo
 * those it does not answer, having first prefetched their slots, so that
 * the memory accesses of the look-ups overlap. */
static CgtStatus lazy_fill(GenusCache *gc, const uint32_t *pos, size_t len, uint32_t id,
                           unsigned need, unsigned have, uint32_t *out, CgtError *err)
{
    const LazyRec *r = &gc->lrec.data[id];
    for (unsigned k = 0; k < GENUS_LEN; k++)
        if (!(have >> k & 1) && r->v[k] != LAZY_UNKNOWN) {
            out[k] = r->v[k];
            have |= 1u << k;
        }
    unsigned todo = need & ~have;
    if (!todo)
        return CGT_OK;
    for (unsigned k = GENUS_LEN - 1; k > 0; k--)
        if ((todo >> k & 1) && !(have >> (k - 1) & 1))
            todo |= 1u << (k - 1);
    CgtStatus st = cgt_poll();
    if (st != CGT_OK)
        return cgt_poll_error(err, st, "genus computation");
    Moves opts = {0};
    st = position_options(gc, pos, len, &opts, err);
    size_t n = opts.odd.len;
    uint32_t *vals = xmalloc((n ? n : 1) * (GENUS_LEN + 2) * sizeof *vals);
    /* row j: γ of option j, then the set of them known, then its id */
    const size_t row = GENUS_LEN + 2;
    for (size_t j = 0; j < n && st == CGT_OK; j++) {
        const uint32_t *o = opts.parts.data + opts.start.data[j];
        size_t ol = opts.start.data[j + 1] - opts.start.data[j];
        uint32_t *v = vals + j * row;
        v[GENUS_LEN] = hook_known(gc, o, ol, v);
        if (todo & ~v[GENUS_LEN])
            outcome_map_prefetch(gc->lmap, o, ol);
    }
    for (size_t j = 0; j < n && st == CGT_OK; j++) {
        uint32_t *v = vals + j * row;
        if (todo & ~v[GENUS_LEN])
            st = lazy_intern(gc, opts.parts.data + opts.start.data[j],
                             opts.start.data[j + 1] - opts.start.data[j], &v[GENUS_LEN + 1], err);
    }
    for (size_t j = 0; j < n && st == CGT_OK; j++)
        if (todo & ~vals[j * row + GENUS_LEN])
            prefetch(&gc->lrec.data[vals[j * row + GENUS_LEN + 1]]);
    for (size_t j = 0; j < n && st == CGT_OK; j++) {
        uint32_t *v = vals + j * row;
        if (todo & ~v[GENUS_LEN])
            st = lazy_fill(gc, opts.parts.data + opts.start.data[j],
                           opts.start.data[j + 1] - opts.start.data[j], v[GENUS_LEN + 1], todo,
                           v[GENUS_LEN], v, err);
        for (unsigned k = 0; k < GENUS_LEN && st == CGT_OK; k++)
            if (todo >> k & 1)
                v[k] ^= opts.odd.data[j];
    }
    moves_free(&opts);
    for (unsigned k = 0; k < GENUS_LEN && st == CGT_OK; k++) {
        if (!(todo >> k & 1))
            continue;
        uint32_t m;
        if (k == 0)
            m = n ? mex_of(vals, n, row, 0, 0, 0) : 1;
        else
            m = mex_of(vals + k, n, row, out[k - 1], out[k - 1] ^ 1, 1);
        if (m >= LAZY_UNKNOWN)
            st = cgt_error_set(err, CGT_ERR_LIMIT, "a misère nim value above %u", LAZY_UNKNOWN - 1);
        else
            gc->lrec.data[id].v[k] = (uint16_t)m;
        out[k] = m;
    }
    free(vals);
    return st;
}

/* genus_position with the hook: the γk by lazy_search, with the *1 heaps
 * taken out first; g by Sprague-Grundy. */
static CgtStatus lazy_position(GenusCache *gc, const uint32_t *pos, size_t len, Genus *out,
                               CgtError *err)
{
    if (!gc->lmap)
        gc->lmap = outcome_map_new();
    CgtStatus st = CGT_OK;
    out->g = 0;
    uint32_t *rest = xmalloc((len ? len : 1) * sizeof *rest);
    size_t m = 0;
    unsigned ones = 0;
    for (size_t i = 0; i < len && st == CGT_OK; i++) {
        uint32_t v = 0;
        bool one = false;
        st = genus_grundy_of(gc, pos[i], &v, err);
        out->g ^= v;
        if (st == CGT_OK)
            st = is_star1(gc, pos[i], &one, err);
        if (one)
            ones ^= 1;
        else
            rest[m++] = pos[i];
    }
    unsigned all = (1u << GENUS_LEN) - 1, have = 0;
    uint32_t id = 0;
    if (st == CGT_OK)
        have = hook_known(gc, rest, m, out->gamma);
    if (st == CGT_OK && have != all)
        st = lazy_intern(gc, rest, m, &id, err);
    if (st == CGT_OK && have != all)
        st = lazy_fill(gc, rest, m, id, all, have, out->gamma, err);
    for (unsigned k = 0; k < GENUS_LEN; k++)
        out->gamma[k] ^= ones;
    free(rest);
    return st;
}

CgtStatus genus_position(GenusCache *gc, const uint32_t *heaps, size_t k, Genus *out,
                         CgtError *err)
{
    gc->call_base = genus_cache_size(gc);
    uint32_t *pos = xmalloc((k ? k : 1) * sizeof *pos);
    size_t len = outcome_canon(heaps, k, pos), m = 0;
    CgtStatus st = CGT_OK;
    for (size_t i = 0; i < len && st == CGT_OK; i++) {
        const HeapOptions *o;
        st = heap_options(gc, pos[i], &o, err);
        if (st == CGT_OK && o->count)
            pos[m++] = pos[i];
    }
    uint32_t id;
    if (st == CGT_OK && gc->known)
        st = lazy_position(gc, pos, m, out, err);
    else if (st == CGT_OK)
        st = genus_rec(gc, pos, m, &id, err);
    free(pos);
    if (st != CGT_OK)
        return st;
    if (!gc->known) {
        const GenusRec *r = &gc->rec.data[id];
        out->g = r->v[0];
        for (int kk = 0; kk < GENUS_LEN; kk++)
            out->gamma[kk] = r->v[1 + kk];
    }
    /* least j with γk = γ(k+2) for all j <= k < GENUS_LEN-2 */
    int j = GENUS_LEN - 2;
    while (j > 0 && out->gamma[j - 1] == out->gamma[j + 1])
        j--;
    if (j > GENUS_LEN - 5) {
        cgt_error_set(err, CGT_ERR_LIMIT, "genus does not settle within %d terms", GENUS_LEN);
        return CGT_ERR_LIMIT;
    }
    out->shown = (unsigned)j + 2;
    return CGT_OK;
}

CgtStatus genus_heap(GenusCache *gc, uint32_t n, Genus *out, CgtError *err)
{
    return genus_position(gc, &n, 1, out, err);
}

char *genus_format(const Genus *g)
{
    bool wide = false;
    for (unsigned k = 0; k < g->shown; k++)
        if (g->gamma[k] >= 10)
            wide = true;
    size_t cap = 16 + (size_t)g->shown * 12, len = 0;
    char *s = xmalloc(cap);
    len += (size_t)snprintf(s, cap, "%u^", g->g);
    for (unsigned k = 0; k < g->shown; k++)
        len += (size_t)snprintf(s + len, cap - len, wide && k ? ",%u" : "%u", g->gamma[k]);
    return s;
}
