/* Misère genus g^{γ0γ1γ2...} of heap positions (ONAG ch. 12; Winning Ways
 * ch. 13; docs/games.md §4) and misère nim values G^-, by memoised recursion
 * over the options of a position (genus is not additive in general, so a
 * multi-heap position is searched as a whole). */
#ifndef CGT_GAMES_GENUS_H
#define CGT_GAMES_GENUS_H
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/util/error.h"

/* Number of γ_k computed (k = 0..GENUS_LEN-1). */
#define GENUS_LEN 16

/* g = normal Grundy value; gamma[k] = misère nim value of G + k copies of
 * *2; `shown` = number of γ in the compressed notation: the γ_k with
 * k < j+2, where j is the least index from which γ alternates
 * (γ_k = γ_{k+2} for all k >= j, checked up to GENUS_LEN). */
typedef struct Genus {
    uint32_t g;
    uint32_t gamma[GENUS_LEN];
    unsigned shown;
} Genus;

typedef struct GenusCache GenusCache;

/* New cache for hg (borrowed; must outlive the cache); caller frees with
 * genus_free. */
GenusCache *genus_new(const HeapGame *hg);
void genus_free(GenusCache *gc);
/* The default cap on memoised positions. */
#define GENUS_LIMIT_DEFAULT 5000000
/* Cap on memoised positions (0 = none; default GENUS_LIMIT_DEFAULT). */
void genus_set_limit(GenusCache *gc, size_t max_positions);

/* Values known without search (a misère quotient's table, for example):
 * known(ctx, pos, len, out) sets out[k] (k < GENUS_LEN) to γk of the
 * position pos[0..len-1] (sorted, without heaps with no move and without
 * heaps that are *1 as games), or to -1 where it is to be searched.  With a
 * hook set, genus_position searches the γk only where the hook does not
 * answer, from the options' γk and γ(k-1) of the position, all the γk a
 * position lacks in one pass over its options, and takes g as the nim-sum
 * of the heaps' Grundy values; without one, it searches all of them
 * together.  Both give the same genus when the hook answers truly.  fn NULL
 * removes the hook; ctx is borrowed. */
typedef void (*GenusKnown)(void *ctx, const uint32_t *pos, size_t len, int32_t *out);
void genus_set_known(GenusCache *gc, GenusKnown fn, void *ctx);
/* Cap on the positions one genus_position call may add to the cache (0 =
 * none, the default); passing it is CGT_ERR_LIMIT like the total cap. */
void genus_set_call_limit(GenusCache *gc, size_t max_new);
/* Positions memoised so far (the cache's size). */
size_t genus_cache_size(const GenusCache *gc);

/* Genus of the position heaps[0..k-1] (any order, zeros allowed).  Errors:
 * CGT_ERR_LIMIT (position cap, or γ not alternating within GENUS_LEN
 * terms), CGT_ERR_INTERRUPTED, errors of hg->options. */
CgtStatus genus_position(GenusCache *gc, const uint32_t *heaps, size_t k, Genus *out,
                         CgtError *err);
/* Genus of one heap n. */
CgtStatus genus_heap(GenusCache *gc, uint32_t n, Genus *out, CgtError *err);

/* Compressed notation, new string owned by the caller: "3^1431"; when some
 * printed number is >= 10 the γ are separated by commas: "12^10,3,2". */
char *genus_format(const Genus *g);

#endif
