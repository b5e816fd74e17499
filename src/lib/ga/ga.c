/* The genetic algorithm of ga.h: operators, selection and the run.
 *
 * The run is generational (Goldberg 1989, ch. 1; Mitchell 1996, ch. 1):
 * generation 0 is `population` random chromosomes; each further one starts
 * with the `elitism` best chromosomes of the last, unchanged (De Jong 1975),
 * and is filled with pairs of children: two parents selected, crossed with
 * probability p_crossover (otherwise copied), each child mutated gene by
 * gene.  The placement-puzzle GA this follows used population 50,
 * one-point crossover, mutation 0.005, 100 generations and 200 independent
 * runs keeping the best (docs/gp.md). */
#include "lib/ga/ga.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* population x length is capped: two populations of int32 genes are held */
#define GA_MAX_CELLS 20000000

void ga_params_default(GaParams *p)
{
    memset(p, 0, sizeof *p);
    p->length = 0;
    p->alleles = 0;
    p->population = 50;
    p->generations = 100;
    p->selection = GA_SEL_TOURNAMENT;
    p->tournament = 2;
    p->p_win = 1;
    p->p_enter = 0.2;
    p->truncation = 0.5;
    p->crossover = GA_X_ONE_POINT;
    p->p_crossover = 1;
    p->mutation = 0.005;
    p->elitism = 0;
    p->runs = 1;
    p->seed = 1;
}

static bool prob_ok(double x)
{
    return x >= 0 && x <= 1;
}

CgtStatus ga_params_check(const GaParams *p, CgtError *err)
{
    if (p->length < 1 || p->length > GA_MAX_LENGTH)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "the length must be within 1..%d",
                             GA_MAX_LENGTH);
    if (p->alleles < 2 || p->alleles > GA_MAX_ALLELES)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "a gene needs at least 2 possible values (at most %u)",
                             GA_MAX_ALLELES);
    if (p->population < 2 || p->population > GA_MAX_POPULATION)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "the population must be within 2..%d",
                             GA_MAX_POPULATION);
    if ((double)p->population * (double)p->length > GA_MAX_CELLS) {
        cgt_error_set(err, CGT_ERR_LIMIT, "population %d x length %d genes is too large",
                      p->population, p->length);
        cgt_error_hint(err, "population x length at most %d", GA_MAX_CELLS);
        return CGT_ERR_LIMIT;
    }
    if (p->generations < 1)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "generations must be at least 1");
    if (p->tournament < 1 || p->tournament > p->population)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "the tournament size must be within 1..population (%d)",
                             p->population);
    if (!prob_ok(p->p_win) || !prob_ok(p->p_enter) || !prob_ok(p->p_crossover) ||
        !prob_ok(p->mutation))
        return cgt_error_set(err, CGT_ERR_DOMAIN, "probabilities must be within 0..1");
    if (!(p->truncation > 0 && p->truncation <= 1))
        return cgt_error_set(err, CGT_ERR_DOMAIN, "the truncation fraction must be in (0, 1]");
    if (p->elitism < 0 || p->elitism >= p->population)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "elitism must be within 0..population-1 (%d)",
                             p->population - 1);
    if (p->runs < 1)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "runs must be at least 1");
    if (p->budget < 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "the budget must not be negative");
    return CGT_OK;
}

/* ---- operators */

void ga_one_point(const int32_t *a, const int32_t *b, int len, int k, int32_t *c1, int32_t *c2)
{
    ga_two_point(a, b, len, k, len, c1, c2);
}

void ga_two_point(const int32_t *a, const int32_t *b, int len, int i, int j, int32_t *c1,
                  int32_t *c2)
{
    for (int g = 0; g < len; g++) {
        bool swap = g >= i && g < j;
        c1[g] = swap ? b[g] : a[g];
        c2[g] = swap ? a[g] : b[g];
    }
}

