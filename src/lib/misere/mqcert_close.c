/* The two closures of the certificate (docs/misere.md "Certificate"):
 * positions G are reached from the empty position by adding heaps, and a
 * finite summary of G is carried along that determines the summary of
 * every G+h and the check "phi(G) is P iff G has an option and none of its
 * options is P".
 *
 * mqcert_profiles carries (phi(G), prof(T(G)), T(G) non-empty), where T(G)
 * is the set of images of the options of G and prof(T) = {z : T z meets
 * P}; mqcert_pairs carries (phi(G), T(G)) itself.  Both read
 * only the tables of CertTab. */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqcertint.h"
#include "lib/misere/mqpairs.h"
#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

static inline bool bit_get(const uint64_t *b, uint32_t i)
{
    return (b[i >> 6] >> (i & 63)) & 1;
}

/* dst = {z : act[z] in src} (act NULL: the identity), n bits. */
static void gather_bits(uint64_t *dst, const uint64_t *src, const uint32_t *act, uint32_t n)
{
    if (!act) {
        memcpy(dst, src, (n + 63) / 64 * sizeof *dst);
        return;
    }
    for (uint32_t z0 = 0; z0 < n; z0 += 64) {
        uint64_t w = 0;
        uint32_t e = n - z0 < 64 ? n - z0 : 64;
        for (uint32_t k = 0; k < e; k++) {
            uint32_t y = act[z0 + k];
            w |= ((src[y >> 6] >> (y & 63)) & 1) << k;
        }
        dst[z0 >> 6] = w;
    }
}

/* ---- profiles ---- */

/* Largest |Q| for the summary method (n^2 bytes); it is used once the
 * closure has more than |Q|/SUMMARY_SWITCH_DIV states. */
#define SUMMARY_MAX_N 16384
#define SUMMARY_SWITCH_DIV 4

/* Set of states of `stride` words each, open addressing on index+1. */
typedef struct StateSet {
    size_t stride, cnt, cap, hcap;
    uint64_t *w;  /* cnt * stride words */
    uint64_t *hs; /* hash of each state */
    size_t *tab;
} StateSet;

static uint64_t state_hash(const uint64_t *s, size_t len)
{
    uint64_t h = 0x51ed27f3a1c2b5d9ULL;
    for (size_t i = 0; i < len; i++)
        h = hash_mix64(h ^ s[i]) + i;
    return h;
}

/* Doubles an open-addressing slot table (slots hold index + 1, 0 = empty)
 * and re-inserts the cnt entries by their stored hashes; shared by the
 * state and pair sets. */
static void slots_grow(size_t **tab, size_t *hcap, const uint64_t *hs, size_t cnt)
{
    *hcap = *hcap ? 2 * *hcap : 4096;
    free(*tab);
    *tab = xcalloc(*hcap, sizeof **tab);
    for (size_t i = 0; i < cnt; i++) {
        size_t k = (size_t)hs[i] & (*hcap - 1);
        while ((*tab)[k])
            k = (k + 1) & (*hcap - 1);
        (*tab)[k] = i + 1;
    }
}

/* Adds the state; false if it was present. */
static bool state_add(StateSet *s, const uint64_t *st)
{
    if (2 * (s->cnt + 1) > s->hcap)
        slots_grow(&s->tab, &s->hcap, s->hs, s->cnt);
    uint64_t hv = state_hash(st, s->stride);
    size_t i = (size_t)hv & (s->hcap - 1);
    for (;;) {
        size_t v = s->tab[i];
        if (!v)
            break;
        v--;
        if (s->hs[v] == hv && memcmp(s->w + v * s->stride, st, s->stride * sizeof *st) == 0)
            return false;
        i = (i + 1) & (s->hcap - 1);
    }
    if (s->cnt == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->w = xrealloc(s->w, s->cap * s->stride * sizeof *s->w);
        s->hs = xrealloc(s->hs, s->cap * sizeof *s->hs);
    }
    memcpy(s->w + s->cnt * s->stride, st, s->stride * sizeof *st);
    s->hs[s->cnt] = hv;
    s->tab[i] = ++s->cnt;
    return true;
}

/* D[y] = {z : y z in P} for every element, along the BFS tree over the
 * generators: y = p g gives y z = p (g z), so z is in D[y] iff g z is in
 * D[p].  (Valid because the generator actions commute, checked first.) */
static uint64_t *dual_sets(const CertTab *t, size_t W)
{
    uint32_t n = t->n;
    uint64_t *D = xcalloc((size_t)n * W, sizeof *D);
    memcpy(D, t->p, W * sizeof *D);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t y = t->order[i];
        const uint64_t *dp = D + (size_t)t->par[y] * W;
        const uint32_t *a = t->gact + (size_t)t->pgen[y] * n;
        gather_bits(D + (size_t)y * W, dp, a, n);
    }
    return D;
}

