/* The core builtin help: the list of builtins by module, or the
 * documentation of one builtin or keyword. */
#include <stdlib.h>
#include <stdbool.h>
#include <string.h>

#include "modules/core/module.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* `help NAME`: {kind: "help", name, text}; `help`: {kind: "help",
 * builtins: [{name, synopsis, summary, module, module_title, statement,
 * function, declaration}], keywords: [...]}. */
/* The length of the first sentence of a doc, without its period: up to
 * the first '.' followed by a blank or the end of the line, unless the
 * word before it is an abbreviation ("ONAG ch. 12", "e.g. 0.6", "Hsu et
 * al. (2020)"), whose period ends no sentence. */
static size_t first_sentence(const char *d)
{
    static const char *const abbrev[] = {"ch", "e.g", "i.e", "cf", "al", "vol", "no",
                                         "p", "pp", "sec", "fig", "Fig", "eq", "resp"};
    size_t len = strcspn(d, "\n");
    for (size_t i = 0; i < len; i++) {
        if (d[i] != '.' || (i + 1 < len && d[i + 1] != ' ') || (i > 0 && d[i - 1] == '.'))
            continue;
        size_t w = i;
        while (w > 0 && d[w - 1] != ' ' && d[w - 1] != '(')
            w--;
        bool abbr = false;
        for (size_t k = 0; k < sizeof abbrev / sizeof abbrev[0]; k++)
            if (strlen(abbrev[k]) == i - w && strncmp(d + w, abbrev[k], i - w) == 0)
                abbr = true;
        if (!abbr)
            return i;
    }
    return len;
}

Value *bi_help(Call *c)
{
    Value *r = val_result("help");
    if (c->nargs == 1) {
        const char *name = c->args[0]->u.str.s;
        char *t = builtin_help_text(name);
        if (!t) {
            val_unref(r);
            rt_error(c->I, DIAG_NAME, c->arg_locs[0], "no help for '%s': not a builtin", name);
            const char *s = builtin_suggest(name);
            if (s)
                rt_hint(c->I, "did you mean '%s'?", s);
            return NULL;
        }
        val_map_set_str(r, "name", name);
        val_map_set(r, "text", val_str_own(t));
        return r;
    }
    size_t n;
    const Builtin *const *t = builtin_table(&n);
    Value *bl = val_list(), *kl = val_list();
    for (size_t i = 0; i < n; i++) {
        Value *e = val_map();
        val_map_set_str(e, "name", t[i]->name);
        val_map_set_str(e, "synopsis", t[i]->synopsis);
        const char *d = t[i]->doc;
        val_map_set(e, "summary", val_str_n(d, first_sentence(d)));
        val_map_set_str(e, "module", builtin_module(t[i])->name);
        val_map_set_str(e, "module_title", builtin_module(t[i])->title);
        val_map_set_bool(e, "statement", (t[i]->flags & BI_CMD) != 0);
        val_map_set_bool(e, "function", (t[i]->flags & BI_FUNC) != 0);
        val_map_set_bool(e, "declaration", (t[i]->flags & BI_DECL) != 0);
        val_list_push(bl, e);
    }
    size_t nk;
    const char *const *kw = builtin_keywords(&nk);
    for (size_t i = 0; i < nk; i++)
        val_list_push(kl, val_str(kw[i]));
    val_map_set(r, "builtins", bl);
    val_map_set(r, "keywords", kl);
    return r;
}

void core_help_text(const Call *c, const Value *r, StrBuf *s)
{
    (void)c;
    const Value *text = val_map_get(r, "text");
    if (text && text->kind == VAL_STR) {
        sb_puts(s, text->u.str.s);
        return;
    }
    /* one line per builtin, grouped by module: the name and the first
       sentence of its doc, cut to the width of the terminal */
    int width = help_width();
    sb_puts(s, "Builtins by module (help NAME for one of them):\n");
    const char *last = "";
    const Value *bl = val_map_get(r, "builtins"), *kl = val_map_get(r, "keywords");
    for (size_t i = 0; bl && bl->kind == VAL_LIST && i < bl->u.list.len; i++) {
        const Value *e = bl->u.list.items[i];
        if (strcmp(val_field_str(e, "module"), last) != 0) {
            last = val_field_str(e, "module");
            sb_printf(s, "\n%s\n", val_field_str(e, "module_title"));
        }
        const char *d = val_field_str(e, "summary");
        int len = (int)strlen(d), room = width - 18;
        if (len > room)
            sb_printf(s, "  %-15s %.*s...\n", val_field_str(e, "name"), room - 3, d);
        else
            sb_printf(s, "  %-15s %s\n", val_field_str(e, "name"), d);
    }
    sb_puts(s, "\nKeywords (help KEYWORD):");
    size_t col = 0;
    for (size_t i = 0; kl && kl->kind == VAL_LIST && i < kl->u.list.len; i++) {
        const char *k = kl->u.list.items[i]->u.str.s;
        size_t l = strlen(k);
        if (col == 0 || col + 1 + l > (size_t)width) {
            sb_puts(s, "\n ");
            col = 1;
        }
        sb_printf(s, " %s", k);
        col += 1 + l;
    }
    sb_putc(s, '\n');
}
