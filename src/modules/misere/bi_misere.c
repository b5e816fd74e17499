/* Builtins of the misère-quotient module (docs/misere.md): the `quotient`
 * declaration, printing (print, rewriting, ptypes, pretend, elements),
 * products and outcomes in a quotient, and small accessors; `verify` is
 * in bi_verify.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/kb.h"
#include "lib/misere/misere.h"
#include "lib/misere/mqrun.h"
#include "lib/rewrite/wordparse.h"
#include "modules/misere/bi_misere.h"
#include "modules/misere/mqinfrt.h"
#include "modules/misere/quotobj.h"
#include "modules/misere/module.h"
#include "modules/kb/kbprint.h"
#include "modules/games/gameobj.h"
#include "modules/games/heaps.h"
#include "modules/kb/semiobj.h"
#include "lib/util/par.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"




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

/* The quotient value's copy of a verdict (src/lib/misere/mqrun.h). */
static void quot_take_verdict(QuotObj *o, const MqVerdict *v)
{
    o->cert = v->cert;
    o->cert_done = v->ran;
    o->cert_cpu = v->cpu;
    o->cert_wall = v->wall;
    o->certified = v->certified;
    snprintf(o->cert_note, sizeof o->cert_note, "%s", v->note);
    o->period = v->period;
    o->have_period = true;
}

void quot_certify(QuotObj *o)
{
    MqVerdict v;
    mq_verdict(o->q, quot_heapgame(o), !o->cert_skip, o->cert_states, &v);
    quot_take_verdict(o, &v);
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
        Value *rec = quot_record(r);
        val_unref(r);
        return rec;
    }
    if (rt_partial(c->I))
        rt_set_partial(c->I, quot_record(rt_partial(c->I)));
    return NULL;
}

/* Where a diagnostic of the driver points. */
static Loc run_loc(Call *c, MqRunAt at)
{
    switch (at) {
    case MQ_AT_CHECKPOINT:
        return call_opt_loc(c, "checkpoint");
    case MQ_AT_PROOF:
        return call_opt_loc(c, "proof");
    case MQ_AT_NAMES:
        return call_opt_loc(c, "names");
    default:
        return c->loc;
    }
}

/* The quotient value of a driver result (which gives up its engine,
 * snapshot and proof to it). */
static QuotObj *quot_from_run(Call *c, MqRun *r, const MqRunOptions *ro, QuotObj *o)
{
    o->game = val_ref(c->args[0]);
    o->eng = r->eng;
    o->q = r->q;
    o->inf = r->inf;
    r->eng = NULL;
    r->q = NULL;
    r->inf = NULL;
    o->asked = r->asked;
    o->period_limit = ro->to < 0 ? ro->limit : 0;
    o->cert_skip = !ro->certify;
    o->cert_states = ro->cert_states;
    quot_take_verdict(o, &r->verdict);
    /* the pretending function of a mixed game has no period */
    o->have_period = o->have_period && !o->mix;
    o->partial = r->partial;
    snprintf(o->partial_note, sizeof o->partial_note, "%s", r->partial_note);
    if (r->proof_written)
        o->proof_path = xstrdup(ro->proof);
    return o;
}

static void quotient_stats(const char *game, const QuotObj *o, const MqRun *r)
{
    const MqStats *st2 = mq_stats(o->eng);
    fprintf(stderr,
            "[stats] quotient %s to heap %u: |Q| = %u; construction %.3f s CPU, %.3f s wall; "
            "certificate %.3f s CPU, %.3f s wall (%llu %s); snapshot and periodicity "
            "%.3f s CPU\n",
            game, mq_heaps_done(o->eng), quotient_size(o->q), r->build_cpu, r->build_wall,
            o->cert_cpu, o->cert_wall, (unsigned long long)o->cert.pairs,
            o->cert.method == 2   ? "summary passes"
            : o->cert.method == 1 ? "states"
                                  : "pairs",
            r->snap_cpu);
    fprintf(stderr,
            "[stats] quotient %s phases (wall): conservative %.3f s, expansion "
            "%.3f s, recalibration %.3f s, verification %.3f s, certificate %.3f s; fast "
            "hits %llu, slow tests %llu, expansions %llu, recalibrations %llu, failures "
            "%llu\n",
            game, st2->t_conservative, st2->t_expansion, st2->t_recalibration,
            st2->t_verification, o->cert_wall, (unsigned long long)st2->fast_hits,
            (unsigned long long)st2->slow_tests, (unsigned long long)st2->expansions,
            (unsigned long long)st2->recalibrations, (unsigned long long)st2->failures);
}

