/* Unit tests for src/npy.c: round trips, hand-made files (Fortran order, format 2.0/3.0,
 * 1-D), and the rejection of bad files with the message each one must give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/model/npy.h"
#include "base/rng.h"
#include "testing.h"

static char g_dir[256];
static uint64_t g_seed;

static void pathIn(char *out, size_t len, const char *name) { snprintf(out, len, "%s/%s", g_dir, name); }

static void removeDirContents(const char *dir) {
   DIR *d = opendir(dir);
   if (!d)
      return;
   struct dirent *e;
   char p[512];
   while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
         continue;
      snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
      unlink(p);
   }
   closedir(d);
}

static int countDirEntries(const char *dir) {
   DIR *d = opendir(dir);
   if (!d)
      return -1;
   int n = 0;
   struct dirent *e;
   while ((e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
         n++;
   closedir(d);
   return n;
}

static int groupSetup(void **state) {
   (void)state;
   const char *t = getenv("TMPDIR");
   snprintf(g_dir, sizeof g_dir, "%s/gemmtop-npy-XXXXXX", t && *t ? t : "/tmp");
   if (!mkdtemp(g_dir))
      return -1;
   g_seed = Testing_seed("test_npy");
   return 0;
}

static int groupTeardown(void **state) {
   (void)state;
   removeDirContents(g_dir);
   rmdir(g_dir);
   return 0;
}

static int testTeardown(void **state) {
   (void)state;
   removeDirContents(g_dir);
   return 0;
}

/* Writes magic, version, header length, header (padded with spaces to a multiple of 64 and
 * ended by '\n', unless raw), then data. */
static void writeNpyRaw(const char *path, int major, const char *dict, bool pad, const void *data, size_t nbytes) {
   size_t dl = strlen(dict);
   size_t pre = major == 1 ? 10 : 12;
   size_t hl = dl;
   if (pad) {
      size_t total = (pre + dl + 1 + 63) / 64 * 64;
      hl = total - pre;
   }
   unsigned char *buf = malloc(pre + hl + nbytes + 1);
   assert_non_null(buf);
   memcpy(buf, "\x93NUMPY", 6);
   buf[6] = (unsigned char)major;
   buf[7] = 0;
   if (major == 1) {
      buf[8] = (unsigned char)(hl & 0xff);
      buf[9] = (unsigned char)(hl >> 8);
   } else {
      buf[8] = (unsigned char)(hl & 0xff);
      buf[9] = (unsigned char)(hl >> 8);
      buf[10] = (unsigned char)(hl >> 16);
      buf[11] = (unsigned char)(hl >> 24);
   }
   memcpy(buf + pre, dict, dl);
   if (pad) {
      memset(buf + pre + dl, ' ', hl - dl);
      buf[pre + hl - 1] = '\n';
   }
   if (nbytes)
      memcpy(buf + pre + hl, data, nbytes);
   FILE *f = fopen(path, "wb");
   assert_non_null(f);
   assert_int_equal(fwrite(buf, 1, pre + hl + nbytes, f), pre + hl + nbytes);
   fclose(f);
   free(buf);
}

static void writeBytes(const char *path, const void *data, size_t n) {
   FILE *f = fopen(path, "wb");
   assert_non_null(f);
   if (n)
      assert_int_equal(fwrite(data, 1, n, f), n);
   fclose(f);
}

static unsigned char *readBytes(const char *path, size_t *n) {
   FILE *f = fopen(path, "rb");
   assert_non_null(f);
   fseek(f, 0, SEEK_END);
   long sz = ftell(f);
   fseek(f, 0, SEEK_SET);
   unsigned char *b = malloc((size_t)sz + 1);
   assert_non_null(b);
   assert_int_equal(fread(b, 1, (size_t)sz, f), (size_t)sz);
   fclose(f);
   *n = (size_t)sz;
   return b;
}

/* Asserts that reading fails with a message containing the path and every given part. */
static void expectReadError(const char *path, const char *part1, const char *part2) {
   NpyArray a;
   char err[512] = "";
   bool ok = Npy_read(path, &a, err, sizeof err);
   if (ok) {
      NpyArray_free(&a);
      fail_msg("%s: read succeeded, an error with '%s' was expected", path, part1);
   }
   assert_null(a.data);
   if (!strstr(err, path))
      fail_msg("message does not name the file: '%s'", err);
   if (part1 && !strstr(err, part1))
      fail_msg("message lacks '%s': '%s'", part1, err);
   if (part2 && !strstr(err, part2))
      fail_msg("message lacks '%s': '%s'", part2, err);
}

