/* Strict JSON reader (RFC 8259 grammar, sections 2-8), recursive descent
 * with a depth bound; see src/lib/util/json.h for what "strict" means here. */
#include "lib/util/json.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/utf8.h"
#include "lib/util/xalloc.h"

typedef struct Parser {
    const char *s;
    size_t len, pos;
    int depth;
    JsonError *err;
    bool failed;
} Parser;

static bool fail(Parser *p, size_t at, const char *msg)
{
    if (!p->failed) {
        p->failed = true;
        p->err->offset = at;
        snprintf(p->err->msg, sizeof p->err->msg, "%s", msg);
    }
    return false;
}

static void skip_ws(Parser *p)
{
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
            break;
        p->pos++;
    }
}

static void node_clear(JsonNode *n)
{
    if (n->kind == JSON_ARR || n->kind == JSON_OBJ) {
        for (size_t i = 0; i < n->n; i++) {
            node_clear(&n->items[i]);
            if (n->keys)
                free(n->keys[i]);
        }
        free(n->items);
        free(n->keys);
    } else {
        free(n->s);
    }
}

void json_free(JsonNode *n)
{
    if (!n)
        return;
    node_clear(n);
    free(n);
}

static bool parse_value(Parser *p, JsonNode *out);

static bool literal(Parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail(p, p->pos, "invalid literal (expected a JSON value)");
    p->pos += n;
    return true;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* RFC 8259 section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static bool parse_number(Parser *p, JsonNode *out)
{
    size_t a = p->pos;
    const char *s = p->s;
    bool is_int = true;
    if (p->pos < p->len && s[p->pos] == '-')
        p->pos++;
    if (p->pos >= p->len || !is_digit(s[p->pos]))
        return fail(p, p->pos, "invalid number (a digit expected)");
    if (s[p->pos] == '0') {
        p->pos++;
        if (p->pos < p->len && is_digit(s[p->pos]))
            return fail(p, p->pos, "invalid number (leading zero)");
    } else {
        while (p->pos < p->len && is_digit(s[p->pos]))
            p->pos++;
    }
    if (p->pos < p->len && s[p->pos] == '.') {
        is_int = false;
        p->pos++;
        if (p->pos >= p->len || !is_digit(s[p->pos]))
            return fail(p, p->pos, "invalid number (a digit expected after '.')");
        while (p->pos < p->len && is_digit(s[p->pos]))
            p->pos++;
    }
    if (p->pos < p->len && (s[p->pos] == 'e' || s[p->pos] == 'E')) {
        is_int = false;
        p->pos++;
        if (p->pos < p->len && (s[p->pos] == '+' || s[p->pos] == '-'))
            p->pos++;
        if (p->pos >= p->len || !is_digit(s[p->pos]))
            return fail(p, p->pos, "invalid number (a digit expected in the exponent)");
        while (p->pos < p->len && is_digit(s[p->pos]))
            p->pos++;
    }
    out->kind = JSON_NUM;
    out->is_int = is_int;
    out->slen = p->pos - a;
    out->s = xstrndup(s + a, out->slen);
    return true;
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static bool hex4(Parser *p, unsigned *out)
{
    if (p->len - p->pos < 4)
        return fail(p, p->pos, "truncated \\u escape");
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p->s[p->pos + (size_t)i]);
        if (h < 0)
            return fail(p, p->pos + (size_t)i, "invalid \\u escape (4 hex digits expected)");
        v = v * 16 + (unsigned)h;
    }
    p->pos += 4;
    *out = v;
    return true;
}

