/* The `quotient` value (quotobj.h): release, its text form (presentation,
 * P-portion, Phi table, expansions, period; or the description of an
 * infinite quotient, src/modules/misere/bi_mqinf.c) and its JSON form, words in the
 * one notation of src/lib/rewrite/word.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/games/gameobj.h"
#include "modules/misere/mqinfrt.h"
#include "modules/misere/quotobj.h"
#include "lib/util/xalloc.h"

const char *quot_game_name(const QuotObj *o)
{
    return o->mix ? mqmix_heapgame(o->mix)->name : game_of(o->game)->name;
}

const HeapGame *quot_heapgame(const QuotObj *o)
{
    return o->mix ? mqmix_heapgame(o->mix) : ruleset_heapgame(game_of(o->game)->rs);
}

void quot_free(void *p)
{
    QuotObj *o = p;
    if (o->q)
        quotient_free(o->q);
    if (o->eng)
        mq_free(o->eng);
    mqinf_proof_free(o->inf);
    free(o->proof_path);
    val_unref(o->game);
    mqmix_free(o->mix);
    free(o->ids);
    for (uint32_t j = 0; j < o->nids && o->labels; j++)
        free(o->labels[j]);
    free(o->labels);
    if (o->semi)
        val_unref(o->semi);
    free(o);
}

/* An element in the one word notation (src/lib/rewrite/word.h): `ab^2`, `1`. */
static char *qword(const Quotient *q, uint32_t x) { return quotient_format(q, x); }

static char *pword(const Presentation *p, const uint32_t *w)
{
    return word_format(w, p->ngens, p->gen_names);
}

/* The presentation and the P-portion, "  < ... >\n  P = {...": the same
 * lines for every kind of quotient. */
static void pres_and_p(const Quotient *q, StrBuf *b)
{
    const Presentation *p = quotient_presentation(q);
    sb_puts(b, "  < ");
    for (int g = 0; g < p->ngens; g++)
        sb_printf(b, "%s%s", g ? ", " : "", p->gen_names[g]);
    if (p->nrels)
        sb_puts(b, " | ");
    for (size_t r = 0; r < p->nrels; r++) {
        char *l = pword(p, p->rels + 2 * r * (size_t)p->ngens);
        char *rr = pword(p, p->rels + (2 * r + 1) * (size_t)p->ngens);
        char *rel = relation_text(l, rr);
        sb_printf(b, "%s%s", r ? ", " : "", rel);
        free(rel);
    }
    sb_puts(b, " >\n  P = {");
    bool first = true;
    for (uint32_t x = 0; x < quotient_size(q); x++)
        if (quotient_is_p(q, x)) {
            char *s = qword(q, x);
            sb_printf(b, "%s%s", first ? "" : ", ", s);
            free(s);
            first = false;
        }
}

/* The heap of index x of a mixed quotient: "0.07 4", or the explicit
 * game's text. */
static void heap_label(const QuotObj *o, uint32_t x, StrBuf *b)
{
    if (o->explicit_set) {
        sb_puts(b, o->labels[x]);
        return;
    }
    for (size_t i = 0; i < mqmix_parts(o->mix); i++) {
        uint32_t ni = mqmix_part_size(o->mix, i);
        if (ni && x >= mqmix_index(o->mix, i, 1) && x <= mqmix_index(o->mix, i, ni)) {
            sb_printf(b, "%s %u", game_of(o->game->u.list.items[i])->name,
                      x - mqmix_index(o->mix, i, 1) + 1);
            return;
        }
    }
}

/* The rows of the images of heaps first..last (indices), ten to a row
 * numbered from h0. */
