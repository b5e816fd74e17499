/* Knuth–Bendix completion for finitely presented (non-commutative) monoids:
 * string rewriting under shortlex (Knuth & Bendix 1970; Sims, "Computation
 * with finitely presented groups", ch. 2; Book & Otto, "String-Rewriting
 * Systems", §2.4).  Words are arrays of generator indices.  Shortlex with
 * generator order g0 < g1 < ...: the shorter word is smaller; words of the
 * same length compare letter by letter from the left. */
#ifndef CGT_ALGEBRA_NCKB_H
#define CGT_ALGEBRA_NCKB_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/rewrite/word.h"
#include "lib/util/error.h"

/* A non-commutative presentation.  Relation i: lhs = words + lhs_off[i]
 * (lhs_len[i] letters), rhs likewise.  All arrays owned. */
typedef struct NcPresentation {
    int ngens;
    char **gen_names;
    size_t nrels;
    uint32_t *words;
    size_t nwords, cap_words;
    size_t *lhs_off, *lhs_len, *rhs_off, *rhs_len;
    size_t cap_rels;
} NcPresentation;

/* New empty presentation on ngens generators named `names` (copied). */
NcPresentation *ncpres_new(int ngens, const char *const *names);
void ncpres_free(NcPresentation *p);
/* Append lhs = rhs (copied; lengths may be 0 for the identity). */
void ncpres_add_relation(NcPresentation *p, const uint32_t *lhs, size_t llen,
                         const uint32_t *rhs, size_t rlen);
/* The commutative presentation p read as a monoid presentation: each word
 * written in declaration order (x^2 z -> x x z), plus the commutation
 * relations g_j g_i = g_i g_j for i < j.  Owned result. */
NcPresentation *ncpres_from_commutative(const Presentation *p);

typedef struct NcLimits {
    size_t max_rules;   /* 0 = 200000 live rules */
    size_t max_lhs_len; /* 0 = no cap on the length of a left side */
} NcLimits;

/* A string rewriting system, rules lhs -> rhs with lhs > rhs in shortlex.
 * After a finished nckb_complete it is the unique reduced confluent
 * system for shortlex: no lhs contains another lhs as a factor, every rhs
 * is irreducible, rules sorted by lhs in shortlex.  Read-only for callers;
 * rule i: lhs = words + lhs_off[i], lhs_len[i] letters; rhs likewise. */
typedef struct NcSystem {
    int ngens;
    char **gen_names;
    int *rank; /* rank[g]: position of generator g in the order */
    size_t nrules;
    uint32_t *words;
    size_t *lhs_off, *lhs_len, *rhs_off, *rhs_len;
    bool confluent; /* false: stopped by a limit, partial system */
    /* internal: rule ids by last letter of lhs */
    size_t *bucket_start, *bucket_ids;
} NcSystem;

/* Complete `p` under shortlex with generator order gen_order (NULL =
 * declaration order; else a permutation listing generators smallest
 * first).  On CGT_OK *out is owned (nckb_free).  On CGT_ERR_LIMIT
 * (max_rules, max_lhs_len, --timeout) or CGT_ERR_INTERRUPTED, *out is the
 * partial system with confluent = false ("not confluent yet").  Other
 * errors leave *out NULL.  Deterministic. */
CgtStatus nckb_complete(const NcPresentation *p, const int *gen_order, const NcLimits *lim,
                        NcSystem **out, CgtError *err);
/* ncpres_from_commutative(p) then nckb_complete in declaration order. */
CgtStatus nckb_complete_commutative(const Presentation *p, const NcLimits *lim, NcSystem **out,
                                    CgtError *err);
void nckb_free(NcSystem *s);

/* A sign that a partial system will never complete: the longest run of
 * rules, consecutive in the system, each of whose left sides is the one
 * before it with one more copy of a letter inserted next to that letter
 * (ba^n ba, ba^(n+1) ba, ...), the way a family that grows without end
 * shows itself (the braid relation aba = bab under shortlex gives
 * ba^n ba -> aba^2 b^(n-1) for every n, tests/golden/ux/kb_max_rules.cgt).
 * A heuristic for messages, not a proof.  Returns the run's length (0 or
 * 1: none) and its first rule in *first. */
