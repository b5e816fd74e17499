/* The genus of the P-position types of a quotient (docs/misere.md,
 * "Genus").  The genus g^{γ0γ1...} of a position G (J. H. Conway, On
 * Numbers and Games, ch. 12; A. N. Siegel, Combinatorial Game Theory,
 * ch. V): g its normal-play Grundy value, γk the misère nim value of G plus
 * k copies of *2, that is the unique m for which G + k*2 + *m is a misère
 * P-position.  So every γk that is at most c is read off a quotient of the
 * game with the nim heaps *1..*c adjoined as heaps of their own (Plambeck
 * and Siegel, "Misère quotients for impartial games", JCTA 115 (2008): the
 * quotient of any closed set of games; here the heaps 0..n of the game and
 * *1..*c, certified by mq_certify like any quotient), and only the larger
 * γk are searched, by the genus search of src/lib/heap/genus.c with these
 * answers as its GenusKnown hook. */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/heap/genus.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* Two quotients answer: A, Q(n) of the game with *1..*c adjoined after its
 * heaps (c <= NIM_AFTER), for γk <= c of any position; B, the nim heaps
 * *1..*NIM_BEFORE followed by the game's heaps 0..m (m as large as closes,
 * at most n), for γk <= NIM_BEFORE of positions whose heaps are all <= m.
 * (For 0.07, *4 does not close on Q(28), and *8 not on Q(10), but *1..*7
 * with heaps 0..27 give 1,480 elements.)  A heap whose expansion does not
 * close within HEAP_POLLS polls of cgt_poll (a count of work, the same on
 * every machine), or passes NIM_SIZE_FACTOR * |Q| + 64 elements, ends its
 * quotient at the heap before.  The genus found is the same whatever they
 * cover; only the search is longer. */
#define NIM_AFTER 3
#define NIM_BEFORE 7
#define HEAP_POLLS 4000000ULL
#define NIM_SIZE_FACTOR 16

/* Heaps of a mixed game: nim heaps *1..*nims at indices nim0+1..nim0+nims,
 * heap h of the game at index h + off. */
typedef struct MixGame {
    const HeapGame *game;
    uint32_t off, nim0, nims;
} MixGame;

typedef struct Level {
    MixGame mix;
    HeapGame hg;
    Quotient *q;    /* NULL: not built */
    uint32_t maxh;  /* game heaps 0..maxh covered */
    unsigned c;     /* nim heaps *1..*c covered */
    /* gam[y * GENUS_LEN + k]: γk of the positions of element y, the least
       m <= c with y * *2^k * *m in P, or -1 (k = 0 only when c < 2) */
    signed char *gam;
    uint32_t *mh;   /* mh[h * |Q| + y]: y times game heap h, h <= maxh */
} Level;

struct MqGenus {
    const Quotient *q;
    const HeapGame *game;
    Level a, b;
    GenusCache *gc;
};

static CgtStatus mix_options(void *ctx, uint32_t n, HeapOptions *out, CgtError *err)
{
    const MixGame *m = ctx;
    heapopts_clear(out);
    if (n > m->nim0 && n <= m->nim0 + m->nims) {
        /* *j: the options *0 (nothing) .. *(j-1) */
        heapopts_add(out, NULL, 0);
        for (uint32_t h = m->nim0 + 1; h < n; h++)
            heapopts_add(out, &h, 1);
        return CGT_OK;
    }
    if (n < m->off)
        return CGT_OK; /* index 0 of the nim-first game */
    HeapOptions o;
    heapopts_init(&o);
    CgtStatus st = m->game->options(m->game->ctx, n - m->off, &o, err);
    uint32_t *parts = NULL;
    for (size_t j = 0; j < o.count && st == CGT_OK; j++) {
        size_t k = o.start[j + 1] - o.start[j];
        parts = xrealloc(parts, (k ? k : 1) * sizeof *parts);
        for (size_t i = 0; i < k; i++)
            parts[i] = o.parts[o.start[j] + i] + m->off;
        heapopts_add(out, parts, k);
    }
    free(parts);
    heapopts_free(&o);
    return st;
}

