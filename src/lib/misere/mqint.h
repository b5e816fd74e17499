/* Internal types of the misère-quotient engine (src/lib/misere/misere.c, mqcore.c,
 * mqcert.c): explicit pretensions stored as heap-image action tables, their
 * transition lists, and the searches of docs/misere.md ("The searches").
 * Not a public API. */
#ifndef CGT_ALGEBRA_MQINT_H
#define CGT_ALGEBRA_MQINT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/misere/misere.h"
#include "lib/util/error.h"

/* A pretension (Q, P, phi) for heaps 0..nh-1.  Elements 0..n-1, identity 0,
 * every element reachable from 0 by heap images.  Heap h acts through the
 * table act[hl[h]] (x -> x*phi(h)); hl[h] = -1 for heaps without options
 * (they map to the identity).  Distinct letters have distinct images.
 * pred/predh is the tree of least games (docs/misere.md "The searches"):
 * lexLeast(x) = lexLeast(pred[x]) + heap predh[x] for x != 0. */
typedef struct MqPret {
    uint32_t n;
    uint32_t nh;
    int32_t *hl;
    uint32_t nl;
    uint32_t **act;
    uint64_t *p;
    uint32_t *pred;
    uint32_t *predh;
} MqPret;

/* Transition lists: for heap h the distinct images trans(h) are
 * elem[off[h] .. off[h+1]-1]; the product x*elem[i] is computed by applying
 * the letters let[loff[i] .. loff[i+1]-1] (a representative option). */
typedef struct MqTr {
    uint32_t nh;
    uint32_t *off;
    uint32_t *elem;
    uint32_t *loff;
    uint32_t *let;
} MqTr;

/* Per-element antichains of transition sets (TT lower bounds: the least
 * N-failure search of docs/misere.md "The searches"), stored sparsely.
 * Row x holds its sets' ascending elements in a pool and, per set, an
 * entry (its 64-bit signature, the OR of the set's bitset words, a cheap
 * subset filter; its size; the offset of its elements).  A row's entries
 * lie in nb buckets (nb a power of two), a set in the bucket of its
 * largest element, so a query for the sets inside T reads only the
 * buckets of T's elements (one watched element per set, like the
 * occurrence lists of subsumption checks in SAT preprocessing, N. Eén
 * and A. Biere, SAT 2005).  A
 * row may hold a set together with a subset of it until its next tidy
 * (sets that contain another are dropped when the row outgrows its
 * buckets); no query's answer depends on it. */
typedef struct MqAntiEnt {
    uint64_t sig;
    uint32_t k, off;
} MqAntiEnt;

typedef struct MqAntiBkt {
    MqAntiEnt *e;
    uint32_t n, cap;
} MqAntiBkt;

typedef struct MqAntiRow {
    MqAntiBkt *b;
    uint32_t nb, lg; /* nb = 2^lg buckets (nb = 0: no set yet) */
    uint32_t nrec;
    uint32_t *el;
    uint32_t nel, capel;
} MqAntiRow;

typedef struct MqAnti {
    uint32_t n;     /* elements */
    uint32_t words; /* words of a bitset over the elements */
    MqAntiRow *row;
    size_t total;   /* sets held (with those a tidy will drop) */
    uint32_t *stamp; /* scratch: buckets read by the current query */
    uint32_t nstamp, gen;
} MqAnti;

/* Options of one heap in a compact form (src/lib/misere/mqopts.c): runs
 * of options with the same number k of parts, each option the previous
 * one plus a step, the steps repeating with a period p.  A run is the
 * words len, k, p, the first option's k parts and p steps of k words
 * (added modulo 2^32; p = 0 when len = 1).  A take-and-break heap's
 * options come in a few such runs (the options that leave a and n - t - a
 * for a = 1, 2, ..., interleaved over the t that may be taken), so the
 * lists of heaps 0..n take O(n) words instead of O(n^2); the order of the
 * options is the game's. */
typedef struct MqHeapOpts {
    size_t count; /* options */
    size_t nw;    /* words of w */
    uint32_t *w;
} MqHeapOpts;

/* Options of heaps 0..nh-1 (owned by the engine or a checker), compact;
 * tmp receives a heap's options from the game before they are packed. */
typedef struct MqOpts {
    uint32_t nh;
    MqHeapOpts *o;
    HeapOptions tmp;
    bool has_tmp;
} MqOpts;

/* Runs of more parts than MQ_RUN_MAXK are single options (read in place);
 * steps repeat with a period of at most MQ_RUN_MAXP. */
#define MQ_RUN_MAXK 4
#define MQ_RUN_MAXP 8

/* Reads a heap's options in order:
 *     MqOptIt it; mqopt_begin(&it, ho);
 *     while ((parts = mqopt_next(&it, &k))) ...   (k parts, ascending) */
