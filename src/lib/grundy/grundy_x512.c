/* The AVX-512 copies of inner loops of the sparse engine (docs/games.md
 * §2), for processors with AVX-512 F, BW, VL, VBMI and VBMI2 (chosen at run
 * time with the AVX2 kernels, grundy_set_simd):
 *
 * - The pair scan (step 3 of value_sparse), after scan_missing's first 48
 *   pairs, for values below 2048 (two-byte tables) or 256 (one-byte).  The
 *   values still missing below mc are a bit set M.  One vector holds 32
 *   two-byte (64 one-byte) pair values G(b) ^ G(r-b); a permute looks up,
 *   for all lanes at once, the word (byte) of M holding each value (a
 *   two-table permute once values reach 512, two of them and a blend once
 *   they reach 1024), and a
 *   variable shift and a test give the lanes whose value is missing.  The
 *   blocks of 64 pairs are tested in passes of up to 16 against M as it was
 *   when the pass began, their hits packed into a list without a branch;
 *   then the hits are taken out of M as a set (byte stores and eight
 *   vector tests).  The pass in which M empties is replayed hit by hit, so
 *   that the scan stops after the same block, and counts the same pairs,
 *   as the scalar loop it replaces (which walked a block with more than
 *   eight values missing pair by pair, a load and a store each, and tested
 *   the others by a table lookup per pair or vector compares).
 * - The batched rare pairs of a block (batch_rows): the row offsets of all
 *   heaps of the block for one rare position in one vector, then two
 *   instructions per byte store instead of four or five.
 * - The same batch as bit sets of the ranks of the class C_r
 *   (grundy_x512_cbatch), when no partner of a batched pair is rare, and
 *   the per-heap step that takes mc from those sets and the row
 *   (grundy_x512_cb_head).
 * - The same for the one-word rows of the bit-set path (start_block_bits),
 *   the rows held in registers, four instructions per eight marks; that
 *   path's per-heap marks of the rare positions below the block length
 *   (grundy_x512_flat_bits) and its pair scan (grundy_x512_scan_bits). */
#include "lib/grundy/grundy_int.h"

#if GRUNDY_X512

#include <immintrin.h>
#include <string.h>

/* The pair scan's end game (scan_few) takes over when at most this many
 * values are missing: Officers to 10^6 ran 4-5% faster with 2 than with
 * the hit lists all the way, and slower with 3 or 4. */
#define X512_FEW 2
/* Words of the set M of missing values: values below 2048. */
#define X512_MW 32

#define X512                                                                                     \
    __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,avx512bitalg,bmi,"  \
                          "bmi2")))

bool grundy_x512_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512vbmi") &&
           __builtin_cpu_supports("avx512vbmi2") && __builtin_cpu_supports("avx512bitalg") &&
           __builtin_cpu_supports("bmi2");
}

/* M from the row: bit v set when v < mc and s8[v] == 0 (mc <= 2048; the
 * row holds mc rounded up to 64 bytes at least), words 0..lim-1 (the
 * words the permutes read: zero from mc on). */
X512 static void missing_set(const uint8_t *s8, uint32_t mc, uint64_t m[X512_MW], uint32_t lim)
{
    for (uint32_t w = 0; w < lim; w++) {
        if (64 * w >= mc) {
            m[w] = 0;
            continue;
        }
        __m512i b = _mm512_loadu_si512((const void *)(s8 + 64 * w));
        uint64_t z = _mm512_testn_epi8_mask(b, b);
        if (mc - 64 * w < 64)
            z &= ((uint64_t)1 << (mc - 64 * w)) - 1;
        m[w] = z;
    }
}

/* The values G(b+i) ^ G(r-b-i) of the pairs (b+i, r-b-i), i < cnt <= 32
 * (two-byte) or 64 (one-byte), one per lane; *lanes the lanes i < cnt.
 * y's lane i is G(r-b-31+i) (G(r-b-63+i)) before the reversal: a masked
 * load reads nothing below the block's pairs. */
X512 static inline __m512i pairs16(const uint16_t *g, uint64_t r, uint64_t b, uint32_t cnt,
                                   __mmask32 *lanes)
{
    const __m512i rev = _mm512_set_epi16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
                                         17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                                         31);
    __m512i x, y;
    if (cnt == 32) {
        *lanes = ~(__mmask32)0;
        x = _mm512_loadu_si512((const void *)(g + b));
        y = _mm512_loadu_si512((const void *)(g + (r - b) - 31));
    } else {
        *lanes = ((__mmask32)1 << cnt) - 1;
        x = _mm512_maskz_loadu_epi16(*lanes, g + b);
        y = _mm512_maskz_loadu_epi16(~(__mmask32)0 << (32 - cnt), g + (r - b) - 31);
    }
    return _mm512_xor_si512(x, _mm512_permutexvar_epi16(rev, y));
}

