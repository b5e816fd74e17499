/* Deciding that Q(n) is infinite (docs/misere.md, "Infinite quotients"):
 * the failure hook, the window tabulated from a failing trial, the fit of
 * the reduction (t, b0, pb, a0, pa), the states and the witness search.
 * The certificate itself is src/lib/misere/mqinfcert.c, the proof file
 * src/lib/misere/mqinfio.c.  Generalises the heap-34 probe of 0.07 (the idea of
 * using a failing trial as a label oracle below its least failure is
 * docs/misere.md "Word order and failures": every game smaller than the
 * least failure is labelled correctly). */
#include "lib/misere/mqinf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqint.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

enum {
    MIN_COPIES = 5,   /* first least failure (copies of heap n) that is tried */
    WIN_B = 64,       /* window columns b = 0..63 */
    MAX_Q = 4,        /* largest diagonal step tried */
    MAX_REPAIRS = 4096, /* relabellings of untrusted states per attempt */
    GROUP_FAILS = 64,   /* least failures of a heap before Lemma 2 is tried */
    MAX_STATES = 1 << 22
};

struct MqInf {
    const HeapGame *game;
    uint32_t n;
    MqEngine *eng;
    uint64_t max_pairs;
    bool follow;       /* n = 0 at creation: n follows the expanded heap */
    HeapOptions *opts; /* heaps 0..n, loaded at the first attempt */
    uint32_t last_k, max_k;
    uint32_t last_top, last_tk; /* top heap and its copies at the last grouped attempt */
    uint32_t nfail;             /* least failures seen while expanding heap n */
    uint32_t *maxe;             /* maxe[h]: most copies of heap h in a least failure */
    uint32_t maxe_n;            /* heaps 0..maxe_n - 1 in maxe */
    char growing[300];
    MqInfProof *res;
    char *log;
    size_t loglen, logcap;
    bool failed;
    CgtError err;
};

