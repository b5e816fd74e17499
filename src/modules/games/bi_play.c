/* Builtins of the heap-games module that search positions rather than
 * read the Grundy table: genus, outcome and moves (docs/games.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/games/module.h"
#include "modules/games/gameobj.h"
#include "modules/games/heaps.h"
#include "lib/util/xalloc.h"

/* ---- genus ---- */

/* A genus search starts from the options of its largest heap: refuse one
 * whose options alone pass the search's position cap (heaps.h). */
static bool genus_within_budget(Call *c, GameObj *g, uint64_t top)
{
    char why[300];
    if (heap_within_budget(g->rs, top, GENUS_LIMIT_DEFAULT, true, why, sizeof why))
        return true;
    rt_error(c->I, DIAG_LIMIT, c->arg_locs[1], "genus out of reach of search: %s", why);
    return false;
}

/* genus G [heaps] and genus G a..b: the record of docs/language.md
 * ("Results as records"); genus_text is its statement's text. */
Value *bi_genus(Call *c)
{
    if (c->nargs < 2 || !c->args[1])
        return rt_error(c->I, DIAG_TYPE, c->loc, "genus of a heap game needs heaps: %s",
                        c->bi->synopsis);
    GameObj *g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "genus");
    if (!g)
        return NULL;
    Value *a = c->args[1];
    CgtError err;
    cgt_error_clear(&err);
    Value *r = val_result("genus");
    val_map_set_str(r, "game", g->name);
    if (a->kind == VAL_LIST) {
        size_t k = a->u.list.len;
        uint32_t *heaps = xcalloc(k ? k : 1, sizeof *heaps);
        uint32_t top = 0;
        for (size_t i = 0; i < k; i++) {
            if (!heap_tabulated(c, a->u.list.items[i], c->arg_locs[1], &heaps[i])) {
                free(heaps);
                val_unref(r);
                return NULL;
            }
            top = heaps[i] > top ? heaps[i] : top;
        }
        if (!genus_within_budget(c, g, top)) {
            free(heaps);
            val_unref(r);
            return NULL;
        }
        Genus gen;
        CgtStatus st = genus_position(game_genus(g), heaps, k, &gen, &err);
        free(heaps);
        if (st != CGT_OK) {
            val_unref(r);
            return rt_error_from(c->I, c->arg_locs[1], &err);
        }
        val_map_set(r, "position", val_ref(a));
        val_map_set(r, "genus", val_str_own(genus_format(&gen)));
        val_map_set_int(r, "normal", gen.g);
        val_map_set_int(r, "misere", gen.gamma[0]);
        return r;
    }
    int64_t lo = a->u.range.lo, hi = a->u.range.hi;
    if (lo < 0 || hi < lo) {
        val_unref(r);
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1], "expected a range a..b with 0 <= a <= b");
    }
    if ((uint64_t)hi >= HEAP_SEARCH_BOUND) {
        mpz_t z;
        mpz_init_set_ui(z, (unsigned long)hi);
        heap_beyond(c, c->arg_locs[1], z, HEAP_SEARCH_BOUND, heap_search_hint);
        mpz_clear(z);
        val_unref(r);
        return NULL;
    }
    if (!genus_within_budget(c, g, (uint64_t)hi)) {
        val_unref(r);
        return NULL;
    }
    /* lists indexed from heap a */
    Value *gl = val_list(), *nl = val_list(), *ml = val_list();
    val_map_set_int(r, "from", lo);
    val_map_set_int(r, "to", hi);
    val_map_set(r, "genus", gl);
    val_map_set(r, "normal", nl);
    val_map_set(r, "misere", ml);
    for (int64_t n = lo; n <= hi; n++) {
        Genus gen;
        if (genus_heap(game_genus(g), (uint32_t)n, &gen, &err) != CGT_OK) {
            val_unref(r);
            return rt_error_from(c->I, c->arg_locs[1], &err);
        }
        val_list_push(gl, val_str_own(genus_format(&gen)));
        val_list_push(nl, val_int(gen.g));
        val_list_push(ml, val_int(gen.gamma[0]));
    }
    return r;
}

