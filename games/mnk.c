/* m,n,k-game solver: Maker-Breaker And-Or search with potential weights,
 * partial pairing, pairing strategies and vertex domination (seeds/001,
 * Hsu, Huang, Wu et al.), a strong-game search on top of it, proof-tree
 * output and a checkpointed transposition table of proven positions.
 * All state lives in a Solver object made and freed inside mnk_solve. */
#include "games/mnk.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util/atomicfile.h"
#include "util/hash.h"
#include "util/poll.h"
#include "util/rng.h"
#include "util/xalloc.h"

/* Population count without relying on a popcnt instruction (the portable
 * build has none, and libgcc's fallback is slow). */
static inline int pc64(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((v * 0x0101010101010101ULL) >> 56);
}

/* ---------------------------------------------------------------- geometry */

typedef struct Geo {
    int m, n, k, cells, nlines, nsym;
    uint64_t full;
    uint64_t *line;   /* cell mask of each k-line */
    int *cl_start;    /* lines through cell c: cl_idx[cl_start[c] .. cl_start[c+1]) */
    int *cl_idx;
    uint8_t sym[8][MNK_MAX_CELLS];
    uint8_t inv[8][MNK_MAX_CELLS];    /* inv[s][sym[s][c]] = c */
    uint64_t zob[8][2][MNK_MAX_CELLS]; /* zob[s][colour][c] = base[colour][sym[s][c]] */
} Geo;

static void geo_init(Geo *g, int m, int n, int k)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->n = n;
    g->k = k;
    g->cells = m * n;
    g->full = g->cells == 64 ? ~0ULL : (1ULL << g->cells) - 1;
    static const int dir[4][2] = {{1, 0}, {0, 1}, {1, 1}, {1, -1}};
    int cap = 4 * g->cells;
    g->line = xmalloc((size_t)cap * sizeof *g->line);
    for (int d = 0; d < 4; d++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++) {
                int er = r + dir[d][1] * (k - 1), ec = c + dir[d][0] * (k - 1);
                if (er < 0 || er >= n || ec >= m)
                    continue;
                if (k == 1 && d > 0)
                    continue;
                uint64_t mask = 0;
                for (int i = 0; i < k; i++)
                    mask |= 1ULL << ((r + dir[d][1] * i) * m + c + dir[d][0] * i);
                g->line[g->nlines++] = mask;
            }
    g->cl_start = xcalloc((size_t)g->cells + 1, sizeof(int));
    for (int l = 0; l < g->nlines; l++)
        for (int c = 0; c < g->cells; c++)
            if (g->line[l] >> c & 1)
                g->cl_start[c + 1]++;
    for (int c = 0; c < g->cells; c++)
        g->cl_start[c + 1] += g->cl_start[c];
    g->cl_idx = xmalloc((size_t)(g->cl_start[g->cells] + 1) * sizeof(int));
    int *fill = xcalloc((size_t)g->cells, sizeof(int));
    for (int l = 0; l < g->nlines; l++)
        for (int c = 0; c < g->cells; c++)
            if (g->line[l] >> c & 1)
                g->cl_idx[g->cl_start[c] + fill[c]++] = l;
    free(fill);
    /* Board symmetries: 4 for a rectangle, 8 for a square. */
    g->nsym = m == n ? 8 : 4;
    for (int s = 0; s < g->nsym; s++)
        for (int r = 0; r < n; r++)
            for (int c = 0; c < m; c++) {
                int x = c, y = r;
                if (s & 1)
                    x = m - 1 - x;
                if (s & 2)
                    y = n - 1 - y;
                if (s & 4) {
                    int t = x;
                    x = y;
                    y = t;
                }
                g->sym[s][r * m + c] = (uint8_t)(y * m + x);
                g->inv[s][y * m + x] = (uint8_t)(r * m + c);
            }
    Rng rng;
    rng_seed(&rng, 0x6d6e6bULL);
    uint64_t base[2][MNK_MAX_CELLS];
    for (int col = 0; col < 2; col++)
        for (int c = 0; c < MNK_MAX_CELLS; c++)
            base[col][c] = rng_next(&rng);
    for (int s = 0; s < g->nsym; s++)
        for (int col = 0; col < 2; col++)
            for (int c = 0; c < g->cells; c++)
                g->zob[s][col][c] = base[col][g->sym[s][c]];
}

static void geo_free(Geo *g)
{
    free(g->line);
    free(g->cl_start);
    free(g->cl_idx);
}

/* Canonical Zobrist key of (x, o) under the board symmetries (minimum of
 * the 8 or 4 images); salt separates tables that share a key space.  *symp
 * (if not NULL) gets the symmetry whose image is the canonical one. */
static uint64_t geo_key_sym(const Geo *g, uint64_t x, uint64_t o, uint64_t salt, int *symp)
{
    uint64_t h[8] = {0};
    for (uint64_t b = x; b; b &= b - 1) {
        int c = __builtin_ctzll(b);
        for (int s = 0; s < g->nsym; s++)
            h[s] ^= g->zob[s][0][c];
    }
    for (uint64_t b = o; b; b &= b - 1) {
        int c = __builtin_ctzll(b);
        for (int s = 0; s < g->nsym; s++)
            h[s] ^= g->zob[s][1][c];
    }
    uint64_t best = h[0];
    int bs = 0;
    for (int s = 1; s < g->nsym; s++)
        if (h[s] < best) {
            best = h[s];
            bs = s;
        }
    if (symp)
        *symp = bs;
    best = hash_mix64(best ^ salt);
    return best ? best : 1;
}

static uint64_t geo_key(const Geo *g, uint64_t x, uint64_t o, uint64_t salt)
{
    return geo_key_sym(g, x, o, salt, NULL);
}

/* A cell set of a position mapped to its canonical image (symmetry s of
 * geo_key_sym), and back. */
static uint64_t zone_to_canon(const Geo *g, int s, uint64_t z)
{
    uint64_t r = 0;
    for (; z; z &= z - 1)
        r |= 1ULL << g->sym[s][__builtin_ctzll(z)];
    return r;
}

static uint64_t zone_from_canon(const Geo *g, int s, uint64_t z)
{
    uint64_t r = 0;
    for (z &= g->full; z; z &= z - 1)
        r |= 1ULL << g->inv[s][__builtin_ctzll(z)];
    return r;
}

/* ----------------------------------------------------- transposition table */

/* Open addressing on the 64-bit key.  zone[i] is the relevance zone of a
 * result (in the canonical image's cells; docs/mnk.md "Relevance zones"),
 * work[i] about log2 of the nodes its search took (0 for cheap results).
 * With max_cap (slots, a power of two; 0 = no limit) the table does not grow
 * past it: when it is half full, the entries of least work are dropped
 * until at most a quarter is left (only proven results are stored, so
 * dropping one costs time, never correctness). */
typedef struct Tt {
    uint64_t *key;
    uint64_t *zone;
    uint8_t *val;
    uint8_t *work;
    size_t cap, used, max_cap;
    uint64_t evictions; /* entries dropped */
} Tt;

static void tt_alloc(Tt *t, size_t cap)
{
    t->cap = cap;
    t->used = 0;
    t->key = xcalloc(t->cap, sizeof *t->key);
    t->zone = xcalloc(t->cap, sizeof *t->zone);
    t->val = xcalloc(t->cap, 1);
    t->work = xcalloc(t->cap, 1);
}

static void tt_init(Tt *t)
{
    t->max_cap = 0;
    t->evictions = 0;
    tt_alloc(t, 1u << 16);
}

static void tt_free(Tt *t)
{
    free(t->key);
    free(t->zone);
    free(t->val);
    free(t->work);
}

/* Value stored for key (0 if none); *zone (if not NULL) gets its zone. */
static int tt_get_zone(const Tt *t, uint64_t key, uint64_t *zone)
{
    size_t i = key & (t->cap - 1);
    while (t->key[i]) {
        if (t->key[i] == key) {
            if (zone)
                *zone = t->zone[i];
            return t->val[i];
        }
        i = (i + 1) & (t->cap - 1);
    }
    return 0;
}

static int tt_get(const Tt *t, uint64_t key)
{
    return tt_get_zone(t, key, NULL);
}

static void tt_store(Tt *t, uint64_t key, int val, uint64_t zone, int work);

static void tt_put_zone(Tt *t, uint64_t key, int val, uint64_t zone)
{
    tt_store(t, key, val, zone, 0);
}

static void tt_put(Tt *t, uint64_t key, int val)
{
    tt_store(t, key, val, ~0ULL, 0);
}

/* Move every entry of old with work >= min_work into t (fresh, large enough). */
static void tt_refill(Tt *t, const Tt *old, int min_work)
{
    for (size_t i = 0; i < old->cap; i++)
        if (old->key[i] && old->work[i] >= min_work)
            tt_store(t, old->key[i], old->val[i], old->zone[i], old->work[i]);
}

/* Double the table, or at max_cap drop the entries of least work. */
static void tt_make_room(Tt *t)
{
    Tt old = *t;
    if (!t->max_cap || t->cap * 2 <= t->max_cap) {
        tt_alloc(t, old.cap * 2);
        tt_refill(t, &old, 0);
    } else {
        size_t count[256] = {0}, keep = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.key[i])
                count[old.work[i]]++;
        int min_work = 256;
        while (min_work > 0 && keep + count[min_work - 1] <= old.cap / 4)
            keep += count[--min_work];
        tt_alloc(t, old.cap);
        tt_refill(t, &old, min_work);
        t->evictions += old.used - t->used;
    }
    tt_free(&old);
}

/* Store val, zone and work for key, replacing an earlier entry of the key. */
static void tt_store(Tt *t, uint64_t key, int val, uint64_t zone, int work)
{
    if (2 * (t->used + 1) > t->cap)
        tt_make_room(t);
    size_t i = key & (t->cap - 1);
    while (t->key[i]) {
        if (t->key[i] == key) {
            t->val[i] = (uint8_t)val;
            t->zone[i] = zone;
            t->work[i] = (uint8_t)work;
            return;
        }
        i = (i + 1) & (t->cap - 1);
    }
    t->key[i] = key;
    t->val[i] = (uint8_t)val;
    t->zone[i] = zone;
    t->work[i] = (uint8_t)work;
    t->used++;
}

/* About log2(n + 1): the work byte of a result that took n nodes. */
static int work_of(uint64_t n)
{
    int w = 0;
    while (n) {
        w++;
        n >>= 1;
    }
    return w;
}

/* ------------------------------------------------------------------ solver */

/* Maker-Breaker table values.  (Markers of positions whose cheap tests had
 * failed were dropped: they were 3/4 of the table and saved no time once a
 * Maker node runs its own longer pairing search.) */
enum { V_BREAKER = 1, V_MAKER = 2 };
enum { S_FAILS = 1, S_WINS = 2 };              /* strong table: attacker fails / wins */
#define SALT_MB 0x9e3779b97f4a7c15ULL
#define SALT_MBB 0xd1b54a32d192ed03ULL         /* Maker-Breaker, Breaker to move */
#define SALT_SA 0x2545f4914f6cdd1dULL          /* strong, attacker to move */
#define SALT_SD 0x5851f42d4c957f2dULL          /* strong, defender to move */

