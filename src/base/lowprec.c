#include "base/lowprec.h"

#include <math.h>
#include <stdbool.h>

/* Rounds x to a binary format with `frac` fraction bits and exponent bias `bias` (the
 * largest exponent is bias, the smallest normal one 1 - bias) and returns its bits
 * (sign, exponent, fraction). The rounding is exact arithmetic on doubles: |x| divided by
 * the spacing of the format at its exponent (a power of two) is rounded to an integer
 * with rint, which rounds ties to even (the default rounding mode, never changed here). */
static uint16_t roundTo(double x, int frac, int bias) {
   const int expBits = bias == 15 ? 5 : 8;
   const uint16_t sign = signbit(x) ? (uint16_t)(1u << (frac + expBits)) : 0;
   const uint16_t expAllOnes = (uint16_t)(((1u << expBits) - 1) << frac);
   if (isnan(x))
      return sign | expAllOnes | (uint16_t)(1u << (frac - 1)); /* a quiet NaN */
   double a = fabs(x);
   if (isinf(a))
      return sign | expAllOnes;
   const int emin = 1 - bias;
   int e;
   frexp(a, &e); /* a = m 2^e with m in [0.5, 1): a's exponent is e - 1 */
   int E = a == 0 ? emin : e - 1 < emin ? emin : e - 1;
   double r = rint(ldexp(a, frac - E)); /* units of the spacing 2^(E - frac) */
   if (r >= ldexp(1.0, frac + 1)) {     /* rounded up into the next binade */
      E++;
      r /= 2; /* exact: r is 2^(frac+1) */
   }
   if (E > bias)
      return sign | expAllOnes; /* past the largest finite value */
   if (r < ldexp(1.0, frac))    /* subnormal (E == emin) or zero: exponent field 0 */
      return sign | (uint16_t)r;
   return sign | (uint16_t)((E + bias) << frac) | (uint16_t)((uint32_t)r - (1u << frac));
}

uint16_t LowPrec_halfFromDouble(double x) { return roundTo(x, 10, 15); }
uint16_t LowPrec_bf16FromDouble(double x) { return roundTo(x, 7, 127); }

float LowPrec_tf32Round(float x) {
   uint32_t u;
   memcpy(&u, &x, sizeof u);
   if ((u & 0x7f800000u) == 0x7f800000u) /* infinity or NaN: as it is */
      return x;
   /* Add half an ulp of TF32, less one when the kept part is even: ties go to even. A
    * carry out of the fraction bumps the exponent, up to infinity, as rounding should. */
   u += 0xfffu + ((u >> 13) & 1u);
   return LowPrec_floatOfBits(u & ~0x1fffu);
}

/* FP8 with `frac` fraction bits and exponent bias `bias`: x rounded to nearest even at the
 * format's spacing (subnormals below 2^(1-bias)), then saturated to max. */
static uint8_t fp8Round(double x, int frac, int bias, double max, uint8_t nan) {
   const uint8_t sign = signbit(x) ? 0x80 : 0;
   if (isnan(x))
      return sign | nan;
   const double a = fmin(fabs(x), max); /* satfinite: also for infinities */
   const int emin = 1 - bias;
   int e;
   frexp(a, &e);
   int E = a == 0 || e - 1 < emin ? emin : e - 1;
   double r = rint(ldexp(a, frac - E));
   if (r >= ldexp(1.0, frac + 1)) {
      E++;
      r /= 2;
   }
   if (ldexp(r, E - frac) > max) /* rounded past the largest finite value */
      return (uint8_t)(sign | fp8Round(max, frac, bias, max, nan));
   if (r < ldexp(1.0, frac)) /* subnormal or zero */
      return sign | (uint8_t)r;
   return sign | (uint8_t)((E + bias) << frac) | (uint8_t)((uint32_t)r - (1u << frac));
}

uint8_t LowPrec_e4m3FromDouble(double x) { return fp8Round(x, 3, 7, 448.0, 0x7f); }
uint8_t LowPrec_e5m2FromDouble(double x) { return fp8Round(x, 2, 15, 57344.0, 0x7f); }

static float fp8Decode(uint8_t b, int frac, int bias, bool ieee) {
   const int expField = (b & 0x7f) >> frac, expMax = (1 << (7 - frac)) - 1;
   const int m = b & ((1 << frac) - 1);
   float v;
   if (expField == expMax && ieee)
      v = m ? NAN : INFINITY;
   else if (expField == expMax && m == (1 << frac) - 1) /* e4m3fn: only S.1111.111 is NaN */
      v = NAN;
   else if (expField == 0)
      v = ldexpf((float)m, 1 - bias - frac);
   else
      v = ldexpf((float)(m | 1 << frac), expField - bias - frac);
   return b & 0x80 ? -v : v;
}

float LowPrec_e4m3ToFloat(uint8_t b) { return fp8Decode(b, 3, 7, false); }
float LowPrec_e5m2ToFloat(uint8_t b) { return fp8Decode(b, 2, 15, true); }
