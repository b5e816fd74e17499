/* The evaluator's statements: checks and claims, loops, try/catch,
 * timeout, and running a script (split from eval.c). */
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
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

/* ---- statements ---- */

ExecStatus ev_poll_status(Interp *I, Loc loc)
{
    CgtStatus st = cgt_poll();
    if (st == CGT_OK)
        return EX_OK;
    CgtError e;
    cgt_poll_error(&e, st, "script");
    rt_error_from(I, loc, &e);
    return EX_ERR;
}

/* Evaluate a claim once.  For a comparison a OP b the two sides are kept
 * in side[0], side[1] (owned by the caller; NULL otherwise) so that a
 * failed check can show them without evaluating them again: side effects
 * of the claim must run exactly once. */
static Value *eval_claim(Interp *I, const AstNode *cond, Value *side[2])
{
    side[0] = side[1] = NULL;
    if (cond->kind != AST_BINOP)
        return rt_eval(I, cond);
    if (!ev_eval_pair(I, cond, &side[0], &side[1]))
        return NULL;
    Value *r = ev_binop(I, cond->op, side[0], side[1], cond->loc);
    if (!r) {
        val_unref(side[0]);
        val_unref(side[1]);
        side[0] = side[1] = NULL;
    }
    return r;
}

/* The longest text of a value a diagnostic shows (then "..."). */
#define CHECK_SHOW_MAX 4000

static void report_check(Interp *I, const AstNode *cond, const char *var, const Value *varval,
                         Value *side[2])
{
    char *src = diag_source_text(cond->loc);
    StrBuf msg, detail;
    sb_init(&msg);
    sb_init(&detail);
    if (var) {
        sb_printf(&msg, "check failed for %s = ", var);
        val_format_brief(varval, &msg, false, CHECK_SHOW_MAX);
        sb_printf(&msg, ": %s", src);
    } else {
        sb_printf(&msg, "check failed: %s", src);
    }
    for (int k = 0; side[0] && side[1] && k < 2; k++) {
        const AstNode *e = cond->kids[k];
        if (e->kind == AST_INT || e->kind == AST_STR || e->kind == AST_BOOL ||
            e->kind == AST_NULL)
            continue; /* a literal shows itself */
        char *ks = diag_source_text(e->loc);
        sb_printf(&detail, "  %s is ", ks);
        val_format_brief(side[k], &detail, false, CHECK_SHOW_MAX);
        sb_putc(&detail, '\n');
        free(ks);
    }
    interp_json_error(I, DIAG_CHECK, &cond->loc, msg.s, NULL, NULL, 1);
    fflush(stdout);
    diag_print(stderr, "error", cond->loc, msg.s, NULL, detail.s, I->color_err);
    free(src);
    sb_free(&msg);
    sb_free(&detail);
    I->checks_failed++;
}

void rt_claim_result(Interp *I, Loc loc, bool holds, const char *msg)
{
    I->checks_run++;
    if (holds)
        return;
    interp_json_error(I, DIAG_CHECK, &loc, msg, NULL, NULL, 1);
    fflush(stdout);
    diag_print(stderr, "error", loc, msg, NULL, NULL, I->color_err);
    I->checks_failed++;
}

