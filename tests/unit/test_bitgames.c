/* Tests for games/bitgames: every search is compared with a naive
 * brute force written here (plain arrays indexed by the whole state, no
 * symmetry, no components), and the corrected statements of Huggan and
 * Tennenhouse (Prop 2.3, Thm 2.5, Thm 3.2, Thm 4.6/Cor 4.7) are checked
 * against those brute forces.  CGT_SLOW=1 widens the ranges. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bitgames/bitgames.h"
#include "unit.h"

static int slow;

/* ---- naive oracles ---- */

static int nv_mex(const unsigned char *seen, int n)
{
    int m = 0;
    while (m < n && seen[m])
        m++;
    return m;
}

static int nv_ent(unsigned b, int n)
{
    int e = 0;
    for (int i = 0; i + 1 < n; i++)
        e += ((b >> i) & 1) != ((b >> (i + 1)) & 1);
    return e;
}

/* ga1 (game 1) or ga2 (game 2) on n-bit strings, memo indexed by bits */
static int nv_ga(int game, unsigned b, int n, int *memo)
{
    if (memo[b] >= 0)
        return memo[b];
    unsigned char seen[600] = {0};
    int e = nv_ent(b, n);
    if (game == 1) {
        for (int k = 1; k <= n - 1; k++) {
            unsigned c = b ^ ((1u << k) - 1);
            if (nv_ent(c, n) > e)
                seen[nv_ga(game, c, n, memo)] = 1;
        }
        for (int i = 0; i < n; i++) {
            unsigned c = b ^ (1u << i);
            if (nv_ent(c, n) > e)
                seen[nv_ga(game, c, n, memo)] = 1;
        }
    } else {
        for (int x = 1; x <= n; x++)
            for (int y = x + 1; y <= n; y++) {
                unsigned c = b;
                for (int p = x; p <= y - 1; p++)
                    c ^= 1u << (p - 1);
                if (nv_ent(c, n) > e)
                    seen[nv_ga(game, c, n, memo)] = 1;
            }
    }
    return memo[b] = nv_mex(seen, 600);
}

static int *nv_table(int game, int n)
{
    int *memo = malloc(sizeof(int) << n);
    for (unsigned b = 0; b < (1u << n); b++)
        memo[b] = -1;
    for (unsigned b = 0; b < (1u << n); b++)
        nv_ga(game, b, n, memo);
    return memo;
}

static void to_str(unsigned b, int n, char *s)
{
    for (int i = 0; i < n; i++)
        s[i] = (b >> i & 1) ? '1' : '0';
    s[n] = 0;
}

/* string with the given run lengths */
static int runs_str(const int *h, int k, char *s)
{
    int n = 0;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < h[i]; j++)
            s[n++] = (char)('0' + (i & 1));
    s[n] = 0;
    return n;
}

static unsigned str_bits(const char *s)
{
    unsigned b = 0;
    for (int i = 0; s[i]; i++)
        if (s[i] == '1')
            b |= 1u << i;
    return b;
}

/* Kayles 0.77 and Dawson's Kayles 0.07 by their own rules */
static void nv_octal(int max, int *v, int dawson)
{
    for (int n = 0; n <= max; n++) {
        unsigned char seen[600] = {0};
        for (int t = dawson ? 2 : 1; t <= 2; t++)
            for (int a = 0; a <= n - t; a++)
                seen[v[a] ^ v[n - t - a]] = 1;
        v[n] = nv_mex(seen, 600);
    }
}

/* the corrected Proposition 2.3 rules (a)-(d) on one heap >= 2 */
static void nv_prop23(int max, int *v)
{
    v[0] = v[1] = 0;
    for (int h = 2; h <= max; h++) {
        unsigned char seen[600] = {0};
        for (int a = 2; h - a >= 2; a++)
            seen[v[a] ^ v[h - a]] = 1; /* (a) */
        if (h >= 3 && h - 1 >= 2)
            seen[v[h - 1]] = 1; /* (b) remove 1 */
        if (h >= 4)
            seen[v[h - 2]] = 1; /* (b) remove 2 */
        for (int a = 2; h - 1 - a >= 2; a++)
            seen[v[a] ^ v[h - 1 - a]] = 1; /* (c) */
        if (h == 2 || h == 3)
            seen[0] = 1; /* (d) */
        v[h] = nv_mex(seen, 600);
    }
}

