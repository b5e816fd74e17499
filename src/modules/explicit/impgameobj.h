/* The `impgame` value: an explicit impartial game (a node of the one
 * hash-consed store of src/lib/explicit/impgame.h), and the evaluator's hooks for
 * game literals (`*n`, `*`, `{G, H, ...}`), sums, misère equality and heaps
 * of a ruleset called as functions (`dk(10)`).  docs/language.md
 * "Explicit games". */
#ifndef CGT_RUNTIME_IMPGAMEOBJ_H
#define CGT_RUNTIME_IMPGAMEOBJ_H
#include "lib/explicit/impgame.h"
#include "runtime/interp.h"

extern const ObjType impgame_type;

/* The store (created on first use). */
IgStore *impgame_store(void);
/* Free the store; every impgame value must be gone (interp_free). */
void impgame_store_release(void);

Value *impgame_value(IgId g);
/* The game of v: an impgame, or the integer 0 (the empty game).  Records
 * a type error at loc (naming `what`) and returns false otherwise. */
bool impgame_of(Interp *I, const Value *v, Loc loc, const char *what, IgId *out);
bool impgame_is(const Value *v);

/* AST_STAR and AST_GAME nodes. */
Value *impgame_eval_star(Interp *I, const AstNode *e);
Value *impgame_eval_literal(Interp *I, const AstNode *e);
/* a OP b when one of them is an impgame (+, ==, !=). */
Value *impgame_binop(Interp *I, int op, const Value *a, const Value *b, Loc loc, int eq_tok,
                     int ne_tok);
/* `G(n)` for a heap game value G: heap n as an explicit game. */
Value *impgame_heap(Interp *I, const Value *game, const Value *n, Loc loc);

/* The explicit-game forms of `outcome G` and `genus G` (bi_games.c). */
Value *impgame_outcome(Call *c, IgId g);
Value *impgame_genus(Call *c, IgId g);

#endif
