/* The AVX2 copy of the bit-set path's batched rare pairs (start_block_bits
 * of src/lib/grundy/grundy_bits.h; docs/games.md §2), for processors with AVX2 but
 * without the AVX-512 loops of src/lib/grundy/grundy_x512.c: the block's one-word
 * rows are held in vector registers, four per register, while every rare
 * position adds its marks (a widening load of four heaps' values, an xor,
 * a variable shift that gives 0 for values of 64 and more, an OR), in
 * passes of 32 heaps so that the eight accumulators stay in registers. */
#include "lib/grundy/grundy_int.h"

#if GRUNDY_AVX2_BITS

#include <immintrin.h>
#include <string.h>

#define AVX2 __attribute__((target("avx2")))

AVX2 static inline void bits_pass(const uint8_t *g, const uint64_t *rare, const uint32_t *rv,
                                  size_t j0, size_t j1, uint64_t base, uint64_t *rows,
                                  uint32_t len)
{
    const __m256i one = _mm256_set1_epi64x(1);
    __m256i acc[8];
    uint32_t nv = (len + 3) / 4;
    for (uint32_t q = 0; q < 8; q++)
        acc[q] = _mm256_setzero_si256();
    for (size_t j = j0; j < j1; j++) {
        const uint8_t *gp = g + (base - rare[j]);
        __m256i x = _mm256_set1_epi64x((long long)rv[j]);
        for (uint32_t q = 0; q < 8; q++)
            if (q < nv) {
                uint32_t w = 0;
                if (4 * q + 4 <= len)
                    memcpy(&w, gp + 4 * q, 4);
                else
                    memcpy(&w, gp + 4 * q, len - 4 * q);
                __m256i v = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128((int)w));
                acc[q] = _mm256_or_si256(acc[q], _mm256_sllv_epi64(one, _mm256_xor_si256(v, x)));
            }
    }
    for (uint32_t q = 0; q < nv; q++) {
        uint64_t r[4];
        _mm256_storeu_si256((__m256i *)r, acc[q]);
        for (uint32_t h = 0; h < 4 && 4 * q + h < len; h++)
            rows[4 * q + h] |= r[h];
    }
}

AVX2 void grundy_avx2_bits_batch(const uint8_t *g, const uint64_t *rare, const uint32_t *rv,
                                 size_t j0, size_t j1, uint64_t base, uint64_t *rows, uint32_t len)
{
    for (uint32_t h0 = 0; h0 < len; h0 += 32) {
        uint32_t l = len - h0 < 32 ? len - h0 : 32;
        if (l == 32)
            bits_pass(g, rare, rv, j0, j1, base + h0, rows + h0, 32);
        else
            bits_pass(g, rare, rv, j0, j1, base + h0, rows + h0, l);
    }
}

#endif
