/* SO_PEERCRED, struct ucred, POLLRDHUP */
#define _GNU_SOURCE
#include "serve/serve.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include "base/util.h"
#include "core/model/catalog.h"
#include "core/sweep/measurer.h"
#include "core/results/record.h"
#include "core/run/select.h"
#include "core/results/store.h"
#include "serve/fairq.h"
#include "serve/roster.h"
#include "serve/serve_int.h"
#include "serve/vet.h"

ServeState Srv;

/* ---- the log: one line per event, for the lecturer and for tests ---- */

void Serve_log(const char *fmt, ...) {
   if (!Srv.log)
      return;
   char when[32];
   time_t now = time(NULL);
   struct tm tm;
   strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
   flockfile(Srv.log);
   fprintf(Srv.log, "%s ", when);
   va_list ap;
   va_start(ap, fmt);
   vfprintf(Srv.log, fmt, ap);
   va_end(ap);
   fputc('\n', Srv.log);
   fflush(Srv.log);
   funlockfile(Srv.log);
}

/* ---- per-student load (under the lock) ---- */

StudentLoad *Serve_loadOf(uid_t uid) {
   for (int i = 0; i < Srv.nload; i++)
      if (Srv.load[i].uid == uid)
         return &Srv.load[i];
   StudentLoad *grown = realloc(Srv.load, (size_t)(Srv.nload + 1) * sizeof *grown);
   if (!grown)
      return NULL;
   Srv.load = grown;
   Srv.load[Srv.nload] = (StudentLoad){.uid = uid};
   return &Srv.load[Srv.nload++];
}

/* ---- disk ---- */

/* MB free where the state is kept. */
long long Serve_freeMb(void) {
   struct statvfs v;
   if (statvfs(Srv.state, &v) != 0)
      return -1;
   return (long long)((unsigned long long)v.f_bavail * v.f_frsize >> 20);
}

/* Why nothing new can be taken now, or false. */
bool Serve_diskFull(char *why, size_t whylen) {
   long long mb = Serve_freeMb();
   if (mb < 0 || mb >= Srv.o.min_free_mb)
      return false;
   snprintf(why, whylen,
            "the server's disk is nearly full (%lld MB free where it keeps its records; it needs %d): it takes "
            "nothing new until the lecturer frees space",
            mb, Srv.o.min_free_mb);
   return true;
}

void Serve_removeTree(const char *dir) {
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
   if (Srv.store && !Store_add(Srv.store, rec, 1, err, sizeof err))
      Serve_log("store error: %s", err);
}

/* The record of a configuration measured for r (its kernel read from the request's folders). */
void Serve_recordCandidate(const Request *r, const MeasureJob *j, const SweepCandidate *c, const char *origin) {
   Catalog cat;
   char err[512];
   if (!Catalog_load(&cat, j->kernels_dir, err, sizeof err))
      return;
   const KernelInfo *k = Catalog_find(&cat, j->kernel);
   if (k) {
      RecordPlace at = {Srv.be->name, &Srv.slots[r->slot].info};
      StoreRecord rec;
      Record_fromCandidate(&rec, origin, &at, k, &j->problem, c, false, j->cold_l2, "");
      rec.reps = c->outcome == SWEEP_OK ? (r->kind == REQ_JUDGE ? r->asg.rounds : j->reps) : 0;
      Util_copy(rec.user, sizeof rec.user, r->who.name);
      pthread_mutex_lock(&Srv.lock);
      recordLocked(&rec);
      pthread_mutex_unlock(&Srv.lock);
   }
   Catalog_free(&cat);
}

void Serve_recordVendor(const Request *r, const MeasureJob *j, double gflops, const char *name) {
   VendorResult v;
   Measurer_vendorResult(gflops, name, &j->problem, j->reps, &v);
   RecordPlace at = {Srv.be->name, &Srv.slots[r->slot].info};
   StoreRecord rec;
   Record_fromVendor(&rec, &at, &j->problem, &v);
   Util_copy(rec.user, sizeof rec.user, r->who.name);
   pthread_mutex_lock(&Srv.lock);
   recordLocked(&rec);
   pthread_mutex_unlock(&Srv.lock);
}

