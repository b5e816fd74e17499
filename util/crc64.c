/* CRC-64/XZ, table-driven, one byte at a time (Williams, "A painless guide to
 * CRC error detection algorithms", 1993, the reflected table algorithm). */
#include "util/crc64.h"

#include <stdbool.h>

static uint64_t table[256];
static bool table_ready;

static void build_table(void)
{
    const uint64_t poly = 0xc96c5795d7870f42ULL; /* 0x42f0e1eba9ea3693 reflected */
    for (uint32_t i = 0; i < 256; i++) {
        uint64_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
        table[i] = c;
    }
    table_ready = true;
}

uint64_t crc64_update(uint64_t crc, const void *data, size_t len)
{
    if (!table_ready)
        build_table();
    const unsigned char *p = data;
    crc = ~crc;
    for (size_t i = 0; i < len; i++)
        crc = table[(crc ^ p[i]) & 0xff] ^ (crc >> 8);
    return ~crc;
}
