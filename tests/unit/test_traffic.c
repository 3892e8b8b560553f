/* The access-count model (core/analyse/traffic.h) from reuse: metadata, and what a preset leaves
 * to the defaults (Preset_unstated). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model/catalog.h"
#include "core/model/preset.h"
#include "core/run/ablate.h"
#include "core/analyse/traffic.h"
#include "base/util.h"

static const DeviceLimits LIMITS = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true,
                                    .warp = 32};

static void parseKernel(KernelInfo *k, const char *extra) {
   char text[1024], err[512];
   snprintf(text, sizeof text,
            "/*@gemmtop\nname: t\nparam: TS = 16 in 8, 16, 32 ; tile\nparam: WPT = 4 in 1, 4 ; work\n"
            "global: N, M\nlocal: TS, TS\n%s*/\n__kernel void gemm() {}\n", extra);
   if (!KernelInfo_parse(k, text, "t.cl", err, sizeof err))
      fail_msg("%s", err);
}

static bool near(double a, double b) { return fabs(a - b) < 1e-12; }

static void test_model(void **state) {
   (void)state;
   KernelInfo k;
   parseKernel(&k, "reuse: A=TS B=TS*WPT\nlocal_reuse: A=1 B=WPT\n");
   long long values[KERNEL_MAX_PARAMS] = {32, 4};
   Problem p;
   Problem_setDefaults(&p);
   p.k = 512;
   TrafficModel t;
   char err[512];
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_true(t.known && t.local_known);
   assert_int_equal(t.reuse_a, 32);
   assert_int_equal(t.reuse_b, 128);
   assert_true(near(t.loads_per_fma, 1.0 / 32 + 1.0 / 128));
   assert_true(near(t.stores_per_fma, 1.0 / 512));
   assert_true(t.c_loads_per_fma == 0); /* beta 0: C is not read */
   assert_true(near(t.local_reads_per_fma, 1.0 + 0.25));
   /* 2 flops per multiply-add over 4 bytes per load and per store. */
   assert_true(near(t.flops_per_byte, 2.0 / (4 * (1.0 / 32 + 1.0 / 128) + 4.0 / 512)));
   p.beta = 0.5;
   p.precision = PRECISION_DOUBLE;
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_true(near(t.c_loads_per_fma, 1.0 / 512));
   char text[512];
   Traffic_describe(&t, text, sizeof text);
   assert_non_null(strstr(text, "(A 1/32, B 1/128)"));
   assert_non_null(strstr(text, "as many loads (beta)"));
   assert_non_null(strstr(text, "local: 1.25 reads"));
   /* An ablation: no-a takes A's loads out of the global traffic (the MAGMA lesson); no-fma
    * and const-store leave the counts. */
   TrafficModel ab = t;
   Traffic_ablate(&ab, ABLATE_NO_A, &p);
   assert_true(near(ab.loads_per_fma, 1.0 / 128));
   assert_true(ab.flops_per_byte > t.flops_per_byte);
   Traffic_describe(&ab, text, sizeof text);
   assert_non_null(strstr(text, "(A off (no-a), B 1/128)"));
   ab = t;
   Traffic_ablate(&ab, ABLATE_NO_A | ABLATE_NO_B, &p);
   assert_true(ab.loads_per_fma == 0);
   assert_true(near(ab.flops_per_byte, 2.0 / (8 * (2.0 / 512))));
   ab = t;
   Traffic_ablate(&ab, ABLATE_NO_FMA | ABLATE_CONST_STORE, &p);
   assert_true(near(ab.loads_per_fma, t.loads_per_fma) && near(ab.flops_per_byte, t.flops_per_byte));
   KernelInfo_free(&k);
}

/* A tile that the problem does not fill loads as much as a full one: a decode's one token in
 * a tile of 128 rows reads each element of B for one multiply-add, not 128 of them. */
