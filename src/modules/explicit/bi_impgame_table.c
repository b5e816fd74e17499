/* `canonical table G a..b`: the misère canonical forms of single heaps in
 * the layout of Figure 4 of Plambeck's Dawson's Chess note (heap, the
 * form's abbreviation, its options), with the note's names (docs/misere.md
 * "Canonical forms"):
 *   n[k]        the misère nim heap *k;
 *   a[k]        k/2 copies of *2, plus *1 when k is odd (k >= 4; a[2] = n[2]
 *               and a[3] = n[3]);
 *   aK[i,j,..]  the game {a[K], n[i], n[j], ...} (the note's a4[1,2]);
 *   h[j]        the canonical form of heap j, for a form with none of the
 *               names above that equals some heap j of the table (least j);
 *   g$N         any other form, numbered 1, 2, ... in order of first
 *               appearance in the table (rows in heap order, options in
 *               printed order); `where` lists their options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "modules/explicit/module.h"
#include "modules/games/gameobj.h"
#include "modules/explicit/impgameobj.h"
#include "lib/util/poll.h"
#include "lib/util/vec.h"
#include "lib/util/xalloc.h"

typedef struct Namer {
    IgStore *s;
    const IgId *heaps;
    int64_t lo, hi;
    IgId *a;      /* a[k] for k = 0..na-1 */
    size_t na;
    VEC(IgId) gids; /* g$N = gids[N-1] */
} Namer;

static long find_a(const Namer *nm, IgId x)
{
    for (size_t k = 4; k < nm->na; k++)
        if (nm->a[k] == x)
            return (long)k;
    return -1;
}

/* Name group (for ordering options): 0 g$, 1 h, 2 a, 3 aK[..], 4 n. */
static int name_of(Namer *nm, IgId x, char *buf, size_t size, bool assign, long *num)
{
    long k = ig_nim_size(nm->s, x);
    if (k >= 0) {
        snprintf(buf, size, "n[%ld]", k);
        *num = k;
        return 4;
    }
    if ((k = find_a(nm, x)) >= 0) {
        snprintf(buf, size, "a[%ld]", k);
        *num = k;
        return 2;
    }
    /* {a[K], n[i], ...} */
    const IgId *o = ig_opts(nm->s, x);
    size_t n = ig_nopts(nm->s, x);
    long K = -1;
    size_t nims = 0;
    for (size_t i = 0; i < n; i++) {
        long ak = find_a(nm, o[i]);
        if (ak >= 0 && K < 0)
            K = ak;
        else if (ig_nim_size(nm->s, o[i]) >= 0)
            nims++;
    }
    if (K >= 0 && nims == n - 1 && nims > 0) {
        long nk[64];
        size_t m = 0;
        for (size_t i = 0; i < n && m < 64; i++)
            if (ig_nim_size(nm->s, o[i]) >= 0)
                nk[m++] = ig_nim_size(nm->s, o[i]);
        for (size_t i = 1; i < m; i++)
            for (size_t j = i; j > 0 && nk[j - 1] > nk[j]; j--) {
                long t = nk[j];
                nk[j] = nk[j - 1];
                nk[j - 1] = t;
            }
        size_t len = (size_t)snprintf(buf, size, "a%ld[", K);
        for (size_t i = 0; i < m && len < size; i++)
            len += (size_t)snprintf(buf + len, size - len, i ? ",%ld" : "%ld", nk[i]);
        if (len < size)
            snprintf(buf + len, size - len, "]");
        *num = K;
        return 3;
    }
    for (int64_t j = nm->lo; j <= nm->hi; j++)
        if (nm->heaps[j] == x) {
            snprintf(buf, size, "h[%lld]", (long long)j);
            *num = (long)j;
            return 1;
        }
    for (size_t i = 0; i < nm->gids.len; i++)
        if (nm->gids.data[i] == x) {
            snprintf(buf, size, "g$%zu", i + 1);
            *num = (long)i + 1;
            return 0;
        }
    if (!assign) {
        snprintf(buf, size, "g$?");
        *num = 0;
        return 0;
    }
    VEC_PUSH(nm->gids, x);
    snprintf(buf, size, "g$%zu", nm->gids.len);
    *num = (long)nm->gids.len;
    return 0;
}

