/* Commutative Knuth–Bendix completion (kb.h): Buchberger's algorithm for
 * binomial ideals in monoid form (Buchberger 1965/1979; Cox–Little–O'Shea
 * ch. 2 §7–§10), with the coprime and chain criteria, inter-reduction to
 * the reduced confluent system, and the uses of a finished system. */
#include "lib/rewrite/kb.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

/* ---------------------------------------------------------------- order */

typedef struct {
    int g;
    KbOrderKind kind;
    const int *perm;          /* generators by rank, smallest first */
    const uint32_t *weights;  /* WEIGHTED only */
} Ord;

static uint64_t ord_degree(const Ord *o, const uint32_t *a)
{
    uint64_t d = 0;
    if (o->kind == KB_ORDER_WEIGHTED) {
        for (int i = 0; i < o->g; i++)
            d += (uint64_t)o->weights[i] * a[i];
    } else {
        for (int i = 0; i < o->g; i++)
            d += a[i];
    }
    return d;
}

static int ord_cmp(const Ord *o, const uint32_t *a, const uint32_t *b)
{
    if (o->kind != KB_ORDER_LEX) {
        uint64_t da = ord_degree(o, a), db = ord_degree(o, b);
        if (da != db)
            return da < db ? -1 : 1;
    }
    if (o->kind == KB_ORDER_SHORTLEX || o->kind == KB_ORDER_DEGREVLEX) {
        /* sorted-string lex: at the smallest generator where they differ,
         * more copies of it means the smaller word */
        for (int r = 0; r < o->g; r++) {
            int i = o->perm[r];
            if (a[i] != b[i])
                return a[i] > b[i] ? -1 : 1;
        }
        return 0;
    }
    for (int r = o->g - 1; r >= 0; r--) {
        int i = o->perm[r];
        if (a[i] != b[i])
            return a[i] > b[i] ? 1 : -1;
    }
    return 0;
}

static Ord sys_ord(const KbSystem *s)
{
    Ord o = {s->ngens, s->kind, s->perm, s->weights};
    return o;
}

int kb_compare(const KbSystem *sys, const uint32_t *a, const uint32_t *b)
{
    Ord o = sys_ord(sys);
    return ord_cmp(&o, a, b);
}

KbOrder kb_order_default(void)
{
    KbOrder o = {KB_ORDER_SHORTLEX, NULL, NULL};
    return o;
}

/* ---------------------------------------------------------------- words */

static uint64_t word_mask(const uint32_t *w, int g)
{
    uint64_t m = 0;
    for (int i = 0; i < g; i++)
        if (w[i])
            m |= 1ULL << (i & 63);
    return m;
}

static bool divides(const uint32_t *l, const uint32_t *w, int g)
{
    for (int i = 0; i < g; i++)
        if (l[i] > w[i])
            return false;
    return true;
}

static bool word_eq(const uint32_t *a, const uint32_t *b, int g)
{
    return memcmp(a, b, (size_t)g * sizeof *a) == 0;
}

/* Apply l -> r to w as many times as l divides w, at once.  Returns false
 * when an exponent would pass KB_MAX_EXP. */
static bool apply_rule(uint32_t *w, const uint32_t *l, const uint32_t *r, int g)
{
    uint32_t k = UINT32_MAX;
    for (int i = 0; i < g; i++)
        if (l[i] && w[i] / l[i] < k)
            k = w[i] / l[i];
    if (k == UINT32_MAX)
        k = 1; /* l = 1: a bad rule; one step, the caller's step cap ends it */
    for (int i = 0; i < g; i++) {
        uint64_t v = (uint64_t)w[i] - (uint64_t)k * l[i] + (uint64_t)k * r[i];
        if (v > KB_MAX_EXP)
            return false;
        w[i] = (uint32_t)v;
    }
    return true;
}

/* Rewrite w with the rules listed in ids (rule id -> lhs at base+2*id*g)
 * until no lhs divides it.  Each pass takes the first rule in list order
 * that applies.  Returns CGT_OK, or CGT_ERR_LIMIT on exponent overflow or
 * when the step cap is hit (*capped set). */
