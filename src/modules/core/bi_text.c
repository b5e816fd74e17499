/* Core builtins on text: str, type, format. */
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
