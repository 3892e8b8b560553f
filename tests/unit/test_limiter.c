/* What limits a configuration (core/analyse/limiter.c): the rules on known cases, each figure
 * computed by hand here, and the inputs of a real kernel's model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/analyse/banks.h"
#include "core/analyse/limiter.h"
#include "core/run/peaks.h"
#include "testing.h"

/* The shipped kernels (GEMMTOP_KERNELS when set, as the sanitizer pass sets it). */
static void loadKernels(Catalog *cat) {
   char err[1024];
   const char *env = getenv("GEMMTOP_KERNELS");
   assert_true(Catalog_load(cat, env && *env ? env : GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
}

/* An sm_90 GPU of 132 multiprocessors with the limits of an H100/H200. */
static DeviceInfo hopperGpu(void) {
   DeviceInfo dev = {0};
   dev.type = DEVICE_GPU;
   dev.vendor_kind = VENDOR_NVIDIA;
   dev.compute_units = 132;
   snprintf(dev.arch, sizeof dev.arch, "sm_90");
   dev.limits = (DeviceLimits){.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152,
                               .local_mem_optin = 232448, .fp64 = true, .warp = 32, .dynamic_smem = true,
                               .tensor_ptx = true, .tensor_sm = 90, .compute_units = 132};
   return dev;
}

/* The same GPU with the 60 MB L2 ncu reported on the H200, for the DRAM and fabric tests. */
static DeviceInfo hopperGpuL2(void) {
   DeviceInfo dev = hopperGpu();
   dev.l2_bytes = 60u << 20;
   return dev;
}

/* A size^3 bfloat16 GEMM in layout NT, as the Hopper steps take it. */
static Problem squareBf16(long long size) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = size;
   p.precision = PRECISION_BF16;
   p.trans_b = true;
   return p;
}

/* The kernel `name` of cat in values: its defaults with each of `sets` ("NAME=VALUE", a NULL
 * ends them early) applied. A kernel missing from the catalog or a refused setting fails the
 * test, saying which. */
static const KernelInfo *configuredKernel(const Catalog *cat, const char *name, long long *values,
                                          const char *const *sets, size_t n) {
   char err[1024];
   const KernelInfo *k = Catalog_find(cat, name);
   if (!k)
      fail_msg("no kernel %s in the catalog", name);
   KernelInfo_defaults(k, values);
   for (size_t i = 0; i < n && sets[i]; i++)
      if (!Config_setParam(k, values, sets[i], err, sizeof err))
         fail_msg("%s: %s", sets[i], err);
   return k;
}
#define CONFIGURED_KERNEL(cat, name, values, sets)                                                                     \
   configuredKernel((cat), (name), (values), (sets), sizeof(sets) / sizeof(sets)[0])

/* Config_check of k's values for p on dev, its geometry into r->geo: a refused configuration
 * fails the test with the checker's words. With `in` (else NULL, and peaks with it), the
 * limiter's inputs of that run too, with no trace. */
static void checkConfig(const DeviceInfo *dev, const KernelInfo *k, const long long *values, const Problem *p,
                        LimiterRun *r, const Peaks *peaks, LimiterInputs *in) {
   char err[1024];
   if (!Config_check(k, values, p, &dev->limits, &r->geo, err, sizeof err))
      fail_msg("%s: %s", k->name, err);
   if (in)
      Limiter_inputs(dev, k, values, p, r, peaks, NULL, in);
}

/* A 4096^3 FP32 GEMM on a device of 20,000 GFLOPS and 2,000 GB/s. */
static LimiterInputs base(double gflops, double flops_per_byte) {
   LimiterInputs in = {0};
   in.gflops = gflops;
   in.flops = 2.0 * 4096 * 4096 * 4096;
   in.peak_gflops = 20000;
   in.peak_label = "FP32";
   in.copy_gbps = 2000;
   in.model_bytes = in.flops / flops_per_byte;
   in.min_bytes = 3.0 * 4096 * 4096 * 4;
   return in;
}

static void test_compute_bound(void **state) {
   (void)state;
   LimiterInputs in = base(17000, 64);
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_COMPUTE);
   assert_true(fabs(l.compute_used - 0.85) < 1e-9);
   /* 17,000 GFLOPS at 64 flops per byte: 265.6 GB/s, 13.3% of 2,000. */
   assert_true(fabs(l.memory_used - 17000.0 / 64 / 2000) < 1e-9);
   assert_true(fabs(l.attainable_gflops - 20000) < 1e-6);
   assert_non_null(strstr(l.words, "compute: 85% of the measured FP32 peak"));
   assert_non_null(strstr(l.headroom, "next: global memory: 13%"));
   assert_string_equal(l.brief, "compute: 85% of the FP32 peak");
}

static void test_memory_bound(void **state) {
   (void)state;
   /* 0.5 flops per byte: the roofline is 1,000 GFLOPS; 910 is 91% of the bandwidth. */
   LimiterInputs in = base(910, 0.5);
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_MEMORY);
   assert_true(fabs(l.memory_used - 0.91) < 1e-9);
   assert_true(fabs(l.attainable_gflops - 1000) < 1e-6);
   assert_false(l.caches);
   assert_non_null(strstr(l.words, "global memory: 91% of the measured 2000 GB/s at 0.5 flops per byte"));
   assert_non_null(strstr(l.headroom, "next: compute: 5%"));
}

static void test_caches_serve_the_model(void **state) {
   (void)state;
   /* The model's 0.25 flops per byte at 5,000 GFLOPS would be 20,000 GB/s, ten times the
    * bandwidth: caches serve them; DRAM is judged by the compulsory bytes. */
   LimiterInputs in = base(5000, 0.25);
   Limiter l;
   Limiter_of(&in, &l);
   assert_true(l.caches);
   assert_true(fabs(l.memory_used - l.memory_used_min) < 1e-12);
   assert_true(l.memory_used < 0.1);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   assert_non_null(strstr(l.headroom, "compute: 25%"));
}

/* TMA's loads: the L2 answers requests for a line that arrive together once, so two thirds
 * of the model's loads are judged against it, its stores whole, all of them said beside. */
static void test_l2_tma_loads(void **state) {
   (void)state;
   /* base(): C (4096^2 floats, 67 MB) stored once. 9,000 GFLOPS at 1.2 flops per byte: the
    * model's bytes (loads and C) need 7,500 GB/s, 75% of the L2's 10,000 if all reach it. */
   LimiterInputs in = base(9000, 1.2);
   in.l2_gbps = 10000;
   in.min_read_bytes = 2.0 * 4096 * 4096 * 4;
   in.tma_loads = true;
   Limiter l;
   Limiter_of(&in, &l);
   double c = 4096.0 * 4096 * 4, loads = in.model_bytes - c, t = in.flops / 9000e9; /* seconds */
   double want = (loads * 2 / 3 + c) / t / 10000e9;
   assert_true(fabs(l.l2_used - want) < 1e-9);
   assert_true(fabs(l.l2_used_all - 0.75) < 1e-9);
   assert_false(l.l1);
   assert_true(l.l2_used < 0.6 && l.kind == LIMIT_LATENCY); /* 50%: no ceiling near */
   /* Blocks staggered in K (stream-K): the L2 answers every request, 75%, and says why. */
   in.tma_staggered = true;
   Limiter_of(&in, &l);
   assert_true(fabs(l.l2_used - 0.75) < 1e-9 && fabs(l.l2_used_all - 0.75) < 1e-9);
   assert_int_equal(l.kind, LIMIT_L2);
   assert_non_null(strstr(l.words, "by the model's loads and its stores (its blocks stand at different K steps"));
   assert_null(strstr(l.words, "two thirds"));
   in.tma_staggered = false;
   /* More loads: 120% of the L2 by all of them, two thirds of the loads about 80%. */
   in = base(9000, 0.75);
   in.l2_gbps = 10000;
   in.min_read_bytes = 2.0 * 4096 * 4096 * 4;
   in.tma_loads = true;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_L2);
   assert_non_null(strstr(l.words, "by two thirds of the model's loads and its stores"));
   assert_non_null(strstr(l.words, "all of them would be 120%"));
   assert_true(fabs(l.l2_used - 0.8) < 0.01);
   /* A split-K kernel's partial sums (a workspace of four planes of C, written where a fix-up
    * writes C): stored whole, more than C. */
   double before = l.l2_used;
   in.store_bytes = 4 * c;
   Limiter_of(&in, &l);
   assert_true(fabs(l.l2_used - before - 3 * c / t / 10000e9) < 1e-9);
   /* Without TMA, the same loads would be 1.2x the L2: the L1 must serve part of them. */
   in.tma_loads = false;
   in.store_bytes = 0;
   Limiter_of(&in, &l);
   assert_true(l.l1 && l.l2_used < 0 && l.l2_used_all < 0);
   /* Above the L2 even by two thirds of them: no share is shown, and no L1 is blamed (TMA
    * skips it). */
   in = base(9000, 0.25);
   in.l2_gbps = 10000;
   in.min_read_bytes = 2.0 * 4096 * 4096 * 4;
   in.tma_loads = true;
   Limiter_of(&in, &l);
   assert_true(l.l2_used < 0);
   assert_false(l.l1);
   assert_true(l.kind != LIMIT_L2);
}

/* Which share of TMA's loads the L2 answers, by the grid's order and waves: Hopper step 1's
 * row-by-row grid of 128 x 128 tiles fits in one wave at 2048 (256 blocks, 3 a multiprocessor
 * of 132) and its blocks move together: two thirds; at 4096 (1024 blocks) past the first wave
 * they drift apart: 0.83, and the L2's share rises with it. Step 5's banded order keeps two
 * thirds at 4096; stream-K's staggered blocks, all of them. */
