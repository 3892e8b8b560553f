/* Unit tests for src/verify.c.  Every test draws fresh random inputs (the seed is printed
 * once; test n uses seed + n) and checks both directions: correct results pass, results
 * with a realistic kernel bug fail, with the message saying what failed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/problem.h"
#include "base/rng.h"
#include "base/parallel.h"
#include "core/run/verify.h"
#include "testing.h"

static uint64_t g_seed;

typedef struct {
   Problem p;
   void *A, *B, *C0, *C;
} Case;

static inline double getv(const void *p, size_t i, bool dbl) {
   return dbl ? ((const double *)p)[i] : (double)((const float *)p)[i];
}

static inline void setv(void *p, size_t i, bool dbl, double v) {
   if (dbl)
      ((double *)p)[i] = v;
   else
      ((float *)p)[i] = (float)v;
}

static double opA(const Problem *p, const void *A, size_t i, size_t k) {
   bool dbl = p->precision == PRECISION_DOUBLE;
   return p->trans_a ? getv(A, k * (size_t)p->m + i, dbl) : getv(A, i * (size_t)p->k + k, dbl);
}

static double opB(const Problem *p, const void *B, size_t k, size_t j) {
   bool dbl = p->precision == PRECISION_DOUBLE;
   return p->trans_b ? getv(B, j * (size_t)p->k + k, dbl) : getv(B, k * (size_t)p->n + j, dbl);
}

/* C = alpha op(A) op(B) + beta C0, accumulated in double, rounded to the storage precision.
 * alpha and beta are taken as given (the problem's are not used) so tests can get them wrong. */
static void hostGemm(const Problem *p, const void *A, const void *B, const void *C0, void *C, double alpha,
                     double beta) {
   bool dbl = p->precision == PRECISION_DOUBLE;
   const size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
   /* op(A) as M x K and op(B) transposed as N x K, in double, for plain dot products */
   double *a = malloc((M * K + 1) * sizeof *a), *bt = malloc((N * K + 1) * sizeof *bt);
   assert_non_null(a);
   assert_non_null(bt);
   for (size_t i = 0; i < M; i++)
      for (size_t k = 0; k < K; k++)
         a[i * K + k] = opA(p, A, i, k);
   for (size_t j = 0; j < N; j++)
      for (size_t k = 0; k < K; k++)
         bt[j * K + k] = opB(p, B, k, j);
   for (size_t i = 0; i < M; i++)
      for (size_t j = 0; j < N; j++) {
         const double *ai = a + i * K, *bj = bt + j * K;
         double acc = 0;
         for (size_t k = 0; k < K; k++)
            acc += ai[k] * bj[k];
         double c = alpha * acc;
         if (beta != 0.0)
            c += beta * getv(C0, i * N + j, dbl);
         setv(C, i * N + j, dbl, c);
      }
   free(a);
   free(bt);
}

/* The exact entry and the magnitude the error is relative to, in long double. */
static void exactEntry(const Problem *p, const Case *c, size_t i, size_t j, long double *ref, long double *mag) {
   bool dbl = p->precision == PRECISION_DOUBLE;
   long double alpha = dbl ? (long double)p->alpha : (long double)(float)p->alpha;
   long double beta = dbl ? (long double)p->beta : (long double)(float)p->beta;
   long double acc = 0, aacc = 0;
   for (size_t k = 0; k < (size_t)p->k; k++) {
      long double prod = (long double)opA(p, c->A, i, k) * opB(p, c->B, k, j);
      acc += prod;
      aacc += fabsl(prod);
   }
   *ref = alpha * acc;
   *mag = fabsl(alpha) * aacc;
   if (p->beta != 0.0) {
      long double c0 = getv(c->C0, i * (size_t)p->n + j, dbl);
      *ref += beta * c0;
      *mag += fabsl(beta) * fabsl(c0);
   }
}

/* The exact entry and the rounding scale its sampled error is relative to (verify.h):
 * |alpha| (sqrt(K) ||p||_2 + sqrt(sum of the natural partial sums^2)) + |beta| |c0|. */
static void exactScale(const Problem *p, const Case *c, size_t i, size_t j, long double *ref, long double *scale) {
   bool dbl = p->precision == PRECISION_DOUBLE;
   long double alpha = dbl ? (long double)p->alpha : (long double)(float)p->alpha;
   long double beta = dbl ? (long double)p->beta : (long double)(float)p->beta;
   long double acc = 0, squares = 0, partials = 0;
   for (size_t k = 0; k < (size_t)p->k; k++) {
      long double prod = (long double)opA(p, c->A, i, k) * opB(p, c->B, k, j);
      acc += prod;
      squares += prod * prod;
      partials += acc * acc;
   }
   *ref = alpha * acc;
   *scale = fabsl(alpha) * (sqrtl((long double)p->k * squares) + sqrtl(partials));
   if (p->beta != 0.0) {
      long double c0 = getv(c->C0, i * (size_t)p->n + j, dbl);
      *ref += beta * c0;
      *scale += fabsl(beta) * fabsl(c0);
   }
}

static void fillRandom(Rng *r, void *p, size_t n, bool dbl, double lo, double hi) {
   for (size_t i = 0; i < n; i++)
      setv(p, i, dbl, Rng_range(r, lo, hi));
}

/* A new problem with random inputs in [-1, 1) and (if with_c) the correct C. */
static void makeCaseEx(Case *c, Rng *r, int m, int n, int k, Precision prec, bool ta, bool tb, double alpha,
                       double beta, bool with_c) {
   memset(c, 0, sizeof *c);
   Problem_setDefaults(&c->p);
   c->p.m = m;
   c->p.n = n;
   c->p.k = k;
   c->p.precision = prec;
   c->p.trans_a = ta;
   c->p.trans_b = tb;
   c->p.alpha = alpha;
   c->p.beta = beta;
   bool dbl = prec == PRECISION_DOUBLE;
   size_t es = Precision_size(prec);
   size_t na = Problem_sizeA(&c->p), nb = Problem_sizeB(&c->p), nc = Problem_sizeC(&c->p);
   c->A = malloc(na ? na * es : 1);
   c->B = malloc(nb ? nb * es : 1);
   c->C = malloc(nc * es);
   assert_non_null(c->A);
   assert_non_null(c->B);
   assert_non_null(c->C);
   fillRandom(r, c->A, na, dbl, -1.0, 1.0);
   fillRandom(r, c->B, nb, dbl, -1.0, 1.0);
   if (beta != 0.0) {
      c->C0 = malloc(nc * es);
      assert_non_null(c->C0);
      fillRandom(r, c->C0, nc, dbl, -1.0, 1.0);
   }
   if (with_c)
      hostGemm(&c->p, c->A, c->B, c->C0, c->C, alpha, beta);
}

