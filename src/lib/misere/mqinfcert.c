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
#include "lib/misere/mqpairs.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* An option triple (s', #H, #G) packed as s' << 8 | ch << 4 | cg. */
#define TRIPLE(s, ch, cg) (((uint32_t)(s) << 8) | ((uint32_t)(ch) << 4) | (uint32_t)(cg))

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
    if (max_pairs > MQPAIRS_MAX / 2)
        max_pairs = MQPAIRS_MAX / 2; /* checked every 1024 pairs: room for their successors */
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
    MqPairs P;
    mqpairs_init(&P);
    MqSetBuf sc = {0};
    mqsetbuf_begin(&sc, 16);
    mqpairs_add(&P, 0, &sc);
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
            mqsetbuf_begin(&sc, (o1 - o0) + o->count);
            for (size_t q = o0; q < o1; q++) {
                uint32_t e = P.pool[q];
                mqsetbuf_add(&sc, TRIPLE(p->act[h][e >> 8], 0, 0) | (e & 255));
            }
            for (size_t j = 0; j < o->count; j++) {
                uint32_t ch, cg;
                uint32_t y = fold(p, h, j, s, &ch, &cg);
                mqsetbuf_add(&sc, TRIPLE(y, ch, cg));
            }
            mqpairs_add(&P, p->act[h][s], &sc);
        }
    }
#undef ROW
    p->pairs = P.n;
    p->checks = checks;
    *ok = good && st == CGT_OK;
    mqsetbuf_free(&sc);
    mqpairs_free(&P);
    free(c.row);
    for (int g = 0; g < 2; g++)
        for (uint32_t m = 0; m < c.gn[g]; m++)
            free(c.mv[g][m]);
    return st;
}