/* Reads the options, runs the driver (src/lib/misere/mqrun.h) and wraps
 * its result: the quotient, or an error with the partial result a limit,
 * a failed save or a failed certificate leaves as the partial result. */
static Value *quotient_compute(Call *c)
{
    Value *to = call_opt(c, "to"), *nv = call_opt(c, "names"), *ck = call_opt(c, "checkpoint");
    Value *ms = call_opt(c, "max_size"), *lim = call_opt(c, "limit");
    Loc to_loc = call_opt_loc(c, "to");
    if (c->nargs > 1 && c->args[1]) {
        /* quotient(G, N) and `quotient q = G N`: N is the `to` bound */
        if (to)
            return rt_error(c->I, DIAG_TYPE, c->arg_locs[1], "the heap bound is given twice");
        to = c->args[1];
        to_loc = c->arg_locs[1];
    }
    /* the quotient value, made now for a mixed or explicit-set quotient
     * (its game is then the list: bi_mqmix.c) */
    QuotObj *pre = xcalloc(1, sizeof *pre);
    GameObj *g = NULL;
    const HeapGame *hg;
    int64_t n = -1, maxsize = 0, limit = 200;
    if (c->args[0]->kind == VAL_LIST) {
        if (!quot_mix_make(c->I, c->args[0], c->arg_locs[0], to, to_loc, pre))
            goto bad_pre;
        static const char *const single[] = {"checkpoint", "limit", "proof", "bound"};
        for (int i = 0; i < 4; i++)
            if (call_opt(c, single[i])) {
                rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, single[i]),
                         "`%s` is for the quotient of one heap game, not of a list", single[i]);
                goto bad_pre;
            }
        Value *dv = call_opt(c, "decide");
        if (dv && strcmp(dv->u.str.s, "off") != 0) {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "decide"),
                     "infinite quotients are decided for one heap game only");
            goto bad_pre;
        }
        hg = mqmix_heapgame(pre->mix);
        n = mqmix_top(pre->mix);
    } else {
        g = game_heap_or_error(c->I, c->args[0], c->arg_locs[0], "quotient");
        if (!g)
            goto bad_pre;
        if (to && to->kind == VAL_LIST) {
            rt_error(c->I, DIAG_TYPE, to_loc, "a list of heap bounds is for a list of games");
            rt_hint(c->I, "quotient q = G to N; quotient q = [G1, G2] to [N1, N2]");
            goto bad_pre;
        }
        if (to && !call_int(c, to, to_loc, "the heap bound", 0, HEAP_QUOTIENT_MAX, &n))
            goto bad_pre;
        hg = ruleset_heapgame(g->rs);
    }
    if (ms && !call_int(c, ms, call_opt_loc(c, "max_size"), "max_size", 1, 100000000, &maxsize))
        goto bad_pre;
    if (lim && !call_int(c, lim, call_opt_loc(c, "limit"), "limit", 1, 100000, &limit))
        goto bad_pre;
    int nnames = 0;
    char **names = nv ? split_names(nv->u.str.s, &nnames) : NULL;
    if (names && !check_names(c, names, nnames)) {
        free_names(names, nnames);
        goto bad_pre;
    }
    MqRunOptions ro;
    mq_run_options_init(&ro);
    ro.game = hg;
    ro.name = hg->name;
    ro.decide = !pre->mix;
    ro.to = n;
    ro.limit = (uint32_t)limit;
    ro.limits.max_size = (uint32_t)maxsize;
    ro.checkpoint = ck ? ck->u.str.s : NULL;
    ro.holder = c->decl_name;
    ro.names = (const char *const *)names;
    ro.nnames = nnames;
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
            goto bad;
        }
        ro.recal = pv[k];
    }
    Value *cv = call_opt(c, "certify");
    if (cv && strcmp(cv->u.str.s, "off") != 0 && strcmp(cv->u.str.s, "on") != 0) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "certify"),
                 "certify must be on or off, not '%s'", cv->u.str.s);
        goto bad;
    }
    ro.certify = !(cv && strcmp(cv->u.str.s, "off") == 0);
    Value *csv = call_opt(c, "cert_states");
    int64_t cs = 0;
    if (csv && !call_int(c, csv, call_opt_loc(c, "cert_states"), "cert_states", 1, 1000000000,
                         &cs))
        goto bad;
    ro.cert_states = (uint64_t)cs;
    ro.track_bound = call_opt(c, "bound") != NULL;
    Value *tv = call_opt(c, "threads");
    int64_t th = cgt_default_threads();
    if (tv && !call_int(c, tv, call_opt_loc(c, "threads"), "threads", 1, CGT_THREADS_MAX, &th))
        goto bad;
    ro.threads = (unsigned)th;
    Value *dv = call_opt(c, "decide");
    if (dv) {
        if (strcmp(dv->u.str.s, "on") != 0 && strcmp(dv->u.str.s, "off") != 0) {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "decide"), "decide must be on or off");
            goto bad;
        }
        ro.decide = strcmp(dv->u.str.s, "on") == 0;
    }
    Value *pv = call_opt(c, "proof");
    if (pv && !ro.decide) {
        rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "proof"),
                 "proof needs the infinite-quotient decision (decide on)");
        goto bad;
    }
    char *game_line = pv && g ? mqinf_game_line(g->rs) : NULL;
    ro.proof = pv ? pv->u.str.s : NULL;
    ro.proof_game = game_line;

    MqRun r;
    mq_run(&ro, &r);
    free(game_line);
    free_names(names, nnames);
    if (r.notice[0]) {
        fflush(stdout);
        fprintf(stderr, "%s\n", r.notice);
    }
    if (r.status == MQ_RUN_FAILED) {
        quot_free(pre);
        return rt_error_from(c->I, run_loc(c, r.at), &r.err);
    }
    QuotObj *o = quot_from_run(c, &r, &ro, pre);
    Value *res = NULL;
    if (r.status == MQ_RUN_STOPPED) {
        /* the last completed heap, as a labelled partial result */
        rt_error_from(c->I, run_loc(c, r.at), &r.err);
        rt_set_partial(c->I, val_obj(&quotient_type, o));
    } else {
        if (rt_stats(c->I))
            quotient_stats(hg->name, o, &r);
        if (r.status == MQ_RUN_DONE) {
            res = val_obj(&quotient_type, o);
            /* `outcome G [...]` answers through it from now on */
            quot_remember(res);
        } else {
            /* complete but unsaved or uncertified: an error, and the result
             * kept in the variable it was declared for */
            rt_error_from(c->I, run_loc(c, r.at), &r.err);
            if (c->decl_name)
                rt_set_partial(c->I, val_obj(&quotient_type, o));
            else
                quot_free(o);
        }
    }
    mq_run_free(&r);
    return res;