/* cm on pairs of n-bit strings: index a | b << n */
static int nv_cm(unsigned a, unsigned b, int n, int *memo)
{
    unsigned idx = a | (b << n);
    if (memo[idx] >= 0)
        return memo[idx];
    unsigned char seen[600] = {0};
    int e = nv_ent(a, n) + nv_ent(b, n);
    for (int k = 1; k <= n - 1; k++) {
        unsigned m = (1u << k) - 1;
        unsigned a2 = (a & ~m) | (b & m), b2 = (b & ~m) | (a & m);
        if (nv_ent(a2, n) + nv_ent(b2, n) > e)
            seen[nv_cm(a2, b2, n, memo)] = 1;
    }
    for (int i = 0; i < n; i++) {
        if (nv_ent(a ^ (1u << i), n) + nv_ent(b, n) > e)
            seen[nv_cm(a ^ (1u << i), b, n, memo)] = 1;
        if (nv_ent(a, n) + nv_ent(b ^ (1u << i), n) > e)
            seen[nv_cm(a, b ^ (1u << i), n, memo)] = 1;
    }
    return memo[idx] = nv_mex(seen, 600);
}

/* arc kayles over subsets of edges */
static int nv_arc(unsigned alive, int ne, const int *ed, int *memo)
{
    if (memo[alive] >= 0)
        return memo[alive];
    unsigned char seen[600] = {0};
    for (int e = 0; e < ne; e++) {
        if (!(alive >> e & 1))
            continue;
        unsigned rest = alive;
        for (int f = 0; f < ne; f++)
            if ((rest >> f & 1) && (ed[2 * f] == ed[2 * e] || ed[2 * f] == ed[2 * e + 1] ||
                                    ed[2 * f + 1] == ed[2 * e] || ed[2 * f + 1] == ed[2 * e + 1]))
                rest &= ~(1u << f);
        seen[nv_arc(rest, ne, ed, memo)] = 1;
    }
    return memo[alive] = nv_mex(seen, 600);
}

static int nv_arc_value(int ne, const int *ed)
{
    int *memo = malloc(sizeof(int) << ne);
    for (unsigned i = 0; i < (1u << ne); i++)
        memo[i] = -1;
    int v = nv_arc((1u << ne) - 1, ne, ed, memo);
    free(memo);
    return v;
}

/* cram over subsets of empty cells */
static int nv_cram(unsigned empty, int r, int c, int *memo)
{
    if (memo[empty] >= 0)
        return memo[empty];
    unsigned char seen[600] = {0};
    for (int i = 0; i < r; i++)
        for (int j = 0; j < c; j++) {
            int p = i * c + j;
            if (!(empty >> p & 1))
                continue;
            if (j + 1 < c && (empty >> (p + 1) & 1))
                seen[nv_cram(empty & ~(3u << p), r, c, memo)] = 1;
            if (i + 1 < r && (empty >> (p + c) & 1))
                seen[nv_cram(empty & ~(1u << p) & ~(1u << (p + c)), r, c, memo)] = 1;
        }
    return memo[empty] = nv_mex(seen, 600);
}

static unsigned lcg_state = 12345;
static unsigned lcg(void)
{
    lcg_state = lcg_state * 1103515245u + 12345u;
    return lcg_state >> 16;
}

/* ---- tests ---- */

static void test_basics(void)
{
    int runs[8];
    CHECK_EQ_INT(bit_entropy("001000111"), 3);
    CHECK_EQ_INT(bit_runs("001000111", runs, 8), 4);
    CHECK(runs[0] == 2 && runs[1] == 1 && runs[2] == 3 && runs[3] == 3);
    CHECK_EQ_INT(bit_entropy("01x"), -1);
    CgtError err;
    int v;
    CHECK(bit_ga1_grundy(NULL, "0120", &v, &err) == CGT_ERR_DOMAIN);
    CHECK(bit_cm_grundy(NULL, "01", "011", &v, &err) == CGT_ERR_DOMAIN);
    int loop[2] = {1, 1};
    CHECK(bit_arc_kayles_grundy(3, loop, 1, &v, &err) == CGT_ERR_DOMAIN);
    CHECK(bit_cram_grundy(NULL, 9, 9, NULL, &v, &err) == CGT_ERR_DOMAIN);
    int bad[2] = {3, 0};
    CHECK(bit_ga2_heaps_grundy(NULL, bad, 2, &v, &err) == CGT_ERR_DOMAIN);
}