void ga_crossover(const GaParams *p, Rng *rng, const int32_t *a, const int32_t *b, int32_t *c1,
                  int32_t *c2)
{
    int len = p->length;
    if (len < 2) {
        memcpy(c1, a, (size_t)len * sizeof *a);
        memcpy(c2, b, (size_t)len * sizeof *b);
        return;
    }
    switch (p->crossover) {
    case GA_X_ONE_POINT:
        /* a cut between two genes: both parts non-empty */
        ga_one_point(a, b, len, 1 + (int)rng_below(rng, (uint64_t)len - 1), c1, c2);
        break;
    case GA_X_TWO_POINT: {
        /* two distinct cuts among the len-1 places between genes */
        int i = 1 + (int)rng_below(rng, (uint64_t)len - 1);
        int j = 1 + (int)rng_below(rng, (uint64_t)len - 1);
        if (len > 2)
            while (j == i)
                j = 1 + (int)rng_below(rng, (uint64_t)len - 1);
        if (j < i) {
            int t = i;
            i = j;
            j = t;
        }
        ga_two_point(a, b, len, i, j, c1, c2);
        break;
    }
    case GA_X_UNIFORM:
        for (int g = 0; g < len; g++) {
            bool swap = rng_below(rng, 2) != 0;
            c1[g] = swap ? b[g] : a[g];
            c2[g] = swap ? a[g] : b[g];
        }
        break;
    }
}

int ga_mutate(int32_t *genes, int len, uint32_t alleles, double rate, Rng *rng)
{
    int changed = 0;
    if (rate <= 0)
        return 0;
    for (int g = 0; g < len; g++)
        if (rng_unit(rng) < rate) {
            /* one of the other alleles-1 values, uniformly */
            uint32_t v = (uint32_t)rng_below(rng, (uint64_t)alleles - 1);
            genes[g] = (int32_t)(v >= (uint32_t)genes[g] ? v + 1 : v);
            changed++;
        }
    return changed;
}

void ga_rank(const int64_t *fit, int n, int *rank)
{
    /* a bottom-up merge sort, stable, so equal fitnesses keep index order */
    int *a = rank, *b = xmalloc((size_t)(n ? n : 1) * sizeof *b);
    for (int i = 0; i < n; i++)
        a[i] = i;
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                b[k++] = fit[a[j]] > fit[a[i]] ? a[j++] : a[i++];
            while (i < mid)
                b[k++] = a[i++];
            while (j < hi)
                b[k++] = a[j++];
        }
        int *t = a;
        a = b;
        b = t;
    }
    if (a != rank) {
        memcpy(rank, a, (size_t)n * sizeof *rank);
        free(a);
    } else {
        free(b);
    }
}

/* whether i is better than j (ties by index) */
static bool better(const int64_t *fit, int i, int j)
{
    return fit[i] > fit[j] || (fit[i] == fit[j] && i < j);
}

static int tournament(const GaParams *p, Rng *rng, const int64_t *fit, int n)
{
    int k = p->tournament;
    if (p->p_win >= 1) {
        int best = -1;
        for (int t = 0; t < k; t++) {
            int c = (int)rng_below(rng, (uint64_t)n);
            if (best < 0 || better(fit, c, best))
                best = c;
        }
        return best;
    }
    /* the entrants sorted best first; the i-th (from 0) wins with
     * probability p_win (1 - p_win)^i, the last with what remains: for
     * K = 2 the tournament of Mitchell (1996, section 5.4), whose fitter
     * entrant wins with probability p_win */
    int small[64] = {0}, *e = k <= 64 ? small : xmalloc((size_t)k * sizeof *e);
    for (int t = 0; t < k; t++) {
        int c = (int)rng_below(rng, (uint64_t)n), pos = t;
        while (pos > 0 && better(fit, c, e[pos - 1])) {
            e[pos] = e[pos - 1];
            pos--;
        }
        e[pos] = c;
    }
    int i = 0;
    while (i < k - 1 && rng_unit(rng) >= p->p_win)
        i++;
    int w = e[i];
    if (e != small)
        free(e);
    return w;
}

static int uniform_tournament(const GaParams *p, Rng *rng, const int64_t *fit, int n)
{
    int best = -1;
    for (int i = 0; i < n; i++)
        if (rng_unit(rng) < p->p_enter && (best < 0 || better(fit, i, best)))
            best = i;
    return best >= 0 ? best : (int)rng_below(rng, (uint64_t)n);
}

