/*@gemmtop
name:     fast04_streamk
title:    Stream-K: a persistent grid that shares out the work, not the tiles
ladder:   fast
step:     4
tune:     yes
about:    Step 3 cuts every block's K loop into the same number of pieces, whatever the shape.
about:    Stream-K (Osama et al., 2023) starts instead a persistent grid, UNITS work-groups per
about:    multiprocessor (CUS of them), and gives each an equal share of all the work: the
about:    blocks' K steps laid end to end, tile after tile. A work-group walks its share; a
about:    tile it covers whole it finishes itself, with alpha and beta. Where a share begins or
about:    ends inside a tile, it writes that piece's partial sums to its own two workspace
about:    slots, and a fix-up launch adds each split tile's pieces in the order of the
about:    work-groups that made them (the same bits every run) and finishes it. Every
about:    multiprocessor gets the same amount of work to within one K step, for any M, N and
about:    K: no tail, no idle units. STREAMK=0 is the persistent kernel alone: the work-groups
about:    take whole tiles in turn (tile g, g + G, ...), which removes the launch of many
about:    small groups but keeps the last wave's tail. GROUP numbers the tiles in bands of
about:    GROUP tile rows, column by column, as fast 2 orders its blocks: the tiles that run
about:    at the same time then share rows of A and columns of B in the L2 cache.
param:    BM = 128 in 64, 128, 256 ; rows of C per tile
param:    BN = 128 in 64, 128, 256 ; columns of C per tile
param:    BK = 8 in 8, 16, 32 ; depth of one step along K
param:    WM = 64 in 16, 32, 64, 128 ; rows of the warp tile
param:    WN = 32 in 16, 32, 64, 128 ; columns of the warp tile
param:    LX = 4 in 2, 4, 8, 16 ; lanes of a warp along N (32/LX along M)
param:    AMAP = 1 in 0, 1 ; A loads: 0 lanes along K, 1 lanes along M (conflict-free store)
param:    PADA = 0 in 0, 4 ; padding of each row of the transposed A tile
param:    UNITS = 1 in 1, 2, 3, 4 ; persistent work-groups per compute unit
param:    STREAMK = 1 in 0, 1 ; 1: equal shares of the K steps (stream-K); 0: whole tiles in turn
param:    GROUP = 1 in 1, 2, 4, 8, 16 ; tile rows per band of the tile order (1: row by row)
require:  BM % WM == 0 && BN % WN == 0 ; the block must split into warp tiles
require:  WM % (4 * (32 / LX)) == 0 && WN % (4 * LX) == 0 ; each lane's micro tile must be groups of 4 rows and 4 columns
require:  (WM / (32 / LX)) * (WN / LX) * REAL_SIZE <= 512 ; at most 512 bytes of accumulators per work-item (128 floats or 64 doubles), or registers spill
require:  (BM * BK) % (4 * (BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into real4 loads, the same number per work-item
require:  (BN * BK) % (4 * (BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into real4 loads, the same number per work-item
require:  M * K <= 2147483648 && K * N <= 2147483648 ; this kernel's A and B offsets are 32-bit int, so neither may have more than 2^31 elements (general_any indexes with size_t)
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   CUS * UNITS * ((BM / WM) * (BN / WN) * 32)
local:    (BM / WM) * (BN / WN) * 32
work:     STREAMK ? (M / BM) * (N / BN) * (K / BK) : (M / BM) * (N / BN)
workspace: STREAMK ? CUS * UNITS * 2 * BM * BN * REAL_SIZE : 0
fixup:    gemm_fixup
fixup_global: STREAMK ? N / 4 : 0, M
fixup_local: 16, 4
reuse:    A=BN B=BM
local_reuse: A=WN/LX B=WM/(32/LX)
localmem: 2 * BK * (BM + PADA + BN) * REAL_SIZE
sites:    0=A store (transposed), 1=B store, 2=A load, 3=B load
*/
#define LY (32 / LX)                /* lanes of a warp along M */
#define RM (WM / LY / 4)            /* groups of 4 rows per work-item */
#define RN (WN / LX / 4)            /* groups of 4 columns per work-item */
#define WARPS_N (BN / WN)
#define NT ((BM / WM) * (BN / WN) * 32)
#define LA (BM * BK / 4 / NT)       /* real4 loads of A per work-item and step */
#define LB (BK * BN / 4 / NT)       /* real4 loads of B per work-item and step */
#define AS (BM + PADA)              /* row length of the transposed A tile */

#if AMAP == 0
#define A_ROW(v) ((v) / (BK / 4))
#define A_COL(v) ((v) % (BK / 4))
#else
#define A_ROW(v) ((v) % BM)
#define A_COL(v) ((v) / BM)
#endif

#define TILES_N (N / BN)