/* The job as this server runs it on slot: its device, limits and folders. */
MeasureJob Serve_jobOn(const Request *r, int slot) {
   MeasureJob j = r->job;
   Util_copy(j.backend, sizeof j.backend, Srv.be->name);
   j.device = Srv.slots[slot].info.index;
   j.server[0] = j.upload[0] = '\0';
   j.request_s = Srv.o.request_s;
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   /* A CPU device runs the kernel on every core: the CPU limit allows that, and the wall
    * deadline (request_s) is the real one. */
   j.cpu_s = (int)(Srv.o.request_s * (cores > 0 ? (double)cores : 1.0)) + 30;
   j.data_mb = Srv.o.data_mb;
   return j;
}

static void execute(Request *r, int slot) {
   MeasureJob j = Serve_jobOn(r, slot);
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
         Serve_recordCandidate(r, &j, &r->c, "serve");
      return;
   }
   case REQ_VENDOR: {
      Measurer *m = Measurer_new(&j);
      r->vendor_gflops = m ? Measurer_vendor(m, r->vendor_name, sizeof r->vendor_name) : 0;
      if (!m)
         snprintf(r->vendor_name, sizeof r->vendor_name, "out of memory on the server");
      Measurer_free(m);
      Serve_recordVendor(r, &j, r->vendor_gflops, r->vendor_name);
      return;
   }
   case REQ_JUDGE: {
      ClassCmd_judge(r, slot);
      r->sub.waited_s = (r->started_ms - r->queued_ms) / 1e3;
      char err[512];
      pthread_mutex_lock(&Srv.lock);
      if (!ClassDb_judged(Srv.classdb, &r->sub, err, sizeof err))
         Serve_log("class records error: %s", err);
      pthread_mutex_unlock(&Srv.lock);
      Serve_removeTree(r->sub_dir);
      ClassCmd_writeBoard(&r->asg);
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
   pthread_mutex_lock(&Srv.lock);
   for (;;) {
      Request *r = NULL;
      while (!Srv.stopping && !(r = FairQueue_pop(&Srv.queue, slot)))
         pthread_cond_wait(&Srv.work, &Srv.lock);
      if (Srv.stopping)
         break;
      r->state = REQ_RUNNING;
      r->slot = slot;
      r->started_ms = Util_nowMs();
      pthread_cond_broadcast(&Srv.done); /* positions moved */
      pthread_mutex_unlock(&Srv.lock);
      Serve_log("begin %s user=%s uid=%lu device=%d kernel=%s", kindName(r->kind), r->who.account,
              (unsigned long)r->who.uid, slot, r->job.kernel);
      execute(r, slot);
      pthread_mutex_lock(&Srv.lock);
      r->ended_ms = Util_nowMs();
      r->state = REQ_DONE;
      StudentLoad *l = Serve_loadOf(r->who.uid);
      if (l)
         l->in_flight--;
      const char *outcome = r->kind == REQ_RUN     ? SweepOutcome_name(r->c.outcome)
                            : r->kind == REQ_JUDGE ? (r->sub.verified ? "ok" : "rejected")
                                                   : (r->vendor_gflops > 0 ? "ok" : "failed");
      double gflops = r->kind == REQ_RUN ? r->c.gflops : r->kind == REQ_JUDGE ? r->sub.gflops : r->vendor_gflops;
      Serve_log("%s user=%s uid=%lu device=%d queued=%.1f start=%.1f end=%.1f kernel=%s size=%dx%dx%d outcome=%s "
              "gflops=%.6g",
              kindName(r->kind), r->who.account, (unsigned long)r->who.uid, slot, r->queued_ms - Srv.start_ms,
              r->started_ms - Srv.start_ms, r->ended_ms - Srv.start_ms, r->job.kernel, r->job.problem.m, r->job.problem.n,
              r->job.problem.k, outcome, gflops);
      if (r->orphan)
         free(r);
      pthread_cond_broadcast(&Srv.done);
   }
   pthread_mutex_unlock(&Srv.lock);
   return NULL;
}

/* ---- a connection ---- */

/* Every line the server sends holds text of other people (a client's own words echoed, a
 * compiler's about a kernel, names on a board): its control characters are made visible
 * (ESC as "^["), line breaks made blanks. */
bool Serve_say(Conn *c, const char *fmt, ...) {
   char line[2048], shown[4 * sizeof line + 1];
   va_list ap;
   va_start(ap, fmt);
   int n = vsnprintf(line, sizeof line, fmt, ap);
   va_end(ap);
   if (n < 0)
      return false;
   for (char *p = line; *p; p++)
      if (*p == '\n' || *p == '\r')
         *p = ' ';
   Util_visible(line, shown, sizeof shown - 1);
   size_t len = strlen(shown);
   shown[len++] = '\n';
   return Lines_write(c->fd, shown, len);
}

