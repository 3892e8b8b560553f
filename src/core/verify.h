/* Verification of a GEMM result on the host, in extended precision.
 *
 * Two independent checks, both against the inputs as the device saw them:
 *  - Freivalds' test: random vectors x, y; compares C*x with alpha*A*(B*x) + beta*C0*x
 *    and y^T*C with alpha*(y^T*A)*B + beta*y^T*C0, O(MN + MK + KN) work each.
 *  - Exactly computed sample entries (corners, edges, random positions), each compared
 *    element-wise.
 * Plus a scan of all of C for non-finite values: C is poisoned before the run with a NaN
 * whose bits arithmetic never gives (Verify_poison), so unwritten elements are found,
 * counted, and told apart by their bits from a NaN that a kernel computed.
 *
 * The sample entries' errors are relative to the size of the rounding error that a
 * correct kernel can make in that entry, whatever order it sums the K products
 * p_k = a_ik b_kj in:
 *   |c - ref| / (|alpha| (sqrt(K) ||p||_2 + sqrt(sum_k s_k^2)) + |beta| |c0|)
 * where s_k are the partial sums in natural order. A sum's rounding error grows like
 * sqrt(K) times its partial sums: sqrt(K) ||p||_2 is what they reach in any order when
 * the products' signs are mixed, sqrt(sum s_k^2) what they reach in order when they
 * drift (same-sign data). The tolerance is then a constant, tol = 8 eps(precision), far
 * above what rounding gives (about 0.3 eps at worst over K = 65536 in float) and far
 * below one dropped or repeated product: with mixed-sign inputs a term left out is
 * caught at any K up to about 1/(8 eps) (a million in float). Inputs of one sign leave
 * less room: their rounding grows like sqrt(K) eps relative to the sum, which one term
 * (1/K of it) falls under beyond K of about 40,000 in float.
 *
 * Freivalds' test compares whole rows and columns, with a bound of
 *   ftol * (|alpha| sum_k |a_ik b_kj| + |beta| |c0_ij|), ftol = max(32, 4 sqrt(K)) eps,
 * summed over the row or column: a coarser net over every element of C, where the
 * samples are a fine one over a few.
 *
 * eps is the accumulation's: double's for double, FP32's for the others. For tf32 both
 * bounds get 2^-9 sum |p| more (the tolerances 2^-9 more): the most two FP32 inputs cut
 * to TF32 (10 fraction bits) can move their product; a sampled error is then reported on
 * the tolerance's scale, so that it passes exactly when it is under the tolerance. The
 * reference is exact in the inputs as stored, which for half and bfloat16 are already
 * rounded to the type (their products are exact in FP32, so only the accumulation errs);
 * for tf32 they are the FP32 values, whose rounding to TF32 is the kernel's job. */
#ifndef GEMMTOP_VERIFY_H
#define GEMMTOP_VERIFY_H

#include <stdint.h>

#include "core/inputs.h"
#include "core/problem.h"

typedef struct VerifyResult_ {
   bool ok;
   double max_rel_err;      /* worst sampled error, relative to its entry's rounding scale (above) */
   double freivalds_ratio;  /* worst Freivalds residual / its bound (<= 1 passes) */
   double outlier_ratio;    /* worst residual / the outlier threshold (<= 1 passes; 0 when not checked) */
   double tolerance;        /* the samples' tolerance (Verify_tolerance) */
   size_t non_finite;       /* elements of C that are NaN or Inf, unwritten ones included */
   size_t unwritten;        /* of those, still Verify_poison's pattern */
   size_t samples;          /* sample entries checked */
   size_t bad_samples;      /* sample entries over tolerance */
   int first_bad_row, first_bad_col; /* -1 if none */
   char message[256];       /* one line: "verified (max rel err 1.2e-07, tol 7.6e-06)" or what failed */
} VerifyResult;

/* A, B, C0 (C before the run; may be NULL when beta == 0) and C (after) are stored as the
 * problem says (transposes; A and B in its input type, C0 and C in its output type). seed
 * makes the random vectors and sample positions reproducible. */
void Verify_gemm(const Problem *p, const void *A, const void *B, const void *C0, const void *C, uint64_t seed,
                 VerifyResult *out);

/* The run's inputs as the device saw them: Verify_gemm on A, B and C0, or for the FP8 types
 * on A and B times their scales (exact in double), with FP32 accumulation's tolerance. */
void Verify_inputs(const Problem *p, const Inputs *in, const void *C, uint64_t seed, VerifyResult *out);

/* Fills count elements of C, stored as kind (float or double), with the pattern of an
 * element not written: a signalling NaN with a payload of ours. Arithmetic gives only quiet
 * NaNs, so a kernel that computes NaN is not taken for one that wrote nothing. */
void Verify_poison(void *C, size_t count, Storage kind);

/* The sample entries' tolerance: 8 eps of the accumulation (see above; + 2^-9 for tf32). */
double Verify_tolerance(const Problem *p);
/* Freivalds' tolerance: max(32, 4 sqrt(K)) eps of the accumulation (+ 2^-9 for tf32). */
double Verify_freivaldsTolerance(const Problem *p);

/* How many threads Verify_gemm may use for its independent passes (the result is the same
 * bit for bit whatever the count): 0 = automatic (the online CPUs, serial for small
 * matrices), 1 = serial, n > 1 = up to n threads whatever the size (tests use it to
 * compare the parallel path with the serial one). Process-wide. */
void Verify_setThreads(int n);

#endif
