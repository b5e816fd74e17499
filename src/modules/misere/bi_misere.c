/* Builtins of the misère-quotient module (docs/misere.md): the `quotient`
 * declaration, printing (print, rewriting, ptypes, pretend, elements),
 * products and outcomes in a quotient, and small accessors; `verify` is
 * in bi_verify.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/kb.h"
#include "lib/misere/misere.h"
#include "lib/rewrite/wordparse.h"
#include "modules/misere/mqinfrt.h"
#include "modules/misere/quotobj.h"
#include "modules/misere/module.h"
#include "modules/kb/kbprint.h"
#include "modules/games/gameobj.h"
#include "modules/games/heaps.h"
#include "modules/kb/semiobj.h"
#include "lib/util/atomicfile.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"



static GameObj *qgame(const QuotObj *o) { return game_of(o->game); }

/* ---- construction ---- */

static char **split_names(const char *s, int *count)
{
    char **out = NULL;
    int n = 0;
    const char *p = s;
    while (*p) {
        while (*p == ' ' || *p == ',')
            p++;
        if (!*p)
            break;
        const char *q = p;
        while (*q && *q != ' ' && *q != ',')
            q++;
        out = xrealloc(out, (size_t)(n + 1) * sizeof *out);
        out[n++] = xstrndup(p, (size_t)(q - p));
        p = q;
    }
    *count = n;
    return out;
}

static void free_names(char **names, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

/* Names of the quotient's generators are printed side by side with powers
 * `^k` (`x^2z`, src/lib/rewrite/word.h), like the generators of a presentation, so
 * they must be distinct words of letters, none the identity "1" and none a
 * prefix of another (names such as "x x" or "1 2" would make the printed
 * words unreadable).  The default names a..z, A..Z, g52, g53, ... extend `g` only by
 * digits, which never follow a name in a printed word, so they read back
 * too (src/lib/rewrite/wordparse.h). */
static bool check_names(Call *c, char **names, int n)
{
    Loc loc = call_opt_loc(c, "names");
    for (int i = 0; i < n; i++) {
        for (const char *p = names[i]; *p; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))) {
                rt_error(c->I, DIAG_DOMAIN, loc, "generator name '%s' is not a word of letters",
                         names[i]);
                rt_hint(c->I, "words print as names side by side with powers (x^2z), so names are "
                             "letters");
                return false;
            }
        for (int j = 0; j < i; j++) {
            const char *a = names[j], *b = names[i];
            if (strcmp(a, b) == 0) {
                rt_error(c->I, DIAG_DOMAIN, loc, "generator '%s' named twice", a);
                return false;
            }
            size_t la = strlen(a), lb = strlen(b);
            if (strncmp(a, b, la < lb ? la : lb) == 0) {
                rt_error(c->I, DIAG_DOMAIN, loc,
                         "generator name '%s' is a prefix of '%s': words would be ambiguous",
                         la < lb ? a : b, la < lb ? b : a);
                return false;
            }
        }
    }
    return true;
}

void quot_certify(QuotObj *o)
{
    CgtError err;
    cgt_error_clear(&err);
    const HeapGame *hg = ruleset_heapgame(qgame(o)->rs);
    CgtStatus st = CGT_OK;
    if (o->cert_skip)
        snprintf(o->cert_note, sizeof o->cert_note, "certificate not run (`certify off`)");
    else {
        double w0 = cgt_now(), c0 = cgt_cpu_seconds();
        st = mq_certify(o->q, hg, o->cert_states, &o->cert, &err);
        o->cert_cpu = cgt_cpu_seconds() - c0;
        o->cert_wall = cgt_now() - w0;
    }
    o->cert_done = !o->cert_skip;
    o->certified = false;
    if (o->cert_skip) {
        /* the script asked for an uncertified result */
    } else if (st != CGT_OK) {
        snprintf(o->cert_note, sizeof o->cert_note, "certificate check stopped: %s", err.msg);
    } else {
        o->certified = o->cert.labelling_ok && o->cert.reduced_ok && o->cert.generated_ok;
        if (!o->certified)
            snprintf(o->cert_note, sizeof o->cert_note,
                     "certificate FAILED (monoid %s, labelling %s, reduced %s, generated %s)",
                     o->cert.monoid_ok ? "ok" : "wrong", o->cert.labelling_ok ? "ok" : "wrong",
                     o->cert.reduced_ok ? "yes" : "no", o->cert.generated_ok ? "yes" : "no");
    }
    o->period = quotient_periodicity(o->q, hg->max_parts, hg->max_take);
    o->have_period = true;
}

