/* The compressed middle of Grundy tables (src/lib/grundy/grundy_store.c,
 * docs/games.md §2) against independent oracles: a naive mex computation written here
 * from the code digits (sharing no code with src/lib/grundy/), and the plain table
 * (no compaction) for long runs.  Chunks are made tiny (2^8 values, a raw
 * prefix of 2^8) so that the compressed middle, the deep pair scans past
 * the raw prefix and the window rule all run within a few thousand heaps.
 * Checkpoints in the compressed form (format 4): an interrupted run saved
 * and resumed gives the same values as one straight run; a flipped bit
 * anywhere is refused (by the seal, or by the structure checks when the
 * file is resealed here with an independent CRC-64), and the table it was
 * loaded into is untouched.  The chunks' spill file: the same values with
 * and without it. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/grundy/grundy.h"
#include "lib/heap/ruleset.h"
#include "unit.h"

/* ---- naive oracle ---------------------------------------------------------- */

static int digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c - 'A' + 10;
}

/* G(0..N-1) of an octal code with digits after "0." (two-heap moves at
 * most): every option, O(N^2). */
static int *naive(const char *code, int N)
{
    int nd = (int)strlen(code) - 2;
    int *g = calloc((size_t)N, sizeof *g);
    unsigned char *seen = malloc(65536);
    for (int n = 1; n < N; n++) {
        memset(seen, 0, 65536);
        for (int k = 1; k <= nd && k <= n; k++) {
            int d = digit(code[1 + k]);
            if ((d & 1) && n == k)
                seen[0] = 1;
            if ((d & 2) && n > k)
                seen[g[n - k]] = 1;
            if (d & 4)
                for (int a = 1; 2 * a <= n - k; a++)
                    seen[g[a] ^ g[n - k - a]] = 1;
        }
        int m = 0;
        while (seen[m])
            m++;
        g[n] = m;
    }
    free(seen);
    return g;
}

static Ruleset *rules(const char *c)
{
    Ruleset *rs = NULL;
    CgtError err;
    CHECK(ruleset_parse_code(c, &rs, NULL, &err) == CGT_OK);
    return rs;
}

/* A table compacted from the start in chunks of 2^c values (raw prefix
 * 2^c). */
static GrundyTable *compact_table(const Ruleset *rs, unsigned c)
{
    GrundyTable *gt = grundy_new(rs);
    grundy_set_compact(gt, 1, c);
    return gt;
}

/* FNV-1a of G(0..n-1) as 4-byte words (the bench drivers' value hash). */
static uint64_t value_hash(const GrundyTable *gt, uint64_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (uint64_t i = 0; i < n; i++)
        for (int b = 0; b < 4; b++) {
            h ^= (grundy_get(gt, i) >> (8 * b)) & 0xff;
            h *= 0x100000001b3ull;
        }
    return h;
}

static int naive_check(const char *c, int N)
{
    Ruleset *rs = rules(c);
    GrundyTable *gt = compact_table(rs, 8);
    CgtError err;
    int bad = grundy_extend(gt, (uint64_t)N, &err) == CGT_OK ? -1 : 0;
    int *g = naive(c, N);
    for (int n = 0; n < N && bad < 0; n++)
        if ((int)grundy_get(gt, (uint64_t)n) != g[n])
            bad = n;
    if (bad >= 0)
        fprintf(stderr, "%s compact: mismatch at heap %d\n", c, bad);
    free(g);
    grundy_free(gt);
    ruleset_free(rs);
    return bad < 0;
}

static void test_naive(void)
{
    char c[8] = "0.00";
    for (int d1 = 0; d1 < 8; d1++)
        for (int d2 = 0; d2 < 8; d2++) {
            if (!d1 && !d2)
                continue;
            c[2] = (char)('0' + d1), c[3] = (char)('0' + d2);
            CHECK(naive_check(c, 2000));
        }
    static const char *more[] = {"0.137", "0.106", "0.14", "0.16", "0.127", "0.354", "0.376",
                                 "0.6",   "0.51",  "0.4",  "0.56", "0.165"};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        CHECK(naive_check(more[i], 1500));
}

/* The compressed table equals the plain one, and holds fewer bytes. */
static void test_plain(void)
{
    static const char *codes[] = {"0.6", "0.14", "0.106"};
    static const uint64_t len[] = {30000, 30000, 200000};
    for (size_t i = 0; i < 3; i++) {
        Ruleset *rs = rules(codes[i]);
        GrundyTable *a = grundy_new(rs), *b = compact_table(rs, 12);
        CgtError err;
        CHECK(grundy_extend(a, len[i], &err) == CGT_OK);
        CHECK(grundy_extend(b, len[i], &err) == CGT_OK);
        CHECK(value_hash(a, len[i]) == value_hash(b, len[i]));
        if (i == 2) /* 0.106: 15 rare heaps, a narrow raw window */
            CHECK(grundy_bytes(b) < grundy_bytes(a) * 2 / 3);
        grundy_free(a);
        grundy_free(b);
        ruleset_free(rs);
    }
}

