/* Ablation switches: the --ablate list (any combination, any order; bad names refused
 * with the valid ones), the names and compiler defines, the explorer's cycle, the bytes
 * counted, the option on each command, and the history never ranking an ablated run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/run/ablate.h"
#include "core/run/listing.h"
#include "cli/options.h"
#include "tui/history.h"

static const char *const names[] = {"no-a", "no-b", "no-fma", "const-store"};
static const unsigned flags[] = {ABLATE_NO_A, ABLATE_NO_B, ABLATE_NO_FMA, ABLATE_CONST_STORE};

/* Random subsets in random orders, with repeats: the mask is their union. */
static void test_parse_combinations(void **state) {
   (void)state;
   srand((unsigned)time(NULL) ^ (unsigned)getpid());
   for (int trial = 0; trial < 500; trial++) {
      char list[256] = "";
      unsigned want = 0;
      int n = 1 + rand() % 6;
      for (int i = 0; i < n; i++) {
         int j = rand() % 4;
         want |= flags[j];
         snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? "," : "", names[j]);
      }
      unsigned got = 0xdead;
      char err[256] = "";
      if (!Ablate_parse(list, &got, err, sizeof err))
         fail_msg("'%s' refused: %s", list, err);
      assert_int_equal(got, want);
      /* The name lists each switch once, in a fixed order, and parses back. */
      char name[64];
      Ablate_name(got, name, sizeof name);
      unsigned back = 0;
      assert_true(Ablate_parse(name, &back, err, sizeof err));
      assert_int_equal(back, want);
      char defs[200];
      Ablate_defines(got, defs, sizeof defs);
      for (int j = 0; j < 4; j++) {
         const char *d[] = {"-DGT_ABLATE_NO_A=1", "-DGT_ABLATE_NO_B=1", "-DGT_ABLATE_NO_FMA=1",
                            "-DGT_ABLATE_CONST_STORE=1"};
         assert_int_equal(strstr(defs, d[j]) != NULL, (want & flags[j]) != 0);
      }
   }
   unsigned m = 7;
   char err[256];
   assert_true(Ablate_parse("none", &m, err, sizeof err));
   assert_int_equal(m, 0);
   assert_true(Ablate_parse("", &m, err, sizeof err));
   assert_int_equal(m, 0);
   char name[16];
   Ablate_name(0, name, sizeof name);
   assert_string_equal(name, "none");
   char defs[16] = "x";
   Ablate_defines(0, defs, sizeof defs);
   assert_string_equal(defs, "");
}

static void test_parse_refuses(void **state) {
   (void)state;
   const char *bad[] = {"no-c", "no-a,fma", "NO-A", "no-a,", ",no-a", "no-a,,no-b", "no_a", "no-a no-b", "all"};
   for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      unsigned m = 0;
      char err[256] = "";
      if (Ablate_parse(bad[i], &m, err, sizeof err))
         fail_msg("'%s' accepted as %#x", bad[i], m);
      assert_int_equal(m, 0);
      for (int j = 0; j < 4; j++)
         if (!strstr(err, names[j]))
            fail_msg("'%s': the message does not list %s: %s", bad[i], names[j], err);
   }
   unsigned m = 0;
   char err[256] = "";
   assert_false(Ablate_parse("no-a,no-fmaa", &m, err, sizeof err));
   assert_non_null(strstr(err, "'no-fmaa'"));
}

static void test_cycle(void **state) {
   (void)state;
   unsigned seen = 0, m = 0;
   int steps = 0;
   do {
      m = Ablate_next(m);
      seen |= m;
      steps++;
   } while (m != 0 && steps < 100);
   assert_int_equal(m, 0);
   assert_int_equal(steps, 6);
   assert_int_equal(seen, ABLATE_ALL);
   assert_int_equal(Ablate_next(ABLATE_NO_A | ABLATE_NO_FMA), 0); /* a command-line combination: back to real */
}

static void test_bytes(void **state) {
   (void)state;
   for (int trial = 0; trial < 200; trial++) {
      Problem p;
      Problem_setDefaults(&p);
      p.m = 1 + rand() % 5000;
      p.n = 1 + rand() % 5000;
      p.k = 1 + rand() % 5000;
      p.precision = rand() % 2 ? PRECISION_DOUBLE : PRECISION_FLOAT;
      p.beta = rand() % 2 ? 0.0 : 0.5;
      double es = (double)Precision_size(p.precision);
      assert_true(Ablate_bytes(&p, 0) == Problem_bytes(&p));
      assert_true(Ablate_bytes(&p, ABLATE_NO_A) == Problem_bytes(&p) - (double)p.m * p.k * es);
      assert_true(Ablate_bytes(&p, ABLATE_NO_B) == Problem_bytes(&p) - (double)p.k * p.n * es);
      assert_true(Ablate_bytes(&p, ABLATE_NO_FMA | ABLATE_CONST_STORE) == Problem_bytes(&p));
      assert_true(Ablate_coreBytes(&p) == Problem_flops(&p) * es);
   }
}

