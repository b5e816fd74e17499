/* Checkpoint files of Grundy tables (src/lib/grundy/grundy.h, docs/games.md):
 * written atomically and sealed (src/lib/util/atomicfile.h), read back with every
 * value checked. */
#include "lib/grundy/grundy_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util/atomicfile.h"
#include "lib/util/xalloc.h"

/* ---- checkpoints ---------------------------------------------------------- */

/* Format version 3 (docs/games.md): "cgt-grundy 3\n", "game NAME\n",
 * "count N\n", "width W\n" (1, 2 or 4: the table's bytes per value), N
 * values as W-byte little-endian words, "end\n", sealed by util/atomicfile's
 * CRC-64 line.  Version 2 (no width line, W = 4) is still read; version 1
 * (no seal) is refused. */
#define CKPT_VERSION 3
/* Values per buffered read/write of a checkpoint. */
#define CKPT_CHUNK 4096

/* Raw values [from, to) of gt as w-byte little-endian words. */
static void ckpt_put_raw(const GrundyTable *gt, AtomicFile *af, uint64_t from, uint64_t to)
{
    unsigned w = gt->gw;
    unsigned char buf[4 * CKPT_CHUNK];
    for (uint64_t i = from; i < to && !af->failed; i += CKPT_CHUNK) {
        size_t m = to - i < CKPT_CHUNK ? (size_t)(to - i) : CKPT_CHUNK;
        for (size_t q = 0; q < m; q++)
            for (unsigned j = 0; j < w; j++)
                buf[w * q + j] = (unsigned char)(gv_get(gt->gv, w, i + q) >> (8 * j));
        af_write(af, buf, w * m);
    }
}

CgtStatus grundy_save(const GrundyTable *gt, const char *path, CgtError *err)
{
    AtomicFile af;
    if (af_open(&af, path, "checkpoint", true, err) != CGT_OK)
        return CGT_ERR_IO;
    unsigned w = gt->gw;
    if (!gt->store) {
        af_printf(&af, "cgt-grundy %d\ngame %s\ncount %llu\nwidth %u\n", CKPT_VERSION,
                  gt->rs->name, (unsigned long long)gt->n, w);
        ckpt_put_raw(gt, &af, 0, gt->n);
    } else {
        /* format 4: the compressed form of the table as it is in memory */
        uint64_t b = gs_begin(gt->store), e = gs_end(gt->store);
        af_printf(&af, "cgt-grundy 4\ngame %s\ncount %llu\nwidth %u\nprefix %llu\nmiddle "
                  "%llu\n", gt->rs->name, (unsigned long long)gt->n, w,
                  (unsigned long long)b, (unsigned long long)(e - b));
        ckpt_put_raw(gt, &af, 0, b);
        gs_write(gt->store, &af);
        ckpt_put_raw(gt, &af, e, gt->n);
    }
    af_write(&af, "end\n", 4);
    return af_commit(&af, err);
}

/* Read one header line of at most cap-1 bytes into line (without "\n");
 * false at a missing newline or a CR (a file converted to CRLF line ends). */
static bool ckpt_line(SealedFile *sf, char *line, size_t cap, bool *crlf)
{
    if (!fgets(line, (int)cap, sf->f))
        return false;
    size_t l = strlen(line);
    if (l == 0 || line[l - 1] != '\n')
        return false;
    line[--l] = '\0';
    if (l > 0 && line[l - 1] == '\r') {
        *crlf = true;
        return false;
    }
    return strlen(line) == l; /* no NUL inside */
}

/* Domain check of one value: G(0) = 0, and G(n) <= 2^b when every earlier
 * value is < 2^b (every option of heap n is a nim-sum of earlier values, so
 * it is < 2^b, and the mex of such a set is at most 2^b).  Values stay below
 * 2^31 (the engine's seen-sets are indexed by uint32). */
static bool ckpt_value_ok(uint64_t n, uint32_t v, uint32_t maxprev)
{
    if (n == 0)
        return v == 0;
    uint64_t span = 1;
    while (span <= maxprev)
        span *= 2;
    return v <= span && v < (1u << 31);
}