void games_genus_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const char *name = val_field_str(r, "game");
    const Value *gl = val_map_get(r, "genus"), *pos = val_map_get(r, "position");
    if (pos) {
        sb_printf(b, "%s ", name);
        val_format(pos, b, false);
        sb_printf(b, ": genus %s\n", val_field_str(r, "genus"));
        return;
    }
    int64_t lo = val_field_int(r, "from");
    sb_printf(b, "%s: genus for n = %lld..%lld\n", name, (long long)lo,
              (long long)val_field_int(r, "to"));
    for (size_t i = 0; gl && gl->kind == VAL_LIST && i < gl->u.list.len; i++) {
        const Value *s = gl->u.list.items[i];
        sb_printf(b, "%4lld: %s\n", (long long)(lo + (int64_t)i),
                  s->kind == VAL_STR ? s->u.str.s : "");
    }
}

/* ---- outcome and moves ---- */

/* The heaps of an outcome position.  When every heap is below the table
 * bound and the largest has at most `budget` options, *searched is true and
 * out[] holds them; otherwise *searched is false, *nimsum is the nim-sum of
 * their Grundy values (heap_grundy) and why[] says what is out of reach. */
static bool heaps_of(Call *c, GameObj *g, const Value *a, Loc loc, uint64_t budget,
                     uint32_t **out, size_t *k, uint32_t *nimsum, char *why, size_t whylen,
                     bool *searched)
{
    *k = a->u.list.len;
    *out = xcalloc(*k ? *k : 1, sizeof **out);
    *searched = true;
    mpz_t z, top;
    mpz_inits(z, top, NULL);
    bool ok = true;
    for (size_t i = 0; i < *k && ok; i++) {
        uint64_t n;
        ok = heap_read(c, a->u.list.items[i], loc, z);
        if (ok && heap_index(z, HEAP_SEARCH_BOUND, &n))
            (*out)[i] = (uint32_t)n;
        else
            *searched = false;
        if (ok && mpz_cmp(z, top) > 0)
            mpz_set(top, z);
    }
    uint64_t t;
    if (ok && *searched && heap_index(top, HEAP_SEARCH_BOUND, &t))
        *searched = heap_within_budget(g->rs, t, budget, true, why, whylen);
    else if (ok) {
        char *s = mpz_get_str(NULL, 10, top);
        snprintf(why, whylen, "heap %s is past the search bound %llu", s,
                 (unsigned long long)HEAP_SEARCH_BOUND);
        free(s);
    }
    *nimsum = 0;
    for (size_t i = 0; i < *k && ok && !*searched; i++) {
        uint32_t v;
        heap_read(c, a->u.list.items[i], loc, z);
        ok = heap_grundy(c, g, z, loc, &v);
        *nimsum ^= v;
    }
    mpz_clears(z, top, NULL);
    if (!ok)
        free(*out);
    return ok;
}

Value *bi_outcome(Call *c) { return games_outcome_given(c, NULL); }

/* The record of a winning move: the heap moved in, what it became, the
 * position after it. */
static Value *move_record(uint32_t heap, const uint32_t *into, size_t ninto,
                          const uint32_t *result, size_t nresult)
{
    Value *mvr = val_map(), *il = val_list(), *rl = val_list();
    val_map_set_int(mvr, "heap", heap);
    for (size_t t = 0; t < ninto; t++)
        val_list_push(il, val_int(into[t]));
    for (size_t t = 0; t < nresult; t++)
        val_list_push(rl, val_int(result[t]));
    val_map_set(mvr, "into", il);
    val_map_set(mvr, "result", rl);
    return mvr;
}

/* The position after the given move: the other heaps in their order, the
 * parts appended, heaps of size 0 dropped (the search's moves have that
 * form, src/lib/heap/outcome.h). */
static Value *given_move(const uint32_t *heaps, size_t k, const OutcomeGiven *gv)
{
    uint32_t *res = xcalloc(k + gv->ninto + 1, sizeof *res);
    size_t n = 0;
    for (size_t i = 0; i < k; i++)
        if (i != gv->move_index && heaps[i])
            res[n++] = heaps[i];
    for (size_t t = 0; t < gv->ninto; t++)
        if (gv->into[t])
            res[n++] = gv->into[t];
    Value *v = move_record(heaps[gv->move_index], gv->into, gv->ninto, res, n);
    free(res);
    return v;
}