static void logf_(MqInf *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void logf_(MqInf *d, const char *fmt, ...)
{
    char line[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t l = strlen(line);
    if (d->loglen + l + 2 > 1 << 20)
        return; /* the log is a report, not a record: cap it at 1 MB */
    if (d->loglen + l + 2 > d->logcap) {
        d->logcap = (d->loglen + l + 2) * 2;
        d->log = xrealloc(d->log, d->logcap);
    }
    cgt_progress_force("quotient", "heap %u, infinite-quotient decision: %s", d->n, line);
    memcpy(d->log + d->loglen, line, l);
    d->loglen += l;
    d->log[d->loglen++] = '\n';
    d->log[d->loglen] = '\0';
}

MqInf *mqinf_new(const HeapGame *game, uint32_t n, MqEngine *eng, uint64_t max_pairs)
{
    MqInf *d = xcalloc(1, sizeof *d);
    d->game = game;
    d->n = n;
    d->follow = n == 0;
    d->eng = eng;
    d->max_pairs = max_pairs ? max_pairs : 4000000;
    d->log = xstrdup("");
    d->logcap = 1;
    cgt_error_clear(&d->err);
    return d;
}

static void free_opts(HeapOptions *o, uint32_t n)
{
    if (!o)
        return;
    for (uint32_t k = 0; k <= n; k++)
        heapopts_free(&o[k]);
    free(o);
}

void mqinf_proof_free(MqInfProof *p)
{
    if (!p)
        return;
    for (uint32_t k = 0; p->act && k <= p->N; k++)
        free(p->act[k]);
    free(p->act);
    free_opts(p->opts, p->N);
    free(p->lab);
    free(p->grp);
    free(p->trust);
    free(p->wheaps);
    free(p->word);
    free(p->woff);
    free(p->ext_text);
    free(p);
}

void mqinf_free(MqInf *d)
{
    if (!d)
        return;
    free_opts(d->opts, d->n);
    mqinf_proof_free(d->res);
    free(d->maxe);
    free(d->log);
    free(d);
}

const MqInfProof *mqinf_result(const MqInf *d)
{
    return d->res;
}

MqInfProof *mqinf_take(MqInf *d)
{
    MqInfProof *p = d->res;
    d->res = NULL;
    return p;
}

const char *mqinf_log(const MqInf *d)
{
    return d->log;
}

uint32_t mqinf_max_copies(const MqInf *d)
{
    return d->max_k;
}

const char *mqinf_growing(MqInf *d)
{
    d->growing[0] = '\0';
    if (d->last_top == 0)
        return d->growing;
    size_t len = 0;
    len += (size_t)snprintf(d->growing, sizeof d->growing,
                            "heap %u occurs once in the least failures; most copies of the "
                            "heaps that grow:", d->n);
    bool any = false;
    for (uint32_t h = d->maxe_n; h-- > 1 && len + 24 < sizeof d->growing;)
        if (h != d->n && d->maxe[h] >= MIN_COPIES) {
            len += (size_t)snprintf(d->growing + len, sizeof d->growing - len, "%s %u^%u",
                                    any ? "," : "", h, d->maxe[h]);
            any = true;
        }
    return d->growing;
}

/* ---- the reduction (docs/misere.md, proof format) ---- */

/* red(a, b) of the proof formats (docs/misere.md, Lemma 2): down the
 * diagonal by steps (q, q) while a, b >= t + q, then b modulo pb above b0
 * when a < t + q, else a modulo pa above a0 (q = 1: Lemma 1's red). */
static void mqinf_reduce(const MqInfProof *p, uint64_t *a, uint64_t *b)
{
    uint64_t tq = (uint64_t)p->t + p->q;
    if (*a >= tq && *b >= tq) {
        uint64_t s = ((*a < *b ? *a : *b) - p->t) / p->q * p->q;
        *a -= s;
        *b -= s;
    }
    if (*a < tq) {
        if (*b >= (uint64_t)p->b0 + p->pb)
            *b = p->b0 + (*b - p->b0) % p->pb;
    } else if (*a >= (uint64_t)p->a0 + p->pa) {
        *a = p->a0 + (*a - p->a0) % p->pa;
    }
}

bool mqinf_label(const MqInfProof *p, uint32_t s, uint64_t a, uint64_t b)
{
    mqinf_reduce(p, &a, &b);
    return p->lab[((size_t)s * (p->TA + 1) + a) * (p->TB + 1) + b];
}

CgtStatus mqinf_outcome(const MqInfProof *p, const uint32_t *heaps, size_t k, bool *is_p,
                        CgtError *err)
{
    uint32_t s = 0;
    uint64_t a = 0, b = 0;
    for (size_t i = 0; i < k; i++) {
        uint32_t h = heaps[i];
        if (h > p->N)
            return cgt_error_set(err, CGT_ERR_DOMAIN,
                                 "heap %u is above the heaps 0..%u that the description covers",
                                 h, p->N);
        if (p->grp[h] == 1)
            a++;
        else if (p->grp[h] == 2)
            b++;
        else if (h > 0)
            s = p->act[h][s];
    }
    *is_p = mqinf_label(p, s, a, b);
    return CGT_OK;
}

bool mqinf_is_v1(const MqInfProof *p)
{
    if (p->H != p->N || p->q != 1)
        return false;
    for (uint32_t h = 1; h <= p->N; h++)
        if (p->grp[h] && h != p->H && h != p->G)
            return false;
    return true;
}

uint32_t mqinf_group(const MqInfProof *p, int g, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t h = 1; h <= p->N; h++)
        if (p->grp[h] == g)
            out[n++] = h;
    return n;
}

/* ---- witness: contexts that separate the powers of phi(H) ---- */

static bool witness_ok(const MqInfProof *p, uint32_t s, int32_t e, uint32_t amin)
{
    int64_t t = p->t, q = p->q;
    int64_t astar = t + q > t + q - e ? t + q : t + q - e;
    int64_t dstar = (int64_t)p->a0 - t + e + 1;
    if (dstar < 1)
        dstar = 1;
    /* a beyond A*: only d = a' - a matters (both points move down the
     * diagonal); d beyond D*: periodic with period pa.  Checking past both
     * thresholds by a full period and more covers every case. */
    /* and at least the range of rule 8 of format 2 (docs/misere.md) */
    int64_t dmax = dstar + 3 * (int64_t)p->pa + 2;
    int64_t d2 = (int64_t)p->a0 - t + e > (int64_t)p->a0 - (int64_t)amin
                     ? (int64_t)p->a0 - t + e
                     : (int64_t)p->a0 - (int64_t)amin;
    if (d2 < 1)
        d2 = 1;
    if (d2 + p->pa > dmax)
        dmax = d2 + p->pa;
    for (int64_t a = amin; a <= astar + q + p->pa; a++)
        for (int64_t dd = 1; dd <= dmax; dd++)
            if (mqinf_label(p, s, (uint64_t)a, (uint64_t)(a + e)) ==
                mqinf_label(p, s, (uint64_t)(a + dd), (uint64_t)(a + e)))
                return false;
    return true;
}

/* Search a witness (context W, offset e, a_min) on p; sets have_witness.
 * false when a poll stopped the search (each candidate reads a range that
 * grows with t and pa, hundreds of rows in some windows). */
static bool mqinf_find_witness(MqInfProof *p)
{
    p->have_witness = false;
    int32_t emax = (int32_t)(p->t + p->pb + p->pa + p->b0 + 4);
    uint32_t smax = p->S < 4096 ? p->S : 4096;
    /* witness_ok(s, e, a) implies witness_ok(s, e, a') for a' > a (its
     * rows and distances only shrink as a_min grows), so when nothing
     * passes at the largest a_min nothing passes at all: one scan instead
     * of t + 3 when there is no witness */
    bool any = false;
    for (uint32_t s = 0; s < smax && !any; s++)
        for (int32_t e = -(int32_t)(p->t + 2); e <= emax && !any; e++) {
            if (cgt_poll() != CGT_OK)
                return false;
            any = witness_ok(p, s, e, p->t + 2);
        }
    if (!any)
        return true;
    for (uint32_t amin = 0; amin <= p->t + 2; amin++)
        for (uint32_t s = 0; s < smax; s++) /* states in BFS order: short contexts first */
            for (int32_t e = -(int32_t)amin; e <= emax; e++) {
                if (cgt_poll() != CGT_OK)
                    return false;
                if (witness_ok(p, s, e, amin)) {
                    p->have_witness = true;
                    p->we = e;
                    p->wa = amin;
                    p->wstate = s;
                    p->nw = p->woff[s + 1] - p->woff[s];
                    p->wheaps = xmalloc((p->nw + 1) * sizeof *p->wheaps);
                    memcpy(p->wheaps, p->word + p->woff[s], p->nw * sizeof *p->wheaps);
                    return true;
                }
            }
    return true;
}

/* ---- one attempt: partner G on the failing trial T with k copies ---- */

static uint32_t tact(const MqPret *T, uint32_t h, uint32_t x)
{
    return T->hl[h] < 0 ? x : T->act[T->hl[h]][x];
}

typedef struct Window {
    uint32_t S, A, W;
    uint8_t *o;           /* o[(s * A + a) * W + b] */
    const uint8_t *trust; /* trust[s]: the window's labels of s are below the least failure */
    /* need[q] (q = 1..MAX_Q): 1 + the largest min(a, b) with L(s, a, b) !=
     * L(s, a+q, b+q) on a trusted state, at least tmin: the least t of the
     * diagonal step q (found while the window is filled) */
    uint32_t need[MAX_Q + 1];
} Window;

#define WAT(w, s, a, b) ((w)->o[((size_t)(s) * (w)->A + (a)) * (w)->W + (b)])

/* Fit t, then (pb, b0), then (pa, a0) on the window; false with a reason
 * ("stopped" when a poll says so).  Each parameter is the least that holds:
 * for a fixed step, one pass over the window finds the last place where
 * the invariance fails, and the least start is the next one (the window
 * may have hundreds of rows, so trying every start in turn, as a first
 * version did, ran for seconds without a poll). */
static bool fit(const Window *w, MqInfProof *p, char *why, size_t wl)
{
    uint32_t A = w->A, W = w->W, S = w->S;
    bool found = false;
    uint32_t t = 0;
    uint32_t q;
    /* the diagonal step (q, q): q = 1 first (Lemma 1), then 2..MAX_Q; t is
     * the least with L(a, b) = L(a+q, b+q) for all a, b >= t */
    for (q = 1; q <= MAX_Q && !found; q++)
        if (w->need[q] + q + 2 <= A) {
            t = w->need[q];
            found = true;
            break;
        }
    if (!found) {
        snprintf(why, wl, "no diagonal invariance on the window (a < %u, steps 1..%u)", A,
                 (unsigned)MAX_Q);
        return false;
    }
    p->t = t;
    p->q = q;
    found = false;
    uint32_t pb = 0, b0 = 0;
    for (pb = 1; pb <= W / 4 && !found; pb++) {
        uint32_t need = 0; /* 1 + the last b with L(a, b) != L(a, b + pb) */
        for (uint32_t s = 0; s < S; s++) {
            if ((s & 255) == 0 && cgt_poll() != CGT_OK) {
                snprintf(why, wl, "stopped");
                return false;
            }
            if (!w->trust[s])
                continue;
            for (uint32_t a = 0; a <= t + q && a < A; a++)
                for (uint32_t b = need; b + pb < W; b++)
                    if (WAT(w, s, a, b) != WAT(w, s, a, b + pb))
                        need = b + 1;
        }
        if (need + 2 * pb + 1 < W) {
            b0 = need;
            found = true;
            break;
        }
    }
    if (!found) {
        snprintf(why, wl, "t=%u q=%u, no period in b on the strips a <= t+q", t, q);
        return false;
    }
    p->pb = pb;
    p->b0 = b0 < t + q - 1 ? t + q - 1 : b0;
    found = false;
    uint32_t pa = 0, a0 = 0;
    /* the a-period must be seen twice in the window: rows a0 .. a0+2pa
     * (one row more made Q(34) of 0.07 wait for 13 copies of heap 34 instead
     * of 12, which gives the same fit and the same proof) */
    for (pa = 1; t + q + 2 * pa < A && !found; pa++) {
        uint32_t need = t + q; /* 1 + the last a with L(a, b) != L(a + pa, b) */
        for (uint32_t s = 0; s < S; s++) {
            if ((s & 255) == 0 && cgt_poll() != CGT_OK) {
                snprintf(why, wl, "stopped");
                return false;
            }
            if (!w->trust[s])
                continue;
            for (uint32_t b = 0; b <= t + q; b++)
                for (uint32_t a = need; a + pa < A; a++)
                    if (WAT(w, s, a, b) != WAT(w, s, a + pa, b))
                        need = a + 1;
        }
        if (need + 2 * pa < A) {
            a0 = need;
            found = true;
            break;
        }
    }
    if (!found) {
        snprintf(why, wl, "t=%u q=%u, b-period %u from %u, no period in a on the strips "
                 "b <= t+q (rows a < %u)", t, q, p->pb, p->b0, A);
        return false;
    }
    p->pa = pa;
    p->a0 = a0;
    p->TA = p->a0 + p->pa - 1;
    p->TB = p->b0 + p->pb - 1;
    if (p->TA >= A || p->TB >= W) {
        snprintf(why, wl, "reduction needs rows beyond the window");
        return false;
    }
    return true;
}

/* One attempt: coordinate a counts the heaps h with grp[h] = 1 (H among
 * them, the window's rows a < k), b those with grp[h] = 2 (G among them);
 * tmin = the least t that Lemma 2 allows for groups of these sizes. */
/* A state: a trial element, and with refinement also the element of
 * Q(n-1) of the position's heaps below n.  Open addressing over the pair. */
typedef struct StateMap {
    uint64_t *key;
    uint32_t *val;
    size_t cap;
} StateMap;

static uint32_t smap_get(StateMap *m, uint64_t key, uint32_t fresh)
{
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15ULL) >> 20) & (m->cap - 1);
    while (m->val[i] != UINT32_MAX) {
        if (m->key[i] == key)
            return m->val[i];
        i = (i + 1) & (m->cap - 1);
    }
    m->key[i] = key;
    m->val[i] = fresh;
    return fresh;
}