bad:
    free_names(names, nnames);
bad_pre:
    quot_free(pre);
    return NULL;
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
             o->inf->N, quot_game_name(o));
    rt_hint(c->I, "`print` shows its finite description; `outcome` answers positions from it");
    return true;
}

/* Statements that read one ruleset's heaps (the genus search, the table
 * of phi by heap) refuse a mixed or explicit-set quotient. */
static bool refuse_mixed(Call *c, const QuotObj *o, const char *what)
{
    if (!o->mix)
        return false;
    rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "%s needs the quotient of one heap game, not of %s",
             what, quot_game_name(o));
    rt_hint(c->I, "`print q` lists the image of every heap of every part");
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
    mqinf_text(o->inf, quot_game_name(o), quotient_size(o->q), quotient_psize(o->q), o->certified,
               o->proof_path, o->asked, &b);
    Value *r = val_result("infinite_listing");
    val_map_set_str(r, "of", what);
    val_map_set_str(r, "game", quot_game_name(o));
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
    snprintf(what, sizeof what, "Q(%u) of %s", quotient_max_heap(o->q), quot_game_name(o));
    Value *r = kb_system_record(sys, what, 0);
    kb_free(sys);
    return r;
}

/* The genus search of ptypes: at most PTYPE_SEARCH new positions per type
 * (a type past it gets `?` and the next type is searched), and the memo
 * kept from type to type (the least positions of a quotient share much of
 * their searches: 706,000 positions for all of Q(33) of 0.07 instead of
 * 1.1 million with a fresh memo per type) but dropped before a type once
 * it holds PTYPE_MEMO positions, so that it never holds more than their
 * sum (about 300 MB). */
