/* Text charts: horizontal bars and sparklines as UTF-8 strings (block elements or
 * braille) or plain ASCII. Pure: the caller draws the strings. */
#ifndef GEMMTOP_UI_CHART_H
#define GEMMTOP_UI_CHART_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
   CHART_ASCII = 0,  /* '#' bars; " _-=#" levels */
   CHART_BLOCKS,     /* eighth blocks: ▏▎▍▌▋▊▉█ and ▁▂▃▄▅▆▇█ */
   CHART_BRAILLE,    /* sparklines with two samples per cell and four levels per row */
} ChartStyle;

/* A bar of frac (clamped to 0..1) of width cells, padded with spaces to width cells. */
void Chart_bar(char *out, size_t outlen, double frac, int width, ChartStyle style);

/* A sparkline of the last values that fit in width cells (one per cell, two in braille),
 * scaled from lo to hi (lo == hi: from 0 to the maximum), height rows tall; row 0 is the
 * top. Each rows[i] gets exactly width cells. Returns the number of values drawn. */
int Chart_spark(char **rows, size_t rowlen, int height, int width, const double *values, int n, double lo, double hi,
                ChartStyle style);

/* A scatter plot: point i at (xs[i], ys[i]), scaled from xlo to xhi across and from ylo to
 * yhi up, in height rows (row 0 is the top) of width cells. Braille gives each cell 2x4
 * dots; the other styles put a '*' in the cell of each point. Points that are not finite
 * or lie outside the ranges are left out (a range of one value puts its points in the
 * middle across, at the bottom up). Each rows[i] gets exactly width cells. Returns the
 * number of points drawn. */
int Chart_scatter(char **rows, size_t rowlen, int height, int width, const double *xs, const double *ys, int n,
                  double xlo, double xhi, double ylo, double yhi, ChartStyle style);

/* The cell (row from the top, column) where the point (x, y) lands in such a plot; false
 * when it is left out. For marking one point, e.g. the best. */
bool Chart_scatterCell(double x, double y, double xlo, double xhi, double ylo, double yhi, int height, int width,
                       ChartStyle style, int *row, int *col);

/* The cell column where x lands in such a plot, or -1 outside it (for axis labels). */
int Chart_scatterColumn(double x, double xlo, double xhi, int width, ChartStyle style);

#endif
