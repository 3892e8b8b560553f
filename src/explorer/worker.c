#include "explorer/worker.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/ablate.h"
#include "core/ahead.h"
#include "core/banks.h"
#include "core/preproc.h"
#include "core/util.h"

enum { PH_FIRST, PH_MEASURE, PH_STOPPED };

/* Rounds: the first is short so a number shows quickly; later ones re-time. */
#define FIRST_REPS 3
#define FIRST_SECONDS 0.3
#define ROUND_REPS 30
#define ROUND_SECONDS 0.25
#define VENDOR_REPS 5
#define VENDOR_AFTER_ROUNDS 3
/* A change interrupts it, but only between two calls of the library (seconds on a CPU at
 * large sizes): wait until the user has stopped changing things for a while. */
#define VENDOR_AFTER_IDLE_MS 2500
/* Rounds start at most this often, so quick kernels do not flood the UI with snapshots. */
#define ROUND_PERIOD_MS 200

struct Worker_ {
   pthread_t thread;
   pthread_mutex_t mu;
   pthread_cond_t cv;        /* the mailbox changed */
   pthread_cond_t done_cv;   /* the thread finished */
   atomic_int cancel;

   /* Mailbox, under mu. */
   WorkerConfig want;
   unsigned long want_serial;
   double posted_at;
   char want_backend[16];
   int want_device;
   unsigned long device_serial;
   bool paused, quit, reload, peaks, vendor_again, finished;
   bool held;                /* the user cancelled: not even a first run until resumed */
   bool banks_want;
   bool banks_ready;         /* banks_out waits for the UI */
   WorkerBanks banks_out;
   bool sweep_req, sweep_stop;
   unsigned long sweep_gen;  /* sweeps asked for: a newer one replaces the one running */
   WorkerConfig sweep_cfg;
   int sweep_budget;
   bool sweep_exhaustive;
   double sweep_timeout;
   atomic_int sweep_cancel;  /* stops the sweep's launch in progress */
   Ahead *ahead;             /* the compile-ahead pool the sweep waits for (may be NULL) */
   int ahead_users;          /* the thread is inside Ahead_await: the pool must stay */
   atomic_int ahead_abort;   /* Worker_setAhead(NULL): stop waiting on the pool */
   bool inspect_want;
   bool inspect_ready;       /* inspect_out waits for the UI */
   WorkerInspect inspect_out;

   /* The thread's own. */
   Catalog cat;
   char kernels_dir[1024];
   Session *session;
   unsigned long tried_device_serial;
   WorkerConfig cur;
   unsigned long cur_serial;
   int phase;
   Inputs in;
   bool have_inputs;
   uint64_t seed;
   bool auto_vendor;
   RunResult *res;
   bool banks_traced;        /* the current configuration has been traced */
   bool inspected;           /* the current configuration's code has been read */

   SweepSpace sweep_space;   /* the sweep's valid configurations */
   unsigned long sweeps;     /* sweeps started: each draws its own sample */

   /* Published, under mu. */
   WorkerSnapshot snap;
   WorkerSweep *sweep;       /* its own version */
   LogBuf log;
};

const char *WorkerState_name(WorkerState s) {
   switch (s) {
   case WS_STARTING: return "starting";
   case WS_OPENING: return "opening device";
   case WS_NO_DEVICE: return "no device";
   case WS_WAITING: return "waiting";
   case WS_PREPARING: return "making inputs";
   case WS_COMPILING: return "compiling";
   case WS_VERIFYING: return "verifying";
   case WS_MEASURING: return "measuring";
   case WS_PAUSED: return "paused";
   case WS_STOPPED: return "stopped";
   case WS_VENDOR: return "vendor BLAS";
   case WS_PEAKS: return "measuring peaks";
   case WS_TRACING: return "tracing";
   case WS_SWEEPING: return "sweeping";
   case WS_INSPECTING: return "reading code";
   }
   return "?";
}

/* ---- helpers (the thread holds mu unless said otherwise) ---- */

static void publish(Worker *w) { w->snap.version++; }

