/* Parallel stretches of the sparse-space engine (src/lib/grundy/grundy.c; design and
 * measurements in docs/games.md §2 "Two threads" and docs/performance.md).
 *
 * Heap n of the sparse engine is settled in two steps (grundy_kern.h,
 * value_sparse): (1) the options with a rare part are marked and give mc,
 * the least unseen value of the class C_r; (2) a scan over all pairs looks
 * for the unseen values of the other class below mc.  When the scan finds
 * them all, G(n) = mc; when one is missing, G(n) is the least missing one,
 * a value of the other class, so heap n is rare (Gangolli and Plambeck,
 * "A note on periodicity in some octal games", 1989; the sparse-space
 * method of Grossman, "Searching for periodicity in Officers", Games of No
 * Chance 5, 2019).  Step 2 is most of the work (about 70% for Officers)
 * and almost never changes the value, so it is done on the side:
 *
 * - Thread 0 (the producer) runs step 1 heap after heap, as the serial
 *   loop does, writes G(n) = mc into the table at once (speculatively) and
 *   keeps mc and its seen row packed as a bit set in the block's buffer
 *   (one of RING), or only a flag when the row is class_row's, which the
 *   scanning thread rebuilds from mc; at the block's end it queues the
 *   block's scans as one job.  A heap with nothing to scan is settled by
 *   step 1.
 * - Step 1 of a block starts with its batched rare pairs (batch_rows, for
 *   rare a >= len(B) + len(B+1), so that they read only values below B):
 *   those of block B+1 await a thread from when B starts, so that for
 *   codes where step 1 is large (0.14: 31% of the time in the batches) the
 *   producer is not the critical path.  A thread claims the awaiting batch
 *   (try_batch) before it takes a scan, out of the queue's order; the
 *   producer marks it itself when nobody has by the time it needs it.
 *   (Queued as a job behind older scans, it kept the producer waiting and
 *   scanning while the other thread ran dry: 0.14 gained 1.3x.)
 * - Every thread takes queued blocks of scans, oldest first; the producer
 *   takes one when more than PAR_LAG are waiting, and whenever it must
 *   wait.  A scan unpacks its heap's row into the thread's own row and
 *   reads the table below its heap, the speculative values included.
 * - A scan that finds a value missing marks its heap as failed: the heap
 *   is rare, so mc was wrong and every later value may be too.  The
 *   stretch stops there; the heaps before it are committed (all their
 *   scans passed, so their values are the serial loop's) and the serial
 *   loop computes the failed heap.
 * - A heap step 1 finds to be an event (a new largest value, a rare class
 *   from mc: it would change the mask, the span or the width) also ends
 *   the stretch, before it.
 *
 * So every committed value, the rare list and the work counters (summed
 * per committed heap) are the serial loop's.  Each thread works on a copy
 * of the table struct with its own scan scratch and counters; the
 * compressed middle's decode cache is shared behind a mutex (the deep
 * scans that use it are about one heap in 10^6). */
#include "lib/grundy/grundy_int.h"

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

#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* A wait spins up to PAR_SPIN times, yielding the core at every PAR_YIELD-th
 * step, then sleeps on the futex.  PAR_POLL: heaps between two polls of
 * the producer.  RING block buffers of at most ROWS heaps each are in
 * flight; PAR_LAG: queued blocks of scans past which the producer scans
 * too. */
#define PAR_SPIN 4000
#define PAR_YIELD 32
#define PAR_POLL 1024
#define RING 16
#define ROWS 64
#define PAR_LAG 4
/* A stretch whose committed heaps marked and scanned fewer than PAR_SHORT
 * pairs (about 1000 of Officers' heaps; its first heaps take far fewer)
 * is followed by PAR_GAP0, then twice as many, ... up to PAR_GAP_MAX heaps
 * on the serial loop. */
#define PAR_SHORT 4000000
#define PAR_GAP0 256
#define PAR_GAP_MAX 16384

