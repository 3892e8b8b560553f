/* Bank analysis "as compiled" (src/core/analyse/banks_compiled.c): the widths read from compiled
 * code (PTX, AMD ISA), the regrouping rule on traces built by hand, and the real traces of
 * the eight configurations where the source's view and Nsight Compute disagree
 * (docs/banks-ncu.md: myGEMM steps 2, 3, 5 with padding 0, 1, 2, DCU steps 4, 5, 6 without
 * padding), traced on PoCL and analysed under NVIDIA's model: as compiled, their load and
 * store wavefronts and conflicts are Nsight Compute's figures on an H100. Configurations
 * that agreed already (steps 4, 6, 7, 8, 9, 10, fast 1 and 2, MAGMA, DCU 6 with padding)
 * must keep agreeing: the rule must not merge what NVCC leaves alone. The eleven tracing
 * builds take about 20 s of CPU on PoCL. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analyse/banks_compiled.h"
#include "core/model/catalog.h"
#include "core/run/session.h"
#include "testing.h"

/* ---- widths from code ---- */

static void test_widths_ptx(void **state) {
   (void)state;
   BankWidths w;
   const char *ptx = "\tld.global.nc.f32 \t%f1, [%rd4];\n"
                     "\tst.shared.f32 \t[%r9], %f1;\n"
                     "\tld.shared.v4.f32 \t{%f2, %f3, %f4, %f5}, [%r10];\n"
                     "\tld.shared.f32 \t%f6, [%r11];\n";
   assert_true(BankWidths_fromCode(ptx, "PTX", &w));
   assert_true(w.from_code);
   assert_int_equal(w.load_max, 16);
   assert_int_equal(w.store_max, 4);
   assert_non_null(strstr(w.source, "PTX"));
   /* v2 of doubles, and the ::cta form of newer PTX. */
   assert_true(BankWidths_fromCode("ld.shared::cta.v2.f64 {%fd1, %fd2}, [%r1];\nst.shared.v2.b32 [%r2], {%r3, %r4};",
                                   "PTX", &w));
   assert_int_equal(w.load_max, 16);
   assert_int_equal(w.store_max, 8);
   /* Only global accesses: the code says nothing of local ones. */
   assert_false(BankWidths_fromCode("ld.global.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1];", "PTX", &w));
   assert_false(BankWidths_fromCode(NULL, "PTX", &w));
}

static void test_widths_isa(void **state) {
   (void)state;
   BankWidths w;
   assert_true(BankWidths_fromCode("  ds_write_b128 v1, v[2:5]\n  ds_read2_b32 v[6:7], v8 offset1:1\n"
                                   "  ds_read_b64 v[9:10], v11\n",
                                   "ISA", &w));
   assert_int_equal(w.load_max, 8);
   assert_int_equal(w.store_max, 16);
   BankWidths_rule(&w, "no code here");
   assert_false(w.from_code);
   assert_int_equal(w.load_max, 16);
   assert_non_null(strstr(w.source, "no code here"));
}

/* ---- the rule on traces built by hand ---- */

static void add(Trace *t, unsigned site, bool store, unsigned item, unsigned seq, unsigned address) {
   t->records[t->count++] = (TraceRecord){site, store, 4, 0, item, seq, address, false, false};
}

