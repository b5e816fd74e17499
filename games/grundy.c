/* Grundy values G(n) of heap rulesets (Sprague-Grundy, Winning Ways ch. 4),
 * computed incrementally into a growable table.  Plain two-heap codes use the
 * sparse-space method (rare/common values under a parity mask chosen by a
 * Walsh-Hadamard transform of the value histogram, heap parity folded in);
 * see docs/games.md.  Values are stored in 1, 2 or 4 bytes (the inner loops,
 * games/grundy_kern.h, are compiled once per width).  Also periodicity
 * detection and checkpoint files. */
#include "games/grundy.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/atomicfile.h"
#include "util/poll.h"
#include "util/xalloc.h"

#define SPARSE_START 256

struct GrundyTable {
    const Ruleset *rs;
    /* G(0..n-1), gw bytes each (1, 2 or 4: the narrowest width that holds
     * every value so far; widened in place when a larger value comes) */
    void *gv;
    unsigned gw;
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
    /* values below 64 (games/grundy_bits.h): the block's rows as one-word
     * bit sets, and the two value classes as bit sets */
    bool blk_bits;
    uint64_t *bits_rows;
    size_t bits_cap;
    uint64_t cls_bits[2];
    /* the block's rare pairs with a < blk_len as (k + a, G(a)) */
    bool flat_ok;
    uint32_t *flat_d, *flat_x;
    size_t flat_n, flat_cap, flat_low; /* flat_low: rare positions < blk_len */
    HeapOptions opts;
    uint64_t rare_pairs, scan_pairs; /* work counters for the statistics */
    /* progress: the goal of the current run (grundy_run_period's limit, or
     * the extend target) and where and when the run started */
    uint64_t goal, run_n0;
    double run_t0;
    bool stepping; /* inside grundy_run_period: keep its goal */
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
    gt->gw = 1;
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
    /* keep the buffer; its width stays (values are rewritten from heap 0) */
}

void grundy_free(GrundyTable *gt)
{
    if (!gt)
        return;
    free(gt->gv);
    free(gt->seen);
    free(gt->splitk);
    free(gt->scan_r);
    free(gt->rare);
    free(gt->rare_v);
    free(gt->hist);
    free(gt->vcls);
    free(gt->seen8);
    free(gt->bits_rows);
    free(gt->flat_d);
    free(gt->flat_x);
    heapopts_free(&gt->opts);
    free(gt);
}

uint64_t grundy_count(const GrundyTable *gt)
{
    return gt->n;
}

/* G(i) from a table of width w. */
static inline uint32_t gv_get(const void *gv, unsigned w, uint64_t i)
{
    switch (w) {
    case 1:
        return ((const uint8_t *)gv)[i];
    case 2:
        return ((const uint16_t *)gv)[i];
    default:
        return ((const uint32_t *)gv)[i];
    }
}

static inline void gv_set(void *gv, unsigned w, uint64_t i, uint32_t v)
{
    switch (w) {
    case 1:
        ((uint8_t *)gv)[i] = (uint8_t)v;
        break;
    case 2:
        ((uint16_t *)gv)[i] = (uint16_t)v;
        break;
    default:
        ((uint32_t *)gv)[i] = v;
    }
}

/* Narrowest width (bytes) that holds v. */
static unsigned width_for(uint32_t v)
{
    return v <= UINT8_MAX ? 1 : v <= UINT16_MAX ? 2 : 4;
}

/* Widen the n values of *gv (capacity cap) from width *w to w2 > *w, in
 * place from the top down.  False (table untouched) when out of memory. */
static bool gv_widen(void **gv, unsigned *w, uint64_t n, uint64_t cap, unsigned w2)
{
    if ((size_t)(cap * w2) / w2 != cap)
        return false;
    void *p = realloc(*gv, (size_t)(cap ? cap : 1) * w2);
    if (!p)
        return false;
    for (uint64_t i = n; i-- > 0;)
        gv_set(p, w2, i, gv_get(p, *w, i));
    *gv = p;
    *w = w2;
    return true;
}

uint32_t grundy_get(const GrundyTable *gt, uint64_t n)
{
    return gv_get(gt->gv, gt->gw, n);
}