/* Values of a checkpoint that are recomputed when it is read: the longest
 * prefix G(0..T-1) whose heaps have at most RECHECK_WORK options in all
 * (ruleset_options_bound; RECHECK_WORK = 2^27 unless grundy_set_recheck_work
 * says otherwise: about 0.3 s for an unbounded subtraction
 * game or a three-heap code, far less for the sparse engine's codes), the
 * rest being read only (docs/games.md "Checkpoints").  So a checkpoint of
 * a short table is recomputed whole and trusted in nothing. */
#define RECHECK_WORK (1ull << 27)

void grundy_set_recheck_work(GrundyTable *gt, uint64_t work)
{
    gt->recheck_work = work;
    gt->recheck_set = true;
}

static uint64_t recheck_count(const GrundyTable *gt, uint64_t count)
{
    uint64_t work = 0, t = 0, bound = gt->recheck_set ? gt->recheck_work : RECHECK_WORK;
    while (t < count) {
        uint64_t b = ruleset_options_bound(gt->rs, t);
        if (b > bound - work)
            break;
        work += b;
        t++;
    }
    return t;
}

/* The values G(from..t-1) recomputed in a table of their own (NULL when
 * t <= from: nothing to recompute), to compare with the file's. */
static CgtStatus recheck_table(const GrundyTable *gt, const char *path, uint64_t from, uint64_t t,
                               GrundyTable **out, CgtError *err)
{
    *out = NULL;
    if (t <= from)
        return CGT_OK;
    GrundyTable *f = grundy_new(gt->rs);
    CgtStatus st = grundy_extend(f, t, err);
    if (st != CGT_OK) {
        grundy_free(f);
        cgt_error_hint(err, "checkpoint '%s' was being checked; it is left untouched", path);
        return st;
    }
    *out = f;
    return CGT_OK;
}

/* The message of a value the file holds that is not the game's. */
static CgtStatus recheck_error(const char *path, uint64_t n, uint32_t v, const GrundyTable *f,
                               CgtError *err)
{
    return cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' holds G(%llu) = %u, but "
                         "G(%llu) = %u: the file was altered", path, (unsigned long long)n, v,
                         (unsigned long long)n, grundy_get(f, n));
}

/* Raw values [from, to) of a checkpoint into the w-byte table g. */
static CgtStatus ckpt_get_raw(SealedFile *sf, const char *path, void *g, unsigned w,
                              uint64_t from, uint64_t to, CgtError *err)
{
    unsigned char buf[4 * CKPT_CHUNK];
    for (uint64_t i = from; i < to; i += CKPT_CHUNK) {
        size_t m = to - i < CKPT_CHUNK ? (size_t)(to - i) : CKPT_CHUNK;
        if (fread(buf, w, m, sf->f) != m)
            return cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' is truncated", path);
        for (size_t q = 0; q < m; q++) {
            uint32_t v = 0;
            for (unsigned j = 0; j < w; j++)
                v |= (uint32_t)buf[w * q + j] << (8 * j);
            gv_set(g, w, i + q, v);
        }
    }
    return CGT_OK;
}

/* Format 4 after its header: the raw prefix [0, pre), the compressed
 * middle [pre, pre + mid) (src/lib/grundy/grundy_store.c), the raw rest, "end".
 * The table is built in the same form (a mapped flat table whose middle
 * pages are never touched), every value is checked as for format 3, and it
 * replaces gt's when longer.  Closes sf. */
