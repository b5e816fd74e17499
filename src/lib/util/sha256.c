/* SHA-256 as specified in FIPS 180-4 sec. 4.1.2 (functions), 4.2.2
 * (constants), 5.1.1 (padding), 5.3.3 (initial hash value) and 6.2.2 (the
 * hash computation).  Test vectors in tests/unit/test_sha256.c. */
#include "lib/util/sha256.h"

#include <stdio.h>
#include <string.h>

/* sec. 4.2.2: the first 32 bits of the fractional parts of the cube roots of
 * the first 64 primes */
static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};

static uint32_t rotr(uint32_t x, int n)
{
    return x >> n | x << (32 - n);
}

/* sec. 6.2.2: one 512-bit block */
static void block(Sha256 *c, const unsigned char *p)
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)p[4 * t] << 24 | (uint32_t)p[4 * t + 1] << 16 |
               (uint32_t)p[4 * t + 2] << 8 | p[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ w[t - 15] >> 3;
        uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ w[t - 2] >> 10;
        w[t] = s1 + w[t - 7] + s0 + w[t - 16];
    }
    uint32_t a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4], f = c->h[5],
             g = c->h[6], h = c->h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                      K256[t] + w[t];
        uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = cc;
        cc = b;
        b = a;
        a = t1 + t2;
    }
    c->h[0] += a;
    c->h[1] += b;
    c->h[2] += cc;
    c->h[3] += d;
    c->h[4] += e;
    c->h[5] += f;
    c->h[6] += g;
    c->h[7] += h;
}

void sha256_init(Sha256 *c)
{
    /* sec. 5.3.3: the first 32 bits of the fractional parts of the square
     * roots of the first 8 primes */
    static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, h0, sizeof h0);
    c->len = 0;
    c->nbuf = 0;
}

void sha256_update(Sha256 *c, const void *data, size_t len)
{
    const unsigned char *p = data;
    c->len += len;
    if (c->nbuf) {
        size_t take = 64 - c->nbuf < len ? 64 - c->nbuf : len;
        memcpy(c->buf + c->nbuf, p, take);
        c->nbuf += take;
        p += take;
        len -= take;
        if (c->nbuf < 64)
            return;
        block(c, c->buf);
        c->nbuf = 0;
    }
    for (; len >= 64; p += 64, len -= 64)
        block(c, p);
    if (len) {
        memcpy(c->buf, p, len);
        c->nbuf = len;
    }
}

void sha256_final_hex(Sha256 *c, char hex[65])
{
    /* sec. 5.1.1: a 1 bit, zeros up to 56 bytes mod 64, the bit length */
    uint64_t bits = c->len * 8;
    unsigned char pad[72] = {0x80};
    size_t np = (c->nbuf < 56 ? 56 : 120) - c->nbuf;
    for (int i = 0; i < 8; i++)
        pad[np + (size_t)i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, pad, np + 8);
    for (int i = 0; i < 8; i++)
        snprintf(hex + 8 * i, 9, "%08x", (unsigned)c->h[i]);
}

int sha256_file_hex(const char *path, char hex[65])
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    Sha256 c;
    sha256_init(&c);
    static unsigned char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        sha256_update(&c, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return -1;
    sha256_final_hex(&c, hex);
    return 0;
}
