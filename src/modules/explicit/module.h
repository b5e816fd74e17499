/* The explicit module (explicit impartial games and misere canonical forms): the prototypes of
 * the builtins of builtins_impgame.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_EXPLICIT_MODULE_H
#define CGT_MODULES_EXPLICIT_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/explicit/builtins_impgame.def"
#undef BUILTIN

void impgame_born_text(const Call *c, const Value *r, StrBuf *b);
void impgame_table_text(const Call *c, const Value *t, StrBuf *b);

extern const Module cgt_module_explicit;

#endif
