/* Grundy values G(n) of heap rulesets (Sprague-Grundy, Winning Ways ch. 4),
 * computed incrementally into a growable table.  Plain two-heap codes use the
 * sparse-space method (rare/common values under a parity mask chosen by a
 * Walsh-Hadamard transform of the value histogram, heap parity folded in);
 * see docs/games.md.  Also periodicity detection and checkpoint files. */
#include "games/grundy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/atomicfile.h"
#include "util/poll.h"
#include "util/xalloc.h"

#define SPARSE_START 256

struct GrundyTable {
    const Ruleset *rs;
    uint32_t *g;
    uint64_t n, cap;
    uint32_t maxval;
    /* seen-set as a bitset over values < seen_bits */
    uint64_t *seen;
    size_t seen_words;
    /* engine kind */
    bool plain;       /* options depend on (k, parts) only */
    bool three;       /* some move leaves three heaps */
    CgtStatus stop;   /* set by value_rules when cgt_poll asked it to stop */
    uint32_t *splitk; /* k with a two-heap move */
    size_t nsplitk;
    uint32_t *scan_r; /* scratch: the split remainders n - k of one heap */
    /* sparse space */
    bool sparse;      /* enabled (after SPARSE_START) */
    bool e_allowed;   /* all split k have equal parity */
    uint32_t mask;    /* value mask */
    unsigned e;       /* heap parity folded in */
    unsigned rho;     /* the rare class (the less frequent one) */
    uint32_t *rare;   /* ascending positions a >= 1 in the rare class */
    uint32_t *rare_v; /* rare_v[j] = G(rare[j]) */
    size_t nrare, rare_cap;
    uint64_t *hist;   /* histogram over ext values, 2^(hbits+1) entries */
    unsigned hbits;
    uint64_t next_choose;
    uint8_t *vcls;    /* vcls[v] = parity(v & mask), v < seen_words*64 */
    uint8_t *seen8;   /* sparse engine's seen-sets: blk_len rows of span bytes */
    size_t seen8_cap;
    bool blk_ok;      /* rows hold the batched rare pairs of heaps blk_n0.. */
    uint32_t blk_n0, blk_len, blk_span;
    HeapOptions opts;
    uint64_t rare_pairs, scan_pairs; /* work counters for the statistics */
    bool use_options; /* general rulesets: go through ruleset_options */
};

static unsigned parity32(uint32_t x)
{
    return (unsigned)__builtin_parity(x);
}

GrundyTable *grundy_new(const Ruleset *rs)
{
    GrundyTable *gt = xcalloc(1, sizeof *gt);
    gt->rs = rs;
    gt->plain = rs->plain;
    heapopts_init(&gt->opts);
    if (gt->plain) {
        gt->splitk = xmalloc(((size_t)rs->max_take + 1) * sizeof *gt->splitk);
        gt->scan_r = xmalloc(((size_t)rs->max_take + 1) * sizeof *gt->scan_r);
        for (int k = 0; k <= rs->max_take; k++) {
            if (rs->kmask[k] & 4)
                gt->splitk[gt->nsplitk++] = (uint32_t)k;
            if (rs->kmask[k] & 8)
                gt->three = true;
        }
        gt->e_allowed = true;
        for (size_t i = 1; i < gt->nsplitk; i++)
            if ((gt->splitk[i] - gt->splitk[0]) & 1)
                gt->e_allowed = false;
    }
    gt->next_choose = SPARSE_START;
    return gt;
}

static void reset_engine(GrundyTable *gt)
{
    gt->sparse = false;
    gt->mask = 0;
    gt->e = 0;
    gt->nrare = 0;
    gt->blk_ok = false;
    gt->next_choose = SPARSE_START;
    free(gt->hist);
    gt->hist = NULL;
    gt->hbits = 0;
}

void grundy_clear(GrundyTable *gt)
{
    gt->n = 0;
    gt->maxval = 0;
    reset_engine(gt);
}

void grundy_free(GrundyTable *gt)
{
    if (!gt)
        return;
    free(gt->g);
    free(gt->seen);
    free(gt->splitk);
    free(gt->scan_r);
    free(gt->rare);
    free(gt->rare_v);
    free(gt->hist);
    free(gt->vcls);
    free(gt->seen8);
    heapopts_free(&gt->opts);
    free(gt);
}

uint64_t grundy_count(const GrundyTable *gt)
{
    return gt->n;
}

const uint32_t *grundy_values(const GrundyTable *gt)
{
    return gt->g;
}

uint32_t grundy_max(const GrundyTable *gt)
{
    return gt->maxval;
}

void grundy_work(const GrundyTable *gt, uint64_t *rare_pairs, uint64_t *scan_pairs)
{
    *rare_pairs = gt->rare_pairs;
    *scan_pairs = gt->scan_pairs;
}

void grundy_use_option_lists(GrundyTable *gt, bool on)
{
    gt->use_options = on;
}

void grundy_stats(const GrundyTable *gt, uint32_t *mask, uint64_t *nrare)
{
    *mask = gt->sparse ? (gt->mask | (gt->e ? 1u << 31 : 0)) : 0;
    *nrare = gt->sparse ? gt->nrare : 0;
}

/* Smallest power of two > maxval (at least 64): the seen-set range; every
 * nim-sum of values stays below it, and so does every mex we need. */
static uint32_t value_span(uint32_t maxval)
{
    uint64_t s = 64; /* 64-bit: no wrap (and no endless loop) for maxval >= 2^31 */
    while (s <= maxval)
        s *= 2;
    return s > UINT32_MAX ? 1u << 31 : (uint32_t)s;
}

