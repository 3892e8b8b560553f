/*@gemmtop
name:     fp8h6_hybrid
title:    Hopper FP8 6: whole waves of tiles, stream-K for the rest, added up in the kernel
ladder:   hopper-fp8
step:     6
tune:     yes
accumulate: fp8-tensor-core PROMOTE * 128
about:    Step 4 (one block a multiprocessor, C through bulk copies) with the hybrid schedule
about:    of the stream-K paper (hopper8_hybrid): as many whole waves of whole tiles as the
about:    tiles make, and only the tiles of the ragged last wave (and one full wave before
about:    it, SKWAVES=1) shared out in 128-deep k-blocks, so that no multiprocessor idles
about:    through a last partial wave (at 4096 a 128 x 192 tile makes 5.33 waves: a sixth of
about:    the time lost). The pieces are added in the kernel, not by a second launch: the
about:    block that holds a tile's first k-block finishes its piece last, by which time the
about:    blocks after it have left theirs in the workspace and raised a flag; it adds them
about:    in block order (the same bits every run) and writes C. Block scales and promotion
about:    are step 3's, applied to each piece before it is stored, so that the sums add as
about:    they are. Fewer tiles than multiprocessors is stream-K over the whole grid (a few
about:    tokens by a long K); a whole number of waves is step 4.
param:    CONS = 2 in 1, 2 ; consumer warpgroups
param:    BM = 128 in 64, 128, 256 ; rows of C per tile (BM / CONS per consumer)
param:    BN = 192 in 64, 128, 144, 160, 176, 192, 256 ; columns of C per tile: the wgmma N (with block scales a multiple of 64)
param:    STAGES = 3 in 2, 3, 4, 5, 6 ; 128-deep k-blocks in flight in shared memory
param:    GROUP = 8 in 1, 2, 4, 8, 16, 32 ; tile rows per band of the tile order (1: row by row)
param:    PROMOTE = 1 in 0, 1 ; 1 adds every k-block's wgmma sums into FP32; 0: never
param:    SKWAVES = 1 in 0, 1 ; 1: the stream-K region is the last partial wave and one full wave; 0: the partial wave alone
param:    EPI = 1 in 1, 2, 3 ; parts of the columns the epilogue stages in turn: a staging area 1 / EPI the size leaves room for a stage
param:    SCALES = 1 in 0, 1 ; block scales: 1 a producer warp copies them beside the stage; 0 consumers load theirs from global memory
arch:     sm_90a
precisions: e4m3 e5m2
tensor:   yes
require:  PROMOTE == 1 || GT_SCALE_BLOCK == 0 ; block scales are applied as each k-block is promoted: PROMOTE=0 is for --scaling tensor
require:  GT_SCALE_BLOCK == 0 || BN % 64 == 0 ; with block scales each 64 columns of a tile take one scale of B's 128-column blocks: BN a multiple of 64 (a 192-column tile spans two blocks)
require:  BM % (64 * CONS) == 0 && BM / CONS <= 128 ; each consumer warpgroup takes 64 or 128 rows of the tile
require:  BN % (8 * EPI) == 0 ; the epilogue's parts are whole groups of 8 columns
require:  SCALES == 1 || GT_SCALE_BLOCK == 1 ; SCALES=0 is how block scales were loaded before (the consumers each load theirs): --scaling tensor has none
require:  BM / CONS / 64 * BN / 2 * (1 + (PROMOTE > 0)) <= 192 ; a consumer thread keeps BM / CONS / 64 * BN / 2 sums, twice that with promotion: at most 192 fit its registers
operands: A=N B=T
pad:      M=BM N=BN K=128
global:   CUS * 128 * (CONS + 1), 1
local:    128 * (CONS + 1), 1
work:     (M / BM) * (N / BN) * (K / 128)
dynamic_smem: STAGES * (BM + BN) * 128 + BM * (BN / EPI * 4 + 32) + 1024 + 16 * STAGES + GT_SCALE_BLOCK * SCALES * STAGES * (BM + 4) * 4
tma:      A box=128,BM swizzle=128
tma:      B box=128,BN swizzle=128
workspace: (M / BM) * (N / BN) % CUS ? CUS * (BM * BN + CONS) * 4 : 0
reuse:    A=BN B=BM
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
/* Block scales, as step 3: each of the tile's NG 64-column groups lies in one of B's
 * 128-column scale blocks, SBN of them at most. */
