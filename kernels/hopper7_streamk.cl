/*@gemmtop
name:     hopper7_streamk
title:    Hopper 7: stream-K over a persistent grid
ladder:   hopper
step:     7
tune:     yes
about:    Step 5's pipeline in a persistent grid: BLOCKS blocks per multiprocessor (CUS of
about:    them) stay resident and walk the tiles, in step 5's banded order, so that the tiles
about:    in flight at once share rows of A and columns of B in L2. With STREAMK=1 (Osama et
about:    al., 2023) the tiles' K steps are laid end to end and each block gets an equal
about:    share: a tile it covers whole it finishes itself, with alpha and beta; where its
about:    share begins or ends inside a tile, it writes that piece's FP32 partial sums to one
about:    of its two workspace slots, and a fix-up launch adds each split tile's pieces in
about:    the order of the blocks that made them (the same bits every run) and writes C with
about:    16-byte stores. Every multiprocessor gets the same work to within one K step for
about:    any M, N and K: split-K's gain on a skinny shape without its planes, and no tail on
about:    a shape whose tiles are a ragged number of waves. The copy engine fills the ring
about:    across pieces: the next piece's tiles land while the consumers write this one's.
about:    STREAMK=0 is the persistent kernel alone: whole tiles in turn (tile g, g + G, ...).
about:    EPI sends a whole tile's C through shared memory and the copy engine (bulk copies, in
about:    EPI parts of its columns) when beta is 0, as cuBLAS's kernels do: the consumers go back
about:    to the tensor cores while C is written, where storing it themselves kept them away.
about:    CLUSTER=2 (whole tiles) pairs the blocks: the two of a cluster take tiles one above the
about:    other, which share their B tile, and each copies half of it into both blocks' shared
about:    memory at once (TMA multicast): the L2 sends each block half of its B tile.
about:    SHARE_A=1 turns the cluster on its side (cuBLAS's "1x2" and "4x1"): tiles side by side
about:    sharing their A tile, each block copying BM / CLUSTER of its rows into all of them.
param:    CONS = 2 in 1, 2 ; consumer warpgroups
param:    BM = 128 in 64, 128, 256 ; rows of C per tile (BM / CONS per consumer)
param:    BN = 128 in 64, 96, 112, 128, 144, 160, 176, 192, 224, 256 ; columns of C per tile: the wgmma N
param:    GROUP = 8 in 1, 2, 4, 8, 16, 32 ; tile rows per band of the tile order (1: row by row)
param:    BK = 32 in 8, 16, 32, 64, 128 ; tile depth along K in elements
param:    SW = 128 in 0, 32, 64, 128 ; swizzle of the shared tiles in bytes (0: none)
param:    STAGES = 3 in 2, 3, 4, 5, 6, 8, 10, 12 ; tiles in flight in shared memory
param:    BLOCKS = 1 in 1, 2 ; blocks per multiprocessor: the persistent grid is CUS * BLOCKS
param:    STREAMK = 1 in 0, 1 ; 1: equal shares of the K steps (stream-K); 0: whole tiles in turn
param:    CLUSTER = 1 in 1, 2 ; blocks per cluster sharing each B tile (or A tile: SHARE_A) through TMA multicast (whole tiles)
param:    SHARE_A = 0 in 0, 1 ; 1: a cluster's blocks take tiles side by side and share their A tile; 0: one above the other, sharing B
param:    DADD = 1 in 0, 1 ; 1: each wgmma's descriptor is the ring's first plus a constant offset (0: computed from its address)
param:    C16 = 1 in 0, 1 ; 1: neighbouring lanes swap accumulator pairs so that C is stored 16 bytes a lane (0: 8)
param:    EPI = 0 in 0, 1, 2, 4 ; whole tiles' C through shared memory and the copy engine in EPI parts, beta 0 (0: the consumers store C)
reuse:    A=BN B=BM
band:     STREAMK ? 0 : GROUP
unit:     SHARE_A ? 0 : CLUSTER
staggered: STREAMK
local_reuse: A=(IN_SIZE==4&&GT_TF32==0?BN*5/48:BN) B=(IN_SIZE==4&&GT_TF32==0?64*BM*5/(15*BM+2112):64)
arch:     sm_90a
precisions: float tf32 half bfloat16
tensor:   yes
require:  BK * IN_SIZE % (SW == 0 ? 32 : SW) == 0 && BK * IN_SIZE >= 32 ; BK times the element size must be a multiple of the swizzle width (32 bytes without swizzle)
require:  BM % (64 * CONS) == 0 && BM / CONS <= 128 ; each consumer warpgroup takes 64 or 128 rows of the tile
require:  EPI == 0 || IN_SIZE == 2 ; EPI has run on a GPU in half and bfloat16 only: in tf32 and float (3xTF32) it compiles for sm_90a but has not been verified on one
require:  CLUSTER == 1 || (STREAMK == 0 && IN_SIZE == 2) ; CLUSTER pairs whole tiles (STREAMK=0); it has run on a GPU in half and bfloat16 only
require:  SHARE_A == 0 || CLUSTER > 1 ; SHARE_A shares A among the blocks of a cluster (CLUSTER=2)
require:  BM % (8 * CLUSTER) == 0 && BN % (8 * CLUSTER) == 0 ; each block of a cluster copies whole 8-row swizzle groups of the shared tile
require:  BN % (8 * max(EPI, 1)) == 0 ; the epilogue's parts are whole groups of 8 columns
require:  BLOCKS == 1 || (BN <= 128 && CONS == 1) ; two blocks per multiprocessor leave 128 registers at entry: one consumer, and a wgmma N of at most 128 (ptxas checks each wgmma against the entry count)
operands: A=N B=T
pad:      M=BM*(SHARE_A?1:CLUSTER) N=BN*(SHARE_A?CLUSTER:1) K=BK
global:   max(CUS * BLOCKS / CLUSTER, 1) * CLUSTER * 128 * (CONS + 1), 1
local:    128 * (CONS + 1), 1
work:     STREAMK ? (M / BM) * (N / BN) * (K / BK) : (M / BM) * (N / BN)
dynamic_smem: STAGES * (BM + BN) * BK * IN_SIZE * (GT_TF32 || GT_HALF || GT_BF16 ? 1 : 2) + 1024 + 24 * STAGES + (EPI ? BM * (BN / max(EPI, 1) * 4 + 32) + 128 : 0)
tma:      A box=(SW == 0 ? 16 : SW) / IN_SIZE,BM / (SHARE_A ? CLUSTER : 1) swizzle=SW
tma:      B box=(SW == 0 ? 16 : SW) / IN_SIZE,BN / (SHARE_A ? 1 : CLUSTER) swizzle=SW
workspace: STREAMK ? CUS * BLOCKS * 2 * BM * BN * REAL_SIZE : 0
fixup:    gemm_fixup
fixup_global: STREAMK ? N / 4 : 0, M / 16
fixup_local: 16, 4
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
#define UNITS (max(CUS * BLOCKS / CLUSTER, 1) * CLUSTER) /* the persistent grid's blocks */
#define SHARE ((SHARE_A ? BM : BN) / CLUSTER)     /* rows of the shared tile that each block copies */
#define CL_M (SHARE_A ? 1 : CLUSTER)              /* a cluster's tiles: CL_M high, CL_N wide */
#define CL_N (SHARE_A ? CLUSTER : 1)
#if CLUSTER > 1
#define CLUSTER_DIMS __cluster_dims__(CLUSTER, 1, 1)
#else
#define CLUSTER_DIMS
#endif
#define TILES_M (M / BM)
#define TILES_N (N / BN)