static void setState(Worker *w, WorkerState st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void setState(Worker *w, WorkerState st, const char *fmt, ...) {
   w->snap.state = st;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(w->snap.activity, sizeof w->snap.activity, fmt, ap);
   va_end(ap);
   publish(w);
}

static void logf_(Worker *w, LogLevel level, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void logf_(Worker *w, LogLevel level, const char *fmt, ...) {
   char buf[2048];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(buf, sizeof buf, fmt, ap);
   va_end(ap);
   LogBuf_add(&w->log, level, buf);
   publish(w);
}

static void label(const Worker *w, const WorkerConfig *c, char *out, size_t outlen) {
   const KernelInfo *k = Catalog_find(&w->cat, c->kernel);
   char params[512] = "";
   if (k)
      KernelInfo_formatParams(k, c->values, params, sizeof params);
   char ablation[64] = "";
   if (c->ablate) {
      Ablate_name(c->ablate, ablation, sizeof ablation);
      snprintf(out, outlen, "%s%s%s [ABLATED: %s]", c->kernel, params[0] ? " " : "", params, ablation);
   } else {
      snprintf(out, outlen, "%s%s%s", c->kernel, params[0] ? " " : "", params);
   }
}

static bool sameProblem(const Problem *a, const Problem *b) {
   return a->m == b->m && a->n == b->n && a->k == b->k && a->precision == b->precision && a->trans_a == b->trans_a &&
          a->trans_b == b->trans_b && a->alpha == b->alpha && a->beta == b->beta;
}

static void clearResult(Worker *w) {
   WorkerSnapshot *s = &w->snap;
   s->have_result = false;
   s->status = RUN_OK;
   s->message[0] = s->defines[0] = '\0';
   memset(&s->geo, 0, sizeof s->geo);
   s->compile_ms = 0;
   s->cached = s->cached_memory = false;
   s->registers = -1;
   s->private_mem = s->local_mem = -1;
   s->verified_run = false;
   memset(&s->verify, 0, sizeof s->verify);
   s->nhelpers = 0;
   s->nwindow = 0;
   s->launches = 0;
   s->rounds = 0;
   s->median_ms = s->min_ms = s->max_ms = s->spread_pct = s->gflops = s->gbps = 0;
}

static void stopWith(Worker *w, RunStatus st, const char *message) {
   w->snap.status = st;
   w->snap.have_result = true;
   Util_copy(w->snap.message, sizeof w->snap.message, message);
   w->phase = PH_STOPPED;
   publish(w);
}

/* Adds a round's launch times to the window and recomputes the figures. */
static void addTimes(Worker *w, const RunResult *r) {
   WorkerSnapshot *s = &w->snap;
   for (int i = 0; i < r->reps; i++) {
      if (s->nwindow == WORKER_WINDOW) {
         memmove(s->window, s->window + 1, sizeof s->window[0] * (WORKER_WINDOW - 1));
         s->nwindow--;
      }
      s->window[s->nwindow++] = r->times_ms[i];
   }
   s->launches += r->reps;
   s->rounds++;
   if (s->nwindow == 0)
      return;
   s->median_ms = Util_median(s->window, s->nwindow);
   s->min_ms = s->max_ms = s->window[0];
   for (int i = 1; i < s->nwindow; i++) {
      s->min_ms = fmin(s->min_ms, s->window[i]);
      s->max_ms = fmax(s->max_ms, s->window[i]);
   }
   double q1 = Util_percentile(s->window, s->nwindow, 0.25), q3 = Util_percentile(s->window, s->nwindow, 0.75);
   s->spread_pct = s->median_ms > 0 ? 100.0 * (q3 - q1) / s->median_ms : 0;
   const Problem *p = &w->cur.problem;
   s->gflops = s->median_ms > 0 ? Problem_flops(p) / (s->median_ms * 1e6) : 0;
   s->gbps = s->median_ms > 0 ? Ablate_bytes(p, w->cur.ablate) / (s->median_ms * 1e6) : 0;
   if (r->nhelpers > 0) {
      s->nhelpers = r->nhelpers;
      memcpy(s->helpers, r->helpers, sizeof r->helpers);
   }
   s->have_result = true;
}

static const char *basename_(const char *path) {
   const char *b = strrchr(path, '/');
   return b ? b + 1 : path;
}

/* ---- the jobs (called with mu held; they drop it around device work) ---- */

static void openDevice(Worker *w) {
   w->tried_device_serial = w->device_serial;
   char backend[16];
   int dev = w->want_device;
   Util_copy(backend, sizeof backend, w->want_backend);
   setState(w, WS_OPENING, "opening %s device %d", backend, dev);
   pthread_mutex_unlock(&w->mu);
   char err[1024] = "";
   const Backend *be = Backend_byName(backend);
   Session *s = NULL;
   if (!be)
      snprintf(err, sizeof err, "unknown backend '%s'", backend);
   else
      s = Session_open(be, dev, &w->cat, err, sizeof err);
   Peaks peaks;
   memset(&peaks, 0, sizeof peaks);
   if (s)
      Peaks_cached(Session_device(s), be->name, &peaks);
   pthread_mutex_lock(&w->mu);
   if (!s) {
      logf_(w, LOG_ERROR, "cannot open %s device %d: %s", backend, dev, err);
      if (!w->session)
         setState(w, WS_NO_DEVICE, "no device: %s", err);
      return;
   }
   if (w->sweep->running) {
      w->sweep->running = false;
      w->sweep->stopped = true;
      Util_copy(w->sweep->message, sizeof w->sweep->message, "stopped: the device changed");
      w->sweep->version++;
   }
   Session *old = w->session;
   w->session = s;
   WorkerSnapshot *sn = &w->snap;
   sn->have_device = true;
   Util_copy(sn->backend, sizeof sn->backend, be->name);
   sn->device_index = dev;
   sn->device = *Session_device(s);
   sn->peaks = peaks;
   sn->vendor_done = false;
   logf_(w, LOG_INFO, "device %d: %s (%s, %s)%s", dev, sn->device.name, sn->device.platform, be->name,
         sn->device.limits_simulated ? " with simulated limits (GEMMTOP_DEVICE_LIMITS)" : "");
   /* Measure the configuration again, verified, on the new device. */
   w->cur_serial = 0;
   if (old) {
      pthread_mutex_unlock(&w->mu);
      Session_close(old);
      pthread_mutex_lock(&w->mu);
   }
}

static void reloadCatalog(Worker *w) {
   w->reload = false;
   setState(w, WS_PREPARING, "reloading kernel files");
   pthread_mutex_unlock(&w->mu);
   Catalog fresh;
   char err[1024] = "";
   bool ok = Catalog_load(&fresh, w->kernels_dir, err, sizeof err);
   if (ok) {
      Catalog_free(&w->cat); /* the session keeps &w->cat, which stays the same */
      w->cat = fresh;
   }
   pthread_mutex_lock(&w->mu);
   if (!ok)
      logf_(w, LOG_ERROR, "cannot reload the kernels: %s", err);
   else
      logf_(w, LOG_INFO, "kernel files reloaded from %s", w->kernels_dir);
   if (ok && w->cat.warnings[0])
      logf_(w, LOG_WARN, "some kernel files were skipped:\n%s", w->cat.warnings);
   w->cur_serial = 0;
}

static void measurePeaks(Worker *w) {
   w->peaks = false;
   setState(w, WS_PEAKS, "measuring the device's peaks (a few seconds)");
   pthread_mutex_unlock(&w->mu);
   Peaks p;
   char err[1024] = "";
   bool ok = Peaks_measure(w->session, &w->cat, &p, err, sizeof err);
   pthread_mutex_lock(&w->mu);
   if (ok) {
      w->snap.peaks = p;
      logf_(w, LOG_GOOD, "measured peaks: FP32 %.1f GFLOPS, FP64 %.1f GFLOPS, copy %.1f GB/s", p.fp32_gflops,
            p.fp64_gflops, p.copy_gbps);
      if (p.tf32_gflops > 0)
         logf_(w, LOG_GOOD, "tensor peaks (mma.sync): TF32 %.1f, half %.1f, bfloat16 %.1f GFLOPS", p.tf32_gflops,
               p.f16_gflops, p.bf16_gflops);
      else if (p.tensor_error[0])
         logf_(w, LOG_WARN, "tensor peaks not measured: %s", p.tensor_error);
   } else {
      logf_(w, LOG_ERROR, "cannot measure the peaks: %s", err);
   }
}

static void measureVendor(Worker *w) {
   bool asked = w->vendor_again;
   w->vendor_again = false;
   Problem p = w->cur.problem;
   setState(w, WS_VENDOR, "timing the vendor BLAS on %dx%dx%d", p.m, p.n, p.k);
   atomic_store(&w->cancel, 0);
   pthread_mutex_unlock(&w->mu);
   VendorResult *v = calloc(1, sizeof *v);
   if (v)
      Session_vendor(w->session, &p, &w->in,
                     &(RunOptions){.reps = VENDOR_REPS, .warmup = 1, .verify = true, .cancel = &w->cancel}, v);
   pthread_mutex_lock(&w->mu);
   if (!v)
      return;
   if (v->status == RUN_CANCELLED) {
      /* A change (or c) came first: what was measured before stays, and the library is
       * timed again once the keys are quiet. */
      logf_(w, LOG_INFO, "vendor BLAS on %dx%dx%d: interrupted", p.m, p.n, p.k);
      /* Asked for (F7) and interrupted by something other than a change or a stop: again. */
      w->vendor_again = asked && w->want_serial == w->cur_serial && !w->paused;
      free(v);
      return;
   }
   w->snap.vendor_done = true;
   w->snap.vendor_problem = p;
   w->snap.vendor = *v;
   if (v->status == RUN_OK)
      logf_(w, LOG_INFO, "vendor BLAS %s: %.3f ms, %.2f GFLOPS (%s)", v->name, v->median_ms, v->gflops,
            v->verify.message);
   else
      logf_(w, v->status == RUN_NOT_VERIFIED ? LOG_ERROR : LOG_WARN, "vendor BLAS: %s", v->message);
   free(v);
}

/* One round of the current configuration: compile and verify when first, else re-time. */
static void runRound(Worker *w) {
   WorkerConfig cfg = w->cur;
   unsigned long serial = w->cur_serial;
   bool first = w->phase == PH_FIRST;
   atomic_store(&w->cancel, 0);
   char name[640];
   label(w, &cfg, name, sizeof name);
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   if (!k) {
      char msg[256];
      snprintf(msg, sizeof msg, "no kernel named %s in %s", cfg.kernel, w->kernels_dir);
      logf_(w, LOG_ERROR, "%s", msg);
      stopWith(w, RUN_INVALID, msg);
      return;
   }
   Session *s = w->session;
   RunResult *r = w->res;
   RunOptions ro = {.reps = ROUND_REPS, .warmup = 0, .verify = false, .max_seconds = ROUND_SECONDS,
                    .cancel = &w->cancel, .ablate = cfg.ablate};
   if (first) {
      char msg[1536];
      if (!Config_check(k, cfg.values, &cfg.problem, &Session_device(s)->limits, &w->snap.geo, msg, sizeof msg)) {
         logf_(w, LOG_WARN, "%s: not run: %s", name, msg);
         stopWith(w, RUN_INVALID, msg);
         return;
      }
      if (!Session_fits(s, &cfg.problem, msg, sizeof msg)) {
         logf_(w, LOG_ERROR, "%s", msg);
         stopWith(w, RUN_OUT_OF_MEMORY, msg);
         return;
      }
      if (!w->have_inputs || !Inputs_fit(&w->in, &cfg.problem)) {
         setState(w, WS_PREPARING, "making %dx%dx%d inputs", cfg.problem.m, cfg.problem.n, cfg.problem.k);
         pthread_mutex_unlock(&w->mu);
         if (w->have_inputs)
            Inputs_free(&w->in);
         w->have_inputs = Inputs_random(&w->in, &cfg.problem, w->seed);
         pthread_mutex_lock(&w->mu);
         if (!w->have_inputs) {
            snprintf(msg, sizeof msg, "out of host memory for %dx%dx%d inputs", cfg.problem.m, cfg.problem.n,
                     cfg.problem.k);
            logf_(w, LOG_ERROR, "%s", msg);
            stopWith(w, RUN_OUT_OF_MEMORY, msg);
            return;
         }
         if (serial != w->cur_serial || w->want_serial != serial)
            return; /* changed meanwhile */
      }
      setState(w, WS_COMPILING, "compiling %s", name);
      pthread_mutex_unlock(&w->mu);
      RunStatus st = Session_compileAblated(s, k, cfg.values, &cfg.problem, cfg.ablate, r, NULL, NULL, 0);
      char *log = r->build_log ? LogBuf_renameSource(r->build_log, basename_(k->path)) : NULL;
      pthread_mutex_lock(&w->mu);
      WorkerSnapshot *sn = &w->snap;
      sn->compile_ms = r->compile_ms;
      sn->cached = r->cached;
      sn->cached_memory = r->cached_memory;
      sn->registers = r->registers;
      sn->private_mem = r->private_mem;
      sn->local_mem = r->local_mem;
      Util_copy(sn->defines, sizeof sn->defines, r->defines);
      if (st != RUN_OK) {
         logf_(w, LOG_ERROR, "%s: %s: %s", name, RunStatus_name(st), r->message);
         if (log && *log)
            LogBuf_add(&w->log, LOG_BUILD, log);
         free(log);
         stopWith(w, st, r->message);
         return;
      }
      if (r->cached_memory)
         logf_(w, LOG_INFO, "%s: compiled earlier in this session", name);
      else if (r->cached)
         logf_(w, LOG_INFO, "%s: from the disk cache (%.0f ms)", name, r->compile_ms);
      else
         logf_(w, LOG_INFO, "%s: compiled in %.0f ms", name, r->compile_ms);
      if (log && *log && !r->cached_memory)
         LogBuf_add(&w->log, LOG_BUILD, log);
      free(log);
      if (serial != w->cur_serial || w->want_serial != serial)
         return;
      setState(w, WS_VERIFYING, "verifying %s", name);
      ro = (RunOptions){.reps = FIRST_REPS, .warmup = 1, .verify = true, .max_seconds = FIRST_SECONDS,
                        .cancel = &w->cancel, .ablate = cfg.ablate};
   } else {
      if (w->snap.state != WS_MEASURING)
         setState(w, WS_MEASURING, "measuring %s", name);
   }
   pthread_mutex_unlock(&w->mu);
   RunStatus st = Session_run(s, k, cfg.values, &cfg.problem, &w->in, &ro, r);
   pthread_mutex_lock(&w->mu);
   if (serial != w->cur_serial)
      return; /* a newer configuration was adopted (a device change) */
   WorkerSnapshot *sn = &w->snap;
   if (first && r->verified_run) {
      sn->verified_run = true;
      sn->verify = r->verify;
      sn->geo = r->geo;
      sn->status = r->verify.ok ? RUN_OK : RUN_NOT_VERIFIED;
      Util_copy(sn->message, sizeof sn->message, r->verify.message);
      /* The time from the change to this figure: the explorer's interactivity target. */
      char after[64] = "";
      if (w->posted_at > 0)
         snprintf(after, sizeof after, " (%.0f ms after the change)", Util_nowMs() - w->posted_at);
      logf_(w, r->verify.ok ? LOG_GOOD : LOG_ERROR, "%s: %s%s", name, r->verify.message, after);
      w->phase = PH_MEASURE;
   } else if (first && r->ablate && st == RUN_OK) {
      /* Ablated: wrong on purpose, so not verified; the first run is already a measurement. */
      sn->verified_run = false;
      sn->geo = r->geo;
      sn->status = RUN_OK;
      Util_copy(sn->message, sizeof sn->message, r->message);
      logf_(w, LOG_WARN, "%s: %s", name, r->message);
      w->phase = PH_MEASURE;
   }
   switch (st) {
   case RUN_OK:
   case RUN_NOT_VERIFIED:
   case RUN_CANCELLED:
      if (r->reps > 0 && r->median_ms > 0)
         addTimes(w, r);
      if (st == RUN_CANCELLED && w->paused && w->want_serial == serial)
         logf_(w, LOG_WARN, "%s: cancelled", name);
      if (!first || r->verified_run)
         w->phase = PH_MEASURE;
      publish(w);
      break;
   default:
      logf_(w, LOG_ERROR, "%s: %s: %s", name, RunStatus_name(st), r->message);
      stopWith(w, st, r->message);
      break;
   }
}

static void freeBanks(WorkerBanks *b) {
   if (b->analysis) {
      BankAnalysis_free(b->analysis);
      free(b->analysis);
   }
   b->analysis = NULL;
}

/* Traces one work-group of the current configuration and analyses its bank conflicts. */
static void traceBanks(Worker *w) {
   w->banks_traced = true;
   WorkerConfig cfg = w->cur;
   unsigned long serial = w->cur_serial;
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   if (!k)
      return;
   char name[640];
   label(w, &cfg, name, sizeof name);
   setState(w, WS_TRACING, "tracing the local memory of %s", name);
   Session *s = w->session;
   pthread_mutex_unlock(&w->mu);
   WorkerBanks b;
   memset(&b, 0, sizeof b);
   b.config = cfg;
   b.config_serial = serial;
   Trace t;
   memset(&t, 0, sizeof t);
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      snprintf(b.message, sizeof b.message, "out of host memory");
   } else {
      RunStatus st = Session_trace(s, k, cfg.values, &cfg.problem, 1, &t, r);
      if (st != RUN_OK) {
         snprintf(b.message, sizeof b.message, "the trace failed: %s: %s", RunStatus_name(st), r->message);
      } else {
         BankModel m = BankModel_forDevice(Session_device(s));
         char err[512] = "";
         b.analysis = calloc(1, sizeof *b.analysis);
         if (!b.analysis)
            snprintf(b.message, sizeof b.message, "out of host memory");
         else if (!BankAnalysis_run(b.analysis, &t, &m, err, sizeof err)) {
            snprintf(b.message, sizeof b.message, "the analysis failed: %s", err);
            free(b.analysis);
            b.analysis = NULL;
         }
      }
      Trace_free(&t);
      RunResult_free(r);
      free(r);
   }
   pthread_mutex_lock(&w->mu);
   if (serial != w->cur_serial) {
      freeBanks(&b);
      return;
   }
   if (b.analysis)
      logf_(w, LOG_INFO, "%s: local memory traced (%zu accesses)", name, b.analysis->nrecords);
   else
      logf_(w, LOG_WARN, "%s: %s", name, b.message);
   if (w->banks_ready)
      freeBanks(&w->banks_out);
   w->banks_out = b;
   w->banks_ready = true;
   w->snap.banks_version++;
   publish(w);
}

/* ---- the sweep ---- */

#define SWEEP_REPS 10
#define SWEEP_SECONDS 0.5

static void sweepEnd(Worker *w, bool stopped, const char *message) {
   WorkerSweep *sw = w->sweep;
   sw->running = false;
   sw->stopped = stopped;
   Util_copy(sw->message, sizeof sw->message, message);
   sw->elapsed_ms = Util_nowMs() - sw->started_ms;
   sw->version++;
   SweepSpace_free(&w->sweep_space);
   publish(w);
}

/* Lists the kernel's valid configurations and picks those to try. */
static void sweepBegin(Worker *w) {
   w->sweep_req = false;
   w->sweep_stop = false;
   atomic_store(&w->sweep_cancel, 0);
   WorkerConfig cfg = w->sweep_cfg;
   int budget = w->sweep_budget;
   bool exhaustive = w->sweep_exhaustive;
   WorkerSweep *sw = w->sweep;
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   char msg[1024];
   if (!k) {
      snprintf(msg, sizeof msg, "no kernel named %s in %s", cfg.kernel, w->kernels_dir);
      logf_(w, LOG_ERROR, "sweep: %s", msg);
      sweepEnd(w, false, msg);
      return;
   }
   setState(w, WS_SWEEPING, "sweep of %s: listing its valid configurations", k->name);
   DeviceLimits lim = Session_device(w->session)->limits;
   unsigned long serial = ++w->sweeps, gen = w->sweep_gen;
   pthread_mutex_unlock(&w->mu);
   SweepSpace_free(&w->sweep_space);
   Rng rng;
   Rng_seed(&rng, w->seed + serial);
   unsigned all = k->nparams >= 32 ? ~0u : (1u << k->nparams) - 1;
   bool listed = Sweep_enumerate(k, cfg.values, all, &cfg.problem, &lim, &rng, &w->sweep_space);
   if (listed)
      Sweep_shuffle(&w->sweep_space, k, cfg.values, &rng);
   bool fits = Session_fits(w->session, &cfg.problem, msg, sizeof msg);
   bool inputs = fits && w->have_inputs && Inputs_fit(&w->in, &cfg.problem);
   if (fits && !inputs) {
      if (w->have_inputs)
         Inputs_free(&w->in);
      w->have_inputs = inputs = Inputs_random(&w->in, &cfg.problem, w->seed);
      /* The configuration measured before the sweep starts again on these inputs. */
      w->cur_serial = 0;
   }
   pthread_mutex_lock(&w->mu);
   if (gen != w->sweep_gen)
      return; /* a newer sweep was asked for meanwhile */
   const SweepSpace *sp = &w->sweep_space;
   sw->space = sp->space;
   sw->invalid = sp->invalid;
   sw->valid = sp->count;
   if (!listed || (fits && !inputs)) {
      sweepEnd(w, false, "out of host memory");
      logf_(w, LOG_ERROR, "sweep of %s: out of host memory", k->name);
      return;
   }
   if (!fits) {
      sweepEnd(w, false, msg);
      logf_(w, LOG_ERROR, "sweep of %s: %s", k->name, msg);
      return;
   }
   if (sp->count == 0) {
      snprintf(msg, sizeof msg, "no valid configuration of %s for this problem and device (%d invalid; e.g. %s)",
               k->name, sp->invalid, sp->first_invalid);
      logf_(w, LOG_WARN, "sweep: %s", msg);
      sweepEnd(w, false, msg);
      return;
   }
   int n = exhaustive || budget <= 0 || budget > sp->count ? sp->count : budget;
   if (n > WORKER_SWEEP_MAX)
      n = WORKER_SWEEP_MAX;
   sw->total = n;
   sw->exhaustive = n == sp->count;
   sw->emulated = k->tensor && !lim.tensor_ptx;
   for (int i = 0; i < n; i++) {
      memcpy(sw->points[i].values, sp->cands[i].values, sizeof sw->points[i].values);
      sw->points[i].outcome = SWEEP_PENDING;
   }
   sw->started_ms = Util_nowMs();
   sw->version++;
   logf_(w, LOG_INFO, "sweep of %s on %dx%dx%d: %.0f configurations, %d invalid, %d valid; trying %d (%s)", k->name,
         cfg.problem.m, cfg.problem.n, cfg.problem.k, sp->space, sp->invalid, sp->count, n,
         sw->exhaustive ? "all" : "random sample");
}

/* Compiles, verifies and times the sweep's next configuration. */
static void sweepStep(Worker *w) {
   WorkerSweep *sw = w->sweep;
   if (w->sweep_stop) {
      logf_(w, LOG_WARN, "sweep stopped after %d of %d configurations", sw->done, sw->total);
      sweepEnd(w, true, "stopped");
      return;
   }
   if (sw->done >= sw->total) {
      int best = -1;
      for (int i = 0; i < sw->done; i++)
         if (sw->points[i].outcome == SWEEP_OK && (best < 0 || sw->points[i].gflops > sw->points[best].gflops))
            best = i;
      const KernelInfo *k = Catalog_find(&w->cat, sw->config.kernel);
      char params[512] = "";
      if (k && best >= 0)
         KernelInfo_formatParams(k, sw->points[best].values, params, sizeof params);
      if (best >= 0)
         logf_(w, LOG_GOOD, "sweep of %s done: %d of %d verified; best %.2f GFLOPS with %s", sw->config.kernel,
               sw->counts[SWEEP_OK], sw->total, sw->points[best].gflops, params);
      else
         logf_(w, LOG_WARN, "sweep of %s done: no configuration verified", sw->config.kernel);
      sweepEnd(w, false, "done");
      return;
   }
   const KernelInfo *k = Catalog_find(&w->cat, sw->config.kernel);
   if (!k) {
      sweepEnd(w, true, "stopped: the kernel left the catalog");
      return;
   }
   int i = sw->done;
   SweepCandidate c;
   memset(&c, 0, sizeof c);
   memcpy(c.values, sw->points[i].values, sizeof c.values);
   WorkerConfig cfg = sw->config;
   char params[512];
   KernelInfo_formatParams(k, c.values, params, sizeof params);
   setState(w, WS_SWEEPING, "sweep %d/%d: %s %s", i + 1, sw->total, k->name, params);
   double timeout = w->sweep_timeout;
   Session *s = w->session;
   RunResult *r = w->res;
   RunOptions ro = {.reps = SWEEP_REPS, .warmup = 1, .verify = true, .max_seconds = SWEEP_SECONDS,
                    .cancel = &w->sweep_cancel};
   unsigned long gen = w->sweep_gen;
   Ahead *pool = w->ahead;
   /* The sweep's target as the explorer feeds it to the pool (AheadUi_feedSweep). */
   AheadTarget t = Ahead_target(w->snap.backend, w->snap.device_index, cfg.kernel, &cfg.problem, 0);
   if (pool)
      w->ahead_users++;
   pthread_mutex_unlock(&w->mu);
   if (pool) {
      /* Being compiled ahead: its program will be in the disk cache in a moment. */
      Ahead_await(pool, &t, c.values, &w->sweep_cancel, &w->ahead_abort);
      pthread_mutex_lock(&w->mu);
      if (--w->ahead_users == 0)
         pthread_cond_broadcast(&w->done_cv);
      pthread_mutex_unlock(&w->mu);
   }
   RunStatus st = Session_run(s, k, c.values, &cfg.problem, &w->in, &ro, r);
   pthread_mutex_lock(&w->mu);
   if (!sw->running || gen != w->sweep_gen)
      return; /* ended meanwhile (the device changed), or replaced by a newer sweep */
   if (st == RUN_CANCELLED || w->sweep_stop) {
      logf_(w, LOG_WARN, "sweep stopped after %d of %d configurations", sw->done, sw->total);
      sweepEnd(w, true, "stopped");
      return;
   }
   Sweep_classify(&c, st, r, timeout);
   WorkerSweepPoint *pt = &sw->points[i];
   pt->outcome = c.outcome;
   pt->gflops = c.gflops;
   pt->median_ms = c.median_ms;
   pt->compile_ms = r->compile_ms;
   pt->cached = r->cached;
   sw->cached += pt->cached;
   sw->counts[c.outcome]++;
   sw->done++;
   sw->elapsed_ms = Util_nowMs() - sw->started_ms;
   if (c.outcome != SWEEP_OK) {
      char *nl = strchr(c.reason, '\n');
      if (nl)
         *nl = '\0';
      snprintf(sw->last_skip, sizeof sw->last_skip, "%s: %s: %s", params, SweepOutcome_name(c.outcome), c.reason);
      logf_(w, LOG_WARN, "sweep: %s %s", k->name, sw->last_skip);
   }
   sw->version++;
   publish(w);
}

void WorkerInspect_free(WorkerInspect *in) {
   free(in->code);
   free(in->source);
   in->code = in->source = NULL;
}

/* The compiled code of the configuration: from the program built (memory cache, so no
 * compile), PTX from NVRTC on CUDA; and the source after the preprocessor, shown when the
 * device gives no assembly. Runs without mu. */
static void readCode(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, WorkerInspect *in) {
   Session *s = w->session;
   const Backend *be = Session_backend(s);
   const DeviceInfo *dev = Session_device(s);
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      snprintf(in->message, sizeof in->message, "out of host memory");
      return;
   }
   char kind[64] = "";
   RunStatus st = Session_compileAblated(s, k, cfg->values, &cfg->problem, cfg->ablate, r, &in->code, kind, sizeof kind);
   if (st != RUN_OK) {
      snprintf(in->message, sizeof in->message, "%s: %s", RunStatus_name(st), r->message);
      RunResult_free(r);
      free(r);
      return;
   }
   in->ok = true;
   Util_copy(in->arch, sizeof in->arch, dev->arch);
   Ptxas_parse(r->build_log, k->entry, &in->ptxas);
   in->registers = r->registers >= 0 ? r->registers : in->ptxas.found ? in->ptxas.registers : -1;
   in->local_mem = r->local_mem >= 0 ? r->local_mem : r->geo.localmem;
   in->private_mem = r->private_mem;
   in->group_items = 1;
   for (int d = 0; d < r->geo.dims; d++)
      in->group_items *= (long long)r->geo.local[d];
   in->occ = Occupancy_estimate(Occupancy_arch(in->arch), in->registers, in->local_mem, in->group_items);
   char err[512] = "";
   if (!in->code && Backend_can(be, BACKEND_CAP_OFFLINE_PTX) && dev->arch[0]) {
      char *source = Session_sourceNamed(&w->cat, true, k->source, k->path), *log = NULL;
      size_t len = 0;
      if (source && Cuda_compileOnly(source, r->defines, dev->arch, true, &in->code, &len, &log, err, sizeof err) ==
                        BACKEND_OK)
         snprintf(kind, sizeof kind, "PTX");
      free(log);
      free(source);
   }
   if (in->code) {
      in->assembly = true;
      Util_copy(in->code_kind, sizeof in->code_kind, kind[0] ? kind : "code");
      Listing_count(in->code, Listing_kind(in->code_kind, in->code), &in->stats);
   } else if (dev->is_pocl) {
      snprintf(in->note, sizeof in->note,
               "the device gives no assembly here: PoCL's CPU code needs llvm-objdump (Debian: apt-get install llvm)");
   } else {
      snprintf(in->note, sizeof in->note, "the device gives no assembly (%s, %s)", be->name, dev->platform);
   }
   /* The source as the compiler reads it: shown where there is no assembly, and by v. */
   bool cuda = Backend_can(be, BACKEND_CAP_CUDA_PRELUDE);
   const char *p1 = cuda && w->cat.prelude_cuda ? w->cat.prelude_cuda : "", *p2 = w->cat.prelude ? w->cat.prelude : "";
   size_t plen = strlen(p1) + strlen(p2) + 2;
   char *pre = malloc(plen);
   const char *path = k->path[0] ? k->path : "kernel.cl", *base = strrchr(path, '/');
   if (pre) {
      snprintf(pre, plen, "%s\n%s", p1, p2);
      in->source = Preproc_kernel(pre, k->source, base ? base + 1 : path, r->defines, err, sizeof err);
      free(pre);
   }
   if (in->source) {
      snprintf(in->source_kind, sizeof in->source_kind, "%s after the preprocessor",
               cuda ? "the kernel (CUDA prelude)" : "OpenCL C");
   } else {
      /* No cpp: the source as compiled, its -D values said above it. */
      size_t n = strlen(r->defines) + strlen(k->source) + 64;
      in->source = malloc(n);
      if (in->source)
         snprintf(in->source, n, "// compiled with %s\n%s", r->defines, k->source);
      snprintf(in->source_kind, sizeof in->source_kind, "OpenCL C source (%s)", err);
   }
   RunResult_free(r);
   free(r);
}

