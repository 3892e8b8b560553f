/*@gemmtop
name:     fp8h1_wgmma
title:    Hopper FP8 1: wgmma k32 on the TMA pipeline, per-tensor scales
ladder:   hopper-fp8
step:     1
accumulate: fp8-tensor-core PROMOTE * 128
about:    The bfloat16 ladder's fastest structure (hopper5_order: a producer warpgroup that
about:    keeps a ring of shared-memory stages full through TMA, CONS consumer warpgroups
about:    that multiply with wgmma, registers moved to them with setmaxnreg, blocks launched
about:    in bands of GROUP rows for L2) with A and B in one byte an element: wgmma
about:    m64nNk32 e4m3 or e5m2, both operands K-major (B stored N x K). A stage is one
about:    128-deep k-block: a single 128-byte box row per operand row, 128-byte swizzle, four
about:    wgmma k-steps. The FP8 tensor core adds its products into an accumulator that keeps
about:    fewer bits than FP32, so with PROMOTE=1 each k-block's sums start afresh and are
about:    then added into FP32 registers (promotion); PROMOTE=0 leaves all of K in wgmma's
about:    accumulator, the ablation that shows what promotion buys. The per-tensor scales and
about:    alpha are applied once, in the epilogue.
param:    CONS = 2 in 1, 2 ; consumer warpgroups
param:    BM = 128 in 64, 128, 256 ; rows of C per block (BM / CONS per consumer)
param:    BN = 128 in 64, 128, 192, 256 ; columns of C per block: the wgmma N
param:    STAGES = 4 in 2, 3, 4, 5, 6 ; 128-deep k-blocks in flight in shared memory
param:    GROUP = 8 in 1, 2, 4, 8, 16, 32 ; block rows per band of the launch order (1: row by row)
param:    PROMOTE = 1 in 0, 1 ; 1: each k-block's wgmma sums added into FP32 registers; 0: all of K in wgmma's accumulator
arch:     sm_90a
precisions: e4m3 e5m2
tensor:   yes
require:  GT_SCALE_BLOCK == 0 ; step 1 applies per-tensor scales in the epilogue; block scales come at step 2 (fp8h2_blockscale)
require:  BM % (64 * CONS) == 0 && BM / CONS <= 128 ; each consumer warpgroup takes 64 or 128 rows of the tile
require:  BM / CONS / 64 * BN / 2 * (1 + PROMOTE) <= 192 ; a consumer thread keeps BM / CONS / 64 * BN / 2 sums, twice that with PROMOTE=1: at most 192 fit its registers
operands: A=N B=T
pad:      M=BM N=BN K=128
global:   N / BN * (M / BM) * 128 * (CONS + 1), 1
local:    128 * (CONS + 1), 1
dynamic_smem: STAGES * (BM + BN) * 128 + 1024 + 16 * STAGES
tma:      A box=128,BM swizzle=128
tma:      B box=128,BN swizzle=128
reuse:    A=BN B=BM
band:     GROUP
local_reuse: A=BN B=64
*/
#define KB 128         /* bytes (FP8 elements) of k per stage: one box row, the scales' block */
#define WM (BM / CONS) /* rows per consumer warpgroup */
#define THREADS (128 * (CONS + 1))
/* setmaxnreg (as hopper5_order): the producer gives all but 40 registers back and the
 * consumers share them; with one consumer there are 256 at entry and nothing to move. */
#define REGS (65536 / THREADS / 8 * 8)
#define MOVE_REGS (REGS < 256)
#define REGS_PRODUCER 40
#define REGS_CONSUMER_ ((REGS * THREADS - REGS_PRODUCER * 128) / (128 * CONS) / 8 * 8)
#define REGS_CONSUMER (REGS_CONSUMER_ > 256 ? 256 : REGS_CONSUMER_)
#define TILE_A (BM * KB)
#define TILE_B (BN * KB)
#define STAGE (TILE_A + TILE_B)
#define KSTEPS (KB / 32) /* wgmma k-steps per stage: 32 bytes each */

/* The descriptor of k-step kk of a K-major tile at shared address `tile`, from row row0: rows
 * of 128 bytes, 128-byte swizzle (8-row groups 1024 bytes apart), a k-step 32 bytes along. */
__device__ inline gt_u64 descAt(uint tile, int row0, int kk) {
   return gt_wgmma_desc(tile + (uint)row0 * KB + (uint)kk * 32, 16, 8 * KB, 128);
}

/* k-block kb of A's rows row0.. and B's rows (C's columns) col0.. into one stage. */
__device__ inline void loadStage(unsigned char *stage, const GtTensorMap *ma, const GtTensorMap *mb, int kb, int row0,
                                 int col0, gt_u64 *bar) {
   gt_mbar_expect_tx(bar, STAGE);
   gt_tma_load(stage, ma, kb * KB, row0, bar);
   gt_tma_load(stage + TILE_A, mb, kb * KB, col0, bar);
}

/* The accumulators stay where the asynchronous MMA left them. */
#define FENCE_ACC()                                                                                                  \
   _Pragma("unroll") for (int m_ = 0; m_ < WM / 64; m_++) _Pragma("unroll") for (int i_ = 0; i_ < BN / 2; i_++)   \
      gt_fence_reg(acc[m_][i_])

#define WGMMA_N(n) gt_wgmma_n##n
#define WGMMA(n) WGMMA_N(n)

