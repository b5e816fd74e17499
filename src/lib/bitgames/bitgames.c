/* Memoised Grundy searches for the games of Huggan and Tennenhouse (arXiv
 * 2021): ga1 and ga2 on bit strings and on run lengths, crossover-mutation
 * on pairs of strings, arc kayles on graphs (components) and cram on boards
 * (components cut to bounding boxes, 8 symmetries).  Searches recurse on
 * 64-bit state words; a value of -1 inside the recursion means "error set". */
#include "lib/bitgames/bitgames.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* ---- memo table: open addressing on (k0, k1); k1 == 0 marks a free slot */

struct BitMemo {
    uint64_t *k0, *k1;
    int32_t *val;
    size_t cap, len;
};

enum { TAG_GA1 = 1, TAG_GA2, TAG_CM, TAG_GA2H, TAG_CRAM, TAG_ARC };

static uint64_t tag_key(int tag, uint64_t rest)
{
    return ((uint64_t)tag << 56) | rest;
}

BitMemo *bitmemo_new(void)
{
    BitMemo *m = xcalloc(1, sizeof *m);
    m->cap = 1024;
    m->k0 = xcalloc(m->cap, sizeof *m->k0);
    m->k1 = xcalloc(m->cap, sizeof *m->k1);
    m->val = xcalloc(m->cap, sizeof *m->val);
    return m;
}

void bitmemo_free(BitMemo *m)
{
    if (!m)
        return;
    free(m->k0);
    free(m->k1);
    free(m->val);
    free(m);
}

static size_t memo_slot(const BitMemo *m, uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ULL ^ (b + 0x632be59bd9b4e019ULL);
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (size_t)h & (m->cap - 1);
}

static int memo_get(const BitMemo *m, uint64_t a, uint64_t b)
{
    for (size_t i = memo_slot(m, a, b);; i = (i + 1) & (m->cap - 1)) {
        if (m->k1[i] == 0)
            return -1;
        if (m->k1[i] == b && m->k0[i] == a)
            return m->val[i];
    }
}

static void memo_put(BitMemo *m, uint64_t a, uint64_t b, int v)
{
    if (2 * (m->len + 1) > m->cap) {
        BitMemo old = *m;
        m->cap *= 2;
        m->k0 = xcalloc(m->cap, sizeof *m->k0);
        m->k1 = xcalloc(m->cap, sizeof *m->k1);
        m->val = xcalloc(m->cap, sizeof *m->val);
        m->len = 0;
        for (size_t i = 0; i < old.cap; i++)
            if (old.k1[i])
                memo_put(m, old.k0[i], old.k1[i], old.val[i]);
        free(old.k0);
        free(old.k1);
        free(old.val);
    }
    size_t i = memo_slot(m, a, b);
    while (m->k1[i] != 0 && !(m->k1[i] == b && m->k0[i] == a))
        i = (i + 1) & (m->cap - 1);
    if (m->k1[i] == 0)
        m->len++;
    m->k0[i] = a;
    m->k1[i] = b;
    m->val[i] = v;
}

/* ---- mex over values < 1024 (a Grundy value never exceeds the number of
 * options, and every search here has fewer than 1024 options per node) */

typedef struct {
    uint64_t w[16];
} Mex;

static void mex_add(Mex *x, int v)
{
    if (v >= 0 && v < 1024)
        x->w[v >> 6] |= 1ULL << (v & 63);
}

static int mex_get(const Mex *x)
{
    for (int i = 0; i < 16; i++)
        if (~x->w[i])
            return i * 64 + __builtin_ctzll(~x->w[i]);
    return 1024;
}

static uint64_t lowmask(int k)
{
    return k >= 64 ? ~0ULL : (1ULL << k) - 1;
}

static int poll_node(CgtError *err)
{
    CgtStatus st = cgt_poll();
    if (st != CGT_OK) {
        cgt_poll_error(err, st, "grundy search");
        return -1;
    }
    return 0;
}

/* ---- bit strings */

int bit_entropy(const char *bits)
{
    int e = 0;
    for (size_t i = 0; bits[i]; i++) {
        if (bits[i] != '0' && bits[i] != '1')
            return -1;
        if (i > 0 && bits[i] != bits[i - 1])
            e++;
    }
    return e;
}

