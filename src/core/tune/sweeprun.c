#include "core/tune/sweeprun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diskcache.h"
#include "base/util.h"
#include "core/run/ahead.h"

struct SweepRun_ {
   SweepSetup setup;
   long long base[KERNEL_MAX_PARAMS];
   SweepSpace space;
   Search *search;
   MeasureJob job;
   Measurer *measurer;       /* started at the first measurement */
   SweepCandidate *tried;    /* [0..n): taken from the store, then proposed in turn */
   int *index;               /* [n]: each tried one's index in the space (-1: outside it) */
   int n, cap;
   int measured;             /* tried[0..measured) have their outcome; the rest are pending */
   int budget, taken, retried;
   bool another, out_of_time, oom;
   int running;              /* Store_sweepBegin's mark, -1 none */
   char key[33];
};

static bool grow(SweepRun *r) {
   if (r->n < r->cap)
      return true;
   int cap = r->cap ? 2 * r->cap : 64;
   SweepCandidate *t = realloc(r->tried, sizeof *t * (size_t)cap);
   if (!t)
      return false;
   r->tried = t;
   int *ix = realloc(r->index, sizeof *ix * (size_t)cap);
   if (!ix)
      return false;
   r->index = ix;
   r->cap = cap;
   return true;
}

static bool addTried(SweepRun *r, const SweepCandidate *c, int index) {
   if (!grow(r))
      return false;
   r->tried[r->n] = *c;
   r->index[r->n++] = index;
   return true;
}

/* ---- resuming from the store ---- */

typedef struct Stored_ {
   const KernelInfo *k;
   SweepCandidate *all;
   int nall;
   bool *taken;      /* [nall]: its outcome is the store's */
} Stored;

/* A configuration whose latest stored outcome is "failed" (out of memory, a device error:
 * not the configuration's own doing, perhaps passing) is measured again on resuming; the
 * others (ok, invalid, compile failed, wrong result, timeout) are the configuration's and
 * are kept. */
static bool keptOnResume(const SweepCandidate *c) { return c->outcome != SWEEP_FAILED; }

static bool takeRecord(const StoreRecord *rec, void *ctx) {
   Stored *st = ctx;
   long long values[KERNEL_MAX_PARAMS];
   if (!Record_parseParams(st->k, rec->params, values))
      return true;
   size_t bytes = sizeof values[0] * (size_t)st->k->nparams;
   for (int i = 0; i < st->nall; i++)
      if (!memcmp(st->all[i].values, values, bytes)) {
         /* Oldest first: a later record of the same configuration (--fresh) wins. */
         Record_toCandidate(rec, &st->all[i]);
         st->taken[i] = keptOnResume(&st->all[i]);
         break;
      }
   return true;
}

/* The configurations that the store has under the sweep's key take their outcome from it
 * and are known to the strategy, but for those that failed: measured again. */
static bool resume(SweepRun *r) {
   const SweepSetup *su = &r->setup;
   if (!su->store || su->fresh)
      return true;
   bool *taken = calloc((size_t)r->space.count + 1, sizeof *taken);
   if (!taken)
      return false;
   Stored st = {su->k, r->space.cands, r->space.count, taken};
   StoreFilter f;
   StoreFilter_init(&f);
   f.sweep_key = r->key;
   char err[1536];
   /* A store that cannot be read resumes nothing: everything is measured. */
   Store_query(su->store, &f, takeRecord, &st, err, sizeof err);
   bool ok = true;
   for (int i = 0; i < r->space.count && ok; i++) {
      SweepCandidate *c = &r->space.cands[i];
      if (taken[i]) {
         Search_know(r->search, i, c->outcome, c->gflops);
         ok = addTried(r, c, i);
         r->taken++;
      } else if (c->outcome == SWEEP_FAILED) {
         r->retried++;
         c->outcome = SWEEP_PENDING; /* to be measured in this run */
         c->reason[0] = '\0';
      }
   }
   r->measured = r->n;
   free(taken);
   return ok;
}

