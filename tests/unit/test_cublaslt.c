/* cuBLASLt's FP8 GEMM (backend/cublaslt.h) without a GPU: a made-up cuBLASLt
 * (fake_cublaslt.c, loaded from beside this test through $GEMMTOP_CUBLASLT) that multiplies
 * on host memory as the real one lays operands and scales, and a made-up device whose
 * clock each call moves by its algorithm's scripted time. Checked: the refusals (no
 * library, no handle, no FP8 on the device, no block-scale mode, block scales with a
 * bfloat16 C only, a library without the scale-mode attributes, a layout other than K-major, e5m2 x e5m2, K not a multiple of 16,
 * a bfloat16 C with beta), each naming what is missing and never running another mode in
 * its place; the argument mapping (TN, the leading dimensions, A and B swapped into
 * column-major, the scale modes and their layouts, FP32 and bfloat16 C) by C against a
 * product of gemmtop's own layout on fresh random inputs; the fastest algorithm kept and
 * reused; scales uploaded once per generation; nothing leaked. And the engine's side on
 * PoCL: operands stored otherwise are handed over K-major, transposed by the helper kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/cublaslt.h"
#include "base/rng.h"
#include "core/catalog.h"
#include "core/scales.h"
#include "core/session_internal.h"
#include "fake_cublaslt.h"
#include "testing.h"

static char g_fake[PATH_MAX];
static FakeLtScriptFn *g_script;
static FakeLtCallsFn *g_calls;

/* ---- the made-up device: host memory, a clock the library moves ---- */

typedef struct FakeDevice_ {
   int allocs, releases, uploads;
} FakeDevice;

static int devAlloc(void *self, size_t bytes, unsigned long long *ptr) {
   void *p = malloc(bytes ? bytes : 1);
   *ptr = (uintptr_t)p;
   ((FakeDevice *)self)->allocs += p != NULL;
   return p ? 0 : 2;
}
static void devRelease(void *self, unsigned long long ptr) {
   free((void *)(uintptr_t)ptr);
   ((FakeDevice *)self)->releases++;
}
static int devUpload(void *self, unsigned long long dst, const void *src, size_t bytes) {
   memcpy((void *)(uintptr_t)dst, src, bytes);
   ((FakeDevice *)self)->uploads++;
   return 0;
}
static const char *evError(int r) { return r ? "fake event error" : "no error"; }
static int evCreate(GpuEvent *ev) {
   *ev = calloc(1, sizeof(double));
   return *ev ? 0 : 1;
}
static int evRecord(GpuEvent ev, GpuStream stream) {
   (void)stream;
   *(double *)ev = g_calls()->clock_ms;
   return 0;
}
static int evSync(GpuEvent ev) { return ev ? 0 : 1; }
static int evElapsed(float *ms, GpuEvent start, GpuEvent end) {
   *ms = (float)(*(double *)end - *(double *)start);
   return 0;
}
static int evDestroy(GpuEvent ev) {
   free(ev);
   return 0;
}
static const GpuRuntime kEvents = {.name = "fake", .errorString = evError, .eventCreate = evCreate,
                                   .eventRecord = evRecord, .eventSynchronize = evSync,
                                   .eventElapsed = evElapsed, .eventDestroy = evDestroy};

static CublasLtDevice device(FakeDevice *fd) {
   memset(fd, 0, sizeof *fd);
   return (CublasLtDevice){.rt = &kEvents, .stream = NULL, .sm = 90, .self = fd, .alloc = devAlloc,
                           .release = devRelease, .upload = devUpload};
}

/* BACKEND_OK, else the test fails with what the call said. */
#define expectOk(status, err)                                                                                        \
   do {                                                                                                              \
      BackendStatus st_ = (status);                                                                                  \
      if (st_ != BACKEND_OK)                                                                                         \
         fail_msg("%s: %s", Backend_statusName(st_), (err));                                                         \
   } while (0)

static FakeLtScript h200(void) {
   FakeLtScript s = {.version = 130100, .fp8 = true, .block = true, .scale_modes = true, .algos = 4,
                     .algo_ms = {2.0, 1.5, 3.0, 2.5}};
   return s;
}

/* ---- one GEMM on fresh random operands ---- */

