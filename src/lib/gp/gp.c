/* Genetic programming for Grundy formulas (Huggan and Tennenhouse 2021,
 * after gplearn): prefix-array programs over exact integers, evaluated
 * backwards as postfix code over whole data columns, optionally on two
 * threads; ramped half-and-half, tournaments, subtree crossover, subtree /
 * hoist / point mutation, elitism, parsimony; printing and simplification.
 * This file: the function table, parameters, integer semantics, data sets
 * and program evaluation; gp_evolve.c the operators, selection and the run;
 * gp_print.c printing, simplification and the formula parser. */
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

/* ---- function table */

const char *const gpi_fn_names[GP_NFUNCS] = {
    "ADD", "SUB", "TIMES", "DIVIDE", "MOD", "LOG", "PLUS1",
    "XOR", "AND", "OR", "NOT", "EQUAL", "LESS", "GREATER"};
const int gpi_fn_arity[GP_NFUNCS] = {2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 1, 2, 2, 2};



static int name_eq(const char *a, size_t n, const char *b)
{
    if (strlen(b) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (toupper((unsigned char)a[i]) != b[i])
            return 0;
    return 1;
}

int gpi_func_find(const char *name, size_t n)
{
    for (int f = 0; f < GP_NFUNCS; f++)
        if (name_eq(name, n, gpi_fn_names[f]))
            return f;
    return -1;
}

void gpi_hint_functions(CgtError *err)
{
    cgt_error_hint(err, "functions are ADD, SUB, TIMES, DIVIDE, MOD, LOG, PLUS1, XOR, AND, OR, "
                        "NOT, EQUAL, LESS, GREATER");
}

CgtStatus gp_params_set_functions(GpParams *p, const char *list, CgtError *err)
{
    uint32_t set = 0;
    const char *s = list;
    while (*s) {
        while (*s == ',' || isspace((unsigned char)*s))
            s++;
        const char *t = s;
        while (*s && *s != ',' && !isspace((unsigned char)*s))
            s++;
        if (s == t)
            break;
        if (name_eq(t, (size_t)(s - t), "ALL")) {
            set |= GP_ALL_FUNCTIONS;
            continue;
        }
        if (name_eq(t, (size_t)(s - t), "DEFAULT")) {
            set |= GP_DEFAULT_FUNCTIONS;
            continue;
        }
        int f = gpi_func_find(t, (size_t)(s - t));
        if (f < 0) {
            cgt_error_set(err, CGT_ERR_DOMAIN, "unknown GP function '%.*s'", (int)(s - t), t);
            gpi_hint_functions(err);
            return CGT_ERR_DOMAIN;
        }
        set |= 1u << f;
    }
    if (!set)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "empty GP function list");
    p->functions = set;
    return CGT_OK;
}

void gp_params_default(GpParams *p)
{
    p->population = 1000;
    p->generations = 20;
    p->tournament = 20;
    p->p_crossover = 0.9;
    p->p_subtree = 0.01;
    p->p_hoist = 0.01;
    p->p_point = 0.01;
    p->p_point_replace = 0.05;
    p->parsimony = 0.001;
    p->elitism = 10;
    p->init_depth_min = 2;
    p->init_depth_max = 6;
    p->max_length = 50;
    p->const_min = 0;
    p->const_max = 3;
    p->functions = GP_DEFAULT_FUNCTIONS;
    p->fitness = GP_FIT_ABS;
    p->threads = 2;
    p->seed = 1;
    p->stop_on_perfect = true;
    p->selection = GP_SEL_LEXICASE;
}

static int prob_ok(double x)
{
    return x >= 0 && x <= 1;
}

