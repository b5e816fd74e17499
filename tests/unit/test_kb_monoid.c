/* Unit tests for src/lib/rewrite/monoid.c.  Oracles: Plambeck's Dawson's Chess
 * note (2005):
 * the elements of Q0.07(24) (Figure 5), its rewriting rules (Figure 6),
 * its P-portion {x, z^2, wx, vx, vxw} and that of Q0.07(29); and naive
 * computations written here from the definitions (products by rewriting
 * with the published rules, idempotents, H-classes, indistinguishability
 * by quantifying over all z, element orders of products of cyclic
 * groups). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/kb.h"
#include "lib/rewrite/monoid.h"
#include "unit.h"

static void rd(const char *letters, const char *s, uint32_t *w)
{
    int g = (int)strlen(letters);
    memset(w, 0, (size_t)g * sizeof *w);
    if (strcmp(s, "e") == 0)
        return;
    while (*s) {
        const char *p = strchr(letters, *s++);
        unsigned e = 0;
        while (*s >= '0' && *s <= '9')
            e = e * 10 + (unsigned)(*s++ - '0');
        w[p - letters] += e ? e : 1;
    }
}

/* Figure 5 and Figure 6 of the note */
static const char *FIG5[] = {"e",   "x",   "z",   "w",   "v",    "xz",   "xw",  "xv",
                             "z2",  "zw",  "zv",  "wv",  "xz2",  "xzw",  "xzv", "xwv",
                             "z3",  "wz2", "vz2", "zwv", "xvz2", "xzwv", "vz3", "wvz2"};
static const char *FIG6[] = {"x2", "e",   "w2",  "e",   "v2",   "e",  "z4",
                             "z2", "wz3", "xz2", "xz3", "wz2", "xwz2", "z3"};

static uint32_t E[24][4], L[7][4], R[7][4];

static void naive_nf(uint32_t *w)
{
    for (bool ch = true; ch;) {
        ch = false;
        for (int i = 0; i < 7; i++) {
            int t;
            for (t = 0; t < 4 && L[i][t] <= w[t]; t++)
                ;
            if (t == 4) {
                for (t = 0; t < 4; t++)
                    w[t] = w[t] - L[i][t] + R[i][t];
                ch = true;
            }
        }
    }
}

static int naive_idx(const uint32_t *w)
{
    for (int i = 0; i < 24; i++)
        if (memcmp(E[i], w, sizeof E[i]) == 0)
            return i;
    return -1;
}

static int nmul(int a, int b)
{
    uint32_t w[4];
    for (int t = 0; t < 4; t++)
        w[t] = E[a][t] + E[b][t];
    naive_nf(w);
    return naive_idx(w);
}

/* number of elements of each order in C_d1 x ... x C_dk */
static void cyclic_orders(const uint64_t *d, size_t k, size_t *hist, size_t maxo)
{
    memset(hist, 0, (maxo + 1) * sizeof *hist);
    size_t idx[16] = {0};
    for (;;) {
        /* order = lcm of d_i / gcd(d_i, idx_i) */
        uint64_t o = 1;
        for (size_t i = 0; i < k; i++) {
            uint64_t a = d[i], b = idx[i], gg;
            uint64_t x = a, y = b;
            while (y) {
                uint64_t t = x % y;
                x = y;
                y = t;
            }
            gg = x;
            uint64_t oi = a / gg, p = o, q = oi;
            while (q) {
                uint64_t t = p % q;
                p = q;
                q = t;
            }
            o = o / p * oi;
        }
        if (o <= maxo)
            hist[o]++;
        size_t i = 0;
        while (i < k && ++idx[i] == d[i])
            idx[i++] = 0;
        if (i == k)
            break;
    }
}