int bit_runs(const char *bits, int *runs, int cap)
{
    int k = 0;
    for (size_t i = 0; bits[i]; i++) {
        if (bits[i] != '0' && bits[i] != '1')
            return -1;
        if (i == 0 || bits[i] != bits[i - 1]) {
            if (k < cap)
                runs[k] = 0;
            k++;
        }
        if (k - 1 < cap)
            runs[k - 1]++;
    }
    return k;
}

static int ent64(uint64_t b, int n)
{
    if (n < 2)
        return 0;
    return __builtin_popcountll((b ^ (b >> 1)) & lowmask(n - 1));
}

static uint64_t rev64(uint64_t b, int n)
{
    uint64_t r = 0;
    for (int i = 0; i < n; i++)
        if (b >> i & 1)
            r |= 1ULL << (n - 1 - i);
    return r;
}

static CgtStatus parse_bits(const char *s, int maxlen, uint64_t *b, int *n, CgtError *err)
{
    size_t len = strlen(s);
    if ((int)len > maxlen || len > 64)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "bit string of length %zu is too long (at most %d)", len, maxlen);
    *b = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '1')
            *b |= 1ULL << i;
        else if (s[i] != '0')
            return cgt_error_set(err, CGT_ERR_DOMAIN, "bad character '%c' in bit string \"%s\"",
                                 s[i], s);
    }
    *n = (int)len;
    return CGT_OK;
}

/* Complement and reversal commute with the move sets of ga1 and ga2 up to a
 * global complement (a suffix flip is a prefix flip followed by
 * complementing the whole string), so they preserve Grundy values. */
static uint64_t canon_string(uint64_t b, int n)
{
    uint64_t m = lowmask(n), r = rev64(b, n);
    uint64_t c[4] = {b, ~b & m, r, ~r & m};
    uint64_t best = c[0];
    for (int i = 1; i < 4; i++)
        if (c[i] < best)
            best = c[i];
    return best;
}

static int ga_search(BitMemo *memo, int tag, uint64_t b, int n, CgtError *err)
{
    b = canon_string(b, n);
    uint64_t k1 = tag_key(tag, (uint64_t)n);
    int v = memo_get(memo, b, k1);
    if (v >= 0)
        return v;
    if (poll_node(err))
        return -1;
    int e = ent64(b, n);
    Mex mx = {{0}};
    if (tag == TAG_GA1) {
        /* Ruleset 2.1: crossover flips positions 1..k, 1 <= k <= n-1;
         * mutation flips one bit. */
        for (int k = 1; k < n; k++) {
            uint64_t c = b ^ lowmask(k);
            if (ent64(c, n) > e) {
                int g = ga_search(memo, tag, c, n, err);
                if (g < 0)
                    return -1;
                mex_add(&mx, g);
            }
        }
        for (int i = 0; i < n; i++) {
            uint64_t c = b ^ (1ULL << i);
            if (ent64(c, n) > e) {
                int g = ga_search(memo, tag, c, n, err);
                if (g < 0)
                    return -1;
                mex_add(&mx, g);
            }
        }
    } else {
        /* Ruleset 3.1: flip positions x..y-1 with 1 <= x < y <= n, i.e.
         * 0-based blocks [i, j] with 0 <= i <= j <= n-2. */
        for (int i = 0; i + 1 < n; i++)
            for (int j = i; j + 1 < n; j++) {
                uint64_t c = b ^ (lowmask(j + 1) & ~lowmask(i));
                if (ent64(c, n) > e) {
                    int g = ga_search(memo, tag, c, n, err);
                    if (g < 0)
                        return -1;
                    mex_add(&mx, g);
                }
            }
    }
    v = mex_get(&mx);
    memo_put(memo, b, k1, v);
    return v;
}

static CgtStatus ga_entry(BitMemo *m, int tag, const char *bits, int *out, CgtError *err)
{
    uint64_t b;
    int n;
    CgtStatus st = parse_bits(bits, BIT_GA_MAX_LEN, &b, &n, err);
    if (st != CGT_OK)
        return st;
    BitMemo *own = m ? NULL : bitmemo_new();
    int v = ga_search(m ? m : own, tag, b, n, err);
    bitmemo_free(own);
    if (v < 0)
        return err->status;
    *out = v;
    return CGT_OK;
}

