/* The misère-quotient driver (src/lib/misere/mqrun.h, docs/misere.md "The
 * driver"): the loop over heaps of the `quotient` statement, its
 * checkpoint cadence, the infinite-quotient decision of each heap
 * (docs/misere.md "Infinite quotients: decided, proved, described"), the
 * snapshot and its certificate, and the messages of every way it ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/misere/mqrun.h"
#include "lib/util/atomicfile.h"
#include "lib/util/poll.h"

void mq_verdict(const Quotient *q, const HeapGame *game, bool run, uint64_t max_states,
                MqVerdict *v)
{
    memset(v, 0, sizeof *v);
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = CGT_OK;
    if (!run) {
        snprintf(v->note, sizeof v->note, "certificate not run (`certify off`)");
    } else {
        double w0 = cgt_now(), c0 = cgt_cpu_seconds();
        st = mq_certify(q, game, max_states, &v->cert, &err);
        v->cpu = cgt_cpu_seconds() - c0;
        v->wall = cgt_now() - w0;
        v->ran = true;
        if (st != CGT_OK) {
            snprintf(v->note, sizeof v->note, "certificate check stopped: %s", err.msg);
        } else {
            v->certified = v->cert.labelling_ok && v->cert.reduced_ok && v->cert.generated_ok;
            if (!v->certified)
                snprintf(v->note, sizeof v->note,
                         "certificate FAILED (monoid %s, labelling %s, reduced %s, generated %s)",
                         v->cert.monoid_ok ? "ok" : "wrong", v->cert.labelling_ok ? "ok" : "wrong",
                         v->cert.reduced_ok ? "yes" : "no", v->cert.generated_ok ? "yes" : "no");
        }
    }
    v->period = quotient_periodicity(q, game->max_parts, game->max_take);
}

void mq_run_options_init(MqRunOptions *o)
{
    memset(o, 0, sizeof *o);
    o->to = -1;
    o->limit = 200;
    o->save_every = 30;
    o->recal = MQ_RECAL_FIRST;
    o->threads = 1;
    o->certify = true;
    o->decide = true;
}

void mq_run_free(MqRun *r)
{
    mqinf_proof_free(r->inf);
    quotient_free(r->q);
    mq_free(r->eng);
    r->inf = NULL;
    r->q = NULL;
    r->eng = NULL;
}

/* The snapshot of the engine's current state and its verdict; false (with
 * r->err) when the names do not fit or the snapshot fails. */
static bool snapshot(const MqRunOptions *o, MqRun *r, const char *const *names, int nnames)
{
    if (names && nnames != mq_current_ngens(r->eng)) {
        cgt_error_set(&r->err, CGT_ERR_DOMAIN, "%d names given, but Q(%u) has %d generators",
                      nnames, mq_heaps_done(r->eng), mq_current_ngens(r->eng));
        cgt_error_hint(&r->err, "omit `names` to see the generators first");
        return false;
    }
    r->q = mq_quotient(r->eng, names, names ? nnames : 0, &r->err);
    if (!r->q)
        return false;
    mq_verdict(r->q, o->game, o->certify, o->cert_states, &r->verdict);
    MqVerdict *v = &r->verdict;
    if (v->ran && !v->certified && strncmp(v->note, "certificate FAILED", 18) == 0)
        strncat(v->note, ": please report", sizeof v->note - strlen(v->note) - 1);
    return true;
}

/* What the decision of heap h tried, for the notes of a partial result
 * (only when it tried something). */
static void decision_note(MqInf *inf, uint32_t h, char *tried, size_t cap)
{
    const char *lg = mqinf_log(inf);
    const char *last = lg;
    for (const char *q = lg; *q; q++)
        if (q[0] == '\n' && q[1])
            last = q + 1;
    const char *grow = mqinf_growing(inf);
    if (*lg)
        snprintf(tried, cap,
                 "infinite-quotient decision for heap %u: undecided (most copies of heap %u in "
                 "a least failure: %u%s%.*s%s%s)",
                 h, h, mqinf_max_copies(inf), *last ? "; last attempt: " : "",
                 (int)strcspn(last, "\n"), last, *grow ? "; " : "", grow);
}