static void test_q24_monoid(void)
{
    for (int i = 0; i < 24; i++)
        rd("xzwv", FIG5[i], E[i]);
    for (int i = 0; i < 7; i++) {
        rd("xzwv", FIG6[2 * i], L[i]);
        rd("xzwv", FIG6[2 * i + 1], R[i]);
    }
    const char *names[] = {"x", "z", "w", "v"};
    Presentation *p = pres_new(4, names);
    const char *rels[] = {"x2", "e", "z4", "z2", "w2", "e", "v2", "e", "z2", "wxz3"};
    for (int i = 0; i < 5; i++) {
        uint32_t a[4], b[4];
        rd("xzwv", rels[2 * i], a);
        rd("xzwv", rels[2 * i + 1], b);
        pres_add_relation(p, a, b);
    }
    KbSystem *s = NULL;
    CgtError e;
    CHECK_EQ_INT(kb_complete(p, NULL, NULL, &s, &e), CGT_OK);
    FiniteMonoid *m = NULL;
    CHECK_EQ_INT(monoid_from_system(s, 0, 0, &m, &e), CGT_OK);
    if (!m) {
        kb_free(s);
        pres_free(p);
        return;
    }
    CHECK_EQ_INT(m->order, 24);
    CHECK(m->mul != NULL);
    /* map the monoid's numbering to Figure 5's */
    int to_fig[24];
    for (size_t i = 0; i < 24; i++) {
        to_fig[i] = naive_idx(m->elems + 4 * i);
        CHECK(to_fig[i] >= 0);
    }
    CHECK_EQ_INT(to_fig[0], 0); /* identity first */
    int badmul = 0;
    for (size_t a = 0; a < 24; a++)
        for (size_t b = 0; b < 24; b++)
            if (to_fig[monoid_mul(m, a, b)] != nmul(to_fig[a], to_fig[b]))
                badmul++;
    CHECK_EQ_INT(badmul, 0);
    /* idempotents */
    size_t *ids, nid;
    monoid_idempotents(m, &ids, &nid);
    int nnaive = 0;
    for (int i = 0; i < 24; i++)
        nnaive += nmul(i, i) == i;
    CHECK_EQ_INT(nid, nnaive);
    for (size_t k = 0; k < nid; k++) {
        int ef = to_fig[ids[k]];
        CHECK(nmul(ef, ef) == ef);
        MonoidGroup G;
        CHECK_EQ_INT(monoid_maximal_subgroup(m, ids[k], &G, &e), CGT_OK);
        /* naive H-class: x e = x and x y = e for some y */
        int h = 0;
        size_t hist_naive[25] = {0};
        for (int x = 0; x < 24; x++) {
            if (nmul(x, ef) != x)
                continue;
            bool unit = false;
            for (int y = 0; y < 24; y++)
                unit |= nmul(x, y) == ef;
            if (!unit)
                continue;
            h++;
            int o = 1, y = x;
            while (y != ef) {
                y = nmul(y, x);
                o++;
            }
            hist_naive[o]++;
        }
        CHECK_EQ_INT(G.order, h);
        size_t hist[25];
        cyclic_orders(G.invariants, G.ninvariants, hist, 24);
        CHECK(memcmp(hist, hist_naive, sizeof hist) == 0);
        uint64_t prod = 1;
        for (size_t i = 0; i < G.ninvariants; i++) {
            prod *= G.invariants[i];
            if (i)
                CHECK(G.invariants[i] % G.invariants[i - 1] == 0);
        }
        CHECK_EQ_INT(prod, h);
        monoid_group_free(&G);
    }
    /* the identity's group: the units of Q(24) are generated by x, w, v
     * (each of order 2, Figure 6's x2=w2=v2=e): C2 x C2 x C2 */
    MonoidGroup G;
    CHECK_EQ_INT(monoid_maximal_subgroup(m, 0, &G, &e), CGT_OK);
    char *str = monoid_group_structure(&G);
    CHECK_EQ_STR(str, "C2 x C2 x C2");
    free(str);
    monoid_group_free(&G);
    free(ids);
    CHECK_EQ_INT(monoid_maximal_subgroup(m, 1, &G, &e) == CGT_OK ? 1 : 0,
                 monoid_mul(m, 1, 1) == 1);
    monoid_group_free(&G);

    /* P-portion of Q(24) from the note: a misère quotient, so reduced */
    const char *P24[] = {"x", "z2", "xw", "xv", "xwv"};
    bool inp[24] = {0};
    for (int k = 0; k < 5; k++) {
        uint32_t w[4];
        rd("xzwv", P24[k], w);
        size_t i = monoid_find(m, w);
        CHECK(i != MONOID_NONE);
        if (i != MONOID_NONE)
            inp[i] = true;
    }
    MonoidBipartite B;
    CHECK_EQ_INT(monoid_bipartite(m, inp, &B, &e), CGT_OK);
    CHECK(B.reduced);
    CHECK_EQ_INT(B.nclasses, 24);
    CHECK(B.identity_not_in_p);
    CHECK(B.could_be_misere);
    CHECK(B.star_candidate);
    monoid_bipartite_free(&B);

    /* arbitrary P sets: compare with the definition (quantify over z) */
    uint64_t st = 7;
    int bad = 0;
    for (int round = 0; round < 40; round++) {
        bool q[24];
        for (int i = 0; i < 24; i++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            q[i] = (st >> 60) < (uint64_t)(round % 8 + 1);
        }
        CHECK_EQ_INT(monoid_bipartite(m, q, &B, &e), CGT_OK);
        for (size_t a = 0; a < 24; a++)
            for (size_t b = 0; b < 24; b++) {
                bool same = true;
                for (size_t z = 0; z < 24; z++)
                    if (q[monoid_mul(m, a, z)] != q[monoid_mul(m, b, z)])
                        same = false;
                if (same != (B.cls[a] == B.cls[b]))
                    bad++;
            }
        FiniteMonoid *Q = monoid_quotient(m, &B);
        CHECK_EQ_INT(Q->order, B.nclasses);
        for (size_t a = 0; a < 24; a++)
            for (size_t b = 0; b < 24; b++)
                if (monoid_mul(Q, B.cls[a], B.cls[b]) != B.cls[monoid_mul(m, a, b)])
                    bad++;
        monoid_free(Q);
        CHECK_EQ_INT(B.identity_not_in_p, !q[0]);
        monoid_bipartite_free(&B);
    }
    CHECK_EQ_INT(bad, 0);
    /* eval of any word */
    uint32_t w[4] = {3, 7, 2, 5};
    size_t i = monoid_eval(m, w);
    naive_nf(w);
    CHECK_EQ_INT(to_fig[i], naive_idx(w));
    monoid_free(m);
    kb_free(s);
    pres_free(p);
}

