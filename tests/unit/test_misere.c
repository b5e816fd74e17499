/* Unit tests of the misère-quotient engine (src/lib/misere/misere.h) against
 * independent oracles: a brute-force misère outcome search written here
 * (memoised over sorted multisets of heaps), Plambeck's Dawson's Chess note
 * (2005: Q(9) and Q(24) of 0.07), and MisereSolver's published
 * |Q(33)| = 638, |P| = 109 for 0.07 (slow tier, CGT_SLOW set). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/heap/genus.h"
#include "lib/misere/misere.h"
#include "lib/misere/mqinf.h"
#include "lib/misere/mqint.h"
#include "lib/misere/mqmix.h"
#include "lib/misere/mqrun.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"
#include "unit.h"

/* ---- a tiny octal-code heap game, independent of src/lib/heap/ ---- */
typedef struct Oct {
    int ndig;
    int dig[16]; /* dig[k] for removing k tokens, k >= 1 */
    char name[32];
} Oct;

static Oct oct_make(const char *code)
{
    Oct o;
    memset(&o, 0, sizeof o);
    snprintf(o.name, sizeof o.name, "%s", code);
    const char *p = strchr(code, '.') + 1;
    for (int k = 1; *p; p++, k++) {
        o.dig[k] = *p - '0';
        o.ndig = k;
    }
    return o;
}

static CgtStatus oct_options(void *ctx, uint32_t n, HeapOptions *out, CgtError *err)
{
    (void)err;
    const Oct *o = ctx;
    heapopts_clear(out);
    for (int k = 1; k <= o->ndig && (uint32_t)k <= n; k++) {
        uint32_t r = n - (uint32_t)k;
        int d = o->dig[k];
        if ((d & 1) && r == 0)
            heapopts_add(out, NULL, 0);
        if ((d & 2) && r > 0) {
            uint32_t a = r;
            heapopts_add(out, &a, 1);
        }
        if (d & 4)
            for (uint32_t a = 1; 2 * a <= r && r - a >= 1; a++) {
                uint32_t pr[2] = {a, r - a};
                if (pr[1] >= 1)
                    heapopts_add(out, pr, 2);
            }
    }
    return CGT_OK;
}

static HeapGame oct_game(Oct *o)
{
    HeapGame g = {o, oct_options, 2, o->ndig, o->name};
    int parts = 1;
    for (int k = 1; k <= o->ndig; k++)
        if (o->dig[k] & 4)
            parts = 2;
    g.max_parts = parts;
    return g;
}

/* ---- brute-force misère outcomes (memoised sorted multisets) ---- */
typedef struct BfEnt {
    uint8_t key[48];
    int8_t val; /* 1 = P, 0 = N */
    uint8_t used;
} BfEnt;

typedef struct Bf {
    const Oct *o;
    BfEnt *tab;
    size_t cap, cnt;
} Bf;

static uint64_t bf_hash(const uint8_t *k)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < 48 && k[i]; i++)
        h = (h ^ k[i]) * 1099511628211ULL;
    return h;
}

static int cmp_desc(const void *a, const void *b)
{
    return (int)*(const uint8_t *)b - (int)*(const uint8_t *)a;
}

static BfEnt *bf_slot(Bf *b, const uint8_t *k)
{
    size_t i = bf_hash(k) & (b->cap - 1);
    while (b->tab[i].used && memcmp(b->tab[i].key, k, 48) != 0)
        i = (i + 1) & (b->cap - 1);
    return &b->tab[i];
}

static void bf_grow(Bf *b)
{
    BfEnt *old = b->tab;
    size_t oc = b->cap;
    b->cap = oc ? oc * 2 : 1 << 16;
    b->tab = calloc(b->cap, sizeof *b->tab);
    for (size_t i = 0; i < oc; i++)
        if (old[i].used)
            *bf_slot(b, old[i].key) = old[i];
    free(old);
}

/* heaps: descending, zero-terminated, all >= 1.  Returns 1 if P. */
static int bf_outcome(Bf *b, const uint8_t *key)
{
    if (2 * (b->cnt + 1) > b->cap)
        bf_grow(b);
    BfEnt *e = bf_slot(b, key);
    if (e->used)
        return e->val;
    int len = 0;
    while (len < 48 && key[len])
        len++;
    bool anymove = false, win = false;
    for (int i = 0; i < len && !win; i++) {
        if (i > 0 && key[i] == key[i - 1])
            continue;
        uint32_t h = key[i];
        for (int k = 1; k <= b->o->ndig && (uint32_t)k <= h && !win; k++) {
            uint32_t r = h - (uint32_t)k;
            int d = b->o->dig[k];
            for (int kind = 0; kind < 3 && !win; kind++) {
                if (!(d & (1 << kind)))
                    continue;
                uint32_t lo = 0, hi = 0;
                if (kind == 0 && r != 0)
                    continue;
                if (kind == 1 && r == 0)
                    continue;
                if (kind == 2) {
                    lo = 1;
                    hi = r / 2;
                }
                for (uint32_t a = lo; a <= hi && !win; a++) {
                    uint8_t nk[48] = {0};
                    int m = 0;
                    for (int j = 0; j < len; j++)
                        if (j != i)
                            nk[m++] = key[j];
                    if (kind == 1)
                        nk[m++] = (uint8_t)r;
                    if (kind == 2) {
                        if (r - a < 1)
                            continue;
                        nk[m++] = (uint8_t)a;
                        nk[m++] = (uint8_t)(r - a);
                    }
                    qsort(nk, (size_t)m, 1, cmp_desc);
                    anymove = true;
                    if (bf_outcome(b, nk))
                        win = true;
                }
            }
        }
    }
    int val = anymove ? !win : 0;
    e = bf_slot(b, key);
    memcpy(e->key, key, 48);
    e->used = 1;
    e->val = (int8_t)val;
    b->cnt++;
    return val;
}

/* Enumerate all positions with heaps in 1..n and total <= tot, comparing
 * the quotient's outcome with brute force.  Returns mismatches. */
static long bf_cross(Bf *b, const Quotient *q, uint32_t n, uint32_t tot, uint8_t *key, int len,
                     uint32_t maxpart, uint32_t left, long *count)
{
    long bad = 0;
    (*count)++;
    uint32_t hs[48];
    for (int i = 0; i < len; i++)
        hs[i] = key[i];
    bool isp;
    CgtError err;
    quotient_outcome(q, hs, (size_t)len, &isp, &err);
    key[len] = 0;
    if ((int)isp != bf_outcome(b, key))
        bad++;
    if (len >= 46)
        return bad;
    for (uint32_t h = (maxpart < left ? maxpart : left); h >= 1; h--) {
        key[len] = (uint8_t)h;
        bad += bf_cross(b, q, n, tot, key, len + 1, h, left - h, count);
        key[len + 1] = 0;
    }
    return bad;
}

static Quotient *compute(HeapGame *g, uint32_t n, const char *const *names, int nn)
{
    CgtError err;
    MqEngine *e = mq_new(g, NULL);
    CgtStatus st = mq_extend_to(e, n, &err);
    if (st != CGT_OK)
        fprintf(stderr, "%s to %u: %s\n", g->name, n, err.msg);
    CHECK(st == CGT_OK);
    Quotient *q = mq_quotient(e, names, nn, &err);
    mq_free(e);
    return q;
}

static void check_game(const char *code, uint32_t n, uint32_t tot)
{
    Oct o = oct_make(code);
    HeapGame g = oct_game(&o);
    Quotient *q = compute(&g, n, NULL, 0);
    if (!q)
        return;
    CgtError err;
    MqCertInfo ci;
    CgtStatus st = mq_certify(q, &g, 0, &ci, &err);
    CHECK(st == CGT_OK);
    if (!(ci.labelling_ok && ci.reduced_ok && ci.generated_ok))
        fprintf(stderr, "%s Q(%u): certificate failed (%d %d %d)\n", code, n, ci.labelling_ok,
                ci.reduced_ok, ci.generated_ok);
    CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
    Bf b = {&o, NULL, 0, 0};
    bf_grow(&b);
    uint8_t key[64] = {0};
    long count = 0;
    long bad = bf_cross(&b, q, n, tot, key, 0, n, tot, &count);
    if (bad)
        fprintf(stderr, "%s Q(%u): %ld of %ld positions mispredicted\n", code, n, bad, count);
    CHECK_EQ_INT(bad, 0);
    free(b.tab);
    quotient_free(q);
}

/* ---- the note's quotients as rewriting systems (Figure 6 of the note) ---- */
typedef struct Rule {
    int l[4], r[4];
} Rule;

