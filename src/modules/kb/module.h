/* The kb module (presentations, Knuth-Bendix completion, finite semigroups): the prototypes of
 * the builtins of builtins_kb.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_KB_MODULE_H
#define CGT_MODULES_KB_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/kb/builtins_kb.def"
#undef BUILTIN

void kb_elements_text(const Call *c, const Value *l, StrBuf *b);
void kb_infinite_text(const Call *c, const Value *r, StrBuf *b);
void kb_idempotents_text(const Call *c, const Value *r, StrBuf *b);
void kb_multable_text(const Call *c, const Value *r, StrBuf *b);
void kb_bipartite_text(const Call *c, const Value *r, StrBuf *b);
void kb_confluence_text(const Call *c, const Value *r, StrBuf *b);
void kb_reduce_text(const Call *c, const Value *v, StrBuf *b);
void kb_structure_text(const Call *c, const Value *r, StrBuf *b);

extern const Module cgt_module_kb;

#endif
