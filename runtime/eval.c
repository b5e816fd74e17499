/* The tree-walking evaluator: expressions, statements, user functions,
 * checks, and the dispatcher that binds command arguments to builtins
 * according to their declared spec (STYLE.md 3.5). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "grammar.h"
#include "runtime/env.h"
#include "runtime/gameobj.h"
#include "runtime/impgameobj.h"
#include "runtime/resultfile.h"
#include "runtime/interp.h"
#include "util/poll.h"
#include "util/xalloc.h"

#define MAX_CALL_DEPTH 2000

typedef enum { EX_OK, EX_ERR, EX_RETURN, EX_BREAK, EX_CONTINUE } ExecStatus;

static ExecStatus exec_block(Interp *I, const AstNode *b, Value **ret);
static void trace_flush_repeats(Interp *I);

/* ---- interpreter state and errors ---- */

static void warning_sink(const char *line)
{
    cgt_progress_end();
    fflush(stdout);
    fprintf(stderr, "cgt: warning: %s\n", line);
}

Interp *interp_new(void)
{
    Interp *I = xcalloc(1, sizeof *I);
    cgt_set_warning_sink(warning_sink);
    I->globals = env_new();
    sb_init(&I->trace);
    return I;
}

void interp_free(Interp *I)
{
    if (!I)
        return;
    env_free(I->globals);
    val_unref(I->partial);
    impgame_store_release();
    sb_free(&I->trace);
    free(I);
    bi_load_release();
}

Value *rt_error(Interp *I, DiagCat cat, Loc loc, const char *fmt, ...)
{
    if (I->failed)
        return NULL;
    I->failed = true;
    /* Ctrl-C and --timeout end the run, and a bug must be seen: try does
       not catch them (docs/language.md, "Errors") */
    I->err_fatal = cat == DIAG_INTERRUPTED || cat == DIAG_INTERNAL ||
                   (cat == DIAG_LIMIT && cgt_run_limit_reached());
    I->err_cat = cat;
    I->err_loc = loc;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(I->err_msg, sizeof I->err_msg, fmt, ap);
    va_end(ap);
    I->err_hint[0] = '\0';
    I->trace.len = 0;
    I->trace.s[0] = '\0';
    I->last_frame[0] = '\0';
    I->frame_repeats = 0;
    return NULL;
}

void rt_hint(Interp *I, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(I->err_hint, sizeof I->err_hint, fmt, ap);
    va_end(ap);
}

Value *rt_error_from(Interp *I, Loc loc, const CgtError *e)
{
    DiagCat cat = DIAG_DOMAIN;
    switch (e->status) {
    case CGT_ERR_LIMIT:
        cat = DIAG_LIMIT;
        break;
    case CGT_ERR_INTERRUPTED:
        cat = DIAG_INTERRUPTED;
        break;
    case CGT_ERR_IO:
        cat = DIAG_IO;
        break;
    case CGT_ERR_TYPE:
        cat = DIAG_TYPE;
        break;
    case CGT_ERR_INTERNAL:
        cat = DIAG_INTERNAL;
        break;
    default:
        break;
    }
    rt_error(I, cat, loc, "%s", e->msg[0] ? e->msg : "unknown error");
    if (e->hint[0])
        rt_hint(I, "%s", e->hint);
    return NULL;
}

int interp_report(Interp *I)
{
    if (!I->failed)
        return 0;
    char msg[1200];
    if (I->err_cat == DIAG_INTERNAL)
        snprintf(msg, sizeof msg, "internal error: %s (please report this bug)", I->err_msg);
    else
        snprintf(msg, sizeof msg, "%s", I->err_msg);
    fflush(stdout);
    trace_flush_repeats(I);
    diag_print(stderr, "error", I->err_loc, msg, I->err_hint, I->trace.s, I->color_err);
    val_unref(I->partial); /* a partial result no declaration took */
    I->partial = NULL;
    I->failed = false;
    I->trace.len = 0;
    I->trace.s[0] = '\0';
    return diag_exit_code(I->err_cat);
}

/* ---- output ---- */

/* errno of the first failed write to stdout (0 = none yet) */
static int stdout_errno;

static void put_stdout(const char *text)
{
    errno = 0;
    if (fputs(text, stdout) == EOF && !stdout_errno)
        stdout_errno = errno ? errno : EIO;
}


void rt_out(Interp *I, const char *text)
{
    (void)I;
    cgt_progress_end();
    put_stdout(text);
}

void rt_json_begin(JsonWriter *w, StrBuf *b, const char *kind)
{
    jw_init(w, b);
    jw_obj_begin(w);
    jw_kv_str(w, "kind", kind);
}

void rt_json_end(JsonWriter *w)
{
    jw_obj_end(w);
    sb_putc(w->out, '\n');
}

void rt_emit(Interp *I, StrBuf *b)
{
    rt_out(I, b->s);
    sb_free(b);
}

