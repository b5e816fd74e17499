/* Internal: building Quotient snapshots from pretensions (mqquot.c) and
 * the periodicity test shared with the engine.  Not a public API. */
#ifndef CGT_ALGEBRA_MQQUOT_H
#define CGT_ALGEBRA_MQQUOT_H
#include "lib/misere/misere.h"
#include "lib/misere/mqint.h"

/* Snapshot of pretension q (borrowed) with the expansion list. */
Quotient *mqquot_build(const MqPret *q, const uint32_t *exp_heap, const uint32_t *exp_size,
                       uint32_t nexp, const char *const *names, int nnames, CgtError *err);
/* Fill the transition sets of Q from lists t built on the same pretension. */
void mqquot_set_trans(Quotient *Q, const MqTr *t);
/* Number of generators regeneration (MISERE.md §4) chooses for q. */
int mqquot_count_gens(const MqPret *q);
/* Periodicity criterion of MISERE.md §5 on phi[0..heaps-1]. */
MqPeriod mq_period_of(const uint32_t *phi, uint32_t heaps, int max_parts, int max_take);

#endif