static void fill_classes(GrundyTable *gt)
{
    for (size_t v = 0; v < gt->seen_words * 64; v++)
        gt->vcls[v] = (uint8_t)parity32(gt->mask & (uint32_t)v);
}

/* Grow the seen-sets (bits and bytes) and the value classes to `words`
 * 64-bit words. */
static void grow_seen(GrundyTable *gt, size_t words)
{
    if (words <= gt->seen_words)
        return;
    gt->seen = xrealloc(gt->seen, words * sizeof *gt->seen);
    gt->vcls = xrealloc(gt->vcls, words * 64);
    gt->seen_words = words;
    gt->blk_ok = false;
    fill_classes(gt);
}

/* Grow the seen-sets so they cover value_span(maxval)*2. */
static void ensure_seen(GrundyTable *gt)
{
    grow_seen(gt, (size_t)value_span(gt->maxval) * 2 / 64);
}

static void add_rare(GrundyTable *gt, uint32_t a)
{
    if (gt->nrare == gt->rare_cap) {
        gt->rare_cap = gt->rare_cap ? 2 * gt->rare_cap : 1024;
        gt->rare = xrealloc(gt->rare, gt->rare_cap * sizeof *gt->rare);
        gt->rare_v = xrealloc(gt->rare_v, gt->rare_cap * sizeof *gt->rare_v);
    }
    gt->rare[gt->nrare] = a;
    gt->rare_v[gt->nrare++] = gt->g[a];
}

static inline void mark(uint64_t *seen, uint32_t v)
{
    seen[v >> 6] |= (uint64_t)1 << (v & 63);
}

static uint32_t mex_bits(const uint64_t *seen, size_t words)
{
    for (size_t w = 0; w < words; w++)
        if (~seen[w])
            return (uint32_t)(w * 64 + (size_t)__builtin_ctzll(~seen[w]));
    return (uint32_t)(words * 64);
}

static unsigned pos_class(const GrundyTable *gt, uint64_t a)
{
    return parity32(gt->g[a] & gt->mask) ^ (gt->e & (unsigned)(a & 1));
}

/* Histogram over ext values x = G(a) | (a&1) << hbits, a = 1..n-1. */
static void rebuild_hist(GrundyTable *gt)
{
    unsigned hb = 1;
    while ((1u << hb) <= gt->maxval)
        hb++;
    free(gt->hist);
    gt->hbits = hb;
    gt->hist = xcalloc((size_t)2 << hb, sizeof *gt->hist);
    for (uint64_t a = 1; a < gt->n; a++)
        gt->hist[gt->g[a] | ((uint32_t)(a & 1) << hb)]++;
}

/* Choose the mask: W(m) = sum_x hist[x] (-1)^popcount(x&m) is, by the
 * Walsh-Hadamard transform, #class0 - #class1 positions under m; take the
 * m != 0 with the fewest positions in the rare class rho (below).  Masks
 * with the parity bit are allowed only when all split remainders of a heap
 * have one parity (then the common class of values is the same for all of
 * them). */
static void choose_mask(GrundyTable *gt)
{
    rebuild_hist(gt);
    size_t size = (size_t)2 << gt->hbits;
    int64_t *w = xmalloc(size * sizeof *w);
    for (size_t i = 0; i < size; i++)
        w[i] = (int64_t)gt->hist[i];
    for (size_t h = 1; h < size; h *= 2)
        for (size_t i = 0; i < size; i += 2 * h)
            for (size_t j = i; j < i + h; j++) {
                int64_t x = w[j], y = w[j + h];
                w[j] = x + y;
                w[j + h] = x - y;
            }
    size_t lim = gt->e_allowed ? size : size / 2;
    /* The rare class must be rho = e & k0 & 1 (k0 = any split amount): then
     * a common heap n has parity(G(n) & m) = 1 ^ (e & (n-k0) & 1), i.e. its
     * value lies in C_r and is found by the rare enumeration.  #rho-class =
     * (T + W)/2 for rho = 0 and (T - W)/2 for rho = 1. */
    unsigned k0 = gt->splitk[0] & 1;
    size_t best = 1;
    int64_t best_score = INT64_MAX;
    for (size_t m = 1; m < lim; m++) {
        unsigned rho = (unsigned)(m >> gt->hbits) & k0;
        int64_t score = rho ? -w[m] : w[m];
        if (score < best_score) {
            best_score = score;
            best = m;
        }
    }
    gt->rho = (unsigned)(best >> gt->hbits) & k0;
    free(w);
    gt->mask = (uint32_t)(best & ((1u << gt->hbits) - 1));
    gt->e = (unsigned)(best >> gt->hbits) & 1;
    gt->sparse = true;
    gt->nrare = 0;
    for (uint64_t a = 1; a < gt->n; a++)
        if (pos_class(gt, a) == gt->rho)
            add_rare(gt, (uint32_t)a);
    if (gt->seen_words)
        fill_classes(gt);
}

/* Values of the non-split options of heap n of a plain ruleset. */
static void mark_simple(GrundyTable *gt, uint32_t n)
{
    const unsigned *km = gt->rs->kmask;
    uint32_t t = (uint32_t)gt->rs->max_take;
    for (uint32_t k = 1; k <= t && k <= n; k++) {
        if ((km[k] & 1) && n == k)
            mark(gt->seen, 0);
        if ((km[k] & 2) && n > k)
            mark(gt->seen, gt->g[n - k]);
    }
}

