/* Knuth–Bendix completion for finitely presented commutative monoids:
 * Buchberger's algorithm for binomial ideals written for monoid rules
 * l -> r on exponent vectors (docs/kb.md §3; Buchberger 1965; Cox,
 * Little & O'Shea, "Ideals, Varieties, and Algorithms", ch. 2), plus the
 * uses of a finished system: normal forms, products, element enumeration,
 * finiteness, confluence and inter-reduction checks, formatting.
 *
 * Term orders (docs/kb.md §2).  The generator order lists the generators
 * smallest first ("x<z<w<v" = {x, z, w, v}); default: declaration order.
 *   KB_ORDER_SHORTLEX  total degree, then the words written out as sorted
 *                      strings (x..x z..z w..w v..v) compared letter by
 *                      letter (the string-rewriting shortlex of Sims); on
 *                      exponent vectors: at the smallest generator where
 *                      the exponents differ, the larger exponent is the
 *                      smaller word.  Default.
 *   KB_ORDER_DEGREVLEX total degree, then reverse lexicographic with the
 *                      largest generator as the most significant variable
 *                      (Cox–Little–O'Shea grevlex).  On commutative words
 *                      this is the same order as SHORTLEX (docs/kb.md).
 *   KB_ORDER_DEGLEX    total degree, then lex: at the largest generator
 *                      where the exponents differ, the larger exponent is
 *                      the larger word.
 *   KB_ORDER_LEX       pure lex (no degree): as the DEGLEX tie-break.
 *   KB_ORDER_WEIGHTED  weighted degree sum w_i e_i (weights >= 1), ties by
 *                      the LEX rule.
 * All are monomial well-orders, so completion terminates when the reduced
 * system is finite (every binomial ideal has one, by Dickson's lemma). */
#ifndef CGT_ALGEBRA_KB_H
#define CGT_ALGEBRA_KB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/rewrite/word.h"
#include "lib/util/error.h"

typedef enum {
    KB_ORDER_SHORTLEX = 0,
    KB_ORDER_DEGREVLEX,
    KB_ORDER_DEGLEX,
    KB_ORDER_LEX,
    KB_ORDER_WEIGHTED
} KbOrderKind;

typedef struct KbOrder {
    KbOrderKind kind;
    /* NULL = declaration order; else a permutation of 0..ngens-1 listing the
     * generators smallest first (gen_order[0] is the smallest). */
    const int *gen_order;
    /* KB_ORDER_WEIGHTED only: ngens weights >= 1, indexed by generator. */
    const uint32_t *weights;
} KbOrder;

typedef struct KbLimits {
    size_t max_rules; /* at most this many live rules; 0 = KB_DEFAULT_MAX_RULES */
} KbLimits;

#define KB_DEFAULT_MAX_RULES 200000u
/* Exponents above this make kb_* fail with CGT_ERR_LIMIT (no overflow). */
#define KB_MAX_EXP 0x3fffffffu

/* A commutative rewriting system: rules lhs -> rhs with lhs > rhs in the
 * order.  After a successful kb_complete it is the unique reduced confluent
 * system of the order: no lhs divides another, every rhs is irreducible,
 * rules sorted by lhs ascending in the order.  Fields are read-only for
 * callers. */
typedef struct KbSystem {
    int ngens;
    char **gen_names; /* owned copies */
    size_t nrules;
    uint32_t *rules;  /* rule i: lhs = rules + 2*i*ngens, rhs = lhs + ngens */
    bool confluent;   /* false: a limit stopped completion (partial system) */
    bool reduced;     /* inter-reduced (true after a finished kb_complete) */
    KbOrderKind kind;
    int *rank;        /* rank[g] = position of generator g in the order */
    int *perm;        /* perm[r] = generator of rank r (inverse of rank) */
    uint32_t *weights;
    uint64_t *masks;  /* internal: support signatures of the left sides */
} KbSystem;

/* Default order: shortlex in declaration order. */
KbOrder kb_order_default(void);

/* Compare words a, b (ngens exponents) under the order of `sys`:
 * negative, 0, positive as a <, =, > b. */
int kb_compare(const KbSystem *sys, const uint32_t *a, const uint32_t *b);

/* Complete the presentation `p` under `ord` (NULL = default) within
 * `lim` (NULL = defaults).  On CGT_OK *out is an owned reduced confluent
 * system (free with kb_free).  On CGT_ERR_LIMIT (rule cap, --timeout) or
 * CGT_ERR_INTERRUPTED, *out is still set to the partial system with
 * confluent = false ("not confluent yet") and err says why; the caller
 * owns it.  Other errors (bad order, too large exponents) leave *out NULL.
 * Borrows p and ord.  Deterministic. */
