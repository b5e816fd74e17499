/* Research probe for the stalls of the misère-quotient engine
 * (docs/dev/misere-notes.md, "Stalls of 0.127, 0.64, 0.6 and 0.16"):
 * extends the misère quotient of an octal game to heap N-1, then expands
 * heap N with the failure hook of src/lib/misere/misere.h installed and logs every least failure (P or N, the
 * failure as a word, the trial size and the cyclic structure — index and
 * period — of every heap image in the failing trial).  At the end it prints,
 * per heap, the largest exponent seen in any least failure, and a table of
 * trial labels of X + h^a + g^b for the two heaps h, g whose exponents grew
 * most (or the heaps given by tab=H,G).  The context X is the last least
 * failure without heaps h and g, or the heaps listed by ctx=A,B,...; x=Y
 * toggles one heap Y of it.  Positions not smaller than the last least
 * failure are marked '?'; the smaller ones are labelled correctly by the
 * trial, as the engine's exhaustive least-failure search guarantees
 * (docs/misere.md "Word order and failures").  brute=K compares the
 * table's guaranteed entries of at most K tokens with an independent
 * memoised brute-force search written here (heaps <= 15).
 * Usage: stallprobe CODE N SECONDS [smallest|jump|lift] [quiet] [tab=H,G]
 *        [ctx=A,B,...] [x=Y] [brute=K]
 * Research tool: prints, never used by cgt itself. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "lib/misere/misere.h"
#include "lib/misere/mqint.h"
#include "bench/misere/benchoct.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

enum { MAXH = 64, TAB = 40 };

typedef struct Probe {
    uint32_t heap;     /* the heap being expanded */
    uint32_t nfail;    /* least failures seen */
    uint32_t maxe[MAXH];
    uint32_t last[MAXH];
    uint32_t ctx[MAXH]; /* table context given by ctx= (ctx[0] = 1), else 0 */
    bool quiet;
    MqPret *T;         /* copy of the latest failing trial */
    double c0;
} Probe;