/* Plain ruleset, direct: every option. */
static uint32_t value_plain(GrundyTable *gt, uint32_t n)
{
    const uint32_t *g = gt->g;
    const unsigned *km = gt->rs->kmask;
    uint32_t t = (uint32_t)gt->rs->max_take;
    memset(gt->seen, 0, gt->seen_words * sizeof *gt->seen);
    mark_simple(gt, n);
    for (size_t i = 0; i < gt->nsplitk; i++) {
        uint32_t k = gt->splitk[i];
        if (k > n)
            break;
        uint32_t r = n - k;
        for (uint32_t a = 1; 2 * a <= r; a++)
            mark(gt->seen, g[a] ^ g[r - a]);
    }
    if (gt->three)
        for (uint32_t k = 0; k <= t && k <= n; k++) {
            if (!(km[k] & 8))
                continue;
            uint32_t r = n - k;
            for (uint32_t a = 1; 3 * a <= r; a++)
                for (uint32_t b = a; a + 2 * b <= r; b++)
                    mark(gt->seen, g[a] ^ g[b] ^ g[r - a - b]);
        }
    return mex_bits(gt->seen, gt->seen_words);
}

typedef uint32_t V4 __attribute__((vector_size(16)));

/* Reverse the four lanes of a vector (GCC and Clang spell it differently). */
static inline V4 rev4(V4 y)
{
#if defined(__clang__)
    return __builtin_shufflevector(y, y, 3, 2, 1, 0);
#else
    return __builtin_shuffle(y, (V4){3, 2, 1, 0});
#endif
}

/* Is some pair value G(b) ^ G(r-b), a <= b < end, among t[0..nt-1]?  Four
 * pairs per step: G(b..b+3) against G(r-b-3..r-b) with its lanes reversed
 * (GCC/Clang vector types).  Inlined with a constant nt (1, 2 or 4), so a
 * single missing value costs one compare per four pairs. */
static inline unsigned block_hits_n(const uint32_t *g, uint32_t r, uint32_t a, uint32_t end,
                                    const uint32_t t[4], int nt)
{
    V4 t0 = {t[0], t[0], t[0], t[0]}, t1 = {t[1], t[1], t[1], t[1]};
    V4 t2 = {t[2], t[2], t[2], t[2]}, t3 = {t[3], t[3], t[3], t[3]};
    V4 acc = {0, 0, 0, 0};
    uint32_t b = a;
    for (; b + 4 <= end; b += 4) {
        V4 x, y;
        memcpy(&x, g + b, sizeof x);
        memcpy(&y, g + (r - b - 3), sizeof y);
        V4 v = x ^ rev4(y);
        acc |= (V4)(v == t0);
        if (nt > 1)
            acc |= (V4)(v == t1);
        if (nt > 2)
            acc |= (V4)(v == t2) | (V4)(v == t3);
    }
    unsigned hit = (acc[0] | acc[1] | acc[2] | acc[3]) != 0;
    for (; b < end; b++) {
        uint32_t v = g[b] ^ g[r - b];
        hit |= (v == t[0]) | (v == t[1]) | (v == t[2]) | (v == t[3]);
    }
    return hit;
}

/* block_hits_n for the targets in use: t[0..nt-1] (the rest UINT32_MAX). */
static unsigned block_hits(const uint32_t *g, uint32_t r, uint32_t a, uint32_t end,
                           const uint32_t t[4], size_t nt)
{
    if (nt == 1)
        return block_hits_n(g, r, a, end, t, 1);
    if (nt == 2)
        return block_hits_n(g, r, a, end, t, 2);
    return block_hits_n(g, r, a, end, t, 4);
}

/* Is some pair value G(b) ^ G(r-b), a <= b < end, unseen in s8 (any number
 * of missing values: one table lookup per pair, no branch)? */
static unsigned block_missing(const uint32_t *g, uint32_t r, uint32_t a, uint32_t end,
                              const uint8_t *s8)
{
    unsigned acc0 = 1, acc1 = 1;
    uint32_t b = a;
    for (; b + 2 <= end; b += 2) {
        acc0 &= s8[g[b] ^ g[r - b]];
        acc1 &= s8[g[b + 1] ^ g[r - b - 1]];
    }
    if (b < end)
        acc0 &= s8[g[b] ^ g[r - b]];
    return !(acc0 & acc1);
}

/* Step 3 of value_sparse: find the `need` values v < mc still unseen in s8
 * (every byte from mc on is set) among all pairs.  All split remainders
 * r_i = n - k_i are scanned together, a = 1, 2, ... for every r_i at once:
 * a value that arises from only one remainder (common for 0.376, whose
 * splits take 2 or 3) is found after a short prefix instead of after the
 * whole of the other remainder's pairs.  After 48 single pairs, blocks of 64
 * pairs are tested at once (vector compares against the missing values when
 * at most four are left, else a byte lookup per pair); a block with a hit is
 * then walked pair by pair.  Stops when all are seen. */