static void makeCase(Case *c, Rng *r, int m, int n, int k, Precision prec, bool ta, bool tb, double alpha,
                     double beta) {
   makeCaseEx(c, r, m, n, k, prec, ta, tb, alpha, beta, true);
}

static void freeCase(Case *c) {
   free(c->A);
   free(c->B);
   free(c->C0);
   free(c->C);
   memset(c, 0, sizeof *c);
}

static void describe(const Case *c, char *out, size_t len) {
   char lay[3];
   Problem_layoutName(&c->p, lay);
   snprintf(out, len, "%s %s M=%d N=%d K=%d alpha=%g beta=%g", Precision_name(c->p.precision), lay, c->p.m, c->p.n,
            c->p.k, c->p.alpha, c->p.beta);
}

static void expectOk(const Case *c, const VerifyResult *v, uint64_t seed) {
   char d[160];
   describe(c, d, sizeof d);
   if (!v->ok || v->non_finite || v->bad_samples || !(v->freivalds_ratio <= 1.0) || !(v->outlier_ratio <= 1.0) ||
       v->first_bad_row != -1 ||
       v->first_bad_col != -1 || strncmp(v->message, "verified", 8) != 0)
      fail_msg("seed %" PRIu64 ", %s: a correct result was rejected: %s (freivalds %.3g, max rel %.3g)", seed, d,
               v->message, v->freivalds_ratio, v->max_rel_err);
   if (!(v->max_rel_err <= v->tolerance))
      fail_msg("seed %" PRIu64 ", %s: max_rel_err %.3g over tol %.3g but ok", seed, d, v->max_rel_err, v->tolerance);
}

static void expectFail(const Case *c, const VerifyResult *v, uint64_t seed, const char *bug, const char *part) {
   char d[160];
   describe(c, d, sizeof d);
   if (v->ok)
      fail_msg("seed %" PRIu64 ", %s: %s was not detected: %s (freivalds %.3g, max rel %.3g)", seed, d, bug, v->message,
               v->freivalds_ratio, v->max_rel_err);
   if (strncmp(v->message, "FAILED", 6) != 0 || (part && !strstr(v->message, part)))
      fail_msg("seed %" PRIu64 ", %s: %s: message '%s' lacks '%s'", seed, d, bug, v->message, part ? part : "FAILED");
}

static int groupSetup(void **state) {
   (void)state;
   g_seed = Testing_seed("test_verify");
   return 0;
}

static const Precision kPrecs[2] = {PRECISION_FLOAT, PRECISION_DOUBLE};

/* Odd sizes, all layouts, both precisions, beta zero and not: a correct C passes. */
static void test_correct_results_pass(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 1;
   Rng r;
   Rng_seed(&r, seed);
   for (int pi = 0; pi < 2; pi++)
      for (int lay = 0; lay < 4; lay++)
         for (int bz = 0; bz < 2; bz++)
            for (int big = 0; big < 2; big++) {
               int m = big ? 65 + 2 * (int)Rng_below(&r, 40) : 1 + 2 * (int)Rng_below(&r, 30);
               int n = big ? 67 + 2 * (int)Rng_below(&r, 40) : 1 + 2 * (int)Rng_below(&r, 30);
               int k = 1 + 2 * (int)Rng_below(&r, 150);
               double alpha = Rng_range(&r, 0.2, 2.0) * (Rng_below(&r, 2) ? -1 : 1);
               double beta = bz ? 0.0 : Rng_range(&r, 0.2, 2.0) * (Rng_below(&r, 2) ? -1 : 1);
               Case c;
               makeCase(&c, &r, m, n, k, kPrecs[pi], lay & 1, lay & 2, alpha, beta);
               VerifyResult v;
               Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed + 100 + (uint64_t)lay, &v);
               expectOk(&c, &v, seed);
               assert_true(v.tolerance == Verify_tolerance(&c.p));
               size_t mn = (size_t)m * (size_t)n;
               if (mn <= 4096)
                  assert_int_equal(v.samples, mn);
               else
                  assert_in_range(v.samples, 200, 300);
               freeCase(&c);
            }
}

/* With beta == 0, C0 is never read: a NULL one and a one-element buffer both work
 * (AddressSanitizer catches any read past that one element). */
static void test_beta_zero_does_not_read_c0(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 2;
   Rng r;
   Rng_seed(&r, seed);
   for (int pi = 0; pi < 2; pi++) {
      Case c;
      makeCase(&c, &r, 77, 91, 33, kPrecs[pi], pi, !pi, 1.25, 0.0);
      double *tiny = malloc(sizeof *tiny);
      assert_non_null(tiny);
      *tiny = NAN;
      VerifyResult v;
      Verify_gemm(&c.p, c.A, c.B, NULL, c.C, seed, &v);
      expectOk(&c, &v, seed);
      Verify_gemm(&c.p, c.A, c.B, tiny, c.C, seed, &v);
      expectOk(&c, &v, seed);
      /* but beta != 0 without C0 cannot be verified */
      c.p.beta = 0.5;
      Verify_gemm(&c.p, c.A, c.B, NULL, c.C, seed, &v);
      assert_false(v.ok);
      assert_non_null(strstr(v.message, "beta"));
      free(tiny);
      freeCase(&c);
   }
}

/* M, N or K of 1, and empty C. */
static void test_degenerate_sizes(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 3;
   Rng r;
   Rng_seed(&r, seed);
   const int sizes[][3] = {{1, 1, 1}, {1, 37, 19}, {41, 1, 23}, {29, 31, 1}, {1, 1, 513}, {300, 1, 7}, {1, 300, 7}};
   for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int pi = 0; pi < 2; pi++)
         for (int lay = 0; lay < 4; lay++) {
            Case c;
            double beta = (lay & 1) ? 0.0 : -0.75;
            makeCase(&c, &r, sizes[s][0], sizes[s][1], sizes[s][2], kPrecs[pi], lay & 1, lay & 2, 1.5, beta);
            VerifyResult v;
            Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
            expectOk(&c, &v, seed);
            /* one entry off by 1% of its magnitude: every entry is sampled at these sizes */
            size_t at = (size_t)Rng_below(&r, Problem_sizeC(&c.p));
            bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
            long double ref, mag;
            exactEntry(&c.p, &c, at / (size_t)c.p.n, at % (size_t)c.p.n, &ref, &mag);
            setv(c.C, at, dbl, (double)(ref + 0.01L * mag));
            Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
            expectFail(&c, &v, seed, "one entry 1% off", "sampled entries wrong");
            assert_int_equal(v.bad_samples, 1);
            assert_int_equal(v.first_bad_row, (int)(at / (size_t)c.p.n));
            assert_int_equal(v.first_bad_col, (int)(at % (size_t)c.p.n));
            freeCase(&c);
         }
   /* an empty C verifies trivially; negative sizes are refused */
   Problem p;
   Problem_setDefaults(&p);
   p.m = 0;
   VerifyResult v;
   Verify_gemm(&p, NULL, NULL, NULL, NULL, seed, &v);
   assert_true(v.ok);
   p.m = -3;
   Verify_gemm(&p, NULL, NULL, NULL, NULL, seed, &v);
   assert_false(v.ok);
}

