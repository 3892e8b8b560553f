#include "tui/chart.h"

#include <math.h>
#include <string.h>

static size_t append(char *out, size_t outlen, size_t o, const char *s) {
   size_t n = strlen(s);
   if (o + n < outlen) {
      memcpy(out + o, s, n);
      o += n;
   }
   out[o < outlen ? o : outlen - 1] = '\0';
   return o;
}

void Chart_bar(char *out, size_t outlen, double frac, int width, ChartStyle style) {
   static const char *eighths[8] = {"", "\xe2\x96\x8f", "\xe2\x96\x8e", "\xe2\x96\x8d",
                                    "\xe2\x96\x8c", "\xe2\x96\x8b", "\xe2\x96\x8a", "\xe2\x96\x89"};
   if (!outlen)
      return;
   out[0] = '\0';
   if (width < 1)
      return;
   if (!(frac > 0)) /* NaN too */
      frac = 0;
   if (frac > 1)
      frac = 1;
   size_t o = 0;
   int cells = 0;
   if (style == CHART_ASCII) {
      int full = (int)lround(frac * width);
      for (; cells < full; cells++)
         o = append(out, outlen, o, "#");
   } else {
      int units = (int)lround(frac * width * 8);
      for (; cells < units / 8; cells++)
         o = append(out, outlen, o, "\xe2\x96\x88");
      if (units % 8 && cells < width) {
         o = append(out, outlen, o, eighths[units % 8]);
         cells++;
      }
   }
   for (; cells < width; cells++)
      o = append(out, outlen, o, " ");
}

/* Level of v in 0..levels, scaled between lo and hi; a positive value shows at least 1. */
static int level(double v, double lo, double hi, int levels) {
   if (!isfinite(v))
      return 0;
   double f = hi > lo ? (v - lo) / (hi - lo) : 0;
   if (f < 0)
      f = 0;
   if (f > 1)
      f = 1;
   int l = (int)lround(f * levels);
   return l < 1 ? 1 : l;
}

int Chart_spark(char **rows, size_t rowlen, int height, int width, const double *values, int n, double lo, double hi,
                ChartStyle style) {
   if (height < 1 || width < 1 || !rowlen)
      return 0;
   for (int r = 0; r < height; r++)
      rows[r][0] = '\0';
   if (lo == hi) {
      lo = 0;
      hi = 0;
      for (int i = 0; i < n; i++)
         if (isfinite(values[i]) && values[i] > hi)
            hi = values[i];
   }
   int per = style == CHART_BRAILLE ? 2 : 1;
   int take = n < width * per ? n : width * per;
   const double *v = values + (n - take);
   int cellsUsed = (take + per - 1) / per;
   int blank = width - cellsUsed; /* right-aligned: the newest value is at the right edge */
   size_t o[64] = {0};
   if (height > 64)
      height = 64;
   for (int r = 0; r < height; r++)
      for (int c = 0; c < blank; c++)
         o[r] = append(rows[r], rowlen, o[r], " ");
   if (style == CHART_BRAILLE) {
      static const unsigned left[4] = {0x40, 0x04, 0x02, 0x01}, right[4] = {0x80, 0x20, 0x10, 0x08};
      /* With an odd count the first cell has only its right column. */
      int start = -(cellsUsed * 2 - take);
      for (int c = 0; c < cellsUsed; c++) {
         int i0 = start + 2 * c, i1 = i0 + 1;
         int l0 = i0 >= 0 ? level(v[i0], lo, hi, 4 * height) : 0;
         int l1 = i1 >= 0 && i1 < take ? level(v[i1], lo, hi, 4 * height) : 0;
         for (int r = 0; r < height; r++) {
            int base = (height - 1 - r) * 4;
            unsigned bits = 0;
            for (int d = 0; d < 4; d++) {
               if (l0 > base + d)
                  bits |= left[d];
               if (l1 > base + d)
                  bits |= right[d];
            }
            unsigned cp = 0x2800 + bits;
            char u[4] = {(char)(0xE0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3F)), (char)(0x80 | (cp & 0x3F)), 0};
            o[r] = append(rows[r], rowlen, o[r], u);
         }
      }
      return take;
   }
   static const char *blocks[9] = {" ", "\xe2\x96\x81", "\xe2\x96\x82", "\xe2\x96\x83", "\xe2\x96\x84",
                                   "\xe2\x96\x85", "\xe2\x96\x86", "\xe2\x96\x87", "\xe2\x96\x88"};
   static const char *ascii[5] = {" ", "_", "-", "=", "#"};
   int per_row = style == CHART_BLOCKS ? 8 : 4;
   for (int i = 0; i < take; i++) {
      int l = level(v[i], lo, hi, per_row * height);
      for (int r = 0; r < height; r++) {
         int base = (height - 1 - r) * per_row;
         int part = l - base;
         if (part < 0)
            part = 0;
         if (part > per_row)
            part = per_row;
         o[r] = append(rows[r], rowlen, o[r], style == CHART_BLOCKS ? blocks[part] : ascii[part]);
      }
   }
   return take;
}

