/* The FP8 types on the host: e4m3 and e5m2 rounding against a brute-force oracle (every
 * finite value of the format searched for the nearest, ties to the even pattern, saturated),
 * the scales' shapes and indices over every layout, quantising as users do (amax per block,
 * nothing past the largest finite value, the dequantised value within half a spacing), the
 * random inputs' block magnitudes, and verification: a host-computed C from the values
 * times their scales passes, one that takes a wrong block's scale, drops a k-slice or keeps
 * a reduced-precision accumulator fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lowprec.h"
#include "base/rng.h"
#include "base/types.h"
#include "core/model/catalog.h"
#include "core/model/config.h"
#include "core/analyse/frontier.h"
#include "core/model/inputs.h"
#include "core/model/scales.h"
#include "core/run/verify.h"
#include "testing.h"


typedef struct {
   const char *name;
   uint8_t (*encode)(double);
   float (*decode)(uint8_t);
   double max;
   int frac;
} Format;

static const Format kFormats[2] = {
    {"e4m3", LowPrec_e4m3FromDouble, LowPrec_e4m3ToFloat, 448.0, 3},
    {"e5m2", LowPrec_e5m2FromDouble, LowPrec_e5m2ToFloat, 57344.0, 2},
};

/* The nearest finite value of the format to x: every positive pattern decoded, the closest
 * taken, a tie to the even pattern; beyond the largest, the largest (satfinite). */
static uint8_t oracle(const Format *f, double x) {
   const uint8_t sign = signbit(x) ? 0x80 : 0;
   const double a = fabs(x);
   int best = -1;
   double bestDist = INFINITY;
   for (int b = 0; b < 0x80; b++) {
      const double v = f->decode((uint8_t)b);
      if (!isfinite(v))
         continue;
      const double d = fabs(v - a);
      if (d < bestDist || (d == bestDist && (b & 1) == 0)) {
         best = b;
         bestDist = d;
      }
   }
   return sign | (uint8_t)best;
}

static void test_fp8_rounding(void **state) {
   (void)state;
   for (int fi = 0; fi < 2; fi++) {
      const Format *f = &kFormats[fi];
      /* every pattern: decoding, and a finite one comes back as itself */
      int finite = 0;
      for (int b = 0; b < 256; b++) {
         const float v = f->decode((uint8_t)b);
         if (!isfinite(v))
            continue;
         finite++;
         if (f->encode(v) != b && !(v == 0 && f->encode(v) == (b & 0x80)))
            fail_msg("%s pattern 0x%02x (%g) does not round-trip", f->name, b, v);
      }
      /* e4m3fn: 254 finite patterns (NaN is 0x7f and 0xff); e5m2: 256 - 2 infinities - 6 NaNs */
      assert_int_equal(finite, fi == 0 ? 254 : 248);
      assert_true(f->decode(f->encode(f->max)) == f->max);
      assert_true(f->decode(f->encode(-1e30)) == -f->max); /* saturated, not infinite */
      assert_true(f->decode(f->encode(INFINITY)) == f->max);
      assert_true(isnan(f->decode(f->encode(NAN))));
      /* midpoints between neighbours (ties) and random values, against the oracle */
      for (int b = 0; b < 0x7e; b++) {
         const double lo = f->decode((uint8_t)b), hi = f->decode((uint8_t)(b + 1));
         if (!isfinite(lo) || !isfinite(hi))
            continue;
         const double mid = (lo + hi) / 2;
         if (f->encode(mid) != oracle(f, mid))
            fail_msg("%s(%a), a tie: 0x%02x, expected 0x%02x", f->name, mid, f->encode(mid), oracle(f, mid));
      }
      Rng r;
      Rng_seed(&r, Rng_freshSeed());
      for (int i = 0; i < 20000; i++) {
         const double x = Rng_range(&r, -1.0, 1.0) * exp2(Rng_range(&r, -20.0, 18.0));
         if (f->encode(x) != oracle(f, x))
            fail_msg("%s(%a) = 0x%02x, expected 0x%02x", f->name, x, f->encode(x), oracle(f, x));
      }
   }
   /* known patterns */
   assert_int_equal(LowPrec_e4m3FromDouble(1.0), 0x38);
   assert_int_equal(LowPrec_e5m2FromDouble(1.0), 0x3c);
   assert_true(LowPrec_e4m3ToFloat(0x01) == 0x1p-9);  /* smallest subnormal */
   assert_true(LowPrec_e5m2ToFloat(0x01) == 0x1p-16);
   assert_true(isinf(LowPrec_e5m2ToFloat(0x7c)));
   assert_true(LowPrec_e4m3ToFloat(0x7e) == 448.0f);
   assert_int_equal(Storage_size(STORAGE_E4M3), 1);
   assert_string_equal(Storage_npyName(STORAGE_E5M2), "float8_e5m2");
}

static Problem problem(int m, int n, int k, Precision prec, Scaling s, bool ta, bool tb) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = m, p.n = n, p.k = k, p.precision = prec, p.scaling = s, p.trans_a = ta, p.trans_b = tb;
   return p;
}