static void rw_reduce(int *w, const Rule *rules, int nr, int ng)
{
    for (bool again = true; again;) {
        again = false;
        for (int i = 0; i < nr && !again; i++) {
            bool div = true;
            for (int g = 0; g < ng; g++)
                div = div && rules[i].l[g] <= w[g];
            if (!div)
                continue;
            for (int g = 0; g < ng; g++)
                w[g] += rules[i].r[g] - rules[i].l[g];
            again = true;
        }
    }
}

/* note word like "xz2" over names "xzwv" -> exponents */
static void parse_note(const char *s, int *w)
{
    const char *nm = "xzwv";
    memset(w, 0, 4 * sizeof *w);
    for (; *s; s++) {
        if (*s == 'e')
            continue;
        int g = (int)(strchr(nm, *s) - nm), e = 1;
        if (s[1] >= '0' && s[1] <= '9')
            e = *++s - '0';
        w[g] += e;
    }
}

/* Check that q is isomorphic to the note's monoid with the note's phi and
 * P, by mapping every element through its least position. */
static void check_note_iso(const Quotient *q, const Rule *rules, int nr, const char **phi_note,
                           const char **p_note, int np, uint32_t order)
{
    CHECK_EQ_INT(quotient_size(q), order);
    uint32_t n = quotient_size(q), maxh = quotient_max_heap(q);
    int (*img)[4] = calloc(n, sizeof *img);
    uint32_t *g = calloc(maxh + 1, sizeof *g);
    int ph[64][4];
    for (uint32_t h = 0; h <= maxh; h++) {
        parse_note(phi_note[h], ph[h]);
        rw_reduce(ph[h], rules, nr, 4);
    }
    for (uint32_t y = 0; y < n; y++) {
        quotient_least_game(q, y, g);
        int w[4] = {0};
        for (uint32_t h = 0; h <= maxh; h++)
            for (uint32_t k = 0; k < g[h]; k++)
                for (int j = 0; j < 4; j++)
                    w[j] += ph[h][j];
        rw_reduce(w, rules, nr, 4);
        memcpy(img[y], w, sizeof w);
    }
    int inj = 1, hom = 1, pok = 1;
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t z = 0; z < y; z++)
            if (memcmp(img[y], img[z], sizeof img[y]) == 0)
                inj = 0;
    for (uint32_t y = 0; y < n; y++)
        for (uint32_t h = 1; h <= maxh; h++) {
            uint32_t one = h, x;
            CgtError err;
            uint32_t pos[64];
            quotient_least_game(q, y, g);
            size_t k = 0;
            for (uint32_t a = 0; a <= maxh; a++)
                for (uint32_t b = 0; b < g[a]; b++)
                    pos[k++] = a;
            pos[k++] = one;
            quotient_eval(q, pos, k, &x, &err);
            int w[4];
            for (int j = 0; j < 4; j++)
                w[j] = img[y][j] + ph[h][j];
            rw_reduce(w, rules, nr, 4);
            if (memcmp(w, img[x], sizeof w) != 0)
                hom = 0;
        }
    for (uint32_t y = 0; y < n; y++) {
        bool in = false;
        for (int i = 0; i < np; i++) {
            int w[4];
            parse_note(p_note[i], w);
            rw_reduce(w, rules, nr, 4);
            if (memcmp(w, img[y], sizeof w) == 0)
                in = true;
        }
        if (in != quotient_is_p(q, y))
            pok = 0;
    }
    CHECK(inj);
    CHECK(hom);
    CHECK(pok);
    CHECK_EQ_INT(quotient_psize(q), np);
    free(img);
    free(g);
}

static void test_note(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    const Rule r9[] = {{{2, 0, 0, 0}, {0, 0, 0, 0}}, {{0, 3, 0, 0}, {0, 1, 0, 0}}};
    const char *phi9[] = {"e", "e", "x", "x", "z", "e", "xz", "x", "x", "e"};
    const char *p9[] = {"x", "z2"};
    Quotient *q = compute(&g, 9, NULL, 0);
    check_note_iso(q, r9, 2, phi9, p9, 2, 6);
    quotient_free(q);
    const Rule r24[] = {{{2, 0, 0, 0}, {0, 0, 0, 0}}, {{0, 0, 2, 0}, {0, 0, 0, 0}},
                        {{0, 0, 0, 2}, {0, 0, 0, 0}}, {{0, 4, 0, 0}, {0, 2, 0, 0}},
                        {{0, 3, 1, 0}, {1, 2, 0, 0}}, {{1, 3, 0, 0}, {0, 2, 1, 0}},
                        {{1, 2, 1, 0}, {0, 3, 0, 0}}};
    const char *phi24[] = {"e",  "e",  "x", "x",  "z",  "e",  "xz", "x", "x",
                           "e",  "w",  "xz", "wx", "z", "v",  "e",  "vx", "wx",
                           "z",  "w",  "xz", "z2", "x", "xz2", "w"};
    const char *p24[] = {"x", "z2", "wx", "vx", "vxw"};
    const char *names[] = {"x", "z", "w", "v"};
    q = compute(&g, 24, names, 4);
    check_note_iso(q, r24, 7, phi24, p24, 5, 24);
    CHECK_EQ_STR(quotient_gen_name(q, 2), "w");
    quotient_free(q);
    /* wrong number of names */
    CgtError err;
    MqEngine *e = mq_new(&g, NULL);
    mq_extend_to(e, 24, &err);
    CHECK(mq_quotient(e, names, 3, &err) == NULL);
    CHECK_EQ_INT(err.status, CGT_ERR_DOMAIN);
    mq_free(e);
    /* 0.137 heap n = 0.07 heap n+1 */
    Oct o2 = oct_make("0.137");
    HeapGame g2 = oct_game(&o2);
    Quotient *a = compute(&g, 25, NULL, 0), *b = compute(&g2, 24, NULL, 0);
    CHECK_EQ_INT(quotient_size(a), quotient_size(b));
    CHECK_EQ_INT(quotient_psize(a), quotient_psize(b));
    int same = 1;
    for (uint32_t h = 1; h <= 24; h++)
        same &= quotient_is_p(a, quotient_phi(a, h + 1)) == quotient_is_p(b, quotient_phi(b, h));
    CHECK(same);
    quotient_free(a);
    quotient_free(b);
}

/* Tame games: |P| = 2 and |Q| - 2 a power of two (checked by brute force
 * above); 0.31 and 0.73 have the 6-element tame quotient T_2. */
static void test_tame(void)
{
    const char *codes[] = {"0.31", "0.73"};
    for (int i = 0; i < 2; i++) {
        Oct o = oct_make(codes[i]);
        HeapGame g = oct_game(&o);
        Quotient *q = compute(&g, 60, NULL, 0);
        CHECK_EQ_INT(quotient_size(q), 6);
        CHECK_EQ_INT(quotient_psize(q), 2);
        CHECK(quotient_is_tame(q));
        quotient_free(q);
    }
}

/* Checkpoint: save at heap 20, resume to 30, compare with a direct run. */
static void test_checkpoint(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    CgtError err;
    MqEngine *e = mq_new(&g, NULL);
    CHECK(mq_extend_to(e, 20, &err) == CGT_OK);
    char path[512];
    unit_tmp_path(path, sizeof path, "misere.ckpt");
    CHECK(mq_save(e, path, &err) == CGT_OK);
    mq_free(e);
    e = mq_load(path, &g, NULL, NULL, &err);
    CHECK(e != NULL);
    if (!e)
        return;
    CHECK_EQ_INT(mq_heaps_done(e), 20);
    CHECK(mq_extend_to(e, 30, &err) == CGT_OK);
    Quotient *a = mq_quotient(e, NULL, 0, &err), *b = compute(&g, 30, NULL, 0);
    CHECK_EQ_INT(quotient_size(a), quotient_size(b));
    int same = 1;
    for (uint32_t h = 0; h <= 30; h++)
        same &= quotient_phi(a, h) == quotient_phi(b, h);
    CHECK(same);
    quotient_free(a);
    quotient_free(b);
    mq_free(e);
    Oct o2 = oct_make("0.77");
    HeapGame g2 = oct_game(&o2);
    CHECK(mq_load(path, &g2, NULL, NULL, &err) == NULL);
    CHECK_EQ_INT(err.status, CGT_ERR_DOMAIN);
    FILE *f = fopen(path, "w");
    if (f) {
        fputs("cgt-misere-checkpoint 1\ngame 0.07\nheaps 3\nelements 2\nletters 1\n"
              "hl -1 -1 0\nact 1 1\np 0 1\npred 0 0 1 2\nexpansions 0\nend\n", f);
        fclose(f);
    }
    CHECK(mq_load(path, &g, NULL, NULL, &err) == NULL);
    CHECK_EQ_INT(err.status, CGT_ERR_IO);
    remove(path);
    /* an interrupt stops the run and keeps the last completed heap */
    e = mq_new(&g, NULL);
    CHECK(mq_extend_to(e, 12, &err) == CGT_OK);
    cgt_interrupt_flag = 1;
    CHECK_EQ_INT(mq_extend_to(e, 30, &err), CGT_ERR_INTERRUPTED);
    cgt_interrupt_flag = 0;
    CHECK(mq_heaps_done(e) >= 12 && mq_heaps_done(e) < 30);
    CHECK(mq_extend_to(e, 30, &err) == CGT_OK);
    Quotient *c = compute(&g, 30, NULL, 0);
    CHECK_EQ_INT(mq_current_size(e), quotient_size(c));
    quotient_free(c);
    mq_free(e);
}

