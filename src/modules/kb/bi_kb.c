/* Builtins of the presentations module (docs/kb.md): `semigroup` and
 * `monoid` declarations, Knuth–Bendix completion (`kb`), elements,
 * normal forms, rule-list checks, idempotents, maximal subgroups,
 * multiplication tables and bipartite quotients.  The systems print
 * through src/modules/kb/kbprint.c, as `rewriting q` does. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/wordparse.h"
#include "modules/kb/module.h"
#include "modules/kb/kbprint.h"
#include "modules/kb/semiobj.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

/* ---- declarations ---- */

static bool nc_word(Interp *I, const AstNode *word, const NcPresentation *p, VEC_U32 *out);

static Value *declare(Call *c, bool commutative)
{
    const AstNode *cmd = c->raw;
    if (cmd->nkids != 1 || cmd->kids[0]->kind != AST_PRES) {
        rt_error(c->I, DIAG_TYPE, cmd->nkids ? cmd->kids[0]->loc : cmd->loc,
                 "expected a presentation < generators | relations >");
        rt_hint(c->I, "for example: %s S = < x, z | x^2 = 1, z^3 = z >;",
                commutative ? "semigroup" : "monoid");
        return NULL;
    }
    const AstNode *pa = cmd->kids[0];
    if (pa->kids[0]->nkids == 0) {
        rt_error(c->I, DIAG_DOMAIN, pa->loc, "a presentation needs at least one generator");
        return NULL;
    }
    SemiObj *s = xcalloc(1, sizeof *s);
    s->commutative = commutative;
    s->name = xstrdup(c->decl_name ? c->decl_name : "S");
    s->text = diag_source_text(pa->loc);
    if (!presdata_from_ast(c->I, pa, &s->data)) {
        semi_free(s);
        return NULL;
    }
    if (!commutative) {
        const Presentation *cp = s->data.pres;
        s->nc = ncpres_new(cp->ngens, (const char *const *)cp->gen_names);
        const AstNode *rels = pa->kids[1];
        for (size_t r = 0; r < rels->nkids; r++) {
            const AstNode *rel = rels->kids[r];
            VEC_U32 a = {0}, b = {0};
            if (!nc_word(c->I, rel->kids[0], s->nc, &a)) {
                semi_free(s);
                return NULL;
            }
            for (size_t k = 1; k < rel->nkids; k++) {
                b.len = 0;
                if (!nc_word(c->I, rel->kids[k], s->nc, &b)) {
                    VEC_FREE(a);
                    VEC_FREE(b);
                    semi_free(s);
                    return NULL;
                }
                ncpres_add_relation(s->nc, a.data, a.len, b.data, b.len);
                a.len = 0;
                for (size_t i = 0; i < b.len; i++)
                    VEC_PUSH(a, b.data[i]);
            }
            VEC_FREE(a);
            VEC_FREE(b);
        }
    }
    return val_obj(&semigroup_type, s);
}

static bool nc_word(Interp *I, const AstNode *word, const NcPresentation *p, VEC_U32 *out)
{
    for (size_t i = 0; i < word->nkids; i++) {
        const AstNode *f = word->kids[i];
        char *text = presdata_factor_text(I, f);
        if (!text)
            return false;
        uint32_t *w = NULL;
        size_t len = 0, bad = 0;
        CgtError err;
        cgt_error_clear(&err);
        if (wordparse_nc(text, strlen(text), (const char *const *)p->gen_names, p->ngens, &w,
                         &len, &bad, &err) != CGT_OK) {
            Loc l = f->loc;
            if (bad < strlen(f->text)) {
                l.start += (uint32_t)bad;
                l.end = l.start + 1;
            }
            free(text);
            rt_error_from(I, l, &err);
            return false;
        }
        free(text);
        if (out->len + len > 100000) {
            free(w);
            rt_error(I, DIAG_LIMIT, f->loc, "word longer than 100000 letters");
            return false;
        }
        for (size_t j = 0; j < len; j++)
            VEC_PUSH(*out, w[j]);
        free(w);
    }
    return true;
}

Value *bi_semigroup(Call *c)
{
    return declare(c, true);
}

/* monoid(X): the presentation of a value that has one, through the form
 * of `monoid` that X's module gives (BI_OVERLOAD: monoid(q) of a misere
 * quotient); a semigroup is its own. */