static void test_scale_shapes(void **state) {
   (void)state;
   Problem p = problem(130, 300, 257, PRECISION_E4M3, SCALING_BLOCK, false, false);
   size_t r, c;
   Scales_shape(&p, true, &r, &c);
   assert_int_equal(r, 130);
   assert_int_equal(c, 3); /* ceil(257 / 128) */
   Scales_shape(&p, false, &r, &c);
   assert_int_equal(r, 3);
   assert_int_equal(c, 3); /* ceil(300 / 128) */
   assert_int_equal(Scales_indexA(&p, 5, 256), 5 * 3 + 2);
   assert_int_equal(Scales_indexB(&p, 127, 128), 1);
   assert_int_equal(Scales_indexB(&p, 128, 299), 3 + 2);
   p.scaling = SCALING_TENSOR;
   assert_int_equal(Scales_count(&p, true), 1);
   assert_int_equal(Scales_indexB(&p, 200, 200), 0);
   /* stored indices: op(A)[i][k] and op(B)[k][j] in each layout */
   p = problem(4, 6, 5, PRECISION_E5M2, SCALING_BLOCK, true, true);
   assert_int_equal(Scales_storedA(&p, 1, 2), 2 * 4 + 1);
   assert_int_equal(Scales_storedB(&p, 2, 3), 3 * 5 + 2);
   p.trans_a = p.trans_b = false;
   assert_int_equal(Scales_storedA(&p, 1, 2), 1 * 5 + 2);
   assert_int_equal(Scales_storedB(&p, 2, 3), 2 * 6 + 3);
   /* padded for a kernel's geometry: 1 beyond the problem */
   p = problem(3, 130, 200, PRECISION_E4M3, SCALING_BLOCK, false, false);
   float sa[6] = {1, 2, 3, 4, 5, 6}, sb[4] = {7, 8, 9, 10};
   size_t count;
   float *pa = Scales_padded(&p, true, sa, 64, 192, 256, &count);
   assert_int_equal(count, 64 * 2);
   assert_true(pa[0] == 1 && pa[3] == 4 && pa[5] == 6 && pa[6] == 1.0f && pa[127] == 1.0f);
   free(pa);
   float *pb = Scales_padded(&p, false, sb, 64, 384, 256, &count);
   assert_int_equal(count, 2 * 3);
   assert_true(pb[0] == 7 && pb[1] == 8 && pb[2] == 1.0f && pb[3] == 9 && pb[4] == 10 && pb[5] == 1.0f);
   free(pb);
}

static double doubleAt(const void *src, size_t i) { return ((const double *)src)[i]; }

static void test_quantize(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, Rng_freshSeed());
   for (int t = 0; t < 16; t++) {
      const Precision prec = t % 2 ? PRECISION_E5M2 : PRECISION_E4M3;
      const Problem p = problem(1 + (int)(Rng_next(&r) % 70), 1 + (int)(Rng_next(&r) % 300),
                                1 + (int)(Rng_next(&r) % 400), prec, (Scaling)(t / 2 % 2), t / 4 % 2, t / 8 % 2);
      for (int a = 0; a < 2; a++) {
         const size_t n = a ? Problem_sizeA(&p) : Problem_sizeB(&p);
         double *x = malloc(n * sizeof *x), *back = malloc(n * sizeof *back);
         uint8_t *q = malloc(n);
         float *s = malloc(Scales_count(&p, a) * sizeof *s);
         assert_true(x && back && q && s);
         for (size_t i = 0; i < n; i++)
            x[i] = Rng_range(&r, -1.0, 1.0) * exp2(Rng_range(&r, -6.0, 6.0));
         assert_true(Scales_quantize(&p, a, doubleAt, x, q, s));
         Scales_dequantize(&p, a, q, s, back);
         /* each block's largest magnitude maps to the format's largest finite value (or just
          * under: the scale is rounded up), and every value is within half a spacing */
         const Storage st = Types_of(prec)->in;
         const size_t rows = a ? (size_t)p.m : (size_t)p.k, cols = a ? (size_t)p.k : (size_t)p.n;
         double *amax = calloc(Scales_count(&p, a), sizeof *amax);
         for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < cols; j++) {
               const size_t si = a ? Scales_storedA(&p, i, j) : Scales_storedB(&p, i, j);
               const size_t sc = a ? Scales_indexA(&p, i, j) : Scales_indexB(&p, i, j);
               amax[sc] = fmax(amax[sc], fabs(x[si]));
               /* the spacing of the format at x / scale (at least the subnormals'), scaled back */
               const double y = fabs(x[si]) / s[sc];
               const double spacing = fmax(ldexp(1.0, ilogb(fmax(y, 1e-300)) - (prec == PRECISION_E4M3 ? 3 : 2)),
                                           ldexp(1.0, prec == PRECISION_E4M3 ? -9 : -16));
               if (fabs(back[si] - x[si]) > 0.5 * spacing * s[sc] * (1 + 1e-9))
                  fail_msg("%s value %a quantised to %a (scale %a)", Precision_name(prec), x[si], back[si], s[sc]);
            }
         for (size_t i = 0; i < Scales_count(&p, a); i++) {
            const double top = amax[i] / s[i];
            assert_true(top <= Storage_max(st));
            assert_true(top >= Storage_max(st) * (1 - 1e-6));
         }
         free(amax);
         free(x);
         free(back);
         free(q);
         free(s);
      }
   }
}

