/*@gemmtop
name:     test_tensor_kstep
title:    Deliberately wrong (for the tests): the pipeline drops its last tile of k
ladder:   test
step:     12
hidden:   yes
tensor:   yes
precisions: tf32 half bfloat16
about:    tensor04_cpasync with its main loop one tile short (kt < tiles - 1): the copies
about:    of the last tile are issued and waited for, but no MMA uses them. The products
about:    of the last BK values of k are missing; verification must catch it.
param:    BM = 32 in 32, 64 ; rows of C per work-group
param:    BN = 32 in 32, 64 ; columns of C per work-group
param:    BK = 16 in 16, 32 ; depth of one tile step
param:    WM = 32 in 16, 32 ; rows of C per warp
param:    WN = 32 in 16, 32 ; columns of C per warp
param:    STAGES = 2 in 2, 3 ; tiles in flight
param:    SWZ = 1 in 0, 1 ; 0: padded rows, 1: XOR swizzle
require:  (BM * BK * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the A tile must split into 16-byte copies
require:  (BK * BN * IN_SIZE / 16) % ((BM / WM) * (BN / WN) * 32) == 0 ; the B tile must split into 16-byte copies
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   (N / BN) * ((BM / WM) * (BN / WN) * 32), M / BM
local:    (BM / WM) * (BN / WN) * 32, 1
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

   for (int kt = 0; kt < tiles - 1; kt++) { /* the bug: the last tile is never multiplied */
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