static void scan_missing(GrundyTable *gt, uint32_t n, uint32_t mc, size_t need, uint8_t *s8)
{
    const uint32_t *g = gt->g;
    uint32_t *rr = gt->scan_r, hmax = 0;
    size_t nr = 0;
    for (size_t i = 0; i < gt->nsplitk && gt->splitk[i] + 2 <= n; i++) {
        rr[nr++] = n - gt->splitk[i];
        if ((n - gt->splitk[i]) / 2 > hmax)
            hmax = (n - gt->splitk[i]) / 2;
    }
    uint32_t a = 1;
    /* short scans are common: the first pairs one by one */
    for (; a <= hmax && a <= 48 && need; a++)
        for (size_t i = 0; i < nr && need; i++)
            if (2 * a <= rr[i]) {
                uint32_t v = g[a] ^ g[rr[i] - a];
                gt->scan_pairs++;
                need -= !s8[v]; /* no branch: hits are unpredictable */
                s8[v] = 1;
            }
    uint32_t t[4];
    size_t nt = 0;
    bool vec = false;
    while (a <= hmax && need) {
        if (!vec && need <= 4) {
            for (uint32_t v = 0; v < mc; v++)
                if (!s8[v])
                    t[nt++] = v;
            for (size_t j = nt; j < 4; j++)
                t[j] = UINT32_MAX;
            vec = true;
        }
        uint32_t end = a + 64 <= hmax + 1 ? a + 64 : hmax + 1;
        for (size_t i = 0; i < nr && need; i++) {
            uint32_t r = rr[i], e = end <= r / 2 + 1 ? end : r / 2 + 1;
            if (a >= e)
                continue;
            gt->scan_pairs += e - a;
            if (vec ? !block_hits(g, r, a, e, t, nt) : !block_missing(g, r, a, e, s8))
                continue;
            /* walk the block without branches (marking every pair value
             * is harmless: they are all options), then drop found targets */
            for (uint32_t b = a; b < e; b++) {
                uint32_t v = g[b] ^ g[r - b];
                need -= !s8[v];
                s8[v] = 1;
            }
            if (vec) {
                /* keep the targets still missing in front */
                size_t m = 0;
                for (size_t j = 0; j < nt; j++)
                    if (!s8[t[j]])
                        t[m++] = t[j];
                for (size_t j = m; j < 4; j++)
                    t[j] = UINT32_MAX;
                nt = m;
            }
        }
        a = end;
    }
}

/* Bytes of seen-sets per block of heaps: the block's rows stay in L1. */
#define BLOCK_BYTES 16384

/* Start a block of heaps n0, n0+1, ... (at most `limit` of them, fewer
 * before the next mask choice) for value_sparse: clear one seen row per
 * heap and mark in it, for every split k, the pairs (a, n-k-a) of the rare
 * positions a with len <= a < n0-k.  Their other part n-k-a lies below n0,
 * so it is known before the block starts, and for one rare a the block's
 * parts G(n0-k-a .. n0+len-1-k-a) are contiguous: each table line is read
 * once per block instead of once per heap (with 1500-1900 rare positions,
 * as in 0.6 and 0.14, the per-heap loop waited on those reads).  Rare
 * positions below len or from n0-k on are done per heap by value_sparse. */
static void start_block(GrundyTable *gt, uint32_t n0, uint64_t limit)
{
    uint32_t span = (uint32_t)(gt->seen_words * 64);
    uint32_t len = BLOCK_BYTES / span;
    if (len > 64)
        len = 64;
    if (len < 1)
        len = 1;
    if (limit - n0 < len)
        len = (uint32_t)(limit - n0);
    if (gt->next_choose > n0 && gt->next_choose - n0 < len)
        len = (uint32_t)(gt->next_choose - n0);
    if ((size_t)len * span > gt->seen8_cap) {
        free(gt->seen8);
        gt->seen8_cap = (size_t)len * span;
        gt->seen8 = xmalloc(gt->seen8_cap);
    }
    memset(gt->seen8, 0, (size_t)len * span);
    gt->blk_ok = true;
    gt->blk_n0 = n0;
    gt->blk_len = len;
    gt->blk_span = span;
    const uint32_t *g = gt->g, *rare = gt->rare, *rv = gt->rare_v;
    for (size_t i = 0; i < gt->nsplitk; i++) {
        uint32_t k = gt->splitk[i];
        if (n0 < k + len)
            break;
        size_t j = 0;
        while (j < gt->nrare && rare[j] < len)
            j++;
        for (; j < gt->nrare && rare[j] < n0 - k; j++) {
            const uint32_t *gp = g + (n0 - k - rare[j]);
            uint8_t *row = gt->seen8;
            uint32_t x = rv[j];
            for (uint32_t h = 0; h < len; h++, row += span)
                row[x ^ gp[h]] = 1;
            gt->rare_pairs += len;
        }
    }
}

/* Sparse-space step for heap n (plain, two-heap splits only).  With class
 * c(a) = parity(G(a) & mask) ^ (e & a & 1), a split r = a + b has value
 * v = G(a)^G(b) with parity(v & mask) = c(a) ^ c(b) ^ (e & r & 1).  So the
 * values of the class C_r (parity 1 ^ (e & r & 1)) come only from pairs
 * with exactly one part in the rare class rho (c(a) != c(b)): enumerating
 * the rare positions gives all of them exactly.  Values of the other class
 * below the least missing C_r value are found by a scan over all pairs that
 * stops as soon as each of them has been seen (usually after a short
 * prefix).  The seen-set is one byte per value here (a row of the block
 * started by start_block, which holds most rare pairs already): the marks
 * are independent stores (a bitset's read-modify-write on a handful of
 * words serialised them). */
