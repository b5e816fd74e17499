/* Independent certificate of a misère quotient (issue 7.2): closure of all
 * reachable (element, transition set) pairs under adding heaps with a
 * labelling check on each, reducedness by hash-based partition refinement,
 * and generation by heap images.  Shares no search code with the
 * construction: it only uses the Quotient's products and the game. */
#include <stdlib.h>
#include <string.h>

#include "algebra/misere.h"
#include "util/hash.h"
#include "util/poll.h"
#include "util/xalloc.h"

/* Set of pairs (x, T) with T a sorted list of distinct elements, stored in
 * one pool; open addressing on indices (index+1, 0 = empty). */
typedef struct PairSet {
    size_t cnt, cap, hcap;
    uint32_t *xs;
    size_t *off;     /* T of pair i is pool[off[i] .. off[i+1]-1] */
    uint32_t *pool;
    size_t pool_len, pool_cap;
    uint64_t *hs;    /* hash of each pair */
    size_t *tab;
} PairSet;

static uint64_t pair_hash(uint32_t x, const uint32_t *T, size_t len)
{
    uint64_t h = x + 0x1234567ULL;
    for (size_t i = 0; i < len; i++)
        h = (h ^ T[i]) * 0x100000001b3ULL;
    return hash_mix64(h ^ len);
}

static size_t *pair_slot(PairSet *s, uint64_t hv, uint32_t x, const uint32_t *T, size_t len)
{
    size_t i = (size_t)hv & (s->hcap - 1);
    for (;;) {
        size_t v = s->tab[i];
        if (!v)
            return &s->tab[i];
        v--;
        if (s->hs[v] == hv && s->xs[v] == x && s->off[v + 1] - s->off[v] == len &&
            (len == 0 || memcmp(s->pool + s->off[v], T, len * sizeof *T) == 0))
            return &s->tab[i];
        i = (i + 1) & (s->hcap - 1);
    }
}

static void pair_rehash(PairSet *s)
{
    s->hcap = s->hcap ? 2 * s->hcap : 4096;
    free(s->tab);
    s->tab = xcalloc(s->hcap, sizeof *s->tab);
    for (size_t i = 0; i < s->cnt; i++) {
        size_t k = (size_t)s->hs[i] & (s->hcap - 1);
        while (s->tab[k])
            k = (k + 1) & (s->hcap - 1);
        s->tab[k] = i + 1;
    }
}

/* Adds (x, T); false if it was already present. */
static bool pair_add(PairSet *s, uint32_t x, const uint32_t *T, size_t len)
{
    if (2 * (s->cnt + 1) > s->hcap)
        pair_rehash(s);
    uint64_t hv = pair_hash(x, T, len);
    size_t *slot = pair_slot(s, hv, x, T, len);
    if (*slot)
        return false;
    if (s->cnt + 1 >= s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->xs = xrealloc(s->xs, s->cap * sizeof *s->xs);
        s->hs = xrealloc(s->hs, s->cap * sizeof *s->hs);
        s->off = xrealloc(s->off, (s->cap + 1) * sizeof *s->off);
    }
    if (s->pool_len + len > s->pool_cap) {
        while (s->pool_len + len > s->pool_cap)
            s->pool_cap = s->pool_cap ? 2 * s->pool_cap : 4096;
        s->pool = xrealloc(s->pool, s->pool_cap * sizeof *s->pool);
    }
    if (s->cnt == 0)
        s->off[0] = 0;
    if (len)
        memcpy(s->pool + s->pool_len, T, len * sizeof *T);
    s->pool_len += len;
    s->xs[s->cnt] = x;
    s->hs[s->cnt] = hv;
    s->off[s->cnt + 1] = s->pool_len;
    *slot = ++s->cnt;
    return true;
}

static void pair_free(PairSet *s)
{
    free(s->xs);
    free(s->off);
    free(s->pool);
    free(s->hs);
    free(s->tab);
}

/* Sort a small list of elements ascending and drop duplicates. */
static size_t sort_unique(uint32_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        uint32_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || a[k - 1] != a[i])
            a[k++] = a[i];
    return k;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static size_t sort_unique_any(uint32_t *a, size_t n)
{
    if (n <= 48)
        return sort_unique(a, n);
    qsort(a, n, sizeof *a, cmp_u32);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || a[k - 1] != a[i])
            a[k++] = a[i];
    return k;
}

/* Hash-based refinement: classes are refined by (class, classes of x*g)
 * until the count is stable (Moore's algorithm with a hash of each
 * signature instead of sorting). */
