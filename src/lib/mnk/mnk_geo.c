/* m,n,k solver: board geometry and symmetric keys, the transposition table
 * of proven positions, and the potential weights with domination (docs/mnk.md). */
#include "lib/mnk/mnk_int.h"

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/hash.h"
#include "lib/util/rng.h"
#include "lib/util/xalloc.h"

void mnk_geo_init(Geo *g, int m, int n, int k)
{
    memset(g, 0, sizeof *g);
    g->m = m;
    g->n = n;
    g->k = k;
    g->cells = m * n;
    g->full = bits_below(g->cells);
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
                Bits mask = BITS0;
                for (int i = 0; i < k; i++)
                    mask |= BIT((r + dir[d][1] * i) * m + c + dir[d][0] * i);
                g->line[g->nlines++] = mask;
            }
    g->cl_start = xcalloc((size_t)g->cells + 1, sizeof(int));
    for (int l = 0; l < g->nlines; l++)
        for (int c = 0; c < g->cells; c++)
            if (bits_has(g->line[l], c))
                g->cl_start[c + 1]++;
    for (int c = 0; c < g->cells; c++)
        g->cl_start[c + 1] += g->cl_start[c];
    g->cl_idx = xmalloc((size_t)(g->cl_start[g->cells] + 1) * sizeof(int));
    int *fill = xcalloc((size_t)g->cells, sizeof(int));
    for (int l = 0; l < g->nlines; l++)
        for (int c = 0; c < g->cells; c++)
            if (bits_has(g->line[l], c))
                g->cl_idx[g->cl_start[c] + fill[c]++] = l;
    free(fill);
    /* Board symmetries: 4 for a rectangle, 8 for a square. */
    g->nsym = m == n ? 8 : 4;
    for (int s = 0; s < g->nsym; s++)
        for (int c = 0; c < m * n; c++) {
            int t = mnk_sym_cell(m, n, s, c);
            g->sym[s][c] = (uint8_t)t;
            g->inv[s][t] = (uint8_t)c;
        }
    Rng rng;
    rng_seed(&rng, 0x6d6e6bULL);
    uint64_t base[2][MNK_CELLS];
    for (int col = 0; col < 2; col++)
        for (int c = 0; c < MNK_CELLS; c++)
            base[col][c] = rng_next(&rng);
    for (int s = 0; s < g->nsym; s++)
        for (int col = 0; col < 2; col++)
            for (int c = 0; c < g->cells; c++)
                g->zob[s][col][c] = base[col][g->sym[s][c]];
}

void mnk_geo_free(Geo *g)
{
    free(g->line);
    free(g->cl_start);
    free(g->cl_idx);
}

/* Canonical Zobrist key of (x, o) under the board symmetries (minimum of
 * the 8 or 4 images); salt separates tables that share a key space.  *symp
 * (if not NULL) gets the symmetry whose image is the canonical one. */
