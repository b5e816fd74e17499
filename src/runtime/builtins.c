/* The builtins of the registered modules: name lookup, suggestions,
 * result printers, `help` text, docs/builtins.md and the man page. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "runtime/interp.h"
#include "lib/util/xalloc.h"

/* The registered modules and their builtins in one flat list. */
static const Module *const *modules;
static const Builtin **flat;
static const Module **flat_module;
static size_t nflat;
/* builtins of one name for arguments of one kind (BI_OVERLOAD) */
static const Builtin **overloads;
static const Module **overload_module;
static size_t noverloads;

void builtin_register(const Module *const *mods)
{
    if (modules)
        return;
    modules = mods;
    for (size_t m = 0; mods[m]; m++)
        nflat += mods[m]->nbuiltins;
    flat = xmalloc((nflat + 1) * sizeof *flat);
    flat_module = xmalloc((nflat + 1) * sizeof *flat_module);
    overloads = xmalloc((nflat + 1) * sizeof *overloads);
    overload_module = xmalloc((nflat + 1) * sizeof *overload_module);
    size_t k = 0;
    for (size_t m = 0; mods[m]; m++)
        for (size_t i = 0; i < mods[m]->nbuiltins; i++) {
            const Builtin *b = &mods[m]->builtins[i];
            if (b->flags & BI_OVERLOAD) {
                overloads[noverloads] = b;
                overload_module[noverloads++] = mods[m];
            } else {
                flat[k] = b;
                flat_module[k++] = mods[m];
            }
        }
    nflat = k;
}

const Builtin *builtin_overload(const Builtin *b, const Value *first)
{
    const char *kind = val_kind_name(first);
    size_t kl = strlen(kind);
    for (size_t i = 0; i < noverloads; i++) {
        const Builtin *o = overloads[i];
        if (strcmp(o->name, b->name) == 0 && strncmp(o->spec, kind, kl) == 0 &&
            (o->spec[kl] == ' ' || o->spec[kl] == '\0'))
            return o;
    }
    return NULL;
}

const Builtin *const *builtin_table(size_t *count)
{
    *count = nflat;
    return flat;
}

const Builtin *builtin_find(const char *name)
{
    for (size_t i = 0; i < nflat; i++)
        if (strcmp(flat[i]->name, name) == 0)
            return flat[i];
    return NULL;
}

const Module *builtin_module(const Builtin *b)
{
    for (size_t i = 0; i < nflat; i++)
        if (flat[i] == b)
            return flat_module[i];
    for (size_t i = 0; i < noverloads; i++)
        if (overloads[i] == b)
            return overload_module[i];
    return NULL;
}

ResultTextFn rt_result_printer(const Builtin *bi, const Value *v)
{
    const char *kind = val_result_kind(v);
    if (!kind) {
        /* a plain value: the printer of the builtin's own module (an
           overload's module has its own) */
        const Module *m = bi ? builtin_module(bi) : NULL;
        for (size_t i = 0; m && i < m->nprinters; i++)
            if (m->printers[i].builtin && strcmp(m->printers[i].builtin, bi->name) == 0)
                return m->printers[i].text;
        return NULL;
    }
    for (size_t m = 0; modules && modules[m]; m++)
        for (size_t i = 0; i < modules[m]->nprinters; i++) {
            const ResultPrinter *p = &modules[m]->printers[i];
            if (p->kind && strcmp(p->kind, kind) == 0)
                return p->text;
        }
    return NULL;
}

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 40 || lb > 40)
        return 99;
    size_t d[41][41];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c)
                c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c)
                c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}

const char *builtin_suggest(const char *name)
{
    const char *best = NULL;
    size_t bd = 3;
    for (size_t i = 0; i < nflat; i++) {
        size_t d = edit_distance(name, flat[i]->name);
        if (d < bd) {
            bd = d;
            best = flat[i]->name;
        }
    }
    return best;
}

static void kinds_of(const Builtin *b, StrBuf *out)
{
    if (b->flags & BI_DECL)
        sb_puts(out, "declaration");
    if (b->flags & BI_CMD)
        sb_printf(out, "%sstatement", out->len ? ", " : "");
    if (b->flags & BI_FUNC)
        sb_printf(out, "%sfunction", out->len ? ", " : "");
}

/* The width help text is wrapped to: the terminal's when stdout is one,
 * else $COLUMNS, else 80 (kept within 40..200). */
int help_width(void)
{
    int w = 0;
    struct winsize ws;
    if (isatty(1) && ioctl(1, TIOCGWINSZ, &ws) == 0)
        w = ws.ws_col;
    if (w <= 0) {
        const char *c = getenv("COLUMNS");
        w = c ? atoi(c) : 0;
    }
    if (w <= 0)
        w = 80;
    return w < 40 ? 40 : w > 200 ? 200 : w;
}

/* Append text wrapped at blanks to lines of at most width bytes: the first
 * line starts with `first` (already counted in col), later ones with
 * `indent` spaces.  A word longer than a line stays whole. */
