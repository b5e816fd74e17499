/* The quotient as an algebraic object (docs/misere.md, "The quotient as a
 * monoid"): monoid(q), the forms of the presentations module's builtins
 * for a quotient (the quotient is turned into its presentation with the
 * P-portion and the pretending function, a `semigroup` value, and the
 * presentations module answers), rewriting(q) as data, isomorphic(q1, q2)
 * and the equality of quotient values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/monoid_iso.h"
#include "modules/games/gameobj.h"
#include "modules/kb/module.h"
#include "modules/kb/semiobj.h"
#include "modules/misere/bi_misere.h"
#include "modules/misere/module.h"
#include "modules/misere/quotobj.h"
#include "lib/util/xalloc.h"

static QuotObj *quot_of(const Value *v) { return v->u.obj.ptr; }

static const char *game_name(const QuotObj *o) { return quot_game_name(o); }

/* "< x, z | x^2 = 1, z^3 = z > with P = {x, z^2} with phi = [1, 1, x, ...]" */
static char *semi_text_of(const Quotient *q)
{
    const Presentation *p = quotient_presentation(q);
    StrBuf b;
    sb_init(&b);
    sb_puts(&b, "< ");
    for (int g = 0; g < p->ngens; g++)
        sb_printf(&b, "%s%s", g ? ", " : "", p->gen_names[g]);
    sb_puts(&b, " | ");
    for (size_t r = 0; r < p->nrels; r++) {
        char *l = word_format(p->rels + 2 * r * (size_t)p->ngens, p->ngens, p->gen_names);
        char *rr = word_format(p->rels + (2 * r + 1) * (size_t)p->ngens, p->ngens, p->gen_names);
        sb_printf(&b, "%s%s = %s", r ? ", " : "", l, rr);
        free(l);
        free(rr);
    }
    if (p->nrels == 0)
        sb_puts(&b, "1 = 1");
    sb_puts(&b, " > with P = {");
    bool first = true;
    for (uint32_t x = 0; x < quotient_size(q); x++)
        if (quotient_is_p(q, x)) {
            char *s = quotient_format(q, x);
            sb_printf(&b, "%s%s", first ? "" : ", ", s);
            free(s);
            first = false;
        }
    sb_puts(&b, "} with phi = [");
    for (uint32_t h = 0; h <= quotient_max_heap(q); h++) {
        char *s = quotient_format(q, quotient_phi(q, h));
        sb_printf(&b, "%s%s", h ? ", " : "", s);
        free(s);
    }
    sb_puts(&b, "]");
    return b.s;
}

Value *quot_semigroup(Interp *I, const Value *qv, Loc loc)
{
    QuotObj *o = quot_of(qv);
    if (o->inf) {
        rt_error(I, DIAG_DOMAIN, loc,
                 "Q(%u) of %s is infinite (proved): it has no finite presentation to give",
                 o->inf->N, game_name(o));
        rt_hint(I, "`print` shows its finite description; monoid() of the finite part: "
                   "quotient q = G to %u",
                mqinf_first(o->inf) - 1);
        return NULL;
    }
    if (o->semi)
        return val_ref(o->semi);
    const Quotient *q = o->q;
    const Presentation *p = quotient_presentation(q);
    size_t g = (size_t)p->ngens;
    SemiObj *s = xcalloc(1, sizeof *s);
    s->commutative = true;
    s->name = xasprintf("Q(%u) of %s", quotient_max_heap(q), game_name(o));
    s->text = semi_text_of(q);
    s->data.pres = pres_new(p->ngens, (const char *const *)p->gen_names);
    for (size_t r = 0; r < p->nrels; r++)
        pres_add_relation(s->data.pres, p->rels + 2 * r * g, p->rels + (2 * r + 1) * g);
    s->data.nwith = 2;
    s->data.with = xcalloc(2, sizeof *s->data.with);
    PresWith *pw = &s->data.with[0], *fw = &s->data.with[1];
    pw->name = "P";
    pw->n = quotient_psize(q);
    pw->words = xcalloc((pw->n ? pw->n : 1) * (g ? g : 1), sizeof *pw->words);
    size_t k = 0;
    for (uint32_t x = 0; x < quotient_size(q); x++)
        if (quotient_is_p(q, x))
            memcpy(pw->words + g * k++, quotient_word(q, x), g * sizeof *pw->words);
    fw->name = "phi";
    fw->is_list = true;
    fw->n = (size_t)quotient_max_heap(q) + 1;
    fw->words = xcalloc(fw->n * (g ? g : 1), sizeof *fw->words);
    for (uint32_t h = 0; h < fw->n; h++)
        memcpy(fw->words + g * h, quotient_word(q, quotient_phi(q, h)), g * sizeof *fw->words);
    pw->loc = fw->loc = loc;
    o->semi = val_obj(&semigroup_type, s);
    return val_ref(o->semi);
}

