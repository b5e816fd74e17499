/* The explicit module's record: its builtins, in the order of
 * builtins_impgame.def, and its result printers. */
#include "modules/explicit/module.h"
#include "modules/explicit/impgameobj.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/explicit/builtins_impgame.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.kind = "canonical_table", .text = impgame_table_text},
    {.kind = "born", .text = impgame_born_text},
};

const Module cgt_module_explicit = {
    .name = "explicit",
    .title = "Explicit games and misere canonical forms",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
    .stats = true,
    .release = impgame_store_release,
    .literal = impgame_literal,
    .apply = impgame_apply,
};
