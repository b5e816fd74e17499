/* Position interning for the outcome and genus searches: an open-addressing
 * hash table from canonical heap multisets to dense ids.  A position of at
 * most PACK_MAX heaps below 256 (every position of the misère searches on
 * heaps up to a few dozen) is kept in its slot, one byte per heap: found by
 * comparing two words, without a key pool or a byte-wise hash.  Other keys
 * are kept in one growing pool and compared in full. */
#include "lib/heap/outcome_map.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/hash.h"
#include "lib/util/xalloc.h"

#define PACK_MAX 16
#define PACKED 0x80000000u /* in Slot.len: the key is in a and b */

/* A packed key: heap i in byte i of a (i < 8) or of b (i >= 8); len says
 * how many.  A pooled key: a its hash, b its offset in the pool. */
typedef struct Slot {
    uint64_t a, b;
    uint32_t len, id; /* id == UINT32_MAX: empty */
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

static uint64_t slot_hash(const Slot *s)
{
    if (s->len & PACKED)
        return hash_mix64(s->a ^ hash_mix64(s->b + s->len));
    return s->a;
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
        size_t j = slot_hash(&m->slots[i]) & (ns - 1);
        while (s[j].id != UINT32_MAX)
            j = (j + 1) & (ns - 1);
        s[j] = m->slots[i];
    }
    free(m->slots);
    m->slots = s;
    m->nslots = ns;
}

/* The slot a key would have: packed, or with its hash. */
static Slot make_key(const uint32_t *key, size_t len)
{
    Slot k = {0, 0, (uint32_t)len, 0};
    if (len <= PACK_MAX && (len == 0 || key[len - 1] < 256)) {
        for (size_t i = 0; i < len; i++) {
            if (i < 8)
                k.a |= (uint64_t)key[i] << (8 * i);
            else
                k.b |= (uint64_t)key[i] << (8 * (i - 8));
        }
        k.len |= PACKED;
    } else {
        k.a = hash_bytes(key, len * sizeof *key);
    }
    return k;
}

void outcome_map_prefetch(const OutcomeMap *m, const uint32_t *key, size_t len)
{
#if defined(__GNUC__)
    Slot k = make_key(key, len);
    __builtin_prefetch(&m->slots[slot_hash(&k) & (m->nslots - 1)]);
#else
    (void)m;
    (void)key;
    (void)len;
#endif
}

uint32_t outcome_map_intern(OutcomeMap *m, const uint32_t *key, size_t len, bool *inserted)
{
    Slot k = make_key(key, len);
    bool packed = k.len & PACKED;
    size_t j = slot_hash(&k) & (m->nslots - 1);
    while (m->slots[j].id != UINT32_MAX) {
        Slot *s = &m->slots[j];
        if (s->a == k.a && s->len == k.len &&
            (packed || memcmp(m->pool + s->b, key, len * sizeof *key) == 0)) {
            *inserted = false;
            return s->id;
        }
        j = (j + 1) & (m->nslots - 1);
    }
    if (!packed) {
        if (m->pool_len + len > m->pool_cap) {
            size_t nc = m->pool_cap ? m->pool_cap : 4096;
            while (nc < m->pool_len + len)
                nc *= 2;
            m->pool = xrealloc(m->pool, nc * sizeof *m->pool);
            m->pool_cap = nc;
        }
        memcpy(m->pool + m->pool_len, key, len * sizeof *key);
        k.b = m->pool_len;
        m->pool_len += len;
    }
    k.id = (uint32_t)m->count++;
    m->slots[j] = k;
    *inserted = true;
    if (m->count * 2 > m->nslots)
        grow(m);
    return k.id;
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
