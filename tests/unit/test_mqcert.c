/* Tests of the independent certificate (src/lib/misere/mqcert.c, docs/misere.md):
 * quotients corrupted in one place (a wrong product, a wrong P label, two
 * elements merged into one) are rejected, at heap 100 of 0.145 and on
 * smaller quotients; and its three methods (the pair closure,
 * the state closure, the summary) give the same verdict on every claim and
 * find the same combinations (element, has a move, has a move to P) over
 * all positions, which contain those of every small position.
 * A certified claim is the unique misère quotient, so each corruption must
 * be rejected: a test that accepted one would show an unsound method. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/misere.h"
#include "lib/misere/mqcertint.h"
#include "bench/misere/benchoct.h"
#include "unit.h"

/* A quotient as plain tables (the certificate's input). */
typedef struct Tabs {
    uint32_t n, maxh;
    int ng;
    uint32_t *act, *p, *phi;
    size_t np;
} Tabs;

static Tabs tabs_of(const Quotient *q)
{
    Tabs t = {quotient_size(q), quotient_max_heap(q), quotient_ngens(q), NULL, NULL, NULL, 0};
    t.act = malloc(((size_t)t.ng * t.n + 1) * sizeof *t.act);
    t.p = malloc(t.n * sizeof *t.p);
    t.phi = malloc((t.maxh + 1) * sizeof *t.phi);
    for (int g = 0; g < t.ng; g++)
        for (uint32_t x = 0; x < t.n; x++)
            t.act[(size_t)g * t.n + x] = quotient_mul_gen(q, x, g);
    for (uint32_t x = 0; x < t.n; x++)
        if (quotient_is_p(q, x))
            t.p[t.np++] = x;
    for (uint32_t h = 0; h <= t.maxh; h++)
        t.phi[h] = quotient_phi(q, h);
    return t;
}

static Tabs tabs_copy(const Tabs *s)
{
    Tabs t = *s;
    t.act = malloc(((size_t)t.ng * t.n + 1) * sizeof *t.act);
    memcpy(t.act, s->act, (size_t)t.ng * t.n * sizeof *t.act);
    t.p = malloc((t.n + 1) * sizeof *t.p);
    memcpy(t.p, s->p, t.np * sizeof *t.p);
    t.phi = malloc((t.maxh + 1) * sizeof *t.phi);
    memcpy(t.phi, s->phi, (t.maxh + 1) * sizeof *t.phi);
    return t;
}

static void tabs_free(Tabs *t)
{
    free(t->act);
    free(t->p);
    free(t->phi);
}

/* x changes its P label. */
static Tabs flip_p(const Tabs *s, uint32_t x)
{
    Tabs t = tabs_copy(s);
    size_t k = 0;
    bool was = false;
    for (size_t i = 0; i < s->np; i++) {
        if (s->p[i] == x)
            was = true;
        else
            t.p[k++] = s->p[i];
    }
    if (!was)
        t.p[k++] = x;
    t.np = k;
    return t;
}

/* x times generator g gives another element. */
static Tabs wrong_product(const Tabs *s, int g, uint32_t x, uint32_t shift)
{
    Tabs t = tabs_copy(s);
    uint32_t *e = &t.act[(size_t)g * t.n + x];
    *e = (*e + shift) % t.n;
    return t;
}

/* Elements a < b become one (a keeps its row; the others are renumbered). */
static Tabs merge(const Tabs *s, uint32_t a, uint32_t b)
{
    Tabs t = {s->n - 1, s->maxh, s->ng, NULL, NULL, NULL, 0};
    uint32_t *m = malloc(s->n * sizeof *m);
    for (uint32_t x = 0; x < s->n; x++)
        m[x] = x < b ? x : x == b ? a : x - 1;
    t.act = malloc(((size_t)t.ng * t.n + 1) * sizeof *t.act);
    t.p = malloc(s->n * sizeof *t.p);
    t.phi = malloc((t.maxh + 1) * sizeof *t.phi);
    for (int g = 0; g < t.ng; g++)
        for (uint32_t x = 0; x < s->n; x++)
            if (x != b)
                t.act[(size_t)g * t.n + m[x]] = m[s->act[(size_t)g * s->n + x]];
    for (size_t i = 0; i < s->np; i++)
        if (s->p[i] != b)
            t.p[t.np++] = m[s->p[i]];
    for (uint32_t h = 0; h <= t.maxh; h++)
        t.phi[h] = m[s->phi[h]];
    free(m);
    return t;
}

