/* Genetic programming for Grundy-value formulas, after Huggan and
 * Tennenhouse, "An investigation into the application of genetic
 * programming to combinatorial game theory" (arXiv 2021), which used
 * gplearn (Stephens 2015).  Tree programs over exact 64-bit integers
 * (semantics of every function in docs/gp.md), ramped half-and-half
 * initialisation, lexicase (default) or tournament selection, subtree
 * crossover, subtree / hoist / point mutation, elitism and parsimony
 * pressure.  Programs are stored as
 * prefix arrays; read backwards they are postfix code, evaluated over all
 * data rows at once.  Fitness evaluation is pure and may use several
 * threads; the RNG (src/lib/util/rng.h) is used by the calling thread only, so a
 * seed gives the same result for any thread count.
 *
 * Ownership: GpData and GpResult are owned by the caller (free with
 * gp_data_free / gp_result_free); every function borrows its inputs. */
#ifndef CGT_GAMES_GP_H
#define CGT_GAMES_GP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

/* The function set (paper, Section 1.1).  Names as printed: "ADD", ... */
typedef enum {
    GP_ADD,
    GP_SUB,
    GP_TIMES,
    GP_DIVIDE,
    GP_MOD,
    GP_LOG,
    GP_PLUS1,
    GP_XOR,
    GP_AND,
    GP_OR,
    GP_NOT,
    GP_EQUAL,
    GP_LESS,
    GP_GREATER,
    GP_NFUNCS
} GpFunc;

typedef enum {
    GP_FIT_ABS,  /* total absolute error (the paper's) */
    GP_FIT_NIM,  /* total nim-sum distance: sum of (prediction XOR value) */
    GP_FIT_MATCH /* number of rows not matched exactly */
} GpFitness;

typedef enum {
    GP_SEL_TOURNAMENT, /* gplearn's: best of `tournament` random programs */
    GP_SEL_LEXICASE    /* lexicase over the training rows (default) */
} GpSelection;

/* The default function set: arithmetic, MOD, XOR (for nim-sums) and the
 * comparisons.  DIVIDE, LOG, AND, OR and NOT are available on request; the
 * measurements behind this choice are in docs/gp.md. */
#define GP_DEFAULT_FUNCTIONS                                                                      \
    ((1u << GP_ADD) | (1u << GP_SUB) | (1u << GP_TIMES) | (1u << GP_MOD) | (1u << GP_PLUS1) |     \
     (1u << GP_XOR) | (1u << GP_EQUAL) | (1u << GP_LESS) | (1u << GP_GREATER))
#define GP_ALL_FUNCTIONS ((1u << GP_NFUNCS) - 1)

/* Lexicase keeps every program's error on every row: population x rows is
 * capped (about 10 bytes per cell). */
#define GP_LEXICASE_MAX_CELLS 20000000

#define GP_MAX_VARS 16
#define GP_MAX_CONSTS 32
#define GP_MAX_LENGTH 1024

/* A data set: rows of `nvars` integer inputs and one target value. */
typedef struct GpData {
    int nvars;
    char *names[GP_MAX_VARS]; /* terminal names, owned */
    size_t nrows, cap;
    int64_t *x; /* row-major: x[row * nvars + v] */
    int64_t *y;
} GpData;

/* New empty data set with `nvars` inputs (1..GP_MAX_VARS) named
 * names[0..nvars-1] (copied; NULL gives x1, x2, ...).  Returns NULL if
 * nvars is out of range. */
GpData *gp_data_new(int nvars, const char *const *names);
/* Append one row (x has nvars entries; copied). */
void gp_data_add(GpData *d, const int64_t *x, int64_t y);
/* Free a data set (NULL allowed). */
void gp_data_free(GpData *d);

/* The built-in games whose heap positions can be a data set.  Values come
 * from games/bitgames (heap forms, which the tests check against the
 * bit-string searches). */
typedef enum {
    GP_GAME_GA1,   /* ga1 runs: nim-sum of ga1 single-run values */
    GP_GAME_GA2,   /* ga2 runs: heap-form search (not a disjunctive sum) */
    GP_GAME_KAYLES /* Kayles (0.77) heaps, nim-sum */
} GpGame;

/* Look a game up by name: "ga1", "ga2", "kayles".  CGT_ERR_DOMAIN if
 * unknown (the hint lists the names). */
CgtStatus gp_game_lookup(const char *name, GpGame *out, CgtError *err);

/* Which positions make the data set: every tuple (h1..hk) with
 * min_heaps <= k <= max_heaps and lo <= hi <= hi, as variables h1..h<max>
 * (missing heaps are 0), plus the variable "n" = k when count_terminal.
 * The held-out set holds the tuples with sizes in lo..hi+heldout_extra
 * having at least one size > hi (none when heldout_extra is 0). */
typedef struct GpGameSpec {
    GpGame game;
    int min_heaps, max_heaps;
    int lo, hi;
    bool count_terminal;
    int heldout_extra;
} GpGameSpec;

/* Callback for other heap games: the Grundy value of heaps[0..k-1]. */
typedef CgtStatus (*GpValueFn)(void *ctx, const int *heaps, int k, int64_t *out,
                               CgtError *err);

