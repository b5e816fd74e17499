/* Tests of the construction's packed option lists (src/lib/misere/mqopts.c,
 * MqOpts in mqint.h): for every heap, reading the packed runs back gives
 * the game's own list, option by option in the game's order, on octal,
 * hexadecimal and subtraction rulesets and on random lists (any number of
 * parts, runs broken anywhere, repeated options); a part not below its
 * heap is refused; and a take-and-break game's lists stay linear in the
 * heaps kept (Kayles to heap 3000 in under 100 words a heap, where the
 * plain list of heap 3000 alone has about 3000 options). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/heap/ruleset.h"
#include "lib/misere/mqint.h"
#include "unit.h"

/* Every heap 0..nh-1 of o read back equals g's list for it. */
static bool same_lists(const MqOpts *o, const HeapGame *g, uint32_t nh)
{
    HeapOptions ref;
    heapopts_init(&ref);
    CgtError err;
    bool ok = o->nh >= nh;
    for (uint32_t h = 0; h < nh && ok; h++) {
        heapopts_clear(&ref);
        if (g->options(g->ctx, h, &ref, &err) != CGT_OK)
            ok = false;
        MqOptIt it;
        mqopt_begin(&it, &o->o[h]);
        const uint32_t *parts;
        uint32_t k;
        size_t i = 0;
        while (ok && (parts = mqopt_next(&it, &k))) {
            ok = i < ref.count && k == ref.start[i + 1] - ref.start[i] &&
                 (k == 0 || memcmp(parts, ref.parts + ref.start[i], k * sizeof *parts) == 0);
            i++;
        }
        ok = ok && i == ref.count && o->o[h].count == ref.count;
        if (!ok)
            fprintf(stderr, "heap %u: packed list differs (option %zu)\n", h, i);
    }
    heapopts_free(&ref);
    return ok;
}

static void test_rulesets(void)
{
    const char *codes[] = {"0.77", "0.137", "4.7", "0.56", "0.145", "0.07", "0.4C", "0.3F",
                           "0.123456", "0.6", "4.07"};
    for (size_t c = 0; c < sizeof codes / sizeof *codes; c++) {
        Ruleset *rs;
        CgtError err;
        size_t bad;
        CHECK(ruleset_parse_code(codes[c], &rs, &bad, &err) == CGT_OK);
        MqOpts o = {0};
        CHECK(mqopts_extend(&o, &rs->hg, 150, &err) == CGT_OK);
        CHECK(mqopts_extend(&o, &rs->hg, 301, &err) == CGT_OK); /* in two steps */
        CHECK(same_lists(&o, &rs->hg, 301));
        mqopts_free(&o);
        ruleset_free(rs);
    }
    uint32_t set[] = {1, 3, 4, 9};
    Ruleset *rs;
    CgtError err;
    CHECK(ruleset_subtraction(set, 4, false, &rs, &err) == CGT_OK);
    MqOpts o = {0};
    CHECK(mqopts_extend(&o, &rs->hg, 200, &err) == CGT_OK);
    CHECK(same_lists(&o, &rs->hg, 200));
    mqopts_free(&o);
    ruleset_free(rs);
}

/* A game whose heap h has a pseudo-random list (a function of h and the
 * seed): stretches that follow steps of period 1-9, options of 0-7 parts,
 * repeats, and breaks at any point. */
typedef struct RandGame {
    uint64_t seed;
    bool bad; /* heap 5 gets a part equal to 5 */
} RandGame;

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static CgtStatus rand_options(void *ctx, uint32_t h, HeapOptions *out, CgtError *err)
{
    (void)err;
    const RandGame *rg = ctx;
    heapopts_clear(out);
    if (h == 0)
        return CGT_OK;
    uint64_t s = rg->seed * 0x9e3779b97f4a7c15ULL + h + 1;
    uint32_t nopt = (uint32_t)(rnd(&s) % 40);
    uint32_t parts[8], step[9][8];
    while (nopt > 0) {
        uint32_t k = (uint32_t)(rnd(&s) % 8), p = 1 + (uint32_t)(rnd(&s) % 9);
        uint32_t len = 1 + (uint32_t)(rnd(&s) % 12);
        for (uint32_t q = 0; q < k; q++)
            parts[q] = (uint32_t)(rnd(&s) % h);
        for (uint32_t t = 0; t < p; t++)
            for (uint32_t q = 0; q < k; q++)
                step[t][q] = (uint32_t)(rnd(&s) % 3) - 1; /* -1, 0 or 1 */
        for (uint32_t r = 0; r < len && nopt > 0; r++, nopt--) {
            bool fits = true;
            for (uint32_t q = 0; q < k; q++)
                fits = fits && parts[q] < h;
            if (!fits)
                break;
            heapopts_push(out, parts, k);
            for (uint32_t q = 0; q < k; q++)
                parts[q] += step[r % p][q];
        }
    }
    if (rg->bad && h == 5) {
        uint32_t x = 5;
        heapopts_add(out, &x, 1);
    }
    return CGT_OK;
}

static void test_random(void)
{
    for (uint64_t seed = 1; seed <= 20; seed++) {
        RandGame rg = {seed, false};
        HeapGame g = {.ctx = &rg, .options = rand_options, .name = "random"};
        MqOpts o = {0};
        CgtError err;
        CHECK(mqopts_extend(&o, &g, 120, &err) == CGT_OK);
        CHECK(same_lists(&o, &g, 120));
        mqopts_free(&o);
    }
    RandGame rg = {7, true};
    HeapGame g = {.ctx = &rg, .options = rand_options, .name = "bad"};
    MqOpts o = {0};
    CgtError err;
    CHECK(mqopts_extend(&o, &g, 20, &err) == CGT_ERR_INTERNAL);
    CHECK(o.nh == 6 && o.o[5].count == 0); /* the refused heap is left empty */
    mqopts_free(&o);
}

static void test_linear(void)
{
    Ruleset *rs;
    CgtError err;
    size_t bad;
    CHECK(ruleset_parse_code("0.77", &rs, &bad, &err) == CGT_OK);
    MqOpts o = {0};
    CHECK(mqopts_extend(&o, &rs->hg, 3001, &err) == CGT_OK);
    size_t words = 0, opts = 0;
    for (uint32_t h = 0; h <= 3000; h++) {
        words += o.o[h].nw;
        opts += o.o[h].count;
    }
    CHECK(opts > 4000000);
    CHECK(words < (size_t)100 * 3001);
    CHECK(o.o[3000].nw < 100);
    CHECK(same_lists(&o, &rs->hg, 3001));
    mqopts_free(&o);
    ruleset_free(rs);
}

int main(void)
{
    test_rulesets();
    test_random();
    test_linear();
    UNIT_MAIN_END();
}
