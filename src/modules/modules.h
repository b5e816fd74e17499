/* The modules of the language, in the order `help` lists them.  The
 * program passes this list to interp_new (src/runtime/interp.h); the
 * runtime itself names no module (docs/architecture.md). */
#ifndef CGT_MODULES_MODULES_H
#define CGT_MODULES_MODULES_H
#include "runtime/interp.h"

extern const Module *const cgt_modules[];

#endif