/* 1 certified, 0 rejected, -1 no verdict (limit). */
static int verdict(const Tabs *t, HeapGame *g, int method)
{
    MqClaim c = {t->n, t->ng, t->act, t->p, t->np, t->phi, t->maxh};
    MqCertInfo ci;
    CgtError err;
    CgtStatus st = mqcert_claim_method(&c, g, method, 2000000, NULL, &ci, &err);
    if (st != CGT_OK)
        return -1;
    return ci.labelling_ok && ci.reduced_ok && ci.generated_ok;
}

static Quotient *compute(HeapGame *g, uint32_t n)
{
    CgtError err;
    MqEngine *e = mq_new(g, NULL);
    CHECK(mq_extend_to(e, n, &err) == CGT_OK);
    Quotient *q = mq_quotient(e, NULL, 0, &err);
    mq_free(e);
    return q;
}

/* Positions of at most `left` more tokens, heaps >= lo, each checked: its
 * (has a move, has a move to P) combination is among combos[phi(G)]. */
typedef struct Enum {
    const Quotient *q;
    HeapGame *g;
    const uint8_t *combos;
    uint32_t heaps[64], k;
    long seen, missing;
} Enum;

static void enum_positions(Enum *en, uint32_t lo, uint32_t left)
{
    CgtError err;
    uint32_t x;
    if (quotient_eval(en->q, en->heaps, en->k, &x, &err) != CGT_OK) {
        en->missing++;
        return;
    }
    bool e = false, a = false;
    HeapOptions o;
    heapopts_init(&o);
    for (uint32_t i = 0; i < en->k; i++) {
        if (en->g->options(en->g->ctx, en->heaps[i], &o, &err) != CGT_OK)
            en->missing++;
        for (size_t j = 0; j < o.count; j++) {
            uint32_t opt[64], m = 0;
            for (uint32_t l = 0; l < en->k; l++)
                if (l != i)
                    opt[m++] = en->heaps[l];
            for (size_t r = o.start[j]; r < o.start[j + 1]; r++)
                opt[m++] = o.parts[r];
            bool is_p = false;
            if (quotient_outcome(en->q, opt, m, &is_p, &err) != CGT_OK)
                en->missing++;
            e = true;
            a |= is_p;
        }
    }
    heapopts_free(&o);
    en->seen++;
    if (!(en->combos[x] >> (2 * e + a) & 1))
        en->missing++;
    for (uint32_t h = lo; h <= left && h <= quotient_max_heap(en->q) && en->k < 60; h++) {
        en->heaps[en->k++] = h;
        enum_positions(en, h, left - h);
        en->k--;
    }
}

/* The three methods compute the same set of (element, has a move, has a
 * move to P) combinations over all positions, and every small position's
 * combination is in it. */
static void test_combos(const char *code, uint32_t heap, uint32_t tokens)
{
    BenchOct o;
    HeapGame g;
    bench_oct_parse(code, &o, &g);
    Quotient *q = compute(&g, heap);
    Tabs t = tabs_of(q);
    MqClaim c = {t.n, t.ng, t.act, t.p, t.np, t.phi, t.maxh};
    uint8_t *cb[3];
    for (int m = 0; m < 3; m++) {
        cb[m] = malloc(t.n);
        MqCertInfo ci;
        CgtError err;
        CHECK(mqcert_claim_method(&c, &g, m, 0, cb[m], &ci, &err) == CGT_OK);
        CHECK(ci.labelling_ok && ci.method == m);
    }
    CHECK(memcmp(cb[0], cb[1], t.n) == 0);
    CHECK(memcmp(cb[0], cb[2], t.n) == 0);
    Enum en = {q, &g, cb[2], {0}, 0, 0, 0};
    enum_positions(&en, 1, tokens);
    CHECK(en.seen > 100);
    CHECK_EQ_INT(en.missing, 0);
    for (int m = 0; m < 3; m++)
        free(cb[m]);
    tabs_free(&t);
    quotient_free(q);
}

