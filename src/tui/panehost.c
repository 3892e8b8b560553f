/* The explorer's side of a pane's context (panectx.h): the context built from the state
 * for each call of a pane (the walks in panes_table.c, the compositor's header, the news,
 * the lesson chooser's dialog), and the verbs by which a pane acts on the rest of the
 * explorer, each a narrow door onto what the UI's own files do (uiview.c, ui.c,
 * preset_ui.c, ahead_ui.c) or onto what another pane shows (the lesson's step text). */
#include <stdarg.h>
#include <stdio.h>

#include "base/util.h"
#include "tui/app.h"
#include "tui/draw_lesson.h"

/* The host a context's verbs act on: the explorer's state, which no pane sees. */
static Ui *hostOf(const PaneCtx *ctx) { return (Ui *)(void *)ctx->host; }

void PaneHost_context(Ui *ui, int p, PaneCtx *ctx) {
   const LessonPane *lesson = LessonPane_of(&ui->panes); /* NULL before the panes start */
   *ctx = (PaneCtx){
       .id = p,
       .area = p >= 0 && p < PANE_COUNT ? ui->layout.pane[p] : (Rect){0, 0, ui->paint.cols, ui->paint.rows},
       .paint = &ui->paint,
       .bars = ui->bars,
       .spark = ui->spark,
       .visible = ui->visible,
       .shown = ui->layout.shown,
       .focus = ui->focus,
       .zoom = ui->zoom,
       .frame = ui->frame,
       .cat = &ui->cat,
       .list = ui->list,
       .nlist = ui->nlist,
       .kernel = ui->kernel,
       .info = ui->cat.count ? Ui_kernel(ui) : NULL,
       .values = ui->values,
       .problem = &ui->problem,
       .ablate = ui->ablate,
       .cold_l2 = ui->cold_l2,
       .limits = ui->limits,
       .device = Ui_deviceInfo(ui),
       .device_limits = Ui_limits(ui),
       .simulated_note = Ui_simulatedNote(ui),
       .start = &ui->start,
       .backend = ui->backend,
       .kernels_dir = ui->kernels_dir,
       .presets_dir = ui->presets_dir,
       .worker = ui->worker,
       .snap = &ui->snap,
       .snap_current = ui->cat.count && Ui_snapIsCurrent(ui),
       .snap_refused = Ui_snapRefused(ui),
       .busy = Ui_busy(ui),
       .paused = ui->paused,
       .cancelling = ui->cancelling,
       .hist = &ui->hist,
       .log = &ui->log,
       .banks = BanksPane_of(&ui->panes),
       .inspect = InspectPane_of(&ui->panes),
       .grid_step = lesson ? LessonPane_gridStep(lesson) : NULL,
       .hits = ui->hits,
       .nhits = &ui->nhits,
       .dirty = &ui->dirty,
       .host = (struct PaneHost_ *)(void *)ui,
   };
}

/* The footer's message from a pane's format and arguments. */
static void flashv(const PaneCtx *ctx, Style st, const char *fmt, va_list ap) {
   char text[sizeof hostOf(ctx)->flash];
   vsnprintf(text, sizeof text, fmt, ap);
   Ui_flash(hostOf(ctx), st, "%s", text);
}

void PaneCtx_flash(const PaneCtx *ctx, Style st, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   flashv(ctx, st, fmt, ap);
   va_end(ap);
}

void PaneCtx_prompt(const PaneCtx *ctx, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   flashv(ctx, ST_WARN, fmt, ap);
   va_end(ap);
   hostOf(ctx)->flash_until = Util_nowMs() + 60e3;
}

void PaneCtx_promptDone(const PaneCtx *ctx) { hostOf(ctx)->flash_until = 0; }

void PaneCtx_log(const PaneCtx *ctx, LogLevel level, const char *fmt, ...) {
   va_list ap;
   va_start(ap, fmt);
   Ui_logv(hostOf(ctx), level, fmt, ap);
   va_end(ap);
}

void PaneCtx_show(const PaneCtx *ctx, unsigned how) {
   Ui *ui = hostOf(ctx);
   ui->visible |= PANE_BIT(ctx->id);
   if ((how & PANE_SHOW_UNZOOM) && ui->zoom >= 0 && ui->zoom != ctx->id)
      ui->zoom = -1;
   if (how & PANE_SHOW_FOCUS)
      ui->focus = ctx->id;
}

bool PaneCtx_zoomBankGrid(const PaneCtx *ctx, int site) {
   Ui *ui = hostOf(ctx);
   const bool hidden = !(ui->visible & PANE_BIT(PANE_BANKS));
   ui->visible |= PANE_BIT(PANE_BANKS);
   ui->focus = ui->zoom = PANE_BANKS;
   BanksPane *banks = BanksPane_of(&ui->panes);
   banks->warp = banks->iter = banks->scroll = 0;
   if (site >= 0)
      banks->site = site;
   return hidden;
}

void PaneCtx_closeBankGrid(const PaneCtx *ctx, bool hide) {
   Ui *ui = hostOf(ctx);
   if (ui->zoom == PANE_BANKS)
      ui->zoom = -1;
   if (hide)
      ui->visible &= ~PANE_BIT(PANE_BANKS);
}

void PaneCtx_closeDialog(const PaneCtx *ctx) { Dialog_close(hostOf(ctx)); }

void PaneCtx_selectKernel(const PaneCtx *ctx, int catalog_index, const long long *values, const Problem *problem) {
   Ui *ui = hostOf(ctx);
   if (problem)
      ui->problem = *problem;
   Ui_selectKernel(ui, catalog_index, values);
}

void PaneCtx_stepVariant(const PaneCtx *ctx, int dir) { Ui_stepVariant(hostOf(ctx), dir); }

void PaneCtx_stepParam(const PaneCtx *ctx, int pi, int dir, bool any) { Ui_stepParam(hostOf(ctx), pi, dir, any); }

void PaneCtx_restoreHistory(const PaneCtx *ctx, int i) { Ui_restoreHistory(hostOf(ctx), i); }

bool PaneCtx_loadPreset(const PaneCtx *ctx, const Preset *p, const LessonSize *sizing, unsigned ablate,
                        const char *limits, WorkerConfig *loaded, char *err, size_t errlen) {
   Ui *ui = hostOf(ctx);
   if (!Ui_loadPreset(ui, p, sizing, ablate, limits, err, errlen))
      return false;
   PaneCtx now;
   PaneHost_context(ui, ctx->id, &now);
   PaneCtx_config(&now, loaded);
   return true;
}

void PaneCtx_aheadLine(const PaneCtx *ctx, char *out, size_t outlen) { AheadUi_describe(hostOf(ctx), out, outlen); }

bool PaneCtx_compiledAhead(const PaneCtx *ctx) { return AheadUi_compiledAhead(hostOf(ctx)); }

void PaneCtx_lessonStepText(const PaneCtx *ctx, int width, void (*emit)(void *arg, const char *line, int style),
                            void *arg) {
   LessonPane_stepText(ctx, LessonPane_of(&hostOf(ctx)->panes), width, emit, arg);
}
