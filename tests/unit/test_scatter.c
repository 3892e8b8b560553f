/* The sweep pane's scatter plot (Chart_scatter): points land in the cell and braille dot
 * their coordinates give, the ranges are honoured (what lies outside is left out), every
 * row is exactly as wide as asked, and the ASCII fallback marks the same cells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "tui/chart.h"

#define H_MAX 12
#define W_MAX 60

typedef struct Plot_ {
   char buf[H_MAX][W_MAX * 3 + 1];
   char *rows[H_MAX];
   unsigned bits[H_MAX][W_MAX]; /* braille dot bits, or 1 for '*' */
} Plot;

/* Decodes each row into one value per cell; fails when a row is not exactly width cells. */
static void decode(Plot *pl, int height, int width, ChartStyle style) {
   for (int r = 0; r < height; r++) {
      const unsigned char *s = (const unsigned char *)pl->rows[r];
      int c = 0;
      while (*s) {
         assert_true(c < width);
         if (*s == ' ') {
            pl->bits[r][c++] = 0;
            s++;
         } else if (style != CHART_BRAILLE) {
            assert_int_equal(*s, '*');
            pl->bits[r][c++] = 1;
            s++;
         } else {
            assert_int_equal(s[0], 0xE2);
            unsigned cp = ((s[0] & 0x0Fu) << 12) | ((s[1] & 0x3Fu) << 6) | (s[2] & 0x3Fu);
            assert_true(cp > 0x2800 && cp <= 0x28FF);
            pl->bits[r][c++] = cp - 0x2800;
            s += 3;
         }
      }
      assert_int_equal(c, width);
   }
}

static int plot(Plot *pl, int height, int width, const double *xs, const double *ys, int n, double xlo, double xhi,
                double ylo, double yhi, ChartStyle style) {
   for (int r = 0; r < H_MAX; r++)
      pl->rows[r] = pl->buf[r];
   int drawn = Chart_scatter(pl->rows, sizeof pl->buf[0], height, width, xs, ys, n, xlo, xhi, ylo, yhi, style);
   decode(pl, height, width, style);
   return drawn;
}

static int countDots(const Plot *pl, int height, int width) {
   int n = 0;
   for (int r = 0; r < height; r++)
      for (int c = 0; c < width; c++)
         n += __builtin_popcount(pl->bits[r][c]);
   return n;
}

static void test_corners(void **state) {
   (void)state;
   Plot pl;
   /* The lowest point at the bottom-left dot, the highest at the top-right dot. */
   double xs[2] = {2, 10}, ys[2] = {0, 50};
   assert_int_equal(plot(&pl, 4, 20, xs, ys, 2, 2, 10, 0, 50, CHART_BRAILLE), 2);
   assert_int_equal(pl.bits[3][0], 0x40u);
   assert_int_equal(pl.bits[0][19], 0x08u);
   assert_int_equal(countDots(&pl, 4, 20), 2);
   assert_int_equal(plot(&pl, 4, 20, xs, ys, 2, 2, 10, 0, 50, CHART_ASCII), 2);
   assert_int_equal(pl.bits[3][0], 1u);
   assert_int_equal(pl.bits[0][19], 1u);
   assert_int_equal(countDots(&pl, 4, 20), 2);
   /* The axis labels' column agrees with where the points land. */
   assert_int_equal(Chart_scatterColumn(2, 2, 10, 20, CHART_BRAILLE), 0);
   assert_int_equal(Chart_scatterColumn(10, 2, 10, 20, CHART_BRAILLE), 19);
   assert_int_equal(Chart_scatterColumn(6, 2, 10, 21, CHART_ASCII), 10);
   assert_int_equal(Chart_scatterColumn(11, 2, 10, 20, CHART_ASCII), -1);
   int r, c;
   assert_false(Chart_scatterCell(11, 5, 2, 10, 0, 50, 4, 20, CHART_ASCII, &r, &c));
   assert_false(Chart_scatterCell(5, NAN, 2, 10, 0, 50, 4, 20, CHART_BRAILLE, &r, &c));
}

static void test_outside_left_out(void **state) {
   (void)state;
   Plot pl;
   double xs[6] = {-1, 5, 5, NAN, 5, 11}, ys[6] = {1, -0.5, 3, 1, INFINITY, 1};
   assert_int_equal(plot(&pl, 3, 10, xs, ys, 6, 0, 10, 0, 2, CHART_BRAILLE), 0);
   assert_int_equal(countDots(&pl, 3, 10), 0);
   assert_int_equal(plot(&pl, 3, 10, xs, ys, 6, 0, 10, 0, 2, CHART_ASCII), 0);
   assert_int_equal(countDots(&pl, 3, 10), 0);
   /* A one-value x range puts the points in the middle column. */
   double one[1] = {7}, y1[1] = {1};
   assert_int_equal(plot(&pl, 3, 11, one, y1, 1, 7, 7, 0, 2, CHART_ASCII), 1);
   assert_int_equal(pl.bits[1][5], 1u);
   /* Nothing to draw: blank rows of the full width. */
   assert_int_equal(plot(&pl, 2, 7, NULL, NULL, 0, 0, 1, 0, 1, CHART_BRAILLE), 0);
   assert_string_equal(pl.rows[0], "       ");
}

