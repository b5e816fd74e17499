/* The one heap-size rule of the language (docs/games.md §7 "Heap sizes",
 * docs/language.md "Heaps"): a heap is any non-negative integer (GMP).  A
 * statement that tabulates per-heap data takes heaps below
 * GRUNDY_TABLE_BOUND, with one shared error past it; the searches
 * (outcome, genus, moves) are bounded by their work budget in positions,
 * checked before a heap's options are generated; the Grundy value of a
 * heap past the bound comes from a proved period, proved on demand with
 * the default limit when `period` has not run. */
#ifndef CGT_RUNTIME_HEAPS_H
#define CGT_RUNTIME_HEAPS_H
#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "runtime/gameobj.h"

/* The default position budget of the outcome search (its `positions`
 * option) and the most options `moves` lists. */
#define HEAP_POSITIONS_DEFAULT 20000000
/* The largest heap bound of a misère quotient (`quotient q = G to N`): its
 * construction is heap by heap, each against every smaller one. */
#define HEAP_QUOTIENT_MAX 100000

/* v as a heap into z (initialised by the caller): any integer >= 0, else
 * an error ("a heap size must be a non-negative integer"). */
bool heap_read(Call *c, const Value *v, Loc loc, mpz_t z);
/* z as an index when it is below GRUNDY_TABLE_BOUND. */
bool heap_index(const mpz_t z, uint64_t *out);
/* Record the shared error for a heap past the table bound; hint NULL for
 * the default one. */
void heap_beyond(Call *c, Loc loc, const mpz_t z, const char *hint);
/* The hint of a search given a heap past the bound. */
extern const char heap_search_hint[];
/* v as a heap that can be tabulated (below GRUNDY_TABLE_BOUND), else an
 * error (the shared one past the bound). */
bool heap_tabulated(Call *c, const Value *v, Loc loc, uint32_t *out);
/* Whether heap n of rs has at most `budget` options (ruleset_options_bound)
 * and, for a search that `tabulates` per-heap data (outcome, genus), is
 * below `budget`; when not, why[] says so in a sentence fragment. */
bool heap_within_budget(const Ruleset *rs, uint64_t n, uint64_t budget, bool tabulates,
                        char *why, size_t whylen);

/* Search a period of g up to `limit` heaps unless one is proved already
 * (the search `period` and `table` run). */
bool game_ensure_period(Call *c, GameObj *g, uint64_t limit);
/* Whether g has a proved pure period. */
bool game_period_proved(const GameObj *g);
/* G(z) of heap game g for any heap z: from the table, from a proved
 * period, by extending the table (below the bound), or else by proving a
 * period on demand with the default limit; an error when none applies. */
bool heap_grundy(Call *c, GameObj *g, const mpz_t z, Loc loc, uint32_t *v);

#endif