X512 static inline __m512i pairs8(const uint8_t *g, uint64_t r, uint64_t b, uint32_t cnt,
                                  __mmask64 *lanes)
{
    const __m512i rev =
        _mm512_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39,
                        40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,
                        59, 60, 61, 62, 63);
    __m512i x, y;
    if (cnt == 64) {
        *lanes = ~(__mmask64)0;
        x = _mm512_loadu_si512((const void *)(g + b));
        y = _mm512_loadu_si512((const void *)(g + (r - b) - 63));
    } else {
        *lanes = ((__mmask64)1 << cnt) - 1;
        x = _mm512_maskz_loadu_epi8(*lanes, g + b);
        y = _mm512_maskz_loadu_epi8(~(__mmask64)0 << (64 - cnt), g + (r - b) - 63);
    }
    return _mm512_xor_si512(x, _mm512_permutexvar_epi8(rev, y));
}

/* Two-byte values below 512 (nt = 2: 1024, nt = 4: 2048): the lanes of the
 * pairs (b, r-b), b = a, a+1, ... (cnt <= 32 of them) whose value is in the
 * set, in *v the values.  The set's 16-bit word of a value comes from a
 * permute of tb[0], its words 0..31, or, nt = 2, of tb[0] and tb[1] (words
 * 32..63), a two-table permute that reads six bits of the index; nt = 4
 * takes a second such permute of tb[2] and tb[3] (words 64..127) and
 * chooses by the index's seventh bit. */
X512 static inline uint64_t test16(const uint16_t *g, uint64_t r, uint64_t b, uint32_t cnt,
                                   const __m512i tb[4], unsigned nt, __m512i *v)
{
    const __m512i one = _mm512_set1_epi16(1), low4 = _mm512_set1_epi16(15);
    __mmask32 lanes;
    *v = pairs16(g, r, b, cnt, &lanes);
    __m512i idx = _mm512_srli_epi16(*v, 4);
    __m512i w;
    if (nt == 1)
        w = _mm512_permutexvar_epi16(idx, tb[0]);
    else {
        w = _mm512_permutex2var_epi16(tb[0], idx, tb[1]);
        if (nt == 4)
            w = _mm512_mask_blend_epi16(_mm512_test_epi16_mask(idx, _mm512_set1_epi16(64)), w,
                                        _mm512_permutex2var_epi16(tb[2], idx, tb[3]));
    }
    __m512i bit = _mm512_sllv_epi16(one, _mm512_and_si512(*v, low4));
    return _mm512_mask_test_epi16_mask(lanes, w, bit);
}

/* One-byte values below 256, 64 pairs per vector: the byte of the set a
 * value lies in comes from a byte permute (VBMI), its bit from a 16-entry
 * shuffle. */
X512 static inline uint64_t test8(const uint8_t *g, uint64_t r, uint64_t b, uint32_t cnt,
                                  __m512i tbl, __m512i *v)
{
    const __m512i bits = _mm512_broadcast_i32x4(
        _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, (char)128, 1, 2, 4, 8, 16, 32, 64, (char)128));
    const __m512i low3 = _mm512_set1_epi8(7), low5 = _mm512_set1_epi8(31);
    __mmask64 lanes;
    *v = pairs8(g, r, b, cnt, &lanes);
    __m512i w = _mm512_permutexvar_epi8(_mm512_and_si512(_mm512_srli_epi16(*v, 3), low5), tbl);
    __m512i bit = _mm512_shuffle_epi8(bits, _mm512_and_si512(*v, low3));
    return _mm512_mask_test_epi8_mask(lanes, w, bit);
}

/* The batched rare pairs of a block (batch_rows of src/lib/grundy/grundy_kern.h)
 * for one rare position: rows[h * span + (x ^ gp[h])] = 1 for h < len.
 * The row offsets of all len heaps are computed in one vector (two-byte
 * lanes: len * span <= 65536) and stored to a ring of four buffers; the
 * byte stores then take two instructions each instead of four or five.
 * The ring lets the buffer of one position be read back two positions
 * later, after its vector store has left the store queue (a narrow load
 * straight after a wide store waits for it). */
typedef struct {
    uint16_t idx[4][64];
    unsigned at;
} X512Ring;

X512 static inline void ring_marks(const X512Ring *q, unsigned k, uint8_t *rows, uint32_t len)
{
    const uint16_t *b = q->idx[k & 3];
    uint32_t h = 0;
    for (; h + 4 <= len; h += 4) {
        rows[b[h]] = 1;
        rows[b[h + 1]] = 1;
        rows[b[h + 2]] = 1;
        rows[b[h + 3]] = 1;
    }
    for (; h < len; h++)
        rows[b[h]] = 1;
}

/* The row offsets of the len heaps for one rare position (value x, first
 * other part gp): the heaps' two-byte (gw 2) or one-byte values, xor x,
 * plus h * span.  Whole vectors are read without a mask (masked loads of
 * a full vector cost more here). */
