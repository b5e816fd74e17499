/* `write VALUE to "FILE" as latex|markdown|csv|bfile|json` (docs/language.md
 * "Exporting results"): tables for papers and other tools.
 *   - a game whose period is known: the periodic table in the layout of
 *     the octal literature (Winning Ways ch. 4: G(n) in rows of the
 *     period, row labels n, exceptional values in bold);
 *   - a list of integers: the same table (rows of `period P`, default 10),
 *     or an OEIS b-file ("n a(n)" lines from `offset`, default 0);
 *   - a quotient: presentation, P-portion, Phi table and (|Q| <= 32) the
 *     multiplication table, with words as real superscripts (a b^{2});
 *   - a presentation: < gens | relations > with its `with` items;
 *   - a list of records or of lists: a table (CSV by RFC 4180, Markdown,
 *     LaTeX); genus strings such as 0^1431 become 0^{1431} in LaTeX.
 * Files are written atomically (src/lib/util/atomicfile.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/io/module.h"
#include "modules/io/export.h"
#include "modules/games/gameobj.h"
#include "modules/misere/quotobj.h"
#include "modules/io/resultfile.h"
#include "modules/kb/semiobj.h"
#include "lib/util/atomicfile.h"
#include "lib/util/xalloc.h"

typedef enum { EX_LATEX, EX_MARKDOWN, EX_CSV, EX_BFILE, EX_JSON } ExFormat;

static const char *const fmt_names[] = {"latex", "markdown", "csv", "bfile", "json"};

/* ---- cells ---- */

/* Text of a value in a table cell (strings bare); polls, and stops at
 * VAL_TEXT_MAX (a cell may share sub-values and stand for 2^k leaves). */
static CgtStatus cell_text(const Value *v, StrBuf *b, CgtError *err)
{
    if (v->kind == VAL_NULL)
        return CGT_OK;
    return val_format_checked(v, b, true, VAL_TEXT_MAX, err);
}

static void csv_cell(const char *s, StrBuf *b)
{
    bool quote = s[strcspn(s, ",\"\r\n")] != '\0';
    if (!quote) {
        sb_puts(b, s);
        return;
    }
    sb_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            sb_putc(b, '"');
        sb_putc(b, *s);
    }
    sb_putc(b, '"');
}

static void md_cell(const char *s, StrBuf *b)
{
    for (; *s; s++) {
        if (*s == '|')
            sb_puts(b, "\\|");
        else if (*s == '\n' || *s == '\r')
            sb_putc(b, ' ');
        else
            sb_putc(b, *s);
    }
}

/* "0^1431", "12^20": a genus (ONAG ch. 12) as printed by cgt. */
static bool is_genus(const char *s)
{
    const char *c = strchr(s, '^');
    if (!c || c == s || !c[1])
        return false;
    for (const char *p = s; *p; p++)
        if (p != c && !(*p >= '0' && *p <= '9'))
            return false;
    return true;
}

void ex_latex_text(const char *s, StrBuf *b)
{
    if (is_genus(s)) {
        const char *c = strchr(s, '^');
        sb_printf(b, "$%.*s^{%s}$", (int)(c - s), s, c + 1);
        return;
    }
    for (; *s; s++) {
        switch (*s) {
        case '#': case '$': case '%': case '&': case '_': case '{': case '}':
            sb_putc(b, '\\');
            sb_putc(b, *s);
            break;
        case '~':
            sb_puts(b, "\\textasciitilde{}");
            break;
        case '^':
            sb_puts(b, "\\textasciicircum{}");
            break;
        case '\\':
            sb_puts(b, "\\textbackslash{}");
            break;
        case '\n':
            sb_putc(b, ' ');
            break;
        default:
            sb_putc(b, *s);
        }
    }
}

/* ---- tables of records or lists ---- */

static bool is_table(const Value *v)
{
    if (v->kind == VAL_MAP)
        return true;
    if (v->kind != VAL_LIST || v->u.list.len == 0)
        return false;
    ValKind k = v->u.list.items[0]->kind;
    if (k != VAL_MAP && k != VAL_LIST)
        return false;
    for (size_t i = 0; i < v->u.list.len; i++)
        if (v->u.list.items[i]->kind != k)
            return false;
    return true;
}

