/* The evaluator's calls: the dispatcher that binds command arguments and
 * option records to builtins according to their declared spec
 * (the modules' tables), user functions and the call trace (split from
 * eval.c). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "runtime/env.h"
#include "runtime/interp_state.h"
#include "runtime/eval_int.h"
#include "lib/util/atomicfile.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* ---- builtin dispatch ---- */

typedef struct SpecItem {
    const char *at; /* where the item starts in the spec ("limit:int ...") */
    char name[32];  /* option name (options only) */
    char kind[48];  /* kind, or "" for flags */
    bool optional;
    bool option;
    bool flag;
} SpecItem;

static size_t parse_spec(const char *spec, SpecItem *items, size_t max)
{
    size_t n = 0;
    const char *p = spec ? spec : "";
    while (*p && n < max) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        const char *q = p;
        while (*q && *q != ' ')
            q++;
        SpecItem *it = &items[n++];
        memset(it, 0, sizeof *it);
        it->at = p;
        size_t len = (size_t)(q - p);
        const char *colon = memchr(p, ':', len);
        if (colon) {
            it->option = true;
            snprintf(it->name, sizeof it->name, "%.*s", (int)(colon - p), p);
            snprintf(it->kind, sizeof it->kind, "%.*s", (int)(q - colon - 1), colon + 1);
        } else if (p[len - 1] == '!') {
            it->option = it->flag = true;
            snprintf(it->name, sizeof it->name, "%.*s", (int)(len - 1), p);
        } else {
            it->optional = p[len - 1] == '?';
            snprintf(it->kind, sizeof it->kind, "%.*s", (int)(len - (it->optional ? 1 : 0)), p);
        }
        p = q;
    }
    return n;
}

static bool kind_matches(const char *kind, Value **vp)
{
    Value *v = *vp;
    char buf[48];
    snprintf(buf, sizeof buf, "%s", kind);
    for (char *alt = strtok(buf, "|"); alt; alt = strtok(NULL, "|")) {
        if (strcmp(alt, "any") == 0)
            return true;
        if (strcmp(alt, "int") == 0 && v->kind == VAL_INT)
            return true;
        if (strcmp(alt, "range") == 0) {
            if (v->kind == VAL_RANGE)
                return true;
            int64_t x;
            if (val_get_i64(v, &x)) {
                *vp = val_range(x, x);
                val_unref(v);
                return true;
            }
        }
        if (strcmp(alt, "list") == 0 && v->kind == VAL_LIST)
            return true;
        if (strcmp(alt, "str") == 0 && v->kind == VAL_STR)
            return true;
        if (strcmp(alt, "bool") == 0 && v->kind == VAL_BOOL)
            return true;
        if (strcmp(alt, "word") == 0 && v->kind == VAL_STR)
            return true;
        if (strcmp(alt, "fn") == 0 && v->kind == VAL_FUNC)
            return true;
        if (v->kind == VAL_OBJ && strcmp(alt, v->u.obj.type->name) == 0)
            return true;
        /* the record quotient(G, N) returns stands for its quotient (field q) */
        Value *inner = v->kind == VAL_MAP ? val_map_get(v, "q") : NULL;
        if (inner && inner->kind == VAL_OBJ && strcmp(alt, inner->u.obj.type->name) == 0) {
            *vp = val_ref(inner);
            val_unref(v);
            return true;
        }
    }
    return false;
}

static const char *kind_display(const char *kind, char *buf, size_t size)
{
    snprintf(buf, size, "%s", kind);
    for (char *p = buf; *p; p++)
        if (*p == '|')
            *p = '/';
    if (strcmp(kind, "int") == 0)
        return "integer";
    if (strcmp(kind, "str") == 0)
        return "string";
    if (strcmp(kind, "any") == 0)
        return "value";
    if (strcmp(kind, "fn") == 0)
        return "function";
    return buf;
}