X512 static inline void batch_offsets(const void *gp, unsigned gw, uint32_t len, __m512i x,
                                      __m512i off0, __m512i off1, uint16_t *b)
{
    __m512i i0, i1 = off1;
    if (gw == 2) {
        const uint16_t *g = gp;
        if (len >= 32)
            i0 = _mm512_loadu_si512((const void *)g);
        else
            i0 = _mm512_maskz_loadu_epi16(((__mmask32)1 << len) - 1, g);
        if (len == 64)
            i1 = _mm512_loadu_si512((const void *)(g + 32));
        else if (len > 32)
            i1 = _mm512_maskz_loadu_epi16(((__mmask32)1 << (len - 32)) - 1, g + 32);
    } else {
        const uint8_t *g = gp;
        if (len == 64) {
            __m512i bytes = _mm512_loadu_si512((const void *)g);
            i0 = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes));
            i1 = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(bytes, 1));
        } else {
            __mmask64 m = len >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << len) - 1);
            __m512i bytes = _mm512_maskz_loadu_epi8(m, g);
            i0 = _mm512_cvtepu8_epi16(_mm512_castsi512_si256(bytes));
            if (len > 32)
                i1 = _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(bytes, 1));
        }
    }
    i0 = _mm512_add_epi16(_mm512_xor_si512(i0, x), off0);
    if (len > 32)
        i1 = _mm512_add_epi16(_mm512_xor_si512(i1, x), off1);
    _mm512_storeu_si512((void *)b, i0);
    _mm512_storeu_si512((void *)(b + 32), i1);
}

/* The loop of grundy_x512_batch for a constant len (32 and 64 inlined). */
X512 static inline void batch_loop(const void *gv, unsigned gw, const uint64_t *rare,
                                   const uint32_t *rv, size_t j0, size_t j1, uint64_t base,
                                   uint8_t *rows, uint32_t len, __m512i off0, __m512i off1)
{
    X512Ring q;
    q.at = 0;
    for (size_t j = j0; j < j1; j++) {
        const void *gp = (const char *)gv + (size_t)(base - rare[j]) * gw;
        batch_offsets(gp, gw, len, _mm512_set1_epi16((short)rv[j]), off0, off1, q.idx[q.at & 3]);
        if (++q.at >= 3)
            ring_marks(&q, q.at - 3, rows, len);
    }
    /* the last two positions' buffers */
    for (unsigned k = q.at >= 2 ? q.at - 2 : 0; k < q.at; k++)
        ring_marks(&q, k, rows, len);
}

X512 uint64_t grundy_x512_batch(const void *gv, unsigned gw, const uint64_t *rare,
                                const uint32_t *rv, size_t j0, size_t j1, uint64_t base,
                                uint8_t *rows, uint32_t span, uint32_t len)
{
    __m512i off0, off1;
    {
        uint16_t o[64];
        for (uint32_t h = 0; h < 64; h++)
            o[h] = (uint16_t)(h < len ? h * span : 0);
        off0 = _mm512_loadu_si512((const void *)o);
        off1 = _mm512_loadu_si512((const void *)(o + 32));
    }
    if (gw == 2 && len == 32)
        batch_loop(gv, 2, rare, rv, j0, j1, base, rows, 32, off0, off1);
    else if (gw == 1 && len == 64)
        batch_loop(gv, 1, rare, rv, j0, j1, base, rows, 64, off0, off1);
    else
        batch_loop(gv, gw, rare, rv, j0, j1, base, rows, len, off0, off1);
    return j1 - j0;
}

/* The lanes of the pairs (b, r-b), b = a, a+1, ... (cnt of them) whose
 * value is one of the targets t, in *v the values. */
X512 static inline uint64_t eq16(const uint16_t *g, uint64_t r, uint64_t b, uint32_t cnt,
                                 const __m512i *t, __m512i *v)
{
    __mmask32 lanes;
    *v = pairs16(g, r, b, cnt, &lanes);
    uint64_t k = _mm512_mask_cmpeq_epi16_mask(lanes, *v, t[0]);
    for (unsigned q = 1; q < X512_FEW; q++)
        k |= _mm512_mask_cmpeq_epi16_mask(lanes, *v, t[q]);
    return k;
}

X512 static inline uint64_t eq8(const uint8_t *g, uint64_t r, uint64_t b, uint32_t cnt,
                                const __m512i *t, __m512i *v)
{
    __mmask64 lanes;
    *v = pairs8(g, r, b, cnt, &lanes);
    uint64_t k = _mm512_mask_cmpeq_epi8_mask(lanes, *v, t[0]);
    for (unsigned q = 1; q < X512_FEW; q++)
        k |= _mm512_mask_cmpeq_epi8_mask(lanes, *v, t[q]);
    return k;
}

/* The hits k of a vector of pair values v (lanes of w bytes): each value
 * still in m taken out; returns how many were. */
X512 static inline size_t take_hits(__m512i v, uint64_t k, unsigned w, uint64_t m[X512_MW])
{
    uint16_t lv[64];
    size_t got = 0;
    if (w == 2)
        _mm512_storeu_si512((void *)lv, v);
    else {
        _mm512_storeu_si512((void *)lv, _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
        _mm512_storeu_si512((void *)(lv + 32),
                            _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1)));
    }
    for (; k; k &= k - 1) {
        uint32_t x = lv[__builtin_ctzll(k)];
        uint64_t bit = (uint64_t)1 << (x & 63);
        got += (m[x >> 6] & bit) != 0;
        m[x >> 6] &= ~bit;
    }
    return got;
}

/* The scan's end game, at most X512_FEW values missing (a third of
 * Officers' blocks have one or two left): each block's pair values are
 * compared with the missing values, and a hit (in one block of ten with
 * one value left, one of four with two: a well predicted branch) is taken
 * at once, without the
 * hit lists and their replay; the count stops after the block that finds
 * the last value, as grundy_x512_scan's does. */
