/* Commutative words and presentations (word.h). */
#include "lib/rewrite/word.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/xalloc.h"

char **names_copy(int n, const char *const *names)
{
    char **out = xcalloc((size_t)(n > 0 ? n : 1), sizeof *out);
    for (int i = 0; i < n; i++)
        out[i] = xstrdup(names[i]);
    return out;
}

void names_free(char **names, int n)
{
    if (!names)
        return;
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

bool names_prefix_free(const char *const *names, int n, int *shorter, int *longer)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j < i; j++) {
            size_t li = strlen(names[i]), lj = strlen(names[j]);
            if (strncmp(names[i], names[j], li < lj ? li : lj) == 0) {
                if (shorter)
                    *shorter = li < lj ? i : j;
                if (longer)
                    *longer = li < lj ? j : i;
                return false;
            }
        }
    return true;
}

Presentation *pres_new(int ngens, const char *const *names)
{
    Presentation *p = xcalloc(1, sizeof *p);
    p->ngens = ngens;
    p->gen_names = names_copy(ngens, names);
    return p;
}

void pres_free(Presentation *p)
{
    if (!p)
        return;
    names_free(p->gen_names, p->ngens);
    free(p->rels);
    free(p);
}

void pres_add_relation(Presentation *p, const uint32_t *lhs, const uint32_t *rhs)
{
    size_t g = (size_t)p->ngens;
    if (p->nrels + 1 > p->cap_rels) {
        p->cap_rels = p->cap_rels ? 2 * p->cap_rels : 8;
        p->rels = xrealloc(p->rels, p->cap_rels * 2 * (g ? g : 1) * sizeof *p->rels);
    }
    memcpy(p->rels + 2 * p->nrels * g, lhs, g * sizeof *lhs);
    memcpy(p->rels + (2 * p->nrels + 1) * g, rhs, g * sizeof *rhs);
    p->nrels++;
}

void word_append_factor(char **buf, size_t *len, size_t *cap, const char *name, uint64_t exp)
{
    size_t need = *len + strlen(name) + 24;
    if (need > *cap) {
        while (*cap < need)
            *cap *= 2;
        *buf = xrealloc(*buf, *cap);
    }
    *len += (size_t)sprintf(*buf + *len, "%s", name);
    if (exp > 1)
        *len += (size_t)sprintf(*buf + *len, "^%llu", (unsigned long long)exp);
}

char *word_format(const uint32_t *w, int ngens, char *const *names)
{
    size_t cap = 16, len = 0;
    char *s = xmalloc(cap);
    s[0] = '\0';
    for (int i = 0; i < ngens; i++)
        if (w[i] > 0)
            word_append_factor(&s, &len, &cap, names[i], w[i]);
    if (len == 0) {
        free(s);
        return xstrdup("1");
    }
    return s;
}

char *rule_text(char *lhs, char *rhs)
{
    char *s = xasprintf("%s -> %s", lhs, rhs);
    free(lhs);
    free(rhs);
    return s;
}

char *relation_text(char *lhs, char *rhs)
{
    char *s = xasprintf("%s = %s", lhs, rhs);
    free(lhs);
    free(rhs);
    return s;
}

char *rules_text(const void *sys, size_t n, char *(*fmt)(const void *, size_t))
{
    size_t len = 0, cap = 64;
    char *buf = xmalloc(cap);
    buf[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        char *r = fmt(sys, i);
        size_t k = strlen(r);
        while (len + k + 2 > cap) {
            cap *= 2;
            buf = xrealloc(buf, cap);
        }
        memcpy(buf + len, r, k);
        len += k;
        buf[len++] = '\n';
        buf[len] = '\0';
        free(r);
    }
    return buf;
}
