/* The misère-quotient engine: Q(n) heap by heap by conservative extension,
 * expansion with a trial cyclic component, least-failure verification and
 * recalibration (after A. N. Siegel's MisereSolver; docs/misere.md "One
 * heap at a time"), plus periodicity and checkpoints.  Snapshots live in
 * mqquot.c. */
#include "lib/misere/misere.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqint.h"
#include "lib/misere/mqquot.h"
#include "lib/util/atomicfile.h"
#include "lib/util/par.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"


/* Replace the pretension; cached data of the old one is dropped. */
void mq_engine_set_pret(MqEngine *e, MqPret *q)
{
    mqpret_free(e->q);
    e->q = q;
    free(e->px);
    free(e->ord);
    e->px = NULL;
    e->ord = NULL;
}

static MqPret *pret_trivial(void)
{
    MqPret *q = xcalloc(1, sizeof *q);
    q->n = 1;
    q->nh = 1;
    q->hl = xmalloc(sizeof *q->hl);
    q->hl[0] = -1;
    q->nl = 0;
    q->act = xmalloc(sizeof *q->act);
    q->p = xcalloc(1, 8);
    q->pred = xcalloc(1, sizeof *q->pred);
    q->predh = xcalloc(1, sizeof *q->predh);
    return q;
}

MqEngine *mq_new(const HeapGame *game, const MqLimits *lim)
{
    MqEngine *e = xcalloc(1, sizeof *e);
    e->game = game;
    e->name = xstrdup(game->name ? game->name : "");
    if (lim)
        e->lim = *lim;
    if (!e->lim.max_size)
        e->lim.max_size = 1000000;
    if (!e->lim.max_trial)
        e->lim.max_trial = 16000000;
    e->q = pret_trivial();
    e->threads = 1;
    CgtError err0;
    if (mqopts_extend(&e->opts, game, 1, &err0) != CGT_OK) {
        mqopts_free(&e->opts);
        e->opts.o = xcalloc(1, sizeof *e->opts.o);
        e->opts.nh = 1;
    }
    return e;
}

void mq_free(MqEngine *e)
{
    if (!e)
        return;
    mqpret_free(e->q);
    free(e->px);
    free(e->ord);
    mqanti_free(&e->tt);
    mqopts_free(&e->opts);
    free(e->exp_heap);
    free(e->exp_size);
    free(e->name);
    free(e);
}

void mq_set_recalibration(MqEngine *e, MqRecal policy)
{
    e->recal = policy;
}

void mq_set_track_bound(MqEngine *e, bool on)
{
    e->track_bound = on;
}

void mq_set_threads(MqEngine *e, unsigned threads)
{
    e->threads = threads < 1 ? 1 : threads > CGT_THREADS_MAX ? CGT_THREADS_MAX : threads;
}

void mq_request_stop(MqEngine *e)
{
    e->stop = true;
}

void mq_set_failure_hook(MqEngine *e, MqFailureHook fn, void *ctx)
{
    e->hook = fn;
    e->hook_ctx = ctx;
}

uint32_t mq_heaps_done(const MqEngine *e)
{
    return e->q->nh - 1;
}

uint32_t mq_current_size(const MqEngine *e)
{
    return e->q->n;
}

const MqStats *mq_stats(const MqEngine *e)
{
    return &e->stats;
}

void mq_engine_add_expansion(MqEngine *e, uint32_t h, uint32_t size)
{
    if (e->nexp == e->capexp) {
        e->capexp = e->capexp ? 2 * e->capexp : 8;
        e->exp_heap = xrealloc(e->exp_heap, e->capexp * sizeof *e->exp_heap);
        e->exp_size = xrealloc(e->exp_size, e->capexp * sizeof *e->exp_size);
    }
    e->exp_heap[e->nexp] = h;
    e->exp_size[e->nexp++] = size;
}

/* Elements in an order where pred[x] comes before x. */
static uint32_t *topo_order(const MqPret *q)
{
    uint32_t *depth = xmalloc(q->n * sizeof *depth);
    uint32_t *stack = xmalloc(q->n * sizeof *stack);
    for (uint32_t x = 0; x < q->n; x++)
        depth[x] = UINT32_MAX;
    depth[0] = 0;
    uint32_t maxd = 0;
    for (uint32_t x = 0; x < q->n; x++) {
        uint32_t sp = 0, y = x;
        while (depth[y] == UINT32_MAX) {
            stack[sp++] = y;
            y = q->pred[y];
        }
        while (sp) {
            uint32_t z = stack[--sp];
            depth[z] = depth[q->pred[z]] + 1;
            if (depth[z] > maxd)
                maxd = depth[z];
        }
    }
    uint32_t *cnt = xcalloc(maxd + 2, sizeof *cnt);
    for (uint32_t x = 0; x < q->n; x++)
        cnt[depth[x] + 1]++;
    for (uint32_t d = 1; d <= maxd + 1; d++)
        cnt[d] += cnt[d - 1];
    uint32_t *ord = xmalloc(q->n * sizeof *ord);
    for (uint32_t x = 0; x < q->n; x++)
        ord[cnt[depth[x]]++] = x;
    free(cnt);
    free(depth);
    free(stack);
    return ord;
}

/* row[z] = x*z for all z (products along the least-game tree). */
static void product_row(const MqPret *q, const uint32_t *ord, uint32_t x, uint32_t *row)
{
    row[0] = x;
    for (uint32_t i = 1; i < q->n; i++) {
        uint32_t z = ord[i];
        row[z] = q->act[q->hl[q->predh[z]]][row[q->pred[z]]];
    }
}

static void pret_set_heap(MqPret *q, uint32_t h, int32_t letter)
{
    if (h >= q->nh) {
        q->hl = xrealloc(q->hl, (h + 1) * sizeof *q->hl);
        for (uint32_t k = q->nh; k <= h; k++)
            q->hl[k] = -1;
        q->nh = h + 1;
    }
    q->hl[h] = letter;
}

