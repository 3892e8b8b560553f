/* SO_PEERCRED, struct ucred, POLLRDHUP */
#define _GNU_SOURCE
#include "serve/serve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "backend/backend.h"
#include "base/lines.h"
#include "base/textbuf.h"
#include "base/util.h"
#include "core/catalog.h"
#include "core/measurer.h"
#include "core/record.h"
#include "core/select.h"
#include "core/store.h"
#include "serve/board.h"
#include "serve/classdb.h"
#include "serve/fairq.h"
#include "serve/roster.h"
#include "serve/vet.h"

/* A request's launches repeat at most this often, and warm up at most this much. */
#define SERVE_MAX_REPS 100
#define SERVE_MAX_ROUNDS 50
/* Connections: in all, and per student beyond the requests in flight. */
#define SERVE_MAX_CONNECTIONS 512
#define SERVE_SPARE_CONNECTIONS 4
/* A connection silent this long is closed. */
#define SERVE_IDLE_S 600.0
/* A waiting request hears where it is at least this often (the client's sign of life). */
#define SERVE_WAIT_TELL_MS 2000.0

typedef enum { REQ_RUN, REQ_VENDOR, REQ_JUDGE } RequestKind;
typedef enum { REQ_WAITING, REQ_RUNNING, REQ_DONE } RequestState;

typedef struct Request_ {
   RequestKind kind;
   RosterEntry who;
   MeasureJob job;            /* its kernels_dir: the server's folders, then the request's upload */
   long long values[KERNEL_MAX_PARAMS];
   int nvalues;
   int device;                /* a slot it must run on, -1 any */
   Submission sub;            /* REQ_JUDGE */
   Assignment asg;
   char sub_dir[1024];        /* REQ_JUDGE: the folder of its source, removed when judged */
   RequestState state;
   bool orphan;               /* no connection waits: the worker frees it */
   atomic_int cancel;
   double queued_ms, started_ms, ended_ms;
   int slot;                  /* where it ran */
   SweepCandidate c;          /* REQ_RUN */
   double vendor_gflops;      /* REQ_VENDOR */
   char vendor_name[256];
} Request;

typedef struct Slot_ {
   DeviceInfo info;
   pthread_t thread;
} Slot;

/* Per student: connections open and requests waiting or running. */
typedef struct StudentLoad_ {
   uid_t uid;
   int connections, in_flight;
} StudentLoad;

static struct {
   ServeOptions o;
   const Backend *be;
   Slot slots[SERVE_MAX_DEVICES];
   int nslots;
   char kernels[2048];
   char state[1024];
   char uploads[1100];
   char socket_path[108];
   Roster roster;
   Store *store;
   ClassDb *classdb;
   pthread_mutex_t lock;      /* everything below, and the store and the class records */
   pthread_cond_t work, done;
   FairQueue queue;
   StudentLoad *load;
   int nload, connections;
   unsigned long next_conn;
   bool stopping;
   FILE *log;
   double start_ms;
   int wake[2];               /* a signal's byte for the accepting loop */
} S;

/* ---- the log: one line per event, for the lecturer and for tests ---- */

static void logLine(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logLine(const char *fmt, ...) {
   if (!S.log)
      return;
   char when[32];
   time_t now = time(NULL);
   struct tm tm;
   strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
   flockfile(S.log);
   fprintf(S.log, "%s ", when);
   va_list ap;
   va_start(ap, fmt);
   vfprintf(S.log, fmt, ap);
   va_end(ap);
   fputc('\n', S.log);
   fflush(S.log);
   funlockfile(S.log);
}

/* ---- per-student load (under the lock) ---- */

static StudentLoad *loadOf(uid_t uid) {
   for (int i = 0; i < S.nload; i++)
      if (S.load[i].uid == uid)
         return &S.load[i];
   StudentLoad *grown = realloc(S.load, (size_t)(S.nload + 1) * sizeof *grown);
   if (!grown)
      return NULL;
   S.load = grown;
   S.load[S.nload] = (StudentLoad){.uid = uid};
   return &S.load[S.nload++];
}

/* ---- disk ---- */

/* MB free where the state is kept. */
static long long freeMb(void) {
   struct statvfs v;
   if (statvfs(S.state, &v) != 0)
      return -1;
   return (long long)((unsigned long long)v.f_bavail * v.f_frsize >> 20);
}

/* Why nothing new can be taken now, or false. */
static bool diskFull(char *why, size_t whylen) {
   long long mb = freeMb();
   if (mb < 0 || mb >= S.o.min_free_mb)
      return false;
   snprintf(why, whylen,
            "the server's disk is nearly full (%lld MB free where it keeps its records; it needs %d): it takes "
            "nothing new until the lecturer frees space",
            mb, S.o.min_free_mb);
   return true;
}

static void removeTree(const char *dir) {
   DIR *d = opendir(dir);
   if (!d)
      return;
   struct dirent *e;
   char path[2048];
   while ((e = readdir(d)))
      if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
         snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
         unlink(path);
      }
   closedir(d);
   rmdir(dir);
}

/* ---- measuring (a device's worker) ---- */

static void recordLocked(StoreRecord *rec) {
   char err[512];
   if (S.store && !Store_add(S.store, rec, 1, err, sizeof err))
      logLine("store error: %s", err);
}

/* The record of a configuration measured for r (its kernel read from the request's folders). */
static void recordCandidate(const Request *r, const MeasureJob *j, const SweepCandidate *c, const char *origin) {
   Catalog cat;
   char err[512];
   if (!Catalog_load(&cat, j->kernels_dir, err, sizeof err))
      return;
   const KernelInfo *k = Catalog_find(&cat, j->kernel);
   if (k) {
      RecordPlace at = {S.be->name, &S.slots[r->slot].info};
      StoreRecord rec;
      Record_fromCandidate(&rec, origin, &at, k, &j->problem, c, false, j->cold_l2, "");
      rec.reps = c->outcome == SWEEP_OK ? (r->kind == REQ_JUDGE ? r->asg.rounds : j->reps) : 0;
      Util_copy(rec.user, sizeof rec.user, r->who.name);
      pthread_mutex_lock(&S.lock);
      recordLocked(&rec);
      pthread_mutex_unlock(&S.lock);
   }
   Catalog_free(&cat);
}

static void recordVendor(const Request *r, const MeasureJob *j, double gflops, const char *name) {
   VendorResult v;
   Measurer_vendorResult(gflops, name, &j->problem, j->reps, &v);
   RecordPlace at = {S.be->name, &S.slots[r->slot].info};
   StoreRecord rec;
   Record_fromVendor(&rec, &at, &j->problem, &v);
   Util_copy(rec.user, sizeof rec.user, r->who.name);
   pthread_mutex_lock(&S.lock);
   recordLocked(&rec);
   pthread_mutex_unlock(&S.lock);
}

/* The job as this server runs it on slot: its device, limits and folders. */
static MeasureJob jobOn(const Request *r, int slot) {
   MeasureJob j = r->job;
   Util_copy(j.backend, sizeof j.backend, S.be->name);
   j.device = S.slots[slot].info.index;
   j.server[0] = j.upload[0] = '\0';
   j.request_s = S.o.request_s;
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   /* A CPU device runs the kernel on every core: the CPU limit allows that, and the wall
    * deadline (request_s) is the real one. */
   j.cpu_s = (int)(S.o.request_s * (cores > 0 ? (double)cores : 1.0)) + 30;
   j.data_mb = S.o.data_mb;
   return j;
}

/* Judges a submission: every size of its assignment, rounds launches each on fresh
 * inputs, each verified; the vendor library on the same size; all recorded. */
