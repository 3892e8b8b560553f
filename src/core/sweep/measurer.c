/* pipe2: the parent's ends of the pipes close on exec, in every child of any thread. */
#define _GNU_SOURCE
#include "core/sweep/measurer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/children.h"
#include "base/lines.h"
#include "base/util.h"
#include "core/run/trial.h"

/* Opening the device and making the inputs in a fresh child. */
#define START_ALLOWANCE_S 120.0
/* Beyond its launches (each within the timeout, which the child enforces), one
 * configuration may take this long: a compile that was not done ahead takes a minute on
 * PoCL for the largest kernels. A child silent for longer is stuck elsewhere: killed. */
#define ANSWER_ALLOWANCE_S 300.0

struct Measurer_ {
   MeasureJob job;
   pid_t pid;            /* 0: no child now */
   int sock;             /* with a server: the connection (-1: none now) */
   int to_child;         /* the child's input, or the socket */
   LineReader in;        /* the child's output, or the socket */
   MeasureWaitFn on_wait;
   void *wait_ctx;
   double waited_s;      /* with a server: how long the last request waited its turn */
   int served_on;        /* and the server's device it ran on (-1 unknown) */
   struct sigaction old_pipe;
};

/* The children alive, for Measurer_killChildren: a slot holds a pid or 0. */
#define MAX_CHILDREN 8
static volatile sig_atomic_t children[MAX_CHILDREN];

static void noteChild(pid_t old, pid_t now) {
   for (int i = 0; i < MAX_CHILDREN; i++)
      if (children[i] == old) {
         children[i] = now;
         return;
      }
}

void Measurer_killChildren(void) {
   for (int i = 0; i < MAX_CHILDREN; i++)
      if (children[i] > 0)
         kill(children[i], SIGKILL);
}

void MeasureJob_format(const MeasureJob *j, char *out, size_t outlen) {
   snprintf(out, outlen, "job %s %d %s %d %d %d %s %d %d %a %a %" PRIu64 " %d %d %a %d %s %s\n", j->backend, j->device,
            j->kernel, j->problem.m, j->problem.n, j->problem.k, Precision_name(j->problem.precision),
            j->problem.trans_a, j->problem.trans_b, j->problem.alpha, j->problem.beta, j->seed, j->reps, j->warmup,
            j->timeout_s, j->cold_l2 ? 1 : 0, Scaling_name(j->problem.scaling), j->kernels_dir);
}

MeasureJob MeasureJob_forServer(const char *server, int slot, const KernelInfo *k, const Problem *p, uint64_t seed,
                                int reps, int warmup, double timeout_s, bool cold_l2) {
   MeasureJob j;
   memset(&j, 0, sizeof j);
   Util_copy(j.backend, sizeof j.backend, "server");
   j.device = slot;
   Util_copy(j.kernel, sizeof j.kernel, k ? k->name : "none");
   Util_copy(j.kernels_dir, sizeof j.kernels_dir, "server");
   j.problem = *p;
   j.seed = seed;
   j.reps = reps;
   j.warmup = warmup;
   j.timeout_s = timeout_s;
   j.cold_l2 = cold_l2;
   Util_copy(j.server, sizeof j.server, server);
   if (k)
      Util_copy(j.upload, sizeof j.upload, k->path);
   return j;
}

Measurer *Measurer_new(const MeasureJob *job) {
   Measurer *m = calloc(1, sizeof *m);
   if (!m)
      return NULL;
   m->job = *job;
   m->to_child = m->sock = -1;
   m->served_on = -1;
   LineReader_init(&m->in, -1);
   /* A child that ended must not take the parent with it on the next write. */
   struct sigaction ign = {.sa_handler = SIG_IGN};
   sigaction(SIGPIPE, &ign, &m->old_pipe);
   return m;
}

double Measurer_waited(const Measurer *m, int *device) {
   if (device)
      *device = m->served_on;
   return m->waited_s;
}

