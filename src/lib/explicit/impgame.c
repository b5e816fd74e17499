/* Explicit impartial games: the hash-consed store, sums, and misère
 * canonical forms (src/lib/explicit/impgame.h).
 *
 * Canonical forms follow Conway's misère simplification (ONAG ch. 12, the
 * simplest form theorem for impartial misère games; Siegel, Combinatorial
 * Game Theory, ch. V.1, "misère canonical forms"; theorem numbers are not
 * quoted because no copy of either book was at hand to check them):
 *
 *  - an option G' of G is reversible (through G'') when G' has an option
 *    G'' equal to G; G is in simplest form when no follower of G has a
 *    reversible option, and two equal games in simplest form are identical.
 *    Impartial misère games have no dominated ("deletable") options apart
 *    from repeats, which the option sets remove.
 *  - Since G'' = G and G'' is a canonical follower, the canonical form of a
 *    game whose options are canonical and which has a reversible option is
 *    G'' itself; otherwise the game is its own simplest form.  This is the
 *    Grundy-Smith bypass rule with the endgame proviso built in: bypassing
 *    a reversible G' through G'' = 0 is only valid when the result still has
 *    a P-position option (or none at all), and returning G'' = 0 directly
 *    never needs the proviso.
 *
 * Deciding G'' = G for a game G whose options are canonical and a canonical
 * K uses Conway's characterisation of linked games (ONAG ch. 12; Siegel
 * V.1): G and H are linked (G + T and H + T both misère P-positions for
 * some T) iff G differs from every H' and every G' differs from H; and
 * G = H iff G is linked to no H', no G' is linked to H, and the endgame
 * T = 0 does not tell them apart (G = 0 while H is a P-position, or the
 * reverse).  On canonical games "differs" is identity, so the test only
 * recurses through the followers of K. */
#include "lib/explicit/impgame.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

#define NO_ID UINT32_MAX

typedef struct Node {
    uint32_t off, n;   /* options in pool[off .. off+n-1], sorted; for the nim
                          heap *n (nimsize >= 0): nim[0 .. n-1], not in pool */
    IgId canon;        /* canonical form, NO_ID if not computed */
    uint32_t birthday; /* 1 + largest option birthday */
    uint32_t nimber;   /* normal play: mex of the options' values */
    uint32_t mval;     /* misère nim value: 1 for 0, else the mex */
    int32_t nimsize;   /* k if the node is *k exactly, else -1 */
    uint8_t p;         /* misère P-position */
} Node;

typedef struct PairMap {
    uint64_t *keys; /* a << 32 | b, plus one; 0 = empty */
    IgId *vals;
    size_t cap, len;
} PairMap;

struct IgStore {
    VEC(Node) nodes;
    VEC(IgId) pool;
    /* nim[k] = the node *k.  *k's options are *0..*(k-1), the prefix
     * nim[0..k-1] of this one array, so the heaps *0..*n take O(n) memory
     * instead of n^2/2 option entries.  A node is made after its options,
     * so ids grow with k and every prefix is sorted by id, as option lists
     * are.  Nim nodes are not in the hash table: intern finds them by
     * comparing an option set with a prefix of nim. */
    VEC(IgId) nim;
    IgId *slots; /* open addressing over node ids + 1; 0 = empty */
    size_t nslots;
    size_t limit, pool_limit, sum_limit;
    PairMap sums, csums;
    /* the equality memo of one canonical reduction, by generation */
    uint32_t *eq_gen;
    uint8_t *eq_val;
    size_t eq_cap;
    uint32_t gen;
    /* polling inside the equality recursion, which returns bool: a stop
       is kept here and turned into an error by the caller */
    unsigned ticks;
    CgtStatus stop;
};

/* Poll every 1024 calls; true once Ctrl-C or a time limit was seen (then
 * the current reduction is abandoned). */
static bool stopped(IgStore *s)
{
    if (s->stop == CGT_OK && (++s->ticks & 1023) == 0)
        s->stop = cgt_poll();
    return s->stop != CGT_OK;
}