typedef struct Case_ {
   Problem p;            /* gemmtop's problem: A stored M x K, B stored N x K (layout NT) */
   uint8_t *a, *b;       /* the FP8 patterns */
   float *sa, *sb;       /* gemmtop's scales (core/scales.h) */
   float *c;             /* C, written in place (FP32, or bfloat16 patterns when asked) */
   double *c0;           /* C before the call */
   uint64_t seed;
} Case;

static Case makeCase(int m, int n, int k, Precision prec, Scaling scaling, double alpha, double beta) {
   Case c = {.p = {.m = m, .n = n, .k = k, .precision = prec, .trans_a = false, .trans_b = true, .alpha = alpha,
                   .beta = beta, .scaling = scaling},
             .seed = Rng_freshSeed()};
   Rng rng;
   Rng_seed(&rng, c.seed);
   const Storage st = Types_of(prec)->in;
   c.a = malloc((size_t)m * k);
   c.b = malloc((size_t)n * k);
   c.sa = malloc(Scales_count(&c.p, true) * sizeof *c.sa);
   c.sb = malloc(Scales_count(&c.p, false) * sizeof *c.sb);
   c.c = malloc((size_t)m * n * sizeof *c.c);
   c.c0 = malloc((size_t)m * n * sizeof *c.c0);
   assert_true(c.a && c.b && c.sa && c.sb && c.c && c.c0);
   for (size_t i = 0; i < (size_t)m * k; i++)
      Storage_store(st, c.a, i, Rng_range(&rng, -4, 4));
   for (size_t i = 0; i < (size_t)n * k; i++)
      Storage_store(st, c.b, i, Rng_range(&rng, -4, 4));
   /* Scales a power of two apart from block to block: a wrong block's scale is far off. */
   for (size_t i = 0; i < Scales_count(&c.p, true); i++)
      c.sa[i] = (float)ldexp(Rng_range(&rng, 1, 2), (int)Rng_below(&rng, 9) - 4);
   for (size_t i = 0; i < Scales_count(&c.p, false); i++)
      c.sb[i] = (float)ldexp(Rng_range(&rng, 1, 2), (int)Rng_below(&rng, 9) - 4);
   for (size_t i = 0; i < (size_t)m * n; i++) {
      c.c0[i] = Rng_range(&rng, -1, 1);
      c.c[i] = beta != 0 ? (float)c.c0[i] : NAN; /* written everywhere or caught */
   }
   return c;
}

static void freeCase(Case *c) {
   free(c->a);
   free(c->b);
   free(c->sa);
   free(c->sb);
   free(c->c);
   free(c->c0);
}

static BackendGemm gemmOf(const Case *c, bool bf16, unsigned long generation) {
   return (BackendGemm){.m = c->p.m, .n = c->p.n, .k = c->p.k, .precision = c->p.precision, .trans_a = c->p.trans_a,
                        .trans_b = c->p.trans_b, .alpha = c->p.alpha, .beta = c->p.beta,
                        .scales = c->p.scaling == SCALING_BLOCK ? BACKEND_SCALES_BLOCK : BACKEND_SCALES_TENSOR,
                        .scale_a = c->sa, .scale_b = c->sb, .scales_generation = generation, .c_bf16 = bf16};
}

static BackendStatus call(CublasLt **lt, const CublasLtDevice *dev, const Case *c, bool bf16, unsigned long generation,
                          BackendVendorCall *out, char *err, size_t errlen) {
   const BackendGemm g = gemmOf(c, bf16, generation);
   err[0] = '\0';
   return CublasLt_gemm(lt, dev, &g, (uintptr_t)c->a, (uintptr_t)c->b, (uintptr_t)c->c, out, err, errlen);
}

/* C against alpha op(A) op(B) + beta C0 in gemmtop's own layout and scales, within the
 * rounding of C's type (FP32, or bfloat16 when bf16). */