/* Columns: the keys of the records in order of first appearance. */
static char **table_columns(const Value *rows, size_t *n)
{
    char **cols = NULL;
    *n = 0;
    for (size_t r = 0; r < rows->u.list.len; r++) {
        const Value *m = rows->u.list.items[r];
        for (size_t i = 0; i < m->u.map.len; i++) {
            bool seen = false;
            for (size_t j = 0; j < *n && !seen; j++)
                seen = strcmp(cols[j], m->u.map.keys[i]) == 0;
            if (!seen) {
                cols = xrealloc(cols, (*n + 1) * sizeof *cols);
                cols[(*n)++] = m->u.map.keys[i];
            }
        }
    }
    return cols;
}

static CgtStatus table_out(const Value *v, ExFormat f, StrBuf *b, CgtError *err)
{
    CgtStatus st = CGT_OK;
    Value *wrap = NULL;
    if (v->kind == VAL_MAP) {
        wrap = val_list();
        val_list_push(wrap, val_ref((Value *)v));
        v = wrap;
    }
    bool records = v->u.list.items[0]->kind == VAL_MAP;
    size_t ncol = 0;
    char **cols = NULL;
    if (records)
        cols = table_columns(v, &ncol);
    else
        for (size_t r = 0; r < v->u.list.len; r++)
            if (v->u.list.items[r]->u.list.len > ncol)
                ncol = v->u.list.items[r]->u.list.len;
    if (f == EX_LATEX) {
        sb_puts(b, "\\begin{tabular}{");
        for (size_t c = 0; c < ncol; c++)
            sb_putc(b, 'l');
        sb_puts(b, "}\n");
    }
    /* header */
    if (records) {
        for (size_t c = 0; c < ncol; c++) {
            if (f == EX_CSV) {
                sb_puts(b, c ? "," : "");
                csv_cell(cols[c], b);
            } else if (f == EX_MARKDOWN) {
                sb_puts(b, "| ");
                md_cell(cols[c], b);
                sb_putc(b, ' ');
            } else {
                sb_puts(b, c ? " & " : "");
                ex_latex_text(cols[c], b);
            }
        }
        if (f == EX_CSV)
            sb_puts(b, "\r\n");
        else if (f == EX_MARKDOWN) {
            sb_puts(b, "|\n");
            for (size_t c = 0; c < ncol; c++)
                sb_puts(b, "|---");
            sb_puts(b, "|\n");
        } else
            sb_puts(b, " \\\\ \\hline\n");
    } else if (f == EX_MARKDOWN) {
        for (size_t c = 0; c < ncol; c++)
            sb_printf(b, "| %zu ", c + 1);
        sb_puts(b, "|\n");
        for (size_t c = 0; c < ncol; c++)
            sb_puts(b, "|---");
        sb_puts(b, "|\n");
    }
    for (size_t r = 0; r < v->u.list.len && st == CGT_OK; r++) {
        const Value *row = v->u.list.items[r];
        if (b->len > VAL_TEXT_MAX) {
            st = cgt_error_set(err, CGT_ERR_LIMIT, "write: the text would pass %zu bytes",
                               VAL_TEXT_MAX);
            break;
        }
        for (size_t c = 0; c < ncol && st == CGT_OK; c++) {
            const Value *x = NULL;
            if (records)
                x = val_map_get(row, cols[c]);
            else if (c < row->u.list.len)
                x = row->u.list.items[c];
            StrBuf t;
            sb_init(&t);
            if (x && (st = cell_text(x, &t, err)) != CGT_OK) {
                sb_free(&t);
                break;
            }
            const char *s = t.s ? t.s : "";
            if (f == EX_CSV) {
                sb_puts(b, c ? "," : "");
                csv_cell(s, b);
            } else if (f == EX_MARKDOWN) {
                sb_puts(b, "| ");
                md_cell(s, b);
                sb_putc(b, ' ');
            } else {
                sb_puts(b, c ? " & " : "");
                ex_latex_text(s, b);
            }
            sb_free(&t);
        }
        if (f == EX_CSV)
            sb_puts(b, "\r\n");
        else if (f == EX_MARKDOWN)
            sb_puts(b, "|\n");
        else
            sb_puts(b, " \\\\\n");
    }
    if (f == EX_LATEX)
        sb_puts(b, "\\end{tabular}\n");
    free(cols);
    val_unref(wrap);
    return st;
}

