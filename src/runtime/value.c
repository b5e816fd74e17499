/* Runtime values: construction, reference counting, equality, text and
 * JSON forms (value.h). */
#include "runtime/value.h"

#include <ctype.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/poll.h"
#include "lib/util/utf8.h"
#include "lib/util/xalloc.h"

static Value *val_new(ValKind k)
{
    Value *v = xcalloc(1, sizeof *v);
    v->refs = 1;
    v->kind = k;
    return v;
}

Value *val_null(void)
{
    return val_new(VAL_NULL);
}

Value *val_bool(bool b)
{
    Value *v = val_new(VAL_BOOL);
    v->u.b = b;
    return v;
}

/* The integers 0..SMALL_INTS-1 are shared values that are never freed,
 * so that a list of a million Grundy values is a million pointers. */
#define SMALL_INTS 1024
static Value small_ints[SMALL_INTS];
static pthread_once_t small_once = PTHREAD_ONCE_INIT;

static void small_init(void)
{
    for (int i = 0; i < SMALL_INTS; i++) {
        small_ints[i].refs = 1;
        small_ints[i].kind = VAL_INT;
        small_ints[i].u.i.small = i;
    }
}

static bool is_small_int(const Value *v)
{
    return v >= small_ints && v < small_ints + SMALL_INTS;
}

Value *val_int(int64_t x)
{
    if (x >= 0 && x < SMALL_INTS) {
        pthread_once(&small_once, small_init);
        return &small_ints[x];
    }
    Value *v = val_new(VAL_INT);
    v->u.i.small = x;
    return v;
}

Value *val_int_mpz(const mpz_t z)
{
    if (mpz_fits_slong_p(z))
        return val_int((int64_t)mpz_get_si(z));
    Value *v = val_new(VAL_INT);
    v->u.i.big = true;
    mpz_init_set(v->u.i.z, z);
    return v;
}

Value *val_int_str(const char *decimal)
{
    mpz_t z;
    mpz_init_set_str(z, decimal, 10);
    Value *v = val_int_mpz(z);
    mpz_clear(z);
    return v;
}

Value *val_str_n(const char *s, size_t n)
{
    Value *v = val_new(VAL_STR);
    v->u.str.s = xstrndup(s, n);
    v->u.str.len = n;
    return v;
}

Value *val_str(const char *s)
{
    return val_str_n(s, strlen(s));
}

Value *val_str_own(char *s)
{
    Value *v = val_new(VAL_STR);
    v->u.str.s = s;
    v->u.str.len = strlen(s);
    return v;
}

Value *val_list(void)
{
    return val_new(VAL_LIST);
}

void val_list_push(Value *list, Value *item)
{
    if (list->u.list.len == list->u.list.cap) {
        list->u.list.cap = list->u.list.cap ? 2 * list->u.list.cap : 4;
        list->u.list.items =
            xrealloc(list->u.list.items, list->u.list.cap * sizeof *list->u.list.items);
    }
    list->u.list.items[list->u.list.len++] = item;
}

Value *val_range(int64_t lo, int64_t hi)
{
    Value *v = val_new(VAL_RANGE);
    v->u.range.lo = lo;
    v->u.range.hi = hi;
    return v;
}

/* hi - lo, exact in uint64 arithmetic because hi >= lo (C11 6.3.1.3: the
 * conversion to unsigned is modulo 2^64). */
static uint64_t range_span(const Value *r)
{
    return (uint64_t)r->u.range.hi - (uint64_t)r->u.range.lo;
}

uint64_t val_range_count(const Value *r)
{
    if (r->u.range.hi < r->u.range.lo)
        return 0;
    uint64_t span = range_span(r);
    return span == UINT64_MAX ? UINT64_MAX : span + 1;
}

void val_range_len_mpz(const Value *r, mpz_t out)
{
    mpz_set_ui(out, 0);
    if (r->u.range.hi < r->u.range.lo)
        return;
    mpz_set_si(out, r->u.range.hi);
    mpz_t lo;
    mpz_init_set_si(lo, r->u.range.lo);
    mpz_sub(out, out, lo);
    mpz_add_ui(out, out, 1);
    mpz_clear(lo);
}

