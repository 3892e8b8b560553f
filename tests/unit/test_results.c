/* Unit tests for core/resultfmt.c and core/results.c: CSV, JSON Lines and T4 written from
 * random records read back with the same figures; Kernel Tuner's and CLBlast's files (the
 * samples of tests/data) read into rows; bad files refused with the message each needs;
 * best and compare on hand-made sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/resultfmt.h"
#include "core/results.h"
#include "base/util.h"
#include "testing.h"

static unsigned g_seed;

static double randomIn(double lo, double hi) { return lo + (hi - lo) * ((double)rand() / RAND_MAX); }

/* A record with random figures that a real run could give. */
static void randomRecord(StoreRecord *r, int i) {
   StoreRecord_init(r, i % 3 ? "run" : "sweep");
   r->id = 100 + i;
   r->time = 1770000000LL + rand() % 10000000;
   snprintf(r->backend, sizeof r->backend, "OpenCL");
   snprintf(r->device, sizeof r->device, i % 2 ? "Device \"%d\", rev B" : "gpu-%d", i); /* quotes and commas */
   snprintf(r->kernel, sizeof r->kernel, "mygemm0%d_tiled", 1 + i % 5);
   snprintf(r->params, sizeof r->params, "TS=%d WPT=%d", 1 << (2 + rand() % 5), 1 << (rand() % 4));
   r->problem.m = 64 * (1 + rand() % 32);
   r->problem.n = 64 * (1 + rand() % 32);
   r->problem.k = 64 * (1 + rand() % 32);
   r->problem.precision = (Precision)(rand() % PRECISION_COUNT);
   r->problem.scaling = (Scaling)(rand() % SCALING_COUNT);
   r->problem.trans_b = rand() % 2;
   r->problem.alpha = randomIn(-2, 2);
   snprintf(r->outcome, sizeof r->outcome, "ok");
   r->verified = true;
   r->reps = 1 + rand() % 20;
   r->median_ms = randomIn(0.001, 100);
   r->min_ms = r->median_ms * randomIn(0.8, 1);
   r->max_ms = r->median_ms * randomIn(1, 1.3);
   r->gflops = Problem_flops(&r->problem) / (r->median_ms * 1e6);
   r->compile_ms = randomIn(10, 3000);
   r->max_rel_err = randomIn(1e-9, 1e-6);
}

/* The whole of what f holds. */
static char *slurp(FILE *f, size_t *len) {
   fflush(f);
   long n = ftell(f);
   rewind(f);
   char *text = malloc((size_t)n + 1);
   assert_non_null(text);
   assert_int_equal(fread(text, 1, (size_t)n, f), (size_t)n);
   text[n] = '\0';
   if (len)
      *len = (size_t)n;
   return text;
}

/* Splits one CSV line into fields (quoted fields unquoted), in place. */
static int csvFields(char *line, char **fields, int max) {
   int n = 0;
   char *p = line;
   while (n < max) {
      if (*p == '"') {
         char *out = ++p;
         fields[n++] = out;
         for (;; p++) {
            if (*p == '"' && p[1] == '"') {
               *out++ = '"';
               p++;
            } else if (*p == '"') {
               p++;
               break;
            } else {
               *out++ = *p;
            }
         }
         *out = '\0';
      } else {
         fields[n++] = p;
         p += strcspn(p, ",\n");
      }
      if (*p != ',') {
         *p = '\0';
         break;
      }
      *p++ = '\0';
   }
   return n;
}

static void test_csv_reads_back(void **state) {
   (void)state;
   FILE *f = tmpfile();
   ResultWriter w;
   StoreRecord recs[6];
   assert_true(ResultWriter_begin(&w, f, RESULT_FORMAT_CSV));
   for (int i = 0; i < 6; i++) {
      randomRecord(&recs[i], i);
      ResultWriter_row(&w, &recs[i]);
   }
   recs[5].median_ms = NAN; /* written after: the record as written had a figure */
   ResultWriter_end(&w);
   char *text = slurp(f, NULL), *save = NULL;
   fclose(f);
   char *header = strtok_r(text, "\n", &save);
   char *names[64];
   int ncols = csvFields(header, names, 64);
   assert_int_equal(ncols, 41);
   for (int i = 0; i < 6; i++) {
      char *line = strtok_r(NULL, "\n", &save), *v[64];
      assert_non_null(line);
      assert_int_equal(csvFields(line, v, 64), ncols);
      for (int c = 0; c < ncols; c++) {
         const StoreRecord *r = &recs[i];
         if (!strcmp(names[c], "device"))
            assert_string_equal(v[c], r->device);
         else if (!strcmp(names[c], "params"))
            assert_string_equal(v[c], r->params);
         else if (!strcmp(names[c], "m"))
            assert_int_equal(atoi(v[c]), r->problem.m);
         else if (!strcmp(names[c], "gflops"))
            assert_true(strtod(v[c], NULL) == r->gflops); /* exactly */
         else if (!strcmp(names[c], "median_ms") && i < 5)
            assert_true(strtod(v[c], NULL) == r->median_ms);
         else if (!strcmp(names[c], "alpha"))
            assert_true(strtod(v[c], NULL) == r->problem.alpha);
         else if (!strcmp(names[c], "precision"))
            assert_string_equal(v[c], Precision_name(r->problem.precision));
         else if (!strcmp(names[c], "power_w"))
            assert_string_equal(v[c], ""); /* no observation: unknown, not 0 */
         else if (!strcmp(names[c], "scaling"))
            assert_string_equal(v[c], Problem_scaled(&r->problem) ? Scaling_name(r->problem.scaling) : "");
      }
   }
   assert_null(strtok_r(NULL, "\n", &save));
   free(text);
}