static uint32_t refine_classes(const Quotient *q, uint32_t *cls)
{
    uint32_t n = quotient_size(q);
    int ng = quotient_ngens(q);
    size_t len = (size_t)ng + 1;
    uint32_t *sig = xmalloc((size_t)n * len * sizeof *sig);
    uint32_t *nc = xmalloc(n * sizeof *nc);
    size_t hcap = 16;
    while (hcap < 2 * (size_t)n)
        hcap *= 2;
    uint32_t *tab = xmalloc(hcap * sizeof *tab);
    for (uint32_t x = 0; x < n; x++)
        cls[x] = quotient_is_p(q, x);
    uint32_t count = 0;
    for (;;) {
        memset(tab, 0xff, hcap * sizeof *tab);
        uint32_t k = 0;
        for (uint32_t x = 0; x < n; x++) {
            uint32_t *s = sig + (size_t)x * len;
            s[0] = cls[x];
            for (int g = 0; g < ng; g++)
                s[1 + g] = cls[quotient_mul_gen(q, x, g)];
            uint64_t hv = 0;
            for (size_t i = 0; i < len; i++)
                hv = hash_mix64(hv ^ (s[i] + 0x9e3779b97f4a7c15ULL));
            size_t i = (size_t)hv & (hcap - 1);
            for (;;) {
                uint32_t r = tab[i];
                if (r == UINT32_MAX) {
                    tab[i] = x;
                    nc[x] = k++;
                    break;
                }
                if (memcmp(sig + (size_t)r * len, s, len * sizeof *s) == 0) {
                    nc[x] = nc[r];
                    break;
                }
                i = (i + 1) & (hcap - 1);
            }
        }
        memcpy(cls, nc, n * sizeof *cls);
        if (k == count)
            break;
        count = k;
    }
    free(sig);
    free(nc);
    free(tab);
    return count;
}

/* Per-heap data: the action x -> x*phi(h) as a table, and trans(h) as
 * distinct images, each with a representative option (its parts). */
typedef struct CertHeap {
    uint32_t *act;    /* NULL when phi(h) is the identity */
    uint32_t ntr;     /* distinct option images */
    uint32_t *poff;   /* parts of representative k: parts[poff[k] .. poff[k+1]-1] */
    uint32_t *parts;  /* heaps with non-identity image only */
} CertHeap;

static void cert_heaps_free(CertHeap *ch, uint32_t maxh)
{
    for (uint32_t h = 0; h <= maxh; h++) {
        free(ch[h].act);
        free(ch[h].poff);
        free(ch[h].parts);
    }
    free(ch);
}

/* Action tables (via quotient_mul) and deduplicated option lists. */
static CgtStatus cert_heaps_build(const Quotient *q, const HeapGame *game, CertHeap *ch,
                                  CgtError *err)
{
    uint32_t n = quotient_size(q), maxh = quotient_max_heap(q);
    for (uint32_t h = 0; h <= maxh; h++) {
        uint32_t ph = quotient_phi(q, h);
        if (ph == 0)
            continue;
        ch[h].act = xmalloc((size_t)n * sizeof *ch[h].act);
        for (uint32_t x = 0; x < n; x++)
            ch[h].act[x] = quotient_mul(q, x, ph);
    }
    uint32_t *seen = xmalloc((size_t)n * sizeof *seen);
    for (uint32_t x = 0; x < n; x++)
        seen[x] = UINT32_MAX;
    HeapOptions o;
    heapopts_init(&o);
    CgtStatus st = CGT_OK;
    for (uint32_t h = 1; h <= maxh; h++) {
        st = game->options(game->ctx, h, &o, err);
        if (st != CGT_OK)
            break;
        ch[h].poff = xmalloc((o.count + 1) * sizeof *ch[h].poff);
        ch[h].parts = xmalloc((o.start[o.count] + 1) * sizeof *ch[h].parts);
        ch[h].poff[0] = 0;
        uint32_t np = 0;
        for (size_t i = 0; i < o.count; i++) {
            uint32_t x = 0;
            for (size_t k = o.start[i]; k < o.start[i + 1]; k++)
                x = quotient_mul(q, x, quotient_phi(q, o.parts[k]));
            if (seen[x] == h)
                continue;
            seen[x] = h;
            for (size_t k = o.start[i]; k < o.start[i + 1]; k++)
                if (quotient_phi(q, o.parts[k]) != 0)
                    ch[h].parts[np++] = o.parts[k];
            ch[h].poff[++ch[h].ntr] = np;
        }
    }
    heapopts_free(&o);
    free(seen);
    return st;
}

static bool label_ok(const Quotient *q, uint32_t x, const uint32_t *T, size_t len)
{
    bool meets = false;
    for (size_t i = 0; i < len && !meets; i++)
        meets = quotient_is_p(q, T[i]);
    return quotient_is_p(q, x) == (len > 0 && !meets);
}