/* Options_parse: exit 2 with the valid names on stderr; only run and inspect take it. */
static int parseWith(const char *command, const char *value, Options *o, char *errtext, size_t errlen) {
   char *argv[] = {"gemmtop", (char *)command, "--ablate", (char *)value, NULL};
   fflush(stderr);
   FILE *tmp = tmpfile();
   int saved = dup(fileno(stderr));
   dup2(fileno(tmp), fileno(stderr));
   int rc = Options_parse(o, 4, argv, 2, command);
   fflush(stderr);
   dup2(saved, fileno(stderr));
   close(saved);
   rewind(tmp);
   size_t n = fread(errtext, 1, errlen - 1, tmp);
   errtext[n] = '\0';
   fclose(tmp);
   return rc;
}

static void test_option(void **state) {
   (void)state;
   static Options o;
   char err[1024];
   assert_int_equal(parseWith("run", "no-fma,no-a", &o, err, sizeof err), 0);
   assert_int_equal(o.timing.ablate, ABLATE_NO_FMA | ABLATE_NO_A);
   assert_int_equal(parseWith("run", "no-fmx", &o, err, sizeof err), 2);
   assert_non_null(strstr(err, "'no-fmx'"));
   assert_non_null(strstr(err, "no-a, no-b, no-fma, const-store"));
   for (const char *const *c = (const char *const[]){"sweep", "bench", "banks", "list", NULL}; *c; c++) {
      assert_int_equal(parseWith(*c, "no-a", &o, err, sizeof err), 2);
      assert_non_null(strstr(err, "--ablate is for 'gemmtop run', 'gemmtop inspect' and 'gemmtop explain'"));
      /* The other commands do not take the option at all, not even "none". */
      assert_int_equal(parseWith(*c, "none", &o, err, sizeof err), 2);
   }
   assert_int_equal(parseWith("inspect", "const-store", &o, err, sizeof err), 0);
   assert_int_equal(o.timing.ablate, ABLATE_CONST_STORE);
   /* "none" is no ablation. */
   assert_int_equal(parseWith("run", "none", &o, err, sizeof err), 0);
   assert_int_equal(o.timing.ablate, 0);
}

static void test_history(void **state) {
   (void)state;
   static History h;
   History_init(&h);
   HistoryEntry e;
   memset(&e, 0, sizeof e);
   snprintf(e.kernel, sizeof e.kernel, "k");
   Problem_setDefaults(&e.problem);
   e.state = HIST_OK;
   e.gflops = 10;
   assert_int_equal(History_update(&h, &e), 0);
   e.ablate = ABLATE_NO_A;
   e.gflops = 50; /* faster, as ablated runs are: never the best */
   assert_int_equal(History_update(&h, &e), 1);
   assert_int_equal(History_best(&h), 0);
   e.ablate = ABLATE_NO_B;
   assert_int_equal(History_update(&h, &e), 2);
   e.ablate = 0;
   e.gflops = 11;
   assert_int_equal(History_update(&h, &e), 0); /* the real entry, updated */
   assert_int_equal(h.count, 3);
}

/* Is the loop optimised out? The counts of an ablated build against the real one's. */
static void test_loop_kept(void **state) {
   (void)state;
   char w[512];
   const ListingStats real = {.instructions = 628, .fma = 272, .shared_loads = 128, .global_loads = 32};
   ListingStats abl = {.instructions = 913, .fma = 16, .shared_loads = 128, .global_loads = 32};
   assert_true(Ablate_loopKept(&real, &abl, ABLATE_NO_FMA, w, sizeof w)); /* FMAs gone, as asked */
   assert_non_null(strstr(w, "913 of the real kernel's 628 instructions (145%), 16 of its 272 FMA"));
   assert_non_null(strstr(w, "the loop runs"));
   abl = (ListingStats){.instructions = 24, .fma = 0};
   assert_false(Ablate_loopKept(&real, &abl, ABLATE_CONST_STORE, w, sizeof w)); /* under a quarter */
   assert_non_null(strstr(w, "optimised out"));
   abl = (ListingStats){.instructions = 600, .fma = 0, .shared_loads = 128, .global_loads = 32};
   assert_false(Ablate_loopKept(&real, &abl, ABLATE_NO_A, w, sizeof w)); /* FMAs gone, not asked */
   assert_non_null(strstr(w, "multiply-adds are gone though kept"));
   abl = (ListingStats){.instructions = 600, .fma = 272};
   assert_false(Ablate_loopKept(&real, &abl, ABLATE_NO_A, w, sizeof w)); /* B's loads kept, but none left */
   assert_non_null(strstr(w, "every load is gone"));
   assert_true(Ablate_loopKept(&real, &abl, ABLATE_NO_A | ABLATE_NO_B, w, sizeof w)); /* both asked away */
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_parse_combinations), cmocka_unit_test(test_parse_refuses), cmocka_unit_test(test_cycle),
       cmocka_unit_test(test_bytes),              cmocka_unit_test(test_option),        cmocka_unit_test(test_history),
       cmocka_unit_test(test_loop_kept),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