/* The state of one run between its phases. */
typedef struct Run {
    const MqRunOptions *o;
    MqRun *r;
    const char *ckpt;  /* the checkpoint to save, NULL when none is (or one is left alone) */
    uint32_t ck_heaps; /* heaps the file held when it was read */
    double last_save;
    CgtError err;      /* why the construction stopped */
    CgtError save_err; /* why a save failed */
    char tried[700];   /* what the last decision tried */
} Run;

/* Save the checkpoint when it is due (or forced) and it would hold more
 * heaps than the file read; false when the save failed. */
static bool save_due(Run *R, bool force)
{
    MqRun *r = R->r;
    if (!R->ckpt || mq_heaps_done(r->eng) <= R->ck_heaps ||
        (!force && cgt_now() - R->last_save <= R->o->save_every))
        return true;
    if (mq_save(r->eng, R->ckpt, &R->save_err) != CGT_OK)
        return false;
    r->ck_holds = mq_heaps_done(r->eng);
    R->last_save = cgt_now();
    return true;
}

/* Read the checkpoint (docs/errors.md, "Files cgt writes and reads
 * back"): a file that exists is always read, and refused untouched if it
 * fails any check; one that covers more heaps than asked for is left
 * alone and Q(n) computed afresh; an unwritable path fails before the
 * computation.  Creates the engine; false with r->err on an error. */
static bool open_engine(Run *R)
{
    const MqRunOptions *o = R->o;
    MqRun *r = R->r;
    if (R->ckpt) {
        bool absent = false, keep = false;
        r->eng = mq_load(R->ckpt, o->game, &o->limits, &absent, &r->err);
        if (!r->eng && !absent)
            return false;
        uint32_t want = o->to >= 0 ? (uint32_t)o->to : o->limit;
        if (r->eng && mq_heaps_done(r->eng) > want) {
            cgt_progress_force("quotient", "%s covers heaps 0..%u, more than the %u asked for: "
                               "computing afresh and leaving the file as it is", R->ckpt,
                               mq_heaps_done(r->eng), want);
            mq_free(r->eng);
            r->eng = NULL;
            keep = true;
        } else if (r->eng) {
            R->ck_heaps = r->ck_holds = mq_heaps_done(r->eng);
            cgt_progress_force("quotient", "resumed %s from %s at heap %u", o->name, R->ckpt,
                               R->ck_heaps);
        }
        bool more = !r->eng || mq_heaps_done(r->eng) < want; /* a save will follow */
        cgt_error_clear(&r->err);
        if (!keep && more && af_probe(R->ckpt, "checkpoint", &r->err) != CGT_OK)
            return false;
        if (keep)
            R->ckpt = NULL;
    }
    if (!r->eng)
        r->eng = mq_new(o->game, &o->limits);
    mq_set_recalibration(r->eng, o->recal);
    mq_set_threads(r->eng, o->threads);
    if (o->track_bound)
        mq_set_track_bound(r->eng, true);
    return true;
}

/* `to N` past a heap proved infinite: the description of that heap is
 * carried to the heaps after it one at a time (docs/misere.md, "Beyond the
 * first infinite heap"), each step proved by the certificate; the first
 * heap it does not cover ends the run with the reason in ext_stop.  A
 * limit or an interrupt stops it with the description of the last heap
 * covered, which is proved. */
