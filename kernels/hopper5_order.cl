/*@gemmtop
name:     hopper5_order
title:    Hopper 5: a launch order for L2
ladder:   hopper
step:     5
tune:     yes
about:    Step 4 with the blocks launched in an order that suits L2: blocks are numbered
about:    along a one-dimensional grid and mapped to tiles GROUP block rows at a time, so that
about:    the blocks running together read a few rows of A and a band of B's columns that
about:    fit in the 50 MB L2 instead of streaming all of B for each block row. CLUSTER=2
about:    goes further: two blocks of a thread-block cluster take tiles one above the other,
about:    which share their B tile, and each copies half of it into both blocks' shared
about:    memory at once (TMA multicast); a slot is refilled when both blocks released it.
about:    SHARE_A=1 turns the cluster on its side, as cuBLAS's "1x2" and "4x1" kernels: its
about:    CLUSTER blocks take tiles side by side, which share their A tile, and each copies
about:    BM / CLUSTER of its rows into all of them. With few rows of A (64 tokens) and many
about:    tile columns, every tile column re-reads the same A from L2; CLUSTER=4 cuts that by 4.
about:    In float (3xTF32) four switches test why its error is above SGEMM's: LO rounds lo
about:    to TF32 instead of letting the tensor core cut it, SMALL keeps the small cross terms
about:    in accumulators of their own, PROMO adds the wgmma sums into FP32 registers every
about:    PROMO tiles (so the tensor core's truncating additions see only a few tiles), and
about:    ORDER issues hi*hi first. PROMO applies to every type. AREG=1 splits A in the
about:    consumers' registers and gives wgmma A from there: shared memory then carries B's
about:    split only, and each k-step reads A's 64 x 8 slice once instead of three times;
about:    AHEAD=1 splits the next tile's A while this tile's wgmma runs.
param:    CONS = 2 in 1, 2 ; consumer warpgroups
param:    BM = 128 in 64, 128, 256 ; rows of C per block (BM / CONS per consumer)
param:    BN = 128 in 32, 64, 96, 112, 128, 144, 160, 192, 224, 256 ; columns of C per block: the wgmma N
param:    GROUP = 8 in 1, 2, 4, 8, 16, 32 ; block rows per band of the launch order (1: row by row)
param:    CLUSTER = 1 in 1, 2, 4 ; blocks per cluster sharing each B tile (or A tile: SHARE_A) through TMA multicast
param:    SHARE_A = 0 in 0, 1 ; 1: a cluster's blocks take tiles side by side and share their A tile; 0: one above the other, sharing B
param:    BK = 32 in 8, 16, 32, 64, 128 ; tile depth along K in elements
param:    SW = 128 in 0, 32, 64, 128 ; swizzle of the shared tiles in bytes (0: none)
param:    STAGES = 3 in 2, 3, 4, 5, 6, 8, 10, 12, 16 ; tiles in flight in shared memory
param:    BLOCKS = 1 in 1, 2 ; blocks per multiprocessor that the registers are shared for
param:    C16 = 1 in 0, 1 ; 1: neighbouring lanes swap accumulator pairs so that C is stored 16 bytes a lane (0: 8)
param:    LO = 0 in 0, 1 ; 3xTF32: 1 rounds lo to TF32 (cvt.rna) before the tensor core reads it; 0 lets it cut the bits
param:    SMALL = 0 in 0, 1 ; 3xTF32: 1 adds the cross terms lo*hi + hi*lo into accumulators of their own
param:    PROMO = 0 in 0, 1, 2, 4, 8 ; every PROMO tiles the wgmma sums are added into FP32 registers and start afresh (0: never)
param:    ORDER = 0 in 0, 1 ; 3xTF32: 0 issues the cross terms before hi*hi, 1 after
param:    AREG = 0 in 0, 1 ; 3xTF32: 1 splits A in registers and feeds wgmma A from them (only B is split in shared memory)
param:    AHEAD = 1 in 0, 1 ; AREG: 1 splits the next tile's A while this tile's wgmma runs (a second set of registers); 0 waits for each tile's wgmma first
reuse:    A=BN B=BM
band:     CLUSTER == 1 ? GROUP : 0
local_reuse: A=(IN_SIZE==4&&GT_TF32==0&&AREG==0?BN*5/48:BN) B=(IN_SIZE==4&&GT_TF32==0?64*BM*5/(15*BM+2112):64)
arch:     sm_90a
precisions: float tf32 half bfloat16
tensor:   yes
require:  BK * IN_SIZE % (SW == 0 ? 32 : SW) == 0 && BK * IN_SIZE >= 32 ; BK times the element size must be a multiple of the swizzle width (32 bytes without swizzle)
require:  BM % (64 * CONS) == 0 && BM / CONS <= 128 ; each consumer warpgroup takes 64 or 128 rows of the tile
require:  (LO == 0 && SMALL == 0 && ORDER == 0 && AREG == 0) || (IN_SIZE == 4 && GT_TF32 == 0) ; LO, SMALL, ORDER and AREG shape 3xTF32, the float path
require:  AREG == 0 || SW > 0 ; AREG reads A's fragments from a swizzled tile
require:  AREG == 0 || BN == 64 || BN == 128 || BN == 192 || BN == 256 ; AREG's wgmma with A from registers is written for N of 64, 128, 192 and 256
require:  AHEAD == 1 || AREG == 1 ; AHEAD is AREG's
require:  BM / CONS / 64 * BN / 2 * (1 + SMALL + (PROMO > 0)) <= 192 || (SMALL == 0 && PROMO == 0) ; a consumer thread keeps BM / CONS / 64 * BN / 2 sums per set (wgmma's, SMALL's, PROMO's): at most 192 in all
require:  SHARE_A == 0 || CLUSTER > 1 ; SHARE_A shares A among the blocks of a cluster (CLUSTER 2 or 4)
require:  BM % (8 * CLUSTER) == 0 && BN % (8 * CLUSTER) == 0 ; each block of a cluster copies whole 8-row swizzle groups of the shared tile
require:  BLOCKS == 1 || (BN <= 128 && CONS == 1) ; two blocks per multiprocessor leave 128 registers at entry: one consumer, and a wgmma N of at most 128 (ptxas checks each wgmma against the entry count)
operands: A=N B=T
pad:      M=BM*(SHARE_A?1:CLUSTER) N=BN*(SHARE_A?CLUSTER:1) K=BK
global:   N / BN * (M / BM) * 128 * (CONS + 1), 1
local:    128 * (CONS + 1), 1
dynamic_smem: STAGES * (BM + BN + (GT_TF32 || GT_HALF || GT_BF16 ? 0 : (AREG ? BN : BM + BN))) * BK * IN_SIZE + 1024 + 24 * STAGES
tma:      A box=(SW == 0 ? 16 : SW) / IN_SIZE,BM / (SHARE_A ? CLUSTER : 1) swizzle=SW
tma:      B box=(SW == 0 ? 16 : SW) / IN_SIZE,BN / (SHARE_A ? 1 : CLUSTER) swizzle=SW
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
#define AREG3 (SPLIT3 && AREG)                    /* 3xTF32 with A split in registers */
#define AHEAD3 (AREG3 && AHEAD)                   /* ... the next tile's split while this one runs */
#define LO_B (AREG3 ? TILE_B : STAGE)              /* from B's tile to its lo part */
#define STAGE_ALL (STAGE + (SPLIT3 ? LO_B : 0))    /* bytes of one stage in shared memory */
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
 * FP32) in the same position loOff bytes further, so both keep the swizzled layout. */
