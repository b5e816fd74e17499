/* Result files (src/modules/io/bi_io.c, src/modules/io/bi_load.c): the JSON form of
 * values that `save` writes and `load` reads back, shared with `write ...
 * as json` (src/modules/io/bi_export.c). */
#ifndef CGT_RUNTIME_RESULTFILE_H
#define CGT_RUNTIME_RESULTFILE_H
#include <stdbool.h>
#include <stddef.h>

#include "runtime/interp.h"

/* Append s[0..len) as a JSON string; false (output incomplete) for a NUL
 * byte or invalid UTF-8. */
bool rf_json_string(StrBuf *b, const char *s, size_t len);
/* The value as the JSON text `save` writes for it; false with a reason in
 * err for values that cannot be saved (functions, infinite quotients,
 * invalid UTF-8, nesting too deep). */
bool rf_encode(const Value *v, StrBuf *out, char *err, size_t errsize);

/* Free what loaded values keep for the interpreter's lifetime (called by
 * interp_free). */
void bi_load_release(void);

#endif
