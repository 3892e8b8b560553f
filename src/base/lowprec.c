#include "base/lowprec.h"

#include <math.h>

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