static CgtStatus reduce_with(const uint32_t *base, const uint64_t *masks, const size_t *ids,
                             size_t nids, int g, uint32_t *w, size_t max_steps, bool *capped,
                             CgtError *err)
{
    size_t steps = 0;
    bool changed = true;
    while (changed) {
        changed = false;
        uint64_t wm = word_mask(w, g);
        for (size_t t = 0; t < nids; t++) {
            size_t id = ids ? ids[t] : t;
            if (masks[id] & ~wm)
                continue;
            if (masks[id] == 0) {
                if (capped)
                    *capped = true;
                return cgt_error_set(err, CGT_ERR_DOMAIN, "rule %zu has the identity as its "
                                     "left side, so rewriting never stops", id + 1);
            }
            const uint32_t *l = base + 2 * id * (size_t)g;
            if (!divides(l, w, g))
                continue;
            steps++;
            if (max_steps && steps > max_steps) {
                if (capped)
                    *capped = true;
                return cgt_error_set(err, CGT_ERR_LIMIT,
                                     "rewriting did not stop after %zu steps", max_steps);
            }
            if ((steps & 0xffff) == 0) {
                CgtStatus st = cgt_poll();
                if (st != CGT_OK)
                    return cgt_poll_error(err, st, "rewriting");
            }
            if (!apply_rule(w, l, l + g, g))
                return cgt_error_set(err, CGT_ERR_LIMIT, "exponent larger than %u while "
                                     "rewriting", KB_MAX_EXP);
            wm = word_mask(w, g);
            changed = true;
        }
    }
    return CGT_OK;
}

/* ------------------------------------------------------- pair bookkeeping */

typedef struct {
    uint64_t *keys; /* 0 = empty; stored as key+1 */
    size_t cap, len;
} PairSet;

static uint64_t pair_key(size_t i, size_t j)
{
    if (i > j) {
        size_t t = i;
        i = j;
        j = t;
    }
    return ((uint64_t)i << 32 | (uint64_t)j) + 1;
}

static void pairset_add(PairSet *s, uint64_t key)
{
    if (2 * (s->len + 1) > s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 1024;
        uint64_t *nk = xcalloc(ncap, sizeof *nk);
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->keys[i])
                continue;
            size_t h = hash_mix64(s->keys[i]) & (ncap - 1);
            while (nk[h])
                h = (h + 1) & (ncap - 1);
            nk[h] = s->keys[i];
        }
        free(s->keys);
        s->keys = nk;
        s->cap = ncap;
    }
    size_t h = hash_mix64(key) & (s->cap - 1);
    while (s->keys[h]) {
        if (s->keys[h] == key)
            return;
        h = (h + 1) & (s->cap - 1);
    }
    s->keys[h] = key;
    s->len++;
}

static bool pairset_has(const PairSet *s, uint64_t key)
{
    if (!s->cap)
        return false;
    size_t h = hash_mix64(key) & (s->cap - 1);
    while (s->keys[h]) {
        if (s->keys[h] == key)
            return true;
        h = (h + 1) & (s->cap - 1);
    }
    return false;
}

typedef struct {
    uint64_t deg; /* degree of the lcm: the normal selection strategy */
    uint32_t i, j;
} Pair;

/* Pending pairs grouped by lcm degree (the normal selection strategy of
 * Buchberger), FIFO inside one degree: a sorted array of degree buckets. */
typedef struct {
    uint64_t deg;
    VEC(Pair) items;
    size_t head;
} DegBucket;

typedef struct {
    VEC(DegBucket) b; /* ascending degree; empty buckets are dropped */
    size_t len;       /* pairs pending */
} PairQueue;

static void queue_push(PairQueue *q, Pair p)
{
    size_t lo = 0, hi = q->b.len;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (q->b.data[mid].deg < p.deg)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == q->b.len || q->b.data[lo].deg != p.deg) {
        DegBucket nb = {p.deg, {0}, 0};
        VEC_PUSH(q->b, nb);
        memmove(q->b.data + lo + 1, q->b.data + lo, (q->b.len - 1 - lo) * sizeof *q->b.data);
        q->b.data[lo] = nb;
    }
    VEC_PUSH(q->b.data[lo].items, p);
    q->len++;
}

static Pair queue_pop(PairQueue *q)
{
    DegBucket *d = &q->b.data[0];
    Pair p = d->items.data[d->head++];
    q->len--;
    if (d->head == d->items.len) {
        VEC_FREE(d->items);
        memmove(q->b.data, q->b.data + 1, (q->b.len - 1) * sizeof *q->b.data);
        q->b.len--;
    }
    return p;
}

static void queue_free(PairQueue *q)
{
    for (size_t i = 0; i < q->b.len; i++)
        VEC_FREE(q->b.data[i].items);
    VEC_FREE(q->b);
}

/* ----------------------------------------------------------- completion */

typedef struct {
    int g;
    Ord ord;
    VEC(uint32_t) words;  /* rule id: lhs at 2*id*g, rhs after it */
    VEC(uint64_t) masks;
    VEC(bool) alive;
    VEC(size_t) live;     /* ids of alive rules, ascending */
    bool live_dirty;
    /* bucket[t]: live rule ids whose left side's first generator is t; a
     * rule can divide w only if its first generator occurs in w */
    VEC(size_t) *bucket;
    VEC(uint32_t) eqs;    /* pending equations, 2*g each */
    PairQueue pairs;
    PairSet done;
    uint32_t *tmp, *tmp2, *lcm;
    size_t max_rules;     /* KbLimits.max_rules: never more live rules */
} Comp;

