/* Interrupt flag, deadline and throttled progress (see poll.h). */
#define _POSIX_C_SOURCE 200809L
#include "util/poll.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>

volatile sig_atomic_t cgt_interrupt_flag = 0;

static double deadline = 0; /* absolute cgt_now() time, 0 = none */
static double timeout_s = 0;
static unsigned poll_count = 0;
static CgtProgressSink sink = NULL;
static double last_progress = -1e9;

double cgt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void cgt_set_timeout(double seconds)
{
    timeout_s = seconds;
    deadline = seconds > 0 ? cgt_now() + seconds : 0;
}

double cgt_timeout_seconds(void)
{
    return timeout_s;
}

CgtStatus cgt_poll(void)
{
    if (cgt_interrupt_flag)
        return CGT_ERR_INTERRUPTED;
    if (deadline > 0 && (++poll_count & 1023u) == 0 && cgt_now() > deadline)
        return CGT_ERR_LIMIT;
    return CGT_OK;
}

CgtStatus cgt_poll_error(CgtError *e, CgtStatus st, const char *what)
{
    if (st == CGT_ERR_INTERRUPTED)
        return cgt_error_set(e, st, "%s interrupted", what);
    if (st == CGT_ERR_LIMIT) {
        cgt_error_set(e, st, "%s stopped: time limit of %g s reached", what, timeout_s);
        cgt_error_hint(e, "raise the limit with --timeout=SECONDS (0 = no limit)");
        return st;
    }
    return st;
}

void cgt_set_progress_sink(CgtProgressSink s)
{
    sink = s;
}

bool cgt_progress_enabled(void)
{
    return sink != NULL;
}

static void emit(const char *subsystem, const char *fmt, va_list ap)
{
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    sink(subsystem, line);
}

void cgt_progress(const char *subsystem, const char *fmt, ...)
{
    if (!sink)
        return;
    double t = cgt_now();
    if (t - last_progress < 0.25)
        return;
    last_progress = t;
    va_list ap;
    va_start(ap, fmt);
    emit(subsystem, fmt, ap);
    va_end(ap);
}

void cgt_progress_force(const char *subsystem, const char *fmt, ...)
{
    if (!sink)
        return;
    last_progress = cgt_now();
    va_list ap;
    va_start(ap, fmt);
    emit(subsystem, fmt, ap);
    va_end(ap);
}