CgtStatus kb_complete(const Presentation *p, const KbOrder *ord, const KbLimits *lim,
                      KbSystem **out, CgtError *err);

/* A system holding the given rules as they are (lhs = rules[2i], rhs =
 * rules[2i+1], each ngens exponents; copied), for checking a rule list
 * without completing it.  Rules are not reoriented or sorted; confluent
 * and reduced are set false until kb_accept_check says otherwise.  The order
 * is used only by kb_compare. */
KbSystem *kb_system_from_rules(int ngens, const char *const *names, const KbOrder *ord,
                               const uint32_t *rules, size_t nrules);

void kb_free(KbSystem *sys);

/* Reduce w (ngens exponents) in place to its normal form.  Rewriting
 * stops with CGT_ERR_LIMIT after max_steps rule applications (0 = no cap;
 * a cap matters only for systems not known to terminate, see
 * kb_system_from_rules; uncapped rewriting still polls for Ctrl-C and
 * --timeout).  Exponents beyond KB_MAX_EXP: CGT_ERR_LIMIT.  A rule whose
 * left side is the identity: CGT_ERR_DOMAIN. */
CgtStatus kb_reduce(const KbSystem *sys, uint32_t *w, size_t max_steps, CgtError *err);

/* out = normal form of a*b.  out may alias a or b. */
CgtStatus kb_product(const KbSystem *sys, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     CgtError *err);

/* Whether the monoid is finite, from the left sides of a confluent system:
 * finite iff every generator has a pure power among the left sides
 * (docs/kb.md §4).  When infinite and `why` is not NULL, *why is an owned
 * sentence naming the first generator with no pure power. */
bool kb_is_finite(const KbSystem *sys, char **why);

/* Enumerate the irreducible words (the elements, for a confluent system)
 * sorted ascending in the order, so the identity comes first.  On CGT_OK
 * *elems is an owned array of *count words (count*ngens exponents).
 * Errors: CGT_ERR_DOMAIN when infinite (message says which generator),
 * CGT_ERR_LIMIT when more than max_elems (0 = 10^6) elements. */
CgtStatus kb_elements(const KbSystem *sys, size_t max_elems, uint32_t **elems, size_t *count,
                      CgtError *err);

/* Report of kb_check. */
typedef struct KbCheck {
    bool locally_confluent; /* every critical pair resolves */
    bool terminated;        /* all rewrites finished within the step cap */
    bool interreduced;      /* no lhs divisible by another lhs, rhs irreducible */
    size_t pairs_checked;
    /* first failing critical pair (valid when !locally_confluent): the two
     * rule indices and their different normal forms (owned, ngens each) */
    size_t bad_i, bad_j;
    uint32_t *bad_nf1, *bad_nf2;
    /* rules whose lhs is divisible by another rule's lhs: pairs (i, j)
     * meaning lhs_j divides lhs_i, i != j; and rules with reducible rhs */
    size_t *div_pairs;
    size_t ndiv;
    size_t *reducible_rhs;
    size_t nred;
} KbCheck;

/* Check the rules of sys as given: all critical pairs of left sides that
 * share a generator are rewritten to normal form (each rewrite capped at
 * max_steps, 0 = 100000) and compared; lists left sides divisible by other
 * left sides and reducible right sides.  Confluence follows from local
 * confluence only for a terminating system (Newman's lemma); `terminated`
 * says whether every rewrite stopped within the cap, which is evidence but
 * not a proof of termination.  *out is owned: free with kb_check_free.
 * Errors: CGT_ERR_INTERRUPTED / CGT_ERR_LIMIT from cgt_poll. */
CgtStatus kb_check(const KbSystem *sys, size_t max_steps, KbCheck *out, CgtError *err);
void kb_check_free(KbCheck *c);
/* After kb_check: mark sys confluent when every critical pair resolved and
 * every rewrite terminated (so that kb_elements / monoid_from_system accept
 * it; termination is then evidence, not proof, see kb_check), and reduced
 * when also inter-reduced.  Returns sys->confluent. */
bool kb_accept_check(KbSystem *sys, const KbCheck *c);

/* Format rule i as "x^2 -> 1" (word.h).  Owned string. */
char *kb_format_rule(const KbSystem *sys, size_t i);
/* All rules, one per line "x^2 -> 1\n...".  Owned string. */
char *kb_format_rules(const KbSystem *sys);

#endif
