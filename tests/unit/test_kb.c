/* Unit tests for src/lib/rewrite/kb.c and src/lib/rewrite/wordparse.c.  Oracles: the
 * published Figures 5–7 of Plambeck's Dawson's Chess note (2005), and
 * naive code written here (a word reader for one-letter generators, a
 * rewriter, a critical-pair checker, term-order comparators and a
 * union-find congruence closure in a box) that shares nothing with kb.c. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/kb.h"
#include "lib/rewrite/wordparse.h"
#include "unit.h"

#define MAXG 12

/* ------------------------------------------------ naive independent tools */

/* Read a compact word over one-letter generators `letters` ("xzwv"). */
static void rd(const char *letters, const char *s, uint32_t *w)
{
    int g = (int)strlen(letters);
    memset(w, 0, (size_t)g * sizeof *w);
    if (strcmp(s, "e") == 0 || strcmp(s, "1") == 0)
        return;
    while (*s) {
        const char *p = strchr(letters, *s);
        if (!p) {
            fprintf(stderr, "bad letter %c\n", *s);
            exit(2);
        }
        s++;
        unsigned e = 0;
        if (*s >= '0' && *s <= '9') {
            while (*s >= '0' && *s <= '9')
                e = e * 10 + (unsigned)(*s++ - '0');
        } else {
            e = 1;
        }
        w[p - letters] += e;
    }
}

typedef struct {
    int g;
    size_t n;
    uint32_t l[400][MAXG], r[400][MAXG];
} NRules;

/* naive rewriting, one application at a time; returns false at the cap */
static bool nreduce(const NRules *R, uint32_t *w, long cap)
{
    for (long steps = 0;; steps++) {
        size_t i;
        for (i = 0; i < R->n; i++) {
            int t;
            for (t = 0; t < R->g; t++)
                if (R->l[i][t] > w[t])
                    break;
            if (t == R->g)
                break;
        }
        if (i == R->n)
            return true;
        if (steps >= cap)
            return false;
        for (int t = 0; t < R->g; t++)
            w[t] = w[t] - R->l[i][t] + R->r[i][t];
    }
}

static void nrules_from_sys(const KbSystem *s, NRules *R)
{
    R->g = s->ngens;
    R->n = s->nrules;
    for (size_t i = 0; i < s->nrules; i++)
        for (int t = 0; t < s->ngens; t++) {
            R->l[i][t] = s->rules[2 * i * (size_t)s->ngens + (size_t)t];
            R->r[i][t] = s->rules[(2 * i + 1) * (size_t)s->ngens + (size_t)t];
        }
}

/* every pair of rules (coprime ones too): lcm rewritten both ways */
static bool nconfluent(const NRules *R)
{
    uint32_t a[MAXG], b[MAXG];
    for (size_t i = 0; i < R->n; i++)
        for (size_t j = i + 1; j < R->n; j++) {
            for (int t = 0; t < R->g; t++) {
                uint32_t m = R->l[i][t] > R->l[j][t] ? R->l[i][t] : R->l[j][t];
                a[t] = m - R->l[i][t] + R->r[i][t];
                b[t] = m - R->l[j][t] + R->r[j][t];
            }
            if (!nreduce(R, a, 100000) || !nreduce(R, b, 100000))
                return false;
            if (memcmp(a, b, (size_t)R->g * sizeof *a) != 0)
                return false;
        }
    return true;
}

/* interreduced: no lhs divides another, no rhs divisible by a lhs */
static bool ninterreduced(const NRules *R)
{
    for (size_t i = 0; i < R->n; i++)
        for (size_t j = 0; j < R->n; j++) {
            bool dl = true, dr = true;
            for (int t = 0; t < R->g; t++) {
                if (R->l[j][t] > R->l[i][t])
                    dl = false;
                if (R->l[j][t] > R->r[i][t])
                    dr = false;
            }
            if ((i != j && dl) || dr)
                return false;
        }
    return true;
}

/* term orders written from their definitions in kb.h, declaration order */
static int ncmp(int kind, const uint32_t *wt, int g, const uint32_t *a, const uint32_t *b)
{
    if (kind != KB_ORDER_LEX) {
        unsigned long long da = 0, db = 0;
        for (int t = 0; t < g; t++) {
            da += (unsigned long long)a[t] * (kind == KB_ORDER_WEIGHTED ? wt[t] : 1);
            db += (unsigned long long)b[t] * (kind == KB_ORDER_WEIGHTED ? wt[t] : 1);
        }
        if (da != db)
            return da < db ? -1 : 1;
    }
    if (kind == KB_ORDER_SHORTLEX || kind == KB_ORDER_DEGREVLEX) {
        /* spell both words as sorted strings and compare letter by letter */
        char sa[256], sb[256];
        int na = 0, nb = 0;
        for (int t = 0; t < g; t++) {
            for (uint32_t k = 0; k < a[t]; k++)
                sa[na++] = (char)('a' + t);
            for (uint32_t k = 0; k < b[t]; k++)
                sb[nb++] = (char)('a' + t);
        }
        sa[na] = sb[nb] = 0;
        int c = strcmp(sa, sb);
        return c < 0 ? -1 : c > 0;
    }
    for (int t = g - 1; t >= 0; t--)
        if (a[t] != b[t])
            return a[t] > b[t] ? 1 : -1;
    return 0;
}

