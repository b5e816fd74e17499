/* m,n,k-games: Maker-Breaker and strong k-in-a-row solver.
 *
 * Conventions (also in docs/mnk.md): m is the number of columns (width), n
 * the number of rows (height).  Cell index i is column i % m (A, B, ...) and
 * row i / m + 1 (row 1 at the bottom, as on a chess board).  Board strings
 * are given top row first, as printed: rows[0] is row n, rows[n-1] is row 1;
 * '.' empty, 'X' Maker / first player, 'O' Breaker / second player.
 * Boards are limited to m * n <= MNK_MAX_BOARD = 256 cells (instances of
 * the solver with 64-, 128- and 256-bit boards, src/lib/mnk/mnk_int.h) and
 * k <= MNK_MAX_K (potentials up to 2^k in 64-bit integers).
 *
 * Methods: W.-Y. Hsu et al., "Solving 7,7,5-game and 8,8,5-game" (preprint
 * of "On solving the 7,7,5-game and the 8,8,5-game", Theoretical Computer
 * Science 815 (2020); section numbers are the preprint's, docs/mnk.md):
 * potential weights and Property 1 (sec. 2.3), partial pairing
 * (Theorem 1, Algorithm 2), pairing strategies (sec. 2.2, Algorithm 3),
 * vertex domination (Theorem 2), And-Or search (Algorithms 4-5). */
#ifndef CGT_GAMES_MNK_H
#define CGT_GAMES_MNK_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/util/error.h"

#define MNK_MAX_CELLS 64   /* the distributed mode and the proof merge (mnk_merge_proofs) */
#define MNK_MAX_BOARD 256  /* the search (instances of 64, 128 and 256 bits) */
#define MNK_MAX_THREADS 8
#define MNK_MAX_K 32

typedef enum { MNK_MAKER_BREAKER, MNK_STRONG } MnkVariant;

typedef enum {
    MNK_RESULT_MAKER,   /* Maker-Breaker: Maker (X) wins */
    MNK_RESULT_BREAKER, /* Maker-Breaker: Breaker (O) wins */
    MNK_RESULT_FIRST,   /* strong: X (the first player from the empty board) wins */
    MNK_RESULT_SECOND,  /* strong: O wins (only possible from a given start position) */
    MNK_RESULT_DRAW     /* strong: neither player can force a k-line */
} MnkResult;

typedef enum {
    MNK_BY_TERMINAL,  /* decided by the position itself (line complete, nothing left) */
    MNK_BY_POTENTIAL, /* Property 1 (Beck's potential below 2^k) at the root */
    MNK_BY_PAIRING,   /* a pairing strategy for the root position */
    MNK_BY_SEARCH     /* And-Or search */
} MnkMethod;

/* Default bound of the proof writer's memory of written positions, in MB. */
#define MNK_PROOF_MAP_MB 6144

/* Default seconds between checkpoint saves during a search. */
#define MNK_CHECKPOINT_EVERY 300

typedef struct MnkOptions {
    MnkVariant variant;
    /* Start position: nrows strings of m characters, top row first; NULL for
     * the empty board.  Borrowed for the duration of mnk_solve. */
    const char *const *rows;
    int nrows;
    /* 'X', 'O', or 0: X to move if #X <= #O, else O. */
    char to_move;
    uint64_t node_limit;       /* 0 = none; reaching it gives CGT_ERR_LIMIT */
    double time_limit;         /* seconds, 0 = none (cgt_poll's --timeout also applies) */
    const char *proof_path;    /* write the proof there (NULL = no); for the strong game
                                * only with X to move (docs/mnk.md) */
    const char *checkpoint;    /* transposition-table file: loaded if present, saved
                                * every checkpoint_every seconds and on any stop */
    double checkpoint_every;   /* seconds (default MNK_CHECKPOINT_EVERY); 0 = only at
                                * the end / on a stop */
    int threads;               /* 1 (default, deterministic) to MNK_MAX_THREADS: the
                                * Maker-Breaker search is shared by threads (one table,
                                * work split below the root, src/lib/mnk/mnk_par.c); same
                                * result, node counts and the winning move may differ */
    bool no_zones;             /* true: search every undominated Maker move (no
                                * relevance-zone pruning; for measurements) */
    double table_mb;           /* 0 = the table grows freely; else its size limit in MB:
                                * at the limit the cheapest results are dropped (the
                                * search gets slower, never wrong); memory peaks at
                                * about twice this while the table is rebuilt */
    double proof_map_mb;       /* memory of the proof writer's map of written positions
                                * (two generations; 0 = MNK_PROOF_MAP_MB): past it older
                                * positions are forgotten and, met again, written again */
    bool sha_later;            /* leave proof_sha256 empty: the caller hashes the proof
                                * (src/lib/mnk/mnk_run.c, while the checker reads it) */
    int stop_after_parts;      /* tests: the threaded proof writer raises SIGTERM in the
                                * process once this many root classes are written, a
                                * stop while writing that does not depend on timing
                                * (src/modules/mnk/bi_mnk.c: $CGT_TEST_STOP_AFTER_PARTS); 0 = never */
} MnkOptions;

typedef struct MnkMove {
    int cell;  /* Maker's move (cell index) */
    int reply; /* Breaker's proven reply, or -1 if Property 1 closes the move */
} MnkMove;

