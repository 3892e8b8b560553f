/* The worker's measuring: opening the device, compiling and verifying a configuration,
 * re-timing it in short rounds into the rolling window, the vendor BLAS and the device's
 * peaks. Called by the worker's loop (worker.c) with mu held; each drops it around the
 * device work. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/ablate.h"
#include "base/util.h"
#include "core/run/trial.h"
#include "explorer/worker_int.h"

/* Rounds start at most this often, so quick kernels do not flood the UI with snapshots. */
#define ROUND_PERIOD_MS 200
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
   memset(&s->result, 0, sizeof s->result); /* RUN_OK, and nothing known */
   s->result.registers = -1;
   s->result.private_mem = s->result.local_mem = -1;
   memset(&s->error, 0, sizeof s->error);
   s->nwindow = 0;
   s->launches = 0;
   s->rounds = 0;
   s->median_ms = s->min_ms = s->max_ms = s->spread_pct = s->gflops = s->gbps = 0;
}

static void addTimes(Worker *w, const RunResult *r) {
   Worker_addTimes(w, r->times_ms, r->reps);
   w->snap.result.fixup_ms = r->fixup_ms;
   if (r->nhelpers > 0) {
      w->snap.result.nhelpers = r->nhelpers;
      memcpy(w->snap.result.helpers, r->helpers, sizeof r->helpers);
   }
}

/* The trial's result as the snapshot shows it (the compiler's messages go to the log). */
static void showResult(Worker *w, const RunResult *r) {
   w->snap.result = *r;
   w->snap.result.build_log = NULL;
}

/* A finished measurement of the configuration (its verified first run, or why it failed). */
static void storeRun(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, RunStatus st, const RunResult *r) {
   StoreRecord rec;
   RecordPlace at = {w->snap.backend, &w->snap.device};
   Record_fromRun(&rec, "explorer", &at, k, cfg->values, &cfg->problem, st, r);
   Worker_record(w, &rec);
}

static const char *basename_(const char *path) {
   const char *b = strrchr(path, '/');
   return b ? b + 1 : path;
}

