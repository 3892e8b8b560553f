/* The tensor-core helpers of kernels/helpers/tensor.h, each checked on its own through a
 * real device (tests/unit/tensor_probe.cl): the MMA of each input type against the product
 * computed here, ldmatrix x1/x2/x4 with and without .trans against the PTX ISA's
 * thread-to-row mapping, cp.async in two commit groups, and the TF32 rounding against a
 * rounding computed here in double. By default the portable emulation runs on PoCL (the
 * "pocl" device of OpenCL, whatever the machine's default); tools/gpu/gpu_tensor_probe.sh runs the same checks on the GPU's
 * inline PTX: GEMMTOP_TEST_BACKEND=opencl|cuda, GEMMTOP_TENSOR_PTX=1, GEMMTOP_SMEM_CVTA=1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/device.h"
#include "core/model/catalog.h"
#include "base/rng.h"
#include "core/run/session.h"
#include "base/util.h"

#define IN_WORDS 3008
#define OUT_WORDS 2880
/* The offsets of tensor_probe.cl. */
#define MMA_IN(w, kind) (((w) * 3 + (kind)) * 320)
#define TILE_IN(w) (1920 + (w) * 256)
#define CP_IN(w) (2432 + (w) * 256)
#define CVT_IN(w) (2944 + (w) * 32)
#define MMA_OUT(w, kind) (((w) * 3 + (kind)) * 128)
#define LDSM_OUT(w, v) (768 + (w) * 768 + (v) * 128)
#define CP_OUT(w) (2304 + (w) * 256)
#define CVT_OUT(w) (2816 + (w) * 32)
#define LDSM_ROW(l) (((l) * 5 + 3) % 32)
#define LDSM_WORD(l) (4 * (((l) >> 2) & 1))

static uint32_t g_in[IN_WORDS], g_out[OUT_WORDS];
static Rng g_rng;

static float asFloat(uint32_t u) {
   float f;
   memcpy(&f, &u, 4);
   return f;
}
static uint32_t asUint(float f) {
   uint32_t u;
   memcpy(&u, &f, 4);
   return u;
}

/* binary16 of a float that has one (the small values used here are exact). */
static uint32_t toHalf(float f) {
   uint32_t u = asUint(f), sign = (u >> 16) & 0x8000u;
   if (f == 0.0f)
      return sign;
   int e = (int)((u >> 23) & 0xff) - 127 + 15;
   assert_true(e > 0 && e < 31);
   assert_int_equal(u & 0x1fffu, 0); /* exact */
   return sign | ((uint32_t)e << 10) | ((u >> 13) & 0x3ffu);
}
static float fromHalf(uint32_t h) {
   int e = (int)((h >> 10) & 0x1f);
   float m = (float)(h & 0x3ff);
   float v = e == 0 ? ldexpf(m, -24) : ldexpf(1024.0f + m, e - 25);
   return (h & 0x8000u) ? -v : v;
}

/* A small random value, exact in TF32, binary16 and bfloat16 (k/4, |k| <= 32). */
static float smallValue(void) { return (float)((int)Rng_below(&g_rng, 65) - 32) / 4.0f; }

/* Element (r, c) of a row-major matrix of words of the given kind (0 tf32, 1 f16, 2 bf16),
 * cols counted in elements. */
static double element(const uint32_t *words, int wordsPerRow, int r, int c, int kind) {
   if (kind == 0)
      return asFloat(words[r * wordsPerRow + c]);
   uint32_t w = words[r * wordsPerRow + c / 2], h = (c % 2) ? w >> 16 : w & 0xffffu;
   return kind == 1 ? fromHalf(h) : asFloat(h << 16);
}

static uint32_t encode(float v, int kind) { return kind == 0 ? asUint(v) : kind == 1 ? toHalf(v) : asUint(v) >> 16; }

static void fillInputs(void) {
   for (int w = 0; w < 2; w++)
      for (int kind = 0; kind < 3; kind++) {
         uint32_t *p = g_in + MMA_IN(w, kind);
         for (int i = 0; i < 192; i++) /* A and B words */
            p[i] = kind == 0 ? encode(smallValue(), 0) : encode(smallValue(), kind) | encode(smallValue(), kind) << 16;
         for (int i = 192; i < 320; i++)
            p[i] = asUint((float)((int)Rng_below(&g_rng, 201) - 100));
      }
   for (int i = TILE_IN(0); i < CVT_IN(0); i++)
      g_in[i] = (uint32_t)Rng_next(&g_rng);
   /* Values to round: random floats, ties (low 13 bits 0x1000) of both signs, exact values. */
   for (int w = 0; w < 2; w++)
      for (int l = 0; l < 32; l++) {
         uint32_t u = (uint32_t)Rng_next(&g_rng) & 0xbfffffffu; /* finite: exponent below 255 */
         if (l % 4 == 1)
            u = (u & ~0x1fffu) | 0x1000u;
         else if (l % 4 == 2)
            u &= ~0x1fffu;
         g_in[CVT_IN(w) + l] = u;
      }
}