static MqInfProof *attempt(MqInf *d, const MqPret *T, const uint32_t *F, uint32_t H,
                           uint32_t G, const uint8_t *grp, uint32_t tmin, uint32_t k,
                           bool refine, char *why, size_t wl)
{
    uint32_t N = d->n;
    const MqPret *Q = d->eng->q;
    /* states: elements reached from 0 by heaps outside the groups (BFS, so
     * state numbers follow the length of their shortest heap words); with
     * refine, pairs (trial element, element of Q(n-1) of the heaps below
     * n), which separates positions above the least failure that the
     * trial merges */
    uint32_t cap = T->n, S = 0;
    uint32_t *rl = xmalloc(cap * sizeof *rl), *rq = xmalloc(cap * sizeof *rq);
    uint32_t *pst = xmalloc(cap * sizeof *pst), *ph = xmalloc(cap * sizeof *ph);
    StateMap sm;
    sm.cap = 1;
    while (sm.cap < 4 * (size_t)T->n)
        sm.cap *= 2;
    sm.key = xmalloc(sm.cap * sizeof *sm.key);
    sm.val = xmalloc(sm.cap * sizeof *sm.val);
    memset(sm.val, 0xff, sm.cap * sizeof *sm.val);
    smap_get(&sm, 0, 0);
    rl[0] = rq[0] = 0;
    S = 1;
    for (uint32_t i = 0; i < S && S <= MAX_STATES; i++)
        for (uint32_t h = 1; h <= N && S <= MAX_STATES; h++)
            if (!grp[h] && T->hl[h] >= 0) {
                uint32_t y = tact(T, h, rl[i]);
                uint32_t z = refine && h < N && h < Q->nh ? tact(Q, h, rq[i]) : rq[i];
                uint64_t key = y + (refine ? (uint64_t)z * T->n : 0);
                if (smap_get(&sm, key, S) != S)
                    continue;
                if (S == cap) {
                    cap *= 2;
                    rl = xrealloc(rl, cap * sizeof *rl);
                    rq = xrealloc(rq, cap * sizeof *rq);
                    pst = xrealloc(pst, cap * sizeof *pst);
                    ph = xrealloc(ph, cap * sizeof *ph);
                    if (4 * (size_t)cap > sm.cap) {
                        StateMap nm;
                        nm.cap = sm.cap * 4;
                        nm.key = xmalloc(nm.cap * sizeof *nm.key);
                        nm.val = xmalloc(nm.cap * sizeof *nm.val);
                        memset(nm.val, 0xff, nm.cap * sizeof *nm.val);
                        for (size_t j = 0; j < sm.cap; j++)
                            if (sm.val[j] != UINT32_MAX)
                                smap_get(&nm, sm.key[j], sm.val[j]);
                        free(sm.key);
                        free(sm.val);
                        sm = nm;
                    }
                }
                pst[S] = i;
                ph[S] = h;
                rl[S] = y;
                rq[S] = z;
                S++;
            }
    /* trusted states: the heaps above H of the state's word are below
     * those of the least failure F in the word order (or equal), so that
     * with fewer than k heaps H the position is below F and its trial
     * label is its outcome ("Word order and failures"); the fit reads only
     * these */
    uint8_t *trust = xmalloc(S);
    uint32_t *cnt = xcalloc(N + 1, sizeof *cnt);
    trust[0] = 1;
    for (uint32_t s = 1; s < S; s++) {
        memset(cnt, 0, (N + 1) * sizeof *cnt);
        for (uint32_t x = s; x != 0; x = pst[x])
            cnt[ph[x]]++;
        int c = 0;
        for (uint32_t h = N; h > H && c == 0; h--)
            c = cnt[h] < F[h] ? -1 : cnt[h] > F[h] ? 1 : 0;
        trust[s] = c <= 0;
    }
    free(cnt);
    MqInfProof *p = NULL;
    Window w = {S, k, WIN_B, NULL, trust, {0}};
    if (S > MAX_STATES || (uint64_t)S * k * WIN_B > (256u << 20)) {
        snprintf(why, wl, "%u states: window too large", S);
        goto out;
    }
    w.o = xmalloc((size_t)S * k * WIN_B);
    for (uint32_t q = 1; q <= MAX_Q; q++)
        w.need[q] = tmin;
    for (uint32_t s = 0; s < S; s++) {
        /* the window may hold 2^28 entries: poll; the engine stops at its
           next poll (a hook cannot fail) */
        if ((s & 63) == 0 && cgt_poll() != CGT_OK) {
            snprintf(why, wl, "stopped");
            goto out;
        }
        uint32_t e = rl[s];
        for (uint32_t a = 0; a < k; a++) {
            uint32_t y = e;
            for (uint32_t b = 0; b < WIN_B; b++) {
                WAT(&w, s, a, b) = mq_bit(T->p, y);
                y = tact(T, G, y);
            }
            e = tact(T, H, e);
        }
        /* the diagonal step as the window fills: once no q can fit, the
         * rest of the window is not needed (fit would say the same) */
        if (!trust[s])
            continue;
        bool alive = false;
        for (uint32_t q = 1; q <= MAX_Q; q++) {
            if (w.need[q] + q + 2 > k)
                continue;
            for (uint32_t a = 0; a + q < k; a++)
                for (uint32_t b = 0; b + q < WIN_B; b++)
                    if (WAT(&w, s, a, b) != WAT(&w, s, a + q, b + q)) {
                        uint32_t m = (a < b ? a : b) + 1;
                        if (m > w.need[q])
                            w.need[q] = m;
                    }
            alive = alive || w.need[q] + q + 2 <= k;
        }
        if (!alive) {
            snprintf(why, wl, "no diagonal invariance on the window (a < %u, steps 1..%u)", k,
                     (unsigned)MAX_Q);
            goto out;
        }
    }
    p = xcalloc(1, sizeof *p);
    p->N = N;
    p->H = H;
    p->G = G;
    p->S = S;
    p->found_copies = k;
    p->grp = xmalloc(N + 1);
    memcpy(p->grp, grp, N + 1);
    if (!fit(&w, p, why, wl)) {
        mqinf_proof_free(p);
        p = NULL;
        goto out;
    }
    p->act = xcalloc(N + 1, sizeof *p->act);
    p->opts = xcalloc(N + 1, sizeof *p->opts);
    for (uint32_t h = 0; h <= N; h++) {
        heapopts_init(&p->opts[h]);
        const HeapOptions *src = &d->opts[h];
        for (size_t j = 0; j < src->count; j++)
            heapopts_add(&p->opts[h], src->parts + src->start[j],
                         src->start[j + 1] - src->start[j]);
        if (grp[h] || h == 0)
            continue;
        p->act[h] = xmalloc((size_t)S * sizeof *p->act[h]);
        for (uint32_t s = 0; s < S; s++) {
            uint32_t y = tact(T, h, rl[s]);
            uint32_t z = refine && h < N && h < Q->nh ? tact(Q, h, rq[s]) : rq[s];
            p->act[h][s] = smap_get(&sm, y + (refine ? (uint64_t)z * T->n : 0), UINT32_MAX);
        }
    }
    p->lab = xmalloc((size_t)S * (p->TA + 1) * (p->TB + 1));
    bool agree = true;
    for (uint32_t s = 0; s < S; s++) {
        for (uint32_t a = 0; a <= p->TA; a++)
            for (uint32_t b = 0; b <= p->TB; b++)
                p->lab[((size_t)s * (p->TA + 1) + a) * (p->TB + 1) + b] = WAT(&w, s, a, b);
        for (uint32_t a = 0; a < k && agree && trust[s]; a++)
            for (uint32_t b = 0; b < WIN_B && agree; b++)
                agree = mqinf_label(p, s, a, b) == WAT(&w, s, a, b);
    }
    /* the table must be consistent with red (rule 4): entries outside
     * red's image were filled from the window and must agree */
    if (!agree) {
        snprintf(why, wl, "t=%u b0=%u pb=%u a0=%u pa=%u disagrees with the window", p->t,
                 p->b0, p->pb, p->a0, p->pa);
        mqinf_proof_free(p);
        p = NULL;
        goto out;
    }
    /* words of the states (for contexts and descriptions) */
    p->woff = xmalloc((S + 1) * sizeof *p->woff);
    size_t tot = 0;
    uint32_t *len = xmalloc(S * sizeof *len);
    len[0] = 0;
    for (uint32_t s = 1; s < S; s++)
        len[s] = len[pst[s]] + 1;
    for (uint32_t s = 0; s < S; s++) {
        p->woff[s] = (uint32_t)tot;
        tot += len[s];
    }
    p->woff[S] = (uint32_t)tot;
    p->word = xmalloc((tot + 1) * sizeof *p->word);
    for (uint32_t s = 1; s < S; s++)
        for (uint32_t x = s, j = len[s]; x != 0; x = pst[x])
            p->word[p->woff[s] + --j] = ph[x];
    free(len);
out:
    if (p)
        p->trust = trust;
    else
        free(trust);
    free(w.o);
    free(sm.key);
    free(sm.val);
    free(rq);
    free(rl);
    free(pst);
    free(ph);
    return p;
}

