/* The worker's measuring: opening the device, compiling and verifying a configuration,
 * re-timing it in short rounds into the rolling window, the vendor BLAS and the device's
 * peaks. Called by the worker's loop (worker.c) with mu held; each drops it around the
 * device work. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ablate.h"
#include "base/util.h"
#include "explorer/worker_int.h"

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

void Measure_clear(Worker *w) {
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
   memset(&s->error, 0, sizeof s->error);
   s->nhelpers = 0;
   s->fixup_ms = 0;
   s->nwindow = 0;
   s->launches = 0;
   s->rounds = 0;
   s->median_ms = s->min_ms = s->max_ms = s->spread_pct = s->gflops = s->gbps = 0;
}

void Measure_addTimes(Worker *w, const double *times_ms, int n) {
   WorkerSnapshot *s = &w->snap;
   for (int i = 0; i < n; i++) {
      if (s->nwindow == WORKER_WINDOW) {
         memmove(s->window, s->window + 1, sizeof s->window[0] * (WORKER_WINDOW - 1));
         s->nwindow--;
      }
      s->window[s->nwindow++] = times_ms[i];
   }
   s->launches += n;
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
   s->have_result = true;
}

static void addTimes(Worker *w, const RunResult *r) {
   Measure_addTimes(w, r->times_ms, r->reps);
   w->snap.fixup_ms = r->fixup_ms;
   if (r->nhelpers > 0) {
      w->snap.nhelpers = r->nhelpers;
      memcpy(w->snap.helpers, r->helpers, sizeof r->helpers);
   }
}

void Measure_store(Worker *w, StoreRecord *r) {
   char err[1536];
   if (!w->store || Store_add(w->store, r, 1, err, sizeof err))
      return;
   Worker_log(w, LOG_WARN, "recording stopped: %s", err);
   Store_close(w->store);
   w->store = NULL;
}

/* A finished measurement of the configuration (its verified first run, or why it failed). */
static void storeRun(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, RunStatus st, const RunResult *r) {
   StoreRecord rec;
   RecordPlace at = {w->snap.backend, &w->snap.device};
   Record_fromRun(&rec, "explorer", &at, k, cfg->values, &cfg->problem, st, r);
   Measure_store(w, &rec);
}

static const char *basename_(const char *path) {
   const char *b = strrchr(path, '/');
   return b ? b + 1 : path;
}

void Measure_openDevice(Worker *w) {
   w->tried_device_serial = w->device_serial;
   char backend[16];
   int dev = w->want_device;
   Util_copy(backend, sizeof backend, w->want_backend);
   Worker_setState(w, WS_OPENING, "opening %s device %d", backend, dev);
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
      Worker_log(w, LOG_ERROR, "cannot open %s device %d: %s", backend, dev, err);
      if (!w->session)
         Worker_setState(w, WS_NO_DEVICE, "no device: %s", err);
      return;
   }
   SweepJob_abandon(w, "stopped: the device changed");
   Session *old = w->session;
   w->session = s;
   WorkerSnapshot *sn = &w->snap;
   sn->have_device = true;
   Util_copy(sn->backend, sizeof sn->backend, be->name);
   sn->device_index = dev;
   sn->device = *Session_device(s);
   sn->peaks = peaks;
   sn->vendor_done = false;
   Observation_clear(&sn->obs); /* the driver's figures were the old device's */
   Worker_log(w, LOG_INFO, "device %d: %s (%s, %s)%s", dev, sn->device.name, sn->device.platform, be->name,
         sn->device.limits_simulated ? " with simulated limits (GEMMTOP_DEVICE_LIMITS)" : "");
   /* Measure the configuration again, verified, on the new device. */
   w->cur_serial = 0;
   if (old) {
      pthread_mutex_unlock(&w->mu);
      Session_close(old);
      pthread_mutex_lock(&w->mu);
   }
}

void Measure_reloadCatalog(Worker *w) {
   w->reload = false;
   Worker_setState(w, WS_PREPARING, "reloading kernel files");
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
      Worker_log(w, LOG_ERROR, "cannot reload the kernels: %s", err);
   else
      Worker_log(w, LOG_INFO, "kernel files reloaded from %s", w->kernels_dir);
   if (ok && w->cat.warnings[0])
      Worker_log(w, LOG_WARN, "some kernel files were skipped:\n%s", w->cat.warnings);
   w->cur_serial = 0;
}

