/* The inner loops of src/lib/grundy/grundy.c for one width of the value table:
 * included by src/lib/grundy/grundy_widths.h once per width (and by grundy.c
 * through it once per instruction set) with GV (the stored value type), GW
 * (its width in bits, 8, 16 or 32), GVB (the bytes of a vector: 16, or 32
 * for the AVX2 copy) and GREV (reverse the lanes of a vector of GVs)
 * defined; every function is named KN(f) (f_GW, or f_GWx for AVX2).  Not a
 * header of its own (no include guard, on purpose).  Methods: see grundy.c
 * and docs/games.md ("sparse space"). */

/* Values of the non-split options of heap n of a plain ruleset. */
static void KN(mark_simple)(GrundyTable *gt, uint64_t n)
{
    const GV *g = gt->gv;
    const unsigned *km = gt->rs->kmask;
    uint32_t t = (uint32_t)gt->rs->max_take;
    for (uint32_t k = 1; k <= t && k <= n; k++) {
        if ((km[k] & 1) && n == k)
            mark(gt->seen, 0);
        if ((km[k] & 2) && n > k)
            mark(gt->seen, g[n - k]);
    }
}

/* Plain ruleset, direct: every option. */
static uint32_t KN(value_plain)(GrundyTable *gt, uint64_t n)
{
    const GV *g = gt->gv;
    const unsigned *km = gt->rs->kmask;
    uint32_t t = (uint32_t)gt->rs->max_take;
    memset(gt->seen, 0, gt->seen_words * sizeof *gt->seen);
    KN(mark_simple)(gt, n);
    for (size_t i = 0; i < gt->nsplitk; i++) {
        uint32_t k = gt->splitk[i];
        if (k > n)
            break;
        uint64_t r = n - k;
        for (uint64_t a = 1; 2 * a <= r; a++)
            mark(gt->seen, g[a] ^ g[r - a]);
    }
    if (gt->three)
        for (uint32_t k = 0; k <= t && k <= n; k++) {
            if (!(km[k] & 8))
                continue;
            uint64_t r = n - k;
            for (uint64_t a = 1; 3 * a <= r; a++)
                for (uint64_t b = a; a + 2 * b <= r; b++)
                    mark(gt->seen, g[a] ^ g[b] ^ g[r - a - b]);
        }
    return mex_bits(gt->seen, gt->seen_words);
}

typedef GV KN(VT) __attribute__((vector_size(GVB)));
#define LANES (GVB / (uint32_t)sizeof(GV))

/* Is some lane of v nonzero? */
static inline bool KN(vany)(KN(VT) v)
{
    uint64_t w[GVB / 8], o = 0;
    memcpy(w, &v, sizeof w);
    for (size_t i = 0; i < GVB / 8; i++)
        o |= w[i];
    return o != 0;
}

/* Which of t[0..nt-1] occur among the pair values G(b) ^ G(r-b),
 * a <= b < end: bit j of the result for t[j].  LANES pairs per step (GVB
 * bytes of values): G(b..) against G(..r-b) with its lanes reversed
 * (GCC/Clang vector types), one compare and one OR per target into its own
 * accumulator.  Inlined with a constant nt (1, 2 or 4; t[nt..3] repeat
 * t[0]), so a single missing value costs one compare per LANES pairs. */
static inline unsigned KN(block_hits_n)(const GV *g, uint64_t r, uint64_t a, uint64_t end,
                                        const uint32_t t[4], int nt)
{
    KN(VT) zero = {0};
    KN(VT) t0 = zero + (GV)t[0], t1 = zero + (GV)t[1];
    KN(VT) t2 = zero + (GV)t[2], t3 = zero + (GV)t[3];
    KN(VT) c0 = zero, c1 = zero, c2 = zero, c3 = zero;
    uint64_t b = a;
    for (; b + LANES <= end; b += LANES) {
        KN(VT) x, y;
        memcpy(&x, g + b, sizeof x);
        memcpy(&y, g + (r - b - (LANES - 1)), sizeof y);
        KN(VT) v = x ^ GREV(y);
        c0 |= (KN(VT))(v == t0);
        if (nt > 1)
            c1 |= (KN(VT))(v == t1);
        if (nt > 2) {
            c2 |= (KN(VT))(v == t2);
            c3 |= (KN(VT))(v == t3);
        }
    }
    unsigned hit = KN(vany)(c0);
    if (nt > 1)
        hit |= (unsigned)KN(vany)(c1) << 1;
    if (nt > 2)
        hit |= (unsigned)KN(vany)(c2) << 2 | (unsigned)KN(vany)(c3) << 3;
    for (; b < end; b++) {
        uint32_t v = g[b] ^ g[r - b];
        hit |= (unsigned)(v == t[0]) | (unsigned)(v == t[1]) << 1 | (unsigned)(v == t[2]) << 2 |
               (unsigned)(v == t[3]) << 3;
    }
    return hit & ((1u << nt) - 1);
}

