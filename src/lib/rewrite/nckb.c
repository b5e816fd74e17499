/* String rewriting Knuth–Bendix completion under shortlex (nckb.h):
 * overlaps of left sides (Knuth & Bendix 1970; Sims 1994, ch. 2), with
 * inter-reduction after every new rule, stack-based left-to-right rewriting
 * with rules indexed by the last letter of their left side. */
#include "lib/rewrite/nckb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

typedef VEC(uint32_t) Word;

/* memcpy of n letters that allows NULL pointers when n is 0 */
static void wcopy(uint32_t *dst, const uint32_t *src, size_t n)
{
    if (n)
        memcpy(dst, src, n * sizeof *dst);
}

/* ---------------------------------------------------------- presentations */

NcPresentation *ncpres_new(int ngens, const char *const *names)
{
    NcPresentation *p = xcalloc(1, sizeof *p);
    p->ngens = ngens;
    p->gen_names = names_copy(ngens, names);
    return p;
}

void ncpres_free(NcPresentation *p)
{
    if (!p)
        return;
    names_free(p->gen_names, p->ngens);
    free(p->words);
    free(p->lhs_off);
    free(p->lhs_len);
    free(p->rhs_off);
    free(p->rhs_len);
    free(p);
}

static size_t pres_push_word(NcPresentation *p, const uint32_t *w, size_t n)
{
    if (p->nwords + n + 1 > p->cap_words) {
        while (p->nwords + n + 1 > p->cap_words)
            p->cap_words = p->cap_words ? 2 * p->cap_words : 64;
        p->words = xrealloc(p->words, p->cap_words * sizeof *p->words);
    }
    size_t off = p->nwords;
    if (n)
        wcopy(p->words + off, w, n);
    p->nwords += n;
    return off;
}

void ncpres_add_relation(NcPresentation *p, const uint32_t *lhs, size_t llen,
                         const uint32_t *rhs, size_t rlen)
{
    if (p->nrels + 1 > p->cap_rels) {
        p->cap_rels = p->cap_rels ? 2 * p->cap_rels : 8;
        p->lhs_off = xrealloc(p->lhs_off, p->cap_rels * sizeof *p->lhs_off);
        p->lhs_len = xrealloc(p->lhs_len, p->cap_rels * sizeof *p->lhs_len);
        p->rhs_off = xrealloc(p->rhs_off, p->cap_rels * sizeof *p->rhs_off);
        p->rhs_len = xrealloc(p->rhs_len, p->cap_rels * sizeof *p->rhs_len);
    }
    p->lhs_off[p->nrels] = pres_push_word(p, lhs, llen);
    p->lhs_len[p->nrels] = llen;
    p->rhs_off[p->nrels] = pres_push_word(p, rhs, rlen);
    p->rhs_len[p->nrels] = rlen;
    p->nrels++;
}

static void spell(const uint32_t *e, int g, Word *w)
{
    w->len = 0;
    for (int i = 0; i < g; i++)
        for (uint32_t k = 0; k < e[i]; k++)
            VEC_PUSH(*w, (uint32_t)i);
}

NcPresentation *ncpres_from_commutative(const Presentation *p)
{
    int g = p->ngens;
    NcPresentation *q = ncpres_new(g, (const char *const *)p->gen_names);
    Word a = {0}, b = {0};
    for (size_t i = 0; i < p->nrels; i++) {
        spell(p->rels + 2 * i * (size_t)g, g, &a);
        spell(p->rels + (2 * i + 1) * (size_t)g, g, &b);
        ncpres_add_relation(q, a.data, a.len, b.data, b.len);
    }
    for (int i = 0; i < g; i++)
        for (int j = i + 1; j < g; j++) {
            uint32_t l[2] = {(uint32_t)j, (uint32_t)i}, r[2] = {(uint32_t)i, (uint32_t)j};
            ncpres_add_relation(q, l, 2, r, 2);
        }
    VEC_FREE(a);
    VEC_FREE(b);
    return q;
}

/* ------------------------------------------------------------- completion */

typedef struct {
    int g;
    const int *rank;
    Word pool;
    VEC(size_t) loff, llen, roff, rlen;
    VEC(bool) alive;
    Word *bucket;      /* per last letter: rule ids (dead ones skipped) */
    Word eqs;          /* pending equations: len a, a..., len b, b... */
    Word in, out, t1, t2;
    size_t nalive;
} Nc;

static int sl_cmp(const int *rank, const uint32_t *a, size_t al, const uint32_t *b, size_t bl)
{
    if (al != bl)
        return al < bl ? -1 : 1;
    for (size_t i = 0; i < al; i++)
        if (a[i] != b[i])
            return rank[a[i]] < rank[b[i]] ? -1 : 1;
    return 0;
}

