/*@gemmtop
name:     hopper6_splitk
title:    Hopper 6: split-K, for shapes whose tiles cannot fill the GPU
ladder:   hopper
step:     6
tune:     yes
about:    Step 5 for the GEMMs of a model's decode and of long K: at 128 x 8192 x 8192 there
about:    are 32 tiles of 128 x 256 for 132 multiprocessors, and each block runs all of K.
about:    The grid gets a second dimension: SPLIT blocks share each tile, each a run of its
about:    K steps (the runs differ by one step at most), and each writes its
about:    FP32 partial sums, unscaled, into plane z of a workspace of SPLIT planes of M x N.
about:    A second, small launch (the fix-up) adds the planes in plane order, the same bits
about:    on every run, applies alpha and beta and writes C with 16-byte stores. SPLIT=1 is
about:    step 5: no workspace, no fix-up, C written from the accumulators with 16-byte stores (C16)
about:    (no TMA store: gemmtop's tensor maps are A's and B's). The price is the planes'
about:    traffic, 8 bytes an element of C a plane, and the fix-up's launch: it pays when K is
about:    long and M x N small. BM=64 with CONS=1 is the 64-row tile of one consumer
about:    warpgroup, for M of 64 or less. SHARE_A=1 makes a cluster's blocks tiles side by side
about:    that share their A tile (each copies BM / CLUSTER of its rows into all of them by TMA
about:    multicast), as cuBLAS's split-K kernel for 64 tokens does in clusters of four.
param:    CONS = 2 in 1, 2 ; consumer warpgroups
param:    BM = 128 in 64, 128, 256 ; rows of C per block (BM / CONS per consumer)
param:    BN = 128 in 32, 64, 96, 112, 128, 144, 160, 192, 256 ; columns of C per block: the wgmma N
param:    GROUP = 8 in 1, 2, 4, 8, 16, 32 ; block rows per band of the launch order (1: row by row)
param:    CLUSTER = 1 in 1, 2, 4 ; blocks per cluster sharing each B tile (or A tile: SHARE_A) through TMA multicast
param:    SHARE_A = 0 in 0, 1 ; 1: a cluster's blocks take tiles side by side and share their A tile; 0: one above the other, sharing B
param:    BK = 32 in 8, 16, 32, 64, 128 ; tile depth along K in elements
param:    SW = 128 in 0, 32, 64, 128 ; swizzle of the shared tiles in bytes (0: none)
param:    STAGES = 3 in 2, 3, 4, 5, 6, 8, 10, 12, 16 ; tiles in flight in shared memory
param:    BLOCKS = 1 in 1, 2 ; blocks per multiprocessor that the registers are shared for
param:    C16 = 1 in 0, 1 ; 1: neighbouring lanes swap accumulator pairs so that C is stored 16 bytes a lane (0: 8)
param:    SPLIT = 4 in 1, 2, 3, 4, 5, 6, 8, 12, 16 ; blocks that share the K steps of a tile (1: step 5)
reuse:    A=BN B=BM
band:     CLUSTER == 1 ? GROUP : 0
local_reuse: A=(IN_SIZE==4&&GT_TF32==0?BN*5/48:BN) B=(IN_SIZE==4&&GT_TF32==0?64*BM*5/(15*BM+2112):64)
arch:     sm_90a
precisions: float tf32 half bfloat16
tensor:   yes
require:  BK * IN_SIZE % (SW == 0 ? 32 : SW) == 0 && BK * IN_SIZE >= 32 ; BK times the element size must be a multiple of the swizzle width (32 bytes without swizzle)
require:  BM % (64 * CONS) == 0 && BM / CONS <= 128 ; each consumer warpgroup takes 64 or 128 rows of the tile
require:  SHARE_A == 0 || CLUSTER > 1 ; SHARE_A shares A among the blocks of a cluster (CLUSTER 2 or 4)
require:  BM % (8 * CLUSTER) == 0 && BN % (8 * CLUSTER) == 0 ; each block of a cluster copies whole 8-row swizzle groups of the shared tile
require:  BLOCKS == 1 || (BN <= 128 && CONS == 1) ; two blocks per multiprocessor leave 128 registers at entry: one consumer, and a wgmma N of at most 128 (ptxas checks each wgmma against the entry count)
operands: A=N B=T
pad:      M=BM*(SHARE_A?1:CLUSTER) N=BN*(SHARE_A?CLUSTER:1) K=BK
global:   N / BN * (M / BM) * 128 * (CONS + 1), SPLIT
local:    128 * (CONS + 1), 1
dynamic_smem: STAGES * (BM + BN) * BK * IN_SIZE * (GT_TF32 || GT_HALF || GT_BF16 ? 1 : 2) + 1024 + 24 * STAGES
tma:      A box=(SW == 0 ? 16 : SW) / IN_SIZE,BM / (SHARE_A ? CLUSTER : 1) swizzle=SW
tma:      B box=(SW == 0 ? 16 : SW) / IN_SIZE,BN / (SHARE_A ? 1 : CLUSTER) swizzle=SW
workspace: SPLIT > 1 ? SPLIT * M * N * REAL_SIZE : 0
fixup:    gemm_fixup
fixup_global: SPLIT > 1 ? N / 4 : 0, M
fixup_local: BN % 64 == 0 ? 16 : 8, 4
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
#define SHARE ((SHARE_A ? BM : BN) / CLUSTER)     /* rows of the shared tile that each block copies */
#define CL_M (SHARE_A ? 1 : CLUSTER)              /* a cluster's tiles: CL_M high, CL_N wide */
#define CL_N (SHARE_A ? CLUSTER : 1)
#if CLUSTER > 1
#define CLUSTER_DIMS __cluster_dims__(CLUSTER, 1, 1)
#else
#define CLUSTER_DIMS
#endif

