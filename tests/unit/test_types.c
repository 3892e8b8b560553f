/* The tensor-core element types on the host: rounding to half, bfloat16 and TF32 (against
 * brute-force oracles), the names and sizes, the `precisions:` and `tensor:` metadata and
 * their refusals, the defines a kernel gets, verification per type (a host-computed C that
 * is right passes, one that skips a k-step, rounds wrongly or reads a wrong element fails),
 * float16 .npy files and the rounding of other files to half and bfloat16, and the
 * tensor-core peak micro-kernel through NVRTC when it is installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend_cuda.h"
#include "core/model/catalog.h"
#include "core/model/config.h"
#include "core/model/inputs.h"
#include "base/lowprec.h"
#include "core/model/npy.h"
#include "base/rng.h"
#include "core/run/session.h"
#include "base/types.h"
#include "core/run/verify.h"
#include "testing.h"

/* ---- rounding ---- */

/* The nearest of the positive finite patterns 0..maxFinite (whose values grow with the
 * pattern) to |x|, ties to the even pattern, past the top by half a spacing to infinity:
 * round-to-nearest-even by its definition, found by bisection. */
static uint16_t oracle(double x, uint16_t maxFinite, uint16_t inf, float (*decode)(uint16_t)) {
   uint16_t sign = signbit(x) ? 0x8000u : 0;
   double a = fabs(x);
   unsigned lo = 0, hi = maxFinite; /* the largest pattern whose value is <= a */
   if (a >= decode(maxFinite)) {
      lo = maxFinite;
   } else {
      while (lo < hi) {
         unsigned mid = (lo + hi + 1) / 2;
         if (decode((uint16_t)mid) <= a)
            lo = mid;
         else
            hi = mid - 1;
      }
   }
   double below = decode((uint16_t)lo);
   /* Above the largest finite value the next "pattern" is infinity, one spacing up. */
   double above = lo == maxFinite ? 2 * (double)decode(maxFinite) - (double)decode(maxFinite - 1) : decode(lo + 1);
   unsigned up = lo == maxFinite ? inf : lo + 1;
   if (a == below)
      return sign | (uint16_t)lo;
   double dl = a - below, du = above - a;
   unsigned pick = dl < du ? lo : du < dl ? up : ((lo & 1) ? up : lo);
   return sign | (uint16_t)pick;
}

static void test_half_cases(void **state) {
   (void)state;
   struct {
      double x;
      uint16_t bits;
   } cases[] = {
       {1.0, 0x3c00},           {-2.0, 0xc000},
       {0.5, 0x3800},           {65504.0, 0x7bff},          /* largest finite */
       {1 + 0x1p-11, 0x3c00},   /* tie between 1 and 1+2^-10: the even one, 1 */
       {1 + 3 * 0x1p-11, 0x3c02}, /* tie between 0x3c01 and 0x3c02: even */
       {1 + 0x1p-11 + 0x1p-30, 0x3c01}, /* just past the tie: up */
       {65519.0, 0x7bff},       {65520.0, 0x7c00},          /* the tie past the top goes to infinity */
       {-1e6, 0xfc00},          {INFINITY, 0x7c00},         {-INFINITY, 0xfc00},
       {0x1p-24, 0x0001},       /* smallest subnormal */
       {0x1p-25, 0x0000},       /* tie between 0 and 2^-24: even, 0 */
       {1.5 * 0x1p-25, 0x0001}, {3 * 0x1p-25, 0x0002},      /* 1.5 * 2^-24: tie between 1 and 2 */
       {1023 * 0x1p-24, 0x03ff}, /* largest subnormal */
       {1023.5 * 0x1p-24, 0x0400}, /* tie into the smallest normal */
       {0x1p-14, 0x0400},       {-0x1p-24, 0x8001},         {-0.0, 0x8000}, {1e-30, 0x0000},
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      uint16_t got = LowPrec_halfFromDouble(cases[i].x);
      if (got != cases[i].bits)
         fail_msg("half(%a) = 0x%04x, expected 0x%04x", cases[i].x, got, cases[i].bits);
   }
   uint16_t nan = LowPrec_halfFromDouble(NAN);
   assert_true((nan & 0x7c00) == 0x7c00 && (nan & 0x03ff) != 0);
   assert_true(isnan(LowPrec_halfToFloat(nan)));
   assert_true(LowPrec_halfFromDouble(-NAN) & 0x8000);
   assert_true(LowPrec_halfToFloat(0x7c00) == INFINITY && LowPrec_halfToFloat(0xfc00) == -INFINITY);
   assert_true(LowPrec_halfToFloat(0x0001) == 0x1p-24f && LowPrec_halfToFloat(0x8001) == -0x1p-24f);
   assert_true(LowPrec_halfToFloat(0x7bff) == 65504.0f && LowPrec_halfToFloat(0x3555) == 0x1.554p-2f);
}

