/* The mnk module's record: its builtins, in the order of
 * builtins_mnk.def, and its result printers. */
#include "modules/mnk/module.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/mnk/builtins_mnk.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.kind = "mnk", .text = mnk_text},
    {.kind = "mnk_stopped", .text = mnk_stopped_text},
};

const Module cgt_module_mnk = {
    .name = "mnk",
    .title = "m,n,k-games",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
    .stats = true,
};