/* Tile `tile` of the order: bands of GROUP tile rows, walked column by column. */
GT_FN void tileAt(long tile, int M, int N, int *tm, int *tn) {
#if GROUP > 1
   const int tilesM = M / BM, band = (int)(tile / ((long)GROUP * TILES_N)), first = band * GROUP;
   const int rows = tilesM - first < GROUP ? tilesM - first : GROUP;
   const int inBand = (int)(tile % ((long)GROUP * TILES_N));
   *tm = first + inBand % rows;
   *tn = inBand / rows;
#else
   *tm = (int)(tile / TILES_N);
   *tn = (int)(tile % TILES_N);
#endif
}

/* The inverse: the place in the order of the tile at tile row tm, column tn. */
GT_FN long tileIndex(int tm, int tn, int M, int N) {
#if GROUP > 1
   const int tilesM = M / BM, first = tm / GROUP * GROUP;
   const int rows = tilesM - first < GROUP ? tilesM - first : GROUP;
   return (long)first * TILES_N + (long)tn * rows + (tm - first);
#else
   return (long)tm * TILES_N + tn;
#endif
}

/* Work-group g's share of the `total` K steps of all tiles: [first(g), first(g + 1)). */
GT_FN long shareStart(long g, long total, long units) { return g * total / units; }

/* The work-group whose share holds K step `it`: the last g with shareStart(g) <= it. */
GT_FN long shareOwner(long it, long total, long units) { return ((it + 1) * units + total - 1) / total - 1; }

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C, __global real* W GT_TRACE_PARAM) {
   /* 16-byte aligned, or NVIDIA's OpenCL compiler splits each real4 load into four. */
   __local real As[2][BK][AS] __attribute__((aligned(16)));
   __local real Bs[2][BK][BN] __attribute__((aligned(16)));
   const int tid = get_local_id(0);
   const int warp = tid / 32, lane = tid % 32;
   const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
   const int ly = lane / LX, lx = lane % LX;
   const __global real4 *A4 = (const __global real4 *)A;
   const __global real4 *B4 = (const __global real4 *)B;
   const long units = get_num_groups(0), g = get_group_id(0);
   const long steps = K / BK, tiles = (long)(M / BM) * TILES_N;
#if STREAMK
   const long total = tiles * steps, it0 = shareStart(g, total, units), it1 = shareStart(g + 1, total, units);
#else
   const long total = tiles * steps, it0 = 0, it1 = 0;
   (void)total;
#endif

   int offA[LA], offB[LB];
   real4 ra[LA], rb[LB];
   real acc[4 * RM][4 * RN];

   /* Global -> registers for step t. */
#define LOAD_GLOBAL(t)                                                                    \
   for (int l = 0; l < LA; l++)                                                           \
      ra[l] = GT_LOAD_AN(4, A4[offA[l] + (t) * (BK / 4)]);                                \
   for (int l = 0; l < LB; l++)                                                           \
      rb[l] = GT_LOAD_BN(4, B4[offB[l] + (t) * BK * (N / 4)]);
   /* Registers -> local buffer s: A transposed (As[k][m]), B as is. */
#define STORE_LOCAL(s)                                                                    \
   for (int l = 0; l < LA; l++) {                                                         \
      const int v = tid + l * NT, r = A_ROW(v), c = A_COL(v) * 4;                         \
      LDS_STORE(0, &As[s][c + 0][r], ra[l].x);                                            \
      LDS_STORE(0, &As[s][c + 1][r], ra[l].y);                                            \
      LDS_STORE(0, &As[s][c + 2][r], ra[l].z);                                            \
      LDS_STORE(0, &As[s][c + 3][r], ra[l].w);                                            \
   }                                                                                      \
   for (int l = 0; l < LB; l++) {                                                         \
      const int v = tid + l * NT, r = v / (BN / 4), c = (v % (BN / 4)) * 4;              \
      LDS_STORE(1, (LOCAL_PTR real4 *)&Bs[s][r][c], rb[l]);                               \
   }

   /* Segments: (tile, [kb, ke)) pieces of the share, or whole tiles g, g + units, ... */
#if STREAMK
   for (long it = it0; it < it1;) {
      const long tile = it / steps;
      const int kb = (int)(it % steps);
      const int ke = (int)(steps < kb + (it1 - it) ? steps : kb + (it1 - it));
#else
   for (long tile = g; tile < tiles; tile += units) {
      const long it = tile * steps;
      const int kb = 0, ke = (int)steps;
#endif
      int tm, tn;
      tileAt(tile, M, N, &tm, &tn);
      const int row0 = tm * BM, col0 = tn * BN;
      for (int l = 0; l < LA; l++) {
         const int v = tid + l * NT;
         offA[l] = ((row0 + A_ROW(v)) * K) / 4 + A_COL(v);
      }
      for (int l = 0; l < LB; l++) {
         const int v = tid + l * NT;
         offB[l] = (v / (BN / 4)) * (N / 4) + col0 / 4 + v % (BN / 4);
      }
      for (int i = 0; i < 4 * RM; i++)
         for (int j = 0; j < 4 * RN; j++)
            acc[i][j] = REAL_ZERO;

      LOAD_GLOBAL(kb);
      STORE_LOCAL(0);
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int t = kb; t < ke; t++) {
         const int cur = (t - kb) & 1;
         if (t + 1 < ke) {
            LOAD_GLOBAL(t + 1);
         }
#pragma unroll
         for (int k = 0; k < BK; k++) {
            real4 a[RM], b[RN];
            for (int i = 0; i < RM; i++)
               a[i] = LDS_LOAD(2, (LOCAL_PTR real4 *)&As[cur][k][wm0 + ly * 4 + i * (4 * LY)]);
            for (int j = 0; j < RN; j++)
               b[j] = LDS_LOAD(3, (LOCAL_PTR real4 *)&Bs[cur][k][wn0 + lx * 4 + j * (4 * LX)]);
            for (int i = 0; i < RM; i++)
               for (int j = 0; j < RN; j++) {
                  const real ai[4] = {a[i].x, a[i].y, a[i].z, a[i].w};
                  const real bj[4] = {b[j].x, b[j].y, b[j].z, b[j].w};
                  for (int ii = 0; ii < 4; ii++)
                     for (int jj = 0; jj < 4; jj++)
                        GT_MAD(acc[i * 4 + ii][j * 4 + jj], ai[ii], bj[jj]);
               }
         }
         if (t + 1 < ke) {
            STORE_LOCAL(cur ^ 1);
         }
         barrier(CLK_LOCAL_MEM_FENCE);
      }

      /* A whole tile is finished here; a piece goes to slot 0 (the share's first segment)
       * or 1 (its last) of this work-group's workspace, for the fix-up. */
      const bool whole = kb == 0 && ke == steps;
      const size_t slot = ((size_t)g * 2 + (it == it0 ? 0 : 1)) * (BM * BN);
      for (int i = 0; i < RM; i++)
         for (int ii = 0; ii < 4; ii++) {
            const int r = wm0 + ly * 4 + i * (4 * LY) + ii;
            for (int j = 0; j < RN; j++) {
               const int c = wn0 + lx * 4 + j * (4 * LX);
               real4 v = MAKE_REAL4(acc[i * 4 + ii][j * 4 + 0], acc[i * 4 + ii][j * 4 + 1],
                                    acc[i * 4 + ii][j * 4 + 2], acc[i * 4 + ii][j * 4 + 3]);
               if (whole) {
                  __global real4 *c4 = (__global real4 *)&C[(size_t)(row0 + r) * N + col0 + c];
                  v = v * alpha;
                  if (beta != REAL_ZERO)
                     v = v + *c4 * beta;
                  GT_STORE_CN(4, *c4, v);
               } else {
                  GT_STORE_CN(4, ((__global real4 *)W)[(slot + (size_t)r * BN + c) / 4], v);
               }
            }
         }
#if STREAMK
      it += ke - kb;
#endif
   }
}