/* What the scanning thread reads of a block (mc, need, cls, the packed
 * rows) is written by the producer, and what it writes (sp, pending) is
 * read by the producer: every such cache line crosses the cores once per
 * block, so the per-heap fields are kept narrow, and the scans' pair count
 * is one sum per block rather than one count per heap. */
typedef struct {
    _Alignas(64) _Atomic uint32_t pending; /* scans of this buffer not finished */
    _Atomic uint32_t ready;   /* its batched rare pairs are marked */
    _Atomic uint32_t bclaim;  /* 0: its batch awaits a thread */
    uint64_t n0;              /* the block: heaps n0 .. n0+blen-1 */
    uint32_t blen;
    uint32_t lenb;            /* its batch: rare a >= lenb */
    uint32_t len;             /* heaps of it stepped so far */
    uint64_t bcnt;            /* batched pairs per heap */
    uint64_t sp;              /* pairs scanned for its heaps that passed */
    uint64_t rp[ROWS];        /* step 1's pairs per heap (the producer's) */
    uint32_t mc[ROWS];        /* step 1's value of each heap */
    uint32_t need[ROWS];      /* its values to find (0: no scan) */
    uint8_t cls[ROWS];        /* 1 + cc: its row is class_row's; 0: packed in miss */
    uint8_t *rows;
    uint64_t *miss;           /* each row as a bit set, mw words */
} Buf;

/* The shared state, a cache line for each kind of writer: the queue (the
 * producer, once per block), its claims (each thread taking a block), the
 * batches awaiting a thread (both, once per block), the rarely written
 * words that every heap's scan reads (fail) or every wake (sleepers), and
 * what no thread writes during a stretch.  Sharing one line, every claim
 * or queued block made the other thread's next test of fail a miss. */
typedef struct {
    _Alignas(64) _Atomic uint32_t published; /* blocks of scans queued */
    uint32_t job[RING]; /* the queue: buffers whose scans await a thread */
    _Alignas(64) _Atomic uint32_t claimed;   /* blocks of scans taken */
    _Alignas(64) _Atomic uint32_t bwait;     /* batches that await a thread */
    _Alignas(64) _Atomic uint64_t fail;      /* least failed heap (UINT64_MAX: none) */
    atomic_int stop;                         /* no more jobs will come */
    atomic_int sleepers;
    _Atomic uint32_t seq;                    /* futex word: bumped at every change */
    _Alignas(64) size_t span;
    uint32_t mw;      /* words of a row's bit set */
    uint32_t *ones;   /* ones[m]: the values v < m of class 1 (vcls[v] == 1) */
    uint8_t *crow[2]; /* crow[cc][v] = 1 when v is of class cc (class_row) */
    Buf buf[RING];
} Par;

/* Each worker, and all it writes, on cache lines of its own
 * (xmalloc_lines): a line that one thread writes per heap and the other
 * reads per heap costs a transfer between the cores each time, 50-350 ns
 * on this project's machines depending on the host's placement of the two
 * virtual processors (small scratch arrays of both threads came from
 * neighbouring malloc chunks). */
typedef struct {
    _Alignas(64) Par *p;
    GrundyTable w; /* the thread's copy: shared table, own scratch */
    uint8_t *row;  /* the row of the heap it scans */
    double cpu;    /* this thread's CPU seconds in the stretch */
    double waited; /* wall seconds spent waiting */
} Worker;

static double thread_cpu(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
        return 0;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
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

/* After a change of the shared state: wake the sleepers, if any.  The
 * fences pair with work_until's (a sleeper counts itself, then tests its
 * condition; a waker changes the state, then looks for sleepers), so that
 * the common case, nobody asleep, costs no write to a shared line. */
static void par_wake(Par *p)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&p->sleepers, memory_order_relaxed)) {
        atomic_fetch_add(&p->seq, 1);
#ifdef __linux__
        syscall(SYS_futex, (uint32_t *)&p->seq, FUTEX_WAKE_PRIVATE, INT32_MAX, NULL, NULL, 0);
#endif
    }
}