CgtStatus gp_params_check(const GpParams *p, CgtError *err)
{
    if (p->population < 1 || p->population > 1000000)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "population must be in 1..1000000, not %d",
                             p->population);
    if (p->generations < 1 || p->generations > 100000)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "generations must be in 1..100000, not %d",
                             p->generations);
    if (p->tournament < 1 || p->tournament > p->population)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "tournament size must be in 1..population (%d), not %d",
                             p->population, p->tournament);
    if (!prob_ok(p->p_crossover) || !prob_ok(p->p_subtree) || !prob_ok(p->p_hoist) ||
        !prob_ok(p->p_point) || !prob_ok(p->p_point_replace))
        return cgt_error_set(err, CGT_ERR_DOMAIN, "GP probabilities must lie in 0..1");
    if (p->p_crossover + p->p_subtree + p->p_hoist + p->p_point > 1.0 + 1e-9)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "crossover and mutation probabilities add up to more than 1");
    if (p->parsimony < 0 || !isfinite(p->parsimony))
        return cgt_error_set(err, CGT_ERR_DOMAIN, "parsimony must be a non-negative number");
    if (p->elitism < 0 || p->elitism > p->population)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "elitism must be in 0..population, not %d",
                             p->elitism);
    if (p->init_depth_min < 1 || p->init_depth_max < p->init_depth_min || p->init_depth_max > 12)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "initial depths must satisfy 1 <= %d <= %d <= 12",
                             p->init_depth_min, p->init_depth_max);
    if (p->max_length < 1 || p->max_length > GP_MAX_LENGTH)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "max length must be in 1..%d, not %d",
                             GP_MAX_LENGTH, p->max_length);
    if (p->const_max < p->const_min || p->const_max - p->const_min >= GP_MAX_CONSTS ||
        p->const_min < -1000000 || p->const_max > 1000000)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "constants %d..%d: need min <= max and at most %d constants",
                             p->const_min, p->const_max, GP_MAX_CONSTS);
    if ((p->functions & ((1u << GP_NFUNCS) - 1)) == 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "empty GP function set");
    if (p->threads < 1 || p->threads > 2)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "threads must be 1 or 2, not %d", p->threads);
    if (p->selection != GP_SEL_TOURNAMENT && p->selection != GP_SEL_LEXICASE)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "unknown GP selection scheme");
    if (p->fitness != GP_FIT_ABS && p->fitness != GP_FIT_NIM && p->fitness != GP_FIT_MATCH)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "unknown GP fitness measure");
    return CGT_OK;
}

/* ---- integer semantics (docs/gp.md): gpi_wrap-around two's complement */

int64_t gpi_wrap(uint64_t x)
{
    return (int64_t)x;
}

static int64_t op_div(int64_t a, int64_t b)
{
    if (b == 0)
        return 1;
    if (b == -1)
        return gpi_wrap(0 - (uint64_t)a);
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q--;
    return q;
}

int64_t gpi_op_mod(int64_t a, int64_t b)
{
    if (b == 0)
        return a;
    if (b == -1)
        return 0;
    int64_t r = a % b;
    if (r != 0 && ((r < 0) != (b < 0)))
        r += b;
    return r;
}

static int64_t op_log(int64_t a)
{
    if (a == 0)
        return 0;
    uint64_t m = a < 0 ? 0 - (uint64_t)a : (uint64_t)a;
    return 63 - __builtin_clzll(m);
}

int64_t gpi_apply1(int f, int64_t a, int64_t b)
{
    switch (f) {
    case GP_ADD:
        return gpi_wrap((uint64_t)a + (uint64_t)b);
    case GP_SUB:
        return gpi_wrap((uint64_t)a - (uint64_t)b);
    case GP_TIMES:
        return gpi_wrap((uint64_t)a * (uint64_t)b);
    case GP_DIVIDE:
        return op_div(a, b);
    case GP_MOD:
        return gpi_op_mod(a, b);
    case GP_LOG:
        return op_log(a);
    case GP_PLUS1:
        return gpi_wrap((uint64_t)a + 1);
    case GP_XOR:
        return a ^ b;
    case GP_AND:
        return a & b;
    case GP_OR:
        return a | b;
    case GP_NOT:
        return ~a;
    case GP_EQUAL:
        return a == b;
    case GP_LESS:
        return a < b;
    case GP_GREATER:
        return a > b;
    }
    return 0;
}

/* out[i] = f(a[i], b[i]); out may alias b (never a). */
static void apply_col(int f, const int64_t *restrict a, const int64_t *b, int64_t *out, size_t n)
{
    size_t i;
    switch (f) {
    case GP_ADD:
        for (i = 0; i < n; i++)
            out[i] = gpi_wrap((uint64_t)a[i] + (uint64_t)b[i]);
        break;
    case GP_SUB:
        for (i = 0; i < n; i++)
            out[i] = gpi_wrap((uint64_t)a[i] - (uint64_t)b[i]);
        break;
    case GP_TIMES:
        for (i = 0; i < n; i++)
            out[i] = gpi_wrap((uint64_t)a[i] * (uint64_t)b[i]);
        break;
    case GP_XOR:
        for (i = 0; i < n; i++)
            out[i] = a[i] ^ b[i];
        break;
    case GP_AND:
        for (i = 0; i < n; i++)
            out[i] = a[i] & b[i];
        break;
    case GP_OR:
        for (i = 0; i < n; i++)
            out[i] = a[i] | b[i];
        break;
    case GP_EQUAL:
        for (i = 0; i < n; i++)
            out[i] = a[i] == b[i];
        break;
    case GP_LESS:
        for (i = 0; i < n; i++)
            out[i] = a[i] < b[i];
        break;
    case GP_GREATER:
        for (i = 0; i < n; i++)
            out[i] = a[i] > b[i];
        break;
    case GP_PLUS1:
        for (i = 0; i < n; i++)
            out[i] = gpi_wrap((uint64_t)a[i] + 1);
        break;
    case GP_NOT:
        for (i = 0; i < n; i++)
            out[i] = ~a[i];
        break;
    case GP_LOG:
        for (i = 0; i < n; i++)
            out[i] = op_log(a[i]);
        break;
    case GP_DIVIDE:
        for (i = 0; i < n; i++)
            out[i] = op_div(a[i], b[i]);
        break;
    case GP_MOD:
        for (i = 0; i < n; i++)
            out[i] = gpi_op_mod(a[i], b[i]);
        break;
    }
}