/* ga1: search = naive; heap form = naive; Prop 2.3 (corrected); Thm 2.5 */
static void test_ga1(void)
{
    BitMemo *m = bitmemo_new();
    CgtError err;
    int hv[400], p23[400], kay[400];
    bit_ga1_heap_values(300, hv);
    nv_prop23(300, p23);
    nv_octal(300, kay, 0);
    int maxn = slow ? 15 : 13;
    int bad_search = 0, bad_heap = 0, bad_prop = 0;
    for (int n = 1; n <= maxn; n++) {
        int *t = nv_table(1, n);
        for (unsigned b = 0; b < (1u << n); b++) {
            char s[40];
            int v, runs[40];
            to_str(b, n, s);
            if (bit_ga1_grundy(m, s, &v, &err) != CGT_OK || v != t[b])
                bad_search++;
            int k = bit_runs(s, runs, 40), x = 0, y = 0;
            for (int i = 0; i < k; i++) {
                x ^= hv[runs[i]];
                y ^= p23[runs[i]];
            }
            bad_heap += x != t[b];
            bad_prop += y != t[b];
        }
        /* Theorem 2.5: a single run of n equals Kayles n-1 */
        CHECK_EQ_INT(t[(1u << n) - 1], kay[n - 1]);
        free(t);
    }
    CHECK_EQ_INT(bad_search, 0);
    CHECK_EQ_INT(bad_heap, 0);
    CHECK_EQ_INT(bad_prop, 0);
    int bad_k = 0;
    for (int h = 1; h <= 300; h++)
        bad_k += hv[h] != kay[h - 1] || p23[h] != kay[h - 1];
    CHECK_EQ_INT(bad_k, 0);
    /* Kayles published values (Winning Ways ch. 4): 0 1 2 3 1 4 3 2 1 4 2 6 */
    static const int pub[12] = {0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6};
    for (int i = 0; i < 12; i++)
        CHECK_EQ_INT(kay[i], pub[i]);
    bitmemo_free(m);
}

/* ga2: search = naive; heap form = naive; Theorem 3.2 (corrected) */
static void test_ga2(void)
{
    BitMemo *m = bitmemo_new();
    CgtError err;
    int maxn = slow ? 14 : 12;
    int bad_search = 0, bad_heap = 0, bad_thm = 0;
    for (int n = 1; n <= maxn; n++) {
        int *t = nv_table(2, n);
        for (unsigned b = 0; b < (1u << n); b++) {
            char s[40];
            int v, w, runs[40];
            to_str(b, n, s);
            if (bit_ga2_grundy(m, s, &v, &err) != CGT_OK || v != t[b])
                bad_search++;
            int k = bit_runs(s, runs, 40);
            if (bit_ga2_heaps_grundy(m, runs, k, &w, &err) != CGT_OK || w != t[b])
                bad_heap++;
            bad_thm += bit_ga2_formula(runs, k) != t[b];
        }
        free(t);
    }
    CHECK_EQ_INT(bad_search, 0);
    CHECK_EQ_INT(bad_heap, 0);
    CHECK_EQ_INT(bad_thm, 0);

    /* the paper's GP formulas, against naive string search on the runs */
    int lim = slow ? 8 : 6, bad1 = 0, bad2 = 0, bad3 = 0;
    int *tabs[25] = {0};
    for (int h1 = 1; h1 <= 8; h1++) {
        char s[40];
        int h[1] = {h1};
        int n = runs_str(h, 1, s);
        if (!tabs[n])
            tabs[n] = nv_table(2, n);
        bad1 += tabs[n][str_bits(s)] != (h1 - 1) % 3;
        for (int h2 = 1; h2 <= lim; h2++) {
            int hh[2] = {h1, h2};
            n = runs_str(hh, 2, s);
            if (!tabs[n])
                tabs[n] = nv_table(2, n);
            bad2 += tabs[n][str_bits(s)] != (h1 + h2 + 1) % 3;
            for (int h3 = 1; h3 <= 4 && h1 <= 5 && h2 <= 5; h3++) {
                int h3v[3] = {h1, h2, h3};
                n = runs_str(h3v, 3, s);
                if (!tabs[n])
                    tabs[n] = nv_table(2, n);
                bad3 += tabs[n][str_bits(s)] != (h1 + h2 + h3) % 3;
            }
        }
    }
    for (int i = 0; i < 25; i++)
        free(tabs[i]);
    CHECK_EQ_INT(bad1, 0);
    CHECK_EQ_INT(bad2, 0);
    CHECK_EQ_INT(bad3, 0);

    /* heap search against the theorem on larger multisets */
    int badh = 0;
    for (int rep = 0; rep < (slow ? 3000 : 300); rep++) {
        int k = 1 + (int)(lcg() % 5), h[5], v;
        for (int i = 0; i < k; i++)
            h[i] = 1 + (int)(lcg() % 8);
        if (bit_ga2_heaps_grundy(m, h, k, &v, &err) != CGT_OK || v != bit_ga2_formula(h, k))
            badh++;
    }
    CHECK_EQ_INT(badh, 0);
    bitmemo_free(m);
}

