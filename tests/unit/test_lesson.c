/* Lesson files and the ladder table: parsing, refusals, the shipped lessons, exports. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/ladder.h"
#include "core/laddermerge.h"
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
                          "text = tiles\n"
                          "show = banks\n";

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
   assert_int_equal(l.steps[0].show, LESSON_SHOW_NONE);
   assert_int_equal(l.steps[1].show, LESSON_SHOW_BANKS);
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
   const char *show = "step = a\nshow = roofline\n";
   expectRefused(show, strlen(show), "bad.lesson:2: show = roofline: a step can show banks");
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

/* The figures a step's text states about banks ("4-way", "2.00x") are the figures of its
 * check lines, which tests/e2e/lesson_claims.sh holds against gemmtop: text and screen
 * cannot drift apart again. */
static void textFiguresChecked(const Lesson *l, int s) {
   const LessonStep *st = &l->steps[s];
   for (const char *p = st->text; p && *p; p++) {
      if (!isdigit((unsigned char)*p) || (p > st->text && (isdigit((unsigned char)p[-1]) || p[-1] == '.')))
         continue;
      char *end;
      double v = strtod(p, &end);
      bool way = !strncmp(end, "-way", 4), times = end > p && end[-1] != '.' && strchr(p, '.') && strchr(p, '.') < end &&
                                                  *end == 'x';
      if (!way && !times)
         continue;
      bool found = false;
      for (int c = 0; c < st->nchecks; c++)
         found = found || (st->checks[c].kind == LESSON_CHECK_BANKS && fabs(st->checks[c].ratio - v) < 0.005);
      if (!found)
         fail_msg("%s step %d says %.*s, which none of its check lines says", l->path, s + 1, (int)(end - p) + (way ? 4 : 1),
                  p);
      p = end;
   }
}

/* A title that counts its steps ("five steps") counts them right. */
static void titleCountsRight(const Lesson *l) {
   static const char *words[] = {"zero", "one",    "two",    "three",    "four",    "five",    "six",
                                 "seven", "eight", "nine",   "ten",      "eleven",  "twelve",  "thirteen"};
   char title[sizeof l->title];
   for (size_t i = 0; i < sizeof title; i++)
      title[i] = (char)tolower((unsigned char)l->title[i]);
   for (int n = 0; n < (int)(sizeof words / sizeof *words); n++) {
      char a[32], b[32];
      snprintf(a, sizeof a, "%s steps", words[n]);
      snprintf(b, sizeof b, "%d steps", n);
      if ((strstr(title, a) || strstr(title, b)) && n != l->nsteps)
         fail_msg("%s: the title says %d steps, the lesson has %d", l->path, n, l->nsteps);
   }
}

/* Every shipped lesson introduces itself and says something at every step, and what it
 * says of bank figures and step counts is what its checks and steps are. */
static void test_shipped_texts(void **state) {
   (void)state;
   setenv("XDG_CONFIG_HOME", "/nonexistent-gemmtop-test", 1);
   LessonList lessons;
   char err[256];
   assert_true(LessonList_load(&lessons, GEMMTOP_SOURCE_DIR "/lessons", err, sizeof err));
   for (int i = 0; i < lessons.count; i++) {
      const Lesson *l = &lessons.items[i];
      if (!l->about)
         fail_msg("%s has no introduction (about =)", l->path);
      titleCountsRight(l);
      for (int s = 0; s < l->nsteps; s++) {
         if (!l->steps[s].text)
            fail_msg("%s step %d (%s) has no text", l->path, s + 1, l->steps[s].preset);
         textFiguresChecked(l, s);
         /* the pane's own markers ("measured: 1.2 GFLOPS", "refused: why") are the
          * step's figure and refusal: a text that says them reads as one */
         static const char *const markers[] = {"measured:", "refused:", "did not run:"};
         for (size_t m = 0; m < sizeof markers / sizeof markers[0]; m++)
            if (strstr(l->steps[s].text, markers[m]))
               fail_msg("%s step %d's text says '%s', the lesson pane's marker for the step's own figure or refusal",
                        l->path, s + 1, markers[m]);
         /* a step that opens the bank grid names the site to open it on */
         bool site = false;
         for (int c = 0; c < l->steps[s].nchecks; c++)
            site = site || l->steps[s].checks[c].kind == LESSON_CHECK_BANKS;
         if (l->steps[s].show == LESSON_SHOW_BANKS && !site)
            fail_msg("%s step %d shows the bank grid but has no banks check naming its site", l->path, s + 1);
      }
   }
   /* docs/lessons.md: how many lessons ship, and each one's steps, as the files have them */
   char *doc = Util_readFile(GEMMTOP_SOURCE_DIR "/docs/lessons.md", NULL);
   assert_non_null(doc);
   static const char *counts[] = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"};
   char ships[64];
   snprintf(ships, sizeof ships, "gemmtop ships %s:", lessons.count < 13 ? counts[lessons.count] : "many");
   if (!strstr(doc, ships))
      fail_msg("docs/lessons.md does not say '%s'", ships);
   for (int i = 0; i < lessons.count; i++) {
      char row[96];
      snprintf(row, sizeof row, "| `%s` | %d |", lessons.items[i].name, lessons.items[i].nsteps);
      if (!strstr(doc, row))
         fail_msg("docs/lessons.md has no row '%s'", row);
   }
   free(doc);
   LessonList_free(&lessons);
}