static Value *monoid_of(Call *c)
{
    const AstNode *call = c->raw;
    if (call->nkids != 1)
        return rt_error(c->I, DIAG_TYPE, call->loc, "monoid(X) takes one argument, got %zu",
                        call->nkids);
    Value *v = rt_eval(c->I, call->kids[0]);
    if (!v)
        return NULL;
    Value *inner = v->kind == VAL_MAP ? val_map_get(v, "q") : NULL;
    if (inner && inner->kind == VAL_OBJ) {
        /* the record quotient(G, N) returns stands for its quotient */
        Value *q = val_ref(inner);
        val_unref(v);
        v = q;
    }
    if (val_is_obj(v, &semigroup_type))
        return v;
    const Builtin *o = builtin_overload(c->bi, v);
    if (!o) {
        rt_error(c->I, DIAG_TYPE, call->kids[0]->loc,
                 "monoid() takes a quotient or a semigroup, got %s", val_kind_name(v));
        val_unref(v);
        return NULL;
    }
    /* the dispatcher releases the arguments of the call */
    c->args[0] = v;
    c->arg_locs[0] = call->kids[0]->loc;
    c->nargs = 1;
    c->bi = o;
    return o->fn(c);
}

Value *bi_monoid(Call *c)
{
    if (!c->decl_name)
        return monoid_of(c);
    return declare(c, false);
}

static SemiObj *semi_of(const Value *v)
{
    return v->u.obj.ptr;
}

static bool parse_order(Call *c, const SemiObj *s, KbOrder *ord, int **perm, uint32_t **weights)
{
    *ord = kb_order_default();
    *perm = NULL;
    *weights = NULL;
    Value *ov = call_opt(c, "order"), *gv = call_opt(c, "gens"), *wv = call_opt(c, "weights");
    int ng = s->data.pres->ngens;
    if (ov) {
        const char *o = ov->u.str.s;
        if (strcmp(o, "shortlex") == 0)
            ord->kind = KB_ORDER_SHORTLEX;
        else if (strcmp(o, "degrevlex") == 0)
            ord->kind = KB_ORDER_DEGREVLEX;
        else if (strcmp(o, "deglex") == 0)
            ord->kind = KB_ORDER_DEGLEX;
        else if (strcmp(o, "lex") == 0)
            ord->kind = KB_ORDER_LEX;
        else if (strcmp(o, "weighted") == 0)
            ord->kind = KB_ORDER_WEIGHTED;
        else {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "order"), "unknown order '%s'", o);
            rt_hint(c->I, "orders: shortlex, degrevlex, deglex, lex, weighted");
            return false;
        }
    }
    if (gv) {
        *perm = xcalloc((size_t)ng, sizeof **perm);
        char *t = xstrdup(gv->u.str.s);
        int k = 0;
        for (char *tok = strtok(t, " ,<"); tok; tok = strtok(NULL, " ,<")) {
            int f = -1;
            for (int i = 0; i < ng; i++)
                if (strcmp(s->data.pres->gen_names[i], tok) == 0)
                    f = i;
            for (int j = 0; j < k && f >= 0; j++)
                if ((*perm)[j] == f)
                    f = -2;
            if (f < 0 || k >= ng) {
                /* tok points into t: report before freeing it */
                rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "gens"),
                         f == -2 ? "generator '%s' listed twice" : "'%s' is not a generator",
                         tok);
                free(t);
                return false;
            }
            (*perm)[k++] = f;
        }
        free(t);
        if (k != ng) {
            rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "gens"),
                     "the generator order must list all %d generators", ng);
            return false;
        }
        ord->gen_order = *perm;
    }
    if (ord->kind == KB_ORDER_WEIGHTED) {
        if (!wv || wv->u.list.len != (size_t)ng) {
            rt_error(c->I, DIAG_DOMAIN, wv ? call_opt_loc(c, "weights") : c->loc,
                     "the weighted order needs `weights [...]` with %d positive integers", ng);
            return false;
        }
        *weights = xcalloc((size_t)ng, sizeof **weights);
        for (int i = 0; i < ng; i++) {
            int64_t x;
            if (!call_int(c, wv->u.list.items[i], call_opt_loc(c, "weights"), "a weight", 1,
                          1000000, &x))
                return false;
            (*weights)[i] = (uint32_t)x;
        }
        ord->weights = *weights;
    }
    return true;
}

/* Rules in a growing family before a stopped completion calls it one. */
#define KB_FAMILY_MIN 8

