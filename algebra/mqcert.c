/* Independent certificate of a misère quotient (issue 7.2): closure of all
 * reachable (element, transition set) pairs under adding heaps with a
 * labelling check on each, reducedness by sort-based partition refinement,
 * and generation by heap images.  Shares no search code with the
 * construction: it only uses the Quotient's products and the game. */
#include <stdlib.h>
#include <string.h>

#include "algebra/misere.h"
#include "util/hash.h"
#include "util/poll.h"
#include "util/xalloc.h"

typedef struct PairSet {
    uint32_t W;
    size_t cnt, cap, hcap;
    uint32_t *xs;
    uint64_t *sets;
    size_t *tab; /* index+1, 0 = empty */
} PairSet;

static uint64_t pair_hash(uint32_t x, const uint64_t *T, uint32_t W)
{
    return hash_bytes(T, (size_t)W * 8) ^ hash_mix64(x + 0x1234567ULL);
}

static size_t *pair_slot(PairSet *s, uint32_t x, const uint64_t *T)
{
    size_t i = (size_t)pair_hash(x, T, s->W) & (s->hcap - 1);
    for (;;) {
        size_t v = s->tab[i];
        if (!v)
            return &s->tab[i];
        if (s->xs[v - 1] == x && memcmp(s->sets + (v - 1) * s->W, T, (size_t)s->W * 8) == 0)
            return &s->tab[i];
        i = (i + 1) & (s->hcap - 1);
    }
}

static bool pair_add(PairSet *s, uint32_t x, const uint64_t *T)
{
    if (2 * (s->cnt + 1) > s->hcap) {
        size_t oc = s->hcap;
        s->hcap = oc ? 2 * oc : 1024;
        free(s->tab);
        s->tab = xcalloc(s->hcap, sizeof *s->tab);
        for (size_t i = 0; i < s->cnt; i++)
            *pair_slot(s, s->xs[i], s->sets + i * s->W) = i + 1;
    }
    size_t *slot = pair_slot(s, x, T);
    if (*slot)
        return false;
    if (s->cnt == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->xs = xrealloc(s->xs, s->cap * sizeof *s->xs);
        s->sets = xrealloc(s->sets, s->cap * s->W * 8);
    }
    s->xs[s->cnt] = x;
    memcpy(s->sets + s->cnt * s->W, T, (size_t)s->W * 8);
    *slot = ++s->cnt;
    return true;
}

static bool label_ok(const Quotient *q, uint32_t x, const uint64_t *T, uint32_t W)
{
    bool any = false, meets = false;
    uint32_t n = quotient_size(q);
    for (uint32_t w = 0; w < W; w++) {
        if (T[w])
            any = true;
        for (uint32_t b = 0; b < 64; b++)
            if ((T[w] >> b) & 1 && w * 64 + b < n && quotient_is_p(q, w * 64 + b))
                meets = true;
    }
    return quotient_is_p(q, x) == (any && !meets);
}

/* Sort-based refinement: elements with equal (class, class of x*g ...). */
static const uint32_t *g_sig;
static int g_len;
static int cmp_sig(const void *a, const void *b)
{
    const uint32_t *s = g_sig + (size_t)*(const uint32_t *)a * g_len;
    const uint32_t *t = g_sig + (size_t)*(const uint32_t *)b * g_len;
    for (int i = 0; i < g_len; i++)
        if (s[i] != t[i])
            return s[i] < t[i] ? -1 : 1;
    return 0;
}

static uint32_t refine_classes(const Quotient *q, uint32_t *cls)
{
    uint32_t n = quotient_size(q);
    int ng = quotient_ngens(q);
    int len = ng + 1;
    uint32_t *sig = xmalloc((size_t)n * len * sizeof *sig);
    uint32_t *idx = xmalloc(n * sizeof *idx);
    for (uint32_t x = 0; x < n; x++)
        cls[x] = quotient_is_p(q, x);
    uint32_t count = 0;
    for (;;) {
        for (uint32_t x = 0; x < n; x++) {
            sig[(size_t)x * len] = cls[x];
            for (int g = 0; g < ng; g++)
                sig[(size_t)x * len + 1 + g] = cls[quotient_mul_gen(q, x, g)];
            idx[x] = x;
        }
        g_sig = sig;
        g_len = len;
        qsort(idx, n, sizeof *idx, cmp_sig);
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (i > 0 && cmp_sig(&idx[i - 1], &idx[i]) != 0)
                k++;
            cls[idx[i]] = k;
        }
        k++;
        if (k == count)
            break;
        count = k;
    }
    free(sig);
    free(idx);
    return count;
}

