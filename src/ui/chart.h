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

#endif
