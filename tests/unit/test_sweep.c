/* The sweep's search space (src/sweep.c, shared by `gemmtop sweep` and the explorer):
 * every combination listed once, the invalid ones dropped (checked against the rules
 * computed here independently), fixed parameters kept, the shuffle a permutation with
 * the starting configuration first, huge spaces drawn at random within the allowed
 * values, and each run's outcome named. Kernels and sizes are random on every run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/catalog.h"
#include "core/model/config.h"
#include "base/rng.h"
#include "core/sweep/measurer.h"
#include "core/sweep/sweep.h"

static Rng g_rng;
static uint64_t g_seed;

static const DeviceLimits limits = {.max_wg = 256, .max_wi = {256, 256, 64}, .local_mem = 32768, .fp64 = true,
                                    .warp = 32};

/* A random non-empty subset of the powers of two 1..128, ascending. */
static int randomValues(long long *out) {
   int n = 0;
   while (n == 0)
      for (int e = 0; e <= 7; e++)
         if (Rng_below(&g_rng, 2))
            out[n++] = 1LL << e;
   return n;
}

static void appendValues(char *text, size_t len, const long long *v, int n) {
   for (int i = 0; i < n; i++)
      snprintf(text + strlen(text), len - strlen(text), "%s%lld", i ? ", " : "", v[i]);
}

/* A kernel with A, B (rules: M % A == 0, A % B == 0, a group of A x B) and C (no rule). */
static void makeKernel(KernelInfo *k, long long *a, int *na, long long *b, int *nb, long long *c, int *nc) {
   *na = randomValues(a);
   *nb = randomValues(b);
   *nc = 1 + (int)Rng_below(&g_rng, 4);
   for (int i = 0; i < *nc; i++)
      c[i] = i + 1;
   char text[2048] = "/*@gemmtop\nname: t\nparam: A = ";
   snprintf(text + strlen(text), sizeof text - strlen(text), "%lld in ", a[0]);
   appendValues(text, sizeof text, a, *na);
   snprintf(text + strlen(text), sizeof text - strlen(text), "\nparam: B = %lld in ", b[0]);
   appendValues(text, sizeof text, b, *nb);
   snprintf(text + strlen(text), sizeof text - strlen(text), "\nparam: C = 1 in ");
   appendValues(text, sizeof text, c, *nc);
   strcat(text, "\nrequire: M % A == 0 ; M must be a multiple of A\n"
                "require: A % B == 0 ; A must be a multiple of B\n"
                "global: N, M\nlocal: A, B\n*/\n__kernel void gemm() {}\n");
   char err[512];
   if (!KernelInfo_parse(k, text, "t.cl", err, sizeof err))
      fail_msg("seed %llu: %s\n%s", (unsigned long long)g_seed, err, text);
}

static bool validHere(long long a, long long b, int m) { return m % a == 0 && a % b == 0 && a * b <= 256; }

static int cmpCand(const void *x, const void *y) {
   return memcmp(((const SweepCandidate *)x)->values, ((const SweepCandidate *)y)->values, 3 * sizeof(long long));
}

