/* Checking a claimed misère quotient (`verify`): a finite commutative
 * monoid given by generator action tables, a P set and phi(0..n) is tested
 * with the least-failure searches (docs/misere.md "The searches"), for
 * reducedness (automaton minimisation) and for generation by heap images. */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/misere/mqint.h"
#include "lib/util/xalloc.h"

static CgtStatus claim_products(const MqClaim *c, uint32_t **par, uint32_t **pgen, CgtError *err)
{
    uint32_t n = c->size;
    for (int g = 0; g < c->ngens; g++)
        for (uint32_t x = 0; x < n; x++)
            if (c->act[(size_t)g * n + x] >= n)
                return cgt_error_set(err, CGT_ERR_DOMAIN,
                                     "generator %d maps element %u outside the monoid", g, x);
    for (int g = 0; g < c->ngens; g++)
        for (int k = 0; k < g; k++)
            for (uint32_t x = 0; x < n; x++)
                if (c->act[(size_t)g * n + c->act[(size_t)k * n + x]] !=
                    c->act[(size_t)k * n + c->act[(size_t)g * n + x]])
                    return cgt_error_set(err, CGT_ERR_DOMAIN,
                                         "generators %d and %d do not commute at element %u", k,
                                         g, x);
    *par = xmalloc(n * sizeof **par);
    *pgen = xmalloc(n * sizeof **pgen);
    uint32_t *queue = xmalloc(n * sizeof *queue), qn = 1;
    uint8_t *in = xcalloc(n, 1);
    in[0] = 1;
    queue[0] = 0;
    for (uint32_t i = 0; i < qn; i++)
        for (int g = 0; g < c->ngens; g++) {
            uint32_t y = c->act[(size_t)g * n + queue[i]];
            if (!in[y]) {
                in[y] = 1;
                (*par)[y] = queue[i];
                (*pgen)[y] = (uint32_t)g;
                queue[qn++] = y;
            }
        }
    free(in);
    free(queue);
    if (qn != n) {
        free(*par);
        free(*pgen);
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "the generators reach only %u of the %u elements", qn, n);
    }
    return CGT_OK;
}

/* col[x] = x*y for all x, with y's word along the generator BFS tree. */
static void claim_col(const MqClaim *c, const uint32_t *par, const uint32_t *pgen, uint32_t y,
                      uint32_t *col)
{
    uint32_t n = c->size;
    for (uint32_t x = 0; x < n; x++)
        col[x] = x;
    while (y != 0) {
        const uint32_t *a = c->act + (size_t)pgen[y] * n;
        for (uint32_t x = 0; x < n; x++)
            col[x] = a[col[x]];
        y = par[y];
    }
}

