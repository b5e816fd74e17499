/* Beyond the first infinite heap (src/lib/misere/mqinfext.c, docs/misere.md
 * "Beyond the first infinite heap"): the engine's proof that Q(34) of 0.07
 * is infinite (tests/data/mq-0.07-34.proof.gz, format 1) is read by this
 * test's own parser, carried to heap 35 by mqinf_extend, and the result
 * must be
 *  - accepted by the independent checker tests/oracle/mq_infcheck
 *    (format 2, heaps 1..35), whose brute-force search (-b, -r: its own
 *    memoised misère recursion, no code shared with cgt) agrees with every
 *    label on every position of at most 44 tokens and on random ones;
 *  - equal, on every position of at most 40 tokens, to this test's own
 *    memoised misère search (written here from the misère rule alone);
 * and heap 36 must be refused with a reason, leaving the description of
 * heap 35 as it was.  Why no description with the same states can cover
 * heap 36 (docs/misere.md, "Beyond the first infinite heap"): 16 and
 * 14 + 2 reach the same state, so they are equal in Q(35), but
 * 16 + 36 + 30 is N and 14 + 2 + 36 + 30 is P; this test's search for
 * positions with one heap past the description checks it (and agrees
 * with its pure misère search wherever that reaches).  With CGT_SLOW the
 * same separation is checked for 0.137 (13 + 1 and 15 with 35 + 29) and
 * 0.4 (15 + 3 and 17 with 37 + 31) from their stored proofs.  About 10 s
 * of CPU (20 s with CGT_SLOW). */
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/misere/mqinf.h"
#include "lib/util/xalloc.h"
#include "unit.h"

/* ---- octal 0.07: remove two tokens, leaving zero, one or two heaps ---- */

static CgtStatus dk_options(void *ctx, uint32_t n, HeapOptions *out, CgtError *err)
{
    (void)ctx;
    (void)err;
    heapopts_clear(out);
    if (n < 2)
        return CGT_OK;
    uint32_t r = n - 2;
    if (r == 0)
        heapopts_add(out, NULL, 0);
    else
        heapopts_add(out, &r, 1);
    for (uint32_t a = 1; 2 * a <= r; a++) {
        uint32_t pr[2] = {a, r - a};
        heapopts_add(out, pr, 2);
    }
    return CGT_OK;
}

/* ---- any octal game: digit d_k of the code (Winning Ways, ch. 4) lets a
 * player remove k tokens from a heap, leaving nothing (bit 1), one heap
 * (bit 2) or two heaps (bit 4) ---- */

static CgtStatus oct_options(void *ctx, uint32_t n, HeapOptions *out, CgtError *err)
{
    const char *digits = ctx; /* the code after "0." */
    (void)err;
    heapopts_clear(out);
    for (uint32_t k = 1; k <= strlen(digits) && k <= n; k++) {
        int d = digits[k - 1] - '0';
        uint32_t r = n - k;
        if ((d & 1) && r == 0)
            heapopts_add(out, NULL, 0);
        if ((d & 2) && r > 0)
            heapopts_add(out, &r, 1);
        for (uint32_t a = 1; (d & 4) && 2 * a <= r; a++) {
            uint32_t pr[2] = {a, r - a};
            heapopts_add(out, pr, 2);
        }
    }
    return CGT_OK;
}

/* ---- the format-1 file, read by hand ---- */