/* TF32 round-to-nearest, ties away from zero, computed in double from the value. */
static uint32_t tf32Reference(uint32_t u) {
   double v = asFloat(u);
   if (v == 0.0)
      return u;
   int e;
   frexp(v, &e); /* |v| = f 2^e, f in [0.5, 1) */
   double ulp = ldexp(1.0, e - 11);
   if (e - 1 < -126) /* subnormal: the float's own grid */
      ulp = ldexp(1.0, -149 + 13);
   double q = fabs(v) / ulp, r = floor(q + 0.5);
   return asUint((float)copysign(r * ulp, v));
}

static void checkMma(void) {
   static const char *names[] = {"tf32", "f16", "bf16"};
   for (int w = 0; w < 2; w++)
      for (int kind = 0; kind < 3; kind++) {
         const uint32_t *A = g_in + MMA_IN(w, kind), *B = A + 128, *C = A + 192;
         int ks = kind == 0 ? 8 : 16;
         for (int r = 0; r < 16; r++)
            for (int n = 0; n < 8; n++) {
               double want = asFloat(C[r * 8 + n]);
               for (int k = 0; k < ks; k++) {
                  /* B is 8 words of k by 8 columns: element k of column n is in word k/epw. */
                  double b = kind == 0 ? asFloat(B[k * 8 + n])
                                       : element(B + (k / 2) * 8, 1, n, k % 2, kind);
                  want += element(A, 8, r, k, kind) * b;
               }
               float got = asFloat(g_out[MMA_OUT(w, kind) + r * 8 + n]);
               if (got != (float)want)
                  fail_msg("mma %s warp %d: D[%d][%d] = %g, expected %g", names[kind], w, r, n, got, want);
            }
      }
}

static void checkLdmatrix(void) {
   static const char *names[] = {"x1", "x2", "x4", "x1.trans", "x2.trans", "x4.trans"};
   for (int w = 0; w < 2; w++)
      for (int v = 0; v < 6; v++) {
         int count = v % 3 == 0 ? 1 : v % 3 == 1 ? 2 : 4;
         bool trans = v >= 3;
         const uint32_t *tile = g_in + TILE_IN(w);
         for (int l = 0; l < 32; l++)
            for (int m = 0; m < count; m++) {
               uint32_t want;
               if (!trans) { /* word l%4 of row l/4 of matrix m, whose address lane 8m + l/4 gave */
                  int s = 8 * m + l / 4;
                  want = tile[LDSM_ROW(s) * 8 + LDSM_WORD(s) + l % 4];
               } else { /* 16-bit column l/4 of rows 2(l%4) and 2(l%4)+1 of matrix m */
                  int s0 = 8 * m + 2 * (l % 4), c = l / 4;
                  uint32_t lo = tile[LDSM_ROW(s0) * 8 + LDSM_WORD(s0) + c / 2] >> (16 * (c % 2)) & 0xffffu;
                  uint32_t hi = tile[LDSM_ROW(s0 + 1) * 8 + LDSM_WORD(s0 + 1) + c / 2] >> (16 * (c % 2)) & 0xffffu;
                  want = lo | hi << 16;
               }
               uint32_t got = g_out[LDSM_OUT(w, v) + l * 4 + m];
               if (got != want)
                  fail_msg("ldmatrix %s warp %d lane %d register %d: %#x, expected %#x", names[v], w, l, m, got, want);
            }
      }
}

static void checkCpAsync(void) {
   for (int w = 0; w < 2; w++)
      for (int q = 0; q < 2; q++)
         for (int c = 0; c < 32; c++) {
            int dst = 32 * q + (c * (7 + 4 * q)) % 32;
            for (int k = 0; k < 4; k++) {
               uint32_t got = g_out[CP_OUT(w) + dst * 4 + k], want = g_in[CP_IN(w) + (32 * q + c) * 4 + k];
               if (got != want)
                  fail_msg("cp.async warp %d group %d chunk %d word %d: %#x, expected %#x", w, q, c, k, got, want);
            }
         }
}

static void checkCvt(void) {
   for (int i = 0; i < 64; i++) {
      uint32_t x = g_in[CVT_IN(0) + i], got = g_out[CVT_OUT(0) + i], want = tf32Reference(x);
      if (got != want)
         fail_msg("cvt.rna.tf32 of %.9g (%#x): %#x, expected %#x", asFloat(x), x, got, want);
   }
}

