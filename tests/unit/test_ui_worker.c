/* The explorer's worker thread on the real device (PoCL here): a first run is verified,
 * measuring goes on by itself, quick posts are debounced into one, refused and unknown
 * configurations say why, pause and cancel stop launches, reload measures again; a sweep
 * tries its sample before measuring goes on, names each outcome, and stops when told; the
 * compiled code is read for the inspect pane only while it is wanted.
 *
 * Each test gets a worker of its own, started on PoCL's CPU device (whatever the machine's
 * default) with the naive kernel at TSN=16 TSM=16 on 64x64x64, and waits for the serials
 * that its own posts return: no test depends on what another left behind. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend/backend.h"
#include "explorer/worker.h"
#include "base/children.h"
#include "base/util.h"
#include "core/sweep/measurer.h"
#include "testing.h"

#define TIMEOUT_MS 120000.0

typedef struct Fixture_ {
   Worker *w;
   WorkerSnapshot *snap;
   unsigned long seen;
   LogBuf log;
   const KernelInfo *naive;
   Catalog cat;
   int device;                     /* PoCL's CPU device */
} Fixture;

static void pause_ms(int ms) {
   struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
   nanosleep(&ts, NULL);
}

static const char *kernelsDir(void) {
   const char *env = getenv("GEMMTOP_KERNELS");
   return env && *env ? env : GEMMTOP_SOURCE_DIR "/kernels";
}

/* Waits until pred holds for the latest snapshot. */
static bool waitFor(Fixture *f, bool (*pred)(const WorkerSnapshot *, const void *), const void *arg) {
   double end = Util_nowMs() + TIMEOUT_MS;
   while (Util_nowMs() < end) {
      Worker_snapshot(f->w, f->snap, &f->seen);
      Worker_takeLog(f->w, &f->log);
      if (pred(f->snap, arg))
         return true;
      pause_ms(20);
   }
   return false;
}

static bool verifiedAndTimed(const WorkerSnapshot *s, const void *serial) {
   return s->config_serial == *(const unsigned long *)serial && s->result.verified_run && s->nwindow > 0;
}
static bool stopped(const WorkerSnapshot *s, const void *serial) {
   return s->config_serial == *(const unsigned long *)serial && s->state == WS_STOPPED && s->have_result;
}
static bool inState(const WorkerSnapshot *s, const void *state) { return s->state == *(const WorkerState *)state; }
static bool vendorDone(const WorkerSnapshot *s, const void *unused) {
   (void)unused;
   return s->vendor_done && s->state != WS_VENDOR;
}
static bool vendorStartedOrDone(const WorkerSnapshot *s, const void *unused) {
   (void)unused;
   return s->state == WS_VENDOR || s->vendor_done;
}
static bool deviceOpen(const WorkerSnapshot *s, const void *unused) {
   (void)unused;
   return s->have_device;
}
static bool moreLaunches(const WorkerSnapshot *s, const void *n) { return s->launches > *(const long *)n; }

static WorkerConfig naiveConfig(const Fixture *f, long long tsn, long long tsm, int size) {
   WorkerConfig c;
   memset(&c, 0, sizeof c);
   Util_copy(c.kernel, sizeof c.kernel, "mygemm01_naive");
   KernelInfo_defaults(f->naive, c.values);
   c.values[KernelInfo_paramIndex(f->naive, "TSN")] = tsn;
   c.values[KernelInfo_paramIndex(f->naive, "TSM")] = tsm;
   Problem_setDefaults(&c.problem);
   c.problem.m = c.problem.n = c.problem.k = size;
   return c;
}

/* Once: the catalog and the device. */
static int setupAll(void **state) {
   Fixture *f = calloc(1, sizeof *f);
   f->snap = calloc(1, sizeof *f->snap);
   char err[1024];
   if (!Catalog_load(&f->cat, kernelsDir(), err, sizeof err)) {
      fprintf(stderr, "cannot load kernels: %s\n", err);
      return -1;
   }
   f->naive = Catalog_find(&f->cat, "mygemm01_naive");
   if (!f->naive)
      return -1;
   LogBuf_init(&f->log, 1000);
   f->device = Testing_poclDevice(err, sizeof err);
   if (f->device < 0) {
      fprintf(stderr, "%s\n", err);
      return -1;
   }
   *state = f;
   return 0;
}

