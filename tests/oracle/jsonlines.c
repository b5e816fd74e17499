/* jsonlines: checks that every line of standard input is one JSON object
 * (RFC 8259 grammar) whose top level has a "kind" member with a string
 * value.  Standalone (shares no code with cgt).  Exit 0 if all lines pass,
 * else prints the first bad line number and exits 1. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *p;

static void ws(void)
{
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
        p++;
}

static int value(int depth);

static int string(char *out, size_t cap)
{
    size_t n = 0;
    if (*p != '"')
        return 0;
    p++;
    while (*p && *p != '"') {
        if ((unsigned char)*p < 0x20)
            return 0;
        if (*p == '\\') {
            p++;
            if (*p == 'u') {
                for (int i = 1; i <= 4; i++)
                    if (!strchr("0123456789abcdefABCDEF", p[i]) || !p[i])
                        return 0;
                p += 4;
            } else if (!*p || !strchr("\"\\/bfnrt", *p)) {
                return 0;
            }
        }
        if (out && n + 1 < cap)
            out[n++] = *p;
        p++;
    }
    if (*p != '"')
        return 0;
    p++;
    if (out)
        out[n] = '\0';
    return 1;
}

static int number(void)
{
    const char *s = p;
    if (*p == '-')
        p++;
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (*p >= '0' && *p <= '9')
            p++;
    else
        return 0;
    if (*p == '.') {
        p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-')
            p++;
        if (!(*p >= '0' && *p <= '9'))
            return 0;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    return p > s;
}

/* kind_ok: for the top-level object, set when "kind" has a string value */
static int object(int depth, int *kind_ok)
{
    p++;
    ws();
    if (*p == '}') {
        p++;
        return 1;
    }
    for (;;) {
        char key[64];
        ws();
        if (!string(key, sizeof key))
            return 0;
        ws();
        if (*p++ != ':')
            return 0;
        ws();
        if (kind_ok && strcmp(key, "kind") == 0 && *p == '"')
            *kind_ok = 1;
        if (!value(depth + 1))
            return 0;
        ws();
        if (*p == ',') {
            p++;
            continue;
        }
        if (*p == '}') {
            p++;
            return 1;
        }
        return 0;
    }
}

static int value(int depth)
{
    if (depth > 200)
        return 0;
    ws();
    switch (*p) {
    case '{':
        return object(depth, NULL);
    case '[':
        p++;
        ws();
        if (*p == ']') {
            p++;
            return 1;
        }
        for (;;) {
            if (!value(depth + 1))
                return 0;
            ws();
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == ']') {
                p++;
                return 1;
            }
            return 0;
        }
    case '"':
        return string(NULL, 0);
    case 't':
        return strncmp(p, "true", 4) == 0 ? (p += 4, 1) : 0;
    case 'f':
        return strncmp(p, "false", 5) == 0 ? (p += 5, 1) : 0;
    case 'n':
        return strncmp(p, "null", 4) == 0 ? (p += 4, 1) : 0;
    default:
        return number();
    }
}

int main(void)
{
    static char line[1 << 22];
    long n = 0;
    while (fgets(line, sizeof line, stdin)) {
        n++;
        p = line;
        ws();
        int kind_ok = 0;
        int ok = *p == '{' && object(0, &kind_ok);
        ws();
        if (!ok || *p || !kind_ok) {
            printf("line %ld is not a JSON object with a \"kind\": %.200s\n", n, line);
            return 1;
        }
    }
    printf("%ld lines ok\n", n);
    return 0;
}
