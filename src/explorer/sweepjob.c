/* The sweep pane's sweeps, run by the worker on core's one sweep (core/tune/sweeprun.h), the
 * same as `gemmtop sweep`: the kernel's valid configurations on one problem proposed by a
 * search strategy, those the results store holds taken, the rest compiled (or loaded from
 * the disk cache, where the compile-ahead pool put them), then verified and timed in a
 * child process one per step, between the worker's other jobs; and the UI's side of it. */
#include "explorer/sweepjob.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "explorer/worker_int.h"

#define SWEEP_REPS 10
#define SWEEP_WARMUP 1

static void sweepEnd(Worker *w, bool stopped, const char *message) {
   WorkerSweep *sw = w->sweep;
   sw->running = false;
   sw->stopped = stopped;
   Util_copy(sw->message, sizeof sw->message, message);
   sw->elapsed_ms = Util_nowMs() - sw->started_ms;
   sw->version++;
   SweepRun_close(w->sweep_job.run);
   w->sweep_job.run = NULL;
   Worker_publish(w);
}

void SweepJob_abandon(Worker *w, const char *why) {
   if (w->sweep->running)
      sweepEnd(w, true, why);
}

/* A tried configuration's record, kept until mu is held again (the store is the worker's;
 * a failure is logged, which needs mu). */
static void keepRecord(void *ctx, StoreRecord *r) {
   Worker *w = ctx;
   w->sweep_job.rec = *r;
   w->sweep_job.rec_due = true;
}

static void storeKept(Worker *w) {
   if (w->sweep_job.rec_due)
      Worker_record(w, &w->sweep_job.rec);
   w->sweep_job.rec_due = false;
}

/* The point of the pane for a tried (or proposed) configuration. */
static void setPoint(WorkerSweepPoint *pt, const SweepCandidate *c) {
   memcpy(pt->values, c->values, sizeof pt->values);
   pt->outcome = c->outcome;
   pt->gflops = c->gflops;
   pt->median_ms = c->median_ms;
   pt->compile_ms = c->compile_ms;
   pt->cached = c->cached;
}

/* The outcome of point i, and why it was skipped. */
static void record(Worker *w, int i, const SweepCandidate *c, const char *name) {
   WorkerSweep *sw = w->sweep;
   WorkerSweepPoint *pt = &sw->points[i];
   setPoint(pt, c);
   sw->cached += pt->cached;
   sw->counts[c->outcome]++;
   sw->done++;
   sw->elapsed_ms = Util_nowMs() - sw->started_ms;
   if (c->outcome != SWEEP_OK) {
      const KernelInfo *k = Catalog_find(&w->cat, sw->config.kernel);
      char params[512] = "";
      if (k)
         KernelInfo_formatParams(k, c->values, params, sizeof params);
      int len = (int)strcspn(c->reason, "\n");
      snprintf(sw->last_skip, sizeof sw->last_skip, "%s: %s: %.*s", params, SweepOutcome_name(c->outcome), len,
               c->reason);
      Worker_log(w, LOG_WARN, "sweep: %s %s", name, sw->last_skip);
   }
   sw->version++;
   Worker_publish(w);
}

/* The run opened: what the store held is shown as tried at once. */
static void showTaken(Worker *w, const KernelInfo *k) {
   WorkerSweep *sw = w->sweep;
   const SweepSpace *sp = SweepRun_space(w->sweep_job.run);
   int n, budget = SweepRun_budget(w->sweep_job.run);
   SweepCandidate *tried = SweepRun_tried(w->sweep_job.run, &n);
   sw->total = budget < WORKER_SWEEP_MAX ? budget : WORKER_SWEEP_MAX;
   sw->exhaustive = budget == sp->count;
   sw->taken = n < sw->total ? n : sw->total;
   for (int i = 0; i < sw->taken; i++) {
      setPoint(&sw->points[i], &tried[i]);
      sw->counts[tried[i].outcome]++;
   }
   sw->done = sw->proposed = sw->taken;
   sw->started_ms = Util_nowMs();
   sw->version++;
   const Problem *p = &sw->config.problem;
   Worker_log(w, LOG_INFO, "sweep of %s on %dx%dx%d: %.0f configurations, %d invalid, %d valid; trying %d (%s)",
              k->name, p->m, p->n, p->k, sp->space, sp->invalid, sp->count, sw->total,
              sw->strategy > SEARCH_RANDOM ? SearchStrategy_name(sw->strategy)
              : sw->exhaustive             ? "all"
              : sw->strategy == SEARCH_RANDOM ? "random sample"
                                              : "in order");
   if (sw->taken)
      Worker_log(w, LOG_INFO, "sweep: %d of them taken from the results store (%s), not measured again", sw->taken,
                 w->store ? Store_path(w->store) : "");
   if (SweepRun_retried(w->sweep_job.run))
      Worker_log(w, LOG_INFO, "sweep: %d stored as failed, measured again", SweepRun_retried(w->sweep_job.run));
   if (SweepRun_another(w->sweep_job.run))
      Worker_log(w, LOG_WARN, "sweep: another sweep of this space is running on the store; the two may measure "
                              "the same configurations");
}

