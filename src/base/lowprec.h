/* The 16-bit and 19-bit element types on the host: IEEE binary16 (half), bfloat16 and
 * TF32, as the device sees them.
 *
 * Rounding to a type is round-to-nearest, ties to even (IEEE's default), in one step from
 * the double or float given (never through an intermediate type, which would round
 * twice). Values past the largest finite one round to infinity; NaN stays NaN (quiet);
 * the tiny ones become subnormals or signed zero. Decoding is exact. */
#ifndef GEMMTOP_LOWPREC_H
#define GEMMTOP_LOWPREC_H

#include <stdint.h>
#include <string.h>

/* half: 1 sign, 5 exponent, 10 fraction bits; largest finite 65504. */
uint16_t LowPrec_halfFromDouble(double x);
/* bfloat16: 1 sign, 8 exponent, 7 fraction bits (the top half of a float). */
uint16_t LowPrec_bf16FromDouble(double x);
/* TF32 kept in a float: 10 fraction bits, the low 13 of the float's 23 cleared. */
float LowPrec_tf32Round(float x);
/* The OCP FP8 formats. e4m3 (float8_e4m3fn): 1 sign, 4 exponent (bias 7), 3 fraction
 * bits, no infinity, NaN 0x7f/0xff, largest finite 448. e5m2: 1 sign, 5 exponent (bias
 * 15), 2 fraction bits, IEEE-like with infinities, largest finite 57344. Encoding rounds
 * to nearest even and saturates to the largest finite value (cvt.rn.satfinite, and what
 * quantisers do); NaN stays NaN. Decoding is exact. */
uint8_t LowPrec_e4m3FromDouble(double x);
uint8_t LowPrec_e5m2FromDouble(double x);
float LowPrec_e4m3ToFloat(uint8_t b);
float LowPrec_e5m2ToFloat(uint8_t b);

static inline float LowPrec_floatOfBits(uint32_t u) {
   float f;
   memcpy(&f, &u, sizeof f);
   return f;
}

/* x rounded to bfloat16 and to half from a float: the bits LowPrec_bf16FromDouble(x) and
 * LowPrec_halfFromDouble(x) give, made from the float's bits (for millions of inputs); half
 * takes the double path outside its normal range. */
static inline uint16_t LowPrec_bf16FromFloat(float x) {
   uint32_t u;
   memcpy(&u, &x, sizeof u);
   if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: the quiet one, as the double path gives */
      return (uint16_t)((u >> 16 & 0x8000u) | 0x7fc0u);
   u += 0x7fffu + ((u >> 16) & 1u); /* half an ulp, less one when the kept part is even */
   return (uint16_t)(u >> 16);
}

static inline uint16_t LowPrec_halfFromFloat(float x) {
   uint32_t u;
   memcpy(&u, &x, sizeof u);
   const uint32_t a = u & 0x7fffffffu;
   if (a < 0x38800000u || a >= 0x477ff000u) /* below 2^-14, or rounding to 65536 and past */
      return LowPrec_halfFromDouble((double)x);
   const uint32_t r = a + 0xfffu + ((a >> 13) & 1u);
   return (uint16_t)((u >> 16 & 0x8000u) | ((r >> 13) - (112u << 10))); /* rebias 127 -> 15 */
}

static inline float LowPrec_bf16ToFloat(uint16_t b) { return LowPrec_floatOfBits((uint32_t)b << 16); }

static inline float LowPrec_halfToFloat(uint16_t h) {
   uint32_t sign = (uint32_t)(h & 0x8000u) << 16, exp = (h >> 10) & 0x1fu, frac = h & 0x3ffu;
   if (exp == 0x1f) /* infinity, NaN (payload kept) */
      return LowPrec_floatOfBits(sign | 0x7f800000u | frac << 13);
   if (exp) /* normal: rebias 15 -> 127 */
      return LowPrec_floatOfBits(sign | (exp + 112) << 23 | frac << 13);
   float sub = (float)frac * 0x1p-24f; /* zero or subnormal: frac * 2^-24, exact */
   return sign ? -sub : sub;
}

#endif