static void judge(Request *r, int slot) {
   Submission *s = &r->sub;
   MeasureJob j = jobOn(r, slot);
   double logG = 0, logP = 0, worst = 0;
   int nsizes = 0, npct = 0;
   bool ok = true;
   s->detail[0] = s->reason[0] = '\0';
   char sizes[sizeof r->asg.sizes];
   Util_copy(sizes, sizeof sizes, r->asg.sizes);
   for (char *save = NULL, *item = strtok_r(sizes, ",", &save); item && ok; item = strtok_r(NULL, ",", &save)) {
      if (sscanf(item, "%dx%dx%d", &j.problem.m, &j.problem.n, &j.problem.k) != 3)
         continue;
      Measurer *m = Measurer_new(&j);
      SweepCandidate c;
      memset(&c, 0, sizeof c);
      memcpy(c.values, r->values, sizeof r->values);
      if (!m) {
         ok = false;
         snprintf(s->reason, sizeof s->reason, "out of memory on the server");
         break;
      }
      Measurer_judge(m, r->values, r->nvalues, r->asg.rounds, NULL, &c);
      recordCandidate(r, &j, &c, "submit");
      size_t used = strlen(s->detail);
      if (c.outcome != SWEEP_OK) {
         ok = false;
         snprintf(s->reason, sizeof s->reason, "%s: %s: %s", item, SweepOutcome_name(c.outcome), c.reason);
         snprintf(s->detail + used, sizeof s->detail - used, "%s: %s\n", item, SweepOutcome_name(c.outcome));
         Measurer_free(m);
         break;
      }
      char vendor[256];
      double vg = Measurer_vendor(m, vendor, sizeof vendor);
      Measurer_free(m);
      recordVendor(r, &j, vg, vendor);
      logG += log(c.gflops);
      worst = fmax(worst, c.max_rel_err);
      nsizes++;
      if (vg > 0) {
         logP += log(100.0 * c.gflops / vg);
         npct++;
         snprintf(s->detail + used, sizeof s->detail - used, "%s: %.2f GFLOPS, %s %.2f (%.1f%%), error %.2g\n", item,
                  c.gflops, vendor, vg, 100.0 * c.gflops / vg, c.max_rel_err);
      } else
         snprintf(s->detail + used, sizeof s->detail - used, "%s: %.2f GFLOPS (no vendor figure: %s), error %.2g\n",
                  item, c.gflops, vendor, c.max_rel_err);
   }
   s->verified = ok && nsizes > 0;
   s->gflops = s->verified ? exp(logG / nsizes) : NAN;
   s->pct = s->verified && npct == nsizes ? exp(logP / npct) : NAN;
   s->max_rel_err = s->verified ? worst : NAN;
   Util_copy(s->device, sizeof s->device, S.slots[slot].info.name);
}

static void writeBoardPage(const Assignment *a);

static void execute(Request *r, int slot) {
   MeasureJob j = jobOn(r, slot);
   switch (r->kind) {
   case REQ_RUN: {
      Measurer *m = Measurer_new(&j);
      if (!m) {
         r->c.outcome = SWEEP_FAILED;
         snprintf(r->c.reason, sizeof r->c.reason, "out of memory on the server");
         return;
      }
      memcpy(r->c.values, r->values, sizeof r->values);
      Measurer_run(m, r->values, r->nvalues, &r->cancel, &r->c);
      Measurer_free(m);
      if (r->c.outcome != SWEEP_PENDING)
         recordCandidate(r, &j, &r->c, "serve");
      return;
   }
   case REQ_VENDOR: {
      Measurer *m = Measurer_new(&j);
      r->vendor_gflops = m ? Measurer_vendor(m, r->vendor_name, sizeof r->vendor_name) : 0;
      if (!m)
         snprintf(r->vendor_name, sizeof r->vendor_name, "out of memory on the server");
      Measurer_free(m);
      recordVendor(r, &j, r->vendor_gflops, r->vendor_name);
      return;
   }
   case REQ_JUDGE: {
      judge(r, slot);
      r->sub.waited_s = (r->started_ms - r->queued_ms) / 1e3;
      char err[512];
      pthread_mutex_lock(&S.lock);
      if (!ClassDb_judged(S.classdb, &r->sub, err, sizeof err))
         logLine("class records error: %s", err);
      pthread_mutex_unlock(&S.lock);
      removeTree(r->sub_dir);
      writeBoardPage(&r->asg);
      return;
   }
   }
}

static const char *kindName(RequestKind k) {
   return k == REQ_RUN ? "run" : k == REQ_VENDOR ? "vendor" : "judge";
}

/* A device's worker: the next fair request for its slot, measured alone on it. */
static void *worker(void *arg) {
   int slot = (int)(intptr_t)arg;
   pthread_mutex_lock(&S.lock);
   for (;;) {
      Request *r = NULL;
      while (!S.stopping && !(r = FairQueue_pop(&S.queue, slot)))
         pthread_cond_wait(&S.work, &S.lock);
      if (S.stopping)
         break;
      r->state = REQ_RUNNING;
      r->slot = slot;
      r->started_ms = Util_nowMs();
      pthread_cond_broadcast(&S.done); /* positions moved */
      pthread_mutex_unlock(&S.lock);
      logLine("begin %s user=%s uid=%lu device=%d kernel=%s", kindName(r->kind), r->who.account,
              (unsigned long)r->who.uid, slot, r->job.kernel);
      execute(r, slot);
      pthread_mutex_lock(&S.lock);
      r->ended_ms = Util_nowMs();
      r->state = REQ_DONE;
      StudentLoad *l = loadOf(r->who.uid);
      if (l)
         l->in_flight--;
      const char *outcome = r->kind == REQ_RUN     ? SweepOutcome_name(r->c.outcome)
                            : r->kind == REQ_JUDGE ? (r->sub.verified ? "ok" : "rejected")
                                                   : (r->vendor_gflops > 0 ? "ok" : "failed");
      double gflops = r->kind == REQ_RUN ? r->c.gflops : r->kind == REQ_JUDGE ? r->sub.gflops : r->vendor_gflops;
      logLine("%s user=%s uid=%lu device=%d queued=%.1f start=%.1f end=%.1f kernel=%s size=%dx%dx%d outcome=%s "
              "gflops=%.6g",
              kindName(r->kind), r->who.account, (unsigned long)r->who.uid, slot, r->queued_ms - S.start_ms,
              r->started_ms - S.start_ms, r->ended_ms - S.start_ms, r->job.kernel, r->job.problem.m, r->job.problem.n,
              r->job.problem.k, outcome, gflops);
      if (r->orphan)
         free(r);
      pthread_cond_broadcast(&S.done);
   }
   pthread_mutex_unlock(&S.lock);
   return NULL;
}

/* ---- a connection ---- */

typedef struct Conn_ {
   int fd;
   RosterEntry who;
   unsigned long id;
   LineReader in;
   char dir[1200];            /* its upload folder ("" none yet) */
   char file[80];             /* the file uploaded last ("" none) */
   MeasureJob job;
   bool has_job;
} Conn;