static void test_tma_share_by_order(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"BM=128", "BN=128", "BK=64", "SW=128"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper1_tma", values, sets);
   Problem p = squareBf16(2048);
   LimiterRun r = {.gflops = 500000, .registers = 90, .local_mem = -1, .median_ms = 0.1};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(in.tma_loads && in.waves.known && in.waves.waves <= 1);
   assert_true(fabs(in.tma_l2_share - 2.0 / 3) < 1e-9);
   p = squareBf16(4096);
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(in.waves.waves > 1);
   assert_true(fabs(in.tma_l2_share - 0.83) < 1e-9);
   Limiter drifted, together;
   in.l2_gbps = 9400; /* the H200's measured L2 */
   Limiter_of(&in, &drifted);
   in.tma_l2_share = 2.0 / 3;
   Limiter_of(&in, &together);
   assert_true(drifted.l2_used > together.l2_used && drifted.l2_used_all == together.l2_used_all);
   const char *bandSets[] = {"BM=128", "BN=256", "BK=64", "GROUP=8", "CLUSTER=1"};
   const KernelInfo *banded = CONFIGURED_KERNEL(&cat, "hopper5_order", values, bandSets);
   checkConfig(&dev, banded, values, &p, &r, &peaks, &in);
   assert_true(in.tma_loads && r.geo.band == 8 && in.waves.waves > 1);
   assert_true(fabs(in.tma_l2_share - 2.0 / 3) < 1e-9);
   /* The same kernel's clusters multicast B: their order is no row-by-row one. */
   assert_true(Config_setParam(banded, values, "CLUSTER=2", err, sizeof err));
   checkConfig(&dev, banded, values, &p, &r, &peaks, &in);
   assert_true(r.geo.band == 0 && fabs(in.tma_l2_share - 2.0 / 3) < 1e-9);
   const char *skSets[] = {"CONS=2", "BM=128", "BN=256", "BK=64", "SW=128", "STAGES=4", "STREAMK=1"};
   const KernelInfo *sk = CONFIGURED_KERNEL(&cat, "hopper7_streamk", values, skSets);
   checkConfig(&dev, sk, values, &p, &r, &peaks, &in);
   assert_true(r.geo.staggered && in.tma_l2_share == 1);
   Catalog_free(&cat);
}

/* The same kernel with the L2's bandwidth measured (10,000 GB/s): the model's loads are
 * the L2's traffic. */
static void test_l2_bound(void **state) {
   (void)state;
   /* 1.2 flops per byte at 9,000 GFLOPS: 7,500 GB/s of loads, 75% of the L2's 10,000, and
    * 3.75 times the DRAM's 2,000: caches serve them; DRAM by the compulsory bytes. */
   LimiterInputs in = base(9000, 1.2);
   in.l2_gbps = 10000;
   Limiter l;
   Limiter_of(&in, &l);
   assert_true(l.caches);
   assert_false(l.l1);
   assert_true(fabs(l.l2_used - 0.75) < 1e-9);
   assert_int_equal(l.kind, LIMIT_L2);
   assert_non_null(strstr(l.words, "L2 cache: 75% of the measured 10000 GB/s at 1.2 flops per byte"));
   assert_string_equal(l.brief, "L2 cache: 75% of its bandwidth");
   /* compute 45% is the next ceiling */
   assert_non_null(strstr(l.headroom, "next: compute: 45%"));
   char col[64];
   Limiter_column(&l, &in, col, sizeof col);
   assert_string_equal(col, "L2 75%");
   assert_string_equal(LimitKind_name(LIMIT_L2), "L2");

   /* Below 60% of every ceiling: latency, with the L2's share in the figures. */
   in = base(3000, 1.2);
   in.l2_gbps = 10000;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   assert_non_null(strstr(l.words, "(compute 15%, memory"));
   assert_non_null(strstr(l.words, ", L2 25%)"));
   assert_non_null(strstr(l.headroom, "nearest: L2 cache: 25%"));

   /* Loads beyond even the L2's bandwidth: the L1 serves part; the L2 is not judged. */
   in = base(17000, 0.25);
   in.l2_gbps = 10000;
   Limiter_of(&in, &l);
   assert_true(l.l1);
   assert_true(l.l2_used < 0);
   assert_int_equal(l.kind, LIMIT_COMPUTE);
   assert_non_null(strstr(l.headroom, "the L1 too"));

   /* A near tie goes to compute, whose share counts exact FLOPs where the L2's is a model
    * of bytes, within 10% of the hardware's: compute 70% and 66% (0.92 of it) beside the
    * L2's 72%; at 63% (0.875 of it) and 60% the L2 stays. */
   const double computeShares[] = {0.70, 0.66, 0.63, 0.60};
   const LimitKind kinds[] = {LIMIT_COMPUTE, LIMIT_COMPUTE, LIMIT_L2, LIMIT_L2};
   for (int i = 0; i < 4; i++) {
      const double gflops = 20000 * computeShares[i];
      in = base(gflops, gflops / 7200);
      in.l2_gbps = 10000;
      Limiter_of(&in, &l);
      assert_true(fabs(l.l2_used - 0.72) < 1e-9);
      assert_true(fabs(l.compute_used - computeShares[i]) < 1e-9);
      assert_int_equal(l.kind, kinds[i]);
   }

   /* Without the L2 measured, nothing changes: the L2 is unknown. */
   in = base(9000, 1.2);
   Limiter_of(&in, &l);
   assert_true(l.l2_used < 0);
   assert_false(l.l1);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   assert_null(strstr(l.words, "L2"));
}

static void test_tail_first(void **state) {
   (void)state;
   /* 64 tiles on 132 multiprocessors at 1 each: 0.48 waves, 48% of the slots busy. */
   LimiterInputs in = base(9000, 64);
   in.waves = (Waves){.known = true, .groups = 64, .units = 132, .per_unit = 1, .full = 0,
                      .waves = 64.0 / 132, .last_fill = 64.0 / 132, .busy = 64.0 / 132};
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_TAIL);
   assert_non_null(strstr(l.words, "0.48 waves of 64 work-groups on 132 units at 1 each"));
   assert_non_null(strstr(l.words, "48% of the slots are busy"));
   assert_true(fabs(l.busy - 64.0 / 132) < 1e-12);
   /* Whole waves: not the tail. */
   in.waves.busy = 1;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LATENCY);
}

static void test_banks_then_occupancy_then_latency(void **state) {
   (void)state;
   LimiterInputs in = base(6000, 64); /* 30% of compute, 4.7% of memory: no ceiling near */
   in.bank_ratio = 4;
   in.occupancy = 0.125;
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_BANKS);
   assert_non_null(strstr(l.words, "4.00x the ideal wavefronts"));
   in.bank_ratio = 1.2;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_OCCUPANCY);
   assert_non_null(strstr(l.words, "occupancy 12%"));
   in.occupancy = 0.5;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   assert_non_null(strstr(l.words, "compute 30%, memory 5%"));
   /* Nothing measured. */
   in.gflops = 0;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_UNKNOWN);
   /* No ceilings: latency, saying how to measure them. */
   in = base(100, 4);
   in.peak_gflops = in.copy_gbps = 0;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   assert_non_null(strstr(l.words, "gemmtop list devices --measure"));
   assert_true(l.compute_used < 0 && l.memory_used < 0);
}

static void test_local_and_launch(void **state) {
   (void)state;
   /* 6,000 GFLOPS with 2 local reads of 4 bytes per multiply-add: 24,000 GB/s of local
    * reads; on a 30,000 GB/s local bandwidth, 80%: local memory limits, compute next. */
   LimiterInputs in = base(6000, 64);
   in.local_gbps = 30000;
   in.local_bytes = in.flops / 2 * 2 * 4;
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LOCAL);
   assert_true(fabs(l.local_used - 0.8) < 1e-9);
   assert_non_null(strstr(l.words, "local memory: 80% of the measured 30000 GB/s"));
   assert_non_null(strstr(l.headroom, "next: compute: 30%"));
   assert_string_equal(l.brief, "local memory: 80% of its bandwidth");
   /* Conflicts of 1.5x make the same reads 120% of the bandwidth's conflict-free figure. */
   in.bank_ratio = 1.5;
   Limiter_of(&in, &l);
   assert_true(fabs(l.local_used - 1.2) < 1e-9);
   assert_non_null(strstr(l.words, "times the bank conflicts"));
   /* A tiny launch: an empty one takes 8 of its 10 us. */
   in = base(1, 64);
   in.launch_us = 8;
   in.median_ms = 0.010;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LAUNCH);
   assert_true(fabs(l.launch_share - 0.8) < 1e-9);
   assert_non_null(strstr(l.words, "takes 8 us of this one's 10 us"));
   /* A long one: the launch is nothing. */
   in.median_ms = 10;
   Limiter_of(&in, &l);
   assert_int_not_equal(l.kind, LIMIT_LAUNCH);
}

/* No share above 100% is shown as a measurement (issue 45: local memory at 138% of the
 * measured ceiling). Local memory: the banks' bandwidth at the measured clock bounds any
 * micro-kernel, so reads below it blame the micro-kernel, above it the model. */