static void fillRandom(Rng *r, void *data, size_t n, bool dbl) {
   for (size_t i = 0; i < n; i++) {
      double v = Rng_range(r, -100.0, 100.0);
      if (dbl)
         ((double *)data)[i] = v;
      else
         ((float *)data)[i] = (float)v;
   }
}

static void roundTrip(bool dbl, uint64_t seed) {
   Rng r;
   Rng_seed(&r, seed);
   char path[512];
   pathIn(path, sizeof path, dbl ? "rt_double.npy" : "rt_float.npy");
   for (int iter = 0; iter < 20; iter++) {
      size_t rows = 1 + (size_t)Rng_below(&r, 97), cols = 1 + (size_t)Rng_below(&r, 131);
      if (iter == 0)
         rows = 1;
      if (iter == 1)
         cols = 1;
      size_t es = dbl ? 8 : 4, n = rows * cols;
      void *data = malloc(n * es);
      assert_non_null(data);
      fillRandom(&r, data, n, dbl);
      char err[512] = "";
      if (!Npy_write(path, data, rows, cols, dbl, err, sizeof err))
         fail_msg("seed %" PRIu64 ": write failed: %s", seed, err);

      /* The file itself: magic, version 1.0, data at a multiple of 64, numpy's header text. */
      size_t fsz;
      unsigned char *file = readBytes(path, &fsz);
      assert_memory_equal(file, "\x93NUMPY\x01\x00", 8);
      size_t hl = (size_t)file[8] | (size_t)file[9] << 8;
      assert_int_equal((10 + hl) % 64, 0);
      assert_int_equal(fsz, 10 + hl + n * es);
      assert_int_equal(file[10 + hl - 1], '\n');
      char expect[200];
      snprintf(expect, sizeof expect, "{'descr': '%s', 'fortran_order': False, 'shape': (%zu, %zu), }",
               dbl ? "<f8" : "<f4", rows, cols);
      assert_memory_equal(file + 10, expect, strlen(expect));
      for (size_t i = 10 + strlen(expect); i < 10 + hl - 1; i++)
         assert_int_equal(file[i], ' ');
      assert_memory_equal(file + 10 + hl, data, n * es);
      free(file);

      NpyArray a;
      if (!Npy_read(path, &a, err, sizeof err))
         fail_msg("seed %" PRIu64 ": read failed: %s", seed, err);
      assert_int_equal(a.ndim, 2);
      assert_int_equal(a.shape[0], rows);
      assert_int_equal(a.shape[1], cols);
      assert_int_equal(a.is_double, dbl);
      assert_memory_equal(a.data, data, n * es);
      NpyArray_free(&a);
      assert_null(a.data);
      free(data);
   }
   /* Nothing but the file itself is left in the directory. */
   assert_int_equal(countDirEntries(g_dir), 1);
}

static void test_roundtrip_float(void **state) {
   (void)state;
   roundTrip(false, g_seed + 1);
}

static void test_roundtrip_double(void **state) {
   (void)state;
   roundTrip(true, g_seed + 2);
}

static void test_write_replaces_existing(void **state) {
   (void)state;
   char path[512], err[512];
   pathIn(path, sizeof path, "replace.npy");
   writeBytes(path, "old contents, not npy", 21);
   const float v[6] = {1.5f, -2.25f, 3.0f, 4.5f, -5.75f, 6.125f};
   assert_true(Npy_write(path, v, 2, 3, false, err, sizeof err));
   NpyArray a;
   assert_true(Npy_read(path, &a, err, sizeof err));
   assert_memory_equal(a.data, v, sizeof v);
   NpyArray_free(&a);
   assert_int_equal(countDirEntries(g_dir), 1);
}

static void test_write_bad_directory(void **state) {
   (void)state;
   char path[512], err[512] = "";
   pathIn(path, sizeof path, "no/such/dir/x.npy");
   const double v[2] = {1.0, 2.0};
   assert_false(Npy_write(path, v, 1, 2, true, err, sizeof err));
   assert_non_null(strstr(err, path));
   assert_int_equal(countDirEntries(g_dir), 0);
}

