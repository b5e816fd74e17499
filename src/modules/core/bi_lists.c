/* Core builtins on lists, ranges and records: len, list, append, sort,
 * count, reverse, map, filter, keys, values, has. */
#include <stdlib.h>
#include <string.h>

#include "modules/core/module.h"
#include "lib/util/poll.h"
#include "lib/util/xalloc.h"

Value *bi_len(Call *c)
{
    Value *v = c->args[0];
    switch (v->kind) {
    case VAL_LIST:
        return val_int((int64_t)v->u.list.len);
    case VAL_STR:
        return val_int((int64_t)v->u.str.len);
    case VAL_MAP:
        return val_int((int64_t)v->u.map.len);
    case VAL_RANGE: {
        mpz_t n;
        mpz_init(n);
        val_range_len_mpz(v, n);
        Value *r = val_int_mpz(n);
        mpz_clear(n);
        return r;
    }
    default:
        return rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "%s %s has no length",
                        val_article(val_kind_name(v)), val_kind_name(v));
    }
}

Value *bi_list(Call *c)
{
    Value *v = c->args[0], *l = val_list();
    if (v->kind == VAL_RANGE) {
        if (val_range_count(v) > 100000000) {
            val_unref(l);
            rt_error(c->I, DIAG_LIMIT, c->arg_locs[0], "range too long for a list");
            return NULL;
        }
        for (int64_t x = v->u.range.lo; x <= v->u.range.hi; x++) {
            val_list_push(l, val_int(x));
            if (x == INT64_MAX)
                break;
            CgtStatus st;
            if ((l->u.list.len & 4095) == 0 && (st = cgt_poll()) != CGT_OK) {
                /* 10^8 values take seconds and gigabytes */
                val_unref(l);
                CgtError err;
                cgt_poll_error(&err, st, "list");
                return rt_error_from(c->I, c->loc, &err);
            }
        }
    } else if (v->kind == VAL_LIST) {
        for (size_t i = 0; i < v->u.list.len; i++)
            val_list_push(l, val_ref(v->u.list.items[i]));
    } else {
        for (size_t i = 0; i < v->u.str.len; i++)
            val_list_push(l, val_str_n(v->u.str.s + i, 1));
    }
    return l;
}

Value *bi_append(Call *c)
{
    Value *l = val_list(), *v = c->args[0];
    for (size_t i = 0; i < v->u.list.len; i++)
        val_list_push(l, val_ref(v->u.list.items[i]));
    val_list_push(l, val_ref(c->args[1]));
    return l;
}

static Value *item_at(const Value *v, uint64_t i);
static uint64_t items_count(const Value *v);

/* The order of sort: integers by value, strings byte by byte, booleans
 * false before true, lists lexicographically in this order (a prefix
 * first).  -1, 0 or 1; 2 when the two cannot be compared (other kinds,
 * two kinds, or lists nested deeper than SORT_MAX_DEPTH). */
#define SORT_MAX_DEPTH 1000

static int order_of(const Value *x, const Value *y, int depth)
{
    if (x->kind != y->kind || depth > SORT_MAX_DEPTH)
        return 2;
    switch (x->kind) {
    case VAL_INT: {
        int64_t a, b;
        if (val_get_i64(x, &a) && val_get_i64(y, &b))
            return (a > b) - (a < b);
        mpz_t zx, zy;
        mpz_inits(zx, zy, NULL);
        val_get_mpz(x, zx);
        val_get_mpz(y, zy);
        int r = mpz_cmp(zx, zy);
        mpz_clears(zx, zy, NULL);
        return (r > 0) - (r < 0);
    }
    case VAL_STR: {
        int r = strcmp(x->u.str.s, y->u.str.s);
        return (r > 0) - (r < 0);
    }
    case VAL_BOOL:
        return (int)x->u.b - (int)y->u.b;
    case VAL_LIST:
        for (size_t i = 0; i < x->u.list.len && i < y->u.list.len; i++) {
            int r = order_of(x->u.list.items[i], y->u.list.items[i], depth + 1);
            if (r != 0)
                return r;
        }
        return (x->u.list.len > y->u.list.len) - (x->u.list.len < y->u.list.len);
    default:
        return 2;
    }
}

typedef struct SortState {
    Value **keys;
    size_t *tmp;
    uint64_t steps;
    const Value *bad_a, *bad_b; /* the first pair that could not be compared */
    CgtStatus stop;             /* a poll that stopped the sort */
} SortState;

/* A stable merge sort of idx[0..n) by keys (Knuth, TAOCP vol. 3,
 * section 5.2.4); stops at the first incomparable pair or poll. */
