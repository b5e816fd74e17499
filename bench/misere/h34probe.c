/* Research probe for heap 34 of 0.07 (docs/misere.md, "Heap 34"): runs the
 * engine on heap 34 and, whenever the least failure of the expansion gets
 * more copies of heap 34 (k), uses the failing trial as an outcome oracle
 * for every position with at most k-1 heaps of size 34 (all of them are
 * smaller than the failure in the word order, so the trial labels them
 * correctly; this trusts the engine's exhaustive least-failure search).
 * It tabulates the outcome of X + 34^a + 30^b for X the least position of
 * every element of Q(33), a < k, b <= B, and reports
 *   - the rows a = 0..k-1 for chosen X (P = '*', N = '.'),
 *   - whether the powers 34^a, a < k, are pairwise separated by contexts
 *     X + 30^b (heaps <= 33 only), and the least such context per pair,
 *   - whether outcome(X + 34^a + 30^b) depends only on (X, a - b) once
 *     a, b >= t, for the least such t.
 * With CERT-K > 0 it checks the semilinear certificate at k >= CERT-K and stops.
 * Usage: h34probe CPU-SECONDS [B [CERT-K [show-X-heaps ...]]]   (0.07 fixed) */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "algebra/misere.h"
#include "algebra/mqint.h"
#include "bench/misere/benchoct.h"
#include "util/poll.h"

#define TOP 34
#define PAIR 30

typedef struct Probe {
    uint32_t nx;     /* elements of Q(33) */
    uint32_t *least; /* nx * TOP exponent vectors */
    const Quotient *q33; /* certified Q(33), for the cross-check at a = 0 */
    uint32_t B;
    uint32_t last_k;
    uint32_t cert_k; /* run the semilinear certificate at this k (0 = never) */
    int nshow;
    uint32_t show[16]; /* heaps whose single-heap position is shown */
    clock_t c0;
} Probe;

static uint32_t act(const MqPret *T, uint32_t h, uint32_t x)
{
    return T->hl[h] < 0 ? x : T->act[T->hl[h]][x];
}

static bool semi_certify(const MqPret *T, uint32_t k, uint32_t Bw, const Probe *pr);

