/* Unit tests for games/ruleset, games/grundy, games/genus, games/outcome.
 * Oracles: published values (Winning Ways ch. 4 and 13, ONAG ch. 12) and a
 * naive mex implementation written here from the code digits, sharing no
 * code with the module.  CGT_SLOW=1 enables the larger cases. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "lib/heap/genus.h"
#include "lib/grundy/grundy.h"
#include "lib/heap/outcome.h"

#include "lib/heap/ruleset.h"
#include "lib/util/rng.h"
#include "lib/util/xalloc.h"
#include "unit.h"

/* ---- naive oracle: G(0..N-1) straight from the code string ---------------- */

static int digit_of(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static int naive_mex(const unsigned char *seen, int lim)
{
    int v = 0;
    while (v < lim && seen[v])
        v++;
    return v;
}

/* Naive Grundy values of a take-and-break code, O(N^2) (O(N^3) with
 * three-heap digits). */
static int *naive_code(const char *code, int N)
{
    int *g = calloc((size_t)N, sizeof *g);
    int nd = (int)strlen(code) - 2; /* digits after the point */
    int d0 = digit_of(code[0]);
    unsigned char *seen = malloc(65536);
    for (int n = 0; n < N; n++) {
        memset(seen, 0, 65536);
        for (int k = 0; k <= nd && k <= n; k++) {
            int d = k == 0 ? (d0 & 12) : digit_of(code[1 + k]);
            int r = n - k;
            if ((d & 1) && r == 0 && k > 0)
                seen[0] = 1;
            if ((d & 2) && r > 0 && k > 0)
                seen[g[r]] = 1;
            if (d & 4)
                for (int a = 1; a <= r - a; a++)
                    seen[g[a] ^ g[r - a]] = 1;
            if (d & 8)
                for (int a = 1; a <= r; a++)
                    for (int b = a; b <= r - a - b; b++)
                        seen[g[a] ^ g[b] ^ g[r - a - b]] = 1;
        }
        g[n] = naive_mex(seen, 65536);
    }
    free(seen);
    return g;
}

/* Grundy's game: split a heap into two unequal heaps. */
static int *naive_grundys_game(int N)
{
    int *g = calloc((size_t)N, sizeof *g);
    unsigned char seen[4096];
    for (int n = 0; n < N; n++) {
        memset(seen, 0, sizeof seen);
        for (int a = 1; 2 * a < n; a++)
            seen[g[a] ^ g[n - a]] = 1;
        g[n] = naive_mex(seen, 4096);
    }
    return g;
}

static Ruleset *code(const char *c)
{
    Ruleset *rs = NULL;
    CgtError err;
    if (ruleset_parse_code(c, &rs, NULL, &err) != CGT_OK) {
        fprintf(stderr, "parse %s: %s\n", c, err.msg);
        exit(1);
    }
    return rs;
}

/* Compare the module's table for `c` with the naive oracle up to N. */
static int cross_check(const char *c, int N)
{
    Ruleset *rs = code(c);
    GrundyTable *gt = grundy_new(rs);
    CgtError err;
    int bad = -1;
    if (grundy_extend(gt, (uint64_t)N, &err) != CGT_OK)
        bad = 0;
    int *ng = naive_code(c, N);
    for (int n = 0; n < N && bad < 0; n++)
        if ((int)grundy_get(gt, (uint64_t)n) != ng[n])
            bad = n;
    if (bad >= 0)
        fprintf(stderr, "%s: mismatch at heap %d: %u vs naive %d\n", c, bad,
                grundy_get(gt, (uint64_t)bad), ng[bad]);
    free(ng);
    grundy_free(gt);
    ruleset_free(rs);
    return bad < 0;
}

static void test_published(void)
{
    /* Winning Ways ch. 4: Kayles and Dawson's Kayles, heaps 1..20. */
    static const int kayles[] = {1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1};
    static const int dawson[] = {0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3};
    CgtError err;
    Ruleset *k = code("0.77"), *d = code("0.07");
    GrundyTable *gk = grundy_new(k), *gd = grundy_new(d);
    CHECK(grundy_extend(gk, 21, &err) == CGT_OK);
    CHECK(grundy_extend(gd, 21, &err) == CGT_OK);
    for (int n = 1; n <= 20; n++) {
        CHECK_EQ_INT(grundy_get(gk, n), kayles[n - 1]);
        CHECK_EQ_INT(grundy_get(gd, n), dawson[n - 1]);
    }
    GrundyPeriod pk, pd;
    CHECK(grundy_run_period(gk, 100000, &pk, &err) == CGT_OK);
    CHECK(grundy_run_period(gd, 100000, &pd, &err) == CGT_OK);
    CHECK_EQ_INT(pk.status, PERIOD_PROVED);
    CHECK_EQ_INT(pk.period, 12);
    CHECK(pk.has_exceptional);
    CHECK_EQ_INT(pk.last_exceptional, 70);
    CHECK_EQ_INT(pk.preperiod, 71);
    CHECK_EQ_INT(pd.status, PERIOD_PROVED);
    CHECK_EQ_INT(pd.period, 34);
    CHECK_EQ_INT(pd.last_exceptional, 52);
    CHECK_EQ_INT(pd.preperiod, 53);
    /* the exceptional list ends at the last exceptional value */
    uint64_t *ex = NULL;
    size_t nex = grundy_exceptional(gk, &pk, &ex);
    CHECK(nex > 0 && ex[nex - 1] == 70);
    free(ex);
    /* huge heaps from the proved period vs the naive oracle on a residue */
    int *nk = naive_code("0.77", 120);
    uint32_t v;
    uint64_t big = 1000000000000000007ULL;
    CHECK(grundy_value_at(gk, &pk, big, &v, &err) == CGT_OK);
    CHECK_EQ_INT(v, nk[72 + (big - 72) % 12]);
    /* periodic table row */
    uint32_t row[12];
    CHECK(grundy_table_row(gk, &pk, 1000, row, &err) == CGT_OK);
    for (int c = 0; c < 12; c++)
        CHECK_EQ_INT(row[c], nk[72 + (12000 + c - 72) % 12]);
    free(nk);
    grundy_free(gk);
    grundy_free(gd);
    ruleset_free(k);
    ruleset_free(d);

    /* subtraction {2,3,7} = 0.0330003: period 5 from 0 */
    Ruleset *s = NULL;
    uint32_t set[] = {7, 2, 3};
    CHECK(ruleset_subtraction(set, 3, false, &s, &err) == CGT_OK);
    CHECK_EQ_STR(ruleset_name(s), "subtraction {2,3,7}");
    GrundyTable *gs = grundy_new(s);
    GrundyPeriod ps;
    CHECK(grundy_run_period(gs, 10000, &ps, &err) == CGT_OK);
    CHECK_EQ_INT(ps.status, PERIOD_PROVED);
    CHECK_EQ_INT(ps.period, 5);
    CHECK_EQ_INT(ps.preperiod, 0);
    CHECK(!ps.has_exceptional);
    int *ns = naive_code("0.0330003", 200);
    for (int n = 0; n < 200; n++)
        CHECK_EQ_INT(grundy_get(gs, n % grundy_count(gs)), ns[n % grundy_count(gs)]);
    for (int n = 0; n < 200; n++) {
        CHECK(grundy_value_at(gs, &ps, (uint64_t)n, &v, &err) == CGT_OK);
        CHECK_EQ_INT(v, ns[n]);
    }
    free(ns);
    grundy_free(gs);
    ruleset_free(s);

    /* Grundy's game (WW ch. 4), n = 0..20, and the naive oracle to 1000 */
    static const int gg[] = {0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0};
    RulesetRange rr = {0, 0};
    MoveRule mr = {&rr, 1, 0, 0, 4, RULE_UNEQUAL, 0};
    Ruleset *gr = NULL;
    CHECK(ruleset_from_rules(&mr, 1, &gr, &err) == CGT_OK);
    GrundyTable *gg_t = grundy_new(gr);
    GrundyPeriod pg;
    CHECK(grundy_run_period(gg_t, 1000, &pg, &err) == CGT_OK);
    CHECK(pg.status != PERIOD_PROVED);
    int *ng = naive_grundys_game(1000);
    for (int n = 0; n <= 20; n++)
        CHECK_EQ_INT(grundy_get(gg_t, n), gg[n]);
    int ok = 1;
    for (int n = 0; n < 1000; n++)
        ok &= (int)grundy_get(gg_t, n) == ng[n];
    CHECK(ok);
    free(ng);
    grundy_free(gg_t);
    ruleset_free(gr);
}

/* G(0..n-1) of a and b agree. */
static bool same_values(const GrundyTable *a, const GrundyTable *b, uint64_t n)
{
    for (uint64_t i = 0; i < n; i++)
        if (grundy_get(a, i) != grundy_get(b, i))
            return false;
    return true;
}

/* Czajka's tables (octal-games repository, SolvedGames.md and
 * UnsolvedGames.md) also give, for the values computed, the largest value
 * and the first heap where it occurs, and the "rare" heaps: n >= 0 with
 * parity(G(n) & mask) == 0 (with "+pos", parity(G(n) & mask) != parity of
 * n), their number and the last one.  Checked here from the values alone. */
static void check_rare_facts(const char *name, const GrundyTable *gt, uint64_t N, uint32_t mask,
                             int pos, uint32_t maxv, uint64_t maxidx, uint64_t nrare,
                             uint64_t lastrare)
{
    uint32_t mx = 0;
    uint64_t mi = 0, cnt = 0, last = 0;
    for (uint64_t n = 0; n < N; n++) {
        uint32_t v = grundy_get(gt, n);
        if (v > mx) {
            mx = v;
            mi = n;
        }
        if ((__builtin_parity(v & mask) ^ (pos ? (int)(n & 1) ^ 1 : 0)) == 0) {
            cnt++;
            last = n;
        }
    }
    CHECK_EQ_INT(mx, maxv);
    CHECK_EQ_INT(mi, maxidx);
    CHECK_EQ_INT(cnt, nrare);
    CHECK_EQ_INT(last, lastrare);
    if (mx != maxv || mi != maxidx || cnt != nrare || last != lastrare)
        fprintf(stderr, "  for %s\n", name);
}

/* Published periods and exceptions: Winning Ways ch. 4 tables as listed
 * in OEIS A071452 (.11377), A071453 (.117), A125912 (.141), A071434
 * (.1377), A125829 (.115), A071435 (.177); Gangolli and Plambeck 1989 for
 * .127 (period 4, last exception 46577) and .16 (period 149459, last
 * exception 105350); the table of solved games in T. Czajka's octal-games
 * repository (SolvedGames.md: "prefix" = our preperiod, so the last
 * exception is prefix - 1) for .56 (144, prefix 326640; Gangolli and
 * Plambeck 1989), and with CGT_SLOW .376 (4, prefix 2268248; Gangolli and
 * Plambeck 1989) and .354 (1180, prefix 10061916; Flammenkamp 2002). */
static void test_published_periods(void)
{
    static const struct {
        const char *code;
        uint64_t period, last;
        /* Czajka's rare-value facts (0 = not listed): mask, +pos, largest
         * value, its first heap, number of rare heaps, last rare heap */
        uint32_t mask;
        int pos;
        uint32_t maxv;
        uint64_t maxidx, nrare, lastrare;
    } tab[] = {{"0.11377", 32, 186, 0, 0, 0, 0, 0, 0},
               {"0.117", 48, 46, 0, 0, 0, 0, 0, 0},
               {"0.141", 11, 13, 0, 0, 0, 0, 0, 0},
               {"0.1377", 24, 140, 0, 0, 0, 0, 0, 0},
               {"0.115", 14, 0, 0, 0, 0, 0, 0, 0},
               {"0.177", 20, 496, 0, 0, 0, 0, 0, 0},
               {"0.127", 4, 46577, 0x1, 1, 56, 24734, 693, 27106},
               {"0.16", 149459, 105350, 0x1e, 0, 23, 229790, 53, 13935},
               {"0.56", 144, 326639, 0x5b, 0, 64, 22778, 46, 1795},
               {"0.376", 4, 2268247, 0xfe, 0, 176, 341612, 510, 1140540},
               {"0.354", 1180, 10061915, 0x3f, 0, 113, 1152, 132, 3227}};
    CgtError err;
    size_t ntab = sizeof tab / sizeof *tab - (getenv("CGT_SLOW") ? 0 : 2);
    for (size_t i = 0; i < ntab; i++) {
        Ruleset *rs = code(tab[i].code);
        GrundyTable *gt = grundy_new(rs);
        GrundyPeriod per;
        CHECK(grundy_run_period(gt, 30000000, &per, &err) == CGT_OK);
        CHECK_EQ_INT(per.status, PERIOD_PROVED);
        CHECK_EQ_INT(per.period, tab[i].period);
        CHECK_EQ_INT(per.last_exceptional, tab[i].last);
        if (per.period != tab[i].period || per.last_exceptional != tab[i].last)
            fprintf(stderr, "  for %s\n", tab[i].code);
        if (tab[i].mask)
            check_rare_facts(tab[i].code, gt, grundy_count(gt), tab[i].mask,
                             tab[i].pos, tab[i].maxv, tab[i].maxidx, tab[i].nrare,
                             tab[i].lastrare);
        if (strcmp(tab[i].code, "0.117") == 0) {
            /* the only exceptions among heaps >= 1: 2,6,7,12,16,22,26,36,46 */
            static const uint64_t ex117[] = {2, 6, 7, 12, 16, 22, 26, 36, 46};
            uint64_t *ex = NULL;
            size_t nex = grundy_exceptional(gt, &per, &ex);
            size_t j = (nex > 0 && ex[0] == 0) ? 1 : 0;
            CHECK_EQ_INT(nex - j, 9);
            for (size_t k = 0; k < 9 && j + k < nex; k++)
                CHECK_EQ_INT(ex[j + k], ex117[k]);
            free(ex);
        }
        grundy_free(gt);
        ruleset_free(rs);
    }
}

static void test_codes(void)
{
    /* every two-digit octal code against the naive oracle */
    int N = getenv("CGT_SLOW") ? 4000 : 2000;
    char c[8];
    for (int d1 = 0; d1 < 8; d1++)
        for (int d2 = 0; d2 < 8; d2++) {
            if (!d1 && !d2)
                continue;
            c[0] = '0', c[1] = '.', c[2] = (char)('0' + d1), c[3] = (char)('0' + d2), c[4] = 0;
            CHECK(cross_check(c, N));
        }
    /* three-digit, d0 != 0, hex */
    static const char *more[] = {"0.137", "0.106", "0.14", "0.16", "0.127", "0.354", "0.376",
                                 "4.07",  "4.7",   "0.6",  "0.51", "0.4",   "0.56",  "0.165"};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        CHECK(cross_check(more[i], 1500));
    static const char *hex[] = {"0.4C", "0.8", "0.F", "8.0", "0.B", "0.9F", "C.1"};
    for (size_t i = 0; i < sizeof hex / sizeof *hex; i++)
        CHECK(cross_check(hex[i], 120));
    /* the table widens from one byte per value to two in the middle of a
     * run: three-heap codes (values about n/2 pass 255 near heap 510) and
     * Officers in the sparse engine (past 255 between heaps 10^4 and
     * 2*10^4), against the naive oracle */
    CHECK(cross_check("0.4C", 700));
    CHECK(cross_check("C.1", 600));
    CHECK(cross_check("0.6", 16000));
    /* one-word bit sets with a value past 63 (src/lib/grundy/grundy_bits.h): 0.56's
     * first value 64 is at heap 22778, and the heap is done again on a
     * byte row */
    CHECK(cross_check("0.56", 24000));
    if (getenv("CGT_SLOW")) {
        CHECK(cross_check("0.14", 20000));
        CHECK(cross_check("0.106", 20000));
        CHECK(cross_check("0.6", 20000));
        CHECK(cross_check("0.376", 20000));
        CHECK(cross_check("0.354", 20000));
        /* Officers (0.6) to 2^21, against Czajka's UnsolvedGames.md: largest
         * value 319 first at heap 1274955; 1584 rare heaps (mask 1ee), the
         * last at 20627 */
        Ruleset *o = code("0.6");
        GrundyTable *go = grundy_new(o);
        CgtError oerr;
        CHECK(grundy_extend(go, (uint64_t)1 << 21, &oerr) == CGT_OK);
        check_rare_facts("0.6", go, grundy_count(go), 0x1ee, 0, 319, 1274955,
                         1584, 20627);
        grundy_free(go);
        ruleset_free(o);
    }

    /* 0.137 heap n = 0.07 heap n+1 (Winning Ways ch. 4) */
    Ruleset *a = code("0.137"), *b = code("0.07");
    GrundyTable *ga = grundy_new(a), *gb = grundy_new(b);
    CgtError err;
    CHECK(grundy_extend(ga, 3000, &err) == CGT_OK);
    CHECK(grundy_extend(gb, 3001, &err) == CGT_OK);
    int ok = 1;
    for (int n = 0; n < 3000; n++)
        ok &= grundy_get(ga, n) == grundy_get(gb, n + 1);
    CHECK(ok);
    GrundyPeriod pa;
    CHECK(grundy_run_period(ga, 100000, &pa, &err) == CGT_OK);
    CHECK_EQ_INT(pa.status, PERIOD_PROVED);
    CHECK_EQ_INT(pa.period, 34);
    CHECK_EQ_INT(pa.last_exceptional, 51);
    grundy_free(ga);
    grundy_free(gb);
    ruleset_free(a);
    ruleset_free(b);
}

/* The sparse engine works on blocks of heaps (src/lib/grundy/grundy.c start_block);
 * extending one heap at a time or in odd steps cuts blocks short, and must
 * give the same values as the naive oracle. */
static void test_incremental(void)
{
    static const char *codes[] = {"0.6", "0.376", "0.14", "0.354"};
    static const uint64_t steps[] = {1, 37, 1000};
    CgtError err;
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++) {
        int N = 4000;
        int *ng = naive_code(codes[i], N);
        for (size_t s = 0; s < sizeof steps / sizeof *steps; s++) {
            Ruleset *rs = code(codes[i]);
            GrundyTable *gt = grundy_new(rs);
            int ok = 1;
            for (uint64_t n = 0; n < (uint64_t)N; n += steps[s])
                ok &= grundy_extend(gt, n + steps[s] < (uint64_t)N ? n + steps[s] : (uint64_t)N,
                                    &err) == CGT_OK;
            CHECK(ok);
            int bad = -1;
            for (int n = 0; n < N && bad < 0; n++)
                if ((int)grundy_get(gt, n) != ng[n])
                    bad = n;
            CHECK(bad < 0);
            if (bad >= 0)
                fprintf(stderr, "  %s in steps of %llu: heap %d\n", codes[i],
                        (unsigned long long)steps[s], bad);
            grundy_free(gt);
            ruleset_free(rs);
        }
        free(ng);
    }
}

