/*@gemmtop
name:     dcu4_lds
title:    DCU 4: tiles of A and B in local memory (LDS), K-blocking
ladder:   dcu
step:     4
about:    The work-group now shares its operands. It covers a TSM x TSN block of C (TSM =
about:    4*WGY rows, TSN = 4*WGX columns) and walks K in tiles of TSK: the group copies a
about:    TSK x TSM tile of A and a TSK x TSN tile of B into local memory (AMD: the LDS,
about:    64 KiB per compute unit), waits at a barrier, and each work-item then runs step 2's
about:    loop from the LDS: per k, 4 values of A and 4 of B into registers, 16 multiply-adds.
about:    In TN the tiles need no transposing: row k of the stored A (K x M) is already a row
about:    of the tile, As[k][m]. Each work-item copies runs of 4 neighbouring elements
about:    (TSK*WGY runs of A and TSK*WGX of B per tile, spread over the WGX*WGY work-items).
about:    Access count: the chapter's model gives about MNK/2 accesses with K-blocking. As
about:    written here, each value of A or B is read from global memory once per work-group
about:    instead of once by every work-item that uses it, so global reads fall to 1/TSN + 1/TSM per
about:    multiply-add (1/32 with the default 64 x 64 tile; 1/2 in steps 2-3, 2 in step 1),
about:    plus 2MN for C; the 1/2 per multiply-add of steps 2-3 are now LDS reads (and 1/32
about:    LDS writes). Two barriers per tile; step 3's register prefetch is not used here.
about:    The chapter measured 14.02 GFLOPS for this step on its DCU (its figure, not ours).
param:    WGX = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along N (each covers 4 columns; TSN = 4*WGX)
param:    WGY = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along M (each covers 4 rows; TSM = 4*WGY)
param:    TSK = 16 in 1, 2, 4, 8, 16, 32, 64 ; tile depth along K (rows of A and B per tile)
require:  M % (4 * WGY) == 0 ; M must be a multiple of 4*WGY (the rows of C one work-group covers)
require:  N % (4 * WGX) == 0 ; N must be a multiple of 4*WGX (the columns of C one work-group covers)
require:  K % TSK == 0 ; K must be a multiple of TSK
operands: A=T B=N
global:   N / 4, M / 4
local:    WGX, WGY
reuse:    A=4*WGX B=4*WGY
local_reuse: A=4 B=4
localmem: TSK * (4 * WGY + 4 * WGX) * REAL_SIZE
sites:    0=As store, 1=Bs store, 2=As load, 3=Bs load
*/
#define TSM (4 * WGY)
#define TSN (4 * WGX)
#define NT (WGX * WGY)
#define RA (TSK * WGY) /* runs of 4 elements in an A tile */
#define RB (TSK * WGX) /* ... and in a B tile */
#define LA ((RA + NT - 1) / NT) /* runs per work-item, rounded up */
#define LB ((RB + NT - 1) / NT)
__kernel GT_WORKGROUP(WGX, WGY, 1)
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real* A, const __global real* B,
          const real beta, __global real* C GT_TRACE_PARAM) {
   const int tx = get_local_id(0), ty = get_local_id(1);
   const int tid = ty * WGX + tx;
   const int row0 = get_group_id(1) * TSM, col0 = get_group_id(0) * TSN;
   __local real As[TSK][TSM];
   __local real Bs[TSK][TSN];
   real acc[4][4];
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++)
         acc[r][c] = REAL_ZERO;
   real a[4], b[4];
   const int tiles = K / TSK;
   for (int t = 0; t < tiles; t++) {
      /* Global -> LDS: run q of row k of each tile, 4 neighbouring elements. */
      for (int l = 0; l < LA; l++) {
         const int id = tid + l * NT;
         if (RA % NT == 0 || id < RA) {
            const int k = id / WGY, q = id % WGY;
            const size_t g = (size_t)(t * TSK + k) * M + row0 + 4 * q;
            for (int e = 0; e < 4; e++)
               LDS_STORE(0, &As[k][4 * q + e], GT_LOAD_A(A[g + e]));
         }
      }
      for (int l = 0; l < LB; l++) {
         const int id = tid + l * NT;
         if (RB % NT == 0 || id < RB) {
            const int k = id / WGX, q = id % WGX;
            const size_t g = (size_t)(t * TSK + k) * N + col0 + 4 * q;
            for (int e = 0; e < 4; e++)
               LDS_STORE(1, &Bs[k][4 * q + e], GT_LOAD_B(B[g + e]));
         }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      /* Step 2's loop, from the LDS. Unrolled by 2 only: unrolled fully, hipRTC's
       * scheduler for gfx906 hoists all TSK steps' LDS reads ahead of the arithmetic in
       * steps 5-6 (256 VGPRs and spills in double; see inspect --backend hip --arch
       * gfx906). */
#pragma unroll 2
      for (int k = 0; k < TSK; k++) {
         for (int r = 0; r < 4; r++)
            a[r] = LDS_LOAD(2, &As[k][4 * ty + r]);
         for (int c = 0; c < 4; c++)
            b[c] = LDS_LOAD(3, &Bs[k][4 * tx + c]);
         for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
               GT_FMA(acc[r][c], a[r], b[c]);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) {
         const size_t idx = (size_t)(row0 + 4 * ty + r) * N + col0 + 4 * tx + c;
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[r][c] : alpha * acc[r][c] + beta * C[idx]);
      }
}
