/* The Grundy table as a value (src/lib/grundy/grundy.h): creation, settings,
 * reading values and statistics, freeing; and the limits of a run (the
 * default budget of `period`, the cost model of progress, the errors of
 * heaps past the bounds).  The computation is in grundy.c. */
#include "lib/grundy/grundy_int.h"

#include <stdlib.h>
#include <string.h>

#include "lib/util/xalloc.h"

GrundyTable *grundy_new(const Ruleset *rs)
{
    GrundyTable *gt = xcalloc(1, sizeof *gt);
    gt->rs = rs;
    gt->gw = 1;
    gt->plain = rs->plain;
    heapopts_init(&gt->opts);
    if (gt->plain) {
        gt->splitk = xmalloc(((size_t)rs->max_take + 1) * sizeof *gt->splitk);
        gt->scan_r = xmalloc(((size_t)rs->max_take + 1) * sizeof *gt->scan_r);
        for (int k = 0; k <= rs->max_take; k++) {
            if (rs->kmask[k] & 4)
                gt->splitk[gt->nsplitk++] = (uint32_t)k;
            if (rs->kmask[k] & 8)
                gt->three = true;
        }
        if (gt->nsplitk)
            gt->max_splitk = gt->splitk[gt->nsplitk - 1];
        gt->e_allowed = true;
        for (size_t i = 1; i < gt->nsplitk; i++)
            if ((gt->splitk[i] - gt->splitk[0]) & 1)
                gt->e_allowed = false;
    }
    gt->next_choose = SPARSE_START;
    gt->compact_from = COMPACT_DEFAULT;
    gt->spill = true;
    gt->compact_chunk = COMPACT_CHUNK;
    gt->compact_prefix = COMPACT_PREFIX;
    gt->scan_lim = UINT64_MAX;
    gt->threads = 1;
    gt->cb_max = GRUNDY_CB_WORDS;
    grundy_set_simd(gt, true);
    return gt;
}

void grundy_set_threads(GrundyTable *gt, unsigned threads)
{
    gt->threads = threads ? threads : 1;
}

void grundy_par_stats(const GrundyTable *gt, uint64_t *stretches, uint64_t *dropped, double *cpu,
                      double *wait, unsigned ncpu)
{
    *stretches = gt->par_runs;
    *dropped = gt->par_dropped;
    for (unsigned i = 0; i < ncpu && i < GRUNDY_PAR_CPU; i++) {
        cpu[i] = gt->par_cpu[i];
        if (wait)
            wait[i] = gt->par_wait[i];
    }
}

/* Give the flat table back (mapped or allocated) with its store. */
void grundy_table_release(GrundyTable *gt)
{
    if (gt->mapped)
        gs_unmap(gt->gv, gt->gw);
    else
        free(gt->gv);
    gs_free(gt->store);
    gt->store = NULL;
    gt->gv = NULL;
    gt->mapped = false;
    gt->cap = 0;
    gt->scan_lim = UINT64_MAX;
    gt->compact_next = 0;
}

void grundy_set_spill(GrundyTable *gt, bool on)
{
    gt->spill = on;
    if (gt->store && on)
        grundy_spill_store(gt, gt->store);
}

void grundy_spill_store(const GrundyTable *gt, GStore *gs)
{
    if (!gt->spill)
        return;
    const char *dir = getenv("TMPDIR");
    if (!dir || !*dir || !gs_spill(gs, dir))
        gs_spill(gs, "/tmp");
}

void grundy_set_compact(GrundyTable *gt, uint64_t from, unsigned chunk_log2)
{
    gt->compact_from = from;
    gt->compact_set = true;
    if (chunk_log2 >= 8 && chunk_log2 <= 30) {
        gt->compact_chunk = (uint64_t)1 << chunk_log2;
        gt->compact_prefix = gt->compact_chunk < COMPACT_PREFIX ? gt->compact_chunk : COMPACT_PREFIX;
    }
}

size_t grundy_bytes(const GrundyTable *gt)
{
    uint64_t raw = gt->n;
    if (gt->store)
        raw -= gs_end(gt->store) - gs_begin(gt->store);
    return (size_t)raw * gt->gw + (gt->store ? gs_bytes(gt->store) : 0);
}