/* The run of the sweep asked for, on its listed space; false when out of memory. */
static bool openRun(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, SweepSpace *sp, uint64_t seed) {
   WorkerSweep *sw = w->sweep;
   int budget = w->sweep_job.exhaustive ? 0 : w->sweep_job.budget;
   if (budget <= 0 || budget > WORKER_SWEEP_MAX)
      budget = WORKER_SWEEP_MAX;
   w->sweep_job.dev = w->snap.device;
   SweepSetup su = {.k = k, .kernels_dir = w->kernels_dir, .backend = w->snap.backend, .dev = &w->sweep_job.dev,
                    .problem = cfg->problem, .base = cfg->values, .strategy = w->sweep_job.strategy,
                    .budget = budget, .t0 = Util_nowMs(), .seed = seed, .reps = SWEEP_REPS, .warmup = SWEEP_WARMUP,
                    .timeout_s = Sweep_timeout(w->sweep_job.timeout, &w->sweep_job.dev), .cold_l2 = cfg->cold_l2,
                    .emulated = sw->emulated, .store = w->store, .record = keepRecord, .record_ctx = w};
   /* Every parameter free: the key that `gemmtop sweep` gives the same space. */
   su.free_mask = k->nparams >= 32 ? ~0u : (1u << k->nparams) - 1;
   w->sweep_job.run = SweepRun_open(&su, sp);
   return w->sweep_job.run != NULL;
}

/* Lists the kernel's valid configurations and opens the run that tries them. */
static void beginSweep(Worker *w) {
   w->sweep_job.req = false;
   w->sweep_job.stop = false;
   atomic_store(&w->sweep_job.cancel, 0);
   SweepRun_close(w->sweep_job.run);
   w->sweep_job.run = NULL;
   WorkerConfig cfg = w->sweep_job.cfg;
   WorkerSweep *sw = w->sweep;
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   char msg[1024];
   if (!k) {
      snprintf(msg, sizeof msg, "no kernel named %s in %s", cfg.kernel, w->kernels_dir);
      Worker_log(w, LOG_ERROR, "sweep: %s", msg);
      sweepEnd(w, false, msg);
      return;
   }
   Worker_setState(w, WS_SWEEPING, "sweep of %s: listing its valid configurations", k->name);
   DeviceLimits lim = Session_device(w->session)->limits;
   unsigned long serial = ++w->sweep_job.started, gen = w->sweep_job.gen;
   uint64_t seed = w->seed + serial;
   pthread_mutex_unlock(&w->mu);
   SweepSpace sp;
   Rng rng;
   Rng_seed(&rng, seed);
   unsigned all = k->nparams >= 32 ? ~0u : (1u << k->nparams) - 1;
   bool listed = Sweep_enumerate(k, cfg.values, all, &cfg.problem, &lim, &rng, &sp);
   if (listed)
      Sweep_shuffle(&sp, k, cfg.values, &rng);
   /* Refused here rather than by each configuration's child: the device lacks the memory. */
   bool fits = Session_fits(w->session, &cfg.problem, msg, sizeof msg);
   pthread_mutex_lock(&w->mu);
   if (gen != w->sweep_job.gen) {
      SweepSpace_free(&sp);
      return; /* a newer sweep was asked for meanwhile */
   }
   sw->space = sp.space;
   sw->invalid = sp.invalid;
   sw->valid = sp.count;
   sw->strategy = w->sweep_job.strategy;
   sw->emulated = k->tensor && !Config_tensorPtx(k, &lim, cfg.problem.precision);
   if (!listed) {
      sweepEnd(w, false, "out of host memory");
      Worker_log(w, LOG_ERROR, "sweep of %s: out of host memory", k->name);
      return;
   }
   if (!fits) {
      SweepSpace_free(&sp);
      sweepEnd(w, false, msg);
      Worker_log(w, LOG_ERROR, "sweep of %s: %s", k->name, msg);
      return;
   }
   if (sp.count == 0) {
      snprintf(msg, sizeof msg, "no valid configuration of %s for this problem and device (%d invalid; e.g. %s)",
               k->name, sp.invalid, sp.first_invalid);
      SweepSpace_free(&sp);
      Worker_log(w, LOG_WARN, "sweep: %s", msg);
      sweepEnd(w, false, msg);
      return;
   }
   if (!openRun(w, k, &cfg, &sp, seed)) {
      SweepSpace_free(&sp);
      sweepEnd(w, false, "out of host memory");
      Worker_log(w, LOG_ERROR, "sweep of %s: out of host memory", k->name);
      return;
   }
   showTaken(w, k);
}

