/* Shared by the misère research and benchmark drivers in bench/misere: a
 * small octal-code HeapGame of their own (Winning Ways ch. 4 rules, digits
 * 0-7, moves leaving at most two heaps), so the drivers measure the engine
 * without src/lib/heap/, a CPU-time budget that stops the engine as Ctrl-C would,
 * and the recalibration-policy words.  Header-only: each driver is built
 * by a single cc command (bench/misere/run.sh). */
#ifndef CGT_BENCH_MISERE_BENCHOCT_H
#define CGT_BENCH_MISERE_BENCHOCT_H
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

#include "lib/misere/misere.h"
#include "lib/util/poll.h"

typedef struct BenchOct {
    int ndig;    /* digits after the point */
    int dig[16]; /* dig[k]: the digit for removing k tokens (dig[0] = d0) */
    int parts;   /* most heaps a move leaves (1 or 2) */
    char name[32];
} BenchOct;

/* Options of heap n: remove k tokens, leaving nothing (bit 1), one heap
 * (bit 2) or two heaps (bit 4) as digit k allows. */
static inline CgtStatus bench_oct_options(void *ctx, uint32_t n, HeapOptions *out,
                                          CgtError *err)
{
    (void)err;
    const BenchOct *o = ctx;
    heapopts_clear(out);
    for (int k = 0; k <= o->ndig && (uint32_t)k <= n; k++) {
        uint32_t r = n - (uint32_t)k;
        int d = o->dig[k];
        if (k == 0)
            d &= 4; /* d0: only a split that takes nothing (docs/games.md) */
        if ((d & 1) && r == 0)
            heapopts_add(out, NULL, 0);
        if ((d & 2) && r > 0)
            heapopts_add(out, &r, 1);
        for (uint32_t a = 1; (d & 4) && 2 * a <= r; a++) {
            uint32_t two[2] = {a, r - a};
            heapopts_add(out, two, 2);
        }
    }
    return CGT_OK;
}

/* Read "d0.d1d2..." (at most 15 digits after the point; d0 a single
 * digit, of which only bit 4, a split taking nothing, counts, and bit 2, a
 * loop, is refused) into *o and return its HeapGame (ctx = o, which must
 * outlive it).  False without a point or with another d0. */
static inline bool bench_oct_parse(const char *code, BenchOct *o, HeapGame *g)
{
    memset(o, 0, sizeof *o);
    snprintf(o->name, sizeof o->name, "%s", code);
    const char *dot = strchr(code, '.');
    if (!dot || dot - code != 1 || code[0] < '0' || code[0] > '7' || (code[0] - '0') & 2)
        return false;
    o->parts = 1;
    o->dig[0] = (code[0] - '0') & 4;
    if (o->dig[0])
        o->parts = 2;
    for (int k = 1; dot[k] && k < 16; k++) {
        o->dig[k] = dot[k] - '0';
        o->ndig = k;
        if (o->dig[k] & 4)
            o->parts = 2;
    }
    *g = (HeapGame){o, bench_oct_options, o->parts, o->ndig, o->name};
    return true;
}

static inline void bench_on_cpu_limit(int sig)
{
    (void)sig;
    cgt_interrupt_flag = 1;
}

/* Stop the engine (as Ctrl-C would) after `secs` seconds of CPU time. */
static inline void bench_cpu_limit(double secs)
{
    struct itimerval it = {{0, 0}, {(time_t)secs, (suseconds_t)((secs - (time_t)secs) * 1e6)}};
    signal(SIGVTALRM, bench_on_cpu_limit);
    setitimer(ITIMER_VIRTUAL, &it, NULL);
}

/* The recalibration policy named by a command-line word, if it is one. */
static inline void bench_recal_word(const char *w, MqRecal *r)
{
    if (strcmp(w, "smallest") == 0)
        *r = MQ_RECAL_SMALLEST;
    if (strcmp(w, "jump") == 0)
        *r = MQ_RECAL_JUMP;
    if (strcmp(w, "lift") == 0)
        *r = MQ_RECAL_LIFT;
}

#endif