/* Is one of t[0..7] among those pair values (one accumulator for all)? */
static inline bool KN(block_any8)(const GV *g, uint64_t r, uint64_t a, uint64_t end,
                                  const uint32_t t[8])
{
    KN(VT) zero = {0}, tv[8], acc = zero;
    for (int j = 0; j < 8; j++)
        tv[j] = zero + (GV)t[j];
    uint64_t b = a;
    for (; b + LANES <= end; b += LANES) {
        KN(VT) x, y;
        memcpy(&x, g + b, sizeof x);
        memcpy(&y, g + (r - b - (LANES - 1)), sizeof y);
        KN(VT) v = x ^ GREV(y);
        acc |= ((KN(VT))(v == tv[0]) | (KN(VT))(v == tv[1])) |
               ((KN(VT))(v == tv[2]) | (KN(VT))(v == tv[3])) |
               ((KN(VT))(v == tv[4]) | (KN(VT))(v == tv[5])) |
               ((KN(VT))(v == tv[6]) | (KN(VT))(v == tv[7]));
    }
    bool hit = KN(vany)(acc);
    for (; b < end; b++) {
        uint32_t v = g[b] ^ g[r - b];
        for (int j = 0; j < 8; j++)
            hit |= v == t[j];
    }
    return hit;
}

/* Which of the targets t[0..nt-1], nt <= 8 (t[nt..7] repeat t[0]), occur
 * among the pair values of the block: bit j for t[j].  Five to eight
 * targets are tested together first (a block with none is the common
 * case), then in two halves. */
static unsigned KN(block_targets)(const GV *g, uint64_t r, uint64_t a, uint64_t end,
                                  const uint32_t t[8], size_t nt)
{
    if (nt == 1)
        return KN(block_hits_n)(g, r, a, end, t, 1);
    if (nt == 2)
        return KN(block_hits_n)(g, r, a, end, t, 2);
    if (nt <= 4)
        return KN(block_hits_n)(g, r, a, end, t, 4) & ((1u << nt) - 1);
    if (!KN(block_any8)(g, r, a, end, t))
        return 0;
    return (KN(block_hits_n)(g, r, a, end, t, 4) |
            KN(block_hits_n)(g, r, a, end, t + 4, 4) << 4) & ((1u << nt) - 1);
}

/* Is some pair value G(b) ^ G(r-b), a <= b < end, unseen in s8 (any number
 * of missing values: one table lookup per pair, no branch)? */
static unsigned KN(block_missing)(const GV *g, uint64_t r, uint64_t a, uint64_t end,
                                  const uint8_t *s8)
{
    unsigned acc0 = 1, acc1 = 1;
    uint64_t b = a;
    for (; b + 2 <= end; b += 2) {
        acc0 &= s8[g[b] ^ g[r - b]];
        acc1 &= s8[g[b + 1] ^ g[r - b - 1]];
    }
    if (b < end)
        acc0 &= s8[g[b] ^ g[r - b]];
    return !(acc0 & acc1);
}

/* The targets t[0..nt-1] not in `hit`, kept in front; t[nt..7] repeat
 * t[0]. Returns the new nt. */
static inline size_t KN(drop_targets)(uint32_t t[8], size_t nt, unsigned hit)
{
    size_t m = 0;
    for (size_t j = 0; j < nt; j++)
        if (!((hit >> j) & 1))
            t[m++] = t[j];
    for (size_t j = m; j < 8; j++)
        t[j] = t[0];
    return m;
}

