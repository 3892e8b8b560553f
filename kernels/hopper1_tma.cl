/*@gemmtop
name:     hopper1_tma
title:    Hopper 1: TMA and wgmma, one stage
ladder:   hopper
step:     1
about:    Hopper's own GEMM path, one tile at a time. One thread asks the copy engine (TMA)
about:    for the A and B tiles of this k-step: a tensor map, built by the driver before the
about:    launch, describes each matrix, and one instruction copies a whole box into shared
about:    memory, swizzled, and counts its bytes on an mbarrier. The four warps of the block
about:    (one warpgroup) wait on that barrier, then issue wgmma: asynchronous 64 x BN x k
about:    products read straight from shared memory through matrix descriptors, with the
about:    accumulators in registers. Nothing overlaps yet: each tile is loaded, multiplied
about:    and waited for before the next. In precision float the kernel does 3xTF32: each
about:    operand is split into a TF32 high part and the TF32 rest, and hi*hi + hi*lo + lo*hi
about:    gives FP32 accuracy on tensor cores. B is read transposed (N x K): tf32 wgmma takes
about:    K-major operands only.
param:    BM = 128 in 64, 128 ; rows of C per block (one 64-row wgmma each)
param:    BN = 128 in 64, 128, 192, 256 ; columns of C per block: the wgmma N
param:    BK = 32 in 8, 16, 32, 64, 128 ; tile depth along K in elements
param:    SW = 128 in 0, 32, 64, 128 ; swizzle of the shared tiles in bytes (0: none)
reuse:    A=BN B=BM
local_reuse: A=(IN_SIZE==4&&GT_TF32==0?BN*5/48:BN) B=(IN_SIZE==4&&GT_TF32==0?64*BM*5/(15*BM+2112):64)
arch:     sm_90a
precisions: float tf32 half bfloat16
tensor:   yes
require:  BK * IN_SIZE % (SW == 0 ? 32 : SW) == 0 && BK * IN_SIZE >= 32 ; BK times the element size must be a multiple of the swizzle width (32 bytes without swizzle)
operands: A=N B=T
pad:      M=BM N=BN K=BK
global:   N / BN * 128, M / BM
local:    128, 1
dynamic_smem: (BM + BN) * BK * IN_SIZE * (GT_TF32 || GT_HALF || GT_BF16 ? 1 : 2) + 1024 + 64
tma:      A box=(SW == 0 ? 16 : SW) / IN_SIZE,BM swizzle=SW
tma:      B box=(SW == 0 ? 16 : SW) / IN_SIZE,BN swizzle=SW
sites:    0=TMA write A (model), 1=wgmma read A (model), 2=unswizzled read A
*/

#define WM BM /* one warpgroup does every row */
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

__kernel __launch_bounds__(128, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                             const __global in_t *A, const __global in_t *B, const real beta,
                                             __global real *C, GT_TENSOR_MAP tmA, GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   /* swizzled boxes must start on 1024 bytes: the swizzle reads address bits 7-9 */
   unsigned char *stage = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   gt_u64 *full = (gt_u64 *)(stage + STAGE_ALL);
   const int tid = threadIdx.x;
   const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
   if (tid == 0) {
      gt_mbar_init(full, 1);
      gt_mbar_fence_init();
   }
   __syncthreads();
   float acc[WM / 64][BN / 2];
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int i = 0; i < BN / 2; i++)
         acc[m][i] = 0.0f;
   const int tiles = K / BK;
   for (int t = 0; t < tiles; t++) {
      if (tid == 0)
         loadTiles(stage, &tmA, &tmB, t, row0, col0, full);
      gt_mbar_wait(full, t & 1);
#if SPLIT3
      splitStage(stage, tid, 128);
      gt_fence_proxy_async();
      __syncthreads();
#endif
      FENCE_ACC();
      gt_wgmma_fence();
      mmaStage(acc, stage, 0);
      gt_wgmma_commit();
      gt_wgmma_wait(0);
      FENCE_ACC();
      __syncthreads(); /* every warp has read the stage before the TMA refills it */
   }
   storeC(acc, tid, row0, col0, N, alpha, beta, C);
}