/* cm: search = naive; Corollary 4.7 (corrected) and the ladder graph */
static void test_cm(void)
{
    BitMemo *m = bitmemo_new();
    CgtError err;
    int maxn = slow ? 7 : 5, bad = 0;
    for (int n = 1; n <= maxn; n++) {
        int *memo = malloc(sizeof(int) << (2 * n));
        for (unsigned i = 0; i < (1u << (2 * n)); i++)
            memo[i] = -1;
        for (unsigned a = 0; a < (1u << n); a++)
            for (unsigned b = 0; b < (1u << n); b++) {
                char sa[40], sb[40];
                int v;
                to_str(a, n, sa);
                to_str(b, n, sb);
                if (bit_cm_grundy(m, sa, sb, &v, &err) != CGT_OK || v != nv_cm(a, b, n, memo))
                    bad++;
            }
        free(memo);
    }
    CHECK_EQ_INT(bad, 0);
    /* Theorem 4.3 for every pair of strings of length <= 5 (6): the naive
     * cm value equals arc kayles on the graph, by the module and by the
     * naive edge-set search */
    int bad_graph = 0, bad_naive = 0;
    for (int n = 1; n <= (slow ? 6 : 5); n++) {
        int *memo = malloc(sizeof(int) << (2 * n));
        for (unsigned i = 0; i < (1u << (2 * n)); i++)
            memo[i] = -1;
        for (unsigned a = 0; a < (1u << n); a++)
            for (unsigned b = 0; b < (1u << n); b++) {
                char sa[40], sb[40];
                int nv, ed[200], ne, v;
                to_str(a, n, sa);
                to_str(b, n, sb);
                int want = nv_cm(a, b, n, memo);
                if (bit_cm_arc_graph(sa, sb, &nv, ed, 100, &ne, &err) != CGT_OK ||
                    bit_arc_kayles_grundy(nv, ed, ne, &v, &err) != CGT_OK || v != want)
                    bad_graph++;
                else if (ne <= 16 && nv_arc_value(ne, ed) != want)
                    bad_naive++;
            }
        free(memo);
    }
    CHECK_EQ_INT(bad_graph, 0);
    CHECK_EQ_INT(bad_naive, 0);
    /* Corollary 4.7: 0^n vs 1^n has value 0 (n odd), *2 (n = 2, 4), *1 else */
    for (int n = 1; n <= (slow ? 13 : 10); n++) {
        char a[40], b[40];
        int v;
        memset(a, '0', (size_t)n);
        memset(b, '1', (size_t)n);
        a[n] = b[n] = 0;
        CHECK(bit_cm_grundy(m, a, b, &v, &err) == CGT_OK);
        int want = n % 2 ? 0 : (n == 2 || n == 4) ? 2 : 1;
        CHECK_EQ_INT(v, want);
        /* Theorem 4.3 for this family: the 2 x (n-1) ladder with four
         * pendant edges (vertices u0..un, w0..wn; rungs u_k w_k, 1<=k<=n-1) */
        int ed[200], ne = 0;
        for (int i = 0; i < n; i++) {
            ed[2 * ne] = i;
            ed[2 * ne + 1] = i + 1;
            ne++;
            ed[2 * ne] = n + 1 + i;
            ed[2 * ne + 1] = n + 2 + i;
            ne++;
        }
        for (int k = 1; k < n; k++) {
            ed[2 * ne] = k;
            ed[2 * ne + 1] = n + 1 + k;
            ne++;
        }
        int g;
        CHECK(bit_arc_kayles_grundy(2 * n + 2, ed, ne, &g, &err) == CGT_OK);
        CHECK_EQ_INT(g, want);
        if (ne <= 17)
            CHECK_EQ_INT(nv_arc_value(ne, ed), want);
    }
    bitmemo_free(m);
}

/* Theorem 4.6 (corrected): the 2 x m grid graph with pendant edges at three
 * corners, or at all four ("h present"), has value *2 for m = 1, 3; *1 for
 * odd m >= 5; 0 for even m, except m = 2 with three pendants (*3). */