static void merge_sort(SortState *s, size_t *idx, size_t n)
{
    if (n < 2 || s->bad_a || s->stop != CGT_OK)
        return;
    size_t h = n / 2;
    merge_sort(s, idx, h);
    merge_sort(s, idx + h, n - h);
    if (s->bad_a || s->stop != CGT_OK)
        return;
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        if ((++s->steps & 65535) == 0 && (s->stop = cgt_poll()) != CGT_OK)
            return;
        int r = order_of(s->keys[idx[j]], s->keys[idx[i]], 0);
        if (r == 2) {
            s->bad_a = s->keys[idx[i]];
            s->bad_b = s->keys[idx[j]];
            return;
        }
        s->tmp[k++] = r < 0 ? idx[j++] : idx[i++];
    }
    while (i < h)
        s->tmp[k++] = idx[i++];
    while (j < n)
        s->tmp[k++] = idx[j++];
    memcpy(idx, s->tmp, n * sizeof *idx);
}

Value *bi_sort(Call *c)
{
    Value *v = c->args[0], *key = c->nargs > 1 ? c->args[1] : NULL;
    size_t n = v->u.list.len;
    SortState s = {0};
    s.stop = CGT_OK;
    s.keys = xcalloc(n ? n : 1, sizeof *s.keys);
    s.tmp = xmalloc((n ? n : 1) * sizeof *s.tmp);
    size_t *idx = xmalloc((n ? n : 1) * sizeof *idx);
    Value *out = NULL;
    for (size_t i = 0; i < n; i++) {
        idx[i] = i;
        Value *x = v->u.list.items[i];
        s.keys[i] = key ? rt_call_value(c->I, key, &x, 1, c->arg_locs[1]) : val_ref(x);
        if (!s.keys[i])
            goto done;
    }
    merge_sort(&s, idx, n);
    if (s.stop != CGT_OK) {
        CgtError err;
        cgt_poll_error(&err, s.stop, "sort");
        rt_error_from(c->I, c->loc, &err);
        goto done;
    }
    if (s.bad_a) {
        const char *ka = val_kind_name(s.bad_a), *kb = val_kind_name(s.bad_b);
        rt_error(c->I, DIAG_TYPE, c->arg_locs[key ? 1 : 0], "sort cannot compare %s %s with %s %s%s",
                 val_article(ka), ka, val_article(kb), kb, key ? " (values of the key)" : "");
        rt_hint(c->I, "sort orders integers, strings, booleans and lists of them; for other "
                      "values give a key, as in sort(l, (r) -> r.n)");
        goto done;
    }
    out = val_list();
    for (size_t i = 0; i < n; i++)
        val_list_push(out, val_ref(v->u.list.items[idx[i]]));
done:
    for (size_t i = 0; i < n; i++)
        val_unref(s.keys[i]);
    free(s.keys);
    free(s.tmp);
    free(idx);
    return out;
}

/* count(L, X): the items of L equal to X, or for which X is true when X
 * is a function; in a string, the non-overlapping occurrences of the
 * substring X, or the characters for which X is true. */
Value *bi_count(Call *c)
{
    Value *src = c->args[0], *x = c->args[1];
    bool pred = x->kind == VAL_FUNC;
    if (src->kind == VAL_STR && !pred) {
        if (x->kind != VAL_STR || x->u.str.len == 0) {
            rt_error(c->I, x->kind == VAL_STR ? DIAG_DOMAIN : DIAG_TYPE, c->arg_locs[1],
                     "count in a string needs a non-empty string or a function, got %s",
                     x->kind == VAL_STR ? "\"\"" : val_kind_name(x));
            return NULL;
        }
        int64_t k = 0;
        for (const char *p = src->u.str.s; (p = strstr(p, x->u.str.s)); p += x->u.str.len)
            k++;
        return val_int(k);
    }
    if (src->kind == VAL_RANGE && !pred) {
        int64_t y;
        return val_int(val_get_i64(x, &y) && x->kind == VAL_INT && y >= src->u.range.lo &&
                       y <= src->u.range.hi);
    }
    uint64_t n = src->kind == VAL_STR ? src->u.str.len : items_count(src);
    int64_t k = 0;
    for (uint64_t i = 0; i < n; i++) {
        Value *item = src->kind == VAL_STR ? val_str_n(src->u.str.s + i, 1) : item_at(src, i);
        bool hit;
        if (pred) {
            Value *r = rt_call_value(c->I, x, &item, 1, c->arg_locs[1]);
            val_unref(item);
            if (!r)
                return NULL;
            hit = val_truthy(r);
            val_unref(r);
        } else {
            CgtError err;
            cgt_error_clear(&err);
            CgtStatus st = val_equal_checked(item, x, &hit, &err);
            val_unref(item);
            if (st != CGT_OK)
                return rt_error_from(c->I, c->loc, &err);
        }
        k += hit;
    }
    return val_int(k);
}