static MqInfProof *read_v1(FILE *f, const HeapGame *g)
{
    MqInfProof *p = xcalloc(1, sizeof *p);
    p->q = 1;
    static char line[1 << 16];
    while (fgets(line, sizeof line, f)) {
        unsigned a, b, c, d, e;
        int we;
        if (sscanf(line, "heaps %u", &a) == 1) {
            p->N = a;
            p->grp = xcalloc(a + 1, 1);
            p->act = xcalloc(a + 1, sizeof *p->act);
            p->opts = xcalloc(a + 1, sizeof *p->opts);
            for (unsigned k = 0; k <= a; k++) {
                heapopts_init(&p->opts[k]);
                CgtError err;
                g->options(g->ctx, k, &p->opts[k], &err);
            }
        } else if (sscanf(line, "top %u", &a) == 1) {
            p->H = a;
            p->grp[a] = 1;
        } else if (sscanf(line, "partner %u", &a) == 1) {
            p->G = a;
            p->grp[a] = 2;
        } else if (sscanf(line, "states %u", &a) == 1) {
            p->S = a;
        } else if (strncmp(line, "act ", 4) == 0) {
            char *q = line + 4;
            unsigned long K = strtoul(q, &q, 10);
            p->act[K] = xmalloc(p->S * sizeof **p->act);
            for (uint32_t s = 0; s < p->S; s++)
                p->act[K][s] = (uint32_t)strtoul(q, &q, 10);
        } else if (sscanf(line, "reduce %u %u %u %u %u", &a, &b, &c, &d, &e) == 5) {
            p->t = a;
            p->b0 = b;
            p->pb = c;
            p->a0 = d;
            p->pa = e;
        } else if (sscanf(line, "table %u %u", &a, &b) == 2) {
            p->TA = a;
            p->TB = b;
            p->lab = xcalloc((size_t)p->S * (a + 1) * (b + 1), 1);
        } else if (strncmp(line, "lab ", 4) == 0) {
            char *q = line + 4;
            unsigned long s = strtoul(q, &q, 10), x = strtoul(q, &q, 10);
            q++;
            for (uint32_t y = 0; y <= p->TB; y++)
                p->lab[((size_t)s * (p->TA + 1) + x) * (p->TB + 1) + y] = q[y] == 'P';
        } else if (sscanf(line, "check %u %u", &a, &b) == 2) {
            p->A1 = a;
            p->B1 = b;
        } else if (sscanf(line, "witness %d %u", &we, &a) == 2) {
            p->we = we;
            p->wa = a;
            p->have_witness = true;
            char *q = line + 8;
            strtol(q, &q, 10);
            strtoul(q, &q, 10);
            p->wheaps = xmalloc(64 * sizeof *p->wheaps);
            while (*q == ' ' && p->nw < 64)
                p->wheaps[p->nw++] = (uint32_t)strtoul(q, &q, 10);
            for (uint32_t i = 0; i < p->nw; i++)
                p->wstate = p->act[p->wheaps[i]][p->wstate];
        }
    }
    for (uint32_t h = 1; h <= p->N; h++)
        for (size_t j = 0; j < p->opts[h].count; j++) {
            uint32_t ca = 0, cb = 0;
            for (size_t q = p->opts[h].start[j]; q < p->opts[h].start[j + 1]; q++) {
                ca += p->grp[p->opts[h].parts[q]] == 1;
                cb += p->grp[p->opts[h].parts[q]] == 2;
            }
            p->ua = ca > p->ua ? ca : p->ua;
            p->ub = cb > p->ub ? cb : p->ub;
        }
    return p;
}

/* ---- an independent misère search over positions of 0.07 ---- */

enum { MAXH = 16, TABLE = 1 << 22 };

typedef struct Memo {
    uint64_t *key1, *key2;
    uint8_t *val; /* 0 empty, 1 N, 2 P */
} Memo;

static Memo memo;

/* A position: heaps >= 2 (heaps 0 and 1 have no move and change nothing),
 * sorted descending, at most MAXH of them, packed 6 bits each. */
static void pack(const uint32_t *h, int k, uint64_t *k1, uint64_t *k2)
{
    *k1 = *k2 = 0;
    for (int i = 0; i < k; i++) {
        if (i < 10)
            *k1 = *k1 << 6 | h[i];
        else
            *k2 = *k2 << 6 | h[i];
    }
    *k2 = *k2 << 4 | (uint64_t)k;
}

static int cmp_desc(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a < b) - (a > b);
}

static int norm(uint32_t *h, int k)
{
    int m = 0;
    for (int i = 0; i < k; i++)
        if (h[i] >= 2)
            h[m++] = h[i];
    qsort(h, (size_t)m, sizeof *h, cmp_desc);
    return m;
}

