/* The core builtin help: the list of builtins by module, or the
 * documentation of one builtin or keyword. */
#include <stdlib.h>
#include <string.h>

#include "modules/core/module.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

Value *bi_help(Call *c)
{
    if (c->nargs == 1) {
        const char *name = c->args[0]->u.str.s;
        char *t = builtin_help_text(name);
        if (!t) {
            rt_error(c->I, DIAG_NAME, c->arg_locs[0], "no help for '%s': not a builtin", name);
            const char *s = builtin_suggest(name);
            if (s)
                rt_hint(c->I, "did you mean '%s'?", s);
            return NULL;
        }
        if (rt_json(c->I)) {
            StrBuf b;
            sb_init(&b);
            JsonWriter w;
            rt_json_begin(&w, &b, "help");
            jw_kv_str(&w, "name", name);
            jw_kv_str(&w, "text", t);
            rt_json_end(&w);
            rt_emit(c->I, &b);
        } else {
            rt_out(c->I, t);
        }
        free(t);
        return val_null();
    }
    size_t n;
    const Builtin *const *t = builtin_table(&n);
    StrBuf s;
    sb_init(&s);
    if (rt_json(c->I)) {
        JsonWriter w;
        rt_json_begin(&w, &s, "help");
        jw_key(&w, "builtins");
        jw_arr_begin(&w);
        for (size_t i = 0; i < n; i++) {
            jw_obj_begin(&w);
            jw_kv_str(&w, "name", t[i]->name);
            jw_kv_str(&w, "synopsis", t[i]->synopsis);
            jw_kv_str(&w, "module", builtin_module(t[i])->name);
            jw_kv_bool(&w, "statement", (t[i]->flags & BI_CMD) != 0);
            jw_kv_bool(&w, "function", (t[i]->flags & BI_FUNC) != 0);
            jw_kv_bool(&w, "declaration", (t[i]->flags & BI_DECL) != 0);
            jw_obj_end(&w);
        }
        jw_arr_end(&w);
        rt_json_end(&w);
    } else {
        /* one line per builtin, grouped by module: the name and the first
           sentence of its doc, cut to the width of the terminal */
        int width = help_width();
        sb_puts(&s, "Builtins by module (help NAME for one of them):\n");
        const Module *last = NULL;
        for (size_t i = 0; i < n; i++) {
            if (builtin_module(t[i]) != last) {
                last = builtin_module(t[i]);
                sb_printf(&s, "\n%s\n", last->title);
            }
            const char *d = t[i]->doc;
            size_t len = strcspn(d, "\n");
            const char *dot = strstr(d, ". ");
            if (dot && (size_t)(dot - d) < len)
                len = (size_t)(dot - d);
            else if (len > 0 && d[len - 1] == '.')
                len--;
            int room = width - 18;
            if ((int)len > room)
                sb_printf(&s, "  %-15s %.*s...\n", t[i]->name, room - 3, d);
            else
                sb_printf(&s, "  %-15s %.*s\n", t[i]->name, (int)len, d);
        }
        size_t nk;
        const char *const *kw = builtin_keywords(&nk);
        sb_puts(&s, "\nKeywords (help KEYWORD):");
        StrBuf line;
        sb_init(&line);
        size_t col = 0;
        for (size_t i = 0; i < nk; i++) {
            size_t l = strlen(kw[i]);
            if (col == 0 || col + 1 + l > (size_t)width) {
                sb_puts(&s, "\n ");
                col = 1;
            }
            sb_printf(&s, " %s", kw[i]);
            col += 1 + l;
        }
        sb_free(&line);
        sb_putc(&s, '\n');
    }
    rt_emit(c->I, &s);
    return val_null();
}