/* Published: MisereSolver reaches heap 33 of 0.07 with |Q| = 638, |P| = 109. */
static void test_q33(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    Quotient *q = compute(&g, 33, NULL, 0);
    CHECK_EQ_INT(quotient_size(q), 638);
    CHECK_EQ_INT(quotient_psize(q), 109);
    MqCertInfo ci;
    CgtError err;
    CHECK(mq_certify(q, &g, 0, &ci, &err) == CGT_OK);
    CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
    quotient_free(q);
}

/* Claims: the note's Q(24) of 0.07 as explicit tables is accepted; with a
 * wrong phi(24) the least failure is reported and brute force confirms
 * its true outcome. */
static void test_claim(void)
{
    const Rule r24[] = {{{2, 0, 0, 0}, {0, 0, 0, 0}}, {{0, 0, 2, 0}, {0, 0, 0, 0}},
                        {{0, 0, 0, 2}, {0, 0, 0, 0}}, {{0, 4, 0, 0}, {0, 2, 0, 0}},
                        {{0, 3, 1, 0}, {1, 2, 0, 0}}, {{1, 3, 0, 0}, {0, 2, 1, 0}},
                        {{1, 2, 1, 0}, {0, 3, 0, 0}}};
    int el[64][4], ne = 0;
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 4; b++)
            for (int cc = 0; cc < 2; cc++)
                for (int d = 0; d < 2; d++) {
                    int w[4] = {a, b, cc, d};
                    rw_reduce(w, r24, 7, 4);
                    int f = -1;
                    for (int i = 0; i < ne; i++)
                        if (memcmp(el[i], w, sizeof w) == 0)
                            f = i;
                    if (f < 0)
                        memcpy(el[ne++], w, sizeof w);
                }
    CHECK_EQ_INT(ne, 24);
    uint32_t act[4 * 24];
    for (int g = 0; g < 4; g++)
        for (int i = 0; i < ne; i++) {
            int w[4];
            memcpy(w, el[i], sizeof w);
            w[g]++;
            rw_reduce(w, r24, 7, 4);
            for (int j = 0; j < ne; j++)
                if (memcmp(el[j], w, sizeof w) == 0)
                    act[g * 24 + i] = (uint32_t)j;
        }
    const char *phi24[] = {"e",  "e",  "x", "x",  "z",  "e",  "xz", "x", "x",
                           "e",  "w",  "xz", "wx", "z", "v",  "e",  "vx", "wx",
                           "z",  "w",  "xz", "z2", "x", "xz2", "w"};
    const char *p24[] = {"x", "z2", "wx", "vx", "vxw"};
    uint32_t phi[25], pp[5];
    for (int h = 0; h < 25; h++) {
        int w[4];
        parse_note(phi24[h], w);
        rw_reduce(w, r24, 7, 4);
        for (int j = 0; j < ne; j++)
            if (memcmp(el[j], w, sizeof w) == 0)
                phi[h] = (uint32_t)j;
    }
    for (int i = 0; i < 5; i++) {
        int w[4];
        parse_note(p24[i], w);
        rw_reduce(w, r24, 7, 4);
        for (int j = 0; j < ne; j++)
            if (memcmp(el[j], w, sizeof w) == 0)
                pp[i] = (uint32_t)j;
    }
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    MqClaim c = {24, 4, act, pp, 5, phi, 24};
    MqClaimResult r;
    CgtError err;
    CHECK(mq_check_claim(&c, &g, &r, &err) == CGT_OK);
    CHECK(r.is_quotient);
    free(r.game);
    phi[24] = phi[22]; /* claim heap 24 behaves as heap 22 (x) */
    CHECK(mq_check_claim(&c, &g, &r, &err) == CGT_OK);
    CHECK(!r.labelling_ok);
    if (r.game) {
        uint8_t key[48] = {0};
        int k = 0;
        for (int h = 24; h >= 1; h--)
            for (uint32_t m = 0; m < r.game[h] && k < 47; m++)
                key[k++] = (uint8_t)h;
        Bf b = {&o, NULL, 0, 0};
        bf_grow(&b);
        CHECK_EQ_INT(bf_outcome(&b, key), r.true_is_p);
        CHECK(r.game[24] > 0);
        if (r.kind == MQ_CLAIM_PFAIL) {
            /* the reported move really goes to a P-position */
            uint32_t hs[48];
            int m = 0;
            bool skipped = false;
            for (int i = 0; i < k; i++) {
                if (!skipped && key[i] == r.move_heap) {
                    skipped = true;
                    continue;
                }
                hs[m++] = key[i];
            }
            for (uint32_t i = 0; i < r.move_nparts; i++)
                hs[m++] = r.move_parts[i];
            uint8_t k2[48] = {0};
            for (int i = 0; i < m; i++)
                k2[i] = (uint8_t)hs[i];
            qsort(k2, (size_t)m, 1, cmp_desc);
            CHECK(skipped);
            CHECK_EQ_INT(bf_outcome(&b, k2), 1);
        }
        free(b.tab);
    }
    free(r.game);
}

/* Genera of the P-position types of Q(24) of 0.07 (the note): x 1^031,
 * z^2 0^02, wx 2^0520, vx 5^057, vxw 6^064; and the claim that positions
 * with the same image share a genus, checked on small positions. */
static long genus_walk(const Quotient *q, GenusCache *gc, char **gen_of, uint32_t *pos, int len,
                       uint32_t maxpart, uint32_t left)
{
    long bad = 0;
    uint32_t x;
    CgtError err;
    quotient_eval(q, pos, (size_t)len, &x, &err);
    Genus gen;
    if (genus_position(gc, pos, (size_t)len, &gen, &err) == CGT_OK) {
        char *s = genus_format(&gen);
        if (!gen_of[x])
            gen_of[x] = s;
        else {
            bad += strcmp(gen_of[x], s) != 0;
            free(s);
        }
    }
    for (uint32_t h = (maxpart < left ? maxpart : left); h >= 1; h--) {
        pos[len] = h;
        bad += genus_walk(q, gc, gen_of, pos, len + 1, h, left - h);
    }
    return bad;
}

static void test_genus(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    const char *names[] = {"x", "z", "w", "v"};
    Quotient *q = compute(&g, 24, names, 4);
    const char *types[] = {"x", "z^2", "xw", "xv", "xwv"};
    const char *genera[] = {"1^031", "0^02", "2^0520", "5^057", "6^064"};
    int matched = 0;
    CgtError err;
    for (uint32_t x = 0; x < quotient_size(q); x++) {
        if (!quotient_is_p(q, x))
            continue;
        char *w = quotient_format(q, x), *gs = NULL;
        CHECK(quotient_genus(q, &g, x, 0, &gs, &err) == CGT_OK);
        for (int i = 0; i < 5; i++)
            if (strcmp(w, types[i]) == 0) {
                CHECK_EQ_STR(gs, genera[i]);
                matched++;
            }
        free(w);
        free(gs);
    }
    CHECK_EQ_INT(matched, 5);
    GenusCache *gc = genus_new(&g);
    Genus e;
    CHECK(genus_position(gc, NULL, 0, &e, &err) == CGT_OK);
    char *es = genus_format(&e);
    CHECK_EQ_STR(es, "0^120");
    free(es);
    char **gen_of = calloc(quotient_size(q), sizeof *gen_of);
    uint32_t pos[64];
    long bad = genus_walk(q, gc, gen_of, pos, 0, 24, getenv("CGT_SLOW") ? 30 : 18);
    genus_free(gc);
    if (bad)
        fprintf(stderr, "genus differs within an image class %ld times\n", bad);
    CHECK_EQ_INT(bad, 0);
    for (uint32_t x = 0; x < quotient_size(q); x++)
        free(gen_of[x]);
    free(gen_of);
    quotient_free(q);
}

/* The genus of ptypes (src/lib/misere/mqgenus.c: γk read off quotients
 * with nim heaps adjoined where they answer, searched where not) equals the
 * plain search of src/lib/heap/genus.c on every P-type of Q(24) and Q(25)
 * of 0.07 and Q(20) of 0.137 that the plain search finishes; the quotients
 * it reads cover γk <= 3 of Q(25) of 0.07 and γk <= 7 of its heaps <= 25. */