static void test_jsonl_reads_back(void **state) {
   (void)state;
   FILE *f = tmpfile();
   ResultWriter w;
   StoreRecord recs[5];
   assert_true(ResultWriter_begin(&w, f, RESULT_FORMAT_JSONL));
   for (int i = 0; i < 5; i++) {
      randomRecord(&recs[i], i);
      if (i == 4) { /* a failed compile: no figures */
         snprintf(recs[i].outcome, sizeof recs[i].outcome, "compile");
         recs[i].verified = false;
         recs[i].median_ms = recs[i].gflops = recs[i].min_ms = recs[i].max_ms = NAN;
      }
      ResultWriter_row(&w, &recs[i]);
   }
   ResultWriter_end(&w);
   char *text = slurp(f, NULL), *save = NULL;
   fclose(f);
   for (int i = 0; i < 5; i++) {
      char *line = strtok_r(i ? NULL : text, "\n", &save);
      assert_non_null(line);
      cJSON *o = cJSON_Parse(line);
      assert_non_null(o);
      assert_string_equal(cJSON_GetObjectItem(o, "device")->valuestring, recs[i].device);
      assert_string_equal(cJSON_GetObjectItem(o, "kernel")->valuestring, recs[i].kernel);
      assert_int_equal((int)cJSON_GetObjectItem(o, "k")->valuedouble, recs[i].problem.k);
      cJSON *g = cJSON_GetObjectItem(o, "gflops");
      if (i == 4) {
         assert_true(cJSON_IsNull(g)); /* NaN is not JSON */
      } else {
         assert_true(fabs(g->valuedouble - recs[i].gflops) <= 1e-14 * recs[i].gflops);
         assert_true(cJSON_IsTrue(cJSON_GetObjectItem(o, "verified")));
      }
      cJSON_Delete(o);
   }
   free(text);
}

/* gemmtop's T4 export reads back as the same rows (origin t4). */
static void test_t4_reads_back(void **state) {
   (void)state;
   FILE *f = tmpfile();
   ResultWriter w;
   StoreRecord recs[4];
   assert_true(ResultWriter_begin(&w, f, RESULT_FORMAT_T4));
   for (int i = 0; i < 4; i++) {
      randomRecord(&recs[i], i);
      if (i == 3) {
         snprintf(recs[i].outcome, sizeof recs[i].outcome, "wrong");
         recs[i].verified = false;
      }
      ResultWriter_row(&w, &recs[i]);
   }
   ResultWriter_end(&w);
   size_t len;
   char *text = slurp(f, &len);
   fclose(f);
   assert_null(strstr(text, "nan"));
   char err[512];
   int n;
   ResultFormat found;
   StoreRecord *rows = ResultImport_parse("x.json", text, len, NULL, NULL, 5, &n, &found, err, sizeof err);
   if (!rows)
      fail_msg("%s", err);
   assert_int_equal(found, RESULT_FORMAT_T4);
   assert_int_equal(n, 4);
   for (int i = 0; i < n; i++) {
      assert_string_equal(rows[i].origin, "t4");
      assert_string_equal(rows[i].device, recs[i].device);
      assert_string_equal(rows[i].kernel, recs[i].kernel);
      assert_string_equal(rows[i].params, recs[i].params);
      assert_true(Problem_same(&rows[i].problem, &recs[i].problem) || fabs(rows[i].problem.alpha - recs[i].problem.alpha) < 1e-12);
      assert_int_equal(rows[i].problem.m, recs[i].problem.m);
      assert_int_equal(rows[i].problem.precision, recs[i].problem.precision);
      assert_int_equal(rows[i].problem.trans_b, recs[i].problem.trans_b);
      assert_int_equal(rows[i].time, recs[i].time);
      assert_true(fabs(rows[i].median_ms - recs[i].median_ms) <= 1e-14 * recs[i].median_ms);
      assert_true(fabs(rows[i].gflops - recs[i].gflops) <= 1e-14 * recs[i].gflops);
      assert_string_equal(rows[i].outcome, recs[i].outcome);
      assert_int_equal(rows[i].verified, recs[i].verified);
   }
   free(rows);
   free(text);
}

static char *sample(const char *name, size_t *len) {
   char path[1024];
   snprintf(path, sizeof path, "%s/tests/data/%s", GEMMTOP_SOURCE_DIR, name);
   char *text = Util_readFile(path, len);
   assert_non_null(text);
   return text;
}

