/* Unit tests for games/impgame (explicit games, misère canonical forms).
 * Oracles: the counts of misère canonical games born by day 0..4 (1, 2, 3,
 * 5, 22; ONAG ch. 12; day 5 = 4171780 with CGT_SLOW=1), misère nim
 * (*1+*1 = 0; with a heap >= 2 a sum of nim heaps is the nim-sum, ONAG
 * ch. 12), and Figure 4 of Plambeck's note "Dawson's Chess (0.137) and
 * Dawson's Kayles (0.07)" (2005), transcribed here as option
 * sets in the note's own notation: the test builds n[k], a[k] and
 * a4[1,2] from their definitions (not from heaps) and compares the option
 * sets of heaps 1..20 of 0.07 with them, plus the four equations the note
 * states after the figure. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/explicit/impgame.h"
#include "lib/heap/ruleset.h"
#include "lib/util/poll.h"
#include "unit.h"

static IgStore *S;
static CgtError E;

static IgId nim(uint32_t n)
{
    IgId g;
    CHECK(ig_nim(S, n, &g, &E) == CGT_OK);
    return g;
}

static IgId add(IgId a, IgId b)
{
    IgId g;
    CHECK(ig_sum_canon(S, a, b, &g, &E) == CGT_OK);
    return g;
}

static IgId canon(IgId g)
{
    IgId c;
    CHECK(ig_canon(S, g, &c, &E) == CGT_OK);
    return c;
}

static IgId make(const IgId *o, size_t n)
{
    IgId g;
    CHECK(ig_make(S, o, n, &g, &E) == CGT_OK);
    return canon(g);
}

/* a[k] of the note: k/2 copies of *2, plus *1 when k is odd */
static IgId a_form(unsigned k)
{
    IgId g = IG_ZERO;
    for (unsigned i = 0; i < k / 2; i++)
        g = add(g, nim(2));
    return k % 2 ? add(g, nim(1)) : g;
}

static bool same_set(IgId g, const IgId *want, size_t n)
{
    IgId w[16];
    memcpy(w, want, n * sizeof *w);
    IgId c = make(w, n);
    return c == g && ig_nopts(S, g) == n;
}

static void test_counts(void)
{
    const uint64_t want[] = {1, 2, 3, 5, 22};
    for (unsigned d = 0; d <= 4; d++) {
        uint64_t c = 0;
        CHECK(ig_born_count(S, d, &c, &E) == CGT_OK);
        CHECK_EQ_INT(c, want[d]);
    }
    if (getenv("CGT_SLOW")) {
        uint64_t c = 0;
        CHECK(ig_born_count(S, 5, &c, &E) == CGT_OK);
        CHECK_EQ_INT(c, 4171780);
    }
}

static void test_nim(void)
{
    CHECK(add(nim(1), nim(1)) == IG_ZERO);
    IgId s1 = 0, s2 = 0;
    CHECK(ig_sum(S, nim(1), nim(1), &s1, &E) == CGT_OK);
    CHECK(canon(s1) == IG_ZERO);
    CHECK(ig_sum(S, nim(2), nim(2), &s2, &E) == CGT_OK);
    IgId c = canon(s2);
    CHECK(c != IG_ZERO);
    CHECK(ig_misere_p(S, c));
    /* *2+*2 = {*2, *3} */
    IgId w[2] = {nim(2), nim(3)};
    CHECK(same_set(c, w, 2));
    for (uint32_t a = 0; a <= 5; a++)
        for (uint32_t b = 0; b <= 5; b++) {
            /* misère nim: with a heap >= 2 the outcome and G^- follow the
               nim-sum; with heaps <= 1 the parity is reversed */
            IgId g = add(nim(a), nim(b));
            uint32_t x = a ^ b;
            bool big = a >= 2 || b >= 2;
            CHECK_EQ_INT(ig_misere_p(S, g), big ? x == 0 : x == 1);
            CHECK_EQ_INT(ig_misere_value(S, g), big ? x : x ^ 1);
            CHECK_EQ_INT(ig_nimber(S, g), x);
            if (!big)
                CHECK(g == nim(x)); /* *1 + *1 = 0 */
        }
    /* {*} = 0 and {*, *2} = 0, {0, *2} = *: day-3 reductions */
    IgId o1[1] = {nim(1)};
    CHECK(make(o1, 1) == IG_ZERO);
    IgId o2[2] = {nim(1), nim(2)};
    CHECK(make(o2, 2) == IG_ZERO);
    IgId o3[2] = {IG_ZERO, nim(2)};
    CHECK(make(o3, 2) == nim(1));
    IgId o4[1] = {nim(2)};
    CHECK(make(o4, 1) != nim(1));
}