static void test_local_above_its_ceiling(void **state) {
   (void)state;
   /* 2 local reads of 4 bytes per multiply-add (4 bytes a flop) at 7,315 GFLOPS: 29,260
    * GB/s, 1.10x a measured 26,600; the banks give 33,454 (132 x 32 x 4 bytes at 1,980 MHz). */
   LimiterInputs in = base(7315, 64);
   in.local_gbps = 26600;
   in.local_bytes = in.flops / 2 * 2 * 4;
   in.local_banks_gbps = 132 * 32 * 4 * 1.98;
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LOCAL);
   assert_int_equal(l.local_over, OVER_CEILING);
   assert_non_null(strstr(l.words, "would need 1.10x the measured 26600 GB/s, more than it gives"));
   assert_non_null(strstr(l.words, "the micro-kernel's figure falls short of what the banks give"));
   assert_null(strstr(l.words, "%"));
   assert_string_equal(l.brief, "local memory: above its measured ceiling (the micro-kernel's)");
   char col[32];
   Limiter_column(&l, &in, col, sizeof col);
   assert_string_equal(col, "local >100%");
   /* 138%: 36,708 GB/s, more than even the banks give: the model counts reads that do not
    * reach local memory. */
   in.gflops = 26600 * 1.38 / 4;
   Limiter_of(&in, &l);
   assert_int_equal(l.local_over, OVER_CACHE);
   assert_non_null(strstr(l.words, "the model counts reads that registers or wider accesses serve"));
   assert_string_equal(l.brief, "local memory: above its measured ceiling (the model's)");
   assert_null(strstr(l.words, "138"));
   /* No bank model (a CPU): gemmtop cannot tell which, and says so. */
   in.local_banks_gbps = 0;
   Limiter_of(&in, &l);
   assert_int_equal(l.local_over, OVER_UNSURE);
   assert_non_null(strstr(l.words, "no bank model here to tell which"));
   /* As the nearest ceiling under another limiter (the tail), the same words. */
   in.waves = (Waves){.known = true, .waves = 0.5, .busy = 0.5};
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_TAIL);
   assert_non_null(strstr(l.headroom, "nearest: local memory: the model's reads would need 1.38x"));
   /* At the ceiling exactly: a share, as before. */
   in = base(6650, 64);
   in.local_gbps = 26600;
   in.local_bytes = in.flops / 2 * 2 * 4;
   Limiter_of(&in, &l);
   assert_int_equal(l.local_over, OVER_NONE);
   assert_non_null(strstr(l.words, "local memory: 100% of the measured 26600 GB/s"));
}

/* Above the compute peak: the flops are exact, so the peak's micro-kernel is short (a
 * wgmma kernel judged by mma.sync's rate ran at 113% of it). */
static void test_compute_above_its_peak(void **state) {
   (void)state;
   LimiterInputs in = base(720000, 512);
   in.peak_gflops = 638000;
   in.peak_label = "bfloat16 tensor";
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_COMPUTE);
   assert_int_equal(l.compute_over, OVER_CEILING);
   assert_non_null(strstr(l.words, "compute: 720000 GFLOPS, above the measured bfloat16 tensor peak (638000 GFLOPS)"));
   assert_non_null(strstr(l.words, "the peak's micro-kernel falls short"));
   assert_null(strstr(l.words, "113"));
   assert_string_equal(l.brief, "compute: above the measured bfloat16 tensor peak (the micro-kernel's)");
   char col[32];
   Limiter_column(&l, &in, col, sizeof col);
   assert_string_equal(col, "compute >100%");
}

/* The L2 a little above its ceiling (under CACHE_SLACK, where it stops being judged): still
 * the limiter, but no share of it (H200, 2026-12-03: swap-AB on mma.sync at 105% of the L2
 * in explain's words). Plain loads: the L1's doing; TMA's: either side's. Past the slack the
 * L1 serves part and the L2 is not judged, as before. */
static void test_l2_above_its_ceiling(void **state) {
   (void)state;
   const double overs[] = {1.001, 1.02, 1.049};
   for (int i = 0; i < 3; i++) {
      LimiterInputs in = base(6000, 6000.0 / (10000 * overs[i]));
      in.l2_gbps = 10000;
      Limiter l;
      Limiter_of(&in, &l);
      assert_int_equal(l.kind, LIMIT_L2);
      assert_int_equal(l.l2_over, OVER_CACHE);
      assert_non_null(strstr(l.words, "L2 cache: at the measured 10000 GB/s"));
      assert_non_null(strstr(l.words, "not a share: the L1 serves some of the loads the model sends to the L2"));
      assert_non_null(strstr(l.brief, "L2 cache: at its measured bandwidth"));
      char col[32];
      Limiter_column(&l, &in, col, sizeof col);
      assert_string_equal(col, "L2 >100%");
      /* TMA's loads: two thirds of them reach the L2, so 1.5 times the bytes for the same share. */
      in.tma_loads = true;
      in.model_bytes *= 1.5;
      in.min_bytes = in.min_read_bytes = 0;
      Limiter_of(&in, &l);
      assert_true(fabs(l.l2_used - overs[i]) < 1e-9);
      assert_int_equal(l.l2_over, OVER_UNSURE);
      assert_non_null(strstr(l.words, "the L2's micro-kernel falls short, or the L2 answers fewer of TMA's requests"));
   }
   /* At the ceiling: a share; past the slack: the L1 serves part, the L2 not judged. */
   LimiterInputs in = base(6000, 6000.0 / 10000);
   in.l2_gbps = 10000;
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.l2_over, OVER_NONE);
   assert_non_null(strstr(l.words, "L2 cache: 100% of the measured 10000 GB/s"));
   in = base(6000, 6000.0 / 10600);
   in.l2_gbps = 10000;
   Limiter_of(&in, &l);
   assert_int_equal(l.l2_over, OVER_NONE);
   assert_true(l.l1 && l.l2_used < 0);
}

/* Above the copy bandwidth by the compulsory bytes: operands that fit the L2 stay there
 * between launches (a cache the model does not see); larger ones put the fault on the
 * copy micro-kernel. */
static void test_memory_above_its_bandwidth(void **state) {
   (void)state;
   /* 0.02 flops per byte by the model, 1 by the compulsory bytes (flops / min_bytes set
    * below): 2,400 GFLOPS need 2,400 GB/s of compulsory bytes, 1.2x the 2,000 measured. */
   LimiterInputs in = base(2400, 0.02);
   in.min_bytes = in.flops;
   in.l2_bytes = in.min_bytes * 2;
   Limiter l;
   Limiter_of(&in, &l);
   assert_true(l.caches);
   assert_int_equal(l.kind, LIMIT_MEMORY);
   assert_int_equal(l.memory_over, OVER_CACHE);
   assert_non_null(strstr(l.words, "the compulsory bytes would need 1.20x the measured 2000 GB/s"));
   assert_non_null(strstr(l.words, "the L2 holds the operands between launches"));
   assert_string_equal(l.brief, "global memory: above the measured bandwidth (a cache the model does not see)");
   in.l2_bytes = in.min_bytes / 2;
   Limiter_of(&in, &l);
   assert_int_equal(l.memory_over, OVER_CEILING);
   assert_non_null(strstr(l.words, "the copy micro-kernel falls short"));
   /* The model's bytes a little above the bandwidth (under the 5% that says caches serve
    * them): still not a share, and a cache's doing. */
   in = base(2060, 1);
   Limiter_of(&in, &l);
   assert_false(l.caches);
   assert_int_equal(l.memory_over, OVER_CACHE);
   char col[32];
   Limiter_column(&l, &in, col, sizeof col);
   assert_string_equal(col, "memory >100%");
}

/* The issue slots: FMAs at 50% of the FP32 peak with a local load per four of them (1.25
 * instructions per multiply-add) keep 62.5% of the issue slots busy: compute, by issue.
 * With fewer loads (1.1) the slots are at 55%: no ceiling near. */
static void test_instruction_issue(void **state) {
   (void)state;
   LimiterInputs in = base(10000, 64);
   in.issue_per_fma = 1.25;
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_COMPUTE);
   assert_true(fabs(l.compute_used - 0.5) < 1e-12 && fabs(l.issue_used - 0.625) < 1e-12);
   assert_non_null(strstr(l.words, "compute (instruction issue): about 62% of the issue slots"));
   assert_string_equal(l.brief, "compute (instruction issue): 62% of the issue slots");
   char col[64];
   Limiter_column(&l, &in, col, sizeof col);
   assert_string_equal(col, "issue 62%");
   in.issue_per_fma = 1.1;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   /* Unknown (0): the FMAs alone. */
   in.issue_per_fma = 0;
   Limiter_of(&in, &l);
   assert_true(l.issue_used < 0);
   /* An FP64 kernel: its FMA peak half the SM's instruction rate (issue_gflops, the FP32
    * peak), so the same figures fill half as many issue slots: compute by the FMA pipe. */
   in.issue_per_fma = 1.25;
   in.issue_gflops = 2 * in.peak_gflops;
   Limiter_of(&in, &l);
   assert_true(fabs(l.issue_used - 0.3125) < 1e-12 && fabs(l.compute_used - 0.5) < 1e-12);
   assert_int_equal(l.kind, LIMIT_LATENCY);
}

/* A wgmma kernel built for one block per unit: its low occupancy is by design, not the
 * limiter; the same figures without that design name occupancy. */
static void test_one_block_per_unit(void **state) {
   (void)state;
   LimiterInputs in = base(10000, 64);
   in.occupancy = 0.19;
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_OCCUPANCY);
   in.one_block_per_unit = true;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   /* Its persistent grid of 132 groups over 512 tiles where two groups fit a unit: half the
    * slots, but every unit busy for 4 rounds of tiles, 97%: not the tail; the same grid of a
    * kernel that a second group can help is. */
   in.waves = (Waves){.known = true, .groups = 132, .units = 132, .per_unit = 2, .full = 0, .waves = 0.5,
                      .last_fill = 0.5, .busy = 0.5 * 512.0 / (132 * 4), .work = 512, .rounds = 4};
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   assert_true(fabs(l.busy - 512.0 / (132 * 4)) < 1e-12);
   in.one_block_per_unit = false;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_TAIL);
   assert_non_null(strstr(l.words, "0.50 waves of 132 work-groups on 132 units at 2 each"));
}

/* 3xTF32 (FP32 on wgmma) is judged by the hardware's rate for its instructions, a third of
 * the TF32 wgmma peak, while bfloat16 on wgmma keeps its own wgmma peak and FP32 on CUDA
 * cores FP32's. */