static bool say(Conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool say(Conn *c, const char *fmt, ...) {
   char line[2048];
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(line, sizeof line - 1, fmt, ap);
   va_end(ap);
   if (n < 0)
      return false;
   if ((size_t)n > sizeof line - 2)
      n = (int)sizeof line - 2;
   for (int i = 0; i < n; i++)
      if (line[i] == '\n' || line[i] == '\r')
         line[i] = ' ';
   line[n++] = '\n';
   return Lines_write(c->fd, line, (size_t)n);
}

/* A text of many lines as "text" lines, then "end". */
static bool sayText(Conn *c, const char *text) {
   for (const char *p = text; p && *p;) {
      const char *nl = strchr(p, '\n');
      int len = nl ? (int)(nl - p) : (int)strlen(p);
      if (!say(c, "text %.*s", len, p))
         return false;
      p = nl ? nl + 1 : NULL;
   }
   return say(c, "end");
}

static bool clientGone(int fd) {
   struct pollfd p = {.fd = fd, .events = POLLRDHUP};
   return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* Puts r in the queue when the student may have one more in flight; false with why. */
static bool enqueue(Request *r, char *why, size_t whylen) {
   pthread_mutex_lock(&S.lock);
   StudentLoad *l = loadOf(r->who.uid);
   bool ok = false;
   if (S.stopping)
      snprintf(why, whylen, "the server is stopping");
   else if (!l || l->in_flight >= S.o.in_flight)
      snprintf(why, whylen,
               "refused: %d requests of yours are already waiting or running, the most the server takes from one "
               "student; send the next when one has finished",
               l ? l->in_flight : 0);
   else if (!FairQueue_push(&S.queue, r->who.uid, r->device, r))
      snprintf(why, whylen, "refused: out of memory on the server");
   else {
      l->in_flight++;
      r->state = REQ_WAITING;
      r->queued_ms = Util_nowMs();
      pthread_cond_broadcast(&S.work);
      ok = true;
   }
   pthread_mutex_unlock(&S.lock);
   return ok;
}

/* Waits for r, telling the client its place; a client that goes away takes its waiting
 * request out, or cancels a running one (a judged submission goes on: it is recorded).
 * False when the client is gone (r then freed here or by the worker). */
static bool await(Conn *c, Request *r) {
   int told = -1;
   double toldAt = 0;
   pthread_mutex_lock(&S.lock);
   while (r->state != REQ_DONE) {
      int position = r->state == REQ_WAITING ? FairQueue_position(&S.queue, r) : 0;
      if (position != told || Util_nowMs() - toldAt > SERVE_WAIT_TELL_MS) {
         double waited = ((r->state == REQ_WAITING ? Util_nowMs() : r->started_ms) - r->queued_ms) / 1e3;
         pthread_mutex_unlock(&S.lock);
         bool alive = say(c, "wait %d %.1f", position, waited);
         pthread_mutex_lock(&S.lock);
         told = position;
         toldAt = Util_nowMs();
         if (!alive)
            break;
      }
      struct timespec until;
      clock_gettime(CLOCK_REALTIME, &until);
      until.tv_nsec += 500 * 1000000L;
      if (until.tv_nsec >= 1000000000L) {
         until.tv_sec++;
         until.tv_nsec -= 1000000000L;
      }
      pthread_cond_timedwait(&S.done, &S.lock, &until);
      if (r->state != REQ_DONE && clientGone(c->fd))
         break;
   }
   if (r->state == REQ_DONE) {
      pthread_mutex_unlock(&S.lock);
      return true;
   }
   /* The client is gone. */
   if (r->state == REQ_WAITING && FairQueue_remove(&S.queue, r)) {
      StudentLoad *l = loadOf(r->who.uid);
      if (l)
         l->in_flight--;
      if (r->kind == REQ_JUDGE) {
         /* still judged, with no one waiting: back in line as an orphan */
         r->orphan = true;
         FairQueue_push(&S.queue, r->who.uid, r->device, r);
         if (l)
            l->in_flight++;
      } else
         free(r);
   } else {
      if (r->kind != REQ_JUDGE)
         atomic_store(&r->cancel, 1);
      r->orphan = true;
   }
   pthread_mutex_unlock(&S.lock);
   return false;
}

static Request *newRequest(Conn *c, RequestKind kind) {
   Request *r = calloc(1, sizeof *r);
   if (!r)
      return NULL;
   r->kind = kind;
   r->who = c->who;
   r->job = c->job;
   r->device = c->job.device;
   atomic_init(&r->cancel, 0);
   return r;
}

/* The server's kernel folders, then dir (the client's file). */
static void foldersWith(const char *dir, char *out, size_t outlen) {
   if (dir && dir[0])
      snprintf(out, outlen, "%s:%s", S.kernels, dir);
   else
      Util_copy(out, outlen, S.kernels);
}

/* "file NAME BYTES" and the bytes: the kernel file the next job or submission uses. */
static bool takeFile(Conn *c, const char *line, char *why, size_t whylen) {
   char name[80];
   unsigned long long len = 0;
   int used = 0;
   if (sscanf(line, "file %79s %llu%n", name, &len, &used) != 2 || line[used]) {
      snprintf(why, whylen, "a file line is 'file NAME BYTES'");
      return false;
   }
   size_t nl = strlen(name);
   bool good = nl > 3 && nl < 64 && !strcmp(name + nl - 3, ".cl") && name[0] != '.';
   for (size_t i = 0; good && i < nl; i++)
      good = (name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
             (name[i] >= '0' && name[i] <= '9') || name[i] == '_' || name[i] == '-' || name[i] == '.';
   if (!good) {
      snprintf(why, whylen, "the kernel file's name '%.60s' must be letters, digits, '_', '-' or '.', end in .cl and "
                            "be under 64 characters", name);
      return false;
   }
   if (len > UTIL_MAX_KERNEL_BYTES) {
      snprintf(why, whylen, "the kernel file is %llu bytes; the server takes at most %u", len, UTIL_MAX_KERNEL_BYTES);
      return false;
   }
   char *text = malloc((size_t)len + 1);
   if (!text || !LineReader_bytes(&c->in, text, (size_t)len, Util_nowMs() + 60e3)) {
      free(text);
      snprintf(why, whylen, "the kernel file did not arrive whole");
      return false;
   }
   text[len] = '\0';
   char path[1400];
   bool ok = Vet_kernelSource(text, (size_t)len, why, whylen);
   if (ok && !c->dir[0]) {
      snprintf(c->dir, sizeof c->dir, "%s/%lu-%lu", S.uploads, (unsigned long)c->who.uid, c->id);
      if (mkdir(c->dir, 0700) != 0 && errno != EEXIST) {
         snprintf(why, whylen, "the server cannot keep the file: %s", strerror(errno));
         c->dir[0] = '\0';
         ok = false;
      }
   }
   if (ok && c->file[0]) {
      snprintf(path, sizeof path, "%s/%s", c->dir, c->file);
      unlink(path);
   }
   snprintf(path, sizeof path, "%s/%s", c->dir, name);
   if (ok && !Util_writeFileAtomic(path, text, (size_t)len)) {
      snprintf(why, whylen, "the server cannot keep the file: %s", strerror(errno));
      ok = false;
   }
   free(text);
   if (ok)
      Util_copy(c->file, sizeof c->file, name);
   return ok;
}

/* "job ...": the problem and the kernel of the run and vendor requests that follow,
 * within the server's limits. */
static bool takeJob(Conn *c, const char *line, char *why, size_t whylen) {
   MeasureJob j;
   if (!MeasureJob_parse(line, &j)) {
      snprintf(why, whylen, "the job line is not understood");
      return false;
   }
   const Problem *p = &j.problem;
   if (p->m > S.o.max_size || p->n > S.o.max_size || p->k > S.o.max_size) {
      snprintf(why, whylen, "refused: %dx%dx%d is larger than this server takes (M, N and K at most %d)", p->m, p->n,
               p->k, S.o.max_size);
      return false;
   }
   if (j.device >= S.nslots) {
      snprintf(why, whylen, "the server has %d device%s (0 to %d); device %d is not one", S.nslots,
               S.nslots == 1 ? "" : "s", S.nslots - 1, j.device);
      return false;
   }
   if (j.device < 0)
      j.device = -1;
   j.reps = j.reps < 1 ? 1 : j.reps > SERVE_MAX_REPS ? SERVE_MAX_REPS : j.reps;
   j.warmup = j.warmup < 0 ? 0 : j.warmup > SERVE_MAX_REPS ? SERVE_MAX_REPS : j.warmup;
   if (!(j.timeout_s > 0) || j.timeout_s > S.o.request_s)
      j.timeout_s = S.o.request_s;
   foldersWith(c->dir, j.kernels_dir, sizeof j.kernels_dir);
   c->job = j;
   c->has_job = true;
   return true;
}

static int readValues(const char *p, long long *values) {
   int n = 0;
   for (char *end; n < KERNEL_MAX_PARAMS; n++, p = end) {
      values[n] = strtoll(p, &end, 10);
      if (end == p)
         break;
   }
   return n;
}

/* "run VALUES" or "vendor": measured in turn, answered as the measuring child answers. */
static bool measure(Conn *c, RequestKind kind, const char *args) {
   char why[512];
   if (!c->has_job)
      return say(c, "result %d 0x0p+0 0x0p+0 0x0p+0 0x0p+0 0 a job line must come first", (int)SWEEP_FAILED);
   Request *r = newRequest(c, kind);
   if (r && kind == REQ_RUN)
      r->nvalues = readValues(args, r->values);
   bool queued = r && !diskFull(why, sizeof why) && enqueue(r, why, sizeof why);
   if (!r)
      snprintf(why, sizeof why, "refused: out of memory on the server");
   if (!queued) {
      free(r);
      return kind == REQ_RUN ? say(c, "result %d 0x0p+0 0x0p+0 0x0p+0 0x0p+0 0 %s", (int)SWEEP_FAILED, why)
                             : say(c, "vendor 0 0x0p+0 %s", why);
   }
   if (!await(c, r))
      return false;
   bool ok = say(c, "waited %.2f %d", (r->started_ms - r->queued_ms) / 1e3, r->slot);
   if (kind == REQ_RUN)
      ok = ok && say(c, "result %d %a %a %a %a %d %s", (int)r->c.outcome, r->c.gflops, r->c.median_ms,
                     r->c.compile_ms, r->c.max_rel_err, r->c.cached ? 1 : 0, r->c.reason);
   else
      ok = ok && say(c, "vendor %d %a %s", r->vendor_gflops > 0, r->vendor_gflops, r->vendor_name);
   free(r);
   return ok;
}

/* ---- assignments, submissions and boards ---- */

static bool validName(const char *name) {
   size_t n = strlen(name);
   if (n == 0 || n >= CLASS_NAME_MAX || name[0] == '.' || name[0] == '-')
      return false;
   for (size_t i = 0; i < n; i++)
      if (!((name[i] >= 'a' && name[i] <= 'z') || (name[i] >= 'A' && name[i] <= 'Z') ||
            (name[i] >= '0' && name[i] <= '9') || name[i] == '_' || name[i] == '-' || name[i] == '.'))
         return false;
   return true;
}

static int byStep(const void *a, const void *b) {
   return ((const BoardStep *)a)->step - ((const BoardStep *)b)->step;
}

/* The ladder of the kernel an assignment starts from (the server's kernels): its steps in
 * order, into steps (at most max); *ladder's name "" when there is none. */
static void ladderOf(const Assignment *a, BoardLadder *ladder, BoardStep *steps, int max) {
   memset(ladder, 0, sizeof *ladder);
   ladder->steps = steps;
   Catalog cat;
   char err[512];
   if (!a->kernel[0] || !Catalog_load(&cat, S.kernels, err, sizeof err))
      return;
   const KernelInfo *start = Catalog_find(&cat, a->kernel);
   if (start && start->ladder[0]) {
      Util_copy(ladder->name, sizeof ladder->name, start->ladder);
      for (int i = 0; i < cat.count && ladder->nsteps < max; i++) {
         const KernelInfo *k = &cat.kernels[i];
         if (strcmp(k->ladder, start->ladder) != 0 || k->hidden)
            continue;
         BoardStep *st = &steps[ladder->nsteps++];
         st->step = k->step;
         Util_copy(st->kernel, sizeof st->kernel, k->name);
         Util_copy(st->title, sizeof st->title, k->title);
      }
      qsort(steps, (size_t)ladder->nsteps, sizeof *steps, byStep);
   }
   Catalog_free(&cat);
}

#define BOARD_MAX_STEPS 64

static void writeBoardPage(const Assignment *a) {
   if (!S.o.board_dir)
      return;
   pthread_mutex_lock(&S.lock);
   Assignment now;
   int n = 0;
   Submission *subs = ClassDb_get(S.classdb, a->name, &now) ? ClassDb_submissions(S.classdb, a->name, (uid_t)-1, NULL, &n)
                                                            : NULL;
   pthread_mutex_unlock(&S.lock);
   BoardViewer anyone = {.uid = (uid_t)-1, .names_shown = S.o.names_shown};
   BoardStep steps[BOARD_MAX_STEPS];
   BoardLadder ladder;
   ladderOf(&now, &ladder, steps, BOARD_MAX_STEPS);
   char *page = Board_render(&now, subs, n, &anyone, &ladder, BOARD_HTML);
   char path[1200];
   snprintf(path, sizeof path, "%s/%s.html", S.o.board_dir, a->name);
   if (!page || !Util_writeFileAtomic(path, page, strlen(page)))
      logLine("board page %s not written: %s", path, page ? strerror(errno) : "out of memory");
   free(page);
   free(subs);
}

/* A kernel's values: its defaults, then sets ("A=1,B=2" or "-"), through the catalog of
 * folders. False with why. */
static bool resolveValues(const char *folders, const char *kernel, const char *sets, long long *values, int *n,
                          char *why, size_t whylen) {
   Catalog cat;
   if (!Catalog_load(&cat, folders, why, whylen))
      return false;
   char copy[256];
   Util_copy(copy, sizeof copy, strcmp(sets, "-") ? sets : "");
   const char *list[KERNEL_MAX_PARAMS];
   int nsets = 0;
   for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && nsets < KERNEL_MAX_PARAMS;
        t = strtok_r(NULL, ",", &save))
      list[nsets++] = t;
   Selection sel = {.kernel = kernel, .sets = list, .nsets = nsets};
   Problem_setDefaults(&sel.problem);
   Resolved res;
   bool ok = Catalog_find(&cat, kernel) && Select_resolve(&sel, &cat, &res, why, whylen);
   if (!Catalog_find(&cat, kernel))
      snprintf(why, whylen, "no kernel %s on the server", kernel);
   if (ok) {
      memcpy(values, res.values, sizeof res.values);
      *n = res.kernel->nparams;
   }
   Catalog_free(&cat);
   return ok;
}

/* A submission's request: its source in a folder of its own, its values resolved. */
static Request *judgeRequest(const RosterEntry *who, const Assignment *a, const Submission *s, const char *source,
                             size_t len, char *why, size_t whylen) {
   Request *r = calloc(1, sizeof *r);
   if (!r) {
      snprintf(why, whylen, "out of memory on the server");
      return NULL;
   }
   r->kind = REQ_JUDGE;
   r->who = *who;
   r->asg = *a;
   r->sub = *s;
   r->device = -1;
   atomic_init(&r->cancel, 0);
   snprintf(r->sub_dir, sizeof r->sub_dir, "%s/submission-%lld", S.uploads, s->id);
   char path[1400];
   snprintf(path, sizeof path, "%s/%s", r->sub_dir, s->file);
   if ((mkdir(r->sub_dir, 0700) != 0 && errno != EEXIST) || !Util_writeFileAtomic(path, source, len)) {
      snprintf(why, whylen, "the server cannot keep the file: %s", strerror(errno));
      free(r);
      return NULL;
   }
   MeasureJob *j = &r->job;
   Problem_setDefaults(&j->problem);
   if (!Precision_parse(a->precision, &j->problem.precision))
      j->problem.precision = PRECISION_FLOAT;
   Util_copy(j->kernel, sizeof j->kernel, s->kernel);
   foldersWith(r->sub_dir, j->kernels_dir, sizeof j->kernels_dir);
   j->reps = 1;
   j->warmup = 3;
   j->timeout_s = S.o.request_s;
   j->cold_l2 = a->cold_l2;
   sscanf(a->sizes, "%dx%dx%d", &j->problem.m, &j->problem.n, &j->problem.k);
   if (!resolveValues(j->kernels_dir, s->kernel, s->sets, r->values, &r->nvalues, why, whylen)) {
      removeTree(r->sub_dir);
      free(r);
      return NULL;
   }
   return r;
}

/* "submit ASSIGNMENT SETS" after a file: recorded, judged in turn, answered. */
static bool submit(Conn *c, const char *args) {
   char name[CLASS_NAME_MAX], sets[256] = "-", why[1024];
   if (sscanf(args, "%47s %255s", name, sets) < 1)
      return say(c, "error a submission names its assignment");
   Assignment a;
   pthread_mutex_lock(&S.lock);
   bool known = ClassDb_get(S.classdb, name, &a);
   long long stored = ClassDb_bytesOf(S.classdb, c->who.uid);
   pthread_mutex_unlock(&S.lock);
   if (!known)
      return say(c, "error there is no assignment %s on this server ('gemmtop class list' shows them)", name);
   if (!a.open)
      return say(c, "error assignment %s is closed: it takes no more submissions", name);
   if (!c->file[0])
      return say(c, "error a submission sends its kernel file first");
   char path[1400];
   snprintf(path, sizeof path, "%s/%s", c->dir, c->file);
   size_t len = 0;
   char *source = Util_readUserFile(path, UTIL_MAX_KERNEL_BYTES, &len, why, sizeof why);
   if (!source)
      return say(c, "error %s", why);
   KernelInfo k;
   memset(&k, 0, sizeof k);
   bool parsed = KernelInfo_parse(&k, source, c->file, why, sizeof why);
   Submission s;
   memset(&s, 0, sizeof s);
   if (parsed) {
      Util_copy(s.kernel, sizeof s.kernel, k.name);
      Util_copy(s.ladder, sizeof s.ladder, k.ladder);
      s.step = k.step;
   }
   KernelInfo_free(&k);
   bool ok = parsed;
   if (!ok)
      ; /* why says what is wrong with its metadata */
   else if (stored + (long long)len > (long long)S.o.quota_mb << 20) {
      snprintf(why, sizeof why,
               "refused: your submissions on this server hold %lld KB and this one is %zu KB; the quota is %d MB a "
               "student (ask the lecturer)",
               stored >> 10, len >> 10, S.o.quota_mb);
      ok = false;
   } else if (diskFull(why, sizeof why))
      ok = false;
   Request *r = NULL;
   if (ok) {
      Util_copy(s.assignment, sizeof s.assignment, name);
      s.uid = c->who.uid;
      Util_copy(s.user, sizeof s.user, c->who.name);
      s.time = (long long)time(NULL);
      Util_copy(s.file, sizeof s.file, c->file);
      Util_copy(s.sets, sizeof s.sets, sets);
      s.gflops = s.pct = s.max_rel_err = NAN;
      /* the configuration is checked before the submission is kept */
      long long values[KERNEL_MAX_PARAMS];
      int nvalues = 0;
      char folders[2400];
      foldersWith(c->dir, folders, sizeof folders);
      ok = resolveValues(folders, s.kernel, sets, values, &nvalues, why, sizeof why);
      if (ok) {
         pthread_mutex_lock(&S.lock);
         ok = ClassDb_submit(S.classdb, &s, source, len, why, sizeof why);
         pthread_mutex_unlock(&S.lock);
      }
      if (ok && !(r = judgeRequest(&c->who, &a, &s, source, len, why, sizeof why)))
         ok = false;
   }
   free(source);
   if (!ok)
      return say(c, "error %s", why);
   logLine("submit user=%s uid=%lu assignment=%s id=%lld kernel=%s file=%s", c->who.account,
           (unsigned long)c->who.uid, name, s.id, s.kernel, s.file);
   if (!say(c, "submitted %lld", s.id))
      return false;
   if (!enqueue(r, why, sizeof why)) {
      /* kept as queued: judged when the server next starts */
      removeTree(r->sub_dir);
      free(r);
      return say(c, "error %s (submission %lld is kept and will be judged later)", why, s.id);
   }
   if (!await(c, r))
      return false;
   char text[2048];
   if (r->sub.verified)
      snprintf(text, sizeof text, "submission %lld to %s: verified, %.2f GFLOPS%s\n%s", s.id, name, r->sub.gflops,
               isfinite(r->sub.pct) ? "" : " (no vendor figure)", r->sub.detail);
   else
      snprintf(text, sizeof text, "submission %lld to %s: not verified: %s\n%s", s.id, name, r->sub.reason,
               r->sub.detail);
   bool verified = r->sub.verified;
   if (isfinite(r->sub.pct)) {
      char pct[64];
      snprintf(pct, sizeof pct, "%.1f%% of the vendor library\n", r->sub.pct);
      strncat(text, pct, sizeof text - strlen(text) - 1);
   }
   free(r);
   return say(c, "judged %d", verified) && sayText(c, text);
}

/* class assign NAME KERNEL SETS SIZES PRECISION ROUNDS COLD */
static bool classAssign(Conn *c, const char *args) {
   Assignment a;
   memset(&a, 0, sizeof a);
   int cold = 0;
   char why[1024];
   if (sscanf(args, "%47s %63s %255s %255s %15s %d %d", a.name, a.kernel, a.sets, a.sizes, a.precision, &a.rounds,
              &cold) != 7)
      return say(c, "error assign NAME KERNEL|- SETS|- SIZES PRECISION ROUNDS COLD");
   if (!validName(a.name))
      return say(c, "error an assignment's name is letters, digits, '_', '-', '.', under %d characters",
                 CLASS_NAME_MAX);
   Precision prec;
   if (!Precision_parse(a.precision, &prec))
      return say(c, "error unknown precision %s", a.precision);
   if (a.rounds < 1 || a.rounds > SERVE_MAX_ROUNDS)
      return say(c, "error rounds: 1 to %d", SERVE_MAX_ROUNDS);
   char sizes[sizeof a.sizes];
   Util_copy(sizes, sizeof sizes, a.sizes);
   int nsizes = 0;
   for (char *save = NULL, *t = strtok_r(sizes, ",", &save); t; t = strtok_r(NULL, ",", &save), nsizes++) {
      int m, n, k;
      char tail;
      if (sscanf(t, "%dx%dx%d%c", &m, &n, &k, &tail) != 3 || m < 1 || n < 1 || k < 1)
         return say(c, "error a size is MxNxK: '%.40s'", t);
      if (m > S.o.max_size || n > S.o.max_size || k > S.o.max_size)
         return say(c, "error %s is larger than this server takes (at most %d)", t, S.o.max_size);
   }
   if (!nsizes)
      return say(c, "error an assignment has at least one size");
   if (strcmp(a.kernel, "-")) {
      long long values[KERNEL_MAX_PARAMS];
      int n = 0;
      if (!resolveValues(S.kernels, a.kernel, a.sets, values, &n, why, sizeof why))
         return say(c, "error %s", why);
   } else
      a.kernel[0] = '\0';
   if (!strcmp(a.sets, "-"))
      a.sets[0] = '\0';
   a.cold_l2 = cold != 0;
   pthread_mutex_lock(&S.lock);
   bool ok = ClassDb_assign(S.classdb, &a, why, sizeof why);
   pthread_mutex_unlock(&S.lock);
   if (!ok)
      return say(c, "error %s", why);
   logLine("assign user=%s name=%s sizes=%s precision=%s rounds=%d", c->who.account, a.name, a.sizes, a.precision,
           a.rounds);
   a.open = true;
   writeBoardPage(&a);
   char text[512];
   snprintf(text, sizeof text, "assignment %s published: %s in %s, %d judged launch%s a size%s", a.name, a.sizes,
            a.precision, a.rounds, a.rounds == 1 ? "" : "es", a.cold_l2 ? ", L2 cold" : "");
   return sayText(c, text);
}


static bool classSetOpen(Conn *c, const char *name, bool open) {
   Assignment a;
   char why[512];
   pthread_mutex_lock(&S.lock);
   bool known = ClassDb_get(S.classdb, name, &a);
   bool ok = known && ClassDb_setOpen(S.classdb, name, open, why, sizeof why);
   pthread_mutex_unlock(&S.lock);
   if (!known)
      return say(c, "error there is no assignment %s", name);
   if (!ok)
      return say(c, "error %s", why);
   logLine("%s user=%s name=%s", open ? "reopen" : "close", c->who.account, name);
   writeBoardPage(&a);
   char text[128];
   snprintf(text, sizeof text, "assignment %s %s", name, open ? "open again" : "closed: no more submissions");
   return sayText(c, text);
}

static bool classList(Conn *c) {
   pthread_mutex_lock(&S.lock);
   int n = 0;
   Assignment *all = ClassDb_list(S.classdb, &n);
   pthread_mutex_unlock(&S.lock);
   TextBuf t = {0};
   TextBuf_put(&t, "%-20s %-7s %-10s %6s  %-28s %s\n", "assignment", "state", "precision", "rounds", "sizes",
               "starting kernel");
   for (int i = 0; i < n; i++)
      TextBuf_put(&t, "%-20s %-7s %-10s %6d  %-28s %s%s%s%s\n", all[i].name, all[i].open ? "open" : "closed",
                  all[i].precision, all[i].rounds, all[i].sizes, all[i].kernel[0] ? all[i].kernel : "-",
                  all[i].sets[0] ? " (" : "", all[i].sets, all[i].sets[0] ? ")" : "");
   if (!n)
      TextBuf_put(&t, "(no assignments yet: 'gemmtop class assign' publishes one)\n");
   free(all);
   char *text = TextBuf_finish(&t);
   bool ok = text ? sayText(c, text) : say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* class board NAME FORMAT: what this client may see of it. */
static bool classBoard(Conn *c, const char *name, const char *format) {
   BoardFormat f;
   if (!Board_parseFormat(format, &f))
      return say(c, "error a board's format is table, csv, json or html");
   Assignment a;
   int n = 0;
   pthread_mutex_lock(&S.lock);
   bool known = ClassDb_get(S.classdb, name, &a);
   Submission *subs = known ? ClassDb_submissions(S.classdb, name, (uid_t)-1, NULL, &n) : NULL;
   pthread_mutex_unlock(&S.lock);
   if (!known)
      return say(c, "error there is no assignment %s ('gemmtop class list' shows them)", name);
   BoardViewer v = {.uid = c->who.uid, .lecturer = c->who.lecturer, .names_shown = S.o.names_shown};
   BoardStep steps[BOARD_MAX_STEPS];
   BoardLadder ladder;
   ladderOf(&a, &ladder, steps, BOARD_MAX_STEPS);
   char *text = Board_render(&a, subs, n, &v, &ladder, f);
   free(subs);
   bool ok = text ? sayText(c, text) : say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* class mine NAME: this student's own submissions, with why each was refused. */
static bool classMine(Conn *c, const char *name) {
   int n = 0;
   pthread_mutex_lock(&S.lock);
   Submission *subs = ClassDb_submissions(S.classdb, name, c->who.uid, NULL, &n);
   pthread_mutex_unlock(&S.lock);
   TextBuf t = {0};
   for (int i = 0; i < n; i++) {
      const Submission *s = &subs[i];
      TextBuf_put(&t, "#%lld %s %s %s: ", s->id, s->assignment, s->file, s->sets[0] && strcmp(s->sets, "-") ? s->sets : "");
      if (!strcmp(s->state, "queued"))
         TextBuf_put(&t, "waiting to be judged\n");
      else if (s->verified)
         TextBuf_put(&t, "verified, %.2f GFLOPS%s\n%s", s->gflops, "", s->detail);
      else
         TextBuf_put(&t, "not verified: %s\n", s->reason);
   }
   if (!n)
      TextBuf_put(&t, "(no submissions of yours%s%s)\n", name[0] ? " to " : "", name);
   free(subs);
   char *text = TextBuf_finish(&t);
   bool ok = text ? sayText(c, text) : say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* class export NAME: every submission's source and a CSV of them, for the lecturer. */
static bool classExport(Conn *c, const char *name) {
   int n = 0;
   Assignment a;
   pthread_mutex_lock(&S.lock);
   bool known = ClassDb_get(S.classdb, name, &a);
   Submission *subs = known ? ClassDb_submissions(S.classdb, name, (uid_t)-1, NULL, &n) : NULL;
   pthread_mutex_unlock(&S.lock);
   if (!known)
      return say(c, "error there is no assignment %s", name);
   TextBuf t = {0};
   TextBuf_put(&t, "id,account_uid,student,time,file,kernel,sets,state,verified,gflops,pct_vendor,max_rel_err,"
                   "waited_s,device,reason\n");
   bool ok = true;
   for (int i = 0; i < n && ok; i++) {
      const Submission *s = &subs[i];
      TextBuf_put(&t, "%lld,%lu,\"%s\",%lld,%s,%s,\"%s\",%s,%d,%.6g,%.4g,%.3g,%.2f,\"%s\",\"", s->id,
                  (unsigned long)s->uid, s->user, s->time, s->file, s->kernel, s->sets, s->state, s->verified,
                  s->gflops, s->pct, s->max_rel_err, s->waited_s, s->device);
      for (const char *q = s->reason; *q; q++)
         TextBuf_put(&t, "%s", *q == '"' ? "\"\"" : (char[]){*q, 0});
      TextBuf_put(&t, "\"\n");
      size_t len = 0;
      pthread_mutex_lock(&S.lock);
      char *source = ClassDb_source(S.classdb, s->id, &len);
      pthread_mutex_unlock(&S.lock);
      if (source) {
         char file[160];
         snprintf(file, sizeof file, "%lld-%s", s->id, s->file);
         ok = say(c, "file %s %zu", file, len) && Lines_write(c->fd, source, len);
      }
      free(source);
   }
   free(subs);
   char *csv = TextBuf_finish(&t);
   if (ok && csv)
      ok = say(c, "file submissions.csv %zu", strlen(csv)) && Lines_write(c->fd, csv, strlen(csv));
   free(csv);
   logLine("export user=%s name=%s submissions=%d", c->who.account, name, n);
   return ok && say(c, "end");
}

/* class status: the devices, the queue, and (for the lecturer) who waits. */
static bool classStatus(Conn *c) {
   TextBuf t = {0};
   pthread_mutex_lock(&S.lock);
   TextBuf_put(&t, "gemmtop serve %s on %s: %d device%s, %d request%s waiting, %lld MB free\n", GEMMTOP_VERSION,
               S.socket_path, S.nslots, S.nslots == 1 ? "" : "s", S.queue.n, S.queue.n == 1 ? "" : "s", freeMb());
   for (int i = 0; i < S.nslots; i++)
      TextBuf_put(&t, "device %d: %s (%s)\n", i, S.slots[i].info.name, S.be->name);
   TextBuf_put(&t, "limits: size %d, %.0f s a request, %d in flight a student, quota %d MB\n", S.o.max_size,
               S.o.request_s, S.o.in_flight, S.o.quota_mb);
   for (int i = 0; i < S.nload; i++) {
      if (!S.load[i].in_flight || (!c->who.lecturer && S.load[i].uid != c->who.uid))
         continue;
      RosterEntry e;
      if (Roster_find(&S.roster, S.load[i].uid, &e) || c->who.lecturer)
         TextBuf_put(&t, "%s: %d in flight\n", S.load[i].uid == c->who.uid ? "you" : e.name, S.load[i].in_flight);
   }
   pthread_mutex_unlock(&S.lock);
   char *text = TextBuf_finish(&t);
   bool ok = text ? sayText(c, text) : say(c, "error out of memory on the server");
   free(text);
   return ok;
}

/* "device SLOT" (-1: the first): the device as this gemmtop holds it, for a client of the
 * same version that lists a sweep's space for it (Measurer_serverDevice). */
static bool describeDevice(Conn *c, int slot) {
   if (slot < 0)
      slot = 0;
   if (slot >= S.nslots)
      return say(c, "failed the server has %d device%s (0 to %d)", S.nslots, S.nslots == 1 ? "" : "s",
                 S.nslots - 1);
   const unsigned char *bytes = (const unsigned char *)&S.slots[slot].info;
   size_t n = sizeof S.slots[slot].info;
   char *hex = malloc(2 * n + 1);
   if (!hex)
      return say(c, "failed out of memory on the server");
   for (size_t i = 0; i < n; i++)
      snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
   bool ok = Lines_printf(c->fd, "device %s %s %zu %s\n", GEMMTOP_VERSION, S.be->name, n, hex);
   free(hex);
   return ok;
}

/* "class VERB ARGS": the lecturer's verbs refuse anyone else. */
static bool classCommand(Conn *c, const char *args) {
   char verb[16] = "", name[CLASS_NAME_MAX] = "", format[16] = "table";
   int used = 0;
   sscanf(args, "%15s %n", verb, &used);
   const char *rest = args + used;
   sscanf(rest, "%47s %15s", name, format);
   static const char *const lecturers[] = {"assign", "close", "open", "export"};
   for (size_t i = 0; i < sizeof lecturers / sizeof lecturers[0]; i++)
      if (!strcmp(verb, lecturers[i]) && !c->who.lecturer)
         return say(c, "error only a lecturer may %s assignments (you are %s, account %s)", verb, c->who.name,
                    c->who.account);
   if (!strcmp(verb, "assign"))
      return classAssign(c, rest);
   if (!strcmp(verb, "close") || !strcmp(verb, "open"))
      return classSetOpen(c, name, !strcmp(verb, "open"));
   if (!strcmp(verb, "list"))
      return classList(c);
   if (!strcmp(verb, "board"))
      return classBoard(c, name, format);
   if (!strcmp(verb, "mine"))
      return classMine(c, name);
   if (!strcmp(verb, "export"))
      return classExport(c, name);
   if (!strcmp(verb, "status"))
      return classStatus(c);
   return say(c, "error unknown class request '%.20s': assign, close, open, list, board, mine, export, status", verb);
}

static void endConnection(Conn *c) {
   if (c->dir[0])
      removeTree(c->dir);
   close(c->fd);
   pthread_mutex_lock(&S.lock);
   StudentLoad *l = loadOf(c->who.uid);
   if (l)
      l->connections--;
   S.connections--;
   pthread_mutex_unlock(&S.lock);
   free(c);
}

/* One client's lines, in order, until it closes or goes silent. */
static void *connection(void *arg) {
   Conn *c = arg;
   char line[LINES_MAX], why[1024];
   LineReader_init(&c->in, c->fd);
   for (bool alive = true; alive;) {
      int got = LineReader_next(&c->in, line, sizeof line, Util_nowMs() + SERVE_IDLE_S * 1e3, NULL);
      if (got != 1)
         break;
      if (!strncmp(line, "file ", 5)) {
         if (!takeFile(c, line, why, sizeof why))
            alive = say(c, "failed %s", why) && false;
      } else if (!strncmp(line, "job ", 4))
         alive = takeJob(c, line, why, sizeof why) ? say(c, "ready") : say(c, "failed %s", why);
      else if (!strncmp(line, "run", 3) && (line[3] == ' ' || !line[3]))
         alive = measure(c, REQ_RUN, line + 3);
      else if (!strcmp(line, "vendor"))
         alive = measure(c, REQ_VENDOR, "");
      else if (!strncmp(line, "submit ", 7))
         alive = submit(c, line + 7);
      else if (!strncmp(line, "class ", 6))
         alive = classCommand(c, line + 6);
      else if (!strncmp(line, "device ", 7))
         alive = describeDevice(c, atoi(line + 7));
      else
         alive = say(c, "error unknown request '%.40s'", line);
   }
   endConnection(c);
   return NULL;
}

/* A new client: who it is, whether it may come in, its thread. */
static void admit(int fd) {
   struct ucred cred;
   socklen_t len = sizeof cred;
   Conn *c = calloc(1, sizeof *c);
   if (!c || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
      free(c);
      close(fd);
      return;
   }
   c->fd = fd;
   char why[512] = "";
   if (!Roster_find(&S.roster, cred.uid, &c->who)) {
      char account[64];
      RosterEntry open;
      Roster probe = {.open = true, .owner = S.roster.owner};
      Roster_find(&probe, cred.uid, &open);
      Util_copy(account, sizeof account, open.account);
      snprintf(why, sizeof why, "you (account %s, uid %lu) are not on this class's roster: ask the lecturer", account,
               (unsigned long)cred.uid);
      logLine("refused uid=%lu account=%s: not on the roster", (unsigned long)cred.uid, account);
   }
   pthread_mutex_lock(&S.lock);
   StudentLoad *l = why[0] ? NULL : loadOf(c->who.uid);
   if (!why[0] && (S.connections >= SERVE_MAX_CONNECTIONS || !l))
      snprintf(why, sizeof why, "the server has too many connections open (%d); try again soon", S.connections);
   else if (!why[0] && !c->who.lecturer && l->connections >= S.o.in_flight + SERVE_SPARE_CONNECTIONS)
      snprintf(why, sizeof why, "refused: you have %d connections open, the most this server takes from one student",
               l->connections);
   if (!why[0]) {
      l->connections++;
      S.connections++;
      c->id = ++S.next_conn;
   }
   pthread_mutex_unlock(&S.lock);
   if (why[0]) {
      Lines_printf(fd, "failed %s\n", why);
      close(fd);
      free(c);
      return;
   }
   pthread_t t;
   pthread_attr_t attr;
   pthread_attr_init(&attr);
   pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
   if (pthread_create(&t, &attr, connection, c) != 0)
      endConnection(c);
   pthread_attr_destroy(&attr);
}

/* ---- starting and stopping ---- */

static void onSignal(int sig) {
   char b = (char)sig;
   ssize_t w = write(S.wake[1], &b, 1);
   (void)w;
}

/* The socket: a stale one (no server answers) is replaced; anything else at the path is
 * left as it is. */
static int listenOn(const char *path, char *err, size_t errlen) {
   struct sockaddr_un addr = {.sun_family = AF_UNIX};
   if (strlen(path) >= sizeof addr.sun_path) {
      snprintf(err, errlen, "--socket %s is %zu characters long; a Unix socket's path has at most %zu", path,
               strlen(path), sizeof addr.sun_path - 1);
      return -1;
   }
   Util_copy(addr.sun_path, sizeof addr.sun_path, path);
   struct stat st;
   if (lstat(path, &st) == 0) {
      if (!S_ISSOCK(st.st_mode)) {
         snprintf(err, errlen, "%s exists and is a %s, not a socket: it was left as it is; choose another --socket",
                  path, Util_fileKind(st.st_mode));
         return -1;
      }
      int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
      bool live = probe >= 0 && connect(probe, (struct sockaddr *)&addr, sizeof addr) == 0;
      if (probe >= 0)
         close(probe);
      if (live) {
         snprintf(err, errlen, "another gemmtop serve is listening on %s already", path);
         return -1;
      }
      unlink(path); /* a server that ended without removing it */
   }
   int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
   if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0 || listen(fd, 128) != 0) {
      snprintf(err, errlen, "cannot listen on %s: %s", path, strerror(errno));
      if (fd >= 0)
         close(fd);
      return -1;
   }
   chmod(path, (mode_t)S.o.socket_mode);
   return fd;
}

/* The devices: --device's list, or the best one. */
static bool pickDevices(char *err, size_t errlen) {
   DeviceInfo *devs = NULL;
   int count = 0;
   if (S.o.backend) {
      if (!(S.be = Select_backend(S.o.backend, err, errlen)))
         return false;
      count = Backend_listDevices(S.be, &devs, err, errlen);
   } else
      S.be = Select_defaultBackend(&devs, &count, err, errlen);
   if (count <= 0) {
      free(devs);
      return false;
   }
   char list[256];
   Util_copy(list, sizeof list, S.o.devices ? S.o.devices : "");
   char *save = NULL, *word = S.o.devices ? strtok_r(list, ",", &save) : NULL;
   do {
      int i = Device_pick(devs, count, word, err, errlen);
      if (i < 0) {
         free(devs);
         return false;
      }
      for (int s = 0; s < S.nslots; s++)
         if (S.slots[s].info.index == devs[i].index) {
            snprintf(err, errlen, "--device names device %d twice", devs[i].index);
            free(devs);
            return false;
         }
      if (S.nslots == SERVE_MAX_DEVICES) {
         snprintf(err, errlen, "--device: at most %d devices", SERVE_MAX_DEVICES);
         free(devs);
         return false;
      }
      S.slots[S.nslots++].info = devs[i];
   } while (word && (word = strtok_r(NULL, ",", &save)));
   free(devs);
   return true;
}

/* Submissions a stopped server had taken and not judged: judged now, as orphans. */
static void resumeQueued(void) {
   int n = 0;
   Submission *subs = ClassDb_submissions(S.classdb, "", (uid_t)-1, "queued", &n);
   for (int i = 0; i < n; i++) {
      Assignment a;
      size_t len = 0;
      char why[512];
      char *source = ClassDb_source(S.classdb, subs[i].id, &len);
      RosterEntry who;
      if (!Roster_find(&S.roster, subs[i].uid, &who)) {
         memset(&who, 0, sizeof who);
         who.uid = subs[i].uid;
         Util_copy(who.name, sizeof who.name, subs[i].user);
         snprintf(who.account, sizeof who.account, "%lu", (unsigned long)subs[i].uid);
      }
      Request *r = source && ClassDb_get(S.classdb, subs[i].assignment, &a)
                       ? judgeRequest(&who, &a, &subs[i], source, len, why, sizeof why)
                       : NULL;
      free(source);
      if (!r) {
         Submission s = subs[i];
         s.verified = false;
         snprintf(s.reason, sizeof s.reason, "could not be judged after the server restarted");
         ClassDb_judged(S.classdb, &s, why, sizeof why);
         continue;
      }
      r->orphan = true;
      r->queued_ms = Util_nowMs();
      FairQueue_push(&S.queue, r->who.uid, -1, r);
      StudentLoad *l = loadOf(r->who.uid);
      if (l)
         l->in_flight++;
      logLine("resume submission id=%lld user=%s", subs[i].id, subs[i].user);
   }
   free(subs);
}

static bool openState(char *err, size_t errlen) {
   if (S.o.state_dir)
      Util_copy(S.state, sizeof S.state, S.o.state_dir);
   else {
      const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
      if (data && *data)
         snprintf(S.state, sizeof S.state, "%s/gemmtop/serve", data);
      else
         snprintf(S.state, sizeof S.state, "%s/.local/share/gemmtop/serve", home ? home : ".");
   }
   snprintf(S.uploads, sizeof S.uploads, "%s/uploads", S.state);
   if (!Util_mkdirs(S.uploads)) {
      snprintf(err, errlen, "cannot make the server's folder %s: %s", S.uploads, strerror(errno));
      return false;
   }
   chmod(S.state, 0700); /* students' sources are kept here */
   char path[1200];
   snprintf(path, sizeof path, "%s/serve.log", S.state);
   if (!(S.log = fopen(path, "a"))) {
      snprintf(err, errlen, "cannot write the server's log %s: %s", path, strerror(errno));
      return false;
   }
   snprintf(path, sizeof path, "%s/class.db", S.state);
   if (!(S.classdb = ClassDb_open(path, err, errlen)))
      return false;
   char store[1200];
   if (S.o.store)
      Util_copy(store, sizeof store, S.o.store);
   else
      snprintf(store, sizeof store, "%s/results.db", S.state);
   if (!(S.store = Store_open(store, err, errlen)))
      return false;
   if (!Catalog_defaultDir(S.kernels, sizeof S.kernels)) {
      snprintf(err, errlen, "cannot find the kernels folder (set GEMMTOP_KERNELS)");
      return false;
   }
   return true;
}

int Serve_main(const ServeOptions *o) {
   memset(&S, 0, sizeof S);
   S.o = *o;
   S.start_ms = Util_nowMs();
   Util_copy(S.socket_path, sizeof S.socket_path, o->socket_path);
   char err[2048];
   pthread_mutex_init(&S.lock, NULL);
   pthread_cond_init(&S.work, NULL);
   pthread_cond_init(&S.done, NULL);
   FairQueue_init(&S.queue);
   struct sigaction ign = {.sa_handler = SIG_IGN};
   sigaction(SIGPIPE, &ign, NULL);
   if (!Roster_load(&S.roster, o->roster, getuid(), err, sizeof err)) {
      fprintf(stderr, "gemmtop serve: %s\n", err);
      return 2;
   }
   if (o->board_dir && !Util_mkdirs(o->board_dir)) {
      fprintf(stderr, "gemmtop serve: cannot make --board-dir %s: %s\n", o->board_dir, strerror(errno));
      return 2;
   }
   if (!openState(err, sizeof err) || !pickDevices(err, sizeof err)) {
      fprintf(stderr, "gemmtop serve: %s\n", err);
      return 1;
   }
   int lfd = listenOn(o->socket_path, err, sizeof err);
   if (lfd < 0 || pipe2(S.wake, O_CLOEXEC) != 0) {
      fprintf(stderr, "gemmtop serve: %s\n", err);
      return 1;
   }
   struct sigaction stop = {.sa_handler = onSignal};
   sigaction(SIGINT, &stop, NULL);
   sigaction(SIGTERM, &stop, NULL);
   resumeQueued();
   for (int i = 0; i < S.nslots; i++)
      pthread_create(&S.slots[i].thread, NULL, worker, (void *)(intptr_t)i);
   printf("gemmtop serve: listening on %s (%s); %d device%s:", o->socket_path,
          S.roster.open ? "anyone who can open it" : "the roster's accounts", S.nslots, S.nslots == 1 ? "" : "s");
   for (int i = 0; i < S.nslots; i++)
      printf("%s %d %s", i ? "," : "", S.slots[i].info.index, S.slots[i].info.name);
   printf(" (%s); records in %s\n", S.be->name, S.state);
   fflush(stdout);
   logLine("start socket=%s devices=%d roster=%s pid=%ld", o->socket_path, S.nslots,
           o->roster ? o->roster : "open", (long)getpid());
   for (;;) {
      struct pollfd p[2] = {{.fd = lfd, .events = POLLIN}, {.fd = S.wake[0], .events = POLLIN}};
      if (poll(p, 2, -1) < 0 && errno != EINTR)
         break;
      if (p[1].revents)
         break;
      if (p[0].revents & POLLIN) {
         int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
         if (fd >= 0)
            admit(fd);
      }
   }
   /* Stopping: no one new; measuring children killed; what is queued stays queued in the
    * class records (submissions are judged at the next start). */
   close(lfd);
   unlink(o->socket_path);
   pthread_mutex_lock(&S.lock);
   S.stopping = true;
   pthread_cond_broadcast(&S.work);
   Measurer_killChildren();
   logLine("stop");
   Store_close(S.store);
   S.store = NULL;
   ClassDb_close(S.classdb);
   S.classdb = NULL;
   fflush(S.log);
   printf("gemmtop serve: stopped\n");
   fflush(stdout);
   _exit(0);
}
