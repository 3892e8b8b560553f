/* The explorer's worker thread (worker.h): its loop, which picks the most urgent job
 * each time round, and the UI's side of the mailbox. The jobs are in measure.c,
 * served.c, sweepjob.c, panejobs.c and exportjob.c; what they all use, worker_jobs.c. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/util.h"
#include "explorer/worker_int.h"

/* ---- the thread's loop (mu held) ---- */

/* A new configuration was posted: waits for the keys to settle, then makes it the current
 * one, to be compiled and verified from scratch. */
static void adoptWanted(Worker *w) {
   double wait = w->posted_at + (w->want.ready ? WORKER_DEBOUNCE_READY_MS : WORKER_DEBOUNCE_MS) - Util_nowMs();
   if (wait > 0) {
      if (w->snap.state != WS_WAITING)
         Worker_setState(w, WS_WAITING, "waiting for the keys to settle");
      Worker_waitFor(w, wait);
      return;
   }
   w->cur = w->want;
   w->cur_serial = w->want_serial;
   w->phase = PH_FIRST;
   w->held = false;
   w->banks_job.done = false;
   w->inspect_job.done = false;
   Measure_clear(w);
   w->snap.have_config = true;
   w->snap.config = w->cur;
   w->snap.config_serial = w->cur_serial;
   Worker_publish(w);
}

static bool noDevice(const Worker *w) { return !w->session; }
static bool changed(const Worker *w) { return w->want_serial != w->cur_serial; }
static bool stopped(const Worker *w) { return w->phase == PH_STOPPED; }
/* A class server measured it once: the queue there is shared, so it is not re-timed
 * until the configuration changes. */
static bool served(const Worker *w) { return w->server[0] && w->phase == PH_MEASURE; }
static bool paused(const Worker *w) { return w->paused && (w->phase != PH_FIRST || w->held); }

static void waitForDevice(Worker *w) { pthread_cond_wait(&w->cv, &w->mu); }

static void waitStopped(Worker *w) {
   char name[640];
   Worker_label(w, &w->cur, name, sizeof name);
   if (w->snap.state != WS_STOPPED)
      Worker_setState(w, WS_STOPPED, "%s: %s", name, RunStatus_name(w->snap.result.status));
   pthread_cond_wait(&w->cv, &w->mu);
}

static void waitServed(Worker *w) {
   if (w->snap.state != WS_SERVED)
      Worker_setState(w, WS_SERVED, "measured on the server %s (a change measures again)", w->server);
   Worker_waitFor(w, 500); /* then the vendor BLAS may be due */
}

static void waitPaused(Worker *w) {
   if (w->snap.state != WS_PAUSED)
      Worker_setState(w, WS_PAUSED, "paused (space resumes)");
   pthread_cond_wait(&w->cv, &w->mu);
}

static const WorkerJob waitDevice = {"wait for a device", noDevice, waitForDevice};
static const WorkerJob adopt = {"adopt the configuration posted", changed, adoptWanted};
static const WorkerJob waitStop = {"stopped: wait for a change", stopped, waitStopped};
static const WorkerJob waitServer = {"measured on the server: wait", served, waitServed};
static const WorkerJob waitPause = {"paused: wait", paused, waitPaused};

/* The jobs, most urgent first: another device; what was asked for outright (a reload,
 * the peaks, a submission, an export, a sweep); the configuration posted; then the
 * current one's: the panes' work and the vendor BLAS once it has run, each alone on the
 * device, and its rounds. A job of a new kind is an entry in its own file and a line
 * here. */
static const WorkerJob *const jobs[] = {
    &Measure_deviceJob, &waitDevice,       &Measure_reloadJob, &Measure_peaksJob,
    &Served_submitJob,  &ExportJob_entry,  &SweepJob_begin,    &SweepJob_step,
    &adopt,             &PaneJob_inspectOffline, &waitStop,    &PaneJob_inspect,
    &PaneJob_banks,     &Measure_vendorJob, &waitServer,       &waitPause,
    &Measure_roundJob,
};

/* One pass: the first job that is due. */
static void step(Worker *w) {
   w->snap.paused = w->paused;
   for (size_t i = 0; i < sizeof jobs / sizeof jobs[0]; i++)
      if (jobs[i]->due(w)) {
         jobs[i]->run(w);
         return;
      }
}

