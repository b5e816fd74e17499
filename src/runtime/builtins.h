/* Prototypes of every builtin function named in builtins.def. */
#ifndef CGT_RUNTIME_BUILTINS_H
#define CGT_RUNTIME_BUILTINS_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out, mod) Value *f(Call *c);
#include "runtime/builtins.def"
#undef BUILTIN

#endif