static uint32_t value_sparse(GrundyTable *gt, uint32_t n)
{
    const uint32_t *g = gt->g;
    uint32_t span = gt->blk_span, len = gt->blk_len, n0 = gt->blk_n0;
    uint8_t *s8 = gt->seen8 + (size_t)(n - n0) * span;
    const unsigned *km = gt->rs->kmask;
    for (uint32_t k = 1; k <= (uint32_t)gt->rs->max_take && k <= n; k++) {
        if ((km[k] & 1) && n == k)
            s8[0] = 1;
        if ((km[k] & 2) && n > k)
            s8[g[n - k]] = 1;
    }
    uint32_t r0 = n - gt->splitk[0];
    unsigned cc = 1u ^ (gt->e & (r0 & 1)); /* class (value parity) of C_r */
    const uint32_t *rare = gt->rare, *rv = gt->rare_v;
    size_t nrare = gt->nrare;
    for (size_t i = 0; i < gt->nsplitk; i++) {
        uint32_t k = gt->splitk[i];
        if (k + 2 > n)
            break;
        uint32_t r = n - k;
        /* rare a < r not batched: a < len, and a >= n0-k (all a when the
         * block had no batch for this k) */
        uint32_t lo = n0 >= k + len ? n0 - k : 0, hi = len < r ? len : r;
        size_t j = 0;
        for (; j < nrare && rare[j] < hi; j++)
            s8[rv[j] ^ g[r - rare[j]]] = 1;
        size_t jmax = nrare, jlo = j;
        while (jmax > jlo && rare[jmax - 1] >= r)
            jmax--;
        j = jmax;
        while (j > jlo && rare[j - 1] >= lo)
            j--;
        for (size_t q = j; q < jmax; q++)
            s8[rv[q] ^ g[r - rare[q]]] = 1;
        gt->rare_pairs += jlo + (jmax - j);
    }
    /* least unseen value of class cc */
    const uint8_t *vc = gt->vcls;
    uint32_t mc = 0;
    while (mc < span && (s8[mc] || vc[mc] != cc))
        mc++;
    /* unseen values (of the other class) below mc */
    size_t need = 0;
    for (uint32_t v = 0; v < mc; v++)
        need += !s8[v];
    if (need == 0)
        return mc;
    memset(s8 + mc, 1, span - mc);
    scan_missing(gt, n, mc, need, s8);
    uint32_t v = 0;
    while (v < mc && s8[v])
        v++;
    return v;
}

/* Any ruleset: the rules applied directly to the table (the same options
 * as ruleset_options, without building the lists). */
static uint32_t value_rules(GrundyTable *gt, uint32_t n)
{
    const uint32_t *g = gt->g;
    ensure_seen(gt);
    uint64_t *seen = gt->seen;
    memset(seen, 0, gt->seen_words * sizeof *seen);
    for (size_t ri = 0; ri < gt->rs->nrules; ri++) {
        const MoveRule *r = &gt->rs->rules[ri];
        uint32_t kmax = n;
        if (r->frac_den)
            kmax = (uint32_t)(((uint64_t)n * r->frac_num) / r->frac_den);
        uint32_t mp = r->min_part > 1 ? r->min_part : 1;
        bool uneq = r->flags & RULE_UNEQUAL, eq = r->flags & RULE_EQUAL;
        for (size_t j = 0; j < r->nranges; j++) {
            uint32_t hi = r->ranges[j].hi < kmax ? r->ranges[j].hi : kmax;
            for (uint32_t k = r->ranges[j].lo; k <= hi; k++) {
                /* one heap may cost O(n^3) (three heaps left): poll per
                   move so that Ctrl-C and --timeout act within
                   milliseconds (issue 14 F16) */
                if ((gt->stop = cgt_poll()) != CGT_OK)
                    return 0;
                uint32_t rem = n - k;
                if ((r->parts_mask & 1) && rem == 0 && n > 0)
                    mark(seen, 0);
                if ((r->parts_mask & 2) && rem >= mp && k > 0)
                    mark(seen, g[rem]);
                if (r->parts_mask & 4) {
                    if (eq) {
                        if (rem % 2 == 0 && rem / 2 >= mp)
                            mark(seen, 0);
                    } else {
                        for (uint32_t a = mp; 2 * a <= rem; a++)
                            if (!(uneq && 2 * a == rem))
                                mark(seen, g[a] ^ g[rem - a]);
                    }
                }
                if (r->parts_mask & 8)
                    for (uint32_t a = mp; 3 * a <= rem; a++) {
                        if ((gt->stop = cgt_poll()) != CGT_OK)
                            return 0;
                        for (uint32_t b = a; a + 2 * b <= rem; b++) {
                            uint32_t c = rem - a - b;
                            if (uneq && (a == b || b == c))
                                continue;
                            if (eq && (a != b || b != c))
                                continue;
                            mark(seen, g[a] ^ g[b] ^ g[c]);
                        }
                    }
                if (k == hi)
                    break;
            }
        }
    }
    return mex_bits(seen, gt->seen_words);
}

/* Any ruleset: through the option lists (kept as a cross-check path). */
static uint32_t value_general(GrundyTable *gt, uint32_t n)
{
    HeapOptions *o = &gt->opts;
    ruleset_options(gt->rs, n, o, NULL);
    /* mex <= number of options */
    uint32_t lim = (uint32_t)o->count + 1;
    grow_seen(gt, lim / 64 + 1);
    memset(gt->seen, 0, gt->seen_words * sizeof *gt->seen);
    for (size_t i = 0; i < o->count; i++) {
        uint32_t v = 0;
        for (size_t j = o->start[i]; j < o->start[i + 1]; j++)
            v ^= gt->g[o->parts[j]];
        if (v < lim)
            mark(gt->seen, v);
    }
    return mex_bits(gt->seen, gt->seen_words);
}