static void test_grid_pendants(void)
{
    CgtError err;
    for (int m = 1; m <= (slow ? 16 : 12); m++)
        for (int pend = 3; pend <= 4; pend++) {
            int ed[400], ne = 0, nv = 2 * m, v;
            for (int i = 0; i + 1 < m; i++) {
                ed[2 * ne] = i;
                ed[2 * ne + 1] = i + 1;
                ne++;
                ed[2 * ne] = m + i;
                ed[2 * ne + 1] = m + i + 1;
                ne++;
            }
            for (int i = 0; i < m; i++) {
                ed[2 * ne] = i;
                ed[2 * ne + 1] = m + i;
                ne++;
            }
            int corner[4] = {0, m, m - 1, 2 * m - 1};
            for (int c = 0; c < pend; c++) {
                ed[2 * ne] = corner[c];
                ed[2 * ne + 1] = nv++;
                ne++;
            }
            int want = m % 2 == 0 ? (m == 2 && pend == 3 ? 3 : 0) : m <= 3 ? 2 : 1;
            CHECK(bit_arc_kayles_grundy(nv, ed, ne, &v, &err) == CGT_OK);
            CHECK_EQ_INT(v, want);
            if (ne <= 16)
                CHECK_EQ_INT(nv_arc_value(ne, ed), want);
        }
}

static void test_arc(void)
{
    CgtError err;
    int daw[64];
    nv_octal(60, daw, 1);
    /* a path on n vertices is Dawson's Kayles 0.07 of n */
    for (int n = 1; n <= 40; n++) {
        int ed[200], v;
        for (int i = 0; i + 1 < n; i++) {
            ed[2 * i] = i;
            ed[2 * i + 1] = i + 1;
        }
        CHECK(bit_arc_kayles_grundy(n, ed, n - 1, &v, &err) == CGT_OK);
        CHECK_EQ_INT(v, daw[n]);
    }
    int bad = 0;
    for (int rep = 0; rep < (slow ? 400 : 60); rep++) {
        int nv = 3 + (int)(lcg() % 7), ed[64], ne = 0;
        for (int u = 0; u < nv; u++)
            for (int w = u + 1; w < nv; w++)
                if (lcg() % 3 == 0 && ne < 14) {
                    ed[2 * ne] = u;
                    ed[2 * ne + 1] = w;
                    ne++;
                }
        int v;
        if (bit_arc_kayles_grundy(nv, ed, ne, &v, &err) != CGT_OK || v != nv_arc_value(ne, ed))
            bad++;
    }
    CHECK_EQ_INT(bad, 0);
}

static void test_cram(void)
{
    BitMemo *m = bitmemo_new();
    CgtError err;
    int daw[64];
    nv_octal(60, daw, 1);
    int bad = 0;
    for (int r = 1; r <= 4; r++)
        for (int c = 1; r * c <= (slow ? 20 : 16); c++) {
            int cells = r * c, v;
            int *memo = malloc(sizeof(int) << cells);
            for (unsigned i = 0; i < (1u << cells); i++)
                memo[i] = -1;
            unsigned full = (1u << cells) - 1;
            if (bit_cram_grundy(m, r, c, NULL, &v, &err) != CGT_OK ||
                v != nv_cram(full, r, c, memo))
                bad++;
            for (int rep = 0; rep < 20; rep++) {
                char board[80];
                unsigned e = 0;
                for (int i = 0; i < cells; i++) {
                    int filled = lcg() % 4 == 0;
                    board[i] = filled ? '#' : '.';
                    if (!filled)
                        e |= 1u << i;
                }
                board[cells] = 0;
                if (bit_cram_grundy(m, r, c, board, &v, &err) != CGT_OK ||
                    v != nv_cram(e, r, c, memo))
                    bad++;
            }
            free(memo);
        }
    CHECK_EQ_INT(bad, 0);
    /* 1 x n cram is Dawson's Kayles; 2 x n is 0 for n even, *1 for n odd (WW ch. 23) */
    for (int n = 1; n <= 30; n++) {
        int v;
        CHECK(bit_cram_grundy(m, 1, n, NULL, &v, &err) == CGT_OK);
        CHECK_EQ_INT(v, daw[n]);
    }
    for (int n = 1; n <= (slow ? 12 : 9); n++) {
        int v;
        CHECK(bit_cram_grundy(m, 2, n, NULL, &v, &err) == CGT_OK);
        CHECK_EQ_INT(v, n % 2);
    }
    bitmemo_free(m);
}

int main(void)
{
    slow = getenv("CGT_SLOW") != NULL;
    test_basics();
    test_ga1();
    test_ga2();
    test_cm();
    test_arc();
    test_grid_pendants();
    test_cram();
    UNIT_MAIN_END();
}
