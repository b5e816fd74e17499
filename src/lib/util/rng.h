/* Seeded pseudo-random numbers (xoshiro256** seeded by splitmix64,
 * Blackman and Vigna 2018).  The same seed gives the same stream on every
 * machine. */
#ifndef CGT_UTIL_RNG_H
#define CGT_UTIL_RNG_H
#include <stdint.h>

typedef struct Rng {
    uint64_t s[4];
} Rng;

void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
/* Uniform integer in [0, n), n > 0, without modulo bias. */
uint64_t rng_below(Rng *r, uint64_t n);
/* Uniform in [0, 1) with 53 random bits (for probabilities only). */
double rng_unit(Rng *r);

#endif
