/* Preset files: what is read, and what is refused (never cut, skipped or passed to the
 * terminal): NUL and control bytes, keys given twice, values longer than their fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model/preset.h"
#include "base/util.h"

static char g_dir[64];

static int setup(void **state) {
   (void)state;
   strcpy(g_dir, "/tmp/gemmtop-test-preset-XXXXXX");
   return mkdtemp(g_dir) ? 0 : -1;
}

static int teardown(void **state) {
   (void)state;
   char cmd[128];
   snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
   return system(cmd) == 0 ? 0 : -1;
}

/* Writes len bytes (NULs included) as g_dir/name; returns the path (static). */
static const char *writePreset(const char *name, const char *bytes, size_t len) {
   static char path[256];
   snprintf(path, sizeof path, "%s/%s", g_dir, name);
   FILE *f = fopen(path, "wb");
   assert_non_null(f);
   assert_int_equal(fwrite(bytes, 1, len, f), len);
   fclose(f);
   return path;
}

static void expectRefused(const char *name, const char *bytes, size_t len, const char *fragment) {
   Preset p;
   char err[1024] = "";
   const char *path = writePreset(name, bytes, len);
   assert_false(Preset_load(path, &p, err, sizeof err));
   if (!strstr(err, fragment))
      fail_msg("%s: message '%s' lacks '%s'", name, err, fragment);
   unlink(path);
}

#define REFUSED(name, literal, fragment) expectRefused(name, literal, sizeof literal - 1, fragment)

static void test_reads_a_preset(void **state) {
   (void)state;
   static const char text[] = "# Step 2: tiles\nkernel = mygemm02_tiled\nsize = 512\nprecision = double\n"
                              "layout = NT\nalpha = 2\nbeta = 0.5\nTS = 32\r\n";
   Preset p;
   char err[1024];
   const char *path = writePreset("02-tiled.preset", text, sizeof text - 1);
   if (!Preset_load(path, &p, err, sizeof err))
      fail_msg("%s", err);
   assert_string_equal(p.name, "02-tiled");
   assert_string_equal(p.description, "Step 2: tiles");
   assert_string_equal(p.kernel, "mygemm02_tiled");
   assert_int_equal(p.m, 512);
   assert_true(p.has_precision && p.precision == PRECISION_DOUBLE && p.trans_b && !p.trans_a);
   assert_int_equal(p.nparams, 1);
   assert_string_equal(p.params[0].name, "TS");
   assert_int_equal(p.params[0].value, 32);
   unlink(path);
}

/* The comment lines that open a file are its description, joined: a preset whose heading
 * runs over two lines showed its first line alone, cut in mid-sentence, in 'list presets'.
 * A blank line or the first key ends the heading; what does not fit is cut where " ..." says. */
static void test_description_is_the_opening_comment(void **state) {
   (void)state;
   Preset p;
   char err[1024];
   static const char two[] = "# Step 5 with 144 columns:\n#   whole tiles of 4608.\nkernel = k\n# a note\nTS = 8\n";
   const char *path = writePreset("two.preset", two, sizeof two - 1);
   assert_true(Preset_load(path, &p, err, sizeof err));
   assert_string_equal(p.description, "Step 5 with 144 columns: whole tiles of 4608.");
   unlink(path);
   static const char blank[] = "# first\n\n# licence text\nkernel = k\n";
   path = writePreset("blank.preset", blank, sizeof blank - 1);
   assert_true(Preset_load(path, &p, err, sizeof err));
   assert_string_equal(p.description, "first");
   unlink(path);
   char text[3000];
   size_t n = 0;
   for (int i = 0; i < 5; i++)
      n += (size_t)snprintf(text + n, sizeof text - n, "# %c%0*d\n", 'a' + i, 397, i);
   snprintf(text + n, sizeof text - n, "kernel = k\n");
   path = writePreset("long.preset", text, strlen(text));
   assert_true(Preset_load(path, &p, err, sizeof err));
   assert_int_equal(strlen(p.description), 4 * 398 + 3 + 4);
   assert_non_null(strstr(p.description, " d0"));
   assert_null(strstr(p.description, " e0"));
   assert_string_equal(p.description + strlen(p.description) - 4, " ...");
   unlink(path);
}

/* A NUL used to end the file silently (the TS line after it was never read); ESC and BEL
 * in a description reached the terminal through 'gemmtop list presets'. */
static void test_refuses_nul_and_control_bytes(void **state) {
   (void)state;
   REFUSED("nul.preset", "# x\nkernel = k\nTS = 16\0\nTS = 32\n", "nul.preset:3: NUL byte");
   REFUSED("esc.preset", "# evil \033[31mred\nkernel = k\n", "esc.preset:1: control character ESC");
   REFUSED("bel.preset", "# x\nkernel = k\ndescription = ring\007\n", "bel.preset:3: control character BEL");
   REFUSED("del.preset", "kernel = k\177\n", "del.preset:1: control character DEL");
   char name[] = "a\033b.preset";
   REFUSED(name, "kernel = k\n", "the file name has a control character");
}