/* Check lines: each kind, and what is refused. */
static void test_checks(void **state) {
   (void)state;
   LessonCheck c;
   char why[512];
   assert_true(Lesson_parseCheck("banks A fragment load = 4.00", &c, why, sizeof why));
   assert_int_equal(c.kind, LESSON_CHECK_BANKS);
   assert_string_equal(c.site, "A fragment load");
   assert_true(fabs(c.ratio - 4.0) < 1e-9);
   assert_true(Lesson_parseCheck("banks Bsub store (transposed) = 16", &c, why, sizeof why));
   assert_string_equal(c.site, "Bsub store (transposed)");
   assert_true(Lesson_parseCheck("refused", &c, why, sizeof why));
   assert_int_equal(c.kind, LESSON_CHECK_REFUSED);
   assert_true(Lesson_parseCheck("verifies pocl", &c, why, sizeof why));
   assert_int_equal(c.kind, LESSON_CHECK_VERIFIES);
   assert_string_equal(c.device, "pocl");
   const char *bad[] = {"banks A store", "banks A store = x", "banks = 2", "banks A store = 0.5", "banks A store = 2x",
                        "refused now", "verifies", "verifies mars", "runs", ""};
   for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
      why[0] = '\0';
      if (Lesson_parseCheck(bad[i], &c, why, sizeof why))
         fail_msg("check = %s was taken", bad[i]);
      assert_non_null(strstr(why, "banks SITE = RATIO"));
   }
   /* in a file: the line is named */
   Lesson l;
   char err[512];
   const char *text = "title = t\nstep = one\ncheck = banks A = 9x\n";
   assert_false(Lesson_parse(text, strlen(text), "c.lesson", &l, err, sizeof err));
   assert_non_null(strstr(err, "c.lesson:3: check = banks A = 9x"));
}

static void makeLadder(Ladder *ld) {
   Lesson l;
   char err[256];
   const char *text = "title = A | B\nstep = one\ntitle = first\nreference_gflops = 2.54\nreference = 2.54, \"chapter\"\n"
                      "notes = say | this\nnotes = and that\nstep = two\nstep = three\nstep = four\n";
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
   Ladder_record(&ld, 0, 100, "TS=8", false, NULL);
   Ladder_record(&ld, 1, 250, "TS=16", false, NULL);
   Ladder_record(&ld, 3, 500, "TS=32", false, NULL);
   Ladder_record(&ld, 2, -1, "never", false, NULL);   /* not a figure: ignored */
   Ladder_record(&ld, 9, 1, "no such step", false, NULL);
   assert_false(ld.rows[2].measured);
   assert_true(Ladder_speedupPrevious(&ld, 1) == 2.5);
   assert_true(Ladder_speedupPrevious(&ld, 3) == 0);   /* step 3 unmeasured */
   assert_true(Ladder_speedupFirst(&ld, 3) == 5.0);
   assert_true(Ladder_percentOfBest(&ld, 1) == 50.0);
   assert_true(Ladder_percentOfBest(&ld, 2) == 0);
   Ladder_record(&ld, 1, 200, "TS=16 again", false, NULL);   /* a later figure replaces */
   assert_true(Ladder_speedupPrevious(&ld, 1) == 2.0);
   assert_string_equal(ld.rows[1].config, "TS=16 again");
   Ladder_free(&ld);
}

