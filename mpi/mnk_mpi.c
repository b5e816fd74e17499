/* mnk_mpi: job-level distributed solving of an empty-board m,n,k
 * Maker-Breaker game on Open MPI (in the manner of job-level
 * proof-number search, Wu et al., Connect6 openings: a master keeps the
 * tree near the root and hands positions to workers that run the normal
 * solver).  Built only when mpicc exists; cgt itself never needs MPI.
 *
 *   mpirun -np R mnk_mpi M N K DIR [NODE_LIMIT]
 *
 * Rank 0 is the master: the jobs are the classes of Maker's first moves up
 * to the board symmetries (mnk_root_classes); each is sent to the next idle
 * worker (ranks 1..R-1), which solves the position after that move with
 * Breaker to move by mnk_solve, writing DIR/job_C.proof (and keeping its
 * table in DIR/job_C.ckpt, so an interrupted job resumes).  The master
 * appends every finished job to the job store DIR/jobs ("done C RESULT
 * NODES crc64=HEX", HEX the CRC-64 of the text before " crc64=", flushed
 * and synced), so a rerun skips the jobs done; a torn or damaged line, or
 * a job proof whose seal fails, is reported and that job run again.  When every
 * job is a Breaker win the job proofs are merged (mnk_merge_proofs) into
 * DIR/proof, whose SHA-256 is printed; check it with
 *   mnk_check --game M N K --claim breaker --root X empty DIR/proof
 * A Maker win of any job is a Maker win of the root (printed, no proof).
 * Not done: re-splitting a hard job into deeper jobs (a job that reaches
 * NODE_LIMIT stops the run, resumable); sharing tables between workers.
 * Exit status: 0 solved, 1 error, 4 a job reached the node limit. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/mnk/mnk.h"
#include "lib/util/atomicfile.h"
#include "lib/util/crc64.h"
#include "lib/util/sha256.h"

enum { TAG_RESULT = 1, TAG_JOB = 2 };
enum { R_NONE = -1, R_BREAKER = 0, R_MAKER = 1, R_LIMIT = 2, R_ERROR = 3 };

static int M, N, K;
static const char *Dir;

static void job_path(char *buf, size_t cap, int cell, const char *ext)
{
    snprintf(buf, cap, "%s/job_%d.%s", Dir, cell, ext);
}

/* Worker: solve the position after Maker's first move `cell`, Breaker to move. */
static int solve_job(int cell, unsigned long long limit, long long *nodes)
{
    char rows[64][65];
    const char *rp[64];
    for (int r = 0; r < N; r++) {
        for (int c = 0; c < M; c++)
            rows[r][c] = (N - 1 - r) * M + c == cell ? 'X' : '.';
        rows[r][M] = '\0';
        rp[r] = rows[r];
    }
    char proof[4096], ckpt[4096];
    job_path(proof, sizeof proof, cell, "proof");
    job_path(ckpt, sizeof ckpt, cell, "ckpt");
    MnkOptions o;
    mnk_options_init(&o);
    o.rows = rp;
    o.nrows = N;
    o.to_move = 'O';
    o.proof_path = proof;
    o.checkpoint = ckpt;
    o.node_limit = limit;
    MnkReport rep;
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = mnk_solve(M, N, K, &o, &rep, &err);
    *nodes = (long long)rep.nodes;
    if (st == CGT_ERR_LIMIT)
        return R_LIMIT;
    if (st != CGT_OK) {
        fprintf(stderr, "mnk_mpi: job %d: %s\n", cell, err.msg);
        return R_ERROR;
    }
    return rep.result == MNK_RESULT_BREAKER ? R_BREAKER : R_MAKER;
}