static void checkProduct(const Case *c, bool bf16) {
   const Problem *p = &c->p;
   const Storage st = Types_of(p->precision)->in;
   const double eps = bf16 ? 0x1p-8 : 0x1p-23;
   for (size_t i = 0; i < (size_t)p->m; i++)
      for (size_t j = 0; j < (size_t)p->n; j++) {
         double sum = 0, mag = 0;
         for (size_t k = 0; k < (size_t)p->k; k++) {
            double a = Storage_load(st, c->a, Scales_storedA(p, i, k)) * c->sa[Scales_indexA(p, i, k)];
            double b = Storage_load(st, c->b, Scales_storedB(p, k, j)) * c->sb[Scales_indexB(p, k, j)];
            sum += a * b;
            mag += fabs(a * b);
         }
         double ref = p->alpha * sum + p->beta * c->c0[i * p->n + j];
         double bound = 2 * eps * (fabs(p->alpha) * mag + fabs(p->beta * c->c0[i * p->n + j])) + 1e-30;
         double got = bf16 ? Storage_load(STORAGE_BF16, c->c, i * p->n + j) : c->c[i * p->n + j];
         if (!(fabs(got - ref) <= bound))
            fail_msg("seed %llu, %s %dx%dx%d: C[%zu][%zu] = %.9g, want %.9g (bound %.3g)", (unsigned long long)c->seed,
                     Scaling_name(p->scaling), p->m, p->n, p->k, i, j, got, ref, bound);
      }
}

/* ---- refusals ---- */

static void test_absent_library(void **state) {
   (void)state;
   setenv("GEMMTOP_CUBLASLT", "/nonexistent/libcublasLt.so.13", 1);
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   Case c = makeCase(32, 32, 32, PRECISION_E4M3, SCALING_TENSOR, 1, 0);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   assert_int_equal(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), BACKEND_ERR_NO_RUNTIME);
   assert_non_null(strstr(err, "cuBLASLt is not available"));
   assert_non_null(strstr(err, "/nonexistent/libcublasLt.so.13"));
   assert_string_equal(out.name, "cuBLASLt e4m3 tensor");
   /* Asked again: the same answer, no second search for the file. */
   assert_int_equal(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), BACKEND_ERR_NO_RUNTIME);
   CublasLt_free(lt, &dev);
   assert_int_equal(fd.allocs, fd.releases);
   setenv("GEMMTOP_CUBLASLT", g_fake, 1);
   freeCase(&c);
}

static void test_no_handle(void **state) {
   (void)state;
   FakeLtScript s = h200();
   s.create_status = 1; /* CUBLAS_STATUS_NOT_INITIALIZED: no driver */
   g_script(&s);
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   Case c = makeCase(32, 32, 32, PRECISION_E4M3, SCALING_TENSOR, 1, 0);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   assert_int_equal(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), BACKEND_ERR_NO_RUNTIME);
   assert_non_null(strstr(err, "cublasLtCreate failed"));
   assert_int_equal(g_calls()->matmuls, 0);
   CublasLt_free(lt, &dev);
   assert_int_equal(g_calls()->destroys, 0); /* nothing to destroy */
   freeCase(&c);
}

static void test_no_fp8_on_the_device(void **state) {
   (void)state;
   FakeLtScript s = h200();
   s.fp8 = false;
   g_script(&s);
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   dev.sm = 80;
   Case c = makeCase(64, 48, 64, PRECISION_E4M3, SCALING_TENSOR, 1, 0);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   assert_int_equal(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "cuBLASLt has no FP8 GEMM for e4m3 x e4m3 on this device (sm_80)"));
   assert_non_null(strstr(err, "sm_89 or newer"));
   assert_non_null(strstr(err, "CUBLAS_STATUS_NOT_SUPPORTED"));
   assert_string_equal(out.name, "cuBLASLt 13.1.0 e4m3 tensor");
   assert_int_equal(g_calls()->matmuls, 0);
   CublasLt_free(lt, &dev);
   assert_int_equal(g_calls()->live_objects, 0);
   assert_int_equal(fd.allocs, fd.releases);
   freeCase(&c);
}

/* Without block scales on the device the block-scaled call is refused, named, and nothing
 * runs in its place; per-tensor scales on the same library still run. */
static void test_no_block_scales(void **state) {
   (void)state;
   FakeLtScript s = h200();
   s.block = false;
   g_script(&s);
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   Case blk = makeCase(64, 48, 256, PRECISION_E4M3, SCALING_BLOCK, 1, 0);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   assert_int_equal(call(&lt, &dev, &blk, false, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "cuBLASLt has no block-scaled FP8 on this device (sm_90)"));
   assert_non_null(strstr(err, "VEC128_32F"));
   assert_non_null(strstr(err, "not put in its place"));
   assert_string_equal(out.name, "cuBLASLt 13.1.0 e4m3 block");
   assert_int_equal(g_calls()->matmuls, 0);
   Case ten = makeCase(64, 48, 256, PRECISION_E4M3, SCALING_TENSOR, 1, 0);
   expectOk(call(&lt, &dev, &ten, false, 2, &out, err, sizeof err), err);
   checkProduct(&ten, false);
   CublasLt_free(lt, &dev);
   freeCase(&blk);
   freeCase(&ten);
}

