/*@gemmtop
name:     mygemm01_naive
title:    Naive: one work-item per element of C
ladder:   mygemm
step:     1
about:    Each work-item computes one element of C with a loop over K, reading A and B
about:    straight from global memory. Neighbouring work-items (dimension 0) read neighbouring
about:    columns of B, so B's loads coalesce; A's element is the same for a whole row.
about:    It accepts every layout (TRANSA/TRANSB) but needs M and N to be multiples of the
about:    work-group sides.
param:    TSN = 16 in 1, 2, 4, 8, 16, 32, 64, 128, 256 ; work-group width (along N)
param:    TSM = 16 in 1, 2, 4, 8, 16, 32, 64, 128, 256 ; work-group height (along M)
require:  N % TSN == 0 ; N must be a multiple of TSN
require:  M % TSM == 0 ; M must be a multiple of TSM
require:  M * K <= 2147483648 && K * N <= 2147483648 && M * N <= 2147483648 ; this kernel indexes A, B and C with 32-bit int, so none may have more than 2^31 elements (general_any indexes with size_t)
operands: any
global:   N, M
local:    TSN, TSM
reuse:    A=1 B=1
*/
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   real acc = REAL_ZERO;
   for (int k = 0; k < K; k++) {
#if TRANSA
      const real a = GT_LOAD_A(A[k * M + row]);
#else
      const real a = GT_LOAD_A(A[row * K + k]);
#endif
#if TRANSB
      const real b = GT_LOAD_B(B[col * K + k]);
#else
      const real b = GT_LOAD_B(B[k * N + col]);
#endif
      GT_FMA(acc, a, b);
   }
   const int idx = row * N + col;
   GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx]);
}