static ExecStatus exec_check(Interp *I, const AstNode *s)
{
    const AstNode *cond = s->kids[0];
    I->checks_run++;
    if (s->nkids < 2 || !s->kids[1]) {
        Value *side[2];
        Value *v = eval_claim(I, cond, side);
        if (!v)
            return EX_ERR;
        bool ok = val_truthy(v);
        val_unref(v);
        if (!ok)
            report_check(I, cond, NULL, NULL, side);
        val_unref(side[0]);
        val_unref(side[1]);
        return EX_OK;
    }
    const AstNode *f = s->kids[1];
    Value *it = rt_eval(I, f->kids[0]);
    if (!it)
        return EX_ERR;
    ExecStatus st = EX_OK;
    uint64_t n = it->kind == VAL_LIST    ? it->u.list.len
                 : it->kind == VAL_RANGE ? val_range_count(it)
                                         : 0;
    if (it->kind != VAL_LIST && it->kind != VAL_RANGE) {
        rt_error(I, DIAG_TYPE, f->kids[0]->loc, "cannot iterate over %s %s", val_article(val_kind_name(it)), val_kind_name(it));
        val_unref(it);
        return EX_ERR;
    }
    for (uint64_t i = 0; i < n; i++) {
        if ((st = ev_poll_status(I, s->loc)) != EX_OK)
            break;
        Value *x = it->kind == VAL_LIST ? val_ref(it->u.list.items[i])
                                        : val_int(val_range_at(it, i));
        ev_assign(I, f->text, val_ref(x));
        Value *side[2];
        Value *v = eval_claim(I, cond, side);
        if (!v) {
            val_unref(x);
            st = EX_ERR;
            break;
        }
        bool ok = val_truthy(v);
        val_unref(v);
        if (!ok)
            report_check(I, cond, f->text, x, side);
        val_unref(side[0]);
        val_unref(side[1]);
        val_unref(x);
        if (!ok)
            break;
    }
    val_unref(it);
    return st;
}

static ExecStatus exec_stmt(Interp *I, const AstNode *s, Value **ret);
static ExecStatus exec_stmt_kind(Interp *I, const AstNode *s, Value **ret);

/* Run one iteration of a loop body; true when the loop must stop (break,
 * return, error, interrupt), with *st the status to pass on. */
static bool loop_step(Interp *I, const AstNode *s, Value **ret, ExecStatus *st)
{
    /* polled before the iteration, not after it: a loop whose last
       iteration has completed has completed (an empty body polls too) */
    if ((*st = ev_poll_status(I, s->loc)) != EX_OK)
        return true;
    *st = ev_exec_block(I, s->kids[1], ret);
    if (*st == EX_BREAK) {
        *st = EX_OK;
        return true;
    }
    if (*st == EX_CONTINUE)
        *st = EX_OK;
    return *st != EX_OK;
}

static ExecStatus exec_for(Interp *I, const AstNode *s, Value **ret)
{
    Value *it = rt_eval(I, s->kids[0]);
    if (!it)
        return EX_ERR;
    ExecStatus st = EX_OK;
    if (it->kind == VAL_RANGE) {
        for (int64_t x = it->u.range.lo; x <= it->u.range.hi; x++) {
            ev_assign(I, s->text, val_int(x));
            if (loop_step(I, s, ret, &st))
                break;
            if (x == INT64_MAX)
                break;
        }
    } else if (it->kind == VAL_LIST || it->kind == VAL_STR) {
        size_t n = it->kind == VAL_LIST ? it->u.list.len : it->u.str.len;
        for (size_t i = 0; i < n; i++) {
            ev_assign(I, s->text, it->kind == VAL_LIST ? val_ref(it->u.list.items[i])
                                                    : val_str_n(it->u.str.s + i, 1));
            if (loop_step(I, s, ret, &st))
                break;
        }
    } else if (it->kind == VAL_MAP) {
        /* a record iterates over its keys, in order (the loop may not change it) */
        for (size_t i = 0; i < it->u.map.len; i++) {
            ev_assign(I, s->text, val_str(it->u.map.keys[i]));
            if (loop_step(I, s, ret, &st))
                break;
        }
    } else {
        rt_error(I, DIAG_TYPE, s->kids[0]->loc, "cannot iterate over %s %s", val_article(val_kind_name(it)), val_kind_name(it));
        st = EX_ERR;
    }
    val_unref(it);
    return st;
}

/* The caught error as a record: category (the word of docs/errors.md),
 * message, hint, file, line, column, and partial (a partial result the
 * failed computation left, or null).  Clears the pending error. */