static void comp_refresh_live(Comp *c)
{
    if (!c->live_dirty)
        return;
    size_t k = 0;
    for (size_t t = 0; t < c->live.len; t++)
        if (c->alive.data[c->live.data[t]])
            c->live.data[k++] = c->live.data[t];
    c->live.len = k;
    for (int t = 0; t < c->g; t++) {
        k = 0;
        for (size_t u = 0; u < c->bucket[t].len; u++)
            if (c->alive.data[c->bucket[t].data[u]])
                c->bucket[t].data[k++] = c->bucket[t].data[u];
        c->bucket[t].len = k;
    }
    c->live_dirty = false;
}

static int first_gen(const uint32_t *w, int g)
{
    for (int t = 0; t < g; t++)
        if (w[t])
            return t;
    return 0;
}

/* Rewrite w to normal form with the live rules, looking only at the
 * buckets of generators that occur in w. */
static CgtStatus comp_reduce(Comp *c, uint32_t *w, CgtError *err)
{
    comp_refresh_live(c);
    int g = c->g;
again:;
    uint64_t wm = word_mask(w, g);
    for (int t = 0; t < g; t++) {
        if (!w[t])
            continue;
        for (size_t u = 0; u < c->bucket[t].len; u++) {
            size_t id = c->bucket[t].data[u];
            if (c->masks.data[id] & ~wm)
                continue;
            const uint32_t *l = c->words.data + 2 * id * (size_t)g;
            if (!divides(l, w, g))
                continue;
            if (!apply_rule(w, l, l + g, g))
                return cgt_error_set(err, CGT_ERR_LIMIT, "exponent larger than %u while "
                                     "rewriting", KB_MAX_EXP);
            goto again;
        }
    }
    return CGT_OK;
}

static uint32_t *rule_lhs(Comp *c, size_t id)
{
    return c->words.data + 2 * id * (size_t)c->g;
}

static void push_eq(Comp *c, const uint32_t *a, const uint32_t *b)
{
    size_t g = (size_t)c->g;
    VEC_RESERVE(c->eqs, c->eqs.len + 2 * g);
    memcpy(c->eqs.data + c->eqs.len, a, g * sizeof *a);
    memcpy(c->eqs.data + c->eqs.len + g, b, g * sizeof *b);
    c->eqs.len += 2 * g;
}

/* Reduce a = b and, if it does not become trivial, add it as a rule,
 * inter-reduce the system and queue the new critical pairs. */
static CgtStatus add_equation(Comp *c, uint32_t *a, uint32_t *b, CgtError *err)
{
    int g = c->g;
    CgtStatus st = comp_reduce(c, a, err);
    if (st == CGT_OK)
        st = comp_reduce(c, b, err);
    if (st != CGT_OK)
        return st;
    int cmp = ord_cmp(&c->ord, a, b);
    if (cmp == 0)
        return CGT_OK;
    if (cmp < 0) {
        uint32_t *t = a;
        a = b;
        b = t;
    }
    /* The rule limit is checked where a rule would be added, so that the
     * partial system holds at most max_rules rules (the new rule counts
     * after the rules it makes leave). */
    comp_refresh_live(c);
    if (c->live.len >= c->max_rules) {
        uint64_t am = word_mask(a, g);
        size_t kills = 0;
        for (size_t t = 0; t < c->live.len; t++) {
            size_t k = c->live.data[t];
            if ((am & ~c->masks.data[k]) == 0 && divides(a, rule_lhs(c, k), g))
                kills++;
        }
        if (c->live.len + 1 - kills > c->max_rules) {
            cgt_error_set(err, CGT_ERR_LIMIT, "not confluent yet: more than %zu rules",
                          c->max_rules);
            cgt_error_hint(err, "raise the rule limit or try another term order");
            return CGT_ERR_LIMIT;
        }
    }
    size_t n = c->alive.len;
    VEC_RESERVE(c->words, c->words.len + 2 * (size_t)g);
    memcpy(c->words.data + c->words.len, a, (size_t)g * sizeof *a);
    memcpy(c->words.data + c->words.len + g, b, (size_t)g * sizeof *b);
    c->words.len += 2 * (size_t)g;
    uint64_t nm = word_mask(a, g);
    VEC_PUSH(c->masks, nm);
    VEC_PUSH(c->alive, true);
    comp_refresh_live(c);
    /* left sides divisible by the new one leave and come back as equations */
    const uint32_t *nl = rule_lhs(c, n);
    for (size_t t = 0; t < c->live.len; t++) {
        size_t k = c->live.data[t];
        if ((nm & ~c->masks.data[k]) == 0 && divides(nl, rule_lhs(c, k), g)) {
            c->alive.data[k] = false;
            c->live_dirty = true;
            push_eq(c, rule_lhs(c, k), rule_lhs(c, k) + g);
        }
    }
    comp_refresh_live(c);
    VEC_PUSH(c->live, n);
    VEC_PUSH(c->bucket[first_gen(nl, g)], n);
    /* right sides divisible by the new left side are rewritten */
    for (size_t t = 0; t + 1 < c->live.len; t++) {
        size_t k = c->live.data[t];
        uint32_t *r = rule_lhs(c, k) + g;
        if ((nm & ~word_mask(r, g)) == 0 && divides(nl, r, g)) {
            st = comp_reduce(c, r, err);
            if (st != CGT_OK)
                return st;
            nl = rule_lhs(c, n);
        }
    }
    /* new critical pairs: only left sides sharing a generator (coprime
     * left sides need no check, Buchberger's first criterion) */
    for (size_t t = 0; t + 1 < c->live.len; t++) {
        size_t k = c->live.data[t];
        if (!(c->masks.data[k] & nm))
            continue;
        const uint32_t *kl = rule_lhs(c, k);
        bool share = false;
        uint64_t deg = 0;
        for (int i = 0; i < g; i++) {
            if (kl[i] && nl[i])
                share = true;
            c->lcm[i] = kl[i] > nl[i] ? kl[i] : nl[i];
        }
        if (!share)
            continue;
        deg = ord_degree(&c->ord, c->lcm);
        Pair p = {deg, (uint32_t)k, (uint32_t)n};
        queue_push(&c->pairs, p);
    }
    return CGT_OK;
}