/* Every method certifies the true quotient and rejects each corruption
 * (all P flips, wrong products and merges spread over the elements). */
static void test_methods_agree(const char *code, uint32_t heap, int methods_from)
{
    BenchOct o;
    HeapGame g;
    bench_oct_parse(code, &o, &g);
    Quotient *q = compute(&g, heap);
    Tabs t = tabs_of(q);
    for (int m = methods_from; m <= 2; m++)
        CHECK_EQ_INT(verdict(&t, &g, m), 1);
    int bad = 0, tried = 0;
    for (uint32_t x = 0; x < t.n; x++) {
        Tabs u = flip_p(&t, x);
        for (int m = methods_from; m <= 2; m++, tried++)
            bad += verdict(&u, &g, m) != 0;
        tabs_free(&u);
        if (t.ng > 0 && x > 0) {
            u = wrong_product(&t, (int)(x % (uint32_t)t.ng), x, 1 + x % (t.n - 1));
            for (int m = methods_from; m <= 2; m++, tried++)
                bad += verdict(&u, &g, m) != 0;
            tabs_free(&u);
            u = merge(&t, x / 2, x);
            for (int m = methods_from; m <= 2; m++, tried++)
                bad += verdict(&u, &g, m) != 0;
            tabs_free(&u);
        }
    }
    if (bad)
        fprintf(stderr, "%s Q(%u): %d of %d corrupted claims not rejected\n", code, heap, bad,
                tried);
    CHECK_EQ_INT(bad, 0);
    tabs_free(&t);
    quotient_free(q);
}

/* Q(100) of 0.145 with one wrong product, one wrong P label,
 * one merged pair of elements, each rejected (many of each kind), while
 * the true quotient is certified (by mq_certify and by both profile
 * methods). */
static void test_0145_h100(void)
{
    BenchOct o;
    HeapGame g;
    bench_oct_parse("0.145", &o, &g);
    Quotient *q = compute(&g, 100);
    MqCertInfo ci;
    CgtError err;
    CHECK(mq_certify(q, &g, 0, &ci, &err) == CGT_OK);
    CHECK(ci.monoid_ok && ci.labelling_ok && ci.reduced_ok && ci.generated_ok);
    Tabs t = tabs_of(q);
    CHECK(t.n > 100);
    CHECK_EQ_INT(verdict(&t, &g, 1), 1);
    CHECK_EQ_INT(verdict(&t, &g, 2), 1);
    int bad = 0;
    for (uint32_t k = 1; k <= 12; k++) {
        uint32_t x = k * (t.n - 1) / 12;
        Tabs u = wrong_product(&t, (int)(k % (uint32_t)t.ng), x, k);
        bad += verdict(&u, &g, -1) != 0;
        tabs_free(&u);
        u = flip_p(&t, x);
        bad += verdict(&u, &g, -1) != 0;
        tabs_free(&u);
        u = merge(&t, x - 1 - (k % 3) * (x > 3), x);
        bad += verdict(&u, &g, -1) != 0;
        tabs_free(&u);
    }
    CHECK_EQ_INT(bad, 0);
    tabs_free(&t);
    quotient_free(q);
}

int main(void)
{
    test_combos("0.07", 20, 16);
    test_combos("0.145", 40, 16);
    test_combos("0.54", 30, 16);
    test_combos("0.77", 30, 16);
    test_methods_agree("0.07", 20, 0);
    test_methods_agree("0.77", 40, 0);
    test_methods_agree("0.145", 30, 0);
    test_methods_agree("0.54", 30, 1);
    test_0145_h100();
    UNIT_MAIN_END();
}