static void test_three_tf32_ceiling(void **state) {
   (void)state;
   Catalog cat;
   loadKernels(&cat);
   const KernelInfo *hopper = Catalog_find(&cat, "hopper5_order"), *naive = Catalog_find(&cat, "mygemm01_naive");
   assert_non_null(hopper);
   assert_non_null(naive);
   Peaks pk = {.known = true};
   pk.gflops[PEAK_FP32] = 60000;
   pk.gflops[PEAK_BF16] = 630000;
   pk.wgmma_gflops[PEAK_TF32] = 480000;
   pk.wgmma_gflops[PEAK_BF16] = 960000;
   const char *label = NULL;
   assert_true(fabs(Peaks_hardwareFor(&pk, PRECISION_FLOAT, hopper, false, &label) - 160000) < 1e-6);
   assert_string_equal(label, "3xTF32 (TF32 wgmma / 3)");
   assert_true(fabs(Peaks_for(&pk, PRECISION_FLOAT, hopper, false) - 60000) < 1e-6); /* % of peak stays FP32's */
   assert_true(fabs(Peaks_hardwareFor(&pk, PRECISION_BF16, hopper, false, &label) - 960000) < 1e-6);
   assert_string_equal(label, "bfloat16 wgmma");
   assert_true(fabs(Peaks_hardwareFor(&pk, PRECISION_FLOAT, naive, false, &label) - 60000) < 1e-6);
   assert_string_equal(label, "FP32");
   assert_true(Peaks_hardwareFor(&pk, PRECISION_FLOAT, hopper, true, &label) == 0); /* emulated: none */
   Catalog_free(&cat);
}

/* Operands that fit in the L2 come from DRAM once: the model's loads beyond the compulsory
 * bytes go against the L2, not the copy bandwidth; too large for the L2, the model's. */
static void test_dram_by_compulsory_when_they_fit(void **state) {
   (void)state;
   /* 1,600 GFLOPS at 1 flop per byte: the model's 1,600 GB/s would be 80% of the copy's. */
   LimiterInputs in = base(1600, 1);
   Limiter l;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_MEMORY);
   assert_true(fabs(l.memory_used - 0.8) < 1e-9);
   in.l2_bytes = in.min_bytes * 2;
   in.l2_gbps = 10000;
   Limiter_of(&in, &l);
   assert_true(l.caches);
   assert_true(fabs(l.memory_used - l.memory_used_min) < 1e-12 && l.memory_used < 0.01);
   assert_true(fabs(l.l2_used - 0.16) < 1e-9);
   assert_int_equal(l.kind, LIMIT_LATENCY);
   in.l2_bytes = in.min_bytes / 2;
   Limiter_of(&in, &l);
   assert_int_equal(l.kind, LIMIT_MEMORY);
}

/* The global loads pass the L1's data stage, the local memory's unit on NVIDIA, hit or miss:
 * all of them count against its ceiling, at the wavefronts their coalescing takes; only the
 * loads the L1 does not serve reach the L2. Local stores count a wavefront of 128 bytes. */
static void test_l1_serves_global_loads(void **state) {
   (void)state;
   LimiterInputs in = base(6000, 0.25); /* 24,000 GB/s of loads by the model */
   in.l2_gbps = 24000;
   in.local_gbps = 32000;
   in.l2_model_bytes = in.model_bytes / 16;
   in.l1_bytes = in.model_bytes - in.l2_model_bytes;
   in.lsu_load_bytes = in.model_bytes;
   Limiter l;
   Limiter_of(&in, &l);
   assert_true(fabs(l.l2_used - 1.0 / 16) < 1e-9);
   assert_true(fabs(l.local_used - 24000.0 / 32000) < 1e-9);
   assert_int_equal(l.kind, LIMIT_LOCAL);
   assert_non_null(strstr(l.words, "global loads (the L1, the local memory's unit)"));
   assert_null(strstr(l.words, "as they coalesce"));
   /* Lines touched twice as often as the bytes need: twice the wavefronts, above the ceiling. */
   in.load_ratio = 1.2;
   Limiter_of(&in, &l);
   assert_true(fabs(l.local_used - 1.2 * 24000 / 32000) < 1e-9);
   assert_non_null(strstr(l.words, "as they coalesce"));
   /* Stores beside them: a wavefront each, 128 bytes of the ceiling's. */
   in.load_ratio = 0;
   in.store_wavefronts = in.model_bytes / 4 / 128;
   Limiter_of(&in, &l);
   assert_true(fabs(l.local_used - 1.25 * 24000 / 32000) < 1e-9);
}

/* myGEMM step 3 with TS=32 WPT=8 (from cat, loaded) on an n x n x n problem. */
static const KernelInfo *wpt32(Catalog *cat, long long *values, Problem *p, int n) {
   loadKernels(cat);
   const char *sets[] = {"TS=32", "WPT=8"};
   const KernelInfo *k = CONFIGURED_KERNEL(cat, "mygemm03_wpt", values, sets);
   Problem_setDefaults(p);
   p->m = p->n = p->k = n;
   return k;
}

/* What a trace tells the limiter: the conflicts, the loads' coalescing and the local stores
 * per multiply-add of the traced group (a store by cp.async left out). myGEMM step 3 with
 * TS=32 WPT=8 on 64 x 64 x 64: four groups, 65,536 multiply-adds each; its traced group
 * stores a conflict-free warp once by hand and once by cp.async, and loads a warp with a
 * 2-way conflict. */
static void test_trace_for_the_limiter(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   const KernelInfo *k = wpt32(&cat, values, &p, 64);
   TraceRecord rec[96];
   for (unsigned l = 0; l < 32; l++) {
      rec[l] = (TraceRecord){.site = 0, .store = true, .width = 4, .item = l, .address = 4 * l};
      rec[32 + l] = (TraceRecord){.site = 1, .store = true, .width = 16, .item = l, .address = 4096 + 16 * l, .async = true};
      rec[64 + l] = (TraceRecord){.site = 2, .width = 4, .item = l, .address = 8 * l};
   }
   Trace t = {.records = rec, .count = 96, .groups = 1, .wg_size = 32, .dims = 1, .local = {32, 1, 1}};
   BankModel m = BankModel_nvidia();
   BankAnalysis a;
   assert_true(BankAnalysis_run(&a, &t, &m, err, sizeof err));
   Coalescing c = {0};
   c.total.requests = 4, c.total.ratio = 2.5;
   DeviceInfo dev = hopperGpu();
   LimiterTrace lt = LimiterTrace_of(&a, &c, true, k, values, &p, &dev);
   /* Wavefronts 1 + 4 + 2 over the ideal 1 + 4 + 1. */
   assert_true(fabs(lt.bank_ratio - 7.0 / 6) < 1e-12);
   assert_true(lt.load_ratio == 2.5);
   assert_true(fabs(lt.store_wavefronts_per_fma - 1.0 / 65536) < 1e-15);
   /* Not banked (a model only assumed): the loads' coalescing alone. */
   lt = LimiterTrace_of(&a, &c, false, k, values, &p, &dev);
   assert_true(lt.bank_ratio == 0 && lt.store_wavefronts_per_fma == 0 && lt.load_ratio == 2.5);
   lt = LimiterTrace_of(&a, NULL, true, k, values, &p, &dev);
   assert_true(lt.load_ratio == 0 && lt.bank_ratio > 1);
   BankAnalysis_free(&a);
   Catalog_free(&cat);
}

/* The inputs from a real kernel's `reuse:` model: mygemm03_wpt TS=32 WPT=8 at 512 reads A
 * and B from global memory once per 32 multiply-adds each. */