static double cpu_now(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* Index and period of the powers of heap h's image, starting at the
 * identity (0 and 0 for heaps mapped to the identity). */
static void orbit(const MqPret *T, uint32_t h, uint32_t *index, uint32_t *period)
{
    *index = *period = 0;
    if (T->hl[h] < 0)
        return;
    uint32_t *seen = xmalloc(T->n * sizeof *seen);
    for (uint32_t i = 0; i < T->n; i++)
        seen[i] = UINT32_MAX;
    uint32_t x = 0, k = 0;
    while (seen[x] == UINT32_MAX) {
        seen[x] = k++;
        x = T->act[T->hl[h]][x];
    }
    *index = seen[x];
    *period = k - seen[x];
    free(seen);
}

static void print_word(const uint32_t *F, uint32_t nh)
{
    for (uint32_t h = nh; h-- > 0;)
        if (F[h])
            printf(F[h] > 1 ? " %u^%u" : " %u", h, F[h]);
}

static void on_failure(void *ctx, const MqPret *T, const uint32_t *F, bool p_failure)
{
    Probe *pr = ctx;
    pr->nfail++;
    for (uint32_t h = 0; h < T->nh && h < MAXH; h++) {
        pr->last[h] = F[h];
        if (F[h] > pr->maxe[h])
            pr->maxe[h] = F[h];
    }
    if (pr->T)
        mqpret_free(pr->T);
    pr->T = mqpret_copy(T);
    if (pr->quiet && pr->nfail % 10)
        return;
    printf("fail %u cpu %.1f |T|=%u %c:", pr->nfail, cpu_now() - pr->c0, T->n,
           p_failure ? 'P' : 'N');
    print_word(F, T->nh);
    printf("   idx/per:");
    for (uint32_t h = 1; h < T->nh; h++) {
        uint32_t i, p;
        orbit(T, h, &i, &p);
        if (i + p > 2)
            printf(" %u:%u/%u", h, i, p);
    }
    printf("\n");
    fflush(stdout);
}

/* Trial label of the word w (exponents over heaps 0..nh-1). */
static bool label(const MqPret *T, const uint32_t *w)
{
    return mq_bit(T->p, mqpret_eval(T, w));
}

/* The context X of the tables (caller frees): the heaps given by ctx=, or
 * else the last least failure, without heaps h and g, with one heap x
 * toggled (x = 0: unchanged). */
static uint32_t *table_context(const Probe *pr, uint32_t h, uint32_t g, uint32_t x)
{
    size_t nh = pr->T->nh;
    uint32_t *ctx = xcalloc(nh, sizeof *ctx);
    memcpy(ctx, pr->ctx[0] ? pr->ctx : pr->last, nh * sizeof *ctx);
    ctx[0] = ctx[h] = ctx[g] = 0;
    if (x)
        ctx[x] = ctx[x] ? ctx[x] - 1 : 1;
    return ctx;
}

/* Print the trial labels of X + h^a + g^b (a, b < TAB, '*' = P) where the
 * context X is the last least failure without its heaps h and g, toggled
 * by one heap x (x = 0: unchanged), marking with '?' the positions that are
 * not smaller than the last least failure (not guaranteed correct). */
static void table(const Probe *pr, uint32_t h, uint32_t g, uint32_t x)
{
    const MqPret *T = pr->T;
    uint32_t *w = xcalloc(T->nh, sizeof *w);
    uint32_t *ctx = table_context(pr, h, g, x);
    printf("X =");
    print_word(ctx, T->nh);
    printf(": X + %u^a + %u^b (rows a, columns b; * = P, ? = beyond the "
           "guaranteed region):\n", h, g);
    for (uint32_t a = 0; a < TAB; a++) {
        printf("%3u ", a);
        for (uint32_t b = 0; b < TAB; b++) {
            memcpy(w, ctx, T->nh * sizeof *w);
            w[h] += a;
            w[g] += b;
            bool safe = mq_cmp_games(w, pr->last, T->nh) < 0;
            putchar(!safe ? '?' : label(T, w) ? '*' : '.');
        }
        putchar('\n');
    }
    /* Rows that are entirely inside the guaranteed region and differ are
     * different elements h^a of the true quotient (given that trust). */
    uint32_t distinct = 0, full = 0;
    for (uint32_t a = 0; a < TAB; a++) {
        bool ok = true, fresh = true;
        for (uint32_t b = 0; b < TAB && ok; b++) {
            memcpy(w, ctx, T->nh * sizeof *w);
            w[h] += a;
            w[g] += b;
            ok = mq_cmp_games(w, pr->last, T->nh) < 0;
        }
        if (!ok)
            break;
        full++;
        for (uint32_t a2 = 0; a2 < a && fresh; a2++) {
            bool same = true;
            for (uint32_t b = 0; b < TAB && same; b++) {
                memcpy(w, ctx, T->nh * sizeof *w);
                w[h] += a;
                w[g] += b;
                bool la = label(T, w);
                w[h] = w[h] - a + a2;
                same = la == label(T, w);
            }
            fresh = !same;
        }
        distinct += fresh;
    }
    if (full)
        printf("rows a = 0..%u fully guaranteed: %u distinct rows\n", full - 1, distinct);
    else
        printf("no row fully guaranteed\n");
    free(w);
    free(ctx);
}

/* ---- independent brute force (shares no code with the engine) ----
 * Misère outcome of a position given as counts of heaps 1..15 (one byte
 * each, byte 15 unused), by memoised search over the octal rules written
 * out again here.  Memo: open addressing on the 16-byte count vector; byte
 * 15 of a stored key holds 1 + "is P". */
typedef struct Brute {
    const BenchOct *o;
    uint8_t (*slot)[16];
    size_t mask, used;
    bool full;
} Brute;

static size_t brute_hash(const uint8_t *k)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < 15; i++)
        h = (h ^ k[i]) * 1099511628211ull;
    return (size_t)(h ^ (h >> 29));
}

