/* Results as values: the records that the function forms
 * of computing statements return (`r = period(g)`, `quotient(g, 24)`, ...).
 * Every builder returns a new VAL_MAP whose fields are documented in
 * docs/language.md ("Results as records"). */
#ifndef CGT_RUNTIME_RESULTS_H
#define CGT_RUNTIME_RESULTS_H
#include <stddef.h>
#include <stdint.h>

#include "lib/grundy/grundy.h"
#include "runtime/interp.h"

/* period(g): game, period, preperiod, saltus, proved, status, proved_at,
 * last_exceptional, exceptional (list of heaps), checked, limit.  A game
 * with no period found has period, preperiod, proved_at and
 * last_exceptional null. */
Value *period_record(const char *game, const GrundyPeriod *p, const uint64_t *exc, size_t nexc,
                     uint64_t limit);

/* A value or null: integer, or null when `have` is false. */
void rec_set_opt_int(Value *m, const char *key, bool have, int64_t x);

#endif
