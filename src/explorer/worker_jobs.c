/* What every job of the explorer's worker uses (measure.c, served.c, sweepjob.c,
 * panejobs.c, exportjob.c): the state and activity it shows, its log lines, its label of
 * a configuration, the snapshot's version, the rolling window of times, a record for
 * the store, and the wait for the compile-ahead pool. The loop (worker.c) calls the
 * jobs and the jobs call this file, so that the calls between the worker's files run
 * one way (tools/callgraph.py; tests/e2e/callgraph.sh fails on a circle). The thread
 * holds mu unless said otherwise. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "core/run/ablate.h"
#include "base/util.h"
#include "explorer/worker_int.h"

const char *WorkerState_name(WorkerState s) {
   switch (s) {
   case WS_STARTING: return "starting";
   case WS_OPENING: return "opening device";
   case WS_NO_DEVICE: return "no device";
   case WS_WAITING: return "waiting";
   case WS_PREPARING: return "making inputs";
   case WS_COMPILING: return "compiling";
   case WS_VERIFYING: return "first launch, verifying";
   case WS_MEASURING: return "measuring";
   case WS_PAUSED: return "paused";
   case WS_STOPPED: return "stopped";
   case WS_VENDOR: return "vendor BLAS";
   case WS_PEAKS: return "measuring peaks";
   case WS_TRACING: return "tracing";
   case WS_SWEEPING: return "sweeping";
   case WS_INSPECTING: return "reading code";
   case WS_QUEUED: return "on the server";
   case WS_SERVED: return "measured on the server";
   }
   return "?";
}

void Worker_publish(Worker *w) { w->snap.version++; }

void Worker_waitFor(Worker *w, double ms) {
   struct timespec ts;
   Util_deadline(&ts, ms);
   pthread_cond_timedwait(&w->cv, &w->mu, &ts);
}

void Worker_setState(Worker *w, WorkerState st, const char *fmt, ...) {
   if (st != w->snap.state)
      w->snap.state_since = Util_nowMs();
   w->snap.state = st;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(w->snap.activity, sizeof w->snap.activity, fmt, ap);
   va_end(ap);
   Worker_publish(w);
}

void Worker_log(Worker *w, LogLevel level, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   LogBuf_addv(&w->log, level, fmt, ap);
   va_end(ap);
   Worker_publish(w);
}

void Worker_label(const Worker *w, const WorkerConfig *c, char *out, size_t outlen) {
   const KernelInfo *k = Catalog_find(&w->cat, c->kernel);
   char params[512] = "";
   if (k)
      KernelInfo_formatParams(k, c->values, params, sizeof params);
   char ablation[64] = "";
   if (c->ablate) {
      Ablate_name(c->ablate, ablation, sizeof ablation);
      snprintf(out, outlen, "%s%s%s [ABLATED: %s]", c->kernel, params[0] ? " " : "", params, ablation);
   } else {
      snprintf(out, outlen, "%s%s%s", c->kernel, params[0] ? " " : "", params);
   }
}

void Worker_stopWith(Worker *w, RunStatus st, const char *message) {
   w->snap.result.status = st;
   w->snap.have_result = true;
   Util_copy(w->snap.result.message, sizeof w->snap.result.message, message);
   w->phase = PH_STOPPED;
   Worker_publish(w);
}

Ahead *Worker_holdAhead(Worker *w) {
   if (w->ahead)
      w->ahead_users++; /* the pool stays until Worker_releaseAhead (Worker_setAhead waits) */
   return w->ahead;
}

void Worker_releaseAhead(Worker *w, Ahead *pool) {
   if (pool && --w->ahead_users == 0)
      pthread_cond_broadcast(&w->done_cv);
}

void Worker_awaitAhead(Worker *w, const AheadTarget *t, const long long *values, atomic_int *stop) {
   Ahead *pool = Worker_holdAhead(w);
   if (!pool)
      return;
   pthread_mutex_unlock(&w->mu);
   Ahead_await(pool, t, values, stop, &w->ahead_abort);
   pthread_mutex_lock(&w->mu);
   Worker_releaseAhead(w, pool);
}

void Worker_addTimes(Worker *w, const double *times_ms, int n) {
   WorkerSnapshot *s = &w->snap;
   for (int i = 0; i < n; i++) {
      if (s->nwindow == WORKER_WINDOW) {
         memmove(s->window, s->window + 1, sizeof s->window[0] * (WORKER_WINDOW - 1));
         s->nwindow--;
      }
      s->window[s->nwindow++] = times_ms[i];
   }
   s->launches += n;
   s->rounds++;
   if (s->nwindow == 0)
      return;
   s->median_ms = Util_median(s->window, s->nwindow);
   s->min_ms = s->max_ms = s->window[0];
   for (int i = 1; i < s->nwindow; i++) {
      s->min_ms = fmin(s->min_ms, s->window[i]);
      s->max_ms = fmax(s->max_ms, s->window[i]);
   }
   double q1 = Util_percentile(s->window, s->nwindow, 0.25), q3 = Util_percentile(s->window, s->nwindow, 0.75);
   s->spread_pct = s->median_ms > 0 ? 100.0 * (q3 - q1) / s->median_ms : 0;
   const Problem *p = &w->cur.problem;
   s->gflops = s->median_ms > 0 ? Problem_flops(p) / (s->median_ms * 1e6) : 0;
   s->gbps = s->median_ms > 0 ? Ablate_bytes(p, w->cur.ablate) / (s->median_ms * 1e6) : 0;
   s->have_result = true;
}

void Worker_record(Worker *w, StoreRecord *r) {
   char err[1536];
   if (!w->store || Store_add(w->store, r, 1, err, sizeof err))
      return;
   Worker_log(w, LOG_WARN, "recording stopped: %s", err);
   Store_close(w->store);
   w->store = NULL;
}