#define SCATTER_MAX_W 512
#define SCATTER_MAX_H 64

/* Dot index along an axis of dots dots for v in lo..hi, or -1 outside. */
static int dotAt(double v, double lo, double hi, int dots, bool centre) {
   if (!isfinite(v) || v < lo || v > hi || dots < 1)
      return -1;
   if (!(hi > lo))
      return centre ? (dots - 1) / 2 : 0;
   int d = (int)lround((v - lo) / (hi - lo) * (dots - 1));
   return d < 0 ? 0 : d >= dots ? dots - 1 : d;
}

int Chart_scatterColumn(double x, double xlo, double xhi, int width, ChartStyle style) {
   int per = style == CHART_BRAILLE ? 2 : 1;
   int d = dotAt(x, xlo, xhi, width * per, true);
   return d < 0 ? -1 : d / per;
}

bool Chart_scatterCell(double x, double y, double xlo, double xhi, double ylo, double yhi, int height, int width,
                       ChartStyle style, int *row, int *col) {
   if (height < 1 || width < 1)
      return false;
   if (height > SCATTER_MAX_H)
      height = SCATTER_MAX_H;
   if (width > SCATTER_MAX_W)
      width = SCATTER_MAX_W;
   int perX = style == CHART_BRAILLE ? 2 : 1, perY = style == CHART_BRAILLE ? 4 : 1;
   int dx = dotAt(x, xlo, xhi, width * perX, true), dy = dotAt(y, ylo, yhi, height * perY, false);
   if (dx < 0 || dy < 0)
      return false;
   *col = dx / perX;
   *row = height - 1 - dy / perY;
   return true;
}

int Chart_scatter(char **rows, size_t rowlen, int height, int width, const double *xs, const double *ys, int n,
                  double xlo, double xhi, double ylo, double yhi, ChartStyle style) {
   if (height < 1 || width < 1 || !rowlen)
      return 0;
   if (height > SCATTER_MAX_H)
      height = SCATTER_MAX_H;
   if (width > SCATTER_MAX_W)
      width = SCATTER_MAX_W;
   static const unsigned char dotBit[2][4] = {{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}};
   bool braille = style == CHART_BRAILLE;
   int perX = braille ? 2 : 1, perY = braille ? 4 : 1;
   unsigned char cell[SCATTER_MAX_H][SCATTER_MAX_W];
   memset(cell, 0, sizeof cell);
   int drawn = 0;
   for (int i = 0; i < n; i++) {
      int dx = dotAt(xs[i], xlo, xhi, width * perX, true), dy = dotAt(ys[i], ylo, yhi, height * perY, false);
      if (dx < 0 || dy < 0)
         continue;
      int col = dx / perX, row = height - 1 - dy / perY;
      cell[row][col] |= braille ? dotBit[dx % 2][3 - dy % 4] : 1;
      drawn++;
   }
   for (int r = 0; r < height; r++) {
      size_t o = 0;
      rows[r][0] = '\0';
      for (int c = 0; c < width; c++) {
         if (!braille) {
            o = append(rows[r], rowlen, o, cell[r][c] ? "*" : " ");
            continue;
         }
         unsigned cp = 0x2800 + cell[r][c];
         /* An empty braille cell is a space, so the background stays blank in any font. */
         char u[4] = {(char)(0xE0 | (cp >> 12)), (char)(0x80 | ((cp >> 6) & 0x3F)), (char)(0x80 | (cp & 0x3F)), 0};
         o = append(rows[r], rowlen, o, cell[r][c] ? u : " ");
      }
   }
   return drawn;
}
