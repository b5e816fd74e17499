/* The `game` value: a heap ruleset or one of the GP paper's games, with the
 * caches that statements on it share (Grundy table, proved period,
 * outcome and genus searches).  Caches are created on first use and live as
 * long as the game value. */
#ifndef CGT_RUNTIME_GAMEOBJ_H
#define CGT_RUNTIME_GAMEOBJ_H
#include <stdbool.h>

#include "lib/bitgames/bitgames.h"
#include "lib/heap/genus.h"
#include "lib/grundy/grundy.h"
#include "lib/heap/outcome.h"
#include "lib/heap/ruleset.h"
#include "runtime/interp.h"

typedef enum { GAME_HEAP, GAME_GA1, GAME_GA2, GAME_CM, GAME_ARC_KAYLES, GAME_CRAM } GameKind;

typedef struct GameObj {
    GameKind kind;
    char *name;          /* canonical name, e.g. "0.07", "ga2" */
    Ruleset *rs;         /* GAME_HEAP: owned */
    GrundyTable *gt;     /* lazily created */
    GrundyPeriod period; /* valid when period_done */
    bool period_done;
    OutcomeCache *oc;
    GenusCache *gc;
    BitMemo *memo;       /* bit-string and board games */
} GameObj;

extern const ObjType game_type;

/* Wrap a new game (steals rs when kind == GAME_HEAP). */
Value *game_value(GameKind kind, const char *name, Ruleset *rs);
/* Lazily created caches (never NULL for GAME_HEAP). */
GrundyTable *game_grundy(GameObj *g);
OutcomeCache *game_outcome(GameObj *g);
GenusCache *game_genus(GameObj *g);
/* The game of an argument that the dispatcher checked to be a game. */
GameObj *game_of(const Value *v);
/* Require a heap game; records an error and returns NULL otherwise. */
GameObj *game_heap_or_error(Interp *I, const Value *v, Loc loc, const char *what);

/* The GP paper's games (src/modules/games/bi_paper.c): declaration and Grundy values
 * of a position given as a bit string, run lengths, a pair of strings, an
 * edge list or a board. */
Value *bi_game_paper(Call *c, const char *kind, const AstNode *const *args, size_t nargs);
Value *bi_game_paper_grundy(Call *c, GameObj *g, Value *pos);

#endif
