/* Independent pieces of work on several threads.
 *
 * cgt_par_run_first runs the pieces fn(ctx, i), i in 0..n-1, of a search
 * that ends at its first piece of some kind, on up to `threads` threads,
 * the calling thread being one of them, and returns when every piece
 * started is done.  Which thread runs which piece is not fixed: a caller
 * keeps each piece's result apart and judges them in index order
 * afterwards, so that its result is the one a single thread gives.  A
 * piece must not print, must not call cgt_progress, and may call cgt_poll
 * (the flags it reads are set by signals and the run's limits; a poll
 * budget, cgt_poll_budget_push, is for single-threaded callers only, see
 * cgt_par_threads).  Threads that cannot be started leave their pieces to
 * the others, so the pieces always run.
 *
 * The default number of threads (1 unless the program sets it: `cgt
 * --threads=N` or CGT_THREADS) is the default of `quotient`'s `threads`
 * option (docs/misere.md "Two threads"). */
#ifndef CGT_UTIL_PAR_H
#define CGT_UTIL_PAR_H
#include <stdbool.h>
#include <stddef.h>

/* More threads than this is a typing error. */
#define CGT_THREADS_MAX 64

/* The pieces start in increasing i; when fn(ctx, i) returns true, no piece
 * after i starts, and the pieces after i that are running are cancelled
 * (their cgt_poll returns CGT_ERR_LIMIT from then on; their results are
 * to be dropped).  Every piece up to the least i whose fn returned true
 * (all n pieces if none did) has run to its end uncancelled; the caller
 * judges those in order with a rule that stops at or before that i.
 * Returns that i, or n. */
typedef bool (*CgtParFirstFn)(void *ctx, size_t i);
size_t cgt_par_run_first(unsigned threads, size_t n, CgtParFirstFn fn, void *ctx);

/* The threads a parallel part of a run may use: `wanted` (at least 1), or
 * 1 while a poll budget is armed (its count of polls would then depend on
 * how the threads interleave). */
unsigned cgt_par_threads(unsigned wanted);

/* The program's default number of threads (1 to CGT_THREADS_MAX). */
void cgt_set_default_threads(unsigned n);
unsigned cgt_default_threads(void);

#endif