static void test_ptypes_genus(void)
{
    const char *codes[] = {"0.07", "0.07", "0.137"};
    uint32_t heaps[] = {24, 25, 20};
    int compared = 0;
    for (int i = 0; i < 3; i++) {
        Oct o = oct_make(codes[i]);
        HeapGame g = oct_game(&o);
        Quotient *q = compute(&g, heaps[i], NULL, 0);
        CgtError err;
        MqGenus *mg = mq_genus_new(q, &g, &err);
        CHECK(mg != NULL);
        if (i == 1) {
            unsigned ca, cb;
            uint32_t mb;
            mq_genus_cover(mg, &ca, &cb, &mb);
            CHECK_EQ_INT(ca, 3);
            CHECK_EQ_INT(cb, 7);
            CHECK_EQ_INT(mb, 25);
        }
        for (uint32_t x = 0; mg && x < quotient_size(q); x++) {
            if (!quotient_is_p(q, x))
                continue;
            char *fast = NULL, *plain = NULL;
            CHECK(mq_genus_least(mg, x, 0, &fast, NULL, &err) == CGT_OK);
            if (quotient_genus(q, &g, x, 200000, &plain, &err) == CGT_OK) {
                CHECK_EQ_STR(fast, plain);
                compared++;
            }
            free(fast);
            free(plain);
        }
        mq_genus_free(mg);
        quotient_free(q);
    }
    CHECK(compared >= 25);
}

/* Limits keep the last completed heap; periodicity of Kayles (0.77): the
 * certificate verifies the quotient at the heap where the criterion holds,
 * and phi repeats with the reported period from the preperiod on. */
static void test_limits_period(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    MqLimits lim = {30, 0};
    CgtError err;
    MqEngine *e = mq_new(&g, &lim);
    CHECK_EQ_INT(mq_extend_to(e, 40, &err), CGT_ERR_LIMIT);
    CHECK_EQ_INT(mq_heaps_done(e), 24);
    CHECK_EQ_INT(mq_current_size(e), 24);
    mq_free(e);
    Oct k = oct_make("0.77");
    HeapGame gk = oct_game(&k);
    e = mq_new(&gk, NULL);
    MqPeriod per;
    CHECK(mq_run_until_periodic(e, 400, &per, &err) == CGT_OK);
    CHECK(per.found);
    Quotient *q = mq_quotient(e, NULL, 0, &err);
    uint32_t n = quotient_max_heap(q);
    int rep = 1;
    for (uint32_t h = per.preperiod; h + per.period <= n; h++)
        rep &= quotient_phi(q, h) == quotient_phi(q, h + per.period);
    CHECK(rep);
    CHECK(3 * per.preperiod + 3 * per.period + 2 + 3 <= n + 1);
    MqCertInfo ci;
    CHECK(mq_certify(q, &gk, 0, &ci, &err) == CGT_OK);
    CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
    quotient_free(q);
    mq_free(e);
}

/* Dawson's Chess (0.137), published (the note; Guy and Smith 1956): with 32
 * files, the 5th and 11th pawns from an end lose (moves to heaps {3,26}
 * and {9,20}); every other first move wins. */
static void test_dawson(void)
{
    Oct o = oct_make("0.137");
    HeapGame g = oct_game(&o);
    Quotient *q = compute(&g, 32, NULL, 0);
    bool heap_p;
    MqMove *mv;
    size_t cnt;
    CgtError err;
    CHECK(quotient_heap_moves(q, &g, 32, &heap_p, &mv, &cnt, &err) == CGT_OK);
    CHECK(!heap_p);
    int losing = 0, bad = 0;
    for (size_t i = 0; i < cnt; i++) {
        bool special = mv[i].nparts == 2 && ((mv[i].parts[0] == 3 && mv[i].parts[1] == 26) ||
                                             (mv[i].parts[0] == 9 && mv[i].parts[1] == 20));
        if (!mv[i].is_p)
            losing++;
        if (special == mv[i].is_p)
            bad++;
    }
    CHECK_EQ_INT(losing, 2);
    CHECK_EQ_INT(bad, 0);
    free(mv);
    quotient_free(q);
}

/* The certificate must reject a quotient of another game: Q(24) of 0.07
 * checked against Kayles (0.77) and against Dawson's Chess (0.137, whose
 * heap n behaves like heap n-1 of 0.07, so the images are shifted). */
static void test_cert_rejects(void)
{
    Oct o = oct_make("0.07"), ok = oct_make("0.77"), oc = oct_make("0.137");
    HeapGame g = oct_game(&o), gk = oct_game(&ok), gc = oct_game(&oc);
    Quotient *q = compute(&g, 24, NULL, 0);
    MqCertInfo ci;
    CgtError err;
    CHECK(mq_certify(q, &gk, 0, &ci, &err) == CGT_OK);
    CHECK(!ci.labelling_ok);
    CHECK(mq_certify(q, &gc, 0, &ci, &err) == CGT_OK);
    CHECK(!ci.labelling_ok);
    CHECK(mq_certify(q, &g, 0, &ci, &err) == CGT_OK);
    CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
    quotient_free(q);
}

/* Every recalibration policy gives a quotient that the independent
 * certificate accepts, of the same order (Q(33): 638 elements, 109 P, as
 * published for MisereSolver; Q(26): 144, as the default policy). */
static void test_policies(bool slow)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    MqRecal pol[] = {MQ_RECAL_FIRST, MQ_RECAL_SMALLEST, MQ_RECAL_JUMP};
    for (int i = 0; i < 3; i++) {
        CgtError err;
        MqEngine *e = mq_new(&g, NULL);
        mq_set_recalibration(e, pol[i]);
        CHECK(mq_extend_to(e, slow ? 33 : 26, &err) == CGT_OK);
        Quotient *q = mq_quotient(e, NULL, 0, &err);
        CHECK_EQ_INT(quotient_size(q), slow ? 638 : 144);
        if (slow)
            CHECK_EQ_INT(quotient_psize(q), 109);
        MqCertInfo ci;
        CHECK(mq_certify(q, &g, 0, &ci, &err) == CGT_OK);
        CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
        quotient_free(q);
        mq_free(e);
    }
}

/* The reduction of the recalibration's trials (mqcore.c, Moore rounds
 * ending element by element): constructions that reduce thousands of
 * trials, many of them ending in long chains of rounds, give quotients that
 * the certificate proves reduced, correctly labelled and generated (its
 * own refinement shares no code with the construction) and that have
 * MisereSolver's orders (docs/performance.md, "MisereSolver side by side"). */
static void test_reduction(bool slow)
{
    struct {
        const char *code;
        uint32_t heap;
        int q, p;
    } runs[] = {{"0.26", 56, 364, 91}, {"0.57", 68, 430, 107}};
    for (int i = 0; i < (slow ? 2 : 1); i++) {
        Oct o = oct_make(runs[i].code);
        HeapGame g = oct_game(&o);
        CgtError err;
        MqEngine *e = mq_new(&g, NULL);
        CHECK(mq_extend_to(e, runs[i].heap, &err) == CGT_OK);
        Quotient *q = mq_quotient(e, NULL, 0, &err);
        CHECK_EQ_INT(quotient_size(q), runs[i].q);
        CHECK_EQ_INT(quotient_psize(q), runs[i].p);
        MqCertInfo ci;
        CHECK(mq_certify(q, &g, 0, &ci, &err) == CGT_OK);
        CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
        quotient_free(q);
        mq_free(e);
    }
}

/* Two threads (docs/misere.md "Two threads"): the engine on 2 and 3
 * threads saves the same checkpoint, byte for byte, as on one, with the
 * same counters (slow tests, recalibration trials, failures), under each
 * recalibration policy; the pieces it splits are judged in one thread's
 * order. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = NULL;
    size_t cap = 0, n = 0, k;
    do {
        if (n + 4096 > cap)
            b = realloc(b, cap = 2 * cap + 4096);
        k = fread(b + n, 1, 4096, f);
        n += k;
    } while (k > 0);
    fclose(f);
    *len = n;
    return b;
}

static void test_threads(void)
{
    const char *codes[] = {"0.57", "0.26", "0.145", "0.07"};
    const uint32_t heaps[] = {40, 30, 60, 26};
    MqRecal pol[] = {MQ_RECAL_FIRST, MQ_RECAL_SMALLEST, MQ_RECAL_LIFT};
    for (int i = 0; i < 4; i++)
        for (int p = 0; p < 3; p++) {
            Oct o = oct_make(codes[i]);
            HeapGame g = oct_game(&o);
            char *ref = NULL;
            size_t reflen = 0;
            MqStats rs = {0};
            for (unsigned t = 1; t <= 3; t++) {
                CgtError err;
                MqEngine *e = mq_new(&g, NULL);
                mq_set_recalibration(e, pol[p]);
                mq_set_threads(e, t);
                CHECK(mq_extend_to(e, heaps[i], &err) == CGT_OK);
                char path[512];
                unit_tmp_path(path, sizeof path, "threads.ckpt");
                CHECK(mq_save(e, path, &err) == CGT_OK);
                size_t len = 0;
                char *b = slurp(path, &len);
                CHECK(b != NULL);
                const MqStats *s = mq_stats(e);
                if (t == 1) {
                    ref = b;
                    reflen = len;
                    rs = *s;
                } else {
                    CHECK(b && len == reflen && memcmp(b, ref, len) == 0);
                    CHECK(s->slow_tests == rs.slow_tests && s->fast_hits == rs.fast_hits &&
                          s->recalibrations == rs.recalibrations &&
                          s->failures == rs.failures && s->expansions == rs.expansions);
                    free(b);
                }
                mq_free(e);
            }
            CHECK(rs.recalibrations > 0);
            free(ref);
        }
}

/* The lower bound tracked during expansions never exceeds the order of the
 * (certified) quotient of its heap: 0.07 to heap 30 (bound at heap 30) and
 * 0.35 to heap 14. */