static bool check_kind(Call *c, const char *kind, Value **vp, Loc loc, int argno,
                       const char *optname)
{
    if (kind_matches(kind, vp))
        return true;
    char kb[64];
    if (optname)
        rt_error(c->I, DIAG_TYPE, loc, "bad value for option '%s' of '%s' (%s expected, got %s)",
                 optname, c->bi->name, kind_display(kind, kb, sizeof kb), val_kind_name(*vp));
    else
        rt_error(c->I, DIAG_TYPE, loc, "bad argument #%d to '%s' (%s expected, got %s)", argno,
                 c->bi->name, kind_display(kind, kb, sizeof kb), val_kind_name(*vp));
    if (c->bi->synopsis)
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
    return false;
}

static void call_release(Call *c)
{
    for (size_t i = 0; i < c->nargs; i++)
        val_unref(c->args[i]);
    for (size_t i = 0; i < c->nopts; i++)
        val_unref(c->opts[i]);
    free(c->shown);
    c->shown = NULL;
    c->nshown = 0;
}

/* Write b's text less the part call_show_so_far already wrote (all of it
 * when that part is not its beginning, which a printer that renders a
 * growing value by appending never gives); b is freed. */
static void emit_rest(Call *c, StrBuf *b)
{
    if (c->nshown && b->len >= c->nshown && memcmp(b->s, c->shown, c->nshown) == 0) {
        StrBuf rest;
        sb_init(&rest);
        sb_puts(&rest, b->s + c->nshown);
        sb_free(b);
        rt_emit(c->I, &rest);
    } else {
        rt_emit(c->I, b);
    }
}

void call_show_so_far(Call *c, const Value *v)
{
    if (!call_text_only(c))
        return;
    ResultTextFn text = rt_result_printer(c->bi, v);
    if (!text)
        return;
    StrBuf b;
    sb_init(&b);
    text(c, v, &b);
    size_t end = b.len;
    while (end > 0 && b.s[end - 1] != '\n')
        end--;
    if (end > c->nshown && memcmp(b.s, c->shown ? c->shown : "", c->nshown) == 0) {
        StrBuf part;
        sb_init(&part);
        b.s[end] = '\0';
        sb_puts(&part, b.s + c->nshown);
        rt_emit(c->I, &part);
        fflush(stdout); /* seen now, also through a pipe or in a file */
        c->shown = xrealloc(c->shown, end);
        memcpy(c->shown, b.s, end);
        c->nshown = end;
    }
    sb_free(&b);
}

static void set_usage_hint(Call *c)
{
    if (c->bi->synopsis)
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
}

/* Whether a newline lies between the end of a and the start of b. */
static bool newline_between(Loc a, Loc b)
{
    const SourceFile *src = source_get(a.file);
    if (!src || a.file != b.file || b.start > src->len || a.end > b.start)
        return false;
    return memchr(src->text + a.end, '\n', b.start - a.end) != NULL;
}

/* The 1-based line where a location ends. */
static unsigned line_of(Loc a)
{
    const SourceFile *src = source_get(a.file);
    unsigned line = 1;
    for (uint32_t i = 0; src && i < a.end && i < src->len; i++)
        line += src->text[i] == '\n';
    return line;
}

static bool spec_has_option(const SpecItem *spec, size_t ns, const char *name)
{
    for (size_t i = 0; i < ns; i++)
        if (spec[i].option && strcmp(spec[i].name, name) == 0)
            return true;
    return false;
}

/* Edit distance of two short words (options), capped at 9. */
static unsigned word_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 31 || lb > 31)
        return 9;
    unsigned d[32][32];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            unsigned best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* An unknown option word: the error names the statement and its options,
 * with the nearest one when it is close. */
static void unknown_option(Call *c, const SpecItem *spec, size_t ns, const AstNode *a,
                           bool may_be_variable)
{
    StrBuf opts;
    sb_init(&opts);
    const char *near = NULL;
    unsigned best = 3;
    for (size_t i = 0; i < ns; i++)
        if (spec[i].option) {
            sb_printf(&opts, "%s%s", opts.len ? ", " : "", spec[i].name);
            unsigned d = word_distance(a->text, spec[i].name);
            if (d < best) {
                best = d;
                near = spec[i].name;
            }
        }
    if (may_be_variable)
        rt_error(c->I, DIAG_NAME, a->loc, "'%s' is neither a variable nor an option of '%s'",
                 a->text, c->bi->name);
    else
        rt_error(c->I, DIAG_TYPE, a->loc, "'%s' has no option '%s'", c->bi->name, a->text);
    if (near)
        rt_hint(c->I, "did you mean '%s'? the options of '%s' are: %s", near, c->bi->name,
                opts.s);
    else
        rt_hint(c->I, "the options of '%s' are: %s", c->bi->name, opts.s);
    sb_free(&opts);
}