/* A text of many lines as "text" lines, then "end". */
bool Serve_sayText(Conn *c, const char *text) {
   for (const char *p = text; p && *p;) {
      const char *nl = strchr(p, '\n');
      int len = nl ? (int)(nl - p) : (int)strlen(p);
      if (!Serve_say(c, "text %.*s", len, p))
         return false;
      p = nl ? nl + 1 : NULL;
   }
   return Serve_say(c, "end");
}

static bool clientGone(int fd) {
   struct pollfd p = {.fd = fd, .events = POLLRDHUP};
   return poll(&p, 1, 0) > 0 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* Puts r in the queue when the student may have one more in flight; false with why. */
bool Serve_enqueue(Request *r, char *why, size_t whylen) {
   pthread_mutex_lock(&Srv.lock);
   StudentLoad *l = Serve_loadOf(r->who.uid);
   bool ok = false;
   if (Srv.stopping)
      snprintf(why, whylen, "the server is stopping");
   else if (!l || l->in_flight >= Srv.o.in_flight)
      snprintf(why, whylen,
               "refused: %d requests of yours are already waiting or running, the most the server takes from one "
               "student; send the next when one has finished",
               l ? l->in_flight : 0);
   else if (!FairQueue_push(&Srv.queue, r->who.uid, r->device, r))
      snprintf(why, whylen, "refused: out of memory on the server");
   else {
      l->in_flight++;
      r->state = REQ_WAITING;
      r->queued_ms = Util_nowMs();
      pthread_cond_broadcast(&Srv.work);
      ok = true;
   }
   pthread_mutex_unlock(&Srv.lock);
   return ok;
}

/* Waits for r, telling the client its place; a client that goes away takes its waiting
 * request out, or cancels a running one (a judged submission goes on: it is recorded).
 * False when the client is gone (r then freed here or by the worker). */
bool Serve_await(Conn *c, Request *r) {
   int told = -1;
   double toldAt = 0;
   pthread_mutex_lock(&Srv.lock);
   while (r->state != REQ_DONE) {
      int position = r->state == REQ_WAITING ? FairQueue_position(&Srv.queue, r) : 0;
      if (position != told || Util_nowMs() - toldAt > SERVE_WAIT_TELL_MS) {
         double waited = ((r->state == REQ_WAITING ? Util_nowMs() : r->started_ms) - r->queued_ms) / 1e3;
         pthread_mutex_unlock(&Srv.lock);
         bool alive = Serve_say(c, "wait %d %.1f", position, waited);
         pthread_mutex_lock(&Srv.lock);
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
      pthread_cond_timedwait(&Srv.done, &Srv.lock, &until);
      if (r->state != REQ_DONE && clientGone(c->fd))
         break;
   }
   if (r->state == REQ_DONE) {
      pthread_mutex_unlock(&Srv.lock);
      return true;
   }
   /* The client is gone. A submission is still judged, in its place (its record says
    * the outcome); anything else leaves the queue, or is stopped if it runs. */
   if (r->kind == REQ_JUDGE)
      r->orphan = true;
   else if (r->state == REQ_WAITING && FairQueue_remove(&Srv.queue, r)) {
      StudentLoad *l = Serve_loadOf(r->who.uid);
      if (l)
         l->in_flight--;
      free(r);
   } else {
      atomic_store(&r->cancel, 1);
      r->orphan = true;
   }
   pthread_mutex_unlock(&Srv.lock);
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
void Serve_folders(const char *dir, char *out, size_t outlen) {
   if (dir && dir[0])
      snprintf(out, outlen, "%s:%s", Srv.kernels, dir);
   else
      Util_copy(out, outlen, Srv.kernels);
}

/* "file NAME BYTES" and the bytes: the kernel file the next job or submission uses. */
static bool takeFile(Conn *c, const char *line, char *why, size_t whylen) {
   char name[80];
   size_t len = 0;
   if (!Vet_fileLine(line, name, sizeof name, &len, why, whylen))
      return false;
   char *text = malloc(len + 1);
   if (!text || !LineReader_bytes(&c->in, text, len, Util_nowMs() + 60e3)) {
      free(text);
      snprintf(why, whylen, "the kernel file did not arrive whole");
      return false;
   }
   text[len] = '\0';
   char path[1400];
   size_t kept = len; /* Windows line ends become Unix ones: the compiler reads what was vetted */
   bool ok = Vet_kernelSource(text, &kept, why, whylen);
   if (ok && !c->dir[0]) {
      snprintf(c->dir, sizeof c->dir, "%s/%lu-%lu", Srv.uploads, (unsigned long)c->who.uid, c->id);
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
   if (ok && !Util_writeFileAtomic(path, text, kept)) {
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
   if (p->m > Srv.o.max_size || p->n > Srv.o.max_size || p->k > Srv.o.max_size) {
      snprintf(why, whylen, "refused: %dx%dx%d is larger than this server takes (M, N and K at most %d)", p->m, p->n,
               p->k, Srv.o.max_size);
      return false;
   }
   if (j.device >= Srv.nslots) {
      snprintf(why, whylen, "the server has %d device%s (0 to %d); device %d is not one", Srv.nslots,
               Srv.nslots == 1 ? "" : "s", Srv.nslots - 1, j.device);
      return false;
   }
   if (j.device < 0)
      j.device = -1;
   j.reps = j.reps < 1 ? 1 : j.reps > SERVE_MAX_REPS ? SERVE_MAX_REPS : j.reps;
   j.warmup = j.warmup < 0 ? 0 : j.warmup > SERVE_MAX_REPS ? SERVE_MAX_REPS : j.warmup;
   if (!(j.timeout_s > 0) || j.timeout_s > Srv.o.request_s)
      j.timeout_s = Srv.o.request_s;
   Serve_folders(c->dir, j.kernels_dir, sizeof j.kernels_dir);
   c->job = j;
   c->has_job = true;
   return true;
}

/* "run VALUES" or "vendor": measured in turn, answered as the measuring child answers. */
static bool measure(Conn *c, RequestKind kind, const char *args) {
   char why[512];
   if (!c->has_job)
      return Serve_say(c, "result %d 0x0p+0 0x0p+0 0x0p+0 0x0p+0 0 a job line must come first", (int)SWEEP_FAILED);
   Request *r = newRequest(c, kind);
   if (r && kind == REQ_RUN)
      r->nvalues = Util_readInts(args, r->values, KERNEL_MAX_PARAMS);
   bool queued = r && !Serve_diskFull(why, sizeof why) && Serve_enqueue(r, why, sizeof why);
   if (!r)
      snprintf(why, sizeof why, "refused: out of memory on the server");
   if (!queued) {
      free(r);
      return kind == REQ_RUN ? Serve_say(c, "result %d 0x0p+0 0x0p+0 0x0p+0 0x0p+0 0 %s", (int)SWEEP_FAILED, why)
                             : Serve_say(c, "vendor 0 0x0p+0 %s", why);
   }
   if (!Serve_await(c, r))
      return false;
   bool ok = Serve_say(c, "waited %.2f %d", (r->started_ms - r->queued_ms) / 1e3, r->slot);
   if (kind == REQ_RUN) {
      char line[sizeof r->c.reason + 256];
      Measurer_formatResult(&r->c, r->c.cached, line, sizeof line);
      ok = ok && Serve_say(c, "%s", line);
   } else
      ok = ok && Serve_say(c, "vendor %d %a %s", r->vendor_gflops > 0, r->vendor_gflops, r->vendor_name);
   free(r);
   return ok;
}

/* "device SLOT" (-1: the first): the device as this gemmtop holds it, for a client of the
 * same version that lists a sweep's space for it (Measurer_serverDevice). */
static bool describeDevice(Conn *c, int slot) {
   if (slot < 0)
      slot = 0;
   if (slot >= Srv.nslots)
      return Serve_say(c, "failed the server has %d device%s (0 to %d)", Srv.nslots, Srv.nslots == 1 ? "" : "s",
                 Srv.nslots - 1);
   const unsigned char *bytes = (const unsigned char *)&Srv.slots[slot].info;
   size_t n = sizeof Srv.slots[slot].info;
   char *hex = malloc(2 * n + 1);
   if (!hex)
      return Serve_say(c, "failed out of memory on the server");
   for (size_t i = 0; i < n; i++)
      snprintf(hex + 2 * i, 3, "%02x", bytes[i]);
   bool ok = Lines_printf(c->fd, "device %s %s %zu %s\n", GEMMTOP_VERSION, Srv.be->name, n, hex);
   free(hex);
   return ok;
}

static void endConnection(Conn *c) {
   if (c->dir[0])
      Serve_removeTree(c->dir);
   close(c->fd);
   pthread_mutex_lock(&Srv.lock);
   StudentLoad *l = Serve_loadOf(c->who.uid);
   if (l)
      l->connections--;
   Srv.connections--;
   pthread_mutex_unlock(&Srv.lock);
   free(c);
}

/* One client's lines, in order, until it closes or goes silent. */
static void *connection(void *arg) {
   Conn *c = arg;
   char line[LINES_MAX], why[1024];
   LineReader_init(&c->in, c->fd);
   for (bool alive = true; alive;) {
      int got = LineReader_next(&c->in, line, sizeof line, Util_nowMs() + SERVE_IDLE_S * 1e3, NULL);
      if (got == LINES_TOO_LONG) {
         Serve_say(c, "error a request line is at most %d bytes; this one is longer, and the connection is closed",
                   LINES_MAX - 1);
         break;
      }
      if (got != 1)
         break;
      if (!strncmp(line, "file ", 5)) {
         if (!takeFile(c, line, why, sizeof why))
            alive = Serve_say(c, "failed %s", why) && false;
      } else if (!strncmp(line, "job ", 4))
         alive = takeJob(c, line, why, sizeof why) ? Serve_say(c, "ready") : Serve_say(c, "failed %s", why);
      else if (!strncmp(line, "run", 3) && (line[3] == ' ' || !line[3]))
         alive = measure(c, REQ_RUN, line + 3);
      else if (!strcmp(line, "vendor"))
         alive = measure(c, REQ_VENDOR, "");
      else if (!strncmp(line, "submit ", 7))
         alive = ClassCmd_submit(c, line + 7);
      else if (!strncmp(line, "class ", 6))
         alive = ClassCmd_dispatch(c, line + 6);
      else if (!strncmp(line, "device ", 7))
         alive = describeDevice(c, atoi(line + 7));
      else
         alive = Serve_say(c, "error unknown request '%.40s'", line);
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
   if (!Roster_find(&Srv.roster, cred.uid, &c->who)) {
      char account[64];
      RosterEntry open;
      Roster probe = {.open = true, .owner = Srv.roster.owner};
      Roster_find(&probe, cred.uid, &open);
      Util_copy(account, sizeof account, open.account);
      snprintf(why, sizeof why, "you (account %s, uid %lu) are not on this class's roster: ask the lecturer", account,
               (unsigned long)cred.uid);
      Serve_log("refused uid=%lu account=%s: not on the roster", (unsigned long)cred.uid, account);
   }
   pthread_mutex_lock(&Srv.lock);
   StudentLoad *l = why[0] ? NULL : Serve_loadOf(c->who.uid);
   if (!why[0] && (Srv.connections >= SERVE_MAX_CONNECTIONS || !l))
      snprintf(why, sizeof why, "the server has too many connections open (%d); try again soon", Srv.connections);
   else if (!why[0] && !c->who.lecturer && l->connections >= Srv.o.in_flight + SERVE_SPARE_CONNECTIONS)
      snprintf(why, sizeof why, "refused: you have %d connections open, the most this server takes from one student",
               l->connections);
   if (!why[0]) {
      l->connections++;
      Srv.connections++;
      c->id = ++Srv.next_conn;
   }
   pthread_mutex_unlock(&Srv.lock);
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
   ssize_t w = write(Srv.wake[1], &b, 1);
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
   chmod(path, (mode_t)Srv.o.socket_mode);
   return fd;
}

/* The devices: --device's list, or the best one. */
static bool pickDevices(char *err, size_t errlen) {
   DeviceInfo *devs = NULL;
   int count = 0;
   if (Srv.o.backend) {
      if (!(Srv.be = Select_backend(Srv.o.backend, err, errlen)))
         return false;
      count = Backend_listDevices(Srv.be, &devs, err, errlen);
   } else
      Srv.be = Select_defaultBackend(&devs, &count, err, errlen);
   if (count <= 0) {
      free(devs);
      return false;
   }
   char list[256];
   Util_copy(list, sizeof list, Srv.o.devices ? Srv.o.devices : "");
   char *save = NULL, *word = Srv.o.devices ? strtok_r(list, ",", &save) : NULL;
   do {
      int i = Device_pick(devs, count, word, err, errlen);
      if (i < 0) {
         free(devs);
         return false;
      }
      for (int s = 0; s < Srv.nslots; s++)
         if (Srv.slots[s].info.index == devs[i].index) {
            snprintf(err, errlen, "--device names device %d twice", devs[i].index);
            free(devs);
            return false;
         }
      if (Srv.nslots == SERVE_MAX_DEVICES) {
         snprintf(err, errlen, "--device: at most %d devices", SERVE_MAX_DEVICES);
         free(devs);
         return false;
      }
      Srv.slots[Srv.nslots++].info = devs[i];
   } while (word && (word = strtok_r(NULL, ",", &save)));
   free(devs);
   return true;
}

static bool openState(char *err, size_t errlen) {
   if (Srv.o.state_dir)
      Util_copy(Srv.state, sizeof Srv.state, Srv.o.state_dir);
   else {
      const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
      if (data && *data)
         snprintf(Srv.state, sizeof Srv.state, "%s/gemmtop/serve", data);
      else
         snprintf(Srv.state, sizeof Srv.state, "%s/.local/share/gemmtop/serve", home ? home : ".");
   }
   snprintf(Srv.uploads, sizeof Srv.uploads, "%s/uploads", Srv.state);
   if (!Util_mkdirs(Srv.uploads)) {
      snprintf(err, errlen, "cannot make the server's folder %s: %s", Srv.uploads, strerror(errno));
      return false;
   }
   chmod(Srv.state, 0700); /* students' sources are kept here */
   char path[1200];
   snprintf(path, sizeof path, "%s/serve.log", Srv.state);
   if (!(Srv.log = fopen(path, "a"))) {
      snprintf(err, errlen, "cannot write the server's log %s: %s", path, strerror(errno));
      return false;
   }
   snprintf(path, sizeof path, "%s/class.db", Srv.state);
   if (!(Srv.classdb = ClassDb_open(path, err, errlen)))
      return false;
   char store[1200];
   if (Srv.o.store)
      Util_copy(store, sizeof store, Srv.o.store);
   else
      snprintf(store, sizeof store, "%s/results.db", Srv.state);
   if (!(Srv.store = Store_open(store, err, errlen)))
      return false;
   if (!Catalog_defaultDir(Srv.kernels, sizeof Srv.kernels)) {
      snprintf(err, errlen, "cannot find the kernels folder (set GEMMTOP_KERNELS)");
      return false;
   }
   return true;
}

int Serve_main(const ServeOptions *o) {
   memset(&Srv, 0, sizeof Srv);
   Srv.o = *o;
   Srv.start_ms = Util_nowMs();
   Util_copy(Srv.socket_path, sizeof Srv.socket_path, o->socket_path);
   char err[2048];
   pthread_mutex_init(&Srv.lock, NULL);
   pthread_cond_init(&Srv.work, NULL);
   pthread_cond_init(&Srv.done, NULL);
   FairQueue_init(&Srv.queue);
   struct sigaction ign = {.sa_handler = SIG_IGN};
   sigaction(SIGPIPE, &ign, NULL);
   if (!Roster_load(&Srv.roster, o->roster, getuid(), err, sizeof err)) {
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
   if (lfd < 0 || pipe2(Srv.wake, O_CLOEXEC) != 0) {
      fprintf(stderr, "gemmtop serve: %s\n", err);
      return 1;
   }
   struct sigaction stop = {.sa_handler = onSignal};
   sigaction(SIGINT, &stop, NULL);
   sigaction(SIGTERM, &stop, NULL);
   ClassCmd_resume();
   for (int i = 0; i < Srv.nslots; i++)
      pthread_create(&Srv.slots[i].thread, NULL, worker, (void *)(intptr_t)i);
   printf("gemmtop serve: listening on %s (%s); %d device%s:", o->socket_path,
          Srv.roster.open ? "anyone who can open it" : "the roster's accounts", Srv.nslots, Srv.nslots == 1 ? "" : "s");
   for (int i = 0; i < Srv.nslots; i++)
      printf("%s %d %s", i ? "," : "", Srv.slots[i].info.index, Srv.slots[i].info.name);
   printf(" (%s); records in %s\n", Srv.be->name, Srv.state);
   fflush(stdout);
   Serve_log("start socket=%s devices=%d roster=%s pid=%ld", o->socket_path, Srv.nslots,
           o->roster ? o->roster : "open", (long)getpid());
   for (;;) {
      struct pollfd p[2] = {{.fd = lfd, .events = POLLIN}, {.fd = Srv.wake[0], .events = POLLIN}};
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
   pthread_mutex_lock(&Srv.lock);
   Srv.stopping = true;
   pthread_cond_broadcast(&Srv.work);
   Measurer_killChildren();
   Serve_log("stop");
   Store_close(Srv.store);
   Srv.store = NULL;
   ClassDb_close(Srv.classdb);
   Srv.classdb = NULL;
   fflush(Srv.log);
   printf("gemmtop serve: stopped\n");
   fflush(stdout);
   _exit(0);
}