static void test_kernel_tuner_file(void **state) {
   (void)state;
   size_t len;
   char *text = sample("t4_kernel_tuner.json", &len), err[512];
   int n;
   /* Kernel Tuner names no device, kernel or size: the user must. */
   assert_null(ResultImport_parse("kt.json", text, len, NULL, NULL, 0, &n, NULL, err, sizeof err));
   assert_non_null(strstr(err, "kt.json: results[0]: the T4 file names no device"));
   assert_non_null(strstr(err, "--device NAME"));
   ImportLabels labels = {.device = "NVIDIA A100", .kernel = "mygemm02_tiled", .m = 128, .n = 128, .k = 128,
                          .precision = -1};
   ResultFormat t4 = RESULT_FORMAT_T4;
   StoreRecord *rows = ResultImport_parse("kt.json", text, len, &t4, &labels, 0, &n, NULL, err, sizeof err);
   if (!rows)
      fail_msg("%s", err);
   assert_int_equal(n, 3);
   assert_string_equal(rows[1].device, "NVIDIA A100");
   assert_string_equal(rows[1].params, "TS=32");
   assert_true(rows[1].median_ms == 0.051);
   assert_true(fabs(rows[1].gflops - 2.0 * 128 * 128 * 128 / 0.051e-3 / 1e9) < 1e-9);
   assert_true(rows[1].verified);
   assert_true(rows[1].compile_ms == 398.0); /* Kernel Tuner's "compilation" */
   assert_int_equal(rows[0].time, 1772446500LL); /* 2026-03-02T10:15:00+00:00 */
   assert_string_equal(rows[2].outcome, "compile");
   assert_false(rows[2].verified);
   assert_true(isnan(rows[2].gflops));
   free(rows);
   free(text);
   /* No "time" measurement: the mean of the runtimes, in the file's unit. */
   const char *seconds = "{\"schema_version\":\"1.0.0\",\"metadata\":{\"timeunit\":\"seconds\"},\"results\":[{"
                         "\"configuration\":{\"TS\":8},\"times\":{\"runtimes\":[0.001,0.003]},"
                         "\"invalidity\":\"correct\",\"correctness\":1}]}";
   rows = ResultImport_parse("s.json", seconds, strlen(seconds), NULL, &labels, 77, &n, NULL, err, sizeof err);
   if (!rows)
      fail_msg("%s", err);
   assert_true(fabs(rows[0].median_ms - 2.0) < 1e-12);
   assert_int_equal(rows[0].time, 77); /* no timestamp: the file's time */
   assert_int_equal(rows[0].reps, 2);
   free(rows);
}

static void test_clblast_file(void **state) {
   (void)state;
   size_t len;
   char *text = sample("clblast_xgemm_1_32.json", &len), err[512];
   int n;
   ResultFormat found;
   StoreRecord *rows = ResultImport_parse("c.json", text, len, NULL, NULL, 1770000000, &n, &found, err, sizeof err);
   if (!rows)
      fail_msg("%s", err);
   assert_int_equal(found, RESULT_FORMAT_CLBLAST);
   assert_int_equal(n, 3);
   assert_string_equal(rows[0].origin, "clblast");
   assert_string_equal(rows[0].device, "Intel(R) UHD Graphics 620");
   assert_string_equal(rows[0].kernel, "Xgemm");
   assert_string_equal(rows[0].backend, "OpenCL");
   assert_null(strstr(rows[0].params, "PRECISION")); /* the type, not a parameter */
   assert_non_null(strstr(rows[0].params, "MWG=32 NDIMB=8"));
   assert_int_equal(rows[2].problem.m, 256);
   assert_int_equal(rows[2].problem.k, 256);
   assert_int_equal(rows[2].problem.precision, PRECISION_FLOAT);
   assert_true(rows[2].problem.alpha == 2.0);
   assert_true(rows[2].median_ms == 1.208 && rows[2].min_ms == 1.208);
   assert_true(fabs(rows[2].gflops - 2.0 * 256 * 256 * 256 / 1.208e-3 / 1e9) < 1e-9);
   assert_true(rows[2].verified);
   assert_int_equal(rows[2].time, 1770000000);
   /* The same row imported twice has one key; another figure, another. */
   StoreRecord other = rows[0];
   assert_true(Results_importKey(&rows[0]) == Results_importKey(&other));
   other.median_ms *= 1.01;
   assert_true(Results_importKey(&rows[0]) != Results_importKey(&other));
   free(rows);
   /* Told it is T4: refused, saying what it is. */
   ResultFormat t4 = RESULT_FORMAT_T4;
   assert_null(ResultImport_parse("c.json", text, len, &t4, NULL, 0, &n, NULL, err, sizeof err));
   assert_non_null(strstr(err, "it is a CLBlast tuner file (use --format clblast"));
   free(text);
}