#define NG (BN / 64)
#define SBN ((BN + BN % KB + KB - 1) / KB)
/* SCALES=1: each stage's scales in shared memory, after the barriers: A's for the tile's BM
 * rows, then B's SBN blocks (at most 3; 4 keeps the next stage's 16-byte aligned). */
#define SCALE_STRIDE (BM + 4)
#define BNP (BN / EPI)        /* columns of C an epilogue part stages */
#define STRIDE (BNP * 4 + 32) /* bytes between rows of the staging area */
#define UNITS CUS            /* the persistent grid: one block a multiprocessor */
#define TILES_M (M / BM)
#define TILES_N (N / BN)
#define SK_TILES(tiles) gt_sched_hybrid_sk_tiles((tiles), UNITS, SKWAVES)
/* A workspace flag once its piece's sums are there; the adding block sets it back to 0. Any
 * other value, the workspace's NaN poison included, reads as "not yet". */
#define PIECE_READY 0x600DF1A6u
/* The workspace: a slot of BM x BN sums a block, then a flag a block and consumer warpgroup
 * (computed where it is used: a pointer kept through the main loop costs two registers). */
#define FLAG(W, block, wg) ((unsigned *)((W) + (size_t)UNITS * BM * BN) + (block) * CONS + (wg) - 1)

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

/* Thread t of the warpgroup holds rows 16 (t/32) + (t%32)/4 (+8) of each 64-row slice and the
 * column pairs 8j + 2 (t%4): element 4j + 2h + e is row 8h, column 8j + e. */
#define ROW_OF(t) (16 * ((t) / 32) + ((t) % 32) / 4)
#define COL_OF(t) (2 * ((t) % 4))

/* The epilogue through the copy engine, as step 4, in parts. The scaled sums into this
 * warpgroup's rows of the staging area (warp w holds rows 16w + g and 16w + g + 8 of each
 * 64-row slice, so each warp writes, and later sends, rows of its own); returns this
 * thread's first pair's shared address, the others at constant offsets. */
__device__ __forceinline__ uint stageSums(float (*sum)[BN / 2], unsigned char *stg, int tid, float scale, int part) {
   if (tid % 32 < 16)
      gt_bulk_wait_read(); /* the previous part's or tile's copies have read these rows */
   __syncwarp();
   const uint at = gt_smem_addr(stg) + (uint)(ROW_OF(tid) * STRIDE + COL_OF(tid) * 4);
   const int j0 = part * (BNP / 8); /* a constant once the parts' loop is unrolled */
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int j = j0; j < j0 + BNP / 8; j++)
#pragma unroll
         for (int h = 0; h < 2; h++) {
            float2 v;
            GT_STORE_CN(2, v, make_float2(scale * sum[m][4 * j + 2 * h], scale * sum[m][4 * j + 2 * h + 1]));
            gt_st_shared_f2(at + (uint)((m * 64 + 8 * h) * STRIDE + 8 * (j - j0) * 4), v);
         }
   return at;
}

/* Another block's piece of this tile, scaled, added to the staged sums at the same places,
 * from its workspace slot (BM x BN floats, row-major) read from L2 (`.cg`: this
 * multiprocessor's L1 may hold an older line of the slot). Through shared memory rather
 * than the sums' registers: with block scales, adding into the registers spilled. */
__device__ __forceinline__ void addToStage(uint at, const float *slot, int tid, float scale, int part) {
   const float *p = slot + ROW_OF(tid) * BN + COL_OF(tid) + part * BNP;
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int j = 0; j < BNP / 8; j++)
#pragma unroll
         for (int h = 0; h < 2; h++) {
            const uint sh = at + (uint)((m * 64 + 8 * h) * STRIDE + 8 * j * 4);
            const float2 v = gt_ld_cg_f2(p + (m * 64 + 8 * h) * BN + 8 * j), old = gt_ld_shared_f2(sh);
            gt_st_shared_f2(sh, make_float2(fmaf(scale, v.x, old.x), fmaf(scale, v.y, old.y)));
         }
}