void grundy_copy(const GrundyTable *gt, uint64_t from, uint64_t count, uint32_t *out)
{
    for (uint64_t i = 0; i < count; i++)
        out[i] = gv_get(gt->gv, gt->gw, from + i);
}

unsigned grundy_width(const GrundyTable *gt)
{
    return gt->gw;
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
    memset(gt->cls_bits, 0, sizeof gt->cls_bits);
    for (uint32_t v = 0; v < 64; v++)
        gt->cls_bits[parity32(gt->mask & v)] |= (uint64_t)1 << v;
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
    gt->rare_v[gt->nrare++] = grundy_get(gt, a);
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
    return parity32(grundy_get(gt, a) & gt->mask) ^ (gt->e & (unsigned)(a & 1));
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
        gt->hist[grundy_get(gt, a) | ((uint32_t)(a & 1) << hb)]++;
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

/* Bytes of seen-sets per block of heaps: the block's rows stay in L1. */
#define BLOCK_BYTES 16384
/* The pair scan tests a block of pairs before walking it only when at most
 * this many values are missing (with more, nearly every block hits). */
#define SCAN_TEST_NEED 8

/* Pure-period tails with a long agreeing stretch: a multiple of such a p0
 * agrees on [i0, N) too, so its tail is scanned from i0 backwards only.
 * Without this, every multiple of the true period of 0.376 (4, preperiod
 * 2268248) rescanned the whole periodic tail: hours instead of seconds. */
#define TAIL_CANDS 8
typedef struct {
    uint64_t p[TAIL_CANDS], i[TAIL_CANDS];
    size_t n;
} TailCands;

/* Least v < span with s8[v] == 0 and vc[v] == cc (span when none); bytes
 * are 0 or 1, span a multiple of 8: eight values per step. */
static uint32_t least_unseen(const uint8_t *s8, const uint8_t *vc, uint32_t span, unsigned cc)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ull, flip = cc ? 0 : ones;
    for (uint32_t v = 0; v < span; v += 8) {
        uint64_t s, c;
        memcpy(&s, s8 + v, sizeof s);
        memcpy(&c, vc + v, sizeof c);
        uint64_t hit = ~s & (c ^ flip) & ones;
        if (hit)
            return v + (uint32_t)__builtin_ctzll(hit) / 8;
    }
    return span;
#else
    uint32_t v = 0;
    while (v < span && (s8[v] || vc[v] != cc))
        v++;
    return v;
#endif
}

/* Number of zero bytes among s8[0..m-1] (every byte 0 or 1): eight bytes
 * per step, summed by one multiply. */
static size_t count_unseen(const uint8_t *s8, uint32_t m)
{
    size_t set = 0;
    uint32_t v = 0;
    for (; v + 8 <= m; v += 8) {
        uint64_t w;
        memcpy(&w, s8 + v, sizeof w);
        set += (size_t)((w * 0x0101010101010101ull) >> 56);
    }
    for (; v < m; v++)
        set += s8[v];
    return m - set;
}

/* The inner loops, once per table width (games/grundy_kern.h); the
 * one-byte kernel hands blocks of values below 64 to games/grundy_bits.h. */
static void start_block_bits(GrundyTable *gt, uint32_t n0, uint32_t len);
static uint32_t value_sparse_bits(GrundyTable *gt, uint32_t n);
#if defined(__clang__)
#define GREV(y) __builtin_shufflevector(y, y, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#else
#define GREV(y) __builtin_shuffle(y, (VT_8){15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0})
#endif
#define GV uint8_t
#define GW 8
#define KN(f) KN_(f, 8)
#define KN_(f, w) KN__(f, w)
#define KN__(f, w) f##_##w
#include "games/grundy_kern.h"
#include "games/grundy_bits.h"
#undef GV
#undef GW
#undef KN
#undef GREV
#if defined(__clang__)
#define GREV(y) __builtin_shufflevector(y, y, 7, 6, 5, 4, 3, 2, 1, 0)
#else
#define GREV(y) __builtin_shuffle(y, (VT_16){7, 6, 5, 4, 3, 2, 1, 0})
#endif
#define GV uint16_t
#define GW 16
#define KN(f) KN_(f, 16)
#include "games/grundy_kern.h"
#undef GV
#undef GW
#undef KN
#undef GREV
#if defined(__clang__)
#define GREV(y) __builtin_shufflevector(y, y, 3, 2, 1, 0)
#else
#define GREV(y) __builtin_shuffle(y, (VT_32){3, 2, 1, 0})
#endif
#define GV uint32_t
#define GW 32
#define KN(f) KN_(f, 32)
#include "games/grundy_kern.h"
#undef GV
#undef GW
#undef KN
#undef GREV