/* Rewrite w into c->out, left to right with a stack (Sims 1994, §2.7). */
static CgtStatus nc_reduce(Nc *c, const uint32_t *w, size_t len, size_t max_steps, CgtError *err)
{
    c->in.len = 0;
    c->out.len = 0;
    VEC_RESERVE(c->in, len);
    for (size_t i = 0; i < len; i++)
        c->in.data[i] = w[len - 1 - i];
    c->in.len = len;
    size_t steps = 0;
    while (c->in.len) {
        uint32_t x = c->in.data[--c->in.len];
        VEC_PUSH(c->out, x);
        Word *bk = &c->bucket[x];
        for (size_t t = 0; t < bk->len; t++) {
            size_t id = bk->data[t];
            if (!c->alive.data[id])
                continue;
            size_t L = c->llen.data[id];
            if (L > c->out.len ||
                memcmp(c->out.data + c->out.len - L, c->pool.data + c->loff.data[id],
                       L * sizeof *c->out.data) != 0)
                continue;
            if (max_steps && ++steps > max_steps)
                return cgt_error_set(err, CGT_ERR_LIMIT,
                                     "rewriting did not stop after %zu steps", max_steps);
            c->out.len -= L;
            size_t R = c->rlen.data[id], ro = c->roff.data[id];
            VEC_RESERVE(c->in, c->in.len + R);
            for (size_t k = 0; k < R; k++)
                c->in.data[c->in.len++] = c->pool.data[ro + R - 1 - k];
            break;
        }
    }
    return CGT_OK;
}

static bool is_factor(const uint32_t *u, size_t ul, const uint32_t *w, size_t wl)
{
    if (ul > wl)
        return false;
    for (size_t i = 0; i + ul <= wl; i++)
        if (memcmp(w + i, u, ul * sizeof *u) == 0)
            return true;
    return false;
}

static void push_eq(Nc *c, const uint32_t *a, size_t al, const uint32_t *b, size_t bl)
{
    VEC_RESERVE(c->eqs, c->eqs.len + al + bl + 2);
    c->eqs.data[c->eqs.len++] = (uint32_t)al;
    wcopy(c->eqs.data + c->eqs.len, a, al);
    c->eqs.len += al;
    c->eqs.data[c->eqs.len++] = (uint32_t)bl;
    wcopy(c->eqs.data + c->eqs.len, b, bl);
    c->eqs.len += bl;
}

static void compact_buckets(Nc *c)
{
    for (int x = 0; x < c->g; x++) {
        Word *bk = &c->bucket[x];
        size_t k = 0;
        for (size_t t = 0; t < bk->len; t++)
            if (c->alive.data[bk->data[t]])
                bk->data[k++] = bk->data[t];
        bk->len = k;
    }
}

