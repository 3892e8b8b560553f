/*@gemmtop
name:     hopper8_hybrid
title:    Hopper 8: whole waves of tiles, stream-K for the rest
ladder:   hopper
step:     8
tune:     yes
about:    Step 7's persistent grid, with the schedule the stream-K paper recommends (Osama
about:    et al., 2023, "data-parallel + stream-K"): as many whole waves of whole tiles as
about:    the tiles make, each block finishing its tiles with alpha and beta and no
about:    workspace, and stream-K only for the tiles that would form a ragged last wave.
about:    With SKWAVES=1 that region is the last partial wave and one full wave before it,
about:    so that each block's share holds at least one tile's K steps and no piece is
about:    tiny; with 0, the partial wave alone. A number of tiles that is a whole number of
about:    waves runs as step 5 in a persistent grid; fewer tiles than blocks is step 7. The
about:    region's tiles come first in the order, so that their pieces are written early,
about:    then block g takes the whole tiles g, g + G, ... after it; the fix-up adds the
about:    region's pieces in block order (the same bits every run). Stream-K's even balance
about:    at a fraction of its workspace traffic.
param:    CONS = 2 in 1, 2 ; consumer warpgroups
param:    BM = 128 in 64, 128, 256 ; rows of C per tile (BM / CONS per consumer)
param:    BN = 128 in 64, 128, 192, 256 ; columns of C per tile: the wgmma N
param:    GROUP = 8 in 1, 2, 4, 8, 16, 32 ; tile rows per band of the tile order (1: row by row)
param:    BK = 32 in 8, 16, 32, 64, 128 ; tile depth along K in elements
param:    SW = 128 in 0, 32, 64, 128 ; swizzle of the shared tiles in bytes (0: none)
param:    STAGES = 3 in 2, 3, 4, 5, 6 ; tiles in flight in shared memory
param:    BLOCKS = 1 in 1, 2 ; blocks per multiprocessor: the persistent grid is CUS * BLOCKS
param:    C16 = 1 in 0, 1 ; 1: neighbouring lanes swap accumulator pairs so that C is stored 16 bytes a lane (0: 8)
param:    SKWAVES = 1 in 0, 1 ; 1: the stream-K region is the last partial wave and one full wave; 0: the partial wave alone
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
global:   CUS * BLOCKS * 128 * (CONS + 1), 1
local:    128 * (CONS + 1), 1
work:     (M / BM) * (N / BN) * (K / BK)
staggered: (M / BM) * (N / BN) % (CUS * BLOCKS) != 0
dynamic_smem: STAGES * (BM + BN) * BK * IN_SIZE * (GT_TF32 || GT_HALF || GT_BF16 ? 1 : 2) + 1024 + 24 * STAGES
tma:      A box=(SW == 0 ? 16 : SW) / IN_SIZE,BM swizzle=SW
tma:      B box=(SW == 0 ? 16 : SW) / IN_SIZE,BN swizzle=SW
workspace: (M / BM) * (N / BN) % (CUS * BLOCKS) ? CUS * BLOCKS * 2 * BM * BN * REAL_SIZE : 0
fixup:    gemm_fixup
fixup_global: (M / BM) * (N / BN) % (CUS * BLOCKS) ? N / 4 : 0, M / 16
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
#define UNITS (CUS * BLOCKS)                      /* the persistent grid's blocks */
#define TILES_M (M / BM)
#define TILES_N (N / BN)

/* The descriptor of k-step kk of a tile of `rows` rows at tile (shared address) + row0's
 * block. A tile is BK*ES/ATOM boxes of rows x ATOM bytes side by side; swizzled, a
 * k-step is 32 bytes inside one box row; without swizzle a box is one column of 8x16-byte
 * core matrices and a k-step spans two boxes (LBO apart). */
__device__ inline gt_u64 descAt(uint tile, int rows, int row0, int kk) {
   return gt_wgmma_desc(tile + GT_WGMMA_KOFF(rows, row0, kk, ATOM), SW == 0 ? rows * 16 : 16, 8 * ATOM, SW);
}

/* All boxes of K step t of A's and B's tiles at (row0, col0) into one stage, counted on bar. */
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

/* The stream-K region: the first SK_TILES tiles of the order (gt_sched_hybrid_sk_tiles). */
#define SK_TILES(tiles) gt_sched_hybrid_sk_tiles((tiles), UNITS, SKWAVES)

/* Each piece of this block's work in turn, as body(tile, kb, ke, slot): its share of the
 * stream-K region's K steps, then its whole tiles; K steps [kb, ke) of tile `tile` of the
 * order, and the workspace slot a piece short of the whole tile goes to. The producer and
 * the consumers walk the same pieces. */