CgtStatus grundy_extend(GrundyTable *gt, uint64_t target, CgtError *err)
{
    if (target > UINT32_MAX) {
        cgt_error_set(err, CGT_ERR_LIMIT, "heap %llu is too large for a Grundy table",
                      (unsigned long long)target);
        cgt_error_hint(err, "tables hold heaps below 2^32; use a proved period for larger heaps");
        return CGT_ERR_LIMIT;
    }
    if (target <= gt->n)
        return CGT_OK;
    if (target > gt->cap) {
        uint64_t nc = gt->cap ? gt->cap : 1024;
        while (nc < target)
            nc *= 2;
        /* a table of 10^9 heaps is 4 GB: when it cannot be had, a limit
           error keeps the heaps computed so far (issue 14 F09) */
        uint32_t *ng = (size_t)nc == nc ? realloc(gt->g, (size_t)nc * sizeof *gt->g) : NULL;
        if (!ng) {
            cgt_error_set(err, CGT_ERR_LIMIT,
                          "out of memory for a Grundy table of %llu heaps (%llu MB)",
                          (unsigned long long)nc, (unsigned long long)(nc * 4 >> 20));
            cgt_error_hint(err, "ask for fewer heaps; a proved period gives larger ones");
            return CGT_ERR_LIMIT;
        }
        gt->g = ng;
        gt->cap = nc;
    }
    ensure_seen(gt);
    bool sparse_ok = gt->plain && gt->nsplitk > 0 && !gt->three;
    while (gt->n < target) {
        uint32_t n = (uint32_t)gt->n;
        /* cgt_poll is two flag tests: poll every heap */
        CgtStatus st = cgt_poll();
        if (st != CGT_OK)
            return cgt_poll_error(err, st, "grundy computation");
        if ((n & 1023) == 0) {
            if ((n & 65535) == 0 && n)
                cgt_progress("grundy", "%s: G(%u) computed, max value %u", gt->rs->name, n,
                             gt->maxval);
        }
        if (sparse_ok && n >= gt->next_choose) {
            choose_mask(gt);
            gt->next_choose = (uint64_t)n * 2;
            gt->blk_ok = false;
        }
        if (gt->sparse && gt->plain &&
            (!gt->blk_ok || n < gt->blk_n0 || n >= gt->blk_n0 + gt->blk_len))
            start_block(gt, n, target);
        uint32_t v;
        if (!gt->plain)
            v = gt->use_options ? value_general(gt, n) : value_rules(gt, n);
        else if (gt->sparse)
            v = value_sparse(gt, n);
        else
            v = value_plain(gt, n);
        if (gt->stop != CGT_OK) {
            /* heap n unfinished: the table keeps heaps 0..n-1 */
            st = gt->stop;
            gt->stop = CGT_OK;
            return cgt_poll_error(err, st, "grundy computation");
        }
        gt->g[n] = v;
        gt->n++;
        if (v > gt->maxval) {
            gt->maxval = v;
            if (gt->plain)
                ensure_seen(gt);
        }
        if (gt->sparse && n >= 1 && pos_class(gt, n) == gt->rho) {
            add_rare(gt, n);
            /* Too many rare positions: the mask no longer fits; rechoose. */
            if (gt->nrare > 64 && gt->nrare * 4 > gt->n && gt->next_choose > gt->n + gt->n / 8) {
                gt->next_choose = gt->n + gt->n / 8;
                gt->blk_ok = false;
            }
        }
    }
    return CGT_OK;
}

/* ---- periodicity ---------------------------------------------------------- */

/* Least i such that g[m+p] - g[m] == s for all i <= m < N-p. */
static uint64_t tail_start(const uint32_t *g, uint64_t N, uint64_t p, int64_t s)
{
    uint64_t m = N - p;
    while (m > 0 && (int64_t)g[m - 1 + p] - (int64_t)g[m - 1] == s)
        m--;
    return m;
}

static void fill_exceptional(const GrundyTable *gt, GrundyPeriod *out)
{
    out->has_exceptional = false;
    out->last_exceptional = 0;
    if (out->status == PERIOD_NONE || out->preperiod == 0)
        return;
    /* by minimality of the preperiod, preperiod-1 is exceptional */
    out->has_exceptional = true;
    out->last_exceptional = out->preperiod - 1;
    (void)gt;
}

/* Pure-period tails with a long agreeing stretch: a multiple of such a p0
 * agrees on [i0, N) too, so its tail is scanned from i0 backwards only.
 * Without this, every multiple of the true period of 0.376 (4, preperiod
 * 2268248) rescanned the whole periodic tail: hours instead of seconds. */
#define TAIL_CANDS 8
typedef struct {
    uint64_t p[TAIL_CANDS], i[TAIL_CANDS];
    size_t n;
} TailCands;

/* tail_start(g, N, p, 0), using and updating the candidates tc. */
static uint64_t tail_pure(const uint32_t *g, uint64_t N, uint64_t p, TailCands *tc)
{
    uint64_t from = N - p;
    for (size_t j = 0; j < tc->n; j++)
        if (p % tc->p[j] == 0 && tc->i[j] < from)
            from = tc->i[j];
    uint64_t i = tail_start(g, from + p, p, 0);
    if (tc->n < TAIL_CANDS && N - i >= 2 * p + 64) {
        tc->p[tc->n] = p;
        tc->i[tc->n++] = i;
    }
    return i;
}

/* grundy_find_period; the search for observed periods only when `observed`
 * (grundy_run_period skips it until the end of its run). */
