/* Benchmark driver for the misère-quotient engine: computes Q(n) of an
 * octal game (the drivers' own octal HeapGame, benchoct.h, so it does not
 * depend on src/lib/heap/), optionally certifies it or runs until periodic, and prints
 * |Q|, |P|, the presentation head, per-phase times and CPU time.
 * Usage: mqbench CODE N [cert] [periodic] [verbose] [smallest|jump|lift] [bound]
 *        [reach=SECONDS] [threads=T]
 * (recalibration policy MQ_RECAL_SMALLEST, _JUMP, _LIFT).  reach=S extends
 * heap by heap, prints the CPU time at which each heap is done and the
 * peak RSS so far, and stops (as an interrupt) once S seconds of CPU time
 * are used.  threads=T runs the independent pieces of a heap on T threads
 * (mq_set_threads).  CODE is d0.d1d2... (benchoct.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>

#include "lib/misere/misere.h"
#include "bench/misere/benchoct.h"
#include "lib/util/poll.h"

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
    unsigned threads = 1;
    for (int i = 3; i < argc; i++) {
        cert |= strcmp(argv[i], "cert") == 0;
        periodic |= strcmp(argv[i], "periodic") == 0;
        bench_recal_word(argv[i], &recal);
        bound |= strcmp(argv[i], "bound") == 0;
        if (strncmp(argv[i], "threads=", 8) == 0)
            threads = (unsigned)atoi(argv[i] + 8);
        if (strncmp(argv[i], "reach=", 6) == 0)
            reach = atof(argv[i] + 6);
        if (strcmp(argv[i], "verbose") == 0)
            cgt_set_progress_sink(sink);
    }
    BenchOct o;
    HeapGame g;
    if (!bench_oct_parse(argv[1], &o, &g))
        return 2;
    uint32_t n = (uint32_t)atoi(argv[2]);
    CgtError err;
    MqEngine *e = mq_new(&g, NULL);
    mq_set_recalibration(e, recal);
    mq_set_track_bound(e, bound);
    mq_set_threads(e, threads);
    clock_t c0 = clock();
    double t0 = cgt_now();
    CgtStatus st;
    MqPeriod per = {0};
    if (reach > 0) {
        bench_cpu_limit(reach);
        st = CGT_OK;
        for (uint32_t h = 1; h <= n && st == CGT_OK; h++) {
            st = mq_extend_to(e, h, &err);
            if (st == CGT_OK) {
                struct rusage ru;
                getrusage(RUSAGE_SELF, &ru);
                printf("heap %u |Q|=%u cpu %.3f s peak %.1f MB\n", h, mq_current_size(e),
                       (double)(clock() - c0) / CLOCKS_PER_SEC, ru.ru_maxrss / 1024.0);
                fflush(stdout);
            }
        }
        bench_cpu_limit(0);
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
        printf("certificate: %s (%llu %s, %u moves, monoid %d labelling %d reduced %d generated "
               "%d, cpu %.3f s)\n",
               st == CGT_OK && ci.labelling_ok && ci.reduced_ok && ci.generated_ok ? "verified"
                                                                                   : "FAILED",
               (unsigned long long)ci.pairs,
               ci.method == 1   ? "states"
               : ci.method == 2 ? "summary passes"
                                : "pairs",
               ci.moves,
               ci.monoid_ok, ci.labelling_ok, ci.reduced_ok, ci.generated_ok,
               (double)(clock() - c1) / CLOCKS_PER_SEC);
    }
    quotient_free(q);
    mq_free(e);
    return 0;
}