/* true when the position is P in misère play */
static bool brute_p(const uint32_t *h0, int k0)
{
    uint32_t h[MAXH + 2];
    memcpy(h, h0, (size_t)k0 * sizeof *h);
    int k = norm(h, k0);
    if (k == 0)
        return false; /* no move: the player to move wins in misère play */
    uint64_t k1, k2;
    pack(h, k, &k1, &k2);
    size_t sl = (size_t)((k1 * 0x9e3779b97f4a7c15ULL) ^ (k2 * 0xc2b2ae3d27d4eb4fULL)) >> 42;
    while (memo.val[sl]) {
        if (memo.key1[sl] == k1 && memo.key2[sl] == k2)
            return memo.val[sl] == 2;
        sl = (sl + 1) & (TABLE - 1);
    }
    bool win = false;
    for (int i = 0; i < k && !win; i++) {
        if (i > 0 && h[i] == h[i - 1])
            continue;
        uint32_t r = h[i] - 2;
        for (uint32_t a = 0; 2 * a <= r && !win; a++) {
            uint32_t nh[MAXH + 2];
            int m = 0;
            for (int j = 0; j < k; j++)
                if (j != i)
                    nh[m++] = h[j];
            nh[m++] = a;
            nh[m++] = r - a;
            win = brute_p(nh, m);
        }
    }
    memo.key1[sl] = k1;
    memo.key2[sl] = k2;
    memo.val[sl] = win ? 1 : 2;
    return !win;
}

/* ---- positions with heaps up to N+1, at most one heap N+1, where p
 * describes Q(N): the misère recursion on the positions that keep the heap
 * N+1, the others read off the description ---- */

enum { XMAXH = 30, XTABLE = 1 << 20 };

typedef struct Beyond {
    const MqInfProof *p;
    HeapOptions opts[64]; /* options of heaps 0..63 */
    uint64_t *key;        /* three words per slot */
    uint8_t *val;         /* 0 empty, 1 N, 2 P */
    size_t used;
    bool overflow; /* too many heaps or positions: the answers are void */
} Beyond;

static void beyond_init(Beyond *x, const MqInfProof *p, const HeapGame *g)
{
    x->p = p;
    for (uint32_t n = 0; n < 64; n++) {
        CgtError err;
        heapopts_init(&x->opts[n]);
        g->options(g->ctx, n, &x->opts[n], &err);
    }
    x->key = xcalloc((size_t)3 * XTABLE, sizeof *x->key);
    x->val = xcalloc(XTABLE, 1);
    x->used = 0;
    x->overflow = false;
}

static void beyond_free(Beyond *x)
{
    for (uint32_t n = 0; n < 64; n++)
        heapopts_free(&x->opts[n]);
    free(x->key);
    free(x->val);
}

/* true when the position is P in misère play; heaps without a move are
 * dropped (they never change the play) */
static bool beyond_p(Beyond *x, const uint32_t *h0, int k0)
{
    uint32_t h[XMAXH + 2];
    int k = 0, top = 0;
    for (int i = 0; i < k0; i++)
        if (x->opts[h0[i]].count) {
            if (k == XMAXH || x->overflow) {
                x->overflow = true;
                return false;
            }
            h[k++] = h0[i];
            top += h0[i] > x->p->N;
        }
    if (top == 0) {
        bool is_p = false;
        CgtError err;
        mqinf_outcome(x->p, h, (size_t)k, &is_p, &err);
        return is_p;
    }
    qsort(h, (size_t)k, sizeof *h, cmp_desc);
    uint64_t w[3] = {0, 0, (uint64_t)k};
    for (int i = 0; i < k; i++)
        w[i / 10] = w[i / 10] << 6 | h[i];
    size_t sl = (size_t)((w[0] * 0x9e3779b97f4a7c15ULL) ^ (w[1] * 0xc2b2ae3d27d4eb4fULL) ^
                         (w[2] * 0x165667b19e3779f9ULL)) >>
                44;
    while (x->val[sl]) {
        if (!memcmp(x->key + 3 * sl, w, sizeof w))
            return x->val[sl] == 2;
        sl = (sl + 1) & (XTABLE - 1);
    }
    bool win = false;
    for (int i = 0; i < k && !win; i++) {
        if (i > 0 && h[i] == h[i - 1])
            continue;
        const HeapOptions *o = &x->opts[h[i]];
        for (size_t j = 0; j < o->count && !win; j++) {
            uint32_t nh[XMAXH + 4];
            int m = 0;
            for (int l = 0; l < k; l++)
                if (l != i)
                    nh[m++] = h[l];
            for (size_t q = o->start[j]; q < o->start[j + 1]; q++)
                nh[m++] = o->parts[q];
            win = beyond_p(x, nh, m);
        }
    }
    if (++x->used * 2 > XTABLE)
        x->overflow = true;
    memcpy(x->key + 3 * sl, w, sizeof w);
    x->val[sl] = win ? 1 : 2;
    return !win;
}

