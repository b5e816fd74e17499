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

static void put_opts(StrBuf *b, const OptName *on, size_t n)
{
    sb_putc(b, '{');
    for (size_t i = 0; i < n; i++)
        sb_printf(b, i ? ", %s" : "%s", on[i].name);
    sb_putc(b, '}');
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
    if (!c->stmt) {
        Value *l = val_list();
        for (int64_t k = lo; k <= hi; k++)
            val_list_push(l, impgame_value(h[k]));
        free(h);
        return l;
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
    bool json = rt_json(c->I);
    bool where = call_opt(c, "where") != NULL;
    StrBuf b;
    sb_init(&b);
    JsonWriter w;
    if (json) {
        rt_json_begin(&w, &b, "canonical_table");
        jw_kv_str(&w, "game", g->name);
        jw_kv_int(&w, "from", lo);
        jw_kv_int(&w, "to", hi);
        jw_key(&w, "rows");
        jw_arr_begin(&w);
    } else {
        sb_printf(&b, "%s: misere canonical forms for n = %lld..%lld\n", g->name, (long long)lo,
                  (long long)hi);
        sb_printf(&b, "  %-7s %-9s canonical form\n", "heap", "game");
    }
    for (int64_t k = lo; k <= hi; k++) {
        char name[160], heap[32];
        long num;
        size_t npos = 0;
        /* a row may list 10000 options and count millions of positions */
        if ((st = cgt_poll()) != CGT_OK)
            cgt_poll_error(&err, st, "canonical table");
        else if (sizes)
            st = ig_size(s, h[k], &npos, &err);
        if (st != CGT_OK) {
            sb_free(&b);
            free(nm.gids.data);
            free(nm.a);
            free(h);
            return rt_error_from(c->I, c->loc, &err);
        }
        name_of(&nm, h[k], name, sizeof name, true, &num);
        size_t n;
        OptName *on = named_opts(&nm, h[k], &n);
        snprintf(heap, sizeof heap, "h[%lld]", (long long)k);
        if (json) {
            jw_obj_begin(&w);
            jw_kv_int(&w, "heap", k);
            jw_kv_str(&w, "name", name);
            jw_key(&w, "options");
            jw_arr_begin(&w);
            for (size_t i = 0; i < n; i++)
                jw_str(&w, on[i].name);
            jw_arr_end(&w);
            jw_kv_int(&w, "birthday", ig_birthday(s, h[k]));
            if (sizes)
                jw_kv_int(&w, "positions", (long long)npos);
            jw_obj_end(&w);
        } else {
            sb_printf(&b, "  %-7s %-9s = ", heap, name);
            put_opts(&b, on, n);
            if (sizes)
                sb_printf(&b, "  (%zu position%s, birthday %u)", npos, npos == 1 ? "" : "s", ig_birthday(s, h[k]));
            sb_putc(&b, '\n');
        }
        free(on);
    }
    if (json)
        jw_arr_end(&w);
    if (where) {
        if (json) {
            jw_key(&w, "where");
            jw_arr_begin(&w);
        } else if (nm.gids.len) {
            sb_puts(&b, "  where\n");
        }
        /* defining a g$ name may name further forms: a queue */
        for (size_t i = 0; i < nm.gids.len; i++) {
            size_t n;
            OptName *on = named_opts(&nm, nm.gids.data[i], &n);
            if (json) {
                char nb[32];
                snprintf(nb, sizeof nb, "g$%zu", i + 1);
                jw_obj_begin(&w);
                jw_kv_str(&w, "name", nb);
                jw_key(&w, "options");
                jw_arr_begin(&w);
                for (size_t k = 0; k < n; k++)
                    jw_str(&w, on[k].name);
                jw_arr_end(&w);
                jw_obj_end(&w);
            } else {
                char nb[32];
                snprintf(nb, sizeof nb, "g$%zu", i + 1);
                sb_printf(&b, "  %-7s %-9s = ", "", nb);
                put_opts(&b, on, n);
                sb_putc(&b, '\n');
            }
            free(on);
        }
        if (json)
            jw_arr_end(&w);
    }
    if (json)
        rt_json_end(&w);
    free(nm.gids.data);
    free(nm.a);
    free(h);
    rt_emit(c->I, &b);
    return val_null();
}