static void test_ruleset(void)
{
    CgtError err;
    Ruleset *rs = NULL;
    size_t off = 0;
    CHECK(ruleset_parse_code("0.0G7", &rs, &off, &err) == CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 3);
    CHECK(err.hint[0] != '\0');
    CHECK(ruleset_parse_code("2.07", &rs, &off, &err) == CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 0);
    CHECK(ruleset_parse_code("0.000", &rs, &off, &err) == CGT_ERR_DOMAIN);
    CHECK(ruleset_parse_code("007", &rs, &off, &err) == CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 1);
    CHECK(ruleset_parse_code("0.", &rs, &off, &err) == CGT_ERR_DOMAIN);
    CHECK(rs == NULL);
    uint32_t zero = 0;
    CHECK(ruleset_subtraction(&zero, 1, false, &rs, &err) == CGT_ERR_DOMAIN);
    RulesetRange loop = {0, 3};
    MoveRule lr = {&loop, 1, 0, 0, 2, 0, 0};
    CHECK(ruleset_from_rules(&lr, 1, &rs, &err) == CGT_ERR_DOMAIN);
    CHECK(ruleset_from_rules(&lr, 0, &rs, &err) == CGT_ERR_DOMAIN);

    rs = code("0.4c0");
    CHECK_EQ_STR(ruleset_name(rs), "0.4C");
    CHECK_EQ_INT(rs->max_parts, 3);
    CHECK_EQ_INT(rs->max_take, 2);
    ruleset_free(rs);

    /* options of heap 5 of 0.07: remove 2 leaving 0, 1 or 2 heaps */
    rs = code("0.07");
    const HeapGame *hg = ruleset_heapgame(rs);
    CHECK_EQ_INT(hg->max_parts, 2);
    CHECK_EQ_INT(hg->max_take, 2);
    HeapOptions o;
    heapopts_init(&o);
    CHECK(hg->options(hg->ctx, 5, &o, &err) == CGT_OK);
    CHECK_EQ_INT(o.count, 2); /* {3}, {1,2} */
    CHECK_EQ_INT(o.parts[o.start[0]], 3);
    CHECK_EQ_INT(o.parts[o.start[1]], 1);
    CHECK_EQ_INT(o.parts[o.start[1] + 1], 2);
    CHECK(ruleset_options(rs, 2, &o, &err) == CGT_OK);
    CHECK_EQ_INT(o.count, 1);
    CHECK_EQ_INT(o.start[1], 0); /* the empty option */
    heapopts_free(&o);
    ruleset_free(rs);

    /* all-but subtraction: all but {1} = remove k >= 2; G(n) = floor(n/2)... no:
     * checked against a naive oracle written here */
    uint32_t one = 1;
    CHECK(ruleset_subtraction(&one, 1, true, &rs, &err) == CGT_OK);
    CHECK_EQ_STR(ruleset_name(rs), "subtraction all but {1}");
    CHECK_EQ_INT(rs->max_take, -1);
    GrundyTable *gt = grundy_new(rs);
    CHECK(grundy_extend(gt, 300, &err) == CGT_OK);
    int ng[300];
    unsigned char seen[400];
    for (int n = 0; n < 300; n++) {
        memset(seen, 0, sizeof seen);
        for (int k = 2; k <= n; k++)
            seen[ng[n - k]] = 1;
        ng[n] = naive_mex(seen, 400);
    }
    int ok = 1;
    for (int n = 0; n < 300; n++)
        ok &= (int)grundy_get(gt, n) == ng[n];
    CHECK(ok);
    grundy_free(gt);
    ruleset_free(rs);

    /* "remove at most half, leave one heap" (a fraction rule) */
    RulesetRange all = {1, RULESET_UNBOUNDED};
    MoveRule half = {&all, 1, 1, 2, 2, 0, 0};
    CHECK(ruleset_from_rules(&half, 1, &rs, &err) == CGT_OK);
    gt = grundy_new(rs);
    CHECK(grundy_extend(gt, 300, &err) == CGT_OK);
    for (int n = 0; n < 300; n++) {
        memset(seen, 0, sizeof seen);
        for (int k = 1; 2 * k <= n; k++)
            seen[ng[n - k]] = 1;
        ng[n] = naive_mex(seen, 400);
    }
    ok = 1;
    for (int n = 0; n < 300; n++)
        ok &= (int)grundy_get(gt, n) == ng[n];
    CHECK(ok);
    grundy_free(gt);
    ruleset_free(rs);
}


