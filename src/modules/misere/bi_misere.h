/* The functions of src/modules/misere/bi_misere.c that other files call:
 * the certificate of a quotient value (src/modules/io/bi_load.c certifies
 * a loaded quotient), and `outcome q [heaps]` and `elements q`, the
 * quotient forms of those builtins (src/modules/misere/bi_overload.c). */
#ifndef CGT_MODULES_BI_MISERE_H
#define CGT_MODULES_BI_MISERE_H
#include "modules/misere/quotobj.h"
#include "runtime/interp.h"

/* Run the certificate over o->q (unless o->cert_skip) and set
 * o->certified, o->cert_note and o->period (the policy of mq_verdict,
 * src/lib/misere/mqrun.h). */
void quot_certify(QuotObj *o);

/* `outcome q [heaps]` and `elements q`. */
Value *quotient_outcome_stmt(Call *c, const Value *qv, const Value *pos, Loc loc);
Value *quotient_elements(Call *c, const Value *v);

/* monoid(q): the quotient's presentation with `with P` and `with phi`, a
 * `semigroup` value (src/modules/misere/bi_mqalg.c; computed once and kept
 * by the quotient).  An infinite quotient is an error at loc. */
Value *quot_semigroup(Interp *I, const Value *qv, Loc loc);

/* `outcome G [...]` through quotients (src/modules/misere/bi_mqoutcome.c):
 * remember a certified quotient of the script for it (a reference is
 * kept until the run ends), and release what it keeps. */
void quot_remember(Value *qv);

/* Mixed and explicit-set quotients (src/modules/misere/bi_mqmix.c): the
 * heap game of the list of games `list` (heap games, each with the bound
 * `to`, an integer or a list of one per game; or explicit games, the
 * closure of the set, without a bound) into o->mix, o->explicit_set,
 * o->ids, o->labels, o->nids; false with an error recorded. */
bool quot_mix_make(Interp *I, const Value *list, Loc loc, const Value *to, Loc to_loc,
                   QuotObj *o);
/* The heap indices of a position of a mixed quotient (a list of lists of
 * heaps, one per game) or of an explicit-set one (a list of games of the
 * closure): *out owned by the caller; false with an error recorded. */
bool quot_mix_position(Call *c, const QuotObj *o, const Value *pos, Loc loc, uint32_t **out,
                       size_t *count);
void misere_release(void);

#endif
