/* libFuzzer target for the checkpoint loaders (docs/errors.md "Files cgt
 * writes and reads back"): any byte string as a Grundy, misère or m,n,k
 * checkpoint must be refused with an error or loaded and then used, never
 * a crash, a sanitizer report, a leak or a hang.  The input is one
 * selector byte and the file; the selector (mod 8) picks the loader and
 * what is done with a file it accepts:
 *   0, 1  grundy_load for 0.6, 0.07 (formats 2, 3, 4; the prefix it
 *         recomputes set to about 360 values); the table is then extended
 *         by 64 values and its period looked for
 *   2, 3  mq_load for 0.07, 0.77 (formats 3 and 2, the certificate over
 *         the data read); the engine is then extended by one heap (|Q| at
 *         most 2000)
 *   4     mnk_solve of 5,5,4 Maker-Breaker resuming from the file (formats
 *         1 to 3 of boards of 64 cells), at most 20000 nodes
 *   5     mnk_solve of 4,4,3 strong
 *   6     mnk_solve of a 9,8,4 position (the wide instance, format 4)
 *   7     5,5,4 Maker-Breaker with its proof written over the table read
 * The file is written to fuzz_ckpt.ck in the working directory (the
 * target runs in a scratch directory: tests/fuzz/run.sh).  So that
 * mutations reach the parsers behind the seal, a file whose last line is a
 * seal "crc64 <16 hex digits>" gets the CRC-64 of the bytes before it
 * recomputed, as an attacker who edits the data would.  Seeds:
 * tests/fuzz/corpus_ckpt (written by tests/fuzz/seeds_ckpt.sh);
 * tests/scripts/fuzz_regress.sh replays them through cgt. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/grundy/grundy.h"
#include "lib/heap/ruleset.h"
#include "lib/misere/misere.h"
#include "lib/mnk/mnk.h"
#include "lib/util/crc64.h"
#include "lib/util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char path[] = "fuzz_ckpt.ck";

/* The seal line ends the file: recompute it over the bytes before. */
static void reseal(uint8_t *b, size_t n)
{
    if (n < 23 || memcmp(b + n - 23, "crc64 ", 6) != 0 || b[n - 1] != '\n')
        return;
    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)crc64_update(0, b, n - 23));
    memcpy(b + n - 17, hex, 16);
}

static void grundy_case(const Ruleset *rs)
{
    GrundyTable *gt = grundy_new(rs);
    /* the recomputed prefix: about 360 values, so that the values read
     * past it reach the engine in most files (the default, 23,167 values
     * of these codes, took seconds per input here) */
    grundy_set_recheck_work(gt, 1u << 16);
    CgtError err;
    cgt_error_clear(&err);
    uint64_t fc = 0;
    if (grundy_load(gt, path, &fc, &err) == CGT_OK && fc > 0) {
        uint64_t from, to;
        const char *paths;
        if (grundy_read_values(gt, &from, &to, &paths) && (from >= to || to != fc))
            abort(); /* the values read are those past the recomputed prefix */
        if (grundy_extend(gt, fc + 64, &err) == CGT_OK) {
            GrundyPeriod per;
            grundy_find_period(gt, &per);
        }
    }
    grundy_free(gt);
}

static void misere_case(const Ruleset *rs)
{
    MqLimits lim = {.max_size = 2000, .max_trial = 1u << 20};
    CgtError err;
    cgt_error_clear(&err);
    bool absent = false;
    MqEngine *e = mq_load(path, ruleset_heapgame(rs), &lim, &absent, &err);
    if (!e)
        return;
    uint32_t h = mq_heaps_done(e);
    if (h < 40 && mq_extend_to(e, h + 1, &err) == CGT_OK) {
        Quotient *q = mq_quotient(e, NULL, 0, &err);
        quotient_free(q);
    }
    mq_free(e);
}

static void mnk_case(int which)
{
    static const char *const wide[] = {"XXOOXXOOX", "OOXXOOXXO", "XXOOXXOOX", "OOXXOOXXO",
                                       ".........", ".........", "XXOOXXOOX", "OOXXOOXXO"};
    MnkOptions o;
    mnk_options_init(&o);
    o.checkpoint = path;
    o.node_limit = 20000;
    o.table_mb = 8;
    o.proof_map_mb = 8;
    int m = 5, n = 5, k = 4;
    if (which == 5) {
        m = n = 4, k = 3;
        o.variant = MNK_STRONG;
    }
    if (which == 6) {
        m = 9, n = 8;
        o.rows = wide;
        o.nrows = 8;
        o.to_move = 'X';
    }
    if (which == 7)
        o.proof_path = "fuzz_ckpt.proof";
    MnkReport r;
    CgtError err;
    cgt_error_clear(&err);
    (void)mnk_solve(m, n, k, &o, &r, &err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static Ruleset *rs[3];
    if (!rs[0]) {
        xalloc_init_gmp();
        CgtError err;
        if (ruleset_parse_code("0.6", &rs[0], NULL, &err) != CGT_OK ||
            ruleset_parse_code("0.07", &rs[1], NULL, &err) != CGT_OK ||
            ruleset_parse_code("0.77", &rs[2], NULL, &err) != CGT_OK)
            abort();
    }
    if (size < 1)
        return 0;
    int sel = data[0] % 8;
    uint8_t *b = malloc(size);
    if (!b)
        return 0;
    memcpy(b, data + 1, size - 1);
    reseal(b, size - 1);
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(b);
        return 0;
    }
    fwrite(b, 1, size - 1, f);
    fclose(f);
    free(b);
    switch (sel) {
    case 0:
    case 1:
        grundy_case(rs[sel]);
        break;
    case 2:
    case 3:
        misere_case(rs[sel - 1]);
        break;
    default:
        mnk_case(sel);
        break;
    }
    return 0;
}
