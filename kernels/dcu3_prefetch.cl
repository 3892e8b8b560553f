/*@gemmtop
name:     dcu3_prefetch
title:    DCU 3: register prefetch, the next k's values load while this k computes
ladder:   dcu
step:     3
about:    Step 2 with the loads of k+1 issued before the 16 multiply-adds of k: two sets of
about:    operand registers (this k's a[4], b[4] and the next k's), swapped after each step.
about:    A global load takes hundreds of cycles; in step 2 the multiply-adds of k wait for
about:    the loads of k. Here they use values loaded one step earlier, so the latency of
about:    the next loads hides behind this step's arithmetic (software pipelining).
about:    Access count: unchanged from step 2, 1/2 global read per multiply-add (MNK/2, plus
about:    2MN for C, and the last row read twice); what changes is when the reads are
about:    issued, not how many. 8 more operand registers (16 more VGPRs in double).
about:    The chapter measured 13.85 GFLOPS for this step on its DCU (its figure, not ours).
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
   real a[4], b[4];     /* this k */
   real na[4], nb[4];   /* the next k, in flight */
   for (int r = 0; r < 4; r++)
      a[r] = GT_LOAD_A(A[i0 + r]);
   for (int c = 0; c < 4; c++)
      b[c] = GT_LOAD_B(B[j0 + c]);
   for (int k = 0; k < K; k++) {
      /* Issue the loads of k+1 first (the last step loads row k again: no branch, no
       * read past the end) ... */
      const int kn = k + 1 < K ? k + 1 : k;
      for (int r = 0; r < 4; r++)
         na[r] = GT_LOAD_A(A[(size_t)kn * M + i0 + r]);
      for (int c = 0; c < 4; c++)
         nb[c] = GT_LOAD_B(B[(size_t)kn * N + j0 + c]);
      /* ... then compute with the values loaded one step earlier. */
      for (int r = 0; r < 4; r++)
         for (int c = 0; c < 4; c++)
            GT_FMA(acc[r][c], a[r], b[c]);
      for (int r = 0; r < 4; r++)
         a[r] = na[r];
      for (int c = 0; c < 4; c++)
         b[c] = nb[c];
   }
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) {
         const size_t idx = (size_t)(i0 + r) * N + j0 + c;
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[r][c] : alpha * acc[r][c] + beta * C[idx]);
      }
}
