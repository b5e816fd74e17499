/* Presentations written in scripts, `< x, z | x^2 = 1, z^3 = z > with P =
 * {x, z^2} with phi = [1, x, x, z]`, turned into a Presentation plus the
 * words of its `with` items.  Errors point at the offending factor. */
#ifndef CGT_RUNTIME_PRESAST_H
#define CGT_RUNTIME_PRESAST_H
#include "lib/rewrite/word.h"
#include "runtime/interp.h"

typedef struct PresWith {
    const char *name; /* "P", "phi", ... (borrowed from the AST) */
    bool is_list;     /* written [...] (ordered) rather than {...} */
    size_t n;
    uint32_t *words;  /* n * ngens exponents */
    Loc loc;
} PresWith;

typedef struct PresData {
    Presentation *pres;
    size_t nwith;
    PresWith *with;
} PresData;

/* Build from an AST_PRES node; records an error and returns false on bad
 * input (repeated generators, unknown generators in words). */
bool presdata_from_ast(Interp *I, const AstNode *pres, PresData *out);
void presdata_free(PresData *d);
/* The `with` item of that name, or NULL. */
const PresWith *presdata_with(const PresData *d, const char *name);
/* The text of one AST_WFACTOR as the word parser reads it: `ab` or, for
 * the factor ab^2 (IDENT '^' INT), "ab^2", whose exponent binds to b
 * alone, as in printed words (src/lib/rewrite/word.h).  Owned; NULL after an
 * error (exponent of more than 9 digits). */
char *presdata_factor_text(Interp *I, const AstNode *fac);

#endif