/* Letter of element x in q, adding a table when x has none yet. */
static int32_t letter_for(MqPret *q, const uint32_t *ord, uint32_t x)
{
    for (uint32_t l = 0; l < q->nl; l++)
        if (q->act[l][0] == x)
            return (int32_t)l;
    q->act = xrealloc(q->act, (q->nl + 1) * sizeof *q->act);
    uint32_t *a = xmalloc(q->n * sizeof *a);
    product_row(q, ord, x, a);
    q->act[q->nl] = a;
    return (int32_t)q->nl++;
}

static double now(void)
{
    return cgt_now();
}

/* The antichains of the complete search of q's positions (no failure: q
 * is the quotient of heaps 0..n-1), kept in e->tt for the slow tests to
 * start from; e->tt_valid says whether they are there.  When e->tt is
 * complete for q's heaps 0..tt_nh-1 already (the fast test added the
 * heaps since with the same elements and P), only the positions that
 * hold a heap added since are searched: the rest of the walk is the one
 * that built e->tt. */
static CgtStatus complete_antichains(MqEngine *e, const MqPret *q, uint32_t N, uint32_t *g,
                                     uint32_t n, CgtError *err)
{
    MqTr t;
    bool found, complete;
    uint32_t from = e->tt_valid && e->tt.n == N && e->tt_nh <= q->nh ? e->tt_nh : 0;
    if (!from) {
        mqanti_free(&e->tt);
        mqanti_init(&e->tt, N);
    }
    e->tt_nh = q->nh;
    e->tt_valid = false;
    mqtr_build(&t, q, &e->opts);
    CgtStatus st = mq_least_nfail_from(q, &t, NULL, &e->tt, from, &found, g, &complete, err);
    mqtr_free(&t);
    if (st == CGT_OK && (found || !complete))
        st = cgt_error_set(err, CGT_ERR_INTERNAL,
                           "the quotient of heap %u has an N-failure (please report)", n - 1);
    if (st != CGT_OK) {
        mqanti_free(&e->tt);
        return st;
    }
    e->tt_valid = true;
    return CGT_OK;
}

/* One slow test of the conservative extension: heap n given the image x
 * in a copy c of q, searched from a copy an of the complete antichains
 * (docs/misere.md "One heap at a time"); ok when no failure was found and
 * the search completed.  Runs on any thread: it reads q and e->tt only;
 * true when it ends the slow tests (passed, or stopped by an error). */
typedef struct SlowTest {
    uint32_t x;
    MqPret *c;
    MqAnti an;
    bool ran, ok;
    CgtStatus st;
    CgtError err;
} SlowTest;

typedef struct SlowCtx {
    const MqEngine *e;
    const MqPret *q;
    uint32_t n;
    SlowTest *tests;
} SlowCtx;

static bool slow_test(void *arg, size_t i)
{
    const SlowCtx *sc = arg;
    const MqEngine *e = sc->e;
    SlowTest *r = &sc->tests[i];
    uint32_t *g = xcalloc(sc->n + 2, sizeof *g);
    MqTr t;
    bool pf = false, found = false, complete = false;
    r->c = mqpret_copy(sc->q);
    pret_set_heap(r->c, sc->n, letter_for(r->c, e->ord, r->x));
    mqtr_build(&t, r->c, &e->opts);
    r->an = (MqAnti){0};
    r->st = mq_least_pfail_polled(r->c, &t, g, &pf, &r->err);
    if (!pf && r->st == CGT_OK) {
        mqanti_copy(&r->an, &e->tt);
        r->st = mq_least_nfail_top(r->c, &t, NULL, &r->an, &found, g, &complete, &r->err);
    }
    mqtr_free(&t);
    free(g);
    r->ran = true;
    r->ok = r->st == CGT_OK && !pf && !found && complete;
    if (r->ok || r->st != CGT_OK)
        return true; /* the test that ends the slow tests */
    /* a failed test leaves q unchanged: its copies are not needed */
    mqanti_free(&r->an);
    mqpret_free(r->c);
    r->c = NULL;
    return false;
}

/* Conservative extension (docs/misere.md "One heap at a time").  On
 * success *done = true and the engine's q covers heap n. */
