/* Unit tests for src/lib/rewrite/nckb.c (string rewriting completion).  Oracles:
 * published orders of small Coxeter groups (S3 = 6, D4 = 8, S4 = 24 via
 * the Coxeter presentation of A3), the Dawson note's |Q(24)| = 24 with
 * commutation relations added, a naive overlap checker and rewriter
 * written here, and for the confluence check of a rule list as written, the
 * definition (one normal form per word, by exhaustive rewriting). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/kb.h"
#include "lib/rewrite/nckb.h"
#include "lib/rewrite/wordparse.h"
#include "unit.h"

/* words as C strings of letters 'a'.. : naive leftmost rewriting */
typedef struct {
    int n;
    char l[600][40], r[600][40];
} SRules;

static void sys_to_s(const NcSystem *s, SRules *R)
{
    R->n = (int)s->nrules;
    for (size_t i = 0; i < s->nrules; i++) {
        size_t k;
        for (k = 0; k < s->lhs_len[i]; k++)
            R->l[i][k] = (char)('a' + s->words[s->lhs_off[i] + k]);
        R->l[i][k] = 0;
        for (k = 0; k < s->rhs_len[i]; k++)
            R->r[i][k] = (char)('a' + s->words[s->rhs_off[i] + k]);
        R->r[i][k] = 0;
    }
}

static bool sreduce(const SRules *R, char *w, int cap)
{
    for (int steps = 0;; steps++) {
        char *best = NULL;
        int bi = -1;
        for (int i = 0; i < R->n; i++) {
            char *p = strstr(w, R->l[i]);
            if (p && (!best || p < best)) {
                best = p;
                bi = i;
            }
        }
        if (!best)
            return true;
        if (steps > cap)
            return false;
        char tmp[4096];
        size_t pre = (size_t)(best - w);
        snprintf(tmp, sizeof tmp, "%.*s%s%s", (int)pre, w, R->r[bi], best + strlen(R->l[bi]));
        strcpy(w, tmp);
    }
}

/* all overlaps and inclusions of left sides resolve; no lhs contains
 * another; no rhs reducible */
static bool sconfluent(const SRules *R)
{
    char a[4096], b[4096];
    for (int i = 0; i < R->n; i++)
        for (int j = 0; j < R->n; j++) {
            const char *u = R->l[i], *v = R->l[j];
            size_t lu = strlen(u), lv = strlen(v);
            if (i != j && strstr(u, v))
                return false;
            if (strstr(R->r[i], v))
                return false;
            for (size_t k = 1; k < lu && k < lv; k++) {
                if (strncmp(u + lu - k, v, k) != 0)
                    continue;
                snprintf(a, sizeof a, "%s%s", R->r[i], v + k);
                snprintf(b, sizeof b, "%.*s%s", (int)(lu - k), u, R->r[j]);
                if (!sreduce(R, a, 100000) || !sreduce(R, b, 100000) || strcmp(a, b) != 0)
                    return false;
            }
        }
    return true;
}

static NcPresentation *mk(int g, const char *const *rels, int n)
{
    const char *names[] = {"a", "b", "c", "d"};
    NcPresentation *p = ncpres_new(g, names);
    uint32_t l[64], r[64];
    for (int i = 0; i < n; i++) {
        size_t ll = strlen(rels[2 * i]), rl = strlen(rels[2 * i + 1]);
        for (size_t k = 0; k < ll; k++)
            l[k] = (uint32_t)(rels[2 * i][k] - 'a');
        for (size_t k = 0; k < rl; k++)
            r[k] = (uint32_t)(rels[2 * i + 1][k] - 'a');
        ncpres_add_relation(p, l, ll, r, rl);
    }
    return p;
}

static size_t order_of(NcSystem *s)
{
    uint32_t *w;
    size_t *off, *len, n;
    CgtError e;
    if (nckb_elements(s, 100000, &w, &off, &len, &n, &e) != CGT_OK)
        return 0;
    free(w);
    free(off);
    free(len);
    return n;
}

static void check_group(int g, const char *const *rels, int n, size_t order)
{
    NcPresentation *p = mk(g, rels, n);
    NcSystem *s = NULL;
    CgtError e;
    CHECK_EQ_INT(nckb_complete(p, NULL, NULL, &s, &e), CGT_OK);
    if (s) {
        CHECK(s->confluent);
        SRules *R = malloc(sizeof *R);
        sys_to_s(s, R);
        CHECK(sconfluent(R));
        free(R);
        CHECK_EQ_INT(order_of(s), order);
    }
    nckb_free(s);
    ncpres_free(p);
}

