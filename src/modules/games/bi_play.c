/* Builtins of the heap-games module that search positions rather than
 * read the Grundy table: genus, outcome and moves (docs/games.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/builtins.h"
#include "modules/games/gameobj.h"
#include "modules/games/heaps.h"
#include "modules/explicit/impgameobj.h"
#include "modules/misere/quotobj.h"
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

Value *bi_genus(Call *c)
{
    if (impgame_is(c->args[0]))
        return impgame_genus(c, ((const IgId *)c->args[0]->u.obj.ptr)[0]);
    if (c->nargs < 2 || !c->args[1])
        return rt_error(c->I, DIAG_TYPE, c->loc, "genus of a heap game needs heaps: %s",
                        c->bi->synopsis);
    GameObj *g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "genus");
    if (!g)
        return NULL;
    Value *a = c->args[1];
    CgtError err;
    cgt_error_clear(&err);
    StrBuf b;
    sb_init(&b);
    JsonWriter w;
    jw_init(&w, &b);
    bool json = c->I->format == FMT_JSON;
    if (a->kind == VAL_LIST) {
        size_t k = a->u.list.len;
        uint32_t *heaps = xcalloc(k ? k : 1, sizeof *heaps);
        uint32_t top = 0;
        for (size_t i = 0; i < k; i++) {
            if (!heap_tabulated(c, a->u.list.items[i], c->arg_locs[1], &heaps[i])) {
                free(heaps);
                sb_free(&b);
                return NULL;
            }
            top = heaps[i] > top ? heaps[i] : top;
        }
        if (!genus_within_budget(c, g, top)) {
            free(heaps);
            sb_free(&b);
            return NULL;
        }
        Genus gen;
        CgtStatus st = genus_position(game_genus(g), heaps, k, &gen, &err);
        free(heaps);
        if (st != CGT_OK) {
            sb_free(&b);
            return rt_error_from(c->I, c->arg_locs[1], &err);
        }
        char *s = genus_format(&gen);
        if (!c->stmt) {
            Value *r = val_map();
            val_map_set_str(r, "game", g->name);
            val_map_set(r, "position", val_ref(a));
            val_map_set(r, "genus", val_str_own(s));
            val_map_set_int(r, "normal", gen.g);
            val_map_set_int(r, "misere", gen.gamma[0]);
            sb_free(&b);
            return r;
        }
        if (json) {
            jw_obj_begin(&w);
            jw_kv_str(&w, "kind", "genus");
            jw_kv_str(&w, "game", g->name);
            jw_key(&w, "position");
            val_json(a, &w, false);
            jw_kv_str(&w, "genus", s);
            jw_kv_int(&w, "misere_value", gen.gamma[0]);
            rt_json_end(&w);
        } else {
            StrBuf pos;
            sb_init(&pos);
            val_format(a, &pos, false);
            sb_printf(&b, "%s %s: genus %s\n", g->name, pos.s, s);
            sb_free(&pos);
        }
        free(s);
    } else {
        int64_t lo = a->u.range.lo, hi = a->u.range.hi;
        if (lo < 0 || hi < lo) {
            sb_free(&b);
            return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1],
                            "expected a range a..b with 0 <= a <= b");
        }
        if ((uint64_t)hi >= HEAP_SEARCH_BOUND) {
            mpz_t z;
            mpz_init_set_ui(z, (unsigned long)hi);
            heap_beyond(c, c->arg_locs[1], z, HEAP_SEARCH_BOUND, heap_search_hint);
            mpz_clear(z);
            sb_free(&b);
            return NULL;
        }
        if (!genus_within_budget(c, g, (uint64_t)hi)) {
            sb_free(&b);
            return NULL;
        }
        if (json) {
            jw_obj_begin(&w);
            jw_kv_str(&w, "kind", "genus");
            jw_kv_str(&w, "game", g->name);
            jw_kv_int(&w, "from", lo);
            jw_key(&w, "values");
            jw_arr_begin(&w);
        } else {
            sb_printf(&b, "%s: genus for n = %lld..%lld\n", g->name, (long long)lo,
                      (long long)hi);
        }
        StrBuf mis;
        sb_init(&mis);
        /* genus(G, a..b): lists indexed from heap a */
        Value *rec = NULL, *gl = NULL, *nl = NULL, *ml = NULL;
        if (!c->stmt) {
            rec = val_map();
            val_map_set_str(rec, "game", g->name);
            val_map_set_int(rec, "from", lo);
            val_map_set_int(rec, "to", hi);
            gl = val_list();
            nl = val_list();
            ml = val_list();
            val_map_set(rec, "genus", gl);
            val_map_set(rec, "normal", nl);
            val_map_set(rec, "misere", ml);
        }
        for (int64_t n = lo; n <= hi; n++) {
            Genus gen;
            if (genus_heap(game_genus(g), (uint32_t)n, &gen, &err) != CGT_OK) {
                sb_free(&b);
                sb_free(&mis);
                val_unref(rec);
                return rt_error_from(c->I, c->arg_locs[1], &err);
            }
            char *s = genus_format(&gen);
            if (rec) {
                val_list_push(gl, val_str_own(s));
                val_list_push(nl, val_int(gen.g));
                val_list_push(ml, val_int(gen.gamma[0]));
                continue;
            }
            if (json) {
                jw_str(&w, s);
                sb_printf(&mis, "%s%u", n > lo ? "," : "", gen.gamma[0]);
            } else {
                sb_printf(&b, "%4lld: %s\n", (long long)n, s);
            }
            free(s);
        }
        if (rec) {
            sb_free(&mis);
            sb_free(&b);
            return rec;
        }
        if (json) {
            jw_arr_end(&w);
            jw_key(&w, "misere_values");
            sb_printf(&b, "[%s]", mis.s);
            rt_json_end(&w);
        }
        sb_free(&mis);
    }
    rt_emit(c->I, &b);
    return val_null();
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