/* A step's figure settles after 16 launches, or 3 or more over 10 s (a slow step). */
static void test_ladder_settles(void **state) {
   (void)state;
   /* the time a launch should take, from the nearest earlier step measured */
   Ladder ld;
   makeLadder(&ld);
   int basis;
   assert_true(Ladder_expectedSeconds(&ld, 2, 1e9, &basis) == 0 && basis == -1);
   Ladder_record(&ld, 0, 2.0, "a", false, NULL);
   assert_true(fabs(Ladder_expectedSeconds(&ld, 2, 10e9, &basis) - 5.0) < 1e-12 && basis == 0);
   Ladder_record(&ld, 1, 4.0, "b", false, NULL);
   assert_true(fabs(Ladder_expectedSeconds(&ld, 2, 10e9, &basis) - 2.5) < 1e-12 && basis == 1);
   assert_true(Ladder_expectedSeconds(&ld, 0, 10e9, &basis) == 0);
   Ladder_free(&ld);
   assert_false(Ladder_settled(0, 0));
   assert_false(Ladder_settled(15, 9000));
   assert_true(Ladder_settled(16, 1));
   assert_false(Ladder_settled(2, 60000));
   assert_true(Ladder_settled(3, 10000));
   assert_false(Ladder_settled(3, 9999));
}

static void test_ladder_exports(void **state) {
   (void)state;
   Ladder ld;
   makeLadder(&ld);
   Ladder_record(&ld, 0, 100, "TS=8, x", false, NULL);
   Ladder_record(&ld, 1, 400, "TS=16", true, NULL);
   char *md = Ladder_markdown(&ld), *csv = Ladder_csv(&ld), *svg = Ladder_svg(&ld);
   assert_non_null(md);
   assert_non_null(csv);
   assert_non_null(svg);
   assert_non_null(strstr(md, "## A \\| B"));
   /* The emulated step is shown and labelled, never compared: step 1 stays the best. */
   assert_non_null(strstr(md, "| 1 one: first | 100.0 | - | 1.00x | 100.0% | - | 2.54, \"chapter\" | TS=8, x |"));
   assert_non_null(strstr(md, "| 2 two | 400.0 (emulated) | - | - | - | - | - | TS=16 |"));
   assert_non_null(strstr(md, "| 3 three | not measured | - | - | - | - | - | - |"));
   assert_non_null(strstr(csv, "1,1 one: first,100.000,false,false,,,1.0000,100.00,,2.540,\"2.54, \"\"chapter\"\"\",\"TS=8, x\","
                               "a <device> & co,,\"each figure the median of a step's first 16 device-timed launches"));
   assert_non_null(strstr(csv, "2,2 two,400.000,true,false,,,,,,,,TS=16,a <device> & co,,\"each figure"));
   assert_non_null(strstr(csv, "4,4 four,,,,,,,,,,,,a <device> & co,,\"each figure"));
   /* the header names the columns that say where, when and how */
   assert_non_null(strstr(csv, "reference,configuration,device,date,timing,limit\n"));
   assert_non_null(strstr(md, "Timing: each figure the median of a step's first 16 device-timed launches"));
   /* the speaker notes, after the table, joined into one line (a list item: a pipe is no cell) */
   assert_non_null(strstr(md, "### Speaker notes\n\n- **1 one: first**: say | this and that\n"));
   assert_null(strstr(csv, "say"));
   assert_non_null(strstr(svg, "a &lt;device&gt; &amp; co"));
   /* the source's figure beside the measured one: in words, and a mark on the scale */
   assert_non_null(strstr(svg, ">100.0; source 2.54</text>"));
   assert_non_null(strstr(svg, "<title>the source reported 2.54 GFLOPS</title>"));
   assert_non_null(strstr(svg, "GFLOPS (verified; higher is faster)")); /* no ablated bar: the axis is plain */
   assert_null(strstr(svg, "<device>"));
   assert_non_null(strstr(svg, "</svg>"));
   free(md);
   free(csv);
   free(svg);
   Ladder_free(&ld);
}

