/* Heaps of several kinds in one quotient (docs/misere.md, "Mixed and
 * explicit-set quotients").  Plambeck and Siegel ("Misère quotients for
 * impartial games", JCTA 115 (2008)) define the misère quotient of any
 * set A of games closed under taking options, positions being the finite
 * sums of members of A.  An MqMix makes such a set one heap game of the
 * interface of src/lib/heap/heapgame.h, so that the engine, the snapshot
 * and the certificate of this folder work on it unchanged: its heap
 * indices are
 *
 *   0                          the empty game,
 *   off(i)+1 .. off(i)+n_i     heaps 1..n_i of part i,
 *
 * with off(0) = 0 and off(i+1) = off(i) + n_i.  A part is either heaps
 * 1..n of a heap game (its options, multisets of smaller heaps of the
 * same game, are moved by off(i)), or a table of games whose options are
 * single earlier games of the table (index 0 standing for the empty game),
 * as the followers of explicit games are.  Every option of a heap has
 * smaller indices, as the word order of the engine needs. */
#ifndef CGT_MISERE_MQMIX_H
#define CGT_MISERE_MQMIX_H
#include <stddef.h>
#include <stdint.h>

#include "lib/heap/heapgame.h"

typedef struct MqMixPart {
    const HeapGame *game; /* borrowed; NULL for a table part */
    uint32_t n;           /* heaps 1..n */
    /* table part: the options of heap j (1..n) are the single heaps
     * opts[start[j-1] .. start[j]-1], each in 0..j-1 (0 = the empty game) */
    const uint32_t *start; /* n+1 offsets (start[0] = 0) */
    const uint32_t *opts;
} MqMixPart;

typedef struct MqMix MqMix;

/* The mixed game of parts[0..k-1] (copied; the games borrowed, the tables
 * copied), named `name` (copied).  Its max_take is -1 (no periodicity). */
MqMix *mqmix_new(const MqMixPart *parts, size_t k, const char *name);
void mqmix_free(MqMix *m);
/* Its heap-game interface (borrowed; lives as long as m). */
const HeapGame *mqmix_heapgame(const MqMix *m);
size_t mqmix_parts(const MqMix *m);
uint32_t mqmix_part_size(const MqMix *m, size_t i);
/* The heap index of heap h (0..n_i) of part i; h = 0 gives 0. */
uint32_t mqmix_index(const MqMix *m, size_t i, uint32_t h);
/* Largest heap index (the quotient's heap bound). */
uint32_t mqmix_top(const MqMix *m);

#endif
