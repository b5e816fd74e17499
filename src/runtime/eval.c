/* The tree-walking evaluator: interpreter state and errors, output,
 * variables, integer arithmetic and expressions.  Calls and the builtin
 * dispatcher are in eval_call.c, statements in eval_stmt.c (the three
 * share src/runtime/eval_int.h). */
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


/* ---- interpreter state and errors ---- */

static void warning_sink(const char *line)
{
    cgt_progress_end();
    fflush(stdout);
    fprintf(stderr, "cgt: warning: %s\n", line);
}

Interp *interp_new(const Module *const *modules)
{
    builtin_register(modules);
    Interp *I = xcalloc(1, sizeof *I);
    I->modules = modules;
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
    for (size_t m = 0; I->modules && I->modules[m]; m++)
        if (I->modules[m]->release)
            I->modules[m]->release();
    sb_free(&I->trace);
    free(I);
}

bool rt_json(const Interp *I)
{
    return I->format == FMT_JSON;
}

bool rt_failed(const Interp *I)
{
    return I->failed;
}

bool rt_stats(const Interp *I)
{
    return I->stats;
}

bool rt_seed(const Interp *I, uint64_t *seed)
{
    *seed = I->seed;
    return I->seed_set;
}

Value *rt_partial(const Interp *I)
{
    return I->partial;
}

void rt_set_partial(Interp *I, Value *v)
{
    if (v == I->partial)
        return;
    val_unref(I->partial);
    I->partial = v;
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
    int rc = diag_exit_code(I->err_cat);
    if (I->err_cat == DIAG_INTERRUPTED && cgt_interrupt_signal != 0)
        rc = 128 + cgt_interrupt_signal;
    interp_json_error(I, I->err_cat, &I->err_loc, msg, I->err_hint, I->partial, rc);
    fflush(stdout);
    ev_trace_flush_repeats(I);
    diag_print(stderr, "error", I->err_loc, msg, I->err_hint, I->trace.s, I->color_err);
    val_unref(I->partial); /* a partial result no declaration took */
    I->partial = NULL;
    I->failed = false;
    I->trace.len = 0;
    I->trace.s[0] = '\0';
    return diag_exit_code(I->err_cat);
}

void interp_json_error(Interp *I, DiagCat cat, const Loc *loc, const char *msg,
                       const char *hint, const Value *partial, int exit_code)
{
    if (I->format != FMT_JSON)
        return;
    StrBuf b;
    sb_init(&b);
    JsonWriter w;
    jw_init(&w, &b);
    jw_obj_begin(&w);
    jw_kv_str(&w, "kind", "error");
    jw_kv_str(&w, "category", diag_cat_name(cat));
    jw_kv_str(&w, "message", msg);
    jw_key(&w, "hint");
    if (hint && hint[0])
        jw_str(&w, hint);
    else
        jw_null(&w);
    jw_key(&w, "location");
    unsigned line, col;
    const char *file = loc ? diag_line_col(*loc, &line, &col) : NULL;
    if (file && line > 0) {
        jw_obj_begin(&w);
        jw_kv_str(&w, "file", file);
        jw_kv_int(&w, "line", line);
        jw_kv_int(&w, "col", col);
        jw_obj_end(&w);
    } else {
        jw_null(&w);
    }
    jw_kv_int(&w, "exit", exit_code);
    jw_key(&w, "partial");
    if (partial && partial->kind != VAL_NULL)
        val_json(partial, &w, true);
    else
        jw_null(&w);
    jw_obj_end(&w);
    sb_putc(&b, '\n');
    cgt_progress_end();
    ev_put_stdout(b.s);
    sb_free(&b);
    fflush(stdout);
}

/* ---- output ---- */

/* errno of the first failed write to stdout (0 = none yet) */
static int stdout_errno;

void ev_put_stdout(const char *text)
{
    errno = 0;
    if (fputs(text, stdout) == EOF && !stdout_errno)
        stdout_errno = errno ? errno : EIO;
}


static void rt_out(Interp *I, const char *text)
{
    (void)I;
    cgt_progress_end();
    ev_put_stdout(text);
}

void rt_emit(Interp *I, StrBuf *b)
{
    rt_out(I, b->s);
    sb_free(b);
}

