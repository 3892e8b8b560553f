/* The roofline pane (0): what limits the configuration measured (core/analyse/limiter.h), in
 * words, then a log-log chart of GFLOPS against flops per byte of global traffic: the
 * device's measured ceilings as the roof (bandwidth's slope, the compute peak's flat top),
 * the configuration as a point at the access-count model's intensity, and the
 * configurations measured before it in this session as a trail. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analyse/limiter.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"

/* What it keeps between frames (its class's state): the configurations measured before
 * the one on screen, as points. */
#define ROOFLINE_TRAIL 16
typedef struct RooflinePane_ {
   double x[ROOFLINE_TRAIL], y[ROOFLINE_TRAIL]; /* flops per byte (the model's), GFLOPS */
   unsigned long serial[ROOFLINE_TRAIL];        /* the worker's post each answers */
   int n;
} RooflinePane;

/* Points along the roof: enough for a braille line across a wide pane. */
#define ROOF_SAMPLES 400

/* The configuration joins the trail (its latest figure, while it keeps measuring). */
static void remember(RooflinePane *rp, unsigned long serial, double x, double y) {
   for (int i = 0; i < rp->n; i++)
      if (rp->serial[i] == serial) {
         rp->x[i] = x, rp->y[i] = y;
         return;
      }
   if (rp->n == ROOFLINE_TRAIL) {
      memmove(rp->x, rp->x + 1, sizeof rp->x[0] * (ROOFLINE_TRAIL - 1));
      memmove(rp->y, rp->y + 1, sizeof rp->y[0] * (ROOFLINE_TRAIL - 1));
      memmove(rp->serial, rp->serial + 1, sizeof rp->serial[0] * (ROOFLINE_TRAIL - 1));
      rp->n--;
   }
   rp->x[rp->n] = x, rp->y[rp->n] = y, rp->serial[rp->n] = serial;
   rp->n++;
}

static void fmtNumber(double v, char *out, size_t n) {
   if (v >= 100)
      snprintf(out, n, "%.0f", v);
   else if (v >= 1)
      snprintf(out, n, "%.3g", v);
   else
      snprintf(out, n, "%.2g", v);
}

/* One roof, min(peak, intensity x bandwidth), across the chart's columns. */
static void roof(char **rows, size_t rowlen, int ch, int pw, double peak, double gbps, double xlo, double xhi,
                 double ylo, double yhi, ChartStyle style) {
   double xs[ROOF_SAMPLES], ys[ROOF_SAMPLES];
   for (int i = 0; i < ROOF_SAMPLES; i++) {
      xs[i] = xlo + (xhi - xlo) * i / (ROOF_SAMPLES - 1);
      ys[i] = fmin(log10(peak), xs[i] + log10(gbps));
   }
   Chart_scatter(rows, rowlen, ch, pw, xs, ys, ROOF_SAMPLES, xlo, xhi, ylo, yhi, style);
}

/* The row's cells that are not blank (a space), over what is drawn there. */
static void drawOver(const PaneCtx *ctx, int y, int x, int w, const char *row, Style st) {
   int col = 0;
   for (const char *c = row; *c && col < w; col++) {
      int n = (unsigned char)*c < 0x80 ? 1 : 3; /* ASCII, or a braille cell */
      if (*c != ' ') {
         char cell[4] = {0};
         memcpy(cell, c, (size_t)n);
         Paint_text(ctx->paint, y, x + col, 1, cell, st, false);
      }
      c += n;
   }
}

