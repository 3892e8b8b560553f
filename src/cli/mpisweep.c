/* gemmtop sweep --mpi: see mpisweep.h. Rank 0 runs cli_sweep.c's workflow with a driver
 * (coordinate) that hands the configurations out; every rank measures in a Worker thread
 * of its own, so that its main thread (the only one that calls MPI) never waits on a
 * measurement: rank 0's coordinates, the others' relay and say every second that they
 * live, which lets a job started with mpirun --enable-recovery go on without a rank that
 * died. Waits poll with a growing sleep, never a spinning receive: ranks oversubscribe
 * cores. */
#include "cli/mpisweep.h"

#include <stdio.h>

#ifndef GEMMTOP_MPI

int MpiSweep_main(const CommandArgs *o) {
   fprintf(stderr,
           "gemmtop: --mpi%s needs a gemmtop built with MPI, and this one was built without it: install Open MPI "
           "(Debian, Ubuntu: sudo apt install openmpi-bin libopenmpi-dev) or MPICH, then run make again "
           "(docs/mpi.md)\n",
           o->sweep->mpi ? "" : "-simulate");
   return 2;
}

#else

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "backend/backend.h"
#include "cli/cli_sweep.h"
#include "core/sweep/measurer.h"
#include "core/run/ahead.h"
#include "base/diskcache.h"
#include "base/util.h"

enum { TAG_HELLO = 1, TAG_WORK, TAG_RESULT, TAG_STOP, TAG_VENDOR, TAG_ALIVE };

/* A rank says it lives this often while it measures; rank 0 takes one silent for longer
 * than it allows (silenceAllowed: at least SILENT_MS, more when the job has shown long
 * silences or long configurations) as dead (killed, or its node lost) and gives its
 * configuration to another rank. Silence counts only while rank 0 listens. */
enum { ALIVE_MS = 1000, SILENT_MS = 20000 };

/* Rank 0 to all, once: what to measure (go 0: nothing, rank 0 stopped before). */
typedef struct JobMsg_ {
   int go;
   MeasureJob job;            /* device: each rank picks its own */
   int nparams;
   int nsim;                  /* --mpi-simulate: recorded times that follow (ms per configuration) */
   DeviceInfo dev;            /* rank 0's, for simulated ranks */
} JobMsg;

/* A rank to rank 0 when it is ready to measure, or cannot. */
typedef struct HelloMsg_ {
   int ok;
   DeviceInfo dev;
   char host[MPI_MAX_PROCESSOR_NAME];
   char error[512];
} HelloMsg;

/* Rank 0 to a rank at the end: stop, after timing the vendor BLAS when asked (the first
 * rank of each GPU times it once all configurations are measured: ranks that share a
 * GPU share its figure, and no result waits for it). Every rank answers with a
 * VendorMsg, timed or not: its last message, after which rank 0 has taken in all it
 * sent. */
typedef struct StopMsg_ {
   int time_vendor;
} StopMsg;

typedef struct VendorMsg_ {
   double gflops;             /* 0: not timed, why in name */
   char name[256];
} VendorMsg;

typedef struct WorkMsg_ {
   int index;
   long long values[KERNEL_MAX_PARAMS];
} WorkMsg;

typedef struct ResultMsg_ {
   int index;
   SweepCandidate c;
} ResultMsg;

static volatile sig_atomic_t stopSignal;

/* SIGINT (Ctrl-C) or SIGTERM (mpirun ending the job): no child left measuring. */
static void onSignal(int sig) {
   stopSignal = sig;
   Measurer_killChildren();
}

/* A growing sleep for wait loops: 50 us, doubling to 2 ms; reset when something came. */
static void backoff(long *us) {
   struct timespec ts = {0, *us * 1000};
   nanosleep(&ts, NULL);
   *us = *us < 2000 ? *us * 2 : 2000;
}

/* ---- a worker: one rank's (or rank 0's thread's) measuring ---- */

typedef struct Worker_ {
   JobMsg job;
   const double *sim;         /* simulated: recorded times (ms), nsim of them */
   Measurer *m;
   HelloMsg hello;
} Worker;

/* The device of this node-local rank: among the devices --device matches (every GPU when
 * it names none, else the best device), the local rank's turn. */
static bool pickDevice(const char *backend, const char *want, int local_rank, DeviceInfo *out, char *err,
                       size_t errlen) {
   const Backend *be = Backend_byName(backend);
   DeviceInfo *devs = NULL;
   int n = be ? Backend_listDevices(be, &devs, err, errlen) : 0;
   if (n <= 0) {
      if (!be)
         snprintf(err, errlen, "no backend named %s", backend);
      free(devs);
      return false;
   }
   int match[64], nmatch = 0;
   char why[1024];
   bool index = want && *want && strspn(want, "0123456789") == strlen(want);
   for (int i = 0; i < n && nmatch < 64 && !index; i++)
      if (want ? Device_pick(&devs[i], 1, want, why, sizeof why) == 0 : devs[i].type == DEVICE_GPU)
         match[nmatch++] = i;
   if (nmatch == 0) {
      int best = Device_pick(devs, n, want, why, sizeof why);
      if (best >= 0)
         match[nmatch++] = best;
      else
         snprintf(err, errlen, "%s", why);
   }
   if (nmatch > 0)
      *out = devs[match[local_rank % nmatch]];
   free(devs);
   return nmatch > 0;
}