static void test_enumerate_and_shuffle(void **state) {
   (void)state;
   for (int trial = 0; trial < 40; trial++) {
      KernelInfo k;
      long long a[8], b[8], c[4];
      int na, nb, nc;
      makeKernel(&k, a, &na, b, &nb, c, &nc);
      Problem p;
      Problem_setDefaults(&p);
      static const int sizes[] = {16, 48, 64, 96, 128, 256};
      p.m = p.n = p.k = sizes[Rng_below(&g_rng, 6)];
      int expect = 0;
      for (int i = 0; i < na; i++)
         for (int j = 0; j < nb; j++)
            expect += validHere(a[i], b[j], p.m) ? nc : 0;
      long long base[KERNEL_MAX_PARAMS] = {a[Rng_below(&g_rng, (uint64_t)na)], b[Rng_below(&g_rng, (uint64_t)nb)],
                                           c[Rng_below(&g_rng, (uint64_t)nc)]};
      SweepSpace sp;
      assert_true(Sweep_enumerate(&k, base, 7, &p, &limits, &g_rng, &sp));
      assert_true(sp.space == na * nb * nc);
      if (sp.count != expect)
         fail_msg("seed %llu: %d valid listed, %d expected (M=%d)", (unsigned long long)g_seed, sp.count, expect, p.m);
      assert_int_equal(sp.invalid, na * nb * nc - expect);
      assert_int_equal(sp.first_invalid[0] != '\0', sp.invalid > 0);
      for (int i = 0; i < sp.count; i++)
         assert_true(validHere(sp.cands[i].values[0], sp.cands[i].values[1], p.m));
      /* The shuffle: the same configurations, each once, the start first when valid. */
      SweepCandidate *before = malloc(sizeof *before * (size_t)(sp.count + 1));
      assert_non_null(before);
      memcpy(before, sp.cands, sizeof *before * (size_t)sp.count);
      Sweep_shuffle(&sp, &k, base, &g_rng);
      if (validHere(base[0], base[1], p.m))
         assert_memory_equal(sp.cands[0].values, base, 3 * sizeof(long long));
      qsort(before, (size_t)sp.count, sizeof *before, cmpCand);
      qsort(sp.cands, (size_t)sp.count, sizeof *sp.cands, cmpCand);
      for (int i = 0; i < sp.count; i++) {
         assert_memory_equal(before[i].values, sp.cands[i].values, 3 * sizeof(long long));
         if (i)
            assert_true(cmpCand(&sp.cands[i - 1], &sp.cands[i]) < 0);
      }
      free(before);
      SweepSpace_free(&sp);
      assert_null(sp.cands);

      /* Only C free: A and B stay as they were. */
      assert_true(Sweep_enumerate(&k, base, 4, &p, &limits, &g_rng, &sp));
      assert_true(sp.space == nc);
      assert_int_equal(sp.count, validHere(base[0], base[1], p.m) ? nc : 0);
      for (int i = 0; i < sp.count; i++) {
         assert_int_equal(sp.cands[i].values[0], base[0]);
         assert_int_equal(sp.cands[i].values[1], base[1]);
         assert_int_equal(sp.cands[i].values[2], c[i]);
      }
      SweepSpace_free(&sp);
      KernelInfo_free(&k);
   }
}

/* Over SWEEP_MAX_ENUMERATED combinations: that many are drawn, each from the allowed values. */
static void test_huge_space_drawn(void **state) {
   (void)state;
   char text[4096] = "/*@gemmtop\nname: big\n";
   for (int p = 0; p < 4; p++) {
      snprintf(text + strlen(text), sizeof text - strlen(text), "param: P%d = 1 in ", p);
      for (int v = 1; v <= 32; v++)
         snprintf(text + strlen(text), sizeof text - strlen(text), "%s%d", v > 1 ? ", " : "", v);
      strcat(text, "\n");
   }
   strcat(text, "require: P0 <= P1 ; P0 at most P1\nglobal: N, M\nlocal: 1, 1\n*/\n__kernel void gemm() {}\n");
   KernelInfo k;
   char err[512];
   assert_true(KernelInfo_parse(&k, text, "big.cl", err, sizeof err));
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 64;
   long long base[KERNEL_MAX_PARAMS] = {1, 1, 1, 1};
   SweepSpace sp;
   assert_true(Sweep_enumerate(&k, base, 15, &p, &limits, &g_rng, &sp));
   assert_true(sp.space == 32.0 * 32 * 32 * 32);
   assert_int_equal(sp.count + sp.invalid, SWEEP_MAX_ENUMERATED);
   /* About half the draws have P0 <= P1 (33/64 of them). */
   assert_true(sp.count > SWEEP_MAX_ENUMERATED * 0.45 && sp.count < SWEEP_MAX_ENUMERATED * 0.58);
   for (int i = 0; i < sp.count; i++) {
      for (int j = 0; j < 4; j++)
         assert_true(sp.cands[i].values[j] >= 1 && sp.cands[i].values[j] <= 32);
      assert_true(sp.cands[i].values[0] <= sp.cands[i].values[1]);
   }
   SweepSpace_free(&sp);
   KernelInfo_free(&k);
}