static Value *take_error(Interp *I)
{
    Value *e = val_map();
    unsigned line, col;
    const char *file = diag_line_col(I->err_loc, &line, &col);
    val_map_set_str(e, "category", diag_cat_name(I->err_cat));
    val_map_set_str(e, "message", I->err_msg);
    val_map_set_str(e, "hint", I->err_hint);
    val_map_set_str(e, "file", file);
    val_map_set_int(e, "line", line);
    val_map_set_int(e, "column", col);
    val_map_set(e, "partial", I->partial ? I->partial : val_null());
    I->partial = NULL;
    I->failed = false;
    I->err_fatal = false;
    I->trace.len = 0;
    I->trace.s[0] = '\0';
    I->last_frame[0] = '\0';
    I->frame_repeats = 0;
    return e;
}

/* try { BODY } catch (e) { HANDLER }: break, continue and return pass
 * through; an error that is not fatal runs HANDLER with e bound. */
static ExecStatus exec_try(Interp *I, const AstNode *s, Value **ret)
{
    ExecStatus st = ev_exec_block(I, s->kids[0], ret);
    if (st != EX_ERR || I->err_fatal)
        return st;
    ev_assign(I, s->text, take_error(I));
    return ev_exec_block(I, s->kids[1], ret);
}

/* The seconds of `timeout S { ... }`: a positive integer, or a decimal
 * written as a code literal (`timeout 0.5 { ... }`). */
static bool timeout_seconds(Interp *I, const AstNode *e, double *out)
{
    Value *v = rt_eval(I, e);
    if (!v)
        return false;
    int64_t x = 0;
    bool ok = false;
    if (v->kind == VAL_INT && val_get_i64(v, &x) && x > 0 && x <= (int64_t)CGT_MAX_TIMEOUT) {
        *out = (double)x;
        ok = true;
    } else if (v->kind == VAL_STR) {
        char *end;
        errno = 0;
        double d = strtod(v->u.str.s, &end);
        ok = !errno && end != v->u.str.s && *end == '\0' && d > 0 && d <= CGT_MAX_TIMEOUT;
        *out = d;
    }
    if (!ok) {
        StrBuf b;
        sb_init(&b);
        val_format_brief(v, &b, false, CHECK_SHOW_MAX);
        rt_error(I, v->kind == VAL_INT || v->kind == VAL_STR ? DIAG_DOMAIN : DIAG_TYPE, e->loc,
                 "the seconds of a timeout block must be a number in 0..1e9 above 0, got %s",
                 b.s);
        sb_free(&b);
    }
    val_unref(v);
    return ok;
}

/* timeout S { BODY }: BODY runs with a CPU-time deadline S seconds away
 * (src/lib/util/poll.h); reaching it is a limit error that try can catch. */
static ExecStatus exec_timeout(Interp *I, const AstNode *s, Value **ret)
{
    double secs;
    if (!timeout_seconds(I, s->kids[0], &secs))
        return EX_ERR;
    CgtBlockDeadline saved = cgt_block_timeout_push(secs);
    ExecStatus st = ev_exec_block(I, s->kids[1], ret);
    cgt_block_timeout_pop(saved);
    return st;
}