bool quot_snapshot(Call *c, QuotObj *o, char **names, int nnames, Loc loc)
{
    CgtError err;
    cgt_error_clear(&err);
    if (names && nnames != mq_current_ngens(o->eng)) {
        rt_error(c->I, DIAG_DOMAIN, loc, "%d names given, but Q(%u) has %d generators", nnames,
                 mq_heaps_done(o->eng), mq_current_ngens(o->eng));
        rt_hint(c->I, "omit `names` to see the generators first");
        return false;
    }
    o->q = mq_quotient(o->eng, (const char *const *)names, names ? nnames : 0, &err);
    if (!o->q) {
        rt_error_from(c->I, loc, &err);
        return false;
    }
    quot_certify(o);
    if (o->cert_done && !o->certified && strncmp(o->cert_note, "certificate FAILED", 18) == 0)
        strncat(o->cert_note, ": please report", sizeof o->cert_note - strlen(o->cert_note) - 1);
    return true;
}

/* The record quotient(g, N) returns (docs/language.md, "Results as
 * records"): the numbers of the quotient and, in field q, the quotient
 * itself, which every statement taking a quotient also accepts through the
 * record. */
static Value *quotient_record(Value *qv)
{
    const QuotObj *o = qv->u.obj.ptr;
    const Quotient *q = o->q;
    Value *r = val_map();
    val_map_set_str(r, "game", qgame(o)->name);
    val_map_set_int(r, "heap", o->inf ? (int64_t)o->inf->N : (int64_t)quotient_max_heap(q));
    val_map_set(r, "order", o->inf ? val_null() : val_int(quotient_size(q)));
    val_map_set(r, "pcount", o->inf ? val_null() : val_int(quotient_psize(q)));
    val_map_set_bool(r, "certified", o->certified);
    val_map_set_bool(r, "infinite", o->inf != NULL);
    val_map_set_bool(r, "tame", !o->inf && quotient_is_tame(q));
    val_map_set_bool(r, "partial", o->partial);
    bool per = o->have_period && o->period.found;
    val_map_set(r, "period", per ? val_int(o->period.period) : val_null());
    val_map_set(r, "preperiod", per ? val_int(o->period.preperiod) : val_null());
    val_map_set(r, "q", val_ref(qv));
    return r;
}

static Value *quotient_compute(Call *c);

/* `quotient q = G ...` binds the quotient; quotient(G, N) returns its
 * record, and a partial result left by a limit becomes a record too (the
 * e.partial of a caught error). */
Value *bi_quotient(Call *c)
{
    Value *r = call_with_checkpoint_lock(c, quotient_compute);
    if (c->decl_name)
        return r;
    if (r) {
        Value *rec = quotient_record(r);
        val_unref(r);
        return rec;
    }
    if (c->I->partial) {
        Value *rec = quotient_record(c->I->partial);
        val_unref(c->I->partial);
        c->I->partial = rec;
    }
    return NULL;
}

