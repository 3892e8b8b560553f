/* Preparing a lesson: see lessonprep.h. */
#include "core/teach/lessonprep.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/diskcache.h"
#include "base/rng.h"
#include "base/util.h"
#include "core/run/ahead.h"
#include "core/run/trial.h"
#include "core/model/config.h"
#include "core/model/inputs.h"

/* One step's configuration, resolved. */
typedef struct PrepJob_ {
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   unsigned ablate;
   const char *limits;      /* the step's simulated limits ("" none), as its visit has them */
   int same_as;             /* an earlier step with this very configuration (its compile is this one's); -1 none */
   bool compile;            /* to be compiled by the threads */
   bool done;               /* its compile has ended */
   RunStatus status;
   char err[600];
} PrepJob;

typedef struct PrepPool_ {
   Session *s;
   PrepJob *jobs;
   int n;
   int next;                /* the next job a thread takes */
   pthread_mutex_t mu;
   pthread_cond_t cv;
} PrepPool;

static void *compileThread(void *arg) {
   PrepPool *pool = arg;
   for (;;) {
      pthread_mutex_lock(&pool->mu);
      while (pool->next < pool->n && !pool->jobs[pool->next].compile)
         pool->next++;
      if (pool->next >= pool->n) {
         pthread_mutex_unlock(&pool->mu);
         return NULL;
      }
      PrepJob *j = &pool->jobs[pool->next++];
      pthread_mutex_unlock(&pool->mu);
      char err[600] = "";
      RunStatus st = Session_precompile(pool->s, j->k, j->values, &j->p, j->ablate, err, sizeof err);
      pthread_mutex_lock(&pool->mu);
      j->status = st;
      Util_copy(j->err, sizeof j->err, err);
      j->done = true;
      pthread_cond_broadcast(&pool->cv);
      pthread_mutex_unlock(&pool->mu);
   }
}

/* The record of a lesson's prepare on a device: its id in the disk cache. */
static DiskCacheId recordId(const Session *s, const Lesson *l, char *source, size_t len) {
   size_t n = (size_t)snprintf(source, len, "lesson %s:", l->name);
   for (int i = 0; i < l->nsteps && n < len; i++)
      n += (size_t)snprintf(source + n, len - n, " %s", l->steps[i].preset);
   const DeviceInfo *d = Session_device(s);
   return (DiskCacheId){.what = "lesson prepare times", .source = source, .options = "", .device = d->name,
                        .driver = d->driver};
}

double LessonPrep_recorded(const Session *s, const Lesson *l, char *when, size_t whenlen) {
   char source[4096];
   DiskCacheId id = recordId(s, l, source, sizeof source);
   size_t size = 0;
   unsigned char *data = DiskCache_load("lessons", &id, &size);
   if (whenlen)
      when[0] = '\0';
   if (!data)
      return -1;
   char *text = malloc(size + 1);
   double total = -1;
   if (text) {
      memcpy(text, data, size);
      text[size] = '\0';
      char date[64] = "";
      if (sscanf(text, "total %lf date %63[^\n]", &total, date) < 1)
         total = -1;
      Util_copy(when, whenlen, date);
   }
   free(text);
   free(data);
   return total;
}

static void record(const Session *s, const Lesson *l, double total) {
   char source[4096], text[128], date[40] = "";
   DiskCacheId id = recordId(s, l, source, sizeof source);
   time_t now = time(NULL);
   struct tm tm;
   if (gmtime_r(&now, &tm))
      strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", &tm);
   int n = snprintf(text, sizeof text, "total %.1f date %s\n", total, date);
   DiskCache_store("lessons", &id, text, (size_t)n);
}

/* Step i's configuration at the lesson's size, or why it is refused (outcome set). */
static bool resolve(Session *s, const Catalog *cat, const PresetList *presets, const LessonStep *st,
                    const LessonSize *size, PrepJob *j, LessonPrepStep *out) {
   const Preset *pr = PresetList_find(presets, st->preset);
   Problem_setDefaults(&j->p);
   if (!pr) {
      snprintf(out->why, sizeof out->why, "no preset %s", st->preset);
      out->outcome = PREP_FAILED;
      return false;
   }
   if (!Preset_resolve(pr, cat, &j->k, j->values, &j->p, out->why, sizeof out->why)) {
      out->outcome = PREP_FAILED;
      return false;
   }
   const LessonSize one = LessonSize_forStep(size, st);
   LessonSize_apply(&one, &j->p.m, &j->p.n, &j->p.k);
   j->ablate = st->ablate;
   j->limits = st->limits;
   out->m = j->p.m, out->n = j->p.n, out->k = j->p.k;
   DeviceLimits lim = Session_device(s)->limits;
   if (st->limits[0] && Session_simulateLimits(st->limits, &lim, out->why, sizeof out->why) &&
       !Config_check(j->k, j->values, &j->p, &lim, NULL, out->why, sizeof out->why)) {
      out->outcome = PREP_REFUSED_BY_STEP;
      return false;
   }
   if (!Session_check(s, j->k, j->values, &j->p, NULL, NULL, out->why, sizeof out->why) ||
       !Session_fits(s, &j->p, out->why, sizeof out->why)) {
      out->outcome = PREP_REFUSED_BY_DEVICE;
      return false;
   }
   return true;
}

/* The first visit's launch: once, verified on fresh inputs (an ablated run: launched), as
 * one trial (core/run/trial.h) like every other measurement, then the bank pane's trace
 * where the kernel has local-memory sites. */