/* Step 3 of value_sparse: find the `need` values v < mc still unseen in s8
 * (every byte from mc on is set) among all pairs.  All split remainders
 * r_i = n - k_i are scanned together, a = 1, 2, ... for every r_i at once:
 * a value that arises from only one remainder (common for 0.376, whose
 * splits take 2 or 3) is found after a short prefix instead of after the
 * whole of the other remainder's pairs.  After 48 single pairs, blocks of 64
 * pairs are tested at once (vector compares against the missing values when
 * at most four are left, else a byte lookup per pair); a block with a hit is
 * then walked pair by pair.  Stops when all are seen. */
static void KN(scan_missing)(GrundyTable *gt, uint64_t n, uint32_t mc, size_t need, uint8_t *s8)
{
    const GV *g = gt->gv;
    uint64_t *rr = gt->scan_r, hmax = 0;
    size_t nr = 0;
    for (size_t i = 0; i < gt->nsplitk && gt->splitk[i] + 2 <= n; i++) {
        rr[nr++] = n - gt->splitk[i];
        if ((n - gt->splitk[i]) / 2 > hmax)
            hmax = (n - gt->splitk[i]) / 2;
    }
    /* past scan_lim the pairs are not all in the flat table (compressed
     * middle): scan_deep goes on from there */
    uint64_t hall = hmax;
    if (hmax > gt->scan_lim)
        hmax = gt->scan_lim;
    uint64_t a = 1;
    /* short scans are common: the first 48 pairs eight at a time, marked
     * by independent stores, then the values still missing counted (a few
     * word operations for mc <= 128; a running count makes every mark wait
     * on the load of its own byte) */
    uint64_t sp = 0;
    if (mc > 128) /* recounting would cost more than the running count */
        for (; a <= hmax && a <= 48 && need; a++)
            for (size_t i = 0; i < nr && need; i++)
                if (2 * a <= rr[i]) {
                    uint32_t v = g[a] ^ g[rr[i] - a];
                    sp++;
                    need -= !s8[v]; /* no branch: hits are unpredictable */
                    s8[v] = 1;
                }
    while (a <= hmax && a <= 48 && need) {
        uint64_t e = a + 8 <= hmax + 1 ? a + 8 : hmax + 1;
        for (size_t i = 0; i < nr; i++) {
            uint64_t r = rr[i], ei = e <= r / 2 + 1 ? e : r / 2 + 1;
#if GW == 8 && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            if (ei == a + 8) {
                /* eight pair values from two word loads: byte j of the
                 * byte-swapped G(r-a-7 .. r-a) is G(r-a-j); then eight
                 * independent stores */
                uint64_t x, y;
                memcpy(&x, g + a, sizeof x);
                memcpy(&y, g + (r - a - 7), sizeof y);
                uint64_t v = x ^ __builtin_bswap64(y);
                s8[v & 255] = 1;
                s8[(v >> 8) & 255] = 1;
                s8[(v >> 16) & 255] = 1;
                s8[(v >> 24) & 255] = 1;
                s8[(v >> 32) & 255] = 1;
                s8[(v >> 40) & 255] = 1;
                s8[(v >> 48) & 255] = 1;
                s8[v >> 56] = 1;
                sp += 8;
                continue;
            }
#endif
            for (uint64_t b = a; b < ei; b++)
                s8[g[b] ^ g[r - b]] = 1;
            sp += ei > a ? ei - a : 0;
        }
        need = count_unseen(s8, mc);
        a = e;
    }
    gt->scan_pairs += sp;
    /* with at most four values missing, they are the targets of
     * block_targets: a block is tested by vector compares and its hits
     * marked directly (no walk); with five to SCAN_TEST_NEED one byte
     * lookup per pair tests the block first; with more, nearly every block
     * hits, so it is walked at once.  A walk marks every pair value (all
     * are options, so extra marks are harmless). */
#if GRUNDY_X512 && GW != 32
    if (gt->x512 && mc <= (GW == 8 ? 256u : 2048u) && gt->maxval < (GW == 8 ? 256u : 2048u) &&
        nr <= GRUNDY_X512_MAXR) {
        a = grundy_x512_scan(g, GW / 8, rr, nr, a, hmax, mc, &need, s8, &gt->scan_pairs,
                             GW == 16 && gt->maxval >= 1024 ? 4
                             : GW == 16 && gt->maxval >= 512 ? 2
                                                            : 1);
        if (need && hall > hmax)
            scan_deep(gt, rr, nr, a, hall, need, s8);
        return;
    }
