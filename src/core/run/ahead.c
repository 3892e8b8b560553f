#include "core/run/ahead.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/run/session.h"
#include "base/util.h"

/* ---- the neighbours (pure) ---- */

static bool sameValues(const long long *a, const long long *b, int n) {
   for (int i = 0; i < n; i++)
      if (a[i] != b[i])
         return false;
   return true;
}

int Ahead_neighbours(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                     int first, long long (*out)[KERNEL_MAX_PARAMS], int max) {
   int n = 0;
   if (first < 0 || first >= k->nparams)
      first = -1;
   /* Parameters by distance from the cursor's, the next one before the previous one. */
   int order[KERNEL_MAX_PARAMS], norder = 0;
   if (first < 0) {
      for (int i = 0; i < k->nparams; i++)
         order[norder++] = i;
   } else {
      order[norder++] = first;
      for (int d = 1; norder < k->nparams; d++) {
         if (first + d < k->nparams)
            order[norder++] = first + d;
         if (first - d >= 0)
            order[norder++] = first - d;
      }
   }
   for (int o = 0; o < norder && n < max; o++) {
      int pi = order[o];
      const KernelParam *kp = &k->params[pi];
      int cur = -1;
      for (int i = 0; i < kp->nvalues; i++)
         if (kp->values[i] == values[pi])
            cur = i;
      if (cur < 0)
         continue; /* a value outside the list: Left and Right do not step from it either */
      bool valid[KERNEL_MAX_VALUES];
      Config_validValues(k, values, p, lim, pi, valid);
      static const int dirs[2] = {1, -1};
      for (int d = 0; d < 2 && n < max; d++) {
         int j = cur + dirs[d];
         while (j >= 0 && j < kp->nvalues && !valid[j])
            j += dirs[d];
         if (j < 0 || j >= kp->nvalues)
            continue;
         long long cand[KERNEL_MAX_PARAMS];
         memcpy(cand, values, sizeof cand);
         cand[pi] = kp->values[j];
         bool dup = sameValues(cand, values, k->nparams);
         for (int e = 0; e < n && !dup; e++)
            dup = sameValues(cand, out[e], k->nparams);
         if (!dup)
            memcpy(out[n++], cand, sizeof cand);
      }
   }
   return n;
}

int Ahead_defaultThreads(void) {
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   long t = cores - 1;
   if (t > 2)
      t = 2;
   return t < 1 ? 1 : (int)t;
}

/* ---- the pool ---- */

typedef struct AheadJob_ {
   long long values[KERNEL_MAX_PARAMS];
   unsigned long long key;
   AheadJobState state;
   RunStatus status;          /* of a failed one */
   char *error;               /* why it failed (malloc'ed), NULL if not said */
} AheadJob;

/* Keys of configurations, the newest AHEAD_REMEMBER. */
#define AHEAD_REMEMBER 512
typedef struct KeyRing_ {
   unsigned long long keys[AHEAD_REMEMBER];
   int n, next;
} KeyRing;

static bool ringHas(const KeyRing *r, unsigned long long key) {
   for (int i = 0; i < r->n; i++)
      if (r->keys[i] == key)
         return true;
   return false;
}

static void ringAdd(KeyRing *r, unsigned long long key) {
   if (ringHas(r, key))
      return;
   r->keys[r->next] = key;
   r->next = (r->next + 1) % AHEAD_REMEMBER;
   if (r->n < AHEAD_REMEMBER)
      r->n++;
}

struct Ahead_ {
   pthread_mutex_t mu;
   pthread_cond_t cv;        /* work, a reload, a compile ended, quit */
   pthread_cond_t exit_cv;   /* a thread ended */
   pthread_t threads[AHEAD_MAX_THREADS];
   int nthreads, live;
   bool quit;

   /* The work, under mu. */
   AheadTarget target;
   AheadJob *jobs;
   int njobs, capjobs;
   int next_job;              /* jobs before it are not pending (a list may be long) */
   unsigned long list_generation; /* a new list: a compile of the old one is found by its key */
   bool reload;
   unsigned long cat_generation; /* of the kernel files: compiles of older ones do not count */
   unsigned long version;
   struct {
      unsigned long long key;   /* 0: this thread is not compiling */
      unsigned long cat_generation;
      unsigned long list_generation;
      int job;                  /* its index in that list */
   } running[AHEAD_MAX_THREADS];

