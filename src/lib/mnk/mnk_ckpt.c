/* m,n,k solver: checkpoints of the table of proven positions. */
#include "lib/mnk/mnk_int.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "lib/util/atomicfile.h"
#include "lib/util/poll.h"

/* ------------------------------------------------------------ checkpoints */

/* Checkpoint file (text, version 3): "cgt-mnk-tt 3", "game m n k",
 * "entries N", then N lines "KEY VALUE ZONE WORK" (hex key, value 1 or 2,
 * hex relevance zone in canonical cells, work byte), then "end", sealed by
 * util/atomicfile's CRC-64 line and written atomically.  Versions 1 (no
 * ZONE, every cell in the zone) and 2 (no seal) are still read, with a
 * warning: they may hold days of search.  A save never replaces a file of
 * more entries than the table now holds (docs/errors.md). */
/* Format 4 (boards of more than 64 cells, the 128- and 256-bit instances)
 * is format 3 with ZONE as wide as the board: up to 64 hex digits, most
 * significant first.  The 64-cell instance writes format 3 byte for byte
 * as before (and reads 1 to 3); the wide ones write and read format 4. */
#if MNK_CELLS == 64
#define CKPT_VERSION 3
#define CKPT_FIRST 1
#else
#define CKPT_VERSION 4
#define CKPT_FIRST 4
#endif

static CgtStatus save_locked(Solver *s);

#if MNK_CELLS > 64
/* A cell set in hex, most significant digit first, without leading zeros. */
static const char *zone_hex(Bits z, char *out)
{
    int n = 0, w = BITS_WORDS - 1;
    while (w > 0 && !bits_word(z, w))
        w--;
    n += sprintf(out, "%llx", (unsigned long long)bits_word(z, w));
    while (--w >= 0)
        n += sprintf(out + n, "%016llx", (unsigned long long)bits_word(z, w));
    return out;
}

/* The hex cell set at *pp (1 to BITS_WORDS * 16 digits), past it; false if none. */
static bool zone_parse(const char **pp, Bits *z)
{
    const char *p = *pp;
    int nd = 0;
    *z = BITS0;
    for (; nd <= BITS_WORDS * 16; nd++, p++) {
        int h = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10 : -1;
        if (h < 0)
            break;
        /* shift the set left by 4 cells, then add the digit's cells */
        Bits t = BITS0;
        for (Bits b = *z; bits_any(b); b = bits_drop(b)) {
            int c = bits_ctz(b);
            if (c + 4 < MNK_CELLS)
                t |= BIT(c + 4);
        }
        for (int i = 0; i < 4; i++)
            if (h >> i & 1)
                t |= BIT(i);
        *z = t;
    }
    *pp = p;
    return nd >= 1 && nd <= BITS_WORDS * 16;
}
#endif

/* While root workers share the table, the others wait during a save. */
CgtStatus mnk_save_checkpoint(Solver *s)
{
    if (s->tt->lock)
        pthread_mutex_lock(s->tt->lock);
    CgtStatus st = save_locked(s);
    if (s->tt->lock)
        pthread_mutex_unlock(s->tt->lock);
    return st;
}

static CgtStatus save_locked(Solver *s)
{
    size_t n = 0;
    for (size_t i = 0; i < s->tt->cap; i++)
        n += s->tt->key[i] != 0;
    if (n < s->ckpt_on_disk) {
        s->ckpt_skipped = true;
        return CGT_OK;
    }
    AtomicFile af;
    if (af_open(&af, s->ckpt, "checkpoint", true, s->err) != CGT_OK)
        return CGT_ERR_IO;
    af_printf(&af, "cgt-mnk-tt %d\ngame %d %d %d\nentries %zu\n", CKPT_VERSION, s->g.m, s->g.n,
              s->g.k, n);
    for (size_t i = 0; i < s->tt->cap && !af.failed; i++)
        if (s->tt->key[i]) {
#if MNK_CELLS == 64
            af_printf(&af, "%016llx %d %llx %d\n", (unsigned long long)s->tt->key[i],
                      s->tt->val[i], (unsigned long long)(s->tt->zone[i] & s->g.full),
                      s->tt->work[i]);
#else
            char hex[BITS_WORDS * 16 + 1];
            af_printf(&af, "%016llx %d %s %d\n", (unsigned long long)s->tt->key[i],
                      s->tt->val[i], zone_hex(s->tt->zone[i] & s->g.full, hex),
                      s->tt->work[i]);
#endif
        }
    af_write(&af, "end\n", 4);
    if (af_commit(&af, s->err) != CGT_OK)
        return CGT_ERR_IO;
    s->ckpt_on_disk = n;
    s->ckpt_skipped = false;
    cgt_progress_force("mnk", "checkpoint: %zu proven positions saved to %s", n,
                       s->ckpt);
    return CGT_OK;
}

#if MNK_CELLS == 64
/* One entry line: "KEY VALUE" (v1), "KEY VALUE ZONE [WORK]" (v2, v3; v3
 * always has WORK), each value in its domain. */
static bool ckpt_entry64(const Solver *s, const char *line, int ver, unsigned long long *key,
                         int *val, unsigned long long *zone, int *work)
{
    char tail = 0;
    *zone = ~0ULL;
    *work = 8;
    int nf = sscanf(line, "%llx %d %llx %d%c", key, val, zone, work, &tail);
    bool shape = ver == 1   ? nf >= 2
                 : ver == 2 ? nf >= 3
                            : nf == 5 && tail == '\n';
    if (ver != 3 && nf == 5 && tail != '\n')
        shape = false;
    return shape && *key != 0 && *val >= 1 && *val <= 2 && *work >= 0 && *work <= 255 &&
           (ver == 1 || (*zone & ~s->g.full) == 0);
}
#endif