/* Add a = b: reduce, orient, inter-reduce the other rules. */
static CgtStatus add_eq(Nc *c, const NcLimits *lim, CgtError *err)
{
    /* pop one equation from the end of the queue: find its start */
    Word *q = &c->eqs;
    /* equations are pushed as [al a.. bl b..]; walk from the front to the
     * last one (queue is short: only rules killed by one new rule) */
    size_t pos = 0, last = 0;
    while (pos < q->len) {
        last = pos;
        size_t al = q->data[pos];
        size_t bl = q->data[pos + 1 + al];
        pos += al + bl + 2;
    }
    size_t al = q->data[last];
    const uint32_t *a = q->data + last + 1;
    size_t bl = q->data[last + 1 + al];
    const uint32_t *b = a + al + 1;
    CgtStatus st = nc_reduce(c, a, al, 0, err);
    if (st != CGT_OK)
        return st;
    c->t1.len = 0;
    VEC_RESERVE(c->t1, c->out.len + 1);
    wcopy(c->t1.data, c->out.data, c->out.len);
    c->t1.len = c->out.len;
    st = nc_reduce(c, b, bl, 0, err);
    if (st != CGT_OK)
        return st;
    q->len = last;
    Word *u = &c->t1, *v = &c->out;
    int cmp = sl_cmp(c->rank, u->data, u->len, v->data, v->len);
    if (cmp == 0)
        return CGT_OK;
    if (cmp < 0) {
        Word *t = u;
        u = v;
        v = t;
    }
    if (lim && lim->max_lhs_len && u->len > lim->max_lhs_len)
        return cgt_error_set(err, CGT_ERR_LIMIT, "not confluent yet: a left side longer than "
                             "%zu letters", lim->max_lhs_len);
    /* The rule limit (NcLimits.max_rules, default 200000 live rules) is
     * checked here, where a rule would be added, because one critical pair
     * can cascade into many rules: a check between pairs alone overshot a
     * small requested limit (max_rules 5 gave 49 rules). */
    size_t max_rules = lim && lim->max_rules ? lim->max_rules : 200000;
    if (c->nalive >= max_rules) {
        size_t kills = 0;
        for (size_t k = 0; k < c->alive.len; k++)
            if (c->alive.data[k] &&
                is_factor(u->data, u->len, c->pool.data + c->loff.data[k], c->llen.data[k]))
                kills++;
        if (c->nalive + 1 - kills > max_rules) {
            cgt_error_set(err, CGT_ERR_LIMIT, "not confluent yet: more than %zu rules", max_rules);
            cgt_error_hint(err, "raise the rule limit; the system may be infinite");
            return CGT_ERR_LIMIT;
        }
    }
    size_t n = c->alive.len;
    size_t lo = c->pool.len;
    VEC_RESERVE(c->pool, c->pool.len + u->len + v->len + 1);
    wcopy(c->pool.data + lo, u->data, u->len);
    wcopy(c->pool.data + lo + u->len, v->data, v->len);
    c->pool.len += u->len + v->len;
    VEC_PUSH(c->loff, lo);
    VEC_PUSH(c->llen, u->len);
    VEC_PUSH(c->roff, lo + u->len);
    VEC_PUSH(c->rlen, v->len);
    VEC_PUSH(c->alive, true);
    c->nalive++;
    const uint32_t *nl = c->pool.data + lo;
    size_t nll = u->len;
    bool killed = false;
    for (size_t k = 0; k < n; k++) {
        if (!c->alive.data[k])
            continue;
        const uint32_t *kl = c->pool.data + c->loff.data[k];
        if (is_factor(nl, nll, kl, c->llen.data[k])) {
            c->alive.data[k] = false;
            c->nalive--;
            killed = true;
            push_eq(c, kl, c->llen.data[k], c->pool.data + c->roff.data[k], c->rlen.data[k]);
        }
    }
    if (killed)
        compact_buckets(c);
    VEC_PUSH(c->bucket[nl[nll - 1]], (uint32_t)n);
    for (size_t k = 0; k < n; k++) {
        if (!c->alive.data[k])
            continue;
        uint32_t *kr = c->pool.data + c->roff.data[k];
        if (!is_factor(c->pool.data + lo, nll, kr, c->rlen.data[k]))
            continue;
        c->t2.len = 0;
        VEC_RESERVE(c->t2, c->rlen.data[k] + 1);
        wcopy(c->t2.data, kr, c->rlen.data[k]);
        c->t2.len = c->rlen.data[k];
        st = nc_reduce(c, c->t2.data, c->t2.len, 0, err);
        if (st != CGT_OK)
            return st;
        /* shortlex reduction never lengthens a word: rewrite in place */
        wcopy(c->pool.data + c->roff.data[k], c->out.data, c->out.len);
        c->rlen.data[k] = c->out.len;
    }
    return CGT_OK;
}

static CgtStatus drain(Nc *c, const NcLimits *lim, CgtError *err)
{
    while (c->eqs.len) {
        CgtStatus st = add_eq(c, lim, err);
        if (st != CGT_OK)
            return st;
    }
    return CGT_OK;
}

/* Critical pairs from the overlaps of lhs_a's suffix with lhs_b's prefix. */
static CgtStatus overlaps(Nc *c, size_t a, size_t b, const NcLimits *lim, CgtError *err)
{
    size_t la = c->llen.data[a], lb = c->llen.data[b];
    size_t kmax = la < lb ? la : lb;
    for (size_t k = 1; k < kmax || (a == b && k < la); k++) {
        if (k >= lb || !c->alive.data[a] || !c->alive.data[b])
            break;
        const uint32_t *A = c->pool.data + c->loff.data[a];
        const uint32_t *B = c->pool.data + c->loff.data[b];
        if (memcmp(A + la - k, B, k * sizeof *A) != 0)
            continue;
        /* word A B[k..]: rhs_a B[k..]  and  A[..la-k] rhs_b */
        size_t ra = c->rlen.data[a], rb = c->rlen.data[b];
        const uint32_t *RA = c->pool.data + c->roff.data[a];
        const uint32_t *RB = c->pool.data + c->roff.data[b];
        Word x = {0}, y = {0};
        VEC_RESERVE(x, ra + lb - k + 1);
        wcopy(x.data, RA, ra);
        wcopy(x.data + ra, B + k, lb - k);
        x.len = ra + lb - k;
        VEC_RESERVE(y, la - k + rb + 1);
        wcopy(y.data, A, la - k);
        wcopy(y.data + la - k, RB, rb);
        y.len = la - k + rb;
        push_eq(c, x.data, x.len, y.data, y.len);
        VEC_FREE(x);
        VEC_FREE(y);
        CgtStatus st = drain(c, lim, err);
        if (st != CGT_OK)
            return st;
    }
    return CGT_OK;
}

