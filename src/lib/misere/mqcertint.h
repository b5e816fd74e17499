/* Internal to the certificate (src/lib/misere/mqcert.c, src/lib/misere/mqcert_close.c):
 * the tables the closures read.  Built only from a claimed monoid's
 * generator actions, its P set, phi and the game's options (no code of the
 * construction), docs/misere.md "Certificate". */
#ifndef CGT_ALGEBRA_MQCERTINT_H
#define CGT_ALGEBRA_MQCERTINT_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/util/error.h"

/* One distinct heap transition: heaps with the same image phi(h) and the
 * same set of option images trans(h) act identically on every pair, so
 * the closures take each such class once. */
typedef struct CertMove {
    const uint32_t *act;   /* x -> x*phi(h); NULL when phi(h) is the identity */
    uint32_t ntr;          /* distinct option images */
    uint32_t *poff;        /* representative k: pacts[poff[k] .. poff[k+1]-1] */
    const uint32_t **pacts;/* actions of its parts with non-identity image */
    uint32_t heap;         /* least heap of the class (for messages) */
} CertMove;

typedef struct CertTab {
    uint32_t n;            /* elements 0..n-1, identity 0 */
    const uint64_t *p;     /* P as a bitset of n bits */
    int ng;
    const uint32_t *gact;  /* gact[g*n + x] = x * generator g */
    const uint32_t *par, *pgen; /* BFS tree over generators: x = par[x] * pgen[x] */
    const uint32_t *order; /* elements in BFS order (order[0] = 0) */
    uint32_t nmoves;
    const CertMove *mv;
    /* If not NULL (tests): combos[x] gets bit 2e+a for every position G
     * with phi(G) = x, e = [G has a move], a = [G has a move to P]. */
    uint8_t *combos;
} CertTab;

/* Closure over (element, profile of the transition set, non-empty) from
 * (1, {}, no) (needs the monoid checks to have passed).  *ok false if some
 * state is labelled wrongly; *count = states.  CGT_ERR_LIMIT above
 * max_states.  *moves = distinct heap states used.  When the closure
 * grows past a few times |Q| states it switches to the summary method
 * (*method 2, *count = its n x n passes; else *method 1); force 1 or 2
 * runs only that method (tests), -1 chooses. */
CgtStatus mqcert_profiles(const CertTab *t, uint64_t max_states, int force, uint64_t *count,
                          uint32_t *moves, int *method, bool *ok, CgtError *err);
/* Closure over (element, transition set) pairs (the first form of the
 * certificate, for quotients too large for n x n profile bits). */
CgtStatus mqcert_pairs(const CertTab *t, uint64_t max_pairs, uint64_t *count, bool *ok,
                       CgtError *err);

/* The certificate of a claim with the method forced (-1 = as mq_certify
 * chooses, 0 = pairs, 1 = state closure, 2 = summary; for tests that
 * compare the methods; combos as in CertTab, n bytes, or NULL). */
struct MqClaim;
struct MqCertInfo;
struct HeapGame;
CgtStatus mqcert_claim_method(const struct MqClaim *claim, const struct HeapGame *game,
                              int method, uint64_t max_pairs, uint8_t *combos,
                              struct MqCertInfo *info, CgtError *err);

#endif
