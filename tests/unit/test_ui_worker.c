/* The explorer's worker thread on the real device (PoCL here): a first run is verified,
 * measuring goes on by itself, quick posts are debounced into one, refused and unknown
 * configurations say why, pause and cancel stop launches, reload measures again, the
 * compiled code is read for the inspect pane only while it is wanted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "ui/worker.h"
#include "util.h"

#define TIMEOUT_MS 120000.0

typedef struct Fixture_ {
   Worker *w;
   WorkerSnapshot *snap;
   unsigned long seen;
   LogBuf log;
   const KernelInfo *naive;
   Catalog cat;
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
   return s->config_serial == *(const unsigned long *)serial && s->verified_run && s->nwindow > 0;
}
static bool stopped(const WorkerSnapshot *s, const void *serial) {
   return s->config_serial == *(const unsigned long *)serial && s->state == WS_STOPPED && s->have_result;
}
static bool inState(const WorkerSnapshot *s, const void *state) { return s->state == *(const WorkerState *)state; }
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

static int setup(void **state) {
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
   DeviceInfo *devs = NULL;
   int n = Backend_opencl()->listDevices(&devs, err, sizeof err);
   int dev = n > 0 ? Cli_pickDevice(devs, n, NULL, err, sizeof err) : -1;
   free(devs);
   if (dev < 0) {
      fprintf(stderr, "no OpenCL device: %s\n", err);
      return -1;
   }
   WorkerInit wi = {.kernels_dir = kernelsDir(), .backend = "opencl", .device = dev, .vendor = false, .seed = 7};
   wi.config = naiveConfig(f, 16, 16, 64);
   f->w = Worker_start(&wi, err, sizeof err);
   if (!f->w) {
      fprintf(stderr, "%s\n", err);
      return -1;
   }
   *state = f;
   return 0;
}

static int teardown(void **state) {
   Fixture *f = *state;
   assert_true(Worker_stop(f->w, 30000));
   LogBuf_free(&f->log);
   Catalog_free(&f->cat);
   free(f->snap);
   free(f);
   return 0;
}

static bool logHas(const Fixture *f, const char *text) {
   for (int i = 0; i < f->log.count; i++)
      if (strstr(LogBuf_line(&f->log, i)->text, text))
         return true;
   return false;
}

static void test_first_run_and_live(void **state) {
   Fixture *f = *state;
   unsigned long serial = 1;
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   assert_true(f->snap->have_device);
   assert_true(f->snap->verify.ok);
   assert_int_equal(f->snap->status, RUN_OK);
   assert_true(f->snap->gflops > 0 && f->snap->median_ms > 0);
   assert_true(f->snap->min_ms <= f->snap->median_ms && f->snap->median_ms <= f->snap->max_ms);
   assert_int_equal((int)f->snap->geo.local[0], 16);
   assert_string_equal(f->snap->config.kernel, "mygemm01_naive");
   /* Measuring goes on without being asked. */
   long n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   assert_true(f->snap->nwindow <= WORKER_WINDOW);
   assert_true(logHas(f, "verified"));
}

static void test_debounce(void **state) {
   Fixture *f = *state;
   /* Five posts in quick succession: only the last is compiled. */
   long long tsn[] = {1, 2, 4, 8, 32};
   for (int i = 0; i < 5; i++) {
      WorkerConfig c = naiveConfig(f, tsn[i], 16, 64);
      Worker_post(f->w, &c);
      pause_ms(10);
   }
   unsigned long serial = 6;
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   assert_int_equal((int)f->snap->geo.local[0], 32);
   assert_false(logHas(f, "TSN=2 TSM=16"));
   assert_false(logHas(f, "TSN=4 TSM=16"));
   assert_true(logHas(f, "TSN=32 TSM=16"));
}

static void test_refused(void **state) {
   Fixture *f = *state;
   WorkerConfig c = naiveConfig(f, 16, 256, 64); /* M=64 is no multiple of TSM=256 */
   Worker_post(f->w, &c);
   unsigned long serial = 7;
   assert_true(waitFor(f, stopped, &serial));
   assert_int_equal(f->snap->status, RUN_INVALID);
   assert_non_null(strstr(f->snap->message, "TSM"));
   assert_int_equal(f->snap->nwindow, 0);

   WorkerConfig u = c;
   Util_copy(u.kernel, sizeof u.kernel, "no_such_kernel");
   Worker_post(f->w, &u);
   serial = 8;
   assert_true(waitFor(f, stopped, &serial));
   assert_non_null(strstr(f->snap->message, "no kernel named no_such_kernel"));
}