typedef struct Solver {
    Geo g;
    Tt tt;
    uint64_t nodes, hits, node_limit;
    double t0, time_limit, next_ckpt, ckpt_every;
    const char *ckpt;
    size_t ckpt_on_disk;    /* entries of the checkpoint file at ckpt (0: none) */
    bool ckpt_skipped;      /* a save was skipped: the table held fewer entries */
    int depth, max_depth;
    CgtStatus st;
    CgtError *err;
    bool is_main;           /* polls, reports progress and saves checkpoints */
    bool zones;             /* skip Maker moves refuted by a relevance zone */
    atomic_int *stop;       /* set when another root worker decided the root */
    bool cancelled;         /* st was set because of *stop, not an error */
    atomic_int *root_left;  /* root moves not yet decided (progress only) */
} Solver;

static CgtStatus save_checkpoint(Solver *s);

/* Count a node; every 1024 nodes poll for Ctrl-C, deadlines and checkpoints. */
static bool tick(Solver *s)
{
    if (s->st != CGT_OK)
        return false;
    s->nodes++;
    if (s->node_limit && s->nodes > s->node_limit) {
        s->st = cgt_error_set(s->err, CGT_ERR_LIMIT, "mnk search stopped: node limit of %llu "
                              "reached", (unsigned long long)s->node_limit);
        return false;
    }
    if (s->stop && atomic_load_explicit(s->stop, memory_order_relaxed)) {
        s->st = CGT_ERR_LIMIT;
        s->cancelled = true;
        return false;
    }
    if (!s->is_main)
        return true;
    CgtStatus st = cgt_poll();
    if (st != CGT_OK) {
        s->st = cgt_poll_error(s->err, st, "mnk search");
        return false;
    }
    if ((s->nodes & 1023) == 0) {
        double now = cgt_now();
        if (s->time_limit > 0 && now - s->t0 > s->time_limit) {
            s->st = cgt_error_set(s->err, CGT_ERR_LIMIT, "mnk search stopped: time limit of "
                                  "%g s reached", s->time_limit);
            return false;
        }
        if (s->ckpt && s->ckpt_every > 0 && now >= s->next_ckpt) {
            s->next_ckpt = now + s->ckpt_every;
            if (save_checkpoint(s) != CGT_OK) {
                s->st = CGT_ERR_IO;
                return false;
            }
        }
        cgt_progress("mnk", "%llu nodes, %.0f nodes/s, depth %d (max %d), %d root moves open, "
                     "%zu table entries, %llu dropped", (unsigned long long)s->nodes,
                     (double)s->nodes / (now - s->t0 + 1e-9), s->depth, s->max_depth,
                     s->root_left ? atomic_load(s->root_left) : 0, s->tt.used,
                     (unsigned long long)s->tt.evictions);
    }
    return true;
}

/* Per-position analysis for Maker (attacker) marks x and Breaker marks o:
 * potential P (eq. (2)), vertex weights w(v) (eq. (3)), threat cells (the
 * one empty cell of a live line with k-1 Maker marks), whether a line is
 * complete, and for domination the intersection of the live lines through
 * each empty cell (seeds/001 sec. 3.2: E(v1) is a subset of E(v2) iff v2
 * lies on every live line through v1). */
typedef struct Eval {
    long pot;
    bool complete;
    uint64_t threats;
    uint64_t live_cells; /* empty cells on at least one live line */
    long w[MNK_MAX_CELLS];
    uint64_t inter[MNK_MAX_CELLS];
} Eval;

static void evaluate(const Geo *g, uint64_t x, uint64_t o, bool want_inter, Eval *e)
{
    uint64_t empty = g->full & ~x & ~o;
    e->pot = 0;
    e->complete = false;
    e->threats = 0;
    e->live_cells = 0;
    memset(e->w, 0, sizeof(long) * (size_t)g->cells);
    if (want_inter)
        for (int c = 0; c < g->cells; c++)
            e->inter[c] = ~0ULL;
    for (int l = 0; l < g->nlines; l++) {
        uint64_t ln = g->line[l];
        if (ln & o)
            continue;
        int cnt = pc64(ln & x);
        long wt = 1L << cnt;
        e->pot += wt;
        if (cnt == g->k) {
            e->complete = true;
            continue;
        }
        uint64_t em = ln & empty;
        if (cnt == g->k - 1)
            e->threats |= em;
        e->live_cells |= em;
        for (uint64_t b = em; b; b &= b - 1) {
            int c = __builtin_ctzll(b);
            e->w[c] += wt;
            if (want_inter)
                e->inter[c] &= ln;
        }
    }
}

/* Cells of `cand` not dominated (Theorem 2): v is dropped when another
 * empty cell u lies on every live line through v, unless v also lies on
 * every live line through u and v < u (keep one of a mutual pair). */
static uint64_t undominated(const Eval *e, uint64_t cand)
{
    uint64_t keep = 0;
    for (uint64_t b = cand; b; b &= b - 1) {
        int v = __builtin_ctzll(b);
        uint64_t dom = e->inter[v] & cand & ~(1ULL << v);
        bool dominated = false;
        for (uint64_t d = dom; d; d &= d - 1) {
            int u = __builtin_ctzll(d);
            if (!(e->inter[u] >> v & 1) || u < v) {
                dominated = true;
                break;
            }
        }
        if (!dominated)
            keep |= 1ULL << v;
    }
    return keep;
}

/* The cell that makes undominated() drop v (v dominated within cand), or -1. */
static int dominator(const Eval *e, uint64_t cand, int v)
{
    for (uint64_t d = e->inter[v] & cand & ~(1ULL << v); d; d &= d - 1) {
        int u = __builtin_ctzll(d);
        if (!(e->inter[u] >> v & 1) || u < v)
            return u;
    }
    return -1;
}

/* The largest weight of an empty cell on a live line (0 if none): Maker's
 * best move raises the potential by it. */
static long max_weight(const Eval *e)
{
    long maxw = 0;
    for (uint64_t b = e->live_cells; b; b &= b - 1)
        if (e->w[__builtin_ctzll(b)] > maxw)
            maxw = e->w[__builtin_ctzll(b)];
    return maxw;
}

/* Cells of `cand` sorted by decreasing weight (ties by cell index). */
static int order_moves(const long *w, uint64_t cand, int *out)
{
    int n = 0;
    for (uint64_t b = cand; b; b &= b - 1) {
        int c = __builtin_ctzll(b);
        int i = n++;
        while (i > 0 && w[out[i - 1]] < w[c]) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = c;
    }
    return n;
}

/* Partial-pairing reduction before a Maker move (Theorem 1, Algorithm 2):
 * empty cells on no live line are redundant, and two mutually dominated
 * cells (same live lines) form a partial pair.  Both kinds are given to
 * Breaker, which by Theorem 1 keeps the value of the game: marking every
 * cell of V_pair for Breaker removes exactly V_pair and E_pair.  Returns
 * the new Breaker mask; pairs and singles are reported if asked. */
static uint64_t reduce(const Geo *g, uint64_t x, uint64_t o, int (*pairs)[2], int *npairs,
                       uint64_t *singles)
{
    Eval e;
    for (;;) {
        evaluate(g, x, o, true, &e);
        uint64_t empty = g->full & ~x & ~o;
        uint64_t dead = empty & ~e.live_cells;
        uint64_t add = dead;
        if (singles)
            *singles |= dead;
        uint64_t used = dead;
        for (uint64_t b = e.live_cells; b; b &= b - 1) {
            int v = __builtin_ctzll(b);
            if (used >> v & 1)
                continue;
            uint64_t cand = e.inter[v] & e.live_cells & ~used & ~(1ULL << v);
            for (uint64_t d = cand; d; d &= d - 1) {
                int u = __builtin_ctzll(d);
                if (e.inter[u] >> v & 1) {
                    used |= 1ULL << v | 1ULL << u;
                    add |= 1ULL << v | 1ULL << u;
                    if (pairs) {
                        pairs[*npairs][0] = v;
                        pairs[*npairs][1] = u;
                        (*npairs)++;
                    }
                    break;
                }
            }
        }
        if (!add)
            return o;
        o |= add;
    }
}

/* Pairing strategy search (sec. 2.2, in the spirit of Algorithm 3): find
 * disjoint pairs of empty cells such that every live line holds both cells
 * of some pair.  Picks the free line with fewest unassigned cells (Greedy
 * Rule 2 when it has two), tries the pairs covering most free lines first,
 * and backtracks within a budget. */
#ifndef PAIR_QUICK
#define PAIR_QUICK 64 /* budget when every Breaker reply is given the cheap tests */
#endif
#ifndef PAIR_DEEP
#define PAIR_DEEP 1024 /* budget before a Maker node is expanded */
#endif

/* Lines are numbered in the order of the live lines of the position; a set
 * of lines is a bitset of PS_WORDS words (up to 256 lines, 4 per cell), and
 * inc[c] is the set of live lines through cell c, so a candidate pair is
 * scored with a few popcounts instead of a pass over every line. */
#define PS_WORDS 4

typedef struct PairSearch {
    const Geo *g;
    int budget;
    int npairs;
    int pairs[MNK_MAX_CELLS / 2][2];
    int nw;                            /* words in use */
    uint64_t lines[4 * MNK_MAX_CELLS]; /* live line i, its empty cells */
    uint64_t inc[MNK_MAX_CELLS][PS_WORDS];
    uint8_t cnt[4 * MNK_MAX_CELLS];    /* unassigned cells of live line i */
    int k;
    uint64_t bucket[MNK_MAX_K + 1][PS_WORDS]; /* lines by their count */
} PairSearch;

/* Add d (+1 or -1) to the unassigned-cell counts of the lines through c. */
static void ps_count(PairSearch *ps, int c, int d)
{
    for (int w = 0; w < ps->nw; w++)
        for (uint64_t b = ps->inc[c][w]; b; b &= b - 1) {
            int i = w * 64 + __builtin_ctzll(b);
            ps->bucket[ps->cnt[i]][w] &= ~(b & (~b + 1));
            ps->cnt[i] = (uint8_t)(ps->cnt[i] + d);
            ps->bucket[ps->cnt[i]][w] |= b & (~b + 1);
        }
}

static bool pair_rec(PairSearch *ps, const uint64_t *left, uint64_t assigned)
{
    int nw = ps->nw;
    bool any = false;
    for (int w = 0; w < nw; w++)
        any |= left[w] != 0;
    if (!any)
        return true;
    if (--ps->budget < 0)
        return false;
    /* the first remaining line with the fewest unassigned cells */
    int best = -1, bestn = 99;
    for (int c = 0; c <= ps->k && best < 0; c++)
        for (int w = 0; w < nw; w++)
            if (left[w] & ps->bucket[c][w]) {
                best = w * 64 + __builtin_ctzll(left[w] & ps->bucket[c][w]);
                bestn = c;
                break;
            }
    if (bestn < 2)
        return false;
    uint64_t free_cells = ps->lines[best] & ~assigned;
    int cells[MNK_MAX_CELLS], nc = 0;
    for (uint64_t b = free_cells; b; b &= b - 1)
        cells[nc++] = __builtin_ctzll(b);
    int na = 0, pa[64], pb[64], sc[64];
    for (int i = 0; i < nc && na < 64; i++)
        for (int j = i + 1; j < nc && na < 64; j++) {
            const uint64_t *ia = ps->inc[cells[i]], *ib = ps->inc[cells[j]];
            int score = 0;
            for (int w = 0; w < nw; w++)
                score += 4 * pc64(ia[w] & ib[w] & left[w]) - pc64((ia[w] ^ ib[w]) & left[w]);
            int p = na++;
            while (p > 0 && sc[p - 1] < score) {
                pa[p] = pa[p - 1];
                pb[p] = pb[p - 1];
                sc[p] = sc[p - 1];
                p--;
            }
            pa[p] = cells[i];
            pb[p] = cells[j];
            sc[p] = score;
        }
    int tries = bestn == 2 ? 1 : 3;
    for (int t = 0; t < na && t < tries; t++) {
        uint64_t pm = 1ULL << pa[t] | 1ULL << pb[t];
        uint64_t rest[PS_WORDS];
        for (int w = 0; w < nw; w++)
            rest[w] = left[w] & ~(ps->inc[pa[t]][w] & ps->inc[pb[t]][w]);
        ps->pairs[ps->npairs][0] = pa[t];
        ps->pairs[ps->npairs][1] = pb[t];
        ps->npairs++;
        ps_count(ps, pa[t], -1);
        ps_count(ps, pb[t], -1);
        bool ok = pair_rec(ps, rest, assigned | pm);
        ps_count(ps, pa[t], 1);
        ps_count(ps, pb[t], 1);
        if (ok)
            return true;
        ps->npairs--;
        if (ps->budget < 0)
            break;
    }
    return false;
}