void rt_print_value(Interp *I, const Value *v)
{
    StrBuf b;
    sb_init(&b);
    if (I->format == FMT_JSON) {
        JsonWriter w;
        jw_init(&w, &b);
        val_json(v, &w, true);
        sb_putc(&b, '\n');
    } else {
        val_format(v, &b, true);
        if (b.len == 0 || b.s[b.len - 1] != '\n')
            sb_putc(&b, '\n');
    }
    put_stdout(b.s);
    sb_free(&b);
}

/* ---- variables ---- */

static Value *lookup(Interp *I, const char *name)
{
    Value *v = NULL;
    if (I->locals)
        v = env_get(I->locals, name);
    if (!v)
        v = env_get(I->globals, name);
    return v;
}

static void assign(Interp *I, const char *name, Value *v)
{
    env_set(I->locals ? I->locals : I->globals, name, v);
}

static Value *undefined_name(Interp *I, const AstNode *e)
{
    rt_error(I, DIAG_NAME, e->loc, "undefined variable '%s'", e->text);
    const Builtin *b = builtin_find(e->text);
    if (b && (b->flags & BI_FUNC))
        rt_hint(I, "'%s' is a builtin: call it as %s(...) or use it as a statement", e->text,
                e->text);
    else if (b)
        rt_hint(I, "'%s' is a statement: write it at the start of a statement", e->text);
    return NULL;
}

/* ---- integer arithmetic (exact, GMP on overflow) ---- */

/* Largest integer result of * and ^, in bits (8 MB of digits). */
#define INT_MAX_BITS 64000000UL

static Value *int_arith(Interp *I, int op, const Value *a, const Value *b, Loc loc)
{
    int64_t x, y, r;
    bool small = val_get_i64(a, &x) && val_get_i64(b, &y);
    if (small) {
        switch (op) {
        case '+':
            if (!__builtin_add_overflow(x, y, &r))
                return val_int(r);
            break;
        case '-':
            if (!__builtin_sub_overflow(x, y, &r))
                return val_int(r);
            break;
        case '*':
            if (!__builtin_mul_overflow(x, y, &r))
                return val_int(r);
            break;
        case XOR:
            return val_int(x ^ y);
        default:
            break;
        }
    }
    mpz_t za, zb, zr;
    mpz_inits(za, zb, zr, NULL);
    val_get_mpz(a, za);
    val_get_mpz(b, zb);
    Value *res = NULL;
    switch (op) {
    case '+':
        mpz_add(zr, za, zb);
        break;
    case '-':
        mpz_sub(zr, za, zb);
        break;
    case '*':
        /* the same cap as ^ (issue 14 F29: x*x*... had none) */
        if (mpz_sizeinbase(za, 2) + mpz_sizeinbase(zb, 2) > INT_MAX_BITS + 1) {
            rt_error(I, DIAG_LIMIT, loc, "result of * would have more than %lu bits",
                     (unsigned long)INT_MAX_BITS);
            goto done;
        }
        mpz_mul(zr, za, zb);
        break;
    case '/':
    case '%':
        if (mpz_sgn(zb) == 0) {
            rt_error(I, DIAG_DOMAIN, loc, "division by zero");
            goto done;
        }
        if (op == '/')
            mpz_fdiv_q(zr, za, zb);
        else
            mpz_fdiv_r(zr, za, zb);
        break;
    case XOR:
        /* bitwise exclusive or; on negative integers GMP's two's complement */
        mpz_xor(zr, za, zb);
        break;
    case '^': {
        if (mpz_sgn(zb) < 0) {
            rt_error(I, DIAG_DOMAIN, loc, "negative exponent");
            rt_hint(I, "integers are exact; there are no fractions");
            goto done;
        }
        bool trivial = mpz_cmpabs_ui(za, 1) <= 0;
        /* |a|^e has about e log2|a| bits (mpz_get_d_2exp: |a| = m 2^k,
           1/2 <= m < 1); the cap is on that, so 2^63999999 is allowed */
        long k2 = 0;
        double m = trivial ? 1 : fabs(mpz_get_d_2exp(&k2, za));
        if (!trivial && (!mpz_fits_ulong_p(zb) ||
                         (double)mpz_get_ui(zb) * ((double)k2 + log2(m)) >= (double)INT_MAX_BITS)) {
            rt_error(I, DIAG_LIMIT, loc, "result of ^ would have more than %lu bits",
                     (unsigned long)INT_MAX_BITS);
            rt_hint(I, "integer results are capped at 64 million bits (docs/language.md)");
            goto done;
        }
        if (trivial && !mpz_fits_ulong_p(zb)) {
            /* 0^n, 1^n, (-1)^n for huge n */
            if (mpz_sgn(za) == 0)
                mpz_set_ui(zr, 0);
            else if (mpz_sgn(za) > 0 || mpz_even_p(zb))
                mpz_set_ui(zr, 1);
            else
                mpz_set_si(zr, -1);
        } else {
            mpz_pow_ui(zr, za, mpz_get_ui(zb));
        }
        break;
    }
    default:
        break;
    }
    res = val_int_mpz(zr);
done:
    mpz_clears(za, zb, zr, NULL);
    return res;
}