static void wrap_text(StrBuf *out, const char *text, size_t col, int indent, int width)
{
    const char *p = text;
    bool line_start = true;
    while (*p) {
        size_t gap = strspn(p, " "); /* kept when the line does not break */
        p += gap;
        if (!*p)
            break;
        size_t n = strcspn(p, " ");
        if (!line_start && col + gap + n > (size_t)width) {
            sb_printf(out, "\n%*s", indent, "");
            col = (size_t)indent;
            line_start = true;
        }
        if (!line_start) {
            sb_printf(out, "%*s", (int)gap, "");
            col += gap;
        }
        sb_printf(out, "%.*s", (int)n, p);
        col += n;
        line_start = false;
        p += n;
    }
    sb_putc(out, '\n');
}

/* A doc text: paragraphs separated by newlines are wrapped one by one,
 * lines starting with four blanks (examples) are kept as they are. */
static void wrap_doc(StrBuf *out, const char *doc, int width)
{
    const char *p = doc;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        char *line = xstrndup(p, n);
        if (strncmp(line, "    ", 4) == 0)
            sb_printf(out, "  %s\n", line);
        else {
            sb_puts(out, "  ");
            wrap_text(out, line, 2, 2, width);
        }
        free(line);
        p += n + (e ? 1 : 0);
    }
}

/* The keywords of the language (docs/language.md), for `help KEYWORD`, the
 * REPL's completion and the man page.  The same list as src/lang/lexer.l. */
static const struct {
    const char *name, *usage, *doc;
} keywords[] = {
    {"print", "print EXPR, EXPR, ...;",
     "Writes the values on one line, separated by single spaces; strings print bare at the "
     "top level and quoted inside lists. With --format=json each value is one JSON object."},
    {"check", "check EXPR;  |  check EXPR for NAME in LIST;",
     "Tests a claim: a false check is reported (with the value of NAME that fails it) and the "
     "script goes on; at the end cgt says how many checks failed and exits with status 1."},
    {"assert", "assert EXPR;",
     "Stops the script with an error (exit 1) when EXPR is false."},
    {"if", "if EXPR { ... } else if EXPR { ... } else { ... }",
     "Runs the first block whose condition is true. false, null, 0, \"\", [] and empty "
     "ranges are false, everything else is true."},
    {"else", "if EXPR { ... } else { ... }", "The alternative of an if (see help if)."},
    {"for", "for NAME in LIST_OR_RANGE { ... }",
     "Runs the block once per element, NAME bound to it; break and continue work as in C."},
    {"in", "for NAME in LIST { ... }", "Separates the loop variable from what it runs over."},
    {"while", "while EXPR { ... }", "Runs the block while EXPR is true."},
    {"fn", "fn NAME(PARAMS) { ... }  |  fn NAME(PARAMS) = EXPR;  |  (PARAMS) -> EXPR",
     "Defines a function; call it as NAME(ARGS). Functions see the global variables and "
     "their own parameters and locals; recursion is allowed. (x, y) -> EXPR is a function "
     "without a name, a value to bind to a variable or pass to map, filter or sort; it "
     "keeps the values of the enclosing function's locals as they were when it was made."},
    {"return", "return;  |  return EXPR;", "Leaves the current function with a value (null)."},
    {"break", "break;", "Leaves the innermost for or while loop."},
    {"continue", "continue;", "Starts the next round of the innermost for or while loop."},
    {"true", "true", "The boolean true."},
    {"false", "false", "The boolean false."},
    {"null", "null", "The value of nothing (a statement's result, a missing value)."},
    {"and", "EXPR and EXPR", "True when both are true; stops early."},
    {"or", "EXPR or EXPR", "True when either is true; stops early."},
    {"not", "not EXPR", "The negation of a truth value."},
    {"xor", "EXPR xor EXPR",
     "The bitwise exclusive or of two integers (the nim-sum of two Grundy values; ^ is the "
     "power). It binds looser than + and - and tighter than .. and the comparisons: "
     "5 xor 3 == 6 is true."},
    {"try", "try { BODY } catch (e) { HANDLER }",
     "Runs BODY; when a statement in it fails, the rest of BODY is skipped and HANDLER runs "
     "with e bound to a record of the error: e.category, e.message, e.hint, e.file, e.line, "
     "e.column and e.partial (a partial result, or null). Interrupts, the whole run's "
     "--timeout and internal errors are not caught (docs/language.md)."},
    {"catch", "try { BODY } catch (e) { HANDLER }", "The handler of a try (see help try)."},
    {"timeout", "timeout SECONDS { BODY }",
     "Runs BODY with a budget of SECONDS of CPU time; when it is spent the running "
     "computation stops with a limit error that try catches. Blocks nest; --timeout still "
     "bounds the whole run."},
    {"with", "< GENS | RELATIONS > with P = {...} with phi = [...]",
     "Attaches the P-portion and the pretending function to a presentation (see help "
     "verify)."},
};

#define NKEYWORDS (sizeof keywords / sizeof keywords[0])

const char *const *builtin_keywords(size_t *count)
{
    static const char *names[NKEYWORDS];
    for (size_t i = 0; i < NKEYWORDS; i++)
        names[i] = keywords[i].name;
    *count = NKEYWORDS;
    return names;
}

