/* Internal to the Grundy engine (src/lib/grundy/grundy.c, grundy_period.c,
 * grundy_ckpt.c): the table's layout and the helpers the three share. */
#ifndef CGT_GRUNDY_INT_H
#define CGT_GRUNDY_INT_H

#include <pthread.h>
#include <stdlib.h>

#include "lib/grundy/grundy.h"
#include "lib/grundy/grundy_store.h"
#include "lib/util/xalloc.h"

#define SPARSE_START 256
/* Compaction (docs/games.md §2): a raw prefix of 2^20 values, chunks of
 * 2^22 values, from 2^24 values on unless grundy_set_compact says else. */
#define COMPACT_PREFIX ((uint64_t)1 << 20)
#define COMPACT_CHUNK ((uint64_t)1 << 22)
#define COMPACT_DEFAULT ((uint64_t)1 << 24)

struct GrundyTable {
    const Ruleset *rs;
    /* G(0..n-1), gw bytes each (1, 2 or 4: the narrowest width that holds
     * every value so far; widened in place when a larger value comes) */
    void *gv;
    unsigned gw;
    bool simd;        /* the AVX2 kernels (grundy_set_simd) */
    bool x512;        /* and the AVX-512 pair scan (src/lib/grundy/grundy_x512.c) */
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
    uint64_t *scan_r; /* scratch: the split remainders n - k of one heap */
    /* sparse space */
    bool sparse;      /* enabled (after SPARSE_START) */
    bool e_allowed;   /* all split k have equal parity */
    uint32_t mask;    /* value mask */
    unsigned e;       /* heap parity folded in */
    unsigned rho;     /* the rare class (the less frequent one) */
    uint64_t *rare;   /* ascending positions a >= 1 in the rare class */
    uint32_t *rare_v; /* rare_v[j] = G(rare[j]) */
    size_t nrare, rare_cap;
    uint64_t *hist;   /* histogram over ext values, 2^(hbits+1) entries */
    unsigned hbits;
    uint64_t next_choose;
    uint8_t *vcls;    /* vcls[v] = parity(v & mask), v < seen_words*64 */
    uint8_t *seen8;   /* sparse engine's seen-sets: blk_len rows of span bytes */
    size_t seen8_cap;
    bool blk_ok;      /* rows hold the batched rare pairs of heaps blk_n0.. */
    uint64_t blk_n0;
    uint32_t blk_len, blk_span;
    uint32_t blk_lenb; /* the batch covers rare a >= blk_lenb (blk_len, or more in a parallel stretch) */
    uint64_t blk_bcnt; /* batched rare pairs of each heap of the block (rare_pairs per heap) */
    unsigned cb_max;   /* words of ranks of the bit-set batch at most (0: off; grundy_set_rank_words) */
    /* pair values below 64 (src/lib/grundy/grundy_bits.h): the block's rows as
     * one-word bit sets, and the two value classes as bit sets; with values
     * from 64 to 127 (few rare positions), the heaps done in bits and of
     * those the ones done again on a byte row */
    bool blk_bits, bits_off; /* bits_off: grundy_set_bitsets(gt, false) */
    uint64_t bits_wide, bits_redo;
    uint64_t *bits_rows;
    size_t bits_cap;
    uint64_t cls_bits[2];
    /* the block's rare pairs with a < blk_len as (k + a, G(a)) */
    bool flat_ok;
    uint32_t *flat_d, *flat_x;
    /* the same list for grundy_x512_flat_bits (bit-set blocks): 129 - d and
     * x as bytes, padded to whole vectors; flat_win when every d is 2..129 */
    uint8_t *flat_i8, *flat_x8;
    size_t flat_cap8;
    bool flat_win;
    size_t flat_n, flat_cap, flat_low; /* flat_low: rare positions < blk_len */
    HeapOptions opts;
    uint64_t rare_pairs, scan_pairs; /* work counters for the statistics */
    /* progress: the goal of the current run (grundy_run_period's limit, or
     * the extend target) and where and when the run started */
    uint64_t goal, run_n0;
    double run_t0;
    bool stepping; /* inside grundy_run_period: keep its goal */
    bool use_options; /* general rulesets: go through ruleset_options */
    /* compaction (docs/games.md §2, "Compressed middle"): heaps
     * [gs_begin, gs_end) of `store` live only there; the flat table keeps
     * the prefix below and the window above (the pages between are given
     * back and made inaccessible).  mapped: gv is our mmap of GRUNDY_TABLE_BOUND
     * values. */
    GStore *store;
    bool mapped;
    uint64_t compact_from; /* compact once the table is this long (0: never) */
    bool compact_set;      /* set by grundy_set_compact (also for period runs) */
    uint64_t compact_chunk, compact_prefix; /* values per chunk, raw prefix */
    uint64_t compact_next; /* after a decompaction: not before this many values */
    bool spill;            /* chunks go to a spill file (grundy_set_spill) */
    uint64_t scan_lim;     /* the kernel's pair scans read raw pairs (a, r-a) for a <= this */
    uint32_t max_splitk;
    /* parallel stretches (src/lib/grundy/grundy_par.c, docs/games.md §2 "Two
     * threads"): the thread count asked for (1: never), the first heap a
     * stretch may start at (after a stretch stopped at an event heap: the
     * heap after it, par_gap heaps later when stretches keep stopping
     * after little work), the lock around the compressed store's decode
     * cache (set only while workers run) */
    unsigned threads;
    uint64_t par_next, par_gap;
    bool par_backoff_off; /* grundy_set_par_backoff(gt, false) */
    pthread_mutex_t *store_lock;
    /* statistics (grundy_par_stats) */
    uint64_t par_runs, par_dropped;
    double par_cpu[GRUNDY_PAR_CPU], par_wait[GRUNDY_PAR_CPU];
    /* provenance (grundy_read_values): G(read_from..read_to-1) were read
     * from checkpoint files (read_paths, ", "-separated, in the order read)
     * and not computed in this process; read_to = 0: every value was */
    uint64_t read_from, read_to;
    char *read_paths;
    uint64_t recheck_work; /* grundy_set_recheck_work, when recheck_set */
    bool recheck_set;
};

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