static void inspectCurrent(Worker *w) {
   w->inspected = true;
   WorkerConfig cfg = w->cur;
   unsigned long serial = w->cur_serial;
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   if (!k)
      return;
   char name[640];
   label(w, &cfg, name, sizeof name);
   setState(w, WS_INSPECTING, "reading the compiled code of %s", name);
   pthread_mutex_unlock(&w->mu);
   WorkerInspect in;
   memset(&in, 0, sizeof in);
   in.config = cfg;
   in.config_serial = serial;
   in.registers = -1;
   in.private_mem = -1;
   readCode(w, k, &cfg, &in);
   pthread_mutex_lock(&w->mu);
   if (serial != w->cur_serial) {
      WorkerInspect_free(&in);
      return;
   }
   if (!in.ok)
      logf_(w, LOG_WARN, "%s: cannot read its code: %s", name, in.message);
   if (w->inspect_ready)
      WorkerInspect_free(&w->inspect_out);
   w->inspect_out = in;
   w->inspect_ready = true;
   w->snap.inspect_version++;
   publish(w);
}

static void *workerMain(void *arg) {
   Worker *w = arg;
   pthread_mutex_lock(&w->mu);
   while (!w->quit) {
      if (w->device_serial != w->tried_device_serial) {
         openDevice(w);
         continue;
      }
      if (!w->session) {
         pthread_cond_wait(&w->cv, &w->mu);
         continue;
      }
      if (w->reload) {
         reloadCatalog(w);
         continue;
      }
      if (w->peaks) {
         measurePeaks(w);
         continue;
      }
      if (w->sweep_req) {
         sweepBegin(w);
         continue;
      }
      if (w->sweep->running) {
         sweepStep(w);
         continue;
      }
      if (w->want_serial != w->cur_serial) {
         double wait = w->posted_at + (w->want.ready ? WORKER_DEBOUNCE_READY_MS : WORKER_DEBOUNCE_MS) - Util_nowMs();
         if (wait > 0) {
            if (w->snap.state != WS_WAITING)
               setState(w, WS_WAITING, "waiting for the keys to settle");
            struct timespec ts;
            Util_deadline(&ts, wait);
            pthread_cond_timedwait(&w->cv, &w->mu, &ts);
            continue;
         }
         w->cur = w->want;
         w->cur_serial = w->want_serial;
         w->phase = PH_FIRST;
         w->held = false;
         w->banks_traced = false;
         w->inspected = false;
         clearResult(w);
         w->snap.have_config = true;
         w->snap.config = w->cur;
         w->snap.config_serial = w->cur_serial;
         publish(w);
      }
      w->snap.paused = w->paused;
      if (w->phase == PH_STOPPED) {
         char name[640];
         label(w, &w->cur, name, sizeof name);
         if (w->snap.state != WS_STOPPED)
            setState(w, WS_STOPPED, "%s: %s", name, RunStatus_name(w->snap.status));
         pthread_cond_wait(&w->cv, &w->mu);
         continue;
      }
      /* The inspect pane: the code of each configuration that ran, once, while shown. */
      if (w->phase == PH_MEASURE && w->inspect_want && !w->inspected) {
         inspectCurrent(w);
         continue;
      }
      /* The bank pane: one trace per verified configuration while it is shown. */
      if (w->phase == PH_MEASURE && w->banks_want && !w->banks_traced && w->snap.verified_run) {
         traceBanks(w);
         continue;
      }
      /* The vendor BLAS once per problem, after a few rounds so that numbers show first. */
      if (w->phase == PH_MEASURE && w->session && w->have_inputs && Inputs_fit(&w->in, &w->cur.problem) &&
          (w->vendor_again ||
           (w->auto_vendor && !w->paused && w->snap.rounds >= VENDOR_AFTER_ROUNDS &&
            Util_nowMs() - w->posted_at > VENDOR_AFTER_IDLE_MS &&
            (!w->snap.vendor_done || !sameProblem(&w->snap.vendor_problem, &w->cur.problem))))) {
         measureVendor(w);
         continue;
      }
      if (w->paused && (w->phase != PH_FIRST || w->held)) {
         if (w->snap.state != WS_PAUSED)
            setState(w, WS_PAUSED, "paused (space resumes)");
         pthread_cond_wait(&w->cv, &w->mu);
         continue;
      }
      double started = Util_nowMs();
      bool measuring = w->phase == PH_MEASURE;
      runRound(w);
      double rest = ROUND_PERIOD_MS - (Util_nowMs() - started);
      if (measuring && rest > 0 && w->want_serial == w->cur_serial && !w->quit) {
         struct timespec ts;
         Util_deadline(&ts, rest);
         pthread_cond_timedwait(&w->cv, &w->mu, &ts);
      }
   }
   /* Leave the device with everything released. */
   Session *s = w->session;
   w->session = NULL;
   pthread_mutex_unlock(&w->mu);
   if (w->have_inputs)
      Inputs_free(&w->in);
   w->have_inputs = false;
   Session_close(s);
   pthread_mutex_lock(&w->mu);
   w->finished = true;
   pthread_cond_broadcast(&w->done_cv);
   pthread_mutex_unlock(&w->mu);
   return NULL;
}