/* Claim the batched rare pairs of the earliest block that awaits them, if
 * nobody has, and mark them; false when there was none to claim.  A batch
 * is claimed out of the queue's order: the producer needs it before the
 * block's first heap, so it must not wait behind older scans. */
static bool try_batch(Worker *wk)
{
    Par *p = wk->p;
    if (!atomic_load_explicit(&p->bwait, memory_order_acquire))
        return false;
    for (;;) {
        Buf *b = NULL;
        for (int i = 0; i < RING; i++) {
            Buf *c = &p->buf[i];
            if (atomic_load_explicit(&c->bclaim, memory_order_acquire) == 0 &&
                (!b || c->n0 < b->n0))
                b = c;
        }
        if (!b)
            return false;
        uint32_t z = 0;
        if (atomic_compare_exchange_strong_explicit(&b->bclaim, &z, 1, memory_order_acq_rel,
                                                    memory_order_relaxed)) {
            atomic_fetch_sub_explicit(&p->bwait, 1, memory_order_relaxed);
            b->bcnt = grundy_par_batch(&wk->w, b->rows, b->n0, b->blen, b->lenb);
            atomic_store_explicit(&b->ready, 1, memory_order_release);
            par_wake(p);
            return true;
        }
    }
}

/* The row of a heap after step 1 when every value of the other class
 * below mc is unseen and every other byte set: 1 at the values of class
 * cc and from mc on, 0 below mc elsewhere.  The scanning thread builds it
 * from a row of the class (crow, made from the value classes at the
 * stretch's start; no thread writes them during a stretch), so that the
 * row need not cross the cores.  This is every Officers heap from twice
 * its last rare heap on (no pair has two rare parts there, and the pairs
 * with one give class cc only).  (A byte loop over the values below mc
 * took 7% of the two threads' CPU for Officers.) */
static void class_row(const Par *p, unsigned cc, uint32_t mc, uint8_t *row)
{
    memcpy(row, p->crow[cc], mc);
    memset(row + mc, 1, p->span - mc);
}

/* Take the oldest queued block of scans and run them; false when none was
 * queued.  A job is a whole block, not a heap: the job's state moves
 * between the cores once per block.  Measured with a ping-pong of one
 * cache line, this virtual machine's two cores take 50 ns to 350 ns per
 * round trip depending on where the host places them, so per-heap jobs
 * (a few shared lines per heap of about 1 microsecond) cost two threads
 * 15-45% more CPU than one, varying from run to run. */
static bool take_job(Worker *wk)
{
    Par *p = wk->p;
    uint32_t c = atomic_load_explicit(&p->claimed, memory_order_relaxed);
    for (;;) {
        if (c >= atomic_load_explicit(&p->published, memory_order_acquire))
            return false;
        if (atomic_compare_exchange_weak_explicit(&p->claimed, &c, c + 1, memory_order_acq_rel,
                                                  memory_order_relaxed))
            break;
    }
    Buf *b = &p->buf[p->job[c % RING]];
    GrundyTable *w = &wk->w;
    uint64_t spb = 0;
    for (uint32_t h = 0; h < b->len; h++) {
        if (!b->need[h])
            continue;
        uint64_t n = b->n0 + h;
        /* a failed heap stops the stretch: the heaps past it are dropped */
        if (n > atomic_load_explicit(&p->fail, memory_order_relaxed))
            break;
        uint64_t sp = w->scan_pairs;
        CgtStatus st0 = w->stop;
        if (b->cls[h])
            class_row(p, b->cls[h] - 1u, b->mc[h], wk->row);
        else
            grundy_row_unpack(w, b->miss + (size_t)h * p->mw, (uint32_t)p->span, wk->row);
        bool ok = grundy_par_scan(w, n, wk->row, b->mc[h], b->need[h]);
        if (w->stop != st0) {
            w->stop = st0; /* the serial loop meets the error again */
            ok = false;
        }
        if (!ok) {
            uint64_t f = atomic_load(&p->fail);
            while (n < f && !atomic_compare_exchange_weak(&p->fail, &f, n))
                ;
            break;
        }
        /* a failed heap is not committed, nor are its pairs */
        spb += w->scan_pairs - sp;
    }
    b->sp = spb;
    atomic_store_explicit(&b->pending, 0, memory_order_release);
    par_wake(p);
    return true;
}