static Value *quotient_compute(Call *c)
{
    GameObj *g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "quotient");
    if (!g)
        return NULL;
    Value *to = call_opt(c, "to"), *nv = call_opt(c, "names"), *ck = call_opt(c, "checkpoint");
    Value *ms = call_opt(c, "max_size"), *lim = call_opt(c, "limit");
    int64_t n = -1, maxsize = 0, limit = 200;
    if (to && !call_int(c, to, call_opt_loc(c, "to"), "the heap bound", 0, HEAP_QUOTIENT_MAX, &n))
        return NULL;
    if (c->nargs > 1 && c->args[1]) {
        /* quotient(G, N) and `quotient q = G N`: N is the `to` bound */
        if (to)
            return rt_error(c->I, DIAG_TYPE, c->arg_locs[1], "the heap bound is given twice");
        if (!call_int(c, c->args[1], c->arg_locs[1], "the heap bound", 0, HEAP_QUOTIENT_MAX, &n))
            return NULL;
    }
    if (ms && !call_int(c, ms, call_opt_loc(c, "max_size"), "max_size", 1, 100000000, &maxsize))
        return NULL;
    if (lim && !call_int(c, lim, call_opt_loc(c, "limit"), "limit", 1, 100000, &limit))
        return NULL;
    int nnames = 0;
    char **names = nv ? split_names(nv->u.str.s, &nnames) : NULL;
    if (names && !check_names(c, names, nnames)) {
        free_names(names, nnames);
        return NULL;
    }
    const HeapGame *hg = ruleset_heapgame(g->rs);
    MqLimits ml = {.max_size = (uint32_t)maxsize, .max_trial = 0};
    CgtError err;
    cgt_error_clear(&err);
    QuotObj *o = xcalloc(1, sizeof *o);
    o->game = val_ref(c->args[0]);
    const char *ckpt = ck ? ck->u.str.s : NULL;
    /* the checkpoint rules of docs/errors.md: a file that exists is always
     * read (and refused untouched if it fails any check); one that covers
     * more heaps than asked for is left alone and Q(n) computed afresh; an
     * unwritable path fails before the computation */
    uint32_t ck_heaps = 0;
    uint32_t ck_holds = 0; /* the heaps the file holds: loaded, then saved */
    bool ck_keep = false;
    if (ckpt) {
        bool absent = false;
        o->eng = mq_load(ckpt, hg, &ml, &absent, &err);
        if (!o->eng && !absent) {
            quot_free(o);
            free_names(names, nnames);
            return rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &err);
        }
        uint32_t want = n >= 0 ? (uint32_t)n : (uint32_t)limit;
        if (o->eng && mq_heaps_done(o->eng) > want) {
            cgt_progress_force("quotient", "%s covers heaps 0..%u, more than the %u asked for: "
                               "computing afresh and leaving the file as it is", ckpt,
                               mq_heaps_done(o->eng), want);
            mq_free(o->eng);
            o->eng = NULL;
            ck_keep = true;
        } else if (o->eng) {
            ck_heaps = ck_holds = mq_heaps_done(o->eng);
            cgt_progress_force("quotient", "resumed %s from %s at heap %u", g->name, ckpt,
                               ck_heaps);
        }
        bool more = !o->eng || mq_heaps_done(o->eng) < want; /* a save will follow */
        if (!ck_keep && more && af_probe(ckpt, "checkpoint", &err) != CGT_OK) {
            quot_free(o);
            free_names(names, nnames);
            return rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &err);
        }
        if (ck_keep)
            ckpt = NULL;
    }
    if (!o->eng)
        o->eng = mq_new(hg, &ml);
    Value *rv = call_opt(c, "recal");
    if (rv) {
        static const char *const pol[] = {"first", "smallest", "jump", "lift"};
        static const MqRecal pv[] = {MQ_RECAL_FIRST, MQ_RECAL_SMALLEST, MQ_RECAL_JUMP,
                                     MQ_RECAL_LIFT};
        int k = -1;
        for (int i = 0; i < 4; i++)
            if (strcmp(rv->u.str.s, pol[i]) == 0)
                k = i;
        if (k < 0) {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "recal"),
                     "unknown recalibration policy '%s'", rv->u.str.s);
            rt_hint(c->I, "policies: first (MisereSolver's), smallest, jump, lift");
            quot_free(o);
            free_names(names, nnames);
            return NULL;
        }
        mq_set_recalibration(o->eng, pv[k]);
    }
    Value *cv = call_opt(c, "certify");
    if (cv && strcmp(cv->u.str.s, "off") != 0 && strcmp(cv->u.str.s, "on") != 0) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "certify"),
                 "certify must be on or off, not '%s'", cv->u.str.s);
        quot_free(o);
        free_names(names, nnames);
        return NULL;
    }
    o->cert_skip = cv && strcmp(cv->u.str.s, "off") == 0;
    Value *csv = call_opt(c, "cert_states");
    int64_t cs = 0;
    if (csv && !call_int(c, csv, call_opt_loc(c, "cert_states"), "cert_states", 1, 1000000000,
                         &cs)) {
        quot_free(o);
        free_names(names, nnames);
        return NULL;
    }
    o->cert_states = (uint64_t)cs;
    bool track = call_opt(c, "bound") != NULL;
    if (track)
        mq_set_track_bound(o->eng, true);
    bool decide = true;
    Value *dv = call_opt(c, "decide");
    if (dv) {
        if (strcmp(dv->u.str.s, "on") != 0 && strcmp(dv->u.str.s, "off") != 0) {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "decide"), "decide must be on or off");
            quot_free(o);
            free_names(names, nnames);
            return NULL;
        }
        decide = strcmp(dv->u.str.s, "on") == 0;
    }
    Value *pv = call_opt(c, "proof");
    if (pv && !decide) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "proof"),
                 "proof needs the infinite-quotient decision (decide on)");
        quot_free(o);
        free_names(names, nnames);
        return NULL;
    }
    if (pv) {
        /* an unwritable proof path fails now, not after the computation */
        CgtError pe;
        cgt_error_clear(&pe);
        if (af_probe(pv->u.str.s, "proof file", &pe) != CGT_OK) {
            quot_free(o);
            free_names(names, nnames);
            return rt_error_from(c->I, call_opt_loc(c, "proof"), &pe);
        }
    }
    CgtStatus st = CGT_OK;
    double last_save = cgt_now(), t_start = cgt_now(), c_start = cgt_cpu_seconds();
    char tried[700];
    tried[0] = '\0';
    CgtError save_err;
    cgt_error_clear(&save_err);
    bool complete = false; /* the statement's computation ran to its end */
    if (n >= 0) {
        uint32_t h_first = mq_heaps_done(o->eng) + 1;
        for (uint32_t h = h_first; h <= (uint32_t)n && st == CGT_OK; h++) {
            MqInf *inf = decide ? mqinf_new(hg, h, o->eng, 0) : NULL;
            if (inf)
                mq_set_failure_hook(o->eng, mqinf_hook, inf);
            st = mq_extend_to(o->eng, h, &err);
            mq_set_failure_hook(o->eng, NULL, NULL);
            if (inf && mqinf_result(inf)) {
                o->inf = mqinf_take(inf);
                o->asked = (uint32_t)n;
                st = CGT_OK;
                cgt_error_clear(&err);
            } else if (inf && st != CGT_OK) {
                const char *lg = mqinf_log(inf);
                const char *last = lg;
                for (const char *q = lg; *q; q++)
                    if (q[0] == '\n' && q[1])
                        last = q + 1;
                if (*lg) /* only when the decision tried something */
                    snprintf(tried, sizeof tried,
                             "infinite-quotient decision for heap %u: undecided (most "
                             "copies of heap %u in a least failure: %u%s%.*s)",
                             h, h, mqinf_max_copies(inf), *last ? "; last attempt: " : "",
                             (int)strcspn(last, "\n"), last);
            }
            mqinf_free(inf);
            if (o->inf) {
                if (ckpt && mq_heaps_done(o->eng) > ck_heaps &&
                    mq_save(o->eng, ckpt, &save_err) == CGT_OK)
                    ck_holds = mq_heaps_done(o->eng);
                break;
            }
            if (st == CGT_OK && h < (uint32_t)n) {
                /* mean CPU per heap so far; later heaps are usually slower */
                double used = cgt_cpu_seconds() - c_start;
                cgt_progress("quotient",
                             "heap %u of %lld: |Q|=%u |P|=%u, construction, %.1f s CPU; at least "
                             "%.0f s more at this rate, then the certificate",
                             h, (long long)n, mq_current_size(o->eng),
                             mq_current_psize(o->eng), used,
                             used / (h + 1 - h_first) * ((uint32_t)n - h));
            }
            if (ckpt && mq_heaps_done(o->eng) > ck_heaps &&
                (st != CGT_OK || cgt_now() - last_save > 30 || h == (uint32_t)n)) {
                if (mq_save(o->eng, ckpt, &save_err) != CGT_OK)
                    break;
                ck_holds = mq_heaps_done(o->eng);
                last_save = cgt_now();
            }
        }
    } else {
        /* one heap at a time, so that the checkpoint is saved every 30 s */
        MqPeriod per;
        MqInf *inf = decide ? mqinf_new(hg, 0, o->eng, 0) : NULL;
        if (inf)
            mq_set_failure_hook(o->eng, mqinf_hook, inf);
        for (uint32_t h = mq_heaps_done(o->eng) + 1;; h++) {
            st = mq_run_until_periodic(o->eng, h < (uint32_t)limit ? h : (uint32_t)limit, &per,
                                       &err);
            if (inf && mqinf_result(inf)) {
                /* the heap being expanded is proved infinite */
                o->inf = mqinf_take(inf);
                o->asked = o->inf->N;
                st = CGT_OK;
                cgt_error_clear(&err);
            }
            bool last = st != CGT_OK || per.found || h >= (uint32_t)limit || o->inf;
            if (ckpt && mq_heaps_done(o->eng) > ck_heaps && (last || cgt_now() - last_save > 30)) {
                if (mq_save(o->eng, ckpt, &save_err) != CGT_OK)
                    break;
                ck_holds = mq_heaps_done(o->eng);
                last_save = cgt_now();
            }
            if (last) {
                complete = true;
                break;
            }
        }
        mq_set_failure_hook(o->eng, NULL, NULL);
        mqinf_free(inf);
    }
    if (n >= 0)
        complete = st == CGT_OK && (mq_heaps_done(o->eng) >= (uint32_t)n || o->inf);
    if (save_err.status != CGT_OK && st == CGT_OK && !complete) {
        /* a save on the way failed: stop with its reason */
        quot_free(o);
        free_names(names, nnames);
        return rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &save_err);
    }
    if (st != CGT_OK) {
        /* keep the last completed heap as a labelled partial result */
        Loc l = c->loc;
        rt_error_from(c->I, l, &err);
        if (st == CGT_ERR_LIMIT || st == CGT_ERR_INTERRUPTED) {
            bool saved_failed = c->I->failed;
            c->I->failed = false;
            const MqStats *bs = mq_stats(o->eng);
            if (track && bs->bound_heap == mq_heaps_done(o->eng) + 1 && bs->bound_size > 0) {
                snprintf(o->partial_note, sizeof o->partial_note,
                         "only heaps 0..%u; heap %u was not completed (%s); lower bound "
                         "|Q(%u)| >= %u (all games with at most %u heaps of size %u proved "
                         "correctly labelled)%s%s",
                         mq_heaps_done(o->eng), mq_heaps_done(o->eng) + 1, err.msg,
                         bs->bound_heap, bs->bound_size, bs->bound_copies, bs->bound_heap,
                         tried[0] ? "; " : "", tried);
                fflush(stdout);
                fprintf(stderr, "lower bound: |Q(%u)| >= %u\n", bs->bound_heap,
                        bs->bound_size);
            } else {
                snprintf(o->partial_note, sizeof o->partial_note,
                         "only heaps 0..%u; heap %u was not completed (%s)%s%s",
                         mq_heaps_done(o->eng), mq_heaps_done(o->eng) + 1, err.msg,
                         tried[0] ? "; " : "", tried);
            }
            o->partial = true;
            bool ok = quot_snapshot(c, o, NULL, 0, l);
            c->I->failed = saved_failed;
            if (ok) {
                if (ckpt && save_err.status != CGT_OK)
                    rt_hint(c->I, "the checkpoint could not be saved: %s", save_err.msg);
                else if (ckpt && ck_holds > 0)
                    rt_hint(c->I, "the checkpoint %s holds heaps 0..%u; run again to resume "
                                  "from heap %u", ckpt, ck_holds, ck_holds + 1);
                else if (ckpt)
                    rt_hint(c->I, "no heap was completed: nothing is saved in %s", ckpt);
                else if (tried[0])
                    rt_hint(c->I,
                            "%s holds the partial result Q(%u); %s; proved lower bound |Q(%u)| "
                            ">= |Q(%u)| = %u%s",
                            c->decl_name ? c->decl_name : "the quotient", mq_heaps_done(o->eng),
                            tried, mq_heaps_done(o->eng) + 1, mq_heaps_done(o->eng),
                            quotient_size(o->q),
                            track ? "" : " (`bound` adds the engine-trusted bound)");
                else if (bs->fail_heap == mq_heaps_done(o->eng) + 1 && bs->fail_copies >= 4)
                    rt_hint(c->I,
                            "%s holds the partial result Q(%u); the least failures reached %u "
                            "copies of heap %u: Q(%u) may be infinite (docs/misere.md)",
                            c->decl_name ? c->decl_name : "the quotient",
                            mq_heaps_done(o->eng), bs->fail_copies, bs->fail_heap,
                            bs->fail_heap);
                else
                    rt_hint(c->I, "%s holds the partial result Q(%u)",
                            c->decl_name ? c->decl_name : "the quotient",
                            mq_heaps_done(o->eng));
                c->I->partial = val_obj(&quotient_type, o);
                free_names(names, nnames);
                return NULL;
            }
        }
        quot_free(o);
        free_names(names, nnames);
        return NULL;
    }
    double t_cert = cgt_now(), c_cert = cgt_cpu_seconds();
    bool ok = quot_snapshot(c, o, names, nnames, nv ? call_opt_loc(c, "names") : c->loc);
    if (ok && o->inf && pv) {
        char *gl = mqinf_game_line(g->rs);
        CgtStatus ps = mqinf_write(o->inf, gl, pv->u.str.s, &err);
        free(gl);
        if (ps != CGT_OK) {
            free_names(names, nnames);
            quot_free(o);
            return rt_error_from(c->I, call_opt_loc(c, "proof"), &err);
        }
        o->proof_path = xstrdup(pv->u.str.s);
    }
    if (ok && c->I->stats) {
        const MqStats *st2 = mq_stats(o->eng);
        fprintf(stderr,
                "[stats] quotient %s to heap %u: |Q| = %u; construction %.3f s CPU, %.3f s wall; "
                "certificate %.3f s CPU, %.3f s wall (%llu %s); snapshot and periodicity "
                "%.3f s CPU\n",
                g->name, mq_heaps_done(o->eng), quotient_size(o->q), c_cert - c_start,
                t_cert - t_start, o->cert_cpu, o->cert_wall,
                (unsigned long long)o->cert.pairs,
                o->cert.method == 2   ? "summary passes"
                : o->cert.method == 1 ? "states"
                                      : "pairs",
                cgt_cpu_seconds() - c_cert - o->cert_cpu);
        fprintf(stderr,
                "[stats] quotient %s phases (wall): conservative %.3f s, expansion "
                "%.3f s, recalibration %.3f s, verification %.3f s, certificate %.3f s; fast "
                "hits %llu, slow tests %llu, expansions %llu, recalibrations %llu, failures "
                "%llu\n",
                g->name, st2->t_conservative,
                st2->t_expansion, st2->t_recalibration, st2->t_verification, o->cert_wall,
                (unsigned long long)st2->fast_hits, (unsigned long long)st2->slow_tests,
                (unsigned long long)st2->expansions, (unsigned long long)st2->recalibrations,
                (unsigned long long)st2->failures);
    }
    free_names(names, nnames);
    if (!ok) {
        quot_free(o);
        return NULL;
    }
    if (save_err.status != CGT_OK) {
        /* the quotient is complete but the final save failed (F33): keep
         * the result and report why the file could not be written */
        rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &save_err);
        if (c->decl_name) {
            rt_hint(c->I, "%s holds the result Q(%u); it was not saved", c->decl_name,
                    mq_heaps_done(o->eng));
            c->I->partial = val_obj(&quotient_type, o);
        } else {
            quot_free(o);
        }
        return NULL;
    }
    if (!o->certified && !o->cert_skip) {
        /* never an uncertified quotient as if certified */
        bool stopped = strncmp(o->cert_note, "certificate check stopped", 25) == 0;
        rt_error(c->I, stopped ? DIAG_LIMIT : DIAG_INTERNAL, c->loc,
                 "Q(%u) of %s is NOT certified: %s", mq_heaps_done(o->eng), g->name,
                 o->cert_note);
        if (c->decl_name) {
            rt_hint(c->I, "%s holds the uncertified quotient; `certify off` asks for it "
                          "explicitly", c->decl_name);
            c->I->partial = val_obj(&quotient_type, o);
        } else {
            quot_free(o);
        }
        return NULL;
    }
    return val_obj(&quotient_type, o);
}