static void Worker_start(Worker *w, const char *want, int local_rank) {
   HelloMsg *h = &w->hello;
   memset(h, 0, sizeof *h);
   if (w->sim) {
      h->ok = 1;
      h->dev = w->job.dev;
      return;
   }
   if (!pickDevice(w->job.job.backend, want, local_rank, &h->dev, h->error, sizeof h->error))
      return;
   MeasureJob job = w->job.job;
   job.device = h->dev.index;
   /* This rank's own kernels (another node may keep them elsewhere), as before the job. */
   char dir[sizeof job.kernels_dir];
   if (Catalog_defaultDir(dir, sizeof dir))
      Util_copy(job.kernels_dir, sizeof job.kernels_dir, dir);
   w->m = Measurer_new(&job);
   if (!w->m) {
      snprintf(h->error, sizeof h->error, "out of host memory");
      return;
   }
   h->ok = 1;
}

static void Worker_vendor(Worker *w, VendorMsg *v) {
   memset(v, 0, sizeof *v);
   if (w->m)
      v->gflops = Measurer_vendor(w->m, v->name, sizeof v->name);
}

static void Worker_measure(Worker *w, const WorkMsg *wm, SweepCandidate *c) {
   memset(c, 0, sizeof *c);
   memcpy(c->values, wm->values, sizeof c->values);
   if (w->sim) {
      const Problem *p = &w->job.job.problem;
      c->outcome = SWEEP_OK;
      c->median_ms = w->sim[wm->index % w->job.nsim];
      c->gflops = 2.0 * p->m * p->n * p->k / (c->median_ms * 1e6);
      snprintf(c->reason, sizeof c->reason, "simulated");
   } else
      Measurer_run(w->m, c->values, w->job.nparams, NULL, c);
}

static void Worker_end(Worker *w) {
   Measurer_free(w->m);
   w->m = NULL;
}

/* ---- each rank's worker thread; the main thread (this process's only MPI caller)
 * exchanges with it through a mailbox ---- */

typedef struct Local_ {
   Worker w;
   const char *want;
   int local_rank;
   pthread_t thread;
   pthread_mutex_t mu;
   pthread_cond_t cv;
   bool has_work, quit, has_hello, has_result, time_vendor;
   bool started;              /* Worker_start was called by the main thread (remote ranks) */
   bool ended;                /* the thread is done, its vendor figure in place */
   WorkMsg work;
   ResultMsg result;
   VendorMsg vendor;          /* timed after quit when time_vendor */
} Local;

static void *localMain(void *arg) {
   Local *l = arg;
   if (!l->started)
      Worker_start(&l->w, l->want, l->local_rank);
   pthread_mutex_lock(&l->mu);
   l->has_hello = !l->started;
   while (l->w.hello.ok) {
      while (!l->has_work && !l->quit)
         pthread_cond_wait(&l->cv, &l->mu);
      if (l->quit)
         break;
      WorkMsg wm = l->work;
      l->has_work = false;
      pthread_mutex_unlock(&l->mu);
      ResultMsg r = {.index = wm.index};
      Worker_measure(&l->w, &wm, &r.c);
      pthread_mutex_lock(&l->mu);
      if (stopSignal)
         break; /* its child was killed under it: not a result */
      l->result = r;
      l->has_result = true;
   }
   bool time_vendor = l->time_vendor;
   pthread_mutex_unlock(&l->mu);
   if (time_vendor)
      Worker_vendor(&l->w, &l->vendor);
   Worker_end(&l->w);
   pthread_mutex_lock(&l->mu);
   l->ended = true;
   pthread_mutex_unlock(&l->mu);
   return NULL;
}

/* What the worker thread posted since the last look (hello, ended: NULL when not
 * wanted). */
static void Local_take(Local *l, bool *hello, bool *result, ResultMsg *m, bool *ended) {
   pthread_mutex_lock(&l->mu);
   if (ended)
      *ended = l->ended;
   if (hello)
      *hello = l->has_hello;
   *result = l->has_result;
   *m = l->result;
   l->has_hello = l->has_result = false;
   pthread_mutex_unlock(&l->mu);
}

static void Local_give(Local *l, const WorkMsg *wm) {
   pthread_mutex_lock(&l->mu);
   l->work = *wm;
   l->has_work = true;
   pthread_cond_signal(&l->cv);
   pthread_mutex_unlock(&l->mu);
}

/* The worker thread told to end, after timing the vendor BLAS when asked (Local.ended
 * says when it has). */
static void Local_quit(Local *l, bool time_vendor) {
   pthread_mutex_lock(&l->mu);
   l->quit = true;
   l->time_vendor = time_vendor;
   pthread_cond_signal(&l->cv);
   pthread_mutex_unlock(&l->mu);
}

/* A rank other than 0: relays between rank 0 and its worker thread (work, results),
 * says every ALIVE_MS that it lives (also while it times the vendor BLAS at the stop),
 * and answers the stop with its vendor figure. Returns the exit code. The device is
 * opened here, in the thread that lasts, not in the worker: a runtime set up in a thread
 * may leave that thread its own signal stack (PoCL's LLVM does), which AddressSanitizer
 * fails to unmap when the thread ends. */