Value *games_outcome_given(Call *c, const OutcomeGiven *gv)
{
    if (c->nargs < 2 || !c->args[1])
        return rt_error(c->I, DIAG_TYPE, c->loc, "outcome needs a position: %s",
                        c->bi->synopsis);
    GameObj *g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "outcome");
    if (!g)
        return NULL;
    OutcomeCache *oc = game_outcome(g);
    Value *pv = call_opt(c, "positions");
    int64_t maxpos = HEAP_POSITIONS_DEFAULT;
    if (pv && !call_int(c, pv, call_opt_loc(c, "positions"), "positions", 1, 1000000000, &maxpos))
        return NULL;
    /* The heap rule (src/modules/games/heaps.h): a position with a heap past the
       search bound, or whose largest heap alone has more options than the
       position budget, is not searched; its normal-play outcome is the
       nim-sum of the Grundy values (any heap with a proved period), its
       misere outcome out of reach. */
    char reach[600] = "";
    uint32_t *heaps;
    size_t k;
    uint32_t nimsum = 0;
    bool searched = true;
    if (!heaps_of(c, g, c->args[1], c->arg_locs[1], (uint64_t)maxpos, &heaps, &k, &nimsum, reach,
                  sizeof reach, &searched))
        return NULL;
    outcome_set_limit(oc, (size_t)maxpos);
    CgtError err;
    cgt_error_clear(&err);
    Outcome res[2];
    bool found[2] = {false, false};
    OutcomeMove mv[2];
    /* A statement whose position is too large for the search still answers
       what it can: normal play from the Grundy values (the
       nim-sum, Sprague-Grundy), misere play as out of reach of search with
       the quotient route as a hint. */
    bool by_grundy = !searched, misere_unknown = !searched && !gv;
    if (!searched)
        res[0] = nimsum == 0 ? OUTCOME_P : OUTCOME_N;
    if (gv)
        res[1] = gv->is_p ? OUTCOME_P : OUTCOME_N;
    for (int m = 0; m < 2 - (gv != NULL) && searched; m++) {
        CgtStatus st = m ? outcome_misere(oc, heaps, k, &res[m], &err)
                         : outcome_normal(oc, heaps, k, &res[m], &err);
        if (st == CGT_OK && res[m] == OUTCOME_N)
            st = outcome_winning_move(oc, m == 1, heaps, k, &found[m], &mv[m], &err);
        /* the position cap only: --timeout and Ctrl-C still stop the run */
        bool capped = st == CGT_ERR_LIMIT && strstr(err.msg, "outcome search passed") != NULL;
        if (capped && m == 0) {
            /* the heap rule's Grundy values: from the table, a proved
               period, or by extending the table (src/modules/games/heaps.h) */
            nimsum = 0;
            mpz_t z;
            mpz_init(z);
            for (size_t i = 0; i < k; i++) {
                uint32_t v;
                mpz_set_ui(z, heaps[i]);
                if (!heap_grundy(c, g, z, c->arg_locs[1], &v)) {
                    mpz_clear(z);
                    free(heaps);
                    return NULL;
                }
                nimsum ^= v;
            }
            mpz_clear(z);
            by_grundy = true;
            res[0] = nimsum == 0 ? OUTCOME_P : OUTCOME_N;
            snprintf(reach, sizeof reach, "%s", err.msg);
            cgt_error_clear(&err);
            st = CGT_OK;
        } else if (capped && m == 1) {
            misere_unknown = true;
            snprintf(reach, sizeof reach, "%s", err.msg);
            cgt_error_clear(&err);
            st = CGT_OK;
        }
        if (st != CGT_OK) {
            if (m == 1 && found[0])
                outcome_move_free(&mv[0]);
            free(heaps);
            return rt_error_from(c->I, c->arg_locs[1], &err);
        }
    }
    uint32_t top = 0; /* the largest heap, for the quotient hint */
    for (size_t i = 0; i < k; i++)
        top = heaps[i] > top ? heaps[i] : top;
    Value *gmove = gv && gv->have_move && gv->move_index < k ? given_move(heaps, k, gv) : NULL;
    free(heaps);
    static const char *const conv[2] = {"normal", "misere"};
    Value *r = val_result("outcome");
    val_map_set_str(r, "game", g->name);
    val_map_set(r, "position", val_ref(c->args[1]));
    for (int m = 0; m < 2; m++) {
        char key[32];
        if (m == 1 && misere_unknown)
            val_map_set(r, conv[m], val_null());
        else
            val_map_set_str(r, conv[m], res[m] == OUTCOME_P ? "P" : "N");
        snprintf(key, sizeof key, "%s_move", conv[m]);
        if (m == 1 && gv) {
            val_map_set(r, key, gmove ? gmove : val_null());
            continue;
        }
        if (!found[m]) {
            val_map_set(r, key, val_null());
            continue;
        }
        /* the move: the heap moved in, the heaps it became, the position */
        const HeapOptions *opts;
        CgtError e2;
        const uint32_t *into = NULL;
        size_t ninto = 0;
        if (outcome_heap_options(oc, mv[m].heap, &opts, &e2) == CGT_OK &&
            mv[m].option < opts->count) {
            into = opts->parts + opts->start[mv[m].option];
            ninto = opts->start[mv[m].option + 1] - opts->start[mv[m].option];
        }
        val_map_set(r, key, move_record(mv[m].heap, into, ninto, mv[m].result, mv[m].nresult));
        outcome_move_free(&mv[m]);
    }
    val_map_set_str(r, "normal_by", by_grundy ? "nim-sum of Grundy values" : "search");
    val_map_set_opt_int(r, "nim_sum", by_grundy, nimsum);
    val_map_set(r, "misere_by", gv ? val_str(gv->by) : misere_unknown ? val_null() : val_str("search"));
    val_map_set(r, "misere_why", misere_unknown ? val_str(reach) : val_null());
    if (!misere_unknown) {
        val_map_set(r, "misere_hint", val_null());
    } else if (searched && top <= HEAP_QUOTIENT_MAX) {
        char *code = game_arg_code(c, 0);
        StrBuf pos;
        sb_init(&pos);
        val_format(c->args[1], &pos, false);
        val_map_set(r, "misere_hint",
                    val_str_own(xasprintf("a misere quotient decides it: `quotient q = %s to %u; "
                                          "outcome q %s;`",
                                          code, top, pos.s)));
        sb_free(&pos);
        free(code);
    } else {
        val_map_set(r, "misere_hint",
                    val_str_own(xasprintf("a misere quotient decides positions of heaps up to its "
                                          "bound (`quotient q = G to N;`, N <= %d); none reaches "
                                          "this one",
                                          HEAP_QUOTIENT_MAX)));
    }
    val_map_set(r, "element", gv && gv->element ? val_str(gv->element) : val_null());
    return r;
}