/* 32 lanes, each reading 8 floats of its own row in an unrolled loop: runs of 4. */
static void test_rule_merges_rows(void **state) {
   (void)state;
   Trace t = {.records = calloc(32 * 8 + 32 * 4, sizeof(TraceRecord)), .groups = 1, .wg_size = 32, .dims = 1};
   assert_non_null(t.records);
   for (unsigned lane = 0; lane < 32; lane++)
      for (unsigned k = 0; k < 8; k++)
         add(&t, 0, false, lane, k, 0x1000 + lane * 32 * 4 + 4 * k);
   /* Site 1: misaligned by one word in lane 3 only: no lane merges (one instruction). */
   for (unsigned lane = 0; lane < 32; lane++)
      for (unsigned k = 0; k < 4; k++)
         add(&t, 1, true, lane, k, 0x8000 + lane * 16 + (lane == 3 ? 4 : 0) + 4 * k);
   BankWidths w;
   BankWidths_rule(&w, NULL);
   Trace out;
   BankMerge merges[BANKS_MAX_SITES];
   char err[256];
   assert_true(BankTrace_asCompiled(&t, &w, &out, merges, err, sizeof err));
   assert_int_equal(merges[0].factor, 4);
   assert_int_equal(merges[0].width, 16);
   assert_int_equal(merges[1].factor, 1);
   assert_int_equal(out.count, 32 * 2 + 32 * 4);
   /* A cap of 8 bytes (the code has ld.shared.v2 at most): pairs. */
   Trace_free(&out);
   w.load_max = 8;
   assert_true(BankTrace_asCompiled(&t, &w, &out, merges, err, sizeof err));
   assert_int_equal(merges[0].factor, 2);
   Trace_free(&out);
   /* Stride 2 words in each lane: never neighbours. */
   for (size_t i = 0; i < 32 * 8; i++)
      t.records[i].address = 0x1000 + t.records[i].item * 64 * 4 + 8 * t.records[i].seq;
   BankWidths_rule(&w, NULL);
   assert_true(BankTrace_asCompiled(&t, &w, &out, merges, err, sizeof err));
   assert_int_equal(merges[0].factor, 1);
   Trace_free(&out);
   Trace_free(&t);
}

/* ---- real traces on PoCL against Nsight Compute ---- */

typedef struct NcuCase_ {
   const char *kernel;
   const char *sets[4];
   int m, n, k;
   long long ld_wave, ld_conf, st_wave, st_conf; /* Nsight Compute, H100 (docs/banks-ncu.md) */
} NcuCase;

static const NcuCase CASES[] = {
    /* The eight that disagreed with the source's view. */
    {"mygemm02_tiled", {"TS=16"}, 32, 32, 16, 768, 0, 64, 0},
    {"mygemm03_wpt", {"TS=32", "WPT=8"}, 32, 32, 32, 640, 0, 64, 0},
    {"mygemm05_transposed", {"TS=32", "TSDK=16", "WPT=8", "PADDING=0"}, 32, 32, 16, 320, 0, 272, 240},
    {"mygemm05_transposed", {"TS=32", "TSDK=16", "WPT=8", "PADDING=1"}, 32, 32, 16, 320, 0, 48, 16},
    {"mygemm05_transposed", {"TS=32", "TSDK=16", "WPT=8", "PADDING=2"}, 32, 32, 16, 320, 0, 32, 0},
    {"dcu4_lds", {NULL}, 64, 64, 16, 768, 0, 64, 0},
    {"dcu5_lds_double", {NULL}, 64, 64, 16, 768, 0, 64, 0},
    {"dcu6_lds_conflicts", {"HALVES=0", "PADDING=0"}, 64, 64, 16, 768, 0, 64, 0},
    /* Some that agreed: they must still (the cheap ones to compile on PoCL; fast 1 and 2,
     * MAGMA and steps 7-10 take a minute each there: tools/gpu/gpu_banks_ncu.py checks
     * every one against Nsight Compute on the GPU machine). */
    {"mygemm04_wide", {"TS=32", "WIDTH=4"}, 32, 32, 32, 1280, 128, 64, 0},
    {"mygemm06_2d", {NULL}, 128, 128, 16, 4096, 0, 1088, 896},
    {"dcu6_lds_conflicts", {"HALVES=0", "PADDING=1"}, 64, 64, 16, 1024, 0, 64, 0},
};

static Catalog g_cat;
static Session *g_session;