typedef struct OptName {
    int group;
    long num;
    char name[160];
    IgId id;
} OptName;

static int cmp_optname(const void *a, const void *b)
{
    const OptName *x = a, *y = b;
    if (x->group != y->group)
        return x->group - y->group;
    if (x->num != y->num)
        return x->num < y->num ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The options of x named and sorted: g$ (new ones numbered in the order of
 * the options' structure), h, a, aK[...], n. */
static OptName *named_opts(Namer *nm, IgId x, size_t *n)
{
    *n = ig_nopts(nm->s, x);
    OptName *on = xcalloc(*n ? *n : 1, sizeof *on);
    const IgId *o = ig_opts(nm->s, x);
    /* first pass without assigning, so that new g$ names follow birthday
       order among the unnamed options */
    for (size_t i = 0; i < *n; i++) {
        on[i].id = o[i];
        on[i].group = name_of(nm, o[i], on[i].name, sizeof on[i].name, false, &on[i].num);
    }
    for (size_t i = 0; i < *n; i++)
        for (size_t j = i + 1; j < *n; j++) {
            bool ui = on[i].group == 0 && on[i].num == 0, uj = on[j].group == 0 && on[j].num == 0;
            if (ui && uj && ig_birthday(nm->s, on[j].id) < ig_birthday(nm->s, on[i].id)) {
                OptName t = on[i];
                on[i] = on[j];
                on[j] = t;
            }
        }
    for (size_t i = 0; i < *n; i++)
        on[i].group = name_of(nm, on[i].id, on[i].name, sizeof on[i].name, true, &on[i].num);
    qsort(on, *n, sizeof *on, cmp_optname);
    return on;
}

Value *impgame_table(Call *c, GameObj *g, int64_t lo, int64_t hi, bool sizes);

Value *impgame_table(Call *c, GameObj *g, int64_t lo, int64_t hi, bool sizes)
{
    IgStore *s = impgame_store();
    IgId *h = xmalloc(((size_t)hi + 1) * sizeof *h);
    CgtError err;
    cgt_error_clear(&err);
    if (ig_heaps(s, ruleset_heapgame(g->rs), (uint32_t)hi, true, h, &err) != CGT_OK) {
        free(h);
        return rt_error_from(c->I, c->loc, &err);
    }

    Namer nm = {.s = s, .heaps = h, .lo = lo, .hi = hi};
    uint32_t maxbd = 0;
    for (int64_t k = lo; k <= hi; k++)
        if (ig_birthday(s, h[k]) > maxbd)
            maxbd = ig_birthday(s, h[k]);
    nm.na = 2 * (size_t)maxbd + 2;
    nm.a = xmalloc(nm.na * sizeof *nm.a);
    IgId one, two;
    CgtStatus st = ig_nim(s, 1, &one, &err);
    if (st == CGT_OK)
        st = ig_nim(s, 2, &two, &err);
    nm.a[0] = IG_ZERO;
    for (size_t k = 1; k < nm.na && st == CGT_OK; k++)
        st = k % 2 ? ig_sum_canon(s, nm.a[k - 1], one, &nm.a[k], &err)
                   : ig_sum_canon(s, nm.a[k - 2], two, &nm.a[k], &err);
    if (st != CGT_OK) {
        free(nm.a);
        free(h);
        return rt_error_from(c->I, c->loc, &err);
    }
    bool where = call_opt(c, "where") != NULL;
    Value *t = val_result("canonical_table"), *games = val_list(), *rows = val_list();
    val_map_set_str(t, "game", g->name);
    val_map_set_int(t, "from", lo);
    val_map_set_int(t, "to", hi);
    for (int64_t k = lo; k <= hi; k++) {
        char name[160];
        long num;
        size_t npos = 0;
        /* a row may list 10000 options and count millions of positions */
        if ((st = cgt_poll()) != CGT_OK)
            cgt_poll_error(&err, st, "canonical table");
        else if (sizes)
            st = ig_size(s, h[k], &npos, &err);
        if (st != CGT_OK) {
            val_unref(t);
            val_unref(games);
            val_unref(rows);
            free(nm.gids.data);
            free(nm.a);
            free(h);
            return rt_error_from(c->I, c->loc, &err);
        }
        name_of(&nm, h[k], name, sizeof name, true, &num);
        size_t n;
        OptName *on = named_opts(&nm, h[k], &n);
        Value *row = val_map(), *opts = val_list();
        val_map_set_int(row, "heap", k);
        val_map_set_str(row, "name", name);
        for (size_t i = 0; i < n; i++)
            val_list_push(opts, val_str(on[i].name));
        val_map_set(row, "options", opts);
        val_map_set_int(row, "birthday", ig_birthday(s, h[k]));
        val_map_set_opt_int(row, "positions", sizes, (int64_t)npos);
        val_list_push(rows, row);
        val_list_push(games, impgame_value(h[k]));
        free(on);
    }
    val_map_set(t, "games", games);
    val_map_set(t, "rows", rows);
    Value *wl = where ? val_list() : val_null();
    /* defining a g$ name may name further forms: a queue */
    for (size_t i = 0; where && i < nm.gids.len; i++) {
        size_t n;
        OptName *on = named_opts(&nm, nm.gids.data[i], &n);
        Value *d = val_map(), *opts = val_list();
        val_map_set(d, "name", val_str_own(xasprintf("g$%zu", i + 1)));
        for (size_t k = 0; k < n; k++)
            val_list_push(opts, val_str(on[k].name));
        val_map_set(d, "options", opts);
        val_list_push(wl, d);
        free(on);
    }
    val_map_set(t, "where", wl);
    free(nm.gids.data);
    free(nm.a);
    free(h);
    return t;
}

static void put_names(StrBuf *b, const Value *opts)
{
    sb_putc(b, '{');
    for (size_t i = 0; opts && opts->kind == VAL_LIST && i < opts->u.list.len; i++)
        sb_printf(b, i ? ", %s" : "%s", opts->u.list.items[i]->u.str.s);
    sb_putc(b, '}');
}

/* The layout of Figure 4 of the Dawson's Chess note: heap, name, options. */
void impgame_table_text(const Call *c, const Value *t, StrBuf *b)
{
    (void)c;
    sb_printf(b, "%s: misere canonical forms for n = %lld..%lld\n", val_field_str(t, "game"),
              (long long)val_field_int(t, "from"), (long long)val_field_int(t, "to"));
    sb_printf(b, "  %-7s %-9s canonical form\n", "heap", "game");
    const Value *rows = val_map_get(t, "rows"), *wl = val_map_get(t, "where");
    for (size_t i = 0; rows && rows->kind == VAL_LIST && i < rows->u.list.len; i++) {
        const Value *row = rows->u.list.items[i];
        char heap[32];
        snprintf(heap, sizeof heap, "h[%lld]", (long long)val_field_int(row, "heap"));
        sb_printf(b, "  %-7s %-9s = ", heap, val_field_str(row, "name"));
        put_names(b, val_map_get(row, "options"));
        const Value *np = val_map_get(row, "positions");
        if (np && np->kind == VAL_INT) {
            int64_t n = val_field_int(row, "positions");
            sb_printf(b, "  (%lld position%s, birthday %lld)", (long long)n, n == 1 ? "" : "s",
                      (long long)val_field_int(row, "birthday"));
        }
        sb_putc(b, '\n');
    }
    if (wl && wl->kind == VAL_LIST && wl->u.list.len > 0) {
        sb_puts(b, "  where\n");
        for (size_t i = 0; i < wl->u.list.len; i++) {
            const Value *d = wl->u.list.items[i];
            sb_printf(b, "  %-7s %-9s = ", "", val_field_str(d, "name"));
            put_names(b, val_map_get(d, "options"));
            sb_putc(b, '\n');
        }
    }
}
