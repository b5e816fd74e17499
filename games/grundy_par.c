/* Parallel stretches of the sparse-space engine (games/grundy.c; design and
 * measurements in docs/games.md §2 "Two threads" and docs/performance.md).
 *
 * With T threads, thread t computes the heaps start + t + T*i of a stretch
 * [start, end).  Heap n of a code whose splits take k >= 1 tokens reads
 * G(0 .. n-2) only, except for the one option "take 1, leave one heap",
 * whose value is G(n-1): the worker marks everything else, saves its row,
 * runs steps 2-3, and only then reads G(n-1) = x.  When x is seen already
 * in the saved row, or lies above its least unseen value of the class C_r,
 * steps 2-3 on the full row are exactly the ones just run (the same least
 * value, the same missing values, the same scan); else they are rerun on
 * the saved row with x marked.  So every heap's value and work counters are
 * the serial loop's.  Heaps are committed in order (an atomic count `done`
 * with release/acquire: heaps below it are in the table); a worker waits
 * only at the end of a heap for the heap before it, and before a block.
 *
 * The rare list, the mask, the value span and the table width are frozen
 * during a stretch: a heap that would change them (a rare heap, a new
 * largest value) is an event: it is not committed, the stretch stops there
 * and the serial loop computes it.  Each worker works on a copy of the
 * table struct with its own seen rows, scan scratch and counters; the
 * compressed middle's decode cache is shared behind a mutex (the deep
 * scans that use it are about one heap in 10^6). */
#include "games/grundy_int.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#include <sched.h>
#include <time.h>

#include "util/poll.h"
#include "util/xalloc.h"

/* A wait (for the other thread's current heap, a few us) spins up to
 * PAR_SPIN times, yielding the core at every PAR_YIELD-th step (on a loaded
 * machine the other thread may need it; on an idle one the yield returns at
 * once), then sleeps on the futex: waking a sleeping virtual CPU took long
 * enough here that short spins lost to one thread even on an idle machine
 * (docs/performance.md).  PAR_POLL: heaps between two polls of thread 0. */
#define PAR_SPIN 4000
#define PAR_YIELD 32
#define PAR_POLL 1024

typedef struct {
    _Atomic uint32_t done; /* heaps below this are committed */
    _Atomic uint32_t seq;  /* futex word: bumped at every commit and at stop */
    atomic_int stop;
    atomic_int sleepers;
    uint32_t start, end, nthreads;
} Par;

typedef struct {
    Par *p;
    GrundyTable w; /* the worker's copy: shared table and rare list, own scratch */
    uint32_t id;
    uint8_t *save; /* the row before steps 2-3 (par_defer) */
    uint64_t redone; /* heaps whose steps 2-3 were rerun with G(n-1) */
    double cpu;      /* this thread's CPU seconds in the stretch */
    double waited;   /* wall seconds spent waiting for the other threads */
} Worker;

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void par_sleep(Par *p, uint32_t seen)
{
#ifdef __linux__
    syscall(SYS_futex, (uint32_t *)&p->seq, FUTEX_WAIT_PRIVATE, seen, NULL, NULL, 0);
#else
    (void)p;
    (void)seen;
    sched_yield();
#endif
}

