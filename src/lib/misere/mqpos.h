/* The misère outcome of one position of a heap game through the quotient
 * machinery (docs/misere.md, "Outcomes through the quotient"), for
 * `outcome G [...]` when no quotient of the script covers the position.
 *
 * The engine extends Q(n) heap by heap up to the largest heap m of the
 * position.  When Q(m) is completed, it is certified (mq_certify, the
 * independent check) and the position, with every option, is read off it.
 * When the expansion of heap m does not close, each least failure F of it
 * is looked at: a trial labels every position smaller than F in the word
 * order correctly (docs/misere.md, "Word order and failures"; the
 * position and its options are smaller than F once F has more copies of a
 * heap or a larger heap), so the first trial whose least failure lies
 * above the position answers it.  Budgets (failures, trial sizes) end the
 * attempt; the caller then searches. */
#ifndef CGT_MISERE_MQPOS_H
#define CGT_MISERE_MQPOS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"
#include "lib/misere/misere.h"
#include "lib/misere/mqrun.h"
#include "lib/util/error.h"

typedef struct MqPosOptions {
    uint32_t max_size;     /* cap on |Q| and on trials (engine limit); 0 = 16,384 */
    uint64_t max_trial;    /* cap on raw trials; 0 = 4,000,000 */
    uint64_t max_failures; /* least failures of heap m looked at; 0 = 60 */
    uint64_t max_stall;    /* least failures of a smaller heap; 0 = 25 */
    uint64_t cert_states;  /* the certificate's cap; 0 = its default */
} MqPosOptions;

typedef enum {
    MQPOS_NONE,     /* not decided: see note */
    MQPOS_QUOTIENT, /* from the certified Q(heap) in q */
    MQPOS_TRIAL     /* from a trial of heap `heap`, correct below its least failure */
} MqPosRoute;

typedef struct MqPosResult {
    MqPosRoute route;
    bool is_p;
    uint32_t heap;      /* Q(heap), or the heap whose expansion gave the trial */
    Quotient *q;        /* MQPOS_QUOTIENT: owned (mq_pos_free), certified */
    MqVerdict verdict;  /* MQPOS_QUOTIENT: its certificate's verdict */
    uint32_t element;   /* MQPOS_QUOTIENT: the position's element of q */
    /* a winning move when the position is N: heap index into the input,
     * the option's parts (owned) */
    bool have_move;
    size_t move_index;
    uint32_t *move_into;
    size_t move_ninto;
    uint32_t *failure;  /* MQPOS_TRIAL: the least failure, heap+1 exponents (owned) */
    char note[700];     /* MQPOS_NONE: why not */
    uint32_t stuck;     /* MQPOS_NONE: a heap whose expansion passed a cap or the
                         * budget of a smaller heap (0: only this position's
                         * budget at heap m ran out) */
} MqPosResult;

/* Decide the misère outcome of heaps[0..k-1] (sizes <= 100000) of game.
 * eng (borrowed, may be NULL: a new engine with the caps of opt and the
 * recalibration policy MQ_RECAL_SMALLEST is used and freed) is the engine
 * to extend, so that a caller can keep one per game; on return it holds
 * the last completed heap.  Errors: interrupts and time limits, the
 * game's option errors; a budget running out is not an error
 * (MQPOS_NONE with a note). */
CgtStatus mq_pos_outcome(const HeapGame *game, MqEngine *eng, const uint32_t *heaps, size_t k,
                         const MqPosOptions *opt, MqPosResult *out, CgtError *err);
void mq_pos_free(MqPosResult *r);

#endif