static bool brute_p(Brute *b, uint8_t *c);

/* Is the position c with heap s replaced by heaps r1, r2 (0 = none) P? */
static bool brute_child_p(Brute *b, uint8_t *c, int s, int r1, int r2)
{
    c[s - 1]--;
    if (r1 > 0)
        c[r1 - 1]++;
    if (r2 > 0)
        c[r2 - 1]++;
    bool p = brute_p(b, c);
    if (r2 > 0)
        c[r2 - 1]--;
    if (r1 > 0)
        c[r1 - 1]--;
    c[s - 1]++;
    return p;
}

static bool brute_p(Brute *b, uint8_t *c)
{
    size_t i = brute_hash(c) & b->mask;
    while (b->slot[i][15]) {
        if (memcmp(b->slot[i], c, 15) == 0)
            return b->slot[i][15] == 2;
        i = (i + 1) & b->mask;
    }
    bool any = false, p_child = false;
    for (int s = 1; s <= 15 && !p_child; s++) {
        if (!c[s - 1])
            continue;
        for (int take = 1; take <= b->o->ndig && take <= s && !p_child; take++) {
            int left = s - take, d = b->o->dig[take];
            if ((d & 1) && left == 0) {
                any = true;
                p_child = brute_child_p(b, c, s, 0, 0);
            }
            if ((d & 2) && left > 0 && !p_child) {
                any = true;
                p_child = brute_child_p(b, c, s, left, 0);
            }
            for (int x = 1; (d & 4) && 2 * x <= left && !p_child; x++) {
                any = true;
                p_child = brute_child_p(b, c, s, x, left - x);
            }
        }
    }
    bool p = any && !p_child;
    if (b->used * 4 < (b->mask + 1) * 3) {
        i = brute_hash(c) & b->mask;
        while (b->slot[i][15])
            i = (i + 1) & b->mask;
        memcpy(b->slot[i], c, 15);
        b->slot[i][15] = p ? 2 : 1;
        b->used++;
    } else {
        b->full = true;
    }
    return p;
}

/* Compare the trial's guaranteed labels in the table of table() with the
 * brute force on positions of at most maxtok tokens (heaps <= 15 only). */