/* Random points in random plots: each is in the cell its coordinates give (checked
 * against the proportion it has of the range), nothing drawn where no point is, in
 * braille and in ASCII. */
static void test_random_points(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   Plot br, as;
   for (int trial = 0; trial < 400; trial++) {
      int height = 1 + (int)Rng_below(&rng, H_MAX), width = 1 + (int)Rng_below(&rng, W_MAX);
      double xlo = Rng_range(&rng, -100, 100), xhi = xlo + Rng_range(&rng, 0.5, 500);
      double ylo = Rng_range(&rng, 0, 10), yhi = ylo + Rng_range(&rng, 1, 5000);
      int n = (int)Rng_below(&rng, 40);
      double xs[40], ys[40];
      for (int i = 0; i < n; i++) {
         xs[i] = Rng_range(&rng, xlo, xhi);
         ys[i] = Rng_range(&rng, ylo, yhi);
      }
      assert_int_equal(plot(&br, height, width, xs, ys, n, xlo, xhi, ylo, yhi, CHART_BRAILLE), n);
      assert_int_equal(plot(&as, height, width, xs, ys, n, xlo, xhi, ylo, yhi, CHART_ASCII), n);
      for (int i = 0; i < n; i++) {
         double fx = (xs[i] - xlo) / (xhi - xlo), fy = (ys[i] - ylo) / (yhi - ylo);
         /* The dot nearest to the point's fraction of each axis. */
         int bdx = (int)lround(fx * (2 * width - 1)), bdy = (int)lround(fy * (4 * height - 1));
         int bc = bdx / 2, brow = height - 1 - bdy / 4;
         unsigned bit = (bdx % 2 ? (unsigned[]){0x08, 0x10, 0x20, 0x80}
                                 : (unsigned[]){0x01, 0x02, 0x04, 0x40})[3 - bdy % 4];
         if (!(br.bits[brow][bc] & bit))
            fail_msg("seed %llu: point (%g, %g) not at braille cell %d,%d bit %#x", (unsigned long long)seed, xs[i],
                     ys[i], brow, bc, bit);
         int ac = (int)lround(fx * (width - 1)), arow = height - 1 - (int)lround(fy * (height - 1));
         if (!as.bits[arow][ac])
            fail_msg("seed %llu: point (%g, %g) not at ASCII cell %d,%d", (unsigned long long)seed, xs[i], ys[i],
                     arow, ac);
         assert_int_equal(Chart_scatterColumn(xs[i], xlo, xhi, width, CHART_BRAILLE), bc);
         assert_int_equal(Chart_scatterColumn(xs[i], xlo, xhi, width, CHART_ASCII), ac);
         /* The cell that marks a point (the best in the sweep pane) is the one it is drawn in. */
         int cr = -1, cc = -1;
         assert_true(Chart_scatterCell(xs[i], ys[i], xlo, xhi, ylo, yhi, height, width, CHART_BRAILLE, &cr, &cc));
         assert_int_equal(cr, brow);
         assert_int_equal(cc, bc);
         assert_true(Chart_scatterCell(xs[i], ys[i], xlo, xhi, ylo, yhi, height, width, CHART_ASCII, &cr, &cc));
         assert_int_equal(cr, arow);
         assert_int_equal(cc, ac);
      }
      /* No dot where no point is: at most one dot per point, and every marked ASCII cell
       * holds a point. */
      assert_true(countDots(&br, height, width) <= n);
      for (int r = 0; r < height; r++)
         for (int c = 0; c < width; c++) {
            if (!as.bits[r][c])
               continue;
            bool found = false;
            for (int i = 0; i < n && !found; i++) {
               double fx = (xs[i] - xlo) / (xhi - xlo), fy = (ys[i] - ylo) / (yhi - ylo);
               found = lround(fx * (width - 1)) == c && height - 1 - lround(fy * (height - 1)) == r;
            }
            if (!found)
               fail_msg("seed %llu: ASCII cell %d,%d marked with no point there", (unsigned long long)seed, r, c);
         }
   }
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_corners),
       cmocka_unit_test(test_outside_left_out),
       cmocka_unit_test(test_random_points),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