   /* The pool's own catalog and session: changed only while no thread compiles. */
   char kernels_dir[1024];
   Catalog cat;
   bool have_cat;
   Session *session;
   char sess_backend[16];
   int sess_device;
   bool sess_failed;          /* opening sess_backend/sess_device failed: not again */
   int busy;                  /* threads inside a compile */
   bool maintaining;          /* a thread is (re)opening the session or the catalog */
   char error[256];

   KeyRing done;              /* compiled ahead */
   KeyRing elsewhere;         /* built by a caller of Ahead_await: never by the pool */
};

AheadTarget Ahead_target(const char *backend, int device, const char *kernel, const Problem *p, unsigned ablate) {
   AheadTarget t;
   memset(&t, 0, sizeof t);
   Util_copy(t.backend, sizeof t.backend, backend);
   t.device = device;
   Util_copy(t.kernel, sizeof t.kernel, kernel);
   t.problem = *p;
   t.ablate = ablate;
   return t;
}

unsigned long long Ahead_targetHash(const AheadTarget *t) {
   unsigned long long h = UTIL_HASH_INIT;
   h = Util_hash(h, t->backend, strlen(t->backend) + 1);
   h = Util_hash(h, &t->device, sizeof t->device);
   h = Util_hash(h, t->kernel, strlen(t->kernel) + 1);
   const Problem *p = &t->problem;
   int dims[7] = {p->m, p->n, p->k, (int)p->precision, p->trans_a, p->trans_b, (int)p->scaling};
   h = Util_hash(h, dims, sizeof dims);
   h = Util_hash(h, &p->alpha, sizeof p->alpha);
   h = Util_hash(h, &p->beta, sizeof p->beta);
   h = Util_hash(h, &t->ablate, sizeof t->ablate);
   return h;
}

static unsigned long long configKey(const AheadTarget *t, const long long *values) {
   unsigned long long h = Util_hash(Ahead_targetHash(t), values, sizeof(long long) * KERNEL_MAX_PARAMS);
   return h ? h : 1;
}

static bool knownLocked(const Ahead *a, unsigned long long key) { return ringHas(&a->done, key); }

static bool runningLocked(const Ahead *a, unsigned long long key) {
   for (int i = 0; i < a->nthreads; i++)
      if (a->running[i].key == key && a->running[i].cat_generation == a->cat_generation)
         return true;
   return false;
}

static bool sessionMatches(const Ahead *a) {
   return !strcmp(a->sess_backend, a->target.backend) && a->sess_device == a->target.device;
}

/* Re-reads the catalog and (re)opens the session for the target, with mu dropped; the
 * caller has made sure that no thread is compiling. */
static void maintain(Ahead *a) {
   a->maintaining = true;
   bool reload = a->reload || !a->have_cat;
   a->reload = false;
   bool reopen = !a->session || !sessionMatches(a);
   char backend[16];
   int device = a->target.device;
   Util_copy(backend, sizeof backend, a->target.backend);
   Session *old = reopen ? a->session : NULL;
   if (reopen)
      a->session = NULL;
   pthread_mutex_unlock(&a->mu);

   char err[512] = "";
   Session_close(old);
   if (reload) {
      Catalog fresh;
      if (Catalog_load(&fresh, a->kernels_dir, err, sizeof err)) {
         /* A session keeps &a->cat, whose address stays the same. */
         if (a->have_cat)
            Catalog_free(&a->cat);
         a->cat = fresh;
         a->have_cat = true;
      }
   }
   Session *s = NULL;
   if (reopen && a->have_cat) {
      const Backend *be = Backend_byName(backend);
      if (!be)
         snprintf(err, sizeof err, "unknown backend '%s'", backend);
      else
         s = Session_open(be, device, &a->cat, err, sizeof err);
   }

   pthread_mutex_lock(&a->mu);
   if (reopen) {
      a->session = s;
      Util_copy(a->sess_backend, sizeof a->sess_backend, backend);
      a->sess_device = device;
      a->sess_failed = !s;
   }
   if (err[0])
      snprintf(a->error, sizeof a->error, "%s", err);
   else if (a->session)
      a->error[0] = '\0';
   a->maintaining = false;
   a->version++;
   pthread_cond_broadcast(&a->cv);
}

static int nextJobLocked(Ahead *a) {
   while (a->next_job < a->njobs && a->jobs[a->next_job].state != AHEAD_PENDING)
      a->next_job++;
   return a->next_job < a->njobs ? a->next_job : -1;
}

