#include "base/rng.h"

#include <time.h>
#include <unistd.h>

static uint64_t splitmix64(uint64_t *x) {
   uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
   return z ^ (z >> 31);
}

void Rng_seed(Rng *r, uint64_t seed) {
   for (int i = 0; i < 4; i++)
      r->s[i] = splitmix64(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t Rng_next(Rng *r) {
   uint64_t *s = r->s;
   uint64_t result = rotl(s[1] * 5, 7) * 9;
   uint64_t t = s[1] << 17;
   s[2] ^= s[0];
   s[3] ^= s[1];
   s[1] ^= s[2];
   s[0] ^= s[3];
   s[2] ^= t;
   s[3] = rotl(s[3], 45);
   return result;
}

double Rng_uniform(Rng *r) { return (double)(Rng_next(r) >> 11) * 0x1.0p-53; }

double Rng_range(Rng *r, double lo, double hi) { return lo + (hi - lo) * Rng_uniform(r); }

uint64_t Rng_below(Rng *r, uint64_t n) { return n ? Rng_next(r) % n : 0; }

uint64_t Rng_freshSeed(void) {
   struct timespec ts;
   clock_gettime(CLOCK_REALTIME, &ts);
   uint64_t x = (uint64_t)ts.tv_sec * 1000000007ull ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
   return splitmix64(&x);
}
