/* Runtime values of the .cgt language.
 *
 * Memory rule: arguments are borrowed; a returned Value* is
 * a new reference owned by the caller, released with val_unref().  A
 * function that takes ownership says "steals" in its comment.
 * Integers are exact: int64 inline, GMP mpz when they do not fit.
 * Module results (games, quotients, presentations, ...) are VAL_OBJ with an
 * ObjType that knows how to free and print them. */
#ifndef CGT_RUNTIME_VALUE_H
#define CGT_RUNTIME_VALUE_H
#include <gmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lang/ast.h"
#include "lib/util/error.h"

typedef enum {
    VAL_NULL,
    VAL_BOOL,
    VAL_INT,
    VAL_STR,
    VAL_LIST,
    VAL_RANGE,
    VAL_FUNC,
    VAL_OBJ,
    VAL_MAP /* record / map: string keys in insertion order */
} ValKind;

typedef struct Value Value;
typedef struct StrBuf StrBuf;
typedef struct JsonWriter JsonWriter;

/* A module object type: name as shown in type errors ("game",
 * "quotient"), destructor, and printers.  print_text appends the object's
 * text form (what `print x` shows); print_json writes one JSON object
 * (with its "kind") into the writer. */
struct Interp;
typedef struct ObjType {
    const char *name;
    void (*free)(void *ptr);
    void (*print_text)(const void *ptr, StrBuf *out);
    void (*print_json)(const void *ptr, JsonWriter *jw);
    /* a op b where a or b is of this type (the left operand's type is
     * asked first); op as in AstNode (src/lang/ast.h).  NULL: the
     * evaluator's own rules (== and != compare structurally). */
    Value *(*binop)(struct Interp *I, int op, const Value *a, const Value *b, Loc loc);
    /* Equality of two objects of this type (== and !=, and values inside
     * lists and records), or NULL: equal only when they are the same
     * object. */
    bool (*equal)(const void *a, const void *b);
} ObjType;

struct Value {
    int refs;
    ValKind kind;
    union {
        bool b;
        struct {
            bool big;
            int64_t small;
            mpz_t z;
        } i;
        struct {
            char *s;
            size_t len;
        } str;
        struct {
            Value **items;
            size_t len, cap;
        } list;
        struct {
            int64_t lo, hi; /* inclusive */
        } range;
        struct {
            const AstNode *def; /* AST_FN node; lives as long as the interpreter */
            Value *captured;    /* an anonymous function's captured locals (a
                                   record), or NULL */
        } fn;
        struct {
            const ObjType *type;
            void *ptr;
        } obj;
        struct {
            char **keys;
            Value **vals;
            size_t len, cap;
        } map;
    } u;
};

Value *val_null(void);
Value *val_bool(bool b);
Value *val_int(int64_t v);
Value *val_int_mpz(const mpz_t z); /* copies z; normalises to small when it fits */
Value *val_int_str(const char *decimal);
Value *val_str(const char *s);
Value *val_str_n(const char *s, size_t n);
Value *val_str_own(char *s); /* steals s (xmalloc'd) */
Value *val_list(void);
void val_list_push(Value *list, Value *item); /* steals item */
Value *val_range(int64_t lo, int64_t hi);
/* Number of integers in a range, computed without int64 overflow; the one
 * range that cannot be counted in uint64 (all 2^64 int64 values) gives
 * UINT64_MAX.  val_range_len_mpz gives the exact count. */
uint64_t val_range_count(const Value *range);
void val_range_len_mpz(const Value *range, mpz_t out);
/* The i-th element (i < val_range_count), without overflow. */
int64_t val_range_at(const Value *range, uint64_t i);
Value *val_func(const AstNode *def);
/* An anonymous function with the values of the locals it captured (a
 * record; steals it; NULL for none). */
Value *val_closure(const AstNode *def, Value *captured);
Value *val_obj(const ObjType *type, void *ptr); /* steals ptr */

/* Records and maps are one kind (VAL_MAP): string keys kept in insertion
 * order, so a record prints its fields in the order they were set.
 * val_map_set steals v and replaces an existing key in place;
 * val_map_get returns a borrowed value or NULL.  Iterate with
 * u.map.keys[i] / u.map.vals[i] for i < val_map_len. */
Value *val_map(void);
void val_map_set(Value *m, const char *key, Value *v);
Value *val_map_get(const Value *m, const char *key);
size_t val_map_len(const Value *m);
/* Convenience setters for module records: integer, string, boolean. */
void val_map_set_int(Value *m, const char *key, int64_t x);
void val_map_set_str(Value *m, const char *key, const char *s);
void val_map_set_bool(Value *m, const char *key, bool b);
/* An integer, or null when `have` is false. */
void val_map_set_opt_int(Value *m, const char *key, bool have, int64_t x);
/* A result record: a map whose first field is `kind`, a string naming
 * what it is ("period", "outcome", ...).  Its kind, or NULL for any other
 * value.  A result record is its own JSON object at the top level (no
 * {"kind":"record","value":...} around it). */
