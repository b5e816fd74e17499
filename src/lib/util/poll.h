/* Interrupts, timeouts and progress for long computations.
 *
 * Library loops call cgt_poll() regularly (it is cheap: a flag test, and a
 * clock read every few thousand calls).  It returns CGT_OK,
 * CGT_ERR_INTERRUPTED (SIGINT seen) or CGT_ERR_LIMIT (--timeout passed);
 * on a non-OK result the loop fills its CgtError with cgt_poll_error() and
 * returns.  Progress lines go through cgt_progress(), which is throttled
 * and goes to a sink installed by the runtime (stderr, only on a terminal
 * or with --verbose); the default sink discards them, so library code never
 * prints. */
#ifndef CGT_UTIL_POLL_H
#define CGT_UTIL_POLL_H
#include <signal.h>
#include <stdbool.h>

#include "lib/util/error.h"

extern volatile sig_atomic_t cgt_interrupt_flag;
/* The signal that set the flag (SIGINT, SIGTERM or SIGHUP; 0 = none). */
extern volatile sig_atomic_t cgt_interrupt_signal;

/* Run handler on SIGINT, SIGTERM and SIGHUP (the signals that stop a
 * run); NULL: a handler that sets the two flags above, so that the next
 * cgt_poll returns CGT_ERR_INTERRUPTED. */
void cgt_catch_stop_signals(void (*handler)(int));
/* Cheap check for Ctrl-C and the deadline. */
CgtStatus cgt_poll(void);
/* Fill e for a status returned by cgt_poll (message names `what`). */
CgtStatus cgt_poll_error(CgtError *e, CgtStatus st, const char *what);
/* The largest --timeout accepted: about 31 years, far inside time_t. */
#define CGT_MAX_TIMEOUT 1e9
/* Deadline in seconds from now (0 = none, at most CGT_MAX_TIMEOUT).  Set
 * by the runtime. */
void cgt_set_timeout(double seconds);
/* The same deadline in seconds of the process's CPU time (user + system,
 * ITIMER_PROF), so runs on a loaded machine stop at the same point; 0 =
 * none.  Either limit gives CGT_ERR_LIMIT. */
void cgt_set_timeout_cpu(double seconds);
/* `timeout SECONDS { BLOCK }`: a CPU-time deadline for a part
 * of the run, nested inside the run's own limits.  push starts one (an
 * inner block never outlives the outer one) and returns what pop restores;
 * pop returns whether this block's deadline was reached (and clears that
 * condition, so that polling outside the block goes on). */
typedef struct CgtBlockDeadline {
    double deadline, seconds;
} CgtBlockDeadline;
CgtBlockDeadline cgt_block_timeout_push(double seconds);
bool cgt_block_timeout_pop(CgtBlockDeadline saved);
/* A budget of work for a part of a run, counted in cgt_poll calls (so the
 * point where it runs out depends only on the work done, not on the
 * machine): push starts one of n polls (n > 0), nested inside an outer one
 * (never past it); while it lasts, the poll that exhausts it and every
 * later one return CGT_ERR_LIMIT; pop restores the outer budget and
 * returns whether this one ran out.  It is not a run limit
 * (cgt_run_limit_reached stays false). */
typedef struct CgtPollBudget {
    unsigned long long left, start;
    bool armed, spent;
} CgtPollBudget;
CgtPollBudget cgt_poll_budget_push(unsigned long long n);
bool cgt_poll_budget_pop(CgtPollBudget saved);
/* The piece of a parallel run this thread works on may be cancelled
 * (src/lib/util/par.h): while *flag is true, cgt_poll returns
 * CGT_ERR_LIMIT on this thread.  NULL: no piece. */
void cgt_poll_set_cancel(const int *flag);
/* Whether a budget is in force (the parallel parts of a run then use one
 * thread, src/lib/util/par.h). */
bool cgt_poll_budget_armed(void);
/* True once --timeout or --timeout-cpu has passed: the whole run is over
 * (such a limit is not catchable by `try`). */
bool cgt_run_limit_reached(void);
/* Test hooks (docs/testing.md), so that tests stop a run at a known point
 * instead of racing a clock.  cgt_fire_run_limit makes the run's limit
 * pass now, as if its deadline had come: --timeout's, or --timeout-cpu's
 * when only that one is set.  cgt_fire_run_limit_at_poll(n) does so at the
 * n-th cgt_poll from now (0 = never), a point that depends only on the work
 * done, not on the machine's speed. */
void cgt_fire_run_limit(void);
void cgt_fire_run_limit_at_poll(unsigned long long n);
/* CPU seconds (user + system) used by the process so far. */
double cgt_cpu_seconds(void);
/* Monotonic seconds since an arbitrary origin. */
double cgt_now(void);

/* Progress: `subsystem` is a short word ("grundy", "quotient").  Lines are
 * dropped unless at least 0.25 s passed since the last one was shown;
 * cgt_progress_force() shows its line regardless (for phase changes). */
typedef void (*CgtProgressSink)(const char *subsystem, const char *line);
void cgt_set_progress_sink(CgtProgressSink sink);
bool cgt_progress_enabled(void);
void cgt_progress(const char *subsystem, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cgt_progress_force(const char *subsystem, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A sink may draw its lines as one transient status line (a terminal);
 * cgt_progress_end() erases it through the hook set here, before other
 * output and when a statement ends, so that no stale line is left. */
typedef void (*CgtProgressEnd)(void);
void cgt_set_progress_end(CgtProgressEnd hook);
void cgt_progress_end(void);

/* Warnings: conditions a user must hear about even without --verbose
 * (an old checkpoint format loaded without a checksum).  The runtime
 * installs a sink that prints "cgt: warning: LINE" on stderr; the default
 * discards them. */
typedef void (*CgtWarningSink)(const char *line);
void cgt_set_warning_sink(CgtWarningSink sink);
void cgt_warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