/* Each bad file with what its message must say. */
static void test_bad_files(void **state) {
   (void)state;
   static const struct {
      const char *text, *want;
   } cases[] = {
       {"", "the file is empty"},
       {"   \n", "the file is empty"},
       {"id,time,origin\n1,2,run\n", "line 1, column 1: not JSON"},
       {"{\n  \"schema_version\": \"1.0.0\",\n  \"results\": [\n    {\"configuration\": {} ,]\n}", "line 4, column"},
       {"{\"kernel\":\"a\"}\n{\"kernel\":\"b\"}\n", "more after the first object (JSON Lines?"},
       {"[1,2]", "the JSON is an array, not an object"},
       {"{\"results\":[]}", "neither a T4 results file"},
       {"{\"schema_version\":\"2.0.0\",\"results\":[]}", "T4 schema_version 2.0.0: gemmtop reads version 1"},
       {"{\"schema_version\":\"1.0.0\",\"results\":{}}", "\"results\" (an array)"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{},\"times\":{},\"correctness\":1}]}",
        "results[0] has no \"invalidity\""},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{},\"times\":{},\"correctness\":1,"
        "\"invalidity\":\"bad\"}]}",
        "results[0].invalidity should be one of"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{},\"times\":{},\"correctness\":1,"
        "\"invalidity\":\"correct\",\"timestamp\":\"yesterday\"}]}",
        "results[0].timestamp 'yesterday' is not a time"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{\"X\":[1]},\"times\":{},\"correctness\":1,"
        "\"invalidity\":\"correct\"}]}",
        "results[0].\"X\": a parameter's value should be a number or a word, not an array"},
       {"{\"kernel_family\":\"xgemm_1\",\"precision\":\"3232\",\"device\":\"d\",\"results\":[]}",
        "this file is complex"},
       {"{\"kernel_family\":\"copy\",\"precision\":\"32\",\"device\":\"d\",\"results\":[]}",
        "no \"arg_m\": kernel family 'copy' is not a GEMM tuner's"},
       {"{\"kernel_family\":\"xgemm_1\",\"precision\":\"32\",\"device\":\"d\",\"arg_m\":\"64\",\"arg_n\":\"64\","
        "\"arg_k\":\"x\",\"results\":[]}",
        "\"arg_k\" should be a whole number"},
       {"{\"kernel_family\":\"xgemm_1\",\"precision\":\"32\",\"device\":\"d\",\"arg_m\":\"64\",\"arg_n\":\"64\","
        "\"arg_k\":\"64\",\"results\":[{\"kernel\":\"Xgemm\",\"time\":\"1\",\"parameters\":{}}]}",
        "results[0] needs \"kernel\" (a string), \"time\" (a number, ms)"},
       {"{\"kernel_family\":\"xgemm_1\",\"precision\":\"32\",\"device\":\"d\",\"arg_m\":\"64\",\"arg_n\":\"64\","
        "\"arg_k\":\"64\",\"results\":[{\"kernel\":\"Xgemm\",\"time\":-1,\"parameters\":{}}]}",
        "results[0].time -1: a time in milliseconds is more than 0"},
       {"{\"kernel_family\":\"xgemm_1\",\"precision\":32,\"results\":[]}", "\"precision\" should be a string"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{},\"times\":{\"runtimes\":[1e308,1e308]},"
        "\"invalidity\":\"correct\",\"correctness\":1}]}",
        "results[0]: a time of inf ms; a time is a finite number more than 0"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{},\"times\":{},\"invalidity\":\"correct\","
        "\"correctness\":1,\"measurements\":[{\"name\":\"time\",\"value\":-2,\"unit\":\"ms\"}]}]}",
        "results[0]: a time of -2 ms"},
       /* Issue 28: a time that is not a number, a time past a double, control characters. */
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{},\"times\":{},\"invalidity\":\"correct\","
        "\"correctness\":1,\"measurements\":[{\"name\":\"time\",\"value\":\"fast\",\"unit\":\"ms\"}]}]}",
        "results[0].measurements[0].value of \"time\" should be a number, not a string"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{},\"times\":{},\"invalidity\":\"correct\","
        "\"correctness\":1,\"measurements\":[{\"name\":\"time\",\"value\":1e400,\"unit\":\"ms\"}]}]}",
        "results[0].measurements[0].value of \"time\" is not a finite number (too large for a double)"},
       {"{\"kernel_family\":\"xgemm_1\",\"precision\":\"32\",\"device\":\"d\",\"arg_m\":\"64\",\"arg_n\":\"64\","
        "\"arg_k\":\"64\",\"results\":[{\"kernel\":\"Xgemm\",\"time\":1e400,\"parameters\":{}}]}",
        "results[0].time is not a finite number"},
       {"{\"kernel_family\":\"xgemm_1\",\"precision\":\"32\",\"device\":\"\\u001b]0;pwned\\u0007\\u001b[2J evil\","
        "\"arg_m\":\"8\",\"arg_n\":\"8\",\"arg_k\":\"8\",\"results\":[]}",
        "device holds a control character (ESC at byte 1)"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{\"\\u001b[2J\\u001b[31mTS\":16},"
        "\"times\":{},\"invalidity\":\"correct\",\"correctness\":1}]}",
        "results[0].configuration key holds a control character (ESC at byte 1)"},
       {"{\"schema_version\":\"1.0.0\",\"results\":[{\"configuration\":{\"TS\":\"a\\u0007b\"},"
        "\"times\":{},\"invalidity\":\"correct\",\"correctness\":1}]}",
        "results[0].\"TS\" holds a control character (BEL at byte 2)"},
   };
   for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
      char err[512] = "";
      int n = -1;
      StoreRecord *rows = ResultImport_parse("bad.json", cases[i].text, strlen(cases[i].text), NULL, NULL, 0, &n,
                                             NULL, err, sizeof err);
      if (rows || !strstr(err, cases[i].want) || strncmp(err, "bad.json: ", 10))
         fail_msg("case %zu: got '%s', want '%s'", i, err, cases[i].want);
      assert_int_equal(n, 0);
   }
   /* A device name longer than the store keeps: refused, not cut. */
   char text[512], err[512];
   int n;
   snprintf(text, sizeof text, "{\"kernel_family\":\"xgemm_1\",\"precision\":\"32\",\"device\":\"%0200d\","
            "\"arg_m\":\"8\",\"arg_n\":\"8\",\"arg_k\":\"8\",\"results\":[]}", 7);
   assert_null(ResultImport_parse("long.json", text, strlen(text), NULL, NULL, 0, &n, NULL, err, sizeof err));
   assert_non_null(strstr(err, "device is too long (200 characters; at most 127)"));
   ResultFormat csv = RESULT_FORMAT_CSV;
   assert_null(ResultImport_parse("x.csv", "a,b\n", 4, &csv, NULL, 0, &n, NULL, err, sizeof err));
   assert_non_null(strstr(err, "imports t4 and clblast files, not csv"));
}

