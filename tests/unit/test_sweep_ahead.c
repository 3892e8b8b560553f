/* The explorer's sweep with compiling ahead (explorer/sweepjob.c, core/run/ahead.c): a
 * small sweep through the real Worker on the real device (PoCL here), once serial (no
 * pool) and once with the pool fed as the explorer feeds it (Worker_feedAhead on every
 * pass), each in a fresh disk cache. Serial, the worker compiles every configuration
 * itself; fed, every configuration after the first is loaded from the cache; and both
 * sweeps try the same configurations with the same outcomes. */
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

#include "base/rng.h"
#include "core/run/ahead.h"
#include "explorer/worker.h"
#include "base/children.h"
#include "base/util.h"
#include "core/sweep/measurer.h"
#include "testing.h"

#define BUDGET 6

static Catalog g_cat;
static char g_dirs[2][64];
static int g_dev; /* PoCL's CPU device */

static const char *kernelsDir(void) {
   const char *env = getenv("GEMMTOP_KERNELS");
   return env && *env ? env : GEMMTOP_SOURCE_DIR "/kernels";
}

static void pause_ms(int ms) {
   struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
   nanosleep(&ts, NULL);
}

static int setupAll(void **state) {
   (void)state;
   char err[1024];
   if (!Catalog_load(&g_cat, kernelsDir(), err, sizeof err)) {
      fprintf(stderr, "cannot load kernels: %s\n", err);
      return -1;
   }
   g_dev = Testing_poclDevice(err, sizeof err);
   if (g_dev < 0) {
      fprintf(stderr, "%s\n", err);
      return -1;
   }
   for (int i = 0; i < 2; i++) {
      snprintf(g_dirs[i], sizeof g_dirs[i], "/tmp/gemmtop-sweepahead-XXXXXX");
      if (!mkdtemp(g_dirs[i])) {
         perror("mkdtemp");
         return -1;
      }
   }
   unsetenv("GEMMTOP_NO_DISK_CACHE");
   return 0;
}

static int teardownAll(void **state) {
   (void)state;
   Catalog_free(&g_cat);
   for (int i = 0; i < 2; i++) {
      char cmd[128];
      snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dirs[i]);
      if (system(cmd) != 0)
         fprintf(stderr, "could not remove %s\n", g_dirs[i]);
   }
   return 0;
}

/* Sweeps c (BUDGET configurations) with the worker seeded seed, the pool fed when pool is
 * not NULL; the finished sweep goes to out. */
static void sweep(const WorkerConfig *c, uint64_t seed, Ahead *pool, WorkerSweep *out) {
   char err[1024];
   /* no_store: a test never writes into the results store (the user's, when run by hand). */
   WorkerInit wi = {.kernels_dir = kernelsDir(), .backend = "opencl", .device = g_dev, .config = *c, .paused = true,
                    .seed = seed, .no_store = true};
   Worker *w = Worker_start(&wi, err, sizeof err);
   if (!w)
      fail_msg("worker: %s", err);
   Worker_setAhead(w, pool);
   /* As in the explorer, the sweep starts once the device is open. */
   WorkerSnapshot *snap = calloc(1, sizeof *snap);
   assert_non_null(snap);
   unsigned long snapSeen = 0;
   double open = Util_nowMs() + 60000;
   while (!snap->have_device && Util_nowMs() < open) {
      Worker_snapshot(w, snap, &snapSeen);
      pause_ms(5);
   }
   if (!snap->have_device)
      fail_msg("the worker opened no device: %s", snap->activity);
   free(snap);
   Worker_sweepStart(w, c, BUDGET, false, SEARCH_RANDOM, 30);
   unsigned long seen = 0;
   unsigned long long posted = 0;
   int fedPasses = 0;
   double end = Util_nowMs() + 300000;
   memset(out, 0, sizeof *out);
   while (Util_nowMs() < end) {
      /* What the explorer's main loop does, on every pass. */
      if (pool && Worker_feedAhead(w, pool, &posted) > 0)
         fedPasses++;
      Worker_sweep(w, out, &seen);
      if (out->started && !out->running)
         break;
      pause_ms(1);
   }
   if (out->running)
      fail_msg("the sweep did not end in 300 s (%d of %d)", out->done, out->total);
   if (pool) {
      assert_true(fedPasses > 0);
      /* Ended: nothing more for the pool. */
      WorkerSweepAhead up;
      assert_int_equal(Worker_sweepUpcoming(w, &up, 4), -1);
   }
   Worker_setAhead(w, NULL);
   assert_true(Worker_stop(w, 10000));
}