/* R[x] = x^-1 prof(trans(h)) = union over the option images t of D[x t],
 * for every element x (n x W words). */
static uint64_t *move_rows(const CertTab *t, const CertMove *c, const uint64_t *D, size_t W)
{
    uint32_t n = t->n;
    uint64_t *R = xcalloc((size_t)n * W, sizeof *R);
    for (uint32_t x = 0; x < n; x++) {
        uint64_t *r = R + (size_t)x * W;
        for (uint32_t k = 0; k < c->ntr; k++) {
            uint32_t y = x;
            for (uint32_t j = c->poff[k]; j < c->poff[k + 1]; j++)
                y = c->pacts[j][y];
            const uint64_t *dy = D + (size_t)y * W;
            for (size_t w = 0; w < W; w++)
                r[w] |= dy[w];
        }
    }
    return R;
}

/* Number of distinct multiples k*sigma(h), k >= 0, of a heap's state. */
static uint32_t chain_length(const CertTab *t, const CertMove *c, const uint64_t *R, size_t W)
{
    uint32_t n = t->n;
    size_t S = W + 1;
    StateSet ch = {.stride = S};
    uint64_t *a = xcalloc(S, sizeof *a), *b = xcalloc(S, sizeof *b);
    while (state_add(&ch, a)) {
        uint32_t x = (uint32_t)(a[0] >> 1);
        gather_bits(b + 1, a + 1, c->act, n);
        for (size_t w = 0; w < W; w++)
            b[1 + w] |= R[(size_t)x * W + w];
        b[0] = (uint64_t)(c->act ? c->act[x] : x) << 1 | (a[0] & 1) | (c->ntr > 0);
        uint64_t *tmp = a;
        a = b;
        b = tmp;
    }
    uint32_t len = (uint32_t)ch.cnt;
    free(a);
    free(b);
    free(ch.w);
    free(ch.hs);
    free(ch.tab);
    return len;
}

/* The summary method (docs/misere.md "Certificate"): instead of the set
 * Sigma of states of all positions, keep for every pair of elements (x, z)
 * the set S(x, z) of pairs (e, [z in pi]) over the states (x, pi, e) in
 * Sigma, as a 4-bit mask (bit 2e+a).  Adding the multiples of one heap
 * state (y, rho, f) maps (e, a) at (x, y z) to (e or f, a or [x z in rho])
 * at (x y, z); the check needs only z = 1.  Work per heap class: one n x n
 * pass per distinct multiple of its state. */
static CgtStatus summary_run(const CertTab *t, const uint64_t *D, const uint32_t *mv,
                             uint32_t nmv, uint64_t *passes, bool *ok, CgtError *err)
{
    uint32_t n = t->n;
    size_t W = (n + 63) / 64;
    uint8_t *S = xcalloc((size_t)n * n, 1);
    uint8_t lut[2][2][16];
    for (int f = 0; f < 2; f++)
        for (int b = 0; b < 2; b++)
            for (int m = 0; m < 16; m++) {
                uint8_t r = 0;
                for (int cb = 0; cb < 4; cb++)
                    if (m >> cb & 1)
                        r |= (uint8_t)(1 << (((cb >> 1) | f) * 2 + ((cb & 1) | b)));
                lut[f][b][m] = r;
            }
    for (uint32_t z = 0; z < n; z++)
        S[z] = 1; /* the empty position: (1, {}, no move) */
    uint8_t *live = xcalloc(n, 1); /* rows with a state */
    uint8_t *todo = xmalloc(n), *dirty = xmalloc(n);
    live[0] = 1;
    CgtStatus st = CGT_OK;
    *passes = 0;
    for (uint32_t i = 0; i < nmv && st == CGT_OK; i++) {
        const CertMove *c = &t->mv[mv[i]];
        uint64_t *R = move_rows(t, c, D, W);
        uint32_t len = chain_length(t, c, R, W);
        int f = c->ntr > 0;
        /* pass 1 takes every row with a state; later passes only the rows
         * that changed in the previous one (a row unchanged since it was
         * last taken adds nothing new) */
        memcpy(todo, live, n);
        for (uint32_t pass = 1; pass < len; pass++) {
            if ((st = cgt_poll()) != CGT_OK) {
                st = cgt_poll_error(err, st, "quotient certificate");
                break;
            }
            bool changed = false;
            memset(dirty, 0, n);
            for (uint32_t x = 0; x < n; x++) {
                if (!todo[x])
                    continue;
                uint32_t xy = c->act ? c->act[x] : x;
                const uint8_t *src = S + (size_t)x * n;
                uint8_t *dst = S + (size_t)xy * n;
                const uint64_t *r = R + (size_t)x * W;
                bool ch = false;
                if (c->act) {
                    for (uint32_t z = 0; z < n; z++) {
                        uint8_t m = src[c->act[z]];
                        uint8_t nm = m ? lut[f][bit_get(r, z)][m] : 0;
                        ch |= (nm & ~dst[z]) != 0;
                        dst[z] |= nm;
                    }
                } else {
                    for (uint32_t z = 0; z < n; z++) {
                        uint8_t m = src[z];
                        uint8_t nm = m ? lut[f][bit_get(r, z)][m] : 0;
                        ch |= (nm & ~dst[z]) != 0;
                        dst[z] |= nm;
                    }
                }
                if (ch) {
                    changed = true;
                    live[xy] = 1;
                    dirty[xy] = 1;
                }
            }
            ++*passes;
            if (!changed)
                break;
            uint8_t *tmp = todo;
            todo = dirty;
            dirty = tmp;
        }
        free(R);
        cgt_progress("quotient", "certificate: heap class %u of %u (summary)", i + 1, nmv);
    }
    *ok = true;
    for (uint32_t x = 0; x < n && st == CGT_OK; x++) {
        uint8_t m = S[(size_t)x * n]; /* z = 1 */
        if (t->combos)
            t->combos[x] = m;
        for (int cb = 0; cb < 4; cb++)
            if (m >> cb & 1 && bit_get(t->p, x) != ((cb >> 1) && !(cb & 1)))
                *ok = false;
    }
    free(S);
    free(live);
    free(todo);
    free(dirty);
    return st;
}