static void nc_free(Nc *c)
{
    VEC_FREE(c->pool);
    VEC_FREE(c->loff);
    VEC_FREE(c->llen);
    VEC_FREE(c->roff);
    VEC_FREE(c->rlen);
    VEC_FREE(c->alive);
    for (int x = 0; x < c->g; x++)
        VEC_FREE(c->bucket[x]);
    free(c->bucket);
    VEC_FREE(c->eqs);
    VEC_FREE(c->in);
    VEC_FREE(c->out);
    VEC_FREE(c->t1);
    VEC_FREE(c->t2);
}

static void sys_build_buckets(NcSystem *s)
{
    size_t g = (size_t)s->ngens;
    free(s->bucket_start);
    free(s->bucket_ids);
    s->bucket_start = xcalloc(g + 1, sizeof *s->bucket_start);
    s->bucket_ids = xmalloc((s->nrules + 1) * sizeof *s->bucket_ids);
    for (size_t i = 0; i < s->nrules; i++)
        s->bucket_start[s->words[s->lhs_off[i] + s->lhs_len[i] - 1] + 1]++;
    for (size_t x = 0; x < g; x++)
        s->bucket_start[x + 1] += s->bucket_start[x];
    size_t *fill = xcalloc(g + 1, sizeof *fill);
    for (size_t i = 0; i < s->nrules; i++) {
        size_t x = s->words[s->lhs_off[i] + s->lhs_len[i] - 1];
        s->bucket_ids[s->bucket_start[x] + fill[x]++] = i;
    }
    free(fill);
}

/* insertion-free merge sort of rule indices by lhs in shortlex */
static void sort_ids(const Nc *c, size_t *ids, size_t n)
{
    if (n < 2)
        return;
    size_t *tmp = xmalloc(n * sizeof *tmp);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid || b < hi) {
                bool ta = b >= hi ||
                          (a < mid && sl_cmp(c->rank, c->pool.data + c->loff.data[ids[a]],
                                             c->llen.data[ids[a]],
                                             c->pool.data + c->loff.data[ids[b]],
                                             c->llen.data[ids[b]]) <= 0);
                tmp[k++] = ta ? ids[a++] : ids[b++];
            }
        }
        memcpy(ids, tmp, n * sizeof *ids);
    }
    free(tmp);
}

