/* Independent pieces of work on several threads (par.h). */
#include "lib/util/par.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* The stack of a worker: as deep as the program's main thread (the
 * searches recurse once per heap level). */
#define PAR_STACK ((size_t)512 << 20)

typedef struct {
    CgtParFirstFn first;
    void *ctx;
    size_t n;
    atomic_size_t next;    /* the next piece to start */
    atomic_size_t stop;    /* the least piece whose `first` returned true, or n */
    int *cancel;           /* per piece: read by cgt_poll on the piece's thread */
} ParJob;

static void *par_work(void *arg)
{
    ParJob *j = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n || i > atomic_load(&j->stop))
            break;
        cgt_poll_set_cancel(&j->cancel[i]);
        bool end = j->first(j->ctx, i);
        cgt_poll_set_cancel(NULL);
        if (!end)
            continue;
        size_t s = atomic_load(&j->stop);
        while (i < s && !atomic_compare_exchange_weak(&j->stop, &s, i))
            ;
        for (size_t k = i + 1; k < j->n; k++)
            __atomic_store_n(&j->cancel[k], 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void par_start(ParJob *j, unsigned threads)
{
    pthread_t tid[CGT_THREADS_MAX];
    unsigned started = 0;
    if (threads > CGT_THREADS_MAX)
        threads = CGT_THREADS_MAX;
    if (threads > j->n)
        threads = (unsigned)j->n;
    if (threads > 1) {
        pthread_attr_t big, *attr = NULL;
        if (pthread_attr_init(&big) == 0) {
            if (pthread_attr_setstacksize(&big, PAR_STACK) == 0)
                attr = &big;
            else
                pthread_attr_destroy(&big);
        }
        for (unsigned t = 1; t < threads; t++)
            if (pthread_create(&tid[started], attr, par_work, j) == 0)
                started++;
        if (attr)
            pthread_attr_destroy(attr);
    }
    par_work(j);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}

size_t cgt_par_run_first(unsigned threads, size_t n, CgtParFirstFn fn, void *ctx)
{
    ParJob j = {.first = fn, .ctx = ctx, .n = n};
    atomic_init(&j.next, 0);
    atomic_init(&j.stop, n);
    j.cancel = xcalloc(n ? n : 1, sizeof *j.cancel);
    par_start(&j, threads);
    free(j.cancel);
    return atomic_load(&j.stop);
}

unsigned cgt_par_threads(unsigned wanted)
{
    if (wanted < 1 || cgt_poll_budget_armed())
        return 1;
    return wanted;
}

static unsigned default_threads = 1;

void cgt_set_default_threads(unsigned n)
{
    default_threads = n < 1 ? 1 : n > CGT_THREADS_MAX ? CGT_THREADS_MAX : n;
}

unsigned cgt_default_threads(void)
{
    return default_threads;
}