/* Every pattern decodes and encodes back to itself; random values round as the oracle says. */
static void test_half_exhaustive_and_random(void **state) {
   (void)state;
   for (unsigned b = 0; b < 0x10000; b++) {
      float f = LowPrec_halfToFloat((uint16_t)b);
      if (isnan(f))
         continue;
      uint16_t back = LowPrec_halfFromDouble(f);
      if (back != b)
         fail_msg("pattern 0x%04x -> %a -> 0x%04x", b, (double)f, back);
   }
   Rng r;
   Rng_seed(&r, 1414);
   for (int i = 0; i < 200000; i++) {
      /* Spread over every binade of half, subnormals and overflow included. */
      double x = ldexp(Rng_range(&r, -1.0, 1.0), (int)Rng_below(&r, 44) - 27);
      uint16_t want = oracle(x, 0x7bff, 0x7c00, LowPrec_halfToFloat), got = LowPrec_halfFromDouble(x);
      if (got != want)
         fail_msg("half(%a) = 0x%04x, the nearest (ties to even) is 0x%04x", x, got, want);
   }
}

static void test_bf16(void **state) {
   (void)state;
   struct {
      double x;
      uint16_t bits;
   } cases[] = {
       {1.0, 0x3f80},         {-1.5, 0xbfc0},
       {1 + 0x1p-8, 0x3f80},  /* tie: even */
       {1 + 3 * 0x1p-8, 0x3f82},
       {1 + 0x1p-8 + 0x1p-40, 0x3f81},
       {FLT_MAX, 0x7f80},     /* past bfloat16's largest by more than half a spacing: infinity */
       {0x1.fep127, 0x7f7f},  /* its largest finite value */
       {0x1p-133, 0x0001},    /* smallest subnormal */
       {0x1p-134, 0x0000},    /* tie: even, 0 */
       {0x1p-126, 0x0080},    {-0.0, 0x8000},        {-INFINITY, 0xff80},
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      uint16_t got = LowPrec_bf16FromDouble(cases[i].x);
      if (got != cases[i].bits)
         fail_msg("bf16(%a) = 0x%04x, expected 0x%04x", cases[i].x, got, cases[i].bits);
   }
   uint16_t nan = LowPrec_bf16FromDouble(NAN);
   assert_true(isnan(LowPrec_bf16ToFloat(nan)));
   for (unsigned b = 0; b < 0x10000; b++) {
      float f = LowPrec_bf16ToFloat((uint16_t)b);
      uint32_t u;
      memcpy(&u, &f, sizeof u);
      assert_int_equal(u, b << 16); /* decoding is the top half of a float */
      if (!isnan(f) && LowPrec_bf16FromDouble(f) != b)
         fail_msg("bf16 pattern 0x%04x does not round-trip", b);
   }
   Rng r;
   Rng_seed(&r, 1616);
   for (int i = 0; i < 100000; i++) {
      double x = ldexp(Rng_range(&r, -1.0, 1.0), (int)Rng_below(&r, 280) - 138);
      uint16_t want = oracle(x, 0x7f7f, 0x7f80, LowPrec_bf16ToFloat), got = LowPrec_bf16FromDouble(x);
      if (got != want)
         fail_msg("bf16(%a) = 0x%04x, the nearest (ties to even) is 0x%04x", x, got, want);
   }
}

/* TF32 by its definition: the nearest multiple of the spacing at x's exponent, ties even. */
static float tf32Oracle(float x) {
   int e;
   frexp(x, &e);
   int E = e - 1 < -126 ? -126 : e - 1;
   double r = rint(ldexp(x, 10 - E)); /* ties to even: the mode is never changed */
   return (float)ldexp(r, E - 10);    /* exact; a carry to 2^(E+1) is still a TF32 value */
}