static bool pair_done(Comp *c, size_t i, size_t k)
{
    const uint32_t *a = rule_lhs(c, i), *b = rule_lhs(c, k);
    if (!(c->masks.data[i] & c->masks.data[k]))
        return true;
    bool share = false;
    for (int t = 0; t < c->g && !share; t++)
        share = a[t] && b[t];
    if (!share)
        return true;
    return pairset_has(&c->done, pair_key(i, k));
}

/* Buchberger's second (chain) criterion: (i, j) can be skipped if some
 * other live rule k has lhs_k | lcm(lhs_i, lhs_j) and the pairs (i, k) and
 * (j, k) have been treated (Buchberger 1979, "A criterion for detecting
 * unnecessary reductions"). */
static bool chain_skip(Comp *c, size_t i, size_t j)
{
    uint64_t lm = word_mask(c->lcm, c->g);
    for (int t = 0; t < c->g; t++) {
        if (!c->lcm[t])
            continue;
        for (size_t u = 0; u < c->bucket[t].len; u++) {
            size_t k = c->bucket[t].data[u];
            if (k == i || k == j || (c->masks.data[k] & ~lm))
                continue;
            if (!divides(rule_lhs(c, k), c->lcm, c->g))
                continue;
            if (pair_done(c, i, k) && pair_done(c, j, k))
                return true;
        }
    }
    return false;
}

static CgtStatus check_order(int g, const KbOrder *ord, CgtError *err)
{
    if ((int)ord->kind < 0 || ord->kind > KB_ORDER_WEIGHTED)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "unknown term order");
    if (ord->gen_order) {
        bool *seen = xcalloc((size_t)(g > 0 ? g : 1), 1);
        for (int r = 0; r < g; r++) {
            int x = ord->gen_order[r];
            if (x < 0 || x >= g || seen[x]) {
                free(seen);
                return cgt_error_set(err, CGT_ERR_DOMAIN,
                                     "generator order must list every generator once");
            }
            seen[x] = true;
        }
        free(seen);
    }
    if (ord->kind == KB_ORDER_WEIGHTED) {
        if (!ord->weights)
            return cgt_error_set(err, CGT_ERR_DOMAIN, "weighted order needs a weight vector");
        for (int i = 0; i < g; i++)
            if (ord->weights[i] < 1)
                return cgt_error_set(err, CGT_ERR_DOMAIN,
                                     "weights must be at least 1 (generator %d has 0)", i + 1);
    }
    return CGT_OK;
}

static KbSystem *system_new(int g, const char *const *names, const KbOrder *ord)
{
    KbSystem *s = xcalloc(1, sizeof *s);
    size_t gg = (size_t)(g > 0 ? g : 1);
    s->ngens = g;
    s->gen_names = names_copy(g, names);
    s->kind = ord->kind;
    s->rank = xcalloc(gg, sizeof *s->rank);
    s->perm = xcalloc(gg, sizeof *s->perm);
    for (int r = 0; r < g; r++) {
        int x = ord->gen_order ? ord->gen_order[r] : r;
        s->perm[r] = x;
        s->rank[x] = r;
    }
    s->weights = xcalloc(gg, sizeof *s->weights);
    for (int i = 0; i < g; i++)
        s->weights[i] = ord->kind == KB_ORDER_WEIGHTED ? ord->weights[i] : 1;
    return s;
}

