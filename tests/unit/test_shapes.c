/* Shape suites (core/model/shapes.h): the file format and each refusal with its line named, the
 * shipped suites (every one parses, the Llama suites hold what their titles say), a user's
 * suite replacing a shipped one, resolving a name or a file, and the weighted geometric mean. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model/shapes.h"
#include "testing.h"

static ShapeSuite suite;

static bool parse(const char *text, char *err, size_t errlen) {
   return Shapes_parse(text, strlen(text), "/x/llama.shapes", &suite, err, errlen);
}

static void test_format(void **state) {
   (void)state;
   char err[1024];
   assert_true(parse("# a comment\ntitle = Two shapes\nabout = first line\nabout = second\nsource = made up\n\n"
                     "candidates = fast02_warptile fast03_splitk\ncandidates = hopper5_order\n"
                     "128x8192x8192  decode-128  0.25\n  4096x4096x4096 square\n",
                     err, sizeof err));
   assert_string_equal(suite.name, "llama");
   assert_string_equal(suite.candidates, "fast02_warptile fast03_splitk hopper5_order");
   assert_string_equal(suite.title, "Two shapes");
   assert_string_equal(suite.about, "first line second");
   assert_string_equal(suite.source, "made up");
   assert_int_equal(suite.count, 2);
   assert_int_equal(suite.shapes[0].m, 128);
   assert_int_equal(suite.shapes[0].n, 8192);
   assert_int_equal(suite.shapes[0].k, 8192);
   assert_string_equal(suite.shapes[0].label, "decode-128");
   assert_true(suite.shapes[0].weight == 0.25);
   assert_true(suite.shapes[1].weight == 1.0);
}

static void test_refusals(void **state) {
   (void)state;
   const struct {
      const char *text, *says;
   } bad[] = {
       {"title = x\n", "no shapes"},
       {"12x12 a\n", ":1: '12x12' is not a shape line"},
       {"title = t\n0x5x5 a\n", ":2: '0x5x5' is not a shape line"},
       {"2000000x5x5 a\n", "each size 1 to 1048576"},
       {"5x5x5\n", "not a shape line"},
       {"5x5x5 a 1 extra\n", "not a shape line"},
       {"5x5x5 a/b\n", "the label 'a/b' must be"},
       {"5x5x5 a 0\n", "the weight '0' of a must be a positive number"},
       {"5x5x5 a -1\n", "positive number"},
       {"5x5x5 a nan\n", "positive number"},
       {"5x5x5 a\n6x6x6 a\n", ":2: the label a is used twice"},
       {"colour = red\n", "unknown key 'colour'"},
       {"5x5x5 a\x1b[2J\n", "a control character (ESC)"},
       {"5x5x5 ..\n", "the first a letter or a digit"}, /* a label names a folder of tune's */
       {"5x5x5 -rf\n", "the first a letter or a digit"},
       {"5x5x5 5+5x5\n", ""}, /* a label of + and digits parses: not refused (checked below) */
   };
   char err[1024];
   for (size_t i = 0; i + 1 < sizeof bad / sizeof bad[0]; i++) {
      if (parse(bad[i].text, err, sizeof err))
         fail_msg("'%s' was taken", bad[i].text);
      if (!strstr(err, bad[i].says))
         fail_msg("'%s': '%s' does not say '%s'", bad[i].text, err, bad[i].says);
      assert_non_null(strstr(err, "llama.shapes"));
   }
   assert_true(parse("5x5x5 5+5x5\n", err, sizeof err));
   /* more than SHAPES_MAX shapes */
   char *many = malloc(64 * (SHAPES_MAX + 1) + 1);
   assert_non_null(many);
   many[0] = '\0';
   for (int i = 0; i <= SHAPES_MAX; i++)
      sprintf(many + strlen(many), "%dx8x8 s%d\n", i + 1, i);
   assert_false(parse(many, err, sizeof err));
   assert_non_null(strstr(err, "more than 64 shapes"));
   free(many);
   /* a title too long is refused, not cut */
   char title[400] = "title = ";
   memset(title + 8, 'x', 300);
   strcpy(title + 308, "\n8x8x8 a\n");
   assert_false(parse(title, err, sizeof err));
   assert_non_null(strstr(err, "title is 300 characters long"));
}