/* The cells of the pairs found by find_pairing. */
static uint64_t pair_cells(const PairSearch *ps)
{
    uint64_t z = 0;
    for (int i = 0; i < ps->npairs; i++)
        z |= 1ULL << ps->pairs[i][0] | 1ULL << ps->pairs[i][1];
    return z;
}

/* A pairing covering every live line of (x, o), into *ps; false if none found. */
static bool find_pairing(const Geo *g, uint64_t x, uint64_t o, PairSearch *ps, int budget)
{
    int nl = 0;
    uint64_t empty = g->full & ~x & ~o;
    uint64_t live_cells = 0;
    for (int l = 0; l < g->nlines; l++)
        if (!(g->line[l] & o)) {
            ps->lines[nl++] = g->line[l] & empty;
            live_cells |= g->line[l] & empty;
        }
    ps->g = g;
    ps->budget = budget;
    ps->npairs = 0;
    ps->nw = (nl + 63) / 64;
    ps->k = g->k;
    memset(ps->bucket, 0, sizeof(ps->bucket[0]) * (size_t)(g->k + 1));
    for (uint64_t b = live_cells; b; b &= b - 1)
        memset(ps->inc[__builtin_ctzll(b)], 0, sizeof ps->inc[0]);
    uint64_t left[PS_WORDS] = {0};
    for (int i = 0; i < nl; i++) {
        left[i / 64] |= 1ULL << (i % 64);
        ps->cnt[i] = (uint8_t)pc64(ps->lines[i]);
        ps->bucket[ps->cnt[i]][i / 64] |= 1ULL << (i % 64);
        for (uint64_t b = ps->lines[i]; b; b &= b - 1)
            ps->inc[__builtin_ctzll(b)][i / 64] |= 1ULL << (i % 64);
    }
    return pair_rec(ps, left, 0);
}

static bool mb_breaker_node(Solver *s, uint64_t x, uint64_t o, int *reply, uint64_t *zone);

/* Relevance zones (Hsu, Ko, Chen, Wei, Hsueh, Wu, TCS 815 (2020), the
 * later version of seeds/001; docs/mnk.md "Relevance zones").  A Breaker
 * win of a position P comes with a set Z of P's empty cells such that
 * Breaker still wins (same player to move) when Maker is given any set of
 * empty cells outside Z.  Extra Maker marks only help Maker, so a Breaker
 * win of P + Xv + Ob with zone Z also refutes every other Maker move u
 * outside Z: P + Xu + Ob has fewer Maker marks than P + Xv + Ob + X(E \ Z).
 * Zones: no live line -> {}; Property 1 -> the empty cells on live lines;
 * pairing -> the paired cells; reduction -> the reduced zone plus V_pair;
 * Breaker reply b -> the child's zone plus b; Maker node -> the union of the
 * searched children's zones plus one dominator of each pruned dominated
 * move (Theorem 2 needs it empty).  Stored in the table in canonical
 * coordinates. */

/* Relevance zone of a Property-1 win: the empty cells on live lines less a
 * set T of them that Maker may own all at once with the criterion still
 * met.  Extra Maker marks only raise the potential (and every cell's
 * weight), so each subset of T keeps the criterion too.  maker_to_move:
 * the criterion is P + max_v w(v) < 2^k, else P < 2^k.  T grows greedily
 * from the cells of least weight and stops at the first failure. */
static uint64_t potential_zone(const Geo *g, uint64_t x, uint64_t o, const Eval *e,
                               bool maker_to_move)
{
    int mv[MNK_MAX_CELLS];
    int n = order_moves(e->w, e->live_cells, mv);
    uint64_t t = 0;
    long lim = 1L << g->k;
    for (int i = n - 1; i >= 0; i--) {
        uint64_t t2 = t | 1ULL << mv[i];
        Eval e2;
        evaluate(g, x | t2, o, false, &e2);
        long need = e2.pot;
        if (maker_to_move) {
            need += max_weight(&e2);
        }
        if (e2.complete || need >= lim)
            break;
        t = t2;
    }
    return e->live_cells & ~t;
}

/* The cheap tests of a Maker-to-move position: reduction (Theorem 1),
 * immediate Maker wins, the table, Property 1 for every Maker move, and a
 * pairing strategy.  Returns V_BREAKER, V_MAKER or 0 (undecided); *o gets
 * the reduced Breaker mask, *e, *key and *symp its analysis when undecided;
 * *zone the relevance zone (of the unreduced position) when V_BREAKER. */
static int maker_quick(Solver *s, uint64_t x, uint64_t *op, Eval *e, uint64_t *key, int *symp,
                       int *move, bool use_tt, uint64_t *zone)
{
    const Geo *g = &s->g;
    uint64_t o = reduce(g, x, *op, NULL, NULL, NULL);
    *zone = o & ~*op; /* V_pair: the cells the reduction gave to Breaker */
    *op = o;
    evaluate(g, x, o, true, e);
    if (e->complete) {
        *zone = 0;
        return V_MAKER;
    }
    if (e->threats) {
        if (move)
            *move = __builtin_ctzll(e->threats);
        *zone = e->threats & (~e->threats + 1);
        return V_MAKER;
    }
    if (!e->live_cells)
        return V_BREAKER;
    *key = geo_key_sym(g, x, o, SALT_MB, symp);
    uint64_t tz = 0;
    int v = tt_get_zone(&s->tt, *key, &tz);
    if (v && use_tt) {
        s->hits++;
        if (v == V_BREAKER)
            *zone |= zone_from_canon(g, *symp, tz) & ~x & ~o;
        else
            *zone = zone_from_canon(g, *symp, tz) & ~x & ~o;
        return v;
    }
    if (e->pot + max_weight(e) < (1L << g->k)) {
        *zone |= potential_zone(g, x, o, e, true);
        return V_BREAKER;
    }
    PairSearch ps;
    if (find_pairing(g, x, o, &ps, PAIR_QUICK)) {
        *zone |= pair_cells(&ps);
        return V_BREAKER;
    }
    return 0;
}

/* Maker to move (Algorithm 4).  Returns true when Breaker wins; *move gets
 * Maker's winning move when Maker wins; *zone (if not NULL) the relevance
 * zone of the result (of a Breaker win, or of a Maker win: the cells that
 * must stay open to Maker, see mb_breaker_node).  With zones on, a Maker
 * move outside the zone of an already refuted move is refuted by that
 * move's reply and not searched. */
static bool mb_maker_node(Solver *s, uint64_t x, uint64_t o, int *move, uint64_t *zone)
{
    const Geo *g = &s->g;
    uint64_t zdummy;
    if (!zone)
        zone = &zdummy;
    *zone = g->full & ~x & ~o;
    if (move)
        *move = -1;
    if (!tick(s))
        return true;
    Eval e;
    uint64_t key = 0, o0 = o, n0 = s->nodes;
    int sym = 0;
    int q = maker_quick(s, x, &o, &e, &key, &sym, move, move == NULL, zone);
    if (q)
        return q == V_BREAKER;
    /* a longer pairing search before the expensive expansion */
    PairSearch ps;
    if (find_pairing(g, x, o, &ps, PAIR_DEEP)) {
        uint64_t pz = pair_cells(&ps);
        tt_put_zone(&s->tt, key, V_BREAKER, zone_to_canon(g, sym, pz));
        *zone = pz | (o & ~o0);
        return true;
    }
    uint64_t empty = g->full & ~x & ~o;
    uint64_t undom = undominated(&e, e.live_cells);
    int mv[MNK_MAX_CELLS];
    int nm = order_moves(e.w, undom, mv);
    s->depth++;
    if (s->depth > s->max_depth)
        s->max_depth = s->depth;
    bool breaker = true;
    uint64_t z = 0, refuted = 0;
    for (int i = 0; i < nm; i++) {
        if (s->zones && (refuted >> mv[i] & 1))
            continue;
        uint64_t zc = 0;
        bool r = mb_breaker_node(s, x | 1ULL << mv[i], o, NULL, &zc);
        if (s->st != CGT_OK)
            break;
        if (!r) {
            breaker = false;
            if (move)
                *move = mv[i];
            z = (zc | 1ULL << mv[i]) & empty;
            break;
        }
        z |= zc;
        refuted |= empty & ~zc;
    }
    s->depth--;
    if (s->st != CGT_OK)
        return true;
    if (!breaker) {
        /* Maker's zone: the move and the zone of the Breaker node after it
         * (the reduction's cells are Breaker's anyway) */
        tt_store(&s->tt, key, V_MAKER, zone_to_canon(g, sym, z), work_of(s->nodes - n0));
        *zone = z;
        return false;
    }
    /* A dominated move not refuted by a zone is refuted by Theorem 2, which
     * needs one of its dominators (after the reduction every dominator is
     * strict) to stay empty. */
    for (uint64_t b = e.live_cells & ~undom & ~refuted; b; b &= b - 1) {
        int u = dominator(&e, e.live_cells, __builtin_ctzll(b));
        if (u >= 0)
            z |= 1ULL << u;
    }
    z &= empty;
    tt_store(&s->tt, key, V_BREAKER, zone_to_canon(g, sym, z), work_of(s->nodes - n0));
    *zone = z | (o & ~o0);
    return true;
}

/* Breaker to move (Algorithm 5).  Returns true when Breaker wins; *reply
 * gets a winning reply (-1 when Property 1 already decides); *zone (if not
 * NULL) the relevance zone of the result.  Of a Breaker win: the reply's
 * zone plus the reply.  Of a Maker win, the dual notion: a set Z of empty
 * cells such that Maker still wins when Breaker is given every empty cell
 * outside Z (extra Breaker marks never help Maker, so any subset too).  A
 * Breaker reply b2 outside the Maker zone Z of a losing reply b loses as
 * well (P + Ob2 has fewer Breaker marks than P + Ob + O(E \ Z)), so it is
 * not searched. */
