/* Hashing helpers: a 64-bit mixer and byte-string hash (FNV-1a then mix). */
#ifndef CGT_UTIL_HASH_H
#define CGT_UTIL_HASH_H
#include <stddef.h>
#include <stdint.h>

static inline uint64_t hash_mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static inline uint64_t hash_bytes(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    return hash_mix64(h);
}

#endif