static void test_bound(void)
{
    const char *codes[] = {"0.07", "0.35"};
    const uint32_t heaps[] = {30, 14};
    for (int i = 0; i < 2; i++) {
        Oct o = oct_make(codes[i]);
        HeapGame g = oct_game(&o);
        CgtError err;
        MqEngine *e = mq_new(&g, NULL);
        mq_set_track_bound(e, true);
        CHECK(mq_extend_to(e, heaps[i], &err) == CGT_OK);
        const MqStats *st = mq_stats(e);
        CHECK(st->bound_heap == heaps[i]);
        Quotient *q = mq_quotient(e, NULL, 0, &err);
        MqCertInfo ci;
        CHECK(mq_certify(q, &g, 0, &ci, &err) == CGT_OK);
        CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
        CHECK(st->bound_size > 0 && st->bound_size <= quotient_size(q));
        quotient_free(q);
        mq_free(e);
    }
}

/* The failure hook sees every least failure with the failing trial: the
 * trial labels the failure P exactly for P-failures, and (brute force,
 * failures of at most 30 tokens) the true outcome is the opposite label. */
typedef struct HookLog {
    Bf *bf;
    uint32_t calls, label_ok, checked, truth_ok;
} HookLog;

static void hook_log(void *ctx, const struct MqPret *T, const uint32_t *F, bool p_failure)
{
    HookLog *hl = ctx;
    hl->calls++;
    hl->label_ok += mq_bit(T->p, mqpret_eval(T, F)) == p_failure;
    uint8_t key[48] = {0};
    int len = 0;
    uint32_t tot = 0;
    for (uint32_t h = T->nh; h-- > 1;)
        for (uint32_t c = 0; c < F[h] && len < 47; c++) {
            key[len++] = (uint8_t)h;
            tot += h;
        }
    if (tot <= 30 && len < 47) {
        hl->checked++;
        hl->truth_ok += bf_outcome(hl->bf, key) == !p_failure;
    }
}

static void test_failure_hook(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    Bf b = {&o, NULL, 0, 0};
    HookLog hl = {&b, 0, 0, 0, 0};
    CgtError err;
    MqEngine *e = mq_new(&g, NULL);
    mq_set_failure_hook(e, hook_log, &hl);
    CHECK(mq_extend_to(e, 25, &err) == CGT_OK);
    CHECK(hl.calls > 0 && hl.calls == mq_stats(e)->failures);
    CHECK_EQ_INT(hl.label_ok, hl.calls);
    CHECK(hl.checked > 0);
    CHECK_EQ_INT(hl.truth_ok, hl.checked);
    mq_free(e);
    free(b.tab);
}

/* A Quotient derives its least games and its expansion history from its
 * data alone (mqquot.c); both must agree with what the engine recorded
 * while it built the quotient (its least-game tree and its expansions),
 * and the Quotient rebuilt from its own data, and the engine resumed from
 * a checkpoint, must give the same tables. */
/* Tables whose actions do not commute are refused before anything is
 * derived from them (the derivations assume a commutative monoid). */
static void test_claim_noncommuting(void)
{
    /* a: every x to 1, b: every x to 2, so a(b(0)) = 1 but b(a(0)) = 2 */
    const uint32_t act[] = {1, 1, 1, 2, 2, 2};
    const uint32_t phi[] = {0, 1, 2}, p[] = {1};
    MqClaim c = {.size = 3, .ngens = 2, .act = act, .p = p, .np = 1, .phi = phi, .n = 2};
    CgtError err = {0};
    Quotient *q = quotient_from_claim(&c, NULL, 0, &err);
    CHECK(q == NULL);
    CHECK(err.status != CGT_OK && strstr(err.msg, "commute") != NULL);
    cgt_error_clear(&err);
}

static void test_derived(void)
{
    static const struct {
        const char *code;
        uint32_t n;
    } runs[] = {{"0.07", 30}, {"0.77", 60}, {"0.137", 28}, {"0.35", 13}, {"0.64", 12},
                {"0.16", 16}, {"0.145", 60}, {"0.54", 40}, {"0.26", 40}, {"0.75", 30}};
    char path[512];
    unit_tmp_path(path, sizeof path, "derived.ckpt");
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
        Oct o = oct_make(runs[r].code);
        HeapGame g = oct_game(&o);
        CgtError err;
        MqEngine *e = mq_new(&g, NULL);
        CHECK(mq_extend_to(e, runs[r].n, &err) == CGT_OK);
        Quotient *q = mq_quotient(e, NULL, 0, &err);
        CHECK(q != NULL);
        if (!q) {
            mq_free(e);
            continue;
        }
        /* expansions */
        const uint32_t *eh, *es, *dh, *ds;
        size_t ne = mq_engine_expansions(e, &eh, &es), nd = quotient_expansions(q, &dh, &ds);
        bool same = ne == nd;
        for (size_t i = 0; i < ne && same; i++)
            same = eh[i] == dh[i] && es[i] == ds[i];
        if (!same)
            fprintf(stderr, "%s: derived expansions differ from the engine's\n", runs[r].code);
        CHECK(same);
        /* least games: the engine's tree, element by element */
        const MqPret *t = e->q;
        uint32_t *ge = xcalloc(t->nh, sizeof *ge), *gq = xcalloc(t->nh, sizeof *gq);
        bool lg = quotient_size(q) == t->n;
        for (uint32_t x = 0; x < t->n && lg; x++) {
            mqpret_least(t, x, ge);
            uint32_t tot = 0, k = 0, y;
            for (uint32_t h = 0; h < t->nh; h++)
                tot += ge[h];
            uint32_t *heaps = xmalloc((tot + 1) * sizeof *heaps);
            for (uint32_t h = 0; h < t->nh; h++)
                for (uint32_t c = 0; c < ge[h]; c++)
                    heaps[k++] = h;
            lg = quotient_eval(q, heaps, k, &y, &err) == CGT_OK;
            if (lg) {
                quotient_least_game(q, y, gq);
                lg = memcmp(ge, gq, t->nh * sizeof *ge) == 0;
            }
            free(heaps);
        }
        CHECK(lg);
        free(ge);
        free(gq);
        /* the Quotient of its own data is the same quotient */
        MqClaim c;
        quotient_claim(q, &c);
        Quotient *q2 = quotient_from_claim(&c, NULL, 0, &err);
        CHECK(q2 != NULL);
        bool eq = q2 && quotient_size(q2) == quotient_size(q) && quotient_ngens(q2) == quotient_ngens(q);
        for (uint32_t x = 0; eq && x < quotient_size(q); x++) {
            eq = quotient_is_p(q, x) == quotient_is_p(q2, x);
            for (int k = 0; eq && k < quotient_ngens(q); k++)
                eq = quotient_mul_gen(q, x, k) == quotient_mul_gen(q2, x, k);
            for (uint32_t h = 0; eq && h <= runs[r].n; h++)
                eq = quotient_mul_heap(q, x, h) == quotient_mul_heap(q2, x, h);
        }
        CHECK(eq);
        quotient_free(q2);
        /* resumed from a checkpoint, one more heap gives the direct result */
        CHECK(mq_save(e, path, &err) == CGT_OK);
        MqEngine *e2 = mq_load(path, &g, NULL, NULL, &err);
        CHECK(e2 != NULL);
        if (e2) {
            CHECK(mq_extend_to(e2, runs[r].n + 1, &err) == CGT_OK);
            CHECK(mq_extend_to(e, runs[r].n + 1, &err) == CGT_OK);
            Quotient *a = mq_quotient(e, NULL, 0, &err), *b = mq_quotient(e2, NULL, 0, &err);
            bool ab = a && b && quotient_size(a) == quotient_size(b);
            for (uint32_t h = 0; ab && h <= runs[r].n + 1; h++)
                ab = quotient_phi(a, h) == quotient_phi(b, h);
            CHECK(ab);
            quotient_free(a);
            quotient_free(b);
            mq_free(e2);
        }
        quotient_free(q);
        mq_free(e);
    }
    remove(path);
}