static void test_sweep_fed_ahead_loads_from_the_cache(void **state) {
   (void)state;
   const KernelInfo *k = Catalog_find(&g_cat, "mygemm03_wpt");
   assert_non_null(k);
   WorkerConfig c;
   memset(&c, 0, sizeof c);
   Util_copy(c.kernel, sizeof c.kernel, k->name);
   KernelInfo_defaults(k, c.values);
   Problem_setDefaults(&c.problem);
   c.problem.m = c.problem.n = c.problem.k = 64;
   uint64_t seed = Rng_freshSeed();
   fprintf(stderr, "# seed %llu\n", (unsigned long long)seed);
   WorkerSweep *serial = calloc(1, sizeof *serial), *fed = calloc(1, sizeof *fed);
   assert_non_null(serial);
   assert_non_null(fed);

   /* Serial, in an empty cache: every configuration compiled by the worker. */
   setenv("XDG_CACHE_HOME", g_dirs[0], 1);
   sweep(&c, seed, NULL, serial);
   assert_string_equal(serial->message, "done");
   assert_int_equal(serial->done, serial->total);
   assert_true(serial->total >= 3);
   /* (The first, the configuration on screen, the worker may have run before the sweep.) */
   for (int i = 1; i < serial->total; i++)
      assert_false(serial->points[i].cached);

   /* Fed ahead, in another empty cache. The pool's device is opened first, as the
    * explorer's pool is by the neighbours long before a sweep. */
   setenv("XDG_CACHE_HOME", g_dirs[1], 1);
   char err[512];
   Ahead *pool = Ahead_start(kernelsDir(), 2, err, sizeof err);
   if (!pool)
      fail_msg("pool: %s", err);
   AheadTarget warm = Ahead_target("opencl", g_dev, "mygemm01_naive", &c.problem, 0);
   long long wv[1][KERNEL_MAX_PARAMS] = {{0}};
   KernelInfo_defaults(Catalog_find(&g_cat, warm.kernel), wv[0]);
   Ahead_want(pool, &warm, (const long long (*)[KERNEL_MAX_PARAMS])wv, 1);
   AheadStatus st;
   double end = Util_nowMs() + 120000;
   do {
      pause_ms(10);
      Ahead_status(pool, &st);
   } while (st.done + st.failed < 1 && Util_nowMs() < end);
   assert_int_equal(st.done, 1);

   sweep(&c, seed, pool, fed);
   assert_string_equal(fed->message, "done");
   assert_int_equal(fed->total, serial->total);
   assert_int_equal(fed->done, fed->total);

   /* The same configurations, the same outcomes. */
   for (int i = 0; i < fed->total; i++) {
      assert_memory_equal(fed->points[i].values, serial->points[i].values, sizeof fed->points[i].values);
      assert_int_equal(fed->points[i].outcome, serial->points[i].outcome);
   }
   for (int o = 0; o < SWEEP_OUTCOMES; o++)
      assert_int_equal(fed->counts[o], serial->counts[o]);
   assert_true(fed->counts[SWEEP_OK] > 0);
   /* After the first, each one that compiled was compiled ahead: the worker loaded it. */
   for (int i = 1; i < fed->total; i++) {
      fprintf(stderr, "# %d: %s, %s, compile %.1f ms (serial: %.1f ms)\n", i,
              SweepOutcome_name(fed->points[i].outcome), fed->points[i].cached ? "cached" : "compiled",
              fed->points[i].compile_ms, serial->points[i].compile_ms);
      if (fed->points[i].outcome == SWEEP_OK && !fed->points[i].cached)
         fail_msg("configuration %d of the sweep was compiled by the worker, not loaded", i + 1);
   }
   assert_true(Ahead_stop(pool, 10000));
   free(serial);
   free(fed);
}

int main(int argc, char **argv) {
   /* The sweep measures in a child process: this program, started by name. */
   Children_register(MEASURE_CHILD, Measurer_child);
   int childRc;
   if (Children_dispatch(argc, argv, &childRc))
      return childRc;
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_sweep_fed_ahead_loads_from_the_cache),
   };
   return cmocka_run_group_tests(tests, setupAll, teardownAll);
}