/* ---- naive misère oracle: plain recursion, no memo, small positions ------ */

typedef struct NPos {
    int h[32];
    int n;   /* game heaps */
    int nim[8];
    int nn;  /* nim heaps (misère genus checks add copies of *2) */
} NPos;

/* All options of p under `code` (game heaps) and nim (nim heaps). */
static int naive_options(const char *code, const NPos *p, NPos *out, int cap)
{
    int cnt = 0, nd = (int)strlen(code) - 2, d0 = digit_of(code[0]);
    for (int i = 0; i < p->n; i++) {
        int n = p->h[i];
        for (int k = 0; k <= nd && k <= n; k++) {
            int d = k == 0 ? (d0 & 12) : digit_of(code[1 + k]);
            int r = n - k;
            for (int parts = 0; parts <= 2; parts++) {
                if (!((d >> parts) & 1))
                    continue;
                if (parts == 0 && (r != 0 || k == 0))
                    continue;
                if (parts == 1 && (r == 0 || k == 0))
                    continue;
                for (int a = (parts == 2 ? 1 : 0); parts != 2 || a <= r - a; a++) {
                    NPos q = *p;
                    q.h[i] = q.h[q.n - 1];
                    q.n--;
                    if (parts == 1)
                        q.h[q.n++] = r;
                    if (parts == 2) {
                        q.h[q.n++] = a;
                        q.h[q.n++] = r - a;
                    }
                    if (cnt < cap)
                        out[cnt++] = q;
                    if (parts != 2)
                        break;
                }
            }
        }
    }
    for (int i = 0; i < p->nn; i++)
        for (int v = 0; v < p->nim[i]; v++) {
            NPos q = *p;
            q.nim[i] = v;
            if (cnt < cap)
                out[cnt++] = q;
        }
    return cnt;
}