/* The descriptor of k-step kk of a tile of `rows` rows at tile (shared address) + row0's
 * block. A tile is BK*ES/ATOM boxes of rows x ATOM bytes side by side; swizzled, a
 * k-step is 32 bytes inside one box row; without swizzle a box is one column of 8x16-byte
 * core matrices and a k-step spans two boxes (LBO apart). */
__device__ inline gt_u64 descAt(uint tile, int rows, int row0, int kk) {
   return gt_wgmma_desc(tile + GT_WGMMA_KOFF(rows, row0, kk, ATOM), SW == 0 ? rows * 16 : 16, 8 * ATOM, SW);
}

/* All boxes of tile t of A and B into one stage, counted on bar. In a cluster, block
 * `rank` copies its SHARE of the shared tile's rows (B's, or A's with SHARE_A) into every
 * block's stage; each bar counts the whole stage, its own tile and the shares of the
 * shared one that all the blocks send. */
__device__ inline void loadTiles(unsigned char *stage, const GtTensorMap *ma, const GtTensorMap *mb, int t, int row0,
                                 int col0, int rank, gt_u64 *bar) {
   gt_mbar_expect_tx(bar, STAGE);
   for (int b = 0; b < BK * ES / ATOM; b++) {
#if CLUSTER > 1 && SHARE_A
      gt_tma_load_multicast(stage + (b * BM + rank * SHARE) * ATOM, ma, t * BK + b * ATOM / ES, row0 + rank * SHARE,
                            bar, (1 << CLUSTER) - 1);
      gt_tma_load(stage + TILE_A + b * BN * ATOM, mb, t * BK + b * ATOM / ES, col0, bar);
#elif CLUSTER > 1
      gt_tma_load(stage + b * BM * ATOM, ma, t * BK + b * ATOM / ES, row0, bar);
      gt_tma_load_multicast(stage + TILE_A + (b * BN + rank * SHARE) * ATOM, mb, t * BK + b * ATOM / ES,
                            col0 + rank * SHARE, bar, (1 << CLUSTER) - 1);
#else
      gt_tma_load(stage + b * BM * ATOM, ma, t * BK + b * ATOM / ES, row0, bar);
      gt_tma_load(stage + TILE_A + b * BN * ATOM, mb, t * BK + b * ATOM / ES, col0, bar);
#endif
   }
}

