/* Genus of heap positions by memoised recursion over options (ONAG ch. 12):
 * g = mex{g'}; γ0 = mex{γ0'} (1 with no options); γk = mex({γk'} ∪ {γ(k-1),
 * γ(k-1) xor 1}) for k >= 1, since the options of G + k*2 are G' + k*2,
 * G + (k-1)*2 + *1 and G + (k-1)*2. */
#include "lib/heap/genus.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/heap/outcome.h"
#include "lib/heap/outcome_map.h"
#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

typedef struct GenusRec {
    uint32_t v[GENUS_LEN + 1]; /* v[0] = g, v[1+k] = γk */
    int done;
} GenusRec;

/* A heap with no option is the game 0: a position is the same game without
 * it, so the search drops such heaps (dead heaps: 1 in 0.07, 2 in 0.16) from
 * every position and keeps one memo entry where there would be one per
 * number of dead heaps.  live[h] holds the options of heap h with the dead
 * heaps taken out of each option (built once per heap; the arrays of an
 * entry never move once built). */
struct GenusCache {
    OutcomeCache *oc; /* for the cached heap option lists */
    OutcomeMap *map;
    VEC(GenusRec) rec;
    size_t limit;
    HeapOptions *live;
    unsigned char *have; /* have[h]: live[h] is built */
    size_t nlive;
};

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
    for (size_t h = 0; h < gc->nlive; h++)
        if (gc->have[h])
            heapopts_free(&gc->live[h]);
    free(gc->live);
    free(gc->have);
    free(gc);
}

void genus_set_limit(GenusCache *gc, size_t max_positions)
{
    gc->limit = max_positions;
    outcome_set_limit(gc->oc, max_positions);
}

static uint32_t mex_of(const uint32_t *vals, size_t n, uint32_t extra1, uint32_t extra2,
                       int use_extra)
{
    size_t lim = n + 3;
    unsigned char small[256];
    unsigned char *seen = lim <= sizeof small ? small : xmalloc(lim);
    memset(seen, 0, lim);
    for (size_t i = 0; i < n; i++)
        if (vals[i] < lim)
            seen[vals[i]] = 1;
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

/* The options of heap h without dead heaps (gc->live[h]; see GenusCache). */
static CgtStatus live_options(GenusCache *gc, uint32_t h, const HeapOptions **out, CgtError *err)
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
        HeapOptions raw, lo;
        heapopts_init(&raw);
        for (size_t j = 0; j < o->count; j++)
            heapopts_add(&raw, o->parts + o->start[j], o->start[j + 1] - o->start[j]);
        /* o is not used below: the calls for the parts may move it */
        heapopts_init(&lo);
        uint32_t *kept = xmalloc((raw.start[raw.count] + 1) * sizeof *kept);
        for (size_t j = 0; j < raw.count && st == CGT_OK; j++) {
            size_t k = 0;
            for (size_t a = raw.start[j]; a < raw.start[j + 1] && st == CGT_OK; a++) {
                const HeapOptions *po;
                st = heap_options(gc, raw.parts[a], &po, err);
                if (st == CGT_OK && po->count)
                    kept[k++] = raw.parts[a];
            }
            heapopts_add(&lo, kept, k);
        }
        free(kept);
        heapopts_free(&raw);
        if (st != CGT_OK) {
            heapopts_free(&lo);
            return st;
        }
        gc->live[h] = lo;
        gc->have[h] = 1;
    }
    *out = &gc->live[h];
    return CGT_OK;
}

static CgtStatus genus_rec(GenusCache *gc, const uint32_t *pos, size_t len, uint32_t *id_out,
                           CgtError *err)
{
    bool ins;
    uint32_t id = outcome_map_intern(gc->map, pos, len, &ins);
    if (ins) {
        if (gc->limit && outcome_map_size(gc->map) > gc->limit) {
            cgt_error_set(err, CGT_ERR_LIMIT, "genus search passed %zu positions", gc->limit);
            cgt_error_hint(err, "try a smaller position");
            return CGT_ERR_LIMIT;
        }
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
    /* collect the options' records (ids), then combine */
    VEC(uint32_t) ids = {0};
    uint32_t *buf = NULL;
    size_t bufcap = 0;
    for (size_t i = 0; i < len && st == CGT_OK; i++) {
        if (i > 0 && pos[i] == pos[i - 1])
            continue;
        const HeapOptions *o;
        st = live_options(gc, pos[i], &o, err);
        if (st != CGT_OK)
            break;
        /* the arrays stay put while gc->live grows */
        size_t cnt = o->count;
        const size_t *start = o->start;
        const uint32_t *parts = o->parts;
        for (size_t j = 0; j < cnt && st == CGT_OK; j++) {
            size_t np = start[j + 1] - start[j];
            if (len + np > bufcap) {
                bufcap = len + np + 8;
                buf = xrealloc(buf, bufcap * sizeof *buf);
            }
            size_t nl = outcome_replace(pos, len, i, parts + start[j], np, buf);
            uint32_t oid;
            st = genus_rec(gc, buf, nl, &oid, err);
            if (st == CGT_OK)
                VEC_PUSH(ids, oid);
        }
    }
    free(buf);
    if (st != CGT_OK) {
        VEC_FREE(ids);
        return st;
    }
    size_t n = ids.len;
    uint32_t *vals = xmalloc((n ? n : 1) * sizeof *vals);
    GenusRec r;
    memset(&r, 0, sizeof r);
    for (int c = 0; c <= GENUS_LEN; c++) {
        for (size_t i = 0; i < n; i++)
            vals[i] = gc->rec.data[ids.data[i]].v[c];
        if (c == 0)
            r.v[0] = mex_of(vals, n, 0, 0, 0);
        else if (c == 1)
            r.v[1] = n ? mex_of(vals, n, 0, 0, 0) : 1;
        else
            r.v[c] = mex_of(vals, n, r.v[c - 1], r.v[c - 1] ^ 1, 1);
    }
    r.done = 1;
    gc->rec.data[id] = r;
    free(vals);
    VEC_FREE(ids);
    return CGT_OK;
}

CgtStatus genus_position(GenusCache *gc, const uint32_t *heaps, size_t k, Genus *out,
                         CgtError *err)
{
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
    if (st == CGT_OK)
        st = genus_rec(gc, pos, m, &id, err);
    free(pos);
    if (st != CGT_OK)
        return st;
    const GenusRec *r = &gc->rec.data[id];
    out->g = r->v[0];
    for (int kk = 0; kk < GENUS_LEN; kk++)
        out->gamma[kk] = r->v[1 + kk];
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
