/* The AVX2 copy of the Grundy engine's inner loops (src/lib/grundy/grundy.c,
 * grundy_set_simd), alone and with its AVX-512 loops (src/lib/grundy/grundy_x512.c,
 * grundy_set_x512), against the baseline copy: on every code of
 * test_grundy_par.c's list (and a few with several split amounts) every
 * value, the mask, the rare heaps and the work counters must be the same,
 * on one thread and on two, and so must a period proof.  The default (the
 * widest the processor has) is the copy that test_games.c and
 * tests/oracle/octal_values check against naive mex loops, so this test
 * carries their check over to the narrower copies, which other machines
 * run.  On a machine without AVX2 (or AVX-512) the missing copy falls back
 * to the next narrower one and the test says so. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grundy/grundy.h"
#include "lib/heap/ruleset.h"
#include "unit.h"
#include "grundy_same.h"

/* level 0: baseline, 1: AVX2, 2: AVX2 and AVX-512; bits: the one-word bit
 * sets of small values (grundy_set_bitsets) */
static GrundyTable *run_bits(const Ruleset *rs, int level, unsigned T, uint64_t N, bool bits)
{
    GrundyTable *gt = grundy_new(rs);
    grundy_set_bitsets(gt, bits);
    grundy_set_simd(gt, level > 0);
    grundy_set_x512(gt, level > 1);
    grundy_set_threads(gt, T);
    CgtError err;
    if (grundy_extend(gt, N, &err) != CGT_OK) {
        fprintf(stderr, "extend: %s\n", err.msg);
        exit(2);
    }
    return gt;
}

static GrundyTable *run(const Ruleset *rs, int level, unsigned T, uint64_t N)
{
    return run_bits(rs, level, T, N, true);
}

static void same(const char *c, const GrundyTable *a, const GrundyTable *b, int level)
{
    grundy_same(c, "the baseline", level > 1 ? "AVX-512" : "AVX2", a, b, true);
}

static void test_codes(void)
{
    static const struct {
        const char *c;
        uint64_t n;
    } cs[] = {
        {"0.6", 70000},    {"0.14", 160000}, {"0.56", 40000},  {"0.354", 40000},
        {"0.376", 40000},  {"0.1777", 40000}, {"0.454", 40000}, {"0.16", 40000},
        {"0.127", 40000},  {"0.106", 40000},  {"0.137", 20000}, {"4.07", 20000},
        {"0.51", 20000},   {"0.165", 20000},  {"0.4", 20000},   {"0.77", 20000},
        /* several split amounts: the scans of two to six remainders */
        {"0.7777", 20000}, {"0.0404", 30000}, {"0.666666", 10000},
        /* two-byte values past 511 (the AVX-512 scan's two-table permute):
         * 0.416 from heap 5399, 4.007 and 0.366 pass 512 within the run;
         * past 1023 (two two-table permutes): 0.564 */
        {"0.416", 20000},  {"4.007", 60000},  {"0.366", 60000}, {"0.564", 20000},
    };
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        Ruleset *rs = code(cs[i].c);
        GrundyTable *base = run(rs, 0, 1, cs[i].n);
        CHECK(!grundy_set_simd(base, false));
        for (int level = 1; level <= 2; level++)
            for (unsigned T = 1; T <= 2; T++) {
                GrundyTable *x = run(rs, level, T, cs[i].n);
                same(cs[i].c, base, x, level);
                grundy_free(x);
            }
        grundy_free(base);
        ruleset_free(rs);
    }
}

/* One-byte codes whose values pass 63 take the bit sets by default (with
 * AVX-512 even 0.14's 1895 rare positions): with them off, the byte rows'
 * loops of every copy against the baseline's, and the bit sets against the
 * byte rows in the widest copy. */
