/* Heap rulesets: octal and hex take-and-break codes, subtraction sets and
 * general move rules on one heap, all compiled into one representation (a
 * list of MoveRule).  A Ruleset provides the HeapGame interface of
 * src/lib/heap/heapgame.h, which the Grundy, genus, outcome and misère-quotient
 * code use.  Codes follow Winning Ways ch. 4 (see docs/games.md). */
#ifndef CGT_GAMES_RULESET_H
#define CGT_GAMES_RULESET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/util/error.h"

/* Upper end of an unbounded take range. */
#define RULESET_UNBOUNDED UINT32_MAX

/* Flags on the parts a move leaves. */
enum {
    RULE_UNEQUAL = 1, /* parts pairwise unequal (Grundy's game) */
    RULE_EQUAL = 2    /* parts all equal */
};

/* How the ruleset was written (only the canonical name depends on it). */
typedef enum { RULESET_CODE, RULESET_SUBTRACTION, RULESET_RULES } RulesetKind;

typedef struct RulesetRange {
    uint32_t lo, hi; /* k in [lo, hi]; hi may be RULESET_UNBOUNDED */
} RulesetRange;

/* One move rule on a heap of size n: remove k tokens with k in the union of
 * `ranges` (and, when frac_den != 0, k <= n*frac_num/frac_den), then leave
 * p non-empty heaps summing to n-k, for some p with bit p set in
 * parts_mask (p = 0..3; p = 0 means k = n).  Every part is >= 1 and
 * >= min_part; `flags` (RULE_*) restrict the parts further. */
typedef struct MoveRule {
    RulesetRange *ranges;
    size_t nranges;
    uint32_t frac_num, frac_den;
    unsigned parts_mask;
    unsigned flags;
    uint32_t min_part;
} MoveRule;

typedef struct Ruleset {
    RulesetKind kind;
    char *name;       /* canonical name, e.g. "0.07", "subtraction {2,3,7}" */
    MoveRule *rules;  /* owned, with owned range arrays */
    size_t nrules;
    int max_parts;    /* largest number of heaps a move leaves (0..3) */
    int max_take;     /* largest k, or -1 if unbounded */
    /* Plain = only conditions "parts non-empty", no fraction, bounded
     * take: options depend only on (k, number of parts).  Then kmask[k]
     * (k = 0..max_take) is the union of parts masks for removing k, i.e.
     * the octal/hex digit d_k, and the periodicity theorem applies. */
    bool plain;
    unsigned *kmask;  /* only when plain; max_take+1 entries */
    /* Only when plain: the takes k that may leave two heaps (ksplit[0],
     * nsplit[0] of them) and three heaps (ksplit[1], nsplit[1]), each
     * list descending; ruleset_options walks them to write the options
     * in canonical order without sorting. */
    uint32_t *ksplit[2];
    size_t nsplit[2];
    HeapGame hg;      /* ctx points back to this ruleset */
} Ruleset;

/* Parse an octal/hex code "d0.d1d2...dt" (digits 0-9, A-F, a-f; one digit
 * before the point).  Digit d_k: bit 1 = remove k leaving nothing, bit 2 =
 * leave one heap, bit 4 = two heaps, bit 8 = three heaps.  For d0, bit 4/8
 * split a heap without removing tokens; bit 2 (a loop) is rejected; bit 1
 * (remove nothing from an empty heap) is ignored.  On success *out is a new
 * ruleset owned by the caller (free with ruleset_free).  Errors:
 * CGT_ERR_DOMAIN for a bad digit (then *bad_offset, if non-NULL, is the
 * byte offset of the offending character in `code`; otherwise it is set to
 * SIZE_MAX), a missing point, a looping d0 or a code with no moves. */
CgtStatus ruleset_parse_code(const char *code, Ruleset **out, size_t *bad_offset,
                             CgtError *err);

/* Subtraction game: remove s tokens from a heap for s in set[0..n-1]
 * (leaving nothing or one heap), or, when all_but, for every s >= 1 not in
 * the set.  The set is copied.  Errors: CGT_ERR_DOMAIN for 0 in a finite
 * set (a loop), an empty finite set. */
CgtStatus ruleset_subtraction(const uint32_t *set, size_t n, bool all_but, Ruleset **out,
                              CgtError *err);

/* General ruleset from move rules (copied; the caller keeps `rules`).
 * Errors: CGT_ERR_DOMAIN for no rules / no possible move, an empty or
 * reversed range, parts_mask outside bits 0..3, frac_den == 0 with
 * frac_num != 0, RULE_UNEQUAL together with RULE_EQUAL, or a rule that can
 * loop (k = 0 leaving one heap). */
CgtStatus ruleset_from_rules(const MoveRule *rules, size_t nrules, Ruleset **out,
                             CgtError *err);

void ruleset_free(Ruleset *rs);

/* The options of heap n, in canonical order (heapopts_canonicalize),
 * written into `out` (initialised by the caller, cleared here).  Errors:
 * none at present (CGT_OK). */
CgtStatus ruleset_options(const Ruleset *rs, uint32_t n, HeapOptions *out, CgtError *err);

/* An upper bound on the number of options of heap n (counted before they
 * are generated, as the loops of ruleset_options would: per take k, one
 * option for 0 or 1 heaps, (n-k)/2 for two, (n-k)^2/12 + n for three),
 * saturating at UINT64_MAX.  The runtime refuses a search whose first
 * heap alone would exceed its position budget (docs/games.md §7). */
uint64_t ruleset_options_bound(const Ruleset *rs, uint64_t n);

/* The HeapGame interface of rs (borrowed; valid while rs lives). */
const HeapGame *ruleset_heapgame(const Ruleset *rs);

/* Canonical name (borrowed). */
const char *ruleset_name(const Ruleset *rs);

#endif
