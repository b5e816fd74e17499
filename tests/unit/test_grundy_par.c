/* Parallel stretches of the Grundy engine (src/lib/grundy/grundy_par.c,
 * docs/games.md §2 "Two threads") against the one-thread engine, which test_games.c and
 * tests/oracle/octal_values check against naive mex loops: with 2 and 3
 * threads every value, the mask, the rare heaps, the work counters, a
 * period proof and the checkpoint file must be the ones of one thread.
 * The runs cross mask re-choices (at 8192, 16384, ..., 65536 past the first
 * stretch at heap 4096), new largest values and rare heaps inside
 * stretches (a rare heap is found by a failed scan after later heaps were
 * computed on its speculative value; both end a stretch), the widening of
 * Officers' table to two bytes, extension in odd steps, and the compressed
 * middle with tiny chunks (deep scans through the shared decoder).  Each
 * threaded run must have run stretches, except for the codes that keep to
 * the bit-set path (src/lib/grundy/grundy_bits.h), which stays serial: those must
 * have run none.  0.14, 0.56, 0.354 and 0.376 (values from 64 to 255,
 * mostly in the bit sets) are also run with the bit sets off on 2 and 3
 * threads, so that their stretches run, and compared with the one-thread
 * bit-set run: the byte rows and the bit sets must agree too.  Every
 * threaded run is made twice: with the back-off after short stretches
 * (the default) and without it, where a stretch starts again after every
 * event, so that the early heaps of each code (a rare heap every few
 * heaps) run the speculative paths hundreds of times. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grundy/grundy.h"
#include "lib/heap/ruleset.h"
#include "unit.h"
#include "grundy_same.h"

/* A run of one code: table of N values computed with T threads, in steps
 * of `step` heaps (0: one call), compacted from heap 1 in chunks of 2^cl
 * values when cl > 0; the back-off after short stretches on or off. */
static GrundyTable *run_full(const Ruleset *rs, unsigned T, uint64_t N, uint64_t step,
                             unsigned cl, bool bits, bool backoff)
{
    GrundyTable *gt = grundy_new(rs);
    grundy_set_threads(gt, T);
    grundy_set_bitsets(gt, bits);
    grundy_set_par_backoff(gt, backoff);
    if (cl)
        grundy_set_compact(gt, 1, cl);
    CgtError err;
    uint64_t n = step ? step : N;
    for (;; n += step) {
        if (n > N)
            n = N;
        if (grundy_extend(gt, n, &err) != CGT_OK) {
            fprintf(stderr, "extend: %s\n", err.msg);
            exit(2);
        }
        if (n == N)
            break;
    }
    return gt;
}

static GrundyTable *run(const Ruleset *rs, unsigned T, uint64_t N, uint64_t step, unsigned cl)
{
    return run_full(rs, T, N, step, cl, true, false);
}

/* The stretches a table's threaded runs started. */
static uint64_t stretches(const GrundyTable *gt)
{
    uint64_t runs, dropped;
    double cpu[GRUNDY_PAR_CPU];
    grundy_par_stats(gt, &runs, &dropped, cpu, NULL, GRUNDY_PAR_CPU);
    return runs;
}

/* Same values and statistics, and with `work` the same work counters (a
 * compressed middle counts its deep scans pair by pair: other counts than
 * a flat table's); returns the stretches run by b. */
static uint64_t same_as(const char *c, const GrundyTable *a, const GrundyTable *b, bool work)
{
    grundy_same(c, "one thread", "threads", a, b, work);
    return stretches(b);
}

static uint64_t same(const char *c, const GrundyTable *a, const GrundyTable *b)
{
    return same_as(c, a, b, true);
}

