/* The builtin table built from builtins.def, name lookup, suggestions,
 * `help` text and docs/builtins.md generation. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/builtins.h"
#include "runtime/interp.h"
#include "util/xalloc.h"

typedef struct BuiltinDoc {
    const char *example;
    const char *output;
} BuiltinDoc;

static const Builtin table[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out, mod) {n, f, fl, sp, syn, doc, mod},
#include "runtime/builtins.def"
#undef BUILTIN
};

static const BuiltinDoc docs[] = {
#define BUILTIN(n, f, fl, sp, syn, doc, ex, out, mod) {ex, out},
#include "runtime/builtins.def"
#undef BUILTIN
};

#define NTABLE (sizeof table / sizeof table[0])

const Builtin *builtin_table(size_t *count)
{
    *count = NTABLE;
    return table;
}

const Builtin *builtin_find(const char *name)
{
    for (size_t i = 0; i < NTABLE; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
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
    for (size_t i = 0; i < NTABLE; i++) {
        size_t d = edit_distance(name, table[i].name);
        if (d < bd) {
            bd = d;
            best = table[i].name;
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

char *builtin_help_text(const char *name)
{
    const Builtin *b = builtin_find(name);
    if (!b)
        return NULL;
    const BuiltinDoc *d = &docs[b - table];
    StrBuf s;
    sb_init(&s);
    StrBuf k;
    sb_init(&k);
    kinds_of(b, &k);
    sb_printf(&s, "%s (%s)\n  usage: %s\n\n  %s\n", b->name, k.s, b->synopsis, b->doc);
    sb_free(&k);
    if (d->example && d->example[0]) {
        sb_puts(&s, "\n  example:\n");
        const char *p = d->example;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            sb_printf(&s, "    %.*s\n", (int)n, p);
            p += n + (e ? 1 : 0);
        }
        sb_puts(&s, "  output:\n");
        p = d->output;
        while (p && *p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            sb_printf(&s, "    %.*s\n", (int)n, p);
            p += n + (e ? 1 : 0);
        }
    }
    return s.s;
}

static const char *module_title(const char *m)
{
    static const struct {
        const char *m, *t;
    } t[] = {{"core", "Core functions"},
             {"games", "Heap games, Grundy values, periodicity, genus"},
             {"kb", "Presentations and Knuth-Bendix completion"},
             {"misere", "Misere quotients"},
             {"mnk", "m,n,k-games"},
             {"gp", "Genetic programming and the games of the GP paper"},
             {"io", "Saving, loading and exporting results"}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (strcmp(t[i].m, m) == 0)
            return t[i].t;
    return m;
}

void builtin_markdown(FILE *f)
{
    fputs("# Builtins\n\n"
          "Generated from `runtime/builtins.def` by `make docs` (do not edit by hand).\n"
          "Every example below is run by `make check` and must print exactly the output "
          "shown.\n",
          f);
    const char *last = "";
    for (size_t i = 0; i < NTABLE; i++) {
        const Builtin *b = &table[i];
        if (strcmp(b->module, last) != 0) {
            fprintf(f, "\n## %s\n", module_title(b->module));
            last = b->module;
        }
        StrBuf k;
        sb_init(&k);
        kinds_of(b, &k);
        fprintf(f, "\n### `%s`\n\n`%s` (%s)\n\n%s\n", b->name, b->synopsis, k.s, b->doc);
        sb_free(&k);
        if (docs[i].example && docs[i].example[0]) {
            fprintf(f, "\n```cgt\n%s\n```\n", docs[i].example);
            fprintf(f, "\n```output\n%s```\n", docs[i].output);
        }
    }
}
