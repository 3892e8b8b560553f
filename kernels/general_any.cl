/*@gemmtop
name:     general_any
title:    General: any size, any layout, bounds-checked (the safe reference)
ladder:   general
step:     0
about:    One work-item per element of C with a loop over K, like the naive kernel, but it
about:    checks its bounds and reads A and B as they are stored (TRANSA/TRANSB), so it accepts
about:    every problem: any M, N, K, all four layouts, float and double, any alpha and beta.
about:    Use it to check a result or as the baseline; it is not fast.
param:    TS = 16 in 8, 16, 32 ; work-group side (work-items along N and along M)
operands: any
global:   ceil(N, TS), ceil(M, TS)
local:    TS, TS
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
      const real a = GT_LOAD_A(A[(size_t)k * M + row]);
#else
      const real a = GT_LOAD_A(A[(size_t)row * K + k]);
#endif
#if TRANSB
      const real b = GT_LOAD_B(B[(size_t)col * K + k]);
#else
      const real b = GT_LOAD_B(B[(size_t)k * N + col]);
#endif
      GT_FMA(acc, a, b);
   }
   const size_t idx = (size_t)row * N + col;
   GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx]);
}