void Measure_peaks(Worker *w) {
   w->peaks = false;
   if (w->server[0]) {
      Worker_log(w, LOG_WARN, "the peaks are the server's device's: they are not measured from here");
      return;
   }
   Worker_setState(w, WS_PEAKS, "measuring the device's peaks (a few seconds)");
   pthread_mutex_unlock(&w->mu);
   Peaks p;
   char err[1024] = "";
   bool ok = Peaks_measure(w->session, &w->cat, &p, err, sizeof err);
   pthread_mutex_lock(&w->mu);
   if (ok) {
      w->snap.peaks = p;
      Worker_log(w, LOG_GOOD, "measured peaks: FP32 %.1f GFLOPS, FP64 %.1f GFLOPS, copy %.1f GB/s", p.gflops[PEAK_FP32],
            p.gflops[PEAK_FP64], p.copy_gbps);
      if (p.read_gbps > 0 || p.l2_gbps > 0 || p.local_gbps > 0)
         Worker_log(w, LOG_GOOD, "measured bandwidth: reads %.1f GB/s, L2 %.1f GB/s, local memory %.1f GB/s%s",
                    p.read_gbps, p.l2_gbps, p.local_gbps, p.sm_mhz > 0 ? "" : " (no clock reported by the driver)");
      if (p.sm_mhz > 0)
         Worker_log(w, LOG_GOOD, "clocks while measuring: SM %.0f MHz, memory %.0f MHz", p.sm_mhz, p.mem_mhz);
      if (p.gflops[PEAK_TF32] > 0)
         Worker_log(w, LOG_GOOD, "tensor peaks (mma.sync): TF32 %.1f, half %.1f, bfloat16 %.1f GFLOPS", p.gflops[PEAK_TF32],
                    p.gflops[PEAK_F16], p.gflops[PEAK_BF16]);
      if (p.gflops[PEAK_FP8] > 0)
         Worker_log(w, LOG_GOOD, "FP8 peak (mma.sync): e4m3 %.1f GFLOPS", p.gflops[PEAK_FP8]);
      if (p.wgmma_gflops[PEAK_BF16] > 0)
         Worker_log(w, LOG_GOOD, "wgmma peaks: TF32 %.1f, half %.1f, bfloat16 %.1f, e4m3 %.1f GFLOPS (SM %.0f MHz)",
                    p.wgmma_gflops[PEAK_TF32], p.wgmma_gflops[PEAK_F16], p.wgmma_gflops[PEAK_BF16],
                    p.wgmma_gflops[PEAK_FP8], p.tensor_sm_mhz);
      if (p.not_measured[0])
         Worker_log(w, LOG_WARN, "not measured: %s", p.not_measured);
   } else {
      Worker_log(w, LOG_ERROR, "cannot measure the peaks: %s", err);
   }
}

void Measure_vendor(Worker *w) {
   if (w->server[0]) {
      Served_vendor(w);
      return;
   }
   bool asked = w->vendor_again;
   w->vendor_again = false;
   Problem p = w->cur.problem;
   Worker_setState(w, WS_VENDOR, "timing the vendor BLAS on %dx%dx%d", p.m, p.n, p.k);
   atomic_store(&w->cancel, 0);
   pthread_mutex_unlock(&w->mu);
   VendorResult *v = calloc(1, sizeof *v);
   if (v)
      Session_vendor(w->session, &p, &w->in,
                     &(RunOptions){.reps = VENDOR_REPS, .warmup = 1, .verify = true, .cancel = &w->cancel,
                                   .observe = true, .cold_l2 = w->cur.cold_l2},
                     v);
   pthread_mutex_lock(&w->mu);
   if (!v)
      return;
   if (v->status == RUN_CANCELLED) {
      /* A change (or c) came first: what was measured before stays, and the library is
       * timed again once the keys are quiet. */
      Worker_log(w, LOG_INFO, "vendor BLAS on %dx%dx%d: interrupted", p.m, p.n, p.k);
      /* Asked for (F7) and interrupted by something other than a change or a stop: again. */
      w->vendor_again = asked && w->want_serial == w->cur_serial && !w->paused;
      free(v);
      return;
   }
   w->snap.vendor_done = true;
   w->snap.vendor_problem = p;
   w->snap.vendor_cold_l2 = v->cold_l2;
   w->snap.vendor = *v;
   if (v->status == RUN_OK)
      Worker_log(w, LOG_INFO, "vendor BLAS %s: %.3f ms, %.2f GFLOPS (%s)", v->name, v->median_ms, v->gflops,
            v->verify.message);
   else
      Worker_log(w, v->status == RUN_NOT_VERIFIED ? LOG_ERROR : LOG_WARN, "vendor BLAS: %s", v->message);
   free(v);
}

