/* The one interface through which the algebra (src/lib/misere/) sees a heap game: "the options
 * of a single heap n, as multisets of smaller heaps" (docs/architecture.md).
 * src/lib/heap/ruleset.c implements it for every heap ruleset; the misère-quotient engine
 * (src/lib/misere/misere.c) and any other algebra code only call it.
 *
 * An option list is a flat array of parts: option i consists of the heaps
 * parts[start[i] .. start[i+1]-1], each in 1..n-1, sorted ascending, zero
 * heaps dropped (an option that leaves nothing is the empty multiset).
 * Duplicate options may be removed by the producer but consumers must not
 * rely on it. */
#ifndef CGT_ALGEBRA_HEAPGAME_H
#define CGT_ALGEBRA_HEAPGAME_H
#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

typedef struct HeapOptions {
    size_t count;     /* number of options */
    size_t *start;    /* count+1 offsets into parts */
    uint32_t *parts;  /* heap sizes */
    size_t cap_opts;  /* allocated entries of start (internal) */
    size_t cap_parts; /* allocated entries of parts (internal) */
} HeapOptions;

void heapopts_init(HeapOptions *o);
void heapopts_clear(HeapOptions *o); /* empty, keep memory */
void heapopts_free(HeapOptions *o);
/* Append one option with `k` parts (copied; sorted and zero-stripped here). */
void heapopts_add(HeapOptions *o, const uint32_t *parts, size_t k);
/* Make room for `opts` more options with `parts` more parts in all
 * (exactly, when it grows), so that a producer that knows its count
 * allocates once. */
void heapopts_reserve(HeapOptions *o, size_t opts, size_t parts);
/* Room for one more option of `k` parts, doubling (heapopts_push). */
void heapopts_grow(HeapOptions *o, size_t k);
/* Append one option as given: its `k` parts nonzero and ascending. For
 * producers that emit options already in canonical order without
 * duplicates (then no heapopts_canonicalize is needed). Inline: a
 * generator calls it once per option. */
static inline void heapopts_push(HeapOptions *o, const uint32_t *parts, size_t k)
{
    size_t base = o->start[o->count];
    if (o->count + 2 > o->cap_opts || base + k > o->cap_parts)
        heapopts_grow(o, k);
    for (size_t i = 0; i < k; i++)
        o->parts[base + i] = parts[i];
    o->count++;
    o->start[o->count] = base + k;
}
/* Sort options and remove duplicates (canonical order for output). */
void heapopts_canonicalize(HeapOptions *o);

typedef struct HeapGame {
    void *ctx;
    /* Fill `out` (already initialised; cleared by the callee) with the
     * options of one heap of size n >= 0.  Returns CGT_OK or an error
     * (filled into err), e.g. CGT_ERR_LIMIT for a size cap. */
    CgtStatus (*options)(void *ctx, uint32_t n, HeapOptions *out, CgtError *err);
    /* Largest number of heaps a single move can leave (1 for subtraction
     * games, 2 for octal codes with a "2 heaps" digit, 3 for hex digit 8+);
     * used by periodicity bounds (docs/games.md §3, docs/misere.md
     * "One heap at a time"). */
    int max_parts;
    /* Largest number of tokens a move removes (the number of code digits),
     * or -1 when unbounded (then periodicity cannot be proved). */
    int max_take;
    /* Human-readable name, e.g. "0.07" (borrowed; lives as long as ctx). */
    const char *name;
} HeapGame;

#endif