static void par_wake(Par *p)
{
    atomic_fetch_add(&p->seq, 1);
    if (atomic_load(&p->sleepers)) {
#ifdef __linux__
        syscall(SYS_futex, (uint32_t *)&p->seq, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
#endif
    }
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static bool wait_slow(Par *p, uint32_t target);

/* Wait until the heaps below `target` are committed; false when the
 * stretch stopped first.  The time of the waits that do not pass at once
 * goes to *waited (wall seconds). */
static inline bool wait_done(Par *p, uint32_t target, double *waited)
{
    if (atomic_load_explicit(&p->done, memory_order_acquire) >= target)
        return true;
    double t0 = wall_now();
    bool ok = wait_slow(p, target);
    *waited += wall_now() - t0;
    return ok;
}

static bool wait_slow(Par *p, uint32_t target)
{
    for (int i = 0; i < PAR_SPIN; i++) {
        if (atomic_load_explicit(&p->done, memory_order_acquire) >= target)
            return true;
        if (atomic_load_explicit(&p->stop, memory_order_relaxed))
            return false;
        if (i % PAR_YIELD == PAR_YIELD - 1)
            sched_yield();
        else
            cpu_relax();
    }
    atomic_fetch_add(&p->sleepers, 1);
    bool ok = true;
    for (;;) {
        uint32_t s = atomic_load(&p->seq);
        if (atomic_load(&p->done) >= target)
            break;
        if (atomic_load(&p->stop)) {
            ok = false;
            break;
        }
        par_sleep(p, s);
    }
    atomic_fetch_sub(&p->sleepers, 1);
    return ok;
}

static void par_stop(Par *p)
{
    atomic_store(&p->stop, 1);
    par_wake(p);
}

/* Is heap n with value v an event (the serial loop must do it)? */
static bool par_event(const GrundyTable *w, uint32_t n, uint32_t v)
{
    if (v > w->maxval)
        return true;
    return ((unsigned)__builtin_parity(v & w->mask) ^ (w->e & (n & 1))) == w->rho;
}

static void par_heaps(Worker *wk);

static void *par_work(void *arg)
{
    Worker *wk = arg;
    double t0 = thread_cpu();
    par_heaps(wk);
    wk->cpu = thread_cpu() - t0;
    return NULL;
}

static void par_heaps(Worker *wk)
{
    Par *p = wk->p;
    GrundyTable *w = &wk->w;
    uint32_t s = p->nthreads, len = grundy_par_len(w);
    size_t span = w->seen_words * 64;
    uint32_t m = p->start + wk->id;
    unsigned since_poll = 0;
    while (m < p->end) {
        uint32_t cnt = (p->end - m + s - 1) / s;
        if (cnt > len)
            cnt = len;
        /* the block reads G(0 .. m-3) */
        if (!wait_done(p, m - 1, &wk->waited))
            return;
        grundy_par_block(w, m, cnt, s);
        for (uint32_t h = 0; h < cnt; h++, m += s) {
            if (!wait_done(p, m - 1, &wk->waited))
                return;
            uint64_t rp = w->rare_pairs, sp = w->scan_pairs;
            uint8_t *row = grundy_par_marks(w, m);
            if (w->par_defer)
                memcpy(wk->save, row, span);
            uint32_t v = grundy_par_finish(w, m, row);
            bool ok = wait_done(p, m, &wk->waited);
            if (ok && w->par_defer) {
                uint32_t x = gv_get(w->gv, w->gw, m - 1);
                if (!grundy_par_exact(w, m, wk->save, x)) {
                    wk->redone++;
                    memcpy(row, wk->save, span);
                    row[x] = 1;
                    w->scan_pairs = sp;
                    v = grundy_par_finish(w, m, row);
                }
            }
            if (ok && wk->id == 0 && ++since_poll >= PAR_POLL) {
                since_poll = 0;
                ok = cgt_poll() == CGT_OK;
                if (!ok)
                    par_stop(p);
            }
            if (ok && par_event(w, m, v)) {
                ok = false;
                par_stop(p);
            }
            if (!ok) {
                w->rare_pairs = rp;
                w->scan_pairs = sp;
                return;
            }
            gv_set(w->gv, w->gw, m, v);
            atomic_store_explicit(&p->done, m + 1, memory_order_release);
            par_wake(p);
        }
    }
}

void grundy_par_run(GrundyTable *gt, uint64_t end)
{
    uint32_t T = gt->threads;
    Par p;
    atomic_init(&p.done, (uint32_t)gt->n);
    atomic_init(&p.seq, 0);
    atomic_init(&p.stop, 0);
    atomic_init(&p.sleepers, 0);
    p.start = (uint32_t)gt->n;
    p.end = (uint32_t)end;
    p.nthreads = T;
    pthread_mutex_t lock;
    bool locked = gt->store != NULL;
    if (locked) {
        pthread_mutex_init(&lock, NULL);
        gt->store_lock = &lock;
    }
    Worker *wk = xcalloc(T, sizeof *wk);
    pthread_t *tid = xcalloc(T, sizeof *tid);
    size_t span = gt->seen_words * 64;
    for (uint32_t i = 0; i < T; i++) {
        wk[i].p = &p;
        wk[i].id = i;
        wk[i].w = *gt;
        GrundyTable *w = &wk[i].w;
        w->seen8 = NULL;
        w->seen8_cap = 0;
        w->bits_rows = NULL;
        w->flat_d = w->flat_x = NULL;
        w->scan_r = xmalloc(((size_t)gt->rs->max_take + 1) * sizeof *w->scan_r);
        w->rare_pairs = w->scan_pairs = 0;
        w->par_defer = (gt->rs->kmask[1] & 2) != 0;
        wk[i].save = xmalloc(span);
    }
    uint32_t started = 1;
    for (; started < T; started++)
        if (pthread_create(&tid[started], NULL, par_work, &wk[started]) != 0)
            break;
    if (started < T) {
        /* no thread for some heaps: give up this stretch, stay serial */
        par_stop(&p);
        gt->par_next = UINT64_MAX;
    } else {
        par_work(&wk[0]);
    }
    for (uint32_t i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    for (uint32_t i = 0; i < T; i++) {
        if (i < GRUNDY_PAR_CPU) {
            gt->par_cpu[i] += wk[i].cpu;
            gt->par_wait[i] += wk[i].waited;
        }
        gt->par_redone += wk[i].redone;
        gt->rare_pairs += wk[i].w.rare_pairs;
        gt->scan_pairs += wk[i].w.scan_pairs;
        free(wk[i].w.seen8);
        free(wk[i].w.scan_r);
        free(wk[i].save);
    }
    free(wk);
    free(tid);
    if (locked) {
        gt->store_lock = NULL;
        pthread_mutex_destroy(&lock);
    }
    gt->n = atomic_load(&p.done);
    gt->par_runs++;
    gt->blk_ok = false;
    if (gt->n < end && gt->par_next != UINT64_MAX)
        gt->par_next = gt->n + 1;
}