static CgtStatus run_beyond(Run *R, uint32_t n)
{
    MqInfProof *p = R->r->inf;
    CgtStatus st = CGT_OK;
    double c0 = cgt_cpu_seconds();
    while (p->N < n && st == CGT_OK) {
        bool ok = false;
        char why[sizeof p->ext_stop];
        st = mqinf_extend(p, R->o->game, 0, &ok, why, sizeof why, &R->err);
        if (st != CGT_OK)
            break;
        if (!ok) {
            snprintf(p->ext_stop, sizeof p->ext_stop, "%s", why);
            break;
        }
        cgt_progress_force("quotient",
                           "heap %u of %u: described (%u states, %llu pairs), %.1f s CPU past "
                           "heap %u",
                           p->N, n, p->S, (unsigned long long)p->pairs, cgt_cpu_seconds() - c0,
                           mqinf_first(p));
    }
    if (st != CGT_OK)
        snprintf(p->ext_stop, sizeof p->ext_stop, "heap %u was not completed (%.300s)", p->N + 1,
                 R->err.msg);
    return st;
}

/* `to N`: heap after heap up to N, each with its own decision run. */
static CgtStatus run_to(Run *R)
{
    const MqRunOptions *o = R->o;
    MqRun *r = R->r;
    const HeapGame *hg = o->game;
    uint32_t n = (uint32_t)o->to;
    CgtStatus st = CGT_OK;
    double c_start = cgt_cpu_seconds();
    uint32_t h_first = mq_heaps_done(r->eng) + 1;
    for (uint32_t h = h_first; h <= n && st == CGT_OK; h++) {
        MqInf *inf = o->decide ? mqinf_new(hg, h, r->eng, 0) : NULL;
        if (inf)
            mq_set_failure_hook(r->eng, mqinf_hook, inf);
        st = mq_extend_to(r->eng, h, &R->err);
        mq_set_failure_hook(r->eng, NULL, NULL);
        if (inf && mqinf_result(inf)) {
            r->inf = mqinf_take(inf);
            r->asked = n;
            st = CGT_OK;
            cgt_error_clear(&R->err);
        } else if (inf && st != CGT_OK) {
            decision_note(inf, h, R->tried, sizeof R->tried);
        }
        mqinf_free(inf);
        if (r->inf) {
            save_due(R, true);
            break;
        }
        if (st == CGT_OK && h < n) {
            /* mean CPU per heap so far; later heaps are usually slower */
            double used = cgt_cpu_seconds() - c_start;
            cgt_progress("quotient",
                         "heap %u of %u: |Q|=%u |P|=%u, construction, %.1f s CPU; at least "
                         "%.0f s more at this rate, then the certificate",
                         h, n, mq_current_size(r->eng), mq_current_psize(r->eng), used,
                         used / (h + 1 - h_first) * (n - h));
        }
        if (!save_due(R, st != CGT_OK || h == n))
            break;
    }
    if (st == CGT_OK && r->inf && n > r->inf->N)
        st = run_beyond(R, n);
    return st;
}

/* No bound: one heap at a time until the pretending function is proved
 * periodic or heap `limit` is done, so that the checkpoint is saved on
 * time; one decision run follows the whole construction.  *complete: the
 * run reached its end (it did not stop at a failed save). */
static CgtStatus run_until_periodic(Run *R, bool *complete)
{
    const MqRunOptions *o = R->o;
    MqRun *r = R->r;
    CgtStatus st = CGT_OK;
    MqPeriod per;
    MqInf *inf = o->decide ? mqinf_new(o->game, 0, r->eng, 0) : NULL;
    if (inf)
        mq_set_failure_hook(r->eng, mqinf_hook, inf);
    for (uint32_t h = mq_heaps_done(r->eng) + 1;; h++) {
        st = mq_run_until_periodic(r->eng, h < o->limit ? h : o->limit, &per, &R->err);
        if (inf && mqinf_result(inf)) {
            /* the heap being expanded is proved infinite */
            r->inf = mqinf_take(inf);
            r->asked = r->inf->N;
            st = CGT_OK;
            cgt_error_clear(&R->err);
        }
        bool last = st != CGT_OK || per.found || h >= o->limit || r->inf;
        if (!save_due(R, last))
            break;
        if (last) {
            *complete = true;
            break;
        }
    }
    mq_set_failure_hook(r->eng, NULL, NULL);
    mqinf_free(inf);
    return st;
}

