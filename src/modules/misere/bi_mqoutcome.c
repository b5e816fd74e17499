/* `outcome G [...]` of a heap game answered through a quotient
 * (docs/misere.md, "Outcomes through the quotient"): the misere module's
 * form of the games module's `outcome` for a game.  The misère outcome
 * comes, in this order, from a certified quotient of the script that
 * covers the position (finite, or an infinite one through its proved
 * description), from Q(m) computed here for the largest heap m (kept for
 * later calls), or from a trial of heap m below its least failure
 * (src/lib/misere/mqpos.h); only when all of these fail within their
 * budgets does the games module search.  The normal-play outcome is the
 * games module's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqpos.h"
#include "modules/games/gameobj.h"
#include "modules/games/heaps.h"
#include "modules/games/module.h"
#include "modules/misere/bi_misere.h"
#include "modules/misere/module.h"
#include "modules/misere/quotobj.h"
#include "lib/util/xalloc.h"

/* The certified quotients the script made or loaded (references). */
static Value **known;
static size_t nknown, capknown;

/* One engine per game, extended by the quotient route of `outcome`. */
typedef struct Slot {
    Value *game;
    MqEngine *eng;
    uint32_t stuck; /* a heap whose expansion ran out of budget (0 = none) */
} Slot;
static Slot *slots;
static size_t nslots;

void quot_remember(Value *qv)
{
    const QuotObj *o = qv->u.obj.ptr;
    if (!o->certified || o->partial)
        return;
    if (nknown == capknown) {
        capknown = capknown ? 2 * capknown : 8;
        known = xrealloc(known, capknown * sizeof *known);
    }
    known[nknown++] = val_ref(qv);
}

void misere_release(void)
{
    for (size_t i = 0; i < nknown; i++)
        val_unref(known[i]);
    free(known);
    known = NULL;
    nknown = capknown = 0;
    for (size_t i = 0; i < nslots; i++) {
        mq_free(slots[i].eng);
        val_unref(slots[i].game);
    }
    free(slots);
    slots = NULL;
    nslots = 0;
}

static bool same_ruleset(const GameObj *a, const GameObj *b)
{
    return a->rs->kind == b->rs->kind && strcmp(a->rs->name, b->rs->name) == 0;
}

/* The engine of the quotient route for a game (docs/misere.md, "Outcomes
 * through the quotient"): at most 16,384 elements in a quotient or a
 * trial and 4,000,000 in a raw trial, the recalibration policy that keeps trials
 * smallest (the same quotients; on 0.07 to heap 34 its trials stay near a
 * thousand elements where the first-found policy's reach 47,000). */
static Slot *slot_of(Value *gv)
{
    const GameObj *g = game_of(gv);
    for (size_t i = 0; i < nslots; i++)
        if (same_ruleset(game_of(slots[i].game), g))
            return &slots[i];
    slots = xrealloc(slots, (nslots + 1) * sizeof *slots);
    MqLimits lim = {.max_size = 16384, .max_trial = 4000000};
    slots[nslots].game = val_ref(gv);
    slots[nslots].eng = mq_new(ruleset_heapgame(g->rs), &lim);
    mq_set_recalibration(slots[nslots].eng, MQ_RECAL_SMALLEST);
    slots[nslots].stuck = 0;
    return &slots[nslots++];
}

/* The misère outcome of heaps[] from a known quotient o, and a winning
 * move when there is one: by the finite tables, or by the proved
 * description of an infinite quotient (every option's heaps are smaller,
 * so the description covers them too). */
static CgtStatus from_known(const QuotObj *o, const HeapGame *hg, const uint32_t *heaps,
                            size_t k, OutcomeGiven *gv, uint32_t **into_out, char **elem,
                            CgtError *err)
{
    CgtStatus st;
    if (o->inf) {
        st = mqinf_outcome(o->inf, heaps, k, &gv->is_p, err);
    } else {
        uint32_t x;
        st = quotient_eval(o->q, heaps, k, &x, err);
        if (st == CGT_OK) {
            gv->is_p = quotient_is_p(o->q, x);
            *elem = quotient_format(o->q, x);
        }
    }
    if (st != CGT_OK || gv->is_p)
        return st;
    uint32_t *pos = xmalloc((k + 4) * sizeof *pos);
    HeapOptions opts;
    heapopts_init(&opts);
    for (size_t i = 0; i < k && !gv->have_move && st == CGT_OK; i++) {
        if ((st = hg->options(hg->ctx, heaps[i], &opts, err)) != CGT_OK)
            break;
        for (size_t t = 0; t < opts.count && st == CGT_OK; t++) {
            size_t n = 0, np = opts.start[t + 1] - opts.start[t];
            pos = xrealloc(pos, (k + np + 1) * sizeof *pos);
            for (size_t j = 0; j < k; j++)
                if (j != i)
                    pos[n++] = heaps[j];
            for (size_t p = opts.start[t]; p < opts.start[t + 1]; p++)
                pos[n++] = opts.parts[p];
            bool p_after;
            if (o->inf) {
                st = mqinf_outcome(o->inf, pos, n, &p_after, err);
            } else {
                uint32_t y;
                st = quotient_eval(o->q, pos, n, &y, err);
                p_after = st == CGT_OK && quotient_is_p(o->q, y);
            }
            if (st == CGT_OK && p_after) {
                gv->have_move = true;
                gv->move_index = i;
                gv->ninto = np;
                *into_out = xmalloc((np ? np : 1) * sizeof **into_out);
                memcpy(*into_out, opts.parts + opts.start[t], np * sizeof **into_out);
                gv->into = *into_out;
                break;
            }
        }
    }
    heapopts_free(&opts);
    free(pos);
    return st;
}

