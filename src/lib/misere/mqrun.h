/* The misère-quotient driver (docs/misere.md "The driver"): Q(n) of a heap
 * game heap by heap with checkpoints saved on the way, the decision that
 * a heap's quotient is infinite (src/lib/misere/mqinf.h), the snapshot,
 * the certificate policy and the proof file of an infinite quotient.  The
 * `quotient` statement (src/modules/misere/bi_misere.c) reads its options
 * into MqRunOptions, calls mq_run and wraps the MqRun it gets back.
 *
 * Nothing here prints: progress goes through cgt_progress
 * (src/lib/util/poll.h); errors, hints and the partial-result notes are
 * returned as text in MqRun.  Limits (--timeout, Ctrl-C, MqLimits) stop
 * the engine at its next cgt_poll, and the driver keeps the last completed
 * heap as a partial result. */
#ifndef CGT_MISERE_MQRUN_H
#define CGT_MISERE_MQRUN_H
#include <stdbool.h>
#include <stdint.h>

#include "lib/misere/misere.h"
#include "lib/misere/mqinf.h"
#include "lib/util/error.h"

/* The certificate policy of a snapshot: run mq_certify (unless asked
 * not to), name what it found, and the periodicity of the pretending
 * function. */
typedef struct MqVerdict {
    bool ran;        /* the certificate ran (not `certify off`) */
    bool certified;  /* it ran to its end and every check held */
    MqCertInfo cert;
    char note[600];  /* why not certified ("certificate not run (`certify off`)",
                      * "certificate check stopped: ...", "certificate FAILED (...)") */
    double cpu, wall; /* seconds in mq_certify */
    MqPeriod period; /* quotient_periodicity of the snapshot */
} MqVerdict;

/* Certify q as the quotient of game on its heaps (unless run is false)
 * with at most max_states states (0 = the default of mq_certify), and
 * fill *v. */
void mq_verdict(const Quotient *q, const HeapGame *game, bool run, uint64_t max_states,
                MqVerdict *v);

typedef struct MqRunOptions {
    const HeapGame *game;  /* borrowed; must outlive the result's engine */
    const char *name;      /* the game's name in messages ("0.07") */
    int64_t to;            /* compute Q(to); -1: heap by heap until the pretending
                            * function is periodic or heap `limit` is done */
    uint32_t limit;        /* default 200 */
    MqLimits limits;       /* size caps of the engine (zeros: its defaults) */
    const char *checkpoint; /* engine checkpoint (NULL = none): read if it exists,
                            * saved every save_every seconds and at the end */
    double save_every;     /* default 30 */
    MqRecal recal;         /* default MQ_RECAL_FIRST */
    unsigned threads;      /* default 1: mq_set_threads (the result does not depend on it) */
    bool certify;          /* default true; false: the snapshot is not certified */
    uint64_t cert_states;  /* the certificate's state cap (0 = its default) */
    bool track_bound;      /* keep the lower bound of an unfinished heap (MqStats) */
    bool decide;           /* default true: decide whether a heap's quotient is
                            * infinite when its expansion keeps failing */
    const char *proof;     /* write the proof of an infinite quotient there (needs decide) */
    const char *proof_game; /* the proof file's game line ("octal 0.07") */
    const char *const *names; /* generator names of the snapshot (NULL = a, b, ...) */
    int nnames;
    const char *holder;    /* what holds the result, in hints ("q"); NULL: nothing
                            * does (hints of a partial result say "the quotient") */
} MqRunOptions;

void mq_run_options_init(MqRunOptions *o);

typedef enum {
    MQ_RUN_DONE,        /* Q(n) computed (or proved infinite), certified unless
                         * certify is off */
    MQ_RUN_STOPPED,     /* a limit or an interrupt stopped the construction (err):
                         * the result is the partial Q(last completed heap) */
    MQ_RUN_UNSAVED,     /* the result is complete, but the last checkpoint save
                         * failed (err) */
    MQ_RUN_UNCERTIFIED, /* the result is complete, but its certificate failed or
                         * stopped (err: CGT_ERR_INTERNAL or CGT_ERR_LIMIT) */
    MQ_RUN_FAILED       /* an error (err); no result */
} MqRunStatus;

/* Which option an error is about (where a diagnostic points). */
typedef enum { MQ_AT_RUN, MQ_AT_CHECKPOINT, MQ_AT_PROOF, MQ_AT_NAMES } MqRunAt;

typedef struct MqRun {
    MqRunStatus status;
    MqRunAt at;
    CgtError err;          /* for every status but MQ_RUN_DONE: message and hint */
    /* The result (all but MQ_RUN_FAILED); owned here until taken (set to
     * NULL) and released by mq_run_free. */
    MqEngine *eng;
    Quotient *q;           /* the snapshot: Q(n), or Q(N-1) when inf proves Q(N) infinite */
    MqInfProof *inf;
    uint32_t asked;        /* the heap bound asked for, when inf is set */
    MqVerdict verdict;
    bool partial;          /* MQ_RUN_STOPPED */
    char partial_note[1400]; /* "only heaps 0..n; heap n+1 was not completed (...)" */
    char notice[160];      /* a line to show at once (the lower bound of `bound`), or "" */
    bool proof_written;    /* the proof file was written at options.proof */
    uint32_t ck_holds;     /* heaps the checkpoint file holds at the end (0 = none) */
    double build_cpu, build_wall; /* seconds of the construction */
    double snap_cpu;       /* CPU seconds of the snapshot and periodicity */
} MqRun;

/* Run the driver; *r is filled in every case (see MqRunStatus). */
void mq_run(const MqRunOptions *o, MqRun *r);
/* Release what r still owns. */
void mq_run_free(MqRun *r);

#endif
