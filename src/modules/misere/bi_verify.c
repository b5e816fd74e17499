/* The `verify` builtin of the misère-quotient module (docs/builtins.md,
 * docs/language.md): a claimed quotient, given by its presentation and
 * P-positions, checked against the game to a heap bound. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "modules/misere/quotobj.h"
#include "runtime/builtins.h"
#include "modules/games/gameobj.h"
#include "modules/kb/semiobj.h"
#include "lib/util/xalloc.h"

static void format_game_vec(StrBuf *b, const uint32_t *g, uint32_t n)
{
    bool first = true;
    sb_putc(b, '[');
    for (uint32_t h = 1; h <= n; h++)
        for (uint32_t k = 0; k < g[h]; k++) {
            sb_printf(b, "%s%u", first ? "" : ", ", h);
            first = false;
        }
    sb_putc(b, ']');
}

/* The record verify(G, N, S) returns (docs/language.md, "Results as
 * records"). */
static Value *verify_record(const GameObj *g, int64_t n, size_t order, const MqClaimResult *res)
{
    Value *r = val_map();
    val_map_set_bool(r, "holds", res->is_quotient);
    val_map_set_str(r, "game", g->name);
    val_map_set_int(r, "heap", n);
    val_map_set_int(r, "order", (int64_t)order);
    val_map_set_bool(r, "labelling_ok", res->labelling_ok);
    val_map_set_bool(r, "reduced", res->reduced_ok);
    val_map_set_bool(r, "generated", res->generated_ok);
    bool wrong = !res->labelling_ok && res->game;
    Value *pos = val_null(), *move = val_null();
    if (wrong) {
        val_unref(pos);
        pos = val_list();
        for (uint32_t h = 1; h <= (uint32_t)n; h++)
            for (uint32_t k = 0; k < res->game[h]; k++)
                val_list_push(pos, val_int(h));
        if (res->kind == MQ_CLAIM_PFAIL && pos->u.list.len > 0) {
            /* the move that proves it: heap move_heap becomes the parts */
            val_unref(move);
            move = val_map();
            val_map_set_int(move, "heap", res->move_heap);
            Value *parts = val_list();
            for (uint32_t i = 0; i < res->move_nparts; i++)
                val_list_push(parts, val_int(res->move_parts[i]));
            val_map_set(move, "to", parts);
        }
    }
    val_map_set(r, "position", pos);
    val_map_set(r, "claimed", wrong ? val_str(res->true_is_p ? "N" : "P") : val_null());
    val_map_set(r, "actual", wrong ? val_str(res->true_is_p ? "P" : "N") : val_null());
    val_map_set(r, "move", move);
    return r;
}

