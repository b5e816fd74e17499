/* The `ga` statement (docs/gp.md, "Genetic algorithms"): the engine of
 * src/lib/ga with the fitness computed by a function of the script.  The
 * interpreter is not thread-safe, so the engine calls the function from
 * this thread, one chromosome at a time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ga/ga.h"
#include "modules/core/callopts.h"
#include "modules/ga/module.h"
#include "runtime/interp.h"
#include "lib/util/xalloc.h"

static const char *const sel_words[] = {"tournament", "uniform", "truncation"};
static const char *const cross_words[] = {"onepoint", "twopoint", "uniform"};

/* What the fitness function sees: a string over the alphabet, or a list
 * of integers lo + gene. */
typedef struct {
    Call *c;
    const Value *fn;
    const char *alphabet; /* NULL: integer vectors */
    int64_t lo;
} FitCtx;

static Value *chromosome(const FitCtx *f, const int32_t *genes, int len)
{
    if (f->alphabet) {
        char *s = xmalloc((size_t)len + 1);
        for (int i = 0; i < len; i++)
            s[i] = f->alphabet[genes[i]];
        s[len] = 0;
        return val_str_own(s);
    }
    Value *l = val_list();
    for (int i = 0; i < len; i++)
        val_list_push(l, val_int(f->lo + genes[i]));
    return l;
}

static CgtStatus fitness(void *ctx, const int32_t *genes, int len, int64_t *out, CgtError *err)
{
    FitCtx *f = ctx;
    (void)err; /* the interpreter keeps its own error record */
    Value *x = chromosome(f, genes, len);
    Value *r = rt_call_value(f->c->I, f->fn, &x, 1, f->c->arg_locs[0]);
    if (!r) {
        val_unref(x);
        return CGT_ERR_TYPE;
    }
    bool ok = r->kind == VAL_INT && val_get_i64(r, out);
    if (!ok) {
        StrBuf b, t;
        sb_init(&b);
        sb_init(&t);
        val_format_brief(x, &b, false, 80);
        val_format_brief(r, &t, false, 80);
        rt_error(f->c->I, DIAG_TYPE, f->c->arg_locs[0],
                 "the fitness function returned %s for %s; it must return an integer", t.s, b.s);
        rt_hint(f->c->I, "fitness values are integers within -2^63..2^63-1; larger is better");
        sb_free(&b);
        sb_free(&t);
    }
    val_unref(r);
    val_unref(x);
    return ok ? CGT_OK : CGT_ERR_TYPE;
}

static const char *const end_words[] = {"generations", "target", "budget"};

/* The record (docs/language.md "Results as records"): the result, then
 * every option as the run used it. */
static Value *ga_record(const FitCtx *f, const GaParams *p, const GaResult *r,
                        const char *probs[4], int threads, int64_t hi)
{
    Value *m = val_result("ga");
    const AstNode *def = f->fn->u.fn.def;
    if (def && def->text && def->text[0])
        val_map_set_str(m, "function", def->text);
    else
        val_map_set(m, "function", val_null());
    val_map_set(m, "chromosome", chromosome(f, r->best, r->length));
    val_map_set_int(m, "fitness", r->best_fitness);
    val_map_set_int(m, "generation", r->best_generation);
    val_map_set_int(m, "run", r->best_run + 1);
    Value *h = val_list();
    for (int g = 0; g < r->nhist; g++) {
        Value *row = val_map();
        char mean[64];
        snprintf(mean, sizeof mean, "%.3f", r->hist_mean[g]);
        val_map_set_int(row, "generation", g);
        val_map_set_int(row, "best", r->hist_best[g]);
        val_map_set_str(row, "mean", mean);
        val_list_push(h, row);
    }
    val_map_set(m, "history", h);
    Value *rb = val_list();
    for (int i = 0; i < r->runs_done; i++)
        val_list_push(rb, val_int(r->run_best[i]));
    val_map_set(m, "run_best", rb);
    val_map_set_int(m, "evaluations", r->evaluations);
    val_map_set_str(m, "ended", end_words[r->end]);
    val_map_set_int(m, "seed", (int64_t)r->seed);
    if (f->alphabet) {
        val_map_set_str(m, "alphabet", f->alphabet);
        val_map_set(m, "values", val_null());
    } else {
        val_map_set(m, "alphabet", val_null());
        val_map_set(m, "values", val_range(f->lo, hi));
    }
    val_map_set_int(m, "length", p->length);
    val_map_set_int(m, "population", p->population);
    val_map_set_int(m, "generations", p->generations);
    val_map_set_str(m, "selection", sel_words[p->selection]);
    val_map_set_int(m, "tournament", p->tournament);
    val_map_set_str(m, "p", probs[0]);
    val_map_set_str(m, "truncation", probs[1]);
    val_map_set_str(m, "crossover", cross_words[p->crossover]);
    val_map_set_str(m, "crossover_rate", probs[2]);
    val_map_set_str(m, "mutation", probs[3]);
    val_map_set_int(m, "elitism", p->elitism);
    val_map_set_int(m, "runs", p->runs);
    val_map_set_opt_int(m, "budget", p->budget > 0, p->budget);
    val_map_set_opt_int(m, "target", p->has_target, p->target);
    val_map_set_int(m, "threads", threads);
    return m;
}