static void test_fortran_order(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 3);
   const size_t rows = 3 + (size_t)Rng_below(&r, 5), cols = 2 + (size_t)Rng_below(&r, 7);
   for (int dbl = 0; dbl <= 1; dbl++) {
      size_t es = dbl ? 8 : 4, n = rows * cols;
      unsigned char *rm = malloc(n * es), *cm = malloc(n * es);
      assert_non_null(rm);
      assert_non_null(cm);
      fillRandom(&r, rm, n, dbl);
      for (size_t i = 0; i < rows; i++)
         for (size_t j = 0; j < cols; j++)
            memcpy(cm + (j * rows + i) * es, rm + (i * cols + j) * es, es);
      char dict[200], path[512], err[512];
      snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': True, 'shape': (%zu, %zu), }",
               dbl ? "<f8" : "<f4", rows, cols);
      pathIn(path, sizeof path, "fortran.npy");
      writeNpyRaw(path, 1, dict, true, cm, n * es);
      NpyArray a;
      if (!Npy_read(path, &a, err, sizeof err))
         fail_msg("%s", err);
      assert_int_equal(a.ndim, 2);
      assert_int_equal(a.shape[0], rows);
      assert_int_equal(a.shape[1], cols);
      assert_int_equal(a.is_double, dbl);
      assert_memory_equal(a.data, rm, n * es);
      NpyArray_free(&a);
      free(rm);
      free(cm);
   }
}

static void test_version2_and_3(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 4);
   for (int major = 2; major <= 3; major++) {
      const size_t rows = 1 + (size_t)Rng_below(&r, 20), cols = 1 + (size_t)Rng_below(&r, 20);
      double *v = malloc(rows * cols * sizeof *v);
      assert_non_null(v);
      fillRandom(&r, v, rows * cols, true);
      char dict[200], path[512], err[512];
      /* keys in another order, double quotes, no trailing comma: all valid Python */
      snprintf(dict, sizeof dict, "{\"shape\": (%zu, %zu), \"fortran_order\": False, \"descr\": \"<f8\"}", rows, cols);
      pathIn(path, sizeof path, "v2.npy");
      writeNpyRaw(path, major, dict, true, v, rows * cols * sizeof *v);
      NpyArray a;
      if (!Npy_read(path, &a, err, sizeof err))
         fail_msg("version %d.0: %s", major, err);
      assert_int_equal(a.shape[0], rows);
      assert_int_equal(a.shape[1], cols);
      assert_true(a.is_double);
      assert_memory_equal(a.data, v, rows * cols * sizeof *v);
      NpyArray_free(&a);
      free(v);
   }
}

static void test_one_dimensional(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 5);
   const size_t n = 1 + (size_t)Rng_below(&r, 50);
   float *v = malloc(n * sizeof *v);
   assert_non_null(v);
   fillRandom(&r, v, n, false);
   char dict[200], path[512], err[512];
   snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu,), }", n);
   pathIn(path, sizeof path, "oned.npy");
   writeNpyRaw(path, 1, dict, true, v, n * sizeof *v);
   NpyArray a;
   if (!Npy_read(path, &a, err, sizeof err))
      fail_msg("%s", err);
   assert_int_equal(a.ndim, 1);
   assert_int_equal(a.shape[0], n);
   assert_int_equal(a.shape[1], 1);
   assert_false(a.is_double);
   assert_memory_equal(a.data, v, n * sizeof *v);
   NpyArray_free(&a);
   /* 1-D in Fortran order is the same thing; Python 2 long suffix; native '|' order */
   snprintf(dict, sizeof dict, "{'descr': '|f4', 'fortran_order': True, 'shape': (%zuL,), }", n);
   writeNpyRaw(path, 1, dict, true, v, n * sizeof *v);
   if (!Npy_read(path, &a, err, sizeof err))
      fail_msg("%s", err);
   assert_int_equal(a.ndim, 1);
   assert_int_equal(a.shape[0], n);
   assert_memory_equal(a.data, v, n * sizeof *v);
   NpyArray_free(&a);
   free(v);
}

static void test_reject_bad_magic(void **state) {
   (void)state;
   char path[512];
   pathIn(path, sizeof path, "magic.npy");
   writeBytes(path, "PK\x03\x04 this is a zip, not an npy file", 36);
   expectReadError(path, "not a .npy file", "magic");
   writeBytes(path, "", 0);
   expectReadError(path, "not a .npy file", NULL);
   pathIn(path, sizeof path, "does-not-exist.npy");
   expectReadError(path, "No such file", NULL);
   expectReadError(g_dir, "directory", NULL);
}

static void test_reject_int_dtype(void **state) {
   (void)state;
   char path[512];
   pathIn(path, sizeof path, "int.npy");
   const int32_t v[4] = {1, 2, 3, 4};
   writeNpyRaw(path, 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 2), }", true, v, sizeof v);
   expectReadError(path, "'<i4'", "'<f4' or '<f8'");
   writeNpyRaw(path, 1, "{'descr': [('a', '<f4'), ('b', '<f4')], 'fortran_order': False, 'shape': (2,), }", true, v,
               sizeof v);
   expectReadError(path, "structured", "'<f4' or '<f8'");
}