/* The error for a stop seen by stopped(), which it clears. */
static CgtStatus stop_error(IgStore *s, CgtError *err)
{
    CgtStatus st = s->stop;
    s->stop = CGT_OK;
    return cgt_poll_error(err, st, "explicit games");
}

/* ---- pair maps ---- */

static void pm_free(PairMap *m)
{
    free(m->keys);
    free(m->vals);
}

static uint64_t pm_key(IgId a, IgId b)
{
    return ((uint64_t)a << 32 | b) + 1;
}

static bool pm_get(const PairMap *m, IgId a, IgId b, IgId *out)
{
    if (!m->cap)
        return false;
    uint64_t k = pm_key(a, b);
    for (size_t i = hash_mix64(k) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == 0)
            return false;
        if (m->keys[i] == k) {
            *out = m->vals[i];
            return true;
        }
    }
}

static void pm_put(PairMap *m, IgId a, IgId b, IgId v)
{
    if (2 * (m->len + 1) > m->cap) {
        size_t nc = m->cap ? 2 * m->cap : 1024;
        uint64_t *nk = xcalloc(nc, sizeof *nk);
        IgId *nv = xmalloc(nc * sizeof *nv);
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i])
                continue;
            size_t j = hash_mix64(m->keys[i]) & (nc - 1);
            while (nk[j])
                j = (j + 1) & (nc - 1);
            nk[j] = m->keys[i];
            nv[j] = m->vals[i];
        }
        pm_free(m);
        m->keys = nk;
        m->vals = nv;
        m->cap = nc;
    }
    uint64_t k = pm_key(a, b);
    size_t i = hash_mix64(k) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != k)
        i = (i + 1) & (m->cap - 1);
    if (!m->keys[i])
        m->len++;
    m->keys[i] = k;
    m->vals[i] = v;
}

/* ---- the store ---- */

static uint64_t hash_opts(const IgId *o, size_t n)
{
    return hash_bytes(o, n * sizeof *o) ^ hash_mix64(n);
}

static int cmp_id(const void *a, const void *b)
{
    IgId x = *(const IgId *)a, y = *(const IgId *)b;
    return (x > y) - (x < y);
}

/* Sort and remove repeats in place; returns the new length. */
static size_t sort_unique(IgId *o, size_t n)
{
    if (n < 2)
        return n;
    qsort(o, n, sizeof *o, cmp_id);
    size_t m = 1;
    for (size_t i = 1; i < n; i++)
        if (o[i] != o[m - 1])
            o[m++] = o[i];
    return m;
}

static const IgId *node_opts(const IgStore *s, IgId g)
{
    const Node *nd = &s->nodes.data[g];
    return nd->nimsize >= 0 ? s->nim.data : s->pool.data + nd->off;
}

static void rehash(IgStore *s)
{
    size_t nc = s->nslots ? 2 * s->nslots : 1024;
    IgId *ns = xcalloc(nc, sizeof *ns);
    for (size_t id = 0; id < s->nodes.len; id++) {
        const Node *nd = &s->nodes.data[id];
        if (nd->nimsize >= 0)
            continue; /* found through nim[] */
        size_t j = hash_opts(s->pool.data + nd->off, nd->n) & (nc - 1);
        while (ns[j])
            j = (j + 1) & (nc - 1);
        ns[j] = (IgId)id + 1;
    }
    free(s->slots);
    s->slots = ns;
    s->nslots = nc;
}

static uint32_t mex_of(const uint32_t *v, size_t n)
{
    /* the mex of n values is at most n */
    uint8_t small[64];
    uint8_t *seen = n + 1 <= sizeof small ? small : xcalloc(n + 1, 1);
    memset(seen, 0, n + 1);
    for (size_t i = 0; i < n; i++)
        if (v[i] <= n)
            seen[v[i]] = 1;
    uint32_t m = 0;
    while (seen[m])
        m++;
    if (seen != small)
        free(seen);
    return m;
}

