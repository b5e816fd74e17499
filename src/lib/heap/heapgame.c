/* Option lists for the heap-game interface (heapgame.h). */
#include "lib/heap/heapgame.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/xalloc.h"

void heapopts_init(HeapOptions *o)
{
    memset(o, 0, sizeof *o);
    o->cap_opts = 16;
    o->start = xmalloc(o->cap_opts * sizeof *o->start);
    o->start[0] = 0;
    o->cap_parts = 32;
    o->parts = xmalloc(o->cap_parts * sizeof *o->parts);
}

void heapopts_clear(HeapOptions *o)
{
    o->count = 0;
    o->start[0] = 0;
}

void heapopts_free(HeapOptions *o)
{
    free(o->start);
    free(o->parts);
    memset(o, 0, sizeof *o);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

void heapopts_add(HeapOptions *o, const uint32_t *parts, size_t k)
{
    if (o->count + 2 > o->cap_opts) {
        o->cap_opts *= 2;
        o->start = xrealloc(o->start, o->cap_opts * sizeof *o->start);
    }
    size_t base = o->start[o->count];
    while (base + k > o->cap_parts) {
        o->cap_parts *= 2;
        o->parts = xrealloc(o->parts, o->cap_parts * sizeof *o->parts);
    }
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (parts[i] != 0)
            o->parts[base + m++] = parts[i];
    qsort(o->parts + base, m, sizeof *o->parts, cmp_u32);
    o->count++;
    o->start[o->count] = base + m;
}

/* Options compare by length first, then lexicographically. */
static const HeapOptions *sort_src;

static int cmp_opt(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    size_t li = sort_src->start[i + 1] - sort_src->start[i];
    size_t lj = sort_src->start[j + 1] - sort_src->start[j];
    if (li != lj)
        return li < lj ? -1 : 1;
    const uint32_t *p = sort_src->parts + sort_src->start[i];
    const uint32_t *q = sort_src->parts + sort_src->start[j];
    for (size_t t = 0; t < li; t++)
        if (p[t] != q[t])
            return p[t] < q[t] ? -1 : 1;
    return 0;
}

void heapopts_canonicalize(HeapOptions *o)
{
    if (o->count < 2)
        return;
    size_t n = o->count;
    size_t *idx = xmalloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_src = o;
    qsort(idx, n, sizeof *idx, cmp_opt);
    HeapOptions t;
    heapopts_init(&t);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && cmp_opt(&idx[i - 1], &idx[i]) == 0)
            continue;
        size_t s = o->start[idx[i]];
        heapopts_add(&t, o->parts + s, o->start[idx[i] + 1] - s);
    }
    free(idx);
    heapopts_free(o);
    *o = t;
}
