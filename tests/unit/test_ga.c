/* The genetic algorithm of src/lib/ga: each operator on its own (the
 * crossover by hand-computed children, mutation and selection by their
 * frequencies over many seeded draws, compared with the exact
 * probabilities), then whole runs: OneMax and a small knapsack against
 * their optima found by enumeration here, determinism, the budget, the
 * target, a stop at a known poll, a failing fitness and bad parameters. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/ga/ga.h"
#include "lib/util/poll.h"
#include "unit.h"

/* genes from letters of an alphabet and back */
static void encode(const char *alpha, const char *s, int32_t *g)
{
    for (size_t i = 0; s[i]; i++)
        g[i] = (int32_t)(strchr(alpha, s[i]) - alpha);
}

static void decode(const char *alpha, const int32_t *g, int n, char *s)
{
    for (int i = 0; i < n; i++)
        s[i] = alpha[g[i]];
    s[n] = 0;
}

static void test_crossover(void)
{
    /* the placement-puzzle example: parents cut after the 7th letter;
     * by hand, HELLOIA|MACHROMOSOME and OHHNOWH|EREISTHECAKE exchange
     * their tails */
    const char *alpha = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    const char *p1 = "HELLOIAMACHROMOSOME", *p2 = "OHHNOWHEREISTHECAKE";
    int n = (int)strlen(p1);
    int32_t a[32], b[32], c1[32], c2[32];
    char s1[33], s2[33];
    encode(alpha, p1, a);
    encode(alpha, p2, b);
    ga_one_point(a, b, n, 7, c1, c2);
    decode(alpha, c1, n, s1);
    decode(alpha, c2, n, s2);
    CHECK_EQ_STR(s1, "HELLOIAEREISTHECAKE");
    CHECK_EQ_STR(s2, "OHHNOWHMACHROMOSOME");
    /* cuts at the ends copy the parents (k = len) or swap them (k = 0) */
    ga_one_point(a, b, n, n, c1, c2);
    CHECK(memcmp(c1, a, (size_t)n * sizeof *a) == 0 && memcmp(c2, b, (size_t)n * sizeof *b) == 0);
    ga_one_point(a, b, n, 0, c1, c2);
    CHECK(memcmp(c1, b, (size_t)n * sizeof *a) == 0 && memcmp(c2, a, (size_t)n * sizeof *b) == 0);
    /* two points: letters 3..9 (0-based) exchanged */
    ga_two_point(a, b, n, 3, 10, c1, c2);
    decode(alpha, c1, n, s1);
    decode(alpha, c2, n, s2);
    CHECK_EQ_STR(s1, "HELNOWHEREHROMOSOME");
    CHECK_EQ_STR(s2, "OHHLOIAMACISTHECAKE");

    /* random crossovers: each child takes every gene from one parent and
     * the two children together hold both parents' genes; one-point
     * children are a prefix of one parent and a suffix of the other, with
     * the cut uniform over 1..len-1 */
    GaParams p;
    ga_params_default(&p);
    p.length = n;
    p.alleles = 26;
    Rng r;
    rng_seed(&r, 7);
    long cuts[32] = {0};
    /* parents of all As and all Bs, so the cut shows in the children */
    int32_t za[32] = {0}, ob[32];
    for (int i = 0; i < n; i++)
        ob[i] = 1;
    for (int t = 0; t < 18000; t++) {
        ga_crossover(&p, &r, za, ob, c1, c2);
        int k = 0;
        while (k < n && c1[k] == 0 && c2[k] == 1)
            k++;
        int ok = k >= 1 && k <= n - 1;
        for (int i = k; i < n; i++)
            ok &= c1[i] == 1 && c2[i] == 0;
        CHECK(ok);
        cuts[k]++;
    }
    for (int k = 1; k <= n - 1; k++)
        CHECK(cuts[k] > 1000 - 5 * 31 && cuts[k] < 1000 + 5 * 31); /* mean 1000, sd ~31 */
    for (int kind = GA_X_TWO_POINT; kind <= GA_X_UNIFORM; kind++) {
        p.crossover = (GaCrossover)kind;
        long swapped = 0;
        int ok = 1;
        for (int t = 0; t < 2000; t++) {
            ga_crossover(&p, &r, za, ob, c1, c2);
            for (int i = 0; i < n; i++) {
                ok &= (c1[i] == 0 && c2[i] == 1) || (c1[i] == 1 && c2[i] == 0);
                swapped += c1[i] == 1;
            }
        }
        CHECK(ok);
        if (kind == GA_X_UNIFORM)                   /* each gene swapped with probability 1/2 */
            CHECK(labs(swapped - 19000) < 5 * 138); /* n * 2000 / 2, sd sqrt(38000/4) */
    }
}