/* Element i of C left as Verify_poison fills it before a run: not written. */
static void unwrite(void *C, size_t i, bool dbl) {
   Verify_poison((char *)C + i * (dbl ? 8 : 4), 1, dbl ? STORAGE_F64 : STORAGE_F32);
}

/* A poisoned element the kernel never wrote; a NaN the kernel computed is told apart by its
 * bits, and so is a mix of the two and an infinity. */
static void test_unwritten_element(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 4;
   Rng r;
   Rng_seed(&r, seed);
   for (int pi = 0; pi < 2; pi++)
      for (int lay = 0; lay < 4; lay++) {
         Case c;
         makeCase(&c, &r, 83 + 2 * lay, 101, 45, kPrecs[pi], lay & 1, lay & 2, 0.75, lay == 3 ? 0.0 : 1.5);
         bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
         size_t at = (size_t)Rng_below(&r, Problem_sizeC(&c.p));
         unwrite(c.C, at, dbl);
         VerifyResult v;
         Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
         char where[64];
         snprintf(where, sizeof where, "first at (%zu,%zu)", at / 101, at % 101);
         expectFail(&c, &v, seed, "one unwritten element", "1 element not written (NaN)");
         assert_non_null(strstr(v.message, where));
         assert_int_equal(v.non_finite, 1);
         assert_int_equal(v.unwritten, 1);
         assert_int_equal(v.first_bad_row, (int)(at / 101));
         assert_int_equal(v.first_bad_col, (int)(at % 101));
         /* the same element NaN as arithmetic makes it (0/0, quiet): computed, not unwritten,
          * with a word on reading C when beta is 0 */
         volatile double zero = 0.0;
         setv(c.C, at, dbl, zero / zero);
         Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
         expectFail(&c, &v, seed, "one computed NaN", "1 element NaN, computed by the kernel (not left unwritten)");
         assert_non_null(strstr(v.message, where));
         assert_int_equal(v.unwritten, 0);
         if ((c.p.beta == 0.0) != (strstr(v.message, "with beta 0 is not to be read") != NULL))
            fail_msg("beta %g: the word on reading C: %s", c.p.beta, v.message);
         /* one of each, the unwritten first */
         size_t other = (at + 1) % Problem_sizeC(&c.p), first = other < at ? other : at;
         unwrite(c.C, other, dbl);
         Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
         snprintf(where, sizeof where, "first at (%zu,%zu)", first / 101, first % 101);
         expectFail(&c, &v, seed, "an unwritten element and a computed NaN",
                    "2 elements not finite (1 not written, 1 NaN computed, 0 Inf)");
         assert_non_null(strstr(v.message, where));
         /* the kernel wrote nothing at all */
         for (size_t i = 0; i < Problem_sizeC(&c.p); i++)
            unwrite(c.C, i, dbl);
         Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
         snprintf(where, sizeof where, "FAILED: %zu elements not written (NaN), first at (0,0)", Problem_sizeC(&c.p));
         expectFail(&c, &v, seed, "nothing written", where);
         assert_int_equal(v.non_finite, Problem_sizeC(&c.p));
         /* an infinity is reported as such */
         hostGemm(&c.p, c.A, c.B, c.C0, c.C, c.p.alpha, c.p.beta);
         setv(c.C, at, dbl, -INFINITY);
         Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
         expectFail(&c, &v, seed, "an infinity", "1 Inf");
         freeCase(&c);
      }
}

/* A single term of the K-sum dropped at K=512 (e.g. a loop bound off by one in the last
 * tile): far below what Freivalds can see, so it must be found by a sampled entry. */
static void test_dropped_term_in_sampled_entry(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 5;
   Rng r;
   Rng_seed(&r, seed);
   for (int pi = 0; pi < 2; pi++)
      for (int lay = 0; lay < 4; lay++)
         for (int corner = 0; corner < 4; corner++) {
            Case c;
            makeCase(&c, &r, 129, 97, 512, kPrecs[pi], lay & 1, lay & 2, -1.0, corner & 1 ? 0.0 : 0.5);
            bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
            size_t M = 129, N = 97;
            size_t i = corner & 1 ? M - 1 : 0, j = corner & 2 ? N - 1 : 0;
            /* the entry without one of its terms (one of typical size: |a b| >= 0.01) */
            size_t kk;
            do
               kk = (size_t)Rng_below(&r, 512);
            while (fabs(opA(&c.p, c.A, i, kk) * opB(&c.p, c.B, kk, j)) < 0.01);
            double term = c.p.alpha * opA(&c.p, c.A, i, kk) * opB(&c.p, c.B, kk, j);
            setv(c.C, i * N + j, dbl, getv(c.C, i * N + j, dbl) - term);
            VerifyResult v;
            Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed + (uint64_t)corner, &v);
            expectFail(&c, &v, seed, "a dropped K term in a corner", "of ");
            assert_int_equal(v.bad_samples, 1);
            assert_int_equal(v.first_bad_row, (int)i);
            assert_int_equal(v.first_bad_col, (int)j);
            assert_true(v.samples > 260 && v.samples < 300);
            char exp[96];
            snprintf(exp, sizeof exp, "FAILED: 1 of %zu sampled entries wrong, first at (%zu,%zu): got ", v.samples, i,
                     j);
            assert_non_null(strstr(v.message, exp));
            freeCase(&c);
         }
   /* In a small C every entry is sampled, so the position does not matter. */
   for (int pi = 0; pi < 2; pi++) {
      Case c;
      makeCase(&c, &r, 61, 63, 512, kPrecs[pi], true, false, 1.0, 0.0);
      bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
      size_t at = (size_t)Rng_below(&r, 61 * 63), i = at / 63, j = at % 63, kk;
      do
         kk = (size_t)Rng_below(&r, 512);
      while (fabs(opA(&c.p, c.A, i, kk) * opB(&c.p, c.B, kk, j)) < 0.01);
      double term = opA(&c.p, c.A, i, kk) * opB(&c.p, c.B, kk, j);
      setv(c.C, at, dbl, getv(c.C, at, dbl) - term);
      VerifyResult v;
      Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
      expectFail(&c, &v, seed, "a dropped K term", "1 of 3843 sampled entries wrong");
      assert_int_equal(v.first_bad_row, (int)i);
      assert_int_equal(v.first_bad_col, (int)j);
      freeCase(&c);
   }
}