/* ---- sequences ---- */

/* The periodic table: values g[0..count) in rows of `cols`, row labels,
 * column headers, bold for the heaps in exc (sorted, nexc of them). */
static void seq_table(const uint32_t *g, uint64_t count, uint64_t cols, const uint64_t *exc,
                      size_t nexc, const char *caption, ExFormat f, StrBuf *b)
{
    if (f == EX_LATEX) {
        sb_printf(b, "%% %s\n", caption);
        sb_printf(b, "\\begin{tabular}{r|*{%llu}{c}}\n", (unsigned long long)cols);
        sb_puts(b, "$n$");
        for (uint64_t c = 0; c < cols; c++)
            sb_printf(b, " & %llu", (unsigned long long)c);
        sb_puts(b, " \\\\ \\hline\n");
    } else {
        sb_printf(b, "%s\n\n| n |", caption);
        for (uint64_t c = 0; c < cols; c++)
            sb_printf(b, " %llu |", (unsigned long long)c);
        sb_puts(b, "\n|---:|");
        for (uint64_t c = 0; c < cols; c++)
            sb_puts(b, "---:|");
        sb_putc(b, '\n');
    }
    size_t e = 0;
    for (uint64_t r = 0; r * cols < count; r++) {
        sb_printf(b, f == EX_LATEX ? "%llu" : "| %llu |", (unsigned long long)(r * cols));
        for (uint64_t c = 0; c < cols; c++) {
            uint64_t n = r * cols + c;
            if (n >= count) {
                sb_puts(b, f == EX_LATEX ? " &" : "  |");
                continue;
            }
            while (e < nexc && exc[e] < n)
                e++;
            bool bold = e < nexc && exc[e] == n;
            if (f == EX_LATEX)
                sb_printf(b, bold ? " & \\textbf{%u}" : " & %u", g[n]);
            else
                sb_printf(b, bold ? " **%u** |" : " %u |", g[n]);
        }
        sb_puts(b, f == EX_LATEX ? " \\\\\n" : "\n");
    }
    if (f == EX_LATEX)
        sb_puts(b, "\\end{tabular}\n");
}

static bool int_list(Call *c, const Value *v, uint32_t **out, uint64_t *count)
{
    size_t n = v->u.list.len;
    uint32_t *g = xmalloc((n + 1) * sizeof *g);
    for (size_t i = 0; i < n; i++) {
        int64_t x;
        if (!val_get_i64(v->u.list.items[i], &x) || x < 0 || x > UINT32_MAX) {
            free(g);
            rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                     "element %zu of the list is not an integer in 0..2^32-1", i);
            return false;
        }
        g[i] = (uint32_t)x;
    }
    *out = g;
    *count = n;
    return true;
}

static bool all_ints(const Value *v)
{
    if (v->kind != VAL_LIST)
        return false;
    for (size_t i = 0; i < v->u.list.len; i++)
        if (v->u.list.items[i]->kind != VAL_INT)
            return false;
    return true;
}

static bool all_genus(const Value *v)
{
    if (v->kind != VAL_LIST || v->u.list.len == 0)
        return false;
    for (size_t i = 0; i < v->u.list.len; i++)
        if (v->u.list.items[i]->kind != VAL_STR || !is_genus(v->u.list.items[i]->u.str.s))
            return false;
    return true;
}

/* ---- the statement ---- */

