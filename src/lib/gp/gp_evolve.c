/* The GP engine's evolution (src/lib/gp/gp.c has the overview): random
 * programs and genetic operators after gplearn's _Program, tournament and
 * lexicase selection, breeding over threads, and the run (split from
 * gp.c). */
#include "lib/gp/gp.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bitgames/bitgames.h"
#include "lib/gp/gp_int.h"
#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/rng.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

/* Error levels with precomputed bit sets in lexicase selection. */
enum { LEX_LEVELS = 4 };

/* ---- random programs and genetic operators (gplearn's _Program) */

typedef struct {
    const GpParams *par;
    Rng rng;
    int funcs[GP_NFUNCS], nfuncs;
    int nvars, nconst;
    int *cand, *cases; /* lexicase scratch: population and row indices */
    int *uniq, nuniq;  /* lexicase: one program per distinct error vector */
    uint16_t *et;      /* errors, case-major: et[row * nuniq + u] */
    uint64_t *lev;     /* lev[(row * LEX_LEVELS + k) * words]: groups with error <= k */
    uint64_t *cbits;   /* lexicase scratch: two bit sets over the groups */
    size_t nrows;
} Gen;

typedef VEC(uint8_t) Code;

static uint8_t rand_function(Gen *g)
{
    return (uint8_t)g->funcs[rng_below(&g->rng, (uint64_t)g->nfuncs)];
}

static uint8_t rand_terminal(Gen *g)
{
    /* as gplearn: a variable with probability nvars/(nvars+1), else a
     * constant chosen uniformly */
    uint64_t t = rng_below(&g->rng, (uint64_t)g->nvars + 1);
    if ((int)t < g->nvars)
        return (uint8_t)(CODE_VAR + t);
    return (uint8_t)(CODE_CONST + rng_below(&g->rng, (uint64_t)g->nconst));
}

static void build_program(Gen *g, Code *out)
{
    int depth_max = g->par->init_depth_min +
                    (int)rng_below(&g->rng, (uint64_t)(g->par->init_depth_max -
                                                       g->par->init_depth_min + 1));
    int full = (int)rng_below(&g->rng, 2);
    int stack[64], sp = 0;
    out->len = 0;
    uint8_t f = rand_function(g);
    VEC_PUSH(*out, f);
    stack[sp++] = gpi_fn_arity[f];
    while (sp > 0) {
        int depth = sp;
        uint64_t choice = rng_below(&g->rng, (uint64_t)(g->nvars + g->nfuncs));
        if (depth < depth_max && (full || (int)choice < g->nfuncs)) {
            f = rand_function(g);
            VEC_PUSH(*out, f);
            stack[sp++] = gpi_fn_arity[f];
        } else {
            VEC_PUSH(*out, rand_terminal(g));
            stack[sp - 1]--;
            while (sp > 0 && stack[sp - 1] == 0) {
                sp--;
                if (sp > 0)
                    stack[sp - 1]--;
            }
        }
    }
}

static int subtree_end(const uint8_t *code, int start)
{
    int need = 1, end = start;
    while (need > 0) {
        need += gpi_code_arity(code[end]) - 1;
        end++;
    }
    return end;
}

/* gplearn's get_subtree: functions are chosen with weight 0.9, terminals
 * with weight 0.1. */
static void get_subtree(Gen *g, const uint8_t *code, int len, int *s, int *e)
{
    int nf = 0;
    for (int i = 0; i < len; i++)
        nf += code[i] < GP_NFUNCS;
    double total = 0.9 * nf + 0.1 * (len - nf), r = rng_unit(&g->rng) * total, acc = 0;
    int start = len - 1;
    for (int i = 0; i < len; i++) {
        acc += code[i] < GP_NFUNCS ? 0.9 : 0.1;
        if (r < acc) {
            start = i;
            break;
        }
    }
    *s = start;
    *e = subtree_end(code, start);
}

static void splice(Code *out, const uint8_t *a, int s, int e, int alen, const uint8_t *d, int ds,
                   int de)
{
    out->len = 0;
    VEC_RESERVE(*out, (size_t)(alen - (e - s) + (de - ds)));
    memcpy(out->data, a, (size_t)s);
    memcpy(out->data + s, d + ds, (size_t)(de - ds));
    memcpy(out->data + s + (de - ds), a + e, (size_t)(alen - e));
    out->len = (size_t)(alen - (e - s) + (de - ds));
}

