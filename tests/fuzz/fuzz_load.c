/* libFuzzer target for `load` (src/modules/io/bi_load.c, src/lib/util/json.h): any byte
 * string as a result file must be read back or refused with a diagnostic,
 * never a crash, a sanitizer report or a leak.  The input is written to
 * fuzz_load.json in the working directory (tests/fuzz/run.sh runs the
 * target in a scratch directory) and loaded by a one-line script, so the
 * whole path runs: sealed-file checks, the strict JSON reader, the
 * checksum, the decoders of every kind and, for a quotient whose checksum
 * matches, the rebuild and the certificate.  So that mutations reach the
 * decoders behind the checksum, the harness first re-seals a mutated file
 * whose "crc64" member is a 16-character string (as an attacker who edits
 * the tables and recomputes the CRC would).  Seeds: the files `save`
 * writes (tests/fuzz/corpus_load). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/fuzz/fuzz_run.h"
#include "lib/util/crc64.h"
#include "lib/util/json.h"
#include "lib/util/xalloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char script[] = "x = load(\"fuzz_load.json\");\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int init;
    if (!init) {
        xalloc_init_gmp();
        init = 1;
    }
    uint8_t *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    JsonNode *j = json_parse((const char *)data, size, NULL);
    const JsonNode *crc = json_get(j, "crc64"), *val = json_get(j, "value");
    if (crc && val && crc->kind == JSON_STR && crc->end - crc->start == 18) {
        char hex[17];
        snprintf(hex, sizeof hex, "%016llx",
                 (unsigned long long)crc64_update(0, data + val->start, val->end - val->start));
        memcpy(copy + crc->start + 1, hex, 16);
    }
    json_free(j);
    FILE *f = fopen("fuzz_load.json", "wb");
    if (!f) {
        free(copy);
        return 0;
    }
    fwrite(copy, 1, size, f);
    fclose(f);
    free(copy);
    fuzz_run_script(script, sizeof script - 1, 64);
    return 0;
}