static bool spec_has_options(const SpecItem *spec, size_t ns)
{
    for (size_t i = 0; i < ns; i++)
        if (spec[i].option)
            return true;
    return false;
}

/* Bind the command-form arguments `args` (AST nodes) to the spec. */
static bool bind_cmd_args(Call *c, AstNode *const *args, size_t nargs)
{
    SpecItem spec[CALL_MAX_ARGS];
    size_t ns = parse_spec(c->bi->spec, spec, CALL_MAX_ARGS);
    size_t npos = 0;
    for (size_t i = 0; i < ns; i++)
        if (!spec[i].option)
            npos++;
    c->nopts = 0;
    for (size_t i = 0; i < ns; i++)
        if (spec[i].option) {
            c->opt_names[c->nopts] = spec[i].at;
            c->opts[c->nopts] = NULL;
            c->opt_locs[c->nopts] = c->loc;
            c->nopts++;
        }
    size_t pos = 0;
    for (size_t i = 0; i < nargs; i++) {
        const AstNode *a = args[i];
        /* a statement name at the start of a later line is the next
           statement, not an argument: a ';' is missing */
        if (a->kind == AST_IDENT && i > 0 && newline_between(args[i - 1]->loc, a->loc) &&
            !spec_has_option(spec, ns, a->text)) {
            const Builtin *nb = builtin_find(a->text);
            if (nb && (nb->flags & (BI_CMD | BI_DECL))) {
                rt_error(c->I, DIAG_TYPE, a->loc, "'%s' on a new line is read as an argument of '%s'",
                         a->text, c->bi->name);
                rt_hint(c->I, "is a ';' missing at the end of line %u?", line_of(args[i - 1]->loc));
                return false;
            }
        }
        /* an option word? */
        if (a->kind == AST_IDENT) {
            size_t oi = 0;
            bool found = false;
            for (size_t s = 0; s < ns; s++) {
                if (!spec[s].option)
                    continue;
                if (strcmp(spec[s].name, a->text) == 0) {
                    found = true;
                    if (c->opts[oi]) {
                        rt_error(c->I, DIAG_TYPE, a->loc, "option '%s' given twice", a->text);
                        return false;
                    }
                    if (spec[s].flag) {
                        c->opts[oi] = val_bool(true);
                        c->opt_locs[oi] = a->loc;
                    } else {
                        if (i + 1 >= nargs) {
                            rt_error(c->I, DIAG_TYPE, a->loc, "option '%s' of '%s' needs a value",
                                     a->text, c->bi->name);
                            set_usage_hint(c);
                            return false;
                        }
                        i++;
                        Value *v;
                        if (strcmp(spec[s].kind, "word") == 0 && args[i]->kind == AST_IDENT)
                            v = val_str(args[i]->text);
                        else
                            v = rt_eval(c->I, args[i]);
                        if (!v)
                            return false;
                        if (!check_kind(c, spec[s].kind, &v, args[i]->loc, 0, spec[s].name)) {
                            val_unref(v);
                            return false;
                        }
                        c->opts[oi] = v;
                        c->opt_locs[oi] = args[i]->loc;
                    }
                    break;
                }
                oi++;
            }
            if (found)
                continue;
        }
        if (a->kind == AST_IDENT && spec_has_options(spec, ns) && pos > 0 &&
            !(i > 0 && newline_between(args[i - 1]->loc, a->loc)) &&
            (pos >= npos || !ev_lookup(c->I, a->text))) {
            /* a word after the first argument that is no option and no
               variable: a misspelt option, `period g limt 100` */
            const SpecItem *it = NULL;
            for (size_t s = 0, k = 0; s < ns && pos < npos; s++)
                if (!spec[s].option && k++ == pos)
                    it = &spec[s];
            if (!it || strcmp(it->kind, "word") != 0) {
                unknown_option(c, spec, ns, a, pos < npos);
                return false;
            }
        }
        if (pos >= npos) {
            rt_error(c->I, DIAG_TYPE, a->loc, "too many arguments to '%s'", c->bi->name);
            if (i > 0 && newline_between(args[i - 1]->loc, a->loc))
                rt_hint(c->I, "is a ';' missing at the end of line %u?", line_of(args[i - 1]->loc));
            else
                set_usage_hint(c);
            return false;
        }
        /* the pos-th positional spec item */
        const SpecItem *it = NULL;
        for (size_t s = 0, k = 0; s < ns; s++)
            if (!spec[s].option && k++ == pos) {
                it = &spec[s];
                break;
            }
        if (!it)
            return false;
        Value *v;
        if (strcmp(it->kind, "word") == 0) {
            if (a->kind != AST_IDENT) {
                rt_error(c->I, DIAG_TYPE, a->loc, "bad argument #%zu to '%s' (a name expected)",
                         pos + 1, c->bi->name);
                set_usage_hint(c);
                return false;
            }
            v = val_str(a->text);
        } else {
            v = rt_eval(c->I, a);
            if (!v)
                return false;
            if (!check_kind(c, it->kind, &v, a->loc, (int)pos + 1, NULL)) {
                val_unref(v);
                return false;
            }
        }
        c->args[pos] = v;
        c->arg_locs[pos] = a->loc;
        c->nargs = ++pos;
    }
    /* required positionals */
    size_t k = 0;
    for (size_t s = 0; s < ns; s++) {
        if (spec[s].option)
            continue;
        if (k >= pos && !spec[s].optional) {
            char kb[64];
            Loc end = c->loc;
            end.start = end.end > 0 ? end.end - 1 : 0;
            rt_error(c->I, DIAG_TYPE, end, "missing argument #%zu to '%s' (%s expected)", k + 1,
                     c->bi->name, kind_display(spec[s].kind, kb, sizeof kb));
            set_usage_hint(c);
            return false;
        }
        k++;
    }
    return true;
}