static void test_q29_bipartite(void)
{
    const char *names[] = {"x", "z", "w", "v", "g"};
    const char *rels[] = {"x2", "e", "z4", "z2", "w2", "e", "v2", "e", "g3", "g2",
                          "z2", "wxz3", "g2", "g2z2", "gz", "gz3"};
    Presentation *p = pres_new(5, names);
    for (int i = 0; i < 8; i++) {
        uint32_t a[5], b[5];
        rd("xzwvg", rels[2 * i], a);
        rd("xzwvg", rels[2 * i + 1], b);
        pres_add_relation(p, a, b);
    }
    KbSystem *s = NULL;
    FiniteMonoid *m = NULL;
    CgtError e;
    CHECK_EQ_INT(kb_complete(p, NULL, NULL, &s, &e), CGT_OK);
    CHECK_EQ_INT(monoid_from_system(s, 0, 8, &m, &e), CGT_OK);
    if (m) {
        CHECK_EQ_INT(m->order, 48);
        CHECK(m->mul == NULL); /* over the table limit: products by walking */
        const char *P29[] = {"x", "z2", "xw", "xv", "xwv", "g2", "xzg"};
        bool *inp = calloc(48, 1);
        for (int k = 0; k < 7; k++) {
            uint32_t w[5];
            rd("xzwvg", P29[k], w);
            CHECK_EQ_INT(kb_reduce(s, w, 0, &e), CGT_OK);
            size_t i = monoid_find(m, w);
            CHECK(i != MONOID_NONE);
            if (i != MONOID_NONE)
                inp[i] = true;
        }
        MonoidBipartite B;
        CHECK_EQ_INT(monoid_bipartite(m, inp, &B, &e), CGT_OK);
        CHECK(B.reduced);
        CHECK(B.could_be_misere);
        monoid_bipartite_free(&B);
        /* P = {1}: fails the identity condition */
        memset(inp, 0, 48);
        inp[0] = true;
        CHECK_EQ_INT(monoid_bipartite(m, inp, &B, &e), CGT_OK);
        CHECK(!B.identity_not_in_p);
        CHECK(!B.could_be_misere);
        monoid_bipartite_free(&B);
        free(inp);
    }
    monoid_free(m);
    kb_free(s);
    pres_free(p);
    /* infinite and non-confluent systems are refused */
    const char *n2[] = {"x", "z"};
    uint32_t r[] = {2, 0, 0, 0};
    KbSystem *t = kb_system_from_rules(2, n2, NULL, r, 1);
    CHECK_EQ_INT(monoid_from_system(t, 0, 0, &m, &e), CGT_ERR_DOMAIN);
    t->confluent = true;
    CHECK_EQ_INT(monoid_from_system(t, 0, 0, &m, &e), CGT_ERR_DOMAIN);
    CHECK(strstr(e.msg, "infinite") != NULL);
    kb_free(t);
}