static int int_cmp(const Value *a, const Value *b)
{
    int64_t x, y;
    if (val_get_i64(a, &x) && val_get_i64(b, &y))
        return (x > y) - (x < y);
    mpz_t za, zb;
    mpz_inits(za, zb, NULL);
    val_get_mpz(a, za);
    val_get_mpz(b, zb);
    int c = mpz_cmp(za, zb);
    mpz_clears(za, zb, NULL);
    return (c > 0) - (c < 0);
}

static const char *op_name(int op)
{
    switch (op) {
    case EQ:
        return "==";
    case NE:
        return "!=";
    case LE:
        return "<=";
    case GE:
        return ">=";
    case '<':
        return "<";
    case '>':
        return ">";
    case '+':
        return "+";
    case '-':
        return "-";
    case '*':
        return "*";
    case '/':
        return "/";
    case '%':
        return "%";
    case '^':
        return "^";
    case XOR:
        return "xor";
    }
    return "?";
}

static Value *binop(Interp *I, int op, Value *a, Value *b, Loc loc)
{
    if (impgame_is(a) || impgame_is(b))
        return impgame_binop(I, op, a, b, loc, EQ, NE);
    if (op == EQ)
        return val_bool(val_equal(a, b));
    if (op == NE)
        return val_bool(!val_equal(a, b));
    if (op == '<' || op == '>' || op == LE || op == GE) {
        int c;
        if (a->kind == VAL_INT && b->kind == VAL_INT)
            c = int_cmp(a, b);
        else if (a->kind == VAL_STR && b->kind == VAL_STR)
            c = strcmp(a->u.str.s, b->u.str.s);
        else
            return rt_error(I, DIAG_TYPE, loc, "cannot compare %s with %s using %s",
                            val_kind_name(a), val_kind_name(b), op_name(op));
        bool r = op == '<' ? c < 0 : op == '>' ? c > 0 : op == LE ? c <= 0 : c >= 0;
        return val_bool(r);
    }
    if (a->kind == VAL_INT && b->kind == VAL_INT)
        return int_arith(I, op, a, b, loc);
    if (op == '+' && a->kind == VAL_STR && b->kind == VAL_STR) {
        char *s = xmalloc(a->u.str.len + b->u.str.len + 1);
        memcpy(s, a->u.str.s, a->u.str.len);
        memcpy(s + a->u.str.len, b->u.str.s, b->u.str.len + 1);
        return val_str_own(s);
    }
    if (op == '+' && a->kind == VAL_LIST && b->kind == VAL_LIST) {
        Value *l = val_list();
        for (size_t i = 0; i < a->u.list.len; i++)
            val_list_push(l, val_ref(a->u.list.items[i]));
        for (size_t i = 0; i < b->u.list.len; i++)
            val_list_push(l, val_ref(b->u.list.items[i]));
        return l;
    }
    rt_error(I, DIAG_TYPE, loc, "cannot apply %s to %s and %s", op_name(op), val_kind_name(a),
             val_kind_name(b));
    if (op == '+' && (a->kind == VAL_STR || b->kind == VAL_STR))
        rt_hint(I, "convert with str(...) first, e.g. \"n = \" + str(n)");
    return NULL;
}

/* ---- expressions ---- */

static Value *call_function(Interp *I, const AstNode *call);
static ExecStatus poll_status(Interp *I, Loc loc);

static bool to_i64(Interp *I, const Value *v, Loc loc, const char *what, int64_t *out)
{
    if (v->kind != VAL_INT) {
        rt_error(I, DIAG_TYPE, loc, "%s must be an integer, got %s", what, val_kind_name(v));
        return false;
    }
    if (!val_get_i64(v, out)) {
        rt_error(I, DIAG_LIMIT, loc, "%s is too large", what);
        return false;
    }
    return true;
}

/* r.name on a record; a missing field is an error that lists the fields. */
static Value *field_value(Interp *I, Value *c, const char *name, Loc loc)
{
    if (c->kind != VAL_MAP)
        return rt_error(I, DIAG_TYPE, loc, "cannot read field '%s' of a value of type %s", name,
                        val_kind_name(c));
    Value *v = val_map_get(c, name);
    if (v)
        return val_ref(v);
    StrBuf keys;
    sb_init(&keys);
    for (size_t i = 0; i < c->u.map.len && i < 12; i++)
        sb_printf(&keys, "%s%s", i ? ", " : "", c->u.map.keys[i]);
    if (c->u.map.len > 12)
        sb_puts(&keys, ", ...");
    rt_error(I, DIAG_DOMAIN, loc, "the record has no field '%s'", name);
    if (c->u.map.len)
        rt_hint(I, "its fields are: %s", keys.s);
    else
        rt_hint(I, "the record is empty");
    sb_free(&keys);
    return NULL;
}