/* Every configuration tried: the best verified one goes to the log. */
static void done(Worker *w) {
   WorkerSweep *sw = w->sweep;
   int best = -1;
   for (int i = 0; i < sw->done; i++)
      if (sw->points[i].outcome == SWEEP_OK && (best < 0 || sw->points[i].gflops > sw->points[best].gflops))
         best = i;
   const KernelInfo *k = Catalog_find(&w->cat, sw->config.kernel);
   char params[512] = "";
   if (k && best >= 0)
      KernelInfo_formatParams(k, sw->points[best].values, params, sizeof params);
   if (best >= 0 && !sw->emulated)
      Worker_log(w, LOG_GOOD, "sweep of %s done: %d of %d verified; best %.2f GFLOPS with %s", sw->config.kernel,
                 sw->counts[SWEEP_OK], sw->done, sw->points[best].gflops, params);
   else if (best >= 0)
      Worker_log(w, LOG_GOOD, "sweep of %s done: %d of %d verified (emulated: not ranked)", sw->config.kernel,
                 sw->counts[SWEEP_OK], sw->done);
   else
      Worker_log(w, LOG_WARN, "sweep of %s done: no configuration verified", sw->config.kernel);
   sweepEnd(w, false, "done");
}

/* Proposes the next configurations when none is waiting: a batch the pool compiles at
 * once for a strategy that learns, else the rest of the budget. False when none is left. */
static bool proposeMore(Worker *w) {
   WorkerSweep *sw = w->sweep;
   SweepCandidate *first;
   int waiting = SweepRun_pending(w->sweep_job.run, &first);
   if (waiting == 0) {
      int threads = w->ahead ? Ahead_threads(w->ahead) : 1;
      int want = SweepRun_learns(w->sweep_job.run) ? (threads > 0 ? threads : 1) : sw->total - sw->proposed;
      if (want > sw->total - sw->proposed)
         want = sw->total - sw->proposed;
      waiting = SweepRun_propose(w->sweep_job.run, want);
      SweepRun_pending(w->sweep_job.run, &first);
      for (int i = 0; i < waiting && sw->proposed < sw->total; i++)
         setPoint(&sw->points[sw->proposed++], &first[i]);
      sw->version++;
   }
   return waiting > 0;
}

/* Verifies and times the sweep's next configuration in the measuring child. */
static void stepSweep(Worker *w) {
   WorkerSweep *sw = w->sweep;
   if (w->sweep_job.stop) {
      Worker_log(w, LOG_WARN, "sweep stopped after %d of %d configurations", sw->done, sw->total);
      sweepEnd(w, true, "stopped");
      return;
   }
   if (sw->done >= sw->total || !proposeMore(w)) {
      done(w);
      return;
   }
   const KernelInfo *k = Catalog_find(&w->cat, sw->config.kernel);
   if (!k) {
      sweepEnd(w, true, "stopped: the kernel left the catalog");
      return;
   }
   int i = sw->done;
   WorkerConfig cfg = sw->config;
   char params[512];
   KernelInfo_formatParams(k, sw->points[i].values, params, sizeof params);
   Worker_setState(w, WS_SWEEPING, "sweep %d/%d: %s %s", i + 1, sw->total, k->name, params);
   unsigned long gen = w->sweep_job.gen;
   /* The sweep's target as the explorer feeds it to the pool (Worker_feedAhead): the
    * child loads what the pool compiled from the disk cache. */
   AheadTarget t = Ahead_target(w->snap.backend, w->snap.device_index, cfg.kernel, &cfg.problem, 0);
   Worker_awaitAhead(w, &t, sw->points[i].values, &w->sweep_job.cancel);
   SweepRun *run = w->sweep_job.run;
   bool stopped = atomic_load(&w->sweep_job.cancel) != 0;
   const SweepCandidate *c = NULL;
   pthread_mutex_unlock(&w->mu);
   if (!stopped)
      c = SweepRun_measureNext(run, &w->sweep_job.cancel, &stopped);
   pthread_mutex_lock(&w->mu);
   storeKept(w);
   if (!sw->running || gen != w->sweep_job.gen)
      return; /* ended meanwhile (the device changed), or replaced by a newer sweep */
   /* Measured (and stored) before a stop came: shown too, so that the pane and the store
    * agree on what was done. */
   if (c)
      record(w, i, c, k->name);
   if (stopped || w->sweep_job.stop) {
      Worker_log(w, LOG_WARN, "sweep stopped after %d of %d configurations", sw->done, sw->total);
      sweepEnd(w, true, "stopped");
   } else if (!c) {
      done(w);
   }
}