CgtStatus bit_ga1_grundy(BitMemo *m, const char *bits, int *out, CgtError *err)
{
    return ga_entry(m, TAG_GA1, bits, out, err);
}

CgtStatus bit_ga2_grundy(BitMemo *m, const char *bits, int *out, CgtError *err)
{
    return ga_entry(m, TAG_GA2, bits, out, err);
}

/* ---- heap forms */

void bit_ga1_heap_values(int max, int *out)
{
    for (int h = 0; h <= max; h++) {
        Mex mx = {{0}};
        /* prefix flip inside the run: (a, b), a + b = h */
        for (int a = 1; 2 * a <= h; a++)
            mex_add(&mx, out[a] ^ out[h - a]);
        /* single-bit flip inside the run: (a, 1, b), a + b = h - 1 */
        for (int a = 1; 2 * a <= h - 1; a++)
            mex_add(&mx, out[a] ^ out[h - 1 - a]);
        out[h] = mex_get(&mx);
    }
}

void bit_kayles_values(int max, int *out)
{
    for (int n = 0; n <= max; n++) {
        Mex mx = {{0}};
        for (int t = 1; t <= 2 && t <= n; t++)
            for (int a = 0; 2 * a <= n - t; a++)
                mex_add(&mx, out[a] ^ out[n - t - a]);
        out[n] = mex_get(&mx);
    }
}

int bit_ga2_formula(const int *heaps, int k)
{
    long s = 0;
    for (int i = 0; i < k; i++)
        s += heaps[i] - 1;
    return (int)(((s % 3) + 3) % 3);
}

/* A ga2 heap multiset: heaps >= 2 sorted descending, packed 5 bits each
 * (twelve in k0, eleven in k1 below the tag). */
typedef struct {
    int h[BIT_GA2_MAX_HEAPS + 4];
    int k;
} Heaps;

static void heaps_sort(Heaps *x)
{
    for (int i = 1; i < x->k; i++) {
        int v = x->h[i], j = i;
        while (j > 0 && x->h[j - 1] < v) {
            x->h[j] = x->h[j - 1];
            j--;
        }
        x->h[j] = v;
    }
}

static void heaps_push(Heaps *x, int v)
{
    if (v >= 2)
        x->h[x->k++] = v;
}

static int ga2h_search(BitMemo *memo, const Heaps *x, CgtError *err);

/* Value of x minus heaps i and j (j = -1: only i) plus `parts`. */
static int ga2h_option(BitMemo *memo, const Heaps *x, int i, int j, const int *parts, int np,
                       CgtError *err)
{
    Heaps y;
    y.k = 0;
    for (int t = 0; t < x->k; t++)
        if (t != i && t != j)
            y.h[y.k++] = x->h[t];
    for (int t = 0; t < np; t++)
        heaps_push(&y, parts[t]);
    heaps_sort(&y);
    return ga2h_search(memo, &y, err);
}

static int ga2h_search(BitMemo *memo, const Heaps *x, CgtError *err)
{
    if (x->k == 0)
        return 0;
    uint64_t k0 = 0, k1 = 0;
    for (int t = 0; t < x->k; t++) {
        if (t < 12)
            k0 |= (uint64_t)x->h[t] << (5 * t);
        else
            k1 |= (uint64_t)x->h[t] << (5 * (t - 12));
    }
    k1 = tag_key(TAG_GA2H, k1);
    int v = memo_get(memo, k0, k1);
    if (v >= 0)
        return v;
    if (poll_node(err))
        return -1;
    Mex mx = {{0}};
    for (int i = 0; i < x->k; i++) {
        if (i > 0 && x->h[i] == x->h[i - 1])
            continue;
        int h = x->h[i];
        for (int a = 1; 2 * a <= h; a++) {
            int p[2] = {a, h - a};
            int g = ga2h_option(memo, x, i, -1, p, 2, err);
            if (g < 0)
                return -1;
            mex_add(&mx, g);
        }
        for (int a = 1; 3 * a <= h; a++)
            for (int b = a; a + 2 * b <= h; b++) {
                int p[3] = {a, b, h - a - b};
                int g = ga2h_option(memo, x, i, -1, p, 3, err);
                if (g < 0)
                    return -1;
                mex_add(&mx, g);
            }
        for (int j = i + 1; j < x->k; j++) {
            if (j > i + 1 && x->h[j] == x->h[j - 1])
                continue;
            int hj = x->h[j];
            for (int a = 1; 2 * a <= h; a++)
                for (int c = 1; 2 * c <= hj; c++) {
                    int p[4] = {a, h - a, c, hj - c};
                    int g = ga2h_option(memo, x, i, j, p, 4, err);
                    if (g < 0)
                        return -1;
                    mex_add(&mx, g);
                }
        }
    }
    v = mex_get(&mx);
    memo_put(memo, k0, k1, v);
    return v;
}

