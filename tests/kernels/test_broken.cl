/*@gemmtop
name:     test_broken
title:    Deliberately wrong (for the tests): drops the last term of every dot product
ladder:   test
step:     1
hidden:   yes
about:    The naive kernel with its K loop stopping one short. The result is close to right
about:    (off by one term in K), which is exactly what verification must catch.
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
   for (int k = 0; k < K - 1; k++) {
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
   C[idx] = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
}