static void test_partial_tiles(void **state) {
   (void)state;
   KernelInfo k;
   parseKernel(&k, "reuse: A=TS B=TS*WPT\n"); /* A across 32 columns of C, B across 128 rows */
   long long values[KERNEL_MAX_PARAMS] = {32, 4};
   Problem p;
   Problem_setDefaults(&p);
   p.m = 1, p.n = 4096, p.k = 512;
   TrafficModel t;
   char err[512];
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_int_equal(t.reuse_b, 128); /* the tile's, as the metadata says */
   assert_true(near(t.loads_per_fma, 1.0 / 32 + 1.0));
   p.m = 200; /* two tiles of 128 rows for 200: each element of B serves 100 */
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_true(near(t.loads_per_fma, 1.0 / 32 + 1.0 / 100));
   p.m = 256, p.n = 100; /* four tiles of 32 columns for 100: each element of A serves 25 */
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_true(near(t.loads_per_fma, 1.0 / 25 + 1.0 / 128));
   /* The compulsory bytes bound the model's: no more flops per byte than each element once. */
   p.m = 1, p.n = 4096;
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   const double compulsory = 2.0 * p.m * p.n * p.k / (4.0 * (p.m * p.k + p.k * p.n + p.m * p.n));
   assert_true(t.flops_per_byte <= compulsory);
   /* no-a keeps B's partial tiles */
   p.m = 200;
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   Traffic_ablate(&t, ABLATE_NO_A, &p);
   assert_true(near(t.loads_per_fma, 1.0 / 100));
   KernelInfo_free(&k);
}

static void test_no_model_and_refusals(void **state) {
   (void)state;
   KernelInfo k;
   long long values[KERNEL_MAX_PARAMS] = {16, 1};
   Problem p;
   Problem_setDefaults(&p);
   TrafficModel t;
   char err[512] = "", text[256];
   parseKernel(&k, "");
   assert_true(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_false(t.known);
   Traffic_describe(&t, text, sizeof text);
   assert_non_null(strstr(text, "no access-count model"));
   KernelInfo_free(&k);
   parseKernel(&k, "reuse: A=TS-16 B=1\n");
   assert_false(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_non_null(strstr(err, "reuse A=TS-16 is 0; a reuse is at least 1"));
   KernelInfo_free(&k);
   parseKernel(&k, "reuse: A=NOPE B=1\n");
   assert_false(Traffic_model(&k, values, &p, &LIMITS, &t, err, sizeof err));
   assert_non_null(strstr(err, "NOPE"));
   KernelInfo_free(&k);
   char text2[1024];
   snprintf(text2, sizeof text2, "/*@gemmtop\nname: t\nglobal: N\nlocal: 1\nreuse: A=4\n*/\n");
   assert_false(KernelInfo_parse(&k, text2, "t.cl", err, sizeof err));
   assert_non_null(strstr(err, "reuse: give both A=expr and B=expr"));
}

/* Every shipped kernel of the lessons' ladders has a model that evaluates at its defaults. */
static void test_shipped_models(void **state) {
   (void)state;
   Catalog cat;
   char err[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   const char *ladders[] = {"mygemm", "dcu", "magma", "fast", "tensor"};
   int checked = 0;
   for (int i = 0; i < cat.count; i++) {
      const KernelInfo *k = &cat.kernels[i];
      bool lesson = false;
      for (size_t l = 0; l < 5; l++)
         lesson |= !strcmp(k->ladder, ladders[l]);
      if (!lesson || k->arch[0])
         continue;
      long long values[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(k, values);
      Problem p;
      Problem_setDefaults(&p);
      TrafficModel t;
      if (!Traffic_model(k, values, &p, &LIMITS, &t, err, sizeof err) || !t.known)
         fail_msg("%s: no access-count model: %s", k->name, err);
      checked++;
   }
   assert_true(checked >= 20);
   Catalog_free(&cat);
}

static void test_unstated(void **state) {
   (void)state;
   char dir[] = "/tmp/gemmtop-traffic-XXXXXX", path[64], out[128], err[512];
   assert_non_null(mkdtemp(dir));
   snprintf(path, sizeof path, "%s/p.preset", dir);
   const char *text = "kernel = x\nTS = 16\n";
   assert_true(Util_writeFileAtomic(path, text, strlen(text)));
   Preset p;
   assert_true(Preset_load(path, &p, err, sizeof err));
   Preset_unstated(&p, out, sizeof out);
   assert_string_equal(out, "size, precision, layout, alpha, beta");
   text = "kernel = x\nm = 64\nprecision = double\nlayout = TN\nalpha = 1.5\nbeta = 0.5\n";
   assert_true(Util_writeFileAtomic(path, text, strlen(text)));
   assert_true(Preset_load(path, &p, err, sizeof err));
   Preset_unstated(&p, out, sizeof out);
   assert_string_equal(out, "N, K");
   remove(path);
   rmdir(dir);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_model),
       cmocka_unit_test(test_partial_tiles),
       cmocka_unit_test(test_no_model_and_refusals),
       cmocka_unit_test(test_shipped_models),
       cmocka_unit_test(test_unstated),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