/* The number of items of a list, string or range (uint64: a range may
 * hold up to 2^64 integers); false for any other value. */
static bool seq_count(const Value *c, uint64_t *n)
{
    if (c->kind == VAL_LIST)
        *n = c->u.list.len;
    else if (c->kind == VAL_STR)
        *n = c->u.str.len;
    else if (c->kind == VAL_RANGE)
        *n = val_range_count(c);
    else
        return false;
    return true;
}

/* l[a..b]: the items a to b inclusive, as ranges are; negative bounds
 * count from the end; bounds beyond the ends are cut to them, so the
 * slice may be empty.  Lists give lists, strings strings, ranges ranges. */
static Value *slice_value(Interp *I, Value *c, const Value *r, Loc loc)
{
    uint64_t n;
    if (!seq_count(c, &n))
        return rt_error(I, DIAG_TYPE, loc, "cannot slice a value of type %s", val_kind_name(c));
    if (n >= (uint64_t)INT64_MAX)
        return rt_error(I, DIAG_LIMIT, loc, "range too long to slice");
    int64_t len = (int64_t)n, lo = r->u.range.lo, hi = r->u.range.hi;
    /* from the end: -1 is the last item (no overflow: len < INT64_MAX) */
    if (lo < 0)
        lo = lo < -len ? 0 : len + lo;
    if (hi < 0)
        hi = hi < -len ? -1 : len + hi;
    if (hi >= len)
        hi = len - 1;
    if (c->kind == VAL_LIST) {
        Value *l = val_list();
        for (int64_t i = lo; i <= hi; i++)
            val_list_push(l, val_ref(c->u.list.items[i]));
        return l;
    }
    if (c->kind == VAL_STR)
        return lo > hi ? val_str("") : val_str_n(c->u.str.s + lo, (size_t)(hi - lo + 1));
    if (lo > hi)
        return val_range(1, 0);
    return val_range(val_range_at(c, (uint64_t)lo), val_range_at(c, (uint64_t)hi));
}

static Value *index_value(Interp *I, Value *c, Value *idx, Loc loc)
{
    if (idx->kind == VAL_RANGE && c->kind != VAL_MAP)
        return slice_value(I, c, idx, loc);
    if (c->kind == VAL_MAP) {
        if (idx->kind != VAL_STR)
            return rt_error(I, DIAG_TYPE, loc, "a record is indexed by a string key, not a %s",
                            val_kind_name(idx));
        Value *v = val_map_get(c, idx->u.str.s);
        if (!v)
            return rt_error(I, DIAG_DOMAIN, loc, "the record has no key \"%s\"", idx->u.str.s);
        return val_ref(v);
    }
    int64_t i;
    if (!to_i64(I, idx, loc, "an index", &i))
        return NULL;
    /* lengths and offsets in uint64: a range may hold up to 2^64 integers */
    uint64_t n;
    if (!seq_count(c, &n))
        return rt_error(I, DIAG_TYPE, loc, "cannot index a %s", val_kind_name(c));
    uint64_t back = i < 0 ? (uint64_t)(-(i + 1)) + 1 : 0; /* |i| without overflow */
    bool ok = i < 0 ? back <= n : (uint64_t)i < n;
    if (!ok) {
        StrBuf len;
        sb_init(&len);
        if (c->kind == VAL_RANGE) {
            mpz_t z;
            mpz_init(z);
            val_range_len_mpz(c, z);
            char *d = mpz_get_str(NULL, 10, z);
            sb_puts(&len, d);
            free(d);
            mpz_clear(z);
        } else {
            sb_printf(&len, "%llu", (unsigned long long)n);
        }
        rt_error(I, DIAG_DOMAIN, loc, "index %lld out of range for a %s of length %s",
                 (long long)i, val_kind_name(c), len.s);
        sb_free(&len);
        rt_hint(I, "indices start at 0; negative indices count from the end");
        return NULL;
    }
    /* n - back, counted from the last index so that a range of 2^64
       integers (n saturated) is exact too */
    uint64_t last = c->kind == VAL_RANGE ? (uint64_t)c->u.range.hi - (uint64_t)c->u.range.lo
                                         : n - 1;
    uint64_t j = i < 0 ? last - (back - 1) : (uint64_t)i;
    if (c->kind == VAL_LIST)
        return val_ref(c->u.list.items[j]);
    if (c->kind == VAL_STR)
        return val_str_n(c->u.str.s + j, 1);
    return val_int(val_range_at(c, j));
}

/* Evaluate kids[0] and kids[1] of e into *a and *b (both owned); on an
 * error nothing is left allocated and false is returned. */
static bool eval_pair(Interp *I, const AstNode *e, Value **a, Value **b)
{
    *a = rt_eval(I, e->kids[0]);
    if (!*a)
        return false;
    *b = rt_eval(I, e->kids[1]);
    if (!*b) {
        val_unref(*a);
        return false;
    }
    return true;
}

