/* Heaps past 2^32 in the Grundy engine (for runs to 10^10 values; the
 * engine's heap indices are 64-bit, its bound GRUNDY_TABLE_BOUND = 2^40).
 *
 * Quick tier: the bound is refused with the table-bound error and leaves
 * the table as it was.
 *
 * Slow tier (CGT_SLOW): two codes with published periods are computed to
 * 2^32 + 2^20 heaps, and every value of the window [2^32 - 2^20, 2^32 +
 * 2^20) must equal the periodic continuation G(pre + (n - pre) mod p) read
 * from the table's own early values, which were computed with indices far
 * below 2^32.  An index that wrapped at 2^32 anywhere in a pair scan, a
 * batch of rare pairs, a block, the compressed middle or the parallel
 * stretches would read G(n - 2^32) instead, and the window would not be
 * periodic (2^32 is no multiple of either period).
 *   0.56: period 144, preperiod 326640 (Gangolli and Plambeck 1989;
 *         T. Czajka's table of solved games), on two threads: the byte
 *         path (its values reach 64), the parallel stretches, the compressed middle and its spill
 *         file.
 *   0.1777: period 60620715, preperiod 160949018 (A. Flammenkamp; OEIS
 *         A071509), one thread: the bit-set path (values below 64).
 * About 40 minutes of CPU (48 minutes wall on a machine with one core taken
 * by another program) and up to 2 GB of spill file in $TMPDIR or /tmp. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grundy/grundy.h"
#include "lib/heap/ruleset.h"
#include "unit.h"

static Ruleset *code(const char *c) {
  Ruleset *rs;
  CgtError err;
  if (ruleset_parse_code(c, &rs, NULL, &err) != CGT_OK) {
    fprintf(stderr, "%s: %s\n", c, err.msg);
    exit(2);
  }
  return rs;
}

static void test_bound(void) {
  Ruleset *rs = code("0.56");
  GrundyTable *gt = grundy_new(rs);
  CgtError err;
  CHECK(grundy_extend(gt, 1000, &err) == CGT_OK);
  CHECK(grundy_extend(gt, GRUNDY_TABLE_BOUND + 1, &err) == CGT_ERR_LIMIT);
  CHECK(strstr(err.msg, "past the table bound (heaps below 1099511627776") !=
        NULL);
  CHECK_EQ_INT(grundy_count(gt), 1000);
  grundy_free(gt);
  ruleset_free(rs);
}

static void test_past_2_32(const char *c, uint64_t p, uint64_t pre,
                           unsigned threads) {
  const uint64_t N = ((uint64_t)1 << 32) + ((uint64_t)1 << 20);
  const uint64_t lo = ((uint64_t)1 << 32) - ((uint64_t)1 << 20);
  Ruleset *rs = code(c);
  GrundyTable *gt = grundy_new(rs);
  grundy_set_threads(gt, threads);
  CgtError err;
  CgtStatus st = grundy_extend(gt, N, &err);
  CHECK(st == CGT_OK);
  if (st != CGT_OK)
    fprintf(stderr, "%s: %s\n", c, err.msg);
  CHECK_EQ_INT(grundy_count(gt), N);
  uint64_t bad = 0, first = 0;
  for (uint64_t n = lo; n < grundy_count(gt); n++)
    if (grundy_get(gt, n) != grundy_get(gt, pre + (n - pre) % p) && bad++ == 0)
      first = n;
  if (bad)
    fprintf(stderr,
            "%s: %llu values of the window off the period, the first at heap "
            "%llu\n",
            c, (unsigned long long)bad, (unsigned long long)first);
  CHECK_EQ_INT(bad, 0);
  grundy_free(gt);
  ruleset_free(rs);
}

int main(void) {
  test_bound();
  if (getenv("CGT_SLOW")) {
    test_past_2_32("0.56", 144, 326640, 2);
    test_past_2_32("0.1777", 60620715, 160949018, 1);
  }
  UNIT_MAIN_END();
}