static void test_figure4(void)
{
    Ruleset *rs;
    CHECK(ruleset_parse_code("0.07", &rs, NULL, &E) == CGT_OK);
    IgId h[24];
    CHECK(ig_heaps(S, ruleset_heapgame(rs), 23, true, h, &E) == CGT_OK);
    IgId n0 = nim(0), n1 = nim(1), n2 = nim(2), n3 = nim(3);
    IgId a4 = a_form(4), a5 = a_form(5);
    IgId a412[3] = {a4, n1, n2};
    IgId A412 = make(a412, 3);
    /* nim heaps of the figure */
    const int nimk[21] = {-1, 0, 1, 1, 2, 0, 3, 1, 1, 0, -1, 3, -1, 2, -1, 0, -1, -1, 2, -1, 3};
    for (int k = 1; k <= 20; k++)
        if (nimk[k] >= 0)
            CHECK(h[k] == nim((uint32_t)nimk[k]));
    CHECK(h[10] == A412);
    IgId h12[3] = {a5, A412, n0};
    CHECK(same_set(h[12], h12, 3));
    IgId h17[4] = {a5, A412, n0, n3};
    CHECK(same_set(h[17], h17, 4));
    IgId h19[4] = {h[12], h[17], a4, n1};
    CHECK(same_set(h[19], h19, 4));
    IgId h14[5] = {h[12], h[17], a4, n1, n3};
    CHECK(same_set(h[14], h14, 5));
    /* h[16] = {h[14], h[19], g$494, n[0], n[2]}: g$494 is not spelled out */
    CHECK_EQ_INT(ig_nopts(S, h[16]), 5);
    const IgId *o16 = ig_opts(S, h[16]);
    int found = 0;
    for (size_t i = 0; i < 5; i++)
        found += o16[i] == h[14] || o16[i] == h[19] || o16[i] == n0 || o16[i] == n2;
    CHECK_EQ_INT(found, 4);
    /* the equations under the figure */
    CHECK(h[17] == add(h[10], n1));
    CHECK(h[19] == add(h[12], n1));
    Genus g10, g19, g12, g17;
    CHECK(ig_genus(S, h[10], &g10, &E) == CGT_OK);
    CHECK(ig_genus(S, h[19], &g19, &E) == CGT_OK);
    CHECK(ig_genus(S, h[12], &g12, &E) == CGT_OK);
    CHECK(ig_genus(S, h[17], &g17, &E) == CGT_OK);
    char *s10 = genus_format(&g10), *s19 = genus_format(&g19);
    char *s12 = genus_format(&g12), *s17 = genus_format(&g17);
    CHECK_EQ_STR(s10, s19);
    CHECK_EQ_STR(s12, s17);
    /* the note, section 1.4.2: the genus of heap 10 is 3^1431 */
    CHECK_EQ_STR(s10, "3^1431");
    free(s10);
    free(s19);
    free(s12);
    free(s17);
    /* literal expansion agrees with the canonical path */
    IgId lit[11];
    CHECK(ig_heaps(S, ruleset_heapgame(rs), 10, false, lit, &E) == CGT_OK);
    for (int k = 0; k <= 10; k++)
        CHECK(canon(lit[k]) == h[k]);
    ruleset_free(rs);
}

/* mex of v[0..n-1], by the definition */
static uint32_t mex_def(const uint32_t *v, size_t n)
{
    for (uint32_t m = 0;; m++) {
        bool in = false;
        for (size_t i = 0; i < n && !in; i++)
            in = v[i] == m;
        if (!in)
            return m;
    }
}

/* Nim heaps are stored as one node each whose options are the smaller
 * heaps (no n^2 option entries): their values against the definitions
 * (normal value = mex, G^- = 1 for 0 else the mex of the options' G^-,
 * misère P = has options, all N), the same node from a literal option set
 * in any order, followers and positions, and *100000 in linear memory. */
