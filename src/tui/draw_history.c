/* The history pane: each configuration measured with a bar of its GFLOPS (the best
 * starred, the one measured now marked), and a sparkline of the recent launches of the
 * configuration measured now. */
#include <stdio.h>
#include <string.h>

#include "core/run/ablate.h"
#include "base/util.h"
#include "tui/draw_history.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/text.h"

/* "ABLATED no-a: variant P=V ... @MxNxK dbl TN" (the problem when it is not this one). */
static void historyLabel(const PaneCtx *ctx, const HistoryEntry *e, char *out, size_t n) {
   const KernelInfo *k = Catalog_find(ctx->cat, e->kernel);
   char abl[64] = "";
   if (e->ablate) {
      char names[48];
      Ablate_name(e->ablate, names, sizeof names);
      snprintf(abl, sizeof abl, "ABLATED %s: ", names);
   }
   snprintf(out, n, "%s%s%s %s", e->stored ? "stored " : "", abl, k ? KernelInfo_shortName(k) : e->kernel, e->params);
   if (!Problem_same(&e->problem, ctx->problem)) {
      char lay[3];
      Problem_layoutName(&e->problem, lay);
      snprintf(out + strlen(out), n - strlen(out), " @%dx%dx%d%s%s", e->problem.m, e->problem.n, e->problem.k,
               Types_of(e->problem.precision)->tag, strcmp(lay, "NN") ? lay : "");
   }
}

/* Keeps the selected entry in view; follows the newest when nothing is selected. */
static void scrollToSelection(const PaneCtx *ctx, HistoryPane *hp, int sel, int measured, int rows) {
   const History *H = ctx->hist;
   if (sel >= 0 && sel < hp->scroll)
      hp->scroll = sel;
   if (sel >= hp->scroll + rows)
      hp->scroll = sel - rows + 1;
   if (hp->cursor < 0 && measured < 0)
      hp->scroll = H->count - rows;
   if (hp->scroll > H->count - rows)
      hp->scroll = H->count - rows;
   if (hp->scroll < 0)
      hp->scroll = 0;
}

/* Entry i at row y: marker, label (lw wide), bar (bw), value (vw). */
static void drawEntry(const PaneCtx *ctx, Rect r, int i, int y, int sel, int measured, int lw, int bw, int vw) {
   const History *H = ctx->hist;
   const HistoryEntry *e = &H->items[i];
   int best = History_best(H);
   bool isSel = i == sel && ctx->focus == PANE_HISTORY;
   Style base = isSel ? ST_CURSOR : ST_NORMAL;
   Paint_fill(ctx->paint, y, r.x, r.w, base);
   char lab[256], val[32], bar[512];
   historyLabel(ctx, e, lab, sizeof lab);
   const char *m = i == measured ? Paint_glyph(ctx->paint, "\xe2\x96\xb6", ">") : i == best ? "*" : " ";
   Paint_text(ctx->paint, y, r.x, 1, m, i == best ? ST_GOOD : base, false);
   Style label = i == measured && !isSel ? ST_LABEL : e->stored && !isSel ? ST_DIM : base;
   Paint_text(ctx->paint, y, r.x + 1, lw, lab, label, true);
   PaneCtx_hit(ctx, (Rect){r.x, y, r.w, 1}, HIT_HISTORY, i, 0);
   if (e->state == HIST_FAILED || e->gflops <= 0) {
      Paint_text(ctx->paint, y, r.x + 2 + lw, bw + vw, e->why, ST_BAD, false);
      return;
   }
   if (bw > 0) {
      double max = History_maxGflops(H);
      Chart_bar(bar, sizeof bar, max > 0 ? e->gflops / max : 0, bw, ctx->bars);
      Paint_text(ctx->paint, y, r.x + 2 + lw, bw, bar, i == best ? ST_BAR_BEST : ST_BAR, false);
   }
   char num[24];
   Draw_fmtRate(e->gflops, "", num, sizeof num);
   /* A wrong result keeps its speed, marked: it is not a candidate. */
   snprintf(val, sizeof val, "%s%s",
            e->state == HIST_NOT_VERIFIED ? Paint_glyph(ctx->paint, "\xe2\x9c\x97 ", "x ") : "", num);
   Paint_text(ctx->paint, y, r.x + r.w - vw, vw, val, e->state == HIST_NOT_VERIFIED ? ST_BAD : base, false);
}