CgtStatus bit_ga2_heaps_grundy(BitMemo *m, const int *heaps, int k, int *out, CgtError *err)
{
    Heaps x;
    x.k = 0;
    for (int i = 0; i < k; i++) {
        if (heaps[i] < 1 || heaps[i] > BIT_GA2_MAX_HEAP)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "ga2 heap %d out of range (1..%d)", heaps[i],
                                 BIT_GA2_MAX_HEAP);
        if (heaps[i] >= 2) {
            if (x.k == BIT_GA2_MAX_HEAPS)
                return cgt_error_set(err, CGT_ERR_DOMAIN,
                                     "too many ga2 heaps of size at least 2 (at most %d)",
                                     BIT_GA2_MAX_HEAPS);
            x.h[x.k++] = heaps[i];
        }
    }
    /* every option of a position with s stones and j heaps >= 2 still has s
     * stones, so the number of heaps >= 2 never exceeds s / 2 */
    int s = 0;
    for (int i = 0; i < x.k; i++)
        s += x.h[i];
    if (s / 2 > BIT_GA2_MAX_HEAPS)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "ga2 position with %d stones is too big for the heap search "
                             "(at most %d)",
                             s, 2 * BIT_GA2_MAX_HEAPS + 1);
    heaps_sort(&x);
    BitMemo *own = m ? NULL : bitmemo_new();
    int v = ga2h_search(m ? m : own, &x, err);
    bitmemo_free(own);
    if (v < 0)
        return err->status;
    *out = v;
    return CGT_OK;
}

/* ---- crossover-mutation */

static uint64_t cm_pack(uint64_t a, uint64_t b)
{
    return a | (b << 32);
}

/* Symmetries: swapping the strings, reversing both (a suffix swap is a
 * prefix swap followed by exchanging the strings), complementing both. */
static uint64_t cm_canon(uint64_t a, uint64_t b, int n)
{
    uint64_t m = lowmask(n), best = ~0ULL;
    for (int r = 0; r < 2; r++) {
        uint64_t x = r ? rev64(a, n) : a, y = r ? rev64(b, n) : b;
        for (int c = 0; c < 2; c++) {
            uint64_t xx = c ? ~x & m : x, yy = c ? ~y & m : y;
            uint64_t k = cm_pack(xx, yy), k2 = cm_pack(yy, xx);
            if (k < best)
                best = k;
            if (k2 < best)
                best = k2;
        }
    }
    return best;
}

static int cm_search(BitMemo *memo, uint64_t a, uint64_t b, int n, CgtError *err)
{
    uint64_t key = cm_canon(a, b, n), k1 = tag_key(TAG_CM, (uint64_t)n);
    int v = memo_get(memo, key, k1);
    if (v >= 0)
        return v;
    if (poll_node(err))
        return -1;
    a = key & 0xffffffffULL;
    b = key >> 32;
    int e = ent64(a, n) + ent64(b, n);
    Mex mx = {{0}};
    for (int k = 1; k < n; k++) {
        uint64_t m = lowmask(k);
        uint64_t a2 = (a & ~m) | (b & m), b2 = (b & ~m) | (a & m);
        if (ent64(a2, n) + ent64(b2, n) > e) {
            int g = cm_search(memo, a2, b2, n, err);
            if (g < 0)
                return -1;
            mex_add(&mx, g);
        }
    }
    for (int s = 0; s < 2; s++)
        for (int i = 0; i < n; i++) {
            uint64_t a2 = s ? a : a ^ (1ULL << i), b2 = s ? b ^ (1ULL << i) : b;
            if (ent64(a2, n) + ent64(b2, n) > e) {
                int g = cm_search(memo, a2, b2, n, err);
                if (g < 0)
                    return -1;
                mex_add(&mx, g);
            }
        }
    v = mex_get(&mx);
    memo_put(memo, key, k1, v);
    return v;
}