/* The presentations module's builtin fn, asked about the quotient's
 * presentation: the first argument is replaced by the semigroup value,
 * which the result printers then read as well. */
static Value *as_semigroup(Call *c, BuiltinFn fn)
{
    Value *sv = quot_semigroup(c->I, c->args[0], c->arg_locs[0]);
    if (!sv)
        return NULL;
    val_unref(c->args[0]);
    c->args[0] = sv;
    return fn(c);
}

Value *bi_quotient_monoid(Call *c) { return quot_semigroup(c->I, c->args[0], c->arg_locs[0]); }
Value *bi_quotient_kb(Call *c) { return as_semigroup(c, bi_kb); }
Value *bi_quotient_reduce(Call *c) { return as_semigroup(c, bi_reduce); }
Value *bi_quotient_confluent(Call *c) { return as_semigroup(c, bi_confluent); }
Value *bi_quotient_idempotents(Call *c) { return as_semigroup(c, bi_idempotents); }
Value *bi_quotient_multable(Call *c) { return as_semigroup(c, bi_multable); }
Value *bi_quotient_bipartite(Call *c) { return as_semigroup(c, bi_bipartite); }
Value *bi_quotient_structure(Call *c) { return as_semigroup(c, bi_structure); }

/* ---- isomorphism ---- */

/* A finite monoid with its marked subset, as full tables, and the names
 * of its elements. */
typedef struct Tab {
    MonoidTab t;
    uint32_t *mul;
    bool *mark;
    char **names;
    char *what;
} Tab;

static void tab_free(Tab *t)
{
    for (size_t i = 0; t->names && i < t->t.order; i++)
        free(t->names[i]);
    free(t->names);
    free(t->mul);
    free(t->mark);
    free(t->what);
}

