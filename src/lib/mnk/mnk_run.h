/* The driver of the `mnk` statement (docs/mnk.md "The driver"): the start
 * position's legality, the solve (src/lib/mnk/mnk.h), the proof's SHA-256
 * and the independent checker run on the proof beside it (a separate
 * program, tests/oracle/mnk_check, that shares no code with cgt).  The
 * statement (src/modules/mnk/bi_mnk.c) reads its options, finds the
 * checker, calls mnk_run and wraps the MnkRun it gets back.  Nothing here
 * prints: errors and hints come back as text, the checker's verdict as
 * its output lines. */
#ifndef CGT_MNK_RUN_H
#define CGT_MNK_RUN_H
#include <stdbool.h>

#include "lib/mnk/mnk.h"
#include "lib/util/error.h"

/* Which argument or option an error is about (where a diagnostic points). */
typedef enum {
    MNK_AT_RUN,
    MNK_AT_K,
    MNK_AT_BOARD,
    MNK_AT_TO_MOVE,
    MNK_AT_VERIFY,
    MNK_AT_CHECKPOINT
} MnkRunAt;

/* Refuse a game where no line of k cells fits on the m x n board (Maker
 * could never win): CGT_ERR_DOMAIN with a hint. */
CgtStatus mnk_check_sides(int m, int n, int k, CgtError *err);

/* Refuse a start position that cannot arise in play: X moves first and the
 * players alternate, so X has as many marks as O (X to move) or one more
 * (O to move).  rows as in MnkOptions (x and o count as X and O); to_move
 * 'X', 'O' or 0 (not given).  CGT_ERR_DOMAIN with *at = MNK_AT_BOARD or
 * MNK_AT_TO_MOVE. */
CgtStatus mnk_check_position(const char *const *rows, int nrows, char to_move, MnkRunAt *at,
                             CgtError *err);

typedef enum {
    MNK_RUN_DONE,    /* solved; with a proof, hashed and (with a checker) accepted */
    MNK_RUN_UNSAVED, /* solved and checked, but the final checkpoint save failed (err) */
    MNK_RUN_FAILED   /* an error (err, at): a stop by a limit, a bad game, a proof that
                      * cannot be read back, a checker that rejects it or cannot run */
} MnkRunStatus;

typedef struct MnkRun {
    MnkRunStatus status;
    MnkRunAt at;
    CgtError err;
    MnkReport rep;       /* the solve's report; rep.proof_sha256 is set with a proof */
    bool checked;        /* the checker ran */
    int check_status;    /* its exit status (0 = accepted); -1: it could not be run */
    char *verdict;       /* lines 1, 2 and 3 of its output (owned; NULL if absent): */
    char *check_root;    /* the verdict, the root it checked, and the seal line */
    char *check_seal;
} MnkRun;

/* Solve the m,n,k-game with the options *o (borrowed; the driver hashes the
 * proof itself, so o->sha_later is ignored) and, when checker is not NULL
 * and o->proof_path is set, run the checker on the proof while the proof is
 * hashed.  *r is filled in every case; release it with mnk_run_free. */
void mnk_run(int m, int n, int k, const MnkOptions *o, const char *checker, MnkRun *r);
void mnk_run_free(MnkRun *r);

#endif