static void test_tf32(void **state) {
   (void)state;
   assert_true(LowPrec_tf32Round(1.0f + 0x1p-11f) == 1.0f);               /* tie: even */
   assert_true(LowPrec_tf32Round(1.0f + 3 * 0x1p-11f) == 1.0f + 0x1p-9f); /* tie: even, up */
   assert_true(LowPrec_tf32Round(1.0f + 0x1p-11f + 0x1p-20f) == 1.0f + 0x1p-10f);
   assert_true(LowPrec_tf32Round(-1.0f - 0x1p-12f) == -1.0f);
   assert_true(LowPrec_tf32Round(FLT_MAX) == INFINITY); /* rounds past the largest: infinity */
   assert_true(LowPrec_tf32Round(INFINITY) == INFINITY && isnan(LowPrec_tf32Round(NAN)));
   /* Subnormals: TF32 has FP32's exponents, so its spacing there is 2^-136. */
   assert_true(LowPrec_tf32Round(0x1p-136f) == 0x1p-136f);
   assert_true(LowPrec_tf32Round(0x1p-137f) == 0.0f); /* tie: even, 0 */
   assert_true(LowPrec_tf32Round(0x1p-149f) == 0.0f);
   Rng r;
   Rng_seed(&r, 3232);
   for (int i = 0; i < 200000; i++) {
      float x = (float)ldexp(Rng_range(&r, -1.0, 1.0), (int)Rng_below(&r, 300) - 160);
      float want = tf32Oracle(x), got = LowPrec_tf32Round(x);
      if (got != want && !(isinf(got) && isinf(want)))
         fail_msg("tf32(%a) = %a, expected %a", (double)x, (double)got, (double)want);
      uint32_t u;
      memcpy(&u, &got, sizeof u);
      assert_int_equal(u & 0x1fffu, 0);
   }
}

/* ---- names, sizes, defines ---- */

static void test_names_and_sizes(void **state) {
   (void)state;
   const char *spell[][2] = {{"float", "float"}, {"FP32", "float"},   {"double", "double"}, {"tf32", "tf32"},
                             {"half", "half"},   {"fp16", "half"},    {"f16", "half"},      {"bfloat16", "bfloat16"},
                             {"BF16", "bfloat16"}, {"e4m3", "e4m3"}, {"float8_e4m3fn", "e4m3"}, {"FP8", "e4m3"},
                             {"e5m2", "e5m2"}, {"float8_e5m2", "e5m2"}};
   for (size_t i = 0; i < sizeof spell / sizeof spell[0]; i++) {
      Precision p;
      assert_true(Precision_parse(spell[i][0], &p));
      assert_string_equal(Precision_name(p), spell[i][1]);
   }
   Precision p;
   assert_false(Precision_parse("fp4", &p));
   assert_false(Precision_parse("e4m3fnuz", &p));
   assert_false(Precision_parse("", &p));
   assert_int_equal(Precision_inputSize(PRECISION_HALF), 2);
   assert_int_equal(Precision_inputSize(PRECISION_BF16), 2);
   assert_int_equal(Precision_inputSize(PRECISION_TF32), 4);
   assert_int_equal(Precision_size(PRECISION_HALF), 4);
   assert_int_equal(Precision_size(PRECISION_DOUBLE), 8);
   assert_string_equal(Precision_inputType(PRECISION_TF32), "float");
   assert_string_equal(Precision_computeType(PRECISION_TF32), "tf32");
   assert_string_equal(Precision_computeType(PRECISION_HALF), "float");
   assert_string_equal(Precision_outputType(PRECISION_BF16), "float");
   char d[64];
   Precision_defines(PRECISION_FLOAT, d, sizeof d);
   assert_string_equal(d, "-DDOUBLE=0"); /* float and double: what they always had */
   Precision_defines(PRECISION_DOUBLE, d, sizeof d);
   assert_string_equal(d, "-DDOUBLE=1");
   Precision_defines(PRECISION_BF16, d, sizeof d);
   assert_string_equal(d, "-DDOUBLE=0 -DGT_BF16=1");
   Problem pr;
   Problem_setDefaults(&pr);
   pr.m = 3, pr.n = 5, pr.k = 7, pr.precision = PRECISION_HALF, pr.beta = 1;
   assert_true(Problem_bytes(&pr) == (3.0 * 7 + 7 * 5) * 2 + 3 * 5 * 2 * 4);
}

/* ---- metadata and configuration ---- */

