/* Rewriting systems as results, shared by `kb` (src/modules/kb/bi_kb.c) and
 * `rewriting q` (src/modules/misere/bi_misere.c), so that both print one notation:
 * rules `lhs -> rhs`, words as src/lib/rewrite/word.h writes them. */
#ifndef CGT_RUNTIME_KBPRINT_H
#define CGT_RUNTIME_KBPRINT_H
#include "lib/rewrite/kb.h"
#include "runtime/interp.h"

/* "shortlex", "degrevlex", ... */
const char *kb_order_name(KbOrderKind k);
/* The record kb(S) returns, without rules yet; kb_record_rule appends the
 * rule lhs -> rhs (steals both strings). */
Value *kb_record(const char *of, const char *order, bool comm, bool confluent, bool partial);
void kb_record_rule(Value *r, char *lhs, char *rhs);
/* Print (statement) or return (function call) a commutative system;
 * stopped_at > 0 marks it partial at the max_rules asked for. */
Value *kb_print_system(Call *c, const KbSystem *sys, const char *what, long stopped_at);

#endif