/* The two strings of a crossover-mutation position, of equal length n. */
static CgtStatus parse_cm_pair(const char *a, const char *b, uint64_t *x, uint64_t *y, int *n,
                               CgtError *err)
{
    int n2;
    CgtStatus st = parse_bits(a, BIT_CM_MAX_LEN, x, n, err);
    if (st == CGT_OK)
        st = parse_bits(b, BIT_CM_MAX_LEN, y, &n2, err);
    if (st != CGT_OK)
        return st;
    if (*n != n2)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "crossover-mutation strings have different lengths (%d and %d)", *n,
                             n2);
    return CGT_OK;
}

CgtStatus bit_cm_grundy(BitMemo *m, const char *a, const char *b, int *out, CgtError *err)
{
    uint64_t x, y;
    int n;
    CgtStatus st = parse_cm_pair(a, b, &x, &y, &n, err);
    if (st != CGT_OK)
        return st;
    BitMemo *own = m ? NULL : bitmemo_new();
    int v = cm_search(m ? m : own, x, y, n, err);
    bitmemo_free(own);
    if (v < 0)
        return err->status;
    *out = v;
    return CGT_OK;
}

/* A mutation of bit i (0-based) is legal iff every existing neighbour of
 * the bit equals it; a crossover at k (1..n-1) iff a_k != b_k and both
 * boundaries k are equal pairs.  A mutation kills exactly the moves at its
 * two boundaries, a crossover those at boundary k of both strings (and
 * swaps the parts left of k, which are then disconnected from the rest):
 * hence the game is arc kayles on this graph. */
CgtStatus bit_cm_arc_graph(const char *a, const char *b, int *nv, int *edges, int cap, int *ne,
                           CgtError *err)
{
    uint64_t x, y;
    int n;
    CgtStatus st = parse_cm_pair(a, b, &x, &y, &n, err);
    if (st != CGT_OK)
        return st;
    int m = 0;
    uint64_t s[2] = {x, y};
    for (int t = 0; t < 2; t++)
        for (int i = 0; i < n; i++) {
            int bit = (int)(s[t] >> i & 1);
            int left = i == 0 || (int)(s[t] >> (i - 1) & 1) == bit;
            int right = i == n - 1 || (int)(s[t] >> (i + 1) & 1) == bit;
            if (n >= 2 && left && right) {
                if (m == cap)
                    return cgt_error_set(err, CGT_ERR_DOMAIN, "cm graph needs more than %d edges",
                                         cap);
                edges[2 * m] = t * (n + 1) + i;
                edges[2 * m + 1] = t * (n + 1) + i + 1;
                m++;
            }
        }
    for (int k = 1; k < n; k++) {
        int ak = (int)(x >> (k - 1) & 1), bk = (int)(y >> (k - 1) & 1);
        int aeq = ak == (int)(x >> k & 1), beq = bk == (int)(y >> k & 1);
        if (ak != bk && aeq && beq) {
            if (m == cap)
                return cgt_error_set(err, CGT_ERR_DOMAIN, "cm graph needs more than %d edges", cap);
            edges[2 * m] = k;
            edges[2 * m + 1] = n + 1 + k;
            m++;
        }
    }
    *nv = 2 * (n + 1);
    *ne = m;
    return CGT_OK;
}

/* ---- arc kayles: a move deletes both endpoints of an edge */

typedef struct {
    uint64_t adj[BIT_ARC_MAX_VERTICES];
    BitMemo *memo;
} Arc;

static int arc_comp(Arc *g, uint64_t comp, CgtError *err);

