/* The games of Huggan and Tennenhouse, "An investigation into the application
 * of genetic programming to combinatorial game theory" (arXiv 2021): ga1, ga2,
 * crossover-mutation (cm), arc kayles and cram.  Grundy values by memoised
 * search over the positions themselves, plus the heap forms of ga1 and ga2
 * (run lengths of the bit string).  See docs/gp.md for the corrected
 * statements of Proposition 2.3, Theorems 2.5 and 3.2 and Corollary 4.7.
 *
 * Bit strings are C strings of '0' and '1'; position 1 of the paper is
 * character 0.  All functions borrow their inputs; results are plain ints. */
#ifndef CGT_GAMES_BITGAMES_H
#define CGT_GAMES_BITGAMES_H
#include <stddef.h>
#include <stdint.h>

#include "lib/util/error.h"

/* Longest string accepted by the ga1/ga2 string searches, and by cm. */
#define BIT_GA_MAX_LEN 32
#define BIT_CM_MAX_LEN 26
/* Largest board area for cram and most vertices for arc kayles. */
#define BIT_CRAM_MAX_CELLS 64
#define BIT_ARC_MAX_VERTICES 64
#define BIT_ARC_MAX_EDGES 1000
/* Heap-form ga2: heap sizes at most 31, positions of at most 47 stones. */
#define BIT_GA2_MAX_HEAP 31
#define BIT_GA2_MAX_HEAPS 23

/* Memo table shared by every search in this module (entries are tagged by
 * game, so one table may serve several games).  Caller owns it. */
typedef struct BitMemo BitMemo;

/* New empty memo table; free with bitmemo_free. */
BitMemo *bitmemo_new(void);
/* Free the table (NULL is allowed). */
void bitmemo_free(BitMemo *m);

/* Entropy of a bit string (Definition 2.2): the number of adjacent pairs
 * 01 or 10.  Returns -1 if `bits` has a character other than 0/1. */
int bit_entropy(const char *bits);

/* Run lengths of a bit string ("001000111" -> 2,1,3,3).  Writes at most
 * `cap` lengths to `runs`; returns the number of runs (0 for ""), or -1 if
 * `bits` has a character other than 0/1. */
int bit_runs(const char *bits, int *runs, int cap);

/* Grundy value of a ga1 position (Ruleset 2.1: flip a prefix of length
 * 1..n-1 or one bit; legal iff the entropy strictly increases) by memoised
 * search over bit strings (complement and reversal identified).
 * `m` may be NULL (a temporary table is used).  Errors: CGT_ERR_DOMAIN for
 * a bad character or a string longer than BIT_GA_MAX_LEN; interrupts. */
CgtStatus bit_ga1_grundy(BitMemo *m, const char *bits, int *out, CgtError *err);

/* Grundy value of a ga2 position (Ruleset 3.1: flip the bits x..y-1 for
 * 1 <= x < y <= n; legal iff the entropy strictly increases) by memoised
 * search over bit strings.  Same conventions and errors as bit_ga1_grundy. */
CgtStatus bit_ga2_grundy(BitMemo *m, const char *bits, int *out, CgtError *err);

/* Heap form of ga1 (corrected Proposition 2.3): Grundy values of one run of
 * length h for h = 0..max, written to out[0..max] (out[0] = out[1] = 0).
 * A position's value is the nim-sum over its runs.  Computed from the rule
 * "a run of h splits into two runs (a, b), a+b = h, or into (a, 1, b),
 * a+b = h-1, all parts >= 1" (Theorem 2.5: out[h] = kayles(h-1)). */
void bit_ga1_heap_values(int max, int *out);

/* Kayles (octal 0.77) single-heap values K(0..max) into out[0..max],
 * computed by the Kayles rule itself (remove 1 or 2, optionally split). */
void bit_kayles_values(int max, int *out);

/* Heap form of ga2: Grundy value of the multiset of run lengths
 * heaps[0..k-1] (each >= 1, any order) where a move splits one heap into
 * two or three parts, or two heaps into two parts each (Section 3).  Heaps
 * of size 1 are dropped.  `m` may be NULL.  Errors: CGT_ERR_DOMAIN for a
 * heap < 1 or > BIT_GA2_MAX_HEAP, or more than 2 * BIT_GA2_MAX_HEAPS + 1 stones
 * in heaps >= 2 (every option keeps the stones, so at most that many heaps);
 * interrupts. */
CgtStatus bit_ga2_heaps_grundy(BitMemo *m, const int *heaps, int k, int *out, CgtError *err);

/* Corrected Theorem 3.2 as a formula: (sum of (h_i - 1)) mod 3. */
int bit_ga2_formula(const int *heaps, int k);

/* Grundy value of a crossover-mutation position (Ruleset 4.1): two bit
 * strings a and b of the same length n; swap the prefixes of length
 * 1..n-1 or flip one bit of either string; legal iff the total entropy
 * strictly increases.  Memoised over (a, b) with the symmetries swap(a,b),
 * joint reversal and joint complement.  Errors: CGT_ERR_DOMAIN for bad
 * characters, different lengths or n > BIT_CM_MAX_LEN; interrupts. */
CgtStatus bit_cm_grundy(BitMemo *m, const char *a, const char *b, int *out, CgtError *err);

/* The arc kayles graph of a cm position (Theorem 4.3, made explicit in
 * docs/gp.md): vertices 0..n are the boundaries of a (vertex i lies between
 * positions i and i+1, 0 and n are the ends), n+1..2n+1 those of b; an edge
 * joins the two boundaries of every bit whose flip is a legal mutation, and
 * boundary k of a to boundary k of b for every legal crossover at k.
 * Writes *nv and up to `cap` edges as pairs into edges[0..2*cap-1]; *ne is
 * the number of edges.  Errors as bit_cm_grundy, and CGT_ERR_DOMAIN when
 * more than `cap` edges would be needed. */
CgtStatus bit_cm_arc_graph(const char *a, const char *b, int *nv, int *edges, int cap, int *ne,
                           CgtError *err);

/* Grundy value of arc kayles (Ruleset 4.2: remove an edge and every edge
 * sharing an endpoint with it) on the graph with vertices 0..nv-1 and the
 * `ne` edges edges[2i], edges[2i+1].  Loops and repeated edges are
 * rejected.  Connected components are valued separately and nim-added;
 * a private memo table is used per call.  Errors: CGT_ERR_DOMAIN (nv >
 * BIT_ARC_MAX_VERTICES, ne > BIT_ARC_MAX_EDGES, bad vertex, loop,
 * repeated edge); interrupts. */
CgtStatus bit_arc_kayles_grundy(int nv, const int *edges, int ne, int *out, CgtError *err);

/* Grundy value of cram (Ruleset 4.4: place a domino on two orthogonally
 * adjacent empty cells) on a rows x cols board.  `board` is NULL for an
 * empty board, or rows*cols characters row by row, '.' empty and '#' (or
 * 'x') filled.  Components of empty cells are valued separately; each is
 * cut to its bounding box and identified under the 8 symmetries of the
 * square.  `m` may be NULL.  Errors: CGT_ERR_DOMAIN (rows or cols < 1,
 * rows*cols > BIT_CRAM_MAX_CELLS, bad board text); interrupts. */
CgtStatus bit_cram_grundy(BitMemo *m, int rows, int cols, const char *board, int *out,
                          CgtError *err);

#endif