/* Is a batch waiting for a thread to claim it? */
static bool batch_waits(Par *p)
{
    return atomic_load(&p->bwait) != 0;
}

/* Run the waiting batch and queued scans, or wait, until cond(p, arg)
 * holds; the time waited goes to wk->waited.  Returns at once when it holds
 * already. */
static void work_until(Worker *wk, bool (*cond)(Par *, uint32_t), uint32_t arg)
{
    Par *p = wk->p;
    double t0 = 0;
    int spins = 0;
    while (!cond(p, arg)) {
        if (try_batch(wk) || take_job(wk)) {
            if (t0) {
                wk->waited += wall_now() - t0;
                t0 = 0;
            }
            spins = 0;
            continue;
        }
        if (!t0)
            t0 = wall_now();
        if (spins < PAR_SPIN) {
            if (++spins % PAR_YIELD == 0)
                sched_yield();
            else
                cpu_relax();
            continue;
        }
        atomic_fetch_add(&p->sleepers, 1);
        uint32_t s = atomic_load(&p->seq);
        atomic_thread_fence(memory_order_seq_cst);
        if (!cond(p, arg) &&
            atomic_load(&p->claimed) >= atomic_load(&p->published) && !batch_waits(p))
            par_sleep(p, s);
        atomic_fetch_sub(&p->sleepers, 1);
        spins = 0;
    }
    if (t0)
        wk->waited += wall_now() - t0;
}

static bool buf_free(Par *p, uint32_t b)
{
    return atomic_load_explicit(&p->buf[b].pending, memory_order_acquire) == 0;
}

static bool buf_ready(Par *p, uint32_t b)
{
    return atomic_load_explicit(&p->buf[b].ready, memory_order_acquire) != 0;
}

/* Queue the scans of the heaps stepped in buffer bi, if it has any. */
static void publish(Worker *wk, uint32_t bi)
{
    Par *p = wk->p;
    Buf *b = &p->buf[bi];
    bool any = false;
    for (uint32_t h = 0; h < b->len && !any; h++)
        any = b->need[h] != 0;
    if (!any)
        return;
    atomic_store_explicit(&b->pending, 1, memory_order_relaxed);
    uint32_t q = atomic_load_explicit(&p->published, memory_order_relaxed);
    p->job[q % RING] = bi;
    atomic_store_explicit(&p->published, q + 1, memory_order_release);
    par_wake(p);
}

/* A scan thread: every queued scan, until the producer stops and the queue
 * is empty. */
static bool queue_done(Par *p, uint32_t unused)
{
    (void)unused;
    return atomic_load(&p->stop) &&
           atomic_load(&p->claimed) >= atomic_load(&p->published);
}

static void *scan_work(void *arg)
{
    Worker *wk = arg;
    double t0 = thread_cpu();
    work_until(wk, queue_done, 0);
    wk->cpu = thread_cpu() - t0;
    return NULL;
}

/* Is heap n with value v an event (the serial loop must do it)? */
static bool par_event(const GrundyTable *w, uint64_t n, uint32_t v)
{
    if (v > w->maxval)
        return true;
    return ((unsigned)__builtin_parity(v & w->mask) ^ (w->e & (unsigned)(n & 1))) == w->rho;
}

static void stop_jobs(Par *p)
{
    atomic_store(&p->stop, 1);
    par_wake(p);
}

/* Make buffer bi ready for the block of heaps n0 .. (blen of them, batch
 * from rare position lenb); returns false when a scan failed meanwhile.
 * The counters of the block it held (all its scans passed) are added. */
