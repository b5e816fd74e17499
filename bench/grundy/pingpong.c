/* The round trip of one cache line between two threads, in nanoseconds:
 * what every line costs that one thread writes and the other then reads
 * (docs/games.md §2 "Two threads").  On the project's 2-core virtual
 * machines it is 50-65 ns in some minutes and 320-360 ns in others, as
 * the host places the two virtual processors; bench/grundy/threads.sh
 * prints it beside each run.
 * Usage: pingpong [ROUNDS]   (default 2000000) */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Alignas(64) _Atomic unsigned long turn;
static unsigned long rounds = 2000000;

/* The other thread answers each odd value with the next even one. */
static void *answer(void *arg)
{
    (void)arg;
    for (unsigned long i = 0; i < rounds; i++) {
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 1)
            ;
        atomic_store_explicit(&turn, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc > 1)
        rounds = strtoul(argv[1], NULL, 10);
    if (rounds == 0)
        rounds = 1;
    pthread_t t;
    if (pthread_create(&t, NULL, answer, NULL) != 0) {
        fprintf(stderr, "pingpong: no second thread\n");
        return 1;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned long i = 0; i < rounds; i++) {
        atomic_store_explicit(&turn, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&turn, memory_order_acquire) != 2 * i + 2)
            ;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    pthread_join(t, NULL);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) /
                (double)rounds;
    printf("%.0f\n", ns);
    return 0;
}