/* The kernels for the table's width. */
#define BY_WIDTH(gt, f, ...)                                                                     \
    ((gt)->gw == 1 ? f##_8(__VA_ARGS__) : (gt)->gw == 2 ? f##_16(__VA_ARGS__) : f##_32(__VA_ARGS__))

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
            v ^= grundy_get(gt, o->parts[j]);
        if (v < lim)
            mark(gt->seen, v);
    }
    return mex_bits(gt->seen, gt->seen_words);
}

/* A table of 10^9 heaps is up to 4 GB: when it cannot be had, a limit
 * error keeps the heaps computed so far (issue 14 F09). */
static CgtStatus table_oom(uint64_t heaps, unsigned width, CgtError *err)
{
    cgt_error_set(err, CGT_ERR_LIMIT, "out of memory for a Grundy table of %llu heaps (%llu MB)",
                  (unsigned long long)heaps, (unsigned long long)(heaps * width >> 20));
    cgt_error_hint(err, "ask for fewer heaps; a proved period gives larger ones");
    return CGT_ERR_LIMIT;
}

int grundy_cost_degree(const Ruleset *rs)
{
    bool three = false, split = false;
    if (rs->plain) {
        for (int k = 0; k <= rs->max_take; k++) {
            three |= (rs->kmask[k] & 8) != 0;
            split |= (rs->kmask[k] & 4) != 0;
        }
        return three ? 3 : 1;
    }
    for (size_t i = 0; i < rs->nrules; i++) {
        three |= (rs->rules[i].parts_mask & 8) != 0;
        split |= (rs->rules[i].parts_mask & 4) != 0;
    }
    return three ? 3 : split ? 2 : 1;
}

/* Default limits (the budget of `period` and `table`): 2^25 heaps for the
 * sparse engine (enough for the longest proved periods in docs/games.md:
 * 0.354 closes at heap 20,125,197; a game with no period then takes about
 * a minute); for three-heap moves the largest N with N^3/36 <= 2^33 triples
 * (N = 6761, about 15-30 s); general rulesets 20000. */
#define LIMIT_SPARSE 33554432ull
#define LIMIT_GENERAL 20000ull
#define THREE_BUDGET 8589934592.0

uint64_t grundy_default_limit(const Ruleset *rs)
{
    if (grundy_cost_degree(rs) == 3) {
        uint64_t n = 64;
        while ((double)(n + 1) * (double)(n + 1) * (double)(n + 1) / 36.0 <= THREE_BUDGET)
            n++;
        return n;
    }
    return rs->plain ? LIMIT_SPARSE : LIMIT_GENERAL;
}

/* Progress of a run: heap n of the goal, and the time left estimated from
 * the run so far under the cost model of cost_degree. */
