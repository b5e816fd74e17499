/* The `gp` statement (docs/gp.md): genetic programming for Grundy formulas
 * over a game's positions, seeded and reproducible. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/gp.h"
#include "runtime/builtins.h"
#include "runtime/gameobj.h"
#include "util/xalloc.h"

/* Grundy value of a tuple of heaps of a declared heap game. */
static CgtStatus heap_value(void *ctx, const int *heaps, int k, int64_t *out, CgtError *err)
{
    GameObj *g = ctx;
    uint64_t h[64];
    if (k > 64)
        return cgt_error_set(err, CGT_ERR_LIMIT, "too many heaps");
    for (int i = 0; i < k; i++)
        h[i] = (uint64_t)heaps[i];
    uint32_t v;
    CgtStatus st = grundy_position(game_grundy(g), h, (size_t)k, &v, err);
    *out = v;
    return st;
}

/* A probability written as a code literal "0.9" or an integer 0/1. */
static bool prob_opt(Call *c, const char *name, double *out)
{
    Value *v = call_opt(c, name);
    if (!v)
        return true;
    if (v->kind == VAL_INT) {
        int64_t x;
        if (!call_int(c, v, call_opt_loc(c, name), name, 0, 1, &x))
            return false;
        *out = (double)x;
        return true;
    }
    char *end;
    double d = strtod(v->u.str.s, &end);
    if (*end || d < 0 || d > 1) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, name), "%s must be a number in 0..1, not %s",
                 name, v->u.str.s);
        rt_hint(c->I, "write probabilities like 0.9");
        return false;
    }
    *out = d;
    return true;
}

static bool int_opt(Call *c, const char *name, int64_t lo, int64_t hi, int *out)
{
    Value *v = call_opt(c, name);
    int64_t x;
    if (!v)
        return true;
    if (!call_int(c, v, call_opt_loc(c, name), name, lo, hi, &x))
        return false;
    *out = (int)x;
    return true;
}

static bool word_opt(Call *c, const char *name, const char *const *words, int n, int *out)
{
    Value *v = call_opt(c, name);
    if (!v)
        return true;
    for (int i = 0; i < n; i++)
        if (strcmp(v->u.str.s, words[i]) == 0) {
            *out = i;
            return true;
        }
    rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, name), "unknown %s '%s'", name, v->u.str.s);
    StrBuf b;
    sb_init(&b);
    for (int i = 0; i < n; i++)
        sb_printf(&b, "%s%s", i ? ", " : "", words[i]);
    rt_hint(c->I, "%s is one of %s", name, b.s);
    sb_free(&b);
    return false;
}

