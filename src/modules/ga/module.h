/* The ga module (a genetic algorithm whose fitness is a function of the
 * language): the prototypes of the builtins of builtins_ga.def and of the
 * module's result printer, and the module record the program registers
 * (src/modules/modules.c). */
#ifndef CGT_MODULES_GA_MODULE_H
#define CGT_MODULES_GA_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/ga/builtins_ga.def"
#undef BUILTIN

void ga_text(const Call *c, const Value *m, StrBuf *b);

extern const Module cgt_module_ga;

#endif