static void *workerMain(void *arg) {
   Worker *w = arg;
   pthread_mutex_lock(&w->mu);
   while (!w->quit)
      step(w);
   /* Leave the device with everything released. */
   Session *s = w->session;
   w->session = NULL;
   pthread_mutex_unlock(&w->mu);
   if (w->have_inputs)
      Inputs_free(&w->in);
   w->have_inputs = false;
   free(w->drawn_a);
   free(w->drawn_b);
   w->drawn_a = w->drawn_b = NULL;
   Session_close(s);
   pthread_mutex_lock(&w->mu);
   w->finished = true;
   pthread_cond_broadcast(&w->done_cv);
   pthread_mutex_unlock(&w->mu);
   return NULL;
}

/* ---- the UI's side ---- */

/* The results store, where each finished measurement goes; why not is the log's first word on it. */
static void openStore(Worker *w, const WorkerInit *init) {
   if (init->no_store)
      return;
   char err[1536];
   w->store = Store_open(init->store, err, sizeof err);
   if (w->store)
      Worker_log(w, LOG_INFO, "measurements are recorded in %s", Store_path(w->store));
   else
      Worker_log(w, LOG_WARN, "nothing recorded: %s", err);
}

Worker *Worker_start(const WorkerInit *init, char *err, size_t errlen) {
   Worker *w = calloc(1, sizeof *w);
   RunResult *r = calloc(1, sizeof *r);
   WorkerSweep *sw = calloc(1, sizeof *sw);
   if (!w || !r || !sw) {
      free(w);
      free(r);
      free(sw);
      snprintf(err, errlen, "out of memory");
      return NULL;
   }
   w->res = r;
   w->sweep = sw;
   Util_copy(w->kernels_dir, sizeof w->kernels_dir, init->kernels_dir);
   Util_copy(w->server, sizeof w->server, init->server ? init->server : "");
   if (!Catalog_load(&w->cat, w->kernels_dir, err, errlen)) {
      free(r);
      free(sw);
      free(w);
      return NULL;
   }
   pthread_mutex_init(&w->mu, NULL);
   pthread_condattr_t ca;
   pthread_condattr_init(&ca);
   pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
   pthread_cond_init(&w->cv, &ca);
   pthread_cond_init(&w->done_cv, &ca);
   pthread_condattr_destroy(&ca);
   atomic_init(&w->cancel, 0);
   atomic_init(&w->sweep_job.cancel, 0);
   atomic_init(&w->ahead_abort, 0);
   LogBuf_init(&w->log, 4000);
   Util_copy(w->want_backend, sizeof w->want_backend, init->backend);
   w->want_device = init->device;
   w->device_serial = 1;
   w->want = init->config;
   w->want_serial = 1;
   w->posted_at = -1e9;
   w->paused = init->paused;
   w->auto_vendor = init->vendor;
   w->seed = init->seed;
   w->banks = init->banks;
   w->bank_width = init->bank_width;
   w->simd_width = init->simd_width;
   w->snap.state = WS_STARTING;
   w->snap.result.registers = -1;
   openStore(w, init);
   /* Signals go to the UI thread, never to this one. */
   sigset_t all, old;
   sigemptyset(&all);
   int sigs[] = {SIGINT, SIGTERM, SIGWINCH, SIGTSTP, SIGCONT, SIGQUIT, SIGHUP, SIGPIPE, SIGTTIN, SIGTTOU};
   for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      sigaddset(&all, sigs[i]);
   pthread_sigmask(SIG_BLOCK, &all, &old);
   int rc = pthread_create(&w->thread, NULL, workerMain, w);
   pthread_sigmask(SIG_SETMASK, &old, NULL);
   if (rc != 0) {
      snprintf(err, errlen, "cannot start the worker thread: %s", strerror(rc));
      Store_close(w->store);
      Catalog_free(&w->cat);
      LogBuf_free(&w->log);
      pthread_cond_destroy(&w->cv);
      pthread_cond_destroy(&w->done_cv);
      pthread_mutex_destroy(&w->mu);
      free(r);
      free(sw);
      free(w);
      return NULL;
   }
   return w;
}