static QuotObj *quot_of(const Value *v)
{
    return v->u.obj.ptr;
}

/* Statements that need a finite quotient refuse an infinite one with the
 * verdict instead of answering for Q(n-1). */
static bool refuse_infinite(Call *c, const QuotObj *o, const char *what)
{
    if (!o->inf)
        return false;
    rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
             "%s needs a finite quotient, but Q(%u) of %s is infinite (proved)", what,
             o->inf->N, qgame(o)->name);
    rt_hint(c->I, "`print` shows its finite description; `outcome` answers positions from it");
    return true;
}

/* elements / ptypes of an infinite quotient: the description says how the
 * elements are parametrised and what the P-portion is. */
static Value *infinite_listing(Call *c, const QuotObj *o, const char *what)
{
    if (!c->stmt) {
        refuse_infinite(c, o, what);
        return NULL;
    }
    /* the statement's answer: the description, which says how the elements
       are parametrised and what the P-portion is */
    StrBuf b;
    sb_init(&b);
    mqinf_text(o->inf, qgame(o)->name, quotient_size(o->q), quotient_psize(o->q), o->certified,
               o->proof_path, o->asked, &b);
    Value *r = val_result("infinite_listing");
    val_map_set_str(r, "of", what);
    val_map_set_str(r, "game", qgame(o)->name);
    val_map_set_int(r, "heap", o->inf->N);
    val_map_set(r, "order", val_null());
    val_map_set_bool(r, "infinite", true);
    val_map_set(r, "description", val_str_own(b.s));
    return r;
}