/* union-find congruence closure on the box [0, B]^g */
typedef struct {
    int g, B;
    size_t n;
    size_t *par;
} Box;

static size_t box_idx(const Box *x, const uint32_t *w)
{
    size_t id = 0;
    for (int t = x->g - 1; t >= 0; t--)
        id = id * (size_t)(x->B + 1) + w[t];
    return id;
}

static size_t uf_find(size_t *p, size_t a)
{
    while (p[a] != a)
        a = p[a] = p[p[a]];
    return a;
}

static void box_init(Box *x, int g, int B, const uint32_t (*rl)[MAXG], const uint32_t (*rr)[MAXG],
                     size_t nrel)
{
    x->g = g;
    x->B = B;
    x->n = 1;
    for (int t = 0; t < g; t++)
        x->n *= (size_t)(B + 1);
    x->par = malloc(x->n * sizeof *x->par);
    for (size_t i = 0; i < x->n; i++)
        x->par[i] = i;
    uint32_t w[MAXG], u[MAXG];
    for (size_t id = 0; id < x->n; id++) {
        size_t v = id;
        for (int t = 0; t < g; t++) {
            w[t] = (uint32_t)(v % (size_t)(B + 1));
            v /= (size_t)(B + 1);
        }
        for (size_t k = 0; k < nrel; k++) {
            bool ok = true;
            for (int t = 0; t < g && ok; t++) {
                if (w[t] < rl[k][t])
                    ok = false;
                else if (w[t] - rl[k][t] + rr[k][t] > (uint32_t)B)
                    ok = false;
                else
                    u[t] = w[t] - rl[k][t] + rr[k][t];
            }
            if (ok) {
                size_t a = uf_find(x->par, id), b = uf_find(x->par, box_idx(x, u));
                if (a != b)
                    x->par[a < b ? b : a] = a < b ? a : b;
            }
        }
    }
}

/* classes met by the small box [0, b]^g */
static size_t box_classes(Box *x, int b)
{
    char *seen = calloc(x->n, 1);
    size_t cnt = 0;
    uint32_t w[MAXG];
    for (size_t id = 0; id < x->n; id++) {
        size_t v = id;
        bool in = true;
        for (int t = 0; t < x->g; t++) {
            w[t] = (uint32_t)(v % (size_t)(x->B + 1));
            v /= (size_t)(x->B + 1);
            if (w[t] > (uint32_t)b)
                in = false;
        }
        if (!in)
            continue;
        size_t r = uf_find(x->par, id);
        if (!seen[r]) {
            seen[r] = 1;
            cnt++;
        }
    }
    free(seen);
    return cnt;
}

/* soundness: words the closure identifies get the same normal form */
static bool box_agrees(Box *x, int b, const KbSystem *s)
{
    CgtError e;
    size_t *nfrep = malloc(x->n * sizeof *nfrep);
    uint32_t *nf = malloc(x->n * MAXG * sizeof *nf);
    for (size_t i = 0; i < x->n; i++)
        nfrep[i] = (size_t)-1;
    uint32_t w[MAXG];
    bool ok = true;
    for (size_t id = 0; id < x->n && ok; id++) {
        size_t v = id;
        bool in = true;
        for (int t = 0; t < x->g; t++) {
            w[t] = (uint32_t)(v % (size_t)(x->B + 1));
            v /= (size_t)(x->B + 1);
            if (w[t] > (uint32_t)b)
                in = false;
        }
        if (!in)
            continue;
        if (kb_reduce(s, w, 0, &e) != CGT_OK) {
            ok = false;
            break;
        }
        size_t r = uf_find(x->par, id);
        if (nfrep[r] == (size_t)-1) {
            nfrep[r] = r;
            memcpy(nf + r * MAXG, w, (size_t)x->g * sizeof *w);
        } else if (memcmp(nf + r * MAXG, w, (size_t)x->g * sizeof *w) != 0) {
            ok = false;
        }
    }
    free(nfrep);
    free(nf);
    return ok;
}