static void openDevice(Worker *w) {
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

static void reloadCatalog(Worker *w) {
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

static void measurePeaks(Worker *w) {
   w->peaks = false;
   if (w->server[0]) {
      Worker_log(w, LOG_WARN, "the peaks are the server's device's: they are not measured from here");
      return;
   }
   /* How long, said before: the last measurement's time on this device, or a CPU's minute. */
   const double expect = Peaks_expectedSeconds(Session_device(w->session), &w->snap.peaks);
   Worker_setState(w, WS_PEAKS, "measuring the device's peaks (about %.0f s%s)", expect,
                   w->snap.peaks.known && w->snap.peaks.seconds > 0 ? ", as the last time" : "");
   pthread_mutex_unlock(&w->mu);
   Peaks p;
   char err[1024] = "";
   bool ok = Peaks_measure(w->session, &w->cat, &p, err, sizeof err);
   pthread_mutex_lock(&w->mu);
   if (ok) {
      w->snap.peaks = p;
      Worker_log(w, LOG_GOOD, "measured peaks in %.0f s: FP32 %.1f GFLOPS, FP64 %.1f GFLOPS, copy %.1f GB/s", p.seconds,
                 p.gflops[PEAK_FP32], p.gflops[PEAK_FP64], p.copy_gbps);
      char why[600];
      if (Peaks_contradict(&p, why, sizeof why))
         Worker_log(w, LOG_WARN, "the peaks contradict each other: %s", why);
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

static void timeVendor(Worker *w) {
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

static bool vendorDue(const Worker *w) {
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

/* The error of a verified C against the float64 product of the values drawn for A and B
 * before they were rounded to the type (core/analyse/frontier.h); not for double, whose inputs are
 * not float32 values. The drawn values are made once per set of inputs: every configuration
 * tried on the same problem is measured against them. */
static void drawnError(Worker *w, const Problem *p, const void *C, FrontierError *out) {
   if (Types_of(p->precision)->fp64)
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

/* The first run's verdict: verified (or, ablated, a first measurement). */
static void showFirstRun(Worker *w, const RunResult *r, const char *name) {
   WorkerSnapshot *sn = &w->snap;
   RunStatus st = r->status;
   if (r->verified_run) {
      /* The verdict, also when the timing after it was cancelled. */
      showResult(w, r);
      sn->result.status = r->verify.ok ? RUN_OK : RUN_NOT_VERIFIED;
      Util_copy(sn->result.message, sizeof sn->result.message, r->verify.message);
      /* The time from the change to this figure (the explorer's interactivity target), and
       * where it went: a run that is host-bound shows it. */
      char phases[320], after[400] = "";
      RunPhases_describe(&r->phases, phases, sizeof phases);
      if (w->posted_at > 0)
         snprintf(after, sizeof after, " (%.0f ms after the change) [%s]", Util_nowMs() - w->posted_at, phases);
      else
         snprintf(after, sizeof after, " [%s]", phases);
      Worker_log(w, r->verify.ok ? LOG_GOOD : LOG_ERROR, "%s: %s%s", name, r->verify.message, after);
      w->phase = PH_MEASURE;
   } else if (r->ablate && st == RUN_OK) {
      /* Ablated: wrong on purpose, so not verified; the first run is already a measurement. */
      showResult(w, r);
      Worker_log(w, LOG_WARN, "%s: %s", name, r->message);
      w->phase = PH_MEASURE;
   }
}

/* A round's figures into the window, or why it failed. */
static void showRound(Worker *w, const RunResult *r, bool first, unsigned long serial, const char *name) {
   RunStatus st = r->status;
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
      Worker_stopWith(w, st, r->message);
      break;
   }
}

/* A configuration's first run, a trial (core/run/trial.h) that the worker follows: its
 * hooks and observers run on the worker's thread without mu, and take it to show what
 * they know. */
typedef struct FirstRun_ {
   Worker *w;
   const WorkerConfig *cfg;
   unsigned long serial;
   const char *name;
   Ahead *ahead; /* the compile-ahead pool held for the compile step; NULL once let go */
} FirstRun;

/* The build's figures and the compiler's messages, from a compile apart. */
static void showCompile(Worker *w, const RunResult *r, const char *name, const char *path) {
   char *log = r->build_log ? LogBuf_renameSource(r->build_log, basename_(path)) : NULL;
   showResult(w, r);
   if (r->status != RUN_OK)
      Worker_log(w, LOG_ERROR, "%s: %s: %s", name, RunStatus_name(r->status), r->message);
   else if (r->cached_memory)
      Worker_log(w, LOG_INFO, "%s: compiled earlier in this session", name);
   else if (r->cached)
      Worker_log(w, LOG_INFO, "%s: from the disk cache (%.0f ms)", name, r->compile_ms);
   else
      Worker_log(w, LOG_INFO, "%s: compiled in %.0f ms", name, r->compile_ms);
   if (log && *log && (r->status != RUN_OK || !r->cached_memory))
      LogBuf_add(&w->log, LOG_BUILD, log);
   free(log);
}

/* The activity shown before each step, and the build once it is known. */
static void firstBefore(void *ctx, TrialStep next, const TrialRequest *rq, const TrialOutcome *out) {
   FirstRun *f = ctx;
   Worker *w = f->w;
   const Problem *p = rq->problem;
   pthread_mutex_lock(&w->mu);
   if (next == TRIAL_INPUTS)
      Worker_setState(w, WS_PREPARING, "making %dx%dx%d inputs", p->m, p->n, p->k);
   else if (next == TRIAL_COMPILE) {
      showResult(w, out->result); /* checked: the launch's shape is known */
      Worker_setState(w, WS_COMPILING, "compiling %s", f->name);
   }
   else if (next == TRIAL_RUN) {
      /* The pool is needed for the compile only: let it go before the launches, so that
       * leaving (Worker_setAhead(NULL)) never waits for a long run. */
      Worker_releaseAhead(w, f->ahead);
      f->ahead = NULL;
      showCompile(w, out->result, f->name, rq->kernel->path);
      Worker_setState(w, WS_VERIFYING, "verifying %s", f->name);
   }
   pthread_mutex_unlock(&w->mu);
}

/* Whether the configuration is still the one asked for. */
static bool firstWanted(void *ctx) {
   FirstRun *f = ctx;
   pthread_mutex_lock(&f->w->mu);
   bool wanted = f->serial == f->w->cur_serial && f->w->want_serial == f->serial;
   pthread_mutex_unlock(&f->w->mu);
   return wanted;
}

/* The store's observer: a finished measurement of the configuration, its verified (or
 * ablated) first run, or why it failed once it reached the compiler. */
static void storeFirst(void *ctx, const TrialRequest *rq, const TrialOutcome *out) {
   FirstRun *f = ctx;
   const RunResult *r = out->result;
   RunStatus st = r->status;
   bool measured = r->verified_run || (r->ablate && st == RUN_OK);
   bool failed = st != RUN_INVALID && st != RUN_CANCELLED && (out->stopped_at == TRIAL_COMPILE ||
                 (out->stopped_at == TRIAL_DONE && st != RUN_OK && st != RUN_NOT_VERIFIED && !r->verified_run));
   if (out->stopped_at < TRIAL_COMPILE || !(measured || failed))
      return;
   pthread_mutex_lock(&f->w->mu);
   if (f->serial == f->w->cur_serial)
      storeRun(f->w, rq->kernel, f->cfg, st, r);
   pthread_mutex_unlock(&f->w->mu);
}

/* The log's and the snapshot's observer: why it did not run, or the first run's verdict
 * and figures. */
static void showFirst(void *ctx, const TrialRequest *rq, const TrialOutcome *out) {
   FirstRun *f = ctx;
   Worker *w = f->w;
   const RunResult *r = out->result;
   RunStatus st = r->status;
   if (st == RUN_CANCELLED && out->stopped_at < TRIAL_RUN)
      return; /* changed meanwhile */
   /* The first, verified run's C against the unrounded inputs (before mu: it reads them all). */
   FrontierError error = {0};
   if (out->stopped_at == TRIAL_DONE && rq->run.verified_c && st == RUN_OK && r->verified_run)
      drawnError(w, rq->problem, rq->run.verified_c, &error);
   pthread_mutex_lock(&w->mu);
   WorkerSnapshot *sn = &w->snap;
   switch (out->stopped_at) {
   case TRIAL_CHECK:
      showResult(w, r);
      Worker_log(w, LOG_WARN, "%s: not run: %s", f->name, r->message);
      Worker_stopWith(w, st, r->message);
      break;
   case TRIAL_FIT:
   case TRIAL_INPUTS:
      showResult(w, r);
      Worker_log(w, LOG_ERROR, "%s", r->message);
      Worker_stopWith(w, st, r->message);
      break;
   case TRIAL_COMPILE:
      showCompile(w, r, f->name, rq->kernel->path);
      Worker_stopWith(w, st, r->message);
      break;
   default:
      if (f->serial != w->cur_serial)
         break; /* a newer configuration was adopted (a device change) */
      if (error.samples)
         sn->error = error;
      showFirstRun(w, r, f->name);
      showRound(w, r, true, f->serial, f->name);
      break;
   }
   pthread_mutex_unlock(&w->mu);
}

/* The first run: checked, inputs made when those held do not fit, compiled (after the
 * compile-ahead pool's build, if one is under way), verified, stored and shown. */
static void firstRound(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, unsigned long serial,
                       const char *name) {
   /* The first, verified run keeps its C for the error against the unrounded inputs. */
   void *verified = cfg->ablate ? NULL : malloc(Problem_sizeC(&cfg->problem) * Precision_size(cfg->problem.precision) + 1);
   FirstRun f = {w, cfg, serial, name, Worker_holdAhead(w)};
   TrialRequest rq = {
       .kernel = k, .values = cfg->values, .problem = &cfg->problem, .limits = cfg->limits,
       .inputs_from = TRIAL_INPUTS_HELD, .seed = w->seed, .held = &w->in, .have_held = &w->have_inputs,
       .compile_apart = true, .ahead = f.ahead, .ahead_stop = &w->ahead_abort,
       .run = {.reps = FIRST_REPS, .warmup = 1, .verify = true, .max_seconds = FIRST_SECONDS, .cancel = &w->cancel,
               .ablate = cfg->ablate, .observe = true, .cold_l2 = cfg->cold_l2, .verified_c = verified},
       .observers = {{storeFirst, &f}, {showFirst, &f}},
       .nobservers = 2,
       .hooks = {firstBefore, firstWanted, &f},
   };
   w->disturbed = false;
   pthread_mutex_unlock(&w->mu);
   TrialOutcome out;
   Trial_run(w->session, &rq, w->res, &out);
   free(verified);
   pthread_mutex_lock(&w->mu);
   Worker_releaseAhead(w, f.ahead); /* a trial that stopped before its run still holds it */
}

static void measureRound(Worker *w) {
   WorkerConfig cfg = w->cur;
   unsigned long serial = w->cur_serial;
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
   if (w->phase == PH_FIRST) {
      firstRound(w, k, &cfg, serial, name);
      return;
   }
   /* Re-timed: the first run's trial checked the configuration, and its geometry holds. */
   if (w->snap.state != WS_MEASURING)
      Worker_setState(w, WS_MEASURING, "measuring %s", name);
   const Geometry checked = w->snap.result.geo;
   RunOptions ro = {.reps = ROUND_REPS, .warmup = w->disturbed ? 1 : 0, .verify = false, .max_seconds = ROUND_SECONDS,
                    .cancel = &w->cancel, .ablate = cfg.ablate, .observe = true, .cold_l2 = cfg.cold_l2,
                    .checked = &checked};
   /* (A warm-up after a trace, the vendor BLAS or the peaks: not timed.) */
   w->disturbed = false;
   RunResult *r = w->res;
   pthread_mutex_unlock(&w->mu);
   Session_run(w->session, k, cfg.values, &cfg.problem, &w->in, &ro, r);
   pthread_mutex_lock(&w->mu);
   if (serial == w->cur_serial) /* else a newer configuration was adopted (a device change) */
      showRound(w, r, false, serial, name);
}

/* ---- the jobs' entries (worker.c's table orders them) ---- */

static bool deviceAsked(const Worker *w) { return w->device_serial != w->tried_device_serial; }
static bool reloadAsked(const Worker *w) { return w->reload; }
static bool peaksAsked(const Worker *w) { return w->peaks; }

/* The peaks and the vendor BLAS leave the device disturbed (other buffers and programs,
 * cold caches): the next timed round warms up first, untimed. */
static void peaksJob(Worker *w) {
   measurePeaks(w);
   w->disturbed = true;
}

static void vendorJob(Worker *w) {
   timeVendor(w);
   w->disturbed = true;
}

static bool roundDue(const Worker *w) { return true; }

/* A round, then the rest of ROUND_PERIOD_MS unless something changed. */
static void roundJob(Worker *w) {
   double started = Util_nowMs();
   bool measuring = w->phase == PH_MEASURE;
   measureRound(w);
   double rest = ROUND_PERIOD_MS - (Util_nowMs() - started);
   if (measuring && rest > 0 && w->want_serial == w->cur_serial && !w->quit)
      Worker_waitFor(w, rest);
}

const WorkerJob Measure_deviceJob = {"open the device", deviceAsked, openDevice};
const WorkerJob Measure_reloadJob = {"reload the kernels", reloadAsked, reloadCatalog};
const WorkerJob Measure_peaksJob = {"measure the peaks", peaksAsked, peaksJob};
const WorkerJob Measure_vendorJob = {"time the vendor BLAS", vendorDue, vendorJob};
const WorkerJob Measure_roundJob = {"measure a round", roundDue, roundJob};
