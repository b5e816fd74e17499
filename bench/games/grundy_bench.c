/* Benchmark driver for games/grundy: `grundy_bench period CODE LIMIT` proves
 * a period, `grundy_bench values CODE N` computes G(0..N-1); prints the time,
 * the result and the sparse-space statistics.  A fourth argument
 * `compact=C` compresses the middle of the table from the start in chunks
 * of 2^C values (grundy_set_compact) and prints the bytes the values take;
 * `threads=T` computes on T threads (grundy_set_threads) and prints the
 * stretches, the heaps dropped (computed on a speculative value), and per thread its CPU seconds (spins
 * included) and the wall seconds it waited for the others; `simd=0` keeps
 * to the baseline kernels instead of their AVX2 copy (grundy_set_simd),
 * `x512=0` to the AVX2 copy without its AVX-512 loops (grundy_set_x512);
 * `spill=0` keeps the compressed chunks in memory instead of a spill file
 * (grundy_set_spill; "bytes" is what the values take in memory, "spilled"
 * the spill file's bytes); `bits=0` turns the one-word bit sets of small
 * values off (grundy_set_bitsets); `from=F` computes G(0..F-1) on one
 * thread first and times only the rest (the steady state of a long run,
 * without the start, whose frequent new values keep it serial);
 * `backoff=0` starts a stretch again after every event
 * (grundy_set_par_backoff); `cpu=S` stops the run after S seconds of CPU
 * (cgt_set_timeout_cpu) and prints what it reached, marked `stopped=cpu`
 * (the survey's budget, bench/grundy/unsolved.sh); `rankw=W` allows at
 * most W words of ranks per heap in the AVX-512 bit-set batch, 0 for the
 * byte rows' batch (grundy_set_rank_words); `ckpt=FILE` resumes from the
 * checkpoint FILE when it exists (grundy_load: a damaged or foreign file is
 * refused and left as it is) and saves the table to it (grundy_save,
 * atomic) each time the values grow by half past 2^24, and when the run stops: at
 * N, at a proved period, at the CPU budget, or on SIGINT, SIGTERM or
 * SIGHUP (marked `stopped=signal`), so that a survey code reaches 2^32
 * over several sittings (bench/grundy/unsolved.sh CKPT=DIR); it prints
 * `resumed=COUNT`, the values read from the file, and on stderr a line per
 * save with the CPU seconds of the sitting so far.
 * Built by bench/games/run.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grundy/grundy.h"
#include "lib/heap/ruleset.h"
#include "lib/util/poll.h"

/* The run of `period` or `values` to n; with a checkpoint, in steps that
 * grow the table by half past 2^24, saved after each (the period search
 * starts where the table ends, grundy_run_period). */
static CgtStatus run_to(GrundyTable *gt, bool period, uint64_t n, const char *ckpt,
                        GrundyPeriod *per, CgtError *err)
{
    if (!ckpt)
        return period ? grundy_run_period(gt, n, per, err) : grundy_extend(gt, n, err);
    for (;;) {
        uint64_t have = grundy_count(gt);
        uint64_t target = have < ((uint64_t)1 << 24) ? (uint64_t)1 << 24 : have + have / 2;
        if (target > n)
            target = n;
        CgtStatus st = period ? grundy_run_period(gt, target, per, err)
                              : grundy_extend(gt, target, err);
        if (grundy_count(gt) > have) {
            CgtError serr;
            if (grundy_save(gt, ckpt, &serr) != CGT_OK) {
                fprintf(stderr, "error: %s\n", serr.msg);
                exit(1);
            }
            fprintf(stderr, "saved %llu values to %s at %.2f s of CPU\n",
                    (unsigned long long)grundy_count(gt), ckpt, cgt_cpu_seconds());
        }
        if (st != CGT_OK || grundy_count(gt) >= n ||
            (period && per->status == PERIOD_PROVED))
            return st;
    }
}