int64_t val_range_at(const Value *r, uint64_t i)
{
    uint64_t u = (uint64_t)r->u.range.lo + i;
    /* back to int64 without implementation-defined conversion */
    return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}

Value *val_func(const AstNode *def)
{
    Value *v = val_new(VAL_FUNC);
    v->u.fn.def = def;
    return v;
}

Value *val_closure(const AstNode *def, Value *captured)
{
    Value *v = val_func(def);
    v->u.fn.captured = captured;
    return v;
}

Value *val_obj(const ObjType *type, void *ptr)
{
    Value *v = val_new(VAL_OBJ);
    v->u.obj.type = type;
    v->u.obj.ptr = ptr;
    return v;
}

Value *val_ref(Value *v)
{
    if (v && !is_small_int(v))
        v->refs++;
    return v;
}

void val_unref(Value *v)
{
    if (!v || is_small_int(v) || --v->refs > 0)
        return;
    switch (v->kind) {
    case VAL_INT:
        if (v->u.i.big)
            mpz_clear(v->u.i.z);
        break;
    case VAL_STR:
        free(v->u.str.s);
        break;
    case VAL_LIST:
        for (size_t i = 0; i < v->u.list.len; i++)
            val_unref(v->u.list.items[i]);
        free(v->u.list.items);
        break;
    case VAL_OBJ:
        if (v->u.obj.type->free)
            v->u.obj.type->free(v->u.obj.ptr);
        break;
    case VAL_FUNC:
        val_unref(v->u.fn.captured);
        break;
    case VAL_MAP:
        for (size_t i = 0; i < v->u.map.len; i++) {
            free(v->u.map.keys[i]);
            val_unref(v->u.map.vals[i]);
        }
        free(v->u.map.keys);
        free(v->u.map.vals);
        break;
    default:
        break;
    }
    free(v);
}

Value *val_map(void)
{
    return val_new(VAL_MAP);
}

static size_t map_find(const Value *m, const char *key)
{
    for (size_t i = 0; i < m->u.map.len; i++)
        if (strcmp(m->u.map.keys[i], key) == 0)
            return i;
    return SIZE_MAX;
}

void val_map_set(Value *m, const char *key, Value *v)
{
    size_t i = map_find(m, key);
    if (i != SIZE_MAX) {
        val_unref(m->u.map.vals[i]);
        m->u.map.vals[i] = v;
        return;
    }
    if (m->u.map.len == m->u.map.cap) {
        m->u.map.cap = m->u.map.cap ? 2 * m->u.map.cap : 8;
        m->u.map.keys = xrealloc(m->u.map.keys, m->u.map.cap * sizeof *m->u.map.keys);
        m->u.map.vals = xrealloc(m->u.map.vals, m->u.map.cap * sizeof *m->u.map.vals);
    }
    m->u.map.keys[m->u.map.len] = xstrdup(key);
    m->u.map.vals[m->u.map.len++] = v;
}

Value *val_map_get(const Value *m, const char *key)
{
    size_t i = map_find(m, key);
    return i == SIZE_MAX ? NULL : m->u.map.vals[i];
}

size_t val_map_len(const Value *m)
{
    return m->u.map.len;
}

void val_map_set_int(Value *m, const char *key, int64_t x)
{
    val_map_set(m, key, val_int(x));
}

void val_map_set_str(Value *m, const char *key, const char *s)
{
    val_map_set(m, key, val_str(s));
}

void val_map_set_bool(Value *m, const char *key, bool b)
{
    val_map_set(m, key, val_bool(b));
}

void val_map_set_opt_int(Value *m, const char *key, bool have, int64_t x)
{
    val_map_set(m, key, have ? val_int(x) : val_null());
}

const char *val_result_kind(const Value *v)
{
    if (!v || v->kind != VAL_MAP || v->u.map.len == 0 || strcmp(v->u.map.keys[0], "kind") != 0 ||
        v->u.map.vals[0]->kind != VAL_STR)
        return NULL;
    return v->u.map.vals[0]->u.str.s;
}

Value *val_result(const char *kind)
{
    Value *m = val_map();
    val_map_set_str(m, "kind", kind);
    return m;
}