/* Block scales offered with a bfloat16 C only: the FP32 call is refused saying so, and
 * nothing runs in its place; the bfloat16 call runs. */
static void test_block_scales_bf16_only(void **state) {
   (void)state;
   FakeLtScript s = h200();
   s.block_bf16_only = true;
   g_script(&s);
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   Case c = makeCase(64, 48, 256, PRECISION_E4M3, SCALING_BLOCK, 1, 0);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   assert_int_equal(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "with a bfloat16 C only, none with gemmtop's FP32 C"));
   assert_int_equal(g_calls()->matmuls, 0);
   expectOk(call(&lt, &dev, &c, true, 1, &out, err, sizeof err), err);
   checkProduct(&c, true);
   CublasLt_free(lt, &dev);
   assert_int_equal(g_calls()->live_objects, 0);
   freeCase(&c);
}

/* A cuBLASLt older than the scale-mode attributes: refused when the descriptor is made. */
static void test_library_without_scale_modes(void **state) {
   (void)state;
   FakeLtScript s = h200();
   s.scale_modes = false;
   g_script(&s);
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   Case c = makeCase(64, 48, 256, PRECISION_E4M3, SCALING_BLOCK, 1, 0);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   assert_int_equal(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "cuBLASLt has no block-scaled FP8 on this device"));
   assert_non_null(strstr(err, "does not take the scale modes"));
   assert_int_equal(g_calls()->heuristics, 0);
   assert_int_equal(g_calls()->matmuls, 0);
   CublasLt_free(lt, &dev);
   assert_int_equal(g_calls()->live_objects, 0);
   freeCase(&c);
}

/* gemmtop refuses before asking the library: a layout other than K-major, e5m2 x e5m2 is
 * the library's refusal, K not a multiple of 16, a bfloat16 C that would be read. */
static void test_refused_problems(void **state) {
   (void)state;
   g_script(&(FakeLtScript){.version = 130100, .fp8 = true, .block = true, .scale_modes = true, .algos = 2,
                            .algo_ms = {1, 1}});
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   static const struct {
      bool trans_a, trans_b;
      const char *stored;
   } layouts[] = {{false, false, "B stored K x N"}, {true, true, "A stored K x M"}, {true, false, "A stored K x M"}};
   for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++) {
      Case c = makeCase(32, 32, 64, PRECISION_E4M3, SCALING_TENSOR, 1, 0);
      c.p.trans_a = layouts[i].trans_a;
      c.p.trans_b = layouts[i].trans_b;
      assert_int_equal(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
      assert_non_null(strstr(err, "takes A and B with K contiguous only"));
      assert_non_null(strstr(err, layouts[i].stored));
      freeCase(&c);
   }
   Case k = makeCase(32, 32, 72, PRECISION_E4M3, SCALING_TENSOR, 1, 0);
   assert_int_equal(call(&lt, &dev, &k, false, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "K a multiple of 16 (rows of A and B 16-byte aligned); K is 72"));
   freeCase(&k);
   Case beta = makeCase(32, 32, 64, PRECISION_E4M3, SCALING_TENSOR, 1, 0.5);
   assert_int_equal(call(&lt, &dev, &beta, true, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "beta = 0 only"));
   assert_string_equal(out.name, "cuBLASLt e4m3 tensor, bf16 C");
   freeCase(&beta);
   assert_int_equal(g_calls()->heuristics, 0); /* none of these reached the library */
   Case e5 = makeCase(32, 32, 64, PRECISION_E5M2, SCALING_TENSOR, 1, 0);
   assert_int_equal(call(&lt, &dev, &e5, false, 1, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "no FP8 GEMM for e5m2 x e5m2"));
   assert_non_null(strstr(err, "at least one operand in e4m3"));
   assert_int_equal(g_calls()->matmuls, 0);
   freeCase(&e5);
   BackendGemm notFp8 = {.m = 8, .n = 8, .k = 16, .precision = PRECISION_BF16, .trans_b = true};
   assert_int_equal(CublasLt_gemm(&lt, &dev, &notFp8, 0, 0, 0, &out, err, sizeof err), BACKEND_ERR_UNSUPPORTED);
   assert_non_null(strstr(err, "no cuBLASLt reference for bfloat16"));
   CublasLt_free(lt, &dev);
   assert_int_equal(fd.allocs, fd.releases);
}