/* A whole row (or column) wrong, written from its neighbour's data: Freivalds' test sees
 * it whether or not a sample falls in it, and names it.  C is tall (or wide) so that most
 * of the time no sample does. */
static void test_wrong_row_or_column(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 6;
   Rng r;
   Rng_seed(&r, seed);
   int by_freivalds = 0, runs = 0;
   for (int pi = 0; pi < 2; pi++)
      for (int lay = 0; lay < 4; lay++)
         for (int rep = 0; rep < 4; rep++) {
            const bool col = rep & 1;
            const int M = col ? 97 : 1501, N = col ? 1499 : 95;
            Case c;
            makeCase(&c, &r, M, N, 33, kPrecs[pi], lay & 1, lay & 2, 1.0, rep & 2 ? 0.0 : 2.0);
            bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
            size_t line = 1 + (size_t)Rng_below(&r, (uint64_t)(col ? N : M) - 2);
            if (col)
               for (size_t i = 0; i < (size_t)M; i++)
                  setv(c.C, i * N + line, dbl, getv(c.C, i * N + line + 1, dbl));
            else
               for (size_t j = 0; j < (size_t)N; j++)
                  setv(c.C, line * N + j, dbl, getv(c.C, (line + 1) * N + j, dbl));
            VerifyResult v;
            Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed + (uint64_t)rep, &v);
            expectFail(&c, &v, seed, col ? "a wrong column" : "a wrong row", NULL);
            if (!(v.freivalds_ratio > 1.0))
               fail_msg("seed %" PRIu64 ": a wrong %s passed Freivalds (ratio %g)", seed, col ? "column" : "row",
                        v.freivalds_ratio);
            runs++;
            if (v.bad_samples == 0) {
               char exp[64];
               snprintf(exp, sizeof exp, "its bound in %s %zu (", col ? "column" : "row", line);
               expectFail(&c, &v, seed, "a wrong row/column", "FAILED: Freivalds check off by ");
               /* With one random vector the check along the line itself misses it with a
                * small probability (its residual lands near 0: about 1e-4 in float here);
                * the other side then still fails every crossing line, and says so. */
               if (strstr(v.message, col ? ", 0 columns over)" : "(0 rows, ")) {
                  print_message("note: the %s check missed %s %zu by chance; the other side caught it: %s\n",
                                col ? "column" : "row", col ? "column" : "row", line, v.message);
                  freeCase(&c);
                  continue;
               }
               if (!strstr(v.message, exp))
                  fail_msg("seed %" PRIu64 ": '%s' does not name %s %zu", seed, v.message, col ? "column" : "row",
                           line);
               assert_int_equal(col ? v.first_bad_col : v.first_bad_row, (int)line);
               assert_int_equal(col ? v.first_bad_row : v.first_bad_col, -1);
               by_freivalds++;
            } else {
               assert_int_equal(col ? v.first_bad_col : v.first_bad_row, (int)line);
            }
            freeCase(&c);
         }
   print_message("wrong row/column: %d of %d found by Freivalds alone\n", by_freivalds, runs);
   /* the chance of a sample in the line is about 1 in 5: the Freivalds path was taken */
   assert_true(by_freivalds > 0);
}

/* Kernel bugs that change the whole result. */
static void test_global_mistakes(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 7;
   Rng r;
   Rng_seed(&r, seed);
   for (int pi = 0; pi < 2; pi++)
      for (int lay = 0; lay < 4; lay++) {
         bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
         const int S = 97; /* square, so a transposed C or a wrong op() has the right shape */
         Case c;
         makeCase(&c, &r, S, S, 131, kPrecs[pi], lay & 1, lay & 2, 1.75, -0.5);
         size_t nc = Problem_sizeC(&c.p), es = Precision_size(c.p.precision);
         void *bad = malloc(nc * es);
         assert_non_null(bad);
         VerifyResult v;

         /* C stored transposed */
         for (size_t i = 0; i < (size_t)S; i++)
            for (size_t j = 0; j < (size_t)S; j++)
               setv(bad, j * S + i, dbl, getv(c.C, i * S + j, dbl));
         Verify_gemm(&c.p, c.A, c.B, c.C0, bad, seed, &v);
         expectFail(&c, &v, seed, "a transposed C", NULL);
         assert_true(v.freivalds_ratio > 1.0);

         /* alpha used where beta should be, beta ignored, alpha ignored */
         const double ab[3][2] = {{1.75, 1.75}, {1.75, 0.0}, {1.0, -0.5}};
         const char *what[3] = {"alpha for beta", "beta ignored", "alpha ignored"};
         for (int t = 0; t < 3; t++) {
            hostGemm(&c.p, c.A, c.B, c.C0, bad, ab[t][0], ab[t][1]);
            Verify_gemm(&c.p, c.A, c.B, c.C0, bad, seed, &v);
            expectFail(&c, &v, seed, what[t], NULL);
            assert_true(v.freivalds_ratio > 1.0);
            assert_true(v.bad_samples > v.samples / 2);
         }

         /* op(A) or op(B) transposed the wrong way */
         for (int t = 0; t < 2; t++) {
            Problem wrong = c.p;
            if (t == 0)
               wrong.trans_a = !wrong.trans_a;
            else
               wrong.trans_b = !wrong.trans_b;
            hostGemm(&wrong, c.A, c.B, c.C0, bad, c.p.alpha, c.p.beta);
            Verify_gemm(&c.p, c.A, c.B, c.C0, bad, seed, &v);
            expectFail(&c, &v, seed, "a wrong transpose", NULL);
            assert_true(v.freivalds_ratio > 1.0);
         }

         /* only the first 128 of the 131 terms of K summed (a last partial tile skipped) */
         for (size_t i = 0; i < (size_t)S; i++)
            for (size_t j = 0; j < (size_t)S; j++) {
               double acc = 0;
               for (size_t k = 0; k < 128; k++)
                  acc += opA(&c.p, c.A, i, k) * opB(&c.p, c.B, k, j);
               setv(bad, i * S + j, dbl, c.p.alpha * acc + c.p.beta * getv(c.C0, i * S + j, dbl));
            }
         Verify_gemm(&c.p, c.A, c.B, c.C0, bad, seed, &v);
         expectFail(&c, &v, seed, "a skipped partial K tile", NULL);
         assert_true(v.freivalds_ratio > 1.0);

         /* a double result computed in float (float accumulation, then widened) */
         if (dbl) {
            for (size_t i = 0; i < (size_t)S; i++)
               for (size_t j = 0; j < (size_t)S; j++) {
                  float acc = 0;
                  for (size_t k = 0; k < (size_t)c.p.k; k++)
                     acc += (float)opA(&c.p, c.A, i, k) * (float)opB(&c.p, c.B, k, j);
                  setv(bad, i * S + j, dbl, (float)(1.75f * acc + -0.5f * (float)getv(c.C0, i * S + j, dbl)));
               }
            Verify_gemm(&c.p, c.A, c.B, c.C0, bad, seed, &v);
            expectFail(&c, &v, seed, "float arithmetic in a double GEMM", NULL);
         }
         free(bad);
         freeCase(&c);
      }
}