/* 6 MB: safe on a default 8 MB main-thread stack when main could not
 * start the large-stack interpreter thread. */
static size_t stack_budget = (size_t)6 << 20;

void interp_set_stack_budget(size_t bytes)
{
    stack_budget = bytes;
}

/* True (with the error recorded) when the C stack budget is used up:
 * recursion times expression depth may exceed it although each is bounded
 * (issue 14 F14). */
static bool stack_exhausted(Interp *I, Loc loc)
{
    if ((uintptr_t)__builtin_frame_address(0) >= I->stack_floor)
        return false;
    rt_error(I, DIAG_LIMIT, loc, "evaluation nested too deeply (%zu MB of stack used)",
             stack_budget >> 20);
    rt_hint(I, "deep recursion over deeply nested expressions; rewrite with a loop");
    return true;
}

/* [EXPR for NAME in ITERABLE if COND]: NAME is assigned as a for loop
 * assigns it; ITERABLE is a range, list, string or record (its keys). */
static Value *eval_comprehension(Interp *I, const AstNode *e)
{
    Value *it = rt_eval(I, e->kids[1]);
    if (!it)
        return NULL;
    uint64_t n;
    if (it->kind == VAL_RANGE)
        n = val_range_count(it);
    else if (it->kind == VAL_LIST)
        n = it->u.list.len;
    else if (it->kind == VAL_STR)
        n = it->u.str.len;
    else if (it->kind == VAL_MAP)
        n = it->u.map.len;
    else {
        rt_error(I, DIAG_TYPE, e->kids[1]->loc, "cannot iterate over a %s", val_kind_name(it));
        val_unref(it);
        return NULL;
    }
    Value *out = val_list();
    const AstNode *cond = e->nkids > 2 ? e->kids[2] : NULL;
    for (uint64_t i = 0; i < n; i++) {
        Value *x = it->kind == VAL_RANGE  ? val_int(val_range_at(it, i))
                   : it->kind == VAL_LIST ? val_ref(it->u.list.items[i])
                   : it->kind == VAL_STR  ? val_str_n(it->u.str.s + i, 1)
                                          : val_str(it->u.map.keys[i]);
        assign(I, e->text, x);
        if (cond) {
            Value *c = rt_eval(I, cond);
            if (!c)
                goto fail;
            bool t = val_truthy(c);
            val_unref(c);
            if (!t)
                continue;
        }
        Value *v = rt_eval(I, e->kids[0]);
        if (!v)
            goto fail;
        val_list_push(out, v);
        if (poll_status(I, e->loc) != EX_OK)
            goto fail;
    }
    val_unref(it);
    return out;
fail:
    val_unref(it);
    val_unref(out);
    return NULL;
}

Value *rt_eval(Interp *I, const AstNode *e)
{
    if (stack_exhausted(I, e->loc))
        return NULL;
    switch (e->kind) {
    case AST_INT:
        return val_int_str(e->text);
    case AST_CODE:
    case AST_STR:
        return val_str(e->text);
    case AST_BOOL:
        return val_bool(e->op != 0);
    case AST_NULL:
        return val_null();
    case AST_IDENT: {
        Value *v = lookup(I, e->text);
        if (!v)
            return undefined_name(I, e);
        return val_ref(v);
    }
    case AST_LIST:
    case AST_SET: {
        Value *l = val_list();
        for (size_t i = 0; i < e->nkids; i++) {
            Value *x = rt_eval(I, e->kids[i]);
            if (!x) {
                val_unref(l);
                return NULL;
            }
            val_list_push(l, x);
        }
        return l;
    }
    case AST_RANGE: {
        Value *a, *b;
        if (!eval_pair(I, e, &a, &b))
            return NULL;
        int64_t lo = 0, hi = 0;
        bool ok = to_i64(I, a, e->kids[0]->loc, "a range bound", &lo) &&
                  to_i64(I, b, e->kids[1]->loc, "a range bound", &hi);
        val_unref(a);
        val_unref(b);
        return ok ? val_range(lo, hi) : NULL;
    }
    case AST_BINOP: {
        Value *a, *b;
        if (!eval_pair(I, e, &a, &b))
            return NULL;
        Value *r = binop(I, e->op, a, b, e->loc);
        val_unref(a);
        val_unref(b);
        return r;
    }
    case AST_UNOP: {
        Value *a = rt_eval(I, e->kids[0]);
        if (!a)
            return NULL;
        Value *r;
        if (e->op == '!') {
            r = val_bool(!val_truthy(a));
        } else if (a->kind == VAL_INT) {
            Value *zero = val_int(0);
            r = int_arith(I, '-', zero, a, e->loc);
            val_unref(zero);
        } else {
            r = rt_error(I, DIAG_TYPE, e->loc, "cannot negate a %s", val_kind_name(a));
        }
        val_unref(a);
        return r;
    }
    case AST_AND:
    case AST_OR: {
        Value *a = rt_eval(I, e->kids[0]);
        if (!a)
            return NULL;
        bool t = val_truthy(a);
        val_unref(a);
        if (e->kind == AST_AND ? !t : t)
            return val_bool(t);
        Value *b = rt_eval(I, e->kids[1]);
        if (!b)
            return NULL;
        t = val_truthy(b);
        val_unref(b);
        return val_bool(t);
    }
    case AST_MAP: {
        Value *m = val_map();
        for (size_t i = 0; i + 1 < e->nkids; i += 2) {
            Value *x = rt_eval(I, e->kids[i + 1]);
            if (!x) {
                val_unref(m);
                return NULL;
            }
            val_map_set(m, e->kids[i]->text, x);
        }
        return m;
    }
    case AST_COMP:
        return eval_comprehension(I, e);
    case AST_FIELD: {
        Value *c = rt_eval(I, e->kids[0]);
        if (!c)
            return NULL;
        Value *r = field_value(I, c, e->text, e->loc);
        val_unref(c);
        return r;
    }
    case AST_INDEX: {
        Value *c, *i;
        if (!eval_pair(I, e, &c, &i))
            return NULL;
        Value *r = index_value(I, c, i, e->kids[1]->loc);
        val_unref(c);
        val_unref(i);
        return r;
    }
    case AST_CALL:
        return call_function(I, e);
    case AST_STAR:
        return impgame_eval_star(I, e);
    case AST_GAME:
        return impgame_eval_literal(I, e);
    case AST_RULES:
    case AST_SEQ:
    case AST_PRES:
        return rt_error(I, DIAG_TYPE, e->loc, "a %s is not a value here", ast_kind_name(e->kind));
    default:
        return rt_error(I, DIAG_INTERNAL, e->loc, "cannot evaluate a %s node",
                        ast_kind_name(e->kind));
    }
}