static void test_refuses_duplicate_keys(void **state) {
   (void)state;
   REFUSED("dup.preset", "kernel = k\nTS = 16\nWPT = 2\nTS = 32\n", "dup.preset:4: 'TS' is given twice (first on line 2)");
   REFUSED("dupk.preset", "kernel = a\nkernel = b\n", "dupk.preset:2: 'kernel' is given twice");
   REFUSED("dupm.preset", "kernel = a\nm = 64\nm = 64\n", "'m' is given twice");
}

/* A value longer than its field is refused naming the limit, never cut to a shorter one. */
static void test_refuses_values_longer_than_fields(void **state) {
   (void)state;
   char text[600];
   snprintf(text, sizeof text, "kernel = %0*d\n", 70, 0);
   expectRefused("long.preset", text, strlen(text), "the kernel name is 70 characters long; at most 63");
   snprintf(text, sizeof text, "kernel = k\nP%0*d = 1\n", 40, 0);
   expectRefused("longp.preset", text, strlen(text), "the parameter name is 41 characters long; at most 31");
   snprintf(text, sizeof text, "kernel = k\n# %0*d\n", 420, 0);
   expectRefused("longl.preset", text, strlen(text), "longl.preset:2: line of 422 characters; at most 400");
   REFUSED("nan.preset", "kernel = k\nalpha = nan\n", "alpha = 'nan' is not a finite number");
   REFUSED("inf.preset", "kernel = k\nbeta = 1e999\n", "is not a finite number");
   /* The longest line is kept whole as the description. */
   snprintf(text, sizeof text, "# %0*d\nkernel = k\n", 398, 7);
   Preset p;
   char err[1024];
   const char *path = writePreset("longd.preset", text, strlen(text));
   assert_true(Preset_load(path, &p, err, sizeof err));
   assert_int_equal(strlen(p.description), 398);
   unlink(path);
}

/* Broken files are named one per line, in name order; when they are too many for the
 * list, it says so instead of ending in a cut line. */
static void test_list_warnings_whole_lines(void **state) {
   (void)state;
   for (int i = 0; i < 40; i++) {
      char name[64];
      snprintf(name, sizeof name, "bad%02d-%0*d.preset", i, 50, 0);
      writePreset(name, "no equals sign\n", 15);
   }
   writePreset("good.preset", "kernel = k\n", 11);
   setenv("XDG_CONFIG_HOME", g_dir, 1); /* no user presets there */
   PresetList l;
   char err[256];
   assert_true(PresetList_load(&l, g_dir, err, sizeof err));
   assert_int_equal(l.count, 1);
   size_t n = strlen(l.warnings);
   assert_true(n < sizeof l.warnings);
   assert_non_null(strstr(l.warnings, "bad00-"));
   assert_true(strstr(l.warnings, "bad00-") < strstr(l.warnings, "bad01-"));
   const char *tail = "(more left out)\n";
   assert_string_equal(l.warnings + n - strlen(tail), tail);
   /* Every line before it is whole: a path, a line number and the reason. */
   int lines = 0;
   for (char *line = strtok(l.warnings, "\n"); line; line = strtok(NULL, "\n"), lines++)
      if (strcmp(line, "(more left out)") && !strstr(line, ":1: expected 'key = value', got 'no equals sign'"))
         fail_msg("a cut line: '%s'", line);
   assert_true(lines > 5);
   PresetList_free(&l);
}

/* What is saved loads back the same; a description that would break the file (a newline
 * would start a key line of its own) is refused. */
static void test_save_round_trip(void **state) {
   (void)state;
   KernelInfo k;
   char err[1024];
   assert_true(KernelInfo_parse(&k, "/*@gemmtop\nname: tiled\nparam: TS = 16 in 8, 16, 32\nglobal: N\nlocal: TS\n*/\n",
                                "tiled.cl", err, sizeof err));
   long long values[1] = {32};
   Problem prob;
   Problem_setDefaults(&prob);
   prob.m = 96;
   char path[256];
   snprintf(path, sizeof path, "%s/saved.preset", g_dir);
   assert_true(Preset_save(path, "my tiles", &k, values, &prob, err, sizeof err));
   Preset p;
   assert_true(Preset_load(path, &p, err, sizeof err));
   assert_string_equal(p.description, "my tiles");
   assert_int_equal(p.m, 96);
   assert_int_equal(p.params[0].value, 32);
   assert_false(Preset_save(path, "two\nkernel = other", &k, values, &prob, err, sizeof err));
   assert_non_null(strstr(err, "one line"));
   assert_false(Preset_save(path, "bell\007", &k, values, &prob, err, sizeof err));
   assert_true(Preset_load(path, &p, err, sizeof err)); /* the good file is still there */
   assert_string_equal(p.kernel, "tiled");
   unlink(path);
   KernelInfo_free(&k);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_reads_a_preset),
       cmocka_unit_test(test_description_is_the_opening_comment),
       cmocka_unit_test(test_refuses_nul_and_control_bytes),
       cmocka_unit_test(test_refuses_duplicate_keys),
       cmocka_unit_test(test_refuses_values_longer_than_fields),
       cmocka_unit_test(test_list_warnings_whole_lines),
       cmocka_unit_test(test_save_round_trip),
   };
   return cmocka_run_group_tests(tests, setup, teardown);
}