static void test_inputs_from_the_model(void **state) {
   (void)state;
   Catalog cat;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   const KernelInfo *k = wpt32(&cat, values, &p, 512);
   DeviceInfo dev = {0};
   dev.type = DEVICE_CPU;
   dev.limits.max_wg = 1024;
   dev.limits.max_wi[0] = dev.limits.max_wi[1] = dev.limits.max_wi[2] = 1024;
   dev.limits.local_mem = 65536;
   dev.limits.warp = 32;
   Peaks peaks = {0};
   peaks.known = true;
   peaks.gflops[PEAK_FP32] = 40;
   peaks.copy_gbps = 80;
   peaks.l2_gbps = 160;
   LimiterRun r = {.gflops = 10, .registers = -1, .local_mem = -1};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   /* 2/32 loads per multiply-add of 4 bytes, plus C once: 2 / (0.25 + 4/512) flops per byte. */
   double fpb = 2.0 / (2.0 / 32 * 4 + 4.0 / 512);
   assert_true(fabs(in.flops / in.model_bytes - fpb) < 1e-9);
   assert_true(fabs(in.min_bytes - 3.0 * 512 * 512 * 4) < 1e-6);
   assert_true(in.peak_gflops == 40 && in.copy_gbps == 80 && in.l2_gbps == 160);
   /* local_reuse: A=1 B=WPT: 1 + 1/8 local reads of 4 bytes per multiply-add. */
   assert_true(fabs(in.local_bytes - in.flops / 2 * (1 + 1.0 / 8) * 4) < 1e-3);
   assert_false(in.waves.known); /* a CPU */
   Limiter l;
   Limiter_of(&in, &l);
   assert_true(fabs(l.compute_used - 0.25) < 1e-12);
   assert_true(fabs(l.l2_used - 10 / fpb / 160) < 1e-12);
   assert_true(fabs(l.attainable_gflops - fmin(40, fpb * 80)) < 1e-9);
   assert_true(in.local_banks_gbps == 0); /* a CPU has no banks */
   /* One instruction per FMA and per local read: 1 + 1 + 1/8. */
   assert_true(fabs(in.issue_per_fma - (2 + 1.0 / 8)) < 1e-12);
   assert_true(in.l1_bytes == 0 && in.l2_model_bytes == in.model_bytes); /* local memory: no L1 model */
   assert_false(in.one_block_per_unit);
   /* An NVIDIA GPU of 132 units, its ceilings measured at 1,980 MHz: the banks give 132 x 32
    * x 4 bytes a clock; the L2's size comes from the device. */
   dev.type = DEVICE_GPU;
   dev.vendor_kind = VENDOR_NVIDIA;
   dev.compute_units = 132;
   dev.l2_bytes = 50u << 20;
   peaks.sm_mhz = 1980;
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
   assert_true(fabs(in.local_banks_gbps - 132 * 32 * 4 * 1.98) < 1e-6);
   /* Every load of A and B passes the L1's data stage there (no TMA): 2/32 per multiply-add of
    * 4 bytes; no trace, no coalescing or stores known. With a trace's, both come through. */
   assert_true(fabs(in.lsu_load_bytes - in.flops / 2 * (2.0 / 32) * 4) < 1e-3);
   assert_true(in.load_ratio == 0 && in.store_wavefronts == 0);
   const LimiterTrace trace = {.bank_ratio = 1, .load_ratio = 1.5, .store_wavefronts_per_fma = 1.0 / 64};
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, &trace, &in);
   assert_true(in.load_ratio == 1.5 && fabs(in.store_wavefronts - in.flops / 2 / 64) < 1e-6);
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.l2_bytes == 50.0 * 1048576);
   assert_true(in.peak_gflops == 40 && in.clock_share == 1); /* the run's clock unknown */
   /* A run whose clock fell to 1,485 MHz (a power cap): its compute ceiling is 3/4 of the
    * peak measured at 1,980, and its words say so; a run at the peak's clock or above, the
    * peak itself. */
   r.sm_mhz = 1485;
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
   assert_true(fabs(in.peak_gflops - 30) < 1e-12 && fabs(in.clock_share - 0.75) < 1e-12);
   Limiter_of(&in, &l);
   assert_true(fabs(l.compute_used - 10.0 / 30) < 1e-12);
   double share = 0;
   assert_true(Limiter_clockShare(&peaks, false, 1980, &share) == 1 && share == 1);
   assert_true(Limiter_clockShare(&peaks, false, 2100, NULL) == 1);
   assert_true(Limiter_clockShare(&peaks, false, 0, NULL) == 1);
   /* A tensor kernel is put against the clock its micro-kernels ran at. */
   peaks.tensor_sm_mhz = 1800;
   assert_true(fabs(Limiter_clockShare(&peaks, true, 1485, NULL) - 1485.0 / 1800) < 1e-12);
   assert_true(fabs(Limiter_clockShare(&peaks, false, 1485, NULL) - 0.75) < 1e-12);
   peaks.tensor_sm_mhz = 0;
   r.sm_mhz = 0;

   /* mygemm01_naive, 16 x 16 groups, no local memory, on the NVIDIA GPU: each group loads
    * its 16 rows of A and 16 columns of B from the L2 once; the L1 serves the rest. */
   const char *naiveSets[] = {"TSM=16", "TSN=16"};
   const KernelInfo *naive = CONFIGURED_KERNEL(&cat, "mygemm01_naive", values, naiveSets);
   checkConfig(&dev, naive, values, &p, &r, &peaks, &in);
   double fmas = 512.0 * 512 * 512, cbytes = 512.0 * 512 * 4;
   assert_true(fabs(in.model_bytes - (fmas * 2 * 4 + cbytes)) < 1);
   assert_true(fabs(in.l2_model_bytes - (fmas * 2.0 / 16 * 4 + cbytes)) < 1);
   assert_true(fabs(in.l1_bytes - (in.model_bytes - in.l2_model_bytes)) < 1);
   assert_true(fabs(in.min_read_bytes - 2.0 * 512 * 512 * 4) < 1e-6);
   assert_true(in.issue_per_fma == 0); /* no local reads: the model does not say */
   /* Another vendor's L1 is no local-memory unit: the L2's figure only. */
   dev.vendor_kind = VENDOR_AMD;
   Limiter_inputs(&dev, naive, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.l1_bytes == 0 && fabs(in.l2_model_bytes - (fmas * 2.0 / 16 * 4 + cbytes)) < 1);
   /* DRAM: A and B (2 MB) fit in the 50 MB L2: each element once. */
   dev.vendor_kind = VENDOR_NVIDIA;
   snprintf(dev.arch, sizeof dev.arch, "sm_90");
   r.registers = 32;
   Limiter_inputs(&dev, naive, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.dram_read_bytes == in.min_read_bytes);
   assert_true(in.dram_drift_bytes == 0); /* one figure: nothing to drift */
   /* In an L2 of 1 MB they do not: each wave of resident groups reads the rows of A and the
    * columns of B its tiles cover (32 x 32 tiles of 16 x 16, numbered row by row; 8 units,
    * so that the 1024 groups take several waves). */
   dev.l2_bytes = 1u << 20;
   dev.compute_units = 8;
   Limiter_inputs(&dev, naive, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.waves.known);
   const long long resident = (long long)in.waves.units * in.waves.per_unit;
   double want = 0;
   for (long long t0 = 0; t0 < 1024; t0 += resident) {
      const long long t1 = (t0 + resident < 1024 ? t0 + resident : 1024) - 1;
      bool row[32] = {false}, col[32] = {false};
      int rows = 0, cols = 0;
      for (long long t = t0; t <= t1; t++) {
         rows += !row[t / 32], cols += !col[t % 32];
         row[t / 32] = col[t % 32] = true;
      }
      want += (rows + cols) * 16.0 * 512 * 4;
   }
   if (!(want > in.min_read_bytes && fabs(in.dram_read_bytes - want) < 1))
      fail_msg("DRAM reads %.6g, expected %.6g (compulsory %.6g, %lld resident)", in.dram_read_bytes, want, in.min_read_bytes, resident);
   /* The groups drifted apart in K: a second figure only where it is over 10% beyond the
    * waves', and never past every tile reading its rows and columns itself. */
   const double alone = 1024 * (16.0 + 16) * 512 * 4;
   assert_true(in.dram_drift_bytes == 0 ||
               (in.dram_drift_bytes > 1.1 * in.dram_read_bytes && in.dram_drift_bytes <= alone + 1));
   /* An L2 of 1 KB holds less than one slice of K of a row of A (16 rows x 512 / 16 x 4
    * bytes): every slice each group reads misses, as if each tile read its own. The waves'
    * count does not depend on the L2's size. */
   const double waves = in.dram_read_bytes;
   dev.l2_bytes = 1024;
   Limiter_inputs(&dev, naive, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.dram_read_bytes == waves);
   if (fabs(in.dram_drift_bytes - alone) > 1)
      fail_msg("drifted DRAM reads %.6g, expected %.6g", in.dram_drift_bytes, alone);
   /* An L2 a page short of A and B (2 MB): each wave still reads B again by the waves'
    * count, but groups through an LRU of that size keep B between the tile rows, so drifted
    * they read less than the waves say: one figure. */
   dev.l2_bytes = (2u << 20) - 4096;
   Limiter_inputs(&dev, naive, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.dram_read_bytes == waves && in.dram_drift_bytes == 0);
   dev.l2_bytes = 1u << 20;
   /* A CPU: no DRAM model. */
   dev.compute_units = 132;
   dev.type = DEVICE_CPU;
   Limiter_inputs(&dev, naive, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.dram_read_bytes == 0);
   Catalog_free(&cat);
}

/* The wgmma steps' shared memory: TMA writes each tile into it and wgmma reads A once per
 * k-step (BN multiply-adds an element) and B once per 64-row wgmma; 3xTF32 reads three
 * products' operands, and its split reads each element and writes its two halves, 6.6
 * wavefronts an element as ncu counted them on the H200. All of it
 * goes against the local memory's ceiling, where on the H200 ncu found 3xTF32's busiest
 * unit (the L1, 72-90%) while the model, without it, said compute. */
