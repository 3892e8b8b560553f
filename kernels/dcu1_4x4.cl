/*@gemmtop
name:     dcu1_4x4
title:    DCU 1: a 4x4 block of C per work-item, straight from global memory
ladder:   dcu
step:     1
about:    The DCU (HIP) chapter's setting: C = alpha*op(A)*op(B) + beta*C with the TN layout
about:    (A stored K x M, so op(A) = A^T; B stored K x N), double precision, M=64 N=64 K=128.
about:    In TN both operands are read along a row for a fixed k: A[k*M+i], B[k*N+j].
about:    Each work-item computes a 4x4 block of C (4 neighbouring rows, 4 neighbouring
about:    columns); a work-group of WGX x WGY work-items covers 4*WGY rows and 4*WGX columns.
about:    Each of the 16 elements is its own dot product, reading A and B straight from
about:    global memory, with the sum kept in a register and C read and written once.
about:    Access count: the chapter's model counts 4MNK global accesses for a naive kernel
about:    (A, B, and a read and a write of C per multiply-add) and (2+1/2)MNK with 4x4
about:    blocking. As written here: 2 global reads per multiply-add (one of A, one of B)
about:    plus 2MN for C, i.e. 2 + 2/K per multiply-add; nothing is reused yet.
about:    The chapter measured 2.54 GFLOPS for this step on its DCU (its figure, not ours).
param:    WGX = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along N (each covers 4 columns)
param:    WGY = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along M (each covers 4 rows)
require:  M % (4 * WGY) == 0 ; M must be a multiple of 4*WGY (the rows of C one work-group covers)
require:  N % (4 * WGX) == 0 ; N must be a multiple of 4*WGX (the columns of C one work-group covers)
operands: A=T B=N
global:   N / 4, M / 4
local:    WGX, WGY
reuse:    A=1 B=1
*/
__kernel GT_WORKGROUP(WGX, WGY, 1)
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real* A, const __global real* B,
          const real beta, __global real* C GT_TRACE_PARAM) {
   const int i0 = get_global_id(1) * 4; /* first row of this work-item's block */
   const int j0 = get_global_id(0) * 4; /* first column */
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) {
         /* One dot product per element: A and B come from global memory every time. */
         real acc = REAL_ZERO;
         for (int k = 0; k < K; k++)
            GT_FMA(acc, GT_LOAD_A(A[(size_t)k * M + i0 + r]), GT_LOAD_B(B[(size_t)k * N + j0 + c]));
         const size_t idx = (size_t)(i0 + r) * N + j0 + c;
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx]);
      }
}