bool Measure_vendorDue(const Worker *w) {
   /* (On a class server the inputs are the server's.) */
   bool inputs = w->server[0] || (w->have_inputs && Inputs_fit(&w->in, &w->cur.problem));
   if (w->phase != PH_MEASURE || !w->session || !inputs)
      return false;
   if (w->vendor_again)
      return true;
   /* (A class server measures a configuration once: its one round is enough.) */
   int rounds = w->server[0] ? 1 : VENDOR_AFTER_ROUNDS;
   return w->auto_vendor && !w->paused && w->snap.rounds >= rounds &&
          Util_nowMs() - w->posted_at > VENDOR_AFTER_IDLE_MS &&
          (!w->snap.vendor_done || !Problem_same(&w->snap.vendor_problem, &w->cur.problem) ||
           w->snap.vendor_cold_l2 != w->cur.cold_l2);
}

/* Before the first run: the rules and the device's limits, the memory, the inputs (made
 * for this problem when those held do not fit). Returns false when it cannot run or the
 * configuration changed meanwhile. */
static bool prepareFirst(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, unsigned long serial,
                         const char *name) {
   Session *s = w->session;
   char msg[1536];
   DeviceLimits lim = Session_device(s)->limits;
   if (cfg->limits[0] && !Session_simulateLimits(cfg->limits, &lim, msg, sizeof msg)) {
      Worker_stopWith(w, RUN_INVALID, msg);
      return false;
   }
   if (!Session_targetOk(s, k, msg, sizeof msg)) { /* before the rules: no parameter fixes the device */
      Worker_log(w, LOG_WARN, "%s: not run: %s", name, msg);
      Worker_stopWith(w, RUN_INVALID, msg);
      return false;
   }
   if (!Config_check(k, cfg->values, &cfg->problem, &lim, &w->snap.geo, msg, sizeof msg)) {
      size_t n = strlen(msg);
      if (cfg->limits[0]) /* said, so that a refusal is never taken for the device's own */
         snprintf(msg + n, sizeof msg - n, " (simulated limits: %s)", cfg->limits);
      else if (Session_device(s)->limits_simulated)
         snprintf(msg + n, sizeof msg - n, " (device limits simulated by GEMMTOP_DEVICE_LIMITS)");
      Worker_log(w, LOG_WARN, "%s: not run: %s", name, msg);
      Worker_stopWith(w, RUN_INVALID, msg);
      return false;
   }
   if (!Session_fits(s, &cfg->problem, msg, sizeof msg)) {
      Worker_log(w, LOG_ERROR, "%s", msg);
      Worker_stopWith(w, RUN_OUT_OF_MEMORY, msg);
      return false;
   }
   w->first_inputs_ms = 0;
   if (w->have_inputs && Inputs_fit(&w->in, &cfg->problem))
      return true;
   const Problem *p = &cfg->problem;
   Worker_setState(w, WS_PREPARING, "making %dx%dx%d inputs", p->m, p->n, p->k);
   pthread_mutex_unlock(&w->mu);
   if (w->have_inputs)
      Inputs_free(&w->in);
   const double t = Util_nowMs();
   w->have_inputs = Inputs_random(&w->in, p, w->seed);
   w->first_inputs_ms = Util_nowMs() - t;
   pthread_mutex_lock(&w->mu);
   if (!w->have_inputs) {
      snprintf(msg, sizeof msg, "out of host memory for %dx%dx%d inputs", p->m, p->n, p->k);
      Worker_log(w, LOG_ERROR, "%s", msg);
      Worker_stopWith(w, RUN_OUT_OF_MEMORY, msg);
      return false;
   }
   return serial == w->cur_serial && w->want_serial == serial; /* else it changed meanwhile */
}