int64_t val_field_int(const Value *r, const char *key)
{
    int64_t x = 0;
    const Value *v = val_map_get(r, key);
    if (v && v->kind == VAL_INT && !val_get_i64(v, &x))
        x = 0;
    return x;
}

bool val_field_bool(const Value *r, const char *key)
{
    const Value *v = val_map_get(r, key);
    return v && v->kind == VAL_BOOL && v->u.b;
}

const char *val_field_str(const Value *r, const char *key)
{
    const Value *v = val_map_get(r, key);
    return v && v->kind == VAL_STR ? v->u.str.s : "";
}

const char *val_kind_name(const Value *v)
{
    switch (v->kind) {
    case VAL_NULL:
        return "null";
    case VAL_BOOL:
        return "boolean";
    case VAL_INT:
        return "integer";
    case VAL_STR:
        return "string";
    case VAL_LIST:
        return "list";
    case VAL_RANGE:
        return "range";
    case VAL_FUNC:
        return "function";
    case VAL_OBJ:
        return v->u.obj.type->name;
    case VAL_MAP:
        return "record";
    }
    return "?";
}

const char *val_article(const char *noun)
{
    return noun && strchr("aeiouAEIOU", noun[0]) && noun[0] ? "an" : "a";
}

Value *val_shallow_copy(const Value *v)
{
    if (v->kind == VAL_LIST) {
        Value *l = val_list();
        l->u.list.cap = v->u.list.len ? v->u.list.len : 4;
        l->u.list.items = xmalloc(l->u.list.cap * sizeof *l->u.list.items);
        for (size_t i = 0; i < v->u.list.len; i++)
            l->u.list.items[i] = val_ref(v->u.list.items[i]);
        l->u.list.len = v->u.list.len;
        return l;
    }
    if (v->kind == VAL_MAP) {
        Value *m = val_map();
        size_t n = v->u.map.len;
        m->u.map.cap = n ? n : 8;
        m->u.map.keys = xmalloc(m->u.map.cap * sizeof *m->u.map.keys);
        m->u.map.vals = xmalloc(m->u.map.cap * sizeof *m->u.map.vals);
        for (size_t i = 0; i < n; i++) {
            m->u.map.keys[i] = xstrdup(v->u.map.keys[i]);
            m->u.map.vals[i] = val_ref(v->u.map.vals[i]);
        }
        m->u.map.len = n;
        return m;
    }
    return val_ref((Value *)v);
}

bool val_truthy(const Value *v)
{
    switch (v->kind) {
    case VAL_NULL:
        return false;
    case VAL_BOOL:
        return v->u.b;
    case VAL_INT:
        return v->u.i.big || v->u.i.small != 0;
    case VAL_STR:
        return v->u.str.len > 0;
    case VAL_LIST:
        return v->u.list.len > 0;
    case VAL_RANGE:
        return v->u.range.lo <= v->u.range.hi;
    case VAL_MAP:
        return v->u.map.len > 0;
    default:
        return true;
    }
}

bool val_get_i64(const Value *v, int64_t *out)
{
    if (v->kind != VAL_INT || v->u.i.big)
        return false;
    *out = v->u.i.small;
    return true;
}

void val_get_mpz(const Value *v, mpz_t z)
{
    if (v->u.i.big)
        mpz_set(z, v->u.i.z);
    else
        mpz_set_si(z, (long)v->u.i.small);
}

bool val_is_obj(const Value *v, const ObjType *type)
{
    return v->kind == VAL_OBJ && v->u.obj.type == type;
}

/* ---- walks that poll ----
 * A value may hold one sub-value many times ([r, r] holds r twice), so a
 * value of a few dozen cells can stand for 2^36 leaves.  The walks over
 * values (equality, text, JSON) therefore poll for Ctrl-C and the time
 * limits (cgt_poll, a flag test) every WALK_POLL values visited, and the
 * text forms stop at a size cap. */
#define WALK_POLL 256u

typedef struct Walk {
    size_t max;     /* the largest output in bytes, 0 = no cap */
    bool too_long;  /* stopped by max */
    CgtStatus st;   /* CGT_OK, or why the walk stopped */
} Walk;

/* Counts across walks, so that many small walks (has over a long list)
 * poll as one long walk does. */
static unsigned walk_ticks;