X512 static uint64_t scan_few(const void *gv, unsigned gw, const uint64_t *rr, size_t nr,
                              uint64_t a, uint64_t hmax, uint64_t m[X512_MW], uint32_t nw,
                              size_t *need, uint64_t *sp)
{
    size_t nd = *need;
    while (a <= hmax && nd) {
        uint32_t tv[X512_FEW] = {0}, q = 0;
        for (uint32_t w = 0; w < nw && q < X512_FEW; w++)
            for (uint64_t b = m[w]; b && q < X512_FEW; b &= b - 1)
                tv[q++] = 64 * w + (uint32_t)__builtin_ctzll(b);
        for (; q < X512_FEW; q++)
            tv[q] = tv[0];
        __m512i t[X512_FEW];
        for (q = 0; q < X512_FEW; q++)
            t[q] = gw == 2 ? _mm512_set1_epi16((short)tv[q]) : _mm512_set1_epi8((char)tv[q]);
        size_t was = nd;
        while (a <= hmax && nd == was) {
            uint64_t end = a + 64 <= hmax + 1 ? a + 64 : hmax + 1;
            for (size_t i = 0; i < nr && nd; i++) {
                uint64_t r = rr[i], e = end <= r / 2 + 1 ? end : r / 2 + 1;
                if (a >= e)
                    continue;
                uint32_t cnt = (uint32_t)(e - a);
                *sp += cnt;
                __m512i v;
                if (gw == 1) {
                    uint64_t k = eq8(gv, r, a, cnt, t, &v);
                    if (k)
                        nd -= take_hits(v, k, 1, m);
                } else {
                    uint64_t k = eq16(gv, r, a, cnt < 32 ? cnt : 32, t, &v);
                    if (k)
                        nd -= take_hits(v, k, 2, m);
                    if (cnt > 32) {
                        k = eq16(gv, r, a + 32, cnt - 32, t, &v);
                        if (k)
                            nd -= take_hits(v, k, 2, m);
                    }
                }
            }
            a = end;
        }
    }
    *need = nd;
    return a;
}

/* Units (one block of one remainder) per pass over the hits. */
#define X512_UNITS GRUNDY_X512_MAXR

/* The scan for values below 512 or (two-byte tables only, nt = 2 or 4
 * permute tables) 1024 or 2048, one copy of each (the permute of test16
 * differs).  Only the words of M below mc (nw) and those the permutes read
 * (8 nt) are set: the longer set of the four-table copy costs the others
 * nothing.  (A value at mc - 1 may lie past the permutes' words, when it is
 * larger than every value so far: no pair has it, and it stays in M.) */
