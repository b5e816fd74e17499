/* The GP paper's games as `game` values (Huggan and Tennenhouse; src/lib/bitgames/
 * bitgames.h): declarations and Grundy values of positions written
 * naturally: bit strings, run lengths, pairs of strings, edge lists,
 * boards. */
#include <stdlib.h>
#include <string.h>

#include "modules/games/module.h"
#include "modules/games/gameobj.h"
#include "lib/util/xalloc.h"

Value *bi_game_paper(Call *c, const char *kind, const AstNode *const *args, size_t nargs)
{
    if (nargs != 0)
        return rt_error(c->I, DIAG_DOMAIN, args[0]->loc, "'%s' takes no arguments", kind);
    GameKind k;
    if (strcmp(kind, "ga1") == 0)
        k = GAME_GA1;
    else if (strcmp(kind, "ga2") == 0)
        k = GAME_GA2;
    else if (strcmp(kind, "crossover_mutation") == 0)
        k = GAME_CM;
    else if (strcmp(kind, "arc_kayles") == 0)
        k = GAME_ARC_KAYLES;
    else
        k = GAME_CRAM;
    return game_value(k, kind, NULL);
}

static Value *position_error(Call *c, GameObj *g, const char *expected)
{
    rt_error(c->I, DIAG_TYPE, c->arg_locs[1], "a %s position is %s", g->name, expected);
    return NULL;
}

/* Small non-negative integers of a list. */
static int *int_list(Call *c, const Value *l, int lo, int hi, const char *what)
{
    int *out = xcalloc(l->u.list.len ? l->u.list.len : 1, sizeof *out);
    for (size_t i = 0; i < l->u.list.len; i++) {
        int64_t x;
        if (!call_int(c, l->u.list.items[i], c->arg_locs[1], what, lo, hi, &x)) {
            free(out);
            return NULL;
        }
        out[i] = (int)x;
    }
    return out;
}

static Value *paper_value(Call *c, GameObj *g, Value *pos, int *v)
{
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = CGT_OK;
    switch (g->kind) {
    case GAME_GA1:
    case GAME_GA2:
        if (pos->kind == VAL_STR) {
            st = g->kind == GAME_GA1 ? bit_ga1_grundy(g->memo, pos->u.str.s, v, &err)
                                     : bit_ga2_grundy(g->memo, pos->u.str.s, v, &err);
        } else if (pos->kind == VAL_LIST) {
            int *h = int_list(c, pos, 1, 1000, "a run length");
            if (!h)
                return NULL;
            int k = (int)pos->u.list.len;
            if (g->kind == GAME_GA2) {
                st = bit_ga2_heaps_grundy(g->memo, h, k, v, &err);
            } else {
                int mx = 0;
                for (int i = 0; i < k; i++)
                    if (h[i] > mx)
                        mx = h[i];
                int *vals = xcalloc((size_t)mx + 1, sizeof *vals);
                bit_ga1_heap_values(mx, vals);
                *v = 0;
                for (int i = 0; i < k; i++)
                    *v ^= vals[h[i]];
                free(vals);
            }
            free(h);
        } else {
            return position_error(c, g, "a bit string \"0110\" or a list of run lengths");
        }
        break;
    case GAME_CM:
        if (pos->kind != VAL_LIST || pos->u.list.len != 2 ||
            pos->u.list.items[0]->kind != VAL_STR || pos->u.list.items[1]->kind != VAL_STR)
            return position_error(c, g, "a pair of bit strings [\"0101\", \"0011\"]");
        st = bit_cm_grundy(g->memo, pos->u.list.items[0]->u.str.s,
                           pos->u.list.items[1]->u.str.s, v, &err);
        break;
    case GAME_ARC_KAYLES: {
        if (pos->kind != VAL_LIST)
            return position_error(c, g, "an edge list [[0, 1], [1, 2], ...]");
        size_t ne = pos->u.list.len;
        int *e = xcalloc(2 * (ne ? ne : 1), sizeof *e);
        int nv = 0;
        for (size_t i = 0; i < ne; i++) {
            Value *pr = pos->u.list.items[i];
            int64_t a, b;
            if (pr->kind != VAL_LIST || pr->u.list.len != 2 ||
                !val_get_i64(pr->u.list.items[0], &a) || !val_get_i64(pr->u.list.items[1], &b) ||
                a < 0 || b < 0 || a >= BIT_ARC_MAX_VERTICES || b >= BIT_ARC_MAX_VERTICES) {
                free(e);
                return position_error(c, g, "a list of edges [u, v] with vertices 0..63");
            }
            e[2 * i] = (int)a;
            e[2 * i + 1] = (int)b;
            if (a + 1 > nv)
                nv = (int)a + 1;
            if (b + 1 > nv)
                nv = (int)b + 1;
        }
        st = bit_arc_kayles_grundy(nv, e, (int)ne, v, &err);
        free(e);
        break;
    }
    case GAME_CRAM: {
        /* [rows, cols] for an empty board, or a list of row strings */
        if (pos->kind != VAL_LIST || pos->u.list.len == 0)
            return position_error(c, g, "[rows, cols] or a list of rows [\"..#\", \"...\"]");
        int64_t r, cc;
        if (pos->u.list.len == 2 && val_get_i64(pos->u.list.items[0], &r) &&
            val_get_i64(pos->u.list.items[1], &cc)) {
            if (r < 1 || cc < 1 || r * cc > BIT_CRAM_MAX_CELLS)
                return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1],
                                "a cram board has 1 to %d cells", BIT_CRAM_MAX_CELLS);
            st = bit_cram_grundy(g->memo, (int)r, (int)cc, NULL, v, &err);
            break;
        }
        size_t rows = pos->u.list.len, cols = 0;
        StrBuf b;
        sb_init(&b);
        for (size_t i = 0; i < rows; i++) {
            Value *row = pos->u.list.items[i];
            if (row->kind != VAL_STR || (i && row->u.str.len != cols) || row->u.str.len == 0) {
                sb_free(&b);
                return position_error(c, g, "a list of rows of equal length");
            }
            cols = row->u.str.len;
            sb_puts(&b, row->u.str.s);
        }
        if (rows * cols > BIT_CRAM_MAX_CELLS) {
            sb_free(&b);
            return rt_error(c->I, DIAG_DOMAIN, c->arg_locs[1], "a cram board has at most %d cells",
                            BIT_CRAM_MAX_CELLS);
        }
        st = bit_cram_grundy(g->memo, (int)rows, (int)cols, b.s, v, &err);
        sb_free(&b);
        break;
    }
    default:
        return position_error(c, g, "not supported");
    }
    if (st != CGT_OK)
        return rt_error_from(c->I, c->arg_locs[1], &err);
    return val_null();
}

Value *bi_game_paper_grundy(Call *c, GameObj *g, Value *pos)
{
    int v = 0;
    Value *ok = paper_value(c, g, pos, &v);
    if (!ok)
        return NULL;
    val_unref(ok);
    return val_int(v);
}
