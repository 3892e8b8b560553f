/*@gemmtop
name:     dcu2_reuse
title:    DCU 2: register reuse, 4 values of A and 4 of B per k feed 16 multiply-adds
ladder:   dcu
step:     2
about:    Step 1 with the loops turned inside out: the 16 sums of the work-item's 4x4 block
about:    live in registers, and for each k the work-item loads the 4 values of A
about:    (A[k*M+i0..i0+3], one row of the stored K x M matrix) and the 4 of B
about:    (B[k*N+j0..j0+3]) into registers once, then does all 16 multiply-adds with them.
about:    Each value now serves 4 multiply-adds instead of 1.
about:    Access count: the chapter's model counts (2+1/2)MNK accesses with 4x4 blocking,
about:    against 4MNK for a naive kernel. As written here: 8 global reads per 16
about:    multiply-adds, 1/2 per multiply-add (MNK/2 in all, plus 2MN for C), down from
about:    step 1's 2: a fourfold cut. The price is 16 accumulators and 8 operands held in
about:    registers (two VGPRs each in double: see inspect --backend hip --arch gfx906).
about:    The chapter measured 8.33 GFLOPS for this step on its DCU (its figure, not ours).
param:    WGX = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along N (each covers 4 columns)
param:    WGY = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along M (each covers 4 rows)
require:  M % (4 * WGY) == 0 ; M must be a multiple of 4*WGY (the rows of C one work-group covers)
require:  N % (4 * WGX) == 0 ; N must be a multiple of 4*WGX (the columns of C one work-group covers)
operands: A=T B=N
global:   N / 4, M / 4
local:    WGX, WGY
reuse:    A=4 B=4
*/
__kernel GT_WORKGROUP(WGX, WGY, 1)
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real* A, const __global real* B,
          const real beta, __global real* C GT_TRACE_PARAM) {
   const int i0 = get_global_id(1) * 4; /* first row of this work-item's block */
   const int j0 = get_global_id(0) * 4; /* first column */
   real acc[4][4];
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++)
         acc[r][c] = REAL_ZERO;
   real a[4], b[4];
   for (int k = 0; k < K; k++) {
      /* 4 + 4 loads from global memory ... */
      for (int r = 0; r < 4; r++)
         a[r] = GT_LOAD_A(A[(size_t)k * M + i0 + r]);
      for (int c = 0; c < 4; c++)
         b[c] = GT_LOAD_B(B[(size_t)k * N + j0 + c]);
      /* ... feed 16 multiply-adds from registers. */
      for (int r = 0; r < 4; r++)
         for (int c = 0; c < 4; c++)
            GT_FMA(acc[r][c], a[r], b[c]);
   }
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) {
         const size_t idx = (size_t)(i0 + r) * N + j0 + c;
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[r][c] : alpha * acc[r][c] + beta * C[idx]);
      }
}