/* ---- the UI's side ---- */

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
   atomic_init(&w->sweep_cancel, 0);
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
   w->snap.state = WS_STARTING;
   w->snap.registers = -1;
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
   atomic_store(&w->sweep_cancel, 1);
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
   if (w->banks_ready)
      freeBanks(&w->banks_out);
   if (w->inspect_ready)
      WorkerInspect_free(&w->inspect_out);
   Catalog_free(&w->cat);
   RunResult_free(w->res);
   free(w->res);
   SweepSpace_free(&w->sweep_space);
   free(w->sweep);
   LogBuf_free(&w->log);
   pthread_cond_destroy(&w->cv);
   pthread_cond_destroy(&w->done_cv);
   pthread_mutex_destroy(&w->mu);
   free(w);
   return true;
}

void Worker_post(Worker *w, const WorkerConfig *c) {
   pthread_mutex_lock(&w->mu);
   w->want = *c;
   w->want_serial++;
   w->posted_at = Util_nowMs();
   atomic_store(&w->cancel, 1);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
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
   publish(w);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

/* Under mu. */
static void stopSweep(Worker *w) {
   if (!w->sweep->running && !w->sweep_req)
      return;
   w->sweep_stop = true;
   atomic_store(&w->sweep_cancel, 1);
   if (w->sweep_req) {
      /* Not begun yet: it never will. */
      w->sweep_req = false;
      w->sweep->running = false;
      w->sweep->stopped = true;
      Util_copy(w->sweep->message, sizeof w->sweep->message, "stopped");
      w->sweep->version++;
   }
}

void Worker_sweepStart(Worker *w, const WorkerConfig *c, int budget, bool exhaustive, double timeout_s) {
   pthread_mutex_lock(&w->mu);
   w->sweep_cfg = *c;
   w->sweep_budget = budget;
   w->sweep_exhaustive = exhaustive;
   w->sweep_timeout = timeout_s > 0 ? timeout_s : 5;
   w->sweep_req = true;
   w->sweep_stop = false;
   w->sweep_gen++;
   atomic_store(&w->sweep_cancel, 1); /* a sweep in progress gives way */
   /* Published at once, so that the UI never sees the old sweep as the new one. */
   WorkerSweep *sw = w->sweep;
   unsigned long v = sw->version;
   memset(sw, 0, sizeof *sw);
   sw->version = v + 1;
   sw->started = sw->running = true;
   sw->config = *c;
   sw->started_ms = Util_nowMs();
   Util_copy(sw->message, sizeof sw->message, "starting");
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

int Worker_sweepUpcoming(Worker *w, WorkerSweepAhead *out, int max) {
   if (max > WORKER_SWEEP_AHEAD_MAX)
      max = WORKER_SWEEP_AHEAD_MAX;
   pthread_mutex_lock(&w->mu);
   const WorkerSweep *sw = w->sweep;
   int n = -1;
   /* Listed (total > 0) and on an open device; the one in progress (done) is the worker's. */
   if (sw->running && !w->sweep_req && !w->sweep_stop && sw->total > 0 && w->snap.have_device) {
      Util_copy(out->backend, sizeof out->backend, w->snap.backend);
      out->device = w->snap.device_index;
      out->config = sw->config;
      out->config.ablate = 0;
      n = 0;
      for (int i = sw->done + 1; i < sw->total && n < max; i++)
         memcpy(out->values[n++], sw->points[i].values, sizeof out->values[0]);
   }
   pthread_mutex_unlock(&w->mu);
   return n;
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

void Worker_sweepStop(Worker *w) {
   pthread_mutex_lock(&w->mu);
   stopSweep(w);
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

bool Worker_sweep(Worker *w, WorkerSweep *out, unsigned long *seen) {
   pthread_mutex_lock(&w->mu);
   bool changed = w->sweep->version != *seen;
   if (changed) {
      *out = *w->sweep;
      *seen = w->sweep->version;
   }
   pthread_mutex_unlock(&w->mu);
   return changed;
}

void Worker_cancel(Worker *w) {
   pthread_mutex_lock(&w->mu);
   stopSweep(w);
   w->paused = true;
   w->held = true;
   w->snap.paused = true;
   atomic_store(&w->cancel, 1);
   publish(w);
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

/* Whether a pane that asks the worker for extra work (banks, inspect) is shown. */
static void setWanted(Worker *w, bool *flag, bool wanted) {
   pthread_mutex_lock(&w->mu);
   *flag = wanted;
   pthread_cond_signal(&w->cv);
   pthread_mutex_unlock(&w->mu);
}

void Worker_setBanks(Worker *w, bool wanted) { setWanted(w, &w->banks_want, wanted); }

bool Worker_takeBanks(Worker *w, WorkerBanks *out) {
   pthread_mutex_lock(&w->mu);
   bool ready = w->banks_ready;
   if (ready) {
      *out = w->banks_out;
      w->banks_out.analysis = NULL;
      w->banks_ready = false;
   }
   pthread_mutex_unlock(&w->mu);
   return ready;
}

void Worker_setInspect(Worker *w, bool wanted) { setWanted(w, &w->inspect_want, wanted); }

bool Worker_takeInspect(Worker *w, WorkerInspect *out) {
   pthread_mutex_lock(&w->mu);
   bool ready = w->inspect_ready;
   if (ready) {
      *out = w->inspect_out;
      w->inspect_out.code = w->inspect_out.source = NULL;
      w->inspect_ready = false;
   }
   pthread_mutex_unlock(&w->mu);
   return ready;
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
