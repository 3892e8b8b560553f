/* The sweep pane's sweeps, run by the worker: the kernel's valid configurations on one
 * problem, a random sample (or all), each compiled (or loaded from the disk cache, where
 * the compile-ahead pool put it), verified and timed in turn; and the UI's side of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "explorer/worker_int.h"

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
   Worker_publish(w);
}

/* The configurations to try: the first of the shuffled valid ones, up to the budget. */
static void pick(Worker *w, const KernelInfo *k, int budget, bool exhaustive) {
   WorkerSweep *sw = w->sweep;
   const SweepSpace *sp = &w->sweep_space;
   const Problem *p = &sw->config.problem;
   int n = exhaustive || budget <= 0 || budget > sp->count ? sp->count : budget;
   if (n > WORKER_SWEEP_MAX)
      n = WORKER_SWEEP_MAX;
   sw->total = n;
   sw->exhaustive = n == sp->count;
   for (int i = 0; i < n; i++) {
      memcpy(sw->points[i].values, sp->cands[i].values, sizeof sw->points[i].values);
      sw->points[i].outcome = SWEEP_PENDING;
   }
   sw->started_ms = Util_nowMs();
   sw->version++;
   Worker_log(w, LOG_INFO, "sweep of %s on %dx%dx%d: %.0f configurations, %d invalid, %d valid; trying %d (%s)",
              k->name, p->m, p->n, p->k, sp->space, sp->invalid, sp->count, n, sw->exhaustive ? "all" : "random sample");
}

/* Lists the kernel's valid configurations and picks those to try. */
void SweepJob_begin(Worker *w) {
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
      Worker_log(w, LOG_ERROR, "sweep: %s", msg);
      sweepEnd(w, false, msg);
      return;
   }
   Worker_setState(w, WS_SWEEPING, "sweep of %s: listing its valid configurations", k->name);
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
      Worker_log(w, LOG_ERROR, "sweep of %s: out of host memory", k->name);
      return;
   }
   if (!fits) {
      sweepEnd(w, false, msg);
      Worker_log(w, LOG_ERROR, "sweep of %s: %s", k->name, msg);
      return;
   }
   if (sp->count == 0) {
      snprintf(msg, sizeof msg, "no valid configuration of %s for this problem and device (%d invalid; e.g. %s)",
               k->name, sp->invalid, sp->first_invalid);
      Worker_log(w, LOG_WARN, "sweep: %s", msg);
      sweepEnd(w, false, msg);
      return;
   }
   w->sweep->emulated = k->tensor && !Config_tensorPtx(k, &lim, cfg.problem.precision);
   pick(w, k, budget, exhaustive);
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
   if (best >= 0)
      Worker_log(w, LOG_GOOD, "sweep of %s done: %d of %d verified; best %.2f GFLOPS with %s", sw->config.kernel,
                 sw->counts[SWEEP_OK], sw->total, sw->points[best].gflops, params);
   else
      Worker_log(w, LOG_WARN, "sweep of %s done: no configuration verified", sw->config.kernel);
   sweepEnd(w, false, "done");
}

/* A tried configuration into the results store, under the key that `gemmtop sweep` gives
 * the same space (every parameter free), so that a command-line sweep resumes from it. */
static void storePoint(Worker *w, const KernelInfo *k, const SweepCandidate *c, const RunResult *r) {
   const WorkerSweep *sw = w->sweep;
   RecordPlace at = {w->snap.backend, &w->snap.device};
   unsigned all = k->nparams >= 32 ? ~0u : (1u << k->nparams) - 1;
   char key[33];
   Record_sweepKey(&at, k, &sw->config.problem, sw->config.values, all, sw->config.cold_l2, key);
   StoreRecord rec;
   Record_fromCandidate(&rec, "sweep", &at, k, &sw->config.problem, c, sw->emulated, sw->config.cold_l2, key);
   if (c->outcome == SWEEP_OK) {
      rec.reps = r->reps;
      rec.min_ms = r->min_ms, rec.max_ms = r->max_ms, rec.spread_pct = r->spread_pct;
      rec.obs = r->obs;
   }
   Measure_store(w, &rec);
}

/* The outcome of the configuration tried (point i), and why one was skipped. */
static void record(Worker *w, int i, SweepCandidate *c, const RunResult *r, const char *name, const char *params) {
   WorkerSweep *sw = w->sweep;
   WorkerSweepPoint *pt = &sw->points[i];
   pt->outcome = c->outcome;
   pt->gflops = c->gflops;
   pt->median_ms = c->median_ms;
   pt->compile_ms = r->compile_ms;
   pt->cached = r->cached;
   sw->cached += pt->cached;
   sw->counts[c->outcome]++;
   sw->done++;
   sw->elapsed_ms = Util_nowMs() - sw->started_ms;
   if (c->outcome != SWEEP_OK) {
      char *nl = strchr(c->reason, '\n');
      if (nl)
         *nl = '\0';
      snprintf(sw->last_skip, sizeof sw->last_skip, "%s: %s: %s", params, SweepOutcome_name(c->outcome), c->reason);
      Worker_log(w, LOG_WARN, "sweep: %s %s", name, sw->last_skip);
   }
   sw->version++;
   Worker_publish(w);
}

/* Compiles, verifies and times the sweep's next configuration. */
void SweepJob_step(Worker *w) {
   WorkerSweep *sw = w->sweep;
   if (w->sweep_stop) {
      Worker_log(w, LOG_WARN, "sweep stopped after %d of %d configurations", sw->done, sw->total);
      sweepEnd(w, true, "stopped");
      return;
   }
   if (sw->done >= sw->total) {
      done(w);
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
   Worker_setState(w, WS_SWEEPING, "sweep %d/%d: %s %s", i + 1, sw->total, k->name, params);
   double timeout = Sweep_timeout(w->sweep_timeout, &w->snap.device);
   Session *s = w->session;
   RunResult *r = w->res;
   RunOptions ro = {.reps = SWEEP_REPS, .warmup = 1, .verify = true, .max_seconds = SWEEP_SECONDS,
                    .cancel = &w->sweep_cancel, .cold_l2 = cfg.cold_l2};
   unsigned long gen = w->sweep_gen;
   /* The sweep's target as the explorer feeds it to the pool (Worker_feedAhead). */
   AheadTarget t = Ahead_target(w->snap.backend, w->snap.device_index, cfg.kernel, &cfg.problem, 0);
   Worker_awaitAhead(w, &t, c.values, &w->sweep_cancel);
   /* Stopped while waiting: not run, so not compiled a second time beside the pool. */
   bool stopped = atomic_load(&w->sweep_cancel) != 0;
   pthread_mutex_unlock(&w->mu);
   RunStatus st = stopped ? RUN_CANCELLED : Session_run(s, k, c.values, &cfg.problem, &w->in, &ro, r);
   pthread_mutex_lock(&w->mu);
   if (!sw->running || gen != w->sweep_gen)
      return; /* ended meanwhile (the device changed), or replaced by a newer sweep */
   if (st == RUN_CANCELLED || w->sweep_stop) {
      Worker_log(w, LOG_WARN, "sweep stopped after %d of %d configurations", sw->done, sw->total);
      sweepEnd(w, true, "stopped");
      return;
   }
   Sweep_classify(&c, st, r, timeout);
   storePoint(w, k, &c, r);
   record(w, i, &c, r, k->name, params);
}

/* ---- the UI's side ---- */

/* Under mu. */
void SweepJob_stop(Worker *w) {
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
   w->sweep_timeout = timeout_s; /* 0: the device's default */
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

