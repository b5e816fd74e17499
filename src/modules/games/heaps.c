/* The one heap-size rule (src/modules/games/heaps.h; docs/games.md §7). */
#include "modules/games/heaps.h"

#include <stdio.h>
#include <stdlib.h>

#include "runtime/interp.h"
#include "lib/util/xalloc.h"

bool heap_read(Call *c, const Value *v, Loc loc, mpz_t z)
{
    if (v->kind != VAL_INT) {
        rt_error(c->I, DIAG_TYPE, loc, "a heap size must be an integer, got %s",
                 val_kind_name(v));
        return false;
    }
    val_get_mpz(v, z);
    if (mpz_sgn(z) < 0) {
        rt_error(c->I, DIAG_DOMAIN, loc, "a heap size must be a non-negative integer");
        return false;
    }
    return true;
}

bool heap_index(const mpz_t z, uint64_t bound, uint64_t *out)
{
    if (mpz_sgn(z) < 0 || !mpz_fits_ulong_p(z) || mpz_get_ui(z) >= bound)
        return false;
    *out = mpz_get_ui(z);
    return true;
}

void heap_beyond(Call *c, Loc loc, const mpz_t z, uint64_t bound, const char *hint)
{
    char *s = mpz_get_str(NULL, 10, z);
    CgtError err;
    cgt_error_clear(&err);
    grundy_beyond_error(&err, s, bound, hint);
    free(s);
    rt_error_from(c->I, loc, &err);
}

const char heap_search_hint[] =
    "only Grundy values and normal-play outcomes reach past it (from a proved period)";

bool heap_tabulated(Call *c, const Value *v, Loc loc, uint32_t *out)
{
    mpz_t z;
    mpz_init(z);
    uint64_t n = 0;
    bool ok = heap_read(c, v, loc, z);
    if (ok && !heap_index(z, HEAP_SEARCH_BOUND, &n)) {
        heap_beyond(c, loc, z, HEAP_SEARCH_BOUND, heap_search_hint);
        ok = false;
    }
    mpz_clear(z);
    *out = (uint32_t)n;
    return ok;
}

bool heap_within_budget(const Ruleset *rs, uint64_t n, uint64_t budget, bool tabulates,
                        char *why, size_t whylen)
{
    if (tabulates && n >= budget) {
        snprintf(why, whylen, "heap %llu is not below the budget of %llu positions (the search "
                              "tabulates every heap up to its largest)",
                 (unsigned long long)n, (unsigned long long)budget);
        return false;
    }
    uint64_t k = ruleset_options_bound(rs, n);
    if (k <= budget)
        return true;
    snprintf(why, whylen, "heap %llu may have up to %llu options, more than the budget of %llu "
                          "positions", (unsigned long long)n, (unsigned long long)k,
             (unsigned long long)budget);
    return false;
}

bool game_ensure_period(Call *c, GameObj *g, uint64_t limit)
{
    if (g->period_done && g->period.status == PERIOD_PROVED)
        return true;
    CgtError err;
    cgt_error_clear(&err);
    if (grundy_run_period(game_grundy(g), limit, &g->period, &err) != CGT_OK) {
        rt_error_from(c->I, c->loc, &err);
        return false;
    }
    g->period_done = true;
    return true;
}

bool game_period_proved(const GameObj *g)
{
    return g->period_done && g->period.status == PERIOD_PROVED && g->period.period > 0;
}

/* G(z) from the proved period: z reduced to pre + (z - pre) mod p, which
 * the table holds (the proof computed past pre + p). */
static bool from_period(Call *c, GameObj *g, const mpz_t z, Loc loc, uint32_t *v)
{
    const GrundyPeriod *p = &g->period;
    mpz_t t;
    mpz_init(t);
    mpz_sub_ui(t, z, (unsigned long)p->preperiod);
    uint64_t red = p->preperiod + (uint64_t)mpz_fdiv_ui(t, (unsigned long)p->period);
    mpz_clear(t);
    CgtError err;
    cgt_error_clear(&err);
    if (grundy_value_at(game_grundy(g), p, red, v, &err) != CGT_OK) {
        rt_error_from(c->I, loc, &err);
        return false;
    }
    return true;
}

/* G(n) below the table bound: extending the table to n. */
static bool from_table(Call *c, GrundyTable *gt, uint64_t n, Loc loc, uint32_t *v)
{
    CgtError err;
    cgt_error_clear(&err);
    if (grundy_extend(gt, n + 1, &err) != CGT_OK) {
        rt_error_from(c->I, loc, &err);
        return false;
    }
    *v = grundy_get(gt, n);
    return true;
}

bool heap_grundy(Call *c, GameObj *g, const mpz_t z, Loc loc, uint32_t *v)
{
    GrundyTable *gt = game_grundy(g);
    uint64_t n = 0;
    bool small = heap_index(z, GRUNDY_TABLE_BOUND, &n);
    if (small && n < grundy_count(gt)) {
        *v = grundy_get(gt, n);
        return true;
    }
    bool periodic = mpz_cmp_ui(z, (unsigned long)g->period.preperiod) >= 0;
    if (game_period_proved(g) && periodic)
        return from_period(c, g, z, loc, v);
    uint64_t limit = grundy_default_limit(g->rs);
    if (small && (n < limit || g->period_done))
        return from_table(c, gt, n, loc, v);
    /* past the default limit of `period`: try the proof first (it stops
       as soon as a period is proved), which spares tabulating to n */
    if (!game_ensure_period(c, g, limit))
        return false;
    periodic = mpz_cmp_ui(z, (unsigned long)g->period.preperiod) >= 0;
    if (game_period_proved(g) && periodic)
        return from_period(c, g, z, loc, v);
    if (small)
        return from_table(c, gt, n, loc, v);
    char hint[200];
    snprintf(hint, sizeof hint,
             "no period of %s is proved within the default limit of %llu heaps; "
             "`period G limit N;` searches further",
             g->name, (unsigned long long)limit);
    heap_beyond(c, loc, z, GRUNDY_TABLE_BOUND, hint);
    return false;
}

char *game_arg_code(Call *c, size_t i)
{
    char *t = diag_source_text(c->arg_locs[i]);
    if (!val_is_ident_key(t)) {
        free(t);
        t = xstrdup("G");
    }
    return t;
}
