/* Rewriting systems as results (kbprint.h): text, JSON and the record of
 * kb(S), for `kb` (src/modules/kb/bi_kb.c) and `rewriting q` (bi_misere.c). */
#include <stdlib.h>

#include "modules/kb/kbprint.h"
#include "runtime/results.h"
#include "lib/util/xalloc.h"

const char *kb_order_name(KbOrderKind k)
{
    static const char *const n[] = {"shortlex", "degrevlex", "deglex", "lex", "weighted"};
    return n[k];
}

/* The record kb(S) returns: of, order, commutative, rules (pairs of words
 * as in the JSON form), nrules, confluent, partial (stopped at the
 * max_rules asked for). */
Value *kb_record(const char *of, const char *order, bool comm, bool confluent, bool partial)
{
    Value *r = val_map();
    val_map_set_str(r, "of", of);
    val_map_set_str(r, "order", order);
    val_map_set_bool(r, "commutative", comm);
    val_map_set(r, "rules", val_list());
    val_map_set_int(r, "nrules", 0);
    val_map_set_bool(r, "confluent", confluent);
    val_map_set_bool(r, "partial", partial);
    return r;
}

void kb_record_rule(Value *r, char *lhs, char *rhs)
{
    Value *pair = val_list();
    val_list_push(pair, val_str_own(lhs));
    val_list_push(pair, val_str_own(rhs));
    Value *rules = val_map_get(r, "rules");
    val_list_push(rules, pair);
    val_map_set_int(r, "nrules", (int64_t)rules->u.list.len);
}

/* stopped_at > 0: completion stopped at the max_rules the script asked for,
 * so the system is a requested partial result (said in text and JSON). */
Value *kb_print_system(Call *c, const KbSystem *sys, const char *what, long stopped_at)
{
    StrBuf b;
    sb_init(&b);
    int g = sys->ngens;
    if (!c->stmt) {
        Value *r = kb_record(what, kb_order_name(sys->kind), true, sys->confluent, stopped_at > 0);
        for (size_t i = 0; i < sys->nrules; i++)
            kb_record_rule(r, word_format(sys->rules + 2 * i * (size_t)g, g, sys->gen_names),
                           word_format(sys->rules + (2 * i + 1) * (size_t)g, g, sys->gen_names));
        sb_free(&b);
        return r;
    }
    if (c->I->format == FMT_JSON) {
        JsonWriter w;
        rt_json_begin(&w, &b, "kb");
        jw_kv_str(&w, "of", what);
        jw_kv_str(&w, "order", kb_order_name(sys->kind));
        jw_key(&w, "generators");
        jw_arr_begin(&w);
        for (int r = 0; r < g; r++)
            jw_str(&w, sys->gen_names[sys->perm[r]]);
        jw_arr_end(&w);
        jw_key(&w, "rules");
        jw_arr_begin(&w);
        for (size_t i = 0; i < sys->nrules; i++) {
            jw_arr_begin(&w);
            for (int side = 0; side < 2; side++) {
                char *s = word_format(sys->rules + (2 * i + (size_t)side) * (size_t)g, g,
                                      sys->gen_names);
                jw_str(&w, s);
                free(s);
            }
            jw_arr_end(&w);
        }
        jw_arr_end(&w);
        jw_kv_bool(&w, "confluent", sys->confluent);
        jw_kv_bool(&w, "partial", stopped_at > 0);
        if (stopped_at > 0)
            jw_kv_int(&w, "max_rules", stopped_at);
        rt_json_end(&w);
    } else {
        sb_printf(&b, "rewriting system of %s: %s ", what, kb_order_name(sys->kind));
        for (int r = 0; r < g; r++)
            sb_printf(&b, "%s%s", r ? "<" : "", sys->gen_names[sys->perm[r]]);
        sb_printf(&b, ", %zu rule%s%s\n", sys->nrules, sys->nrules == 1 ? "" : "s",
                  sys->confluent ? ", confluent" : ", NOT confluent yet (partial)");
        for (size_t i = 0; i < sys->nrules; i++) {
            char *s = kb_format_rule(sys, i);
            sb_printf(&b, "  %s\n", s);
            free(s);
        }
        if (stopped_at > 0)
            sb_printf(&b, "  (partial: stopped at max_rules %ld as asked; the rules are "
                          "consequences of the relations, pending pairs were dropped)\n",
                      stopped_at);
    }
    rt_emit(c->I, &b);
    return val_null();
}

