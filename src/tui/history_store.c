/* The history pane's memory across sessions: when the worker measures on a device, kernel
 * and problem for the first time in this session, the best verified results that the
 * results store (core/results/store.h) has of them join the history, marked "stored", so that a
 * new measurement is seen beside what was reached before. Read through the UI's own
 * connection; the worker writes through its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/results/record.h"
#include "core/results/store.h"
#include "base/util.h"
#include "tui/app.h"

/* At most this many stored results per kernel and problem: the history stays about now. */
#define HISTORY_FROM_STORE 8
#define STORED_SEEN 256

typedef struct Stored_ {
   const WorkerSnapshot *snap;
   const KernelInfo *k;
   HistoryEntry seen[STORED_SEEN]; /* one per configuration, its latest result */
   int n;
} Stored;

static bool takeRecord(const StoreRecord *r, void *ctx) {
   Stored *st = ctx;
   const WorkerSnapshot *s = st->snap;
   HistoryEntry e;
   memset(&e, 0, sizeof e);
   /* Only results measured as the explorer measures now (a warm or a cold L2: their
    * figures differ, and a history that mixed them would rank them together), and only
    * verified ones: the history ranks what it shows. */
   if (strcmp(r->device, s->device.name) != 0 || strcmp(r->backend, s->backend) != 0 ||
       !Problem_same(&r->problem, &s->config.problem) || r->cold_l2 != s->config.cold_l2 || !r->verified ||
       !Record_parseParams(st->k, r->params, e.values))
      return true;
   Util_copy(e.backend, sizeof e.backend, s->backend);
   e.device = s->device_index;
   Util_copy(e.kernel, sizeof e.kernel, st->k->name);
   e.nvalues = st->k->nparams;
   e.problem = r->problem;
   KernelInfo_formatParams(st->k, e.values, e.params, sizeof e.params);
   e.gflops = r->gflops;
   e.median_ms = r->median_ms;
   e.state = HIST_OK;
   e.stored = true;
   e.emulated = r->emulated; /* shown, never the best */
   int i = 0;
   while (i < st->n && !History_sameConfig(&st->seen[i], &e))
      i++;
   if (i < STORED_SEEN) {
      st->seen[i] = e; /* oldest first: the latest result of a configuration stays */
      st->n += i == st->n;
   }
   return true;
}

/* The best first. */
static int byGflops(const void *a, const void *b) {
   double x = ((const HistoryEntry *)a)->gflops, y = ((const HistoryEntry *)b)->gflops;
   return (x < y) - (x > y);
}

void Ui_historyFromStore(Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   if (ui->start.no_store || !s->have_device || !s->have_config)
      return;
   const Problem *p = &s->config.problem;
   char sig[sizeof ui->stored_for];
   snprintf(sig, sizeof sig, "%s|%d|%s|%d|%d|%d|%d|%d|%d|%a|%a|%d", s->backend, s->device_index, s->config.kernel, p->m,
            p->n, p->k, p->precision, p->trans_a, p->trans_b, p->alpha, p->beta, (int)p->scaling);
   const KernelInfo *k = Catalog_find(&ui->cat, s->config.kernel);
   if (!k || !strcmp(sig, ui->stored_for))
      return;
   Util_copy(ui->stored_for, sizeof ui->stored_for, sig);
   char err[1536];
   if (!ui->store_tried) {
      ui->store_tried = true;
      ui->store = Store_openReadOnly(ui->start.store, err, sizeof err); /* why not: the worker's log says */
   }
   Stored *st = ui->store ? calloc(1, sizeof *st) : NULL;
   if (!st)
      return;
   st->snap = s;
   st->k = k;
   StoreFilter f;
   StoreFilter_init(&f);
   f.kernel = k->name;
   f.m = p->m, f.n = p->n, f.k = p->k;
   f.precision = (int)p->precision;
   f.ok_only = true;
   if (!Store_query(ui->store, &f, takeRecord, st, err, sizeof err))
      Ui_log(ui, LOG_WARN, "the history cannot show stored results: %s", err);
   qsort(st->seen, (size_t)st->n, sizeof st->seen[0], byGflops);
   int added = 0;
   for (int i = 0; i < st->n && added < HISTORY_FROM_STORE; i++)
      if (History_find(&ui->hist, &st->seen[i]) < 0) {
         History_update(&ui->hist, &st->seen[i]);
         added++;
      }
   if (added)
      Ui_log(ui, LOG_INFO, "history: %d result%s of %s at %dx%dx%d from the results store (%s), marked stored", added,
             added == 1 ? "" : "s", k->name, p->m, p->n, p->k, Store_path(ui->store));
   free(st);
}