/* The descriptor of k-step kk of a tile of `rows` rows at tile (shared address) + row0's
 * block. A tile is BK*ES/ATOM boxes of rows x ATOM bytes side by side; swizzled, a
 * k-step is 32 bytes inside one box row; without swizzle a box is one column of 8x16-byte
 * core matrices and a k-step spans two boxes (LBO apart). */
__device__ inline gt_u64 descAt(uint tile, int rows, int row0, int kk) {
   return gt_wgmma_desc(tile + GT_WGMMA_KOFF(rows, row0, kk, ATOM), SW == 0 ? rows * 16 : 16, 8 * ATOM, SW);
}

/* All boxes of K step t of A's and B's tiles at (row0, col0) into one stage, counted on bar.
 * In a cluster, block `rank` copies its SHARE of the shared tile's rows (B's, or A's with
 * SHARE_A) into every block's stage; each bar counts the whole stage, its own tile and the
 * shares of the shared one that all the blocks send. */
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
      (void)rank;
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

/* Tile `tile` of the order at (tm, tn): in a cluster the order walks tiles CL_M high and
 * CL_N wide, and each block takes its own row (or, SHARE_A, column) of them. */
__device__ inline void tileAt(long tile, int M, int N, int rank, int *tm, int *tn) {
   gt_sched_tile_at(tile, TILES_M / CL_M, TILES_N / CL_N, GROUP, tm, tn);
   *tm = *tm * CL_M + (SHARE_A ? 0 : rank);
   *tn = *tn * CL_N + (SHARE_A ? rank : 0);
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
__device__ inline void mmaStage(float (*acc)[BN / 2], unsigned char *stage, int r0, gt_u64 dA, gt_u64 dB) {
#if DADD
   (void)stage;
   (void)r0;
#else
   const uint a = gt_smem_addr(stage), b = a + TILE_A;
#endif
#pragma unroll
   for (int kk = 0; kk < KSTEPS; kk++) {
#if DADD
      const gt_u64 db = dB + GT_WGMMA_KOFF(BN, 0, kk, ATOM) / 16;
#else
      const gt_u64 db = descAt(b, BN, 0, kk);
#endif
#pragma unroll
      for (int m = 0; m < WM / 64; m++) {
#if DADD
         const gt_u64 da = dA + GT_WGMMA_KOFF(BM, m * 64, kk, ATOM) / 16;
#else
         const gt_u64 da = descAt(a, BM, r0 + m * 64, kk);
#endif
#if SPLIT3
         /* the small terms first: lo*hi and hi*lo, then hi*hi */
         WGMMA(BN)(acc[m], da + STAGE / 16, db, 1);
         WGMMA(BN)(acc[m], da, db + STAGE / 16, 1);
#endif
         WGMMA(BN)(acc[m], da, db, 1);
      }
   }
}

/* A tile's accumulators from the wgmma layout (gt_sched_wgmma_row/col), 16 bytes a store
 * after neighbouring lanes swap a pair (C16; else a pair of row neighbours an 8-byte store):
 * into C at `at` (the tile's corner, rows ld apart) finished with alpha and beta, or as
 * they are into a workspace slot (the fix-up finishes them). */
__device__ inline void storeTile(float (*acc)[BN / 2], int tid, float *at, int ld, bool finish, float alpha,
                                 float beta) {
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
            float4 *p = (float4 *)&at[(size_t)(m * 64 + gt_sched_wgmma_row(tid, i + h)) * ld + 2 * i + c];
            if (finish) {
               v = v * alpha;
               if (beta != 0.0f)
                  v = v + *p * beta;
            }
            GT_STORE_CN(4, *p, v);
         }
#else
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int i = 0; i < BN / 2; i += 2) {
         float2 *p = (float2 *)&at[(size_t)(m * 64 + gt_sched_wgmma_row(tid, i)) * ld + gt_sched_wgmma_col(tid, i)];
         float2 v = make_float2(acc[m][i], acc[m][i + 1]);
         if (finish) {
            v.x *= alpha;
            v.y *= alpha;
            if (beta != 0.0f) {
               const float2 old = *p;
               v.x += beta * old.x;
               v.y += beta * old.y;
            }
         }
         GT_STORE_CN(2, *p, v);
      }
