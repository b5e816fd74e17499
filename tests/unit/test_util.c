/* Unit tests for src/lib/util/ and the heap-option container. */
#include <stdlib.h>

#include "lib/heap/heapgame.h"
#include "lib/rewrite/word.h"
#include "unit.h"
#include "lib/util/crc64.h"
#include "lib/util/poll.h"
#include "lib/util/rng.h"

int main(void)
{
    Rng a, b;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    int same = 1;
    for (int i = 0; i < 100; i++)
        same &= rng_next(&a) == rng_next(&b);
    CHECK(same);
    for (int i = 0; i < 1000; i++)
        CHECK(rng_below(&a, 7) < 7);

    /* a poll budget runs out at its n-th poll and stays out; a nested one
       is charged to the outer; neither is a run limit */
    CgtPollBudget outer = cgt_poll_budget_push(10);
    CgtPollBudget inner = cgt_poll_budget_push(4);
    int ok = 0;
    while (cgt_poll() == CGT_OK)
        ok++;
    CHECK_EQ_INT(ok, 4);
    CHECK(cgt_poll() == CGT_ERR_LIMIT);
    CHECK(cgt_poll_budget_pop(inner));
    CHECK(!cgt_run_limit_reached());
    ok = 0;
    while (cgt_poll() == CGT_OK)
        ok++;
    CHECK_EQ_INT(ok, 6);
    CHECK(cgt_poll_budget_pop(outer));
    CHECK(cgt_poll() == CGT_OK);

    HeapOptions o;
    heapopts_init(&o);
    uint32_t p1[] = {3, 0, 1}, p2[] = {1, 3}, p3[] = {0};
    heapopts_add(&o, p1, 3);
    heapopts_add(&o, p2, 2);
    heapopts_add(&o, p3, 1);
    CHECK_EQ_INT(o.count, 3);
    CHECK_EQ_INT(o.start[1] - o.start[0], 2);
    CHECK_EQ_INT(o.parts[0], 1);
    heapopts_canonicalize(&o);
    CHECK_EQ_INT(o.count, 2);
    CHECK_EQ_INT(o.start[1], 0); /* empty option first */
    heapopts_free(&o);

    const char *names[] = {"x", "z", "w"};
    uint32_t w[] = {2, 1, 0};
    char *s0 = word_format(w, 3, (char *const *)names);
    CHECK_EQ_STR(s0, "x^2z");
    free(s0);
    uint32_t e[] = {0, 0, 0};
    s0 = word_format(e, 3, (char *const *)names);
    CHECK_EQ_STR(s0, "1");
    free(s0);
    /* multi-letter names side by side: prefix-free, so it reads back */
    const char *ln[] = {"x1", "x2", "y"};
    uint32_t w2[] = {3, 1, 12};
    s0 = word_format(w2, 3, (char *const *)ln);
    CHECK_EQ_STR(s0, "x1^3x2y^12");
    free(s0);
    /* CRC-64/XZ check value (the catalogue's "123456789" test) and
     * piecewise feeding */
    CHECK(crc64_update(0, "123456789", 9) == 0x995dc9bbdf1939faULL);
    CHECK(crc64_update(crc64_update(0, "1234", 4), "56789", 5) == 0x995dc9bbdf1939faULL);
    CHECK(crc64_update(0, "", 0) == 0);
    UNIT_MAIN_END();
}
