/* Memoised outcome search over heap positions (docs/games.md §4; Winning
 * Ways ch. 13 for misère play): positions are canonical multisets interned
 * by games/outcome_map; each keeps a misère state (unknown, P, N).  Normal
 * play goes through single-heap Grundy values (Sprague-Grundy theorem). */
#include "lib/heap/outcome.h"

#include <stdlib.h>
#include <string.h>

#include "lib/heap/outcome_map.h"
#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

enum { ST_UNKNOWN = 0, ST_P = 1, ST_N = 2, ST_BUSY = 3 };

struct OutcomeCache {
    const HeapGame *hg;
    OutcomeMap *map;
    VEC(unsigned char) state;   /* misère state per position id */
    HeapOptions *hopts;          /* options per heap size */
    unsigned char *have;         /* hopts[n] filled */
    uint32_t *grundy;            /* per heap, valid below ngrundy */
    size_t nheaps, ngrundy;
    size_t nopts;                /* cost of hopts: heaps + options + parts */
    size_t limit;
};

OutcomeCache *outcome_new(const HeapGame *hg)
{
    OutcomeCache *c = xcalloc(1, sizeof *c);
    c->hg = hg;
    c->map = outcome_map_new();
    c->limit = OUTCOME_LIMIT_DEFAULT;
    return c;
}

static void free_heaps(OutcomeCache *c)
{
    for (size_t i = 0; i < c->nheaps; i++)
        if (c->have[i])
            heapopts_free(&c->hopts[i]);
    free(c->hopts);
    free(c->have);
    free(c->grundy);
    c->hopts = NULL;
    c->have = NULL;
    c->grundy = NULL;
    c->nheaps = c->ngrundy = 0;
    c->nopts = 0;
}

void outcome_free(OutcomeCache *c)
{
    if (!c)
        return;
    outcome_map_free(c->map);
    VEC_FREE(c->state);
    free_heaps(c);
    free(c);
}

void outcome_set_limit(OutcomeCache *c, size_t max_positions)
{
    c->limit = max_positions;
}

CgtStatus outcome_heap_options(OutcomeCache *c, uint32_t n, const HeapOptions **opts,
                               CgtError *err)
{
    if (c->limit && n >= c->limit) {
        /* the per-heap tables below hold every heap up to n */
        cgt_error_set(err, CGT_ERR_LIMIT, "outcome search passed %zu positions", c->limit);
        cgt_error_hint(err, "try a smaller position");
        return CGT_ERR_LIMIT;
    }
    if (n >= c->nheaps) {
        size_t nn = c->nheaps ? c->nheaps : 64;
        while (nn <= n)
            nn *= 2;
        c->hopts = xrealloc(c->hopts, nn * sizeof *c->hopts);
        c->have = xrealloc(c->have, nn);
        memset(c->have + c->nheaps, 0, nn - c->nheaps);
        c->grundy = xrealloc(c->grundy, nn * sizeof *c->grundy);
        c->nheaps = nn;
    }
    if (!c->have[n]) {
        HeapOptions o;
        heapopts_init(&o);
        CgtStatus st = c->hg->options(c->hg->ctx, n, &o, err);
        if (st != CGT_OK) {
            heapopts_free(&o);
            return st;
        }
        heapopts_canonicalize(&o);
        /* a heap's options are positions the search reaches: the heap,
           its options and their parts count against the cap with the
           memoised positions (normal play tabulates the options of every
           heap up to the largest, O(n^2) parts for a splitting game,
           docs/games.md §7) */
        size_t cost = 1 + o.count + (o.count ? o.start[o.count] : 0); /* heap, options, parts */
        c->nopts += cost;
        if (c->limit && c->nopts + outcome_map_size(c->map) > c->limit) {
            c->nopts -= cost;
            heapopts_free(&o);
            cgt_error_set(err, CGT_ERR_LIMIT, "outcome search passed %zu positions", c->limit);
            cgt_error_hint(err, "try a smaller position");
            return CGT_ERR_LIMIT;
        }
        c->hopts[n] = o;
        c->have[n] = 1;
    }
    *opts = &c->hopts[n];
    return CGT_OK;
}

/* Normal-play Grundy value of one heap n (mex over options of the nim-sums
 * of their parts).  Errors: those of hg->options. */
static CgtStatus outcome_grundy_of(OutcomeCache *c, uint32_t n, uint32_t *g, CgtError *err)
{
    while (c->ngrundy <= n) {
        uint32_t h = (uint32_t)c->ngrundy;
        const HeapOptions *o;
        CgtStatus st = outcome_heap_options(c, h, &o, err);
        if (st != CGT_OK)
            return st;
        size_t lim = o->count + 1;
        unsigned char *seen = xcalloc(lim, 1);
        for (size_t i = 0; i < o->count; i++) {
            uint32_t v = 0;
            for (size_t j = o->start[i]; j < o->start[i + 1]; j++)
                v ^= c->grundy[o->parts[j]];
            if (v < lim)
                seen[v] = 1;
        }
        uint32_t m = 0;
        while (seen[m])
            m++;
        free(seen);
        c->grundy[h] = m;
        c->ngrundy++;
    }
    *g = c->grundy[n];
    return CGT_OK;
}

