/* The `game` value (gameobj.h): its type, construction, caches and the
 * heap-game check, shared by every module's builtins. */
#include <stdlib.h>

#include "modules/games/gameobj.h"
#include "lib/util/xalloc.h"

static void game_free(void *p)
{
    GameObj *g = p;
    if (g->gt)
        grundy_free(g->gt);
    if (g->oc)
        outcome_free(g->oc);
    if (g->gc)
        genus_free(g->gc);
    if (g->memo)
        bitmemo_free(g->memo);
    if (g->rs)
        ruleset_free(g->rs);
    free(g->name);
    free(g);
}

static void game_text(const void *p, StrBuf *out)
{
    sb_printf(out, "game %s", ((const GameObj *)p)->name);
}

static void game_json(const void *p, JsonWriter *w)
{
    const GameObj *g = p;
    jw_obj_begin(w);
    jw_kv_str(w, "kind", "game");
    jw_kv_str(w, "name", g->name);
    jw_obj_end(w);
}

const ObjType game_type = {"game", game_free, game_text, game_json, NULL, NULL};

Value *game_value(GameKind kind, const char *name, Ruleset *rs)
{
    GameObj *g = xcalloc(1, sizeof *g);
    g->kind = kind;
    g->name = xstrdup(name);
    g->rs = rs;
    if (kind != GAME_HEAP)
        g->memo = bitmemo_new();
    return val_obj(&game_type, g);
}

GameObj *game_of(const Value *v)
{
    return v->u.obj.ptr;
}

GrundyTable *game_grundy(GameObj *g)
{
    if (!g->gt)
        g->gt = grundy_new(g->rs);
    return g->gt;
}

OutcomeCache *game_outcome(GameObj *g)
{
    if (!g->oc)
        g->oc = outcome_new(ruleset_heapgame(g->rs));
    return g->oc;
}

GenusCache *game_genus(GameObj *g)
{
    if (!g->gc)
        g->gc = genus_new(ruleset_heapgame(g->rs));
    return g->gc;
}

GameObj *game_heap_or_error(Interp *I, const Value *v, Loc loc, const char *what)
{
    GameObj *g = game_of(v);
    if (g->kind == GAME_HEAP)
        return g;
    rt_error(I, DIAG_TYPE, loc, "%s needs a heap game, and %s is not one", what, g->name);
    rt_hint(I, "heap games are declared with octal, subtraction or rules");
    return NULL;
}