void misere_infinite_listing_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    /* infinitely many elements is proved (the witness); for the P-types
       the description is all there is to say */
    if (strcmp(val_field_str(r, "of"), "elements") == 0)
        sb_printf(b, "elements of Q(%lld) of %s: infinitely many; ",
                  (long long)val_field_int(r, "heap"), val_field_str(r, "game"));
    else
        sb_printf(b, "%s of Q(%lld) of %s, read off the description: ", val_field_str(r, "of"),
                  (long long)val_field_int(r, "heap"), val_field_str(r, "game"));
    sb_printf(b, "%s\n", val_field_str(r, "description"));
}

/* ---- printing statements ---- */

Value *bi_rewriting(Call *c)
{
    QuotObj *o = quot_of(c->args[0]);
    if (refuse_infinite(c, o, "rewriting"))
        return NULL;
    KbSystem *sys = NULL;
    CgtError err;
    cgt_error_clear(&err);
    if (kb_complete(quotient_presentation(o->q), NULL, NULL, &sys, &err) != CGT_OK) {
        if (sys)
            kb_free(sys);
        return rt_error_from(c->I, c->loc, &err);
    }
    char what[128];
    snprintf(what, sizeof what, "Q(%u) of %s", quotient_max_heap(o->q), qgame(o)->name);
    Value *r = kb_system_record(sys, what, 0);
    kb_free(sys);
    return r;
}