static void test_wgmma_shared_memory(void **state) {
   (void)state;
   Catalog cat;
   loadKernels(&cat);
   DeviceInfo dev = hopperGpu();
   Peaks peaks = {0};
   peaks.known = true;
   peaks.gflops[PEAK_FP32] = 60000;
   peaks.wgmma_gflops[PEAK_TF32] = 480000;
   peaks.copy_gbps = 4000;
   peaks.l2_gbps = 9000;
   peaks.local_gbps = 26000;
   static const struct {
      const char *kernel;
      Precision precision;
      const char *sets[4];
      double reads_a, reads_b, loads_a, loads_b; /* per multiply-add, of an element */
   } cases[] = {
       /* 3xTF32, 128 x 128: three products' reads and the split's 6.6 wavefronts an element
        * (2.1 loads and 4.5 stores per 128 bytes, ncu): A 1/(128 / 9.6 = 13), B 1/(64 * 128 /
        * (3 * 128 + 422.4) = 10); TMA 1/128 each */
       {"hopper5_order", PRECISION_FLOAT, {"BM=128", "BN=128", NULL}, 1.0 / 13, 1.0 / 10, 1.0 / 128, 1.0 / 128},
       {"hopper5_order", PRECISION_BF16, {"BM=128", "BN=256", "BK=64", NULL}, 1.0 / 256, 1.0 / 64, 1.0 / 256, 1.0 / 128},
       /* 192 columns do not divide 4096: 22 tiles, the last a third full, each loading A's
        * rows, so TMA brings A's element 22 times for 4096 multiply-adds */
       {"fp8h6_hybrid", PRECISION_E4M3, {"BM=128", "BN=192", NULL}, 1.0 / 192, 1.0 / 64, 22.0 / 4096, 1.0 / 128},
       /* swap-AB: the tokens (A) are read by each 64-row wgmma, the weight once per BT tokens */
       {"hopper9_swapab", PRECISION_BF16, {"BN=128", "BT=16", NULL}, 1.0 / 64, 1.0 / 16, 1.0 / 128, 1.0 / 16},
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      long long values[KERNEL_MAX_PARAMS];
      const KernelInfo *k = CONFIGURED_KERNEL(&cat, cases[i].kernel, values, cases[i].sets);
      Problem p;
      Problem_setDefaults(&p);
      p.m = p.n = p.k = 4096;
      p.precision = cases[i].precision;
      if (Problem_scaled(&p))
         p.scaling = SCALING_TENSOR;
      p.trans_b = true;
      LimiterRun r = {.gflops = 50000, .registers = -1, .local_mem = -1, .median_ms = 2.0};
      LimiterInputs in;
      checkConfig(&dev, k, values, &p, &r, &peaks, &in);
      const double fmas = in.flops / 2, es = (double)Precision_inputSize(p.precision);
      if (fabs(in.local_bytes - fmas * (cases[i].reads_a + cases[i].reads_b) * es) > 1e-6 * in.local_bytes)
         fail_msg("%s %s: local reads %.6g, expected %.6g", cases[i].kernel, Precision_name(p.precision),
                  in.local_bytes, fmas * (cases[i].reads_a + cases[i].reads_b) * es);
      assert_true(fabs(in.smem_fill_bytes - fmas * (cases[i].loads_a + cases[i].loads_b) * es) <
                  1e-6 * in.smem_fill_bytes);
      Limiter l;
      Limiter_of(&in, &l);
      const double share = r.gflops * ((in.local_bytes + in.smem_fill_bytes) / in.flops) / peaks.local_gbps;
      assert_true(fabs(l.local_used - share) < 1e-9);
      if (i == 0) { /* 3xTF32 at 50 TFLOPS: 19.2 TB/s of 26, the local memory's 74% the limit, compute 31% */
         assert_int_equal(l.kind, LIMIT_LOCAL);
         assert_true(fabs(l.local_used - 0.740) < 0.001 && fabs(l.compute_used - 0.3125) < 1e-9);
         r.gflops = 30000; /* at 30: no ceiling near, the L1's 44% above compute's 19% */
         Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
         Limiter_of(&in, &l);
         assert_int_equal(l.kind, LIMIT_LATENCY);
         assert_true(fabs(l.local_used - 0.444) < 0.001 && fabs(l.compute_used - 0.1875) < 1e-9);
         r.gflops = 50000;
         Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
         Limiter_of(&in, &l);
         assert_non_null(strstr(l.words, "reads and TMA's copies into it"));
      }
   }
   Catalog_free(&cat);
}

/* The waves' DRAM reads of a tm x tn grid of bm x bn tiles numbered `band` tile rows at a
 * time, column by column inside a band: per wave of `resident` tiles, the rows of A and the
 * columns of B they cover, each once (k deep, `in` bytes an element). */
static double bandedWaveBytes(long long tm, long long tn, long long band, long long resident, double bm, double bn,
                              double k, double in) {
   double bytes = 0;
   for (long long t0 = 0; t0 < tm * tn; t0 += resident) {
      bool row[256] = {false}, col[256] = {false};
      int rows = 0, cols = 0;
      for (long long t = t0; t < t0 + resident && t < tm * tn; t++) {
         const long long first = t / (band * tn) * band, h = tm - first < band ? tm - first : band;
         const long long r = first + t % (band * tn) % h, c = t % (band * tn) / h;
         rows += !row[r], cols += !col[c];
         row[r] = col[c] = true;
      }
      bytes += (rows * bm + cols * bn) * k * in;
   }
   return bytes;
}

/* DRAM's reads of a banded 1-D grid (`band:`): Hopper step 5 in bfloat16, 128 x 256 tiles
 * numbered 8 tile rows at a time, column by column inside a band, at 4096 against a 60 MB L2
 * (A and B 64 MB): per wave of resident blocks, the rows of A and the columns of B its tiles
 * cover, counted here tile by tile. Clusters of two number their pairs instead: no band,
 * no figure. At 2048 A and B (16 MB) fit: each element once. */
static void test_dram_banded(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"BM=128", "BN=256", "BK=64", "GROUP=8", "CLUSTER=1"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper5_order", values, sets);
   Problem p = squareBf16(4096);
   LimiterRun r = {.gflops = 700000, .registers = 168, .local_mem = -1, .median_ms = 0.2};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_int_equal(r.geo.band, 8);
   assert_true(in.waves.known);
   const long long resident = (long long)in.waves.units * in.waves.per_unit;
   const double want = bandedWaveBytes(32, 16, 8, resident, 128, 256, 4096, 2);
   assert_true(want > in.min_read_bytes);
   if (fabs(in.dram_read_bytes - want) > 1)
      fail_msg("banded DRAM reads %.6g, expected %.6g (%lld resident)", in.dram_read_bytes, want, resident);
   assert_int_equal(in.dram_count, DRAM_WAVES);
   assert_true(Config_setParam(k, values, "CLUSTER=2", err, sizeof err));
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_int_equal(r.geo.band, 0);
   assert_true(in.dram_read_bytes == 0);
   p.m = p.n = p.k = 2048;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(in.dram_read_bytes == in.min_read_bytes);
   Catalog_free(&cat);
}

/* The copy and L2 bandwidths an H200 measures, as its peaks give them. */
static Peaks h200Peaks(void) {
   Peaks peaks = {0};
   peaks.known = true;
   peaks.copy_gbps = 4200;
   peaks.l2_gbps = 9400;
   return peaks;
}

/* c judged as bench's and sweep's column judge it (into in and l), and checked against
 * explain's judgement of the run it stands for (the same registers, local memory and
 * clock): the same limiter, the same shares. */
static void judgedAsItsRun(const DeviceInfo *dev, const KernelInfo *k, const long long *values, const Problem *p,
                           const SweepCandidate *c, const Peaks *peaks, LimiterInputs *in, Limiter *l) {
   Limiter_ofCandidate(dev, k, p, c, peaks, in, l);
   LimiterRun r = {.gflops = c->gflops, .median_ms = c->median_ms, .registers = c->registers,
                   .local_mem = c->local_mem, .sm_mhz = c->sm_mhz};
   LimiterInputs rin;
   Limiter rl;
   checkConfig(dev, k, values, p, &r, peaks, &rin);
   Limiter_of(&rin, &rl);
   assert_int_equal(rl.kind, l->kind);
   assert_true(rl.memory_used == l->memory_used && rl.compute_used == l->compute_used);
}

/* bench's and sweep's column judge a run as explain does: with the registers its build
 * reported, the waves and DRAM's count are known. The decode preset (Hopper step 9, 8
 * tokens a tile) at 1 and 8 tokens x 8192 x 8192 in 35.7 us on a 4200 GB/s GPU: memory at
 * 89-90% of it, where without the registers the column said "latency" for one token (the
 * model's bytes an eighth of the weight's) and "memory >100%" for eight (H200, 2026-12-03). */
static void test_candidate_as_its_run(void **state) {
   (void)state;
   Catalog cat;
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   const Peaks peaks = h200Peaks();
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"CONS=1", "BN=64", "BT=8", "BK=128", "SW=128", "STAGES=8", "BLOCKS=1", "SPLIT=1"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper9_swapab", values, sets);
   for (int m = 1; m <= 8; m += 7) {
      Problem p = squareBf16(8192);
      p.m = m;
      const double ms = 0.0357;
      SweepCandidate c = {.outcome = SWEEP_OK, .gflops = 2.0 * m * 8192 * 8192 / (ms * 1e6), .median_ms = ms,
                          .registers = 30, .local_mem = 0};
      memcpy(c.values, values, sizeof c.values);
      LimiterInputs in;
      Limiter l;
      judgedAsItsRun(&dev, k, values, &p, &c, &peaks, &in, &l);
      assert_true(in.waves.known && in.dram_read_bytes > 0);
      if (l.kind != LIMIT_MEMORY || l.memory_over || fabs(l.memory_used - 0.895) > 0.01)
         fail_msg("%d tokens: %s at %.3f of the copy bandwidth", m, LimitKind_name(l.kind), l.memory_used);
      char col[64];
      Limiter_column(&l, &in, col, sizeof col);
      assert_string_equal(col, "memory 90%");
   }
   Catalog_free(&cat);
}

/* bench's and sweep's column take the clock a candidate's launches held, as explain takes
 * a run's: a GPU held at 1500 MHz where the peaks were measured at 1980 has 76% of their
 * compute ceiling, and the same FLOPs are a larger share of it. */
static void test_candidate_at_its_clock(void **state) {
   (void)state;
   Catalog cat;
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = h200Peaks();
   peaks.sm_mhz = 1980;
   peaks.gflops[PEAK_FP32] = 63600;
   long long values[KERNEL_MAX_PARAMS];
   const char *defaults[] = {NULL};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "fast02_warptile", values, defaults);
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 4096;
   const double ms = 4.0, gflops = 2.0 * 4096 * 4096 * 4096 / (ms * 1e6);
   double used[2];
   for (int held = 0; held < 2; held++) {
      SweepCandidate c = {.outcome = SWEEP_OK, .gflops = gflops, .median_ms = ms, .registers = 128,
                          .local_mem = 0, .sm_mhz = held ? 1500 : 0};
      memcpy(c.values, values, sizeof c.values);
      LimiterInputs in;
      Limiter l;
      judgedAsItsRun(&dev, k, values, &p, &c, &peaks, &in, &l);
      assert_true(fabs(in.clock_share - (held ? 1500.0 / 1980 : 1)) < 1e-9);
      used[held] = l.compute_used;
   }
   if (!(used[0] > 0) || fabs(used[1] / used[0] - 1980.0 / 1500) > 1e-9)
      fail_msg("compute share %.4f at the peaks' clock, %.4f at 1500 MHz", used[0], used[1]);
   Catalog_free(&cat);
}

