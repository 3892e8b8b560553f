/*@gemmtop
name:     tensor05_warptile
title:    Tensor cores 5: large warp tiles, fragments double-buffered, L2-friendly block order
ladder:   tensor
step:     5
tune:     yes
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
about:    share their tiles of A and of B in the L2 cache (as fast 2). With PREFETCH=1 the
about:    wait for the next tile, its barrier and its first fragments come before the
about:    current tile's last MMAs, which hide them (CUTLASS's multistage order). Each
about:    fragment address is one offset per lane plus constants (the swizzle repeats
about:    every 8 rows: only the chunk bits are XORed per step). TF32 has no transposing
about:    ldmatrix, so its B fragments are 4-byte loads; TMMA=1 has the tensor cores
about:    compute C^T = B^T A^T instead, B's tile feeding the MMA's A operand with two
about:    8-byte loads a fragment. ROUND=0 leaves the cut to TF32 to the tensor cores, as
about:    wgmma does, which frees the registers PREFETCH needs. Local memory holds STAGES
about:    x (BM + BN) x BK elements: in OpenCL's 48 KB, half and bfloat16 take 128 x 256
about:    blocks of eight warps with BK=16 and 4 stages, TF32 128 x 128 with BK=16 and 3.
about:    Through CUDA the tiles go to dynamic shared memory (DYNAMIC_SMEM), up to 227 KB:
about:    the -cuda presets take 256 x 128 blocks of three 64-deep (TF32: 32-deep) stages.
param:    BM = 128 in 32, 64, 128, 256 ; rows of C per work-group
param:    BN = 128 in 32, 64, 128, 256 ; columns of C per work-group
param:    BK = 16 in 16, 32, 64 ; depth (elements of k) of one tile step
param:    WM = 64 in 32, 64, 128 ; rows of C per warp
param:    WN = 64 in 32, 64, 128 ; columns of C per warp
param:    STAGES = 3 in 2, 3, 4, 5, 6 ; tiles in flight in local memory (CUDA: dynamic shared memory, beyond 48 KiB)
param:    SWZ = 1 in 0, 1 ; 0: padded rows, 1: XOR-swizzled 16-byte chunks
param:    GROUP = 8 in 1, 4, 8, 16 ; block-rows per band of the launch order (1: row by row)
param:    PREFETCH = 1 in 0, 1 ; 1: the next tile's first fragments are loaded before this tile's last MMAs, across its barrier
param:    TMMA = 0 in 0, 1 ; TF32: 1 multiplies C^T = B^T A^T, so B's fragments (now the MMA's A operand) are 8-byte loads
param:    ROUND = 1 in 0, 1 ; TF32: 1 rounds each word to nearest as it is loaded (cvt.rna); 0 leaves the cut to the tensor cores, as wgmma does
require:  BM % WM == 0 && BN % WN == 0 ; the block must split into warp tiles
require:  (BM / WM) * (BN / WN) <= 16 ; at most 16 warps per work-group
require:  (WM / 16) * (WN / 8) <= 32 ; at most 32 MMA tiles (128 accumulators) per lane, or registers spill
require:  (BM * BK * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into 16-byte copies, the same number per work-item
require:  (BK * BN * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into 16-byte copies, the same number per work-item
require:  TMMA == 0 || IN_SIZE == 4 ; TMMA=1 (the transposed MMA) is for tf32: 16-bit B fragments come from ldmatrix.trans
require:  ROUND == 1 || IN_SIZE == 4 ; ROUND=0 (the tensor cores cut the words to TF32) is for tf32
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   (N / BN) * ((BM / WM) * (BN / WN) * 32), M / BM
local:    (BM / WM) * (BN / WN) * 32, 1
reuse:    A=BN B=BM
band:     GROUP
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

#if NT % (BKW / 4) == 0 && NT % (BNW / 4) == 0
   /* Each work-item copies the same columns of rows RSTEP apart: its addresses are fixed
    * offsets from two pointers that advance a tile per copy (the tiles are copied in
    * order of kt), which keeps few registers live. */