/* ---- the mapping ---- */

static void test_tensor_scales(void **state) {
   (void)state;
   g_script(&(FakeLtScript){.version = 130100, .fp8 = true, .block = true, .scale_modes = true, .algos = 1,
                            .algo_ms = {1}});
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   /* Odd M and N: the leading dimensions are the sizes themselves. */
   Case c = makeCase(37, 53, 96, PRECISION_E4M3, SCALING_TENSOR, -1.25, 0.75);
   expectOk(call(&lt, &dev, &c, false, 1, &out, err, sizeof err), err);
   checkProduct(&c, false);
   const FakeLtCall *last = &g_calls()->last;
   assert_int_equal(last->transa, 1); /* cuBLASLt's A (gemmtop's B) transposed: "TN" */
   assert_int_equal(last->transb, 0);
   assert_int_equal(last->compute, 68); /* CUBLAS_COMPUTE_32F */
   assert_int_equal(last->scale_type, 0);
   assert_int_equal(last->a_type, 28);  /* CUDA_R_8F_E4M3 */
   assert_int_equal(last->b_type, 28);
   assert_int_equal(last->c_type, 0);
   assert_int_equal(last->d_type, 0);
   assert_true(last->a_rows == 96 && last->a_cols == 53 && last->lda == 96);
   assert_true(last->b_rows == 96 && last->b_cols == 37 && last->ldb == 96);
   assert_true(last->d_rows == 53 && last->d_cols == 37 && last->ldd == 53 && last->ldc == 53);
   assert_int_equal(last->a_scale_mode, 0);
   assert_int_equal(last->b_scale_mode, 0);
   assert_true(last->in_place);
   assert_true(last->workspace_given);
   assert_int_equal(g_calls()->requested, 8);
   assert_true(g_calls()->max_workspace >= 32ull << 20);
   assert_non_null(strstr(out.note, "per-tensor scales (SCALAR_32F)"));
   assert_non_null(strstr(out.note, "fast accumulation off"));
   /* its sums are the FP8 tensor core's, promoted every 128: verification allows for that */
   assert_true(out.fp8_accumulator);
   assert_int_equal(out.promote_interval, 128);
   freeCase(&c);
   CublasLt_free(lt, &dev);
   assert_int_equal(fd.allocs, fd.releases);
   assert_int_equal(g_calls()->live_objects, 0);
}

/* Block scales at sizes that are no multiple of 128 nor of 4 (the layouts' padding), into
 * FP32 and into bfloat16 C. */
static void test_block_scales(void **state) {
   (void)state;
   g_script(&(FakeLtScript){.version = 130100, .fp8 = true, .block = true, .scale_modes = true, .algos = 1,
                            .algo_ms = {1}});
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   static const int sizes[][3] = {{130, 259, 272}, {257, 131, 400}, {5, 300, 144}};
   for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
      for (int bf16 = 0; bf16 < 2; bf16++) {
         Case c = makeCase(sizes[i][0], sizes[i][1], sizes[i][2], PRECISION_E4M3, SCALING_BLOCK, 0.5, bf16 ? 0 : -1);
         expectOk(call(&lt, &dev, &c, bf16, 10 + i * 2 + (size_t)bf16, &out, err, sizeof err), err);
         checkProduct(&c, bf16);
         const FakeLtCall *last = &g_calls()->last;
         assert_int_equal(last->a_scale_mode, 5); /* cuBLASLt's A, gemmtop's B: BLK128x128_32F */
         assert_int_equal(last->b_scale_mode, 4); /* cuBLASLt's B, gemmtop's A: VEC128_32F */
         assert_int_equal(last->d_type, bf16 ? 14 : 0);
         assert_int_equal(last->c_type, last->d_type);
         assert_non_null(strstr(out.note, "A's 1x128 and B's 128x128 scales (VEC128_32F, BLK128x128_32F)"));
         assert_string_equal(out.name, bf16 ? "cuBLASLt 13.1.0 e4m3 block, bf16 C" : "cuBLASLt 13.1.0 e4m3 block");
         freeCase(&c);
      }
   CublasLt_free(lt, &dev);
   assert_int_equal(fd.allocs, fd.releases);
   assert_int_equal(g_calls()->live_objects, 0);
}