static bool mb_breaker_node(Solver *s, uint64_t x, uint64_t o, int *reply, uint64_t *zone)
{
    const Geo *g = &s->g;
    uint64_t zdummy;
    if (!zone)
        zone = &zdummy;
    uint64_t empty = g->full & ~x & ~o, n0 = s->nodes;
    *zone = empty;
    if (reply)
        *reply = -1;
    if (!tick(s))
        return true;
    Eval e;
    evaluate(g, x, o, true, &e);
    if (e.complete) {
        *zone = 0;
        return false;
    }
    if (e.pot < (1L << g->k)) {
        *zone = potential_zone(g, x, o, &e, false);
        return true; /* Property 1 */
    }
    uint64_t cand;
    int nt = pc64(e.threats);
    if (nt >= 2) {
        *zone = e.threats;
        return false;
    }
    if (nt == 1)
        cand = e.threats;
    else
        cand = undominated(&e, e.live_cells);
    int mv[MNK_MAX_CELLS];
    int nm = order_moves(e.w, cand, mv);
    int sym = 0;
    uint64_t key = geo_key_sym(g, x, o, SALT_MBB, &sym), tz = 0;
    int tv = tt_get_zone(&s->tt, key, &tz);
    if (tv && !reply) {
        s->hits++;
        *zone = zone_from_canon(g, sym, tz) & empty;
        return tv == V_BREAKER;
    }
    /* Try the replies that the cheap tests close before any deep search. */
    for (int i = 0; i < nm; i++) {
        Eval e2;
        uint64_t o2 = o | 1ULL << mv[i], k2 = 0, zq = 0;
        int sym2 = 0;
        if (maker_quick(s, x, &o2, &e2, &k2, &sym2, NULL, true, &zq) == V_BREAKER) {
            if (reply)
                *reply = mv[i];
            *zone = (zq | 1ULL << mv[i]) & empty;
            tt_put_zone(&s->tt, key, V_BREAKER, zone_to_canon(g, sym, *zone));
            return true;
        }
    }
    s->depth++;
    if (s->depth > s->max_depth)
        s->max_depth = s->depth;
    bool breaker = false;
    uint64_t z = 0, lost = 0;
    for (int i = 0; i < nm; i++) {
        if (s->zones && (lost >> mv[i] & 1))
            continue;
        uint64_t zc = 0;
        bool r = mb_maker_node(s, x, o | 1ULL << mv[i], NULL, &zc);
        if (s->st != CGT_OK)
            break;
        if (r) {
            breaker = true;
            z = (zc | 1ULL << mv[i]) & empty;
            if (reply)
                *reply = mv[i];
            break;
        }
        z |= zc;
        lost |= empty & ~zc;
    }
    s->depth--;
    if (s->st != CGT_OK)
        return true;
    if (!breaker) {
        /* Other Breaker moves: with one threat they lose at once (the threat
         * cell must stay open); otherwise a dominated move not already lost
         * by a zone loses by Theorem 2 if its dominator stays open; a move
         * on no live line is a pass, no better than any move. */
        if (nt == 1)
            z |= e.threats;
        else
            for (uint64_t b = e.live_cells & ~cand & ~lost; b; b &= b - 1) {
                int u = dominator(&e, e.live_cells, __builtin_ctzll(b));
                if (u >= 0)
                    z |= 1ULL << u;
            }
        z &= empty;
    }
    *zone = z;
    tt_store(&s->tt, key, breaker ? V_BREAKER : V_MAKER, zone_to_canon(g, sym, z),
             work_of(s->nodes - n0));
    return breaker;
}

/* ---------------------------------------------------------- strong game */

/* Strong game: can attacker A (marks a) complete a k-line before defender D
 * (marks d) does?  A Maker-Breaker Breaker win for D proves A cannot (D's
 * own lines only help D); forced moves answer single threats; two threats
 * of the side not to move win for it.  Returns true when A wins. */
static bool strong_def(Solver *s, uint64_t a, uint64_t d);

static void threats_of(const Geo *g, uint64_t a, uint64_t d, uint64_t *thr, bool *complete)
{
    uint64_t empty = g->full & ~a & ~d;
    *thr = 0;
    *complete = false;
    for (int l = 0; l < g->nlines; l++) {
        uint64_t ln = g->line[l];
        if (ln & d)
            continue;
        int cnt = pc64(ln & a);
        if (cnt == g->k)
            *complete = true;
        else if (cnt == g->k - 1)
            *thr |= ln & empty;
    }
}

static int strong_moves(const Geo *g, uint64_t a, uint64_t d, uint64_t cand, int *mv)
{
    Eval ea, ed;
    evaluate(g, a, d, false, &ea);
    evaluate(g, d, a, false, &ed);
    long w[MNK_MAX_CELLS];
    for (int c = 0; c < g->cells; c++)
        w[c] = ea.w[c] + ed.w[c];
    return order_moves(w, cand & (ea.live_cells | ed.live_cells), mv);
}

static bool strong_att(Solver *s, uint64_t a, uint64_t d, int *move)
{
    const Geo *g = &s->g;
    if (move)
        *move = -1;
    if (!tick(s))
        return false;
    uint64_t ta, td;
    bool ca, cd;
    threats_of(g, a, d, &ta, &ca);
    threats_of(g, d, a, &td, &cd);
    if (ca)
        return true;
    if (cd)
        return false;
    if (ta) {
        if (move)
            *move = __builtin_ctzll(ta);
        return true;
    }
    if (pc64(td) >= 2)
        return false;
    uint64_t key = geo_key(g, a, d, SALT_SA);
    int v = tt_get(&s->tt, key);
    if (v && !move) {
        s->hits++;
        return v == S_WINS;
    }
    if (mb_maker_node(s, a, d, NULL, NULL))
        return false;
    if (s->st != CGT_OK)
        return false;
    uint64_t empty = g->full & ~a & ~d;
    int mv[MNK_MAX_CELLS];
    int nm = strong_moves(g, a, d, td ? td : empty, mv);
    bool wins = false;
    s->depth++;
    for (int i = 0; i < nm; i++) {
        bool r = strong_def(s, a | 1ULL << mv[i], d);
        if (s->st != CGT_OK)
            break;
        if (r) {
            wins = true;
            if (move)
                *move = mv[i];
            break;
        }
    }
    s->depth--;
    if (s->st != CGT_OK)
        return false;
    tt_put(&s->tt, key, wins ? S_WINS : S_FAILS);
    return wins;
}

static bool strong_def(Solver *s, uint64_t a, uint64_t d)
{
    const Geo *g = &s->g;
    if (!tick(s))
        return false;
    uint64_t ta, td;
    bool ca, cd;
    threats_of(g, a, d, &ta, &ca);
    threats_of(g, d, a, &td, &cd);
    if (ca)
        return true;
    if (cd || td)
        return false;
    if (pc64(ta) >= 2)
        return true;
    uint64_t key = geo_key(g, a, d, SALT_SD);
    int v = tt_get(&s->tt, key);
    if (v) {
        s->hits++;
        return v == S_WINS;
    }
    if (mb_breaker_node(s, a, d, NULL, NULL))
        return false;
    if (s->st != CGT_OK)
        return false;
    uint64_t empty = g->full & ~a & ~d;
    int mv[MNK_MAX_CELLS];
    int nm = strong_moves(g, a, d, ta ? ta : empty, mv);
    bool wins = true;
    s->depth++;
    for (int i = 0; i < nm; i++) {
        bool r = strong_att(s, a, d | 1ULL << mv[i], NULL);
        if (s->st != CGT_OK)
            break;
        if (!r) {
            wins = false;
            break;
        }
    }
    s->depth--;
    if (nm == 0)
        wins = false;
    if (s->st != CGT_OK)
        return false;
    tt_put(&s->tt, key, wins ? S_WINS : S_FAILS);
    return wins;
}

/* ------------------------------------------------------------- proofs out */

/* The proof is a DAG of exact positions, each written once (docs/mnk.md):
 * R (reduction by a partial pairing), M (all Maker moves with Breaker's
 * replies), B (Breaker's move at a Breaker-to-move root), W (Maker's
 * winning move, all Breaker replies follow), D (all Breaker moves at a
 * Breaker-to-move root of a Maker win). */
typedef struct ProofOut {
    FILE *f;
    Tt seen; /* exact positions already written (keyed without symmetry) */
    uint64_t lines;
} ProofOut;

static void put_pos(const Geo *g, FILE *f, uint64_t x, uint64_t o)
{
    for (int c = 0; c < g->cells; c++)
        fputc(x >> c & 1 ? 'X' : o >> c & 1 ? 'O' : '.', f);
}

/* Positions equal up to a board symmetry are written once: the checker
 * looks children up under all symmetries. */
static bool proof_seen(const Geo *g, ProofOut *p, uint64_t x, uint64_t o, int kind)
{
    uint64_t k = geo_key(g, x, o, (uint64_t)kind * 0x9e3779b97f4a7c15ULL);
    if (tt_get(&p->seen, k))
        return true;
    tt_put(&p->seen, k, 1);
    return false;
}

/* Breaker-win proof below a Maker-to-move position. */
/* One proof line "TAG position v:reply ..." for every empty cell v (a
 * reply of -1 is written "*": that move is closed by the potential). */
static void put_reply_line(const Geo *g, ProofOut *p, const char *tag, uint64_t x, uint64_t o,
                           uint64_t empty, const int *reply)
{
    fprintf(p->f, "%s ", tag);
    put_pos(g, p->f, x, o);
    for (uint64_t b = empty; b; b &= b - 1) {
        int v = __builtin_ctzll(b);
        if (reply[v] < 0)
            fprintf(p->f, " %d:*", v);
        else
            fprintf(p->f, " %d:%d", v, reply[v]);
    }
    fputc('\n', p->f);
    p->lines++;
}

static void proof_breaker(Solver *s, ProofOut *p, uint64_t x, uint64_t o)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || proof_seen(g, p, x, o, 'M'))
        return;
    Eval e;
    evaluate(g, x, o, false, &e);
    if (!e.live_cells)
        return; /* no live line: the checker accepts it without a node */
    int pairs[MNK_MAX_CELLS / 2][2], np = 0;
    uint64_t singles = 0;
    uint64_t o2 = reduce(g, x, o, pairs, &np, &singles);
    PairSearch ps;
    ps.npairs = 0;
    bool full = false;
    if (o2 != o || (full = find_pairing(g, x, o, &ps, PAIR_DEEP))) {
        if (!full && find_pairing(g, x, o2, &ps, PAIR_DEEP)) {
            for (int i = 0; i < ps.npairs; i++) {
                pairs[np][0] = ps.pairs[i][0];
                pairs[np][1] = ps.pairs[i][1];
                np++;
            }
            o2 = g->full & ~x;
        } else if (full) {
            np = ps.npairs;
            memcpy(pairs, ps.pairs, sizeof(int) * 2 * (size_t)np);
            singles = 0;
            o2 = g->full & ~x;
        }
        fputs("R ", p->f);
        put_pos(g, p->f, x, o);
        for (int i = 0; i < np; i++)
            fprintf(p->f, " %d-%d", pairs[i][0], pairs[i][1]);
        for (uint64_t b = singles; b; b &= b - 1)
            fprintf(p->f, " %d", __builtin_ctzll(b));
        if (o2 == (g->full & ~x)) {
            /* a full pairing: every other empty cell is given to Breaker too */
            uint64_t inpairs = 0;
            for (int i = 0; i < np; i++)
                inpairs |= 1ULL << pairs[i][0] | 1ULL << pairs[i][1];
            for (uint64_t b = (g->full & ~x & ~o) & ~inpairs & ~singles; b; b &= b - 1)
                fprintf(p->f, " %d", __builtin_ctzll(b));
        }
        fputc('\n', p->f);
        p->lines++;
        if (o2 != (g->full & ~x))
            proof_breaker(s, p, x, o2);
        return;
    }
    /* M node: every empty cell is a Maker move */
    uint64_t empty = g->full & ~x & ~o;
    int reply[MNK_MAX_CELLS] = {0};
    for (uint64_t b = empty; b; b &= b - 1) {
        int v = __builtin_ctzll(b);
        uint64_t x2 = x | 1ULL << v;
        Eval e2;
        evaluate(g, x2, o, false, &e2);
        reply[v] = -1;
        if (e2.pot < (1L << g->k))
            continue;
        if (!mb_breaker_node(s, x2, o, &reply[v], NULL) || reply[v] < 0) {
            if (s->st == CGT_OK)
                s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no Breaker reply "
                                      "found for a proven position");
            return;
        }
    }
    put_reply_line(g, p, "M", x, o, empty, reply);
    for (uint64_t b = empty; b; b &= b - 1) {
        int v = __builtin_ctzll(b);
        if (reply[v] >= 0)
            proof_breaker(s, p, x | 1ULL << v, o | 1ULL << reply[v]);
    }
}

