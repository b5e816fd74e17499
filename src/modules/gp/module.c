/* The gp module's record: its builtins, in the order of
 * builtins_gp.def, and its result printers. */
#include "modules/gp/module.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/gp/builtins_gp.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.kind = "gp", .text = gp_text},
};

const Module cgt_module_gp = {
    .name = "gp",
    .title = "Genetic programming and the games of the GP paper",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
    .stats = true,
};