Value *bi_ptypes(Call *c)
{
    QuotObj *o = quot_of(c->args[0]);
    if (o->inf)
        return infinite_listing(c, o, "P-position types");
    const Quotient *q = o->q;
    const HeapGame *hg = ruleset_heapgame(qgame(o)->rs);
    StrBuf b;
    sb_init(&b);
    JsonWriter w;
    jw_init(&w, &b);
    bool json = c->I->format == FMT_JSON;
    if (json) {
        jw_obj_begin(&w);
        jw_kv_str(&w, "kind", "ptypes");
        jw_kv_str(&w, "game", qgame(o)->name);
        jw_kv_int(&w, "heap", quotient_max_heap(q));
        jw_key(&w, "types");
        jw_arr_begin(&w);
    } else {
        sb_printf(&b, "P-position types of Q(%u) of %s (%u):\n", quotient_max_heap(q),
                  qgame(o)->name, quotient_psize(q));
    }
    for (uint32_t x = 0; x < quotient_size(q); x++) {
        if (!quotient_is_p(q, x))
            continue;
        char *gen = NULL;
        CgtError err;
        cgt_error_clear(&err);
        CgtStatus st = quotient_genus(q, hg, x, 5000000, &gen, &err);
        if (st == CGT_ERR_LIMIT && !strstr(err.msg, "time limit")) {
            /* a least position too large to search: say so for this type */
            gen = xstrdup("? (search over 5000000 positions)");
        } else if (st != CGT_OK) {
            sb_free(&b);
            return rt_error_from(c->I, c->loc, &err);
        }
        char *s = quotient_format(q, x);
        if (json) {
            jw_obj_begin(&w);
            char *s0 = quotient_format(q, x);
            jw_kv_str(&w, "type", s0);
            free(s0);
            jw_kv_str(&w, "genus", gen);
            jw_obj_end(&w);
        } else {
            sb_printf(&b, "  %-10s genus %s\n", s, gen);
        }
        free(s);
        free(gen);
    }
    if (json) {
        jw_arr_end(&w);
        rt_json_end(&w);
    }
    rt_emit(c->I, &b);
    return val_null();
}