static Value *invoke(Call *c)
{
    if (c->nargs > 0 && c->args[0]) {
        const Builtin *o = builtin_overload(c->bi, c->args[0]);
        if (o)
            c->bi = o;
    }
    CgtStatus st = cgt_poll();
    if (st == CGT_ERR_INTERRUPTED)
        return rt_error(c->I, DIAG_INTERRUPTED, c->loc, "interrupted");
    /* --stats: CPU, wall time and peak memory of every module statement
       (period, grundy, genus, outcome, kb, mnk, gp, ...); quotient prints
       its own phases and counters */
    const Module *m = builtin_module(c->bi);
    bool stats = c->I->stats && m && m->stats && !(c->bi->flags & BI_OWN_STATS) &&
                 c->bi->flags != BI_DECL;
    double cpu0 = stats ? cgt_cpu_seconds() : 0, wall0 = stats ? cgt_now() : 0;
    Value *r = c->bi->fn(c);
    if (stats) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        cgt_progress_end();
        fflush(stdout);
        fprintf(stderr, "[stats] %s%s%s: %.3f s CPU, %.3f s wall, peak RSS %ld KB%s\n",
                c->bi->name, c->decl_name ? " " : "", c->decl_name ? c->decl_name : "",
                cgt_cpu_seconds() - cpu0, cgt_now() - wall0, ru.ru_maxrss,
                r ? "" : " (stopped by an error)");
    }
    if (!r && !c->I->failed)
        return rt_error(c->I, DIAG_INTERNAL, c->loc, "builtin '%s' failed without an error",
                        c->bi->name);
    if (!r && c->stmt && c->I->partial && c->I->partial->kind != VAL_NULL &&
        c->I->format == FMT_TEXT) {
        /* a statement stopped by a limit shows what it reached before the
           error says why it stopped (e.partial holds the same value; under
           --format=json the error's object carries it as "partial") */
        ResultTextFn text = rt_result_printer(c->bi, c->I->partial);
        StrBuf b;
        sb_init(&b);
        if (text) {
            text(c, c->I->partial, &b);
        } else {
            val_format(c->I->partial, &b, true);
            sb_putc(&b, '\n');
        }
        emit_rest(c, &b);
    }
    if (r && c->stmt && c->I->format == FMT_TEXT && r->kind != VAL_NULL) {
        /* the statement shows the value the function returns, through the
           printer of its builtin or of its result kind */
        ResultTextFn text = rt_result_printer(c->bi, r);
        if (text) {
            StrBuf b;
            sb_init(&b);
            text(c, r, &b);
            val_unref(r);
            emit_rest(c, &b);
            return val_null();
        }
    }
    return r;
}