static int tournament(Gen *g, const Prog *pop, int n)
{
    int best = -1;
    for (int i = 0; i < g->par->tournament; i++) {
        int c = (int)rng_below(&g->rng, (uint64_t)n);
        if (best < 0 || pop[c].fit < pop[best].fit)
            best = c;
    }
    return best;
}

/* Lexicase selection (Spector 2012; Helmuth, Spector and Matheson 2015):
 * rows are taken in random order and the candidates cut to those with the
 * least error on each; the survivor of least penalised fitness (shortest
 * among equals) is chosen, ties by index. */
static int bits_count(const uint64_t *b, size_t nw)
{
    int c = 0;
    for (size_t w = 0; w < nw; w++)
        c += __builtin_popcountll(b[w]);
    return c;
}

/* Whether the bit set has at least two members. */
static int several(const uint64_t *b, size_t nw)
{
    int seen = 0;
    for (size_t w = 0; w < nw; w++)
        if (b[w]) {
            if (seen || (b[w] & (b[w] - 1)))
                return 1;
            seen = 1;
        }
    return 0;
}

/* The candidates are a bit set over the distinct error vectors; for each
 * case the sets "error <= k" (k < LEX_LEVELS) are precomputed, so most
 * filtering steps are a few word operations. */
static int lexicase(Gen *g)
{
    size_t nu = (size_t)g->nuniq, nw = (nu + 63) / 64, left = g->nrows;
    uint64_t *cand = g->cbits, *t = g->cbits + nw;
    for (size_t w = 0; w < nw; w++)
        cand[w] = ~0ULL;
    if (nu % 64)
        cand[nw - 1] = (1ULL << (nu % 64)) - 1;
    for (size_t r = 0; r < g->nrows; r++)
        g->cases[r] = (int)r;
    int nc = (int)nu;
    while (nc > 1 && left > 0) {
        size_t pick = (size_t)rng_below(&g->rng, left);
        int row = g->cases[pick];
        g->cases[pick] = g->cases[--left];
        int done = 0;
        for (int k = 0; k < LEX_LEVELS && !done; k++) {
            const uint64_t *lv = g->lev + ((size_t)row * LEX_LEVELS + (size_t)k) * nw;
            uint64_t any = 0;
            for (size_t w = 0; w < nw; w++)
                any |= t[w] = cand[w] & lv[w];
            if (any) {
                memcpy(cand, t, nw * sizeof *cand);
                done = 1;
            }
        }
        if (!done) {
            const uint16_t *e = g->et + (size_t)row * nu;
            uint16_t best = UINT16_MAX;
            for (size_t w = 0; w < nw; w++)
                for (uint64_t b = cand[w]; b; b &= b - 1) {
                    size_t u = w * 64 + (size_t)__builtin_ctzll(b);
                    best = e[u] < best ? e[u] : best;
                }
            for (size_t w = 0; w < nw; w++)
                for (uint64_t b = cand[w]; b; b &= b - 1) {
                    size_t u = w * 64 + (size_t)__builtin_ctzll(b);
                    if (e[u] != best)
                        cand[w] &= ~(1ULL << (u % 64));
                }
        }
        nc = several(cand, nw) ? 2 : 1;
    }
    nc = bits_count(cand, nw);
    int k = (int)rng_below(&g->rng, (uint64_t)nc);
    for (size_t w = 0;; w++) {
        int c = __builtin_popcountll(cand[w]);
        if (k < c) {
            uint64_t b = cand[w];
            while (k-- > 0)
                b &= b - 1;
            return g->uniq[w * 64 + (size_t)__builtin_ctzll(b)];
        }
        k -= c;
    }
}

/* Group the population by error vector; each group is represented by its
 * member of least penalised fitness (ties by index), so lexicase runs over
 * distinct behaviours and prefers the shortest program of each.  Builds
 * the case-major error matrix (saturated to 16 bits) and, per case, the
 * groups of least error there. */
