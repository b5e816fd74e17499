/* The core module (the core module: values, lists, strings, records, integers, help): the prototypes of
 * the builtins of builtins_core.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_CORE_MODULE_H
#define CGT_MODULES_CORE_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/core/builtins_core.def"
#undef BUILTIN

void core_help_text(const Call *c, const Value *r, StrBuf *s);

extern const Module cgt_module_core;

#endif