static Value *kb_nc(Call *c, SemiObj *s)
{
    CgtError err;
    cgt_error_clear(&err);
    NcSystem *sys = NULL;
    Value *mr = call_opt(c, "max_rules");
    int64_t maxr = 0;
    if (mr && !call_int(c, mr, call_opt_loc(c, "max_rules"), "max_rules", 1, 100000000, &maxr))
        return NULL;
    NcLimits lim = {.max_rules = (size_t)maxr, .max_lhs_len = 0};
    CgtStatus st = nckb_complete(s->nc, NULL, &lim, &sys, &err);
    if (st != CGT_OK && !sys)
        return rt_error_from(c->I, c->loc, &err);
    /* stopped by the max_rules the script asked for: a result, not an error */
    bool requested = st == CGT_ERR_LIMIT && mr && sys->nrules >= (size_t)maxr;
    Value *rec = nckb_system_record(sys, s->name, requested ? (long)maxr : 0);
    size_t fam_first = 0, fam = st == CGT_OK || requested ? 0
                                                          : nckb_growing_family(sys, &fam_first);
    char *fam_a = NULL, *fam_b = NULL;
    if (fam >= KB_FAMILY_MIN) {
        size_t last = fam_first + fam - 1;
        fam_a = nckb_format_word(sys, sys->words + sys->lhs_off[fam_first],
                                 sys->lhs_len[fam_first]);
        fam_b = nckb_format_word(sys, sys->words + sys->lhs_off[last], sys->lhs_len[last]);
    }
    nckb_free(sys);
    if (st == CGT_OK || requested)
        return rec;
    rt_error_from(c->I, c->loc, &err);
    if (fam_a && st == CGT_ERR_LIMIT)
        rt_hint(c->I, "%zu rules, %s to %s, each one letter longer than the last, form a family "
                      "that grows without end: shortlex completion of %s will most likely never "
                      "finish, and more time will not help; kb(%s, {max_rules: N}) keeps a "
                      "partial system, and other generators or relations may complete",
                fam, fam_a, fam_b, s->name, s->name);
    free(fam_a);
    free(fam_b);
    rt_set_partial(c->I, rec); /* e.partial: the system so far */
    return NULL;
}

Value *bi_kb(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    if (!s->commutative)
        return kb_nc(c, s);
    KbOrder ord;
    int *perm;
    uint32_t *weights;
    if (!parse_order(c, s, &ord, &perm, &weights)) {
        free(perm);
        free(weights);
        return NULL;
    }
    Value *mr = call_opt(c, "max_rules");
    int64_t maxr = 0;
    if (mr && !call_int(c, mr, call_opt_loc(c, "max_rules"), "max_rules", 1, 100000000, &maxr)) {
        free(perm);
        free(weights);
        return NULL;
    }
    KbLimits lim = {.max_rules = (size_t)maxr};
    KbSystem *sys = NULL;
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = kb_complete(s->data.pres, &ord, &lim, &sys, &err);
    free(perm);
    free(weights);
    if (st != CGT_OK && !sys)
        return rt_error_from(c->I, c->loc, &err);
    bool requested = st == CGT_ERR_LIMIT && mr && sys->nrules >= (size_t)maxr;
    Value *r = kb_system_record(sys, s->name, requested ? (long)maxr : 0);
    kb_free(sys);
    if (st != CGT_OK && !requested) {
        rt_error_from(c->I, c->loc, &err);
            rt_set_partial(c->I, r); /* e.partial: the system so far */
        return NULL;
    }
    return r;
}

/* ---- elements, reduce ---- */

Value *bi_elements(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    CgtError err;
    cgt_error_clear(&err);
    StrBuf b;
    sb_init(&b);
    Value *list = val_list();
    size_t count = 0;
    if (s->commutative) {
        KbSystem *sys = semi_system(c->I, s, c->arg_locs[0]);
        if (!sys)
            goto fail;
        char *why = NULL;
        if (!kb_is_finite(sys, &why)) {
            if (c->stmt) {
                /* the statement's result, not an error: the script goes on */
                Value *r = val_result("elements");
                val_map_set_str(r, "of", s->name);
                val_map_set_bool(r, "infinite", true);
                val_map_set_str(r, "reason", why);
                free(why);
                val_unref(list);
                sb_free(&b);
                return r;
            }
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "%s is infinite: %s", s->name, why);
            free(why);
            goto fail;
        }
        uint32_t *el;
        if (kb_elements(sys, 0, &el, &count, &err) != CGT_OK) {
            rt_error_from(c->I, c->arg_locs[0], &err);
            goto fail;
        }
        for (size_t i = 0; i < count; i++)
            val_list_push(list, val_str_own(word_format(el + i * (size_t)sys->ngens, sys->ngens,
                                                        sys->gen_names)));
        free(el);
    } else {
        NcSystem *sys = NULL;
        if (nckb_complete(s->nc, NULL, NULL, &sys, &err) != CGT_OK) {
            if (sys)
                nckb_free(sys);
            rt_error_from(c->I, c->arg_locs[0], &err);
            goto fail;
        }
        uint32_t *words;
        size_t *offs, *lens;
        if (nckb_elements(sys, 0, &words, &offs, &lens, &count, &err) != CGT_OK) {
            nckb_free(sys);
            rt_error_from(c->I, c->arg_locs[0], &err);
            goto fail;
        }
        for (size_t i = 0; i < count; i++)
            val_list_push(list, val_str_own(nckb_format_word(sys, words + offs[i], lens[i])));
        free(words);
        free(offs);
        free(lens);
        nckb_free(sys);
    }
    sb_free(&b);
    return list;