static const char *KERNEL_HEAD = "/*@gemmtop\nname: t\nparam: TS = 8 in 8, 16\nglobal: N, M\nlocal: TS, TS\n";

static bool parseWith(KernelInfo *k, const char *extra, char *err, size_t errlen) {
   char text[1024];
   snprintf(text, sizeof text, "%s%s*/\n__kernel void gemm() {}\n", KERNEL_HEAD, extra);
   return KernelInfo_parse(k, text, "t.cl", err, errlen);
}

static DeviceLimits limits(bool tensor_ptx) {
   DeviceLimits l = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true, .warp = 32,
                     .tensor_ptx = tensor_ptx, .tensor_sm = tensor_ptx ? 90 : 0};
   return l;
}

static void test_metadata_keys(void **state) {
   (void)state;
   KernelInfo k;
   char err[512];
   assert_true(parseWith(&k, "", err, sizeof err));
   assert_int_equal(k.precisions, PRECISION_BIT(PRECISION_FLOAT) | PRECISION_BIT(PRECISION_DOUBLE));
   assert_false(k.tensor);
   KernelInfo_free(&k);
   assert_true(parseWith(&k, "precisions: tf32, half bfloat16\ntensor: yes\n", err, sizeof err));
   assert_int_equal(k.precisions,
                    PRECISION_BIT(PRECISION_TF32) | PRECISION_BIT(PRECISION_HALF) | PRECISION_BIT(PRECISION_BF16));
   assert_true(k.tensor);
   KernelInfo_free(&k);
   assert_false(parseWith(&k, "precisions: half fp4\n", err, sizeof err));
   assert_non_null(strstr(err, "'fp4' is not an element type"));
   assert_non_null(strstr(err, "bfloat16"));
   assert_false(parseWith(&k, "precisions:\n", err, sizeof err));
   assert_non_null(strstr(err, "precisions"));
   assert_false(parseWith(&k, "tensor: maybe\n", err, sizeof err));
   assert_non_null(strstr(err, "'maybe' is not yes or no"));
}

static void test_precision_refused(void **state) {
   (void)state;
   KernelInfo k;
   char err[512], msg[1536];
   assert_true(parseWith(&k, "", err, sizeof err));
   long long values[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&k, values);
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 64;
   DeviceLimits lim = limits(true);
   Geometry g;
   assert_true(Config_check(&k, values, &p, &lim, &g, msg, sizeof msg));
   char defs[1024];
   Config_defines(&k, values, &p, &g, defs, sizeof defs);
   assert_string_equal(defs, "-DTS=8 -DTRANSA=0 -DTRANSB=0 -DDOUBLE=0"); /* float: as it always was */
   p.precision = PRECISION_HALF;
   assert_false(Config_check(&k, values, &p, &lim, &g, msg, sizeof msg));
   assert_non_null(strstr(msg, "kernel t does not take half: it takes float, double"));
   bool valid[KERNEL_MAX_VALUES];
   Config_validValues(&k, values, &p, &lim, 0, valid);
   assert_false(valid[0] || valid[1]); /* no parameter value makes it take half */
   KernelInfo_free(&k);
}

/* A CPU's kernels get -DGT_CPU=1 (the prelude unrolls for it) and their rules see GT_CPU;
 * a GPU's defines stay as they were. */
static void test_cpu_define(void **state) {
   (void)state;
   KernelInfo k;
   char err[512], msg[1536], defs[1024];
   assert_true(parseWith(&k, "require: GT_CPU || TS >= 16 ; a GPU takes TS of 16\n", err, sizeof err));
   long long values[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&k, values);
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 64;
   DeviceLimits gpu = limits(true), cpu = limits(false);
   cpu.cpu = true;
   Geometry g;
   assert_true(Config_check(&k, values, &p, &cpu, &g, msg, sizeof msg)); /* GT_CPU is 1 in its rules */
   Config_defines(&k, values, &p, &g, defs, sizeof defs);
   assert_string_equal(defs, "-DTS=8 -DTRANSA=0 -DTRANSB=0 -DDOUBLE=0 -DGT_CPU=1");
   assert_false(Config_check(&k, values, &p, &gpu, &g, msg, sizeof msg)); /* and 0 in a GPU's */
   assert_non_null(strstr(msg, "a GPU takes TS of 16"));
   values[0] = 16;
   assert_true(Config_check(&k, values, &p, &gpu, &g, msg, sizeof msg));
   Config_defines(&k, values, &p, &g, defs, sizeof defs);
   assert_string_equal(defs, "-DTS=16 -DTRANSA=0 -DTRANSB=0 -DDOUBLE=0");
   KernelInfo_free(&k);
}