static CgtStatus full(const IgStore *s, CgtError *err)
{
    return cgt_error_set(err, CGT_ERR_LIMIT, "explicit games: more than %zu distinct positions",
                         s->limit);
}

/* Make *k for the next k (k = nim.len).  Its values follow from those of
 * its options *0..*(k-1) without looking at them: birthday k, normal nim
 * value mex{0..k-1} = k, misère value G^- = 1, 0, 2, 3, 4, ... (the mex of
 * the options' G^-, with 1 for 0), a misère P-position exactly for *1
 * (whose one option 0 is an N-position; every *k with k >= 2 has the
 * P-option *1).  A nim heap is its own simplest form (no follower has a
 * reversible option: each *j's options are *0..*(j-1), none equal to *j). */
static CgtStatus nim_next(IgStore *s, CgtError *err)
{
    if (s->nodes.len >= s->limit || s->nodes.len >= NO_ID - 1)
        return full(s, err);
    uint32_t k = (uint32_t)s->nim.len;
    IgId id = (IgId)s->nodes.len;
    Node nd = {.off = 0,
               .n = k,
               .canon = id,
               .birthday = k,
               .nimber = k,
               .mval = k == 0 ? 1 : k == 1 ? 0 : k,
               .nimsize = (int32_t)k,
               .p = k == 1};
    VEC_PUSH(s->nodes, nd);
    VEC_PUSH(s->nim, id);
    return CGT_OK;
}

/* o[0..n-1] (sorted by id) is {*0, ..., *(n-1)} */
static bool is_nim_set(const IgStore *s, const IgId *o, size_t n)
{
    return n <= s->nim.len && (n == 0 || memcmp(o, s->nim.data, n * sizeof *o) == 0);
}

/* Intern the sorted, repeat-free option set o[0..n-1]. */
static CgtStatus intern(IgStore *s, const IgId *o, size_t n, IgId *out, CgtError *err)
{
    if (is_nim_set(s, o, n)) {
        if (n == s->nim.len) {
            CgtStatus st = nim_next(s, err);
            if (st != CGT_OK)
                return st;
        }
        *out = s->nim.data[n];
        return CGT_OK;
    }
    uint64_t h = hash_opts(o, n);
    if (s->nslots) {
        for (size_t i = h & (s->nslots - 1); s->slots[i]; i = (i + 1) & (s->nslots - 1)) {
            IgId id = s->slots[i] - 1;
            const Node *nd = &s->nodes.data[id];
            if (nd->n == n && (n == 0 || memcmp(s->pool.data + nd->off, o, n * sizeof *o) == 0)) {
                *out = id;
                return CGT_OK;
            }
        }
    }
    if (s->nodes.len >= s->limit || s->nodes.len >= NO_ID - 1)
        return full(s, err);
    if (s->pool.len + n >= s->pool_limit || s->pool.len + n >= (size_t)UINT32_MAX)
        return cgt_error_set(err, CGT_ERR_LIMIT,
                             "explicit games: more than %zu options in all", s->pool_limit);
    Node nd = {.off = (uint32_t)s->pool.len, .n = (uint32_t)n, .canon = NO_ID};
    uint32_t *vals = xmalloc((n ? n : 1) * sizeof *vals);
    uint32_t bd = 0;
    bool all_n = true;
    for (size_t i = 0; i < n; i++) {
        const Node *c = &s->nodes.data[o[i]];
        if (c->birthday + 1 > bd)
            bd = c->birthday + 1;
        if (c->p)
            all_n = false;
        vals[i] = c->nimber;
    }
    nd.birthday = bd;
    nd.nimber = mex_of(vals, n);
    for (size_t i = 0; i < n; i++)
        vals[i] = s->nodes.data[o[i]].mval;
    nd.mval = n == 0 ? 1 : mex_of(vals, n);
    nd.p = n > 0 && all_n;
    nd.nimsize = -1; /* nim heaps are made by nim_next */
    free(vals);
    for (size_t i = 0; i < n; i++)
        VEC_PUSH(s->pool, o[i]);
    VEC_PUSH(s->nodes, nd);
    IgId id = (IgId)(s->nodes.len - 1);
    if (2 * s->nodes.len > s->nslots)
        rehash(s);
    else {
        size_t i = h & (s->nslots - 1);
        while (s->slots[i])
            i = (i + 1) & (s->nslots - 1);
        s->slots[i] = id + 1;
    }
    *out = id;
    return CGT_OK;
}