/* Random inputs: block scales differ from block to block (or a wrong block's scale would
 * pass), and no stored value is past the format. */
static void test_random_inputs(void **state) {
   (void)state;
   Problem p = problem(64, 300, 520, PRECISION_E4M3, SCALING_BLOCK, false, true);
   Inputs in;
   assert_true(Inputs_random(&in, &p, Rng_freshSeed()));
   assert_non_null(in.sa);
   assert_non_null(in.sb);
   double lo, hi;
   Scales_range(&p, true, in.sa, &lo, &hi);
   assert_true(hi / lo > 4);
   Scales_range(&p, false, in.sb, &lo, &hi);
   assert_true(hi / lo > 2);
   size_t zeros = 0;
   for (size_t i = 0; i < Problem_sizeA(&p); i++)
      zeros += ((uint8_t *)in.a)[i] == 0;
   assert_true(zeros < Problem_sizeA(&p) / 20);
   Inputs_free(&in);
   assert_null(in.sa);
   /* the float types have none */
   p.precision = PRECISION_HALF;
   assert_true(Inputs_random(&in, &p, 3));
   assert_null(in.sa);
   Inputs_free(&in);
}

/* C computed on the host from the inputs as a kernel would, with a bug or without: block
 * partial sums in float, times the scales, into a float sum. */
enum { OK, WRONG_BLOCK, DROP_SLICE, REDUCED_ACC };
/* x with 13 fraction bits, cut toward zero (an FP8 tensor core's own accumulator keeps
 * about that many). */
static float cut13(float x) {
   uint32_t u;
   memcpy(&u, &x, sizeof u);
   u &= 0xfffffc00u;
   memcpy(&x, &u, sizeof x);
   return x;
}
static void hostGemm(const Problem *p, const Inputs *in, int bug, float *C) {
   const Storage st = Types_of(p->precision)->in;
   for (int i = 0; i < p->m; i++)
      for (int j = 0; j < p->n; j++) {
         float sum = 0;
         for (int k0 = 0; k0 < p->k; k0 += SCALES_BLOCK) {
            float part = 0;
            for (int k = k0; k < p->k && k < k0 + SCALES_BLOCK; k++) {
               if (bug == DROP_SLICE && k >= p->k - 32)
                  continue;
               part += (float)Storage_load(st, in->a, Scales_storedA(p, (size_t)i, (size_t)k)) *
                       (float)Storage_load(st, in->b, Scales_storedB(p, (size_t)k, (size_t)j));
               if (bug == REDUCED_ACC)
                  part = cut13(part);
            }
            const int arow = bug == WRONG_BLOCK ? i ^ 1 : i;
            sum += in->sa[Scales_indexA(p, (size_t)arow, (size_t)k0)] * in->sb[Scales_indexB(p, (size_t)k0, (size_t)j)] * part;
            if (bug == REDUCED_ACC) /* never promoted: the sum stays in the reduced accumulator */
               sum = cut13(sum);
         }
         C[(size_t)i * p->n + j] = (float)p->alpha * sum;
      }
}

static void test_verify_scaled(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, Rng_freshSeed());
   for (int t = 0; t < 4; t++) {
      Problem p = problem(32, 48, 2048, t % 2 ? PRECISION_E5M2 : PRECISION_E4M3, SCALING_BLOCK, t / 2, !(t / 2));
      p.alpha = 0.75;
      Inputs in;
      assert_true(Inputs_random(&in, &p, Rng_next(&r)));
      float *C = malloc(Problem_sizeC(&p) * sizeof *C);
      assert_non_null(C);
      const char *names[] = {"correct", "a wrong block's scale", "a dropped k-slice", "a reduced accumulator"};
      for (int bug = OK; bug <= REDUCED_ACC; bug++) {
         VerifyResult v;
         hostGemm(&p, &in, bug, C);
         Verify_inputs(&p, &in, C, Rng_next(&r), &v);
         print_message("# %s %s: %s\n", Precision_name(p.precision), names[bug], v.message);
         if (v.ok != (bug == OK))
            fail_msg("%s, %s: %s", Precision_name(p.precision), names[bug], v.message);
      }
      /* the scales are part of the inputs: verifying without them is refused, not passed */
      float *sa = in.sa;
      in.sa = NULL;
      VerifyResult v;
      Verify_inputs(&p, &in, C, 1, &v);
      assert_false(v.ok);
      assert_non_null(strstr(v.message, "scales"));
      in.sa = sa;
      free(C);
      Inputs_free(&in);
   }
}