static bool prepare(Worker *wk, uint32_t bi, bool reused, uint64_t n0, uint32_t blen,
                    uint32_t lenb, uint64_t *rp_done, uint64_t *sp_done)
{
    Par *p = wk->p;
    Buf *b = &p->buf[bi];
    work_until(wk, buf_free, bi);
    if (atomic_load(&p->fail) != UINT64_MAX)
        return false;
    if (reused) {
        for (uint32_t h = 0; h < b->len; h++)
            *rp_done += b->rp[h];
        *sp_done += b->sp;
    }
    b->n0 = n0;
    b->blen = blen;
    b->lenb = lenb;
    b->len = 0;
    b->sp = 0;
    atomic_store_explicit(&b->ready, 0, memory_order_relaxed);
    atomic_fetch_add_explicit(&p->bwait, 1, memory_order_relaxed);
    atomic_store_explicit(&b->bclaim, 0, memory_order_release);
    par_wake(p);
    return true;
}

/* The producer: step 1 of heaps start .. end-1 in blocks, one buffer per
 * block.  The batched rare pairs of block B+2 (rare a >= len(B) +
 * len(B+1) + len(B+2): their other parts lie below B's first heap) await
 * a thread from when B starts (prepare), so that the other thread marks
 * them while this one steps through B and B+1; the producer marks them
 * itself when nobody has claimed them by the time it needs them
 * (work_until claims a batch before any scan).  Two blocks ahead rather
 * than one: with one, the other thread's batch of B+1 was often still
 * running when the producer reached B+1, and the producer then took the
 * queued scans while waiting, leaving the other thread none (the second
 * thread waited 23 s of Officers' 100 s to 10^8 with the AVX-512 loops).
 * Returns the heap it stopped before (end, an event heap, or the heap at
 * which cgt_poll asked to stop). */
static uint64_t produce(Worker *wk, uint64_t start, uint64_t end, uint64_t *rp_done,
                        uint64_t *sp_done)
{
    Par *p = wk->p;
    GrundyTable *w = &wk->w;
    uint32_t span = (uint32_t)p->span;
    uint64_t n = start;
    uint32_t nb = 0;
    unsigned since_poll = 0;
    /* the blocks prepared: through sequence number `ahead` - 1, the last
     * of them from heap `an` with `alen` heaps, the one before `alen0` */
    uint32_t len0 = block_len(w, span, n, end), ahead = 1, alen = len0, alen0 = 0;
    uint64_t an = n;
    prepare(wk, 0, false, n, len0, len0, rp_done, sp_done);
    if (n + len0 < end) {
        uint32_t len1 = block_len(w, span, n + len0, end);
        prepare(wk, 1, false, n + len0, len1, len0 + len1, rp_done, sp_done);
        ahead = 2;
        an = n + len0;
        alen0 = len0;
        alen = len1;
    }
    while (n < end) {
        uint32_t bi = nb % RING;
        Buf *b = &p->buf[bi];
        work_until(wk, buf_ready, bi);
        if (atomic_load(&p->fail) != UINT64_MAX)
            return n;
        uint32_t len = b->blen;
        if (ahead == nb + 2 && an + alen < end) {
            uint64_t nn = an + alen;
            uint32_t nlen = block_len(w, span, nn, end);
            if (!prepare(wk, ahead % RING, ahead >= RING, nn, nlen, alen0 + alen + nlen, rp_done,
                         sp_done))
                return n;
            ahead++;
            an = nn;
            alen0 = alen;
            alen = nlen;
        }
        w->seen8 = b->rows;
        w->blk_ok = true;
        w->blk_bits = false;
        w->blk_n0 = n;
        w->blk_len = len;
        w->blk_lenb = b->lenb;
        w->blk_span = span;
        w->blk_bcnt = b->bcnt;
        grundy_par_flat(w, n, b->lenb);
        nb++;
        bool quit = false;
        uint32_t h = 0;
        for (; h < len; h++, n++) {
            if (++since_poll >= PAR_POLL) {
                since_poll = 0;
                if (cgt_poll() != CGT_OK || atomic_load(&p->fail) != UINT64_MAX) {
                    quit = true;
                    break;
                }
            }
            /* the serial loop's progress line: a stretch that stopped at
             * each (every 65536 heaps) cost Officers' two threads about
             * 3% in stretch starts and ends */
            if ((n & 65535) == 0 && n != start)
                grundy_par_progress(w, n);
            uint64_t rp = w->rare_pairs;
            size_t need;
            uint8_t *row;
            uint32_t mc = grundy_par_head(w, n, &row, &need);
            if (par_event(w, n, mc)) {
                quit = true;
                break;
            }
            gv_set(w->gv, w->gw, n, mc);
            b->rp[h] = w->rare_pairs - rp;
            b->mc[h] = mc;
            b->need[h] = (uint32_t)need;
            if (need) {
                /* every value below mc is seen but those of the other
                 * class, and need of them are unseen: when that is all of
                 * them, the row is class_row's and stays here */
                unsigned cc = sparse_class(w, n);
                size_t other = cc ? mc - p->ones[mc] : p->ones[mc];
                b->cls[h] = need == other ? (uint8_t)(1 + cc) : 0;
                if (!b->cls[h])
                    grundy_row_pack(w, row, span, b->miss + (size_t)h * p->mw);
            }
        }
        /* the heaps stepped (stored once: the line holds the flags that
         * the other thread polls) */
        b->len = h;
        /* the heaps stepped are committed only if their scans pass: queue
         * them even when the stretch stops inside the block */
        publish(wk, bi);
        if (quit)
            return n;
        if (atomic_load_explicit(&p->published, memory_order_relaxed) -
                atomic_load_explicit(&p->claimed, memory_order_relaxed) >
            PAR_LAG &&
            !try_batch(wk))
            take_job(wk);
    }
    return n;
}