CgtStatus mqcert_profiles(const CertTab *t, uint64_t max_states, int force, uint64_t *count,
                          uint32_t *moves, int *method, bool *ok, CgtError *err)
{
    uint32_t n = t->n;
    size_t W = (n + 63) / 64, S = W + 1;
    uint64_t *D = dual_sets(t, W);
    StateSet s = {.stride = S};
    uint64_t *cur = xcalloc(S, sizeof *cur), *nxt = xcalloc(S, sizeof *nxt);
    /* A heap acts on states only through its own state (phi(h),
     * prof(trans(h)), trans(h) non-empty): (x, pi, e) + h = (x phi(h),
     * phi(h)^-1 pi  ∪  x^-1 prof(trans(h)), e or f).  Heaps with equal
     * states are one move. */
    uint32_t *mv = xmalloc((t->nmoves + 1) * sizeof *mv), nmv = 0;
    {
        StateSet hs = {.stride = S};
        for (uint32_t m = 0; m < t->nmoves; m++) {
            const CertMove *c = &t->mv[m];
            memset(nxt, 0, S * sizeof *nxt);
            for (uint32_t k = 0; k < c->ntr; k++) {
                uint32_t y = 0;
                for (uint32_t j = c->poff[k]; j < c->poff[k + 1]; j++)
                    y = c->pacts[j][y];
                const uint64_t *dy = D + (size_t)y * W;
                for (size_t w = 0; w < W; w++)
                    nxt[1 + w] |= dy[w];
            }
            nxt[0] = (uint64_t)(c->act ? c->act[0] : 0) << 1 | (c->ntr > 0);
            if (state_add(&hs, nxt))
                mv[nmv++] = m;
        }
        free(hs.w);
        free(hs.hs);
        free(hs.tab);
    }
    *ok = !bit_get(t->p, 0); /* the empty position has no move: N */
    if (t->combos)
        t->combos[0] |= 1;
    state_add(&s, cur);      /* (1, {}, no move) */
    CgtStatus st = CGT_OK;
    /* The closure costs about n per state and move, the summary about n^2
     * per move and multiple (1-2 multiples per move on the benchmark
     * games): past a fraction of n states the summary is the cheaper. */
    size_t budget = n <= SUMMARY_MAX_N ? n / SUMMARY_SWITCH_DIV : SIZE_MAX;
    if (force == 1)
        budget = SIZE_MAX;
    if (force == 2)
        budget = 0;
    *method = 1;
    for (size_t i = 0; i < s.cnt && st == CGT_OK; i++) {
        if ((i & 255) == 0 && (st = cgt_poll()) != CGT_OK) {
            st = cgt_poll_error(err, st, "quotient certificate");
            break;
        }
        if (!*ok)
            break;
        if (s.cnt > budget) { /* states held, not taken: one state may add a state per move */
            *method = 2;
            break;
        }
        memcpy(cur, s.w + i * S, S * sizeof *cur);
        uint32_t x = (uint32_t)(cur[0] >> 1);
        uint64_t e = cur[0] & 1;
        const uint64_t *pi = cur + 1;
        for (uint32_t mi = 0; mi < nmv; mi++) {
            const CertMove *c = &t->mv[mv[mi]];
            uint64_t *np = nxt + 1;
            /* prof(T phi(h)) = {z : phi(h) z in prof(T)} */
            gather_bits(np, pi, c->act, n);
            /* prof(x trans(h)) = union of D[x t] */
            for (uint32_t k = 0; k < c->ntr; k++) {
                uint32_t y = x;
                for (uint32_t j = c->poff[k]; j < c->poff[k + 1]; j++)
                    y = c->pacts[j][y];
                const uint64_t *dy = D + (size_t)y * W;
                for (size_t w = 0; w < W; w++)
                    np[w] |= dy[w];
            }
            uint32_t y = c->act ? c->act[x] : x;
            uint64_t e2 = e | (c->ntr > 0);
            nxt[0] = (uint64_t)y << 1 | e2;
            if (state_add(&s, nxt)) {
                if (t->combos)
                    t->combos[y] |= (uint8_t)(1 << (2 * e2 + bit_get(np, 0)));
                /* P iff T non-empty and T meets no P, i.e. 1 not in prof(T) */
                if (bit_get(t->p, y) != (e2 && !bit_get(np, 0))) {
                    *ok = false; /* a wrongly labelled position: rejected */
                    break;
                }
                if (s.cnt > max_states) {
                    st = cgt_error_set(err, CGT_ERR_LIMIT,
                                       "certificate needs more than %llu states",
                                       (unsigned long long)max_states);
                    break;
                }
            }
        }
        if ((i & 4095) == 0)
            cgt_progress("quotient", "certificate: %zu states (%zu done)", s.cnt, i);
    }
    *count = s.cnt;
    *moves = nmv;
    free(cur);
    free(nxt);
    free(s.w);
    free(s.hs);
    free(s.tab);
    if (st == CGT_OK && *method == 2)
        st = summary_run(t, D, mv, nmv, count, ok, err);
    free(mv);
    free(D);
    return st;
}

