/* Damaged checkpoints of every kind (grundy, quotient, mnk) are refused and
 * left untouched (docs/errors.md): 1000 random single-bit flips of each, every
 * truncation length class, another game, another format version and values
 * outside their domain under a valid checksum (resealed here with an
 * independent CRC-64 below, so that only the value checks can catch them).
 * The intact file is accepted, so that a loader refusing everything fails. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/misere/misere.h"
#include "lib/grundy/grundy.h"
#include "lib/mnk/mnk.h"
#include "lib/heap/ruleset.h"
#include "unit.h"
#include "lib/util/crc64.h"

#define FLIPS 1000

/* CRC-64/XZ bit by bit (reflected polynomial 0xc96c5795d7870f42), written
 * independently of src/lib/util/crc64.c; check value of "123456789" tested below. */
static uint64_t crc_ref(const unsigned char *p, size_t n)
{
    uint64_t c = ~0ULL;
    for (size_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ 0xc96c5795d7870f42ULL : c >> 1;
    }
    return ~c;
}

static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        *len = 0;
        return NULL;
    }
    size_t cap = 1 << 16, n = 0, r;
    unsigned char *b = malloc(cap);
    while ((r = fread(b + n, 1, cap - n, f)) > 0) {
        n += r;
        if (n == cap)
            b = realloc(b, cap *= 2);
    }
    fclose(f);
    *len = n;
    return b;
}

static void spit(const char *path, const unsigned char *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(b, 1, n, f);
        fclose(f);
    }
}