bool call_text_only(const Call *c)
{
    return c->stmt && c->I->format == FMT_TEXT;
}

static const Builtin *find_builtin_or_error(Interp *I, const char *name, Loc loc,
                                            unsigned need)
{
    const Builtin *b = builtin_find(name);
    if (b && (b->flags & need))
        return b;
    if (b) {
        /* a declaration kind is neither a function nor a command (F25) */
        if (need != BI_DECL && (b->flags & BI_DECL) && !(b->flags & (BI_CMD | BI_FUNC)))
            rt_error(I, DIAG_TYPE, loc, "'%s' declares a name: write %s NAME = ...", name, name);
        else if (need == BI_FUNC)
            rt_error(I, DIAG_TYPE, loc, "'%s' is a statement, not a function", name);
        else if (need == BI_DECL)
            rt_error(I, DIAG_TYPE, loc, "'%s' cannot declare a name", name);
        else if (b->flags & BI_FUNC)
            rt_error(I, DIAG_TYPE, loc, "'%s' is a function: call it as %s(...)", name, name);
        else
            rt_error(I, DIAG_TYPE, loc, "'%s' is not a statement", name);
        if (b->synopsis)
            rt_hint(I, "usage: %s", b->synopsis);
        return NULL;
    }
    if (need == BI_DECL)
        rt_error(I, DIAG_NAME, loc, "unknown declaration kind '%s'", name);
    else if (need == BI_FUNC)
        rt_error(I, DIAG_NAME, loc, "undefined function '%s'", name);
    else
        rt_error(I, DIAG_NAME, loc, "unknown statement '%s'", name);
    const Value *v = need == BI_CMD ? ev_lookup(I, name) : NULL;
    const char *s = builtin_suggest(name);
    if (v && v->kind == VAL_FUNC)
        rt_hint(I, "'%s' is a function: at the start of a statement, %s (A) (B) reads as a "
                   "statement with two arguments; write print %s(A)(B) or x = %s(A)(B)",
                name, name, name, name);
    else if (s)
        rt_hint(I, "did you mean '%s'?", s);
    else
        rt_hint(I, "'help' lists the statements and functions");
    return NULL;
}

__attribute__((noinline)) Value *ev_run_command(Interp *I, const AstNode *cmd, bool stmt,
                                                    const char *decl_name)
{
    unsigned need = decl_name ? BI_DECL : BI_CMD;
    Loc name_loc = cmd->loc;
    const Builtin *b = find_builtin_or_error(I, cmd->text, name_loc, need);
    if (!b)
        return NULL;
    Call c;
    memset(&c, 0, sizeof c);
    c.I = I;
    c.bi = b;
    c.loc = cmd->loc;
    c.stmt = stmt;
    c.decl_name = decl_name;
    if (b->flags & BI_RAW) {
        c.raw = cmd;
    } else if (!bind_cmd_args(&c, cmd->kids, cmd->nkids)) {
        call_release(&c);
        return NULL;
    }
    Value *r = invoke(&c);
    call_release(&c);
    return r;
}

/* Append a call frame to the trace, folding identical consecutive frames
 * (deep recursion) into one line with a count. */
void ev_trace_flush_repeats(Interp *I)
{
    if (I->frame_repeats > 0)
        sb_printf(&I->trace, "  ... the line above repeated %u more times\n", I->frame_repeats);
    I->frame_repeats = 0;
}