static void find_period(GrundyTable *gt, GrundyPeriod *out, bool observed)
{
    memset(out, 0, sizeof *out);
    const uint32_t *g = gt->g;
    uint64_t N = gt->n;
    out->checked = N;
    out->status = PERIOD_NONE;
    const Ruleset *rs = gt->rs;
    TailCands tc = {.n = 0};
    if (N < 2)
        return;
    if (rs->plain) {
        uint64_t q = rs->max_parts > 1 ? (uint64_t)rs->max_parts : 1;
        uint64_t t = (uint64_t)rs->max_take;
        for (uint64_t p = 1; q * p + t + q <= N; p++) {
            uint64_t i = tail_pure(g, N, p, &tc);
            uint64_t ie = i ? i : 1;
            /* Theorem (docs/games.md): G(n+p) = G(n) for ie <= n < q*ie +
             * (q-1)*p + t implies it for all n >= ie. */
            if (q * ie + q * p + t <= N) {
                out->status = PERIOD_PROVED;
                out->period = p;
                out->preperiod = i;
                out->proof_n = q * ie + q * p + t - 1;
                break;
            }
        }
        if (out->status == PERIOD_PROVED) {
            /* a smaller divisor may also be a period of the proved tail */
            uint64_t P = out->period, iP = out->preperiod;
            for (uint64_t d = 1; d < P; d++) {
                if (P % d || N < iP + P + d)
                    continue;
                uint64_t id = tail_start(g, N, d, 0);
                if (id <= iP) {
                    out->period = d;
                    out->preperiod = id;
                    break;
                }
            }
            fill_exceptional(gt, out);
            return;
        }
    }
    if (!observed)
        return;
    /* Observed periods: the periodic tail repeats at least three times and
     * covers at least half of the values. */
    for (int pass = 0; pass < 2; pass++)
        for (uint64_t p = 1; 3 * p <= N; p++) {
            int64_t s = pass ? (int64_t)g[N - 1] - (int64_t)g[N - 1 - p] : 0;
            if (pass && s == 0)
                continue;
            uint64_t i = pass ? tail_start(g, N, p, s) : tail_pure(g, N, p, &tc);
            if (N - i >= 3 * p && 2 * i <= N) {
                out->status = pass ? PERIOD_ARITH : PERIOD_OBSERVED;
                out->period = p;
                out->preperiod = i;
                out->saltus = s;
                fill_exceptional(gt, out);
                return;
            }
        }
}

void grundy_find_period(GrundyTable *gt, GrundyPeriod *out)
{
    find_period(gt, out, true);
}

CgtStatus grundy_run_period(GrundyTable *gt, uint64_t limit, GrundyPeriod *out, CgtError *err)
{
    uint64_t next = gt->n < 64 ? 64 : gt->n;
    for (;;) {
        if (next > limit)
            next = limit;
        CgtStatus st = grundy_extend(gt, next, err);
        if (st != CGT_OK) {
            find_period(gt, out, true);
            return st;
        }
        if (gt->rs->plain || gt->n >= limit) {
            find_period(gt, out, gt->n >= limit);
            if (out->status == PERIOD_PROVED || gt->n >= limit)
                return CGT_OK;
        }
        next = gt->n + (gt->n / 16 > 64 ? gt->n / 16 : 64);
    }
}

static uint64_t periodic_index(const GrundyPeriod *per, uint64_t n)
{
    return per->preperiod + (n - per->preperiod) % per->period;
}

CgtStatus grundy_value_at(const GrundyTable *gt, const GrundyPeriod *per, uint64_t n,
                          uint32_t *value, CgtError *err)
{
    if (n < gt->n) {
        *value = gt->g[n];
        return CGT_OK;
    }
    if (per && per->status == PERIOD_PROVED && per->period > 0) {
        *value = gt->g[periodic_index(per, n)];
        return CGT_OK;
    }
    cgt_error_set(err, CGT_ERR_DOMAIN, "G(%llu) is not known: values computed to heap %llu",
                  (unsigned long long)n, (unsigned long long)(gt->n ? gt->n - 1 : 0));
    cgt_error_hint(err, "compute further, or prove a period first");
    return CGT_ERR_DOMAIN;
}

size_t grundy_exceptional(const GrundyTable *gt, const GrundyPeriod *per, uint64_t **list)
{
    if (list)
        *list = NULL;
    if (per->status == PERIOD_NONE || per->period == 0)
        return 0;
    size_t cnt = 0;
    uint64_t *l = list ? xmalloc((per->preperiod + 1) * sizeof *l) : NULL;
    for (uint64_t n = 0; n < per->preperiod && n < gt->n; n++) {
        uint64_t j = (per->preperiod - n + per->period - 1) / per->period;
        uint64_t m = n + j * per->period;
        if (m >= gt->n)
            continue;
        int64_t expect = (int64_t)gt->g[m] - (int64_t)j * per->saltus;
        if ((int64_t)gt->g[n] != expect) {
            if (l)
                l[cnt] = n;
            cnt++;
        }
    }
    if (list)
        *list = l;
    return cnt;
}

CgtStatus grundy_table_row(const GrundyTable *gt, const GrundyPeriod *per, uint64_t r,
                           uint32_t *row, CgtError *err)
{
    for (uint64_t c = 0; c < per->period; c++) {
        CgtStatus st = grundy_value_at(gt, per, r * per->period + c, &row[c], err);
        if (st != CGT_OK)
            return st;
    }
    return CGT_OK;
}

CgtStatus grundy_position(GrundyTable *gt, const uint64_t *heaps, size_t k, uint32_t *value,
                          CgtError *err)
{
    uint64_t mx = 0;
    for (size_t i = 0; i < k; i++)
        if (heaps[i] > mx)
            mx = heaps[i];
    CgtStatus st = grundy_extend(gt, mx + 1, err);
    if (st != CGT_OK)
        return st;
    uint32_t v = 0;
    for (size_t i = 0; i < k; i++)
        v ^= gt->g[heaps[i]];
    *value = v;
    return CGT_OK;
}

/* ---- checkpoints ---------------------------------------------------------- */

/* Format version 2 (docs/games.md): "cgt-grundy 2\n", "game NAME\n",
 * "count N\n", N values as 4-byte little-endian words, "end\n", sealed by
 * util/atomicfile's CRC-64 line.  Version 1 (no seal) is refused. */
#define CKPT_VERSION 2
/* Values per buffered read/write of a checkpoint. */
#define CKPT_CHUNK 4096

