/* Lesson files and the ladder table: parsing, refusals, the shipped lessons, exports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ladder.h"
#include "core/lesson.h"
#include "core/preset.h"
#include "base/util.h"

static const char *GOOD = "# a lesson\n"
                          "title = Two steps\n"
                          "source = a tutorial\n"
                          "about = first line\n"
                          "about = second line\n"
                          "step = 01-naive\n"
                          "title = Naive\n"
                          "text = one\n"
                          "text = two\n"
                          "reference = 2.54 GFLOPS on its DCU\n"
                          "reference_gflops = 2.54\n"
                          "\n"
                          "step = 02-tiled-ts16\r\n"
                          "text = tiles\n";

static void test_parse_good(void **state) {
   (void)state;
   Lesson l;
   char err[512];
   assert_true(Lesson_parse(GOOD, strlen(GOOD), "/x/two.lesson", &l, err, sizeof err));
   assert_string_equal(l.name, "two");
   assert_string_equal(l.title, "Two steps");
   assert_string_equal(l.source, "a tutorial");
   assert_string_equal(l.about, "first line\nsecond line");
   assert_int_equal(l.nsteps, 2);
   assert_string_equal(l.steps[0].preset, "01-naive");
   assert_string_equal(l.steps[0].title, "Naive");
   assert_string_equal(l.steps[0].text, "one\ntwo");
   assert_string_equal(l.steps[0].reference, "2.54 GFLOPS on its DCU");
   assert_true(l.steps[0].reference_gflops > 2.539 && l.steps[0].reference_gflops < 2.541);
   assert_int_equal(l.steps[0].line, 6);
   assert_string_equal(l.steps[1].preset, "02-tiled-ts16");
   assert_int_equal(l.steps[1].line, 13);
   assert_null(l.steps[1].title[0] ? "x" : NULL);
   Lesson_free(&l);
}

static void expectRefused(const char *text, size_t len, const char *want) {
   Lesson l;
   char err[512] = "";
   assert_false(Lesson_parse(text, len, "bad.lesson", &l, err, sizeof err));
   if (!strstr(err, want))
      fail_msg("message '%s' lacks '%s'", err, want);
}

static void test_refusals(void **state) {
   (void)state;
   expectRefused("title = x\n", 10, "no steps");
   expectRefused("colour = red\nstep = a\n", 22, "bad.lesson:1: unknown key 'colour' before the first step");
   expectRefused("step = a\nwidth = 3\n", 19, "bad.lesson:2: unknown key 'width' in a step");
   expectRefused("step = a\njust words\n", 20, "bad.lesson:2: expected key = value");
   expectRefused("step = a\nreference_gflops = fast\n", 32, "is not a number");
   expectRefused("step = a\nreference_gflops = nan\n", 31, "is not a number");
   expectRefused("step = a\ntext = bell\a here\n", 26, "control character (byte 0x07)");
   const char nul[] = "step = a\ntext = b\0c\n";
   expectRefused(nul, sizeof nul - 1, "bad.lesson:2: a NUL byte");
   const char *limits = "step = a\nlimits = max_wg=lots\n", *ablate = "step = a\nablate = no-c\n";
   expectRefused(limits, strlen(limits), "bad.lesson:2: limits:");
   expectRefused(ablate, strlen(ablate), "bad.lesson:2:");
   /* Nothing is cut: a title one character too long is refused with the limit. */
   char longer[300];
   snprintf(longer, sizeof longer, "title = %0*d\nstep = a\n", 128, 0);
   expectRefused(longer, strlen(longer), "title is 128 characters long; at most 127 fit");
   char many[4096] = "";
   for (int i = 0; i <= LESSON_MAX_STEPS; i++)
      snprintf(many + strlen(many), sizeof many - strlen(many), "step = s%d\n", i);
   expectRefused(many, strlen(many), "more than 32 steps");
}

static char tmpdir[256];

static void writeFile(const char *dir, const char *name, const char *text) {
   char path[512];
   snprintf(path, sizeof path, "%s/%s", dir, name);
   assert_true(Util_writeFileAtomic(path, text, strlen(text)));
}