static bool walk_step(Walk *w)
{
    if (!w)
        return true;
    if (w->st == CGT_OK && (++walk_ticks & (WALK_POLL - 1)) == 0)
        w->st = cgt_poll();
    return w->st == CGT_OK;
}

/* After output was added: false once it passed the cap. */
static bool walk_room(Walk *w, const StrBuf *out)
{
    if (!w)
        return true;
    if (w->st == CGT_OK && w->max && out->len > w->max) {
        w->st = CGT_ERR_LIMIT;
        w->too_long = true;
    }
    return w->st == CGT_OK;
}

static CgtStatus walk_error(const Walk *w, const char *what, CgtError *err)
{
    if (w->st == CGT_OK)
        return CGT_OK;
    if (w->too_long) {
        cgt_error_set(err, CGT_ERR_LIMIT, "%s: the text would pass %zu bytes", what, w->max);
        cgt_error_hint(err, "print a part of the value (a slice), or its length");
        return CGT_ERR_LIMIT;
    }
    return cgt_poll_error(err, w->st, what);
}

/* Equality; with a walk, false as soon as the walk stopped. */
static bool equal_rec(const Value *a, const Value *b, Walk *w)
{
    if (!walk_step(w))
        return false;
    if (a == b)
        return true; /* every kind's equality is reflexive */
    if (a->kind != b->kind)
        return false;
    switch (a->kind) {
    case VAL_NULL:
        return true;
    case VAL_BOOL:
        return a->u.b == b->u.b;
    case VAL_INT:
        if (!a->u.i.big && !b->u.i.big)
            return a->u.i.small == b->u.i.small;
        if (a->u.i.big != b->u.i.big)
            return false;
        return mpz_cmp(a->u.i.z, b->u.i.z) == 0;
    case VAL_STR:
        return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case VAL_LIST:
        if (a->u.list.len != b->u.list.len)
            return false;
        for (size_t i = 0; i < a->u.list.len; i++)
            if (!equal_rec(a->u.list.items[i], b->u.list.items[i], w))
                return false;
        return true;
    case VAL_RANGE:
        return a->u.range.lo == b->u.range.lo && a->u.range.hi == b->u.range.hi;
    case VAL_FUNC:
        return a->u.fn.def == b->u.fn.def && !a->u.fn.captured == !b->u.fn.captured &&
               (!a->u.fn.captured || equal_rec(a->u.fn.captured, b->u.fn.captured, w));
    case VAL_OBJ:
        if (a->u.obj.ptr == b->u.obj.ptr)
            return true;
        return a->u.obj.type == b->u.obj.type && a->u.obj.type->equal &&
               a->u.obj.type->equal(a->u.obj.ptr, b->u.obj.ptr);
    case VAL_MAP:
        /* equal as maps: same keys with equal values, in any order */
        if (a->u.map.len != b->u.map.len)
            return false;
        for (size_t i = 0; i < a->u.map.len; i++) {
            const Value *bv = val_map_get(b, a->u.map.keys[i]);
            if (!bv || !equal_rec(a->u.map.vals[i], bv, w))
                return false;
        }
        return true;
    }
    return false;
}

bool val_equal(const Value *a, const Value *b)
{
    return equal_rec(a, b, NULL);
}

CgtStatus val_equal_checked(const Value *a, const Value *b, bool *eq, CgtError *err)
{
    Walk w = {0};
    *eq = equal_rec(a, b, &w);
    return walk_error(&w, "comparing values", err);
}

/* ---- string buffers ---- */

void sb_init(StrBuf *b)
{
    b->cap = 64;
    b->len = 0;
    b->s = xmalloc(b->cap);
    b->s[0] = '\0';
}

void sb_free(StrBuf *b)
{
    free(b->s);
    b->s = NULL;
    b->len = b->cap = 0;
}

static void sb_grow(StrBuf *b, size_t extra)
{
    if (b->len + extra + 1 > b->cap) {
        while (b->len + extra + 1 > b->cap)
            b->cap *= 2;
        b->s = xrealloc(b->s, b->cap);
    }
}

void sb_putc(StrBuf *b, char c)
{
    sb_grow(b, 1);
    b->s[b->len++] = c;
    b->s[b->len] = '\0';
}