static void test_reject_big_endian(void **state) {
   (void)state;
   char path[512];
   pathIn(path, sizeof path, "big.npy");
   const double v[4] = {1, 2, 3, 4};
   writeNpyRaw(path, 1, "{'descr': '>f8', 'fortran_order': False, 'shape': (2, 2), }", true, v, sizeof v);
   expectReadError(path, "big-endian", "'>f8'");
}

static void test_reject_3d(void **state) {
   (void)state;
   char path[512];
   pathIn(path, sizeof path, "threed.npy");
   float v[8] = {0};
   writeNpyRaw(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 2), }", true, v, sizeof v);
   expectReadError(path, "3-D", "1-D and 2-D");
   writeNpyRaw(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", true, v, 4);
   expectReadError(path, "0-D", NULL);
}

static void test_reject_truncated(void **state) {
   (void)state;
   char path[512];
   pathIn(path, sizeof path, "trunc.npy");
   float v[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
   /* shape says 4x4 = 64 bytes, 48 present */
   writeNpyRaw(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", true, v, sizeof v);
   expectReadError(path, "truncated", "64 bytes");
   /* a header length beyond the end of the file */
   writeNpyRaw(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4), }", true, v, 0);
   size_t n;
   unsigned char *b = readBytes(path, &n);
   b[9] = 0x7f;
   writeBytes(path, b, n);
   free(b);
   expectReadError(path, "truncated", "header");
   /* a shape whose byte count overflows */
   writeNpyRaw(path, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999, 99999999999999), }", true,
               v, sizeof v);
   expectReadError(path, "too large", NULL);
   writeNpyRaw(path, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (999999999999999999999999, 2), }", true, v,
               sizeof v);
   expectReadError(path, "too large", NULL);
}

static void test_reject_garbage_header(void **state) {
   (void)state;
   char path[512];
   pathIn(path, sizeof path, "garbage.npy");
   float v[4] = {1, 2, 3, 4};
   writeNpyRaw(path, 1, "{'descr': '<f4', 'fortran_order': Fals", false, v, sizeof v);
   expectReadError(path, "header", NULL);
   writeNpyRaw(path, 1, "not a dict at all", true, v, sizeof v);
   expectReadError(path, "header", NULL);
   writeNpyRaw(path, 1, "{'descr': '<f4', 'shape': (2, 2), }", true, v, sizeof v);
   expectReadError(path, "header", "fortran_order");
   writeNpyRaw(path, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2x), }", true, v, sizeof v);
   expectReadError(path, "shape", NULL);
   /* header too long: version 2.0 with a 16 MiB header length */
   unsigned char pre[12] = {0x93, 'N', 'U', 'M', 'P', 'Y', 2, 0, 0, 0, 0, 1};
   writeBytes(path, pre, sizeof pre);
   expectReadError(path, "too long", NULL);
   pre[6] = 9;
   writeBytes(path, pre, sizeof pre);
   expectReadError(path, "version 9.0", NULL);
}

/* Every prefix of a valid file, and many files with random bytes changed, must be read
 * without a crash; a prefix must never read successfully. */
static void test_corrupt_files_never_crash(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 6);
   char path[512], bad[512], err[512];
   pathIn(path, sizeof path, "good.npy");
   pathIn(bad, sizeof bad, "bad.npy");
   double v[15];
   fillRandom(&r, v, 15, true);
   assert_true(Npy_write(path, v, 3, 5, true, err, sizeof err));
   size_t n;
   unsigned char *good = readBytes(path, &n);
   for (size_t len = 0; len < n; len++) {
      writeBytes(bad, good, len);
      NpyArray a;
      if (Npy_read(bad, &a, err, sizeof err)) {
         NpyArray_free(&a);
         fail_msg("a file cut to %zu of %zu bytes was accepted", len, n);
      }
      assert_non_null(strstr(err, bad));
   }
   unsigned char *b = malloc(n);
   assert_non_null(b);
   int accepted = 0;
   for (int iter = 0; iter < 3000; iter++) {
      memcpy(b, good, n);
      int flips = 1 + (int)Rng_below(&r, 4);
      for (int f = 0; f < flips; f++) {
         size_t at = (size_t)Rng_below(&r, 10 + 64); /* the preamble and header */
         b[at] = (unsigned char)Rng_below(&r, 256);
      }
      writeBytes(bad, b, n);
      NpyArray a;
      err[0] = '\0';
      if (Npy_read(bad, &a, err, sizeof err)) {
         accepted++;
         assert_true(a.ndim == 1 || a.ndim == 2);
         NpyArray_free(&a);
      } else {
         assert_non_null(strstr(err, bad));
      }
   }
   print_message("corrupted headers: %d of 3000 still readable\n", accepted);
   free(b);
   free(good);
}