int main(int argc, char **argv)
{
    unsigned compact = 0, threads = 1, simd = 1, x512 = 1, spill = 1, bits = 1, backoff = 1;
    unsigned rankw = 4;
    unsigned long long from = 0;
    double cpu_budget = 0;
    const char *ckpt = NULL;
    for (int i = 4; i < argc; i++)
        if (strncmp(argv[i], "ckpt=", 5) == 0 && argv[i][5])
            ckpt = argv[i] + 5;
        else if (sscanf(argv[i], "compact=%u", &compact) != 1 &&
            (sscanf(argv[i], "threads=%u", &threads) != 1 || threads < 1) &&
            sscanf(argv[i], "simd=%u", &simd) != 1 && sscanf(argv[i], "x512=%u", &x512) != 1 &&
            sscanf(argv[i], "spill=%u", &spill) != 1 && sscanf(argv[i], "bits=%u", &bits) != 1 &&
            sscanf(argv[i], "from=%llu", &from) != 1 &&
            sscanf(argv[i], "backoff=%u", &backoff) != 1 &&
            sscanf(argv[i], "rankw=%u", &rankw) != 1 &&
            (sscanf(argv[i], "cpu=%lf", &cpu_budget) != 1 || !(cpu_budget > 0) ||
             cpu_budget > CGT_MAX_TIMEOUT))
            argc = 0;
    if (argc < 4 || argc > 15) {
        fprintf(stderr,
                "usage: %s period|values CODE N [compact=C] [threads=T] [simd=0|1] [x512=0|1] "
                "[spill=0|1] [bits=0|1] [from=F] [backoff=0|1] [cpu=S] [rankw=0..4] [ckpt=FILE]\n",
                argv[0]);
        return 2;
    }
    Ruleset *rs = NULL;
    CgtError err;
    if (ruleset_parse_code(argv[2], &rs, NULL, &err) != CGT_OK) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    uint64_t n = strtoull(argv[3], NULL, 10);
    GrundyTable *gt = grundy_new(rs);
    if (compact)
        grundy_set_compact(gt, 1, compact);
    grundy_set_threads(gt, threads);
    grundy_set_spill(gt, spill != 0);
    grundy_set_bitsets(gt, bits != 0);
    grundy_set_par_backoff(gt, backoff != 0);
    grundy_set_rank_words(gt, rankw);
    bool avx2 = grundy_set_simd(gt, simd != 0);
    bool avx512 = grundy_set_x512(gt, x512 != 0);
    if (from) {
        grundy_set_threads(gt, 1);
        if (grundy_extend(gt, from, &err) != CGT_OK) {
            fprintf(stderr, "error: %s\n", err.msg);
            return 1;
        }
        grundy_set_threads(gt, threads);
    }
    uint64_t resumed = 0;
    if (ckpt) {
        cgt_catch_stop_signals(NULL);
        if (grundy_load(gt, ckpt, &resumed, &err) != CGT_OK) {
            fprintf(stderr, "error: %s\n", err.msg);
            return 1;
        }
    }
    if (cpu_budget > 0)
        cgt_set_timeout_cpu(cpu_budget);
    double t0 = cgt_now();
    GrundyPeriod per;
    memset(&per, 0, sizeof per);
    CgtStatus st = run_to(gt, strcmp(argv[1], "period") == 0, n, ckpt, &per, &err);
    double t1 = cgt_now();
    /* the CPU budget ran out (not another limit, such as the table bound),
     * or a signal stopped a run that saves its checkpoint: the table keeps
     * every value computed so far */
    bool stopped = cpu_budget > 0 && st == CGT_ERR_LIMIT && cgt_run_limit_reached();
    bool signalled = ckpt && st == CGT_ERR_INTERRUPTED;
    if (st != CGT_OK && !stopped && !signalled) {
        fprintf(stderr, "error: %s\n", err.msg);
        return 1;
    }
    uint32_t mask;
    uint64_t nrare;
    grundy_stats(gt, &mask, &nrare);
    uint64_t rp, sp;
    grundy_work(gt, &rp, &sp);
    printf("%-8s %-7s n=%-9llu time=%.3fs max=%u mask=0x%x rare=%llu", argv[2], argv[1],
           (unsigned long long)grundy_count(gt), t1 - t0, grundy_max(gt), mask,
           (unsigned long long)nrare);
    printf(" last_rare=%llu", (unsigned long long)grundy_last_rare(gt));
    printf(" rare_pairs=%llu scan_pairs=%llu", (unsigned long long)rp, (unsigned long long)sp);
    /* FNV-1a over the values as 4-byte little-endian words: the figure to
     * compare with other solvers and other builds */
    uint64_t hsh = 0xcbf29ce484222325ull;
    static uint32_t buf[65536];
    for (uint64_t i = 0; i < grundy_count(gt); i += 65536) {
        uint64_t c = grundy_count(gt) - i < 65536 ? grundy_count(gt) - i : 65536;
        grundy_copy(gt, i, c, buf);
        for (uint64_t j = 0; j < c; j++)
            for (int b = 0; b < 4; b++) {
                hsh ^= (buf[j] >> (8 * b)) & 0xff;
                hsh *= 0x100000001b3ull;
            }
    }
    printf(" simd=%s", avx512 ? "avx512" : avx2 ? "avx2" : "base");
    printf(" hash=%016llx bytes=%zu (%.3f per value) spilled=%llu", (unsigned long long)hsh,
           grundy_bytes(gt), (double)grundy_bytes(gt) / (double)(grundy_count(gt) ? grundy_count(gt) : 1),
           (unsigned long long)grundy_spill_bytes(gt));
    if (strcmp(argv[1], "period") == 0)
        printf(" status=%d period=%llu preperiod=%llu proof_n=%llu", (int)per.status,
               (unsigned long long)per.period, (unsigned long long)per.preperiod,
               (unsigned long long)per.proof_n);
    if (stopped)
        printf(" stopped=cpu");
    if (signalled)
        printf(" stopped=signal");
    if (ckpt)
        printf(" resumed=%llu", (unsigned long long)resumed);
    if (threads > 1) {
        uint64_t runs, dropped;
        double cpu[GRUNDY_PAR_CPU], wait[GRUNDY_PAR_CPU];
        grundy_par_stats(gt, &runs, &dropped, cpu, wait, GRUNDY_PAR_CPU);
        printf(" stretches=%llu dropped=%llu cpu=", (unsigned long long)runs,
               (unsigned long long)dropped);
        for (unsigned i = 0; i < threads && i < GRUNDY_PAR_CPU; i++)
            printf("%s%.2f", i ? "," : "", cpu[i]);
        printf(" waited=");
        for (unsigned i = 0; i < threads && i < GRUNDY_PAR_CPU; i++)
            printf("%s%.2f", i ? "," : "", wait[i]);
    }
    printf("\n");
    grundy_free(gt);
    ruleset_free(rs);
    return 0;
}
