/* Rewriting systems as results, shared by `kb` (src/modules/kb/bi_kb.c) and
 * `rewriting q` (src/modules/misere/bi_misere.c), so that both give one
 * record and print one notation: rules `lhs -> rhs`, words as
 * src/lib/rewrite/word.h writes them. */
#ifndef CGT_MODULES_KB_KBPRINT_H
#define CGT_MODULES_KB_KBPRINT_H
#include "lib/rewrite/kb.h"
#include "lib/rewrite/nckb.h"
#include "runtime/interp.h"

/* The record of kind "kb" (docs/language.md, "Results as records") of a
 * commutative or a non-commutative system; stopped_at > 0 marks it
 * partial at the max_rules asked for. */
Value *kb_system_record(const KbSystem *sys, const char *what, long stopped_at);
Value *nckb_system_record(const NcSystem *sys, const char *what, long stopped_at);
/* Its text. */
void kb_text(const Call *c, const Value *r, StrBuf *b);

#endif
