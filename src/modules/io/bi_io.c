/* `save VALUE "FILE"` and `load "FILE"` (docs/language.md "Saving
 * results"): any value as versioned JSON, written atomically
 * (src/lib/util/atomicfile.h), with a CRC-64 of the value's exact bytes inside the
 * file, read back by the strict reader of src/lib/util/json.h.  A quotient is
 * saved as its data only (generator actions, heap images, P-portion); load
 * derives everything else from that data and certifies it again against
 * its game (src/lib/misere/mqcert.c) before it is used.
 *
 * File layout (version 1):
 *   {"format": "cgt-result", "version": 1, "kind": KIND,
 *    "crc64": "16 hex digits", "value": VALUE}
 * where crc64 is CRC-64/XZ of the bytes of VALUE as they stand in the file.
 * VALUE is plain JSON for null, booleans, integers (any size, as JSON
 * integers), strings, lists and records; everything else is an object
 * whose first key is "$cgt" (a record whose own first key is "$cgt" is
 * wrapped as {"$cgt": "map", "entries": {...}}). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lang/ast.h"
#include "modules/io/module.h"
#include "modules/games/gameobj.h"
#include "modules/explicit/impgameobj.h"
#include "modules/misere/quotobj.h"
#include "modules/io/resultfile.h"
#include "modules/kb/semiobj.h"
#include "lib/util/atomicfile.h"
#include "lib/util/crc64.h"
#include "lib/util/json.h"
#include "lib/util/poll.h"
#include "lib/util/utf8.h"
#include "lib/util/xalloc.h"

#define SAVE_FORMAT "cgt-result"
#define SAVE_VERSION 1

/* ---- writing ---- */

typedef struct Enc {
    StrBuf *out;
    char err[300];
    DiagCat cat;
    /* Ctrl-C or a time limit stopped the writer (stop.status != CGT_OK) */
    CgtError stop;
    unsigned ticks;
} Enc;

static bool enc_fail(Enc *e, const char *msg)
{
    if (!e->err[0]) {
        snprintf(e->err, sizeof e->err, "%s", msg);
        e->cat = DIAG_TYPE;
    }
    return false;
}

/* A value past one of load's bounds (resultfile.h). */
static bool enc_too_large(Enc *e, const char *msg)
{
    if (!e->err[0]) {
        snprintf(e->err, sizeof e->err, "%s", msg);
        e->cat = DIAG_LIMIT;
    }
    return false;
}

/* Values share sub-values ([r, r] holds r twice), so a small value may
 * stand for a file of terabytes: the writer polls for Ctrl-C and the time
 * limits, and stops as soon as the text passes the size load reads. */
static bool enc_going(Enc *e)
{
    if (e->stop.status != CGT_OK || e->err[0])
        return false;
    if ((++e->ticks & 255) == 0) {
        CgtStatus st = cgt_poll();
        if (st != CGT_OK) {
            cgt_poll_error(&e->stop, st, "save");
            return false;
        }
    }
    if (e->out->len > RF_MAX_BYTES) {
        char msg[120];
        snprintf(msg, sizeof msg, "its file would take more than the %u MB load reads",
                 RF_MAX_BYTES >> 20);
        return enc_too_large(e, msg);
    }
    return true;
}

static const char too_deep[] =
    "the value is nested too deeply to save: its file would nest more than 512 levels of "
    "JSON arrays and objects, the most load reads";

bool rf_json_string(StrBuf *b, const char *s, size_t len)
{
    sb_putc(b, '"');
    for (size_t i = 0; i < len;) {
        unsigned char c = (unsigned char)s[i];
        if (c == 0)
            return false;
        if (c == '"' || c == '\\') {
            sb_putc(b, '\\');
            sb_putc(b, (char)c);
            i++;
        } else if (c == '\n') {
            sb_puts(b, "\\n");
            i++;
        } else if (c == '\t') {
            sb_puts(b, "\\t");
            i++;
        } else if (c == '\r') {
            sb_puts(b, "\\r");
            i++;
        } else if (c < 0x20 || c == 0x7f) {
            sb_printf(b, "\\u%04x", c);
            i++;
        } else {
            size_t n = utf8_seq_len((const unsigned char *)s + i, len - i);
            if (n == 0)
                return false;
            for (size_t k = 0; k < n; k++)
                sb_putc(b, s[i + k]);
            i += n;
        }
    }
    sb_putc(b, '"');
    return true;
}