static CgtStatus conservative(MqEngine *e, uint32_t n, bool *done, CgtError *err)
{
    MqPret *q = e->q;
    uint32_t N = q->n, W = (N + 63) / 64;
    uint64_t *trb = xcalloc(W + 1, 8);
    MqOptIt it;
    mqopt_begin(&it, &e->opts.o[n]);
    const uint32_t *parts;
    uint32_t np;
    while ((parts = mqopt_next(&it, &np))) {
        uint32_t x = 0;
        for (uint32_t k = 0; k < np; k++)
            if (q->hl[parts[k]] >= 0)
                x = q->act[q->hl[parts[k]]][x];
        trb[x >> 6] |= (uint64_t)1 << (x & 63);
    }
    bool heap_p = true;
    for (uint32_t w = 0; w < W; w++)
        if (trb[w] & q->p[w])
            heap_p = false;
    /* rows Px = {z : xz in P} for mex compatibility (docs/misere.md "The
       searches"); the rows and the candidates below take O(N^2) steps: both
       poll */
    CgtStatus st = CGT_OK;
    uint8_t *cand = NULL;
    if (!e->ord) {
        e->ord = topo_order(q);
        e->px = xcalloc((size_t)N * W + 1, 8);
        uint32_t *row = xmalloc(N * sizeof *row);
        for (uint32_t x = 0; x < N && st == CGT_OK; x++) {
            if ((x & 63) == 0 && (st = cgt_poll()) != CGT_OK)
                break;
            product_row(q, e->ord, x, row);
            for (uint32_t z = 0; z < N; z++)
                if (mq_bit(q->p, row[z]))
                    e->px[(size_t)x * W + (z >> 6)] |= (uint64_t)1 << (z & 63);
        }
        free(row);
        if (st != CGT_OK) { /* half-built rows are not kept */
            free(e->px);
            free(e->ord);
            e->px = NULL;
            e->ord = NULL;
            st = cgt_poll_error(err, st, "misere quotient");
            goto out;
        }
    }
    const uint32_t *ord = e->ord;
    const uint64_t *px = e->px;
    cand = xcalloc(N, 1);
    uint32_t ncand = 0;
    for (uint32_t x = 0; x < N; x++) {
        if ((x & 63) == 0 && (st = cgt_poll()) != CGT_OK) {
            st = cgt_poll_error(err, st, "misere quotient");
            goto out;
        }
        if (mq_bit(q->p, x) != heap_p)
            continue;
        bool ok = true;
        for (uint32_t t = 0; t < N && ok; t++) {
            if (!mq_bit(trb, t))
                continue;
            if (t == x) {
                ok = false;
                break;
            }
            const uint64_t *a = px + (size_t)x * W, *b = px + (size_t)t * W;
            for (uint32_t w = 0; w < W; w++)
                if (a[w] & b[w]) {
                    ok = false;
                    break;
                }
        }
        if (ok) {
            cand[x] = 1;
            ncand++;
        }
    }
    *done = false;
    if (ncand == 0)
        goto out;
    uint32_t *g = xcalloc(n + 2, sizeof *g);
    if (!e->tt_valid && (st = complete_antichains(e, q, N, g, n, err)) != CGT_OK) {
        free(g);
        goto out;
    }
    for (uint32_t x = 0; x < N && !*done; x++) {
        if (!cand[x] || !mqanti_covered(&e->tt, x, trb))
            continue;
        pret_set_heap(q, n, letter_for(q, ord, x));
        e->stats.fast_hits++;
        *done = true;
    }
    /* The slow tests search heap n's positions only: every one starts from
       the antichains of the complete search of heaps 0..n-1 (the part of
       its walk without heap n, which finds no failure since q is correct
       there), made complete for q first if they were built before the
       last heaps the fast test added. */
    if (!*done && e->tt_nh != q->nh) {
        bool any = false;
        for (uint32_t x = 0; x < N && !any; x++)
            any = cand[x];
        if (any && (st = complete_antichains(e, q, N, g, n, err)) != CGT_OK) {
            free(g);
            goto out;
        }
    }
    /* The slow tests, a chunk of candidates at a time (four per thread),
       started in the order of x and judged in that order: the first that
       passes is the one a single thread takes, and the tests after it are
       cancelled (docs/misere.md "Two threads"). */
    unsigned threads = cgt_par_threads(e->threads);
    size_t chunk = 4 * (size_t)threads;
    SlowTest *tests = xcalloc(chunk, sizeof *tests);
    SlowCtx sc = {e, q, n, tests};
    uint32_t next = 0;
    while (!*done && st == CGT_OK) {
        size_t nt = 0;
        for (; next < N && nt < chunk; next++)
            if (cand[next]) {
                tests[nt] = (SlowTest){.x = next};
                nt++;
            }
        if (nt == 0)
            break;
        cgt_par_run_first(threads, nt, slow_test, &sc);
        for (size_t k = 0; k < nt; k++) {
            SlowTest *r = &tests[k];
            if (!*done && st == CGT_OK && r->ran) {
                e->stats.slow_tests++;
                if (r->st != CGT_OK) {
                    st = r->st;
                    *err = r->err;
                } else if (r->ok) {
                    mqanti_free(&e->tt);
                    e->tt = r->an;
                    r->an = (MqAnti){0};
                    e->tt_valid = true;
                    e->tt_nh = r->c->nh;
                    /* same elements and P: the cached rows stay valid */
                    mqpret_free(e->q);
                    e->q = r->c;
                    r->c = NULL;
                    *done = true;
                }
            }
            /* q is unchanged by a test that fails: its antichains stay
               complete */
            mqanti_free(&r->an);
            mqpret_free(r->c);
            r->c = NULL;
        }
    }
    free(tests);
    free(g);
out:
    free(cand);
    free(trb);
    return st;
}

static uint32_t power_index(const MqPret *q, uint32_t h)
{
    if (q->hl[h] < 0)
        return 0;
    const uint32_t *a = q->act[q->hl[h]];
    uint32_t *at = xmalloc(q->n * sizeof *at);
    for (uint32_t x = 0; x < q->n; x++)
        at[x] = UINT32_MAX;
    uint32_t x = 0, k = 0;
    while (at[x] == UINT32_MAX) {
        at[x] = k++;
        x = a[x];
    }
    uint32_t idx = at[x];
    free(at);
    return idx;
}

/* One subset of a recalibration: its heaps (sel into H), their fresh
 * cyclic components and the trial freed (and, under MQ_RECAL_LIFT, the
 * trial lifted), built by recal_try on any thread; recal_try returns
 * true when the subset ends the search (under MQ_RECAL_FIRST a trial
 * that flips F's label, under every policy an error). */
typedef struct RecalTry {
    uint32_t sel[64];
    int32_t *ci, *cp;
    MqPret *R[2]; /* the trials that flip F's label (NULL: none, or not built) */
    CgtStatus st[2];
    CgtError err[2];
    bool ran;
} RecalTry;

typedef struct RecalCtx {
    const MqEngine *e;
    const MqPret *T;
    const uint32_t *F, *last_idx, *H;
    uint32_t s;
    bool should_p;
    RecalTry *tries;
} RecalCtx;