/* A small memo for the naive oracle: canonical byte keys, linear probing.
 * Cleared whenever the code changes. */
#define NMEMO_SIZE (1 << 20)
static struct {
    unsigned char key[48];
    int val; /* -1 = empty */
} *nmemo;
static const char *nmemo_code;

static void nkey(const NPos *p, unsigned char *key)
{
    int a[32], n = p->n, b[8], m = p->nn;
    memcpy(a, p->h, sizeof a);
    memcpy(b, p->nim, sizeof b);
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && a[j - 1] > a[j]; j--) {
            int t = a[j];
            a[j] = a[j - 1];
            a[j - 1] = t;
        }
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && b[j - 1] > b[j]; j--) {
            int t = b[j];
            b[j] = b[j - 1];
            b[j - 1] = t;
        }
    memset(key, 0, 48);
    int k = 0;
    for (int i = 0; i < n && k < 38; i++)
        key[k++] = (unsigned char)a[i];
    key[k++] = 255;
    for (int i = 0; i < m && k < 47; i++)
        key[k++] = (unsigned char)b[i];
}

static int *nmemo_slot(const char *code, const NPos *p)
{
    if (!nmemo)
        nmemo = malloc(NMEMO_SIZE * sizeof *nmemo);
    if (nmemo_code != code) {
        for (size_t i = 0; i < NMEMO_SIZE; i++)
            nmemo[i].val = -1;
        nmemo_code = code;
    }
    unsigned char key[48];
    nkey(p, key);
    unsigned h = 2166136261u;
    for (int i = 0; i < 48; i++)
        h = (h ^ key[i]) * 16777619u;
    for (unsigned j = h & (NMEMO_SIZE - 1);; j = (j + 1) & (NMEMO_SIZE - 1)) {
        if (nmemo[j].val == -1) {
            memcpy(nmemo[j].key, key, 48);
            return &nmemo[j].val;
        }
        if (memcmp(nmemo[j].key, key, 48) == 0)
            return &nmemo[j].val;
    }
}