void grundy_par_run(GrundyTable *gt, uint64_t end)
{
    uint32_t T = gt->threads;
    Par *p = xmalloc_lines(sizeof *p);
    memset(p, 0, sizeof *p);
    atomic_init(&p->published, 0);
    atomic_init(&p->claimed, 0);
    atomic_init(&p->fail, UINT64_MAX);
    atomic_init(&p->seq, 0);
    atomic_init(&p->stop, 0);
    atomic_init(&p->sleepers, 0);
    atomic_init(&p->bwait, 0);
    p->span = grundy_row_span(gt);
    p->mw = (uint32_t)((p->span + 63) / 64);
    p->ones = xmalloc_lines((p->span + 1) * sizeof *p->ones);
    p->ones[0] = 0;
    for (size_t v = 0; v < p->span; v++)
        p->ones[v + 1] = p->ones[v] + gt->vcls[v];
    for (unsigned cc = 0; cc < 2; cc++) {
        p->crow[cc] = xmalloc_lines(p->span);
        for (size_t v = 0; v < p->span; v++)
            p->crow[cc][v] = gt->vcls[v] == cc;
    }
    for (int i = 0; i < RING; i++) {
        atomic_init(&p->buf[i].pending, 0);
        atomic_init(&p->buf[i].ready, 0);
        atomic_init(&p->buf[i].bclaim, 1);
        p->buf[i].rows =
            xmalloc_lines((BLOCK_BYTES > p->span ? BLOCK_BYTES : p->span) + GRUNDY_CB_BYTES);
        p->buf[i].miss = xmalloc_lines((size_t)ROWS * p->mw * sizeof *p->buf[i].miss);
    }
    pthread_mutex_t lock;
    bool locked = gt->store != NULL;
    if (locked) {
        pthread_mutex_init(&lock, NULL);
        gt->store_lock = &lock;
    }
    Worker *wk = xmalloc_lines(T * sizeof *wk);
    memset(wk, 0, T * sizeof *wk);
    pthread_t *tid = xcalloc(T, sizeof *tid);
    for (uint32_t i = 0; i < T; i++) {
        wk[i].p = p;
        wk[i].w = *gt;
        wk[i].row = xmalloc_lines((size_t)64 * p->mw);
        GrundyTable *w = &wk[i].w;
        w->seen8 = NULL;
        w->seen8_cap = BLOCK_BYTES > p->span ? BLOCK_BYTES : p->span;
        w->bits_rows = NULL;
        w->flat_d = w->flat_x = NULL;
        w->flat_i8 = w->flat_x8 = NULL;
        w->flat_win = false;
        w->flat_cap = w->flat_cap8 = 0;
        w->blk_ok = false;
        w->scan_r = xmalloc_lines(((size_t)gt->rs->max_take + 1) * sizeof *w->scan_r);
        w->rare_pairs = w->scan_pairs = 0;
    }
    uint32_t started = 1;
    for (; started < T; started++)
        if (pthread_create(&tid[started], NULL, scan_work, &wk[started]) != 0)
            break;
    uint64_t start = gt->n, stop_at = start;
    uint64_t rp = 0, sp = 0;
    if (started < T) {
        /* no thread for some scans: give up this stretch, stay serial */
        gt->par_next = UINT64_MAX;
    } else {
        double t0 = thread_cpu();
        stop_at = produce(&wk[0], start, end, &rp, &sp);
        stop_jobs(p);
        work_until(&wk[0], queue_done, 0);
        for (int i = 0; i < RING; i++)
            work_until(&wk[0], buf_free, (uint32_t)i);
        wk[0].cpu = thread_cpu() - t0;
    }
    stop_jobs(p);
    for (uint32_t i = 1; i < started; i++)
        pthread_join(tid[i], NULL);
    /* commit the heaps below the first failed scan */
    uint64_t commit = stop_at, fail = atomic_load(&p->fail);
    if (fail < commit)
        commit = fail;
    for (int i = 0; i < RING; i++) {
        Buf *b = &p->buf[i];
        for (uint32_t h = 0; h < b->len; h++)
            if (b->n0 + h < commit)
                rp += b->rp[h];
        /* a block that holds the failed heap summed the heaps before it;
         * every stepped heap of the others lies below commit or none */
        if (b->len && b->n0 < commit)
            sp += b->sp;
    }
    gt->rare_pairs += rp;
    gt->scan_pairs += sp;
    gt->par_dropped += stop_at - commit;
    for (uint32_t i = 0; i < T; i++) {
        if (i < GRUNDY_PAR_CPU) {
            gt->par_cpu[i] += wk[i].cpu;
            gt->par_wait[i] += wk[i].waited;
        }
        free(wk[i].w.flat_d);
        free(wk[i].w.flat_x);
        free(wk[i].w.scan_r);
        free(wk[i].row);
    }
    for (int i = 0; i < RING; i++) {
        free(p->buf[i].rows);
        free(p->buf[i].miss);
    }
    free(p->ones);
    free(p->crow[0]);
    free(p->crow[1]);
    free(p);
    free(wk);
    free(tid);
    if (locked) {
        gt->store_lock = NULL;
        pthread_mutex_destroy(&lock);
    }
    gt->n = commit;
    gt->par_runs++;
    gt->blk_ok = false;
    /* A stretch that stopped after little work (at an event: Officers has
     * one every ten heaps or so up to its last rare heap, 20627) cost more
     * than it gained: a thread started and joined, buffers set up, heaps
     * dropped.  Officers to 10^5 took 3 times as long on two threads as on
     * one (1704 stretches).  So the serial loop takes the next par_gap
     * heaps, a gap that doubles while stretches stay short.  Work, not
     * heaps, is measured (the pairs counted for the committed heaps, the
     * same on every run): a code with many rare positions does much per
     * heap, and its short stretches pay.  A stretch that ran to `end` (the
     * target, a compaction step, a mask choice) did not stop early: short or
     * not, it leaves the gap as it was, so that extending a table in small
     * steps is not slowed by it. */
    bool stopped = gt->n < end;
    if (gt->par_backoff_off || rp + sp >= PAR_SHORT)
        gt->par_gap = 0;
    else if (stopped)
        gt->par_gap = gt->par_gap ? (gt->par_gap < PAR_GAP_MAX ? 2 * gt->par_gap : PAR_GAP_MAX)
                                  : PAR_GAP0;
    if (stopped && gt->par_next != UINT64_MAX)
        gt->par_next = gt->n + 1 + gt->par_gap;
}
