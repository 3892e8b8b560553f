/*@gemmtop
name:     fast02_warptile
title:    Warp tiles: each warp owns a compact WM x WN piece of the block
ladder:   fast
step:     2
tune:     yes
about:    Builds on fast 1. The work-group's BM x BN block is split among its warps, each
about:    warp a WM x WN tile and each lane of the warp an (WM/LY) x (WN/LX) micro tile
about:    (LY = 32/LX), in groups of 4 rows and 4 columns spaced 4*LY and 4*LX apart. A
about:    warp then reads from local memory only the WM + WN values its tile needs per step
about:    of k, as real4 loads that fill whole wavefronts, and its lanes' accumulators
about:    stay in registers for the whole K loop. AMAP=1 lets consecutive lanes load
about:    consecutive rows of A, so the transposed store into local memory is free of bank
about:    conflicts (AMAP=0 loads along K, which coalesces better but conflicts on the
about:    store); PADA pads the rows of the transposed A tile. GROUP orders the blocks in
about:    bands of GROUP block-rows so that blocks running together share tiles in L2.
about:    Both local arrays are declared 16-byte aligned: without it NVIDIA's OpenCL
about:    compiler splits every real4 local load into four scalar ones (the H100 lost 20%).
about:    Double-buffered like fast 1.
param:    BM = 128 in 64, 128, 256 ; rows of C per work-group
param:    BN = 128 in 64, 128, 256 ; columns of C per work-group
param:    BK = 8 in 8, 16, 32 ; depth of one step along K
param:    WM = 64 in 16, 32, 64, 128 ; rows of the warp tile
param:    WN = 32 in 16, 32, 64, 128 ; columns of the warp tile
param:    LX = 4 in 2, 4, 8, 16 ; lanes of a warp along N (32/LX along M)
param:    AMAP = 1 in 0, 1 ; A loads: 0 lanes along K, 1 lanes along M (conflict-free store)
param:    PADA = 0 in 0, 4 ; padding of each row of the transposed A tile
param:    GROUP = 1 in 1, 4, 8, 16 ; block-rows per band of the launch order (1: row by row)
require:  BM % WM == 0 && BN % WN == 0 ; the block must split into warp tiles
require:  WM % (4 * (32 / LX)) == 0 && WN % (4 * LX) == 0 ; each lane's micro tile must be groups of 4 rows and 4 columns
require:  (WM / (32 / LX)) * (WN / LX) * REAL_SIZE <= 512 ; at most 512 bytes of accumulators per work-item (128 floats or 64 doubles), or registers spill
require:  (BM * BK) % (4 * (BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into real4 loads, the same number per work-item
require:  (BN * BK) % (4 * (BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into real4 loads, the same number per work-item
require:  M * K <= 2147483648 && K * N <= 2147483648 ; this kernel's A and B offsets are 32-bit int, so neither may have more than 2^31 elements (general_any indexes with size_t)
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   (N / BN) * ((BM / WM) * (BN / WN) * 32), M / BM
local:    (BM / WM) * (BN / WN) * 32, 1
reuse:    A=BN B=BM
band:     GROUP
local_reuse: A=WN/LX B=WM/(32/LX)
localmem: 2 * BK * (BM + PADA + BN) * REAL_SIZE
sites:    0=A store (transposed), 1=B store, 2=A load, 3=B load
*/
#define LY (32 / LX)                /* lanes of a warp along M */
#define RM (WM / LY / 4)            /* groups of 4 rows per work-item */
#define RN (WN / LX / 4)            /* groups of 4 columns per work-item */
#define WARPS_N (BN / WN)
#define NT ((BM / WM) * (BN / WN) * 32)
#define LA (BM * BK / 4 / NT)       /* real4 loads of A per work-item and step */
#define LB (BK * BN / 4 / NT)       /* real4 loads of B per work-item and step */
#define AS (BM + PADA)              /* row length of the transposed A tile */

#if AMAP == 0
#define A_ROW(v) ((v) / (BK / 4))
#define A_COL(v) ((v) % (BK / 4))
#else
#define A_ROW(v) ((v) % BM)
#define A_COL(v) ((v) / BM)
#endif

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   /* 16-byte aligned, or NVIDIA's OpenCL compiler splits each real4 load into four. */
   __local real As[2][BK][AS] __attribute__((aligned(16)));
   __local real Bs[2][BK][BN] __attribute__((aligned(16)));
   const int tid = get_local_id(0);
   const int warp = tid / 32, lane = tid % 32;
   const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
   const int ly = lane / LX, lx = lane % LX;
#if GROUP > 1
   /* Bands of GROUP block-rows, walked column by column, so that the blocks running at
    * the same time share their tiles of A and of B in the L2 cache. */
   const int nbn = get_num_groups(0), nbm = get_num_groups(1);
   const int pid = get_group_id(1) * nbn + get_group_id(0);
   const int first = (pid / (GROUP * nbn)) * GROUP;
   const int rows = nbm - first < GROUP ? nbm - first : GROUP;
   const int row0 = (first + (pid % (GROUP * nbn)) % rows) * BM;
   const int col0 = ((pid % (GROUP * nbn)) / rows) * BN;