/* The staged rows to C (rows ld apart) from (row0, col0): made visible to the copy engine,
 * then lanes 0-15 of each warp send one row each of each 64-row slice. With beta the
 * threads read C and write staged + beta C themselves, at the places they staged. */
__device__ __forceinline__ void sendStaged(unsigned char *stg, uint at, int tid, int row0, int col0, int ld,
                                           float beta, float *C) {
   if (beta != 0.0f) {
      float *p = C + (size_t)(row0 + ROW_OF(tid)) * ld + col0 + COL_OF(tid);
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int j = 0; j < BNP / 8; j++)
#pragma unroll
            for (int h = 0; h < 2; h++) {
               float2 *q = (float2 *)(p + (size_t)(m * 64 + 8 * h) * ld + 8 * j);
               const float2 v = gt_ld_shared_f2(at + (uint)((m * 64 + 8 * h) * STRIDE + 8 * j * 4)), old = *q;
               GT_STORE_CN(2, *q, make_float2(fmaf(beta, old.x, v.x), fmaf(beta, old.y, v.y)));
            }
      return;
   }
   gt_bulk_send_rows(tid, C + (size_t)row0 * ld + col0, ld, stg, STRIDE, WM / 64, BNP * 4);
}

/* The schedule in 32-bit arithmetic (gt_sched_*32: a long division would spill the sums). */
#define SHARE_START(u, total) gt_sched_share_start32((u), (total), UNITS)
#define SHARE_OWNER(it, total) gt_sched_share_owner32((it), (total), UNITS)

/* Each piece of this block's work in turn, as body(tile, kb, ke): its share of the stream-K
 * region's k-blocks, then its whole tiles; k-blocks [kb, ke) of tile `tile` of the order.
 * Only the first piece of a share can start inside a tile (kb > 0): a block stores at most
 * one piece, into its own slot. The producer and the consumers walk the same pieces. */
template <typename F> __device__ inline void forEachPiece(int M, int N, int K, F body) {
   const int g = blockIdx.x, steps = K / KB, tiles = TILES_M * TILES_N, sk = (int)SK_TILES(tiles);
   const int total = sk * steps, it1 = SHARE_START(g + 1, total);
   int kb, ke;
   for (int it = SHARE_START(g, total); it < it1; it += ke - kb) {
      const int tile = gt_sched_piece32(it, it1, steps, &kb, &ke);
      body(tile, kb, ke);
   }
   for (int tile = sk + g; tile < tiles; tile += UNITS)
      body(tile, 0, steps);
}

__kernel __launch_bounds__(THREADS, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                                 const __global in_t *A, const __global in_t *B, const real beta,
                                                 __global real *C GT_SCALE_PARAMS, __global real *W,
                                                 GT_TENSOR_MAP tmA, GT_TENSOR_MAP tmB) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   unsigned char *ring = gt_dynamic + ((1024 - (gt_smem_addr(gt_dynamic) & 1023)) & 1023);
   unsigned char *staging = ring + STAGES * STAGE;   /* WM rows of STRIDE bytes per consumer */
   gt_u64 *full = (gt_u64 *)(staging + BM * STRIDE); /* filled by the copy engine */
   gt_u64 *empty = full + STAGES;                     /* released by every consumer warp */
#if GT_SCALE_BLOCK && SCALES
   float *scales = (float *)(empty + STAGES); /* SCALE_STRIDE floats a stage */