template <typename F> __device__ inline void forEachPiece(int M, int N, int K, F body) {
   const long g = blockIdx.x, steps = K / BK, tiles = (long)TILES_M * TILES_N, sk = SK_TILES(tiles);
   const long total = sk * steps, it0 = gt_sched_share_start(g, total, UNITS);
   const long it1 = gt_sched_share_start(g + 1, total, UNITS);
   int kb, ke;
   for (long it = it0; it < it1; it += ke - kb) {
      const long tile = gt_sched_piece(it, it1, steps, &kb, &ke);
      body(tile, kb, ke, g * 2 + (it == it0 ? 0 : 1));
   }
   for (long tile = sk + g; tile < tiles; tile += UNITS)
      body(tile, 0, (int)steps, 0L);
}

__kernel __launch_bounds__(THREADS, BLOCKS) void gemm(const int M, const int N, const int K, const real alpha,
                                                      const __global in_t *A, const __global in_t *B, const real beta,
                                                      __global real *C, __global real *W, GT_TENSOR_MAP tmA,
                                                      GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   unsigned char *ring = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   gt_u64 *full = (gt_u64 *)(ring + STAGES * STAGE_ALL); /* filled by the copy engine */
   gt_u64 *empty = full + STAGES;                         /* read by every consumer warp */
   gt_u64 *ready = empty + STAGES;                        /* 3xTF32: the stage is split */
   const int tid = threadIdx.x, wg = gt_warpgroup(), steps = K / BK;
   if (tid == 0) {
      for (int s = 0; s < STAGES; s++) {
         gt_mbar_init(&full[s], 1);
         gt_mbar_init(&empty[s], 4 * CONS);
         gt_mbar_init(&ready[s], 3);
      }
      gt_mbar_fence_init();
   }
   __syncthreads();
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
            gt_sched_tile_at(tile, TILES_M, TILES_N, GROUP, &tm, &tn);
            for (int t = kb; t < ke; t++, q++) {
               const int s = q % STAGES;
               if (q >= STAGES)
                  gt_mbar_wait(&empty[s], (q / STAGES - 1) & 1);
               loadTiles(ring + s * STAGE_ALL, &tmA, &tmB, t, tm * BM, tn * BN, &full[s]);
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
      /* the first stage's descriptors of this consumer's rows of A and of B */
      const gt_u64 dA0 = descAt(gt_smem_addr(ring), BM, r0, 0), dB0 = descAt(gt_smem_addr(ring) + TILE_A, BN, 0, 0);
      int q = 0;
      forEachPiece(M, N, K, [&](long tile, int kb, int ke, long slot) {
         int tm, tn;
         gt_sched_tile_at(tile, TILES_M, TILES_N, GROUP, &tm, &tn);
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
            mmaStage(acc, dA0 + (gt_u64)(s * (STAGE_ALL / 16)), dB0 + (gt_u64)(s * (STAGE_ALL / 16)));
            gt_wgmma_commit();
            gt_wgmma_wait(1); /* step t-1's products are done: give its slot back */
            FENCE_ACC();
            if (t > kb && tid % 32 == 0)
               gt_mbar_arrive(&empty[gt_ring_prev(s, STAGES)]);
         }
         gt_wgmma_wait(0);
         FENCE_ACC();
         if (tid % 32 == 0) /* the piece's last slot: the next piece's copies may fill it */
            gt_mbar_arrive(&empty[(q - 1) % STAGES]);
         if (kb == 0 && ke == steps)
            storeTile(acc, ctid, C + (size_t)(tm * BM + r0) * N + tn * BN, N, true, alpha, beta);
         else
            storeTile(acc, ctid, W + (size_t)slot * (BM * BN) + r0 * BN, BN, false, alpha, beta);
      });
   }
}

/* Rows of C a fix-up work-item adds (fixup_global's M / 16): the schedule's arithmetic, 64-bit
 * divisions, once for all of them; the launch was mostly that arithmetic with one row each. */
#define FIX_ROWS 16

/* The stream-K region's tiles that two or more blocks shared: the pieces added in the
 * order of the blocks that made them, then alpha and beta; a tile one block finished is
 * left alone. Four columns of FIX_ROWS rows a work-item, 16-byte loads and stores;
 * launched only when the tiles are not a whole number of waves. */
__kernel void gemm_fixup(const int M, const int N, const int K, const real alpha, const __global in_t *A,
                         const __global in_t *B, const real beta, __global real *C, __global real *W) {
   const int col = get_global_id(0) * 4, row = get_global_id(1) * FIX_ROWS; /* the first of its rows */
   const long steps = K / BK, tiles = (long)TILES_M * TILES_N, total = SK_TILES(tiles) * steps;
   const long tile = gt_sched_tile_index(row / BM, col / BN, TILES_M, TILES_N, GROUP);
   if (tile * steps >= total)
      return; /* a whole tile of the waves */
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
