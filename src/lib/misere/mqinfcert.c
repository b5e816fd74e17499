/* The certificate of an infinite misère quotient (docs/misere.md, Lemma 1
 * and Lemma 2, rules 4-7 of the proof formats `cgt-misere-infinite 1` and
 * `2`): the closure of the pairs (state, options of X) reachable by adding
 * heaps outside the two groups, each checked on the region a <= A1,
 * b <= B1 for every presence of the groups' heaps (Lemma 2, condition D3)
 * with rows bit-parallel over b.  Uses only the proof's own tables and the
 * game's options: none of the engine's searches.  Generic version of the
 * semilinear certificate first written for heap 34 of 0.07. */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqinf.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* An option triple (s', #H, #G) packed as s' << 8 | ch << 4 | cg. */
#define TRIPLE(s, ch, cg) (((uint32_t)(s) << 8) | ((uint32_t)(ch) << 4) | (uint32_t)(cg))

typedef struct Pairs {
    uint32_t *st;     /* state of pair i */
    size_t *off;      /* elements pool[off[i] .. off[i+1]-1], ascending */
    uint32_t *pool;
    uint64_t *hash;   /* hash of pair i (set_hash) */
    size_t n, cap, plen, pcap;
    uint32_t *tab;    /* open addressing, pair index or UINT32_MAX */
    size_t tcap;
} Pairs;

/* A set of option triples hashed without regard to order (a sum of mixed
 * elements), so that a successor is looked up before it is sorted: most
 * successors are pairs already in the closure, and sorting each of them
 * took two thirds of the certificate's time. */
static uint64_t mix_el(uint32_t x)
{
    uint64_t h = (x + 1) * 0x9e3779b97f4a7c15ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 32);
}

static uint64_t set_hash(uint32_t s, uint64_t elsum)
{
    uint64_t h = (s + 1) * 0x9e3779b97f4a7c15ULL + elsum * 0x100000001b3ULL;
    return h ^ (h >> 31);
}

/* The successor being built: its distinct elements in order of arrival,
 * and a scratch hash set of them (slots stamped with the round, so that it
 * is never cleared). */
typedef struct Scratch {
    uint32_t *el;
    size_t len, cap;
    uint32_t *key, *stamp;
    size_t scap;
    uint32_t round;
    uint64_t sum;
} Scratch;

static size_t sc_slot(const Scratch *c, uint32_t x)
{
    return (size_t)((x * 0x9e3779b97f4a7c15ULL) >> 40) & (c->scap - 1);
}

/* Start a successor that will hold at most need elements. */
static void sc_begin(Scratch *c, size_t need)
{
    if (need > c->cap) {
        c->cap = need * 2;
        c->el = xrealloc(c->el, c->cap * sizeof *c->el);
    }
    if (2 * need > c->scap || !c->key) {
        if (c->scap < 64)
            c->scap = 64;
        while (2 * need > c->scap)
            c->scap *= 2;
        free(c->key);
        free(c->stamp);
        c->key = xmalloc(c->scap * sizeof *c->key);
        c->stamp = xcalloc(c->scap, sizeof *c->stamp);
        c->round = 0;
    }
    if (++c->round == 0) {
        memset(c->stamp, 0, c->scap * sizeof *c->stamp);
        c->round = 1;
    }
    c->len = 0;
    c->sum = 0;
}

static void sc_add(Scratch *c, uint32_t x)
{
    size_t i = sc_slot(c, x);
    while (c->stamp[i] == c->round) {
        if (c->key[i] == x)
            return;
        i = (i + 1) & (c->scap - 1);
    }
    c->stamp[i] = c->round;
    c->key[i] = x;
    c->el[c->len++] = x;
    c->sum += mix_el(x);
}

static bool sc_has(const Scratch *c, uint32_t x)
{
    size_t i = sc_slot(c, x);
    while (c->stamp[i] == c->round) {
        if (c->key[i] == x)
            return true;
        i = (i + 1) & (c->scap - 1);
    }
    return false;
}

