/* A small strict JSON reader (RFC 8259) for the files cgt writes and reads
 * back (`save` / `load`, docs/language.md "Saving results").
 *
 * Strict: one value with optional white space around it; no comments,
 * trailing commas, leading zeros, NaN or bare words; strings must be valid
 * UTF-8 without raw control characters, \u escapes must pair surrogates,
 * and \u0000 is refused (strings are NUL-terminated C strings here);
 * duplicate keys in an object are refused; nesting deeper than
 * JSON_MAX_DEPTH is refused.  Numbers are kept as their literal text
 * (integers of any length survive exactly).  Every node records the byte
 * span of its text in the input, so that a caller can checksum the exact
 * bytes of a member.  Bad input never crashes: json_parse returns NULL and
 * fills a JsonError with the line, column and a message. */
#ifndef CGT_UTIL_JSON_H
#define CGT_UTIL_JSON_H
#include <stdbool.h>
#include <stddef.h>

#define JSON_MAX_DEPTH 512

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUM, JSON_STR, JSON_ARR, JSON_OBJ } JsonKind;

typedef struct JsonNode JsonNode;
struct JsonNode {
    JsonKind kind;
    bool b;            /* JSON_BOOL */
    bool is_int;       /* JSON_NUM without fraction or exponent */
    char *s;           /* JSON_STR: decoded text; JSON_NUM: the literal */
    size_t slen;       /* its length in bytes */
    size_t n;          /* JSON_ARR / JSON_OBJ: number of items */
    JsonNode *items;   /* n items (values of an object, in file order) */
    char **keys;       /* JSON_OBJ: n decoded keys */
    size_t start, end; /* byte span [start, end) of the value in the input */
};

typedef struct JsonError {
    size_t offset;     /* byte offset of the error */
    unsigned line, col; /* 1-based; col counts bytes */
    char msg[160];
} JsonError;

/* Parse text[0..len) (need not be NUL-terminated).  Returns an owned tree
 * (json_free) or NULL with *err filled. */
JsonNode *json_parse(const char *text, size_t len, JsonError *err);
void json_free(JsonNode *n);
/* Member of an object by key (borrowed), or NULL (also for non-objects). */
const JsonNode *json_get(const JsonNode *obj, const char *key);
/* Name of a kind: "null", "boolean", "number", "string", "array", "object". */
const char *json_kind_name(JsonKind k);

#endif
