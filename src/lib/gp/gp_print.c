/* The GP engine's printing (src/lib/gp/gp.c has the overview): functional
 * notation, simplification and simplified infix, and the parser of
 * formulas in functional notation (split from gp.c). */
#include "lib/gp/gp.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/bitgames/bitgames.h"
#include "lib/gp/gp_int.h"
#include "lib/util/hash.h"
#include "lib/util/poll.h"
#include "lib/util/rng.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

/* ---- printing: functional notation and simplified infix */


static __attribute__((format(printf, 2, 3))) void gpi_buf_add(Buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char tmp[64];
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    if ((size_t)n < sizeof tmp) {
        memcpy(b->s + b->len, tmp, (size_t)n + 1);
    } else {
        va_start(ap, fmt);
        vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    b->len += (size_t)n;
}


static Ex *ex_new(int kind, int op, int64_t val, Ex *a, Ex *b)
{
    Ex *e = xmalloc(sizeof *e);
    e->kind = kind;
    e->op = op;
    e->val = val;
    e->a = a;
    e->b = b;
    return e;
}

void gpi_ex_free(Ex *e)
{
    if (!e)
        return;
    gpi_ex_free(e->a);
    gpi_ex_free(e->b);
    free(e);
}

Ex *gpi_ex_from_code(const uint8_t *code, int *pos, int const_min)
{
    uint8_t c = code[(*pos)++];
    if (c >= CODE_CONST)
        return ex_new(EX_CONST, 0, const_min + (int)(c - CODE_CONST), NULL, NULL);
    if (c >= CODE_VAR)
        return ex_new(EX_VAR, c - CODE_VAR, 0, NULL, NULL);
    Ex *a = gpi_ex_from_code(code, pos, const_min);
    Ex *b = gpi_fn_arity[c] == 2 ? gpi_ex_from_code(code, pos, const_min) : NULL;
    return ex_new(EX_FN, c, 0, a, b);
}

int64_t gpi_ex_eval(const Ex *e, const int64_t *x)
{
    if (e->kind == EX_CONST)
        return e->val;
    if (e->kind == EX_VAR)
        return x[e->op];
    int64_t a = gpi_ex_eval(e->a, x), b = e->b ? gpi_ex_eval(e->b, x) : 0;
    return gpi_apply1(e->op, a, b);
}

void gpi_ex_functional(Buf *b, const Ex *e, char *const *names)
{
    if (e->kind == EX_CONST) {
        gpi_buf_add(b, "%lld", (long long)e->val);
    } else if (e->kind == EX_VAR) {
        gpi_buf_add(b, "%s", names[e->op]);
    } else {
        gpi_buf_add(b, "%s(", gpi_fn_names[e->op]);
        gpi_ex_functional(b, e->a, names);
        if (e->b) {
            gpi_buf_add(b, ",");
            gpi_ex_functional(b, e->b, names);
        }
        gpi_buf_add(b, ")");
    }
}

static int ex_equal(const Ex *x, const Ex *y)
{
    if (!x || !y)
        return x == y;
    if (x->kind != y->kind || x->op != y->op || x->val != y->val)
        return 0;
    return ex_equal(x->a, y->a) && ex_equal(x->b, y->b);
}

static int ex_has_var(const Ex *e)
{
    if (!e)
        return 0;
    return e->kind == EX_VAR || ex_has_var(e->a) || ex_has_var(e->b);
}

static Ex *ex_const(Ex *old, int64_t v)
{
    gpi_ex_free(old);
    return ex_new(EX_CONST, 0, v, NULL, NULL);
}

static int is_const(const Ex *e, int64_t v)
{
    return e && e->kind == EX_CONST && e->val == v;
}

/* Keep one child, free the rest of e. */
static Ex *ex_take(Ex *e, int which)
{
    Ex *k = which ? e->b : e->a;
    if (which)
        e->b = NULL;
    else
        e->a = NULL;
    gpi_ex_free(e);
    return k;
}

/* Value-preserving rewrites (every one holds for all integer inputs under
 * the semantics of docs/gp.md). */
Ex *gpi_ex_simplify(Ex *e)
{
    if (e->kind != EX_FN)
        return e;
    e->a = gpi_ex_simplify(e->a);
    if (e->b)
        e->b = gpi_ex_simplify(e->b);
    if (!ex_has_var(e))
        return ex_const(e, gpi_ex_eval(e, NULL));
    Ex *a = e->a, *b = e->b;
    switch (e->op) {
    case GP_ADD:
        if (is_const(a, 0))
            return ex_take(e, 1);
        if (is_const(b, 0))
            return ex_take(e, 0);
        break;
    case GP_SUB:
        if (is_const(b, 0))
            return ex_take(e, 0);
        if (ex_equal(a, b))
            return ex_const(e, 0);
        break;
    case GP_TIMES:
        if (is_const(a, 0) || is_const(b, 0))
            return ex_const(e, 0);
        if (is_const(a, 1))
            return ex_take(e, 1);
        if (is_const(b, 1))
            return ex_take(e, 0);
        break;
    case GP_DIVIDE:
        if (is_const(b, 1))
            return ex_take(e, 0);
        if (is_const(b, 0))
            return ex_const(e, 1);
        break;
    case GP_MOD:
        if (is_const(b, 1) || is_const(b, -1))
            return ex_const(e, 0);
        if (is_const(b, 0))
            return ex_take(e, 0);
        if (ex_equal(a, b) || is_const(a, 0))
            return ex_const(e, 0);
        /* (x mod c) mod c = x mod c */
        if (b->kind == EX_CONST && a->kind == EX_FN && a->op == GP_MOD && ex_equal(a->b, b))
            return ex_take(e, 0);
        break;
    case GP_XOR:
        if (ex_equal(a, b))
            return ex_const(e, 0);
        if (is_const(a, 0))
            return ex_take(e, 1);
        if (is_const(b, 0))
            return ex_take(e, 0);
        break;
    case GP_AND:
    case GP_OR:
        if (ex_equal(a, b))
            return ex_take(e, 0);
        break;
    case GP_EQUAL:
        if (ex_equal(a, b))
            return ex_const(e, 1);
        break;
    case GP_LESS:
    case GP_GREATER:
        if (ex_equal(a, b))
            return ex_const(e, 0);
        break;
    case GP_NOT:
        if (a->kind == EX_FN && a->op == GP_NOT) {
            Ex *k = a->a;
            a->a = NULL;
            gpi_ex_free(e);
            return k;
        }
        break;
    }
    return e;
}

/* A sum a1*t1 + ... + c collected from ADD / SUB / PLUS1 chains. */
typedef struct {
    const Ex **t;
    int64_t *coef;
    int n, cap;
    int64_t c;
} Sum;

static void sum_free(Sum *s)
{
    free(s->t);
    free(s->coef);
}

static int is_sum(const Ex *e)
{
    return e->kind == EX_FN && (e->op == GP_ADD || e->op == GP_SUB || e->op == GP_PLUS1);
}

/* With modc >= 2 the sum is taken modulo modc, and a term "x mod modc"
 * contributes x itself. */
static void sum_collect(Sum *s, const Ex *e, int64_t sign, int64_t modc)
{
    if (modc >= 2 && e->kind == EX_FN && e->op == GP_MOD && e->b->kind == EX_CONST &&
        e->b->val == modc) {
        sum_collect(s, e->a, sign, modc);
        return;
    }
    if (e->kind == EX_CONST) {
        s->c = gpi_wrap((uint64_t)s->c + (uint64_t)sign * (uint64_t)e->val);
        return;
    }
    if (is_sum(e)) {
        sum_collect(s, e->a, sign, modc);
        if (e->op == GP_ADD)
            sum_collect(s, e->b, sign, modc);
        else if (e->op == GP_SUB)
            sum_collect(s, e->b, -sign, modc);
        else
            s->c = gpi_wrap((uint64_t)s->c + (uint64_t)sign);
        return;
    }
    for (int i = 0; i < s->n; i++)
        if (ex_equal(s->t[i], e)) {
            s->coef[i] += sign;
            return;
        }
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->t = xrealloc(s->t, (size_t)s->cap * sizeof *s->t);
        s->coef = xrealloc(s->coef, (size_t)s->cap * sizeof *s->coef);
    }
    s->t[s->n] = e;
    s->coef[s->n++] = sign;
}