Value *bi_reverse(Call *c)
{
    Value *v = c->args[0];
    if (v->kind == VAL_STR) {
        char *s = xstrndup(v->u.str.s, v->u.str.len);
        for (size_t i = 0; i < v->u.str.len / 2; i++) {
            char t = s[i];
            s[i] = s[v->u.str.len - 1 - i];
            s[v->u.str.len - 1 - i] = t;
        }
        return val_str_own(s);
    }
    Value *l = val_list();
    for (size_t i = v->u.list.len; i-- > 0;)
        val_list_push(l, val_ref(v->u.list.items[i]));
    return l;
}

/* The items of a list or range argument, one at a time: *n items, item i
 * is a new reference. */
static Value *item_at(const Value *v, uint64_t i)
{
    return v->kind == VAL_LIST ? val_ref(v->u.list.items[i]) : val_int(val_range_at(v, i));
}

static uint64_t items_count(const Value *v)
{
    return v->kind == VAL_LIST ? v->u.list.len : val_range_count(v);
}

static Value *map_filter(Call *c, bool filter)
{
    Value *fn = c->args[0], *src = c->args[1];
    uint64_t n = items_count(src);
    Value *out = val_list();
    for (uint64_t i = 0; i < n; i++) {
        Value *x = item_at(src, i);
        Value *r = rt_call_value(c->I, fn, &x, 1, c->loc);
        if (!r) {
            val_unref(x);
            val_unref(out);
            return NULL;
        }
        if (filter) {
            if (val_truthy(r))
                val_list_push(out, val_ref(x));
            val_unref(r);
        } else {
            val_list_push(out, r);
        }
        val_unref(x);
    }
    return out;
}

Value *bi_map(Call *c)
{
    return map_filter(c, false);
}

Value *bi_filter(Call *c)
{
    return map_filter(c, true);
}

static Value *need_record(Call *c)
{
    if (c->args[0]->kind == VAL_MAP)
        return c->args[0];
    rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "bad argument #1 to '%s' (record expected, got %s)",
             c->bi->name, val_kind_name(c->args[0]));
    rt_hint(c->I, "usage: %s", c->bi->synopsis);
    return NULL;
}

Value *bi_keys(Call *c)
{
    Value *m = need_record(c);
    if (!m)
        return NULL;
    Value *l = val_list();
    for (size_t i = 0; i < m->u.map.len; i++)
        val_list_push(l, val_str(m->u.map.keys[i]));
    return l;
}

Value *bi_values(Call *c)
{
    Value *m = need_record(c);
    if (!m)
        return NULL;
    Value *l = val_list();
    for (size_t i = 0; i < m->u.map.len; i++)
        val_list_push(l, val_ref(m->u.map.vals[i]));
    return l;
}

Value *bi_has(Call *c)
{
    Value *a = c->args[0], *k = c->args[1];
    if (a->kind == VAL_MAP) {
        if (k->kind != VAL_STR)
            return rt_error(c->I, DIAG_TYPE, c->arg_locs[1],
                            "a record's keys are strings, got %s", val_kind_name(k));
        return val_bool(val_map_get(a, k->u.str.s) != NULL);
    }
    if (a->kind == VAL_STR) {
        if (k->kind != VAL_STR)
            return rt_error(c->I, DIAG_TYPE, c->arg_locs[1],
                            "has(STRING, X) looks for a string, got %s", val_kind_name(k));
        return val_bool(strstr(a->u.str.s, k->u.str.s) != NULL);
    }
    if (a->kind == VAL_RANGE) {
        int64_t x;
        return val_bool(k->kind == VAL_INT && val_get_i64(k, &x) && x >= a->u.range.lo &&
                        x <= a->u.range.hi);
    }
    if (a->kind != VAL_LIST) {
        rt_error(c->I, DIAG_TYPE, c->arg_locs[0],
                 "bad argument #1 to 'has' (record, list, range or string expected, got %s)",
                 val_kind_name(a));
        rt_hint(c->I, "usage: %s", c->bi->synopsis);
        return NULL;
    }
    CgtError err;
    cgt_error_clear(&err);
    for (size_t i = 0; i < a->u.list.len; i++) {
        bool eq;
        if (val_equal_checked(a->u.list.items[i], k, &eq, &err) != CGT_OK)
            return rt_error_from(c->I, c->loc, &err);
        if (eq)
            return val_bool(true);
    }
    return val_bool(false);
}

/* ---- integers ---- */