/* Misère nim value (mex of options, 1 with no options). */
static int naive_misere_value(const char *code, const NPos *p)
{
    int *slot = nmemo_slot(code, p);
    if (*slot >= 0)
        return *slot;
    *slot = -2; /* claimed: in progress */
    int v = 0;
    NPos *opts = malloc(256 * sizeof *opts);
    int cnt = naive_options(code, p, opts, 256);
    if (cnt == 0) {
        v = 1;
    } else {
        unsigned char seen[300] = {0};
        for (int i = 0; i < cnt; i++)
            seen[naive_misere_value(code, &opts[i])] = 1;
        v = naive_mex(seen, 300);
    }
    free(opts);
    /* the slot may have been claimed by a recursive call's probe: look again */
    *nmemo_slot(code, p) = v;
    return v;
}

static int naive_misere_p(const char *code, const NPos *p)
{
    return naive_misere_value(code, p) == 0;
}

static void test_genus_outcome(void)
{
    CgtError err;
    Ruleset *d = code("0.07");
    GenusCache *gc = genus_new(ruleset_heapgame(d));
    Genus g;
    char *s;
    /* published: heap 10 of 0.07 is 3^1431 (Plambeck's Dawson's Chess note,
     * WW ch. 13); heap 2 of 0.07 is *1 = 1^031; the empty game is 0^120 */
    CHECK(genus_heap(gc, 10, &g, &err) == CGT_OK);
    s = genus_format(&g);
    CHECK_EQ_STR(s, "3^1431");
    free(s);
    CHECK(genus_heap(gc, 2, &g, &err) == CGT_OK);
    s = genus_format(&g);
    CHECK_EQ_STR(s, "1^031");
    free(s);
    CHECK(genus_position(gc, NULL, 0, &g, &err) == CGT_OK);
    s = genus_format(&g);
    CHECK_EQ_STR(s, "0^120");
    free(s);
    /* γ0..γ3 of heaps and small sums vs the naive oracle on G + k*2 */
    static const char *codes[] = {"0.07", "0.77", "0.137"};
    for (int ci = 0; ci < 3; ci++) {
        Ruleset *rs = code(codes[ci]);
        GenusCache *c2 = genus_new(ruleset_heapgame(rs));
        int ok = 1;
        for (int h1 = 0; h1 <= 7; h1++)
            for (int h2 = 0; h2 <= 2; h2++) {
                uint32_t hs[2] = {(uint32_t)h1, (uint32_t)h2};
                if (genus_position(c2, hs, 2, &g, &err) != CGT_OK) {
                    ok = 0;
                    continue;
                }
                int *ng = naive_code(codes[ci], 12);
                ok &= (int)g.g == (ng[h1] ^ ng[h2]);
                free(ng);
                for (int k = 0; k <= 2; k++) {
                    NPos p;
                    memset(&p, 0, sizeof p);
                    if (h1)
                        p.h[p.n++] = h1;
                    if (h2)
                        p.h[p.n++] = h2;
                    for (int j = 0; j < k; j++)
                        p.nim[p.nn++] = 2;
                    int nv = naive_misere_value(codes[ci], &p);
                    if ((int)g.gamma[k] != nv) {
                        ok = 0;
                        fprintf(stderr, "%s {%d,%d} gamma%d = %u, naive %d\n", codes[ci], h1,
                                h2, k, g.gamma[k], nv);
                    }
                }
            }
        CHECK(ok);
        genus_free(c2);
        ruleset_free(rs);
    }
    genus_free(gc);

    /* nim: *2 + *2 = 0^02 */
    Ruleset *nim = NULL;
    CHECK(ruleset_subtraction(NULL, 0, true, &nim, &err) == CGT_OK);
    gc = genus_new(ruleset_heapgame(nim));
    uint32_t twotwo[2] = {2, 2};
    CHECK(genus_position(gc, twotwo, 2, &g, &err) == CGT_OK);
    s = genus_format(&g);
    CHECK_EQ_STR(s, "0^02");
    free(s);
    genus_free(gc);
    ruleset_free(nim);

    /* outcomes of every position with total size <= 11 (0.07, 0.77) */
    static const char *oc[] = {"0.07", "0.77"};
    for (int ci = 0; ci < 2; ci++) {
        Ruleset *rs = code(oc[ci]);
        OutcomeCache *c = outcome_new(ruleset_heapgame(rs));
        int *ng = naive_code(oc[ci], 16);
        int ok = 1, moves_ok = 1;
        /* positions as non-increasing partitions of total <= 11 */
        int part[16], np;
        for (int total = 0; total <= 11; total++) {
            /* enumerate partitions of `total` */
            np = 0;
            if (total) {
                part[0] = total;
                np = 1;
            }
            for (;;) {
                NPos p;
                memset(&p, 0, sizeof p);
                uint32_t hs[16];
                int x = 0;
                for (int i = 0; i < np; i++) {
                    p.h[p.n++] = part[i];
                    hs[i] = (uint32_t)part[i];
                    x ^= ng[part[i]];
                }
                Outcome om, on;
                CHECK(outcome_misere(c, hs, (size_t)np, &om, &err) == CGT_OK);
                CHECK(outcome_normal(c, hs, (size_t)np, &on, &err) == CGT_OK);
                int mp = naive_misere_p(oc[ci], &p);
                ok &= (om == OUTCOME_P) == mp;
                ok &= (on == OUTCOME_P) == (x == 0);
                bool found;
                OutcomeMove mv;
                CHECK(outcome_winning_move(c, true, hs, (size_t)np, &found, &mv, &err) ==
                      CGT_OK);
                /* a misère N-position without moves has no winning move */
                NPos *tmp = malloc(256 * sizeof *tmp);
                int has_moves = naive_options(oc[ci], &p, tmp, 256) > 0;
                free(tmp);
                if (found != (!mp && has_moves)) {
                    moves_ok = 0;
                    fprintf(stderr, "%s total %d np %d first %d: found %d mp %d\n", oc[ci], total,
                            np, np ? part[0] : 0, found, mp);
                }
                if (found) {
                    NPos q;
                    memset(&q, 0, sizeof q);
                    for (size_t i = 0; i < mv.nresult; i++)
                        q.h[q.n++] = (int)mv.result[i];
                    moves_ok &= naive_misere_p(oc[ci], &q);
                    outcome_move_free(&mv);
                }
                /* next partition (non-increasing) */
                int i = np - 1;
                int rem = 0;
                while (i >= 0 && part[i] == 1) {
                    rem += 1;
                    i--;
                }
                if (i < 0)
                    break;
                part[i]--;
                rem++;
                np = i + 1;
                while (rem > 0) {
                    int v = rem < part[i] ? rem : part[i];
                    part[np++] = v;
                    rem -= v;
                }
            }
        }
        CHECK(ok);
        CHECK(moves_ok);
        /* a bigger position runs quickly with the memo: total 50 */
        uint32_t big[5] = {10, 10, 10, 10, 10};
        Outcome o;
        CHECK(outcome_misere(c, big, 5, &o, &err) == CGT_OK);
        free(ng);
        outcome_free(c);
        ruleset_free(rs);
    }
    ruleset_free(d);
}

