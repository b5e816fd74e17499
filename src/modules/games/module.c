/* The games module's record: its builtins, in the order of
 * builtins_games.def, and its result printers. */
#include "modules/games/module.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/games/builtins_games.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.builtin = "grundy", .text = games_grundy_text},
    {.builtin = "moves", .text = games_moves_text},
    {.kind = "period", .text = games_period_text},
    {.kind = "table", .text = games_table_text},
    {.kind = "genus", .text = games_genus_text},
    {.kind = "outcome", .text = games_outcome_text},
};

const Module cgt_module_games = {
    .name = "games",
    .title = "Heap games, Grundy values, periodicity, genus",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
    .stats = true,
};
