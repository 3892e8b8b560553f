/* Core's one sweep (core/tune/sweeprun.c) on the real device (PoCL) with a real store: a
 * sweep measures its budget in a child process and records each outcome; the same sweep
 * opened again takes them from the store and measures nothing; a larger budget measures
 * only the rest; a cancelled measurement leaves its configuration pending, its child
 * killed; --fresh takes nothing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/children.h"
#include "base/rng.h"
#include "base/util.h"
#include "core/sweep/measurer.h"
#include "core/run/session.h"
#include "core/tune/sweeprun.h"
#include "testing.h"

static Catalog g_cat;
static DeviceInfo g_dev;
static char g_dir[64];

static const char *kernelsDir(void) {
   const char *env = getenv("GEMMTOP_KERNELS");
   return env && *env ? env : GEMMTOP_SOURCE_DIR "/kernels";
}

static int setupAll(void **state) {
   (void)state;
   char err[1024];
   if (!Catalog_load(&g_cat, kernelsDir(), err, sizeof err)) {
      fprintf(stderr, "cannot load kernels: %s\n", err);
      return -1;
   }
   int dev = Testing_poclDevice(err, sizeof err);
   Session *s = dev >= 0 ? Session_open(Backend_opencl(), dev, &g_cat, err, sizeof err) : NULL;
   if (!s) {
      fprintf(stderr, "%s\n", err);
      return -1;
   }
   g_dev = *Session_device(s);
   Session_close(s);
   snprintf(g_dir, sizeof g_dir, "/tmp/gemmtop-sweeprun-XXXXXX");
   if (!mkdtemp(g_dir)) {
      perror("mkdtemp");
      return -1;
   }
   return 0;
}

static int teardownAll(void **state) {
   (void)state;
   Catalog_free(&g_cat);
   char cmd[128];
   snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
   if (system(cmd) != 0)
      fprintf(stderr, "could not remove %s\n", g_dir);
   return 0;
}

typedef struct Recording_ {
   Store *store;
   int added;
} Recording;

static void addRecord(void *ctx, StoreRecord *r) {
   Recording *rec = ctx;
   char err[1024];
   if (!Store_add(rec->store, r, 1, err, sizeof err))
      fail_msg("store: %s", err);
   rec->added++;
}

/* A run of mygemm03_wpt at 32 with budget, on the store in rec. */
static SweepRun *openRun(const KernelInfo *k, const long long *base, uint64_t seed, int budget, bool fresh,
                         Recording *rec) {
   Problem p;
   Problem_setDefaults(&p);
   p.m = p.n = p.k = 32;
   unsigned all = (1u << k->nparams) - 1;
   SweepSpace sp;
   Rng rng;
   Rng_seed(&rng, seed);
   assert_true(Sweep_enumerate(k, base, all, &p, &g_dev.limits, &rng, &sp));
   assert_true(sp.count >= 6);
   Sweep_shuffle(&sp, k, base, &rng);
   SweepSetup su = {.k = k, .kernels_dir = kernelsDir(), .backend = "opencl", .dev = &g_dev, .problem = p,
                    .base = base, .free_mask = all, .strategy = SEARCH_RANDOM, .budget = budget,
                    .t0 = Util_nowMs(), .seed = seed, .reps = 3, .warmup = 1, .timeout_s = 30,
                    .store = rec->store, .fresh = fresh, .record = addRecord, .record_ctx = rec};
   SweepRun *r = SweepRun_open(&su, &sp);
   assert_non_null(r);
   assert_int_equal(sp.count, 0); /* moved into the run */
   return r;
}