X512 __attribute__((always_inline)) static inline uint64_t
scan_sets(const void *gv, unsigned gw, const uint64_t *rr, size_t nr, uint64_t a, uint64_t hmax,
          uint32_t mc, size_t *need, uint8_t *s8, uint64_t *sp, unsigned nt)
{
    uint64_t m0[X512_MW], m[X512_MW];
    uint32_t nw = (mc + 63) / 64; /* mc <= 2048: the caller's bound */
    if (nw > X512_MW)
        nw = X512_MW;
    uint32_t mw = nw > 8 * nt ? nw : 8 * nt;
    missing_set(s8, mc, m0, mw);
    memcpy(m, m0, 64 * nt); /* a fixed size once inlined */
    for (uint32_t w = 8 * nt; w < nw; w++)
        m[w] = m0[w];
    size_t nd = *need;
    /* the blocks of a pass are tested against the set as it was when the
     * pass began (a value found in the pass may hit again: harmless), and
     * their hits are packed into hb without a branch; then the hits are
     * taken in order, which says after which unit the last missing value
     * was found, and the count of pairs stops there as the scalar loop's
     * does.  A branch per block on "any hit" was mispredicted about every
     * other block. */
    uint16_t hb[X512_UNITS * 64 + 64];
    /* hits are values below mc: only the first nw 64-byte lines of hitb
     * (and words of m) are ever touched (a memset of all 512 bytes was a
     * quarter of the scan's time for 0.56, whose scans are short) */
    uint8_t hitb[64 * X512_MW] __attribute__((aligned(64)));
    for (uint32_t w = 0; w < nw; w++)
        _mm512_store_si512((void *)(hitb + 64 * w), _mm512_setzero_si512());
    uint32_t uend[X512_UNITS], ucnt[X512_UNITS];
    uint64_t unext[X512_UNITS];
    /* passes of 2, 4, 8, then 16 units: while many values are missing
     * most blocks hit, and a long pass against a stale set would find the
     * same values again and again */
    size_t lim = 8;
    while (a <= hmax && nd > X512_FEW) {
        __m512i tb[4];
        for (unsigned k = 0; k < 4; k++)
            tb[k] = k < nt ? _mm512_loadu_si512((const void *)(m + 8 * k))
                           : _mm512_setzero_si512();
        if (gw == 1) /* bytes 0..31 hold the set; the permute reads only those */
            tb[0] = _mm512_maskz_mov_epi64(0x0f, tb[0]);
        size_t nu = 0, pos = 0;
        while (a <= hmax && (nu == 0 || nu + nr <= lim)) {
            uint64_t end = a + 64 <= hmax + 1 ? a + 64 : hmax + 1;
            for (size_t i = 0; i < nr; i++) {
                uint64_t r = rr[i], e = end <= r / 2 + 1 ? end : r / 2 + 1;
                if (a >= e)
                    continue;
                if (gw == 1) {
                    __m512i v;
                    uint64_t k = test8(gv, r, a, (uint32_t)(e - a), tb[0], &v);
                    uint8_t cb[64];
                    _mm512_storeu_si512((void *)cb, _mm512_maskz_compress_epi8(k, v));
                    _mm512_storeu_si512((void *)(hb + pos),
                                        _mm512_cvtepu8_epi16(_mm256_loadu_si256((void *)cb)));
                    size_t c = (size_t)__builtin_popcountll(k);
                    if (c > 32) /* more than 32 hits in 64 pairs: very rare */
                        _mm512_storeu_si512((void *)(hb + pos + 32),
                                            _mm512_cvtepu8_epi16(
                                                _mm256_loadu_si256((void *)(cb + 32))));
                    pos += c;
                } else {
                    __m512i v0, v1;
                    uint32_t c0 = e - a < 32 ? (uint32_t)(e - a) : 32;
                    uint64_t k0 = test16(gv, r, a, c0, tb, nt, &v0);
                    _mm512_storeu_si512((void *)(hb + pos), _mm512_maskz_compress_epi16(
                                                                (__mmask32)k0, v0));
                    pos += (size_t)__builtin_popcountll(k0);
                    if (e - a > 32) {
                        uint64_t k1 = test16(gv, r, a + 32, (uint32_t)(e - a - 32), tb, nt,
                                             &v1);
                        _mm512_storeu_si512((void *)(hb + pos),
                                            _mm512_maskz_compress_epi16((__mmask32)k1, v1));
                        pos += (size_t)__builtin_popcountll(k1);
                    }
                }
                ucnt[nu] = (uint32_t)(e - a);
                uend[nu] = (uint32_t)pos;
                unext[nu++] = end;
            }
            a = end;
        }
        if (lim < X512_UNITS)
            lim *= 2;
        /* the pass's hits as a set: independent byte stores, then one
         * vector test per 64 values below mc; only the pass that finds the last missing value
         * is replayed hit by hit, to stop the count where the scalar loop
         * stops */
        for (size_t q = 0; q < pos; q++)
            hitb[hb[q]] = 1;
        /* words from nw on are 0; from 8 nt on no pair reaches them */
        uint64_t left = 0, nm[X512_MW];
        memset(nm, 0, 64 * nt);
        for (uint32_t w = 0; w < nw; w++) {
            __m512i h = _mm512_loadu_si512((const void *)(hitb + 64 * w));
            nm[w] = m[w] & ~(uint64_t)_mm512_test_epi8_mask(h, h);
            left |= nm[w];
            _mm512_store_si512((void *)(hitb + 64 * w), _mm512_setzero_si512());
        }
        if (left) {
            for (size_t u = 0; u < nu; u++)
                *sp += ucnt[u];
            memcpy(m, nm, 64 * nt);
            nd = 0;
            for (uint32_t w = 0; w < nw; w++)
                nd += (size_t)__builtin_popcountll(m[w]);
            continue;
        }
        size_t q = 0;
        nd = 0;
        for (uint32_t w = 0; w < nw; w++)
            nd += (size_t)__builtin_popcountll(m[w]);
        for (size_t u = 0; u < nu; u++) {
            *sp += ucnt[u];
            for (; q < uend[u]; q++) {
                uint32_t v = hb[q];
                uint64_t bit = (uint64_t)1 << (v & 63), had = m[v >> 6] & bit;
                m[v >> 6] &= ~bit;
                nd -= had != 0;
            }
            if (!nd) {
                a = unext[u];
                break;
            }
        }
    }
    if (nd && nd <= X512_FEW)
        a = scan_few(gv, gw, rr, nr, a, hmax, m, nw, &nd, sp);
    nd = 0;
    for (uint32_t w = 0; w < nw; w++)
        nd += (size_t)__builtin_popcountll(m[w]);
    /* the values found are marked in the row (first_unseen reads it) */
    for (uint32_t w = 0; w < nw; w++) {
        uint64_t f = m0[w] & ~m[w];
        if (f)
            _mm512_mask_storeu_epi8(s8 + 64 * w, f, _mm512_set1_epi8(1));
    }
    *need = nd;
    return a;
}

X512 uint64_t grundy_x512_scan(const void *gv, unsigned gw, const uint64_t *rr, size_t nr,
                               uint64_t a, uint64_t hmax, uint32_t mc, size_t *need, uint8_t *s8,
                               uint64_t *sp, unsigned nt)
{
    if (nt == 4)
        return scan_sets(gv, 2, rr, nr, a, hmax, mc, need, s8, sp, 4);
    if (nt == 2)
        return scan_sets(gv, 2, rr, nr, a, hmax, mc, need, s8, sp, 2);
    return scan_sets(gv, gw, rr, nr, a, hmax, mc, need, s8, sp, 1);
}

