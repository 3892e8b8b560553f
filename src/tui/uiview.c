/* What every part of the explorer reads of its state, and how any of them says something:
 * the kernel, device and limits on screen, the kernel pane's rows, whether the worker is
 * busy and whether its snapshot is the configuration on screen, the limiter of that
 * configuration, the footer's message and the log, a dialog closed, which keys step. It
 * calls nothing of the UI but its pure parts (history.c), so that the panes, dialogs and
 * keys all sit on it without a circle (tools/callgraph.py). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/analyse/limiter.h"
#include "tui/app.h"

void Ui_flash(Ui *ui, Style st, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(ui->flash, sizeof ui->flash, fmt, ap);
   va_end(ap);
   ui->flash_style = st;
   ui->flash_until = Util_nowMs() + 4000;
   ui->dirty = true;
}

void Ui_log(Ui *ui, LogLevel level, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   LogBuf_addv(&ui->log, level, fmt, ap);
   va_end(ap);
   ui->dirty = true;
}

const KernelInfo *Ui_kernel(const Ui *ui) { return &ui->cat.kernels[ui->kernel]; }

const DeviceInfo *Ui_deviceInfo(const Ui *ui) {
   if (ui->snap.have_device)
      return &ui->snap.device;
   if (ui->device >= 0 && ui->device < ui->ndevices)
      return &ui->devices[ui->device];
   return NULL;
}

const char *Ui_simulatedNote(const Ui *ui) {
   const DeviceInfo *d = Ui_deviceInfo(ui);
   return d && d->limits_simulated ? " (device limits simulated by GEMMTOP_DEVICE_LIMITS)" : "";
}

const DeviceLimits *Ui_limits(const Ui *ui) {
   static const DeviceLimits none = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true,
                                     .warp = 32};
   const DeviceInfo *d = Ui_deviceInfo(ui);
   return d ? &d->limits : &none;
}

const char *Ui_shortName(const KernelInfo *k) {
   size_t n = strlen(k->ladder);
   if (n && !strncmp(k->name, k->ladder, n) && k->name[n])
      return k->name[n] == '_' ? k->name + n + 1 : k->name + n;
   return k->name;
}

int Ui_kernelRows(const Ui *ui) { return 1 + Ui_kernel(ui)->nparams + ui->nlist; }

KRowKind Ui_kernelRow(const Ui *ui, int row, int *index) {
   int np = Ui_kernel(ui)->nparams;
   if (row <= 0) {
      *index = ui->kernel;
      return KROW_VARIANT_PICK;
   }
   if (row <= np) {
      *index = row - 1;
      return KROW_PARAM;
   }
   int li = row - 1 - np;
   *index = li < ui->nlist ? ui->list[li] : ui->kernel;
   return KROW_VARIANT;
}

/* The history's key of the configuration that the worker measures. */
void Ui_measuredEntry(const Ui *ui, HistoryEntry *e) {
   const WorkerSnapshot *s = &ui->snap;
   memset(e, 0, sizeof *e);
   Util_copy(e->backend, sizeof e->backend, s->backend);
   e->device = s->device_index;
   Util_copy(e->kernel, sizeof e->kernel, s->config.kernel);
   memcpy(e->values, s->config.values, sizeof e->values);
   const KernelInfo *k = Catalog_find(&ui->cat, e->kernel);
   e->nvalues = k ? k->nparams : 0;
   e->problem = s->config.problem;
   e->ablate = s->config.ablate;
}

int Ui_historyMeasured(const Ui *ui) {
   if (!ui->snap.have_config)
      return -1;
   HistoryEntry e;
   Ui_measuredEntry(ui, &e);
   return History_find(&ui->hist, &e);
}

bool Ui_busy(const Ui *ui) {
   switch (ui->snap.state) {
   case WS_STARTING: case WS_OPENING: case WS_WAITING: case WS_PREPARING: case WS_COMPILING: case WS_VERIFYING:
   case WS_MEASURING: case WS_VENDOR: case WS_PEAKS: case WS_TRACING: case WS_SWEEPING: case WS_INSPECTING:
   case WS_QUEUED:
      return true;
   default:
      return false;
   }
}

bool Ui_snapRefused(const Ui *ui) { return ui->snap.state == WS_STOPPED && ui->snap.result.status == RUN_INVALID; }

/* Whether the snapshot describes the configuration now chosen. */
bool Ui_snapIsCurrent(const Ui *ui) {
   const WorkerSnapshot *s = &ui->snap;
   return s->have_config && !strcmp(s->config.kernel, Ui_kernel(ui)->name) &&
          !memcmp(s->config.values, ui->values, sizeof ui->values) && Problem_same(&s->config.problem, &ui->problem) &&
          s->config.ablate == ui->ablate && s->config.cold_l2 == ui->cold_l2 && !strcmp(s->config.limits, ui->limits);
}

void Dialog_close(Ui *ui) {
   if (ui->dialog == DLG_SETUP) {
      free(ui->setup.devices);
      ui->setup.devices = NULL;
      ui->setup.ndevices = 0;
      ShapeSuites_free(&ui->setup.suites);
   }
   ui->dialog = DLG_NONE;
   ui->dirty = true;
}

/* The configuration on screen, measured: its limiter's inputs. False when there is no
 * figure for it yet (why in msg). */
static bool currentInputs(const Ui *ui, LimiterInputs *in, char *msg, size_t len) {
   const WorkerSnapshot *s = &ui->snap;
   if (!s->have_device) {
      snprintf(msg, len, "no device open");
      return false;
   }
   if (!Ui_snapIsCurrent(ui) || !s->have_result || !(s->gflops > 0)) {
      snprintf(msg, len, s->have_result && s->result.status != RUN_OK && Ui_snapIsCurrent(ui)
                            ? "the configuration did not run: nothing to place"
                            : "measuring: the point comes with the first figures");
      return false;
   }
   const KernelInfo *k = Catalog_find(&ui->cat, s->config.kernel);
   if (!k) {
      snprintf(msg, len, "kernel %s is no longer in the catalog", s->config.kernel);
      return false;
   }
   LimiterRun r = {.gflops = s->gflops, .median_ms = s->median_ms, .geo = s->result.geo,
                   .registers = s->result.registers, .local_mem = s->result.local_mem, .ablate = s->config.ablate,
                   .sm_mhz = s->obs.known && isfinite(s->obs.sm_mhz) ? s->obs.sm_mhz : 0};
   const BankAnalysis *a = ui->banks_pane.have ? ui->banks_pane.analysis.analysis : NULL;
   /* The trace's conflicts where the bank model is the device's (a CPU has no banks). */
   double ratio = a && a->model.known && ui->banks_pane.analysis.config_serial == s->config_serial
                     ? a->total.avg_degree
                     : 0;
   Limiter_inputs(&s->device, k, s->config.values, &s->config.problem, &r, &s->peaks, ratio, in);
   return true;
}

bool Ui_limiter(const Ui *ui, LimiterInputs *in, Limiter *l, char *msg, size_t len) {
   if (!currentInputs(ui, in, msg, len))
      return false;
   Limiter_of(in, l);
   return true;
}

bool Ui_isSteppingKey(int ch) {
   return ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+' || ch == '=' || ch == KEY_SLEFT ||
          ch == KEY_SRIGHT;
}