CgtStatus mq_certify(const Quotient *q, const HeapGame *game, uint64_t max_pairs,
                     MqCertInfo *info, CgtError *err)
{
    memset(info, 0, sizeof *info);
    if (!max_pairs)
        max_pairs = 5000000;
    uint32_t n = quotient_size(q), maxh = quotient_max_heap(q);
    uint32_t W = (n + 63) / 64;
    /* transition sets from the game's options, products from q */
    uint32_t **tr = xcalloc(maxh + 1, sizeof *tr);
    uint32_t *trn = xcalloc(maxh + 1, sizeof *trn);
    HeapOptions o;
    heapopts_init(&o);
    CgtStatus st = CGT_OK;
    for (uint32_t h = 1; h <= maxh && st == CGT_OK; h++) {
        st = game->options(game->ctx, h, &o, err);
        if (st != CGT_OK)
            break;
        tr[h] = xmalloc((o.count + 1) * sizeof **tr);
        for (size_t i = 0; i < o.count; i++) {
            uint32_t x = 0;
            for (size_t k = o.start[i]; k < o.start[i + 1]; k++)
                x = quotient_mul(q, x, quotient_phi(q, o.parts[k]));
            tr[h][trn[h]++] = x;
        }
    }
    heapopts_free(&o);
    PairSet s = {0};
    s.W = W;
    uint64_t *T = xcalloc(W + 1, 8);
    bool ok = true;
    if (st == CGT_OK) {
        ok = !quotient_is_p(q, 0);
        pair_add(&s, 0, T);
    }
    for (size_t i = 0; i < s.cnt && st == CGT_OK; i++) {
        for (uint32_t h = 1; h <= maxh; h++) {
            uint32_t ph = quotient_phi(q, h);
            if (trn[h] == 0 && ph == 0)
                continue;
            if ((st = cgt_poll()) != CGT_OK) {
                st = cgt_poll_error(err, st, "quotient certificate");
                break;
            }
            uint32_t x = s.xs[i];
            const uint64_t *S = s.sets + i * W;
            memset(T, 0, (size_t)W * 8);
            for (uint32_t t = 0; t < n; t++)
                if ((S[t >> 6] >> (t & 63)) & 1) {
                    uint32_t y = quotient_mul(q, t, ph);
                    T[y >> 6] |= (uint64_t)1 << (y & 63);
                }
            for (uint32_t k = 0; k < trn[h]; k++) {
                uint32_t y = quotient_mul(q, x, tr[h][k]);
                T[y >> 6] |= (uint64_t)1 << (y & 63);
            }
            uint32_t y = quotient_mul(q, x, ph);
            if (pair_add(&s, y, T)) {
                if (!label_ok(q, y, T, W))
                    ok = false;
                if (s.cnt > max_pairs) {
                    st = cgt_error_set(err, CGT_ERR_LIMIT,
                                       "certificate needs more than %llu pairs",
                                       (unsigned long long)max_pairs);
                    break;
                }
            }
        }
        if ((i & 1023) == 0)
            cgt_progress("quotient", "certificate: %zu pairs", s.cnt);
    }
    info->pairs = s.cnt;
    info->labelling_ok = ok;
    free(T);
    free(s.xs);
    free(s.sets);
    free(s.tab);
    for (uint32_t h = 0; h <= maxh; h++)
        free(tr[h]);
    free(tr);
    free(trn);
    if (st != CGT_OK)
        return st;
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
            uint32_t y = quotient_mul(q, queue[i], quotient_phi(q, h));
            if (!in[y]) {
                in[y] = 1;
                queue[qn++] = y;
            }
        }
    info->generated_ok = qn == n;
    free(in);
    free(queue);
    return CGT_OK;
}