#endif
}

#if EPI
#define BNP (BN / EPI)        /* columns of C an epilogue part stages */
#define STRIDE (BNP * 4 + 32) /* bytes between rows of the staging area (32 more: other banks) */
/* A whole tile's C, alpha times the sums, through the staging area in EPI parts: each warp
 * holds rows 16w to 16w + 15 of each 64-row slice (the wgmma layout), so it writes and then
 * sends rows of its own, lanes 0-15 one row each by the copy engine. The next part or tile
 * waits only for this warp's copies to have read the rows. The consumers go back to the
 * tensor cores while the copies write C. */
__device__ inline void sendTile(float (*acc)[BN / 2], int tid, unsigned char *stg, float *at, int ld, float alpha) {
#pragma unroll
   for (int part = 0; part < EPI; part++) {
      if (tid % 32 < 16)
         gt_bulk_wait_read();
      __syncwarp();
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int i = part * (BNP / 2); i < (part + 1) * (BNP / 2); i += 2) {
            float2 v;
            GT_STORE_CN(2, v, make_float2(alpha * acc[m][i], alpha * acc[m][i + 1]));
            gt_st_shared_f2(gt_smem_addr(stg) + (uint)((m * 64 + gt_sched_wgmma_row(tid, i)) * STRIDE +
                                                       (gt_sched_wgmma_col(tid, i) - part * BNP) * 4),
                            v);
         }
      gt_bulk_send_rows(tid, at + part * BNP, ld, stg, STRIDE, WM / 64, BNP * 4);
   }
}
#endif