static void lexicase_groups(Gen *g, const Prog *pop, int n)
{
    size_t cap = 1;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    int *tab = xmalloc(cap * sizeof *tab);
    for (size_t i = 0; i < cap; i++)
        tab[i] = -1;
    size_t bytes = g->nrows * sizeof(uint32_t);
    g->nuniq = 0;
    for (int i = 0; i < n; i++) {
        size_t h = (size_t)hash_bytes(pop[i].err, bytes) & (cap - 1);
        for (;; h = (h + 1) & (cap - 1)) {
            int u = tab[h];
            if (u < 0) {
                tab[h] = g->nuniq;
                g->uniq[g->nuniq++] = i;
                break;
            }
            int r = g->uniq[u];
            if (memcmp(pop[r].err, pop[i].err, bytes) == 0) {
                if (pop[i].fit < pop[r].fit)
                    g->uniq[u] = i;
                break;
            }
        }
    }
    free(tab);
    size_t nu = (size_t)g->nuniq;
    for (size_t u = 0; u < nu; u++) {
        const uint32_t *e = pop[g->uniq[u]].err;
        for (size_t r = 0; r < g->nrows; r++)
            g->et[r * nu + u] = e[r] > UINT16_MAX ? UINT16_MAX : (uint16_t)e[r];
    }
    size_t nw = (nu + 63) / 64;
    memset(g->lev, 0, g->nrows * LEX_LEVELS * nw * sizeof *g->lev);
    for (size_t r = 0; r < g->nrows; r++) {
        const uint16_t *e = g->et + r * nu;
        for (size_t u = 0; u < nu; u++)
            for (int k = e[u]; k < LEX_LEVELS; k++)
                g->lev[(r * LEX_LEVELS + (size_t)k) * nw + u / 64] |= 1ULL << (u % 64);
    }
}

static int select_parent(Gen *g, const Prog *pop, int n)
{
    if (g->par->selection == GP_SEL_LEXICASE)
        return lexicase(g);
    return tournament(g, pop, n);
}

/* One offspring of the current population (gplearn's _parallel_evolve). */
static void offspring(Gen *g, const Prog *pop, int n, Code *out, Code *tmp)
{
    const GpParams *p = g->par;
    int par = select_parent(g, pop, n);
    const uint8_t *a = pop[par].code;
    int alen = pop[par].len, s, e, ds, de;
    double r = rng_unit(&g->rng);
    if (r < p->p_crossover) {
        int don = select_parent(g, pop, n);
        get_subtree(g, a, alen, &s, &e);
        get_subtree(g, pop[don].code, pop[don].len, &ds, &de);
        splice(out, a, s, e, alen, pop[don].code, ds, de);
    } else if (r < p->p_crossover + p->p_subtree) {
        build_program(g, tmp);
        get_subtree(g, a, alen, &s, &e);
        get_subtree(g, tmp->data, (int)tmp->len, &ds, &de);
        splice(out, a, s, e, alen, tmp->data, ds, de);
    } else if (r < p->p_crossover + p->p_subtree + p->p_hoist) {
        get_subtree(g, a, alen, &s, &e);
        get_subtree(g, a + s, e - s, &ds, &de);
        splice(out, a, s, e, alen, a + s, ds, de);
    } else if (r < p->p_crossover + p->p_subtree + p->p_hoist + p->p_point) {
        out->len = 0;
        for (int i = 0; i < alen; i++) {
            uint8_t c = a[i];
            if (rng_unit(&g->rng) < p->p_point_replace) {
                if (c < GP_NFUNCS) {
                    /* a function of the same arity */
                    int cand[GP_NFUNCS], nc = 0;
                    for (int k = 0; k < g->nfuncs; k++)
                        if (gpi_fn_arity[g->funcs[k]] == gpi_fn_arity[c])
                            cand[nc++] = g->funcs[k];
                    c = (uint8_t)cand[rng_below(&g->rng, (uint64_t)nc)];
                } else {
                    c = rand_terminal(g);
                }
            }
            VEC_PUSH(*out, c);
        }
    } else {
        out->len = 0;
        for (int i = 0; i < alen; i++)
            VEC_PUSH(*out, a[i]);
    }
    if ((int)out->len > p->max_length) {
        out->len = 0;
        for (int i = 0; i < alen; i++)
            VEC_PUSH(*out, a[i]);
    }
}

static uint8_t *dup_code(const uint8_t *c, size_t n)
{
    uint8_t *r = xmalloc(n ? n : 1);
    memcpy(r, c, n);
    return r;
}

/* ---- breeding and evaluation, split over threads.  Offspring i is bred
 * from its own RNG stream, seeded by a number the main thread draws in
 * order, and evaluation is pure: results do not depend on the thread
 * count. */

