/*@gemmtop
name:     test_slow
title:    Deliberately endless (for the tests): SPIN=1 never finishes
ladder:   test
step:     4
hidden:   yes
about:    The naive kernel; with SPIN=1 every work-item first runs 2^40 dependent steps
about:    (hours on any device), for the tests of launch timeouts: a launch that does not
about:    end must be abandoned, not waited for.
param:    SPIN = 1 in 0, 1 ; 1 (the default, so that a sweep meets it first): spin (practically) forever
operands: any
global:   ceil(N, 16), ceil(M, 16)
local:    16, 16
*/
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   if (row >= M || col >= N)
      return;
   const size_t idx = (size_t)row * N + col;
#if SPIN
   /* Dependent steps on a value the compiler cannot know, whose result is used. */
   real x = A[0];
   for (long i = 0; i < (1L << 40); i++)
      x = x * (real)0.999999 + (real)1e-7;
   if (x == (real)12345.5)
      C[idx] = x;
#endif
   real acc = REAL_ZERO;
   for (int k = 0; k < K; k++) {
#if TRANSA
      const real a = A[(size_t)k * M + row];
#else
      const real a = A[(size_t)row * K + k];
#endif
#if TRANSB
      const real b = B[(size_t)col * K + k];
#else
      const real b = B[(size_t)k * N + col];
#endif
      acc += a * b;
   }
   C[idx] = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
}
