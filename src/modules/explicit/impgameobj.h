/* The `impgame` value: an explicit impartial game (a node of the one
 * hash-consed store of src/lib/explicit/impgame.h), and the evaluator's hooks for
 * game literals (`*n`, `*`, `{G, H, ...}`), sums, misère equality and heaps
 * of a ruleset called as functions (`dk(10)`).  docs/language.md
 * "Explicit games". */
#ifndef CGT_MODULES_EXPLICIT_IMPGAMEOBJ_H
#define CGT_MODULES_EXPLICIT_IMPGAMEOBJ_H
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

/* The module's hooks (Module in src/runtime/interp.h): AST_STAR and
 * AST_GAME nodes, and `G(n)` for a heap game value G (heap n as an
 * explicit game). */
Value *impgame_literal(Interp *I, const AstNode *e);
Value *impgame_apply(Interp *I, const Value *f, const AstNode *call);

#endif