static void test_convert(void **state) {
   (void)state;
   Rng r;
   Rng_seed(&r, g_seed + 7);
   const size_t rows = 1 + (size_t)Rng_below(&r, 30), cols = 1 + (size_t)Rng_below(&r, 30), n = rows * cols;
   NpyArray a = {.ndim = 2, .shape = {rows, cols}, .is_double = false, .data = malloc(n * sizeof(float))};
   assert_non_null(a.data);
   fillRandom(&r, a.data, n, false);
   float *orig = malloc(n * sizeof *orig);
   assert_non_null(orig);
   memcpy(orig, a.data, n * sizeof *orig);
   assert_true(NpyArray_convert(&a, false)); /* no-op */
   assert_true(NpyArray_convert(&a, true));
   assert_true(a.is_double);
   for (size_t i = 0; i < n; i++)
      assert_true(((double *)a.data)[i] == (double)orig[i]);
   /* perturb below float resolution: converting back rounds to the nearest float */
   for (size_t i = 0; i < n; i++)
      ((double *)a.data)[i] += (double)orig[i] * 1e-10;
   assert_true(NpyArray_convert(&a, false));
   assert_false(a.is_double);
   assert_memory_equal(a.data, orig, n * sizeof *orig);
   NpyArray_free(&a);
   free(orig);
}

/* Cross-check with numpy where it is installed (it is not required). */
static void test_numpy_crosscheck(void **state) {
   (void)state;
   if (system("python3 -c 'import numpy' >/dev/null 2>&1") != 0) {
      SKIP_BECAUSE("numpy is not installed: no cross-check with numpy");
   }
   char ours[512], theirs[512], cmd[2048], err[512];
   pathIn(ours, sizeof ours, "ours.npy");
   pathIn(theirs, sizeof theirs, "theirs.npy");
   float v[6] = {1.5f, -2.0f, 3.25f, 4.0f, 5.5f, -6.75f};
   assert_true(Npy_write(ours, v, 2, 3, false, err, sizeof err));
   snprintf(cmd, sizeof cmd,
            "python3 -c \"import numpy as np; a = np.load('%s'); assert a.dtype == np.float32 and a.shape == (2, 3); "
            "assert a[1, 2] == -6.75; np.save('%s', np.asfortranarray(a.astype(np.float64)))\"",
            ours, theirs);
   assert_int_equal(system(cmd), 0);
   NpyArray a;
   assert_true(Npy_read(theirs, &a, err, sizeof err));
   assert_true(a.is_double);
   for (int i = 0; i < 6; i++)
      assert_true(((double *)a.data)[i] == (double)v[i]);
   NpyArray_free(&a);
}

int main(void) {
   const struct CMUnitTest tests[] = {
      cmocka_unit_test_teardown(test_roundtrip_float, testTeardown),
      cmocka_unit_test_teardown(test_roundtrip_double, testTeardown),
      cmocka_unit_test_teardown(test_write_replaces_existing, testTeardown),
      cmocka_unit_test_teardown(test_write_bad_directory, testTeardown),
      cmocka_unit_test_teardown(test_fortran_order, testTeardown),
      cmocka_unit_test_teardown(test_version2_and_3, testTeardown),
      cmocka_unit_test_teardown(test_one_dimensional, testTeardown),
      cmocka_unit_test_teardown(test_reject_bad_magic, testTeardown),
      cmocka_unit_test_teardown(test_reject_int_dtype, testTeardown),
      cmocka_unit_test_teardown(test_reject_big_endian, testTeardown),
      cmocka_unit_test_teardown(test_reject_3d, testTeardown),
      cmocka_unit_test_teardown(test_reject_truncated, testTeardown),
      cmocka_unit_test_teardown(test_reject_garbage_header, testTeardown),
      cmocka_unit_test_teardown(test_corrupt_files_never_crash, testTeardown),
      cmocka_unit_test_teardown(test_convert, testTeardown),
      cmocka_unit_test_teardown(test_numpy_crosscheck, testTeardown),
   };
   return cmocka_run_group_tests(tests, groupSetup, groupTeardown);
}
