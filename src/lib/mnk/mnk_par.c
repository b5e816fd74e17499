/* m,n,k solver: the root Maker node and the shared-memory parallel search
 * (docs/mnk.md "Determinism and threads").
 *
 * One thread: the root moves are taken in order, and a move outside the
 * relevance zone of a refuted one is skipped (as mb_maker_node does); this
 * path is the deterministic one and must not change.
 *
 * T threads: the scheme is ABDADA (Weill, "The ABDADA distributed minimax
 * search algorithm", ACM CSC 1996) on the And-Or proof search, with the one
 * shared table of proven positions.  Every worker runs the same search
 * from the root in the same move order; before a worker enters a child it
 * marks it busy in a small shared array (by a hash of the position), and a
 * child that another worker is already searching is deferred to a second
 * pass over the node's children.  The workers thus spread over the
 * children of a node, and a child searched by one is a table hit (with its
 * relevance zone) for the others in the second pass.  As in the Young
 * Brothers Wait Concept (Feldmann, Monien, Mysliwietz, Vornberger, 1989),
 * the eldest reply of a Breaker node (an Or node of Breaker's proof) is
 * never deferred: it usually refutes, and searching a younger one is
 * speculative; every Maker move of a Maker node (an And node: Breaker must
 * refute them all) may be.  At the root each worker first takes a root
 * move no one has started, then helps on one still being searched (the
 * expensive ones last), and a worker inside a root move that another has
 * just decided is cancelled at once.  A worker also leaves a node as soon
 * as another has proven it (the node is in the table).  Only proven
 * results are stored, so the result never depends on T; the node counts,
 * the replies and the proof written afterwards may (any proof is checked
 * like any other). */
#include "lib/mnk/mnk_int.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/util/hash.h"
#include "lib/util/poll.h"

#define PAR_BUSY (1u << 16) /* slots of the busy array (a power of two) */

struct MnkPar {
    TtReader readers[MNK_MAX_THREADS]; /* flags of the table's lock-free lookups */
    atomic_uchar busy[PAR_BUSY];       /* workers inside a position, by a hash of it */
    atomic_ullong nodes;               /* all workers' nodes (by 1024) for progress lines */
};

/* The busy slot of a position: its canonical (symmetry-reduced) Zobrist
 * hash, so that the workers also spread over symmetric children (at the
 * root of 8,7,5 the moves come in mirror pairs).  h[s] is the hash of the
 * parent's image under symmetry s; a child adds one mark of colour col. */
static void sym_hashes(const Geo *g, Bits x, Bits o, uint64_t *h)
{
    for (int s = 0; s < g->nsym; s++)
        h[s] = 0;
    for (Bits b = x; bits_any(b); b = bits_drop(b))
        for (int s = 0; s < g->nsym; s++)
            h[s] ^= g->zob[s][0][bits_ctz(b)];
    for (Bits b = o; bits_any(b); b = bits_drop(b))
        for (int s = 0; s < g->nsym; s++)
            h[s] ^= g->zob[s][1][bits_ctz(b)];
}

static size_t busy_slot(const Geo *g, const uint64_t *h, int col, int v)
{
    uint64_t best = h[0] ^ g->zob[0][col][v];
    for (int s = 1; s < g->nsym; s++) {
        uint64_t c = h[s] ^ g->zob[s][col][v];
        best = c < best ? c : best;
    }
    return (size_t)(hash_mix64(best) >> 40) & (PAR_BUSY - 1);
}

int mnk_par_children(Solver *s, bool maker, Bits x, Bits o, const int *mv, int nm, Bits empty,
                     uint64_t key, bool may_leave, Bits *z, Bits *skip, int *tv, Bits *tz)
{
    struct MnkPar *p = s->par;
    int deferred[MNK_CELLS], nd = 0;
    uint64_t h[8];
    sym_hashes(&s->g, x, o, h);
    for (int pass = 0; pass < 2; pass++) {
        int n = pass ? nd : nm;
        for (int j = 0; j < n; j++) {
            int i = pass ? deferred[j] : j;
            int v = mv[i];
            if (s->zones && bits_has(*skip, v))
                continue;
            Bits cx = maker ? x | BIT(v) : x, co = maker ? o : o | BIT(v);
            atomic_uchar *b = &p->busy[busy_slot(&s->g, h, maker ? 0 : 1, v)];
            if (!pass && (maker || i > 0) && atomic_load_explicit(b, memory_order_relaxed)) {
                deferred[nd++] = i;
                continue;
            }
            atomic_fetch_add_explicit(b, 1, memory_order_relaxed);
            Bits zc = BITS0;
            bool r = maker ? mnk_mb_breaker_node(s, cx, co, NULL, &zc)
                           : mnk_mb_maker_node(s, cx, co, NULL, &zc);
            atomic_fetch_sub_explicit(b, 1, memory_order_relaxed);
            if (s->st != CGT_OK)
                return MNK_PAR_OPEN;
            if (r != maker) {
                /* Maker wins after a Maker move, or Breaker after a reply */
                *z = (zc | BIT(v)) & empty;
                return i;
            }
            *z |= zc;
            *skip |= empty & ~zc;
            if (may_leave && (*tv = mnk_tt_get_zone(s->tt, key, tz)) != 0)
                return MNK_PAR_SOLVED;
        }
    }
    return MNK_PAR_OPEN;
}