/* ---- builtin dispatch ---- */

typedef struct SpecItem {
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
            c->opt_names[c->nopts] = c->bi->spec ? strstr(c->bi->spec, spec[i].name) : "";
            c->opts[c->nopts] = NULL;
            c->opt_locs[c->nopts] = c->loc;
            c->nopts++;
        }
    size_t pos = 0;
    for (size_t i = 0; i < nargs; i++) {
        const AstNode *a = args[i];
        /* a statement name at the start of a later line is the next
           statement, not an argument: a ';' is missing (issue 15) */
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
    CgtStatus st = cgt_poll();
    if (st == CGT_ERR_INTERRUPTED)
        return rt_error(c->I, DIAG_INTERRUPTED, c->loc, "interrupted");
    /* --stats: CPU, wall time and peak memory of every module statement
       (period, grundy, genus, outcome, kb, mnk, gp, ...); quotient prints
       its own phases and counters */
    bool stats = c->I->stats && strcmp(c->bi->module, "core") != 0 &&
                 strcmp(c->bi->name, "quotient") != 0 && c->bi->flags != BI_DECL;
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
    return r;
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
    const char *s = builtin_suggest(name);
    if (s)
        rt_hint(I, "did you mean '%s'?", s);
    else
        rt_hint(I, "'help' lists the statements and functions");
    return NULL;
}

static __attribute__((noinline)) Value *run_command(Interp *I, const AstNode *cmd, bool stmt,
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
static void trace_flush_repeats(Interp *I)
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
    trace_flush_repeats(I);
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
    ExecStatus st = exec_block(I, def->kids[1], &ret);
    I->depth--;
    I->locals = saved;
    env_free(frame);
    if (st == EX_ERR) {
        char where[256], line[320];
        diag_where(loc, where, sizeof where);
        snprintf(line, sizeof line, "  in %s() called at %s\n", def->text, where);
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
        return false;
    }
    if (I->depth >= MAX_CALL_DEPTH) {
        rt_error(I, DIAG_LIMIT, loc, "recursion deeper than %d calls", MAX_CALL_DEPTH);
        rt_hint(I, "is there a missing base case?");
        return false;
    }
    /* every call polls: a loop-free recursion must still stop on Ctrl-C
       and --timeout (issue 14 F15) */
    return poll_status(I, loc) == EX_OK;
}