static void launch(Session *s, const PrepJob *j, LessonPrepStep *out) {
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      snprintf(out->why, sizeof out->why, "out of host memory");
      out->outcome = PREP_FAILED;
      return;
   }
   Inputs in;
   bool have_inputs = false;
   TrialRequest rq = {.kernel = j->k, .values = j->values, .problem = &j->p, .limits = j->limits,
                      .inputs_from = TRIAL_INPUTS_HELD, .seed = Rng_freshSeed(), .held = &in,
                      .have_held = &have_inputs,
                      .run = {.reps = 1, .warmup = 0, .verify = !j->ablate, .ablate = j->ablate}};
   TrialOutcome outcome;
   RunStatus st = Trial_run(s, &rq, r, &outcome);
   if (have_inputs)
      Inputs_free(&in);
   if (st == RUN_OK && !j->ablate && !(r->verified_run && r->verify.ok))
      st = RUN_NOT_VERIFIED;
   if (st != RUN_OK) {
      snprintf(out->why, sizeof out->why, "%s: %s", RunStatus_name(st), r->message);
      out->outcome = st == RUN_INVALID ? PREP_REFUSED_BY_DEVICE : PREP_FAILED;
   } else if (j->k->nsites > 0 && !j->k->ntma && !j->ablate) {
      Trace t;
      RunResult_free(r);
      memset(r, 0, sizeof *r);
      st = Session_trace(s, j->k, j->values, &j->p, 1, false, &t, r);
      Trace_free(&t);
      if (st != RUN_OK) {
         snprintf(out->why, sizeof out->why, "bank trace: %s", r->message);
         out->outcome = PREP_FAILED;
      }
   }
   if (!out->outcome)
      out->outcome = PREP_READY;
   RunResult_free(r);
   free(r);
}

static bool sameJob(const PrepJob *a, const PrepJob *b) {
   return a->k == b->k && a->ablate == b->ablate && Problem_same(&a->p, &b->p) &&
          !memcmp(a->values, b->values, sizeof a->values);
}

int LessonPrep_run(Session *s, const Catalog *cat, const PresetList *presets, const Lesson *l, const LessonSize *size,
                   int threads, LessonPrepProgress progress, void *ctx, LessonPrepStep *out) {
   PrepJob *jobs = calloc((size_t)l->nsteps, sizeof *jobs);
   memset(out, 0, sizeof *out * (size_t)l->nsteps);
   if (!jobs) {
      for (int i = 0; i < l->nsteps; i++) {
         out[i].outcome = PREP_FAILED;
         snprintf(out[i].why, sizeof out[i].why, "out of host memory");
      }
      return l->nsteps;
   }
   char when[64];
   const double recorded = LessonPrep_recorded(s, l, when, sizeof when);
   for (int i = 0; i < l->nsteps; i++) {
      jobs[i].same_as = -1;
      if (!resolve(s, cat, presets, &l->steps[i], size, &jobs[i], &out[i]))
         continue;
      for (int e = 0; e < i && jobs[i].same_as < 0; e++)
         if (jobs[e].compile && sameJob(&jobs[e], &jobs[i]))
            jobs[i].same_as = e;
      jobs[i].compile = jobs[i].same_as < 0;
   }
   /* The compiles go ahead in threads while this thread launches the steps in order. */
   PrepPool pool = {.s = s, .jobs = jobs, .n = l->nsteps};
   pthread_mutex_init(&pool.mu, NULL);
   pthread_cond_init(&pool.cv, NULL);
   if (threads <= 0)
      threads = Ahead_defaultThreads();
   if (threads > LESSONPREP_MAX_THREADS)
      threads = LESSONPREP_MAX_THREADS;
   pthread_t tid[LESSONPREP_MAX_THREADS];
   int started = 0;
   for (int t = 0; t < threads; t++)
      started += !pthread_create(&tid[started], NULL, compileThread, &pool);
   if (!started) /* no thread: compile here, in turn */
      compileThread(&pool);
   double t0 = Util_nowMs();
   if (progress)
      progress(ctx, 0, l->nsteps, l->steps[0].preset, recorded);
   int failed = 0;
   for (int i = 0; i < l->nsteps; i++) {
      double s0 = Util_nowMs();
      PrepJob *j = &jobs[i];
      if (j->k && !out[i].outcome) {
         const PrepJob *c = j->same_as >= 0 ? &jobs[j->same_as] : j;
         pthread_mutex_lock(&pool.mu);
         while (!c->done)
            pthread_cond_wait(&pool.cv, &pool.mu);
         pthread_mutex_unlock(&pool.mu);
         if (c->status == RUN_OK) {
            launch(s, j, &out[i]);
         } else {
            out[i].outcome = c->status == RUN_INVALID ? PREP_REFUSED_BY_DEVICE : PREP_FAILED;
            snprintf(out[i].why, sizeof out[i].why, "%s: %s", RunStatus_name(c->status), c->err);
         }
      }
      out[i].seconds = (Util_nowMs() - s0) / 1000;
      failed += out[i].outcome == PREP_FAILED;
      if (progress) {
         /* The time left: the steps to come at the pace of those done. */
         const double spent = (Util_nowMs() - t0) / 1000;
         const double left = spent / (i + 1) * (l->nsteps - i - 1);
         progress(ctx, i + 1, l->nsteps, i + 1 < l->nsteps ? l->steps[i + 1].preset : "done", left);
      }
   }
   for (int t = 0; t < started; t++)
      pthread_join(tid[t], NULL);
   pthread_mutex_destroy(&pool.mu);
   pthread_cond_destroy(&pool.cv);
   free(jobs);
   /* The record is of a cold cache: a prepare much quicker than the one recorded found its
    * programs compiled already, and says nothing of the next cold one. */
   const double took = (Util_nowMs() - t0) / 1000;
   if (recorded < 0 || took > recorded / 2)
      record(s, l, took);
   return failed;
}