Value *bi_ga(Call *c)
{
    GaParams p;
    ga_params_default(&p);
    FitCtx f = {.c = c, .fn = c->args[0]};
    Value *av = call_opt(c, "alphabet"), *vv = call_opt(c, "values"), *lv = call_opt(c, "length");
    if ((!av) == (!vv) || !lv) {
        rt_error(c->I, DIAG_TYPE, c->loc,
                 "ga needs `length N` and either `alphabet \"...\"` or `values LO..HI`");
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
        return NULL;
    }
    int64_t hi = 0;
    if (av) {
        const char *s = av->u.str.s;
        size_t n = strlen(s);
        for (size_t i = 0; i < n; i++)
            if (strchr(s + i + 1, s[i]))
                return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "alphabet"),
                                "the alphabet has the letter '%c' twice", s[i]);
        if (n < 2)
            return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "alphabet"),
                            "the alphabet needs at least two letters");
        f.alphabet = s;
        p.alleles = (uint32_t)n;
    } else {
        f.lo = vv->u.range.lo;
        hi = vv->u.range.hi;
        if (hi <= f.lo || (uint64_t)(hi - f.lo) >= GA_MAX_ALLELES)
            return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "values"),
                            "values must be a range LO..HI with LO < HI and at most %u values",
                            GA_MAX_ALLELES);
        p.alleles = (uint32_t)(hi - f.lo + 1);
    }
    int64_t len = 0, pop = p.population, gens = p.generations, tour = p.tournament;
    int64_t elit = 0, runs = 1, budget = 0, target = 0, threads = 2, seed = 1;
    int sel = 0, cross = 0;
    char ptext[64] = "", ttext[64] = "0.5", xtext[64] = "1", mtext[64] = "0.005";
    double prob = -1;
    if (!callopt_int(c, "length", 1, GA_MAX_LENGTH, &len) ||
        !callopt_int(c, "population", 2, GA_MAX_POPULATION, &pop) ||
        !callopt_int(c, "generations", 1, 100000000, &gens) ||
        !callopt_int(c, "tournament", 1, GA_MAX_POPULATION, &tour) ||
        !callopt_int(c, "elitism", 0, GA_MAX_POPULATION, &elit) ||
        !callopt_int(c, "runs", 1, 100000000, &runs) ||
        !callopt_int(c, "budget", 1, INT64_MAX, &budget) ||
        !callopt_int(c, "target", INT64_MIN, INT64_MAX, &target) ||
        !callopt_int(c, "threads", 1, 2, &threads) ||
        !callopt_int(c, "seed", 0, INT64_MAX, &seed) ||
        !callopt_word(c, "selection", sel_words, 3, &sel) ||
        !callopt_word(c, "crossover", cross_words, 3, &cross) ||
        !callopt_prob(c, "p", &prob, ptext, sizeof ptext) ||
        !callopt_prob(c, "truncation", &p.truncation, ttext, sizeof ttext) ||
        !callopt_prob(c, "crossover_rate", &p.p_crossover, xtext, sizeof xtext) ||
        !callopt_prob(c, "mutation", &p.mutation, mtext, sizeof mtext))
        return NULL;
    p.length = (int)len;
    p.population = (int)pop;
    p.generations = (int)gens;
    p.tournament = (int)tour;
    p.elitism = (int)elit;
    p.runs = (int)runs;
    p.budget = budget;
    p.has_target = call_opt(c, "target") != NULL;
    p.target = target;
    p.selection = (GaSelection)sel;
    p.crossover = (GaCrossover)cross;
    /* p: the winner's probability in a tournament (default 1), the entry
     * probability in a uniform tournament (default 0.2) */
    if (p.selection == GA_SEL_UNIFORM)
        p.p_enter = prob >= 0 ? prob : 0.2;
    else
        p.p_win = prob >= 0 ? prob : 1;
    if (!ptext[0])
        snprintf(ptext, sizeof ptext, "%s", p.selection == GA_SEL_UNIFORM ? "0.2" : "1");
    p.seed = (uint64_t)seed;
    uint64_t s;
    if (rt_seed(c->I, &s))
        p.seed = s;
    CgtError err;
    cgt_error_clear(&err);
    if (ga_params_check(&p, &err) != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);
    GaResult r;
    CgtStatus st = ga_run(&p, fitness, &f, &r, &err);
    const char *probs[4] = {ptext, ttext, xtext, mtext};
    Value *rec = r.best ? ga_record(&f, &p, &r, probs, (int)threads, hi) : NULL;
    ga_result_free(&r);
    if (st == CGT_OK)
        return rec;
    if (!rt_failed(c->I))
        rt_error_from(c->I, c->loc, &err);
    if (rec) {
        val_map_set_str(rec, "ended", "stopped");
        rt_set_partial(c->I, rec); /* e.partial: the best found so far */
    }
    return NULL;
}