static bool stopped(void)
{
    return cgt_interrupt_flag || cgt_run_limit_reached();
}

/* Extend eng heap by heap to `to`, each heap within HEAP_POLLS polls;
 * returns the last heap completed (CGT_OK) or an interrupt / run limit. */
static CgtStatus extend_budgeted(MqEngine *eng, uint32_t to, CgtError *err)
{
    for (uint32_t h = mq_heaps_done(eng) + 1; h <= to; h++) {
        CgtPollBudget saved = cgt_poll_budget_push(HEAP_POLLS);
        CgtError e2;
        cgt_error_clear(&e2);
        CgtStatus st = mq_extend_to(eng, h, &e2);
        cgt_poll_budget_pop(saved);
        if (st != CGT_OK) {
            if (stopped()) {
                *err = e2;
                return st;
            }
            break;
        }
    }
    return CGT_OK;
}

/* Build a level of `heaps` heap indices of its mixed game; certify it and
 * read its tables.  A level that does not certify is left unbuilt. */
static CgtStatus build_level(Level *L, const Quotient *q, uint32_t heaps, CgtError *err)
{
    MqLimits lim = {.max_size = NIM_SIZE_FACTOR * quotient_size(q) + 64, .max_trial = 0};
    L->hg = (HeapGame){&L->mix, mix_options, L->mix.game->max_parts, -1, L->mix.game->name};
    MqEngine *eng = mq_new(&L->hg, &lim);
    CgtStatus st = extend_budgeted(eng, heaps, err);
    if (st != CGT_OK) {
        mq_free(eng);
        return st;
    }
    uint32_t done = mq_heaps_done(eng);
    Quotient *lq = mq_quotient(eng, NULL, 0, err);
    mq_free(eng);
    cgt_error_clear(err);
    if (!lq)
        return CGT_OK;
    MqCertInfo ci;
    CgtError e3;
    cgt_error_clear(&e3);
    CgtStatus cs = mq_certify(lq, &L->hg, 0, &ci, &e3);
    if (cs != CGT_OK || !ci.labelling_ok || !ci.reduced_ok || !ci.generated_ok) {
        quotient_free(lq);
        if (cs != CGT_OK && stopped()) {
            *err = e3;
            return cs;
        }
        return CGT_OK;
    }
    const MixGame *m = &L->mix;
    /* what the completed heaps cover */
    uint32_t nims = done > m->nim0 ? done - m->nim0 : 0;
    L->c = nims < m->nims ? nims : m->nims;
    if (m->off == 0)
        L->maxh = done < m->nim0 ? done : m->nim0;
    else if (done >= m->off)
        L->maxh = done - m->off;
    else {
        quotient_free(lq);
        return CGT_OK; /* no game heap: nothing to answer */
    }
    L->q = lq;
    uint32_t size = quotient_size(lq);
    int *val = xmalloc(size * sizeof *val);
    for (uint32_t y = 0; y < size; y++) {
        val[y] = -1;
        for (unsigned j = 0; j <= L->c && val[y] < 0; j++)
            if (quotient_is_p(lq, j ? quotient_mul_heap(lq, y, m->nim0 + j) : y))
                val[y] = (int)j;
    }
    L->gam = xmalloc((size_t)size * GENUS_LEN * sizeof *L->gam);
    for (uint32_t y = 0; y < size; y++) {
        uint32_t z = y;
        for (unsigned k = 0; k < GENUS_LEN; k++) {
            L->gam[(size_t)y * GENUS_LEN + k] = (signed char)(k == 0 || L->c >= 2 ? val[z] : -1);
            if (L->c >= 2)
                z = quotient_mul_heap(lq, z, m->nim0 + 2);
        }
    }
    free(val);
    L->mh = xmalloc(((size_t)L->maxh + 1) * size * sizeof *L->mh);
    for (uint32_t h = 0; h <= L->maxh; h++)
        for (uint32_t y = 0; y < size; y++)
            L->mh[(size_t)h * size + y] = quotient_mul_heap(lq, y, h + m->off);
    return CGT_OK;
}