typedef struct {
    const Cols *cols;
    const GpParams *par;
    Prog *pop;
    int lo, hi;
    Scratch scratch;
    Gen gen;             /* this thread's copy: own RNG and lexicase scratch */
    const Prog *parents; /* breeding: the previous population, or NULL */
    int nparents;
    const uint64_t *seeds;
    Code code, tmp;
    bool stopped; /* cgt_poll asked to stop: pop[lo..hi) is not all evaluated */
} EvalJob;

static void eval_range(EvalJob *j)
{
    for (int i = j->lo; i < j->hi; i++) {
        /* a generation may take seconds: poll per program */
        if (cgt_poll() != CGT_OK) {
            j->stopped = true;
            return;
        }
        Prog *p = &j->pop[i];
        if (j->parents) {
            rng_seed(&j->gen.rng, j->seeds[i]);
            offspring(&j->gen, j->parents, j->nparents, &j->code, &j->tmp);
            gpi_prog_set(p, j->code.data, (int)j->code.len);
        }
        const int64_t *out = gpi_eval_prog(j->cols, &j->scratch, p->code, p->len);
        if (j->par->selection == GP_SEL_LEXICASE && !p->err)
            p->err = xmalloc((j->cols->nrows ? j->cols->nrows : 1) * sizeof *p->err);
        gpi_score(j->cols, j->par->fitness, out, &p->raw, &p->hits, p->err);
        p->fit = p->raw + j->par->parsimony * p->len;
    }
}

static void *eval_thread(void *arg)
{
    eval_range(arg);
    return NULL;
}

/* Breed (when parents is not NULL) and evaluate pop[0..n-1]. */
static void eval_pop(EvalJob jobs[2], int threads, Prog *pop, int n, const Prog *parents,
                     int nparents, const uint64_t *seeds)
{
    for (int t = 0; t < 2; t++) {
        jobs[t].stopped = false;
        jobs[t].pop = pop;
        jobs[t].parents = parents;
        jobs[t].nparents = nparents;
        jobs[t].seeds = seeds;
    }
    if (threads < 2 || n < 64) {
        jobs[0].lo = 0;
        jobs[0].hi = n;
        eval_range(&jobs[0]);
        return;
    }
    jobs[0].lo = 0;
    jobs[0].hi = n / 2;
    jobs[1].lo = n / 2;
    jobs[1].hi = n;
    pthread_t t;
    if (pthread_create(&t, NULL, eval_thread, &jobs[1]) != 0) {
        jobs[0].hi = n;
        eval_range(&jobs[0]);
        return;
    }
    eval_range(&jobs[0]);
    pthread_join(t, NULL);
}

/* Depth of a program: each node is one deeper than its deepest child. */
static int prog_depth(const uint8_t *code, int len)
{
    int stack[GP_MAX_LENGTH + 1], sp = 0;
    for (int i = len - 1; i >= 0; i--) {
        int ar = gpi_code_arity(code[i]), m = 0;
        for (int k = 0; k < ar; k++) {
            int v = stack[--sp];
            m = v > m ? v : m;
        }
        stack[sp++] = m + 1;
    }
    return sp > 0 ? stack[0] : 0;
}

/* ---- the run */

static void cols_make(Cols *c, const GpData *d, const GpParams *p, int64_t **store)
{
    size_t n = d->nrows;
    int nconst = p->const_max - p->const_min + 1;
    int64_t *m = xmalloc(((size_t)d->nvars + (size_t)nconst + 1) * (n ? n : 1) * sizeof *m);
    c->nrows = n;
    c->nvars = d->nvars;
    c->nconst = nconst;
    for (int v = 0; v < d->nvars; v++) {
        int64_t *col = m + (size_t)v * n;
        for (size_t r = 0; r < n; r++)
            col[r] = d->x[r * (size_t)d->nvars + (size_t)v];
        c->col[v] = col;
    }
    for (int k = 0; k < nconst; k++) {
        int64_t *col = m + ((size_t)d->nvars + (size_t)k) * n;
        for (size_t r = 0; r < n; r++)
            col[r] = p->const_min + k;
        c->ccol[k] = col;
    }
    c->y = d->y;
    *store = m;
}

