/* A plain generational genetic algorithm over fixed-length chromosomes
 * (Holland 1975; the operators as in Goldberg, "Genetic Algorithms in
 * Search, Optimization and Machine Learning", 1989, ch. 1 and 4, and
 * Mitchell, "An Introduction to Genetic Algorithms", 1996, ch. 1 and 5):
 * a random population, parents chosen by tournament, "uniform" tournament
 * or truncation selection, one-point, two-point or uniform crossover giving
 * two children, per-gene mutation, optional elitism, and independent runs
 * keeping the best chromosome (docs/gp.md, "Genetic algorithms").
 *
 * A chromosome is `length` genes, each an integer 0..alleles-1; the caller
 * maps genes to letters or to a range of integers.  The fitness is a
 * callback (the interpreter's function, in cgt) returning an integer to
 * maximise.  The callback is called from the calling thread only, one
 * chromosome at a time in a fixed order, so a seed gives the same result
 * on every machine; the engine itself never starts a thread.
 *
 * Ownership: GaResult is owned by the caller (ga_result_free). */
#ifndef CGT_GA_GA_H
#define CGT_GA_GA_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/util/error.h"
#include "lib/util/rng.h"

#define GA_MAX_LENGTH 100000
#define GA_MAX_POPULATION 1000000
#define GA_MAX_ALLELES 2147483647u

typedef enum {
    GA_SEL_TOURNAMENT, /* `tournament` entrants drawn with replacement; the
                          best wins with probability p_win, else the next
                          best with p_win, ... (the last takes the rest) */
    GA_SEL_UNIFORM,    /* each member enters with probability p_enter;
                          the best entrant wins (one drawn if none did) */
    GA_SEL_TRUNCATION  /* a parent drawn uniformly from the best
                          `truncation` fraction of the population */
} GaSelection;

typedef enum {
    GA_X_ONE_POINT, /* cut after k genes, 1 <= k <= length-1; swap the tails */
    GA_X_TWO_POINT, /* swap the genes between two cuts */
    GA_X_UNIFORM    /* swap each gene with probability 1/2 */
} GaCrossover;

typedef struct GaParams {
    int length;            /* genes per chromosome, 1..GA_MAX_LENGTH */
    uint32_t alleles;      /* values per gene, 2..GA_MAX_ALLELES */
    int population;        /* default 50 */
    int generations;       /* default 100; generation 0 is the random one */
    GaSelection selection; /* default GA_SEL_TOURNAMENT */
    int tournament;        /* entrants, default 2 */
    double p_win;          /* tournament: probability that the best wins, default 1 */
    double p_enter;        /* uniform: entry probability, default 0.2 */
    double truncation;     /* truncation: the fraction kept, default 0.5 */
    GaCrossover crossover; /* default GA_X_ONE_POINT */
    double p_crossover;    /* probability a pair of parents is crossed, default 1 */
    double mutation;       /* per-gene mutation probability, default 0.005 */
    int elitism;           /* best chromosomes copied unchanged, default 0 */
    int runs;              /* independent runs, default 1 */
    uint64_t seed;         /* default 1 */
    long long budget;      /* at most this many fitness evaluations in all, 0 = none */
    bool has_target;       /* stop once a chromosome reaches `target` */
    int64_t target;
} GaParams;

void ga_params_default(GaParams *p);
/* CGT_ERR_DOMAIN naming the bad parameter: length, alleles, population
 * (at least 2), generations >= 1, tournament 1..population, probabilities
 * in [0,1], truncation in (0,1], elitism below the population, runs >= 1,
 * budget >= 0. */
CgtStatus ga_params_check(const GaParams *p, CgtError *err);

/* The fitness of genes[0..length-1] into *out.  A status other than
 * CGT_OK stops the run and is returned by ga_run (err filled by the
 * callback, or left alone when the caller keeps its own record). */
typedef CgtStatus (*GaFitnessFn)(void *ctx, const int32_t *genes, int length, int64_t *out,
                                 CgtError *err);

/* How a search ended. */
typedef enum {
    GA_END_GENERATIONS, /* every run did all its generations */
    GA_END_TARGET,      /* a chromosome reached the target */
    GA_END_BUDGET       /* the evaluation budget was spent */
} GaEnd;

typedef struct GaResult {
    int length;
    int32_t *best; /* the best chromosome over all runs (first found) */
    int64_t best_fitness;
    int best_run;        /* 0-based run that found it */
    int best_generation; /* the generation of that run where it first appeared */
    /* the history of the best run: generation g (0..nhist-1) had best
     * fitness hist_best[g] and mean fitness hist_mean[g] */
    int nhist;
    int64_t *hist_best;
    double *hist_mean;
    int runs_done;     /* runs started (the last may be cut by a limit) */
    int64_t *run_best; /* runs_done entries: the best fitness of each run */
    long long evaluations;
    GaEnd end;
    uint64_t seed;
} GaResult;

/* Run the search.  The result holds the best so far also when the run
 * stops with an error after generation 0 of run 0 was evaluated
 * (res->best != NULL): Ctrl-C or --timeout at the next cgt_poll (polled
 * before every evaluation) give CGT_ERR_INTERRUPTED or CGT_ERR_LIMIT, and
 * a failing callback its own status.  Progress: cgt_progress("ga", ...)
 * once per generation. */
CgtStatus ga_run(const GaParams *p, GaFitnessFn fn, void *ctx, GaResult *res, CgtError *err);
void ga_result_free(GaResult *res);

/* ---- the operators, for the engine and its tests */

/* One-point crossover after the first k genes (0 <= k <= len): c1 = a[0..k)
 * b[k..len), c2 = b[0..k) a[k..len). */
void ga_one_point(const int32_t *a, const int32_t *b, int len, int k, int32_t *c1, int32_t *c2);
/* Two-point crossover: the genes i..j-1 (0 <= i <= j <= len) exchanged. */
void ga_two_point(const int32_t *a, const int32_t *b, int len, int i, int j, int32_t *c1,
                  int32_t *c2);
/* The crossover of p->crossover with random points from rng. */
void ga_crossover(const GaParams *p, Rng *rng, const int32_t *a, const int32_t *b, int32_t *c1,
                  int32_t *c2);
/* Each gene is changed with probability `rate` to one of the other
 * alleles-1 values, uniformly; returns the number changed. */
int ga_mutate(int32_t *genes, int len, uint32_t alleles, double rate, Rng *rng);
/* One parent by p->selection: fit[0..n-1] are the fitnesses and rank[0..n-1]
 * the indices sorted best first (ties by index), as ga_rank gives. */
int ga_select(const GaParams *p, Rng *rng, const int64_t *fit, const int *rank, int n);
/* rank[0..n-1] = 0..n-1 sorted by fitness, best first, ties by index. */
void ga_rank(const int64_t *fit, int n, int *rank);

#endif