#define A_RSTEP (NT / (BKW / 4))
#define B_RSTEP (NT / (BNW / 4))
   const int ca_r = tid / (BKW / 4), ca_c = (tid % (BKW / 4)) * 4;
   const int cb_r = tid / (BNW / 4), cb_c = (tid % (BNW / 4)) * 4;
   const __global uint *Ag = Aw + (size_t)ca_r * KW + ca_c;
   const __global uint *Bg = Bw + (size_t)cb_r * NW + cb_c;
#define COPY_TILE(s, kt)                                                                           \
   do {                                                                                            \
      GT_TUNROLL                                                                                   \
      for (int l = 0; l < LA; l++) {                                                               \
         const int r = ca_r + l * A_RSTEP;                                                         \
         GT_CP_ASYNC16_A(0, &As[s][r][AS_W(r, ca_c)], Ag + (size_t)(l * A_RSTEP) * KW);            \
      }                                                                                            \
      GT_TUNROLL                                                                                   \
      for (int l = 0; l < LB; l++) {                                                               \
         const int r = cb_r + l * B_RSTEP;                                                         \
         GT_CP_ASYNC16_B(1, &Bs[s][r][BS_W(r, cb_c)], Bg + (size_t)(l * B_RSTEP) * NW);            \
      }                                                                                            \
      Ag += BKW;                                                                                   \
      Bg += (size_t)BK * NW;                                                                       \
   } while (0)
#else
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
#endif

   /* Each lane's fragment addresses are one offset per operand plus constants: the swizzle
    * pattern repeats every 8 rows, so fragment i (16 rows down) and depth ks (16 rows of B
    * down) are constant offsets, and a step along the swizzled chunks (depth ks of A, the
    * column pairs j of B) flips offset bits, XORed in (added when padded). */
   LOCAL_PTR uint *Af = (LOCAL_PTR uint *)As, *Bf = (LOCAL_PTR uint *)Bs;
#define ROWA (BKW + PADA)
#define ROWB (BNW + PADB)
#if SWZ
#define KOFF(off, c) ((off) ^ (c))
#else
#define KOFF(off, c) ((off) + (c))
#endif
   /* The MMA's operands: fa (A operand, 4 words a lane) and fb (B operand, 2 words), FA x FB
    * MMAs a depth. Normally A's tile gives fa and B's tile fb. With TMMA (TF32) the tensor
    * cores compute C^T = B^T A^T: B's tile gives fa, two 8-byte loads a fragment straight
    * into its registers (no 4-byte loads, no ldmatrix: TF32 has no transposing one), and
    * A's tile fb, through the same ldmatrix.x4 (two fragments each). */
#if TMMA
#define FA (WN / 16)
#define FB (WM / 8)
   /* ldmatrix.x4 matrices (rows 0-7, words 0-3), (0-7, 4-7), (8-15, 0-3), (8-15, 4-7): fb of
    * rows r (word t, then t + 4) for two 8-row fragments. */
   const int a_row = wm0 + lane % 8 + 8 * (lane / 16);
   const int a_off = a_row * ROWA + AS_W(a_row, 4 * ((lane / 8) % 2));
#define LOAD_A(p, s, ks)                                                                           \
   GT_TUNROLL                                                                                      \
   for (int j = 0; j < FB; j += 2) {                                                               \
      uint r4[4];                                                                                  \
      GT_LDMATRIX_X4_AT(2, r4, Af, (s) * (BM * ROWA) + KOFF(a_off, ks) + j * 8 * ROWA);            \
      fb[p][j][0] = r4[0];                                                                         \
      fb[p][j][1] = r4[1];                                                                         \
      fb[p][j + 1][0] = r4[2];                                                                     \
      fb[p][j + 1][1] = r4[3];                                                                     \
   }
   /* Row g of the MMA's A (an n of C) is column 2g of the 16, row g + 8 column 2g + 1: the
    * lane's two words of a k row are neighbours, one 8-byte load for rows t, one for t + 4. */
   const int b_off = t * ROWB + BS_W(t, wn0 + 2 * g);