static bool load_opts(MqInf *d)
{
    if (d->opts)
        return true;
    d->opts = xcalloc(d->n + 1, sizeof *d->opts);
    for (uint32_t h = 0; h <= d->n; h++)
        heapopts_init(&d->opts[h]);
    for (uint32_t h = 0; h <= d->n; h++) {
        if (d->game->options(d->game->ctx, h, &d->opts[h], &d->err) != CGT_OK) {
            d->failed = true;
            return false;
        }
        heapopts_canonicalize(&d->opts[h]);
    }
    return true;
}

static int cmp_cand(const void *x, const void *y)
{
    const uint32_t *a = x, *b = y; /* (exponent, heap): exponent desc, heap desc */
    if (a[0] != b[0])
        return a[0] < b[0] ? 1 : -1;
    return (a[1] < b[1]) - (a[1] > b[1]);
}

/* Try to prove Q(n) infinite with top heap H (k copies of it in the least
 * failure F) against each partner in turn.  grouped: the coordinates are
 * the groups of heaps with the image of H and of the partner in Q(n-1)
 * (Lemma 2); else {H} and {G} (Lemma 1). */
static void try_top(MqInf *d, const MqPret *T, const uint32_t *F, uint32_t H, uint32_t k,
                    bool grouped)
{
    const MqPret *q = d->eng->q;
    /* partners: heaps of the failure first (most copies first), then (for
     * the top heap n only) every other heap with options, largest first */
    uint32_t *cand = xmalloc(2 * (size_t)d->n * sizeof *cand), nc = 0;
    for (uint32_t h = 1; h < d->n; h++)
        if (h != H && T->hl[h] >= 0 && (!grouped || F[h] > 0)) {
            cand[2 * nc] = F[h];
            cand[2 * nc + 1] = h;
            nc++;
        }
    qsort(cand, nc, 2 * sizeof *cand, cmp_cand);
    size_t len0 = d->loglen;
    uint8_t *grp = xcalloc(d->n + 1, 1);
    bool stopped = false;
    uint32_t i;
    for (i = 0; i < nc && !d->res && !stopped; i++) {
        if (cgt_poll() != CGT_OK) {
            stopped = true;
            break;
        }
        uint32_t G = cand[2 * i + 1];
        char why[300];
        why[0] = '\0';
        memset(grp, 0, d->n + 1);
        uint32_t ma = 0, mb = 0;
        if (grouped) {
            /* heaps with the image of H (of G) in Q(n-1) */
            uint32_t xh = tact(q, H, 0), xg = tact(q, G, 0);
            for (uint32_t h = 1; h < d->n && h < q->nh; h++) {
                if (q->hl[h] < 0)
                    continue;
                uint32_t x = tact(q, h, 0);
                if (x == xh) {
                    grp[h] = 1;
                    ma++;
                } else if (x == xg) {
                    grp[h] = 2;
                    mb++;
                }
            }
            if (xh == xg || grp[H] != 1 || grp[G] != 2)
                continue;
        } else {
            grp[H] = 1;
            grp[G] = 2;
            ma = mb = 1;
        }
        if (ma > 8 || mb > 8)
            continue;
        uint32_t tmin = (ma > mb ? ma : mb) - 1;
        /* grouped: the trial's states first, then refined by Q(n-1) */
        for (int refine = 0; refine <= (int)grouped && !d->res && !d->failed; refine++) {
        char pre[100];
        if (grouped)
            snprintf(pre, sizeof pre, "top %u (copies %u), partner %u%s", H, k, G,
                     refine ? ", refined states" : "");
        else
            snprintf(pre, sizeof pre, "copies %u, partner %u", k, G);
        MqInfProof *p = attempt(d, T, F, H, G, grp, tmin, k, refine, why, sizeof why);
        if (!p) {
            if (strcmp(why, "stopped") == 0)
                stopped = true;
            else if (cand[2 * i] > 0)
                logf_(d, "%s: %s", pre, why);
            break;
        }
        char qtxt[16] = "";
        if (p->q > 1)
            snprintf(qtxt, sizeof qtxt, " q=%u", p->q);
        mqinf_set_region(p);
        bool ok = false;
        const char *reason = "";
        CgtError e2;
        cgt_error_clear(&e2);
        /* every state trusted: no repair below can change the table, so
         * the witness search that follows a certificate can run first, on
         * the same table with the same result; without a witness the
         * attempt gives no proof and the certificate, its costly part, is
         * skipped (Q(15) of 0.74, which is finite, fitted 14 partners at
         * 28 copies whose certificates took 60% of the run) */
        bool all_trusted = true;
        for (uint32_t s = 0; s < p->S && all_trusted; s++)
            all_trusted = p->trust[s] != 0;
        if (all_trusted) {
            if (!mqinf_find_witness(p)) {
                mqinf_proof_free(p);
                stopped = true;
                break;
            }
            if (!p->have_witness) {
                logf_(d, "%s: t=%u%s b0=%u pb=%u a0=%u pa=%u fits %u states, but no context "
                      "separates the powers of heap %u (certificate not run)", pre, p->t, qtxt,
                      p->b0, p->pb, p->a0, p->pa, p->S, H);
                mqinf_proof_free(p);
                continue;
            }
        }
        CgtStatus st = mqinf_certify(p, d->max_pairs, &ok, &reason, &e2);
        /* labels of states above the least failure are only the trial's
         * guess: where the check fails on such a state, take the label the
         * misère rule asks for and check again (the certificate alone
         * decides; this only proposes tables) */
        uint32_t repairs = 0;
        uint64_t hist[2] = {UINT64_MAX, UINT64_MAX};
        while (st == CGT_OK && !ok && p->fail_bits && !p->trust[p->fail_s] &&
               repairs < MAX_REPAIRS) {
            /* the same check failing every other round: two positions of
             * one state need different labels; stop */
            uint64_t here = ((uint64_t)p->fail_s << 32 | p->fail_a) ^ p->fail_bits * 31;
            if (here == hist[1])
                break;
            hist[1] = hist[0];
            hist[0] = here;
            repairs++;
            for (uint32_t b = 0; b < 64; b++)
                if (p->fail_bits >> b & 1) {
                    uint64_t ra = p->fail_a, rb = b;
                    mqinf_reduce(p, &ra, &rb);
                    p->lab[((size_t)p->fail_s * (p->TA + 1) + ra) * (p->TB + 1) + rb] =
                        (uint8_t)(p->fail_want >> b & 1);
                }
            for (uint32_t a = 0; a <= p->TA; a++)
                for (uint32_t b = 0; b <= p->TB; b++) {
                    uint64_t ra = a, rb = b;
                    mqinf_reduce(p, &ra, &rb);
                    p->lab[((size_t)p->fail_s * (p->TA + 1) + a) * (p->TB + 1) + b] =
                        p->lab[((size_t)p->fail_s * (p->TA + 1) + ra) * (p->TB + 1) + rb];
                }
            st = mqinf_certify(p, d->max_pairs, &ok, &reason, &e2);
        }
        if (repairs)
            logf_(d, "%s: %u repairs of labels above the least failure", pre, repairs);
        if (st != CGT_OK) {
            logf_(d, "%s: t=%u b0=%u pb=%u a0=%u pa=%u, %u states: "
                  "certificate stopped: %s", pre, p->t, p->b0, p->pb, p->a0, p->pa, p->S,
                  e2.msg);
            mqinf_proof_free(p);
            if (st != CGT_ERR_LIMIT) {
                d->failed = true;
                d->err = e2;
            }
            continue;
        }
        if (!ok) {
            logf_(d, "%s: t=%u%s b0=%u pb=%u a0=%u pa=%u, %u states, "
                  "%llu pairs: certificate fails (%s)", pre, p->t, qtxt, p->b0, p->pb, p->a0,
                  p->pa, p->S, (unsigned long long)p->pairs, reason);
            mqinf_proof_free(p);
            continue;
        }
        if (!all_trusted && !mqinf_find_witness(p)) {
            logf_(d, "%s: labels proved (%u states, %llu pairs); witness search stopped", pre,
                  p->S, (unsigned long long)p->pairs);
            mqinf_proof_free(p);
            stopped = true;
            break;
        }
        if (!p->have_witness) {
            logf_(d, "%s: labels proved (%u states, %llu pairs) but "
                  "no context separates the powers of heap %u", pre, p->S,
                  (unsigned long long)p->pairs, H);
            mqinf_proof_free(p);
            continue;
        }
        logf_(d, "%s: proved (%u states, %llu pairs, %llu row "
              "checks)", pre, p->S, (unsigned long long)p->pairs,
              (unsigned long long)p->checks);
        d->res = p;
        mq_request_stop(d->eng);
        }
    }
    if (!d->res && stopped)
        logf_(d, "%s %u (copies %u): stopped by a limit after %u of %u partner heaps",
              grouped ? "top" : "heap", H, k, i, nc);
    else if (!d->res && d->loglen == len0)
    {
        if (grouped)
            logf_(d, "top %u (copies %u): %u partner heaps tried, none fits the window", H, k,
                  nc);
        else
            logf_(d, "copies %u: %u partner heaps tried, none fits the window", k, nc);
    }
    free(grp);
    free(cand);
}

