/* pipe2: the parent's ends of the pipes close on exec, in every child of any thread. */
#define _GNU_SOURCE
#include "core/measurer.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "base/children.h"


/* Opening the device and making the inputs in a fresh child. */
#define START_ALLOWANCE_S 120.0
/* Beyond its launches (each within the timeout, which the child enforces), one
 * configuration may take this long: a compile that was not done ahead takes a minute on
 * PoCL for the largest kernels. A child silent for longer is stuck elsewhere: killed. */
#define ANSWER_ALLOWANCE_S 300.0

struct Measurer_ {
   MeasureJob job;
   pid_t pid;            /* 0: no child now */
   int to_child, from_child;
   char buf[4096];       /* read from the child, not yet taken as lines */
   size_t have;
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

Measurer *Measurer_new(const MeasureJob *job) {
   Measurer *m = calloc(1, sizeof *m);
   if (!m)
      return NULL;
   m->job = *job;
   m->to_child = m->from_child = -1;
   /* A child that ended must not take the parent with it on the next write. */
   struct sigaction ign = {.sa_handler = SIG_IGN};
   sigaction(SIGPIPE, &ign, &m->old_pipe);
   return m;
}

/* How often a wait for the child looks at its cancel flag. */
#define CANCEL_POLL_MS 100

/* One line from the child (without its newline), waiting until deadline (Util_nowMs).
 * 1: a line; 0: the child closed its end; -1: no line in time; -2: cancelled. */
static int readLine(Measurer *m, char *line, size_t len, double deadline, const atomic_int *cancel) {
   for (;;) {
      char *nl = memchr(m->buf, '\n', m->have);
      if (nl) {
         size_t n = (size_t)(nl - m->buf);
         snprintf(line, len, "%.*s", (int)n, m->buf);
         m->have -= n + 1;
         memmove(m->buf, nl + 1, m->have);
         return 1;
      }
      if (m->have == sizeof m->buf)
         m->have = 0; /* an overlong line: dropped */
      if (cancel && atomic_load(cancel))
         return -2;
      double left = deadline - Util_nowMs();
      if (left <= 0)
         return -1;
      struct pollfd pfd = {.fd = m->from_child, .events = POLLIN};
      int wait = left > 1e6 ? 1000000 : (int)left + 1;
      if (cancel && wait > CANCEL_POLL_MS)
         wait = CANCEL_POLL_MS;
      int r = poll(&pfd, 1, wait);
      if (r < 0 && errno != EINTR)
         return 0;
      if (r <= 0)
         continue;
      ssize_t got = read(m->from_child, m->buf + m->have, sizeof m->buf - m->have);
      if (got < 0 && errno == EINTR)
         continue;
      if (got <= 0)
         return 0;
      m->have += (size_t)got;
   }
}

/* Ends the child: killed when it may be stuck, else told (its input closes) and waited
 * for. why, when given, says how it ended. */
static void endChild(Measurer *m, bool kill_it, char *why, size_t whylen) {
   if (!m->pid)
      return;
   close(m->to_child);
   if (kill_it)
      kill(m->pid, SIGKILL);
   int status = 0;
   while (waitpid(m->pid, &status, 0) < 0 && errno == EINTR)
      ;
   close(m->from_child);
   noteChild(m->pid, 0);
   if (why && WIFSIGNALED(status))
      snprintf(why, whylen, "killed by signal %d (%s)", WTERMSIG(status), strsignal(WTERMSIG(status)));
   else if (why)
      snprintf(why, whylen, "exit status %d", WEXITSTATUS(status));
   m->pid = 0;
   m->to_child = m->from_child = -1;
   m->have = 0;
}

static bool sendLine(Measurer *m, const char *text) {
   size_t len = strlen(text);
   while (len > 0) {
      ssize_t w = write(m->to_child, text, len);
      if (w < 0 && errno == EINTR)
         continue;
      if (w <= 0)
         return false;
      text += w;
      len -= (size_t)w;
   }
   return true;
}

/* The same program, as the child MEASURE_CHILD, with pipes for its stdin and stdout. */
static bool startChild(Measurer *m, char *why, size_t whylen) {
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
   m->from_child = up[0];
   const MeasureJob *j = &m->job;
   char job[1600], line[600];
   snprintf(job, sizeof job, "job %s %d %s %d %d %d %s %d %d %a %a %" PRIu64 " %d %d %a %d %s %s\n", j->backend,
            j->device, j->kernel, j->problem.m, j->problem.n, j->problem.k, Precision_name(j->problem.precision),
            j->problem.trans_a, j->problem.trans_b, j->problem.alpha, j->problem.beta, j->seed, j->reps, j->warmup,
            j->timeout_s, j->cold_l2 ? 1 : 0, Scaling_name(j->problem.scaling), j->kernels_dir);
   int got = sendLine(m, job) ? readLine(m, line, sizeof line, Util_nowMs() + START_ALLOWANCE_S * 1e3, NULL) : 0;
   if (got == 1 && !strcmp(line, "ready"))
      return true;
   char how[128] = "";
   endChild(m, true, how, sizeof how);
   if (got == 1 && !strncmp(line, "failed ", 7))
      snprintf(why, whylen, "%s", line + 7);
   else if (got < 0)
      snprintf(why, whylen, "it did not open the device within %.0f s", START_ALLOWANCE_S);
   else
      snprintf(why, whylen, "it ended before it was ready (%s)", how);
   return false;
}

static void parseResult(const char *line, SweepCandidate *c) {
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
   snprintf(c->reason, sizeof c->reason, "%s", line + used);
}

bool Measurer_run(Measurer *m, const long long *values, int nvalues, const atomic_int *cancel, SweepCandidate *c) {
   char why[512], line[1024];
   if (!m->pid && !startChild(m, why, sizeof why)) {
      c->outcome = SWEEP_FAILED;
      snprintf(c->reason, sizeof c->reason, "cannot measure in a child process: %s", why);
      return true;
   }
   int n = snprintf(line, sizeof line, "run");
   for (int i = 0; i < nvalues && n < (int)sizeof line; i++)
      n += snprintf(line + n, sizeof line - (size_t)n, " %lld", values[i]);
   snprintf(line + n, sizeof line - (size_t)n, "\n");
   const MeasureJob *j = &m->job;
   double allowed = ANSWER_ALLOWANCE_S + j->timeout_s * (j->reps + j->warmup + 2);
   int got = sendLine(m, line) ? readLine(m, line, sizeof line, Util_nowMs() + allowed * 1e3, cancel) : 0;
   if (got == 1) {
      parseResult(line, c);
      if (c->outcome == SWEEP_TIMEOUT)
         endChild(m, true, NULL, 0); /* its device is busy with the abandoned launch */
      return true;
   }
   endChild(m, true, why, sizeof why);
   if (got == -2) {
      c->outcome = SWEEP_PENDING;
      snprintf(c->reason, sizeof c->reason, "stopped while it was measured");
      return false;
   }
   if (got < 0) {
      c->outcome = SWEEP_TIMEOUT;
      snprintf(c->reason, sizeof c->reason, "no answer within %.0f s: the measuring process was stopped", allowed);
   } else {
      c->outcome = SWEEP_FAILED;
      snprintf(c->reason, sizeof c->reason, "the measuring process ended while measuring it (%s)", why);
   }
   return true;
}

double Measurer_vendor(Measurer *m, char *name, size_t namelen) {
   char why[512], line[1024];
   if (!m->pid && !startChild(m, why, sizeof why)) {
      snprintf(name, namelen, "cannot start the measuring process: %s", why);
      return 0;
   }
   const MeasureJob *j = &m->job;
   double allowed = ANSWER_ALLOWANCE_S + j->timeout_s * (j->reps + j->warmup + 2);
   int got = sendLine(m, "vendor\n") ? readLine(m, line, sizeof line, Util_nowMs() + allowed * 1e3, NULL) : 0;
   int ok = 0, used = 0;
   double gflops = 0;
   if (got == 1 && sscanf(line, "vendor %d %la %n", &ok, &gflops, &used) >= 2 && used > 0) {
      snprintf(name, namelen, "%s", line + used);
      return ok ? gflops : 0;
   }
   endChild(m, true, why, sizeof why);
   snprintf(name, namelen, "the measuring process did not time it (%s)", got < 0 ? "no answer" : why);
   return 0;
}

void Measurer_free(Measurer *m) {
   if (!m)
      return;
   endChild(m, false, NULL, 0);
   sigaction(SIGPIPE, &m->old_pipe, NULL);
   free(m);
}

/* ---- the child ---- */

static bool parseJob(const char *line, MeasureJob *j) {
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

/* One configuration: verified and timed, classified, answered on one line. */
static void measureOne(Session *s, const KernelInfo *k, const MeasureJob *j, const Inputs *in, const char *line,
                       RunResult *r) {
   SweepCandidate c;
   memset(&c, 0, sizeof c);
   const char *p = line + 3;
   int i = 0;
   for (char *end; i < k->nparams; i++, p = end) {
      c.values[i] = strtoll(p, &end, 10);
      if (end == p)
         break;
   }
   if (i < k->nparams) {
      c.outcome = SWEEP_FAILED;
      snprintf(c.reason, sizeof c.reason, "a configuration needs %d values: '%.100s'", k->nparams, line);
   } else {
      RunOptions ro = {.reps = j->reps, .warmup = j->warmup, .verify = true, .max_seconds = j->timeout_s,
                       .launch_timeout_s = j->timeout_s, .cold_l2 = j->cold_l2};
      RunStatus st = Session_run(s, k, c.values, &j->problem, in, &ro, r);
      Sweep_classify(&c, st, r, j->timeout_s);
   }
   for (char *q = c.reason; *q; q++)
      if (*q == '\n' || *q == '\r')
         *q = ' ';
   printf("result %d %a %a %a %a %d %s\n", (int)c.outcome, c.gflops, c.median_ms, c.compile_ms, c.max_rel_err,
          r->cached ? 1 : 0, c.reason);
   fflush(stdout);
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

int Measure_child(void) {
   char line[8192], err[1024] = "";
   MeasureJob j;
   if (!fgets(line, sizeof line, stdin) || !parseJob(line, &j)) {
      printf("failed the job line is not understood\n");
      return 2;
   }
   Catalog cat;
   if (!Catalog_load(&cat, j.kernels_dir, err, sizeof err)) {
      printf("failed the kernels could not be read: %s\n", err);
      return 1;
   }
   const KernelInfo *k = Catalog_find(&cat, j.kernel);
   const Backend *be = Backend_byName(j.backend);
   Session *s = k && be ? Session_open(be, j.device, &cat, err, sizeof err) : NULL;
   Inputs in;
   RunResult *r = calloc(1, sizeof *r);
   if (!s || !r || !Inputs_random(&in, &j.problem, j.seed)) {
      printf("failed %s\n", !k ? "no such kernel" : !be ? "no such backend" : !s ? err : "out of host memory");
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
         vendorOne(s, &j, &in);
         continue;
      }
      if (strncmp(line, "run", 3) != 0)
         continue;
      measureOne(s, k, &j, &in, line, r);
      if (Session_stuck(s))
         _exit(0); /* the device is busy with a launch that cannot be stopped: the parent starts another */
   }
   RunResult_free(r);
   free(r);
   Inputs_free(&in);
   Session_close(s);
   Catalog_free(&cat);
   return 0;
}