/* ---- pairs (element, transition set) ---- */

CgtStatus mqcert_pairs(const CertTab *t, uint64_t max_pairs, uint64_t *count, bool *ok,
                       CgtError *err)
{
    if (max_pairs > MQPAIRS_MAX - 1)
        max_pairs = MQPAIRS_MAX - 1;
    MqPairs s;
    mqpairs_init(&s);
    MqSetBuf T = {0};
    mqsetbuf_begin(&T, 0);
    *ok = !bit_get(t->p, 0);
    if (t->combos)
        t->combos[0] |= 1;
    mqpairs_add(&s, 0, &T);
    CgtStatus st = CGT_OK;
    /* T(G+h) = T(G) phi(h) ∪ phi(G) trans(h), phi(G+h) = phi(G) phi(h) */
    for (size_t i = 0; i < s.n && st == CGT_OK && *ok; i++) {
        if ((i & 255) == 0 && (st = cgt_poll()) != CGT_OK) {
            st = cgt_poll_error(err, st, "quotient certificate");
            break;
        }
        for (uint32_t m = 0; m < t->nmoves; m++) {
            const CertMove *c = &t->mv[m];
            uint32_t x = s.st[i];
            size_t o0 = s.off[i], o1 = s.off[i + 1];
            mqsetbuf_begin(&T, (o1 - o0) + c->ntr);
            /* the pool is stable until mqpairs_add */
            for (size_t k = o0; k < o1; k++)
                mqsetbuf_add(&T, c->act ? c->act[s.pool[k]] : s.pool[k]);
            for (uint32_t k = 0; k < c->ntr; k++) {
                uint32_t y = x;
                for (uint32_t j = c->poff[k]; j < c->poff[k + 1]; j++)
                    y = c->pacts[j][y];
                mqsetbuf_add(&T, y);
            }
            uint32_t y = c->act ? c->act[x] : x;
            if (mqpairs_add(&s, y, &T)) {
                size_t len = T.len;
                bool meets = false;
                for (size_t k = 0; k < len && !meets; k++)
                    meets = bit_get(t->p, T.el[k]);
                if (t->combos)
                    t->combos[y] |= (uint8_t)(1 << (2 * (len > 0) + meets));
                if (bit_get(t->p, y) != (len > 0 && !meets)) {
                    *ok = false;
                    break;
                }
                if (s.n > max_pairs) {
                    st = cgt_error_set(err, CGT_ERR_LIMIT, "certificate needs more than %llu pairs",
                                       (unsigned long long)max_pairs);
                    break;
                }
            }
        }
        if ((i & 4095) == 0)
            cgt_progress("quotient", "certificate: %zu pairs", s.n);
    }
    *count = s.n;
    mqsetbuf_free(&T);
    mqpairs_free(&s);
    return st;
}
