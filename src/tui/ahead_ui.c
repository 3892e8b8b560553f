/* The explorer's side of compiling ahead (ahead.h): what to ask of the pool, when, and
 * the results pane's line. Runs on the UI thread only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/run/ahead.h"
#include "tui/app.h"
#include "tui/draw_kernel.h"
#include "base/util.h"

static bool onGpu(const Ui *ui) {
   DeviceType t = ui->snap.device.type;
   return t == DEVICE_GPU || t == DEVICE_ACCELERATOR;
}

static bool active(const Ui *ui) {
   switch (ui->ahead_mode) {
   case AHEAD_ON: return true;
   case AHEAD_OFF: return false;
   default: return onGpu(ui) || ui->paused;
   }
}

/* The worker's figures are of the configuration on screen. */
static bool current(const Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   return s->have_device && s->have_config && !strcmp(s->config.kernel, Ui_kernel(ui)->name) &&
          !memcmp(s->config.values, ui->values, sizeof ui->values) && Problem_same(&s->config.problem, &ui->problem);
}

static AheadTarget targetOf(const Ui *ui) {
   return Ahead_target(ui->snap.backend, ui->snap.device_index, Ui_kernel(ui)->name, &ui->problem,
                       ui->ablate & ABLATE_ALL);
}

void AheadUi_update(Ui *ui) {
   if (!ui->ahead)
      return;
   AheadStatus st;
   Ahead_status(ui->ahead, &st);
   if (st.version != ui->ahead_status.version) {
      ui->ahead_status = st;
      ui->dirty = true;
   }
   /* While a sweep runs, its next configurations rather than the neighbours: the worker
    * then loads them from the disk cache instead of compiling them one by one. */
   unsigned long long before = ui->ahead_posted;
   bool sweeping = active(ui) && Worker_feedAhead(ui->worker, ui->ahead, &ui->ahead_posted) >= 0;
   if (sweeping != ui->ahead_sweeping || before != ui->ahead_posted)
      ui->dirty = true;
   ui->ahead_sweeping = sweeping;
   if (sweeping)
      return;
   /* Only around a configuration compiled and verified, and dropped as soon as it is not
    * the one on screen any more. */
   if (!active(ui) || !current(ui) || !ui->snap.result.verified_run) {
      if (ui->ahead_posted) {
         Ahead_drop(ui->ahead);
         ui->ahead_posted = 0;
         ui->dirty = true;
      }
      return;
   }
   int idx, cursor = Ui_kernelRow(ui, KernelPane_of(&ui->panes)->cursor, &idx) == KROW_PARAM ? idx : -1;
   AheadTarget t = targetOf(ui);
   unsigned long long sig = Util_hash(Ahead_targetHash(&t), ui->values, sizeof ui->values);
   sig = Util_hash(sig, &cursor, sizeof cursor);
   if (!sig)
      sig = 1;
   if (sig == ui->ahead_posted)
      return;
   long long (*next)[KERNEL_MAX_PARAMS] = calloc(AHEAD_MAX_JOBS, sizeof *next);
   if (!next)
      return;
   int n = Ahead_neighbours(Ui_kernel(ui), ui->values, &ui->problem, Ui_limits(ui), cursor, next, AHEAD_MAX_JOBS);
   Ahead_want(ui->ahead, &t, (const long long (*)[KERNEL_MAX_PARAMS])next, n);
   free(next);
   ui->ahead_posted = sig;
   ui->dirty = true;
}

void AheadUi_cycle(Ui *ui) {
   ui->ahead_mode = (ui->ahead_mode + 1) % 3;
   if (!ui->ahead)
      Ui_flash(ui, ST_BAD, "compile ahead is not available: %s",
               ui->start.server ? "the class server compiles" : "its threads could not start");
   else if (ui->ahead_mode == AHEAD_AUTO)
      Ui_flash(ui, ST_NORMAL, "compile ahead: auto (on a GPU; on a CPU only while paused)");
   else if (ui->ahead_mode == AHEAD_ON)
      Ui_flash(ui, ST_NORMAL, "compile ahead: on (the neighbours of each verified configuration, or a sweep's next ones)");
   else
      Ui_flash(ui, ST_NORMAL, "compile ahead: off");
   AheadUi_update(ui);
}

void AheadUi_describe(const Ui *ui, char *out, size_t outlen) {
   const AheadStatus *st = &ui->ahead_status;
   const char *mode = AheadMode_name((AheadMode)ui->ahead_mode);
   if (!ui->ahead) {
      snprintf(out, outlen, "%s", ui->start.server ? "off: the class server compiles"
                                                   : "not available (its threads could not start)");
   } else if (ui->ahead_mode == AHEAD_OFF) {
      snprintf(out, outlen, "off (a: auto)");
   } else if (!active(ui)) {
      snprintf(out, outlen, "waits: a CPU device is measuring (space pauses; a: on)");
   } else if (!ui->ahead_posted) {
      snprintf(out, outlen, "after the configuration is verified (%s)", mode);
   } else if (ui->ahead_sweeping && st->wanted == 0) {
      snprintf(out, outlen, "the sweep's last configuration: nothing left to compile (%s)", mode);
   } else if (ui->ahead_sweeping) {
      size_t n = (size_t)snprintf(out, outlen, "the sweep's next %d: %d compiled", st->wanted, st->done);
      if (st->running && n < outlen)
         n += (size_t)snprintf(out + n, outlen - n, ", %d compiling", st->running);
      if (st->failed && n < outlen)
         n += (size_t)snprintf(out + n, outlen - n, ", %d failed", st->failed);
      if (n < outlen)
         snprintf(out + n, outlen - n, " (%s)", mode);
   } else if (st->wanted == 0) {
      snprintf(out, outlen, "no valid neighbour to compile (%s)", mode);
   } else {
      size_t n = (size_t)snprintf(out, outlen, "%d/%d compiled", st->done, st->wanted);
      if (st->running && n < outlen)
         n += (size_t)snprintf(out + n, outlen - n, ", %d compiling", st->running);
      if (st->failed && n < outlen)
         n += (size_t)snprintf(out + n, outlen - n, ", %d failed", st->failed);
      if (st->error[0] && st->failed && n < outlen)
         n += (size_t)snprintf(out + n, outlen - n, ": %s", st->error);
      if (n < outlen)
         snprintf(out + n, outlen - n, " (%s)", mode);
   }
}

bool AheadUi_compiledAhead(const Ui *ui) {
   if (!ui->ahead || !ui->snap.have_device)
      return false;
   AheadTarget t = targetOf(ui);
   return Ahead_compiled(ui->ahead, &t, ui->values);
}

bool AheadUi_ready(const Ui *ui) {
   if (AheadUi_compiledAhead(ui))
      return true;
   /* Measured earlier in this session: in the worker's memory or the disk cache. */
   HistoryEntry probe;
   memset(&probe, 0, sizeof probe);
   Util_copy(probe.backend, sizeof probe.backend, ui->snap.backend);
   probe.device = ui->snap.device_index;
   Util_copy(probe.kernel, sizeof probe.kernel, Ui_kernel(ui)->name);
   memcpy(probe.values, ui->values, sizeof probe.values);
   probe.nvalues = Ui_kernel(ui)->nparams;
   probe.problem = ui->problem;
   int i = History_find(&ui->hist, &probe);
   return i >= 0 && ui->hist.items[i].state != HIST_FAILED;
}