static void test_classify(void **state) {
   (void)state;
   RunResult *r = calloc(1, sizeof *r);
   assert_non_null(r);
   SweepCandidate c;
   double ms = Rng_range(&g_rng, 1, 100);
   r->median_ms = ms;
   r->gflops = Rng_range(&g_rng, 1, 1000);
   r->compile_ms = 12;
   r->verify.max_rel_err = 1e-7;
   memset(&c, 0, sizeof c);
   Sweep_classify(&c, RUN_OK, r, ms / 1000 * 2, NULL);
   assert_int_equal(c.outcome, SWEEP_OK);
   assert_true(c.gflops == r->gflops && c.median_ms == ms && c.compile_ms == 12 && c.max_rel_err == 1e-7);
   memset(&c, 0, sizeof c);
   Sweep_classify(&c, RUN_OK, r, ms / 1000 / 2, NULL);
   assert_int_equal(c.outcome, SWEEP_TIMEOUT);
   assert_true(c.gflops == 0);
   assert_non_null(strstr(c.reason, "over --timeout"));
   const RunStatus st[] = {RUN_NOT_VERIFIED, RUN_COMPILE_ERROR, RUN_INVALID, RUN_OUT_OF_MEMORY, RUN_DEVICE_ERROR};
   const SweepOutcome want[] = {SWEEP_WRONG, SWEEP_COMPILE, SWEEP_INVALID, SWEEP_FAILED, SWEEP_FAILED};
   for (int i = 0; i < 5; i++) {
      memset(&c, 0, sizeof c);
      snprintf(r->message, sizeof r->message, "message %d", i);
      Sweep_classify(&c, st[i], r, 5, NULL);
      assert_int_equal(c.outcome, want[i]);
      assert_string_equal(c.reason, r->message);
      assert_true(c.gflops == 0);
   }
   assert_string_equal(SweepOutcome_name(SWEEP_WRONG), "wrong result");
   assert_string_equal(SweepOutcome_name(SWEEP_COMPILE), "compile failed");
   free(r);
}

/* A compile failure's reason: the build log's first error; on a class server (own_file)
 * the first about the kernel's own file, in the log formats of PoCL, clang and NVRTC, and
 * never a line of another file (a secret an include would have read). */
static void test_classify_compile_error_own_file(void **state) {
   (void)state;
   RunResult *r = calloc(1, sizeof *r);
   assert_non_null(r);
   snprintf(r->message, sizeof r->message, "the kernel did not compile");
   static const struct {
      const char *log, *any, *own;
   } cases[] = {
       {"2 errors generated.\nerror: /srv/secret:1:1: unknown type name 'TOPSECRET'\n"
        "error: mine.cl:31:24: expected ';'\n",
        "error: /srv/secret:1:1: unknown type name 'TOPSECRET'", "error: mine.cl:31:24: expected ';'"},
       {"In file included from mine.cl:3:\n/srv/secret:1:1: error: unknown type name 'TOPSECRET'\nTOPSECRET x\n^\n"
        "mine.cl:9:2: error: use of undeclared identifier 'q'\n",
        "/srv/secret:1:1: error: unknown type name 'TOPSECRET'", "mine.cl:9:2: error: use of undeclared identifier 'q'"},
       {"/srv/secret(1): error: identifier \"TOPSECRET\" is undefined\nmine.cl(12): error: expected a \";\"\n",
        "/srv/secret(1): error: identifier \"TOPSECRET\" is undefined", "mine.cl(12): error: expected a \";\""},
       /* a file whose name ends like the kernel's is another file */
       {"error: /srv/mine.cl:1:1: TOPSECRET\nerror: xmine.cl:2:1: TOPSECRET\n", "error: /srv/mine.cl:1:1: TOPSECRET",
        NULL},
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      r->build_log = (char *)cases[i].log;
      SweepCandidate c;
      memset(&c, 0, sizeof c);
      Sweep_classify(&c, RUN_COMPILE_ERROR, r, 5, NULL);
      assert_int_equal(c.outcome, SWEEP_COMPILE);
      if (!strstr(c.reason, cases[i].any))
         fail_msg("case %zu: %s", i, c.reason);
      memset(&c, 0, sizeof c);
      Sweep_classify(&c, RUN_COMPILE_ERROR, r, 5, "mine.cl");
      assert_null(strstr(c.reason, "TOPSECRET"));
      if (cases[i].own)
         assert_non_null(strstr(c.reason, cases[i].own));
      else
         assert_non_null(strstr(c.reason, "the compiler's errors name no line of mine.cl"));
   }
   r->build_log = NULL;
   free(r);
}

