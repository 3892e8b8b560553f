/*@gemmtop
name:     hopper9_swapab
title:    Hopper 9: swap-AB, the weight's rows fill wgmma's 64 rows
ladder:   hopper
step:     9
tune:     yes
about:    For a few tokens (M below 64), as FlashInfer's sm90 FP8 GEMM does below 32: wgmma
about:    multiplies 64 rows by a narrow N (8 to 256), so C = A B with M = 16 would waste
about:    three quarters of every product in a 64-row tile. This step computes C^T = B^T A^T
about:    instead: B, stored N x K as a model keeps its weight, is the MMA's 64-row side (BN
about:    rows a block, BN / CONS a consumer) and the BT tokens of A are the narrow wgmma N.
about:    Both operands stay K-major, so the tiles are step 6's with the roles swapped: the
about:    copy engine brings a BN x BK tile of the weight and a BT x BK tile of the tokens,
about:    and each stage is mostly weight, streamed once. The accumulators hold C^T: the
about:    epilogue writes element (n, m) to C's row m, column n (gt_sched_swap_c). Split-K
about:    as step 6 fills the GPU when N / BN blocks are too few: SPLIT blocks share each
about:    tile's K steps, partial sums in SPLIT planes, a fix-up adds them in plane order.
about:    Half, bfloat16, tf32 and FP8 (e4m3, e5m2 with per-tensor scales, applied where C
about:    is written: the epilogue, or the fix-up when K is split). FP8 takes wgmma k32, a
about:    tile row BK bytes (its presets: BK = 128, the 128-byte swizzle); its tensor core sums in
about:    fewer bits than FP32, so PROMOTE=1 adds each tile's sums into FP32 registers, which
about:    the few tokens' small accumulators make cheap (PROMOTE=0: never, the ablation).
param:    CONS = 1 in 1, 2 ; consumer warpgroups
param:    BN = 128 in 64, 128, 256 ; columns of C (rows of the weight B) per block: BN / CONS per consumer
param:    BT = 16 in 8, 16, 32, 48, 64 ; rows of C (tokens) per block: the wgmma N
param:    BK = 64 in 8, 16, 32, 64, 128, 256 ; tile depth along K in elements
param:    SW = 64 in 0, 32, 64, 128 ; swizzle of the shared tiles in bytes (0: none); 64 so that the defaults hold in FP8 too (BK of 64 bytes), the presets take 128
param:    STAGES = 6 in 2, 3, 4, 5, 6, 8, 10, 12, 16 ; tiles in flight in shared memory (a decode streams the weight through many)
param:    BLOCKS = 2 in 1, 2, 3, 4 ; blocks per multiprocessor that the registers are shared for
param:    SPLIT = 4 in 1, 2, 3, 4, 5, 6, 8, 12, 16 ; blocks that share the K steps of a tile (1: no workspace)
param:    ROTATE = 0 in 0, 1 ; 1: block b starts its K steps b / blocks of the way round, so blocks do not ask for one token line at once
param:    PROMOTE = 1 in 0, 1 ; FP8: 1 adds each tile's wgmma sums into FP32 registers; 0 leaves a block's share of K in wgmma's accumulator
reuse:    A=BN B=BT
band:     1
local_reuse: A=64 B=BT
arch:     sm_90a
precisions: tf32 half bfloat16 e4m3 e5m2
accumulate: fp8-tensor-core PROMOTE * BK
tensor:   yes
bound:    memory
require:  BK * IN_SIZE % (SW == 0 ? 32 : SW) == 0 && BK * IN_SIZE >= 32 ; BK times the element size must be a multiple of the swizzle width (32 bytes without swizzle)
require:  BN % (64 * CONS) == 0 ; each consumer warpgroup takes a multiple of 64 rows of the weight
require:  BN / CONS / 64 * BT / 2 * (1 + (IN_SIZE == 1) * PROMOTE) + 16 <= 65536 / (128 * (CONS + 1) * BLOCKS) / 8 * 8 ; a consumer's accumulators (BN / CONS / 64 * BT / 2 a thread, twice that when FP8 promotes) must fit the registers BLOCKS blocks a multiprocessor leave at entry, or they spill
require:  PROMOTE == 1 || IN_SIZE == 1 ; PROMOTE=0 is FP8's ablation: the other types' wgmma sums in FP32
require:  GT_SCALE_BLOCK == 0 ; FP8 with per-tensor scales (--scaling tensor): block scales are the FP8 ladder's
operands: A=N B=T
pad:      M=BT N=BN K=BK
global:   N / BN * (M / BT) * 128 * (CONS + 1), SPLIT
local:    128 * (CONS + 1), 1
dynamic_smem: STAGES * (BN + BT) * BK * IN_SIZE + 1024 + 16 * STAGES
tma:      A box=(SW == 0 ? 16 : SW) / IN_SIZE,BT swizzle=SW
tma:      B box=(SW == 0 ? 16 : SW) / IN_SIZE,BN swizzle=SW
workspace: SPLIT > 1 ? SPLIT * M * N * REAL_SIZE : 0
fixup:    gemm_fixup
fixup_global: SPLIT > 1 ? N / 4 : 0, M
fixup_local: 16, 4
sites:    0=TMA write A (model), 1=wgmma read A (model), 2=unswizzled read A
*/
#define WN (BN / CONS) /* weight rows per consumer warpgroup */
#define THREADS (128 * (CONS + 1))
/* setmaxnreg as step 5: the producer keeps 40 registers, the consumers share the rest. */
#define REGS (65536 / (THREADS * BLOCKS) / 8 * 8)
#define MOVE_REGS (REGS < 256)
#define REGS_PRODUCER 40
#define REGS_CONSUMER_ ((REGS * THREADS - REGS_PRODUCER * 128) / (128 * CONS) / 8 * 8)
#define REGS_CONSUMER (REGS_CONSUMER_ > 256 ? 256 : REGS_CONSUMER_)
/* The element: 1 byte (e4m3, e5m2), 2 (half, bfloat16) or 4 (tf32); wgmma's k-step is 32
 * bytes in each (the helpers pick the instruction for the type). */