/* Period proofs read every value at each check: through the compressed
 * middle they give the plain table's result (0.127: period 4, preperiod
 * 46578; 0.16: period 149459, preperiod 105351; Gangolli and Plambeck).
 * The plain table's tail loops compare eight bytes at a time, the
 * compressed middle's one value at a time through grundy_get. */
static void test_period(void)
{
    static const char *codes[] = {"0.127", "0.16"};
    /* 0.16 (3-4 s through the compressed middle) in the slow tier */
    for (size_t i = 0; i < (getenv("CGT_SLOW") ? 2u : 1u); i++) {
        Ruleset *rs = rules(codes[i]);
        /* chunks (and raw prefixes) of 2^14 and 2^16: the scans of 0.127
         * and 0.16 often pass 2^12 pairs, which scan_deep does slowly */
        GrundyTable *a = grundy_new(rs), *b = compact_table(rs, i ? 16 : 14);
        GrundyPeriod pa, pb;
        CgtError err;
        CHECK(grundy_run_period(a, 1000000, &pa, &err) == CGT_OK);
        CHECK(grundy_run_period(b, 1000000, &pb, &err) == CGT_OK);
        CHECK_EQ_INT(pa.status, PERIOD_PROVED);
        CHECK_EQ_INT(pb.status, PERIOD_PROVED);
        CHECK_EQ_INT(pb.period, pa.period);
        CHECK_EQ_INT(pb.preperiod, pa.preperiod);
        CHECK_EQ_INT(pb.proof_n, pa.proof_n);
        CHECK_EQ_INT(grundy_exceptional(b, &pb, NULL), grundy_exceptional(a, &pa, NULL));
        CHECK(grundy_bytes(b) < grundy_bytes(a));
        grundy_free(a);
        grundy_free(b);
        ruleset_free(rs);
    }
}

static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *n = (size_t)ftell(f);
    rewind(f);
    unsigned char *b = malloc(*n ? *n : 1);
    if (fread(b, 1, *n, f) != *n)
        *n = 0;
    fclose(f);
    return b;
}

static void spit(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    fwrite(b, 1, n, f);
    fclose(f);
}

/* CRC-64/XZ bit by bit (independent of src/lib/util/crc64.c). */
static uint64_t crc_ref(const unsigned char *p, size_t n)
{
    uint64_t c = ~0ull;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xc96c5795d7870f42ull & (0 - (c & 1)));
    }
    return ~c;
}

static void reseal(unsigned char *b, size_t n)
{
    char line[32];
    snprintf(line, sizeof line, "crc64 %016llx\n", (unsigned long long)crc_ref(b, n - 23));
    memcpy(b + n - 23, line, 23);
}

static void test_checkpoint(void)
{
    const char *dir = unit_tmp_dir();
    char path[600], good[600];
    snprintf(path, sizeof path, "%s/o.ck", dir);
    snprintf(good, sizeof good, "%s/o.good", dir);
    /* 0.106: 15 rare heaps (docs/games.md §2), so nearly all of the
     * table is compressed */
    Ruleset *rs = rules("0.106");
    CgtError err;
    /* one straight plain run */
    GrundyTable *ref = grundy_new(rs);
    CHECK(grundy_extend(ref, 40000, &err) == CGT_OK);
    uint64_t want = value_hash(ref, 40000);
    /* an interrupted compressed run: 25000 values, saved, resumed */
    GrundyTable *a = compact_table(rs, 10);
    CHECK(grundy_extend(a, 25000, &err) == CGT_OK);
    size_t bytes = grundy_bytes(a);
    CHECK(bytes < 25000); /* one byte per value when raw */
    CHECK(grundy_save(a, good, &err) == CGT_OK);
    grundy_free(a);
    size_t n;
    unsigned char *orig = slurp(good, &n);
    CHECK(orig && n > 40 && memcmp(orig, "cgt-grundy 4\n", 13) == 0);
    GrundyTable *b = compact_table(rs, 10);
    uint64_t fc = 0;
    CHECK(grundy_load(b, good, &fc, &err) == CGT_OK);
    CHECK_EQ_INT(fc, 25000);
    CHECK(grundy_bytes(b) <= bytes); /* loaded in the compressed form */
    CHECK(grundy_extend(b, 40000, &err) == CGT_OK);
    CHECK(value_hash(b, 40000) == want);
    grundy_free(b);
    /* every 97th byte flipped (one bit): refused by the seal, and the
     * table it was loaded into keeps its 100 values; resealed, the flip is
     * refused by the structure or value checks (table untouched) or loaded
     * (a raw value changed within its domain, or an unused bit) */
    size_t refused = 0, resealed_refused = 0, loaded = 0;
    for (size_t i = 0; orig && i + 23 < n; i += 97) {
        unsigned char *d = malloc(n);
        memcpy(d, orig, n);
        d[i] ^= (unsigned char)(1u << (i % 8));
        spit(path, d, n);
        GrundyTable *t = grundy_new(rs);
        CHECK(grundy_extend(t, 100, &err) == CGT_OK);
        refused += grundy_load(t, path, &fc, &err) != CGT_OK && grundy_count(t) == 100;
        reseal(d, n);
        spit(path, d, n);
        if (grundy_load(t, path, &fc, &err) != CGT_OK)
            resealed_refused += grundy_count(t) == 100;
        else
            loaded++;
        grundy_free(t);
        free(d);
    }
    size_t tries = orig ? (n - 23 + 96) / 97 : 0;
    CHECK(tries > 100);
    CHECK_EQ_INT(refused, tries);
    CHECK_EQ_INT(resealed_refused + loaded, tries);
    CHECK(resealed_refused > 0);
    /* the format-3 file of a table that is not compressed still loads */
    GrundyTable *p = grundy_new(rs);
    CHECK(grundy_extend(p, 3000, &err) == CGT_OK);
    CHECK(grundy_save(p, path, &err) == CGT_OK);
    unsigned char *three = slurp(path, &n);
    CHECK(three && memcmp(three, "cgt-grundy 3\n", 13) == 0);
    free(three);
    GrundyTable *q = compact_table(rs, 8);
    CHECK(grundy_load(q, path, &fc, &err) == CGT_OK);
    CHECK(grundy_extend(q, 40000, &err) == CGT_OK);
    CHECK(value_hash(q, 40000) == want);
    grundy_free(p);
    grundy_free(q);
    free(orig);
    grundy_free(ref);
    ruleset_free(rs);
    unlink(path);
    unlink(good);
}