static void trace_add(Interp *I, const char *frame)
{
    if (strcmp(frame, I->last_frame) == 0) {
        I->frame_repeats++;
        return;
    }
    ev_trace_flush_repeats(I);
    snprintf(I->last_frame, sizeof I->last_frame, "%s", frame);
    if (I->trace.len < 8000)
        sb_puts(&I->trace, frame);
}

/* Run a user function's body in `frame` (owned: freed here); `loc` is the
 * call's location for the trace. */
static Value *run_user(Interp *I, const AstNode *def, Env *frame, Loc loc)
{
    Env *saved = I->locals;
    I->locals = frame;
    I->depth++;
    Value *ret = NULL;
    ExecStatus st = ev_exec_block(I, def->kids[1], &ret);
    I->depth--;
    I->locals = saved;
    env_free(frame);
    if (st == EX_ERR) {
        char where[256], line[320];
        diag_where(loc, where, sizeof where);
        snprintf(line, sizeof line, def->op ? "  in %s called at %s\n" : "  in %s() called at %s\n",
                 def->text, where);
        trace_add(I, line);
        val_unref(ret);
        return NULL;
    }
    if (st == EX_BREAK || st == EX_CONTINUE) {
        val_unref(ret);
        return rt_error(I, DIAG_TYPE, loc, "break or continue outside a loop in '%s'",
                        def->text);
    }
    return ret ? ret : val_null();
}

/* Arity, depth and interrupt checks before a user call. */
static bool user_call_ok(Interp *I, const AstNode *def, size_t nargs, Loc loc)
{
    const AstNode *params = def->kids[0];
    if (params->nkids != nargs) {
        rt_error(I, DIAG_TYPE, loc, "'%s' takes %zu argument%s, got %zu", def->text,
                 params->nkids, params->nkids == 1 ? "" : "s", nargs);
        if (def->op)
            rt_hint(I, "an anonymous function takes as many arguments as it names "
                       "parameters: (x) -> ... one, (a, b) -> ... two");
        return false;
    }
    if (I->depth >= MAX_CALL_DEPTH) {
        rt_error(I, DIAG_LIMIT, loc, "recursion deeper than %d calls", MAX_CALL_DEPTH);
        rt_hint(I, "is there a missing base case?");
        return false;
    }
    /* every call polls: a loop-free recursion must still stop on Ctrl-C
       and --timeout */
    return ev_poll_status(I, loc) == EX_OK;
}

/* A call's frame: an anonymous function's captured locals, then (by the
 * caller) its parameters, which hide a captured name. */
static Env *new_frame(const Value *fv)
{
    Env *frame = env_new();
    const Value *cap = fv->u.fn.captured;
    for (size_t i = 0; cap && i < cap->u.map.len; i++)
        env_set(frame, cap->u.map.keys[i], val_ref(cap->u.map.vals[i]));
    return frame;
}

static Value *call_user(Interp *I, const AstNode *call, Value *fv)
{
    const AstNode *def = fv->u.fn.def;
    const AstNode *params = def->kids[0];
    if (!user_call_ok(I, def, call->nkids, call->loc))
        return NULL;
    Env *frame = new_frame(fv);
    for (size_t i = 0; i < call->nkids; i++) {
        Value *a = rt_eval(I, call->kids[i]);
        if (!a) {
            env_free(frame);
            return NULL;
        }
        env_set(frame, params->kids[i]->text, a);
    }
    return run_user(I, def, frame, call->loc);
}

Value *rt_call_value(Interp *I, const Value *fv, Value *const *args, size_t nargs, Loc loc)
{
    if (fv->kind != VAL_FUNC)
        return rt_error(I, DIAG_TYPE, loc, "%s %s is not a function", val_article(val_kind_name(fv)), val_kind_name(fv));
    const AstNode *def = fv->u.fn.def;
    if (!user_call_ok(I, def, nargs, loc))
        return NULL;
    Env *frame = new_frame(fv);
    for (size_t i = 0; i < nargs; i++)
        env_set(frame, def->kids[0]->kids[i]->text, val_ref(args[i]));
    return run_user(I, def, frame, loc);
}

/* Options of a function call given as a record literal (its keys are the
 * option names of the spec; a flag takes true or false). */