Value *bi_verify(Call *c)
{
    const AstNode *cmd = c->raw;
    /* verify G to N CLAIM, or verify(G, N, S) */
    bool fn = !c->stmt;
    if (fn ? cmd->nkids != 3
           : (cmd->nkids != 4 || cmd->kids[1]->kind != AST_IDENT ||
              strcmp(cmd->kids[1]->text, "to") != 0)) {
        rt_error(c->I, DIAG_TYPE, cmd->loc,
                 fn ? "expected: verify(GAME, N, S) with S a semigroup with P and phi"
                    : "expected: verify GAME to N PRESENTATION");
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
        return NULL;
    }
    const AstNode *nnode = cmd->kids[fn ? 1 : 2];
    Value *gv = rt_eval(c->I, cmd->kids[0]);
    if (!gv)
        return NULL;
    if (!val_is_obj(gv, &game_type)) {
        val_unref(gv);
        return rt_error(c->I, DIAG_TYPE, cmd->kids[0]->loc,
                        "bad argument #1 to 'verify' (game expected)");
    }
    GameObj *g = game_heap_or_error(c->I, gv, cmd->kids[0]->loc, "verify");
    Value *nv = g ? rt_eval(c->I, nnode) : NULL;
    int64_t n;
    if (!nv || !call_int(c, nv, nnode->loc, "the heap bound", 0, 10000, &n)) {
        val_unref(gv);
        val_unref(nv);
        return NULL;
    }
    val_unref(nv);
    /* the claim: an inline presentation or a semigroup value */
    SemiObj tmp;
    memset(&tmp, 0, sizeof tmp);
    SemiObj *s = &tmp;
    Value *sv = NULL;
    const AstNode *pa = cmd->kids[fn ? 2 : 3];
    if (pa->kind == AST_PRES) {
        if (!presdata_from_ast(c->I, pa, &tmp.data)) {
            val_unref(gv);
            return NULL;
        }
        tmp.commutative = true;
        tmp.name = xstrdup("claim");
    } else {
        sv = rt_eval(c->I, pa);
        if (!sv || !val_is_obj(sv, &semigroup_type) ||
            !((SemiObj *)sv->u.obj.ptr)->commutative) {
            if (sv)
                rt_error(c->I, DIAG_TYPE, pa->loc,
                         "bad argument to 'verify' (commutative semigroup expected, got %s)",
                         val_kind_name(sv));
            val_unref(sv);
            val_unref(gv);
            return NULL;
        }
        s = sv->u.obj.ptr;
    }
    Value *result = NULL;
    MqClaimResult res;
    memset(&res, 0, sizeof res);
    const PresWith *pw = presdata_with(&s->data, "P");
    const PresWith *phiw = presdata_with(&s->data, "phi");
    if (!pw || !phiw) {
        rt_error(c->I, DIAG_DOMAIN, pa->loc,
                 "a claimed quotient needs `with P = {...}` and `with phi = [...]`");
        rt_hint(c->I, "phi lists the images of heaps 1..N (or 0..N)");
        goto done;
    }
    if (phiw->n != (size_t)n && phiw->n != (size_t)n + 1) {
        rt_error(c->I, DIAG_DOMAIN, phiw->loc,
                 "phi has %zu entries; for heaps up to %lld it needs %lld (heaps 1..%lld) or %lld",
                 phiw->n, (long long)n, (long long)n, (long long)n, (long long)n + 1);
        goto done;
    }
    FiniteMonoid *m = semi_monoid(c->I, s, pa->loc);
    if (!m)
        goto done;
    size_t sz = m->order;
    int ng = m->ngens;
    uint32_t *act = xcalloc(sz * (size_t)(ng ? ng : 1), sizeof *act);
    for (size_t x = 0; x < sz; x++)
        for (int k = 0; k < ng; k++)
            act[(size_t)k * sz + x] = m->gen_act[x * (size_t)ng + (size_t)k];
    uint32_t *pset = xcalloc(pw->n ? pw->n : 1, sizeof *pset);
    for (size_t i = 0; i < pw->n; i++)
        pset[i] = (uint32_t)monoid_eval(m, pw->words + i * (size_t)ng);
    uint32_t *phi = xcalloc((size_t)n + 1, sizeof *phi);
    size_t off = phiw->n == (size_t)n ? 1 : 0;
    for (size_t i = 0; i < phiw->n; i++)
        phi[i + off] = (uint32_t)monoid_eval(m, phiw->words + i * (size_t)ng);
    MqClaim cl = {.size = (uint32_t)sz, .ngens = ng, .act = act, .p = pset, .np = pw->n,
                  .phi = phi, .n = (uint32_t)n};
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = mq_check_claim(&cl, ruleset_heapgame(g->rs), &res, &err);
    free(act);
    free(pset);
    free(phi);
    if (st != CGT_OK) {
        rt_error_from(c->I, pa->loc, &err);
        goto done;
    }
    if (fn) {
        result = verify_record(g, n, sz, &res);
        goto done;
    }
    StrBuf b;
    sb_init(&b);
    if (c->I->format == FMT_JSON) {
        JsonWriter w;
        rt_json_begin(&w, &b, "verify");
        jw_kv_str(&w, "game", g->name);
        jw_kv_int(&w, "heap", n);
        jw_kv_int(&w, "order", (long long)sz);
        jw_kv_bool(&w, "holds", res.is_quotient);
        jw_kv_bool(&w, "labelling_ok", res.labelling_ok);
        jw_kv_bool(&w, "reduced", res.reduced_ok);
        jw_kv_bool(&w, "generated", res.generated_ok);
        if (!res.labelling_ok && res.game) {
            jw_key(&w, "least_failure");
            StrBuf p;
            sb_init(&p);
            format_game_vec(&p, res.game, (uint32_t)n);
            jw_raw(&w, p.s);
            sb_free(&p);
            jw_kv_str(&w, "true_outcome", res.true_is_p ? "P" : "N");
        }
        rt_json_end(&w);
    } else {
        sb_printf(&b, "claimed quotient of %s to heap %lld (order %zu): ", g->name,
                  (long long)n, sz);
        if (res.is_quotient) {
            sb_puts(&b, "holds: it is the misere quotient of heaps 0..");
            sb_printf(&b, "%lld (labelling correct, reduced, generated by heap images)\n",
                      (long long)n);
        } else {
            sb_puts(&b, "FAILS\n");
            if (!res.labelling_ok && res.game) {
                sb_puts(&b, "  least wrongly predicted position ");
                format_game_vec(&b, res.game, (uint32_t)n);
                sb_printf(&b, ": claimed %s, true outcome %s\n", res.true_is_p ? "N" : "P",
                          res.true_is_p ? "P" : "N");
                bool empty = true;
                for (uint32_t h = 1; h <= (uint32_t)n; h++)
                    empty = empty && res.game[h] == 0;
                if (empty) {
                    /* no heap, no move: never "moving heap 0 to nothing" */
                    sb_puts(&b, "  proof: the empty position has no move, so the player to "
                                "move wins misere play: it is an N-position\n");
                } else if (res.kind == MQ_CLAIM_PFAIL) {
                    sb_printf(&b, "  proof: moving heap %u to ", res.move_heap);
                    if (res.move_nparts == 0)
                        sb_puts(&b, "nothing");
                    for (uint32_t i = 0; i < res.move_nparts; i++)
                        sb_printf(&b, "%s%u", i ? " + " : "", res.move_parts[i]);
                    sb_puts(&b, " reaches a P-position\n");
                } else {
                    sb_puts(&b, "  proof: every move from it reaches an N-position\n");
                }
            }
            if (res.labelling_ok && !res.reduced_ok)
                sb_puts(&b, "  not reduced: two elements behave the same\n");
            if (res.labelling_ok && !res.generated_ok)
                sb_puts(&b, "  not generated by the heap images\n");
        }
    }
    rt_emit(c->I, &b);
    /* a claim is a check: a failed one is reported, the script goes on
       and exits 1 at the end */
    if (!res.is_quotient) {
        char msg[200];
        snprintf(msg, sizeof msg, "claim failed: the claimed quotient is not the misere "
                 "quotient of %s to heap %lld", g->name, (long long)n);
        rt_claim_result(c->I, pa->loc, false, msg);
    } else {
        rt_claim_result(c->I, pa->loc, true, NULL);
    }
    result = val_null();
done:
    free(res.game);
    val_unref(gv);
    if (sv)
        val_unref(sv);
    else {
        presdata_free(&tmp.data);
        free(tmp.name);
        if (tmp.sys)
            kb_free(tmp.sys);
        if (tmp.mon)
            monoid_free(tmp.mon);
    }
    return result;
}