/* C as an FP8 tensor core makes it, in the model verify.h states: each k-step of 32 exact
 * products is added to the accumulator with every term cut toward zero to 13 fraction bits
 * of the largest (products and the running sum aligned to it), the sum kept in FP32; every
 * `interval` products (0: never) the accumulator, times its k-block's scales, is added into
 * FP32. Then the bugs a kernel can have: a 128-deep k-block dropped or added twice, a wrong
 * scale (B's per-tensor scale left out; a neighbouring row's block scales), the rows of
 * the two consumer warpgroups (64 apart) swapped. */
enum { TC_OK, TC_DROP_BLOCK, TC_REPEAT_BLOCK, TC_WRONG_SCALE, TC_SWAP_ROWS, TC_BUGS };
static const char *const kTcBugs[TC_BUGS] = {"correct", "a dropped k-block", "a repeated k-block", "a wrong scale",
                                             "consumers' rows swapped"};

/* x cut toward zero to a multiple of unit. */
static double cutTo(double x, double unit) { return unit > 0 ? trunc(x / unit) * unit : x; }

/* The value of op(A)[i][k] op(B)[k][j] with their scales. */
static double scaledProduct(const Problem *p, const Inputs *in, int i, int j, int k) {
   const Storage st = Types_of(p->precision)->in;
   return (double)Storage_load(st, in->a, Scales_storedA(p, (size_t)i, (size_t)k)) *
          in->sa[Scales_indexA(p, (size_t)i, (size_t)k)] *
          Storage_load(st, in->b, Scales_storedB(p, (size_t)k, (size_t)j)) * in->sb[Scales_indexB(p, (size_t)k, (size_t)j)];
}

/* The first k of the whole 128-deep k-block whose sums are largest over C: the one a test
 * drops or repeats (the random magnitudes make some blocks too small for any tolerance to
 * miss, FP32's included). */
static int victimBlock(const Problem *p, const Inputs *in) {
   int best = 0;
   double most = -1;
   for (int k0 = 0; k0 + SCALES_BLOCK <= p->k; k0 += SCALES_BLOCK) {
      double size = 0;
      for (int i = 0; i < p->m; i++)
         for (int j = 0; j < p->n; j++) {
            double s = 0;
            for (int k = k0; k < k0 + SCALES_BLOCK; k++)
               s += scaledProduct(p, in, i, j, k);
            size += fabs(s);
         }
      if (size > most) {
         most = size;
         best = k0;
      }
   }
   return best;
}

static double tensorCoreEntry(const Problem *p, const Inputs *in, int i, int j, int interval, int victim, int bug) {
   const Storage st = Types_of(p->precision)->in;
   const int K = p->k, L = interval ? interval : K;
   const int arow = bug == TC_SWAP_ROWS ? i ^ 64 : i;
   float sum = 0;
   for (int i0 = 0; i0 < K; i0 += L) {
      const int i1 = i0 + L < K ? i0 + L : K;
      float acc = 0;
      for (int g0 = i0; g0 < i1; g0 += 32) {
         const int g1 = g0 + 32 < i1 ? g0 + 32 : i1;
         double prod[32], big = fabs(acc);
         for (int k = g0; k < g1; k++) {
            prod[k - g0] = (double)Storage_load(st, in->a, Scales_storedA(p, (size_t)arow, (size_t)k)) *
                           Storage_load(st, in->b, Scales_storedB(p, (size_t)k, (size_t)j));
            if (bug == TC_DROP_BLOCK && k >= victim && k < victim + SCALES_BLOCK)
               prod[k - g0] = 0;
            if (bug == TC_REPEAT_BLOCK && k >= victim && k < victim + SCALES_BLOCK)
               prod[k - g0] *= 2;
            if (fabs(prod[k - g0]) > big)
               big = fabs(prod[k - g0]);
         }
         int e;
         frexp(big, &e);
         const double unit = big > 0 ? ldexp(1.0, e - 1 - 13) : 0;
         double t = cutTo(acc, unit);
         for (int k = g0; k < g1; k++)
            t += cutTo(prod[k - g0], unit);
         acc = (float)t;
      }
      /* one interval lies in one scale block (interval 128) or takes per-tensor scales */
      const int srow = bug == TC_WRONG_SCALE && p->scaling == SCALING_BLOCK ? i ^ 1 : arow;
      float scale = in->sa[Scales_indexA(p, (size_t)srow, (size_t)i0)];
      if (!(bug == TC_WRONG_SCALE && p->scaling == SCALING_TENSOR))
         scale *= in->sb[Scales_indexB(p, (size_t)i0, (size_t)j)];
      sum = fmaf(scale, acc, sum);
   }
   return (float)p->alpha * sum;
}

/* The tolerance for the FP8 tensor core's accumulator: C as the model makes it passes at K =
 * 1030, 4096 and 16384, promoted every 128 products or never, both scalings; each bug fails
 * it; a kernel that says it sums in FP32 fails with the same C (the tolerance is the
 * accumulator's, not looser for all). */
