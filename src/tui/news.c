/* The worker's news, taken once per pass of the main loop: its snapshot (and the history
 * entry it makes), the sweep, the bank analysis and the inspection of the panes that are
 * shown, its log lines. The UI thread never waits for the device here. */
#include <stdlib.h>
#include <string.h>

#include "core/analyse/banks.h"
#include "base/util.h"
#include "tui/app.h"
#include "tui/lesson_ui.h"

static void updateHistory(Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   if (!s->have_config || !s->have_result || !s->have_device)
      return;
   if (s->status == RUN_INVALID || (s->nwindow == 0 && (s->status == RUN_OK || s->status == RUN_CANCELLED)))
      return;
   HistoryEntry e;
   Ui_measuredEntry(ui, &e);
   const KernelInfo *k = Catalog_find(&ui->cat, e.kernel);
   if (k)
      KernelInfo_formatParams(k, e.values, e.params, sizeof e.params);
   e.emulated = s->geo.emulated;
   e.gflops = s->nwindow ? s->gflops : 0;
   e.median_ms = s->median_ms;
   bool verified = !s->verified_run || s->verify.ok;
   if (s->nwindow && verified)
      e.state = HIST_OK;
   else if (s->nwindow)
      e.state = HIST_NOT_VERIFIED;
   else
      e.state = HIST_FAILED;
   Util_copy(e.why, sizeof e.why, s->nwindow && !verified ? "wrong result" : RunStatus_name(s->status));
   History_update(&ui->hist, &e);
}

void Ui_freeBanks(Ui *ui) {
   if (ui->banks_pane.have && ui->banks_pane.analysis.analysis) {
      BankAnalysis_free(ui->banks_pane.analysis.analysis);
      free(ui->banks_pane.analysis.analysis);
   }
   ui->banks_pane.analysis.analysis = NULL;
   ui->banks_pane.have = false;
}

void Ui_freeInspect(Ui *ui) {
   if (ui->inspect_pane.have)
      WorkerInspect_free(&ui->inspect_pane.last);
   free(ui->inspect_pane.lines);
   ui->inspect_pane.lines = NULL;
   ui->inspect_pane.nlines = 0;
   ui->inspect_pane.have = false;
}

/* Indexes the lines of the text now shown. */
void Ui_inspectReindex(Ui *ui) {
   free(ui->inspect_pane.lines);
   ui->inspect_pane.lines = NULL;
   const char *text = Ui_inspectText(ui, NULL);
   ui->inspect_pane.nlines = text ? Listing_split(text, &ui->inspect_pane.lines) : 0;
   if (ui->inspect_pane.nlines < 0)
      ui->inspect_pane.nlines = 0;
}

static void pollInspect(Ui *ui) {
   bool on = (Pane_needs(ui->visible) & PANE_NEEDS_INSPECT) != 0;
   if (on != ui->inspect_pane.on) {
      ui->inspect_pane.on = on;
      Worker_setInspect(ui->worker, on);
   }
   WorkerInspect in;
   if (!Worker_takeInspect(ui->worker, &in))
      return;
   /* A new configuration's listing starts at its top; the same one keeps its place. */
   bool same = ui->inspect_pane.have && !strcmp(in.config.kernel, ui->inspect_pane.last.config.kernel) &&
               !memcmp(in.config.values, ui->inspect_pane.last.config.values, sizeof in.config.values);
   Ui_freeInspect(ui);
   ui->inspect_pane.last = in;
   ui->inspect_pane.have = true;
   Ui_inspectReindex(ui);
   if (!same)
      ui->inspect_pane.scroll = 0;
   ui->dirty = true;
}

void Ui_pollWorker(Ui *ui) {
   if (Worker_snapshot(ui->worker, &ui->snap, &ui->snap_seen)) {
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
      LessonUi_poll(ui);
   }
   if (Worker_sweep(ui->worker, ui->sweep_pane.sweep, &ui->sweep_pane.seen))
      ui->dirty = true;
   /* What the panes shown need (panes.h): the compare pane puts bank tables and
    * instruction counts side by side, so it asks for both. */
   bool banks_on = (Pane_needs(ui->visible) & PANE_NEEDS_BANKS) != 0;
   if (banks_on != ui->banks_pane.on) {
      ui->banks_pane.on = banks_on;
      Worker_setBanks(ui->worker, banks_on);
   }
   WorkerBanks nb;
   if (Worker_takeBanks(ui->worker, &nb)) {
      if (ui->banks_pane.have) {
         ui->banks_pane.before = ui->banks_pane.analysis.config;
         ui->banks_pane.have_before = true;
      }
      Ui_freeBanks(ui);
      ui->banks_pane.analysis = nb;
      ui->banks_pane.have = true;
      Draw_clampBanks(ui);
      ui->dirty = true;
   }
   pollInspect(ui);
   Compare_refresh(ui);
   Worker_takeLog(ui->worker, &ui->log);
   if (ui->log.added != ui->log_seen) {
      ui->log_seen = ui->log.added;
      ui->dirty = true;
   }
}