static void system_set_rules(KbSystem *s, const uint32_t *rules, size_t n)
{
    size_t g = (size_t)s->ngens;
    free(s->rules);
    free(s->masks);
    s->nrules = n;
    s->rules = xmalloc((2 * n * g + 1) * sizeof *s->rules);
    if (n)
        memcpy(s->rules, rules, 2 * n * g * sizeof *rules);
    s->masks = xmalloc((n + 1) * sizeof *s->masks);
    for (size_t i = 0; i < n; i++)
        s->masks[i] = word_mask(s->rules + 2 * i * g, (int)g);
}

KbSystem *kb_system_from_rules(int ngens, const char *const *names, const KbOrder *ord,
                               const uint32_t *rules, size_t nrules)
{
    KbOrder d = kb_order_default();
    KbSystem *s = system_new(ngens, names, ord ? ord : &d);
    system_set_rules(s, rules, nrules);
    return s;
}

void kb_free(KbSystem *sys)
{
    if (!sys)
        return;
    names_free(sys->gen_names, sys->ngens);
    free(sys->rules);
    free(sys->rank);
    free(sys->perm);
    free(sys->weights);
    free(sys->masks);
    free(sys);
}

/* Stable merge sort of n words of 2g (rules, keyed by lhs) or g exponents. */
static void sort_words(const Ord *o, uint32_t *w, size_t n, size_t stride)
{
    if (n < 2)
        return;
    uint32_t *tmp = xmalloc(n * stride * sizeof *tmp);
    for (size_t width = 1; width < n; width *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * width) {
            size_t mid = lo + width < n ? lo + width : n;
            size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid || b < hi) {
                bool take_a = b >= hi ||
                              (a < mid && ord_cmp(o, w + a * stride, w + b * stride) <= 0);
                size_t src = take_a ? a++ : b++;
                memcpy(tmp + k++ * stride, w + src * stride, stride * sizeof *w);
            }
        }
        memcpy(w, tmp, n * stride * sizeof *w);
    }
    free(tmp);
}

static void comp_free(Comp *c)
{
    VEC_FREE(c->words);
    VEC_FREE(c->masks);
    VEC_FREE(c->alive);
    VEC_FREE(c->live);
    for (int t = 0; c->bucket && t < c->g; t++)
        VEC_FREE(c->bucket[t]);
    free(c->bucket);
    VEC_FREE(c->eqs);
    queue_free(&c->pairs);
    free(c->done.keys);
    free(c->tmp);
    free(c->tmp2);
    free(c->lcm);
}

