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
#include "lib/misere/mqmix.h"
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

typedef struct Level {
    MqMix *mix;       /* the game's heaps and nim heaps (src/lib/misere/mqmix.h) */
    size_t game, nim; /* their parts */
    Quotient *q;      /* NULL: not built */
    uint32_t maxh;    /* game heaps 0..maxh covered */
    unsigned c;       /* nim heaps *1..*c covered */
    /* gam[y * GENUS_LEN + k]: γk of the positions of element y, the least
       m <= c with y * *2^k * *m in P, or -1 (all -1 past k = 0 when c < 2) */
    signed char *gam;
    uint32_t *mh; /* mh[h * |Q| + y]: y times game heap h, h <= maxh */
} Level;

struct MqGenus {
    const Quotient *q;
    const HeapGame *game;
    Level a, b;
    GenusCache *gc;
};

/* The mixed game of heaps 1..n of `game` and nim heaps *1..*nims, in that
 * order or (nim_first) the other: the nim heap *j is a heap whose options
 * are the empty game and the nim heaps *1..*(j-1). */
static void level_init(Level *L, const HeapGame *game, uint32_t n, uint32_t nims, bool nim_first)
{
    uint32_t *start = xmalloc((nims + 1) * sizeof *start);
    uint32_t *opts = xmalloc(((size_t)nims * (nims + 1) / 2 + 1) * sizeof *opts);
    size_t ne = 0;
    start[0] = 0;
    for (uint32_t j = 1; j <= nims; j++) {
        for (uint32_t i = 0; i < j; i++)
            opts[ne++] = i;
        start[j] = (uint32_t)ne;
    }
    MqMixPart g = {game, n, NULL, NULL}, m = {NULL, nims, start, opts};
    MqMixPart parts[2] = {nim_first ? m : g, nim_first ? g : m};
    L->mix = mqmix_new(parts, 2, game->name);
    L->game = nim_first ? 1 : 0;
    L->nim = nim_first ? 0 : 1;
    free(start);
    free(opts);
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

/* How many heaps of part i the first `done` heap indices of mix cover. */
static uint32_t covered(const MqMix *mix, size_t i, uint32_t done)
{
    uint32_t first = mqmix_index(mix, i, 1);
    if (mqmix_part_size(mix, i) == 0 || done < first)
        return 0;
    uint32_t k = done - first + 1;
    return k < mqmix_part_size(mix, i) ? k : mqmix_part_size(mix, i);
}

/* Build a level as far as its heaps close; certify it and read its
 * tables.  A level that does not certify is left unbuilt. */
static CgtStatus build_level(Level *L, const Quotient *q, CgtError *err)
{
    MqLimits lim = {.max_size = NIM_SIZE_FACTOR * quotient_size(q) + 64, .max_trial = 0};
    const HeapGame *hg = mqmix_heapgame(L->mix);
    MqEngine *eng = mq_new(hg, &lim);
    CgtStatus st = extend_budgeted(eng, mqmix_top(L->mix), err);
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
    CgtStatus cs = mq_certify(lq, hg, 0, &ci, &e3);
    if (cs != CGT_OK || !ci.labelling_ok || !ci.reduced_ok || !ci.generated_ok) {
        quotient_free(lq);
        if (cs != CGT_OK && stopped()) {
            *err = e3;
            return cs;
        }
        return CGT_OK;
    }
    /* what the completed heaps cover */
    L->c = covered(L->mix, L->nim, done);
    L->maxh = covered(L->mix, L->game, done);
    L->q = lq;
    uint32_t size = quotient_size(lq);
    int *val = xmalloc(size * sizeof *val);
    for (uint32_t y = 0; y < size; y++) {
        val[y] = -1;
        for (unsigned j = 0; j <= L->c && val[y] < 0; j++)
            if (quotient_is_p(lq,
                              j ? quotient_mul_heap(lq, y, mqmix_index(L->mix, L->nim, j)) : y))
                val[y] = (int)j;
    }
    L->gam = xmalloc((size_t)size * GENUS_LEN * sizeof *L->gam);
    for (uint32_t y = 0; y < size; y++) {
        uint32_t z = y;
        for (unsigned k = 0; k < GENUS_LEN; k++) {
            L->gam[(size_t)y * GENUS_LEN + k] = (signed char)(k == 0 || L->c >= 2 ? val[z] : -1);
            if (L->c >= 2)
                z = quotient_mul_heap(lq, z, mqmix_index(L->mix, L->nim, 2));
        }
    }
    free(val);
    L->mh = xmalloc(((size_t)L->maxh + 1) * size * sizeof *L->mh);
    for (uint32_t h = 0; h <= L->maxh; h++)
        for (uint32_t y = 0; y < size; y++)
            L->mh[(size_t)h * size + y] = quotient_mul_heap(lq, y,
                                                            mqmix_index(L->mix, L->game, h));
    return CGT_OK;
}

static void level_free(Level *L)
{
    mqmix_free(L->mix);
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
    level_init(&mg->a, game, n, NIM_AFTER, false);
    level_init(&mg->b, game, n, NIM_BEFORE, true);
    if (build_level(&mg->a, q, err) != CGT_OK || build_level(&mg->b, q, err) != CGT_OK) {
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