static void put_utf8(char **buf, size_t *n, size_t *cap, unsigned cp)
{
    if (*n + 4 >= *cap) {
        *cap = *cap * 2 + 16;
        *buf = xrealloc(*buf, *cap);
    }
    char *b = *buf;
    if (cp < 0x80) {
        b[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        b[(*n)++] = (char)(0xC0 | (cp >> 6));
        b[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        b[(*n)++] = (char)(0xE0 | (cp >> 12));
        b[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        b[(*n)++] = (char)(0xF0 | (cp >> 18));
        b[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
}

static bool parse_string(Parser *p, char **out, size_t *outlen)
{
    size_t cap = 16, n = 0;
    char *buf = xmalloc(cap);
    p->pos++; /* the opening quote */
    for (;;) {
        if (p->pos >= p->len) {
            free(buf);
            return fail(p, p->pos, "unterminated string");
        }
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            p->pos++;
            break;
        }
        if (c < 0x20) {
            free(buf);
            return fail(p, p->pos, "control character in a string (escape it)");
        }
        if (c == '\\') {
            p->pos++;
            if (p->pos >= p->len) {
                free(buf);
                return fail(p, p->pos, "unterminated string");
            }
            char e = p->s[p->pos++];
            unsigned cp;
            switch (e) {
            case '"': cp = '"'; break;
            case '\\': cp = '\\'; break;
            case '/': cp = '/'; break;
            case 'b': cp = '\b'; break;
            case 'f': cp = '\f'; break;
            case 'n': cp = '\n'; break;
            case 'r': cp = '\r'; break;
            case 't': cp = '\t'; break;
            case 'u': {
                size_t at = p->pos - 2;
                if (!hex4(p, &cp)) {
                    free(buf);
                    return false;
                }
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    free(buf);
                    return fail(p, at, "unpaired low surrogate in a \\u escape");
                }
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    unsigned lo;
                    if (p->len - p->pos < 2 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u') {
                        free(buf);
                        return fail(p, at, "unpaired high surrogate in a \\u escape");
                    }
                    p->pos += 2;
                    if (!hex4(p, &lo)) {
                        free(buf);
                        return false;
                    }
                    if (lo < 0xDC00 || lo > 0xDFFF) {
                        free(buf);
                        return fail(p, at, "unpaired high surrogate in a \\u escape");
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                if (cp == 0) {
                    free(buf);
                    return fail(p, at, "\\u0000 is not allowed in strings here");
                }
                break;
            }
            default:
                free(buf);
                return fail(p, p->pos - 1, "invalid escape in a string");
            }
            put_utf8(&buf, &n, &cap, cp);
            continue;
        }
        size_t k = 1;
        if (c >= 0x80) {
            k = utf8_seq_len((const unsigned char *)p->s + p->pos, p->len - p->pos);
            if (k == 0) {
                free(buf);
                return fail(p, p->pos, "invalid UTF-8 in a string");
            }
        }
        if (n + k + 1 >= cap) {
            cap = cap * 2 + k;
            buf = xrealloc(buf, cap);
        }
        memcpy(buf + n, p->s + p->pos, k);
        n += k;
        p->pos += k;
    }
    buf = xrealloc(buf, n + 1);
    buf[n] = '\0';
    *out = buf;
    *outlen = n;
    return true;
}

static bool parse_array(Parser *p, JsonNode *out)
{
    out->kind = JSON_ARR;
    size_t cap = 0;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == ']') {
        p->pos++;
        return true;
    }
    for (;;) {
        if (out->n == cap) {
            cap = cap ? 2 * cap : 4;
            out->items = xrealloc(out->items, cap * sizeof *out->items);
        }
        JsonNode *it = &out->items[out->n];
        memset(it, 0, sizeof *it);
        bool ok = parse_value(p, it);
        out->n++; /* counted even when it failed, so that it is freed */
        if (!ok)
            return false;
        skip_ws(p);
        if (p->pos >= p->len)
            return fail(p, p->pos, "unterminated array (expected ',' or ']')");
        if (p->s[p->pos] == ']') {
            p->pos++;
            return true;
        }
        if (p->s[p->pos] != ',')
            return fail(p, p->pos, "expected ',' or ']' in an array");
        p->pos++;
    }
}

typedef struct KeyAt {
    const char *key;
    size_t at;
} KeyAt;

static int keyat_cmp(const void *a, const void *b)
{
    const KeyAt *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    if (c)
        return c;
    return x->at < y->at ? -1 : x->at > y->at;
}

/* Duplicate keys, found by sorting (O(n log n) for large objects). */
static bool check_duplicates(Parser *p, const JsonNode *obj, const size_t *at)
{
    if (obj->n < 2)
        return true;
    KeyAt *k = xmalloc(obj->n * sizeof *k);
    for (size_t i = 0; i < obj->n; i++)
        k[i] = (KeyAt){obj->keys[i], at[i]};
    qsort(k, obj->n, sizeof *k, keyat_cmp);
    bool ok = true;
    for (size_t i = 1; i < obj->n && ok; i++)
        if (strcmp(k[i - 1].key, k[i].key) == 0)
            ok = fail(p, k[i].at, "duplicate key in an object");
    free(k);
    return ok;
}

static bool parse_members(Parser *p, JsonNode *out, size_t *capp, size_t **kat_allp);

static bool parse_object(Parser *p, JsonNode *out)
{
    out->kind = JSON_OBJ;
    size_t cap = 0;
    size_t *kat_all = NULL;
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == '}') {
        p->pos++;
        return true;
    }
    bool ok = parse_members(p, out, &cap, &kat_all);
    if (ok)
        ok = check_duplicates(p, out, kat_all);
    free(kat_all);
    return ok;
}

static bool parse_members(Parser *p, JsonNode *out, size_t *capp, size_t **kat_allp)
{
    size_t cap = *capp;
    size_t *kat_all = *kat_allp;
    for (;;) {
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != '"')
            return fail(p, p->pos, "expected a string key in an object");
        size_t kat = p->pos;
        char *key;
        size_t klen;
        if (!parse_string(p, &key, &klen)) {
            *kat_allp = kat_all;
            return false;
        }
        skip_ws(p);
        if (p->pos >= p->len || p->s[p->pos] != ':') {
            free(key);
            *kat_allp = kat_all;
            return fail(p, p->pos, "expected ':' after a key");
        }
        p->pos++;
        if (out->n == cap) {
            cap = cap ? 2 * cap : 4;
            out->items = xrealloc(out->items, cap * sizeof *out->items);
            out->keys = xrealloc(out->keys, cap * sizeof *out->keys);
            kat_all = xrealloc(kat_all, cap * sizeof *kat_all);
        }
        kat_all[out->n] = kat;
        *kat_allp = kat_all;
        *capp = cap;
        JsonNode *it = &out->items[out->n];
        memset(it, 0, sizeof *it);
        out->keys[out->n] = key;
        bool ok = parse_value(p, it);
        out->n++;
        if (!ok)
            return false;
        skip_ws(p);
        if (p->pos >= p->len)
            return fail(p, p->pos, "unterminated object (expected ',' or '}')");
        if (p->s[p->pos] == '}') {
            p->pos++;
            return true;
        }
        if (p->s[p->pos] != ',')
            return fail(p, p->pos, "expected ',' or '}' in an object");
        p->pos++;
    }
}

static bool parse_value(Parser *p, JsonNode *out)
{
    skip_ws(p);
    out->start = p->pos;
    if (p->pos >= p->len)
        return fail(p, p->pos, "unexpected end of input (expected a JSON value)");
    char c = p->s[p->pos];
    bool ok;
    if (c == '{' || c == '[') {
        if (++p->depth > JSON_MAX_DEPTH)
            return fail(p, p->pos, "nested too deeply");
        ok = c == '{' ? parse_object(p, out) : parse_array(p, out);
        p->depth--;
    } else if (c == '"') {
        out->kind = JSON_STR;
        ok = parse_string(p, &out->s, &out->slen);
    } else if (c == '-' || is_digit(c)) {
        ok = parse_number(p, out);
    } else if (c == 't') {
        out->kind = JSON_BOOL;
        out->b = true;
        ok = literal(p, "true");
    } else if (c == 'f') {
        out->kind = JSON_BOOL;
        ok = literal(p, "false");
    } else if (c == 'n') {
        out->kind = JSON_NULL;
        ok = literal(p, "null");
    } else {
        ok = fail(p, p->pos, "unexpected character (expected a JSON value)");
    }
    out->end = p->pos;
    return ok;
}

JsonNode *json_parse(const char *text, size_t len, JsonError *err)
{
    JsonError dummy;
    if (!err)
        err = &dummy;
    memset(err, 0, sizeof *err);
    Parser p = {text, len, 0, 0, err, false};
    JsonNode *root = xcalloc(1, sizeof *root);
    if (parse_value(&p, root)) {
        skip_ws(&p);
        if (p.pos < p.len)
            fail(&p, p.pos, "text after the JSON value");
    }
    if (p.failed) {
        json_free(root);
        unsigned line = 1, col = 1;
        for (size_t i = 0; i < err->offset && i < len; i++) {
            if (text[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        err->line = line;
        err->col = col;
        return NULL;
    }
    return root;
}

const JsonNode *json_get(const JsonNode *obj, const char *key)
{
    if (!obj || obj->kind != JSON_OBJ)
        return NULL;
    for (size_t i = 0; i < obj->n; i++)
        if (strcmp(obj->keys[i], key) == 0)
            return &obj->items[i];
    return NULL;
}

const char *json_kind_name(JsonKind k)
{
    static const char *const names[] = {"null", "boolean", "number", "string", "array", "object"};
    return names[k];
}
