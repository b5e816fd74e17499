/* Genetic programming for Grundy formulas (Huggan and Tennenhouse 2021,
 * after gplearn): prefix-array programs over exact integers, evaluated
 * backwards as postfix code over whole data columns, optionally on two
 * threads; ramped half-and-half, tournaments, subtree crossover, subtree /
 * hoist / point mutation, elitism, parsimony; printing and simplification. */
#include "games/gp.h"

#include <ctype.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/bitgames.h"
#include "util/hash.h"
#include "util/poll.h"
#include "util/rng.h"
#include "util/vec.h"
#include "util/xalloc.h"

/* ---- function table */

static const char *const fn_names[GP_NFUNCS] = {
    "ADD", "SUB", "TIMES", "DIVIDE", "MOD", "LOG", "PLUS1",
    "XOR", "AND", "OR", "NOT", "EQUAL", "LESS", "GREATER"};
static const int fn_arity[GP_NFUNCS] = {2, 2, 2, 2, 2, 1, 1, 2, 2, 2, 1, 2, 2, 2};

/* Node codes of a program: functions 0..GP_NFUNCS-1, variables
 * CODE_VAR + v, constants CODE_CONST + (value - const_min). */
enum { CODE_VAR = 64, CODE_CONST = 128 };

/* Error levels with precomputed bit sets in lexicase selection. */
enum { LEX_LEVELS = 4 };

const char *gp_func_name(GpFunc f)
{
    return (unsigned)f < GP_NFUNCS ? fn_names[f] : NULL;
}