/* General rules: the direct loops against the option-list path, and a rule
 * with a minimum part against a naive loop written here. */
static void test_general_rules(void)
{
    CgtError err;
    RulesetRange r01 = {0, 1}, r13 = {1, 3}, r0 = {0, 0}, all = {1, RULESET_UNBOUNDED};
    MoveRule sets[4][2] = {
        {{&r01, 1, 0, 0, 4, RULE_UNEQUAL, 2}, {&r13, 1, 0, 0, 3, 0, 0}},
        {{&r0, 1, 0, 0, 8, RULE_UNEQUAL, 0}, {&r13, 1, 0, 0, 1, 0, 0}},
        {{&r01, 1, 0, 0, 12, RULE_EQUAL, 0}, {&all, 1, 1, 3, 2, 0, 0}},
        {{&r13, 1, 0, 0, 6, 0, 3}, {&r0, 1, 0, 0, 4, 0, 0}},
    };
    for (int i = 0; i < 4; i++) {
        Ruleset *rs = NULL;
        CHECK(ruleset_from_rules(sets[i], 2, &rs, &err) == CGT_OK);
        GrundyTable *a = grundy_new(rs), *b = grundy_new(rs);
        grundy_use_option_lists(b, true);
        CHECK(grundy_extend(a, 200, &err) == CGT_OK);
        CHECK(grundy_extend(b, 200, &err) == CGT_OK);
        CHECK(same_values(a, b, 200));
        grundy_free(a);
        grundy_free(b);
        ruleset_free(rs);
    }
    /* take 1..3 leaving one or two heaps, every part >= 3 */
    Ruleset *rs = NULL;
    CHECK(ruleset_from_rules(&sets[3][0], 1, &rs, &err) == CGT_OK);
    GrundyTable *gt = grundy_new(rs);
    CHECK(grundy_extend(gt, 300, &err) == CGT_OK);
    int ng[300];
    unsigned char seen[600];
    for (int n = 0; n < 300; n++) {
        memset(seen, 0, sizeof seen);
        for (int k = 1; k <= 3 && k <= n; k++) {
            if (n - k >= 3)
                seen[ng[n - k]] = 1;
            for (int x = 3; x <= n - k - x; x++)
                if (n - k - x >= 3)
                    seen[ng[x] ^ ng[n - k - x]] = 1;
        }
        ng[n] = naive_mex(seen, 600);
    }
    int ok = 1;
    for (int n = 0; n < 300; n++)
        ok &= (int)grundy_get(gt, n) == ng[n];
    CHECK(ok);
    grundy_free(gt);
    ruleset_free(rs);
}