void Measurer_onWait(Measurer *m, MeasureWaitFn fn, void *ctx) {
   m->on_wait = fn;
   m->wait_ctx = ctx;
}

static bool started(const Measurer *m) {
   return m->pid > 0 || m->sock >= 0;
}

/* The answer to a request: one line, waiting until allowed seconds have passed. From a
 * server, the "wait" lines before it are told to on_wait, and each one starts the
 * allowance again (a request waiting its turn is not late). Returns as LineReader_next. */
static int readAnswer(Measurer *m, char *line, size_t len, double allowed_s, const atomic_int *cancel) {
   double deadline = Util_nowMs() + allowed_s * 1e3;
   for (;;) {
      int got = LineReader_next(&m->in, line, len, deadline, cancel);
      int position = 0;
      double waited = 0;
      if (got == 1 && m->sock >= 0 && sscanf(line, "waited %lf %d", &m->waited_s, &m->served_on) == 2)
         continue;
      if (got == 1 && m->sock >= 0) {
         /* A server's words (a compiler's about a kernel) reach a terminal: no control
          * character in them is left to act there. */
         char shown[4 * LINES_MAX];
         Util_visible(line, shown, sizeof shown);
         Util_visible(shown, line, len);
      }
      if (got != 1 || m->sock < 0 || sscanf(line, "wait %d %lf", &position, &waited) != 2)
         return got;
      if (m->on_wait)
         m->on_wait(m->wait_ctx, position, waited);
      deadline = Util_nowMs() + allowed_s * 1e3;
   }
}

/* Ends the child or the connection: killed when it may be stuck, else told (its input
 * closes) and waited for. why, when given, says how it ended. */