static void pairs_rehash(Pairs *P)
{
    free(P->tab);
    P->tab = xmalloc(P->tcap * sizeof *P->tab);
    memset(P->tab, 0xff, P->tcap * sizeof *P->tab);
    for (size_t i = 0; i < P->n; i++) {
        size_t sl = P->hash[i] & (P->tcap - 1);
        while (P->tab[sl] != UINT32_MAX)
            sl = (sl + 1) & (P->tcap - 1);
        P->tab[sl] = (uint32_t)i;
    }
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* Add (s, the set in c) unless present; a new pair's elements are stored
 * ascending (the same pairs in the same order as a sort of every
 * successor gave). */
static void pairs_add(Pairs *P, uint32_t s, Scratch *c)
{
    size_t len = c->len;
    uint64_t h = set_hash(s, c->sum);
    size_t sl = h & (P->tcap - 1);
    while (P->tab[sl] != UINT32_MAX) {
        size_t i = P->tab[sl];
        if (P->hash[i] == h && P->st[i] == s && P->off[i + 1] - P->off[i] == len) {
            size_t q = P->off[i];
            while (q < P->off[i + 1] && sc_has(c, P->pool[q]))
                q++;
            if (q == P->off[i + 1])
                return;
        }
        sl = (sl + 1) & (P->tcap - 1);
    }
    if (P->n + 2 > P->cap) {
        P->cap *= 2;
        P->st = xrealloc(P->st, P->cap * sizeof *P->st);
        P->hash = xrealloc(P->hash, P->cap * sizeof *P->hash);
        P->off = xrealloc(P->off, (P->cap + 1) * sizeof *P->off);
    }
    while (P->plen + len > P->pcap) {
        P->pcap *= 2;
        P->pool = xrealloc(P->pool, P->pcap * sizeof *P->pool);
    }
    if (len) {
        qsort(c->el, len, sizeof *c->el, cmp_u32);
        memcpy(P->pool + P->plen, c->el, len * sizeof *c->el);
    }
    P->plen += len;
    P->st[P->n] = s;
    P->hash[P->n] = h;
    P->off[P->n + 1] = P->plen;
    P->tab[sl] = (uint32_t)P->n;
    P->n++;
    if (P->n * 2 > P->tcap) {
        P->tcap *= 2;
        pairs_rehash(P);
    }
}

enum { MAX_GROUP = 8 }; /* heaps per group: presences are subsets, 2^8 of them */

typedef struct Cert {
    const MqInfProof *p;
    uint32_t RA;      /* rows a = 0..RA-1 */
    uint64_t *row;    /* row[s * RA + a]: bits b of L(s, a, b), b <= B1 + ub */
    uint64_t mask;    /* bits 0..B1 */
    uint32_t gh[2][MAX_GROUP], gn[2]; /* the heaps of each group */
    /* mv[g][m][s * (A1+1) + a]: bits b where a move in the m-th heap of
     * group g+1 reaches a P-position (read when that heap is present) */
    uint64_t *mv[2][MAX_GROUP];
} Cert;

/* fold_Y(s): the state after adding the heaps of option j of heap h that
 * are in neither group, in the listed order; counts of the two groups' heaps
 * in *ch, *cg. */
static uint32_t fold(const MqInfProof *p, uint32_t h, size_t j, uint32_t s, uint32_t *ch,
                     uint32_t *cg)
{
    const HeapOptions *o = &p->opts[h];
    *ch = *cg = 0;
    for (size_t q = o->start[j]; q < o->start[j + 1]; q++) {
        uint32_t y = o->parts[q];
        if (p->grp[y] == 1)
            (*ch)++;
        else if (p->grp[y] == 2)
            (*cg)++;
        else
            s = p->act[y][s];
    }
    return s;
}

void mqinf_group_counts(const MqInfProof *p, uint32_t *ma, uint32_t *mb, uint32_t *ua,
                        uint32_t *ub)
{
    *ma = *mb = *ua = *ub = 0;
    for (uint32_t h = 1; h <= p->N; h++) {
        *ma += p->grp[h] == 1;
        *mb += p->grp[h] == 2;
        for (size_t j = 0; j < p->opts[h].count; j++) {
            uint32_t ch = 0, cg = 0;
            for (size_t q = p->opts[h].start[j]; q < p->opts[h].start[j + 1]; q++) {
                ch += p->grp[p->opts[h].parts[q]] == 1;
                cg += p->grp[p->opts[h].parts[q]] == 2;
            }
            *ua = ch > *ua ? ch : *ua;
            *ub = cg > *ub ? cg : *ub;
        }
    }
}

void mqinf_set_region(MqInfProof *p)
{
    uint32_t ma, mb;
    mqinf_group_counts(p, &ma, &mb, &p->ua, &p->ub);
    p->A1 = p->a0 + p->pa + p->q + p->ub + 1;
    if (p->A1 < p->t + p->q)
        p->A1 = p->t + p->q;
    if (p->A1 + 1 < p->pa + ma)
        p->A1 = p->pa + ma - 1;
    p->B1 = p->b0 + p->pb + p->q + p->ua + 1;
    if (p->B1 < p->t + p->q)
        p->B1 = p->t + p->q;
    if (p->B1 + 1 < p->pb + mb)
        p->B1 = p->pb + mb - 1;
}

CgtStatus mqinf_certify(MqInfProof *p, uint64_t max_pairs, bool *ok, const char **why,
                        CgtError *err)
{
    *ok = false;
    p->fail_bits = 0;
    *why = "";
    uint32_t S = p->S, A1 = p->A1, B1 = p->B1;
    if (B1 + p->ub + 1 > 64 || p->ua > 15 || p->ub > 15 || S >= (1u << 24)) {
        *why = "region wider than 64 columns or too many states for the packed tables";
        return CGT_OK;
    }
    /* rule 5: the region of Lemma 2 (D2), with ua, ub recounted here */
    uint32_t ua, ub, ma, mb;
    mqinf_group_counts(p, &ma, &mb, &ua, &ub);
    uint32_t dq = p->q;
    if (dq < 1 || p->b0 + 1 < p->t + dq || p->a0 < p->t + dq || ua != p->ua || ub != p->ub ||
        A1 < p->t + dq || B1 < p->t + dq || B1 < p->b0 + p->pb + dq + ua + 1 ||
        A1 < p->a0 + p->pa + dq + ub + 1 || B1 + 1 < p->pb + mb || A1 + 1 < p->pa + ma ||
        p->t + 1 < ma || p->t + 1 < mb) {
        *why = "the region is smaller than Lemma 2 needs";
        return CGT_OK;
    }
    /* rule 4 */
    for (uint32_t s = 0; s < S; s++)
        for (uint32_t a = 0; a <= p->TA; a++)
            for (uint32_t b = 0; b <= p->TB; b++)
                if (p->lab[((size_t)s * (p->TA + 1) + a) * (p->TB + 1) + b] !=
                    mqinf_label(p, s, a, b)) {
                    *why = "table entry differs from its reduced entry";
                    return CGT_OK;
                }
    Cert c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.RA = A1 + p->ua + 1;
    c.mask = B1 + 1 == 64 ? ~0ULL : (1ULL << (B1 + 1)) - 1;
    for (int g = 0; g < 2; g++) {
        uint32_t buf[MAX_GROUP + 1];
        uint32_t n = 0;
        for (uint32_t h = 1; h <= p->N; h++)
            if (p->grp[h] == g + 1) {
                if (n == MAX_GROUP) {
                    *why = "a group has more than 8 heaps";
                    return CGT_OK;
                }
                buf[n++] = h;
            }
        if (n == 0) {
            *why = "a group has no heap";
            return CGT_OK;
        }
        memcpy(c.gh[g], buf, n * sizeof *buf);
        c.gn[g] = n;
    }
    c.row = xcalloc((size_t)S * c.RA, sizeof *c.row);
    for (uint32_t s = 0; s < S; s++)
        for (uint32_t a = 0; a < c.RA; a++)
            for (uint32_t b = 0; b <= B1 + p->ub; b++)
                if (mqinf_label(p, s, a, b))
                    c.row[(size_t)s * c.RA + a] |= 1ULL << b;
#define ROW(s, a) c.row[(size_t)(s) * c.RA + (a)]
    /* moves in one heap of group 1 (a >= 1: the option has a - 1 + ch heaps
     * of group 1) or of group 2 (bit b reads b - 1 + cg; bit 0 has none) */
    bool hopt[2][MAX_GROUP];
    for (int g = 0; g < 2; g++)
        for (uint32_t m = 0; m < c.gn[g]; m++) {
            uint32_t h = c.gh[g][m];
            const HeapOptions *o = &p->opts[h];
            hopt[g][m] = o->count > 0;
            uint64_t *mv = c.mv[g][m] = xcalloc((size_t)S * (A1 + 1), sizeof *mv);
            for (uint32_t s = 0; s < S; s++)
                for (uint32_t a = 0; a <= A1; a++) {
                    uint64_t w = 0;
                    uint32_t ch, cg;
                    for (size_t j = 0; j < o->count; j++) {
                        uint32_t y = fold(p, h, j, s, &ch, &cg);
                        if (g == 0) {
                            if (a >= 1)
                                w |= ROW(y, a - 1 + ch) >> cg;
                        } else {
                            uint64_t r = ROW(y, a + ch);
                            w |= (cg == 0 ? r << 1 : r >> (cg - 1)) & ~1ULL;
                        }
                    }
                    mv[(size_t)s * (A1 + 1) + a] = w;
                }
        }
    Pairs P = {0};
    P.cap = 1024;
    P.st = xmalloc(P.cap * sizeof *P.st);
    P.hash = xmalloc(P.cap * sizeof *P.hash);
    P.off = xmalloc((P.cap + 1) * sizeof *P.off);
    P.off[0] = 0;
    P.pcap = 4096;
    P.pool = xmalloc(P.pcap * sizeof *P.pool);
    P.tcap = 4096;
    pairs_rehash(&P);
    Scratch sc = {0};
    sc_begin(&sc, 16);
    pairs_add(&P, 0, &sc);
    CgtStatus st = CGT_OK;
    bool good = true;
    uint64_t checks = 0;
    for (size_t i = 0; i < P.n && good; i++) {
        if ((i & 1023) == 0) {
            st = cgt_poll();
            if (st != CGT_OK) {
                cgt_poll_error(err, st, "the infinite-quotient certificate");
                break;
            }
            if (P.n > max_pairs) {
                st = cgt_error_set(err, CGT_ERR_LIMIT,
                                   "more than %llu pairs in the certificate's closure",
                                   (unsigned long long)max_pairs);
                break;
            }
            if (i % 65536 == 0 && i)
                cgt_progress("quotient", "infinite-quotient certificate: %zu of %zu pairs", i,
                             P.n);
        }
        uint32_t s = P.st[i];
        size_t o0 = P.off[i], o1 = P.off[i + 1];
        /* rule 7 on every row a <= A1, for every presence: Fa = the heaps
         * of group 1 present (empty exactly when a = 0, at most a of them),
         * Fb likewise for group 2, which holds on the bits b = 0 (Fb
         * empty) or b >= |Fb| (Fb not empty) */
        for (uint32_t a = 0; a <= A1 && good; a++) {
            uint64_t winO = 0;
            for (size_t q = o0; q < o1; q++) {
                uint32_t e = P.pool[q];
                winO |= ROW(e >> 8, a + ((e >> 4) & 15)) >> (e & 15);
            }
            checks++;
            size_t at = (size_t)s * (A1 + 1) + a;
            for (uint32_t fa = 0; fa < (1u << c.gn[0]) && good; fa++) {
                uint32_t na = (uint32_t)__builtin_popcount(fa);
                if ((a == 0) != (fa == 0) || na > a)
                    continue;
                uint64_t wa = winO;
                bool hasa = o1 > o0;
                for (uint32_t m = 0; m < c.gn[0]; m++)
                    if (fa >> m & 1) {
                        wa |= c.mv[0][m][at];
                        hasa = hasa || hopt[0][m];
                    }
                for (uint32_t fb = 0; fb < (1u << c.gn[1]); fb++) {
                    uint32_t nb = (uint32_t)__builtin_popcount(fb);
                    uint64_t valid = fb == 0 ? 1ULL : (nb >= 64 ? 0 : ~0ULL << nb);
                    valid &= c.mask;
                    uint64_t win = wa;
                    bool has = hasa;
                    for (uint32_t m = 0; m < c.gn[1]; m++)
                        if (fb >> m & 1) {
                            win |= c.mv[1][m][at];
                            has = has || hopt[1][m];
                        }
                    uint64_t want = (has ? ~0ULL : 0) & ~win & valid;
                    if ((ROW(s, a) & valid) != want) {
                        p->fail_s = s;
                        p->fail_a = a;
                        p->fail_bits = (ROW(s, a) & valid) ^ want;
                        p->fail_want = want;
                        good = false;
                        *why = "a label is not the misère outcome of its options";
                        break;
                    }
                }
            }
        }
        if (!good)
            break;
        /* rule 6: successors */
        for (uint32_t h = 1; h <= p->N; h++) {
            if (p->grp[h])
                continue;
            const HeapOptions *o = &p->opts[h];
            sc_begin(&sc, (o1 - o0) + o->count);
            for (size_t q = o0; q < o1; q++) {
                uint32_t e = P.pool[q];
                sc_add(&sc, TRIPLE(p->act[h][e >> 8], 0, 0) | (e & 255));
            }
            for (size_t j = 0; j < o->count; j++) {
                uint32_t ch, cg;
                uint32_t y = fold(p, h, j, s, &ch, &cg);
                sc_add(&sc, TRIPLE(y, ch, cg));
            }
            pairs_add(&P, p->act[h][s], &sc);
        }
    }
#undef ROW
    p->pairs = P.n;
    p->checks = checks;
    *ok = good && st == CGT_OK;
    free(sc.el);
    free(sc.key);
    free(sc.stamp);
    free(P.st);
    free(P.hash);
    free(P.off);
    free(P.pool);
    free(P.tab);
    free(c.row);
    for (int g = 0; g < 2; g++)
        for (uint32_t m = 0; m < c.gn[g]; m++)
            free(c.mv[g][m]);
    return st;
}