/* The text of an outcome record of a heap game (the quotient's outcome
 * records have their own, src/modules/misere). */
void games_outcome_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    static const char *const conv[2] = {"normal", "misere"};
    const Value *pos = val_map_get(r, "position");
    if (val_map_get(r, "heap")) {
        /* a quotient's answer: misere play, from its element or from the
           proved description of an infinite quotient */
        sb_printf(b, "%s ", val_field_str(r, "game"));
        val_format(pos, b, false);
        sb_printf(b, ": misere %s ", val_field_str(r, "misere"));
        if (val_field_bool(r, "infinite"))
            sb_printf(b, "(from the proved description of the infinite Q(%lld))\n",
                      (long long)val_field_int(r, "heap"));
        else if (val_map_get(r, "heap")->kind == VAL_NULL)
            /* a mixed or explicit-set quotient, named by its game */
            sb_printf(b, "(element %s of the quotient)\n", val_field_str(r, "element"));
        else
            sb_printf(b, "(element %s of Q(%lld))\n", val_field_str(r, "element"),
                      (long long)val_field_int(r, "heap"));
        return;
    }
    if (!pos || pos->kind == VAL_NULL) {
        /* an explicit game: the record says its outcomes only */
        sb_printf(b, "%s: normal %s, misere %s\n", val_field_str(r, "game"),
                  val_field_str(r, "normal"), val_field_str(r, "misere"));
        return;
    }
    sb_printf(b, "%s ", val_field_str(r, "game"));
    val_format(pos, b, false);
    sb_putc(b, ':');
    bool by_grundy = strcmp(val_field_str(r, "normal_by"), "search") != 0;
    for (int m = 0; m < 2; m++) {
        const Value *o = val_map_get(r, conv[m]);
        if (m == 1 && (!o || o->kind != VAL_STR)) {
            sb_printf(b, ", misere out of reach of search (%s)\n",
                      val_field_str(r, "misere_why"));
            sb_printf(b, "  hint: %s\n", val_field_str(r, "misere_hint"));
            return;
        }
        sb_printf(b, "%s %s %s", m ? "," : "", conv[m], val_field_str(r, conv[m]));
        if (m == 0 && by_grundy)
            sb_printf(b, " (nim-sum of Grundy values %lld)", (long long)val_field_int(r, "nim_sum"));
        char key[32];
        snprintf(key, sizeof key, "%s_move", conv[m]);
        const Value *mv = val_map_get(r, key);
        if (mv && mv->kind == VAL_MAP) {
            sb_printf(b, " (move heap %lld -> ", (long long)val_field_int(mv, "heap"));
            const Value *into = val_map_get(mv, "into");
            if (!into || into->kind != VAL_LIST || into->u.list.len == 0)
                sb_puts(b, "nothing");
            for (size_t i = 0; into && into->kind == VAL_LIST && i < into->u.list.len; i++) {
                if (i)
                    sb_puts(b, " + ");
                val_format(into->u.list.items[i], b, false);
            }
            sb_puts(b, ")");
        }
    }
    const Value *by = val_map_get(r, "misere_by");
    if (by && by->kind == VAL_STR && strcmp(by->u.str.s, "search") != 0)
        sb_printf(b, ", from %s", by->u.str.s);
    sb_putc(b, '\n');
}

