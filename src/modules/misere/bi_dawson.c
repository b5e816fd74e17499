/* The `dawson` statement (src/modules/misere/builtins_misere.def): Dawson's claims on
 * misère Dawson's Chess (0.137) checked from the quotient, from the proved
 * description of an infinite quotient where that reaches (docs/misere.md,
 * "Infinite quotients"), and by direct search beyond.  Split from
 * bi_misere.c, which holds the quotient object itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/misere/mqinf.h"
#include "lib/heap/outcome.h"
#include "lib/heap/ruleset.h"
#include "modules/misere/module.h"
#include "lib/util/xalloc.h"

/* ---- Dawson's claims (Plambeck, "Dawson's Chess (0.137) and Dawson's
   Kayles (0.07)", 2005; docs/misere.md) ---- */

/* Misère Dawson's Chess with n files is heap n of 0.137.  Moving the pawn
 * on file i (1-based) leaves heap n-2 for i = 1 or n, n-3 for i = 2 or n-1,
 * and heaps (i-2, n-i-1) otherwise. */
static size_t pawn_move(uint32_t n, uint32_t i, uint32_t *parts)
{
    if (i == 1 || i == n)
        parts[0] = n >= 2 ? n - 2 : 0;
    else if (i == 2 || i == n - 1)
        parts[0] = n >= 3 ? n - 3 : 0;
    else {
        parts[0] = i - 2;
        parts[1] = n - i - 1;
        return 2;
    }
    return 1;
}

static bool dawson_predicts_p(uint32_t n)
{
    uint32_t r = n % 14;
    return r == 1 || r == 2 || r == 6 || r == 7 || r == 11;
}

/* Misère outcome of a position of 0.137: from the quotient when every heap
 * is covered, from the proved description of an infinite quotient (inf,
 * may be NULL) when that covers it, else by the outcome search. */
static CgtStatus dawson_outcome(const Quotient *q, const MqInfProof *inf, OutcomeCache *oc,
                                const uint32_t *h, size_t k, bool *is_p, bool *used_q,
                                CgtError *err)
{
    bool covered = q != NULL, in_inf = inf != NULL;
    for (size_t i = 0; i < k; i++) {
        covered = covered && h[i] <= quotient_max_heap(q);
        in_inf = in_inf && h[i] <= inf->N;
    }
    *used_q = covered || in_inf;
    if (covered)
        return quotient_outcome(q, h, k, is_p, err);
    if (in_inf)
        return mqinf_outcome(inf, h, k, is_p, err);
    Outcome o;
    CgtStatus st = outcome_misere(oc, h, k, &o, err);
    *is_p = o == OUTCOME_P;
    return st;
}

static void pawn_list(StrBuf *b, const Value *pawns)
{
    for (size_t i = 0; pawns && pawns->kind == VAL_LIST && i < pawns->u.list.len; i++) {
        if (i)
            sb_puts(b, ", ");
        val_format(pawns->u.list.items[i], b, true);
    }
}

static size_t list_len(const Value *l)
{
    return l && l->kind == VAL_LIST ? l->u.list.len : 0;
}

/* The text of a dawson record: the claims, where the outcomes come from,
 * one line per n, the count of refutations. */
void misere_dawson_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    sb_printf(b, "Dawson's claims on misere Dawson's Chess (0.137, heap n = n files):\n"
                 "  claim 1: the first player loses iff n mod 14 is 1, 2, 6, 7 or 11\n"
                 "  claim 2: for n = 4 (mod 14) every first move wins\n");
    const Value *ih = val_map_get(r, "infinite_heap"), *qh = val_map_get(r, "quotient_heap");
    if (ih && ih->kind == VAL_INT)
        sb_printf(b, "  outcomes from the quotient Q(%lld) and the proved description of "
                     "the infinite Q(%lld) where they reach, by search beyond\n",
                  (long long)val_field_int(r, "quotient_heap"),
                  (long long)val_field_int(r, "infinite_heap"));
    else if (qh && qh->kind == VAL_INT)
        sb_printf(b, "  outcomes from the quotient Q(%lld) where it reaches, by search beyond\n",
                  (long long)val_field_int(r, "quotient_heap"));
    else
        sb_puts(b, "  outcomes by direct search only\n");
    sb_puts(b, "   n  claim  true  verdict\n");
    const Value *rows = val_map_get(r, "rows");
    int64_t refuted = 0;
    for (size_t i = 0; i < list_len(rows); i++) {
        const Value *row = rows->u.list.items[i];
        bool claim_p = strcmp(val_field_str(row, "claim"), "P") == 0;
        bool is_p = strcmp(val_field_str(row, "actual"), "P") == 0;
        const Value *win = val_map_get(row, "winning_pawns"), *lose = val_map_get(row, "losing_pawns");
        sb_printf(b, "  %3lld  %s%s     %s     ", (long long)val_field_int(row, "n"),
                  claim_p ? "P" : "N", val_field_bool(row, "claim_every_move_wins") ? "*" : " ",
                  is_p ? "P" : "N");
        if (val_field_bool(row, "agrees")) {
            sb_puts(b, "agrees");
        } else if (claim_p && !is_p) {
            sb_puts(b, list_len(win) == 1 ? "REFUTED: winning pawn " : "REFUTED: winning pawns ");
            pawn_list(b, win);
        } else if (!claim_p && is_p) {
            sb_puts(b, "REFUTED: every first move loses");
        } else {
            sb_puts(b, list_len(lose) == 1 ? "REFUTED (claim 2): losing pawn "
                                           : "REFUTED (claim 2): losing pawns ");
            pawn_list(b, lose);
        }
        if (!val_field_bool(row, "agrees"))
            refuted++;
        sb_putc(b, '\n');
    }
    sb_printf(b, "  %lld of %lld values of n refute a claim (* = claim 2 applies)\n",
              (long long)refuted,
              (long long)(val_field_int(r, "to") - val_field_int(r, "from") + 1));
}

