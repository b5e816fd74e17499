/* Benchmark for commutative (kb.c) and string (nckb.c) completion on random
 * presentations with fixed seeds: each generator gets a pure-power relation
 * x^a = x^b (2 <= a <= 4, b < a) and `extra` random binomials of degree
 * 2..4.  Prints one line per instance: seed, gens, rules, order, seconds.
 * Usage: bench_kb [nc|big|ncbig]   (nc: also run the string rewriting version
 * with commutation relations added); the reference comparison modes
 * (cpu, singular, gap) are described above main and driven by compare.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/rewrite/kb.h"
#include "lib/rewrite/nckb.h"
#include "lib/util/rng.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static Presentation *gen(uint64_t seed, int g, int extra)
{
    Rng r;
    rng_seed(&r, seed);
    char nm[32][8];
    const char *np[32];
    for (int i = 0; i < g; i++) {
        snprintf(nm[i], sizeof nm[i], "%c", (char)('a' + i));
        np[i] = nm[i];
    }
    Presentation *p = pres_new(g, np);
    uint32_t a[32], b[32];
    for (int i = 0; i < g; i++) {
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        a[i] = 2 + (uint32_t)rng_below(&r, 3);
        b[i] = (uint32_t)rng_below(&r, a[i]);
        pres_add_relation(p, a, b);
    }
    for (int k = 0; k < extra; k++) {
        memset(a, 0, sizeof a);
        memset(b, 0, sizeof b);
        int da = 2 + (int)rng_below(&r, 3), db = 1 + (int)rng_below(&r, 4);
        for (int t = 0; t < da; t++)
            a[rng_below(&r, (uint64_t)g)]++;
        for (int t = 0; t < db; t++)
            b[rng_below(&r, (uint64_t)g)]++;
        pres_add_relation(p, a, b);
    }
    return p;
}

/* "big": 200 instances with 12-20 generators; summary of the times */
static void big(void)
{
    double tot = 0, worst = 0;
    size_t worst_rules = 0, n = 0, maxrules = 0;
    char worst_order[32] = "";
    printf("%-6s %-5s %-6s %-7s %-10s %-9s\n", "seed", "gens", "extra", "rules", "order",
           "seconds");
    for (uint64_t seed = 1; seed <= 200; seed++) {
        int g = 12 + (int)(seed % 9), extra = 3 + (int)(seed % 7);
        Presentation *p = gen(seed * 7919, g, extra);
        CgtError e;
        KbSystem *s = NULL;
        double t0 = now();
        CgtStatus st = kb_complete(p, NULL, NULL, &s, &e);
        double t1 = now();
        char order[32] = "?";
        if (st == CGT_OK) {
            uint32_t *el;
            size_t cnt;
            if (kb_elements(s, 2000000, &el, &cnt, &e) == CGT_OK) {
                snprintf(order, sizeof order, "%zu", cnt);
                free(el);
            } else {
                snprintf(order, sizeof order, ">2e6");
            }
        }
        if (s && s->nrules >= 100)
            printf("%-6llu %-5d %-6d %-7zu %-10s %-9.4f\n", (unsigned long long)seed, g, extra,
                   s->nrules, order, t1 - t0);
        tot += t1 - t0;
        n++;
        if (s && s->nrules > maxrules)
            maxrules = s->nrules;
        if (t1 - t0 > worst) {
            worst = t1 - t0;
            worst_rules = s ? s->nrules : 0;
            snprintf(worst_order, sizeof worst_order, "%s", order);
        }
        kb_free(s);
        pres_free(p);
    }
    printf("instances %zu, total %.3f s, mean %.4f s, worst %.4f s (%zu rules, order %s), "
           "most rules %zu\n", n, tot, tot / (double)n, worst, worst_rules, worst_order,
           maxrules);
}

/* "ncbig": 8 generators, string rewriting with commutation relations,
 * element counts cross-checked against the commutative completion */