static void level_free(Level *L)
{
    if (L->q)
        quotient_free(L->q);
    free(L->gam);
    free(L->mh);
}

/* The γk of pos that level L answers into out[k] where it is still -1:
 * one product y of the heaps' images, then a row of L->gam. */
static void level_known(const Level *L, const uint32_t *pos, size_t len, int32_t *out)
{
    if (!L->q || (len && pos[len - 1] > L->maxh))
        return;
    uint32_t y = 0, size = quotient_size(L->q);
    for (size_t i = 0; i < len; i++)
        y = L->mh[(size_t)pos[i] * size + y];
    const signed char *g = L->gam + (size_t)y * GENUS_LEN;
    for (unsigned k = 0; k < GENUS_LEN; k++)
        if (out[k] < 0)
            out[k] = g[k];
}

static void known(void *ctx, const uint32_t *pos, size_t len, int32_t *out)
{
    const MqGenus *mg = ctx;
    for (unsigned k = 0; k < GENUS_LEN; k++)
        out[k] = -1;
    level_known(&mg->b, pos, len, out);
    for (unsigned k = 0; k < GENUS_LEN; k++)
        if (out[k] < 0) {
            level_known(&mg->a, pos, len, out);
            break;
        }
}

MqGenus *mq_genus_new(const Quotient *q, const HeapGame *game, CgtError *err)
{
    MqGenus *mg = xcalloc(1, sizeof *mg);
    mg->q = q;
    mg->game = game;
    uint32_t n = quotient_max_heap(q);
    mg->a.mix = (MixGame){game, 0, n, NIM_AFTER};
    mg->b.mix = (MixGame){game, NIM_BEFORE + 1, 0, NIM_BEFORE};
    if (build_level(&mg->a, q, n + NIM_AFTER, err) != CGT_OK ||
        build_level(&mg->b, q, NIM_BEFORE + 1 + n, err) != CGT_OK) {
        mq_genus_free(mg);
        return NULL;
    }
    mg->gc = genus_new(game);
    genus_set_limit(mg->gc, 0);
    genus_set_known(mg->gc, known, mg);
    return mg;
}

void mq_genus_cover(const MqGenus *mg, unsigned *c, unsigned *cb, uint32_t *mb)
{
    *c = mg->a.q ? mg->a.c : 0;
    *cb = mg->b.q ? mg->b.c : 0;
    *mb = mg->b.q ? mg->b.maxh : 0;
}

CgtStatus mq_genus_least(MqGenus *mg, uint32_t x, size_t max_positions, char **out,
                         size_t *searched, CgtError *err)
{
    *out = NULL;
    uint32_t n = quotient_max_heap(mg->q);
    uint32_t *w = xmalloc((n + 1) * sizeof *w);
    quotient_least_game(mg->q, x, w);
    size_t k = 0;
    for (uint32_t h = 0; h <= n; h++)
        k += w[h];
    uint32_t *heaps = xmalloc((k ? k : 1) * sizeof *heaps);
    k = 0;
    for (uint32_t h = 0; h <= n; h++)
        for (uint32_t i = 0; i < w[h]; i++)
            heaps[k++] = h;
    free(w);
    genus_set_call_limit(mg->gc, max_positions);
    size_t before = genus_cache_size(mg->gc);
    Genus g;
    CgtStatus st = genus_position(mg->gc, heaps, k, &g, err);
    free(heaps);
    if (searched)
        *searched = genus_cache_size(mg->gc) - before;
    if (st == CGT_OK)
        *out = genus_format(&g);
    return st;
}

size_t mq_genus_cache(const MqGenus *mg)
{
    return genus_cache_size(mg->gc);
}

void mq_genus_forget(MqGenus *mg)
{
    genus_free(mg->gc);
    mg->gc = genus_new(mg->game);
    genus_set_limit(mg->gc, 0);
    genus_set_known(mg->gc, known, mg);
}

void mq_genus_free(MqGenus *mg)
{
    if (!mg)
        return;
    if (mg->gc)
        genus_free(mg->gc);
    level_free(&mg->a);
    level_free(&mg->b);
    free(mg);
}
