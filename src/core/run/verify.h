/* Verification of a GEMM result on the host, in extended precision.
 *
 * Two independent checks, both against the inputs as the device saw them:
 *  - Freivalds' test: random vectors x, y; compares C*x with alpha*A*(B*x) + beta*C0*x
 *    and y^T*C with alpha*(y^T*A)*B + beta*y^T*C0, O(MN + MK + KN) work each.
 *  - Exactly computed sample entries (corners, edges, random positions), each compared
 *    element-wise. Their elements of A and B come from Inputs_operandAt, recomputed from
 *    the seed when the inputs were generated: code other than the matrices' passes.
 * The sums are compensated doubles (Kahan's in the passes, exact products and two-sums in
 * the samples), every pass spread over all the cores.
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
 * for tf32 they are the FP32 values, whose rounding to TF32 is the kernel's job.
 *
 * The FP8 tensor core (Hopper's wgmma e4m3/e5m2) does not sum in FP32: a kernel that says
 * so (`accumulate: fp8-tensor-core`, docs/kernel-guide.md), and cuBLASLt's FP8 GEMM, are
 * checked with its accumulator's error added (VerifyAccumulation). The model (DeepSeek-V3's
 * report measured about 14 bits kept; what the hardware does is not published): each wgmma
 * k-step adds n = 32 exact products to the accumulator by aligning them and the running
 * sum to the largest one's exponent and keeping 13 fraction bits, cut toward zero; every L
 * products (the promotion interval; all of K when never promoted) the accumulator is added
 * into FP32 registers and starts afresh. In step g of an interval, with m_g the largest of
 * the running sum before and after it and of the step's products (in the interval's own
 * sum s, restarted at each promotion), each of the n + 1 aligned terms loses less than
 * u m_g, u = 2^-13. The losses' signs follow the terms', mixed in a GEMM, so they add up like
 * a random walk, and the sample entries' bound gets
 *   2 u |alpha| sqrt(sum_g n m_g^2)
 * more (2: the margin; an emulation of the model, tests/unit/test_fp8.c, stays under 0.6
 * of it at K up to 16384 never promoted, under 0.15 promoted every 128). With L = 128 this
 * is far below one dropped or repeated 128-deep k-block, a wrong scale or rows swapped,
 * which test_fp8 shows failing at K = 1030, 4096 and 16384; never promoted, it grows like
 * sqrt(K) u |s|, and a dropped k-block at K = 16384 is then only about its size: caught in
 * about half of the entries (test_fp8 drops its largest), not all (the reason for
 * promotion). Freivalds' test takes the same term's worst case over all
 * data, 2 u sqrt(L) sum |p| (m_g at most the interval's sum |p|). */
#ifndef GEMMTOP_VERIFY_H
#define GEMMTOP_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model/inputs.h"
#include "core/model/problem.h"

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

/* The run's inputs as the device saw them: Verify_gemm on A, B and C0, for the FP8 types
 * with each element of A and B times its scale (exact in double), with FP32 accumulation's
 * tolerance; the sample entries' elements from Inputs_operandAt. */
void Verify_inputs(const Problem *p, const Inputs *in, const void *C, uint64_t seed, VerifyResult *out);

/* Fills count elements of C, stored as kind (float or double), with the pattern of an
 * element not written: a signalling NaN with a payload of ours. Arithmetic gives only quiet
 * NaNs, so a kernel that computes NaN is not taken for one that wrote nothing. */
void Verify_poison(void *C, size_t count, Storage kind);
/* That pattern as a 32-bit word which, repeated, fills C (a double's is the word twice):
 * what a device fills C with (Backend.fill) and its verification kernels compare with. */
uint32_t Verify_poisonWord(Storage kind);

/* How the products were summed: FP32 throughout ({0}, what Verify_inputs assumes), or in the
 * FP8 tensor core's accumulator, added into FP32 every `interval` products (0: never). */
typedef struct VerifyAccumulation_ {
   bool fp8_tensor_core;
   long long interval;
} VerifyAccumulation;

/* "FP8 tensor-core accumulation, promoted every 128" ("" for FP32): what a report names. */
const char *VerifyAccumulation_name(const VerifyAccumulation *acc, char *buf, size_t len);

/* Verify_inputs of a C that was rounded to a narrower format after the sum and widened
 * back to the problem's output type (a vendor library's bfloat16 C): both tolerances get
 * that format's epsilon more, which |c| <= sum |a b| bounds on their scales. */
void Verify_inputsRounded(const Problem *p, const Inputs *in, const void *C, Storage rounded, uint64_t seed,
                          VerifyResult *out);
/* Verify_inputsRounded with the products summed as acc says (NULL: FP32); the message then
 * names it beside the tolerance ("tol 9.5e-07 + FP8 tensor-core accumulation"). */
void Verify_inputsAccumulated(const Problem *p, const Inputs *in, const void *C, Storage rounded,
                              const VerifyAccumulation *acc, uint64_t seed, VerifyResult *out);

/* C's side of the check computed where C is (on the device: core/run/session_verify.c), so that
 * C itself need not be read back: the random vectors and sample positions drawn from a seed
 * exactly as Verify_inputs draws them (VerifyPlan), then what C gives with them
 * (VerifyOfC), compared by Verify_inputsOf with what the host computes from the inputs. */
typedef struct VerifyPlan_ {
   size_t m, n;          /* C's shape */
   double *x, *y;        /* Freivalds' vectors: x has n entries, y has m */
   size_t *at;           /* the sample entries, as linear indices into C (row-major), ascending */
   size_t samples;       /* their count */
} VerifyPlan;

/* The draws of seed for p (nothing drawn for an empty C); false when out of memory. */
bool VerifyPlan_make(VerifyPlan *plan, const Problem *p, uint64_t seed);
void VerifyPlan_free(VerifyPlan *plan);

/* What C gives with a plan's draws, as the host's pass over C would compute it: sums in
 * double, compensated. */
typedef struct VerifyOfC_ {
   const double *cx, *acx;  /* m: C x and |C| |x| */
   const double *yc, *ayc;  /* n: y^T C and |y|^T |C| */
   size_t nan, inf;         /* C's elements that are NaN, that are infinite */
   size_t unwritten;        /* of the NaN, those still Verify_poison's pattern */
   size_t first;            /* the first of those, as a linear index (when there is one) */
   const double *at;        /* C at the plan's sample entries, widened to double */
} VerifyOfC;

/* Verify_inputs with C's side given: the same checks, bounds and messages. */
void Verify_inputsOf(const Problem *p, const Inputs *in, const VerifyPlan *plan, const VerifyOfC *of,
                     const VerifyAccumulation *acc, VerifyResult *out);

/* The sample entries' tolerance: 8 eps of the accumulation (see above; + 2^-9 for tf32). */
double Verify_tolerance(const Problem *p);
/* Freivalds' tolerance: max(32, 4 sqrt(K)) eps of the accumulation (+ 2^-9 for tf32). */
double Verify_freivaldsTolerance(const Problem *p);

/* Each pass runs on Parallel_threads() threads (base/parallel.h); the result is the same bit
 * for bit whatever their count. */

#endif