static void ncbig(void)
{
    printf("%-6s %-6s %-9s %-9s %-9s %-9s %s\n", "seed", "extra", "order", "kb-rules",
           "kb-sec", "nc-rules", "nc-sec");
    double worst = 0;
    int mismatches = 0;
    for (uint64_t seed = 1; seed <= 30; seed++) {
        int extra = 1 + (int)(seed % 3);
        Presentation *p = gen(seed * 104729, 8, extra);
        CgtError e;
        KbSystem *s = NULL;
        double t0 = now();
        kb_complete(p, NULL, NULL, &s, &e);
        double t1 = now();
        size_t order = 0, ncorder = 0;
        uint32_t *el;
        if (kb_elements(s, 2000000, &el, &order, &e) == CGT_OK)
            free(el);
        NcSystem *ns = NULL;
        NcLimits lim = {100000, 0};
        double t2 = now();
        CgtStatus st = nckb_complete_commutative(p, &lim, &ns, &e);
        double t3 = now();
        if (st == CGT_OK) {
            uint32_t *w;
            size_t *off, *len;
            if (nckb_elements(ns, 2000000, &w, &off, &len, &ncorder, &e) == CGT_OK) {
                free(w);
                free(off);
                free(len);
            }
        }
        if (order != ncorder)
            mismatches++;
        printf("%-6llu %-6d %-9zu %-9zu %-9.4f %-9zu %.4f%s\n", (unsigned long long)seed, extra,
               order, s->nrules, t1 - t0, ns ? ns->nrules : 0, t3 - t2,
               st == CGT_OK ? "" : " (limit)");
        if (t3 - t2 > worst)
            worst = t3 - t2;
        kb_free(s);
        nckb_free(ns);
        pres_free(p);
    }
    printf("worst nc time %.4f s, order mismatches %d\n", worst, mismatches);
}

/* ---- Comparison with Singular and GAP (bench/kb/compare.sh) ----
 * Three fixed families, the same instances as the modes above:
 *   small  the 50 instances of the default table (6-20 generators)
 *   big    the 200 instances of "big" (12-20 generators)
 *   nc8    the 30 instances of "ncbig" (8 generators)
 * Every mode prints lines "family id gens rules order cpu-seconds". */
typedef struct Inst {
    int gens, extra;
    uint64_t seed; /* generator seed given to gen() */
} Inst;

static const int small_cfg[][2] = {{6, 2}, {8, 3}, {10, 4}, {12, 5}, {14, 6}, {16, 7},
                                   {18, 8}, {20, 9}, {20, 6}, {16, 4}};