/* One entry line: "KEY VALUE" (v1), "KEY VALUE ZONE [WORK]" (v2, v3; v3
 * always has WORK; v4 like v3 with a wide ZONE), each value in its domain. */
static bool ckpt_entry(const Solver *s, const char *line, int ver, unsigned long long *key,
                       int *val, Bits *zone, int *work)
{
#if MNK_CELLS > 64
    /* format 4: "KEY VALUE ZONE WORK", ZONE up to BITS_WORDS * 16 hex digits */
    (void)ver;
    int used = 0;
    char tail = 0;
    if (sscanf(line, "%llx %d %n", key, val, &used) != 2 || used == 0)
        return false;
    const char *p = line + used;
    if (!zone_parse(&p, zone) || *p != ' ')
        return false;
    if (sscanf(p, " %d%c", work, &tail) != 2 || tail != '\n')
        return false;
    return *key != 0 && *val >= 1 && *val <= 2 && *work >= 0 && *work <= 255 &&
           !bits_any(*zone & ~s->g.full);
#else
    unsigned long long zw;
    bool ok = ckpt_entry64(s, line, ver, key, val, &zw, work);
    *zone = zw;
    return ok;
#endif
}

CgtStatus mnk_load_checkpoint(Solver *s)
{
    SealedFile sf;
    if (sf_open(&sf, s->ckpt, "checkpoint", true, s->err) != CGT_OK)
        return CGT_ERR_IO;
    if (sf.absent)
        return CGT_OK; /* nothing to resume */
    FILE *f = sf.f;
    int ver, m, n, k;
    size_t cnt;
    CgtStatus st = CGT_OK;
    if (fscanf(f, "cgt-mnk-tt %d game %d %d %d entries %zu", &ver, &m, &n, &k, &cnt) != 5 ||
        ver < CKPT_FIRST || ver > CKPT_VERSION) {
        st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is not a version %d to %d mnk "
                           "checkpoint of a board of %s 64 cells", s->ckpt, CKPT_FIRST,
                           CKPT_VERSION, MNK_CELLS == 64 ? "at most" : "more than");
    } else if (sf.unsealed != (ver < 3)) {
        st = cgt_error_set(s->err, CGT_ERR_IO, sf.unsealed
                           ? "checkpoint '%s' is damaged: its checksum line is missing"
                           : "checkpoint '%s' is damaged: an old format with a checksum line",
                           s->ckpt);
    } else if (m != s->g.m || n != s->g.n || k != s->g.k) {
        st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is for the %d,%d,%d-game, not "
                           "%d,%d,%d", s->ckpt, m, n, k, s->g.m, s->g.n, s->g.k);
    } else if (cnt > sf.len / 4) {
        st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged: %zu entries cannot "
                           "fit in its %llu bytes", s->ckpt, cnt, (unsigned long long)sf.len);
    } else if (s->tt->max_cap && 2 * (cnt + 1) > s->tt->max_cap) {
        /* the table could not hold the file: its next save would drop work */
        size_t need = 1u << 10;
        while (need < 2 * (cnt + 1))
            need *= 2;
        st = cgt_error_set(s->err, CGT_ERR_LIMIT, "checkpoint '%s' holds %zu proven positions, "
                           "more than table_mb allows (%zu)", s->ckpt, cnt,
                           s->tt->max_cap / 2 - 1);
        cgt_error_hint(s->err, "raise table_mb to at least %.0f; the file is left untouched",
                       (double)need * (10.0 + (double)sizeof(Bits)) / 1048576.0 + 1);
        sf_close(&sf);
        return st;
    } else {
        char line[160];
        if (!fgets(line, sizeof line, f) || strcmp(line, "\n") != 0) /* end of "entries" */
            st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged in its header",
                               s->ckpt);
        for (size_t i = 0; i < cnt && st == CGT_OK; i++) {
            unsigned long long key;
            Bits zone;
            int val, work;
            if (!fgets(line, sizeof line, f) ||
                !ckpt_entry(s, line, ver, &key, &val, &zone, &work)) {
                st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged at entry "
                                   "%zu", s->ckpt, i + 1);
                break;
            }
            mnk_tt_store(s->tt, key, val, zone, work);
        }
        if (st == CGT_OK && (!fgets(line, sizeof line, f) || strcmp(line, "end\n") != 0 ||
                             sf_remaining(&sf) != 0))
            st = cgt_error_set(s->err, CGT_ERR_IO, "checkpoint '%s' is damaged after its "
                               "last entry", s->ckpt);
        if (st == CGT_OK) {
            s->ckpt_on_disk = cnt;
            if (ver < 3)
                cgt_warning("checkpoint '%s' is in the old format %d, without a checksum: "
                            "loaded after checking every entry; it will be saved in format %d",
                            s->ckpt, ver, CKPT_VERSION);
            cgt_progress_force("mnk", "resuming from %s: %zu proven positions", s->ckpt, cnt);
        }
    }
    sf_close(&sf);
    if (st != CGT_OK)
        cgt_error_hint(s->err, "the file is left untouched; move it away to start afresh");
    return st;
}