/* ------------------------------------------------- Breaker-win proofs, v2 */

/* Version 2 of the proof format (docs/mnk.md "Proof files"), written for
 * Breaker-win claims.  Nodes are numbered in file order and written after
 * their children, and a child reference is met by any node at least as
 * good for Maker (more X, fewer O, up to symmetry).  That lets the writer
 * follow the search's relevance zones (Hsu et al., TCS 815 (2020)) instead
 * of answering every Maker move: a node is written for the position A =
 * P + X(E \ Z), P with Maker given every empty cell outside its zone Z, and
 * one child A' = P + Xv + Ob + X(E' \ Z') covers every Maker move outside
 * Z' (those positions have fewer X than A').  The zone of a node is the
 * writer's own, built from the nodes it wrote (not read from the table),
 * so each written node follows from its children by one local rule. */
typedef struct P2Map {
    uint64_t *key, *id, *zone; /* zone in the canonical image's cells */
    size_t cap, used;
} P2Map;

static void p2map_init(P2Map *m, size_t cap)
{
    m->cap = cap;
    m->used = 0;
    m->key = xcalloc(cap, sizeof *m->key);
    m->id = xcalloc(cap, sizeof *m->id);
    m->zone = xcalloc(cap, sizeof *m->zone);
}

static void p2map_free(P2Map *m)
{
    free(m->key);
    free(m->id);
    free(m->zone);
}

static bool p2map_get(const P2Map *m, uint64_t key, uint64_t *id, uint64_t *zone)
{
    for (size_t i = key & (m->cap - 1); m->key[i]; i = (i + 1) & (m->cap - 1))
        if (m->key[i] == key) {
            *id = m->id[i];
            *zone = m->zone[i];
            return true;
        }
    return false;
}

/* At most 2^28 slots (6 GB): past 85% of that, positions are no longer
 * remembered and a repeated one is written again (correct, only larger). */
#define P2MAP_MAX_CAP ((size_t)1 << 28)

static void p2map_put(P2Map *m, uint64_t key, uint64_t id, uint64_t zone)
{
    if (m->cap >= P2MAP_MAX_CAP && 20 * (m->used + 1) > 17 * m->cap)
        return;
    if (2 * (m->used + 1) > m->cap && m->cap < P2MAP_MAX_CAP) {
        P2Map old = *m;
        p2map_init(m, old.cap * 2);
        for (size_t i = 0; i < old.cap; i++)
            if (old.key[i])
                p2map_put(m, old.key[i], old.id[i], old.zone[i]);
        p2map_free(&old);
    }
    size_t i = key & (m->cap - 1);
    while (m->key[i])
        i = (i + 1) & (m->cap - 1);
    m->key[i] = key;
    m->id[i] = id;
    m->zone[i] = zone;
    m->used++;
}

#define SALT_PROOF 0x94d049bb133111ebULL

typedef struct P2 {
    FILE *f;
    P2Map map;
    uint64_t next_id; /* number of node lines written */
} P2;

typedef struct P2Res {
    uint64_t id;   /* 0: the position has no live line */
    uint64_t zone; /* empty cells Maker may not be given */
} P2Res;

static void p2_cells(FILE *f, uint64_t set)
{
    for (bool first = true; set; set &= set - 1, first = false)
        fprintf(f, first ? "%d" : ",%d", __builtin_ctzll(set));
}

static P2Res p2_fail(Solver *s, const char *what)
{
    if (s->st == CGT_OK)
        s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: %s", what);
    return (P2Res){0, 0};
}

static P2Res p2_done(Solver *s, P2 *p, uint64_t key, int sym, uint64_t zone)
{
    const Geo *g = &s->g;
    p->next_id++;
    p2map_put(&p->map, key, p->next_id, zone_to_canon(g, sym, zone));
    cgt_progress("mnk", "proof: %llu lines, %llu search nodes", (unsigned long long)p->next_id,
                 (unsigned long long)s->nodes);
    return (P2Res){p->next_id, zone};
}

/* Writes the proof that Breaker wins (x, o), Maker to move (known to hold:
 * the search proved it), and returns its node and zone. */
static P2Res p2_breaker(Solver *s, P2 *p, uint64_t x, uint64_t o)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK)
        return (P2Res){0, 0};
    int sym = 0;
    uint64_t key = geo_key_sym(g, x, o, SALT_PROOF, &sym), id, cz;
    if (p2map_get(&p->map, key, &id, &cz))
        return (P2Res){id, zone_from_canon(g, sym, cz)};
    uint64_t empty = g->full & ~x & ~o;
    Eval e;
    evaluate(g, x, o, true, &e);
    if (e.complete)
        return p2_fail(s, "Maker has a line in a position proven for Breaker");
    if (!e.live_cells)
        return (P2Res){0, 0};
    /* Theorem 1 reduction: R node, zone = the child's plus V_pair */
    int pairs[MNK_MAX_CELLS / 2][2], np = 0;
    uint64_t singles = 0;
    uint64_t o2 = reduce(g, x, o, pairs, &np, &singles);
    if (o2 != o) {
        P2Res c = p2_breaker(s, p, x, o2);
        if (s->st != CGT_OK)
            return c;
        uint64_t zone = (c.zone | (o2 & ~o)) & empty;
        fputs("R ", p->f);
        put_pos(g, p->f, x | (empty & ~zone), o);
        for (int i = 0; i < np; i++)
            fprintf(p->f, " %d-%d", pairs[i][0], pairs[i][1]);
        for (uint64_t b = singles; b; b &= b - 1)
            fprintf(p->f, " %d", __builtin_ctzll(b));
        fprintf(p->f, " >%llu\n", (unsigned long long)c.id);
        return p2_done(s, p, key, sym, zone);
    }
    /* Property 1 for every Maker move: all moves "*" */
    if (e.pot + max_weight(&e) < (1L << g->k)) {
        uint64_t zone = potential_zone(g, x, o, &e, true);
        if (!zone)
            zone = e.live_cells;
        fputs("M ", p->f);
        put_pos(g, p->f, x | (empty & ~zone), o);
        fputs(" *:", p->f);
        p2_cells(p->f, zone);
        fputc('\n', p->f);
        return p2_done(s, p, key, sym, zone);
    }
    /* a pairing strategy: R node over the paired cells, every live line
     * holds a pair, so the other empty cells may all be Maker's */
    PairSearch ps;
    if (find_pairing(g, x, o, &ps, PAIR_QUICK) || find_pairing(g, x, o, &ps, PAIR_DEEP)) {
        uint64_t zone = pair_cells(&ps);
        fputs("R ", p->f);
        put_pos(g, p->f, x | (empty & ~zone), o);
        for (int i = 0; i < ps.npairs; i++)
            fprintf(p->f, " %d-%d", ps.pairs[i][0], ps.pairs[i][1]);
        fputs(" >0\n", p->f);
        return p2_done(s, p, key, sym, zone);
    }
    /* M node: the search's move order; a move outside the zone of an
     * answered one is covered by that answer's node */
    uint64_t undom = undominated(&e, e.live_cells);
    int mv[MNK_MAX_CELLS];
    int nm = order_moves(e.w, undom, mv);
    int ng = 0, gfirst[MNK_MAX_CELLS], greply[MNK_MAX_CELLS];
    uint64_t gid[MNK_MAX_CELLS], gzone[MNK_MAX_CELLS]; /* greply -1: Property 1 */
    uint64_t covered = 0, zone = 0;
    for (int i = 0; i < nm; i++) {
        int v = mv[i];
        if (covered >> v & 1)
            continue;
        uint64_t x2 = x | 1ULL << v;
        Eval e2;
        evaluate(g, x2, o, false, &e2);
        if (e2.complete)
            return p2_fail(s, "a Maker move completes a line in a position proven for Breaker");
        gfirst[ng] = v;
        if (e2.pot < (1L << g->k)) {
            greply[ng] = -1;
            gid[ng] = 0;
            gzone[ng] = potential_zone(g, x2, o, &e2, false);
        } else {
            int b = -1;
            if (!mb_breaker_node(s, x2, o, &b, NULL) || b < 0)
                return p2_fail(s, "no Breaker reply found for a proven position");
            P2Res c = p2_breaker(s, p, x2, o | 1ULL << b);
            if (s->st != CGT_OK)
                return c;
            greply[ng] = b;
            gid[ng] = c.id;
            gzone[ng] = c.zone | 1ULL << b;
        }
        gzone[ng] &= empty & ~(1ULL << v);
        covered |= empty & ~gzone[ng];
        zone |= gzone[ng];
        ng++;
    }
    /* Theorem 2: a move of the node (a cell of the zone) left uncovered is
     * dominated, and its dominator must stay open */
    int dom[MNK_MAX_CELLS];
    zone &= empty;
    for (uint64_t todo = zone & ~covered; todo;) {
        int u = __builtin_ctzll(todo);
        todo &= todo - 1;
        dom[u] = dominator(&e, e.live_cells, u);
        if (dom[u] < 0)
            return p2_fail(s, "a Maker move is neither answered nor dominated");
        uint64_t w = 1ULL << dom[u];
        if (!(zone & w)) {
            zone |= w;
            if (!(covered & w))
                todo |= w;
        }
    }
    fputs("M ", p->f);
    put_pos(g, p->f, x | (empty & ~zone), o);
    uint64_t done = 0; /* the node's moves (cells of the zone) written so far */
    for (int j = 0; j < ng; j++) {
        uint64_t mine = zone & ~done & (~gzone[j] | 1ULL << gfirst[j]);
        if (!mine)
            continue;
        if (greply[j] < 0)
            fputs(" *:", p->f);
        else
            fprintf(p->f, " %d@%llu:", greply[j], (unsigned long long)gid[j]);
        p2_cells(p->f, mine);
        done |= mine;
    }
    /* dominated moves, each after its dominator (chains end: every
     * domination is strict after the reduction) */
    while (zone & ~done) {
        uint64_t before = done;
        for (uint64_t b = zone & ~done; b; b &= b - 1) {
            int u = __builtin_ctzll(b);
            if (!(covered >> u & 1) && (before >> dom[u] & 1)) {
                fprintf(p->f, " <%d:%d", dom[u], u);
                done |= 1ULL << u;
            }
        }
        if (done == before)
            return p2_fail(s, "a cycle of dominated moves");
    }
    fputc('\n', p->f);
    return p2_done(s, p, key, sym, zone);
}

