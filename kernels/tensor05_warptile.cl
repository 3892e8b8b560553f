/*@gemmtop
name:     tensor05_warptile
title:    Tensor cores 5: large warp tiles, fragments double-buffered, L2-friendly block order
ladder:   tensor
step:     5
tensor:   yes
precisions: tf32 half bfloat16
about:    Builds on tensor 4, as the fastest public mma.sync kernels are built. Each warp
about:    owns a large tile of C (64 x 64 by default: 128 FP32 accumulators per lane), so
about:    one A fragment serves WN/8 MMAs and one B fragment WM/16: per ldmatrix the warp
about:    issues up to 4 MMAs, and local memory bandwidth stops being the limit. The
about:    fragments of the next step of k are loaded from local memory while the MMAs of
about:    the current one run (two register sets, used in turn), so ldmatrix latency
about:    hides behind the tensor cores. GROUP orders the work-groups in bands of GROUP
about:    block-rows walked column by column, so that the blocks running at the same time
about:    share their tiles of A and of B in the L2 cache (as fast 2). C is written two
about:    elements (8 bytes) per lane at a time. The local-memory budget is STAGES x
about:    (BM + BN) x BK elements: at 48 KB a work-group, half and bfloat16 take BK=32
about:    with 3 stages at 128 x 128, TF32 BK=16. Through CUDA the tiles go to dynamic
about:    shared memory instead (DYNAMIC_SMEM), where a block may take more than 48 KB:
about:    the -cuda presets hold four stages (64 KB), 4-5% faster on an H100.
param:    BM = 128 in 32, 64, 128, 256 ; rows of C per work-group
param:    BN = 128 in 32, 64, 128, 256 ; columns of C per work-group
param:    BK = 16 in 16, 32, 64 ; depth (elements of k) of one tile step
param:    WM = 64 in 32, 64, 128 ; rows of C per warp
param:    WN = 64 in 32, 64, 128 ; columns of C per warp
param:    STAGES = 3 in 2, 3, 4, 5, 6 ; tiles in flight in local memory (CUDA: dynamic shared memory, beyond 48 KiB)
param:    SWZ = 1 in 0, 1 ; 0: padded rows, 1: XOR-swizzled 16-byte chunks
param:    GROUP = 8 in 1, 4, 8, 16 ; block-rows per band of the launch order (1: row by row)
require:  BM % WM == 0 && BN % WN == 0 ; the block must split into warp tiles
require:  (BM / WM) * (BN / WN) <= 16 ; at most 16 warps per work-group
require:  (WM / 16) * (WN / 8) <= 32 ; at most 32 MMA tiles (128 accumulators) per lane, or registers spill
require:  (BM * BK * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into 16-byte copies, the same number per work-item
require:  (BK * BN * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into 16-byte copies, the same number per work-item
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   (N / BN) * ((BM / WM) * (BN / WN) * 32), M / BM
local:    (BM / WM) * (BN / WN) * 32, 1
reuse:    A=BN B=BM
local_reuse: A=WN B=WM
localmem: (1 - DYNAMIC_SMEM) * STAGES * (BM * (BK * IN_SIZE + 16 * (1 - SWZ)) + BK * (BN * IN_SIZE + (IN_SIZE == 4 ? 32 : 16) * (1 - SWZ)))
dynamic_smem: DYNAMIC_SMEM * STAGES * (BM * (BK * IN_SIZE + 16 * (1 - SWZ)) + BK * (BN * IN_SIZE + (IN_SIZE == 4 ? 32 : 16) * (1 - SWZ)))
sites:    0=A cp.async, 1=B cp.async, 2=A ldmatrix, 3=B fragment load
*/
#define MI (WM / 16)
#define NJ (WN / 8)
#define WARPS_N (BN / WN)
#define NT ((BM / WM) * (BN / WN) * 32)
#define BKW (BK / GT_EPW)
#define BNW (BN / GT_EPW)
#define LA (BM * BKW / 4 / NT)
#define LB (BK * BNW / 4 / NT)
#define KSTEPS (BKW / 8) /* MMA depths per tile */

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
#if GT_DYNAMIC_SMEM
   /* CUDA: the tiles in dynamic shared memory, which may exceed static memory's 48 KiB */
   extern __shared__ __align__(16) uint gt_tiles[];
   uint(*As)[BM][BKW + PADA] = (uint(*)[BM][BKW + PADA])gt_tiles;
   uint(*Bs)[BK][BNW + PADB] = (uint(*)[BK][BNW + PADB])(gt_tiles + STAGES * BM * (BKW + PADA));
#else
   __local uint As[STAGES][BM][BKW + PADA] __attribute__((aligned(16)));
   __local uint Bs[STAGES][BK][BNW + PADB] __attribute__((aligned(16)));
#endif
   const int tid = (int)gt_flat_lid(), warp = tid / 32, lane = tid % 32;
   const int g = lane / 4, t = lane % 4;
   const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
#if GROUP > 1
   /* Bands of GROUP block-rows, walked column by column (see fast02_warptile). */
   const int nbn = get_num_groups(0), nbm = get_num_groups(1);
   const int pid = get_group_id(1) * nbn + get_group_id(0);
   const int first = (pid / (GROUP * nbn)) * GROUP;
   const int rows = nbm - first < GROUP ? nbm - first : GROUP;
   const int row0 = (first + (pid % (GROUP * nbn)) % rows) * BM;
   const int col0 = ((pid % (GROUP * nbn)) / rows) * BN;