IgStore *ig_new(void)
{
    IgStore *s = xcalloc(1, sizeof *s);
    s->limit = IG_DEFAULT_LIMIT;
    s->sum_limit = s->limit;
    s->pool_limit = IG_DEFAULT_OPTION_LIMIT;
    VEC_RESERVE(s->pool, 1024); /* never a NULL pool, even for option-less nodes */
    CgtError e;
    nim_next(s, &e); /* node 0 = *0 = 0 */
    return s;
}

void ig_free(IgStore *s)
{
    if (!s)
        return;
    free(s->nodes.data);
    free(s->pool.data);
    free(s->nim.data);
    free(s->slots);
    pm_free(&s->sums);
    pm_free(&s->csums);
    free(s->eq_gen);
    free(s->eq_val);
    free(s);
}

void ig_set_limit(IgStore *s, size_t max_nodes)
{
    s->limit = max_nodes ? max_nodes : 1;
    /* the same budget of new entries for the memo of literal sums */
    s->sum_limit = s->sums.len + (s->limit > s->nodes.len ? s->limit - s->nodes.len : 0);
}

size_t ig_count(const IgStore *s)
{
    return s->nodes.len;
}

void ig_set_option_limit(IgStore *s, size_t max_entries)
{
    s->pool_limit = max_entries ? max_entries : IG_DEFAULT_OPTION_LIMIT;
}

size_t ig_option_count(const IgStore *s)
{
    return s->pool.len;
}

CgtStatus ig_make(IgStore *s, const IgId *opts, size_t n, IgId *out, CgtError *err)
{
    IgId *o = xmalloc((n ? n : 1) * sizeof *o);
    if (n)
        memcpy(o, opts, n * sizeof *o);
    n = sort_unique(o, n);
    CgtStatus st = intern(s, o, n, out, err);
    free(o);
    return st;
}

CgtStatus ig_nim(IgStore *s, uint32_t n, IgId *out, CgtError *err)
{
    while (s->nim.len <= n) {
        CgtStatus st;
        if ((s->nim.len & 4095) == 0 && (st = cgt_poll()) != CGT_OK)
            return cgt_poll_error(err, st, "explicit games");
        if ((st = nim_next(s, err)) != CGT_OK)
            return st;
    }
    *out = s->nim.data[n];
    return CGT_OK;
}

size_t ig_nopts(const IgStore *s, IgId g)
{
    return s->nodes.data[g].n;
}

const IgId *ig_opts(const IgStore *s, IgId g)
{
    return node_opts(s, g);
}

uint32_t ig_birthday(const IgStore *s, IgId g)
{
    return s->nodes.data[g].birthday;
}

uint32_t ig_nimber(const IgStore *s, IgId g)
{
    return s->nodes.data[g].nimber;
}

uint32_t ig_misere_value(const IgStore *s, IgId g)
{
    return s->nodes.data[g].mval;
}

bool ig_misere_p(const IgStore *s, IgId g)
{
    return s->nodes.data[g].p != 0;
}

long ig_nim_size(const IgStore *s, IgId g)
{
    return s->nodes.data[g].nimsize;
}

