/*@gemmtop
name:     test_holes
title:    Deliberately wrong in one element (for the tests): unwritten, infinite or slightly off
ladder:   test
step:     4
hidden:   yes
about:    The naive kernel with one element of C, at (M/2, N/2), left as it was (HOLE=1: the
about:    poison shows), made infinite (HOLE=2), or moved by a thousandth of its size (HOLE=3).
about:    The checks of C on the device and on the host must both find each (--verify-on).
param:    HOLE = 1 in 0, 1, 2, 3 ; 0 correct; 1 unwritten; 2 infinite; 3 off by 1e-3 of itself
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
   const bool hole = row == M / 2 && col == N / 2;
   if (HOLE == 1 && hole)
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
   real c = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
   if (HOLE == 2 && hole)
      c = c / REAL_ZERO + (real)1; /* an infinity, whatever c's sign (c is not 0 for random inputs) */
   if (HOLE == 3 && hole)
      c += c * (real)1e-3;
   C[idx] = c;
}
