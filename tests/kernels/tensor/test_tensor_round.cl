/*@gemmtop
name:     test_tensor_round
title:    Deliberately wrong (for the tests): TF32 inputs cut at the bfloat16 bit
ladder:   test
step:     13
hidden:   yes
tensor:   yes
precisions: tf32
about:    tensor01_global with the TF32 conversion done wrong: each FP32 input is cut to
about:    7 fraction bits (the bfloat16 conversion's mask, truncating) instead of rounded
about:    to TF32's 10 with cvt.rna. Each product then loses up to 2^-6 of itself, always
about:    toward zero: on positive inputs C comes out about 2^-7 too small, far outside
about:    the TF32 tolerance, which verification must catch. (Truncating at TF32's own bit
about:    is what the tensor core does to an unrounded input, and lies within it.)
param:    WM = 16 in 16, 32 ; rows of C per warp
param:    WN = 8 in 8, 16 ; columns of C per warp
param:    WARPS_M = 1 in 1, 2 ; warps along M
param:    WARPS_N = 1 in 1, 2 ; warps along N
operands: A=N B=N
pad:      M=WARPS_M*WM N=WARPS_N*WN K=16
global:   (N / (WARPS_N * WN)) * (WARPS_M * WARPS_N * 32), M / (WARPS_M * WM)
local:    WARPS_M * WARPS_N * 32, 1
*/
/* the bug: a mask where cvt.rna.tf32.f32 belongs */
#undef GT_FRAG_WORD
#define GT_FRAG_WORD(w) ((uint)(w) & 0xffff0000u)
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
            a[i][r] = GT_FRAG_WORD(GT_LOAD_AW(Aw[(size_t)(row0 + i * 16 + g + 8 * (r % 2)) * KW + kw + t + 4 * (r / 2)]));
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