/* A T4 file of n results, one a line after three header lines (so that result i is on line i + 4),
 * the result at bad (or none: -1) replaced by text. */
static char *longT4(int n, int bad, const char *text, size_t *len) {
   size_t cap = (size_t)n * 240 + 4096, used = 0;
   char *out = malloc(cap);
   assert_non_null(out);
   used += (size_t)snprintf(out, cap, "{\"schema_version\": \"1.0.0\",\n \"metadata\": {\"timeunit\": \"ms\"},\n"
                                      " \"results\": [\n");
   for (int i = 0; i < n; i++) {
      if (i == bad)
         used += (size_t)snprintf(out + used, cap - used, "%s", text);
      else
         used += (size_t)snprintf(out + used, cap - used,
                                  "  {\"configuration\": {\"TS\": %d, \"WPT\": \"w%d\"}, \"times\": {\"runtimes\": [%d.5]}, "
                                  "\"invalidity\": \"correct\", \"correctness\": 1, \"measurements\": [{\"name\": "
                                  "\"time\", \"value\": %d.25, \"unit\": \"ms\"}]}",
                                  i, i % 7, i % 13 + 1, i % 11 + 1);
      used += (size_t)snprintf(out + used, cap - used, "%s\n", i + 1 < n ? "," : "");
   }
   used += (size_t)snprintf(out + used, cap - used, " ],\n \"trailer\": {\"results\": [1, 2]}}\n");
   *len = used;
   return out;
}

/* A file of 1 MiB or more is read one result at a time: the same rows as the whole tree
 * gives, and its errors named at the same place (issue 28: import was quadratic). */
static void test_long_files_stream(void **state) {
   (void)state;
   ImportLabels labels = {.device = "d", .kernel = "k", .m = 64, .n = 64, .k = 64, .precision = -1};
   char err[512] = "";
   int n = 0;
   size_t len;
   char *text = longT4(9000, -1, NULL, &len);
   assert_true(len >= (1u << 20));
   StoreRecord *rows = ResultImport_parse("long.json", text, len, NULL, &labels, 0, &n, NULL, err, sizeof err);
   if (!rows)
      fail_msg("%s", err);
   assert_int_equal(n, 9000);
   for (int i = 0; i < n; i += 997) {
      char want[64];
      snprintf(want, sizeof want, "TS=%d WPT=w%d", i, i % 7);
      assert_string_equal(rows[i].params, want);
      assert_true(rows[i].median_ms == i % 11 + 1.25);
   }
   /* The same results in a short file (the whole tree) read the same. */
   size_t shortLen;
   char *shortText = longT4(40, -1, NULL, &shortLen);
   int m = 0;
   StoreRecord *few = ResultImport_parse("short.json", shortText, shortLen, NULL, &labels, 0, &m, NULL, err, sizeof err);
   assert_non_null(few);
   assert_int_equal(m, 40);
   for (int i = 0; i < m; i++) {
      assert_string_equal(few[i].params, rows[i].params);
      assert_true(few[i].median_ms == rows[i].median_ms);
   }
   free(few);
   free(shortText);
   free(rows);
   free(text);
   /* Errors in the stream: the line of the broken result, its index, a missing comma. */
   static const struct {
      int at;
      const char *text, *want;
   } bad[] = {
       {7000, "  {\"configuration\": {\"TS\": 1,}, \"times\": {}}", "long.json: line 7004, column 31: invalid JSON"},
       {8999, "  {\"configuration\": {}, \"times\": {}, \"invalidity\": \"correct\", \"correctness\": 1, "
              "\"measurements\": [{\"name\": \"time\", \"value\": \"fast\"}]}",
        "results[8999].measurements[0].value of \"time\" should be a number"},
       {4500, "  {\"configuration\": {}, \"times\": {}, \"invalidity\": \"correct\", \"correctness\": 1} {}",
        "long.json: line 4504, column 81"},
   };
   for (size_t c = 0; c < sizeof bad / sizeof bad[0]; c++) {
      text = longT4(9000, bad[c].at, bad[c].text, &len);
      n = -1;
      err[0] = '\0';
      StoreRecord *got = ResultImport_parse("long.json", text, len, NULL, &labels, 0, &n, NULL, err, sizeof err);
      if (got)
         fail_msg("case %zu: %d rows read from a broken file", c, n);
      if (!strstr(err, bad[c].want) || (c == 2 && !strstr(err, "expected ','")))
         fail_msg("case %zu: '%s', want '%s'", c, err, bad[c].want);
      assert_int_equal(n, 0);
      free(text);
   }
}