bool rt_print_value(Interp *I, const Value *v, Loc loc)
{
    StrBuf b;
    sb_init(&b);
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st;
    if (I->format == FMT_JSON) {
        JsonWriter w;
        jw_init(&w, &b);
        st = val_json_checked(v, &w, true, VAL_TEXT_MAX, &err);
        sb_putc(&b, '\n');
    } else if (rt_result_printer(NULL, v)) {
        rt_result_printer(NULL, v)(NULL, v, &b);
        st = CGT_OK;
    } else {
        st = val_format_checked(v, &b, true, VAL_TEXT_MAX, &err);
        if (b.len == 0 || b.s[b.len - 1] != '\n')
            sb_putc(&b, '\n');
    }
    if (st != CGT_OK) {
        sb_free(&b);
        rt_error_from(I, loc, &err);
        return false;
    }
    ev_put_stdout(b.s);
    sb_free(&b);
    return true;
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

/* ---- variables ---- */

Value *ev_lookup(Interp *I, const char *name)
{
    Value *v = NULL;
    if (I->locals)
        v = env_get(I->locals, name);
    if (!v)
        v = env_get(I->globals, name);
    return v;
}

void ev_assign(Interp *I, const char *name, Value *v)
{
    env_set(I->locals ? I->locals : I->globals, name, v);
}

Value *ev_undefined_name(Interp *I, const AstNode *e)
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
        case OP_XOR:
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
        /* the same cap as ^, so that x*x*... cannot grow without bound */
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
    case OP_XOR:
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
    case OP_EQ:
        return "==";
    case OP_NE:
        return "!=";
    case OP_LE:
        return "<=";
    case OP_GE:
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
    case OP_XOR:
        return "xor";
    }
    return "?";
}

Value *ev_binop(Interp *I, int op, Value *a, Value *b, Loc loc)
{
    const ObjType *t = a->kind == VAL_OBJ && a->u.obj.type->binop   ? a->u.obj.type
                       : b->kind == VAL_OBJ && b->u.obj.type->binop ? b->u.obj.type
                                                                    : NULL;
    if (t)
        return t->binop(I, op, a, b, loc);
    if (op == OP_EQ || op == OP_NE) {
        bool eq;
        CgtError err;
        cgt_error_clear(&err);
        if (val_equal_checked(a, b, &eq, &err) != CGT_OK)
            return rt_error_from(I, loc, &err);
        return val_bool(op == OP_EQ ? eq : !eq);
    }
    if (op == '<' || op == '>' || op == OP_LE || op == OP_GE) {
        int c;
        if (a->kind == VAL_INT && b->kind == VAL_INT)
            c = int_cmp(a, b);
        else if (a->kind == VAL_STR && b->kind == VAL_STR)
            c = strcmp(a->u.str.s, b->u.str.s);
        else
            return rt_error(I, DIAG_TYPE, loc, "cannot compare %s with %s using %s",
                            val_kind_name(a), val_kind_name(b), op_name(op));
        bool r = op == '<' ? c < 0 : op == '>' ? c > 0 : op == OP_LE ? c <= 0 : c >= 0;
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
            return rt_error(I, DIAG_TYPE, loc, "a record is indexed by a string key, not %s %s",
                            val_article(val_kind_name(idx)), val_kind_name(idx));
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
        return rt_error(I, DIAG_TYPE, loc, "cannot index %s %s", val_article(val_kind_name(c)), val_kind_name(c));
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
        rt_error(I, DIAG_DOMAIN, loc, "index %lld out of range for %s %s of length %s",
                 (long long)i, val_article(val_kind_name(c)), val_kind_name(c), len.s);
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
bool ev_eval_pair(Interp *I, const AstNode *e, Value **a, Value **b)
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
size_t ev_stack_budget = (size_t)6 << 20;

void interp_set_stack_budget(size_t bytes)
{
    ev_stack_budget = bytes;
}

/* True (with the error recorded) when the C stack budget is used up:
 * recursion times expression depth may exceed it although each is bounded. */
bool ev_stack_exhausted(Interp *I, Loc loc)
{
    if ((uintptr_t)__builtin_frame_address(0) >= I->stack_floor)
        return false;
    rt_error(I, DIAG_LIMIT, loc, "evaluation nested too deeply (%zu MB of stack used)",
             ev_stack_budget >> 20);
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
        rt_error(I, DIAG_TYPE, e->kids[1]->loc, "cannot iterate over %s %s", val_article(val_kind_name(it)), val_kind_name(it));
        val_unref(it);
        return NULL;
    }
    Value *out = val_list();
    const AstNode *cond = e->nkids > 2 ? e->kids[2] : NULL;
    for (uint64_t i = 0; i < n; i++) {
        /* every item polls, also one the filter drops */
        if (ev_poll_status(I, e->loc) != EX_OK)
            goto fail;
        Value *x = it->kind == VAL_RANGE  ? val_int(val_range_at(it, i))
                   : it->kind == VAL_LIST ? val_ref(it->u.list.items[i])
                   : it->kind == VAL_STR  ? val_str_n(it->u.str.s + i, 1)
                                          : val_str(it->u.map.keys[i]);
        ev_assign(I, e->text, x);
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
    if (ev_stack_exhausted(I, e->loc))
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
        Value *v = ev_lookup(I, e->text);
        if (!v)
            return ev_undefined_name(I, e);
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
        if (!ev_eval_pair(I, e, &a, &b))
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
        if (!ev_eval_pair(I, e, &a, &b))
            return NULL;
        Value *r = ev_binop(I, e->op, a, b, e->loc);
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
            r = rt_error(I, DIAG_TYPE, e->loc, "cannot negate %s %s", val_article(val_kind_name(a)), val_kind_name(a));
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
        if (!ev_eval_pair(I, e, &c, &i))
            return NULL;
        Value *r = index_value(I, c, i, e->kids[1]->loc);
        val_unref(c);
        val_unref(i);
        return r;
    }
    case AST_CALL:
        return ev_call_function(I, e);
    case AST_APPLY:
        return ev_apply(I, e);
    case AST_FN: {
        /* (x) -> e: captures the values of the enclosing function's locals
           as they are now; globals are read when it runs, as by fn */
        Value *cap = NULL;
        if (I->locals) {
            const char **names;
            size_t n = env_names(I->locals, &names);
            cap = val_map();
            for (size_t i = 0; i < n; i++)
                val_map_set(cap, names[i], val_ref(env_get(I->locals, names[i])));
            free(names);
        }
        return val_closure(e, cap);
    }
    case AST_STAR:
    case AST_GAME:
        /* game literals: the module that gives them a meaning */
        for (size_t m = 0; I->modules && I->modules[m]; m++)
            if (I->modules[m]->literal)
                return I->modules[m]->literal(I, e);
        return rt_error(I, DIAG_NAME, e->loc, "no module of this program reads game literals");
    case AST_RULES:
    case AST_SEQ:
    case AST_PRES:
        return rt_error(I, DIAG_TYPE, e->loc, "a %s is not a value here", ast_kind_name(e->kind));
    default:
        return rt_error(I, DIAG_INTERNAL, e->loc, "cannot evaluate a %s node",
                        ast_kind_name(e->kind));
    }
}


