/* Option lists for the heap-game interface (heapgame.h). */
#include "lib/heap/heapgame.h"

#include <stdbool.h>
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

/* Insertion sort, for the short arrays here: an option's parts (a handful)
 * and key lists under 48 entries. One body for both element types. */
#define DEFINE_INSERTION_SORT(name, T)                                                            \
    static void name(T *a, size_t n)                                                              \
    {                                                                                             \
        for (size_t i = 1; i < n; i++) {                                                          \
            T x = a[i];                                                                           \
            size_t j = i;                                                                         \
            for (; j > 0 && a[j - 1] > x; j--)                                                    \
                a[j] = a[j - 1];                                                                  \
            a[j] = x;                                                                             \
        }                                                                                         \
    }
DEFINE_INSERTION_SORT(sort_parts, uint32_t)
DEFINE_INSERTION_SORT(sort_short_keys, uint64_t)

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
    sort_parts(o->parts + base, m);
    o->count++;
    o->start[o->count] = base + m;
}

void heapopts_reserve(HeapOptions *o, size_t opts, size_t parts)
{
    if (o->count + opts + 2 > o->cap_opts) {
        o->cap_opts = o->count + opts + 2;
        o->start = xrealloc(o->start, o->cap_opts * sizeof *o->start);
    }
    if (o->start[o->count] + parts > o->cap_parts) {
        o->cap_parts = o->start[o->count] + parts;
        o->parts = xrealloc(o->parts, o->cap_parts * sizeof *o->parts);
    }
}

void heapopts_grow(HeapOptions *o, size_t k)
{
    heapopts_reserve(o, o->count + 1, o->start[o->count] + k); /* doubles */
}

/* Options compare by length first, then lexicographically. */
static int cmp_opt(const HeapOptions *o, size_t i, size_t j)
{
    size_t li = o->start[i + 1] - o->start[i];
    size_t lj = o->start[j + 1] - o->start[j];
    if (li != lj)
        return li < lj ? -1 : 1;
    const uint32_t *p = o->parts + o->start[i];
    const uint32_t *q = o->parts + o->start[j];
    for (size_t t = 0; t < li; t++)
        if (p[t] != q[t])
            return p[t] < q[t] ? -1 : 1;
    return 0;
}

/* Stable merge sort of option indices by cmp_opt (no global state, so
 * option lists may be canonicalised on several threads at once). */
static void sort_idx(const HeapOptions *o, size_t *idx, size_t *tmp, size_t n)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t a = lo, b = mid, k = lo;
            while (a < mid && b < hi)
                tmp[k++] = cmp_opt(o, idx[b], idx[a]) < 0 ? idx[b++] : idx[a++];
            while (a < mid)
                tmp[k++] = idx[a++];
            while (b < hi)
                tmp[k++] = idx[b++];
        }
        memcpy(idx, tmp, n * sizeof *idx);
    }
}

static unsigned bit_width(uint64_t x)
{
    unsigned w = 0;
    while (x) {
        w++;
        x >>= 1;
    }
    return w;
}

/* Sort keys of `bits` significant bits: insertion sort for short lists,
 * else LSD radix sort on 11-bit digits. */
static void sort_keys(uint64_t *a, uint64_t *tmp, size_t n, unsigned bits)
{
    if (n < 48) {
        sort_short_keys(a, n);
        return;
    }
    size_t cnt[2049];
    for (unsigned sh = 0; sh < bits; sh += 11) {
        memset(cnt, 0, sizeof cnt);
        for (size_t i = 0; i < n; i++)
            cnt[((a[i] >> sh) & 0x7ff) + 1]++;
        if (cnt[((a[0] >> sh) & 0x7ff) + 1] == n)
            continue;
        for (size_t d = 0; d < 2048; d++)
            cnt[d + 1] += cnt[d];
        for (size_t i = 0; i < n; i++)
            tmp[cnt[(a[i] >> sh) & 0x7ff]++] = a[i];
        memcpy(a, tmp, n * sizeof *a);
    }
}

/* When every option fits, option i packs into one 64-bit key whose integer
 * order is the canonical order: its length in the top field, then its
 * parts, w bits each, the first part highest (unused fields zero). The
 * keys are sorted, duplicates dropped and the list rewritten in place. */
static bool canonicalize_packed(HeapOptions *o)
{
    size_t n = o->count, maxlen = 0;
    uint32_t maxpart = 0;
    for (size_t i = 0; i < n; i++) {
        size_t l = o->start[i + 1] - o->start[i];
        if (l > maxlen)
            maxlen = l;
    }
    for (size_t j = 0; j < o->start[n]; j++)
        if (o->parts[j] > maxpart)
            maxpart = o->parts[j];
    unsigned w = bit_width(maxpart), lb = bit_width(maxlen);
    if (w == 0)
        w = 1;
    if (maxlen > 64 || lb + maxlen * w > 64)
        return false;
    unsigned bits = lb + (unsigned)maxlen * w;
    uint64_t *key = xmalloc(2 * n * sizeof *key);
    for (size_t i = 0; i < n; i++) {
        size_t l = o->start[i + 1] - o->start[i];
        const uint32_t *p = o->parts + o->start[i];
        uint64_t k = l;
        for (size_t t = 0; t < maxlen; t++)
            k = (k << w) | (t < l ? p[t] : 0);
        key[i] = k;
    }
    sort_keys(key, key + n, n, bits);
    uint64_t mask = (w == 64) ? UINT64_MAX : (UINT64_C(1) << w) - 1;
    size_t c = 0, base = 0;
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && key[i] == key[i - 1])
            continue;
        size_t l = (size_t)(key[i] >> (maxlen * w));
        /* the deduplicated list is never longer than the original */
        for (size_t t = 0; t < l; t++)
            o->parts[base + t] = (uint32_t)((key[i] >> ((maxlen - 1 - t) * w)) & mask);
        base += l;
        o->start[++c] = base;
    }
    o->count = c;
    free(key);
    /* the list is usually kept for the whole run: give back the slack */
    o->cap_opts = c + 2;
    o->start = xrealloc(o->start, o->cap_opts * sizeof *o->start);
    o->cap_parts = base > 0 ? base : 1;
    o->parts = xrealloc(o->parts, o->cap_parts * sizeof *o->parts);
    return true;
}

void heapopts_canonicalize(HeapOptions *o)
{
    if (o->count < 2)
        return;
    if (canonicalize_packed(o))
        return;
    size_t n = o->count;
    size_t *idx = xmalloc(2 * n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    sort_idx(o, idx, idx + n, n);
    HeapOptions t;
    heapopts_init(&t);
    for (size_t i = 0; i < n; i++) {
        if (i > 0 && cmp_opt(o, idx[i - 1], idx[i]) == 0)
            continue;
        size_t s = o->start[idx[i]];
        heapopts_add(&t, o->parts + s, o->start[idx[i] + 1] - s);
    }
    free(idx);
    heapopts_free(o);
    *o = t;
}
