/* Unit tests for src/base/util.c's file reading: a user's file is read whole up to its limit
 * and refused past it, whatever size fstat reported (files in /proc report 0 and are longer). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/rng.h"
#include "base/util.h"
#include "testing.h"

static char g_path[256];
static uint64_t g_seed;

static int setup(void **state) {
   (void)state;
   const char *t = getenv("TMPDIR");
   snprintf(g_path, sizeof g_path, "%s/gemmtop-util-%d", t && *t ? t : "/tmp", (int)getpid());
   g_seed = Testing_seed("test_util");
   return 0;
}

static int teardown(void **state) {
   (void)state;
   unlink(g_path);
   return 0;
}

/* Writes LEN random printable bytes to g_path; returns them (the caller frees). */
static char *writeRandomFile(size_t len, uint64_t seed) {
   char *text = malloc(len + 1);
   assert_non_null(text);
   Rng rng;
   Rng_seed(&rng, seed);
   for (size_t i = 0; i < len; i++)
      text[i] = (char)(' ' + Rng_next(&rng) % 95);
   text[len] = '\0';
   FILE *f = fopen(g_path, "wb");
   assert_non_null(f);
   assert_int_equal(fwrite(text, 1, len, f), len);
   assert_int_equal(fclose(f), 0);
   return text;
}

/* Files of every size around the buffer's first size and the limit read back whole; one
 * byte past the limit is refused with the sizes in the message. */
static void test_read_sizes_up_to_the_limit(void **state) {
   (void)state;
   const uint64_t seed = g_seed;
   const size_t max = 20000;
   const size_t sizes[] = {0, 1, 4095, 4096, 4097, 8193, max - 1, max};
   for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      char *want = writeRandomFile(sizes[i], seed + i);
      size_t len = 12345;
      char why[256] = "";
      char *got = Util_readUserFile(g_path, max, &len, why, sizeof why);
      if (!got)
         fail_msg("seed %llu: %zu bytes refused: %s", (unsigned long long)seed, sizes[i], why);
      assert_int_equal(len, sizes[i]);
      assert_memory_equal(got, want, sizes[i]);
      assert_int_equal(got[len], '\0');
      free(got);
      free(want);
   }
   char *over = writeRandomFile(max + 1, seed);
   char why[256] = "";
   assert_null(Util_readUserFile(g_path, max, NULL, why, sizeof why));
   assert_non_null(strstr(why, "20001 bytes, more than the 20000"));
   free(over);
}

/* fstat says 0 bytes for /proc files: the buffer grows as the text comes, and the limit
 * still holds ("it grew while being read"). A process's memory map is longer than 4 KiB. */
static void test_read_past_the_stated_size(void **state) {
   (void)state;
   size_t len = 0;
   char why[256] = "";
   char *maps = Util_readUserFile("/proc/self/maps", 64u << 20, &len, why, sizeof why);
   if (!maps)
      fail_msg("/proc/self/maps refused: %s", why);
   assert_true(len > 4096);
   assert_int_equal(strlen(maps), len);
   assert_int_equal(maps[len - 1], '\n');
   free(maps);
   assert_null(Util_readUserFile("/proc/self/maps", 1000, NULL, why, sizeof why));
   assert_non_null(strstr(why, "it grew while being read"));
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_read_sizes_up_to_the_limit),
       cmocka_unit_test(test_read_past_the_stated_size),
   };
   return cmocka_run_group_tests(tests, setup, teardown);
}