void mqinf_hook(void *ctx, const struct MqPret *T, const uint32_t *F, bool p_failure)
{
    (void)p_failure;
    MqInf *d = ctx;
    if (d->follow && T->nh - 1 != d->n) {
        /* a new heap: start over (options of the larger heap range too) */
        free_opts(d->opts, d->n);
        d->opts = NULL;
        d->n = T->nh - 1;
        d->last_k = d->max_k = 0;
        d->last_top = d->last_tk = 0;
        d->nfail = 0;
        if (d->maxe)
            memset(d->maxe, 0, d->maxe_n * sizeof *d->maxe);
        d->loglen = 0;
        d->log[0] = '\0';
    }
    if (d->res || d->failed || T->nh <= d->n || d->n == 0)
        return;
    uint32_t k = F[d->n];
    if (k > d->max_k)
        d->max_k = k;
    if (d->maxe_n < T->nh) {
        d->maxe = xrealloc(d->maxe, T->nh * sizeof *d->maxe);
        memset(d->maxe + d->maxe_n, 0, (T->nh - d->maxe_n) * sizeof *d->maxe);
        d->maxe_n = T->nh;
    }
    for (uint32_t h = 0; h < T->nh; h++)
        if (F[h] > d->maxe[h])
            d->maxe[h] = F[h];
    d->nfail++;
    if (k >= 2) {
        /* the new heap's exponent grows: Lemma 1 with top heap n */
        if (k <= d->last_k || k < MIN_COPIES)
            return;
        d->last_k = k;
        if (load_opts(d))
            try_top(d, T, F, d->n, k, false);
        return;
    }
    /* the new heap occurs once: the top heap is the largest heap whose
     * exponent in the least failure reached MIN_COPIES (Lemma 2, the
     * coordinates being groups of heaps with one image in Q(n-1)) */
    uint32_t H = 0;
    for (uint32_t h = d->n; h-- > 1;)
        if (F[h] >= MIN_COPIES && T->hl[h] >= 0) {
            H = h;
            break;
        }
    /* most heaps that finish have few least failures: Lemma 2 only after
     * GROUP_FAILS of them, and again for the same top only when its count
     * grew by a quarter (at least 2), so that finishing heaps pay little */
    if (H == 0 || d->eng->q->nh != d->n || d->nfail < GROUP_FAILS)
        return;
    if (H == d->last_top && F[H] < d->last_tk + (d->last_tk / 4 > 2 ? d->last_tk / 4 : 2))
        return;
    d->last_top = H;
    d->last_tk = F[H];
    if (load_opts(d))
        try_top(d, T, F, H, F[H], true);
}