static void test_verify_tensor_core_accumulator(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, Rng_freshSeed());
   static const int kKs[] = {1030, 4096, 16384};
   for (size_t ki = 0; ki < sizeof kKs / sizeof kKs[0]; ki++)
      for (int sc = 0; sc < 2; sc++)
         for (int interval = 0; interval <= 128; interval += 128) {
            if (sc && !interval)
               continue; /* block scales are applied as each k-block is promoted */
            Problem p = problem(128, 8, kKs[ki], ki % 2 ? PRECISION_E5M2 : PRECISION_E4M3,
                                sc ? SCALING_BLOCK : SCALING_TENSOR, false, true);
            p.alpha = 0.75;
            Inputs in;
            assert_true(Inputs_random(&in, &p, Rng_next(&r)));
            float *C = malloc(Problem_sizeC(&p) * sizeof *C);
            assert_non_null(C);
            const VerifyAccumulation acc = {true, interval};
            const int victim = victimBlock(&p, &in);
            for (int bug = TC_OK; bug < TC_BUGS; bug++) {
               for (int i = 0; i < p.m; i++)
                  for (int j = 0; j < p.n; j++)
                     C[(size_t)i * p.n + j] = (float)tensorCoreEntry(&p, &in, i, j, interval, victim, bug);
               VerifyResult v;
               const uint64_t seed = Rng_next(&r);
               Verify_inputsAccumulated(&p, &in, C, STORAGE_F32, &acc, seed, &v);
               print_message("# K=%d %s %s, interval %d, %s: %s\n", p.k, Precision_name(p.precision),
                             Scaling_name(p.scaling), interval, kTcBugs[bug], v.message);
               if (v.ok != (bug == TC_OK))
                  fail_msg("K=%d %s, interval %d, %s: %s", p.k, Scaling_name(p.scaling), interval, kTcBugs[bug],
                           v.message);
               if (bug == TC_OK) {
                  assert_non_null(strstr(v.message, "+ FP8 tensor-core accumulation"));
                  VerifyResult fp32;
                  Verify_inputs(&p, &in, C, seed, &fp32);
                  assert_false(fp32.ok);
               }
            }
            free(C);
            Inputs_free(&in);
         }
}

/* A C rounded to bfloat16 after the sum (cuBLASLt's bfloat16 C, --vendor-output): FP32's
 * tolerance fails it, Verify_inputsRounded counts the rounding and passes it, and still
 * fails a wrong block's scale or a dropped k-slice rounded the same way. */
static void test_verify_bf16_c(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, Rng_freshSeed());
   for (int t = 0; t < 2; t++) {
      Problem p = problem(40, 56, 256, PRECISION_E4M3, t ? SCALING_BLOCK : SCALING_TENSOR, false, true);
      Inputs in;
      assert_true(Inputs_random(&in, &p, Rng_next(&r)));
      float *C = malloc(Problem_sizeC(&p) * sizeof *C);
      assert_non_null(C);
      for (int bug = OK; bug <= DROP_SLICE; bug++) {
         if (bug == WRONG_BLOCK && !t)
            continue; /* one scale each: no neighbour to take */
         hostGemm(&p, &in, bug, C);
         for (size_t i = 0; i < Problem_sizeC(&p); i++)
            C[i] = LowPrec_bf16ToFloat(LowPrec_bf16FromDouble(C[i]));
         VerifyResult fp32, bf16;
         const uint64_t seed = Rng_next(&r);
         Verify_inputs(&p, &in, C, seed, &fp32);
         Verify_inputsRounded(&p, &in, C, STORAGE_BF16, seed, &bf16);
         print_message("# %s, bug %d: as FP32 C: %s; as bfloat16 C: %s\n", Scaling_name(p.scaling), bug, fp32.message,
                       bf16.message);
         assert_false(fp32.ok);
         if (bf16.ok != (bug == OK))
            fail_msg("%s, bug %d, rounding to bfloat16 counted: %s", Scaling_name(p.scaling), bug, bf16.message);
      }
      free(C);
      Inputs_free(&in);
   }
}

/* FP8's mma.sync exists from sm_89: an FP8 tensor kernel runs its PTX on an H100 (and an
 * Ada GPU), its emulation on an A100, where half still runs as PTX. The defines say the
 * scaling, and the problem's bytes count the scales. */