uint64_t grundy_spill_bytes(const GrundyTable *gt)
{
    return gt->store ? gs_spilled_bytes(gt->store) : 0;
}

bool grundy_read_values(const GrundyTable *gt, uint64_t *from, uint64_t *to, const char **paths)
{
    if (!gt->read_to)
        return false;
    *from = gt->read_from;
    *to = gt->read_to;
    *paths = gt->read_paths;
    return true;
}

void grundy_note_read(GrundyTable *gt, uint64_t before, uint64_t count, const char *path)
{
    if (count <= before)
        return; /* every value of the file was in the table already, checked equal */
    if (!gt->read_to || before < gt->read_from)
        gt->read_from = before;
    gt->read_to = count;
    if (!gt->read_paths) {
        gt->read_paths = xstrdup(path);
        return;
    }
    /* a file read again (the same path) is named once */
    size_t l = strlen(path);
    for (const char *p = gt->read_paths; (p = strstr(p, path)) != NULL; p++)
        if ((p == gt->read_paths || (p - gt->read_paths >= 2 && p[-2] == ',' && p[-1] == ' ')) &&
            (p[l] == '\0' || p[l] == ','))
            return;
    char *j = xasprintf("%s, %s", gt->read_paths, path);
    free(gt->read_paths);
    gt->read_paths = j;
}

void grundy_reset_engine(GrundyTable *gt)
{
    gt->sparse = false;
    gt->mask = 0;
    gt->e = 0;
    gt->nrare = 0;
    gt->blk_ok = false;
    gt->next_choose = SPARSE_START;
    gt->par_next = 0;
    gt->par_gap = 0;
    free(gt->hist);
    gt->hist = NULL;
    gt->hbits = 0;
}

void grundy_clear(GrundyTable *gt)
{
    gt->n = 0;
    gt->maxval = 0;
    grundy_reset_engine(gt);
    if (gt->store)
        grundy_table_release(gt); /* the middle's pages are inaccessible: start afresh */
    gt->read_from = gt->read_to = 0;
    free(gt->read_paths);
    gt->read_paths = NULL;
    /* keep the buffer; its width stays (values are rewritten from heap 0) */
}

void grundy_free(GrundyTable *gt)
{
    if (!gt)
        return;
    grundy_table_release(gt);
    free(gt->read_paths);
    free(gt->seen);
    free(gt->splitk);
    free(gt->scan_r);
    free(gt->rare);
    free(gt->rare_v);
    free(gt->hist);
    free(gt->vcls);
    free(gt->seen8);
    free(gt->bits_rows);
    free(gt->flat_d);
    free(gt->flat_x);
    free(gt->flat_i8);
    free(gt->flat_x8);
    heapopts_free(&gt->opts);
    free(gt);
}

uint64_t grundy_count(const GrundyTable *gt)
{
    return gt->n;
}

/* Widen the n values of *gv (capacity cap) from width *w to w2 > *w, in
 * place from the top down.  False (table untouched) when out of memory. */
bool grundy_gv_widen(void **gv, unsigned *w, uint64_t n, uint64_t cap, unsigned w2)
{
    if ((size_t)(cap * w2) / w2 != cap)
        return false;
    void *p = realloc(*gv, (size_t)(cap ? cap : 1) * w2);
    if (!p)
        return false;
    for (uint64_t i = n; i-- > 0;)
        gv_set(p, w2, i, gv_get(p, *w, i));
    *gv = p;
    *w = w2;
    return true;
}

uint32_t grundy_get(const GrundyTable *gt, uint64_t n)
{
    if (gt->store && n >= gs_begin(gt->store) && n < gs_end(gt->store))
        return gs_get(gt->store, n);
    return gv_get(gt->gv, gt->gw, n);
}

