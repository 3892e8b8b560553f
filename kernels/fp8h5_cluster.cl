/*@gemmtop
name:     fp8h5_cluster
title:    Hopper FP8 5: 2-block clusters share B through TMA multicast
ladder:   hopper-fp8
step:     5
accumulate: fp8-tensor-core PROMOTE * 128
about:    Step 4 in thread-block clusters of CLUSTER blocks (hopper5_order's multicast): the
about:    blocks of a cluster take tiles one above the other, which read the same B tile, and
about:    each copies its share of B's rows into every block's stage at once, so B crosses
about:    from L2 once per cluster instead of once per block. A slot is refilled only when the
about:    consumers of every block of the cluster have released it. The cluster walks the
about:    tile order of step 3 with tiles CLUSTER rows high; CLUSTER=1 is step 4.
param:    CONS = 2 in 1, 2 ; consumer warpgroups
param:    BM = 128 in 64, 128, 256 ; rows of C per tile (BM / CONS per consumer)
param:    BN = 128 in 64, 128, 144, 160, 176, 192, 256 ; columns of C per tile: the wgmma N (with block scales a multiple of 64)
param:    STAGES = 4 in 2, 3, 4, 5, 6 ; 128-deep k-blocks in flight in shared memory
param:    GROUP = 8 in 1, 2, 4, 8, 16, 32 ; tile rows per band of the tile order (1: row by row)
param:    PROMOTE = 1 in 0, 1, 2, 4 ; k-blocks whose wgmma sums are added into FP32 at once; 0: never
param:    CLUSTER = 2 in 1, 2 ; blocks per cluster sharing each B tile through TMA multicast
param:    SCALES = 1 in 0, 1 ; block scales: 1 a producer warp copies them beside the stage; 0 consumers load theirs from global memory
arch:     sm_90a
precisions: e4m3 e5m2
tensor:   yes
require:  PROMOTE == 1 || GT_SCALE_BLOCK == 0 ; block scales are applied as each k-block is promoted: PROMOTE=0, 2 and 4 are for --scaling tensor
require:  SCALES == 1 || GT_SCALE_BLOCK == 1 ; SCALES=0 is how block scales were loaded before (the consumers each load theirs): --scaling tensor has none
require:  GT_SCALE_BLOCK == 0 || BN % 64 == 0 ; with block scales each 64 columns of a tile take one scale of B's 128-column blocks: BN a multiple of 64 (a 192-column tile spans two blocks)
require:  BM % (64 * CONS) == 0 && BM / CONS <= 128 ; each consumer warpgroup takes 64 or 128 rows of the tile
require:  BM / CONS / 64 * BN / 2 * (1 + (PROMOTE > 0)) <= 192 ; a consumer thread keeps BM / CONS / 64 * BN / 2 sums, twice that with promotion: at most 192 fit its registers
operands: A=N B=T
pad:      M=BM*CLUSTER N=BN K=128
global:   max(1, min(CUS / CLUSTER, M / (BM * CLUSTER) * (N / BN))) * CLUSTER * 128 * (CONS + 1), 1
local:    128 * (CONS + 1), 1
work:     M / BM * (N / BN)
dynamic_smem: STAGES * (BM + BN) * 128 + BM * (BN * 4 + 32) + 1024 + 16 * STAGES + GT_SCALE_BLOCK * SCALES * STAGES * (BM + 4) * 4
tma:      A box=128,BM swizzle=128
tma:      B box=128,BN / CLUSTER swizzle=128
reuse:    A=BN B=BM
band:     GROUP
unit:     CLUSTER
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
/* With promotion every PROMOTE k-blocks, an interval's first k-block starts wgmma's sums afresh. */
#if PROMOTE
#define FRESH_AT(t) ((t) % PROMOTE == 0)
#else
#define FRESH_AT(t) 0
#endif
/* Block scales: a tile starts at a multiple of BN, so of 64 columns, and each of its NG
 * 64-column groups lies in one of B's 128-column scale blocks. It touches SBN blocks at most:
 * BN / 128 when BN is a multiple of 128 (every tile starts on a block), one more when BN is an
 * odd multiple of 64 (a 192-column tile starts on a block or 64 columns into one). */
#define NG (BN / 64)
#define SBN ((BN + BN % KB + KB - 1) / KB)
#define SCALE_STRIDE (BM + 4) /* SCALES=1: floats of a stage's scales (SBN is at most 3) */
#define STRIDE (BN * 4 + 32)        /* bytes between rows of the staging area */
#define SHARE (BN / CLUSTER)         /* rows of B that each block of a cluster copies */
#if CLUSTER > 1
#define CLUSTER_DIMS __cluster_dims__(CLUSTER, 1, 1)
#else
#define CLUSTER_DIMS
#endif