CgtStatus mq_check_claim(const MqClaim *c, const HeapGame *game, MqClaimResult *res,
                         CgtError *err)
{
    memset(res, 0, sizeof *res);
    uint32_t n = c->size, nh = c->n + 1;
    if (n == 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "a claimed quotient needs at least one element");
    for (size_t i = 0; i < c->np; i++)
        if (c->p[i] >= n)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "P element %u is not in the monoid", c->p[i]);
    for (uint32_t h = 0; h < nh; h++)
        if (c->phi[h] >= n)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "phi(%u) = %u is not in the monoid", h,
                                 c->phi[h]);
    uint32_t *par = NULL, *pgen = NULL;
    CgtStatus st = claim_products(c, &par, &pgen, err);
    if (st != CGT_OK)
        return st;
    MqOpts o = {0};
    st = mqopts_extend(&o, game, nh, err);
    if (st != CGT_OK)
        goto out0;
    for (uint32_t h = 0; h < nh; h++)
        if (o.o[h].count == 0 && c->phi[h] != 0) {
            st = cgt_error_set(err, CGT_ERR_DOMAIN,
                               "heap %u has no moves, so phi(%u) must be the identity", h, h);
            goto out0;
        }
    /* heap-image submonoid in BFS order */
    uint32_t *idx = xmalloc(n * sizeof *idx), *list = xmalloc(n * sizeof *list), cnt = 1;
    for (uint32_t x = 0; x < n; x++)
        idx[x] = UINT32_MAX;
    idx[0] = 0;
    list[0] = 0;
    uint32_t **cols = xcalloc(nh, sizeof *cols);
    for (uint32_t h = 1; h < nh; h++) {
        if (o.o[h].count == 0)
            continue;
        cols[h] = xmalloc(n * sizeof **cols);
        claim_col(c, par, pgen, c->phi[h], cols[h]);
    }
    for (uint32_t i = 0; i < cnt; i++)
        for (uint32_t h = 1; h < nh; h++)
            if (cols[h] && idx[cols[h][list[i]]] == UINT32_MAX) {
                idx[cols[h][list[i]]] = cnt;
                list[cnt++] = cols[h][list[i]];
            }
    res->generated_ok = cnt == n;
    for (uint32_t x = 0; x < n && !res->generated_ok; x++)
        if (idx[x] == UINT32_MAX) {
            res->unreached = x;
            break;
        }
    MqPret *q = xcalloc(1, sizeof *q);
    q->n = cnt;
    q->nh = nh;
    q->hl = xmalloc(nh * sizeof *q->hl);
    q->act = xcalloc(nh + 1, sizeof *q->act);
    q->p = xcalloc((cnt + 63) / 64 + 1, 8);
    q->pred = xcalloc(cnt, sizeof *q->pred);
    q->predh = xcalloc(cnt, sizeof *q->predh);
    for (size_t i = 0; i < c->np; i++)
        if (idx[c->p[i]] != UINT32_MAX)
            q->p[idx[c->p[i]] >> 6] |= (uint64_t)1 << (idx[c->p[i]] & 63);
    for (uint32_t h = 0; h < nh; h++) {
        q->hl[h] = -1;
        if (!cols[h])
            continue;
        for (uint32_t l = 0; l < q->nl && q->hl[h] < 0; l++)
            if (q->act[l][0] == idx[c->phi[h]])
                q->hl[h] = (int32_t)l;
        if (q->hl[h] >= 0)
            continue;
        q->act[q->nl] = xmalloc(cnt * sizeof **q->act);
        for (uint32_t i = 0; i < cnt; i++)
            q->act[q->nl][i] = idx[cols[h][list[i]]];
        q->hl[h] = (int32_t)q->nl++;
    }
    mqpret_least_tree(q);
    MqTr t;
    mqtr_build(&t, q, &o);
    uint32_t *pf = xcalloc(nh, sizeof *pf), *nf = xcalloc(nh, sizeof *nf);
    bool has_pf = mq_least_pfail(q, &t, pf), has_nf = false, complete = false;
    MqAnti an;
    mqanti_init(&an, cnt);
    st = mq_least_nfail(q, &t, has_pf ? pf : NULL, &an, &has_nf, nf, &complete, err);
    mqanti_free(&an);
    if (st == CGT_OK) {
        res->labelling_ok = !has_pf && !has_nf && !mq_bit(q->p, 0);
        if (mq_bit(q->p, 0)) {
            /* the empty game has no move, so it is an N-position */
            res->kind = MQ_CLAIM_PFAIL;
            res->game = xcalloc(nh, sizeof *res->game);
            res->true_is_p = false;
        } else if (has_pf || has_nf) {
            res->kind = has_nf ? MQ_CLAIM_NFAIL : MQ_CLAIM_PFAIL;
            res->game = xmalloc(nh * sizeof *res->game);
            memcpy(res->game, has_nf ? nf : pf, nh * sizeof *res->game);
            res->true_is_p = has_nf;
            if (!has_nf) {
                /* a move of the P-failure to a position labelled P */
                bool found = false;
                for (uint32_t h = 1; h < nh && !found; h++) {
                    if (!res->game[h])
                        continue;
                    res->game[h]--;
                    uint32_t rest = mqpret_eval(q, res->game);
                    res->game[h]++;
                    for (uint32_t i = t.off[h]; i < t.off[h + 1] && !found; i++)
                        if (mq_bit(q->p, mq_fold(q, &t, i, rest))) {
                            found = true;
                            res->move_heap = h;
                            /* find an option of h with this image */
                            MqOptIt it;
                            mqopt_begin(&it, &o.o[h]);
                            const uint32_t *parts;
                            uint32_t np;
                            while ((parts = mqopt_next(&it, &np))) {
                                uint32_t y = rest;
                                for (uint32_t j = 0; j < np; j++)
                                    if (q->hl[parts[j]] >= 0)
                                        y = q->act[q->hl[parts[j]]][y];
                                if (y == mq_fold(q, &t, i, rest) && np <= 8) {
                                    res->move_nparts = np;
                                    memcpy(res->move_parts, parts, np * sizeof *parts);
                                    break;
                                }
                            }
                        }
                }
            }
        }
        /* reducedness on the claimed monoid with generator letters */
        uint32_t **gl = xmalloc(((size_t)c->ngens + 1) * sizeof *gl);
        for (int g = 0; g < c->ngens; g++)
            gl[g] = (uint32_t *)(c->act + (size_t)g * n);
        uint64_t *pb = xcalloc((n + 63) / 64 + 1, 8);
        for (size_t i = 0; i < c->np; i++)
            pb[c->p[i] >> 6] |= (uint64_t)1 << (c->p[i] & 63);
        uint32_t *cls = xmalloc(n * sizeof *cls);
        uint32_t k = mq_minimise(n, (uint32_t)c->ngens, gl, pb, cls);
        res->reduced_ok = k == n;
        for (uint32_t a = 0; a < n && !res->reduced_ok; a++)
            for (uint32_t b = 0; b < a; b++)
                if (cls[a] == cls[b]) {
                    res->same_a = b;
                    res->same_b = a;
                    a = n;
                    break;
                }
        free(cls);
        free(pb);
        free(gl);
        res->is_quotient = res->labelling_ok && res->reduced_ok && res->generated_ok;
    }
    mqtr_free(&t);
    free(pf);
    free(nf);
    mqpret_free(q);
    for (uint32_t h = 0; h < nh; h++)
        free(cols[h]);
    free(cols);
    free(idx);
    free(list);
out0:
    mqopts_free(&o);
    free(par);
    free(pgen);
    return st;
}
