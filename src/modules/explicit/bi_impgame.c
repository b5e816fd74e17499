/* Explicit impartial games in the language (docs/language.md "Explicit
 * games", docs/misere.md "Canonical forms"): the impgame value, its text
 * form, the evaluator's hooks and the builtins of builtins_impgame.def.
 * The mathematics is in src/lib/explicit/impgame.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/explicit/module.h"
#include "modules/games/gameobj.h"
#include "modules/explicit/impgameobj.h"
#include "lib/util/hash.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

static IgStore *store;

IgStore *impgame_store(void)
{
    if (!store)
        store = ig_new();
    return store;
}

void impgame_store_release(void)
{
    ig_free(store);
    store = NULL;
}

/* ---- a map from node ids to small integers ---- */

typedef struct IdMap {
    IgId *keys; /* id + 1; 0 = empty */
    uint32_t *vals;
    size_t cap, len;
} IdMap;

static void idmap_free(IdMap *m)
{
    free(m->keys);
    free(m->vals);
}

static uint32_t *idmap_slot(IdMap *m, IgId id, bool insert)
{
    if (insert && 2 * (m->len + 1) > m->cap) {
        IdMap n = {0};
        n.cap = m->cap ? 2 * m->cap : 64;
        n.keys = xcalloc(n.cap, sizeof *n.keys);
        n.vals = xmalloc(n.cap * sizeof *n.vals);
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i])
                *idmap_slot(&n, m->keys[i] - 1, true) = m->vals[i];
        idmap_free(m);
        *m = n;
    }
    if (!m->cap)
        return NULL;
    size_t i = hash_mix64(id) & (m->cap - 1);
    while (m->keys[i] && m->keys[i] != id + 1)
        i = (i + 1) & (m->cap - 1);
    if (m->keys[i])
        return &m->vals[i];
    if (!insert)
        return NULL;
    m->keys[i] = id + 1;
    m->len++;
    m->vals[i] = UINT32_MAX;
    return &m->vals[i];
}

/* ---- a structural order of the followers of a game ----
 * Options are printed in an order that depends only on the games, not on
 * when their nodes were made: by birthday, then by the sorted list of the
 * ranks of their options (shorter first, then lexicographic). */

typedef struct Ranker {
    IdMap rank;
    VEC(IgId) nodes;
    VEC(uint32_t) keys; /* per node: sorted option ranks, at koff[i] */
    VEC(size_t) koff;
} Ranker;

static const IgStore *cmp_st;

