/* GEMM verification on the host: a non-finite scan of C, Freivalds' test from both sides,
 * and exactly computed sample entries, all accumulated in long double.  See verify.h. */
#include "verify.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

typedef long double ldouble;

/* Extra sample entries taken along each edge (first/last row, first/last column), and at
 * random positions; every entry is checked when C has at most ALL_SAMPLES_MAX of them. */
#define EDGE_SAMPLES 4
#define RANDOM_SAMPLES 256
#define ALL_SAMPLES_MAX 4096

static inline double load(const void *p, size_t i, bool dbl) {
   return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static double precisionEps(Precision p) { return p == PRECISION_DOUBLE ? DBL_EPSILON : FLT_EPSILON; }

double Verify_tolerance(const Problem *p) {
   double k = p->k > 0 ? (double)p->k : 0.0;
   double f = 4.0 * sqrt(k);
   if (f < 32.0)
      f = 32.0;
   return f * precisionEps(p->precision);
}

/* S is a rows x cols row-major matrix.
 *   along_rows:  out[r] = sum_c S[r][c] v[c]   (out has rows entries)
 *   otherwise:   out[c] = sum_r S[r][c] v[r]   (out has cols entries)
 * and likewise absout from |S| and absv. */
static void matvec(const void *S, bool dbl, size_t rows, size_t cols, bool along_rows, const ldouble *v,
                   const ldouble *absv, ldouble *out, ldouble *absout) {
   if (along_rows) {
      for (size_t r = 0; r < rows; r++) {
         ldouble acc = 0, aacc = 0;
         size_t base = r * cols;
         for (size_t c = 0; c < cols; c++) {
            ldouble s = load(S, base + c, dbl);
            acc += s * v[c];
            aacc += fabsl(s) * absv[c];
         }
         out[r] = acc;
         absout[r] = aacc;
      }
   } else {
      for (size_t c = 0; c < cols; c++)
         out[c] = absout[c] = 0;
      for (size_t r = 0; r < rows; r++) {
         ldouble vr = v[r], avr = absv[r];
         size_t base = r * cols;
         for (size_t c = 0; c < cols; c++) {
            ldouble s = load(S, base + c, dbl);
            out[c] += s * vr;
            absout[c] += fabsl(s) * avr;
         }
      }
   }
}

/* Stored A is M x K (or K x M transposed); stored B is K x N (or N x K). */
static inline double opA(const Problem *p, const void *A, size_t i, size_t k, bool dbl) {
   return p->trans_a ? load(A, k * (size_t)p->m + i, dbl) : load(A, i * (size_t)p->k + k, dbl);
}

static inline double opB(const Problem *p, const void *B, size_t k, size_t j, bool dbl) {
   return p->trans_b ? load(B, j * (size_t)p->k + k, dbl) : load(B, k * (size_t)p->n + j, dbl);
}

static int cmpSize(const void *a, const void *b) {
   size_t x = *(const size_t *)a, y = *(const size_t *)b;
   return x < y ? -1 : x > y;
}

/* Fills idx with sorted, distinct linear indices into C; returns their count. idx must
 * hold ALL_SAMPLES_MAX entries (more than the corner/edge/random count). */
static size_t pickSamples(size_t M, size_t N, Rng *rng, size_t *idx) {
   size_t total = M * N, n = 0;
   if (total <= ALL_SAMPLES_MAX) {
      for (size_t i = 0; i < total; i++)
         idx[n++] = i;
      return n;
   }
   idx[n++] = 0;
   idx[n++] = N - 1;
   idx[n++] = (M - 1) * N;
   idx[n++] = (M - 1) * N + N - 1;
   for (int e = 0; e < EDGE_SAMPLES; e++) {
      size_t j = (size_t)Rng_below(rng, N), i = (size_t)Rng_below(rng, M);
      idx[n++] = j;                 /* first row */
      idx[n++] = (M - 1) * N + j;   /* last row */
      idx[n++] = i * N;             /* first column */
      idx[n++] = i * N + N - 1;     /* last column */
   }
   for (int s = 0; s < RANDOM_SAMPLES; s++)
      idx[n++] = (size_t)Rng_below(rng, total);
   qsort(idx, n, sizeof *idx, cmpSize);
   size_t u = 0;
   for (size_t i = 0; i < n; i++)
      if (u == 0 || idx[i] != idx[u - 1])
         idx[u++] = idx[i];
   return u;
}

static void fail(VerifyResult *out, const char *msg) {
   out->ok = false;
   snprintf(out->message, sizeof out->message, "%s", msg);
}

static int compareLd(const void *a, const void *b) {
   ldouble x = *(const ldouble *)a, y = *(const ldouble *)b;
   return (x > y) - (x < y);
}

/* Isolated wrong elements hide under the worst-case bounds, which grow with the row's
 * length. The residuals of a correct result are rounding noise of one size in every row;
 * a residual that stands 64 times above the median, and above floor[i] (what one element
 * within the tolerance, or the rounding of the whole row, can give), carries an error.
 * Returns how many stand out and the worst ratio to its threshold. Needs 16 rows. */
static size_t outliers(const ldouble *res, const ldouble *floor, size_t n, size_t *worst, double *worst_ratio) {
   *worst_ratio = 0;
   *worst = 0;
   if (n < 16)
      return 0;
   ldouble *sorted = malloc(n * sizeof *sorted);
   if (!sorted)
      return 0;
   memcpy(sorted, res, n * sizeof *sorted);
   qsort(sorted, n, sizeof *sorted, compareLd);
   ldouble median = sorted[n / 2];
   free(sorted);
   size_t over = 0;
   for (size_t i = 0; i < n; i++) {
      ldouble threshold = 64 * median > floor[i] ? 64 * median : floor[i];
      if (!(threshold > 0))
         continue;
      double r = (double)(res[i] / threshold);
      if (r > 1.0)
         over++;
      if (r > *worst_ratio) {
         *worst_ratio = r;
         *worst = i;
      }
   }
   return over;
}

static double ratioOf(ldouble residual, ldouble bound) {
   if (isnan(residual) || isnan(bound))
      return INFINITY;
   if (residual == 0)
      return 0.0;
   if (!(bound > 0))
      return INFINITY;
   return (double)(residual / bound);
}

void Verify_gemm(const Problem *p, const void *A, const void *B, const void *C0, const void *C, uint64_t seed,
                 VerifyResult *out) {
   memset(out, 0, sizeof *out);
   out->first_bad_row = out->first_bad_col = -1;
   if (!p) {
      fail(out, "FAILED: no problem to verify");
      return;
   }
   out->tolerance = Verify_tolerance(p);
   if (p->m < 0 || p->n < 0 || p->k < 0) {
      fail(out, "FAILED: negative matrix size");
      return;
   }
   const size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
   if (M == 0 || N == 0) {
      out->ok = true;
      snprintf(out->message, sizeof out->message, "verified (C is empty)");
      return;
   }
   const bool use_c0 = p->beta != 0.0;
   if (!C || (K > 0 && (!A || !B)) || (use_c0 && !C0)) {
      fail(out, use_c0 && !C0 ? "FAILED: cannot verify: C before the run is needed when beta != 0"
                              : "FAILED: cannot verify: a matrix is missing");
      return;
   }
   const bool dbl = p->precision == PRECISION_DOUBLE;
   const double eps = precisionEps(p->precision);
   const double tol = out->tolerance;
   /* The device sees alpha and beta in the storage precision. */
   const ldouble alpha = dbl ? (ldouble)p->alpha : (ldouble)(float)p->alpha;
   const ldouble beta = dbl ? (ldouble)p->beta : (ldouble)(float)p->beta;
   const ldouble aalpha = fabsl(alpha), abeta = fabsl(beta);

   Rng rng;
   Rng_seed(&rng, seed);

   /* ---- work vectors ---- */
   size_t Kv = K ? K : 1;
   size_t nvec = 2 * N + 2 * M      /* x, |x|, y, |y| */
                 + 2 * Kv + 2 * M   /* Bx, |B||x|, A(Bx), |A||B||x| */
                 + 2 * M + 2 * M    /* Cx, |C||x|, C0x, |C0||x| */
                 + 2 * Kv + 2 * N   /* y^T A, |y|^T|A|, (y^T A) B, abs */
                 + 2 * N + 2 * N;   /* y^T C, abs, y^T C0, abs */
   ldouble *mem = malloc(nvec * sizeof *mem);
   size_t *idx = malloc(ALL_SAMPLES_MAX * sizeof *idx);
   if (!mem || !idx) {
      free(mem);
      free(idx);
      fail(out, "FAILED: cannot verify: out of memory");
      return;
   }
   ldouble *q = mem;
#define TAKE(n) (q += (n), q - (n))
   ldouble *x = TAKE(N), *ax = TAKE(N), *y = TAKE(M), *ay = TAKE(M);
   ldouble *bx = TAKE(Kv), *abx = TAKE(Kv), *abx_ = TAKE(M), *aabx = TAKE(M);
   ldouble *cx = TAKE(M), *acx = TAKE(M), *c0x = TAKE(M), *ac0x = TAKE(M);
   ldouble *ya = TAKE(Kv), *aya = TAKE(Kv), *yab = TAKE(N), *ayab = TAKE(N);
   ldouble *yc = TAKE(N), *ayc = TAKE(N), *yc0 = TAKE(N), *ayc0 = TAKE(N);
#undef TAKE

   for (size_t j = 0; j < N; j++) {
      ldouble v = Rng_range(&rng, 0.5, 1.5);
      ax[j] = v;
      x[j] = (Rng_next(&rng) & 1) ? -v : v;
   }
   for (size_t i = 0; i < M; i++) {
      ldouble v = Rng_range(&rng, 0.5, 1.5);
      ay[i] = v;
      y[i] = (Rng_next(&rng) & 1) ? -v : v;
   }

   /* ---- one pass over C: non-finite scan, C x and y^T C ---- */
   size_t nan_count = 0, inf_count = 0, first_nf = (size_t)-1;
   for (size_t j = 0; j < N; j++)
      yc[j] = ayc[j] = 0;
   for (size_t i = 0; i < M; i++) {
      ldouble acc = 0, aacc = 0, yi = y[i], ayi = ay[i];
      const size_t base = i * N;
      for (size_t j = 0; j < N; j++) {
         double c = load(C, base + j, dbl);
         if (!isfinite(c)) {
            if (isnan(c))
               nan_count++;
            else
               inf_count++;
            if (first_nf == (size_t)-1)
               first_nf = base + j;
         }
         ldouble lc = c, alc = fabsl(lc);
         acc += lc * x[j];
         aacc += alc * ax[j];
         yc[j] += yi * lc;
         ayc[j] += ayi * alc;
      }
      cx[i] = acc;
      acx[i] = aacc;
   }
   out->non_finite = nan_count + inf_count;

   /* ---- the reference side: alpha A (B x) + beta C0 x, and alpha (y^T A) B + beta y^T C0 ---- */
   if (K > 0) {
      /* B x: K-vector */
      if (!p->trans_b)
         matvec(B, dbl, K, N, true, x, ax, bx, abx);
      else
         matvec(B, dbl, N, K, false, x, ax, bx, abx);
      /* A (B x): M-vector */
      if (!p->trans_a)
         matvec(A, dbl, M, K, true, bx, abx, abx_, aabx);
      else
         matvec(A, dbl, K, M, false, bx, abx, abx_, aabx);
      /* y^T A: K-vector */
      if (!p->trans_a)
         matvec(A, dbl, M, K, false, y, ay, ya, aya);
      else
         matvec(A, dbl, K, M, true, y, ay, ya, aya);
      /* (y^T A) B: N-vector */
      if (!p->trans_b)
         matvec(B, dbl, K, N, false, ya, aya, yab, ayab);
      else
         matvec(B, dbl, N, K, true, ya, aya, yab, ayab);
   } else {
      for (size_t i = 0; i < M; i++)
         abx_[i] = aabx[i] = 0;
      for (size_t j = 0; j < N; j++)
         yab[j] = ayab[j] = 0;
   }
   if (use_c0) {
      for (size_t j = 0; j < N; j++)
         yc0[j] = ayc0[j] = 0;
      for (size_t i = 0; i < M; i++) {
         ldouble acc = 0, aacc = 0, yi = y[i], ayi = ay[i];
         const size_t base = i * N;
         for (size_t j = 0; j < N; j++) {
            ldouble c0 = load(C0, base + j, dbl), ac0 = fabsl(c0);
            acc += c0 * x[j];
            aacc += ac0 * ax[j];
            yc0[j] += yi * c0;
            ayc0[j] += ayi * ac0;
         }
         c0x[i] = acc;
         ac0x[i] = aacc;
      }
   } else {
      for (size_t i = 0; i < M; i++)
         c0x[i] = ac0x[i] = 0;
      for (size_t j = 0; j < N; j++)
         yc0[j] = ayc0[j] = 0;
   }

   /* Bound per row: tol * (|alpha| |A||B||x| + |beta| |C0||x|), plus the rounding of C to
    * the storage precision (eps |C||x|), plus this check's own long double rounding. */
   const ldouble ld_err = (ldouble)(K + M + N + 4) * LDBL_EPSILON;
   double worst_r = 0.0, worst_c = 0.0; /* worst ratio of the row check, of the column check */
   size_t worst_row = 0, worst_col = 0, rows_over = 0, cols_over = 0;
   ldouble *res = malloc(2 * (M + N + 1) * sizeof *res); /* residuals and magnitudes, rows then columns */
   ldouble *rres = res, *rmag = res ? res + M : NULL, *cres = res ? res + 2 * M : NULL,
           *cmag = res ? res + 2 * M + N : NULL;
   for (size_t i = 0; i < M; i++) {
      ldouble ref = alpha * abx_[i] + beta * c0x[i];
      ldouble mag = aalpha * aabx[i] + abeta * ac0x[i];
      ldouble bound = (ldouble)tol * mag + (ldouble)eps * acx[i] + ld_err * (mag + acx[i]);
      if (res) {
         rres[i] = fabsl(cx[i] - ref);
         rmag[i] = mag + acx[i];
      }
      double r = ratioOf(fabsl(cx[i] - ref), bound);
      if (r > 1.0)
         rows_over++;
      if (r > worst_r) {
         worst_r = r;
         worst_row = i;
      }
   }
   for (size_t j = 0; j < N; j++) {
      ldouble ref = alpha * yab[j] + beta * yc0[j];
      ldouble mag = aalpha * ayab[j] + abeta * ayc0[j];
      ldouble bound = (ldouble)tol * mag + (ldouble)eps * ayc[j] + ld_err * (mag + ayc[j]);
      if (res) {
         cres[j] = fabsl(yc[j] - ref);
         cmag[j] = mag + ayc[j];
      }
      double r = ratioOf(fabsl(yc[j] - ref), bound);
      if (r > 1.0)
         cols_over++;
      if (r > worst_c) {
         worst_c = r;
         worst_col = j;
      }
   }
   out->freivalds_ratio = worst_r > worst_c ? worst_r : worst_c;
   /* Outliers among the residuals: a few wrong elements in an otherwise right result. The
    * floor of a row: the most one element within the tolerance can move its residual,
    * tol * max_j s_ij |x_j|, bounded with Cauchy-Schwarz (s_ij <= |alpha| |a_i| |b_j| +
    * |beta| |c0_ij|) so that it costs O(MK + KN + MN); and the rounding of its N elements,
    * 4 eps |mag| / sqrt(N). The magnitude arrays are reused for the floors. */
   size_t orow = 0, ocol = 0, out_rows = 0, out_cols = 0;
   double orow_ratio = 0, ocol_ratio = 0;
   ldouble *anorm = res ? malloc((M + N + 1) * sizeof *anorm) : NULL;
   if (res && anorm && out->non_finite == 0) {
      ldouble *bnorm = anorm + M;
      for (size_t i = 0; i < M; i++) {
         ldouble sq = 0;
         for (size_t k = 0; k < K; k++) {
            ldouble a = opA(p, A, i, k, dbl);
            sq += a * a;
         }
         anorm[i] = sqrtl(sq);
      }
      for (size_t j = 0; j < N; j++)
         bnorm[j] = 0;
      for (size_t k = 0; k < K; k++)
         for (size_t j = 0; j < N; j++) {
            ldouble b = opB(p, B, k, j, dbl);
            bnorm[j] += b * b;
         }
      ldouble bx_max = 0, ay_max = 0;
      for (size_t j = 0; j < N; j++) {
         bnorm[j] = sqrtl(bnorm[j]);
         if (bnorm[j] * ax[j] > bx_max)
            bx_max = bnorm[j] * ax[j];
      }
      for (size_t i = 0; i < M; i++)
         if (anorm[i] * ay[i] > ay_max)
            ay_max = anorm[i] * ay[i];
      for (size_t i = 0; i < M; i++) {
         ldouble c0max = 0;
         for (size_t j = 0; use_c0 && j < N; j++) {
            ldouble v = fabsl((ldouble)load(C0, i * N + j, dbl)) * ax[j];
            if (v > c0max)
               c0max = v;
         }
         ldouble one = (ldouble)tol * (aalpha * anorm[i] * bx_max + abeta * c0max);
         ldouble noise = 4 * (ldouble)eps * rmag[i] / sqrtl((ldouble)(N ? N : 1));
         rmag[i] = one > noise ? one : noise;
      }
      for (size_t j = 0; j < N; j++) {
         ldouble c0max = 0;
         for (size_t i = 0; use_c0 && i < M; i++) {
            ldouble v = fabsl((ldouble)load(C0, i * N + j, dbl)) * ay[i];
            if (v > c0max)
               c0max = v;
         }
         ldouble one = (ldouble)tol * (aalpha * bnorm[j] * ay_max + abeta * c0max);
         ldouble noise = 4 * (ldouble)eps * cmag[j] / sqrtl((ldouble)(M ? M : 1));
         cmag[j] = one > noise ? one : noise;
      }
      out_rows = outliers(rres, rmag, M, &orow, &orow_ratio);
      out_cols = outliers(cres, cmag, N, &ocol, &ocol_ratio);
   }
   free(anorm);
   free(res);
   bool outlier_fail = out_rows > 0 || out_cols > 0;
   if (outlier_fail) {
      double o = orow_ratio > ocol_ratio ? orow_ratio : ocol_ratio;
      if (o > out->freivalds_ratio)
         out->freivalds_ratio = o;
   }

   /* ---- sample entries, computed exactly (to long double) ---- */
   size_t ns = pickSamples(M, N, &rng, idx);
   size_t first_bad = (size_t)-1;
   double bad_got = 0, bad_ref = 0, bad_rel = 0, max_rel = 0;
   for (size_t s = 0; s < ns; s++) {
      size_t i = idx[s] / N, j = idx[s] % N;
      ldouble acc = 0, aacc = 0;
      for (size_t k = 0; k < K; k++) {
         ldouble prod = (ldouble)opA(p, A, i, k, dbl) * (ldouble)opB(p, B, k, j, dbl);
         acc += prod;
         aacc += fabsl(prod);
      }
      ldouble ref = alpha * acc, mag = aalpha * aacc;
      if (use_c0) {
         ldouble c0 = load(C0, idx[s], dbl);
         ref += beta * c0;
         mag += abeta * fabsl(c0);
      }
      double c = load(C, idx[s], dbl);
      ldouble err = fabsl((ldouble)c - ref);
      double rel;
      if (isnan(err))
         rel = INFINITY;
      else if (err == 0)
         rel = 0.0;
      else if (mag > 0)
         rel = (double)(err / mag);
      else
         rel = INFINITY;
      if (rel > max_rel)
         max_rel = rel;
      if (rel > tol) {
         out->bad_samples++;
         if (first_bad == (size_t)-1) {
            first_bad = idx[s];
            bad_got = c;
            bad_ref = (double)ref;
            bad_rel = rel;
         }
      }
   }
   out->samples = ns;
   out->max_rel_err = max_rel;

   out->ok = out->non_finite == 0 && out->bad_samples == 0 && out->freivalds_ratio <= 1.0 && !outlier_fail;

   /* ---- one line saying what happened; the first failing check in this order ---- */
   const int digits = dbl ? 17 : 9;
   if (out->non_finite) {
      out->first_bad_row = (int)(first_nf / N);
      out->first_bad_col = (int)(first_nf % N);
      if (inf_count == 0)
         snprintf(out->message, sizeof out->message, "FAILED: %zu element%s not written (NaN), first at (%d,%d)",
                  nan_count, nan_count == 1 ? "" : "s", out->first_bad_row, out->first_bad_col);
      else
         snprintf(out->message, sizeof out->message,
                  "FAILED: %zu element%s not finite (%zu NaN, %zu Inf), first at (%d,%d)", out->non_finite,
                  out->non_finite == 1 ? "" : "s", nan_count, inf_count, out->first_bad_row, out->first_bad_col);
   } else if (out->bad_samples) {
      out->first_bad_row = (int)(first_bad / N);
      out->first_bad_col = (int)(first_bad % N);
      snprintf(out->message, sizeof out->message,
               "FAILED: %zu of %zu sampled entries wrong, first at (%d,%d): got %.*g, expected %.*g (rel err %.2g, tol "
               "%.2g)",
               out->bad_samples, ns, out->first_bad_row, out->first_bad_col, digits, bad_got, digits, bad_ref, bad_rel,
               tol);
   } else if (outlier_fail && worst_r <= 1.0 && worst_c <= 1.0) {
      bool by_row = out_rows > 0 && (out_cols == 0 || orow_ratio >= ocol_ratio);
      out->first_bad_row = by_row ? (int)orow : (out_rows ? (int)orow : -1);
      out->first_bad_col = by_row ? (out_cols ? (int)ocol : -1) : (int)ocol;
      snprintf(out->message, sizeof out->message,
               "FAILED: Freivalds residual of %s %zu stands %.3gx above the others' (%zu row%s, %zu column%s): "
               "isolated wrong elements, first near (%d,%d)",
               by_row ? "row" : "column", by_row ? orow : ocol, by_row ? orow_ratio : ocol_ratio, out_rows,
               out_rows == 1 ? "" : "s", out_cols, out_cols == 1 ? "" : "s", out->first_bad_row, out->first_bad_col);
   } else if (!(out->freivalds_ratio <= 1.0)) {
      /* Name the side where the failure is localised: a wrong row puts one row over the
       * bound (and perhaps every column), a wrong column the reverse. */
      bool by_row = rows_over > 0 && (cols_over == 0 || rows_over < cols_over ||
                                       (rows_over == cols_over && worst_r >= worst_c));
      if (by_row) {
         out->first_bad_row = (int)worst_row;
         out->first_bad_col = -1;
      } else {
         out->first_bad_row = -1;
         out->first_bad_col = (int)worst_col;
      }
      snprintf(out->message, sizeof out->message,
               "FAILED: Freivalds check off by %.3gx its bound in %s %zu (%zu row%s, %zu column%s over)",
               by_row ? worst_r : worst_c, by_row ? "row" : "column", by_row ? worst_row : worst_col, rows_over,
               rows_over == 1 ? "" : "s", cols_over, cols_over == 1 ? "" : "s");
   } else {
      snprintf(out->message, sizeof out->message, "verified (max rel err %.2g, tol %.2g)", out->max_rel_err, tol);
   }
   free(mem);
   free(idx);
}
