/* The explorer on a class server (gemmtop --server, docs/class.md): each configuration
 * is sent to the server once, compiled, verified and timed there alone on its device,
 * and the answer fills the snapshot as a run here would. While it waits its place in the
 * queue is the worker's activity. Called with mu held, like measure.c. */
#include "explorer/served.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/teach/classclient.h"
#include "core/sweep/measurer.h"
#include "explorer/worker_int.h"

/* Timed launches a request asks for (the server caps them). */
#define SERVED_REPS 10

/* The server's answers while the request waits: the worker's activity. */
static void tellWait(void *ctx, int position, double waited) {
   Worker *w = ctx;
   pthread_mutex_lock(&w->mu);
   if (position > 0)
      Worker_setState(w, WS_QUEUED, "waiting on the server: %d ahead of it (%.0f s)", position - 1, waited);
   else
      Worker_setState(w, WS_QUEUED, "measuring on the server (waited %.1f s)", waited);
   pthread_mutex_unlock(&w->mu);
}

static MeasureJob job(const Worker *w, const KernelInfo *k, const Problem *p, bool cold_l2) {
   return MeasureJob_forServer(w->server, -1, k, p, w->seed, SERVED_REPS, 1, 0, cold_l2);
}

void Served_round(Worker *w, const KernelInfo *k, const WorkerConfig *cfg, unsigned long serial, const char *name) {
   if (cfg->ablate) {
      Worker_stopWith(w, RUN_INVALID, "an ablated kernel is not measured on a class server: its figures are no "
                                      "one's to rank; run without --server to ablate");
      return;
   }
   if (cfg->limits[0])
      Worker_log(w, LOG_WARN, "%s: the step's simulated limits (%s) are not applied on the server", name, cfg->limits);
   Worker_setState(w, WS_QUEUED, "sending %s to the server", name);
   atomic_store(&w->cancel, 0);
   MeasureJob j = job(w, k, &cfg->problem, cfg->cold_l2);
   pthread_mutex_unlock(&w->mu);
   Measurer *m = Measurer_new(&j);
   SweepCandidate c;
   memset(&c, 0, sizeof c);
   bool answered = false;
   double waited = 0;
   int device = -1;
   if (m) {
      Measurer_onWait(m, tellWait, w);
      answered = Measurer_run(m, cfg->values, k->nparams, &w->cancel, &c);
      waited = Measurer_waited(m, &device);
      Measurer_free(m);
   }
   pthread_mutex_lock(&w->mu);
   if (!answered || serial != w->cur_serial || w->want_serial != serial)
      return; /* changed meanwhile: the new configuration is sent next */
   if (!m) {
      Worker_stopWith(w, RUN_OUT_OF_MEMORY, "out of memory");
      return;
   }
   WorkerSnapshot *sn = &w->snap;
   RunStatus st = SweepOutcome_runStatus(c.outcome);
   sn->result.compile_ms = c.compile_ms;
   sn->result.cached = c.cached;
   if (st != RUN_OK) {
      Worker_log(w, LOG_ERROR, "%s on the server: %s: %s", name, SweepOutcome_name(c.outcome), c.reason);
      Worker_stopWith(w, st, c.reason);
      return;
   }
   RunResult *r = &sn->result;
   r->verified_run = true;
   r->verify.ok = true;
   r->verify.max_rel_err = c.max_rel_err;
   snprintf(r->verify.message, sizeof r->verify.message, "verified on the server (max rel err %.2g)", c.max_rel_err);
   r->status = RUN_OK;
   snprintf(r->message, sizeof r->message, "%s", r->verify.message);
   Worker_addTimes(w, &c.median_ms, 1);
   Worker_log(w, LOG_GOOD, "%s: %.2f GFLOPS on the server's device %d, verified; waited %.1f s", name, c.gflops,
              device, waited);
   w->phase = PH_MEASURE;
   Worker_publish(w);
}