/* The batched rare pairs of a block as bit sets over the values of the
 * class C_r (grundy_x512_cbatch): when no partner of a batched pair is
 * rare, every such pair has exactly one rare part, so its value lies in
 * C_r (value_sparse's class argument), and only the least value of C_r
 * that no pair gives matters (mc).  The values of C_r, in order, are
 * numbered by dropping bit t of the value, t the lowest bit of the mask
 * (the parity fixes that bit); this rank is linear in the value, and
 * ranks 64w .. 64w+63 are word w of a heap's set (the values below 128
 * (w + 1) when t < 6).  Eight heaps per vector, one 64-bit lane each: a
 * widening load, an xor, the rank (a shift and a bit select), and per word
 * a variable shift (which gives 0 from 64 on, and for the negative ranks
 * of the higher words) and half of a three-way OR: with three words about
 * ten instructions per eight pairs against eight byte stores, the bound of
 * grundy_x512_batch.
 *
 * The ranks of the pair values rv ^ G(gp[8q .. 8q+7]) (fewer past len),
 * one per 64-bit lane: bits below t from the value, the rest from it
 * shifted right once. */
X512 __attribute__((always_inline)) static inline __m512i
cbatch_ranks(const char *gp, unsigned gw, uint32_t q, uint32_t len, __m512i x, __m512i low)
{
    __m512i v;
    bool whole = 8 * q + 8 <= len;
    __mmask16 part = whole ? 0xff : (__mmask16)((1u << (len - 8 * q)) - 1);
    if (gw == 2)
        v = _mm512_cvtepu16_epi64(whole ? _mm_loadu_si128((const void *)(gp + 16 * q))
                                        : _mm_maskz_loadu_epi16((__mmask8)part, gp + 16 * q));
    else
        v = _mm512_cvtepu8_epi64(whole ? _mm_loadl_epi64((const void *)(gp + 8 * q))
                                       : _mm_maskz_loadu_epi8(part, gp + 8 * q));
    __m512i u = _mm512_xor_si512(v, x);
    return _mm512_ternarylogic_epi64(_mm512_srli_epi64(u, 1), u, low, 0xd8);
}

/* Two rare positions per step: their two bits of a word join the word in
 * one three-way OR (an odd last position is taken twice: the same bits). */
X512 __attribute__((always_inline)) static inline void
cbatch_loop(const void *gv, unsigned gw, const uint64_t *rare, const uint32_t *rv, size_t j0,
            size_t j1, uint64_t base, uint32_t len, unsigned nwd, __m512i low, uint64_t *cb)
{
    const __m512i one = _mm512_set1_epi64(1);
    __m512i acc[GRUNDY_CB_WORDS][8];
    uint32_t nv = (len + 7) / 8;
    for (uint32_t d = 0; d < GRUNDY_CB_WORDS; d++)
        for (uint32_t q = 0; q < 8; q++)
            acc[d][q] = _mm512_setzero_si512();
    for (size_t j = j0; j < j1; j += 2) {
        size_t j2 = j + 1 < j1 ? j + 1 : j;
        const char *gp = (const char *)gv + (size_t)(base - rare[j]) * gw;
        const char *gp2 = (const char *)gv + (size_t)(base - rare[j2]) * gw;
        __m512i x = _mm512_set1_epi64((long long)rv[j]);
        __m512i x2 = _mm512_set1_epi64((long long)rv[j2]);
#pragma GCC unroll 8
        for (uint32_t q = 0; q < 8; q++)
            if (q < nv) {
                __m512i r = cbatch_ranks(gp, gw, q, len, x, low);
                __m512i r2 = cbatch_ranks(gp2, gw, q, len, x2, low);
#pragma GCC unroll 4
                for (uint32_t d = 0; d < GRUNDY_CB_WORDS; d++)
                    if (d < nwd) {
                        __m512i o = _mm512_set1_epi64(64 * (long long)d);
                        acc[d][q] = _mm512_ternarylogic_epi64(
                            acc[d][q], _mm512_sllv_epi64(one, _mm512_sub_epi64(r, o)),
                            _mm512_sllv_epi64(one, _mm512_sub_epi64(r2, o)), 0xfe);
                    }
            }
    }
    for (uint32_t d = 0; d < nwd; d++)
        for (uint32_t q = 0; q < nv; q++) {
            __mmask8 k = 8 * q + 8 <= len ? 0xff : (__mmask8)((1u << (len - 8 * q)) - 1);
            uint64_t *w = cb + GRUNDY_CB_SETS + 64 * d + 8 * q;
            _mm512_mask_storeu_epi64(w, k,
                                     _mm512_or_si512(_mm512_maskz_loadu_epi64(k, w), acc[d][q]));
        }
}

X512 void grundy_x512_cbatch(const void *gv, unsigned gw, const uint64_t *rare, const uint32_t *rv,
                             size_t j0, size_t j1, uint64_t base, uint32_t len, unsigned t,
                             unsigned nwd, uint64_t *cb)
{
    __m512i low = _mm512_set1_epi64((long long)(((uint64_t)1 << t) - 1));
    if (len == 32 && nwd == 2)
        cbatch_loop(gv, gw, rare, rv, j0, j1, base, 32, 2, low, cb);
    else if (len == 32 && nwd == 3)
        cbatch_loop(gv, gw, rare, rv, j0, j1, base, 32, 3, low, cb);
    else if (len == 64 && nwd == 2)
        cbatch_loop(gv, gw, rare, rv, j0, j1, base, 64, 2, low, cb);
    else if (len == 64 && nwd == 3)
        cbatch_loop(gv, gw, rare, rv, j0, j1, base, 64, 3, low, cb);
    else
        cbatch_loop(gv, gw, rare, rv, j0, j1, base, len, nwd, low, cb);
}