CgtStatus nckb_complete(const NcPresentation *p, const int *gen_order, const NcLimits *lim,
                        NcSystem **out, CgtError *err)
{
    *out = NULL;
    int g = p->ngens;
    if (g <= 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "presentation has no generators");
    size_t gg = (size_t)g;
    int *rank = xcalloc(gg, sizeof *rank);
    bool *seen = xcalloc(gg, sizeof *seen);
    for (int r = 0; r < g; r++) {
        int x = gen_order ? gen_order[r] : r;
        if (x < 0 || x >= g || seen[x]) {
            free(rank);
            free(seen);
            return cgt_error_set(err, CGT_ERR_DOMAIN,
                                 "generator order must list every generator once");
        }
        seen[x] = true;
        rank[x] = r;
    }
    free(seen);
    for (size_t i = 0; i < p->nwords; i++) {
        if (p->words[i] >= (uint32_t)g) {
            free(rank);
            return cgt_error_set(err, CGT_ERR_DOMAIN, "relation uses generator %u of %d",
                                 p->words[i] + 1, g);
        }
    }
    Nc c = {0};
    c.g = g;
    c.rank = rank;
    c.bucket = xcalloc(gg, sizeof *c.bucket);
    CgtStatus st = CGT_OK;
    for (size_t i = p->nrels; i-- > 0 && st == CGT_OK;) {
        push_eq(&c, p->words + p->lhs_off[i], p->lhs_len[i], p->words + p->rhs_off[i],
                p->rhs_len[i]);
        st = drain(&c, lim, err);
    }
    size_t npairs = 0;
    for (size_t i = 0; i < c.alive.len && st == CGT_OK; i++) {
        for (size_t j = 0; j <= i && st == CGT_OK; j++) {
            if (!c.alive.data[i])
                break;
            if (!c.alive.data[j])
                continue;
            if ((st = cgt_poll()) != CGT_OK) {
                cgt_poll_error(err, st, "knuth-bendix completion");
                break;
            }
            st = overlaps(&c, i, j, lim, err);
            if (st == CGT_OK && i != j)
                st = overlaps(&c, j, i, lim, err);
            if ((++npairs & 4095) == 0)
                cgt_progress("kb", "%zu rules, rule %zu of %zu", c.nalive, i, c.alive.len);
        }
    }
    if (st != CGT_OK && st != CGT_ERR_LIMIT && st != CGT_ERR_INTERRUPTED) {
        nc_free(&c);
        free(rank);
        return st;
    }
    /* collect live rules, sorted by lhs */
    size_t n = 0;
    size_t *ids = xmalloc((c.alive.len + 1) * sizeof *ids);
    for (size_t i = 0; i < c.alive.len; i++)
        if (c.alive.data[i])
            ids[n++] = i;
    sort_ids(&c, ids, n);
    NcSystem *s = xcalloc(1, sizeof *s);
    s->ngens = g;
    s->gen_names = names_copy(g, (const char *const *)p->gen_names);
    s->rank = rank;
    s->nrules = n;
    size_t total = 0;
    for (size_t t = 0; t < n; t++)
        total += c.llen.data[ids[t]] + c.rlen.data[ids[t]];
    s->words = xmalloc((total + 1) * sizeof *s->words);
    s->lhs_off = xmalloc((n + 1) * sizeof *s->lhs_off);
    s->lhs_len = xmalloc((n + 1) * sizeof *s->lhs_len);
    s->rhs_off = xmalloc((n + 1) * sizeof *s->rhs_off);
    s->rhs_len = xmalloc((n + 1) * sizeof *s->rhs_len);
    size_t pos = 0;
    for (size_t t = 0; t < n; t++) {
        size_t id = ids[t];
        s->lhs_off[t] = pos;
        s->lhs_len[t] = c.llen.data[id];
        wcopy(s->words + pos, c.pool.data + c.loff.data[id], s->lhs_len[t]);
        pos += s->lhs_len[t];
        s->rhs_off[t] = pos;
        s->rhs_len[t] = c.rlen.data[id];
        wcopy(s->words + pos, c.pool.data + c.roff.data[id], s->rhs_len[t]);
        pos += s->rhs_len[t];
    }
    free(ids);
    nc_free(&c);
    sys_build_buckets(s);
    s->confluent = st == CGT_OK;
    *out = s;
    return st;
}

CgtStatus nckb_complete_commutative(const Presentation *p, const NcLimits *lim, NcSystem **out,
                                    CgtError *err)
{
    NcPresentation *q = ncpres_from_commutative(p);
    CgtStatus st = nckb_complete(q, NULL, lim, out, err);
    ncpres_free(q);
    return st;
}

/* v is u with one more copy of a letter inserted next to that letter. */
static bool one_letter_longer(const uint32_t *u, size_t ul, const uint32_t *v, size_t vl)
{
    if (vl != ul + 1)
        return false;
    size_t p = 0;
    while (p < ul && u[p] == v[p])
        p++;
    /* v[p] is the inserted letter: the rest must agree, and it must
       lengthen a run of its own letter */
    if (memcmp(u + p, v + p + 1, (ul - p) * sizeof *u) != 0)
        return false;
    return (p > 0 && v[p - 1] == v[p]) || (p + 1 < vl && v[p + 1] == v[p]);
}

size_t nckb_growing_family(const NcSystem *s, size_t *first)
{
    size_t best = 0, run = 0;
    *first = 0;
    for (size_t i = 0; i < s->nrules; i++) {
        if (i > 0 && one_letter_longer(s->words + s->lhs_off[i - 1], s->lhs_len[i - 1],
                                       s->words + s->lhs_off[i], s->lhs_len[i]))
            run++;
        else
            run = 1;
        if (run > best) {
            best = run;
            *first = i + 1 - run;
        }
    }
    return best;
}

void nckb_free(NcSystem *s)
{
    if (!s)
        return;
    names_free(s->gen_names, s->ngens);
    free(s->rank);
    free(s->words);
    free(s->lhs_off);
    free(s->lhs_len);
    free(s->rhs_off);
    free(s->rhs_len);
    free(s->bucket_start);
    free(s->bucket_ids);
    free(s);
}