static Presentation *mkpres(const char *letters, const char *const *rels, size_t nrels,
                            uint32_t (*rl)[MAXG], uint32_t (*rr)[MAXG])
{
    int g = (int)strlen(letters);
    char names[MAXG][2];
    const char *np[MAXG] = {0};
    for (int t = 0; t < g; t++) {
        names[t][0] = letters[t];
        names[t][1] = 0;
        np[t] = names[t];
    }
    Presentation *p = pres_new(g, np);
    for (size_t i = 0; i < nrels; i++) {
        rd(letters, rels[2 * i], rl[i]);
        rd(letters, rels[2 * i + 1], rr[i]);
        pres_add_relation(p, rl[i], rr[i]);
    }
    return p;
}

/* ------------------------------------------------------------- the tests */

static void test_wordparse(void)
{
    const char *names[] = {"x", "z", "w", "v"};
    uint32_t w[4];
    size_t off = 99;
    CgtError e;
    CHECK_EQ_INT(wordparse_compact("xz2w", names, 4, w, &off, &e), CGT_OK);
    CHECK(w[0] == 1 && w[1] == 2 && w[2] == 1 && w[3] == 0);
    CHECK_EQ_INT(wordparse_compact("x z^2 w", names, 4, w, &off, &e), CGT_OK);
    CHECK(w[0] == 1 && w[1] == 2 && w[2] == 1 && w[3] == 0);
    CHECK_EQ_INT(wordparse_compact("x*z^2*w*x", names, 4, w, &off, &e), CGT_OK);
    CHECK(w[0] == 2 && w[1] == 2 && w[2] == 1);
    CHECK_EQ_INT(wordparse_compact("e", names, 4, w, &off, &e), CGT_OK);
    CHECK(w[0] == 0 && w[1] == 0 && w[2] == 0 && w[3] == 0);
    CHECK_EQ_INT(wordparse_compact("1", names, 4, w, &off, &e), CGT_OK);
    CHECK_EQ_INT(wordparse_compact("xzq2", names, 4, w, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 2);
    CHECK(strstr(e.msg, "unknown generator 'q2'") != NULL);
    CHECK_EQ_INT(wordparse_compact("x^", names, 4, w, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 2);
    CHECK_EQ_INT(wordparse_compact("  ", names, 4, w, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(wordparse_compact("x#", names, 4, w, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 1);
    /* longest match, and a generator literally named e */
    const char *n2[] = {"a", "ab", "e"};
    uint32_t u[3];
    CHECK_EQ_INT(wordparse_compact("aba2e", n2, 3, u, &off, &e), CGT_OK);
    CHECK(u[0] == 2 && u[1] == 1 && u[2] == 1);
    CHECK_EQ_INT(wordparse_compact("1", n2, 3, u, &off, &e), CGT_OK);
    CHECK(u[0] == 0 && u[1] == 0 && u[2] == 0);
    /* non-commutative */
    uint32_t *nc;
    size_t len;
    CHECK_EQ_INT(wordparse_nc("xz^2x", 5, names, 4, &nc, &len, &off, &e), CGT_OK);
    CHECK(len == 4 && nc[0] == 0 && nc[1] == 1 && nc[2] == 1 && nc[3] == 0);
    free(nc);
    CHECK_EQ_INT(wordparse_nc("e", 1, names, 4, &nc, &len, &off, &e), CGT_OK);
    CHECK_EQ_INT(len, 0);
    free(nc);
    /* presentations */
    Presentation *p;
    const char *q24 = "< x, z, w, v | x^2 = 1, z^4 = z^2, w^2 = v^2 = 1, z^2 = w x z^3 >";
    CHECK_EQ_INT(wordparse_presentation(q24, &p, &off, &e), CGT_OK);
    if (p) {
        CHECK_EQ_INT(p->ngens, 4);
        CHECK_EQ_INT(p->nrels, 5);
        CHECK_EQ_STR(p->gen_names[3], "v");
        CHECK(p->rels[9 * 4 + 0] == 1 && p->rels[9 * 4 + 1] == 3 && p->rels[9 * 4 + 2] == 1);
        pres_free(p);
    }
    CHECK_EQ_INT(wordparse_presentation("< x, z | x^2 = y >", &p, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 15);
    CHECK(p == NULL);
    CHECK_EQ_INT(wordparse_presentation("< x, x | x = 1 >", &p, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(off, 5);
    CHECK_EQ_INT(wordparse_presentation("< | >", &p, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(wordparse_presentation("< x | x2 >", &p, &off, &e), CGT_ERR_DOMAIN);
    CHECK_EQ_INT(wordparse_presentation("< x | >", &p, &off, &e), CGT_OK);
    pres_free(p);
}

/* Round trip of the one word notation (src/lib/rewrite/word.h): every word cgt
 * prints reads back as itself, over prefix-free names of several letters
 * and digits; and the previous version's spellings (`a b^2`, `ab2`, `e`)
 * still read as the same word. */
static void test_word_roundtrip(void)
{
    const char *names[] = {"x1", "x2", "y", "ab", "c_3"};
    uint32_t w[5], back[5];
    size_t off;
    CgtError e;
    uint64_t seed = 12345;
    for (int t = 0; t < 500; t++) {
        for (int i = 0; i < 5; i++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            uint32_t r = (uint32_t)(seed >> 33);
            w[i] = r % 3 == 0 ? 0 : r % 3 == 1 ? 1 : r % 1000;
        }
        char *s = word_format(w, 5, (char *const *)names);
        CHECK(strchr(s, ' ') == NULL);
        CHECK_EQ_INT(wordparse_compact(s, names, 5, back, &off, &e), CGT_OK);
        CHECK(memcmp(w, back, sizeof w) == 0);
        free(s);
    }
    const char *abc[] = {"a", "b", "c"};
    uint32_t u[3];
    const char *same[] = {"ab^2", "a b^2", "ab2", "a*b^2", "b a b"};
    for (int i = 0; i < 5; i++) {
        CHECK_EQ_INT(wordparse_compact(same[i], abc, 3, u, &off, &e), CGT_OK);
        char *s = word_format(u, 3, (char *const *)abc);
        CHECK_EQ_STR(s, "ab^2");
        free(s);
    }
    CHECK_EQ_INT(wordparse_compact("e", abc, 3, u, &off, &e), CGT_OK);
    char *s = word_format(u, 3, (char *const *)abc);
    CHECK_EQ_STR(s, "1");
    free(s);
}

static const char *Q24_RELS[] = {"x2", "e", "z4", "z2", "w2", "e", "v2", "e", "z2", "wxz3"};

static void test_q24(void)
{
    uint32_t rl[8][MAXG], rr[8][MAXG];
    Presentation *p = mkpres("xzwv", Q24_RELS, 5, rl, rr);
    KbSystem *s = NULL;
    CgtError e;
    CHECK_EQ_INT(kb_complete(p, NULL, NULL, &s, &e), CGT_OK);
    if (!s)
        return;
    CHECK(s->confluent && s->reduced);
    /* Figure 6, as a set of rules */
    const char *fig6[] = {"x2", "e", "w2", "e", "v2", "e", "z4", "z2",
                          "wz3", "xz2", "xz3", "wz2", "xwz2", "z3"};
    CHECK_EQ_INT(s->nrules, 7);
    for (int k = 0; k < 7; k++) {
        uint32_t l[4], r[4];
        rd("xzwv", fig6[2 * k], l);
        rd("xzwv", fig6[2 * k + 1], r);
        bool found = false;
        for (size_t i = 0; i < s->nrules; i++)
            found |= memcmp(s->rules + 8 * i, l, sizeof l) == 0 &&
                     memcmp(s->rules + 8 * i + 4, r, sizeof r) == 0;
        CHECK(found);
    }
    /* the one notation (src/lib/rewrite/word.h): Figure 6's [xz3,z2w] is xz^3 -> z^2w */
    char *txt = kb_format_rules(s);
    CHECK_EQ_STR(txt, "x^2 -> 1\nw^2 -> 1\nv^2 -> 1\nxz^3 -> z^2w\nxz^2w -> z^3\nz^4 -> z^2\n"
                      "z^3w -> xz^2\n");
    free(txt);
    txt = kb_format_rule(s, 4);
    CHECK_EQ_STR(txt, "xz^2w -> z^3");
    free(txt);
    NRules R;
    nrules_from_sys(s, &R);
    CHECK(nconfluent(&R));
    CHECK(ninterreduced(&R));
    /* Figure 5: the 24 elements */
    const char *fig5[] = {"e",   "x",   "z",    "w",    "v",   "xz",  "xw",  "xv",
                          "z2",  "zw",  "zv",   "wv",   "xz2", "xzw", "xzv", "xwv",
                          "z3",  "wz2", "vz2",  "zwv",  "xvz2", "xzwv", "vz3", "wvz2"};
    uint32_t *el;
    size_t n;
    CHECK_EQ_INT(kb_elements(s, 0, &el, &n, &e), CGT_OK);
    CHECK_EQ_INT(n, 24);
    for (int k = 0; k < 24 && n == 24; k++) {
        uint32_t w[4];
        rd("xzwv", fig5[k], w);
        bool found = false;
        for (size_t i = 0; i < n; i++)
            found |= memcmp(el + 4 * i, w, sizeof w) == 0;
        CHECK(found);
    }
    /* identity first, ascending */
    CHECK(n && el[0] == 0 && el[1] == 0 && el[2] == 0 && el[3] == 0);
    for (size_t i = 1; i < n; i++)
        CHECK(ncmp(KB_ORDER_SHORTLEX, NULL, 4, el + 4 * (i - 1), el + 4 * i) < 0);
    free(el);
    CHECK(kb_is_finite(s, NULL));
    /* independent closure in a box */
    Box bx;
    box_init(&bx, 4, 7, (const uint32_t(*)[MAXG])rl, (const uint32_t(*)[MAXG])rr, 5);
    CHECK_EQ_INT(box_classes(&bx, 3), 24);
    CHECK(box_agrees(&bx, 4, s));
    /* reduce and product */
    uint32_t w[4] = {5, 9, 3, 2}, a[4] = {1, 1, 0, 0}, b[4] = {0, 2, 1, 0}, c[4];
    CHECK_EQ_INT(kb_reduce(s, w, 0, &e), CGT_OK);
    uint32_t w2[4] = {5, 9, 3, 2};
    nreduce(&R, w2, 1000);
    CHECK(memcmp(w, w2, sizeof w) == 0);
    CHECK_EQ_INT(kb_product(s, a, b, c, &e), CGT_OK);
    CHECK(c[0] == 0 && c[1] == 2 && c[2] == 0 && c[3] == 0); /* x z^3 w -> z^2 w^2 -> z^2 */
    /* determinism and the other orders */
    static const KbOrderKind kinds[] = {KB_ORDER_DEGREVLEX, KB_ORDER_DEGLEX, KB_ORDER_LEX,
                                        KB_ORDER_WEIGHTED};
    uint32_t wts[4] = {3, 1, 2, 5};
    for (int k = 0; k < 4; k++) {
        KbOrder o = {kinds[k], NULL, wts};
        KbSystem *t = NULL;
        CHECK_EQ_INT(kb_complete(p, &o, NULL, &t, &e), CGT_OK);
        if (!t)
            continue;
        NRules T;
        nrules_from_sys(t, &T);
        CHECK(nconfluent(&T));
        CHECK(ninterreduced(&T));
        for (size_t i = 0; i < T.n; i++)
            CHECK(ncmp(kinds[k], wts, 4, T.l[i], T.r[i]) > 0);
        CHECK_EQ_INT(kb_elements(t, 0, &el, &n, &e), CGT_OK);
        CHECK_EQ_INT(n, 24);
        free(el);
        CHECK(box_agrees(&bx, 4, t));
        kb_free(t);
    }
    /* a stated generator order: v<w<z<x */
    int gord[4] = {3, 2, 1, 0};
    KbOrder o2 = {KB_ORDER_SHORTLEX, gord, NULL};
    KbSystem *t = NULL;
    CHECK_EQ_INT(kb_complete(p, &o2, NULL, &t, &e), CGT_OK);
    if (t) {
        NRules T;
        nrules_from_sys(t, &T);
        CHECK(nconfluent(&T));
        CHECK_EQ_INT(kb_elements(t, 0, &el, &n, &e), CGT_OK);
        CHECK_EQ_INT(n, 24);
        free(el);
        kb_free(t);
    }
    int badord[4] = {0, 0, 1, 2};
    KbOrder o3 = {KB_ORDER_SHORTLEX, badord, NULL};
    t = NULL;
    CHECK_EQ_INT(kb_complete(p, &o3, NULL, &t, &e), CGT_ERR_DOMAIN);
    CHECK(t == NULL);
    /* rule cap: partial system, flagged */
    KbLimits lim = {2};
    CHECK_EQ_INT(kb_complete(p, NULL, &lim, &t, &e), CGT_ERR_LIMIT);
    CHECK(t != NULL && !t->confluent);
    CHECK(strstr(e.msg, "not confluent yet") != NULL);
    kb_free(t);
    kb_free(s);
    pres_free(p);
    free(bx.par);
}

static void test_q29(void)
{
    const char *rels[] = {"x2", "e", "z4", "z2", "w2", "e", "v2", "e", "g3", "g2",
                          "z2", "wxz3", "g2", "g2z2", "gz", "gz3"};
    uint32_t rl[8][MAXG], rr[8][MAXG];
    Presentation *p = mkpres("xzwvg", rels, 8, rl, rr);
    KbSystem *s = NULL;
    CgtError e;
    CHECK_EQ_INT(kb_complete(p, NULL, NULL, &s, &e), CGT_OK);
    if (s) {
        uint32_t *el;
        size_t n;
        CHECK_EQ_INT(kb_elements(s, 0, &el, &n, &e), CGT_OK);
        CHECK_EQ_INT(n, 48);
        free(el);
        NRules R;
        nrules_from_sys(s, &R);
        CHECK(nconfluent(&R));
        CHECK(ninterreduced(&R));
        Box bx;
        box_init(&bx, 5, 6, (const uint32_t(*)[MAXG])rl, (const uint32_t(*)[MAXG])rr, 8);
        CHECK_EQ_INT(box_classes(&bx, 3), 48);
        CHECK(box_agrees(&bx, 3, s));
        free(bx.par);
    }
    kb_free(s);
    pres_free(p);
}

static size_t load_q31(uint32_t *rules)
{
    const char *paths[] = {"tests/data/q31_rules.txt", "../tests/data/q31_rules.txt",
                           "../../tests/data/q31_rules.txt"};
    FILE *f = NULL;
    for (int i = 0; i < 3 && !f; i++)
        f = fopen(paths[i], "r");
    if (!f)
        return 0;
    char line[256], a[64], b[64];
    size_t n = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || sscanf(line, "%63s %63s", a, b) != 2)
            continue;
        rd("xzwvghmc", a, rules + 16 * n);
        rd("xzwvghmc", b, rules + 16 * n + 8);
        n++;
    }
    fclose(f);
    return n;
}

static void test_q31(void)
{
    uint32_t rules[16 * 100];
    size_t n = load_q31(rules);
    CHECK_EQ_INT(n, 91);
    if (n != 91)
        return;
    const char *names[] = {"x", "z", "w", "v", "g", "h", "m", "c"};
    KbSystem *s = kb_system_from_rules(8, names, NULL, rules, n);
    KbCheck ck;
    CgtError e;
    CHECK_EQ_INT(kb_check(s, 0, &ck, &e), CGT_OK);
    CHECK(ck.locally_confluent);
    CHECK(ck.terminated);
    CHECK(!ck.interreduced);
    CHECK(ck.ndiv > 0);
    /* naive: [z2vh,z2] has left side divisible by [z2h,z2v]'s */
    NRules R;
    nrules_from_sys(s, &R);
    CHECK(nconfluent(&R));
    CHECK(!ninterreduced(&R));
    uint32_t *el;
    size_t cnt;
    CHECK_EQ_INT(kb_elements(s, 0, &el, &cnt, &e), CGT_OK);
    CHECK_EQ_INT(cnt, 128);
    free(el);
    /* naive count of irreducible monomials in the box [0,3]^8 */
    size_t naive = 0;
    uint32_t w[8];
    for (unsigned id = 0; id < (1u << 16); id++) {
        for (int t = 0; t < 8; t++)
            w[t] = (id >> (2 * t)) & 3;
        bool irr = true;
        for (size_t i = 0; i < R.n && irr; i++) {
            int t;
            for (t = 0; t < 8; t++)
                if (R.l[i][t] > w[t])
                    break;
            if (t == 8)
                irr = false;
        }
        naive += irr;
    }
    CHECK_EQ_INT(naive, 128);
    kb_check_free(&ck);
    /* the rules read as relations complete to a system with 128 elements */
    Presentation *p = pres_new(8, (const char *const *)names);
    for (size_t i = 0; i < n; i++)
        pres_add_relation(p, rules + 16 * i, rules + 16 * i + 8);
    KbSystem *t = NULL;
    CHECK_EQ_INT(kb_complete(p, NULL, NULL, &t, &e), CGT_OK);
    if (t) {
        CHECK_EQ_INT(kb_elements(t, 0, &el, &cnt, &e), CGT_OK);
        CHECK_EQ_INT(cnt, 128);
        free(el);
        NRules T;
        nrules_from_sys(t, &T);
        CHECK(nconfluent(&T));
        CHECK(ninterreduced(&T));
    }
    kb_free(t);
    pres_free(p);
    kb_free(s);
}

static void test_checks(void)
{
    const char *names[] = {"x", "z"};
    uint32_t r1[] = {2, 0, 0, 0, 1, 1, 0, 2}; /* x2 -> e, xz -> z2 */
    KbSystem *s = kb_system_from_rules(2, names, NULL, r1, 2);
    KbCheck ck;
    CgtError e;
    CHECK_EQ_INT(kb_check(s, 0, &ck, &e), CGT_OK);
    CHECK(!ck.locally_confluent);
    CHECK(ck.bad_i == 0 && ck.bad_j == 1);
    CHECK(ck.interreduced);
    kb_check_free(&ck);
    kb_free(s);
    /* cyclic rules: the step cap reports non-termination */
    uint32_t r2[] = {1, 0, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0}; /* x->z, z->x, xz->e */
    s = kb_system_from_rules(2, names, NULL, r2, 3);
    CHECK_EQ_INT(kb_check(s, 50, &ck, &e), CGT_OK);
    CHECK(!ck.terminated);
    kb_check_free(&ck);
    uint32_t w[2] = {1, 0};
    CHECK_EQ_INT(kb_reduce(s, w, 50, &e), CGT_ERR_LIMIT);
    kb_free(s);
    /* a left side equal to the identity is refused, not looped on */
    uint32_t r3[] = {0, 0, 1, 0};
    s = kb_system_from_rules(2, names, NULL, r3, 1);
    w[0] = 2;
    CHECK_EQ_INT(kb_reduce(s, w, 0, &e), CGT_ERR_DOMAIN);
    CHECK(strstr(e.msg, "identity") != NULL);
    CHECK_EQ_INT(kb_check(s, 0, &ck, &e), CGT_OK);
    CHECK(!ck.terminated);
    CHECK(!kb_accept_check(s, &ck));
    kb_check_free(&ck);
    kb_free(s);
    /* infinite monoid */
    uint32_t rl[4][MAXG], rr[4][MAXG];
    const char *rels[] = {"x2", "e", "xz", "z"};
    Presentation *p = mkpres("xz", rels, 2, rl, rr);
    CHECK_EQ_INT(kb_complete(p, NULL, NULL, &s, &e), CGT_OK);
    char *why;
    CHECK(!kb_is_finite(s, &why));
    CHECK(why && strstr(why, "power of z"));
    free(why);
    uint32_t *el;
    size_t n;
    CHECK_EQ_INT(kb_elements(s, 0, &el, &n, &e), CGT_ERR_DOMAIN);
    CHECK(strstr(e.msg, "infinite") != NULL);
    kb_free(s);
    pres_free(p);
}

/* random finite presentations: completion is confluent (naive checker),
 * inter-reduced, oriented, joins every input relation, and its element
 * count matches a union-find closure in a box */
static void test_random(void)
{
    uint64_t st = 0x1234567;
    bool slow = getenv("CGT_SLOW") != NULL;
    int nrounds = slow ? 3000 : 120;
    int bad_conf = 0, bad_rel = 0, bad_count = 0, bad_orient = 0;
    for (int round = 0; round < nrounds; round++) {
        st = st * 6364136223846793005ULL + 1442695040888963407ULL;
        uint64_t r = st >> 11;
        int g = 2 + (int)(r % (slow ? 6 : 3));
        const char *letters = "abcdefg";
        char lt[8];
        memcpy(lt, letters, (size_t)g);
        lt[g] = 0;
        uint32_t rl[16][MAXG], rr[16][MAXG];
        size_t nrel = 0;
        for (int t = 0; t < g; t++) { /* a^k = a^j, j < k <= 3 */
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            r = st >> 11;
            memset(rl[nrel], 0, sizeof rl[nrel]);
            memset(rr[nrel], 0, sizeof rr[nrel]);
            rl[nrel][t] = 1 + (uint32_t)(r % 3);
            rr[nrel][t] = (uint32_t)((r >> 8) % rl[nrel][t]);
            nrel++;
        }
        int extra = 1 + (int)((r >> 16) % (slow ? 7 : 3));
        for (int k = 0; k < extra; k++) {
            memset(rl[nrel], 0, sizeof rl[nrel]);
            memset(rr[nrel], 0, sizeof rr[nrel]);
            for (int t = 0; t < g; t++) {
                st = st * 6364136223846793005ULL + 1442695040888963407ULL;
                r = st >> 11;
                rl[nrel][t] = (uint32_t)(r % 3);
                rr[nrel][t] = (uint32_t)((r >> 8) % 3);
            }
            nrel++;
        }
        char nm[MAXG][2];
        const char *np[MAXG] = {0};
        for (int t = 0; t < g; t++) {
            nm[t][0] = lt[t];
            nm[t][1] = 0;
            np[t] = nm[t];
        }
        Presentation *p = pres_new(g, np);
        for (size_t k = 0; k < nrel; k++)
            pres_add_relation(p, rl[k], rr[k]);
        int kind = round % 5;
        uint32_t wts[MAXG] = {2, 1, 3, 1, 2, 5, 1};
        KbOrder o = {(KbOrderKind)kind, NULL, wts};
        KbSystem *s = NULL;
        CgtError e;
        if (kb_complete(p, &o, NULL, &s, &e) != CGT_OK) {
            bad_conf++;
            kb_free(s);
            pres_free(p);
            continue;
        }
        NRules R;
        nrules_from_sys(s, &R);
        if (!nconfluent(&R) || !ninterreduced(&R))
            bad_conf++;
        for (size_t i = 0; i < R.n; i++)
            if (ncmp(kind, wts, g, R.l[i], R.r[i]) <= 0)
                bad_orient++;
        for (size_t k = 0; k < nrel; k++) {
            uint32_t a[MAXG], b[MAXG];
            memcpy(a, rl[k], sizeof a);
            memcpy(b, rr[k], sizeof b);
            nreduce(&R, a, 100000);
            nreduce(&R, b, 100000);
            if (memcmp(a, b, (size_t)g * sizeof *a) != 0)
                bad_rel++;
        }
        uint32_t *el;
        size_t n;
        if (g > 4) {
            /* too many words for the box closure: confluence checks only */
        } else if (kb_elements(s, 0, &el, &n, &e) == CGT_OK) {
            Box bx;
            box_init(&bx, g, 8, (const uint32_t(*)[MAXG])rl, (const uint32_t(*)[MAXG])rr, nrel);
            if (box_classes(&bx, 3) != n || !box_agrees(&bx, 3, s))
                bad_count++;
            free(bx.par);
            free(el);
        } else {
            bad_count++;
        }
        kb_free(s);
        pres_free(p);
    }
    CHECK_EQ_INT(bad_conf, 0);
    CHECK_EQ_INT(bad_rel, 0);
    CHECK_EQ_INT(bad_orient, 0);
    CHECK_EQ_INT(bad_count, 0);
}

/* kb_compare against textbook definitions (Cox–Little–O'Shea, ch. 2 §2)
 * with the variables ranked v > w > z > x (x<z<w<v): grevlex says a > b iff
 * the degrees differ in a's favour or, if equal, the LAST nonzero entry of
 * a - b (the entry of the smallest variable x comes last) is negative;
 * lex says a > b iff the first nonzero entry (largest variable v first) of
 * a - b is positive. */
static void test_orders(void)
{
    const char *names[] = {"x", "z", "w", "v"};
    KbOrder og = {KB_ORDER_DEGREVLEX, NULL, NULL}, ol = {KB_ORDER_LEX, NULL, NULL};
    KbOrder od = {KB_ORDER_DEGLEX, NULL, NULL};
    KbSystem *sg = kb_system_from_rules(4, names, &og, NULL, 0);
    KbSystem *sl = kb_system_from_rules(4, names, &ol, NULL, 0);
    KbSystem *sd = kb_system_from_rules(4, names, &od, NULL, 0);
    uint64_t st = 5;
    int bad = 0;
    for (int k = 0; k < 3000; k++) {
        uint32_t a[4], b[4];
        for (int t = 0; t < 4; t++) {
            st = st * 6364136223846793005ULL + 1442695040888963407ULL;
            a[t] = (uint32_t)((st >> 40) % 3);
            b[t] = (uint32_t)((st >> 50) % 3);
        }
        /* variables in decreasing rank: v w z x = indices 3 2 1 0 */
        int da = 0, db = 0, grev = 0, lex = 0;
        for (int t = 0; t < 4; t++) {
            da += (int)a[t];
            db += (int)b[t];
        }
        static const int var[4] = {3, 2, 1, 0};
        for (int t = 0; t < 4; t++) {
            int d = (int)a[var[t]] - (int)b[var[t]];
            if (d && !lex)
                lex = d > 0 ? 1 : -1;
            if (d)
                grev = d < 0 ? 1 : -1; /* last nonzero entry decides */
        }
        int want_g = da != db ? (da > db ? 1 : -1) : grev;
        int want_d = da != db ? (da > db ? 1 : -1) : lex;
        int got_g = kb_compare(sg, a, b), got_l = kb_compare(sl, a, b);
        int got_d = kb_compare(sd, a, b);
        got_g = got_g > 0 ? 1 : got_g < 0 ? -1 : 0;
        got_l = got_l > 0 ? 1 : got_l < 0 ? -1 : 0;
        got_d = got_d > 0 ? 1 : got_d < 0 ? -1 : 0;
        bad += got_g != want_g;
        bad += got_l != lex;
        bad += got_d != want_d;
    }
    CHECK_EQ_INT(bad, 0);
    kb_free(sg);
    kb_free(sl);
    kb_free(sd);
}

int main(void)
{
    test_orders();
    test_wordparse();
    test_word_roundtrip();
    test_q24();
    test_q29();
    test_q31();
    test_checks();
    test_random();
    UNIT_MAIN_END();
}