/* The descriptor of k-step kk of a K-major tile at shared address `tile`, from row row0: rows
 * of 128 bytes, 128-byte swizzle (8-row groups 1024 bytes apart), a k-step 32 bytes along. */
__device__ inline gt_u64 descAt(uint tile, int row0, int kk) {
   return gt_wgmma_desc(tile + (uint)row0 * KB + (uint)kk * 32, 16, 8 * KB, 128);
}

/* k-block kb of A's rows row0.. and B's rows (C's columns) col0.. into one stage, counted on
 * bar. In a cluster, block `rank` copies its SHARE of B's rows into every block's stage;
 * each bar counts the whole stage, its A and the shares of B that all the blocks send. */
__device__ inline void loadStage(unsigned char *stage, const GtTensorMap *ma, const GtTensorMap *mb, int kb, int row0,
                                 int col0, int rank, gt_u64 *bar) {
   gt_mbar_expect_tx(bar, STAGE);
   gt_tma_load(stage, ma, kb * KB, row0, bar);
#if CLUSTER > 1
   gt_tma_load_multicast(stage + TILE_A + rank * SHARE * KB, mb, kb * KB, col0 + rank * SHARE, bar,
                         (1 << CLUSTER) - 1);
#else
   gt_tma_load(stage + TILE_A, mb, kb * KB, col0, bar);
#endif
}

/* A consumer warp gives a slot back, by its lead lane: in a cluster, to every block (their
 * copies fill it). The arrival is predicated rather than branched around (gt_mbar_arrive_if). */
__device__ inline void releaseSlot(gt_u64 *bar, bool lead) {
#if CLUSTER > 1
   for (int r = 0; r < CLUSTER; r++)
      gt_mbar_arrive_cluster_if(bar, r, lead);
#else
   gt_mbar_arrive_if(bar, lead);
#endif
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

/* Unit `unit` of the order: bands of GROUP units, walked column by column; a unit is
 * CLUSTER tiles one above the other, block `rank` of the cluster takes its rank's tile. */
__device__ inline void tileAt(int unit, int unitsM, int tilesN, int rank, int *row0, int *col0) {
   const int inBand = GROUP * tilesN, first = unit / inBand * GROUP;
   const int rows = min(unitsM - first, GROUP);
   *row0 = ((first + unit % inBand % rows) * CLUSTER + rank) * BM;
   *col0 = unit % inBand / rows * BN;
}

/* The epilogue through the copy engine (beta 0): warp w of the warpgroup holds rows 16w + g
 * (and + 8) of each 64-row slice, g = lane / 4; it writes them, scaled, into its rows of the
 * staging area `stg`, makes them visible to the copy engine, and lanes 0-15 send one row
 * each of each slice to C. Before writing, the lanes wait until their previous copies have
 * read the staging rows. */
__device__ inline void storeStaged(float (*sum)[BN / 2], unsigned char *stg, int tid, int row0, int col0, int N,
                                   float scale, float *C) {
   const int warp = tid / 32, lane = tid % 32, g = lane / 4, t = lane % 4;
   if (lane < 16)
      gt_bulk_wait_read();
   __syncwarp();
   /* this thread's first pair; the others at constant offsets (a 32-bit shared address) */
   const uint at = gt_smem_addr(stg) + (uint)((16 * warp + g) * STRIDE + 2 * t * 4);
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int j = 0; j < BN / 8; j++)
#pragma unroll
         for (int h = 0; h < 2; h++) {
            float2 v;
            GT_STORE_CN(2, v, make_float2(scale * sum[m][4 * j + 2 * h], scale * sum[m][4 * j + 2 * h + 1]));
            gt_st_shared_f2(at + (uint)((m * 64 + 8 * h) * STRIDE + 8 * j * 4), v);
         }
   gt_bulk_send_rows(tid, C + (size_t)row0 * N + col0, N, stg, STRIDE, WM / 64, BN * 4);
}