CgtStatus ig_size(const IgStore *s, IgId g, size_t *out, CgtError *err)
{
    /* the nim heaps among the followers are *0..*m for the largest *m
       met: count them at the end instead of walking their options */
    long maxnim = s->nodes.data[g].nimsize;
    uint8_t *seen = xcalloc(s->nodes.len, 1);
    VEC(IgId) stack = {0};
    if (maxnim < 0) {
        VEC_PUSH(stack, g);
        seen[g] = 1;
    }
    size_t count = 0;
    CgtStatus st = CGT_OK;
    while (stack.len) {
        if ((count & 4095) == 0 && (st = cgt_poll()) != CGT_OK) {
            cgt_poll_error(err, st, "positions");
            break;
        }
        IgId x = stack.data[--stack.len];
        count++;
        const IgId *o = node_opts(s, x);
        for (uint32_t i = 0; i < s->nodes.data[x].n; i++) {
            long k = s->nodes.data[o[i]].nimsize;
            if (k >= 0) {
                if (k > maxnim)
                    maxnim = k;
            } else if (!seen[o[i]]) {
                seen[o[i]] = 1;
                VEC_PUSH(stack, o[i]);
            }
        }
    }
    free(stack.data);
    free(seen);
    *out = count + (size_t)(maxnim + 1);
    return st;
}

/* ---- misère equality of a pending game and a canonical one ---- */

/* The game G = {S[0..n-1]} (canonical options, sorted, no repeats) whose
 * own canonical form is being decided; pG = G is a misère P-position. */
typedef struct Pending {
    const IgId *S;
    size_t n;
    bool pG;
} Pending;

static bool eq_pending(IgStore *s, const Pending *G, IgId K);