/* Compiles the configuration (or loads it from a cache), with the build's figures and
 * the compiler's messages. Returns false when it did not compile or changed meanwhile. */
static bool compileFirst(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, unsigned long serial,
                         const char *name) {
   Session *s = w->session;
   RunResult *r = w->res;
   Worker_setState(w, WS_COMPILING, "compiling %s", name);
   /* Compiled ahead at this moment (a neighbour stepped to early): its program, not a second build. */
   AheadTarget t =
       Ahead_target(w->snap.backend, w->snap.device_index, cfg->kernel, &cfg->problem, cfg->ablate & ABLATE_ALL);
   Worker_awaitAhead(w, &t, cfg->values, &w->cancel);
   if (serial != w->cur_serial || w->want_serial != serial)
      return false; /* changed meanwhile */
   pthread_mutex_unlock(&w->mu);
   const double t0 = Util_nowMs();
   RunStatus st = Session_compileAblated(s, k, cfg->values, &cfg->problem, cfg->ablate, r, NULL, NULL, 0);
   w->first_compile_ms = Util_nowMs() - t0;
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
      Worker_log(w, LOG_ERROR, "%s: %s: %s", name, RunStatus_name(st), r->message);
      if (log && *log)
         LogBuf_add(&w->log, LOG_BUILD, log);
      free(log);
      if (st != RUN_CANCELLED && st != RUN_INVALID)
         storeRun(w, k, cfg, st, r);
      Worker_stopWith(w, st, r->message);
      return false;
   }
   if (r->cached_memory)
      Worker_log(w, LOG_INFO, "%s: compiled earlier in this session", name);
   else if (r->cached)
      Worker_log(w, LOG_INFO, "%s: from the disk cache (%.0f ms)", name, r->compile_ms);
   else
      Worker_log(w, LOG_INFO, "%s: compiled in %.0f ms", name, r->compile_ms);
   if (log && *log && !r->cached_memory)
      LogBuf_add(&w->log, LOG_BUILD, log);
   free(log);
   return serial == w->cur_serial && w->want_serial == serial;
}

/* The first run's verdict: verified (or, ablated, a first measurement). */
static void recordFirst(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, RunStatus st, const RunResult *r,
                        const char *name) {
   WorkerSnapshot *sn = &w->snap;
   if (r->verified_run || (r->ablate && st == RUN_OK))
      storeRun(w, k, cfg, st, r);
   if (r->verified_run) {
      sn->verified_run = true;
      sn->verify = r->verify;
      sn->geo = r->geo;
      sn->status = r->verify.ok ? RUN_OK : RUN_NOT_VERIFIED;
      Util_copy(sn->message, sizeof sn->message, r->verify.message);
      /* The time from the change to this figure (the explorer's interactivity target), and
       * where it went: a run that is host-bound shows it. */
      RunPhases ph = r->phases;
      ph.ms[PHASE_INPUTS] += w->first_inputs_ms;
      ph.ms[PHASE_COMPILE] += w->first_compile_ms;
      char phases[320], after[400] = "";
      RunPhases_describe(&ph, phases, sizeof phases);
      if (w->posted_at > 0)
         snprintf(after, sizeof after, " (%.0f ms after the change) [%s]", Util_nowMs() - w->posted_at, phases);
      else
         snprintf(after, sizeof after, " [%s]", phases);
      Worker_log(w, r->verify.ok ? LOG_GOOD : LOG_ERROR, "%s: %s%s", name, r->verify.message, after);
      w->phase = PH_MEASURE;
   } else if (r->ablate && st == RUN_OK) {
      /* Ablated: wrong on purpose, so not verified; the first run is already a measurement. */
      sn->verified_run = false;
      sn->geo = r->geo;
      sn->status = RUN_OK;
      Util_copy(sn->message, sizeof sn->message, r->message);
      Worker_log(w, LOG_WARN, "%s: %s", name, r->message);
      w->phase = PH_MEASURE;
   }
}

/* The error of a verified C against the float64 product of the values drawn for A and B
 * before they were rounded to the type (core/frontier.h); not for double, whose inputs are
 * not float32 values. The drawn values are made once per set of inputs: every configuration
 * tried on the same problem is measured against them. */
