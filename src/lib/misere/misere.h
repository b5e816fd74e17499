/* Misère quotients Q(n) of heap games: an incremental engine that
 * computes the quotient heap by heap (after A. N. Siegel's MisereSolver,
 * described in our own words in docs/misere.md "Algorithms"; Plambeck &
 * Siegel, "Misère quotients for impartial games", JCTA 115 (2008)), immutable Quotient
 * snapshots with everything needed for printing, an independent
 * certificate check, checkpoints, and checks of claimed quotients.
 *
 * Conventions (docs/misere.md): positions and words are exponent vectors,
 * ordered by the word order of docs/misere.md "Word order and failures"
 * (highest index decides).
 * Elements of a Quotient are numbered 0..size-1 in increasing order of
 * their normal forms; element 0 is the identity. */
#ifndef CGT_ALGEBRA_MISERE_H
#define CGT_ALGEBRA_MISERE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/rewrite/word.h"
#include "lib/util/error.h"

/* Recalibration policy (docs/misere.md): MQ_RECAL_FIRST takes the first
 * subset of the failure's heaps (in MisereSolver's order, docs/misere.md
 * "One heap at a time")
 * that flips the failure's label; MQ_RECAL_SMALLEST tries every subset of
 * the least size that works and keeps the smallest resulting trial;
 * MQ_RECAL_JUMP is MQ_RECAL_SMALLEST, but a heap recalibrated again in the
 * same expansion gets at least twice its previous index (geometric instead
 * of linear growth when failures contain ever more copies of a heap);
 * MQ_RECAL_LIFT is MQ_RECAL_JUMP that also tries, for each subset, the
 * "lifted" trial in which a heap keeps its old image times a fresh cyclic
 * generator (a refinement of the trial) instead of being freed. */
typedef enum {
    MQ_RECAL_FIRST = 0,
    MQ_RECAL_SMALLEST = 1,
    MQ_RECAL_JUMP = 2,
    MQ_RECAL_LIFT = 3
} MqRecal;

typedef struct MqLimits {
    uint32_t max_size;  /* cap on |Q| of an accepted quotient; 0 = 1,000,000 */
    uint64_t max_trial; /* cap on raw trial monoids; 0 = 16,000,000 */
} MqLimits;

/* Seconds spent per phase and counters (cumulative over the engine). */
typedef struct MqStats {
    double t_conservative;  /* conservative-extension checks (fast and slow) */
    double t_expansion;     /* building trial monoids for new heaps */
    double t_recalibration; /* recalibration trials */
    double t_verification;  /* least P-/N-failure searches of trials */
    uint64_t fast_hits, slow_tests, expansions, recalibrations, failures;
    /* Lower bound from an unfinished expansion of heap bound_heap (0 =
     * none yet): when the least failure has k copies of that heap, the
     * trial labels every game with fewer copies correctly (they are
     * smaller in the word order), so positions with at most j = (k-1)/2
     * copies, separated by contexts with at most j copies, fall into
     * bound_size classes that the true quotient also separates:
     * |Q(bound_heap)| >= bound_size.  bound_copies = k-1. */
    uint32_t bound_heap, bound_copies, bound_size;
    /* The heap of the latest least failure of an expansion and how many
     * copies of that heap the failure holds (0 = no failure yet).  A count
     * that keeps growing while an expansion runs suggests an infinite
     * quotient (docs/misere.md: Q(34) of 0.07 is one). */
    uint32_t fail_heap, fail_copies;
} MqStats;

/* Periodicity of the pretending function (docs/misere.md "One heap at a
 * time"). */
typedef struct MqPeriod {
    bool found;          /* criterion m*r + m*p + (t+m) <= heaps computed holds */
    uint32_t period;     /* p */
    uint32_t preperiod;  /* r: phi(h) = phi(h+p) for all h >= r */
    uint32_t heaps;      /* heaps computed, counting heap 0 */
    int32_t last_rogue;  /* last heap whose image is outside the kernel, -1 if none */
} MqPeriod;

typedef struct MqEngine MqEngine;
typedef struct Quotient Quotient;

/* New engine for `game` (borrowed; must outlive the engine) holding Q(0).
 * `lim` may be NULL (defaults).  Caller frees with mq_free. */
MqEngine *mq_new(const HeapGame *game, const MqLimits *lim);
void mq_free(MqEngine *eng);
/* Choose the recalibration policy (default MQ_RECAL_FIRST).  Either policy
 * accepts only a trial with no failure, so the result is a correct
 * quotient either way; the policies differ in speed and in which trials
 * they pass through. */
