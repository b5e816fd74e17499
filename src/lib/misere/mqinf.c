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
    free(p->wheaps);
    free(p->word);
    free(p->woff);
    free(p);
}

void mqinf_free(MqInf *d)
{
    if (!d)
        return;
    free_opts(d->opts, d->n);
    mqinf_proof_free(d->res);
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

/* ---- the reduction (docs/misere.md, proof format) ---- */

/* red(a, b) of the proof format (docs/misere.md): down the diagonal while
 * a, b > t, then b modulo pb above b0 when a <= t, else a modulo pa above
 * a0. */
static void mqinf_reduce(const MqInfProof *p, uint64_t *a, uint64_t *b)
{
    if (*a > p->t && *b > p->t) {
        uint64_t s = (*a < *b ? *a : *b) - p->t;
        *a -= s;
        *b -= s;
    }
    if (*a <= p->t) {
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
        if (h == p->H)
            a++;
        else if (h == p->G)
            b++;
        else if (h > 0)
            s = p->act[h][s];
    }
    *is_p = mqinf_label(p, s, a, b);
    return CGT_OK;
}

/* ---- witness: contexts that separate the powers of phi(H) ---- */

static bool witness_ok(const MqInfProof *p, uint32_t s, int32_t e, uint32_t amin)
{
    int64_t t = p->t;
    int64_t astar = t + 1 > t + 1 - e ? t + 1 : t + 1 - e;
    int64_t dstar = (int64_t)p->a0 - t + e + 1;
    if (dstar < 1)
        dstar = 1;
    /* a beyond A*: only d = a' - a matters (both points move down the
     * diagonal); d beyond D*: periodic with period pa.  Checking past both
     * thresholds by a full period and more covers every case. */
    for (int64_t a = amin; a <= astar + 1 + p->pa; a++)
        for (int64_t dd = 1; dd <= dstar + 3 * (int64_t)p->pa + 2; dd++)
            if (mqinf_label(p, s, (uint64_t)a, (uint64_t)(a + e)) ==
                mqinf_label(p, s, (uint64_t)(a + dd), (uint64_t)(a + e)))
                return false;
    return true;
}

/* Search a witness (context W, offset e, a_min) on p; sets have_witness. */
static void mqinf_find_witness(MqInfProof *p)
{
    p->have_witness = false;
    int32_t emax = (int32_t)(p->t + p->pb + p->pa + p->b0 + 4);
    uint32_t smax = p->S < 4096 ? p->S : 4096;
    for (uint32_t amin = 0; amin <= p->t + 2; amin++)
        for (uint32_t s = 0; s < smax; s++) /* states in BFS order: short contexts first */
            for (int32_t e = -(int32_t)amin; e <= emax; e++)
                if (witness_ok(p, s, e, amin)) {
                    p->have_witness = true;
                    p->we = e;
                    p->wa = amin;
                    p->wstate = s;
                    p->nw = p->woff[s + 1] - p->woff[s];
                    p->wheaps = xmalloc((p->nw + 1) * sizeof *p->wheaps);
                    memcpy(p->wheaps, p->word + p->woff[s], p->nw * sizeof *p->wheaps);
                    return;
                }
}

/* ---- one attempt: partner G on the failing trial T with k copies ---- */

static uint32_t tact(const MqPret *T, uint32_t h, uint32_t x)
{
    return T->hl[h] < 0 ? x : T->act[T->hl[h]][x];
}

typedef struct Window {
    uint32_t S, A, W;
    uint8_t *o; /* o[(s * A + a) * W + b] */
} Window;

#define WAT(w, s, a, b) ((w)->o[((size_t)(s) * (w)->A + (a)) * (w)->W + (b)])

/* Fit t, then (pb, b0), then (pa, a0) on the window; false with a reason. */
static bool fit(const Window *w, MqInfProof *p, char *why, size_t wl)
{
    uint32_t A = w->A, W = w->W, S = w->S;
    bool found = false;
    uint32_t t;
    for (t = 0; t + 3 <= A && !found; t++) {
        found = true;
        for (uint32_t s = 0; s < S && found; s++)
            for (uint32_t a = t; a + 1 < A && found; a++)
                for (uint32_t b = t; b + 1 < W && found; b++)
                    found = WAT(w, s, a, b) == WAT(w, s, a + 1, b + 1);
        if (found)
            break;
    }
    if (!found) {
        snprintf(why, wl, "no diagonal invariance on the window (a < %u)", A);
        return false;
    }
    p->t = t;
    found = false;
    uint32_t pb = 0, b0 = 0;
    for (pb = 1; pb <= W / 4 && !found; pb++) {
        for (b0 = 0; b0 + 2 * pb + 1 < W && !found; b0++) {
            found = true;
            for (uint32_t s = 0; s < S && found; s++)
                for (uint32_t a = 0; a <= t + 1 && a < A && found; a++)
                    for (uint32_t b = b0; b + pb < W && found; b++)
                        found = WAT(w, s, a, b) == WAT(w, s, a, b + pb);
            if (found)
                break;
        }
        if (found)
            break;
    }
    if (!found) {
        snprintf(why, wl, "t=%u, no period in b on the strips a <= t+1", t);
        return false;
    }
    p->pb = pb;
    p->b0 = b0 < t ? t : b0;
    found = false;
    uint32_t pa = 0, a0 = 0;
    for (pa = 1; t + 1 + 2 * pa + 1 < A && !found; pa++) {
        for (a0 = t + 1; a0 + 2 * pa + 1 < A && !found; a0++) {
            found = true;
            for (uint32_t s = 0; s < S && found; s++)
                for (uint32_t b = 0; b <= t + 1 && found; b++)
                    for (uint32_t a = a0; a + pa < A && found; a++)
                        found = WAT(w, s, a, b) == WAT(w, s, a + pa, b);
            if (found)
                break;
        }
        if (found)
            break;
    }
    if (!found) {
        snprintf(why, wl, "t=%u, b-period %u from %u, no period in a on the strips b <= t+1 "
                 "(rows a < %u)", t, p->pb, p->b0, A);
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

static MqInfProof *attempt(MqInf *d, const MqPret *T, uint32_t G, uint32_t k, char *why,
                           size_t wl)
{
    uint32_t H = d->n, N = d->n;
    /* states: elements reached from 0 by heaps other than H and G (BFS, so
     * state numbers follow the length of their shortest heap words) */
    uint32_t *ridx = xmalloc(T->n * sizeof *ridx), *rl = xmalloc(T->n * sizeof *rl);
    uint32_t *pst = xmalloc(T->n * sizeof *pst), *ph = xmalloc(T->n * sizeof *ph);
    for (uint32_t x = 0; x < T->n; x++)
        ridx[x] = UINT32_MAX;
    uint32_t S = 0;
    ridx[0] = 0;
    rl[S++] = 0;
    for (uint32_t i = 0; i < S; i++)
        for (uint32_t h = 1; h <= N; h++)
            if (h != H && h != G && T->hl[h] >= 0) {
                uint32_t y = tact(T, h, rl[i]);
                if (ridx[y] == UINT32_MAX) {
                    ridx[y] = S;
                    pst[S] = i;
                    ph[S] = h;
                    rl[S++] = y;
                }
            }
    MqInfProof *p = NULL;
    Window w = {S, k, WIN_B, NULL};
    if (S > MAX_STATES || (uint64_t)S * k * WIN_B > (256u << 20)) {
        snprintf(why, wl, "%u states: window too large", S);
        goto out;
    }
    w.o = xmalloc((size_t)S * k * WIN_B);
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
    }
    p = xcalloc(1, sizeof *p);
    p->N = N;
    p->H = H;
    p->G = G;
    p->S = S;
    p->found_copies = k;
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
        if (h == H || h == G || h == 0)
            continue;
        p->act[h] = xmalloc((size_t)S * sizeof *p->act[h]);
        for (uint32_t s = 0; s < S; s++)
            p->act[h][s] = ridx[tact(T, h, rl[s])];
    }
    p->lab = xmalloc((size_t)S * (p->TA + 1) * (p->TB + 1));
    bool agree = true;
    for (uint32_t s = 0; s < S; s++) {
        for (uint32_t a = 0; a <= p->TA; a++)
            for (uint32_t b = 0; b <= p->TB; b++)
                p->lab[((size_t)s * (p->TA + 1) + a) * (p->TB + 1) + b] = WAT(&w, s, a, b);
        for (uint32_t a = 0; a < k && agree; a++)
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
    free(w.o);
    free(ridx);
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
        d->loglen = 0;
        d->log[0] = '\0';
    }
    if (d->res || d->failed || T->nh <= d->n || d->n == 0)
        return;
    uint32_t k = F[d->n];
    if (k > d->max_k)
        d->max_k = k;
    if (k <= d->last_k || k < MIN_COPIES)
        return;
    d->last_k = k;
    if (!load_opts(d))
        return;
    /* partners: heaps of the failure first (most copies first), then every
     * other heap with options, largest first */
    uint32_t *cand = xmalloc(2 * (size_t)d->n * sizeof *cand), nc = 0;
    for (uint32_t h = 1; h < d->n; h++)
        if (T->hl[h] >= 0) {
            cand[2 * nc] = F[h];
            cand[2 * nc + 1] = h;
            nc++;
        }
    qsort(cand, nc, 2 * sizeof *cand, cmp_cand);
    size_t len0 = d->loglen;
    for (uint32_t i = 0; i < nc && !d->res && cgt_poll() == CGT_OK; i++) {
        uint32_t G = cand[2 * i + 1];
        char why[300];
        why[0] = '\0';
        MqInfProof *p = attempt(d, T, G, k, why, sizeof why);
        if (!p) {
            if (cand[2 * i] > 0)
                logf_(d, "copies %u, partner %u: %s", k, G, why);
            continue;
        }
        /* region (rule 5) */
        p->ua = p->ub = 0;
        for (uint32_t h = 1; h <= d->n; h++)
            for (size_t j = 0; j < p->opts[h].count; j++) {
                uint32_t ch = 0, cg = 0;
                for (size_t q = p->opts[h].start[j]; q < p->opts[h].start[j + 1]; q++) {
                    ch += p->opts[h].parts[q] == p->H;
                    cg += p->opts[h].parts[q] == p->G;
                }
                if (ch > p->ua)
                    p->ua = ch;
                if (cg > p->ub)
                    p->ub = cg;
            }
        p->A1 = p->a0 + p->pa + p->ub + 2;
        if (p->A1 < p->t + 1)
            p->A1 = p->t + 1;
        p->B1 = p->b0 + p->pb + p->ua + 2;
        if (p->B1 < p->t + 1)
            p->B1 = p->t + 1;
        bool ok = false;
        const char *reason = "";
        CgtError e2;
        cgt_error_clear(&e2);
        CgtStatus st = mqinf_certify(p, d->max_pairs, &ok, &reason, &e2);
        if (st != CGT_OK) {
            logf_(d, "copies %u, partner %u: t=%u b0=%u pb=%u a0=%u pa=%u, %u states: "
                  "certificate stopped: %s", k, G, p->t, p->b0, p->pb, p->a0, p->pa, p->S,
                  e2.msg);
            mqinf_proof_free(p);
            if (st != CGT_ERR_LIMIT) {
                d->failed = true;
                d->err = e2;
            }
            continue;
        }
        if (!ok) {
            logf_(d, "copies %u, partner %u: t=%u b0=%u pb=%u a0=%u pa=%u, %u states, "
                  "%llu pairs: certificate fails (%s)", k, G, p->t, p->b0, p->pb, p->a0, p->pa,
                  p->S, (unsigned long long)p->pairs, reason);
            mqinf_proof_free(p);
            continue;
        }
        mqinf_find_witness(p);
        if (!p->have_witness) {
            logf_(d, "copies %u, partner %u: labels proved (%u states, %llu pairs) but no "
                  "context separates the powers of heap %u", k, G, p->S,
                  (unsigned long long)p->pairs, d->n);
            mqinf_proof_free(p);
            continue;
        }
        logf_(d, "copies %u, partner %u: proved (%u states, %llu pairs, %llu row checks)", k,
              G, p->S, (unsigned long long)p->pairs, (unsigned long long)p->checks);
        d->res = p;
        mq_request_stop(d->eng);
    }
    if (!d->res && d->loglen == len0)
        logf_(d, "copies %u: %u partner heaps tried, none fits the window", k, nc);
    free(cand);
}