static int remoteWorker(Local *l) {
   Worker_start(&l->w, l->want, l->local_rank);
   l->started = true;
   HelloMsg h = l->w.hello;
   if (h.ok && pthread_create(&l->thread, NULL, localMain, l) != 0) {
      h.ok = 0;
      snprintf(h.error, sizeof h.error, "could not start a thread");
   }
   int len = 0;
   MPI_Get_processor_name(h.host, &len);
   MPI_Send(&h, sizeof h, MPI_BYTE, 0, TAG_HELLO, MPI_COMM_WORLD);
   if (!h.ok) {
      Worker_end(&l->w);
      return 0; /* rank 0 gives it nothing */
   }
   bool stopped = false, ended = false;
   StopMsg stop = {0};
   double beat = Util_nowMs();
   for (long us = 50; !stopSignal && !ended;) {
      bool result;
      ResultMsg m;
      Local_take(l, NULL, &result, &m, &ended); /* no hello: this thread said it */
      if (result && !stopSignal) /* measured while its child was killed: not a result */
         MPI_Send(&m, sizeof m, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
      bool any = result;
      int flag = 0;
      MPI_Status st;
      if (!stopped && MPI_Iprobe(0, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && flag) {
         any = true;
         if (st.MPI_TAG == TAG_STOP) {
            MPI_Recv(&stop, sizeof stop, MPI_BYTE, 0, TAG_STOP, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            stopped = true;
            Local_quit(l, stop.time_vendor);
         } else {
            WorkMsg wm;
            MPI_Recv(&wm, sizeof wm, MPI_BYTE, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            Local_give(l, &wm);
         }
      }
      double now = Util_nowMs();
      if (now - beat >= ALIVE_MS) {
         MPI_Send(NULL, 0, MPI_BYTE, 0, TAG_ALIVE, MPI_COMM_WORLD);
         beat = now;
      }
      if (any)
         us = 50;
      else
         backoff(&us);
   }
   if (stopSignal)
      Local_quit(l, false); /* its child is killed: the thread ends at once */
   pthread_join(l->thread, NULL);
   if (stopped && !stopSignal) {
      VendorMsg v = l->vendor;
      if (!stop.time_vendor)
         memset(&v, 0, sizeof v);
      MPI_Send(&v, sizeof v, MPI_BYTE, 0, TAG_VENDOR, MPI_COMM_WORLD);
   }
   return 0;
}

/* ---- the coordinator ---- */

typedef struct Slot_ {
   int cand;                  /* the candidate it measures, -1 idle */
   double started;
   double heard;              /* when it last sent anything (ranks other than 0) */
   bool ready, lost, hung;    /* hung: gave no answer in time, and may never end */
   bool dead;                 /* silent past SILENT_MS: gone, and MPI_Finalize would wait for it */
   int model;
   char host[MPI_MAX_PROCESSOR_NAME];
   int device;                /* its index on that host */
   int timer;                 /* the slot that times this GPU's vendor BLAS */
   VendorMsg vendor;
} Slot;

typedef struct Coord_ {
   const SweepWork *plan;
   SweepCandidate *all;
   int n, size;
   Slot *slots;
   int *queue, nqueue, next;  /* the candidates to hand out (room for each twice: see requeue) */
   bool *retried;             /* handed out again after its rank died */
   int *rank_of;              /* the rank that measured each candidate, -1 none in this run */
   int done, total;
   bool live;                 /* the progress line redrawn in place, else a line now and then */
   SweepModel *models;
   int *nmodels;
   Local *local;
   double allowance_ms;       /* a rank silent for longer on one configuration is taken as hung */
   double longest_gap_ms;     /* the longest silence of a rank that then spoke again */
   double longest_config_ms;  /* the longest a configuration took a rank so far */
   long long handled;         /* results taken in */
   const double *sim;
   int nsim;
} Coord;

/* A message on its own line: under a live progress line, that line is cleared first. */
static void say(const Coord *c, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   if (c->live)
      fputs("\r\033[K", stderr);
   fputs("gemmtop: ", stderr);
   vfprintf(stderr, fmt, ap);
   fputc('\n', stderr);
   va_end(ap);
}

/* How long a rank may be silent before it is taken as dead: what the job has shown a live
 * rank's silence and one configuration may take, with room, and never less than
 * SILENT_MS nor more than the hang allowance. A loaded machine (its ranks starved for
 * seconds at a time) or long compiles so stretch it; a dead rank is still seen. */
static double silenceAllowed(const Coord *c) {
   double ms = SILENT_MS;
   if (3 * c->longest_gap_ms > ms)
      ms = 3 * c->longest_gap_ms;
   if (c->longest_config_ms > ms)
      ms = c->longest_config_ms;
   return ms < c->allowance_ms ? ms : c->allowance_ms;
}

/* A word from rank r at now: how long it was silent is noted, and a rank taken as dead
 * that speaks again is taken back (its configuration went to another rank already). */
static void heardFrom(Coord *c, int r, double now) {
   Slot *s = &c->slots[r];
   double gap = now - s->heard;
   if (s->dead) {
      s->dead = s->lost = false;
      say(c, "rank %d spoke again after %.0f s of silence: it is taken back", r, gap / 1e3);
   }
   if (s->ready && gap > c->longest_gap_ms)
      c->longest_gap_ms = gap;
   s->heard = now;
}

static int modelOf(Coord *c, const DeviceInfo *dev) {
   for (int i = 0; i < *c->nmodels; i++)
      if (!strcmp(c->models[i].dev.name, dev->name))
         return i;
   if (*c->nmodels == SWEEP_MAX_MODELS)
      return 0;
   c->models[*c->nmodels].dev = *dev;
   return (*c->nmodels)++;
}

/* Hands slot r the next configuration, or leaves it idle. */
static void assign(Coord *c, int r) {
   Slot *s = &c->slots[r];
   if (c->next >= c->nqueue || !s->ready || s->lost || s->cand >= 0)
      return;
   int i = c->queue[c->next++];
   WorkMsg wm = {.index = i};
   memcpy(wm.values, c->all[i].values, sizeof wm.values);
   s->cand = i;
   s->started = Util_nowMs();
   if (r > 0) {
      MPI_Send(&wm, sizeof wm, MPI_BYTE, r, TAG_WORK, MPI_COMM_WORLD);
      return;
   }
   pthread_mutex_lock(&c->local->mu);
   c->local->work = wm;
   c->local->has_work = true;
   pthread_cond_signal(&c->local->cv);
   pthread_mutex_unlock(&c->local->mu);
}

static void takeHello(Coord *c, int r, const HelloMsg *h) {
   Slot *s = &c->slots[r];
   if (!h->ok) {
      s->lost = true;
      say(c, "rank %d measures nothing: %s", r, h->error);
      return;
   }
   s->ready = true;
   s->model = modelOf(c, &h->dev);
   Util_copy(s->host, sizeof s->host, h->host);
   s->device = h->dev.index;
   assign(c, r);
}

/* Into the results store at once (nothing in a simulation): a sweep stopped after it
 * does not measure it again. */
static void record(Coord *c, const SweepCandidate *x) {
   if (!c->sim)
      SweepRun_record(c->plan->run, &c->models[x->model].dev, x);
}

static void takeResult(Coord *c, int r, const ResultMsg *m) {
   Slot *s = &c->slots[r];
   if (stopSignal)
      return; /* measured while its child was being killed: not a result */
   if (s->cand != m->index || m->index < 0 || m->index >= c->n)
      return; /* given up on as hung, and answered after all: already reported */
   SweepCandidate *x = &c->all[m->index];
   *x = m->c;
   x->model = s->model;
   c->rank_of[m->index] = r;
   double took = Util_nowMs() - s->started;
   if (took > c->longest_config_ms)
      c->longest_config_ms = took;
   s->cand = -1;
   c->done++;
   c->handled++;
   record(c, x);
   assign(c, r);
}

/* A rank silent past the allowance: its configuration is reported as a timeout, and it
 * is given nothing more. */
static void checkHung(Coord *c, double now) {
   for (int r = 0; r < c->size; r++) {
      Slot *s = &c->slots[r];
      if (s->cand < 0 || now - s->started < c->allowance_ms)
         continue;
      SweepCandidate *x = &c->all[s->cand];
      x->outcome = SWEEP_TIMEOUT;
      x->model = s->model;
      snprintf(x->reason, sizeof x->reason, "rank %d gave no answer within %.0f s; it was given nothing more", r,
               c->allowance_ms / 1e3);
      say(c, "%s", x->reason);
      record(c, x);
      s->cand = -1;
      s->lost = s->hung = true;
      c->done++;
   }
}

/* A rank silent past SILENT_MS died (mpirun --enable-recovery keeps the job going without
 * it): it gets nothing more, and its configuration goes back to the
 * queue for another rank, once; a configuration whose second rank dies too is reported
 * as failed, in case it is what kills them. */
static void checkDead(Coord *c, double now) {
   for (int r = 1; r < c->size; r++) {
      Slot *s = &c->slots[r];
      if (!s->ready || s->lost || now - s->heard < silenceAllowed(c))
         continue;
      s->lost = s->dead = true;
      if (s->cand < 0) {
         say(c, "rank %d has been silent for %.0f s: it is given nothing more", r, (now - s->heard) / 1e3);
         continue;
      }
      int i = s->cand;
      s->cand = -1;
      if (!c->retried[i]) {
         c->retried[i] = true;
         c->queue[c->nqueue++] = i;
         say(c, "rank %d has been silent for %.0f s: its configuration goes to another rank, and it is given "
             "nothing more", r, (now - s->heard) / 1e3);
         continue;
      }
      SweepCandidate *x = &c->all[i];
      x->outcome = SWEEP_FAILED;
      x->model = s->model;
      snprintf(x->reason, sizeof x->reason, "the two ranks that measured it fell silent (rank %d last)", r);
      say(c, "%s", x->reason);
      record(c, x);
      c->done++;
   }
}

/* A rank not ready after the allowance to start: given nothing. True while some rank
 * has still to say whether it can measure. */
static bool waitingForRanks(Coord *c, double now) {
   bool waiting = false;
   for (int r = 0; r < c->size; r++) {
      Slot *s = &c->slots[r];
      if (s->ready || s->lost)
         continue;
      if (now - c->plan->t0 > c->allowance_ms) {
         say(c, "rank %d did not start within %.0f s; it is given nothing", r, c->allowance_ms / 1e3);
         s->lost = s->hung = true;
      } else
         waiting = true;
   }
   return waiting;
}

static bool pollLocal(Coord *c) {
   Local *l = c->local;
   bool hello, result;
   ResultMsg m;
   Local_take(l, &hello, &result, &m, NULL);
   if (hello) {
      HelloMsg h = l->w.hello; /* written before has_hello, and never again */
      int len = 0;
      MPI_Get_processor_name(h.host, &len); /* here: only this thread calls MPI */
      takeHello(c, 0, &h);
   }
   if (result)
      takeResult(c, 0, &m);
   return hello || result;
}

/* Takes in every message that has come. True when there was one. */
static bool pollRemote(Coord *c) {
   bool any = false;
   for (;;) {
      int flag = 0;
      MPI_Status st;
      if (MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag)
         return any;
      any = true;
      heardFrom(c, st.MPI_SOURCE, Util_nowMs());
      if (st.MPI_TAG == TAG_HELLO) {
         HelloMsg h;
         MPI_Recv(&h, sizeof h, MPI_BYTE, st.MPI_SOURCE, TAG_HELLO, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         takeHello(c, st.MPI_SOURCE, &h);
      } else if (st.MPI_TAG == TAG_ALIVE) {
         MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, TAG_ALIVE, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
         ResultMsg m;
         MPI_Recv(&m, sizeof m, MPI_BYTE, st.MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
         takeResult(c, st.MPI_SOURCE, &m);
      }
   }
}

/* ---- the job ---- */

typedef struct Mpi_ {
   const CommandArgs *o;
   int rank, size, local_rank;
   int local_size;            /* the ranks on this node */
   bool job_sent;
   int hung;                  /* ranks given up on: MPI_Finalize would wait for them */
   double *sim, *cost;        /* --mpi-simulate: each recorded configuration's median and whole time (ms) */
   int nsim;
} Mpi;

/* A broadcast from rank 0 waited for without spinning. False when stopped by a signal. */
static bool broadcast(void *buf, int len) {
   MPI_Request rq;
   MPI_Ibcast(buf, len, MPI_BYTE, 0, MPI_COMM_WORLD, &rq);
   for (long us = 50;; backoff(&us)) {
      int done = 0;
      MPI_Test(&rq, &done, MPI_STATUS_IGNORE);
      if (done)
         return true;
      if (stopSignal)
         return false;
   }
}

/* Rank 0: the job (plan NULL: none, every rank ends) and the recorded times. */
static bool sendJob(Mpi *mp, const SweepWork *plan, JobMsg *jm) {
   memset(jm, 0, sizeof *jm);
   if (plan) {
      jm->go = 1;
      jm->job = *plan->job;
      jm->nparams = plan->k->nparams;
      jm->nsim = mp->nsim;
      jm->dev = *plan->dev;
   }
   mp->job_sent = true;
   return broadcast(jm, sizeof *jm) && (!jm->nsim || broadcast(mp->sim, (int)(sizeof *mp->sim * (size_t)jm->nsim)));
}

static int remoteMain(Mpi *mp) {
   Local l = {.want = mp->o->sel->device, .local_rank = mp->local_rank, .mu = PTHREAD_MUTEX_INITIALIZER,
              .cv = PTHREAD_COND_INITIALIZER};
   if (!broadcast(&l.w.job, sizeof l.w.job) || !l.w.job.go)
      return 0;
   if (l.w.job.nsim) {
      mp->sim = malloc(sizeof *mp->sim * (size_t)l.w.job.nsim);
      if (!mp->sim || !broadcast(mp->sim, (int)(sizeof *mp->sim * (size_t)l.w.job.nsim)))
         return 1;
      l.w.sim = mp->sim;
   }
   return remoteWorker(&l);
}

/* What is left when no rank can measure: failed, with why. */
static void failRest(Coord *c, const char *why) {
   for (; c->next < c->nqueue; c->next++, c->done++) {
      SweepCandidate *x = &c->all[c->queue[c->next]];
      x->outcome = SWEEP_FAILED;
      snprintf(x->reason, sizeof x->reason, "%s", why);
   }
}

static bool anyRankLeft(const Coord *c) {
   for (int r = 0; r < c->size; r++)
      if (!c->slots[r].lost)
         return true;
   return false;
}

/* Hands out and takes in until every configuration has an answer or a signal came. */
static void coordinateLoop(Coord *c) {
   double drawn = 0;
   long us = 50;
   double now = Util_nowMs();
   while ((c->done < c->total || waitingForRanks(c, now)) && !stopSignal) {
      bool any = pollRemote(c);
      any |= pollLocal(c);
      now = Util_nowMs();
      checkHung(c, now);
      checkDead(c, now);
      /* a rank that died freed nothing: the others may now be idle with work queued */
      for (int r = 0; r < c->size; r++)
         assign(c, r);
      if (!anyRankLeft(c)) {
         failRest(c, "no rank could measure it (see the messages above)");
         break;
      }
      if (c->live && now - drawn > 100) {
         Cli_sweepProgress(true, "running", c->done, c->total, c->plan->t0, "");
         drawn = now;
      } else if (!c->live && now - drawn > 30e3) {
         if (drawn > 0)
            fprintf(stderr, "running: %d of %d measured, %.0f s\n", c->done, c->total, (now - c->plan->t0) / 1e3);
         drawn = now;
      }
      if (any)
         us = 50;
      else
         backoff(&us);
   }
}

/* Which slot times each GPU's vendor BLAS: the first that measures on it. */
static void chooseTimers(Coord *c, bool timing) {
   for (int r = 0; r < c->size; r++) {
      Slot *s = &c->slots[r];
      s->timer = -1;
      for (int t = 0; timing && t <= r && s->timer < 0; t++) {
         const Slot *o = &c->slots[t];
         if (o->ready && !o->lost && o->device == s->device && !strcmp(o->host, s->host))
            s->timer = t;
      }
   }
}

/* Every rank told to stop answers with a VendorMsg (a figure from those that time the
 * vendor BLAS), its last message: taken in, with what came before it, until all have
 * answered or one falls silent; then each result gets its own GPU's figure. */
static void collectVendor(Coord *c) {
   bool *waiting = calloc((size_t)c->size, sizeof *waiting);
   int want = 0;
   for (int r = 1; r < c->size && waiting; r++)
      if (!c->slots[r].lost) {
         waiting[r] = true;
         want++;
      }
   /* Rank 0 did not listen while its own thread ended (timing its vendor BLAS may take
    * long on loaded cores): the ranks' silence counts from now, and what they sent
    * meanwhile is taken in before anyone is judged. */
   double listening = Util_nowMs();
   for (long us = 50; want > 0 && !stopSignal; backoff(&us)) {
      int flag = 0;
      MPI_Status st;
      double now = Util_nowMs();
      bool pending = MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) == MPI_SUCCESS && flag;
      for (int r = 1; r < c->size && !pending; r++)
         if (waiting[r] && now - (c->slots[r].heard > listening ? c->slots[r].heard : listening) > silenceAllowed(c)) {
            fprintf(stderr, "gemmtop: rank %d has been silent for %.0f s since it was told to stop\n", r,
                    (now - c->slots[r].heard) / 1e3);
            waiting[r] = false;
            c->slots[r].lost = c->slots[r].dead = true;
            want--;
         }
      if (!pending)
         continue;
      int r = st.MPI_SOURCE, count = 0;
      MPI_Get_count(&st, MPI_BYTE, &count);
      char *buf = malloc(count > 0 ? (size_t)count : 1);
      if (!buf)
         break;
      MPI_Recv(buf, count, MPI_BYTE, r, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      c->slots[r].heard = now;
      if (c->slots[r].dead && st.MPI_TAG == TAG_VENDOR) /* late, not gone: no need to end the job without it */
         c->slots[r].dead = c->slots[r].lost = false;
      if (st.MPI_TAG == TAG_VENDOR && waiting[r] && count == (int)sizeof(VendorMsg)) {
         memcpy(&c->slots[r].vendor, buf, sizeof(VendorMsg));
         waiting[r] = false;
         want--;
      } /* else a beat sent before the stop came, or a given-up rank's late word */
      free(buf);
      us = 50;
   }
   free(waiting);
   for (int r = 0; r < c->size; r++) {
      const Slot *s = &c->slots[r];
      const VendorMsg *v = s->timer >= 0 ? &c->slots[s->timer].vendor : NULL;
      if (!v || v->gflops <= 0) {
         if (v && s->timer == r && v->name[0])
            fprintf(stderr, "gemmtop: rank %d: no vendor BLAS figure: %s\n", r, v->name);
         continue;
      }
      SweepModel *m = &c->models[s->model];
      if (!m->vendor_name[0])
         Util_copy(m->vendor_name, sizeof m->vendor_name, v->name);
      for (int i = 0; i < c->n; i++)
         if (c->rank_of[i] == r)
            c->all[i].vendor_gflops = v->gflops;
   }
}

/* Every rank told to stop (those that time a vendor BLAS do it first); rank 0's thread
 * ended. */
static void stopRanks(Coord *c, Mpi *mp) {
   chooseTimers(c, !mp->sim);
   for (int r = 1; r < c->size; r++)
      if (!c->slots[r].lost) {
         StopMsg stop = {.time_vendor = c->slots[r].timer == r};
         MPI_Send(&stop, sizeof stop, MPI_BYTE, r, TAG_STOP, MPI_COMM_WORLD);
      }
   Local *l = c->local;
   Local_quit(l, c->slots[0].timer == 0);
   if (c->slots[0].hung)
      pthread_detach(l->thread); /* hung in a measurement: the process ends without it */
   else {
      pthread_join(l->thread, NULL);
      c->slots[0].vendor = l->vendor;
   }
   collectVendor(c);
   for (int r = 0; r < c->size; r++)
      mp->hung += c->slots[r].hung || c->slots[r].dead;
}

static void simulatedReport(const Coord *c, const Mpi *mp, double seconds);

/* Compiles the configurations into the disk cache, in the order they are handed out,
 * with the cores this node's ranks leave free (at least one), while the ranks measure
 * on GPUs (on a CPU device the cores are the device: compiling there would disturb the
 * timings, and the serial sweep compiles before it measures for that reason):
 * a rank then loads what the pool has built (or waits for the one it is building: the
 * cache's lock) instead of compiling it, as the serial sweep's runs do. Ranks on this
 * node, and on any node that shares the cache folder, gain; the others compile. NULL when
 * nothing is to be compiled or the pool cannot start (said). */
static Ahead *compileAhead(const Coord *c, const SweepWork *plan, int local_ranks, int jobs) {
   if (c->sim || !DiskCache_enabled() || c->nqueue < 2 || plan->dev->type != DEVICE_GPU)
      return NULL;
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   /* --jobs N: as in the serial sweep, N compiles at a time. */
   int threads = jobs > 0 ? jobs : (int)(cores - local_ranks);
   threads = threads < 1 ? 1 : threads > AHEAD_MAX_THREADS ? AHEAD_MAX_THREADS : threads;
   char err[1024];
   Ahead *pool = Ahead_start(plan->kernels_dir, threads, err, sizeof err);
   long long (*values)[KERNEL_MAX_PARAMS] = malloc(sizeof *values * (size_t)c->nqueue);
   if (!pool || !values) {
      say(c, "compiling one by one in the ranks: %s", pool ? "out of host memory" : err);
      free(values);
      Ahead_stop(pool, 0);
      return NULL;
   }
   for (int i = 0; i < c->nqueue; i++)
      memcpy(values[i], c->all[c->queue[i]].values, sizeof values[i]);
   AheadTarget t = Ahead_target(plan->job->backend, plan->dev->index, plan->k->name, &plan->job->problem, 0);
   Ahead_want(pool, &t, (const long long (*)[KERNEL_MAX_PARAMS])values, c->nqueue);
   free(values);
   return pool;
}

/* The SweepDriver of rank 0 (cli_sweep.h). */
static int coordinate(void *ctx, const SweepWork *plan, SweepCandidate *all, int n, SweepModel *models,
                      int *nmodels) {
   Mpi *mp = ctx;
   const MeasureJob *j = plan->job;
   Local local = {.want = mp->o->sel->device, .local_rank = mp->local_rank, .mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};
   Coord c = {.plan = plan, .all = all, .n = n, .size = mp->size, .models = models, .nmodels = nmodels,
              .local = &local, .sim = mp->sim, .nsim = mp->nsim,
              /* the child's own limits (core/sweep/measurer.c), and a minute more */
              .allowance_ms = 1e3 * (480 + j->timeout_s * (j->reps + j->warmup + 2))};
   c.slots = calloc((size_t)mp->size, sizeof *c.slots);
   c.queue = malloc(sizeof *c.queue * 2 * (size_t)(n ? n : 1));
   c.retried = calloc((size_t)(n ? n : 1), sizeof *c.retried);
   c.rank_of = malloc(sizeof *c.rank_of * (size_t)(n ? n : 1));
   int rc = 0;
   if (!c.slots || !c.queue || !c.retried || !c.rank_of) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
   }
   for (int i = 0; i < n && !rc; i++) {
      c.rank_of[i] = -1;
      if (all[i].outcome == SWEEP_PENDING)
         c.queue[c.nqueue++] = i;
   }
   c.total = c.nqueue;
   for (int r = 0; r < c.size && !rc; r++)
      c.slots[r].cand = -1;
   /* mpirun gives rank 0's standard output a terminal when it has one, never its stderr */
   c.live = plan->tty || isatty(1);
   fprintf(stderr, "%d ranks measure%s\n", mp->size, mp->sim ? " (simulated: recorded times, nothing launched)" : "");
   local.w.sim = mp->sim;
   if (!rc && (!sendJob(mp, plan, &local.w.job) || pthread_create(&local.thread, NULL, localMain, &local) != 0))
      rc = stopSignal ? 128 + stopSignal : 1;
   Ahead *pool = rc ? NULL : compileAhead(&c, plan, mp->local_size, mp->o->sweep->jobs);
   if (!rc) {
      double t1 = Util_nowMs();
      coordinateLoop(&c);
      double seconds = (Util_nowMs() - t1) / 1e3;
      Cli_sweepProgress(c.live, "running", c.done, c.total, plan->t0, "");
      if (c.live)
         fputc('\n', stderr);
      if (stopSignal) {
         fprintf(stderr, "gemmtop: stopped: the %d results of this run are in the results store; the same command "
                 "resumes\n", c.done);
         rc = 128 + stopSignal;
      } else {
         stopRanks(&c, mp);
         if (mp->sim)
            simulatedReport(&c, mp, seconds);
      }
   }
   /* idle by now, or stopped; one still inside a compile is left to the process's end */
   Ahead_stop(pool, stopSignal ? 0 : 10000);
   free(c.queue);
   free(c.retried);
   free(c.rank_of);
   free(c.slots);
   return rc;
}

/* ---- --mpi-simulate: recorded times, and what they say about N GPUs ---- */

static int column(char **names, int n, const char *want) {
   for (int i = 0; i < n; i++)
      if (!strcmp(names[i], want))
         return i;
   return -1;
}

/* A sweep's --save CSV: each verified configuration's median, and its whole time as
 * compile plus the launches a sweep makes (warm-up, timed, one verifying). */
static bool loadRecorded(Mpi *mp, const char *path, int launches) {
   FILE *f = fopen(path, "r");
   if (!f) {
      fprintf(stderr, "gemmtop: --mpi-simulate %s: %s\n", path, strerror(errno));
      return false;
   }
   char head[1024], line[4096], *names[32], *fields[32];
   int nn = fgets(head, sizeof head, f) ? (head[strcspn(head, "\r\n")] = '\0', Util_csvSplit(head, names, 32)) : 0;
   int co = column(names, nn, "outcome"), ct = column(names, nn, "time_ms"), cc = column(names, nn, "compile_ms");
   int cap = 0;
   while (co >= 0 && ct >= 0 && cc >= 0 && fgets(line, sizeof line, f)) {
      line[strcspn(line, "\r\n")] = '\0';
      int nf = Util_csvSplit(line, fields, 32);
      if (nf <= co || nf <= ct || nf <= cc || strcmp(fields[co], "ok"))
         continue;
      if (mp->nsim == cap) {
         cap = cap ? 2 * cap : 64;
         double *s = realloc(mp->sim, sizeof *s * (size_t)cap), *t = s ? realloc(mp->cost, sizeof *t * (size_t)cap) : NULL;
         if (s)
            mp->sim = s;
         if (!s || !t)
            break;
         mp->cost = t;
      }
      double ms = strtod(fields[ct], NULL), compile = strtod(fields[cc], NULL);
      if (ms > 0) {
         mp->sim[mp->nsim] = ms;
         mp->cost[mp->nsim++] = compile + launches * ms;
      }
   }
   fclose(f);
   if (mp->nsim == 0)
      fprintf(stderr,
              "gemmtop: --mpi-simulate %s: no verified configuration with a time in it; it takes the CSV that "
              "'gemmtop sweep --save FILE.csv' writes\n",
              path);
   return mp->nsim > 0;
}

/* Dynamic hand-out as list scheduling: each configuration (the recorded times, in turn)
 * goes to the GPU that is free first. Returns the makespan in ms. */
static double listSchedule(const double *cost, int ncost, int count, int gpus) {
   double *free_at = calloc((size_t)gpus, sizeof *free_at), end = 0;
   if (!free_at)
      return 0;
   for (int i = 0; i < count; i++) {
      /* a min-heap on free_at: the root is the GPU free first */
      double t = free_at[0] + cost[i % ncost];
      int at = 0;
      for (;;) {
         int l = 2 * at + 1, r = l + 1, m = at;
         double mv = t;
         if (l < gpus && free_at[l] < mv)
            m = l, mv = free_at[l];
         if (r < gpus && free_at[r] < mv)
            m = r;
         if (m == at)
            break;
         free_at[at] = free_at[m];
         at = m;
      }
      free_at[at] = t;
      end = t > end ? t : end;
   }
   free(free_at);
   return end;
}

static void simulatedReport(const Coord *c, const Mpi *mp, double seconds) {
   double rate = seconds > 0 ? c->handled / seconds : 0, mean = 0;
   for (int i = 0; i < mp->nsim; i++)
      mean += mp->cost[i] / mp->nsim;
   fprintf(stderr, "simulated: rank 0 handed out and took in %lld configurations from %d ranks in %.2f s: %.0f per second\n",
           c->handled, mp->size, seconds, rate);
   fprintf(stderr, "recorded: %d configurations, %.1f ms each on average (compile and launches); 64 GPUs need %.1f per "
           "second, %.0fx less than rank 0 handles\n",
           mp->nsim, mean, 64e3 / mean, rate / (64e3 / mean));
   double one = listSchedule(mp->cost, mp->nsim, c->total, 1);
   fprintf(stderr, "expected for %d configurations: GPUs, seconds, speed-up (rank 0 at the rate above)\n", c->total);
   for (int gpus = 1; gpus <= 1024; gpus *= 4) {
      double ms = listSchedule(mp->cost, mp->nsim, c->total, gpus), floor_ms = rate > 0 ? 1e3 * c->total / rate : 0;
      ms = ms > floor_ms ? ms : floor_ms;
      fprintf(stderr, "  %5d %10.1f %8.1fx\n", gpus, ms / 1e3, ms > 0 ? one / ms : 0);
   }
}

/* ---- every rank ---- */

int MpiSweep_main(const CommandArgs *o) {
   if (!o->sweep->mpi) {
      fprintf(stderr, "gemmtop: --mpi-simulate goes with --mpi (under mpirun or srun)\n");
      return 2;
   }
   int provided = 0;
   if (MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
      fprintf(stderr, "gemmtop: MPI did not start\n");
      return 1;
   }
   Mpi mp = {.o = o};
   MPI_Comm node;
   MPI_Comm_rank(MPI_COMM_WORLD, &mp.rank);
   MPI_Comm_size(MPI_COMM_WORLD, &mp.size);
   MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, mp.rank, MPI_INFO_NULL, &node);
   MPI_Comm_rank(node, &mp.local_rank);
   MPI_Comm_size(node, &mp.local_size);
   MPI_Comm_free(&node);
   struct sigaction sa = {.sa_handler = onSignal};
   sigemptyset(&sa.sa_mask);
   sigaction(SIGINT, &sa, NULL);
   sigaction(SIGTERM, &sa, NULL);
   int rc;
   if (mp.rank == 0) {
      SweepDriver d = {.measure = coordinate, .ctx = &mp, .no_store = o->sweep->mpi_simulate != NULL};
      int launches = o->timing->reps + o->timing->warmup + 1;
      if (o->sweep->mpi_simulate && !loadRecorded(&mp, o->sweep->mpi_simulate, launches > 1 ? launches : 13))
         rc = 2;
      else
         rc = Cli_sweepWith(o, &d);
      JobMsg none;
      if (!mp.job_sent)
         sendJob(&mp, NULL, &none);
   } else
      rc = remoteMain(&mp);
   free(mp.sim);
   free(mp.cost);
   fflush(stdout);
   fflush(stderr);
   if (stopSignal)
      _exit(128 + stopSignal); /* mpirun is ending every rank: no MPI_Finalize to wait in */
   if (mp.hung) {
      /* MPI_Finalize would wait for them. A sweep whose every configuration has its
       * result still ends 0: the error code is the sweep's own. */
      fprintf(stderr, "gemmtop: %d rank%s fell silent or did not answer: ending the job%s\n", mp.hung,
              mp.hung > 1 ? "s" : "", rc ? "" : " (every configuration has its result)");
      MPI_Abort(MPI_COMM_WORLD, rc);
   }
   MPI_Finalize();
   return rc;
}

#endif