__device__ inline void splitTiles(unsigned char *from, int bytes, int loOff, int tid, int threads) {
   float4 *raw = (float4 *)from, *lo = (float4 *)(from + loOff);
   for (int i = tid; i < bytes / 16; i += threads) {
      const float4 x = raw[i];
      float4 h;
      h.x = gt_tf32_round(x.x);
      h.y = gt_tf32_round(x.y);
      h.z = gt_tf32_round(x.z);
      h.w = gt_tf32_round(x.w);
      raw[i] = h;
#if LO
      lo[i] = make_float4(gt_tf32_round(x.x - h.x), gt_tf32_round(x.y - h.y), gt_tf32_round(x.z - h.z),
                          gt_tf32_round(x.w - h.w));
#else
      lo[i] = make_float4(x.x - h.x, x.y - h.y, x.z - h.z, x.w - h.w);
#endif
   }
}

/* 3xTF32 with SMALL=1: the cross terms go to accumulators of their own (else into acc). */
#define CROSS (SPLIT3 && SMALL)

#if AREG3
/* AREG: this thread's part of A's 64 x 8 slices of a stage, split (wgmma's register layout,
 * gt_wgmma_rs_n*): for k-step kk and slice m, rows r and r + 8 at k = t and t + 4. Read
 * from the swizzled tile (the 16-byte unit XOR the row's place in its 8-row group: no bank
 * is read twice by a warp), split as splitTiles does. */
