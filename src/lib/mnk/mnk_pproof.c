/* m,n,k solver: the version-2 proof of an empty board written by threads
 * (docs/mnk.md "Proof files", "Distributed mode").  The proof is
 * written as one job proof per class of Maker's first moves (the jobs of
 * the distributed mode: the position after the move, Breaker to move, a
 * root-O proof), by T workers taking classes from a shared queue (the
 * classes whose search took the most work first, from the work byte of the
 * table), each with its own writer map and its own Solver over the table
 * the search left.  That table is read only: a worker's re-searches (of
 * entries dropped at table_mb, or positions the search never stored) go to
 * an overlay table of its own, so each job proof depends only on the
 * table and its class, never on the timing of the other workers, and the
 * merged proof is the same file for a given table.  The part files
 * PATH.part.K (written atomically and sealed by mnk_write_proof) are
 * merged in class order by mnk_merge_proofs into PATH (atomic), which is
 * checked like any proof; they are removed on success and kept on failure,
 * and the next run of the statement uses the kept ones again (resuming a
 * stopped writer).  When the disk cannot hold the parts and the merged
 * proof at once, each part is removed as soon as it is merged.
 * Only the calling thread polls (Ctrl-C, --timeout) and reports progress;
 * a stop reaches the workers through Solver.stop, and a job proof cut
 * short is never renamed into place, so no half-written PATH exists. */
#include "lib/mnk/mnk_int.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <time.h>

#include "lib/util/atomicfile.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

typedef struct PWriter {
    Solver s;               /* own geometry, overlay table over the shared one */
    Tt overlay;
    CgtError err;
    atomic_ullong lines;    /* proof lines written (progress) */
    atomic_int *next;       /* shared: next position in order[] */
    atomic_int *done_jobs;  /* shared: job proofs finished */
    int stop_after;         /* raise SIGTERM when done_jobs reaches it (tests; 0: never) */
    atomic_int *stop;       /* shared: stop all workers */
    const int *order;       /* job indices, most work first */
    const int *moves;       /* the class's first move, by job */
    char *const *paths;     /* the part file, by job */
    int njobs;
    uint64_t rotations;     /* generations of the writer map dropped, all jobs */
    atomic_int finished;
} PWriter;

static void *pw_run(void *arg)
{
    PWriter *w = arg;
    for (;;) {
        /* a signal stops the writers before their next class, whatever
         * the main thread's polling interval */
        if (atomic_load(w->stop) || cgt_interrupt_flag)
            break;
        int i = atomic_fetch_add(w->next, 1);
        if (i >= w->njobs)
            break;
        int j = w->order[i];
        uint64_t n = 0;
        CgtStatus st = mnk_write_proof(&w->s, w->paths[j], BIT(w->moves[j]), BITS0, false,
                                       true, 'M', &n);
        w->rotations += w->s.proof_rotations;
        if (st != CGT_OK) {
            if (!w->s.cancelled)
                atomic_store(w->stop, 1);
            break;
        }
        if (atomic_fetch_add(w->done_jobs, 1) + 1 == w->stop_after)
            raise(SIGTERM);
    }
    atomic_store(&w->finished, 1);
    return NULL;
}

/* A part file left by an earlier run of the same statement (stopped, or
 * failed in the merge): usable when it starts as the job proof of the
 * class's first move and its seal holds.  The merge checks every line
 * again and the checker the merged proof, so a part from another table is
 * as good as a new one.  *bytes: its size. */
static bool part_usable(const char *path, int m, int n, int k, int move, uint64_t *bytes)
{
    SealedFile sf;
    CgtError e;
    cgt_error_clear(&e);
    if (sf_open(&sf, path, "job proof", false, &e) != CGT_OK || sf.absent)
        return false;
    bool ok = mnk_job_proof_head(sf.f, m, n, k, move);
    *bytes = sf.len + AF_SEAL_LEN;
    sf_close(&sf);
    return ok;
}

/* Free bytes for unprivileged writes in the directory of path (UINT64_MAX
 * when unknown). */
static uint64_t free_bytes(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    struct statvfs v;
    if (statvfs(dir, &v) != 0)
        return UINT64_MAX;
    return (uint64_t)v.f_bavail * v.f_frsize;
}