static void test_groups(void)
{
    const char *s3[] = {"aa", "", "bbb", "", "abab", ""};
    check_group(2, s3, 3, 6);
    const char *s3b[] = {"aa", "", "bb", "", "ababab", ""};
    check_group(2, s3b, 3, 6);
    const char *d4[] = {"aa", "", "bb", "", "abababab", ""};
    check_group(2, d4, 3, 8);
    const char *s4[] = {"aa", "", "bb", "", "cc", "", "ababab", "", "bcbcbc", "", "acac", ""};
    check_group(3, s4, 6, 24);
    /* the monoid <a, b | ab = ba, a^3 = 1, b^2 = b>: 3 * 2 elements */
    const char *m[] = {"ab", "ba", "aaa", "", "bb", "b"};
    check_group(2, m, 3, 6);
}

static void test_q24_commutative(void)
{
    const char *names[] = {"x", "z", "w", "v"};
    Presentation *p = pres_new(4, names);
    uint32_t rel[][8] = {{2, 0, 0, 0, 0, 0, 0, 0}, {0, 4, 0, 0, 0, 2, 0, 0},
                         {0, 0, 2, 0, 0, 0, 0, 0}, {0, 0, 0, 2, 0, 0, 0, 0},
                         {0, 2, 0, 0, 1, 3, 1, 0}};
    for (int i = 0; i < 5; i++)
        pres_add_relation(p, rel[i], rel[i] + 4);
    NcSystem *s = NULL;
    CgtError e;
    CHECK_EQ_INT(nckb_complete_commutative(p, NULL, &s, &e), CGT_OK);
    if (s) {
        CHECK_EQ_INT(order_of(s), 24);
        SRules *R = malloc(sizeof *R);
        sys_to_s(s, R);
        CHECK(sconfluent(R));
        free(R);
        uint32_t w[] = {3, 2, 1, 0, 1, 1, 3}, *nf;
        size_t nl;
        CHECK_EQ_INT(nckb_reduce(s, w, 7, 0, &nf, &nl, &e), CGT_OK);
        char *t = nckb_format_word(s, nf, nl);
        /* v w z x z z v = x z^3 w v^2 -> x z^3 w -> z^2 w^2 -> z^2 (Figure 6) */
        CHECK_EQ_STR(t, "z^2");
        free(t);
        free(nf);
        char *r = nckb_format_rule(s, 0);
        CHECK_EQ_STR(r, "x^2 -> 1"); /* the note's [x2,e] in the one notation */
        free(r);
    }
    nckb_free(s);
    pres_free(p);
}

static void test_limits(void)
{
    /* <a, b | aba = b>: infinite system of rules a b^k a? - use a cap */
    const char *r[] = {"aba", "b"};
    NcPresentation *p = mk(2, r, 1);
    NcSystem *s = NULL;
    CgtError e;
    NcLimits lim = {50, 0};
    CgtStatus st = nckb_complete(p, NULL, &lim, &s, &e);
    CHECK(s != NULL);
    if (st == CGT_OK) {
        CHECK(s->confluent);
        CHECK_EQ_INT(order_of(s), 0); /* infinite: enumeration hits the cap */
    } else {
        CHECK_EQ_INT(st, CGT_ERR_LIMIT);
        CHECK(!s->confluent);
    }
    nckb_free(s);
    ncpres_free(p);
    /* the Baumslag–Solitar-like <a, b | ab = b a a> has no finite shortlex
     * system with b < a? cap it by left-side length */
    const char *r2[] = {"ba", "aab"};
    p = mk(2, r2, 1);
    NcLimits lim2 = {0, 12};
    int ord[2] = {1, 0};
    st = nckb_complete(p, ord, &lim2, &s, &e);
    CHECK(s != NULL);
    if (s)
        CHECK(st == CGT_OK ? s->confluent : !s->confluent);
    nckb_free(s);
    ncpres_free(p);
}

/* nckb_growing_family: the braid relation aba = bab under shortlex, stopped
 * at 40 rules, holds the family ba^n ba (checked letter by letter here);
 * the complete systems of finite monoids hold no run of 8. */
static void test_family(void)
{
    const char *r[] = {"aba", "bab"};
    NcPresentation *p = mk(2, r, 1);
    NcSystem *s = NULL;
    CgtError e;
    NcLimits lim = {40, 0};
    CHECK_EQ_INT(nckb_complete(p, NULL, &lim, &s, &e), CGT_ERR_LIMIT);
    size_t first = 0, n = s ? nckb_growing_family(s, &first) : 0;
    CHECK(n >= 30);
    for (size_t i = first; s && i + 1 < first + n; i++) {
        /* rule i + 1's left side is rule i's with one more a: b a^k b a */
        size_t k = s->lhs_len[i] - 3;
        const uint32_t *w = s->words + s->lhs_off[i + 1];
        CHECK(s->lhs_len[i + 1] == k + 4 && w[0] == 1 && w[k + 2] == 1 && w[k + 3] == 0);
        for (size_t j = 1; j <= k + 1; j++)
            CHECK(w[j] == 0);
    }
    nckb_free(s);
    ncpres_free(p);
    const char *r2[] = {"aa", "", "bbb", "b"};
    p = mk(2, r2, 2);
    CHECK_EQ_INT(nckb_complete(p, NULL, NULL, &s, &e), CGT_OK);
    CHECK(s && nckb_growing_family(s, &first) < 8);
    nckb_free(s);
    ncpres_free(p);
}