__kernel __launch_bounds__(THREADS, 1) CLUSTER_DIMS void gemm(const int M, const int N, const int K, const real alpha,
                                                 const __global in_t *A, const __global in_t *B, const real beta,
                                                 __global real *C GT_SCALE_PARAMS, GT_TENSOR_MAP tmA,
                                                 GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   unsigned char *ring = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   unsigned char *staging = ring + STAGES * STAGE;           /* WM rows of STRIDE bytes per consumer */
   gt_u64 *full = (gt_u64 *)(staging + BM * STRIDE); /* filled by the copy engine */
   gt_u64 *empty = full + STAGES;                     /* released by every consumer warp */
#if GT_SCALE_BLOCK && SCALES
   float *scales = (float *)(empty + STAGES); /* SCALE_STRIDE floats a stage */
#endif
   const int tid = threadIdx.x, wg = tid / 128;
   /* the cluster walks units of CLUSTER tiles one above the other, sharing B's tile */
   const int rank = CLUSTER > 1 ? (int)gt_cluster_rank() : 0;
   const int unitsM = M / (BM * CLUSTER), tilesN = N / BN, units = unitsM * tilesN;
   const int cid = blockIdx.x / CLUSTER, clusters = gridDim.x / CLUSTER;
   const int kblocks = K / KB;
   if (tid == 0) {
      for (int s = 0; s < STAGES; s++) {
         /* SCALES=1: the scales' 32 lanes arrive too, each once its copies have landed */
         gt_mbar_init(&full[s], 1 + (GT_SCALE_BLOCK && SCALES ? 32 : 0));
         gt_mbar_init(&empty[s], 4 * CONS * CLUSTER);
      }
      gt_mbar_fence_init();
   }
#if CLUSTER > 1
   gt_cluster_sync(); /* no copy or arrival reaches a block before its barriers exist */
#else
   __syncthreads();
#endif
   if (wg == 0) {
      /* the producer: one thread keeps the ring full */
#if MOVE_REGS
      gt_setmaxnreg_dec(REGS_PRODUCER);
#endif
      if (tid == 0) {
         int it = 0; /* k-blocks copied so far, over all of this block's tiles */
         for (int unit = cid; unit < units; unit += clusters) {
            int row0, col0;
            tileAt(unit, unitsM, tilesN, rank, &row0, &col0);
            for (int t = 0; t < kblocks; t++, it++) {
               const int s = it % STAGES;
               if (it >= STAGES)
                  gt_mbar_wait(&empty[s], (it / STAGES - 1) & 1);
               loadStage(ring + s * STAGE, &tmA, &tmB, t, row0, col0, rank, &full[s]);
            }
         }
      }
#if GT_SCALE_BLOCK && SCALES
      else if (tid / 32 == 1) {
         /* the producer's second warp: each k-block's scales beside its stage, so that the
          * consumers read them from shared memory after the wait they make anyway */
         const int lane = tid % 32, nblocks = (N + KB - 1) / KB;
         int it = 0;
         for (int unit = cid; unit < units; unit += clusters) {
            int row0, col0;
            tileAt(unit, unitsM, tilesN, rank, &row0, &col0);
            for (int t = 0; t < kblocks; t++, it++) {
               const int s = it % STAGES;
               if (it >= STAGES)
                  gt_mbar_wait(&empty[s], (it / STAGES - 1) & 1);
               GT_COPY_SCALES(scales + s * SCALE_STRIDE, lane, BM, SBN, row0, col0, t, kblocks, nblocks, &full[s]);
            }
         }
         gt_cp_async_wait_all();
      }
#endif
   } else {
#if MOVE_REGS
      gt_setmaxnreg_inc(REGS_CONSUMER);
#endif
      const int ctid = tid % 128, r0 = (wg - 1) * WM; /* ctid: the thread in its warpgroup */
      const bool lead = tid % 32 == 0;                /* the lane that speaks for its warp */
      float acc[WM / 64][BN / 2];
#if PROMOTE
      float sum[WM / 64][BN / 2]; /* the promoted FP32 sums */
#else
#define sum acc
#endif
#if GT_SCALE_BLOCK && !SCALES
      const int nblocks = (N + KB - 1) / KB;
#endif
      int it = 0; /* k-blocks consumed so far, as the producer counts them */
      for (int unit = cid; unit < units; unit += clusters) {
         int row0, col0;
         tileAt(unit, unitsM, tilesN, rank, &row0, &col0);
#pragma unroll
         for (int m = 0; m < WM / 64; m++)
#pragma unroll
            for (int i = 0; i < BN / 2; i++)
               acc[m][i] = sum[m][i] = 0.0f;
#if GT_SCALE_BLOCK
         /* this thread's rows of each 64-row slice: 16 (ctid/32) + (ctid%32)/4, and 8 below */
         const int rowT = (SCALES ? 0 : row0) + r0 + 16 * (ctid / 32) + (ctid % 32) / 4;
         /* A tile that starts 64 columns into a scale block (BN 64, 192): its odd 64-column
          * groups lie in the block after its even group before them. Known once per tile, so
          * that promotion picks each group's scale with one select per k-block. */
         const bool shifted = BN % KB != 0 && col0 % KB != 0;
#endif
         for (int t = 0; t < kblocks; t++, it++) {
            const int s = it % STAGES;
#if GT_SCALE_BLOCK && !SCALES
            /* k-block t's scales, loaded before the wait so that they arrive during it */
            float sa[WM / 64][2], sb[SBN];
#pragma unroll
            for (int m = 0; m < WM / 64; m++)
#pragma unroll
               for (int h = 0; h < 2; h++)
                  sa[m][h] = GT_SCALE_A((size_t)(rowT + m * 64 + 8 * h) * kblocks + t);
#pragma unroll
            for (int q = 0; q < SBN; q++)
               sb[q] = GT_SCALE_B((size_t)t * nblocks + col0 / KB + q);
#endif
            gt_mbar_wait(&full[s], (it / STAGES) & 1);
#if GT_SCALE_BLOCK && SCALES
            /* read before the slot is given back below; the wgmma hides the latency */
            float sa[WM / 64][2], sb[SBN];
            GT_READ_SCALES(scales + s * SCALE_STRIDE, BM, rowT, sa, WM / 64, sb, SBN);
#endif
            FENCE_ACC();
            gt_wgmma_fence();
            mmaStage(acc, ring + s * STAGE, r0, FRESH_AT(t));
            gt_wgmma_commit();
#if PROMOTE
            if (t % PROMOTE < PROMOTE - 1 && t < kblocks - 1) {
               /* inside a promotion interval: the k-block before is done, its slot back */
               gt_wgmma_wait(1);
               FENCE_ACC();
               if (t % PROMOTE > 0)
                  releaseSlot(&empty[(it - 1) % STAGES], lead);
               continue;
            }
            /* the interval's sums are complete: give its last slots back, add them in FP32 */
            gt_wgmma_wait(0);
            FENCE_ACC();
            if (t % PROMOTE > 0)
               releaseSlot(&empty[(it - 1) % STAGES], lead);
            releaseSlot(&empty[s], lead);
#if GT_SCALE_BLOCK
#if !SCALES
            GT_SCALES_AFTER(sa, WM / 64, sb, SBN, acc); /* each scale first used through the k-block's sums */
#endif
            /* group g's scale of B: block g / 2 of the tile's, or (g + 1) / 2 when shifted */
            float sg[NG];
#pragma unroll
            for (int g = 0; g < NG; g++)
               sg[g] = shifted ? sb[min((g + 1) / 2, SBN - 1)] : sb[g / 2];
            /* sum += acc sa[row] sg[group]: element 4j + 2h + e is row 8h, column 8j + e, in
             * group j / 8; one multiply per row and group, then a multiply-add per element */
#pragma unroll
            for (int m = 0; m < WM / 64; m++)
#pragma unroll
               for (int h = 0; h < 2; h++)
#pragma unroll
                  for (int g = 0; g < NG; g++) {
                     const float sc = sa[m][h] * sg[g];
#pragma unroll
                     for (int j = 8 * g; j < 8 * g + 8; j++)
#pragma unroll
                        for (int e = 0; e < 2; e++)
                           sum[m][4 * j + 2 * h + e] = fmaf(sc, acc[m][4 * j + 2 * h + e], sum[m][4 * j + 2 * h + e]);
                  }
#else
#pragma unroll
            for (int m = 0; m < WM / 64; m++)
#pragma unroll
               for (int i = 0; i < BN / 2; i++)
                  sum[m][i] += acc[m][i];
#endif
#else
            gt_wgmma_wait(1); /* the k-block before is done: give its slot back */
            FENCE_ACC();
            if (t > 0)
               releaseSlot(&empty[(it - 1) % STAGES], lead);
#endif
         }
#if !PROMOTE
         gt_wgmma_wait(0); /* the tile's last k-block: its slot too, before the next tile */
         FENCE_ACC();
         releaseSlot(&empty[(it - 1) % STAGES], lead);
#endif
#if GT_SCALE_BLOCK
         const float scale = alpha;
#else
         const float scale = alpha * (GT_SCALE_A(0) * GT_SCALE_B(0));
#endif
         if (beta == 0.0f)
            storeStaged(sum, staging + r0 * STRIDE, ctid, row0 + r0, col0, N, scale, C);
         else
            storeC(sum, ctid, row0 + r0, col0, N, scale, beta, C);
      }
      if (tid % 32 < 16)
         gt_bulk_wait_read(); /* the copies have read shared memory before the block ends */
#undef sum
   }
#if CLUSTER > 1
   gt_cluster_sync(); /* the other block may still copy into this one or arrive on its barriers */
#endif
}
