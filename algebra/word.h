/* Commutative words (exponent vectors) and commutative presentations,
 * shared by Knuth–Bendix completion (algebra/kb.c) and the misère-quotient
 * engine (algebra/misere.c), so that both print rewriting systems in one
 * notation (seed 004, Figures 6–7: `[x2,e][z4,z2]`).
 *
 * A word over g generators is an array of g uint32_t exponents.  Text
 * forms: generators in declaration order, `x^2 z w` (exponent written with
 * ^ when > 1, factors separated by a space), identity `1`; the compact
 * "note" form writes `x2zw` and `e`. */
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

/* New presentation on `ngens` generators named by `names` (copied). */
Presentation *pres_new(int ngens, const char *const *names);
void pres_free(Presentation *p);
/* Append the relation lhs = rhs (both copied). */
void pres_add_relation(Presentation *p, const uint32_t *lhs, const uint32_t *rhs);

/* Format a word as "x^2 z" (style 0) or "x2z" (style 1, the note's
 * compact style; identity "e").  Identity in style 0 is "1".  Returns an
 * owned string. */
char *word_format(const uint32_t *w, int ngens, char *const *names, int style);

/* A rewriting rule as text: "[lhs,rhs]" (style 1, the note's) or
 * "lhs = rhs" (style 0).  Steals lhs and rhs; returns an owned string. */
char *rule_text(char *lhs, char *rhs, int style);

/* Rules 0..n-1 of a system, each formatted by fmt(sys, i, style) (owned
 * strings): style 1 concatenated, style 0 one rule per line.  Owned. */
char *rules_text(const void *sys, size_t n, char *(*fmt)(const void *, size_t, int), int style);

#endif
