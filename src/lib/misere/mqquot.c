/* Quotient snapshots: regeneration of generators from heap images, normal
 * forms in the word order, the presentation of MISERE.md §4, products,
 * outcomes, periodicity and kernel ("last rogue"), heap moves. */
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqquot.h"
#include "lib/util/xalloc.h"

struct Quotient {
    uint32_t n, np, maxh;
    int ng;
    char **names;
    uint32_t *genheap;
    uint32_t *words;  /* n * ng */
    uint32_t **gact;  /* ng tables */
    uint32_t *phi;    /* maxh + 1 */
    int32_t *hl;      /* maxh + 1, letter or -1 */
    uint32_t nl;
    uint32_t **hact;
    uint64_t *p;
    uint32_t *tr_off, *tr_elem;
    uint32_t *exp_heap, *exp_size, nexp;
    Presentation *pres;
    uint32_t *table; /* n*n when n <= 2048 */
    uint32_t *pred, *predh;
};

static void closure(const MqPret *q, const uint32_t *lets, uint32_t k, uint8_t *in,
                    uint32_t *queue)
{
    memset(in, 0, q->n);
    uint32_t qn = 1;
    queue[0] = 0;
    in[0] = 1;
    for (uint32_t i = 0; i < qn; i++)
        for (uint32_t j = 0; j < k; j++) {
            uint32_t y = q->act[lets[j]][queue[i]];
            if (!in[y]) {
                in[y] = 1;
                queue[qn++] = y;
            }
        }
}

/* Regeneration (MISERE.md §4): generator heaps written to gh; returns k. */
static uint32_t choose_gens(const MqPret *q, uint32_t *gh)
{
    uint8_t *in = xmalloc(q->n);
    uint32_t *queue = xmalloc(q->n * sizeof *queue);
    uint32_t *lets = xmalloc((q->nh + 1) * sizeof *lets);
    uint32_t k = 0;
    closure(q, lets, 0, in, queue);
    for (uint32_t h = 1; h < q->nh; h++) {
        if (q->hl[h] < 0 || in[q->act[q->hl[h]][0]])
            continue;
        gh[k] = h;
        lets[k++] = (uint32_t)q->hl[h];
        closure(q, lets, k, in, queue);
    }
    for (uint32_t i = 0; i < k;) {
        uint32_t m = 0;
        for (uint32_t j = 0; j < k; j++)
            if (j != i)
                lets[m++] = (uint32_t)q->hl[gh[j]];
        closure(q, lets, m, in, queue);
        if (in[q->act[q->hl[gh[i]]][0]]) {
            memmove(gh + i, gh + i + 1, (k - i - 1) * sizeof *gh);
            k--;
        } else {
            i++;
        }
    }
    free(in);
    free(queue);
    free(lets);
    return k;
}

int mqquot_count_gens(const MqPret *q)
{
    uint32_t *gh = xmalloc((q->nh + 1) * sizeof *gh);
    int k = (int)choose_gens(q, gh);
    free(gh);
    return k;
}

typedef struct NfCtx2 {
    uint32_t *const *tabs;
    uint8_t *seen;
    uint32_t *order, norder, *par, *pgen;
} NfCtx2;

static void nf_dfs2(NfCtx2 *c, int li, uint32_t x)
{
    if (li < 0)
        return;
    const uint32_t *a = c->tabs[li];
    for (;;) {
        nf_dfs2(c, li - 1, x);
        uint32_t y = a[x];
        if (c->seen[y])
            break;
        c->seen[y] = 1;
        c->par[y] = x;
        c->pgen[y] = (uint32_t)li;
        c->order[c->norder++] = y;
        x = y;
    }
}