/* A consumer warp gives a slot back: in a cluster, to every block (their copies fill it). */
__device__ inline void releaseSlot(gt_u64 *bar) {
#if CLUSTER > 1
   for (int r = 0; r < CLUSTER; r++)
      gt_mbar_arrive_cluster(bar, r);
#else
   gt_mbar_arrive(bar);
#endif
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
__device__ inline void mmaStage(float (*acc)[BN / 2], gt_u64 dA, gt_u64 dB) {
#pragma unroll
   for (int kk = 0; kk < KSTEPS; kk++) {
      const gt_u64 db = dB + GT_WGMMA_KOFF(BN, 0, kk, ATOM) / 16;
#pragma unroll
      for (int m = 0; m < WM / 64; m++) {
         const gt_u64 da = dA + GT_WGMMA_KOFF(BM, m * 64, kk, ATOM) / 16;
#if SPLIT3
         /* the small terms first: lo*hi and hi*lo, then hi*hi */
         WGMMA(BN)(acc[m], da + STAGE / 16, db, 1);
         WGMMA(BN)(acc[m], da, db + STAGE / 16, 1);
#endif
         WGMMA(BN)(acc[m], da, db, 1);
      }
   }
}

/* C = alpha acc + beta C (SPLIT 1), or acc alone into plane z of the workspace (the fix-up
 * applies alpha and beta), from the wgmma accumulator layout (gt_sched_wgmma_row/col):
 * 16-byte stores after neighbouring lanes swap a pair (C16), else each pair of neighbours
 * in a row one 8-byte store. */
__device__ inline void storeC(float (*acc)[BN / 2], int tid, int row0, int col0, int N, float alpha, float beta,
                              float *C) {
#if C16
   /* two groups of 8 columns at a time: neighbouring lanes swap a pair, 16-byte stores */
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int i = 0; i < BN / 2; i += 8)
#pragma unroll
         for (int h = 0; h < 4; h += 2) {
            int c;
            float4 v = gt_wgmma_pairs4(make_float2(acc[m][i + h], acc[m][i + h + 1]),
                                       make_float2(acc[m][i + h + 4], acc[m][i + h + 5]), tid, &c);
            float4 *p = (float4 *)&C[(size_t)(row0 + m * 64 + gt_sched_wgmma_row(tid, i + h)) * N + col0 + 2 * i + c];
#if SPLIT == 1
            v = v * alpha;
            if (beta != 0.0f)
               v = v + *p * beta;
#endif
            GT_STORE_CN(4, *p, v);
         }
#else
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int i = 0; i < BN / 2; i += 2) {
         const int r = row0 + m * 64 + gt_sched_wgmma_row(tid, i), c = col0 + gt_sched_wgmma_col(tid, i);
         float2 *p = (float2 *)&C[(size_t)r * N + c];
#if SPLIT > 1
         GT_STORE_CN(2, *p, make_float2(acc[m][i], acc[m][i + 1]));
#else
         float2 v = make_float2(alpha * acc[m][i], alpha * acc[m][i + 1]);
         if (beta != 0.0f) {
            const float2 old = *p;
            v.x += beta * old.x;
            v.y += beta * old.y;
         }
         GT_STORE_CN(2, *p, v);
#endif
      }
#endif
}

