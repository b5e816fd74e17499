/* Normal-play Grundy values of heap rulesets: a growable table G(0..N-1),
 * periodicity (the octal periodicity theorem, Winning Ways ch. 4; Guy and
 * Smith 1956, generalised in docs/games.md to moves leaving q heaps),
 * arithmetic periodicity (observed only), huge-heap lookups once a period is
 * proved, and checkpoint files.  Fast path: the sparse-space method for
 * plain codes (see docs/games.md and grundy.c). */
#ifndef CGT_GAMES_GRUNDY_H
#define CGT_GAMES_GRUNDY_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/ruleset.h"
#include "lib/util/error.h"

typedef struct GrundyTable GrundyTable;

/* The bound on the heaps of a Grundy table (docs/games.md §7 "Heap
 * sizes"): 2^40, the address space the table with a compressed middle
 * reserves (src/lib/grundy/grundy_store.h GS_MAP_VALUES); past it only a proved
 * period answers (G(n) = G(pre + (n - pre) mod p), any GMP integer n).
 * Heap indices in the engine are 64-bit; values stay 32-bit. */
#define GRUNDY_TABLE_BOUND 1099511627776ull

/* The shared error for a heap past a bound (CGT_ERR_LIMIT; `heap` is the
 * heap's decimal digits, `bound` this one or the runtime's search bound,
 * `hint` NULL for the default hint). */
void grundy_beyond_error(CgtError *err, const char *heap, uint64_t bound, const char *hint);

typedef enum {
    PERIOD_NONE,      /* nothing found in the values computed */
    PERIOD_PROVED,    /* pure period proved by the periodicity theorem */
    PERIOD_OBSERVED,  /* pure period seen in the values, not proved */
    PERIOD_ARITH      /* arithmetic period (saltus != 0), observed only */
} PeriodStatus;

typedef struct GrundyPeriod {
    PeriodStatus status;
    uint64_t period;      /* p (0 when status == PERIOD_NONE) */
    uint64_t preperiod;   /* least i with G(n+p) = G(n) + saltus for all n >= i */
    int64_t saltus;       /* 0 for a pure period */
    uint64_t proof_n;     /* PROVED: the largest heap whose value the proof used */
    uint64_t checked;     /* number of values G(0..checked-1) examined */
    bool has_exceptional; /* some n < preperiod has G(n) != periodic continuation */
    uint64_t last_exceptional; /* largest such n (= preperiod-1 when preperiod > 0) */
} GrundyPeriod;

/* New empty table for rs (borrowed: rs must outlive the table).  The caller
 * owns the table; free with grundy_free. */
GrundyTable *grundy_new(const Ruleset *rs);
void grundy_free(GrundyTable *gt);
/* Drop every computed value (keeps the ruleset). */
void grundy_clear(GrundyTable *gt);

/* Make sure G(0..n-1) are computed (extends from the current count; never
 * recomputes).  Polls for Ctrl-C/timeout and reports progress under
 * "grundy".  Errors: CGT_ERR_INTERRUPTED, CGT_ERR_LIMIT (values computed so
 * far are kept), CGT_ERR_LIMIT also for n > GRUNDY_TABLE_BOUND
 * (grundy_beyond_error). */
CgtStatus grundy_extend(GrundyTable *gt, uint64_t n, CgtError *err);

/* Number of values computed; G(n) for n < grundy_count; G(from ..
 * from+count-1) copied into out.  The table stores each value in 1, 2 or 4
 * bytes (grundy_width: the narrowest width that holds every value so far). */
uint64_t grundy_count(const GrundyTable *gt);
uint32_t grundy_get(const GrundyTable *gt, uint64_t n);
void grundy_copy(const GrundyTable *gt, uint64_t from, uint64_t count, uint32_t *out);
unsigned grundy_width(const GrundyTable *gt);
/* Largest value computed so far. */
uint32_t grundy_max(const GrundyTable *gt);

/* The default number of values `period` and `table` compute for rs, scaled
 * with the cost of its heaps: 2^25 for plain two-heap codes (the sparse
 * engine), 6761 when a move leaves three heaps (N^3/36 <= 2^33 triples),
 * 20000 for other rulesets. */
uint64_t grundy_default_limit(const Ruleset *rs);
/* The cost model behind it and the progress estimate: the work of heap n
 * grows like n^d, d = 3 with three-heap moves (about n^2/12 triples per
 * heap), 2 for general rulesets with splits (every pair), 1 otherwise (the
 * sparse engine). */