/* Instance k (0-based) of family `fam`; returns the family size (0 = unknown). */
static size_t family_inst(const char *fam, size_t k, Inst *in)
{
    if (strcmp(fam, "small") == 0) {
        size_t c = k / 5;
        uint64_t seed = k % 5 + 1;
        if (k < 50) {
            in->gens = small_cfg[c][0];
            in->extra = small_cfg[c][1];
            in->seed = seed * 1000 + c;
        }
        return 50;
    }
    if (strcmp(fam, "big") == 0) {
        uint64_t seed = k + 1;
        in->gens = 12 + (int)(seed % 9);
        in->extra = 3 + (int)(seed % 7);
        in->seed = seed * 7919;
        return 200;
    }
    if (strcmp(fam, "nc8") == 0) {
        uint64_t seed = k + 1;
        in->gens = 8;
        in->extra = 1 + (int)(seed % 3);
        in->seed = seed * 104729;
        return 30;
    }
    return 0;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* cgt: kb_complete (or nckb_complete_commutative with nc) CPU time per
 * instance, repeated until 0.05 s of CPU time has been spent (mean); only
 * the first `first` instances when first > 0. */
static void cmp_cgt(const char *fam, int nc, size_t first)
{
    Inst in;
    size_t n = family_inst(fam, 0, &in);
    if (first && first < n)
        n = first;
    for (size_t k = 0; k < n; k++) {
        family_inst(fam, k, &in);
        Presentation *p = gen(in.seed, in.gens, in.extra);
        CgtError e;
        size_t rules = 0, reps = 0;
        char order[32] = "?";
        double t0 = cpu_now(), t1;
        do {
            if (nc) {
                NcSystem *ns = NULL;
                NcLimits lim = {200000, 0};
                CgtStatus st = nckb_complete_commutative(p, &lim, &ns, &e);
                rules = ns ? ns->nrules : 0;
                if (st != CGT_OK)
                    snprintf(order, sizeof order, "limit");
                nckb_free(ns);
            } else {
                KbSystem *s = NULL;
                CgtStatus st = kb_complete(p, NULL, NULL, &s, &e);
                rules = s ? s->nrules : 0;
                if (st != CGT_OK)
                    snprintf(order, sizeof order, "limit");
                kb_free(s);
            }
            reps++;
            t1 = cpu_now();
        } while (t1 - t0 < 0.05 && reps < 1000);
        if (!nc) {
            KbSystem *s = NULL;
            uint32_t *el;
            size_t cnt;
            if (kb_complete(p, NULL, NULL, &s, &e) == CGT_OK) {
                if (kb_elements(s, 3000000, &el, &cnt, &e) == CGT_OK) {
                    snprintf(order, sizeof order, "%zu", cnt);
                    free(el);
                } else {
                    snprintf(order, sizeof order, "%s",
                             e.status == CGT_ERR_LIMIT ? ">3e6" : "inf");
                }
            }
            kb_free(s);
        }
        printf("%s %zu %d %zu %s %.6f\n", fam, k + 1, in.gens, rules, order,
               (t1 - t0) / (double)reps);
        fflush(stdout);
        pres_free(p);
    }
}

/* Singular name of generator i: v1 is the first (smallest) generator. */
static void sing_word(const uint32_t *w, int g)
{
    int any = 0;
    for (int i = 0; i < g; i++) {
        if (!w[i])
            continue;
        printf("%sv%d", any ? "*" : "", i + 1);
        if (w[i] > 1)
            printf("^%u", w[i]);
        any = 1;
    }
    if (!any)
        printf("1");
}

/* A Singular script completing every instance of the family: the ideal of
 * binomials lhs - rhs in a ring whose variables are listed largest
 * generator first.  Singular's dp (degrevlex) breaks degree ties at the
 * last variable where the exponents differ, the larger exponent being the
 * smaller monomial; with the smallest generator last that is cgt's
 * shortlex (docs/dev/kb-notes.md, "Against Singular and GAP").  option(redSB) gives
 * the reduced basis; timer counts CPU microseconds; small instances are
 * repeated to 0.2 s (the timer ticks in 10 ms steps here). */
static void emit_singular(const char *fam)
{
    Inst in;
    size_t n = family_inst(fam, 0, &in);
    printf("system(\"--ticks-per-sec\", 1000000);\noption(redSB);\n"
           "int tt; int nrep;\n");
    for (size_t k = 0; k < n; k++) {
        family_inst(fam, k, &in);
        Presentation *p = gen(in.seed, in.gens, in.extra);
        printf("ring r%zu = 32003, (", k + 1);
        for (int i = in.gens; i >= 1; i--)
            printf("v%d%s", i, i > 1 ? "," : "");
        printf("), dp;\nideal G;\nideal I = ");
        for (size_t j = 0; j < p->nrels; j++) {
            const uint32_t *l = p->rels + 2 * j * (size_t)in.gens, *r = l + in.gens;
            sing_word(l, in.gens);
            printf(" - ");
            sing_word(r, in.gens);
            printf("%s", j + 1 < p->nrels ? ",\n  " : ";\n");
        }
        printf("nrep = 0; tt = timer;\n"
               "while (nrep == 0 || (timer - tt < 200000 && nrep < 1000)) "
               "{ G = std(I); nrep++; }\n"
               "tt = timer - tt;\n"
               "print(\"%s %zu %d \" + string(size(G)) + \" \" + string(vdim(G)) + \" \" "
               "+ string(tt) + \" \" + string(nrep));\nkill r%zu;\n",
               fam, k + 1, in.gens, k + 1);
        pres_free(p);
    }
    printf("quit;\n");
}

/* GAP word: a product of generator powers in declaration order. */
static void gap_word(const uint32_t *w, int g)
{
    int any = 0;
    for (int i = 0; i < g; i++) {
        if (!w[i])
            continue;
        printf("%sx[%d]", any ? "*" : "", i + 1);
        if (w[i] > 1)
            printf("^%u", w[i]);
        any = 1;
    }
    if (!any)
        printf("One(F)");
}

/* A GAP script for instance k of the family: the monoid presentation of
 * ncpres_from_commutative (words in declaration order, plus x[j]x[i] =
 * x[i]x[j] for i < j), completed by the library's Knuth-Bendix under
 * shortlex with x[1] < x[2] < ...; Runtime() is user CPU milliseconds.
 * Repeated (a new rewriting system each time) until 0.2 s; prints
 * "family id gens rules - total-ms reps first-run-ms". */
static void emit_gap(const char *fam, size_t k)
{
    Inst in;
    if (k >= family_inst(fam, 0, &in))
        return;
    family_inst(fam, k, &in);
    Presentation *p = gen(in.seed, in.gens, in.extra);
    printf("F := FreeMonoid(%d);; x := GeneratorsOfMonoid(F);;\nrels := [\n", in.gens);
    for (size_t j = 0; j < p->nrels; j++) {
        const uint32_t *l = p->rels + 2 * j * (size_t)in.gens, *r = l + in.gens;
        printf("  [");
        gap_word(l, in.gens);
        printf(", ");
        gap_word(r, in.gens);
        printf("],\n");
    }
    for (int i = 0; i < in.gens; i++)
        for (int j = i + 1; j < in.gens; j++)
            printf("  [x[%d]*x[%d], x[%d]*x[%d]]%s\n", j + 1, i + 1, i + 1, j + 1,
                   i == in.gens - 2 ? "" : ",");
    printf("];;\nM := F / rels;;\nt := Runtime();; n := 0;;\n"
           "repeat\n  rws := KnuthBendixRewritingSystem(M);; MakeConfluent(rws);;\n"
           "  n := n + 1;; if n = 1 then t1 := Runtime() - t;; fi;\n"
           "until Runtime() - t >= 200 or n >= 1000;\n"
           "t := Runtime() - t;;\n"
           "Print(\"%s %zu %d \", Length(Rules(rws)), \" - \", t, \" \", n, \" \", t1, "
           "\"\\n\");\nQUIT;\n", fam, k + 1, in.gens);
    pres_free(p);
}

/* The completed system of instance k, one rule per line ("a^2 b = c"), for
 * checking rule sets (not only counts) against the reference systems. */
static void print_rules(const char *fam, size_t k, int nc)
{
    Inst in;
    if (k >= family_inst(fam, 0, &in))
        return;
    family_inst(fam, k, &in);
    Presentation *p = gen(in.seed, in.gens, in.extra);
    CgtError e;
    char *txt = NULL;
    if (nc) {
        NcSystem *ns = NULL;
        if (nckb_complete_commutative(p, NULL, &ns, &e) == CGT_OK)
            txt = nckb_format_rules(ns);
        nckb_free(ns);
    } else {
        KbSystem *s = NULL;
        if (kb_complete(p, NULL, NULL, &s, &e) == CGT_OK)
            txt = kb_format_rules(s);
        kb_free(s);
    }
    printf("%s", txt ? txt : "(not completed)\n");
    free(txt);
    pres_free(p);
}

/* Modes: (none), nc, big, ncbig: tables above.  cpu FAMILY [N], nccpu
 * FAMILY [N]: cgt CPU times (first N instances); singular FAMILY: Singular
 * script; gap FAMILY K: GAP script for instance K (1-based); rules /
 * ncrules FAMILY K: the completed system of instance K; size FAMILY: number
 * of instances. */
int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "cpu") == 0) {
        cmp_cgt(argv[2], 0, argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 0);
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "nccpu") == 0) {
        cmp_cgt(argv[2], 1, argc > 3 ? (size_t)strtoul(argv[3], NULL, 10) : 0);
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "singular") == 0) {
        emit_singular(argv[2]);
        return 0;
    }
    if (argc > 3 && strcmp(argv[1], "gap") == 0) {
        emit_gap(argv[2], (size_t)strtoul(argv[3], NULL, 10) - 1);
        return 0;
    }
    if (argc > 3 && (strcmp(argv[1], "rules") == 0 || strcmp(argv[1], "ncrules") == 0)) {
        print_rules(argv[2], (size_t)strtoul(argv[3], NULL, 10) - 1, argv[1][0] == 'n');
        return 0;
    }
    if (argc > 2 && strcmp(argv[1], "size") == 0) {
        Inst in;
        printf("%zu\n", family_inst(argv[2], 0, &in));
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "ncbig") == 0) {
        ncbig();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "big") == 0) {
        big();
        return 0;
    }
    int nc = argc > 1 && strcmp(argv[1], "nc") == 0;
    const int(*cfg)[2] = small_cfg;
    printf("%-6s %-5s %-6s %-7s %-10s %-9s%s\n", "seed", "gens", "extra", "rules", "order",
           "seconds", nc ? "  nc-rules nc-seconds" : "");
    for (size_t c = 0; c < sizeof small_cfg / sizeof small_cfg[0]; c++) {
        for (uint64_t seed = 1; seed <= 5; seed++) {
            int g = cfg[c][0], extra = cfg[c][1];
            Presentation *p = gen(seed * 1000 + (uint64_t)c, g, extra);
            CgtError e;
            KbSystem *s = NULL;
            double t0 = now();
            CgtStatus st = kb_complete(p, NULL, NULL, &s, &e);
            double t1 = now();
            char order[32] = "?";
            if (st == CGT_OK) {
                uint32_t *el;
                size_t n;
                if (kb_elements(s, 3000000, &el, &n, &e) == CGT_OK) {
                    snprintf(order, sizeof order, "%zu", n);
                    free(el);
                } else {
                    snprintf(order, sizeof order, "%s", e.status == CGT_ERR_LIMIT ? ">3e6" : "inf");
                }
            }
            printf("%-6llu %-5d %-6d %-7zu %-10s %-9.4f", (unsigned long long)seed, g, extra,
                   s ? s->nrules : 0, order, t1 - t0);
            if (nc && g <= 8) {
                NcSystem *ns = NULL;
                NcLimits lim = {20000, 0};
                double t2 = now();
                CgtStatus st2 = nckb_complete_commutative(p, &lim, &ns, &e);
                double t3 = now();
                printf("  %-8zu %.4f%s", ns ? ns->nrules : 0, t3 - t2,
                       st2 == CGT_OK ? "" : " (limit)");
                nckb_free(ns);
            }
            printf("\n");
            kb_free(s);
            pres_free(p);
        }
    }
    return 0;
}
