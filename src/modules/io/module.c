/* The io module's record: its builtins, in the order of
 * builtins_io.def, and its result printers. */
#include "modules/io/module.h"
#include "modules/io/resultfile.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/io/builtins_io.def"
#undef BUILTIN
};

const Module cgt_module_io = {
    .name = "io",
    .title = "Saving, loading and exporting results",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .stats = true,
    .release = bi_load_release,
};