static void test_tensor_geometry(void **state) {
   (void)state;
   KernelInfo k;
   char err[512], msg[1536], defs[1024];
   assert_true(parseWith(&k, "precisions: half tf32\ntensor: yes\nrequire: GT_TENSOR_PTX || IN_SIZE == 2 || GT_TF32\n",
                         err, sizeof err));
   long long values[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&k, values);
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 64;
   p.precision = PRECISION_HALF;
   DeviceLimits gpu = limits(true), cpu = limits(false);
   Geometry g;
   assert_true(Config_check(&k, values, &p, &gpu, &g, msg, sizeof msg));
   assert_true(g.tensor_ptx);
   assert_false(g.emulated);
   Config_defines(&k, values, &p, &g, defs, sizeof defs);
   assert_non_null(strstr(defs, "-DDOUBLE=0 -DGT_HALF=1 -DGT_TENSOR_PTX=1"));
   assert_true(Config_check(&k, values, &p, &cpu, &g, msg, sizeof msg));
   assert_false(g.tensor_ptx);
   assert_true(g.emulated);
   Config_defines(&k, values, &p, &g, defs, sizeof defs);
   assert_null(strstr(defs, "GT_TENSOR_PTX"));
   p.precision = PRECISION_TF32;
   assert_true(Config_check(&k, values, &p, &cpu, &g, msg, sizeof msg)); /* GT_TF32 is 1 in expressions */
   p.precision = PRECISION_BF16;
   assert_false(Config_check(&k, values, &p, &gpu, &g, msg, sizeof msg));
   assert_non_null(strstr(msg, "takes tf32, half"));
   KernelInfo_free(&k);
   /* A kernel that is not a tensor one never gets GT_TENSOR_PTX, nor is it emulated. */
   assert_true(parseWith(&k, "precisions: half\n", err, sizeof err));
   p.precision = PRECISION_HALF;
   assert_true(Config_check(&k, values, &p, &gpu, &g, msg, sizeof msg));
   assert_false(g.tensor_ptx || g.emulated);
   KernelInfo_free(&k);
}

/* ---- verification per type ---- */

typedef enum { HOST_RIGHT, HOST_SKIP_K, HOST_CUT_BF16, HOST_WRONG_ELEMENT } HostGemm;

static float operand(const Problem *p, const void *m, size_t i) {
   switch (p->precision) {
   case PRECISION_HALF: return LowPrec_halfToFloat(((const uint16_t *)m)[i]);
   case PRECISION_BF16: return LowPrec_bf16ToFloat(((const uint16_t *)m)[i]);
   case PRECISION_TF32: return LowPrec_tf32Round(((const float *)m)[i]);
   default: return ((const float *)m)[i];
   }
}

/* Cut to bfloat16's 7 fraction bits: the wrong rounding. */
static float cutBf16(float x) {
   uint32_t u;
   memcpy(&u, &x, sizeof u);
   return LowPrec_floatOfBits(u & 0xffff0000u);
}

/* C on the host as a kernel computes it (NN layout): FP32 products and sums, or with a bug. */
static float *hostGemm(const Problem *p, const Inputs *in, HostGemm bug) {
   float *c = malloc(Problem_sizeC(p) * sizeof *c);
   for (int i = 0; i < p->m; i++)
      for (int j = 0; j < p->n; j++) {
         float acc = 0;
         for (int k = 0; k < p->k; k++) {
            if (bug == HOST_SKIP_K && k == p->k / 2)
               continue;
            int ka = bug == HOST_WRONG_ELEMENT && k == p->k - 1 ? k - 1 : k;
            float a = operand(p, in->a, (size_t)i * p->k + ka), b = operand(p, in->b, (size_t)k * p->n + j);
            /* Wrong rounding: inputs cut to bfloat16 (tf32, half); for bfloat16, whose inputs are
             * that already, each product cut again (rounding twice). */
            if (bug == HOST_CUT_BF16)
               acc += p->precision == PRECISION_BF16 ? cutBf16(a * b) : cutBf16(a) * cutBf16(b);
            else
               acc += a * b;
         }
         size_t idx = (size_t)i * p->n + j;
         c[idx] = (float)p->alpha * acc + (p->beta != 0 ? (float)p->beta * ((const float *)in->c0)[idx] : 0.0f);
      }
   return c;
}