__kernel __launch_bounds__(THREADS, BLOCKS) CLUSTER_DIMS void gemm(const int M, const int N, const int K, const real alpha,
                                                 const __global in_t *A, const __global in_t *B, const real beta,
                                                 __global real *C, __global real *W, GT_TENSOR_MAP tmA,
                                                 GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   unsigned char *ring = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   gt_u64 *full = (gt_u64 *)(ring + STAGES * STAGE_ALL); /* filled by the copy engine */
   gt_u64 *empty = full + STAGES;                         /* read by every consumer warp */
   gt_u64 *ready = empty + STAGES;                        /* 3xTF32: the stage is split */
   const int tid = threadIdx.x, wg = gt_warpgroup();
   /* GROUP block rows side by side: consecutive blocks share A's rows and sweep B's
    * columns GROUP rows at a time, so the tiles that a wave of blocks reads stay in L2. A
    * cluster's blocks count as one, CL_M tiles high and CL_N wide: the same B tile, rows
    * one above the other, or (SHARE_A) the same A tile, columns side by side. */
   const int rank = CLUSTER > 1 ? (int)gt_cluster_rank() : 0;
   const int tilesM = M / (BM * CL_M), tilesN = N / (BN * CL_N), bid = blockIdx.x / CLUSTER;
   const int inGroup = GROUP * tilesN, first = bid / inGroup * GROUP;
   const int rows = min(tilesM - first, GROUP);
   const int row0 = ((first + bid % inGroup % rows) * CL_M + (SHARE_A ? 0 : rank)) * BM;
   const int col0 = (bid % inGroup / rows * CL_N + (SHARE_A ? rank : 0)) * BN;
   /* Block z of the tile takes its run of the K steps, [t0, t0 + tiles): from here on the
    * pipeline is step 5's over `tiles` steps, t0 steps in. */
   const int z = blockIdx.y, steps = K / BK;
   const int t0 = (int)gt_sched_share_start(z, steps, SPLIT), tiles = (int)gt_sched_share_start(z + 1, steps, SPLIT) - t0;
   if (tid == 0) {
      for (int s = 0; s < STAGES; s++) {
         gt_mbar_init(&full[s], 1);
         gt_mbar_init(&empty[s], 4 * CONS * CLUSTER);
         gt_mbar_init(&ready[s], 3);
      }
      gt_mbar_fence_init();
   }
#if CLUSTER > 1
   gt_cluster_sync(); /* no copy or arrival reaches a block before its barriers exist */
#else
   __syncthreads();
#endif
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
            loadTiles(ring + s * STAGE_ALL, &tmA, &tmB, t0 + t, row0, col0, rank, &full[s]);
         }
#if SPLIT3
      else if (tid >= 32)
         for (int t = 0; t < tiles; t++) {
            const int s = t % STAGES;
            gt_mbar_wait(&full[s], (t / STAGES) & 1);
            splitStage(ring + s * STAGE_ALL, tid - 32, 96);
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
      /* the first stage's descriptors of this consumer's rows of A and of B */
      const gt_u64 dA0 = descAt(gt_smem_addr(ring), BM, r0, 0), dB0 = descAt(gt_smem_addr(ring) + TILE_A, BN, 0, 0);
      float acc[WM / 64][BN / 2];
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int i = 0; i < BN / 2; i++)
            acc[m][i] = 0.0f;
      for (int t = 0; t < tiles; t++) {
         const int s = t % STAGES;
         gt_mbar_wait(SPLIT3 ? &ready[s] : &full[s], (t / STAGES) & 1);
         FENCE_ACC();
         gt_wgmma_fence();
         mmaStage(acc, dA0 + (gt_u64)(s * (STAGE_ALL / 16)), dB0 + (gt_u64)(s * (STAGE_ALL / 16)));
         gt_wgmma_commit();
         gt_wgmma_wait(1); /* tile t-1's products are done: give its slot back */
         FENCE_ACC();
         if (t > 0 && tid % 32 == 0)
            releaseSlot(&empty[gt_ring_prev(s, STAGES)]);
      }
      gt_wgmma_wait(0);
      FENCE_ACC();
      storeC(acc, ctid % 128, row0 + r0, col0, N, alpha, beta, SPLIT > 1 ? W + (size_t)z * M * N : C);
   }
#if CLUSTER > 1
   gt_cluster_sync(); /* the other block may still arrive on this one's barriers */
#endif
}

/* C = alpha * (the planes' sum, in plane order: the same bits every run) + beta * C; four
 * columns a work-item, one 16-byte load a plane and one 16-byte store. Launched only when
 * SPLIT > 1. */
__kernel void gemm_fixup(const int M, const int N, const int K, const real alpha, const __global in_t *A,
                         const __global in_t *B, const real beta, __global real *C, __global real *W) {
   const int col = get_global_id(0) * 4, row = get_global_id(1);
   const size_t at = ((size_t)row * N + col) / 4, plane = (size_t)M * N / 4;
   const __global real4 *W4 = (const __global real4 *)W;
   real4 sum = W4[at];
   for (int z = 1; z < SPLIT; z++)
      sum = sum + W4[(size_t)z * plane + at];
   __global real4 *c4 = (__global real4 *)C + at;
   real4 v = sum * alpha;
   if (beta != REAL_ZERO)
      v = v + *c4 * beta;
   GT_STORE_CN(4, *c4, v);
}