static int teardownAll(void **state) {
   Fixture *f = *state;
   LogBuf_free(&f->log);
   Catalog_free(&f->cat);
   free(f->snap);
   free(f);
   return 0;
}

/* Before each test: a fresh worker, an empty log and snapshot. */
static int startWorker(void **state) {
   Fixture *f = *state;
   char err[1024];
   /* no_store: a test never writes into the results store (the user's, when run by hand). */
   WorkerInit wi = {.kernels_dir = kernelsDir(), .backend = "opencl", .device = f->device, .vendor = false, .seed = 7,
                    .no_store = true};
   wi.config = naiveConfig(f, 16, 16, 64);
   memset(f->snap, 0, sizeof *f->snap);
   f->seen = 0;
   LogBuf_clear(&f->log);
   f->w = Worker_start(&wi, err, sizeof err);
   if (!f->w) {
      fprintf(stderr, "%s\n", err);
      return -1;
   }
   /* As in the explorer, nothing is asked of the worker before its device is open (a
    * sweep asked for earlier would be stopped by the opening). */
   if (!waitFor(f, deviceOpen, NULL)) {
      fprintf(stderr, "the worker opened no device: %s\n", f->snap->activity);
      return -1;
   }
   return 0;
}

static int stopWorker(void **state) {
   Fixture *f = *state;
   bool stopped = Worker_stop(f->w, 30000);
   f->w = NULL;
   if (!stopped)
      fprintf(stderr, "the worker did not stop within 30 s\n");
   return stopped ? 0 : -1;
}

static bool logHas(const Fixture *f, const char *text) {
   for (int i = 0; i < f->log.count; i++)
      if (strstr(LogBuf_line(&f->log, i)->text, text))
         return true;
   return false;
}

static bool firstVerified(const WorkerSnapshot *s, const void *unused) {
   (void)unused;
   return s->have_config && s->result.verified_run && s->nwindow > 0;
}

static void test_first_run_and_live(void **state) {
   Fixture *f = *state;
   /* The configuration the worker started with, measured without a post. */
   assert_true(waitFor(f, firstVerified, NULL));
   assert_true(f->snap->have_device);
   assert_true(f->snap->result.verify.ok);
   assert_int_equal(f->snap->result.status, RUN_OK);
   assert_true(f->snap->gflops > 0 && f->snap->median_ms > 0);
   assert_true(f->snap->min_ms <= f->snap->median_ms && f->snap->median_ms <= f->snap->max_ms);
   assert_int_equal((int)f->snap->result.geo.local[0], 16);
   assert_string_equal(f->snap->config.kernel, "mygemm01_naive");
   /* Measuring goes on without being asked. */
   long n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   assert_true(f->snap->nwindow <= WORKER_WINDOW);
   assert_true(logHas(f, "verified"));
}

/* Five posts 10 ms apart, as a held key makes them: only the last is compiled. The worker
 * takes a post once WORKER_DEBOUNCE_MS have passed since the latest one, so that holds
 * when each post came less than that after the one before; a loaded machine can stretch
 * a 10 ms pause past it. So the gaps are measured (from before one post to after the
 * next: at least the real gap), a burst that the scheduler stretched is tried again, and
 * only a machine that never kept the spacing skips the check, saying so. */
#define DEBOUNCE_TRIES 5