fail:
    val_unref(list);
    sb_free(&b);
    return NULL;
}

Value *bi_reduce(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    if (!s->commutative)
        return rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                        "reduce works on commutative presentations (semigroup)");
    KbSystem *sys = semi_system(c->I, s, c->arg_locs[0]);
    if (!sys)
        return NULL;
    int g = sys->ngens;
    uint32_t *w = xcalloc((size_t)g, sizeof *w);
    size_t bad = 0;
    CgtError err;
    cgt_error_clear(&err);
    if (wordparse_compact(c->args[1]->u.str.s, (const char *const *)sys->gen_names, g, w, &bad,
                          &err) != CGT_OK ||
        kb_reduce(sys, w, 0, &err) != CGT_OK) {
        free(w);
        return rt_error_from(c->I, c->arg_locs[1], &err);
    }
    char *s0 = word_format(w, g, sys->gen_names);
    free(w);
    return val_str_own(s0);
}

/* `elements S`: the count and the elements, ten to a line. */
void kb_elements_text(const Call *c, const Value *l, StrBuf *b)
{
    if (l->kind != VAL_LIST) {
        val_format(l, b, true);
        sb_putc(b, '\n');
        return;
    }
    size_t count = l->u.list.len;
    sb_printf(b, "%zu elements of %s:\n ", count, semi_of(c->args[0])->name);
    for (size_t i = 0; i < count; i++) {
        sb_printf(b, " %s%s", l->u.list.items[i]->u.str.s, i + 1 < count ? "," : "");
        if (i % 10 == 9 && i + 1 < count)
            sb_puts(b, "\n ");
    }
    sb_putc(b, '\n');
}

/* `S is infinite: why`, the statement's answer where elements(S) fails. */
void kb_infinite_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    sb_printf(b, "%s is infinite: %s\n", val_field_str(r, "of"), val_field_str(r, "reason"));
}

/* `reduce S "WORD"`: the word as read, in the one notation of
 * src/lib/rewrite/word.h, and its normal form. */
void kb_reduce_text(const Call *c, const Value *v, StrBuf *b)
{
    const SemiObj *s = semi_of(c->args[0]);
    const KbSystem *sys = s->sys;
    char *typed = NULL;
    if (sys) {
        uint32_t *w = xcalloc((size_t)sys->ngens + 1, sizeof *w);
        size_t bad = 0;
        CgtError err;
        cgt_error_clear(&err);
        if (wordparse_compact(c->args[1]->u.str.s, (const char *const *)sys->gen_names,
                              sys->ngens, w, &bad, &err) == CGT_OK)
            typed = word_format(w, sys->ngens, sys->gen_names);
        free(w);
    }
    sb_printf(b, "%s -> ", typed ? typed : c->args[1]->u.str.s);
    val_format(v, b, true);
    sb_putc(b, '\n');
    free(typed);
}

/* ---- the relations as a rule list, unchanged ---- */

/* What `confluent` reports, for either kind of rewriting system: the
 * check's counts, the rule formatter of the system, the line describing
 * the first critical pair that does not resolve (owned, NULL when all
 * resolve), and the words for "one left side lies in another" (divisibility
 * for commutative words, a factor for strings). */
typedef struct ConfluenceReport {
    const char *name;
    size_t nrules, pairs_checked, ndiv, nred;
    bool locally_confluent, terminated, interreduced;
    const size_t *div_pairs;
    const void *sys;
    char *(*rule)(const void *sys, size_t i);
    char *bad_line;
    const char *div_summary; /* "divisible by another" */
    const char *div_verb;    /* "is divisible by" */
} ConfluenceReport;

static char *kb_rule_cb(const void *sys, size_t i) { return kb_format_rule(sys, i); }

static char *nc_rule_cb(const void *sys, size_t i) { return nckb_format_rule(sys, i); }