static bool bind_opt_record(Call *c, const SpecItem *spec, size_t ns, const AstNode *rec)
{
    for (size_t i = 0; i + 1 < rec->nkids; i += 2) {
        const AstNode *key = rec->kids[i];
        size_t oi = 0, s;
        for (s = 0; s < ns; s++) {
            if (!spec[s].option)
                continue;
            if (strcmp(spec[s].name, key->text) == 0)
                break;
            oi++;
        }
        if (s == ns) {
            unknown_option(c, spec, ns, key, false);
            return false;
        }
        Value *v = rt_eval(c->I, rec->kids[i + 1]);
        if (!v)
            return false;
        if (spec[s].flag) {
            if (v->kind != VAL_BOOL) {
                rt_error(c->I, DIAG_TYPE, rec->kids[i + 1]->loc,
                         "option '%s' of '%s' is a flag: give true or false", key->text,
                         c->bi->name);
                val_unref(v);
                return false;
            }
            bool on = v->u.b;
            val_unref(v);
            v = on ? val_bool(true) : NULL;
        } else if (!check_kind(c, spec[s].kind, &v, rec->kids[i + 1]->loc, 0, spec[s].name)) {
            val_unref(v);
            return false;
        }
        val_unref(c->opts[oi]);
        c->opts[oi] = v;
        c->opt_locs[oi] = rec->kids[i + 1]->loc;
    }
    return true;
}

/* The builtin half of a call, kept out of ev_call_function so that user
 * recursion does not carry a Call record in every stack frame. */
static __attribute__((noinline)) Value *call_builtin(Interp *I, const AstNode *call,
                                                     const Builtin *b)
{
    Call c;
    memset(&c, 0, sizeof c);
    c.I = I;
    c.bi = b;
    c.loc = call->loc;
    if (b->flags & BI_RAW) {
        c.raw = call;
    } else {
        SpecItem spec[CALL_MAX_ARGS];
        size_t ns = parse_spec(b->spec, spec, CALL_MAX_ARGS);
        size_t npos = 0, nreq = 0, nopt = 0;
        for (size_t i = 0; i < ns; i++)
            if (!spec[i].option) {
                npos++;
                if (!spec[i].optional)
                    nreq = npos;
            } else {
                nopt++;
            }
        /* a last argument written as a record literal carries the options:
           period(g, {limit: 1000}) is `period g limit 1000` */
        size_t nk = call->nkids;
        const AstNode *optrec = NULL;
        if (nopt && nk > 0 && call->kids[nk - 1]->kind == AST_MAP &&
            call->kids[nk - 1]->nkids > 0)
            optrec = call->kids[--nk];
        if (nk < nreq || nk > npos) {
            rt_error(I, DIAG_TYPE, call->loc, "'%s' takes %zu%s argument%s, got %zu", b->name,
                     nreq, npos > nreq ? " or more" : "", npos == 1 ? "" : "s", nk);
            set_usage_hint(&c);
            return NULL;
        }
        for (size_t i = 0, k = 0; i < ns && k < nk; i++) {
            if (spec[i].option)
                continue;
            Value *v = rt_eval(I, call->kids[k]);
            if (!v) {
                call_release(&c);
                return NULL;
            }
            c.args[k] = v;
            c.arg_locs[k] = call->kids[k]->loc;
            c.nargs = k + 1;
            if (strcmp(spec[i].kind, "word") == 0) {
                if (v->kind != VAL_STR) {
                    check_kind(&c, "str", &c.args[k], call->kids[k]->loc, (int)k + 1, NULL);
                    call_release(&c);
                    return NULL;
                }
            } else if (!check_kind(&c, spec[i].kind, &c.args[k], call->kids[k]->loc, (int)k + 1,
                                   NULL)) {
                call_release(&c);
                return NULL;
            }
            k++;
        }
        for (size_t i = 0; i < ns; i++)
            if (spec[i].option) {
                c.opt_names[c.nopts] = spec[i].at;
                c.opt_locs[c.nopts] = c.loc;
                c.opts[c.nopts++] = NULL;
            }
        if (optrec && !bind_opt_record(&c, spec, ns, optrec)) {
            call_release(&c);
            return NULL;
        }
    }
    Value *r = invoke(&c);
    call_release(&c);
    return r;
}