static bool format_of(Call *c, const char *path, ExFormat *f)
{
    Value *as = call_opt(c, "as");
    const char *name = NULL;
    if (as)
        name = as->u.str.s;
    else {
        const char *dot = strrchr(path, '.');
        static const struct {
            const char *ext;
            ExFormat f;
        } ext[] = {{".tex", EX_LATEX}, {".md", EX_MARKDOWN}, {".csv", EX_CSV},
                   {".json", EX_JSON}};
        for (size_t i = 0; dot && i < sizeof ext / sizeof ext[0]; i++)
            if (strcmp(dot, ext[i].ext) == 0) {
                *f = ext[i].f;
                return true;
            }
        rt_error(c->I, DIAG_TYPE, c->loc, "which format? '%s' has no known extension", path);
        rt_hint(c->I, "add `as latex`, `as markdown`, `as csv`, `as bfile` or `as json`");
        return false;
    }
    for (int i = 0; i < 5; i++)
        if (strcmp(name, fmt_names[i]) == 0) {
            *f = (ExFormat)i;
            return true;
        }
    rt_error(c->I, DIAG_DOMAIN, call_opt_loc(c, "as"), "unknown format '%s'", name);
    rt_hint(c->I, "formats: latex, markdown, csv, bfile, json");
    return false;
}

/* A genetic algorithm's record (kind "ga") is written as its history, the
 * table of best and mean fitness per generation. */
static const Value *ga_history_of(const Value *v)
{
    const char *k = val_result_kind(v);
    Value *h = k && strcmp(k, "ga") == 0 ? val_map_get(v, "history") : NULL;
    return h && h->kind == VAL_LIST && h->u.list.len > 0 ? h : v;
}

static Value *cannot(Call *c, const Value *v, ExFormat f)
{
    rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "cannot write %s %s as %s", val_article(val_kind_name(v)), val_kind_name(v),
             fmt_names[f]);
    rt_hint(c->I, "docs/language.md \"Exporting results\" lists what each format takes");
    return NULL;
}