CgtStatus kb_complete(const Presentation *p, const KbOrder *ord, const KbLimits *lim,
                      KbSystem **out, CgtError *err)
{
    *out = NULL;
    KbOrder dflt = kb_order_default();
    if (!ord)
        ord = &dflt;
    int g = p->ngens;
    if (g <= 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "presentation has no generators");
    CgtStatus st = check_order(g, ord, err);
    if (st != CGT_OK)
        return st;
    for (size_t i = 0; i < 2 * p->nrels * (size_t)g; i++)
        if (p->rels[i] > KB_MAX_EXP)
            return cgt_error_set(err, CGT_ERR_LIMIT, "exponent %u is too large", p->rels[i]);
    KbSystem *s = system_new(g, (const char *const *)p->gen_names, ord);
    Comp c = {0};
    c.g = g;
    c.max_rules = lim && lim->max_rules ? lim->max_rules : KB_DEFAULT_MAX_RULES;
    c.ord = sys_ord(s);
    c.tmp = xcalloc((size_t)g, sizeof *c.tmp);
    c.tmp2 = xcalloc((size_t)g, sizeof *c.tmp2);
    c.lcm = xcalloc((size_t)g, sizeof *c.lcm);
    c.bucket = xcalloc((size_t)g, sizeof *c.bucket);
    /* input relations, last first so that they are taken in order */
    for (size_t i = p->nrels; i-- > 0;)
        push_eq(&c, p->rels + 2 * i * (size_t)g, p->rels + (2 * i + 1) * (size_t)g);
    size_t npairs = 0, nskipped = 0;
    for (;;) {
        st = cgt_poll();
        if (st != CGT_OK) {
            cgt_poll_error(err, st, "knuth-bendix completion");
            break;
        }
        if (c.eqs.len) {
            c.eqs.len -= 2 * (size_t)g;
            memcpy(c.tmp, c.eqs.data + c.eqs.len, (size_t)g * sizeof *c.tmp);
            memcpy(c.tmp2, c.eqs.data + c.eqs.len + g, (size_t)g * sizeof *c.tmp2);
            st = add_equation(&c, c.tmp, c.tmp2, err);
            if (st != CGT_OK)
                break;
            continue;
        }
        if (!c.pairs.len)
            break;
        Pair pr = queue_pop(&c.pairs);
        if (!c.alive.data[pr.i] || !c.alive.data[pr.j])
            continue;
        comp_refresh_live(&c);
        const uint32_t *li = rule_lhs(&c, pr.i), *lj = rule_lhs(&c, pr.j);
        for (int t = 0; t < g; t++)
            c.lcm[t] = li[t] > lj[t] ? li[t] : lj[t];
        if (chain_skip(&c, pr.i, pr.j)) {
            pairset_add(&c.done, pair_key(pr.i, pr.j));
            nskipped++;
            continue;
        }
        for (int t = 0; t < g; t++) {
            c.tmp[t] = c.lcm[t] - li[t] + li[t + g];
            c.tmp2[t] = c.lcm[t] - lj[t] + lj[t + g];
        }
        pairset_add(&c.done, pair_key(pr.i, pr.j));
        npairs++;
        if ((npairs & 1023) == 0)
            cgt_progress("kb", "%zu rules, %zu pairs done, %zu queued", c.live.len, npairs,
                         c.pairs.len);
        st = add_equation(&c, c.tmp, c.tmp2, err);
        if (st != CGT_OK)
            break;
    }
    if (st != CGT_OK && st != CGT_ERR_LIMIT && st != CGT_ERR_INTERRUPTED) {
        comp_free(&c);
        kb_free(s);
        return st;
    }
    comp_refresh_live(&c);
    size_t n = c.live.len;
    uint32_t *rules = xmalloc((2 * n * (size_t)g + 1) * sizeof *rules);
    for (size_t t = 0; t < n; t++)
        memcpy(rules + 2 * t * (size_t)g, rule_lhs(&c, c.live.data[t]),
               2 * (size_t)g * sizeof *rules);
    sort_words(&c.ord, rules, n, 2 * (size_t)g);
    system_set_rules(s, rules, n);
    free(rules);
    comp_free(&c);
    s->confluent = st == CGT_OK;
    s->reduced = false;
    if (st == CGT_OK) {
        /* final right-side normalisation: keeps the reduced form exact */
        CgtError e2;
        for (size_t i = 0; i < s->nrules; i++) {
            uint32_t *r = s->rules + (2 * i + 1) * (size_t)g;
            if (reduce_with(s->rules, s->masks, NULL, s->nrules, g, r, 0, NULL, &e2) != CGT_OK)
                break;
        }
        s->reduced = true;
    }
    *out = s;
    return st;
}

/* ---------------------------------------------------------------- using */

CgtStatus kb_reduce(const KbSystem *sys, uint32_t *w, size_t max_steps, CgtError *err)
{
    for (int i = 0; i < sys->ngens; i++)
        if (w[i] > KB_MAX_EXP)
            return cgt_error_set(err, CGT_ERR_LIMIT, "exponent %u is too large", w[i]);
    return reduce_with(sys->rules, sys->masks, NULL, sys->nrules, sys->ngens, w, max_steps,
                       NULL, err);
}

CgtStatus kb_product(const KbSystem *sys, const uint32_t *a, const uint32_t *b, uint32_t *out,
                     CgtError *err)
{
    int g = sys->ngens;
    uint32_t *w = xmalloc((size_t)(g > 0 ? g : 1) * sizeof *w);
    for (int i = 0; i < g; i++) {
        uint64_t v = (uint64_t)a[i] + b[i];
        if (v > KB_MAX_EXP) {
            free(w);
            return cgt_error_set(err, CGT_ERR_LIMIT, "exponent too large in product");
        }
        w[i] = (uint32_t)v;
    }
    CgtStatus st = kb_reduce(sys, w, 0, err);
    if (st == CGT_OK)
        memcpy(out, w, (size_t)g * sizeof *w);
    free(w);
    return st;
}

/* Index of a rule whose lhs is a pure power of generator x, or -1. */
static long pure_power_rule(const KbSystem *sys, int x)
{
    int g = sys->ngens;
    for (size_t i = 0; i < sys->nrules; i++) {
        const uint32_t *l = sys->rules + 2 * i * (size_t)g;
        bool pure = l[x] > 0;
        for (int t = 0; t < g && pure; t++)
            if (t != x && l[t])
                pure = false;
        if (pure)
            return (long)i;
    }
    return -1;
}

bool kb_is_finite(const KbSystem *sys, char **why)
{
    if (why)
        *why = NULL;
    for (int x = 0; x < sys->ngens; x++) {
        if (pure_power_rule(sys, x) < 0) {
            if (why)
                *why = xasprintf("no left side is a power of %s, so the powers of %s are all "
                                 "distinct normal forms",
                                 sys->gen_names[x], sys->gen_names[x]);
            return false;
        }
    }
    return true;
}