static void test_debounce(void **state) {
   Fixture *f = *state;
   static const long long tsn[] = {1, 2, 4, 8, 32};
   enum { POSTS = sizeof tsn / sizeof tsn[0] };
   double widest = 0;
   for (int attempt = 1; attempt <= DEBOUNCE_TRIES; attempt++) {
      LogBuf_clear(&f->log);
      unsigned long serial = 0;
      double before_prev = 0;
      widest = 0;
      for (int i = 0; i < POSTS; i++) {
         WorkerConfig c = naiveConfig(f, tsn[i], 16, 64);
         double before = Util_nowMs();
         serial = Worker_post(f->w, &c);
         double after = Util_nowMs();
         if (i > 0 && after - before_prev > widest)
            widest = after - before_prev;
         before_prev = before;
         if (i + 1 < POSTS)
            pause_ms(10);
      }
      assert_true(waitFor(f, verifiedAndTimed, &serial));
      assert_int_equal((int)f->snap->result.geo.local[0], 32);
      assert_true(logHas(f, "TSN=32 TSM=16"));
      if (widest < WORKER_DEBOUNCE_MS) {
         for (int i = 0; i + 1 < POSTS; i++) {
            char name[64];
            snprintf(name, sizeof name, "TSN=%lld TSM=16", tsn[i]);
            if (logHas(f, name))
               fail_msg("%s was compiled, though the posts came at most %.0f ms apart (debounce %d ms)", name, widest,
                        WORKER_DEBOUNCE_MS);
         }
         return;
      }
      print_message("# try %d: the posts came up to %.0f ms apart, over the %d ms debounce; trying again\n", attempt,
                    widest, WORKER_DEBOUNCE_MS);
   }
   SKIP_BECAUSE("in %d tries this machine never posted 5 configurations within %d ms of each other (last: %.0f ms "
                "apart): coalescing not checked",
                DEBOUNCE_TRIES, WORKER_DEBOUNCE_MS, widest);
}

static void test_refused(void **state) {
   Fixture *f = *state;
   WorkerConfig c = naiveConfig(f, 16, 256, 64); /* M=64 is no multiple of TSM=256 */
   unsigned long serial = Worker_post(f->w, &c);
   assert_true(waitFor(f, stopped, &serial));
   assert_int_equal(f->snap->result.status, RUN_INVALID);
   assert_non_null(strstr(f->snap->result.message, "TSM"));
   assert_int_equal(f->snap->nwindow, 0);

   WorkerConfig u = c;
   Util_copy(u.kernel, sizeof u.kernel, "no_such_kernel");
   serial = Worker_post(f->w, &u);
   assert_true(waitFor(f, stopped, &serial));
   assert_non_null(strstr(f->snap->result.message, "no kernel named no_such_kernel"));
}

static void test_pause_cancel_reload(void **state) {
   Fixture *f = *state;
   WorkerConfig c = naiveConfig(f, 8, 16, 64);
   unsigned long serial = Worker_post(f->w, &c);
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   Worker_setPaused(f->w, true);
   WorkerState paused = WS_PAUSED;
   assert_true(waitFor(f, inState, &paused));
   long n = f->snap->launches;
   /* Nothing to wait for: what is tested is that no launch comes in this time. */
   pause_ms(600);
   Worker_snapshot(f->w, f->snap, &f->seen);
   assert_int_equal(f->snap->launches, n);
   Worker_setPaused(f->w, false);
   assert_true(waitFor(f, moreLaunches, &n));

   /* A slow configuration (naive at 768 on a CPU), cancelled while it runs. */
   WorkerConfig big = naiveConfig(f, 16, 16, 768);
   Worker_post(f->w, &big);
   WorkerState verifying = WS_VERIFYING;
   assert_true(waitFor(f, inState, &verifying));
   Worker_cancel(f->w);
   assert_true(waitFor(f, inState, &paused));
   assert_true(f->snap->paused);
   n = f->snap->launches;
   pause_ms(600); /* as above: no launch while paused */
   Worker_snapshot(f->w, f->snap, &f->seen);
   assert_int_equal(f->snap->launches, n);
   Worker_setPaused(f->w, false);

   /* Reload: the kernels are read again and the configuration verified again. */
   serial = Worker_post(f->w, &c);
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   LogBuf_clear(&f->log);
   Worker_reload(f->w);
   double end = Util_nowMs() + TIMEOUT_MS;
   while (!logHas(f, "kernel files reloaded") && Util_nowMs() < end) {
      pause_ms(20);
      Worker_takeLog(f->w, &f->log);
   }
   assert_true(logHas(f, "kernel files reloaded"));
   WorkerState measuring = WS_MEASURING;
   assert_true(waitFor(f, inState, &measuring));
   assert_true(f->snap->result.verified_run && f->snap->result.verify.ok);
   assert_true(logHas(f, "mygemm01_naive TSN=8 TSM=16: verified"));
}

