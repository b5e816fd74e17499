/* The sparse-space step of src/lib/grundy/grundy.c for small values: a one-byte
 * table whose values are all below 64 (0.1777, 0.454, 0.16, 0.127, 0.106,
 * ...).  Every pair value is then below 64, so a heap's seen-set is one
 * 64-bit word held in a register instead of a row of bytes in memory: a
 * mark is a lookup and an OR (no store), "which values below mc are still
 * missing" is an AND-NOT, the least unseen value of a class one
 * count-trailing-zeros.  The method is the byte path's (docs/games.md §2,
 * steps 1-3); only the seen-set's representation and the unrolling of the
 * first pairs differ.  (Two words for values below 128 were tried: GCC
 * then keeps the pair of words in a vector register and every mark pays
 * two transfers, slower than the byte stores.)  A one-byte table with
 * values from 64 on (0.56: 30 heaps of value 64 in 667,665; 0.376, 0.14)
 * keeps the one word: pair values from 64 on are left out of it, which changes nothing
 * while the least unseen value of class C_r is below 64; when it is not,
 * the heap is done again on a byte row.  Included once by grundy.c,
 * after the one-byte kernel (it uses block_targets_8 and sparse_finish_8);
 * not a header of its own (no include guard, on purpose). */

/* The set {v} for v < 64, the empty set for 64 <= v < 256 (a table: a
 * shift with a test cost more in the marking loops). */
static const uint64_t bit_of[256] = {
#define B1(i) (uint64_t)1 << (i)
#define B4(i) B1(i), B1((i) + 1), B1((i) + 2), B1((i) + 3)
#define B16(i) B4(i), B4((i) + 4), B4((i) + 8), B4((i) + 12)
    B16(0), B16(16), B16(32), B16(48)
#undef B16
#undef B4
#undef B1
};
#define BIT(v) (bit_of[v])

/* Rare positions up to which a table with values from 64 on still
 * takes the bit sets when the processor has no AVX-512: 0.56 (45 rare
 * positions, largest value 64) ran 25% faster in them, 0.354 (131, 113)
 * 6%, and 0.14 (1895, 78) 15% slower than on the byte rows with their
 * vector batches.  With AVX-512 the bit rows' batch is a vector loop too
 * (grundy_x512_bits_batch), and 0.14 to 10^7 went from 9.8 to 5.5 s; with
 * its AVX2 copy (grundy_avx2_bits_batch) 0.14 was still 55% slower in the
 * bit sets than on the byte rows. */
#define BITS_WIDE_RARE 512
/* Shortest flat list (rare pairs below the block length, per heap) that
 * grundy_x512_flat_bits takes: 0.56 (about 40 entries) 10% faster; 0.106
 * (a handful) ran 8% slower with every list in it. */
#define FLAT_MIN 16

/* The bit sets for a block of rows of span bytes: values below 64, or
 * one-byte values with AVX-512 or few rare positions, and few heaps done
 * again (at most one in 64 since the last mask choice, which comes at
 * every doubling of the table: 0.56 redoes 29 of 667,665 heaps, 0.376
 * none, 0.14 one in 500; 0.362, one in 15, was 3% slower in the bit sets
 * with a bound of one in 16). */
static bool bits_block_ok(const GrundyTable *gt, uint32_t span)
{
    if (gt->bits_off)
        return false;
    return span <= 128 || (gt->maxval < 256 && (gt->x512 || gt->nrare <= BITS_WIDE_RARE) &&
                           gt->bits_redo * 64 <= gt->bits_wide + 256);
}

/* The flat list as bytes for grundy_x512_flat_bits, when the processor
 * has AVX-512, the list is long enough and every d is 2..129. */
static void build_flat8(GrundyTable *gt, uint64_t n0)
{
    gt->flat_win = false;
#if GRUNDY_X512
    if (gt->x512 && gt->flat_ok && n0 >= 129 && gt->flat_n >= FLAT_MIN) {
        size_t cnt = gt->flat_n, cap = (cnt + 63) & ~(size_t)63;
        bool win = true;
        for (size_t q = 0; q < cnt; q++)
            win &= gt->flat_d[q] >= 2 && gt->flat_d[q] <= 129;
        if (win) {
            if (cap > gt->flat_cap8) {
                free(gt->flat_i8);
                free(gt->flat_x8);
                gt->flat_cap8 = cap;
                gt->flat_i8 = xmalloc(cap);
                gt->flat_x8 = xmalloc(cap);
            }
            for (size_t q = 0; q < cap; q++) {
                gt->flat_i8[q] = (uint8_t)(q < cnt ? 129 - gt->flat_d[q] : 0);
                gt->flat_x8[q] = (uint8_t)(q < cnt ? gt->flat_x[q] : 0);
            }
            gt->flat_win = true;
        }
    }
#else
    (void)n0;
#endif
}