static int name_eq(const char *a, size_t n, const char *b)
{
    if (strlen(b) != n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (toupper((unsigned char)a[i]) != b[i])
            return 0;
    return 1;
}

static int func_find(const char *name, size_t n)
{
    for (int f = 0; f < GP_NFUNCS; f++)
        if (name_eq(name, n, fn_names[f]))
            return f;
    return -1;
}

static void hint_functions(CgtError *err)
{
    cgt_error_hint(err, "functions are ADD, SUB, TIMES, DIVIDE, MOD, LOG, PLUS1, XOR, AND, OR, "
                        "NOT, EQUAL, LESS, GREATER");
}

CgtStatus gp_func_lookup(const char *name, GpFunc *out, CgtError *err)
{
    int f = func_find(name, strlen(name));
    if (f < 0) {
        cgt_error_set(err, CGT_ERR_DOMAIN, "unknown GP function '%s'", name);
        hint_functions(err);
        return CGT_ERR_DOMAIN;
    }
    *out = (GpFunc)f;
    return CGT_OK;
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
        int f = func_find(t, (size_t)(s - t));
        if (f < 0) {
            cgt_error_set(err, CGT_ERR_DOMAIN, "unknown GP function '%.*s'", (int)(s - t), t);
            hint_functions(err);
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

/* ---- integer semantics (docs/gp.md): wrap-around two's complement */

static int64_t wrap(uint64_t x)
{
    return (int64_t)x;
}

static int64_t op_div(int64_t a, int64_t b)
{
    if (b == 0)
        return 1;
    if (b == -1)
        return wrap(0 - (uint64_t)a);
    int64_t q = a / b;
    if (a % b != 0 && ((a < 0) != (b < 0)))
        q--;
    return q;
}

static int64_t op_mod(int64_t a, int64_t b)
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

static int64_t apply1(int f, int64_t a, int64_t b)
{
    switch (f) {
    case GP_ADD:
        return wrap((uint64_t)a + (uint64_t)b);
    case GP_SUB:
        return wrap((uint64_t)a - (uint64_t)b);
    case GP_TIMES:
        return wrap((uint64_t)a * (uint64_t)b);
    case GP_DIVIDE:
        return op_div(a, b);
    case GP_MOD:
        return op_mod(a, b);
    case GP_LOG:
        return op_log(a);
    case GP_PLUS1:
        return wrap((uint64_t)a + 1);
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
            out[i] = wrap((uint64_t)a[i] + (uint64_t)b[i]);
        break;
    case GP_SUB:
        for (i = 0; i < n; i++)
            out[i] = wrap((uint64_t)a[i] - (uint64_t)b[i]);
        break;
    case GP_TIMES:
        for (i = 0; i < n; i++)
            out[i] = wrap((uint64_t)a[i] * (uint64_t)b[i]);
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
            out[i] = wrap((uint64_t)a[i] + 1);
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
            out[i] = op_mod(a[i], b[i]);
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

typedef struct {
    uint8_t *code;
    int len;
    double raw, fit;
    long hits;
    uint32_t *err; /* per-row errors (lexicase selection only) */
    int cap;       /* allocated bytes of code */
} Prog;

/* Copy code into p, reusing its buffer (populations are double-buffered). */
static void prog_set(Prog *p, const uint8_t *code, int len)
{
    if (p->cap < len) {
        p->cap = len + 16;
        p->code = xrealloc(p->code, (size_t)p->cap);
    }
    memcpy(p->code, code, (size_t)len);
    p->len = len;
}

typedef struct {
    size_t nrows;
    int nvars, nconst;
    const int64_t *col[GP_MAX_VARS];
    const int64_t *ccol[GP_MAX_CONSTS];
    const int64_t *y;
} Cols;

typedef struct {
    int64_t **slot;
    int nslots;
    size_t nrows;
} Scratch;

static int code_arity(uint8_t c)
{
    return c < GP_NFUNCS ? fn_arity[c] : 0;
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

static void scratch_free(Scratch *s)
{
    for (int i = 0; i < s->nslots; i++)
        free(s->slot[i]);
    free(s->slot);
}

/* Evaluate a program on all rows: the prefix array read backwards is
 * postfix code; the result column is returned (borrowed). */
static const int64_t *eval_prog(const Cols *c, Scratch *s, const uint8_t *code, int len)
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
            int ar = fn_arity[op];
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

static void score(const Cols *c, GpFitness fit, const int64_t *p, double *raw, long *hits,
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

/* ---- random programs and genetic operators (gplearn's _Program) */

typedef struct {
    const GpParams *par;
    Rng rng;
    int funcs[GP_NFUNCS], nfuncs;
    int nvars, nconst;
    int *cand, *cases; /* lexicase scratch: population and row indices */
    int *uniq, nuniq;  /* lexicase: one program per distinct error vector */
    uint16_t *et;      /* errors, case-major: et[row * nuniq + u] */
    uint64_t *lev;     /* lev[(row * LEX_LEVELS + k) * words]: groups with error <= k */
    uint64_t *cbits;   /* lexicase scratch: two bit sets over the groups */
    size_t nrows;
} Gen;

typedef VEC(uint8_t) Code;

static uint8_t rand_function(Gen *g)
{
    return (uint8_t)g->funcs[rng_below(&g->rng, (uint64_t)g->nfuncs)];
}

static uint8_t rand_terminal(Gen *g)
{
    /* as gplearn: a variable with probability nvars/(nvars+1), else a
     * constant chosen uniformly */
    uint64_t t = rng_below(&g->rng, (uint64_t)g->nvars + 1);
    if ((int)t < g->nvars)
        return (uint8_t)(CODE_VAR + t);
    return (uint8_t)(CODE_CONST + rng_below(&g->rng, (uint64_t)g->nconst));
}

static void build_program(Gen *g, Code *out)
{
    int depth_max = g->par->init_depth_min +
                    (int)rng_below(&g->rng, (uint64_t)(g->par->init_depth_max -
                                                       g->par->init_depth_min + 1));
    int full = (int)rng_below(&g->rng, 2);
    int stack[64], sp = 0;
    out->len = 0;
    uint8_t f = rand_function(g);
    VEC_PUSH(*out, f);
    stack[sp++] = fn_arity[f];
    while (sp > 0) {
        int depth = sp;
        uint64_t choice = rng_below(&g->rng, (uint64_t)(g->nvars + g->nfuncs));
        if (depth < depth_max && (full || (int)choice < g->nfuncs)) {
            f = rand_function(g);
            VEC_PUSH(*out, f);
            stack[sp++] = fn_arity[f];
        } else {
            VEC_PUSH(*out, rand_terminal(g));
            stack[sp - 1]--;
            while (sp > 0 && stack[sp - 1] == 0) {
                sp--;
                if (sp > 0)
                    stack[sp - 1]--;
            }
        }
    }
}

static int subtree_end(const uint8_t *code, int start)
{
    int need = 1, end = start;
    while (need > 0) {
        need += code_arity(code[end]) - 1;
        end++;
    }
    return end;
}

/* gplearn's get_subtree: functions are chosen with weight 0.9, terminals
 * with weight 0.1. */
static void get_subtree(Gen *g, const uint8_t *code, int len, int *s, int *e)
{
    int nf = 0;
    for (int i = 0; i < len; i++)
        nf += code[i] < GP_NFUNCS;
    double total = 0.9 * nf + 0.1 * (len - nf), r = rng_unit(&g->rng) * total, acc = 0;
    int start = len - 1;
    for (int i = 0; i < len; i++) {
        acc += code[i] < GP_NFUNCS ? 0.9 : 0.1;
        if (r < acc) {
            start = i;
            break;
        }
    }
    *s = start;
    *e = subtree_end(code, start);
}

static void splice(Code *out, const uint8_t *a, int s, int e, int alen, const uint8_t *d, int ds,
                   int de)
{
    out->len = 0;
    VEC_RESERVE(*out, (size_t)(alen - (e - s) + (de - ds)));
    memcpy(out->data, a, (size_t)s);
    memcpy(out->data + s, d + ds, (size_t)(de - ds));
    memcpy(out->data + s + (de - ds), a + e, (size_t)(alen - e));
    out->len = (size_t)(alen - (e - s) + (de - ds));
}

static int tournament(Gen *g, const Prog *pop, int n)
{
    int best = -1;
    for (int i = 0; i < g->par->tournament; i++) {
        int c = (int)rng_below(&g->rng, (uint64_t)n);
        if (best < 0 || pop[c].fit < pop[best].fit)
            best = c;
    }
    return best;
}

/* Lexicase selection (Spector 2012; Helmuth, Spector and Matheson 2015):
 * rows are taken in random order and the candidates cut to those with the
 * least error on each; the survivor of least penalised fitness (shortest
 * among equals) is chosen, ties by index. */
static int bits_count(const uint64_t *b, size_t nw)
{
    int c = 0;
    for (size_t w = 0; w < nw; w++)
        c += __builtin_popcountll(b[w]);
    return c;
}

/* Whether the bit set has at least two members. */
static int several(const uint64_t *b, size_t nw)
{
    int seen = 0;
    for (size_t w = 0; w < nw; w++)
        if (b[w]) {
            if (seen || (b[w] & (b[w] - 1)))
                return 1;
            seen = 1;
        }
    return 0;
}

/* The candidates are a bit set over the distinct error vectors; for each
 * case the sets "error <= k" (k < LEX_LEVELS) are precomputed, so most
 * filtering steps are a few word operations. */
static int lexicase(Gen *g)
{
    size_t nu = (size_t)g->nuniq, nw = (nu + 63) / 64, left = g->nrows;
    uint64_t *cand = g->cbits, *t = g->cbits + nw;
    for (size_t w = 0; w < nw; w++)
        cand[w] = ~0ULL;
    if (nu % 64)
        cand[nw - 1] = (1ULL << (nu % 64)) - 1;
    for (size_t r = 0; r < g->nrows; r++)
        g->cases[r] = (int)r;
    int nc = (int)nu;
    while (nc > 1 && left > 0) {
        size_t pick = (size_t)rng_below(&g->rng, left);
        int row = g->cases[pick];
        g->cases[pick] = g->cases[--left];
        int done = 0;
        for (int k = 0; k < LEX_LEVELS && !done; k++) {
            const uint64_t *lv = g->lev + ((size_t)row * LEX_LEVELS + (size_t)k) * nw;
            uint64_t any = 0;
            for (size_t w = 0; w < nw; w++)
                any |= t[w] = cand[w] & lv[w];
            if (any) {
                memcpy(cand, t, nw * sizeof *cand);
                done = 1;
            }
        }
        if (!done) {
            const uint16_t *e = g->et + (size_t)row * nu;
            uint16_t best = UINT16_MAX;
            for (size_t w = 0; w < nw; w++)
                for (uint64_t b = cand[w]; b; b &= b - 1) {
                    size_t u = w * 64 + (size_t)__builtin_ctzll(b);
                    best = e[u] < best ? e[u] : best;
                }
            for (size_t w = 0; w < nw; w++)
                for (uint64_t b = cand[w]; b; b &= b - 1) {
                    size_t u = w * 64 + (size_t)__builtin_ctzll(b);
                    if (e[u] != best)
                        cand[w] &= ~(1ULL << (u % 64));
                }
        }
        nc = several(cand, nw) ? 2 : 1;
    }
    nc = bits_count(cand, nw);
    int k = (int)rng_below(&g->rng, (uint64_t)nc);
    for (size_t w = 0;; w++) {
        int c = __builtin_popcountll(cand[w]);
        if (k < c) {
            uint64_t b = cand[w];
            while (k-- > 0)
                b &= b - 1;
            return g->uniq[w * 64 + (size_t)__builtin_ctzll(b)];
        }
        k -= c;
    }
}

/* Group the population by error vector; each group is represented by its
 * member of least penalised fitness (ties by index), so lexicase runs over
 * distinct behaviours and prefers the shortest program of each.  Builds
 * the case-major error matrix (saturated to 16 bits) and, per case, the
 * groups of least error there. */
static void lexicase_groups(Gen *g, const Prog *pop, int n)
{
    size_t cap = 1;
    while (cap < 2 * (size_t)n)
        cap *= 2;
    int *tab = xmalloc(cap * sizeof *tab);
    for (size_t i = 0; i < cap; i++)
        tab[i] = -1;
    size_t bytes = g->nrows * sizeof(uint32_t);
    g->nuniq = 0;
    for (int i = 0; i < n; i++) {
        size_t h = (size_t)hash_bytes(pop[i].err, bytes) & (cap - 1);
        for (;; h = (h + 1) & (cap - 1)) {
            int u = tab[h];
            if (u < 0) {
                tab[h] = g->nuniq;
                g->uniq[g->nuniq++] = i;
                break;
            }
            int r = g->uniq[u];
            if (memcmp(pop[r].err, pop[i].err, bytes) == 0) {
                if (pop[i].fit < pop[r].fit)
                    g->uniq[u] = i;
                break;
            }
        }
    }
    free(tab);
    size_t nu = (size_t)g->nuniq;
    for (size_t u = 0; u < nu; u++) {
        const uint32_t *e = pop[g->uniq[u]].err;
        for (size_t r = 0; r < g->nrows; r++)
            g->et[r * nu + u] = e[r] > UINT16_MAX ? UINT16_MAX : (uint16_t)e[r];
    }
    size_t nw = (nu + 63) / 64;
    memset(g->lev, 0, g->nrows * LEX_LEVELS * nw * sizeof *g->lev);
    for (size_t r = 0; r < g->nrows; r++) {
        const uint16_t *e = g->et + r * nu;
        for (size_t u = 0; u < nu; u++)
            for (int k = e[u]; k < LEX_LEVELS; k++)
                g->lev[(r * LEX_LEVELS + (size_t)k) * nw + u / 64] |= 1ULL << (u % 64);
    }
}

static int select_parent(Gen *g, const Prog *pop, int n)
{
    if (g->par->selection == GP_SEL_LEXICASE)
        return lexicase(g);
    return tournament(g, pop, n);
}

/* One offspring of the current population (gplearn's _parallel_evolve). */
static void offspring(Gen *g, const Prog *pop, int n, Code *out, Code *tmp)
{
    const GpParams *p = g->par;
    int par = select_parent(g, pop, n);
    const uint8_t *a = pop[par].code;
    int alen = pop[par].len, s, e, ds, de;
    double r = rng_unit(&g->rng);
    if (r < p->p_crossover) {
        int don = select_parent(g, pop, n);
        get_subtree(g, a, alen, &s, &e);
        get_subtree(g, pop[don].code, pop[don].len, &ds, &de);
        splice(out, a, s, e, alen, pop[don].code, ds, de);
    } else if (r < p->p_crossover + p->p_subtree) {
        build_program(g, tmp);
        get_subtree(g, a, alen, &s, &e);
        get_subtree(g, tmp->data, (int)tmp->len, &ds, &de);
        splice(out, a, s, e, alen, tmp->data, ds, de);
    } else if (r < p->p_crossover + p->p_subtree + p->p_hoist) {
        get_subtree(g, a, alen, &s, &e);
        get_subtree(g, a + s, e - s, &ds, &de);
        splice(out, a, s, e, alen, a + s, ds, de);
    } else if (r < p->p_crossover + p->p_subtree + p->p_hoist + p->p_point) {
        out->len = 0;
        for (int i = 0; i < alen; i++) {
            uint8_t c = a[i];
            if (rng_unit(&g->rng) < p->p_point_replace) {
                if (c < GP_NFUNCS) {
                    /* a function of the same arity */
                    int cand[GP_NFUNCS], nc = 0;
                    for (int k = 0; k < g->nfuncs; k++)
                        if (fn_arity[g->funcs[k]] == fn_arity[c])
                            cand[nc++] = g->funcs[k];
                    c = (uint8_t)cand[rng_below(&g->rng, (uint64_t)nc)];
                } else {
                    c = rand_terminal(g);
                }
            }
            VEC_PUSH(*out, c);
        }
    } else {
        out->len = 0;
        for (int i = 0; i < alen; i++)
            VEC_PUSH(*out, a[i]);
    }
    if ((int)out->len > p->max_length) {
        out->len = 0;
        for (int i = 0; i < alen; i++)
            VEC_PUSH(*out, a[i]);
    }
}

static uint8_t *dup_code(const uint8_t *c, size_t n)
{
    uint8_t *r = xmalloc(n ? n : 1);
    memcpy(r, c, n);
    return r;
}

/* ---- breeding and evaluation, split over threads.  Offspring i is bred
 * from its own RNG stream, seeded by a number the main thread draws in
 * order, and evaluation is pure: results do not depend on the thread
 * count. */

typedef struct {
    const Cols *cols;
    const GpParams *par;
    Prog *pop;
    int lo, hi;
    Scratch scratch;
    Gen gen;             /* this thread's copy: own RNG and lexicase scratch */
    const Prog *parents; /* breeding: the previous population, or NULL */
    int nparents;
    const uint64_t *seeds;
    Code code, tmp;
    bool stopped; /* cgt_poll asked to stop: pop[lo..hi) is not all evaluated */
} EvalJob;

static void eval_range(EvalJob *j)
{
    for (int i = j->lo; i < j->hi; i++) {
        /* a generation may take seconds: poll per program (issue 14) */
        if (cgt_poll() != CGT_OK) {
            j->stopped = true;
            return;
        }
        Prog *p = &j->pop[i];
        if (j->parents) {
            rng_seed(&j->gen.rng, j->seeds[i]);
            offspring(&j->gen, j->parents, j->nparents, &j->code, &j->tmp);
            prog_set(p, j->code.data, (int)j->code.len);
        }
        const int64_t *out = eval_prog(j->cols, &j->scratch, p->code, p->len);
        if (j->par->selection == GP_SEL_LEXICASE && !p->err)
            p->err = xmalloc((j->cols->nrows ? j->cols->nrows : 1) * sizeof *p->err);
        score(j->cols, j->par->fitness, out, &p->raw, &p->hits, p->err);
        p->fit = p->raw + j->par->parsimony * p->len;
    }
}

static void *eval_thread(void *arg)
{
    eval_range(arg);
    return NULL;
}

/* Breed (when parents is not NULL) and evaluate pop[0..n-1]. */
static void eval_pop(EvalJob jobs[2], int threads, Prog *pop, int n, const Prog *parents,
                     int nparents, const uint64_t *seeds)
{
    for (int t = 0; t < 2; t++) {
        jobs[t].stopped = false;
        jobs[t].pop = pop;
        jobs[t].parents = parents;
        jobs[t].nparents = nparents;
        jobs[t].seeds = seeds;
    }
    if (threads < 2 || n < 64) {
        jobs[0].lo = 0;
        jobs[0].hi = n;
        eval_range(&jobs[0]);
        return;
    }
    jobs[0].lo = 0;
    jobs[0].hi = n / 2;
    jobs[1].lo = n / 2;
    jobs[1].hi = n;
    pthread_t t;
    if (pthread_create(&t, NULL, eval_thread, &jobs[1]) != 0) {
        jobs[0].hi = n;
        eval_range(&jobs[0]);
        return;
    }
    eval_range(&jobs[0]);
    pthread_join(t, NULL);
}

/* Depth of a program: each node is one deeper than its deepest child. */
static int prog_depth(const uint8_t *code, int len)
{
    int stack[GP_MAX_LENGTH + 1], sp = 0;
    for (int i = len - 1; i >= 0; i--) {
        int ar = code_arity(code[i]), m = 0;
        for (int k = 0; k < ar; k++) {
            int v = stack[--sp];
            m = v > m ? v : m;
        }
        stack[sp++] = m + 1;
    }
    return sp > 0 ? stack[0] : 0;
}

/* ---- printing: functional notation and simplified infix */

typedef struct {
    char *s;
    size_t len, cap;
} Buf;

static void buf_add(Buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void buf_add(Buf *b, const char *fmt, ...)
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

enum { EX_FN, EX_VAR, EX_CONST };

typedef struct Ex {
    int kind, op;
    int64_t val;
    struct Ex *a, *b;
} Ex;

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

static void ex_free(Ex *e)
{
    if (!e)
        return;
    ex_free(e->a);
    ex_free(e->b);
    free(e);
}

static Ex *ex_from_code(const uint8_t *code, int *pos, int const_min)
{
    uint8_t c = code[(*pos)++];
    if (c >= CODE_CONST)
        return ex_new(EX_CONST, 0, const_min + (int)(c - CODE_CONST), NULL, NULL);
    if (c >= CODE_VAR)
        return ex_new(EX_VAR, c - CODE_VAR, 0, NULL, NULL);
    Ex *a = ex_from_code(code, pos, const_min);
    Ex *b = fn_arity[c] == 2 ? ex_from_code(code, pos, const_min) : NULL;
    return ex_new(EX_FN, c, 0, a, b);
}

static int64_t ex_eval(const Ex *e, const int64_t *x)
{
    if (e->kind == EX_CONST)
        return e->val;
    if (e->kind == EX_VAR)
        return x[e->op];
    int64_t a = ex_eval(e->a, x), b = e->b ? ex_eval(e->b, x) : 0;
    return apply1(e->op, a, b);
}

static void ex_functional(Buf *b, const Ex *e, char *const *names)
{
    if (e->kind == EX_CONST) {
        buf_add(b, "%lld", (long long)e->val);
    } else if (e->kind == EX_VAR) {
        buf_add(b, "%s", names[e->op]);
    } else {
        buf_add(b, "%s(", fn_names[e->op]);
        ex_functional(b, e->a, names);
        if (e->b) {
            buf_add(b, ",");
            ex_functional(b, e->b, names);
        }
        buf_add(b, ")");
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
    ex_free(old);
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
    ex_free(e);
    return k;
}

/* Value-preserving rewrites (every one holds for all integer inputs under
 * the semantics of docs/gp.md). */
static Ex *ex_simplify(Ex *e)
{
    if (e->kind != EX_FN)
        return e;
    e->a = ex_simplify(e->a);
    if (e->b)
        e->b = ex_simplify(e->b);
    if (!ex_has_var(e))
        return ex_const(e, ex_eval(e, NULL));
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
            ex_free(e);
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
        s->c = wrap((uint64_t)s->c + (uint64_t)sign * (uint64_t)e->val);
        return;
    }
    if (is_sum(e)) {
        sum_collect(s, e->a, sign, modc);
        if (e->op == GP_ADD)
            sum_collect(s, e->b, sign, modc);
        else if (e->op == GP_SUB)
            sum_collect(s, e->b, -sign, modc);
        else
            s->c = wrap((uint64_t)s->c + (uint64_t)sign);
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

static void ex_infix(Buf *b, const Ex *e, int minlevel, char *const *names);

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
            int64_t r = op_mod(s.coef[i], c);
            s.coef[i] = 2 * r > c ? r - c : r;
        }
        s.c = op_mod(s.c, c);
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
            buf_add(b, k < 0 ? "-" : "");
        else
            buf_add(b, k < 0 ? " - " : " + ");
        uint64_t m = k < 0 ? 0 - (uint64_t)k : (uint64_t)k;
        if (m == 1 && first && k < 0) {
            ex_infix(b, s.t[i], 5, names); /* -(x mod 3), never -x mod 3 */
        } else if (m != 1) {
            buf_add(b, "%llu*", (unsigned long long)m);
            ex_infix(b, s.t[i], 5, names);
        } else {
            ex_infix(b, s.t[i], 4, names);
        }
        first = 0;
    }
    if (first)
        buf_add(b, "%lld", (long long)s.c);
    else if (s.c > 0)
        buf_add(b, " + %lld", (long long)s.c);
    else if (s.c < 0)
        buf_add(b, " - %llu", (unsigned long long)(0 - (uint64_t)s.c));
    sum_free(&s);
}

static void ex_infix(Buf *b, const Ex *e, int minlevel, char *const *names)
{
    int lev = ex_level(e), paren = lev < minlevel;
    if (paren)
        buf_add(b, "(");
    if (e->kind == EX_CONST) {
        buf_add(b, "%lld", (long long)e->val);
    } else if (e->kind == EX_VAR) {
        buf_add(b, "%s", names[e->op]);
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
                buf_add(b, wrap_it ? "(" : "");
                buf_add(b, "%s", t.s);
                buf_add(b, wrap_it ? ")" : "");
                buf_add(b, " mod %lld", (long long)e->b->val);
                free(t.s);
                break;
            }
            /* fall through */
        case GP_TIMES:
        case GP_DIVIDE:
            ex_infix(b, e->a, 4, names);
            buf_add(b, "%s", sym[e->op]);
            ex_infix(b, e->b, 5, names);
            break;
        case GP_EQUAL:
        case GP_LESS:
        case GP_GREATER:
            ex_infix(b, e->a, 3, names);
            buf_add(b, "%s", sym[e->op]);
            ex_infix(b, e->b, 3, names);
            break;
        case GP_XOR:
        case GP_AND:
        case GP_OR:
            ex_infix(b, e->a, 2, names);
            buf_add(b, "%s", sym[e->op]);
            ex_infix(b, e->b, 2, names);
            break;
        case GP_LOG:
            buf_add(b, "log2(");
            ex_infix(b, e->a, 0, names);
            buf_add(b, ")");
            break;
        case GP_NOT:
            buf_add(b, "not(");
            ex_infix(b, e->a, 0, names);
            buf_add(b, ")");
            break;
        }
    }
    if (paren)
        buf_add(b, ")");
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
    int f = func_find(s + st, n);
    if (f < 0) {
        cgt_error_set(p->err, CGT_ERR_DOMAIN, "unknown GP function '%.*s'", (int)n, s + st);
        hint_functions(p->err);
        p->failed = 1;
        return NULL;
    }
    p->i++;
    Ex *a = parse_ex(p, depth + 1), *b = NULL;
    if (!p->failed && fn_arity[f] == 2) {
        skip_ws(p);
        if (s[p->i] != ',') {
            cgt_error_set(p->err, CGT_ERR_DOMAIN, "%s takes two arguments", fn_names[f]);
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
        ex_free(e);
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
        ex_free(e);
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
    e = ex_simplify(e);
    ex_infix(&b, e, 0, d->names);
    ex_free(e);
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
        hits += ex_eval(e, d->x + r * (size_t)d->nvars) == d->y[r];
    ex_free(e);
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
    *out = ex_eval(e, x);
    ex_free(e);
    return CGT_OK;
}

/* ---- the run */

static void cols_make(Cols *c, const GpData *d, const GpParams *p, int64_t **store)
{
    size_t n = d->nrows;
    int nconst = p->const_max - p->const_min + 1;
    int64_t *m = xmalloc(((size_t)d->nvars + (size_t)nconst + 1) * (n ? n : 1) * sizeof *m);
    c->nrows = n;
    c->nvars = d->nvars;
    c->nconst = nconst;
    for (int v = 0; v < d->nvars; v++) {
        int64_t *col = m + (size_t)v * n;
        for (size_t r = 0; r < n; r++)
            col[r] = d->x[r * (size_t)d->nvars + (size_t)v];
        c->col[v] = col;
    }
    for (int k = 0; k < nconst; k++) {
        int64_t *col = m + ((size_t)d->nvars + (size_t)k) * n;
        for (size_t r = 0; r < n; r++)
            col[r] = p->const_min + k;
        c->ccol[k] = col;
    }
    c->y = d->y;
    *store = m;
}

static int cmp_fit(const Prog *pop, int i, int j)
{
    if (pop[i].fit < pop[j].fit)
        return -1;
    if (pop[i].fit > pop[j].fit)
        return 1;
    return i < j ? -1 : i > j;
}

/* indices of the `k` fittest programs, best first (ties by index) */
static void fittest(const Prog *pop, int n, int k, int *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        int pos = m < k ? m++ : k;
        if (pos == k) {
            if (cmp_fit(pop, i, out[k - 1]) >= 0)
                continue;
            pos = k - 1;
        }
        while (pos > 0 && cmp_fit(pop, i, out[pos - 1]) < 0) {
            out[pos] = out[pos - 1];
            pos--;
        }
        out[pos] = i;
    }
}

static void pop_free(Prog *pop, int n)
{
    for (int i = 0; i < n; i++) {
        free(pop[i].code);
        free(pop[i].err);
    }
    free(pop);
}

CgtStatus gp_run(const GpParams *p, const GpData *train, const GpData *test, GpResult *res,
                 CgtError *err)
{
    memset(res, 0, sizeof *res);
    CgtStatus st = gp_params_check(p, err);
    if (st != CGT_OK)
        return st;
    if (!train || train->nrows == 0)
        return cgt_error_set(err, CGT_ERR_DOMAIN, "empty GP data set");
    if (test && test->nvars != train->nvars)
        return cgt_error_set(err, CGT_ERR_DOMAIN,
                             "held-out set has %d variables, training set %d", test->nvars,
                             train->nvars);
    if (p->selection == GP_SEL_LEXICASE &&
        (double)p->population * (double)train->nrows > GP_LEXICASE_MAX_CELLS) {
        cgt_error_set(err, CGT_ERR_LIMIT,
                      "lexicase selection on %zu rows with population %d needs too much memory",
                      train->nrows, p->population);
        cgt_error_hint(err, "use selection tournament, fewer positions or a smaller population "
                            "(population x rows at most %d)",
                       GP_LEXICASE_MAX_CELLS);
        return CGT_ERR_LIMIT;
    }
    double t0 = cgt_now();
    Gen g;
    memset(&g, 0, sizeof g);
    g.par = p;
    rng_seed(&g.rng, p->seed);
    for (int f = 0; f < GP_NFUNCS; f++)
        if (p->functions >> f & 1)
            g.funcs[g.nfuncs++] = f;
    g.nvars = train->nvars;
    g.nconst = p->const_max - p->const_min + 1;
    g.nrows = train->nrows;
    g.cand = xmalloc((size_t)p->population * sizeof *g.cand);
    g.cases = xmalloc(train->nrows * sizeof *g.cases);
    g.uniq = xmalloc((size_t)p->population * sizeof *g.uniq);
    if (p->selection == GP_SEL_LEXICASE) {
        g.et = xmalloc((size_t)p->population * train->nrows * sizeof *g.et);
        g.lev = xmalloc(train->nrows * LEX_LEVELS * (((size_t)p->population + 63) / 64) *
                        sizeof *g.lev);
    }

    Cols cols;
    int64_t *store;
    cols_make(&cols, train, p, &store);
    EvalJob jobs[2];
    for (int t = 0; t < 2; t++) {
        memset(&jobs[t], 0, sizeof jobs[t]);
        jobs[t].cols = &cols;
        jobs[t].par = p;
        jobs[t].scratch.nrows = cols.nrows;
    }
    int n = p->population;
    Prog *pop = xcalloc((size_t)n, sizeof *pop), *next = xcalloc((size_t)n, sizeof *next);
    Code code = {0}, tmp = {0};
    for (int i = 0; i < n; i++) {
        build_program(&g, &code);
        prog_set(&pop[i], code.data, (int)code.len);
    }
    for (int t = 0; t < 2; t++) {
        jobs[t].gen = g;
        jobs[t].gen.cand = xmalloc((size_t)p->population * sizeof *g.cand);
        jobs[t].gen.cases = xmalloc(train->nrows * sizeof *g.cases);
        jobs[t].gen.cbits = xmalloc(2 * (((size_t)p->population + 63) / 64) * sizeof *g.cbits);
    }
    uint64_t *seeds = xmalloc((size_t)n * sizeof *seeds);
    eval_pop(jobs, p->threads, pop, n, NULL, 0, NULL);
    if (jobs[0].stopped || jobs[1].stopped)
        st = cgt_poll_error(err, cgt_poll(), "genetic programming");
    long long evaluated = n;
    int elite_n = p->elitism > 0 ? p->elitism : 1;
    int *elite = xmalloc((size_t)elite_n * sizeof *elite);
    uint8_t *best = NULL;
    int best_len = 0, best_gen = 0, gen = 0;
    double best_fit = 0, best_raw = 0;
    long best_hits = 0;
    while (st == CGT_OK) {
        fittest(pop, n, elite_n, elite);
        const Prog *b = &pop[elite[0]];
        if (!best || b->fit < best_fit) {
            free(best);
            best = dup_code(b->code, (size_t)b->len);
            best_len = b->len;
            best_fit = b->fit;
            best_raw = b->raw;
            best_hits = b->hits;
            best_gen = gen;
        }
        double mean = 0;
        for (int i = 0; i < n; i++)
            mean += pop[i].len;
        cgt_progress("gp", "generation %d: best fitness %g, %ld/%zu exact, mean size %.1f", gen,
                     best_raw, best_hits, cols.nrows, mean / n);
        if (gen + 1 >= p->generations || (p->stop_on_perfect && best_hits == (long)cols.nrows))
            break;
        st = cgt_poll();
        if (st != CGT_OK) {
            cgt_poll_error(err, st, "genetic programming");
            break;
        }
        if (p->selection == GP_SEL_LEXICASE) {
            lexicase_groups(&g, pop, n);
            for (int t = 0; t < 2; t++)
                jobs[t].gen.nuniq = g.nuniq;
        }
        int start = 0;
        for (; start < p->elitism; start++) {
            const Prog *e = &pop[elite[start]];
            Prog *d = &next[start];
            prog_set(d, e->code, e->len);
            d->raw = e->raw;
            d->fit = e->fit;
            d->hits = e->hits;
            if (e->err) {
                if (!d->err)
                    d->err = xmalloc(cols.nrows * sizeof *e->err);
                memcpy(d->err, e->err, cols.nrows * sizeof *e->err);
            }
        }
        for (int i = start; i < n; i++)
            seeds[i - start] = rng_next(&g.rng);
        /* elites keep their fitness; only the offspring are bred and evaluated */
        eval_pop(jobs, p->threads, next + start, n - start, pop, n, seeds);
        if (jobs[0].stopped || jobs[1].stopped) {
            /* the unfinished generation is dropped: pop is the last whole one */
            st = cgt_poll_error(err, cgt_poll(), "genetic programming");
            break;
        }
        evaluated += n - start;
        Prog *swap = pop;
        pop = next;
        next = swap;
        gen++;
    }
    if (st == CGT_OK) {
        int pos = 0;
        Ex *e = ex_from_code(best, &pos, p->const_min);
        Buf fb = {0}, ib = {0};
        ex_functional(&fb, e, train->names);
        e = ex_simplify(e);
        ex_infix(&ib, e, 0, train->names);
        res->formula = fb.s;
        res->infix = ib.s;
        res->raw_fitness = best_raw;
        res->train_accuracy = (double)best_hits / (double)cols.nrows;
        res->test_accuracy = -1;
        if (test && test->nrows > 0) {
            long h = 0;
            for (size_t r = 0; r < test->nrows; r++)
                h += ex_eval(e, test->x + r * (size_t)test->nvars) == test->y[r];
            res->test_accuracy = (double)h / (double)test->nrows;
        }
        ex_free(e);
        res->generation = best_gen;
        res->generations_run = gen + 1;
        res->length = best_len;
        res->depth = prog_depth(best, best_len);
        res->seed = p->seed;
        res->programs_evaluated = evaluated;
        res->seconds = cgt_now() - t0;
    }
    free(best);
    free(elite);
    free(g.cand);
    free(g.cases);
    free(g.uniq);
    free(g.et);
    free(g.lev);
    pop_free(pop, n);
    pop_free(next, n);
    VEC_FREE(code);
    VEC_FREE(tmp);
    for (int t = 0; t < 2; t++) {
        scratch_free(&jobs[t].scratch);
        free(jobs[t].gen.cand);
        free(jobs[t].gen.cases);
        free(jobs[t].gen.cbits);
        VEC_FREE(jobs[t].code);
        VEC_FREE(jobs[t].tmp);
    }
    free(seeds);
    free(store);
    return st;
}

void gp_result_free(GpResult *res)
{
    free(res->formula);
    free(res->infix);
    res->formula = res->infix = NULL;
}
