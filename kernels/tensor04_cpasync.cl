/*@gemmtop
name:     tensor04_cpasync
title:    Tensor cores 4: a cp.async pipeline of STAGES tiles in flight
ladder:   tensor
step:     4
tensor:   yes
precisions: tf32 half bfloat16
about:    Builds on tensor 3. The tiles now travel from global to local memory by
about:    cp.async: 16 bytes per lane, without passing through registers, and without
about:    waiting. The work-group keeps STAGES tiles in local memory: while the warps
about:    multiply tile t, the copies of tiles t+1 .. t+STAGES-1 are on their way. Each
about:    tile's copies form one commit group; cp.async.wait_group(STAGES-2) waits only
about:    for the oldest, then one barrier makes it visible to every warp and frees the
about:    buffer read in the previous step for the next copy. Two stages is classic double
about:    buffering; three or four hide the latency of global memory behind more MMAs
about:    at the price of local memory (STAGES x the tile bytes: the occupancy falls).
about:    Fragments come by ldmatrix from the padded (SWZ=0) or swizzled (SWZ=1) tiles.
param:    BM = 128 in 32, 64, 128, 256 ; rows of C per work-group
param:    BN = 128 in 32, 64, 128, 256 ; columns of C per work-group
param:    BK = 16 in 16, 32, 64 ; depth (elements of k) of one tile step
param:    WM = 64 in 32, 64 ; rows of C per warp
param:    WN = 32 in 16, 32, 64 ; columns of C per warp
param:    STAGES = 3 in 2, 3, 4 ; tiles in flight in local memory
param:    SWZ = 1 in 0, 1 ; 0: padded rows, 1: XOR-swizzled 16-byte chunks
require:  BM % WM == 0 && BN % WN == 0 ; the block must split into warp tiles
require:  (BM / WM) * (BN / WN) <= 16 ; at most 16 warps per work-group
require:  (WM / 16) * (WN / 8) <= 32 ; at most 32 MMA tiles (128 accumulators) per lane, or registers spill
require:  (BM * BK * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into 16-byte copies, the same number per work-item
require:  (BK * BN * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into 16-byte copies, the same number per work-item
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   (N / BN) * ((BM / WM) * (BN / WN) * 32), M / BM
local:    (BM / WM) * (BN / WN) * 32, 1
reuse:    A=BN B=BM
local_reuse: A=WN B=WM
localmem: STAGES * (BM * (BK * IN_SIZE + 16 * (1 - SWZ)) + BK * (BN * IN_SIZE + (IN_SIZE == 4 ? 32 : 16) * (1 - SWZ)))
sites:    0=A cp.async, 1=B cp.async, 2=A ldmatrix, 3=B fragment load
*/
#define MI (WM / 16)
#define NJ (WN / 8)
#define WARPS_N (BN / WN)
#define NT ((BM / WM) * (BN / WN) * 32)
#define BKW (BK / GT_EPW)
#define BNW (BN / GT_EPW)
#define LA (BM * BKW / 4 / NT)
#define LB (BK * BNW / 4 / NT)