static void test_helpers(void **state) {
   (void)state;
   const char *backend = getenv("GEMMTOP_TEST_BACKEND");
   backend = backend && *backend ? backend : "opencl";
   const char *ptxEnv = getenv("GEMMTOP_TENSOR_PTX"), *cvtaEnv = getenv("GEMMTOP_SMEM_CVTA");
   int ptx = ptxEnv ? atoi(ptxEnv) : 0, cvta = cvtaEnv ? atoi(cvtaEnv) : 0;
   const Backend *be = Backend_byName(backend);
   assert_non_null(be);
   char err[1024];
   Catalog cat;
   const char *kdir = getenv("GEMMTOP_KERNELS");
   if (!Catalog_load(&cat, kdir && *kdir ? kdir : GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err))
      fail_msg("cannot load kernels: %s", err);
   /* The source tree where the test was built, or GEMMTOP_SOURCE_DIR when it runs from a
    * copy elsewhere (the GPU machine). */
   const char *srcEnv = getenv("GEMMTOP_SOURCE_DIR");
   char probePath[1024];
   snprintf(probePath, sizeof probePath, "%s/tests/unit/tensor_probe.cl",
            srcEnv && *srcEnv ? srcEnv : GEMMTOP_SOURCE_DIR);
   char *body = Util_readFile(probePath, NULL);
   if (!body)
      fail_msg("cannot read %s (set GEMMTOP_SOURCE_DIR to the source tree)", probePath);
   char *source = Session_sourceNamed(&cat, Backend_can(be, BACKEND_CAP_CUDA_PRELUDE), body, "tensor_probe.cl");
   free(body);
   Catalog_free(&cat);

   /* OpenCL: PoCL unless GEMMTOP_TEST_DEVICE names another (a GPU that the machine
    * prefers must not change what the suite checks). */
   const char *want = getenv("GEMMTOP_TEST_DEVICE");
   if ((!want || !*want) && be == Backend_opencl())
      want = "pocl";
   DeviceInfo *devs = NULL, info;
   int nd = Backend_listDevices(be, &devs, err, sizeof err);
   int dev = nd > 0 ? Device_pick(devs, nd, want, err, sizeof err) : -1;
   free(devs);
   if (dev < 0)
      fail_msg("no %s device: %s", backend, err);
   Context *ctx = be->open(dev, &info, err, sizeof err);
   if (!ctx)
      fail_msg("cannot open %s device %d: %s", backend, dev, err);
   fprintf(stderr, "# %s on %s (%s), %s\n", backend, info.name, info.arch[0] ? info.arch : "no arch",
           ptx ? (cvta ? "inline PTX, cvta.to.shared addresses" : "inline PTX") : "emulated");

   char options[128];
   snprintf(options, sizeof options, "-DGT_TENSOR_HELPERS=1 -DGT_TENSOR_PTX=%d -DGT_SMEM_CVTA=%d", ptx, cvta);
   Program *prog = NULL;
   BuildInfo bi;
   memset(&bi, 0, sizeof bi);
   if (be->build(ctx, source, options, &prog, &bi, err, sizeof err) != BACKEND_OK)
      fail_msg("probe build failed: %s\n%s", err, bi.log ? bi.log : "");
   free(source);
   free(bi.log);
   Kernel *k = be->kernel(prog, "probe", &bi, err, sizeof err);
   assert_non_null(k);

   uint64_t seed = Rng_freshSeed();
   fprintf(stderr, "# seed %llu\n", (unsigned long long)seed);
   Rng_seed(&g_rng, seed);
   fillInputs();
   memset(g_out, 0xff, sizeof g_out);
   Buffer *in = NULL, *out = NULL;
   assert_int_equal(be->alloc(ctx, sizeof g_in, &in, err, sizeof err), BACKEND_OK);
   assert_int_equal(be->alloc(ctx, sizeof g_out, &out, err, sizeof err), BACKEND_OK);
   assert_int_equal(be->write(ctx, in, g_in, sizeof g_in, err, sizeof err), BACKEND_OK);
   assert_int_equal(be->write(ctx, out, g_out, sizeof g_out, err, sizeof err), BACKEND_OK);
   KernelArg args[2] = {{.kind = ARG_BUFFER, .buffer = in}, {.kind = ARG_BUFFER, .buffer = out}};
   size_t global[1] = {64}, local[1] = {64};
   if (be->launch(ctx, k, args, 2, false, 1, global, local, NULL, err, sizeof err) != BACKEND_OK ||
       be->finish(ctx, err, sizeof err) != BACKEND_OK)
      fail_msg("probe launch failed: %s", err);
   assert_int_equal(be->read(ctx, out, g_out, sizeof g_out, err, sizeof err), BACKEND_OK);
   be->free(in);
   be->free(out);
   be->releaseKernel(k);
   be->releaseProgram(prog);
   be->close(ctx);

   checkMma();
   checkLdmatrix();
   checkCpAsync();
   checkCvt();
}

int main(void) {
   const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_helpers),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