CgtStatus mq_certify(const Quotient *q, const HeapGame *game, uint64_t max_pairs,
                     MqCertInfo *info, CgtError *err)
{
    memset(info, 0, sizeof *info);
    if (!max_pairs)
        max_pairs = 5000000;
    uint32_t n = quotient_size(q), maxh = quotient_max_heap(q);
    CertHeap *ch = xcalloc((size_t)maxh + 1, sizeof *ch);
    CgtStatus st = cert_heaps_build(q, game, ch, err);
    PairSet s = {0};
    size_t bcap = 1024;
    uint32_t *T = xmalloc(bcap * sizeof *T);
    /* small quotients: collect each set in a bitset and read it out in
     * order (cheaper than sorting); large ones sort the list */
    uint32_t W = (n + 63) / 64;
    uint64_t *bits = W <= 64 ? xcalloc(W, sizeof *bits) : NULL;
    bool ok = true;
    if (st == CGT_OK) {
        ok = !quotient_is_p(q, 0);
        pair_add(&s, 0, T, 0);
    }
    /* T(G+h) = T(G)*phi(h) ∪ phi(G)*trans(h), phi(G+h) = phi(G)*phi(h) */
    for (size_t i = 0; i < s.cnt && st == CGT_OK; i++) {
        if ((i & 255) == 0 && (st = cgt_poll()) != CGT_OK) {
            st = cgt_poll_error(err, st, "quotient certificate");
            break;
        }
        for (uint32_t h = 1; h <= maxh; h++) {
            const CertHeap *c = &ch[h];
            if (c->ntr == 0 && !c->act)
                continue;
            uint32_t x = s.xs[i];
            size_t slen = s.off[i + 1] - s.off[i];
            if (slen + c->ntr > bcap) {
                while (slen + c->ntr > bcap)
                    bcap *= 2;
                T = xrealloc(T, bcap * sizeof *T);
            }
            /* s.pool is stable until pair_add; it is NULL while empty */
            const uint32_t *S = s.pool ? s.pool + s.off[i] : NULL;
            size_t len = 0;
            if (c->act)
                for (size_t k = 0; k < slen; k++)
                    T[len++] = c->act[S[k]];
            else
                for (size_t k = 0; k < slen; k++)
                    T[len++] = S[k];
            for (uint32_t k = 0; k < c->ntr; k++) {
                uint32_t y = x;
                for (uint32_t j = c->poff[k]; j < c->poff[k + 1]; j++)
                    y = ch[c->parts[j]].act[y];
                T[len++] = y;
            }
            if (bits) {
                for (size_t k = 0; k < len; k++)
                    bits[T[k] >> 6] |= (uint64_t)1 << (T[k] & 63);
                len = 0;
                for (uint32_t w = 0; w < W; w++)
                    for (uint64_t b = bits[w]; b; b &= b - 1)
                        T[len++] = w * 64 + (uint32_t)__builtin_ctzll(b);
                memset(bits, 0, W * sizeof *bits);
            } else {
                len = sort_unique_any(T, len);
            }
            uint32_t y = c->act ? c->act[x] : x;
            if (pair_add(&s, y, T, len)) {
                if (!label_ok(q, y, T, len))
                    ok = false;
                if (s.cnt > max_pairs) {
                    st = cgt_error_set(err, CGT_ERR_LIMIT,
                                       "certificate needs more than %llu pairs",
                                       (unsigned long long)max_pairs);
                    break;
                }
            }
        }
        if ((i & 4095) == 0)
            cgt_progress("quotient", "certificate: %zu pairs", s.cnt);
    }
    info->pairs = s.cnt;
    info->labelling_ok = ok;
    free(T);
    free(bits);
    pair_free(&s);
    if (st != CGT_OK) {
        cert_heaps_free(ch, maxh);
        return st;
    }
    /* reduced */
    uint32_t *cls = xmalloc((n ? n : 1) * sizeof *cls);
    info->reduced_ok = refine_classes(q, cls) == n;
    free(cls);
    /* generated by heap images */
    uint8_t *in = xcalloc(n, 1);
    uint32_t *queue = xmalloc(n * sizeof *queue), qn = 1;
    in[0] = 1;
    queue[0] = 0;
    for (uint32_t i = 0; i < qn; i++)
        for (uint32_t h = 1; h <= maxh; h++) {
            if (!ch[h].act)
                continue;
            uint32_t y = ch[h].act[queue[i]];
            if (!in[y]) {
                in[y] = 1;
                queue[qn++] = y;
            }
        }
    info->generated_ok = qn == n;
    free(in);
    free(queue);
    cert_heaps_free(ch, maxh);
    return CGT_OK;
}