static Value *call_user(Interp *I, const AstNode *call, Value *fv)
{
    const AstNode *def = fv->u.fn.def;
    const AstNode *params = def->kids[0];
    if (!user_call_ok(I, def, call->nkids, call->loc))
        return NULL;
    Env *frame = env_new();
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
        return rt_error(I, DIAG_TYPE, loc, "a %s is not a function", val_kind_name(fv));
    const AstNode *def = fv->u.fn.def;
    if (!user_call_ok(I, def, nargs, loc))
        return NULL;
    Env *frame = env_new();
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
            rt_error(c->I, DIAG_TYPE, key->loc, "'%s' has no option '%s'", c->bi->name,
                     key->text);
            set_usage_hint(c);
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

/* The builtin half of a call, kept out of call_function so that user
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
                c.opt_names[c.nopts] = strstr(b->spec, spec[i].name);
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


static Value *call_function(Interp *I, const AstNode *call)
{
    Value *fv = lookup(I, call->text);
    if (fv && fv->kind == VAL_FUNC)
        return call_user(I, call, fv);
    if (fv) {
        const Builtin *b = builtin_find(call->text);
        if (!b && val_is_obj(fv, &game_type) && call->nkids == 1) {
            /* G(n): heap n of a heap game as an explicit game */
            Value *n = rt_eval(I, call->kids[0]);
            if (!n)
                return NULL;
            Value *r = impgame_heap(I, fv, n, call->loc);
            val_unref(n);
            return r;
        }
        if (!b || !(b->flags & BI_FUNC))
            return rt_error(I, DIAG_TYPE, call->loc, "'%s' is a %s, not a function", call->text,
                            val_kind_name(fv));
    }
    const Builtin *b = find_builtin_or_error(I, call->text, call->loc, BI_FUNC);
    if (!b)
        return NULL;
    return call_builtin(I, call, b);
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

/* ---- statements ---- */

static ExecStatus poll_status(Interp *I, Loc loc)
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
 * of the claim must run exactly once (issue 14 F13). */
static Value *eval_claim(Interp *I, const AstNode *cond, Value *side[2])
{
    side[0] = side[1] = NULL;
    if (cond->kind != AST_BINOP)
        return rt_eval(I, cond);
    if (!eval_pair(I, cond, &side[0], &side[1]))
        return NULL;
    Value *r = binop(I, cond->op, side[0], side[1], cond->loc);
    if (!r) {
        val_unref(side[0]);
        val_unref(side[1]);
        side[0] = side[1] = NULL;
    }
    return r;
}

static void report_check(Interp *I, const AstNode *cond, const char *var, const Value *varval,
                         Value *side[2])
{
    char *src = diag_source_text(cond->loc);
    StrBuf msg, detail;
    sb_init(&msg);
    sb_init(&detail);
    if (var) {
        sb_printf(&msg, "check failed for %s = ", var);
        val_format(varval, &msg, false);
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
        val_format(side[k], &detail, false);
        sb_putc(&detail, '\n');
        free(ks);
    }
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
        rt_error(I, DIAG_TYPE, f->kids[0]->loc, "cannot iterate over a %s", val_kind_name(it));
        val_unref(it);
        return EX_ERR;
    }
    for (uint64_t i = 0; i < n; i++) {
        Value *x = it->kind == VAL_LIST ? val_ref(it->u.list.items[i])
                                        : val_int(val_range_at(it, i));
        assign(I, f->text, val_ref(x));
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
        if ((st = poll_status(I, s->loc)) != EX_OK)
            break;
    }
    val_unref(it);
    return st;
}

static ExecStatus exec_stmt(Interp *I, const AstNode *s, Value **ret);

/* Run one iteration of a loop body; true when the loop must stop (break,
 * return, error, interrupt), with *st the status to pass on. */
static bool loop_step(Interp *I, const AstNode *s, Value **ret, ExecStatus *st)
{
    *st = exec_block(I, s->kids[1], ret);
    if (*st == EX_BREAK) {
        *st = EX_OK;
        return true;
    }
    if (*st == EX_CONTINUE)
        *st = EX_OK;
    if (*st != EX_OK)
        return true;
    *st = poll_status(I, s->loc);
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
            assign(I, s->text, val_int(x));
            if (loop_step(I, s, ret, &st))
                break;
            if (x == INT64_MAX)
                break;
        }
    } else if (it->kind == VAL_LIST || it->kind == VAL_STR) {
        size_t n = it->kind == VAL_LIST ? it->u.list.len : it->u.str.len;
        for (size_t i = 0; i < n; i++) {
            assign(I, s->text, it->kind == VAL_LIST ? val_ref(it->u.list.items[i])
                                                    : val_str_n(it->u.str.s + i, 1));
            if (loop_step(I, s, ret, &st))
                break;
        }
    } else if (it->kind == VAL_MAP) {
        /* a record iterates over its keys, in order (the loop may not change it) */
        for (size_t i = 0; i < it->u.map.len; i++) {
            assign(I, s->text, val_str(it->u.map.keys[i]));
            if (loop_step(I, s, ret, &st))
                break;
        }
    } else {
        rt_error(I, DIAG_TYPE, s->kids[0]->loc, "cannot iterate over a %s", val_kind_name(it));
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
    ExecStatus st = exec_block(I, s->kids[0], ret);
    if (st != EX_ERR || I->err_fatal)
        return st;
    assign(I, s->text, take_error(I));
    return exec_block(I, s->kids[1], ret);
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
        val_format(v, &b, false);
        rt_error(I, v->kind == VAL_INT || v->kind == VAL_STR ? DIAG_DOMAIN : DIAG_TYPE, e->loc,
                 "the seconds of a timeout block must be a number in 0..1e9 above 0, got %s",
                 b.s);
        sb_free(&b);
    }
    val_unref(v);
    return ok;
}

