/* A counter-based random generator: Philox4x32-10 (Salmon, Moraes, Dror and Shaw,
 * "Parallel random numbers: as easy as 1, 2, 3", SC 2011). A block of four 32-bit words is
 * a keyed bijection of a 128-bit counter, so any word of a stream is computed from
 * (seed, stream, index) alone: matrices are made in parallel, in any order, by any number
 * of threads, and a verification recomputes the elements it samples.
 *
 * A stream is the words of the counters (block, stream, 0) under the seed as key: word w
 * is word w % 4 of block w / 4 (the block number in the counter's first two words, low
 * first). */
#ifndef GEMMTOP_PHILOX_H
#define GEMMTOP_PHILOX_H

#include <stddef.h>
#include <stdint.h>

/* The four words of counter ctr under key. */
void Philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* Word w of stream under seed. */
uint32_t Philox_word(uint64_t seed, uint32_t stream, uint64_t w);
/* Words w, w+1, ... w+count-1 of stream under seed into out: Philox_word's values, made
 * a block at a time. */
void Philox_words(uint64_t seed, uint32_t stream, uint64_t w, size_t count, uint32_t *out);

/* Uniform numbers of [-1, 1) from words: 24 random bits (exact in float), or 53 from two
 * words (lo, hi: exact in double). */
static inline float Philox_signed24(uint32_t w) { return (float)((int32_t)(w >> 8) - (1 << 23)) * 0x1p-23f; }
static inline double Philox_signed53(uint32_t lo, uint32_t hi) {
   const uint64_t x = ((uint64_t)hi << 32 | lo) >> 11;
   return ((double)x - 0x1p52) * 0x1p-52;
}
/* Uniform of [0, 1) with 24 random bits. */
static inline float Philox_unit24(uint32_t w) { return (float)(w >> 8) * 0x1p-24f; }

#endif