static ExecStatus exec_stmt_kind(Interp *I, const AstNode *s, Value **ret)
{
    if (ev_stack_exhausted(I, s->loc))
        return EX_ERR;
    switch (s->kind) {
    case AST_EXPR: {
        const AstNode *e = s->kids[0];
        /* a bare name that is no variable but a statement: `help;` */
        if (e->kind == AST_IDENT && !ev_lookup(I, e->text)) {
            const Builtin *b = builtin_find(e->text);
            if (b && (b->flags & BI_CMD)) {
                AstNode cmd = *e;
                cmd.kind = AST_CMD;
                cmd.nkids = 0;
                Value *r = ev_run_command(I, &cmd, true, NULL);
                if (!r)
                    return EX_ERR;
                bool ok = r->kind == VAL_NULL || rt_print_value(I, r, s->loc);
                val_unref(r);
                return ok ? EX_OK : EX_ERR;
            }
        }
        Value *v = rt_eval(I, e);
        if (!v)
            return EX_ERR;
        /* expression statements print their value in the REPL only */
        bool ok = !I->repl || v->kind == VAL_NULL || rt_print_value(I, v, s->loc);
        val_unref(v);
        return ok ? EX_OK : EX_ERR;
    }
    case AST_ASSIGN: {
        if (s->nkids > 1)
            return ev_assign_item(I, s) ? EX_OK : EX_ERR;
        Value *old = NULL;
        if (s->op) {
            /* x += e: x must exist; then x = x + e */
            old = ev_lookup(I, s->text);
            if (!old) {
                rt_error(I, DIAG_NAME, s->loc, "undefined variable '%s'", s->text);
                rt_hint(I, "x %c= e needs x to have a value: write %s = ... first", s->op,
                        s->text);
                return EX_ERR;
            }
            old = val_ref(old);
        }
        Value *v = rt_eval(I, s->kids[0]);
        if (!v) {
            val_unref(old);
            return EX_ERR;
        }
        if (old) {
            Value *r = ev_binop(I, s->op, old, v, s->loc);
            val_unref(old);
            val_unref(v);
            if (!r)
                return EX_ERR;
            v = r;
        }
        ev_assign(I, s->text, v);
        return EX_OK;
    }
    case AST_CMD: {
        Value *r = ev_run_command(I, s, true, NULL);
        if (!r)
            return EX_ERR;
        bool ok = r->kind == VAL_NULL || rt_print_value(I, r, s->loc);
        val_unref(r);
        return ok ? EX_OK : EX_ERR;
    }
    case AST_DECL: {
        Value *r = ev_run_command(I, s->kids[0], false, s->text);
        if (!r) {
            /* the name holds the partial result, and so does e.partial of
               a try that catches the error (take_error moves it there) */
            if (I->partial)
                ev_assign(I, s->text, val_ref(I->partial));
            return EX_ERR;
        }
        ev_assign(I, s->text, r);
        return EX_OK;
    }
    case AST_PRINT: {
        if (I->format == FMT_JSON) {
            for (size_t i = 0; i < s->nkids; i++) {
                Value *v = rt_eval(I, s->kids[i]);
                if (!v)
                    return EX_ERR;
                bool ok = rt_print_value(I, v, s->kids[i]->loc);
                val_unref(v);
                if (!ok)
                    return EX_ERR;
            }
            return EX_OK;
        }
        StrBuf b;
        sb_init(&b);
        for (size_t i = 0; i < s->nkids; i++) {
            Value *v = rt_eval(I, s->kids[i]);
            if (!v) {
                sb_free(&b);
                return EX_ERR;
            }
            if (i)
                sb_putc(&b, ' ');
            CgtError err;
            cgt_error_clear(&err);
            CgtStatus fs = val_format_checked(v, &b, true, VAL_TEXT_MAX, &err);
            val_unref(v);
            if (fs != CGT_OK) {
                sb_free(&b);
                rt_error_from(I, s->kids[i]->loc, &err);
                return EX_ERR;
            }
        }
        if (b.len == 0 || b.s[b.len - 1] != '\n')
            sb_putc(&b, '\n');
        ev_put_stdout(b.s);
        sb_free(&b);
        return EX_OK;
    }
    case AST_CHECK:
        return exec_check(I, s);
    case AST_ASSERT: {
        Value *v = rt_eval(I, s->kids[0]);
        if (!v)
            return EX_ERR;
        bool ok = val_truthy(v);
        val_unref(v);
        if (!ok) {
            char *src = diag_source_text(s->kids[0]->loc);
            rt_error(I, DIAG_CHECK, s->kids[0]->loc, "assertion failed: %s", src);
            free(src);
            return EX_ERR;
        }
        return EX_OK;
    }
    case AST_IF: {
        Value *c = rt_eval(I, s->kids[0]);
        if (!c)
            return EX_ERR;
        bool t = val_truthy(c);
        val_unref(c);
        if (t)
            return ev_exec_block(I, s->kids[1], ret);
        if (s->nkids > 2 && s->kids[2])
            return s->kids[2]->kind == AST_IF ? exec_stmt_kind(I, s->kids[2], ret)
                                              : ev_exec_block(I, s->kids[2], ret);
        return EX_OK;
    }
    case AST_FOR:
        return exec_for(I, s, ret);
    case AST_WHILE:
        for (;;) {
            Value *c = rt_eval(I, s->kids[0]);
            if (!c)
                return EX_ERR;
            bool t = val_truthy(c);
            val_unref(c);
            if (!t)
                return EX_OK;
            ExecStatus st;
            if (loop_step(I, s, ret, &st))
                return st;
        }
    case AST_FN:
        if (builtin_find(s->text)) {
            rt_error(I, DIAG_NAME, s->loc, "cannot redefine the builtin '%s'", s->text);
            rt_hint(I, "choose another name for your function");
            return EX_ERR;
        }
        ev_assign(I, s->text, val_func(s));
        return EX_OK;
    case AST_RETURN:
        if (!I->locals) {
            rt_error(I, DIAG_TYPE, s->loc, "return outside a function");
            return EX_ERR;
        }
        if (s->nkids > 0) {
            *ret = rt_eval(I, s->kids[0]);
            if (!*ret)
                return EX_ERR;
        }
        return EX_RETURN;
    case AST_TRY:
        return exec_try(I, s, ret);
    case AST_TIMEOUT:
        return exec_timeout(I, s, ret);
    case AST_BREAK:
        return EX_BREAK;
    case AST_CONTINUE:
        return EX_CONTINUE;
    case AST_BLOCK:
        return ev_exec_block(I, s, ret);
    default:
        rt_error(I, DIAG_INTERNAL, s->loc, "cannot execute a %s node", ast_kind_name(s->kind));
        return EX_ERR;
    }
}