CgtStatus grundy_save(const GrundyTable *gt, const char *path, CgtError *err)
{
    AtomicFile af;
    if (af_open(&af, path, "checkpoint", true, err) != CGT_OK)
        return CGT_ERR_IO;
    af_printf(&af, "cgt-grundy %d\ngame %s\ncount %llu\n", CKPT_VERSION, gt->rs->name,
              (unsigned long long)gt->n);
    unsigned char buf[4 * CKPT_CHUNK];
    for (uint64_t i = 0; i < gt->n && !af.failed; i += CKPT_CHUNK) {
        size_t m = gt->n - i < CKPT_CHUNK ? (size_t)(gt->n - i) : CKPT_CHUNK;
        for (size_t q = 0; q < m; q++)
            for (int j = 0; j < 4; j++)
                buf[4 * q + (size_t)j] = (unsigned char)(gt->g[i + q] >> (8 * j));
        af_write(&af, buf, 4 * m);
    }
    af_write(&af, "end\n", 4);
    return af_commit(&af, err);
}

/* Read one header line of at most cap-1 bytes into line (without "\n");
 * false at a missing newline or a CR (a file converted to CRLF line ends). */
static bool ckpt_line(SealedFile *sf, char *line, size_t cap, bool *crlf)
{
    if (!fgets(line, (int)cap, sf->f))
        return false;
    size_t l = strlen(line);
    if (l == 0 || line[l - 1] != '\n')
        return false;
    line[--l] = '\0';
    if (l > 0 && line[l - 1] == '\r') {
        *crlf = true;
        return false;
    }
    return strlen(line) == l; /* no NUL inside */
}

/* Domain check of one value: G(0) = 0, and G(n) <= 2^b when every earlier
 * value is < 2^b (every option of heap n is a nim-sum of earlier values, so
 * it is < 2^b, and the mex of such a set is at most 2^b).  Values stay below
 * 2^31 (the engine's seen-sets are indexed by uint32). */
static bool ckpt_value_ok(uint64_t n, uint32_t v, uint32_t maxprev)
{
    if (n == 0)
        return v == 0;
    uint64_t span = 1;
    while (span <= maxprev)
        span *= 2;
    return v <= span && v < (1u << 31);
}

CgtStatus grundy_load(GrundyTable *gt, const char *path, uint64_t *file_count, CgtError *err)
{
    *file_count = 0;
    SealedFile sf;
    if (sf_open(&sf, path, "checkpoint", false, err) != CGT_OK)
        return CGT_ERR_IO;
    if (sf.absent)
        return CGT_OK;
    char line[1024];
    unsigned long long count = 0;
    int version = 0;
    bool crlf = false;
    char tail;
    CgtStatus st = CGT_OK;
    if (!ckpt_line(&sf, line, sizeof line, &crlf) ||
        sscanf(line, "cgt-grundy %d%c", &version, &tail) != 1) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "'%s' is not a cgt Grundy checkpoint", path);
    } else if (version != CKPT_VERSION) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has format version %d, "
                           "expected %d", path, version, CKPT_VERSION);
    } else if (!ckpt_line(&sf, line, sizeof line, &crlf) || strncmp(line, "game ", 5) != 0) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "'%s' is not a cgt Grundy checkpoint", path);
    } else if (strcmp(line + 5, gt->rs->name) != 0) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' is for game %s, not %s", path,
                           line + 5, gt->rs->name);
    } else if (!ckpt_line(&sf, line, sizeof line, &crlf) ||
               sscanf(line, "count %llu%c", &count, &tail) != 1 || count > UINT32_MAX ||
               sf_remaining(&sf) != 4 * (uint64_t)count + 4) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has a bad value count", path);
    }
    if (crlf)
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has CR LF line ends (it was "
                           "converted to Windows text)", path);
    if (st != CGT_OK) {
        sf_close(&sf);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        return st;
    }
    uint32_t *g = xmalloc((count ? count : 1) * sizeof *g);
    uint32_t mx = 0;
    unsigned char buf[4 * CKPT_CHUNK];
    for (unsigned long long i = 0; i < count && st == CGT_OK; i += CKPT_CHUNK) {
        size_t m = count - i < CKPT_CHUNK ? (size_t)(count - i) : CKPT_CHUNK;
        if (fread(buf, 4, m, sf.f) != m) {
            st = cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' is truncated", path);
            break;
        }
        for (size_t q = 0; q < m; q++) {
            const unsigned char *b = buf + 4 * q;
            uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                         (uint32_t)b[3] << 24;
            uint64_t n = i + q;
            if (!ckpt_value_ok(n, v, mx) || (n < gt->n && gt->g[n] != v)) {
                st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' holds G(%llu) = %u, "
                                   "which %s", path, (unsigned long long)n, v,
                                   n < gt->n ? "differs from the value already computed"
                                             : "is impossible there");
                break;
            }
            g[n] = v;
            if (v > mx)
                mx = v;
        }
    }
    if (st == CGT_OK && (fread(buf, 1, 4, sf.f) != 4 || memcmp(buf, "end\n", 4) != 0))
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has no end line", path);
    sf_close(&sf);
    if (st != CGT_OK) {
        free(g);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        return st;
    }
    *file_count = count;
    if (count <= gt->n) { /* the table already holds all of it (checked equal) */
        free(g);
        return CGT_OK;
    }
    free(gt->g);
    gt->g = g;
    gt->n = gt->cap = count;
    gt->maxval = mx;
    reset_engine(gt);
    /* restart the sparse engine at once if it would be on */
    gt->next_choose = count > SPARSE_START ? count : SPARSE_START;
    return CGT_OK;
}