int grundy_cost_degree(const Ruleset *rs);

/* Compute values until a period is proved or `limit` values exist, then
 * fill *out with the smallest proved period if the theorem's bound is met,
 * else an observed pure or arithmetic period, else PERIOD_NONE.  For rulesets where the theorem does
 * not apply (unbounded take, conditions on parts) it computes all `limit`
 * values and reports at most an observed period.  Errors as for
 * grundy_extend (then *out describes the values computed so far). */
CgtStatus grundy_run_period(GrundyTable *gt, uint64_t limit, GrundyPeriod *out, CgtError *err);

/* G(n) for any n: from the table, or from a proved period (instant for huge
 * n).  Errors: CGT_ERR_DOMAIN if n is beyond the table and no period is
 * proved (hint: compute further). */
CgtStatus grundy_value_at(const GrundyTable *gt, const GrundyPeriod *per, uint64_t n,
                          uint32_t *value, CgtError *err);

/* Exceptional heaps: the n < preperiod with G(n) differing from the periodic
 * continuation G(n + j*p), n + j*p >= preperiod.  Returns their number and,
 * when list != NULL, a new array (caller frees) of them in ascending order. */
size_t grundy_exceptional(const GrundyTable *gt, const GrundyPeriod *per, uint64_t **list);

/* One row of the periodic table (Winning Ways layout): row[c] = G(r*p + c)
 * for c = 0..p-1, from the table or the proved period.  Errors as for
 * grundy_value_at. */
CgtStatus grundy_table_row(const GrundyTable *gt, const GrundyPeriod *per, uint64_t r,
                           uint32_t *row, CgtError *err);

/* Nim-sum of heaps[0..k-1]; extends the table as needed.  Errors as for
 * grundy_extend. */
CgtStatus grundy_position(GrundyTable *gt, const uint64_t *heaps, size_t k, uint32_t *value,
                          CgtError *err);

/* Checkpoints (format in grundy.c and docs/games.md): save writes the
 * values atomically, sealed with a CRC-64 (src/lib/util/atomicfile.h).  load
 * verifies the seal, the version, the game (the file's name must equal the
 * ruleset's) and every value's domain; values already in the table must
 * equal the file's.  It keeps the longer of the two tables and sets
 * *file_count to the file's count (0 when there is no file: CGT_OK, table
 * untouched).  A refused file is never modified.  Errors: CGT_ERR_IO
 * (cannot open/write/rename, unreadable, not a regular file, damaged),
 * CGT_ERR_DOMAIN (not a checkpoint, other version, other game, impossible
 * values). */
CgtStatus grundy_save(const GrundyTable *gt, const char *path, CgtError *err);
CgtStatus grundy_load(GrundyTable *gt, const char *path, uint64_t *file_count, CgtError *err);
/* Provenance of the values: true when G(*from..*to-1) were read from
 * checkpoints (their paths in *paths, ", "-separated, borrowed from gt)
 * by grundy_load and not computed in this process.  A checkpoint's values
 * are checked against their domain only (recomputing them costs what
 * computing them did), so every value from *from on, and everything
 * derived from them (a period, its proof), rests on the files; values
 * below *from were computed here and the files agreed with them.  False
 * when every value was computed here; grundy_clear resets it. */
bool grundy_read_values(const GrundyTable *gt, uint64_t *from, uint64_t *to, const char **paths);
/* grundy_load recomputes the prefix G(0..T-1) of a checkpoint whose heaps
 * have at most `work` options in all (ruleset_options_bound; default 2^27,
 * docs/games.md "Checkpoints") and compares it with the file; the values
 * past T are read only.  Tests and the fuzzer set less. */
void grundy_set_recheck_work(GrundyTable *gt, uint64_t work);

/* Compressed middle (docs/games.md §2): once the table holds `from` values
 * (default 2^24; 0 = never), values below the raw window the engine reads
 * are kept Huffman-coded in chunks (sparse engine, values below 4096, a
 * bounded rare set); grundy_get and the rest read them transparently.
 * By default `grundy_run_period` does not compact (its period search reads
 * every value at each check); after this call it does too.  chunk_log2
 * (8..30; other values keep the default 22) sets the chunk length 2^c and
 * the raw prefix min(2^c, 2^20), small for tests. */