/* ---- data sets */

GpData *gp_data_new(int nvars, const char *const *names)
{
    if (nvars < 1 || nvars > GP_MAX_VARS)
        return NULL;
    GpData *d = xcalloc(1, sizeof *d);
    d->nvars = nvars;
    for (int v = 0; v < nvars; v++)
        d->names[v] = names ? xstrdup(names[v]) : xasprintf("x%d", v + 1);
    return d;
}

void gp_data_add(GpData *d, const int64_t *x, int64_t y)
{
    if (d->nrows == d->cap) {
        d->cap = d->cap ? 2 * d->cap : 64;
        d->x = xrealloc(d->x, d->cap * (size_t)d->nvars * sizeof *d->x);
        d->y = xrealloc(d->y, d->cap * sizeof *d->y);
    }
    memcpy(d->x + d->nrows * (size_t)d->nvars, x, (size_t)d->nvars * sizeof *x);
    d->y[d->nrows++] = y;
}

void gp_data_free(GpData *d)
{
    if (!d)
        return;
    for (int v = 0; v < d->nvars; v++)
        free(d->names[v]);
    free(d->x);
    free(d->y);
    free(d);
}

CgtStatus gp_game_lookup(const char *name, GpGame *out, CgtError *err)
{
    static const char *const names[] = {"ga1", "ga2", "kayles"};
    for (int i = 0; i < 3; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = (GpGame)i;
            return CGT_OK;
        }
    cgt_error_set(err, CGT_ERR_DOMAIN, "unknown GP game '%s'", name);
    cgt_error_hint(err, "built-in GP games are ga1, ga2 and kayles");
    return CGT_ERR_DOMAIN;
}

typedef struct {
    GpGame game;
    BitMemo *memo;
    int *table; /* single-heap values for ga1 / kayles */
} BuiltinCtx;

static CgtStatus builtin_value(void *vctx, const int *heaps, int k, int64_t *out, CgtError *err)
{
    BuiltinCtx *c = vctx;
    if (c->game == GP_GAME_GA2) {
        int v;
        CgtStatus st = bit_ga2_heaps_grundy(c->memo, heaps, k, &v, err);
        *out = v;
        return st;
    }
    int x = 0;
    for (int i = 0; i < k; i++)
        x ^= c->table[heaps[i]];
    *out = x;
    return CGT_OK;
}

CgtStatus gp_data_game(const GpGameSpec *spec, GpValueFn fn, void *ctx, GpData **train,
                       GpData **test, CgtError *err)
{
    *train = NULL;
    if (test)
        *test = NULL;
    int kmax = spec->max_heaps;
    int top = spec->hi + (spec->heldout_extra > 0 ? spec->heldout_extra : 0);
    if (spec->min_heaps < 1 || kmax < spec->min_heaps || kmax > GP_MAX_VARS - 1)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "number of heaps %d..%d must lie in 1..%d",
                             spec->min_heaps, kmax, GP_MAX_VARS - 1);
    if (spec->lo < 1 || spec->hi < spec->lo || top > 10000)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "heap sizes %d..%d are not a range of positive "
                                                  "sizes", spec->lo, spec->hi);
    double rows = 0;
    for (int k = spec->min_heaps; k <= kmax; k++)
        rows += pow(top - spec->lo + 1, k);
    if (rows > 200000)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "the GP data set would have %.0f rows "
                                                  "(at most 200000)", rows);
    BuiltinCtx bc = {spec->game, NULL, NULL};
    if (!fn) {
        fn = builtin_value;
        ctx = &bc;
        if (spec->game == GP_GAME_GA2) {
            bc.memo = bitmemo_new();
        } else {
            bc.table = xmalloc((size_t)(top + 2) * sizeof *bc.table);
            if (spec->game == GP_GAME_GA1)
                bit_ga1_heap_values(top, bc.table);
            else
                bit_kayles_values(top, bc.table);
        }
    }
    const char *names[GP_MAX_VARS];
    char nb[GP_MAX_VARS][16];
    int nv = kmax + (spec->count_terminal ? 1 : 0);
    for (int v = 0; v < kmax; v++) {
        snprintf(nb[v], sizeof nb[v], "h%d", v + 1);
        names[v] = nb[v];
    }
    if (spec->count_terminal)
        names[kmax] = "n";
    GpData *tr = gp_data_new(nv, names);
    GpData *te = spec->heldout_extra > 0 && test ? gp_data_new(nv, names) : NULL;
    CgtStatus st = CGT_OK;
    int h[GP_MAX_VARS];
    for (int k = spec->min_heaps; k <= kmax && st == CGT_OK; k++) {
        for (int i = 0; i < k; i++)
            h[i] = spec->lo;
        for (;;) {
            int outside = 0;
            for (int i = 0; i < k; i++)
                outside |= h[i] > spec->hi;
            if (!outside || te) {
                int64_t x[GP_MAX_VARS] = {0}, y;
                for (int i = 0; i < k; i++)
                    x[i] = h[i];
                if (spec->count_terminal)
                    x[kmax] = k;
                st = fn(ctx, h, k, &y, err);
                if (st == CGT_OK)
                    st = cgt_poll();
                if (st == CGT_ERR_INTERRUPTED || st == CGT_ERR_LIMIT)
                    cgt_poll_error(err, st, "GP data set");
                if (st != CGT_OK)
                    break;
                gp_data_add(outside ? te : tr, x, y);
            }
            int i = k - 1;
            while (i >= 0 && h[i] == top)
                h[i--] = spec->lo;
            if (i < 0)
                break;
            h[i]++;
        }
    }
    bitmemo_free(bc.memo);
    free(bc.table);
    if (st != CGT_OK) {
        gp_data_free(tr);
        gp_data_free(te);
        return st;
    }
    *train = tr;
    if (test)
        *test = te;
    return CGT_OK;
}