static void phi_rows(const Quotient *q, uint32_t first, uint32_t last, uint32_t h0, StrBuf *b)
{
    size_t w = 1;
    for (uint32_t x = first; x <= last; x++) {
        char *s = quotient_format(q, quotient_phi(q, x));
        if (strlen(s) > w)
            w = strlen(s);
        free(s);
    }
    for (uint32_t x = first; x <= last; x++) {
        uint32_t h = x - first + h0;
        if ((h - h0) % 10 == 0)
            sb_printf(b, "  %4u:", h);
        char *s = quotient_format(q, quotient_phi(q, x));
        sb_printf(b, " %-*s", (int)w, s);
        free(s);
        if ((h - h0) % 10 == 9 || x == last) {
            while (b->len > 0 && b->s[b->len - 1] == ' ')
                b->s[--b->len] = '\0';
            sb_putc(b, '\n');
        }
    }
}

/* A mixed or explicit-set quotient (docs/misere.md, "Mixed and
 * explicit-set quotients"): the same parts as one ruleset's, with the
 * images listed by part (heap 0 of every part is the empty game, 1). */
static void quot_text_mix(const QuotObj *o, StrBuf *b)
{
    const Quotient *q = o->q;
    sb_printf(b, "Q of %s: |Q| = %u, |P| = %u%s\n", quot_game_name(o), quotient_size(q),
              quotient_psize(q), quotient_is_tame(q) ? " (tame)" : "");
    if (o->partial)
        sb_printf(b, "  partial result: %s\n", o->partial_note);
    if (o->certified)
        sb_puts(b, "  verified on every position by certificate\n");
    else
        sb_printf(b, "  NOT certified: %s\n", o->cert_note);
    pres_and_p(q, b);
    sb_puts(b, "}\n");
    uint32_t n = quotient_max_heap(q);
    if (o->explicit_set) {
        sb_puts(b, "  Phi:\n");
        for (uint32_t x = 1; x <= n; x++) {
            char *s = qword(q, quotient_phi(q, x));
            sb_printf(b, "    %s: %s\n", o->labels[x], s);
            free(s);
        }
    } else {
        for (size_t i = 0; i < mqmix_parts(o->mix); i++) {
            uint32_t ni = mqmix_part_size(o->mix, i);
            sb_printf(b, "  Phi of %s (heaps 1..%u):\n", game_of(o->game->u.list.items[i])->name,
                      ni);
            if (ni)
                phi_rows(q, mqmix_index(o->mix, i, 1), mqmix_index(o->mix, i, ni), 1, b);
        }
    }
    const uint32_t *eh, *es;
    size_t ne = quotient_expansions(q, &eh, &es);
    sb_puts(b, "  expansions (heap: |Q|):");
    for (size_t i = 0; i < ne; i++) {
        sb_puts(b, i ? ", " : " ");
        heap_label(o, eh[i], b);
        sb_printf(b, ": %u", es[i]);
    }
    if (ne == 0)
        sb_puts(b, " none");
}

static void quot_text(const void *ptr, StrBuf *b)
{
    const QuotObj *o = ptr;
    const Quotient *q = o->q;
    uint32_t n = quotient_max_heap(q);
    if (o->mix) {
        quot_text_mix(o, b);
        return;
    }
    if (o->inf) {
        mqinf_text(o->inf, quot_game_name(o), quotient_size(q), quotient_psize(q), o->certified,
                   o->proof_path, o->asked, b);
        return;
    }
    sb_printf(b, "Q(%u) of %s: |Q| = %u, |P| = %u%s\n", n, quot_game_name(o), quotient_size(q),
              quotient_psize(q), quotient_is_tame(q) ? " (tame)" : "");
    if (o->partial)
        sb_printf(b, "  partial result: %s\n", o->partial_note);
    if (o->certified)
        sb_printf(b, "  verified to heap %u by certificate\n", n);
    else
        sb_printf(b, "  NOT certified: %s\n", o->cert_note);
    pres_and_p(q, b);
    sb_printf(b, "}\n  Phi (heaps 0..%u):\n", n);
    phi_rows(q, 0, n, 0, b);
    const uint32_t *eh, *es;
    size_t ne = quotient_expansions(q, &eh, &es);
    sb_puts(b, "  expansions (heap: |Q|):");
    for (size_t i = 0; i < ne; i++)
        sb_printf(b, " %u:%u", eh[i], es[i]);
    if (ne == 0)
        sb_puts(b, " none");
    sb_putc(b, '\n');
    if (o->have_period) {
        if (o->period.found)
            sb_printf(b,
                      "  pretending function periodic: period %u, preperiod %u (proved at "
                      "%u heaps; last rogue heap %d)\n",
                      o->period.period, o->period.preperiod, o->period.heaps,
                      o->period.last_rogue);
        else if (o->period_limit && n >= o->period_limit)
            sb_printf(b, "  no periodicity proved up to heap %u, the search's limit "
                         "(default 200): `quotient q = G limit %u` searches further\n",
                      n, 2 * n);
        else
            sb_printf(b, "  no periodicity proved up to heap %u\n", n);
    }
    if (b->len && b->s[b->len - 1] == '\n')
        b->s[--b->len] = '\0';
}

