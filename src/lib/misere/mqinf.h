/* Deciding that a misère quotient Q(n) is infinite (docs/misere.md,
 * "Infinite quotients"): while the engine expands heap n, the failure hook
 * watches the least failures; when their count of heap n climbs, the
 * failing trial labels every position with fewer copies of heap n
 * correctly (docs/misere.md "Word order and failures"), so it is used as
 * a label oracle for a window of positions X + n^a + G^b.  A reduction
 * red(a, b) (diagonal step above t, periods in b and in a on the two
 * strips) is fitted to the window for a
 * partner heap G, and the claim "outcome(X + n^a + G^b) = lab(psi(X),
 * red(a, b))" is then PROVED by a certificate that uses none of the
 * engine's searches (pair closure with checks on a finite region, Lemma 1
 * of docs/misere.md), together with a witness context that separates the
 * powers of phi(n).  The result is written as a proof file in the format
 * `cgt-misere-infinite 1`, which tests/oracle/mq_infcheck re-checks.
 * Game-independent: the options come from the HeapGame interface only. */
#ifndef CGT_ALGEBRA_MQINF_H
#define CGT_ALGEBRA_MQINF_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/misere/misere.h"
#include "lib/util/error.h"

/* A proved description of Q(N): every position X + Z, X free of the
 * heaps of the two groups (grp[h] != 0) and Z made of them, has misère
 * outcome lab(psi(X), red(a, b)) with a = the heaps of Z in group 1 and
 * b = those in group 2 (Lemma 1 of docs/misere.md when the groups are {H}
 * and {G}, Lemma 2 with k = 2 and one pair block otherwise).  H and G are
 * the heaps of the groups whose powers the window and the witness use. */
typedef struct MqInfProof {
    uint32_t N, H, G;
    uint8_t *grp;          /* grp[h] (h = 0..N): 1 or 2 for the heaps of a group, else 0 */
    uint32_t S;            /* states; state 0 = the empty position */
    uint32_t **act;        /* act[K] (K = 0..N): S entries, NULL for the heaps of the groups */
    HeapOptions *opts;     /* options of heaps 0..N */
    uint32_t t, b0, pb, a0, pa;
    uint32_t q;            /* diagonal step (q, q); 1 in format 1 */
    uint32_t TA, TB;       /* lab table: a <= TA, b <= TB */
    uint8_t *lab;          /* lab[(s * (TA+1) + a) * (TB+1) + b], 1 = P */
    uint32_t A1, B1;       /* region checked directly */
    uint32_t ua, ub;
    uint64_t pairs, checks;
    bool have_witness;     /* the powers H^a, a >= wa, are pairwise distinct */
    int32_t we;            /* context W + G^(a + we) */
    uint32_t wa;
    uint32_t *wheaps;      /* W */
    uint32_t nw;
    uint32_t wstate;
    uint32_t *word;        /* shortest heap list reaching each state: */
    uint32_t *woff;        /* heaps word[woff[s] .. woff[s+1]-1] */
    uint32_t found_copies; /* copies of H in the least failure that gave the window */
    uint8_t *trust;        /* trust[s]: s's labels came from below the least failure
                              (NULL: all); the others may be repaired */
    uint32_t fail_s, fail_a; /* where the last failed check was (rule 7) */
    uint64_t fail_bits;      /* its wrong bits b, and the labels they should have */
    uint64_t fail_want;
    uint32_t first;        /* the heap proved infinite when N was carried past it by
                              mqinf_extend (0: N itself) */
    char *ext_text;        /* the heaps past `first` and the state words they act as
                              ("35 as 2 + 28"), NULL when none */
    char ext_stop[400];    /* why the description stops at N when more was asked, or "" */
} MqInfProof;

typedef struct MqInf MqInf;

/* Decision run for heap n of `game` (borrowed; must outlive the run).
 * max_pairs caps the certificate's pair closure (0 = 4,000,000).  n = 0:
 * follow the engine, deciding whatever heap it expands (for runs that
 * extend heap by heap on their own, like mq_run_until_periodic). */
MqInf *mqinf_new(const HeapGame *game, uint32_t n, MqEngine *eng, uint64_t max_pairs);
void mqinf_free(MqInf *d);
/* The failure hook (install with mq_set_failure_hook(eng, mqinf_hook, d)).
 * Once a proof is found it asks the engine to stop (mq_request_stop). */
