/* Philox4x32-10, from the published algorithm (philox.h). A round multiplies the first
 * and third words by the two constants and mixes each product's halves with the other
 * words and the key; the key is bumped by the Weyl constants between rounds. */
#include "base/philox.h"

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u /* the golden ratio's */
#define PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1's */
#define PHILOX_ROUNDS 10

void Philox_block(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]) {
   uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3], k0 = key[0], k1 = key[1];
   for (int r = 0; r < PHILOX_ROUNDS; r++) {
      const uint64_t p0 = (uint64_t)PHILOX_M0 * c0, p1 = (uint64_t)PHILOX_M1 * c2;
      const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1 ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3 ^ k1;
      c1 = (uint32_t)p1;
      c3 = (uint32_t)p0;
      c0 = n0;
      c2 = n2;
      k0 += PHILOX_W0;
      k1 += PHILOX_W1;
   }
   out[0] = c0, out[1] = c1, out[2] = c2, out[3] = c3;
}

uint32_t Philox_word(uint64_t seed, uint32_t stream, uint64_t w) {
   const uint64_t b = w / 4;
   const uint32_t ctr[4] = {(uint32_t)b, (uint32_t)(b >> 32), stream, 0}, key[2] = {(uint32_t)seed,
                                                                                     (uint32_t)(seed >> 32)};
   uint32_t out[4];
   Philox_block(ctr, key, out);
   return out[w % 4];
}

/* LANES blocks side by side, each lane's rounds independent of the others': the compiler
 * keeps them in vector registers (or at least in flight together). */
#define LANES 8

static void lanes(uint64_t first_block, uint32_t stream, uint32_t k0, uint32_t k1, uint32_t out[LANES][4]) {
   uint32_t c0[LANES], c1[LANES], c2[LANES], c3[LANES];
   for (int l = 0; l < LANES; l++) {
      const uint64_t b = first_block + (uint64_t)l;
      c0[l] = (uint32_t)b, c1[l] = (uint32_t)(b >> 32), c2[l] = stream, c3[l] = 0;
   }
   for (int r = 0; r < PHILOX_ROUNDS; r++) {
      for (int l = 0; l < LANES; l++) {
         const uint64_t p0 = (uint64_t)PHILOX_M0 * c0[l], p1 = (uint64_t)PHILOX_M1 * c2[l];
         const uint32_t n0 = (uint32_t)(p1 >> 32) ^ c1[l] ^ k0, n2 = (uint32_t)(p0 >> 32) ^ c3[l] ^ k1;
         c1[l] = (uint32_t)p1;
         c3[l] = (uint32_t)p0;
         c0[l] = n0;
         c2[l] = n2;
      }
      k0 += PHILOX_W0;
      k1 += PHILOX_W1;
   }
   for (int l = 0; l < LANES; l++)
      out[l][0] = c0[l], out[l][1] = c1[l], out[l][2] = c2[l], out[l][3] = c3[l];
}

void Philox_words(uint64_t seed, uint32_t stream, uint64_t w, size_t count, uint32_t *out) {
   const uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
   size_t done = 0;
   /* The words before the first whole block, one at a time. */
   while (done < count && (w + done) % 4)
      out[done] = Philox_word(seed, stream, w + done), done++;
   uint32_t block[LANES][4];
   while (count - done >= 4 * LANES) {
      lanes((w + done) / 4, stream, k0, k1, block);
      for (int l = 0; l < LANES; l++)
         for (int i = 0; i < 4; i++)
            out[done + 4 * (size_t)l + (size_t)i] = block[l][i];
      done += 4 * LANES;
   }
   if (done < count) {
      lanes((w + done) / 4, stream, k0, k1, block);
      for (size_t i = 0; done < count; i++, done++)
         out[done] = block[i / 4][i % 4];
   }
}