uint64_t mnk_geo_key_sym(const Geo *g, Bits x, Bits o, uint64_t salt, int *symp)
{
    uint64_t h[8] = {0};
    for (Bits b = x; bits_any(b); b = bits_drop(b)) {
        int c = bits_ctz(b);
        for (int s = 0; s < g->nsym; s++)
            h[s] ^= g->zob[s][0][c];
    }
    for (Bits b = o; bits_any(b); b = bits_drop(b)) {
        int c = bits_ctz(b);
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

uint64_t mnk_geo_key(const Geo *g, Bits x, Bits o, uint64_t salt)
{
    return mnk_geo_key_sym(g, x, o, salt, NULL);
}

/* A cell set of a position mapped to its canonical image (symmetry s of
 * geo_key_sym), and back. */
Bits mnk_zone_to_canon(const Geo *g, int s, Bits z)
{
    Bits r = BITS0;
    for (; bits_any(z); z = bits_drop(z))
        r |= BIT(g->sym[s][bits_ctz(z)]);
    return r;
}

Bits mnk_zone_from_canon(const Geo *g, int s, Bits z)
{
    Bits r = BITS0;
    for (z &= g->full; bits_any(z); z = bits_drop(z))
        r |= BIT(g->inv[s][bits_ctz(z)]);
    return r;
}


void mnk_tt_alloc(Tt *t, size_t cap)
{
    t->cap = cap;
    t->used = 0;
    t->key = xcalloc(t->cap, sizeof *t->key);
    t->zone = xcalloc(t->cap, sizeof *t->zone);
    t->val = xcalloc(t->cap, 1);
    t->work = xcalloc(t->cap, 1);
}

void mnk_tt_init(Tt *t)
{
    t->lock = NULL;
    t->readers = NULL;
    t->base = NULL;
    atomic_init(&t->seq, 0);
    t->max_cap = 0;
    t->evictions = 0;
    mnk_tt_alloc(t, 1u << 16);
}

void mnk_tt_free(Tt *t)
{
    free(t->key);
    free(t->zone);
    free(t->val);
    free(t->work);
}

/* Lock-free lookups while workers share the table: a store
 * holds the mutex and writes an entry's value and zone before its key
 * (release), a lookup reads the key (acquire) before them, so a key found
 * comes with its own value and zone (a zone replaced meanwhile by another
 * proof of the same position is valid too).  A store that replaces the
 * arrays (growth or dropping) makes Tt.seq odd meanwhile, and frees the
 * old arrays only once no worker is inside a lookup (each has a flag of
 * its own, set around the lookup; Dekker's pattern with sequentially
 * consistent accesses), so a lookup reads a consistent (cap, arrays)
 * snapshot that stays allocated.  The 128- and 256-bit zones of the wide
 * instances are not read atomically, so those keep the mutex. */
static _Thread_local int tt_reader = -1;

/* Entry fields written for lock-free lookups (plain stores in the wide
 * instances, which have none). */
#ifdef MNK_WIDE
#define TT_SET(lv, v, order) ((lv) = (v))
#else
#define TT_SET(lv, v, order) __atomic_store_n(&(lv), (v), order)
#endif

void mnk_tt_reader(int index)
{
    tt_reader = index;
}

#ifndef MNK_WIDE
static bool lock_free(const Tt *t)
{
    return t->readers && tt_reader >= 0;
}

static int tt_get_lock_free(Tt *t, uint64_t key, Bits *zone)
{
    atomic_int *in = &t->readers[tt_reader].in;
    for (;;) {
        atomic_store(in, 1);
        unsigned s1 = atomic_load(&t->seq);
        if (s1 & 1) {
            atomic_store(in, 0);
            sched_yield();
            continue;
        }
        uint64_t *keys = __atomic_load_n(&t->key, __ATOMIC_RELAXED);
        Bits *zones = __atomic_load_n(&t->zone, __ATOMIC_RELAXED);
        uint8_t *vals = __atomic_load_n(&t->val, __ATOMIC_RELAXED);
        size_t cap = __atomic_load_n(&t->cap, __ATOMIC_RELAXED);
        if (atomic_load(&t->seq) != s1) {
            atomic_store(in, 0);
            continue;
        }
        size_t i = key & (cap - 1);
        int v = 0;
        uint64_t k;
        while ((k = __atomic_load_n(&keys[i], __ATOMIC_ACQUIRE)) != 0) {
            if (k == key) {
                if (zone)
                    *zone = __atomic_load_n(&zones[i], __ATOMIC_RELAXED);
                v = __atomic_load_n(&vals[i], __ATOMIC_RELAXED);
                break;
            }
            i = (i + 1) & (cap - 1);
        }
        atomic_store_explicit(in, 0, memory_order_release);
        return v;
    }
}
#endif

/* Value stored for key (0 if none); *zone (if not NULL) gets its zone. */
int mnk_tt_get_zone(const Tt *t, uint64_t key, Bits *zone)
{
#ifndef MNK_WIDE
    if (t->lock && lock_free(t))
        return tt_get_lock_free((Tt *)t, key, zone);
#endif
    if (t->lock)
        pthread_mutex_lock(t->lock);
    size_t i = key & (t->cap - 1);
    int v = 0;
    while (t->key[i]) {
        if (t->key[i] == key) {
            if (zone)
                *zone = t->zone[i];
            v = t->val[i];
            break;
        }
        i = (i + 1) & (t->cap - 1);
    }
    if (t->lock)
        pthread_mutex_unlock(t->lock);
    if (!v && t->base)
        return mnk_tt_get_zone(t->base, key, zone);
    return v;
}

int mnk_tt_get(const Tt *t, uint64_t key)
{
    return mnk_tt_get_zone(t, key, NULL);
}

int mnk_tt_work(const Tt *t, uint64_t key)
{
    for (size_t i = key & (t->cap - 1); t->key[i]; i = (i + 1) & (t->cap - 1))
        if (t->key[i] == key)
            return t->work[i];
    return t->base ? mnk_tt_work(t->base, key) : -1;
}

static void tt_store(Tt *t, uint64_t key, int val, Bits zone, int work);

void mnk_tt_put_zone(Tt *t, uint64_t key, int val, Bits zone)
{
    mnk_tt_store(t, key, val, zone, 0);
}

void mnk_tt_put(Tt *t, uint64_t key, int val)
{
    mnk_tt_store(t, key, val, BITS_ALL, 0);
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
    Tt old;
    old.key = t->key;
    old.zone = t->zone;
    old.val = t->val;
    old.work = t->work;
    old.cap = t->cap;
    old.used = t->used;
    Tt fresh = {.max_cap = t->max_cap};
    if (!t->max_cap || t->cap * 2 <= t->max_cap) {
        mnk_tt_alloc(&fresh, old.cap * 2);
        tt_refill(&fresh, &old, 0);
    } else {
        size_t count[256] = {0}, keep = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.key[i])
                count[old.work[i]]++;
        int min_work = 256;
        while (min_work > 0 && keep + count[min_work - 1] <= old.cap / 4)
            keep += count[--min_work];
        mnk_tt_alloc(&fresh, old.cap);
        tt_refill(&fresh, &old, min_work);
        t->evictions += old.used - fresh.used;
    }
    /* publish the new arrays (the old ones stay valid for lock-free
     * lookups until every worker is out of one) */
    if (t->readers)
        atomic_fetch_add(&t->seq, 1);
    TT_SET(t->key, fresh.key, __ATOMIC_RELAXED);
    TT_SET(t->zone, fresh.zone, __ATOMIC_RELAXED);
    TT_SET(t->val, fresh.val, __ATOMIC_RELAXED);
    TT_SET(t->cap, fresh.cap, __ATOMIC_RELAXED);
    t->work = fresh.work;
    __atomic_store_n(&t->used, fresh.used, __ATOMIC_RELAXED);
    if (t->readers) {
        atomic_fetch_add(&t->seq, 1);
        for (int r = 0; r < MNK_MAX_THREADS; r++)
            while (atomic_load(&t->readers[r].in))
                sched_yield();
    }
    mnk_tt_free(&old);
}

/* mnk_tt_store without the lock (the caller holds it, or there is none) */
static void tt_store(Tt *t, uint64_t key, int val, Bits zone, int work)
{
    if (2 * (t->used + 1) > t->cap)
        tt_make_room(t);
    size_t i = key & (t->cap - 1);
    while (t->key[i]) {
        if (t->key[i] == key) {
            TT_SET(t->val[i], (uint8_t)val, __ATOMIC_RELAXED);
            TT_SET(t->zone[i], zone, __ATOMIC_RELAXED);
            t->work[i] = (uint8_t)work;
            return;
        }
        i = (i + 1) & (t->cap - 1);
    }
    TT_SET(t->val[i], (uint8_t)val, __ATOMIC_RELAXED);
    TT_SET(t->zone[i], zone, __ATOMIC_RELAXED);
    t->work[i] = (uint8_t)work;
    TT_SET(t->key[i], key, __ATOMIC_RELEASE);
    __atomic_store_n(&t->used, t->used + 1, __ATOMIC_RELAXED); /* read by progress lines */
}

void mnk_tt_store(Tt *t, uint64_t key, int val, Bits zone, int work)
{
    if (t->lock)
        pthread_mutex_lock(t->lock);
    tt_store(t, key, val, zone, work);
    if (t->lock)
        pthread_mutex_unlock(t->lock);
}

/* About log2(n + 1): the work byte of a result that took n nodes. */
int mnk_work_of(uint64_t n)
{
    int w = 0;
    while (n) {
        w++;
        n >>= 1;
    }
    return w;
}


void mnk_evaluate(const Geo *g, Bits x, Bits o, bool want_inter, Eval *e)
{
    Bits empty = g->full & ~x & ~o;
    e->pot = 0;
    e->complete = false;
    e->threats = BITS0;
    e->live_cells = BITS0;
    memset(e->w, 0, sizeof(long) * (size_t)g->cells);
    if (want_inter)
        for (int c = 0; c < g->cells; c++)
            e->inter[c] = BITS_ALL;
    for (int l = 0; l < g->nlines; l++) {
        Bits ln = g->line[l];
        if (bits_any(ln & o))
            continue;
        int cnt = bits_pc(ln & x);
        long wt = 1L << cnt;
        e->pot += wt;
        if (cnt == g->k) {
            e->complete = true;
            continue;
        }
        Bits em = ln & empty;
        if (cnt == g->k - 1)
            e->threats |= em;
        e->live_cells |= em;
        for (Bits b = em; bits_any(b); b = bits_drop(b)) {
            int c = bits_ctz(b);
            e->w[c] += wt;
            if (want_inter)
                e->inter[c] &= ln;
        }
    }
}

/* Cells of `cand` not dominated (Theorem 2): v is dropped when another
 * empty cell u lies on every live line through v, unless v also lies on
 * every live line through u and v < u (keep one of a mutual pair). */
Bits mnk_undominated(const Eval *e, Bits cand)
{
    Bits keep = BITS0;
    for (Bits b = cand; bits_any(b); b = bits_drop(b)) {
        int v = bits_ctz(b);
        Bits dom = e->inter[v] & cand & ~(BIT(v));
        bool dominated = false;
        for (Bits d = dom; bits_any(d); d = bits_drop(d)) {
            int u = bits_ctz(d);
            if (!bits_has(e->inter[u], v) || u < v) {
                dominated = true;
                break;
            }
        }
        if (!dominated)
            keep |= BIT(v);
    }
    return keep;
}

/* The cell that makes mnk_undominated() drop v (v dominated within cand), or -1. */
int mnk_dominator(const Eval *e, Bits cand, int v)
{
    for (Bits d = e->inter[v] & cand & ~(BIT(v)); bits_any(d); d = bits_drop(d)) {
        int u = bits_ctz(d);
        if (!bits_has(e->inter[u], v) || u < v)
            return u;
    }
    return -1;
}

/* The largest weight of an empty cell on a live line (0 if none): Maker's
 * best move raises the potential by it. */
long mnk_max_weight(const Eval *e)
{
    long maxw = 0;
    for (Bits b = e->live_cells; bits_any(b); b = bits_drop(b))
        if (e->w[bits_ctz(b)] > maxw)
            maxw = e->w[bits_ctz(b)];
    return maxw;
}

/* Cells of `cand` sorted by decreasing weight (ties by cell index). */
int mnk_order_moves(const long *w, Bits cand, int *out)
{
    int n = 0;
    for (Bits b = cand; bits_any(b); b = bits_drop(b)) {
        int c = bits_ctz(b);
        int i = n++;
        while (i > 0 && w[out[i - 1]] < w[c]) {
            out[i] = out[i - 1];
            i--;
        }
        out[i] = c;
    }
    return n;
}

/* Relevance zone of a Property-1 win: the empty cells on live lines less a
 * set T of them that Maker may own all at once with the criterion still
 * met.  Extra Maker marks only raise the potential (and every cell's
 * weight), so each subset of T keeps the criterion too.  maker_to_move:
 * the criterion is P + max_v w(v) < 2^k, else P < 2^k.  T grows greedily
 * from the cells of least weight and stops at the first failure. */
Bits mnk_potential_zone(const Geo *g, Bits x, Bits o, const Eval *e,
                            bool maker_to_move)
{
    int mv[MNK_CELLS];
    int n = mnk_order_moves(e->w, e->live_cells, mv);
    Bits t = BITS0;
    long lim = 1L << g->k;
    for (int i = n - 1; i >= 0; i--) {
        Bits t2 = t | BIT(mv[i]);
        Eval e2;
        mnk_evaluate(g, x | t2, o, false, &e2);
        long need = e2.pot;
        if (maker_to_move) {
            need += mnk_max_weight(&e2);
        }
        if (e2.complete || need >= lim)
            break;
        t = t2;
    }
    return e->live_cells & ~t;
}