/* ---- item and field assignment ---- */

/* One step of a target x[i].k[j]: an index (key evaluated) or a field. */
typedef struct Step {
    const AstNode *node; /* AST_INDEX or AST_FIELD */
    Value *key;          /* the index or key of an AST_INDEX */
} Step;

static Loc step_loc(const Step *st)
{
    return st->node->kind == AST_FIELD ? st->node->loc : st->node->kids[1]->loc;
}

/* The item of c (a container no one else holds, so that it may change)
 * that st names.  A record key that is not there is *newkey when it is
 * the last step (the assignment adds it); any other failure is an error.
 * NULL in both cases. */
static Value **item_slot(Interp *I, Value *c, const Step *st, bool last, const char **newkey)
{
    Loc loc = step_loc(st);
    const char *key = NULL;
    if (st->node->kind == AST_FIELD) {
        key = st->node->text;
        if (c->kind != VAL_MAP) {
            rt_error(I, DIAG_TYPE, loc, "cannot set field '%s' of %s %s", key,
                     val_article(val_kind_name(c)), val_kind_name(c));
            rt_hint(I, "fields belong to records, written {name: value, ...}");
            return NULL;
        }
    } else if (c->kind == VAL_MAP) {
        if (st->key->kind != VAL_STR) {
            rt_error(I, DIAG_TYPE, loc, "a record is indexed by a string key, not %s %s",
                     val_article(val_kind_name(st->key)), val_kind_name(st->key));
            return NULL;
        }
        key = st->key->u.str.s;
    }
    if (key) {
        for (size_t i = 0; i < c->u.map.len; i++)
            if (strcmp(c->u.map.keys[i], key) == 0)
                return &c->u.map.vals[i];
        if (last) {
            *newkey = key;
            return NULL;
        }
        field_value(I, c, key, loc);
        return NULL;
    }
    if (c->kind == VAL_LIST) {
        if (st->key->kind == VAL_RANGE) {
            rt_error(I, DIAG_TYPE, loc, "cannot assign to a slice");
            rt_hint(I, "assign the items one at a time, or build the list with slices and +");
            return NULL;
        }
        Value *cur = index_value(I, c, st->key, loc);
        if (!cur) {
            if (I->err_cat == DIAG_DOMAIN)
                rt_hint(I, "an item assignment replaces an item; add one with append(l, x) "
                           "or l + [x]");
            return NULL;
        }
        val_unref(cur);
        int64_t i = 0;
        val_get_i64(st->key, &i);
        size_t j = i < 0 ? c->u.list.len - (size_t)(-(i + 1)) - 1 : (size_t)i;
        return &c->u.list.items[j];
    }
    const char *kind = val_kind_name(c);
    rt_error(I, DIAG_TYPE, loc, "cannot assign to an item of %s %s", val_article(kind), kind);
    if (c->kind == VAL_STR)
        rt_hint(I, "strings cannot change; build a new one, e.g. s = s[0..1] + \"x\" + "
                   "s[3..-1]");
    else if (c->kind == VAL_RANGE)
        rt_hint(I, "make it a list first: l = list(r)");
    else if (c->kind != VAL_OBJ)
        rt_hint(I, "items belong to lists and records");
    return NULL;
}