void mqinf_hook(void *ctx, const struct MqPret *T, const uint32_t *F, bool p_failure);
/* The proof, or NULL while none was found. */
const MqInfProof *mqinf_result(const MqInf *d);
/* Hand the proof over to the caller (then owned by it; d keeps none). */
MqInfProof *mqinf_take(MqInf *d);
/* Owned-by-d text: one line per attempt ("k=12 G=30: ...") of what was
 * tried and why it failed; empty if nothing was tried. */
const char *mqinf_log(const MqInf *d);
/* Largest copies of heap n seen in a least failure. */
uint32_t mqinf_max_copies(const MqInf *d);
/* Owned-by-d text: when the new heap occurred once and Lemma 2 was tried,
 * which heaps grew in the least failures ("11^24, 8^33, 7^36"); else "". */
const char *mqinf_growing(MqInf *d);

/* Claimed label: misère outcome of a position given as k heap sizes (each
 * <= N).  Errors: CGT_ERR_DOMAIN for a heap above N.  O(k). */
CgtStatus mqinf_outcome(const MqInfProof *p, const uint32_t *heaps, size_t k, bool *is_p,
                        CgtError *err);
/* lab(s, red(a, b)). */
bool mqinf_label(const MqInfProof *p, uint32_t s, uint64_t a, uint64_t b);

/* Condition D2 of Lemma 2 (docs/misere.md) for p's two groups: ma and mb
 * heaps in groups 1 and 2, ua and ub the most heaps of group 1 (2) in one
 * option of a heap 1..N. */
void mqinf_group_counts(const MqInfProof *p, uint32_t *ma, uint32_t *mb, uint32_t *ua,
                        uint32_t *ub);
/* The least region D2 allows for p's reduction: sets p->ua, p->ub, p->A1
 * and p->B1. */
void mqinf_set_region(MqInfProof *p);

/* The certificate (src/lib/misere/mqinfcert.c): rules 4-8 of the proof format on
 * p's own data.  Returns true when everything holds; fills p->pairs and
 * p->checks; *why gets a static reason otherwise.  CGT_ERR_LIMIT if more
 * than max_pairs pairs are reachable. */
CgtStatus mqinf_certify(MqInfProof *p, uint64_t max_pairs, bool *ok, const char **why,
                        CgtError *err);

/* Groups {H} and {G} with H = N and q = 1: the proof is written in format
 * 1, else in format 2 (docs/misere.md). */
bool mqinf_is_v1(const MqInfProof *p);
/* Heaps of group g (1 or 2) in ascending order into out (N+1 entries);
 * returns their number. */
uint32_t mqinf_group(const MqInfProof *p, int g, uint32_t *out);

/* Write p as a `cgt-misere-infinite 1` file when mqinf_is_v1(p), else as
 * `cgt-misere-infinite 2` (atomic: temp file, fsync, rename).  game_line
 * is "octal 0.07", "hex 4.C" or "ruleset NAME".  Errors: CGT_ERR_IO. */
CgtStatus mqinf_write(const MqInfProof *p, const char *game_line, const char *path,
                      CgtError *err);
/* The same in the given format (1 or 2); format 1 only for groups {H}, {G}
 * with q = 1 (the caller's duty). */
CgtStatus mqinf_write_version(const MqInfProof *p, const char *game_line, const char *path,
                              int version, CgtError *err);
void mqinf_proof_free(MqInfProof *p);

/* Beyond the first infinite heap (src/lib/misere/mqinfext.c, docs/misere.md
 * "Beyond the first infinite heap"): cover heap N+1 by the same states,
 * groups and table, heap N+1 acting as a state c of the description,
 * when the certificate (mqinf_certify, at most max_pairs pairs) proves it.
 * On success *ok is true and p describes Q(N+1) (p->first keeps the heap
 * proved infinite); otherwise p is unchanged and why says what blocks it.
 * Errors: the game's, a limit or an interrupt (cgt_poll). */
CgtStatus mqinf_extend(MqInfProof *p, const HeapGame *game, uint64_t max_pairs, bool *ok,
                       char *why, size_t wl, CgtError *err);
/* The heap whose quotient was proved infinite (p->N unless extended). */
uint32_t mqinf_first(const MqInfProof *p);

#endif