/* The first call of a problem times each offered algorithm once after one untimed call and
 * keeps the fastest; later calls reuse it without asking again. With beta != 0 the trials
 * leave C as it was (else C would hold beta^n C0). */
static void test_fastest_algorithm_kept(void **state) {
   (void)state;
   FakeLtScript s = h200(); /* 4 algorithms: 2.0, 1.5, 3.0, 2.5 ms */
   g_script(&s);
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   Case c = makeCase(40, 24, 128, PRECISION_E4M3, SCALING_TENSOR, 1, 2);
   expectOk(call(&lt, &dev, &c, false, 7, &out, err, sizeof err), err);
   checkProduct(&c, false);
   const FakeLtCalls *k = g_calls();
   assert_int_equal(k->heuristics, 1);
   assert_int_equal(k->runs[0], 2);
   assert_int_equal(k->runs[1], 3); /* two trials, then the call itself */
   assert_int_equal(k->runs[2], 2);
   assert_int_equal(k->runs[3], 2);
   assert_int_equal(k->last.algo, 1);
   assert_true(k->last.in_place);
   assert_true(fabs(out.ms - 1.5) < 1e-6);
   assert_non_null(strstr(out.note, "the fastest of 4 algorithms"));
   for (size_t i = 0; i < (size_t)c.p.m * c.p.n; i++) /* C0 back, as the engine does before each call */
      c.c[i] = (float)c.c0[i];
   expectOk(call(&lt, &dev, &c, false, 7, &out, err, sizeof err), err);
   checkProduct(&c, false);
   assert_int_equal(k->heuristics, 1);
   assert_int_equal(k->runs[1], 4);
   assert_int_equal(k->matmuls, 10); /* 4 x 2 trials, two calls */
   CublasLt_free(lt, &dev);
   assert_int_equal(fd.allocs, fd.releases);
   assert_int_equal(k->destroys, 1);
   freeCase(&c);
}

/* The scales go to the device when they change (a new generation, a new scaling or size),
 * not at every call. */
static void test_scales_uploaded_once(void **state) {
   (void)state;
   g_script(&(FakeLtScript){.version = 130100, .fp8 = true, .block = true, .scale_modes = true, .algos = 1,
                            .algo_ms = {1}});
   FakeDevice fd;
   CublasLtDevice dev = device(&fd);
   CublasLt *lt = NULL;
   BackendVendorCall out;
   char err[512];
   Case c = makeCase(64, 64, 128, PRECISION_E4M3, SCALING_BLOCK, 1, 0);
   expectOk(call(&lt, &dev, &c, false, 21, &out, err, sizeof err), err);
   int first = fd.uploads;
   assert_int_equal(first, 2);
   expectOk(call(&lt, &dev, &c, false, 21, &out, err, sizeof err), err);
   assert_int_equal(fd.uploads, first);
   for (size_t i = 0; i < Scales_count(&c.p, true); i++) /* new inputs: a new generation */
      c.sa[i] *= 2;
   expectOk(call(&lt, &dev, &c, false, 22, &out, err, sizeof err), err);
   assert_int_equal(fd.uploads, first + 2);
   checkProduct(&c, false);
   expectOk(call(&lt, &dev, &c, false, 0, &out, err, sizeof err), err);
   assert_int_equal(fd.uploads, first + 4); /* generation 0: always */
   CublasLt_free(lt, &dev);
   assert_int_equal(fd.allocs, fd.releases);
   freeCase(&c);
}

/* What the engine hands a library that takes K-major operands only: each layout's A and B
 * transposed on the device (PoCL, the helper kernels) into M x K and N x K, bit for bit. */