Value *bi_pretend(Call *c)
{
    QuotObj *o = quot_of(c->args[0]);
    if (refuse_infinite(c, o, "pretend"))
        return NULL;
    const Quotient *q = o->q;
    uint32_t n = quotient_max_heap(q);
    Value *l = val_list();
    for (uint32_t h = 0; h <= n; h++)
        val_list_push(l, val_str_own(quotient_format(q, quotient_phi(q, h))));
    return l;
}

/* `pretend q`: the words of phi(0..n), ten to a row */
void misere_pretend_text(const Call *c, const Value *l, StrBuf *b)
{
    if (l->kind != VAL_LIST)
        return;
    size_t n = l->u.list.len;
    sb_printf(b, "Phi of %s, heaps 0..%zu:\n", qgame(quot_of(c->args[0]))->name, n ? n - 1 : 0);
    for (size_t h = 0; h < n; h++) {
        if (h % 10 == 0)
            sb_printf(b, "%4zu:", h);
        sb_printf(b, " %s", l->u.list.items[h]->u.str.s);
        if (h % 10 == 9 || h + 1 == n)
            sb_putc(b, '\n');
    }
}

Value *quotient_elements(Call *c, const Value *v)
{
    QuotObj *o = quot_of(v);
    const Quotient *q = o->q;
    if (o->inf)
        return infinite_listing(c, o, "elements");
    Value *l = val_list();
    for (uint32_t x = 0; x < quotient_size(q); x++)
        val_list_push(l, val_str_own(quotient_format(q, x)));
    return l;
}

/* `elements q`: the words, twelve to a row, P-positions marked */
void misere_elements_text(const Call *c, const Value *l, StrBuf *b)
{
    const QuotObj *o = quot_of(c->args[0]);
    const Quotient *q = o->q;
    if (l->kind != VAL_LIST)
        return;
    sb_printf(b, "%u elements of Q(%u) of %s (P marked *):\n ", quotient_size(q),
              quotient_max_heap(q), qgame(o)->name);
    for (uint32_t x = 0; x < quotient_size(q) && x < l->u.list.len; x++) {
        sb_printf(b, " %s%s", l->u.list.items[x]->u.str.s, quotient_is_p(q, x) ? "*" : "");
        if (x % 12 == 11 && x + 1 < quotient_size(q))
            sb_puts(b, "\n ");
    }
    sb_putc(b, '\n');
}

/* The element of the word text v; *typed (if not NULL) receives the word
 * as read, in the one notation (owned). */
static bool parse_quotient_format(Call *c, const Quotient *q, const Value *v, Loc loc, uint32_t *x,
                        char **typed)
{
    int ng = quotient_ngens(q);
    uint32_t *w = xcalloc((size_t)(ng ? ng : 1), sizeof *w);
    size_t bad = 0;
    CgtError err;
    cgt_error_clear(&err);
    if (wordparse_compact(v->u.str.s, (const char *const *)quotient_gen_names(q), ng, w, &bad,
                          &err) != CGT_OK) {
        free(w);
        rt_error_from(c->I, loc, &err);
        return false;
    }
    uint32_t e = 0;
    for (int g = 0; g < ng; g++)
        for (uint32_t k = 0; k < w[g]; k++)
            e = quotient_mul_gen(q, e, g);
    if (typed)
        *typed = word_format(w, ng, quotient_gen_names(q));
    free(w);
    *x = e;
    return true;
}

