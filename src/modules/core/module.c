/* The core module's record: its builtins, in the order of
 * builtins_core.def, and its result printers. */
#include "modules/core/module.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/core/builtins_core.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.kind = "help", .text = core_help_text},
};

const Module cgt_module_core = {
    .name = "core",
    .title = "Core functions",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
};
