/* Grundy values G(n) of heap rulesets (Sprague-Grundy, Winning Ways ch. 4),
 * computed incrementally into a growable table.  Plain two-heap codes use the
 * sparse-space method (rare/common values under a parity mask chosen by a
 * Walsh-Hadamard transform of the value histogram, heap parity folded in);
 * see docs/games.md.  Values are stored in 1, 2 or 4 bytes (the inner loops,
 * src/lib/grundy/grundy_kern.h, are compiled once per width).  Periodicity
 * detection is in grundy_period.c, checkpoint files in grundy_ckpt.c, the
 * table's creation, settings, reading and limits in grundy_table.c. */
#include "lib/grundy/grundy_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

_Static_assert(GS_MAP_VALUES == GRUNDY_TABLE_BOUND,
               "a mapped table holds every heap below the bound");

static unsigned parity32(uint32_t x)
{
    return (unsigned)__builtin_parity(x);
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

/* Bytes of a seen row of the sparse engine's byte path: every pair value
 * and every non-split option is below VS = value_span(maxval), so every
 * value from VS on is unseen, and the least value of the class C_r is at
 * most VS + t, t the lowest bit of the mask (VS + t has the other parity
 * of VS when t < VS).  So mc < VS + t + 1, and the row needs no more
 * (rounded up to 64 bytes; the seen words, 2 * VS, when t >= VS).  Half
 * the bytes of 2 * VS for Officers: twice the heaps per block in the same
 * cache footprint. */
uint32_t grundy_row_span(const GrundyTable *gt)
{
    uint32_t vs = value_span(gt->maxval), full = (uint32_t)(gt->seen_words * 64);
    uint32_t t = gt->mask ? gt->mask & -gt->mask : vs;
    uint64_t r = (uint64_t)vs + (((uint64_t)t + 1 + 63) & ~(uint64_t)63);
    return r < full ? (uint32_t)r : full;
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

static void add_rare(GrundyTable *gt, uint64_t a)
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

/* The class of position a whose value is v. */
static inline unsigned value_class(const GrundyTable *gt, uint64_t a, uint32_t v)
{
    return parity32(v & gt->mask) ^ (gt->e & (unsigned)(a & 1));
}

/* Values per read of the whole-table passes (the mask choice's histogram
 * and rare rescan, at every power of two). */
#define TABLE_CHUNK 4096

/* G(a0 .. a0+c-1) into buf, c = min(TABLE_CHUNK, n - a0) (0 from n on),
 * returned: through a compressed middle grundy_copy decodes block by
 * block, where a grundy_get per value was about 7% of 0.106 to 10^7. */
static uint64_t table_chunk(const GrundyTable *gt, uint64_t a0, uint32_t *buf)
{
    uint64_t c = a0 >= gt->n ? 0 : gt->n - a0 < TABLE_CHUNK ? gt->n - a0 : TABLE_CHUNK;
    grundy_copy(gt, a0, c, buf);
    return c;
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
    uint32_t buf[TABLE_CHUNK];
    uint64_t c;
    for (uint64_t a0 = 1; (c = table_chunk(gt, a0, buf)) > 0; a0 += c)
        for (uint64_t j = 0; j < c; j++)
            gt->hist[buf[j] | ((uint32_t)((a0 + j) & 1) << hb)]++;
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
    /* the rare positions under the new mask */
    uint32_t buf[TABLE_CHUNK];
    uint64_t c;
    for (uint64_t a0 = 1; (c = table_chunk(gt, a0, buf)) > 0; a0 += c)
        for (uint64_t j = 0; j < c; j++)
            if (value_class(gt, a0 + j, buf[j]) == gt->rho)
                add_rare(gt, a0 + j);
    if (gt->seen_words)
        fill_classes(gt);
}

/* Stretches start from this heap on (the rare set of the first heaps grows
 * fast: every rare heap ends a stretch) and cover at least PAR_MIN heaps. */
#define PAR_START 4096
#define PAR_MIN 64

/* The pair scan tests a block of pairs before walking it only when at most
 * this many values are missing (with more, nearly every block hits). */
#define SCAN_TEST_NEED 8

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

/* Number of zero bytes among s8[0..m-1] (every byte 0 or 1; the row
 * holds at least m rounded up to 8 bytes): eight bytes per step, summed by
 * one multiply, the last word masked to the bytes below m. */
static size_t count_unseen(const uint8_t *s8, uint32_t m)
{
    size_t set = 0;
    uint32_t v = 0;
    for (; v + 8 <= m; v += 8) {
        uint64_t w;
        memcpy(&w, s8 + v, sizeof w);
        set += (size_t)((w * 0x0101010101010101ull) >> 56);
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (v < m) {
        uint64_t w;
        memcpy(&w, s8 + v, sizeof w);
        w &= ((uint64_t)1 << (8 * (m - v))) - 1;
        set += (size_t)((w * 0x0101010101010101ull) >> 56);
    }
#else
    for (; v < m; v++)
        set += s8[v];
#endif
    return m - set;
}

/* Least v < m with s8[v] == 0, m when none (bytes 0 or 1; every byte from
 * m to the row's end, a multiple of 8, is 1): eight bytes per step. */
static uint32_t first_unseen(const uint8_t *s8, uint32_t m)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (uint32_t v = 0; v < m; v += 8) {
        uint64_t w;
        memcpy(&w, s8 + v, sizeof w);
        uint64_t hit = ~w & 0x0101010101010101ull;
        if (hit)
            return v + (uint32_t)__builtin_ctzll(hit) / 8;
    }
    return m;
#else
    uint32_t v = 0;
    while (v < m && s8[v])
        v++;
    return v;
#endif
}

/* After step 1 of value_sparse on the row s8 (every option with a rare part
 * marked): mc, the least unseen value of class cc, and in *need the number
 * of values (of the other class) still unseen below it; when there are
 * any, every byte from mc on is set, so that the pair scan that looks for
 * them stops once they are seen. */
static uint32_t sparse_head(const GrundyTable *gt, uint8_t *s8, unsigned cc, size_t *need)
{
    uint32_t span = gt->blk_span, mc = least_unseen(s8, gt->vcls, span, cc);
    *need = count_unseen(s8, mc);
    if (*need)
        memset(s8 + mc, 1, span - mc);
    return mc;
}

/* ---- compressed middle (docs/games.md §2) ---------------------------------- */

/* Heap n's rare pairs read G(n - k - a) for every rare a, and its pair scans
 * start from r = n - k: the raw window above the store must hold the last
 * (largest rare position + largest take + a block) values. */
static uint64_t window_need(const GrundyTable *gt)
{
    uint64_t top = gt->nrare ? gt->rare[gt->nrare - 1] : 0;
    return top + (uint64_t)gt->rs->max_take + 256;
}

/* Decode the middle back into the flat table (a rare position appeared
 * whose pairs would read it). */
static void decompact(GrundyTable *gt)
{
    if (!gt->store)
        return;
    gs_restore(gt->store, gt->gv, gt->gw);
    gs_free(gt->store);
    gt->store = NULL;
    gt->scan_lim = UINT64_MAX;
    gt->compact_next = 2 * gt->n; /* a growing rare set: no compact/restore cycle per chunk */
}

/* After the rare set changed: keep the window wide enough. */
static void check_window(GrundyTable *gt)
{
    if (gt->store && gs_end(gt->store) + window_need(gt) > gt->n)
        decompact(gt);
}

/* Move whole chunks below the window into the store (sparse engine only,
 * values below GS_MAXSYM; period runs only when asked for by
 * grundy_set_compact). */
static void compact_step(GrundyTable *gt)
{
    if (!gt->compact_from || gt->n < gt->compact_from || !gt->sparse ||
        gt->maxval >= GS_MAXSYM || (gt->stepping && !gt->compact_set) ||
        gt->n < gt->compact_next)
        return;
    uint64_t C = gt->compact_chunk;
    uint64_t win = window_need(gt) > C ? window_need(gt) : C;
    uint64_t from = gt->store ? gs_end(gt->store) : gt->compact_prefix;
    if (from + C + win > gt->n)
        return;
    if (!gt->mapped) {
        void *p = gs_map(gt->gw);
        if (!p)
            return; /* stay flat */
        memcpy(p, gt->gv, (size_t)gt->n * gt->gw);
        free(gt->gv);
        gt->gv = p;
        gt->mapped = true;
        gt->cap = GS_MAP_VALUES;
    }
    if (!gt->store) {
        gt->store = gs_new(gt->compact_prefix);
        grundy_spill_store(gt, gt->store);
    }
    while (gs_end(gt->store) + C + win <= gt->n && gs_compact(gt->store, gt->gv, gt->gw, C))
        ;
    if (gs_end(gt->store) == gs_begin(gt->store)) {
        gs_free(gt->store);
        gt->store = NULL;
    }
}

/* The kernels' raw pair scans stop at a = scan_lim: G(a) must lie in the
 * prefix and G(n - k - a) above the store. */
static void set_scan_lim(GrundyTable *gt, uint64_t n)
{
    if (!gt->store) {
        gt->scan_lim = UINT64_MAX;
        return;
    }
    uint64_t lo = gs_begin(gt->store) - 1, hi = n - gt->max_splitk - gs_end(gt->store);
    gt->scan_lim = lo < hi ? lo : hi;
}

/* The rest of a pair scan past scan_lim (rare: about one heap in 10^6 of
 * Officers scans past 2^16), through grundy_get: every pair (a, r - a),
 * a0 <= a <= hmax, for every remainder r, until `need` values are seen. */
static void scan_deep(GrundyTable *gt, const uint64_t *rr, size_t nr, uint64_t a, uint64_t hmax,
                      size_t need, uint8_t *s8)
{
    uint64_t sp = 0;
    if (gt->store_lock) /* a worker of a parallel stretch: gs_get's cache is shared */
        pthread_mutex_lock(gt->store_lock);
    for (; a <= hmax && need; a++) {
        uint32_t ga = grundy_get(gt, a);
        for (size_t i = 0; i < nr; i++)
            if (2 * a <= rr[i]) {
                uint32_t v = ga ^ grundy_get(gt, rr[i] - a);
                sp++;
                need -= !s8[v];
                s8[v] = 1;
            }
    }
    if (gt->store_lock)
        pthread_mutex_unlock(gt->store_lock);
    gt->scan_pairs += sp;
}

/* scan_deep on a bit set (src/lib/grundy/grundy_bits.h): the values of miss still
 * unseen after the pairs a0 <= a <= hmax. */
static uint64_t scan_deep_bits(GrundyTable *gt, const uint64_t *rr, size_t nr, uint64_t a,
                               uint64_t hmax, uint64_t s, uint64_t miss)
{
    uint64_t sp = 0;
    if (gt->store_lock)
        pthread_mutex_lock(gt->store_lock);
    for (; a <= hmax && (miss & ~s); a++) {
        uint32_t ga = grundy_get(gt, a);
        for (size_t i = 0; i < nr; i++)
            if (2 * a <= rr[i]) {
                uint32_t v = ga ^ grundy_get(gt, rr[i] - a);
                s |= v < 64 ? (uint64_t)1 << v : 0;
                sp++;
            }
    }
    if (gt->store_lock)
        pthread_mutex_unlock(gt->store_lock);
    gt->scan_pairs += sp;
    return miss & ~s;
}

/* The rare a < len of every split k as one list of (k + a, G(a)) for a
 * block of len heaps from n0: heap n's pairs with them are then G(a) ^
 * G(n - (k + a)), one loop for all k (only when every remainder of the
 * block is at least len, so that all a < len pair with it: flat_ok). */
static void build_flat(GrundyTable *gt, uint64_t n0, uint32_t len)
{
    const uint64_t *rare = gt->rare;
    const uint32_t *rv = gt->rare_v;
    size_t nlow = 0;
    while (nlow < gt->nrare && rare[nlow] < len)
        nlow++;
    uint32_t kmax = gt->splitk[gt->nsplitk - 1];
    gt->flat_n = 0;
    gt->flat_ok = n0 >= (uint64_t)kmax + len;
    gt->flat_low = nlow;
    if (!gt->flat_ok)
        return;
    if (nlow * gt->nsplitk > gt->flat_cap) {
        free(gt->flat_d);
        free(gt->flat_x);
        gt->flat_cap = nlow * gt->nsplitk;
        /* own lines: in a parallel stretch the other thread writes its
         * scratch per heap, maybe in the neighbouring malloc chunk */
        gt->flat_d = xmalloc_lines(gt->flat_cap * sizeof *gt->flat_d);
        gt->flat_x = xmalloc_lines(gt->flat_cap * sizeof *gt->flat_x);
    }
    for (size_t i = 0; i < gt->nsplitk; i++)
        for (size_t j = 0; j < nlow; j++) {
            gt->flat_d[gt->flat_n] = gt->splitk[i] + (uint32_t)rare[j]; /* rare[j] < len */
            gt->flat_x[gt->flat_n++] = rv[j];
        }
}

/* A tail candidate (p, i) is redundant when a candidate c dividing p has
 * i_c <= i: every multiple of p is one of c, whose tail already starts at
 * i_c or before, so (p, i) would never lower a scan's start.  Keeping
 * only the others spares the divisions of every later p by them (0.376:
 * 4, 8, ..., 32 were all kept, and eight 64-bit divisions per multiple of
 * 4 were half of its proof's time).  The tails found are the same. */
static bool tail_redundant(const TailCands *tc, uint64_t p, uint64_t i)
{
    for (size_t j = 0; j < tc->n; j++)
        if (p % tc->p[j] == 0 && tc->i[j] <= i)
            return true;
    return false;
}

/* The inner loops, once per table width (src/lib/grundy/grundy_kern.h); the
 * one-byte kernel hands blocks of values below 64 to src/lib/grundy/grundy_bits.h.
 * GCC on x86-64 builds them a second time for AVX2 (32-byte vectors, and
 * a one-instruction lane reversal: the baseline's SSE2 has no byte
 * shuffle), named f_8x, f_16x, f_32x, and BY_WIDTH takes those when the
 * processor has AVX2 (grundy_set_simd).  Both copies compute the same
 * values and counters (tests/unit/test_grundy_simd.c). */
static bool bits_block_ok(const GrundyTable *gt, uint32_t span);
static void start_block_bits(GrundyTable *gt, uint64_t n0, uint32_t len);
static uint32_t value_sparse_bits(GrundyTable *gt, uint64_t n);
#if defined(__clang__)
#define REV16(y) __builtin_shufflevector(y, y, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define REV8(y) __builtin_shufflevector(y, y, 7, 6, 5, 4, 3, 2, 1, 0)
#define REV4(y) __builtin_shufflevector(y, y, 3, 2, 1, 0)
#else
#define REV16(y)                                                                                 \
    __builtin_shuffle(y, (__typeof__(y)){15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0})
#define REV8(y) __builtin_shuffle(y, (__typeof__(y)){7, 6, 5, 4, 3, 2, 1, 0})
#define REV4(y) __builtin_shuffle(y, (__typeof__(y)){3, 2, 1, 0})
#endif
#define KN_(f, w) KN__(f, w)
#define KN__(f, w) f##_##w
#define GVB 16
#define KSUF
#define REV_B REV16
#define REV_H REV8
#define REV_W REV4
#include "lib/grundy/grundy_widths.h"
#include "lib/grundy/grundy_bits.h"
#undef GVB
#undef KSUF
#undef REV_B
#undef REV_H
#undef REV_W

/* The kernel f for the table's width, in the copy with suffix s (empty:
 * the baseline). */
#define BY_W(gt, s, f, ...)                                                                      \
    ((gt)->gw == 1 ? f##_8##s(__VA_ARGS__)                                                        \
                   : (gt)->gw == 2 ? f##_16##s(__VA_ARGS__) : f##_32##s(__VA_ARGS__))
/* The baseline kernel for the table's width: the period search's tail
 * loops, which the AVX2 copy ran slower (0.376's proof: 63% of its time in
 * tail_pure_8x against 46% in the baseline). */
#define BY_BASE(gt, f, ...) BY_W(gt, , f, __VA_ARGS__)

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GRUNDY_AVX2 1
#pragma GCC push_options
#pragma GCC target("avx2")
#define GVB 32
#define REV32(y)                                                                                 \
    __builtin_shuffle(y, (__typeof__(y)){31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, \
                                         17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, \
                                         1, 0})
#define KSUF x
#define REV_B REV32
#define REV_H REV16
#define REV_W REV8
#include "lib/grundy/grundy_widths.h"
#undef GVB
#undef KSUF
#undef REV_B
#undef REV_H
#undef REV_W
#pragma GCC pop_options

/* AVX2 unless the processor lacks it. */
static bool simd_default(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

/* The kernels for the table's width (and instruction set). */
#define BY_WIDTH(gt, f, ...)                                                                     \
    ((gt)->simd ? BY_W(gt, x, f, __VA_ARGS__) : BY_W(gt, , f, __VA_ARGS__))
#else
#define GRUNDY_AVX2 0
static bool simd_default(void)
{
    return false;
}
/* The kernels for the table's width. */
#define BY_WIDTH(gt, f, ...) BY_BASE(gt, f, __VA_ARGS__)
#endif

bool grundy_set_simd(GrundyTable *gt, bool on)
{
    gt->simd = on && GRUNDY_AVX2 && simd_default();
    grundy_set_x512(gt, true);
    return gt->simd;
}

void grundy_set_par_backoff(GrundyTable *gt, bool on)
{
    gt->par_backoff_off = !on;
    gt->par_gap = 0;
}

void grundy_set_bitsets(GrundyTable *gt, bool on)
{
    gt->bits_off = !on;
    gt->blk_ok = false;
}

void grundy_set_rank_words(GrundyTable *gt, unsigned words)
{
    gt->cb_max = words < GRUNDY_CB_WORDS ? words : GRUNDY_CB_WORDS;
    gt->blk_ok = false;
}

bool grundy_set_x512(GrundyTable *gt, bool on)
{
#if GRUNDY_X512
    gt->x512 = on && gt->simd && grundy_x512_supported();
#else
    (void)on;
#endif
    return gt->x512;
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
            v ^= grundy_get(gt, o->parts[j]);
        if (v < lim)
            mark(gt->seen, v);
    }
    return mex_bits(gt->seen, gt->seen_words);
}

/* Progress of a run: heap n of the goal, and the time left estimated from
 * the run so far under the cost model of cost_degree. */
static void report_progress(const GrundyTable *gt, uint64_t n, uint64_t target)
{
    if (!cgt_progress_enabled())
        return;
    uint64_t goal = gt->goal > target ? gt->goal : target;
    int d = grundy_cost_degree(gt->rs);
    double el = cgt_now() - gt->run_t0, done = 0, all = 0;
    done = pow((double)n, d) - pow((double)gt->run_n0, d);
    all = pow((double)goal, d) - pow((double)n, d);
    if (done > 0 && el > 0.5)
        cgt_progress("grundy", "%s: heap %llu of %llu, max value %u, about %.0f s left",
                     gt->rs->name, (unsigned long long)n, (unsigned long long)goal, gt->maxval,
                     el * all / done);
    else
        cgt_progress("grundy", "%s: heap %llu of %llu, max value %u", gt->rs->name,
                     (unsigned long long)n, (unsigned long long)goal, gt->maxval);
}

/* Whether heap n may be computed in a parallel stretch
 * (src/lib/grundy/grundy_par.c): the byte path of the sparse engine
 * (two-heap splits); the bit path (one-byte values below 64, or one-byte
 * values as bits_block_ok says, src/lib/grundy/grundy_bits.h) stays serial:
 * 0.14 to 10^7 took 5.3 s in it on one thread, 7.8 s of wall time on the
 * byte path on two. */
static bool par_eligible(const GrundyTable *gt, uint64_t n)
{
    if (gt->threads < 2 || n < gt->par_next || n < PAR_START || !gt->sparse || !gt->plain ||
        gt->three || !gt->nsplitk)
        return false;
    return !(gt->gw == 1 && !gt->bits_off &&
             (gt->seen_words * 64 <= 128 || bits_block_ok(gt, grundy_row_span(gt))));
}

/* The heaps a parallel stretch from n may cover before the next serial
 * event (target, mask choice, compaction step). */
static uint64_t par_end(const GrundyTable *gt, uint64_t n, uint64_t target)
{
    uint64_t end = target;
    if (gt->next_choose > n && gt->next_choose < end)
        end = gt->next_choose;
    if (gt->compact_from && (n | (gt->compact_chunk - 1)) + 1 < end)
        end = (n | (gt->compact_chunk - 1)) + 1;
    return end;
}

CgtStatus grundy_extend(GrundyTable *gt, uint64_t target, CgtError *err)
{
    if (target > GRUNDY_TABLE_BOUND) {
        char heap[24];
        snprintf(heap, sizeof heap, "%llu", (unsigned long long)(target - 1));
        grundy_beyond_error(err, heap, GRUNDY_TABLE_BOUND, NULL);
        return CGT_ERR_LIMIT;
    }
    if (target <= gt->n)
        return CGT_OK;
    if (gt->use_options && target > (uint64_t)UINT32_MAX + 1) {
        /* the option lists (ruleset_options) take 32-bit heaps */
        cgt_error_set(err, CGT_ERR_LIMIT, "the option-list path takes heaps below 2^32");
        return CGT_ERR_LIMIT;
    }
    if (target > gt->cap) {
        uint64_t nc = gt->cap ? gt->cap : 1024;
        while (nc < target)
            nc *= 2;
        void *ng = (size_t)(nc * gt->gw) / gt->gw == nc ? realloc(gt->gv, (size_t)(nc * gt->gw))
                                                         : NULL;
        if (!ng)
            return grundy_table_oom(nc, gt->gw, err);
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
        uint64_t n = gt->n;
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
            gt->bits_wide = gt->bits_redo = 0; /* bits_block_ok's count anew */
            check_window(gt);
        }
        if (gt->compact_from && (n & (gt->compact_chunk - 1)) == 0)
            compact_step(gt);
        if (gt->store)
            set_scan_lim(gt, n);
        if (par_eligible(gt, n)) {
            uint64_t end = par_end(gt, n, target);
            if (end - n >= PAR_MIN) {
                grundy_par_run(gt, end);
                continue;
            }
        }
        if (gt->sparse && gt->plain &&
            (!gt->blk_ok || n < gt->blk_n0 || n >= gt->blk_n0 + gt->blk_len))
            BY_WIDTH(gt, start_block, gt, n, target);
        uint32_t v;
        if (!gt->plain)
            v = gt->use_options ? value_general(gt, (uint32_t)n)
                                : BY_WIDTH(gt, value_rules, gt, n);
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
        if (width_for(v) > gt->gw) {
            if (gt->mapped) {
                void *p = gs_widen(gt->store, gt->gv, gt->gw, width_for(v), gt->n);
                if (!p)
                    return grundy_table_oom(gt->n, width_for(v), err);
                gt->gv = p;
                gt->gw = width_for(v);
                gt->blk_ok = false;
            } else if (!grundy_gv_widen(&gt->gv, &gt->gw, gt->n, gt->cap, width_for(v))) {
                return grundy_table_oom(gt->cap, width_for(v), err);
            }
        }
        gv_set(gt->gv, gt->gw, n, v);
        gt->n++;
        if (v > gt->maxval) {
            gt->maxval = v;
            if (gt->plain)
                ensure_seen(gt);
        }
        if (gt->sparse && n >= 1 && value_class(gt, n, v) == gt->rho) {
            add_rare(gt, n);
            check_window(gt);
            /* Too many rare positions: the mask no longer fits; rechoose. */
            if (gt->nrare > 64 && gt->nrare * 4 > gt->n && gt->next_choose > gt->n + gt->n / 8) {
                gt->next_choose = gt->n + gt->n / 8;
                gt->blk_ok = false;
            }
        }
    }
    return CGT_OK;
}

/* ---- hooks of the parallel stretches (src/lib/grundy/grundy_par.c) ----------------- */

void grundy_par_progress(const GrundyTable *w, uint64_t n)
{
    report_progress(w, n, n);
}

uint64_t grundy_par_batch(const GrundyTable *w, uint8_t *rows, uint64_t n0, uint32_t len,
                          uint32_t lo)
{
    return BY_WIDTH(w, batch_rows, w, rows, grundy_row_span(w), n0, len, lo);
}

void grundy_par_flat(GrundyTable *w, uint64_t n0, uint32_t lenb)
{
    build_flat(w, n0, lenb);
}

uint32_t grundy_par_head(GrundyTable *w, uint64_t n, uint8_t **row, size_t *need)
{
    *row = BY_WIDTH(w, sparse_marks, w, n);
    return BY_WIDTH(w, block_head, w, n, *row, sparse_class(w, n), need);
}

bool grundy_par_scan(GrundyTable *w, uint64_t n, uint8_t *row, uint32_t mc, size_t need)
{
    if (w->store)
        set_scan_lim(w, n);
    BY_WIDTH(w, scan_missing, w, n, mc, need, row);
    return first_unseen(row, mc) == mc;
}

void grundy_row_pack(const GrundyTable *w, const uint8_t *s8, uint32_t span, uint64_t *bits)
{
#if GRUNDY_X512
    if (w->x512) {
        grundy_x512_row_pack(s8, span, bits);
        return;
    }
#else
    (void)w;
#endif
    for (uint32_t q = 0; 64 * q < span; q++) {
        uint64_t word = 0;
        for (uint32_t j = 0; j < 8 && 64 * q + 8 * j < span; j++) {
            uint32_t o = 64 * q + 8 * j;
            uint64_t x = 0;
            memcpy(&x, s8 + o, span - o < 8 ? span - o : 8);
            /* each byte's bits into its lowest, then the eight lowest
             * bits into one byte by a multiply (their products do not
             * overlap, so nothing carries) */
            x |= x >> 4;
            x |= x >> 2;
            x |= x >> 1;
            x &= 0x0101010101010101u;
            word |= ((x * 0x0102040810204080u) >> 56) << (8 * j);
        }
        bits[q] = word;
    }
}

void grundy_row_unpack(const GrundyTable *w, const uint64_t *bits, uint32_t span, uint8_t *s8)
{
#if GRUNDY_X512
    if (w->x512) {
        grundy_x512_row_unpack(bits, span, s8);
        return;
    }
#else
    (void)w;
#endif
    for (uint32_t q = 0; 64 * q < span; q++)
        for (uint32_t j = 0; j < 8; j++) {
            /* bit i of the byte to byte i: byte i keeps bit i of a copy,
             * and adding 0x7f carries it to the byte's top bit */
            uint64_t y = ((bits[q] >> (8 * j)) & 255) * 0x0101010101010101u;
            y &= 0x8040201008040201u;
            y = ((y + 0x7f7f7f7f7f7f7f7fu) >> 7) & 0x0101010101010101u;
            memcpy(s8 + 64 * q + 8 * j, &y, 8);
        }
}

/* tail_start and tail_pure of src/lib/grundy/grundy_kern.h through grundy_get, for
 * a table with a compressed middle. */
static uint64_t tail_start_any(const GrundyTable *gt, uint64_t N, uint64_t p, int64_t s)
{
    uint64_t m = N - p;
    while (m > 0 && (int64_t)grundy_get(gt, m - 1 + p) - (int64_t)grundy_get(gt, m - 1) == s)
        m--;
    return m;
}

static uint64_t tail_pure_any(const GrundyTable *gt, uint64_t N, uint64_t p, TailCands *tc)
{
    if (grundy_get(gt, N - 1 - p) != grundy_get(gt, N - 1))
        return N - p;
    uint64_t from = N - p;
    for (size_t j = 0; j < tc->n; j++)
        if (p % tc->p[j] == 0 && tc->i[j] < from)
            from = tc->i[j];
    uint64_t i = tail_start_any(gt, from + p, p, 0);
    if (tc->n < TAIL_CANDS && N - i >= 2 * p + 64 && !tail_redundant(tc, p, i)) {
        tc->p[tc->n] = p;
        tc->i[tc->n++] = i;
    }
    return i;
}

uint64_t grundy_tail_pure(const GrundyTable *gt, uint64_t N, uint64_t p, TailCands *tc)
{
    if (gt->store)
        return tail_pure_any(gt, N, p, tc);
    return BY_BASE(gt, tail_pure, gt->gv, N, p, tc);
}

uint64_t grundy_tail_next(const GrundyTable *gt, uint64_t N, uint64_t p, uint64_t pmax, bool two)
{
    if (gt->store)
        return p;
    return BY_WIDTH(gt, tail_next, gt->gv, N, p, pmax, two);
}

/* Least i such that G(m+p) - G(m) == s for all i <= m < N-p. */
uint64_t grundy_tail_start(const GrundyTable *gt, uint64_t N, uint64_t p, int64_t s)
{
    if (gt->store)
        return tail_start_any(gt, N, p, s);
    return BY_BASE(gt, tail_start, gt->gv, N, p, s);
}