static bool recal_try(void *arg, size_t i)
{
    const RecalCtx *c = arg;
    const MqEngine *e = c->e;
    const MqPret *T = c->T;
    RecalTry *r = &c->tries[i];
    uint32_t nh = T->nh;
    bool *keep = xmalloc(nh * sizeof *keep);
    uint8_t *cl = xmalloc(nh * sizeof *cl);
    int32_t *ci = r->ci, *cp = r->cp;
    bool end = false;
    r->st[0] = r->st[1] = CGT_OK;
    for (int lift = 0; lift <= (e->recal == MQ_RECAL_LIFT); lift++) {
        for (uint32_t h = 0; h < nh; h++) {
            keep[h] = true;
            ci[h] = cp[h] = -1;
            cl[h] = 0;
        }
        for (uint32_t k = 0; k < c->s; k++) {
            uint32_t h = c->H[r->sel[k]];
            keep[h] = lift;
            cl[h] = (uint8_t)lift;
            uint32_t idx = power_index(T, h);
            if (c->F[h] - 1 > idx)
                idx = c->F[h] - 1;
            if (e->recal >= MQ_RECAL_JUMP && c->last_idx[h] >= 2 && idx < 2 * c->last_idx[h])
                idx = 2 * c->last_idx[h];
            ci[h] = (int32_t)idx;
            cp[h] = idx < 8 ? 2 : 2 * (int32_t)((idx - 4) / 2);
        }
        uint32_t rn, rnl;
        uint32_t **ract;
        int32_t *rhl;
        mq_submonoid(T, keep, &rn, &rnl, &ract, &rhl);
        MqTrial tr = {nh, rn, rnl, ract, rhl, ci, cp, cl, c->F, c->should_p};
        MqPret *R = NULL;
        r->st[lift] = mq_trial_build(&tr, &e->opts, e->lim.max_trial, &R, &r->err[lift]);
        for (uint32_t l = 0; l < rnl; l++)
            free(ract[l]);
        free(ract);
        free(rhl);
        if (r->st[lift] != CGT_OK && (!lift || r->st[lift] != CGT_ERR_LIMIT)) {
            end = true; /* recalibrate stops here with this error, as one thread would */
            break;
        }
        /* only a trial that flips F's label can be chosen */
        if (R && mq_bit(R->p, mqpret_eval(R, c->F)) == c->should_p) {
            r->R[lift] = R;
            end |= e->recal == MQ_RECAL_FIRST;
        } else {
            mqpret_free(R);
        }
    }
    r->ran = true;
    free(keep);
    free(cl);
    return end;
}

/* The next s-subset of 0..nH-1 in lexicographic order; false after the
 * last. */
static bool next_subset(uint32_t *sel, uint32_t s, uint32_t nH)
{
    int i = (int)s - 1;
    while (i >= 0 && sel[i] == nH - s + (uint32_t)i)
        i--;
    if (i < 0)
        return false;
    sel[i]++;
    for (uint32_t j = (uint32_t)i + 1; j < s; j++)
        sel[j] = sel[j - 1] + 1;
    return true;
}

/* Recalibrate trial *tp on the least failure F (docs/misere.md "One heap
 * at a time", Recalibration).  The subsets are built a chunk at a time
 * (four per thread; docs/misere.md "Two threads"), started and judged in
 * their order, so the trial chosen is the one a single thread chooses. */
static CgtStatus recalibrate(MqEngine *e, MqPret **tp, const uint32_t *F, uint32_t *last_idx,
                             CgtError *err)
{
    MqPret *T = *tp;
    uint32_t nh = T->nh;
    bool should_p = !mq_bit(T->p, mqpret_eval(T, F));
    uint32_t H[64], nH = 0;
    for (uint32_t h = 1; h < nh && nH < 64; h++)
        if (F[h] && T->hl[h] >= 0)
            H[nH++] = h;
    unsigned threads = cgt_par_threads(e->threads);
    size_t chunk = 4 * (size_t)threads;
    RecalTry *tries = xcalloc(chunk, sizeof *tries);
    for (size_t k = 0; k < chunk; k++) {
        tries[k].ci = xmalloc(nh * sizeof *tries[k].ci);
        tries[k].cp = xmalloc(nh * sizeof *tries[k].cp);
    }
    int32_t *best_ci = xmalloc(nh * sizeof *best_ci);
    uint32_t sel[64];
    MqPret *best = NULL; /* smallest accepted trial of the current subset size */
    char desc[256];
    CgtStatus st = CGT_OK;
    RecalCtx ctx = {e, T, F, last_idx, H, 0, should_p, tries};
    for (uint32_t s = 1; s <= nH; s++) {
        for (uint32_t i = 0; i < s; i++)
            sel[i] = i;
        ctx.s = s;
        bool more = true, stop = false;
        while (more && !stop) {
            size_t nt = 0;
            while (more && nt < chunk) {
                memcpy(tries[nt].sel, sel, s * sizeof *sel);
                tries[nt].ran = false;
                nt++;
                more = next_subset(sel, s, nH);
            }
            cgt_par_run_first(threads, nt, recal_try, &ctx);
            for (size_t k = 0; k < nt; k++) {
                RecalTry *r = &tries[k];
                if (!r->ran) /* after the subset that ended the search */
                    stop = true;
                for (int lift = 0; !stop && lift <= (e->recal == MQ_RECAL_LIFT); lift++) {
                    if (lift == 0 && (st = cgt_poll()) != CGT_OK) {
                        st = cgt_poll_error(err, st, "misere quotient");
                        stop = true;
                        break;
                    }
                    e->stats.recalibrations++;
                    st = r->st[lift];
                    if (st == CGT_ERR_LIMIT && lift && cgt_poll() == CGT_OK) {
                        /* a lifted trial may be too big where a freed one is not
                           (a time limit is not swallowed here) */
                        st = CGT_OK;
                        continue;
                    }
                    if (st != CGT_OK) {
                        *err = r->err[lift];
                        stop = true;
                        break;
                    }
                    MqPret *R = r->R[lift];
                    if (R && (!best || R->n < best->n)) {
                        size_t dl = 0;
                        desc[0] = 0;
                        for (uint32_t i = 0; i < s && dl + 40 < sizeof desc; i++)
                            dl += (size_t)snprintf(desc + dl, sizeof desc - dl,
                                                   " %u(%sindex %d, period %d)", H[r->sel[i]],
                                                   lift ? "lifted, " : "", r->ci[H[r->sel[i]]],
                                                   r->cp[H[r->sel[i]]]);
                        mqpret_free(best);
                        best = R;
                        r->R[lift] = NULL;
                        memcpy(best_ci, r->ci, nh * sizeof *best_ci);
                    }
                }
                if (best && e->recal == MQ_RECAL_FIRST)
                    stop = true;
                /* the trials after the one that ends the search are dropped */
                for (int lift = 0; lift < 2; lift++) {
                    mqpret_free(r->R[lift]);
                    r->R[lift] = NULL;
                }
                if (stop) {
                    for (size_t j = k + 1; j < nt; j++)
                        for (int lift = 0; lift < 2; lift++) {
                            mqpret_free(tries[j].R[lift]);
                            tries[j].R[lift] = NULL;
                        }
                    break;
                }
            }
        }
        if (st != CGT_OK)
            goto out;
        if (best) {
            for (uint32_t h = 0; h < nh; h++)
                if (best_ci[h] >= 0)
                    last_idx[h] = (uint32_t)best_ci[h];
            cgt_progress("quotient", "heap %u: recalibrated heaps%s (trial |Q|=%u)", nh - 1,
                               desc, best->n);
            mqpret_free(T);
            *tp = best;
            best = NULL;
            goto out;
        }
    }
    st = cgt_error_set(err, CGT_ERR_INTERNAL, "failed to recalibrate at heap %u", nh - 1);
    cgt_error_hint(err, "please report this game; the quotient up to heap %u is kept", nh - 2);
out:
    mqpret_free(best);
    free(best_ci);
    for (size_t k = 0; k < chunk; k++) {
        free(tries[k].ci);
        free(tries[k].cp);
    }
    free(tries);
    return st;
}