static CgtStatus sys_reduce(const NcSystem *s, const uint32_t *w, size_t len, size_t max_steps,
                            Word *in, Word *out, CgtError *err)
{
    in->len = 0;
    out->len = 0;
    VEC_RESERVE(*in, len + 1);
    for (size_t i = 0; i < len; i++)
        in->data[i] = w[len - 1 - i];
    in->len = len;
    size_t steps = 0;
    while (in->len) {
        uint32_t x = in->data[--in->len];
        if (x >= (uint32_t)s->ngens)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "word uses generator %u of %d", x + 1,
                                 s->ngens);
        VEC_PUSH(*out, x);
        for (size_t t = s->bucket_start[x]; t < s->bucket_start[x + 1]; t++) {
            size_t id = s->bucket_ids[t];
            size_t L = s->lhs_len[id];
            if (L > out->len || memcmp(out->data + out->len - L, s->words + s->lhs_off[id],
                                       L * sizeof *out->data) != 0)
                continue;
            if (max_steps && ++steps > max_steps)
                return cgt_error_set(err, CGT_ERR_LIMIT,
                                     "rewriting did not stop after %zu steps", max_steps);
            out->len -= L;
            size_t R = s->rhs_len[id];
            VEC_RESERVE(*in, in->len + R);
            for (size_t k = 0; k < R; k++)
                in->data[in->len++] = s->words[s->rhs_off[id] + R - 1 - k];
            break;
        }
    }
    return CGT_OK;
}

CgtStatus nckb_reduce(const NcSystem *s, const uint32_t *w, size_t len, size_t max_steps,
                      uint32_t **out, size_t *outlen, CgtError *err)
{
    Word in = {0}, o = {0};
    CgtStatus st = sys_reduce(s, w, len, max_steps, &in, &o, err);
    VEC_FREE(in);
    if (st != CGT_OK) {
        VEC_FREE(o);
        *out = NULL;
        *outlen = 0;
        return st;
    }
    *out = o.data;
    *outlen = o.len;
    return CGT_OK;
}

/* irreducible iff no lhs is a suffix of w ending at its last letter, given
 * that w minus its last letter is irreducible */
static bool last_ok(const NcSystem *s, const uint32_t *w, size_t len)
{
    uint32_t x = w[len - 1];
    for (size_t t = s->bucket_start[x]; t < s->bucket_start[x + 1]; t++) {
        size_t id = s->bucket_ids[t];
        size_t L = s->lhs_len[id];
        if (L <= len && memcmp(w + len - L, s->words + s->lhs_off[id], L * sizeof *w) == 0)
            return false;
    }
    return true;
}

CgtStatus nckb_elements(const NcSystem *s, size_t max_elems, uint32_t **words, size_t **offs,
                        size_t **lens, size_t *count, CgtError *err)
{
    if (!max_elems)
        max_elems = 1000000;
    int *bygen = xmalloc((size_t)s->ngens * sizeof *bygen);
    for (int x = 0; x < s->ngens; x++)
        bygen[s->rank[x]] = x;
    Word w = {0};
    VEC(size_t) off = {0};
    VEC(size_t) len = {0};
    VEC_PUSH(off, 0);
    VEC_PUSH(len, 0);
    size_t lvl_start = 0, lvl_end = 1;
    CgtStatus st = CGT_OK;
    /* breadth first: the words of length L+1 are irreducible extensions of
     * those of length L, in shortlex order when generated in rank order */
    while (lvl_start < lvl_end && st == CGT_OK) {
        for (size_t k = lvl_start; k < lvl_end && st == CGT_OK; k++) {
            for (int r = 0; r < s->ngens; r++) {
                size_t L = len.data[k], o = off.data[k];
                VEC_RESERVE(w, w.len + L + 1);
                memmove(w.data + w.len, w.data + o, L * sizeof *w.data);
                w.data[w.len + L] = (uint32_t)bygen[r];
                if (!last_ok(s, w.data + w.len, L + 1))
                    continue;
                VEC_PUSH(off, w.len);
                VEC_PUSH(len, L + 1);
                w.len += L + 1;
                if (off.len > max_elems) {
                    st = cgt_error_set(err, CGT_ERR_LIMIT,
                                       "more than %zu elements (the monoid may be infinite)",
                                       max_elems);
                    break;
                }
                /* the cap bounds memory, not only the count: 10^6 long
                   words would take gigabytes */
                if (w.len > NCKB_MAX_ELEMENT_LETTERS) {
                    st = cgt_error_set(err, CGT_ERR_LIMIT,
                                       "the first %zu elements already have more than %u "
                                       "letters (the monoid may be infinite)",
                                       off.len, NCKB_MAX_ELEMENT_LETTERS);
                    break;
                }
            }
            if (st == CGT_OK && (k & 1023) == 0 && (st = cgt_poll()) != CGT_OK)
                cgt_poll_error(err, st, "element enumeration");
        }
        lvl_start = lvl_end;
        lvl_end = off.len;
    }
    free(bygen);
    if (st != CGT_OK) {
        VEC_FREE(w);
        VEC_FREE(off);
        VEC_FREE(len);
        *words = NULL;
        *offs = *lens = NULL;
        *count = 0;
        return st;
    }
    VEC_RESERVE(w, 1);
    *words = w.data;
    *offs = off.data;
    *lens = len.data;
    *count = off.len;
    return CGT_OK;
}