static void test_mutation(void)
{
    /* 10^6 genes over 5 alleles at rate 0.01: the count of changed genes
     * is binomial (mean 10000, sd 99.5); a changed gene always differs and
     * takes each of the other four values with probability 1/4 */
    enum { N = 1000000 };
    static int32_t g[N], before[N];
    Rng r;
    rng_seed(&r, 11);
    for (int i = 0; i < N; i++)
        before[i] = g[i] = i % 5;
    int changed = ga_mutate(g, N, 5, 0.01, &r);
    long differ = 0, to[5] = {0}, from0 = 0;
    for (int i = 0; i < N; i++)
        if (g[i] != before[i]) {
            differ++;
            if (before[i] == 0) {
                from0++;
                to[g[i]]++;
            }
        }
    CHECK_EQ_INT(differ, changed);
    CHECK(labs(changed - 10000L) < 500);
    CHECK_EQ_INT(to[0], 0);
    for (int v = 1; v < 5; v++) /* from0 ~ 2000: each ~ 500, sd ~19 */
        CHECK(labs(to[v] - from0 / 4) < 100);
    /* rate 0 changes nothing, rate 1 every gene */
    CHECK_EQ_INT(ga_mutate(g, 1000, 5, 0, &r), 0);
    CHECK_EQ_INT(ga_mutate(g, 1000, 5, 1, &r), 1000);
    /* two alleles: a mutation is a flip */
    int32_t b[8] = {0, 1, 0, 1, 0, 1, 0, 1};
    ga_mutate(b, 8, 2, 1, &r);
    CHECK(b[0] == 1 && b[1] == 0 && b[7] == 0);
}