static int cmp_words(const uint32_t *a, const uint32_t *b, int ng)
{
    for (int i = ng; i-- > 0;)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Value of an arbitrary word (exponents over generators). */
static uint32_t eval_word(const Quotient *Q, const uint32_t *w)
{
    uint32_t x = 0;
    for (int g = 0; g < Q->ng; g++)
        for (uint32_t k = 0; k < w[g]; k++)
            x = Q->gact[g][x];
    return x;
}

/* Non-normal words are closed upwards (the word order is a monomial
 * order), so word(x)+g is a divisibility-minimal non-normal word iff it is
 * non-normal and removing any one letter gives a normal form.  Each
 * minimal word is taken once, from its lowest generator. */
static void build_presentation(Quotient *Q)
{
    int ng = Q->ng;
    size_t m = 0, cap = 16;
    uint32_t *lhs = xmalloc(cap * (size_t)(ng ? ng : 1) * sizeof *lhs);
    uint32_t *rhs = xmalloc(cap * sizeof *rhs);
    uint32_t *w = xmalloc((size_t)(ng ? ng : 1) * sizeof *w);
    for (uint32_t x = 0; x < Q->n; x++)
        for (int g = 0; g < ng; g++) {
            memcpy(w, Q->words + (size_t)x * ng, ng * sizeof *w);
            w[g]++;
            uint32_t y = Q->gact[g][x];
            if (cmp_words(w, Q->words + (size_t)y * ng, ng) == 0)
                continue;
            int low = 0;
            while (!w[low])
                low++;
            if (low != g)
                continue; /* the same word is taken from its lowest generator */
            bool minimal = true;
            for (int h = g + 1; h < ng && minimal; h++) {
                if (!w[h])
                    continue;
                w[h]--;
                uint32_t z = eval_word(Q, w);
                minimal = cmp_words(w, Q->words + (size_t)z * ng, ng) == 0;
                w[h]++;
            }
            if (!minimal)
                continue;
            if (m == cap) {
                cap *= 2;
                lhs = xrealloc(lhs, cap * ng * sizeof *lhs);
                rhs = xrealloc(rhs, cap * sizeof *rhs);
            }
            memcpy(lhs + m * ng, w, ng * sizeof *w);
            rhs[m++] = y;
        }
    size_t *idx = xmalloc((m + 1) * sizeof *idx);
    for (size_t i = 0; i < m; i++)
        idx[i] = i;
    for (size_t i = 1; i < m; i++)
        for (size_t j = i; j > 0 && cmp_words(lhs + idx[j] * ng, lhs + idx[j - 1] * ng, ng) < 0;
             j--) {
            size_t t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    Q->pres = pres_new(ng, (const char *const *)Q->names);
    for (size_t i = 0; i < m; i++)
        pres_add_relation(Q->pres, lhs + idx[i] * ng, Q->words + (size_t)rhs[idx[i]] * ng);
    free(idx);
    free(w);
    free(lhs);
    free(rhs);
}

static char *default_name(int i)
{
    if (i < 26)
        return xasprintf("%c", 'a' + i);
    if (i < 52)
        return xasprintf("%c", 'A' + i - 26);
    return xasprintf("g%d", i);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

Quotient *mqquot_build(const MqPret *q, const uint32_t *exp_heap, const uint32_t *exp_size,
                       uint32_t nexp, const char *const *names, int nnames, CgtError *err)
{
    uint32_t *gh = xmalloc((q->nh + 1) * sizeof *gh);
    int ng = (int)choose_gens(q, gh);
    if (names && nnames != ng) {
        free(gh);
        cgt_error_set(err, CGT_ERR_DOMAIN, "the quotient has %d generators but %d names were given",
                      ng, nnames);
        cgt_error_hint(err, "give exactly %d names, in the order of the heaps that produce them",
                       ng);
        return NULL;
    }
    Quotient *Q = xcalloc(1, sizeof *Q);
    uint32_t n = q->n;
    Q->n = n;
    Q->ng = ng;
    Q->maxh = q->nh - 1;
    Q->names = xcalloc((size_t)ng + 1, sizeof *Q->names);
    Q->genheap = gh;
    for (int i = 0; i < ng; i++)
        Q->names[i] = names ? xstrdup(names[i]) : default_name(i);
    /* normal forms: least words, highest generator outermost */
    uint32_t **tabs = xmalloc(((size_t)ng + 1) * sizeof *tabs);
    for (int g = 0; g < ng; g++)
        tabs[g] = q->act[q->hl[gh[g]]];
    NfCtx2 c = {0};
    c.tabs = tabs;
    c.seen = xcalloc(n, 1);
    c.order = xmalloc(n * sizeof *c.order);
    c.par = xmalloc(n * sizeof *c.par);
    c.pgen = xmalloc(n * sizeof *c.pgen);
    c.seen[0] = 1;
    c.order[c.norder++] = 0;
    nf_dfs2(&c, ng - 1, 0);
    uint32_t *pos = xmalloc(n * sizeof *pos);
    for (uint32_t i = 0; i < n; i++)
        pos[c.order[i]] = i;
    Q->words = xcalloc((size_t)n * (ng ? ng : 1), sizeof *Q->words);
    for (uint32_t i = 1; i < n; i++) {
        uint32_t x = c.order[i], pp = pos[c.par[x]];
        memcpy(Q->words + (size_t)i * ng, Q->words + (size_t)pp * ng, ng * sizeof *Q->words);
        Q->words[(size_t)i * ng + c.pgen[x]]++;
    }
    Q->gact = xmalloc(((size_t)ng + 1) * sizeof *Q->gact);
    for (int g = 0; g < ng; g++) {
        Q->gact[g] = xmalloc(n * sizeof **Q->gact);
        for (uint32_t i = 0; i < n; i++)
            Q->gact[g][i] = pos[tabs[g][c.order[i]]];
    }
    Q->nl = q->nl;
    Q->hact = xmalloc((q->nl + 1) * sizeof *Q->hact);
    for (uint32_t l = 0; l < q->nl; l++) {
        Q->hact[l] = xmalloc(n * sizeof **Q->hact);
        for (uint32_t i = 0; i < n; i++)
            Q->hact[l][i] = pos[q->act[l][c.order[i]]];
    }
    Q->hl = xmalloc(q->nh * sizeof *Q->hl);
    Q->phi = xmalloc(q->nh * sizeof *Q->phi);
    for (uint32_t h = 0; h < q->nh; h++) {
        Q->hl[h] = q->hl[h];
        Q->phi[h] = q->hl[h] < 0 ? 0 : Q->hact[q->hl[h]][0];
    }
    Q->p = xcalloc((n + 63) / 64 + 1, 8);
    for (uint32_t i = 0; i < n; i++)
        if (mq_bit(q->p, c.order[i])) {
            Q->p[i >> 6] |= (uint64_t)1 << (i & 63);
            Q->np++;
        }
    Q->pred = xmalloc(n * sizeof *Q->pred);
    Q->predh = xmalloc(n * sizeof *Q->predh);
    for (uint32_t x = 0; x < n; x++) {
        Q->pred[pos[x]] = pos[q->pred[x]];
        Q->predh[pos[x]] = q->predh[x];
    }
    /* transition sets are filled by mqquot_set_trans */
    Q->tr_off = xcalloc(q->nh + 1, sizeof *Q->tr_off);
    Q->tr_elem = NULL;
    Q->exp_heap = xmalloc((nexp + 1) * sizeof *Q->exp_heap);
    Q->exp_size = xmalloc((nexp + 1) * sizeof *Q->exp_size);
    if (nexp) { /* exp_heap is NULL without expansions: memcpy(_, NULL, 0) is UB */
        memcpy(Q->exp_heap, exp_heap, nexp * sizeof *exp_heap);
        memcpy(Q->exp_size, exp_size, nexp * sizeof *exp_size);
    }
    Q->nexp = nexp;
    if (n <= 2048) {
        Q->table = xmalloc((size_t)n * n * sizeof *Q->table);
        for (uint32_t x = 0; x < n; x++) {
            uint32_t *row = Q->table + (size_t)x * n;
            row[0] = x;
            for (uint32_t i = 1; i < n; i++) {
                uint32_t y = c.order[i];
                row[i] = Q->gact[c.pgen[y]][row[pos[c.par[y]]]];
            }
        }
    }
    build_presentation(Q);
    free(pos);
    free(c.seen);
    free(c.order);
    free(c.par);
    free(c.pgen);
    free(tabs);
    return Q;
}

void mqquot_set_trans(Quotient *Q, const MqTr *t)
{
    uint32_t tot = t->off[t->nh];
    free(Q->tr_elem);
    Q->tr_elem = xmalloc((tot + 1) * sizeof *Q->tr_elem);
    for (uint32_t h = 0; h <= Q->maxh; h++)
        Q->tr_off[h] = t->off[h];
    Q->tr_off[Q->maxh + 1] = tot;
    for (uint32_t i = 0; i < tot; i++) {
        /* t->elem is in the pretension's numbering: re-evaluate by letters */
        uint32_t x = 0;
        for (uint32_t k = t->loff[i]; k < t->loff[i + 1]; k++)
            x = Q->hact[t->let[k]][x];
        Q->tr_elem[i] = x;
    }
    for (uint32_t h = 0; h <= Q->maxh; h++)
        qsort(Q->tr_elem + Q->tr_off[h], Q->tr_off[h + 1] - Q->tr_off[h], sizeof *Q->tr_elem,
              cmp_u32);
}

void quotient_free(Quotient *Q)
{
    if (!Q)
        return;
    for (int g = 0; g < Q->ng; g++) {
        free(Q->names[g]);
        free(Q->gact[g]);
    }
    for (uint32_t l = 0; l < Q->nl; l++)
        free(Q->hact[l]);
    free(Q->names);
    free(Q->gact);
    free(Q->hact);
    free(Q->genheap);
    free(Q->words);
    free(Q->phi);
    free(Q->hl);
    free(Q->p);
    free(Q->tr_off);
    free(Q->tr_elem);
    free(Q->exp_heap);
    free(Q->exp_size);
    free(Q->table);
    free(Q->pred);
    free(Q->predh);
    pres_free(Q->pres);
    free(Q);
}

uint32_t quotient_size(const Quotient *q) { return q->n; }
uint32_t quotient_psize(const Quotient *q) { return q->np; }
uint32_t quotient_max_heap(const Quotient *q) { return q->maxh; }
int quotient_ngens(const Quotient *q) { return q->ng; }
const char *quotient_gen_name(const Quotient *q, int g) { return q->names[g]; }
char *const *quotient_gen_names(const Quotient *q) { return q->names; }
uint32_t quotient_gen_heap(const Quotient *q, int g) { return q->genheap[g]; }
const uint32_t *quotient_word(const Quotient *q, uint32_t x)
{
    return q->words + (size_t)x * q->ng;
}
char *quotient_format(const Quotient *q, uint32_t x)
{
    return word_format(quotient_word(q, x), q->ng, q->names);
}
bool quotient_is_p(const Quotient *q, uint32_t x) { return mq_bit(q->p, x); }
uint32_t quotient_mul_gen(const Quotient *q, uint32_t x, int g) { return q->gact[g][x]; }
uint32_t quotient_phi(const Quotient *q, uint32_t h) { return q->phi[h]; }
const Presentation *quotient_presentation(const Quotient *q) { return q->pres; }

uint32_t quotient_mul(const Quotient *q, uint32_t x, uint32_t y)
{
    if (q->table)
        return q->table[(size_t)x * q->n + y];
    const uint32_t *w = quotient_word(q, y);
    for (int g = 0; g < q->ng; g++)
        for (uint32_t k = 0; k < w[g]; k++)
            x = q->gact[g][x];
    return x;
}

const uint32_t *quotient_trans(const Quotient *q, uint32_t h, size_t *count)
{
    *count = q->tr_off[h + 1] - q->tr_off[h];
    return q->tr_elem + q->tr_off[h];
}

size_t quotient_expansions(const Quotient *q, const uint32_t **heaps, const uint32_t **sizes)
{
    *heaps = q->exp_heap;
    *sizes = q->exp_size;
    return q->nexp;
}

bool quotient_is_tame(const Quotient *q)
{
    if (q->n <= 2)
        return true;
    uint32_t m = q->n - 2;
    return q->np == 2 && (m & (m - 1)) == 0;
}

MqPeriod quotient_periodicity(const Quotient *q, int max_parts, int max_take)
{
    MqPeriod r = mq_period_of(q->phi, q->maxh + 1, max_parts, max_take);
    uint32_t u = 0;
    for (uint32_t x = 0; x < q->n; x++)
        u = quotient_mul(q, u, x);
    uint8_t *ker = xcalloc(q->n, 1);
    for (uint32_t x = 0; x < q->n; x++)
        ker[quotient_mul(q, x, u)] = 1;
    r.last_rogue = -1;
    for (uint32_t h = 0; h <= q->maxh; h++)
        if (!ker[q->phi[h]])
            r.last_rogue = (int32_t)h;
    free(ker);
    return r;
}

CgtStatus quotient_eval(const Quotient *q, const uint32_t *heaps, size_t k, uint32_t *x,
                        CgtError *err)
{
    uint32_t e = 0;
    for (size_t i = 0; i < k; i++) {
        if (heaps[i] > q->maxh)
            return cgt_error_set(err, CGT_ERR_DOMAIN,
                                 "heap %u is beyond the quotient, which covers heaps up to %u",
                                 heaps[i], q->maxh);
        if (q->hl[heaps[i]] >= 0)
            e = q->hact[q->hl[heaps[i]]][e];
    }
    *x = e;
    return CGT_OK;
}

CgtStatus quotient_outcome(const Quotient *q, const uint32_t *heaps, size_t k, bool *is_p,
                           CgtError *err)
{
    uint32_t x = 0;
    CgtStatus st = quotient_eval(q, heaps, k, &x, err);
    if (st == CGT_OK)
        *is_p = mq_bit(q->p, x);
    return st;
}

void quotient_least_game(const Quotient *q, uint32_t x, uint32_t *g)
{
    memset(g, 0, (q->maxh + 1) * sizeof *g);
    while (x != 0) {
        g[q->predh[x]]++;
        x = q->pred[x];
    }
}

CgtStatus quotient_heap_moves(const Quotient *q, const HeapGame *game, uint32_t n, bool *heap_is_p,
                              MqMove **moves, size_t *count, CgtError *err)
{
    *moves = NULL;
    *count = 0;
    if (n > q->maxh)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "heap %u is beyond the quotient, which covers heaps up to %u", n,
                             q->maxh);
    HeapOptions o;
    heapopts_init(&o);
    CgtStatus st = game->options(game->ctx, n, &o, err);
    if (st != CGT_OK) {
        heapopts_free(&o);
        return st;
    }
    MqMove *mv = xcalloc(o.count + 1, sizeof *mv);
    for (size_t i = 0; i < o.count; i++) {
        size_t k = o.start[i + 1] - o.start[i];
        if (k > 8) {
            free(mv);
            heapopts_free(&o);
            return cgt_error_set(err, CGT_ERR_DOMAIN, "a move of heap %u leaves more than 8 heaps",
                                 n);
        }
        memcpy(mv[i].parts, o.parts + o.start[i], k * sizeof *o.parts);
        mv[i].nparts = (uint32_t)k;
        quotient_outcome(q, mv[i].parts, k, &mv[i].is_p, err);
    }
    quotient_outcome(q, &n, 1, heap_is_p, err);
    *moves = mv;
    *count = o.count;
    heapopts_free(&o);
    return CGT_OK;
}