static void probe_hook(void *ctx, const MqPret *T, const uint32_t *F, bool pfail)
{
    Probe *pr = ctx;
    uint32_t k = F[TOP];
    if (k <= pr->last_k)
        return;
    pr->last_k = k;
    uint32_t A = k, B = pr->B, nx = pr->nx;
    /* o[(x * A + a) * (B+1) + b] */
    uint8_t *o = malloc((size_t)nx * A * (B + 1));
    for (uint32_t x = 0; x < nx; x++) {
        uint32_t e = 0;
        for (uint32_t h = 0; h < TOP; h++)
            for (uint32_t c = 0; c < pr->least[(size_t)x * TOP + h]; c++)
                e = act(T, h, e);
        for (uint32_t a = 0; a < A; a++) {
            uint32_t y = e;
            for (uint32_t b = 0; b <= B; b++) {
                o[((size_t)x * A + a) * (B + 1) + b] = mq_bit(T->p, y);
                y = act(T, PAIR, y);
            }
            e = act(T, TOP, e);
        }
    }
    printf("\n=== least failure %s-failure with %u copies of heap %u; trial |Q|=%u; cpu %.1f s\n",
           pfail ? "P" : "N", k, TOP, T->n, (double)(clock() - pr->c0) / CLOCKS_PER_SEC);
    printf("failure:");
    for (uint32_t h = T->nh; h-- > 1;)
        if (F[h])
            printf(" %u^%u", h, F[h]);
    printf("\n");
    /* separation of the powers 34^a by contexts X + 30^b */
    uint32_t sep_pairs = 0, pairs = 0, worst_b = 0;
    for (uint32_t a = 0; a < A; a++)
        for (uint32_t a2 = a + 1; a2 < A; a2++) {
            pairs++;
            bool found = false;
            for (uint32_t b = 0; b <= B && !found; b++)
                for (uint32_t x = 0; x < nx && !found; x++)
                    if (o[((size_t)x * A + a) * (B + 1) + b] !=
                        o[((size_t)x * A + a2) * (B + 1) + b]) {
                        found = true;
                        if (b > worst_b)
                            worst_b = b;
                    }
            sep_pairs += found;
        }
    printf("powers 34^a, a < %u: %u of %u pairs separated by some X + 30^b (b <= %u; "
           "largest least b needed %u)\n", A, sep_pairs, pairs, B, worst_b);
    /* dependence on a - b only, for a, b >= t */
    for (uint32_t t = 0; t < A; t++) {
        bool ok = true;
        for (uint32_t x = 0; x < nx && ok; x++)
            for (uint32_t a = t; a + 1 < A && ok; a++)
                for (uint32_t b = t; b + 1 <= B && ok; b++)
                    if (o[((size_t)x * A + a) * (B + 1) + b] !=
                        o[((size_t)x * A + a + 1) * (B + 1) + b + 1])
                        ok = false;
        if (ok) {
            printf("outcome(X + 34^a + 30^b) = f(X, a-b) for all X in Q(33), %u <= a < %u, "
                   "%u <= b <= %u\n", t, A, t, B);
            break;
        }
        if (t + 1 == A)
            printf("outcome(X + 34^a + 30^b) is not a function of (X, a-b) on any tail\n");
    }
    for (int s = 0; s < pr->nshow; s++) {
        uint32_t x = UINT32_MAX;
        for (uint32_t y = 0; y < nx && x == UINT32_MAX; y++) {
            bool single = true;
            for (uint32_t h = 0; h < TOP; h++)
                if (pr->least[(size_t)y * TOP + h] != (h == pr->show[s]))
                    single = false;
            if (single)
                x = y;
        }
        if (x == UINT32_MAX) {
            printf("X = heap %u is not the least position of its element\n", pr->show[s]);
            continue;
        }
        printf("X = heap %u: rows a = 0..%u, columns b = 0..%u (* = P)\n", pr->show[s], A - 1, B);
        for (uint32_t a = 0; a < A; a++) {
            printf("%3u ", a);
            for (uint32_t b = 0; b <= B; b++)
                putchar(o[((size_t)x * A + a) * (B + 1) + b] ? '*' : '.');
            putchar('\n');
        }
    }
    fflush(stdout);
    free(o);
    if (pr->cert_k && k >= pr->cert_k) {
        semi_certify(T, k, 2 * B > 62 ? 2 * B : 62, pr);
        fflush(stdout);
        cgt_interrupt_flag = 1;
    }
}


/* ---- semilinear certificate (docs/misere.md, "Heap 34: a proof") ----
 * Positions are X + 34^a + 30^b with X free of heaps 30 and 34.  R = the
 * elements of the trial T reached by such X (psi(X)); the claimed label
 * L(r, a, b) is T's label of r * 30^b * 34^a read at red(a, b), where red
 * moves (a, b) along the diagonal while both exceed t, then reduces b
 * modulo pb above b0 (a <= t) or a modulo pa above a0 (b <= t).  The
 * check: for every pair (psi(X), options of X) reachable by adding heaps,
 * and every (a, b) in the box [0, A1] x [0, B1], the label is P exactly
 * when the position has a move and no option is labelled P.  Options of X
 * may contain one heap 30 (32 -> 30, 33 -> 30 + 1), so an option is stored
 * as (r', c) with c extra heaps of size 30.  Outside the box every check
 * repeats one inside it (the argument is in docs/misere.md), so by
 * induction on positions L is the true misère outcome of every position
 * with heaps <= 34.  Shares no code with the engine's searches. */

typedef struct Opt {
    uint32_t n;          /* parts */
    uint32_t part[2];
} Opt;

/* Options of heap h in 0.07, written out directly (take two tokens, leave
 * zero, one or two heaps). */