/* Level of an infix form: 5 atom, 4 product, 3 sum, 2 comparison, 1 bit. */
static int ex_level(const Ex *e)
{
    if (e->kind == EX_CONST)
        return e->val < 0 ? 3 : 5;
    if (e->kind == EX_VAR)
        return 5;
    switch (e->op) {
    case GP_ADD:
    case GP_SUB:
    case GP_PLUS1: {
        Sum s = {0};
        sum_collect(&s, e, 1, 0);
        int nz = 0, last = -1, lev = 3;
        for (int i = 0; i < s.n; i++)
            if (s.coef[i] != 0) {
                nz++;
                last = i;
            }
        if (nz == 0)
            lev = s.c < 0 ? 3 : 5;
        else if (nz == 1 && s.c == 0 && s.coef[last] == 1)
            lev = ex_level(s.t[last]);
        sum_free(&s);
        return lev;
    }
    case GP_TIMES:
    case GP_DIVIDE:
    case GP_MOD:
        return 4;
    case GP_EQUAL:
    case GP_LESS:
    case GP_GREATER:
        return 2;
    case GP_XOR:
    case GP_AND:
    case GP_OR:
        return 1;
    default:
        return 5;
    }
}

/* Print a sum; with modulus c >= 2 (the sum is the left side of "mod c")
 * reduce every coefficient to the residue of least absolute value and the
 * constant to 0..c-1, which is the integer identity (a mod c = b mod c
 * when a = b mod c); it can differ from the wrapping 64-bit program only
 * when an intermediate value overflows. */