static void drawnError(Worker *w, const Problem *p, const void *C, FrontierError *out) {
   if (Types_of(p->precision)->out == STORAGE_F64)
      return;
   if (w->drawn_generation != w->in.generation) {
      free(w->drawn_a);
      free(w->drawn_b);
      w->drawn_generation = 0;
      if (!Inputs_drawn(p, w->in.seed, &w->drawn_a, &w->drawn_b))
         return;
      w->drawn_generation = w->in.generation;
   }
   Frontier_error(p, w->drawn_a, w->drawn_b, w->in.c0, C, w->in.seed ^ 0xf0f0, out);
}

void Measure_round(Worker *w) {
   WorkerConfig cfg = w->cur;
   unsigned long serial = w->cur_serial;
   bool first = w->phase == PH_FIRST;
   atomic_store(&w->cancel, 0);
   char name[640];
   Worker_label(w, &cfg, name, sizeof name);
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   if (!k) {
      char msg[256];
      snprintf(msg, sizeof msg, "no kernel named %s in %s", cfg.kernel, w->kernels_dir);
      Worker_log(w, LOG_ERROR, "%s", msg);
      Worker_stopWith(w, RUN_INVALID, msg);
      return;
   }
   if (w->server[0]) {
      Served_round(w, k, &cfg, serial, name);
      return;
   }
   RunResult *r = w->res;
   RunOptions ro = {.reps = ROUND_REPS, .warmup = 0, .verify = false, .max_seconds = ROUND_SECONDS,
                    .cancel = &w->cancel, .ablate = cfg.ablate, .observe = true, .cold_l2 = cfg.cold_l2};
   if (first) {
      if (!prepareFirst(w, k, &cfg, serial, name) || !compileFirst(w, k, &cfg, serial, name))
         return;
      Worker_setState(w, WS_VERIFYING, "verifying %s", name);
      ro = (RunOptions){.reps = FIRST_REPS, .warmup = 1, .verify = true, .max_seconds = FIRST_SECONDS,
                        .cancel = &w->cancel, .ablate = cfg.ablate, .observe = true, .cold_l2 = cfg.cold_l2};
   } else if (w->snap.state != WS_MEASURING) {
      Worker_setState(w, WS_MEASURING, "measuring %s", name);
   }
   if (!first && w->disturbed)
      ro.warmup = 1; /* after a trace, the vendor BLAS or the peaks: not timed */
   w->disturbed = false;
   /* The first, verified run keeps its C for the error against the unrounded inputs. */
   void *verified = first && !cfg.ablate ? malloc(Problem_sizeC(&cfg.problem) * Precision_size(cfg.problem.precision) + 1)
                                         : NULL;
   ro.verified_c = verified;
   pthread_mutex_unlock(&w->mu);
   RunStatus st = Session_run(w->session, k, cfg.values, &cfg.problem, &w->in, &ro, r);
   FrontierError error = {0};
   if (verified && st == RUN_OK && r->verified_run)
      drawnError(w, &cfg.problem, verified, &error);
   free(verified);
   pthread_mutex_lock(&w->mu);
   if (serial == w->cur_serial && error.samples)
      w->snap.error = error;
   if (serial != w->cur_serial)
      return; /* a newer configuration was adopted (a device change) */
   if (first)
      recordFirst(w, k, &cfg, st, r, name);
   switch (st) {
   case RUN_OK:
   case RUN_NOT_VERIFIED:
   case RUN_CANCELLED:
      if (r->reps > 0 && r->median_ms > 0)
         addTimes(w, r);
      if (r->obs.known)
         w->snap.obs = r->obs;
      if (st == RUN_CANCELLED && w->paused && w->want_serial == serial)
         Worker_log(w, LOG_WARN, "%s: cancelled", name);
      if (!first || r->verified_run)
         w->phase = PH_MEASURE;
      Worker_publish(w);
      break;
   default:
      Worker_log(w, LOG_ERROR, "%s: %s: %s", name, RunStatus_name(st), r->message);
      if (first && !r->verified_run && st != RUN_INVALID)
         storeRun(w, k, &cfg, st, r); /* the first run failed before its verification */
      Worker_stopWith(w, st, r->message);
      break;
   }
}
