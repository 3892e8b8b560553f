/*@gemmtop
name:     dcu6_lds_conflicts
title:    DCU 6: fewer LDS bank conflicts: reads split in halves, or padded LDS tiles
ladder:   dcu
step:     6
about:    Step 5 with a wavefront's LDS accesses spread over more banks, in one of two ways.
about:    HALVES=1 is the chapter's way: each work-item's run of 4 reads is split in two
about:    halves of 2, half a tile apart (SIZE_HALF = 32 elements with the default 64-wide
about:    tile): work-item tx computes columns 2tx, 2tx+1 and 32+2tx, 32+2tx+1 (rows alike),
about:    so neighbouring lanes read 2 elements apart instead of 4, and the Bs load goes from
about:    4-way to 2-way in double. The stores keep their runs of 4 (still 4-way). PADDING is
about:    gemmtop's further step, which also mends the stores. The LDS has 32 banks of 4 bytes; lanes that ask one bank for different words
about:    wait for each other. In step 5 a work-item reads its 4 values of B at Bs[k][4*tx+c]:
about:    neighbouring lanes are 4 elements apart, so in float 16 lanes fall on 8 banks (2-way
about:    conflict) and in double on 4 bank pairs (4-way); the tile stores, 4 neighbouring
about:    elements per work-item, collide the same way (4-way in both precisions with the
about:    default 16 x 16 group). Here every run of 4 elements is followed by PADDING unused
about:    elements: element (k, 4q+e) lives at [k][q*(4+PADDING) + e]. With PADDING=1 the
about:    lanes are 5 elements apart, an odd stride, and reach every bank once: loads and
about:    stores are conflict-free in float and double. HALVES=0 PADDING=0 is step 5 exactly; 2 leaves
about:    2-way conflicts (stores in float, loads and stores in double); 4 is worse than 0.
about:    Compare with gemmtop banks --set PADDING=0 and =1 (add --simd-width 64 for the
about:    DCU's 64-wide wavefront).
about:    The price: (4+PADDING)/4 times the LDS.
about:    Access count: as step 5, global reads 1/TSN + 1/TSM per multiply-add (1/32 with the
about:    default 64 x 64 tile) and 1/2 LDS read per multiply-add; the same accesses, served in
about:    fewer LDS passes.
about:    The chapter measured 16.62 GFLOPS for its step 6 (HALVES=1) on its DCU (its figure, not ours).
param:    WGX = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along N (each covers 4 columns; TSN = 4*WGX)
param:    WGY = 16 in 1, 2, 4, 8, 16, 32 ; work-items per group along M (each covers 4 rows; TSM = 4*WGY)
param:    TSK = 16 in 1, 2, 4, 8, 16, 32, 64 ; tile depth along K (rows of A and B per tile)
param:    HALVES = 1 in 0, 1 ; 1: each work-item's 4 rows and 4 columns as two pairs half a tile apart (the chapter's step 6)
param:    PADDING = 0 in 0, 1, 2, 3, 4 ; unused elements after each run of 4 in the LDS tiles (0: step 5's layout)
require:  M % (4 * WGY) == 0 ; M must be a multiple of 4*WGY (the rows of C one work-group covers)
require:  N % (4 * WGX) == 0 ; N must be a multiple of 4*WGX (the columns of C one work-group covers)
require:  K % TSK == 0 ; K must be a multiple of TSK
operands: A=T B=N
global:   N / 4, M / 4
local:    WGX, WGY
reuse:    A=4*WGX B=4*WGY
local_reuse: A=4 B=4
localmem: 2 * TSK * (WGY + WGX) * (4 + PADDING) * REAL_SIZE
sites:    0=As store, 1=Bs store, 2=As load, 3=Bs load
*/
#define TSM (4 * WGY)
#define TSN (4 * WGX)
#define NT (WGX * WGY)
#define RA (TSK * WGY) /* runs of 4 elements in an A tile */
#define RB (TSK * WGX) /* ... and in a B tile */
#define LA ((RA + NT - 1) / NT) /* runs per work-item, rounded up */
#define LB ((RB + NT - 1) / NT)
#define RUN (4 + PADDING) /* elements one run of 4 occupies in the LDS */
#define AT(i) ((i) / 4 * RUN + (i) % 4) /* where element i of a tile row is, padded */
#if HALVES
/* the chapter's SIZE_HALF: a work-item's pairs of columns (rows) are half a tile apart */
#define COL(t, c) ((c) / 2 * (TSN / 2) + 2 * (t) + (c) % 2)
#define ROW(t, r) ((r) / 2 * (TSM / 2) + 2 * (t) + (r) % 2)
#else
#define COL(t, c) (4 * (t) + (c))
#define ROW(t, r) (4 * (t) + (r))
#endif
__kernel GT_WORKGROUP(WGX, WGY, 1)
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real* A, const __global real* B,
          const real beta, __global real* C GT_TRACE_PARAM) {
   const int tx = get_local_id(0), ty = get_local_id(1);
   const int tid = ty * WGX + tx;
   const int row0 = get_group_id(1) * TSM, col0 = get_group_id(0) * TSN;
   __local real As[2][TSK][WGY * RUN]; /* element (k, 4q+e) at [k][q*RUN + e] */
   __local real Bs[2][TSK][WGX * RUN];
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
   /* Registers -> LDS buffer s, each run of 4 followed by PADDING unused elements. */
#define PUT(s)                                                                             \
   for (int l = 0; l < LA; l++) {                                                          \
      const int id = tid + l * NT;                                                         \
      if (RA % NT == 0 || id < RA) {                                                       \
         const int k = id / WGY, q = id % WGY;                                             \
         for (int e = 0; e < 4; e++)                                                       \
            LDS_STORE(0, &As[s][k][q * RUN + e], pa[l][e]);                                  \
      }                                                                                    \
   }                                                                                       \
   for (int l = 0; l < LB; l++) {                                                          \
      const int id = tid + l * NT;                                                         \
      if (RB % NT == 0 || id < RB) {                                                       \
         const int k = id / WGX, q = id % WGX;                                             \
         for (int e = 0; e < 4; e++)                                                       \
            LDS_STORE(1, &Bs[s][k][q * RUN + e], pb[l][e]);                                  \
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
            a[r] = LDS_LOAD(2, &As[cur][k][AT(ROW(ty, r))]);
         for (int c = 0; c < 4; c++)
            b[c] = LDS_LOAD(3, &Bs[cur][k][AT(COL(tx, c))]);
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
         const size_t idx = (size_t)(row0 + ROW(ty, r)) * N + col0 + COL(tx, c);
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[r][c] : alpha * acc[r][c] + beta * C[idx]);
      }
}