/* Operands that fit, pushed out by C: Hopper step 5 in bfloat16 at 3072 (A and B 37.7 MB, C
 * 18.9 MB) against a 60 MB L2 of two partitions, which holds A's and B's lines twice: they do
 * not fit beside C's written lines, and the groups in step read some again, never more than
 * every tile reading its own rows and columns, more the smaller the L2. With one copy (an
 * L2 of one partition) or an L2 that holds all three twice over, each element once. */
static void test_dram_operands_beside_c(void **state) {
   (void)state;
   Catalog cat;
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"BM=128", "BN=256", "BK=64", "GROUP=8", "CLUSTER=1"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper5_order", values, sets);
   Problem p = squareBf16(3072);
   LimiterRun r = {.gflops = 700000, .registers = 168, .local_mem = -1, .median_ms = 0.1};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   const double operands = 2.0 * 3072 * 3072 * 2, c = 3072.0 * 3072 * 2;
   assert_true(fabs(in.min_read_bytes - operands) < 1);
   assert_true(in.min_read_bytes <= dev.l2_bytes && 2 * operands + c > dev.l2_bytes);
   const double own = (3072.0 / 128) * (3072.0 / 256) * (128 + 256) * 3072.0 * 2;
   if (!(in.dram_read_bytes > 1.05 * in.min_read_bytes && in.dram_read_bytes <= own))
      fail_msg("DRAM reads %.6g: expected above the compulsory %.6g, at most %.6g", in.dram_read_bytes,
               in.min_read_bytes, own);
   assert_true(in.dram_drift_bytes == 0 && in.dram_count == DRAM_BESIDE_WRITES);
   const double at60 = in.dram_read_bytes;
   dev.l2_bytes = 44u << 20;
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
   if (!(in.dram_read_bytes >= at60))
      fail_msg("DRAM reads %.6g through a 44 MB L2, %.6g through 60 MB", in.dram_read_bytes, at60);
   dev.l2_bytes = 120u << 20;
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.dram_read_bytes == in.min_read_bytes && in.dram_count == DRAM_ONCE);
   dev.l2_bytes = 60u << 20;
   snprintf(dev.arch, sizeof dev.arch, "sm_75");
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.dram_read_bytes == in.min_read_bytes);
   Catalog_free(&cat);
}

/* What the L2 keeps from one wave for the next: Hopper step 7's persistent grid of whole
 * 64 x 128 tiles in bands of 32 tile rows at 4096 in bfloat16 (A and B 64 MB against a 60 MB
 * L2). Each wave of 132 tiles reads its band's 32 rows of A, which the waves' count reads
 * again every wave (about 3 times DRAM's reads on the H200); through an LRU of the L2 the
 * band's A (16.8 MB, twice in the two partitions) stays for the band's eight waves: about
 * A once and B once a band, 101 MB, counted as kept. With an L2 too small for a band's A the
 * waves' figure stands. */
static void test_dram_waves_kept(void **state) {
   (void)state;
   Catalog cat;
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"CONS=1", "BM=64", "BN=128", "GROUP=32", "BK=64", "STAGES=8", "STREAMK=0", "BLOCKS=1"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper7_streamk", values, sets);
   Problem p = squareBf16(4096);
   LimiterRun r = {.gflops = 600000, .registers = 168, .local_mem = -1, .median_ms = 0.25};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_int_equal(r.geo.band, 32);
   assert_true(in.waves.known);
   const double waves = bandedWaveBytes(64, 32, 32, in.waves.groups, 64, 128, 4096, 2);
   const double bands = 2 * (2048.0 + 4096) * 4096 * 2;
   assert_int_equal(in.dram_count, DRAM_WAVES_KEPT);
   if (!(in.dram_read_bytes >= in.min_read_bytes && in.dram_read_bytes <= 1.25 * bands && waves > 3 * bands))
      fail_msg("DRAM reads %.6g: expected near %.6g, the waves' %.6g", in.dram_read_bytes, bands, waves);
   dev.l2_bytes = 8u << 20;
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &in);
   if (!(in.dram_count == DRAM_WAVES && fabs(in.dram_read_bytes - waves) <= 1))
      fail_msg("through an 8 MB L2: %s %.6g, the waves' %.6g", DramCount_name(in.dram_count), in.dram_read_bytes,
               waves);
   assert_string_equal(DramCount_name(DRAM_WAVES_KEPT), "waves_kept");
   Catalog_free(&cat);
}

/* A cluster's unit (`unit:`): Hopper step 7's persistent grid of whole 128 x 256 tiles in
 * clusters of two one above the other (the B tile multicast to both) at 4096 in bfloat16
 * walks units of 256 x 256 in bands of 8, one a cluster: DRAM's reads are the waves of 66
 * such tiles (before `unit:` the grid had no order the model followed, and no figure).
 * Clusters side by side (SHARE_A) are another unit: no figure. */
static void test_dram_cluster_unit(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"CONS=2", "BM=128", "BN=256", "GROUP=8", "BK=64", "STAGES=4", "STREAMK=0", "CLUSTER=2"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper7_streamk", values, sets);
   Problem p = squareBf16(4096);
   LimiterRun r = {.gflops = 700000, .registers = 168, .local_mem = -1, .median_ms = 0.2};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(r.geo.band == 8 && r.geo.band_unit == 2);
   assert_true(in.waves.known && in.waves.groups == 132);
   const double want = bandedWaveBytes(16, 16, 8, 66, 256, 256, 4096, 2);
   assert_true(want > in.min_read_bytes);
   assert_int_equal(in.dram_count, DRAM_WAVES);
   if (fabs(in.dram_read_bytes - want) > 1)
      fail_msg("cluster DRAM reads %.6g, expected %.6g", in.dram_read_bytes, want);
   /* The multicast shares B by construction: TMA's share stays the banded one. */
   assert_true(fabs(in.tma_l2_share - 2.0 / 3) < 1e-9);
   assert_true(Config_setParam(k, values, "SHARE_A=1", err, sizeof err));
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(r.geo.band == 0);
   assert_true(in.dram_read_bytes == 0 && in.dram_count == DRAM_UNCOUNTED);
   Catalog_free(&cat);
}

/* A ring of dynamic shared memory keeps a wgmma kernel at one group a unit, which the waves
 * shown and the tail count, while DRAM's waves count the groups the registers and the static
 * memory admit (the L2's window, limiter.c): Hopper step 5's 64 x 64 tiles with 12 stages read
 * the same from DRAM whether the launch's ring is counted or not. */
static void test_dram_window(void **state) {
   (void)state;
   Catalog cat;
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"CONS=1", "BM=64", "BN=64", "BK=64", "STAGES=12", "GROUP=8", "CLUSTER=1"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper5_order", values, sets);
   Problem p = squareBf16(4096);
   LimiterRun r = {.gflops = 500000, .registers = 82, .local_mem = -1, .median_ms = 0.3};
   checkConfig(&dev, k, values, &p, &r, NULL, NULL);
   assert_true(r.geo.dynamic_smem > 150000);
   LimiterInputs ring, window;
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &ring);
   r.geo.dynamic_smem = 0;
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &window);
   assert_true(ring.waves.known && window.waves.known);
   assert_int_equal(ring.waves.per_unit, 1);
   assert_true(window.waves.per_unit > 1);
   assert_true(ring.dram_read_bytes > ring.min_read_bytes);
   if (ring.dram_read_bytes != window.dram_read_bytes)
      fail_msg("DRAM reads %.6g with the ring counted, %.6g without", ring.dram_read_bytes, window.dram_read_bytes);
   Catalog_free(&cat);
}

/* A ring that leaves two groups a unit: Hopper step 2 in bfloat16 at 4096, 128 x 128 tiles,
 * three stages (99 KB), 154 registers, which would admit three: DRAM's waves count the two
 * resident (the registers' window read 0.80 of DRAM's reads on the H200, the groups resident
 * 1.00). With five stages the ring keeps it at one, and the window is the registers'. */
static void test_dram_ring_of_two(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"BM=128", "BN=128", "BK=64", "SW=128", "STAGES=3"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper2_pipeline", values, sets);
   Problem p = squareBf16(4096);
   LimiterRun r = {.gflops = 300000, .registers = 154, .local_mem = -1, .median_ms = 0.5};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(in.waves.known);
   assert_int_equal(in.waves.per_unit, 2);
   const double two = bandedWaveBytes(32, 32, 1, 2 * in.waves.units, 128, 128, 4096, 2);
   assert_int_equal(in.dram_count, DRAM_WAVES);
   if (fabs(in.dram_read_bytes - two) > 1)
      fail_msg("DRAM reads %.6g, the waves of two groups a unit %.6g", in.dram_read_bytes, two);
   assert_true(Config_setParam(k, values, "STAGES=5", err, sizeof err));
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_int_equal(in.waves.per_unit, 1);
   const double three = bandedWaveBytes(32, 32, 1, 3 * in.waves.units, 128, 128, 4096, 2);
   if (!(in.dram_read_bytes <= three + 1 && in.dram_read_bytes < two))
      fail_msg("five stages: DRAM reads %.6g, the registers' window %.6g", in.dram_read_bytes, three);
   Catalog_free(&cat);
}

/* A split-K grid's planes (swap-AB in bfloat16 at 4096, A and B 64 MB against a 60 MB L2):
 * SPLIT=8 planes each take an eighth of K, whose slices of A and B (8 MB) fit: each element
 * once, with no second figure. SPLIT=1 has no planes: the waves of its row-by-row order
 * (`band: 1`) read the weight again. Stream-K's workspace holds shared tiles, not planes:
 * no figure. */