static bool enc_str(Enc *e, const char *s)
{
    if (!rf_json_string(e->out, s, strlen(s)))
        return enc_fail(e, "a string that is not valid UTF-8 cannot be saved");
    return true;
}

static void enc_u32_array(StrBuf *b, const uint32_t *a, size_t n)
{
    sb_putc(b, '[');
    for (size_t i = 0; i < n; i++)
        sb_printf(b, "%s%u", i ? ", " : "", a[i]);
    sb_putc(b, ']');
}

static bool enc_game(Enc *e, const GameObj *g)
{
    StrBuf *b = e->out;
    sb_puts(b, "{\"$cgt\": \"game\", \"name\": ");
    if (!enc_str(e, g->name))
        return false;
    if (g->kind != GAME_HEAP) {
        sb_puts(b, ", \"paper\": ");
        enc_str(e, g->name);
        sb_putc(b, '}');
        return true;
    }
    const Ruleset *rs = g->rs;
    if (rs->kind == RULESET_CODE) {
        sb_puts(b, ", \"code\": ");
        enc_str(e, rs->name);
        sb_putc(b, '}');
        return true;
    }
    if (rs->kind == RULESET_SUBTRACTION && rs->nrules == 1) {
        /* the set back from the ranges ruleset_subtraction made of it */
        const MoveRule *m = &rs->rules[0];
        bool all_but = m->nranges && m->ranges[m->nranges - 1].hi == RULESET_UNBOUNDED;
        sb_printf(b, ", \"subtraction\": {\"all_but\": %s, \"set\": [",
                  all_but ? "true" : "false");
        bool first = true;
        if (!all_but) {
            for (size_t i = 0; i < m->nranges; i++)
                for (uint32_t k = m->ranges[i].lo; k <= m->ranges[i].hi; k++) {
                    sb_printf(b, "%s%u", first ? "" : ", ", k);
                    first = false;
                }
        } else {
            uint32_t next = 1;
            for (size_t i = 0; i < m->nranges; i++) {
                for (uint32_t k = next; k < m->ranges[i].lo; k++) {
                    sb_printf(b, "%s%u", first ? "" : ", ", k);
                    first = false;
                }
                if (m->ranges[i].hi != RULESET_UNBOUNDED)
                    next = m->ranges[i].hi + 1;
            }
        }
        sb_puts(b, "]}}");
        return true;
    }
    sb_puts(b, ", \"rules\": [");
    for (size_t r = 0; r < rs->nrules; r++) {
        const MoveRule *m = &rs->rules[r];
        sb_printf(b, "%s{\"take\": [", r ? ", " : "");
        for (size_t i = 0; i < m->nranges; i++) {
            if (m->ranges[i].hi == RULESET_UNBOUNDED)
                sb_printf(b, "%s[%u, null]", i ? ", " : "", m->ranges[i].lo);
            else
                sb_printf(b, "%s[%u, %u]", i ? ", " : "", m->ranges[i].lo, m->ranges[i].hi);
        }
        sb_printf(b, "], \"frac\": [%u, %u], \"parts\": %u, \"flags\": %u, \"min_part\": %u}",
                  m->frac_num, m->frac_den, m->parts_mask, m->flags, m->min_part);
    }
    sb_puts(b, "]}");
    return true;
}

static bool enc_value(Enc *e, const Value *v, int depth);