static void test_fp8_targets(void **state) {
   (void)state;
   KernelInfo k;
   char err[512], msg[1536], defs[1024];
   const char *text = "/*@gemmtop\nname: t\nparam: TS = 8 in 8, 16\nglobal: N, M\nlocal: TS, TS\n"
                      "precisions: half e4m3 e5m2\ntensor: yes\n*/\n__kernel void gemm() {}\n";
   assert_true(KernelInfo_parse(&k, text, "t.cl", err, sizeof err));
   long long values[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&k, values);
   Problem p = problem(64, 64, 256, PRECISION_E4M3, SCALING_BLOCK, false, false);
   const struct {
      int sm;
      bool fp8, half;
   } gpus[] = {{80, false, true}, {89, true, true}, {90, true, true}, {0, false, false}};
   for (size_t i = 0; i < sizeof gpus / sizeof gpus[0]; i++) {
      DeviceLimits lim = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .warp = 32,
                          .tensor_ptx = gpus[i].sm > 0, .tensor_sm = gpus[i].sm};
      Geometry g;
      p.precision = PRECISION_E4M3;
      assert_true(Config_check(&k, values, &p, &lim, &g, msg, sizeof msg));
      assert_int_equal(g.tensor_ptx, gpus[i].fp8);
      assert_int_equal(g.emulated, !gpus[i].fp8);
      assert_int_equal(Config_tensorPtx(&k, &lim, PRECISION_HALF), gpus[i].half);
      Config_defines(&k, values, &p, &g, defs, sizeof defs);
      assert_non_null(strstr(defs, "-DGT_E4M3=1 -DGT_SCALE_BLOCK=1"));
      p.scaling = SCALING_TENSOR;
      Config_defines(&k, values, &p, &g, defs, sizeof defs);
      assert_null(strstr(defs, "GT_SCALE_BLOCK"));
      p.scaling = SCALING_BLOCK;
   }
   KernelInfo_free(&k);
   /* A and B one byte each, C four, and the scales: M x 2 of A's, 2 x 1 of B's. */
   p = problem(64, 64, 256, PRECISION_E5M2, SCALING_BLOCK, false, false);
   assert_true(Problem_bytes(&p) == 64.0 * 256 * 2 + 64 * 64 * 4 + 4.0 * (64 * 2 + 2 * 1));
   p.scaling = SCALING_TENSOR;
   assert_true(Problem_bytes(&p) == 64.0 * 256 * 2 + 64 * 64 * 4 + 4.0 * 2);
}

/* The smallest normal value of a storage the test below rounds to. */
static double smallestNormal(Storage st) {
   switch (st) {
   case STORAGE_F16: return 0x1p-14;
   case STORAGE_E4M3: return 0x1p-6;
   case STORAGE_E5M2: return 0x1p-14;
   case STORAGE_F64: return DBL_MIN;
   default: return FLT_MIN;
   }
}

/* The same values reach every type and layout (Inputs_fromValues), and the frontier's error
 * is the exact one: 0 for C computed in extended precision, the planted error otherwise. */
static void test_frontier_inputs_and_error(void **state) {
   (void)state;
   const int M = 40, N = 24, K = 300;
   float *A = malloc(sizeof(float) * M * K), *B = malloc(sizeof(float) * K * N), *C = malloc(sizeof(float) * M * N);
   assert_true(A && B && C);
   Rng r;
   Rng_seed(&r, Testing_seed("test_frontier_inputs_and_error"));
   for (int i = 0; i < M * K; i++)
      A[i] = (float)Rng_range(&r, -1.0, 1.0);
   for (int i = 0; i < K * N; i++)
      B[i] = (float)Rng_range(&r, -1.0, 1.0);
   const Precision types[] = {PRECISION_FLOAT, PRECISION_HALF, PRECISION_E4M3, PRECISION_E5M2};
   for (size_t t = 0; t < sizeof types / sizeof types[0]; t++)
      for (int lay = 0; lay < 4; lay++) {
         Problem p = problem(M, N, K, types[t], lay % 2 ? SCALING_BLOCK : SCALING_TENSOR, lay / 2, lay % 2);
         Inputs in;
         assert_true(Inputs_fromValues(&in, &p, A, B, 9));
         const Storage st = Types_of(p.precision)->in;
         /* the stored value of op(A)[i][k] is A's, rounded to the type (and scaled) */
         for (int q = 0; q < 50; q++) {
            const size_t i = Rng_next(&r) % M, k = Rng_next(&r) % K;
            double v = Storage_load(st, in.a, Scales_storedA(&p, i, k));
            if (Problem_scaled(&p))
               v *= in.sa[Scales_indexA(&p, i, k)];
            /* Rounding to nearest errs by at most half a spacing: eps/2 |x| for a normal x,
             * eps/2 times the smallest normal value for a subnormal one (the fresh draws
             * reach half's subnormals, and the FP8 types' below their scales' 2^-6 or
             * 2^-14). eps, twice that, for the margin. */
            const double scale = Problem_scaled(&p) ? in.sa[Scales_indexA(&p, i, k)] : 1.0;
            const double tol = scale * Storage_epsilon(st) * fmax(fabs(A[i * K + k]) / scale, smallestNormal(st));
            if (fabs(v - A[i * K + k]) > tol)
               fail_msg("%s layout %d: op(A)[%zu][%zu] %g became %g", Precision_name(p.precision), lay, i, k, A[i * K + k], v);
         }
         Inputs_free(&in);
      }
   /* The range check counts the scales: values near 1e20 quantise to bytes of at most 448,
    * but their products (1e40) pass FP32's largest value, which must be refused. */
   Problem q = problem(M, N, K, PRECISION_E4M3, SCALING_BLOCK, false, false);
   Inputs in;
   char err[512];
   assert_true(Inputs_fromValues(&in, &q, A, B, 4));
   if (!Inputs_checkRange(&in, &q, err, sizeof err))
      fail_msg("%s", err);
   Inputs_free(&in);
   A[3] = 1e20f, B[3 * N + 5] = -1e20f; /* a(0,3) b(3,5) */
   assert_true(Inputs_fromValues(&in, &q, A, B, 4));
   assert_false(Inputs_checkRange(&in, &q, err, sizeof err));
   assert_non_null(strstr(err, "the inputs overflow float"));
   assert_null(strstr(err, "--precision double"));
   Inputs_free(&in);
   A[3] = 0.5f, B[3 * N + 5] = 0.25f;
   Problem p = problem(M, N, K, PRECISION_FLOAT, SCALING_TENSOR, false, false);
   for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++) {
         long double s = 0;
         for (int k = 0; k < K; k++)
            s += (long double)A[i * K + k] * B[k * N + j];
         C[i * N + j] = (float)s;
      }
   FrontierError e;
   Frontier_error(&p, A, B, NULL, C, 3, &e);
   assert_int_equal(e.samples, M * N);
   assert_true(e.max < 0x1p-23 && e.median <= e.max); /* only C's own rounding to float */
   C[5 * N + 7] += 0.5f;                               /* one planted error */
   Frontier_error(&p, A, B, NULL, C, 3, &e);
   assert_true(e.max > 1e-3);
   assert_true(e.median < 0x1p-23);
   free(A);
   free(B);
   free(C);
}