static int cmp_fit(const Prog *pop, int i, int j)
{
    if (pop[i].fit < pop[j].fit)
        return -1;
    if (pop[i].fit > pop[j].fit)
        return 1;
    return i < j ? -1 : i > j;
}

/* indices of the `k` fittest programs, best first (ties by index) */
static void fittest(const Prog *pop, int n, int k, int *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        int pos = m < k ? m++ : k;
        if (pos == k) {
            if (cmp_fit(pop, i, out[k - 1]) >= 0)
                continue;
            pos = k - 1;
        }
        while (pos > 0 && cmp_fit(pop, i, out[pos - 1]) < 0) {
            out[pos] = out[pos - 1];
            pos--;
        }
        out[pos] = i;
    }
}

static void pop_free(Prog *pop, int n)
{
    for (int i = 0; i < n; i++) {
        free(pop[i].code);
        free(pop[i].err);
    }
    free(pop);
}

CgtStatus gp_run(const GpParams *p, const GpData *train, const GpData *test, GpResult *res,
                 CgtError *err)
{
    memset(res, 0, sizeof *res);
    CgtStatus st = gp_params_check(p, err);
    if (st != CGT_OK)
        return st;
    if (!train || train->nrows == 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "empty GP data set");
    if (test && test->nvars != train->nvars)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "held-out set has %d variables, training set %d", test->nvars,
                             train->nvars);
    if (p->selection == GP_SEL_LEXICASE &&
        (double)p->population * (double)train->nrows > GP_LEXICASE_MAX_CELLS) {
        cgt_error_set(err, CGT_ERR_LIMIT,
                      "lexicase selection on %zu rows with population %d needs too much memory",
                      train->nrows, p->population);
        cgt_error_hint(err, "use selection tournament, fewer positions or a smaller population "
                            "(population x rows at most %d)",
                       GP_LEXICASE_MAX_CELLS);
        return CGT_ERR_LIMIT;
    }
    double t0 = cgt_now();
    Gen g;
    memset(&g, 0, sizeof g);
    g.par = p;
    rng_seed(&g.rng, p->seed);
    for (int f = 0; f < GP_NFUNCS; f++)
        if (p->functions >> f & 1)
            g.funcs[g.nfuncs++] = f;
    g.nvars = train->nvars;
    g.nconst = p->const_max - p->const_min + 1;
    g.nrows = train->nrows;
    g.cand = xmalloc((size_t)p->population * sizeof *g.cand);
    g.cases = xmalloc(train->nrows * sizeof *g.cases);
    g.uniq = xmalloc((size_t)p->population * sizeof *g.uniq);
    if (p->selection == GP_SEL_LEXICASE) {
        g.et = xmalloc((size_t)p->population * train->nrows * sizeof *g.et);
        g.lev = xmalloc(train->nrows * LEX_LEVELS * (((size_t)p->population + 63) / 64) *
                        sizeof *g.lev);
    }

    Cols cols;
    int64_t *store;
    cols_make(&cols, train, p, &store);
    EvalJob jobs[2];
    for (int t = 0; t < 2; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].cols = &cols;
        jobs[t].par = p;
        jobs[t].scratch.nrows = cols.nrows;
    }
    int n = p->population;
    Prog *pop = xcalloc((size_t)n, sizeof *pop), *next = xcalloc((size_t)n, sizeof *next);
    Code code = {0}, tmp = {0};
    for (int i = 0; i < n; i++) {
        build_program(&g, &code);
        gpi_prog_set(&pop[i], code.data, (int)code.len);
    }
    for (int t = 0; t < 2; t++) {
        jobs[t].gen = g;
        jobs[t].gen.cand = xmalloc((size_t)p->population * sizeof *g.cand);
        jobs[t].gen.cases = xmalloc(train->nrows * sizeof *g.cases);
        jobs[t].gen.cbits = xmalloc(2 * (((size_t)p->population + 63) / 64) * sizeof *g.cbits);
    }
    uint64_t *seeds = xmalloc((size_t)n * sizeof *seeds);
    eval_pop(jobs, p->threads, pop, n, NULL, 0, NULL);
    if (jobs[0].stopped || jobs[1].stopped)
        st = cgt_poll_error(err, cgt_poll(), "genetic programming");
    long long evaluated = n;
    int elite_n = p->elitism > 0 ? p->elitism : 1;
    int *elite = xmalloc((size_t)elite_n * sizeof *elite);
    uint8_t *best = NULL;
    int best_len = 0, best_gen = 0, gen = 0;
    double best_fit = 0, best_raw = 0;
    long best_hits = 0;
    while (st == CGT_OK) {
        fittest(pop, n, elite_n, elite);
        const Prog *b = &pop[elite[0]];
        if (!best || b->fit < best_fit) {
            free(best);
            best = dup_code(b->code, (size_t)b->len);
            best_len = b->len;
            best_fit = b->fit;
            best_raw = b->raw;
            best_hits = b->hits;
            best_gen = gen;
        }
        double mean = 0;
        for (int i = 0; i < n; i++)
            mean += pop[i].len;
        cgt_progress("gp", "generation %d: best fitness %g, %ld/%zu exact, mean size %.1f", gen,
                     best_raw, best_hits, cols.nrows, mean / n);
        if (gen + 1 >= p->generations || (p->stop_on_perfect && best_hits == (long)cols.nrows))
            break;
        st = cgt_poll();
        if (st != CGT_OK) {
            cgt_poll_error(err, st, "genetic programming");
            break;
        }
        if (p->selection == GP_SEL_LEXICASE) {
            lexicase_groups(&g, pop, n);
            for (int t = 0; t < 2; t++)
                jobs[t].gen.nuniq = g.nuniq;
        }
        int start = 0;
        for (; start < p->elitism; start++) {
            const Prog *e = &pop[elite[start]];
            Prog *d = &next[start];
            gpi_prog_set(d, e->code, e->len);
            d->raw = e->raw;
            d->fit = e->fit;
            d->hits = e->hits;
            if (e->err) {
                if (!d->err)
                    d->err = xmalloc(cols.nrows * sizeof *e->err);
                memcpy(d->err, e->err, cols.nrows * sizeof *e->err);
            }
        }
        for (int i = start; i < n; i++)
            seeds[i - start] = rng_next(&g.rng);
        /* elites keep their fitness; only the offspring are bred and evaluated */
        eval_pop(jobs, p->threads, next + start, n - start, pop, n, seeds);
        if (jobs[0].stopped || jobs[1].stopped) {
            /* the unfinished generation is dropped: pop is the last whole one */
            st = cgt_poll_error(err, cgt_poll(), "genetic programming");
            break;
        }
        evaluated += n - start;
        Prog *swap = pop;
        pop = next;
        next = swap;
        gen++;
    }
    if (st == CGT_OK) {
        int pos = 0;
        Ex *e = gpi_ex_from_code(best, &pos, p->const_min);
        Buf fb = {0}, ib = {0};
        gpi_ex_functional(&fb, e, train->names);
        e = gpi_ex_simplify(e);
        gpi_ex_infix(&ib, e, 0, train->names);
        res->formula = fb.s;
        res->infix = ib.s;
        res->raw_fitness = best_raw;
        res->train_accuracy = (double)best_hits / (double)cols.nrows;
        res->test_accuracy = -1;
        if (test && test->nrows > 0) {
            long h = 0;
            for (size_t r = 0; r < test->nrows; r++)
                h += gpi_ex_eval(e, test->x + r * (size_t)test->nvars) == test->y[r];
            res->test_accuracy = (double)h / (double)test->nrows;
        }
        gpi_ex_free(e);
        res->generation = best_gen;
        res->generations_run = gen + 1;
        res->length = best_len;
        res->depth = prog_depth(best, best_len);
        res->seed = p->seed;
        res->programs_evaluated = evaluated;
        res->seconds = cgt_now() - t0;
    }
    free(best);
    free(elite);
    free(g.cand);
    free(g.cases);
    free(g.uniq);
    free(g.et);
    free(g.lev);
    pop_free(pop, n);
    pop_free(next, n);
    VEC_FREE(code);
    VEC_FREE(tmp);
    for (int t = 0; t < 2; t++) {
        gpi_scratch_free(&jobs[t].scratch);
        free(jobs[t].gen.cand);
        free(jobs[t].gen.cases);
        free(jobs[t].gen.cbits);
        VEC_FREE(jobs[t].code);
        VEC_FREE(jobs[t].tmp);
    }
    free(seeds);
    free(store);
    return st;
}

void gp_result_free(GpResult *res)
{
    free(res->formula);
    free(res->infix);
    res->formula = res->infix = NULL;
}