static void test_checkpoint(void)
{
    CgtError err;
    uint64_t fc;
    Ruleset *rs = code("0.14"), *other = code("0.07");
    GrundyTable *a = grundy_new(rs), *b = grundy_new(rs), *c = grundy_new(other);
    char path[512];
    unit_tmp_path(path, sizeof path, "games.ckpt");
    CHECK(grundy_extend(a, 3000, &err) == CGT_OK);
    CHECK(grundy_save(a, path, &err) == CGT_OK);
    CHECK(grundy_load(b, path, &fc, &err) == CGT_OK);
    CHECK_EQ_INT(grundy_count(b), 3000);
    CHECK(grundy_load(c, path, &fc, &err) == CGT_ERR_DOMAIN);
    CHECK(grundy_extend(a, 6000, &err) == CGT_OK);
    CHECK(grundy_extend(b, 6000, &err) == CGT_OK);
    CHECK(same_values(a, b, 6000));
    /* loading into a table that already holds fewer values extends it */
    GrundyTable *d = grundy_new(rs);
    CHECK(grundy_extend(d, 1024, &err) == CGT_OK);
    CHECK(grundy_save(a, path, &err) == CGT_OK);
    CHECK(grundy_load(d, path, &fc, &err) == CGT_OK);
    CHECK_EQ_INT(grundy_count(d), 6000);
    CHECK(grundy_extend(a, 9000, &err) == CGT_OK);
    CHECK(grundy_extend(d, 9000, &err) == CGT_OK);
    CHECK(same_values(a, d, 9000));
    grundy_free(d);
    /* a table of two bytes per value (Officers past 255) saved, loaded into
     * an empty table and extended agrees with the one computed through */
    Ruleset *off = code("0.6");
    GrundyTable *o1 = grundy_new(off), *o2 = grundy_new(off);
    CHECK(grundy_extend(o1, 16000, &err) == CGT_OK && grundy_width(o1) == 2);
    CHECK(grundy_save(o1, path, &err) == CGT_OK);
    CHECK(grundy_load(o2, path, &fc, &err) == CGT_OK && fc == 16000 && grundy_width(o2) == 2);
    CHECK(grundy_extend(o1, 20000, &err) == CGT_OK);
    CHECK(grundy_extend(o2, 20000, &err) == CGT_OK);
    CHECK(same_values(o1, o2, 20000));
    grundy_free(o1);
    grundy_free(o2);
    ruleset_free(off);
    CHECK(grundy_load(b, "/nonexistent/x", &fc, &err) == CGT_OK && fc == 0);
    CHECK(grundy_load(b, "/", &fc, &err) == CGT_ERR_IO);
    remove(path);
    grundy_free(a);
    grundy_free(b);
    grundy_free(c);
    ruleset_free(rs);
    ruleset_free(other);
}


/* heapopts_canonicalize against a naive oracle written here: options as
 * sorted part lists, compared by length then lexicographically, duplicates
 * dropped. Random lists cover the packed path (few small parts) and the
 * general one (long options, parts near 2^32). */
static int naive_cmp(const uint32_t *a, size_t la, const uint32_t *b, size_t lb)
{
    if (la != lb)
        return la < lb ? -1 : 1;
    for (size_t t = 0; t < la; t++)
        if (a[t] != b[t])
            return a[t] < b[t] ? -1 : 1;
    return 0;
}

static void test_canonical_options(void)
{
    Rng r;
    rng_seed(&r, 20261207);
    for (int round = 0; round < 400; round++) {
        size_t n = 1 + rng_below(&r, round % 4 == 0 ? 300 : 40);
        size_t maxl = 1 + rng_below(&r, round % 3 == 0 ? 8 : 3);
        uint64_t top = round % 5 == 0 ? UINT64_C(4294967295) : 1 + rng_below(&r, 5000);
        uint32_t raw[300][8];
        size_t len[300];
        HeapOptions o;
        heapopts_init(&o);
        for (size_t i = 0; i < n; i++) {
            if (i > 0 && rng_below(&r, 4) == 0) {
                size_t j = rng_below(&r, i); /* a duplicate, maybe reordered */
                len[i] = len[j];
                for (size_t t = 0; t < len[j]; t++)
                    raw[i][t] = raw[j][len[j] - 1 - t];
            } else {
                len[i] = rng_below(&r, maxl + 1);
                for (size_t t = 0; t < len[i]; t++)
                    raw[i][t] = (uint32_t)(1 + rng_below(&r, top));
            }
            heapopts_add(&o, raw[i], len[i]);
        }
        /* the oracle: sort each option's parts, then the options */
        uint32_t s[300][8];
        size_t ord[300], m = 0;
        for (size_t i = 0; i < n; i++) {
            for (size_t t = 0; t < len[i]; t++)
                s[i][t] = raw[i][t];
            for (size_t a = 0; a < len[i]; a++)
                for (size_t b = a + 1; b < len[i]; b++)
                    if (s[i][b] < s[i][a]) {
                        uint32_t x = s[i][a];
                        s[i][a] = s[i][b];
                        s[i][b] = x;
                    }
        }
        for (size_t i = 0; i < n; i++) {
            size_t k = 0;
            while (k < m && naive_cmp(s[ord[k]], len[ord[k]], s[i], len[i]) < 0)
                k++;
            if (k < m && naive_cmp(s[ord[k]], len[ord[k]], s[i], len[i]) == 0)
                continue;
            memmove(ord + k + 1, ord + k, (m - k) * sizeof *ord);
            ord[k] = i;
            m++;
        }
        heapopts_canonicalize(&o);
        bool same = o.count == m;
        for (size_t k = 0; same && k < m; k++)
            same = naive_cmp(o.parts + o.start[k], o.start[k + 1] - o.start[k], s[ord[k]],
                             len[ord[k]]) == 0;
        CHECK(same);
        heapopts_free(&o);
    }
}