SweepRun *SweepRun_open(const SweepSetup *setup, SweepSpace *space) {
   SweepRun *r = calloc(1, sizeof *r);
   if (!r)
      return NULL;
   r->setup = *setup;
   memcpy(r->base, setup->base, sizeof r->base);
   r->setup.base = r->base;
   r->space = *space;
   memset(space, 0, sizeof *space);
   r->running = -1;
   const SweepSetup *su = &r->setup;
   RecordPlace at = {su->backend, su->dev};
   Record_sweepKey(&at, su->k, &su->problem, r->base, su->free_mask, su->cold_l2, r->key);
   MeasureJob *j = &r->job;
   j->device = su->dev->index;
   j->problem = su->problem;
   j->seed = su->seed;
   j->reps = su->reps;
   j->warmup = su->warmup;
   j->timeout_s = su->timeout_s;
   j->cold_l2 = su->cold_l2;
   Util_copy(j->backend, sizeof j->backend, su->backend);
   Util_copy(j->kernel, sizeof j->kernel, su->k->name);
   Util_copy(j->kernels_dir, sizeof j->kernels_dir, su->kernels_dir);
   if (su->server) {
      Util_copy(j->server, sizeof j->server, su->server);
      Util_copy(j->upload, sizeof j->upload, su->k->path);
      j->device = su->server_device;
   }
   r->search = Search_new(su->strategy, &r->space, su->k->nparams, su->seed);
   if (su->store)
      r->running = Store_sweepBegin(su->store, r->key, &r->another);
   if (!r->search || !resume(r)) {
      SweepRun_close(r);
      return NULL;
   }
   int count = r->space.count;
   r->budget = su->budget > 0 && su->budget < count ? su->budget : count;
   if (r->budget < r->taken)
      r->budget = r->taken; /* what the store had counts in the budget, and all of it is shown */
   return r;
}

void SweepRun_close(SweepRun *r) {
   if (!r)
      return;
   Measurer_free(r->measurer);
   Search_free(r->search);
   SweepSpace_free(&r->space);
   Store_sweepEnd(r->running);
   free(r->tried);
   free(r->index);
   free(r);
}

const SweepSetup *SweepRun_setup(const SweepRun *r) { return &r->setup; }
const SweepSpace *SweepRun_space(const SweepRun *r) { return &r->space; }
int SweepRun_budget(const SweepRun *r) { return r->budget; }
int SweepRun_taken(const SweepRun *r) { return r->taken; }
int SweepRun_retried(const SweepRun *r) { return r->retried; }
bool SweepRun_another(const SweepRun *r) { return r->another; }
const char *SweepRun_key(const SweepRun *r) { return r->key; }
bool SweepRun_learns(const SweepRun *r) { return r->setup.strategy >= SEARCH_ANNEAL; }

static bool outOfTime(SweepRun *r) {
   const SweepSetup *su = &r->setup;
   if (su->time_budget_s > 0 && Util_nowMs() - su->t0 >= su->time_budget_s * 1000)
      r->out_of_time = true;
   return r->out_of_time;
}

bool SweepRun_outOfTime(const SweepRun *r) { return r->out_of_time; }

/* ---- measuring here ---- */

int SweepRun_propose(SweepRun *r, int max) {
   int got = 0;
   if (outOfTime(r))
      return 0;
   for (int i; got < max && r->n < r->budget && (i = Search_ask(r->search)) >= 0; got++)
      if (!addTried(r, &r->space.cands[i], i)) {
         r->oom = true;
         break;
      }
   return got;
}

int SweepRun_pending(SweepRun *r, SweepCandidate **first) {
   *first = &r->tried[r->measured];
   return r->n - r->measured;
}

void SweepRun_record(const SweepRun *r, const DeviceInfo *dev, const SweepCandidate *c) {
   const SweepSetup *su = &r->setup;
   if (!su->record)
      return;
   RecordPlace at = {su->backend, dev ? dev : su->dev};
   StoreRecord rec;
   Record_fromCandidate(&rec, "sweep", &at, su->k, &su->problem, c, su->emulated, su->cold_l2, r->key);
   rec.reps = c->outcome == SWEEP_OK ? su->reps : 0;
   su->record(su->record_ctx, &rec);
}

/* Verifies and times c in the measuring child, unless the compile-ahead pool found that it
 * does not compile. False when stopped (c stays pending). */