void mq_set_recalibration(MqEngine *eng, MqRecal policy);
/* Compute the lower bound MqStats.bound_size whenever the least failure of
 * an expansion gets more copies of the new heap (costs a few partition
 * refinements of the trial each time; off by default). */
void mq_set_track_bound(MqEngine *eng, bool on);
/* Run the independent pieces of a heap on up to `threads` threads
 * (default 1; docs/misere.md "Two threads"): the slow tests of the
 * conservative extension and the trials of a recalibration.  The pieces
 * are judged in the order one thread takes them, so the quotient, its
 * antichains and the counters of MqStats are those of one thread. */
void mq_set_threads(MqEngine *eng, unsigned threads);
/* Failure hook (src/lib/misere/mqinf.c, bench/misere/stallprobe.c): called at every least failure
 * of an expansion, before recalibration, with the failing trial T (an
 * internal MqPret, see src/lib/misere/mqint.h; borrowed, valid during the call),
 * the failure F (exponent vector over heaps 0..T->nh-1) and whether F is a
 * P-failure.  Every game smaller than F in the word order is labelled
 * correctly by T.  The hook may set cgt_interrupt_flag to stop the run.
 * fn NULL removes the hook; ctx is borrowed. */
struct MqPret;
typedef void (*MqFailureHook)(void *ctx, const struct MqPret *T, const uint32_t *F,
                              bool p_failure);
void mq_set_failure_hook(MqEngine *eng, MqFailureHook fn, void *ctx);
/* Called from inside the failure hook: the expansion stops right after the
 * hook returns, mq_extend_to returns CGT_ERR_INTERRUPTED ("stopped by the
 * failure hook") and the engine keeps the last completed heap. */
void mq_request_stop(MqEngine *eng);
/* Extend the quotient to heaps 0..n (no-op if already there).  Errors:
 * CGT_ERR_LIMIT (size caps, --timeout), CGT_ERR_INTERRUPTED, errors of the
 * game's option generator, CGT_ERR_INTERNAL if recalibration fails.  On
 * any error the engine keeps the quotient of the last completed heap. */
CgtStatus mq_extend_to(MqEngine *eng, uint32_t n, CgtError *err);
/* Extend heap by heap until the pretending function is proved periodic by
 * the criterion of docs/misere.md ("Periodicity") or heap max_heap is done.  *out gets the
 * periodicity found (out->found false if max_heap was reached first).
 * Errors as mq_extend_to; *out is filled for the last completed heap. */
CgtStatus mq_run_until_periodic(MqEngine *eng, uint32_t max_heap, MqPeriod *out,
                                CgtError *err);
/* Largest heap n for which the engine holds Q(n). */
uint32_t mq_heaps_done(const MqEngine *eng);
/* Current |Q| and |P| (cheap). */
uint32_t mq_current_size(const MqEngine *eng);
uint32_t mq_current_psize(const MqEngine *eng);
/* Statistics (borrowed pointer, valid until the next engine call). */
const MqStats *mq_stats(const MqEngine *eng);
/* Snapshot of the current quotient.  `names` (borrowed, may be NULL for
 * a, b, c, ...) must have exactly as many entries as the quotient has
 * generators (`nnames`), else CGT_ERR_DOMAIN and NULL.  Caller owns the
 * result (quotient_free). */
Quotient *mq_quotient(const MqEngine *eng, const char *const *names, int nnames, CgtError *err);
/* Number of generators of the current quotient (to check `names`). */
int mq_current_ngens(const MqEngine *eng);
/* Checkpoint: write the engine state to `path` atomically, sealed with a
 * CRC-64 (src/lib/util/atomicfile.h).  Errors: CGT_ERR_IO with the reason. */
CgtStatus mq_save(const MqEngine *eng, const char *path, CgtError *err);
/* Resume from a checkpoint after checking its seal, version and values;
 * `game` must have the same name as the saved one (CGT_ERR_DOMAIN
 * otherwise), CGT_ERR_IO for unreadable, non-regular, damaged or malformed
 * files (never modified).  With `absent` non-NULL, a missing file is not
 * an error: NULL with *absent = true.  Returns an owned engine or NULL. */
MqEngine *mq_load(const char *path, const HeapGame *game, const MqLimits *lim, bool *absent,
                  CgtError *err);

/* The data a quotient is made of, and all that its certificate reads: a
 * finite commutative monoid given by the actions of generators (elements
 * 0..size-1, 0 the identity), the heap images phi(0..n) and the
 * P-portion.  Claimed quotients (mq_check_claim), checkpoints, saved
 * files and computed quotients are all turned into a Quotient from this
 * data (quotient_from_claim). */