#endif
    uint32_t t[8];
    size_t nt = 0;
    bool vec = false;
    while (a <= hmax && need) {
        if (!vec && need <= 4) {
            /* a missing value that GV cannot hold (a new largest value,
             * once per width) is no pair value: not a target, so the scan
             * stops when the others are seen and the mex is the least of
             * those left */
            for (uint32_t v = 0; v < mc; v++)
                if (!s8[v] && ((uint64_t)v >> GW) == 0)
                    t[nt++] = v;
            for (size_t j = nt; j < 8; j++)
                t[j] = t[0];
            need = nt;
            vec = true;
        }
        uint64_t end = a + 64 <= hmax + 1 ? a + 64 : hmax + 1;
        for (size_t i = 0; i < nr && need; i++) {
            uint64_t r = rr[i], e = end <= r / 2 + 1 ? end : r / 2 + 1;
            if (a >= e)
                continue;
            gt->scan_pairs += e - a;
            if (vec) {
                unsigned hit = KN(block_targets)(g, r, a, e, t, nt);
                if (hit) {
                    for (size_t j = 0; j < nt; j++)
                        if ((hit >> j) & 1)
                            s8[t[j]] = 1;
                    nt = KN(drop_targets)(t, nt, hit);
                    need = nt;
                }
                continue;
            }
            if (need <= SCAN_TEST_NEED && !KN(block_missing)(g, r, a, e, s8))
                continue;
            for (uint64_t b = a; b < e; b++) {
                uint32_t v = g[b] ^ g[r - b];
                need -= !s8[v];
                s8[v] = 1;
            }
        }
        a = end;
    }
    if (need && hall > hmax)
        scan_deep(gt, rr, nr, a, hall, need, s8);
}

/* The batched rare pairs of a block of heaps n0 .. n0+len-1 (rows of span
 * bytes at rows, cleared first): for every split k, the pairs (a, n-k-a)
 * of the rare positions a with lo <= a < n0-k (lo >= len).  Their other
 * part n-k-a lies below n0-k-lo+len <= n0, so it is known before the block
 * starts, and for one rare a the block's parts G(n0-k-a .. n0+len-1-k-a)
 * are contiguous: each table line is read once per block instead of once
 * per heap (with 1500-1900 rare positions, as in 0.6 and 0.14, the
 * per-heap loop waited on those reads).  Returns the pairs marked per
 * heap.  Reads only the table and the rare list: the parallel stretches
 * (src/lib/grundy/grundy_par.c) run it for the next block on another thread, with
 * lo = len + the current block's length. */
static uint64_t KN(batch_rows)(const GrundyTable *gt, uint8_t *rows, uint32_t span, uint64_t n0,
                               uint32_t len, uint32_t lo)
{
    const GV *g = gt->gv;
    const uint64_t *rare = gt->rare;
    const uint32_t *rv = gt->rare_v;
    uint64_t bcnt = 0;
    uint64_t *cb = blk_cbits(rows, len, span);
    cb[0] = 0;
    uint32_t k;
    size_t j0, j1;
#if GRUNDY_X512 && GW != 32
    if (gt->x512 && gt->cb_max && cb_block_ok(gt, span, n0, len, lo)) {
        /* the bit-set form, read by KN(block_head): words enough for the
         * ranks up to that of maxval + 1 */
        unsigned t = (unsigned)__builtin_ctz(gt->mask);
        unsigned nwd = (unsigned)((gt->maxval + 1) >> (t + 1) << t) / 64 + 1;
        if (nwd > gt->cb_max)
            nwd = gt->cb_max;
        cb[0] = nwd;
        memset(cb + GRUNDY_CB_SETS, 0, 64 * nwd * sizeof *cb);
        for (size_t i = 0; i < gt->nsplitk && batch_split(gt, i, n0, lo, &k, &j0, &j1); i++) {
            grundy_x512_cbatch(g, GW / 8, rare, rv, j0, j1, n0 - k, len, t, nwd, cb);
            bcnt += j1 - j0;
        }
        return bcnt;
    }
#endif
    memset(rows, 0, (size_t)len * span);
    for (size_t i = 0; i < gt->nsplitk && batch_split(gt, i, n0, lo, &k, &j0, &j1); i++) {
#if GRUNDY_X512 && GW != 32
        if (gt->x512 && (uint64_t)len * span <= 65536) {
            bcnt += grundy_x512_batch(g, GW / 8, rare, rv, j0, j1, n0 - k, rows, span, len);
            continue;
        }
#endif
        for (size_t j = j0; j < j1; j++) {
            const GV *gp = g + (n0 - k - rare[j]);
            uint8_t *row = rows;
            uint32_t x = rv[j], h = 0;
            /* four independent stores per step: the loop is bound by
             * stores, not by its own bookkeeping */
            for (; h + 4 <= len; h += 4, row += 4 * (size_t)span) {
                row[x ^ gp[h]] = 1;
                row[span + (x ^ gp[h + 1])] = 1;
                row[2 * (size_t)span + (x ^ gp[h + 2])] = 1;
                row[3 * (size_t)span + (x ^ gp[h + 3])] = 1;
            }
            for (; h < len; h++, row += span)
                row[x ^ gp[h]] = 1;
        }
        bcnt += j1 - j0;
    }
    return bcnt;
}

