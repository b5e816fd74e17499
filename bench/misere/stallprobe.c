/* Research probe for the stalls of issue 7 (docs/misere.md, "Stalls of
 * 0.127, 0.64, 0.6 and 0.16"): extends the misère quotient of an octal game
 * to heap N-1, then expands heap N with the failure hook of
 * algebra/misere.h installed and logs every least failure (P or N, the
 * failure as a word, the trial size and the cyclic structure — index and
 * period — of every heap image in the failing trial).  At the end it prints,
 * per heap, the largest exponent seen in any least failure, and a table of
 * trial labels of N + h^a + g^b for the two heaps h, g whose exponents grew
 * most (or heaps tab=H,G; context: the last least failure without them, and
 * with heap x toggled by x=X), with positions not smaller than the last least failure
 * marked (the smaller ones
 * the engine's exhaustive least-failure search guarantees to be labelled
 * correctly; MISERE.md §1).
 * Usage: stallprobe CODE N SECONDS [smallest|jump|lift] [quiet] [tab=H,G] [x=X]
 * Research tool: prints, never used by cgt itself. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "algebra/misere.h"
#include "algebra/mqint.h"
#include "util/poll.h"
#include "util/xalloc.h"

enum { MAXH = 64, TAB = 40 };

typedef struct Oct {
    int ndig;
    int dig[16];
    char name[32];
} Oct;

/* Options of heap n of the octal game (rules of Winning Ways ch. 4). */
static CgtStatus octal_moves(void *ctx, uint32_t n, HeapOptions *out, CgtError *err)
{
    (void)err;
    const Oct *o = ctx;
    heapopts_clear(out);
    for (int take = 1; take <= o->ndig && (uint32_t)take <= n; take++) {
        uint32_t left = n - (uint32_t)take;
        int d = o->dig[take];
        if ((d & 1) && left == 0)
            heapopts_add(out, NULL, 0);
        if ((d & 2) && left > 0)
            heapopts_add(out, &left, 1);
        for (uint32_t a = 1; (d & 4) && 2 * a <= left; a++) {
            uint32_t two[2] = {a, left - a};
            heapopts_add(out, two, 2);
        }
    }
    return CGT_OK;
}

typedef struct Probe {
    uint32_t heap;     /* the heap being expanded */
    uint32_t nfail;    /* least failures seen */
    uint32_t maxe[MAXH];
    uint32_t last[MAXH];
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

static void on_cpu_limit(int sig)
{
    (void)sig;
    cgt_interrupt_flag = 1;
}

static void set_cpu_limit(double secs)
{
    struct itimerval it = {{0, 0}, {(time_t)secs, (suseconds_t)((secs - (time_t)secs) * 1e6)}};
    signal(SIGVTALRM, on_cpu_limit);
    setitimer(ITIMER_VIRTUAL, &it, NULL);
}

/* Trial label of the word w (exponents over heaps 0..nh-1). */
static bool label(const MqPret *T, const uint32_t *w)
{
    return mq_bit(T->p, mqpret_eval(T, w));
}

/* Print the trial labels of X + h^a + g^b (a, b < TAB, '*' = P) where the
 * context X is the last least failure without its heaps h and g, toggled
 * by one heap x (x = 0: unchanged), marking with '?' the positions that are
 * not smaller than the last least failure (not guaranteed correct). */
static void table(const Probe *pr, uint32_t h, uint32_t g, uint32_t x)
{
    const MqPret *T = pr->T;
    uint32_t *w = xcalloc(T->nh, sizeof *w);
    uint32_t *ctx = xcalloc(T->nh, sizeof *ctx);
    memcpy(ctx, pr->last, T->nh * sizeof *ctx);
    ctx[h] = ctx[g] = 0;
    if (x)
        ctx[x] = ctx[x] ? ctx[x] - 1 : 1;
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
    free(w);
    free(ctx);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: stallprobe CODE N SECONDS [smallest|jump|lift] [quiet]\n");
        return 2;
    }
    Oct o;
    memset(&o, 0, sizeof o);
    snprintf(o.name, sizeof o.name, "%s", argv[1]);
    const char *dot = strchr(argv[1], '.');
    if (!dot)
        return 2;
    int parts = 1;
    for (int k = 1; dot[k] && k < 16; k++) {
        o.dig[k] = dot[k] - '0';
        o.ndig = k;
        if (o.dig[k] & 4)
            parts = 2;
    }
    uint32_t n = (uint32_t)atoi(argv[2]);
    double secs = atof(argv[3]);
    if (n < 2 || n >= MAXH)
        return 2;
    Probe pr;
    memset(&pr, 0, sizeof pr);
    pr.heap = n;
    MqRecal recal = MQ_RECAL_FIRST;
    uint32_t th = 0, tg = 0, tx = 0;
    for (int i = 4; i < argc; i++) {
        if (strcmp(argv[i], "smallest") == 0)
            recal = MQ_RECAL_SMALLEST;
        if (strcmp(argv[i], "jump") == 0)
            recal = MQ_RECAL_JUMP;
        if (strcmp(argv[i], "lift") == 0)
            recal = MQ_RECAL_LIFT;
        pr.quiet |= strcmp(argv[i], "quiet") == 0;
        if (strncmp(argv[i], "tab=", 4) == 0)
            sscanf(argv[i] + 4, "%u,%u", &th, &tg);
        if (strncmp(argv[i], "x=", 2) == 0)
            tx = (uint32_t)atoi(argv[i] + 2);
    }
    HeapGame game = {&o, octal_moves, parts, o.ndig, o.name};
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
    set_cpu_limit(secs);
    CgtStatus st = mq_extend_to(e, n, &err);
    set_cpu_limit(0);
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
    if (pr.T)
        mqpret_free(pr.T);
    mq_free(e);
    return 0;
}