/* The samples' tolerance is 8 eps at every K (Freivalds' grows as max(32, 4 sqrt(K)) eps),
 * and a sampled error is relative to the entry's rounding scale (exactScale): an entry
 * off by half the tolerance passes, by twice fails, at every K and in both precisions. */
static void test_tolerance_scaling(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 8;
   Rng r;
   Rng_seed(&r, seed);
   Problem p;
   Problem_setDefaults(&p);
   const int ks[] = {0, 1, 7, 64, 100, 1024, 4096, 65536, 1000000};
   for (int pi = 0; pi < 2; pi++)
      for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
         p.precision = kPrecs[pi];
         p.k = ks[t];
         double eps = pi ? DBL_EPSILON : FLT_EPSILON;
         double f = fmax(32.0, 4.0 * sqrt((double)ks[t]));
         assert_true(fabs(Verify_freivaldsTolerance(&p) - f * eps) <= 1e-12 * f * eps);
         assert_true(Verify_tolerance(&p) == 8.0 * eps);
      }

   const int kk[] = {5, 300, 1500};
   for (int pi = 0; pi < 2; pi++)
      for (size_t t = 0; t < sizeof kk / sizeof kk[0]; t++)
         for (int lay = 0; lay < 4; lay++) {
            Case c;
            makeCase(&c, &r, 37, 41, kk[t], kPrecs[pi], lay & 1, lay & 2, -1.3, lay & 1 ? 0.7 : 0.0);
            bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
            /* start from a C rounded from the exact entries */
            for (size_t i = 0; i < 37; i++)
               for (size_t j = 0; j < 41; j++) {
                  long double ref, scale;
                  exactScale(&c.p, &c, i, j, &ref, &scale);
                  setv(c.C, i * 41 + j, dbl, (double)ref);
               }
            const double tol = Verify_tolerance(&c.p);
            size_t at = (size_t)Rng_below(&r, 37 * 41), i = at / 41, j = at % 41;
            long double ref, scale;
            exactScale(&c.p, &c, i, j, &ref, &scale);
            const double factors[2] = {0.5, 2.0};
            for (int fi = 0; fi < 2; fi++) {
               double sign = Rng_below(&r, 2) ? 1.0 : -1.0;
               setv(c.C, at, dbl, (double)(ref + sign * factors[fi] * tol * scale));
               VerifyResult v;
               Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v);
               assert_true(v.tolerance == tol);
               assert_int_equal(v.samples, 37 * 41);
               /* the reported worst error is this entry's, within the storage rounding */
               if (fabs(v.max_rel_err / (factors[fi] * tol) - 1.0) > 0.1)
                  fail_msg("seed %" PRIu64 ": K=%d %s: error of %gx tol reported as %g (tol %g)", seed, kk[t],
                           Precision_name(kPrecs[pi]), factors[fi], v.max_rel_err, tol);
               if (fi == 0) {
                  expectOk(&c, &v, seed);
               } else {
                  expectFail(&c, &v, seed, "an entry off by 2x tol", "sampled entries wrong");
                  assert_int_equal(v.bad_samples, 1);
                  assert_int_equal(v.first_bad_row, (int)i);
                  assert_int_equal(v.first_bad_col, (int)j);
                  /* Freivalds' residual-outlier check may see this entry too, depending on N. */
               }
            }
            freeCase(&c);
         }
}

/* What a kernel computes at large K: float (or double) products summed in order, with a
 * fused multiply-add or not; and with the last product left out, or one counted twice.
 * The correct ones pass and the one-term mistakes fail (the tolerance once grew with K
 * until one dropped term hid under it from K of about 40,000). 16 x 16: every entry is a
 * sample. */
static void test_one_term_at_large_k(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 12;
   Rng r;
   Rng_seed(&r, seed);
   const struct {
      int k, pi;
   } cases[] = {{60000, 0}, {65536, 0}, {65536, 1}};
   double worst_ok = 0, least_bad = INFINITY;
   for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
      const size_t S = 16, K = (size_t)cases[t].k;
      const bool dbl = cases[t].pi == 1;
      Case c;
      makeCaseEx(&c, &r, (int)S, (int)S, (int)K, kPrecs[cases[t].pi], t & 1, t & 2, 1.0, 0.0, false);
      /* op(A) by rows, op(B) by columns, for plain loops */
      double *a = malloc(S * K * sizeof *a), *b = malloc(S * K * sizeof *b);
      assert_non_null(a);
      assert_non_null(b);
      for (size_t i = 0; i < S; i++)
         for (size_t k = 0; k < K; k++) {
            a[i * K + k] = opA(&c.p, c.A, i, k);
            b[i * K + k] = opB(&c.p, c.B, k, i);
         }
      /* 0: correct, 1: correct with fma, 2: the last term dropped, 3: the first counted twice */
      for (int variant = 0; variant < 4; variant++) {
         for (size_t i = 0; i < S; i++)
            for (size_t j = 0; j < S; j++) {
               const double *ai = a + i * K, *bj = b + j * K;
               size_t end = variant == 2 ? K - 1 : K;
               if (dbl) {
                  double acc = variant == 3 ? ai[0] * bj[0] : 0.0;
                  for (size_t k = 0; k < end; k++)
                     acc = variant == 1 ? fma(ai[k], bj[k], acc) : acc + ai[k] * bj[k];
                  setv(c.C, i * S + j, true, acc);
               } else {
                  float acc = variant == 3 ? (float)ai[0] * (float)bj[0] : 0.0f;
                  for (size_t k = 0; k < end; k++)
                     acc = variant == 1 ? fmaf((float)ai[k], (float)bj[k], acc) : acc + (float)ai[k] * (float)bj[k];
                  setv(c.C, i * S + j, false, acc);
               }
            }
         VerifyResult v;
         Verify_gemm(&c.p, c.A, c.B, NULL, c.C, seed + (uint64_t)variant, &v);
         if (variant < 2) {
            expectOk(&c, &v, seed);
            worst_ok = fmax(worst_ok, v.max_rel_err / v.tolerance);
         } else {
            expectFail(&c, &v, seed, variant == 2 ? "the last term dropped" : "a term counted twice",
                       "sampled entries wrong");
            least_bad = fmin(least_bad, v.max_rel_err / v.tolerance);
         }
      }
      free(a);
      free(b);
      freeCase(&c);
   }
   print_message("K 60000-65536: correct results reach %.3g of tol; one-term mistakes %.3g of it\n", worst_ok,
                 least_bad);
}

