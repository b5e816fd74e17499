/* Shared by the Grundy engine's path-against-path unit tests
 * (test_grundy_par.c: threads against one thread; test_grundy_simd.c: the
 * AVX2 copy against the baseline): a code's ruleset, and the comparison of
 * two tables.  Include after unit.h. */
#ifndef CGT_TESTS_GRUNDY_SAME_H
#define CGT_TESTS_GRUNDY_SAME_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/grundy/grundy.h"
#include "lib/heap/ruleset.h"

static Ruleset *code(const char *c)
{
    Ruleset *rs = NULL;
    CgtError err;
    if (ruleset_parse_code(c, &rs, NULL, &err) != CGT_OK) {
        fprintf(stderr, "bad code %s: %s\n", c, err.msg);
        exit(2);
    }
    return rs;
}

/* Tables a (path na) and b (path nb) of code c hold the same values, mask,
 * rare heaps, largest value and width, and with `work` the same work
 * counters. */
static void grundy_same(const char *c, const char *na, const char *nb, const GrundyTable *a,
                        const GrundyTable *b, bool work)
{
    uint64_t N = grundy_count(a);
    CHECK_EQ_INT(grundy_count(b), N);
    uint64_t bad = UINT64_MAX;
    for (uint64_t i = 0; i < N && bad == UINT64_MAX; i++)
        if (grundy_get(a, i) != grundy_get(b, i))
            bad = i;
    if (bad != UINT64_MAX)
        fprintf(stderr, "%s: heap %llu: %u with %s, %u with %s\n", c, (unsigned long long)bad,
                grundy_get(a, bad), na, grundy_get(b, bad), nb);
    CHECK(bad == UINT64_MAX);
    uint32_t ma, mb;
    uint64_t ra, rb, pa, pb, sa, sb;
    grundy_stats(a, &ma, &ra);
    grundy_stats(b, &mb, &rb);
    CHECK_EQ_INT(mb, ma);
    CHECK_EQ_INT(rb, ra);
    CHECK_EQ_INT(grundy_last_rare(b), grundy_last_rare(a));
    CHECK_EQ_INT(grundy_max(b), grundy_max(a));
    CHECK_EQ_INT(grundy_width(b), grundy_width(a));
    grundy_work(a, &pa, &sa);
    grundy_work(b, &pb, &sb);
    if (work && (pa != pb || sa != sb))
        fprintf(stderr, "%s: rare/scan pairs %llu/%llu with %s, %llu/%llu with %s\n", c,
                (unsigned long long)pa, (unsigned long long)sa, na, (unsigned long long)pb,
                (unsigned long long)sb, nb);
    CHECK(!work || (pa == pb && sa == sb));
}

#endif