char *nckb_format_word(const NcSystem *s, const uint32_t *w, size_t len)
{
    if (len == 0)
        return xstrdup("1");
    size_t cap = 16, n = 0;
    char *b = xmalloc(cap);
    b[0] = '\0';
    /* a run of k equal letters is one factor name^k (b a^48 b is ba^48b) */
    for (size_t i = 0; i < len;) {
        size_t j = i;
        while (j < len && w[j] == w[i])
            j++;
        word_append_factor(&b, &n, &cap, s->gen_names[w[i]], j - i);
        i = j;
    }
    return b;
}

char *nckb_format_rule(const NcSystem *s, size_t i)
{
    return rule_text(nckb_format_word(s, s->words + s->lhs_off[i], s->lhs_len[i]),
                     nckb_format_word(s, s->words + s->rhs_off[i], s->rhs_len[i]));
}

static char *format_rule_cb(const void *sys, size_t i) { return nckb_format_rule(sys, i); }

char *nckb_format_rules(const NcSystem *s) { return rules_text(s, s->nrules, format_rule_cb); }

CgtStatus nckb_system_from_rules(const NcPresentation *p, NcSystem **out, CgtError *err)
{
    *out = NULL;
    int g = p->ngens;
    if (g <= 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "presentation has no generators");
    for (size_t i = 0; i < p->nwords; i++)
        if (p->words[i] >= (uint32_t)g)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "relation uses generator %u of %d",
                                 p->words[i] + 1, g);
    for (size_t i = 0; i < p->nrels; i++)
        if (p->lhs_len[i] == 0) {
            cgt_error_set(err, CGT_ERR_DOMAIN,
                          "relation %zu has the identity as its left side", i + 1);
            cgt_error_hint(err, "write each rule with its larger side on the left");
            return CGT_ERR_DOMAIN;
        }
    NcSystem *s = xcalloc(1, sizeof *s);
    size_t n = p->nrels;
    s->ngens = g;
    s->gen_names = names_copy(g, (const char *const *)p->gen_names);
    s->rank = xmalloc((size_t)g * sizeof *s->rank);
    for (int x = 0; x < g; x++)
        s->rank[x] = x;
    s->nrules = n;
    s->words = xmalloc((p->nwords + 1) * sizeof *s->words);
    wcopy(s->words, p->words, p->nwords);
    s->lhs_off = xmalloc((n + 1) * sizeof *s->lhs_off);
    s->lhs_len = xmalloc((n + 1) * sizeof *s->lhs_len);
    s->rhs_off = xmalloc((n + 1) * sizeof *s->rhs_off);
    s->rhs_len = xmalloc((n + 1) * sizeof *s->rhs_len);
    for (size_t i = 0; i < n; i++) {
        s->lhs_off[i] = p->lhs_off[i];
        s->lhs_len[i] = p->lhs_len[i];
        s->rhs_off[i] = p->rhs_off[i];
        s->rhs_len[i] = p->rhs_len[i];
    }
    sys_build_buckets(s);
    *out = s;
    return CGT_OK;
}

void nckb_check_free(NcCheck *c)
{
    free(c->bad_word);
    free(c->bad_nf1);
    free(c->bad_nf2);
    free(c->div_pairs);
    free(c->reducible_rhs);
    memset(c, 0, sizeof *c);
}

static uint32_t *wdup(const uint32_t *w, size_t n)
{
    uint32_t *d = xmalloc((n + 1) * sizeof *d);
    wcopy(d, w, n);
    return d;
}

/* Reduce the two one-step rewrites a and b of the critical word w (rules i
 * and j) and record the first pair whose normal forms differ. */