/* Each piece of this block's work in turn, as body(tile, kb, ke, slot): K steps [kb, ke)
 * of tile `tile` of the order, and the workspace slot a piece short of the whole tile goes
 * to. The producer and the consumers walk the same pieces. */
template <typename F> __device__ inline void forEachPiece(int M, int N, int K, F body) {
   const long g = blockIdx.x, steps = K / BK, tiles = (long)TILES_M * TILES_N;
#if STREAMK
   const long total = tiles * steps, it0 = gt_sched_share_start(g, total, UNITS);
   const long it1 = gt_sched_share_start(g + 1, total, UNITS);
   int kb, ke;
   for (long it = it0; it < it1; it += ke - kb) {
      const long tile = gt_sched_piece(it, it1, steps, &kb, &ke);
      body(tile, kb, ke, g * 2 + (it == it0 ? 0 : 1));
   }
#else
   /* a cluster's blocks walk the same tiles of the order, CL_M high and CL_N wide (tileAt) */
   for (long tile = g / CLUSTER; tile < tiles / CLUSTER; tile += UNITS / CLUSTER)
      body(tile, 0, (int)steps, 0L);
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
#if EPI
   /* C's staging area, WM rows of STRIDE bytes per consumer, 128-byte aligned */
   unsigned char *staging = (unsigned char *)(((size_t)(ready + STAGES) + 127) & ~(size_t)127);
#endif
   const int tid = threadIdx.x, wg = gt_warpgroup(), steps = K / BK;
   const int rank = CLUSTER > 1 ? (int)gt_cluster_rank() : 0;
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
   /* q counts the stages this block has used, across its pieces: slot q % STAGES, its
    * use q / STAGES, so the ring runs on from one piece to the next. */
   if (wg == 0) {
#if MOVE_REGS
      gt_setmaxnreg_dec(REGS_PRODUCER);
#endif
      if (tid == 0) {
         int q = 0;
         forEachPiece(M, N, K, [&](long tile, int kb, int ke, long slot) {
            int tm, tn;
            tileAt(tile, M, N, rank, &tm, &tn);
            for (int t = kb; t < ke; t++, q++) {
               const int s = q % STAGES;
               if (q >= STAGES)
                  gt_mbar_wait(&empty[s], (q / STAGES - 1) & 1);
               loadTiles(ring + s * STAGE_ALL, &tmA, &tmB, t, tm * BM, tn * BN, rank, &full[s]);
            }
         });
      }
#if SPLIT3
      else if (tid >= 32) {
         int q = 0;
         forEachPiece(M, N, K, [&](long tile, int kb, int ke, long slot) {
            for (int t = kb; t < ke; t++, q++) {
               const int s = q % STAGES;
               gt_mbar_wait(&full[s], (q / STAGES) & 1);
               splitStage(ring + s * STAGE_ALL, tid - 32, 96);
               gt_fence_proxy_async(); /* the tensor cores read what these stores wrote */
               __syncwarp();
               if (tid % 32 == 0)
                  gt_mbar_arrive(&ready[s]);
            }
         });
      }
#endif
   } else {
      /* the consumers: WM rows each, registers taken from the producer */
#if MOVE_REGS
      gt_setmaxnreg_inc(REGS_CONSUMER);
#endif
      const int ctid = (tid - 128) % 128, r0 = (wg - 1) * WM;
      /* the first stage's descriptors of this consumer's rows of A and of B (DADD) */
      const gt_u64 dA0 = descAt(gt_smem_addr(ring), BM, r0, 0), dB0 = descAt(gt_smem_addr(ring) + TILE_A, BN, 0, 0);
      int q = 0;
      forEachPiece(M, N, K, [&](long tile, int kb, int ke, long slot) {
         int tm, tn;
         tileAt(tile, M, N, rank, &tm, &tn);
         float acc[WM / 64][BN / 2];
#pragma unroll
         for (int m = 0; m < WM / 64; m++)
#pragma unroll
            for (int i = 0; i < BN / 2; i++)
               acc[m][i] = 0.0f;
         for (int t = kb; t < ke; t++, q++) {
            const int s = q % STAGES;
            gt_mbar_wait(SPLIT3 ? &ready[s] : &full[s], (q / STAGES) & 1);
            FENCE_ACC();
            gt_wgmma_fence();
            mmaStage(acc, ring + s * STAGE_ALL, r0, dA0 + (gt_u64)(s * (STAGE_ALL / 16)), dB0 + (gt_u64)(s * (STAGE_ALL / 16)));
            gt_wgmma_commit();
            gt_wgmma_wait(1); /* step t-1's products are done: give its slot back */
            FENCE_ACC();
            if (t > kb && tid % 32 == 0)
               releaseSlot(&empty[gt_ring_prev(s, STAGES)]);
         }
         gt_wgmma_wait(0);
         FENCE_ACC();
         if (tid % 32 == 0) /* the piece's last slot: the next piece's copies may fill it */
            releaseSlot(&empty[(q - 1) % STAGES]);
         const bool whole = kb == 0 && ke == steps;
#if EPI
         if (whole && beta == 0.0f) {
            sendTile(acc, ctid, staging + r0 * STRIDE, C + (size_t)(tm * BM + r0) * N + tn * BN, N, alpha);
            return;
         }
#endif
         if (whole)
            storeTile(acc, ctid, C + (size_t)(tm * BM + r0) * N + tn * BN, N, true, alpha, beta);
         else
            storeTile(acc, ctid, W + (size_t)slot * (BM * BN) + r0 * BN, BN, false, alpha, beta);
      });
#if EPI
      if (tid % 32 < 16)
         gt_bulk_wait_read(); /* the copies have read shared memory before the block ends */
#endif
   }
#if CLUSTER > 1
   gt_cluster_sync(); /* the other block may still arrive on this one's barriers */
#endif
}