static void test_verify_per_type(void **state) {
   (void)state;
   const Precision types[] = {PRECISION_TF32, PRECISION_HALF, PRECISION_BF16};
   for (size_t t = 0; t < 3; t++) {
      Problem p;
      Problem_setDefaults(&p);
      p.m = 37, p.n = 29, p.k = 19, p.alpha = 0.75, p.beta = -1.5, p.precision = types[t];
      Inputs in;
      assert_true(Inputs_random(&in, &p, 900 + t));
      for (int bug = HOST_RIGHT; bug <= HOST_WRONG_ELEMENT; bug++) {
         float *c = hostGemm(&p, &in, (HostGemm)bug);
         VerifyResult v;
         Verify_gemm(&p, in.a, in.b, in.c0, c, 77, &v);
         if (v.ok != (bug == HOST_RIGHT))
            fail_msg("%s with host bug %d: %s", Precision_name(p.precision), bug, v.message);
         free(c);
      }
      Inputs_free(&in);
   }
   Problem p;
   Problem_setDefaults(&p);
   p.k = 100;
   double f32 = Verify_tolerance(&p);
   p.precision = PRECISION_TF32;
   assert_true(Verify_tolerance(&p) == f32 + 0x1p-9);
   p.precision = PRECISION_HALF;
   assert_true(Verify_tolerance(&p) == f32); /* products of halves are exact in FP32 */
}

/* ---- .npy ---- */

static void tempPath(char *out, size_t len, const char *name) {
   snprintf(out, len, "%s/gemmtop-types-%d-%s", P_tmpdir, (int)getpid(), name);
}

static void test_npy_float16(void **state) {
   (void)state;
   char path[256], err[512];
   tempPath(path, sizeof path, "h.npy");
   uint16_t bits[6] = {0x3c00, 0x8001, 0x7bff, 0x3555, 0xfc00, 0x0000};
   assert_true(Npy_writeAs(path, bits, 2, 3, NPY_FLOAT16, err, sizeof err));
   NpyArray a;
   assert_true(Npy_read(path, &a, err, sizeof err));
   assert_true(a.is_half && !a.is_double);
   assert_int_equal(a.shape[0], 2);
   assert_int_equal(a.shape[1], 3);
   assert_memory_equal(a.data, bits, sizeof bits);
   assert_true(NpyArray_convert(&a, false)); /* decoded exactly */
   assert_true(((float *)a.data)[1] == -0x1p-24f && ((float *)a.data)[4] == -INFINITY);
   NpyArray_free(&a);
   unlink(path);
}

static void test_npy_inputs_rounded(void **state) {
   (void)state;
   char a16[256], b32[256], big[256], err[512];
   tempPath(a16, sizeof a16, "a16.npy");
   tempPath(b32, sizeof b32, "b32.npy");
   tempPath(big, sizeof big, "big.npy");
   Problem p;
   Problem_setDefaults(&p);
   p.m = 2, p.n = 2, p.k = 2;
   uint16_t ah[4] = {0x3c00, 0x3555, 0x8001, 0x4000};
   float bf[4] = {1.0f, 1.0f + 0x1p-8f, 1.0f + 3 * 0x1p-8f, 0.1f}; /* ties and an inexact value */
   float huge[4] = {1.0f, 7e4f, 2.0f, 3.0f};
   assert_true(Npy_writeAs(a16, ah, 2, 2, NPY_FLOAT16, err, sizeof err));
   assert_true(Npy_write(b32, bf, 2, 2, false, err, sizeof err));
   assert_true(Npy_write(big, huge, 2, 2, false, err, sizeof err));
   /* half: a float16 file is taken as it is, a float32 one rounded, and said so. */
   p.precision = PRECISION_HALF;
   Inputs in;
   assert_true(Inputs_random(&in, &p, 5));
   assert_true(Inputs_loadNpy(&in, &p, a16, b32, NULL, err, sizeof err));
   assert_memory_equal(in.a, ah, sizeof ah);
   assert_int_equal(((uint16_t *)in.b)[1], 0x3c04); /* 1 + 2^-8 in half: exact */
   assert_non_null(strstr(in.note, "float32 values rounded to half (round to nearest even): 1 of 4 changed"));
   assert_null(strstr(in.note, "a16"));
   assert_false(Inputs_loadNpy(&in, &p, big, NULL, NULL, err, sizeof err));
   assert_non_null(strstr(err, "too large for half"));
   Inputs_free(&in);
   /* bfloat16: from float32, to nearest even, and said so. */
   p.precision = PRECISION_BF16;
   assert_true(Inputs_random(&in, &p, 6));
   assert_true(Inputs_loadNpy(&in, &p, a16, b32, NULL, err, sizeof err));
   const uint16_t *b = in.b;
   assert_int_equal(b[0], 0x3f80);
   assert_int_equal(b[1], 0x3f80); /* tie: even */
   assert_int_equal(b[2], 0x3f82); /* tie: even, up */
   assert_int_equal(b[3], LowPrec_bf16FromDouble(0.1f));
   assert_non_null(strstr(in.note, "float32 values rounded to bfloat16 (round to nearest even; .npy has no bfloat16 type)"));
   assert_non_null(strstr(in.note, "float16 values rounded to bfloat16"));
   Inputs_free(&in);
   unlink(a16);
   unlink(b32);
   unlink(big);
}