int ga_select(const GaParams *p, Rng *rng, const int64_t *fit, const int *rank, int n)
{
    switch (p->selection) {
    case GA_SEL_TOURNAMENT:
        return tournament(p, rng, fit, n);
    case GA_SEL_UNIFORM:
        return uniform_tournament(p, rng, fit, n);
    case GA_SEL_TRUNCATION: {
        int m = (int)(p->truncation * n + 0.5);
        if (m < 1)
            m = 1;
        if (m > n)
            m = n;
        return rank[rng_below(rng, (uint64_t)m)];
    }
    }
    return 0;
}

/* ---- the run */

typedef struct {
    const GaParams *p;
    GaFitnessFn fn;
    void *ctx;
    GaResult *res;
    CgtError *err;
    int run, gen;
    bool budget_spent;
    /* this run's history, grown as generations complete */
    int nh, cap;
    int64_t *hb;
    double *hm;
} Search;

/* Evaluate one chromosome; keeps the best over all runs.  CGT_OK with
 * s->budget_spent set when the budget allows no more evaluations. */
static CgtStatus evaluate(Search *s, const int32_t *genes, int64_t *out)
{
    const GaParams *p = s->p;
    GaResult *r = s->res;
    if (p->budget > 0 && r->evaluations >= p->budget) {
        s->budget_spent = true;
        return CGT_OK;
    }
    CgtStatus st = cgt_poll();
    if (st != CGT_OK)
        return cgt_poll_error(s->err, st, "the genetic algorithm");
    st = s->fn(s->ctx, genes, p->length, out, s->err);
    if (st != CGT_OK)
        return st;
    r->evaluations++;
    if (!r->best || *out > r->best_fitness) {
        if (!r->best)
            r->best = xmalloc((size_t)p->length * sizeof *r->best);
        memcpy(r->best, genes, (size_t)p->length * sizeof *genes);
        r->best_fitness = *out;
        r->best_run = s->run;
        r->best_generation = s->gen;
    }
    return CGT_OK;
}

/* The run's history becomes the result's when this run found the best. */
static void end_run(Search *s, int64_t run_best)
{
    GaResult *r = s->res;
    r->run_best[r->runs_done++] = run_best;
    if (r->best && r->best_run == s->run) {
        r->nhist = s->nh;
        r->hist_best = xrealloc(r->hist_best, (size_t)(s->nh ? s->nh : 1) * sizeof *s->hb);
        r->hist_mean = xrealloc(r->hist_mean, (size_t)(s->nh ? s->nh : 1) * sizeof *s->hm);
        if (s->nh > 0) {
            memcpy(r->hist_best, s->hb, (size_t)s->nh * sizeof *s->hb);
            memcpy(r->hist_mean, s->hm, (size_t)s->nh * sizeof *s->hm);
        }
    }
}