/* The samples with random bytes changed, cut or repeated: rows, or a message naming the
 * file; never a crash (the sanitizer build checks the reads). */
static void test_mutated_files(void **state) {
   (void)state;
   static const char *const names[] = {"t4_kernel_tuner.json", "clblast_xgemm_1_32.json"};
   static const char alphabet[] = "{}[]\",:0123456789.-eE \n\\tnulfrs";
   ImportLabels labels = {.device = "d", .kernel = "k", .m = 8, .n = 8, .k = 8, .precision = -1};
   for (int f = 0; f < 2; f++) {
      size_t len;
      char *text = sample(names[f], &len);
      char *copy = malloc(2 * len + 1);
      assert_non_null(copy);
      for (int trial = 0; trial < 1500; trial++) {
         size_t n = len;
         memcpy(copy, text, len);
         for (int edits = 1 + rand() % 4; edits > 0 && n > 0; edits--) {
            size_t at = (size_t)rand() % n;
            int kind = rand() % 3;
            if (kind == 0)
               copy[at] = alphabet[rand() % (int)(sizeof alphabet - 1)];
            else if (kind == 1)
               n = at; /* cut */
            else if (n + 16 < 2 * len) { /* repeat a piece */
               memmove(copy + at + 16, copy + at, n - at);
               n += 16;
            }
         }
         copy[n] = '\0';
         char err[512] = "";
         int rows = -1;
         StoreRecord *r = ResultImport_parse("m.json", copy, n, NULL, trial % 2 ? &labels : NULL, 0, &rows, NULL,
                                             err, sizeof err);
         if (r) {
            assert_true(rows >= 0);
            for (int i = 0; i < rows; i++)
               assert_true(r[i].device[0] && r[i].kernel[0] && r[i].problem.m > 0);
            free(r);
         } else if (strncmp(err, "m.json: ", 8) != 0) {
            fail_msg("seed %u, %s trial %d: no message naming the file: '%s'", g_seed, names[f], trial, err);
         }
      }
      free(copy);
      free(text);
   }
}

static void test_parse_time(void **state) {
   (void)state;
   long long t;
   assert_true(ResultFmt_parseTime("2026-03-02T10:15:00Z", &t) && t == 1772446500LL);
   assert_true(ResultFmt_parseTime("2026-03-02T12:15:00.123456+02:00", &t) && t == 1772446500LL);
   assert_true(ResultFmt_parseTime("2026-03-02 10:15:00", &t) && t == 1772446500LL);
   assert_true(ResultFmt_parseTime("2026-03-02", &t) && t == 1772409600LL);
   const char *bad[] = {"", "2026-3-2", "2026-13-01", "2026-03-02T25:00:00", "2026-03-02T10:15", "2026-03-02x",
                        "2026-03-02T10:15:00+0200"};
   for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
      if (ResultFmt_parseTime(bad[i], &t))
         fail_msg("'%s' was taken as a time", bad[i]);
   char iso[32];
   long long now = (long long)time(NULL);
   ResultFmt_isoTime(now, iso);
   assert_true(ResultFmt_parseTime(iso, &t) && t == now);
}

/* ---- best and compare ---- */

static StoreRecord *add(ResultSet *s, const char *origin, const char *device, const char *kernel, const char *params,
                        int size, double gflops) {
   StoreRecord r;
   StoreRecord_init(&r, origin);
   r.id = s->n + 1;
   snprintf(r.device, sizeof r.device, "%s", device);
   snprintf(r.kernel, sizeof r.kernel, "%s", kernel);
   snprintf(r.params, sizeof r.params, "%s", params);
   r.problem.m = r.problem.n = r.problem.k = size;
   snprintf(r.outcome, sizeof r.outcome, "ok");
   r.verified = true;
   r.gflops = gflops;
   r.median_ms = Problem_flops(&r.problem) / (gflops * 1e6);
   assert_true(ResultSet_addRow(&r, s));
   return &s->rows[s->n - 1];
}

