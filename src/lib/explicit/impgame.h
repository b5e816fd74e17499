/* Explicit impartial games and their misère canonical forms (ONAG ch. 12;
 * Siegel, Combinatorial Game Theory, ch. V.1; docs/misere.md "Explicit
 * games").
 *
 * Games live in one store as a hash-consed DAG: a node is a set of options
 * (node ids, sorted, without repeats), and equal option sets are the same
 * node, so a game is identified by its id.  Node 0 is the empty game 0.
 * The nim heap *k is one node whose options, *0..*(k-1), are a prefix of
 * one shared array (no k option entries of its own).
 * Nodes are either literal (what the user wrote, a sum, an expanded heap)
 * or known to be misère canonical (simplest form); a literal node whose
 * options happen to be canonical and irreducible is the same node as its
 * canonical form.  Every node carries its birthday, normal-play nim value,
 * misère nim value (G^-) and misère outcome, computed when it is interned.
 *
 * Misère equality (o(G+X) = o(H+X) for every impartial X) of two games is
 * identity of their canonical forms (Conway's simplest form theorem). */
#ifndef CGT_GAMES_IMPGAME_H
#define CGT_GAMES_IMPGAME_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/heap/genus.h"
#include "lib/util/error.h"

typedef uint32_t IgId;

#define IG_ZERO ((IgId)0)

typedef struct IgStore IgStore;

IgStore *ig_new(void);
void ig_free(IgStore *s);
/* Cap on the number of nodes (default IG_DEFAULT_LIMIT); beyond it every
 * constructor fails with CGT_ERR_LIMIT.  The same number of new literal
 * sums (ig_sum's memo) is allowed from the time of the call. */
#define IG_DEFAULT_LIMIT 20000000
void ig_set_limit(IgStore *s, size_t max_nodes);
size_t ig_count(const IgStore *s);
/* Cap on the total number of option entries of all nodes (0 = the
 * default, IG_DEFAULT_OPTION_LIMIT: 1 GiB of entries); the constructors
 * fail with CGT_ERR_LIMIT beyond it.  Nim heaps take no entries (*n is
 * one node whose options are the nodes *0..*(n-1), shared by all heaps). */
#define IG_DEFAULT_OPTION_LIMIT ((size_t)1 << 28)
void ig_set_option_limit(IgStore *s, size_t max_entries);
size_t ig_option_count(const IgStore *s);

/* The game with options opts[0..n-1] (any order, repeats allowed). */
CgtStatus ig_make(IgStore *s, const IgId *opts, size_t n, IgId *out, CgtError *err);
/* The nim heap *n = {0, *1, ..., *(n-1)} (canonical in misère play), in
 * O(n) time the first time and O(1) after; polls. */
CgtStatus ig_nim(IgStore *s, uint32_t n, IgId *out, CgtError *err);
/* The disjunctive sum a + b as a literal game (its positions are the pairs
 * of positions of a and b). */
CgtStatus ig_sum(IgStore *s, IgId a, IgId b, IgId *out, CgtError *err);
/* The misère canonical form of g. */
CgtStatus ig_canon(IgStore *s, IgId g, IgId *out, CgtError *err);
/* The canonical form of a + b, computed on canonical forms only (cheaper
 * than ig_canon(ig_sum(a, b)); same result). */
CgtStatus ig_sum_canon(IgStore *s, IgId a, IgId b, IgId *out, CgtError *err);

size_t ig_nopts(const IgStore *s, IgId g);
/* Borrowed, sorted by id; valid until the next constructor call. */
const IgId *ig_opts(const IgStore *s, IgId g);
uint32_t ig_birthday(const IgStore *s, IgId g);
uint32_t ig_nimber(const IgStore *s, IgId g);        /* normal-play nim value */
uint32_t ig_misere_value(const IgStore *s, IgId g);  /* G^- (Conway's γ0) */
bool ig_misere_p(const IgStore *s, IgId g);          /* misère P-position */
/* If g is a nim heap *n exactly (node with options *0..*(n-1)), n; else -1. */
long ig_nim_size(const IgStore *s, IgId g);
/* Number of nodes reachable from g (g included); polls. */
CgtStatus ig_size(const IgStore *s, IgId g, size_t *out, CgtError *err);

/* Genus g^{γ0γ1...} of g: g = normal nim value, γk = misère nim value of
 * g + k copies of *2 (ONAG ch. 12), shown up to where γ alternates, as in
 * src/lib/heap/genus.h.  Errors: CGT_ERR_LIMIT if γ does not alternate within
 * GENUS_LEN terms or the store is full. */
CgtStatus ig_genus(IgStore *s, IgId g, Genus *out, CgtError *err);

/* Heap n of a heap ruleset as a literal game (heap k = the set of sums of
 * its options' heaps).  `heaps` (n+1 entries, filled) receives the ids of
 * heaps 0..n.  With canonical = true the heaps are built from canonical
 * forms with ig_sum_canon (the ids are then canonical forms).  Errors:
 * CGT_ERR_LIMIT (node cap), errors of hg->options. */
CgtStatus ig_heaps(IgStore *s, const HeapGame *hg, uint32_t n, bool canonical, IgId *heaps,
                   CgtError *err);

/* Misère canonical games born by day d: on day 0 only 0; the games born by
 * day d are the simplest forms whose options are born by day d-1.
 * ig_born_list interns them all (ids in `out`, a caller array of at least
 * IG_BORN_LIST_MAX entries; *n set); ig_born_count counts day d <= 5
 * without interning the last day (4171780 for d = 5).  Errors:
 * CGT_ERR_DOMAIN for d beyond the supported days, CGT_ERR_INTERRUPTED /
 * CGT_ERR_LIMIT from cgt_poll. */
#define IG_BORN_LIST_MAX 22
#define IG_BORN_LIST_DAY 4
#define IG_BORN_COUNT_DAY 5
CgtStatus ig_born_list(IgStore *s, unsigned d, IgId *out, size_t *n, CgtError *err);
CgtStatus ig_born_count(IgStore *s, unsigned d, uint64_t *count, CgtError *err);

#endif