CgtStatus ga_run(const GaParams *p, GaFitnessFn fn, void *ctx, GaResult *res, CgtError *err)
{
    memset(res, 0, sizeof *res);
    CgtStatus st = ga_params_check(p, err);
    if (st != CGT_OK)
        return st;
    int n = p->population, len = p->length;
    res->length = len;
    res->seed = p->seed;
    res->end = GA_END_GENERATIONS;
    res->run_best = xmalloc((size_t)p->runs * sizeof *res->run_best);
    Search s = {.p = p, .fn = fn, .ctx = ctx, .res = res, .err = err};
    int32_t *pop = xmalloc((size_t)n * (size_t)len * sizeof *pop);
    int32_t *next = xmalloc((size_t)n * (size_t)len * sizeof *next);
    int64_t *fit = xmalloc((size_t)n * sizeof *fit), *nfit = xmalloc((size_t)n * sizeof *nfit);
    int *rank = xmalloc((size_t)n * sizeof *rank);
    int32_t *spare = xmalloc((size_t)len * sizeof *spare);
    Rng master, rng;
    rng_seed(&master, p->seed);
    bool stop = false;
    for (int run = 0; run < p->runs && !stop && st == CGT_OK; run++) {
        /* each run has its own stream, drawn in order from the seed's */
        rng_seed(&rng, rng_next(&master));
        s.run = run;
        s.gen = 0;
        s.nh = 0;
        int64_t run_best = INT64_MIN;
        bool started = false;
        for (size_t i = 0; i < (size_t)n * (size_t)len; i++)
            pop[i] = (int32_t)rng_below(&rng, p->alleles);
        for (int i = 0; i < n && st == CGT_OK && !s.budget_spent; i++) {
            st = evaluate(&s, pop + (size_t)i * (size_t)len, &fit[i]);
            if (st == CGT_OK && !s.budget_spent) {
                started = true;
                run_best = fit[i] > run_best ? fit[i] : run_best;
            }
        }
        for (int gen = 0; st == CGT_OK && !s.budget_spent; gen++) {
            ga_rank(fit, n, rank);
            double sum = 0;
            for (int i = 0; i < n; i++)
                sum += (double)fit[i];
            if (s.nh == s.cap) {
                s.cap = s.cap ? 2 * s.cap : 64;
                s.hb = xrealloc(s.hb, (size_t)s.cap * sizeof *s.hb);
                s.hm = xrealloc(s.hm, (size_t)s.cap * sizeof *s.hm);
            }
            s.hb[s.nh] = fit[rank[0]];
            s.hm[s.nh] = sum / n;
            s.nh++;
            cgt_progress("ga", "run %d of %d, generation %d: best %lld, mean %.2f", run + 1,
                         p->runs, gen, (long long)fit[rank[0]], sum / n);
            if (p->has_target && fit[rank[0]] >= p->target) {
                res->end = GA_END_TARGET;
                stop = true;
                break;
            }
            if (gen + 1 >= p->generations)
                break;
            s.gen = gen + 1;
            int i = 0;
            for (; i < p->elitism; i++) {
                memcpy(next + (size_t)i * (size_t)len, pop + (size_t)rank[i] * (size_t)len,
                       (size_t)len * sizeof *pop);
                nfit[i] = fit[rank[i]];
            }
            int first_child = i;
            for (; i < n; i += 2) {
                int a = ga_select(p, &rng, fit, rank, n);
                int b = ga_select(p, &rng, fit, rank, n);
                const int32_t *pa = pop + (size_t)a * (size_t)len;
                const int32_t *pb = pop + (size_t)b * (size_t)len;
                int32_t *c1 = next + (size_t)i * (size_t)len;
                /* the second child of the last pair is dropped when the
                 * population has no room for it */
                int32_t *c2 = i + 1 < n ? c1 + len : spare;
                bool cross = rng_unit(&rng) < p->p_crossover;
                if (cross) {
                    ga_crossover(p, &rng, pa, pb, c1, c2);
                } else {
                    memcpy(c1, pa, (size_t)len * sizeof *pa);
                    memcpy(c2, pb, (size_t)len * sizeof *pb);
                }
                ga_mutate(c1, len, p->alleles, p->mutation, &rng);
                if (c2 != spare)
                    ga_mutate(c2, len, p->alleles, p->mutation, &rng);
            }
            for (i = first_child; i < n && st == CGT_OK && !s.budget_spent; i++) {
                st = evaluate(&s, next + (size_t)i * (size_t)len, &nfit[i]);
                if (st == CGT_OK && !s.budget_spent)
                    run_best = nfit[i] > run_best ? nfit[i] : run_best;
            }
            if (st != CGT_OK || s.budget_spent)
                break; /* the unfinished generation is not in the history */
            int32_t *t = pop;
            pop = next;
            next = t;
            int64_t *tf = fit;
            fit = nfit;
            nfit = tf;
        }
        if (started)
            end_run(&s, run_best);
        if (s.budget_spent) {
            res->end = GA_END_BUDGET;
            stop = true;
        }
    }
    free(s.hb);
    free(s.hm);
    free(pop);
    free(next);
    free(fit);
    free(nfit);
    free(rank);
    free(spare);
    if (st == CGT_OK && !res->best) {
        /* a budget too small to evaluate anything */
        cgt_error_set(err, CGT_ERR_LIMIT, "the budget of %lld evaluations allowed none",
                      p->budget);
        return CGT_ERR_LIMIT;
    }
    return st;
}

void ga_result_free(GaResult *res)
{
    free(res->best);
    free(res->hist_best);
    free(res->hist_mean);
    free(res->run_best);
    memset(res, 0, sizeof *res);
}
