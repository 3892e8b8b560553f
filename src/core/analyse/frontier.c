#include "core/analyse/frontier.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "base/svg.h"
#include "base/textbuf.h"

/* The fastest configuration of each type first: Hopper's wgmma (sm_90a, CUDA), then the
 * mma.sync ladder tuned for the H100, then the ones that run anywhere (emulated on a CPU). */
static const FrontierPath kPaths[] = {
    {"FP32", PRECISION_FLOAT, SCALING_TENSOR, 0,
     {"fast-02-warptile-cuda", "fast-02-warptile", "fast-01-blocktile", "general-any"}},
    {"3xTF32", PRECISION_FLOAT, SCALING_TENSOR, 1, {"hopper-5-order", "hopper-4-consumers"}},
    {"tf32", PRECISION_TF32, SCALING_TENSOR, -1,
     {"hopper-5-order-tf32", "tensor-5-warptile-h100-tf32-cuda", "tensor-5-warptile-h100-tf32", "tensor-4-cpasync-tf32",
      "tensor-1-global-tf32"}},
    {"bfloat16", PRECISION_BF16, SCALING_TENSOR, -1,
     {"hopper-5-order-bf16", "tensor-5-warptile-h100-bfloat16-cuda", "tensor-5-warptile-h100-bfloat16",
      "tensor-3-ldmatrix-bfloat16"}},
    {"half", PRECISION_HALF, SCALING_TENSOR, -1,
     {"hopper-5-order-half", "tensor-5-warptile-h100-half-cuda", "tensor-5-warptile-h100-half",
      "tensor-5-warptile-half"}},
    /* FP8: step 6 was the fastest at 4096 on the H200 (2026-11-30: 93% of cuBLASLt per-tensor) */
    {"e4m3 tensor", PRECISION_E4M3, SCALING_TENSOR, -1,
     {"hopper-fp8-6-hybrid-tensor", "hopper-fp8-5-cluster-tensor", "kernel:fp8mma1_scaled"}},
    {"e4m3 block", PRECISION_E4M3, SCALING_BLOCK, -1,
     {"hopper-fp8-6-hybrid", "hopper-fp8-5-cluster", "kernel:fp8mma1_scaled"}},
    {"e5m2 tensor", PRECISION_E5M2, SCALING_TENSOR, -1,
     {"hopper-fp8-6-hybrid-tensor", "hopper-fp8-5-cluster-tensor", "kernel:fp8mma1_scaled"}},
    {"e5m2 block", PRECISION_E5M2, SCALING_BLOCK, -1,
     {"hopper-fp8-6-hybrid", "hopper-fp8-5-cluster", "kernel:fp8mma1_scaled"}},
};

const FrontierPath *Frontier_paths(int *count) {
   *count = (int)(sizeof kPaths / sizeof kPaths[0]);
   return kPaths;
}

#define FRONTIER_SAMPLES 4096

