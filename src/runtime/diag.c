/* Diagnostics: GCC-style "file:line:col: error: message" with the source
 * line and a caret (docs/errors.md).  Lines and columns are 1-based and
 * columns count bytes. */
#include <stdio.h>
#include <string.h>

#include "runtime/interp.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

int diag_exit_code(DiagCat c)
{
    switch (c) {
    case DIAG_SYNTAX:
        return 3;
    case DIAG_USAGE:
        return 2;
    case DIAG_LIMIT:
        return 4;
    case DIAG_INTERRUPTED:
        return 130;
    case DIAG_INTERNAL:
        return 70;
    default:
        return 1;
    }
}

const char *diag_cat_name(DiagCat c)
{
    static const char *const n[] = {"syntax", "name",        "type",     "domain", "limit",
                                    "io",     "usage",       "interrupted", "internal", "check"};
    return n[c];
}

static void line_col(const SourceFile *src, uint32_t off, unsigned *line, unsigned *col,
                     uint32_t *line_start)
{
    unsigned l = 1;
    uint32_t ls = 0;
    if (off > src->len)
        off = (uint32_t)src->len;
    for (uint32_t i = 0; i < off; i++)
        if (src->text[i] == '\n') {
            l++;
            ls = i + 1;
        }
    *line = l;
    *col = off - ls + 1;
    if (ls == 0 && off >= 3 && src->len >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0)
        *col -= 3; /* columns of line 1 do not count a byte order mark */
    *line_start = ls;
}

void diag_where(Loc loc, char *buf, size_t size)
{
    const SourceFile *src = source_get(loc.file);
    if (!src) {
        snprintf(buf, size, "cgt");
        return;
    }
    unsigned line, col;
    uint32_t ls;
    line_col(src, loc.start, &line, &col, &ls);
    snprintf(buf, size, "%s:%u:%u", src->name, line, col);
}

const char *diag_line_col(Loc loc, unsigned *line, unsigned *col)
{
    const SourceFile *src = source_get(loc.file);
    *line = *col = 0;
    if (!src)
        return "cgt";
    uint32_t ls;
    line_col(src, loc.start, line, col, &ls);
    return src->name;
}

char *diag_source_text(Loc loc)
{
    const SourceFile *src = source_get(loc.file);
    if (!src || loc.start > src->len || loc.end > src->len || loc.end < loc.start)
        return xstrdup("");
    return xstrndup(src->text + loc.start, loc.end - loc.start);
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
    size_t k = p[0] >= 0xF0 && p[0] <= 0xF4 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return k;
}

/* The source excerpt, one output column per byte of anything that is not
 * text: control bytes and invalid UTF-8 become '?' (binary input is never
 * echoed raw to the terminal). */
static void put_excerpt(FILE *f, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        if (p[i] >= 0x80) {
            size_t k = utf8_len(p + i, n - i);
            if (k) {
                fwrite(p + i, 1, k, f);
                i += k;
                continue;
            }
            fputc('?', f);
        } else {
            fputc(p[i] == '\t' || (p[i] >= 0x20 && p[i] != 0x7f) ? p[i] : '?', f);
        }
        i++;
    }
}

void diag_print(FILE *f, const char *severity, Loc loc, const char *msg, const char *hint,
                const char *trace, bool color)
{
    cgt_progress_end();
    const SourceFile *src = source_get(loc.file);
    const char *on = "", *off = "";
    if (color) {
        on = strcmp(severity, "error") == 0 ? "\033[1;31m" : "\033[1;35m";
        off = "\033[0m";
    }
    if (!src) {
        fprintf(f, "cgt: %s%s:%s %s\n", on, severity, off, msg);
    } else {
        unsigned line, col;
        uint32_t ls;
        line_col(src, loc.start, &line, &col, &ls);
        fprintf(f, "%s:%u:%u: %s%s:%s %s\n", src->name, line, col, on, severity, off, msg);
        uint32_t le = ls;
        while (le < src->len && src->text[le] != '\n')
            le++;
        char num[32];
        int w = snprintf(num, sizeof num, "%u", line);
        if (w < 4)
            w = 4;
        /* a long line (a generated script) is shown as a window of at
           most DIAG_WIDTH bytes around the caret, marked with "..." */
        enum { DIAG_WIDTH = 160, DIAG_BEFORE = 60 };
        uint32_t from = ls, to = le;
        if (to - from > DIAG_WIDTH) {
            if (loc.start > from + DIAG_BEFORE)
                from = loc.start - DIAG_BEFORE;
            if (to - from > DIAG_WIDTH)
                to = from + DIAG_WIDTH;
        }
        const char *pre = from > ls ? "..." : "", *post = to < le ? "..." : "";
        const char *pad = from > ls ? "   " : "";
        if (from == 0 && to >= 3 && memcmp(src->text, "\xEF\xBB\xBF", 3) == 0)
            from = 3; /* the byte order mark is not shown */
        fprintf(f, " %*u | %s", w, line, pre);
        put_excerpt(f, src->text + from, to - from);
        fprintf(f, "%s\n", post);
        fprintf(f, " %*s | %s", w, "", pad);
        for (uint32_t i = from; i < loc.start && i < to; i++)
            fputc(src->text[i] == '\t' ? '\t' : ' ', f);
        fputc('^', f);
        uint32_t end = loc.end < to ? loc.end : to;
        for (uint32_t i = loc.start + 1; i < end; i++)
            fputc('~', f);
        fputc('\n', f);
    }
    if (hint && hint[0])
        fprintf(f, "hint: %s\n", hint);
    if (trace && trace[0])
        fputs(trace, f);
}