/* One stage's products into acc, the WM rows of this warpgroup from row r0 of the tile. With
 * fresh, the first k-step overwrites acc (scale-d 0) instead of adding to it. */
__device__ inline void mmaStage(float (*acc)[BN / 2], unsigned char *stage, int r0, int fresh) {
   const uint a = gt_smem_addr(stage), b = a + TILE_A;
#pragma unroll
   for (int kk = 0; kk < KSTEPS; kk++) {
      const gt_u64 db = descAt(b, 0, kk);
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
         WGMMA(BN)(acc[m], descAt(a, r0 + m * 64, kk), db, kk > 0 || !fresh);
   }
}

/* C = scale sum + beta C from the wgmma accumulator layout: thread t of the warpgroup holds
 * rows 16 (t/32) + (t%32)/4 (+8) and column pairs 8j + 2 (t%4). */
__device__ inline void storeC(float (*sum)[BN / 2], int tid, int row0, int col0, int N, float scale, float beta,
                              float *C) {
   const int r = row0 + 16 * (tid / 32) + (tid % 32) / 4, c = col0 + 2 * (tid % 4);
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int j = 0; j < BN / 8; j++)
#pragma unroll
         for (int h = 0; h < 2; h++) {
            float2 *p = (float2 *)&C[(size_t)(r + m * 64 + 8 * h) * N + c + 8 * j];
            float2 v = make_float2(scale * sum[m][4 * j + 2 * h], scale * sum[m][4 * j + 2 * h + 1]);
            if (beta != 0.0f) {
               const float2 old = *p;
               v.x += beta * old.x;
               v.y += beta * old.y;
            }
            GT_STORE_CN(2, *p, v);
         }
}

__kernel __launch_bounds__(THREADS, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                                 const __global in_t *A, const __global in_t *B, const real beta,
                                                 __global real *C GT_SCALE_PARAMS, GT_TENSOR_MAP tmA,
                                                 GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   unsigned char *ring = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   gt_u64 *full = (gt_u64 *)(ring + STAGES * STAGE); /* filled by the copy engine */
   gt_u64 *empty = full + STAGES;                     /* released by every consumer warp */
   const int tid = threadIdx.x, wg = tid / 128;
   /* GROUP block rows side by side (hopper5_order): the blocks of a wave share A's rows and
    * sweep a band of B's columns, which stay in L2. */
   const int tilesM = M / BM, tilesN = N / BN, bid = blockIdx.x;
   const int inGroup = GROUP * tilesN, first = bid / inGroup * GROUP;
   const int rows = min(tilesM - first, GROUP);
   const int row0 = (first + bid % inGroup % rows) * BM, col0 = bid % inGroup / rows * BN;
   const int kblocks = K / KB;
   if (tid == 0) {
      for (int s = 0; s < STAGES; s++) {
         gt_mbar_init(&full[s], 1);
         gt_mbar_init(&empty[s], 4 * CONS);
      }
      gt_mbar_fence_init();
   }
   __syncthreads();
   if (wg == 0) {
      /* the producer: one thread keeps the ring full */
#if MOVE_REGS
      gt_setmaxnreg_dec(REGS_PRODUCER);
#endif
      if (tid == 0)
         for (int t = 0; t < kblocks; t++) {
            const int s = t % STAGES;
            if (t >= STAGES)
               gt_mbar_wait(&empty[s], (t / STAGES - 1) & 1);
            loadStage(ring + s * STAGE, &tmA, &tmB, t, row0, col0, &full[s]);
         }
   } else {
#if MOVE_REGS
      gt_setmaxnreg_inc(REGS_CONSUMER);
#endif
      const int ctid = tid % 128, r0 = (wg - 1) * WM; /* ctid: the thread in its warpgroup */
      float acc[WM / 64][BN / 2];
#if PROMOTE
      float sum[WM / 64][BN / 2]; /* the promoted FP32 sums */
#else
#define sum acc
#endif
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int i = 0; i < BN / 2; i++)
            acc[m][i] = sum[m][i] = 0.0f;
      for (int t = 0; t < kblocks; t++) {
         const int s = t % STAGES;
         gt_mbar_wait(&full[s], (t / STAGES) & 1);
         FENCE_ACC();
         gt_wgmma_fence();
         mmaStage(acc, ring + s * STAGE, r0, PROMOTE);
         gt_wgmma_commit();
#if PROMOTE
         /* this k-block's sums are complete: give the slot back, add them in FP32 */
         gt_wgmma_wait(0);
         FENCE_ACC();
         if (tid % 32 == 0)
            gt_mbar_arrive(&empty[s]);
#pragma unroll
         for (int m = 0; m < WM / 64; m++)
#pragma unroll
            for (int i = 0; i < BN / 2; i++)
               sum[m][i] += acc[m][i];
#else
         gt_wgmma_wait(1); /* k-block t-1's products are done: give its slot back */
         FENCE_ACC();
         if (t > 0 && tid % 32 == 0)
            gt_mbar_arrive(&empty[(t - 1) % STAGES]);
#endif
      }
      gt_wgmma_wait(0);
      FENCE_ACC();
      storeC(sum, ctid, row0 + r0, col0, N, alpha * (GT_SCALE_A(0) * GT_SCALE_B(0)), beta, C);
#undef sum
   }
}
