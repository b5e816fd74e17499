/* The misère outcome of one position through the quotient machinery
 * (mqpos.h; docs/misere.md, "Outcomes through the quotient").  A trial of
 * the engine labels every position below its least failure correctly
 * (Plambeck & Siegel 2008; the construction of Siegel's MisereSolver as
 * docs/misere.md describes it, "Word order and failures"), which the
 * failure hook uses on the expansion of the position's largest heap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqint.h"
#include "lib/misere/mqpos.h"
#include "lib/util/xalloc.h"

typedef struct Ctx {
    const HeapGame *game;
    MqEngine *eng;
    const uint32_t *heaps;
    size_t k;
    uint32_t m;    /* the largest heap */
    uint32_t *G;   /* the position as m+1 exponents */
    uint32_t heap;        /* the heap whose failures are counted */
    uint64_t failures, max_failures, max_stall;
    bool answered, gave_up;
    MqPosResult *out;
    CgtStatus st;  /* an error of the game's options inside the hook */
    CgtError err;
} Ctx;

static bool trial_label(const MqPret *T, const uint32_t *g)
{
    return mq_bit(T->p, mqpret_eval(T, g));
}

/* A winning move of the position G (an N-position) under the labelling
 * is_p(ctx2, g) of positions given as m+1 exponents: the first option,
 * heap by heap in input order, that reaches a P-position. */
static CgtStatus find_move(Ctx *c, bool (*is_p)(const void *, const uint32_t *),
                           const void *lab, CgtError *err)
{
    uint32_t *g = xmalloc(((size_t)c->m + 1) * sizeof *g);
    HeapOptions o;
    heapopts_init(&o);
    CgtStatus st = CGT_OK;
    for (size_t i = 0; i < c->k && !c->out->have_move; i++) {
        bool seen = false;
        for (size_t j = 0; j < i; j++)
            seen |= c->heaps[j] == c->heaps[i];
        if (seen)
            continue;
        if ((st = c->game->options(c->game->ctx, c->heaps[i], &o, err)) != CGT_OK)
            break;
        for (size_t t = 0; t < o.count; t++) {
            memcpy(g, c->G, ((size_t)c->m + 1) * sizeof *g);
            g[c->heaps[i]]--;
            for (size_t p = o.start[t]; p < o.start[t + 1]; p++)
                g[o.parts[p]]++;
            if (is_p(lab, g)) {
                c->out->have_move = true;
                c->out->move_index = i;
                c->out->move_ninto = o.start[t + 1] - o.start[t];
                c->out->move_into =
                    xmalloc((c->out->move_ninto ? c->out->move_ninto : 1) * sizeof(uint32_t));
                memcpy(c->out->move_into, o.parts + o.start[t],
                       c->out->move_ninto * sizeof(uint32_t));
                break;
            }
        }
    }
    heapopts_free(&o);
    free(g);
    return st;
}

static bool trial_is_p(const void *T, const uint32_t *g) { return trial_label(T, g); }

static void hook(void *ctx, const struct MqPret *T, const uint32_t *F, bool p_failure)
{
    (void)p_failure;
    Ctx *c = ctx;
    if (T->nh != c->heap + 1) {
        /* failures are counted per heap */
        c->heap = T->nh - 1;
        c->failures = 0;
    }
    c->failures++;
    if (T->nh == c->m + 1 && mq_cmp_games(F, c->G, T->nh) > 0) {
        /* G and its options are below the least failure F */
        c->answered = true;
        c->out->route = MQPOS_TRIAL;
        c->out->heap = c->m;
        c->out->is_p = trial_label(T, c->G);
        c->out->failure = xmalloc(T->nh * sizeof *c->out->failure);
        memcpy(c->out->failure, F, T->nh * sizeof *F);
        if (!c->out->is_p)
            c->st = find_move(c, trial_is_p, T, &c->err);
        mq_request_stop(c->eng);
        return;
    }
    if (c->failures >= (T->nh == c->m + 1 ? c->max_failures : c->max_stall)) {
        c->gave_up = true;
        if (T->nh == c->m + 1)
            snprintf(c->out->note, sizeof c->out->note,
                     "the expansion of heap %u met %llu least failures, none above the "
                     "position",
                     c->m, (unsigned long long)c->failures);
        else {
            c->out->stuck = T->nh - 1;
            snprintf(c->out->note, sizeof c->out->note,
                     "the expansion of heap %u did not close within %llu least failures",
                     T->nh - 1, (unsigned long long)c->failures);
        }
        mq_request_stop(c->eng);
    }
}

