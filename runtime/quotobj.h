/* The `quotient` value (runtime/bi_misere.c): the engine, its snapshot
 * Q(n), the certificate and periodicity, and for an infinite quotient its
 * proof.  Shared with runtime/bi_io.c (save and load). */
#ifndef CGT_RUNTIME_QUOTOBJ_H
#define CGT_RUNTIME_QUOTOBJ_H
#include "algebra/misere.h"
#include "algebra/mqinf.h"
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
    /* Q(inf->N) proved infinite (algebra/mqinf.h); q is then Q(inf->N - 1) */
    MqInfProof *inf;
    char *proof_path;
    uint32_t asked; /* N of `to N` */
} QuotObj;

extern const ObjType quotient_type;

/* Snapshot, certificate and periodicity of the engine's current state:
 * sets o->q (with the generator names, NULL = a, b, c, ...), o->certified
 * (unless o->cert_skip) and o->period.  Records an error and returns false
 * when the names do not fit or the snapshot fails. */
bool quot_snapshot(Call *c, QuotObj *o, char **names, int nnames, Loc loc);

#endif
