/* The io module (saving, loading, writing, plotting and exporting results): the prototypes of
 * the builtins of builtins_io.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_IO_MODULE_H
#define CGT_MODULES_IO_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/io/builtins_io.def"
#undef BUILTIN

extern const Module cgt_module_io;

#endif
