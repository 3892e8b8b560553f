/* The Hopper path's CPU side: the metadata (arch, dynamic_smem, tma), the geometry and
 * tensor map parameters computed from it, the refusals with their reasons, the swizzle
 * address functions and the bank model of each swizzle mode. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend_cuda.h"
#include "base/rng.h"
#include "core/analyse/banks.h"
#include "core/model/catalog.h"
#include "core/model/config.h"
#include "core/model/scales.h"
#include "core/sweep/sweep.h"
#include "core/analyse/swizzle.h"

static const char *HOPPER =
    "/*@gemmtop\n"
    "name: hop\n"
    "param: BM = 128 in 64, 128\n"
    "param: BK = 32 in 16, 32, 64\n"
    "param: SW = 128 in 0, 16, 32, 64, 128\n"
    "arch: sm_90a\n"
    "global: N, M\n"
    "local: 128, 1\n"
    "operands: A=N B=T\n"
    "dynamic_smem: 2 * BM * BK * REAL_SIZE + 1024\n"
    "tma: A box=(SW == 0 ? 16 : SW) / REAL_SIZE,BM swizzle=SW\n"
    "tma: B swizzle=SW box=BK, 64\n"
    "*/\n";

static DeviceLimits h100(void) {
   DeviceLimits l = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .local_mem_optin = 232448,
                     .fp64 = true, .warp = 32, .dynamic_smem = true};
   return l;
}

static Problem square(int n) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = n;
   return p;
}

static void parse(KernelInfo *k, const char *text) {
   char err[512];
   if (!KernelInfo_parse(k, text, "hop.cl", err, sizeof err))
      fail_msg("%s", err);
}

static void test_metadata(void **state) {
   (void)state;
   KernelInfo k;
   parse(&k, HOPPER);
   assert_string_equal(k.arch, "sm_90a");
   assert_string_equal(k.dynamic_smem, "2 * BM * BK * REAL_SIZE + 1024");
   assert_int_equal(k.ntma, 2);
   assert_int_equal(k.tma[0].operand, 'A');
   assert_string_equal(k.tma[0].box[0], "(SW == 0 ? 16 : SW) / REAL_SIZE");
   assert_string_equal(k.tma[0].box[1], "BM");
   assert_string_equal(k.tma[0].swizzle, "SW");
   /* keys in either order, spaces inside the expressions */
   assert_int_equal(k.tma[1].operand, 'B');
   assert_string_equal(k.tma[1].box[0], "BK");
   assert_string_equal(k.tma[1].box[1], "64");
   assert_string_equal(k.tma[1].swizzle, "SW");
   KernelInfo_free(&k);
}

/* Each bad line is refused with a message that says what is wrong. */
static void test_metadata_errors(void **state) {
   (void)state;
   static const struct {
      const char *line, *want;
   } cases[] = {
       {"arch: sm_89", "sm_90a is"},
       {"tma: C box=1,2", "A or B"},
       {"tma: A swizzle=128", "box=INNER,OUTER"},
       {"tma: A box=16 swizzle=128", "two expressions"},
       {"tma: A box=16,8,4", "two expressions"},
       {"tma: A box=16,8 swizzle=", "swizzle= needs"},
       {"tma: A fast box=16,8", "box=INNER,OUTER and optionally"},
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      char text[512], err[512];
      snprintf(text, sizeof text, "/*@gemmtop\nname: x\nglobal: 1\nlocal: 1\n%s\n*/\n", cases[i].line);
      KernelInfo k;
      assert_false(KernelInfo_parse(&k, text, "x.cl", err, sizeof err));
      if (!strstr(err, cases[i].want))
         fail_msg("'%s': '%s' lacks '%s'", cases[i].line, err, cases[i].want);
   }
   KernelInfo k;
   char err[512];
   assert_false(KernelInfo_parse(&k, "/*@gemmtop\nglobal: 1\nlocal: 1\ntma: A box=1,2\ntma: A box=1,2\n*/", "x.cl", err,
                                 sizeof err));
   assert_non_null(strstr(err, "two tensor maps"));
}

/* The geometry carries the dynamic shared memory and each tensor map's box and swizzle;
 * the defines ask for the sm_90a target. */