#define PTYPE_SEARCH 1000000
#define PTYPE_MEMO 1000000

/* A ptypes record stopped by err: marked partial, left as e.partial (the
 * statement has shown its rows), and the error. */
static Value *ptypes_stopped(Call *c, Value *r, const CgtError *err)
{
    val_map_set_bool(r, "partial", true);
    rt_set_partial(c->I, r);
    Value *e = rt_error_from(c->I, c->loc, err);
    const Value *types = val_map_get(r, "types");
    rt_hint(c->I, "the partial result holds the %zu P-types done of %lld",
            types->u.list.len, (long long)val_field_int(r, "pcount"));
    return e;
}

Value *bi_ptypes(Call *c)
{
    QuotObj *o = quot_of(c->args[0]);
    if (refuse_mixed(c, o, "ptypes"))
        return NULL;
    if (o->inf)
        return infinite_listing(c, o, "P-position types");
    const Quotient *q = o->q;
    const HeapGame *hg = ruleset_heapgame(game_of(o->game)->rs);
    CgtError err;
    cgt_error_clear(&err);
    Value *r = val_result("ptypes"), *types = val_list();
    val_map_set_str(r, "game", quot_game_name(o));
    val_map_set_int(r, "heap", quotient_max_heap(q));
    val_map_set_int(r, "pcount", quotient_psize(q));
    val_map_set(r, "types", types);
    val_map_set_bool(r, "partial", false);
    call_show_so_far(c, r);
    cgt_progress_force("ptypes", "Q(%u) of %s: adjoining nim heaps for the genus",
                       quotient_max_heap(q), quot_game_name(o));
    MqGenus *mg = mq_genus_new(q, hg, &err);
    if (!mg)
        return ptypes_stopped(c, r, &err);
    unsigned ca, cb;
    uint32_t mb;
    mq_genus_cover(mg, &ca, &cb, &mb);
    cgt_progress_force("ptypes", "genus values up to %u read off Q(%u) with *1..*%u, up to %u for heaps <= %u",
                       ca, quotient_max_heap(q), ca, cb, mb);
    uint32_t done = 0, np = quotient_psize(q);
    for (uint32_t x = 0; x < quotient_size(q); x++) {
        if (!quotient_is_p(q, x))
            continue;
        if (mq_genus_cache(mg) > PTYPE_MEMO)
            mq_genus_forget(mg);
        char *w = quotient_format(q, x);
        cgt_progress_force("ptypes", "type %u of %u (%s): genus of its least position", ++done,
                           np, w);
        char *gen = NULL;
        size_t searched = 0;
        CgtStatus st = mq_genus_least(mg, x, PTYPE_SEARCH, &gen, &searched, &err);
        cgt_progress_force("ptypes", "type %u of %u (%s): %s, %zu positions searched", done, np, w,
                           st == CGT_OK ? gen : "not found", searched);
        if (st == CGT_ERR_LIMIT && !cgt_run_limit_reached()) {
            /* a least position too large to search: say so for this type */
            gen = xasprintf("? (search over %d positions)", PTYPE_SEARCH);
        } else if (st != CGT_OK) {
            free(w);
            mq_genus_free(mg);
            return ptypes_stopped(c, r, &err);
        }
        Value *t = val_map(), *pos = val_list();
        val_map_set(t, "type", val_str_own(w));
        val_map_set(t, "genus", val_str_own(gen));
        uint32_t *lg = xmalloc((quotient_max_heap(q) + 1) * sizeof *lg);
        quotient_least_game(q, x, lg);
        for (uint32_t h = 0; h <= quotient_max_heap(q); h++)
            for (uint32_t i = 0; i < lg[h]; i++)
                val_list_push(pos, val_int(h));
        free(lg);
        val_map_set(t, "position", pos);
        val_list_push(types, t);
        call_show_so_far(c, r);
    }
    mq_genus_free(mg);
    return r;
}