/* The chart in rows y..bottom-1 (the last: the intensity axis), in log10 of both. */
static void chart(const PaneCtx *ctx, const RooflinePane *rp, const LimiterInputs *in, const Limiter *l, int x, int y,
                  int w, int bottom) {
   int ch = bottom - y - 1;
   if (ch < 3)
      return;
   if (ch > 48)
      ch = 48;
   double ridge = in->peak_gflops / in->copy_gbps;
   /* Across: two decades each side of the ridge and of every point. */
   double xlo = log10(ridge) - 2, xhi = log10(ridge) + 2;
   double ylo = log10(in->peak_gflops) - 3, yhi = log10(in->peak_gflops) + 0.15;
   for (int i = 0; i < rp->n; i++) {
      xlo = fmin(xlo, log10(rp->x[i]) - 0.5), xhi = fmax(xhi, log10(rp->x[i]) + 0.5);
      ylo = fmin(ylo, log10(rp->y[i]) - 0.3);
   }
   char top[32], low[32];
   fmtNumber(in->peak_gflops, top, sizeof top);
   fmtNumber(pow(10, ylo), low, sizeof low);
   int lw = (int)strlen(top) > 6 ? (int)strlen(top) : 6, pw = w - lw - 1;
   if (pw < 8)
      return;
   size_t rowlen = (size_t)pw * 3 + 1;
   char *buf = malloc(rowlen * (size_t)ch * 2);
   char *rows[48], *l2rows[48];
   if (!buf)
      return;
   for (int r = 0; r < ch; r++)
      rows[r] = buf + rowlen * (size_t)r, l2rows[r] = buf + rowlen * (size_t)(ch + r);
   /* The L2's roof where it is above the copy bandwidth's: drawn first, in another style
    * (and '.' in ASCII), the memory roof over it. */
   bool l2 = in->l2_gbps > in->copy_gbps;
   if (l2) {
      roof(l2rows, rowlen, ch, pw, in->peak_gflops, in->l2_gbps, xlo, xhi, ylo, yhi, ctx->spark);
      if (ctx->spark != CHART_BRAILLE)
         for (int r = 0; r < ch; r++)
            for (char *c = l2rows[r]; *c; c++)
               if (*c == '*')
                  *c = '.';
   }
   roof(rows, rowlen, ch, pw, in->peak_gflops, in->copy_gbps, xlo, xhi, ylo, yhi, ctx->spark);
   const char *vbar = Paint_glyph(ctx->paint, "\xe2\x94\x82", "|");
   for (int r = 0; r < ch; r++) {
      const char *lab = r == 0 ? top : r == 1 && ch >= 4 ? "GFLOPS" : r == ch - 1 ? low : "";
      char lb[40];
      snprintf(lb, sizeof lb, "%*s", lw, lab);
      Paint_text(ctx->paint, y + r, x, lw, lb, ST_LABEL, false);
      Paint_text(ctx->paint, y + r, x + lw, 1, vbar, ST_DIM, false);
      if (!l2) {
         Paint_text(ctx->paint, y + r, x + lw + 1, pw, rows[r], ST_DIM, false);
         continue;
      }
      Paint_text(ctx->paint, y + r, x + lw + 1, pw, l2rows[r], ST_LABEL, false);
      drawOver(ctx, y + r, x + lw + 1, pw, rows[r], ST_DIM);
   }
   free(buf);
   /* The trail, then the configuration on screen over it. */
   int row, col;
   for (int i = 0; i < rp->n; i++)
      if (Chart_scatterCell(log10(rp->x[i]), log10(rp->y[i]), xlo, xhi, ylo, yhi, ch, pw, ctx->spark, &row, &col))
         Paint_text(ctx->paint, y + row, x + lw + 1 + col, 1, Paint_glyph(ctx->paint, "\xe2\x97\x8b", "o"), ST_WARN,
                    false);
   if (l->intensity > 0 &&
       Chart_scatterCell(log10(l->intensity), log10(in->gflops), xlo, xhi, ylo, yhi, ch, pw, ctx->spark, &row, &col))
      Paint_text(ctx->paint, y + row, x + lw + 1 + col, 1, Paint_glyph(ctx->paint, "\xe2\x97\x8f", "@"), ST_GOOD,
                 false);
   /* The intensity axis: a label at each decade that fits. */
   char axis[512];
   int alen = pw < (int)sizeof axis - 1 ? pw : (int)sizeof axis - 1;
   memset(axis, ' ', (size_t)alen);
   axis[alen] = '\0';
   for (int d = (int)ceil(xlo); d <= (int)floor(xhi); d++) {
      int c = Chart_scatterColumn(d, xlo, xhi, pw, ctx->spark);
      char lab[16];
      fmtNumber(pow(10, d), lab, sizeof lab);
      int n = (int)strlen(lab);
      if (c < 0 || c + n > alen || (c > 0 && axis[c - 1] != ' '))
         continue;
      memcpy(axis + c, lab, (size_t)n);
   }
   char lb[40];
   snprintf(lb, sizeof lb, "%*s", lw, "F/B");
   Paint_text(ctx->paint, y + ch, x, lw, lb, ST_LABEL, false);
   Paint_text(ctx->paint, y + ch, x + lw, 1, Paint_glyph(ctx->paint, "\xe2\x94\x94", "+"), ST_DIM, false);
   Paint_text(ctx->paint, y + ch, x + lw + 1, pw, axis, ST_LABEL, false);
}

static void drawRoofline(const PaneCtx *ctx, void *state) {
   RooflinePane *rp = state;
   Rect r = ctx->area;
   int x = r.x + 1, w = r.w - 2, y = r.y + 1, bottom = r.y + r.h;
   LimiterInputs in;
   Limiter l;
   char msg[256];
   bool have = PaneCtx_limiter(ctx, &in, &l, msg, sizeof msg);
   char extra[128] = "";
   if (have && l.intensity > 0)
      snprintf(extra, sizeof extra, "%.3g GFLOPS at %.3g flops/byte", in.gflops, l.intensity);
   Draw_paneTitle(ctx, extra,
                  have && in.l2_gbps > in.copy_gbps
                      ? Paint_glyph(ctx->paint, "@ this  o before  roofs: memory, L2 (upper)  F6 ceilings",
                                    "@ this  o before  * memory  . L2  F6 ceilings")
                      : "@ this  o before  F6 ceilings");
   if (!have) {
      Paint_wrapped(ctx->paint, y, x, w, bottom, msg, ST_DIM, 4);
      return;
   }
   if (l.intensity > 0)
      remember(rp, ctx->snap->config_serial, l.intensity, in.gflops);
   char text[600];
   snprintf(text, sizeof text, "limit: %s", l.words);
   y = Paint_wrapped(ctx->paint, y, x, w, bottom, text, l.kind == LIMIT_COMPUTE ? ST_GOOD : ST_WARN, 4);
   if (l.headroom[0] && bottom - y >= 6)
      y = Paint_wrapped(ctx->paint, y, x, w, bottom, l.headroom, ST_DIM, 4);
   if (in.peak_gflops <= 0 || in.copy_gbps <= 0) {
      Paint_wrapped(ctx->paint, y, x, w, bottom,
                   "no roof yet: the device's ceilings are not measured (F6 measures the compute peaks and the copy "
                   "bandwidth: a few seconds on a GPU, about a minute on a CPU)",
                   ST_DIM, 4);
      return;
   }
   if (l.intensity <= 0 && y < bottom)
      Paint_text(ctx->paint, y++, x, w, "this kernel states no reuse: model: its point has no intensity", ST_DIM,
                 false);
   chart(ctx, rp, &in, &l, x, y, w, bottom);
}

const PaneClass Roofline_pane = {.state_size = sizeof(RooflinePane), .draw = drawRoofline};