/* Figures 8 and 9 of the note as extracted (superscripts lost, so "z2zw"
 * is z^2 then zw): the 128 elements and the 27 P-position types of
 * Q0.07(31), generators in the note's letter order x z w m v g c h. */
static const char *FIG8 =
    "e x z w m v g c h xz xw xm xv xg xc xh z2zw zm zv zg zc zh w2 wm wv wg wc wh m2mv mg "
    "mc mh v2vg vc vh g2gc gh ch h2xz2xzv xzg xzc xzh xwh xm2xmh xv2xvg xvc xvh xgh "
    "xch xh2z2v zw2zwm zwh zvg zvc zvh zg2zgc zgh w2v w2g w2h wmv wmg wmh wv2wvg wvc wgh "
    "wch wh2 m2h mv2mvg mvc mgh mch mh2v2g v2h vg2vgc vgh ch2h3xzvg xzvc xzvh xwh2xm2h "
    "xmh2xv2g xv2h xvgh xch2 xh3zvg2w2v2w2vg w2gh w2h2wmv2wmvg wmgh wmh2wv2g wch2wh3mv2g "
    "mch2mh3 v2gh xwh3xmh3xv2gh w2v2g w2h3wmv2g wmh3";
static const char *FIG9 = "x m h xw xv z2wm wh mv vh g2xzg xm2xmh xv2xh2zgc w2h "
                          "wmv wgh m2h mv2mch vgh wmv2wh3xmh3";
static const char *L8 = "xzwvghmc";

/* read one factor-run word "xz2" from s[i..j) into w; false if malformed */
static bool rd8(const char *s, size_t i, size_t j, uint32_t *w)
{
    memset(w, 0, 8 * sizeof *w);
    if (j == i + 1 && s[i] == 'e')
        return true;
    while (i < j) {
        const char *p = strchr(L8, s[i]);
        if (!p || s[i] == 0 || s[i] == 'e')
            return false;
        i++;
        unsigned k = 0;
        while (i < j && s[i] >= '0' && s[i] <= '9')
            k = k * 10 + (unsigned)(s[i++] - '0');
        w[p - L8] += k ? k : 1;
    }
    return true;
}

/* Split each blank-separated group of `text` into words of the set `el`
 * (n words) by dynamic programming; mark[] counts the uses of each. */
static int segment(const char *text, const uint32_t *el, size_t n, int *mark)
{
    int total = 0;
    size_t len = strlen(text);
    for (size_t a = 0; a < len;) {
        while (a < len && text[a] == ' ')
            a++;
        size_t b = a;
        while (b < len && text[b] != ' ')
            b++;
        if (a == b)
            break;
        size_t m = b - a;
        int prev[64];
        size_t from[64];
        for (size_t i = 0; i <= m; i++)
            prev[i] = -1;
        prev[0] = 0;
        for (size_t i = 0; i < m; i++) {
            if (prev[i] < 0)
                continue;
            for (size_t j = i + 1; j <= m; j++) {
                uint32_t w[8];
                if (!rd8(text + a, i, j, w))
                    continue;
                if (j < m && text[a + j] >= '0' && text[a + j] <= '9')
                    continue; /* do not cut inside an exponent */
                for (size_t k = 0; k < n; k++)
                    if (memcmp(el + 8 * k, w, sizeof w) == 0 && prev[j] < 0) {
                        prev[j] = (int)k;
                        from[j] = i;
                    }
            }
        }
        if (prev[m] < 0)
            return -1;
        for (size_t j = m; j > 0; j = from[j]) {
            mark[prev[j]]++;
            total++;
        }
        a = b;
    }
    return total;
}