/* "34^4 31 30 24 4": a position as heaps with multiplicities, largest first. */
static char *position_text(const uint32_t *g, uint32_t nh)
{
    StrBuf b;
    sb_init(&b);
    for (uint32_t h = nh; h-- > 1;)
        if (g[h]) {
            sb_printf(&b, "%s%u", b.len ? " " : "", h);
            if (g[h] > 1)
                sb_printf(&b, "^%u", g[h]);
        }
    return b.s;
}

Value *bi_game_outcome(Call *c)
{
    if (c->nargs < 2 || !c->args[1] || c->args[1]->kind != VAL_LIST)
        return bi_outcome(c);
    GameObj *g = game_of(c->args[0]);
    const Value *pos = c->args[1];
    size_t k = pos->u.list.len;
    if (g->kind != GAME_HEAP || k == 0)
        return bi_outcome(c);
    uint32_t *heaps = xcalloc(k, sizeof *heaps);
    uint32_t m = 0;
    for (size_t i = 0; i < k; i++) {
        int64_t h;
        if (!val_get_i64(pos->u.list.items[i], &h) || h < 0 || h > HEAP_QUOTIENT_MAX) {
            /* not a heap, or one past every quotient: the search's answer
               (and its error) */
            free(heaps);
            return bi_outcome(c);
        }
        heaps[i] = (uint32_t)h;
        m = heaps[i] > m ? heaps[i] : m;
    }
    const HeapGame *hg = ruleset_heapgame(g->rs);
    OutcomeGiven gv = {0};
    uint32_t *into = NULL;
    char *elem = NULL, *by = NULL;
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = CGT_OK;
    bool found = false;
    /* 1. a certified quotient of the script that covers the position */
    for (size_t i = 0; i < nknown && !found; i++) {
        const QuotObj *o = known[i]->u.obj.ptr;
        if (o->mix || !same_ruleset(game_of(o->game), g))
            continue;
        uint32_t top = o->inf ? o->inf->N : quotient_max_heap(o->q);
        if (top < m)
            continue;
        st = from_known(o, hg, heaps, k, &gv, &into, &elem, &err);
        if (st != CGT_OK)
            break;
        found = true;
        by = o->inf ? xasprintf("the proved description of the infinite Q(%u) of %s", top,
                                g->name)
                    : xasprintf("Q(%u) of %s", top, g->name);
    }
    /* 2. Q(m) or a trial of heap m, computed here */
    MqPosResult pr = {0};
    Slot *slot = st == CGT_OK && !found ? slot_of(c->args[0]) : NULL;
    if (slot && !(slot->stuck && slot->stuck <= m)) {
        /* a heap that ran out of budget once will again: search */
        st = mq_pos_outcome(hg, slot->eng, heaps, k, NULL, &pr, &err);
        if (st == CGT_OK && pr.route == MQPOS_NONE && pr.stuck)
            slot->stuck = pr.stuck;
        if (st == CGT_OK && pr.route == MQPOS_QUOTIENT) {
            /* kept, as a quotient of the script, for later positions */
            QuotObj *o = xcalloc(1, sizeof *o);
            o->game = val_ref(c->args[0]);
            o->q = pr.q;
            pr.q = NULL;
            o->asked = m;
            o->cert = pr.verdict.cert;
            o->cert_done = pr.verdict.ran;
            o->cert_cpu = pr.verdict.cpu;
            o->cert_wall = pr.verdict.wall;
            o->certified = pr.verdict.certified;
            o->period = pr.verdict.period;
            o->have_period = true;
            Value *qv = val_obj(&quotient_type, o);
            if (o->certified) {
                quot_remember(qv);
                st = from_known(o, hg, heaps, k, &gv, &into, &elem, &err);
                found = st == CGT_OK;
                by = xasprintf("Q(%u) of %s", quotient_max_heap(o->q), g->name);
            }
            val_unref(qv);
        } else if (st == CGT_OK && pr.route == MQPOS_TRIAL) {
            found = true;
            gv.is_p = pr.is_p;
            gv.have_move = pr.have_move;
            gv.move_index = pr.move_index;
            gv.into = pr.move_into;
            gv.ninto = pr.move_ninto;
            char *f = position_text(pr.failure, pr.heap + 1);
            by = xasprintf("the trial of heap %u, correct below its least failure %s", pr.heap,
                           f);
            free(f);
        }
    }
    Value *r;
    if (st != CGT_OK) {
        r = rt_error_from(c->I, c->arg_locs[1], &err);
    } else if (found) {
        gv.by = by;
        gv.element = elem;
        r = games_outcome_given(c, &gv);
    } else {
        r = bi_outcome(c);
    }
    mq_pos_free(&pr);
    free(heaps);
    free(into);
    free(elem);
    free(by);
    return r;
}