typedef struct MqClaim {
    uint32_t size;       /* elements 0..size-1, identity 0 */
    int ngens;
    const uint32_t *act; /* act[g*size + x] = x * generator g */
    const uint32_t *p;   /* P elements */
    size_t np;
    const uint32_t *phi; /* phi(0..n) */
    uint32_t n;
} MqClaim;

/* ---- Quotient snapshots (immutable; all pointers borrowed from q) ---- */
/* The Quotient of the data c (borrowed), with every table it answers from
 * derived from c alone: the generators are regenerated from the heap
 * images and the elements renumbered by normal form.  `names` as for
 * mq_quotient.  CGT_ERR_DOMAIN for data out of range, for actions that do
 * not reach every element from 1 or heap images that do not generate the
 * monoid.  The result is not checked to be the quotient of any game:
 * mq_certify does that, reading exactly the data quotient_claim returns. */
Quotient *quotient_from_claim(const MqClaim *c, const char *const *names, int nnames,
                              CgtError *err);
/* The data of q (pointers borrowed from q): its generator actions, heap
 * images and P-portion in its own numbering. */
void quotient_claim(const Quotient *q, MqClaim *c);
void quotient_free(Quotient *q);
uint32_t quotient_size(const Quotient *q);
uint32_t quotient_psize(const Quotient *q);
/* Largest heap covered: Q(n). */
uint32_t quotient_max_heap(const Quotient *q);
int quotient_ngens(const Quotient *q);
const char *quotient_gen_name(const Quotient *q, int g);
char *const *quotient_gen_names(const Quotient *q);
/* Normal form of x: exponent vector of ngens entries. */
const uint32_t *quotient_word(const Quotient *q, uint32_t x);
/* Owned string of the normal form of x (word_format: `ab^2`, `1`). */
char *quotient_format(const Quotient *q, uint32_t x);
bool quotient_is_p(const Quotient *q, uint32_t x);
/* x*y: O(1) table look-up for |Q| <= 2048, else O(|word(y)|). */
uint32_t quotient_mul(const Quotient *q, uint32_t x, uint32_t y);
/* x*generator g. */
uint32_t quotient_mul_gen(const Quotient *q, uint32_t x, int g);
/* phi(h) for 0 <= h <= max_heap. */
uint32_t quotient_phi(const Quotient *q, uint32_t h);
/* x * phi(h): the action every outcome is computed with. */
uint32_t quotient_mul_heap(const Quotient *q, uint32_t x, uint32_t h);
/* The heaps h where |Q(h)| > |Q(h-1)|, with |Q(h)| (count entries),
 * derived from the quotient itself. */
size_t quotient_expansions(const Quotient *q, const uint32_t **heaps, const uint32_t **sizes);
/* Presentation in MisereSolver's form (docs/misere.md "Snapshots and
 * presentation"), owned by q. */
const Presentation *quotient_presentation(const Quotient *q);
/* Tame: |Q| <= 2, or |P| = 2 and |Q|-2 a power of two. */
bool quotient_is_tame(const Quotient *q);
/* Periodicity of phi(0..max_heap) with game parameters max_parts, max_take. */
MqPeriod quotient_periodicity(const Quotient *q, int max_parts, int max_take);
/* Image of a position given as `k` heap sizes (each <= max_heap), O(k).
 * Errors: CGT_ERR_DOMAIN for a heap above max_heap. */
CgtStatus quotient_eval(const Quotient *q, const uint32_t *heaps, size_t k, uint32_t *x,
                        CgtError *err);
/* Misère outcome of a position: *is_p true for a P-position (second player
 * wins).  Errors as quotient_eval. */
CgtStatus quotient_outcome(const Quotient *q, const uint32_t *heaps, size_t k, bool *is_p,
                           CgtError *err);
/* Least position (exponent vector over heaps 0..max_heap, written to g,
 * max_heap+1 entries) mapping to x. */
void quotient_least_game(const Quotient *q, uint32_t x, uint32_t *g);

/* ---- moves of a single heap (Dawson's claims) ---- */
typedef struct MqMove {
    uint32_t parts[8]; /* heaps left by the move (ascending) */
    uint32_t nparts;
    bool is_p;         /* the option is a P-position: a winning move */
} MqMove;
/* Options of heap n (n <= max_heap) with their outcomes from the quotient.
 * *moves is owned by the caller (free).  *heap_is_p = misère outcome of
 * heap n.  Errors: CGT_ERR_DOMAIN (n too large or an option with more than
 * 8 parts), game errors. */
CgtStatus quotient_heap_moves(const Quotient *q, const HeapGame *game, uint32_t n, bool *heap_is_p,
                              MqMove **moves, size_t *count, CgtError *err);

