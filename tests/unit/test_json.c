/* Unit tests of the strict JSON reader (src/lib/util/json.h): what RFC 8259 accepts
 * and refuses, error positions, byte spans, and a mutation loop (random
 * byte edits of valid documents must parse or fail cleanly; run under
 * ASan by make check-asan). */
#include <stdlib.h>

#include "unit.h"
#include "lib/util/json.h"
#include "lib/util/rng.h"

static bool ok(const char *s)
{
    JsonError e;
    JsonNode *n = json_parse(s, strlen(s), &e);
    json_free(n);
    return n != NULL;
}

static void bad_at(const char *s, unsigned line, unsigned col, const char *msg_part)
{
    JsonError e;
    JsonNode *n = json_parse(s, strlen(s), &e);
    CHECK(n == NULL);
    json_free(n);
    CHECK_EQ_INT(e.line, line);
    CHECK_EQ_INT(e.col, col);
    if (!strstr(e.msg, msg_part))
        fprintf(stderr, "message for %s: %s\n", s, e.msg);
    CHECK(strstr(e.msg, msg_part) != NULL);
}

int main(void)
{
    /* accepted */
    CHECK(ok("0"));
    CHECK(ok("-0"));
    CHECK(ok(" [1, 2.5, -3e+2, 4E-1, true, false, null, \"x\"] "));
    CHECK(ok("{}"));
    CHECK(ok("[]"));
    CHECK(ok("{\"a\": {\"b\": [[]]}}"));
    CHECK(ok("\"\\u00e9\\ud83d\\ude00 \\\" \\\\ \\/ \\b\\f\\n\\r\\t\""));
    CHECK(ok("\"h\xc3\xa9\""));

    /* refused */
    bad_at("", 1, 1, "end of input");
    bad_at("[1,]", 1, 4, "expected a JSON value");
    bad_at("[1 2]", 1, 4, "expected ',' or ']'");
    bad_at("{\"a\":1,}", 1, 8, "string key");
    bad_at("{\"a\" 1}", 1, 6, "':'");
    bad_at("01", 1, 2, "leading zero");
    bad_at("1.", 1, 3, "after '.'");
    bad_at("1e", 1, 3, "exponent");
    bad_at("-", 1, 2, "digit");
    bad_at("NaN", 1, 1, "unexpected character");
    bad_at("tru", 1, 1, "literal");
    bad_at("[1]\n x", 2, 2, "text after");
    bad_at("\"abc", 1, 5, "unterminated string");
    bad_at("\"a\tb\"", 1, 3, "control character");
    bad_at("\"\\x\"", 1, 3, "invalid escape");
    bad_at("\"\\u12zz\"", 1, 6, "hex digits");
    bad_at("\"\\u12\"", 1, 4, "truncated");
    bad_at("\"\\ud800\"", 1, 2, "unpaired high surrogate");
    bad_at("\"\\udc00\"", 1, 2, "unpaired low surrogate");
    bad_at("\"\\u0000\"", 1, 2, "\\u0000");
    bad_at("\"\xc0\xaf\"", 1, 2, "UTF-8");    /* overlong '/' */
    bad_at("\"\xed\xa0\x80\"", 1, 2, "UTF-8"); /* encoded surrogate */
    bad_at("\"\xf4\x90\x80\x80\"", 1, 2, "UTF-8"); /* above U+10FFFF */
    bad_at("{\"a\": 1,\n \"b\": 2, \"a\": 3}", 2, 10, "duplicate key");
    bad_at("// c\n1", 1, 1, "unexpected character");

    /* a NUL byte inside the input is not white space */
    {
        JsonError e;
        JsonNode *n = json_parse("1\0", 2, &e);
        CHECK(n == NULL);
        json_free(n);
    }

    /* depth bound */
    {
        size_t d = JSON_MAX_DEPTH;
        char *s = malloc(2 * d + 3);
        for (size_t i = 0; i < d; i++)
            s[i] = '[', s[2 * d - 1 - i] = ']';
        s[2 * d] = '\0';
        CHECK(ok(s));
        memmove(s + 1, s, 2 * d + 1);
        s[0] = '[';
        s[2 * d + 1] = ']';
        s[2 * d + 2] = '\0';
        JsonError e;
        JsonNode *n = json_parse(s, strlen(s), &e);
        CHECK(n == NULL);
        CHECK(strstr(e.msg, "nested too deeply") != NULL);
        json_free(n);
        free(s);
    }

    /* values, kinds, spans */
    {
        const char *s = "{\"n\": 123456789012345678901234567890, \"s\": \"a\\nb\", "
                        "\"l\": [1, {\"x\": null}], \"f\": 1.5}";
        JsonError e;
        JsonNode *n = json_parse(s, strlen(s), &e);
        CHECK(n != NULL);
        if (n) {
            CHECK_EQ_INT(n->kind, JSON_OBJ);
            CHECK_EQ_INT(n->n, 4);
            const JsonNode *num = json_get(n, "n");
            CHECK(num && num->kind == JSON_NUM && num->is_int);
            CHECK_EQ_STR(num ? num->s : NULL, "123456789012345678901234567890");
            const JsonNode *str = json_get(n, "s");
            CHECK(str && str->slen == 3 && memcmp(str->s, "a\nb", 3) == 0);
            const JsonNode *l = json_get(n, "l");
            CHECK(l && l->kind == JSON_ARR && l->n == 2);
            if (l && l->n == 2) {
                CHECK_EQ_INT(l->items[1].kind, JSON_OBJ);
                size_t a = l->items[1].start, b = l->items[1].end;
                CHECK(b - a == strlen("{\"x\": null}") &&
                      memcmp(s + a, "{\"x\": null}", b - a) == 0);
                CHECK(json_get(&l->items[1], "x")->kind == JSON_NULL);
            }
            const JsonNode *f = json_get(n, "f");
            CHECK(f && f->kind == JSON_NUM && !f->is_int);
            CHECK(json_get(n, "missing") == NULL);
            CHECK(json_get(l, "x") == NULL);
            CHECK_EQ_INT(n->start, 0);
            CHECK_EQ_INT(n->end, strlen(s));
        }
        json_free(n);
    }
    {
        JsonError e;
        JsonNode *n = json_parse("\"\\ud83d\\ude00\"", 14, &e);
        CHECK(n && n->slen == 4 && memcmp(n->s, "\xf0\x9f\x98\x80", 4) == 0);
        json_free(n);
    }

    /* mutations: every edit of a valid document parses or fails cleanly,
     * and a failure's position lies inside the input */
    {
        const char *seed = "{\"format\": \"cgt-result\", \"version\": 1, \"value\": "
                           "[1, -2, 3.5e3, \"\\u00e9x\", {\"a\": [true, false, null]}, {}]}";
        size_t len = strlen(seed);
        char buf[256];
        Rng r;
        rng_seed(&r, 7);
        static const char alphabet[] = "{}[]\",:\\ 0123456789-+.eEtrufalsn\x01\x80\xc3\xff";
        int parsed = 0, refused = 0, bad_pos = 0;
        for (int iter = 0; iter < 20000; iter++) {
            memcpy(buf, seed, len);
            size_t n = len;
            int edits = 1 + (int)rng_below(&r, 4);
            for (int k = 0; k < edits; k++) {
                size_t at = rng_below(&r, n);
                int op = (int)rng_below(&r, 3);
                char c = alphabet[rng_below(&r, sizeof alphabet - 1)];
                if (op == 0)
                    buf[at] = c;
                else if (op == 1 && n > 1) {
                    memmove(buf + at, buf + at + 1, n - at - 1);
                    n--;
                } else if (n + 1 < sizeof buf) {
                    memmove(buf + at + 1, buf + at, n - at);
                    buf[at] = c;
                    n++;
                }
            }
            JsonError e;
            JsonNode *j = json_parse(buf, n, &e);
            if (j)
                parsed++;
            else {
                refused++;
                if (e.offset > n || e.line < 1 || e.col < 1 || !e.msg[0])
                    bad_pos++;
            }
            json_free(j);
        }
        CHECK(parsed > 0);
        CHECK(refused > 0);
        CHECK_EQ_INT(bad_pos, 0);
    }
    UNIT_MAIN_END();
}