typedef struct QLab {
    const Quotient *q;
    uint32_t m;
} QLab;

static bool quot_is_p(const void *lab, const uint32_t *g)
{
    const QLab *l = lab;
    uint32_t x = 0;
    for (uint32_t h = 0; h <= l->m; h++)
        for (uint32_t t = 0; t < g[h]; t++)
            x = quotient_mul_heap(l->q, x, h);
    return quotient_is_p(l->q, x);
}

CgtStatus mq_pos_outcome(const HeapGame *game, MqEngine *eng, const uint32_t *heaps, size_t k,
                         const MqPosOptions *opt, MqPosResult *out, CgtError *err)
{
    memset(out, 0, sizeof *out);
    MqPosOptions o = opt ? *opt : (MqPosOptions){0};
    uint32_t m = 0;
    for (size_t i = 0; i < k; i++)
        m = heaps[i] > m ? heaps[i] : m;
    Ctx c = {.game = game, .heaps = heaps, .k = k, .m = m, .out = out,
             .max_failures = o.max_failures ? o.max_failures : 60,
             .max_stall = o.max_stall ? o.max_stall : 25};
    cgt_error_clear(&c.err);
    MqEngine *own = NULL;
    if (!eng) {
        MqLimits lim = {.max_size = o.max_size ? o.max_size : 16384,
                        .max_trial = o.max_trial ? o.max_trial : 4000000};
        eng = own = mq_new(game, &lim);
        mq_set_recalibration(eng, MQ_RECAL_SMALLEST);
    }
    c.eng = eng;
    c.G = xcalloc((size_t)m + 1, sizeof *c.G);
    for (size_t i = 0; i < k; i++)
        c.G[heaps[i]]++;
    mq_set_failure_hook(eng, hook, &c);
    CgtError e2;
    cgt_error_clear(&e2);
    CgtStatus st = mq_extend_to(eng, m, &e2);
    mq_set_failure_hook(eng, NULL, NULL);
    if (c.st != CGT_OK) {
        st = c.st;
        *err = c.err;
    } else if (c.answered || c.gave_up) {
        st = CGT_OK;
    } else if (st == CGT_ERR_LIMIT && !strstr(e2.msg, "time limit")) {
        /* a size cap: not decided here */
        snprintf(out->note, sizeof out->note, "%.500s", e2.msg);
        out->stuck = mq_heaps_done(eng) + 1;
        st = CGT_OK;
    } else if (st != CGT_OK) {
        *err = e2;
    } else {
        Quotient *q = mq_quotient(eng, NULL, 0, err);
        if (!q) {
            st = err->status ? err->status : CGT_ERR_INTERNAL;
        } else {
            MqVerdict v;
            mq_verdict(q, game, true, o.cert_states, &v);
            if (!v.certified) {
                snprintf(out->note, sizeof out->note, "Q(%u): %.600s", quotient_max_heap(q), v.note);
                quotient_free(q);
            } else {
                out->route = MQPOS_QUOTIENT;
                out->verdict = v;
                out->q = q;
                out->heap = quotient_max_heap(q);
                st = quotient_eval(q, heaps, k, &out->element, err);
                if (st == CGT_OK) {
                    out->is_p = quotient_is_p(q, out->element);
                    QLab lab = {q, m};
                    if (!out->is_p)
                        st = find_move(&c, quot_is_p, &lab, err);
                }
            }
        }
    }
    free(c.G);
    if (own)
        mq_free(own);
    if (st != CGT_OK)
        mq_pos_free(out);
    return st;
}

void mq_pos_free(MqPosResult *r)
{
    if (r->q)
        quotient_free(r->q);
    free(r->move_into);
    free(r->failure);
    memset(r, 0, sizeof *r);
}
