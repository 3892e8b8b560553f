/* A small, fast, reproducible random generator (splitmix64 seeding xoshiro256**). */
#ifndef GEMMTOP_RNG_H
#define GEMMTOP_RNG_H

#include <stdint.h>

typedef struct Rng_ {
   uint64_t s[4];
} Rng;

void Rng_seed(Rng *r, uint64_t seed);
uint64_t Rng_next(Rng *r);
/* Uniform in [0, 1). */
double Rng_uniform(Rng *r);
/* Uniform in [lo, hi). */
double Rng_range(Rng *r, double lo, double hi);
/* Uniform integer in [0, n). */
uint64_t Rng_below(Rng *r, uint64_t n);
/* A seed from the clock and the process, for "fresh" inputs. */
uint64_t Rng_freshSeed(void);

#endif