static CgtStatus load_v4(GrundyTable *gt, SealedFile *sf, const char *path, uint64_t count,
                         unsigned fw, uint64_t pre, uint64_t mid, uint64_t *file_count,
                         const GrundyTable *fresh, CgtError *err)
{
    CgtStatus st = CGT_OK;
    void *g = gs_map(fw);
    GStore *gs = gs_new(pre);
    grundy_spill_store(gt, gs);
    uint32_t mx = 0;
    char tail[4];
    if (!g)
        st = grundy_table_oom(count, fw, err);
    if (st == CGT_OK)
        st = ckpt_get_raw(sf, path, g, fw, 0, pre, err);
    if (st == CGT_OK)
        st = gs_read(gs, sf, pre + mid, path, err);
    if (st == CGT_OK)
        st = ckpt_get_raw(sf, path, g, fw, pre + mid, count, err);
    if (st == CGT_OK && (fread(tail, 1, 4, sf->f) != 4 || memcmp(tail, "end\n", 4) != 0))
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has no end line", path);
    uint32_t buf[CKPT_CHUNK];
    for (uint64_t n = 0; n < count && st == CGT_OK; n++) {
        /* the middle is read CKPT_CHUNK values at a time (gs_copy: one
         * decode per value, not a chunk search and a cache probe each) */
        if (n >= pre && n < pre + mid && ((n - pre) % CKPT_CHUNK == 0))
            gs_copy(gs, n, pre + mid - n < CKPT_CHUNK ? pre + mid - n : CKPT_CHUNK, buf);
        uint32_t v = n >= pre && n < pre + mid ? buf[(n - pre) % CKPT_CHUNK] : gv_get(g, fw, n);
        if (!ckpt_value_ok(n, v, mx) || width_for(v) > fw ||
            (n < gt->n && grundy_get(gt, n) != v))
            st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' holds G(%llu) = %u, which %s",
                               path, (unsigned long long)n, v,
                               n < gt->n ? "differs from the value already computed"
                                         : "is impossible there");
        else if (fresh && n >= gt->n && n < grundy_count(fresh) && grundy_get(fresh, n) != v)
            st = recheck_error(path, n, v, fresh, err);
        if (v > mx)
            mx = v;
        if ((n & ((1u << 24) - 1)) == 0)
            gs_release(gs); /* the check reads the whole middle once */
    }
    gs_release(gs);
    sf_close(sf);
    if (st != CGT_OK || count <= gt->n) {
        gs_unmap(g, fw);
        gs_free(gs);
        if (st != CGT_OK)
            cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        else
            *file_count = count;
        return st;
    }
    *file_count = count;
    grundy_table_release(gt);
    gt->gv = g;
    gt->gw = fw;
    gt->mapped = true;
    gt->cap = GS_MAP_VALUES;
    gt->store = mid ? gs : NULL;
    if (!mid)
        gs_free(gs);
    gt->n = count;
    gt->maxval = mx;
    grundy_reset_engine(gt);
    gt->next_choose = count > SPARSE_START ? count : SPARSE_START;
    return CGT_OK;
}