/* ---- the driver of the `quotient` statement (src/lib/misere/mqrun.h) ---- */

/* A private directory for the driver's files (unit_tmp_dir, unit.h). */
static const char *run_path(const char *name, char *buf, size_t cap)
{
    unit_tmp_path(buf, cap, name);
    return buf;
}

static void run_opts(MqRunOptions *ro, HeapGame *g, int64_t to)
{
    mq_run_options_init(ro);
    ro->game = g;
    ro->name = g->name;
    ro->to = to;
}

/* The heap images and P-portion of two snapshots agree element for element
 * through their least games (the numbering may differ). */
static bool same_quotient(const Quotient *a, const Quotient *b)
{
    if (!a || !b || quotient_size(a) != quotient_size(b) ||
        quotient_psize(a) != quotient_psize(b) || quotient_max_heap(a) != quotient_max_heap(b))
        return false;
    uint32_t n = quotient_max_heap(a);
    for (uint32_t h = 0; h <= n; h++)
        for (uint32_t k = 0; k <= n; k++) {
            uint32_t pa[2] = {h, k};
            bool ia, ib;
            CgtError err;
            if (quotient_outcome(a, pa, 2, &ia, &err) != CGT_OK ||
                quotient_outcome(b, pa, 2, &ib, &err) != CGT_OK || ia != ib)
                return false;
        }
    for (uint32_t x = 0; x < quotient_size(a); x++) {
        uint32_t *g = calloc(n + 1, sizeof *g);
        quotient_least_game(a, x, g);
        uint32_t y = 0;
        for (uint32_t h = 0; h <= n; h++)
            for (uint32_t i = 0; i < g[h]; i++)
                y = quotient_mul_heap(b, y, h);
        bool same = quotient_is_p(a, x) == quotient_is_p(b, y);
        free(g);
        if (!same)
            return false;
    }
    return true;
}

/* Published orders: Plambeck's note, Q(9) of 0.07 has order 6 with |P| = 2
 * and Q(24) order 24 with |P| = 5 (names x, z, w, v); the tame 0.31 is
 * T_2 (order 6, |P| = 2) once its pretending function is periodic. */
static void test_run_published(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    MqRunOptions ro;
    MqRun r;
    run_opts(&ro, &g, 9);
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK(r.q && quotient_size(r.q) == 6 && quotient_psize(r.q) == 2);
    CHECK(r.verdict.ran && r.verdict.certified && !r.partial && !r.inf);
    mq_run_free(&r);
    const char *names[] = {"x", "z", "w", "v"};
    run_opts(&ro, &g, 24);
    ro.names = names;
    ro.nnames = 4;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK(r.q && quotient_size(r.q) == 24 && quotient_psize(r.q) == 5);
    CHECK(r.q && quotient_max_heap(r.q) == 24);
    CHECK(r.verdict.certified);
    if (r.q)
        CHECK_EQ_STR(quotient_gen_name(r.q, 3), "v");
    Quotient *d = compute(&g, 24, NULL, 0);
    CHECK(same_quotient(r.q, d));
    quotient_free(d);
    mq_run_free(&r);
    CHECK(r.q == NULL && r.eng == NULL);
    /* three names for four generators: refused, pointing at the names */
    run_opts(&ro, &g, 24);
    ro.names = names;
    ro.nnames = 3;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_FAILED);
    CHECK_EQ_INT(r.at, MQ_AT_NAMES);
    CHECK_EQ_INT(r.err.status, CGT_ERR_DOMAIN);
    CHECK_EQ_STR(r.err.msg, "3 names given, but Q(24) has 4 generators");
    CHECK(r.q == NULL && r.eng == NULL);
    Oct t = oct_make("0.31");
    HeapGame gt = oct_game(&t);
    run_opts(&ro, &gt, -1);
    ro.limit = 60;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK(r.q && quotient_size(r.q) == 6 && quotient_psize(r.q) == 2);
    CHECK(r.verdict.certified && r.verdict.period.found);
    if (r.q) {
        uint32_t n = quotient_max_heap(r.q);
        CHECK(n < 60); /* stopped by the periodicity criterion, not the limit */
        int rep = 1;
        for (uint32_t h = r.verdict.period.preperiod; h + r.verdict.period.period <= n; h++)
            rep &= quotient_phi(r.q, h) == quotient_phi(r.q, h + r.verdict.period.period);
        CHECK(rep);
    }
    mq_run_free(&r);
}

/* A size cap stops 0.07 after heap 24 (|Q(25)| = 144 > 30): the partial
 * result is Q(24), certified, with the hint of what holds it; the
 * checkpoint it saved resumes to Q(26) of a straight run. */
static void test_run_stop_resume(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    MqRunOptions ro;
    MqRun r;
    run_opts(&ro, &g, 40);
    ro.limits.max_size = 30;
    ro.decide = false;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_STOPPED);
    CHECK_EQ_INT(r.err.status, CGT_ERR_LIMIT);
    CHECK(r.partial && r.q && quotient_max_heap(r.q) == 24 && quotient_size(r.q) == 24);
    CHECK(r.verdict.certified);
    CHECK(strncmp(r.partial_note, "only heaps 0..24; heap 25 was not completed (", 45) == 0);
    CHECK_EQ_STR(r.err.hint, "the quotient holds the partial result Q(24)");
    mq_run_free(&r);
    ro.holder = "q";
    mq_run(&ro, &r);
    CHECK_EQ_STR(r.err.hint, "q holds the partial result Q(24)");
    mq_run_free(&r);
    char ck[300], want[400];
    run_path("stop.ckpt", ck, sizeof ck);
    ro.checkpoint = ck;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_STOPPED);
    CHECK_EQ_INT(r.ck_holds, 24);
    snprintf(want, sizeof want,
             "the checkpoint %s holds heaps 0..24; run again to resume from heap 25", ck);
    CHECK_EQ_STR(r.err.hint, want);
    mq_run_free(&r);
    run_opts(&ro, &g, 26);
    ro.checkpoint = ck;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK_EQ_INT(r.ck_holds, 26);
    CHECK(r.q && quotient_size(r.q) == 144);
    Quotient *d = compute(&g, 26, NULL, 0);
    CHECK(same_quotient(r.q, d));
    quotient_free(d);
    mq_run_free(&r);
    remove(ck);
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fclose(f);
    return n;
}

/* Checkpoints: to 20 saved, resumed to 30, equals a straight run to 30; a
 * file that covers more heaps than asked for is left alone; an unwritable
 * path and a checkpoint of another game fail before any work. */
static void test_run_checkpoint(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    char ck[300];
    run_path("resume.ckpt", ck, sizeof ck);
    MqRunOptions ro;
    MqRun r, s;
    run_opts(&ro, &g, 20);
    ro.checkpoint = ck;
    ro.save_every = 0;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK_EQ_INT(r.ck_holds, 20);
    mq_run_free(&r);
    ro.to = 30;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK_EQ_INT(r.ck_holds, 30);
    run_opts(&ro, &g, 30);
    mq_run(&ro, &s);
    CHECK_EQ_INT(s.status, MQ_RUN_DONE);
    CHECK(r.verdict.certified && s.verdict.certified);
    CHECK(same_quotient(r.q, s.q));
    CHECK(r.q && quotient_size(r.q) == 360);
    mq_run_free(&r);
    mq_run_free(&s);
    long before = file_size(ck);
    run_opts(&ro, &g, 25);
    ro.checkpoint = ck;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK_EQ_INT(r.ck_holds, 0);
    CHECK(r.q && quotient_max_heap(r.q) == 25 && quotient_size(r.q) == 144);
    CHECK(before > 0 && file_size(ck) == before);
    mq_run_free(&r);
    Oct k = oct_make("0.77");
    HeapGame gk = oct_game(&k);
    run_opts(&ro, &gk, 10);
    ro.checkpoint = ck;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_FAILED);
    CHECK_EQ_INT(r.at, MQ_AT_CHECKPOINT);
    CHECK_EQ_INT(r.err.status, CGT_ERR_DOMAIN);
    CHECK(r.eng == NULL);
    remove(ck);
    char bad[300];
    run_path("missing-dir/x.ckpt", bad, sizeof bad);
    run_opts(&ro, &g, 10);
    ro.checkpoint = bad;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_FAILED);
    CHECK_EQ_INT(r.at, MQ_AT_CHECKPOINT);
    CHECK_EQ_INT(r.err.status, CGT_ERR_IO);
    run_opts(&ro, &g, 10);
    ro.proof = bad;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_FAILED);
    CHECK_EQ_INT(r.at, MQ_AT_PROOF);
}

