/* Explicit finite commutative monoids built from a finished commutative
 * rewriting system (kb.h): elements numbered in normal-form order (the
 * identity is 0), generator action tables, an optional full product table,
 * idempotents, maximal subgroups (Clifford & Preston, "The Algebraic Theory
 * of Semigroups" I, §2.1; for commutative monoids the H-class of e is the
 * group of units of eM) with their abelian invariants, and the bipartite
 * quotient by a P-portion (Plambeck & Siegel, "Misère quotients for
 * impartial games", JCTA 115 (2008), §3–§4). */
#ifndef CGT_ALGEBRA_MONOID_H
#define CGT_ALGEBRA_MONOID_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/rewrite/kb.h"
#include "lib/util/error.h"

#define MONOID_NONE SIZE_MAX

typedef struct FiniteMonoid {
    int ngens;
    char **gen_names;  /* owned copies */
    size_t order;
    uint32_t *elems;   /* element i: elems + i*ngens (its normal form / word) */
    uint32_t *gen_act; /* gen_act[i*ngens + g] = index of element i times generator g */
    uint32_t *mul;     /* order*order products, or NULL when order > mul_limit */
    size_t *hash;      /* internal: open addressing over elems */
    size_t hash_cap;
} FiniteMonoid;

/* Build the monoid of a confluent, finite system.  Elements are the normal
 * forms sorted ascending in the system's order.  The full product table is
 * built when order <= mul_limit (0 = 2048).  Borrows sys.  Errors:
 * CGT_ERR_DOMAIN if sys is not confluent or the monoid is infinite;
 * CGT_ERR_LIMIT when more than max_order (0 = 10^6) elements;
 * interrupts/timeouts from cgt_poll. */
CgtStatus monoid_from_system(const KbSystem *sys, size_t max_order, size_t mul_limit,
                             FiniteMonoid **out, CgtError *err);
void monoid_free(FiniteMonoid *m);

/* Index of the element whose stored word is exactly w, or MONOID_NONE. */
size_t monoid_find(const FiniteMonoid *m, const uint32_t *w);
/* Index of the element represented by any word w (multiplied out with the
 * generator tables; no rewriting needed). */
size_t monoid_eval(const FiniteMonoid *m, const uint32_t *w);
/* Product of elements a and b (table lookup, or a walk along b's word). */
size_t monoid_mul(const FiniteMonoid *m, size_t a, size_t b);

/* Idempotents e (e*e = e) in element order.  *out owned (free()). */
void monoid_idempotents(const FiniteMonoid *m, size_t **out, size_t *count);

/* The maximal subgroup at an idempotent: H_e = { x : x e = x and x^k = e
 * for some k >= 1 } (the units of eM; in a finite monoid x is a unit of eM
 * iff some power of x is e). */
typedef struct MonoidGroup {
    size_t idempotent;
    size_t order;
    size_t *elems;       /* owned, ascending element indices */
    size_t *elem_order;  /* owned: order of each element in the group */
    uint64_t *invariants; /* owned: invariant factors d1 | d2 | ... (all > 1) */
    size_t ninvariants;   /* 0 for the trivial group */
} MonoidGroup;

/* Compute H_e.  Errors: CGT_ERR_DOMAIN if e is not idempotent;
 * interrupts.  *out owned: monoid_group_free. */
CgtStatus monoid_maximal_subgroup(const FiniteMonoid *m, size_t e, MonoidGroup *out,
                                  CgtError *err);
void monoid_group_free(MonoidGroup *g);
/* "1", "C2", "C2 x C4", ... from the invariant factors.  Owned string. */
char *monoid_group_structure(const MonoidGroup *g);

/* Bipartite quotient of (M, P) (Plambeck–Siegel §3): x ~ y iff for every
 * z in M, xz in P <=> yz in P.  Computed by partition refinement (Moore's
 * automaton minimisation, generators as letters), so its cost is
 * O(order * ngens * rounds). */
typedef struct MonoidBipartite {
    size_t nclasses;
    size_t *cls;       /* owned: class of each element; classes numbered by
                        * their smallest element, in element order */
    size_t *rep;       /* owned: smallest element of each class */
    bool *class_in_p;  /* owned */
    bool reduced;      /* nclasses == order */
    /* necessary conditions for (M, P) to be a misère quotient; see
     * docs/kb.md §6 */
    bool identity_not_in_p; /* 1 is not in P: the empty game is an N-position */
    bool star_candidate;    /* some a != 1 with a^2 = 1, a in P, aP disjoint from P */
    bool could_be_misere;   /* identity_not_in_p && reduced */
    size_t star;            /* the first such a, or MONOID_NONE */
} MonoidBipartite;

/* Compute the bipartite quotient of m by the set in_p (order booleans).
 * *out owned: monoid_bipartite_free.  Errors: interrupts. */
CgtStatus monoid_bipartite(const FiniteMonoid *m, const bool *in_p, MonoidBipartite *out,
                           CgtError *err);
void monoid_bipartite_free(MonoidBipartite *b);
/* The quotient monoid M/~ as a FiniteMonoid whose elements are the class
 * representatives (their words are those of m).  Owned result. */
FiniteMonoid *monoid_quotient(const FiniteMonoid *m, const MonoidBipartite *b);

#endif
