/* Internal interface of the m,n,k solver (games/mnk*.c), not for other
 * modules: the geometry, the table of proven positions, the solver state
 * and the functions the solver's files share.  Split by concern:
 *   mnk_geo.c     geometry, symmetric keys, table, potentials, domination
 *   mnk_pair.c    Theorem 1 reduction and pairing strategies
 *   mnk_search.c  the Maker-Breaker and strong searches
 *   mnk_proof.c   proof files (docs/mnk.md "Proof files")
 *   mnk_ckpt.c    checkpoints of the table
 *   mnk.c         the public API (games/mnk.h), root search and threads */
#ifndef CGT_GAMES_MNK_INT_H
#define CGT_GAMES_MNK_INT_H
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "games/mnk.h"
#include "util/error.h"

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
typedef struct Tt {
    uint64_t *key;
    uint64_t *zone;
    uint8_t *val;
    uint8_t *work;
    size_t cap, used, max_cap;
    uint64_t evictions;    /* entries dropped */
    pthread_mutex_t *lock; /* while root workers share the table (NULL otherwise): held
                            * by every lookup and store, and by a checkpoint save */
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
    size_t proof_map_cap;   /* slots of each generation of the proof writer's map */
    uint64_t proof_rotations; /* generations of that map dropped */
} Solver;


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
/* mnk_geo.c */
void mnk_geo_init(Geo *g, int m, int n, int k);
void mnk_geo_free(Geo *g);
/* Canonical Zobrist key of (x, o) under the board symmetries (minimum of
 * the 8 or 4 images); salt separates tables that share a key space.  *symp
 * (if not NULL) gets the symmetry whose image is the canonical one. */
uint64_t mnk_geo_key_sym(const Geo *g, uint64_t x, uint64_t o, uint64_t salt, int *symp);
uint64_t mnk_geo_key(const Geo *g, uint64_t x, uint64_t o, uint64_t salt);
/* A cell set mapped to its canonical image (symmetry s of geo_key_sym), and back. */
uint64_t mnk_zone_to_canon(const Geo *g, int s, uint64_t z);
uint64_t mnk_zone_from_canon(const Geo *g, int s, uint64_t z);
void mnk_tt_alloc(Tt *t, size_t cap);
void mnk_tt_init(Tt *t);
void mnk_tt_free(Tt *t);
/* Value stored for key (0 if none); *zone (if not NULL) gets its zone. */
int mnk_tt_get_zone(const Tt *t, uint64_t key, uint64_t *zone);
int mnk_tt_get(const Tt *t, uint64_t key);
/* Store val, zone and work for key, replacing an earlier entry of the key. */
void mnk_tt_store(Tt *t, uint64_t key, int val, uint64_t zone, int work);
void mnk_tt_put_zone(Tt *t, uint64_t key, int val, uint64_t zone);
void mnk_tt_put(Tt *t, uint64_t key, int val);
/* About log2(n + 1): the work byte of a result that took n nodes. */
int mnk_work_of(uint64_t n);
void mnk_evaluate(const Geo *g, uint64_t x, uint64_t o, bool want_inter, Eval *e);
uint64_t mnk_undominated(const Eval *e, uint64_t cand);
int mnk_dominator(const Eval *e, uint64_t cand, int v);
long mnk_max_weight(const Eval *e);
int mnk_order_moves(const long *w, uint64_t cand, int *out);
uint64_t mnk_potential_zone(const Geo *g, uint64_t x, uint64_t o, const Eval *e,
                            bool maker_to_move);

/* mnk_pair.c */
uint64_t mnk_reduce(const Geo *g, uint64_t x, uint64_t o, int (*pairs)[2], int *npairs,
                    uint64_t *singles);
/* The cells of the pairs found by mnk_find_pairing. */
uint64_t mnk_pair_cells(const PairSearch *ps);
/* A pairing covering every live line of (x, o), into *ps; false if none found. */
bool mnk_find_pairing(const Geo *g, uint64_t x, uint64_t o, PairSearch *ps, int budget);

/* mnk_search.c */
bool mnk_tick(Solver *s);
int mnk_maker_quick(Solver *s, uint64_t x, uint64_t *op, Eval *e, uint64_t *key, int *symp,
                    int *move, bool use_tt, uint64_t *zone);
bool mnk_mb_maker_node(Solver *s, uint64_t x, uint64_t o, int *move, uint64_t *zone);
bool mnk_mb_breaker_node(Solver *s, uint64_t x, uint64_t o, int *reply, uint64_t *zone);
void mnk_threats_of(const Geo *g, uint64_t a, uint64_t d, uint64_t *thr, bool *complete);
int mnk_strong_moves(const Geo *g, uint64_t a, uint64_t d, uint64_t cand, int *mv);
bool mnk_strong_att(Solver *s, uint64_t a, uint64_t d, int *move);
bool mnk_strong_def(Solver *s, uint64_t a, uint64_t d);

/* mnk_proof.c: kind 'M' Maker-Breaker (claim from breaker_wins), 'A' strong,
 * X to move and winning, 'H' strong, X to move and not winning. */
CgtStatus mnk_write_proof(Solver *s, const char *path, uint64_t x, uint64_t o,
                          bool maker_to_move, bool breaker_wins, int kind, uint64_t *nlines);

/* mnk_ckpt.c */
CgtStatus mnk_save_checkpoint(Solver *s);
CgtStatus mnk_load_checkpoint(Solver *s);

#endif