/* Replace the seal line of b (length *n) by a correct one for its body. */
static void reseal(unsigned char *b, size_t *n)
{
    size_t body = *n - 23;
    char line[32];
    snprintf(line, sizeof line, "crc64 %016llx\n", (unsigned long long)crc_ref(b, body));
    memcpy(b + body, line, 23);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

typedef bool (*Loader)(const char *path);

static Ruleset *rs_06, *rs_07, *rs_077;

static bool load_grundy(const char *path)
{
    GrundyTable *t = grundy_new(rs_06);
    CgtError err;
    uint64_t fc = 0;
    bool ok = grundy_load(t, path, &fc, &err) == CGT_OK && fc > 0;
    grundy_free(t);
    return ok;
}

static bool load_quotient(const char *path)
{
    CgtError err;
    bool absent = false;
    MqEngine *e = mq_load(path, ruleset_heapgame(rs_07), NULL, &absent, &err);
    bool ok = e != NULL;
    mq_free(e);
    return ok;
}

static bool load_mnk(const char *path)
{
    MnkOptions o;
    mnk_options_init(&o);
    o.checkpoint = path;
    o.node_limit = 1;
    MnkReport r;
    CgtError err;
    cgt_error_clear(&err);
    CgtStatus st = mnk_solve(5, 5, 4, &o, &r, &err);
    return st != CGT_ERR_IO;
}

/* Write b to path, load it; true when refused and the file is unchanged. */
static bool refused(Loader load, const char *path, const unsigned char *b, size_t n)
{
    spit(path, b, n);
    bool acc = load(path);
    size_t m;
    unsigned char *after = slurp(path, &m);
    bool same = after && m == n && memcmp(after, b, n) == 0;
    free(after);
    return !acc && same;
}

/* The checks every kind shares: flips, truncations, a version change. */
static void damage(const char *kind, Loader load, const char *good, const char *path,
                   const char *version_line, char bad_digit)
{
    size_t n;
    unsigned char *orig = slurp(good, &n);
    CHECK(orig != NULL && n > 100);
    if (!orig)
        return;
    unsigned char *b = malloc(n);
    memcpy(b, orig, n);
    spit(path, b, n);
    CHECK(load(path)); /* the intact copy loads */
    int nref = 0;
    for (int i = 0; i < FLIPS; i++) {
        memcpy(b, orig, n);
        size_t at = (size_t)(next_rand() % n);
        b[at] ^= (unsigned char)(1u << (next_rand() % 8));
        if (refused(load, path, b, n))
            nref++;
        else
            fprintf(stderr, "%s: a flip at byte %zu was accepted\n", kind, at);
    }
    CHECK_EQ_INT(nref, FLIPS);
    printf("%s: %d of %d single-bit flips refused, file untouched\n", kind, nref, FLIPS);
    /* truncations: empty, the seal only cut, the body cut, random lengths */
    size_t cuts[24] = {0, 1, 22, 23, n - 1, n - 22, n - 23, n - 24, n / 2};
    for (int i = 9; i < 24; i++)
        cuts[i] = (size_t)(next_rand() % n);
    int ncut = 0;
    for (int i = 0; i < 24; i++)
        ncut += refused(load, path, orig, cuts[i]);
    CHECK_EQ_INT(ncut, 24);
    /* another format version under a valid seal */
    memcpy(b, orig, n);
    unsigned char *v = (unsigned char *)strstr((char *)b, version_line);
    CHECK(v != NULL);
    if (v) {
        v[strlen(version_line) - 1] = (unsigned char)bad_digit;
        size_t m = n;
        reseal(b, &m);
        CHECK(refused(load, path, b, m));
        v[strlen(version_line) - 1] = '9';
        reseal(b, &m);
        CHECK(refused(load, path, b, m));
    }
    free(b);
    free(orig);
}

static void test_crc_ref(void)
{
    CHECK(crc_ref((const unsigned char *)"123456789", 9) == 0x995dc9bbdf1939faULL);
    /* src/lib/util/crc64.c (eight bytes per step) against the bitwise reference:
     * every length 0..300 at every alignment 0..7, whole and in two calls */
    unsigned char buf[320];
    uint64_t x = 88172645463325252ULL;
    for (size_t i = 0; i < sizeof buf; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        buf[i] = (unsigned char)x;
    }
    int bad = 0;
    for (size_t off = 0; off < 8; off++)
        for (size_t n = 0; n <= 300; n++) {
            uint64_t want = crc_ref(buf + off, n);
            if (crc64_update(0, buf + off, n) != want)
                bad++;
            if (crc64_update(crc64_update(0, buf + off, n / 3), buf + off + n / 3, n - n / 3) !=
                want)
                bad++;
        }
    CHECK_EQ_INT(bad, 0);
}

/* A sealed 0.6 checkpoint of 3000 one-byte values (format 3, "width 1")
 * rewritten with four bytes per value: format 3 with "width 4", or format 2
 * (no width line).  *hdr = offset of the first value. */
static unsigned char *widen_grundy(const unsigned char *one, size_t n1, int version, size_t *n,
                                   size_t *hdr)
{
    const char *w1 = strstr((const char *)one, "count 3000\nwidth 1\n");
    size_t h1 = (size_t)(w1 - (const char *)one) + 19; /* first value */
    unsigned char *b = malloc(n1 * 4 + 64);
    char head[64];
    snprintf(head, sizeof head, "cgt-grundy %d\ngame 0.6\ncount 3000\n%s", version,
             version == 3 ? "width 4\n" : "");
    size_t h = strlen(head);
    memcpy(b, head, h);
    for (size_t i = 0; i < 3000; i++) {
        b[h + 4 * i] = one[h1 + i];
        b[h + 4 * i + 1] = b[h + 4 * i + 2] = b[h + 4 * i + 3] = 0;
    }
    memcpy(b + h + 4 * 3000, "end\n", 4);
    *n = h + 4 * 3000 + 4 + 23;
    reseal(b, n);
    *hdr = h;
    return b;
}

static void test_grundy(const char *dir)
{
    char good[256], path[256];
    snprintf(good, sizeof good, "%s/g.good", dir);
    snprintf(path, sizeof path, "%s/g.ck", dir);
    CgtError err;
    GrundyTable *t = grundy_new(rs_06);
    CHECK(grundy_extend(t, 3000, &err) == CGT_OK);
    CHECK(grundy_save(t, good, &err) == CGT_OK);
    grundy_free(t);
    damage("grundy", load_grundy, good, path, "cgt-grundy 3", '1');
    /* another game: a checkpoint of 0.6 is refused for 0.07 */
    GrundyTable *u = grundy_new(rs_07);
    uint64_t fc;
    CHECK(grundy_load(u, good, &fc, &err) == CGT_ERR_DOMAIN);
    CHECK(strstr(err.msg, "is for game 0.6") != NULL);
    grundy_free(u);
    /* the file keeps the table's width (values of 0.6 below 3000 fit in one
     * byte); the same values written four bytes each load too, under format
     * 3 ("width 4") and the older format 2 (no width line) */
    size_t n1;
    unsigned char *one = slurp(good, &n1);
    CHECK(one != NULL && strstr((char *)one, "count 3000\nwidth 1\n") != NULL);
    size_t n, hdr;
    unsigned char *orig = widen_grundy(one, n1, 2, &n, &hdr);
    spit(path, orig, n);
    CHECK(load_grundy(path));
    free(orig);
    orig = widen_grundy(one, n1, 3, &n, &hdr);
    spit(path, orig, n);
    CHECK(load_grundy(path));
    free(one);
    /* values outside their domain under a valid seal: G(1) = 2^31 (F04),
     * G(2000) = 2^28 after values below 512 (F23), G(0) = 1 */
    static const struct {
        size_t heap;
        uint32_t v;
    } bad[] = {{1, 1u << 31}, {2000, 1u << 28}, {0, 1}, {2, 7}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        unsigned char *b = malloc(n);
        memcpy(b, orig, n);
        for (int j = 0; j < 4; j++)
            b[hdr + 4 * bad[i].heap + (size_t)j] = (unsigned char)(bad[i].v >> (8 * j));
        size_t m = n;
        reseal(b, &m);
        CHECK(refused(load_grundy, path, b, m));
        free(b);
    }
    free(orig);
    /* a table already holding values: a file that disagrees is refused */
    t = grundy_new(rs_06);
    CHECK(grundy_extend(t, 100, &err) == CGT_OK);
    CHECK(grundy_load(t, good, &fc, &err) == CGT_OK && grundy_count(t) == 3000);
    /* a short table is recomputed whole when read: nothing rests on the file */
    uint64_t from, to;
    const char *paths;
    CHECK(!grundy_read_values(t, &from, &to, &paths));
    grundy_free(t);
}

/* Write the values of t to path as a format 3 file with G(heap) = v,
 * resealed (one byte per value: 0.6's values below 256). */
static void grundy_edited(const char *good, const char *path, size_t heap, unsigned char v)
{
    size_t n;
    unsigned char *b = slurp(good, &n);
    unsigned char *w = (unsigned char *)strstr((char *)b, "width 1\n");
    w[8 + heap] = v;
    reseal(b, &n);
    spit(path, b, n);
    free(b);
}

/* Values of a checkpoint are recomputed up to a bound of work and read only
 * past it (docs/games.md "Checkpoints"): a changed value within its domain
 * is refused below the bound, loaded and reported by grundy_read_values
 * past it. */
static void test_grundy_recheck(const char *dir)
{
    char good[256], path[256];
    snprintf(good, sizeof good, "%s/r.good", dir);
    snprintf(path, sizeof path, "%s/r.ck", dir);
    CgtError err;
    GrundyTable *t = grundy_new(rs_06);
    const uint64_t N = 60000; /* values of 0.6 below 256 up to heap 10343 only */
    CHECK(grundy_extend(t, 10000, &err) == CGT_OK);
    CHECK(grundy_save(t, good, &err) == CGT_OK);
    uint32_t g500 = grundy_get(t, 500), g9000 = grundy_get(t, 9000);
    grundy_free(t);
    /* G(500) and G(9000) changed by one, within their domain: refused, and
     * the message names the value the game has */
    grundy_edited(good, path, 500, (unsigned char)(g500 ^ 1));
    t = grundy_new(rs_06);
    uint64_t fc = 0, from = 0, to = 0;
    const char *paths = NULL;
    CHECK(grundy_load(t, path, &fc, &err) == CGT_ERR_DOMAIN);
    CHECK(strstr(err.msg, "the file was altered") != NULL);
    CHECK_EQ_INT(grundy_count(t), 0);
    grundy_free(t);
    grundy_edited(good, path, 9000, (unsigned char)(g9000 ^ 1));
    t = grundy_new(rs_06);
    CHECK(grundy_load(t, path, &fc, &err) == CGT_ERR_DOMAIN);
    grundy_free(t);
    /* a long table: the prefix is recomputed, the rest read and reported */
    t = grundy_new(rs_06);
    CHECK(grundy_extend(t, N, &err) == CGT_OK);
    CHECK(grundy_save(t, good, &err) == CGT_OK);
    grundy_free(t);
    t = grundy_new(rs_06);
    CHECK(grundy_load(t, good, &fc, &err) == CGT_OK && fc == N);
    CHECK(grundy_read_values(t, &from, &to, &paths));
    CHECK(from > 10000 && from < N && to == N && paths && strcmp(paths, good) == 0);
    /* read again: named once; after grundy_clear, nothing is read */
    CHECK(grundy_load(t, good, &fc, &err) == CGT_OK);
    CHECK(grundy_read_values(t, &from, &to, &paths) && strcmp(paths, good) == 0);
    grundy_clear(t);
    CHECK(!grundy_read_values(t, &from, &to, &paths));
    grundy_free(t);
    /* the first value read only: a change there loads (reported); one
     * heap below it is refused.  (0.6 has values of two bytes from 10344:
     * this file has width 2.) */
    size_t n;
    unsigned char *b = slurp(good, &n);
    unsigned char *w = (unsigned char *)strstr((char *)b, "width 2\n");
    CHECK(w != NULL);
    if (w) {
        for (int k = 0; k < 2; k++) {
            size_t at = (size_t)(w + 8 - b) + 2 * (size_t)(from - (uint64_t)k);
            unsigned char *c = malloc(n);
            memcpy(c, b, n);
            c[at] ^= 1;
            size_t m = n;
            reseal(c, &m);
            spit(path, c, m);
            free(c);
            t = grundy_new(rs_06);
            CgtStatus st = grundy_load(t, path, &fc, &err);
            CHECK_EQ_INT(st, k == 0 ? CGT_OK : CGT_ERR_DOMAIN);
            grundy_free(t);
        }
    }
    free(b);
    /* a table already holding more values than the recomputed prefix:
     * only the values past it come from the file */
    t = grundy_new(rs_06);
    CHECK(grundy_extend(t, 50000, &err) == CGT_OK);
    CHECK(grundy_load(t, good, &fc, &err) == CGT_OK);
    CHECK(grundy_read_values(t, &from, &to, &paths) && from == 50000 && to == N);
    grundy_free(t);
}

static void test_quotient(const char *dir)
{
    char good[256], path[256];
    snprintf(good, sizeof good, "%s/q.good", dir);
    snprintf(path, sizeof path, "%s/q.ck", dir);
    CgtError err;
    MqEngine *e = mq_new(ruleset_heapgame(rs_07), NULL);
    CHECK(mq_extend_to(e, 20, &err) == CGT_OK);
    CHECK(mq_save(e, good, &err) == CGT_OK);
    mq_free(e);
    damage("quotient", load_quotient, good, path, "cgt-misere-checkpoint 3", '1');
    bool absent;
    CHECK(mq_load(good, ruleset_heapgame(rs_077), NULL, &absent, &err) == NULL);
    CHECK_EQ_INT(err.status, CGT_ERR_DOMAIN);
    /* an action entry no element can have, under a valid seal */
    size_t n;
    unsigned char *b = slurp(good, &n);
    char *act = strstr((char *)b, "\nact ");
    CHECK(act != NULL);
    if (act) {
        size_t s0 = (size_t)(act + 5 - (char *)b), s1 = s0;
        while (b[s1] != ' ' && b[s1] != '\n')
            s1++;
        unsigned char *w = malloc(n + 8);
        memcpy(w, b, s0);
        memcpy(w + s0, "99999", 5);
        memcpy(w + s0 + 5, b + s1, n - s1);
        size_t m = n - (s1 - s0) + 5;
        reseal(w, &m);
        CHECK(refused(load_quotient, path, w, m));
        free(w);
    }
    free(b);
}

static void test_mnk(const char *dir)
{
    char good[256], path[256];
    snprintf(good, sizeof good, "%s/m.good", dir);
    snprintf(path, sizeof path, "%s/m.ck", dir);
    MnkOptions o;
    mnk_options_init(&o);
    o.checkpoint = good;
    MnkReport r;
    CgtError err;
    cgt_error_clear(&err);
    CHECK_EQ_INT(mnk_solve(5, 5, 4, &o, &r, &err), CGT_OK);
    damage("mnk", load_mnk, good, path, "cgt-mnk-tt 3", '2');
    /* another game */
    o.checkpoint = good;
    o.node_limit = 1;
    CHECK_EQ_INT(mnk_solve(6, 5, 4, &o, &r, &err), CGT_ERR_IO);
    /* a value of 3 and a zone outside the 25-cell board, under a valid seal */
    size_t n;
    unsigned char *orig = slurp(good, &n);
    char *line = strstr((char *)orig, "entries ");
    line = line ? strchr(line, '\n') : NULL;
    CHECK(line != NULL);
    if (line) {
        size_t e0 = (size_t)(line + 1 - (char *)orig); /* first entry: KEY(16) VALUE ZONE */
        unsigned char *b = malloc(n);
        memcpy(b, orig, n);
        b[e0 + 17] = '3';
        size_t m = n;
        reseal(b, &m);
        CHECK(refused(load_mnk, path, b, m));
        memcpy(b, orig, n);
        size_t z = e0 + 19; /* the zone's first hex digit: one more bit, far left */
        size_t zl = 0;
        while (b[z + zl] != ' ' && b[z + zl] != '\n')
            zl++;
        unsigned char *w = malloc(n + 16);
        memcpy(w, b, z);
        memcpy(w + z, "8000000", 7); /* bit 27 + 4*zl: outside 25 cells */
        memcpy(w + z + 7, b + z, n - z);
        m = n + 7;
        reseal(w, &m);
        CHECK(refused(load_mnk, path, w, m));
        free(w);
        free(b);
    }
    free(orig);
}

int main(void)
{
    const char *dir = unit_tmp_dir();
    CgtError err;
    if (ruleset_parse_code("0.6", &rs_06, NULL, &err) != CGT_OK ||
        ruleset_parse_code("0.07", &rs_07, NULL, &err) != CGT_OK ||
        ruleset_parse_code("0.77", &rs_077, NULL, &err) != CGT_OK)
        return 1;
    test_crc_ref();
    test_grundy(dir);
    test_grundy_recheck(dir);
    test_quotient(dir);
    test_mnk(dir);
    ruleset_free(rs_06);
    ruleset_free(rs_07);
    ruleset_free(rs_077);
    UNIT_MAIN_END();
}