/* One element off by 0.1% of its magnitude, in an otherwise right result at 256 (the
 * case a race or one bad lane produces): the samples rarely hold it, so the residual
 * outlier check must. Both layouts of the residual (row, column) name where it is. */
static void test_isolated_element_error(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 11;
   Rng r;
   Rng_seed(&r, seed);
   for (int trial = 0; trial < 6; trial++) {
      Case c;
      const int n = 256;
      makeCase(&c, &r, n, n, n, kPrecs[trial % 2], trial & 2, trial & 4, 1.0, trial == 3 ? 0.5 : 0.0);
      bool dbl = c.p.precision == PRECISION_DOUBLE;
      VerifyResult v;
      Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed + (uint64_t)trial, &v);
      expectOk(&c, &v, seed);
      size_t at = (size_t)Rng_below(&r, (uint64_t)n * n);
      long double ref, mag;
      exactEntry(&c.p, &c, at / n, at % n, &ref, &mag);
      /* 0.1% of what the element sums (its value can be near zero): ~100x the tolerance. */
      double was = getv(c.C, at, dbl);
      setv(c.C, at, dbl, was + (Rng_below(&r, 2) ? 1e-3 : -1e-3) * (double)mag);
      Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed + (uint64_t)trial, &v);
      expectFail(&c, &v, seed, "one element off by 0.1%", "FAILED");
      if (!strstr(v.message, "sampled") && v.first_bad_row != (int)(at / n) && v.first_bad_col != (int)(at % n))
         fail_msg("seed %" PRIu64 ": the wrong element is at (%zu,%zu) but the message says: %s", seed, at / n, at % n,
                  v.message);
      /* The figure the message gives is the field of its check: the outliers' ratio, or
       * Freivalds' (each field holds its own check's alone). */
      const char *stands = strstr(v.message, "stands "), *off = strstr(v.message, "off by ");
      char figure[32];
      if (stands) {
         snprintf(figure, sizeof figure, "stands %.3gx", v.outlier_ratio);
         if (strncmp(stands, figure, strlen(figure)) || !(v.outlier_ratio > 1) || !(v.freivalds_ratio <= 1))
            fail_msg("seed %" PRIu64 ": outlier %.3g, Freivalds %.3g, message: %s", seed, v.outlier_ratio,
                     v.freivalds_ratio, v.message);
      } else if (off) {
         snprintf(figure, sizeof figure, "off by %.3gx", v.freivalds_ratio);
         if (strncmp(off, figure, strlen(figure)))
            fail_msg("seed %" PRIu64 ": Freivalds %.3g, message: %s", seed, v.freivalds_ratio, v.message);
      }
      freeCase(&c);
   }
}

/* What a real float kernel produces: sequential float accumulation over K=4096 of data in
 * [-1, 1] (and, harder, [0, 1]), alpha and beta applied in float. No false failures. */
static void test_float_k4096_passes(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 9;
   Rng r;
   Rng_seed(&r, seed);
   double worst_rel = 0, worst_frei = 0;
   for (int lay = 0; lay < 4; lay++)
      for (int positive = 0; positive < 2; positive++) {
         Case c;
         const int M = 47, N = 53, K = 4096;
         float alpha = (float)Rng_range(&r, 0.5, 2.0), beta = lay & 1 ? 0.0f : (float)Rng_range(&r, -2.0, -0.5);
         makeCaseEx(&c, &r, M, N, K, PRECISION_FLOAT, lay & 1, lay & 2, alpha, beta, false);
         double lo = positive ? 0.0 : -1.0;
         fillRandom(&r, c.A, Problem_sizeA(&c.p), false, lo, 1.0);
         fillRandom(&r, c.B, Problem_sizeB(&c.p), false, lo, 1.0);
         float *C = c.C;
         const float *C0 = c.C0;
         for (size_t i = 0; i < (size_t)M; i++)
            for (size_t j = 0; j < (size_t)N; j++) {
               float acc = 0.0f;
               for (size_t k = 0; k < (size_t)K; k++) {
                  float prod = (float)opA(&c.p, c.A, i, k) * (float)opB(&c.p, c.B, k, j);
                  acc += prod;
               }
               float out = alpha * acc;
               if (beta != 0.0f)
                  out += beta * C0[i * N + j];
               C[i * N + j] = out;
            }
         VerifyResult v;
         Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed + (uint64_t)lay, &v);
         expectOk(&c, &v, seed);
         worst_rel = fmax(worst_rel, v.max_rel_err / v.tolerance);
         worst_frei = fmax(worst_frei, v.freivalds_ratio);
         freeCase(&c);
      }
   print_message("float K=4096: worst sampled error %.3g of tol, worst Freivalds ratio %.3g\n", worst_rel, worst_frei);
}

/* The same seed gives the same verdict and the same samples. */
static void test_reproducible(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 10;
   Rng r;
   Rng_seed(&r, seed);
   Case c;
   makeCase(&c, &r, 150, 160, 40, PRECISION_FLOAT, false, true, 1.0, 1.0);
   VerifyResult v1, v2;
   Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v1);
   Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, seed, &v2);
   expectOk(&c, &v1, seed);
   assert_true(v1.freivalds_ratio == v2.freivalds_ratio);
   assert_true(v1.max_rel_err == v2.max_rel_err);
   assert_int_equal(v1.samples, v2.samples);
   assert_string_equal(v1.message, v2.message);
   freeCase(&c);
}

/* Bit for bit the same results whatever the thread count: the passes run in parallel but
 * each keeps its own summation order. Correct and broken results, odd sizes (some big
 * enough for the automatic mode to use threads), both precisions, all layouts. */
