/*@gemmtop
name:     tensor03_ldmatrix
title:    Tensor cores 3: ldmatrix, and a padded or swizzled tile without bank conflicts
ladder:   tensor
step:     3
tensor:   yes
precisions: tf32 half bfloat16
about:    Builds on tensor 2. One ldmatrix.x4 fills a warp's whole A fragment: every lane
about:    gives the address of one 16-byte row of the tile and receives its registers in
about:    the MMA's layout (for half and bfloat16 B, ldmatrix.x4.trans transposes two
about:    fragments of the k x n tile on the way; TF32 B, 32-bit, keeps plain loads). Eight
about:    lanes read at a time, eight rows at one column: in an unpadded tile whose rows
about:    are a multiple of 128 bytes they all hit the same banks. SWZ=0 pads each row by
about:    16 bytes (32 for the TF32 B tile, which is read 4 rows x 8 columns at a time);
about:    SWZ=1 keeps the rows unpadded and stores 16-byte chunk c of row r at chunk
about:    c ^ f(r) (an XOR swizzle, as CUTLASS does), which spreads the eight rows over the
about:    eight bank groups without spending local memory. Both make the conflicts vanish
about:    in the bank view (gemmtop banks); the swizzle also keeps tile sizes powers of two.
param:    BM = 64 in 32, 64, 128 ; rows of C per work-group
param:    BN = 64 in 32, 64, 128 ; columns of C per work-group
param:    BK = 32 in 16, 32, 64 ; depth (elements of k) of one tile step
param:    WM = 32 in 16, 32, 64 ; rows of C per warp
param:    WN = 32 in 16, 32, 64 ; columns of C per warp
param:    SWZ = 1 in 0, 1 ; 0: padded rows, 1: XOR-swizzled 16-byte chunks
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
localmem: (BM * (BK * IN_SIZE + 16 * (1 - SWZ)) + BK * (BN * IN_SIZE + (IN_SIZE == 4 ? 32 : 16) * (1 - SWZ)))
sites:    0=A store, 1=B store, 2=A ldmatrix, 3=B fragment load
*/
#define MI (WM / 16)
#define NJ (WN / 8)
#define WARPS_N (BN / WN)
#define NT ((BM / WM) * (BN / WN) * 32)
#define BKW (BK / GT_EPW)             /* words per row of the A tile */
#define BNW (BN / GT_EPW)             /* words per row of the B tile */
#define LA (BM * BKW / 4 / NT)        /* 16-byte loads of A per work-item and step */
#define LB (BK * BNW / 4 / NT)        /* 16-byte loads of B per work-item and step */

/* Where word w of row r sits in the row: padded rows keep it, the swizzle moves its chunk.
 * The TF32 B tile is read as 4 rows x 2 chunks per request, so its rows move by 2 chunks. */
#if SWZ
#define PADA 0
#define PADB 0
#define AS_W(r, w) (GT_SWIZZLE((r), (w) / 4, BKW / 4) * 4 + (w) % 4)
#if GT_EPW == 1
#define BS_W(k, w) (((((w) / 4) ^ ((2 * (k)) % 8))) * 4 + (w) % 4)
#else
#define BS_W(k, w) (GT_SWIZZLE((k), (w) / 4, BNW / 4) * 4 + (w) % 4)
#endif
#else
#define PADA 4
#define PADB (GT_EPW == 1 ? 8 : 4)
#define AS_W(r, w) (w)
#define BS_W(k, w) (w)
#endif

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C GT_TRACE_PARAM) {
   GT_TENSOR_SCRATCH(NT / 32);
   __local uint As[BM][BKW + PADA] __attribute__((aligned(16)));
   __local uint Bs[BK][BNW + PADB] __attribute__((aligned(16)));
   const int tid = (int)gt_flat_lid(), warp = tid / 32, lane = tid % 32;
   const int g = lane / 4, t = lane % 4;
   const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
   const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
   const int KW4 = K / GT_EPW / 4, NW4 = N / GT_EPW / 4;
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
      for (int l = 0; l < LA; l++) {
         const int v = tid + l * NT, r = v / (BKW / 4), c = v % (BKW / 4);
         const uint4 x = GT_LOAD_AW4(A4[(size_t)(row0 + r) * KW4 + kt / GT_EPW / 4 + c]);
         LDS_STORE(0, (LOCAL_PTR uint4 *)&As[r][AS_W(r, c * 4)], x);
      }
      for (int l = 0; l < LB; l++) {
         const int v = tid + l * NT, r = v / (BNW / 4), c = v % (BNW / 4);
         const uint4 x = GT_LOAD_BW4(B4[(size_t)(kt + r) * NW4 + col0 / GT_EPW / 4 + c]);
         LDS_STORE(1, (LOCAL_PTR uint4 *)&Bs[r][BS_W(r, c * 4)], x);
      }
      barrier(CLK_LOCAL_MEM_FENCE);

      for (int ks = 0; ks < BKW; ks += 8) {
         uint a[MI][4], b[NJ][2];
         GT_TUNROLL
         for (int i = 0; i < MI; i++) {
            /* lanes 0-15 give rows 0-15 at word ks, lanes 16-31 the same rows at ks + 4 */
            const int r = wm0 + i * 16 + lane % 16, w = ks + 4 * (lane / 16);
            GT_LDMATRIX_X4(2, a[i], &As[r][AS_W(r, w)]);
            GT_TUNROLL
            for (int q = 0; q < 4; q++)
               a[i][q] = GT_FRAG_WORD(a[i][q]);
         }
#if GT_EPW == 1
         GT_TUNROLL
         for (int j = 0; j < NJ; j++)
            GT_TUNROLL
            for (int q = 0; q < 2; q++) {
               const int k = ks + t + 4 * q, n = wn0 + j * 8 + g;
               b[j][q] = GT_FRAG_WORD(LDS_LOAD(3, &Bs[k][BS_W(k, n)]));
            }
#else
         GT_TUNROLL
         for (int j = 0; j < NJ; j += 2) {
            /* rows k 0-15 of this depth at columns n .. n+7 (lanes 0-15) and n+8 .. n+15 */
            const int k = ks * 2 + lane % 16, w = (wn0 + j * 8 + 8 * (lane / 16)) / 2;
            uint r4[4];
            GT_LDMATRIX_X4_TRANS(3, r4, &Bs[k][BS_W(k, w)]);
            b[j][0] = r4[0];
            b[j][1] = r4[1];
            b[j + 1][0] = r4[2];
            b[j + 1][1] = r4[3];
         }
#endif
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
