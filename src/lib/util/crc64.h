/* CRC-64/XZ (ECMA-182 polynomial, reflected, initial value and final xor all
 * ones; check value of "123456789" is 0x995dc9bbdf1939fa).  Used to seal every
 * file cgt writes and reads back (checkpoints, proofs, saved results). */
#ifndef CGT_UTIL_CRC64_H
#define CGT_UTIL_CRC64_H
#include <stddef.h>
#include <stdint.h>

/* Start with crc = 0; feed pieces in order; the result of the last call is
 * the CRC of the concatenation. */
uint64_t crc64_update(uint64_t crc, const void *data, size_t len);

#endif