/* psi of a list of heaps outside the groups */
static uint32_t psi(const MqInfProof *p, const uint32_t *h, int k)
{
    uint32_t s = 0;
    for (int i = 0; i < k; i++)
        s = p->act[h[i]][s];
    return s;
}

/* x1 and x2 (outside the groups) reach the same state of p, which
 * describes Q(n-1), but x1 + n + G is P and x2 + n + G is N (G the
 * partner heap): Q(n) separates what Q(n-1) identifies */
static void check_separation(const MqInfProof *p, const HeapGame *g, const uint32_t *x1, int k1,
                             const uint32_t *x2, int k2)
{
    uint32_t n = p->N + 1;
    CHECK_EQ_INT(psi(p, x1, k1), psi(p, x2, k2));
    Beyond x;
    beyond_init(&x, p, g);
    uint32_t h[8];
    memcpy(h, x1, (size_t)k1 * sizeof *h);
    h[k1] = n;
    h[k1 + 1] = p->G;
    CHECK(beyond_p(&x, h, k1 + 2));
    memcpy(h, x2, (size_t)k2 * sizeof *h);
    h[k2] = n;
    h[k2 + 1] = p->G;
    CHECK(!beyond_p(&x, h, k2 + 2));
    CHECK(!x.overflow);
    beyond_free(&x);
}

/* every multiset of heaps 2..35 with at most `tokens` tokens, heaps
 * non-increasing from index i on, compared with the description */
static long disagree, compared;

static void walk(const MqInfProof *p, uint32_t *h, int k, uint32_t maxh, uint32_t left)
{
    if (k > 0) {
        bool is_p = false;
        CgtError err;
        if (mqinf_outcome(p, h, (size_t)k, &is_p, &err) != CGT_OK)
            disagree++;
        else if (is_p != brute_p(h, k))
            disagree++;
        compared++;
    }
    if (k == MAXH)
        return;
    for (uint32_t x = maxh; x >= 2; x--)
        if (x <= left) {
            h[k] = x;
            walk(p, h, k + 1, x, left - x);
        }
}

