/* The misere module's forms of builtins named by other modules (BI_OVERLOAD,
 * src/runtime/interp.h): `outcome q [...]` and `elements q` for a quotient. */
#include "modules/misere/module.h"
#include "modules/misere/bi_misere.h"

Value *bi_quotient_outcome(Call *c)
{
    if (c->nargs < 2 || !c->args[1])
        return rt_error(c->I, DIAG_TYPE, c->loc, "outcome of a quotient needs a position: %s",
                        c->bi->synopsis);
    return quotient_outcome_stmt(c, c->args[0], c->args[1], c->arg_locs[1]);
}

Value *bi_quotient_elements(Call *c)
{
    return quotient_elements(c, c->args[0]);
}