/* The record of `confluent S` (docs/language.md, "Results as records"). */
static Value *confluence_record(ConfluenceReport *r)
{
    Value *v = val_result("confluence");
    val_map_set_str(v, "of", r->name);
    val_map_set_int(v, "rules", (int64_t)r->nrules);
    val_map_set_int(v, "pairs_checked", (int64_t)r->pairs_checked);
    val_map_set_bool(v, "locally_confluent", r->locally_confluent);
    val_map_set_bool(v, "terminated", r->terminated);
    val_map_set_str(v, "confluence", !r->terminated         ? "unknown"
                                     : r->locally_confluent ? "confluent"
                                                            : "not confluent");
    val_map_set(v, "failure", r->bad_line ? val_str_own(r->bad_line) : val_null());
    r->bad_line = NULL;
    val_map_set_bool(v, "interreduced", r->interreduced);
    val_map_set_int(v, "divisible_left_sides", (int64_t)r->ndiv);
    val_map_set_int(v, "reducible_right_sides", (int64_t)r->nred);
    /* the pairs of rules whose left sides lie in one another */
    Value *pairs = val_list();
    for (size_t i = 0; i < r->ndiv; i++) {
        Value *pair = val_list();
        val_list_push(pair, val_str_own(r->rule(r->sys, r->div_pairs[2 * i])));
        val_list_push(pair, val_str_own(r->rule(r->sys, r->div_pairs[2 * i + 1])));
        val_list_push(pairs, pair);
    }
    val_map_set(v, "divisible_pairs", pairs);
    val_map_set_str(v, "relation", r->div_verb);
    return v;
}

void kb_confluence_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    int64_t n = val_field_int(r, "rules");
    sb_printf(b, "the %lld relation%s of %s as rules left -> right:\n", (long long)n,
              n == 1 ? "" : "s", val_field_str(r, "of"));
    /* a capped rewrite proves nothing either way: the rules may not
       terminate, and a word left at the cap is no normal form */
    bool terminated = val_field_bool(r, "terminated");
    sb_printf(b, "  %s (%lld critical pairs checked%s)\n",
              !terminated                               ? "confluence unknown"
              : val_field_bool(r, "locally_confluent") ? "confluent"
                                                        : "NOT confluent",
              (long long)val_field_int(r, "pairs_checked"),
              terminated ? "" : "; some rewrites hit the step cap, so the rules may not "
                                "terminate");
    const Value *f = val_map_get(r, "failure");
    if (f && f->kind == VAL_STR)
        sb_printf(b, "  %s\n", f->u.str.s);
    if (val_field_bool(r, "interreduced")) {
        sb_puts(b, "  inter-reduced\n");
        return;
    }
    const char *verb = val_field_str(r, "relation");
    int64_t ndiv = val_field_int(r, "divisible_left_sides");
    int64_t nred = val_field_int(r, "reducible_right_sides");
    sb_printf(b, "  NOT inter-reduced: %lld left side%s %s, %lld reducible right side%s\n",
              (long long)ndiv, ndiv == 1 ? "" : "s",
              strcmp(verb, "contains") == 0 ? "containing another" : "divisible by another",
              (long long)nred, nred == 1 ? "" : "s");
    const Value *pairs = val_map_get(r, "divisible_pairs");
    for (size_t i = 0; pairs && i < pairs->u.list.len && i < 10; i++) {
        const Value *p = pairs->u.list.items[i];
        sb_printf(b, "    left side of (%s) %s that of (%s)\n", p->u.list.items[0]->u.str.s,
                  verb, p->u.list.items[1]->u.str.s);
    }
    if (ndiv > 10)
        sb_printf(b, "    ... and %lld more\n", (long long)(ndiv - 10));
}

/* `confluent M` for a monoid presentation: string rewriting, rules as
 * written (nckb_check). */
static Value *confluent_nc(Call *c, SemiObj *s)
{
    NcSystem *sys = NULL;
    NcCheck chk;
    CgtError err;
    cgt_error_clear(&err);
    if (nckb_system_from_rules(s->nc, &sys, &err) != CGT_OK ||
        nckb_check(sys, 0, &chk, &err) != CGT_OK) {
        nckb_free(sys);
        return rt_error_from(c->I, c->loc, &err);
    }
    ConfluenceReport r = {s->name, sys->nrules, chk.pairs_checked, chk.ndiv, chk.nred,
                          chk.locally_confluent, chk.terminated, chk.interreduced,
                          chk.div_pairs, sys, nc_rule_cb, NULL, "containing another",
                          "contains"};
    if (!chk.locally_confluent) {
        char *wd = nckb_format_word(sys, chk.bad_word, chk.bad_word_len);
        char *a = nckb_format_word(sys, chk.bad_nf1, chk.bad_nf1_len);
        char *d = nckb_format_word(sys, chk.bad_nf2, chk.bad_nf2_len);
        char *r1 = nckb_format_rule(sys, chk.bad_i), *r2 = nckb_format_rule(sys, chk.bad_j);
        r.bad_line = xasprintf("%s, where (%s) and (%s) meet, rewrites to both %s and %s", wd,
                               r1, r2, a, d);
        free(wd);
        free(a);
        free(d);
        free(r1);
        free(r2);
    }
    Value *v = confluence_record(&r);
    nckb_check_free(&chk);
    nckb_free(sys);
    return v;
}

