/* What a pane reads that takes more than a field of its context (panectx.h): its height,
 * the kernel pane's rows, the history's entry of the configuration measured, the limiter
 * of the configuration on screen; and the verbs that write only what the context points
 * to (a click's place, the screen to be drawn again). From the context alone: it calls
 * nothing of the UI but its pure parts, so that the UI's own files (uiview.c) sit on it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"
#include "core/analyse/banks.h"
#include "tui/panectx.h"

bool PaneCtx_isSteppingKey(int ch) {
   return ch == KEY_LEFT || ch == KEY_RIGHT || ch == '-' || ch == '+' || ch == '=' || ch == KEY_SLEFT ||
          ch == KEY_SRIGHT;
}

void PaneCtx_dirty(const PaneCtx *ctx) { *ctx->dirty = true; }

void PaneCtx_hit(const PaneCtx *ctx, Rect r, HitKind kind, int a, int b) {
   if (*ctx->nhits < UI_MAX_HITS)
      ctx->hits[(*ctx->nhits)++] = (Hit){r, kind, a, b};
}

int PaneCtx_height(const PaneCtx *ctx) {
   int h = ctx->area.h - 1;
   return h > 1 ? h : 1;
}

int PaneCtx_kernelRows(const PaneCtx *ctx) { return 1 + ctx->info->nparams + ctx->nlist; }

KRowKind PaneCtx_kernelRow(const PaneCtx *ctx, int row, int *index) {
   int np = ctx->info->nparams;
   if (row <= 0) {
      *index = ctx->kernel;
      return KROW_VARIANT_PICK;
   }
   if (row <= np) {
      *index = row - 1;
      return KROW_PARAM;
   }
   int li = row - 1 - np;
   *index = li < ctx->nlist ? ctx->list[li] : ctx->kernel;
   return KROW_VARIANT;
}

void PaneCtx_config(const PaneCtx *ctx, WorkerConfig *c) {
   memset(c, 0, sizeof *c);
   Util_copy(c->kernel, sizeof c->kernel, ctx->info->name);
   memcpy(c->values, ctx->values, sizeof c->values);
   c->problem = *ctx->problem;
   c->ablate = ctx->ablate;
   Util_copy(c->limits, sizeof c->limits, ctx->limits);
}

void PaneCtx_measuredEntry(const PaneCtx *ctx, HistoryEntry *e) {
   const WorkerSnapshot *s = ctx->snap;
   memset(e, 0, sizeof *e);
   Util_copy(e->backend, sizeof e->backend, s->backend);
   e->device = s->device_index;
   Util_copy(e->kernel, sizeof e->kernel, s->config.kernel);
   memcpy(e->values, s->config.values, sizeof e->values);
   const KernelInfo *k = Catalog_find(ctx->cat, e->kernel);
   e->nvalues = k ? k->nparams : 0;
   e->problem = s->config.problem;
   e->ablate = s->config.ablate;
}

int PaneCtx_historyMeasured(const PaneCtx *ctx) {
   if (!ctx->snap->have_config)
      return -1;
   HistoryEntry e;
   PaneCtx_measuredEntry(ctx, &e);
   return History_find(ctx->hist, &e);
}

/* The configuration on screen, measured: its limiter's inputs. False when there is no
 * figure for it yet (why in msg). */
static bool currentInputs(const PaneCtx *ctx, LimiterInputs *in, char *msg, size_t len) {
   const WorkerSnapshot *s = ctx->snap;
   if (!s->have_device) {
      snprintf(msg, len, "no device open");
      return false;
   }
   if (!ctx->snap_current || !s->have_result || !(s->gflops > 0)) {
      snprintf(msg, len, s->have_result && s->result.status != RUN_OK && ctx->snap_current
                            ? "the configuration did not run: nothing to place"
                            : "measuring: the point comes with the first figures");
      return false;
   }
   const KernelInfo *k = Catalog_find(ctx->cat, s->config.kernel);
   if (!k) {
      snprintf(msg, len, "kernel %s is no longer in the catalog", s->config.kernel);
      return false;
   }
   LimiterRun r = {.gflops = s->gflops, .median_ms = s->median_ms, .geo = s->result.geo,
                   .registers = s->result.registers, .local_mem = s->result.local_mem, .ablate = s->config.ablate,
                   .sm_mhz = Observation_smMhz(&s->obs)};
   /* The bank pane's trace, when it is of this configuration: its conflicts where the bank
    * model is the device's (a CPU has no banks), the loads' coalescing and the local stores
    * (LimiterTrace_of, as explain takes them). */
   const bool traced = ctx->banks->have && ctx->banks->analysis.analysis &&
                       ctx->banks->analysis.config_serial == s->config_serial;
   Limiter_inputs(&s->device, k, s->config.values, &s->config.problem, &r, &s->peaks,
                  traced ? &ctx->banks->analysis.limiter : NULL, in);
   return true;
}

bool PaneCtx_limiter(const PaneCtx *ctx, LimiterInputs *in, Limiter *l, char *msg, size_t len) {
   if (!currentInputs(ctx, in, msg, len))
      return false;
   Limiter_of(in, l);
   return true;
}