static void sum_print(Buf *b, const Ex *e, char *const *names, int64_t c)
{
    Sum s = {0};
    sum_collect(&s, e, 1, c);
    if (c >= 2) {
        for (int i = 0; i < s.n; i++) {
            int64_t r = gpi_op_mod(s.coef[i], c);
            s.coef[i] = 2 * r > c ? r - c : r;
        }
        s.c = gpi_op_mod(s.c, c);
    }
    /* variables first, in variable order; other terms keep their order */
    for (int i = 1; i < s.n; i++) {
        const Ex *t = s.t[i];
        int64_t k = s.coef[i];
        int key = t->kind == EX_VAR ? t->op : GP_MAX_VARS, j = i;
        while (j > 0) {
            const Ex *u = s.t[j - 1];
            if ((u->kind == EX_VAR ? u->op : GP_MAX_VARS) <= key)
                break;
            s.t[j] = s.t[j - 1];
            s.coef[j] = s.coef[j - 1];
            j--;
        }
        s.t[j] = t;
        s.coef[j] = k;
    }
    int first = 1;
    for (int i = 0; i < s.n; i++) {
        int64_t k = s.coef[i];
        if (k == 0)
            continue;
        if (first)
            gpi_buf_add(b, k < 0 ? "-" : "");
        else
            gpi_buf_add(b, k < 0 ? " - " : " + ");
        uint64_t m = k < 0 ? 0 - (uint64_t)k : (uint64_t)k;
        if (m == 1 && first && k < 0) {
            gpi_ex_infix(b, s.t[i], 5, names); /* -(x mod 3), never -x mod 3 */
        } else if (m != 1) {
            gpi_buf_add(b, "%llu*", (unsigned long long)m);
            gpi_ex_infix(b, s.t[i], 5, names);
        } else {
            gpi_ex_infix(b, s.t[i], 4, names);
        }
        first = 0;
    }
    if (first)
        gpi_buf_add(b, "%lld", (long long)s.c);
    else if (s.c > 0)
        gpi_buf_add(b, " + %lld", (long long)s.c);
    else if (s.c < 0)
        gpi_buf_add(b, " - %llu", (unsigned long long)(0 - (uint64_t)s.c));
    sum_free(&s);
}