/* The certificate policy: `certify off` gives an uncertified result that
 * says so; a state cap the certificate cannot finish under gives
 * MQ_RUN_UNCERTIFIED with CGT_ERR_LIMIT and the result kept. */
static void test_run_certify(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    MqRunOptions ro;
    MqRun r;
    run_opts(&ro, &g, 24);
    ro.certify = false;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK(!r.verdict.ran && !r.verdict.certified);
    CHECK_EQ_STR(r.verdict.note, "certificate not run (`certify off`)");
    mq_run_free(&r);
    run_opts(&ro, &g, 24);
    ro.cert_states = 1;
    ro.holder = "q";
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_UNCERTIFIED);
    CHECK_EQ_INT(r.err.status, CGT_ERR_LIMIT);
    CHECK(strncmp(r.err.msg, "Q(24) of 0.07 is NOT certified: certificate check stopped", 57) == 0);
    CHECK_EQ_STR(r.err.hint, "q holds the uncertified quotient; `certify off` asks for it "
                             "explicitly");
    CHECK(r.q && quotient_size(r.q) == 24 && r.verdict.ran && !r.verdict.certified);
    mq_run_free(&r);
}

/* Variants of the proof of Q(12) of 0.76 through Lemma 2 (docs/misere.md):
 * (1) the same labels read with the diagonal step q = 2 (t, b0, a0 allow
 * it, and steps (1,1) leave every label alone, so the function L is the
 * same): certified, with the same outcomes, and written in format 2,
 * which the independent checker tests/oracle/mq_infcheck accepts;
 * (2) heap 5 put into the partner's group (the claim "only the number of
 * heaps 7 and 5 together counts"), which is false: the certificate must
 * refuse it. */
static void check_inf_variants(MqInfProof *p, const char *infcheck)
{
    uint32_t q0 = p->q, A1 = p->A1, B1 = p->B1, ua = p->ua, ub = p->ub;
    uint64_t pairs = p->pairs, checks = p->checks;
    bool ok = false;
    const char *why = "";
    CgtError err;
    CHECK(mqinf_is_v1(p) && q0 == 1 && p->t == 1 && p->b0 == 2 && p->a0 == 3);
    /* (1) q = 2 */
    bool before[6][8];
    for (uint32_t a = 0; a < 6; a++)
        for (uint32_t b = 0; b < 8; b++)
            before[a][b] = mqinf_label(p, 5, a, b);
    p->q = 2;
    mqinf_set_region(p);
    CHECK_EQ_INT(mqinf_certify(p, 4000000, &ok, &why, &err), CGT_OK);
    CHECK(ok);
    if (!ok)
        fprintf(stderr, "q = 2 variant refused: %s\n", why);
    CHECK(!mqinf_is_v1(p));
    bool same = true;
    for (uint32_t a = 0; a < 6; a++)
        for (uint32_t b = 0; b < 8; b++)
            same = same && before[a][b] == mqinf_label(p, 5, a, b);
    CHECK(same);
    char pf[300];
    run_path("q76v2.proof", pf, sizeof pf);
    CHECK_EQ_INT(mqinf_write(p, "octal 0.76", pf, &err), CGT_OK);
    FILE *f = fopen(pf, "r");
    const char *want[] = {"cgt-misere-infinite 2\n", "game octal 0.76\n", "heaps 12\n",
                          "grow 2\n", "group 1 1 12\n", "group 2 1 7\n"};
    char line[256];
    for (size_t i = 0; f && i < sizeof want / sizeof *want; i++)
        CHECK_EQ_STR(fgets(line, sizeof line, f) ? line : "", want[i]);
    bool block = false, counts = false, end = false;
    while (f && fgets(line, sizeof line, f)) {
        block = block || strcmp(line, "block pair 1 2 1 2 2 2 3 2\n") == 0;
        counts = counts || strcmp(line, "counts 0 0\n") == 0;
        end = strcmp(line, "end\n") == 0;
    }
    if (f)
        fclose(f);
    CHECK(block && counts && end);
    /* the engine's format-2 file, read by the independent checker */
    char cmd[1000];
    snprintf(cmd, sizeof cmd, "%.600s %.300s >/dev/null", infcheck, pf);
    CHECK_EQ_INT(system(cmd), 0);
    remove(pf);
    /* (2) heap 5 beside heap 7 */
    p->q = 1;
    p->grp[5] = 2;
    mqinf_set_region(p);
    ok = true;
    CHECK_EQ_INT(mqinf_certify(p, 4000000, &ok, &why, &err), CGT_OK);
    CHECK(!ok);
    p->grp[5] = 0;
    p->q = q0;
    p->A1 = A1;
    p->B1 = B1;
    p->ua = ua;
    p->ub = ub;
    CHECK_EQ_INT(mqinf_certify(p, 4000000, &ok, &why, &err), CGT_OK);
    CHECK(ok && p->pairs == pairs && p->checks == checks);
}

/* Q(12) of 0.76 is infinite: the driver proves it, both with a bound and
 * heap by heap, writes the proof (accepted by the independent checker
 * tests/oracle/mq_infcheck, built next to the tests), and the description's
 * outcomes agree with the brute force above on every position of heaps
 * 1..12 with at most 26 tokens.  A size cap stops the decision short
 * (undecided, partial Q(11)); without the decision the cap stops at Q(11)
 * as well. */
static void test_run_infinite(const char *infcheck)
{
    Oct o = oct_make("0.76");
    HeapGame g = oct_game(&o);
    char pf[300];
    run_path("q76.proof", pf, sizeof pf);
    MqRunOptions ro;
    MqRun r;
    run_opts(&ro, &g, 20);
    ro.proof = pf;
    ro.proof_game = "octal 0.76";
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK(r.inf && r.inf->N == 12 && r.asked == 20 && r.proof_written);
    CHECK(r.q && quotient_max_heap(r.q) == 11 && r.verdict.certified);
    if (r.inf) {
        Bf b = {&o, NULL, 0, 0};
        bf_grow(&b);
        long bad = 0, count = 0;
        /* positions as descending heap lists of 1..12, total <= 26 */
        uint8_t key[48] = {0};
        int len = 0;
        uint32_t tot = 0;
        for (;;) {
            uint32_t hs[48];
            for (int i = 0; i < len; i++)
                hs[i] = key[i];
            bool isp;
            CgtError err;
            key[len] = 0;
            if (mqinf_outcome(r.inf, hs, (size_t)len, &isp, &err) != CGT_OK ||
                (int)isp != bf_outcome(&b, key))
                bad++;
            count++;
            /* next: extend by the largest allowed heap, else lower the last */
            uint32_t next = len ? key[len - 1] : 12;
            if (next > 26 - tot)
                next = 26 - tot;
            if (next >= 1 && len < 46) {
                key[len++] = (uint8_t)next;
                tot += next;
                continue;
            }
            while (len > 0 && key[len - 1] == 1) {
                tot -= 1;
                key[--len] = 0;
            }
            if (len == 0)
                break;
            key[len - 1]--;
            tot--;
        }
        CHECK_EQ_INT(bad, 0);
        CHECK(count > 2000);
        free(b.tab);
        check_inf_variants(r.inf, infcheck);
    }
    mq_run_free(&r);
    FILE *f = fopen(pf, "r");
    char line[64] = "";
    if (f) {
        if (!fgets(line, sizeof line, f))
            line[0] = '\0';
        fclose(f);
    }
    CHECK_EQ_STR(line, "cgt-misere-infinite 1\n");
    CHECK(access(infcheck, X_OK) == 0);
    char cmd[1000];
    snprintf(cmd, sizeof cmd, "%.600s %.300s >/dev/null", infcheck, pf);
    CHECK_EQ_INT(system(cmd), 0);
    remove(pf);
    run_opts(&ro, &g, -1);
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_DONE);
    CHECK(r.inf && r.inf->N == 12 && r.asked == 12);
    mq_run_free(&r);
    run_opts(&ro, &g, 12);
    ro.limits.max_size = 200;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_STOPPED);
    CHECK(r.q && quotient_max_heap(r.q) == 11 && !r.inf);
    CHECK(strstr(r.partial_note, "infinite-quotient decision for heap 12: undecided") != NULL);
    CHECK(strstr(r.err.hint, "proved lower bound |Q(12)| >= |Q(11)|") != NULL);
    mq_run_free(&r);
    run_opts(&ro, &g, 12);
    ro.limits.max_size = 3000;
    ro.decide = false;
    mq_run(&ro, &r);
    CHECK_EQ_INT(r.status, MQ_RUN_STOPPED);
    CHECK(r.q && quotient_max_heap(r.q) == 11 && !r.inf);
    mq_run_free(&r);
}