static void test_random(void)
{
    uint64_t st = 99;
    int n = getenv("CGT_SLOW") ? 400 : 80, bad = 0, done = 0;
    for (int round = 0; round < n; round++) {
        const char *rels[8];
        char buf[8][16];
        int nrel = 2 + round % 2;
        for (int i = 0; i < 2 * nrel; i++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            int len = (int)((st >> 33) % (i % 2 ? 3 : 5));
            for (int k = 0; k < len; k++) {
                st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                buf[i][k] = (char)('a' + (st >> 40) % 2);
            }
            buf[i][len] = 0;
            rels[i] = buf[i];
        }
        NcPresentation *p = mk(2, rels, nrel);
        NcSystem *s = NULL;
        CgtError e;
        NcLimits lim = {200, 20};
        if (nckb_complete(p, NULL, &lim, &s, &e) == CGT_OK && s->nrules < 600) {
            done++;
            SRules *R = malloc(sizeof *R);
            sys_to_s(s, R);
            if (!sconfluent(R))
                bad++;
            /* both sides of each relation meet */
            for (int i = 0; i < nrel; i++) {
                char a[4096], b[4096];
                strcpy(a, rels[2 * i]);
                strcpy(b, rels[2 * i + 1]);
                sreduce(R, a, 100000);
                sreduce(R, b, 100000);
                if (strcmp(a, b) != 0)
                    bad++;
            }
            free(R);
        }
        nckb_free(s);
        ncpres_free(p);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(done > n / 2);
}

static void test_parse(void)
{
    NcPresentation *p = NULL;
    size_t off = 0;
    CgtError e;
    CHECK_EQ_INT(wordparse_nc_presentation("< a, b | ab = ba, a^3 = 1, b b = b >", &p, &off, &e),
                 CGT_OK);
    if (p) {
        CHECK_EQ_INT(p->nrels, 3);
        CHECK(p->lhs_len[0] == 2 && p->words[p->lhs_off[0]] == 0);
        CHECK(p->lhs_len[1] == 3 && p->rhs_len[1] == 0);
        NcSystem *s = NULL;
        CHECK_EQ_INT(nckb_complete(p, NULL, NULL, &s, &e), CGT_OK);
        if (s)
            CHECK_EQ_INT(order_of(s), 6);
        nckb_free(s);
        ncpres_free(p);
    }
    CHECK_EQ_INT(wordparse_nc_presentation("< a, b | ab = bc >", &p, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 15);
    CHECK(p == NULL);
    CHECK_EQ_INT(wordparse_nc_presentation("< a, b | ab = ba = >", &p, &off, &e),
                 CGT_ERR_DOMAIN);
    CHECK(p == NULL);
}

/* Random finite commutative presentations: string rewriting with the
 * commutators added must find as many elements as the commutative
 * completion (two independent algorithms). */
static void test_vs_commutative(void)
{
    uint64_t st = 4242;
    int n = getenv("CGT_SLOW") ? 200 : 25, bad = 0;
    for (int round = 0; round < n; round++) {
        int g = 2 + round % 4;
        const char *names[] = {"a", "b", "c", "d", "e"};
        Presentation *p = pres_new(g, names);
        uint32_t l[5], r[5];
        for (int t = 0; t < g; t++) {
            memset(l, 0, sizeof l);
            memset(r, 0, sizeof r);
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            l[t] = 2 + (uint32_t)((st >> 33) % 3);
            r[t] = (uint32_t)((st >> 40) % l[t]);
            pres_add_relation(p, l, r);
        }
        for (int k = 0; k < 2; k++) {
            for (int t = 0; t < g; t++) {
                st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                l[t] = (uint32_t)((st >> 33) % 3);
                r[t] = (uint32_t)((st >> 40) % 2);
            }
            pres_add_relation(p, l, r);
        }
        KbSystem *s = NULL;
        NcSystem *ns = NULL;
        CgtError e;
        uint32_t *el;
        size_t cnt = 0;
        if (kb_complete(p, NULL, NULL, &s, &e) == CGT_OK &&
            kb_elements(s, 0, &el, &cnt, &e) == CGT_OK)
            free(el);
        if (nckb_complete_commutative(p, NULL, &ns, &e) != CGT_OK || order_of(ns) != cnt)
            bad++;
        kb_free(s);
        nckb_free(ns);
        pres_free(p);
    }
    CHECK_EQ_INT(bad, 0);
}

/* every irreducible word reachable from w by rewriting anywhere with any
 * rule (rules shorten words here, so the search ends); collects up to 64
 * distinct normal forms in nf */
static void all_nfs(const char *const *l, const char *const *r, int n, const char *w,
                    char nf[64][16], int *nnf)
{
    bool irreducible = true;
    for (int i = 0; i < n; i++) {
        size_t ll = strlen(l[i]);
        for (const char *p = strstr(w, l[i]); p; p = strstr(p + 1, l[i])) {
            char t[16];
            irreducible = false;
            snprintf(t, sizeof t, "%.*s%s%s", (int)(p - w), w, r[i], p + ll);
            all_nfs(l, r, n, t, nf, nnf);
        }
    }
    if (!irreducible)
        return;
    for (int k = 0; k < *nnf; k++)
        if (strcmp(nf[k], w) == 0)
            return;
    if (*nnf < 64)
        strcpy(nf[(*nnf)++], w);
}

/* nckb_check on random length-reducing rule lists over {a, b} (so they
 * terminate) against the definition: confluent iff every word has one
 * normal form.  Left sides have at most 3 letters, so every critical word
 * has at most 5 and checking all words up to length 5 decides it. */
static void test_check(void)
{
    uint64_t st = 7;
    int n = getenv("CGT_SLOW") ? 2000 : 300, bad = 0, nconf = 0, nnot = 0;
    for (int round = 0; round < n; round++) {
        char lb[4][4], rb[4][4];
        const char *l[4], *r[4];
        int nrel = 1 + round % 4;
        for (int i = 0; i < nrel; i++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            int ll = 1 + (int)((st >> 33) % 3);
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            int rl = (int)((st >> 33) % (uint64_t)ll);
            for (int k = 0; k < ll + rl; k++) {
                st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                char ch = (char)('a' + (st >> 40) % 2);
                if (k < ll)
                    lb[i][k] = ch;
                else
                    rb[i][k - ll] = ch;
            }
            lb[i][ll] = 0;
            rb[i][rl] = 0;
            l[i] = lb[i];
            r[i] = rb[i];
        }
        bool confluent = true;
        for (int len = 0; len <= 5 && confluent; len++)
            for (int bits = 0; bits < (1 << len) && confluent; bits++) {
                char w[8], nf[64][16];
                int nnf = 0;
                for (int k = 0; k < len; k++)
                    w[k] = (char)('a' + ((bits >> k) & 1));
                w[len] = 0;
                all_nfs(l, r, nrel, w, nf, &nnf);
                confluent = nnf == 1;
            }
        bool inter = true;
        for (int i = 0; i < nrel; i++)
            for (int j = 0; j < nrel; j++)
                if ((i != j && strstr(l[i], l[j])) || strstr(r[i], l[j]))
                    inter = false;
        const char *rels[8];
        for (int i = 0; i < nrel; i++) {
            rels[2 * i] = l[i];
            rels[2 * i + 1] = r[i];
        }
        NcPresentation *p = mk(2, rels, nrel);
        NcSystem *s = NULL;
        NcCheck chk;
        CgtError e;
        if (nckb_system_from_rules(p, &s, &e) != CGT_OK || nckb_check(s, 0, &chk, &e) != CGT_OK) {
            bad++;
        } else {
            bad += chk.locally_confluent != confluent || !chk.terminated ||
                   chk.interreduced != inter;
            if (!chk.locally_confluent) {
                /* the reported word really has the two reported forms */
                bad += chk.bad_nf1_len == chk.bad_nf2_len &&
                       memcmp(chk.bad_nf1, chk.bad_nf2, chk.bad_nf1_len * sizeof(uint32_t)) == 0;
            }
            nckb_check_free(&chk);
        }
        nconf += confluent;
        nnot += !confluent;
        nckb_free(s);
        ncpres_free(p);
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(nconf > n / 10 && nnot > n / 10);
    /* the identity as a left side is refused */
    const char *loop[] = {"", "a"};
    NcPresentation *p = mk(1, loop, 1);
    NcSystem *s = NULL;
    CgtError e;
    CHECK(nckb_system_from_rules(p, &s, &e) == CGT_ERR_DOMAIN && s == NULL);
    ncpres_free(p);
}

int main(void)
{
    test_vs_commutative();
    test_parse();
    test_groups();
    test_q24_commutative();
    test_limits();
    test_family();
    test_random();
    test_check();
    UNIT_MAIN_END();
}
