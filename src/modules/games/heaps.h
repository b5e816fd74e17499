/* The one heap-size rule of the language (docs/games.md §7 "Heap sizes",
 * docs/language.md "Heaps"): a heap is any non-negative integer (GMP).
 * The Grundy table holds heaps below GRUNDY_TABLE_BOUND (2^40); the
 * searches and option lists (outcome, genus, moves), whose heaps are
 * 32-bit (src/lib/heap/ruleset.h), take heaps below HEAP_SEARCH_BOUND and are
 * bounded by their work budget in positions, checked before a heap's
 * options are generated; past either bound there is one shared error.
 * The Grundy value of a heap past the table bound comes from a proved
 * period, proved on demand with the default limit when `period` has not
 * run. */
#ifndef CGT_RUNTIME_HEAPS_H
#define CGT_RUNTIME_HEAPS_H
#include <gmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "modules/games/gameobj.h"

/* The default position budget of the outcome search (its `positions`
 * option) and the most options `moves` lists. */
#define HEAP_POSITIONS_DEFAULT 20000000
/* The largest heap bound of a misère quotient (`quotient q = G to N`): its
 * construction is heap by heap, each against every smaller one. */
#define HEAP_QUOTIENT_MAX 100000

/* v as a heap into z (initialised by the caller): any integer >= 0, else
 * an error ("a heap size must be a non-negative integer"). */
bool heap_read(Call *c, const Value *v, Loc loc, mpz_t z);
/* The bound of the searches and option lists (heaps below it). */
#define HEAP_SEARCH_BOUND 4000000000ull
/* z as an index when it is below bound (GRUNDY_TABLE_BOUND or
 * HEAP_SEARCH_BOUND). */
bool heap_index(const mpz_t z, uint64_t bound, uint64_t *out);
/* Record the shared error for a heap past bound; hint NULL for the
 * default one. */
void heap_beyond(Call *c, Loc loc, const mpz_t z, uint64_t bound, const char *hint);
/* The hint of a search given a heap past the bound. */
extern const char heap_search_hint[];
/* v as a heap a search or option list takes (below HEAP_SEARCH_BOUND),
 * else an error (the shared one past the bound). */
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

/* A misère answer that another module found for `outcome G [...]` (the
 * misère module, through a quotient: docs/misere.md "Outcomes through the
 * quotient"), which then takes the place of the misère search. */
typedef struct OutcomeGiven {
    bool is_p;
    const char *by;      /* how it was found, e.g. "Q(34) of 0.07" */
    const char *element; /* the position's element of that quotient, or NULL */
    bool have_move;      /* a winning move when the position is N: */
    size_t move_index;   /* the index of the heap moved in, in the position */
    const uint32_t *into; /* what that heap became */
    size_t ninto;
} OutcomeGiven;
/* `outcome G [...]` with the misère outcome given (src/modules/games/bi_play.c);
 * the normal-play outcome as bi_outcome finds it. */
Value *games_outcome_given(Call *c, const OutcomeGiven *given);

/* How the script wrote argument i, for hints that quote code: the variable
 * name when it is one (`period a limit N;`), else "G" (a game's
 * description, such as 0.07, is no valid argument).  Caller frees. */
char *game_arg_code(Call *c, size_t i);

#endif
