/* The mnk module (m,n,k-games): the prototypes of
 * the builtins of builtins_mnk.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_MNK_MODULE_H
#define CGT_MODULES_MNK_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/mnk/builtins_mnk.def"
#undef BUILTIN

void mnk_text(const Call *c, const Value *r, StrBuf *b);
void mnk_stopped_text(const Call *c, const Value *r, StrBuf *b);

extern const Module cgt_module_mnk;

#endif