/* ---- the tensor peak micro-kernel, through NVRTC ---- */

static void test_peak_mma_compiles(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   char *src = Session_source(&cat, true, cat.peak);
   const char *ops[4] = {"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                         "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                         "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
                         "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"};
   bool skipped = false;
   for (int kind = 0; kind < 4 && !skipped; kind++) {
      char opts[128], *ptx = NULL, *log = NULL;
      size_t len;
      snprintf(opts, sizeof opts, "-DDOUBLE=0 -DGT_TENSOR_PTX=1 -DGT_MMA_FP8=%d -DMMA_ITERS=16", kind == 3);
      /* FP8's mma.sync needs sm_89 */
      BackendStatus st = Cuda_compileOnly(src, opts, kind == 3 ? "sm_89" : "sm_80", true, &ptx, &len, &log, err, sizeof err);
      if (st == BACKEND_ERR_NO_RUNTIME) {
         skipped = true;
      } else {
         if (st != BACKEND_OK)
            fail_msg("%s\n%s", err, log ? log : "");
         assert_non_null(strstr(ptx, ops[kind]));
      }
      free(ptx);
      free(log);
   }
   free(src);
   Catalog_free(&cat);
   if (skipped)
      SKIP_BECAUSE("NVRTC is not installed: the tensor peak kernel's compile is not checked");
}

/* ---- every type, end to end ---- */

/* The first kernel of the catalog that takes p without tensor cores and runs on the
 * session's device: each type must have one, or it cannot be taught or verified. */
static const KernelInfo *kernelFor(const Catalog *cat, Session *s, Precision p) {
   for (int i = 0; i < cat->count; i++) {
      const KernelInfo *k = &cat->kernels[i];
      char why[512];
      if ((k->precisions & PRECISION_BIT(p)) && !k->tensor && Session_targetOk(s, k, why, sizeof why))
         return k;
   }
   return NULL;
}

/* Issue 27: every row of the types table, walked through what gemmtop does with a type:
 * its name and aliases parsed back, its defines, its storage's size and rounding, its
 * peaks' labels, and a verified run at 64 on PoCL with fresh random inputs. A type added
 * to the enum without a row, a name, a storage or a kernel that takes it fails here. */
