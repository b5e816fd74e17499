/* Interrupt flag, deadline and throttled progress (see poll.h). */
#define _POSIX_C_SOURCE 200809L
#include "lib/util/poll.h"

#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

volatile sig_atomic_t cgt_interrupt_flag = 0;
volatile sig_atomic_t cgt_interrupt_signal = 0;

/* Set by SIGALRM when the --timeout deadline passes, so that polling is a
 * flag test however rarely a loop polls. */
static volatile sig_atomic_t timeout_flag = 0;
static double timeout_s = 0;
static CgtProgressSink sink = NULL;
static double last_progress = -1e9;

double cgt_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void on_alarm(int sig)
{
    (void)sig;
    timeout_flag = 1;
}

static void on_stop_signal(int sig)
{
    cgt_interrupt_signal = sig;
    cgt_interrupt_flag = 1;
}

void cgt_catch_stop_signals(void (*handler)(int))
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler ? handler : on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

/* Arm (seconds > 0) or disarm the interval timer `which`, whose signal
 * `sig` runs `handler` once when it expires. */
static void arm_timer(int which, int sig, void (*handler)(int), double seconds)
{
    struct itimerval it;
    memset(&it, 0, sizeof it);
    if (seconds > 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = handler;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;
        sigaction(sig, &sa, NULL);
        it.it_value.tv_sec = (time_t)seconds;
        it.it_value.tv_usec = (suseconds_t)((seconds - (double)(time_t)seconds) * 1e6);
        if (it.it_value.tv_sec == 0 && it.it_value.tv_usec == 0)
            it.it_value.tv_usec = 1;
    }
    setitimer(which, &it, NULL);
}

void cgt_set_timeout(double seconds)
{
    timeout_s = seconds;
    timeout_flag = 0;
    arm_timer(ITIMER_REAL, SIGALRM, on_alarm, seconds);
}

/* CPU-time deadlines, in absolute seconds of the process's CPU time
 * (0 = none): the whole run's (--timeout-cpu) and the innermost `timeout`
 * block's.  One ITIMER_PROF serves both: it is armed for the earlier one,
 * and armed_kind says which (timeout_flag 2 = the run's, 3 = the block's). */
static double timeout_cpu_s = 0;
static double cpu_run_deadline = 0;
static double cpu_block_deadline = 0;
static double block_s = 0; /* seconds of the innermost block */
static volatile sig_atomic_t armed_kind = 0;

static void on_prof(int sig)
{
    (void)sig;
    if (!timeout_flag)
        timeout_flag = armed_kind;
}

static void rearm_prof(void)
{
    double d = 0;
    int kind = 0;
    if (cpu_run_deadline > 0) {
        d = cpu_run_deadline;
        kind = 2;
    }
    if (cpu_block_deadline > 0 && (kind == 0 || cpu_block_deadline < d)) {
        d = cpu_block_deadline;
        kind = 3;
    }
    arm_timer(ITIMER_PROF, SIGPROF, on_prof, 0);
    if (!kind)
        return;
    armed_kind = kind;
    double left = d - cgt_cpu_seconds();
    if (left <= 0) {
        if (!timeout_flag)
            timeout_flag = kind;
        return;
    }
    arm_timer(ITIMER_PROF, SIGPROF, on_prof, left);
}

void cgt_set_timeout_cpu(double seconds)
{
    timeout_cpu_s = seconds;
    /* ITIMER_PROF counts the process's user and system time */
    cpu_run_deadline = seconds > 0 ? cgt_cpu_seconds() + seconds : 0;
    rearm_prof();
}

CgtBlockDeadline cgt_block_timeout_push(double seconds)
{
    CgtBlockDeadline saved = {cpu_block_deadline, block_s};
    double d = cgt_cpu_seconds() + seconds;
    /* an inner block cannot outlive the outer one */
    if (cpu_block_deadline > 0 && cpu_block_deadline < d) {
        d = cpu_block_deadline;
    } else {
        block_s = seconds;
    }
    cpu_block_deadline = d;
    rearm_prof();
    return saved;
}

bool cgt_block_timeout_pop(CgtBlockDeadline saved)
{
    bool fired = timeout_flag == 3;
    if (fired)
        timeout_flag = 0;
    cpu_block_deadline = saved.deadline;
    block_s = saved.seconds;
    rearm_prof();
    return fired;
}

bool cgt_run_limit_reached(void)
{
    return timeout_flag == 1 || timeout_flag == 2;
}