/* One Moore refinement level of lower_bound(): refine cls (in place) by
 * signatures (P, class of x*top under prev, classes of x*g for the other
 * letters) until the class count is stable.  prev NULL = no top step. */
static uint32_t refine_level(const MqPret *T, int32_t top, const uint32_t *prev, uint32_t *cls,
                             uint32_t *sig, uint32_t *nc, uint32_t *tab, size_t hcap)
{
    uint32_t n = T->n, len = T->nl + 2, count = 0;
    for (;;) {
        memset(tab, 0xff, hcap * sizeof *tab);
        uint32_t k = 0;
        for (uint32_t x = 0; x < n; x++) {
            uint32_t *sg = sig + (size_t)x * len;
            sg[0] = cls[x];
            sg[1] = prev && top >= 0 ? prev[T->act[top][x]] : 0;
            for (uint32_t l = 0; l < T->nl; l++)
                sg[2 + l] = (int32_t)l == top ? 0 : cls[T->act[l][x]];
            uint64_t hv = 0;
            for (uint32_t i = 0; i < len; i++)
                hv = (hv ^ sg[i]) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
            hv ^= hv >> 29;
            size_t i = (size_t)hv & (hcap - 1);
            for (;;) {
                uint32_t r = tab[i];
                if (r == UINT32_MAX) {
                    tab[i] = x;
                    nc[x] = k++;
                    break;
                }
                if (memcmp(sig + (size_t)r * len, sg, len * sizeof *sg) == 0) {
                    nc[x] = nc[r];
                    break;
                }
                i = (i + 1) & (hcap - 1);
            }
        }
        memcpy(cls, nc, n * sizeof *cls);
        if (k == count)
            return k;
        count = k;
    }
}

/* The lower bound described at MqStats.bound_size for trial T whose least
 * failure has k copies of the newest heap.  Contexts with at most m copies
 * of that heap separate x and y iff P(x) != P(y), or x*top and y*top are
 * separated with m-1 copies, or x*g and y*g with m copies for another
 * letter g; every product involved is the image of a game with at most 2j
 * <= k-1 copies, so its P-label is correct. */
static uint32_t lower_bound(const MqPret *T, uint32_t k)
{
    uint32_t n = T->n, top_h = T->nh - 1, j = (k - 1) / 2;
    int32_t top = T->hl[top_h];
    for (uint32_t h = 0; h < top_h && top >= 0; h++)
        if (T->hl[h] == top)
            top = -1; /* the newest heap acts like an older one: no limit */
    /* c[x] = least number of top-heap copies in a game reaching x (0-1 BFS) */
    uint32_t *c = xmalloc(n * sizeof *c), *dq = xmalloc(2 * (size_t)n * sizeof *dq);
    for (uint32_t x = 0; x < n; x++)
        c[x] = UINT32_MAX;
    size_t head = n, tail = n;
    c[0] = 0;
    dq[tail++] = 0;
    while (head < tail) {
        uint32_t x = dq[head++];
        for (uint32_t l = 0; l < T->nl; l++) {
            uint32_t y = T->act[l][x], w = c[x] + ((int32_t)l == top);
            if (w < c[y]) {
                c[y] = w;
                if ((int32_t)l == top)
                    dq[tail++] = y;
                else
                    dq[--head] = y;
            }
        }
    }
    free(dq);
    size_t len = (size_t)T->nl + 2, hcap = 16;
    while (hcap < 2 * (size_t)n)
        hcap *= 2;
    uint32_t *sig = xmalloc((size_t)n * len * sizeof *sig);
    uint32_t *nc = xmalloc(n * sizeof *nc), *tab = xmalloc(hcap * sizeof *tab);
    uint32_t *cls = xmalloc(n * sizeof *cls), *prev = xmalloc(n * sizeof *prev);
    for (uint32_t x = 0; x < n; x++)
        cls[x] = mq_bit(T->p, x);
    refine_level(T, top, NULL, cls, sig, nc, tab, hcap);
    for (uint32_t m = 1; m <= j && top >= 0; m++) {
        memcpy(prev, cls, n * sizeof *cls);
        refine_level(T, top, prev, cls, sig, nc, tab, hcap);
    }
    /* classes met by elements with at most j copies */
    uint8_t *met = xcalloc(n, 1);
    uint32_t count = 0;
    for (uint32_t x = 0; x < n; x++)
        if (c[x] <= j && !met[cls[x]]) {
            met[cls[x]] = 1;
            count++;
        }
    free(met);
    free(c);
    free(sig);
    free(nc);
    free(tab);
    free(cls);
    free(prev);
    return count;
}


