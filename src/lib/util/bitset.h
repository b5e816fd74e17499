/* Fixed-size bitsets over uint64_t words. */
#ifndef CGT_UTIL_BITSET_H
#define CGT_UTIL_BITSET_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BITSET_WORDS(n) (((n) + 63) / 64)

static inline void bitset_set(uint64_t *b, size_t i)
{
    b[i >> 6] |= (uint64_t)1 << (i & 63);
}
static inline void bitset_clear(uint64_t *b, size_t i)
{
    b[i >> 6] &= ~((uint64_t)1 << (i & 63));
}
static inline bool bitset_get(const uint64_t *b, size_t i)
{
    return (b[i >> 6] >> (i & 63)) & 1;
}
/* True if every bit of a is in b (words = BITSET_WORDS(n)). */
static inline bool bitset_subset(const uint64_t *a, const uint64_t *b, size_t words)
{
    for (size_t i = 0; i < words; i++)
        if (a[i] & ~b[i])
            return false;
    return true;
}

#endif