/* The text of a ptypes record: a head line, one line per type, and, for
 * the partial result of a stopped statement, a line saying so; the
 * statement shows it as it grows (call_show_so_far), the lines of the
 * types as they are found. */
void misere_ptypes_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    sb_printf(b, "P-position types of Q(%lld) of %s (%lld):\n", (long long)val_field_int(r, "heap"),
              val_field_str(r, "game"), (long long)val_field_int(r, "pcount"));
    const Value *types = val_map_get(r, "types");
    size_t n = types && types->kind == VAL_LIST ? types->u.list.len : 0;
    for (size_t i = 0; i < n; i++) {
        const Value *t = types->u.list.items[i];
        sb_printf(b, "  %-10s genus %s\n", val_field_str(t, "type"), val_field_str(t, "genus"));
    }
    if (val_field_bool(r, "partial"))
        sb_printf(b, "  (stopped: %zu of the %lld types done)\n", n,
                  (long long)val_field_int(r, "pcount"));
}

Value *bi_pretend(Call *c)
{
    QuotObj *o = quot_of(c->args[0]);
    if (refuse_infinite(c, o, "pretend") || refuse_mixed(c, o, "pretend"))
        return NULL;
    const Quotient *q = o->q;
    uint32_t n = quotient_max_heap(q);
    Value *l = val_list();
    for (uint32_t h = 0; h <= n; h++)
        val_list_push(l, val_str_own(quotient_format(q, quotient_phi(q, h))));
    return l;
}

/* `pretend q`: the words of phi(0..n), ten to a row */
/* `quotient G to N;` without a name: the quotient, as `print q` shows it
 * (the statement's value is the record quotient(G, N) returns). */
void misere_quotient_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const Value *q = r->kind == VAL_MAP ? val_map_get(r, "q") : NULL;
    if (!q || !val_is_obj(q, &quotient_type)) {
        val_format(r, b, true);
    } else {
        quotient_type.print_text(q->u.obj.ptr, b);
    }
    sb_putc(b, '\n');
}

void misere_pretend_text(const Call *c, const Value *l, StrBuf *b)
{
    if (l->kind != VAL_LIST)
        return;
    size_t n = l->u.list.len;
    sb_printf(b, "Phi of %s, heaps 0..%zu:\n", quot_game_name(quot_of(c->args[0])), n ? n - 1 : 0);
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
              quotient_max_heap(q), quot_game_name(o));
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
    uint32_t *heaps = NULL;
    if (o->mix) {
        if (!quot_mix_position(c, o, pos, loc, &heaps, &k))
            return NULL;
    } else {
        heaps = xcalloc(k ? k : 1, sizeof *heaps);
    }
    uint32_t top = o->inf ? o->inf->N : quotient_max_heap(o->q);
    for (size_t i = 0; i < k && !o->mix; i++) {
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
    val_map_set_str(r, "game", quot_game_name(o));
    val_map_set(r, "position", val_ref((Value *)pos));
    val_map_set(r, "normal", val_null());
    val_map_set_str(r, "misere", is_p ? "P" : "N");
    val_map_set(r, "element", o->inf ? val_null() : val_str_own(quotient_format(o->q, x)));
    if (o->mix)
        val_map_set(r, "heap", val_null());
    else
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
