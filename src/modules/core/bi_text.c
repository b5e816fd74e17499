/* Core builtins on text: str, type, format, split, join. */
#include <stdlib.h>
#include <string.h>

#include "modules/core/module.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

Value *bi_str(Call *c)
{
    StrBuf b;
    sb_init(&b);
    CgtError err;
    cgt_error_clear(&err);
    if (val_format_checked(c->args[0], &b, true, VAL_TEXT_MAX, &err) != CGT_OK) {
        sb_free(&b);
        return rt_error_from(c->I, c->loc, &err);
    }
    return val_str_own(b.s);
}

Value *bi_type(Call *c)
{
    return val_str(val_kind_name(c->args[0]));
}

Value *bi_format(Call *c)
{
    const char *f = c->args[0]->u.str.s;
    StrBuf b;
    sb_init(&b);
    size_t next = 1;
    for (const char *p = f; *p; p++) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            sb_putc(&b, *p++);
            continue;
        }
        if (p[0] == '{' && p[1] == '}') {
            if (next >= c->nargs) {
                sb_free(&b);
                rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                         "the format has more {} than the %zu value%s given", c->nargs - 1,
                         c->nargs == 2 ? "" : "s");
                rt_hint(c->I, "write {{ and }} for literal braces");
                return NULL;
            }
            CgtError err;
            cgt_error_clear(&err);
            size_t room = b.len < VAL_TEXT_MAX ? VAL_TEXT_MAX - b.len : 1;
            if (val_format_checked(c->args[next], &b, true, room, &err) != CGT_OK) {
                sb_free(&b);
                return rt_error_from(c->I, c->arg_locs[next], &err);
            }
            next++;
            p++;
            continue;
        }
        if (*p == '{' || *p == '}') {
            sb_free(&b);
            rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0], "a lone '%c' in the format", *p);
            rt_hint(c->I, "{} takes the next value; write {{ and }} for literal braces");
            return NULL;
        }
        sb_putc(&b, *p);
    }
    if (next < c->nargs) {
        sb_free(&b);
        return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[next],
                        "the format has %zu {} but %zu value%s given", next - 1, c->nargs - 1,
                        c->nargs == 2 ? " was" : "s were");
    }
    return val_str_own(b.s);
}

/* split(S, SEP): the pieces of S between occurrences of SEP (empty pieces
 * kept); without SEP, the words of S between runs of blanks. */
Value *bi_split(Call *c)
{
    const Value *sv = c->args[0];
    const char *s = sv->u.str.s, *end = s + sv->u.str.len;
    Value *out = val_list();
    if (c->nargs < 2) {
        const char *blank = " \t\r\n";
        while (s < end) {
            s += strspn(s, blank);
            size_t w = strcspn(s, blank);
            if (w)
                val_list_push(out, val_str_n(s, w));
            s += w;
        }
        return out;
    }
    const Value *sep = c->args[1];
    if (sep->u.str.len == 0) {
        val_unref(out);
        rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1], "split needs a non-empty separator");
        rt_hint(c->I, "list(s) gives the characters; split(s) the words between blanks");
        return NULL;
    }
    for (;;) {
        const char *p = strstr(s, sep->u.str.s);
        if (!p) {
            val_list_push(out, val_str_n(s, (size_t)(end - s)));
            return out;
        }
        val_list_push(out, val_str_n(s, (size_t)(p - s)));
        s = p + sep->u.str.len;
    }
}

/* join(LIST, SEP): the items as print shows them (strings bare), with SEP
 * between them. */
Value *bi_join(Call *c)
{
    const Value *l = c->args[0];
    const char *sep = c->nargs > 1 ? c->args[1]->u.str.s : "";
    StrBuf b;
    sb_init(&b);
    for (size_t i = 0; i < l->u.list.len; i++) {
        if (i)
            sb_puts(&b, sep);
        CgtError err;
        cgt_error_clear(&err);
        size_t room = b.len < VAL_TEXT_MAX ? VAL_TEXT_MAX - b.len : 1;
        if (b.len >= VAL_TEXT_MAX ||
            val_format_checked(l->u.list.items[i], &b, true, room, &err) != CGT_OK) {
            sb_free(&b);
            if (err.status == CGT_OK)
                return rt_error(c->I, DIAG_LIMIT, c->loc, "result of join too large");
            return rt_error_from(c->I, c->loc, &err);
        }
    }
    if (!b.s)
        sb_puts(&b, "");
    return val_str_own(b.s);
}