__device__ inline float swizzledA(const unsigned char *tile, int row, int k) {
   const uint o = (uint)(k * ES / ATOM) * BM * ATOM + (uint)row * ATOM + (uint)(k * ES % ATOM);
   return *(const float *)(tile + (o ^ ((o >> 7) & (ATOM / 16 - 1)) << 4));
}
__device__ inline void splitA(const unsigned char *stage, int r0, uint (*hi)[WM / 64][4], uint (*lo)[WM / 64][4]) {
   const int lane = threadIdx.x % 32, r = r0 + 16 * (threadIdx.x / 32 % 4) + lane / 4, t = lane % 4;
#pragma unroll
   for (int kk = 0; kk < KSTEPS; kk++)
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int v = 0; v < 4; v++) {
            const float x = swizzledA(stage, r + m * 64 + 8 * (v & 1), kk * 8 + t + 4 * (v >> 1));
            const float h = gt_tf32_round(x);
            hi[kk][m][v] = __float_as_uint(h);
            lo[kk][m][v] = __float_as_uint(LO ? gt_tf32_round(x - h) : x - h);
         }
}
#define WGMMA_RS_N(n) gt_wgmma_rs_n##n
#define WGMMA_RS(n) WGMMA_RS_N(n)
#endif

/* The accumulators stay where the asynchronous MMA left them. */
#define FENCE_ACC()                                                                                                  \
   _Pragma("unroll") for (int m_ = 0; m_ < WM / 64; m_++) _Pragma("unroll") for (int i_ = 0; i_ < BN / 2; i_++) { \
      gt_fence_reg(acc[m_][i_]);                                                                                    \
      if (CROSS)                                                                                                    \
         gt_fence_reg(cross[m_][i_]);                                                                               \
   }

#define WGMMA_N(n) gt_wgmma_n##n
#define WGMMA(n) WGMMA_N(n)

/* The products of one stage into acc (3xTF32's cross terms into cross with SMALL=1, else
 * into acc too): the WM rows of this warpgroup from row r0 of the tile. With fresh, the
 * first product into each accumulator overwrites it (scale-d 0) instead of adding. */
__device__ inline void mmaStage(float (*acc)[BN / 2], float (*cross)[BN / 2], gt_u64 dA, gt_u64 dB, int fresh,
                                uint (*ahi)[WM / 64][4], uint (*alo)[WM / 64][4]) {
#pragma unroll
   for (int kk = 0; kk < KSTEPS; kk++) {
      const gt_u64 db = dB + GT_WGMMA_KOFF(BN, 0, kk, ATOM) / 16;
      const int keep = kk > 0 || !fresh;
#pragma unroll
      for (int m = 0; m < WM / 64; m++) {
         const gt_u64 da = dA + GT_WGMMA_KOFF(BM, m * 64, kk, ATOM) / 16;
#if AREG3
         /* as below, A's hi and lo from registers, B's lo LO_B bytes after its tile */
         float *x = CROSS ? cross[m] : acc[m];
         if (ORDER)
            WGMMA_RS(BN)(acc[m], ahi[kk][m], db, keep);
         WGMMA_RS(BN)(x, alo[kk][m], db, CROSS || !ORDER ? keep : 1);
         WGMMA_RS(BN)(x, ahi[kk][m], db + LO_B / 16, 1);
         if (!ORDER)
            WGMMA_RS(BN)(acc[m], ahi[kk][m], db, CROSS ? keep : 1);
         (void)da;
#elif SPLIT3
         /* lo*hi and hi*lo, small, before hi*hi (ORDER=0) or after it (ORDER=1) */
         float *x = CROSS ? cross[m] : acc[m];
         if (ORDER)
            WGMMA(BN)(acc[m], da, db, keep);
         WGMMA(BN)(x, da + STAGE / 16, db, CROSS || !ORDER ? keep : 1);
         WGMMA(BN)(x, da, db + STAGE / 16, 1);
         if (!ORDER)
            WGMMA(BN)(acc[m], da, db, CROSS ? keep : 1);
#else
         WGMMA(BN)(acc[m], da, db, keep);
#endif
      }
   }
}