Value *bi_dawson(Call *c)
{
    Value *r = c->args[0];
    int64_t lo = r->u.range.lo, hi = r->u.range.hi;
    if (lo < 1 || hi < lo || hi > 200)
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                        "expected a range of file counts within 1..200");
    int64_t qh = hi < 30 ? hi : 30;
    Value *qv = call_opt(c, "quotient");
    if (qv && !call_int(c, qv, call_opt_loc(c, "quotient"), "the quotient heap", 0, 60, &qh))
        return NULL;
    Ruleset *rs;
    CgtError err;
    cgt_error_clear(&err);
    if (ruleset_parse_code("0.137", &rs, NULL, &err) != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);
    const HeapGame *hg = ruleset_heapgame(rs);
    MqEngine *eng = mq_new(hg, NULL);
    Quotient *q = NULL;
    OutcomeCache *oc = outcome_new(hg);
    Value *ret = NULL, *rows = NULL, *refl = NULL;
    uint32_t *win = NULL, *lose = NULL;
    MqInfProof *inf = NULL;
    if (qh > 0) {
        /* heap by heap with the infinite-quotient decision: an infinite
         * Q(h) (0.137 at 33) ends the extension, and its proved description
         * answers positions with heaps <= h */
        MqInf *d = mqinf_new(hg, 0, eng, 0);
        mq_set_failure_hook(eng, mqinf_hook, d);
        CgtStatus st = mq_extend_to(eng, (uint32_t)qh, &err);
        mq_set_failure_hook(eng, NULL, NULL);
        if (mqinf_result(d)) {
            inf = mqinf_take(d);
            st = CGT_OK;
        }
        mqinf_free(d);
        if (st != CGT_OK || !(q = mq_quotient(eng, NULL, 0, &err))) {
            rt_error_from(c->I, c->loc, &err);
            goto done;
        }
    }
    rows = val_list();
    refl = val_list();
    win = xcalloc((size_t)hi + 1, sizeof *win);
    lose = xcalloc((size_t)hi + 1, sizeof *lose);
    int refuted = 0;
    for (uint32_t n = (uint32_t)lo; n <= (uint32_t)hi; n++) {
        bool is_p, used_q;
        uint32_t h = n;
        if (dawson_outcome(q, inf, oc, &h, 1, &is_p, &used_q, &err) != CGT_OK) {
            rt_error_from(c->I, c->loc, &err);
            goto done;
        }
        size_t nw = 0, nl = 0;
        for (uint32_t i = 1; i <= n; i++) {
            uint32_t parts[2];
            size_t k = pawn_move(n, i, parts);
            bool op, uq;
            if (dawson_outcome(q, inf, oc, parts, k, &op, &uq, &err) != CGT_OK) {
                rt_error_from(c->I, c->loc, &err);
                goto done;
            }
            if (op)
                win[nw++] = i;
            else
                lose[nl++] = i;
        }
        bool claim_p = dawson_predicts_p(n), all_win = n % 14 == 4;
        bool agrees = claim_p == is_p && !(all_win && nl > 0);
        if (!agrees)
            refuted++;
        Value *row = val_map();
        val_map_set_int(row, "n", n);
        val_map_set_str(row, "claim", claim_p ? "P" : "N");
        val_map_set_bool(row, "claim_every_move_wins", all_win);
        val_map_set_str(row, "actual", is_p ? "P" : "N");
        val_map_set_bool(row, "agrees", agrees);
        val_map_set_str(row, "method", used_q ? "quotient" : "search");
        Value *wl = val_list(), *ll = val_list();
        for (size_t i = 0; i < nw; i++)
            val_list_push(wl, val_int(win[i]));
        for (size_t i = 0; i < nl; i++)
            val_list_push(ll, val_int(lose[i]));
        val_map_set(row, "winning_pawns", wl);
        val_map_set(row, "losing_pawns", ll);
        val_list_push(rows, row);
        if (!agrees)
            val_list_push(refl, val_int(n));
    }
    ret = val_result("dawson");
    val_map_set_int(ret, "from", lo);
    val_map_set_int(ret, "to", hi);
    val_map_set_opt_int(ret, "quotient_heap", q != NULL, q ? quotient_max_heap(q) : 0);
    val_map_set_opt_int(ret, "infinite_heap", inf != NULL, inf ? mqinf_first(inf) : 0);
    val_map_set_bool(ret, "holds", refuted == 0);
    val_map_set(ret, "refuted", refl);
    val_map_set(ret, "rows", rows);
    refl = rows = NULL;
    if (c->stmt) {
        /* the statement's claims are checks: a refuted one fails the
           script at the end */
        if (refuted) {
            char msg[160];
            snprintf(msg, sizeof msg,
                     "claim failed: %d of %lld values of n refute Dawson's claims", refuted,
                     (long long)(hi - lo + 1));
            rt_claim_result(c->I, c->loc, false, msg);
        } else {
            rt_claim_result(c->I, c->loc, true, NULL);
        }
    }
done:
    val_unref(rows);
    val_unref(refl);
    free(win);
    free(lose);
    if (q)
        quotient_free(q);
    mqinf_proof_free(inf);
    mq_free(eng);
    outcome_free(oc);
    ruleset_free(rs);
    return ret;
}

