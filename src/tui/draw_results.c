/* The results pane: the configuration, the worker's state, the rolling window's figures
 * (time, GFLOPS, GB/s), the references (the measured peak, the vendor BLAS), the verdict,
 * and what the build says (compile, registers, memory, launch geometry, helpers). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/analyse/waves.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/text.h"

#define RESULT_LINES 24

typedef struct RLine_ {
   const char *label;
   char text[1600];
   Style st;
} RLine;

typedef struct Lines_ {
   RLine l[RESULT_LINES];
   int n;
} Lines;

static void add(Lines *L, const char *label, Style st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void add(Lines *L, const char *label, Style st, const char *fmt, ...) {
   if (L->n >= RESULT_LINES)
      return;
   RLine *l = &L->l[L->n++];
   l->label = label;
   l->st = st;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(l->text, sizeof l->text, fmt, ap);
   va_end(ap);
}

/* Appends to the last line. */
static void append(Lines *L, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void append(Lines *L, const char *fmt, ...) {
   RLine *l = &L->l[L->n - 1];
   size_t used = strlen(l->text);
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(l->text + used, sizeof l->text - used, fmt, ap);
   va_end(ap);
}

/* Whether the configuration on screen has failed (not refused by a cancel). */
static bool failed(const PaneCtx *ctx) {
   const WorkerSnapshot *s = ctx->snap;
   return ctx->snap_current && s->have_result && s->nwindow == 0 && s->result.status != RUN_OK &&
          s->result.status != RUN_CANCELLED;
}

static void statusLines(const PaneCtx *ctx, Lines *L) {
   const WorkerSnapshot *s = ctx->snap;
   if (!s->have_device) {
      add(L, "status", s->state == WS_NO_DEVICE ? ST_BAD : ST_NORMAL, "%s",
          s->activity[0] ? s->activity : "opening the device");
   } else if (!ctx->snap_current) {
      add(L, "status", ST_NORMAL, "%s", ctx->paused ? "paused: space measures it" : "starting...");
   } else if (failed(ctx)) {
      bool refused = s->result.status == RUN_INVALID;
      /* A refusal under simulated limits says so in its message (measure.c). */
      add(L, "status", refused ? ST_WARN : ST_BAD, "%s%s", refused ? "not run: " : RunStatus_name(s->result.status),
          s->result.status == RUN_COMPILE_ERROR ? " (the compiler's messages are in the log)"
          : refused                              ? s->result.message
                                                 : "");
      if (!refused)
         add(L, "", ST_BAD, "%s", s->result.message);
   } else if (s->nwindow) {
      add(L, "status", Draw_stateStyle(ctx), "%s: %ld launches, window %d", WorkerState_name(s->state), s->launches,
          s->nwindow);
   } else {
      add(L, "status", Draw_stateStyle(ctx), "%s", s->activity);
   }
}

static void timingLines(const PaneCtx *ctx, Lines *L) {
   const WorkerSnapshot *s = ctx->snap;
   if (ctx->snap_current && s->nwindow) {
      /* min and max in the median's unit, which is said once. */
      double scale = s->median_ms >= 1000 ? 1e-3 : s->median_ms >= 1 ? 1 : 1e3;
      const char *micro = Paint_glyph(ctx->paint, "\xc2\xb5s", "us");
      const char *unit = s->median_ms >= 1000 ? "s" : s->median_ms >= 1 ? "ms" : micro;
      add(L, "time", ST_NORMAL, "%.4g %s median  min %.4g  spread %.1f%%  max %.4g", s->median_ms * scale, unit,
          s->min_ms * scale, s->spread_pct, s->max_ms * scale);
      char gf[32], gb[32], gc[32];
      Draw_fmtRate(s->gflops, "GFLOPS", gf, sizeof gf);
      Draw_fmtRate(s->gbps, "GB/s", gb, sizeof gb);
      Draw_fmtRate(s->median_ms > 0 ? Ablate_coreBytes(&s->config.problem) / (s->median_ms * 1e6) : 0, "GB/s", gc,
                   sizeof gc);
      add(L, "speed", ctx->ablate || s->result.geo.emulated ? ST_WARN : ST_GOOD, "%s   %s global   %s to the cores%s",
          gf, gb, gc, s->result.geo.emulated ? "   [emulated]" : "");
   } else if (!failed(ctx)) {
      add(L, "time", ST_DIM, "%s", Draw_dash(ctx->paint));
      add(L, "speed", ST_DIM, "%s", Draw_dash(ctx->paint));
   }
}

/* The measured peak and the vendor BLAS: percentages only from measured references,
 * never guessed, and never of an ablated run or of an emulated tensor kernel (no tensor
 * cores here). */
static void referenceLines(const PaneCtx *ctx, Lines *L) {
   const WorkerSnapshot *s = ctx->snap;
   bool current = ctx->snap_current;
   const char *dash = Draw_dash(ctx->paint);
   const KernelInfo *shown = Catalog_find(ctx->cat, s->config.kernel);
   /* Emulated: of a run that ran (a refused configuration has no figure to compare). */
   const bool refused = ctx->snap_refused;
   const bool emulated = current && s->result.geo.emulated && !refused;
   double peak = Peaks_for(&s->peaks, ctx->problem->precision, shown, false);
   char pk[32];
   Draw_fmtRate(peak, "GFLOPS", pk, sizeof pk);
   if (ctx->start->server)
      add(L, "peak", ST_NORMAL, "%s  (the server's device: not measured here)", dash);
   else if (current && ctx->ablate)
      add(L, "peak", ST_NORMAL, "%s  (ablated: not compared)", dash);
   else if (emulated)
      add(L, "peak", ST_NORMAL, "%s  (emulated tensor instructions: not compared)", dash);
   else if (current && s->nwindow && s->peaks.known && peak > 0)
      add(L, "peak", Peaks_contradict(&s->peaks, NULL, 0) ? ST_WARN : ST_NORMAL, "%.1f%% of the measured %s peak (%s)%s",
          100 * s->gflops / peak, Peaks_label(ctx->problem->precision, shown, false), pk,
          Peaks_contradict(&s->peaks, NULL, 0) ? "; the peaks contradict each other (the log says how): F6 again on "
                                                 "a quiet machine" : "");
   else if (!s->peaks.known)
      add(L, "peak", ST_NORMAL, "%s  (not measured yet: F6 or m)", dash);
   else
      add(L, "peak", ST_NORMAL, "%s", dash);
   /* A kernel memory-bound by design is put against the copy bandwidth too (Peaks_copyShare). */
   if (shown && shown->memory_bound && current && s->nwindow && !ctx->ablate && !emulated && !ctx->start->server) {
      double read_share, copy_share = Peaks_copyShare(&s->peaks, &s->config.problem, s->median_ms, &read_share);
      const char *cached = copy_share > 1 ? " (above 100%: read from a cache)" : "";
      if (copy_share > 0 && read_share > 0)
         add(L, "memory", ST_NORMAL, "%.1f%% of the measured copy bandwidth, %.1f%% of the read bandwidth%s",
             100 * copy_share, 100 * read_share, cached);
      else if (copy_share > 0)
         add(L, "memory", ST_NORMAL, "%.1f%% of the measured copy bandwidth%s", 100 * copy_share, cached);
   }
   bool vendorHere =
       s->vendor_done && Problem_same(&s->vendor_problem, ctx->problem) && s->vendor_cold_l2 == ctx->cold_l2;
   char vg[32];
   Draw_fmtRate(s->vendor.gflops, "GFLOPS", vg, sizeof vg);
   if (current && ctx->ablate)
      add(L, "BLAS", ST_NORMAL, "%s  (ablated: not compared)", dash);
   else if (emulated)
      add(L, "BLAS", ST_NORMAL, "%s  (emulated tensor instructions: not compared)", dash);
   else if (vendorHere && s->vendor.status == RUN_OK && current && s->nwindow && s->vendor.gflops > 0)
      add(L, "BLAS", ST_NORMAL, "%.1f%% of %s (%s)", 100 * s->gflops / s->vendor.gflops, s->vendor.name, vg);
   else if (vendorHere && s->vendor.status == RUN_OK)
      add(L, "BLAS", ST_NORMAL, "%s  (%s: %s)", dash, s->vendor.name, vg);
   else if (vendorHere)
      add(L, "BLAS", ST_NORMAL, "%s  (%s)", dash, s->vendor.message);
   else if (s->state == WS_VENDOR)
      add(L, "BLAS", ST_NORMAL, "%s  (timing the vendor library...)", dash);
   else
      add(L, "BLAS", ST_NORMAL, "%s", dash);
}

static void verifyLine(const PaneCtx *ctx, Lines *L) {
   const WorkerSnapshot *s = ctx->snap;
   bool current = ctx->snap_current;
   if (current && ctx->ablate && s->have_result && !failed(ctx))
      add(L, "verify", ST_WARN, "ablated (not verified)");
   else if (current && s->result.verified_run)
      add(L, "verify", s->result.verify.ok ? ST_GOOD : ST_BAD, "%s %s",
          s->result.verify.ok ? Paint_glyph(ctx->paint, "\xe2\x9c\x93", "ok")
                              : Paint_glyph(ctx->paint, "\xe2\x9c\x97", "FAILED"),
          s->result.verify.message);
   else
      add(L, "verify", ST_DIM, "%s", failed(ctx) ? Draw_dash(ctx->paint) : "pending");
   if (current && s->result.verified_run && s->result.verify.ok && s->error.samples && !ctx->ablate)
      add(L, "error", ST_NORMAL, "%.1e median, %.1e max of |A||B| vs unrounded inputs", s->error.median,
          s->error.max);
}

/* The compile (or the cache), compiling ahead, the build's resources. */
static void compileLines(const PaneCtx *ctx, Lines *L) {
   const WorkerSnapshot *s = ctx->snap;
   bool current = ctx->snap_current;
   if (current && (s->result.compile_ms > 0 || s->result.cached)) {
      if (s->result.cached_memory)
         add(L, "compile", ST_NORMAL, "cached (compiled earlier in this session)");
      else if (s->result.cached)
         add(L, "compile", ST_NORMAL, "cached (disk%s, loaded in %.0f ms)",
             PaneCtx_compiledAhead(ctx) ? ", compiled ahead" : "", s->result.compile_ms);
      else
         add(L, "compile", ST_NORMAL, "%.0f ms", s->result.compile_ms);
   } else if (current && s->state == WS_COMPILING) {
      add(L, "compile", ST_NORMAL, "%s compiling...", Draw_spinner(ctx->paint, ctx->frame));
   }
   add(L, "ahead", ST_DIM, "%s", "");
   PaneCtx_aheadLine(ctx, L->l[L->n - 1].text, sizeof L->l[0].text);
   if (current && (s->result.registers >= 0 || s->result.private_mem >= 0 || s->result.local_mem >= 0)) {
      char pm[32], lm[32], rg[32];
      Draw_fmtBytes(s->result.private_mem, pm, sizeof pm);
      Draw_fmtBytes(s->result.local_mem, lm, sizeof lm);
      if (s->result.registers >= 0)
         snprintf(rg, sizeof rg, "%d", s->result.registers);
      else
         snprintf(rg, sizeof rg, "%s", Draw_dash(ctx->paint));
      add(L, "build", ST_NORMAL, "registers %s  local %s  private %s", rg, lm, pm);
   }
}

/* The launch geometry and the helper kernels' times. */
static void launchLines(const PaneCtx *ctx, Lines *L) {
   const WorkerSnapshot *s = ctx->snap;
   if (!ctx->snap_current)
      return;
   const Geometry *g = &s->result.geo;
   if (g->dims > 0) {
      add(L, "launch", ST_NORMAL, "global %zu", g->global[0]);
      for (int d = 1; d < g->dims; d++)
         append(L, "x%zu", g->global[d]);
      append(L, "  local %zu", g->local[0]);
      for (int d = 1; d < g->dims; d++)
         append(L, "x%zu", g->local[d]);
   }
   if (g->dims > 0 && g->pad)
      append(L, "  padded to %dx%dx%d", g->m, g->n, g->k);
   const Waves w =
       Waves_of(&s->device, g, s->result.registers, s->result.local_mem >= 0 ? s->result.local_mem : g->localmem);
   if (w.known) {
      char waves[288];
      double busy = Waves_describeFor(&w, Catalog_find(ctx->cat, s->config.kernel), waves, sizeof waves);
      add(L, "waves", busy < 0.75 ? ST_WARN : ST_NORMAL, "%s", waves);
   }
   if (s->result.fixup_ms > 0) {
      char t[32];
      Draw_fmtTime(ctx->paint, s->result.fixup_ms, t, sizeof t);
      add(L, "fix-up", ST_NORMAL, "%s of the time: the second launch that finishes C", t);
   }
   if (s->result.nhelpers > 0) {
      add(L, "helpers", ST_NORMAL, "%s", "");
      for (int i = 0; i < s->result.nhelpers; i++) {
         char t[32];
         Draw_fmtTime(ctx->paint, s->result.helpers[i].median_ms, t, sizeof t);
         append(L, "%s%s %s", i ? ", " : "", s->result.helpers[i].what, t);
      }
   }
}

/* Labels on the left; failure messages wrap, the rest is one line each. */
static void render(const PaneCtx *ctx, Rect r, const Lines *L) {
   int lw = 9, y = r.y + 1;
   for (int i = 0; i < L->n && y < r.y + r.h; i++) {
      const RLine *l = &L->l[i];
      Paint_fill(ctx->paint, y, r.x, r.w, ST_NORMAL);
      Paint_text(ctx->paint, y, r.x + 1, lw - 1, l->label, ST_LABEL, false);
      if (l->st == ST_BAD || l->st == ST_WARN) {
         char buf[4096];
         const char *wl[8];
         int room = r.y + r.h - y;
         int nw = Text_wrap(l->text, r.w - lw - 1, buf, sizeof buf, wl, room < 4 ? room : 4);
         for (int j = 0; j < nw; j++, y++)
            Paint_text(ctx->paint, y, r.x + lw, r.w - lw - 1, wl[j], l->st, false);
      } else {
         Paint_text(ctx->paint, y, r.x + lw, r.w - lw - 1, l->text, l->st, false);
         y++;
      }
   }
}

static void drawResults(const PaneCtx *ctx, void *stateless) {
   Rect r = ctx->area;
   char state[256];
   Draw_stateText(ctx, state, sizeof state);
   Draw_paneTitle(ctx, NULL, state);
   if (r.h - 1 <= 0)
      return;
   static Lines L;
   L.n = 0;
   const KernelInfo *k = ctx->info;
   char params[512];
   KernelInfo_formatParams(k, ctx->values, params, sizeof params);
   if (ctx->ablate) {
      char names[64];
      Ablate_name(ctx->ablate, names, sizeof names);
      add(&L, "ABLATED", ST_WARN, "%s: work switched off, not verified, not a GEMM (a: next)", names);
   }
   add(&L, "config", ST_NORMAL, "%s %s", KernelInfo_shortName(k), params);
   statusLines(ctx, &L);
   timingLines(ctx, &L);
   referenceLines(ctx, &L);
   verifyLine(ctx, &L);
   if (ctx->snap->submit_serial) /* the class server's last answer to J */
      add(&L, "class", ctx->snap->submit_verified ? ST_GOOD : ST_BAD, "%s", ctx->snap->submit_answer);
   compileLines(ctx, &L);
   launchLines(ctx, &L);
   render(ctx, r, &L);
}

const PaneClass Results_pane = {.draw = drawResults};
