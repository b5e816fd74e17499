/* Position interning for the outcome and genus searches: an open-addressing
 * hash table from canonical heap multisets to dense ids (keys kept in one
 * growing pool). */
#include "lib/heap/outcome_map.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/hash.h"
#include "lib/util/xalloc.h"

typedef struct Slot {
    uint64_t hash;
    uint32_t off, len, id; /* id == UINT32_MAX: empty */
} Slot;

struct OutcomeMap {
    Slot *slots;
    size_t nslots, count;
    uint32_t *pool;
    size_t pool_len, pool_cap;
};

OutcomeMap *outcome_map_new(void)
{
    OutcomeMap *m = xcalloc(1, sizeof *m);
    m->nslots = 1024;
    m->slots = xmalloc(m->nslots * sizeof *m->slots);
    for (size_t i = 0; i < m->nslots; i++)
        m->slots[i].id = UINT32_MAX;
    return m;
}

void outcome_map_free(OutcomeMap *m)
{
    if (!m)
        return;
    free(m->slots);
    free(m->pool);
    free(m);
}

size_t outcome_map_size(const OutcomeMap *m)
{
    return m->count;
}

static void grow(OutcomeMap *m)
{
    size_t ns = m->nslots * 2;
    Slot *s = xmalloc(ns * sizeof *s);
    for (size_t i = 0; i < ns; i++)
        s[i].id = UINT32_MAX;
    for (size_t i = 0; i < m->nslots; i++) {
        if (m->slots[i].id == UINT32_MAX)
            continue;
        size_t j = m->slots[i].hash & (ns - 1);
        while (s[j].id != UINT32_MAX)
            j = (j + 1) & (ns - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->nslots = ns;
}

uint32_t outcome_map_intern(OutcomeMap *m, const uint32_t *key, size_t len, bool *inserted)
{
    uint64_t h = len ? hash_bytes(key, len * sizeof *key) : 0;
    size_t j = h & (m->nslots - 1);
    while (m->slots[j].id != UINT32_MAX) {
        Slot *s = &m->slots[j];
        if (s->hash == h && s->len == len &&
            (len == 0 || memcmp(m->pool + s->off, key, len * sizeof *key) == 0)) {
            *inserted = false;
            return s->id;
        }
        j = (j + 1) & (m->nslots - 1);
    }
    if (m->pool_len + len > m->pool_cap) {
        size_t nc = m->pool_cap ? m->pool_cap : 4096;
        while (nc < m->pool_len + len)
            nc *= 2;
        m->pool = xrealloc(m->pool, nc * sizeof *m->pool);
        m->pool_cap = nc;
    }
    if (len)
        memcpy(m->pool + m->pool_len, key, len * sizeof *key);
    Slot *s = &m->slots[j];
    s->hash = h;
    s->off = (uint32_t)m->pool_len;
    s->len = (uint32_t)len;
    s->id = (uint32_t)m->count++;
    m->pool_len += len;
    *inserted = true;
    uint32_t id = s->id;
    if (m->count * 2 > m->nslots)
        grow(m);
    return id;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

size_t outcome_canon(const uint32_t *heaps, size_t k, uint32_t *out)
{
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (heaps[i])
            out[m++] = heaps[i];
    qsort(out, m, sizeof *out, cmp_u32);
    return m;
}

size_t outcome_replace(const uint32_t *pos, size_t len, size_t i, const uint32_t *parts,
                       size_t np, uint32_t *out)
{
    size_t a = 0, b = 0, m = 0;
    while (a < len || b < np) {
        if (a == i) {
            a++;
            continue;
        }
        if (b >= np || (a < len && pos[a] <= parts[b]))
            out[m++] = pos[a++];
        else
            out[m++] = parts[b++];
    }
    return m;
}
