/*@gemmtop
name:     hopper3_warpspec
title:    Hopper 3: producer and consumer warpgroups
ladder:   hopper
step:     3
about:    The block's warpgroups take roles. One producer warpgroup, of which one thread
about:    issues the copies, waits on an "empty" mbarrier per slot and refills it as soon as
about:    the consumers release it; the consumer warpgroup waits on the "full" barrier,
about:    multiplies, and releases the slot of the previous tile when its wgmma is done. No
about:    block-wide barrier is left in the main loop: the two sides meet only on mbarriers.
about:    With BLOCKS=2 (two blocks per multiprocessor, 128 registers per thread at entry)
about:    setmaxnreg moves registers from the producer (to 40) to the consumer. The 16-bit
about:    and tf32 presets run one block per multiprocessor with a 128 x 192 tile (BN=192:
about:    192 accumulators per consumer thread) and four stages; step 2 given the same tile
about:    runs as fast, so on the H100 the gain over step 2's preset is the tile's, and the
about:    roles pay in step 4. In 3xTF32 each tile is split into its TF32 parts as it lands:
about:    SPLITBY=1 (the default) has the consumer split it while its previous tile's wgmma
about:    runs, as step 2 does; SPLITBY=0 gives the work to the producer's three idle warps
about:    (the consumer waits on a third barrier, "ready", and only multiplies), 2 to both.
about:    On the H100 the split, not the copies, limits 3xTF32: with 1, step 3 is 3% slower
about:    than step 2 in 3xTF32 (with 0 8%, with 2 6%).
param:    CONS = 1 in 1 ; consumer warpgroups (step 4 has two)
param:    BM = 128 in 64, 128 ; rows of C per block
param:    BN = 128 in 64, 128, 192, 256 ; columns of C per block: the wgmma N
param:    BK = 32 in 8, 16, 32, 64, 128 ; tile depth along K in elements
param:    SW = 128 in 0, 32, 64, 128 ; swizzle of the shared tiles in bytes (0: none)
param:    STAGES = 3 in 2, 3, 4, 5, 6 ; tiles in flight in shared memory
param:    BLOCKS = 2 in 1, 2 ; blocks per multiprocessor that the registers are shared for
param:    SPLITBY = 1 in 0, 1, 2 ; 3xTF32: who splits each tile: 0 the producer's 3 other warps, 1 the consumer, 2 both (7 warps)
reuse:    A=BN B=BM
local_reuse: A=(IN_SIZE==4&&GT_TF32==0?BN*5/48:BN) B=(IN_SIZE==4&&GT_TF32==0?64*BM*5/(15*BM+2112):64)
arch:     sm_90a
precisions: float tf32 half bfloat16
tensor:   yes
require:  BK * IN_SIZE % (SW == 0 ? 32 : SW) == 0 && BK * IN_SIZE >= 32 ; BK times the element size must be a multiple of the swizzle width (32 bytes without swizzle)
require:  BM % (64 * CONS) == 0 && BM / CONS <= 128 ; each consumer warpgroup takes 64 or 128 rows of the tile
require:  BLOCKS == 1 || (BN <= 128 && CONS == 1) ; two blocks per multiprocessor leave 128 registers at entry: one consumer, and a wgmma N of at most 128 (ptxas checks each wgmma against the entry count)
operands: A=N B=T
pad:      M=BM N=BN K=BK
global:   N / BN * 128 * (CONS + 1), M / BM
local:    128 * (CONS + 1), 1
dynamic_smem: STAGES * (BM + BN) * BK * IN_SIZE * (GT_TF32 || GT_HALF || GT_BF16 ? 1 : 2) + 1024 + 24 * STAGES
tma:      A box=(SW == 0 ? 16 : SW) / IN_SIZE,BM swizzle=SW
tma:      B box=(SW == 0 ? 16 : SW) / IN_SIZE,BN swizzle=SW
sites:    0=TMA write A (model), 1=wgmma read A (model), 2=unswizzled read A
*/
#define WM (BM / CONS) /* rows per consumer warpgroup */
#define THREADS (128 * (CONS + 1))
/* setmaxnreg: the block starts with REGS registers per thread (the cap that BLOCKS blocks
 * per multiprocessor leave, in steps of 8); the producer gives all but 40 back and the
 * consumers share them. Without a cap below 256 there is nothing to move. */
#define REGS (65536 / (THREADS * BLOCKS) / 8 * 8)
#define MOVE_REGS (REGS < 256)
#define REGS_PRODUCER 40
/* 3xTF32: the threads that split a tile, the producer's first (SPLITBY 0 and 2), then the
 * consumer's (1 and 2) */