typedef struct MnkReport {
    int m, n, k;
    MnkVariant variant;
    char to_move; /* 'X' or 'O' at the root */
    MnkResult result;
    MnkMethod method;
    uint64_t nodes;      /* search nodes (Maker-Breaker and strong searches together) */
    uint64_t tt_hits;    /* transposition-table hits */
    uint64_t tt_entries; /* table entries at the end (proven positions) */
    double seconds;
    long root_potential; /* potential P of the root position (Beck weights, eq. (2)) */
    long max_after;      /* max potential after one Maker move from the root (Maker to
                          * move; -1 otherwise) */
    int win_move;        /* a winning first move when the side to move wins, else -1 */
    /* Root pairing strategy (method MNK_BY_PAIRING): npairs pairs of cells. */
    int npairs;
    int pairs[MNK_MAX_BOARD / 2][2];
    /* Maker-Breaker, Maker to move, Breaker wins: every Maker move with
     * Breaker's proven reply, in cell order. */
    int nmoves;
    MnkMove moves[MNK_MAX_BOARD];
    uint64_t proof_lines; /* lines written to proof_path (0 if none) */
    uint64_t proof_map_rotations; /* generations of the writer's map dropped (0: every
                                   * position was written once) */
    char proof_sha256[65];        /* SHA-256 of the proof file (hex), "" if none */
    bool unsaved;         /* CGT_ERR_IO only because the final checkpoint save failed:
                           * the result above is complete and valid */
    uint64_t ckpt_read;   /* proven positions read from the checkpoint at the start
                           * (0: none): the search took them as proven without
                           * searching them again, so the result rests on them
                           * (docs/mnk.md "Checkpoints, limits, progress") */
} MnkReport;

/* Fill *o with the defaults: Maker-Breaker, empty board, one thread, no limits. */
void mnk_options_init(MnkOptions *o);

/* Solve the m,n,k-game (m columns, n rows, k in a row) with the options *opt
 * (borrowed) and fill *rep (caller-owned; nothing in it needs freeing).
 * Errors: CGT_ERR_DOMAIN for bad sizes (m, n, k < 1, k > MNK_MAX_K, more
 * than MNK_MAX_BOARD cells), a bad board (wrong row count or length, characters other
 * than . X O), a strong-game start where both players have a line, a
 * strong-game proof with O to move, or threads outside 1..MNK_MAX_THREADS;
 * CGT_ERR_LIMIT for the node or time limit; CGT_ERR_INTERRUPTED on Ctrl-C;
 * CGT_ERR_IO when the proof or checkpoint file cannot be written, or the
 * checkpoint is unreadable, damaged or for another game (CGT_ERR_LIMIT when
 * it holds more positions than table_mb allows).  On a stop the checkpoint
 * (if any) is saved first, so a run can be resumed with the same options;
 * when only the final save fails, rep->unsaved is set and *rep is complete. */
CgtStatus mnk_solve(int m, int n, int k, const MnkOptions *opt, MnkReport *rep, CgtError *err);

/* Potential of a position (paper eq. (1)-(2)): the sum over k-lines without
 * an O of 2^(number of X in the line).  rows as in MnkOptions (NULL = empty
 * board).  Fills *out.  Errors as mnk_solve for bad sizes or boards. */
CgtStatus mnk_potential(int m, int n, int k, const char *const *rows, int nrows, long *out,
                        CgtError *err);

/* Name of a cell in the paper's notation ("C3": column letter, row number
 * from the bottom) into buf (at least 8 bytes); returns buf. */
char *mnk_cell_name(int m, int cell, char *buf);

/* The root pairing of *rep drawn as the paper's Figure 1: n lines of m
 * characters, top row first, paired cells lettered a, b, ... (then A, B, ...),
 * X and O marks, '.' for other cells, each line ended by '\n'.  rows is the
 * start position (NULL = empty).  Returns a new string owned by the caller. */
char *mnk_pairing_board(const MnkReport *rep, const char *const *rows);

/* Distributed solving (docs/mnk.md "Distributed mode"): the first moves of
 * the empty m x n board up to the board symmetries, as the smallest cell of
 * each class, into rep (at least m * n ints); returns their number. */
int mnk_root_classes(int m, int n, int *rep);

/* One job of a split root: Maker's first move (a cell of the empty board)
 * and the version-2 proof mnk_solve wrote for the position after it, with
 * Breaker to move (a Breaker win; its top node is a B node). */
typedef struct MnkJob {
    int move;
    const char *proof;
    bool consume; /* remove the job proof once it is copied (a disk too small for both) */
} MnkJob;

/* Merges the proofs of jobs covering every first move (up to symmetry) into
 * one version-2 proof at out (written atomically) that Breaker wins the
 * empty board with Maker to move; *nodes gets its node count.  Errors:
 * CGT_ERR_IO for an unreadable, damaged or foreign job proof or an
 * unwritable out, CGT_ERR_DOMAIN when a first move has no job.  A job
 * with consume is removed as soon as its nodes are in the temporary file
 * (so the disk holds the parts and the merged proof only once, plus one
 * part); if the merge then fails, that job proof is gone. */
CgtStatus mnk_merge_proofs(int m, int n, int k, const MnkJob *jobs, int njobs, const char *out,
                           uint64_t *nodes, CgtError *err);

const char *mnk_result_name(MnkResult r);  /* "maker", "breaker", "first", "second", "draw" */
const char *mnk_method_name(MnkMethod m);  /* "terminal", "potential", "pairing", "search" */
const char *mnk_variant_name(MnkVariant v); /* "maker-breaker", "strong" */

#endif