/* ------------------------------------------------------------- one thread */

typedef struct Worker {
    Solver *s;
    Bits x, o;
    const int *mv;
    int index, nm, found;
    int *reply;              /* reply[cell]: Breaker's proven answer to a root move */
    atomic_int *stop, *done;
    atomic_int *state;       /* state[i] of root move mv[i]: 0 open, 1 searched, 2 decided */
    const bool *image;       /* image[i]: mv[i] is the image of an earlier move by a symmetry */
    double cpu;              /* CPU seconds of this worker's thread */
    double t0;               /* wall clock when the workers started */
    double joined, finished; /* wall seconds from t0: its first join of a started root
                              * move (-1: none), its end */
    int owned, helped;       /* root moves decided by it, left when decided by another */
} Worker;

static void root_refuted(Worker *w, int v, uint64_t nodes, double t0, Bits zone)
{
    const Geo *g = &w->s->g;
    char a[8], b[8];
    cgt_progress_force("mnk", "root move %s refuted by %s: %llu nodes, %.1f s, zone %d of %d "
                       "empty cells", mnk_cell_name(g->m, v, a),
                       w->reply[v] < 0 ? "potential" : mnk_cell_name(g->m, w->reply[v], b),
                       (unsigned long long)nodes, cgt_now() - t0, bits_pc(zone),
                       bits_pc(g->full & ~w->x & ~w->o));
}

static void seq_run(Worker *w)
{
    Bits zone[MNK_CELLS];
    int zreply[MNK_CELLS], nz = 0;
    for (int i = 0; i < w->nm; i++) {
        int v = w->mv[i];
        int by = -1;
        for (int j = 0; j < nz && by < 0 && w->s->zones; j++)
            if (!bits_has(zone[j], v))
                by = j;
        if (by >= 0) {
            w->reply[v] = zreply[by];
            atomic_fetch_sub(w->s->root_left, 1);
            continue;
        }
        uint64_t n0 = w->s->nodes;
        double t0 = cgt_now();
        bool r = mnk_mb_breaker_node(w->s, w->x | BIT(v), w->o, &w->reply[v], &zone[nz]);
        if (w->s->st != CGT_OK)
            break;
        atomic_fetch_sub(w->s->root_left, 1);
        if (!r) {
            w->found = v;
            break;
        }
        zreply[nz++] = w->reply[v];
        root_refuted(w, v, w->s->nodes - n0, t0, zone[nz - 1]);
    }
}

/* -------------------------------------------------------------- T threads */

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The next root move for a worker: one no one has started (marked 1), else
 * one still being searched; -1 when every move is decided. */
static int next_root_move(Worker *w)
{
    for (int i = 0; i < w->nm; i++) {
        int open = 0;
        if (!w->image[i] && atomic_compare_exchange_strong(&w->state[i], &open, 1))
            return i;
    }
    for (int i = 0; i < w->nm; i++)
        if (!w->image[i] && atomic_load(&w->state[i]) == 1) {
            if (w->joined < 0)
                w->joined = cgt_now() - w->t0;
            return i;
        }
    return -1;
}

static void *par_run(void *arg)
{
    Worker *w = arg;
    Solver *s = w->s;
    double c0 = thread_cpu();
    mnk_tt_reader(w->index);
    for (;;) {
        int i = atomic_load(w->stop) ? -1 : next_root_move(w);
        if (i < 0)
            break;
        int v = w->mv[i], reply = -1;
        Bits zone = BITS0;
        uint64_t n0 = s->nodes;
        double t0 = cgt_now();
        s->watch = &w->state[i];
        bool r = mnk_mb_breaker_node(s, w->x | BIT(v), w->o, &reply, &zone);
        s->watch = NULL;
        if (s->st != CGT_OK) {
            if (s->cancelled && !atomic_load(w->stop)) {
                /* another worker decided this root move */
                s->st = CGT_OK;
                s->cancelled = false;
                w->helped++;
                continue;
            }
            if (!s->cancelled)
                atomic_store(w->stop, 1);
            break;
        }
        int searching = 1;
        if (!atomic_compare_exchange_strong(&w->state[i], &searching, 2)) {
            w->helped++; /* decided by another worker meanwhile (a table hit here) */
            continue;
        }
        w->owned++;
        w->reply[v] = reply;
        atomic_fetch_sub(s->root_left, 1);
        if (!r) {
            w->found = v;
            atomic_store(w->stop, 1);
            break;
        }
        if (s->is_main)
            root_refuted(w, v, s->nodes - n0, t0, zone);
    }
    w->cpu = thread_cpu() - c0;
    w->finished = cgt_now() - w->t0;
    mnk_tt_reader(-1);
    atomic_store(w->done, 1);
    return NULL;
}