/* x[i] = v, r.k = v, r["k"] = v, nested to any depth, and their op= forms
 * (s->kids[1] is the target, s->text the variable at its root).  Values
 * are copied on write: a list or record that another value or variable
 * also holds is copied (one level, its items shared) before it changes,
 * so the assignment changes the variable alone (docs/language.md). */
bool ev_assign_item(Interp *I, const AstNode *s)
{
    size_t n = 0;
    const AstNode *t = s->kids[1];
    for (; t->kind == AST_INDEX || t->kind == AST_FIELD; t = t->kids[0])
        n++;
    const AstNode *var = t;
    Step *steps = xcalloc(n, sizeof *steps);
    size_t k = n;
    for (t = s->kids[1]; k > 0; t = t->kids[0])
        steps[--k].node = t;
    bool ok = false;
    Value *v = NULL, *root = NULL;
    Env *taken = NULL;
    for (k = 0; k < n; k++)
        if (steps[k].node->kind == AST_INDEX &&
            !(steps[k].key = rt_eval(I, steps[k].node->kids[1])))
            goto out;
    if (!(v = rt_eval(I, s->kids[0])))
        goto out;
    /* the variable: taken out of its frame, so that it is held once when
       no other value holds it; a global assigned inside a function is
       copied into the function's frame, as NAME = ... would bind it there */
    Env *frame = I->locals ? I->locals : I->globals;
    Value *cur = env_get(frame, s->text);
    if (cur) {
        root = val_ref(cur);
        env_set(frame, s->text, val_null());
        taken = frame;
    } else if ((cur = ev_lookup(I, s->text))) {
        root = val_ref(cur);
    } else {
        rt_error(I, DIAG_NAME, var->loc, "undefined variable '%s'", s->text);
        rt_hint(I, "an item or field assignment changes an existing list or record: "
                   "give %s a value first", s->text);
        goto out;
    }
    if (s->op) {
        Value *old = val_ref(root);
        for (k = 0; k < n && old; k++) {
            Value *next = steps[k].node->kind == AST_FIELD
                              ? field_value(I, old, steps[k].node->text, step_loc(&steps[k]))
                              : index_value(I, old, steps[k].key, step_loc(&steps[k]));
            val_unref(old);
            old = next;
        }
        if (!old)
            goto out;
        Value *r = ev_binop(I, s->op, old, v, s->loc);
        val_unref(old);
        val_unref(v);
        if (!(v = r))
            goto out;
    }
    Value **slot = &root;
    for (k = 0; k < n; k++) {
        Value *c = *slot;
        if ((c->kind == VAL_LIST || c->kind == VAL_MAP) && c->refs > 1) {
            Value *copy = val_shallow_copy(c);
            val_unref(c);
            *slot = c = copy;
        }
        const char *newkey = NULL;
        Value **item = item_slot(I, c, &steps[k], k + 1 == n, &newkey);
        if (!item) {
            if (newkey) {
                val_map_set(c, newkey, v);
                v = NULL;
                ok = true;
            }
            break;
        }
        if (k + 1 == n) {
            val_unref(*item);
            *item = v;
            v = NULL;
            ok = true;
            break;
        }
        slot = item;
    }
out:
    if (root && (ok || taken))
        env_set(ok ? (I->locals ? I->locals : I->globals) : taken, s->text, root);
    else
        val_unref(root);
    val_unref(v);
    for (k = 0; k < n; k++)
        val_unref(steps[k].key);
    free(steps);
    return ok;
}