void gpi_ex_infix(Buf *b, const Ex *e, int minlevel, char *const *names)
{
    int lev = ex_level(e), paren = lev < minlevel;
    if (paren)
        gpi_buf_add(b, "(");
    if (e->kind == EX_CONST) {
        gpi_buf_add(b, "%lld", (long long)e->val);
    } else if (e->kind == EX_VAR) {
        gpi_buf_add(b, "%s", names[e->op]);
    } else {
        static const char *const sym[GP_NFUNCS] = {
            [GP_TIMES] = " * ", [GP_DIVIDE] = " div ", [GP_MOD] = " mod ", [GP_XOR] = " xor ",
            [GP_AND] = " and ", [GP_OR] = " or ",      [GP_EQUAL] = " == ", [GP_LESS] = " < ",
            [GP_GREATER] = " > "};
        switch (e->op) {
        case GP_ADD:
        case GP_SUB:
        case GP_PLUS1:
            sum_print(b, e, names, 0);
            break;
        case GP_MOD:
            if (e->b->kind == EX_CONST && e->b->val >= 2 &&
                (is_sum(e->a) || (e->a->kind == EX_FN && e->a->op == GP_MOD))) {
                Buf t = {0};
                sum_print(&t, e->a, names, e->b->val);
                int wrap_it = t.s[0] == '-' || strchr(t.s, ' ') != NULL;
                gpi_buf_add(b, wrap_it ? "(" : "");
                gpi_buf_add(b, "%s", t.s);
                gpi_buf_add(b, wrap_it ? ")" : "");
                gpi_buf_add(b, " mod %lld", (long long)e->b->val);
                free(t.s);
                break;
            }
            /* fall through */
        case GP_TIMES:
        case GP_DIVIDE:
            gpi_ex_infix(b, e->a, 4, names);
            gpi_buf_add(b, "%s", sym[e->op]);
            gpi_ex_infix(b, e->b, 5, names);
            break;
        case GP_EQUAL:
        case GP_LESS:
        case GP_GREATER:
            gpi_ex_infix(b, e->a, 3, names);
            gpi_buf_add(b, "%s", sym[e->op]);
            gpi_ex_infix(b, e->b, 3, names);
            break;
        case GP_XOR:
        case GP_AND:
        case GP_OR:
            gpi_ex_infix(b, e->a, 2, names);
            gpi_buf_add(b, "%s", sym[e->op]);
            gpi_ex_infix(b, e->b, 2, names);
            break;
        case GP_LOG:
            gpi_buf_add(b, "log2(");
            gpi_ex_infix(b, e->a, 0, names);
            gpi_buf_add(b, ")");
            break;
        case GP_NOT:
            gpi_buf_add(b, "not(");
            gpi_ex_infix(b, e->a, 0, names);
            gpi_buf_add(b, ")");
            break;
        }
    }
    if (paren)
        gpi_buf_add(b, ")");
}

/* ---- formula parser (functional notation) */

typedef struct {
    const char *s;
    size_t i;
    const GpData *d;
    CgtError *err;
    int failed;
} Parser;

static void skip_ws(Parser *p)
{
    while (isspace((unsigned char)p->s[p->i]))
        p->i++;
}

