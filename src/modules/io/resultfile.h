/* Result files (src/modules/io/bi_io.c, src/modules/io/bi_load.c): the JSON form of
 * values that `save` writes and `load` reads back, shared with `write ...
 * as json` (src/modules/io/bi_export.c). */
#ifndef CGT_RUNTIME_RESULTFILE_H
#define CGT_RUNTIME_RESULTFILE_H
#include <stdbool.h>
#include <stddef.h>

#include "runtime/interp.h"

/* What `load` reads, and so what `save` writes (docs/language.md "Saving
 * results"): save refuses, as a limit error, a value whose file load would
 * refuse.  Nesting is bounded by the reader's JSON_MAX_DEPTH
 * (src/lib/util/json.h), the file's own object being one level of it. */
/* the largest file: 512 MB */
#define RF_MAX_BYTES (512u << 20)
/* the longest integer, in decimal digits: more than any result of * or ^,
 * which stop at 64 million bits (19,265,920 digits) */
#define RF_MAX_DIGITS 20000000u
/* the most positions of an explicit game */
#define RF_MAX_POSITIONS 1000000u

/* Append s[0..len) as a JSON string; false (output incomplete) for a NUL
 * byte or invalid UTF-8. */
bool rf_json_string(StrBuf *b, const char *s, size_t len);
/* The value as the JSON text `save` writes for it; false with a reason in
 * err for values that cannot be saved: *cat is DIAG_TYPE for kinds that
 * cannot be saved (functions, infinite quotients, invalid UTF-8) and
 * DIAG_LIMIT for values past a bound of load (RF_MAX_*, nesting). */
bool rf_encode(const Value *v, StrBuf *out, char *err, size_t errsize, DiagCat *cat);

/* Free what loaded values keep for the interpreter's lifetime (called by
 * interp_free). */
void bi_load_release(void);

#endif
