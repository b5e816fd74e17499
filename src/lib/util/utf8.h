/* UTF-8 well-formedness (RFC 3629 section 4), shared by the JSON reader
 * (src/lib/util/json.c) and the JSON writer (src/runtime/value.c). */
#ifndef CGT_UTIL_UTF8_H
#define CGT_UTIL_UTF8_H
#include <stddef.h>

/* Length of the well-formed UTF-8 sequence at s[0..avail): 1 for an ASCII
 * byte, 2..4 for a multi-byte sequence (no overlong forms, no surrogates,
 * nothing above U+10FFFF), 0 if the bytes there are not one. */
size_t utf8_seq_len(const unsigned char *s, size_t avail);

#endif