/* The tiles that two or more work-groups shared: the pieces added in the order of the
 * work-groups that made them, then alpha and beta. A tile one work-group finished is left
 * alone. Four columns a work-item; launched only with STREAMK=1. */
__kernel void gemm_fixup(const int M, const int N, const int K, const real alpha, const __global real* A,
                         const __global real* B, const real beta, __global real* C, __global real* W) {
   const int col = get_global_id(0) * 4, row = get_global_id(1);
   const long units = CUS * UNITS, steps = K / BK, tiles = (long)(M / BM) * TILES_N, total = tiles * steps;
   const long tile = tileIndex(row / BM, col / BN, M, N);
   const long first = shareOwner(tile * steps, total, units), last = shareOwner(tile * steps + steps - 1, total, units);
   if (first == last)
      return;
   const __global real4 *W4 = (const __global real4 *)W;
   const size_t inTile = (size_t)(row % BM) * BN + col % BN;
   real4 sum = MAKE_REAL4(REAL_ZERO, REAL_ZERO, REAL_ZERO, REAL_ZERO);
   for (long u = first; u <= last; u++) {
      /* with more work-groups than K steps some shares are empty: they wrote nothing */
      if (shareStart(u, total, units) == shareStart(u + 1, total, units))
         continue;
      /* the piece is u's first segment when u's share starts inside this tile */
      const long slot = u * 2 + (shareStart(u, total, units) >= tile * steps ? 0 : 1);
      sum = sum + W4[((size_t)slot * (BM * BN) + inTile) / 4];
   }
   __global real4 *c4 = (__global real4 *)&C[(size_t)row * N + col];
   real4 v = sum * alpha;
   if (beta != REAL_ZERO)
      v = v + *c4 * beta;
   GT_STORE_CN(4, *c4, v);
}
