/* Replays every input the fuzzers ever crashed on (tests/fuzz/regressions/<harness>/)
 * through the same harness code, built here without libFuzzer: a bug that comes back
 * fails the ordinary suite (and the ASan/UBSan one) without running a fuzzer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../fuzz/fuzz_expr.c"
#include "../fuzz/fuzz_merge.c"
#include "../fuzz/fuzz_metadata.c"
#include "../fuzz/fuzz_npy.c"
#include "../fuzz/fuzz_preset.c"
#include "../fuzz/fuzz_roster.c"
#include "../fuzz/fuzz_serve.c"
#include "../fuzz/fuzz_shapes.c"
#include "../fuzz/fuzz_tuners.c"
#include "../fuzz/fuzz_util.c"
#include "base/util.h"

/* Feeds each file of tests/fuzz/regressions/<harness>/ to fn; returns how many. */
static int replay(const char *harness, int (*fn)(const uint8_t *, size_t)) {
   char dir[1024];
   snprintf(dir, sizeof dir, "%s/tests/fuzz/regressions/%s", GEMMTOP_SOURCE_DIR, harness);
   DIR *d = opendir(dir);
   if (!d)
      fail_msg("cannot read %s", dir);
   int count = 0;
   struct dirent *e;
   while ((e = readdir(d))) {
      if (e->d_name[0] == '.')
         continue;
      char path[2048];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      size_t len = 0;
      char *data = Util_readFile(path, &len);
      if (!data)
         fail_msg("cannot read %s", path);
      print_message("%s: %s (%zu bytes)\n", harness, e->d_name, len);
      fn((const uint8_t *)data, len);
      free(data);
      count++;
   }
   closedir(d);
   return count;
}

/* Each folder holds at least the inputs of the defects first found by hand, so a replay
 * that read nothing would be noticed. */
static void test_replay_expr(void **state) {
   (void)state;
   assert_true(replay("expr", Fuzz_expr) >= 3);
}

static void test_replay_metadata(void **state) {
   (void)state;
   assert_true(replay("metadata", Fuzz_metadata) >= 2);
}

static void test_replay_preset(void **state) {
   (void)state;
   assert_true(replay("preset", Fuzz_preset) >= 1);
}

static void test_replay_npy(void **state) {
   (void)state;
   assert_true(replay("npy", Fuzz_npy) >= 1);
}

static void test_replay_tuners(void **state) {
   (void)state;
   assert_true(replay("tuners", Fuzz_tuners) >= 4);
}

/* The class server's request reader and roster, the merge's CSV reader and the shape
 * suites: at least the defects of issue 50 found by hand. */
static void test_replay_serve(void **state) {
   (void)state;
   assert_true(replay("serve", Fuzz_serve) >= 3);
}

static void test_replay_roster(void **state) {
   (void)state;
   assert_true(replay("roster", Fuzz_roster) >= 2);
}

static void test_replay_merge(void **state) {
   (void)state;
   assert_true(replay("merge", Fuzz_merge) >= 1);
}

static void test_replay_shapes(void **state) {
   (void)state;
   assert_true(replay("shapes", Fuzz_shapes) >= 1);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_replay_expr),
       cmocka_unit_test(test_replay_metadata),
       cmocka_unit_test(test_replay_preset),
       cmocka_unit_test(test_replay_npy),
       cmocka_unit_test(test_replay_tuners),
       cmocka_unit_test(test_replay_serve),
       cmocka_unit_test(test_replay_roster),
       cmocka_unit_test(test_replay_merge),
       cmocka_unit_test(test_replay_shapes),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