static bool sameResult(const VerifyResult *a, const VerifyResult *b) {
   return a->ok == b->ok && memcmp(&a->max_rel_err, &b->max_rel_err, sizeof a->max_rel_err) == 0 &&
          memcmp(&a->freivalds_ratio, &b->freivalds_ratio, sizeof a->freivalds_ratio) == 0 &&
          memcmp(&a->tolerance, &b->tolerance, sizeof a->tolerance) == 0 && a->non_finite == b->non_finite &&
          a->samples == b->samples && a->bad_samples == b->bad_samples && a->first_bad_row == b->first_bad_row &&
          a->first_bad_col == b->first_bad_col && strcmp(a->message, b->message) == 0;
}

static void test_parallel_matches_serial(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 11;
   Rng r;
   Rng_seed(&r, seed);
   const int threads[] = {2, 3, 8, 0}; /* forced counts, then automatic */
   size_t failed_seen = 0;
   for (int pi = 0; pi < 2; pi++)
      for (int lay = 0; lay < 4; lay++)
         for (int bz = 0; bz < 2; bz++) {
            int m = 1 + (int)Rng_below(&r, 300), n = 1 + (int)Rng_below(&r, 300), k = 1 + (int)Rng_below(&r, 200);
            double alpha = Rng_range(&r, 0.2, 2.0) * (Rng_below(&r, 2) ? -1 : 1);
            double beta = bz ? 0.0 : Rng_range(&r, -2.0, 2.0);
            Case c;
            makeCase(&c, &r, m, n, k, kPrecs[pi], lay & 1, lay & 2, alpha, beta);
            bool dbl = kPrecs[pi] == PRECISION_DOUBLE;
            char d[160];
            describe(&c, d, sizeof d);
            /* 0: correct; 1: one element 0.1% off; 2: one unwritten (poisoned); 3: one Inf;
             * 4: one row scaled by 1.01 */
            for (int bug = 0; bug < 5; bug++) {
               size_t at = (size_t)Rng_below(&r, Problem_sizeC(&c.p));
               size_t row = at / (size_t)n;
               double saved = getv(c.C, at, dbl);
               long double ref, mag;
               exactEntry(&c.p, &c, row, at % (size_t)n, &ref, &mag);
               if (bug == 1)
                  setv(c.C, at, dbl, (double)(ref + 0.001L * mag));
               else if (bug == 2)
                  unwrite(c.C, at, dbl);
               else if (bug == 3)
                  setv(c.C, at, dbl, INFINITY);
               else if (bug == 4)
                  for (size_t j = 0; j < (size_t)n; j++)
                     setv(c.C, row * (size_t)n + j, dbl, 1.01 * getv(c.C, row * (size_t)n + j, dbl));
               uint64_t vseed = Rng_next(&r);
               VerifyResult serial, par;
               Parallel_setThreads(1);
               Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, vseed, &serial);
               if (bug == 0)
                  expectOk(&c, &serial, seed);
               if (bug == 2 || bug == 3)
                  expectFail(&c, &serial, seed, "a non-finite element", bug == 2 ? "not written" : "Inf");
               failed_seen += !serial.ok;
               for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
                  Parallel_setThreads(threads[t]);
                  memset(&par, 0xA5, sizeof par);
                  Verify_gemm(&c.p, c.A, c.B, c.C0, c.C, vseed, &par);
                  if (!sameResult(&serial, &par))
                     fail_msg("seed %" PRIu64 ", %s, bug %d, %d threads: '%s' (freivalds %.17g, max rel %.17g) "
                              "differs from serial '%s' (freivalds %.17g, max rel %.17g)",
                              seed, d, bug, threads[t], par.message, par.freivalds_ratio, par.max_rel_err,
                              serial.message, serial.freivalds_ratio, serial.max_rel_err);
               }
               /* undo the bug */
               if (bug == 4)
                  hostGemm(&c.p, c.A, c.B, c.C0, c.C, c.p.alpha, c.p.beta);
               else
                  setv(c.C, at, dbl, saved);
            }
            freeCase(&c);
         }
   Parallel_setThreads(0);
   /* every case had two non-finite variants, so the failure paths were compared too */
   assert_true(failed_seen >= 2 * 16);
}

/* C's side as the device computes it (session_verify.c, verify.cl), made here independently
 * in long double from a C on the host: C x, |C| |x|, y^T C, |y|^T |C| with the plan's
 * vectors, the non-finite elements, C at the plan's samples. */
typedef struct OfC_ {
   double *v; /* cx, acx (M each), yc, ayc (N each), at (samples) */
   VerifyOfC of;
} OfC;

/* Whether element i of C holds Verify_poisonWord's bits (a double's: the word twice). */
static bool isPoisoned(const void *C, size_t i, bool dbl) {
   const uint32_t w = Verify_poisonWord(dbl ? STORAGE_F64 : STORAGE_F32);
   uint32_t got[2];
   memcpy(got, (const char *)C + i * (dbl ? 8 : 4), dbl ? 8 : 4);
   return got[0] == w && (!dbl || got[1] == w);
}

static void ofC(const Problem *p, const void *C, const VerifyPlan *plan, OfC *o) {
   const bool dbl = p->precision == PRECISION_DOUBLE;
   const size_t M = plan->m, N = plan->n;
   o->v = calloc(2 * M + 2 * N + plan->samples + 1, sizeof *o->v);
   assert_non_null(o->v);
   double *cx = o->v, *acx = cx + M, *yc = acx + M, *ayc = yc + N, *at = ayc + N;
   o->of = (VerifyOfC){.cx = cx, .acx = acx, .yc = yc, .ayc = ayc, .at = at};
   bool first = true;
   for (size_t i = 0; i < M; i++) {
      long double s = 0, a = 0;
      for (size_t j = 0; j < N; j++) {
         const double c = getv(C, i * N + j, dbl);
         if (!isfinite(c)) {
            o->of.nan += isnan(c) != 0;
            o->of.inf += isinf(c) != 0;
            o->of.unwritten += isPoisoned(C, i * N + j, dbl); /* by its bits, as verify.cl does */
            if (first)
               o->of.first = i * N + j, first = false;
         }
         s += (long double)c * plan->x[j];
         a += fabsl((long double)c) * fabs(plan->x[j]);
      }
      cx[i] = (double)s, acx[i] = (double)a;
   }
   for (size_t j = 0; j < N; j++) {
      long double s = 0, a = 0;
      for (size_t i = 0; i < M; i++) {
         const double c = getv(C, i * N + j, dbl);
         s += (long double)c * plan->y[i];
         a += fabsl((long double)c) * fabs(plan->y[i]);
      }
      yc[j] = (double)s, ayc[j] = (double)a;
   }
   for (size_t k = 0; k < plan->samples; k++)
      at[k] = getv(C, plan->at[k], dbl);
}