X512 uint32_t grundy_x512_cb_head(uint8_t *s8, const uint8_t *vcls, uint32_t span, unsigned cc,
                                  const uint64_t *cb, uint32_t h, unsigned nwd, size_t *need)
{
    uint32_t nw = span / 64 < 2 * nwd ? span / 64 : 2 * nwd;
    uint64_t cw[2 * GRUNDY_CB_WORDS] = {0}, zw[2 * GRUNDY_CB_WORDS] = {0},
             u[GRUNDY_CB_WORDS] = {0};
    __m512i ccv = _mm512_set1_epi8((char)cc);
    for (uint32_t w = 0; w < nw; w++) {
        __m512i b = _mm512_loadu_si512((const void *)(s8 + 64 * w));
        uint64_t z = zw[w] = _mm512_testn_epi8_mask(b, b);
        cw[w] = _mm512_cmpeq_epi8_mask(_mm512_loadu_si512((const void *)(vcls + 64 * w)), ccv);
        u[w >> 1] |= _pext_u64(z & cw[w], cw[w]) << (32 * (w & 1));
    }
    uint32_t r = UINT32_MAX;
    for (uint32_t d = 0; d < nwd; d++) {
        uint64_t f = u[d] & ~cb[GRUNDY_CB_SETS + 64 * d + h];
        if (f) {
            r = 64 * d + (uint32_t)__builtin_ctzll(f);
            break;
        }
    }
    if (r == UINT32_MAX)
        return r;
    uint32_t w = r >> 5;
    uint32_t mc = 64 * w + (uint32_t)__builtin_ctzll(_pdep_u64((uint64_t)1 << (r & 31), cw[w]));
    /* the values of the other class still unseen below mc: *need */
    size_t nd = 0;
    for (uint32_t q = 0; q <= w; q++) {
        uint64_t below = q < w ? ~(uint64_t)0 : ((uint64_t)1 << (mc & 63)) - 1;
        _mm512_mask_storeu_epi8(s8 + 64 * q, cw[q] & below, _mm512_set1_epi8(1));
        nd += (size_t)__builtin_popcountll(zw[q] & ~cw[q] & below);
    }
    *need = nd;
    return mc;
}

/* Eight heaps' one-word rows per vector, all len of them in registers
 * while every rare position adds its marks: per eight heaps a widening
 * load of their eight values, an xor, a variable shift (which gives 0 for
 * values of 64 and more, as bit_of does) and an OR. */
X512 static inline void bits_batch_loop(const uint8_t *g, const uint64_t *rare, const uint32_t *rv,
                                        size_t j0, size_t j1, uint64_t base, uint64_t *rows,
                                        uint32_t len)
{
    const __m512i one = _mm512_set1_epi64(1);
    __m512i acc[8];
    uint32_t nv = (len + 7) / 8;
    for (uint32_t q = 0; q < 8; q++)
        acc[q] = _mm512_setzero_si512();
    for (size_t j = j0; j < j1; j++) {
        const uint8_t *gp = g + (base - rare[j]);
        __m512i x = _mm512_set1_epi64((long long)rv[j]);
        for (uint32_t q = 0; q < 8; q++)
            if (q < nv) {
                __m128i b;
                if (8 * q + 8 <= len)
                    b = _mm_loadl_epi64((const void *)(gp + 8 * q));
                else
                    b = _mm_maskz_loadu_epi8((__mmask16)((1u << (len - 8 * q)) - 1), gp + 8 * q);
                __m512i v = _mm512_xor_si512(_mm512_cvtepu8_epi64(b), x);
                acc[q] = _mm512_or_si512(acc[q], _mm512_sllv_epi64(one, v));
            }
    }
    for (uint32_t q = 0; q < nv; q++) {
        __mmask8 k = 8 * q + 8 <= len ? 0xff : (__mmask8)((1u << (len - 8 * q)) - 1);
        __m512i r = _mm512_maskz_loadu_epi64(k, rows + 8 * q);
        _mm512_mask_storeu_epi64(rows + 8 * q, k, _mm512_or_si512(r, acc[q]));
    }
}

X512 void grundy_x512_bits_batch(const uint8_t *g, const uint64_t *rare, const uint32_t *rv,
                                 size_t j0, size_t j1, uint64_t base, uint64_t *rows, uint32_t len)
{
    if (len == 64)
        bits_batch_loop(g, rare, rv, j0, j1, base, rows, 64);
    else
        bits_batch_loop(g, rare, rv, j0, j1, base, rows, len);
}

/* The values G(n-129 .. n-2) in two vectors (G(n-1), stored by the last
 * heap a moment ago, is left out: a wide load over a pending narrow store
 * waits for it), 64 lanes of the list at a time looked up in them by one
 * two-table byte permute, xor x, then the set of the lanes' values: eight
 * lanes at a time widened to 64 bits and shifted, one OR reduction. */
