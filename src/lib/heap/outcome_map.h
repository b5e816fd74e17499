/* Interning of heap positions (multisets of heap sizes, stored as sorted
 * arrays without zeros) to dense ids, shared by the outcome and genus
 * searches.  Internal to src/lib/heap/. */
#ifndef CGT_GAMES_OUTCOME_MAP_H
#define CGT_GAMES_OUTCOME_MAP_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct OutcomeMap OutcomeMap;

/* New empty map, owned by the caller (outcome_map_free). */
OutcomeMap *outcome_map_new(void);
void outcome_map_free(OutcomeMap *m);
/* Id of the position key[0..len-1] (must be canonical: sorted, no zeros),
 * inserting it (key copied) with the next dense id if new; *inserted says
 * which. */
uint32_t outcome_map_intern(OutcomeMap *m, const uint32_t *key, size_t len, bool *inserted);
/* Asks the processor to bring the slot of key[0..len-1] into its cache
 * (where the compiler offers a prefetch; else nothing), so that a search
 * that will intern several positions can overlap their memory accesses. */
void outcome_map_prefetch(const OutcomeMap *m, const uint32_t *key, size_t len);
/* Number of positions interned. */
size_t outcome_map_size(const OutcomeMap *m);

/* Canonical form of heaps[0..k-1] into out (capacity k): zeros dropped,
 * sorted ascending; returns the new length. */
size_t outcome_canon(const uint32_t *heaps, size_t k, uint32_t *out);

/* The position obtained from pos[0..len-1] (canonical) by replacing the
 * heap at index i by parts[0..np-1] (canonical): written canonically into
 * out (capacity len - 1 + np); returns its length. */
size_t outcome_replace(const uint32_t *pos, size_t len, size_t i, const uint32_t *parts,
                       size_t np, uint32_t *out);

#endif