void Served_vendor(Worker *w) {
   w->vendor_again = false;
   Problem p = w->cur.problem;
   Worker_setState(w, WS_QUEUED, "sending the vendor BLAS on %dx%dx%d to the server", p.m, p.n, p.k);
   MeasureJob j = job(w, NULL, &p, w->cur.cold_l2); /* the library needs no kernel */
   pthread_mutex_unlock(&w->mu);
   Measurer *m = Measurer_new(&j);
   char name[256] = "out of memory";
   double gflops = 0;
   if (m) {
      Measurer_onWait(m, tellWait, w);
      gflops = Measurer_vendor(m, name, sizeof name);
      Measurer_free(m);
   }
   pthread_mutex_lock(&w->mu);
   Measurer_vendorResult(gflops, name, &p, SERVED_REPS, &w->snap.vendor);
   w->snap.vendor_done = true;
   w->snap.vendor_problem = p;
   w->snap.vendor_cold_l2 = w->cur.cold_l2;
   if (gflops > 0)
      Worker_log(w, LOG_INFO, "vendor BLAS %s on the server: %.2f GFLOPS", name, gflops);
   else
      Worker_log(w, LOG_WARN, "vendor BLAS on the server: %s", name);
   Worker_publish(w);
}

/* The submission's answer, a line at a time, into the log. */
static void logText(void *ctx, const char *line) {
   Worker *w = ctx;
   if (!*line)
      return;
   pthread_mutex_lock(&w->mu);
   Worker_log(w, LOG_INFO, "%s", line);
   pthread_mutex_unlock(&w->mu);
}

static void submit(Worker *w) {
   w->submit_job.req = false;
   char assignment[sizeof w->submit_job.assignment];
   Util_copy(assignment, sizeof assignment, w->submit_job.assignment);
   const KernelInfo *k = Catalog_find(&w->cat, w->cur.kernel);
   if (!w->server[0] || !k) {
      Worker_log(w, LOG_ERROR, "nothing submitted: %s", !k ? "no kernel is chosen" : "no class server (--server)");
      return;
   }
   /* Every value, not only those changed: the server resolves them against the file sent. */
   char sets[1024] = "", line[1200], file[sizeof k->path], name[640];
   for (int i = 0; i < k->nparams; i++) {
      size_t used = strlen(sets);
      snprintf(sets + used, sizeof sets - used, "%s%s=%lld", i ? "," : "", k->params[i].name, w->cur.values[i]);
   }
   snprintf(line, sizeof line, "submit %s %s", assignment, sets[0] ? sets : "-");
   Util_copy(file, sizeof file, k->path);
   Worker_label(w, &w->cur, name, sizeof name);
   WorkerState before = w->snap.state;
   Worker_setState(w, WS_QUEUED, "submitting %s to %s", name, assignment);
   Worker_log(w, LOG_INFO, "submitting %s to assignment %s", name, assignment);
   pthread_mutex_unlock(&w->mu);
   ClassReply reply = {.text = logText, .wait = tellWait, .note = logText, .ctx = w};
   int judged = -1;
   char why[1024] = "";
   int rc = ClassClient_ask(w->server, file, line, &reply, &judged, why, sizeof why);
   pthread_mutex_lock(&w->mu);
   WorkerSnapshot *sn = &w->snap;
   if (rc)
      snprintf(sn->submit_answer, sizeof sn->submit_answer, "submission to %s: %s", assignment, why);
   else
      snprintf(sn->submit_answer, sizeof sn->submit_answer, "submission of %s to %s: %s", name, assignment,
               judged > 0 ? "verified (class board: gemmtop class board)" : "not verified (the log says why)");
   sn->submit_verified = !rc && judged > 0;
   sn->submit_serial++;
   Worker_log(w, sn->submit_verified ? LOG_GOOD : LOG_ERROR, "%s", sn->submit_answer);
   Worker_setState(w, before == WS_QUEUED ? WS_SERVED : before, "%s",
                   w->phase == PH_MEASURE ? "measured on the server (a change measures again)" : "submitted");
}

static bool submitAsked(const Worker *w) { return w->submit_job.req; }

const WorkerJob Served_submitJob = {"submit to the class server", submitAsked, submit};