/* The options of plain rulesets (written in canonical order without
 * sorting, ruleset.c) against an oracle written here from the rules'
 * definition: every take k of every range, every ordered choice of 1, 2
 * or 3 nonempty parts, each sorted, then the list put in canonical order
 * by qsort and duplicates dropped. Random rule sets with overlapping
 * ranges, and random octal and hexadecimal codes. */
typedef struct {
    uint32_t len, p[3];
} NaiveOpt;

static int naive_opt_cmp(const void *x, const void *y)
{
    const NaiveOpt *a = x, *b = y;
    return naive_cmp(a->p, a->len, b->p, b->len);
}

static void naive_push(NaiveOpt *v, size_t *m, uint32_t len, uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t p[3] = {a, b, c};
    for (uint32_t i = 0; i < len; i++)
        for (uint32_t j = i + 1; j < len; j++)
            if (p[j] < p[i]) {
                uint32_t t = p[i];
                p[i] = p[j];
                p[j] = t;
            }
    v[*m].len = len;
    memcpy(v[*m].p, p, sizeof p);
    ++*m;
}

static bool plain_matches(const Ruleset *rs, const MoveRule *rules, size_t nrules, uint32_t n,
                          NaiveOpt *v)
{
    size_t m = 0;
    for (size_t i = 0; i < nrules; i++)
        for (size_t j = 0; j < rules[i].nranges; j++)
            for (uint32_t k = rules[i].ranges[j].lo; k <= rules[i].ranges[j].hi && k <= n; k++) {
                uint32_t rem = n - k;
                unsigned mask = rules[i].parts_mask;
                if ((mask & 1) && rem == 0 && k > 0)
                    naive_push(v, &m, 0, 0, 0, 0);
                if ((mask & 2) && rem >= 1)
                    naive_push(v, &m, 1, rem, 0, 0);
                for (uint32_t a = 1; (mask & 4) && a < rem; a++)
                    naive_push(v, &m, 2, a, rem - a, 0);
                for (uint32_t a = 1; (mask & 8) && a + 1 < rem; a++)
                    for (uint32_t b = 1; a + b < rem; b++)
                        naive_push(v, &m, 3, a, b, rem - a - b);
            }
    qsort(v, m, sizeof *v, naive_opt_cmp);
    size_t u = 0;
    for (size_t i = 0; i < m; i++)
        if (u == 0 || naive_opt_cmp(&v[u - 1], &v[i]) != 0)
            v[u++] = v[i];
    HeapOptions o;
    heapopts_init(&o);
    CgtError err;
    bool same = ruleset_options(rs, n, &o, &err) == CGT_OK && o.count == u;
    for (size_t i = 0; same && i < u; i++)
        same = naive_cmp(o.parts + o.start[i], o.start[i + 1] - o.start[i], v[i].p, v[i].len) == 0;
    heapopts_free(&o);
    return same;
}

static void test_plain_options(void)
{
    Rng r;
    rng_seed(&r, 20261208);
    NaiveOpt *v = xmalloc(200000 * sizeof *v);
    CgtError err;
    int bad = 0, tried = 0;
    for (int round = 0; round < 300; round++) {
        RulesetRange ranges[3][2];
        MoveRule rules[3];
        size_t nrules = 1 + rng_below(&r, 3);
        for (size_t i = 0; i < nrules; i++) {
            memset(&rules[i], 0, sizeof rules[i]);
            rules[i].nranges = 1 + rng_below(&r, 2);
            rules[i].ranges = ranges[i];
            for (size_t j = 0; j < rules[i].nranges; j++) {
                ranges[i][j].lo = (uint32_t)rng_below(&r, 6);
                ranges[i][j].hi = ranges[i][j].lo + (uint32_t)rng_below(&r, 5);
            }
            rules[i].parts_mask = 1 + (unsigned)rng_below(&r, round % 2 ? 15 : 7);
        }
        Ruleset *rs = NULL;
        if (ruleset_from_rules(rules, nrules, &rs, &err) != CGT_OK)
            continue;
        tried++;
        CHECK(rs->plain);
        for (uint32_t n = 0; n <= 70; n++)
            bad += !plain_matches(rs, rules, nrules, n, v);
        ruleset_free(rs);
    }
    CHECK(tried > 150);
    CHECK_EQ_INT(bad, 0);
    /* codes, through the parser: d0 in {0, 4, 8, C}, up to 6 more digits */
    for (int round = 0; round < 200; round++) {
        char buf[16];
        size_t t = 1 + rng_below(&r, 6), len = 0;
        buf[len++] = "048C"[rng_below(&r, 4)];
        buf[len++] = '.';
        for (size_t i = 0; i < t; i++)
            buf[len++] = "0123456789ABCDEF"[rng_below(&r, round % 2 ? 16 : 8)];
        buf[len] = '\0';
        Ruleset *rs = NULL;
        if (ruleset_parse_code(buf, &rs, NULL, &err) != CGT_OK)
            continue;
        RulesetRange kr[8];
        MoveRule rules[8];
        size_t nrules = 0;
        for (size_t k = 0; k <= t; k++) {
            unsigned d = (unsigned)strtoul((char[]){buf[k == 0 ? 0 : k + 1], 0}, NULL, 16);
            if (k == 0)
                d &= ~3u; /* d0: no loop, no move of the empty heap */
            if (!d)
                continue;
            kr[nrules].lo = kr[nrules].hi = (uint32_t)k;
            memset(&rules[nrules], 0, sizeof rules[nrules]);
            rules[nrules].ranges = &kr[nrules];
            rules[nrules].nranges = 1;
            rules[nrules].parts_mask = d;
            nrules++;
        }
        CHECK(rs->plain);
        for (uint32_t n = 0; n <= 90; n++)
            bad += !plain_matches(rs, rules, nrules, n, v);
        ruleset_free(rs);
    }
    CHECK_EQ_INT(bad, 0);
    free(v);
}

int main(void)
{
    test_canonical_options();
    test_plain_options();
    test_ruleset();
    test_published();
    test_codes();
    test_incremental();
    test_published_periods();
    test_general_rules();
    test_checkpoint();
    test_genus_outcome();
    free(nmemo);
    UNIT_MAIN_END();
}