static void test_byte_rows(void)
{
    static const struct {
        const char *c;
        uint64_t n;
    } cs[] = {{"0.14", 80000}, {"0.376", 40000}, {"0.56", 40000}, {"0.354", 40000}};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        Ruleset *rs = code(cs[i].c);
        GrundyTable *base = run_bits(rs, 0, 1, cs[i].n, false);
        for (int level = 1; level <= 2; level++) {
            GrundyTable *x = run_bits(rs, level, 1, cs[i].n, false);
            same(cs[i].c, base, x, level);
            grundy_free(x);
        }
        GrundyTable *b = run_bits(rs, 2, 1, cs[i].n, true);
        grundy_same(cs[i].c, "the byte rows", "the bit sets", base, b, true);
        grundy_free(b);
        grundy_free(base);
        ruleset_free(rs);
    }
}

/* Two-byte codes past twice their last rare heap take the AVX-512 batch in
 * words of ranks: with 0 words (the byte rows' batch), 1 and 2 (most heaps
 * of Officers then mark their pairs one by one: mc is past the words) and
 * the default, on one thread and two, against the baseline. */
static void test_rank_words(void)
{
    static const struct {
        const char *c;
        uint64_t n;
    } cs[] = {{"0.6", 70000}, {"0.404", 60000}, {"0.774", 40000}};
    static const unsigned words[] = {0, 1, 2, 4};
    for (size_t i = 0; i < sizeof cs / sizeof *cs; i++) {
        Ruleset *rs = code(cs[i].c);
        GrundyTable *base = run(rs, 0, 1, cs[i].n);
        for (size_t k = 0; k < sizeof words / sizeof *words; k++)
            for (unsigned T = 1; T <= 2; T++) {
                GrundyTable *x = grundy_new(rs);
                grundy_set_rank_words(x, words[k]);
                grundy_set_threads(x, T);
                CgtError err;
                CHECK(grundy_extend(x, cs[i].n, &err) == CGT_OK);
                CHECK_EQ_INT(grundy_width(x), 2);
                same(cs[i].c, base, x, 2);
                grundy_free(x);
            }
        grundy_free(base);
        ruleset_free(rs);
    }
}

/* 0.56: period 144, preperiod 326640, proved by the baseline copy and by
 * the widest (both in the bit sets, which leave 29 heaps to the byte rows). */
static void test_period(void)
{
    Ruleset *rs = code("0.56");
    GrundyPeriod p[2];
    CgtError err;
    GrundyTable *t[2];
    for (int s = 0; s < 2; s++) {
        t[s] = grundy_new(rs);
        grundy_set_simd(t[s], s == 1); /* and AVX-512 where there is one */
        CHECK(grundy_run_period(t[s], 1000000, &p[s], &err) == CGT_OK);
    }
    CHECK_EQ_INT(p[0].status, PERIOD_PROVED);
    CHECK_EQ_INT(p[1].status, p[0].status);
    CHECK_EQ_INT(p[1].period, 144);
    CHECK_EQ_INT(p[0].period, 144);
    CHECK_EQ_INT(p[1].preperiod, p[0].preperiod);
    CHECK_EQ_INT(p[1].proof_n, p[0].proof_n);
    CHECK_EQ_INT(p[1].last_exceptional, p[0].last_exceptional);
    same("0.56 period", t[0], t[1], 2);
    grundy_free(t[0]);
    grundy_free(t[1]);
    ruleset_free(rs);
}

int main(void)
{
    Ruleset *rs = code("0.6");
    GrundyTable *gt = grundy_new(rs);
    if (!grundy_set_simd(gt, true))
        fprintf(stderr, "test_grundy_simd: no AVX2 copy on this machine; baseline against "
                        "baseline\n");
    else if (!grundy_set_x512(gt, true))
        fprintf(stderr, "test_grundy_simd: no AVX-512 loops on this machine; the AVX2 copy "
                        "twice\n");
    grundy_free(gt);
    ruleset_free(rs);
    test_codes();
    test_byte_rows();
    test_rank_words();
    test_period();
    UNIT_MAIN_END();
}