static int cmp_birthday(const void *a, const void *b)
{
    uint32_t x = ig_birthday(cmp_st, *(const IgId *)a), y = ig_birthday(cmp_st, *(const IgId *)b);
    return (x > y) - (x < y);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* nodes[] here holds indices into a level array: compare their keys.  A
 * nim heap *k (lvl_off SIZE_MAX) has the key rank(*0) < ... < rank(*(k-1))
 * (lvl_nimrank), which is not written out: a game with *100000 among its
 * followers would need 5 * 10^9 entries. */
static const uint32_t *lvl_key, *lvl_nimrank;
static const size_t *lvl_off, *lvl_len;

static uint32_t lvl_at(size_t i, size_t k)
{
    return lvl_off[i] == SIZE_MAX ? lvl_nimrank[k] : lvl_key[lvl_off[i] + k];
}

static int cmp_level(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    if (lvl_len[i] != lvl_len[j])
        return lvl_len[i] < lvl_len[j] ? -1 : 1;
    for (size_t k = 0; k < lvl_len[i]; k++) {
        uint32_t x = lvl_at(i, k), y = lvl_at(j, k);
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

/* Visit g in the walk of ranker_build: a nim heap only raises *maxnim (its
 * followers are all the smaller heaps), another node is pushed once. */
static void ranker_visit(Ranker *r, const IgStore *s, IgId g, VEC_U32 *stack, long *maxnim,
                         IgId *maxnim_id)
{
    long k = ig_nim_size(s, g);
    if (k >= 0) {
        if (k > *maxnim) {
            *maxnim = k;
            *maxnim_id = g;
        }
        return;
    }
    if (idmap_slot(&r->rank, g, false))
        return;
    idmap_slot(&r->rank, g, true);
    VEC_PUSH(*stack, g);
}

static void ranker_build(Ranker *r, const IgStore *s, const IgId *roots, size_t nroots)
{
    memset(r, 0, sizeof *r);
    VEC_U32 stack = {0};
    long maxnim = -1;
    IgId maxnim_id = IG_ZERO;
    for (size_t i = 0; i < nroots; i++)
        ranker_visit(r, s, roots[i], &stack, &maxnim, &maxnim_id);
    while (stack.len) {
        IgId x = stack.data[--stack.len];
        VEC_PUSH(r->nodes, x);
        const IgId *o = ig_opts(s, x);
        for (size_t k = 0; k < ig_nopts(s, x); k++)
            ranker_visit(r, s, o[k], &stack, &maxnim, &maxnim_id);
    }
    free(stack.data);
    /* the nim heaps *0..*maxnim: the options of *maxnim, and itself */
    const IgId *nims = maxnim >= 0 ? ig_opts(s, maxnim_id) : NULL;
    for (long k = 0; k <= maxnim; k++) {
        IgId x = k < maxnim ? nims[k] : maxnim_id;
        idmap_slot(&r->rank, x, true);
        VEC_PUSH(r->nodes, x);
    }
    uint32_t *nimrank = xmalloc((size_t)(maxnim + 1 > 0 ? maxnim + 1 : 1) * sizeof *nimrank);
    cmp_st = s;
    qsort(r->nodes.data, r->nodes.len, sizeof *r->nodes.data, cmp_birthday);
    uint32_t next = 0;
    size_t i = 0;
    while (i < r->nodes.len) {
        size_t j = i;
        uint32_t bd = ig_birthday(s, r->nodes.data[i]);
        while (j < r->nodes.len && ig_birthday(s, r->nodes.data[j]) == bd)
            j++;
        size_t m = j - i;
        VEC(uint32_t) key = {0};
        size_t *off = xmalloc(m * sizeof *off), *len = xmalloc(m * sizeof *len);
        size_t *idx = xmalloc(m * sizeof *idx);
        for (size_t t = 0; t < m; t++) {
            IgId x = r->nodes.data[i + t];
            len[t] = ig_nopts(s, x);
            idx[t] = t;
            if (ig_nim_size(s, x) >= 0) {
                off[t] = SIZE_MAX;
                continue;
            }
            off[t] = key.len;
            const IgId *o = ig_opts(s, x);
            for (size_t k = 0; k < len[t]; k++)
                VEC_PUSH(key, *idmap_slot(&r->rank, o[k], false));
            if (len[t])
                qsort(key.data + off[t], len[t], sizeof *key.data, cmp_u32);
        }
        lvl_key = key.data;
        lvl_nimrank = nimrank;
        lvl_off = off;
        lvl_len = len;
        qsort(idx, m, sizeof *idx, cmp_level);
        IgId *sorted = xmalloc(m * sizeof *sorted);
        for (size_t t = 0; t < m; t++) {
            sorted[t] = r->nodes.data[i + idx[t]];
            *idmap_slot(&r->rank, sorted[t], false) = next;
            long k = ig_nim_size(s, sorted[t]);
            if (k >= 0)
                nimrank[k] = next;
            next++;
        }
        memcpy(r->nodes.data + i, sorted, m * sizeof *sorted);
        free(sorted);
        free(idx);
        free(off);
        free(len);
        free(key.data);
        i = j;
    }
    free(nimrank);
}

static void ranker_free(Ranker *r)
{
    idmap_free(&r->rank);
    free(r->nodes.data);
    free(r->keys.data);
    free(r->koff.data);
}

static uint32_t rank_of(Ranker *r, IgId g)
{
    return *idmap_slot(&r->rank, g, false);
}

typedef struct RankedId {
    uint32_t rank;
    IgId id;
} RankedId;

static int cmp_ranked(const void *a, const void *b)
{
    uint32_t x = ((const RankedId *)a)->rank, y = ((const RankedId *)b)->rank;
    return (x > y) - (x < y);
}

/* Options of g sorted by rank, into a new array. */
static IgId *sorted_opts(const IgStore *s, Ranker *r, IgId g)
{
    size_t n = ig_nopts(s, g);
    const IgId *o = ig_opts(s, g);
    RankedId *ro = xmalloc((n ? n : 1) * sizeof *ro);
    for (size_t i = 0; i < n; i++)
        ro[i] = (RankedId){rank_of(r, o[i]), o[i]};
    qsort(ro, n, sizeof *ro, cmp_ranked);
    IgId *out = xmalloc((n ? n : 1) * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = ro[i].id;
    free(ro);
    return out;
}

/* ---- text form ---- */

#define TEXT_MAX 4000

static void game_text_rec(const IgStore *s, Ranker *r, IgId g, StrBuf *out, bool *cut)
{
    if (*cut)
        return;
    if (out->len > TEXT_MAX) {
        sb_puts(out, "...");
        *cut = true;
        return;
    }
    long k = ig_nim_size(s, g);
    if (k == 0) {
        sb_putc(out, '0');
        return;
    }
    if (k > 0) {
        sb_printf(out, "*%ld", k);
        return;
    }
    IgId *o = sorted_opts(s, r, g);
    sb_putc(out, '{');
    for (size_t i = 0; i < ig_nopts(s, g) && !*cut; i++) {
        if (i)
            sb_puts(out, ", ");
        game_text_rec(s, r, o[i], out, cut);
    }
    if (!*cut)
        sb_putc(out, '}');
    free(o);
}

static void game_text_of(IgId g, StrBuf *out)
{
    const IgStore *s = impgame_store();
    Ranker r;
    ranker_build(&r, s, &g, 1);
    bool cut = false;
    size_t start = out->len;
    game_text_rec(s, &r, g, out, &cut);
    if (cut) {
        out->len = start;
        out->s[start] = '\0';
        sb_printf(out, "<game: birthday %u, %zu positions; too large to print>",
                  ig_birthday(s, g), r.nodes.len);
    }
    ranker_free(&r);
}

typedef struct GameBox {
    IgId id;
} GameBox;

static void box_free(void *p)
{
    free(p);
}

static void box_text(const void *p, StrBuf *out)
{
    game_text_of(((const GameBox *)p)->id, out);
}

static void box_json(const void *p, JsonWriter *w)
{
    IgId g = ((const GameBox *)p)->id;
    StrBuf t;
    sb_init(&t);
    game_text_of(g, &t);
    jw_obj_begin(w);
    jw_kv_str(w, "kind", "impgame");
    jw_kv_str(w, "game", t.s);
    jw_kv_int(w, "birthday", ig_birthday(impgame_store(), g));
    jw_obj_end(w);
    sb_free(&t);
}

static Value *impgame_binop(Interp *I, int op, const Value *a, const Value *b, Loc loc);

const ObjType impgame_type = {"impgame", box_free, box_text, box_json, impgame_binop, NULL};

Value *impgame_value(IgId g)
{
    GameBox *b = xmalloc(sizeof *b);
    b->id = g;
    return val_obj(&impgame_type, b);
}

bool impgame_is(const Value *v)
{
    return val_is_obj(v, &impgame_type);
}

bool impgame_of(Interp *I, const Value *v, Loc loc, const char *what, IgId *out)
{
    if (impgame_is(v)) {
        *out = ((const GameBox *)v->u.obj.ptr)->id;
        return true;
    }
    int64_t x;
    if (v->kind == VAL_INT && val_get_i64(v, &x) && x == 0) {
        *out = IG_ZERO;
        return true;
    }
    rt_error(I, DIAG_TYPE, loc, "%s must be a game, got %s", what,
             v->kind == VAL_INT ? "a non-zero integer" : val_kind_name(v));
    if (v->kind == VAL_INT)
        rt_hint(I, "the nim heap of size n is written *n; 0 is the empty game");
    return false;
}

/* ---- evaluator hooks ---- */

#define STAR_MAX 100000

static Value *impgame_eval_star(Interp *I, const AstNode *e)
{
    int64_t n = 1;
    if (e->nkids) {
        /* *e for any integer expression e (docs/language.md "Explicit games") */
        Value *v = rt_eval(I, e->kids[0]);
        if (!v)
            return NULL;
        if (v->kind != VAL_INT) {
            const char *k = val_kind_name(v);
            rt_error(I, DIAG_TYPE, e->kids[0]->loc, "a nim heap *n needs an integer n, got %s %s",
                     val_article(k), k);
            val_unref(v);
            return NULL;
        }
        bool fits = val_get_i64(v, &n), neg = fits ? n < 0 : mpz_sgn(v->u.i.z) < 0;
        val_unref(v);
        if (neg && fits)
            return rt_error(I, DIAG_DOMAIN, e->kids[0]->loc, "a nim heap *n needs n >= 0, got %lld",
                            (long long)n);
        if (neg)
            return rt_error(I, DIAG_DOMAIN, e->kids[0]->loc, "a nim heap *n needs n >= 0");
        if (!fits || n > STAR_MAX)
            return rt_error(I, DIAG_LIMIT, e->loc, "nim heaps *n are supported for n <= %d",
                            STAR_MAX);
    }
    IgId g;
    CgtError err;
    cgt_error_clear(&err);
    if (ig_nim(impgame_store(), (uint32_t)n, &g, &err) != CGT_OK)
        return rt_error_from(I, e->loc, &err);
    return impgame_value(g);
}

static Value *impgame_eval_literal(Interp *I, const AstNode *e)
{
    IgId *o = xmalloc((e->nkids ? e->nkids : 1) * sizeof *o);
    for (size_t i = 0; i < e->nkids; i++) {
        Value *v = rt_eval(I, e->kids[i]);
        if (!v) {
            free(o);
            return NULL;
        }
        bool ok = impgame_of(I, v, e->kids[i]->loc, "an option of a game", &o[i]);
        val_unref(v);
        if (!ok) {
            free(o);
            return NULL;
        }
    }
    IgId g;
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = ig_make(impgame_store(), o, e->nkids, &g, &err);
    free(o);
    if (st != CGT_OK)
        return rt_error_from(I, e->loc, &err);
    return impgame_value(g);
}

static bool canon_or_error(Interp *I, IgId g, Loc loc, IgId *out)
{
    CgtError err;
    cgt_error_clear(&err);
    if (ig_canon(impgame_store(), g, out, &err) != CGT_OK) {
        rt_error_from(I, loc, &err);
        return false;
    }
    return true;
}

static Value *impgame_binop(Interp *I, int op, const Value *a, const Value *b, Loc loc)
{
    IgId x, y;
    if (op != '+' && op != OP_EQ && op != OP_NE)
        return rt_error(I, DIAG_TYPE, loc, "games can only be added (+) and compared (==, !=)");
    if (!impgame_of(I, a, loc, "the left operand", &x) ||
        !impgame_of(I, b, loc, "the right operand", &y))
        return NULL;
    if (op == '+') {
        IgId z;
        CgtError err;
        cgt_error_clear(&err);
        if (ig_sum(impgame_store(), x, y, &z, &err) != CGT_OK)
            return rt_error_from(I, loc, &err);
        return impgame_value(z);
    }
    /* misère equality: identical canonical forms */
    if (!canon_or_error(I, x, loc, &x) || !canon_or_error(I, y, loc, &y))
        return NULL;
    return val_bool(op == OP_EQ ? x == y : x != y);
}

#define HEAP_MAX 100000
#define EXPAND_MAX 1000000
#define EXPAND_OPTIONS_MAX 20000000

static Value *impgame_heap(Interp *I, const Value *game, const Value *nv, Loc loc)
{
    GameObj *go = game_heap_or_error(I, game, loc, "an explicit heap");
    if (!go)
        return NULL;
    int64_t n;
    if (nv->kind != VAL_INT || !val_get_i64(nv, &n) || n < 0 || n > HEAP_MAX)
        return rt_error(I, DIAG_DOMAIN, loc, "a heap size must be an integer in 0..%d",
                        HEAP_MAX);
    IgStore *s = impgame_store();
    size_t before = ig_count(s), before_opts = ig_option_count(s);
    /* the cap counts nodes and literal sums (both only grow) */
    ig_set_limit(s, before + EXPAND_MAX);
    ig_set_option_limit(s, before_opts + EXPAND_OPTIONS_MAX);
    IgId *h = xmalloc(((size_t)n + 1) * sizeof *h);
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = ig_heaps(s, ruleset_heapgame(go->rs), (uint32_t)n, false, h, &err);
    ig_set_limit(s, 20000000);
    ig_set_option_limit(s, 0);
    IgId g = h[n];
    free(h);
    if (st == CGT_ERR_LIMIT && strncmp(err.msg, "explicit games:", 15) == 0) {
        rt_error(I, DIAG_LIMIT, loc,
                 "heap %lld of %s is too large to expand as an explicit game (more than %d "
                 "positions, sums or %d options)",
                 (long long)n, go->name, EXPAND_MAX, EXPAND_OPTIONS_MAX);
        rt_hint(I, "`canonical table G a..b` and `genus` work on canonical forms without "
                   "expanding heaps");
        return NULL;
    }
    if (st != CGT_OK)
        return rt_error_from(I, loc, &err);
    return impgame_value(g);
}

Value *impgame_literal(Interp *I, const AstNode *e)
{
    return e->kind == AST_STAR ? impgame_eval_star(I, e) : impgame_eval_literal(I, e);
}

Value *impgame_apply(Interp *I, const Value *f, const AstNode *call)
{
    if (!val_is_obj(f, &game_type) || call->nkids != 1)
        return NULL;
    /* G(n): heap n of a heap game as an explicit game */
    Value *n = rt_eval(I, call->kids[0]);
    if (!n)
        return NULL;
    Value *r = impgame_heap(I, f, n, call->loc);
    val_unref(n);
    return r;
}

/* ---- builtins ---- */

static bool arg_game(Call *c, size_t i, IgId *g)
{
    return impgame_of(c->I, c->args[i], c->arg_locs[i], "the argument", g);
}


Value *bi_options(Call *c)
{
    IgId g;
    if (!arg_game(c, 0, &g))
        return NULL;
    const IgStore *s = impgame_store();
    Ranker r;
    ranker_build(&r, s, &g, 1);
    IgId *o = sorted_opts(s, &r, g);
    Value *l = val_list();
    for (size_t i = 0; i < ig_nopts(s, g); i++)
        val_list_push(l, impgame_value(o[i]));
    free(o);
    ranker_free(&r);
    return l;
}

Value *bi_birthday(Call *c)
{
    IgId g;
    if (!arg_game(c, 0, &g))
        return NULL;
    return val_int(ig_birthday(impgame_store(), g));
}

Value *bi_nimber(Call *c)
{
    IgId g;
    if (!arg_game(c, 0, &g))
        return NULL;
    return val_int(ig_nimber(impgame_store(), g));
}

Value *bi_misere_value(Call *c)
{
    IgId g;
    if (!arg_game(c, 0, &g))
        return NULL;
    return val_int(ig_misere_value(impgame_store(), g));
}

Value *bi_positions(Call *c)
{
    IgId g;
    if (!arg_game(c, 0, &g))
        return NULL;
    size_t n;
    CgtError err;
    cgt_error_clear(&err);
    if (ig_size(impgame_store(), g, &n, &err) != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);
    return val_int((int64_t)n);
}

Value *bi_impgame_outcome(Call *c)
{
    IgId g;
    if (!arg_game(c, 0, &g))
        return NULL;
    const IgStore *s = impgame_store();
    const char *nor = ig_nimber(s, g) ? "N" : "P";
    const char *mis = ig_misere_p(s, g) ? "P" : "N";
    StrBuf t;
    sb_init(&t);
    game_text_of(g, &t);
    /* the record of every outcome (docs/language.md) */
    Value *r = val_result("outcome");
    val_map_set_str(r, "game", t.s);
    val_map_set(r, "position", val_null());
    val_map_set_str(r, "normal", nor);
    val_map_set_str(r, "misere", mis);
    val_map_set(r, "element", val_null());
    sb_free(&t);
    return r;
}

Value *bi_impgame_genus(Call *c)
{
    IgId g;
    if (!arg_game(c, 0, &g))
        return NULL;
    Genus gen;
    CgtError err;
    cgt_error_clear(&err);
    if (ig_genus(impgame_store(), g, &gen, &err) != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);
    char *f = genus_format(&gen);
    return val_str_own(f);
}

Value *bi_born(Call *c)
{
    int64_t d;
    if (!call_int(c, c->args[0], c->arg_locs[0], "the day", 0, IG_BORN_LIST_DAY, &d))
        return NULL;
    IgId l[IG_BORN_LIST_MAX];
    size_t n;
    CgtError err;
    cgt_error_clear(&err);
    if (ig_born_list(impgame_store(), (unsigned)d, l, &n, &err) != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);
    Ranker r;
    ranker_build(&r, impgame_store(), l, n);
    Value *v = val_list();
    for (size_t i = 0; i < r.nodes.len; i++)
        for (size_t k = 0; k < n; k++)
            if (l[k] == r.nodes.data[i])
                val_list_push(v, impgame_value(l[k]));
    ranker_free(&r);
    return v;
}

Value *bi_games(Call *c)
{
    Value *born = call_opt(c, "born"), *by = call_opt(c, "by"), *day = call_opt(c, "day");
    if (!born || !by || !day) {
        rt_error(c->I, DIAG_TYPE, c->loc, "games: expected `games born by day D`");
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
        return NULL;
    }
    int64_t d;
    if (!call_int(c, day, call_opt_loc(c, "day"), "the day", 0, IG_BORN_COUNT_DAY, &d))
        return NULL;
    uint64_t count;
    CgtError err;
    cgt_error_clear(&err);
    if (ig_born_count(impgame_store(), (unsigned)d, &count, &err) != CGT_OK)
        return rt_error_from(c->I, c->loc, &err);
    Value *list = NULL;
    if (d <= IG_BORN_LIST_DAY) {
        Call sub = *c;
        sub.args[0] = day;
        sub.stmt = false;
        list = bi_born(&sub);
        if (!list)
            return NULL;
    }
    /* the games are listed up to day IG_BORN_LIST_DAY, as their text */
    Value *r = val_result("born"), *gl = list ? val_list() : val_null();
    val_map_set_int(r, "day", d);
    val_map_set_int(r, "count", (int64_t)count);
    for (size_t i = 0; list && i < list->u.list.len; i++) {
        StrBuf t;
        sb_init(&t);
        val_format(list->u.list.items[i], &t, true);
        val_list_push(gl, val_str_own(t.s));
    }
    val_map_set(r, "games", gl);
    val_unref(list);
    return r;
}

void impgame_born_text(const Call *c, const Value *r, StrBuf *b)
{
    (void)c;
    sb_printf(b, "misere canonical games born by day %lld: %lld\n",
              (long long)val_field_int(r, "day"), (long long)val_field_int(r, "count"));
    const Value *gl = val_map_get(r, "games");
    for (size_t i = 0; gl && gl->kind == VAL_LIST && i < gl->u.list.len; i++)
        sb_printf(b, "  %s\n", gl->u.list.items[i]->u.str.s);
}

/* ---- canonical forms and the Dawson note's table (bi_impgame_table.c) ---- */

Value *impgame_table(Call *c, GameObj *g, int64_t lo, int64_t hi, bool sizes);

Value *bi_canonical(Call *c)
{
    Value *tab = call_opt(c, "table");
    bool sizes = call_opt(c, "sizes") != NULL;
    if (tab) {
        GameObj *g = game_heap_or_error(c->I, tab, call_opt_loc(c, "table"), "canonical table");
        if (!g)
            return NULL;
        if (c->nargs < 1 || !c->args[0] || c->args[0]->kind != VAL_RANGE) {
            rt_error(c->I, DIAG_TYPE, c->loc, "canonical table needs a range of heaps");
            rt_hint(c->I, "usage: %s", c->bi->synopsis);
            return NULL;
        }
        int64_t lo = c->args[0]->u.range.lo, hi = c->args[0]->u.range.hi;
        if (lo < 0 || hi > 10000 || lo > hi)
            return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[0],
                            "the heaps of a canonical table must be a range within 0..10000");
        return impgame_table(c, g, lo, hi, sizes);
    }
    if (c->nargs < 1 || !c->args[0]) {
        rt_error(c->I, DIAG_TYPE, c->loc, "canonical needs a game");
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
        return NULL;
    }
    IgId g;
    if (!arg_game(c, 0, &g) || !canon_or_error(c->I, g, c->arg_locs[0], &g))
        return NULL;
    return impgame_value(g);
}
