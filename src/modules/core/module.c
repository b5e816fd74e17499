/* The core module's record: its builtins, in the order of
 * builtins_core.def, and its result printers. */
#include "modules/core/module.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/core/builtins_core.def"
#undef BUILTIN
};

const Module cgt_module_core = {
    .name = "core",
    .title = "Core functions",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
};
