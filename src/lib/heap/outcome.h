/* Outcomes of multi-heap positions of any heap game (normal and misère
 * play) by memoised search over multisets of heaps (docs/games.md §4): zero
 * heaps dropped, sorted, interned.  Normal play uses Sprague-Grundy values
 * of single heaps (computed here from the option lists, independently of
 * games/grundy); misère play is searched directly.  Also winning moves, so
 * that claims can be refuted with the move that proves it. */
#ifndef CGT_GAMES_OUTCOME_H
#define CGT_GAMES_OUTCOME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/util/error.h"

typedef struct OutcomeCache OutcomeCache;

typedef enum { OUTCOME_P = 0, OUTCOME_N = 1 } Outcome;

/* A move of a position: heap `heap` (at index `index` of the canonical
 * position, i.e. sorted ascending without zeros) is replaced by option
 * number `option` of that heap (its index in the heap's canonical option
 * list), giving the canonical position result[0..nresult-1]. */
typedef struct OutcomeMove {
    size_t index;
    uint32_t heap;
    size_t option;
    uint32_t *result; /* owned by the move: outcome_move_free */
    size_t nresult;
} OutcomeMove;

/* New cache for the game hg (borrowed; must outlive the cache); owned by the
 * caller, free with outcome_free. */
OutcomeCache *outcome_new(const HeapGame *hg);
void outcome_free(OutcomeCache *c);
/* The default cap on positions. */
#define OUTCOME_LIMIT_DEFAULT 20000000
/* Cap on positions (0 = none; default OUTCOME_LIMIT_DEFAULT): the memoised
 * positions plus the options cached per heap; exceeding it is
 * CGT_ERR_LIMIT. */
void outcome_set_limit(OutcomeCache *c, size_t max_positions);

/* Options of a single heap n, canonical order, cached (borrowed: valid until
 * outcome_free).  Errors: those of hg->options. */
CgtStatus outcome_heap_options(OutcomeCache *c, uint32_t n, const HeapOptions **opts,
                               CgtError *err);

/* Normal / misère outcome of the position heaps[0..k-1] (any order, zeros
 * allowed).  Misère: a position with no move is N; otherwise P iff every
 * option is N.  Errors: CGT_ERR_LIMIT (position cap), CGT_ERR_INTERRUPTED /
 * CGT_ERR_LIMIT from cgt_poll, errors of hg->options. */
CgtStatus outcome_normal(OutcomeCache *c, const uint32_t *heaps, size_t k, Outcome *res,
                         CgtError *err);
CgtStatus outcome_misere(OutcomeCache *c, const uint32_t *heaps, size_t k, Outcome *res,
                         CgtError *err);

/* A winning move of heaps[0..k-1] in the given convention: an option that is
 * a P-position.  *found is false (and *mv untouched) for a P-position, and
 * for a misère N-position without moves (it wins by having none).  On
 * success with *found, the caller owns mv (outcome_move_free).  Errors as
 * for outcome_misere. */
CgtStatus outcome_winning_move(OutcomeCache *c, bool misere, const uint32_t *heaps, size_t k,
                               bool *found, OutcomeMove *mv, CgtError *err);
void outcome_move_free(OutcomeMove *mv);

#endif