static void test_codes(void)
{
    /* the codes of tests/oracle/octal_values and test_games.c's list */
    static const struct {
        const char *c;
        uint64_t n;
        int par; /* 1: stretches must run; 0: the code stays serial; 2:
                  * stretches run where blocks leave the bit sets (a heap in
                  * 64 done again), and must run with the bit sets off */
    } cs[] = {
        {"0.6", 70000, 1},    {"0.14", 160000, 2}, {"0.56", 40000, 2},  {"0.354", 40000, 2},
        {"0.376", 40000, 2},  {"0.1777", 40000, 0}, {"0.454", 40000, 0}, {"0.16", 40000, 0},
        {"0.127", 40000, 0},  {"0.106", 40000, 0},  {"0.137", 20000, 0}, {"4.07", 20000, 0},
        {"0.51", 20000, 0},   {"0.165", 20000, 0},  {"0.4", 20000, 0},   {"0.77", 20000, 0},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        Ruleset *rs = code(cs[i].c);
        GrundyTable *one = run(rs, 1, cs[i].n, 0, 0);
        for (unsigned T = 2; T <= 3; T++)
            for (int bo = 0; bo <= 1; bo++) {
                GrundyTable *t = run_full(rs, T, cs[i].n, 0, 0, true, bo);
                uint64_t runs = same(cs[i].c, one, t);
                if (cs[i].par == 1)
                    CHECK(runs > 0);
                else if (cs[i].par == 0)
                    CHECK_EQ_INT(runs, 0);
                grundy_free(t);
                if (cs[i].par == 2) {
                    t = run_full(rs, T, cs[i].n, 0, 0, false, bo);
                    CHECK(same(cs[i].c, one, t) > 0);
                    grundy_free(t);
                }
            }
        grundy_free(one);
        ruleset_free(rs);
    }
}

/* The back-off: Officers' first 20627 heaps have a rare heap every ten or
 * so, each of which ends a stretch; without the back-off a stretch starts
 * again after each (about 1700 of them to 70000), with it the serial loop
 * takes most of those heaps (9 stretches here).  The counts do not depend
 * on timing: a stretch ends at the least failed heap or event heap, and the
 * back-off is decided by the committed heaps' work counters. */
static void test_backoff(void)
{
    Ruleset *rs = code("0.6");
    GrundyTable *off = run_full(rs, 2, 70000, 0, 0, true, false);
    GrundyTable *on = run_full(rs, 2, 70000, 0, 0, true, true);
    uint64_t r_off = stretches(off), r_on = stretches(on);
    CHECK(r_off > 1000);
    CHECK(r_on > 0 && r_on < 100);
    CHECK(same("0.6 back-off", off, on) > 0);
    grundy_free(off);
    grundy_free(on);
    ruleset_free(rs);
    /* 0.76 has a rare heap every few heaps throughout (9822 of the
     * first 30000): without the back-off 8354 stretches, 36 times the time
     * of one thread */
    rs = code("0.76");
    GrundyTable *one = run_full(rs, 1, 30000, 0, 0, true, true);
    on = run_full(rs, 2, 30000, 0, 0, true, true);
    r_on = stretches(on);
    CHECK(r_on > 0 && r_on < 100);
    same("0.76 back-off", one, on);
    grundy_free(one);
    grundy_free(on);
    ruleset_free(rs);
}

/* Odd steps (stretches end at every target) and the compressed middle. */
static void test_steps_compact(void)
{
    Ruleset *rs = code("0.6");
    GrundyTable *one = run(rs, 1, 40000, 0, 0);
    GrundyTable *t = run(rs, 2, 40000, 777, 0);
    CHECK(same("0.6 steps", one, t) > 0);
    grundy_free(t);
    GrundyTable *c1 = run(rs, 1, 25000, 0, 10), *c2 = run(rs, 2, 25000, 0, 10);
    CHECK(grundy_bytes(c1) < 25000 * 2); /* the middle is compressed */
    CHECK_EQ_INT(grundy_bytes(c2), grundy_bytes(c1));
    GrundyTable *flat = run(rs, 1, 25000, 0, 0);
    CHECK(same_as("0.6 compact", flat, c2, false) > 0);
    grundy_free(flat);
    CHECK(same("0.6 compact", c1, c2) > 0);
    grundy_free(c1);
    grundy_free(c2);
    grundy_free(one);
    ruleset_free(rs);
}

/* A period proof (0.56: period 144, preperiod 326640; in the bit sets on
 * one thread, on the byte rows in stretches once a value reaches 64 on two
 * with the bit sets off) and the checkpoint files of one and two threads. */
