/* A bank trace: the kernel built with GT_TRACE records its local-memory accesses. */
#include "core/run/session_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define TRACE_SITES 16
#define TRACE_CAP (1u << 21)

/* The smallest problem like p (same precision, layout, scalars) that the configuration
 * accepts, from `from` up in M and N, K from `kfrom` up: traces of big problems would be
 * slow and no more telling. */
static Problem smallProblem(const Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                            int from, int kfrom) {
   static const int mn[] = {32, 64, 128, 256, 512, 1024};
   static const int kk[] = {16, 32, 64, 128, 256, 512};
   char msg[512];
   for (size_t i = 0; i < sizeof mn / sizeof mn[0]; i++)
      for (size_t j = 0; j < sizeof kk / sizeof kk[0]; j++) {
         if (mn[i] < from || kk[j] < kfrom)
            continue;
         Problem q = *p;
         q.m = p->m < mn[i] ? p->m : mn[i];
         q.n = p->n < mn[i] ? p->n : mn[i];
         q.k = p->k < kk[j] ? p->k : kk[j];
         if (Config_check(k, values, &q, &s->info.limits, NULL, msg, sizeof msg))
            return q;
      }
   return *p;
}

RunStatus Session_trace(Session *s, const KernelInfo *k, const long long *values, const Problem *p, int groups,
                        bool global_loads, Trace *t, RunResult *r) {
   memset(t, 0, sizeof *t);
   if (groups < 1)
      groups = 1;
   Problem q = global_loads ? smallProblem(s, k, values, p, 256, 256) : smallProblem(s, k, values, p, 0, 0);
   /* A global-load trace counts the loads of A and B after the local sites. */
   const int sites = global_loads ? TRACE_SITES + 2 : TRACE_SITES;
   t->problem = q;
   Geometry g;
   if (!Session_check(s, k, values, &q, NULL, &g, r->message, sizeof r->message)) {
      r->status = RUN_INVALID;
      return r->status;
   }
   size_t wg = 1;
   for (int d = 0; d < g.dims; d++)
      wg *= g.local[d];
   size_t ngroups = 1;
   for (int d = 0; d < g.dims; d++)
      ngroups *= g.global[d] / g.local[d];
   if ((size_t)groups > ngroups)
      groups = (int)ngroups;
   size_t counters = (size_t)groups * wg * sites;
   size_t words = 4 + counters + (size_t)TRACE_CAP * 4;
   char defines[256];
   snprintf(defines, sizeof defines,
            "-DGT_TRACE=1 -DGT_TRACE_GROUPS=%du -DGT_TRACE_WG=%zuu -DGT_TRACE_SITES=%du -DGT_TRACE_CAP=%uu%s", groups, wg,
            sites, TRACE_CAP, global_loads ? " -DGT_TRACE_GLOBAL=1" : "");
   Inputs in;
   if (!Inputs_random(&in, &q, 0x7eace)) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for the trace inputs");
      return r->status;
   }
   Buffer *buf = NULL;
   char err[512];
   unsigned *host = calloc(words, sizeof *host);
   RunStatus st = RUN_OK;
   if (!host) {
      st = r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for the trace (%zu MiB)", words * 4 >> 20);
      goto done;
   }
   if (s->be->alloc(s->ctx, words * sizeof *host, &buf, err, sizeof err) != BACKEND_OK ||
       s->be->write(s->ctx, buf, host, words * sizeof *host, err, sizeof err) != BACKEND_OK) {
      st = r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "trace buffer: %s", err);
      goto done;
   }
   Prepared pr;
   memset(&pr, 0, sizeof pr);
   /* The inputs are not the session's: make sure they are uploaded and forgotten after. */
   s->uploaded_generation = 0;
   if ((st = Session_prepare(s, k, values, &q, &in, defines, buf, NULL, &pr, r)) != RUN_OK)
      goto done;
   double times[PIPELINE_MAX_STEPS];
   if (!Pipeline_run(s, &pr.pl, pr.dbl, false, times, r, pr.C0, pr.C, pr.bytesC) ||
       !Session_checkStatus(s, s->be->read(s->ctx, buf, host, words * sizeof *host, err, sizeof err), err, r)) {
      st = r->status;
      goto done;
   }
   s->uploaded_generation = 0;
   size_t n = host[0] < TRACE_CAP ? host[0] : TRACE_CAP;
   t->records = malloc((n ? n : 1) * sizeof *t->records);
   if (!t->records) {
      st = r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for %zu trace records", n);
      goto done;
   }
   const unsigned *rec = host + 4 + counters;
   for (size_t i = 0; i < n; i++, rec += 4) {
      TraceRecord *tr = &t->records[i];
      tr->global = (rec[0] >> 6) & 1;
      tr->site = rec[0] & 0x3f;
      if (tr->global) /* GT_GTRACE's counters: A's at sites - 2, B's last */
         tr->site -= (unsigned)sites - 2;
      tr->store = (rec[0] >> 7) & 1;
      tr->width = (rec[0] >> 8) & 0x7f;
      tr->async = (rec[0] >> 15) & 1; /* GT_TRACE_ASYNC */
      tr->group = rec[0] >> 16;
      tr->item = rec[1];
      tr->seq = rec[2];
      tr->address = rec[3];
   }
   t->count = n;
   t->dropped = host[1];
   t->groups = groups;
   t->wg_size = wg;
   t->dims = g.dims;
   memcpy(t->local, g.local, sizeof t->local);
   snprintf(r->message, sizeof r->message, "traced %zu %s of %d work-group%s (%dx%dx%d)", n,
            global_loads ? "local-memory accesses and global loads" : "local-memory accesses", groups,
            groups == 1 ? "" : "s", q.m, q.n, q.k);
done:
   s->uploaded_generation = 0;
   if (buf)
      s->be->free(buf);
   free(host);
   Inputs_free(&in);
   return st;
}

void Trace_free(Trace *t) {
   free(t->records);
   memset(t, 0, sizeof *t);
}