typedef struct MqOptIt {
    const uint32_t *w, *end, *steps, *step;
    uint32_t len, i, k, p, j;
    uint32_t buf[MQ_RUN_MAXK];
} MqOptIt;

static inline void mqopt_begin(MqOptIt *it, const MqHeapOpts *ho)
{
    it->w = ho->w;
    it->end = ho->w + ho->nw;
    it->len = it->i = it->k = it->p = it->j = 0;
    it->steps = it->step = NULL;
}

static inline const uint32_t *mqopt_next(MqOptIt *it, uint32_t *k)
{
    if (it->i == it->len) {
        if (it->w == it->end)
            return NULL;
        it->len = it->w[0];
        it->k = it->w[1];
        it->p = it->w[2];
        it->i = 1;
        *k = it->k;
        const uint32_t *first = it->w + 3;
        it->w = first + (size_t)it->k * (1 + it->p);
        if (it->len == 1)
            return first;
        it->steps = it->step = first + it->k;
        it->j = 0;
        for (uint32_t q = 0; q < it->k; q++)
            it->buf[q] = first[q];
        return it->buf;
    }
    it->i++;
    *k = it->k;
    for (uint32_t q = 0; q < it->k; q++)
        it->buf[q] += it->step[q];
    if (++it->j == it->p) {
        it->j = 0;
        it->step = it->steps;
    } else {
        it->step += it->k;
    }
    return it->buf;
}

static inline bool mq_bit(const uint64_t *b, uint32_t i)
{
    return (b[i >> 6] >> (i & 63)) & 1;
}

static inline uint32_t mq_fold(const MqPret *q, const MqTr *t, uint32_t i, uint32_t x)
{
    for (uint32_t k = t->loff[i]; k < t->loff[i + 1]; k++)
        x = q->act[t->let[k]][x];
    return x;
}

void mqpret_free(MqPret *q);
MqPret *mqpret_copy(const MqPret *q);
/* Element phi(G) of an exponent vector g[0..nh-1]. */
uint32_t mqpret_eval(const MqPret *q, const uint32_t *g);
/* Least game of x as an exponent vector written to g[0..nh-1]. */
void mqpret_least(const MqPret *q, uint32_t x, uint32_t *g);
/* Recompute pred/predh by search 1a. */
void mqpret_least_tree(MqPret *q);

CgtStatus mqopts_extend(MqOpts *o, const HeapGame *g, uint32_t nh, CgtError *err);
void mqopts_free(MqOpts *o);

void mqtr_build(MqTr *t, const MqPret *q, const MqOpts *o);
void mqtr_free(MqTr *t);

void mqanti_init(MqAnti *a, uint32_t n);
void mqanti_free(MqAnti *a);
/* Deep copy (dst uninitialised); the pools are compacted. */
void mqanti_copy(MqAnti *dst, const MqAnti *src);
/* dst (uninitialised, n elements) = src with every element x renamed
 * emb[x] (emb injective on the elements that occur in src). */
void mqanti_map(MqAnti *dst, const MqAnti *src, const uint32_t *emb, uint32_t n);
/* True when some set of x is a subset of T. */
bool mqanti_covered(MqAnti *a, uint32_t x, const uint64_t *T);

/* Word order comparison of exponent vectors of length nh (docs/misere.md). */
int mq_cmp_games(const uint32_t *a, const uint32_t *b, uint32_t nh);

/* Least P-failure (1b): returns true and writes the game to g. */
bool mq_least_pfail(const MqPret *q, const MqTr *t, uint32_t *g);
/* The same, polling (a trial may have 10^5 elements): CGT_OK and *found,
 * or the poll's error. */
CgtStatus mq_least_pfail_polled(const MqPret *q, const MqTr *t, uint32_t *g, bool *found,
                                CgtError *err);
/* Least N-failure (1c) below `max` (NULL = unbounded).  Fills `anti` (which
 * must be freshly initialised for q->n) with the TT lower bounds.  Returns
 * CGT_OK and *found; g receives the failure.  *complete tells whether the
 * search ran to the end (no failure, no bound hit). */
CgtStatus mq_least_nfail(const MqPret *q, const MqTr *t, const uint32_t *max, MqAnti *anti,
                         bool *found, uint32_t *g, bool *complete, CgtError *err);
/* The same, unbounded, when `anti` already holds the antichains that a
 * complete search of q without its top heap (heap nh-1) leaves: the walk
 * (top heap outermost) then starts at the first position that holds the
 * top heap, and ends exactly as mq_least_nfail from an empty `anti` would
 * (the part skipped finds no failure and adds nothing else; the order of
 * a row decides no result).  A top heap without options, or a bound `max`
 * without the top heap, falls back to the whole search. */