void quot_json_words(JsonWriter *w, const Quotient *q, bool only_p)
{
    jw_arr_begin(w);
    for (uint32_t x = 0; x < quotient_size(q); x++)
        if (!only_p || quotient_is_p(q, x)) {
            char *s = quotient_format(q, x);
            jw_str(w, s);
            free(s);
        }
    jw_arr_end(w);
}

static void quot_json(const void *ptr, JsonWriter *w)
{
    const QuotObj *o = ptr;
    const Quotient *q = o->q;
    uint32_t n = quotient_max_heap(q);
    jw_obj_begin(w);
    jw_kv_str(w, "kind", "quotient");
    jw_kv_str(w, "game", quot_game_name(o));
    if (o->inf) {
        jw_kv_int(w, "heap", o->inf->N);
        jw_key(w, "order");
        jw_null(w);
        jw_kv_bool(w, "infinite", true);
        jw_kv_bool(w, "certified", true);
        jw_kv_str(w, "proved", "certificate checked");
        if (o->proof_path)
            jw_kv_str(w, "proof_file", o->proof_path);
        jw_key(w, "finite_part");
        jw_obj_begin(w);
        jw_kv_int(w, "heap", n);
        jw_kv_int(w, "order", quotient_size(q));
        jw_kv_int(w, "pcount", quotient_psize(q));
        jw_kv_bool(w, "certified", o->certified);
        jw_obj_end(w);
        mqinf_json(o->inf, w);
        jw_obj_end(w);
        return;
    }
    jw_kv_int(w, "heap", n);
    jw_kv_int(w, "order", quotient_size(q));
    jw_kv_int(w, "pcount", quotient_psize(q));
    const Presentation *p = quotient_presentation(q);
    jw_key(w, "generators");
    jw_arr_begin(w);
    for (int g = 0; g < p->ngens; g++)
        jw_str(w, p->gen_names[g]);
    jw_arr_end(w);
    jw_key(w, "relations");
    jw_arr_begin(w);
    for (size_t r = 0; r < p->nrels; r++) {
        jw_arr_begin(w);
        for (int side = 0; side < 2; side++) {
            char *s = word_format(p->rels + (2 * r + (size_t)side) * (size_t)p->ngens, p->ngens,
                                  p->gen_names);
            jw_str(w, s);
            free(s);
        }
        jw_arr_end(w);
    }
    jw_arr_end(w);
    jw_key(w, "p_portion");
    quot_json_words(w, q, true);
    jw_key(w, "phi");
    jw_arr_begin(w);
    for (uint32_t h = 0; h <= n; h++) {
        char *s = quotient_format(q, quotient_phi(q, h));
        jw_str(w, s);
        free(s);
    }
    jw_arr_end(w);
    const uint32_t *eh, *es;
    size_t ne = quotient_expansions(q, &eh, &es);
    jw_key(w, "expansions");
    jw_arr_begin(w);
    for (size_t i = 0; i < ne; i++) {
        jw_arr_begin(w);
        jw_int(w, eh[i]);
        jw_int(w, es[i]);
        jw_arr_end(w);
    }
    jw_arr_end(w);
    if (o->explicit_set) {
        /* the game of each heap index of phi (index 0: the empty game) */
        jw_key(w, "games");
        jw_arr_begin(w);
        for (uint32_t j = 0; j < o->nids; j++)
            jw_str(w, o->labels[j]);
        jw_arr_end(w);
    } else if (o->mix) {
        /* phi lists heap 0, then heaps 1..heaps of each part in turn */
        jw_key(w, "parts");
        jw_arr_begin(w);
        for (size_t i = 0; i < mqmix_parts(o->mix); i++) {
            jw_obj_begin(w);
            jw_kv_str(w, "game", game_of(o->game->u.list.items[i])->name);
            jw_kv_int(w, "heaps", mqmix_part_size(o->mix, i));
            jw_obj_end(w);
        }
        jw_arr_end(w);
    }
    jw_kv_bool(w, "tame", quotient_is_tame(q));
    jw_kv_bool(w, "certified", o->certified);
    jw_kv_bool(w, "partial", o->partial);
    if (o->have_period) {
        jw_key(w, "period");
        if (o->period.found) {
            jw_obj_begin(w);
            jw_kv_int(w, "period", o->period.period);
            jw_kv_int(w, "preperiod", o->period.preperiod);
            jw_kv_int(w, "last_rogue", o->period.last_rogue);
            jw_obj_end(w);
        } else {
            jw_null(w);
        }
    }
    jw_obj_end(w);
}