/* Rows of C a fix-up work-item adds (fixup_global's M / 16): the schedule's arithmetic, 64-bit
 * divisions, once for all of them; the launch was mostly that arithmetic with one row each. */
#define FIX_ROWS 16

/* The tiles that two or more blocks shared: the pieces added in the order of the blocks
 * that made them, then alpha and beta; a tile one block finished is left alone. Four
 * columns of FIX_ROWS rows a work-item, 16-byte loads and stores; launched only with
 * STREAMK=1. */
__kernel void gemm_fixup(const int M, const int N, const int K, const real alpha, const __global in_t *A,
                         const __global in_t *B, const real beta, __global real *C, __global real *W) {
   const int col = get_global_id(0) * 4, row = get_global_id(1) * FIX_ROWS; /* the first of its rows */
   const long steps = K / BK, total = (long)TILES_M * TILES_N * steps;
   const long tile = gt_sched_tile_index(row / BM, col / BN, TILES_M, TILES_N, GROUP);
   const long first = gt_sched_share_owner(tile * steps, total, UNITS);
   const long last = gt_sched_share_owner(tile * steps + steps - 1, total, UNITS);
   if (first == last)
      return;
   const __global real4 *W4 = (const __global real4 *)W;
   const size_t inTile = (size_t)(row % BM) * BN + col % BN;
   real4 sum[FIX_ROWS];
#pragma unroll
   for (int r = 0; r < FIX_ROWS; r++)
      sum[r] = MAKE_REAL4(REAL_ZERO, REAL_ZERO, REAL_ZERO, REAL_ZERO);
   for (long u = first; u <= last; u++) {
      /* with more blocks than K steps some shares are empty: they wrote nothing */
      if (gt_sched_share_start(u, total, UNITS) == gt_sched_share_start(u + 1, total, UNITS))
         continue;
      const __global real4 *piece = W4 + ((size_t)gt_sched_piece_slot(u, tile * steps, total, UNITS) * (BM * BN) + inTile) / 4;
#pragma unroll
      for (int r = 0; r < FIX_ROWS; r++)
         sum[r] = sum[r] + piece[r * (BN / 4)];
   }
#pragma unroll
   for (int r = 0; r < FIX_ROWS; r++) {
      __global real4 *c4 = (__global real4 *)&C[(size_t)(row + r) * N + col];
      real4 v = sum[r] * alpha;
      if (beta != REAL_ZERO)
         v = v + *c4 * beta;
      GT_STORE_CN(4, *c4, v);
   }
}