static void test_selection(void)
{
    /* the population's fitness is its index, 0..n-1 (n = 10) */
    enum { N = 10, DRAWS = 200000 };
    int64_t fit[N];
    int rank[N];
    for (int i = 0; i < N; i++)
        fit[i] = i;
    ga_rank(fit, N, rank);
    CHECK(rank[0] == 9 && rank[9] == 0);
    GaParams p;
    ga_params_default(&p);
    p.population = N;
    Rng r;
    rng_seed(&r, 5);
    long count[N];
    /* tournament of k, best wins: member i is chosen with probability
     * ((i+1)^k - i^k) / n^k */
    for (int k = 1; k <= 3; k++) {
        p.tournament = k;
        memset(count, 0, sizeof count);
        for (int t = 0; t < DRAWS; t++)
            count[ga_select(&p, &r, fit, rank, N)]++;
        for (int i = 0; i < N; i++) {
            double q = (pow(i + 1, k) - pow(i, k)) / pow(N, k);
            double sd = sqrt(DRAWS * q * (1 - q));
            CHECK(fabs(count[i] - DRAWS * q) < 5 * sd + 1);
        }
    }
    /* a tournament of 2 whose best wins with probability 0.75: of the n^2
     * ordered pairs of entrants, 2i have i as the better one (chosen with
     * probability 0.75), 2(n-1-i) as the worse one (0.25), and one is
     * (i, i) */
    p.tournament = 2;
    p.p_win = 0.75;
    memset(count, 0, sizeof count);
    for (int t = 0; t < DRAWS; t++)
        count[ga_select(&p, &r, fit, rank, N)]++;
    for (int i = 0; i < N; i++) {
        double q = (0.75 * 2 * i + 0.25 * 2 * (N - 1 - i) + 1) / (N * N);
        double sd = sqrt(DRAWS * q * (1 - q));
        CHECK(fabs(count[i] - DRAWS * q) < 5 * sd + 1);
    }
    /* uniform tournament with entry probability e: member i wins when it
     * enters and no better one does, e (1-e)^(n-1-i); when nobody enters
     * (probability (1-e)^n) a member is drawn uniformly */
    p.selection = GA_SEL_UNIFORM;
    p.p_enter = 0.2;
    memset(count, 0, sizeof count);
    for (int t = 0; t < DRAWS; t++)
        count[ga_select(&p, &r, fit, rank, N)]++;
    for (int i = 0; i < N; i++) {
        double q = 0.2 * pow(0.8, N - 1 - i) + pow(0.8, N) / N;
        double sd = sqrt(DRAWS * q * (1 - q));
        CHECK(fabs(count[i] - DRAWS * q) < 5 * sd + 1);
    }
    /* truncation 0.3: the best three, uniformly */
    p.selection = GA_SEL_TRUNCATION;
    p.truncation = 0.3;
    memset(count, 0, sizeof count);
    for (int t = 0; t < 30000; t++)
        count[ga_select(&p, &r, fit, rank, N)]++;
    for (int i = 0; i < N; i++) {
        if (i < 7)
            CHECK_EQ_INT(count[i], 0);
        else
            CHECK(labs(count[i] - 10000) < 5 * 82);
    }
    /* ties keep index order in the ranking */
    int64_t tie[5] = {3, 7, 3, 7, 1};
    int rk[5];
    ga_rank(tie, 5, rk);
    CHECK(rk[0] == 1 && rk[1] == 3 && rk[2] == 0 && rk[3] == 2 && rk[4] == 4);
    /* a large population goes through the same merge sort */
    enum { M = 1000 };
    static int64_t big[M];
    static int brk[M];
    for (int i = 0; i < M; i++)
        big[i] = (i * 37) % 101;
    ga_rank(big, M, brk);
    int sorted = 1;
    for (int i = 1; i < M; i++)
        sorted &= big[brk[i - 1]] > big[brk[i]] ||
                  (big[brk[i - 1]] == big[brk[i]] && brk[i - 1] < brk[i]);
    CHECK(sorted);
}

/* ---- whole runs */

static long long calls;

static CgtStatus onemax(void *ctx, const int32_t *g, int len, int64_t *out, CgtError *err)
{
    (void)ctx;
    (void)err;
    calls++;
    int64_t s = 0;
    for (int i = 0; i < len; i++)
        s += g[i];
    *out = s;
    return CGT_OK;
}

/* a 0/1 knapsack of 14 items, capacity 60; overweight scores minus the excess */
static const int kw[14] = {12, 7, 11, 8, 9, 14, 6, 10, 5, 13, 4, 15, 3, 17};
static const int kv[14] = {24, 13, 23, 15, 16, 30, 11, 19, 8, 26, 6, 29, 5, 31};

static CgtStatus knapsack(void *ctx, const int32_t *g, int len, int64_t *out, CgtError *err)
{
    (void)ctx;
    (void)err;
    int w = 0, v = 0;
    for (int i = 0; i < len; i++)
        if (g[i]) {
            w += kw[i];
            v += kv[i];
        }
    *out = w > 60 ? 60 - w : v;
    return CGT_OK;
}

static int knapsack_optimum(void)
{
    int best = 0;
    for (int s = 0; s < 1 << 14; s++) {
        int w = 0, v = 0;
        for (int i = 0; i < 14; i++)
            if (s >> i & 1) {
                w += kw[i];
                v += kv[i];
            }
        if (w <= 60 && v > best)
            best = v;
    }
    return best;
}

