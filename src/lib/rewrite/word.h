/* Commutative words (exponent vectors) and commutative presentations,
 * shared by Knuth–Bendix completion (src/lib/rewrite/kb.c) and the misère-quotient
 * engine (src/lib/misere/misere.c), so that both print rewriting systems in one
 * notation.
 *
 * A word over g generators is an array of g uint32_t exponents.  Its one
 * text form (docs/kb.md §1), used by every module, is the paper's
 * (Plambeck–Siegel write x^2 z w with superscripts): the factors side by
 * side in generator order, a power k >= 2 as `^k`, no blanks: `x^2zw`;
 * the identity (the empty word) is `1`.  Juxtaposition reads back
 * unambiguously because generator names are prefix-free (wordparse.h).
 * A rewriting rule is `lhs -> rhs`, a relation `lhs = rhs`.  (Seed 004's
 * Figures 6–7 write `[x2,e]`; cgt no longer prints that form but still
 * reads its words.) */
#ifndef CGT_ALGEBRA_WORD_H
#define CGT_ALGEBRA_WORD_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Presentation {
    int ngens;
    char **gen_names; /* owned, ngens strings */
    size_t nrels;
    /* relation i: lhs = rels + (2*i)*ngens, rhs = rels + (2*i+1)*ngens */
    uint32_t *rels;   /* owned */
    size_t cap_rels;  /* internal */
} Presentation;

/* Owned copy of n generator names (an array with at least one slot; each
 * string copied), and its release.  Every presentation-like type uses
 * these. */
char **names_copy(int n, const char *const *names);
void names_free(char **names, int n);

/* Whether no name among names[0..n-1] is a prefix of another (equal names
 * count as prefixes), the condition under which words written side by side
 * read back (wordparse.h).  On a clash, *shorter and *longer (if not NULL)
 * receive the indices of the two names. */
bool names_prefix_free(const char *const *names, int n, int *shorter, int *longer);

/* New presentation on `ngens` generators named by `names` (copied). */
Presentation *pres_new(int ngens, const char *const *names);
void pres_free(Presentation *p);
/* Append the relation lhs = rhs (both copied). */
void pres_add_relation(Presentation *p, const uint32_t *lhs, const uint32_t *rhs);

/* Format a word as "x^2z" (identity "1").  Returns an owned string. */
char *word_format(const uint32_t *w, int ngens, char *const *names);

/* Append the factor name^exp (exp >= 1; `^exp` written when exp > 1) to
 * the growable string *buf of length *len and capacity *cap (NUL kept). */
void word_append_factor(char **buf, size_t *len, size_t *cap, const char *name, uint64_t exp);

/* A rewriting rule as text: "lhs -> rhs".  Steals lhs and rhs; returns an
 * owned string. */
char *rule_text(char *lhs, char *rhs);

/* A relation as text: "lhs = rhs".  Steals lhs and rhs; owned string. */
char *relation_text(char *lhs, char *rhs);

/* Rules 0..n-1 of a system, each formatted by fmt(sys, i) (owned strings),
 * one rule per line.  Owned. */
char *rules_text(const void *sys, size_t n, char *(*fmt)(const void *, size_t));

#endif
