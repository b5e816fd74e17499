/* Options of a statement or function call read into C variables, with the
 * messages every module gives for a bad one (docs/errors.md): shared by
 * the modules whose builtins take many numeric and word options (gp, ga).
 * Each returns true when the option is absent (*out unchanged) or valid,
 * false after reporting the error. */
#ifndef CGT_MODULES_CORE_CALLOPTS_H
#define CGT_MODULES_CORE_CALLOPTS_H
#include <stddef.h>
#include <stdint.h>

#include "runtime/interp.h"

/* An integer in lo..hi. */
bool callopt_int(Call *c, const char *name, int64_t lo, int64_t hi, int64_t *out);
/* The same into an int (lo and hi within int's range). */
bool callopt_int32(Call *c, const char *name, int lo, int hi, int *out);
/* One of the n words: *out is its index. */
bool callopt_word(Call *c, const char *name, const char *const *words, int n, int *out);
/* A probability or fraction: a code literal such as 0.005 (the language
 * has no fractions: `0.005` is kept as the string "0.005") or the integer
 * 0 or 1.  When text is not NULL it keeps what was written, for a
 * result record. */
bool callopt_prob(Call *c, const char *name, double *out, char *text, size_t tsize);

#endif
