/* Shared by the export statements (src/modules/io/bi_export.c, bi_export_alg.c,
 * bi_plot.c): LaTeX escaping and the algebra exports. */
#ifndef CGT_RUNTIME_EXPORT_H
#define CGT_RUNTIME_EXPORT_H
#include "runtime/interp.h"
#include "modules/misere/quotobj.h"
#include "modules/kb/semiobj.h"

/* Text with LaTeX's special characters escaped; a genus string such as
 * "0^1431" becomes $0^{1431}$. */
void ex_latex_text(const char *s, StrBuf *b);
/* Text with XML's special characters escaped (SVG). */
void ex_xml_text(const char *s, StrBuf *b);
/* The format codes of bi_export.c: 0 latex, 1 markdown, 2 csv, 3 bfile. */
bool ex_quotient(Call *c, const QuotObj *o, int format, StrBuf *b);
bool ex_presentation(Call *c, const SemiObj *s, int format, StrBuf *b);
/* Writes b to path atomically (src/lib/util/atomicfile.h; `what` names the file in
 * errors, which point at the `to` option) and frees b: null, or NULL after
 * an io error. */
Value *ex_write_file(Call *c, const char *path, const char *what, StrBuf *b);

/* The quotient a quotient(g, N) record stands for (its field q), else v
 * itself (borrowed either way). */
const Value *ex_quotient_of(const Value *v);

#endif
