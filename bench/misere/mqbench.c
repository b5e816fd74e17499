/* Benchmark driver for the misère-quotient engine: computes Q(n) of an
 * octal game (its own small octal-code HeapGame, so it does not depend on
 * games/), optionally certifies it or runs until periodic, and prints
 * |Q|, |P|, the presentation head, per-phase times and CPU time.
 * Usage: mqbench CODE N [cert] [periodic] [verbose] [smallest|jump|lift] [bound]
 *        [reach=SECONDS]
 * (recalibration policy MQ_RECAL_SMALLEST, _JUMP, _LIFT).  reach=S extends
 * heap by heap, prints the CPU time at which each heap is done and stops
 * (as an interrupt) once S seconds of CPU time are used. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "algebra/misere.h"
#include "util/poll.h"

typedef struct Oct {
    int ndig;
    int dig[16];
    char name[32];
} Oct;

static CgtStatus oct_options(void *ctx, uint32_t n, HeapOptions *out, CgtError *err)
{
    (void)err;
    const Oct *o = ctx;
    heapopts_clear(out);
    for (int k = 1; k <= o->ndig && (uint32_t)k <= n; k++) {
        uint32_t r = n - (uint32_t)k;
        int d = o->dig[k];
        if ((d & 1) && r == 0)
            heapopts_add(out, NULL, 0);
        if ((d & 2) && r > 0)
            heapopts_add(out, &r, 1);
        if (d & 4)
            for (uint32_t a = 1; 2 * a <= r; a++) {
                uint32_t pr[2] = {a, r - a};
                heapopts_add(out, pr, 2);
            }
    }
    return CGT_OK;
}

static void on_cpu_limit(int sig)
{
    (void)sig;
    cgt_interrupt_flag = 1;
}

/* Stop the engine (as Ctrl-C would) after `secs` seconds of CPU time. */
static void set_cpu_limit(double secs)
{
    struct itimerval it = {{0, 0}, {(time_t)secs, (suseconds_t)((secs - (time_t)secs) * 1e6)}};
    signal(SIGVTALRM, on_cpu_limit);
    setitimer(ITIMER_VIRTUAL, &it, NULL);
}

static void sink(const char *s, const char *l)
{
    fprintf(stderr, "[%s] %s\n", s, l);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mqbench CODE N [cert] [periodic] [verbose]\n");
        return 2;
    }
    bool cert = false, periodic = false;
    MqRecal recal = MQ_RECAL_FIRST;
    bool bound = false;
    double reach = 0;
    for (int i = 3; i < argc; i++) {
        cert |= strcmp(argv[i], "cert") == 0;
        periodic |= strcmp(argv[i], "periodic") == 0;
        if (strcmp(argv[i], "smallest") == 0)
            recal = MQ_RECAL_SMALLEST;
        if (strcmp(argv[i], "jump") == 0)
            recal = MQ_RECAL_JUMP;
        if (strcmp(argv[i], "lift") == 0)
            recal = MQ_RECAL_LIFT;
        bound |= strcmp(argv[i], "bound") == 0;
        if (strncmp(argv[i], "reach=", 6) == 0)
            reach = atof(argv[i] + 6);
        if (strcmp(argv[i], "verbose") == 0)
            cgt_set_progress_sink(sink);
    }
    Oct o;
    memset(&o, 0, sizeof o);
    snprintf(o.name, sizeof o.name, "%s", argv[1]);
    const char *p = strchr(argv[1], '.');
    if (!p)
        return 2;
    int parts = 1;
    for (int k = 1; *++p; k++) {
        o.dig[k] = *p - '0';
        o.ndig = k;
        if (o.dig[k] & 4)
            parts = 2;
    }
    HeapGame g = {&o, oct_options, parts, o.ndig, o.name};
    uint32_t n = (uint32_t)atoi(argv[2]);
    CgtError err;
    MqEngine *e = mq_new(&g, NULL);
    mq_set_recalibration(e, recal);
    mq_set_track_bound(e, bound);
    clock_t c0 = clock();
    double t0 = cgt_now();
    CgtStatus st;
    MqPeriod per = {0};
    if (reach > 0) {
        set_cpu_limit(reach);
        st = CGT_OK;
        for (uint32_t h = 1; h <= n && st == CGT_OK; h++) {
            st = mq_extend_to(e, h, &err);
            if (st == CGT_OK)
                printf("heap %u |Q|=%u cpu %.3f s\n", h, mq_current_size(e),
                       (double)(clock() - c0) / CLOCKS_PER_SEC);
        }
        set_cpu_limit(0);
        cgt_interrupt_flag = 0;
    } else if (periodic) {
        st = mq_run_until_periodic(e, n, &per, &err);
    } else {
        st = mq_extend_to(e, n, &err);
    }
    double wall = cgt_now() - t0, cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    if (st != CGT_OK)
        printf("stopped: %s (quotient kept to heap %u)\n", err.msg, mq_heaps_done(e));
    Quotient *q = mq_quotient(e, NULL, 0, &err);
    printf("%s Q(%u): |Q|=%u |P|=%u gens=%d tame=%d\n", o.name, quotient_max_heap(q),
           quotient_size(q), quotient_psize(q), quotient_ngens(q), quotient_is_tame(q));
    if (periodic)
        printf("periodic=%d period=%u preperiod=%u last_rogue=%d\n", per.found, per.period,
               per.preperiod, per.last_rogue);
    const MqStats *s = mq_stats(e);
    if (s->bound_heap)
        printf("lower bound: |Q(%u)| >= %u (trial correct with at most %u heaps of size %u)\n",
               s->bound_heap, s->bound_size, s->bound_copies, s->bound_heap);
    printf("cpu %.3f s wall %.3f s (conservative %.3f, expansion %.3f, recalibration %.3f, "
           "verification %.3f; %llu expansions, %llu recalibration trials)\n",
           cpu, wall, s->t_conservative, s->t_expansion, s->t_recalibration, s->t_verification,
           (unsigned long long)s->expansions, (unsigned long long)s->recalibrations);
    if (cert) {
        MqCertInfo ci;
        clock_t c1 = clock();
        st = mq_certify(q, &g, 0, &ci, &err);
        printf("certificate: %s (%llu pairs, labelling %d reduced %d generated %d, cpu %.3f s)\n",
               st == CGT_OK && ci.labelling_ok && ci.reduced_ok && ci.generated_ok ? "verified"
                                                                                   : "FAILED",
               (unsigned long long)ci.pairs, ci.labelling_ok, ci.reduced_ok, ci.generated_ok,
               (double)(clock() - c1) / CLOCKS_PER_SEC);
    }
    quotient_free(q);
    mq_free(e);
    return 0;
}
