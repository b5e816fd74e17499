/* The misere module (misere quotients, their certificates, P-position types, Dawson's claims): the prototypes of
 * the builtins of builtins_misere.def and of the module's result printers,
 * and the module record the program registers (src/modules/modules.c). */
#ifndef CGT_MODULES_MISERE_MODULE_H
#define CGT_MODULES_MISERE_MODULE_H
#include "runtime/interp.h"

#define BUILTIN(n, f, fl, sp, syn, doc, ex, out) Value *f(Call *c);
#include "modules/misere/builtins_misere.def"
#undef BUILTIN

void misere_verify_text(const Call *c, const Value *r, StrBuf *b);
void misere_infinite_listing_text(const Call *c, const Value *r, StrBuf *b);
void misere_quotient_text(const Call *c, const Value *r, StrBuf *b);
void misere_pretend_text(const Call *c, const Value *l, StrBuf *b);
void misere_elements_text(const Call *c, const Value *l, StrBuf *b);
void misere_product_text(const Call *c, const Value *v, StrBuf *b);
void misere_isomorphic_text(const Call *c, const Value *v, StrBuf *b);
void misere_ptypes_text(const Call *c, const Value *r, StrBuf *b);
void misere_dawson_text(const Call *c, const Value *r, StrBuf *b);

extern const Module cgt_module_misere;

#endif