void grundy_set_compact(GrundyTable *gt, uint64_t from, unsigned chunk_log2);
/* The compressed chunks in a spill file (on by default): the file is made
 * in $TMPDIR (else /tmp) and unlinked at once, and its pages are mapped
 * back read-only, so the chunks take disk, not the process's memory (a
 * deep pair scan, a checkpoint or the period search pages in what it
 * reads).  Off: the chunks stay in memory. */
void grundy_set_spill(GrundyTable *gt, bool on);
/* Bytes the values take in memory now: the raw parts at grundy_width
 * bytes each and the compressed chunks not spilled; grundy_spill_bytes:
 * the spill file's. */
size_t grundy_bytes(const GrundyTable *gt);
uint64_t grundy_spill_bytes(const GrundyTable *gt);

/* Threads for the extension (docs/games.md §2 "Two threads"; default 1):
 * with T >= 2 the sparse engine's byte path computes stretches of heaps
 * on T threads, with the same values, rare lists, counters and checkpoints
 * as one thread; other paths stay on one thread.  0 counts as 1. */
void grundy_set_threads(GrundyTable *gt, unsigned threads);
/* Statistics of the parallel stretches so far: their number, the heaps
 * computed on a speculative value and dropped (those from a rare heap,
 * found by its failed scan, to where the producer was), and for the first
 * min(ncpu, GRUNDY_PAR_CPU) worker threads (thread 0 is the caller's) the
 * CPU seconds of each (spinning included) and the wall seconds each spent
 * waiting for the others (wait may be NULL). */
#define GRUNDY_PAR_CPU 8
void grundy_par_stats(const GrundyTable *gt, uint64_t *stretches, uint64_t *dropped, double *cpu,
                      double *wait, unsigned ncpu);

/* The inner loops in their AVX2 copy (32-byte vectors; GCC on x86-64
 * only, chosen by default when the processor has AVX2) or in the baseline
 * one (SSE2 on x86-64); same values and counters.  Returns whether the
 * AVX2 copy is now in use.  Turning it on also turns on the AVX-512 pair
 * scans and batch (src/lib/grundy/grundy_x512.c) where the processor has AVX-512
 * F, BW, VL, VBMI, VBMI2 and BITALG. */
bool grundy_set_simd(GrundyTable *gt, bool on);
/* With the AVX2 copy in use, the AVX-512 loops on or off (to compare the
 * two); returns whether they are now in use. */
bool grundy_set_x512(GrundyTable *gt, bool on);

/* The one-word bit sets of src/lib/grundy/grundy_bits.h (one-byte tables with
 * small values, on by default) on or off; off, every block takes the byte
 * rows, with the same values and counters (tests compare the two paths,
 * and the parallel stretches, which run on the byte rows only). */
void grundy_set_bitsets(GrundyTable *gt, bool on);

/* The AVX-512 form of the batched rare pairs of the byte rows, as words of
 * ranks of a value class (docs/games.md §2): at most `words` 64-bit words
 * per heap (1 to 4; 4, the default, is as many as the largest value
 * needs), 0 for the byte rows' batch instead.  With fewer words more heaps
 * mark their pairs one by one; values and counters are the same (the
 * tests run both ways; the benchmark driver's option `rankw=W`). */
void grundy_set_rank_words(GrundyTable *gt, unsigned words);

/* With threads, after a parallel stretch that stopped early (an event or
 * a failed scan) having done little work, the serial loop takes the next
 * heaps, more of them while stretches stay that short (on by default;
 * src/lib/grundy/grundy_par.c).  Off, a stretch starts again
 * at the heap after every event, as many times as there are events: the
 * tests use it to run the speculative paths often. */
void grundy_set_par_backoff(GrundyTable *gt, bool on);

/* For rulesets that are not plain, compute through ruleset_options (slow,
 * the same options as the direct loops used by default); for tests. */
void grundy_use_option_lists(GrundyTable *gt, bool on);

/* Statistics of the last extension (for benchmarks and --stats): the
 * sparse-space mask (value bits, bit 31 = heap parity folded in; 0 = not
 * used) and the number of rare positions. */
void grundy_stats(const GrundyTable *gt, uint32_t *mask, uint64_t *nrare);
/* The largest rare heap under the current mask (0 when none or not used). */
uint64_t grundy_last_rare(const GrundyTable *gt);
/* Work done by the sparse-space engine so far: pairs enumerated with a rare
 * part, and pairs looked at by the short scans. */
void grundy_work(const GrundyTable *gt, uint64_t *rare_pairs, uint64_t *scan_pairs);

#endif