#define ES (GT_FP8 ? 1 : GT_HALF || GT_BF16 ? 2 : 4)
/* FP8's sums leave wgmma's accumulator for FP32 registers after every tile (PROMOTE). */
#define PROMOTING (GT_FP8 && PROMOTE)
/* The per-tensor scales (1 for the other types), applied where C is written. */
#if GT_FP8
#define SCALE_AB (GT_SCALE_A(0) * GT_SCALE_B(0))
#else
#define SCALE_AB 1.0f
#endif
#define ATOM (SW == 0 ? 16 : SW)  /* bytes of a tile row in one TMA box */
#define TILE_W (BN * BK * ES)     /* the weight's tile: the MMA's rows */
#define TILE_T (BT * BK * ES)     /* the tokens' tile: the MMA's narrow N */
#define STAGE (TILE_W + TILE_T)
#define KSTEPS (BK * ES / 32)     /* wgmma k-steps per tile: 32 bytes each */
#define WGMMA_N(n) gt_wgmma_n##n
#define WGMMA_T(n) WGMMA_N(n)     /* the wgmma of the element type, N = BT tokens */

/* The descriptor of k-step kk of a tile of `rows` rows at tile (shared address) + row0's
 * block, as step 5: BK*ES/ATOM boxes of rows x ATOM bytes side by side. */
__device__ inline gt_u64 descAt(uint tile, int rows, int row0, int kk) {
   const uint off = (uint)(kk * 32 / ATOM) * rows * ATOM + (uint)(kk * 32 % ATOM) + (uint)row0 * ATOM;
   return gt_wgmma_desc(tile + off, SW == 0 ? rows * 16 : 16, 8 * ATOM, SW);
}