static void test_nim_heaps(void)
{
    IgStore *T = ig_new();
    enum { K = 60 };
    uint32_t nv[K + 1], mv[K + 1];
    bool pp[K + 1];
    IgId id[K + 1];
    /* the heaps built as literal sets, before ig_nim is ever called */
    for (uint32_t k = 0; k <= K; k++) {
        IgId o[K + 1];
        for (uint32_t i = 0; i < k; i++)
            o[i] = id[k - 1 - i]; /* reversed: ig_make sorts */
        CHECK(ig_make(T, o, k, &id[k], &E) == CGT_OK);
        nv[k] = mex_def(nv, k);
        mv[k] = k == 0 ? 1 : mex_def(mv, k);
        bool alln = k > 0;
        for (uint32_t i = 0; i < k; i++)
            alln = alln && !pp[i];
        pp[k] = alln;
    }
    for (uint32_t k = 0; k <= K; k++) {
        IgId g;
        CHECK(ig_nim(T, k, &g, &E) == CGT_OK);
        CHECK(g == id[k]);
        CHECK_EQ_INT(ig_nim_size(T, g), k);
        CHECK_EQ_INT(ig_birthday(T, g), k);
        CHECK_EQ_INT(ig_nimber(T, g), nv[k]);
        CHECK_EQ_INT(ig_misere_value(T, g), mv[k]);
        CHECK_EQ_INT(ig_misere_p(T, g), pp[k]);
        CHECK_EQ_INT(ig_nopts(T, g), k);
        const IgId *o = ig_opts(T, g);
        for (uint32_t i = 0; i < k; i++)
            CHECK(o[i] == id[i]);
        IgId c;
        CHECK(ig_canon(T, g, &c, &E) == CGT_OK);
        CHECK(c == g);
        size_t n = 0;
        CHECK(ig_size(T, g, &n, &E) == CGT_OK);
        CHECK_EQ_INT(n, k + 1);
    }
    CHECK_EQ_INT(ig_option_count(T), 0);
    /* a set of heaps with a gap is not a heap; {*0..*3, {*2}} neither */
    IgId gap[3] = {id[0], id[1], id[3]}, g;
    CHECK(ig_make(T, gap, 3, &g, &E) == CGT_OK);
    CHECK(ig_nim_size(T, g) < 0);
    CHECK_EQ_INT(ig_nimber(T, g), 2);
    IgId two[1] = {id[2]}, x;
    CHECK(ig_make(T, two, 1, &x, &E) == CGT_OK);
    IgId mixed[5] = {id[0], id[1], id[2], id[3], x};
    CHECK(ig_make(T, mixed, 5, &g, &E) == CGT_OK);
    CHECK(ig_nim_size(T, g) < 0);
    size_t n = 0;
    CHECK(ig_size(T, g, &n, &E) == CGT_OK);
    CHECK_EQ_INT(n, 6); /* g, {*2}, *0..*3 */
    /* *100000: 100001 nodes, no option entries; a game with it as an
       option counts its positions without walking n^2 entries */
    size_t before = ig_count(T);
    IgId big;
    CHECK(ig_nim(T, 100000, &big, &E) == CGT_OK);
    CHECK_EQ_INT(ig_count(T) - before, 100000 - K);
    CHECK_EQ_INT(ig_option_count(T), 9); /* the three sets above */
    IgId pair[2] = {big, x};
    CHECK(ig_make(T, pair, 2, &g, &E) == CGT_OK);
    CHECK(ig_size(T, g, &n, &E) == CGT_OK);
    CHECK_EQ_INT(n, 100003);
    CHECK_EQ_INT(ig_birthday(T, g), 100001);
    /* a stop (Ctrl-C) inside a reduction is an error, and the reduction
       runs again afterwards with the same result as in a fresh store */
    IgId sum, c1, c2;
    IgId n40;
    CHECK(ig_nim(T, 40, &n40, &E) == CGT_OK);
    CHECK(ig_sum(T, n40, id[2], &sum, &E) == CGT_OK);
    cgt_interrupt_flag = 1;
    CHECK(ig_canon(T, sum, &c1, &E) == CGT_ERR_INTERRUPTED);
    cgt_interrupt_flag = 0;
    CHECK(ig_canon(T, sum, &c1, &E) == CGT_OK);
    IgStore *U = ig_new();
    IgId a40, a2, usum;
    CHECK(ig_nim(U, 40, &a40, &E) == CGT_OK && ig_nim(U, 2, &a2, &E) == CGT_OK);
    CHECK(ig_sum(U, a40, a2, &usum, &E) == CGT_OK);
    CHECK(ig_canon(U, usum, &c2, &E) == CGT_OK);
    CHECK_EQ_INT(ig_birthday(T, c1), ig_birthday(U, c2));
    CHECK_EQ_INT(ig_misere_value(T, c1), ig_misere_value(U, c2));
    CHECK_EQ_INT(ig_nopts(T, c1), ig_nopts(U, c2));
    size_t p1 = 0, p2 = 0;
    CHECK(ig_size(T, c1, &p1, &E) == CGT_OK && ig_size(U, c2, &p2, &E) == CGT_OK);
    CHECK_EQ_INT(p1, p2);
    ig_free(U);
    ig_free(T);
}

int main(void)
{
    S = ig_new();
    test_counts();
    test_nim();
    test_figure4();
    test_nim_heaps();
    ig_free(S);
    UNIT_MAIN_END();
}
