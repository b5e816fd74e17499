/* CRC-64/XZ, table-driven (Williams, "A painless guide to CRC error
 * detection algorithms", 1993, the reflected table algorithm), eight bytes
 * per step with eight tables ("slicing-by-8": Kounavis and Berry, "A
 * systematic approach to building high performance software-based CRC
 * generators", ISCC 2005): table k maps a byte to the CRC of that byte
 * followed by k zero bytes, so the eight bytes of a word are folded in
 * independently.  Proofs of 8,8,5 are tens of GB, read and written with
 * their seals; one byte per step was most of the proof merge's time. */
#include "lib/util/crc64.h"

#include <pthread.h>

static uint64_t table[8][256];
static pthread_once_t table_once = PTHREAD_ONCE_INIT;

static void build_table(void)
{
    const uint64_t poly = 0xc96c5795d7870f42ULL; /* 0x42f0e1eba9ea3693 reflected */
    for (uint32_t i = 0; i < 256; i++) {
        uint64_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? (c >> 1) ^ poly : c >> 1;
        table[0][i] = c;
    }
    for (int k = 1; k < 8; k++)
        for (uint32_t i = 0; i < 256; i++)
            table[k][i] = (table[k - 1][i] >> 8) ^ table[0][table[k - 1][i] & 0xff];
}

uint64_t crc64_update(uint64_t crc, const void *data, size_t len)
{
    pthread_once(&table_once, build_table);
    const unsigned char *p = data;
    crc = ~crc;
    for (; len >= 8; len -= 8, p += 8) {
        /* the word in little-endian order, whatever the host's */
        uint64_t w = (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
                     (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
                     (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
        crc ^= w;
        crc = table[7][crc & 0xff] ^ table[6][(crc >> 8) & 0xff] ^
              table[5][(crc >> 16) & 0xff] ^ table[4][(crc >> 24) & 0xff] ^
              table[3][(crc >> 32) & 0xff] ^ table[2][(crc >> 40) & 0xff] ^
              table[1][(crc >> 48) & 0xff] ^ table[0][crc >> 56];
    }
    for (; len; len--, p++)
        crc = table[0][(crc ^ *p) & 0xff] ^ (crc >> 8);
    return ~crc;
}