void ga_text(const Call *c, const Value *m, StrBuf *b)
{
    (void)c;
    const Value *fn = val_map_get(m, "function"), *al = val_map_get(m, "alphabet");
    const Value *vals = val_map_get(m, "values");
    sb_printf(b, "ga %s: length %lld over ",
              fn && fn->kind == VAL_STR ? fn->u.str.s : "(function)",
              (long long)val_field_int(m, "length"));
    if (al && al->kind == VAL_STR)
        sb_printf(b, "\"%s\"", al->u.str.s);
    else if (vals && vals->kind == VAL_RANGE)
        sb_printf(b, "%lld..%lld", (long long)vals->u.range.lo, (long long)vals->u.range.hi);
    sb_printf(b, ", population %lld, seed %lld\n", (long long)val_field_int(m, "population"),
              (long long)val_field_int(m, "seed"));
    sb_puts(b, "best:     ");
    const Value *ch = val_map_get(m, "chromosome");
    if (ch)
        val_format(ch, b, false);
    sb_printf(b, "\nfitness:  %lld, found in run %lld, generation %lld\n",
              (long long)val_field_int(m, "fitness"), (long long)val_field_int(m, "run"),
              (long long)val_field_int(m, "generation"));
    const Value *rb = val_map_get(m, "run_best");
    size_t done = rb && rb->kind == VAL_LIST ? rb->u.list.len : 0;
    const char *ended = val_field_str(m, "ended");
    sb_printf(b, "runs:     %zu of %lld, %lld evaluations%s\n", done,
              (long long)val_field_int(m, "runs"), (long long)val_field_int(m, "evaluations"),
              strcmp(ended, "target") == 0    ? " (stopped at the target)"
              : strcmp(ended, "budget") == 0  ? " (stopped by the budget)"
              : strcmp(ended, "stopped") == 0 ? " (stopped by a limit or Ctrl-C: the best so far)"
                                              : "");
}