/* Start a block of heaps n0, n0+1, ... (at most `limit` of them, fewer
 * before the next mask choice) for value_sparse: one seen row per heap,
 * with the batched rare pairs of batch_rows (lo = len).  Rare positions
 * below len or from n0-k on are done per heap by value_sparse. */
static void KN(start_block)(GrundyTable *gt, uint64_t n0, uint64_t limit)
{
    uint32_t span = grundy_row_span(gt);
    uint32_t len = block_len(gt, span, n0, limit);
    ensure_seen8(gt, (size_t)len * span + GRUNDY_CB_BYTES);
    gt->blk_ok = true;
    gt->blk_n0 = n0;
    gt->blk_len = len;
    gt->blk_lenb = len;
    gt->blk_span = span;
    gt->blk_bcnt = 0;
    gt->blk_bits = false;
#if GW == 8
    /* pair values below 64: the rows are bit sets (src/lib/grundy/grundy_bits.h) */
    gt->blk_bits = bits_block_ok(gt, span);
    if (gt->blk_bits) {
        start_block_bits(gt, n0, len);
        return;
    }
#endif
    build_flat(gt, n0, len);
    gt->blk_bcnt = KN(batch_rows)(gt, gt->seen8, span, n0, len, len);
}

/* The rare pairs of heap n that its block did not batch, marked in its row
 * s8: for every split k, the rare a < r = n-k with a < lenb (the block's
 * batch started at rare positions lenb) or a >= n0-k (all a when the block
 * had no batch for this k, n0 < k + lenb).  With `flat` the rare a < lenb are already
 * marked from build_flat's list.  Returns the number of pairs marked.
 * Used by value_sparse's step 1 with lenb = blk_lenb (the block length; in
 * a parallel stretch, where the batch of a block starts). */
static inline uint64_t KN(mark_unbatched)(const GrundyTable *gt, uint8_t *s8, uint64_t n,
                                          uint64_t n0, uint32_t lenb, bool flat)
{
    const GV *g = gt->gv;
    const uint64_t *rare = gt->rare;
    const uint32_t *rv = gt->rare_v;
    size_t nrare = gt->nrare;
    uint64_t cnt = 0;
    for (size_t i = 0; i < gt->nsplitk; i++) {
        uint32_t k = gt->splitk[i];
        if (k + 2 > n)
            break;
        uint64_t r = n - k;
        uint64_t lo = n0 >= (uint64_t)k + lenb ? n0 - k : 0, hi = lenb < r ? lenb : r;
        size_t j = 0;
        if (flat) /* the rare a < lenb are in the list (hi = lenb) */
            j = gt->flat_low;
        else
            for (; j < nrare && rare[j] < hi; j++)
                s8[rv[j] ^ g[r - rare[j]]] = 1;
        size_t jmax = nrare, jlo = j;
        while (jmax > jlo && rare[jmax - 1] >= r)
            jmax--;
        j = jmax;
        while (j > jlo && rare[j - 1] >= lo)
            j--;
        for (size_t q = j; q < jmax; q++)
            s8[rv[q] ^ g[r - rare[q]]] = 1;
        cnt += (flat ? 0 : jlo) + (jmax - j);
    }
    return cnt;
}