static void setOutcomeLocked(AheadJob *job, RunStatus st, const char *err) {
   job->state = st == RUN_OK ? AHEAD_DONE : AHEAD_FAILED;
   job->status = st;
   free(job->error);
   job->error = st != RUN_OK && err && *err ? strdup(err) : NULL;
}

/* Nothing to compile with (the device or the kernels could not be opened). */
static void failPendingLocked(Ahead *a) {
   for (int i = 0; i < a->njobs; i++)
      if (a->jobs[i].state == AHEAD_PENDING)
         setOutcomeLocked(&a->jobs[i], RUN_DEVICE_ERROR, a->error);
   a->version++;
   pthread_cond_broadcast(&a->cv);
}

/* A compile ended: its job, found by index while the list is the same, else by key. */
static void finishJobLocked(Ahead *a, int slot, RunStatus st, const char *err) {
   unsigned long long key = a->running[slot].key;
   if (a->running[slot].list_generation == a->list_generation) {
      AheadJob *job = &a->jobs[a->running[slot].job];
      if (job->state == AHEAD_COMPILING)
         setOutcomeLocked(job, st, err);
      return;
   }
   for (int i = 0; i < a->njobs; i++)
      if (a->jobs[i].key == key && a->jobs[i].state == AHEAD_COMPILING)
         setOutcomeLocked(&a->jobs[i], st, err);
}

typedef struct ThreadArg_ {
   Ahead *a;
   int slot;
} ThreadArg;

static void *aheadMain(void *arg) {
   ThreadArg ta = *(ThreadArg *)arg;
   free(arg);
   Ahead *a = ta.a;
   pthread_mutex_lock(&a->mu);
   while (!a->quit) {
      int j = nextJobLocked(a);
      if (a->maintaining || j < 0) {
         pthread_cond_wait(&a->cv, &a->mu);
         continue;
      }
      bool needCat = a->reload || !a->have_cat;
      bool needSession = !a->session || !sessionMatches(a);
      if (needCat || needSession) {
         /* Swapped only while nobody compiles with the old ones. */
         if (a->busy > 0) {
            pthread_cond_wait(&a->cv, &a->mu);
            continue;
         }
         if (needCat || !(a->sess_failed && sessionMatches(a)))
            maintain(a);
         if (!a->have_cat || !a->session)
            failPendingLocked(a); /* nothing to compile with; a new target tries again */
         continue;
      }
      AheadJob *job = &a->jobs[j];
      job->state = AHEAD_COMPILING;
      unsigned long long key = job->key;
      unsigned long catGen = a->cat_generation;
      a->running[ta.slot].key = key;
      a->running[ta.slot].cat_generation = catGen;
      a->running[ta.slot].list_generation = a->list_generation;
      a->running[ta.slot].job = j;
      a->busy++;
      a->version++;
      AheadTarget t = a->target;
      long long values[KERNEL_MAX_PARAMS];
      memcpy(values, job->values, sizeof values);
      Session *s = a->session;
      pthread_mutex_unlock(&a->mu);

      /* The catalog and the session stay as they are while busy > 0. */
      char err[1024] = "";
      const KernelInfo *k = Catalog_find(&a->cat, t.kernel);
      RunStatus st = k ? Session_precompile(s, k, values, &t.problem, t.ablate, err, sizeof err) : RUN_INVALID;

      pthread_mutex_lock(&a->mu);
      a->busy--;
      if (catGen == a->cat_generation) {
         if (st == RUN_OK)
            ringAdd(&a->done, key);
         finishJobLocked(a, ta.slot, st, err);
      }
      a->running[ta.slot].key = 0;
      a->version++;
      pthread_cond_broadcast(&a->cv);
   }
   a->live--;
   pthread_cond_broadcast(&a->exit_cv);
   pthread_mutex_unlock(&a->mu);
   return NULL;
}

