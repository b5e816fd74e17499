/* The gp module (genetic programming of Grundy formulas): the prototypes of
 * the builtins of builtins_gp.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_GP_MODULE_H
#define CGT_MODULES_GP_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/gp/builtins_gp.def"
#undef BUILTIN

void gp_text(const Call *c, const Value *m, StrBuf *b);

extern const Module cgt_module_gp;

#endif