void sb_puts(StrBuf *b, const char *s)
{
    size_t n = strlen(s);
    sb_grow(b, n);
    memcpy(b->s + b->len, s, n + 1);
    b->len += n;
}

void sb_printf(StrBuf *b, const char *fmt, ...)
{
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
        sb_grow(b, (size_t)n);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, aq);
        b->len += (size_t)n;
    }
    va_end(aq);
}

void sb_put_i64(StrBuf *b, int64_t x)
{
    /* digits by hand: printing long lists spends its time here */
    char buf[24], *p = buf + sizeof buf;
    uint64_t u = x < 0 ? 0 - (uint64_t)x : (uint64_t)x;
    *--p = '\0';
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (x < 0)
        *--p = '-';
    sb_puts(b, p);
}

static void put_int(const Value *v, StrBuf *out)
{
    if (!v->u.i.big) {
        sb_put_i64(out, v->u.i.small);
        return;
    }
    char *s = mpz_get_str(NULL, 10, v->u.i.z);
    sb_puts(out, s);
    free(s);
}

static void put_quoted(const char *s, size_t n, StrBuf *out)
{
    sb_putc(out, '"');
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == '"' || c == '\\') {
            sb_putc(out, '\\');
            sb_putc(out, c);
        } else if (c == '\n') {
            sb_puts(out, "\\n");
        } else if (c == '\t') {
            sb_puts(out, "\\t");
        } else {
            sb_putc(out, c);
        }
    }
    sb_putc(out, '"');
}

static void format_rec(const Value *v, StrBuf *out, bool top, Walk *w)
{
    if (!walk_step(w))
        return;
    switch (v->kind) {
    case VAL_NULL:
        sb_puts(out, "null");
        break;
    case VAL_BOOL:
        sb_puts(out, v->u.b ? "true" : "false");
        break;
    case VAL_INT:
        put_int(v, out);
        break;
    case VAL_STR:
        if (top)
            sb_puts(out, v->u.str.s);
        else
            put_quoted(v->u.str.s, v->u.str.len, out);
        break;
    case VAL_LIST:
        sb_putc(out, '[');
        for (size_t i = 0; i < v->u.list.len && walk_room(w, out); i++) {
            if (i)
                sb_puts(out, ", ");
            format_rec(v->u.list.items[i], out, false, w);
        }
        sb_putc(out, ']');
        break;
    case VAL_RANGE:
        sb_printf(out, "%lld..%lld", (long long)v->u.range.lo, (long long)v->u.range.hi);
        break;
    case VAL_FUNC:
        sb_printf(out, "<fn %s>", v->u.fn.def->text);
        break;
    case VAL_OBJ:
        if (v->u.obj.type->print_text)
            v->u.obj.type->print_text(v->u.obj.ptr, out);
        else
            sb_printf(out, "<%s>", v->u.obj.type->name);
        break;
    case VAL_MAP:
        sb_putc(out, '{');
        for (size_t i = 0; i < v->u.map.len && walk_room(w, out); i++) {
            if (i)
                sb_puts(out, ", ");
            const char *k = v->u.map.keys[i];
            if (val_is_ident_key(k))
                sb_puts(out, k);
            else
                put_quoted(k, strlen(k), out);
            sb_puts(out, ": ");
            format_rec(v->u.map.vals[i], out, false, w);
        }
        sb_putc(out, '}');
        break;
    }
    walk_room(w, out);
}

void val_format(const Value *v, StrBuf *out, bool top)
{
    format_rec(v, out, top, NULL);
}

CgtStatus val_format_checked(const Value *v, StrBuf *out, bool top, size_t max, CgtError *err)
{
    size_t start = out->len;
    Walk w = {.max = max ? start + max : 0};
    format_rec(v, out, top, &w);
    if (w.st == CGT_OK)
        return CGT_OK;
    out->len = start; /* no half text */
    out->s[start] = '\0';
    w.max = max;
    return walk_error(&w, "formatting a value", err);
}

void val_format_brief(const Value *v, StrBuf *out, bool top, size_t max)
{
    size_t start = out->len;
    Walk w = {.max = start + max};
    format_rec(v, out, top, &w);
    if (w.st != CGT_OK || out->len > start + max) {
        size_t n = start + max < out->len ? start + max : out->len;
        while (n > start && ((unsigned char)out->s[n] & 0xC0) == 0x80)
            n--; /* not inside a UTF-8 sequence */
        out->len = n;
        out->s[n] = '\0';
        sb_puts(out, "...");
    }
}