static void check_pair(const NcSystem *s, size_t max_steps, size_t i, size_t j, const Word *w,
                       const Word *a, const Word *b, Word *tin, NcCheck *out)
{
    Word na = {0}, nb = {0};
    CgtError e2;
    out->pairs_checked++;
    if (sys_reduce(s, a->data, a->len, max_steps, tin, &na, &e2) != CGT_OK ||
        sys_reduce(s, b->data, b->len, max_steps, tin, &nb, &e2) != CGT_OK) {
        out->terminated = false;
    } else if ((na.len != nb.len ||
                (na.len && memcmp(na.data, nb.data, na.len * sizeof *na.data) != 0)) &&
               out->locally_confluent) {
        out->locally_confluent = false;
        out->bad_i = i;
        out->bad_j = j;
        out->bad_word = wdup(w->data, w->len);
        out->bad_word_len = w->len;
        out->bad_nf1 = wdup(na.data, na.len);
        out->bad_nf1_len = na.len;
        out->bad_nf2 = wdup(nb.data, nb.len);
        out->bad_nf2_len = nb.len;
    }
    VEC_FREE(na);
    VEC_FREE(nb);
}

static void wset(Word *w, const uint32_t *a, size_t an, const uint32_t *b, size_t bn,
                 const uint32_t *c, size_t cn)
{
    w->len = 0;
    VEC_RESERVE(*w, an + bn + cn + 1);
    wcopy(w->data, a, an);
    wcopy(w->data + an, b, bn);
    wcopy(w->data + an + bn, c, cn);
    w->len = an + bn + cn;
}

CgtStatus nckb_check(const NcSystem *s, size_t max_steps, NcCheck *out, CgtError *err)
{
    memset(out, 0, sizeof *out);
    out->locally_confluent = true;
    out->terminated = true;
    if (!max_steps)
        max_steps = 100000;
    size_t n = s->nrules;
    Word w = {0}, a = {0}, b = {0}, tin = {0}, tout = {0};
    VEC(size_t) divs = {0};
    VEC(size_t) reds = {0};
    CgtStatus st = CGT_OK;
    const uint32_t *W = s->words;
    for (size_t i = 0; i < n && st == CGT_OK; i++) {
        const uint32_t *li = W + s->lhs_off[i], *ri = W + s->rhs_off[i];
        size_t Li = s->lhs_len[i], Ri = s->rhs_len[i];
        CgtError e2;
        if (sys_reduce(s, ri, Ri, max_steps, &tin, &tout, &e2) != CGT_OK)
            out->terminated = false;
        else if (tout.len != Ri || (Ri && memcmp(tout.data, ri, Ri * sizeof *ri) != 0))
            VEC_PUSH(reds, i);
        for (size_t j = 0; j < n && st == CGT_OK; j++) {
            if ((st = cgt_poll()) != CGT_OK) {
                cgt_poll_error(err, st, "confluence check");
                break;
            }
            const uint32_t *lj = W + s->lhs_off[j], *rj = W + s->rhs_off[j];
            size_t Lj = s->lhs_len[j], Rj = s->rhs_len[j];
            /* inclusions: lhs_j = li[p .. p+Lj) */
            bool factor = false;
            for (size_t p = 0; j != i && p + Lj <= Li; p++) {
                if (memcmp(li + p, lj, Lj * sizeof *lj) != 0)
                    continue;
                factor = true;
                wset(&w, li, Li, NULL, 0, NULL, 0);
                wset(&a, ri, Ri, NULL, 0, NULL, 0);
                wset(&b, li, p, rj, Rj, li + p + Lj, Li - p - Lj);
                check_pair(s, max_steps, i, j, &w, &a, &b, &tin, out);
            }
            if (factor) {
                VEC_PUSH(divs, i);
                VEC_PUSH(divs, j);
            }
            /* proper overlaps: the last k letters of lhs_i are the first k
             * of lhs_j, 0 < k < min(Li, Lj) */
            for (size_t k = 1; k < Li && k < Lj; k++) {
                if (memcmp(li + Li - k, lj, k * sizeof *lj) != 0)
                    continue;
                wset(&w, li, Li, lj + k, Lj - k, NULL, 0);
                wset(&a, ri, Ri, lj + k, Lj - k, NULL, 0);
                wset(&b, li, Li - k, rj, Rj, NULL, 0);
                check_pair(s, max_steps, i, j, &w, &a, &b, &tin, out);
            }
        }
    }
    VEC_FREE(w);
    VEC_FREE(a);
    VEC_FREE(b);
    VEC_FREE(tin);
    VEC_FREE(tout);
    out->div_pairs = divs.data;
    out->ndiv = divs.len / 2;
    out->reducible_rhs = reds.data;
    out->nred = reds.len;
    out->interreduced = out->ndiv == 0 && out->nred == 0;
    if (st != CGT_OK)
        nckb_check_free(out);
    return st;
}