Value *bi_confluent(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    if (!s->commutative)
        return confluent_nc(c, s);
    const Presentation *p = s->data.pres;
    KbOrder ord = kb_order_default();
    KbSystem *sys = kb_system_from_rules(p->ngens, (const char *const *)p->gen_names, &ord,
                                         p->rels, p->nrels);
    KbCheck chk;
    CgtError err;
    cgt_error_clear(&err);
    if (kb_check(sys, 0, &chk, &err) != CGT_OK) {
        kb_free(sys);
        return rt_error_from(c->I, c->loc, &err);
    }
    ConfluenceReport r = {s->name, p->nrels, chk.pairs_checked, chk.ndiv, chk.nred,
                          chk.locally_confluent, chk.terminated, chk.interreduced,
                          chk.div_pairs, sys, kb_rule_cb, NULL, "divisible by another",
                          "is divisible by"};
    if (!chk.locally_confluent) {
        char *a = word_format(chk.bad_nf1, p->ngens, p->gen_names);
        char *d = word_format(chk.bad_nf2, p->ngens, p->gen_names);
        char *r1 = kb_format_rule(sys, chk.bad_i), *r2 = kb_format_rule(sys, chk.bad_j);
        r.bad_line = xasprintf("the overlap of (%s) and (%s) rewrites to both %s and %s", r1, r2,
                               a, d);
        free(a);
        free(d);
        free(r1);
        free(r2);
    }
    Value *v = confluence_record(&r);
    kb_check_free(&chk);
    kb_free(sys);
    return v;
}

/* ---- finite monoid structure ---- */

/* multable gives tables up to this order (4096^2 entries as a record) */
#define MULTABLE_MAX 4096

static char *elem_name(const FiniteMonoid *m, size_t x)
{
    return word_format(m->elems + x * (size_t)m->ngens, m->ngens, m->gen_names);
}

Value *bi_idempotents(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    FiniteMonoid *m = s->commutative ? semi_monoid(c->I, s, c->arg_locs[0]) : NULL;
    if (!m)
        return s->commutative ? NULL
                              : rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                                         "idempotents works on commutative presentations");
    size_t *ids, n;
    monoid_idempotents(m, &ids, &n);
    Value *r = val_result("idempotents"), *groups = val_list();
    val_map_set_str(r, "of", s->name);
    val_map_set(r, "groups", groups);
    for (size_t i = 0; i < n; i++) {
        MonoidGroup grp;
        CgtError err;
        cgt_error_clear(&err);
        if (monoid_maximal_subgroup(m, ids[i], &grp, &err) != CGT_OK) {
            free(ids);
            val_unref(r);
            return rt_error_from(c->I, c->loc, &err);
        }
        Value *g = val_map();
        val_map_set(g, "idempotent", val_str_own(elem_name(m, ids[i])));
        val_map_set_int(g, "order", (int64_t)grp.order);
        val_map_set(g, "structure", val_str_own(monoid_group_structure(&grp)));
        val_list_push(groups, g);
        monoid_group_free(&grp);
    }
    free(ids);
    return r;
}

void kb_idempotents_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const Value *groups = val_map_get(r, "groups");
    size_t n = groups && groups->kind == VAL_LIST ? groups->u.list.len : 0;
    sb_printf(b, "%zu idempotents of %s, with their maximal subgroups:\n", n,
              val_field_str(r, "of"));
    for (size_t i = 0; i < n; i++) {
        const Value *g = groups->u.list.items[i];
        sb_printf(b, "  %-12s group of order %lld (%s)\n", val_field_str(g, "idempotent"),
                  (long long)val_field_int(g, "order"), val_field_str(g, "structure"));
    }
}

Value *bi_multable(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    FiniteMonoid *m = s->commutative ? semi_monoid(c->I, s, c->arg_locs[0]) : NULL;
    if (!m)
        return s->commutative ? NULL
                              : rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                                         "multable works on commutative presentations");
    if (m->order > MULTABLE_MAX)
        return rt_error(c->I, DIAG_LIMIT, c->arg_locs[0],
                        "%zu elements: the table is given for at most %d", m->order,
                        MULTABLE_MAX);
    size_t n = m->order;
    Value *r = val_result("multable"), *el = val_list(), *tab = val_list();
    val_map_set_str(r, "of", s->name);
    for (size_t i = 0; i < n; i++)
        val_list_push(el, val_str_own(elem_name(m, i)));
    for (size_t i = 0; i < n; i++) {
        Value *row = val_list();
        for (size_t j = 0; j < n; j++)
            val_list_push(row, val_int((int64_t)monoid_mul(m, i, j)));
        val_list_push(tab, row);
    }
    val_map_set(r, "elements", el);
    val_map_set(r, "table", tab);
    return r;
}