static uint32_t dk_opts(uint32_t h, Opt *o)
{
    uint32_t k = 0;
    if (h == 2)
        o[k++] = (Opt){0, {0, 0}};
    if (h >= 3) {
        o[k++] = (Opt){1, {h - 2, 0}};
        for (uint32_t i = 1; 2 * i <= h - 2; i++)
            o[k++] = (Opt){2, {i, h - 2 - i}};
    }
    return k;
}

typedef struct Semi {
    uint32_t t, b0, pb, a0, pa;
} Semi;

static void red(const Semi *m, uint32_t *a, uint32_t *b)
{
    if (*a > m->t && *b > m->t) {
        uint32_t s = (*a < *b ? *a : *b) - m->t;
        *a -= s;
        *b -= s;
    }
    if (*a <= m->t) {
        if (*b >= m->b0 + m->pb)
            *b = m->b0 + (*b - m->b0) % m->pb;
    } else if (*a >= m->a0 + m->pa) {
        *a = m->a0 + (*a - m->a0) % m->pa;
    }
}

typedef struct PairKey {
    uint32_t r, len;
    uint32_t *el; /* (r' << 1 | c), sorted, unique */
} PairKey;

static uint64_t hash_pair(uint32_t r, const uint32_t *el, uint32_t len)
{
    uint64_t h = r * 0x9e3779b97f4a7c15ULL;
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ el[i]) * 0x100000001b3ULL;
    return h ^ (h >> 31);
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}


/* ---- brute force (independent of the quotient): misère outcome of a
 * position given as counts of heaps 2..34 (heaps 0 and 1 have no moves),
 * memoised in an open-addressing table keyed by the counts. */
#define NB 35
typedef struct Brute {
    uint8_t *key; /* cap * NB */
    int8_t *val;  /* -1 empty, 0 N, 1 P */
    size_t cap, used;
} Brute;

static uint64_t hash_counts(const uint8_t *c)
{
    uint64_t h = 0x12345;
    for (int i = 0; i < NB; i++)
        h = (h ^ c[i]) * 0x100000001b3ULL;
    return h ^ (h >> 29);
}

static int brute_p(Brute *bf, uint8_t *c)
{
    size_t i = hash_counts(c) & (bf->cap - 1);
    while (bf->val[i] >= 0) {
        if (memcmp(bf->key + i * NB, c, NB) == 0)
            return bf->val[i];
        i = (i + 1) & (bf->cap - 1);
    }
    bool has_move = false, p = true;
    Opt o[40];
    for (uint32_t h = 2; h < NB && p; h++) {
        if (!c[h])
            continue;
        uint32_t no = dk_opts(h, o);
        for (uint32_t j = 0; j < no && p; j++) {
            has_move = true;
            c[h]--;
            for (uint32_t q = 0; q < o[j].n; q++)
                c[o[j].part[q]]++;
            if (brute_p(bf, c))
                p = false;
            for (uint32_t q = 0; q < o[j].n; q++)
                c[o[j].part[q]]--;
            c[h]++;
        }
    }
    int v = has_move && p;
    if (bf->used * 2 >= bf->cap)
        return v; /* table full: no memo (still correct) */
    i = hash_counts(c) & (bf->cap - 1);
    while (bf->val[i] >= 0)
        i = (i + 1) & (bf->cap - 1);
    memcpy(bf->key + i * NB, c, NB);
    bf->val[i] = (int8_t)v;
    bf->used++;
    return v;
}

typedef struct BruteRun {
    Brute bf;
    const MqPret *T;
    const Semi *m;
    const uint32_t *ridx;
    const uint8_t *L0;
    uint32_t A, W;
    uint64_t tested, wrong;
} BruteRun;