/* Waits until the sweep is no longer running; false on timeout. */
static bool sweepEnded(Fixture *f, WorkerSweep *sw, unsigned long *seen) {
   double end = Util_nowMs() + TIMEOUT_MS;
   while (Util_nowMs() < end) {
      Worker_sweep(f->w, sw, seen);
      Worker_takeLog(f->w, &f->log);
      if (sw->started && !sw->running)
         return true;
      pause_ms(20);
   }
   return false;
}

/* Waits for the inspection of the post serial (older ones are dropped). */
static bool takeInspection(Fixture *f, unsigned long serial, WorkerInspect *in) {
   double end = Util_nowMs() + TIMEOUT_MS;
   while (Util_nowMs() < end) {
      Worker_snapshot(f->w, f->snap, &f->seen);
      Worker_takeLog(f->w, &f->log);
      if (Worker_takeInspect(f->w, in)) {
         if (in->config_serial == serial)
            return true;
         WorkerInspect_free(in);
      }
      pause_ms(20);
   }
   return false;
}

/* A sweep's launch limit here. PoCL generates a kernel's code for its work-group size at
 * the first launch, inside the limit, and under ASan beside other tests on two busy cores
 * that is slow: with a limit of 5 s one point of five once failed in CI's sanitizer pass,
 * and a timeout is the one outcome load alone can cause. The limit itself is tested by
 * tests/e2e/cli_timeout.sh. */
#define SWEEP_LAUNCH_S 60

static void test_sweep(void **state) {
   Fixture *f = *state;
   WorkerSweep *sw = calloc(1, sizeof *sw);
   unsigned long seen = 0;
   assert_non_null(sw);
   /* A random sample of 5 on 64x64x64; the start (TSN, TSM random) is tried first. */
   long long pick[] = {1, 2, 4, 8, 16, 32};
   long long tsn = pick[rand() % 6], tsm = pick[rand() % 6];
   WorkerConfig c = naiveConfig(f, tsn, tsm, 64);
   Worker_sweepStart(f->w, &c, 5, false, SEARCH_RANDOM, SWEEP_LAUNCH_S);
   assert_true(sweepEnded(f, sw, &seen));
   assert_false(sw->stopped);
   assert_string_equal(sw->config.kernel, "mygemm01_naive");
   /* TSN and TSM take 9 values each; those over 64 do not divide the size. */
   assert_true(sw->space == 81);
   assert_true(sw->invalid >= 32);
   assert_int_equal(sw->invalid + sw->valid, 81);
   assert_int_equal(sw->total, 5);
   assert_int_equal(sw->done, 5);
   assert_false(sw->exhaustive);
   int sum = 0;
   for (int o = 0; o < SWEEP_OUTCOMES; o++)
      sum += sw->counts[o];
   assert_int_equal(sum, 5);
   if (sw->counts[SWEEP_OK] != 5)
      print_message("not every configuration measured OK; the last that did not: %s\n", sw->last_skip);
   assert_int_equal(sw->counts[SWEEP_OK], 5);
   assert_memory_equal(sw->points[0].values, c.values, sizeof c.values);
   for (int i = 0; i < 5; i++) {
      assert_int_equal(sw->points[i].outcome, SWEEP_OK);
      assert_true(sw->points[i].gflops > 0 && sw->points[i].median_ms > 0);
      assert_true(64 % sw->points[i].values[0] == 0 && 64 % sw->points[i].values[1] == 0);
      for (int j = 0; j < i; j++)
         assert_memory_not_equal(sw->points[i].values, sw->points[j].values, sizeof c.values);
   }
   assert_true(logHas(f, "sweep of mygemm01_naive done: 5 of 5 verified"));
   /* Measuring goes on after it. */
   WorkerState measuring = WS_MEASURING;
   assert_true(waitFor(f, inState, &measuring));

   /* Every valid configuration, stopped after the first: what was tried stays. */
   Worker_sweepStart(f->w, &c, 0, true, SEARCH_EXHAUSTIVE, SWEEP_LAUNCH_S);
   double end = Util_nowMs() + TIMEOUT_MS;
   do {
      pause_ms(10);
      Worker_sweep(f->w, sw, &seen);
   } while (sw->done < 1 && Util_nowMs() < end);
   assert_true(sw->done >= 1);
   Worker_sweepStop(f->w);
   assert_true(sweepEnded(f, sw, &seen));
   assert_true(sw->stopped);
   assert_true(sw->exhaustive);
   assert_int_equal(sw->total, sw->valid);
   assert_true(sw->done < sw->total);
   for (int i = 0; i < sw->total; i++)
      assert_true(i < sw->done ? sw->points[i].outcome != SWEEP_PENDING : sw->points[i].outcome == SWEEP_PENDING);
   assert_true(waitFor(f, inState, &measuring));

   /* A kernel that is not there: the sweep says so and does not start. */
   WorkerConfig u = c;
   Util_copy(u.kernel, sizeof u.kernel, "no_such_kernel");
   Worker_sweepStart(f->w, &u, 5, false, SEARCH_RANDOM, SWEEP_LAUNCH_S);
   assert_true(sweepEnded(f, sw, &seen));
   assert_int_equal(sw->total, 0);
   assert_non_null(strstr(sw->message, "no kernel named no_such_kernel"));
   free(sw);
}