static Ex *parse_ex(Parser *p, int depth)
{
    skip_ws(p);
    const char *s = p->s;
    if (depth > 200) {
        cgt_error_set(p->err, CGT_ERR_DOMAIN, "formula nested too deeply");
        p->failed = 1;
        return NULL;
    }
    if (isdigit((unsigned char)s[p->i]) ||
        (s[p->i] == '-' && isdigit((unsigned char)s[p->i + 1]))) {
        char *end;
        long long v = strtoll(s + p->i, &end, 10);
        p->i = (size_t)(end - s);
        return ex_new(EX_CONST, 0, v, NULL, NULL);
    }
    size_t st = p->i;
    while (isalnum((unsigned char)s[p->i]) || s[p->i] == '_')
        p->i++;
    size_t n = p->i - st;
    if (n == 0) {
        cgt_error_set(p->err, CGT_ERR_DOMAIN, "syntax error in formula at offset %zu", st);
        p->failed = 1;
        return NULL;
    }
    skip_ws(p);
    if (s[p->i] != '(') {
        for (int v = 0; v < p->d->nvars; v++)
            if (strlen(p->d->names[v]) == n && strncmp(p->d->names[v], s + st, n) == 0)
                return ex_new(EX_VAR, v, 0, NULL, NULL);
        cgt_error_set(p->err, CGT_ERR_DOMAIN, "unknown variable '%.*s' in formula", (int)n, s + st);
        p->failed = 1;
        return NULL;
    }
    int f = gpi_func_find(s + st, n);
    if (f < 0) {
        cgt_error_set(p->err, CGT_ERR_DOMAIN, "unknown GP function '%.*s'", (int)n, s + st);
        gpi_hint_functions(p->err);
        p->failed = 1;
        return NULL;
    }
    p->i++;
    Ex *a = parse_ex(p, depth + 1), *b = NULL;
    if (!p->failed && gpi_fn_arity[f] == 2) {
        skip_ws(p);
        if (s[p->i] != ',') {
            cgt_error_set(p->err, CGT_ERR_DOMAIN, "%s takes two arguments", gpi_fn_names[f]);
            p->failed = 1;
        } else {
            p->i++;
            b = parse_ex(p, depth + 1);
        }
    }
    skip_ws(p);
    if (!p->failed && s[p->i] != ')') {
        cgt_error_set(p->err, CGT_ERR_DOMAIN, "expected ')' in formula at offset %zu", p->i);
        p->failed = 1;
    }
    p->i++;
    Ex *e = ex_new(EX_FN, f, 0, a, b);
    if (p->failed) {
        gpi_ex_free(e);
        return NULL;
    }
    return e;
}

static Ex *parse_formula(const char *formula, const GpData *d, CgtError *err)
{
    Parser p = {formula, 0, d, err, 0};
    Ex *e = parse_ex(&p, 0);
    if (!p.failed) {
        skip_ws(&p);
        if (formula[p.i]) {
            cgt_error_set(err, CGT_ERR_DOMAIN, "unexpected text after formula at offset %zu", p.i);
            p.failed = 1;
        }
    }
    if (p.failed) {
        gpi_ex_free(e);
        return NULL;
    }
    return e;
}

CgtStatus gp_formula_infix(const char *formula, const GpData *d, char **infix, CgtError *err)
{
    Ex *e = parse_formula(formula, d, err);
    if (!e)
        return CGT_ERR_DOMAIN;
    Buf b = {0};
    e = gpi_ex_simplify(e);
    gpi_ex_infix(&b, e, 0, d->names);
    gpi_ex_free(e);
    *infix = b.s;
    return CGT_OK;
}

CgtStatus gp_formula_accuracy(const char *formula, const GpData *d, double *accuracy,
                              CgtError *err)
{
    Ex *e = parse_formula(formula, d, err);
    if (!e)
        return CGT_ERR_DOMAIN;
    long hits = 0;
    for (size_t r = 0; r < d->nrows; r++)
        hits += gpi_ex_eval(e, d->x + r * (size_t)d->nvars) == d->y[r];
    gpi_ex_free(e);
    *accuracy = d->nrows ? (double)hits / (double)d->nrows : 0;
    return CGT_OK;
}

CgtStatus gp_formula_eval(const char *formula, int nvars, const char *const *names,
                          const int64_t *x, int64_t *out, CgtError *err)
{
    GpData *d = gp_data_new(nvars, names);
    if (!d)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "a formula has 1 to %d variables, not %d",
                             GP_MAX_VARS, nvars);
    Ex *e = parse_formula(formula, d, err);
    gp_data_free(d);
    if (!e)
        return CGT_ERR_DOMAIN;
    *out = gpi_ex_eval(e, x);
    gpi_ex_free(e);
    return CGT_OK;
}