static bool irreducible(const KbSystem *sys, const uint32_t *w)
{
    int g = sys->ngens;
    uint64_t wm = word_mask(w, g);
    for (size_t i = 0; i < sys->nrules; i++)
        if (!(sys->masks[i] & ~wm) && divides(sys->rules + 2 * i * (size_t)g, w, g))
            return false;
    return true;
}

typedef struct {
    size_t *start; /* ngens + 1 */
    size_t *ids;
} GenIndex;

static void genindex_build(const KbSystem *sys, GenIndex *ix)
{
    size_t g = (size_t)sys->ngens, tot = 0;
    ix->start = xcalloc(g + 2, sizeof *ix->start);
    for (size_t i = 0; i < sys->nrules; i++)
        for (size_t t = 0; t < g; t++)
            if (sys->rules[2 * i * g + t]) {
                ix->start[t + 1]++;
                tot++;
            }
    for (size_t t = 0; t < g; t++)
        ix->start[t + 1] += ix->start[t];
    ix->ids = xmalloc((tot + 1) * sizeof *ix->ids);
    size_t *fill = xcalloc(g + 1, sizeof *fill);
    for (size_t i = 0; i < sys->nrules; i++)
        for (size_t t = 0; t < g; t++)
            if (sys->rules[2 * i * g + t])
                ix->ids[ix->start[t] + fill[t]++] = i;
    free(fill);
}

static void genindex_free(GenIndex *ix)
{
    free(ix->start);
    free(ix->ids);
}

/* w with w - x irreducible: is w irreducible?  Only left sides with
 * l_x = w_x can divide w. */
static bool irreducible_ext(const KbSystem *sys, const GenIndex *ix, int x, const uint32_t *w,
                            uint64_t wm)
{
    int g = sys->ngens;
    for (size_t u = ix->start[x]; u < ix->start[x + 1]; u++) {
        size_t i = ix->ids[u];
        const uint32_t *l = sys->rules + 2 * i * (size_t)g;
        if (l[x] != w[x] || (sys->masks[i] & ~wm))
            continue;
        if (divides(l, w, g))
            return false;
    }
    return true;
}

CgtStatus kb_elements(const KbSystem *sys, size_t max_elems, uint32_t **elems, size_t *count,
                      CgtError *err)
{
    *elems = NULL;
    *count = 0;
    char *why;
    if (!kb_is_finite(sys, &why)) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "the monoid is infinite: %s", why);
        free(why);
        return CGT_ERR_DOMAIN;
    }
    if (!max_elems)
        max_elems = 1000000u;
    int g = sys->ngens;
    size_t gg = (size_t)g;
    /* Depth-first over irreducible words, extending a word only by
     * generators >= its last one so that each word is made once; the
     * irreducible words are closed under division, so pruning at the
     * first reducible word loses nothing. */
    /* rules by generator in their left side: w irreducible, w*x is reducible
     * only by a left side l with l_x = w_x + 1 */
    GenIndex byg;
    genindex_build(sys, &byg);
    VEC(uint32_t) out = {0};
    VEC(int) stack_last = {0};
    VEC(uint32_t) stack = {0};
    VEC_RESERVE(stack, gg);
    memset(stack.data, 0, gg * sizeof *stack.data);
    stack.len = gg;
    VEC_PUSH(stack_last, 0);
    uint32_t *w = xcalloc(gg ? gg : 1, sizeof *w);
    CgtStatus st = CGT_OK;
    while (stack_last.len) {
        int last = stack_last.data[--stack_last.len];
        stack.len -= gg;
        memcpy(w, stack.data + stack.len, gg * sizeof *w);
        if (out.len / (gg ? gg : 1) >= max_elems) {
            st = cgt_error_set(err, CGT_ERR_LIMIT, "more than %zu elements", max_elems);
            break;
        }
        if ((out.len & 0xffff) == 0 && (st = cgt_poll()) != CGT_OK) {
            cgt_poll_error(err, st, "element enumeration");
            break;
        }
        VEC_RESERVE(out, out.len + gg);
        memcpy(out.data + out.len, w, gg * sizeof *w);
        out.len += gg;
        uint64_t wm = word_mask(w, g);
        for (int x = g - 1; x >= last; x--) {
            w[x]++;
            if (irreducible_ext(sys, &byg, x, w, wm | 1ULL << (x & 63))) {
                VEC_RESERVE(stack, stack.len + gg);
                memcpy(stack.data + stack.len, w, gg * sizeof *w);
                stack.len += gg;
                VEC_PUSH(stack_last, x);
            }
            w[x]--;
        }
    }
    free(w);
    genindex_free(&byg);
    VEC_FREE(stack);
    VEC_FREE(stack_last);
    if (st != CGT_OK) {
        VEC_FREE(out);
        return st;
    }
    size_t n = gg ? out.len / gg : 1;
    Ord o = sys_ord(sys);
    if (gg)
        sort_words(&o, out.data, n, gg);
    *elems = out.data ? out.data : xcalloc(1, sizeof **elems);
    *count = n;
    return CGT_OK;
}