static int compareDouble(const void *a, const void *b) {
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

void Frontier_error(const Problem *p, const float *A, const float *B, const void *C0, const void *C, uint64_t seed,
                    FrontierError *out) {
   memset(out, 0, sizeof *out);
   const size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k, all = M * N;
   const size_t n = all <= FRONTIER_SAMPLES ? all : FRONTIER_SAMPLES;
   double *err = malloc((n ? n : 1) * sizeof *err);
   if (!err) {
      out->max = out->median = NAN;
      return;
   }
   Rng r;
   Rng_seed(&r, seed);
   const Storage cs = Types_of(p->precision)->out;
   for (size_t s = 0; s < n; s++) {
      size_t at = s;
      if (all > FRONTIER_SAMPLES) { /* the four corners, then random entries */
         const size_t corners[4] = {0, N - 1, (M - 1) * N, M * N - 1};
         at = s < 4 ? corners[s] : (size_t)(Rng_next(&r) % all);
      }
      const size_t i = at / N, j = at % N;
      long double sum = 0, mag = 0;
      for (size_t k = 0; k < K; k++) {
         const long double prod = (long double)A[i * K + k] * (long double)B[k * N + j];
         sum += prod;
         mag += fabsl(prod);
      }
      /* alpha op(A) op(B) + beta C0, and the magnitudes its rounding grows with */
      const long double c0 = C0 && p->beta != 0.0 ? (long double)Storage_load(cs, C0, at) : 0;
      const long double want = (long double)p->alpha * sum + (long double)p->beta * c0;
      mag = fabsl((long double)p->alpha) * mag + fabsl((long double)p->beta * c0);
      const double c = Storage_load(cs, C, at);
      err[s] = mag > 0 ? (double)(fabsl((long double)c - want) / mag) : fabs(c);
      if (!isfinite(c))
         err[s] = INFINITY;
   }
   qsort(err, n, sizeof *err, compareDouble);
   out->samples = n;
   out->max = n ? err[n - 1] : 0;
   out->median = n ? (n % 2 ? err[n / 2] : 0.5 * (err[n / 2 - 1] + err[n / 2])) : 0;
   free(err);
}

/* A rectangle of the chart a label must not cover: the title lines, a point, a label placed
 * before. A label is its text's box: about 7.5 px a character (13 px sans), a row 14 px. */
typedef struct {
   int x0, y0, x1, y1;
} Box;

#define LABEL_ROW 14

static int labelWidth(const char *label) { return (int)(7.5 * (double)strlen(label) + 0.5); }

static bool overlaps(const Box *a, const Box *b) {
   return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Where a label of width w goes for the point at (x, y): to its right on the point's row,
 * or the nearest row above or below, then to its left (the text ending 8 px before the
 * point), where it covers nothing in taken[] and stays inside the chart's rows [ymin, ymax)
 * and columns [0, xmax); *anchor_end says which side. Nowhere clear: right of the point. */
static Box labelBox(const Box *taken, int n, int x, int y, int w, int ymin, int ymax, int xmax, bool *anchor_end) {
   static const int rows[] = {0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6};
   for (int side = 0; side < 2; side++)
      for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
         const int base = y + 4 + rows[r] * LABEL_ROW;
         const Box b = side == 0 ? (Box){x + 8, base - 11, x + 8 + w, base + 3} : (Box){x - 8 - w, base - 11, x - 8, base + 3};
         if (b.y0 < ymin || b.y1 > ymax || b.x0 < 0 || b.x1 > xmax)
            continue;
         bool clear = true;
         for (int i = 0; i < n && clear; i++)
            clear = !overlaps(&b, &taken[i]);
         if (clear) {
            *anchor_end = side == 1;
            return b;
         }
      }
   *anchor_end = false;
   return (Box){x + 8, y - 7, x + 8 + w, y + 7};
}

/* A decade at or below v (a power of ten). */
static double floorDecade(double v) { return pow(10, floor(log10(v))); }

char *Frontier_svg(const FrontierPoint *points, int n, const char *title, const char *subtitle) {
   const int left = 90, top = 70, plot_w = 560, plot_h = 380, width = left + plot_w + 260, height = top + plot_h + 70;
   /* Log axes over the points' range, whole decades; an error of 0 (an exact result) is put
    * at the bottom decade. */
   double gmin = INFINITY, gmax = 0, emin = INFINITY, emax = 0;
   for (int i = 0; i < n; i++) {
      if (points[i].gflops > 0) {
         gmin = fmin(gmin, points[i].gflops);
         gmax = fmax(gmax, points[i].gflops);
      }
      if (points[i].max_err > 0 && isfinite(points[i].max_err)) {
         emin = fmin(emin, points[i].median_err > 0 ? points[i].median_err : points[i].max_err);
         emax = fmax(emax, points[i].max_err);
      }
   }
   if (!(gmax > 0))
      gmin = 1, gmax = 10;
   if (!(emax > 0))
      emin = 1e-8, emax = 1e-7;
   const double g0 = floorDecade(gmin), g1 = floorDecade(gmax) * 10, e0 = floorDecade(emin), e1 = floorDecade(emax) * 10;
   const double gd = log10(g1 / g0), ed = log10(e1 / e0);
   TextBuf t = {0};
   Svg_begin(&t, width, height, title);
   TextBuf_put(&t, "<text x=\"10\" y=\"42\" fill=\"#555\">");
   TextBuf_putXml(&t, subtitle);
   TextBuf_put(&t, "</text>\n");
   for (double g = g0; g <= g1 * 1.0001; g *= 10) {
      const int x = left + (int)(plot_w * log10(g / g0) / gd + 0.5);
      TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", x, top, x, top + plot_h);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"#333\">%g</text>\n", x, top + plot_h + 16, g);
   }
   for (double e = e0; e <= e1 * 1.0001; e *= 10) {
      const int y = top + plot_h - (int)(plot_h * log10(e / e0) / ed + 0.5);
      TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ddd\"/>\n", left, y, left + plot_w, y);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\" fill=\"#333\">%.0e</text>\n", left - 6, y + 4, e);
   }
   TextBuf_put(&t, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#333\"/>\n", left, top,
               plot_w, plot_h);
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">GFLOPS (log; right is faster)"
                   "</text>\n", left + plot_w / 2, top + plot_h + 40);
   TextBuf_put(&t, "<text transform=\"translate(18,%d) rotate(-90)\" text-anchor=\"middle\" font-weight=\"bold\">max "
                   "error / (|A||B|) (log; lower is more accurate)</text>\n", top + plot_h / 2);
   /* What labels must not cover: the title and subtitle, every point, then each label placed. */
   Box *taken = malloc(((size_t)n * 2 + 1) * sizeof *taken);
   int ntaken = 0;
   if (taken)
      taken[ntaken++] = (Box){0, 0, width, 48};
   int *px = malloc(((size_t)n + 1) * sizeof *px), *py = malloc(((size_t)n + 1) * sizeof *py);
   for (int i = 0; i < n && taken && px && py; i++) {
      px[i] = py[i] = 0;
      if (!(points[i].gflops > 0)) /* not drawn */
         continue;
      const double e = points[i].max_err > 0 && isfinite(points[i].max_err) ? points[i].max_err : e0;
      px[i] = left + (int)(plot_w * log10(points[i].gflops / g0) / gd + 0.5);
      py[i] = top + plot_h - (int)(plot_h * log10(e / e0) / ed + 0.5);
      taken[ntaken++] = (Box){px[i] - 7, py[i] - 7, px[i] + 7, py[i] + 7};
   }
   for (int i = 0; i < n && taken && px && py; i++) {
      const FrontierPoint *pt = &points[i];
      if (!(pt->gflops > 0))
         continue;
      const int x = px[i], y = py[i];
      const char *colour = pt->emulated ? "#999999" : pt->vendor ? "#c0392b" : "#1f5fbf";
      TextBuf_put(&t, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"2\"><title>", x, y,
                  pt->vendor ? "white" : colour, colour);
      TextBuf_putXml(&t, pt->label);
      TextBuf_put(&t, ": %.4g GFLOPS, max error %.2e, median %.2e%s</title></circle>\n", pt->gflops, pt->max_err,
                  pt->median_err, pt->emulated ? " (emulated)" : "");
      bool end;
      const Box b = labelBox(taken, ntaken, x, y, labelWidth(pt->label), 48, height - 24, width, &end);
      taken[ntaken++] = b;
      const int tx = end ? b.x1 : b.x0, ty = b.y1 - 3;
      if (ty != y + 4 || end) /* moved off its point's row or to its left: a thin line says whose it is */
         TextBuf_put(&t, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"0.5\"/>\n", x, y,
                     tx, ty - 4, colour);
      TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" fill=\"%s\"%s>", tx, ty, colour, end ? " text-anchor=\"end\"" : "");
      TextBuf_putXml(&t, pt->label);
      TextBuf_put(&t, "</text>\n");
   }
   if (!taken || !px || !py)
      t.failed = true;
   free(taken);
   free(px);
   free(py);
   TextBuf_put(&t, "<text x=\"%d\" y=\"%d\" fill=\"#555\">filled: gemmtop's kernels; hollow red: the vendor library; "
                   "grey: emulated (not a tensor core's speed)</text>\n", left, height - 8);
   return Svg_finish(&t);
}