/* The map of the elements of q reached by heaps below m (those whose
 * least game holds only such heaps: depth[x] < m) into a recalibrated
 * trial T, through their least games, when it is an injective
 * homomorphism on the images of heaps 1..m-1 that keeps P: then T's
 * search of the positions without heaps >= m is q's, renamed (the
 * elements q does not reach below m map to UINT32_MAX).  NULL otherwise. */
static uint32_t *embed_below(const MqPret *q, const uint32_t *depth, const MqPret *T, uint32_t m)
{
    uint32_t N = q->n ? q->n : 1;
    uint32_t *emb = xmalloc(N * sizeof *emb), *stack = xmalloc(N * sizeof *stack);
    uint8_t *done = xcalloc(N, 1), *used = xcalloc(T->n ? T->n : 1, 1);
    bool ok = q->n > 0 && m <= q->nh && m <= T->nh && mq_bit(q->p, 0) == mq_bit(T->p, 0);
    for (uint32_t h = 0; ok && h < m; h++)
        ok = (q->hl[h] < 0) == (T->hl[h] < 0);
    for (uint32_t x = 0; x < q->n; x++)
        emb[x] = UINT32_MAX;
    emb[0] = 0;
    done[0] = used[0] = 1;
    for (uint32_t x = 1; ok && x < q->n; x++) {
        if (depth[x] >= m)
            continue; /* so is every element on its path: it holds x's heaps */
        uint32_t k = 0, y = x;
        while (!done[y] && k < q->n) {
            stack[k++] = y;
            y = q->pred[y];
        }
        while (ok && k > 0) {
            y = stack[--k];
            int32_t l = T->hl[q->predh[y]];
            ok = done[q->pred[y]] && l >= 0;
            if (!ok)
                break;
            uint32_t z = T->act[l][emb[q->pred[y]]];
            ok = !used[z] && mq_bit(q->p, y) == mq_bit(T->p, z);
            emb[y] = z;
            done[y] = used[z] = 1;
        }
    }
    for (uint32_t h = 1; ok && h < m; h++) {
        if (q->hl[h] < 0)
            continue;
        const uint32_t *a = q->act[q->hl[h]], *b = T->act[T->hl[h]];
        for (uint32_t y = 0; ok && y < q->n; y++)
            if (emb[y] != UINT32_MAX)
                ok = emb[a[y]] != UINT32_MAX && emb[a[y]] == b[emb[y]];
    }
    free(stack);
    free(done);
    free(used);
    if (!ok) {
        free(emb);
        return NULL;
    }
    return emb;
}

/* depth[x]: the largest heap of x's least game (0 for the identity). */
static uint32_t *least_depth(const MqPret *q)
{
    uint32_t N = q->n ? q->n : 1;
    uint32_t *depth = xmalloc(N * sizeof *depth), *stack = xmalloc(N * sizeof *stack);
    uint8_t *done = xcalloc(N, 1);
    depth[0] = 0;
    done[0] = 1;
    for (uint32_t x = 1; x < q->n; x++) {
        uint32_t k = 0, y = x;
        while (!done[y] && k < q->n) {
            stack[k++] = y;
            y = q->pred[y];
        }
        while (k > 0) {
            y = stack[--k];
            uint32_t d = depth[q->pred[y]];
            depth[y] = q->predh[y] > d ? q->predh[y] : d;
            done[y] = 1;
        }
    }
    free(stack);
    free(done);
    return depth;
}

/* pre = the antichains of the complete search of q's heaps below m (q is
 * correct there: no failure); g is scratch for a failure. */
static CgtStatus below_antichains(const MqEngine *e, const MqPret *q, uint32_t m, MqAnti *pre,
                                  uint32_t *g, CgtError *err)
{
    MqPret qm = *q; /* the same tables, heaps 0..m-1 */
    qm.nh = m;
    MqTr t;
    bool found, complete;
    mqanti_free(pre);
    mqanti_init(pre, q->n);
    mqtr_build(&t, &qm, &e->opts);
    CgtStatus st = mq_least_nfail(&qm, &t, NULL, pre, &found, g, &complete, err);
    mqtr_free(&t);
    if (st == CGT_OK && (found || !complete))
        st = cgt_error_set(err, CGT_ERR_INTERNAL,
                           "the quotient of heap %u has an N-failure below heap %u (please report)",
                           q->nh - 1, m);
    if (st != CGT_OK)
        mqanti_free(pre);
    return st;
}

/* Expansion and the verification loop (docs/misere.md "One heap at a
 * time"). */
