/* Benchmark for commutative (kb.c) and string (nckb.c) completion on random
 * presentations with fixed seeds: each generator gets a pure-power relation
 * x^a = x^b (2 <= a <= 4, b < a) and `extra` random binomials of degree
 * 2..4.  Prints one line per instance: seed, gens, rules, order, seconds.
 * Usage: bench_kb [nc]   (nc: also run the string rewriting version with
 * commutation relations added). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algebra/kb.h"
#include "algebra/nckb.h"
#include "util/rng.h"

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

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "ncbig") == 0) {
        ncbig();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "big") == 0) {
        big();
        return 0;
    }
    int nc = argc > 1 && strcmp(argv[1], "nc") == 0;
    static const int cfg[][2] = {{6, 2}, {8, 3}, {10, 4}, {12, 5}, {14, 6}, {16, 7},
                                 {18, 8}, {20, 9}, {20, 6}, {16, 4}};
    printf("%-6s %-5s %-6s %-7s %-10s %-9s%s\n", "seed", "gens", "extra", "rules", "order",
           "seconds", nc ? "  nc-rules nc-seconds" : "");
    for (size_t c = 0; c < sizeof cfg / sizeof cfg[0]; c++) {
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