Ahead *Ahead_start(const char *kernels_dir, int threads, char *err, size_t errlen) {
   Ahead *a = calloc(1, sizeof *a);
   if (!a) {
      snprintf(err, errlen, "out of memory");
      return NULL;
   }
   Util_copy(a->kernels_dir, sizeof a->kernels_dir, kernels_dir);
   a->sess_device = -1;
   pthread_mutex_init(&a->mu, NULL);
   pthread_condattr_t ca;
   pthread_condattr_init(&ca);
   pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
   pthread_cond_init(&a->cv, &ca);
   pthread_cond_init(&a->exit_cv, &ca);
   pthread_condattr_destroy(&ca);
   if (threads < 1)
      threads = 1;
   if (threads > AHEAD_MAX_THREADS)
      threads = AHEAD_MAX_THREADS;
   /* The signals that the explorer handles go to its UI thread, never to these (faults
    * stay deliverable, so that a crash still restores the terminal). */
   sigset_t all, old;
   sigemptyset(&all);
   int sigs[] = {SIGINT, SIGTERM, SIGWINCH, SIGTSTP, SIGCONT, SIGQUIT, SIGHUP, SIGPIPE, SIGTTIN, SIGTTOU};
   for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
      sigaddset(&all, sigs[i]);
   pthread_sigmask(SIG_BLOCK, &all, &old);
   pthread_mutex_lock(&a->mu);
   for (int i = 0; i < threads; i++) {
      ThreadArg *ta = malloc(sizeof *ta);
      int rc = ta ? 0 : ENOMEM;
      if (ta) {
         ta->a = a;
         ta->slot = i;
         rc = pthread_create(&a->threads[i], NULL, aheadMain, ta);
         if (rc != 0)
            free(ta);
      }
      if (rc != 0) {
         snprintf(err, errlen, "cannot start a compile-ahead thread: %s", strerror(rc));
         break;
      }
      a->nthreads++;
      a->live++;
   }
   pthread_mutex_unlock(&a->mu);
   pthread_sigmask(SIG_SETMASK, &old, NULL);
   if (a->nthreads == 0) {
      pthread_cond_destroy(&a->cv);
      pthread_cond_destroy(&a->exit_cv);
      pthread_mutex_destroy(&a->mu);
      free(a);
      return NULL;
   }
   return a;
}

static void clearJobsLocked(Ahead *a) {
   for (int i = 0; i < a->njobs; i++)
      free(a->jobs[i].error);
   a->njobs = 0;
   a->next_job = 0;
   a->list_generation++;
}

bool Ahead_stop(Ahead *a, int timeout_ms) {
   if (!a)
      return true;
   pthread_mutex_lock(&a->mu);
   a->quit = true;
   clearJobsLocked(a);
   pthread_cond_broadcast(&a->cv);
   struct timespec ts;
   Util_deadline(&ts, timeout_ms);
   while (a->live > 0)
      if (pthread_cond_timedwait(&a->exit_cv, &a->mu, &ts) == ETIMEDOUT)
         break;
   bool done = a->live == 0;
   pthread_mutex_unlock(&a->mu);
   if (!done)
      return false;
   for (int i = 0; i < a->nthreads; i++)
      pthread_join(a->threads[i], NULL);
   clearJobsLocked(a);
   free(a->jobs);
   Session_close(a->session);
   if (a->have_cat)
      Catalog_free(&a->cat);
   pthread_cond_destroy(&a->cv);
   pthread_cond_destroy(&a->exit_cv);
   pthread_mutex_destroy(&a->mu);
   free(a);
   return true;
}

bool Ahead_want(Ahead *a, const AheadTarget *t, const long long (*configs)[KERNEL_MAX_PARAMS], int n) {
   if (n < 0)
      n = 0;
   pthread_mutex_lock(&a->mu);
   clearJobsLocked(a);
   bool room = true;
   if (n > a->capjobs) {
      AheadJob *more = realloc(a->jobs, sizeof *more * (size_t)n);
      if (more) {
         a->jobs = more;
         a->capjobs = n;
      } else {
         room = false;
         n = 0;
      }
   }
   if (strcmp(a->target.backend, t->backend) || a->target.device != t->device)
      a->sess_failed = false; /* another device: worth a try */
   a->target = *t;
   a->njobs = n;
   for (int i = 0; i < n; i++) {
      AheadJob *j = &a->jobs[i];
      memset(j, 0, sizeof *j);
      memcpy(j->values, configs[i], sizeof j->values);
      j->key = configKey(t, configs[i]);
      /* One being compiled for an older list ends as this list's (finishJobLocked). */
      j->state = knownLocked(a, j->key)                ? AHEAD_DONE
                 : ringHas(&a->elsewhere, j->key)     ? AHEAD_SKIPPED
                 : runningLocked(a, j->key)           ? AHEAD_COMPILING
                                                      : AHEAD_PENDING;
   }
   a->version++;
   pthread_cond_broadcast(&a->cv);
   pthread_mutex_unlock(&a->mu);
   return room;
}