static uint32_t KN(sparse_finish)(GrundyTable *gt, uint64_t n, uint8_t *s8, unsigned cc);

/* sparse_head for heap n of the block, whose row s8 holds every option
 * with a rare part except, when the block's batch took the bit-set form
 * (batch_rows), the batched pairs: then mc comes from those words and the
 * row (grundy_x512_cb_head), or, when its rank is past the words (a value
 * above the largest the block started with), the batched pairs of heap n
 * are first marked in the row one by one (docs/games.md §2). */
static uint32_t KN(block_head)(GrundyTable *gt, uint64_t n, uint8_t *s8, unsigned cc,
                               size_t *need)
{
#if GRUNDY_X512 && GW != 32
    uint32_t span = gt->blk_span;
    uint64_t *cb = blk_cbits(gt->seen8, gt->blk_len, span), n0 = gt->blk_n0;
    /* (a bit-set block's heap redone on a byte row has no batch) */
    if (!gt->blk_bits && cb[0]) {
        uint32_t mc = grundy_x512_cb_head(s8, gt->vcls, span, cc, cb, (uint32_t)(n - n0),
                                          (unsigned)cb[0], need);
        if (mc != UINT32_MAX) {
            if (*need)
                memset(s8 + mc, 1, span - mc);
            return mc;
        }
        const GV *g = gt->gv;
        const uint64_t *rare = gt->rare;
        const uint32_t *rv = gt->rare_v;
        uint32_t k;
        size_t j0, j1;
        for (size_t i = 0;
             i < gt->nsplitk && batch_split(gt, i, n0, gt->blk_lenb, &k, &j0, &j1); i++) {
            const GV *gp = g + (n - k);
            size_t j = j0;
            /* four independent stores per step (as batch_rows) */
            for (; j + 4 <= j1; j += 4) {
                s8[rv[j] ^ gp[-(ptrdiff_t)rare[j]]] = 1;
                s8[rv[j + 1] ^ gp[-(ptrdiff_t)rare[j + 1]]] = 1;
                s8[rv[j + 2] ^ gp[-(ptrdiff_t)rare[j + 2]]] = 1;
                s8[rv[j + 3] ^ gp[-(ptrdiff_t)rare[j + 3]]] = 1;
            }
            for (; j < j1; j++)
                s8[rv[j] ^ gp[-(ptrdiff_t)rare[j]]] = 1;
        }
    }
#else
    (void)n;
#endif
    return sparse_head(gt, s8, cc, need);
}
/* The values of the non-split options of heap n marked in its seen row s8
 * (mark_simple's options, as bytes). */
static inline void KN(row_simple)(const GrundyTable *gt, uint8_t *s8, uint64_t n)
{
    const GV *g = gt->gv;
    const unsigned *km = gt->rs->kmask;
    for (uint32_t k = 1; k <= (uint32_t)gt->rs->max_take && k <= n; k++) {
        if ((km[k] & 1) && n == k)
            s8[0] = 1;
        if ((km[k] & 2) && n > k)
            s8[g[n - k]] = 1;
    }
}

/* Step 1 of value_sparse: every option of heap n with a rare part (and the
 * non-split options) marked in its row of the block, which is returned. */
static uint8_t *KN(sparse_marks)(GrundyTable *gt, uint64_t n)
{
    const GV *g = gt->gv;
    uint32_t span = gt->blk_span;
    uint64_t n0 = gt->blk_n0;
    uint8_t *s8 = gt->seen8 + (size_t)(n - n0) * span;
    /* a batch in bit sets left the rows alone: each is cleared here, by
     * the thread that marks it (in a parallel stretch the batch ran on
     * another thread, and its clearing moved the rows' lines there) */
    if (!gt->blk_bits && blk_cbits(gt->seen8, gt->blk_len, span)[0])
        memset(s8, 0, span);
    KN(row_simple)(gt, s8, n);
    gt->rare_pairs += gt->blk_bcnt; /* counted per heap: a block may end early */
    if (gt->flat_ok) {
        /* the rare a < blk_lenb of every split, one list (build_flat) */
        const uint32_t *fd = gt->flat_d, *fx = gt->flat_x;
        for (size_t q = 0; q < gt->flat_n; q++)
            s8[fx[q] ^ g[n - fd[q]]] = 1;
        gt->rare_pairs += gt->flat_n;
    }
    gt->rare_pairs += KN(mark_unbatched)(gt, s8, n, n0, gt->blk_lenb, gt->flat_ok);
    return s8;
}