/* C = alpha acc + beta C from the wgmma accumulator layout: thread t of the warpgroup
 * holds rows 16 (t/32) + (t%32)/4 (+8) and column pairs 8j + 2 (t%4). */
__device__ inline void storeC(float (*acc)[BN / 2], int tid, int row0, int col0, int N, float alpha, float beta,
                              float *C) {
   const int r = row0 + 16 * (tid / 32) + (tid % 32) / 4, c = col0 + 2 * (tid % 4);
#if C16
   /* two groups of 8 columns at a time: neighbouring lanes swap a pair, 16-byte stores */
#pragma unroll
   for (int m = 0; m < WM / 64; m++)
#pragma unroll
      for (int j = 0; j < BN / 8; j += 2)
#pragma unroll
         for (int h = 0; h < 2; h++) {
            int at;
            float4 v = gt_wgmma_pairs4(make_float2(acc[m][4 * j + 2 * h], acc[m][4 * j + 2 * h + 1]),
                                       make_float2(acc[m][4 * j + 4 + 2 * h], acc[m][4 * j + 5 + 2 * h]), tid, &at);
            float4 *p = (float4 *)&C[(size_t)(r + m * 64 + 8 * h) * N + col0 + 8 * j + at];
            v = v * alpha;
            if (beta != 0.0f)
               v = v + *p * beta;
            *p = v;
         }
   (void)c;
#else
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
#endif
}

__kernel __launch_bounds__(THREADS, BLOCKS) CLUSTER_DIMS void gemm(const int M, const int N, const int K, const real alpha,
                                                 const __global in_t *A, const __global in_t *B, const real beta,
                                                 __global real *C, GT_TENSOR_MAP tmA, GT_TENSOR_MAP tmB) {
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
   const int tiles = K / BK;
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
            loadTiles(ring + s * STAGE_ALL, &tmA, &tmB, t, row0, col0, rank, &full[s]);
         }