/* The values drawn before rounding (Inputs_drawn), in the logical layout: float's stored
 * values are those very floats in any layout; e4m3's, as multiplied (stored value times its
 * scale), are within e4m3's rounding of them; and the error of C against them counts alpha,
 * beta and C0. */
/* The frontier's chart for slides: with the points the H200 gave (2026-11-30, seven of them
 * within a factor of two in speed and of ten in error), every label is drawn once, and no
 * label's box (7.5 px a character, a 14 px row) covers another label, a point, or the title
 * and subtitle above the plot. */
typedef struct {
   int x0, y0, x1, y1;
} LabelBox;

static bool boxesMeet(LabelBox a, LabelBox b) { return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1; }

static void test_frontier_labels_apart(void **state) {
   (void)state;
   FrontierPoint pts[] = {
       {"FP32", 48827.8, 1.533e-07, 1.117e-08, false, false},
       {"cuBLAS 13.1.0 FP32", 51203.7, 1.533e-07, 1.117e-08, true, false},
       {"3xTF32", 66052.5, 4.205e-08, 2.756e-09, false, false},
       {"tf32", 391662, 6.133e-05, 9.37e-06, false, false},
       {"cuBLAS 13.1.0 GemmEx FAST_TF32 tf32", 410021, 2.187e-05, 3.638e-06, true, false},
       {"bfloat16", 708799, 0.0001615, 3.031e-05, false, false},
       {"cuBLAS 13.1.0 GemmEx bfloat16, FP32 C bfloat16", 761249, 0.0001615, 3.031e-05, true, false},
       {"half", 689733, 2.195e-05, 3.628e-06, false, false},
       {"cuBLAS 13.1.0 GemmEx half, FP32 C half", 734120, 2.195e-05, 3.628e-06, true, false},
       {"e4m3 tensor", 1.16174e+06, 0.003284, 0.0004965, false, false},
       {"cuBLASLt 13.1.0 e4m3 tensor", 1.2677e+06, 0.003284, 0.0004965, true, false},
       {"e4m3 block", 1.01034e+06, 0.00274, 0.0004848, false, false},
       {"cuBLASLt 13.1.0 e4m3 block", 1.18368e+06, 0.00274, 0.0004848, true, false},
       {"e5m2 tensor", 1.17333e+06, 0.0055, 0.001013, false, false},
       {"e5m2 block", 1.0042e+06, 0.005658, 0.001003, false, false},
   };
   const int n = (int)(sizeof pts / sizeof pts[0]);
   char *svg = Frontier_svg(pts, n, "Accuracy against speed at 4096x4096x4096", "NVIDIA H200: one set of inputs");
   assert_non_null(svg);
   LabelBox boxes[64], dots[64];
   int nb = 0, nd = 0;
   for (const char *p = strstr(svg, "<circle "); p; p = strstr(p + 1, "<circle ")) {
      int cx, cy;
      assert_int_equal(sscanf(p, "<circle cx=\"%d\" cy=\"%d\"", &cx, &cy), 2);
      dots[nd++] = (LabelBox){cx - 6, cy - 6, cx + 6, cy + 6};
   }
   assert_int_equal(nd, n);
   /* the labels: text in a point's colour, after its circle */
   for (const char *p = strstr(svg, "<text x="); p; p = strstr(p + 1, "<text x=")) {
      int x, y;
      char colour[16];
      if (sscanf(p, "<text x=\"%d\" y=\"%d\" fill=\"%15[^\"]\"", &x, &y, colour) != 3 ||
          (strcmp(colour, "#1f5fbf") && strcmp(colour, "#c0392b")))
         continue;
      const char *gt = strchr(p, '>'), *end = strstr(p, "</text>");
      assert_non_null(gt);
      assert_non_null(end);
      const int w = (int)(7.5 * (double)(end - gt - 1) + 0.5);
      const bool right_aligned = strstr(p, "text-anchor=\"end\"") && strstr(p, "text-anchor=\"end\"") < gt;
      const LabelBox b = right_aligned ? (LabelBox){x - w, y - 11, x, y + 3} : (LabelBox){x, y - 11, x + w, y + 3};
      assert_true(b.y0 >= 48); /* below the title and subtitle */
      for (int i = 0; i < nb; i++)
         if (boxesMeet(b, boxes[i]))
            fail_msg("label at (%d, %d) covers the one at (%d, %d)", x, y, boxes[i].x0, boxes[i].y1 - 3);
      for (int i = 0; i < nd; i++)
         if (boxesMeet(b, dots[i]))
            fail_msg("label at (%d, %d) covers the point at (%d, %d)", x, y, dots[i].x0 + 6, dots[i].y0 + 6);
      boxes[nb++] = b;
   }
   assert_int_equal(nb, n);
   free(svg);
}