static CgtStatus expand(MqEngine *e, uint32_t n, CgtError *err)
{
    MqPret *q = e->q;
    uint32_t nh = n + 1;
    int32_t *bhl = xmalloc(nh * sizeof *bhl), *ci = xmalloc(nh * sizeof *ci);
    int32_t *cp = xmalloc(nh * sizeof *cp);
    for (uint32_t h = 0; h < nh; h++) {
        bhl[h] = h < q->nh ? q->hl[h] : -1;
        ci[h] = cp[h] = -1;
    }
    ci[n] = 2;
    cp[n] = 2;
    MqTrial tr = {nh, q->n, q->nl, q->act, bhl, ci, cp, NULL, NULL, false};
    MqPret *T = NULL;
    double t0 = now();
    CgtStatus st = mq_trial_build(&tr, &e->opts, e->lim.max_trial, &T, err);
    e->stats.t_expansion += now() - t0;
    free(bhl);
    free(ci);
    free(cp);
    if (st != CGT_OK)
        return st;
    uint32_t *pf = xcalloc(nh, sizeof *pf), *nf = xcalloc(nh, sizeof *nf);
    uint32_t *last_idx = xcalloc(nh, sizeof *last_idx); /* per heap, this expansion */
    /* A trial that holds q's heaps below m as the submonoid of those heaps,
       with the same labels (the first trial holds them all), is searched
       from q's antichains of the positions without heaps >= m, renamed
       into T, and walks only the positions holding a heap m or above
       (docs/misere.md "One heap at a time"): for m = n these are e->tt
       (complete for q's heaps below tt_nh), for a recalibrated trial, one
       that changed heaps below n, they are searched once (pre, of q's
       heaps below pm) for the trials after it. */
    uint32_t *depth = NULL, pm = 0;
    MqAnti pre = {0};
    for (;;) {
        if (T->n > e->lim.max_size) {
            st = cgt_error_set(err, CGT_ERR_LIMIT,
                               "trial quotient at heap %u has %u elements, above the cap %u", n,
                               T->n, e->lim.max_size);
            cgt_error_hint(err, "raise the size cap; the quotient up to heap %u is kept", n - 1);
            break;
        }
        cgt_progress("quotient", "heap %u: verifying trial |Q|=%u", n, T->n);
        t0 = now();
        MqTr t;
        mqtr_build(&t, T, &e->opts);
        bool has_pf = false;
        st = mq_least_pfail_polled(T, &t, pf, &has_pf, err);
        MqAnti an;
        bool has_nf = false, complete = false;
        const MqAnti *src = NULL;
        uint32_t from = 0, *emb = NULL;
        if (st == CGT_OK && q->nh == n && n > 2) {
            if (!depth)
                depth = least_depth(q);
            if (e->tt_valid && e->tt.n == q->n && e->tt_nh <= n &&
                (emb = embed_below(q, depth, T, n))) {
                src = &e->tt;
                from = e->tt_nh;
            } else if (pm && (emb = embed_below(q, depth, T, pm))) {
                src = &pre;
                from = pm;
            } else {
                /* the largest m below pm (or n) that T holds: the heaps
                   below an m it holds it holds too */
                uint32_t lo = 1, hi = pm ? pm : n;
                while (hi - lo > 1) {
                    uint32_t mid = lo + (hi - lo) / 2, *x = embed_below(q, depth, T, mid);
                    if (x)
                        lo = mid;
                    else
                        hi = mid;
                    free(x);
                }
                if (lo >= 2 && (st = below_antichains(e, q, lo, &pre, nf, err)) == CGT_OK) {
                    pm = lo;
                    emb = embed_below(q, depth, T, pm);
                    src = &pre;
                    from = pm;
                }
            }
        }
        if (emb) {
            mqanti_map(&an, src, emb, T->n);
            free(emb);
            if (st == CGT_OK)
                st = mq_least_nfail_from(T, &t, has_pf ? pf : NULL, &an, from, &has_nf, nf,
                                         &complete, err);
        } else {
            mqanti_init(&an, T->n);
            if (st == CGT_OK)
                st = mq_least_nfail(T, &t, has_pf ? pf : NULL, &an, &has_nf, nf, &complete,
                                    err);
        }
        mqtr_free(&t);
        e->stats.t_verification += now() - t0;
        if (st != CGT_OK) {
            mqanti_free(&an);
            break;
        }
        if (!has_pf && !has_nf) {
            mqanti_free(&e->tt);
            e->tt = an;
            e->tt_valid = complete;
            e->tt_nh = T->nh;
            if (!complete)
                mqanti_free(&e->tt);
            mq_engine_set_pret(e, T);
            T = NULL;
            e->stats.expansions++;
            mq_engine_add_expansion(e, n, e->q->n);
            break;
        }
        mqanti_free(&an);
        e->stats.failures++;
        const uint32_t *Fl = has_nf ? nf : pf;
        e->stats.fail_heap = n;
        e->stats.fail_copies = Fl[n];
        if (e->hook) {
            e->hook(e->hook_ctx, T, Fl, !has_nf);
            if (e->stop) {
                e->stop = false;
                st = cgt_error_set(err, CGT_ERR_INTERRUPTED,
                                   "expansion of heap %u stopped by the failure hook", n);
                break;
            }
        }
        if (e->track_bound && Fl[n] > 1 &&
            (e->stats.bound_heap != n || Fl[n] - 1 > e->stats.bound_copies)) {
            uint32_t b = lower_bound(T, Fl[n]);
            if (e->stats.bound_heap != n || b > e->stats.bound_size) {
                e->stats.bound_heap = n;
                e->stats.bound_size = b;
            }
            e->stats.bound_copies = Fl[n] - 1;
            cgt_progress("quotient", "heap %u: |Q(%u)| >= %u (trial |Q|=%u correct on "
                               "games with at most %u heaps of size %u)", n, n,
                               e->stats.bound_size, T->n, Fl[n] - 1, n);
        }
        if (cgt_progress_enabled()) {
            const uint32_t *F = has_nf ? nf : pf;
            char fd[256];
            size_t fl = 0;
            fd[0] = 0;
            for (uint32_t h = nh; h-- > 1 && fl + 16 < sizeof fd;)
                if (F[h])
                    fl += (size_t)snprintf(fd + fl, sizeof fd - fl, " %u^%u", h, F[h]);
            cgt_progress("quotient",
                               "heap %u: recalibrating on the least %s-failure%s (trial |Q|=%u)",
                               n, has_nf ? "N" : "P", fd, T->n);
        }
        t0 = now();
        st = recalibrate(e, &T, has_nf ? nf : pf, last_idx, err);
        e->stats.t_recalibration += now() - t0;
        if (st != CGT_OK)
            break;
    }
    mqpret_free(T);
    free(depth);
    mqanti_free(&pre);
    free(pf);
    free(nf);
    free(last_idx);
    return st;
}