/* The inspect pane's job: only while wanted, once per configuration, for the right one. */
static void test_inspect(void **state) {
   Fixture *f = *state;
   srand((unsigned)time(NULL));
   const long long sizes[] = {4, 8, 16, 32};
   long long tsn = sizes[rand() % 4], tsm = sizes[rand() % 4];
   /* Not wanted: a configuration runs and nothing is read. */
   WorkerConfig c = naiveConfig(f, tsn, tsm, 64);
   unsigned long serial = Worker_post(f->w, &c);
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   long n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   WorkerInspect in;
   assert_false(Worker_takeInspect(f->w, &in));

   Worker_setInspect(f->w, true);
   assert_true(takeInspection(f, serial, &in));
   assert_true(in.inspection.ok);
   assert_string_equal(in.config.kernel, "mygemm01_naive");
   assert_memory_equal(in.config.values, c.values, sizeof c.values);
   assert_int_equal(in.inspection.group_items, tsn * tsm);
   /* The compiled code (PoCL's CPU code with llvm-objdump), or why there is none. */
   if (in.inspection.code) {
      assert_true(in.inspection.assembly);
      const ListingStats *st = &in.inspection.stats;
      assert_true(st->instructions > 0 && st->lines >= st->instructions);
   } else {
      assert_false(in.inspection.assembly);
      assert_non_null(strstr(in.inspection.note, "no assembly"));
   }
   /* The kernel after the preprocessor (NN: the #else branches), when cpp is there. */
   assert_non_null(in.inspection.source);
   if (strstr(in.inspection.source_kind, "after the preprocessor")) {
      assert_non_null(strstr(in.inspection.source, "__kernel void gemm"));
      assert_non_null(strstr(in.inspection.source, "A[row * K + k]"));
      assert_null(strstr(in.inspection.source, "A[k * M + row]"));
      assert_null(strstr(in.inspection.source, "REAL_ZERO"));
   }
   WorkerInspect_free(&in);
   /* Once per configuration: measuring goes on, no second inspection. */
   n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   assert_false(Worker_takeInspect(f->w, &in));
   /* A new configuration is read again, and measuring carries on afterwards. */
   WorkerConfig d = naiveConfig(f, tsn == 4 ? 8 : 4, tsm, 64);
   serial = Worker_post(f->w, &d);
   assert_true(takeInspection(f, serial, &in));
   assert_true(in.inspection.ok);
   assert_int_equal(in.inspection.group_items, (tsn == 4 ? 8 : 4) * tsm);
   WorkerInspect_free(&in);
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   Worker_setInspect(f->w, false);
}