/* ---- programs */


/* Copy code into p, reusing its buffer (populations are double-buffered). */
void gpi_prog_set(Prog *p, const uint8_t *code, int len)
{
    if (p->cap < len) {
        p->cap = len + 16;
        p->code = xrealloc(p->code, (size_t)p->cap);
    }
    memcpy(p->code, code, (size_t)len);
    p->len = len;
}



int gpi_code_arity(uint8_t c)
{
    return c < GP_NFUNCS ? gpi_fn_arity[c] : 0;
}

static int64_t *scratch_slot(Scratch *s, int i)
{
    if (i >= s->nslots) {
        s->slot = xrealloc(s->slot, (size_t)(i + 1) * sizeof *s->slot);
        for (int j = s->nslots; j <= i; j++)
            s->slot[j] = xmalloc((s->nrows ? s->nrows : 1) * sizeof(int64_t));
        s->nslots = i + 1;
    }
    return s->slot[i];
}

void gpi_scratch_free(Scratch *s)
{
    for (int i = 0; i < s->nslots; i++)
        free(s->slot[i]);
    free(s->slot);
}

/* Evaluate a program on all rows: the prefix array read backwards is
 * postfix code; the result column is returned (borrowed). */
const int64_t *gpi_eval_prog(const Cols *c, Scratch *s, const uint8_t *code, int len)
{
    const int64_t *stk[GP_MAX_LENGTH + 1];
    int sp = 0;
    for (int i = len - 1; i >= 0; i--) {
        uint8_t op = code[i];
        if (op >= CODE_CONST) {
            stk[sp++] = c->ccol[op - CODE_CONST];
        } else if (op >= CODE_VAR) {
            stk[sp++] = c->col[op - CODE_VAR];
        } else {
            int ar = gpi_fn_arity[op];
            int64_t *out = scratch_slot(s, sp - ar);
            apply_col(op, stk[sp - 1], ar == 2 ? stk[sp - 2] : stk[sp - 1], out, c->nrows);
            sp -= ar - 1;
            stk[sp - 1] = out;
        }
    }
    return stk[0];
}

static uint32_t clamp32(double x)
{
    return x >= 4294967295.0 ? 4294967295U : (uint32_t)x;
}

void gpi_score(const Cols *c, GpFitness fit, const int64_t *p, double *raw, long *hits,
                  uint32_t *err)
{
    double r = 0;
    long h = 0;
    for (size_t i = 0; i < c->nrows; i++) {
        int64_t a = p[i], b = c->y[i];
        double d = 0;
        h += a == b;
        if (fit == GP_FIT_ABS)
            d = fabs((double)a - (double)b);
        else if (fit == GP_FIT_NIM)
            d = (double)((uint64_t)a ^ (uint64_t)b);
        else
            d = a != b;
        r += d;
        if (err)
            err[i] = clamp32(d);
    }
    if (fit == GP_FIT_MATCH)
        r = (double)((long)c->nrows - h);
    *raw = r;
    *hits = h;
}