static void report_progress(const GrundyTable *gt, uint32_t n, uint64_t target)
{
    if (!cgt_progress_enabled())
        return;
    uint64_t goal = gt->goal > target ? gt->goal : target;
    int d = grundy_cost_degree(gt->rs);
    double el = cgt_now() - gt->run_t0, done = 0, all = 0;
    done = pow((double)n, d) - pow((double)gt->run_n0, d);
    all = pow((double)goal, d) - pow((double)n, d);
    if (done > 0 && el > 0.5)
        cgt_progress("grundy", "%s: heap %u of %llu, max value %u, about %.0f s left",
                     gt->rs->name, n, (unsigned long long)goal, gt->maxval, el * all / done);
    else
        cgt_progress("grundy", "%s: heap %u of %llu, max value %u", gt->rs->name, n,
                     (unsigned long long)goal, gt->maxval);
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
        void *ng = (size_t)(nc * gt->gw) / gt->gw == nc ? realloc(gt->gv, (size_t)(nc * gt->gw))
                                                         : NULL;
        if (!ng)
            return table_oom(nc, gt->gw, err);
        gt->gv = ng;
        gt->cap = nc;
    }
    ensure_seen(gt);
    bool sparse_ok = gt->plain && gt->nsplitk > 0 && !gt->three;
    if (!gt->stepping) {
        /* a new run (not a step of grundy_run_period's) */
        gt->goal = target;
        gt->run_n0 = gt->n;
        gt->run_t0 = cgt_now();
    }
    while (gt->n < target) {
        uint32_t n = (uint32_t)gt->n;
        /* cgt_poll is two flag tests: poll every heap */
        CgtStatus st = cgt_poll();
        if (st != CGT_OK)
            return cgt_poll_error(err, st, "grundy computation");
        /* slow heaps (three-heap moves, general rulesets): every heap */
        if (n && ((n & 65535) == 0 || !sparse_ok))
            report_progress(gt, n, target);
        if (sparse_ok && n >= gt->next_choose) {
            choose_mask(gt);
            gt->next_choose = (uint64_t)n * 2;
            gt->blk_ok = false;
        }
        if (gt->sparse && gt->plain &&
            (!gt->blk_ok || n < gt->blk_n0 || n >= gt->blk_n0 + gt->blk_len))
            BY_WIDTH(gt, start_block, gt, n, target);
        uint32_t v;
        if (!gt->plain)
            v = gt->use_options ? value_general(gt, n) : BY_WIDTH(gt, value_rules, gt, n);
        else if (gt->sparse)
            v = BY_WIDTH(gt, value_sparse, gt, n);
        else
            v = BY_WIDTH(gt, value_plain, gt, n);
        if (gt->stop != CGT_OK) {
            /* heap n unfinished: the table keeps heaps 0..n-1 */
            st = gt->stop;
            gt->stop = CGT_OK;
            return cgt_poll_error(err, st, "grundy computation");
        }
        if (width_for(v) > gt->gw && !gv_widen(&gt->gv, &gt->gw, gt->n, gt->cap, width_for(v)))
            return table_oom(gt->cap, width_for(v), err);
        gv_set(gt->gv, gt->gw, n, v);
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

/* Least i such that G(m+p) - G(m) == s for all i <= m < N-p. */
static uint64_t tail_start(const GrundyTable *gt, uint64_t N, uint64_t p, int64_t s)
{
    return BY_WIDTH(gt, tail_start, gt->gv, N, p, s);
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

/* grundy_find_period; the search for observed periods only when `observed`
 * (grundy_run_period skips it until the end of its run). */
static void find_period(GrundyTable *gt, GrundyPeriod *out, bool observed)
{
    memset(out, 0, sizeof *out);
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
            uint64_t i = BY_WIDTH(gt, tail_pure, gt->gv, N, p, &tc);
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
                uint64_t id = tail_start(gt, N, d, 0);
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
            int64_t s = pass ? (int64_t)grundy_get(gt, N - 1) - (int64_t)grundy_get(gt, N - 1 - p) : 0;
            if (pass && s == 0)
                continue;
            uint64_t i = pass ? tail_start(gt, N, p, s) : BY_WIDTH(gt, tail_pure, gt->gv, N, p, &tc);
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
    gt->goal = limit;
    gt->run_n0 = gt->n;
    gt->run_t0 = cgt_now();
    for (;;) {
        if (next > limit)
            next = limit;
        gt->stepping = true;
        CgtStatus st = grundy_extend(gt, next, err);
        gt->stepping = false;
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
        *value = grundy_get(gt, n);
        return CGT_OK;
    }
    if (per && per->status == PERIOD_PROVED && per->period > 0) {
        *value = grundy_get(gt, periodic_index(per, n));
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
        int64_t expect = (int64_t)grundy_get(gt, m) - (int64_t)j * per->saltus;
        if ((int64_t)grundy_get(gt, n) != expect) {
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
        v ^= grundy_get(gt, heaps[i]);
    *value = v;
    return CGT_OK;
}

/* ---- checkpoints ---------------------------------------------------------- */

/* Format version 3 (docs/games.md): "cgt-grundy 3\n", "game NAME\n",
 * "count N\n", "width W\n" (1, 2 or 4: the table's bytes per value), N
 * values as W-byte little-endian words, "end\n", sealed by util/atomicfile's
 * CRC-64 line.  Version 2 (no width line, W = 4) is still read; version 1
 * (no seal) is refused. */
#define CKPT_VERSION 3
/* Values per buffered read/write of a checkpoint. */
#define CKPT_CHUNK 4096

CgtStatus grundy_save(const GrundyTable *gt, const char *path, CgtError *err)
{
    AtomicFile af;
    if (af_open(&af, path, "checkpoint", true, err) != CGT_OK)
        return CGT_ERR_IO;
    unsigned w = gt->gw;
    af_printf(&af, "cgt-grundy %d\ngame %s\ncount %llu\nwidth %u\n", CKPT_VERSION,
              gt->rs->name, (unsigned long long)gt->n, w);
    unsigned char buf[4 * CKPT_CHUNK];
    for (uint64_t i = 0; i < gt->n && !af.failed; i += CKPT_CHUNK) {
        size_t m = gt->n - i < CKPT_CHUNK ? (size_t)(gt->n - i) : CKPT_CHUNK;
        for (size_t q = 0; q < m; q++)
            for (unsigned j = 0; j < w; j++)
                buf[w * q + j] = (unsigned char)(grundy_get(gt, i + q) >> (8 * j));
        af_write(&af, buf, w * m);
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
    unsigned fw = 4; /* bytes per value in the file (version 2: 4) */
    bool crlf = false;
    char tail;
    CgtStatus st = CGT_OK;
    if (!ckpt_line(&sf, line, sizeof line, &crlf) ||
        sscanf(line, "cgt-grundy %d%c", &version, &tail) != 1) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "'%s' is not a cgt Grundy checkpoint", path);
    } else if (version != CKPT_VERSION && version != 2) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has format version %d, "
                           "expected %d (or 2)", path, version, CKPT_VERSION);
    } else if (!ckpt_line(&sf, line, sizeof line, &crlf) || strncmp(line, "game ", 5) != 0) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "'%s' is not a cgt Grundy checkpoint", path);
    } else if (strcmp(line + 5, gt->rs->name) != 0) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' is for game %s, not %s", path,
                           line + 5, gt->rs->name);
    } else if (!ckpt_line(&sf, line, sizeof line, &crlf) ||
               sscanf(line, "count %llu%c", &count, &tail) != 1 || count > UINT32_MAX) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has a bad value count", path);
    } else if (version == 3 && (!ckpt_line(&sf, line, sizeof line, &crlf) ||
                                sscanf(line, "width %u%c", &fw, &tail) != 1 ||
                                (fw != 1 && fw != 2 && fw != 4))) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has a bad value width", path);
    } else if (sf_remaining(&sf) != fw * (uint64_t)count + 4) {
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
    /* the file's values go into a table of their own width (a refused
     * file leaves gt untouched) */
    unsigned gw = 1;
    void *g = xmalloc(count ? (size_t)count : 1);
    uint32_t mx = 0;
    unsigned char buf[4 * CKPT_CHUNK];
    for (unsigned long long i = 0; i < count && st == CGT_OK; i += CKPT_CHUNK) {
        size_t m = count - i < CKPT_CHUNK ? (size_t)(count - i) : CKPT_CHUNK;
        if (fread(buf, fw, m, sf.f) != m) {
            st = cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' is truncated", path);
            break;
        }
        for (size_t q = 0; q < m; q++) {
            const unsigned char *b = buf + fw * q;
            uint32_t v = 0;
            for (unsigned j = 0; j < fw; j++)
                v |= (uint32_t)b[j] << (8 * j);
            uint64_t n = i + q;
            if (!ckpt_value_ok(n, v, mx) || (n < gt->n && grundy_get(gt, n) != v)) {
                st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' holds G(%llu) = %u, "
                                   "which %s", path, (unsigned long long)n, v,
                                   n < gt->n ? "differs from the value already computed"
                                             : "is impossible there");
                break;
            }
            if (width_for(v) > gw && !gv_widen(&g, &gw, n, count, width_for(v))) {
                st = table_oom(count, width_for(v), err);
                break;
            }
            gv_set(g, gw, n, v);
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
    free(gt->gv);
    gt->gv = g;
    gt->gw = gw;
    gt->n = gt->cap = count;
    gt->maxval = mx;
    reset_engine(gt);
    /* restart the sparse engine at once if it would be on */
    gt->next_choose = count > SPARSE_START ? count : SPARSE_START;
    return CGT_OK;
}