#define LOAD_B(p, s, ks)                                                                           \
   GT_TUNROLL                                                                                      \
   for (int i = 0; i < FA; i++)                                                                    \
      GT_TUNROLL                                                                                   \
      for (int q = 0; q < 2; q++) {                                                                \
         const uint2 w2 =                                                                          \
            LDS_LOAD(3, (LOCAL_PTR const uint2 *)&Bf[(s) * (BK * ROWB) + KOFF(b_off, 16 * i) + ((ks) + 4 * q) * ROWB]); \
         fa[p][i][2 * q] = w2.x;                                                                   \
         fa[p][i][2 * q + 1] = w2.y;                                                               \
      }
#else
#define FA MI
#define FB NJ
   const int a_off = (wm0 + lane % 16) * ROWA + AS_W(wm0 + lane % 16, 4 * (lane / 16));
#define LOAD_A(p, s, ks)                                                                           \
   GT_TUNROLL                                                                                      \
   for (int i = 0; i < MI; i++)                                                                    \
      GT_LDMATRIX_X4_AT(2, fa[p][i], Af, (s) * (BM * ROWA) + KOFF(a_off, ks) + i * 16 * ROWA);
#if GT_EPW == 1
   const int b_off = t * ROWB + BS_W(t, wn0 + g);
#define LOAD_B(p, s, ks)                                                                           \
   GT_TUNROLL                                                                                      \
   for (int j = 0; j < NJ; j++)                                                                    \
      GT_TUNROLL                                                                                   \
      for (int q = 0; q < 2; q++)                                                                  \
         fb[p][j][q] = LDS_LOAD(3, &Bf[(s) * (BK * ROWB) + KOFF(b_off, 8 * j) + ((ks) + 4 * q) * ROWB]);
#else
   const int b_off = (lane % 16) * ROWB + BS_W(lane % 16, (wn0 + 8 * (lane / 16)) / 2);
#define LOAD_B(p, s, ks)                                                                           \
   GT_TUNROLL                                                                                      \
   for (int j = 0; j < NJ; j += 2) {                                                               \
      uint r4[4];                                                                                  \
      GT_LDMATRIX_X4_TRANS_AT(3, r4, Bf, (s) * (BK * ROWB) + KOFF(b_off, 4 * j) + 2 * (ks) * ROWB); \
      fb[p][j][0] = r4[0];                                                                         \
      fb[p][j][1] = r4[1];                                                                         \
      fb[p][j + 1][0] = r4[2];                                                                     \
      fb[p][j + 1][1] = r4[3];                                                                     \
   }
#endif
#endif
   /* The fragments of depth ks (words) of stage s into register set p. */
#define LOAD_FRAGS(p, s, ks)                                                                       \
   do {                                                                                            \
      LOAD_A(p, s, ks)                                                                             \
      LOAD_B(p, s, ks)                                                                             \
      FRAG_ROUND(p);                                                                               \
   } while (0)
#if GT_EPW == 1 && ROUND
   /* TF32: each word rounded once, as it is loaded, not once per MMA that uses it. With
    * ROUND=0 the MMA reads the FP32 bits and keeps TF32's 19 (a cut, not a rounding). */
#define FRAG_ROUND(p)                                                                              \
   do {                                                                                            \
      GT_TUNROLL                                                                                   \
      for (int i = 0; i < FA; i++)                                                                 \
         GT_TUNROLL                                                                                \
         for (int q = 0; q < 4; q++)                                                               \
            fa[p][i][q] = GT_FRAG_WORD(fa[p][i][q]);                                               \
      GT_TUNROLL                                                                                   \
      for (int j = 0; j < FB; j++)                                                                 \
         GT_TUNROLL                                                                                \
         for (int q = 0; q < 2; q++)                                                               \
            fb[p][j][q] = GT_FRAG_WORD(fb[p][j][q]);                                               \
   } while (0)
#else
#define FRAG_ROUND(p) ((void)0)
#endif

   float acc[FA][FB][4];
   GT_TUNROLL
   for (int i = 0; i < FA; i++)
      GT_TUNROLL
      for (int j = 0; j < FB; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++)
            acc[i][j][e] = 0.0f;
   uint fa[2][FA][4], fb[2][FB][2];

#define MMAS(p)                                                                                    \
   do {                                                                                            \
      GT_TUNROLL                                                                                   \
      for (int i = 0; i < FA; i++)                                                                 \
         GT_TUNROLL                                                                                \
         for (int j = 0; j < FB; j++)                                                              \
            GT_MMA(acc[i][j], fa[p][i], fb[p][j]);                                                 \
   } while (0)