static void test_geometry(void **state) {
   (void)state;
   KernelInfo k;
   parse(&k, HOPPER);
   long long v[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&k, v);
   Problem p = square(1024);
   DeviceLimits l = h100();
   Geometry g;
   char msg[1024];
   assert_true(Config_check(&k, v, &p, &l, &g, msg, sizeof msg));
   assert_int_equal(g.dynamic_smem, 2 * 128 * 32 * 4 + 1024);
   assert_int_equal(g.ntma, 2);
   assert_int_equal(g.tma[0].operand, 'A');
   assert_int_equal(g.tma[0].box[0], 32); /* 128 bytes of floats */
   assert_int_equal(g.tma[0].box[1], 128);
   assert_int_equal(g.tma[0].swizzle, 128);
   assert_int_equal(g.tma[1].box[0], 32);
   assert_int_equal(g.tma[1].box[1], 64);
   assert_true(g.trans_b);
   char defines[512];
   Config_defines(&k, v, &p, &g, defines, sizeof defines);
   assert_non_null(strstr(defines, "-DGT_ARCH_SPECIFIC=1"));
   assert_true(Cuda_archSpecific(defines));
   assert_false(Cuda_archSpecific("-DTS=16 -DDOUBLE=0"));
   /* no swizzle: boxes of 16 bytes */
   v[2] = 0;
   assert_true(Config_check(&k, v, &p, &l, &g, msg, sizeof msg));
   assert_int_equal(g.tma[0].box[0], 4);
   assert_int_equal(g.tma[0].swizzle, 0);
   KernelInfo_free(&k);
}

/* Step 5 in clusters of two (the shipped kernel): M rounds up to two block rows, the
 * grid is a whole number of clusters and each block copies half of B's rows. */