/* The same when `anti` holds the antichains that a complete search of q
 * without its heaps from..nh-1 leaves: the walk starts at the first
 * position that holds one of them and ends exactly as mq_least_nfail from
 * an empty `anti` would.  Without such a heap with options, or with a
 * bound `max` that holds none of them, or from = 0, it falls back to the
 * whole search.  mq_least_nfail_top is from = nh-1. */
CgtStatus mq_least_nfail_from(const MqPret *q, const MqTr *t, const uint32_t *max, MqAnti *anti,
                              uint32_t from, bool *found, uint32_t *g, bool *complete,
                              CgtError *err);
CgtStatus mq_least_nfail_top(const MqPret *q, const MqTr *t, const uint32_t *max, MqAnti *anti,
                             bool *found, uint32_t *g, bool *complete, CgtError *err);

/* A trial monoid: explicit base R (act tables for heaps not in the cyclic
 * set) plus one cyclic component per heap in `cyc` (index/period).  Marks
 * P (1d), reduces (automaton minimisation) and returns the new pretension
 * of heaps 0..nh-1.  `base_hl` maps heaps to letters of base (-1 = identity
 * or no options), overridden for heaps with cyc_index >= 0. */
typedef struct MqTrial {
    uint32_t nh;
    uint32_t base_n;
    uint32_t base_nl;
    uint32_t **base_act; /* borrowed */
    const int32_t *base_hl;
    const int32_t *cyc_index; /* [nh], -1 = not cyclic */
    const int32_t *cyc_period;
    /* optional [nh]: for a cyclic heap with cyc_lift[h] != 0 and a base
     * letter, phi(h) = (base image, generator) instead of (1, generator) */
    const uint8_t *cyc_lift;
    /* optional: a game (nh exponents) whose label must be want_p; if the
     * marked trial labels it otherwise, mq_trial_build returns CGT_OK with
     * *out = NULL before the (costly) reduction */
    const uint32_t *check_game;
    bool want_p;
} MqTrial;

CgtStatus mq_trial_build(const MqTrial *tr, const MqOpts *o, uint64_t max_trial, MqPret **out,
                         CgtError *err);

/* Submonoid generated by the images of heaps with keep[h] true; returns
 * its explicit tables (new numbering, identity 0) via out_n/out_act/out_hl
 * (hl of non-kept heaps -1). */
void mq_submonoid(const MqPret *q, const bool *keep, uint32_t *out_n, uint32_t *out_nl,
                  uint32_t ***out_act, int32_t **out_hl);

/* Minimise the automaton (elements, letters act, accepting p): returns the
 * class of every element, classes numbered by least element index; the
 * count is returned. */
uint32_t mq_minimise(uint32_t n, uint32_t nl, uint32_t *const *act, const uint64_t *p,
                     uint32_t *cls);

/* The engine (src/lib/misere/misere.c; checkpoints and state tables in
 * src/lib/misere/mqstate.c). */
struct MqEngine {
    const HeapGame *game;
    char *name;
    MqLimits lim;
    MqRecal recal;
    bool track_bound; /* compute MqStats.bound_* during expansions */
    unsigned threads; /* for the independent pieces of a heap (mq_set_threads) */
    MqFailureHook hook;
    void *hook_ctx;
    bool stop; /* set by mq_request_stop from inside the hook */
    MqOpts opts;
    MqPret *q;
    MqAnti tt;
    bool tt_valid;
    uint32_t tt_nh; /* tt (when valid) is complete for the search of q's heaps 0..tt_nh-1 */
    uint32_t nexp, capexp;
    uint32_t *exp_heap, *exp_size;
    MqStats stats;
    uint64_t *px;   /* cached rows {z : xz in P} of q (mex compatibility), or NULL */
    uint32_t *ord;  /* cached least-game-tree order of q, or NULL */
};

/* Replace the pretension (steals q); cached data of the old one is dropped. */
void mq_engine_set_pret(MqEngine *e, MqPret *q);
/* Record that expanding heap h gave |Q| = size.  The engine's own record
 * is read only by the unit tests, as a cross-check of the history a
 * Quotient derives from its data (mqquot.c). */
void mq_engine_add_expansion(MqEngine *e, uint32_t h, uint32_t size);
size_t mq_engine_expansions(const MqEngine *e, const uint32_t **heaps, const uint32_t **sizes);
/* Periodicity criterion (docs/misere.md "Periodicity") on phi[0..heaps-1],
 * used by the engine and by quotient_periodicity (mqquot.c). */
MqPeriod mq_period_of(const uint32_t *phi, uint32_t heaps, int max_parts, int max_take);

#endif