Value *bi_product(Call *c)
{
    QuotObj *o = quot_of(c->args[0]);
    if (refuse_infinite(c, o, "product"))
        return NULL;
    uint32_t x, y;
    char *tx = NULL, *ty = NULL;
    if (!parse_quotient_format(c, o->q, c->args[1], c->arg_locs[1], &x, &tx) ||
        !parse_quotient_format(c, o->q, c->args[2], c->arg_locs[2], &y, &ty)) {
        free(tx);
        return NULL;
    }
    free(tx);
    free(ty);
    return val_str_own(quotient_format(o->q, quotient_mul(o->q, x, y)));
}

/* `product q "X" "Y"`: X * Y = Z, the words as read in the one notation,
 * and whether Z is a P-position */
void misere_product_text(const Call *c, const Value *v, StrBuf *b)
{
    const QuotObj *o = quot_of(c->args[0]);
    uint32_t x, y;
    char *tx = NULL, *ty = NULL;
    Call pc = *c;
    if (!parse_quotient_format(&pc, o->q, c->args[1], c->arg_locs[1], &x, &tx) ||
        !parse_quotient_format(&pc, o->q, c->args[2], c->arg_locs[2], &y, &ty)) {
        free(tx);
        val_format(v, b, true);
        sb_putc(b, '\n');
        return;
    }
    uint32_t z = quotient_mul(o->q, x, y);
    sb_printf(b, "%s * %s = %s%s\n", tx, ty, v->u.str.s, quotient_is_p(o->q, z) ? " (in P)" : "");
    free(tx);
    free(ty);
}

Value *quotient_outcome_stmt(Call *c, const Value *qv, const Value *pos, Loc loc)
{
    QuotObj *o = quot_of(qv);
    size_t k = pos->u.list.len;
    uint32_t *heaps = xcalloc(k ? k : 1, sizeof *heaps);
    uint32_t top = o->inf ? o->inf->N : quotient_max_heap(o->q);
    for (size_t i = 0; i < k; i++) {
        int64_t h;
        if (!call_int(c, pos->u.list.items[i], loc, "a heap size", 0, top, &h)) {
            free(heaps);
            rt_hint(c->I, "the quotient covers heaps up to %u", top);
            return NULL;
        }
        heaps[i] = (uint32_t)h;
    }
    bool is_p;
    uint32_t x;
    CgtError err;
    cgt_error_clear(&err);
    /* from the proved description of an infinite quotient in O(k), else from
     * the finite quotient's element */
    CgtStatus st = o->inf ? mqinf_outcome(o->inf, heaps, k, &is_p, &err)
                          : quotient_eval(o->q, heaps, k, &x, &err);
    if (st == CGT_OK && !o->inf)
        st = quotient_outcome(o->q, heaps, k, &is_p, &err);
    free(heaps);
    if (st != CGT_OK)
        return rt_error_from(c->I, loc, &err);
    /* the record of outcome(G, [...]); a quotient knows misere play only */
    Value *r = val_result("outcome");
    val_map_set_str(r, "game", qgame(o)->name);
    val_map_set(r, "position", val_ref((Value *)pos));
    val_map_set(r, "normal", val_null());
    val_map_set_str(r, "misere", is_p ? "P" : "N");
    val_map_set(r, "element", o->inf ? val_null() : val_str_own(quotient_format(o->q, x)));
    val_map_set_int(r, "heap", o->inf ? o->inf->N : quotient_max_heap(o->q));
    val_map_set_bool(r, "infinite", o->inf != NULL);
    return r;
}

/* ---- small accessors for scripts ---- */

Value *bi_order(Call *c)
{
    if (strcmp(val_kind_name(c->args[0]), "quotient") == 0) {
        if (refuse_infinite(c, quot_of(c->args[0]), "order"))
            return NULL;
        return val_int(quotient_size(quot_of(c->args[0])->q));
    }
    SemiObj *s = c->args[0]->u.obj.ptr;
    if (!s->commutative)
        return rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                        "order works on quotients and commutative presentations");
    FiniteMonoid *m = semi_monoid(c->I, s, c->arg_locs[0]);
    return m ? val_int((int64_t)m->order) : NULL;
}

Value *bi_pcount(Call *c)
{
    if (refuse_infinite(c, quot_of(c->args[0]), "pcount"))
        return NULL;
    return val_int(quotient_psize(quot_of(c->args[0])->q));
}

Value *bi_certified(Call *c)
{
    /* an infinite verdict is only ever returned with its certificate checked */
    return val_bool(quot_of(c->args[0])->certified);
}

Value *bi_maxheap(Call *c)
{
    const QuotObj *o = quot_of(c->args[0]);
    return val_int(o->inf ? o->inf->N : quotient_max_heap(o->q));
}
