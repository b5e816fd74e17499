/* Internal interface of the m,n,k solver (games/mnk*.c), not for other
 * modules: the geometry, the table of proven positions, the solver state
 * and the functions the solver's files share.  Split by concern:
 *   mnk_geo.c     geometry, symmetric keys, table, potentials, domination
 *   mnk_pair.c    Theorem 1 reduction and pairing strategies
 *   mnk_search.c  the Maker-Breaker and strong searches
 *   mnk_proof.c   proof files (docs/mnk.md "Proof files")
 *   mnk_ckpt.c    checkpoints of the table
 *   mnk_par.c     the root Maker node and the parallel search (threads)
 *   mnk.c         the public API (src/lib/mnk/mnk.h) and the root of the game */
#ifndef CGT_GAMES_MNK_INT_H
#define CGT_GAMES_MNK_INT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/mnk/mnk.h"
#include "lib/util/error.h"

/* Population count without relying on a popcnt instruction (the portable
 * build has none, and libgcc's fallback is slow). */
static inline int pc64(uint64_t v)
{
    v = v - ((v >> 1) & 0x5555555555555555ULL);
    v = (v & 0x3333333333333333ULL) + ((v >> 2) & 0x3333333333333333ULL);
    v = (v + (v >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((v * 0x0101010101010101ULL) >> 56);
}

/* Three instances of the solver (boards of up to 64, 128 and 256 cells):
 * this file and the solver's files
 * (mnk_geo.c, mnk_pair.c, mnk_search.c, mnk_proof.c, mnk_ckpt.c, mnk.c,
 * mnk_par.c) are
 * compiled once with Bits = uint64_t for boards of at most 64 cells (the
 * speed of those boards is unchanged), once with -DMNK_WIDE=1 (the Makefile's
 * $(BUILD)/obj/src/lib/mnk/wide1/) with Bits = unsigned __int128 for 65 to 128 cells (functions renamed
 * mnkw_*), and once with -DMNK_WIDE=2 (wide2/) with Bits a vector of
 * four 64-bit words (GCC's vector extension: & | ^ ~ work word by word) for
 * 129 to MNK_MAX_BOARD cells (mnkx_*).  The search code handles Bits only
 * through & | ^ ~ and the helpers below (never b - 1, b >> c or b == 0,
 * which mean something else for a vector), so one source serves all three;
 * for the scalar instances the helpers are the old expressions. */
#if defined MNK_WIDE && MNK_WIDE == 2
#pragma GCC diagnostic ignored "-Wpsabi" /* Bits by value, inside one file */
typedef uint64_t Bits __attribute__((vector_size(32), aligned(8)));
#define MNK_CELLS 256
#define PS_WORDS 16
#define MNK_PFX(f) mnkx_##f
static inline bool bits_any(Bits b)
{
    return (b[0] | b[1] | b[2] | b[3]) != 0;
}
static inline int bits_ctz(Bits b)
{
    for (int i = 0; i < 3; i++)
        if (b[i])
            return 64 * i + __builtin_ctzll(b[i]);
    return 192 + __builtin_ctzll(b[3]);
}
static inline int bits_pc(Bits b)
{
    return pc64(b[0]) + pc64(b[1]) + pc64(b[2]) + pc64(b[3]);
}
static inline Bits BIT(int c)
{
    Bits r = {0};
    r[c >> 6] = 1ULL << (c & 63);
    return r;
}
static inline bool bits_has(Bits b, int c)
{
    return b[c >> 6] >> (c & 63) & 1;
}
/* b without its lowest cell, and its lowest cell alone */
static inline Bits bits_drop(Bits b)
{
    for (int i = 0; i < 4; i++)
        if (b[i]) {
            b[i] &= b[i] - 1;
            break;
        }
    return b;
}
static inline Bits bits_low(Bits b)
{
    Bits r = {0};
    for (int i = 0; i < 4; i++)
        if (b[i]) {
            r[i] = b[i] & (~b[i] + 1);
            break;
        }
    return r;
}
static inline bool bits_eq(Bits a, Bits b)
{
    return !bits_any(a ^ b);
}
/* word i (0 = cells 0..63) */
static inline uint64_t bits_word(Bits b, int i)
{
    return b[i];
}
#elif defined MNK_WIDE
__extension__ typedef unsigned __int128 Bits;
#define MNK_CELLS 128
#define PS_WORDS 8
#define MNK_PFX(f) mnkw_##f
static inline int bits_ctz(Bits b)
{
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}
static inline int bits_pc(Bits b)
{
    return pc64((uint64_t)b) + pc64((uint64_t)(b >> 64));
}
static inline uint64_t bits_word(Bits b, int i)
{
    return (uint64_t)(b >> (64 * i));
}
#else
typedef uint64_t Bits;
#define MNK_CELLS 64
#define PS_WORDS 4
static inline int bits_ctz(Bits b)
{
    return __builtin_ctzll(b);
}
static inline int bits_pc(Bits b)
{
    return pc64(b);
}
static inline uint64_t bits_word(Bits b, int i)
{
    (void)i;
    return b;
}
#endif
#if !defined MNK_WIDE || MNK_WIDE == 1
#define BIT(c) ((Bits)1 << (c))
static inline bool bits_any(Bits b)
{
    return b != 0;
}
static inline bool bits_has(Bits b, int c)
{
    return b >> c & 1;
}
static inline Bits bits_drop(Bits b)
{
    return b & (b - 1);
}
static inline Bits bits_low(Bits b)
{
    return b & (~b + 1);
}
static inline bool bits_eq(Bits a, Bits b)
{
    return a == b;
}
#endif
/* The 256-bit instance's nodes keep about 100 KB on the stack (Eval and
 * PairSearch of 256 cells) and the search is as deep as the empty cells,
 * so it runs in threads with a large stack (reserved, touched only as deep
 * as the search goes): src/lib/mnk/mnk.c. */
#define MNK_WIDE4_STACK ((size_t)512 << 20)

#define BITS0 ((Bits){0})
#define BITS_ALL (~BITS0)
/* the cells 0 .. n-1 (n <= MNK_CELLS) */
static inline Bits bits_below(int n)
{
    Bits r = BITS0;
    for (int c = 0; c < n; c++)
        r |= BIT(c);
    return r;
}
/* Bits words of a board of `cells` cells (checkpoints write them in hex) */
#define BITS_WORDS ((int)(sizeof(Bits) / 8))
#ifdef MNK_PFX
#define mnk_solve_inst MNK_PFX(solve_inst)
#define mnk_potential_inst MNK_PFX(potential_inst)
#define mnk_dominator MNK_PFX(dominator)
#define mnk_evaluate MNK_PFX(evaluate)
#define mnk_find_pairing MNK_PFX(find_pairing)
#define mnk_geo_free MNK_PFX(geo_free)
#define mnk_geo_init MNK_PFX(geo_init)
#define mnk_geo_key MNK_PFX(geo_key)
#define mnk_geo_key_sym MNK_PFX(geo_key_sym)
#define mnk_maker_quick MNK_PFX(maker_quick)
#define mnk_max_weight MNK_PFX(max_weight)
#define mnk_mb_breaker_node MNK_PFX(mb_breaker_node)
#define mnk_mb_maker_node MNK_PFX(mb_maker_node)
#define mnk_order_moves MNK_PFX(order_moves)
#define mnk_pair_cells MNK_PFX(pair_cells)
#define mnk_potential_zone MNK_PFX(potential_zone)
#define mnk_reduce MNK_PFX(reduce)
#define mnk_strong_att MNK_PFX(strong_att)
#define mnk_strong_def MNK_PFX(strong_def)
#define mnk_strong_moves MNK_PFX(strong_moves)
#define mnk_threats_of MNK_PFX(threats_of)
#define mnk_tick MNK_PFX(tick)
#define mnk_tt_alloc MNK_PFX(tt_alloc)
#define mnk_tt_free MNK_PFX(tt_free)
#define mnk_tt_get MNK_PFX(tt_get)
#define mnk_tt_get_zone MNK_PFX(tt_get_zone)
#define mnk_tt_init MNK_PFX(tt_init)
#define mnk_tt_put MNK_PFX(tt_put)
#define mnk_tt_put_zone MNK_PFX(tt_put_zone)
#define mnk_tt_reader MNK_PFX(tt_reader)
#define mnk_tt_store MNK_PFX(tt_store)
#define mnk_tt_work MNK_PFX(tt_work)
#define mnk_root_search MNK_PFX(root_search)
#define mnk_par_children MNK_PFX(par_children)
#define mnk_undominated MNK_PFX(undominated)
#define mnk_work_of MNK_PFX(work_of)
#define mnk_zone_from_canon MNK_PFX(zone_from_canon)
#define mnk_zone_to_canon MNK_PFX(zone_to_canon)
#define mnk_write_proof MNK_PFX(write_proof)
#define mnk_save_checkpoint MNK_PFX(save_checkpoint)
#define mnk_load_checkpoint MNK_PFX(load_checkpoint)
#endif

/* ---------------------------------------------------------------- geometry */

typedef struct Geo {
    int m, n, k, cells, nlines, nsym;
    Bits full;
    Bits *line;   /* cell mask of each k-line */
    int *cl_start;    /* lines through cell c: cl_idx[cl_start[c] .. cl_start[c+1]) */
    int *cl_idx;
    uint8_t sym[8][MNK_CELLS];
    uint8_t inv[8][MNK_CELLS];    /* inv[s][sym[s][c]] = c */
    uint64_t zob[8][2][MNK_CELLS]; /* zob[s][colour][c] = base[colour][sym[s][c]] */
} Geo;

/* ----------------------------------------------------- transposition table */

/* Open addressing on the 64-bit key.  zone[i] is the relevance zone of a
 * result (in the canonical image's cells; docs/mnk.md "Relevance zones"),
 * work[i] about log2 of the nodes its search took (0 for cheap results).
 * With max_cap (slots, a power of two; 0 = no limit) the table does not grow
 * past it: when it is half full, the entries of least work are dropped
 * until at most a quarter is left (only proven results are stored, so
 * dropping one costs time, never correctness).  Only proven results are
 * stored, so the root workers can share one table: an entry any of them
 * stores is valid for all (docs/mnk.md "Determinism and threads"). */
/* One worker's flag "inside a lock-free lookup" (a cache line of its own). */
typedef struct TtReader {
    _Alignas(64) atomic_int in;
} TtReader;

typedef struct Tt {
    uint64_t *key;
    Bits *zone;
    uint8_t *val;
    uint8_t *work;
    size_t cap, used, max_cap;
    uint64_t evictions;    /* entries dropped */
    pthread_mutex_t *lock; /* while workers share the table (NULL otherwise): held by
                            * every store and by a checkpoint save, and by the lookups
                            * of a thread without a reader flag */
    TtReader *readers;     /* with lock: the workers' flags for lock-free lookups */
    atomic_uint seq;       /* odd while a store replaces the arrays (with readers) */
    const struct Tt *base; /* an overlay (NULL: none): lookups missing here read base,
                            * which nobody changes meanwhile; stores stay here (the
                            * parallel proof writer, src/lib/mnk/mnk_pproof.c) */
} Tt;

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
    Tt *tt;                 /* the table of proven positions (shared by the root workers) */
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
    struct MnkPar *par;     /* shared state of the parallel search (NULL: one thread) */
    atomic_int *watch;      /* a root move's state: cancel the search when it is 2 (decided) */
    size_t proof_map_cap;   /* slots of each generation of the proof writer's map */
    uint64_t proof_rotations; /* generations of that map dropped */
    atomic_ullong *shared_nodes; /* threaded search: every worker adds its nodes, by
                                  * 1024, for the progress line (NULL: one thread) */
    atomic_ullong *lines_out; /* a proof-writing worker (not is_main): its lines are
                               * counted here instead of a progress line */
} Solver;


/* Per-position analysis for Maker (attacker) marks x and Breaker marks o:
 * potential P (eq. (2)), vertex weights w(v) (eq. (3)), threat cells (the
 * one empty cell of a live line with k-1 Maker marks), whether a line is
 * complete, and for domination the intersection of the live lines through
 * each empty cell (Hsu et al. sec. 3.2: E(v1) is a subset of E(v2) iff v2
 * lies on every live line through v1). */
typedef struct Eval {
    long pot;
    bool complete;
    Bits threats;
    Bits live_cells; /* empty cells on at least one live line */
    long w[MNK_CELLS];
    Bits inter[MNK_CELLS];
} Eval;


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
 * of lines is a bitset of PS_WORDS words (up to 4 lines per cell), and
 * inc[c] is the set of live lines through cell c, so a candidate pair is
 * scored with a few popcounts instead of a pass over every line. */
typedef struct PairSearch {
    const Geo *g;
    int budget;
    int npairs;
    int pairs[MNK_CELLS / 2][2];
    int nw;                            /* words in use */
    Bits lines[4 * MNK_CELLS]; /* live line i, its empty cells */
    uint64_t inc[MNK_CELLS][PS_WORDS];
    uint8_t cnt[4 * MNK_CELLS];    /* unassigned cells of live line i */
    int k;
    uint64_t bucket[MNK_MAX_K + 1][PS_WORDS]; /* lines by their count */
} PairSearch;
/* mnk_geo.c */
void mnk_geo_init(Geo *g, int m, int n, int k);
void mnk_geo_free(Geo *g);
/* Canonical Zobrist key of (x, o) under the board symmetries (minimum of
 * the 8 or 4 images); salt separates tables that share a key space.  *symp
 * (if not NULL) gets the symmetry whose image is the canonical one. */
uint64_t mnk_geo_key_sym(const Geo *g, Bits x, Bits o, uint64_t salt, int *symp);
uint64_t mnk_geo_key(const Geo *g, Bits x, Bits o, uint64_t salt);
/* A cell set mapped to its canonical image (symmetry s of geo_key_sym), and back. */
Bits mnk_zone_to_canon(const Geo *g, int s, Bits z);
Bits mnk_zone_from_canon(const Geo *g, int s, Bits z);
void mnk_tt_alloc(Tt *t, size_t cap);
void mnk_tt_init(Tt *t);
void mnk_tt_free(Tt *t);
/* Value stored for key (0 if none); *zone (if not NULL) gets its zone. */
int mnk_tt_get_zone(const Tt *t, uint64_t key, Bits *zone);
int mnk_tt_get(const Tt *t, uint64_t key);
/* The calling thread's reader flag (index into Tt.readers; -1: none). */
void mnk_tt_reader(int index);
/* Store val, zone and work for key, replacing an earlier entry of the key. */
void mnk_tt_store(Tt *t, uint64_t key, int val, Bits zone, int work);
void mnk_tt_put_zone(Tt *t, uint64_t key, int val, Bits zone);
void mnk_tt_put(Tt *t, uint64_t key, int val);
/* The work byte stored for key (-1 if none; no lock, for a table no one changes). */
int mnk_tt_work(const Tt *t, uint64_t key);
/* About log2(n + 1): the work byte of a result that took n nodes. */
int mnk_work_of(uint64_t n);
void mnk_evaluate(const Geo *g, Bits x, Bits o, bool want_inter, Eval *e);
Bits mnk_undominated(const Eval *e, Bits cand);
int mnk_dominator(const Eval *e, Bits cand, int v);
long mnk_max_weight(const Eval *e);
int mnk_order_moves(const long *w, Bits cand, int *out);
Bits mnk_potential_zone(const Geo *g, Bits x, Bits o, const Eval *e,
                            bool maker_to_move);

/* mnk_pair.c */
Bits mnk_reduce(const Geo *g, Bits x, Bits o, int (*pairs)[2], int *npairs,
                    Bits *singles);
/* The cells of the pairs found by mnk_find_pairing. */
Bits mnk_pair_cells(const PairSearch *ps);
/* A pairing covering every live line of (x, o), into *ps; false if none found. */
bool mnk_find_pairing(const Geo *g, Bits x, Bits o, PairSearch *ps, int budget);

/* mnk_search.c */
bool mnk_tick(Solver *s);
int mnk_maker_quick(Solver *s, Bits x, Bits *op, Eval *e, uint64_t *key, int *symp,
                    int *move, bool use_tt, Bits *zone);
bool mnk_mb_maker_node(Solver *s, Bits x, Bits o, int *move, Bits *zone);
bool mnk_mb_breaker_node(Solver *s, Bits x, Bits o, int *reply, Bits *zone);
void mnk_threats_of(const Geo *g, Bits a, Bits d, Bits *thr, bool *complete);
int mnk_strong_moves(const Geo *g, Bits a, Bits d, Bits cand, int *mv);
bool mnk_strong_att(Solver *s, Bits a, Bits d, int *move);
bool mnk_strong_def(Solver *s, Bits a, Bits d);

/* mnk_par.c: the root Maker node on threads workers (true: Breaker wins;
 * *move a winning move, reply[cell] Breaker's answers to root moves). */
bool mnk_root_search(Solver *s, Bits x, Bits o, int threads, int *move, int *reply);
/* The children of a node in a parallel search (s->par set; ABDADA): the
 * Maker moves mv[0..nm) of a Maker node (maker) or the Breaker replies of
 * a Breaker node.  Returns the index of the child that decides the node
 * (*z its zone plus the move), MNK_PAR_OPEN when none does (*z the union of
 * the children's zones, *skip the moves refuted by them), or, with
 * may_leave, MNK_PAR_SOLVED when another worker proved the node meanwhile
 * (*tv its table value, *tz its canonical zone).  On an error or a
 * cancellation s->st is set and MNK_PAR_OPEN returned. */
enum { MNK_PAR_OPEN = -1, MNK_PAR_SOLVED = -2 };
int mnk_par_children(Solver *s, bool maker, Bits x, Bits o, const int *mv, int nm, Bits empty,
                     uint64_t key, bool may_leave, Bits *z, Bits *skip, int *tv, Bits *tz);

/* mnk_proof.c: kind 'M' Maker-Breaker (claim from breaker_wins), 'A' strong,
 * X to move and winning, 'H' strong, X to move and not winning. */
CgtStatus mnk_write_proof(Solver *s, const char *path, Bits x, Bits o,
                          bool maker_to_move, bool breaker_wins, int kind, uint64_t *nlines);

/* mnk_pproof.c (64-cell instance only): the version-2 proof of a Breaker
 * win of the empty board, Maker to move, written by threads workers, one
 * job proof per class of first moves, merged into path by
 * mnk_merge_proofs (docs/mnk.md "Proof files"). */
CgtStatus mnk_write_proof_par(Solver *s, const char *path, int threads, int stop_after_parts,
                              uint64_t *nlines);

/* mnk_merge.c: whether f starts with the four header lines of a job proof
 * of the m,n,k-game after Maker's first move `move` (version 2, claim
 * breaker, root O); reads those lines. */
bool mnk_job_proof_head(FILE *f, int m, int n, int k, int move);

/* mnk_ckpt.c */
CgtStatus mnk_save_checkpoint(Solver *s);
CgtStatus mnk_load_checkpoint(Solver *s);


/* mnk.c: the solver of one instance, and the potential (src/lib/mnk/mnk.h) */
CgtStatus mnk_solve_inst(int m, int n, int k, const MnkOptions *opt, MnkReport *rep,
                         CgtError *err);
CgtStatus mnk_potential_inst(int m, int n, int k, const char *const *rows, int nrows,
                             long *out, CgtError *err);
CgtStatus mnkw_solve_inst(int m, int n, int k, const MnkOptions *opt, MnkReport *rep,
                          CgtError *err);
CgtStatus mnkw_potential_inst(int m, int n, int k, const char *const *rows, int nrows,
                              long *out, CgtError *err);
CgtStatus mnkx_solve_inst(int m, int n, int k, const MnkOptions *opt, MnkReport *rep,
                          CgtError *err);
CgtStatus mnkx_potential_inst(int m, int n, int k, const char *const *rows, int nrows,
                              long *out, CgtError *err);

/* Cell c of an m x n board under board symmetry s (0..7; 4..7 only for a
 * square): bit 0 mirrors columns, bit 1 rows, bit 2 transposes.  The one
 * convention of the symmetry tables (mnk_geo_init) and the job merge. */
static inline int mnk_sym_cell(int m, int n, int s, int c)
{
    int x = c % m, y = c / m;
    if (s & 1)
        x = m - 1 - x;
    if (s & 2)
        y = n - 1 - y;
    if (s & 4) {
        int t = x;
        x = y;
        y = t;
    }
    return y * m + x;
}

#endif
