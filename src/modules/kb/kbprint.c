/* Rewriting systems as results (kbprint.h): the record of kind "kb" that
 * `kb S`, kb(S) and `rewriting q` return, and its text. */
#include <stdlib.h>
#include <string.h>

#include "modules/kb/kbprint.h"
#include "runtime/interp.h"
#include "lib/util/xalloc.h"

/* "shortlex", "degrevlex", ... */
static const char *kb_order_name(KbOrderKind k)
{
    static const char *const n[] = {"shortlex", "degrevlex", "deglex", "lex", "weighted"};
    return n[k];
}

/* kind, of, order, commutative, generators (in the order's ranking), then
 * the rules appended by push_rule, confluent, partial, max_rules. */
static Value *record_begin(const char *of, const char *order, bool comm)
{
    Value *r = val_result("kb");
    val_map_set_str(r, "of", of);
    val_map_set_str(r, "order", order);
    val_map_set_bool(r, "commutative", comm);
    val_map_set(r, "generators", val_list());
    val_map_set(r, "rules", val_list());
    return r;
}

static void push_rule(Value *r, char *lhs, char *rhs)
{
    Value *pair = val_list();
    val_list_push(pair, val_str_own(lhs));
    val_list_push(pair, val_str_own(rhs));
    val_list_push(val_map_get(r, "rules"), pair);
}

static Value *record_end(Value *r, bool confluent, long stopped_at)
{
    val_map_set_int(r, "nrules", (int64_t)val_map_get(r, "rules")->u.list.len);
    val_map_set_bool(r, "confluent", confluent);
    val_map_set_bool(r, "partial", stopped_at > 0);
    val_map_set_opt_int(r, "max_rules", stopped_at > 0, stopped_at);
    return r;
}

Value *kb_system_record(const KbSystem *sys, const char *what, long stopped_at)
{
    int g = sys->ngens;
    Value *r = record_begin(what, kb_order_name(sys->kind), true);
    for (int i = 0; i < g; i++)
        val_list_push(val_map_get(r, "generators"), val_str(sys->gen_names[sys->perm[i]]));
    for (size_t i = 0; i < sys->nrules; i++)
        push_rule(r, word_format(sys->rules + 2 * i * (size_t)g, g, sys->gen_names),
                  word_format(sys->rules + (2 * i + 1) * (size_t)g, g, sys->gen_names));
    return record_end(r, sys->confluent, stopped_at);
}

Value *nckb_system_record(const NcSystem *sys, const char *what, long stopped_at)
{
    Value *r = record_begin(what, "shortlex", false);
    for (int i = 0; i < sys->ngens; i++)
        val_list_push(val_map_get(r, "generators"), val_str(sys->gen_names[i]));
    for (size_t i = 0; i < sys->nrules; i++)
        push_rule(r, nckb_format_word(sys, sys->words + sys->lhs_off[i], sys->lhs_len[i]),
                  nckb_format_word(sys, sys->words + sys->rhs_off[i], sys->rhs_len[i]));
    return record_end(r, sys->confluent, stopped_at);
}

void kb_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    const Value *rules = val_map_get(r, "rules"), *gens = val_map_get(r, "generators");
    size_t n = rules && rules->kind == VAL_LIST ? rules->u.list.len : 0;
    sb_printf(b, "rewriting system of %s: %s ", val_field_str(r, "of"), val_field_str(r, "order"));
    if (val_field_bool(r, "commutative")) {
        for (size_t i = 0; gens && gens->kind == VAL_LIST && i < gens->u.list.len; i++)
            sb_printf(b, "%s%s", i ? "<" : "", gens->u.list.items[i]->u.str.s);
    } else {
        sb_puts(b, "(non-commutative)");
    }
    sb_printf(b, ", %zu rule%s%s\n", n, n == 1 ? "" : "s",
              val_field_bool(r, "confluent") ? ", confluent" : ", NOT confluent yet (partial)");
    for (size_t i = 0; i < n; i++) {
        const Value *p = rules->u.list.items[i];
        if (p->kind == VAL_LIST && p->u.list.len == 2)
            sb_printf(b, "  %s -> %s\n", p->u.list.items[0]->u.str.s, p->u.list.items[1]->u.str.s);
    }
    if (val_field_bool(r, "partial"))
        sb_printf(b, "  (partial: stopped at max_rules %lld as asked; the rules are "
                     "consequences of the relations, pending pairs were dropped)\n",
                  (long long)val_field_int(r, "max_rules"));
}
