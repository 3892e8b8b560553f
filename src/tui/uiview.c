/* What every part of the explorer reads of its state, and how any of them says something:
 * the kernel, device and limits on screen, the kernel pane's rows, whether the worker is
 * busy and whether its snapshot is the configuration on screen, the footer's message and
 * the log, a click's place recorded, a dialog closed, which keys step. It calls nothing of
 * the UI but its pure parts (panectx.c), so that the panes' host, dialogs and keys all sit
 * on it without a circle (tools/callgraph.py). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
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

void Ui_logv(Ui *ui, LogLevel level, const char *fmt, va_list ap) {
   LogBuf_addv(&ui->log, level, fmt, ap);
   ui->dirty = true;
}

void Ui_log(Ui *ui, LogLevel level, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   Ui_logv(ui, level, fmt, ap);
   va_end(ap);
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

/* The kernel pane's rows are the context's (panectx.c): a context of the fields they read. */
static PaneCtx rowsCtx(const Ui *ui) {
   return (PaneCtx){.cat = &ui->cat, .info = Ui_kernel(ui), .kernel = ui->kernel, .list = ui->list, .nlist = ui->nlist};
}

int Ui_kernelRows(const Ui *ui) {
   PaneCtx c = rowsCtx(ui);
   return PaneCtx_kernelRows(&c);
}

KRowKind Ui_kernelRow(const Ui *ui, int row, int *index) {
   PaneCtx c = rowsCtx(ui);
   return PaneCtx_kernelRow(&c, row, index);
}

void Draw_hit(Ui *ui, Rect r, HitKind kind, int a, int b) {
   PaneCtx c = {.hits = ui->hits, .nhits = &ui->nhits}; /* as a pane records one */
   PaneCtx_hit(&c, r, kind, a, b);
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