static CgtStatus failing(void *ctx, const int32_t *g, int len, int64_t *out, CgtError *err)
{
    (void)g;
    (void)len;
    int *left = ctx;
    *out = 0;
    if (--*left == 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "no fitness here");
    return CGT_OK;
}

static void test_runs(void)
{
    CgtError err;
    GaParams p;
    ga_params_default(&p);
    p.length = 30;
    p.alleles = 2;
    p.seed = 9;
    GaResult a, b;
    calls = 0;
    CHECK_EQ_INT(ga_run(&p, onemax, NULL, &a, &err), CGT_OK);
    /* population 50, 100 generations, no elitism: every chromosome of
     * every generation is evaluated once */
    CHECK_EQ_INT(a.evaluations, 5000);
    CHECK_EQ_INT(calls, 5000);
    CHECK_EQ_INT(a.nhist, 100);
    CHECK_EQ_INT(a.best_fitness, 30);
    CHECK_EQ_INT(a.end, GA_END_GENERATIONS);
    CHECK_EQ_INT(a.runs_done, 1);
    int64_t s = 0;
    for (int i = 0; i < 30; i++)
        s += a.best[i];
    CHECK_EQ_INT(s, a.best_fitness);
    CHECK(a.hist_best[a.best_generation] == 30 &&
          (a.best_generation == 0 || a.hist_best[a.best_generation - 1] < 30));
    CHECK(a.hist_mean[99] > a.hist_mean[0]);
    /* the same seed, the same run */
    CHECK_EQ_INT(ga_run(&p, onemax, NULL, &b, &err), CGT_OK);
    CHECK(memcmp(a.best, b.best, 30 * sizeof *a.best) == 0 && a.nhist == b.nhist &&
          memcmp(a.hist_best, b.hist_best, (size_t)a.nhist * sizeof *a.hist_best) == 0 &&
          memcmp(a.hist_mean, b.hist_mean, (size_t)a.nhist * sizeof *a.hist_mean) == 0);
    ga_result_free(&b);
    ga_result_free(&a);

    /* elitism: the elite is not evaluated again, and the best never drops */
    p.elitism = 3;
    p.generations = 20;
    p.selection = GA_SEL_TRUNCATION;
    CHECK_EQ_INT(ga_run(&p, onemax, NULL, &a, &err), CGT_OK);
    CHECK_EQ_INT(a.evaluations, 50 + 19 * 47);
    int mono = 1;
    for (int g = 1; g < a.nhist; g++)
        mono &= a.hist_best[g] >= a.hist_best[g - 1];
    CHECK(mono);
    ga_result_free(&a);

    /* the target stops the search after the generation that reached it */
    p.has_target = true;
    p.target = 30;
    p.generations = 1000;
    p.runs = 3;
    CHECK_EQ_INT(ga_run(&p, onemax, NULL, &a, &err), CGT_OK);
    CHECK_EQ_INT(a.end, GA_END_TARGET);
    CHECK_EQ_INT(a.best_fitness, 30);
    CHECK_EQ_INT(a.runs_done, 1);
    CHECK_EQ_INT(a.nhist, a.best_generation + 1);
    ga_result_free(&a);

    /* the budget: exactly that many evaluations, the best so far kept */
    p.has_target = false;
    p.budget = 777;
    CHECK_EQ_INT(ga_run(&p, onemax, NULL, &a, &err), CGT_OK);
    CHECK_EQ_INT(a.end, GA_END_BUDGET);
    CHECK_EQ_INT(a.evaluations, 777);
    CHECK(a.best != NULL && a.nhist == 1 + (777 - 50) / 47);
    ga_result_free(&a);
    p.budget = 0;

    /* the knapsack: the optimum by enumeration, reached within 10 runs
     * (tournaments of 2, one-point crossover, mutation 0.05) for each of
     * the seeds 1..10; the runs stop at it */
    int opt = knapsack_optimum();
    CHECK_EQ_INT(opt, 122);
    ga_params_default(&p);
    p.length = 14;
    p.alleles = 2;
    p.mutation = 0.05;
    p.runs = 10;
    p.has_target = true;
    p.target = opt;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        p.seed = seed;
        CHECK_EQ_INT(ga_run(&p, knapsack, NULL, &a, &err), CGT_OK);
        CHECK_EQ_INT(a.best_fitness, opt);
        CHECK_EQ_INT(a.end, GA_END_TARGET);
        int w = 0, v = 0;
        for (int i = 0; i < 14; i++)
            if (a.best[i]) {
                w += kw[i];
                v += kv[i];
            }
        CHECK(w <= 60 && v == opt);
        ga_result_free(&a);
    }

    /* a stop at a known poll (as --timeout would): a limit error, with the
     * best so far and the history of the generations completed */
    ga_params_default(&p);
    p.length = 30;
    p.alleles = 2;
    cgt_fire_run_limit_at_poll(130);
    CHECK_EQ_INT(ga_run(&p, onemax, NULL, &a, &err), CGT_ERR_LIMIT);
    CHECK_EQ_INT(a.evaluations, 129);
    CHECK(a.best != NULL && a.nhist == 2 && a.runs_done == 1);
    ga_result_free(&a);
    cgt_set_timeout(0); /* clears the limit */
    /* stopped inside generation 0: the best so far, no history */
    cgt_fire_run_limit_at_poll(10);
    CHECK_EQ_INT(ga_run(&p, onemax, NULL, &a, &err), CGT_ERR_LIMIT);
    CHECK(a.best != NULL && a.evaluations == 9 && a.nhist == 0 && a.runs_done == 1);
    ga_result_free(&a);
    cgt_set_timeout(0);
    cgt_fire_run_limit_at_poll(0);

    /* a failing fitness stops the run with its error */
    int left = 60;
    CHECK_EQ_INT(ga_run(&p, failing, &left, &a, &err), CGT_ERR_DOMAIN);
    CHECK_EQ_STR(err.msg, "no fitness here");
    CHECK_EQ_INT(a.evaluations, 59);
    ga_result_free(&a);
}

