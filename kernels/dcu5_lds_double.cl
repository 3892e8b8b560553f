/*@gemmtop
name:     dcu5_lds_double
title:    DCU 5: double-buffered LDS, the next tile loads while this one computes
ladder:   dcu
step:     5
about:    Step 4 with two LDS buffers per operand and step 3's prefetch applied to whole
about:    tiles: at the top of tile t each work-item issues its global loads of tile t+1 into
about:    registers, multiplies tile t from one buffer, then writes the registers into the
about:    other buffer. The global latency hides behind TSK steps of arithmetic, and one
about:    barrier per tile is enough instead of two (nobody writes the buffer being read).
about:    The price: twice the LDS (fewer work-groups fit on a compute unit) and the
about:    registers that hold the tile in flight.
about:    Access count: as step 4, global reads 1/TSN + 1/TSM per multiply-add (1/32 with
about:    the default 64 x 64 tile) and 1/2 LDS read per multiply-add (the chapter's model:
about:    about MNK/2 with K-blocking); the gain is in overlap, not in fewer accesses.
about:    The chapter measured 15.07 GFLOPS for this step on its DCU (its figure, not ours).
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
localmem: 2 * TSK * (4 * WGY + 4 * WGX) * REAL_SIZE
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
   __local real As[2][TSK][TSM];
   __local real Bs[2][TSK][TSN];
   real acc[4][4];
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++)
         acc[r][c] = REAL_ZERO;
   real a[4], b[4];
   real pa[LA][4], pb[LB][4]; /* the next tile, in flight */
   const int tiles = K / TSK;
   /* Global -> registers: this work-item's runs of tile t. */
#define FETCH(t)                                                                           \
   for (int l = 0; l < LA; l++) {                                                          \
      const int id = tid + l * NT;                                                         \
      if (RA % NT == 0 || id < RA) {                                                       \
         const size_t g = (size_t)((t) * TSK + id / WGY) * M + row0 + 4 * (id % WGY);      \
         for (int e = 0; e < 4; e++)                                                       \
            pa[l][e] = GT_LOAD_A(A[g + e]);                                                           \
      }                                                                                    \
   }                                                                                       \
   for (int l = 0; l < LB; l++) {                                                          \
      const int id = tid + l * NT;                                                         \
      if (RB % NT == 0 || id < RB) {                                                       \
         const size_t g = (size_t)((t) * TSK + id / WGX) * N + col0 + 4 * (id % WGX);      \
         for (int e = 0; e < 4; e++)                                                       \
            pb[l][e] = GT_LOAD_B(B[g + e]);                                                           \
      }                                                                                    \
   }
   /* Registers -> LDS buffer s. */
#define PUT(s)                                                                             \
   for (int l = 0; l < LA; l++) {                                                          \
      const int id = tid + l * NT;                                                         \
      if (RA % NT == 0 || id < RA) {                                                       \
         const int k = id / WGY, q = id % WGY;                                             \
         for (int e = 0; e < 4; e++)                                                       \
            LDS_STORE(0, &As[s][k][4 * q + e], pa[l][e]);                                  \
      }                                                                                    \
   }                                                                                       \
   for (int l = 0; l < LB; l++) {                                                          \
      const int id = tid + l * NT;                                                         \
      if (RB % NT == 0 || id < RB) {                                                       \
         const int k = id / WGX, q = id % WGX;                                             \
         for (int e = 0; e < 4; e++)                                                       \
            LDS_STORE(1, &Bs[s][k][4 * q + e], pb[l][e]);                                  \
      }                                                                                    \
   }
   FETCH(0);
   PUT(0);
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int t = 0; t < tiles; t++) {
      const int cur = t & 1;
      if (t + 1 < tiles) {
         FETCH(t + 1);
      }
      /* Unrolled by 2 only: unrolled fully, hipRTC's scheduler for gfx906 hoists all TSK
       * steps' LDS reads ahead of the arithmetic in steps 5-6 (256 VGPRs and spills in
       * double; see inspect --backend hip --arch gfx906). */
#pragma unroll 2
      for (int k = 0; k < TSK; k++) {
         for (int r = 0; r < 4; r++)
            a[r] = LDS_LOAD(2, &As[cur][k][4 * ty + r]);
         for (int c = 0; c < 4; c++)
            b[c] = LDS_LOAD(3, &Bs[cur][k][4 * tx + c]);
         for (int r = 0; r < 4; r++)
            for (int c = 0; c < 4; c++)
               GT_FMA(acc[r][c], a[r], b[c]);
      }
      if (t + 1 < tiles) {
         PUT(cur ^ 1);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   for (int r = 0; r < 4; r++)
      for (int c = 0; c < 4; c++) {
         const size_t idx = (size_t)(row0 + 4 * ty + r) * N + col0 + 4 * tx + c;
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[r][c] : alpha * acc[r][c] + beta * C[idx]);
      }
}