#else
   const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
#endif
   const int KW = K / GT_EPW, NW = N / GT_EPW;
   const __global uint *Aw = (const __global uint *)A + (size_t)row0 * KW;
   const __global uint *Bw = (const __global uint *)B + col0 / GT_EPW;
   const int tiles = K / BK;

#define COPY_TILE(s, kt)                                                                           \
   do {                                                                                            \
      GT_TUNROLL                                                                                   \
      for (int l = 0; l < LA; l++) {                                                               \
         const int v = tid + l * NT, r = v / (BKW / 4), c = v % (BKW / 4);                         \
         GT_CP_ASYNC16_A(0, &As[s][r][AS_W(r, c * 4)], Aw + (size_t)r * KW + (kt) * BKW + c * 4); \
      }                                                                                            \
      GT_TUNROLL                                                                                   \
      for (int l = 0; l < LB; l++) {                                                               \
         const int v = tid + l * NT, r = v / (BNW / 4), c = v % (BNW / 4);                         \
         GT_CP_ASYNC16_B(1, &Bs[s][r][BS_W(r, c * 4)], Bw + (size_t)((kt) * BK + r) * NW + c * 4); \
      }                                                                                            \
   } while (0)

   /* The fragments of depth ks (words) of stage s into register set p. */
#if GT_EPW == 1
#define LOAD_B(p, s, ks)                                                                           \
   GT_TUNROLL                                                                                      \
   for (int j = 0; j < NJ; j++)                                                                    \
      GT_TUNROLL                                                                                   \
      for (int q = 0; q < 2; q++) {                                                                \
         const int k = (ks) + t + 4 * q, n = wn0 + j * 8 + g;                                      \
         b[p][j][q] = LDS_LOAD(3, &Bs[s][k][BS_W(k, n)]);                                          \
      }
#else
#define LOAD_B(p, s, ks)                                                                           \
   GT_TUNROLL                                                                                      \
   for (int j = 0; j < NJ; j += 2) {                                                               \
      const int k = (ks) * 2 + lane % 16, w = (wn0 + j * 8 + 8 * (lane / 16)) / 2;                 \
      uint r4[4];                                                                                  \
      GT_LDMATRIX_X4_TRANS(3, r4, &Bs[s][k][BS_W(k, w)]);                                          \
      b[p][j][0] = r4[0];                                                                          \
      b[p][j][1] = r4[1];                                                                          \
      b[p][j + 1][0] = r4[2];                                                                      \
      b[p][j + 1][1] = r4[3];                                                                      \
   }
#endif
#define LOAD_FRAGS(p, s, ks)                                                                       \
   do {                                                                                            \
      GT_TUNROLL                                                                                   \
      for (int i = 0; i < MI; i++) {                                                               \
         const int r = wm0 + i * 16 + lane % 16, w = (ks) + 4 * (lane / 16);                       \
         GT_LDMATRIX_X4(2, a[p][i], &As[s][r][AS_W(r, w)]);                                        \
      }                                                                                            \
      LOAD_B(p, s, ks)                                                                             \
   } while (0)

   float acc[MI][NJ][4];
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++)
            acc[i][j][e] = 0.0f;
   uint a[2][MI][4], b[2][NJ][2];

   for (int s = 0; s < STAGES - 1; s++) {
      if (s < tiles)
         COPY_TILE(s, s);
      GT_CP_ASYNC_COMMIT();
   }

   for (int kt = 0; kt < tiles; kt++) {
      const int cur = kt % STAGES;
      GT_CP_ASYNC_WAIT(STAGES - 2);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (kt + STAGES - 1 < tiles)
         COPY_TILE((kt + STAGES - 1) % STAGES, kt + STAGES - 1);
      GT_CP_ASYNC_COMMIT();

      LOAD_FRAGS(0, cur, 0);
      GT_TUNROLL
      for (int ks = 0; ks < KSTEPS; ks++) {
         const int p = ks % 2;
         if (ks + 1 < KSTEPS) /* the next depth's fragments, while these MMAs run */
            LOAD_FRAGS(p ^ 1, cur, (ks + 1) * 8);
         GT_TUNROLL
         for (int i = 0; i < MI; i++) {
            uint af[4];
            GT_TUNROLL
            for (int q = 0; q < 4; q++)
               af[q] = GT_FRAG_WORD(a[p][i][q]);
            GT_TUNROLL
            for (int j = 0; j < NJ; j++) {
               uint bf[2];
               bf[0] = GT_FRAG_WORD(b[p][j][0]);
               bf[1] = GT_FRAG_WORD(b[p][j][1]);
               GT_MMA(acc[i][j], af, bf);
            }
         }
      }
   }
   GT_CP_ASYNC_WAIT(0);

   /* Accumulators e and e+1 are neighbours in a row of C: one 8-byte store. */
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int h = 0; h < 2; h++) {
            const size_t idx = (size_t)(row0 + wm0 + i * 16 + g + 8 * h) * N + col0 + wn0 + j * 8 + 2 * t;
            __global real2 *c2 = (__global real2 *)&C[idx];
            real2 v = MAKE_REAL2(acc[i][j][2 * h], acc[i][j][2 * h + 1]) * alpha;
            if (beta != REAL_ZERO)
               v = v + *c2 * beta;
            GT_STORE_CN(2, *c2, v);
         }
}
