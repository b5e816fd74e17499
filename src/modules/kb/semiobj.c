/* The `semigroup` / `monoid` value (semiobj.h): release, text and JSON
 * forms, and its completed system and finite monoid, computed once. */
#include <stdlib.h>

#include "modules/kb/semiobj.h"
#include "lib/util/xalloc.h"

void semi_free(void *p)
{
    SemiObj *s = p;
    presdata_free(&s->data);
    if (s->nc)
        ncpres_free(s->nc);
    if (s->sys)
        kb_free(s->sys);
    if (s->mon)
        monoid_free(s->mon);
    free(s->text);
    free(s->name);
    free(s);
}

static void semi_text(const void *p, StrBuf *b)
{
    const SemiObj *s = p;
    sb_printf(b, "%s %s", s->commutative ? "semigroup" : "monoid", s->text);
}

static void semi_json(const void *p, JsonWriter *w)
{
    const SemiObj *s = p;
    jw_obj_begin(w);
    jw_kv_str(w, "kind", s->commutative ? "semigroup" : "monoid");
    jw_kv_str(w, "presentation", s->text);
    jw_obj_end(w);
}

const ObjType semigroup_type = {"semigroup", semi_free, semi_text, semi_json, NULL, NULL};

KbSystem *semi_system(Interp *I, SemiObj *s, Loc loc)
{
    if (s->sys)
        return s->sys;
    CgtError err;
    cgt_error_clear(&err);
    KbSystem *sys = NULL;
    if (kb_complete(s->data.pres, NULL, NULL, &sys, &err) != CGT_OK) {
        if (sys)
            kb_free(sys);
        rt_error_from(I, loc, &err);
        return NULL;
    }
    s->sys = sys;
    return sys;
}

FiniteMonoid *semi_monoid(Interp *I, SemiObj *s, Loc loc)
{
    if (s->mon)
        return s->mon;
    KbSystem *sys = semi_system(I, s, loc);
    if (!sys)
        return NULL;
    CgtError err;
    cgt_error_clear(&err);
    if (monoid_from_system(sys, 0, 0, &s->mon, &err) != CGT_OK) {
        s->mon = NULL;
        rt_error_from(I, loc, &err);
        return NULL;
    }
    return s->mon;
}

