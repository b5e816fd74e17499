/* read_json("FILE") and read_csv("FILE"): data from other tools as cgt
 * values (docs/language.md "Reading data").  Both read the file whole with
 * the hygiene of `load` (a regular file, opened without blocking, at most
 * RF_MAX_BYTES; src/lib/util/atomicfile.h pf_read); the JSON reader is the
 * strict one `load` uses (src/lib/util/json.h), the CSV reader follows RFC
 * 4180 (src/lib/util/csv.h).  Errors name the data file, line and column:
 * "cannot read FILE:L:C: what is wrong" (category io, exit 1). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/io/module.h"
#include "modules/io/resultfile.h"
#include "lib/util/atomicfile.h"
#include "lib/util/csv.h"
#include "lib/util/json.h"
#include "lib/util/xalloc.h"

static void text_line_col(const char *text, size_t len, size_t off, unsigned *line,
                          unsigned *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

static Value *data_fail(Call *c, const char *path, unsigned line, unsigned col, const char *fmt,
                        ...) __attribute__((format(printf, 5, 6)));

static Value *data_fail(Call *c, const char *path, unsigned line, unsigned col, const char *fmt,
                        ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return rt_error(c->I, DIAG_IO, c->arg_locs[0], "cannot read %s:%u:%u: %s", path, line, col,
                    msg);
}

static char *read_data(Call *c, const char *what, size_t *len)
{
    char *text;
    CgtError err;
    cgt_error_clear(&err);
    if (pf_read(c->args[0]->u.str.s, what, RF_MAX_BYTES, &text, len, &err) != CGT_OK) {
        rt_error_from(c->I, c->arg_locs[0], &err);
        return NULL;
    }
    return text;
}

/* The call's data file, read whole and parsed as JSON or as CSV. */
typedef struct DataFile {
    char *text;
    size_t len;
    JsonNode *json;
    CsvTable *csv;
} DataFile;

/* Read and parse the file; false after the error "cannot read FILE:L:C:
 * ..." at the place the parser refused (with read_json's hint), the file's
 * bytes freed.  On success the caller frees f->text and the tree. */
static bool read_parsed(Call *c, bool csv, DataFile *f)
{
    memset(f, 0, sizeof *f);
    f->text = read_data(c, csv ? "CSV file" : "JSON file", &f->len);
    if (!f->text)
        return false;
    JsonError je;
    CsvError ce;
    if (csv ? (f->csv = csv_parse(f->text, f->len, &ce)) != NULL
            : (f->json = json_parse(f->text, f->len, &je)) != NULL)
        return true;
    data_fail(c, c->args[0]->u.str.s, csv ? ce.line : je.line, csv ? ce.col : je.col, "%s",
              csv ? ce.msg : je.msg);
    if (!csv)
        rt_hint(c->I, "read_json reads strict JSON (RFC 8259): no comments, trailing commas "
                      "or duplicate keys");
    free(f->text);
    return false;
}

/* An integer literal of the data file (JSON number or CSV field) as a
 * value, or NULL with the error set. */
static Value *data_int(Call *c, const char *path, const char *s, size_t n, unsigned line,
                       unsigned col)
{
    if (n - (s[0] == '-') > RF_MAX_DIGITS)
        return data_fail(c, path, line, col, "an integer of more than %u digits", RF_MAX_DIGITS);
    return val_int_str(s);
}

typedef struct JDec {
    Call *c;
    const char *path, *text;
    size_t len;
} JDec;

static Value *json_value(JDec *d, const JsonNode *n)
{
    unsigned line, col;
    switch (n->kind) {
    case JSON_NULL:
        return val_null();
    case JSON_BOOL:
        return val_bool(n->b);
    case JSON_STR:
        return val_str_n(n->s, n->slen);
    case JSON_NUM:
        text_line_col(d->text, d->len, n->start, &line, &col);
        if (!n->is_int) {
            data_fail(d->c, d->path, line, col,
                      "%s is not an integer: cgt has no floating-point numbers", n->s);
            rt_hint(d->c->I, "scale the data to integers, or write the number as a string "
                             "(\"%s\")",
                    n->s);
            return NULL;
        }
        return data_int(d->c, d->path, n->s, n->slen, line, col);
    case JSON_ARR: {
        Value *l = val_list();
        for (size_t i = 0; i < n->n; i++) {
            Value *v = json_value(d, &n->items[i]);
            if (!v) {
                val_unref(l);
                return NULL;
            }
            val_list_push(l, v);
        }
        return l;
    }
    case JSON_OBJ: {
        Value *m = val_map();
        for (size_t i = 0; i < n->n; i++) {
            Value *v = json_value(d, &n->items[i]);
            if (!v) {
                val_unref(m);
                return NULL;
            }
            val_map_set(m, n->keys[i], v);
        }
        return m;
    }
    }
    return val_null();
}

Value *bi_read_json(Call *c)
{
    DataFile f;
    if (!read_parsed(c, false, &f))
        return NULL;
    JDec d = {c, c->args[0]->u.str.s, f.text, f.len};
    Value *v = json_value(&d, f.json);
    json_free(f.json);
    free(f.text);
    return v;
}

/* A field that reads as an integer: an optional '-' and decimal digits,
 * with no leading zero (so "007" and "-0" stay text). */
static bool int_like(const char *s, size_t n)
{
    size_t i = s[0] == '-';
    if (i == n || (s[i] == '0' && (n - i > 1 || i == 1)))
        return false;
    for (; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return false;
    return true;
}

Value *bi_read_csv(Call *c)
{
    const char *path = c->args[0]->u.str.s;
    DataFile file;
    if (!read_parsed(c, true, &file))
        return NULL;
    free(file.text);
    CsvTable *t = file.csv;
    Value *res = NULL;
    if (t->n == 0) {
        res = val_list();
        goto out;
    }
    const CsvRow *h = &t->rows[0];
    for (size_t k = 0; k < h->n; k++) {
        if (h->fields[k].len == 0) {
            data_fail(c, path, h->fields[k].line, h->fields[k].col,
                      "column %zu of the header row has no name", k + 1);
            goto out;
        }
        for (size_t j = 0; j < k; j++)
            if (strcmp(h->fields[j].s, h->fields[k].s) == 0) {
                data_fail(c, path, h->fields[k].line, h->fields[k].col,
                          "column name \"%s\" appears twice in the header row", h->fields[k].s);
                goto out;
            }
    }
    res = val_list();
    for (size_t i = 1; i < t->n; i++) {
        const CsvRow *r = &t->rows[i];
        if (r->n != h->n) {
            const CsvField *at = &r->fields[r->n < h->n ? r->n - 1 : h->n];
            data_fail(c, path, at->line, at->col, "a row of %zu field%s under a header of %zu",
                      r->n, r->n == 1 ? "" : "s", h->n);
            val_unref(res);
            res = NULL;
            goto out;
        }
        Value *rec = val_map();
        for (size_t k = 0; k < r->n; k++) {
            const CsvField *f = &r->fields[k];
            Value *v;
            if (int_like(f->s, f->len)) {
                v = data_int(c, path, f->s, f->len, f->line, f->col);
                if (!v) {
                    val_unref(rec);
                    val_unref(res);
                    res = NULL;
                    goto out;
                }
            } else {
                v = val_str_n(f->s, f->len);
            }
            val_map_set(rec, h->fields[k].s, v);
        }
        val_list_push(res, rec);
    }
out:
    csv_free(t);
    return res;
}
