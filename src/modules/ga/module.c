/* The ga module's record: its builtins, in the order of builtins_ga.def,
 * and its result printer. */
#include "modules/ga/module.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/ga/builtins_ga.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.kind = "ga", .text = ga_text},
};

const Module cgt_module_ga = {
    .name = "ga",
    .title = "Genetic algorithms",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
    .stats = true,
};