/* The user's lesson of a shipped name replaces it, whatever order the folder lists. */
static void test_user_overrides_shipped(void **state) {
   (void)state;
   snprintf(tmpdir, sizeof tmpdir, "/tmp/gemmtop-lesson-XXXXXX");
   assert_non_null(mkdtemp(tmpdir));
   char shipped[300], config[300], user[320];
   snprintf(shipped, sizeof shipped, "%s/shipped", tmpdir);
   snprintf(config, sizeof config, "%s/config", tmpdir);
   snprintf(user, sizeof user, "%s/gemmtop/lessons", config);
   assert_true(Util_mkdirs(shipped) && Util_mkdirs(user));
   writeFile(shipped, "b.lesson", "title = shipped b\nstep = x\n");
   writeFile(shipped, "a.lesson", "title = shipped a\nstep = x\n");
   writeFile(shipped, "broken.lesson", "step = x\nnope\n");
   writeFile(user, "b.lesson", "title = mine\nstep = y\n");
   setenv("XDG_CONFIG_HOME", config, 1);
   LessonList list;
   char err[256];
   assert_true(LessonList_load(&list, shipped, err, sizeof err));
   assert_int_equal(list.count, 2);
   assert_string_equal(list.items[0].name, "a");
   const Lesson *b = LessonList_find(&list, "b");
   assert_non_null(b);
   assert_string_equal(b->title, "mine");
   assert_true(b->user);
   assert_non_null(strstr(list.warnings, "broken.lesson:2: expected key = value"));
   assert_true(b->replaces_shipped);
   assert_false(LessonList_find(&list, "a")->user);
   LessonList_free(&list);
   char cmd[600];
   snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
   assert_int_equal(system(cmd), 0);
}

/* Every shipped lesson parses and every step names a shipped preset. */
static void test_shipped_lessons(void **state) {
   (void)state;
   unsetenv("XDG_CONFIG_HOME");
   setenv("XDG_CONFIG_HOME", "/nonexistent-gemmtop-test", 1);
   LessonList lessons;
   PresetList presets;
   char err[256];
   assert_true(LessonList_load(&lessons, GEMMTOP_SOURCE_DIR "/lessons", err, sizeof err));
   assert_true(PresetList_load(&presets, GEMMTOP_SOURCE_DIR "/presets", err, sizeof err));
   if (lessons.warnings[0])
      fail_msg("shipped lessons: %s", lessons.warnings);
   const char *want[] = {"dcu", "fast", "m1", "magma", "mygemm"};
   for (size_t i = 0; i < sizeof want / sizeof *want; i++)
      if (!LessonList_find(&lessons, want[i]))
         fail_msg("no shipped lesson %s", want[i]);
   for (int i = 0; i < lessons.count; i++)
      for (int s = 0; s < lessons.items[i].nsteps; s++)
         if (!PresetList_find(&presets, lessons.items[i].steps[s].preset))
            fail_msg("%s step %d: no preset %s", lessons.items[i].path, s + 1, lessons.items[i].steps[s].preset);
   PresetList_free(&presets);
   LessonList_free(&lessons);
}

static void makeLadder(Ladder *ld) {
   Lesson l;
   char err[256];
   const char *text = "title = A | B\nstep = one\ntitle = first\nreference_gflops = 2.54\nreference = 2.54, \"chapter\"\n"
                      "step = two\nstep = three\nstep = four\n";
   assert_true(Lesson_parse(text, strlen(text), "l.lesson", &l, err, sizeof err));
   Ladder_init(ld, &l, "a <device> & co");
   Lesson_free(&l);
}

static void test_ladder_figures(void **state) {
   (void)state;
   Ladder ld;
   makeLadder(&ld);
   assert_int_equal(ld.nrows, 4);
   assert_string_equal(ld.rows[0].label, "1 one: first");
   Ladder_record(&ld, 0, 100, "TS=8", false, false);
   Ladder_record(&ld, 1, 250, "TS=16", false, false);
   Ladder_record(&ld, 3, 500, "TS=32", false, false);
   Ladder_record(&ld, 2, -1, "never", false, false);   /* not a figure: ignored */
   Ladder_record(&ld, 9, 1, "no such step", false, false);
   assert_false(ld.rows[2].measured);
   assert_true(Ladder_speedupPrevious(&ld, 1) == 2.5);
   assert_true(Ladder_speedupPrevious(&ld, 3) == 0);   /* step 3 unmeasured */
   assert_true(Ladder_speedupFirst(&ld, 3) == 5.0);
   assert_true(Ladder_percentOfBest(&ld, 1) == 50.0);
   assert_true(Ladder_percentOfBest(&ld, 2) == 0);
   Ladder_record(&ld, 1, 200, "TS=16 again", false, false);   /* a later figure replaces */
   assert_true(Ladder_speedupPrevious(&ld, 1) == 2.0);
   assert_string_equal(ld.rows[1].config, "TS=16 again");
}