static void test_best(void **state) {
   (void)state;
   ResultSet s = {0};
   double g = randomIn(10, 1000);
   add(&s, "run", "gpu A", "k1", "TS=8", 512, g);
   add(&s, "sweep", "gpu A", "k1", "TS=16", 512, 2 * g);              /* the best of k1 */
   add(&s, "run", "gpu A", "k1", "TS=32", 512, 5 * g)->verified = false; /* faster, not verified */
   add(&s, "run", "gpu A", "k1", "TS=64", 512, 6 * g)->emulated = true;  /* faster, ablated */
   snprintf(add(&s, "run", "gpu A", "k1", "TS=4", 512, 7 * g)->outcome, 16, "wrong");
   add(&s, "run", "gpu A", "k2", "", 512, 3 * g);                     /* a faster kernel: first */
   add(&s, "vendor", "gpu A", "CLBlast", "", 512, 4 * g);
   add(&s, "vendor", "gpu A", "CLBlast", "", 512, 3.5 * g);
   add(&s, "run", "gpu A", "k1", "TS=8", 1024, g);                    /* another size: no vendor */
   add(&s, "clblast", "gpu B", "Xgemm", "MWG=64", 512, 9 * g);        /* another device */
   ResultBest *best;
   int n = Results_best(&s, &best);
   assert_int_equal(n, 4);
   assert_string_equal(s.rows[best[0].row].device, "gpu A");
   assert_string_equal(s.rows[best[0].row].kernel, "k2");
   assert_string_equal(s.rows[best[1].row].params, "TS=16");
   assert_int_equal(best[1].vendor, 6); /* the faster CLBlast row */
   assert_true(fabs(best[1].pct_of_vendor - 50.0) < 1e-9);
   assert_true(fabs(best[0].pct_of_vendor - 75.0) < 1e-9);
   assert_int_equal(s.rows[best[2].row].problem.m, 1024);
   assert_int_equal(best[2].vendor, -1);
   assert_true(isnan(best[2].pct_of_vendor));
   assert_string_equal(s.rows[best[3].row].kernel, "Xgemm");
   free(best);
   ResultSet_free(&s);
}

/* A row of the scope's place (gpu A through opencl, mygemm03_wpt's file as it is) at size. */
static StoreRecord *placed(ResultSet *s, const char *hash, const char *params, int size, double gflops) {
   StoreRecord *r = add(s, "sweep", "gpu A", "mygemm03_wpt", params, size, gflops);
   snprintf(r->backend, sizeof r->backend, "opencl");
   snprintf(r->kernel_hash, sizeof r->kernel_hash, "%s", hash);
   return r;
}

static bool withoutWpt8(void *ctx, const StoreRecord *r, const KernelInfo *k, const long long *values) {
   ++*(int *)ctx;
   return values[KernelInfo_paramIndex(k, "WPT")] != 8;
}

/* What gemmtop tune ships and bench --best measures (Results_keepScope, then
 * Results_dispatch): only rows of this device (its exact name), backend, type, layout and
 * L2, whose kernel's file is unchanged and whose parameters still hold at their size, and
 * that keep takes; each shape's best among them, with the vendor's figure beside it. */