static void test_drawn_values(void **state) {
   (void)state;
   for (int t = 0; t < 4; t++) {
      const bool ta = t & 1, tb = t & 2;
      Problem p = problem(37, 21, 150, PRECISION_FLOAT, SCALING_TENSOR, ta, tb);
      Inputs in;
      float *A, *B;
      assert_true(Inputs_random(&in, &p, 99 + t));
      assert_true(Inputs_drawn(&p, 99 + t, &A, &B));
      const float *sa = in.a, *sb = in.b;
      for (int i = 0; i < p.m; i++)
         for (int k = 0; k < p.k; k++)
            assert_true(A[i * p.k + k] == sa[ta ? (size_t)k * p.m + i : (size_t)i * p.k + k]);
      for (int k = 0; k < p.k; k++)
         for (int j = 0; j < p.n; j++)
            assert_true(B[k * p.n + j] == sb[tb ? (size_t)j * p.k + k : (size_t)k * p.n + j]);
      Inputs_free(&in);
      free(A);
      free(B);
   }
   Problem q = problem(33, 40, 300, PRECISION_E4M3, SCALING_BLOCK, true, false);
   Inputs in;
   float *A, *B;
   double *qa, *qb;
   assert_true(Inputs_random(&in, &q, 7));
   assert_true(Inputs_drawn(&q, 7, &A, &B));
   assert_true(Inputs_scaledValues(&in, &q, &qa, &qb));
   size_t differ = 0;
   for (int i = 0; i < q.m; i++)
      for (int k = 0; k < q.k; k++) {
         const double x = A[i * q.k + k], v = qa[(size_t)k * q.m + i]; /* A stored transposed */
         assert_true(fabs(x - v) <= fabs(x) * 0x1p-4 + 1e-12);
         differ += x != v;
      }
   assert_true(differ > 0); /* quantising changed values: the drawn ones are not the stored ones */
   for (int k = 0; k < q.k; k++)
      for (int j = 0; j < q.n; j++) {
         const double x = B[k * q.n + j], v = qb[(size_t)k * q.n + j];
         assert_true(fabs(x - v) <= fabs(x) * 0x1p-4 + 1e-12);
      }
   free(qa);
   free(qb);
   Inputs_free(&in);
   free(A);
   free(B);
   /* alpha and beta: C = alpha A B + beta C0 exactly (in long double, rounded to float) */
   Problem f = problem(9, 7, 40, PRECISION_FLOAT, SCALING_TENSOR, false, false);
   f.alpha = -1.5, f.beta = 0.75;
   assert_true(Inputs_random(&in, &f, 5));
   assert_true(Inputs_drawn(&f, 5, &A, &B));
   float C[9 * 7];
   for (int i = 0; i < 9; i++)
      for (int j = 0; j < 7; j++) {
         long double sum = 0;
         for (int k = 0; k < 40; k++)
            sum += (long double)A[i * 40 + k] * B[k * 7 + j];
         C[i * 7 + j] = (float)(-1.5L * sum + 0.75L * ((const float *)in.c0)[i * 7 + j]);
      }
   FrontierError e;
   Frontier_error(&f, A, B, in.c0, C, 1, &e);
   assert_true(e.max < 0x1p-23);
   C[3] += 0.25f; /* beta's term forgotten at one place would look like this */
   Frontier_error(&f, A, B, in.c0, C, 1, &e);
   assert_true(e.max > 1e-3);
   Inputs_free(&in);
   free(A);
   free(B);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_fp8_rounding), cmocka_unit_test(test_scale_shapes),
       cmocka_unit_test(test_quantize),     cmocka_unit_test(test_random_inputs),
       cmocka_unit_test(test_verify_scaled), cmocka_unit_test(test_verify_tensor_core_accumulator),
       cmocka_unit_test(test_verify_bf16_c), cmocka_unit_test(test_fp8_targets),
       cmocka_unit_test(test_frontier_inputs_and_error), cmocka_unit_test(test_frontier_labels_apart),
       cmocka_unit_test(test_drawn_values),
   };
   const char *filter = getenv("GEMMTOP_TEST_FILTER");
   if (filter && *filter)
      cmocka_set_test_filter(filter);
   return cmocka_run_group_tests(tests, NULL, NULL);
}