/* At least `bytes` bytes of seen rows in gt->seen8 (contents not kept). */
static inline void ensure_seen8(GrundyTable *gt, size_t bytes)
{
    if (bytes > gt->seen8_cap) {
        free(gt->seen8);
        gt->seen8_cap = bytes;
        gt->seen8 = xmalloc(bytes);
    }
}

/* The number of rare positions below x (binary search of the list). */
static inline size_t rare_index(const GrundyTable *gt, uint64_t x)
{
    size_t lo = 0, hi = gt->nrare;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (gt->rare[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The rare positions a with lo <= a < hi, as indices [*j0, *j1) of the
 * ascending list gt->rare: the batched rare pairs of a block (start_block
 * and its variants) run over them. */
static inline void rare_range(const GrundyTable *gt, uint64_t lo, uint64_t hi, size_t *j0,
                              size_t *j1)
{
    *j0 = rare_index(gt, lo);
    *j1 = hi > lo ? rare_index(gt, hi) : *j0;
}

/* Split i's batched rare positions for the block from heap n0: its
 * amount *k and the indices [*j0, *j1) of the rare a with lo <= a < n0 - k;
 * false when n0 < k + lo, where split i and every later one (splitk
 * ascending) have none. */
static inline bool batch_split(const GrundyTable *gt, size_t i, uint64_t n0, uint64_t lo,
                               uint32_t *k, size_t *j0, size_t *j1)
{
    *k = gt->splitk[i];
    if (n0 < (uint64_t)*k + lo)
        return false;
    rare_range(gt, lo, n0 - *k, j0, j1);
    return true;
}

/* Whether the batch of the block n0 .. n0+len-1 (rare a >= lo, rows of
 * span bytes) may take the bit-set form (grundy_x512_cbatch): the lowest
 * bit t of the mask below 6, every split's pairs of one class (e = 0 or
 * all splits of one parity), whole 64-byte lines of at least 64 values per
 * row, and no partner of a batched pair rare: the partners of split k lie
 * from n0 - k - (its largest batched a) up, all above the last rare
 * position. */
static inline bool cb_block_ok(const GrundyTable *gt, uint32_t span, uint64_t n0, uint32_t len,
                               uint32_t lo)
{
    if (!gt->mask || (gt->mask & -gt->mask) >= 64 || (gt->e && !gt->e_allowed) || span % 64 ||
        len > 64 || !gt->nrare)
        return false;
    uint64_t top = gt->rare[gt->nrare - 1];
    uint32_t k;
    size_t j0, j1;
    for (size_t i = 0; i < gt->nsplitk && batch_split(gt, i, n0, lo, &k, &j0, &j1); i++)
        if (j1 > j0 && n0 - k - gt->rare[j1 - 1] <= top)
            return false;
    return true;
}

/* The class (value parity) of C_r for heap n of the sparse engine: the
 * class of the values that pairs with exactly one rare part give. */
static inline unsigned sparse_class(const GrundyTable *gt, uint64_t n)
{
    return 1u ^ (gt->e & ((n - gt->splitk[0]) & 1));
}

/* Narrowest width (bytes) that holds v. */
static inline unsigned width_for(uint32_t v)
{
    return v <= UINT8_MAX ? 1 : v <= UINT16_MAX ? 2 : 4;
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

/* The tail scans of src/lib/grundy/grundy_kern.h for the table's width (through
 * grundy_get when the table has a compressed middle): grundy_tail_start is
 * the least i with G(m+p) - G(m) == s for all i <= m < N-p; grundy_tail_pure
 * is that with s = 0, using and updating the candidates tc. */
uint64_t grundy_tail_pure(const GrundyTable *gt, uint64_t N, uint64_t p, TailCands *tc);
uint64_t grundy_tail_start(const GrundyTable *gt, uint64_t N, uint64_t p, int64_t s);
/* The least p' in [p, pmax] that tail_pure must look at: G(N-1-p') ==
 * G(N-1) and, when two, G(N-2-p') == G(N-2) (pmax + 1 when none; p itself
 * with a compressed middle).  N >= pmax + 2. */
uint64_t grundy_tail_next(const GrundyTable *gt, uint64_t N, uint64_t p, uint64_t pmax, bool two);

/* Bytes of seen rows per block of heaps: the block's rows stay in L1. */
#define BLOCK_BYTES 20480
/* After a block's len rows of span bytes, at the next 64-byte boundary:
 * the bit-set form of its batch (grundy_x512_cbatch): word 0 is the
 * number of words per heap (0: the batch is in the rows), then from word
 * GRUNDY_CB_SETS those words, 64 per word index (up to 64 heaps).
 * GRUNDY_CB_BYTES: the room to allocate beyond the rows. */
#define GRUNDY_CB_WORDS 4
#define GRUNDY_CB_SETS 8
#define GRUNDY_CB_BYTES (63 + 8 * (GRUNDY_CB_SETS + 64 * GRUNDY_CB_WORDS))
static inline uint64_t *blk_cbits(uint8_t *rows, uint32_t len, uint32_t span)
{
    return (uint64_t *)(void *)(rows + (((size_t)len * span + 63) & ~(size_t)63));
}
/* Bytes of one seen row of the byte path (src/lib/grundy/grundy.c). */
uint32_t grundy_row_span(const GrundyTable *gt);

/* Heaps of the sparse engine's block from heap n0 with rows of span bytes:
 * BLOCK_BYTES of rows, 1 to 64 heaps, none past limit or the next mask
 * choice. */
static inline uint32_t block_len(const GrundyTable *gt, uint32_t span, uint64_t n0, uint64_t limit)
{
    uint32_t len = BLOCK_BYTES / span;
    if (len > 64)
        len = 64;
    if (len > 16) /* whole vectors of heaps in the AVX-512 batch */
        len &= ~15u;
    if (len < 1)
        len = 1;
    if (limit - n0 < len)
        len = (uint32_t)(limit - n0);
    if (gt->next_choose > n0 && gt->next_choose - n0 < len)
        len = (uint32_t)(gt->next_choose - n0);
    return len;
}

/* Hooks of the parallel stretches (src/lib/grundy/grundy.c for src/lib/grundy/grundy_par.c):
 * the progress line of heap n (the producer's, at the serial loop's
 * multiples of 65536), the batched rare pairs of a block (batch_rows:
 * rows of heaps n0 .. n0+len-1, rare a >= lo; returns the pairs per heap),
 * the block's list of the rare a < lenb (build_flat), step 1 of value_sparse for
 * heap n of the block (returns mc, the least unseen value of C_r; *row is
 * its row and *need the number of unseen values below mc, which are then
 * looked for by the scan; bytes from mc on are set when *need), and that
 * scan on the row (true when it finds every missing value, so G(n) = mc;
 * false when heap n is rare). */
void grundy_par_progress(const GrundyTable *w, uint64_t n);
uint64_t grundy_par_batch(const GrundyTable *w, uint8_t *rows, uint64_t n0, uint32_t len,
                          uint32_t lo);
void grundy_par_flat(GrundyTable *w, uint64_t n0, uint32_t lenb);
uint32_t grundy_par_head(GrundyTable *w, uint64_t n, uint8_t **row, size_t *need);
bool grundy_par_scan(GrundyTable *w, uint64_t n, uint8_t *row, uint32_t mc, size_t need);
/* A seen row of span bytes as a bit set (bit v of word v / 64: s8[v] !=
 * 0), (span + 63) / 64 words, and back (as bytes 0 and 1, filling the
 * words' 64 (span + 63) / 64 bytes): a parallel stretch hands a heap's row
 * to the thread that scans it in this form. */
void grundy_row_pack(const GrundyTable *w, const uint8_t *s8, uint32_t span, uint64_t *bits);
void grundy_row_unpack(const GrundyTable *w, const uint64_t *bits, uint32_t span, uint8_t *s8);
/* Compute heaps gt->n .. end-1 with gt->threads threads (grundy_par.c);
 * stops early, before the heap, at an event heap (a new largest value, a
 * rare class from step 1, a failed scan: a rare heap) or when cgt_poll
 * asks: the serial loop then does that heap.
 * The table, counters and rare list end as the serial loop leaves them. */
void grundy_par_run(GrundyTable *gt, uint64_t end);

/* The AVX-512 pair scan (src/lib/grundy/grundy_x512.c), built with GCC on x86-64:
 * whether the processor has what it needs (AVX-512 F, BW, VL, VBMI and
 * BMI2), and the block loop of scan_missing after its first pairs, for
 * tables of width gw 1 or 2 whose pair values and mc are at most 256 (gw 1)
 * or 512 (gw 2), or with nt = 2 (4) permute tables (gw 2 only) 1024
 * (2048).  Same blocks of 64 pairs
 * per remainder, same marks of the missing values in s8 and the same count
 * in *sp as the loop it replaces; returns the pair index it stopped at
 * (with *need values still missing). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GRUNDY_X512 1
#define GRUNDY_X512_MAXR 16 /* at most this many split remainders */
bool grundy_x512_supported(void);
uint64_t grundy_x512_scan(const void *gv, unsigned gw, const uint64_t *rr, size_t nr, uint64_t a,
                          uint64_t hmax, uint32_t mc, size_t *need, uint8_t *s8, uint64_t *sp,
                          unsigned nt);
/* The inner loop of batch_rows (src/lib/grundy/grundy_kern.h) for the rare
 * positions rare[j0..j1-1] (values rv[j]) of one split: rows[h * span +
 * (rv[j] ^ G(base - rare[j] + h))] = 1 for h < len (len <= 64, len * span
 * <= 65536).  Returns j1 - j0. */
uint64_t grundy_x512_batch(const void *gv, unsigned gw, const uint64_t *rare, const uint32_t *rv,
                           size_t j0, size_t j1, uint64_t base, uint8_t *rows, uint32_t span,
                           uint32_t len);
/* The batched rare pairs of one split as bit sets over the ranks of the
 * class C_r (batch_rows' bit-set form, for blocks where no partner of a
 * batched pair is rare): word d of heap h, cb[GRUNDY_CB_SETS + 64 d + h],
 * |= the ranks 64d .. 64d+63 (d < nwd <= GRUNDY_CB_WORDS) of the values
 * rv[j] ^ G(base - rare[j] + h), h < len <= 64; the rank of a value drops
 * its bit t, the lowest bit of the mask (t < 6). */
void grundy_x512_cbatch(const void *gv, unsigned gw, const uint64_t *rare, const uint32_t *rv,
                        size_t j0, size_t j1, uint64_t base, uint32_t len, unsigned t,
                        unsigned nwd, uint64_t *cb);
/* sparse_head for heap h of such a block (the other marks in its row s8,
 * span bytes, a multiple of 64; vcls the classes): mc, the least value of
 * class cc of rank below 64 nwd that neither gives, with every value of cc
 * below it then marked in s8 and in *need the number of values still
 * unseen below it; UINT32_MAX when there is none. */
uint32_t grundy_x512_cb_head(uint8_t *s8, const uint8_t *vcls, uint32_t span, unsigned cc,
                             const uint64_t *cb, uint32_t h, unsigned nwd, size_t *need);
/* grundy_row_pack and grundy_row_unpack, 64 bytes per instruction. */
void grundy_x512_row_pack(const uint8_t *s8, uint32_t span, uint64_t *bits);
void grundy_x512_row_unpack(const uint64_t *bits, uint32_t span, uint8_t *s8);
/* The batched rare pairs of start_block_bits (src/lib/grundy/grundy_bits.h) for
 * rare[j0..j1-1] of one split: rows[h] |= the set {rv[j] ^ G(base -
 * rare[j] + h)} (empty for values of 64 and more) for h < len <= 64. */
void grundy_x512_bits_batch(const uint8_t *g, const uint64_t *rare, const uint32_t *rv, size_t j0,
                            size_t j1, uint64_t base, uint64_t *rows, uint32_t len);
/* The flat list's marks of value_sparse_bits (src/lib/grundy/grundy_bits.h) for
 * heap n >= 129: the set {x[q] ^ G(n - 129 + idx[q])} (empty for values of
 * 64 and more) over q < cnt; idx and x hold cnt rounded up to 64 bytes
 * (the padding's lanes are left out). */
uint64_t grundy_x512_flat_bits(const uint8_t *g, uint64_t n, const uint8_t *idx,
                               const uint8_t *x, size_t cnt);
/* The block loop of scan_bits (src/lib/grundy/grundy_bits.h) from pair index *ap:
 * one-byte values below 64, seen-set s, the values miss looked for; the
 * same blocks, marks of miss and count in *sp; returns s and sets *ap. */
uint64_t grundy_x512_scan_bits(const uint8_t *g, const uint64_t *rr, size_t nr, uint64_t *ap,
                               uint64_t hmax, uint64_t s, uint64_t miss, uint64_t *sp);
#else
#define GRUNDY_X512 0
#endif
/* The AVX2 copy of grundy_x512_bits_batch (src/lib/grundy/grundy_avx2.c), for
 * processors with AVX2 but without those AVX-512 loops. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GRUNDY_AVX2_BITS 1
void grundy_avx2_bits_batch(const uint8_t *g, const uint64_t *rare, const uint32_t *rv, size_t j0,
                            size_t j1, uint64_t base, uint64_t *rows, uint32_t len);
#else
#define GRUNDY_AVX2_BITS 0
#endif

/* A new store of gt's keeps its chunks in a spill file when gt->spill
 * (src/lib/grundy/grundy_store.h gs_spill; the directory: $TMPDIR, else /tmp). */
void grundy_spill_store(const GrundyTable *gt, GStore *gs);

/* Free the value table and its compressed middle (the engine state stays). */
void grundy_table_release(GrundyTable *gt);
/* Forget the sparse engine's state (mask, rare list, histogram). */
void grundy_reset_engine(GrundyTable *gt);
/* After a checkpoint of `count` values was read into a table that held
 * `before`: G(before..count-1) came from `path` (grundy_read_values). */
void grundy_note_read(GrundyTable *gt, uint64_t before, uint64_t count, const char *path);
/* Widen the n values of *gv (capacity cap) from width *w to w2 > *w, in
 * place; false (table untouched) when out of memory. */
bool grundy_gv_widen(void **gv, unsigned *w, uint64_t n, uint64_t cap, unsigned w2);
/* The limit error for a table of HEAPS values of WIDTH bytes. */
CgtStatus grundy_table_oom(uint64_t heaps, unsigned width, CgtError *err);

#endif