static void test_scope(void **state) {
   (void)state;
   Catalog cat;
   char err[1024], hash[17];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   const KernelInfo *k = Catalog_find(&cat, "mygemm03_wpt");
   assert_non_null(k);
   KernelInfo_hash(k, hash);
   DeviceLimits lim = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 65536, .fp64 = true, .warp = 32};
   ResultSet s = {0};
   double g = randomIn(10, 1000);
   placed(&s, hash, "TS=16 WPT=4", 64, g);
   placed(&s, hash, "TS=32 WPT=8", 64, 2 * g);                  /* the best at 64 */
   snprintf(placed(&s, hash, "TS=32 WPT=2", 64, 9 * g)->device, 128, "gpu A2"); /* another device */
   snprintf(placed(&s, hash, "TS=32 WPT=2", 64, 9 * g)->backend, 16, "cuda");   /* another backend */
   placed(&s, hash, "TS=32 WPT=2", 64, 9 * g)->problem.precision = PRECISION_DOUBLE;
   placed(&s, hash, "TS=32 WPT=2", 64, 9 * g)->problem.trans_b = true;
   placed(&s, hash, "TS=32 WPT=2", 64, 9 * g)->cold_l2 = true;
   placed(&s, "0123456789abcdef", "TS=32 WPT=2", 64, 9 * g); /* measured with another text of the file */
   placed(&s, hash, "TS=64 WPT=3", 64, 9 * g);                  /* no longer valid: TS % WPT */
   placed(&s, hash, "TS=16", 64, 9 * g);                        /* parameters that do not parse */
   snprintf(placed(&s, hash, "TS=32 WPT=2", 64, 9 * g)->kernel, 64, "nosuch"); /* no such kernel */
   placed(&s, hash, "TS=64 WPT=8", 96, 9 * g);                  /* invalid at 96: 96 % 64 */
   placed(&s, hash, "TS=32 WPT=8", 96, 3 * g);                  /* the best at 96 */
   placed(&s, hash, "TS=8 WPT=1", 96, g);
   snprintf(add(&s, "vendor", "gpu A", "CLBlast", "", 64, 4 * g)->backend, 16, "opencl");
   snprintf(add(&s, "vendor", "gpu A", "CLBlast", "", 96, 40 * g)->backend, 16, "cuda"); /* another backend's */
   ResultsScope scope = {.cat = &cat, .device = "gpu A", .backend = "opencl", .limits = &lim};
   Problem_setDefaults(&scope.problem);
   ResultSet all = {0};
   for (int i = 0; i < s.n; i++)
      assert_true(ResultSet_addRow(&s.rows[i], &all));
   Results_keepScope(&s, &scope);
   assert_int_equal(s.n, 5); /* four of mygemm03_wpt, and the vendor's at 64 */
   ShapeSuite suite = {.count = 3};
   const int sizes[3] = {64, 96, 128};
   for (int i = 0; i < 3; i++) {
      suite.shapes[i] = (Shape){.m = sizes[i], .n = sizes[i], .k = sizes[i], .weight = 1};
      snprintf(suite.shapes[i].label, sizeof suite.shapes[i].label, "s%d", sizes[i]);
   }
   DispatchEntry e[3];
   Results_dispatch(&s, &suite, e);
   assert_string_equal(s.rows[e[0].row].params, "TS=32 WPT=8");
   assert_true(fabs(e[0].pct_of_vendor - 50.0) < 1e-9);
   assert_string_equal(s.rows[e[1].row].params, "TS=32 WPT=8");
   assert_true(isnan(e[1].pct_of_vendor)); /* no vendor row of this backend at 96 */
   assert_int_equal(e[2].row, -1);
   /* keep narrows it further (tune: what export-kernel can write) */
   int asked = 0;
   scope.keep = withoutWpt8;
   scope.ctx = &asked;
   Results_keepScope(&all, &scope);
   assert_int_equal(all.n, 3); /* two of mygemm03_wpt (no WPT=8), and the vendor's */
   assert_int_equal(asked, 4); /* asked only about the rows that passed the rest */
   Results_dispatch(&all, &suite, e);
   assert_string_equal(all.rows[e[0].row].params, "TS=16 WPT=4");
   assert_string_equal(all.rows[e[1].row].params, "TS=8 WPT=1");
   ResultSet_free(&all);
   ResultSet_free(&s);
   Catalog_free(&cat);
}

static void test_compare(void **state) {
   (void)state;
   ResultSet s = {0};
   double g = randomIn(10, 1000), ratio = randomIn(0.2, 5);
   add(&s, "run", "gpu A", "k1", "TS=8 WPT=2", 512, g);
   add(&s, "run", "gpu A", "k1", "TS=8 WPT=2", 512, 0.5 * g); /* a slower repeat: the best counts */
   add(&s, "t4", "gpu B", "k1", "WPT=2 TS=8", 512, ratio * g);  /* another tool's order */
   add(&s, "run", "gpu A", "k1", "TS=16 WPT=2", 512, g);      /* only on A */
   add(&s, "t4", "gpu B", "k1", "TS=8 WPT=2", 1024, g);       /* only on B: another size */
   add(&s, "run", "gpu C", "k1", "TS=8 WPT=2", 512, 100 * g); /* on neither side */
   unsigned char side[] = {0, 0, 1, 0, 1, 2};
   ResultPair *pairs;
   int n = Results_compare(&s, side, &pairs);
   assert_int_equal(n, 3);
   assert_int_equal(pairs[0].a, 3); /* TS=16 sorts before TS=8 */
   assert_int_equal(pairs[0].b, -1);
   assert_true(isnan(pairs[0].ratio));
   assert_int_equal(pairs[1].a, 0);
   assert_int_equal(pairs[1].b, 2);
   assert_true(fabs(pairs[1].ratio - ratio) < 1e-12 * ratio);
   assert_int_equal(pairs[2].a, -1);
   assert_int_equal(pairs[2].b, 4);
   free(pairs);
   ResultSet_free(&s);
}

static int setup(void **state) {
   (void)state;
   g_seed = (unsigned)time(NULL) ^ ((unsigned)getpid() << 16);
   srand(g_seed);
   print_message("# seed %u\n", g_seed);
   return 0;
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_csv_reads_back),    cmocka_unit_test(test_jsonl_reads_back),
       cmocka_unit_test(test_t4_reads_back),     cmocka_unit_test(test_kernel_tuner_file),
       cmocka_unit_test(test_clblast_file),      cmocka_unit_test(test_bad_files),
       cmocka_unit_test(test_mutated_files),     cmocka_unit_test(test_long_files_stream),
       cmocka_unit_test(test_parse_time),        cmocka_unit_test(test_best),
       cmocka_unit_test(test_compare),           cmocka_unit_test(test_scope),
   };
   return cmocka_run_group_tests(tests, setup, NULL);
}
