/* Benchmark and run library driver for games/gp: for a game data set it
 * runs GP over a range of seeds and prints one line per seed (generation,
 * accuracies, formula, infix, seconds) and a summary with programs/second.
 * Build and cases: bench/gp/run.sh.  Options (all optional):
 *   -g ga1|ga2|kayles  -k MIN[..MAX] heaps  -s LO..HI sizes  -n (count terminal)
 *   -S FIRST..LAST seeds  -t THREADS  -T (tournament)  -f FUNCS  -F (no early stop)
 *   -p POP  -G GENS  -x EXTRA (held-out sizes beyond HI, default 2)
 *   -c FORMULA: only report the accuracy of FORMULA (functional notation) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/gp/gp.h"

static void range(const char *s, int *a, int *b)
{
    const char *d = strstr(s, "..");
    *a = atoi(s);
    *b = d ? atoi(d + 2) : *a;
}

int main(int argc, char **argv)
{
    GpGameSpec sp = {GP_GAME_GA2, 2, 2, 1, 8, false, 2};
    GpParams p;
    gp_params_default(&p);
    int s0 = 0, s1 = 9;
    const char *check = NULL;
    CgtError err;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";
        if (!strcmp(a, "-g") && gp_game_lookup(v, &sp.game, &err) == CGT_OK)
            i++;
        else if (!strcmp(a, "-k"))
            range(v, &sp.min_heaps, &sp.max_heaps), i++;
        else if (!strcmp(a, "-s"))
            range(v, &sp.lo, &sp.hi), i++;
        else if (!strcmp(a, "-n"))
            sp.count_terminal = true;
        else if (!strcmp(a, "-S"))
            range(v, &s0, &s1), i++;
        else if (!strcmp(a, "-t"))
            p.threads = atoi(v), i++;
        else if (!strcmp(a, "-T"))
            p.selection = GP_SEL_TOURNAMENT;
        else if (!strcmp(a, "-F"))
            p.stop_on_perfect = false;
        else if (!strcmp(a, "-p"))
            p.population = atoi(v), i++;
        else if (!strcmp(a, "-G"))
            p.generations = atoi(v), i++;
        else if (!strcmp(a, "-c"))
            check = v, i++;
        else if (!strcmp(a, "-x"))
            sp.heldout_extra = atoi(v), i++;
        else if (!strcmp(a, "-f")) {
            if (gp_params_set_functions(&p, v, &err) != CGT_OK) {
                fprintf(stderr, "gp_bench: %s\n", err.msg);
                return 2;
            }
            i++;
        } else {
            fprintf(stderr, "gp_bench: bad option %s\n", a);
            return 2;
        }
    }
    GpData *tr, *te;
    if (gp_data_game(&sp, NULL, NULL, &tr, &te, &err) != CGT_OK) {
        fprintf(stderr, "gp_bench: %s\n", err.msg);
        return 1;
    }
    if (check) {
        double acc = 0;
        if (gp_formula_accuracy(check, tr, &acc, &err) != CGT_OK) {
            fprintf(stderr, "gp_bench: %s\n", err.msg);
            return 1;
        }
        printf("%s: accuracy %.3f on %zu rows\n", check, acc, tr->nrows);
        gp_data_free(tr);
        gp_data_free(te);
        return 0;
    }
    int ok = 0, runs = 0;
    double secs = 0;
    long long progs = 0;
    for (int s = s0; s <= s1; s++) {
        GpResult r;
        p.seed = (uint64_t)s;
        if (gp_run(&p, tr, te, &r, &err) != CGT_OK) {
            fprintf(stderr, "gp_bench: %s\n", err.msg);
            return 1;
        }
        printf("seed %d: gen %d train %.3f test %.3f len %d %s = %s (%.3f s)\n", s, r.generation,
               r.train_accuracy, r.test_accuracy, r.length, r.formula, r.infix, r.seconds);
        ok += r.train_accuracy == 1.0 && (r.test_accuracy < 0 || r.test_accuracy == 1.0);
        runs++;
        secs += r.seconds;
        progs += r.programs_evaluated;
        gp_result_free(&r);
    }
    printf("%d/%d exact; rows %zu; %.3f s total, %.3f s per run; %.0f programs/s\n", ok, runs,
           tr->nrows, secs, secs / runs, (double)progs / secs);
    gp_data_free(tr);
    gp_data_free(te);
    return 0;
}
