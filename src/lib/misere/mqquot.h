/* Internal: building Quotient snapshots from pretensions (mqquot.c).  Not a
 * public API. */
#ifndef CGT_ALGEBRA_MQQUOT_H
#define CGT_ALGEBRA_MQQUOT_H
#include "lib/misere/misere.h"
#include "lib/misere/mqint.h"

/* The certified data of pretension q (borrowed): the actions of the
 * generators regeneration chooses, phi(0..nh-1) and P, in q's numbering.
 * The arrays are owned by c (mqquot_claim_free). */
void mqquot_claim_of_pret(const MqPret *q, MqClaim *c);
void mqquot_claim_free(MqClaim *c);
/* Derived tables of a Quotient, for rebuilding an engine from it
 * (mqstate.c): the elements in the order of their least games, the
 * least-game tree, and the letters (distinct heap images other than 1:
 * hl[h] is the letter of heap h or -1, hflat[l*n + x] = x * letter l). */
const uint32_t *mqquot_least_order(const Quotient *Q);
const uint32_t *mqquot_pred(const Quotient *Q, const uint32_t **predh);
uint32_t mqquot_letters(const Quotient *Q, const int32_t **hl, const uint32_t **hflat);
/* Number of generators regeneration (docs/misere.md "Snapshots and
 * presentation") chooses for q. */
int mqquot_count_gens(const MqPret *q);

#endif