/* The whole version-2 proof of a Breaker win (Maker or Breaker to move). */
static void p2_write(Solver *s, FILE *f, uint64_t x, uint64_t o, bool maker_to_move,
                     uint64_t *nlines)
{
    const Geo *g = &s->g;
    P2 p = {.f = f};
    p2map_init(&p.map, 1u << 16);
    fprintf(f, "mnk-proof 2\ngame %d %d %d\nclaim breaker\nroot %c ", g->m, g->n, g->k,
            maker_to_move ? 'X' : 'O');
    put_pos(g, f, x, o);
    fputc('\n', f);
    uint64_t top = 0;
    if (maker_to_move) {
        top = p2_breaker(s, &p, x, o).id;
    } else {
        int reply = -1;
        if (mb_breaker_node(s, x, o, &reply, NULL)) {
            P2Res c = {0, 0};
            if (reply >= 0)
                c = p2_breaker(s, &p, x, o | 1ULL << reply);
            fputs("B ", f);
            put_pos(g, f, x, o);
            if (reply < 0)
                fputs(" *\n", f);
            else
                fprintf(f, " %d@%llu\n", reply, (unsigned long long)c.id);
            top = ++p.next_id;
        } else {
            p2_fail(s, "no Breaker move found for a proven position");
        }
    }
    fprintf(f, "top %llu\n", (unsigned long long)top);
    *nlines = p.next_id;
    p2map_free(&p.map);
}

/* Maker-win proof below a Maker-to-move position. */
static void proof_maker(Solver *s, ProofOut *p, uint64_t x, uint64_t o)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || proof_seen(g, p, x, o, 'W'))
        return;
    int move = -1;
    if (mb_maker_node(s, x, o, &move, NULL) || move < 0) {
        if (s->st == CGT_OK)
            s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no Maker move found "
                                  "for a proven position");
        return;
    }
    fputs("W ", p->f);
    put_pos(g, p->f, x, o);
    fprintf(p->f, " %d\n", move);
    p->lines++;
    uint64_t x2 = x | 1ULL << move;
    Eval e;
    evaluate(g, x2, o, false, &e);
    if (e.complete)
        return;
    for (uint64_t b = g->full & ~x2 & ~o; b; b &= b - 1)
        proof_maker(s, p, x2, o | 1ULL << __builtin_ctzll(b));
}

static bool line_done(const Geo *g, uint64_t a)
{
    for (int l = 0; l < g->nlines; l++)
        if ((g->line[l] & a) == g->line[l])
            return true;
    return false;
}

/* Strong game, attacker a (written X) to move and winning: A nodes give the
 * attacker's move; every defender reply must lead to another A node. */
static void proof_strong_win(Solver *s, ProofOut *p, uint64_t a, uint64_t d)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || proof_seen(g, p, a, d, 'A'))
        return;
    int move = -1;
    if (!strong_att(s, a, d, &move) || move < 0) {
        if (s->st == CGT_OK)
            s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no winning move found "
                                  "for a proven strong position");
        return;
    }
    fputs("A ", p->f);
    put_pos(g, p->f, a, d);
    fprintf(p->f, " %d\n", move);
    p->lines++;
    uint64_t a2 = a | 1ULL << move;
    if (line_done(g, a2))
        return;
    for (uint64_t b = g->full & ~a2 & ~d; b; b &= b - 1)
        proof_strong_win(s, p, a2, d | 1ULL << __builtin_ctzll(b));
}

/* Strong game, attacker a (written X) to move and unable to force a win: a
 * Maker-Breaker Breaker-win proof (R/M nodes) when one exists, else an H
 * node answering every attacker move with a defender reply. */
static void proof_strong_hold(Solver *s, ProofOut *p, uint64_t a, uint64_t d)
{
    const Geo *g = &s->g;
    if (s->st != CGT_OK || line_done(g, d) || !(g->full & ~a & ~d))
        return;
    if (mb_maker_node(s, a, d, NULL, NULL)) {
        if (s->st == CGT_OK)
            proof_breaker(s, p, a, d);
        return;
    }
    if (s->st != CGT_OK || proof_seen(g, p, a, d, 'H'))
        return;
    uint64_t empty = g->full & ~a & ~d;
    int reply[MNK_MAX_CELLS] = {0};
    for (uint64_t b = empty; b; b &= b - 1) {
        int v = __builtin_ctzll(b);
        uint64_t a2 = a | 1ULL << v;
        reply[v] = -1;
        uint64_t left = empty & ~(1ULL << v);
        if (!left)
            continue; /* board full, no attacker line: a draw */
        for (uint64_t c = left; c && reply[v] < 0; c &= c - 1) {
            int r = __builtin_ctzll(c);
            if (line_done(g, d | 1ULL << r))
                reply[v] = r;
        }
        /* replies in the search's order (both players' weights), so the
         * first one tried is usually the one the search proved */
        int mv[MNK_MAX_CELLS];
        int nm = strong_moves(g, a2, d, left, mv);
        for (int i = 0; i < nm && reply[v] < 0; i++) {
            bool w = strong_att(s, a2, d | 1ULL << mv[i], NULL);
            if (s->st != CGT_OK)
                return;
            if (!w)
                reply[v] = mv[i];
        }
        for (uint64_t c = left; c && reply[v] < 0; c &= c - 1) {
            int r = __builtin_ctzll(c);
            bool w = strong_att(s, a2, d | 1ULL << r, NULL);
            if (s->st != CGT_OK)
                return;
            if (!w)
                reply[v] = r;
        }
        if (reply[v] < 0) {
            s->st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no defending reply "
                                  "found for a proven strong position");
            return;
        }
    }
    put_reply_line(g, p, "H", a, d, empty, reply);
    for (uint64_t b = empty; b; b &= b - 1) {
        int v = __builtin_ctzll(b);
        if (reply[v] >= 0)
            proof_strong_hold(s, p, a | 1ULL << v, d | 1ULL << reply[v]);
    }
}

/* kind: 'M' Maker-Breaker (claim from breaker_wins), 'A' strong, X to move
 * and winning, 'H' strong, X to move and not winning. */
static CgtStatus write_proof(Solver *s, const char *path, uint64_t x, uint64_t o,
                             bool maker_to_move, bool breaker_wins, int kind, uint64_t *nlines)
{
    const Geo *g = &s->g;
    /* atomic (temporary file, fsync, rename), not sealed: the proof is read
     * back only by its independent checker, tests/oracle/mnk_check */
    AtomicFile af;
    if (af_open(&af, path, "proof file", false, s->err) != CGT_OK)
        return CGT_ERR_IO;
    ProofOut p = {0};
    p.f = af.f;
    if (kind == 'M' && breaker_wins) {
        p2_write(s, p.f, x, o, maker_to_move, &p.lines);
    } else {
        tt_init(&p.seen); /* version 1 only; tt_free below is a no-op otherwise */
        const char *claim = kind == 'A' ? "strong-win" : kind == 'H' ? "strong-hold" : "maker";
        fprintf(p.f, "mnk-proof 1\ngame %d %d %d\nclaim %s\nroot %c ", g->m, g->n, g->k, claim,
                maker_to_move ? 'X' : 'O');
        put_pos(g, p.f, x, o);
        fputc('\n', p.f);
        if (kind == 'A') {
            proof_strong_win(s, &p, x, o);
        } else if (kind == 'H') {
            proof_strong_hold(s, &p, x, o);
        } else if (maker_to_move) {
            proof_maker(s, &p, x, o);
        } else {
            fputs("D ", p.f);
            put_pos(g, p.f, x, o);
            fputc('\n', p.f);
            p.lines++;
            for (uint64_t b = g->full & ~x & ~o; b; b &= b - 1)
                proof_maker(s, &p, x, o | 1ULL << __builtin_ctzll(b));
        }
    }
    fputs("end\n", p.f);
    tt_free(&p.seen);
    if (s->st != CGT_OK) {
        af_abort(&af);
        return s->st;
    }
    if (af_commit(&af, s->err) != CGT_OK)
        return CGT_ERR_IO;
    *nlines = p.lines;
    return CGT_OK;
}

/* ------------------------------------------------------------ checkpoints */

/* Checkpoint file (text, version 3): "cgt-mnk-tt 3", "game m n k",
 * "entries N", then N lines "KEY VALUE ZONE WORK" (hex key, value 1 or 2,
 * hex relevance zone in canonical cells, work byte), then "end", sealed by
 * util/atomicfile's CRC-64 line and written atomically.  Versions 1 (no
 * ZONE, every cell in the zone) and 2 (no seal) are still read, with a
 * warning: they may hold days of search.  A save never replaces a file of
 * more entries than the table now holds (docs/errors.md). */
#define CKPT_VERSION 3

static CgtStatus save_checkpoint(Solver *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->tt.cap; i++)
        n += s->tt.key[i] != 0;
    if (n < s->ckpt_on_disk) {
        s->ckpt_skipped = true;
        return CGT_OK;
    }
    AtomicFile af;
    if (af_open(&af, s->ckpt, "checkpoint", true, s->err) != CGT_OK)
        return CGT_ERR_IO;
    af_printf(&af, "cgt-mnk-tt %d\ngame %d %d %d\nentries %zu\n", CKPT_VERSION, s->g.m, s->g.n,
              s->g.k, n);
    for (size_t i = 0; i < s->tt.cap && !af.failed; i++)
        if (s->tt.key[i])
            af_printf(&af, "%016llx %d %llx %d\n", (unsigned long long)s->tt.key[i],
                      s->tt.val[i], (unsigned long long)(s->tt.zone[i] & s->g.full),
                      s->tt.work[i]);
    af_write(&af, "end\n", 4);
    if (af_commit(&af, s->err) != CGT_OK)
        return CGT_ERR_IO;
    s->ckpt_on_disk = n;
    s->ckpt_skipped = false;
    cgt_progress_force("mnk", "checkpoint: %zu proven positions saved to %s", n,
                       s->ckpt);
    return CGT_OK;
}

/* One entry line: "KEY VALUE" (v1), "KEY VALUE ZONE [WORK]" (v2, v3; v3
 * always has WORK), each value in its domain. */
static bool ckpt_entry(const Solver *s, const char *line, int ver, unsigned long long *key,
                       int *val, unsigned long long *zone, int *work)
{
    char tail = 0;
    *zone = ~0ULL;
    *work = 8;
    int nf = sscanf(line, "%llx %d %llx %d%c", key, val, zone, work, &tail);
    bool shape = ver == 1   ? nf >= 2
                 : ver == 2 ? nf >= 3
                            : nf == 5 && tail == '\n';
    if (ver != 3 && nf == 5 && tail != '\n')
        shape = false;
    return shape && *key != 0 && *val >= 1 && *val <= 2 && *work >= 0 && *work <= 255 &&
           (ver == 1 || (*zone & ~s->g.full) == 0);
}

