/* Presentations from script syntax (presast.h).  Factors such as `xz^2w`
 * or `xz2w` are split by src/lib/rewrite/wordparse.c (greedy longest generator
 * name, then an optional exponent; docs/kb.md), the exponent binding to
 * the generator just before it, as in printed words (`ab^2` is a b^2). */
#include <stdlib.h>
#include <string.h>

#include "lib/rewrite/wordparse.h"
#include "modules/kb/presast.h"
#include "lib/util/xalloc.h"

char *presdata_factor_text(Interp *I, const AstNode *fac)
{
    if (fac->op != -1 || fac->nkids != 1)
        return xstrdup(fac->text);
    const char *t = fac->kids[0]->text;
    if (strlen(t) > 9) {
        rt_error(I, DIAG_LIMIT, fac->kids[0]->loc, "exponent too large");
        return NULL;
    }
    return xasprintf("%s^%s", fac->text, t);
}

static bool presdata_word(Interp *I, const AstNode *word, char *const *names, int ngens,
                          uint32_t *out)
{
    memset(out, 0, (size_t)ngens * sizeof *out);
    uint32_t *f = xcalloc((size_t)(ngens ? ngens : 1), sizeof *f);
    for (size_t i = 0; i < word->nkids; i++) {
        const AstNode *fac = word->kids[i];
        char *text = presdata_factor_text(I, fac);
        if (!text) {
            free(f);
            return false;
        }
        size_t bad = 0;
        CgtError err;
        cgt_error_clear(&err);
        if (wordparse_compact(text, (const char *const *)names, ngens, f, &bad, &err) != CGT_OK) {
            Loc l = fac->loc;
            if (bad < strlen(fac->text)) {
                l.start += (uint32_t)bad;
                l.end = l.start + 1;
            }
            free(text);
            free(f);
            rt_error_from(I, l, &err);
            return false;
        }
        free(text);
        for (int g = 0; g < ngens; g++) {
            uint64_t v = (uint64_t)out[g] + (uint64_t)f[g];
            if (v > 1000000000u) {
                free(f);
                rt_error(I, DIAG_LIMIT, fac->loc, "exponent too large");
                return false;
            }
            out[g] = (uint32_t)v;
        }
    }
    free(f);
    return true;
}

void presdata_free(PresData *d)
{
    if (d->pres)
        pres_free(d->pres);
    for (size_t i = 0; i < d->nwith; i++)
        free(d->with[i].words);
    free(d->with);
    memset(d, 0, sizeof *d);
}

const PresWith *presdata_with(const PresData *d, const char *name)
{
    for (size_t i = 0; i < d->nwith; i++)
        if (strcmp(d->with[i].name, name) == 0)
            return &d->with[i];
    return NULL;
}

bool presdata_from_ast(Interp *I, const AstNode *p, PresData *out)
{
    memset(out, 0, sizeof *out);
    const AstNode *gens = p->kids[0], *rels = p->kids[1], *with = p->kids[2];
    int ng = (int)gens->nkids;
    const char **names = xcalloc((size_t)(ng ? ng : 1), sizeof *names);
    for (int i = 0; i < ng; i++) {
        names[i] = gens->kids[i]->text;
        for (int j = 0; j < i; j++)
            if (strcmp(names[i], names[j]) == 0) {
                rt_error(I, DIAG_DOMAIN, gens->kids[i]->loc, "generator '%s' named twice",
                         names[i]);
                free(names);
                return false;
            }
        /* words are written with the names side by side (src/lib/rewrite/word.h) */
        int sh, lo;
        if (!names_prefix_free(names, i + 1, &sh, &lo)) {
            rt_error(I, DIAG_DOMAIN, gens->kids[i]->loc,
                     "generator name '%s' is a prefix of '%s': words would be ambiguous",
                     names[sh], names[lo]);
            rt_hint(I, "words are written with the names side by side (ab^2), so no generator "
                       "name may begin another");
            free(names);
            return false;
        }
    }
    out->pres = pres_new(ng, names);
    free(names);
    size_t g = (size_t)ng;
    uint32_t *a = xcalloc(g ? g : 1, sizeof *a), *b = xcalloc(g ? g : 1, sizeof *b);
    for (size_t r = 0; r < rels->nkids; r++) {
        const AstNode *rel = rels->kids[r];
        if (!presdata_word(I, rel->kids[0], out->pres->gen_names, ng, a))
            goto fail;
        for (size_t k = 1; k < rel->nkids; k++) {
            if (!presdata_word(I, rel->kids[k], out->pres->gen_names, ng, b))
                goto fail;
            pres_add_relation(out->pres, a, b);
            memcpy(a, b, g * sizeof *a);
        }
    }
    out->nwith = with->nkids;
    out->with = xcalloc(out->nwith ? out->nwith : 1, sizeof *out->with);
    for (size_t i = 0; i < with->nkids; i++) {
        const AstNode *w = with->kids[i];
        PresWith *pw = &out->with[i];
        /* an unknown item (a typo such as `with Q = {...}`) is an error,
           never silently ignored */
        if (strcmp(w->text, "P") != 0 && strcmp(w->text, "phi") != 0) {
            rt_error(I, DIAG_DOMAIN, w->loc, "unknown `with` item '%s'", w->text);
            rt_hint(I, "the items are `with P = {...}` and `with phi = [...]`");
            goto fail;
        }
        pw->name = w->text;
        pw->is_list = w->op == '[';
        pw->n = w->nkids;
        pw->loc = w->loc;
        pw->words = xcalloc((pw->n ? pw->n : 1) * (g ? g : 1), sizeof *pw->words);
        for (size_t k = 0; k < w->nkids; k++)
            if (!presdata_word(I, w->kids[k], out->pres->gen_names, ng, pw->words + k * g))
                goto fail;
        for (size_t j = 0; j < i; j++)
            if (strcmp(out->with[j].name, pw->name) == 0) {
                rt_error(I, DIAG_DOMAIN, w->loc, "'%s' given twice", pw->name);
                goto fail;
            }
    }
    free(a);
    free(b);
    return true;
fail:
    free(a);
    free(b);
    presdata_free(out);
    return false;
}