static void test_pause_cancel_reload(void **state) {
   Fixture *f = *state;
   WorkerConfig c = naiveConfig(f, 16, 16, 64);
   Worker_post(f->w, &c);
   unsigned long serial = 9;
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   Worker_setPaused(f->w, true);
   WorkerState paused = WS_PAUSED;
   assert_true(waitFor(f, inState, &paused));
   long n = f->snap->launches;
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
   pause_ms(600);
   Worker_snapshot(f->w, f->snap, &f->seen);
   assert_int_equal(f->snap->launches, n);
   Worker_setPaused(f->w, false);

   /* Reload: the kernels are read again and the configuration verified again. */
   Worker_post(f->w, &c);
   serial = 11;
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
   assert_true(f->snap->verified_run && f->snap->verify.ok);
   assert_true(logHas(f, "mygemm01_naive TSN=16 TSM=16: verified"));
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

/* The inspect pane's job: only while wanted, once per configuration, for the right one. */
static void test_inspect(void **state) {
   Fixture *f = *state;
   srand((unsigned)time(NULL));
   const long long sizes[] = {4, 8, 16, 32};
   long long tsn = sizes[rand() % 4], tsm = sizes[rand() % 4];
   /* Not wanted: a configuration runs and nothing is read. */
   WorkerConfig c = naiveConfig(f, tsn, tsm, 64);
   Worker_post(f->w, &c);
   unsigned long serial = 12;
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   long n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   WorkerInspect in;
   assert_false(Worker_takeInspect(f->w, &in));

   Worker_setInspect(f->w, true);
   assert_true(takeInspection(f, serial, &in));
   assert_true(in.ok);
   assert_string_equal(in.config.kernel, "mygemm01_naive");
   assert_memory_equal(in.config.values, c.values, sizeof c.values);
   assert_int_equal(in.group_items, tsn * tsm);
   /* The compiled code (PoCL's CPU code with llvm-objdump), or why there is none. */
   if (in.code) {
      assert_true(in.assembly);
      assert_true(in.stats.instructions > 0 && in.stats.lines >= in.stats.instructions);
   } else {
      assert_false(in.assembly);
      assert_non_null(strstr(in.note, "no assembly"));
   }
   /* The kernel after the preprocessor (NN: the #else branches), when cpp is there. */
   assert_non_null(in.source);
   if (strstr(in.source_kind, "after the preprocessor")) {
      assert_non_null(strstr(in.source, "__kernel void gemm"));
      assert_non_null(strstr(in.source, "A[row * K + k]"));
      assert_null(strstr(in.source, "A[k * M + row]"));
      assert_null(strstr(in.source, "REAL_ZERO"));
   }
   WorkerInspect_free(&in);
   /* Once per configuration: measuring goes on, no second inspection. */
   n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   assert_false(Worker_takeInspect(f->w, &in));
   /* A new configuration is read again, and measuring carries on afterwards. */
   WorkerConfig d = naiveConfig(f, tsn == 4 ? 8 : 4, tsm, 64);
   Worker_post(f->w, &d);
   serial = 13;
   assert_true(takeInspection(f, serial, &in));
   assert_true(in.ok);
   assert_int_equal(in.group_items, (tsn == 4 ? 8 : 4) * tsm);
   WorkerInspect_free(&in);
   assert_true(waitFor(f, verifiedAndTimed, &serial));
   n = f->snap->launches;
   assert_true(waitFor(f, moreLaunches, &n));
   Worker_setInspect(f->w, false);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_first_run_and_live),
       cmocka_unit_test(test_debounce),
       cmocka_unit_test(test_refused),
       cmocka_unit_test(test_pause_cancel_reload),
       cmocka_unit_test(test_inspect),
   };
   return cmocka_run_group_tests(tests, setup, teardown);
}