/* The table with the elements' names, row i column j = i * j; past 64
 * elements a line that says where the table is. */
void kb_multable_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const Value *el = val_map_get(r, "elements"), *tab = val_map_get(r, "table");
    if (!el || el->kind != VAL_LIST || !tab || tab->kind != VAL_LIST)
        return;
    size_t n = el->u.list.len, w = 1;
    if (n > 64) {
        sb_printf(b,
                  "multiplication table of %s: %zu elements, too wide to print (it is printed "
                  "for at most 64); --format=json gives it as a record\n",
                  val_field_str(r, "of"), n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        if (el->u.list.items[i]->u.str.len > w)
            w = el->u.list.items[i]->u.str.len;
    sb_printf(b, "%*s |", (int)w, "");
    for (size_t j = 0; j < n; j++)
        sb_printf(b, " %-*s", (int)w, el->u.list.items[j]->u.str.s);
    sb_putc(b, '\n');
    for (size_t i = 0; i < n && i < tab->u.list.len; i++) {
        const Value *row = tab->u.list.items[i];
        sb_printf(b, "%-*s |", (int)w, el->u.list.items[i]->u.str.s);
        for (size_t j = 0; j < n && j < row->u.list.len; j++) {
            int64_t k = 0;
            val_get_i64(row->u.list.items[j], &k);
            sb_printf(b, " %-*s", (int)w,
                      k >= 0 && (size_t)k < n ? el->u.list.items[k]->u.str.s : "?");
        }
        while (b->len && b->s[b->len - 1] == ' ')
            b->s[--b->len] = '\0';
        sb_putc(b, '\n');
    }
}

Value *bi_bipartite(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    const PresWith *pw = presdata_with(&s->data, "P");
    if (!s->commutative || !pw)
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                        "bipartite needs a commutative presentation `with P = {...}`");
    FiniteMonoid *m = semi_monoid(c->I, s, c->arg_locs[0]);
    if (!m)
        return NULL;
    bool *inp = xcalloc(m->order, sizeof *inp);
    for (size_t i = 0; i < pw->n; i++)
        inp[monoid_eval(m, pw->words + i * (size_t)m->ngens)] = true;
    MonoidBipartite bp;
    CgtError err;
    cgt_error_clear(&err);
    if (monoid_bipartite(m, inp, &bp, &err) != CGT_OK) {
        free(inp);
        return rt_error_from(c->I, c->loc, &err);
    }
    free(inp);
    Value *r = val_result("bipartite"), *cls = val_list(), *inpl = val_list();
    val_map_set_str(r, "of", s->name);
    val_map_set_int(r, "order", (int64_t)m->order);
    val_map_set_int(r, "classes", (int64_t)bp.nclasses);
    val_map_set_bool(r, "reduced", bp.reduced);
    for (size_t k = 0; k < bp.nclasses; k++) {
        Value *one = val_list();
        for (size_t x = 0; x < m->order; x++)
            if (bp.cls[x] == k)
                val_list_push(one, val_str_own(elem_name(m, x)));
        val_list_push(cls, one);
        val_list_push(inpl, val_bool(bp.class_in_p[k]));
    }
    val_map_set(r, "class_elements", cls);
    val_map_set(r, "class_in_p", inpl);
    val_map_set_bool(r, "identity_not_in_p", bp.identity_not_in_p);
    val_map_set_bool(r, "could_be_misere_quotient", bp.could_be_misere);
    monoid_bipartite_free(&bp);
    return r;
}

void kb_bipartite_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    bool reduced = val_field_bool(r, "reduced");
    sb_printf(b, "bipartite monoid %s: %lld elements, %lld classes after reduction (%s)\n",
              val_field_str(r, "of"), (long long)val_field_int(r, "order"),
              (long long)val_field_int(r, "classes"), reduced ? "already reduced" : "merged");
    const Value *cls = val_map_get(r, "class_elements"), *inp = val_map_get(r, "class_in_p");
    for (size_t k = 0; !reduced && cls && k < cls->u.list.len; k++) {
        const Value *one = cls->u.list.items[k];
        sb_puts(b, "  {");
        for (size_t x = 0; x < one->u.list.len; x++)
            sb_printf(b, "%s%s", x ? ", " : "", one->u.list.items[x]->u.str.s);
        sb_printf(b, "}%s\n",
                  inp && k < inp->u.list.len && inp->u.list.items[k]->u.b ? " in P" : "");
    }
    sb_printf(b, "  identity %s P; %s\n", val_field_bool(r, "identity_not_in_p") ? "not in" : "IN",
              val_field_bool(r, "could_be_misere_quotient")
                  ? "the necessary conditions for a misere quotient hold"
                  : "not a misere quotient presentation (see docs/kb.md)");
}