static bool enc_quotient(Enc *e, const QuotObj *o)
{
    if (o->inf)
        return enc_fail(e, "an infinite quotient is saved by its proof file (`proof \"FILE\"` "
                           "of the quotient statement), not by save");
    StrBuf *b = e->out;
    const Quotient *q = o->q;
    uint32_t n = quotient_max_heap(q);
    sb_puts(b, "{\"$cgt\": \"quotient\", \"game\": ");
    if (o->mix) {
        /* a mixed or explicit-set quotient: the list of its games, and the
         * heap bound of each heap game */
        if (!enc_value(e, o->game, 1))
            return false;
        if (!o->explicit_set) {
            sb_puts(b, ", \"to\": [");
            for (size_t i = 0; i < mqmix_parts(o->mix); i++)
                sb_printf(b, "%s%u", i ? ", " : "", mqmix_part_size(o->mix, i));
            sb_putc(b, ']');
        }
    } else if (!enc_game(e, game_of(o->game))) {
        return false;
    }
    sb_printf(b, ", \"heap\": %u, \"order\": %u, \"p_count\": %u, \"certified\": %s", n,
              quotient_size(q), quotient_psize(q), o->certified ? "true" : "false");
    sb_printf(b, ", \"partial\": %s, \"generators\": [", o->partial ? "true" : "false");
    for (int g = 0; g < quotient_ngens(q); g++) {
        if (g)
            sb_puts(b, ", ");
        enc_str(e, quotient_gen_name(q, g));
    }
    sb_puts(b, "], \"p_portion\": [");
    bool first = true;
    for (uint32_t x = 0; x < quotient_size(q); x++)
        if (quotient_is_p(q, x)) {
            char *s = quotient_format(q, x);
            sb_puts(b, first ? "" : ", ");
            enc_str(e, s);
            free(s);
            first = false;
        }
    sb_puts(b, "], \"phi\": [");
    for (uint32_t h = 0; h <= n; h++) {
        char *s = quotient_format(q, quotient_phi(q, h));
        sb_puts(b, h ? ", " : "");
        enc_str(e, s);
        free(s);
    }
    /* the data of the quotient, in its own numbering (normal-form order):
     * all that load reads back, certifies, and derives the rest from */
    MqClaim cl;
    quotient_claim(q, &cl);
    sb_puts(b, "],\n  \"tables\": {\"gen_act\": [");
    for (int g = 0; g < cl.ngens; g++) {
        sb_puts(b, g ? ", " : "");
        enc_u32_array(b, cl.act + (size_t)g * cl.size, cl.size);
    }
    sb_puts(b, "], \"phi\": ");
    enc_u32_array(b, cl.phi, (size_t)cl.n + 1);
    sb_puts(b, ", \"p_elements\": ");
    enc_u32_array(b, cl.p, cl.np);
    sb_puts(b, "}}");
    return true;
}

/* An explicit game as its DAG: "nodes" lists each distinct position
 * reachable from the game once, options before the positions that have
 * them (so every index refers back), each as the indices of its options,
 * except that a nim heap *k with k >= 2 is written {"nim": k} (its
 * options are the heaps *0..*(k-1), listed before it): *100000 takes
 * 100001 short entries, not 5 * 10^9 indices.  The game is the last node. */

/* The nodes in the order written, with a map from node ids to indices. */
typedef struct EncDag {
    IgId *order;
    size_t n, cap;
    IgId *hk;     /* open addressing: id -> index */
    uint32_t *hv; /* UINT32_MAX = empty */
    size_t hcap;
    size_t entries; /* option indices to write */
    size_t nims;    /* *0..*(nims-1) are written */
} EncDag;

static size_t dag_slot(const EncDag *d, IgId id)
{
    size_t slot = ((size_t)id * 2654435761u) & (d->hcap - 1);
    while (d->hv[slot] != UINT32_MAX && d->hk[slot] != id)
        slot = (slot + 1) & (d->hcap - 1);
    return slot;
}

static bool dag_written(const EncDag *d, IgId id)
{
    return d->hv[dag_slot(d, id)] != UINT32_MAX;
}

static uint32_t dag_index(const EncDag *d, IgId id)
{
    return d->hv[dag_slot(d, id)];
}