bool val_is_ident_key(const char *k)
{
    if (!(isalpha((unsigned char)k[0]) || k[0] == '_'))
        return false;
    for (const char *p = k + 1; *p; p++)
        if (!(isalnum((unsigned char)*p) || *p == '_'))
            return false;
    return true;
}

/* ---- JSON ---- */

void jw_init(JsonWriter *w, StrBuf *out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
    w->first[0] = true;
}

static void jw_sep(JsonWriter *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (!w->first[w->depth])
        sb_putc(w->out, ',');
    w->first[w->depth] = false;
}

static void jw_open(JsonWriter *w, char c)
{
    jw_sep(w);
    sb_putc(w->out, c);
    if (w->depth < 63)
        w->depth++;
    w->first[w->depth] = true;
}

void jw_obj_begin(JsonWriter *w)
{
    jw_open(w, '{');
}

void jw_obj_end(JsonWriter *w)
{
    sb_putc(w->out, '}');
    if (w->depth > 0)
        w->depth--;
}

void jw_arr_begin(JsonWriter *w)
{
    jw_open(w, '[');
}

void jw_arr_end(JsonWriter *w)
{
    sb_putc(w->out, ']');
    if (w->depth > 0)
        w->depth--;
}

/* A JSON string (RFC 8259 section 7).  Bytes that are not well-formed
 * UTF-8 become U+FFFD, so the output is always valid JSON. */
static void json_escape(StrBuf *out, const char *s)
{
    sb_putc(out, '"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') {
            sb_putc(out, '\\');
            sb_putc(out, (char)*p);
        } else if (*p == '\n') {
            sb_puts(out, "\\n");
        } else if (*p == '\t') {
            sb_puts(out, "\\t");
        } else if (*p < 0x20) {
            sb_printf(out, "\\u%04x", *p);
        } else if (*p < 0x80) {
            sb_putc(out, (char)*p);
        } else {
            /* the string ends in NUL, which no continuation byte matches, so
               the check stops there before reading past it */
            size_t n = utf8_seq_len(p, 4);
            if (n == 0) {
                sb_puts(out, "\\ufffd");
            } else {
                for (size_t i = 0; i < n; i++)
                    sb_putc(out, (char)p[i]);
                p += n - 1;
            }
        }
    }
    sb_putc(out, '"');
}

void jw_key(JsonWriter *w, const char *key)
{
    jw_sep(w);
    json_escape(w->out, key);
    sb_putc(w->out, ':');
    w->after_key = true;
}

void jw_str(JsonWriter *w, const char *s)
{
    jw_sep(w);
    json_escape(w->out, s);
}

void jw_int(JsonWriter *w, long long v)
{
    jw_sep(w);
    sb_printf(w->out, "%lld", v);
}

void jw_uint(JsonWriter *w, unsigned long long v)
{
    jw_sep(w);
    sb_printf(w->out, "%llu", v);
}

void jw_bool(JsonWriter *w, bool b)
{
    jw_sep(w);
    sb_puts(w->out, b ? "true" : "false");
}

void jw_null(JsonWriter *w)
{
    jw_sep(w);
    sb_puts(w->out, "null");
}

void jw_raw(JsonWriter *w, const char *json)
{
    jw_sep(w);
    sb_puts(w->out, json);
}

void jw_double(JsonWriter *w, double d)
{
    jw_sep(w);
    sb_printf(w->out, "%.17g", d);
}

void jw_kv_str(JsonWriter *w, const char *key, const char *s)
{
    jw_key(w, key);
    jw_str(w, s);
}

void jw_kv_int(JsonWriter *w, const char *key, long long v)
{
    jw_key(w, key);
    jw_int(w, v);
}

void jw_kv_bool(JsonWriter *w, const char *key, bool b)
{
    jw_key(w, key);
    jw_bool(w, b);
}

#define JSON_SAFE_INT 9007199254740992LL /* 2^53 */