static void brute_enum(BruteRun *br, uint8_t *c, uint32_t maxpart, uint32_t left)
{
    if (c[TOP]) {
        uint32_t r = 0;
        for (uint32_t h = 2; h < TOP; h++)
            if (h != PAIR)
                for (uint32_t q = 0; q < c[h]; q++)
                    r = act(br->T, h, r);
        uint32_t a = c[TOP], b = c[PAIR];
        red(br->m, &a, &b);
        int lab = br->L0[((size_t)br->ridx[r] * br->A + a) * br->W + b];
        br->tested++;
        if (lab != brute_p(&br->bf, c))
            br->wrong++;
    }
    for (uint32_t h = maxpart; h >= 2; h--)
        if (h <= left) {
            c[h]++;
            brute_enum(br, c, h, left - h);
            c[h]--;
        }
}

/* Mv[i][a] = bits b where a move in a heap 34 or 30 of r_i + 34^a + 30^b
 * reaches a position labelled P by Lw.  False if an option leaves R. */
static bool moves_34_30(const MqPret *T, const uint32_t *rl, const uint32_t *ridx, uint32_t nr,
                        uint32_t A1, uint64_t mask, const uint64_t *Lw, uint64_t *Mv)
{
    Opt o34[40], o30[40];
    uint32_t n34 = dk_opts(TOP, o34), n30 = dk_opts(PAIR, o30);
    for (uint32_t i = 0; i < nr; i++)
        for (uint32_t a = 0; a <= A1; a++) {
            uint64_t w = 0;
            for (uint32_t j = 0; j < n30; j++) {
                uint32_t y = rl[i];
                for (uint32_t q = 0; q < o30[j].n; q++)
                    y = act(T, o30[j].part[q], y);
                w |= Lw[(size_t)ridx[y] * (A1 + 1) + a] << 1;
            }
            for (uint32_t j = 0; j < n34 && a >= 1; j++) {
                uint32_t y = rl[i], c = 0;
                for (uint32_t q = 0; q < o34[j].n; q++) {
                    if (o34[j].part[q] == PAIR)
                        c++;
                    else
                        y = act(T, o34[j].part[q], y);
                }
                if (ridx[y] == UINT32_MAX)
                    return false;
                w |= Lw[(size_t)ridx[y] * (A1 + 1) + a - 1] >> c;
            }
            Mv[(size_t)i * (A1 + 1) + a] = w & mask;
        }
    return true;
}

/* Rows (pair, a) whose labels Lw break "P iff a move exists and no option
 * is P" (Mv from moves_34_30 for the same Lw). */
static uint64_t bad_rows(const PairKey *pk, size_t np, uint32_t A1, uint64_t mask,
                         const uint64_t *Lw, const uint64_t *Mv)
{
    uint64_t bad = 0;
    for (size_t pi = 0; pi < np; pi++)
        for (uint32_t a = 0; a <= A1; a++) {
            uint64_t win = Mv[(size_t)pk[pi].r * (A1 + 1) + a];
            for (uint32_t q = 0; q < pk[pi].len; q++)
                win |= Lw[(size_t)(pk[pi].el[q] >> 1) * (A1 + 1) + a] >> (pk[pi].el[q] & 1);
            uint64_t want = ~win & mask;
            if (pk[pi].len == 0 && a == 0)
                want &= ~1ULL; /* no move at all: N in misère play */
            bad += (Lw[(size_t)pk[pi].r * (A1 + 1) + a] & mask) != want;
        }
    return bad;
}

