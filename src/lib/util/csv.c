/* A strict CSV reader after RFC 4180 ("Common Format and MIME Type for
 * Comma-Separated Values (CSV) Files", Shafranovich 2005, section 2),
 * with LF accepted as a line end beside CR LF. */
#include "lib/util/csv.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/xalloc.h"

typedef struct Cursor {
    const char *t;
    size_t len, i;
    unsigned line, col;
} Cursor;

static void advance(Cursor *c)
{
    if (c->t[c->i] == '\n') {
        c->line++;
        c->col = 1;
    } else {
        c->col++;
    }
    c->i++;
}

static CsvTable *fail(CsvTable *t, CsvError *err, unsigned line, unsigned col, const char *msg)
{
    err->line = line;
    err->col = col;
    snprintf(err->msg, sizeof err->msg, "%s", msg);
    csv_free(t);
    return NULL;
}

static void push_field(CsvRow *r, size_t *cap, char *s, size_t len, unsigned line, unsigned col)
{
    if (r->n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        r->fields = xrealloc(r->fields, *cap * sizeof *r->fields);
    }
    r->fields[r->n++] = (CsvField){s, len, line, col};
}

/* At a line end (LF, or CR LF) or the end of the text. */
static bool at_record_end(const Cursor *c)
{
    return c->i >= c->len || c->t[c->i] == '\n' ||
           (c->t[c->i] == '\r' && c->i + 1 < c->len && c->t[c->i + 1] == '\n');
}

CsvTable *csv_parse(const char *text, size_t len, CsvError *err)
{
    CsvTable *t = xcalloc(1, sizeof *t);
    size_t tcap = 0;
    Cursor c = {text, len, 0, 1, 1};
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        c.i = 3;
    char *buf = NULL;
    size_t bcap = 0;
    while (c.i < c.len) {
        if (at_record_end(&c)) { /* an empty line */
            if (c.t[c.i] == '\r')
                advance(&c);
            advance(&c);
            continue;
        }
        CsvRow row = {NULL, 0};
        size_t fcap = 0;
        for (;;) {
            unsigned fl = c.line, fc = c.col;
            size_t n = 0;
            if (c.i < c.len && c.t[c.i] == '"') {
                advance(&c);
                for (;;) {
                    if (c.i >= c.len) {
                        free(buf);
                        for (size_t k = 0; k < row.n; k++)
                            free(row.fields[k].s);
                        free(row.fields);
                        return fail(t, err, fl, fc, "quoted field not closed before the end "
                                                    "of the file");
                    }
                    char ch = c.t[c.i];
                    if (ch == '"') {
                        if (c.i + 1 < c.len && c.t[c.i + 1] == '"') {
                            advance(&c);
                        } else {
                            advance(&c);
                            break;
                        }
                    }
                    if (ch == '\0') {
                        free(buf);
                        for (size_t k = 0; k < row.n; k++)
                            free(row.fields[k].s);
                        free(row.fields);
                        return fail(t, err, c.line, c.col, "NUL byte in a field");
                    }
                    if (n + 1 >= bcap) {
                        bcap = bcap ? 2 * bcap : 64;
                        buf = xrealloc(buf, bcap);
                    }
                    buf[n++] = ch;
                    advance(&c);
                }
                if (c.i < c.len && c.t[c.i] != ',' && !at_record_end(&c)) {
                    free(buf);
                    for (size_t k = 0; k < row.n; k++)
                        free(row.fields[k].s);
                    free(row.fields);
                    return fail(t, err, c.line, c.col,
                                "a closing quote must be followed by a comma or a line end");
                }
            } else {
                while (c.i < c.len && c.t[c.i] != ',' && !at_record_end(&c)) {
                    char ch = c.t[c.i];
                    const char *why = ch == '"'    ? "a quote inside a field that does not "
                                                     "start with one (write the field as "
                                                     "\"...\" with \"\" for each quote)"
                                      : ch == '\r' ? "a carriage return not followed by a "
                                                     "line feed"
                                      : ch == '\0' ? "NUL byte in a field"
                                                   : NULL;
                    if (why) {
                        free(buf);
                        for (size_t k = 0; k < row.n; k++)
                            free(row.fields[k].s);
                        free(row.fields);
                        return fail(t, err, c.line, c.col, why);
                    }
                    if (n + 1 >= bcap) {
                        bcap = bcap ? 2 * bcap : 64;
                        buf = xrealloc(buf, bcap);
                    }
                    buf[n++] = ch;
                    advance(&c);
                }
            }
            char *s = xmalloc(n + 1);
            if (n)
                memcpy(s, buf, n);
            s[n] = '\0';
            push_field(&row, &fcap, s, n, fl, fc);
            if (c.i < c.len && c.t[c.i] == ',') {
                advance(&c);
                continue;
            }
            if (c.i < c.len) { /* the line end */
                if (c.t[c.i] == '\r')
                    advance(&c);
                advance(&c);
            }
            break;
        }
        if (t->n == tcap) {
            tcap = tcap ? 2 * tcap : 16;
            t->rows = xrealloc(t->rows, tcap * sizeof *t->rows);
        }
        t->rows[t->n++] = row;
    }
    free(buf);
    return t;
}

void csv_free(CsvTable *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        for (size_t k = 0; k < t->rows[i].n; k++)
            free(t->rows[i].fields[k].s);
        free(t->rows[i].fields);
    }
    free(t->rows);
    free(t);
}
