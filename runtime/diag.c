/* Diagnostics: GCC-style "file:line:col: error: message" with the source
 * line and a caret (STYLE.md 3.7).  Lines and columns are 1-based and
 * columns count bytes. */
#include <stdio.h>
#include <string.h>

#include "runtime/interp.h"
#include "util/xalloc.h"

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

void diag_print(FILE *f, const char *severity, Loc loc, const char *msg, const char *hint,
                const char *trace, bool color)
{
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
        fprintf(f, " %*u | %s%.*s%s\n", w, line, pre, (int)(to - from), src->text + from, post);
        fprintf(f, " %*s | %s", w, "", from > ls ? "   " : "");
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
