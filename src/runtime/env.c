/* Variable environments (env.h). */
#include "runtime/env.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/hash.h"
#include "lib/util/xalloc.h"

typedef struct Slot {
    char *name;
    Value *val;
} Slot;

struct Env {
    Slot *slots;
    size_t cap, count;
};

Env *env_new(void)
{
    Env *e = xcalloc(1, sizeof *e);
    e->cap = 16;
    e->slots = xcalloc(e->cap, sizeof *e->slots);
    return e;
}

void env_free(Env *e)
{
    if (!e)
        return;
    for (size_t i = 0; i < e->cap; i++)
        if (e->slots[i].name) {
            free(e->slots[i].name);
            val_unref(e->slots[i].val);
        }
    free(e->slots);
    free(e);
}

static size_t find(const Env *e, const char *name)
{
    size_t i = hash_bytes(name, strlen(name)) & (e->cap - 1);
    while (e->slots[i].name && strcmp(e->slots[i].name, name) != 0)
        i = (i + 1) & (e->cap - 1);
    return i;
}

Value *env_get(Env *e, const char *name)
{
    size_t i = find(e, name);
    return e->slots[i].name ? e->slots[i].val : NULL;
}

void env_set(Env *e, const char *name, Value *v)
{
    if (2 * (e->count + 1) > e->cap) {
        Slot *old = e->slots;
        size_t oldcap = e->cap;
        e->cap *= 2;
        e->slots = xcalloc(e->cap, sizeof *e->slots);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].name)
                e->slots[find(e, old[i].name)] = old[i];
        free(old);
    }
    size_t i = find(e, name);
    if (e->slots[i].name) {
        val_unref(e->slots[i].val);
        e->slots[i].val = v;
        return;
    }
    e->slots[i].name = xstrdup(name);
    e->slots[i].val = v;
    e->count++;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

size_t env_names(Env *e, const char ***out)
{
    const char **names = xmalloc((e->count + 1) * sizeof *names);
    size_t n = 0;
    for (size_t i = 0; i < e->cap; i++)
        if (e->slots[i].name)
            names[n++] = e->slots[i].name;
    qsort(names, n, sizeof *names, cmp_str);
    *out = names;
    return n;
}