int main(int argc, char **argv)
{
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    int dl = slash ? (int)(slash - argv[0]) : 1;
    const char *dir = slash ? argv[0] : ".";
    char cmd[1400], infcheck[600], pf[400];
    snprintf(infcheck, sizeof infcheck, "%.*s/../oracle/mq_infcheck", dl, dir);
    snprintf(cmd, sizeof cmd, "gzip -dc %.*s/../../tests/data/mq-0.07-34.proof.gz", dl, dir);
    FILE *f = popen(cmd, "r");
    CHECK(f != NULL);
    if (!f)
        UNIT_MAIN_END();
    HeapGame g = {NULL, dk_options, 2, 2, "0.07"};
    MqInfProof *p = read_v1(f, &g);
    CHECK_EQ_INT(pclose(f), 0);
    CHECK_EQ_INT(p->N, 34);
    CHECK_EQ_INT(p->S, 1456);
    /* heap 35 */
    bool ok = false;
    char why[400];
    CgtError err;
    cgt_error_clear(&err);
    CHECK_EQ_INT(mqinf_extend(p, &g, 0, &ok, why, sizeof why, &err), CGT_OK);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "heap 35 not described: %s\n", why);
    CHECK_EQ_INT(p->N, 35);
    CHECK_EQ_INT(mqinf_first(p), 34);
    CHECK_EQ_STR(p->ext_text, "35 as 2 + 28");
    CHECK(!mqinf_is_v1(p));
    /* heap 35 acts exactly as heaps 2 and 28 do */
    bool same = true;
    for (uint32_t s = 0; s < p->S; s++)
        same = same && p->act[35][s] == p->act[28][p->act[2][s]];
    CHECK(same);
    snprintf(pf, sizeof pf, "%s/q35.proof", unit_tmp_dir());
    CHECK_EQ_INT(mqinf_write(p, "octal 0.07", pf, &err), CGT_OK);
    /* the independent checker: the proof, then its own brute force */
    CHECK(access(infcheck, X_OK) == 0);
    snprintf(cmd, sizeof cmd, "%.600s %.300s >/dev/null", infcheck, pf);
    CHECK_EQ_INT(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%.600s -b 44 -r 300 %.300s >/dev/null", infcheck, pf);
    CHECK_EQ_INT(system(cmd), 0);
    /* this test's own search on every position of at most 40 tokens */
    memo.key1 = xcalloc(TABLE, sizeof *memo.key1);
    memo.key2 = xcalloc(TABLE, sizeof *memo.key2);
    memo.val = xcalloc(TABLE, 1);
    uint32_t h[MAXH + 2];
    walk(p, h, 0, 35, 40);
    CHECK_EQ_INT(disagree, 0);
    CHECK(compared > 30000);
    /* heap 36: the search past the description agrees with the pure
     * search on every position 36 + X of at most 40 tokens, and separates
     * 16 from 14 + 2 */
    {
        Beyond x;
        beyond_init(&x, p, &g);
        long differ = 0, seen = 0;
        for (uint32_t a = 0; a <= 4; a++)
            for (uint32_t b = 0; b <= a && a + b <= 4; b++) {
                uint32_t hx[3] = {36, a, b};
                differ += beyond_p(&x, hx, 3) != brute_p(hx, 3);
                seen++;
            }
        CHECK_EQ_INT(differ, 0);
        CHECK_EQ_INT(seen, 9);
        CHECK(!x.overflow);
        beyond_free(&x);
        uint32_t x1[2] = {14, 2}, x2[1] = {16};
        check_separation(p, &g, x1, 2, x2, 1);
    }
    /* heap 36 acts as no state: refused, the description of 35 kept */
    uint64_t pairs = p->pairs;
    ok = true;
    CHECK_EQ_INT(mqinf_extend(p, &g, 0, &ok, why, sizeof why, &err), CGT_OK);
    CHECK(!ok);
    CHECK(strstr(why, "heap 36 acts as no state") != NULL);
    CHECK_EQ_INT(p->N, 35);
    CHECK_EQ_INT(p->pairs, pairs);
    free(memo.key1);
    free(memo.key2);
    free(memo.val);
    mqinf_proof_free(p);
    /* the same separation one heap past 0.137's and 0.4's first infinite
     * heaps, from their stored proofs carried one heap further */
    const char *slow = getenv("CGT_SLOW");
    static const struct {
        const char *code, *file;
        uint32_t x1[2], x2;
    } more[] = {{"0.137", "mq-0.137-33", {13, 1}, 15}, {"0.4", "mq-0.4-35", {15, 3}, 17}};
    for (size_t i = 0; slow && *slow == '1' && i < sizeof more / sizeof more[0]; i++) {
        snprintf(cmd, sizeof cmd, "gzip -dc %.*s/../../tests/data/%s.proof.gz", dl, dir,
                 more[i].file);
        f = popen(cmd, "r");
        CHECK(f != NULL);
        if (!f)
            break;
        HeapGame go = {(void *)(more[i].code + 2), oct_options, 2, 2, more[i].code};
        MqInfProof *q = read_v1(f, &go);
        CHECK_EQ_INT(pclose(f), 0);
        CHECK_EQ_INT(mqinf_extend(q, &go, 0, &ok, why, sizeof why, &err), CGT_OK);
        CHECK(ok);
        if (ok)
            check_separation(q, &go, more[i].x1, 2, &more[i].x2, 1);
        mqinf_proof_free(q);
    }
    UNIT_MAIN_END();
}
