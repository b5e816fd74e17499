/* Mixed and explicit-set quotients (docs/misere.md, "Mixed and
 * explicit-set quotients"): `quotient q = [G1, G2, ...] to N` over the
 * positions made of heaps of several heap games at once, and `quotient q =
 * [X1, X2, ...]` over the sums of the games of the closure of a finite set
 * of explicit games (the quotient of a closed set of games, Plambeck and
 * Siegel, "Misère quotients for impartial games", JCTA 115 (2008)).  Both
 * become one heap game of src/lib/misere/mqmix.h, so the construction,
 * the certificate and every statement on a quotient are those of one
 * ruleset's quotient. */
#include <stdlib.h>
#include <string.h>

#include "lib/util/poll.h"
#include "lib/util/xalloc.h"
#include "modules/explicit/impgameobj.h"
#include "modules/games/gameobj.h"
#include "modules/games/heaps.h"
#include "modules/misere/bi_misere.h"

/* At most this many games in the closure of an explicit set, with at most
 * this many options in all. */
#define CLOSURE_MAX 100000
#define CLOSURE_OPTS_MAX 4000000
/* Labels of explicit games are cut at about this many bytes. */
#define LABEL_MAX 2000

/* A set of node ids (open addressing; id + 1 stored, 0 = empty). */
typedef struct IdSet {
    IgId *keys;
    uint32_t *vals;
    size_t cap, len;
} IdSet;

static size_t idset_slot(const IdSet *s, IgId id)
{
    size_t i = ((size_t)id * 2654435761u) & (s->cap - 1);
    while (s->keys[i] && s->keys[i] != id + 1)
        i = (i + 1) & (s->cap - 1);
    return i;
}

static void idset_grow(IdSet *s)
{
    IdSet t = {xcalloc(s->cap * 2, sizeof *t.keys), xcalloc(s->cap * 2, sizeof *t.vals),
               s->cap * 2, s->len};
    for (size_t i = 0; i < s->cap; i++)
        if (s->keys[i]) {
            size_t j = idset_slot(&t, s->keys[i] - 1);
            t.keys[j] = s->keys[i];
            t.vals[j] = s->vals[i];
        }
    free(s->keys);
    free(s->vals);
    *s = t;
}

/* Insert id with value v; false when it was there. */
static bool idset_put(IdSet *s, IgId id, uint32_t v)
{
    if (2 * (s->len + 1) > s->cap)
        idset_grow(s);
    size_t i = idset_slot(s, id);
    if (s->keys[i])
        return false;
    s->keys[i] = id + 1;
    s->vals[i] = v;
    s->len++;
    return true;
}

/* The value of id, or UINT32_MAX. */
static uint32_t idset_get(const IdSet *s, IgId id)
{
    size_t i = idset_slot(s, id);
    return s->keys[i] ? s->vals[i] : UINT32_MAX;
}

static const IgStore *cmp_store;