static void test_ladder_exports(void **state) {
   (void)state;
   Ladder ld;
   makeLadder(&ld);
   Ladder_record(&ld, 0, 100, "TS=8, x", false, false);
   Ladder_record(&ld, 1, 400, "TS=16", true, false);
   char *md = Ladder_markdown(&ld), *csv = Ladder_csv(&ld), *svg = Ladder_svg(&ld);
   assert_non_null(md);
   assert_non_null(csv);
   assert_non_null(svg);
   assert_non_null(strstr(md, "## A \\| B"));
   /* The emulated step is shown and labelled, never compared: step 1 stays the best. */
   assert_non_null(strstr(md, "| 1 one: first | 100.0 | - | 1.00x | 100.0% | 2.54, \"chapter\" | TS=8, x |"));
   assert_non_null(strstr(md, "| 2 two | 400.0 (emulated) | - | - | - | - | TS=16 |"));
   assert_non_null(strstr(md, "| 3 three | not measured | - | - | - | - | - |"));
   assert_non_null(strstr(csv, "1,1 one: first,100.000,false,false,,,1.0000,100.00,2.540,\"2.54, \"\"chapter\"\"\",\"TS=8, x\"\n"));
   assert_non_null(strstr(csv, "2,2 two,400.000,true,false,,,,,,,TS=16\n"));
   assert_non_null(strstr(csv, "4,4 four,,,,,,,,,,\n"));
   assert_non_null(strstr(svg, "a &lt;device&gt; &amp; co"));
   assert_null(strstr(svg, "<device>"));
   assert_non_null(strstr(svg, "</svg>"));
   free(md);
   free(csv);
   free(svg);
}

/* Ablated and refused steps are labelled, never ranked nor the base of a speed-up. */
static void test_ladder_unranked(void **state) {
   (void)state;
   Ladder ld;
   makeLadder(&ld);
   Ladder_record(&ld, 0, 100, "real", false, false);
   Ladder_record(&ld, 1, 900, "no-a", false, true);
   Ladder_refuse(&ld, 2, "work-group of 1024 over the simulated limit of 256", "TS=32");
   Ladder_record(&ld, 3, 50, "real", false, false);
   assert_int_equal(Ladder_done(&ld), 4);
   assert_false(Ladder_ranked(&ld, 1));
   assert_false(Ladder_ranked(&ld, 2));
   assert_true(Ladder_percentOfBest(&ld, 0) == 100.0);
   assert_true(Ladder_percentOfBest(&ld, 3) == 50.0);
   assert_true(Ladder_speedupPrevious(&ld, 1) == 0);
   assert_true(Ladder_speedupFirst(&ld, 3) == 0.5);
   char *md = Ladder_markdown(&ld), *csv = Ladder_csv(&ld), *svg = Ladder_svg(&ld);
   assert_non_null(strstr(md, "| 2 two | 900.0 (ablated) | - | - | - |"));
   assert_non_null(strstr(md, "| 3 three | refused: work-group of 1024 over the simulated limit of 256 | - | - | - |"));
   assert_non_null(strstr(csv, "2,2 two,900.000,false,true,,,,,"));
   assert_non_null(strstr(csv, "3,3 three,,,,work-group of 1024 over the simulated limit of 256,,,,"));
   assert_non_null(strstr(svg, "900.0 (ablated)"));
   assert_non_null(strstr(svg, "GFLOPS (verified"));
   assert_non_null(strstr(svg, ">step</text>"));
   free(md);
   free(csv);
   free(svg);
}

int main(void) {
   const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_good),       cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_user_overrides_shipped), cmocka_unit_test(test_shipped_lessons),
      cmocka_unit_test(test_ladder_figures),   cmocka_unit_test(test_ladder_exports),
      cmocka_unit_test(test_ladder_unranked),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