CgtStatus grundy_load(GrundyTable *gt, const char *path, uint64_t *file_count, CgtError *err)
{
    *file_count = 0;
    uint64_t before = gt->n;
    SealedFile sf;
    if (sf_open(&sf, path, "checkpoint", false, err) != CGT_OK)
        return CGT_ERR_IO;
    if (sf.absent)
        return CGT_OK;
    char line[1024];
    unsigned long long count = 0;
    int version = 0;
    unsigned fw = 4; /* bytes per value in the file (version 2: 4) */
    unsigned long long pre = 0, mid = 0; /* version 4: raw prefix, compressed middle */
    bool crlf = false;
    char tail;
    CgtStatus st = CGT_OK;
    if (!ckpt_line(&sf, line, sizeof line, &crlf) ||
        sscanf(line, "cgt-grundy %d%c", &version, &tail) != 1) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "'%s' is not a cgt Grundy checkpoint", path);
    } else if (version != CKPT_VERSION && version != 2 && version != 4) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has format version %d, "
                           "expected 4, %d or 2", path, version, CKPT_VERSION);
    } else if (!ckpt_line(&sf, line, sizeof line, &crlf) || strncmp(line, "game ", 5) != 0) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "'%s' is not a cgt Grundy checkpoint", path);
    } else if (strcmp(line + 5, gt->rs->name) != 0) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' is for game %s, not %s", path,
                           line + 5, gt->rs->name);
    } else if (!ckpt_line(&sf, line, sizeof line, &crlf) ||
               sscanf(line, "count %llu%c", &count, &tail) != 1 ||
               count > GRUNDY_TABLE_BOUND) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has a bad value count", path);
    } else if (version >= 3 && (!ckpt_line(&sf, line, sizeof line, &crlf) ||
                                sscanf(line, "width %u%c", &fw, &tail) != 1 ||
                                (fw != 1 && fw != 2 && fw != 4))) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has a bad value width", path);
    } else if (version == 4 && (!ckpt_line(&sf, line, sizeof line, &crlf) ||
                                sscanf(line, "prefix %llu%c", &pre, &tail) != 1 ||
                                !ckpt_line(&sf, line, sizeof line, &crlf) ||
                                sscanf(line, "middle %llu%c", &mid, &tail) != 1 ||
                                pre > count || mid > count - pre || (mid && pre == 0) ||
                                sf_remaining(&sf) < fw * (uint64_t)(count - mid) + 4)) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has a bad compressed layout",
                           path);
    } else if (version != 4 && sf_remaining(&sf) != fw * (uint64_t)count + 4) {
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has a bad value count", path);
    }
    if (crlf)
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has CR LF line ends (it was "
                           "converted to Windows text)", path);
    if (st != CGT_OK) {
        sf_close(&sf);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        return st;
    }
    /* the prefix that is cheap to recompute is recomputed and compared */
    uint64_t checked = recheck_count(gt, count);
    GrundyTable *fresh = NULL;
    st = recheck_table(gt, path, before, checked, &fresh, err);
    if (st != CGT_OK) {
        sf_close(&sf);
        return st;
    }
    if (checked < before)
        checked = before;
    if (version == 4) {
        st = load_v4(gt, &sf, path, count, fw, pre, mid, file_count, fresh, err);
        grundy_free(fresh);
        if (st == CGT_OK)
            grundy_note_read(gt, checked, *file_count, path);
        return st;
    }
    /* the file's values go into a table of their own width (a refused
     * file leaves gt untouched) */
    unsigned gw = 1;
    void *g = xmalloc(count ? (size_t)count : 1);
    uint32_t mx = 0;
    unsigned char buf[4 * CKPT_CHUNK];
    for (unsigned long long i = 0; i < count && st == CGT_OK; i += CKPT_CHUNK) {
        size_t m = count - i < CKPT_CHUNK ? (size_t)(count - i) : CKPT_CHUNK;
        if (fread(buf, fw, m, sf.f) != m) {
            st = cgt_error_set(err, CGT_ERR_IO, "checkpoint '%s' is truncated", path);
            break;
        }
        for (size_t q = 0; q < m; q++) {
            const unsigned char *b = buf + fw * q;
            uint32_t v = 0;
            for (unsigned j = 0; j < fw; j++)
                v |= (uint32_t)b[j] << (8 * j);
            uint64_t n = i + q;
            if (!ckpt_value_ok(n, v, mx) || (n < gt->n && grundy_get(gt, n) != v)) {
                st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' holds G(%llu) = %u, "
                                   "which %s", path, (unsigned long long)n, v,
                                   n < gt->n ? "differs from the value already computed"
                                             : "is impossible there");
                break;
            }
            if (fresh && n >= gt->n && n < grundy_count(fresh) && grundy_get(fresh, n) != v) {
                st = recheck_error(path, n, v, fresh, err);
                break;
            }
            if (width_for(v) > gw && !grundy_gv_widen(&g, &gw, n, count, width_for(v))) {
                st = grundy_table_oom(count, width_for(v), err);
                break;
            }
            gv_set(g, gw, n, v);
            if (v > mx)
                mx = v;
        }
    }
    if (st == CGT_OK && (fread(buf, 1, 4, sf.f) != 4 || memcmp(buf, "end\n", 4) != 0))
        st = cgt_error_set(err, CGT_ERR_DOMAIN, "checkpoint '%s' has no end line", path);
    sf_close(&sf);
    grundy_free(fresh);
    if (st != CGT_OK) {
        free(g);
        cgt_error_hint(err, "the file is left untouched; move it away to start afresh");
        return st;
    }
    *file_count = count;
    if (count <= gt->n) { /* the table already holds all of it (checked equal) */
        free(g);
        return CGT_OK;
    }
    grundy_note_read(gt, checked, count, path);
    grundy_table_release(gt);
    gt->gv = g;
    gt->gw = gw;
    gt->n = gt->cap = count;
    gt->maxval = mx;
    grundy_reset_engine(gt);
    /* restart the sparse engine at once if it would be on */
    gt->next_choose = count > SPARSE_START ? count : SPARSE_START;
    return CGT_OK;
}