static CgtStatus canon_copy(const uint32_t *heaps, size_t k, uint32_t **pos, size_t *len)
{
    *pos = xmalloc((k ? k : 1) * sizeof **pos);
    *len = outcome_canon(heaps, k, *pos);
    return CGT_OK;
}

CgtStatus outcome_normal(OutcomeCache *c, const uint32_t *heaps, size_t k, Outcome *res,
                         CgtError *err)
{
    uint32_t x = 0;
    for (size_t i = 0; i < k; i++) {
        uint32_t g;
        CgtStatus st = outcome_grundy_of(c, heaps[i], &g, err);
        if (st != CGT_OK)
            return st;
        x ^= g;
    }
    *res = x ? OUTCOME_N : OUTCOME_P;
    return CGT_OK;
}

/* Misère outcome of the canonical position pos[0..len-1]: recursion over
 * options, stopping at the first P option. */
static CgtStatus misere_rec(OutcomeCache *c, const uint32_t *pos, size_t len, int *out,
                            CgtError *err)
{
    bool ins;
    uint32_t id = outcome_map_intern(c->map, pos, len, &ins);
    if (ins) {
        if (c->limit && outcome_map_size(c->map) > c->limit) {
            cgt_error_set(err, CGT_ERR_LIMIT, "outcome search passed %zu positions", c->limit);
            cgt_error_hint(err, "try a smaller position");
            return CGT_ERR_LIMIT;
        }
        VEC_PUSH(c->state, ST_UNKNOWN);
    }
    if (c->state.data[id] == ST_P || c->state.data[id] == ST_N) {
        *out = c->state.data[id];
        return CGT_OK;
    }
    CgtStatus st = cgt_poll();
    if (st != CGT_OK)
        return cgt_poll_error(err, st, "outcome search");
    uint32_t *buf = NULL;
    size_t bufcap = 0;
    bool any = false, win = false;
    for (size_t i = 0; i < len && !win; i++) {
        if (i > 0 && pos[i] == pos[i - 1])
            continue;
        const HeapOptions *o;
        st = outcome_heap_options(c, pos[i], &o, err);
        if (st != CGT_OK)
            break;
        for (size_t j = 0; j < o->count && !win; j++) {
            size_t np = o->start[j + 1] - o->start[j];
            if (len + np > bufcap) {
                bufcap = len + np + 8;
                buf = xrealloc(buf, bufcap * sizeof *buf);
            }
            size_t nl = outcome_replace(pos, len, i, o->parts + o->start[j], np, buf);
            int r;
            st = misere_rec(c, buf, nl, &r, err);
            if (st != CGT_OK)
                break;
            /* the option lists may have moved if the heap table grew */
            st = outcome_heap_options(c, pos[i], &o, err);
            if (st != CGT_OK)
                break;
            any = true;
            if (r == ST_P)
                win = true;
        }
        if (st != CGT_OK)
            break;
    }
    free(buf);
    if (st != CGT_OK)
        return st;
    *out = (win || !any) ? ST_N : ST_P;
    c->state.data[id] = (unsigned char)*out;
    return CGT_OK;
}

CgtStatus outcome_misere(OutcomeCache *c, const uint32_t *heaps, size_t k, Outcome *res,
                         CgtError *err)
{
    uint32_t *pos;
    size_t len;
    canon_copy(heaps, k, &pos, &len);
    int r;
    CgtStatus st = misere_rec(c, pos, len, &r, err);
    free(pos);
    if (st == CGT_OK)
        *res = r == ST_P ? OUTCOME_P : OUTCOME_N;
    return st;
}

CgtStatus outcome_winning_move(OutcomeCache *c, bool misere, const uint32_t *heaps, size_t k,
                               bool *found, OutcomeMove *mv, CgtError *err)
{
    uint32_t *pos;
    size_t len;
    canon_copy(heaps, k, &pos, &len);
    *found = false;
    CgtStatus st = CGT_OK;
    uint32_t *buf = NULL;
    for (size_t i = 0; i < len && !*found && st == CGT_OK; i++) {
        if (i > 0 && pos[i] == pos[i - 1])
            continue;
        const HeapOptions *o;
        st = outcome_heap_options(c, pos[i], &o, err);
        size_t cnt = st == CGT_OK ? o->count : 0;
        for (size_t j = 0; j < cnt && st == CGT_OK; j++) {
            st = outcome_heap_options(c, pos[i], &o, err);
            if (st != CGT_OK)
                break;
            size_t np = o->start[j + 1] - o->start[j];
            buf = xrealloc(buf, (len + np + 1) * sizeof *buf);
            size_t nl = outcome_replace(pos, len, i, o->parts + o->start[j], np, buf);
            Outcome r;
            st = misere ? outcome_misere(c, buf, nl, &r, err) : outcome_normal(c, buf, nl, &r, err);
            if (st == CGT_OK && r == OUTCOME_P) {
                *found = true;
                mv->index = i;
                mv->heap = pos[i];
                mv->option = j;
                mv->result = buf;
                mv->nresult = nl;
                buf = NULL;
                break;
            }
        }
    }
    free(buf);
    free(pos);
    return st;
}

void outcome_move_free(OutcomeMove *mv)
{
    free(mv->result);
    mv->result = NULL;
    mv->nresult = 0;
}