/* Returns true when the certificate holds; prints what it checked. */
static bool semi_certify(const MqPret *T, uint32_t k, uint32_t Bw, const Probe *pr)
{
    uint32_t n = T->n;
    /* psi(X) is well defined only if the heap actions commute */
    for (uint32_t h1 = 1; h1 <= TOP; h1++)
        for (uint32_t h2 = h1 + 1; h2 <= TOP; h2++)
            for (uint32_t x = 0; x < n; x++)
                if (act(T, h1, act(T, h2, x)) != act(T, h2, act(T, h1, x))) {
                    printf("semilinear: heap actions %u and %u do not commute\n", h1, h2);
                    return false;
                }
    /* R by BFS over heaps <= 33 other than 30 */
    uint32_t *ridx = malloc(n * sizeof *ridx), *rl = malloc(n * sizeof *rl), nr = 0;
    for (uint32_t x = 0; x < n; x++)
        ridx[x] = UINT32_MAX;
    ridx[0] = 0;
    rl[nr++] = 0;
    for (uint32_t i = 0; i < nr; i++)
        for (uint32_t h = 1; h < TOP; h++)
            if (h != PAIR) {
                uint32_t y = act(T, h, rl[i]);
                if (ridx[y] == UINT32_MAX) {
                    ridx[y] = nr;
                    rl[nr++] = y;
                }
            }
    /* window labels L0[r][a][b], a < k, b <= Bw */
    uint32_t A = k, W = Bw + 1;
    uint8_t *L0 = malloc((size_t)nr * A * W);
    for (uint32_t i = 0; i < nr; i++) {
        uint32_t e = rl[i];
        for (uint32_t a = 0; a < A; a++) {
            uint32_t y = e;
            for (uint32_t b = 0; b < W; b++) {
                L0[((size_t)i * A + a) * W + b] = mq_bit(T->p, y);
                y = act(T, PAIR, y);
            }
            e = act(T, TOP, e);
        }
    }
#define L0AT(i, a, b) L0[((size_t)(i) * A + (a)) * W + (b)]
    Semi m = {0, 0, 0, 0, 0};
    bool found = false;
    for (m.t = 0; m.t + 2 < A && !found; m.t++) {
        found = true;
        for (uint32_t i = 0; i < nr && found; i++)
            for (uint32_t a = m.t; a + 1 < A && found; a++)
                for (uint32_t b = m.t; b + 1 < W && found; b++)
                    found = L0AT(i, a, b) == L0AT(i, a + 1, b + 1);
    }
    if (!found) {
        printf("semilinear: no diagonal invariance in the window\n");
        return false;
    }
    m.t--;
    /* b-periodicity on a <= t+1 */
    found = false;
    for (m.pb = 1; m.pb < W / 3 && !found; m.pb++)
        for (m.b0 = 0; m.b0 + m.pb < W / 2 && !found; m.b0++) {
            found = true;
            for (uint32_t i = 0; i < nr && found; i++)
                for (uint32_t a = 0; a <= m.t + 1 && a < A && found; a++)
                    for (uint32_t b = m.b0; b + m.pb < W && found; b++)
                        found = L0AT(i, a, b) == L0AT(i, a, b + m.pb);
        }
    if (!found) {
        printf("semilinear: t=%u, no period in b on the strips a <= t+1\n", m.t);
        return false;
    }
    m.pb--;
    m.b0--;
    if (m.b0 < m.t)
        m.b0 = m.t; /* the box argument needs b0 >= t */
    found = false;
    for (m.pa = 1; m.pa < A && !found; m.pa++)
        for (m.a0 = m.t + 1; m.a0 + m.pa < A && !found; m.a0++) {
            found = true;
            for (uint32_t i = 0; i < nr && found; i++)
                for (uint32_t b = 0; b <= m.t + 2 && found; b++)
                    for (uint32_t a = m.a0; a + m.pa < A && found; a++)
                        found = L0AT(i, a, b) == L0AT(i, a + m.pa, b);
        }
    if (!found) {
        printf("semilinear: t=%u b0=%u pb=%u, no period in a on the strips b <= t+2\n", m.t,
               m.b0, m.pb);
        return false;
    }
    m.pa--;
    m.a0--;
    uint32_t A1 = m.a0 + m.pa + 2, B1 = m.b0 + m.pb + 1;
    if (A1 < m.t + 2)
        A1 = m.t + 2;
    if (B1 < m.t + 2)
        B1 = m.t + 2;
    printf("semilinear description: |R|=%u, t=%u, b-period %u from %u, a-period %u from %u; "
           "box a <= %u, b <= %u (window a < %u, b <= %u)\n", nr, m.t, m.pb, m.b0, m.pa, m.a0,
           A1, B1, A, Bw);
    if (A1 + 1 >= A || B1 + 2 >= W || B1 + 2 > 63) {
        printf("semilinear: box does not fit the window\n");
        return false;
    }
    /* rows: Lw[i * (A1+1) + a] = bits b = 0..B1+1 of L(r_i, a, b) */
    uint64_t *Lw = calloc((size_t)nr * (A1 + 1), sizeof *Lw);
    bool agree = true;
    for (uint32_t i = 0; i < nr; i++)
        for (uint32_t a = 0; a <= A1; a++)
            for (uint32_t b = 0; b <= B1 + 1; b++) {
                uint32_t ra = a, rb = b;
                red(&m, &ra, &rb);
                if (L0AT(i, ra, rb))
                    Lw[(size_t)i * (A1 + 1) + a] |= 1ULL << b;
                if (L0AT(i, ra, rb) != L0AT(i, a, b))
                    agree = false;
            }
    printf("reduced labels agree with the trial on the box: %s\n", agree ? "yes" : "NO");
    uint64_t mask = (B1 + 1 == 64) ? ~0ULL : ((1ULL << (B1 + 1)) - 1);
    uint64_t *Mv = calloc((size_t)nr * (A1 + 1), sizeof *Mv);
    if (!moves_34_30(T, rl, ridx, nr, A1, mask, Lw, Mv)) {
        printf("semilinear: option of 34 leaves R\n");
        return false;
    }
    /* closure of pairs (r, options of X) */
    size_t cap = 1 << 20, np = 0, hcap = 1 << 22, pool_len = 0, pool_cap = 1 << 24;
    PairKey *pk = malloc(cap * sizeof *pk);
    uint32_t *tab = malloc(hcap * sizeof *tab);
    memset(tab, 0xff, hcap * sizeof *tab);
    uint32_t *pool = malloc(pool_cap * sizeof *pool);
    uint32_t *scratch = malloc(4096 * sizeof *scratch);
    (void)pool_len;
    pk[np++] = (PairKey){0, 0, NULL};
    tab[hash_pair(0, NULL, 0) & (hcap - 1)] = 0;
    bool ok = true;
    uint64_t checks = 0;
    for (size_t pi = 0; pi < np && ok; pi++) {
        PairKey cur = pk[pi];
        uint32_t ri = cur.r;
        /* check this pair */
        for (uint32_t a = 0; a <= A1 && ok; a++) {
            uint64_t win = Mv[(size_t)ri * (A1 + 1) + a];
            for (uint32_t q = 0; q < cur.len; q++)
                win |= Lw[(size_t)(cur.el[q] >> 1) * (A1 + 1) + a] >> (cur.el[q] & 1);
            uint64_t want = ~win & mask;
            if (cur.len == 0 && a == 0)
                want &= ~1ULL; /* no move at all: N in misère play */
            checks++;
            if ((Lw[(size_t)ri * (A1 + 1) + a] & mask) != want) {
                printf("semilinear: label inconsistent at pair %zu, a=%u (bits %llx vs %llx)\n",
                       pi, a, (unsigned long long)(Lw[(size_t)ri * (A1 + 1) + a] & mask),
                       (unsigned long long)want);
                ok = false;
            }
        }
        /* successors: add heap h (not 30, not 34) */
        for (uint32_t h = 1; h < TOP && ok; h++) {
            if (h == PAIR)
                continue;
            uint32_t len = 0, y = act(T, h, rl[ri]);
            for (uint32_t q = 0; q < cur.len; q++)
                scratch[len++] = (ridx[act(T, h, rl[cur.el[q] >> 1])] << 1) | (cur.el[q] & 1);
            Opt oh[40];
            uint32_t no = dk_opts(h, oh);
            for (uint32_t j = 0; j < no; j++) {
                uint32_t z = rl[ri], c = 0;
                for (uint32_t q = 0; q < oh[j].n; q++) {
                    if (oh[j].part[q] == PAIR)
                        c++;
                    else
                        z = act(T, oh[j].part[q], z);
                }
                scratch[len++] = (ridx[z] << 1) | c;
            }
            qsort(scratch, len, sizeof *scratch, cmp_u32);
            uint32_t u = 0;
            for (uint32_t q = 0; q < len; q++)
                if (u == 0 || scratch[q] != scratch[u - 1])
                    scratch[u++] = scratch[q];
            uint32_t nri = ridx[y];
            uint64_t hv = hash_pair(nri, scratch, u);
            size_t slot = hv & (hcap - 1);
            bool dup = false;
            while (tab[slot] != UINT32_MAX) {
                PairKey *o2 = &pk[tab[slot]];
                if (o2->r == nri && o2->len == u &&
                    (u == 0 || memcmp(o2->el, scratch, u * 4) == 0)) {
                    dup = true;
                    break;
                }
                slot = (slot + 1) & (hcap - 1);
            }
            if (dup)
                continue;
            if (np + 1 >= cap || np * 2 >= hcap || pool_len + u > pool_cap) {
                printf("semilinear: pair closure exceeds the tool's fixed tables (%zu pairs)\n",
                       np);
                ok = false;
                break;
            }
            memcpy(pool + pool_len, scratch, u * 4);
            pk[np] = (PairKey){nri, u, pool + pool_len};
            pool_len += u;
            tab[slot] = (uint32_t)np++;
        }
    }
    printf("certificate: %zu pairs, %llu row checks: %s\n", np, (unsigned long long)checks,
           ok ? "ALL CONSISTENT" : "FAILED");
    if (ok) {
        /* the checker must notice a single wrong label: flip a few */
        uint32_t caught = 0, tries = 0;
        for (uint32_t f = 0; f < 8; f++) {
            uint32_t i = (uint32_t)((f * 2654435761u) % nr), a = f % (A1 + 1), b = f % (B1 + 1);
            Lw[(size_t)i * (A1 + 1) + a] ^= 1ULL << b;
            moves_34_30(T, rl, ridx, nr, A1, mask, Lw, Mv);
            caught += bad_rows(pk, np, A1, mask, Lw, Mv) > 0;
            tries++;
            Lw[(size_t)i * (A1 + 1) + a] ^= 1ULL << b;
        }
        moves_34_30(T, rl, ridx, nr, A1, mask, Lw, Mv);
        printf("mutation test: %u of %u single flipped labels detected; unflipped: %llu bad rows\n",
               caught, tries, (unsigned long long)bad_rows(pk, np, A1, mask, Lw, Mv));
        /* the separating family: 25 + 30^a separates 34^a from 34^a' (a < a') */
        uint32_t i25 = ridx[act(T, 25, 0)];
        uint32_t bad = 0;
        for (uint32_t a = 2; a <= 2000 && !bad; a++)
            for (uint32_t a2 = a + 1; a2 <= a + 60; a2++) {
                uint32_t x1 = a, y1 = a, x2 = a2, y2 = a;
                red(&m, &x1, &y1);
                red(&m, &x2, &y2);
                if (L0AT(i25, x1, y1) == L0AT(i25, x2, y2))
                    bad++;
            }
        printf("25 + 30^a separates 34^a from 34^a' for all 2 <= a <= 2000, a < a' <= a+60: %s\n",
               bad ? "no" : "yes");
        BruteRun br = {{NULL, NULL, 1 << 23, 0}, T, &m, ridx, L0, A, W, 0, 0};
        br.bf.key = malloc(br.bf.cap * NB);
        br.bf.val = malloc(br.bf.cap);
        memset(br.bf.val, 0xff, br.bf.cap);
        uint8_t c[NB] = {0};
        uint32_t S = 66;
        brute_enum(&br, c, TOP, S);
        printf("brute force: %llu positions with heaps <= 34, at least one 34, total <= %u: "
               "%llu disagree with L\n", (unsigned long long)br.tested, S,
               (unsigned long long)br.wrong);
        free(br.bf.key);
        free(br.bf.val);
        /* a = 0: X + 30^b has heaps <= 33, so the certified Q(33) knows its
         * outcome; compare on the least position of every element plus up
         * to 40 more heaps of size 30 */
        uint64_t q_tested = 0, q_wrong = 0;
        uint32_t heaps[600];
        for (uint32_t x = 0; x < pr->nx; x++) {
            const uint32_t *Y = pr->least + (size_t)x * TOP;
            uint32_t r = 0, len = 0;
            for (uint32_t h = 1; h < TOP; h++)
                for (uint32_t c = 0; c < Y[h] && len < 500; c++) {
                    heaps[len++] = h;
                    if (h != PAIR)
                        r = act(T, h, r);
                }
            for (uint32_t j = 0; j <= 40; j++) {
                bool isp;
                CgtError qe;
                if (quotient_outcome(pr->q33, heaps, len, &isp, &qe) != CGT_OK)
                    break;
                uint32_t a = 0, b = Y[PAIR] + j;
                red(&m, &a, &b);
                q_tested++;
                q_wrong += L0AT(ridx[r], a, b) != isp;
                heaps[len++] = PAIR;
            }
        }
        printf("certified Q(33): %llu positions X + 30^b (no heap 34): %llu disagree with L\n",
               (unsigned long long)q_tested, (unsigned long long)q_wrong);
        printf("L(25, a, b) on the box (rows a, columns b, * = P):\n");
        for (uint32_t a = 0; a <= A1; a++) {
            printf("%3u ", a);
            for (uint32_t b = 0; b <= B1; b++)
                putchar((Lw[(size_t)i25 * (A1 + 1) + a] >> b) & 1 ? '*' : '.');
            putchar('\n');
        }
    }
    free(pool);
    free(scratch);
    free(tab);
    free(pk);
    free(Mv);
    free(Lw);
    free(L0);
    free(ridx);
    free(rl);
#undef L0AT
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: h34probe CPU-SECONDS [B [CERT-K [heap ...]]]\n");
        return 2;
    }
    double secs = atof(argv[1]);
    Probe pr;
    memset(&pr, 0, sizeof pr);
    pr.B = argc > 2 ? (uint32_t)atoi(argv[2]) : 60;
    pr.cert_k = argc > 3 ? (uint32_t)atoi(argv[3]) : 0;
    for (int i = 4; i < argc && pr.nshow < 16; i++)
        pr.show[pr.nshow++] = (uint32_t)atoi(argv[i]);
    BenchOct o;
    HeapGame g;
    bench_oct_parse("0.07", &o, &g);
    CgtError err;
    MqEngine *e = mq_new(&g, NULL);
    if (mq_extend_to(e, TOP - 1, &err) != CGT_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    Quotient *q = mq_quotient(e, NULL, 0, &err);
    pr.nx = quotient_size(q);
    pr.least = calloc((size_t)pr.nx * TOP, sizeof *pr.least);
    for (uint32_t x = 0; x < pr.nx; x++)
        quotient_least_game(q, x, pr.least + (size_t)x * TOP);
    MqCertInfo ci;
    bool cert_ok = mq_certify(q, &g, 0, &ci, &err) == CGT_OK && ci.labelling_ok &&
                   ci.reduced_ok && ci.generated_ok;
    printf("Q(33): |Q|=%u |P|=%u, certificate %s\n", pr.nx, quotient_psize(q),
           cert_ok ? "verified" : "FAILED");
    pr.q33 = q;
    pr.c0 = clock();
    mq_set_failure_hook(e, probe_hook, &pr);
    bench_cpu_limit(secs);
    CgtStatus st = mq_extend_to(e, TOP, &err);
    printf("\nstopped: %s\n", st == CGT_OK ? "heap 34 done" : err.msg);
    mq_free(e);
    quotient_free(q);
    free(pr.least);
    return 0;
}