/* Append g (whose options are all written). */
static bool dag_put(Enc *e, EncDag *d, IgId g)
{
    IgStore *st = impgame_store();
    long k = ig_nim_size(st, g);
    d->entries += k >= 2 ? 2 : ig_nopts(st, g);
    if (d->entries > RF_MAX_BYTES / 3) { /* ", N" per option at least */
        char msg[160];
        snprintf(msg, sizeof msg, "its file would take more than the %u MB load reads "
                 "(%zu option entries so far)", RF_MAX_BYTES >> 20, d->entries);
        return enc_too_large(e, msg);
    }
    if (d->n == RF_MAX_POSITIONS)
        return enc_too_large(e, "an explicit game with more than 10^6 positions cannot be "
                                "saved");
    if (d->n == d->cap) {
        d->cap *= 2;
        d->order = xrealloc(d->order, d->cap * sizeof *d->order);
    }
    size_t slot = dag_slot(d, g);
    d->hk[slot] = g;
    d->hv[slot] = (uint32_t)d->n;
    d->order[d->n++] = g;
    if (2 * d->n > d->hcap) { /* grow the map */
        IgId *ok = d->hk;
        uint32_t *ov = d->hv;
        size_t oc = d->hcap;
        d->hcap *= 2;
        d->hk = xmalloc(d->hcap * sizeof *d->hk);
        d->hv = xmalloc(d->hcap * sizeof *d->hv);
        memset(d->hv, 0xff, d->hcap * sizeof *d->hv);
        for (size_t i = 0; i < oc; i++)
            if (ov[i] != UINT32_MAX) {
                size_t sl = dag_slot(d, ok[i]);
                d->hk[sl] = ok[i];
                d->hv[sl] = ov[i];
            }
        free(ok);
        free(ov);
    }
    return true;
}

/* Write the nim heap g = *k: first the heaps below it not written yet, in
 * increasing size (the order a walk through its options gives). */
static bool dag_put_nim(Enc *e, EncDag *d, IgId g)
{
    IgStore *st = impgame_store();
    size_t k = (size_t)ig_nim_size(st, g);
    const IgId *below = ig_opts(st, g);
    for (; d->nims <= k; d->nims++) {
        IgId x = d->nims < k ? below[d->nims] : g;
        if (!enc_going(e))
            return false;
        if (!dag_written(d, x) && !dag_put(e, d, x))
            return false;
    }
    return true;
}

static bool enc_impgame(Enc *e, IgId root)
{
    IgStore *st = impgame_store();
    size_t cap = 64, nstack = 0;
    /* iterative post-order DFS over the nodes that are not nim heaps:
       (node, next option to visit) */
    IgId *stk = xmalloc(cap * sizeof *stk);
    size_t *nxt = xmalloc(cap * sizeof *nxt);
    EncDag d = {.cap = 64, .hcap = 1024};
    d.order = xmalloc(d.cap * sizeof *d.order);
    d.hk = xmalloc(d.hcap * sizeof *d.hk);
    d.hv = xmalloc(d.hcap * sizeof *d.hv);
    memset(d.hv, 0xff, d.hcap * sizeof *d.hv);
    bool ok = true;
    if (ig_nim_size(st, root) >= 0)
        ok = dag_put_nim(e, &d, root);
    else {
        stk[nstack] = root;
        nxt[nstack++] = 0;
    }
    while (nstack && ok) {
        if (!(ok = enc_going(e)))
            break;
        IgId g = stk[nstack - 1];
        if (dag_written(&d, g)) {
            nstack--;
            continue;
        }
        const IgId *o = ig_opts(st, g);
        size_t no = ig_nopts(st, g);
        if (nxt[nstack - 1] < no) {
            IgId c = o[nxt[nstack - 1]++];
            if (dag_written(&d, c))
                continue;
            if (ig_nim_size(st, c) >= 0) {
                ok = dag_put_nim(e, &d, c);
                continue;
            }
            if (nstack == cap) {
                cap *= 2;
                stk = xrealloc(stk, cap * sizeof *stk);
                nxt = xrealloc(nxt, cap * sizeof *nxt);
            }
            stk[nstack] = c;
            nxt[nstack++] = 0;
            continue;
        }
        /* all options written: write g */
        ok = dag_put(e, &d, g);
        nstack--;
    }
    if (ok) {
        StrBuf *b = e->out;
        sb_printf(b, "{\"$cgt\": \"impgame\", \"positions\": %zu, \"nodes\": [", d.n);
        for (size_t i = 0; i < d.n && ok; i++) {
            long k = ig_nim_size(st, d.order[i]);
            if (k >= 2) {
                sb_printf(b, "%s{\"nim\": %ld}", i ? ", " : "", k);
                ok = enc_going(e);
                continue;
            }
            const IgId *o = ig_opts(st, d.order[i]);
            size_t no = ig_nopts(st, d.order[i]);
            sb_puts(b, i ? ", [" : "[");
            for (size_t j = 0; j < no && (ok = enc_going(e)); j++)
                sb_printf(b, "%s%u", j ? ", " : "", dag_index(&d, o[j]));
            sb_putc(b, ']');
        }
        sb_puts(b, "]}");
    }
    free(stk);
    free(nxt);
    free(d.order);
    free(d.hk);
    free(d.hv);
    return ok;
}