#else
   const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
#endif
   const __global real4 *A4 = (const __global real4 *)A;
   const __global real4 *B4 = (const __global real4 *)B;

   /* Each work-item's real4 offsets in A and B for the first step; later steps add to them. */
   int offA[LA], offB[LB];
   for (int l = 0; l < LA; l++) {
      const int v = tid + l * NT;
      offA[l] = ((row0 + A_ROW(v)) * K) / 4 + A_COL(v);
   }
   for (int l = 0; l < LB; l++) {
      const int v = tid + l * NT;
      offB[l] = (v / (BN / 4)) * (N / 4) + col0 / 4 + v % (BN / 4);
   }

   real4 ra[LA], rb[LB];
   real acc[4 * RM][4 * RN];
   for (int i = 0; i < 4 * RM; i++)
      for (int j = 0; j < 4 * RN; j++)
         acc[i][j] = REAL_ZERO;

   /* Global -> registers for step t. */
#define LOAD_GLOBAL(t)                                                                    \
   for (int l = 0; l < LA; l++)                                                           \
      ra[l] = GT_LOAD_AN(4, A4[offA[l] + (t) * (BK / 4)]);                                \
   for (int l = 0; l < LB; l++)                                                           \
      rb[l] = GT_LOAD_BN(4, B4[offB[l] + (t) * BK * (N / 4)]);
   /* Registers -> local buffer s: A transposed (As[k][m]), B as is. */
#define STORE_LOCAL(s)                                                                    \
   for (int l = 0; l < LA; l++) {                                                         \
      const int v = tid + l * NT, r = A_ROW(v), c = A_COL(v) * 4;                         \
      LDS_STORE(0, &As[s][c + 0][r], ra[l].x);                                            \
      LDS_STORE(0, &As[s][c + 1][r], ra[l].y);                                            \
      LDS_STORE(0, &As[s][c + 2][r], ra[l].z);                                            \
      LDS_STORE(0, &As[s][c + 3][r], ra[l].w);                                            \
   }                                                                                      \
   for (int l = 0; l < LB; l++) {                                                         \
      const int v = tid + l * NT, r = v / (BN / 4), c = (v % (BN / 4)) * 4;              \
      LDS_STORE(1, (LOCAL_PTR real4 *)&Bs[s][r][c], rb[l]);                               \
   }

   LOAD_GLOBAL(0);
   STORE_LOCAL(0);
   barrier(CLK_LOCAL_MEM_FENCE);
   const int steps = K / BK;
   for (int t = 0; t < steps; t++) {
      const int cur = t & 1;
      if (t + 1 < steps) {
         LOAD_GLOBAL(t + 1);
      }
#pragma unroll
      for (int k = 0; k < BK; k++) {
         real4 a[RM], b[RN];
         for (int i = 0; i < RM; i++)
            a[i] = LDS_LOAD(2, (LOCAL_PTR real4 *)&As[cur][k][wm0 + ly * 4 + i * (4 * LY)]);
         for (int j = 0; j < RN; j++)
            b[j] = LDS_LOAD(3, (LOCAL_PTR real4 *)&Bs[cur][k][wn0 + lx * 4 + j * (4 * LX)]);
         for (int i = 0; i < RM; i++)
            for (int j = 0; j < RN; j++) {
               const real ai[4] = {a[i].x, a[i].y, a[i].z, a[i].w};
               const real bj[4] = {b[j].x, b[j].y, b[j].z, b[j].w};
               for (int ii = 0; ii < 4; ii++)
                  for (int jj = 0; jj < 4; jj++)
                     GT_MAD(acc[i * 4 + ii][j * 4 + jj], ai[ii], bj[jj]);
            }
      }
      if (t + 1 < steps) {
         STORE_LOCAL(cur ^ 1);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }

   for (int i = 0; i < RM; i++)
      for (int ii = 0; ii < 4; ii++) {
         const int row = row0 + wm0 + ly * 4 + i * (4 * LY) + ii;
         for (int j = 0; j < RN; j++) {
            const int col = col0 + wn0 + lx * 4 + j * (4 * LX);
            __global real4 *c4 = (__global real4 *)&C[(size_t)row * N + col];
            real4 v = MAKE_REAL4(acc[i * 4 + ii][j * 4 + 0], acc[i * 4 + ii][j * 4 + 1], acc[i * 4 + ii][j * 4 + 2],
                                 acc[i * 4 + ii][j * 4 + 3]);
            v = v * alpha;
            if (beta != REAL_ZERO)
               v = v + *c4 * beta;
            GT_STORE_CN(4, *c4, v);
         }
      }
}