/* Sorting the jobs: most work first, then class order. */
static const int *sort_work;

static int by_work(const void *a, const void *b)
{
    int i = *(const int *)a, j = *(const int *)b;
    if (sort_work[i] != sort_work[j])
        return sort_work[j] - sort_work[i];
    return i - j;
}

CgtStatus mnk_write_proof_par(Solver *s, const char *path, int threads, int stop_after_parts,
                              uint64_t *nlines)
{
    const Geo *g = &s->g;
    int moves[MNK_CELLS], work[MNK_CELLS], order[MNK_CELLS];
    int nj = mnk_root_classes(g->m, g->n, moves);
    for (int j = 0; j < nj; j++) {
        /* the Breaker-to-move key of mnk_mb_breaker_node; absent (dropped,
         * or never searched): expensive, first */
        int w = mnk_tt_work(s->tt, mnk_geo_key(g, BIT(moves[j]), BITS0, SALT_MBB));
        work[j] = w < 0 ? 256 : w;
        order[j] = j;
    }
    sort_work = work;
    qsort(order, (size_t)nj, sizeof *order, by_work);
    size_t plen = strlen(path) + 24;
    char **paths = xmalloc((size_t)nj * sizeof *paths);
    for (int j = 0; j < nj; j++) {
        paths[j] = xmalloc(plen);
        snprintf(paths[j], plen, "%s.part.%d", path, j + 1);
    }
    /* the parts an earlier run of this statement left are used again (a
     * stop or a failed merge keeps them: docs/mnk.md "Proof files") */
    bool reused[MNK_CELLS] = {false};
    int ntodo = 0, nreused = 0;
    for (int i = 0; i < nj; i++) {
        int j = order[i];
        uint64_t bytes;
        reused[j] = part_usable(paths[j], g->m, g->n, g->k, moves[j], &bytes);
        if (reused[j]) {
            nreused++;
            cgt_progress_force("mnk", "proof: root class %d of %d: the part %s of an earlier "
                               "run is used again (%llu bytes)", j + 1, nj, paths[j],
                               (unsigned long long)bytes);
        } else {
            order[ntodo++] = j;
        }
    }
    if (threads > ntodo)
        threads = ntodo > 0 ? ntodo : 1;
    /* each worker gets 1/T of the writer map (a power of two of slots) and
     * an overlay of at most 1/(2T) of the table's limit */
    size_t map_cap = 1u << 8;
    while (map_cap * 2 * (size_t)threads <= s->proof_map_cap)
        map_cap *= 2;
    atomic_int next, done_jobs, stop;
    atomic_init(&next, 0);
    atomic_init(&done_jobs, nreused);
    atomic_init(&stop, 0);
    PWriter *w = xcalloc((size_t)threads, sizeof *w);
    pthread_t tid[MNK_MAX_THREADS];
    bool started[MNK_MAX_THREADS] = {false};
    int nstarted = 0;
    for (int t = 0; t < threads; t++) {
        PWriter *p = &w[t];
        mnk_tt_init(&p->overlay);
        p->overlay.base = s->tt;
        if (s->tt->max_cap)
            p->overlay.max_cap = s->tt->max_cap / (2 * (size_t)threads) > (1u << 10)
                                     ? s->tt->max_cap / (2 * (size_t)threads)
                                     : 1u << 10;
        mnk_geo_init(&p->s.g, g->m, g->n, g->k);
        p->s.tt = &p->overlay;
        cgt_error_clear(&p->err);
        p->s.err = &p->err;
        p->s.node_limit = !s->node_limit ? 0
                          : s->node_limit > s->nodes ? s->node_limit - s->nodes : 1;
        p->s.t0 = s->t0;
        p->s.zones = s->zones;
        p->s.stop = &stop;
        p->s.proof_map_cap = map_cap;
        atomic_init(&p->lines, 0);
        p->s.lines_out = &p->lines;
        p->next = &next;
        p->done_jobs = &done_jobs;
        p->stop_after = stop_after_parts > nreused ? stop_after_parts : 0;
        p->stop = &stop;
        p->order = order;
        p->moves = moves;
        p->paths = paths;
        p->njobs = ntodo;
        atomic_init(&p->finished, 0);
        started[t] = pthread_create(&tid[t], NULL, pw_run, p) == 0;
        nstarted += started[t];
    }
    CgtStatus st = CGT_OK;
    if (!nstarted)
        st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: no writer thread could be "
                           "started");
    /* the calling thread polls and reports until every worker is done */
    for (int t = 0; t < threads; t++) {
        while (started[t] && !atomic_load(&w[t].finished)) {
            CgtStatus ps = CGT_OK;
            for (int j = 0; j < 1024 && ps == CGT_OK; j++)
                ps = cgt_poll();
            if (ps == CGT_OK && s->time_limit > 0 && cgt_now() - s->t0 > s->time_limit)
                ps = cgt_error_set(s->err, CGT_ERR_LIMIT, "mnk stopped while writing the "
                                   "proof: time limit of %g s reached", s->time_limit);
            else if (ps != CGT_OK)
                cgt_poll_error(s->err, ps, "mnk proof writing");
            if (ps != CGT_OK && st == CGT_OK) {
                st = ps;
                atomic_store(&stop, 1);
            }
            nanosleep(&(struct timespec){0, 20000000}, NULL);
            unsigned long long lines = 0;
            for (int u = 0; u < threads; u++)
                lines += atomic_load_explicit(&w[u].lines, memory_order_relaxed);
            cgt_progress("mnk", "proof: %llu lines, %d of %d root classes written, %d "
                         "threads", lines, atomic_load(&done_jobs), nj, threads);
        }
        if (started[t])
            pthread_join(tid[t], NULL);
    }
    /* the writers may all have stopped on a signal before the loop above
     * polled */
    if (st == CGT_OK) {
        CgtStatus ps = cgt_poll();
        if (ps != CGT_OK) {
            st = cgt_poll_error(s->err, ps, "mnk proof writing");
            atomic_store(&stop, 1);
        }
    }
    s->proof_rotations = 0;
    for (int t = 0; t < threads; t++) {
        PWriter *p = &w[t];
        if (st == CGT_OK && p->s.st != CGT_OK && !p->s.cancelled) {
            *s->err = p->err;
            st = p->s.st;
        }
        s->nodes += p->s.nodes;
        s->hits += p->s.hits;
        s->proof_rotations += p->rotations;
        mnk_tt_free(&p->overlay);
        mnk_geo_free(&p->s.g);
    }
    free(w);
    int done = atomic_load(&done_jobs);
    if (st == CGT_OK && done != nj)
        st = cgt_error_set(s->err, CGT_ERR_INTERNAL, "mnk proof: %d of %d root classes "
                           "written", done, nj);
    if (st == CGT_OK) {
        /* the merged proof is about as large as the parts: when the disk
         * cannot hold both (with 2% and 1 GiB to spare: the child numbers
         * grow by a digit or so), each part goes once it is copied */
        uint64_t total = 0;
        for (int j = 0; j < nj; j++) {
            struct stat sb;
            if (stat(paths[j], &sb) == 0)
                total += (uint64_t)sb.st_size;
        }
        uint64_t room = free_bytes(path);
        bool consume = room < total + total / 50 + (1ull << 30);
        if (consume)
            cgt_progress_force("mnk", "proof: %llu bytes of parts, %llu bytes free: each part "
                               "is removed once it is merged", (unsigned long long)total,
                               (unsigned long long)room);
        MnkJob jobs[MNK_CELLS];
        for (int j = 0; j < nj; j++)
            jobs[j] = (MnkJob){moves[j], paths[j], consume};
        st = mnk_merge_proofs(g->m, g->n, g->k, jobs, nj, path, nlines, s->err);
    }
    if (st == CGT_OK) {
        for (int j = 0; j < nj; j++)
            remove(paths[j]);
    } else if (done > 0) {
        cgt_error_hint(s->err, "the proofs of %d of the %d root classes written so far are "
                       "kept as %s.part.K (K = 1..%d, the classes in cell order); the proof "
                       "'%s' was not written", done, nj, path, nj, path);
    }
    for (int j = 0; j < nj; j++)
        free(paths[j]);
    free(paths);
    return st;
}