/* Ablated and refused steps are labelled, never ranked nor the base of a speed-up. */
static void test_ladder_unranked(void **state) {
   (void)state;
   Ladder ld;
   makeLadder(&ld);
   Ladder_record(&ld, 0, 100, "real", false, NULL);
   Ladder_record(&ld, 1, 900, "real", false, "no-a");
   Ladder_refuse(&ld, 2, "work-group of 1024 over the simulated limit of 256", "TS=32");
   Ladder_record(&ld, 3, 50, "real", false, NULL);
   assert_int_equal(Ladder_done(&ld), 4);
   assert_false(Ladder_ranked(&ld, 1));
   assert_false(Ladder_ranked(&ld, 2));
   assert_true(Ladder_percentOfBest(&ld, 0) == 100.0);
   assert_true(Ladder_percentOfBest(&ld, 3) == 50.0);
   assert_true(Ladder_speedupPrevious(&ld, 1) == 0);
   assert_true(Ladder_speedupFirst(&ld, 3) == 0.5);
   char *md = Ladder_markdown(&ld), *csv = Ladder_csv(&ld), *svg = Ladder_svg(&ld);
   /* against the real kernel (step 1, the same configuration): shown, never ranked */
   assert_true(fabs(Ladder_vsReal(&ld, 1) - 9.0) < 1e-12);
   assert_true(Ladder_vsReal(&ld, 0) == 0 && Ladder_vsReal(&ld, 3) == 0);
   assert_non_null(strstr(md, "| 2 two | 900.0 (ablated) | - | - | - | 9.00x | - | real, ablate=no-a |"));
   assert_non_null(strstr(md, "| 3 three | refused: work-group of 1024 over the simulated limit of 256 | - | - | - |"));
   assert_non_null(strstr(csv, "2,2 two,900.000,false,true,,,,,9.0000,,,\"real, ablate=no-a\","));
   assert_non_null(strstr(csv, "3,3 three,,,,work-group of 1024 over the simulated limit of 256,,,,"));
   assert_non_null(strstr(svg, "900.0 (ablated)"));
   /* a refused bar says why on the chart, the whole reason in its tooltip */
   assert_non_null(strstr(svg, "</title>refused: work-group of 1024 over the simulated limit of 256</text>"));
   assert_non_null(strstr(svg, "GFLOPS (verified, or for an ablated bar the GEMM's flops over the ablated run's time;"));
   assert_non_null(strstr(svg, ">step</text>"));
   free(md);
   free(csv);
   free(svg);
   Ladder_free(&ld);
}

/* The class's exports side by side: figures over each device's own step 1; another lesson's
 * export, a file that is not one, or one cut short, refused with file and line. */
