/* The misere module's record: its builtins, in the order of
 * builtins_misere.def, and its result printers. */
#include "modules/misere/module.h"
#include "modules/kb/module.h"
#include "modules/misere/bi_misere.h"

static const Builtin builtins[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) {n, f, fl, sp, syn, doc, ex, out},
#include "modules/misere/builtins_misere.def"
#undef BUILTIN
};

static const ResultPrinter printers[] = {
    {.kind = "dawson", .text = misere_dawson_text},
    {.kind = "ptypes", .text = misere_ptypes_text},
    {.kind = "verify", .text = misere_verify_text},
    {.kind = "infinite_listing", .text = misere_infinite_listing_text},
    {.builtin = "quotient", .text = misere_quotient_text},
    {.builtin = "pretend", .text = misere_pretend_text},
    {.builtin = "elements", .text = misere_elements_text},
    {.builtin = "product", .text = misere_product_text},
    {.builtin = "isomorphic", .text = misere_isomorphic_text},
    /* reduce q "WORD": the presentations module's printer, on monoid(q) */
    {.builtin = "reduce", .text = kb_reduce_text},
};

const Module cgt_module_misere = {
    .name = "misere",
    .title = "Misere quotients",
    .builtins = builtins,
    .nbuiltins = sizeof builtins / sizeof builtins[0],
    .printers = printers,
    .nprinters = sizeof printers / sizeof printers[0],
    .stats = true,
    .release = misere_release,
};