/* A limit or an interrupt stopped the construction: the last completed
 * heap becomes a labelled partial result, with a hint on what to do next. */
static void stopped(Run *R)
{
    const MqRunOptions *o = R->o;
    MqRun *r = R->r;
    uint32_t done = mq_heaps_done(r->eng);
    const char *holder = o->holder ? o->holder : "the quotient";
    const char *sep = R->tried[0] ? "; " : "";
    const MqStats *bs = mq_stats(r->eng);
    uint32_t fail_heap = bs->fail_heap, fail_copies = bs->fail_copies;
    if (r->inf) {
        /* stopped past the infinite heap: the description of the last heap
         * covered is proved, and is the partial result (with its proof) */
        snprintf(r->partial_note, sizeof r->partial_note,
                 "Q(%u) is infinite (proved) and described up to heap %u; %s",
                 mqinf_first(r->inf), r->inf->N, r->inf->ext_stop);
        r->partial = true;
        if (!snapshot(o, r, NULL, 0))
            return;
        if (o->proof && mqinf_write(r->inf, o->proof_game ? o->proof_game : o->name, o->proof,
                                    &r->err) == CGT_OK)
            r->proof_written = true;
        r->status = MQ_RUN_STOPPED;
        r->err = R->err;
        cgt_error_hint(&r->err, "%s holds Q(%u), infinite, described up to heap %u%s%s", holder,
                       mqinf_first(r->inf), r->inf->N,
                       r->proof_written ? "; its proof is in " : "",
                       r->proof_written ? o->proof : "");
        return;
    }
    if (o->track_bound && bs->bound_heap == done + 1 && bs->bound_size > 0) {
        snprintf(r->partial_note, sizeof r->partial_note,
                 "only heaps 0..%u; heap %u was not completed (%s); lower bound |Q(%u)| >= %u "
                 "(all games with at most %u heaps of size %u proved correctly labelled)%s%s",
                 done, done + 1, R->err.msg, bs->bound_heap, bs->bound_size, bs->bound_copies,
                 bs->bound_heap, sep, R->tried);
        snprintf(r->notice, sizeof r->notice, "lower bound: |Q(%u)| >= %u", bs->bound_heap,
                 bs->bound_size);
    } else {
        snprintf(r->partial_note, sizeof r->partial_note,
                 "only heaps 0..%u; heap %u was not completed (%s)%s%s", done, done + 1,
                 R->err.msg, sep, R->tried);
    }
    r->partial = true;
    if (!snapshot(o, r, NULL, 0))
        return; /* r->err: why the snapshot failed */
    r->status = MQ_RUN_STOPPED;
    r->err = R->err;
    if (R->ckpt && R->save_err.status != CGT_OK)
        cgt_error_hint(&r->err, "the checkpoint could not be saved: %s", R->save_err.msg);
    else if (R->ckpt && r->ck_holds > 0)
        cgt_error_hint(&r->err, "the checkpoint %s holds heaps 0..%u; run again to resume from "
                                "heap %u", R->ckpt, r->ck_holds, r->ck_holds + 1);
    else if (R->ckpt)
        cgt_error_hint(&r->err, "no heap was completed: nothing is saved in %s", R->ckpt);
    else if (R->tried[0])
        cgt_error_hint(&r->err,
                       "%s holds the partial result Q(%u); %s; proved lower bound |Q(%u)| >= "
                       "|Q(%u)| = %u%s",
                       holder, done, R->tried, done + 1, done, quotient_size(r->q),
                       o->track_bound ? "" : " (`bound` adds the engine-trusted bound)");
    else if (fail_heap == done + 1 && fail_copies >= 4)
        cgt_error_hint(&r->err,
                       "%s holds the partial result Q(%u); the least failures reached %u copies "
                       "of heap %u: Q(%u) may be infinite (docs/misere.md)",
                       holder, done, fail_copies, fail_heap, fail_heap);
    else
        cgt_error_hint(&r->err, "%s holds the partial result Q(%u)", holder, done);
}

