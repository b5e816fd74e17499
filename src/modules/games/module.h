/* The games module (heap games: declarations, Grundy values, periods, genus, outcomes, play): the prototypes of
 * the builtins of builtins_games.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_GAMES_MODULE_H
#define CGT_MODULES_GAMES_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/games/builtins_games.def"
#undef BUILTIN

void games_grundy_text(const Call *c, const Value *v, StrBuf *b);
void games_genus_text(const Call *c, const Value *r, StrBuf *b);
void games_outcome_text(const Call *c, const Value *r, StrBuf *b);
void games_moves_text(const Call *c, const Value *l, StrBuf *b);
void games_table_text(const Call *c, const Value *t, StrBuf *b);
void games_period_text(const Call *c, const Value *r, StrBuf *b);

extern const Module cgt_module_games;

#endif