static bool sizeVerified(const WorkerSnapshot *s, const void *size) {
   return s->have_config && s->config.problem.m == *(const int *)size && s->result.verified_run && s->nwindow > 0 &&
          s->state == WS_MEASURING;
}
static bool tsnVerified(const WorkerSnapshot *s, const void *tsn) {
   return s->have_config && s->config.values[0] == *(const long long *)tsn && s->result.verified_run && s->nwindow > 0;
}

/* The vendor BLAS gives way to a change: a post while it is being timed stops it between
 * two library calls, the new configuration is verified, and the interrupted timing is
 * never shown as a result. */
static void test_vendor_gives_way(void **state) {
   Fixture *f = *state;
   int size = 512;
   WorkerConfig c = naiveConfig(f, 16, 16, size);
   Worker_post(f->w, &c);
   assert_true(waitFor(f, sizeVerified, &size));
   assert_int_equal(KernelInfo_paramIndex(f->naive, "TSN"), 0);
   Worker_measureVendor(f->w);
   if (!waitFor(f, vendorStartedOrDone, NULL))
      fail_msg("the worker never started timing the vendor BLAS");
   if (f->snap->vendor_done && f->snap->vendor.status == RUN_DEVICE_ERROR)
      SKIP_BECAUSE("no vendor BLAS to interrupt on this device: %s", f->snap->vendor.message);
   WorkerConfig d = naiveConfig(f, 32, 16, size);
   Worker_post(f->w, &d);
   long long tsn = 32;
   assert_true(waitFor(f, tsnVerified, &tsn));
   assert_true(f->snap->result.verify.ok);
   assert_true(logHas(f, "interrupted"));
   assert_false(f->snap->vendor_done && f->snap->vendor.status == RUN_CANCELLED);
   /* Asked again with the keys quiet, it runs to the end. */
   Worker_measureVendor(f->w);
   assert_true(waitFor(f, vendorDone, NULL));
   assert_int_equal(f->snap->vendor.status, RUN_OK);
   assert_int_equal(f->snap->vendor_problem.m, size);
   assert_true(f->snap->vendor.gflops > 0 && f->snap->vendor.verified);
}

int main(int argc, char **argv) {
   /* The sweep measures in a child process: this program, started by name. */
   Children_register(MEASURE_CHILD, Measurer_child);
   int childRc;
   if (Children_dispatch(argc, argv, &childRc))
      return childRc;
   srand((unsigned)time(NULL));
   const struct CMUnitTest tests[] = {
       cmocka_unit_test_setup_teardown(test_first_run_and_live, startWorker, stopWorker),
       cmocka_unit_test_setup_teardown(test_debounce, startWorker, stopWorker),
       cmocka_unit_test_setup_teardown(test_refused, startWorker, stopWorker),
       cmocka_unit_test_setup_teardown(test_pause_cancel_reload, startWorker, stopWorker),
       cmocka_unit_test_setup_teardown(test_sweep, startWorker, stopWorker),
       cmocka_unit_test_setup_teardown(test_inspect, startWorker, stopWorker),
       cmocka_unit_test_setup_teardown(test_vendor_gives_way, startWorker, stopWorker),
   };
   /* GEMMTOP_TEST_FILTER=test_debounce: one test alone (each starts from a fresh worker). */
   const char *filter = getenv("GEMMTOP_TEST_FILTER");
   if (filter && *filter)
      cmocka_set_test_filter(filter);
   return cmocka_run_group_tests(tests, setupAll, teardownAll);
}