Value *bi_moves(Call *c)
{
    GameObj *g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "moves");
    if (!g)
        return NULL;
    uint32_t n;
    if (!heap_tabulated(c, c->args[1], c->arg_locs[1], &n))
        return NULL;
    char why[300];
    if (!heap_within_budget(g->rs, n, HEAP_POSITIONS_DEFAULT, false, why, sizeof why))
        return rt_error(c->I, DIAG_LIMIT, c->arg_locs[1], "too many moves to list: %s", why);
    HeapOptions o;
    heapopts_init(&o);
    CgtError err;
    cgt_error_clear(&err);
    if (ruleset_options(g->rs, (uint32_t)n, &o, &err) != CGT_OK) {
        heapopts_free(&o);
        return rt_error_from(c->I, c->arg_locs[1], &err);
    }
    Value *l = val_list();
    for (size_t i = 0; i < o.count; i++) {
        Value *opt = val_list();
        for (size_t j = o.start[i]; j < o.start[i + 1]; j++)
            val_list_push(opt, val_int(o.parts[j]));
        val_list_push(l, opt);
    }
    heapopts_free(&o);
    return l;
}

void games_moves_text(const Call *c, const Value *l, StrBuf *b)
{
    if (l->kind != VAL_LIST) {
        val_format(l, b, true);
        sb_putc(b, '\n');
        return;
    }
    uint32_t n = 0;
    int64_t x;
    if (val_get_i64(c->args[1], &x))
        n = (uint32_t)x;
    sb_printf(b, "%s heap %u: ", game_of(c->args[0])->name, n);
    if (l->u.list.len == 0)
        sb_puts(b, "no moves");
    for (size_t i = 0; i < l->u.list.len; i++) {
        if (i)
            sb_puts(b, ", ");
        val_format(l->u.list.items[i], b, false);
    }
    sb_putc(b, '\n');
}
