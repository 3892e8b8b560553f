/*@gemmtop
name:     tensor02_local
title:    Tensor cores 2: tiles staged in local memory, fragments read with plain loads
ladder:   tensor
step:     2
tensor:   yes
precisions: tf32 half bfloat16
about:    Builds on tensor 1. The work-group copies a BM x BK tile of A and a BK x BN tile
about:    of B into local memory with 16-byte loads (each global element read once per
about:    work-group instead of once per warp), then each warp builds its fragments from
about:    the tiles with plain 4-byte local loads (and, for half and bfloat16 B, two 2-byte
about:    loads per register, as a B register pairs two rows of k). The tiles are stored
about:    unpadded, so the fragment loads conflict: the 8 rows a fragment spans (A) or the
about:    4 rows of k (B) sit at the same banks. The bank view (gemmtop banks) shows it at
about:    the A and B load sites; tensor 3 removes it with ldmatrix and a swizzle.
param:    BM = 64 in 32, 64, 128 ; rows of C per work-group
param:    BN = 64 in 32, 64, 128 ; columns of C per work-group
param:    BK = 32 in 16, 32, 64 ; depth (elements of k) of one tile step
param:    WM = 32 in 16, 32, 64 ; rows of C per warp
param:    WN = 32 in 16, 32, 64 ; columns of C per warp
require:  BM % WM == 0 && BN % WN == 0 ; the block must split into warp tiles
require:  (BM / WM) * (BN / WN) <= 16 ; at most 16 warps per work-group
require:  (WM / 16) * (WN / 8) <= 32 ; at most 32 MMA tiles (128 accumulators) per lane, or registers spill
require:  (BM * BK * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into 16-byte loads, the same number per work-item
require:  (BK * BN * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into 16-byte loads, the same number per work-item
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   (N / BN) * ((BM / WM) * (BN / WN) * 32), M / BM
local:    (BM / WM) * (BN / WN) * 32, 1
reuse:    A=BN B=BM
local_reuse: A=WN B=WM
localmem: (BM + BN) * BK * IN_SIZE
sites:    0=A store, 1=B store, 2=A fragment load, 3=B fragment load
*/
#define MI (WM / 16)
#define NJ (WN / 8)
#define WARPS_N (BN / WN)
#define NT ((BM / WM) * (BN / WN) * 32)
#define BKW (BK / GT_EPW)             /* words per row of the A tile */
#define BNW (BN / GT_EPW)             /* words per row of the B tile */
#define LA (BM * BKW / 4 / NT)        /* 16-byte loads of A per work-item and step */
#define LB (BK * BNW / 4 / NT)        /* 16-byte loads of B per work-item and step */

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C GT_TRACE_PARAM) {
   GT_TENSOR_SCRATCH(NT / 32);
   __local uint As[BM][BKW] __attribute__((aligned(16)));
   __local uint Bs[BK][BNW] __attribute__((aligned(16)));
   const int tid = (int)gt_flat_lid(), warp = tid / 32, lane = tid % 32;
   const int g = lane / 4, t = lane % 4;
   const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
   const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
   const int KW4 = K / GT_EPW / 4, NW4 = N / GT_EPW / 4; /* 16-byte units per row of A, of B */
   const __global uint4 *A4 = (const __global uint4 *)A;
   const __global uint4 *B4 = (const __global uint4 *)B;

   float acc[MI][NJ][4];
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++)
            acc[i][j][e] = 0.0f;

   for (int kt = 0; kt < K; kt += BK) {
      /* Global -> local, 16 bytes a work-item at a time, rows of the tiles in order. */
      for (int l = 0; l < LA; l++) {
         const int v = tid + l * NT, r = v / (BKW / 4), c = v % (BKW / 4);
         const uint4 x = GT_LOAD_AW4(A4[(size_t)(row0 + r) * KW4 + kt / GT_EPW / 4 + c]);
         LDS_STORE(0, (LOCAL_PTR uint4 *)&As[r][c * 4], x);
      }
      for (int l = 0; l < LB; l++) {
         const int v = tid + l * NT, r = v / (BNW / 4), c = v % (BNW / 4);
         const uint4 x = GT_LOAD_BW4(B4[(size_t)(kt + r) * NW4 + col0 / GT_EPW / 4 + c]);
         LDS_STORE(1, (LOCAL_PTR uint4 *)&Bs[r][c * 4], x);
      }
      barrier(CLK_LOCAL_MEM_FENCE);

      for (int ks = 0; ks < BKW; ks += 8) { /* one MMA depth: 8 words of k */
         uint a[MI][4], b[NJ][2];
         GT_TUNROLL
         for (int i = 0; i < MI; i++)
            GT_TUNROLL
            for (int r = 0; r < 4; r++)
               a[i][r] = GT_FRAG_WORD(LDS_LOAD(2, &As[wm0 + i * 16 + g + 8 * (r % 2)][ks + t + 4 * (r / 2)]));
         GT_TUNROLL
         for (int j = 0; j < NJ; j++)
            GT_TUNROLL
            for (int r = 0; r < 2; r++) {
               const int k = (ks + t + 4 * r) * GT_EPW, n = wn0 + j * 8 + g;
#if GT_EPW == 1
               b[j][r] = GT_FRAG_WORD(LDS_LOAD(3, &Bs[k][n]));
#else
               /* a pair along k: rows k and k+1 of column n, 2-byte elements */
               const uint lo = LDS_LOAD(3, &((LOCAL_PTR const in_t *)Bs[k])[n]);
               const uint hi = LDS_LOAD(3, &((LOCAL_PTR const in_t *)Bs[k + 1])[n]);
               b[j][r] = GT_PACK16(lo, hi);
#endif
            }
         GT_TUNROLL
         for (int i = 0; i < MI; i++)
            GT_TUNROLL
            for (int j = 0; j < NJ; j++)
               GT_MMA(acc[i][j], a[i], b[j]);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }

   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++) {
            const size_t idx =
                (size_t)(row0 + wm0 + i * 16 + g + 8 * (e / 2)) * N + col0 + wn0 + j * 8 + 2 * t + e % 2;
            GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[i][j][e] : alpha * acc[i][j][e] + beta * C[idx]);
         }
}