/* One game of the resumed N-failure searches: for each heap `from` = nh -
 * back (back_lo <= back <= back_hi) given its own image and every other
 * heap image, the search resumed from the antichains of the heaps below
 * `from` (mq_least_nfail_top when back is 1, mq_least_nfail_from
 * otherwise) ends as the whole search does: the same failure,
 * completeness and number of stored sets. */
static void nfail_resume_case(const char *code, uint32_t heap, uint32_t back_lo, uint32_t back_hi)
{
    Oct o = oct_make(code);
    HeapGame g = oct_game(&o);
    CgtError err;
    MqEngine *e = mq_new(&g, NULL);
    CHECK(mq_extend_to(e, heap, &err) == CGT_OK);
    MqPret *q = e->q;
    uint32_t nh = q->nh, nfail = 0, runs = 0;
    uint32_t *g1 = xcalloc(nh + 1, sizeof *g1), *g2 = xcalloc(nh + 1, sizeof *g2);
    for (uint32_t back = back_lo; back <= back_hi; back++) {
        uint32_t from = nh - back;
        int32_t keep = q->hl[from];
        if (back == 1)
            CHECK(keep >= 0);
        for (int32_t l = -1; keep >= 0 && l < (int32_t)q->nl; l++) {
            q->hl[from] = l < 0 ? keep : l;
            MqTr t, t0;
            mqtr_build(&t, q, &e->opts);
            MqAnti a1, a0, a2;
            bool f1, c1, f0, c0, f2, c2;
            mqanti_init(&a1, q->n);
            CHECK(mq_least_nfail(q, &t, NULL, &a1, &f1, g1, &c1, &err) == CGT_OK);
            q->nh = from;
            mqtr_build(&t0, q, &e->opts);
            mqanti_init(&a0, q->n);
            CHECK(mq_least_nfail(q, &t0, NULL, &a0, &f0, g2, &c0, &err) == CGT_OK);
            CHECK(!f0 && c0);
            q->nh = nh;
            mqanti_copy(&a2, &a0);
            CgtStatus st = back == 1
                               ? mq_least_nfail_top(q, &t, NULL, &a2, &f2, g2, &c2, &err)
                               : mq_least_nfail_from(q, &t, NULL, &a2, from, &f2, g2, &c2, &err);
            CHECK(st == CGT_OK);
            CHECK(f1 == f2 && c1 == c2);
            CHECK(a1.total == a2.total);
            if (f1 && f2)
                CHECK(memcmp(g1, g2, nh * sizeof *g1) == 0);
            if (l < 0)
                CHECK(!f1 && c1);
            nfail += f1;
            runs++;
            mqanti_free(&a0);
            mqanti_free(&a1);
            mqanti_free(&a2);
            mqtr_free(&t);
            mqtr_free(&t0);
        }
        if (keep >= 0)
            q->hl[from] = keep;
    }
    CHECK(runs > 0 && nfail > 0);
    free(g1);
    free(g2);
    mq_free(e);
}

/* The slow test of the conservative extension (docs/misere.md "One heap
 * at a time") resumes from the search without the top heap; the fast
 * test's completion and an expansion's first trial resume from two or
 * three heaps below the top (mq_least_nfail_from). Most of the other
 * heap images fail. */
static void test_nfail_resume(void)
{
    const char *top_codes[] = {"0.07", "0.145", "0.26", "0.54", "0.35"};
    const uint32_t top_heaps[] = {30, 60, 40, 50, 14};
    for (size_t i = 0; i < sizeof top_codes / sizeof *top_codes; i++)
        nfail_resume_case(top_codes[i], top_heaps[i], 1, 1);
    const char *from_codes[] = {"0.07", "0.145", "0.54"};
    const uint32_t from_heaps[] = {30, 60, 50};
    for (size_t i = 0; i < sizeof from_codes / sizeof *from_codes; i++)
        nfail_resume_case(from_codes[i], from_heaps[i], 2, 3);
}

/* A mixed game (src/lib/misere/mqmix.h): 0.07 alone as a part gives the
 * data of Q(9) itself, heap for heap; 0.07 beside a table of nim heaps
 * *1..*3 has the layout of the header, certifies, and gives misère nim
 * its known outcomes (*1 P, *1 + *1 N, *2 + *2 P, *2 + *3 N). */
static void test_mix(void)
{
    Oct o = oct_make("0.07");
    HeapGame g = oct_game(&o);
    MqMixPart one = {&g, 9, NULL, NULL};
    MqMix *m1 = mqmix_new(&one, 1, "[0.07 to 9]");
    Quotient *a = compute((HeapGame *)mqmix_heapgame(m1), 9, NULL, 0);
    Quotient *b = compute(&g, 9, NULL, 0);
    MqClaim ca, cb;
    quotient_claim(a, &ca);
    quotient_claim(b, &cb);
    CHECK(ca.size == cb.size && ca.ngens == cb.ngens && ca.np == cb.np && ca.n == cb.n);
    CHECK(memcmp(ca.act, cb.act, (size_t)ca.size * (size_t)ca.ngens * sizeof *ca.act) == 0);
    CHECK(memcmp(ca.phi, cb.phi, (ca.n + 1) * sizeof *ca.phi) == 0);
    quotient_free(a);
    quotient_free(b);
    mqmix_free(m1);

    const uint32_t start[] = {0, 1, 3, 6}, opts[] = {0, 0, 1, 0, 1, 2};
    MqMixPart two[2] = {{&g, 6, NULL, NULL}, {NULL, 3, start, opts}};
    MqMix *m = mqmix_new(two, 2, "[0.07 to 6, nim to 3]");
    CHECK_EQ_INT(mqmix_top(m), 9);
    CHECK_EQ_INT(mqmix_index(m, 1, 2), 8);
    CHECK_EQ_INT(mqmix_index(m, 0, 4), 4);
    CHECK_EQ_INT(mqmix_index(m, 1, 0), 0);
    const HeapGame *hg = mqmix_heapgame(m);
    HeapOptions ho;
    heapopts_init(&ho);
    CgtError err;
    CHECK(hg->options(hg->ctx, 9, &ho, &err) == CGT_OK);
    /* *3: the empty game, *1 and *2 */
    CHECK_EQ_INT(ho.count, 3);
    CHECK(hg->options(hg->ctx, 4, &ho, &err) == CGT_OK);
    /* heap 4 of 0.07: 2, and 1 + 1 */
    CHECK_EQ_INT(ho.count, 2);
    heapopts_free(&ho);
    Quotient *q = compute((HeapGame *)hg, 9, NULL, 0);
    MqCertInfo ci;
    CHECK(mq_certify(q, hg, 0, &ci, &err) == CGT_OK);
    CHECK(ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
    const uint32_t p1[] = {7}, p11[] = {7, 7}, p22[] = {8, 8}, p23[] = {8, 9};
    bool is_p = false;
    CHECK(quotient_outcome(q, p1, 1, &is_p, &err) == CGT_OK && is_p);
    CHECK(quotient_outcome(q, p11, 2, &is_p, &err) == CGT_OK && !is_p);
    CHECK(quotient_outcome(q, p22, 2, &is_p, &err) == CGT_OK && is_p);
    CHECK(quotient_outcome(q, p23, 2, &is_p, &err) == CGT_OK && !is_p);
    quotient_free(q);
    mqmix_free(m);
}

int main(int argc, char **argv)
{
    bool slow = getenv("CGT_SLOW") != NULL;
    const char *codes[] = {"0.07", "0.77", "0.137", "0.31", "0.73", "0.6", "0.35", "0.64",
                           "0.16", "0.127", "0.4", "0.51", "0.33", "0.75", "0.17", "0.26"};
    const uint32_t heaps[] = {14, 14, 14, 14, 14, 14, 12, 12, 14, 11, 14, 14, 14, 14, 14, 14};
    for (size_t i = 0; i < sizeof codes / sizeof *codes; i++)
        check_game(codes[i], heaps[i], slow ? 40 : 22);
    test_note();
    test_tame();
    test_checkpoint();
    test_derived();
    test_claim_noncommuting();
    test_claim();
    test_genus();
    test_ptypes_genus();
    test_limits_period();
    test_dawson();
    test_cert_rejects();
    test_policies(slow);
    test_reduction(slow);
    test_threads();
    test_bound();
    test_failure_hook();
    test_nfail_resume();
    test_mix();
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    char infcheck[600];
    snprintf(infcheck, sizeof infcheck, "%.*s/../oracle/mq_infcheck",
             slash ? (int)(slash - argv[0]) : 1, slash ? argv[0] : ".");
    test_run_published();
    test_run_stop_resume();
    test_run_checkpoint();
    test_run_certify();
    test_run_infinite(infcheck);
    if (slow)
        test_q33();
    UNIT_MAIN_END();
}