static void test_measure_resume_cancel(void **state) {
   (void)state;
   const KernelInfo *k = Catalog_find(&g_cat, "mygemm03_wpt");
   assert_non_null(k);
   long long base[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(k, base);
   uint64_t seed = Rng_freshSeed();
   fprintf(stderr, "# seed %llu\n", (unsigned long long)seed);
   char path[128], err[1024];
   snprintf(path, sizeof path, "%s/results.db", g_dir);
   Recording rec = {Store_open(path, err, sizeof err), 0};
   if (!rec.store)
      fail_msg("store: %s", err);

   /* Three measured in the child, each recorded as it came. */
   SweepRun *r = openRun(k, base, seed, 3, false, &rec);
   assert_int_equal(SweepRun_taken(r), 0);
   assert_int_equal(SweepRun_budget(r), 3);
   assert_true(SweepRun_measureAll(r, 1, NULL));
   int n, counts[SWEEP_OUTCOMES];
   SweepRun_rank(r, counts);
   SweepCandidate *tried = SweepRun_tried(r, &n);
   assert_int_equal(n, 3);
   assert_int_equal(rec.added, 3);
   assert_int_equal(counts[SWEEP_OK], 3);
   for (int i = 0; i < n; i++)
      assert_true(tried[i].gflops > 0 && tried[i].median_ms > 0 && tried[i].max_rel_err < 1e-3);
   for (int i = 1; i < n; i++)
      assert_true(tried[i - 1].gflops >= tried[i].gflops); /* ranked */
   char key[33];
   Util_copy(key, sizeof key, SweepRun_key(r));
   SweepRun_close(r);

   /* The same sweep again: all three from the store, nothing to propose or measure. */
   r = openRun(k, base, seed, 3, false, &rec);
   assert_string_equal(SweepRun_key(r), key);
   assert_int_equal(SweepRun_taken(r), 3);
   assert_int_equal(SweepRun_propose(r, 10), 0);
   SweepRun_close(r);
   assert_int_equal(rec.added, 3);

   /* Five: the three taken, two proposed. A cancelled measurement leaves its
    * configuration pending; the next one measures it. */
   r = openRun(k, base, seed, 5, false, &rec);
   assert_int_equal(SweepRun_taken(r), 3);
   assert_int_equal(SweepRun_budget(r), 5);
   assert_int_equal(SweepRun_propose(r, 10), 2);
   SweepCandidate *first;
   assert_int_equal(SweepRun_pending(r, &first), 2);
   atomic_int cancel;
   atomic_init(&cancel, 1);
   bool stopped = false;
   assert_null(SweepRun_measureNext(r, &cancel, &stopped));
   assert_true(stopped);
   assert_int_equal(SweepRun_pending(r, &first), 2);
   assert_int_equal(first->outcome, SWEEP_PENDING);
   assert_int_equal(rec.added, 3);
   atomic_store(&cancel, 0);
   for (int i = 0; i < 2; i++) {
      const SweepCandidate *c = SweepRun_measureNext(r, &cancel, &stopped);
      assert_non_null(c);
      assert_false(stopped);
      assert_int_equal(c->outcome, SWEEP_OK);
   }
   assert_null(SweepRun_measureNext(r, NULL, &stopped));
   assert_false(stopped);
   assert_int_equal(rec.added, 5);
   tried = SweepRun_tried(r, &n);
   assert_int_equal(n, 5);
   for (int i = 0; i < n; i++)
      for (int j = 0; j < i; j++)
         assert_memory_not_equal(tried[i].values, tried[j].values, sizeof tried[i].values);
   SweepRun_close(r);

   /* Fresh: nothing taken. */
   r = openRun(k, base, seed, 5, true, &rec);
   assert_int_equal(SweepRun_taken(r), 0);
   SweepRun_close(r);
   Store_close(rec.store);
}

int main(int argc, char **argv) {
   /* The run measures in a child process: this program, started by name. */
   Children_register(MEASURE_CHILD, Measurer_child);
   int childRc;
   if (Children_dispatch(argc, argv, &childRc))
      return childRc;
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_measure_resume_cancel),
   };
   return cmocka_run_group_tests(tests, setupAll, teardownAll);
}