/* The batched rare pairs of rare[j0..j1-1] into the rows, by the widest
 * vector copy the table uses (grundy_x512_bits_batch, then its AVX2 copy);
 * false when it uses neither. */
static bool bits_batch_vec(const GrundyTable *gt, size_t j0, size_t j1, uint64_t base,
                           uint64_t *rows, uint32_t len)
{
#if GRUNDY_X512
    if (gt->x512) {
        grundy_x512_bits_batch(gt->gv, gt->rare, gt->rare_v, j0, j1, base, rows, len);
        return true;
    }
#endif
#if GRUNDY_AVX2_BITS
    if (gt->simd) {
        grundy_avx2_bits_batch(gt->gv, gt->rare, gt->rare_v, j0, j1, base, rows, len);
        return true;
    }
#endif
    (void)gt, (void)j0, (void)j1, (void)base, (void)rows, (void)len;
    return false;
}

/* start_block for the bit rows: the same pairs as start_block_8, each row
 * one word (gt->bits_rows). */
static void start_block_bits(GrundyTable *gt, uint64_t n0, uint32_t len)
{
    if (len > gt->bits_cap) {
        free(gt->bits_rows);
        gt->bits_cap = len;
        gt->bits_rows = xmalloc(gt->bits_cap * sizeof *gt->bits_rows);
    }
    uint64_t *rows = gt->bits_rows;
    memset(rows, 0, (size_t)len * sizeof *rows);
    const uint8_t *g = gt->gv;
    const uint64_t *rare = gt->rare;
    const uint32_t *rv = gt->rare_v;
    build_flat(gt, n0, len);
    build_flat8(gt, n0);
    uint32_t k;
    size_t j0, j1;
    for (size_t i = 0; i < gt->nsplitk && batch_split(gt, i, n0, len, &k, &j0, &j1); i++) {
        if (!bits_batch_vec(gt, j0, j1, n0 - k, rows, len))
            for (size_t j = j0; j < j1; j++) {
                const uint8_t *gp = g + (n0 - k - rare[j]);
                uint32_t x = rv[j];
                /* one row per heap: the read-modify-writes are independent */
                for (uint32_t h = 0; h < len; h++)
                    rows[h] |= BIT(x ^ gp[h]);
            }
        gt->blk_bcnt += j1 - j0;
    }
}

/* The pairs (b, r_i - b) of b for nr remainders (nr a constant after
 * inlining). */
static inline uint64_t bits_pairs_at(const uint8_t *g, uint64_t b, int nr, uint64_t r0,
                                     uint64_t r1, uint64_t r2, uint64_t r3, uint64_t s)
{
    uint32_t x = g[b];
    s |= BIT(x ^ g[r0 - b]);
    if (nr > 1)
        s |= BIT(x ^ g[r1 - b]);
    if (nr > 2)
        s |= BIT(x ^ g[r2 - b]);
    if (nr > 3)
        s |= BIT(x ^ g[r3 - b]);
    return s;
}

/* The first pairs (b, r_i - b) of nr remainders, b = 1 .. 8c for the least
 * c <= 6 after which no value of miss is unseen; every r_i >= 98, so no
 * bound per remainder.  Inlined with a constant nr: a step of eight b is
 * 8 * nr marks and one test. */
static inline uint64_t bits_first_n(const uint8_t *g, const uint64_t *rr, int nr, uint64_t s,
                                    uint64_t miss, uint64_t *a_out)
{
    uint64_t a = 1, r0 = rr[0], r1 = nr > 1 ? rr[1] : 0, r2 = nr > 2 ? rr[2] : 0;
    uint64_t r3 = nr > 3 ? rr[3] : 0;
    /* written out eight times: GCC -O2 does not unroll the loop over b */
    for (; a <= 48 && (miss & ~s); a += 8) {
        s = bits_pairs_at(g, a, nr, r0, r1, r2, r3, s);
        s = bits_pairs_at(g, a + 1, nr, r0, r1, r2, r3, s);
        s = bits_pairs_at(g, a + 2, nr, r0, r1, r2, r3, s);
        s = bits_pairs_at(g, a + 3, nr, r0, r1, r2, r3, s);
        s = bits_pairs_at(g, a + 4, nr, r0, r1, r2, r3, s);
        s = bits_pairs_at(g, a + 5, nr, r0, r1, r2, r3, s);
        s = bits_pairs_at(g, a + 6, nr, r0, r1, r2, r3, s);
        s = bits_pairs_at(g, a + 7, nr, r0, r1, r2, r3, s);
    }
    *a_out = a;
    return s;
}