/* K step t of the weight's rows n0.. and the tokens' rows m0.. into one stage. */
__device__ inline void loadTiles(unsigned char *stage, const GtTensorMap *ma, const GtTensorMap *mb, int t, int m0,
                                 int n0, gt_u64 *bar) {
   gt_mbar_expect_tx(bar, STAGE);
   for (int b = 0; b < BK * ES / ATOM; b++) {
      gt_tma_load(stage + b * BN * ATOM, mb, t * BK + b * ATOM / ES, n0, bar);
      gt_tma_load(stage + TILE_W + b * BT * ATOM, ma, t * BK + b * ATOM / ES, m0, bar);
   }
}

#define FENCE_ACC()                                                                                                  \
   _Pragma("unroll") for (int m_ = 0; m_ < WN / 64; m_++) _Pragma("unroll") for (int i_ = 0; i_ < BT / 2; i_++)   \
      gt_fence_reg(acc[m_][i_])

/* One stage's products: the consumer's WN weight rows from row r0 times the BT tokens;
 * fresh, the first k-step overwrites acc (scale-d 0) instead of adding to it. */
__device__ inline void mmaStage(float (*acc)[BT / 2], unsigned char *stage, int r0, int fresh) {
   const uint w = gt_smem_addr(stage), tok = w + TILE_W;
#pragma unroll
   for (int kk = 0; kk < KSTEPS; kk++) {
      const gt_u64 dt = descAt(tok, BT, 0, kk);
#pragma unroll
      for (int m = 0; m < WN / 64; m++)
         WGMMA_T(BT)(acc[m], descAt(w, BN, r0 + m * 64, kk), dt, kk > 0 || !fresh);
   }
}

/* The accumulators hold C^T: element i of thread tid is the weight row n0 + wgmma_row and
 * the token m0 + wgmma_col, C's element (m, n). With SPLIT 1 it is finished with alpha (the
 * FP8 scales in it) and beta; otherwise written as it is into plane z of the workspace, C's
 * layout, and the fix-up applies them. Four bytes a store: 8 lanes write 8 neighbours of a
 * row of C (32 bytes), and C is M x N with M small. */
__device__ inline void storeC(float (*acc)[BT / 2], int tid, int n0, int m0, int N, float alpha, float beta,
                              float *C) {
#pragma unroll
   for (int m = 0; m < WN / 64; m++)
#pragma unroll
      for (int i = 0; i < BT / 2; i++) {
         float *p = &C[gt_sched_swap_c(m * 64 + gt_sched_wgmma_row(tid, i), gt_sched_wgmma_col(tid, i), n0, m0, N)];
#if SPLIT > 1
         GT_STORE_C(*p, acc[m][i]);
#else
         GT_STORE_C(*p, beta != 0.0f ? alpha * acc[m][i] + beta * *p : alpha * acc[m][i]);
#endif
      }
}

