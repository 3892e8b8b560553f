/*@gemmtop
name:     fp8mma1_scaled
title:    FP8 1: mma.sync e4m3/e5m2 with per-tensor or block scales, promoted into FP32
ladder:   fp8
step:     1
tensor:   yes
precisions: e4m3 e5m2
about:    The GEMM of LLM inference: A and B in one byte an element (e4m3: 3 fraction
about:    bits, largest 448; e5m2: 2 bits, largest 57344), each with FP32 scales, C in
about:    FP32. The value multiplied is the stored byte times its scale: one per tensor
about:    (--scaling tensor), or one per 1 x 128 slice of A's rows and per 128 x 128 block
about:    of B (--scaling block, as DeepGEMM does), which keeps an outlier from costing a
about:    whole tensor its precision. The MMA is m16n8k32: four FP8 values a 32-bit word,
about:    both operands K-major, so B is read transposed (N x K, as FP8 tensor cores want
about:    it); ldmatrix gives A's and B's fragments alike. The MMA adds into its own
about:    accumulators for one 128-deep block of k; then the block's partial sums are
about:    multiplied by their scales and added into FP32 registers (promotion). Block
about:    scaling needs this, and on Hopper it also guards against the tensor core's FP8
about:    accumulator, which keeps fewer bits than FP32 (PROMOTE=0, tensor scaling only,
about:    accumulates all of K in the MMA's own accumulators). On a CPU the MMA is
about:    emulated with the same fragment layouts, decoding each byte exactly.
param:    BM = 64 in 32, 64, 128 ; rows of C per work-group
param:    BN = 64 in 32, 64, 128 ; columns of C per work-group
param:    BK = 64 in 32, 64, 128 ; depth (elements, bytes, of k) of one tile step
param:    WM = 32 in 16, 32, 64 ; rows of C per warp
param:    WN = 32 in 16, 32, 64 ; columns of C per warp
param:    PROMOTE = 1 in 0, 1 ; 1: partial sums added into FP32 registers every 128 of k; 0: all of K in the MMA's accumulators
require:  BM % WM == 0 && BN % WN == 0 ; the block must split into warp tiles
require:  (BM / WM) * (BN / WN) <= 16 ; at most 16 warps per work-group
require:  (WM / 16) * (WN / 8) <= 16 ; at most 16 MMA tiles per lane (64 partial and 64 promoted sums), or registers spill
require:  (BM * BK / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into 16-byte loads, the same number per work-item
require:  (BN * BK / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into 16-byte loads, the same number per work-item
require:  PROMOTE == 1 || GT_SCALE_BLOCK == 0 ; block scales are applied per 128 of k, which promotes: PROMOTE=0 is for --scaling tensor
operands: A=N B=T
pad:      M=BM N=BN K=BK
global:   (N / BN) * ((BM / WM) * (BN / WN) * 32), M / BM
local:    (BM / WM) * (BN / WN) * 32, 1
reuse:    A=BN B=BM
local_reuse: A=WN B=WM
localmem: (BM + BN) * (BK + 16)
sites:    0=A store, 1=B store, 2=A ldmatrix, 3=B ldmatrix
*/
#define MI (WM / 16)
#define NJ (WN / 8)
#define WARPS_N (BN / WN)
#define NT ((BM / WM) * (BN / WN) * 32)
#define BKW (BK / 4)           /* words (four FP8 values) per tile row */
#define ROW (BKW + 4)          /* a row padded by 16 bytes: ldmatrix's 8 rows hit 8 bank groups */
#define LA (BM * BKW / 4 / NT) /* 16-byte loads of A per work-item and step */
#define LB (BN * BKW / 4 / NT) /* 16-byte loads of B per work-item and step */
#define KB 128                 /* the scales' block along k */

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C GT_SCALE_PARAMS GT_TRACE_PARAM) {
   GT_TENSOR_SCRATCH(NT / 32);
   /* Both tiles K-major: As[m][k], Bs[n][k], four values a word. */
   __local uint As[BM][ROW] __attribute__((aligned(16)));
   __local uint Bs[BN][ROW] __attribute__((aligned(16)));
   const int tid = (int)gt_flat_lid(), warp = tid / 32, lane = tid % 32;
   const int g = lane / 4, t = lane % 4;
   const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
   const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
   const int KW4 = K / 16; /* 16-byte chunks per row of A and of B (stored N x K) */
   const __global uint4 *A4 = (const __global uint4 *)A;
   const __global uint4 *B4 = (const __global uint4 *)B;
#if GT_SCALE_BLOCK
   const int kblocks = (K + KB - 1) / KB, nblocks = (N + KB - 1) / KB;
#endif

   float part[MI][NJ][4], sum[MI][NJ][4]; /* the MMA's partial sums, and the promoted FP32 ones */
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++)
            part[i][j][e] = sum[i][j][e] = 0.0f;

   for (int kt = 0; kt < K; kt += BK) {
      for (int l = 0; l < LA; l++) {
         const int v = tid + l * NT, r = v / (BKW / 4), c = v % (BKW / 4);
         const uint4 x = GT_LOAD_AW4(A4[(size_t)(row0 + r) * KW4 + kt / 16 + c]);
         LDS_STORE(0, (LOCAL_PTR uint4 *)&As[r][c * 4], x);
      }
      for (int l = 0; l < LB; l++) {
         const int v = tid + l * NT, r = v / (BKW / 4), c = v % (BKW / 4);
         const uint4 x = GT_LOAD_BW4(B4[(size_t)(col0 + r) * KW4 + kt / 16 + c]);
         LDS_STORE(1, (LOCAL_PTR uint4 *)&Bs[r][c * 4], x);
      }
      barrier(CLK_LOCAL_MEM_FENCE);

      for (int ks = 0; ks < BKW; ks += 8) {
         uint a[MI][4], b[NJ][2];
         GT_TUNROLL
         for (int i = 0; i < MI; i++) {
            /* lanes 0-15 give rows 0-15 at word ks, lanes 16-31 the same rows at ks + 4 */
            const int r = wm0 + i * 16 + lane % 16;
            GT_LDMATRIX_X4(2, a[i], &As[r][ks + 4 * (lane / 16)]);
         }
         GT_TUNROLL
         for (int j = 0; j < NJ; j += 2) {
            /* B K-major, two fragments (columns n0..n0+7, n0+8..n0+15) at once: lane l gives
             * row l % 8 of matrix l / 8, matrices (n0, ks), (n0, ks+4), (n0+8, ks), (n0+8, ks+4);
             * word t of row g is what the MMA wants in b[0] (NJ is even: WN >= 16) */
            const int n = wn0 + j * 8 + lane % 8 + 8 * (lane / 16);
            uint r4[4];
            GT_LDMATRIX_X4(3, r4, &Bs[n][ks + 4 * ((lane / 8) % 2)]);
            b[j][0] = r4[0];
            b[j][1] = r4[1];
            b[j + 1][0] = r4[2];
            b[j + 1][1] = r4[3];
         }
         GT_TUNROLL
         for (int i = 0; i < MI; i++)
            GT_TUNROLL
            for (int j = 0; j < NJ; j++)
               GT_MMA(part[i][j], a[i], b[j]);
      }
      barrier(CLK_LOCAL_MEM_FENCE);

      /* Promotion at the end of each 128-deep block of k (and of K): the block's partial
       * sums, times their scales for block scaling, into the FP32 sums. */
      if (PROMOTE && ((kt + BK) % KB == 0 || kt + BK >= K)) {
         GT_TUNROLL
         for (int i = 0; i < MI; i++)
            GT_TUNROLL
            for (int j = 0; j < NJ; j++)
               GT_TUNROLL
               for (int e = 0; e < 4; e++) {
#if GT_SCALE_BLOCK
                  const int row = row0 + wm0 + i * 16 + g + 8 * (e / 2);
                  const int col = col0 + wn0 + j * 8 + 2 * t + e % 2;
                  const float s = GT_SCALE_A((size_t)row * kblocks + kt / KB) *
                                  GT_SCALE_B((size_t)(kt / KB) * nblocks + col / KB);
                  sum[i][j][e] += s * part[i][j][e];
#else
                  sum[i][j][e] += part[i][j][e];
#endif
                  part[i][j][e] = 0.0f;
               }
      }
   }

   /* Per-tensor scales, once, in the epilogue (with alpha). */
#if GT_SCALE_BLOCK
   const float scale = alpha;
#else
   const float scale = alpha * (GT_SCALE_A(0) * GT_SCALE_B(0));
#endif
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++) {
            const size_t idx =
                (size_t)(row0 + wm0 + i * 16 + g + 8 * (e / 2)) * N + col0 + wn0 + j * 8 + 2 * t + e % 2;
            const float v = scale * (PROMOTE ? sum[i][j][e] : part[i][j][e]);
            GT_STORE_C(C[idx], beta == REAL_ZERO ? v : v + beta * C[idx]);
         }
}
