/*@gemmtop
name:     tensor01_global
title:    Tensor cores 1: warp MMA with fragments loaded straight from global memory
ladder:   tensor
step:     1
tensor:   yes
precisions: tf32 half bfloat16
about:    A tensor core multiplies small matrices for a whole warp at once: one mma.sync
about:    m16n8k8 (TF32) or m16n8k16 (half, bfloat16) takes a 16 x k tile of A and a k x 8
about:    tile of B spread over the 32 lanes' registers ("fragments", in the layout the PTX
about:    ISA fixes: lane l holds rows l/4 and l/4+8, words l%4 and l%4+4 of A) and adds
about:    their product to a 16 x 8 tile of C held the same way, in FP32. Here each warp
about:    owns a WM x WN piece of C, (WM/16) x (WN/8) MMAs per step of k, and every lane
about:    reads its fragment registers straight from global memory: no local memory, no
about:    reuse between warps. TF32 inputs are rounded to nearest (cvt.rna.tf32.f32) as
about:    they are loaded. It verifies, and shows how far loads alone are from feeding the
about:    tensor cores: each fragment word is read by one lane, in 4-byte pieces spread
about:    over 8 rows. Off NVIDIA the MMA is emulated (labelled so): same layouts, slow.
param:    WM = 32 in 16, 32, 64 ; rows of C per warp
param:    WN = 32 in 8, 16, 32, 64 ; columns of C per warp
param:    WARPS_M = 2 in 1, 2, 4 ; warps along M in a work-group
param:    WARPS_N = 2 in 1, 2, 4 ; warps along N in a work-group
require:  (WM / 16) * (WN / 8) <= 32 ; at most 32 MMA tiles (128 accumulators) per lane, or registers spill
operands: A=N B=N
pad:      M=WARPS_M*WM N=WARPS_N*WN K=16
global:   (N / (WARPS_N * WN)) * (WARPS_M * WARPS_N * 32), M / (WARPS_M * WM)
local:    WARPS_M * WARPS_N * 32, 1
reuse:    A=WN B=WM
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
            a[i][r] = GT_FRAG_WORD(GT_LOAD_AW(GT_GTRACE(0u, Aw[(size_t)(row0 + i * 16 + g + 8 * (r % 2)) * KW + kw + t + 4 * (r / 2)])));
      GT_TUNROLL
      for (int j = 0; j < NJ; j++)
         GT_TUNROLL
         for (int r = 0; r < 2; r++) {
            /* word t + 4r of k in column g: TF32 one element, 16-bit types a pair along k */
            const int k = (kw + t + 4 * r) * GT_EPW, n = col0 + j * 8 + g;
#if GT_EPW == 1
            b[j][r] = GT_FRAG_WORD(GT_LOAD_BW(GT_IN_BITS(GT_GTRACE(1u, B[(size_t)k * N + n]))));
#else
            b[j][r] = GT_LOAD_BW(GT_PACK16(GT_IN_BITS(GT_GTRACE(1u, B[(size_t)k * N + n])),
                                           GT_IN_BITS(GT_GTRACE(1u, B[(size_t)(k + 1) * N + n]))));
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