static void test_every_type_end_to_end(void **state) {
   (void)state;
   char err[1024];
   int dev = Testing_poclDevice(err, sizeof err);
   if (dev < 0)
      SKIP_BECAUSE("%s", err);
   /* The shipped kernels (or GEMMTOP_KERNELS), and the test kernels that take each type on
    * CUDA cores (tests/kernels/types: the shipped ones for tf32, half and bfloat16 are
    * tensor-core kernels). */
   Catalog cat;
   const char *kdir = getenv("GEMMTOP_KERNELS");
   char dirs[4096];
   snprintf(dirs, sizeof dirs, "%s:%s/tests/kernels/types", kdir && *kdir ? kdir : GEMMTOP_SOURCE_DIR "/kernels",
            GEMMTOP_SOURCE_DIR);
   if (!Catalog_load(&cat, dirs, err, sizeof err))
      fail_msg("cannot load kernels: %s", err);
   Session *s = Session_open(Backend_opencl(), dev, &cat, err, sizeof err);
   if (!s)
      fail_msg("cannot open PoCL: %s", err);
   Rng rng;
   Rng_seed(&rng, Rng_freshSeed());
   for (int i = 0; i < PRECISION_COUNT; i++) {
      Precision p = (Precision)i;
      const TypeTraits *t = Types_of(p);
      /* names and aliases */
      assert_true(t->name && t->name[0] && t->input && t->compute && t->output && t->tag);
      Precision back;
      assert_true(Precision_parse(t->name, &back) && back == p);
      for (int a = 0; a < 3 && t->aliases[a]; a++)
         assert_true(Precision_parse(t->aliases[a], &back) && back == p);
      assert_string_equal(Precision_name(p), t->name);
      /* the kernels' defines */
      char defines[128], want[64];
      Precision_defines(p, defines, sizeof defines);
      snprintf(want, sizeof want, "-DDOUBLE=%d", t->fp64);
      assert_non_null(strstr(defines, want));
      /* fp64, the trait the engine decides by, is the row's storages: all in double */
      assert_int_equal(t->fp64, t->in == STORAGE_F64 && t->out == STORAGE_F64);
      assert_int_equal(t->fp64, t->in == STORAGE_F64 || t->out == STORAGE_F64);
      if (t->define)
         assert_non_null(strstr(defines, t->define));
      /* storage: sizes, an exact value back as it went in, and rounding within half an epsilon */
      assert_int_equal(Precision_inputSize(p), Storage_size(t->in));
      assert_int_equal(Precision_size(p), Storage_size(t->out));
      const Storage kinds[2] = {t->in, t->out};
      for (int k = 0; k < 2; k++) {
         unsigned char cell[8];
         Storage_store(kinds[k], cell, 0, 1.5);
         assert_true(Storage_load(kinds[k], cell, 0) == 1.5);
         double v = Rng_range(&rng, 1.0, 2.0);
         Storage_store(kinds[k], cell, 0, v);
         assert_true(fabs(Storage_load(kinds[k], cell, 0) - v) <= Storage_epsilon(kinds[k]) * v);
         Storage_store(kinds[k], cell, 0, Storage_max(kinds[k]));
         assert_true(Storage_load(kinds[k], cell, 0) == Storage_max(kinds[k]));
      }
      /* the peaks it is put against */
      assert_true(strcmp(PeakKind_label(t->peak), "?") != 0 && strcmp(PeakKind_label(t->tensor_peak), "?") != 0);
      /* a verified run at 64 */
      const KernelInfo *k = kernelFor(&cat, s, p);
      if (!k)
         fail_msg("no kernel takes %s on PoCL: a type must have one", t->name);
      long long values[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(k, values);
      Problem pr;
      Problem_setDefaults(&pr);
      pr.m = pr.n = pr.k = 64;
      pr.precision = p;
      pr.alpha = 0.75;
      pr.beta = -1.5;
      Inputs in;
      assert_true(Inputs_random(&in, &pr, Rng_next(&rng)));
      RunResult *r = calloc(1, sizeof *r);
      assert_non_null(r);
      RunOptions o = {.reps = 1, .verify = true};
      RunStatus st = Session_run(s, k, values, &pr, &in, &o, r);
      print_message("# %s: %s %s\n", t->name, k->name, r->verify.message);
      if (st != RUN_OK || !r->verify.ok)
         fail_msg("%s with %s at 64: %s (%s)", t->name, k->name, r->message, r->verify.message);
      RunResult_free(r);
      free(r);
      Inputs_free(&in);
   }
   Session_close(s);
   Catalog_free(&cat);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_half_cases),
       cmocka_unit_test(test_half_exhaustive_and_random),
       cmocka_unit_test(test_bf16),
       cmocka_unit_test(test_tf32),
       cmocka_unit_test(test_names_and_sizes),
       cmocka_unit_test(test_metadata_keys),
       cmocka_unit_test(test_precision_refused),
       cmocka_unit_test(test_cpu_define),
       cmocka_unit_test(test_tensor_geometry),
       cmocka_unit_test(test_verify_per_type),
       cmocka_unit_test(test_npy_float16),
       cmocka_unit_test(test_npy_inputs_rounded),
       cmocka_unit_test(test_peak_mma_compiles),
       cmocka_unit_test(test_every_type_end_to_end),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