size_t nckb_growing_family(const NcSystem *s, size_t *first);

/* Normal form of w[0..len-1]: *out owned (may be NULL when *outlen is 0).
 * Errors: CGT_ERR_LIMIT if rewriting exceeds max_steps (0 = no cap; only a
 * partial or hand-made system can fail to terminate). */
CgtStatus nckb_reduce(const NcSystem *s, const uint32_t *w, size_t len, size_t max_steps,
                      uint32_t **out, size_t *outlen, CgtError *err);

/* The element words together hold at most this many letters (64 MB). */
#define NCKB_MAX_ELEMENT_LETTERS 16000000u

/* Enumerate the irreducible words in shortlex order (the elements, for a
 * confluent system), breadth first by length.  On CGT_OK: *count words,
 * word k = words + offs[k], lens[k] letters (all owned arrays).  Stops
 * when a length has no irreducible word (so the monoid is finite);
 * CGT_ERR_LIMIT "more than N elements (the monoid may be infinite)" when
 * the count passes max_elems (0 = 10^6) or the letters pass
 * NCKB_MAX_ELEMENT_LETTERS. */
CgtStatus nckb_elements(const NcSystem *s, size_t max_elems, uint32_t **words, size_t **offs,
                        size_t **lens, size_t *count, CgtError *err);

/* A word in the one notation of word.h: letters side by side, a run of
 * k >= 2 equal letters as name^k (`ba^48b`), identity "1".  Owned. */
char *nckb_format_word(const NcSystem *s, const uint32_t *w, size_t len);
/* Rule i as "ab^2 -> ba" (word.h).  Owned string. */
char *nckb_format_rule(const NcSystem *s, size_t i);
/* Whole system, one rule per line.  Owned string. */
char *nckb_format_rules(const NcSystem *s);

/* The relations of p taken as rewriting rules exactly as written, lhs ->
 * rhs, in relation order, with no completion and no orientation (the
 * generator order for comparisons is declaration order).  For checking a
 * rule list someone wrote down (nckb_check).  confluent = false.  Owned
 * result (nckb_free).  Errors: CGT_ERR_DOMAIN for an out-of-range
 * generator or an empty left side (a rule 1 -> w can never stop). */
CgtStatus nckb_system_from_rules(const NcPresentation *p, NcSystem **out, CgtError *err);

/* Result of nckb_check. */
typedef struct NcCheck {
    bool locally_confluent; /* every critical pair resolves */
    bool terminated;        /* every rewrite stopped within the step cap */
    bool interreduced;      /* no lhs is a factor of another, every rhs irreducible */
    size_t pairs_checked;
    /* first critical pair that does not resolve (when !locally_confluent):
     * the rules, the overlap word and its two different normal forms */
    size_t bad_i, bad_j;
    uint32_t *bad_word, *bad_nf1, *bad_nf2;
    size_t bad_word_len, bad_nf1_len, bad_nf2_len;
    /* pairs (i, j): lhs_j is a factor of lhs_i, i != j; rules with a
     * reducible rhs */
    size_t *div_pairs;
    size_t ndiv;
    size_t *reducible_rhs;
    size_t nred;
} NcCheck;

/* Check the rules of s as given (Knuth & Bendix 1970; Book & Otto,
 * "String-Rewriting Systems", Thm 2.3.1): every critical pair -- a proper
 * overlap, where a suffix of lhs_i is a prefix of lhs_j, and an inclusion,
 * where lhs_j is a factor of lhs_i -- is rewritten both ways and the two
 * results reduced to normal form (each reduction capped at max_steps, 0 =
 * 100000) and compared.  Local confluence gives confluence only for a
 * terminating system (Newman's lemma); `terminated` says whether every
 * reduction stopped within the cap (evidence, not a proof).  *out is
 * owned: free with nckb_check_free.  Errors: CGT_ERR_INTERRUPTED /
 * CGT_ERR_LIMIT from cgt_poll (then *out holds nothing to free). */
CgtStatus nckb_check(const NcSystem *s, size_t max_steps, NcCheck *out, CgtError *err);
void nckb_check_free(NcCheck *c);

#endif