static void test_params(void)
{
    CgtError err;
    GaParams p;
    ga_params_default(&p);
    p.length = 8;
    p.alleles = 8;
    CHECK_EQ_INT(ga_params_check(&p, &err), CGT_OK);
    GaParams q = p;
    q.alleles = 1;
    CHECK_EQ_INT(ga_params_check(&q, &err), CGT_ERR_DOMAIN);
    q = p;
    q.population = 1;
    CHECK_EQ_INT(ga_params_check(&q, &err), CGT_ERR_DOMAIN);
    q = p;
    q.tournament = 51;
    CHECK_EQ_INT(ga_params_check(&q, &err), CGT_ERR_DOMAIN);
    q = p;
    q.mutation = 1.5;
    CHECK_EQ_INT(ga_params_check(&q, &err), CGT_ERR_DOMAIN);
    q = p;
    q.truncation = 0;
    CHECK_EQ_INT(ga_params_check(&q, &err), CGT_ERR_DOMAIN);
    q = p;
    q.elitism = 50;
    CHECK_EQ_INT(ga_params_check(&q, &err), CGT_ERR_DOMAIN);
    q = p;
    q.length = 100000;
    q.population = 1000;
    CHECK_EQ_INT(ga_params_check(&q, &err), CGT_ERR_LIMIT);
    GaResult r;
    CHECK_EQ_INT(ga_run(&q, onemax, NULL, &r, &err), CGT_ERR_LIMIT);
    CHECK(r.best == NULL);
    ga_result_free(&r);
}

int main(void)
{
    test_crossover();
    test_mutation();
    test_selection();
    test_runs();
    test_params();
    UNIT_MAIN_END();
}
