/* The `semigroup` / `monoid` value: a presentation written in a script
 * (with its `with` data, e.g. a P-portion), and, computed on first use,
 * its completed rewriting system and explicit finite monoid. */
#ifndef CGT_RUNTIME_SEMIOBJ_H
#define CGT_RUNTIME_SEMIOBJ_H
#include "lib/rewrite/kb.h"
#include "lib/rewrite/monoid.h"
#include "lib/rewrite/nckb.h"
#include "modules/kb/presast.h"

typedef struct SemiObj {
    char *name;
    bool commutative;
    PresData data;         /* commutative presentation and `with` items */
    NcPresentation *nc;    /* non-commutative presentation (monoid) */
    char *text;            /* the presentation as written, for printing */
    KbSystem *sys;         /* completed (shortlex), lazily */
    FiniteMonoid *mon;     /* lazily */
} SemiObj;

extern const ObjType semigroup_type;

/* Release a SemiObj (the type's free function, also for a half-built one). */
void semi_free(void *p);

/* Completed shortlex system and finite monoid (computed once; errors are
 * recorded at loc and NULL returned). */
KbSystem *semi_system(Interp *I, SemiObj *s, Loc loc);
FiniteMonoid *semi_monoid(Interp *I, SemiObj *s, Loc loc);

#endif
