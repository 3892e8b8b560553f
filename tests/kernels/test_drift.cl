/*@gemmtop
name:     test_drift
title:    Deliberately unstable (for the tests): right once, different on every later launch
ladder:   test
step:     3
hidden:   yes
about:    The naive kernel that also reads C although beta is 0: on C poisoned with NaN (the
about:    verification run) it writes the right product, and on every later launch it adds
about:    half of what C held. Only the verified launch's C is right, which is what --out
about:    must write.
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
   const size_t idx = (size_t)row * N + col;
   const real was = C[idx];
   C[idx] = alpha * acc + (isnan(was) ? REAL_ZERO : was / 2) + beta * REAL_ZERO;
}