static void format_parts(StrBuf *b, const uint32_t *p, size_t n, const char *sep,
                         const char *empty)
{
    if (n == 0) {
        sb_puts(b, empty);
        return;
    }
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "%s%u", i ? sep : "", p[i]);
}

Value *bi_outcome(Call *c)
{
    if (strcmp(val_kind_name(c->args[0]), "quotient") == 0)
        return quotient_outcome_stmt(c, c->args[0], c->args[1], c->arg_locs[1]);
    if (impgame_is(c->args[0]))
        return impgame_outcome(c, ((const IgId *)c->args[0]->u.obj.ptr)[0]);
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
    bool by_grundy = !searched, misere_unknown = !searched;
    if (!searched)
        res[0] = nimsum == 0 ? OUTCOME_P : OUTCOME_N;
    for (int m = 0; m < 2 && searched; m++) {
        CgtStatus st = m ? outcome_misere(oc, heaps, k, &res[m], &err)
                         : outcome_normal(oc, heaps, k, &res[m], &err);
        if (st == CGT_OK && res[m] == OUTCOME_N && c->stmt)
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
    free(heaps);
    if (!c->stmt) {
        Value *r = val_map();
        val_map_set_str(r, "game", g->name);
        val_map_set(r, "position", val_ref(c->args[1]));
        val_map_set_str(r, "normal", res[0] == OUTCOME_P ? "P" : "N");
        if (misere_unknown) {
            val_map_set(r, "misere", val_null());
            val_map_set_str(r, "misere_why", reach);
        } else {
            val_map_set_str(r, "misere", res[1] == OUTCOME_P ? "P" : "N");
        }
        val_map_set(r, "element", val_null());
        return r;
    }
    StrBuf b;
    sb_init(&b);
    static const char *const conv[2] = {"normal", "misere"};
    if (c->I->format == FMT_JSON) {
        JsonWriter w;
        rt_json_begin(&w, &b, "outcome");
        jw_kv_str(&w, "game", g->name);
        jw_key(&w, "position");
        val_json(c->args[1], &w, false);
        for (int m = 0; m < 2; m++) {
            if (m == 1 && misere_unknown) {
                jw_key(&w, conv[m]);
                jw_null(&w);
            } else
                jw_kv_str(&w, conv[m], res[m] == OUTCOME_P ? "P" : "N");
            char key[32];
            snprintf(key, sizeof key, "%s_move", conv[m]);
            jw_key(&w, key);
            if (found[m]) {
                jw_obj_begin(&w);
                jw_kv_int(&w, "heap", mv[m].heap);
                jw_key(&w, "result");
                jw_arr_begin(&w);
                for (size_t i = 0; i < mv[m].nresult; i++)
                    jw_uint(&w, mv[m].result[i]);
                jw_arr_end(&w);
                jw_obj_end(&w);
            } else {
                jw_null(&w);
            }
        }
        if (by_grundy) {
            jw_kv_str(&w, "normal_by", "nim-sum of Grundy values");
            jw_kv_int(&w, "nim_sum", nimsum);
        }
        if (misere_unknown)
            jw_kv_str(&w, "misere_why", reach);
        rt_json_end(&w);
    } else {
        StrBuf pos;
        sb_init(&pos);
        val_format(c->args[1], &pos, false);
        sb_printf(&b, "%s %s:", g->name, pos.s);
        for (int m = 0; m < 2; m++) {
            if (m == 1 && misere_unknown) {
                sb_printf(&b, ", misere out of reach of search (%s)\n", reach);
                if (searched && top <= HEAP_QUOTIENT_MAX) {
                    char *code = game_arg_code(c, 0);
                    sb_printf(&b, "  hint: a misere quotient decides it: `quotient q = %s to %u; "
                                  "outcome q %s;`",
                              code, top, pos.s);
                    free(code);
                } else {
                    sb_printf(&b, "  hint: a misere quotient decides positions of heaps up to its "
                                  "bound (`quotient q = G to N;`, N <= %d); none reaches this one",
                              HEAP_QUOTIENT_MAX);
                }
                continue;
            }
            sb_printf(&b, "%s %s %s", m ? "," : "", conv[m], res[m] == OUTCOME_P ? "P" : "N");
            if (m == 0 && by_grundy)
                sb_printf(&b, " (nim-sum of Grundy values %u)", nimsum);
            if (found[m]) {
                /* the heaps the moved heap became: result minus the others */
                sb_printf(&b, " (move heap %u -> ", mv[m].heap);
                const HeapOptions *opts;
                CgtError e2;
                if (outcome_heap_options(oc, mv[m].heap, &opts, &e2) == CGT_OK &&
                    mv[m].option < opts->count) {
                    size_t s0 = opts->start[mv[m].option], s1 = opts->start[mv[m].option + 1];
                    format_parts(&b, opts->parts + s0, s1 - s0, " + ", "nothing");
                } else {
                    sb_puts(&b, "?");
                }
                sb_puts(&b, ")");
            }
        }
        sb_free(&pos);
        sb_putc(&b, '\n');
    }
    for (int m = 0; m < 2; m++)
        if (found[m])
            outcome_move_free(&mv[m]);
    rt_emit(c->I, &b);
    return val_null();
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
    if (!c->stmt)
        return l;
    StrBuf b;
    sb_init(&b);
    if (c->I->format == FMT_JSON) {
        JsonWriter w;
        rt_json_begin(&w, &b, "moves");
        jw_kv_str(&w, "game", g->name);
        jw_kv_int(&w, "heap", (long long)n);
        jw_key(&w, "options");
        val_json(l, &w, false);
        rt_json_end(&w);
    } else {
        sb_printf(&b, "%s heap %u: ", g->name, n);
        if (l->u.list.len == 0)
            sb_puts(&b, "no moves");
        for (size_t i = 0; i < l->u.list.len; i++) {
            if (i)
                sb_puts(&b, ", ");
            val_format(l->u.list.items[i], &b, false);
        }
        sb_putc(&b, '\n');
    }
    val_unref(l);
    rt_emit(c->I, &b);
    return val_null();
}