const char *val_result_kind(const Value *v);
/* A new result record with its kind set. */
Value *val_result(const char *kind);
/* Fields of a record for printers: the integer (0 when absent, null or
 * not an int64), the boolean (false likewise), the string ("" likewise). */
int64_t val_field_int(const Value *r, const char *key);
bool val_field_bool(const Value *r, const char *key);
const char *val_field_str(const Value *r, const char *key);

/* A new list or record holding the same items (each referenced once
 * more): what an item or field assignment copies when the container is
 * shared (copy on write, docs/language.md "Assigning items and fields"). */
Value *val_shallow_copy(const Value *v);

Value *val_ref(Value *v);
void val_unref(Value *v);

const char *val_kind_name(const Value *v); /* "integer", "list", or the ObjType name */
/* The indefinite article of a noun: "an" before a vowel ("an integer",
 * "an impgame"), else "a", for messages that say "a KIND". */
const char *val_article(const char *noun);
bool val_truthy(const Value *v);
/* The integer as int64 if it fits: returns false otherwise. */
bool val_get_i64(const Value *v, int64_t *out);
/* Copy the integer into z (initialised by caller). */
void val_get_mpz(const Value *v, mpz_t z);
bool val_is_obj(const Value *v, const ObjType *type);
/* Structural equality.  val_equal is for values known to be small; a
 * value from a script may share sub-values ([r, r]) and stand for 2^k
 * leaves, so the evaluator uses val_equal_checked, which polls for Ctrl-C
 * and the time limits (CGT_ERR_INTERRUPTED / CGT_ERR_LIMIT in err). */
bool val_equal(const Value *a, const Value *b);
CgtStatus val_equal_checked(const Value *a, const Value *b, bool *eq, CgtError *err);

/* ---- text and JSON output ---- */

struct StrBuf {
    char *s;
    size_t len, cap;
};
void sb_init(StrBuf *b);
void sb_free(StrBuf *b);
void sb_putc(StrBuf *b, char c);
void sb_puts(StrBuf *b, const char *s);
void sb_printf(StrBuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_put_i64(StrBuf *b, int64_t x); /* decimal, as %lld */
/* Text form of a value.  `top` = printing a value by itself (strings bare);
 * inside lists strings are quoted so the output reads back as .cgt. */
void val_format(const Value *v, StrBuf *out, bool top);
/* The largest text form of one value that `print`, `str`, `format`,
 * `write` and JSON output build (1 GiB). */
#define VAL_TEXT_MAX ((size_t)1 << 30)
/* val_format for values from a script: polls (as val_equal_checked) and
 * stops with CGT_ERR_LIMIT when the text would pass max bytes (0 = no
 * cap); on an error out is left as it was. */
CgtStatus val_format_checked(const Value *v, StrBuf *out, bool top, size_t max, CgtError *err);
/* The text form cut at about max bytes with "..." (for messages). */
void val_format_brief(const Value *v, StrBuf *out, bool top, size_t max);
/* A record key that prints bare (`period`), as opposed to quoted ("a b"). */
bool val_is_ident_key(const char *k);

/* JSON writer: commas and nesting handled; writes into a StrBuf. */
struct JsonWriter {
    StrBuf *out;
    int depth;
    bool first[64];
    bool after_key;
};
void jw_init(JsonWriter *w, StrBuf *out);
void jw_obj_begin(JsonWriter *w);
void jw_obj_end(JsonWriter *w);
void jw_arr_begin(JsonWriter *w);
void jw_arr_end(JsonWriter *w);
void jw_key(JsonWriter *w, const char *key);
void jw_str(JsonWriter *w, const char *s);
void jw_int(JsonWriter *w, long long v);
void jw_uint(JsonWriter *w, unsigned long long v);
void jw_bool(JsonWriter *w, bool b);
void jw_null(JsonWriter *w);
void jw_raw(JsonWriter *w, const char *json); /* a ready JSON value */
void jw_double(JsonWriter *w, double d);
/* Convenience: key + value. */
void jw_kv_str(JsonWriter *w, const char *key, const char *s);
void jw_kv_int(JsonWriter *w, const char *key, long long v);
void jw_kv_bool(JsonWriter *w, const char *key, bool b);
/* A value as a JSON object {"kind":...,"value":...} (top) or as a plain
 * JSON value inside containers (ints that fit in 2^53 as numbers, larger
 * ones as strings). */
void val_json(const Value *v, JsonWriter *w, bool top);
/* val_json for values from a script: polls and caps as val_format_checked;
 * on an error the writer and its buffer are left as they were. */
CgtStatus val_json_checked(const Value *v, JsonWriter *w, bool top, size_t max, CgtError *err);

#endif