/* A message without its figures: the words two ways of summing must agree on. */
static void words(const char *msg, char *out, size_t len) {
   size_t n = 0;
   for (const char *c = msg; *c && n + 1 < len; c++)
      if (!strchr("0123456789.e+-", *c))
         out[n++] = *c;
   out[n] = '\0';
}

/* Verify_inputsOf (C's side computed elsewhere, as on the device) gives Verify_inputs's
 * verdict on every kind of result: right, one element off, unwritten, infinite, a row
 * scaled, a NaN computed (told from an unwritten one by its bits there as here); float and double, each layout, with and without beta. The sampled entries are
 * the same entries compared with the same values: their figures agree exactly. */
static void test_verdict_of_c_computed_elsewhere(void **state) {
   (void)state;
   const uint64_t seed = g_seed + 12;
   Rng r;
   Rng_seed(&r, seed);
   size_t failed = 0, checked = 0;
   for (int pi = 0; pi < 2; pi++)
      for (int lay = 0; lay < 4; lay++)
         for (int bz = 0; bz < 2; bz++) {
            Problem p = {.m = 16 + (int)Rng_below(&r, 200), .n = 16 + (int)Rng_below(&r, 200),
                         .k = 1 + (int)Rng_below(&r, 150), .precision = kPrecs[pi], .trans_a = lay & 1,
                         .trans_b = (lay & 2) != 0, .alpha = Rng_range(&r, 0.2, 2.0) * (Rng_below(&r, 2) ? -1 : 1),
                         .beta = bz ? 0.0 : Rng_range(&r, -2.0, 2.0)};
            Inputs in;
            assert_true(Inputs_random(&in, &p, Rng_next(&r)));
            const bool dbl = p.precision == PRECISION_DOUBLE;
            const size_t es = dbl ? sizeof(double) : sizeof(float);
            void *C = malloc(Problem_sizeC(&p) * es);
            assert_non_null(C);
            hostGemm(&p, in.a, in.b, in.c0, C, p.alpha, p.beta);
            const size_t n = (size_t)p.n;
            for (int bug = 0; bug < 6; bug++) {
               const size_t at = (size_t)Rng_below(&r, Problem_sizeC(&p)), row = at / n;
               const double saved = getv(C, at, dbl);
               if (bug == 1)
                  setv(C, at, dbl, saved + 0.01 * (fabs(saved) + 1));
               else if (bug == 2)
                  unwrite(C, at, dbl);
               else if (bug == 5)
                  setv(C, at, dbl, NAN);
               else if (bug == 3)
                  setv(C, at, dbl, -INFINITY);
               else if (bug == 4)
                  for (size_t j = 0; j < n; j++)
                     setv(C, row * n + j, dbl, 1.01 * getv(C, row * n + j, dbl));
               const uint64_t vseed = Rng_next(&r);
               VerifyResult host, dev;
               Verify_inputs(&p, &in, C, vseed, &host);
               VerifyPlan plan;
               assert_true(VerifyPlan_make(&plan, &p, vseed));
               OfC o;
               ofC(&p, C, &plan, &o);
               Verify_inputsOf(&p, &in, &plan, &o.of, NULL, &dev);
               char hw[256], dw[256];
               words(host.message, hw, sizeof hw);
               words(dev.message, dw, sizeof dw);
               if (host.ok != dev.ok || host.non_finite != dev.non_finite || host.unwritten != dev.unwritten ||
                   host.bad_samples != dev.bad_samples ||
                   host.max_rel_err != dev.max_rel_err || host.first_bad_row != dev.first_bad_row ||
                   host.first_bad_col != dev.first_bad_col || strcmp(hw, dw) ||
                   /* a right C's ratios differ by the two sums' rounding (in double, C's own
                    * noise); a wrong one's outlier ratio is against the median of that noise */
                   (host.ok && !(fabs(host.freivalds_ratio - dev.freivalds_ratio) <= 1e-2)))
                  fail_msg("seed %" PRIu64 ", %dx%dx%d, bug %d: host '%s' (freivalds %.17g), elsewhere '%s' "
                           "(freivalds %.17g)",
                           seed, p.m, p.n, p.k, bug, host.message, host.freivalds_ratio, dev.message,
                           dev.freivalds_ratio);
               if (bug == 0 && !dev.ok)
                  fail_msg("seed %" PRIu64 ": a right C failed: %s", seed, dev.message);
               if (bug >= 2 && dev.ok)
                  fail_msg("seed %" PRIu64 ": bug %d passed: %s", seed, bug, dev.message);
               failed += !dev.ok;
               checked++;
               free(o.v);
               VerifyPlan_free(&plan);
               if (bug == 4)
                  hostGemm(&p, in.a, in.b, in.c0, C, p.alpha, p.beta);
               else
                  setv(C, at, dbl, saved);
            }
            /* A plan drawn for another problem is refused, not read past its end. */
            Problem other = p;
            other.m += 1;
            VerifyPlan plan;
            assert_true(VerifyPlan_make(&plan, &other, 1));
            VerifyResult v;
            Verify_inputsOf(&p, &in, &plan, &(VerifyOfC){0}, NULL, &v); /* refused before anything is read */
            assert_false(v.ok);
            assert_non_null(strstr(v.message, "another problem"));
            VerifyPlan_free(&plan);
            free(C);
            Inputs_free(&in);
         }
   /* every case had five wrong variants */
   assert_true(failed >= checked / 2);
}

int main(void) {
   const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_correct_results_pass),
      cmocka_unit_test(test_beta_zero_does_not_read_c0),
      cmocka_unit_test(test_degenerate_sizes),
      cmocka_unit_test(test_unwritten_element),
      cmocka_unit_test(test_dropped_term_in_sampled_entry),
      cmocka_unit_test(test_wrong_row_or_column),
      cmocka_unit_test(test_global_mistakes),
      cmocka_unit_test(test_tolerance_scaling),
      cmocka_unit_test(test_one_term_at_large_k),
      cmocka_unit_test(test_isolated_element_error),
       cmocka_unit_test(test_float_k4096_passes),
      cmocka_unit_test(test_reproducible),
      cmocka_unit_test(test_parallel_matches_serial),
      cmocka_unit_test(test_verdict_of_c_computed_elsewhere),
   };
   return cmocka_run_group_tests(tests, groupSetup, NULL);
}