#endif
   const int tid = threadIdx.x, wg = tid / 128, kblocks = K / KB;
   if (tid == 0) {
      for (int s = 0; s < STAGES; s++) {
         /* SCALES=1: the scales' 32 lanes arrive too, each once its copies have landed */
         gt_mbar_init(&full[s], 1 + (GT_SCALE_BLOCK && SCALES ? 32 : 0));
         gt_mbar_init(&empty[s], 4 * CONS);
      }
      gt_mbar_fence_init();
   }
   __syncthreads();
   if (wg == 0) {
      /* the producer: one thread keeps the ring full, piece after piece */
#if MOVE_REGS
      gt_setmaxnreg_dec(REGS_PRODUCER);
#endif
      if (tid == 0) {
         int it = 0; /* k-blocks copied so far, over all of this block's pieces */
         forEachPiece(M, N, K, [&](int tile, int kb, int ke) {
            int tm, tn;
            gt_sched_tile_at32(tile, TILES_M, TILES_N, GROUP, &tm, &tn);
            for (int t = kb; t < ke; t++, it++) {
               const int s = it % STAGES;
               if (it >= STAGES)
                  gt_mbar_wait(&empty[s], (it / STAGES - 1) & 1);
               loadStage(ring + s * STAGE, &tmA, &tmB, t, tm * BM, tn * BN, &full[s]);
            }
         });
      }
#if GT_SCALE_BLOCK && SCALES
      else if (tid / 32 == 1) {
         /* the producer's second warp: each k-block's scales beside its stage, so that the
          * consumers read them from shared memory after the wait they make anyway */
         const int lane = tid % 32, nblocks = (N + KB - 1) / KB;
         int it = 0;
         forEachPiece(M, N, K, [&](int tile, int kb, int ke) {
            int tm, tn;
            gt_sched_tile_at32(tile, TILES_M, TILES_N, GROUP, &tm, &tn);
            for (int t = kb; t < ke; t++, it++) {
               const int s = it % STAGES;
               if (it >= STAGES)
                  gt_mbar_wait(&empty[s], (it / STAGES - 1) & 1);
               GT_COPY_SCALES(scales + s * SCALE_STRIDE, lane, BM, SBN, tm * BM, tn * BN, t, kblocks, nblocks, &full[s]);
            }
         });
         gt_cp_async_wait_all();
      }
#endif
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
#if GT_SCALE_BLOCK && !SCALES
      const int nblocks = (N + KB - 1) / KB;
#endif
      int it = 0; /* k-blocks consumed so far, as the producer counts them */
      forEachPiece(M, N, K, [&](int tile, int kb, int ke) {
         int tm, tn;
         gt_sched_tile_at32(tile, TILES_M, TILES_N, GROUP, &tm, &tn);
         const int row0 = tm * BM, col0 = tn * BN;
#pragma unroll
         for (int m = 0; m < WM / 64; m++)
#pragma unroll
            for (int i = 0; i < BN / 2; i++)
               acc[m][i] = sum[m][i] = 0.0f;
#if GT_SCALE_BLOCK
         /* a tile that starts 64 columns into a scale block (BN 64, 192): its odd 64-column
          * groups lie in the block after its even group before them */
         const bool shifted = BN % KB != 0 && col0 % KB != 0;
#if SCALES
         float sa[WM / 64][2], sb[SBN]; /* read from the stage's scales after its wait */
#else
         const int rowT = row0 + r0 + ROW_OF(ctid);
         /* k-block t's scales: this thread's two rows' of A, the tile's blocks' of B */
         auto loadScales = [&](int t, float (*a)[2], float *b) {
#pragma unroll
            for (int m = 0; m < WM / 64; m++)
#pragma unroll
               for (int h = 0; h < 2; h++)
                  a[m][h] = GT_SCALE_A((size_t)(rowT + m * 64 + 8 * h) * kblocks + t);
#pragma unroll
            for (int q = 0; q < SBN; q++)
               b[q] = GT_SCALE_B((size_t)t * nblocks + col0 / KB + q);
         };
         /* Loaded a k-block ahead: from L2 under the tensor cores' traffic a load outlasts a
          * k-block (ncu on the H200: loaded at the k-block's start, warps stalled on them
          * 1.6 times as often as per-tensor's). */
         float sa[WM / 64][2], sb[SBN], na[WM / 64][2], nb[SBN];
         loadScales(kb, sa, sb);
#endif
#endif
         for (int t = kb; t < ke; t++, it++) {
            const int s = it % STAGES;
#if GT_SCALE_BLOCK && !SCALES
            loadScales(min(t + 1, ke - 1), na, nb); /* the next k-block's (the last's again at the end) */
#endif
            gt_mbar_wait(&full[s], (it / STAGES) & 1);
#if GT_SCALE_BLOCK && SCALES
            /* read before the slot is given back below; the wgmma hides the latency */
            GT_READ_SCALES(scales + s * SCALE_STRIDE, BM, r0 + ROW_OF(ctid), sa, WM / 64, sb, SBN);
#endif
            FENCE_ACC();
            gt_wgmma_fence();
            mmaStage(acc, ring + s * STAGE, r0, PROMOTE);
            gt_wgmma_commit();
#if PROMOTE
            /* this k-block's sums are complete: its slot back, then added in FP32 */
            gt_wgmma_wait(0);
            FENCE_ACC();
            if (tid % 32 == 0)
               gt_mbar_arrive(&empty[s]);
#if GT_SCALE_BLOCK
            float sg[NG]; /* group g's scale of B: block g / 2 of the tile's, (g + 1) / 2 shifted */
#pragma unroll
            for (int g = 0; g < NG; g++)
               sg[g] = shifted ? sb[min((g + 1) / 2, SBN - 1)] : sb[g / 2];
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
#if !SCALES
#pragma unroll
            for (int m = 0; m < WM / 64; m++) {
               sa[m][0] = na[m][0];
               sa[m][1] = na[m][1];
            }
#pragma unroll
            for (int q = 0; q < SBN; q++)
               sb[q] = nb[q];
#endif
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
            if (t > kb && tid % 32 == 0)
               gt_mbar_arrive(&empty[(it - 1) % STAGES]);
#endif
         }
#if !PROMOTE
         gt_wgmma_wait(0); /* the piece's last k-block: its slot too, before the next piece */
         FENCE_ACC();
         if (tid % 32 == 0)
            gt_mbar_arrive(&empty[(it - 1) % STAGES]);
#endif
         /* Every tile and piece leaves through the staging area: a piece that is not its
          * tile's first (kb > 0) as it is into this block's slot, BN floats a row, for the
          * block that has the first; that block adds the others' in block order, scaled. */
         const bool piece = kb > 0;
#if GT_SCALE_BLOCK
         const float scale = piece ? 1.0f : alpha;
#else
         const float scale = piece ? 1.0f : alpha * (GT_SCALE_A(0) * GT_SCALE_B(0));
#endif
         unsigned char *stg = staging + r0 * STRIDE;
         const bool adds = !piece && ke < kblocks;
         const int total = (int)SK_TILES(TILES_M * TILES_N) * kblocks;
         const int last = adds ? SHARE_OWNER(tile * kblocks + kblocks - 1, total) : 0;
#pragma unroll
         for (int part = 0; part < EPI; part++) {
            const uint at = stageSums(sum, stg, ctid, scale, part);
            for (int v = blockIdx.x + 1; v <= last; v++) {
               if (SHARE_START(v, total) == SHARE_START(v + 1, total))
                  continue; /* more blocks than k-blocks: an empty share stored nothing */
               if (part == 0) {
                  if (ctid == 0) {
                     unsigned *f = FLAG(W, v, wg);
                     while (gt_flag_acquire(f) != PIECE_READY)
                        ;
                     *(volatile unsigned *)f = 0u; /* read: the next launch sets it again */
                  }
                  gt_named_barrier(wg, 128);
               }
               addToStage(at, W + (size_t)v * BM * BN + (size_t)r0 * BN, ctid, scale, part);
            }
            if (piece)
               sendStaged(stg, at, ctid, r0, part * BNP, BN, 0.0f, W + (size_t)blockIdx.x * BM * BN);
            else
               sendStaged(stg, at, ctid, row0 + r0, col0 + part * BNP, N, beta, C);
         }
         if (piece) {
            /* the copies have written the slot, ordered before the flag */
            if (ctid % 32 < 16)
               gt_bulk_wait_write();
            gt_named_barrier(wg, 128);
            if (ctid == 0)
               gt_flag_release(FLAG(W, blockIdx.x, wg), PIECE_READY);
         }
      });
      if (tid % 32 < 16)
         gt_bulk_wait_read(); /* the copies have read shared memory before the block ends */
#undef sum
   }
}
