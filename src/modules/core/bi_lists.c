/* Core builtins on lists, ranges and records: len, list, append, sort,
 * reverse, map, filter, keys, values, has. */
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
        return rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "a %s has no length",
                        val_kind_name(v));
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

static int cmp_values(const void *a, const void *b)
{
    const Value *x = *(Value *const *)a, *y = *(Value *const *)b;
    if (x->kind == VAL_STR)
        return strcmp(x->u.str.s, y->u.str.s);
    mpz_t zx, zy;
    mpz_inits(zx, zy, NULL);
    val_get_mpz(x, zx);
    val_get_mpz(y, zy);
    int r = mpz_cmp(zx, zy);
    mpz_clears(zx, zy, NULL);
    return r;
}

static bool homogeneous(Call *c, const Value *l, ValKind *kind)
{
    *kind = VAL_INT;
    if (l->u.list.len)
        *kind = l->u.list.items[0]->kind;
    if (*kind != VAL_INT && *kind != VAL_STR)
        goto bad;
    for (size_t i = 0; i < l->u.list.len; i++)
        if (l->u.list.items[i]->kind != *kind)
            goto bad;
    return true;
bad:
    rt_error(c->I, DIAG_TYPE, c->arg_locs[0], "expected a list of integers or of strings");
    return false;
}

Value *bi_sort(Call *c)
{
    Value *v = c->args[0];
    ValKind k;
    if (!homogeneous(c, v, &k))
        return NULL;
    Value *l = val_list();
    for (size_t i = 0; i < v->u.list.len; i++)
        val_list_push(l, val_ref(v->u.list.items[i]));
    if (l->u.list.len > 1)
        qsort(l->u.list.items, l->u.list.len, sizeof(Value *), cmp_values);
    return l;
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