void Ahead_drop(Ahead *a) {
   pthread_mutex_lock(&a->mu);
   if (a->njobs > 0) {
      clearJobsLocked(a);
      a->version++;
   }
   pthread_mutex_unlock(&a->mu);
}

void Ahead_reload(Ahead *a) {
   pthread_mutex_lock(&a->mu);
   a->reload = true;
   a->cat_generation++;
   a->done.n = a->done.next = 0;
   a->elsewhere.n = a->elsewhere.next = 0; /* the caller builds them anew from the new files */
   for (int i = 0; i < a->njobs; i++)
      a->jobs[i].state = AHEAD_PENDING;
   a->next_job = 0;
   a->version++;
   pthread_cond_broadcast(&a->cv);
   pthread_mutex_unlock(&a->mu);
}

void Ahead_status(Ahead *a, AheadStatus *out) {
   memset(out, 0, sizeof *out);
   pthread_mutex_lock(&a->mu);
   out->version = a->version;
   out->wanted = a->njobs;
   for (int i = 0; i < a->njobs; i++) {
      out->done += a->jobs[i].state == AHEAD_DONE || a->jobs[i].state == AHEAD_SKIPPED;
      out->failed += a->jobs[i].state == AHEAD_FAILED;
      out->running += a->jobs[i].state == AHEAD_COMPILING;
   }
   Util_copy(out->error, sizeof out->error, a->error);
   pthread_mutex_unlock(&a->mu);
}

int Ahead_threads(Ahead *a) {
   pthread_mutex_lock(&a->mu);
   int n = a->nthreads;
   pthread_mutex_unlock(&a->mu);
   return n;
}

bool Ahead_await(Ahead *a, const AheadTarget *t, const long long *values, atomic_int *stop1, atomic_int *stop2) {
   unsigned long long key = configKey(t, values);
   pthread_mutex_lock(&a->mu);
   ringAdd(&a->elsewhere, key);
   for (int i = 0; i < a->njobs; i++)
      if (a->jobs[i].key == key && a->jobs[i].state == AHEAD_PENDING) {
         a->jobs[i].state = AHEAD_SKIPPED;
         a->version++;
      }
   /* In short slices: the stop flags are not signalled through cv. */
   while (!a->quit && runningLocked(a, key) && !atomic_load(stop1) && !atomic_load(stop2)) {
      struct timespec ts;
      Util_deadline(&ts, 20);
      pthread_cond_timedwait(&a->cv, &a->mu, &ts);
   }
   bool known = knownLocked(a, key);
   pthread_mutex_unlock(&a->mu);
   return known;
}

bool Ahead_compiled(Ahead *a, const AheadTarget *t, const long long *values) {
   pthread_mutex_lock(&a->mu);
   bool known = knownLocked(a, configKey(t, values));
   pthread_mutex_unlock(&a->mu);
   return known;
}

static bool allEndedLocked(const Ahead *a) {
   for (int i = 0; i < a->njobs; i++)
      if (a->jobs[i].state == AHEAD_PENDING || a->jobs[i].state == AHEAD_COMPILING)
         return false;
   return true;
}

bool Ahead_wait(Ahead *a, int timeout_ms) {
   struct timespec ts;
   Util_deadline(&ts, timeout_ms);
   pthread_mutex_lock(&a->mu);
   bool ended = allEndedLocked(a);
   while (!ended && !a->quit && pthread_cond_timedwait(&a->cv, &a->mu, &ts) != ETIMEDOUT)
      ended = allEndedLocked(a);
   ended = allEndedLocked(a);
   pthread_mutex_unlock(&a->mu);
   return ended;
}

AheadJobState Ahead_job(Ahead *a, int i, RunStatus *status, char *err, size_t errlen) {
   pthread_mutex_lock(&a->mu);
   AheadJobState st = AHEAD_PENDING;
   *status = RUN_OK;
   if (errlen)
      err[0] = '\0';
   if (i >= 0 && i < a->njobs) {
      const AheadJob *job = &a->jobs[i];
      st = job->state;
      if (st == AHEAD_FAILED) {
         *status = job->status;
         Util_copy(err, errlen, job->error ? job->error : "");
      }
   }
   pthread_mutex_unlock(&a->mu);
   return st;
}