static bool measure(SweepRun *r, SweepCandidate *c, const atomic_int *cancel) {
   if (c->outcome == SWEEP_COMPILE)
      return true;
   if (!r->measurer && !(r->measurer = Measurer_new(&r->job))) {
      c->outcome = SWEEP_FAILED;
      snprintf(c->reason, sizeof c->reason, "out of host memory");
      return true;
   }
   return Measurer_run(r->measurer, c->values, r->setup.k->nparams, cancel, c);
}

const SweepCandidate *SweepRun_measureNext(SweepRun *r, const atomic_int *cancel, bool *stopped) {
   *stopped = false;
   if (r->measured >= r->n || outOfTime(r))
      return NULL;
   SweepCandidate *c = &r->tried[r->measured];
   if (!measure(r, c, cancel)) {
      *stopped = true;
      return NULL;
   }
   SweepRun_record(r, NULL, c);
   if (r->index[r->measured] >= 0)
      Search_tell(r->search, r->index[r->measured], c->outcome, c->gflops);
   r->measured++;
   return c;
}

bool SweepRun_measureExtra(SweepRun *r, const long long *values) {
   SweepCandidate c;
   memset(&c, 0, sizeof c);
   memcpy(c.values, values, sizeof c.values);
   measure(r, &c, NULL);
   SweepRun_record(r, NULL, &c);
   if (!addTried(r, &c, -1))
      return false;
   r->measured = r->n;
   return true;
}

/* The compile-ahead pool: its own session on the same device, jobs threads. NULL (and
 * said) when it cannot start: the runs compile instead. */
static Ahead *startPool(const SweepRun *r, int jobs, const SweepEvents *ev) {
   if (r->setup.server)
      return NULL; /* the server compiles each configuration */
   if (jobs <= 0) {
      long cores = sysconf(_SC_NPROCESSORS_ONLN);
      jobs = (int)(cores > 0 ? cores : 1);
   }
   if (jobs > AHEAD_MAX_THREADS)
      jobs = AHEAD_MAX_THREADS;
   char err[1024], text[1100];
   Ahead *pool = Ahead_start(r->setup.kernels_dir, jobs, err, sizeof err);
   if (!pool && ev->note) {
      snprintf(text, sizeof text, "compiling one by one: %s", err);
      ev->note(ev->ctx, text);
   }
   return pool;
}

static void progress(const SweepEvents *ev, const char *phase, int done, int total, double since, const char *best) {
   if (ev->progress)
      ev->progress(ev->ctx, phase, done, total, since, best);
}

/* Compiles the pending configurations into the disk cache with the pool, so that the
 * measuring child loads them; one that does not compile is marked with the compiler's
 * message and not run. */
static void compileAhead(SweepRun *r, Ahead *pool, bool show, const SweepEvents *ev) {
   SweepCandidate *c;
   int n = SweepRun_pending(r, &c);
   long long (*values)[KERNEL_MAX_PARAMS] = malloc(sizeof *values * (size_t)(n > 0 ? n : 1));
   if (!values)
      return;
   for (int i = 0; i < n; i++)
      memcpy(values[i], c[i].values, sizeof values[i]);
   const SweepSetup *su = &r->setup;
   AheadTarget t = Ahead_target(su->backend, su->dev->index, su->k->name, &su->problem, 0);
   Ahead_want(pool, &t, (const long long (*)[KERNEL_MAX_PARAMS])values, n);
   free(values);
   AheadStatus st;
   do {
      Ahead_status(pool, &st);
      if (show)
         progress(ev, "compiling", st.done + st.failed, n, su->t0, "");
   } while (!Ahead_wait(pool, 100));
   if (show)
      progress(ev, "compiling", n, n, su->t0, NULL);
   Ahead_status(pool, &st);
   char err[1024], text[1200];
   if (st.error[0] && ev->note) {
      snprintf(text, sizeof text, "compiling ahead: %s; the runs compile instead", st.error);
      ev->note(ev->ctx, text);
   }
   for (int i = 0; i < n; i++) {
      RunStatus rs;
      if (Ahead_job(pool, i, &rs, err, sizeof err) == AHEAD_FAILED && rs == RUN_COMPILE_ERROR) {
         c[i].outcome = SWEEP_COMPILE;
         snprintf(c[i].reason, sizeof c[i].reason, "%s", err);
      }
   }
}