Value *bi_gp(Call *c)
{
    GameObj *g = game_of(c->args[0]);
    GpParams p;
    gp_params_default(&p);
    GpGameSpec spec;
    memset(&spec, 0, sizeof spec);
    spec.heldout_extra = 2;
    CgtError err;
    cgt_error_clear(&err);
    Value *hv = call_opt(c, "heaps"), *sv = call_opt(c, "sizes");
    if (!hv || !sv) {
        rt_error(c->I, DIAG_TYPE, c->loc, "gp needs `heaps K` and `sizes LO..HI`");
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
        return NULL;
    }
    if (hv->u.range.lo < 1 || hv->u.range.hi > 16 || hv->u.range.lo > hv->u.range.hi)
        return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "heaps"),
                        "the number of heaps must be within 1..16");
    if (sv->u.range.lo < 0 || sv->u.range.hi > 100000 || sv->u.range.lo > sv->u.range.hi)
        return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "sizes"),
                        "heap sizes must be a range within 0..100000");
    spec.min_heaps = (int)hv->u.range.lo;
    spec.max_heaps = (int)hv->u.range.hi;
    spec.lo = (int)sv->u.range.lo;
    spec.hi = (int)sv->u.range.hi;
    spec.count_terminal = call_opt(c, "count") != NULL;
    int sel = p.selection == GP_SEL_LEXICASE ? 0 : 1, fit = 0;
    static const char *const sels[] = {"lexicase", "tournament"};
    static const char *const fits[] = {"abs", "nim", "match"};
    if (!int_opt(c, "population", 1, 1000000, &p.population) ||
        !int_opt(c, "generations", 1, 100000, &p.generations) ||
        !int_opt(c, "tournament", 1, 1000000, &p.tournament) ||
        !int_opt(c, "elitism", 0, 1000000, &p.elitism) ||
        !int_opt(c, "maxlength", 1, 100000, &p.max_length) ||
        !int_opt(c, "threads", 1, 2, &p.threads) ||
        !int_opt(c, "heldout", 0, 1000, &spec.heldout_extra) ||
        !prob_opt(c, "crossover", &p.p_crossover) || !prob_opt(c, "subtree", &p.p_subtree) ||
        !prob_opt(c, "hoist", &p.p_hoist) || !prob_opt(c, "point", &p.p_point) ||
        !prob_opt(c, "parsimony", &p.parsimony) ||
        !word_opt(c, "selection", sels, 2, &sel) || !word_opt(c, "fitness", fits, 3, &fit))
        return NULL;
    p.selection = sel == 0 ? GP_SEL_LEXICASE : GP_SEL_TOURNAMENT;
    p.fitness = fit == 0 ? GP_FIT_ABS : fit == 1 ? GP_FIT_NIM : GP_FIT_MATCH;
    if (call_opt(c, "nostop"))
        p.stop_on_perfect = false;
    Value *cv = call_opt(c, "constants");
    if (cv) {
        if (cv->u.range.lo < -1000 || cv->u.range.hi > 1000 || cv->u.range.lo > cv->u.range.hi)
            return rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "constants"),
                            "constants must be a range within -1000..1000");
        p.const_min = (int)cv->u.range.lo;
        p.const_max = (int)cv->u.range.hi;
    }
    Value *fv = call_opt(c, "functions");
    if (fv && gp_params_set_functions(&p, fv->u.str.s, &err) != CGT_OK)
        return rt_error_from(c->I, call_opt_loc(c, "functions"), &err);
    /* the seed: --seed overrides the statement, default 1; always printed */
    Value *seedv = call_opt(c, "seed");
    if (seedv) {
        int64_t s;
        if (!call_int(c, seedv, call_opt_loc(c, "seed"), "the seed", 0, INT64_MAX, &s))
            return NULL;
        p.seed = (uint64_t)s;
    }
    if (c->I->seed_set)
        p.seed = c->I->seed;
    if (gp_params_check(&p, &err) != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);

    GpData *train = NULL, *test = NULL;
    CgtStatus st;
    const char *gname = g->name;
    if (g->kind == GAME_GA1 || g->kind == GAME_GA2) {
        if (gp_game_lookup(g->kind == GAME_GA1 ? "ga1" : "ga2", &spec.game, &err) != CGT_OK)
            return rt_error_from(c->I, c->arg_locs[0], &err);
        st = gp_data_game(&spec, NULL, NULL, &train, &test, &err);
    } else if (g->kind == GAME_HEAP) {
        st = gp_data_game(&spec, heap_value, g, &train, &test, &err);
    } else {
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                        "gp works on heap games and on ga1/ga2 run lengths, not %s", g->name);
    }
    if (st != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);
    GpResult r;
    memset(&r, 0, sizeof r);
    st = gp_run(&p, train, test, &r, &err);
    if (st != CGT_OK) {
        gp_data_free(train);
        gp_data_free(test);
        return rt_error_from(c->I, c->loc, &err);
    }
    StrBuf b;
    sb_init(&b);
    size_t ntrain = train->nrows, ntest = test ? test->nrows : 0;
    if (c->I->format == FMT_JSON) {
        JsonWriter w;
        rt_json_begin(&w, &b, "gp");
        jw_kv_str(&w, "game", gname);
        jw_key(&w, "heaps");
        jw_arr_begin(&w);
        jw_int(&w, spec.min_heaps);
        jw_int(&w, spec.max_heaps);
        jw_arr_end(&w);
        jw_key(&w, "sizes");
        jw_arr_begin(&w);
        jw_int(&w, spec.lo);
        jw_int(&w, spec.hi);
        jw_arr_end(&w);
        jw_kv_str(&w, "formula", r.formula);
        jw_kv_str(&w, "infix", r.infix);
        jw_key(&w, "accuracy");
        jw_double(&w, r.train_accuracy);
        jw_key(&w, "heldout_accuracy");
        if (r.test_accuracy < 0)
            jw_null(&w);
        else
            jw_double(&w, r.test_accuracy);
        jw_kv_int(&w, "generation", r.generation);
        jw_kv_int(&w, "generations_run", r.generations_run);
        jw_kv_int(&w, "population", p.population);
        jw_key(&w, "seed");
        jw_uint(&w, r.seed);
        jw_kv_int(&w, "length", r.length);
        rt_json_end(&w);
    } else {
        sb_printf(&b, "gp %s heaps %d", gname, spec.min_heaps);
        if (spec.max_heaps != spec.min_heaps)
            sb_printf(&b, "..%d", spec.max_heaps);
        sb_printf(&b, " sizes %d..%d: seed %llu\n", spec.lo, spec.hi,
                  (unsigned long long)r.seed);
        sb_printf(&b, "formula:  %s\ninfix:    %s\n", r.formula, r.infix);
        long tr = (long)(r.train_accuracy * (double)ntrain + 0.5);
        sb_printf(&b, "accuracy: %ld/%zu training (%ld%%), ", tr, ntrain,
                  (long)(r.train_accuracy * 100 + 0.5));
        if (!test || r.test_accuracy < 0)
            sb_puts(&b, "held-out: none\n");
        else
            sb_printf(&b, "%ld/%zu held-out (%ld%%)\n",
                      (long)(r.test_accuracy * (double)ntest + 0.5), ntest,
                      (long)(r.test_accuracy * 100 + 0.5));
        sb_printf(&b, "found in generation %d of %d run (population %d)\n", r.generation,
                  r.generations_run, p.population);
    }
    gp_result_free(&r);
    gp_data_free(train);
    gp_data_free(test);
    rt_emit(c->I, &b);
    return val_null();
}