#if PREFETCH
   /* All STAGES tiles in flight before the first is read; from then on the tile after the
    * one being read is waited for, and its first fragments loaded, before the last MMAs of
    * the current one, so the barrier and the ldmatrix latency hide behind them. The tile
    * copied then goes to the stage just read (every warp has its fragments by the barrier). */
   for (int s = 0; s < STAGES; s++) {
      if (s < tiles)
         COPY_TILE(s, s);
      GT_CP_ASYNC_COMMIT();
   }
   GT_CP_ASYNC_WAIT(STAGES - 1);
   barrier(CLK_LOCAL_MEM_FENCE);
   LOAD_FRAGS(0, 0, 0);
   /* Register set of a depth: (kt * KSTEPS + ks) % 2, a constant in each unrolled body when
    * KSTEPS is even; when odd, the tile loop takes two tiles a turn (P0 = 0, then 1). */
#define TILE(kt, P0)                                                                                   \
   do {                                                                                                \
      const int cur = (kt) % STAGES;                                                                   \
      GT_TUNROLL                                                                                       \
      for (int ks = 0; ks < KSTEPS; ks++) {                                                            \
         const int p = ((P0) + ks) % 2;                                                                \
         if (ks + 1 < KSTEPS) {                                                                        \
            LOAD_FRAGS(p ^ 1, cur, (ks + 1) * 8);                                                      \
         } else {                                                                                      \
            GT_CP_ASYNC_WAIT(STAGES - 2);                                                              \
            barrier(CLK_LOCAL_MEM_FENCE);                                                              \
            if ((kt) + STAGES < tiles)                                                                 \
               COPY_TILE(cur, (kt) + STAGES);                                                          \
            GT_CP_ASYNC_COMMIT();                                                                      \
            if ((kt) + 1 < tiles)                                                                      \
               LOAD_FRAGS(p ^ 1, ((kt) + 1) % STAGES, 0);                                              \
         }                                                                                             \
         MMAS(p);                                                                                      \
      }                                                                                                \
   } while (0)
#if KSTEPS % 2 == 0
   for (int kt = 0; kt < tiles; kt++)
      TILE(kt, 0);
#else
   for (int kt = 0; kt < tiles; kt += 2) {
      TILE(kt, 0);
      if (kt + 1 < tiles)
         TILE(kt + 1, 1);
   }
#endif
#else
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
         MMAS(p);
      }
   }
#endif
   GT_CP_ASYNC_WAIT(0);

   /* Each lane holds pairs of accumulators that are neighbours in a row of C (pair h of
    * fragment (i, j)): one 8-byte store each. Normally accumulators 2h and 2h + 1, row
    * 16i + g + 8h, columns 8j + 2t and 8j + 2t + 1. With TMMA the accumulators hold C^T:
    * accumulators h and h + 2, row 8j + 2t + h, columns 16i + 2g and 16i + 2g + 1. */
#if TMMA
#define C_IDX(i, j, h) ((size_t)(row0 + wm0 + (j) * 8 + 2 * t + (h)) * N + col0 + wn0 + (i) * 16 + 2 * g)
#define C_PAIR(i, j, h) MAKE_REAL2(acc[i][j][h], acc[i][j][(h) + 2])
#else
#define C_IDX(i, j, h) ((size_t)(row0 + wm0 + (i) * 16 + g + 8 * (h)) * N + col0 + wn0 + (j) * 8 + 2 * t)
#define C_PAIR(i, j, h) MAKE_REAL2(acc[i][j][2 * (h)], acc[i][j][2 * (h) + 1])
#endif
   GT_TUNROLL
   for (int i = 0; i < FA; i++)
      GT_TUNROLL
      for (int j = 0; j < FB; j++)
         GT_TUNROLL
         for (int h = 0; h < 2; h++) {
            __global real2 *c2 = (__global real2 *)&C[C_IDX(i, j, h)];
            real2 v = C_PAIR(i, j, h) * alpha;
            if (beta != REAL_ZERO)
               v = v + *c2 * beta;
            GT_STORE_CN(2, *c2, v);
         }
}