void grundy_copy(const GrundyTable *gt, uint64_t from, uint64_t count, uint32_t *out)
{
    if (gt->store) {
        /* raw below the middle, the middle block by block, raw above it */
        uint64_t b = gs_begin(gt->store), e = gs_end(gt->store), to = from + count;
        for (; from < to && from < b; from++)
            *out++ = gv_get(gt->gv, gt->gw, from);
        if (from < to && from < e) {
            uint64_t m = (to < e ? to : e) - from;
            gs_copy(gt->store, from, m, out);
            out += m;
            from += m;
        }
        for (; from < to; from++)
            *out++ = gv_get(gt->gv, gt->gw, from);
        return;
    }
    /* flat table: one loop per width (no per-value call or switch) */
    if (gt->gw == 1)
        for (uint64_t i = 0; i < count; i++)
            out[i] = ((const uint8_t *)gt->gv)[from + i];
    else if (gt->gw == 2)
        for (uint64_t i = 0; i < count; i++)
            out[i] = ((const uint16_t *)gt->gv)[from + i];
    else
        memcpy(out, (const uint32_t *)gt->gv + from, (size_t)count * sizeof *out);
}

unsigned grundy_width(const GrundyTable *gt)
{
    return gt->gw;
}

uint32_t grundy_max(const GrundyTable *gt)
{
    return gt->maxval;
}

void grundy_work(const GrundyTable *gt, uint64_t *rare_pairs, uint64_t *scan_pairs)
{
    *rare_pairs = gt->rare_pairs;
    *scan_pairs = gt->scan_pairs;
}

void grundy_use_option_lists(GrundyTable *gt, bool on)
{
    gt->use_options = on;
}

uint64_t grundy_last_rare(const GrundyTable *gt)
{
    return gt->sparse && gt->nrare ? gt->rare[gt->nrare - 1] : 0;
}

void grundy_stats(const GrundyTable *gt, uint32_t *mask, uint64_t *nrare)
{
    *mask = gt->sparse ? (gt->mask | (gt->e ? 1u << 31 : 0)) : 0;
    *nrare = gt->sparse ? gt->nrare : 0;
}

/* A table of 10^9 heaps is up to 4 GB: when it cannot be had, a limit
 * error keeps the heaps computed so far (not a fatal out-of-memory exit). */
CgtStatus grundy_table_oom(uint64_t heaps, unsigned width, CgtError *err)
{
    cgt_error_set(err, CGT_ERR_LIMIT, "out of memory for a Grundy table of %llu heaps (%llu MB)",
                  (unsigned long long)heaps, (unsigned long long)(heaps * width >> 20));
    cgt_error_hint(err, "ask for fewer heaps; a proved period gives larger ones");
    return CGT_ERR_LIMIT;
}

int grundy_cost_degree(const Ruleset *rs)
{
    bool three = false, split = false;
    if (rs->plain) {
        for (int k = 0; k <= rs->max_take; k++) {
            three |= (rs->kmask[k] & 8) != 0;
            split |= (rs->kmask[k] & 4) != 0;
        }
        return three ? 3 : 1;
    }
    for (size_t i = 0; i < rs->nrules; i++) {
        three |= (rs->rules[i].parts_mask & 8) != 0;
        split |= (rs->rules[i].parts_mask & 4) != 0;
    }
    return three ? 3 : split ? 2 : 1;
}

/* Default limits (the budget of `period` and `table`): 2^25 heaps for the
 * sparse engine (enough for the longest proved periods in docs/games.md:
 * 0.354 closes at heap 20,125,197; a game with no period then takes about
 * a minute); for three-heap moves the largest N with N^3/36 <= 2^33 triples
 * (N = 6761, about 15-30 s); general rulesets 20000. */
#define LIMIT_SPARSE 33554432ull
#define LIMIT_GENERAL 20000ull
#define THREE_BUDGET 8589934592.0

uint64_t grundy_default_limit(const Ruleset *rs)
{
    if (grundy_cost_degree(rs) == 3) {
        uint64_t n = 64;
        while ((double)(n + 1) * (double)(n + 1) * (double)(n + 1) / 36.0 <= THREE_BUDGET)
            n++;
        return n;
    }
    return rs->plain ? LIMIT_SPARSE : LIMIT_GENERAL;
}

void grundy_beyond_error(CgtError *err, const char *heap, uint64_t bound, const char *hint)
{
    bool table = bound == GRUNDY_TABLE_BOUND;
    cgt_error_set(err, CGT_ERR_LIMIT, "heap %s is past the %s bound (heaps below %llu can be %s)",
                  heap, table ? "table" : "search", (unsigned long long)bound,
                  table ? "tabulated" : "searched");
    cgt_error_hint(err, "%s", hint ? hint : "a proved period answers any heap: `period G;` first");
}
