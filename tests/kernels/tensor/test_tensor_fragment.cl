/*@gemmtop
name:     test_tensor_fragment
title:    Deliberately wrong (for the tests): an A fragment register from the wrong place
ladder:   test
step:     11
hidden:   yes
tensor:   yes
precisions: tf32 half bfloat16
about:    tensor01_global with the fragment layout misread: register 1 of A (row g+8,
about:    word t) is taken from row g, word t+4, i.e. registers 1 and 2 swapped. Every
about:    product uses a wrong element of A; verification must catch it.
param:    WM = 16 in 16, 32 ; rows of C per warp
param:    WN = 8 in 8, 16 ; columns of C per warp
param:    WARPS_M = 1 in 1, 2 ; warps along M
param:    WARPS_N = 1 in 1, 2 ; warps along N
operands: A=N B=N
pad:      M=WARPS_M*WM N=WARPS_N*WN K=16
global:   (N / (WARPS_N * WN)) * (WARPS_M * WARPS_N * 32), M / (WARPS_M * WM)
local:    WARPS_M * WARPS_N * 32, 1
*/
#define MI (WM / 16)                 /* MMA tiles along M per warp */
#define NJ (WN / 8)                  /* MMA tiles along N per warp */
#define NT (WARPS_M * WARPS_N * 32)  /* work-items per group */

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C GT_TRACE_PARAM) {
   GT_TENSOR_SCRATCH(WARPS_M * WARPS_N);
   const int warp = (int)GT_WARP(), lane = (int)GT_LANE();
   const int g = lane / 4, t = lane % 4; /* groupID, threadID_in_group */
   const int row0 = get_group_id(1) * (WARPS_M * WM) + (warp / WARPS_N) * WM;
   const int col0 = get_group_id(0) * (WARPS_N * WN) + (warp % WARPS_N) * WN;
   const int KW = K / GT_EPW; /* 32-bit words per row of A */
   const __global uint *Aw = (const __global uint *)A;

   float acc[MI][NJ][4];
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++)
            acc[i][j][e] = 0.0f;

   for (int kw = 0; kw < KW; kw += 8) { /* one MMA depth: 8 words of k */
      uint a[MI][4], b[NJ][2];
      GT_TUNROLL
      for (int i = 0; i < MI; i++)
         GT_TUNROLL
         for (int r = 0; r < 4; r++)
            {
               const int rr = r == 1 ? 2 : r == 2 ? 1 : r; /* the bug: registers 1 and 2 swapped */
               a[i][r] = GT_FRAG_WORD(GT_LOAD_AW(Aw[(size_t)(row0 + i * 16 + g + 8 * (rr % 2)) * KW + kw + t + 4 * (rr / 2)]));
            }
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int r = 0; r < 2; r++) {
            /* word t + 4r of k in column g: TF32 one element, 16-bit types a pair along k */
            const int k = (kw + t + 4 * r) * GT_EPW, n = col0 + j * 8 + g;
#if GT_EPW == 1
            b[j][r] = GT_FRAG_WORD(GT_LOAD_BW(GT_IN_BITS(B[(size_t)k * N + n])));
#else
            b[j][r] = GT_LOAD_BW(GT_PACK16(GT_IN_BITS(B[(size_t)k * N + n]), GT_IN_BITS(B[(size_t)(k + 1) * N + n])));
#endif
         }
      GT_TUNROLL
      for (int i = 0; i < MI; i++)
         GT_TUNROLL
         for (int j = 0; j < NJ; j++)
            GT_MMA(acc[i][j], a[i], b[j]);
   }

   /* C: accumulator e of tile (i, j) is row g + 8(e/2), column 2t + e%2. */
   GT_TUNROLL
   for (int i = 0; i < MI; i++)
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++) {
            const size_t idx = (size_t)(row0 + i * 16 + g + 8 * (e / 2)) * N + col0 + j * 8 + 2 * t + e % 2;
            GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[i][j][e] : alpha * acc[i][j][e] + beta * C[idx]);
         }
}