/* timeout S { BODY }: BODY runs with a CPU-time deadline S seconds away
 * (util/poll.h); reaching it is a limit error that try can catch. */
static ExecStatus exec_timeout(Interp *I, const AstNode *s, Value **ret)
{
    double secs;
    if (!timeout_seconds(I, s->kids[0], &secs))
        return EX_ERR;
    CgtBlockDeadline saved = cgt_block_timeout_push(secs);
    ExecStatus st = exec_block(I, s->kids[1], ret);
    cgt_block_timeout_pop(saved);
    return st;
}

static ExecStatus exec_stmt(Interp *I, const AstNode *s, Value **ret)
{
    if (stack_exhausted(I, s->loc))
        return EX_ERR;
    switch (s->kind) {
    case AST_EXPR: {
        const AstNode *e = s->kids[0];
        /* a bare name that is no variable but a statement: `help;` */
        if (e->kind == AST_IDENT && !lookup(I, e->text)) {
            const Builtin *b = builtin_find(e->text);
            if (b && (b->flags & BI_CMD)) {
                AstNode cmd = *e;
                cmd.kind = AST_CMD;
                cmd.nkids = 0;
                Value *r = run_command(I, &cmd, true, NULL);
                if (!r)
                    return EX_ERR;
                if (r->kind != VAL_NULL)
                    rt_print_value(I, r);
                val_unref(r);
                return EX_OK;
            }
        }
        Value *v = rt_eval(I, e);
        if (!v)
            return EX_ERR;
        /* expression statements print their value in the REPL only */
        if (I->repl && v->kind != VAL_NULL)
            rt_print_value(I, v);
        val_unref(v);
        return EX_OK;
    }
    case AST_ASSIGN: {
        Value *old = NULL;
        if (s->op) {
            /* x += e: x must exist; then x = x + e */
            old = lookup(I, s->text);
            if (!old) {
                AstNode id = *s;
                id.kind = AST_IDENT;
                undefined_name(I, &id);
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
            Value *r = binop(I, s->op, old, v, s->loc);
            val_unref(old);
            val_unref(v);
            if (!r)
                return EX_ERR;
            v = r;
        }
        assign(I, s->text, v);
        return EX_OK;
    }
    case AST_CMD: {
        Value *r = run_command(I, s, true, NULL);
        if (!r)
            return EX_ERR;
        if (r->kind != VAL_NULL)
            rt_print_value(I, r);
        val_unref(r);
        return EX_OK;
    }
    case AST_DECL: {
        Value *r = run_command(I, s->kids[0], false, s->text);
        if (!r) {
            if (I->partial)
                assign(I, s->text, I->partial);
            I->partial = NULL;
            return EX_ERR;
        }
        assign(I, s->text, r);
        return EX_OK;
    }
    case AST_PRINT: {
        if (I->format == FMT_JSON) {
            for (size_t i = 0; i < s->nkids; i++) {
                Value *v = rt_eval(I, s->kids[i]);
                if (!v)
                    return EX_ERR;
                rt_print_value(I, v);
                val_unref(v);
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
            val_format(v, &b, true);
            val_unref(v);
        }
        if (b.len == 0 || b.s[b.len - 1] != '\n')
            sb_putc(&b, '\n');
        put_stdout(b.s);
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
            return exec_block(I, s->kids[1], ret);
        if (s->nkids > 2 && s->kids[2])
            return s->kids[2]->kind == AST_IF ? exec_stmt(I, s->kids[2], ret)
                                              : exec_block(I, s->kids[2], ret);
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
        assign(I, s->text, val_func(s));
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
        return exec_block(I, s, ret);
    default:
        rt_error(I, DIAG_INTERNAL, s->loc, "cannot execute a %s node", ast_kind_name(s->kind));
        return EX_ERR;
    }
}

static ExecStatus exec_block(Interp *I, const AstNode *b, Value **ret)
{
    for (size_t i = 0; i < b->nkids; i++) {
        ExecStatus st = exec_stmt(I, b->kids[i], ret);
        if (st != EX_OK)
            return st;
    }
    return EX_OK;
}

bool rt_stdout_failed(int *err_no)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return false;
    if (!stdout_errno)
        stdout_errno = errno ? errno : EIO;
    *err_no = stdout_errno;
    return true;
}

int interp_run(Interp *I, const AstNode *block)
{
    if (!I->stack_floor) {
        uintptr_t here = (uintptr_t)__builtin_frame_address(0);
        I->stack_floor = here > stack_budget ? here - stack_budget : 1;
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
        if (poll_status(I, block->kids[i]->loc) != EX_OK)
            return interp_report(I);
    }
    return 0;
}