static CgtStatus extend_one(MqEngine *e, CgtError *err)
{
    uint32_t n = e->q->nh;
    CgtStatus st = mqopts_extend(&e->opts, e->game, n + 1, err);
    if (st != CGT_OK)
        return st;
    if (e->opts.o[n].count == 0) {
        pret_set_heap(e->q, n, -1);
        /* the search skips a heap without options: the antichains stay
           complete */
        if (e->tt_nh == n)
            e->tt_nh = n + 1;
        return CGT_OK;
    }
    bool done = false;
    double t0 = now();
    cgt_progress("quotient", "heap %u: conservative check (|Q|=%u)", n, e->q->n);
    st = conservative(e, n, &done, err);
    e->stats.t_conservative += now() - t0;
    if (st != CGT_OK || done) {
        if (st == CGT_OK && e->q->nh != n + 1)
            return cgt_error_set(err, CGT_ERR_INTERNAL, "conservative extension lost heap %u",
                                 n);
        return st;
    }
    /* e->tt stays: the expansion's first search starts from it */
    return expand(e, n, err);
}

CgtStatus mq_extend_to(MqEngine *e, uint32_t n, CgtError *err)
{
    double c0 = cgt_cpu_seconds();
    uint32_t h0 = e->q->nh;
    while (e->q->nh <= n) {
        CgtStatus st = extend_one(e, err);
        if (st != CGT_OK)
            return st;
        uint32_t np = 0;
        for (uint32_t w = 0; w < (e->q->n + 63) / 64; w++)
            np += (uint32_t)__builtin_popcountll(e->q->p[w]);
        uint32_t done = e->q->nh - 1;
        if (done < n) {
            /* the estimate assumes the mean CPU time per heap so far; later
             * heaps are usually slower, so it is a lower bound */
            double used = cgt_cpu_seconds() - c0;
            cgt_progress("quotient",
                         "heap %u of %u: |Q|=%u |P|=%u, construction, %.1f s CPU, at least "
                         "%.0f s CPU to heap %u at this rate",
                         done, n, e->q->n, np, used, used / (done + 1 - h0) * (n - done), n);
        }
    }
    return CGT_OK;
}

uint32_t mq_current_psize(const MqEngine *e)
{
    uint32_t np = 0;
    for (uint32_t w = 0; w < (e->q->n + 63) / 64; w++)
        np += (uint32_t)__builtin_popcountll(e->q->p[w]);
    return np;
}

/* ---- periodicity (docs/misere.md "One heap at a time", Periodicity) ---- */

MqPeriod mq_period_of(const uint32_t *phi, uint32_t heaps, int max_parts, int max_take)
{
    MqPeriod r = {0};
    r.heaps = heaps;
    r.last_rogue = -1;
    if (max_take < 0 || max_parts < 1)
        return r;
    uint32_t m = (uint32_t)max_parts + 1, t = (uint32_t)max_take;
    for (uint32_t p = 1; p < heaps; p++) {
        /* least preperiod for period p */
        uint32_t rr = heaps - p;
        while (rr > 0 && phi[rr - 1] == phi[rr - 1 + p])
            rr--;
        if ((uint64_t)m * rr + (uint64_t)m * p + t + m <= heaps) {
            r.found = true;
            r.period = p;
            r.preperiod = rr;
            return r;
        }
    }
    return r;
}

static uint32_t *current_phi(const MqPret *q)
{
    uint32_t *phi = xmalloc(q->nh * sizeof *phi);
    for (uint32_t h = 0; h < q->nh; h++)
        phi[h] = q->hl[h] < 0 ? 0 : q->act[q->hl[h]][0];
    return phi;
}

CgtStatus mq_run_until_periodic(MqEngine *e, uint32_t max_heap, MqPeriod *out, CgtError *err)
{
    CgtStatus st = CGT_OK;
    double c0 = cgt_cpu_seconds();
    for (;;) {
        if (e->q->nh > 1)
            cgt_progress("quotient",
                         "heap %u: |Q|=%u |P|=%u, construction until periodic, %.1f s CPU",
                         e->q->nh - 1, e->q->n, mq_current_psize(e), cgt_cpu_seconds() - c0);
        uint32_t *phi = current_phi(e->q);
        *out = mq_period_of(phi, e->q->nh, e->game->max_parts, e->game->max_take);
        free(phi);
        if (out->found || e->q->nh > max_heap)
            break;
        st = mq_extend_to(e, e->q->nh, err);
        if (st != CGT_OK)
            break;
    }
    if (out->found) {
        Quotient *qq = mq_quotient(e, NULL, 0, err);
        if (qq) {
            MqPeriod p2 = quotient_periodicity(qq, e->game->max_parts, e->game->max_take);
            out->last_rogue = p2.last_rogue;
            quotient_free(qq);
        }
    }
    return st;
}

int mq_current_ngens(const MqEngine *e)
{
    return mqquot_count_gens(e->q);
}

Quotient *mq_quotient(const MqEngine *e, const char *const *names, int nnames, CgtError *err)
{
    MqClaim c;
    mqquot_claim_of_pret(e->q, &c);
    Quotient *q = quotient_from_claim(&c, names, nnames, err);
    mqquot_claim_free(&c);
    return q;
}

size_t mq_engine_expansions(const MqEngine *e, const uint32_t **heaps, const uint32_t **sizes)
{
    *heaps = e->exp_heap;
    *sizes = e->exp_size;
    return e->nexp;
}