/* `structure S`: order, |P|, the group of units, the idempotents with
 * their maximal subgroups (Clifford & Preston I, §2.1) and the kernel, the
 * least ideal, which in a finite commutative monoid is the maximal
 * subgroup at the product of all idempotents. */
Value *bi_structure(Call *c)
{
    SemiObj *s = semi_of(c->args[0]);
    FiniteMonoid *m = s->commutative ? semi_monoid(c->I, s, c->arg_locs[0]) : NULL;
    if (!m)
        return s->commutative ? NULL
                              : rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                                         "structure works on commutative presentations");
    const PresWith *pw = presdata_with(&s->data, "P");
    bool *inp = xcalloc(m->order, sizeof *inp);
    size_t np = 0;
    for (size_t i = 0; pw && i < pw->n; i++)
        inp[monoid_eval(m, pw->words + i * (size_t)m->ngens)] = true;
    for (size_t x = 0; x < m->order; x++)
        np += inp[x];
    size_t *ids, n;
    monoid_idempotents(m, &ids, &n);
    Value *r = val_result("structure"), *groups = val_list();
    val_map_set_str(r, "of", s->name);
    val_map_set_int(r, "order", (int64_t)m->order);
    val_map_set(r, "pcount", pw ? val_int((int64_t)np) : val_null());
    size_t kernel = 0; /* the product of all idempotents */
    for (size_t i = 0; i < n; i++)
        kernel = monoid_mul(m, kernel, ids[i]);
    for (size_t i = 0; i < n; i++) {
        MonoidGroup grp;
        CgtError err;
        cgt_error_clear(&err);
        if (monoid_maximal_subgroup(m, ids[i], &grp, &err) != CGT_OK) {
            free(ids);
            free(inp);
            val_unref(r);
            val_unref(groups);
            return rt_error_from(c->I, c->loc, &err);
        }
        char *st = monoid_group_structure(&grp);
        if (ids[i] == 0) {
            val_map_set(r, "units", val_str(st));
            val_map_set_int(r, "units_order", (int64_t)grp.order);
        }
        Value *g = val_map();
        val_map_set(g, "idempotent", val_str_own(elem_name(m, ids[i])));
        val_map_set_int(g, "order", (int64_t)grp.order);
        val_map_set(g, "structure", val_str_own(st));
        val_map_set_bool(g, "in_p", inp[ids[i]]);
        val_list_push(groups, g);
        monoid_group_free(&grp);
    }
    val_map_set(r, "idempotents", groups);
    val_map_set(r, "kernel", val_str_own(elem_name(m, kernel)));
    free(ids);
    free(inp);
    return r;
}

void kb_structure_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const Value *pc = val_map_get(r, "pcount");
    sb_printf(b, "structure of %s: order %lld", val_field_str(r, "of"),
              (long long)val_field_int(r, "order"));
    if (pc && pc->kind == VAL_INT)
        sb_printf(b, ", |P| = %lld", (long long)val_field_int(r, "pcount"));
    sb_printf(b, "\n  group of units: order %lld (%s)\n", (long long)val_field_int(r, "units_order"),
              val_field_str(r, "units"));
    const Value *groups = val_map_get(r, "idempotents");
    size_t n = groups && groups->kind == VAL_LIST ? groups->u.list.len : 0;
    const char *kernel = val_field_str(r, "kernel");
    sb_printf(b, "  %zu idempotent%s, with %s maximal subgroup%s%s:\n", n, n == 1 ? "" : "s",
              n == 1 ? "its" : "their", n == 1 ? "" : "s",
              pc && pc->kind == VAL_INT ? " (* = in P)" : "");
    const Value *kg = NULL;
    for (size_t i = 0; i < n; i++) {
        const Value *g = groups->u.list.items[i];
        const char *e = val_field_str(g, "idempotent");
        if (strcmp(e, kernel) == 0)
            kg = g;
        char *name = xasprintf("%s%s", e, val_field_bool(g, "in_p") ? "*" : "");
        sb_printf(b, "    %-12s order %lld (%s)\n", name, (long long)val_field_int(g, "order"),
                  val_field_str(g, "structure"));
        free(name);
    }
    if (kg)
        sb_printf(b, "  kernel: the maximal subgroup at %s, order %lld (%s)\n", kernel,
                  (long long)val_field_int(kg, "order"), val_field_str(kg, "structure"));
}