Value *bi_write(Call *c)
{
    const Value *v = c->args[0];
    Value *to = call_opt(c, "to");
    if (!to) {
        rt_error(c->I, DIAG_TYPE, c->loc, "write needs a file: write VALUE to \"FILE\"");
        return NULL;
    }
    const char *path = to->u.str.s;
    ExFormat f;
    if (!format_of(c, path, &f))
        return NULL;
    int64_t period = 0, offset = 0;
    Value *pv = call_opt(c, "period"), *ov = call_opt(c, "offset");
    if (pv && !call_int(c, pv, call_opt_loc(c, "period"), "the period", 1, 100000, &period))
        return NULL;
    if (ov && !call_int(c, ov, call_opt_loc(c, "offset"), "the offset", -1000000000,
                        1000000000, &offset))
        return NULL;
    if (f != EX_JSON)
        v = ga_history_of(ex_quotient_of(v));
    StrBuf b;
    sb_init(&b);
    bool ok = true;
    if (f == EX_JSON) {
        JsonWriter w;
        jw_init(&w, &b);
        CgtError err;
        cgt_error_clear(&err);
        if (val_json_checked(v, &w, false, VAL_TEXT_MAX, &err) != CGT_OK) {
            sb_free(&b);
            return rt_error_from(c->I, c->loc, &err);
        }
        sb_putc(&b, '\n');
    } else if (val_is_obj(v, &quotient_type)) {
        ok = ex_quotient(c, v->u.obj.ptr, f, &b);
    } else if (val_is_obj(v, &semigroup_type)) {
        ok = ex_presentation(c, v->u.obj.ptr, f, &b);
    } else if (val_is_obj(v, &game_type)) {
        GameObj *g = game_of(v);
        if (g->kind != GAME_HEAP || !g->gt || grundy_count(g->gt) == 0) {
            sb_free(&b);
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "no Grundy values of %s computed yet",
                     g->name);
            rt_hint(c->I, "run `period %s;` (or grundy) first; write shows what was computed",
                    g->name);
            return NULL;
        }
        uint64_t n = grundy_count(g->gt);
        uint32_t *vals = xmalloc((n + 1) * sizeof *vals);
        grundy_copy(g->gt, 0, n, vals);
        if (f == EX_BFILE || f == EX_CSV) {
            if (f == EX_CSV)
                sb_puts(&b, "n,G(n)\r\n");
            for (uint64_t i = 0; i < n; i++)
                sb_printf(&b, f == EX_CSV ? "%llu,%u\r\n" : "%llu %u\n",
                          (unsigned long long)i, vals[i]);
        } else {
            const GrundyPeriod *p = g->period_done ? &g->period : NULL;
            uint64_t cols = period ? (uint64_t)period
                            : p && p->status != PERIOD_NONE && p->period <= 1000 ? p->period
                                                                                : 10;
            uint64_t *exc = NULL;
            size_t nexc = p && p->status != PERIOD_NONE ? grundy_exceptional(g->gt, p, &exc) : 0;
            uint64_t shown = n;
            if (p && p->status != PERIOD_NONE) {
                /* the rows up to the preperiod and two full periods after it */
                uint64_t want = ((p->preperiod + cols - 1) / cols + 2) * cols;
                if (want < shown)
                    shown = want;
            }
            char cap[300];
            if (p && p->status != PERIOD_NONE)
                snprintf(cap, sizeof cap, "Grundy values of %s: period %llu, preperiod %llu%s",
                         g->name, (unsigned long long)p->period,
                         (unsigned long long)p->preperiod,
                         nexc ? "; exceptional values in bold" : "");
            else
                snprintf(cap, sizeof cap, "Grundy values of %s, heaps 0..%llu", g->name,
                         (unsigned long long)(shown - 1));
            seq_table(vals, shown, cols, exc, nexc, cap, f, &b);
            free(exc);
        }
        free(vals);
    } else if (all_genus(v) && f != EX_BFILE) {
        Value *rows = val_list();
        for (size_t i = 0; i < v->u.list.len; i++) {
            Value *r = val_map();
            val_map_set_int(r, "n", offset + (int64_t)i);
            val_map_set(r, "genus", val_ref(v->u.list.items[i]));
            val_list_push(rows, r);
        }
        CgtError err;
        cgt_error_clear(&err);
        CgtStatus st = table_out(rows, f, &b, &err);
        val_unref(rows);
        if (st != CGT_OK) {
            sb_free(&b);
            return rt_error_from(c->I, c->loc, &err);
        }
    } else if (all_ints(v) && v->u.list.len > 0) {
        if (f == EX_BFILE || f == EX_CSV) {
            if (f == EX_CSV)
                sb_puts(&b, "n,a(n)\r\n");
            for (size_t i = 0; i < v->u.list.len; i++) {
                StrBuf t;
                sb_init(&t);
                val_format(v->u.list.items[i], &t, true);
                sb_printf(&b, f == EX_CSV ? "%lld,%s\r\n" : "%lld %s\n",
                          (long long)(offset + (int64_t)i), t.s);
                sb_free(&t);
            }
        } else {
            uint32_t *g;
            uint64_t n;
            if (!int_list(c, v, &g, &n)) {
                sb_free(&b);
                return NULL;
            }
            char cap[120];
            snprintf(cap, sizeof cap, "a sequence of %llu values in rows of %lld",
                     (unsigned long long)n, (long long)(period ? period : 10));
            seq_table(g, n, period ? (uint64_t)period : 10, NULL, 0, cap, f, &b);
            free(g);
        }
    } else if (is_table(v) && f != EX_BFILE) {
        CgtError err;
        cgt_error_clear(&err);
        if (table_out(v, f, &b, &err) != CGT_OK) {
            sb_free(&b);
            return rt_error_from(c->I, c->loc, &err);
        }
    } else {
        sb_free(&b);
        return cannot(c, v, f);
    }
    if (!ok) {
        sb_free(&b);
        return NULL;
    }
    return ex_write_file(c, path, "output file", &b);
}

const Value *ex_quotient_of(const Value *v)
{
    Value *q = v->kind == VAL_MAP ? val_map_get(v, "q") : NULL;
    return q && val_is_obj(q, &quotient_type) ? q : v;
}

Value *ex_write_file(Call *c, const char *path, const char *what, StrBuf *b)
{
    CgtError err;
    cgt_error_clear(&err);
    AtomicFile af;
    if (af_open(&af, path, what, false, &err) != CGT_OK) {
        sb_free(b);
        return rt_error_from(c->I, call_opt_loc(c, "to"), &err);
    }
    af_write(&af, b->s ? b->s : "", b->len);
    sb_free(b);
    if (af_commit(&af, &err) != CGT_OK)
        return rt_error_from(c->I, call_opt_loc(c, "to"), &err);
    return val_null();
}