static void endChild(Measurer *m, bool kill_it, char *why, size_t whylen) {
   if (m->sock >= 0) {
      close(m->sock);
      m->sock = m->to_child = -1;
      LineReader_init(&m->in, -1);
      if (why)
         snprintf(why, whylen, "the server closed the connection");
      return;
   }
   if (!m->pid)
      return;
   close(m->to_child);
   if (kill_it)
      kill(m->pid, SIGKILL);
   int status = 0;
   while (waitpid(m->pid, &status, 0) < 0 && errno == EINTR)
      ;
   close(m->in.fd);
   noteChild(m->pid, 0);
   if (why && WIFSIGNALED(status))
      snprintf(why, whylen, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
   else if (why)
      snprintf(why, whylen, "exit status %d", WEXITSTATUS(status));
   m->pid = 0;
   m->to_child = -1;
   LineReader_init(&m->in, -1);
}

static bool sendLine(Measurer *m, const char *text) {
   return Lines_write(m->to_child, text, strlen(text));
}

/* The same program, as the child MEASURE_CHILD, with pipes for its stdin and stdout. */
static bool spawnChild(Measurer *m, char *why, size_t whylen) {
   /* Close-on-exec: another measuring child (one per size of a sweep) must not hold this
    * one's pipes, or closing its input would never end it. dup2 onto the child's stdin
    * and stdout clears the flag there. */
   int down[2], up[2];
   if (pipe2(down, O_CLOEXEC) != 0) {
      snprintf(why, whylen, "pipe: %s", strerror(errno));
      return false;
   }
   if (pipe2(up, O_CLOEXEC) != 0) {
      snprintf(why, whylen, "pipe: %s", strerror(errno));
      close(down[0]);
      close(down[1]);
      return false;
   }
   const int parentEnds[2] = {down[1], up[0]};
   pid_t pid = Children_spawn(MEASURE_CHILD, down[0], up[1], parentEnds, why, whylen);
   close(down[0]);
   close(up[1]);
   if (pid < 0) {
      close(down[1]);
      close(up[0]);
      m->pid = 0;
      return false;
   }
   m->pid = pid;
   noteChild(0, m->pid);
   m->to_child = down[1];
   LineReader_init(&m->in, up[0]);
   const MeasureJob *j = &m->job;
   if (j->cpu_s > 0 || j->data_mb > 0) {
      char limits[96];
      snprintf(limits, sizeof limits, "limits %d %d %d\n", j->cpu_s, j->data_mb, MEASURE_FILE_MB);
      return sendLine(m, limits);
   }
   return true;
}

/* A connection to the server, the kernel's file sent first when there is one. */
static bool connectServer(Measurer *m, char *why, size_t whylen) {
   const MeasureJob *j = &m->job;
   int fd = Lines_connect(j->server, why, whylen);
   if (fd < 0)
      return false;
   m->sock = m->to_child = fd;
   LineReader_init(&m->in, fd);
   if (!j->upload[0])
      return true;
   size_t len = 0;
   char *text = Util_readUserFile(j->upload, UTIL_MAX_KERNEL_BYTES, &len, why, whylen);
   if (!text) {
      endChild(m, true, NULL, 0);
      return false;
   }
   const char *base = strrchr(j->upload, '/');
   base = base ? base + 1 : j->upload;
   bool ok = Lines_printf(fd, "file %s %zu\n", base, len) && Lines_write(fd, text, len);
   free(text);
   if (!ok) {
      /* A server that refuses someone says why before it closes. */
      char line[1024];
      if (LineReader_next(&m->in, line, sizeof line, Util_nowMs() + 2000, NULL) == 1 && !strncmp(line, "failed ", 7))
         Util_visible(line + 7, why, whylen);
      else
         snprintf(why, whylen, "the gemmtop server at %s closed the connection", j->server);
   }
   return ok;
}

/* A child (or the server's session) that has taken the job and is ready. */
static bool startChild(Measurer *m, char *why, size_t whylen) {
   if (!(m->job.server[0] ? connectServer(m, why, whylen) : spawnChild(m, why, whylen))) {
      endChild(m, true, NULL, 0);
      return false;
   }
   char job[1700], line[600];
   MeasureJob_format(&m->job, job, sizeof job);
   /* Read even when sending failed: a server that refused the file said why before it
    * closed, and that line waits to be read. */
   bool sent = sendLine(m, job);
   int got = readAnswer(m, line, sizeof line, sent ? START_ALLOWANCE_S : 2, NULL);
   if (got == 1 && !strcmp(line, "ready"))
      return true;
   char how[128] = "";
   endChild(m, true, how, sizeof how);
   if (got == 1 && !strncmp(line, "failed ", 7))
      snprintf(why, whylen, "%s", line + 7);
   else if (got == LINES_TOO_LONG)
      snprintf(why, whylen, "it answered a line longer than %d bytes", LINES_MAX - 1);
   else if (got < 0 && sent)
      snprintf(why, whylen, "it did not open the device within %.0f s", START_ALLOWANCE_S);
   else
      snprintf(why, whylen, "it ended before it was ready (%s)", how);
   return false;
}

void Measurer_parseResult(const char *line, SweepCandidate *c) {
   int outcome = SWEEP_FAILED, used = 0, cached = 0;
   if (sscanf(line, "result %d %la %la %la %la %d %n", &outcome, &c->gflops, &c->median_ms, &c->compile_ms,
              &c->max_rel_err, &cached, &used) < 6 ||
       outcome <= SWEEP_PENDING || outcome >= SWEEP_OUTCOMES) {
      c->outcome = SWEEP_FAILED;
      snprintf(c->reason, sizeof c->reason, "the measuring process answered '%.200s'", line);
      return;
   }
   c->outcome = (SweepOutcome)outcome;
   c->cached = cached != 0;
   /* What the build reported and the clock, where the line has them: figures a child of
    * this program wrote; anything else is taken as not known. */
   int registers = 0, built = 0;
   long long local_mem = -1;
   double mhz = 0;
   if (sscanf(line + used, "built %d %lld %la %n", &registers, &local_mem, &mhz, &built) >= 3 && built > 0)
      used += built;
   c->registers = registers > 0 && registers <= 65536 ? registers : 0;
   c->local_mem = local_mem >= 0 ? local_mem : -1;
   c->sm_mhz = isfinite(mhz) && mhz > 0 ? mhz : 0;
   snprintf(c->reason, sizeof c->reason, "%s", line + used);
}

/* How long a request of launches may take: a server's limit for the whole request (the
 * child enforces each launch's timeout within it), else room for a slow compile and
 * every launch. */
static double allowance(const MeasureJob *j, int launches) {
   return j->request_s > 0 ? j->request_s : ANSWER_ALLOWANCE_S + j->timeout_s * launches;
}

/* A request of the form "WORD values...": sent, and its result line taken into c. */
static bool request(Measurer *m, const char *word, const long long *values, int nvalues, int launches,
                    const atomic_int *cancel, SweepCandidate *c) {
   char why[512], line[1024];
   if (!started(m) && !startChild(m, why, sizeof why)) {
      c->outcome = SWEEP_FAILED;
      snprintf(c->reason, sizeof c->reason, "%s%s", m->job.server[0] ? "" : "cannot measure in a child process: ",
               why);
      return true;
   }
   int n = snprintf(line, sizeof line, "%s", word);
   for (int i = 0; i < nvalues && n < (int)sizeof line; i++)
      n += snprintf(line + n, sizeof line - (size_t)n, " %lld", values[i]);
   snprintf(line + n, sizeof line - (size_t)n, "\n");
   const MeasureJob *j = &m->job;
   double allowed = allowance(j, launches);
   int got = sendLine(m, line) ? readAnswer(m, line, sizeof line, allowed, cancel) : 0;
   if (got == 1) {
      Measurer_parseResult(line, c);
      if (c->outcome == SWEEP_TIMEOUT && !j->server[0])
         endChild(m, true, NULL, 0); /* its device is busy with the abandoned launch */
      return true;
   }
   endChild(m, true, why, sizeof why);
   if (got == -2) {
      c->outcome = SWEEP_PENDING;
      snprintf(c->reason, sizeof c->reason, "stopped while it was measured");
      return false;
   }
   if (got == LINES_TOO_LONG) {
      c->outcome = SWEEP_FAILED;
      snprintf(c->reason, sizeof c->reason, "the measuring process answered a line longer than %d bytes",
               LINES_MAX - 1);
   } else if (got < 0) {
      c->outcome = SWEEP_TIMEOUT;
      snprintf(c->reason, sizeof c->reason, "no answer within %.0f s: the measuring process was stopped", allowed);
   } else {
      c->outcome = SWEEP_FAILED;
      snprintf(c->reason, sizeof c->reason, "the measuring process ended while measuring it (%s)", why);
   }
   return true;
}

bool Measurer_run(Measurer *m, const long long *values, int nvalues, const atomic_int *cancel, SweepCandidate *c) {
   return request(m, "run", values, nvalues, m->job.reps + m->job.warmup + 2, cancel, c);
}

bool Measurer_judge(Measurer *m, const long long *values, int nvalues, int rounds, const atomic_int *cancel,
                    SweepCandidate *c) {
   char word[32];
   snprintf(word, sizeof word, "judge %d", rounds);
   return request(m, word, values, nvalues, rounds * 3 + m->job.warmup, cancel, c);
}

double Measurer_vendor(Measurer *m, char *name, size_t namelen) {
   char why[512], line[1024];
   if (!started(m) && !startChild(m, why, sizeof why)) {
      snprintf(name, namelen, "cannot start the measuring process: %s", why);
      return 0;
   }
   const MeasureJob *j = &m->job;
   double allowed = allowance(j, j->reps + j->warmup + 2);
   int got = sendLine(m, "vendor\n") ? readAnswer(m, line, sizeof line, allowed, NULL) : 0;
   int ok = 0, used = 0;
   double gflops = 0;
   if (got == 1 && sscanf(line, "vendor %d %la %n", &ok, &gflops, &used) >= 2 && used > 0) {
      snprintf(name, namelen, "%s", line + used);
      return ok ? gflops : 0;
   }
   endChild(m, true, why, sizeof why);
   snprintf(name, namelen, "the measuring process did not time it (%s)",
            got == LINES_TOO_LONG ? "an answer too long" : got < 0 ? "no answer" : why);
   return 0;
}

bool Measurer_serverDevice(const char *server, int slot, DeviceInfo *out, char *backend, size_t backendlen, char *why,
                           size_t whylen) {
   int fd = Lines_connect(server, why, whylen);
   if (fd < 0)
      return false;
   struct sigaction ign = {.sa_handler = SIG_IGN}, old;
   sigaction(SIGPIPE, &ign, &old);
   LineReader in;
   LineReader_init(&in, fd);
   char line[LINES_MAX], version[64] = "", name[32] = "";
   size_t size = 0;
   int used = 0;
   bool ok = Lines_printf(fd, "device %d\n", slot) &&
             LineReader_next(&in, line, sizeof line, Util_nowMs() + START_ALLOWANCE_S * 1e3, NULL) == 1;
   sigaction(SIGPIPE, &old, NULL);
   close(fd);
   if (ok && !strncmp(line, "failed ", 7)) {
      snprintf(why, whylen, "%s", line + 7);
      return false;
   }
   if (!ok || sscanf(line, "device %63s %31s %zu %n", version, name, &size, &used) != 3 || !used) {
      snprintf(why, whylen, "the server at %s did not describe its device", server);
      return false;
   }
   if (strcmp(version, GEMMTOP_VERSION) != 0 || size != sizeof *out || strlen(line + used) != 2 * sizeof *out) {
      snprintf(why, whylen, "the server runs gemmtop %s, this is %s: use the server's gemmtop", version,
               GEMMTOP_VERSION);
      return false;
   }
   unsigned char *bytes = (unsigned char *)out;
   for (size_t i = 0; i < sizeof *out; i++) {
      unsigned v;
      if (sscanf(line + used + 2 * i, "%2x", &v) != 1) {
         snprintf(why, whylen, "the server's description of its device is damaged");
         return false;
      }
      bytes[i] = (unsigned char)v;
   }
   char *texts[] = {out->name, out->vendor, out->platform, out->driver, out->arch, out->version, out->pci_bus_id};
   size_t sizes[] = {sizeof out->name, sizeof out->vendor, sizeof out->platform, sizeof out->driver,
                     sizeof out->arch, sizeof out->version, sizeof out->pci_bus_id};
   for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
      texts[i][sizes[i] - 1] = '\0';
   if (!Backend_byName(name)) {
      snprintf(why, whylen, "the server measures with %s, which this gemmtop does not have", name);
      return false;
   }
   Util_copy(backend, backendlen, name);
   return true;
}

void Measurer_vendorResult(double gflops, const char *name, const Problem *p, int reps, VendorResult *out) {
   memset(out, 0, sizeof *out);
   bool ok = gflops > 0;
   out->status = ok ? RUN_OK : RUN_DEVICE_ERROR;
   out->verified = ok;
   out->gflops = gflops;
   out->reps = ok ? reps : 0;
   out->median_ms = out->min_ms = ok ? Problem_flops(p) / (gflops * 1e6) : NAN;
   Util_copy(out->name, sizeof out->name, ok ? name : "vendor BLAS");
   Util_copy(out->message, sizeof out->message, name);
   Observation_clear(&out->obs);
}

void Measurer_free(Measurer *m) {
   if (!m)
      return;
   endChild(m, false, NULL, 0);
   sigaction(SIGPIPE, &m->old_pipe, NULL);
   free(m);
}

/* ---- the child ---- */

bool MeasureJob_parse(const char *line, MeasureJob *j) {
   char precision[16], scaling[16];
   int ta = 0, tb = 0, cold = 0;
   memset(j, 0, sizeof *j);
   Problem_setDefaults(&j->problem);
   int used = 0;
   if (sscanf(line, "job %15s %d %63s %d %d %d %15s %d %d %la %la %" SCNu64 " %d %d %la %d %15s %n", j->backend,
              &j->device, j->kernel, &j->problem.m, &j->problem.n, &j->problem.k, precision, &ta, &tb,
              &j->problem.alpha, &j->problem.beta, &j->seed, &j->reps, &j->warmup, &j->timeout_s, &cold,
              scaling, &used) != 17 ||
       !used || !Scaling_parse(scaling, &j->problem.scaling))
      return false;
   Util_copy(j->kernels_dir, sizeof j->kernels_dir, line + used);
   j->kernels_dir[strcspn(j->kernels_dir, "\n")] = '\0';
   j->cold_l2 = cold != 0;
   j->problem.trans_a = ta != 0;
   j->problem.trans_b = tb != 0;
   return Precision_parse(precision, &j->problem.precision);
}

/* A configuration's values after the request's word; false when fewer than n. */
static bool readValues(const char *p, long long *values, int n) { return Util_readInts(p, values, n) == n; }

/* Whether this child measures for a class server (its job came after a limits line). */
static bool Served;

/* The file whose errors a compile failure may quote: on a class server the kernel's own
 * file only (the name its lines carry in the compiler's messages), so that nothing of
 * another file the compiler read can reach a student; NULL (any) elsewhere. */
static const char *ownFile(const KernelInfo *k) {
   if (!Served)
      return NULL;
   const char *base = strrchr(k->path, '/');
   return base ? base + 1 : k->path;
}

/* The result line: c's figures and words, on one line. */
void Measurer_formatResult(const SweepCandidate *c, bool cached, char *out, size_t len) {
   char reason[sizeof c->reason];
   snprintf(reason, sizeof reason, "%s", c->reason);
   for (char *q = reason; *q; q++)
      if (*q == '\n' || *q == '\r')
         *q = ' ';
   snprintf(out, len, "result %d %a %a %a %a %d built %d %lld %a %s", (int)c->outcome, c->gflops, c->median_ms,
            c->compile_ms, c->max_rel_err, cached ? 1 : 0, c->registers > 0 ? c->registers : 0,
            c->local_mem >= 0 ? c->local_mem : -1LL, c->sm_mhz > 0 ? c->sm_mhz : 0.0, reason);
}

static void answer(const SweepCandidate *c, bool cached) {
   char line[sizeof c->reason + 256];
   Measurer_formatResult(c, cached, line, sizeof line);
   printf("%s\n", line);
   fflush(stdout);
}

static void measureOne(Session *s, const KernelInfo *k, const MeasureJob *j, const Inputs *in, const char *line,
                       RunResult *r) {
   SweepCandidate c;
   memset(&c, 0, sizeof c);
   if (!readValues(line + 3, c.values, k->nparams)) {
      c.outcome = SWEEP_FAILED;
      snprintf(c.reason, sizeof c.reason, "a configuration needs %d values: '%.100s'", k->nparams, line);
   } else {
      TrialRequest rq = {.kernel = k, .values = c.values, .problem = &j->problem, .inputs_from = TRIAL_INPUTS_GIVEN,
                         .inputs = in,
                         .run = {.reps = j->reps, .warmup = j->warmup, .verify = true, .max_seconds = j->timeout_s,
                                 .launch_timeout_s = j->timeout_s, .cold_l2 = j->cold_l2}};
      TrialOutcome outcome;
      RunStatus st = Trial_run(s, &rq, r, &outcome);
      Sweep_classify(&c, st, r, j->timeout_s, ownFile(k));
   }
   answer(&c, r->cached);
}

/* A seed no one outside this process knows: the judged rounds' inputs. */
static uint64_t freshSeed(void) {
   uint64_t seed = 0;
   if (getrandom(&seed, sizeof seed, 0) != (ssize_t)sizeof seed)
      seed = (uint64_t)Util_nowMs() * 0x9e3779b97f4a7c15ull ^ (uint64_t)getpid();
   return seed;
}

/* "judge R values": R rounds, each on fresh inputs, each launch timed and verified. */
static void judgeOne(Session *s, const KernelInfo *k, const MeasureJob *j, const char *line, RunResult *r) {
   SweepCandidate c;
   memset(&c, 0, sizeof c);
   int rounds = 0, used = 0;
   double times[RUN_MAX_TIMES], worst = 0, compile = 0;
   bool cached = false;
   if (sscanf(line, "judge %d %n", &rounds, &used) < 1 || rounds < 1 || rounds > RUN_MAX_TIMES ||
       !readValues(line + used, c.values, k->nparams)) {
      c.outcome = SWEEP_FAILED;
      snprintf(c.reason, sizeof c.reason, "a judged configuration needs rounds (1 to %d) and %d values: '%.100s'",
               RUN_MAX_TIMES, k->nparams, line);
      rounds = 0;
   }
   int done = 0;
   Inputs in; /* each round's fresh, from a seed no one else knows */
   bool have_in = false;
   for (; done < rounds; done++) {
      TrialRequest rq = {.kernel = k, .values = c.values, .problem = &j->problem, .inputs_from = TRIAL_INPUTS_HELD,
                         .seed = freshSeed(), .held = &in, .have_held = &have_in,
                         .run = {.reps = 1, .warmup = done == 0 ? j->warmup : 1, .verify_timed = true,
                                 .max_seconds = j->timeout_s, .launch_timeout_s = j->timeout_s, .cold_l2 = j->cold_l2}};
      TrialOutcome outcome;
      RunStatus st = Trial_run(s, &rq, r, &outcome);
      if (outcome.stopped_at == TRIAL_INPUTS && st == RUN_OUT_OF_MEMORY) {
         c.outcome = SWEEP_FAILED;
         snprintf(c.reason, sizeof c.reason, "out of host memory for round %d's inputs", done + 1);
         break;
      }
      Sweep_classify(&c, st, r, j->timeout_s, ownFile(k));
      if (c.outcome != SWEEP_OK) {
         char why[sizeof c.reason];
         snprintf(why, sizeof why, "%s", c.reason);
         snprintf(c.reason, sizeof c.reason, "round %d of %d (fresh inputs): %s", done + 1, rounds, why);
         break;
      }
      times[done] = c.median_ms;
      worst = fmax(worst, c.max_rel_err);
      if (done == 0) {
         compile = c.compile_ms;
         cached = r->cached;
      }
      if (Session_stuck(s))
         break;
   }
   if (have_in)
      Inputs_free(&in);
   if (rounds > 0 && done == rounds) {
      c.median_ms = Util_median(times, done);
      c.gflops = Problem_flops(&j->problem) / (c.median_ms * 1e6);
      c.max_rel_err = worst;
      c.compile_ms = compile;
      snprintf(c.reason, sizeof c.reason, "%d rounds on fresh inputs, every timed launch verified", rounds);
   }
   answer(&c, cached);
}

/* "limits CPU DATA FILE" (seconds, MB, MB; 0 none), the line before the job in a serve
 * child: applied before any kernel is read, so that a compile bomb, an endless kernel on
 * the CPU or a huge allocation ends this process, not the server. False for another line. */
static bool applyLimits(const char *line) {
   int cpu = 0, data = 0, file = 0;
   if (sscanf(line, "limits %d %d %d", &cpu, &data, &file) != 3)
      return false;
   struct rlimit none = {0, 0};
   setrlimit(RLIMIT_CORE, &none);
   /* A server killed outright takes its measuring children with it. */
   prctl(PR_SET_PDEATHSIG, SIGKILL);
   if (cpu > 0) {
      struct rlimit rl = {(rlim_t)cpu, (rlim_t)cpu + 5};
      setrlimit(RLIMIT_CPU, &rl);
   }
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
   /* (The sanitizers' shadow memory is data too: a sanitized build goes without.) */
   if (data > 0) {
      struct rlimit rl = {(rlim_t)data << 20, (rlim_t)data << 20};
      setrlimit(RLIMIT_DATA, &rl);
   }
#else
   (void)data;
#endif
   if (file > 0) {
      struct rlimit rl = {(rlim_t)file << 20, (rlim_t)file << 20};
      setrlimit(RLIMIT_FSIZE, &rl);
   }
   return true;
}

/* The vendor BLAS, verified, answered on one line. */
static void vendorOne(Session *s, const MeasureJob *j, const Inputs *in) {
   VendorResult v;
   memset(&v, 0, sizeof v);
   RunOptions ro = {.reps = j->reps, .warmup = j->warmup, .verify = true, .max_seconds = j->timeout_s,
                    .launch_timeout_s = j->timeout_s};
   RunStatus st = Session_vendor(s, &j->problem, in, &ro, &v);
   bool ok = st == RUN_OK && v.verified && v.gflops > 0;
   const char *what = ok || !v.message[0] ? v.name : v.message;
   char text[600];
   snprintf(text, sizeof text, "%s", what[0] ? what : "the vendor BLAS");
   for (char *q = text; *q; q++)
      if (*q == '\n' || *q == '\r')
         *q = ' ';
   printf("vendor %d %a %s\n", ok, ok ? v.gflops : 0.0, text);
   fflush(stdout);
}

int Measurer_child(void) {
   char line[8192], err[1024] = "";
   MeasureJob j;
   if (!fgets(line, sizeof line, stdin) || ((Served = applyLimits(line)) && !fgets(line, sizeof line, stdin)) ||
       !MeasureJob_parse(line, &j)) {
      printf("failed the job line is not understood\n");
      return 2;
   }
   Catalog cat;
   if (!Catalog_load(&cat, j.kernels_dir, err, sizeof err)) {
      printf("failed the kernels could not be read: %s\n", err);
      return 1;
   }
   /* No kernel of that name: the vendor library can still be timed (a job for it alone
    * names none); a configuration is answered that there is no such kernel. */
   const KernelInfo *k = Catalog_find(&cat, j.kernel);
   const Backend *be = Backend_byName(j.backend);
   Session *s = be ? Session_open(be, j.device, &cat, err, sizeof err) : NULL;
   RunResult *r = calloc(1, sizeof *r);
   /* The job's inputs, made once for every configuration this child measures. */
   const Inputs *in = s ? Session_inputs(s, &j.problem, j.seed) : NULL;
   if (!s || !r || !in) {
      printf("failed %s\n", !be ? "no such backend" : !s ? err : "out of host memory");
      free(r);
      Session_close(s);
      Catalog_free(&cat);
      return 1;
   }
   printf("ready\n");
   fflush(stdout);
   while (fgets(line, sizeof line, stdin)) {
      line[strcspn(line, "\n")] = '\0';
      if (!strcmp(line, "vendor")) {
         vendorOne(s, &j, in);
         continue;
      }
      if (!k && (!strncmp(line, "judge ", 6) || !strncmp(line, "run", 3))) {
         SweepCandidate none = {.outcome = SWEEP_INVALID};
         snprintf(none.reason, sizeof none.reason, "no kernel named %s in %s", j.kernel, j.kernels_dir);
         answer(&none, false);
         continue;
      }
      if (!strncmp(line, "judge ", 6))
         judgeOne(s, k, &j, line, r);
      else if (!strncmp(line, "run", 3))
         measureOne(s, k, &j, in, line, r);
      else
         continue;
      if (Session_stuck(s))
         _exit(0); /* the device is busy with a launch that cannot be stopped: the parent starts another */
   }
   RunResult_free(r);
   free(r);
   Session_close(s);
   Catalog_free(&cat);
   return 0;
}