static void test_merge(void **state) {
   (void)state;
   Lesson l;
   char err[512];
   assert_true(Lesson_parse(GOOD, strlen(GOOD), "/x/two.lesson", &l, err, sizeof err));
   Ladder a, b;
   Ladder_init(&a, &l, "laptop CPU");
   Ladder_init(&b, &l, "a GPU");
   Ladder_record(&a, 0, 2.0, "01-naive", false, "");
   Ladder_record(&a, 1, 5.0, "02", false, "");
   Ladder_record(&b, 0, 100.0, "01-naive", false, "");
   Ladder_record(&b, 1, 900.0, "02", false, "");
   char *ca = Ladder_csv(&a), *cb = Ladder_csv(&b);
   static MergedLadder m;
   LadderMerge_init(&m, &l);
   assert_true(LadderMerge_add(&m, ca, strlen(ca), "/tmp/alice.csv", err, sizeof err));
   assert_true(LadderMerge_add(&m, cb, strlen(cb), "bob.csv", err, sizeof err));
   assert_int_equal(m.ndev, 2);
   assert_string_equal(m.dev[0].name, "alice");
   assert_string_equal(m.dev[1].device, "a GPU");
   assert_true(fabs(LadderMerge_vsFirst(&m, 0, 1) - 2.5) < 1e-9);
   assert_true(fabs(LadderMerge_vsFirst(&m, 1, 1) - 9.0) < 1e-9);
   char *md = LadderMerge_markdown(&m), *svg = LadderMerge_svg(&m), *csv = LadderMerge_csv(&m);
   assert_non_null(strstr(md, "| 2 02-tiled-ts16 | 5.0 (2.50x) | 900.0 (9.00x) |"));
   assert_non_null(strstr(svg, "9.00x"));
   assert_non_null(strstr(csv, "2,2 02-tiled-ts16,bob,a GPU,"));
   free(md);
   free(svg);
   free(csv);
   /* another lesson's export: its labels differ */
   Lesson other;
   const char *text = "step = 01-naive\nstep = 03-wpt\n";
   assert_true(Lesson_parse(text, strlen(text), "/x/other.lesson", &other, err, sizeof err));
   static MergedLadder m2;
   LadderMerge_init(&m2, &other);
   assert_false(LadderMerge_add(&m2, ca, strlen(ca), "alice.csv", err, sizeof err));
   if (!strstr(err, "alice.csv:2: step '1 01-naive: Naive' is not this lesson's step 1"))
      fail_msg("%s", err);
   LadderMerge_init(&m2, &l);
   assert_false(LadderMerge_add(&m2, "step,label\n1,x\n", 14, "short.csv", err, sizeof err));
   assert_non_null(strstr(err, "short.csv:1: not a ladder export (E in a lesson): no 'gflops' column"));
   char cut[4096];
   snprintf(cut, sizeof cut, "%.*s", (int)(strchr(strchr(ca, '\n') + 1, '\n') - ca + 1), ca); /* header + step 1 */
   assert_false(LadderMerge_add(&m2, cut, strlen(cut), "cut.csv", err, sizeof err));
   assert_non_null(strstr(err, "cut.csv: 1 steps, the lesson has 2"));
   /* A student's fields: controls refused with the file and line; markup escaped in the
    * Markdown and the SVG, whatever the bytes (a page would run it; an SVG would not load). */
   Ladder e;
   Ladder_init(&e, &l, "\x1b]0;pwned\a\x1b[2J<script>alert(1)</script>");
   Ladder_record(&e, 0, 3.0, "01-naive", false, "");
   Ladder_record(&e, 1, 6.0, "02", false, "");
   char *ce = Ladder_csv(&e);
   LadderMerge_init(&m2, &l);
   assert_false(LadderMerge_add(&m2, ce, strlen(ce), "eve.csv", err, sizeof err));
   if (!strstr(err, "eve.csv:2: control character ESC: a ladder export is plain text"))
      fail_msg("%s", err);
   char nul[] = "step,label\n\0junk\n";
   assert_false(LadderMerge_add(&m2, nul, sizeof nul - 1, "nul.csv", err, sizeof err));
   assert_non_null(strstr(err, "nul.csv:2: NUL byte"));
   char *c1 = malloc(strlen(ca) + 16);
   snprintf(c1, strlen(ca) + 16, "%s", ca);
   *strstr(c1, "laptop") = (char)0x9b; /* a raw 8-bit CSI */
   assert_false(LadderMerge_add(&m2, c1, strlen(c1), "c1.csv", err, sizeof err));
   assert_non_null(strstr(err, "c1.csv:2: control character U+009B"));
   free(c1);
   free(ce);
   Ladder_free(&e);
   Ladder_init(&e, &l, "<script>alert(1)</script> | [x](javascript:alert(3)) \xff");
   snprintf(e.date, sizeof e.date, "<img src=x onerror=alert(2)>");
   Ladder_record(&e, 0, 3.0, "01-naive", false, "");
   Ladder_record(&e, 1, 6.0, "02", false, "");
   ce = Ladder_csv(&e);
   assert_true(LadderMerge_add(&m2, ce, strlen(ce), "/tmp/<b>eve.csv", err, sizeof err));
   char *emd = LadderMerge_markdown(&m2), *esvg = LadderMerge_svg(&m2);
   assert_null(strstr(emd, "<script"));
   assert_null(strstr(emd, "<img"));
   assert_null(strstr(emd, "<b>"));
   assert_non_null(strstr(emd, "&lt;script&gt;alert(1)&lt;/script&gt; \\| \\[x\\](javascript:alert(3))"));
   assert_non_null(strstr(emd, ", &lt;img src=x onerror=alert(2)&gt;\n"));
   assert_null(strstr(esvg, "<script"));
   assert_null(strstr(esvg, "\xff"));
   assert_non_null(strstr(esvg, "&lt;script&gt;alert(1)&lt;/script&gt; | [x](javascript:alert(3)) \xef\xbf\xbd"));
   free(emd);
   free(esvg);
   free(ce);
   Ladder_free(&e);
   free(ca);
   free(cb);
   Ladder_free(&a);
   Ladder_free(&b);
   Lesson_free(&l);
   Lesson_free(&other);
}

int main(void) {
   const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_parse_good),       cmocka_unit_test(test_refusals),
      cmocka_unit_test(test_user_overrides_shipped), cmocka_unit_test(test_shipped_lessons),
      cmocka_unit_test(test_ladder_figures),   cmocka_unit_test(test_ladder_exports),
      cmocka_unit_test(test_ladder_unranked),
       cmocka_unit_test(test_merge),  cmocka_unit_test(test_shipped_texts),
      cmocka_unit_test(test_checks),           cmocka_unit_test(test_ladder_settles),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