/* Asked only whether (no message), Config_check gives the same answer as when it explains;
 * and it explains the first refusal of a listed space, which lists the same configurations
 * it would have listed. */
/* A CPU's launches are slower and its first one waits for the driver's compile: its
 * default limit is longer than a GPU's. */
static void test_default_timeout(void **state) {
   (void)state;
   DeviceInfo cpu = {.type = DEVICE_CPU}, gpu = {.type = DEVICE_GPU}, acc = {.type = DEVICE_ACCELERATOR};
   assert_true(Sweep_timeout(0, &cpu) == 30);
   assert_true(Sweep_timeout(0, &gpu) == 5);
   assert_true(Sweep_timeout(0, &acc) == 5);
   assert_true(Sweep_timeout(0, NULL) == 5);
   /* --timeout wins on either */
   assert_true(Sweep_timeout(2.5, &cpu) == 2.5);
   assert_true(Sweep_timeout(60, &gpu) == 60);
}

static void test_check_without_words(void **state) {
   (void)state;
   for (int trial = 0; trial < 20; trial++) {
      KernelInfo k;
      long long a[8], b[8], c[8];
      int na, nb, nc;
      makeKernel(&k, a, &na, b, &nb, c, &nc);
      Problem p;
      Problem_setDefaults(&p);
      p.m = p.n = p.k = 64 << Rng_below(&g_rng, 3);
      for (int i = 0; i < na; i++)
         for (int j = 0; j < nb; j++) {
            long long v[KERNEL_MAX_PARAMS] = {a[i], b[j], c[0]};
            char msg[1536] = "";
            bool worded = Config_check(&k, v, &p, &limits, NULL, msg, sizeof msg);
            assert_int_equal(worded, Config_check(&k, v, &p, &limits, NULL, NULL, 0));
            assert_int_equal(worded, validHere(a[i], b[j], p.m));
            if (!worded)
               assert_true(strlen(msg) > 0);
         }
      SweepSpace sp;
      long long base[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(&k, base);
      assert_true(Sweep_enumerate(&k, base, 0x7, &p, &limits, &g_rng, &sp));
      assert_int_equal(sp.invalid > 0, sp.first_invalid[0] != '\0');
      if (sp.invalid > 0 && !strstr(sp.first_invalid, "must be a multiple of") && !strstr(sp.first_invalid, "256"))
         fail_msg("seed %llu: the first refusal is not explained: %s", (unsigned long long)g_seed, sp.first_invalid);
      SweepSpace_free(&sp);
      KernelInfo_free(&k);
   }
}

/* c's build as a parent takes it when the line did not say: no registers, no static local
 * memory figure, no clock. */
static void assertBuildUnknown(const SweepCandidate *c) {
   assert_int_equal(c->registers, 0);
   assert_int_equal(c->local_mem, -1);
   assert_true(c->sm_mhz == 0);
}

/* A measuring child's answer carries what the build reported and the clock its launches
 * held, so that sweep's limit column judges the run as explain would (it judged without
 * them: no waves, no DRAM count). A line of an earlier gemmtop, without them, leaves them
 * unknown; figures that no build reports are taken as unknown; a line that is not an
 * answer is a failure that quotes it. */
static void test_result_line_carries_the_build(void **state) {
   (void)state;
   SweepCandidate c = {.outcome = SWEEP_OK, .gflops = 30727.5, .median_ms = 0.0349, .compile_ms = 160.25,
                       .max_rel_err = 1.2e-7, .registers = 30, .local_mem = 1024, .sm_mhz = 1755};
   snprintf(c.reason, sizeof c.reason, "verified\n(max rel err 1.2e-07)");
   char line[512];
   Measurer_formatResult(&c, true, line, sizeof line);
   assert_null(strchr(line, '\n'));
   SweepCandidate back;
   memset(&back, 0, sizeof back);
   Measurer_parseResult(line, &back);
   assert_int_equal(back.outcome, SWEEP_OK);
   assert_true(back.gflops == c.gflops && back.median_ms == c.median_ms && back.compile_ms == c.compile_ms &&
               back.max_rel_err == c.max_rel_err);
   assert_true(back.cached);
   assert_int_equal(back.registers, 30);
   assert_int_equal(back.local_mem, 1024);
   assert_true(back.sm_mhz == 1755);
   assert_string_equal(back.reason, "verified (max rel err 1.2e-07)");

   /* Not known in the child: not known in the parent. */
   SweepCandidate unknown = {.outcome = SWEEP_WRONG, .local_mem = -1};
   snprintf(unknown.reason, sizeof unknown.reason, "3 of 64 elements wrong");
   Measurer_formatResult(&unknown, false, line, sizeof line);
   memset(&back, 0xff, sizeof back);
   Measurer_parseResult(line, &back);
   assert_int_equal(back.outcome, SWEEP_WRONG);
   assertBuildUnknown(&back);
   assert_string_equal(back.reason, "3 of 64 elements wrong");

   /* An earlier gemmtop's line, and figures no build reports */
   memset(&back, 0xff, sizeof back);
   Measurer_parseResult("result 1 0x1p+10 0x1p-3 0x0p+0 0x1p-24 0 verified (max rel err 6e-08)", &back);
   assert_int_equal(back.outcome, SWEEP_OK);
   assert_true(back.gflops == 1024 && back.median_ms == 0.125);
   assertBuildUnknown(&back);
   assert_string_equal(back.reason, "verified (max rel err 6e-08)");
   memset(&back, 0xff, sizeof back);
   Measurer_parseResult("result 1 0x1p+10 0x1p-3 0x0p+0 0x0p+0 1 built -5 -7 nan verified", &back);
   assertBuildUnknown(&back);
   assert_string_equal(back.reason, "verified");

   memset(&back, 0, sizeof back);
   Measurer_parseResult("result ok fast", &back);
   assert_int_equal(back.outcome, SWEEP_FAILED);
   assert_non_null(strstr(back.reason, "answered 'result ok fast'"));
}

int main(void) {
   g_seed = Rng_freshSeed();
   Rng_seed(&g_rng, g_seed);
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_enumerate_and_shuffle),
       cmocka_unit_test(test_huge_space_drawn),
       cmocka_unit_test(test_classify),
       cmocka_unit_test(test_result_line_carries_the_build),
       cmocka_unit_test(test_classify_compile_error_own_file),
       cmocka_unit_test(test_check_without_words),
       cmocka_unit_test(test_default_timeout),
   };
   int rc = cmocka_run_group_tests(tests, NULL, NULL);
   if (rc)
      fprintf(stderr, "seed %llu\n", (unsigned long long)g_seed);
   return rc;
}