static bool enc_value(Enc *e, const Value *v, int depth)
{
    StrBuf *b = e->out;
    if (!enc_going(e))
        return false;
    /* each level of lists and records is at least one level of JSON (the
       exact depth is checked on the text, json_depth) */
    if (depth >= JSON_MAX_DEPTH)
        return enc_too_large(e, too_deep);
    switch (v->kind) {
    case VAL_NULL:
        sb_puts(b, "null");
        return true;
    case VAL_BOOL:
        sb_puts(b, v->u.b ? "true" : "false");
        return true;
    case VAL_INT:
        if (v->u.i.big) {
            char *s = mpz_get_str(NULL, 10, v->u.i.z);
            size_t nd = strlen(s) - (s[0] == '-');
            if (nd > RF_MAX_DIGITS) {
                free(s);
                char msg[160];
                snprintf(msg, sizeof msg, "an integer of %zu digits is longer than the %u "
                         "digits load reads", nd, RF_MAX_DIGITS);
                return enc_too_large(e, msg);
            }
            sb_puts(b, s);
            free(s);
        } else {
            sb_put_i64(b, v->u.i.small);
        }
        return true;
    case VAL_STR:
        if (!rf_json_string(b, v->u.str.s, v->u.str.len))
            return enc_fail(e, "a string with a NUL byte or invalid UTF-8 cannot be saved");
        return true;
    case VAL_LIST:
        sb_putc(b, '[');
        for (size_t i = 0; i < v->u.list.len; i++) {
            if (i)
                sb_puts(b, ", ");
            if (!enc_value(e, v->u.list.items[i], depth + 1))
                return false;
        }
        sb_putc(b, ']');
        return true;
    case VAL_RANGE:
        sb_printf(b, "{\"$cgt\": \"range\", \"from\": %lld, \"to\": %lld}",
                  (long long)v->u.range.lo, (long long)v->u.range.hi);
        return true;
    case VAL_MAP: {
        bool wrap = v->u.map.len > 0 && strcmp(v->u.map.keys[0], "$cgt") == 0;
        if (wrap)
            sb_puts(b, "{\"$cgt\": \"map\", \"entries\": ");
        sb_putc(b, '{');
        for (size_t i = 0; i < v->u.map.len; i++) {
            if (i)
                sb_puts(b, ", ");
            if (!enc_str(e, v->u.map.keys[i]))
                return false;
            sb_puts(b, ": ");
            if (!enc_value(e, v->u.map.vals[i], depth + 1))
                return false;
        }
        sb_putc(b, '}');
        if (wrap)
            sb_putc(b, '}');
        return true;
    }
    case VAL_FUNC:
        return enc_fail(e, "a function cannot be saved (save the values it computes)");
    case VAL_OBJ:
        if (val_is_obj(v, &game_type))
            return enc_game(e, game_of(v));
        if (val_is_obj(v, &quotient_type))
            return enc_quotient(e, v->u.obj.ptr);
        if (impgame_is(v)) {
            IgId id;
            if (!impgame_of(NULL, v, (Loc){0, 0, 0}, "save", &id))
                return enc_fail(e, "not an explicit game");
            return enc_impgame(e, id);
        }
        if (val_is_obj(v, &semigroup_type)) {
            const SemiObj *s = v->u.obj.ptr;
            sb_printf(b, "{\"$cgt\": \"%s\", \"name\": ",
                      s->commutative ? "semigroup" : "monoid");
            if (!enc_str(e, s->name))
                return false;
            sb_puts(b, ", \"presentation\": ");
            if (!enc_str(e, s->text))
                return false;
            sb_putc(b, '}');
            return true;
        }
        return enc_fail(e, "this kind of value cannot be saved yet");
    }
    return enc_fail(e, "this kind of value cannot be saved");
}