static void test_engine_hands_k_major(void **state) {
   (void)state;
   char err[2048];
   int devIndex = Testing_poclDevice(err, sizeof err);
   if (devIndex < 0)
      SKIP_BECAUSE("%s", err);
   Catalog cat;
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   Session *s = Session_open(Backend_opencl(), devIndex, &cat, err, sizeof err);
   if (!s)
      fail_msg("%s", err);
   Rng rng;
   const uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   RunResult *r = calloc(1, sizeof *r);
   assert_non_null(r);
   for (int layout = 0; layout < 4; layout++) {
      const bool ta = layout & 2, tb = layout & 1;
      const int m = 37, n = 21, k = 48;
      Problem p = {.m = m, .n = n, .k = k, .precision = PRECISION_E5M2, .trans_a = ta, .trans_b = tb, .alpha = 1};
      uint8_t *a = malloc((size_t)m * k), *b = malloc((size_t)k * n), *got = malloc((size_t)m * k + (size_t)k * n);
      assert_true(a && b && got);
      for (size_t i = 0; i < (size_t)m * k; i++)
         a[i] = (uint8_t)Rng_below(&rng, 256);
      for (size_t i = 0; i < (size_t)k * n; i++)
         b[i] = (uint8_t)Rng_below(&rng, 256);
      assert_true(Session_ensureBuffer(s, BUF_A, (size_t)m * k, r) && Session_ensureBuffer(s, BUF_B, (size_t)k * n, r));
      const Backend *be = Session_backend(s);
      assert_int_equal(be->write(s->ctx, s->bufs[BUF_A].buf, a, (size_t)m * k, err, sizeof err), BACKEND_OK);
      assert_int_equal(be->write(s->ctx, s->bufs[BUF_B].buf, b, (size_t)k * n, err, sizeof err), BACKEND_OK);
      s->uploaded_generation = 0; /* not an Inputs' upload */
      Buffer *A, *B;
      char moved[16];
      if (!Session_kMajorOperands(s, &p, &A, &B, moved, sizeof moved, r))
         fail_msg("layout %d: %s", layout, r->message);
      static const char *want[] = {"B", "", "A and B", "A"}; /* NN, NT, TN, TT */
      assert_string_equal(moved, want[layout]);
      assert_true((A == s->bufs[BUF_A].buf) == !ta);
      assert_true((B == s->bufs[BUF_B].buf) == tb);
      assert_int_equal(be->read(s->ctx, A, got, (size_t)m * k, err, sizeof err), BACKEND_OK);
      for (int i = 0; i < m; i++)
         for (int kk = 0; kk < k; kk++)
            if (got[(size_t)i * k + kk] != a[Scales_storedA(&p, (size_t)i, (size_t)kk)])
               fail_msg("seed %llu, layout %d: A[%d][%d] is not op(A)'s", (unsigned long long)seed, layout, i, kk);
      assert_int_equal(be->read(s->ctx, B, got, (size_t)k * n, err, sizeof err), BACKEND_OK);
      for (int j = 0; j < n; j++)
         for (int kk = 0; kk < k; kk++)
            if (got[(size_t)j * k + kk] != b[Scales_storedB(&p, (size_t)kk, (size_t)j)])
               fail_msg("seed %llu, layout %d: B[%d][%d] is not op(B)^T's", (unsigned long long)seed, layout, j, kk);
      free(a);
      free(b);
      free(got);
   }
   RunResult_free(r);
   free(r);
   Session_close(s);
   Catalog_free(&cat);
}

int main(void) {
   /* The made-up cuBLASLt lies beside this program. */
   char self[PATH_MAX];
   ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
   if (n <= 0)
      return 1;
   self[n] = '\0';
   *strrchr(self, '/') = '\0';
   snprintf(g_fake, sizeof g_fake, "%s/libfake_cublaslt.so", self);
   void *lib = dlopen(g_fake, RTLD_NOW | RTLD_LOCAL);
   if (!lib) {
      fprintf(stderr, "cannot load %s: %s (make %s)\n", g_fake, dlerror(), g_fake);
      return 1;
   }
   *(void **)&g_script = dlsym(lib, "FakeLt_script");
   *(void **)&g_calls = dlsym(lib, "FakeLt_calls");
   if (!g_script || !g_calls)
      return 1;
   setenv("GEMMTOP_CUBLASLT", g_fake, 1);
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_absent_library),        cmocka_unit_test(test_no_handle),
       cmocka_unit_test(test_no_fp8_on_the_device),  cmocka_unit_test(test_no_block_scales),
       cmocka_unit_test(test_block_scales_bf16_only),
       cmocka_unit_test(test_library_without_scale_modes), cmocka_unit_test(test_refused_problems),
       cmocka_unit_test(test_tensor_scales),         cmocka_unit_test(test_block_scales),
       cmocka_unit_test(test_fastest_algorithm_kept), cmocka_unit_test(test_scales_uploaded_once),
       cmocka_unit_test(test_engine_hands_k_major),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