/* Sparse-space step for heap n (plain, two-heap splits only).  With class
 * c(a) = parity(G(a) & mask) ^ (e & a & 1), a split r = a + b has value
 * v = G(a)^G(b) with parity(v & mask) = c(a) ^ c(b) ^ (e & r & 1).  So the
 * values of the class C_r (parity 1 ^ (e & r & 1)) come only from pairs
 * with exactly one part in the rare class rho (c(a) != c(b)): enumerating
 * the rare positions gives all of them exactly.  Values of the other class
 * below the least missing C_r value are found by a scan over all pairs that
 * stops as soon as each of them has been seen (usually after a short
 * prefix).  The seen-set is one byte per value here (a row of the block
 * started by start_block, which holds most rare pairs already): the marks
 * are independent stores (a bitset's read-modify-write on a handful of
 * words serialised them). */
static uint32_t KN(value_sparse)(GrundyTable *gt, uint64_t n)
{
#if GW == 8
    if (gt->blk_bits)
        return value_sparse_bits(gt, n);
#endif
    uint8_t *s8 = KN(sparse_marks)(gt, n);
    return KN(sparse_finish)(gt, n, s8, sparse_class(gt, n));
}

/* Steps 2 and 3 of value_sparse on the seen row s8 of heap n (every
 * option with a rare part marked): the least unseen value mc of class cc,
 * then the scan for the unseen values of the other class below it. */
static uint32_t KN(sparse_finish)(GrundyTable *gt, uint64_t n, uint8_t *s8, unsigned cc)
{
    size_t need;
    uint32_t mc = KN(block_head)(gt, n, s8, cc, &need);
    if (need == 0)
        return mc;
    KN(scan_missing)(gt, n, mc, need, s8);
    return first_unseen(s8, mc);
}

/* Any ruleset: the rules applied directly to the table (the same options
 * as ruleset_options, without building the lists). */
static uint32_t KN(value_rules)(GrundyTable *gt, uint64_t n)
{
    const GV *g = gt->gv;
    ensure_seen(gt);
    uint64_t *seen = gt->seen;
    memset(seen, 0, gt->seen_words * sizeof *seen);
    for (size_t ri = 0; ri < gt->rs->nrules; ri++) {
        const MoveRule *r = &gt->rs->rules[ri];
        uint64_t kmax = n;
        if (r->frac_den)
            kmax = n / r->frac_den * r->frac_num + n % r->frac_den * r->frac_num / r->frac_den;
        uint32_t mp = r->min_part > 1 ? r->min_part : 1;
        bool uneq = r->flags & RULE_UNEQUAL, eq = r->flags & RULE_EQUAL;
        for (size_t j = 0; j < r->nranges; j++) {
            uint64_t hi = r->ranges[j].hi != RULESET_UNBOUNDED && r->ranges[j].hi < kmax
                              ? r->ranges[j].hi
                              : kmax;
            for (uint64_t k = r->ranges[j].lo; k <= hi; k++) {
                /* one heap may cost O(n^3) (three heaps left): poll per
                   move so that Ctrl-C and --timeout act within
                   milliseconds, even when one heap takes minutes */
                if ((gt->stop = cgt_poll()) != CGT_OK)
                    return 0;
                uint64_t rem = n - k;
                if ((r->parts_mask & 1) && rem == 0 && n > 0)
                    mark(seen, 0);
                if ((r->parts_mask & 2) && rem >= mp && k > 0)
                    mark(seen, g[rem]);
                if (r->parts_mask & 4) {
                    if (eq) {
                        if (rem % 2 == 0 && rem / 2 >= mp)
                            mark(seen, 0);
                    } else {
                        for (uint64_t a = mp; 2 * a <= rem; a++)
                            if (!(uneq && 2 * a == rem))
                                mark(seen, g[a] ^ g[rem - a]);
                    }
                }
                if (r->parts_mask & 8)
                    for (uint64_t a = mp; 3 * a <= rem; a++) {
                        if ((gt->stop = cgt_poll()) != CGT_OK)
                            return 0;
                        for (uint64_t b = a; a + 2 * b <= rem; b++) {
                            uint64_t c = rem - a - b;
                            if (uneq && (a == b || b == c))
                                continue;
                            if (eq && (a != b || b != c))
                                continue;
                            mark(seen, g[a] ^ g[b] ^ g[c]);
                        }
                    }
                if (k == hi)
                    break;
            }
        }
    }
    return mex_bits(seen, gt->seen_words);
}