CgtStatus kb_check(const KbSystem *sys, size_t max_steps, KbCheck *out, CgtError *err)
{
    memset(out, 0, sizeof *out);
    out->locally_confluent = true;
    out->terminated = true;
    if (!max_steps)
        max_steps = 100000;
    int g = sys->ngens;
    size_t gg = (size_t)(g > 0 ? g : 1), n = sys->nrules;
    uint32_t *a = xmalloc(gg * sizeof *a), *b = xmalloc(gg * sizeof *b);
    VEC(size_t) divs = {0};
    VEC(size_t) reds = {0};
    CgtStatus st = CGT_OK;
    CgtError e2;
    for (size_t i = 0; i < n && st == CGT_OK; i++) {
        const uint32_t *li = sys->rules + 2 * i * gg;
        if (sys->masks[i] == 0)
            out->terminated = false; /* 1 -> r rewrites forever */
        for (size_t j = 0; j < n; j++) {
            const uint32_t *lj = sys->rules + 2 * j * gg;
            if (j != i && divides(lj, li, g)) {
                VEC_PUSH(divs, i);
                VEC_PUSH(divs, j);
            }
        }
        if (!irreducible(sys, li + g))
            VEC_PUSH(reds, i);
        for (size_t j = i + 1; j < n; j++) {
            const uint32_t *lj = sys->rules + 2 * j * gg;
            if (!(sys->masks[i] & sys->masks[j]))
                continue;
            bool share = false;
            for (int t = 0; t < g; t++)
                share |= li[t] && lj[t];
            if (!share)
                continue;
            if ((st = cgt_poll()) != CGT_OK) {
                cgt_poll_error(err, st, "confluence check");
                break;
            }
            for (int t = 0; t < g; t++) {
                uint32_t m = li[t] > lj[t] ? li[t] : lj[t];
                a[t] = m - li[t] + li[t + g];
                b[t] = m - lj[t] + lj[t + g];
            }
            out->pairs_checked++;
            bool capped = false;
            CgtStatus s1 = reduce_with(sys->rules, sys->masks, NULL, n, g, a, max_steps, &capped,
                                       &e2);
            CgtStatus s2 = reduce_with(sys->rules, sys->masks, NULL, n, g, b, max_steps, &capped,
                                       &e2);
            if (s1 != CGT_OK || s2 != CGT_OK) {
                out->terminated = false;
                continue;
            }
            if (!word_eq(a, b, g) && out->locally_confluent) {
                out->locally_confluent = false;
                out->bad_i = i;
                out->bad_j = j;
                out->bad_nf1 = xmalloc(gg * sizeof *a);
                out->bad_nf2 = xmalloc(gg * sizeof *a);
                memcpy(out->bad_nf1, a, (size_t)g * sizeof *a);
                memcpy(out->bad_nf2, b, (size_t)g * sizeof *a);
            }
        }
    }
    free(a);
    free(b);
    out->div_pairs = divs.data;
    out->ndiv = divs.len / 2;
    out->reducible_rhs = reds.data;
    out->nred = reds.len;
    out->interreduced = out->ndiv == 0 && out->nred == 0;
    if (st != CGT_OK) {
        kb_check_free(out);
        return st;
    }
    return CGT_OK;
}

bool kb_accept_check(KbSystem *sys, const KbCheck *c)
{
    if (c->locally_confluent && c->terminated)
        sys->confluent = true;
    sys->reduced = sys->confluent && c->interreduced;
    return sys->confluent;
}

void kb_check_free(KbCheck *c)
{
    free(c->bad_nf1);
    free(c->bad_nf2);
    free(c->div_pairs);
    free(c->reducible_rhs);
    memset(c, 0, sizeof *c);
}

char *kb_format_rule(const KbSystem *sys, size_t i)
{
    size_t g = (size_t)sys->ngens;
    const uint32_t *l = sys->rules + 2 * i * g;
    return rule_text(word_format(l, sys->ngens, sys->gen_names),
                     word_format(l + g, sys->ngens, sys->gen_names));
}

static char *format_rule_cb(const void *sys, size_t i) { return kb_format_rule(sys, i); }

char *kb_format_rules(const KbSystem *sys) { return rules_text(sys, sys->nrules, format_rule_cb); }
