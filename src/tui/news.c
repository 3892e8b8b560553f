/* The worker's news, taken once per pass of the main loop: its snapshot (and the history
 * entry it makes), the sweep, the bank analysis and the inspection of the panes that are
 * shown, its log lines. The UI thread never waits for the device here. */
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "tui/app.h"

static void updateHistory(Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   if (!s->have_config || !s->have_result || !s->have_device)
      return;
   RunStatus st = s->result.status;
   if (st == RUN_INVALID || (s->nwindow == 0 && (st == RUN_OK || st == RUN_CANCELLED)))
      return;
   HistoryEntry e;
   PaneCtx ctx; /* the history's key of what was measured, as the history pane finds it */
   PaneHost_context(ui, -1, &ctx);
   PaneCtx_measuredEntry(&ctx, &e);
   const KernelInfo *k = Catalog_find(&ui->cat, e.kernel);
   if (k)
      KernelInfo_formatParams(k, e.values, e.params, sizeof e.params);
   e.emulated = s->result.geo.emulated;
   e.gflops = s->nwindow ? s->gflops : 0;
   e.median_ms = s->median_ms;
   bool verified = !s->result.verified_run || s->result.verify.ok;
   if (s->nwindow && verified)
      e.state = HIST_OK;
   else if (s->nwindow)
      e.state = HIST_NOT_VERIFIED;
   else
      e.state = HIST_FAILED;
   Util_copy(e.why, sizeof e.why, s->nwindow && !verified ? "wrong result" : RunStatus_name(s->result.status));
   History_update(&ui->hist, &e);
}

void Ui_pollWorker(Ui *ui) {
   bool fresh = Worker_snapshot(ui->worker, &ui->snap, &ui->snap_seen);
   if (fresh) {
      ui->dirty = true;
      Ui_historyFromStore(ui);
      updateHistory(ui);
      if (ui->cancelling && (!Ui_busy(ui) || ui->snap.state == WS_WAITING))
         ui->cancelling = false;
      /* The class server's answer to J: in the footer for a while, and in the results pane,
       * not only in the log (which a lesson's layout hides). */
      if (ui->snap.submit_serial != ui->submit_seen) {
         ui->submit_seen = ui->snap.submit_serial;
         Ui_flash(ui, ui->snap.submit_verified ? ST_GOOD : ST_BAD, "%s", ui->snap.submit_answer);
         ui->flash_until = Util_nowMs() + 20e3;
      }
   }
   /* What the panes shown need (panes.h): the compare pane puts bank tables and
    * instruction counts side by side, so it asks for both. */
   unsigned needs = Pane_needs(ui->visible), changed = needs ^ ui->needs_told;
   ui->needs_told = needs;
   if (changed & PANE_NEEDS_BANKS)
      Worker_setBanks(ui->worker, (needs & PANE_NEEDS_BANKS) != 0);
   if (changed & PANE_NEEDS_INSPECT)
      Worker_setInspect(ui->worker, (needs & PANE_NEEDS_INSPECT) != 0);
   /* Each pane's own news: a new snapshot's, then its mailbox's (panes_table.h). */
   Panes_news(Panes_shipped(), ui, fresh);
   Worker_takeLog(ui->worker, &ui->log);
   if (ui->log.added != ui->log_seen) {
      ui->log_seen = ui->log.added;
      ui->dirty = true;
   }
}