static bool tab_of(Call *c, const Value *v, Loc loc, Tab *t)
{
    memset(t, 0, sizeof *t);
    if (val_is_obj(v, &quotient_type)) {
        const QuotObj *o = quot_of(v);
        if (o->inf) {
            rt_error(c->I, DIAG_DOMAIN, loc,
                     "Q(%u) of %s is infinite (proved): isomorphism is decided for finite "
                     "quotients",
                     o->inf->N, game_name(o));
            return false;
        }
        const Quotient *q = o->q;
        size_t n = quotient_size(q);
        if (n > MONOID_ISO_MAX_ORDER) {
            rt_error(c->I, DIAG_LIMIT, loc,
                     "isomorphism is decided for quotients of at most %u elements, not %zu",
                     MONOID_ISO_MAX_ORDER, n);
            return false;
        }
        t->what = xasprintf("Q(%u) of %s", quotient_max_heap(q), game_name(o));
        t->mul = xmalloc(n * n * sizeof *t->mul);
        t->mark = xcalloc(n, sizeof *t->mark);
        t->names = xcalloc(n, sizeof *t->names);
        for (uint32_t x = 0; x < n; x++) {
            for (uint32_t y = 0; y < n; y++)
                t->mul[(size_t)x * n + y] = quotient_mul(q, x, y);
            t->mark[x] = quotient_is_p(q, x);
            t->names[x] = quotient_format(q, x);
        }
        t->t = (MonoidTab){.order = n, .identity = 0, .mul = t->mul, .mark = t->mark};
        return true;
    }
    SemiObj *s = v->u.obj.ptr;
    if (!s->commutative) {
        rt_error(c->I, DIAG_TYPE, loc, "isomorphic works on quotients and commutative "
                                       "presentations (semigroup)");
        return false;
    }
    FiniteMonoid *m = semi_monoid(c->I, s, loc);
    if (!m)
        return false;
    size_t n = m->order;
    if (n > MONOID_ISO_MAX_ORDER) {
        rt_error(c->I, DIAG_LIMIT, loc,
                 "isomorphism is decided for monoids of at most %u elements, not %zu",
                 MONOID_ISO_MAX_ORDER, n);
        return false;
    }
    t->what = xstrdup(s->name);
    t->mul = xmalloc(n * n * sizeof *t->mul);
    t->mark = xcalloc(n, sizeof *t->mark);
    t->names = xcalloc(n, sizeof *t->names);
    for (size_t x = 0; x < n; x++) {
        for (size_t y = 0; y < n; y++)
            t->mul[x * n + y] = (uint32_t)monoid_mul(m, x, y);
        t->names[x] = word_format(m->elems + x * (size_t)m->ngens, m->ngens, m->gen_names);
    }
    const PresWith *pw = presdata_with(&s->data, "P");
    for (size_t i = 0; pw && i < pw->n; i++)
        t->mark[monoid_eval(m, pw->words + i * (size_t)m->ngens)] = true;
    t->t = (MonoidTab){.order = n, .identity = 0, .mul = t->mul, .mark = t->mark};
    return true;
}

/* isomorphic(A, B) and `isomorphic A B;`: false, or the map as a record
 * from the elements of A to those of B (their words). */
Value *bi_isomorphic(Call *c)
{
    Tab a, b;
    if (!tab_of(c, c->args[0], c->arg_locs[0], &a))
        return NULL;
    if (!tab_of(c, c->args[1], c->arg_locs[1], &b)) {
        tab_free(&a);
        return NULL;
    }
    MonoidIso iso;
    CgtError err;
    cgt_error_clear(&err);
    if (monoid_tab_isomorphism(&a.t, &b.t, 0, &iso, &err) != CGT_OK) {
        tab_free(&a);
        tab_free(&b);
        return rt_error_from(c->I, c->loc, &err);
    }
    Value *r;
    if (iso.isomorphic) {
        r = val_map();
        for (size_t x = 0; x < a.t.order; x++)
            val_map_set_str(r, a.names[x], b.names[iso.map[x]]);
    } else {
        r = val_bool(false);
    }
    monoid_iso_free(&iso);
    tab_free(&a);
    tab_free(&b);
    return r;
}

/* "Q(9) of 0.07", or a presentation's name: how the statement names an
 * argument. */
static char *iso_name(const Value *v)
{
    if (val_is_obj(v, &quotient_type)) {
        const QuotObj *o = quot_of(v);
        return xasprintf("Q(%u) of %s", quotient_max_heap(o->q), game_name(o));
    }
    if (val_is_obj(v, &semigroup_type))
        return xstrdup(((const SemiObj *)v->u.obj.ptr)->name);
    return xstrdup("?");
}

/* The statement's text of the value bi_isomorphic returns: the verdict,
 * then the map, one element of A a line. */
void misere_isomorphic_text(const Call *c, const Value *v, StrBuf *b)
{
    char *a = iso_name(c->args[0]), *bn = iso_name(c->args[1]);
    if (v->kind != VAL_MAP) {
        sb_printf(b, "%s and %s are not isomorphic\n", a, bn);
    } else {
        sb_printf(b, "%s and %s are isomorphic (%zu elements):\n", a, bn, v->u.map.len);
        for (size_t i = 0; i < v->u.map.len; i++)
            sb_printf(b, "  %-10s -> %s\n", v->u.map.keys[i], v->u.map.vals[i]->u.str.s);
    }
    free(a);
    free(bn);
}