#define SPLITTERS (SPLITBY == 0 ? 96 : SPLITBY == 1 ? 128 : 224)
#define REGS_CONSUMER_ ((REGS * THREADS - REGS_PRODUCER * 128) / (128 * CONS) / 8 * 8)
#define REGS_CONSUMER (REGS_CONSUMER_ > 256 ? 256 : REGS_CONSUMER_)
#define SPLIT3 (!GT_TF32 && !GT_HALF && !GT_BF16) /* FP32 inputs: 3xTF32 */
#define ES (GT_HALF || GT_BF16 ? 2 : 4)           /* bytes of an A or B element */
#define ATOM (SW == 0 ? 16 : SW)                  /* bytes of a tile row in one TMA box */
#define TILE_A (BM * BK * ES)
#define TILE_B (BN * BK * ES)
#define STAGE (TILE_A + TILE_B)                   /* the lo parts of 3xTF32 follow the stage */
#define KSTEPS (BK * ES / 32)                     /* wgmma k-steps per tile: 32 bytes each */
#define STAGE_ALL (STAGE * (SPLIT3 ? 2 : 1))     /* bytes of one stage in shared memory */

/* The descriptor of k-step kk of a tile of `rows` rows at tile (shared address) + row0's
 * block. A tile is BK*ES/ATOM boxes of rows x ATOM bytes side by side; swizzled, a
 * k-step is 32 bytes inside one box row; without swizzle a box is one column of 8x16-byte
 * core matrices and a k-step spans two boxes (LBO apart). */
__device__ inline gt_u64 descAt(uint tile, int rows, int row0, int kk) {
   const uint off = (uint)(kk * 32 / ATOM) * rows * ATOM + (uint)(kk * 32 % ATOM) + (uint)row0 * ATOM;
   return gt_wgmma_desc(tile + off, SW == 0 ? rows * 16 : 16, 8 * ATOM, SW);
}

/* All boxes of tile t of A and B into one stage, counted on bar. */
__device__ inline void loadTiles(unsigned char *stage, const GtTensorMap *ma, const GtTensorMap *mb, int t, int row0,
                                 int col0, gt_u64 *bar) {
   gt_mbar_expect_tx(bar, STAGE);
   for (int b = 0; b < BK * ES / ATOM; b++) {
      gt_tma_load(stage + b * BM * ATOM, ma, t * BK + b * ATOM / ES, row0, bar);
      gt_tma_load(stage + TILE_A + b * BN * ATOM, mb, t * BK + b * ATOM / ES, col0, bar);
   }
}

/* 3xTF32: x = hi + lo with hi = x rounded to TF32 (in place) and lo = x - hi (exact in
 * FP32) in the same position STAGE bytes further, so both keep the swizzled layout. */
__device__ inline void splitStage(unsigned char *stage, int tid, int threads) {
   float4 *raw = (float4 *)stage, *lo = (float4 *)(stage + STAGE);
   for (int i = tid; i < STAGE / 16; i += threads) {
      const float4 x = raw[i];
      float4 h;
      h.x = gt_tf32_round(x.x);
      h.y = gt_tf32_round(x.y);
      h.z = gt_tf32_round(x.z);
      h.w = gt_tf32_round(x.w);
      raw[i] = h;
      lo[i] = make_float4(x.x - h.x, x.y - h.y, x.z - h.z, x.w - h.w);
   }
}

/* The accumulators stay where the asynchronous MMA left them. */
#define FENCE_ACC()                                                                                                  \
   _Pragma("unroll") for (int m_ = 0; m_ < WM / 64; m_++) _Pragma("unroll") for (int i_ = 0; i_ < BN / 2; i_++)   \
      gt_fence_reg(acc[m_][i_])

#define WGMMA_N(n) gt_wgmma_n##n
#define WGMMA(n) WGMMA_N(n)

/* The products of one stage into acc: the WM rows of this warpgroup from row r0 of the tile. */
__device__ inline void mmaStage(float (*acc)[BN / 2], unsigned char *stage, int r0) {
   const uint a = gt_smem_addr(stage), b = a + TILE_A;
#pragma unroll
   for (int kk = 0; kk < KSTEPS; kk++) {
      const gt_u64 db = descAt(b, BN, 0, kk);
#pragma unroll
      for (int m = 0; m < WM / 64; m++) {
         const gt_u64 da = descAt(a, BM, r0 + m * 64, kk);
#if SPLIT3
         /* the small terms first: lo*hi and hi*lo, then hi*hi */
         WGMMA(BN)(acc[m], descAt(a + STAGE, BM, r0 + m * 64, kk), db, 1);
         WGMMA(BN)(acc[m], da, descAt(b + STAGE, BN, 0, kk), 1);
#endif
         WGMMA(BN)(acc[m], da, db, 1);
      }
   }
}

/* C = alpha acc + beta C from the wgmma accumulator layout: thread t of the warpgroup
 * holds rows 16 (t/32) + (t%32)/4 (+8) and column pairs 8j + 2 (t%4). */