/* Genus g^{γ0γ1...} (ONAG ch. 12) of the least position of x, computed by
 * the memoised search of src/lib/heap/genus.h (independent of Q).  Returns
 * an owned string in the notation of genus_format, like "1^031";
 * CGT_ERR_LIMIT if more than max_positions positions would be needed (0 =
 * GENUS_LIMIT_DEFAULT) or γ does not settle within GENUS_LEN terms. */
CgtStatus quotient_genus(const Quotient *q, const HeapGame *game, uint32_t x, size_t max_positions,
                         char **out, CgtError *err);

/* The genus of least positions with the quotient's help
 * (src/lib/misere/mqgenus.c, docs/misere.md "Genus"): small γk read off
 * quotients of the game with nim heaps adjoined (as far as they close
 * within fixed limits, each certified by mq_certify), larger γk by the
 * search of src/lib/heap/genus.h.  mq_genus_new
 * returns NULL only on an interrupt or a run limit (err set). */
typedef struct MqGenus MqGenus;
MqGenus *mq_genus_new(const Quotient *q, const HeapGame *game, CgtError *err);
/* What the two quotients cover (src/lib/misere/mqgenus.c): γk <= *c of
 * every position, and γk <= *cb of positions with heaps <= *mb (0 = none). */
void mq_genus_cover(const MqGenus *mg, unsigned *c, unsigned *cb, uint32_t *mb);
/* Genus of the least position of x (owned string, genus_format);
 * CGT_ERR_LIMIT when this call would add more than max_positions positions
 * to the search (0 = no cap) or γ does not settle; *searched (may be NULL)
 * gets the positions this call added. */
CgtStatus mq_genus_least(MqGenus *mg, uint32_t x, size_t max_positions, char **out,
                         size_t *searched, CgtError *err);
/* Positions memoised by the search so far, and dropping them (to bound
 * memory across many types). */
size_t mq_genus_cache(const MqGenus *mg);
void mq_genus_forget(MqGenus *mg);
void mq_genus_free(MqGenus *mg);

/* ---- certificate (src/lib/misere/mqcert.c, mqcert_close.c) ---- */
typedef struct MqCertInfo {
    /* method 1: closure over states (element, profile, has a move), pairs =
     * states; 2: the summary method, pairs = its |Q| x |Q| passes; 0 (|Q| >
     * 16384): closure over (element, transition set) pairs. */
    int method;
    uint64_t pairs;
    uint32_t moves;   /* distinct heap transitions (heaps with equal phi and trans) */
    /* monoid_ok: phi(0) = 1, the generator actions commute, every element
     * is a product of generators, and (for a Quotient) quotient_mul(x,
     * phi(h)) agrees with the generators; labelling_ok implies it. */
    bool monoid_ok, labelling_ok, reduced_ok, generated_ok;
} MqCertInfo;
/* Independent check that q is the misère quotient of `game` on heaps
 * 0..max_heap (docs/misere.md "Certificate"): the monoid checks above,
 * closure of all positions built by adding heaps, each labelled
 * consistently; reduced (partition refinement); generated by heap images.
 * Returns CGT_OK with info filled (labelling, reduced and generated true =
 * certified); CGT_ERR_LIMIT if the closure needs more than max_pairs
 * states (0 = 5,000,000); CGT_ERR_LIMIT / CGT_ERR_INTERRUPTED from
 * cgt_poll. */
CgtStatus mq_certify(const Quotient *q, const HeapGame *game, uint64_t max_pairs,
                     MqCertInfo *info, CgtError *err);


typedef enum { MQ_CLAIM_OK, MQ_CLAIM_PFAIL, MQ_CLAIM_NFAIL } MqFailKind;

typedef struct MqClaimResult {
    bool is_quotient;   /* all three conditions hold */
    bool labelling_ok;  /* every position labelled correctly */
    bool reduced_ok;
    bool generated_ok;
    MqFailKind kind;    /* for a wrong labelling: the least failure */
    uint32_t *game;     /* owned: exponent vector (n+1 entries) of the least failure */
    bool true_is_p;     /* its true outcome */
    /* P-failure: a move to a P-position; heap moved from and what it left */
    uint32_t move_heap;
    uint32_t move_parts[8];
    uint32_t move_nparts;
    uint32_t same_a, same_b;  /* two indistinguishable elements (if !reduced_ok) */
    uint32_t unreached;       /* an element not generated by heap images */
} MqClaimResult;
/* Check a claimed pretension against the game (the searches of
 * docs/misere.md "The searches").
 * Errors: CGT_ERR_DOMAIN for malformed claims (non-commuting or
 * out-of-range tables); res->game must be freed by the caller. */
CgtStatus mq_check_claim(const MqClaim *claim, const HeapGame *game, MqClaimResult *res,
                         CgtError *err);

#endif
