/* Verification of a GEMM result on the host, in extended precision.
 *
 * Two independent checks, both against the inputs as the device saw them:
 *  - Freivalds' test: random vectors x, y; compares C*x with alpha*A*(B*x) + beta*C0*x
 *    and y^T*C with alpha*(y^T*A)*B + beta*y^T*C0, O(MN + MK + KN) work each.
 *  - Exactly computed sample entries (corners, edges, random positions), each compared
 *    element-wise.
 * Plus a scan of all of C for non-finite values: C is poisoned with NaN before the run,
 * so unwritten elements are found and counted.
 *
 * Errors are relative to the magnitude of what was summed:
 *   |c - ref| / (|alpha| * sum_k |a_ik b_kj| + |beta| |c0_ij|)
 * and the tolerance scales with K and the precision of the accumulation:
 *   tol = max(32, 4*sqrt(K)) * eps      eps: double's for double, FP32's for the others
 * plus, for tf32, 2^-9: the most two FP32 inputs cut to TF32 (10 fraction bits) can move
 * their product. The reference is exact in the inputs as stored, which for half and
 * bfloat16 are already rounded to the type (their products are exact in FP32, so only
 * the accumulation errs); for tf32 they are the FP32 values, whose rounding to TF32 is
 * the kernel's job and what the extra 2^-9 covers.                                   */
#ifndef GEMMTOP_VERIFY_H
#define GEMMTOP_VERIFY_H

#include <stdint.h>

#include "core/problem.h"

typedef struct VerifyResult_ {
   bool ok;
   double max_rel_err;      /* worst element-wise relative error over the sample entries */
   double freivalds_ratio;  /* worst Freivalds residual / its bound (<= 1 passes) */
   double tolerance;        /* the element-wise tolerance used */
   size_t non_finite;       /* elements of C that are NaN or Inf (unwritten if poisoned) */
   size_t samples;          /* sample entries checked */
   size_t bad_samples;      /* sample entries over tolerance */
   int first_bad_row, first_bad_col; /* -1 if none */
   char message[256];       /* one line: "verified (max rel err 1.2e-07, tol 7.6e-06)" or what failed */
} VerifyResult;

/* A, B, C0 (C before the run; may be NULL when beta == 0) and C (after) are stored as the
 * problem says (transposes; A and B in its input type, C0 and C in its output type). seed makes the random vectors and sample positions
 * reproducible. */
void Verify_gemm(const Problem *p, const void *A, const void *B, const void *C0, const void *C, uint64_t seed,
                 VerifyResult *out);

double Verify_tolerance(const Problem *p);

/* How many threads Verify_gemm may use for its independent passes (the result is the same
 * bit for bit whatever the count): 0 = automatic (the online CPUs, serial for small
 * matrices), 1 = serial, n > 1 = up to n threads whatever the size (tests use it to
 * compare the parallel path with the serial one). Process-wide. */
void Verify_setThreads(int n);

#endif