#if SWZ
#define PADA 0
#define PADB 0
#define AS_W(r, w) (GT_SWIZZLE((r), (w) / 4, BKW / 4) * 4 + (w) % 4)
#if GT_EPW == 1
#define BS_W(k, w) (((((w) / 4) ^ ((2 * (k)) % 8))) * 4 + (w) % 4)
#else
#define BS_W(k, w) (GT_SWIZZLE((k), (w) / 4, BNW / 4) * 4 + (w) % 4)
#endif
#else
#define PADA 4
#define PADB (GT_EPW == 1 ? 8 : 4)
#define AS_W(r, w) (w)
#define BS_W(k, w) (w)
#endif

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C GT_TRACE_PARAM) {
   GT_TENSOR_SCRATCH(NT / 32);
   __local uint As[STAGES][BM][BKW + PADA] __attribute__((aligned(16)));
   __local uint Bs[STAGES][BK][BNW + PADB] __attribute__((aligned(16)));
   const int tid = (int)gt_flat_lid(), warp = tid / 32, lane = tid % 32;
   const int g = lane / 4, t = lane % 4;
   const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
   const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
   const int KW = K / GT_EPW, NW = N / GT_EPW; /* words per row of A, of B */
   const __global uint *Aw = (const __global uint *)A + (size_t)row0 * KW;
   const __global uint *Bw = (const __global uint *)B + col0 / GT_EPW;
   const int tiles = K / BK;

   /* Tile kt into stage s: each work-item copies LA + LB chunks of 16 bytes. */
#define COPY_TILE(s, kt)                                                                           \
   do {                                                                                            \
      for (int l = 0; l < LA; l++) {                                                               \
         const int v = tid + l * NT, r = v / (BKW / 4), c = v % (BKW / 4);                         \
         GT_CP_ASYNC16_A(0, &As[s][r][AS_W(r, c * 4)], Aw + (size_t)r * KW + (kt) * BKW + c * 4); \
      }                                                                                            \
      for (int l = 0; l < LB; l++) {                                                               \
         const int v = tid + l * NT, r = v / (BNW / 4), c = v % (BNW / 4);                         \
         GT_CP_ASYNC16_B(1, &Bs[s][r][BS_W(r, c * 4)], Bw + (size_t)((kt) * BK + r) * NW + c * 4); \
      }                                                                                            \
   } while (0)

   float acc[MI][NJ][4];
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++)
            acc[i][j][e] = 0.0f;

   /* The first STAGES-1 tiles in flight, one commit group each (empty past the end, so
    * that the count of groups stays the same). */
   for (int s = 0; s < STAGES - 1; s++) {
      if (s < tiles)
         COPY_TILE(s, s);
      GT_CP_ASYNC_COMMIT();
   }

   for (int kt = 0; kt < tiles; kt++) {
      const int cur = kt % STAGES;
      GT_CP_ASYNC_WAIT(STAGES - 2); /* tile kt has arrived (for this work-item's copies) */
      barrier(CLK_LOCAL_MEM_FENCE); /* ... for everyone's; and stage (kt-1) % STAGES is free */
      if (kt + STAGES - 1 < tiles)
         COPY_TILE((kt + STAGES - 1) % STAGES, kt + STAGES - 1);
      GT_CP_ASYNC_COMMIT();

      GT_TUNROLL
      for (int ks = 0; ks < BKW; ks += 8) {
         uint a[MI][4], b[NJ][2];
         GT_TUNROLL
         for (int i = 0; i < MI; i++) {
            const int r = wm0 + i * 16 + lane % 16, w = ks + 4 * (lane / 16);
            GT_LDMATRIX_X4(2, a[i], &As[cur][r][AS_W(r, w)]);
            GT_TUNROLL
            for (int q = 0; q < 4; q++)
               a[i][q] = GT_FRAG_WORD(a[i][q]);
         }
#if GT_EPW == 1
         GT_TUNROLL
         for (int j = 0; j < NJ; j++)
            GT_TUNROLL
            for (int q = 0; q < 2; q++) {
               const int k = ks + t + 4 * q, n = wn0 + j * 8 + g;
               b[j][q] = GT_FRAG_WORD(LDS_LOAD(3, &Bs[cur][k][BS_W(k, n)]));
            }
#else
         GT_TUNROLL
         for (int j = 0; j < NJ; j += 2) {
            const int k = ks * 2 + lane % 16, w = (wn0 + j * 8 + 8 * (lane / 16)) / 2;
            uint r4[4];
            GT_LDMATRIX_X4_TRANS(3, r4, &Bs[cur][k][BS_W(k, w)]);
            b[j][0] = r4[0];
            b[j][1] = r4[1];
            b[j + 1][0] = r4[2];
            b[j + 1][1] = r4[3];
         }
#endif
         GT_TUNROLL
         for (int i = 0; i < MI; i++)
            GT_TUNROLL
            for (int j = 0; j < NJ; j++)
               GT_MMA(acc[i][j], a[i], b[j]);
      }
   }
   GT_CP_ASYNC_WAIT(0);

   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++) {
            const size_t idx =
                (size_t)(row0 + wm0 + i * 16 + g + 8 * (e / 2)) * N + col0 + wn0 + j * 8 + 2 * t + e % 2;
            GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[i][j][e] : alpha * acc[i][j][e] + beta * C[idx]);
         }
}