__device__ inline void storeC(float (*acc)[BN / 2], int tid, int row0, int col0, int N, float alpha, float beta,
                              float *C) {
   const int r = row0 + 16 * (tid / 32) + (tid % 32) / 4, c = col0 + 2 * (tid % 4);
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int j = 0; j < BN / 8; j++)
#pragma unroll
         for (int h = 0; h < 2; h++) {
            float2 *p = (float2 *)&C[(size_t)(r + m * 64 + 8 * h) * N + c + 8 * j];
            float2 v = make_float2(alpha * acc[m][4 * j + 2 * h], alpha * acc[m][4 * j + 2 * h + 1]);
            if (beta != 0.0f) {
               const float2 old = *p;
               v.x += beta * old.x;
               v.y += beta * old.y;
            }
            *p = v;
         }
}

__kernel __launch_bounds__(THREADS, BLOCKS) void gemm(const int M, const int N, const int K, const real alpha,
                                                 const __global in_t *A, const __global in_t *B, const real beta,
                                                 __global real *C, GT_TENSOR_MAP tmA, GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   unsigned char *ring = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   gt_u64 *full = (gt_u64 *)(ring + STAGES * STAGE_ALL); /* filled by the copy engine */
   gt_u64 *empty = full + STAGES;                         /* read by every consumer warp */
   gt_u64 *ready = empty + STAGES;                        /* 3xTF32: the stage is split */
   const int tid = threadIdx.x, wg = tid / 128;
   const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
   const int tiles = K / BK;
   if (tid == 0) {
      for (int s = 0; s < STAGES; s++) {
         gt_mbar_init(&full[s], 1);
         gt_mbar_init(&empty[s], 4 * CONS);
         gt_mbar_init(&ready[s], 3);
      }
      gt_mbar_fence_init();
   }
   __syncthreads();
   if (wg == 0) {
      /* the producer: one thread keeps the ring full; in 3xTF32 the other three warps
       * split each tile as it lands, while the consumers multiply the tile before */
#if MOVE_REGS
      gt_setmaxnreg_dec(REGS_PRODUCER);
#endif
      if (tid == 0)
         for (int t = 0; t < tiles; t++) {
            const int s = t % STAGES;
            if (t >= STAGES)
               gt_mbar_wait(&empty[s], (t / STAGES - 1) & 1);
            loadTiles(ring + s * STAGE_ALL, &tmA, &tmB, t, row0, col0, &full[s]);
         }
#if SPLIT3
      else if (SPLITBY != 1 && tid >= 32)
         for (int t = 0; t < tiles; t++) {
            const int s = t % STAGES;
            gt_mbar_wait(&full[s], (t / STAGES) & 1);
            splitStage(ring + s * STAGE_ALL, tid - 32, SPLITTERS);
            gt_fence_proxy_async(); /* the tensor cores read what these stores wrote */
            __syncwarp();
            if (tid % 32 == 0)
               gt_mbar_arrive(&ready[s]);
         }
#endif
   } else {
      /* the consumers: WM rows each, registers taken from the producer */
#if MOVE_REGS
      gt_setmaxnreg_inc(REGS_CONSUMER);
#endif
      const int ctid = tid - 128, r0 = (wg - 1) * WM;
      float acc[WM / 64][BN / 2];
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int i = 0; i < BN / 2; i++)
            acc[m][i] = 0.0f;
      for (int t = 0; t < tiles; t++) {
         const int s = t % STAGES;
         unsigned char *stage = ring + s * STAGE_ALL;
#if SPLIT3 && SPLITBY
         /* the consumer splits (its share of) the tile while the tensor cores still run
          * the one before */
         gt_mbar_wait(&full[s], (t / STAGES) & 1);
         splitStage(stage, ctid + SPLITTERS - 128, SPLITTERS);
         gt_fence_proxy_async(); /* the tensor cores read what these stores wrote */
         if (SPLITBY == 2)
            gt_mbar_wait(&ready[s], (t / STAGES) & 1);
         gt_named_barrier(1, 128);
#else
         gt_mbar_wait(SPLIT3 ? &ready[s] : &full[s], (t / STAGES) & 1);
#endif
         FENCE_ACC();
         gt_wgmma_fence();
         mmaStage(acc, stage, r0);
         gt_wgmma_commit();
         gt_wgmma_wait(1); /* tile t-1's products are done: give its slot back */
         FENCE_ACC();
         if (t > 0 && tid % 32 == 0)
            gt_mbar_arrive(&empty[(t - 1) % STAGES]);
      }
      gt_wgmma_wait(0);
      FENCE_ACC();
      storeC(acc, ctid % 128, row0 + r0, col0, N, alpha, beta, C);
   }
}
