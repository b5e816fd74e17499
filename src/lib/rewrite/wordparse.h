/* Parsing the text of words and presentations over named generators:
 * commutative words (`xz2w`, `x z^2 w`, `x*z^2*w`, identity `1` or `e`),
 * non-commutative words (`abba`, `a^3 b`), and whole presentations
 * `< x, z | x^2 = 1, z^3 = z >` (chains `a = b = c` allowed).
 *
 * Tokenising rule (documented in docs/kb.md): at each position the longest
 * generator name that matches the text is taken (greedy longest match),
 * then an optional `^` and an optional decimal exponent.  The parser thus
 * reads back every word cgt prints (src/lib/rewrite/word.h: `ab^2`, `x1^3x2`, `1`)
 * as long as no generator name is another followed by a letter or `_`
 * (a name is never followed by a digit in printed words, since powers are
 * written `^k`); presentations are checked for this (no name may begin
 * another), and so are quotient names.  It also reads the older spellings
 * `a b^2` (blanks), `ab2` (exponent without `^`) and `e`.  Factors may be
 * separated by blanks or `*`.  `1` stands for the identity; so does `e`
 * unless some generator is literally named `e` (then `e` is that generator
 * and only `1` is the identity).  Every error reports the byte offset of
 * the offending character in the text, for caret diagnostics. */
#ifndef CGT_ALGEBRA_WORDPARSE_H
#define CGT_ALGEBRA_WORDPARSE_H
#include <stddef.h>
#include <stdint.h>

#include "lib/rewrite/nckb.h"
#include "lib/rewrite/word.h"
#include "lib/util/error.h"

/* Largest exponent accepted in word text. */
#define WORDPARSE_MAX_EXP 1000000000u
/* Largest length of a non-commutative word after expanding powers. */
#define WORDPARSE_MAX_NCLEN 100000u

/* Parse the commutative word `text` (the whole string) over the `ngens`
 * generators `names` into the exponent vector out[0..ngens-1] (the caller
 * provides it; it is overwritten).  Borrows everything.  Errors:
 * CGT_ERR_DOMAIN for an unknown generator, a malformed exponent, an empty
 * word or a too large exponent; *bad_offset (if not NULL) receives the byte
 * offset in `text` of the offending character. */
CgtStatus wordparse_compact(const char *text, const char *const *names, int ngens, uint32_t *out,
                            size_t *bad_offset, CgtError *err);

/* Parse a non-commutative word: the letters are kept in order, `a^3` is
 * expanded to `aaa`; identity `1`/`e` gives the empty word.  On success
 * *out is an owned array of generator indices (may be NULL when *len is
 * 0; free it with free()).  Errors as wordparse_compact, plus CGT_ERR_LIMIT
 * when the expanded word exceeds WORDPARSE_MAX_NCLEN letters. */
CgtStatus wordparse_nc(const char *text, size_t textlen, const char *const *names, int ngens,
                       uint32_t **out, size_t *len, size_t *bad_offset, CgtError *err);

/* Parse a whole commutative presentation `< g1, g2 | w = w, w = w = w >`
 * (the `<` `>` are optional; an empty relation list `< x | >` is fine).
 * On success *out is an owned Presentation (free with pres_free); a chain
 * a = b = c adds the relations a = b and b = c.  Errors: CGT_ERR_DOMAIN
 * for no generators, a repeated or invalid generator name, a name that is
 * a prefix of another, a relation
 * without `=`, or a bad word (offset of the offending character). */
CgtStatus wordparse_presentation(const char *text, Presentation **out, size_t *bad_offset,
                                 CgtError *err);

/* The same for a non-commutative presentation `< a, b | ab = ba, a^3 = 1 >`:
 * letters keep their order.  *out owned (ncpres_free).  Errors as above,
 * plus CGT_ERR_LIMIT for words longer than WORDPARSE_MAX_NCLEN. */
CgtStatus wordparse_nc_presentation(const char *text, NcPresentation **out, size_t *bad_offset,
                                    CgtError *err);

#endif