static int arc_board(Arc *g, uint64_t mask, CgtError *err)
{
    uint64_t live = 0;
    for (uint64_t t = mask; t; t &= t - 1) {
        int v = __builtin_ctzll(t);
        if (g->adj[v] & mask)
            live |= 1ULL << v;
    }
    int x = 0;
    while (live) {
        uint64_t comp = live & -live, grow = comp;
        while (grow) {
            uint64_t nb = 0;
            for (uint64_t t = grow; t; t &= t - 1)
                nb |= g->adj[__builtin_ctzll(t)];
            nb &= live & ~comp;
            comp |= nb;
            grow = nb;
        }
        live &= ~comp;
        int v = arc_comp(g, comp, err);
        if (v < 0)
            return -1;
        x ^= v;
    }
    return x;
}

static int arc_comp(Arc *g, uint64_t comp, CgtError *err)
{
    uint64_t k1 = tag_key(TAG_ARC, 0);
    int v = memo_get(g->memo, comp, k1);
    if (v >= 0)
        return v;
    if (poll_node(err))
        return -1;
    Mex mx = {{0}};
    for (uint64_t t = comp; t; t &= t - 1) {
        int u = __builtin_ctzll(t);
        uint64_t nb = g->adj[u] & comp & ~lowmask(u + 1);
        for (; nb; nb &= nb - 1) {
            int w = __builtin_ctzll(nb);
            int o = arc_board(g, comp & ~(1ULL << u) & ~(1ULL << w), err);
            if (o < 0)
                return -1;
            mex_add(&mx, o);
        }
    }
    v = mex_get(&mx);
    memo_put(g->memo, comp, k1, v);
    return v;
}

CgtStatus bit_arc_kayles_grundy(int nv, const int *edges, int ne, int *out, CgtError *err)
{
    if (nv < 0 || nv > BIT_ARC_MAX_VERTICES)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "arc kayles graph has %d vertices (at most %d)",
                             nv, BIT_ARC_MAX_VERTICES);
    if (ne < 0 || ne > BIT_ARC_MAX_EDGES)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "arc kayles graph has %d edges (at most %d)", ne,
                             BIT_ARC_MAX_EDGES);
    Arc g;
    memset(g.adj, 0, sizeof g.adj);
    for (int i = 0; i < ne; i++) {
        int u = edges[2 * i], w = edges[2 * i + 1];
        if (u < 0 || u >= nv || w < 0 || w >= nv)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "edge %d-%d names a vertex outside 0..%d", u,
                                 w, nv - 1);
        if (u == w)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "loop at vertex %d in arc kayles graph", u);
        if (g.adj[u] >> w & 1)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "repeated edge %d-%d in arc kayles graph", u,
                                 w);
        g.adj[u] |= 1ULL << w;
        g.adj[w] |= 1ULL << u;
    }
    g.memo = bitmemo_new();
    int v = arc_board(&g, lowmask(nv), err);
    bitmemo_free(g.memo);
    if (v < 0)
        return err->status;
    *out = v;
    return CGT_OK;
}

/* ---- cram: a board is (h, w, bits of the empty cells), cell r*w + c */

static uint64_t grid_neighbours(uint64_t x, int h, int w)
{
    uint64_t full = lowmask(h * w), col0 = 0, collast = 0;
    for (int r = 0; r < h; r++) {
        col0 |= 1ULL << (r * w);
        collast |= 1ULL << (r * w + w - 1);
    }
    uint64_t nb = ((x & ~collast) << 1) | ((x & ~col0) >> 1);
    if (w < 64)
        nb |= (x << w) | (x >> w);
    return nb & full;
}

/* The canonical form of a connected component: cut to its bounding box
 * and take the least (rows, cols, bits) over the 8 symmetries. */
