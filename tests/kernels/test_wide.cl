/*@gemmtop
name:     test_wide
title:    A space of 161,051 configurations that all run alike (for the tests)
ladder:   test
step:     5
hidden:   yes
about:    The naive kernel with five knobs of eleven values each that change nothing: a
about:    space over 100,000 valid configurations, for the scale test of sweep --mpi
about:    (its ranks answer with recorded times: nothing of it is compiled there).
param:    KNOBA = 0 in 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ; a knob that changes nothing
param:    KNOBB = 0 in 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ; a knob that changes nothing
param:    KNOBC = 0 in 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ; a knob that changes nothing
param:    KNOBD = 0 in 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ; a knob that changes nothing
param:    KNOBE = 0 in 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 ; a knob that changes nothing
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
