/* Benchmark driver for games/mnk: solves the m,n,k-games named on the
 * command line and prints result, method, nodes and seconds (one per line).
 * Build: see bench/mnk/run.sh.
 * Usage: mnk_bench [-s] [-z] [-v] [-M MB] [-t THREADS] [-p PROOF] [-c CKPT] [-e SECS]
 *        [-T SECS] [-n NODES] m n k ...
 *        [-b ROW,ROW,...] [-m X|O]
 * -M MB: table size limit; -z: no relevance-zone pruning; -v: progress
 * lines on stderr; -b: start
 * position, rows top first separated by commas; -m: player to move. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/mnk/mnk.h"
#include "lib/util/poll.h"

static void sink(const char *subsystem, const char *line)
{
    fprintf(stderr, "[%s] %s\n", subsystem, line);
}

int main(int argc, char **argv)
{
    MnkOptions o;
    mnk_options_init(&o);
    int i = 1;
    char *rowbuf[64];
    int nrows = 0;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (strcmp(argv[i], "-s") == 0)
            o.variant = MNK_STRONG;
        else if (strcmp(argv[i], "-z") == 0)
            o.no_zones = true;
        else if (strcmp(argv[i], "-v") == 0)
            cgt_set_progress_sink(sink);
        else if (strcmp(argv[i], "-M") == 0 && i + 1 < argc)
            o.table_mb = atof(argv[++i]);
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            o.to_move = argv[++i][0];
        else if (strcmp(argv[i], "-b") == 0 && i + 1 < argc) {
            for (char *t = strtok(argv[++i], ","); t && nrows < 64; t = strtok(NULL, ","))
                rowbuf[nrows++] = t;
            o.rows = (const char *const *)rowbuf;
            o.nrows = nrows;
        }
        else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
            o.proof_path = argv[++i];
        else if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            o.checkpoint = argv[++i];
        else if (strcmp(argv[i], "-T") == 0 && i + 1 < argc)
            o.time_limit = atof(argv[++i]);
        else if (strcmp(argv[i], "-e") == 0 && i + 1 < argc)
            o.checkpoint_every = atof(argv[++i]);
        else if (strcmp(argv[i], "-t") == 0 && i + 1 < argc)
            o.threads = atoi(argv[++i]);
        else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc)
            o.node_limit = strtoull(argv[++i], NULL, 10);
    }
    int rc = 0;
    for (; i + 2 < argc; i += 3) {
        int m = atoi(argv[i]), n = atoi(argv[i + 1]), k = atoi(argv[i + 2]);
        MnkReport r;
        CgtError e;
        cgt_error_clear(&e);
        CgtStatus st = mnk_solve(m, n, k, &o, &r, &e);
        if (st != CGT_OK) {
            fprintf(stderr, "%d,%d,%d: error: %s (%llu nodes, %llu table entries, %.1f s)\n", m,
                    n, k, e.msg, (unsigned long long)r.nodes,
                    (unsigned long long)r.tt_entries, r.seconds);
            rc = 1;
            continue;
        }
        printf("%d,%d,%d %s: %s by %s, %llu nodes, %llu tt hits, %.3f s", m, n, k,
               mnk_variant_name(o.variant), mnk_result_name(r.result),
               mnk_method_name(r.method), (unsigned long long)r.nodes,
               (unsigned long long)r.tt_hits, r.seconds);
        printf(", P %ld, max after %ld", r.root_potential, r.max_after);
        if (o.proof_path)
            printf(", proof %llu lines", (unsigned long long)r.proof_lines);
        printf("\n");
    }
    return rc;
}