static bool contains(const IgId *o, size_t n, IgId x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (o[mid] == x)
            return true;
        if (o[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* G linked to the canonical B: G differs from every B', every G' differs
 * from B. */
static bool linked_pending(IgStore *s, const Pending *G, IgId B)
{
    if (contains(G->S, G->n, B))
        return false;
    const Node *b = &s->nodes.data[B];
    const IgId *bo = node_opts(s, B);
    for (uint32_t i = 0; i < b->n; i++)
        if (eq_pending(s, G, bo[i]))
            return false;
    return true;
}

/* Two canonical games A and B linked. */
static bool linked_canon(const IgStore *s, IgId A, IgId B)
{
    const Node *a = &s->nodes.data[A], *b = &s->nodes.data[B];
    return !contains(node_opts(s, A), a->n, B) && !contains(node_opts(s, B), b->n, A);
}

static bool eq_pending(IgStore *s, const Pending *G, IgId K)
{
    if (G->n == 0)
        return K == IG_ZERO;
    if (stopped(s))
        return false; /* the reduction is abandoned: the value is not used */
    if (s->eq_gen[K] == s->gen)
        return s->eq_val[K] != 0;
    bool eq = true;
    const Node *k = &s->nodes.data[K];
    if (K == IG_ZERO && G->pG)
        eq = false; /* the endgame T = 0 tells them apart */
    const IgId *ko = node_opts(s, K);
    for (uint32_t i = 0; eq && i < k->n; i++)
        if (linked_pending(s, G, ko[i]))
            eq = false;
    for (size_t i = 0; eq && i < G->n; i++)
        if (linked_canon(s, G->S[i], K))
            eq = false;
    s->eq_gen[K] = s->gen;
    s->eq_val[K] = eq;
    return eq;
}

static void eq_begin(IgStore *s)
{
    if (s->eq_cap < s->nodes.len) {
        size_t nc = s->eq_cap ? s->eq_cap : 1024;
        while (nc < s->nodes.len)
            nc *= 2;
        s->eq_gen = xrealloc(s->eq_gen, nc * sizeof *s->eq_gen);
        s->eq_val = xrealloc(s->eq_val, nc);
        memset(s->eq_gen + s->eq_cap, 0, (nc - s->eq_cap) * sizeof *s->eq_gen);
        s->eq_cap = nc;
    }
    if (++s->gen == 0) {
        memset(s->eq_gen, 0, s->eq_cap * sizeof *s->eq_gen);
        s->gen = 1;
    }
}

/* The game {S} with canonical options S (sorted, no repeats): if some
 * option has an option G'' equal to it, that G'' (returned in *to,
 * result true); otherwise false.  Stopped by a poll (s->stop set), the
 * result means nothing. */
static bool reversible(IgStore *s, const IgId *S, size_t n, IgId *to)
{
    if (is_nim_set(s, S, n))
        return false; /* *n is in simplest form (nim_next) */
    Pending G = {S, n, n > 0};
    for (size_t i = 0; i < n; i++)
        if (s->nodes.data[S[i]].p)
            G.pG = false;
    eq_begin(s);
    for (size_t i = 0; i < n; i++) {
        const Node *h = &s->nodes.data[S[i]];
        const IgId *ho = node_opts(s, S[i]);
        for (uint32_t j = 0; j < h->n; j++)
            if (eq_pending(s, &G, ho[j])) {
                *to = ho[j];
                return true;
            }
    }
    return false;
}

/* Canonical form of {S}, S canonical, sorted, without repeats. */
static CgtStatus canon_set(IgStore *s, const IgId *S, size_t n, IgId *out, CgtError *err)
{
    IgId to;
    bool rev = reversible(s, S, n, &to);
    if (s->stop != CGT_OK)
        return stop_error(s, err);
    if (rev) {
        *out = to;
        return CGT_OK;
    }
    CgtStatus st = intern(s, S, n, out, err);
    if (st == CGT_OK)
        s->nodes.data[*out].canon = *out;
    return st;
}

CgtStatus ig_canon(IgStore *s, IgId g, IgId *out, CgtError *err)
{
    if (s->nodes.data[g].canon != NO_ID) {
        *out = s->nodes.data[g].canon;
        return CGT_OK;
    }
    if (stopped(s))
        return stop_error(s, err);
    size_t n = s->nodes.data[g].n;
    IgId *o = xmalloc((n ? n : 1) * sizeof *o);
    memcpy(o, node_opts(s, g), n * sizeof *o);
    CgtStatus st = CGT_OK;
    for (size_t i = 0; i < n && st == CGT_OK; i++)
        st = ig_canon(s, o[i], &o[i], err);
    if (st == CGT_OK) {
        n = sort_unique(o, n);
        st = canon_set(s, o, n, out, err);
    }
    free(o);
    if (st == CGT_OK)
        s->nodes.data[g].canon = *out;
    return st;
}

/* ---- sums ---- */

typedef CgtStatus (*SumFn)(IgStore *s, IgId a, IgId b, IgId *out, CgtError *err);

/* Options of a + b: a' + b and a + b' (with sum), into a new array. */
static CgtStatus sum_options(IgStore *s, IgId a, IgId b, SumFn sum, IgId **opts, size_t *n,
                             CgtError *err)
{
    size_t na = s->nodes.data[a].n, nb = s->nodes.data[b].n;
    IgId *o = xmalloc((na + nb + 1) * sizeof *o);
    memcpy(o, node_opts(s, a), na * sizeof *o);
    memcpy(o + na, node_opts(s, b), nb * sizeof *o);
    CgtStatus st = cgt_poll();
    if (st != CGT_OK)
        cgt_poll_error(err, st, "explicit games");
    for (size_t i = 0; i < na + nb && st == CGT_OK; i++)
        st = i < na ? sum(s, o[i], b, &o[i], err) : sum(s, a, o[i], &o[i], err);
    if (st != CGT_OK) {
        free(o);
        return st;
    }
    *opts = o;
    *n = na + nb;
    return CGT_OK;
}

CgtStatus ig_sum(IgStore *s, IgId a, IgId b, IgId *out, CgtError *err)
{
    if (a == IG_ZERO || b == IG_ZERO) {
        *out = a == IG_ZERO ? b : a;
        return CGT_OK;
    }
    if (a > b) {
        IgId t = a;
        a = b;
        b = t;
    }
    if (pm_get(&s->sums, a, b, out))
        return CGT_OK;
    /* distinct pairs cost work even when their sums coincide: bound them
       by the node cap as well */
    if (s->sums.len >= s->sum_limit)
        return cgt_error_set(err, CGT_ERR_LIMIT, "explicit games: more than %zu sums",
                             s->limit);
    IgId *o;
    size_t n;
    CgtStatus st = sum_options(s, a, b, ig_sum, &o, &n, err);
    if (st != CGT_OK)
        return st;
    st = ig_make(s, o, n, out, err);
    free(o);
    if (st == CGT_OK)
        pm_put(&s->sums, a, b, *out);
    return st;
}

static CgtStatus csum(IgStore *s, IgId a, IgId b, IgId *out, CgtError *err)
{
    if (a == IG_ZERO || b == IG_ZERO) {
        *out = a == IG_ZERO ? b : a;
        return CGT_OK;
    }
    if (a > b) {
        IgId t = a;
        a = b;
        b = t;
    }
    if (pm_get(&s->csums, a, b, out))
        return CGT_OK;
    IgId *o;
    size_t n;
    CgtStatus st = sum_options(s, a, b, csum, &o, &n, err);
    if (st != CGT_OK)
        return st;
    n = sort_unique(o, n);
    st = canon_set(s, o, n, out, err);
    free(o);
    if (st == CGT_OK)
        pm_put(&s->csums, a, b, *out);
    return st;
}

CgtStatus ig_sum_canon(IgStore *s, IgId a, IgId b, IgId *out, CgtError *err)
{
    CgtStatus st = ig_canon(s, a, &a, err);
    if (st == CGT_OK)
        st = ig_canon(s, b, &b, err);
    if (st == CGT_OK)
        st = csum(s, a, b, out, err);
    return st;
}

/* ---- genus ---- */

CgtStatus ig_genus(IgStore *s, IgId g, Genus *out, CgtError *err)
{
    IgId cur, two;
    CgtStatus st = ig_canon(s, g, &cur, err);
    if (st == CGT_OK)
        st = ig_nim(s, 2, &two, err);
    if (st != CGT_OK)
        return st;
    out->g = s->nodes.data[cur].nimber;
    for (int k = 0; k < GENUS_LEN; k++) {
        out->gamma[k] = s->nodes.data[cur].mval;
        if (k + 1 < GENUS_LEN && (st = csum(s, cur, two, &cur, err)) != CGT_OK)
            return st;
    }
    /* least j with γk = γ(k+2) for all j <= k < GENUS_LEN-2, as src/lib/heap/genus.c */
    int j = GENUS_LEN - 2;
    while (j > 0 && out->gamma[j - 1] == out->gamma[j + 1])
        j--;
    if (j > GENUS_LEN - 5)
        return cgt_error_set(err, CGT_ERR_LIMIT, "genus does not settle within %d terms",
                             GENUS_LEN);
    out->shown = (unsigned)j + 2;
    return CGT_OK;
}

/* ---- heaps of a ruleset ---- */

CgtStatus ig_heaps(IgStore *s, const HeapGame *hg, uint32_t n, bool canonical, IgId *heaps,
                   CgtError *err)
{
    HeapOptions ho;
    heapopts_init(&ho);
    CgtStatus st = CGT_OK;
    VEC(IgId) o = {0};
    for (uint32_t k = 0; k <= n && st == CGT_OK; k++) {
        st = hg->options(hg->ctx, k, &ho, err);
        o.len = 0;
        for (size_t i = 0; i < ho.count && st == CGT_OK; i++) {
            IgId x = IG_ZERO;
            for (size_t j = ho.start[i]; j < ho.start[i + 1] && st == CGT_OK; j++)
                st = canonical ? csum(s, x, heaps[ho.parts[j]], &x, err)
                               : ig_sum(s, x, heaps[ho.parts[j]], &x, err);
            VEC_PUSH(o, x);
        }
        if (st != CGT_OK)
            break;
        if (canonical) {
            size_t m = sort_unique(o.data, o.len);
            st = canon_set(s, o.data, m, &heaps[k], err);
        } else {
            st = ig_make(s, o.data, o.len, &heaps[k], err);
        }
        if (st == CGT_OK && (st = cgt_poll()) != CGT_OK)
            cgt_poll_error(err, st, "explicit heap games");
    }
    free(o.data);
    heapopts_free(&ho);
    return st;
}

/* ---- games born by day d ---- */

/* The simplest forms whose options lie in prev[0..m-1] (sorted ids). */
static CgtStatus next_day(IgStore *s, const IgId *prev, size_t m, IgId *out, size_t *n,
                          CgtError *err)
{
    IgId S[IG_BORN_LIST_MAX];
    size_t cnt = 0;
    for (uint64_t mask = 0; mask < ((uint64_t)1 << m); mask++) {
        size_t k = 0;
        for (size_t i = 0; i < m; i++)
            if (mask >> i & 1)
                S[k++] = prev[i];
        IgId to;
        bool rev = reversible(s, S, k, &to);
        if (s->stop != CGT_OK)
            return stop_error(s, err);
        if (rev)
            continue;
        if (cnt >= IG_BORN_LIST_MAX)
            return cgt_error_set(err, CGT_ERR_INTERNAL, "more games born by a day than expected");
        CgtStatus st = intern(s, S, k, &out[cnt], err);
        if (st != CGT_OK)
            return st;
        s->nodes.data[out[cnt]].canon = out[cnt];
        cnt++;
    }
    *n = sort_unique(out, cnt);
    return CGT_OK;
}

CgtStatus ig_born_list(IgStore *s, unsigned d, IgId *out, size_t *n, CgtError *err)
{
    if (d > IG_BORN_LIST_DAY)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "games born by day %u are not listed (days 0..%d only)", d,
                             IG_BORN_LIST_DAY);
    IgId cur[IG_BORN_LIST_MAX] = {IG_ZERO};
    size_t m = 1;
    for (unsigned day = 1; day <= d; day++) {
        IgId next[IG_BORN_LIST_MAX];
        size_t k = 0;
        CgtStatus st = next_day(s, cur, m, next, &k, err);
        if (st != CGT_OK)
            return st;
        memcpy(cur, next, k * sizeof *cur);
        m = k;
    }
    memcpy(out, cur, m * sizeof *out);
    *n = m;
    return CGT_OK;
}

CgtStatus ig_born_count(IgStore *s, unsigned d, uint64_t *count, CgtError *err)
{
    if (d > IG_BORN_COUNT_DAY)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "games born by day %u are not counted (days 0..%d only)", d,
                             IG_BORN_COUNT_DAY);
    if (d <= IG_BORN_LIST_DAY) {
        IgId l[IG_BORN_LIST_MAX];
        size_t n;
        CgtStatus st = ig_born_list(s, d, l, &n, err);
        *count = n;
        return st;
    }
    IgId prev[IG_BORN_LIST_MAX];
    size_t m;
    CgtStatus st = ig_born_list(s, d - 1, prev, &m, err);
    if (st != CGT_OK)
        return st;
    /* every simplest form born by day 5 is an irreducible set of day-4
     * forms, and distinct sets are distinct games: count those sets */
    uint64_t cnt = 0;
    IgId S[IG_BORN_LIST_MAX];
    for (uint64_t mask = 0; mask < ((uint64_t)1 << m); mask++) {
        if ((mask & 0xfff) == 0 && (st = cgt_poll()) != CGT_OK)
            return cgt_poll_error(err, st, "counting games born by day 5");
        size_t k = 0;
        for (size_t i = 0; i < m; i++)
            if (mask >> i & 1)
                S[k++] = prev[i];
        IgId to;
        bool rev = reversible(s, S, k, &to);
        if (s->stop != CGT_OK)
            return stop_error(s, err);
        if (!rev)
            cnt++;
    }
    *count = cnt;
    return CGT_OK;
}