static void test_dram_split(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   Problem p = squareBf16(4096);
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"BN=128", "BT=16", "BK=64", "SW=128", "SPLIT=8", "BLOCKS=2"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper9_swapab", values, sets);
   LimiterRun r = {.gflops = 100000, .registers = 128, .local_mem = -1, .median_ms = 1};
   LimiterInputs in;
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(in.min_read_bytes > dev.l2_bytes);
   assert_true(in.dram_read_bytes == in.min_read_bytes && in.dram_drift_bytes == 0);
   assert_true(Config_setParam(k, values, "SPLIT=1", err, sizeof err));
   checkConfig(&dev, k, values, &p, &r, &peaks, &in);
   assert_true(in.waves.known && in.dram_read_bytes > 2 * in.min_read_bytes);
   const char *skSets[] = {"STREAMK=1", "BK=64"};
   const KernelInfo *sk = CONFIGURED_KERNEL(&cat, "hopper7_streamk", values, skSets);
   checkConfig(&dev, sk, values, &p, &r, &peaks, &in);
   assert_true(r.geo.fixup_dims > 0 && r.geo.workspace > 0);
   assert_true(in.dram_read_bytes == 0 && in.dram_count == DRAM_UNCOUNTED);
   /* Hopper step 6 in FP32 (3xTF32) at 4096, SPLIT=4: a plane's slices of A and B (33.6 MB)
    * fit, but not twice beside its 67 MB of partial sums: the planes in step through an LRU
    * of the L2 read some again, never more than each tile reading its own slices. With an
    * L2 that holds a plane's slices twice and its partial sums, each element once. */
   const char *splitSets[] = {"CONS=2", "BM=128", "BN=256", "GROUP=8", "CLUSTER=1",
                              "BK=16", "SW=64", "STAGES=4", "BLOCKS=1", "SPLIT=4"};
   const KernelInfo *split = CONFIGURED_KERNEL(&cat, "hopper6_splitk", values, splitSets);
   p.precision = PRECISION_FLOAT;
   checkConfig(&dev, split, values, &p, &r, &peaks, &in);
   const double slices = 2.0 * 4096 * 4096 * 4, own = 16.0 * 32 * (128 + 256) * 4096 * 4;
   assert_true(in.min_read_bytes > dev.l2_bytes && slices / 4 <= dev.l2_bytes);
   assert_int_equal(in.dram_count, DRAM_BESIDE_WRITES);
   if (!(in.dram_read_bytes > 1.05 * in.min_read_bytes && in.dram_read_bytes <= own))
      fail_msg("split DRAM reads %.6g: expected above %.6g, at most %.6g", in.dram_read_bytes, in.min_read_bytes, own);
   dev.l2_bytes = 200u << 20;
   Limiter_inputs(&dev, split, values, &p, &r, &peaks, NULL, &in);
   assert_true(in.dram_read_bytes == in.min_read_bytes && in.dram_count == DRAM_ONCE_PLANES);
   Catalog_free(&cat);
}

/* The L2's two partitions (NVIDIA from sm_80): what crosses between them is each line read
 * from DRAM once and half the stores, said beside the L2's share. One partition (an older
 * arch, another vendor): none. */
static void test_l2_fabric(void **state) {
   (void)state;
   /* Limiter_inputs on sm_90: hopper step 6 at SPLIT=1 in bfloat16 at 2048, A and B (16.8 MB)
    * fit, so the DRAM reads are the compulsory ones; C (16.8 MB, FP32) stored once, half
    * across. */
   Catalog cat;
   char err[1024];
   loadKernels(&cat);
   DeviceInfo dev = hopperGpuL2();
   Peaks peaks = {0};
   Problem p = squareBf16(2048);
   long long values[KERNEL_MAX_PARAMS];
   const char *sets[] = {"SPLIT=1", "BK=64"};
   const KernelInfo *k = CONFIGURED_KERNEL(&cat, "hopper6_splitk", values, sets);
   LimiterRun r = {.gflops = 100000, .registers = 128, .local_mem = -1, .median_ms = 1};
   LimiterInputs got;
   checkConfig(&dev, k, values, &p, &r, &peaks, &got);
   const double ab = 2.0 * 2048 * 2048 * 2, cb = 2048.0 * 2048 * 4;
   assert_true(got.dram_read_bytes == ab);
   assert_true(fabs(got.l2_fabric_bytes - (ab + cb / 2)) < 1);
   /* SPLIT=4: the kernel stores four planes of partial sums, half of them across. */
   assert_true(Config_setParam(k, values, "SPLIT=4", err, sizeof err));
   checkConfig(&dev, k, values, &p, &r, &peaks, &got);
   assert_true(fabs(got.l2_fabric_bytes - (ab + 4 * cb / 2)) < 1);
   /* One partition: a Turing GPU, an AMD one. */
   snprintf(dev.arch, sizeof dev.arch, "sm_75");
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &got);
   assert_true(got.l2_fabric_bytes == 0);
   dev = hopperGpu();
   dev.vendor_kind = VENDOR_AMD;
   snprintf(dev.arch, sizeof dev.arch, "gfx942");
   Limiter_inputs(&dev, k, values, &p, &r, &peaks, NULL, &got);
   assert_true(got.l2_fabric_bytes == 0);
   Catalog_free(&cat);
   /* Beside the share, not in it: the same L2 share with or without it. */
   LimiterInputs in = base(9000, 1.2);
   in.l2_gbps = 10000;
   in.min_read_bytes = 2.0 * 4096 * 4096 * 4;
   in.tma_loads = true;
   Limiter without, with;
   Limiter_of(&in, &without);
   in.l2_fabric_bytes = in.model_bytes;
   Limiter_of(&in, &with);
   assert_true(with.l2_used == without.l2_used && with.l2_used_all == without.l2_used_all);
}

/* Peaks that contradict each other (a loaded CPU measured FP64 above FP32) are said to, with
 * the figures; consistent ones are not; how long a measurement takes, said before it. */
static void test_peaks_contradict(void **state) {
   (void)state;
   Peaks p = {.known = true};
   p.gflops[PEAK_FP32] = 100;
   p.gflops[PEAK_FP64] = 50;
   p.read_gbps = 20, p.l2_gbps = 80;
   char why[600];
   assert_false(Peaks_contradict(&p, why, sizeof why));
   assert_false(Peaks_contradict(&p, NULL, 0));
   p.gflops[PEAK_FP64] = 104; /* within 5%: noise of one rate */
   assert_false(Peaks_contradict(&p, why, sizeof why));
   p.gflops[PEAK_FP64] = 130;
   assert_true(Peaks_contradict(&p, why, sizeof why));
   assert_non_null(strstr(why, "FP64 (130.0 GFLOPS) above FP32 (100.0)"));
   assert_non_null(strstr(why, "measure again on a quiet machine"));
   assert_true(Peaks_contradict(&p, NULL, 0));
   p.gflops[PEAK_FP64] = 50;
   p.l2_gbps = 10;
   assert_true(Peaks_contradict(&p, why, sizeof why));
   assert_non_null(strstr(why, "the L2 (10.0 GB/s) slower than memory (20.0)"));
   p.l2_gbps = 80;
   p.gflops[PEAK_F16] = 60; /* a tensor rate below FP32 */
   assert_true(Peaks_contradict(&p, why, sizeof why));
   Peaks unknown = {0};
   assert_false(Peaks_contradict(&unknown, why, sizeof why));
   /* the time said up front: the last measurement's, else a CPU's minute, a GPU's seconds */
   DeviceInfo cpu = {.type = DEVICE_CPU}, gpu = {.type = DEVICE_GPU};
   assert_true(Peaks_expectedSeconds(&cpu, NULL) >= 30);
   assert_true(Peaks_expectedSeconds(&gpu, NULL) <= 10);
   p.seconds = 57;
   assert_true(Peaks_expectedSeconds(&cpu, &p) == 57);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_peaks_contradict),
       cmocka_unit_test(test_compute_bound),
       cmocka_unit_test(test_memory_bound),
       cmocka_unit_test(test_caches_serve_the_model),
       cmocka_unit_test(test_l2_bound),
       cmocka_unit_test(test_l2_tma_loads),
       cmocka_unit_test(test_tma_share_by_order),
       cmocka_unit_test(test_tail_first),
       cmocka_unit_test(test_banks_then_occupancy_then_latency),
       cmocka_unit_test(test_local_and_launch),
       cmocka_unit_test(test_local_above_its_ceiling),
       cmocka_unit_test(test_compute_above_its_peak),
       cmocka_unit_test(test_memory_above_its_bandwidth),
       cmocka_unit_test(test_l2_above_its_ceiling),
       cmocka_unit_test(test_instruction_issue),
       cmocka_unit_test(test_one_block_per_unit),
       cmocka_unit_test(test_three_tf32_ceiling),
       cmocka_unit_test(test_dram_by_compulsory_when_they_fit),
       cmocka_unit_test(test_l1_serves_global_loads),
       cmocka_unit_test(test_trace_for_the_limiter),
       cmocka_unit_test(test_inputs_from_the_model),
       cmocka_unit_test(test_wgmma_shared_memory),
       cmocka_unit_test(test_dram_banded),
       cmocka_unit_test(test_dram_window),
       cmocka_unit_test(test_dram_waves_kept),
       cmocka_unit_test(test_candidate_as_its_run),
       cmocka_unit_test(test_candidate_at_its_clock),
       cmocka_unit_test(test_dram_cluster_unit),
       cmocka_unit_test(test_dram_ring_of_two),
       cmocka_unit_test(test_dram_operands_beside_c),
       cmocka_unit_test(test_dram_split),
       cmocka_unit_test(test_l2_fabric),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