/* The construction ended: snapshot, certificate and proof file, and the
 * status of a complete result. */
static void finished(Run *R, double t_start, double c_start)
{
    const MqRunOptions *o = R->o;
    MqRun *r = R->r;
    double t_cert = cgt_now(), c_cert = cgt_cpu_seconds();
    r->build_cpu = c_cert - c_start;
    r->build_wall = t_cert - t_start;
    if (!snapshot(o, r, o->names, o->nnames)) {
        r->at = o->names ? MQ_AT_NAMES : MQ_AT_RUN;
        return;
    }
    if (r->inf && o->proof) {
        if (mqinf_write(r->inf, o->proof_game ? o->proof_game : o->name, o->proof, &r->err) !=
            CGT_OK) {
            r->at = MQ_AT_PROOF;
            return;
        }
        r->proof_written = true;
    }
    r->snap_cpu = cgt_cpu_seconds() - c_cert - r->verdict.cpu;
    if (R->save_err.status != CGT_OK) {
        /* the quotient is complete but the final save failed: keep the
         * result and report why the file could not be written */
        r->status = MQ_RUN_UNSAVED;
        r->at = MQ_AT_CHECKPOINT;
        r->err = R->save_err;
        if (o->holder)
            cgt_error_hint(&r->err, "%s holds the result Q(%u); it was not saved", o->holder,
                           mq_heaps_done(r->eng));
        return;
    }
    if (!r->verdict.certified && r->verdict.ran) {
        /* never an uncertified quotient as if certified */
        bool halted = strncmp(r->verdict.note, "certificate check stopped", 25) == 0;
        r->status = MQ_RUN_UNCERTIFIED;
        cgt_error_set(&r->err, halted ? CGT_ERR_LIMIT : CGT_ERR_INTERNAL,
                      "Q(%u) of %s is NOT certified: %s", mq_heaps_done(r->eng), o->name,
                      r->verdict.note);
        if (o->holder)
            cgt_error_hint(&r->err, "%s holds the uncertified quotient; `certify off` asks for "
                                    "it explicitly", o->holder);
        return;
    }
    r->status = MQ_RUN_DONE;
}

void mq_run(const MqRunOptions *o, MqRun *r)
{
    memset(r, 0, sizeof *r);
    r->status = MQ_RUN_FAILED;
    r->at = MQ_AT_RUN;
    cgt_error_clear(&r->err);
    Run R;
    memset(&R, 0, sizeof R);
    R.o = o;
    R.r = r;
    R.ckpt = o->checkpoint;
    cgt_error_clear(&R.err);
    cgt_error_clear(&R.save_err);
    if (!open_engine(&R)) {
        r->at = MQ_AT_CHECKPOINT;
        goto out;
    }
    if (o->proof && af_probe(o->proof, "proof file", &r->err) != CGT_OK) {
        /* an unwritable proof path fails now, not after the computation */
        r->at = MQ_AT_PROOF;
        goto out;
    }
    double t_start = cgt_now(), c_start = cgt_cpu_seconds();
    R.last_save = t_start;
    bool complete = false; /* the computation ran to its end */
    CgtStatus st;
    if (o->to >= 0) {
        st = run_to(&R);
        complete = st == CGT_OK && (mq_heaps_done(r->eng) >= (uint32_t)o->to || r->inf);
    } else {
        st = run_until_periodic(&R, &complete);
    }
    if (R.save_err.status != CGT_OK && st == CGT_OK && !complete) {
        /* a save on the way failed: stop with its reason */
        r->err = R.save_err;
        r->at = MQ_AT_CHECKPOINT;
    } else if (st == CGT_ERR_LIMIT || st == CGT_ERR_INTERRUPTED) {
        stopped(&R);
    } else if (st != CGT_OK) {
        r->err = R.err;
    } else {
        finished(&R, t_start, c_start);
    }
out:
    if (r->status == MQ_RUN_FAILED)
        mq_run_free(r);
}