/* Equality of quotients (==): the same certified object, which is
 * equality of the game (its ruleset), the heap bound, the verdict (finite,
 * certified, partial; or infinite at the same heap with the same proved
 * description) and the tables: order, generator actions, P-portion and
 * pretending function in the quotient's own numbering (elements by normal
 * form, docs/misere.md).  Generator names are not compared. */
static bool quot_equal(const void *pa, const void *pb)
{
    const QuotObj *a = pa, *b = pb;
    if (!a->mix != !b->mix || a->explicit_set != b->explicit_set)
        return false;
    if (a->mix) {
        /* the mixed game's name lists its parts and bounds */
        if (strcmp(quot_game_name(a), quot_game_name(b)) != 0)
            return false;
    } else {
        const GameObj *ga = game_of(a->game), *gb = game_of(b->game);
        if (ga->rs->kind != gb->rs->kind || strcmp(ga->rs->name, gb->rs->name) != 0)
            return false;
    }
    if (a->certified != b->certified || a->partial != b->partial || !a->inf != !b->inf)
        return false;
    if (a->inf) {
        const MqInfProof *x = a->inf, *y = b->inf;
        if (x->N != y->N || x->H != y->H || x->G != y->G || x->S != y->S || x->t != y->t ||
            x->q != y->q || memcmp(x->grp, y->grp, x->N + 1) != 0 ||
            x->b0 != y->b0 || x->pb != y->pb || x->a0 != y->a0 || x->pa != y->pa ||
            x->TA != y->TA || x->TB != y->TB ||
            memcmp(x->lab, y->lab, (size_t)x->S * (x->TA + 1) * (x->TB + 1)) != 0)
            return false;
    }
    MqClaim ca, cb;
    quotient_claim(a->q, &ca);
    quotient_claim(b->q, &cb);
    if (ca.size != cb.size || ca.ngens != cb.ngens || ca.np != cb.np || ca.n != cb.n)
        return false;
    return memcmp(ca.act, cb.act, (size_t)ca.size * (size_t)ca.ngens * sizeof *ca.act) == 0 &&
           memcmp(ca.p, cb.p, ca.np * sizeof *ca.p) == 0 &&
           memcmp(ca.phi, cb.phi, ((size_t)ca.n + 1) * sizeof *ca.phi) == 0;
}

const ObjType quotient_type = {"quotient", quot_free, quot_text, quot_json, NULL, quot_equal};

/* The record quotient(g, N) returns (docs/language.md, "Results as
 * records"): the numbers of the quotient and, in field q, the quotient
 * itself, which every statement taking a quotient also accepts through the
 * record. */
Value *quot_record(Value *qv)
{
    const QuotObj *o = qv->u.obj.ptr;
    const Quotient *q = o->q;
    Value *r = val_map();
    val_map_set_str(r, "game", quot_game_name(o));
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