__kernel __launch_bounds__(THREADS, BLOCKS) void gemm(const int M, const int N, const int K, const real alpha,
                                                      const __global in_t *A, const __global in_t *B, const real beta,
                                                      __global real *C GT_SCALE_PARAMS, __global real *W,
                                                      GT_TENSOR_MAP tmA, GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   unsigned char *ring = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   gt_u64 *full = (gt_u64 *)(ring + STAGES * STAGE); /* filled by the copy engine */
   gt_u64 *empty = full + STAGES;                     /* read by every consumer warp */
   const int tid = threadIdx.x, wg = gt_warpgroup();
   /* Consecutive blocks take the same tokens and consecutive rows of the weight. */
   const int tilesN = N / BN, n0 = blockIdx.x % tilesN * BN, m0 = blockIdx.x / tilesN * BT;
   /* Block z of the tile takes its run of the K steps, [t0, t0 + tiles). */
   const int z = blockIdx.y, steps = K / BK;
   const int t0 = (int)gt_sched_share_start(z, steps, SPLIT), tiles = (int)gt_sched_share_start(z + 1, steps, SPLIT) - t0;
   if (tid == 0) {
      /* The maps fetched ahead of the first load: 0.4-0.8 points of the copy bandwidth at
       * decode (H200, 2026-12-01); in step 5 the same cost 5-8 points of 64 x 64 tiles' speed. */
      gt_tma_prefetch_map(&tmA);
      gt_tma_prefetch_map(&tmB);
      for (int s = 0; s < STAGES; s++) {
         gt_mbar_init(&full[s], 1);
         gt_mbar_init(&empty[s], 4 * CONS);
      }
      gt_mbar_fence_init();
   }
   __syncthreads();
   if (wg == 0) {
#if MOVE_REGS
      gt_setmaxnreg_dec(REGS_PRODUCER);
#endif
      /* ROTATE: the K steps taken from `rot` on, round to it; the sums do not mind the order. */
      const int rot = ROTATE ? (int)((long long)blockIdx.x * tiles / gridDim.x) : 0;
      if (tid == 0)
         for (int t = 0; t < tiles; t++) {
            const int s = t % STAGES;
            if (t >= STAGES)
               gt_mbar_wait(&empty[s], (t / STAGES - 1) & 1);
            loadTiles(ring + s * STAGE, &tmA, &tmB, t0 + (t + rot) % tiles, m0, n0, &full[s]);
         }
   } else {
#if MOVE_REGS
      gt_setmaxnreg_inc(REGS_CONSUMER);
#endif
      const int ctid = (tid - 128) % 128, r0 = (wg - 1) * WN;
      float acc[WN / 64][BT / 2];
#if PROMOTING
      float sum[WN / 64][BT / 2]; /* the promoted FP32 sums */
#else
#define sum acc
#endif
#pragma unroll
      for (int m = 0; m < WN / 64; m++)
#pragma unroll
         for (int i = 0; i < BT / 2; i++)
            acc[m][i] = sum[m][i] = 0.0f;
      for (int t = 0; t < tiles; t++) {
         const int s = t % STAGES;
         gt_mbar_wait(&full[s], (t / STAGES) & 1);
         FENCE_ACC();
         gt_wgmma_fence();
         mmaStage(acc, ring + s * STAGE, r0, PROMOTING);
         gt_wgmma_commit();
#if PROMOTING
         /* this tile's sums are complete: give the slot back, add them in FP32 */
         gt_wgmma_wait(0);
         FENCE_ACC();
         if (tid % 32 == 0)
            gt_mbar_arrive(&empty[s]);
#pragma unroll
         for (int m = 0; m < WN / 64; m++)
#pragma unroll
            for (int i = 0; i < BT / 2; i++)
               sum[m][i] += acc[m][i];
#else
         gt_wgmma_wait(1); /* step t-1's products are done: give its slot back */
         FENCE_ACC();
         if (t > 0 && tid % 32 == 0)
            gt_mbar_arrive(&empty[gt_ring_prev(s, STAGES)]);
#endif
      }
      gt_wgmma_wait(0);
      FENCE_ACC();
      storeC(sum, ctid, n0 + r0, m0, N, alpha * SCALE_AB, beta, SPLIT > 1 ? W + (size_t)z * M * N : C);
#undef sum
   }
}

/* C = alpha * (the planes' sum, in plane order: the same bits every run) + beta * C, the FP8
 * scales in alpha; four columns a work-item, one 16-byte load a plane and one 16-byte store.
 * Launched only when SPLIT > 1. */
__kernel void gemm_fixup(const int M, const int N, const int K, const real alpha, const __global in_t *A,
                         const __global in_t *B, const real beta, __global real *C GT_SCALE_PARAMS,
                         __global real *W) {
   const int col = get_global_id(0) * 4, row = get_global_id(1);
   const size_t at = ((size_t)row * N + col) / 4, plane = (size_t)M * N / 4;
   const __global real4 *W4 = (const __global real4 *)W;
   real4 sum = W4[at];
   for (int z = 1; z < SPLIT; z++)
      sum = sum + W4[(size_t)z * plane + at];
   __global real4 *c4 = (__global real4 *)C + at;
   real4 v = sum * (alpha * SCALE_AB);
   if (beta != REAL_ZERO)
      v = v + *c4 * beta;
   GT_STORE_CN(4, *c4, v);
}