static void drawEntries(const PaneCtx *ctx, HistoryPane *hp, Rect r, int rows) {
   const History *H = ctx->hist;
   if (H->count == 0) {
      Paint_text(ctx->paint, r.y + 1, r.x + 1, r.w - 1, "each configuration measured appears here", ST_DIM, false);
      return;
   }
   int measured = PaneCtx_historyMeasured(ctx);
   int sel = hp->cursor >= 0 ? hp->cursor : measured;
   scrollToSelection(ctx, hp, sel, measured, rows);
   /* Labels as wide as the longest, leaving a bar of at least 8 cells. */
   int lw = 8;
   for (int i = 0; i < H->count; i++) {
      char lab[256];
      historyLabel(ctx, &H->items[i], lab, sizeof lab);
      if (Text_width(lab) > lw)
         lw = Text_width(lab);
   }
   if (lw > r.w - 2 - 1 - 11 - 8)
      lw = r.w - 2 - 1 - 11 - 8;
   int vw = 11, bw = r.w - 2 - lw - 1 - vw;
   for (int i = hp->scroll, y = r.y + 1; i < H->count && y < r.y + 1 + rows; i++, y++)
      drawEntry(ctx, r, i, y, sel, measured, lw, bw, vw);
}

/* GFLOPS of each recent launch of the configuration measured now, nrows high from sy. */
static void drawSparkline(const PaneCtx *ctx, Rect r, int sy, int nrows) {
   const WorkerSnapshot *s = ctx->snap;
   bool have = ctx->snap_current && s->nwindow > 0;
   double gf[WORKER_WINDOW], lo = 0, hi = 0;
   int n = 0;
   for (int i = 0; have && i < s->nwindow; i++)
      if (s->window[i] > 0) {
         gf[n] = Problem_flops(&s->config.problem) / (s->window[i] * 1e6);
         lo = n == 0 || gf[n] < lo ? gf[n] : lo;
         hi = n == 0 || gf[n] > hi ? gf[n] : hi;
         n++;
      }
   char range[64], a[24], b[24];
   Draw_fmtRate(lo, "", a, sizeof a);
   Draw_fmtRate(hi, "", b, sizeof b);
   if (n)
      snprintf(range, sizeof range, " %s%s%s", Util_trim(a), Paint_glyph(ctx->paint, "\xe2\x80\x93", "-"),
               Util_trim(b));
   else
      snprintf(range, sizeof range, " %s", Draw_dash(ctx->paint));
   int lab = 7, rw = (int)Text_width(range) + 1, sw = r.w - lab - rw;
   char rowsBuf[2][1024];
   char *rowp[2] = {rowsBuf[0], rowsBuf[1]};
   if (sw > 0 && n)
      Chart_spark(rowp, sizeof rowsBuf[0], nrows, sw, gf, n, lo * 0.9, hi, ctx->spark);
   for (int i = 0; i < nrows; i++) {
      int y = sy + i;
      Paint_fill(ctx->paint, y, r.x, r.w, ST_NORMAL);
      if (i == nrows - 1)
         Paint_text(ctx->paint, y, r.x + 1, lab - 1, "recent", ST_LABEL, false);
      if (sw > 0 && n)
         Paint_text(ctx->paint, y, r.x + lab, sw, rowsBuf[i], ST_GOOD, false);
      if (i == nrows - 1)
         Paint_text(ctx->paint, y, r.x + r.w - rw, rw, range, ST_DIM, false);
   }
}

static void drawHistory(const PaneCtx *ctx, void *state) {
   HistoryPane *hp = state;
   Rect r = ctx->area;
   Draw_paneTitle(ctx, "GFLOPS per configuration", NULL);
   int h = r.h - 1;
   if (h <= 0)
      return;
   int sparkRows = h >= 8 ? 2 : 1;
   int rows = h - sparkRows;
   if (rows > 0)
      drawEntries(ctx, hp, r, rows);
   drawSparkline(ctx, r, r.y + 1 + (rows > 0 ? rows : 0), sparkRows);
}

/* ---- its keys ---- */

/* The history's cursor; every key is its own (stepping does nothing here). */
static bool historyKey(const PaneCtx *ctx, void *state, int ch) {
   HistoryPane *hp = state;
   int n = ctx->hist->count;
   if (n == 0)
      return true;
   int cur = hp->cursor;
   if (cur < 0) {
      cur = PaneCtx_historyMeasured(ctx);
      if (cur < 0)
         cur = n - 1;
   }
   switch (ch) {
   case KEY_UP: case 'k': cur--; break;
   case KEY_DOWN: case 'j': cur++; break;
   case KEY_PPAGE: cur -= PaneCtx_height(ctx); break;
   case KEY_NPAGE: cur += PaneCtx_height(ctx); break;
   case KEY_HOME: cur = 0; break;
   case KEY_END: cur = n - 1; break;
   case '\n': case '\r': case KEY_ENTER:
      PaneCtx_restoreHistory(ctx, cur);
      return true;
   default: return true;
   }
   hp->cursor = cur < 0 ? 0 : cur >= n ? n - 1 : cur;
   return true;
}

/* It starts following the configuration on screen. */
static bool initHistory(const PaneCtx *ctx, void *state) {
   ((HistoryPane *)state)->cursor = -1;
   return true;
}

const PaneClass History_pane = {.state_size = sizeof(HistoryPane), .init = initHistory, .draw = drawHistory,
                                .key = historyKey};