bool SweepRun_measureAll(SweepRun *r, int jobs, const SweepEvents *ev) {
   static const SweepEvents quiet = {0};
   if (!ev)
      ev = &quiet;
   const SweepSetup *su = &r->setup;
   bool compile = DiskCache_enabled() && r->budget - r->n > 1;
   Ahead *pool = compile ? startPool(r, jobs, ev) : NULL;
   bool stepwise = SweepRun_learns(r) || su->time_budget_s > 0;
   int batch = stepwise ? (pool ? Ahead_threads(pool) : 1) : r->budget;
   char best[256] = "";
   double bestGflops = 0, t1 = Util_nowMs();
   while (r->n < r->budget) {
      if (SweepRun_propose(r, batch) == 0)
         break;
      if (pool)
         compileAhead(r, pool, !stepwise, ev);
      const SweepCandidate *c;
      bool stopped;
      for (;;) {
         progress(ev, "running", r->measured, r->budget, t1, best);
         if (!(c = SweepRun_measureNext(r, NULL, &stopped)))
            break;
         if (c->outcome == SWEEP_OK && !su->emulated && c->gflops > bestGflops) {
            bestGflops = c->gflops;
            char params[200];
            KernelInfo_formatParams(su->k, c->values, params, sizeof params);
            snprintf(best, sizeof best, "best %.1f GFLOPS (%s)", c->gflops, params);
         }
      }
      if (r->out_of_time) {
         r->n = r->measured; /* proposed, never measured */
         break;
      }
   }
   progress(ev, "running", r->measured, r->budget, t1, NULL);
   /* Idle now: its threads end at once. The measuring child ends too: a sweep of many
    * sizes keeps one device context at a time (measureExtra starts another). */
   Ahead_stop(pool, 10000);
   Measurer_free(r->measurer);
   r->measurer = NULL;
   return !r->oom;
}

/* ---- measured by a driver ---- */

int SweepRun_drive(SweepRun *r, const SweepDriver *d, bool tty, SweepModel *models, int *nmodels) {
   int from = r->n;
   for (int i; r->n < r->budget && (i = Search_ask(r->search)) >= 0;)
      if (!addTried(r, &r->space.cands[i], i))
         return -1;
   const SweepSetup *su = &r->setup;
   SweepWork work = {.k = su->k, .job = &r->job, .dev = su->dev, .base = r->base, .free_mask = su->free_mask,
                     .emulated = su->emulated, .tty = tty, .t0 = su->t0, .run = r, .kernels_dir = su->kernels_dir};
   int rc = d->measure(d->ctx, &work, &r->tried[from], r->n - from, models, nmodels);
   for (int b = from; b < r->n && !rc; b++)
      Search_tell(r->search, r->index[b], r->tried[b].outcome, r->tried[b].gflops);
   r->measured = r->n;
   return rc;
}

/* ---- the outcome ---- */

SweepCandidate *SweepRun_tried(SweepRun *r, int *n) {
   *n = r->n;
   return r->tried;
}

int SweepRun_find(const SweepRun *r, const long long *values) {
   for (int i = 0; i < r->n; i++)
      if (!memcmp(r->tried[i].values, values, sizeof *values * (size_t)r->setup.k->nparams))
         return i;
   return -1;
}

static int compareGflops(const void *a, const void *b) {
   const SweepCandidate *x = a, *y = b;
   if (x->outcome != y->outcome)
      return (x->outcome != SWEEP_OK) - (y->outcome != SWEEP_OK);
   return (x->gflops < y->gflops) - (x->gflops > y->gflops);
}

void SweepRun_rank(SweepRun *r, int *counts) {
   /* Only what was measured: a budget spent before the first result leaves none. */
   r->n = r->measured;
   if (!r->setup.emulated && r->n > 1)
      qsort(r->tried, (size_t)r->n, sizeof *r->tried, compareGflops);
   for (int i = 0; i < r->n; i++)
      r->index[i] = -1; /* the order is no longer the search's */
   memset(counts, 0, sizeof(int) * SWEEP_OUTCOMES);
   for (int i = 0; i < r->n; i++)
      counts[r->tried[i].outcome]++;
}
