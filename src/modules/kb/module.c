/* The kb module's record: its builtins, in the order of
 * builtins_kb.def, and its result printers. */
#include "modules/kb/module.h"
#include "modules/kb/kbprint.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/kb/builtins_kb.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.kind = "kb", .text = kb_text},
    {.kind = "elements", .text = kb_infinite_text},
    {.kind = "idempotents", .text = kb_idempotents_text},
    {.kind = "multable", .text = kb_multable_text},
    {.kind = "bipartite", .text = kb_bipartite_text},
    {.kind = "confluence", .text = kb_confluence_text},
    {.kind = "structure", .text = kb_structure_text},
    {.builtin = "elements", .text = kb_elements_text},
    {.builtin = "reduce", .text = kb_reduce_text},
};

const Module cgt_module_kb = {
    .name = "kb",
    .title = "Presentations and Knuth-Bendix completion",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
    .stats = true,
};