Value *ev_call_function(Interp *I, const AstNode *call)
{
    Value *fv = ev_lookup(I, call->text);
    if (fv && fv->kind == VAL_FUNC)
        return call_user(I, call, fv);
    if (fv) {
        const Builtin *b = builtin_find(call->text);
        for (size_t m = 0; !b && I->modules && I->modules[m]; m++) {
            /* a value that a module can apply: G(n) for a heap game */
            if (!I->modules[m]->apply)
                continue;
            Value *r = I->modules[m]->apply(I, fv, call);
            if (r || I->failed)
                return r;
        }
        if (!b || !(b->flags & BI_FUNC))
            return rt_error(I, DIAG_TYPE, call->loc, "'%s' is %s %s, not a function", call->text,
                            val_article(val_kind_name(fv)), val_kind_name(fv));
    }
    const Builtin *b = find_builtin_or_error(I, call->text, call->loc, BI_FUNC);
    if (!b)
        return NULL;
    return call_builtin(I, call, b);
}

/* A call of a value that is not a name: (f)(x), fs[0](x), r.fn(x),
 * f(1)(2), ((x) -> x + 1)(2).  The callee is evaluated first, then called
 * as the value of a name is: a function, or a value a module applies (a
 * heap game G(n)). */
Value *ev_apply(Interp *I, const AstNode *e)
{
    Value *fv = rt_eval(I, e->kids[0]);
    if (!fv)
        return NULL;
    const AstNode *args = e->kids[1];
    Value *r = NULL;
    if (fv->kind == VAL_FUNC) {
        r = call_user(I, args, fv);
    } else {
        for (size_t m = 0; !r && !I->failed && I->modules && I->modules[m]; m++)
            if (I->modules[m]->apply)
                r = I->modules[m]->apply(I, fv, args);
        if (!r && !I->failed) {
            rt_error(I, DIAG_TYPE, e->kids[0]->loc, "%s %s is not a function",
                     val_article(val_kind_name(fv)), val_kind_name(fv));
            rt_hint(I, "functions are written fn NAME(...) or (x) -> ...; a heap game G "
                       "is applied to a heap as G(n)");
        }
    }
    val_unref(fv);
    return r;
}

Value *call_opt(Call *c, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < c->nopts; i++)
        if (c->opt_names[i] && strncmp(c->opt_names[i], name, n) == 0 &&
            (c->opt_names[i][n] == ':' || c->opt_names[i][n] == '!'))
            return c->opts[i];
    return NULL;
}

Loc call_opt_loc(Call *c, const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < c->nopts; i++)
        if (c->opt_names[i] && strncmp(c->opt_names[i], name, n) == 0 &&
            (c->opt_names[i][n] == ':' || c->opt_names[i][n] == '!'))
            return c->opt_locs[i];
    return c->loc;
}

Value *call_with_checkpoint_lock(Call *c, Value *(*stmt)(Call *))
{
    Value *ck = call_opt(c, "checkpoint");
    if (!ck || ck->kind != VAL_STR)
        return stmt(c);
    AfLock lk;
    CgtError err;
    cgt_error_clear(&err);
    if (af_lock(&lk, ck->u.str.s, "checkpoint", &err) != CGT_OK)
        return rt_error_from(c->I, call_opt_loc(c, "checkpoint"), &err);
    Value *r = stmt(c);
    af_unlock(&lk);
    return r;
}

bool call_int(Call *c, Value *v, Loc loc, const char *what, int64_t lo, int64_t hi,
              int64_t *out)
{
    int64_t x;
    if (v->kind != VAL_INT) {
        rt_error(c->I, DIAG_TYPE, loc, "%s must be an integer, got %s", what, val_kind_name(v));
        return false;
    }
    if (!val_get_i64(v, &x) || x < lo || x > hi) {
        rt_error(c->I, DIAG_DOMAIN, loc, "%s must be between %lld and %lld", what,
                 (long long)lo, (long long)hi);
        return false;
    }
    *out = x;
    return true;
}