static void test_cluster_geometry(void **state) {
   (void)state;
   Catalog cat;
   char err[512], msg[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   const KernelInfo *k = Catalog_find(&cat, "hopper5_order");
   assert_non_null(k);
   long long v[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(k, v);
   const char *names[] = {"CONS", "BM", "BN", "BK", "SW", "STAGES", "BLOCKS"};
   const long long values[] = {2, 128, 256, 64, 128, 4, 1};
   for (int i = 0; i < 7; i++)
      v[KernelInfo_paramIndex(k, names[i])] = values[i];
   Problem p = square(512);
   p.m = 1100;
   p.precision = PRECISION_HALF;
   DeviceLimits l = h100();
   Geometry g;
   int cluster = KernelInfo_paramIndex(k, "CLUSTER");
   assert_true(cluster >= 0);
   v[cluster] = 1;
   assert_true(Config_check(k, v, &p, &l, &g, msg, sizeof msg));
   assert_int_equal(g.m, 1152); /* 9 block rows */
   assert_int_equal(g.tma[1].box[1], 256);
   v[cluster] = 2;
   assert_true(Config_check(k, v, &p, &l, &g, msg, sizeof msg));
   assert_int_equal(g.m, 1280); /* 10 block rows: 5 clusters high */
   assert_int_equal(g.tma[1].operand, 'B');
   assert_int_equal(g.tma[1].box[1], 128); /* each block's half of the 256 rows */
   size_t blocks = g.global[0] / g.local[0];
   assert_int_equal(blocks, (512 / 256) * (1280 / 128));
   assert_int_equal(blocks % 2, 0);
   Catalog_free(&cat);
}

static void expectRefusal(const KernelInfo *k, long long *v, const Problem *p, const DeviceLimits *l, const char *want) {
   char msg[1024];
   assert_false(Config_check(k, v, p, l, NULL, msg, sizeof msg));
   if (!strstr(msg, want))
      fail_msg("'%s' lacks '%s'", msg, want);
}

static void test_geometry_refusals(void **state) {
   (void)state;
   KernelInfo k;
   parse(&k, HOPPER);
   long long v[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&k, v);
   Problem p = square(1024);
   DeviceLimits l = h100();
   v[2] = 16; /* not a swizzle the copy engine has */
   expectRefusal(&k, v, &p, &l, "swizzle 16 bytes; the copy engine takes 0, 32, 64 or 128");
   v[2] = 32; /* B's box row (BK = 32 floats = 128 bytes) is wider than 32 bytes */
   expectRefusal(&k, v, &p, &l, "tma B: a box row of 128 bytes is wider than its swizzle span of 32 bytes");
   v[2] = 128;
   v[1] = 64; /* B's box: 64 floats = 256 bytes > 128 */
   expectRefusal(&k, v, &p, &l, "wider than its swizzle span");
   v[1] = 32;
   l.local_mem = 16384; /* a GPU of 16 KiB without opt-in */
   l.local_mem_optin = 0;
   expectRefusal(&k, v, &p, &l, "needs 33792 bytes of shared memory per group (33792 dynamic); this device allows 16384");
   KernelInfo_free(&k);
}

static ConfigTarget target(const char *backend, bool specific, const char *arch) {
   ConfigTarget t = {.backend = backend, .arch_specific = specific, .dynamic_smem = specific, .arch = arch,
                     .nvidia = true};
   return t;
}

/* Where an sm_90a kernel cannot go, the refusal names why and what works. */
static void test_targets(void **state) {
   (void)state;
   KernelInfo k;
   parse(&k, HOPPER);
   char msg[512];
   ConfigTarget t = target("CUDA", true, "sm_90");
   assert_true(Config_targetOk(&k, &t, msg, sizeof msg));
   t.arch = "sm_90a";
   assert_true(Config_targetOk(&k, &t, msg, sizeof msg));
   t.arch = ""; /* unknown: an offline compile decides */
   assert_true(Config_targetOk(&k, &t, msg, sizeof msg));
   t.arch = "sm_80";
   assert_false(Config_targetOk(&k, &t, msg, sizeof msg));
   assert_string_equal(msg, "hop needs sm_90a (Hopper: H100, H200); this target is sm_80");
   t = target("OpenCL", false, "sm_90");
   assert_false(Config_targetOk(&k, &t, msg, sizeof msg));
   assert_string_equal(msg, "hop needs sm_90a wgmma/TMA, which NVIDIA's OpenCL cannot emit: use --backend cuda");
   t = target("OpenCL", false, "");
   t.is_pocl = true;
   t.nvidia = false;
   assert_false(Config_targetOk(&k, &t, msg, sizeof msg));
   assert_non_null(strstr(msg, "hop needs sm_90a wgmma and TMA, which PoCL does not emulate"));
   t = target("HIP", false, "gfx90a");
   t.nvidia = false;
   assert_false(Config_targetOk(&k, &t, msg, sizeof msg));
   assert_non_null(strstr(msg, "the HIP backend has neither"));
   KernelInfo_free(&k);
   /* an ordinary kernel goes anywhere */
   parse(&k, "/*@gemmtop\nname: plain\nglobal: 1\nlocal: 1\n*/\n");
   t = target("OpenCL", false, "");
   t.is_pocl = true;
   assert_true(Config_targetOk(&k, &t, msg, sizeof msg));
   KernelInfo_free(&k);
}

/* A kernel that holds its tiles in dynamic shared memory where the backend gives it
 * (DYNAMIC_SMEM) and in static local memory elsewhere: one text for OpenCL and CUDA. */
static const char *EITHER = "/*@gemmtop\n"
                            "name: either\n"
                            "param: STAGES = 3 in 2, 3, 4\n"
                            "global: N, M\n"
                            "local: 128, 1\n"
                            "localmem: (1 - DYNAMIC_SMEM) * STAGES * 16384\n"
                            "dynamic_smem: DYNAMIC_SMEM * STAGES * 16384\n"
                            "*/\n";

static void test_dynamic_either(void **state) {
   (void)state;
   KernelInfo k;
   parse(&k, EITHER);
   long long v[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&k, v);
   Problem p = square(1024);
   DeviceLimits cuda = h100(), opencl = h100();
   opencl.dynamic_smem = false;
   opencl.local_mem_optin = 0;
   Geometry g;
   char msg[1024], defines[512];
   /* CUDA: the tiles in dynamic shared memory, and the kernel told so */
   assert_true(Config_check(&k, v, &p, &cuda, &g, msg, sizeof msg));
   assert_int_equal(g.localmem, 0);
   assert_int_equal(g.dynamic_smem, 3 * 16384);
   Config_defines(&k, v, &p, &g, defines, sizeof defines);
   assert_non_null(strstr(defines, "-DGT_DYNAMIC_SMEM=1"));
   /* OpenCL: static local memory, no define */
   assert_true(Config_check(&k, v, &p, &opencl, &g, msg, sizeof msg));
   assert_int_equal(g.localmem, 3 * 16384);
   assert_int_equal(g.dynamic_smem, 0);
   Config_defines(&k, v, &p, &g, defines, sizeof defines);
   assert_null(strstr(defines, "GT_DYNAMIC_SMEM"));
   /* four stages: 64 KiB, beyond static memory's 48 KiB but within CUDA's opt-in */
   v[0] = 4;
   assert_true(Config_check(&k, v, &p, &cuda, &g, msg, sizeof msg));
   assert_int_equal(g.dynamic_smem, 4 * 16384);
   assert_false(Config_check(&k, v, &p, &opencl, &g, msg, sizeof msg));
   assert_non_null(strstr(msg, "needs 65536 bytes of local memory per group; this device has 49152"));
   /* and the kernel may go to every backend */
   ConfigTarget t = {.backend = "OpenCL", .arch = "", .is_pocl = true};
   assert_true(Config_targetOk(&k, &t, msg, sizeof msg));
   KernelInfo_free(&k);
   /* a kernel that needs dynamic shared memory whatever the backend is refused without it */
   parse(&k, "/*@gemmtop\nname: dyn\nglobal: N, M\nlocal: 128, 1\ndynamic_smem: 1024\n*/\n");
   assert_false(Config_targetOk(&k, &t, msg, sizeof msg));
   assert_non_null(strstr(msg, "needs dynamic shared memory at launch"));
   KernelInfo_free(&k);
   /* and one whose DYNAMIC_SMEM expression still asks for bytes without it, by the rules */
   parse(&k, "/*@gemmtop\nname: dyn\nglobal: N, M\nlocal: 128, 1\ndynamic_smem: 1024 + DYNAMIC_SMEM\n*/\n");
   KernelInfo_defaults(&k, v);
   assert_true(Config_targetOk(&k, &t, msg, sizeof msg));
   assert_false(Config_check(&k, v, &p, &opencl, &g, msg, sizeof msg));
   assert_non_null(strstr(msg, "needs 1024 bytes of dynamic shared memory per group, which this backend does not give"));
   KernelInfo_free(&k);
}

/* CUTLASS's Swizzle<B,4,3>: 16-byte unit u of 128-byte row r lands at u ^ (r % 2^B). */
static void test_swizzle_functions(void **state) {
   (void)state;
   SwizzleFn f;
   assert_false(Swizzle_forBytes(16, &f));
   assert_true(Swizzle_forBytes(0, &f));
   for (unsigned x = 0; x < 4096; x++)
      assert_int_equal(Swizzle_apply(f, x), x);
   static const int widths[] = {32, 64, 128}, bits[] = {1, 2, 3};
   for (int w = 0; w < 3; w++) {
      assert_true(Swizzle_forBytes(widths[w], &f));
      assert_int_equal(f.bits, bits[w]);
      assert_int_equal(f.base, 4);
      assert_int_equal(f.shift, 3);
      bool seen[1024] = {false};
      for (unsigned x = 0; x < 1024; x++) {
         unsigned y = Swizzle_apply(f, x), row = x / 128, unit = x / 16 % 8;
         assert_int_equal(y % 16, x % 16);        /* a 16-byte unit stays whole */
         assert_int_equal(y / 128, row);          /* and in its 128-byte row */
         assert_int_equal(y / 16 % 8, unit ^ (row % (1u << bits[w])));
         assert_false(seen[y]);                   /* a permutation */
         seen[y] = true;
      }
   }
   /* the known 128-byte pattern: row 1's unit 0 is at 16, row 7's unit 0 at 7 * 128 + 112 */
   Swizzle_forBytes(128, &f);
   assert_int_equal(Swizzle_apply(f, 128), 128 + 16);
   assert_int_equal(Swizzle_apply(f, 7 * 128), 7 * 128 + 112);
   assert_int_equal(Swizzle_apply(f, 8 * 128), 8 * 128); /* the pattern repeats every 1024 bytes */
}

/* The kernels' tile layout: boxes of rows x W bytes; without swizzle, core-matrix columns. */
static void test_tile_layout(void **state) {
   (void)state;
   assert_int_equal(Swizzle_tileOffset(0, 128, 128, 0, 16), 128 * 16); /* next box */
   assert_int_equal(Swizzle_tileOffset(0, 128, 128, 9, 4), 9 * 16 + 4);
   assert_int_equal(Swizzle_tileOffset(128, 64, 256, 0, 128), 64 * 128); /* second 128-byte box */
   assert_int_equal(Swizzle_tileOffset(128, 64, 256, 3, 0), 3 * 128 + 3 * 16);
   assert_int_equal(Swizzle_tileOffset(32, 64, 64, 2, 16), 2 * 32 + 16 + 16 * 0); /* row 2: 32-byte pattern sees bit 7 */
   assert_int_equal(Swizzle_tileOffset(32, 64, 64, 4, 0), 4 * 32 + 16);
   assert_int_equal(Swizzle_tileOffset(-1, 64, 128, 5, 8), 5 * 128 + 8);
}

/* Each mode's modelled accesses under NVIDIA's bank model: the swizzled layouts and the
 * core-matrix columns are conflict-free; plain 128-byte rows make the read 8-way. */
static void test_bank_model(void **state) {
   (void)state;
   static const int modes[] = {0, 32, 64, 128};
   BankModel m = BankModel_nvidia();
   for (int i = 0; i < 4; i++) {
      Trace t;
      char err[256];
      const int w = modes[i] ? modes[i] : 16;
      assert_true(Swizzle_modelTrace(modes[i], 128, w < 32 ? 32 : w, &t, err, sizeof err));
      assert_int_equal(t.count, 96);
      BankAnalysis a;
      assert_true(BankAnalysis_run(&a, &t, &m, err, sizeof err));
      assert_int_equal(a.nsites, 3);
      for (int s = 0; s < 2; s++) {
         assert_int_equal(a.sites[s].requests, 1);
         assert_int_equal(a.sites[s].ideal, 4);
         if (a.sites[s].wavefronts != 4)
            fail_msg("swizzle %d, site %d: %lld wavefronts", modes[i], s, a.sites[s].wavefronts);
      }
      assert_int_equal(a.sites[2].wavefronts, 32);
      /* the grid: lane 1 of the read is row 1, in a different bank group than row 0 */
      BankGrid *g = malloc(sizeof *g);
      assert_non_null(g);
      assert_true(BankAnalysis_grid(&a, BankAnalysis_request(&a, 1, 0, 0, 0), g));
      assert_int_equal(g->wavefronts, 4);
      int bank0 = -1, bank1 = -1;
      for (int b = 0; b < g->banks; b++) {
         if (g->pass[0][b] >= 0 && bank0 < 0)
            bank0 = b;
         if (g->pass[1][b] >= 0 && bank1 < 0)
            bank1 = b;
      }
      assert_true(bank0 >= 0 && bank1 >= 0 && bank0 / 4 != bank1 / 4);
      free(g);
      BankAnalysis_free(&a);
      Trace_free(&t);
   }
   Trace t;
   char err[256];
   assert_false(Swizzle_modelTrace(48, 128, 128, &t, err, sizeof err));
   assert_non_null(strstr(err, "0, 32, 64 or 128"));
}

/* The copy engine moves FP8 as bytes: a tensor map of 1-byte elements is UINT8 (a map of
 * 4-byte words over FP8 would count 4 elements as one); other widths are refused. */
static void test_tensor_map_types(void **state) {
   (void)state;
   assert_int_equal(Cuda_tensorMapDataType(1), 0); /* CU_TENSOR_MAP_DATA_TYPE_UINT8 */
   assert_int_equal(Cuda_tensorMapDataType(2), 1); /* UINT16 */
   assert_int_equal(Cuda_tensorMapDataType(4), 2); /* UINT32 */
   assert_int_equal(Cuda_tensorMapDataType(8), -1);
   assert_int_equal(Cuda_tensorMapDataType(0), -1);
}

static const char *const FP8_STEPS[] = {"fp8h1_wgmma",     "fp8h2_blockscale", "fp8h3_persistent",
                                        "fp8h4_bulkstore", "fp8h5_cluster",    "fp8h6_hybrid"};
#define FP8_NSTEPS (int)(sizeof FP8_STEPS / sizeof FP8_STEPS[0])

static long long paramOf(const KernelInfo *k, const long long *v, const char *name) {
   const int i = KernelInfo_paramIndex(k, name);
   return i >= 0 ? v[i] : -1;
}

/* The hopper-fp8 ladder at an odd size in both formats and both scalings: K rounds up to
 * 128-deep k-blocks (one TMA box row of 128 FP8 bytes, the scales' block), M and N to the
 * tile (M to a cluster's rows), each operand's box is 128 bytes wide under the 128-byte
 * swizzle, the stages fit an H100's shared memory, and the persistent steps launch one
 * block (cluster) per multiprocessor at most. Step 1 refuses block scales, the others
 * refuse them without promotion, take 192-column tiles, which span two of B's scale
 * blocks, and refuse them with 128 rows per consumer (registers). */
static void test_fp8_steps(void **state) {
   (void)state;
   Catalog cat;
   char err[512], msg[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   DeviceLimits l = h100();
   l.compute_units = 132;
   for (int i = 0; i < FP8_NSTEPS; i++) {
      const KernelInfo *k = Catalog_find(&cat, FP8_STEPS[i]);
      assert_non_null(k);
      assert_string_equal(k->ladder, "hopper-fp8");
      assert_int_equal(k->step, i + 1);
      assert_string_equal(k->arch, "sm_90a");
      assert_true(k->gpu_run); /* verified on an H200 on 2026-11-29 (step 6 on 2026-11-30) */
      long long v[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(k, v);
      const long long bm = paramOf(k, v, "BM"), bn = paramOf(k, v, "BN"), cluster = paramOf(k, v, "CLUSTER");
      const long long rowsPerUnit = bm * (cluster > 0 ? cluster : 1);
      for (int prec = PRECISION_E4M3; prec <= PRECISION_E5M2; prec++)
         for (int sc = SCALING_TENSOR; sc <= SCALING_BLOCK; sc++) {
            Problem p = square(1000);
            p.n = 520;
            p.k = 1030;
            p.precision = (Precision)prec;
            p.scaling = (Scaling)sc;
            Geometry g;
            const bool ok = Config_check(k, v, &p, &l, &g, msg, sizeof msg);
            if (i == 0 && sc == SCALING_BLOCK) {
               assert_false(ok);
               assert_non_null(strstr(msg, "block scales come at step 2"));
               continue;
            }
            if (!ok)
               fail_msg("%s %s: %s", k->name, Precision_name(p.precision), msg);
            assert_int_equal(g.k, 1152);
            assert_int_equal(g.m % rowsPerUnit, 0);
            assert_true(g.m >= 1000 && g.m < 1000 + rowsPerUnit);
            assert_int_equal(g.n % bn, 0);
            assert_true(g.trans_b);
            assert_int_equal(g.ntma, 2);
            assert_int_equal(g.tma[0].box[0], 128); /* 128 FP8 elements = 128 bytes */
            assert_int_equal(g.tma[0].box[1], bm);
            assert_int_equal(g.tma[0].swizzle, 128);
            assert_int_equal(g.tma[1].box[0], 128);
            assert_int_equal(g.tma[1].box[1], bn / (cluster > 0 ? cluster : 1)); /* each block's share of B */
            assert_true(g.dynamic_smem > 49152 && g.dynamic_smem <= 232448);
            const long long blocks = (long long)(g.global[0] / g.local[0]);
            const long long tiles = g.m / bm * (g.n / bn);
            if (i == 5) { /* the hybrid: one block per multiprocessor, stream-K over all of them */
               assert_int_equal(blocks, 132);
               /* a slot of sums per block and a flag per consumer; none for whole waves */
               assert_true(g.has_workspace);
               assert_int_equal(g.workspace, tiles % 132 ? 132 * (bm * bn + paramOf(k, v, "CONS")) * 4 : 0);
               assert_int_equal(g.fixup_dims, 0); /* the pieces are added in the kernel */
            } else if (i >= 2) /* persistent: at most one block per multiprocessor, whole clusters */
               assert_int_equal(blocks, tiles < 132 ? tiles : 132 / (cluster > 0 ? cluster : 1) * (cluster > 0 ? cluster : 1));
            else
               assert_int_equal(blocks, tiles);
         }
      Problem p = square(1024);
      p.precision = PRECISION_E4M3;
      p.scaling = SCALING_BLOCK;
      if (i > 0) {
         v[KernelInfo_paramIndex(k, "PROMOTE")] = 0;
         /* Steps 3 to 5 also take the intervals 2 and 4, with per-tensor scales only. */
         expectRefusal(k, v, &p, &l,
                       i == 1 || i == 5 ? "PROMOTE=0 is for --scaling tensor" : "PROMOTE=0, 2 and 4 are for --scaling tensor");
         KernelInfo_defaults(k, v);
         v[KernelInfo_paramIndex(k, "BN")] = 192;
         /* a 192-column tile spans two of B's scale blocks: admitted at an odd size, with
          * N padded to whole tiles (tiles start on a block and 64 columns into one) */
         p.n = 520;
         v[KernelInfo_paramIndex(k, "STAGES")] = 3; /* steps 4, 5: 4 stages and the staging need 261 KiB */
         Geometry g;
         if (!Config_check(k, v, &p, &l, &g, msg, sizeof msg))
            fail_msg("%s BN=192 block: %s", k->name, msg);
         assert_int_equal(g.n, 576);
         /* but not 128 rows per consumer: 2 x 96 x 2 sums do not fit a thread's registers */
         v[KernelInfo_paramIndex(k, "CONS")] = 1;
         expectRefusal(k, v, &p, &l, "at most 192 fit its registers");
         p.n = 1024;
         KernelInfo_defaults(k, v);
      }
      /* a consumer's sums and promoted sums must fit its registers */
      p.scaling = SCALING_TENSOR;
      v[KernelInfo_paramIndex(k, "BN")] = 256;
      expectRefusal(k, v, &p, &l, "at most 192 fit its registers");
      v[KernelInfo_paramIndex(k, "PROMOTE")] = 0;
      if (cluster > 0)
         v[KernelInfo_paramIndex(k, "CLUSTER")] = 1;
      v[KernelInfo_paramIndex(k, "STAGES")] = 3;
      if (!Config_check(k, v, &p, &l, NULL, msg, sizeof msg) && i < 3)
         fail_msg("%s BN=256 PROMOTE=0: %s", k->name, msg);
   }
   Catalog_free(&cat);
}

/* Steps 5 and 6 copy the block scales beside each stage (SCALES=1, the default): the
 * dynamic shared memory holds a region of BM + 4 floats a stage for them with block scales
 * and none per-tensor, and SCALES=0 (each consumer loading its own) is refused per-tensor,
 * which has no block scales to load. */
static void test_fp8_scales_beside_stage(void **state) {
   (void)state;
   Catalog cat;
   char err[512], msg[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   DeviceLimits l = h100();
   l.compute_units = 132;
   const char *const steps[] = {"fp8h5_cluster", "fp8h6_hybrid"};
   for (int i = 0; i < 2; i++) {
      const KernelInfo *k = Catalog_find(&cat, steps[i]);
      assert_non_null(k);
      long long v[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(k, v);
      assert_int_equal(paramOf(k, v, "SCALES"), 1);
      const long long bm = paramOf(k, v, "BM"), stages = paramOf(k, v, "STAGES");
      Problem p = square(2048);
      p.precision = PRECISION_E4M3;
      Geometry tensor, block, block0;
      p.scaling = SCALING_TENSOR;
      if (!Config_check(k, v, &p, &l, &tensor, msg, sizeof msg))
         fail_msg("%s tensor: %s", k->name, msg);
      p.scaling = SCALING_BLOCK;
      if (!Config_check(k, v, &p, &l, &block, msg, sizeof msg))
         fail_msg("%s block: %s", k->name, msg);
      assert_int_equal(block.dynamic_smem - tensor.dynamic_smem, stages * (bm + 4) * 4);
      v[KernelInfo_paramIndex(k, "SCALES")] = 0;
      if (!Config_check(k, v, &p, &l, &block0, msg, sizeof msg))
         fail_msg("%s block SCALES=0: %s", k->name, msg);
      assert_int_equal(block0.dynamic_smem, tensor.dynamic_smem);
      p.scaling = SCALING_TENSOR;
      expectRefusal(k, v, &p, &l, "--scaling tensor has none");
   }
   Catalog_free(&cat);
}

/* The space tools/gpu/gpu_fp8_sweep.sh searches with block scales (step 5 at 8192, e4m3,
 * PROMOTE=1 and GROUP=8 fixed; CONS, BM, BN, STAGES and CLUSTER free) holds 192-column tiles
 * now that each 64 columns take their own scale block: 64 rows per consumer, 128 x 192 at
 * most 3 stages (4 do not fit shared memory), never 128 rows per consumer (registers). */
static void test_fp8_block_sweep_space(void **state) {
   (void)state;
   Catalog cat;
   char err[512];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   const KernelInfo *k = Catalog_find(&cat, "fp8h5_cluster");
   assert_non_null(k);
   DeviceLimits l = h100();
   l.compute_units = 132;
   Problem p = square(8192);
   p.precision = PRECISION_E4M3;
   p.scaling = SCALING_BLOCK;
   long long base[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(k, base);
   unsigned free_mask = 0;
   const char *const freeParams[] = {"CONS", "BM", "BN", "STAGES", "CLUSTER"};
   for (int i = 0; i < 5; i++)
      free_mask |= 1u << KernelInfo_paramIndex(k, freeParams[i]);
   Rng rng;
   Rng_seed(&rng, Rng_freshSeed());
   SweepSpace sp;
   assert_true(Sweep_enumerate(k, base, free_mask, &p, &l, &rng, &sp));
   int bn192 = 0;
   for (int i = 0; i < sp.count; i++) {
      const long long *v = sp.cands[i].values;
      if (paramOf(k, v, "BN") != 192)
         continue;
      bn192++;
      assert_int_equal(paramOf(k, v, "BM") / paramOf(k, v, "CONS"), 64);
      if (paramOf(k, v, "BM") == 128) /* 4 stages of 128 x 192 and the staging area: 261 KiB */
         assert_true(paramOf(k, v, "STAGES") <= 3);
      assert_int_equal(paramOf(k, v, "PROMOTE"), 1);
   }
   /* CONS 1 with BM 64 and CONS 2 with BM 128; STAGES 2 and 3 (and more for BM 64); CLUSTER 1, 2 */
   assert_true(bn192 >= 8);
   SweepSpace_free(&sp);
   Catalog_free(&cat);
}

/* What the FP8 steps assume of the layouts. (1) A stage row is one 128-byte box row under
 * the 128-byte swizzle: the tile is the swizzle of plain 128-byte rows, so a wgmma k-step's
 * descriptor is the tile's start plus 32 bytes per k-step (the hardware swizzles the
 * address). (2) With block scales a consumer reads SA[row * kblocks + t] and SB[t * nblocks +
 * col0 / 128 + q] for k-block t over the padded geometry: the scales of the problem's blocks
 * where they cover it, 1 in the padding. */
static void test_fp8_layouts(void **state) {
   (void)state;
   SwizzleFn f;
   assert_true(Swizzle_forBytes(128, &f));
   for (int row = 0; row < 128; row++)
      for (int kbyte = 0; kbyte < 128; kbyte++)
         assert_int_equal(Swizzle_tileOffset(128, 128, 128, row, kbyte), Swizzle_apply(f, (unsigned)(row * 128 + kbyte)));
   Problem p = square(1000);
   p.n = 520;
   p.k = 1030;
   p.precision = PRECISION_E4M3;
   p.scaling = SCALING_BLOCK;
   const int gm = 1024, gn = 640, gk = 1152, kblocks = gk / 128, nblocks = (gn + 127) / 128;
   size_t na = Scales_count(&p, true), nb = Scales_count(&p, false), ca, cb;
   float *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb);
   assert_non_null(sa);
   assert_non_null(sb);
   for (size_t i = 0; i < na; i++)
      sa[i] = 1.0f + (float)i / 64.0f;
   for (size_t i = 0; i < nb; i++)
      sb[i] = 2.0f + (float)i / 8.0f;
   float *pa = Scales_padded(&p, true, sa, gm, gn, gk, &ca), *pb = Scales_padded(&p, false, sb, gm, gn, gk, &cb);
   assert_non_null(pa);
   assert_non_null(pb);
   assert_int_equal(ca, (size_t)gm * kblocks);
   assert_int_equal(cb, (size_t)kblocks * nblocks);
   for (int row = 0; row < gm; row++)
      for (int t = 0; t < kblocks; t++) {
         const float want = row < p.m && t * 128 < p.k ? sa[Scales_indexA(&p, (size_t)row, (size_t)t * 128)] : 1.0f;
         assert_true(pa[(size_t)row * kblocks + t] == want);
      }
   for (int col0 = 0; col0 < gn; col0 += 64) /* BN = 64: a tile lies in one block */
      for (int t = 0; t < kblocks; t++) {
         const int block0 = col0 / 128 * 128; /* the block's first column: in the problem, or padding */
         const float want = block0 < p.n && t * 128 < p.k ? sb[Scales_indexB(&p, (size_t)t * 128, (size_t)block0)] : 1.0f;
         assert_true(pb[(size_t)t * nblocks + col0 / 128] == want);
      }
   free(pa);
   free(pb);
   free(sa);
   free(sb);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_metadata),          cmocka_unit_test(test_metadata_errors),
       cmocka_unit_test(test_geometry),          cmocka_unit_test(test_geometry_refusals),
       cmocka_unit_test(test_targets),           cmocka_unit_test(test_swizzle_functions),
       cmocka_unit_test(test_tile_layout),       cmocka_unit_test(test_bank_model),
       cmocka_unit_test(test_cluster_geometry),  cmocka_unit_test(test_dynamic_either),
       cmocka_unit_test(test_tensor_map_types),  cmocka_unit_test(test_fp8_steps),
       cmocka_unit_test(test_fp8_scales_beside_stage),
      cmocka_unit_test(test_fp8_block_sweep_space),
       cmocka_unit_test(test_fp8_layouts),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