static CgtStatus load_checkpoint(Solver *s)
{
    SealedFile sf;
    if (sf_open(&sf, s->ckpt, "checkpoint", true, s->err) != CGT_OK)
        return CGT_ERR_IO;
    if (sf.absent)
        return CGT_OK; /* nothing to resume */
    FILE *f = sf.f;
    int ver, m, n, k;
    size_t cnt;
    CgtStatus st = CGT_OK;
    if (fscanf(f, "cgt-mnk-tt %d game %d %d %d entries %zu", &ver, &m, &n, &k, &cnt) != 5 ||
        ver < 1 || ver > CKPT_VERSION) {
        st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is not a version 1 to %d mnk "
                           "checkpoint", s->ckpt, CKPT_VERSION);
    } else if (sf.unsealed != (ver < 3)) {
        st = cgt_error_set(s->err, CGT_ERR_IO, sf.unsealed
                           ? "checkpoint '%s' is damaged: its checksum line is missing"
                           : "checkpoint '%s' is damaged: an old format with a checksum line",
                           s->ckpt);
    } else if (m != s->g.m || n != s->g.n || k != s->g.k) {
        st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is for the %d,%d,%d-game, not "
                           "%d,%d,%d", s->ckpt, m, n, k, s->g.m, s->g.n, s->g.k);
    } else if (cnt > sf.len / 4) {
        st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged: %zu entries cannot "
                           "fit in its %llu bytes", s->ckpt, cnt, (unsigned long long)sf.len);
    } else if (s->tt.max_cap && 2 * (cnt + 1) > s->tt.max_cap) {
        /* the table could not hold the file: its next save would drop work */
        size_t need = 1u << 10;
        while (need < 2 * (cnt + 1))
            need *= 2;
        st = cgt_error_set(s->err, CGT_ERR_LIMIT, "checkpoint '%s' holds %zu proven positions, "
                           "more than table_mb allows (%zu)", s->ckpt, cnt,
                           s->tt.max_cap / 2 - 1);
        cgt_error_hint(s->err, "raise table_mb to at least %.0f; the file is left untouched",
                       (double)need * 18.0 / 1048576.0 + 1);
        sf_close(&sf);
        return st;
    } else {
        char line[128];
        if (!fgets(line, sizeof line, f) || strcmp(line, "\n") != 0) /* end of "entries" */
            st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged in its header",
                               s->ckpt);
        for (size_t i = 0; i < cnt && st == CGT_OK; i++) {
            unsigned long long key, zone;
            int val, work;
            if (!fgets(line, sizeof line, f) ||
                !ckpt_entry(s, line, ver, &key, &val, &zone, &work)) {
                st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged at entry "
                                   "%zu", s->ckpt, i + 1);
                break;
            }
            tt_store(&s->tt, key, val, zone, work);
        }
        if (st == CGT_OK && (!fgets(line, sizeof line, f) || strcmp(line, "end\n") != 0 ||
                             sf_remaining(&sf) != 0))
            st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged after its "
                               "last entry", s->ckpt);
        if (st == CGT_OK) {
            s->ckpt_on_disk = cnt;
            if (ver < 3)
                cgt_warning("checkpoint '%s' is in the old format %d, without a checksum: "
                            "loaded after checking every entry; it will be saved in format %d",
                            s->ckpt, ver, CKPT_VERSION);
            cgt_progress_force("mnk", "resuming from %s: %zu proven positions", s->ckpt, cnt);
        }
    }
    sf_close(&sf);
    if (st != CGT_OK)
        cgt_error_hint(s->err, "the file is left untouched; move it away to start afresh");
    return st;
}

/* ------------------------------------------------------------------ public */

void mnk_options_init(MnkOptions *o)
{
    memset(o, 0, sizeof *o);
    o->variant = MNK_MAKER_BREAKER;
    o->threads = 1;
    o->checkpoint_every = MNK_CHECKPOINT_EVERY;
}

static CgtStatus parse_board(int m, int n, int k, const char *const *rows, int nrows,
                             uint64_t *x, uint64_t *o, CgtError *err)
{
    if (m < 1 || n < 1 || k < 1)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk needs m, n, k >= 1 (got %d, %d, %d)",
                             m, n, k);
    if (k > MNK_MAX_K) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "mnk k = %d is larger than the limit of %d", k,
                      MNK_MAX_K);
        cgt_error_hint(err, "potentials 2^k are kept in 64-bit integers");
        return CGT_ERR_DOMAIN;
    }
    if ((long)m * n > MNK_MAX_CELLS) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board %dx%d has %ld cells, more than the "
                      "limit of %d", m, n, (long)m * n, MNK_MAX_CELLS);
        cgt_error_hint(err, "boards up to 8x8 are supported");
        return CGT_ERR_DOMAIN;
    }
    *x = *o = 0;
    if (!rows)
        return CGT_OK;
    if (nrows != n)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board has %d rows, expected n = %d",
                             nrows, n);
    for (int i = 0; i < n; i++) {
        if ((int)strlen(rows[i]) != m)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board row %d has %d cells, "
                                 "expected m = %d", i + 1, (int)strlen(rows[i]), m);
        int r = n - 1 - i;
        for (int c = 0; c < m; c++) {
            char ch = rows[i][c];
            uint64_t bit = 1ULL << (r * m + c);
            if (ch == 'X' || ch == 'x')
                *x |= bit;
            else if (ch == 'O' || ch == 'o')
                *o |= bit;
            else if (ch != '.') {
                cgt_error_set(err, CGT_ERR_DOMAIN, "mnk board row %d has '%c'", i + 1, ch);
                cgt_error_hint(err, "use '.' for empty, 'X' for Maker, 'O' for Breaker");
                return CGT_ERR_DOMAIN;
            }
        }
    }
    return CGT_OK;
}

CgtStatus mnk_potential(int m, int n, int k, const char *const *rows, int nrows, long *out,
                        CgtError *err)
{
    uint64_t x, o;
    CgtStatus st = parse_board(m, n, k, rows, nrows, &x, &o, err);
    if (st != CGT_OK)
        return st;
    Geo g;
    geo_init(&g, m, n, k);
    Eval e;
    evaluate(&g, x, o, false, &e);
    *out = e.pot;
    geo_free(&g);
    return CGT_OK;
}

static void solver_finish(Solver *s, MnkReport *rep)
{
    rep->nodes = s->nodes;
    rep->tt_hits = s->hits;
    rep->tt_entries = s->tt.used;
    rep->seconds = cgt_now() - s->t0;
}

/* ----------------------------------------------------------- root workers */

/* The root Maker node is split between workers (plain root splitting; the
 * search of seeds/001 is sequential): worker i takes the candidate moves
 * i, i + T, i + 2T, ...  Each worker has its own Solver and table, so
 * nothing is shared but the stop flag and the open-move counter; a Maker
 * win found by one worker stops the others.  The result does not depend on
 * the thread count; node counts and the reported winning move may.  With
 * one worker and zones on, root moves outside the relevance zone of a
 * refuted root move are refuted by its reply (as in mb_maker_node). */
typedef struct Worker {
    Solver *s;
    uint64_t x, o;
    const int *mv;
    int nm, start, step, found;
    int *reply;              /* reply[cell]: Breaker's proven answer to a root move */
    atomic_int *stop, *done;
} Worker;

static void *worker_run(void *arg)
{
    Worker *w = arg;
    const Geo *g = &w->s->g;
    uint64_t empty = g->full & ~w->x & ~w->o;
    uint64_t zone[MNK_MAX_CELLS];
    int zreply[MNK_MAX_CELLS], nz = 0;
    for (int i = w->start; i < w->nm; i += w->step) {
        if (atomic_load(w->stop))
            break;
        int v = w->mv[i];
        int by = -1;
        for (int j = 0; j < nz && by < 0 && w->step == 1 && w->s->zones; j++)
            if (!(zone[j] >> v & 1))
                by = j;
        if (by >= 0) {
            w->reply[v] = zreply[by];
            atomic_fetch_sub(w->s->root_left, 1);
            continue;
        }
        uint64_t n0 = w->s->nodes;
        double t0 = cgt_now();
        bool r = mb_breaker_node(w->s, w->x | 1ULL << v, w->o, &w->reply[v], &zone[nz]);
        if (w->s->st != CGT_OK) {
            if (!w->s->cancelled)
                atomic_store(w->stop, 1);
            break;
        }
        atomic_fetch_sub(w->s->root_left, 1);
        if (!r) {
            w->found = v;
            atomic_store(w->stop, 1);
            break;
        }
        zreply[nz++] = w->reply[v];
        if (w->s->is_main) {
            char a[8], b[8];
            cgt_progress_force("mnk", "root move %s refuted by %s: %llu nodes, %.1f s, zone "
                               "%d of %d empty cells", mnk_cell_name(g->m, v, a),
                               w->reply[v] < 0 ? "potential"
                                               : mnk_cell_name(g->m, w->reply[v], b),
                               (unsigned long long)(w->s->nodes - n0), cgt_now() - t0,
                               pc64(zone[nz - 1]), pc64(empty));
        }
    }
    atomic_store(w->done, 1);
    return NULL;
}

static void tt_merge(Tt *into, const Tt *from)
{
    for (size_t i = 0; i < from->cap; i++)
        if (from->key[i])
            tt_store(into, from->key[i], from->val[i], from->zone[i], from->work[i]);
}

/* Maker-to-move root: true when Breaker wins; *move gets a winning move. */
static bool root_search(Solver *s, uint64_t x, uint64_t o, int threads, int *move,
                        int *reply)
{
    Eval e;
    uint64_t key = 0, zq = 0;
    int sym = 0;
    *move = -1;
    if (!tick(s))
        return true;
    int q = maker_quick(s, x, &o, &e, &key, &sym, move, false, &zq);
    if (q)
        return q == V_BREAKER;
    int mv[MNK_MAX_CELLS];
    int nm = order_moves(e.w, undominated(&e, e.live_cells), mv);
    atomic_int stop, left;
    atomic_int done[MNK_MAX_THREADS];
    atomic_init(&stop, 0);
    atomic_init(&left, nm);
    Worker w[MNK_MAX_THREADS];
    Solver ws[MNK_MAX_THREADS];
    CgtError werr[MNK_MAX_THREADS];
    pthread_t tid[MNK_MAX_THREADS];
    bool started[MNK_MAX_THREADS] = {false};
    s->root_left = &left;
    s->stop = &stop;
    s->depth = 1;
    for (int t = 0; t < threads; t++) {
        atomic_init(&done[t], 0);
        w[t] = (Worker){.s = t ? &ws[t] : s, .x = x, .o = o, .mv = mv, .nm = nm, .start = t,
                        .step = threads, .found = -1, .reply = reply, .stop = &stop,
                        .done = &done[t]};
        if (t == 0)
            continue;
        memset(&ws[t], 0, sizeof ws[t]);
        geo_init(&ws[t].g, s->g.m, s->g.n, s->g.k);
        tt_init(&ws[t].tt);
        ws[t].tt.max_cap = s->tt.max_cap;
        tt_merge(&ws[t].tt, &s->tt);
        cgt_error_clear(&werr[t]);
        ws[t].err = &werr[t];
        ws[t].node_limit = s->node_limit;
        ws[t].t0 = s->t0;
        ws[t].stop = &stop;
        ws[t].root_left = &left;
        ws[t].zones = s->zones;
        started[t] = pthread_create(&tid[t], NULL, worker_run, &w[t]) == 0;
    }
    /* Worker 0 runs here with the main solver (it polls, reports progress
     * and saves checkpoints), then polls until the others are done. */
    worker_run(&w[0]);
    for (int t = 1; t < threads; t++) {
        if (!started[t]) {
            worker_run(&w[t]); /* no thread could be made: do its share here */
            continue;
        }
        while (!atomic_load(&done[t])) {
            CgtStatus st = CGT_OK;
            for (int j = 0; j < 1024 && st == CGT_OK; j++)
                st = cgt_poll();
            if (st != CGT_OK && s->st == CGT_OK) {
                s->st = cgt_poll_error(s->err, st, "mnk search");
                atomic_store(&stop, 1);
            }
            nanosleep(&(struct timespec){0, 2000000}, NULL);
        }
        pthread_join(tid[t], NULL);
    }
    s->stop = NULL;
    s->root_left = NULL;
    s->depth = 0;
    bool breaker = true;
    for (int t = 0; t < threads; t++)
        if (w[t].found >= 0 && breaker) {
            breaker = false;
            *move = w[t].found;
        }
    if (!breaker) {
        /* a Maker win stands even if another worker was cut short */
        s->st = CGT_OK;
        s->cancelled = false;
    } else if (s->st == CGT_OK || s->cancelled) {
        for (int t = 1; t < threads; t++)
            if (ws[t].st != CGT_OK && !ws[t].cancelled) {
                *s->err = werr[t];
                s->st = ws[t].st;
                break;
            }
    }
    for (int t = 1; t < threads; t++) {
        s->nodes += ws[t].nodes;
        s->hits += ws[t].hits;
        if (ws[t].max_depth > s->max_depth)
            s->max_depth = ws[t].max_depth;
        tt_merge(&s->tt, &ws[t].tt);
        tt_free(&ws[t].tt);
        geo_free(&ws[t].g);
    }
    s->cancelled = false;
    if (s->st == CGT_OK)
        tt_put(&s->tt, key, breaker ? V_BREAKER : V_MAKER);
    return breaker;
}