static void test_period_ckpt(void)
{
    Ruleset *rs = code("0.56");
    GrundyPeriod p1, p2;
    CgtError err;
    GrundyTable *a = grundy_new(rs), *b = grundy_new(rs);
    grundy_set_threads(b, 2);
    grundy_set_bitsets(b, false);
    CHECK(grundy_run_period(a, 1000000, &p1, &err) == CGT_OK);
    CHECK(grundy_run_period(b, 1000000, &p2, &err) == CGT_OK);
    CHECK_EQ_INT(p1.status, PERIOD_PROVED);
    CHECK_EQ_INT(p2.status, p1.status);
    CHECK_EQ_INT(p2.period, p1.period);
    CHECK_EQ_INT(p2.preperiod, p1.preperiod);
    CHECK_EQ_INT(p2.proof_n, p1.proof_n);
    CHECK_EQ_INT(p2.last_exceptional, p1.last_exceptional);
    CHECK(same("0.56 period", a, b) > 0);
    char fa[512], fb[512];
    unit_tmp_path(fa, sizeof fa, "par-a.ck");
    unit_tmp_path(fb, sizeof fb, "par-b.ck");
    CHECK(grundy_save(a, fa, &err) == CGT_OK);
    CHECK(grundy_save(b, fb, &err) == CGT_OK);
    FILE *x = fopen(fa, "rb"), *y = fopen(fb, "rb");
    CHECK(x && y);
    int cx, cy;
    long len = 0;
    bool eq = x && y;
    while (eq) {
        cx = getc(x);
        cy = getc(y);
        eq = cx == cy;
        if (cx == EOF)
            break;
        len++;
    }
    CHECK(eq);
    CHECK(len > (long)p1.proof_n);
    if (x)
        fclose(x);
    if (y)
        fclose(y);
    unlink(fa);
    unlink(fb);
    grundy_free(a);
    grundy_free(b);
    ruleset_free(rs);
}

/* Without the AVX-512 loops (grundy_set_x512 off) a stretch hands each
 * heap's row to the scanning thread through the portable bit packing
 * (grundy_row_pack), and the scans run the byte loops: the values and
 * counters must be the serial loop's with the AVX-512 loops, for Officers
 * (byte rows from heap 41,256 on) and 0.14 with the bit sets off. */
static void test_portable(void)
{
    static const struct {
        const char *c;
        uint64_t n;
    } cs[] = {{"0.6", 70000}, {"0.14", 100000}};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        Ruleset *rs = code(cs[i].c);
        GrundyTable *one = run_full(rs, 1, cs[i].n, 0, 0, false, false);
        GrundyTable *t = grundy_new(rs);
        grundy_set_threads(t, 2);
        grundy_set_bitsets(t, false);
        grundy_set_x512(t, false);
        CgtError err;
        CHECK(grundy_extend(t, cs[i].n, &err) == CGT_OK);
        CHECK(same(cs[i].c, one, t) > 0);
        grundy_free(t);
        grundy_free(one);
        ruleset_free(rs);
    }
}

/* The rows the scanning thread rebuilds from mc (class_row in
 * src/lib/grundy/grundy_par.c: every Officers heap past twice its last rare heap,
 * 20627).  A rebuilt row that marks a seen value missing makes the scan
 * walk on until some pair gives that value, or fail (then the stretch
 * ends there and the heap is done again serially); one that leaves a
 * missing value out stops the scan early, and misses the rare heaps.  The
 * values and both work counters catch either (each was tried: 39 checks
 * failed, this test's among them).  The stretches are counted too (they
 * do not depend on timing; without the back-off a stretch starts again
 * after every failed scan): Officers has no rare heap and few new largest
 * values from 70000 to 200000, 4 more stretches (progress lines and
 * largest values), where a failing scan per heap would give about
 * 130000. */
static void test_class_rows(void)
{
    Ruleset *rs = code("0.6");
    GrundyTable *one = run_full(rs, 1, 200000, 0, 0, true, false);
    GrundyTable *a = run_full(rs, 2, 70000, 0, 0, true, false);
    GrundyTable *b = run_full(rs, 2, 200000, 0, 0, true, false);
    uint64_t ra = stretches(a), rb = stretches(b);
    CHECK(rb >= ra && rb - ra < 50);
    CHECK(same("0.6 class rows", one, b) > 0);
    grundy_free(one);
    grundy_free(a);
    grundy_free(b);
    ruleset_free(rs);
}

int main(void)
{
    test_codes();
    test_class_rows();
    test_portable();
    test_backoff();
    test_steps_compact();
    test_period_ckpt();
    UNIT_MAIN_END();
}