/* The deepest nesting of arrays and objects in JSON text written by
 * enc_value (well formed; brackets inside strings do not count). */
static size_t json_depth(const char *s, size_t n)
{
    size_t d = 0, max = 0;
    bool str = false;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        if (str) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                str = false;
        } else if (ch == '"') {
            str = true;
        } else if (ch == '[' || ch == '{') {
            if (++d > max)
                max = d;
        } else if (ch == ']' || ch == '}') {
            d--;
        }
    }
    return max;
}

static bool encode(Enc *e, const Value *v)
{
    bool ok = enc_value(e, v, 0) && enc_going(e);
    /* the file's own object is one level more */
    if (ok && json_depth(e->out->s, e->out->len) + 1 > JSON_MAX_DEPTH)
        ok = enc_too_large(e, too_deep);
    return ok;
}

bool rf_encode(const Value *v, StrBuf *out, char *err, size_t errsize, DiagCat *cat)
{
    Enc e = {.out = out, .cat = DIAG_TYPE};
    bool ok = encode(&e, v);
    if (!ok && e.stop.status != CGT_OK) {
        snprintf(err, errsize, "%s", e.stop.msg);
        *cat = e.stop.status == CGT_ERR_INTERRUPTED ? DIAG_INTERRUPTED : DIAG_LIMIT;
    } else if (!ok) {
        snprintf(err, errsize, "%s", e.err);
        *cat = e.cat;
    }
    return ok;
}

Value *bi_save(Call *c)
{
    const Value *v = c->args[0];
    const char *path = c->args[1]->u.str.s;
    StrBuf body;
    sb_init(&body);
    Enc e = {.out = &body, .cat = DIAG_TYPE};
    if (!encode(&e, v)) {
        sb_free(&body);
        if (e.stop.status != CGT_OK)
            return rt_error_from(c->I, c->loc, &e.stop);
        return rt_error(c->I, e.cat, c->arg_locs[0], "cannot save this %s: %s",
                        val_kind_name(v), e.err);
    }
    uint64_t crc = crc64_update(0, body.s, body.len);
    char head[200];
    int hl = snprintf(head, sizeof head,
                      "{\"format\": \"%s\", \"version\": %d, \"kind\": \"%s\",\n \"crc64\": "
                      "\"%016llx\",\n \"value\": ",
                      SAVE_FORMAT, SAVE_VERSION, val_kind_name(v), (unsigned long long)crc);
    uint64_t total = (uint64_t)hl + body.len + 2;
    if (total > RF_MAX_BYTES) {
        sb_free(&body);
        return rt_error(c->I, DIAG_LIMIT, c->arg_locs[0],
                        "cannot save this %s: its file would take %llu MB, more than the %u MB "
                        "load reads",
                        val_kind_name(v), (unsigned long long)((total + (1u << 20) - 1) >> 20),
                        RF_MAX_BYTES >> 20);
    }
    CgtError err;
    cgt_error_clear(&err);
    AtomicFile af;
    if (af_open(&af, path, "result file", false, &err) != CGT_OK) {
        sb_free(&body);
        return rt_error_from(c->I, c->arg_locs[1], &err);
    }
    af_write(&af, head, (size_t)hl);
    af_write(&af, body.s, body.len);
    af_printf(&af, "}\n");
    sb_free(&body);
    if (af_commit(&af, &err) != CGT_OK)
        return rt_error_from(c->I, c->arg_locs[1], &err);
    return val_null();
}