bool Worker_stop(Worker *w, int timeout_ms) {
   if (!w)
      return true;
   pthread_mutex_lock(&w->mu);
   w->quit = true;
   atomic_store(&w->cancel, 1);
   atomic_store(&w->sweep_job.cancel, 1);
   pthread_cond_broadcast(&w->cv);
   struct timespec ts;
   Util_deadline(&ts, timeout_ms);
   while (!w->finished)
      if (pthread_cond_timedwait(&w->done_cv, &w->mu, &ts) == ETIMEDOUT)
         break;
   bool done = w->finished;
   pthread_mutex_unlock(&w->mu);
   if (!done)
      return false;
   pthread_join(w->thread, NULL);
   if (w->banks_job.ready)
      PaneJob_freeBanks(&w->banks_job.out);
   if (w->inspect_job.ready)
      WorkerInspect_free(&w->inspect_job.out);
   Store_close(w->store);
   Catalog_free(&w->cat);
   RunResult_free(w->res);
   free(w->res);
   SweepRun_close(w->sweep_job.run);
   free(w->sweep);
   LogBuf_free(&w->log);
   pthread_cond_destroy(&w->cv);
   pthread_cond_destroy(&w->done_cv);
   pthread_mutex_destroy(&w->mu);
   free(w);
   return true;
}

unsigned long Worker_post(Worker *w, const WorkerConfig *c) {
   pthread_mutex_lock(&w->mu);
   w->want = *c;
   unsigned long serial = ++w->want_serial;
   w->posted_at = Util_nowMs();
   atomic_store(&w->cancel, 1);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
   return serial;
}

void Worker_setDevice(Worker *w, const char *backend, int device) {
   pthread_mutex_lock(&w->mu);
   Util_copy(w->want_backend, sizeof w->want_backend, backend);
   w->want_device = device;
   w->device_serial++;
   atomic_store(&w->cancel, 1);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

void Worker_setPaused(Worker *w, bool paused) {
   pthread_mutex_lock(&w->mu);
   w->paused = paused;
   w->snap.paused = paused;
   if (!paused)
      w->held = false;
   Worker_publish(w);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

void Worker_setAhead(Worker *w, Ahead *a) {
   pthread_mutex_lock(&w->mu);
   w->ahead = a;
   if (!a) {
      atomic_store(&w->ahead_abort, 1);
      while (w->ahead_users > 0)
         pthread_cond_wait(&w->done_cv, &w->mu);
      atomic_store(&w->ahead_abort, 0);
   }
   pthread_mutex_unlock(&w->mu);
}

void Worker_cancel(Worker *w) {
   pthread_mutex_lock(&w->mu);
   SweepJob_stop(w);
   w->paused = true;
   w->held = true;
   w->snap.paused = true;
   atomic_store(&w->cancel, 1);
   Worker_publish(w);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

static void request(Worker *w, bool *flag) {
   pthread_mutex_lock(&w->mu);
   *flag = true;
   atomic_store(&w->cancel, 1);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

void Worker_reload(Worker *w) { request(w, &w->reload); }
void Worker_measurePeaks(Worker *w) { request(w, &w->peaks); }
void Worker_measureVendor(Worker *w) { request(w, &w->vendor_again); }

void Worker_submit(Worker *w, const char *assignment) {
   pthread_mutex_lock(&w->mu);
   Util_copy(w->submit_job.assignment, sizeof w->submit_job.assignment, assignment);
   w->submit_job.req = true;
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

void Worker_exportKernel(Worker *w) {
   pthread_mutex_lock(&w->mu);
   w->export_job.cfg = w->want; /* what the screen shows, even before it has run */
   w->export_job.req = true;
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

bool Worker_snapshot(Worker *w, WorkerSnapshot *out, unsigned long *seen) {
   pthread_mutex_lock(&w->mu);
   bool changed = w->snap.version != *seen;
   if (changed) {
      *out = w->snap;
      *seen = w->snap.version;
   }
   pthread_mutex_unlock(&w->mu);
   return changed;
}

void Worker_takeLog(Worker *w, LogBuf *dst) {
   pthread_mutex_lock(&w->mu);
   LogBuf_move(dst, &w->log);
   pthread_mutex_unlock(&w->mu);
}

