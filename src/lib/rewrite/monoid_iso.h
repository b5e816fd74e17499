/* Isomorphism of finite monoids with a marked subset (a bipartite monoid
 * (M, P) in the sense of Plambeck & Siegel, "Misère quotients for
 * impartial games", JCTA 115 (2008), §3: a monoid with its P-portion),
 * given by full multiplication tables.
 *
 * An isomorphism is a bijection f with f(xy) = f(x)f(y) (hence
 * f(1) = 1) and x in P <=> f(x) in P.  The search (monoid_iso.c) compares
 * invariants first (order, |P|, number of idempotents, the multiset of
 * element signatures: index and period of the powers of x, x in P, x
 * idempotent, |xM|, |{z : xz in P}|), then backtracks over the images of
 * a small generating set of the first monoid, extending the partial map
 * over the submonoid generated so far after every choice, and checks a
 * complete map against the whole tables before returning it. */
#ifndef CGT_REWRITE_MONOID_ISO_H
#define CGT_REWRITE_MONOID_ISO_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

/* Tables above this order are refused (two order x order tables). */
#define MONOID_ISO_MAX_ORDER 8192u

typedef struct MonoidTab {
    size_t order;        /* elements 0..order-1 */
    size_t identity;     /* index of the identity */
    const uint32_t *mul; /* mul[a*order + b] = a*b */
    const bool *mark;    /* order flags (the P-portion), or NULL for none */
} MonoidTab;

typedef struct MonoidIso {
    bool isomorphic;
    uint32_t *map;    /* owned, when isomorphic: element x of a -> map[x] of b */
    char why[240];    /* when not: the first invariant that differs, or that
                       * the search found no map */
    uint64_t nodes;   /* images tried by the backtracking search */
    size_t ngens;     /* size of the generating set searched over */
} MonoidIso;

/* Decide whether a and b are isomorphic as monoids with marked subsets.
 * max_nodes (0 = 50,000,000) caps the images tried: past it
 * CGT_ERR_LIMIT.  Other errors: CGT_ERR_DOMAIN for an order above
 * MONOID_ISO_MAX_ORDER or a table entry out of range; interrupts and time
 * limits (cgt_poll).  *out owned: monoid_iso_free. */
CgtStatus monoid_tab_isomorphism(const MonoidTab *a, const MonoidTab *b, uint64_t max_nodes,
                                 MonoidIso *out, CgtError *err);
void monoid_iso_free(MonoidIso *r);

/* Whether map (a.order entries) is an isomorphism from a onto b: a
 * bijection, f(xy) = f(x)f(y) for every pair, marks preserved both ways.
 * Written from the definition alone, for tests and for the search's
 * final check. */
bool monoid_tab_is_isomorphism(const MonoidTab *a, const MonoidTab *b, const uint32_t *map);

#endif