#if SPLIT3
      else if (tid >= 32)
         for (int t = 0; t < tiles; t++) {
            const int s = t % STAGES;
            gt_mbar_wait(&full[s], (t / STAGES) & 1);
            if (AREG3) /* B only: the consumers split A in their registers */
               splitTiles(ring + s * STAGE_ALL + TILE_A, TILE_B, LO_B, tid - 32, 96);
            else
               splitTiles(ring + s * STAGE_ALL, STAGE, STAGE, tid - 32, 96);
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
#if CROSS
      float cross[WM / 64][BN / 2];
#else
      float(*cross)[BN / 2] = acc;
#endif
#if PROMO
      float sum[WM / 64][BN / 2]; /* the promoted FP32 sums */
#else
      float(*sum)[BN / 2] = acc;
#endif
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int i = 0; i < BN / 2; i++)
            acc[m][i] = cross[m][i] = sum[m][i] = 0.0f;
      int fresh = 0, held = 0; /* held: tile t-1's slot is not yet given back */
      /* One tile: its products issued, the tile before waited for, slots given back, the
       * sums promoted. AREG: A's fragments are split into (ahi, alo) here, and the tile's
       * wgmma waited for before the next split overwrites them; with AHEAD they come split,
       * and once the tile before is done the next tile's go into (nhi, nlo), the registers
       * that tile used, while this tile's wgmma runs (a wgmma in flight still reads its own). */
      auto tileStep = [&](int t, uint(*ahi)[WM / 64][4], uint(*alo)[WM / 64][4], uint(*nhi)[WM / 64][4],
                          uint(*nlo)[WM / 64][4]) {
         const int s = t % STAGES;
         const int promote = PROMO && ((t + 1) % (PROMO > 0 ? PROMO : 1) == 0 || t + 1 == tiles);
         if (!AHEAD3) /* AHEAD waited before splitting A */
            gt_mbar_wait(SPLIT3 ? &ready[s] : &full[s], (t / STAGES) & 1);
#if AREG3 && !AHEAD
         splitA(ring + s * STAGE_ALL, r0, ahi, alo);
#endif
         FENCE_ACC();
         gt_wgmma_fence();
         mmaStage(acc, cross, dA0 + (gt_u64)(s * (STAGE_ALL / 16)), dB0 + (gt_u64)(s * (STAGE_ALL / 16)), fresh, ahi,
                  alo);
         gt_wgmma_commit();
         /* The sums are read only on the path that waited for all of them: were the read
          * after a join of both paths, ptxas would serialise every wgmma (C7514). */
         const int drain = promote || (AREG3 && !AHEAD);
         if (drain) {
            gt_wgmma_wait(0); /* tiles t-1 and t are done */
            FENCE_ACC();
            if (tid % 32 == 0) {
               if (held)
                  releaseSlot(&empty[gt_ring_prev(s, STAGES)]);
               releaseSlot(&empty[s]);
            }
#if PROMO
            if (promote)
#pragma unroll
               for (int m = 0; m < WM / 64; m++)
#pragma unroll
                  for (int i = 0; i < BN / 2; i++)
                     sum[m][i] += CROSS ? acc[m][i] + cross[m][i] : acc[m][i];
#endif
         } else {
            gt_wgmma_wait(1); /* tile t-1's products are done: give its slot back */
            FENCE_ACC();
            if (tid % 32 == 0 && held)
               releaseSlot(&empty[gt_ring_prev(s, STAGES)]);
         }
         held = !drain;
         fresh = promote;
#if AHEAD3
         if (t + 1 < tiles) {
            const int n = (t + 1) % STAGES;
            gt_mbar_wait(&ready[n], ((t + 1) / STAGES) & 1);
            splitA(ring + n * STAGE_ALL, r0, nhi, nlo);
         }
#else
         (void)nhi;
         (void)nlo;
#endif
      };
#if AHEAD3
      uint eh[KSTEPS][WM / 64][4], el[KSTEPS][WM / 64][4], oh[KSTEPS][WM / 64][4], ol[KSTEPS][WM / 64][4];
      gt_mbar_wait(&ready[0], 0);
      splitA(ring, r0, eh, el);
      for (int t = 0; t < tiles; t += 2) { /* the sets take turns: even tiles eh/el, odd oh/ol */
         tileStep(t, eh, el, oh, ol);
         if (t + 1 < tiles)
            tileStep(t + 1, oh, ol, eh, el);
      }
#elif AREG3
      uint ah[KSTEPS][WM / 64][4], al[KSTEPS][WM / 64][4];
      for (int t = 0; t < tiles; t++)
         tileStep(t, ah, al, ah, al);
#else
      for (int t = 0; t < tiles; t++)
         tileStep(t, 0, 0, 0, 0);
#endif
      gt_wgmma_wait(0);
      FENCE_ACC();
#if CROSS && !PROMO
#pragma unroll
      for (int m = 0; m < WM / 64; m++)
#pragma unroll
         for (int i = 0; i < BN / 2; i++)
            acc[m][i] += cross[m][i];
#endif
      storeC(sum, ctid % 128, row0 + r0, col0, N, alpha, beta, C);
   }
#if CLUSTER > 1
   gt_cluster_sync(); /* the other block may still arrive on this one's barriers */
#endif
}
