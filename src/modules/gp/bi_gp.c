/* The `gp` statement (docs/gp.md): genetic programming for Grundy formulas
 * over a game's positions, seeded and reproducible. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/gp/gp.h"
#include "modules/core/callopts.h"
#include "modules/gp/module.h"
#include "modules/games/gameobj.h"
#include "runtime/interp.h"
#include "lib/util/xalloc.h"

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

/* gp(G, {...}): the result as a record (docs/language.md "Results as
 * records"); `variables` names the formula's terminals in order, which
 * eval_formula uses. */
static Value *gp_record(const char *game, const GpGameSpec *spec, const GpParams *p,
                        const GpResult *r, const GpData *train, size_t ntest)
{
    Value *m = val_result("gp");
    val_map_set_str(m, "game", game);
    val_map_set(m, "heaps", val_range(spec->min_heaps, spec->max_heaps));
    val_map_set(m, "sizes", val_range(spec->lo, spec->hi));
    val_map_set_str(m, "formula", r->formula);
    val_map_set_str(m, "infix", r->infix);
    Value *vars = val_list();
    for (int i = 0; i < train->nvars; i++)
        val_list_push(vars, val_str(train->names[i]));
    val_map_set(m, "variables", vars);
    size_t ntrain = train->nrows;
    val_map_set_int(m, "training", (int64_t)ntrain);
    val_map_set_int(m, "training_hits", (int64_t)(r->train_accuracy * (double)ntrain + 0.5));
    bool held = ntest > 0 && r->test_accuracy >= 0;
    val_map_set_int(m, "heldout", (int64_t)(held ? ntest : 0));
    val_map_set_opt_int(m, "heldout_hits", held,
                    (int64_t)(r->test_accuracy * (double)ntest + 0.5));
    val_map_set_int(m, "generation", r->generation);
    val_map_set_int(m, "generations_run", r->generations_run);
    val_map_set_int(m, "population", p->population);
    val_map_set_int(m, "seed", (int64_t)r->seed);
    val_map_set_int(m, "length", r->length);
    return m;
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
    if (!callopt_int32(c, "population", 1, 1000000, &p.population) ||
        !callopt_int32(c, "generations", 1, 100000, &p.generations) ||
        !callopt_int32(c, "tournament", 1, 1000000, &p.tournament) ||
        !callopt_int32(c, "elitism", 0, 1000000, &p.elitism) ||
        !callopt_int32(c, "maxlength", 1, 100000, &p.max_length) ||
        !callopt_int32(c, "threads", 1, 2, &p.threads) ||
        !callopt_int32(c, "heldout", 0, 1000, &spec.heldout_extra) ||
        !callopt_prob(c, "crossover", &p.p_crossover, NULL, 0) ||
        !callopt_prob(c, "subtree", &p.p_subtree, NULL, 0) ||
        !callopt_prob(c, "hoist", &p.p_hoist, NULL, 0) ||
        !callopt_prob(c, "point", &p.p_point, NULL, 0) ||
        !callopt_prob(c, "parsimony", &p.parsimony, NULL, 0) ||
        !callopt_word(c, "selection", sels, 2, &sel) || !callopt_word(c, "fitness", fits, 3, &fit))
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
    uint64_t seed;
    if (rt_seed(c->I, &seed))
        p.seed = seed;
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
    size_t ntest = test ? test->nrows : 0;
    Value *rec = gp_record(gname, &spec, &p, &r, train, ntest);
    gp_result_free(&r);
    gp_data_free(train);
    gp_data_free(test);
    return rec;
}

static long percent(int64_t hits, int64_t n)
{
    return n > 0 ? (long)((200 * hits + n) / (2 * n)) : 0;
}