/* Step 3 on the bit set s: mark pairs of all split remainders together (as
 * scan_missing_8: the first 48 pair indices eight at a time, then blocks of
 * 64 tested by vector compares when at most four values are missing, else
 * walked) until no value of `miss` is unseen.  Returns the values of miss
 * still unseen (none unless the mex is among them). */
static uint64_t scan_bits(GrundyTable *gt, uint64_t n, uint64_t s, uint64_t miss)
{
    const uint8_t *g = gt->gv;
    uint64_t *rr = gt->scan_r, hmax = 0, rmin = UINT64_MAX;
    size_t nr = 0;
    for (size_t i = 0; i < gt->nsplitk && gt->splitk[i] + 2 <= n; i++) {
        uint64_t r = n - gt->splitk[i];
        rr[nr++] = r;
        hmax = r / 2 > hmax ? r / 2 : hmax;
        rmin = r < rmin ? r : rmin;
    }
    /* compressed middle: raw pairs up to scan_lim, then scan_deep_bits */
    uint64_t hall = hmax;
    if (hmax > gt->scan_lim)
        hmax = gt->scan_lim;
    uint64_t sp0 = 0;
    uint64_t a = 1;
    if (rmin >= 98 && nr >= 1 && nr <= 4) {
        switch (nr) {
        case 1:
            s = bits_first_n(g, rr, 1, s, miss, &a);
            break;
        case 2:
            s = bits_first_n(g, rr, 2, s, miss, &a);
            break;
        case 3:
            s = bits_first_n(g, rr, 3, s, miss, &a);
            break;
        default:
            s = bits_first_n(g, rr, 4, s, miss, &a);
        }
        sp0 = (uint64_t)(a - 1) * nr;
    } else {
        while (a <= hmax && a <= 48 && (miss & ~s)) {
            uint64_t e = a + 8 <= hmax + 1 ? a + 8 : hmax + 1;
            for (size_t i = 0; i < nr; i++) {
                uint64_t r = rr[i], ei = e <= r / 2 + 1 ? e : r / 2 + 1;
                for (uint64_t b = a; b < ei; b++)
                    s |= BIT(g[b] ^ g[r - b]);
                sp0 += ei > a ? ei - a : 0;
            }
            a = e;
        }
    }
    uint64_t w = miss & ~s, sp = sp0;
#if GRUNDY_X512
    if (gt->x512) {
        s = grundy_x512_scan_bits(g, rr, nr, &a, hmax, s, miss, &sp);
        w = miss & ~s;
        gt->scan_pairs += sp;
        if (w && hall > hmax)
            w = scan_deep_bits(gt, rr, nr, a, hall, s, miss);
        return w;
    }
#endif
    /* at most eight values missing: they are block_targets_8's targets and
     * a block's hits are set directly; with more, the block is walked */
    uint32_t t[8];
    size_t nt = 9;
    while (a <= hmax && w) {
        if (nt > 8) {
            /* the build has no popcnt instruction (no -march): count to 9 */
            size_t c = 0;
            for (uint64_t x = w; x && c <= 8; x &= x - 1)
                c++;
            if (c <= 8) {
                nt = 0;
                for (uint64_t x = w; x; x &= x - 1)
                    t[nt++] = (uint32_t)__builtin_ctzll(x);
                for (size_t m = nt; m < 8; m++)
                    t[m] = t[0];
            }
        }
        uint64_t end = a + 64 <= hmax + 1 ? a + 64 : hmax + 1;
        for (size_t i = 0; i < nr && w; i++) {
            uint64_t r = rr[i], e = end <= r / 2 + 1 ? end : r / 2 + 1;
            if (a >= e)
                continue;
            sp += e - a;
            if (nt <= 8) {
                unsigned hit = block_targets_8(g, r, a, e, t, nt);
                if (hit) {
                    for (size_t j = 0; j < nt; j++)
                        if ((hit >> j) & 1)
                            s |= BIT(t[j]);
                    w = miss & ~s;
                    nt = drop_targets_8(t, nt, hit);
                }
                continue;
            }
            for (uint64_t b = a; b < e; b++)
                s |= BIT(g[b] ^ g[r - b]);
            w = miss & ~s;
        }
        a = end;
    }
    gt->scan_pairs += sp;
    if (w && hall > hmax)
        w = scan_deep_bits(gt, rr, nr, a, hall, s, miss);
    return w;
}