static void worker(unsigned long long limit)
{
    long long msg[3] = {-1, R_NONE, 0}; /* cell, result, nodes */
    for (;;) {
        MPI_Send(msg, 3, MPI_LONG_LONG, 0, TAG_RESULT, MPI_COMM_WORLD);
        int cell;
        MPI_Recv(&cell, 1, MPI_INT, 0, TAG_JOB, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (cell < 0)
            return;
        msg[0] = cell;
        msg[1] = solve_job(cell, limit, &msg[2]);
    }
}

static const char *result_word(int r)
{
    return r == R_BREAKER ? "breaker" : r == R_MAKER ? "maker" : r == R_LIMIT ? "limit" : "error";
}

/* One record of the job store: "done C RESULT NODES crc64=HEX\n". */
static void store_put(FILE *f, long long cell, const char *word, long long nodes)
{
    char rec[128];
    int n = snprintf(rec, sizeof rec, "done %lld %s %lld", cell, word, nodes);
    fprintf(f, "%s crc64=%016llx\n", rec,
            (unsigned long long)crc64_update(0, rec, (size_t)n));
}

/* A line of the job store: 1 and its fields if it is a whole record whose
 * checksum matches (or an old record without one, with a warning), else 0
 * with a warning naming the line. */
static int store_get(const char *line, int lineno, int *cell, char *word, long long *nodes)
{
    size_t len = strlen(line);
    const char *sum = strstr(line, " crc64=");
    unsigned long long want = 0;
    int used = 0, ok = len > 0 && line[len - 1] == '\n';
    if (ok && sum)
        ok = sscanf(sum, " crc64=%16llx%n", &want, &used) == 1 && sum[used] == '\n' &&
             crc64_update(0, line, (size_t)(sum - line)) == want;
    if (ok) {
        int end = 0;
        char rec[128];
        snprintf(rec, sizeof rec, "%.*s", (int)((sum ? sum : line + len - 1) - line), line);
        ok = sscanf(rec, "done %d %15s %lld%n", cell, word, nodes, &end) == 3 && !rec[end];
    }
    if (!ok) {
        fprintf(stderr, "mnk_mpi: warning: job store line %d is %s: ignored (that job is run "
                "again)\n", lineno, len && line[len - 1] != '\n' ? "torn (no end of line)"
                : "damaged (bad checksum or fields)");
        return 0;
    }
    if (!sum)
        fprintf(stderr, "mnk_mpi: warning: job store line %d has no checksum (an older "
                "version's record): used as it is\n", lineno);
    return 1;
}

/* Whether the proof file of a job is whole: its seal (util/atomicfile) holds. */
static int proof_intact(const char *path)
{
    SealedFile sf;
    CgtError err;
    cgt_error_clear(&err);
    if (sf_open(&sf, path, "job proof", false, &err) != CGT_OK || sf.absent) {
        if (!sf.absent)
            fprintf(stderr, "mnk_mpi: warning: %s: that job is run again\n", err.msg);
        return 0;
    }
    sf_close(&sf);
    return 1;
}

static int master(int ranks)
{
    int cls[64 * 64], nc = mnk_root_classes(M, N, cls);
    int *state = calloc((size_t)nc, sizeof *state); /* R_NONE + 1 = 0: not done */
    long long total = 0;
    char store[4096], line[256];
    snprintf(store, sizeof store, "%s/jobs", Dir);
    FILE *f = fopen(store, "r");
    int resumed = 0, torn = 0;
    if (f) {
        int cell, lineno = 0;
        char word[16];
        long long nodes;
        while (fgets(line, sizeof line, f)) {
            size_t len = strlen(line);
            torn = len > 0 && line[len - 1] != '\n';
            if (store_get(line, ++lineno, &cell, word, &nodes))
                for (int j = 0; j < nc; j++) {
                    char proof[4096];
                    job_path(proof, sizeof proof, cell, "proof");
                    if (cls[j] == cell && strcmp(word, "breaker") == 0 && !state[j] &&
                        proof_intact(proof)) {
                        state[j] = R_BREAKER + 1;
                        total += nodes;
                        resumed++;
                    }
                }
        }
        fclose(f);
    }
    f = fopen(store, "a");
    if (!f) {
        fprintf(stderr, "mnk_mpi: cannot write the job store %s\n", store);
        return 1;
    }
    if (torn)
        fputc('\n', f); /* end the torn line, so that the next record is whole */
    printf("mnk_mpi: %d,%d,%d, %d classes of first moves, %d done before, %d workers\n", M, N,
           K, nc, resumed, ranks - 1);
    fflush(stdout);
    int next = 0, active = ranks - 1, maker = -1, bad = 0;
    while (active > 0) {
        long long msg[3];
        MPI_Status ms;
        MPI_Recv(msg, 3, MPI_LONG_LONG, MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &ms);
        if (msg[0] >= 0) {
            int r = (int)msg[1];
            for (int j = 0; j < nc; j++)
                if (cls[j] == msg[0])
                    state[j] = r + 1;
            total += msg[2];
            store_put(f, msg[0], result_word(r), msg[2]);
            fflush(f);
            fsync(fileno(f));
            printf("mnk_mpi: job %lld (rank %d): %s, %lld nodes\n", msg[0], ms.MPI_SOURCE,
                   result_word(r), msg[2]);
            fflush(stdout);
            if (r == R_MAKER && maker < 0)
                maker = (int)msg[0];
            if (r == R_LIMIT || r == R_ERROR)
                bad = r;
        }
        while (next < nc && state[next])
            next++;
        int job = next < nc && maker < 0 && !bad ? cls[next++] : -1;
        MPI_Send(&job, 1, MPI_INT, ms.MPI_SOURCE, TAG_JOB, MPI_COMM_WORLD);
        if (job < 0)
            active--;
    }
    fclose(f);
    int rc = 0;
    if (maker >= 0) {
        printf("mnk_mpi: maker wins (first move cell %d); %lld nodes\n", maker, total);
    } else if (bad) {
        printf("mnk_mpi: unfinished (a job ended with %s); rerun to resume\n", result_word(bad));
        rc = bad == R_LIMIT ? 4 : 1;
    } else {
        MnkJob *jobs = calloc((size_t)nc, sizeof *jobs);
        char (*paths)[4096] = calloc((size_t)nc, sizeof *paths);
        for (int j = 0; j < nc; j++) {
            job_path(paths[j], sizeof paths[j], cls[j], "proof");
            jobs[j] = (MnkJob){cls[j], paths[j], false};
        }
        char out[4096], hex[65];
        snprintf(out, sizeof out, "%s/proof", Dir);
        uint64_t nodes = 0;
        CgtError err;
        cgt_error_clear(&err);
        if (mnk_merge_proofs(M, N, K, jobs, nc, out, &nodes, &err) != CGT_OK) {
            fprintf(stderr, "mnk_mpi: merge: %s\n", err.msg);
            rc = 1;
        } else if (sha256_file_hex(out, hex) != 0) {
            fprintf(stderr, "mnk_mpi: cannot read %s back\n", out);
            rc = 1;
        } else {
            printf("mnk_mpi: breaker wins; %lld search nodes; proof %s (%llu nodes, sha256 %s)\n",
                   total, out, (unsigned long long)nodes, hex);
        }
        free(paths);
        free(jobs);
    }
    free(state);
    return rc;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int ok = argc == 5 || argc == 6;
    if (ok) {
        M = atoi(argv[1]);
        N = atoi(argv[2]);
        K = atoi(argv[3]);
        Dir = argv[4];
        ok = M >= 1 && N >= 1 && K >= 1 && M * N <= 64 && ranks >= 2;
    }
    if (!ok) {
        if (rank == 0)
            fprintf(stderr, "usage: mpirun -np R mnk_mpi M N K DIR [NODE_LIMIT]   (R >= 2, "
                            "M*N <= 64)\n");
        MPI_Finalize();
        return 1;
    }
    unsigned long long limit = argc == 6 ? strtoull(argv[5], NULL, 10) : 0;
    int rc = 0;
    if (rank == 0) {
        if (mkdir(Dir, 0777) != 0 && errno != EEXIST) {
            fprintf(stderr, "mnk_mpi: cannot make %s\n", Dir);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        rc = master(ranks);
    else
        worker(limit);
    MPI_Finalize();
    return rc;
}
