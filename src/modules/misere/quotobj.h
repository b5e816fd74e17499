/* The `quotient` value (src/modules/misere/quotobj.c; built by
 * src/modules/misere/bi_misere.c, whose functions for other files are in
 * src/modules/misere/bi_misere.h, from a result of the driver of
 * src/lib/misere/mqrun.h): the engine, its snapshot Q(n), the certificate
 * and periodicity, and for an infinite quotient its proof.  Shared with
 * src/modules/io/bi_io.c (save and load). */
#ifndef CGT_RUNTIME_QUOTOBJ_H
#define CGT_RUNTIME_QUOTOBJ_H
#include "lib/misere/misere.h"
#include "lib/explicit/impgame.h"
#include "lib/misere/mqinf.h"
#include "lib/misere/mqmix.h"
#include "runtime/interp.h"

typedef struct QuotObj {
    Value *game;     /* the game value (keeps the ruleset alive) */
    MqEngine *eng;
    Quotient *q;
    MqCertInfo cert;
    bool cert_done;
    bool cert_skip; /* `certify off` */
    uint64_t cert_states; /* `cert_states`, 0 = default */
    double cert_cpu, cert_wall; /* seconds spent in mq_certify */
    bool certified;
    char cert_note[600];
    bool have_period;
    MqPeriod period;
    bool partial;
    char partial_note[1400];
    /* Q(inf->N) proved infinite (src/lib/misere/mqinf.h); q is then Q(inf->N - 1) */
    MqInfProof *inf;
    char *proof_path;
    uint32_t asked; /* N of `to N` */
    uint32_t period_limit; /* without `to N`: the heap the periodicity search stops at */
    Value *semi;    /* monoid(q), made on first use (src/modules/misere/bi_mqalg.c) */
    /* A mixed or explicit-set quotient (src/modules/misere/bi_mqmix.c):
     * game is then the list of its parts' values (heap games, or explicit
     * games), mix the one heap game they make (src/lib/misere/mqmix.h),
     * and for an explicit set ids[j] the game of heap index j (ids[0] the
     * empty game). */
    MqMix *mix;
    bool explicit_set;
    IgId *ids;
    char **labels; /* explicit set: the text of the game of heap index j */
    uint32_t nids;
} QuotObj;

extern const ObjType quotient_type;

/* The name of the quotient's game in messages ("0.07", or the mixed
 * game's "[0.07 to 9, 0.77 to 9]"), and its heap game. */
const char *quot_game_name(const QuotObj *o);
const HeapGame *quot_heapgame(const QuotObj *o);

/* Release a QuotObj (the type's free function, also for one that failed
 * half-built). */
void quot_free(void *p);
/* The JSON array of the quotient's elements (only_p: of its P-portion),
 * as words (src/lib/rewrite/word.h). */
void quot_json_words(JsonWriter *w, const Quotient *q, bool only_p);

/* The record quotient(g, N) returns (docs/language.md "Results as
 * records"), for the quotient value qv: its numbers and, in field q, qv
 * itself.  load checks a saved record against the one its q gives. */
Value *quot_record(Value *qv);

#endif