static void cram_canon(uint64_t comp, int w, int *oh, int *ow, uint64_t *obits)
{
    int r0 = 64, r1 = -1, c0 = 64, c1 = -1;
    for (uint64_t t = comp; t; t &= t - 1) {
        int p = __builtin_ctzll(t), r = p / w, c = p % w;
        r0 = r < r0 ? r : r0;
        r1 = r > r1 ? r : r1;
        c0 = c < c0 ? c : c0;
        c1 = c > c1 ? c : c1;
    }
    int bh = r1 - r0 + 1, bw = c1 - c0 + 1;
    int bestH = 0, bestW = 0;
    uint64_t best = 0;
    for (int s = 0; s < 8; s++) {
        int tr = s >> 2, fr = s >> 1 & 1, fc = s & 1;
        int H = tr ? bw : bh, W = tr ? bh : bw;
        uint64_t bits = 0;
        for (uint64_t t = comp; t; t &= t - 1) {
            int p = __builtin_ctzll(t), r = p / w - r0, c = p % w - c0;
            if (fr)
                r = bh - 1 - r;
            if (fc)
                c = bw - 1 - c;
            int R = tr ? c : r, C = tr ? r : c;
            bits |= 1ULL << (R * W + C);
        }
        if (s == 0 || H < bestH || (H == bestH && (W < bestW || (W == bestW && bits < best)))) {
            bestH = H;
            bestW = W;
            best = bits;
        }
    }
    *oh = bestH;
    *ow = bestW;
    *obits = best;
}

static int cram_comp(BitMemo *memo, int h, int w, uint64_t bits, CgtError *err);

static int cram_board(BitMemo *memo, int h, int w, uint64_t bits, CgtError *err)
{
    int x = 0;
    while (bits) {
        uint64_t comp = bits & -bits;
        for (;;) {
            uint64_t more = (comp | grid_neighbours(comp, h, w)) & bits;
            if (more == comp)
                break;
            comp = more;
        }
        bits &= ~comp;
        if (__builtin_popcountll(comp) < 2)
            continue;
        int ch, cw;
        uint64_t cb;
        cram_canon(comp, w, &ch, &cw, &cb);
        int v = cram_comp(memo, ch, cw, cb, err);
        if (v < 0)
            return -1;
        x ^= v;
    }
    return x;
}

static int cram_comp(BitMemo *memo, int h, int w, uint64_t bits, CgtError *err)
{
    uint64_t k1 = tag_key(TAG_CRAM, (uint64_t)h << 8 | (uint64_t)w);
    int v = memo_get(memo, bits, k1);
    if (v >= 0)
        return v;
    if (poll_node(err))
        return -1;
    Mex mx = {{0}};
    for (uint64_t t = bits; t; t &= t - 1) {
        int p = __builtin_ctzll(t), c = p % w;
        uint64_t cell = 1ULL << p;
        if (c + 1 < w && (bits >> (p + 1) & 1)) {
            int g = cram_board(memo, h, w, bits & ~cell & ~(cell << 1), err);
            if (g < 0)
                return -1;
            mex_add(&mx, g);
        }
        if (p + w < h * w && (bits >> (p + w) & 1)) {
            int g = cram_board(memo, h, w, bits & ~cell & ~(1ULL << (p + w)), err);
            if (g < 0)
                return -1;
            mex_add(&mx, g);
        }
    }
    v = mex_get(&mx);
    memo_put(memo, bits, k1, v);
    return v;
}

CgtStatus bit_cram_grundy(BitMemo *m, int rows, int cols, const char *board, int *out,
                          CgtError *err)
{
    if (rows < 1 || cols < 1 || rows * cols > BIT_CRAM_MAX_CELLS)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "cram board %dx%d is not allowed", rows, cols);
    uint64_t bits = lowmask(rows * cols);
    if (board) {
        if (strlen(board) != (size_t)(rows * cols))
            return cgt_error_set(err, CGT_ERR_DOMAIN,
                                 "cram board text has %zu cells, expected %d", strlen(board),
                                 rows * cols);
        for (int i = 0; i < rows * cols; i++) {
            if (board[i] == '#' || board[i] == 'x')
                bits &= ~(1ULL << i);
            else if (board[i] != '.')
                return cgt_error_set(err, CGT_ERR_DOMAIN, "bad cram cell '%c'", board[i]);
        }
    }
    BitMemo *own = m ? NULL : bitmemo_new();
    int v = cram_board(m ? m : own, rows, cols, bits, err);
    bitmemo_free(own);
    if (v < 0)
        return err->status;
    *out = v;
    return CGT_OK;
}