/* Every statement, at any depth.  The limits and interrupts are checked
 * before it starts (and inside long work), never after it has completed: a
 * statement that finished has printed its whole result and is not reported
 * as stopped, even when a limit passes while it returns; the next statement
 * then does not start.  I->limit_after_stmts is the test hook of
 * docs/testing.md: the run's limit passes right after that many statements
 * have completed. */
static ExecStatus exec_stmt(Interp *I, const AstNode *s, Value **ret)
{
    if (ev_poll_status(I, s->loc) != EX_OK)
        return EX_ERR;
    ExecStatus st = exec_stmt_kind(I, s, ret);
    if (st != EX_ERR && I->limit_after_stmts && ++I->stmts_done == I->limit_after_stmts)
        cgt_fire_run_limit();
    return st;
}

ExecStatus ev_exec_block(Interp *I, const AstNode *b, Value **ret)
{
    for (size_t i = 0; i < b->nkids; i++) {
        ExecStatus st = exec_stmt(I, b->kids[i], ret);
        if (st != EX_OK)
            return st;
    }
    return EX_OK;
}

int interp_run(Interp *I, const AstNode *block)
{
    if (!I->stack_floor) {
        uintptr_t here = (uintptr_t)__builtin_frame_address(0);
        I->stack_floor = here > ev_stack_budget ? here - ev_stack_budget : 1;
    }
    for (size_t i = 0; i < block->nkids; i++) {
        Value *ret = NULL;
        ExecStatus st = exec_stmt(I, block->kids[i], &ret);
        val_unref(ret);
        int e;
        if (rt_stdout_failed(&e)) {
            /* the statement's results are lost: stop (exit 1), not exit 0 */
            I->failed = false;
            rt_error(I, DIAG_IO, block->kids[i]->loc, "cannot write standard output: %s",
                     strerror(e));
            return interp_report(I);
        }
        if (st == EX_ERR)
            return interp_report(I);
        if (st == EX_BREAK || st == EX_CONTINUE) {
            rt_error(I, DIAG_TYPE, block->kids[i]->loc, "break or continue outside a loop");
            return interp_report(I);
        }
    }
    return 0;
}