static int setupPocl(void **state) {
   (void)state;
   char err[1024];
   const char *dir = getenv("GEMMTOP_KERNELS");
   if (!Catalog_load(&g_cat, dir && *dir ? dir : GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err)) {
      fprintf(stderr, "cannot load kernels: %s\n", err);
      return -1;
   }
   int dev = Testing_poclDevice(err, sizeof err);
   g_session = dev < 0 ? NULL : Session_open(Backend_opencl(), dev, &g_cat, err, sizeof err);
   if (!g_session)
      fprintf(stderr, "# no PoCL session: %s\n", err);
   return 0;
}

static int teardownPocl(void **state) {
   (void)state;
   if (g_session)
      Session_close(g_session);
   Catalog_free(&g_cat);
   return 0;
}

static void sums(const BankAnalysis *a, long long f[4]) {
   memset(f, 0, 4 * sizeof *f);
   for (const BankRequest *r = a->requests; r < a->requests + a->nrequests; r++) {
      f[r->store ? 2 : 0] += r->wavefronts;
      f[r->store ? 3 : 1] += r->wavefronts - r->ideal;
   }
}

static void traceCase(const NcuCase *c, BankViews *v) {
   const KernelInfo *k = Catalog_find(&g_cat, c->kernel);
   assert_non_null(k);
   long long values[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(k, values);
   char err[512];
   for (int i = 0; i < 4 && c->sets[i]; i++) {
      char name[32];
      const char *eq = strchr(c->sets[i], '=');
      snprintf(name, sizeof name, "%.*s", (int)(eq - c->sets[i]), c->sets[i]);
      int at = KernelInfo_paramIndex(k, name);
      assert_true(at >= 0);
      values[at] = atoll(eq + 1);
   }
   Problem p;
   Problem_setDefaults(&p);
   p.m = c->m, p.n = c->n, p.k = c->k;
   Trace t;
   RunResult *r = calloc(1, sizeof *r);
   assert_non_null(r);
   RunStatus st = Session_trace(g_session, k, values, &p, 1024, false, &t, r);
   if (st != RUN_OK)
      fail_msg("%s: %s", c->kernel, r->message);
   assert_int_equal(t.problem.m, c->m);
   assert_int_equal(t.problem.k, c->k);
   assert_true(BankViews_run(v, &t, &(BankModel){0}, NULL, NULL, NULL, err, sizeof err) == false);
   BankModel m = BankModel_nvidia();
   assert_true(BankViews_run(v, &t, &m, NULL, NULL, "recorded on PoCL", err, sizeof err));
   Trace_free(&t);
   RunResult_free(r);
   free(r);
}

static void test_ncu_cases(void **state) {
   (void)state;
   if (!g_session)
      SKIP_BECAUSE("no PoCL device to trace on");
   int disagree = 0;
   for (size_t i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
      const NcuCase *c = &CASES[i];
      if (!Catalog_find(&g_cat, c->kernel))
         continue;
      BankViews v;
      traceCase(c, &v);
      long long src[4], got[4], want[4] = {c->ld_wave, c->ld_conf, c->st_wave, c->st_conf};
      sums(&v.source, src);
      sums(&v.compiled, got);
      bool same = !memcmp(got, want, sizeof want);
      printf("# %-20s %-28s source %5lld/%-4lld %5lld/%-4lld  as compiled %5lld/%-4lld %5lld/%-4lld  ncu %5lld/%-4lld "
             "%5lld/%-4lld %s\n",
             c->kernel, c->sets[0] ? c->sets[c->sets[1] ? (c->sets[2] ? 3 : 1) : 0] : "defaults", src[0], src[1], src[2],
             src[3], got[0], got[1], got[2], got[3], want[0], want[1], want[2], want[3], same ? "agree" : "DIFFER");
      disagree += !same;
      BankViews_free(&v);
   }
   assert_int_equal(disagree, 0);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_widths_ptx),
       cmocka_unit_test(test_widths_isa),
       cmocka_unit_test(test_rule_merges_rows),
       cmocka_unit_test_setup_teardown(test_ncu_cases, setupPocl, teardownPocl),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