/* Least i such that G(m+p) - G(m) == s for all i <= m < N-p.  With s = 0
 * (every pure period; 0.376's proof walks back over 2.27 million values
 * per candidate) eight bytes are compared per step, and the last unequal
 * value is found in the first unequal word: the byte loop ran at one value
 * per cycle or at two thirds of that, as its code happened to be placed. */
static uint64_t KN(tail_start)(const void *gv, uint64_t N, uint64_t p, int64_t s)
{
    const GV *g = gv;
    uint64_t m = N - p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t k = 8 / sizeof(GV); /* values per word */
    if (s == 0)
        while (m >= k) {
            uint64_t a, b;
            memcpy(&a, g + (m - k + p), sizeof a);
            memcpy(&b, g + (m - k), sizeof b);
            if (a != b) /* the highest unequal byte is the last unequal value */
                return m - k + (uint64_t)(63 - __builtin_clzll(a ^ b)) / (8 * sizeof(GV)) + 1;
            m -= k;
        }
#endif
    while (m > 0 && (int64_t)g[m - 1 + p] - (int64_t)g[m - 1] == s)
        m--;
    return m;
}

/* tail_start(g, N, p, 0), using and updating the candidates tc.  A p with
 * G(N-1-p) != G(N-1) has tail N-p at once (no candidate can say more): most
 * p are settled by that one compare, without the divisions. */
static inline uint64_t KN(tail_pure)(const void *gv, uint64_t N, uint64_t p, TailCands *tc)
{
    const GV *g = gv;
    if (g[N - 1 - p] != g[N - 1])
        return N - p;
    uint64_t from = N - p;
    for (size_t j = 0; j < tc->n; j++)
        if (p % tc->p[j] == 0 && tc->i[j] < from)
            from = tc->i[j];
    uint64_t i = KN(tail_start)(gv, from + p, p, 0);
    if (tc->n < TAIL_CANDS && N - i >= 2 * p + 64 && !tail_redundant(tc, p, i)) {
        tc->p[tc->n] = p;
        tc->i[tc->n++] = i;
    }
    return i;
}

/* Least p' in [p, pmax] with G(N-1-p') == G(N-1) and, when `two`, also
 * G(N-2-p') == G(N-2); pmax + 1 when there is none (N >= pmax + 2).
 * Every p skipped has tail_pure(N, p) >= N-p-1 (>= N-p when !two), which
 * find_period can neither prove nor observe nor keep as a candidate (see
 * there), so the period search need not call tail_pure for it.  LANES p
 * per step: the table is read backwards GVB bytes at a time against the
 * last two values (a wrong p failed after one or two compares, but one
 * call each: most of the search's time). */
static uint64_t KN(tail_next)(const void *gv, uint64_t N, uint64_t p, uint64_t pmax, bool two)
{
    const GV *g = gv;
    KN(VT) zero = {0};
    KN(VT) vx = zero + g[N - 1], vy = zero + g[N - 2];
    for (; p + LANES - 1 <= pmax && p + LANES + 1 <= N; p += LANES) {
        /* lane j holds p + LANES-1-j */
        KN(VT) x, y;
        memcpy(&x, g + (N - 1 - p - (LANES - 1)), sizeof x);
        KN(VT) m = (KN(VT))(x == vx);
        if (two) {
            memcpy(&y, g + (N - 2 - p - (LANES - 1)), sizeof y);
            m &= (KN(VT))(y == vy);
        }
        if (KN(vany)(m))
            break;
    }
    for (; p <= pmax; p++)
        if (g[N - 1 - p] == g[N - 1] && (!two || g[N - 2 - p] == g[N - 2]))
            return p;
    return p;
}

#undef LANES