/* The spill file (grundy_set_spill, on by default): the chunks' codes leave
 * the process's memory for an unlinked file in $TMPDIR (else /tmp), the
 * values read back are the plain table's, and without the spill the same
 * chunks stay in memory. */
static void test_spill(void)
{
    Ruleset *rs = rules("0.106");
    CgtError err;
    GrundyTable *ref = grundy_new(rs);
    CHECK(grundy_extend(ref, 60000, &err) == CGT_OK);
    uint64_t want = value_hash(ref, 60000);
    GrundyTable *on = compact_table(rs, 10), *off = compact_table(rs, 10);
    grundy_set_spill(off, false);
    char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", "/nonexistent-cgt-dir", 1); /* falls back to /tmp */
    CHECK(grundy_extend(on, 60000, &err) == CGT_OK);
    if (old)
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    free(old);
    CHECK(grundy_extend(off, 60000, &err) == CGT_OK);
    CHECK(grundy_spill_bytes(on) > 0);
    CHECK(grundy_spill_bytes(off) == 0);
    /* the codes left memory (the file holds each chunk from a page
     * boundary: with these tiny chunks it is larger than the codes) */
    CHECK(grundy_bytes(on) < grundy_bytes(off));
    CHECK(value_hash(on, 60000) == want);
    CHECK(value_hash(off, 60000) == want);
    /* turned on later: the next chunks spill */
    grundy_set_spill(off, true);
    CHECK(grundy_extend(off, 80000, &err) == CGT_OK);
    CHECK(grundy_spill_bytes(off) > 0);
    CHECK(grundy_extend(ref, 80000, &err) == CGT_OK);
    CHECK(value_hash(off, 80000) == value_hash(ref, 80000));
    grundy_free(on);
    grundy_free(off);
    grundy_free(ref);
    ruleset_free(rs);
}

/* grundy_copy through a compressed middle (block by block, gs_copy)
 * gives grundy_get's values for ranges that start and end in the raw
 * prefix, the middle and the window, and cross block (4096) and chunk
 * (2^12) boundaries, plus empty and one-value ranges; the plain table's
 * copy agrees too. */
static void test_copy(void)
{
    Ruleset *rs = rules("0.106");
    CgtError err;
    GrundyTable *flat = grundy_new(rs), *gt = compact_table(rs, 12);
    CHECK(grundy_extend(flat, 100000, &err) == CGT_OK);
    CHECK(grundy_extend(gt, 100000, &err) == CGT_OK);
    CHECK(grundy_bytes(gt) < grundy_bytes(flat)); /* a middle exists */
    static const uint64_t from[] = {0, 1, 4095, 4096, 4097, 8191, 12000, 40000, 90000, 99999, 0};
    static const uint64_t cnt[] = {100000, 9000, 1, 4096, 20000, 2, 0, 60000, 10000, 1, 5000};
    uint32_t *a = malloc(100000 * sizeof *a), *b = malloc(100000 * sizeof *b);
    for (size_t i = 0; i < sizeof from / sizeof *from; i++) {
        grundy_copy(gt, from[i], cnt[i], a);
        grundy_copy(flat, from[i], cnt[i], b);
        uint64_t bad = 0;
        for (uint64_t q = 0; q < cnt[i]; q++)
            bad += a[q] != grundy_get(gt, from[i] + q) || a[q] != b[q];
        CHECK_EQ_INT(bad, 0);
    }
    free(a);
    free(b);
    grundy_free(flat);
    grundy_free(gt);
    ruleset_free(rs);
}

int main(void)
{
    test_copy();
    test_naive();
    test_plain();
    test_period();
    test_checkpoint();
    test_spill();
    UNIT_MAIN_END();
}
