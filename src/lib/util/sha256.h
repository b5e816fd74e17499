/* SHA-256 (FIPS 180-4, "Secure Hash Standard", sec. 6.2), incremental.  Used
 * to print a fingerprint of proof files (docs/mnk.md) that anyone can
 * compare with `sha256sum`. */
#ifndef CGT_UTIL_SHA256_H
#define CGT_UTIL_SHA256_H
#include <stddef.h>
#include <stdint.h>

typedef struct Sha256 {
    uint32_t h[8];
    uint64_t len;          /* bytes fed so far */
    unsigned char buf[64]; /* a partial block */
    size_t nbuf;
} Sha256;

void sha256_init(Sha256 *c);
void sha256_update(Sha256 *c, const void *data, size_t len);
/* The digest as 64 lower-case hex digits and a NUL, into hex. */
void sha256_final_hex(Sha256 *c, char hex[65]);
/* SHA-256 of a whole file; 0 on success, -1 if it cannot be read. */
int sha256_file_hex(const char *path, char hex[65]);

#endif
