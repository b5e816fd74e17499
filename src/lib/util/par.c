/* Independent pieces of work on several threads (par.h). */
#include "lib/util/par.h"

#include <pthread.h>
#include <stdatomic.h>

#include "lib/util/poll.h"

/* The stack of a worker: as deep as the program's main thread (the
 * searches recurse once per heap level). */
#define PAR_STACK ((size_t)512 << 20)

typedef struct {
    CgtParFn fn;
    void *ctx;
    size_t n;
    atomic_size_t next;
} ParJob;

static void *par_work(void *arg)
{
    ParJob *j = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&j->next, 1);
        if (i >= j->n)
            break;
        j->fn(j->ctx, i);
    }
    return NULL;
}

void cgt_par_run(unsigned threads, size_t n, CgtParFn fn, void *ctx)
{
    ParJob j = {fn, ctx, n, 0};
    pthread_t tid[CGT_THREADS_MAX];
    unsigned started = 0;
    if (threads > CGT_THREADS_MAX)
        threads = CGT_THREADS_MAX;
    if (threads > n)
        threads = (unsigned)n;
    if (threads > 1) {
        pthread_attr_t big, *attr = NULL;
        if (pthread_attr_init(&big) == 0) {
            if (pthread_attr_setstacksize(&big, PAR_STACK) == 0)
                attr = &big;
            else
                pthread_attr_destroy(&big);
        }
        for (unsigned t = 1; t < threads; t++)
            if (pthread_create(&tid[started], attr, par_work, &j) == 0)
                started++;
        if (attr)
            pthread_attr_destroy(attr);
    }
    par_work(&j);
    for (unsigned t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
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