/* Maker-to-move root: true when Breaker wins; *move gets a winning move. */
bool mnk_root_search(Solver *s, Bits x, Bits o, int threads, int *move, int *reply)
{
    Eval e;
    uint64_t key = 0;
    Bits zq = BITS0;
    int sym = 0;
    *move = -1;
    if (!mnk_tick(s))
        return true;
    int q = mnk_maker_quick(s, x, &o, &e, &key, &sym, move, false, &zq);
    if (q)
        return q == V_BREAKER;
    int mv[MNK_CELLS];
    int nm = mnk_order_moves(e.w, mnk_undominated(&e, e.live_cells), mv);
    atomic_int stop, left;
    atomic_int done[MNK_MAX_THREADS], state[MNK_CELLS];
    atomic_init(&stop, 0);
    atomic_init(&left, nm);
    for (int i = 0; i < nm; i++)
        atomic_init(&state[i], 0);
    s->root_left = &left;
    s->depth = 1;
    Worker w[MNK_MAX_THREADS];
    double t_start = cgt_now();
    for (int t = 0; t < threads; t++)
        w[t] = (Worker){.s = s, .index = t, .x = x, .o = o, .mv = mv, .nm = nm, .found = -1,
                        .reply = reply, .stop = &stop, .done = &done[t], .state = state,
                        .t0 = t_start, .joined = -1};
    /* (no memory for the shared state: one thread does it all) */
    struct MnkPar *par = threads > 1 ? aligned_alloc(64, sizeof *par) : NULL;
    if (!par) {
        seq_run(&w[0]);
    } else {
        memset(par, 0, sizeof *par);
        atomic_init(&par->nodes, s->nodes & ~(uint64_t)1023);
        s->shared_nodes = &par->nodes;
        /* A root move whose position is the image of an earlier one's by a
         * board symmetry is refuted (or wins) with it: only the first of
         * each class is searched (one thread gets the others as table
         * hits; solve_mb_root finds their replies afterwards). */
        bool image[MNK_CELLS];
        uint64_t ck[MNK_CELLS];
        for (int i = 0; i < nm; i++) {
            ck[i] = mnk_geo_key(&s->g, x | BIT(mv[i]), o, SALT_MBB);
            image[i] = false;
            for (int j = 0; j < i && !image[i]; j++)
                image[i] = ck[j] == ck[i];
            if (image[i])
                atomic_fetch_sub(&left, 1);
        }
        for (int t = 0; t < threads; t++)
            w[t].image = image;
        pthread_mutex_t lock;
        pthread_mutex_init(&lock, NULL);
        s->tt->lock = &lock;
        s->tt->readers = par->readers;
        s->stop = &stop;
        s->par = par;
        Solver ws[MNK_MAX_THREADS];
        CgtError werr[MNK_MAX_THREADS];
        pthread_t tid[MNK_MAX_THREADS];
        bool started[MNK_MAX_THREADS] = {false};
        /* the 256-bit instance's workers need its large stack (src/lib/mnk/mnk_int.h) */
        pthread_attr_t *attr = NULL;
#if defined MNK_WIDE && MNK_WIDE == 2
        pthread_attr_t big;
        if (pthread_attr_init(&big) == 0) {
            if (pthread_attr_setstacksize(&big, MNK_WIDE4_STACK) == 0)
                attr = &big;
            else
                pthread_attr_destroy(&big);
        }
#endif
        for (int t = 0; t < threads; t++) {
            atomic_init(&done[t], 0);
            if (t == 0)
                continue;
            memset(&ws[t], 0, sizeof ws[t]);
            mnk_geo_init(&ws[t].g, s->g.m, s->g.n, s->g.k);
            ws[t].tt = s->tt;
            cgt_error_clear(&werr[t]);
            ws[t].err = &werr[t];
            ws[t].node_limit = s->node_limit;
            ws[t].t0 = s->t0;
            ws[t].stop = &stop;
            ws[t].root_left = &left;
            ws[t].zones = s->zones;
            ws[t].par = par;
            ws[t].shared_nodes = &par->nodes;
            ws[t].depth = 1;
            w[t].s = &ws[t];
            started[t] = pthread_create(&tid[t], attr, par_run, &w[t]) == 0;
        }
        /* Worker 0 runs here with the main solver (it polls, reports
         * progress and saves checkpoints), then polls until the others are
         * done. */
        par_run(&w[0]);
        for (int t = 1; t < threads; t++) {
            if (!started[t]) {
                par_run(&w[t]); /* no thread could be made: do its share here */
                continue;
            }
            while (!atomic_load(&done[t])) {
                CgtStatus st = CGT_OK;
                for (int j = 0; j < 1024 && st == CGT_OK; j++)
                    st = cgt_poll();
                if (st != CGT_OK && s->st == CGT_OK) {
                    s->st = cgt_poll_error(s->err, st, "mnk search");
                    atomic_store(&stop, 1);
                }
                nanosleep(&(struct timespec){0, 2000000}, NULL);
                uint64_t total = atomic_load(&par->nodes);
                cgt_progress("mnk", "%llu nodes, %.0f nodes/s, %d root moves open (worker 0 "
                             "done, waiting for the others)", (unsigned long long)total,
                             (double)total / (cgt_now() - s->t0 + 1e-9), atomic_load(&left));
            }
            pthread_join(tid[t], NULL);
        }
        if (attr)
            pthread_attr_destroy(attr);
        bool maker = false;
        for (int t = 0; t < threads; t++)
            maker |= w[t].found >= 0;
        if (maker) {
            /* a Maker win stands even if another worker was cut short */
            s->st = CGT_OK;
            s->cancelled = false;
        } else if (s->st == CGT_OK || s->cancelled) {
            for (int t = 1; t < threads; t++)
                if (ws[t].st != CGT_OK && !ws[t].cancelled) {
                    *s->err = werr[t];
                    s->st = ws[t].st;
                    break;
                }
        }
        /* the critical path: on idle cores the wall time is about the
         * largest CPU time of a worker */
        double total = 0, crit = 0;
        uint64_t wn[MNK_MAX_THREADS];
        wn[0] = s->nodes;
        for (int t = 0; t < threads; t++) {
            total += w[t].cpu;
            crit = w[t].cpu > crit ? w[t].cpu : crit;
            if (t == 0)
                continue;
            wn[t] = ws[t].nodes;
            s->nodes += ws[t].nodes;
            s->hits += ws[t].hits;
            if (ws[t].max_depth > s->max_depth)
                s->max_depth = ws[t].max_depth;
            mnk_geo_free(&ws[t].g);
        }
        /* When the workers end together, a difference of their CPU times is
         * a difference of their shares of the cores (load), not of their
         * work: then total / threads is the wall time on idle cores. */
        double first = w[0].finished, last = w[0].finished;
        for (int t = 0; t < threads; t++) {
            char j[32] = "never";
            if (w[t].joined >= 0)
                snprintf(j, sizeof j, "at %.1f s", w[t].joined);
            cgt_progress_force("mnk", "worker %d: %llu nodes, %.2f s CPU, %d root moves "
                               "decided, %d left when decided by another, joined a started "
                               "root move %s, ended at %.1f s wall (%.0f%% on a core)", t,
                               (unsigned long long)wn[t], w[t].cpu, w[t].owned, w[t].helped, j,
                               w[t].finished, 100 * w[t].cpu / (w[t].finished + 1e-9));
            first = w[t].finished < first ? w[t].finished : first;
            last = w[t].finished > last ? w[t].finished : last;
        }
        cgt_progress_force("mnk", "threads %d: %.2f s CPU in all, critical path %.2f s CPU "
                           "(largest of a worker), %.2f s CPU per worker, the workers ended "
                           "within %.2f s wall", threads, total, crit, total / threads,
                           last - first);
        s->par = NULL;
        s->shared_nodes = NULL;
        s->stop = NULL;
        s->tt->lock = NULL;
        s->tt->readers = NULL;
        pthread_mutex_destroy(&lock);
        free(par);
    }
    s->root_left = NULL;
    s->depth = 0;
    bool breaker = true;
    for (int t = 0; t < threads; t++)
        if (w[t].found >= 0 && breaker) {
            breaker = false;
            *move = w[t].found;
        }
    s->cancelled = false;
    if (s->st == CGT_OK)
        mnk_tt_put(s->tt, key, breaker ? V_BREAKER : V_MAKER);
    return breaker;
}