/* value_sparse_8 on bit sets (the block was started by start_block_bits).
 * The rare positions not batched are marked per heap exactly as there.
 * When every value of class C_r below 64 is seen (the mex may be 64 or
 * more, once in a run at most), the set is spread into a byte row and the
 * byte path finishes the heap. */
static uint32_t value_sparse_bits(GrundyTable *gt, uint64_t n)
{
    const uint8_t *g = gt->gv;
    uint32_t len = gt->blk_len;
    uint64_t n0 = gt->blk_n0;
    uint64_t s = gt->bits_rows[n - n0];
    const unsigned *km = gt->rs->kmask;
    for (uint32_t k = 1; k <= (uint32_t)gt->rs->max_take && k <= n; k++) {
        if ((km[k] & 1) && n == k)
            s |= 1;
        if ((km[k] & 2) && n > k)
            s |= BIT(g[n - k]);
    }
    uint64_t r0 = n - gt->splitk[0];
    unsigned cc = 1u ^ (gt->e & (unsigned)(r0 & 1));
    const uint64_t *rare = gt->rare;
    const uint32_t *rv = gt->rare_v;
    size_t nrare = gt->nrare;
    gt->rare_pairs += gt->blk_bcnt;
#if GRUNDY_X512
    if (gt->flat_win) {
        s |= grundy_x512_flat_bits(g, n, gt->flat_i8, gt->flat_x8, gt->flat_n);
        gt->rare_pairs += gt->flat_n;
    } else
#endif
        if (gt->flat_ok) {
        const uint32_t *fd = gt->flat_d, *fx = gt->flat_x;
        for (size_t q = 0; q < gt->flat_n; q++)
            s |= BIT(fx[q] ^ g[n - fd[q]]);
        gt->rare_pairs += gt->flat_n;
    }
    for (size_t i = 0; i < gt->nsplitk; i++) {
        uint32_t k = gt->splitk[i];
        if (k + 2 > n)
            break;
        uint64_t r = n - k;
        uint64_t lo = n0 >= (uint64_t)k + len ? n0 - k : 0, hi = len < r ? len : r;
        size_t j = 0;
        if (gt->flat_ok) /* the rare a < len are in the list (hi = len) */
            j = gt->flat_low;
        else
            for (; j < nrare && rare[j] < hi; j++)
                s |= BIT(rv[j] ^ g[r - rare[j]]);
        size_t jmax = nrare, jlo = j;
        while (jmax > jlo && rare[jmax - 1] >= r)
            jmax--;
        j = jmax;
        while (j > jlo && rare[j - 1] >= lo)
            j--;
        for (size_t q = j; q < jmax; q++)
            s |= BIT(rv[q] ^ g[r - rare[q]]);
        gt->rare_pairs += (gt->flat_ok ? 0 : jlo) + (jmax - j);
    }
    uint64_t u = ~s & gt->cls_bits[cc];
    if (gt->maxval >= 64)
        gt->bits_wide++;
    if (!u) {
        uint8_t *s8 = gt->seen8;
        memset(s8, 0, gt->blk_span);
        if (gt->maxval < 64)
            for (uint32_t v = 0; v < 64; v++)
                s8[v] = (uint8_t)((s >> v) & 1);
        else {
            /* s left out the values from 64 on: the heap again on a byte
             * row, every option with a rare part marked (the pairs are
             * counted once, above) */
            gt->bits_redo++;
            row_simple_8(gt, s8, n);
            mark_unbatched_8(gt, s8, n, 0, 0, false);
        }
        return sparse_finish_8(gt, n, s8, cc);
    }
    uint32_t mc = (uint32_t)__builtin_ctzll(u);
    uint64_t miss = ~s & (BIT(mc) - 1);
    if (!miss)
        return mc;
    uint64_t left = scan_bits(gt, n, s, miss);
    return left ? (uint32_t)__builtin_ctzll(left) : mc;
}