/* Root of the Maker-Breaker game: result, method, pairing and first-move table. */
static void solve_mb_root(Solver *s, uint64_t x, uint64_t o, bool maker_to_move, int threads,
                          MnkReport *rep)
{
    const Geo *g = &s->g;
    Eval e;
    evaluate(g, x, o, false, &e);
    if (e.complete) {
        rep->result = MNK_RESULT_MAKER;
        rep->method = MNK_BY_TERMINAL;
        return;
    }
    if (!maker_to_move) {
        int reply = -1;
        bool b = mb_breaker_node(s, x, o, &reply, NULL);
        rep->result = b ? MNK_RESULT_BREAKER : MNK_RESULT_MAKER;
        rep->method = e.pot < (1L << g->k) ? MNK_BY_POTENTIAL
                      : pc64(e.threats) >= 2 ? MNK_BY_TERMINAL : MNK_BY_SEARCH;
        rep->win_move = b ? reply : -1;
        return;
    }
    if (!e.live_cells) {
        rep->result = MNK_RESULT_BREAKER;
        rep->method = MNK_BY_TERMINAL;
        return;
    }
    if (e.threats) {
        rep->result = MNK_RESULT_MAKER;
        rep->method = MNK_BY_TERMINAL;
        rep->win_move = __builtin_ctzll(e.threats);
        return;
    }
    PairSearch ps;
    int rootreply[MNK_MAX_CELLS];
    for (int c = 0; c < MNK_MAX_CELLS; c++)
        rootreply[c] = -1;
    rep->max_after = -1;
    long maxw = max_weight(&e);
    rep->max_after = e.pot + maxw;
    int move = -1;
    bool bw;
    if (e.pot + maxw < (1L << g->k)) {
        bw = true;
        rep->method = MNK_BY_POTENTIAL;
    } else if (find_pairing(g, x, o, &ps, PAIR_DEEP)) {
        bw = true;
        rep->method = MNK_BY_PAIRING;
        rep->npairs = ps.npairs;
        memcpy(rep->pairs, ps.pairs, sizeof(int) * 2 * (size_t)ps.npairs);
    } else {
        bw = root_search(s, x, o, threads, &move, rootreply);
        rep->method = MNK_BY_SEARCH;
    }
    if (s->st != CGT_OK)
        return;
    rep->result = bw ? MNK_RESULT_BREAKER : MNK_RESULT_MAKER;
    rep->win_move = bw ? -1 : move;
    if (!bw)
        return;
    for (uint64_t b = g->full & ~x & ~o; b; b &= b - 1) {
        int v = __builtin_ctzll(b);
        MnkMove *mm = &rep->moves[rep->nmoves++];
        mm->cell = v;
        mm->reply = -1;
        Eval e2;
        evaluate(g, x | 1ULL << v, o, false, &e2);
        if (e2.pot < (1L << g->k))
            continue;
        int partner = -1;
        for (int i = 0; i < rep->npairs; i++)
            if (rep->pairs[i][0] == v || rep->pairs[i][1] == v)
                partner = rep->pairs[i][0] ^ rep->pairs[i][1] ^ v;
        if (partner >= 0) {
            mm->reply = partner;
            continue;
        }
        /* a reply proven in the root's reduced position holds in the root
         * position too (Theorem 1: Breaker answers inside V_pair by pairs) */
        if (rootreply[v] >= 0) {
            mm->reply = rootreply[v];
            continue;
        }
        mb_breaker_node(s, x | 1ULL << v, o, &mm->reply, NULL);
        if (s->st != CGT_OK)
            return;
    }
}

static void solve_strong_root(Solver *s, uint64_t x, uint64_t o, bool x_to_move,
                              MnkReport *rep)
{
    rep->method = MNK_BY_SEARCH;
    rep->win_move = -1;
    uint64_t thr;
    bool cx, co;
    threats_of(&s->g, x, o, &thr, &cx);
    threats_of(&s->g, o, x, &thr, &co);
    if (cx && co) {
        s->st = cgt_error_set(s->err, CGT_ERR_DOMAIN, "mnk start position has a completed "
                              "line for both players");
        return;
    }
    if (cx || co) {
        rep->method = MNK_BY_TERMINAL;
        rep->result = cx ? MNK_RESULT_FIRST : MNK_RESULT_SECOND;
        return;
    }
    uint64_t mover = x_to_move ? x : o, other = x_to_move ? o : x;
    int move = -1;
    if (strong_att(s, mover, other, &move)) {
        rep->result = x_to_move ? MNK_RESULT_FIRST : MNK_RESULT_SECOND;
        rep->win_move = move;
        return;
    }
    if (s->st != CGT_OK)
        return;
    /* From the empty board the second player cannot win (strategy
     * stealing, seeds/001 sec. 1); from other positions search it. */
    if (x == 0 && o == 0) {
        rep->result = MNK_RESULT_DRAW;
        return;
    }
    bool w = strong_def(s, other, mover);
    rep->result = !w ? MNK_RESULT_DRAW : x_to_move ? MNK_RESULT_SECOND : MNK_RESULT_FIRST;
}

CgtStatus mnk_solve(int m, int n, int k, const MnkOptions *opt, MnkReport *rep, CgtError *err)
{
    memset(rep, 0, sizeof *rep);
    rep->win_move = -1;
    rep->max_after = -1;
    uint64_t x, o;
    CgtStatus st = parse_board(m, n, k, opt->rows, opt->nrows, &x, &o, err);
    if (st != CGT_OK)
        return st;
    if (opt->threads < 0 || opt->threads > MNK_MAX_THREADS)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk threads must be 1 to %d (got %d)",
                             MNK_MAX_THREADS, opt->threads);
    if (opt->to_move && opt->to_move != 'X' && opt->to_move != 'O')
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk player to move must be X or O");
    bool x_to_move = opt->to_move ? opt->to_move == 'X'
                                  : pc64(x) <= pc64(o);
    if (opt->proof_path && opt->variant == MNK_STRONG && !x_to_move)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "mnk strong-game proofs need X to move");
    rep->m = m;
    rep->n = n;
    rep->k = k;
    rep->variant = opt->variant;
    rep->to_move = x_to_move ? 'X' : 'O';
    Solver s;
    memset(&s, 0, sizeof s);
    geo_init(&s.g, m, n, k);
    tt_init(&s.tt);
    if (opt->table_mb > 0) {
        /* 18 bytes per slot: key, zone, value, work */
        double slots = opt->table_mb * 1048576.0 / 18.0;
        size_t cap = 1u << 10;
        while ((double)cap * 2 <= slots)
            cap *= 2;
        s.tt.max_cap = cap;
        if (cap < s.tt.cap) {
            tt_free(&s.tt);
            tt_alloc(&s.tt, cap);
        }
    }
    s.err = err;
    s.node_limit = opt->node_limit;
    s.time_limit = opt->time_limit;
    s.ckpt = opt->checkpoint;
    s.ckpt_every = opt->checkpoint_every;
    s.t0 = cgt_now();
    s.is_main = true;
    s.zones = !opt->no_zones;
    s.next_ckpt = s.t0 + s.ckpt_every;
    bool ckpt_ok = false; /* the file was read (or is absent) and can be replaced */
    if (s.ckpt) {
        s.st = load_checkpoint(&s);
        if (s.st == CGT_OK && af_probe(s.ckpt, "checkpoint", err) != CGT_OK)
            s.st = CGT_ERR_IO;
        ckpt_ok = s.st == CGT_OK;
    }
    Eval e;
    evaluate(&s.g, x, o, false, &e);
    rep->root_potential = e.pot;
    if (s.st == CGT_OK) {
        if (opt->variant == MNK_MAKER_BREAKER)
            solve_mb_root(&s, x, o, x_to_move, opt->threads > 1 ? opt->threads : 1, rep);
        else
            solve_strong_root(&s, x, o, x_to_move, rep);
    }
    if (s.st == CGT_OK && opt->proof_path)
        s.st = write_proof(&s, opt->proof_path, x, o, x_to_move,
                           rep->result == MNK_RESULT_BREAKER,
                           opt->variant == MNK_MAKER_BREAKER ? 'M'
                           : rep->result == MNK_RESULT_FIRST ? 'A' : 'H',
                           &rep->proof_lines);
    if (ckpt_ok && (s.st == CGT_OK || s.st == CGT_ERR_LIMIT || s.st == CGT_ERR_INTERRUPTED)) {
        CgtError e2;
        cgt_error_clear(&e2);
        Solver *sp = &s;
        CgtError *keep = sp->err;
        sp->err = &e2;
        CgtStatus sst = save_checkpoint(sp);
        if (sst == CGT_OK && sp->ckpt_skipped) {
            sst = cgt_error_set(&e2, CGT_ERR_IO, "checkpoint '%s' not replaced: the table now "
                                "holds fewer proven positions than the file's %zu",
                                s.ckpt, s.ckpt_on_disk);
            cgt_error_hint(&e2, "entries were dropped to stay within table_mb; raise it");
        }
        if (sst != CGT_OK && s.st == CGT_OK) {
            /* the result is complete: keep it, and report why it was not saved */
            *err = e2;
            s.st = CGT_ERR_IO;
            rep->unsaved = true;
        }
        sp->err = keep;
    }
    solver_finish(&s, rep);
    tt_free(&s.tt);
    geo_free(&s.g);
    return s.st;
}

char *mnk_cell_name(int m, int cell, char *buf)
{
    int row = (cell / m + 1) % 100; /* at most 64 cells */
    snprintf(buf, 8, "%c%d", 'A' + cell % m, row);
    return buf;
}

char *mnk_pairing_board(const MnkReport *rep, const char *const *rows)
{
    int m = rep->m, n = rep->n;
    char *s = xmalloc((size_t)(m + 1) * (size_t)n + 1);
    for (int i = 0; i < n; i++) {
        for (int c = 0; c < m; c++)
            s[i * (m + 1) + c] = rows ? (char)(rows[i][c] == 'x' ? 'X' : rows[i][c] == 'o'
                                                                     ? 'O' : rows[i][c])
                                      : '.';
        s[i * (m + 1) + m] = '\n';
    }
    s[(m + 1) * n] = '\0';
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (int p = 0; p < rep->npairs; p++)
        for (int j = 0; j < 2; j++) {
            int cell = rep->pairs[p][j];
            int r = n - 1 - cell / m, c = cell % m;
            s[r * (m + 1) + c] = letters[p % 52];
        }
    return s;
}

const char *mnk_result_name(MnkResult r)
{
    static const char *const names[] = {"maker", "breaker", "first", "second", "draw"};
    return names[r];
}

const char *mnk_method_name(MnkMethod m)
{
    static const char *const names[] = {"terminal", "potential", "pairing", "search"};
    return names[m];
}

const char *mnk_variant_name(MnkVariant v)
{
    return v == MNK_STRONG ? "strong" : "maker-breaker";
}