static void test_q31_figures(void)
{
    const char *paths[] = {"tests/data/q31_rules.txt", "../tests/data/q31_rules.txt"};
    FILE *f = NULL;
    for (int i = 0; i < 2 && !f; i++)
        f = fopen(paths[i], "r");
    CHECK(f != NULL);
    if (!f)
        return;
    uint32_t rules[16 * 100];
    size_t n = 0;
    char line[256], a[64], b[64];
    while (fgets(line, sizeof line, f) && n < 100) {
        if (line[0] == '#' || sscanf(line, "%63s %63s", a, b) != 2)
            continue;
        rd(L8, a, rules + 16 * n);
        rd(L8, b, rules + 16 * n + 8);
        n++;
    }
    fclose(f);
    CHECK_EQ_INT(n, 91);
    const char *names[] = {"x", "z", "w", "v", "g", "h", "m", "c"};
    KbSystem *s = kb_system_from_rules(8, names, NULL, rules, n);
    KbCheck ck;
    CgtError e;
    CHECK_EQ_INT(kb_check(s, 0, &ck, &e), CGT_OK);
    CHECK(ck.locally_confluent && ck.terminated);
    CHECK(kb_accept_check(s, &ck)); /* locally confluent + terminating (Newman) */
    CHECK(!s->reduced);
    kb_check_free(&ck);
    FiniteMonoid *m = NULL;
    CHECK_EQ_INT(monoid_from_system(s, 0, 0, &m, &e), CGT_OK);
    if (m) {
        CHECK_EQ_INT(m->order, 128);
        /* Figure 8 splits into exactly our 128 normal forms, each once */
        int mark[128] = {0};
        CHECK_EQ_INT(segment(FIG8, m->elems, m->order, mark), 128);
        int once = 0;
        for (int i = 0; i < 128; i++)
            once += mark[i] == 1;
        CHECK_EQ_INT(once, 128);
        /* Figure 9 as extracted: 27 P-types, all among the 128 elements */
        int pm[128] = {0};
        CHECK_EQ_INT(segment(FIG9, m->elems, m->order, pm), 27);
        bool inp[128];
        int np = 0;
        for (int i = 0; i < 128; i++) {
            inp[i] = pm[i] > 0;
            np += inp[i];
        }
        CHECK_EQ_INT(np, 27);
        /* The extracted Figures 7 and 9 disagree: Figure 7 has the rules
         * [xg2,g2] and [xzgc,zgc], so x*g2 = g2 and x*zgc = zgc, while
         * Figure 9 puts g2 and zgc in P; for x = *1 (heap 2) a P-position
         * G has G + *1 in N, so no misère quotient allows this.  The checks
         * must say so (docs/kb.md §6), and the partition must agree with the
         * definition of indistinguishability computed naively here. */
        uint32_t g2[8] = {0, 0, 0, 0, 2, 0, 0, 0}, zgc[8] = {0, 1, 0, 0, 1, 0, 0, 1};
        size_t ig2 = monoid_find(m, g2), izgc = monoid_find(m, zgc);
        CHECK(ig2 != MONOID_NONE && inp[ig2] && monoid_mul(m, 1, ig2) == ig2);
        CHECK(izgc != MONOID_NONE && inp[izgc] && monoid_mul(m, 1, izgc) == izgc);
        MonoidBipartite B;
        CHECK_EQ_INT(monoid_bipartite(m, inp, &B, &e), CGT_OK);
        CHECK(B.identity_not_in_p);
        CHECK(!B.star_candidate || B.star != 1);
        size_t naive_classes = 0;
        int badcls = 0;
        for (size_t i = 0; i < 128; i++) {
            bool first = true;
            for (size_t j = 0; j < 128; j++) {
                bool same = true;
                for (size_t z = 0; z < 128 && same; z++)
                    same = inp[monoid_mul(m, i, z)] == inp[monoid_mul(m, j, z)];
                if (same && j < i)
                    first = false;
                if (same != (B.cls[i] == B.cls[j]))
                    badcls++;
            }
            naive_classes += first;
        }
        CHECK_EQ_INT(badcls, 0);
        CHECK_EQ_INT(B.nclasses, naive_classes);
        CHECK_EQ_INT(B.reduced, naive_classes == 128);
        CHECK_EQ_INT(B.could_be_misere, naive_classes == 128);
        monoid_bipartite_free(&B);
    }
    monoid_free(m);
    kb_free(s);
}

int main(void)
{
    test_q31_figures();
    test_q24_monoid();
    test_q29_bipartite();
    UNIT_MAIN_END();
}