void cgt_fire_run_limit(void)
{
    timeout_flag = timeout_s == 0 && timeout_cpu_s > 0 ? 2 : 1;
}

/* The polls left before cgt_fire_run_limit_at_poll's limit fires.  Set
 * before any computation starts; the threads of a parallel run may poll at
 * once, hence the atomic count. */
static bool poll_countdown_armed = false;
static atomic_ullong poll_countdown;

void cgt_fire_run_limit_at_poll(unsigned long long n)
{
    atomic_store(&poll_countdown, n);
    poll_countdown_armed = n > 0;
}

/* The budget of cgt_poll_budget_push (single-threaded callers). */
static CgtPollBudget budget;

CgtPollBudget cgt_poll_budget_push(unsigned long long n)
{
    CgtPollBudget saved = budget;
    if (!budget.armed || n < budget.left)
        budget.left = n;
    budget.start = budget.left;
    budget.armed = true;
    budget.spent = false;
    return saved;
}

bool cgt_poll_budget_pop(CgtPollBudget saved)
{
    bool spent = budget.spent;
    unsigned long long used = budget.start - budget.left;
    if (saved.armed) {
        /* the outer budget pays for the polls of this one */
        saved.left = used < saved.left ? saved.left - used : 0;
        if (saved.left == 0)
            saved.spent = true;
    }
    budget = saved;
    return spent;
}

/* The cancel flag of this thread's piece (cgt_poll_set_cancel); an
 * atomic int read and written through __atomic builtins by par.c. */
static _Thread_local const int *poll_cancel = NULL;

void cgt_poll_set_cancel(const int *flag)
{
    poll_cancel = flag;
}

bool cgt_poll_budget_armed(void)
{
    return budget.armed;
}

double cgt_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

CgtStatus cgt_poll(void)
{
    if (cgt_interrupt_flag)
        return CGT_ERR_INTERRUPTED;
    if (timeout_flag)
        return CGT_ERR_LIMIT;
    if (poll_cancel && __atomic_load_n(poll_cancel, __ATOMIC_RELAXED))
        return CGT_ERR_LIMIT;
    if (poll_countdown_armed && atomic_fetch_sub(&poll_countdown, 1) == 1) {
        cgt_fire_run_limit();
        return CGT_ERR_LIMIT;
    }
    if (budget.armed) {
        if (budget.spent || budget.left == 0) {
            budget.spent = true;
            return CGT_ERR_LIMIT;
        }
        budget.left--;
    }
    return CGT_OK;
}

CgtStatus cgt_poll_error(CgtError *e, CgtStatus st, const char *what)
{
    if (st == CGT_ERR_INTERRUPTED) {
        if (cgt_interrupt_signal == SIGTERM || cgt_interrupt_signal == SIGHUP)
            return cgt_error_set(e, st, "%s interrupted by %s", what,
                                 cgt_interrupt_signal == SIGTERM ? "SIGTERM" : "SIGHUP");
        return cgt_error_set(e, st, "%s interrupted", what);
    }
    if (st == CGT_ERR_LIMIT && timeout_flag == 3) {
        cgt_error_set(e, st, "%s stopped: the CPU time limit of %g s of its timeout block was "
                      "reached", what, block_s);
        cgt_error_hint(e, "a larger `timeout SECONDS { ... }` gives it more time");
        return st;
    }
    if (st == CGT_ERR_LIMIT && timeout_flag == 2) {
        cgt_error_set(e, st, "%s stopped: CPU time limit of %g s reached", what, timeout_cpu_s);
        cgt_error_hint(e, "raise the limit with --timeout-cpu=SECONDS (0 = no limit)");
        return st;
    }
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

static CgtProgressEnd progress_end_hook = NULL;

void cgt_set_progress_end(CgtProgressEnd hook)
{
    progress_end_hook = hook;
}

void cgt_progress_end(void)
{
    if (progress_end_hook)
        progress_end_hook();
}

bool cgt_progress_enabled(void)
{
    return sink != NULL;
}

__attribute__((format(printf, 2, 0))) static void emit(const char *subsystem, const char *fmt,
                                                   va_list ap)
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

static CgtWarningSink warning_sink = NULL;

void cgt_set_warning_sink(CgtWarningSink s)
{
    warning_sink = s;
}

void cgt_warning(const char *fmt, ...)
{
    if (!warning_sink)
        return;
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    warning_sink(line);
}