/* Options come first: by birthday, then by id. */
static int cmp_birth(const void *a, const void *b)
{
    IgId x = *(const IgId *)a, y = *(const IgId *)b;
    uint32_t bx = ig_birthday(cmp_store, x), by = ig_birthday(cmp_store, y);
    if (bx != by)
        return bx < by ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* The closure of the explicit games of the list as a table part: the
 * games other than 0 that are followers of some member, by birthday. */
static bool explicit_part(Interp *I, const Value *list, Loc loc, QuotObj *o, MqMixPart *part)
{
    IgStore *st = impgame_store();
    IdSet seen = {xcalloc(64, sizeof(IgId)), xcalloc(64, sizeof(uint32_t)), 64, 0};
    IgId *nodes = NULL, *stack = NULL;
    size_t n = 0, cap = 0, sp = 0, scap = 0, nopts = 0;
    for (size_t i = 0; i < list->u.list.len; i++) {
        IgId g = 0;
        impgame_of(I, list->u.list.items[i], loc, "quotient", &g);
        if (scap == sp) {
            scap = scap ? 2 * scap : 64;
            stack = xrealloc(stack, scap * sizeof *stack);
        }
        stack[sp++] = g;
    }
    bool ok = true;
    while (sp && ok) {
        IgId g = stack[--sp];
        if (g == IG_ZERO || !idset_put(&seen, g, 0))
            continue;
        size_t k = ig_nopts(st, g);
        nopts += k;
        if (n == CLOSURE_MAX || nopts > CLOSURE_OPTS_MAX) {
            rt_error(I, DIAG_LIMIT, loc,
                     "the closure of these games has more than %d games or %d options in all",
                     CLOSURE_MAX, CLOSURE_OPTS_MAX);
            rt_hint(I, "a quotient of explicit games takes every follower of every game as a "
                       "heap; a heap game with `to N` takes far fewer");
            ok = false;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 64;
            nodes = xrealloc(nodes, cap * sizeof *nodes);
        }
        nodes[n++] = g;
        const IgId *op = ig_opts(st, g);
        while (sp + k > scap) {
            scap = scap ? 2 * scap : 64;
            stack = xrealloc(stack, scap * sizeof *stack);
        }
        for (size_t j = 0; j < k; j++)
            stack[sp++] = op[j];
        CgtStatus ps = cgt_poll();
        if (ps != CGT_OK) {
            CgtError e;
            cgt_error_clear(&e);
            cgt_poll_error(&e, ps, "the closure of the games");
            rt_error_from(I, loc, &e);
            ok = false;
        }
    }
    free(stack);
    free(seen.keys);
    free(seen.vals);
    if (!ok) {
        free(nodes);
        return false;
    }
    cmp_store = st;
    qsort(nodes, n, sizeof *nodes, cmp_birth);
    IdSet at = {xcalloc(64, sizeof(IgId)), xcalloc(64, sizeof(uint32_t)), 64, 0};
    for (size_t j = 0; j < n; j++)
        idset_put(&at, nodes[j], (uint32_t)j + 1);
    uint32_t *start = xmalloc((n + 1) * sizeof *start), *opts = NULL;
    size_t ne = 0, ecap = 0;
    start[0] = 0;
    for (size_t j = 0; j < n; j++) {
        size_t k = ig_nopts(st, nodes[j]);
        const IgId *op = ig_opts(st, nodes[j]);
        if (ne + k > ecap) {
            ecap = 2 * (ne + k) + 16;
            opts = xrealloc(opts, ecap * sizeof *opts);
        }
        for (size_t i = 0; i < k; i++)
            opts[ne++] = op[i] == IG_ZERO ? 0 : idset_get(&at, op[i]);
        start[j + 1] = (uint32_t)ne;
    }
    free(at.keys);
    free(at.vals);
    o->nids = (uint32_t)n + 1;
    o->ids = xmalloc((n + 1) * sizeof *o->ids);
    o->labels = xmalloc((n + 1) * sizeof *o->labels);
    o->ids[0] = IG_ZERO;
    o->labels[0] = xstrdup("0");
    for (size_t j = 0; j < n; j++) {
        o->ids[j + 1] = nodes[j];
        Value *v = impgame_value(nodes[j]);
        StrBuf b;
        sb_init(&b);
        val_format_brief(v, &b, true, LABEL_MAX);
        val_unref(v);
        o->labels[j + 1] = b.s;
    }
    free(nodes);
    *part = (MqMixPart){NULL, (uint32_t)n, start, opts};
    return true;
}

bool quot_mix_make(Interp *I, const Value *list, Loc loc, const Value *to, Loc to_loc, QuotObj *o)
{
    size_t k = list->u.list.len;
    if (k == 0)
        return rt_error(I, DIAG_DOMAIN, loc, "a quotient of an empty list of games"), false;
    bool expl = impgame_is(list->u.list.items[0]);
    for (size_t i = 0; i < k; i++) {
        const Value *v = list->u.list.items[i];
        bool heap = val_is_obj(v, &game_type) && game_of(v)->kind == GAME_HEAP;
        if (expl ? !impgame_is(v) : !heap) {
            rt_error(I, DIAG_TYPE, loc,
                     "item %zu of the list is not %s (%s): a quotient is of a list of heap "
                     "games (with `to N`) or of a list of explicit games",
                     i + 1, expl ? "an explicit game" : "a heap game", val_kind_name(v));
            rt_hint(I, "quotient q = [dk, nim] to 9 (heap games); quotient q = [*2, {0, *}] "
                       "(explicit games)");
            return false;
        }
    }
    StrBuf name;
    sb_init(&name);
    if (expl) {
        if (to)
            return rt_error(I, DIAG_DOMAIN, to_loc,
                            "a quotient of explicit games has no heap bound: its heaps are "
                            "the games of the closure"),
                   false;
        MqMixPart part;
        if (!explicit_part(I, list, loc, o, &part))
            return false;
        sb_puts(&name, "the closure of ");
        val_format_brief(list, &name, true, LABEL_MAX);
        o->mix = mqmix_new(&part, 1, name.s);
        o->explicit_set = true;
        free((void *)part.start);
        free((void *)part.opts);
        free(name.s);
        return true;
    }
    if (!to) {
        rt_error(I, DIAG_DOMAIN, loc, "a quotient of several heap games needs a heap bound");
        rt_hint(I, "quotient q = [G1, G2] to N, or to [N1, N2] (one bound per game)");
        return false;
    }
    MqMixPart *parts = xcalloc(k, sizeof *parts);
    if (to->kind == VAL_LIST && to->u.list.len != k) {
        free(parts);
        rt_error(I, DIAG_DOMAIN, to_loc, "%zu heap bounds for %zu games", to->u.list.len, k);
        return false;
    }
    Call fake = {.I = I};
    uint64_t total = 0;
    sb_putc(&name, '[');
    for (size_t i = 0; i < k; i++) {
        int64_t n;
        Value *nv = to->kind == VAL_LIST ? to->u.list.items[i] : (Value *)to;
        if (!call_int(&fake, nv, to_loc, "the heap bound", 0, HEAP_QUOTIENT_MAX, &n)) {
            free(parts);
            free(name.s);
            return false;
        }
        const GameObj *g = game_of(list->u.list.items[i]);
        parts[i] = (MqMixPart){ruleset_heapgame(g->rs), (uint32_t)n, NULL, NULL};
        total += (uint64_t)n;
        sb_printf(&name, "%s%s to %lld", i ? ", " : "", g->name, (long long)n);
    }
    sb_putc(&name, ']');
    if (total > HEAP_QUOTIENT_MAX) {
        free(parts);
        free(name.s);
        rt_error(I, DIAG_DOMAIN, to_loc, "%llu heaps in all: at most %d",
                 (unsigned long long)total, HEAP_QUOTIENT_MAX);
        return false;
    }
    o->mix = mqmix_new(parts, k, name.s);
    free(parts);
    free(name.s);
    return true;
}

bool quot_mix_position(Call *c, const QuotObj *o, const Value *pos, Loc loc, uint32_t **out,
                       size_t *count)
{
    *out = NULL;
    *count = 0;
    size_t cap = 0;
    if (o->explicit_set) {
        /* a list of games of the closure */
        for (size_t i = 0; i < pos->u.list.len; i++) {
            const Value *v = pos->u.list.items[i];
            IgId g;
            if (!impgame_of(c->I, v, loc, "a position of an explicit-set quotient", &g))
                goto bad;
            uint32_t x = UINT32_MAX;
            for (uint32_t j = 0; j < o->nids; j++)
                if (o->ids[j] == g)
                    x = j;
            if (x == UINT32_MAX) {
                StrBuf b;
                sb_init(&b);
                val_format_brief(v, &b, true, 200);
                rt_error(c->I, DIAG_DOMAIN, loc, "%s is not a game of the closure", b.s);
                free(b.s);
                rt_hint(c->I, "a position of this quotient is a list of followers of the "
                              "games it was made of");
                goto bad;
            }
            if (*count == cap) {
                cap = cap ? 2 * cap : 8;
                *out = xrealloc(*out, cap * sizeof **out);
            }
            (*out)[(*count)++] = x;
        }
        return true;
    }
    size_t k = mqmix_parts(o->mix);
    if (pos->u.list.len != k) {
        rt_error(c->I, DIAG_DOMAIN, loc,
                 "a position of a quotient of %zu heap games is a list of %zu lists of heaps "
                 "(one per game), not of %zu items",
                 k, k, pos->u.list.len);
        rt_hint(c->I, "outcome q [[2, 4], [3]]: heaps 2 and 4 of the first game, 3 of the "
                      "second");
        goto bad;
    }
    for (size_t i = 0; i < k; i++) {
        const Value *l = pos->u.list.items[i];
        if (l->kind != VAL_LIST) {
            rt_error(c->I, DIAG_TYPE, loc, "item %zu of the position is not a list of heaps (%s)",
                     i + 1, val_kind_name(l));
            rt_hint(c->I, "outcome q [[2, 4], [3]]: one list of heaps per game, [] for none");
            goto bad;
        }
        uint32_t ni = mqmix_part_size(o->mix, i);
        for (size_t j = 0; j < l->u.list.len; j++) {
            int64_t h;
            if (!call_int(c, l->u.list.items[j], loc, "a heap size", 0, ni, &h)) {
                rt_hint(c->I, "the quotient covers heaps up to %u of %s", ni,
                        game_of(o->game->u.list.items[i])->name);
                goto bad;
            }
            if (*count == cap) {
                cap = cap ? 2 * cap : 8;
                *out = xrealloc(*out, cap * sizeof **out);
            }
            (*out)[(*count)++] = mqmix_index(o->mix, i, (uint32_t)h);
        }
    }
    return true;
bad:
    free(*out);
    *out = NULL;
    return false;
}