static void brute_check(const Probe *pr, const BenchOct *o, uint32_t h, uint32_t g, uint32_t x,
                        uint32_t maxtok)
{
    const MqPret *T = pr->T;
    if (T->nh > 16)
        return;
    Brute b = {o, NULL, (maxtok > 80 ? 1u << 25 : 1u << 23) - 1, 0, false};
    b.slot = xcalloc(b.mask + 1, sizeof *b.slot);
    uint32_t *w = xcalloc(T->nh, sizeof *w);
    uint32_t *ctx = table_context(pr, h, g, x);
    uint32_t checked = 0, bad = 0;
    double c1 = cpu_now();
    for (uint32_t a = 0; a < TAB; a++)
        for (uint32_t bb = 0; bb < TAB; bb++) {
            memcpy(w, ctx, T->nh * sizeof *w);
            w[h] += a;
            w[g] += bb;
            uint32_t tok = 0;
            uint8_t c[16] = {0};
            for (uint32_t k = 1; k < T->nh; k++) {
                tok += k * w[k];
                c[k - 1] = (uint8_t)w[k];
            }
            if (tok > maxtok || mq_cmp_games(w, pr->last, T->nh) >= 0)
                continue;
            bool p = brute_p(&b, c);
            checked++;
            if (p != label(T, w)) {
                bad++;
                printf("brute force disagrees at a=%u b=%u (brute %c)\n", a, bb, p ? 'P' : 'N');
            }
        }
    printf("brute force (independent search, <= %u tokens): %u table entries, %u disagree, "
           "%zu positions memoised%s, %.1f s CPU\n", maxtok, checked, bad, b.used,
           b.full ? " (memo full)" : "", cpu_now() - c1);
    free(w);
    free(ctx);
    free(b.slot);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: stallprobe CODE N SECONDS [smallest|jump|lift] [quiet] "
                        "[tab=H,G] [x=X] [ctx=A,B,...] [brute=K]\n");
        return 2;
    }
    BenchOct o;
    HeapGame game;
    if (!bench_oct_parse(argv[1], &o, &game))
        return 2;
    uint32_t n = (uint32_t)atoi(argv[2]);
    double secs = atof(argv[3]);
    if (n < 2 || n >= MAXH)
        return 2;
    Probe pr;
    memset(&pr, 0, sizeof pr);
    pr.heap = n;
    MqRecal recal = MQ_RECAL_FIRST;
    uint32_t th = 0, tg = 0, tx = 0, maxtok = 0;
    for (int i = 4; i < argc; i++) {
        bench_recal_word(argv[i], &recal);
        pr.quiet |= strcmp(argv[i], "quiet") == 0;
        if (strncmp(argv[i], "tab=", 4) == 0)
            sscanf(argv[i] + 4, "%u,%u", &th, &tg);
        if (strncmp(argv[i], "x=", 2) == 0)
            tx = (uint32_t)atoi(argv[i] + 2);
        if (strncmp(argv[i], "ctx=", 4) == 0) {
            pr.ctx[0] = 1;
            for (char *q = argv[i] + 4; *q;) {
                long k = strtol(q, &q, 10);
                if (k > 0 && k < MAXH)
                    pr.ctx[k]++;
                if (*q)
                    q++;
            }
        }
        if (strncmp(argv[i], "brute=", 6) == 0)
            maxtok = (uint32_t)atoi(argv[i] + 6);
    }
    CgtError err;
    MqEngine *e = mq_new(&game, NULL);
    mq_set_recalibration(e, recal);
    if (mq_extend_to(e, n - 1, &err) != CGT_OK) {
        printf("Q(%u) not reached: %s\n", n - 1, err.msg);
        mq_free(e);
        return 1;
    }
    printf("%s Q(%u): |Q|=%u\n", o.name, n - 1, mq_current_size(e));
    pr.c0 = cpu_now();
    mq_set_failure_hook(e, on_failure, &pr);
    bench_cpu_limit(secs);
    CgtStatus st = mq_extend_to(e, n, &err);
    bench_cpu_limit(0);
    cgt_interrupt_flag = 0;
    printf("heap %u: %s after %u least failures, %.1f s CPU\n", n,
           st == CGT_OK ? "DONE" : err.msg, pr.nfail, cpu_now() - pr.c0);
    printf("largest exponent per heap in the least failures:");
    uint32_t h1 = 0, h2 = 0;
    for (uint32_t h = 1; h <= n; h++) {
        if (pr.maxe[h])
            printf(" %u:%u", h, pr.maxe[h]);
        if (h != n && pr.maxe[h] > pr.maxe[h1]) {
            h2 = h1;
            h1 = h;
        } else if (h != n && pr.maxe[h] > pr.maxe[h2]) {
            h2 = h;
        }
    }
    printf("\nlast least failure:");
    print_word(pr.last, n + 1);
    printf("\n");
    if (!th || !tg || th >= n || tg >= n || th == tg) {
        th = h1 < h2 ? h2 : h1;
        tg = h1 < h2 ? h1 : h2;
    }
    if (pr.T && th && tg && tx < n)
        table(&pr, th, tg, tx);
    if (pr.T && th && tg && tx < n && maxtok)
        brute_check(&pr, &o, th, tg, tx, maxtok);
    if (pr.T)
        mqpret_free(pr.T);
    mq_free(e);
    return 0;
}