X512 uint64_t grundy_x512_flat_bits(const uint8_t *g, uint64_t n, const uint8_t *idx,
                                    const uint8_t *x, size_t cnt)
{
    const __m512i one = _mm512_set1_epi64(1);
    __m512i w0 = _mm512_loadu_si512((const void *)(g + n - 129));
    __m512i w1 = _mm512_loadu_si512((const void *)(g + n - 65));
    __m512i acc = _mm512_setzero_si512();
    for (size_t q = 0; q < cnt; q += 64) {
        __m512i v = _mm512_permutex2var_epi8(w0, _mm512_loadu_si512((const void *)(idx + q)), w1);
        v = _mm512_xor_si512(v, _mm512_loadu_si512((const void *)(x + q)));
        if (cnt - q < 64) /* the padding: no value */
            v = _mm512_mask_mov_epi8(v, ~(__mmask64)0 << (cnt - q), _mm512_set1_epi8((char)0xff));
        size_t left = cnt - q;
        for (uint32_t c = 0; c < 4 && 16 * c < left; c++) {
            __m128i b = _mm512_extracti32x4_epi32(v, 0);
            if (c == 1)
                b = _mm512_extracti32x4_epi32(v, 1);
            else if (c == 2)
                b = _mm512_extracti32x4_epi32(v, 2);
            else if (c == 3)
                b = _mm512_extracti32x4_epi32(v, 3);
            acc = _mm512_or_si512(acc, _mm512_sllv_epi64(one, _mm512_cvtepu8_epi64(b)));
            if (16 * c + 8 < left)
                acc = _mm512_or_si512(
                    acc, _mm512_sllv_epi64(one, _mm512_cvtepu8_epi64(_mm_srli_si128(b, 8))));
        }
    }
    return (uint64_t)_mm512_reduce_or_epi64(acc);
}

/* The set of the values of the lanes k of v (one-byte values below 64):
 * the lanes' bits 1 << v, eight lanes at a time as 64-bit words. */
X512 static inline __m512i lane_bits16(__m512i acc, __m128i b, uint64_t k16)
{
    const __m512i one = _mm512_set1_epi64(1);
    acc = _mm512_or_si512(acc,
                          _mm512_maskz_sllv_epi64((__mmask8)k16, one, _mm512_cvtepu8_epi64(b)));
    return _mm512_or_si512(acc, _mm512_maskz_sllv_epi64((__mmask8)(k16 >> 8), one,
                                                        _mm512_cvtepu8_epi64(
                                                            _mm_srli_si128(b, 8))));
}

X512 static inline uint64_t lane_set(__m512i v, uint64_t k)
{
    __m512i acc = _mm512_setzero_si512();
    acc = lane_bits16(acc, _mm512_extracti32x4_epi32(v, 0), k);
    acc = lane_bits16(acc, _mm512_extracti32x4_epi32(v, 1), k >> 16);
    acc = lane_bits16(acc, _mm512_extracti32x4_epi32(v, 2), k >> 32);
    acc = lane_bits16(acc, _mm512_extracti32x4_epi32(v, 3), k >> 48);
    return (uint64_t)_mm512_reduce_or_epi64(acc);
}

X512 uint64_t grundy_x512_scan_bits(const uint8_t *g, const uint64_t *rr, size_t nr, uint64_t *ap,
                                    uint64_t hmax, uint64_t s, uint64_t miss, uint64_t *sp)
{
    uint64_t a = *ap;
    uint64_t w = miss & ~s;
    while (a <= hmax && w) {
        uint64_t end = a + 64 <= hmax + 1 ? a + 64 : hmax + 1;
        for (size_t i = 0; i < nr && w; i++) {
            uint64_t r = rr[i], e = end <= r / 2 + 1 ? end : r / 2 + 1;
            if (a >= e)
                continue;
            uint32_t cnt = (uint32_t)(e - a);
            *sp += cnt;
            __mmask64 lanes;
            __m512i v = pairs8(g, r, a, cnt, &lanes);
            /* values from 64 on are in no set (grundy_bits.h) */
            lanes &= _mm512_testn_epi8_mask(v, _mm512_set1_epi8((char)0xc0));
            /* bit v of w for every lane: one instruction (BITALG) */
            uint64_t k = _mm512_mask_bitshuffle_epi64_mask(lanes, _mm512_set1_epi64((long long)w),
                                                           v);
            if (k) {
                s |= lane_set(v, k);
                w = miss & ~s;
            }
        }
        a = end;
    }
    *ap = a;
    return s;
}

X512 void grundy_x512_row_pack(const uint8_t *s8, uint32_t span, uint64_t *bits)
{
    for (uint32_t q = 0; 64 * q < span; q++) {
        __mmask64 k = span - 64 * q >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << (span - 64 * q)) - 1;
        __m512i v = _mm512_maskz_loadu_epi8(k, s8 + 64 * q);
        bits[q] = _mm512_test_epi8_mask(v, v);
    }
}

X512 void grundy_x512_row_unpack(const uint64_t *bits, uint32_t span, uint8_t *s8)
{
    const __m512i one = _mm512_set1_epi8(1);
    for (uint32_t q = 0; 64 * q < span; q++)
        _mm512_storeu_si512(s8 + 64 * q, _mm512_maskz_mov_epi8(bits[q], one));
}

#endif