void gp_text(const Call *c, const Value *m, StrBuf *b)
{
    (void)c;
    const Value *h = val_map_get(m, "heaps"), *sz = val_map_get(m, "sizes");
    int64_t hlo = h && h->kind == VAL_RANGE ? h->u.range.lo : 0;
    int64_t hhi = h && h->kind == VAL_RANGE ? h->u.range.hi : 0;
    sb_printf(b, "gp %s heaps %lld", val_field_str(m, "game"), (long long)hlo);
    if (hhi != hlo)
        sb_printf(b, "..%lld", (long long)hhi);
    sb_printf(b, " sizes %lld..%lld: seed %lld\n",
              (long long)(sz && sz->kind == VAL_RANGE ? sz->u.range.lo : 0),
              (long long)(sz && sz->kind == VAL_RANGE ? sz->u.range.hi : 0),
              (long long)val_field_int(m, "seed"));
    sb_printf(b, "formula:  %s\ninfix:    %s\n", val_field_str(m, "formula"),
              val_field_str(m, "infix"));
    int64_t tr = val_field_int(m, "training_hits"), nt = val_field_int(m, "training");
    sb_printf(b, "accuracy: %lld/%lld training (%ld%%), ", (long long)tr, (long long)nt,
              percent(tr, nt));
    const Value *hh = val_map_get(m, "heldout_hits");
    if (!hh || hh->kind != VAL_INT) {
        sb_puts(b, "held-out: none\n");
    } else {
        int64_t hv = val_field_int(m, "heldout_hits"), nh = val_field_int(m, "heldout");
        sb_printf(b, "%lld/%lld held-out (%ld%%)\n", (long long)hv, (long long)nh,
                  percent(hv, nh));
    }
    sb_printf(b, "found in generation %lld of %lld run (population %lld)\n",
              (long long)val_field_int(m, "generation"),
              (long long)val_field_int(m, "generations_run"),
              (long long)val_field_int(m, "population"));
}

/* eval_formula(R, [heaps]): R a gp record (formula, variables) or a formula
 * string over h1..hk. */
Value *bi_eval_formula(Call *c)
{
    const Value *r = c->args[0], *hl = c->args[1];
    const Value *fv = r;
    const char *names[GP_MAX_VARS];
    char nb[GP_MAX_VARS][16];
    int nv = 0;
    size_t k = hl->u.list.len;
    if (r->kind == VAL_MAP) {
        fv = val_map_get(r, "formula");
        const Value *vars = val_map_get(r, "variables");
        if (!fv || fv->kind != VAL_STR || !vars || vars->kind != VAL_LIST ||
            vars->u.list.len < 1 || vars->u.list.len > GP_MAX_VARS)
            return rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                            "a record for eval_formula needs `formula` (a string) and "
                            "`variables` (1 to %d names), as gp returns", GP_MAX_VARS);
        for (size_t i = 0; i < vars->u.list.len; i++) {
            const Value *v = vars->u.list.items[i];
            if (v->kind != VAL_STR)
                return rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                                "the variables of a formula are strings");
            names[nv++] = v->u.str.s;
        }
    } else if (r->kind == VAL_STR) {
        if (k < 1 || k > GP_MAX_VARS)
            return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1],
                            "a formula string takes 1 to %d heaps", GP_MAX_VARS);
        for (size_t i = 0; i < k; i++) {
            snprintf(nb[i], sizeof nb[i], "h%zu", i + 1);
            names[nv++] = nb[i];
        }
    } else {
        return rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                        "bad argument #1 to 'eval_formula' (gp record or formula string "
                        "expected, got %s)",
                        val_kind_name(r));
    }
    int64_t x[GP_MAX_VARS] = {0};
    size_t placed = 0;
    for (int v = 0; v < nv; v++) {
        if (strcmp(names[v], "n") == 0) {
            x[v] = (int64_t)k;
            continue;
        }
        if (placed < k) {
            int64_t h;
            if (!call_int(c, hl->u.list.items[placed], c->arg_locs[1], "a heap size", 0,
                          INT64_MAX, &h))
                return NULL;
            x[v] = h;
            placed++;
        }
    }
    if (placed < k)
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1],
                        "the formula has %zu heap variables, and %zu heaps were given", placed,
                        k);
    CgtError err;
    cgt_error_clear(&err);
    int64_t out;
    if (gp_formula_eval(fv->u.str.s, nv, names, x, &out, &err) != CGT_OK)
        return rt_error_from(c->I, c->arg_locs[0], &err);
    return val_int(out);
}