/* Build the training and held-out data sets of a spec with values from
 * `fn` (NULL: the built-in game spec->game).  *test is NULL when
 * heldout_extra is 0.  The caller owns both.  Errors: CGT_ERR_DOMAIN for
 * bad ranges (lo < 1, lo > hi, heaps out of 1..GP_MAX_VARS-1, more than
 * 200000 rows) and whatever `fn` returns; interrupts. */
CgtStatus gp_data_game(const GpGameSpec *spec, GpValueFn fn, void *ctx, GpData **train,
                       GpData **test, CgtError *err);

typedef struct GpParams {
    int population;       /* default 1000 */
    int generations;      /* default 20 (generation 0 is the random one) */
    int tournament;       /* default 20 */
    double p_crossover;   /* default 0.9 */
    double p_subtree;     /* subtree mutation, default 0.01 */
    double p_hoist;       /* hoist mutation, default 0.01 */
    double p_point;       /* point mutation, default 0.01 */
    double p_point_replace; /* per-node probability in point mutation, 0.05 */
    double parsimony;     /* penalty per node added to the raw fitness, 0.001 */
    int elitism;          /* best programs copied unchanged, default 10 */
    int init_depth_min, init_depth_max; /* ramped half-and-half, 2..6 */
    int max_length;       /* offspring longer than this are not kept, 50 */
    int const_min, const_max; /* integer constants, default 0..3 */
    uint32_t functions;   /* bit set of GpFunc, default GP_DEFAULT_FUNCTIONS */
    GpFitness fitness;    /* default GP_FIT_ABS */
    int threads;          /* 1 or 2 (default 2) */
    uint64_t seed;        /* default 1 */
    bool stop_on_perfect; /* stop when every training row matches, default true */
    GpSelection selection; /* default GP_SEL_LEXICASE */
} GpParams;

/* Fill p with the defaults above. */
void gp_params_default(GpParams *p);

/* Set p->functions from a comma- or space-separated list such as
 * "ADD,SUB,MOD"; the words "all" and "default" stand for those sets.
 * CGT_ERR_DOMAIN for an unknown name or an empty list. */
CgtStatus gp_params_set_functions(GpParams *p, const char *list, CgtError *err);

/* Check a parameter set (population >= 1, generations >= 0, tournament in
 * 1..population, probabilities in [0,1] with sum <= 1, depths, constants,
 * a non-empty function set, threads 1..2).  CGT_ERR_DOMAIN naming the bad
 * parameter. */
CgtStatus gp_params_check(const GpParams *p, CgtError *err);

typedef struct GpResult {
    char *formula;         /* functional notation, e.g. MOD(ADD(h1,h2),3); owned */
    char *infix;           /* simplified infix, e.g. (h1 + h2 + 1) mod 3; owned */
    double raw_fitness;    /* on the training set, by params->fitness */
    double train_accuracy; /* fraction of training rows matched exactly */
    double test_accuracy;  /* same on the held-out set, -1 if none */
    int generation;        /* generation in which this program was first best */
    int generations_run;   /* generations actually run (early stop) */
    int length, depth;     /* nodes and depth of the program */
    uint64_t seed;
    long long programs_evaluated;
    double seconds;        /* wall time of the run (not for output diffs) */
} GpResult;

/* Run GP on `train` (and report the accuracy of the best program on `test`,
 * which may be NULL).  `test` must have the same number of variables.
 * Errors: CGT_ERR_DOMAIN for bad parameters or an empty training set;
 * CGT_ERR_LIMIT when lexicase would need population x rows above
 * GP_LEXICASE_MAX_CELLS;
 * CGT_ERR_INTERRUPTED / CGT_ERR_LIMIT from cgt_poll between generations.
 * Progress: one cgt_progress("gp", ...) line per generation.  The caller
 * owns res (gp_result_free). */
CgtStatus gp_run(const GpParams *p, const GpData *train, const GpData *test, GpResult *res,
                 CgtError *err);

/* Free the strings of a result (safe on a zeroed result). */
void gp_result_free(GpResult *res);

/* Parse a formula in functional notation (the `formula` field) with the
 * terminal names of d and evaluate it on every row of d; *accuracy is the
 * fraction of rows matched exactly.  CGT_ERR_DOMAIN for a syntax error or
 * unknown name.  Lets a user re-check a published formula. */
CgtStatus gp_formula_accuracy(const char *formula, const GpData *d, double *accuracy,
                              CgtError *err);

/* Evaluate a formula in functional notation on one row: the variables
 * names[0..nvars-1] (1..GP_MAX_VARS) take the values x[0..nvars-1].
 * CGT_ERR_DOMAIN for a syntax error, an unknown name or a bad nvars. */
CgtStatus gp_formula_eval(const char *formula, int nvars, const char *const *names,
                          const int64_t *x, int64_t *out, CgtError *err);

/* The simplified infix form (as GpResult.infix) of a formula in functional
 * notation over the variable names of d; *infix is owned by the caller.
 * CGT_ERR_DOMAIN for a syntax error or unknown name. */
CgtStatus gp_formula_infix(const char *formula, const GpData *d, char **infix, CgtError *err);

#endif