static void test_shipped(void **state) {
   (void)state;
   char empty[] = "/tmp/gemmtop-noshapes-XXXXXX"; /* no user suite hides a shipped one */
   assert_non_null(mkdtemp(empty));
   setenv("XDG_CONFIG_HOME", empty, 1);
   ShapeSuites all;
   ShapeSuites_load(&all, GEMMTOP_SOURCE_DIR "/shapes");
   if (all.warnings[0])
      fail_msg("shipped suites that do not parse:\n%s", all.warnings);
   assert_true(all.count >= 4);
   const struct {
      const char *name;
      int m, n, k;
   } want[] = {{"llama3-8b", 128, 6144, 4096},    {"llama3-8b", 16384, 4096, 14336}, {"llama3-8b", 16, 28672, 4096},
               {"llama3-70b", 4096, 10240, 8192}, {"llama3-70b", 512, 8192, 28672},  {"squares", 16384, 16384, 16384},
               {"skinny", 128, 8192, 8192},       {"skinny", 4096, 128, 65536},      {"held-out", 32, 5120, 3072},
               {"held-out", 8192, 2304, 9216},    {"held-out-2", 64, 7680, 5120},    {"held-out-2", 6144, 2048, 8192},
               {"held-out-3", 48, 4608, 4096},    {"held-out-3", 3072, 2048, 11008}};
   for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
      const ShapeSuite *s = ShapeSuites_find(&all, want[i].name);
      assert_non_null(s);
      assert_true(s->title[0] && s->about[0] && s->source[0]);
      bool found = false;
      for (int j = 0; j < s->count; j++)
         found |= s->shapes[j].m == want[i].m && s->shapes[j].n == want[i].n && s->shapes[j].k == want[i].k;
      if (!found)
         fail_msg("%s has no %dx%dx%d", want[i].name, want[i].m, want[i].n, want[i].k);
   }
   /* the held-out models: each suite's weights sum to 1 (equal models and token counts) */
   static const char *const heldOut[] = {"other-models", "held-out", "held-out-2", "held-out-3"};
   for (size_t v = 0; v < sizeof heldOut / sizeof heldOut[0]; v++) {
      const ShapeSuite *s = ShapeSuites_find(&all, heldOut[v]);
      assert_non_null(s);
      assert_int_equal(s->count, 36);
      double w = 0;
      for (int j = 0; j < s->count; j++)
         w += s->shapes[j].weight;
      assert_true(fabs(w - 1) < 0.01);
   }
   /* the Llama suites: 4 projections at 5 token counts, each count's weights summing to 1 */
   for (int v = 0; v < 2; v++) {
      const ShapeSuite *s = ShapeSuites_find(&all, v ? "llama3-70b" : "llama3-8b");
      assert_int_equal(s->count, 20);
      for (int t = 0; t < 5; t++) {
         double w = 0;
         for (int j = 0; j < 4; j++)
            w += s->shapes[4 * t + j].weight;
         assert_true(fabs(w - 1) < 0.01);
      }
   }
   ShapeSuites_free(&all);
   rmdir(empty);
}

/* A user's suite of a shipped name replaces it; Shapes_resolve takes names and files. */
static void test_user_and_resolve(void **state) {
   (void)state;
   char home[] = "/tmp/gemmtop-shapes-XXXXXX", path[256], err[1024];
   assert_non_null(mkdtemp(home));
   setenv("XDG_CONFIG_HOME", home, 1);
   snprintf(path, sizeof path, "%s/gemmtop", home);
   mkdir(path, 0755);
   snprintf(path, sizeof path, "%s/gemmtop/shapes", home);
   mkdir(path, 0755);
   snprintf(path, sizeof path, "%s/gemmtop/shapes/squares.shapes", home);
   FILE *f = fopen(path, "w");
   assert_non_null(f);
   fputs("title = mine\n64x64x64 small\n", f);
   fclose(f);
   ShapeSuites all;
   ShapeSuites_load(&all, GEMMTOP_SOURCE_DIR "/shapes");
   const ShapeSuite *s = ShapeSuites_find(&all, "squares");
   assert_non_null(s);
   assert_true(s->user);
   assert_string_equal(s->title, "mine");
   ShapeSuites_free(&all);
   setenv("GEMMTOP_SHAPES", GEMMTOP_SOURCE_DIR "/shapes", 1);
   assert_true(Shapes_resolve("skinny", "/nowhere", &suite, err, sizeof err));
   assert_int_equal(suite.count, 8);
   assert_true(Shapes_resolve(path, "/nowhere", &suite, err, sizeof err)); /* a file */
   assert_string_equal(suite.title, "mine");
   assert_false(Shapes_resolve("llama4", "/nowhere", &suite, err, sizeof err));
   assert_non_null(strstr(err, "no shape suite named 'llama4'; there are:"));
   assert_non_null(strstr(err, "llama3-8b"));
   assert_false(Shapes_resolve("/nowhere/x.shapes", "/nowhere", &suite, err, sizeof err));
   assert_non_null(strstr(err, "/nowhere/x.shapes"));
   unsetenv("GEMMTOP_SHAPES");
   unlink(path);
   snprintf(path, sizeof path, "%s/gemmtop/shapes", home);
   rmdir(path);
   snprintf(path, sizeof path, "%s/gemmtop", home);
   rmdir(path);
   rmdir(home);
}

static void test_geomean(void **state) {
   (void)state;
   const double v[] = {50, 200, NAN, 0, 100}, w[] = {1, 1, 5, 5, 2};
   int used;
   /* (50 * 200 * 100^2)^(1/4) = 100: the NaN and the 0 count for nothing */
   assert_true(fabs(Shapes_weightedGeomean(v, w, 5, &used) - 100) < 1e-9);
   assert_int_equal(used, 3);
   const double v2[] = {81, 1}, w2[] = {3, 1};
   assert_true(fabs(Shapes_weightedGeomean(v2, w2, 2, NULL) - pow(81, 0.75)) < 1e-9);
   assert_true(Shapes_weightedGeomean(v + 2, w + 2, 2, &used) == 0);
   assert_int_equal(used, 0);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_format),  cmocka_unit_test(test_refusals),         cmocka_unit_test(test_shipped),
       cmocka_unit_test(test_geomean), cmocka_unit_test(test_user_and_resolve),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