static void json_plain(const Value *v, JsonWriter *w, Walk *wk)
{
    if (!walk_step(wk))
        return;
    switch (v->kind) {
    case VAL_NULL:
        jw_null(w);
        break;
    case VAL_BOOL:
        jw_bool(w, v->u.b);
        break;
    case VAL_INT:
        if (!v->u.i.big && v->u.i.small < JSON_SAFE_INT && v->u.i.small > -JSON_SAFE_INT) {
            jw_int(w, (long long)v->u.i.small);
        } else {
            StrBuf b;
            sb_init(&b);
            put_int(v, &b);
            jw_str(w, b.s);
            sb_free(&b);
        }
        break;
    case VAL_STR:
        jw_str(w, v->u.str.s);
        break;
    case VAL_LIST:
        jw_arr_begin(w);
        for (size_t i = 0; i < v->u.list.len && walk_room(wk, w->out); i++)
            json_plain(v->u.list.items[i], w, wk);
        jw_arr_end(w);
        break;
    case VAL_RANGE:
        jw_obj_begin(w);
        jw_kv_int(w, "from", (long long)v->u.range.lo);
        jw_kv_int(w, "to", (long long)v->u.range.hi);
        jw_obj_end(w);
        break;
    case VAL_FUNC:
        jw_str(w, v->u.fn.def->text);
        break;
    case VAL_OBJ:
        if (v->u.obj.type->print_json) {
            v->u.obj.type->print_json(v->u.obj.ptr, w);
        } else {
            jw_obj_begin(w);
            jw_kv_str(w, "kind", v->u.obj.type->name);
            jw_obj_end(w);
        }
        break;
    case VAL_MAP:
        jw_obj_begin(w);
        for (size_t i = 0; i < v->u.map.len && walk_room(wk, w->out); i++) {
            jw_key(w, v->u.map.keys[i]);
            json_plain(v->u.map.vals[i], w, wk);
        }
        jw_obj_end(w);
        break;
    }
    walk_room(wk, w->out);
}

static void json_rec(const Value *v, JsonWriter *w, bool top, Walk *wk)
{
    if (!top || v->kind == VAL_OBJ || val_result_kind(v)) {
        json_plain(v, w, wk);
        return;
    }
    jw_obj_begin(w);
    switch (v->kind) {
    case VAL_INT: {
        jw_kv_str(w, "kind", "int");
        StrBuf b;
        sb_init(&b);
        put_int(v, &b);
        jw_kv_str(w, "value", b.s);
        sb_free(&b);
        break;
    }
    case VAL_BOOL:
        jw_kv_str(w, "kind", "bool");
        jw_kv_bool(w, "value", v->u.b);
        break;
    case VAL_STR:
        jw_kv_str(w, "kind", "string");
        jw_kv_str(w, "value", v->u.str.s);
        break;
    case VAL_NULL:
        jw_kv_str(w, "kind", "null");
        break;
    case VAL_LIST:
        jw_kv_str(w, "kind", "list");
        jw_key(w, "value");
        json_plain(v, w, wk);
        break;
    case VAL_MAP:
        jw_kv_str(w, "kind", "record");
        jw_key(w, "value");
        json_plain(v, w, wk);
        break;
    case VAL_RANGE:
        jw_kv_str(w, "kind", "range");
        jw_kv_int(w, "from", (long long)v->u.range.lo);
        jw_kv_int(w, "to", (long long)v->u.range.hi);
        break;
    case VAL_FUNC:
        jw_kv_str(w, "kind", "function");
        jw_kv_str(w, "name", v->u.fn.def->text);
        break;
    default:
        break;
    }
    jw_obj_end(w);
}

void val_json(const Value *v, JsonWriter *w, bool top)
{
    json_rec(v, w, top, NULL);
}

CgtStatus val_json_checked(const Value *v, JsonWriter *w, bool top, size_t max, CgtError *err)
{
    size_t start = w->out->len;
    JsonWriter saved = *w;
    Walk wk = {.max = max ? start + max : 0};
    json_rec(v, w, top, &wk);
    if (wk.st == CGT_OK)
        return CGT_OK;
    *w = saved;
    w->out->len = start;
    w->out->s[start] = '\0';
    wk.max = max;
    return walk_error(&wk, "writing JSON", err);
}