char *builtin_help_text(const char *name)
{
    const Builtin *b = builtin_find(name);
    if (!b) {
        for (size_t i = 0; i < NKEYWORDS; i++)
            if (strcmp(keywords[i].name, name) == 0) {
                StrBuf s;
                sb_init(&s);
                int width = help_width();
                sb_printf(&s, "%s (keyword)\n  usage: ", keywords[i].name);
                wrap_text(&s, keywords[i].usage, 9, 9, width);
                sb_putc(&s, '\n');
                wrap_doc(&s, keywords[i].doc, width);
                return s.s;
            }
        return NULL;
    }
    StrBuf s;
    sb_init(&s);
    StrBuf k;
    sb_init(&k);
    kinds_of(b, &k);
    int width = help_width();
    sb_printf(&s, "%s (%s)\n  usage: ", b->name, k.s);
    wrap_text(&s, b->synopsis, 9, 9, width);
    sb_putc(&s, '\n');
    wrap_doc(&s, b->doc, width);
    sb_free(&k);
    if (b->example && b->example[0]) {
        sb_puts(&s, "\n  example:\n");
        const char *p = b->example;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            sb_printf(&s, "    %.*s\n", (int)n, p);
            p += n + (e ? 1 : 0);
        }
        sb_puts(&s, "  output:\n");
        p = b->output;
        while (p && *p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            sb_printf(&s, "    %.*s\n", (int)n, p);
            p += n + (e ? 1 : 0);
        }
    }
    return s.s;
}

void builtin_markdown(FILE *f)
{
    fputs("# Builtins\n\n"
          "Generated from the modules' tables (`src/modules/*/builtins_*.def`) by `make docs` "
          "(do not edit by hand).\n"
          "Every example below is run by `make check` and must print exactly the output "
          "shown.\n",
          f);
    const Module *last = NULL;
    for (size_t i = 0; i < nflat; i++) {
        const Builtin *b = flat[i];
        if (flat_module[i] != last) {
            last = flat_module[i];
            fprintf(f, "\n## %s\n", last->title);
        }
        StrBuf k;
        sb_init(&k);
        kinds_of(b, &k);
        fprintf(f, "\n### `%s`\n\n`%s` (%s)\n\n%s\n", b->name, b->synopsis, k.s, b->doc);
        sb_free(&k);
        if (b->example && b->example[0]) {
            fprintf(f, "\n```cgt\n%s\n```\n", b->example);
            fprintf(f, "\n```output\n%s```\n", b->output);
        }
    }
}

/* ---- the man page (cgt.1), from the same table ---- */

/* Text in roff: backslashes escaped, a leading '.' or '\'' protected, '-'
 * as \- (a real minus, so that options can be searched and copied). */
static void roff_text(FILE *f, const char *t, size_t n)
{
    bool line_start = true;
    for (size_t i = 0; i < n && t[i]; i++) {
        char c = t[i];
        if (line_start && (c == '.' || c == '\''))
            fputs("\\&", f);
        if (c == '\\')
            fputs("\\e", f);
        else if (c == '-')
            fputs("\\-", f);
        else
            fputc(c, f);
        line_start = c == '\n';
    }
}

static void roff_str(FILE *f, const char *t)
{
    roff_text(f, t, strlen(t));
}

void builtin_man_sections(FILE *f)
{
    fputs(".SH BUILTINS\n"
          "Every statement and function, grouped by module, as in\n"
          ".BR \"help NAME\"\n"
          "and docs/builtins.md.\n",
          f);
    const Module *last = NULL;
    for (size_t i = 0; i < nflat; i++) {
        const Builtin *b = flat[i];
        if (flat_module[i] != last) {
            last = flat_module[i];
            fputs(".SS ", f);
            roff_str(f, last->title);
            fputc('\n', f);
        }
        StrBuf k;
        sb_init(&k);
        kinds_of(b, &k);
        fputs(".TP\n.BR ", f);
        roff_str(f, b->name);
        fprintf(f, " \" (%s)\"\n", k.s);
        sb_free(&k);
        fputs(".I ", f);
        fputc('"', f);
        for (const char *p = b->synopsis; *p; p++)
            if (*p == '"')
                fputs("\\(dq", f);
            else if (*p == '\\')
                fputs("\\e", f);
            else if (*p == '-')
                fputs("\\-", f);
            else
                fputc(*p, f);
        fputs("\"\n.br\n", f);
        roff_str(f, b->doc);
        fputc('\n', f);
        if (b->example && b->example[0]) {
            fputs(".RS\n.PP\nExample:\n.nf\n", f);
            roff_str(f, b->example);
            fputs("\n.fi\n.RE\n", f);
        }
    }
    fputs(".SH KEYWORDS\n", f);
    for (size_t i = 0; i < NKEYWORDS; i++) {
        fputs(".TP\n.B ", f);
        roff_str(f, keywords[i].name);
        fputs("\n", f);
        roff_str(f, keywords[i].usage);
        fputs("\n.br\n", f);
        roff_str(f, keywords[i].doc);
        fputc('\n', f);
    }
}