static bool sweepAsked(const Worker *w) { return w->sweep_job.req; }
static bool sweepRunning(const Worker *w) { return w->sweep->running; }

const WorkerJob SweepJob_begin = {"begin a sweep", sweepAsked, beginSweep};
const WorkerJob SweepJob_step = {"a sweep's next configuration", sweepRunning, stepSweep};

/* ---- the UI's side ---- */

/* Under mu. */
void SweepJob_stop(Worker *w) {
   if (!w->sweep->running && !w->sweep_job.req)
      return;
   w->sweep_job.stop = true;
   atomic_store(&w->sweep_job.cancel, 1);
   if (w->sweep_job.req) {
      /* Not begun yet: it never will. */
      w->sweep_job.req = false;
      w->sweep->running = false;
      w->sweep->stopped = true;
      Util_copy(w->sweep->message, sizeof w->sweep->message, "stopped");
      w->sweep->version++;
   }
}

void Worker_sweepStart(Worker *w, const WorkerConfig *c, int budget, bool exhaustive, SearchStrategy strategy,
                       double timeout_s) {
   pthread_mutex_lock(&w->mu);
   w->sweep_job.cfg = *c;
   w->sweep_job.budget = budget;
   w->sweep_job.exhaustive = exhaustive;
   w->sweep_job.strategy = strategy;
   w->sweep_job.timeout = timeout_s; /* 0: the device's default */
   w->sweep_job.req = true;
   w->sweep_job.stop = false;
   w->sweep_job.gen++;
   atomic_store(&w->sweep_job.cancel, 1); /* a sweep in progress gives way */
   /* Published at once, so that the UI never sees the old sweep as the new one. */
   WorkerSweep *sw = w->sweep;
   unsigned long v = sw->version;
   memset(sw, 0, sizeof *sw);
   sw->version = v + 1;
   sw->started = sw->running = true;
   sw->config = *c;
   sw->strategy = strategy;
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
   if (sw->running && !w->sweep_job.req && !w->sweep_job.stop && sw->total > 0 && w->snap.have_device) {
      Util_copy(out->backend, sizeof out->backend, w->snap.backend);
      out->device = w->snap.device_index;
      out->config = sw->config;
      out->config.ablate = 0;
      n = 0;
      for (int i = sw->done + 1; i < sw->proposed && n < max; i++)
         memcpy(out->values[n++], sw->points[i].values, sizeof out->values[0]);
   }
   pthread_mutex_unlock(&w->mu);
   return n;
}

int Worker_feedAhead(Worker *w, Ahead *a, unsigned long long *posted) {
   WorkerSweepAhead *up = malloc(sizeof *up);
   if (!up)
      return -1;
   int want = 2 * Ahead_threads(a);
   int n = Worker_sweepUpcoming(w, up, want < AHEAD_MAX_JOBS ? want : AHEAD_MAX_JOBS);
   if (n < 0) {
      free(up);
      return -1;
   }
   /* The sweep's device, kernel and problem, never an ablation: what the worker runs. */
   AheadTarget t = Ahead_target(up->backend, up->device, up->config.kernel, &up->config.problem, 0);
   unsigned long long sig = Util_hash(Ahead_targetHash(&t), "sweep", 6);
   sig = Util_hash(sig, &n, sizeof n);
   sig = Util_hash(sig, up->values, sizeof up->values[0] * (size_t)n);
   if (!sig)
      sig = 1;
   if (sig != *posted) {
      Ahead_want(a, &t, (const long long (*)[KERNEL_MAX_PARAMS])up->values, n);
      *posted = sig;
   }
   free(up);
   return n;
}

void Worker_sweepStop(Worker *w) {
   pthread_mutex_lock(&w->mu);
   SweepJob_stop(w);
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

