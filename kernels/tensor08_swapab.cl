/*@gemmtop
name:     tensor08_swapab
title:    Tensor cores 8: swap-AB for a few tokens, the weight streamed once
ladder:   tensor
step:     8
tune:     yes
tensor:   yes
bound:    memory
precisions: tf32 half bfloat16
about:    For decode, where M is a few tokens: mma.sync is m16n8, so C = A B with M = 8
about:    would fill half of each 16-row product with padding, and the weight B, read once,
about:    is nearly all the traffic. This step computes C^T = B^T A^T: B, stored N x K as a
about:    model keeps its weight (layout NT), is the MMA's 16-row A operand, and 8 tokens of
about:    A are its n8. Both are K-major, as mma.sync's row.col wants them, so each lane
about:    loads its fragments straight from global memory, 16 bytes at a time: lane (g, t)
about:    takes words 4t to 4t+3 of a 16-word run of k of weight rows g and g + 8 and of
about:    token g, and the run's two MMAs take words 4t+2q and 4t+2q+1 as their t and t+4
about:    (the order of k inside a dot product is free while both operands agree:
about:    gt_sched_run_word). No local memory on the way in; KU runs of loads are in flight
about:    before their MMAs. WARPS warps share a block's K run, run by run, and add their
about:    sums in warp order through local memory; SPLIT blocks share the K steps with
about:    planes and an ordered fix-up, as step 6. The accumulators hold C^T: element (n,
about:    m) goes to C's row m. Off NVIDIA the MMA is emulated (labelled so): the same
about:    layouts, which is how CI checks the swap's index arithmetic at odd sizes.
param:    RF = 2 in 1, 2, 4 ; 16-row fragments of the weight per warp: 16 * RF columns of C per block
param:    TF = 2 in 1, 2, 4, 8 ; 8-token fragments: 8 * TF rows of C per block
param:    WARPS = 4 in 1, 2, 4, 8 ; warps that share a block's K run
param:    KU = 2 in 1, 2, 4 ; 16-word runs of k loaded before their MMAs (loads in flight)
param:    SPLIT = 4 in 1, 2, 3, 4, 6, 8, 12, 16, 24, 32 ; blocks that share the K steps of a tile (1: no workspace)
require:  RF * TF <= 16 ; at most 16 MMA tiles (64 accumulators) per lane
require:  WARPS * RF * TF <= 64 ; the warps' sums meet in at most 32 KiB of local memory
operands: A=N B=T
pad:      M=8*TF N=16*RF K=64/IN_SIZE
global:   N / (16 * RF) * (WARPS * 32), M / (8 * TF), SPLIT
local:    WARPS * 32, 1, 1
localmem: WARPS * RF * TF * 512
workspace: SPLIT > 1 ? SPLIT * M * N * REAL_SIZE : 0
fixup:    gemm_fixup
fixup_global: SPLIT > 1 ? ceil(N / 4, 16) : 0, M
fixup_local: 16, 4
reuse:    A=16*RF B=8*TF
sites:    0=sums store, 1=sums load
*/
#define NT (WARPS * 32)
#define BN (16 * RF) /* columns of C (rows of the weight) per block */
#define BT (8 * TF)  /* rows of C (tokens) per block */

/* The MMA's fragments for step q (0, 1) of a run from a lane's 16 loaded bytes
 * (gt_sched_run_word): words 4t + 2q and 4t + 2q + 1 are its words t and t + 4. */
#define WORD_OF(v, q, hi) ((q) == 0 ? ((hi) == 0 ? (v).x : (v).y) : ((hi) == 0 ? (v).z : (v).w))

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C, __global real *W GT_TRACE_PARAM) {
   GT_TENSOR_SCRATCH(WARPS);
   __local float sums[WARPS * BN * BT];
   const int tid = (int)gt_flat_lid(), warp = tid / 32, lane = tid % 32;
   const int g = lane / 4, t = lane % 4;
   const int n0 = get_group_id(0) * BN, m0 = get_group_id(1) * BT, z = get_group_id(2);
   /* K in runs of 16 words (64 bytes); block z takes runs [r0, r1), its warps run by run. */
   const int KW = K / GT_EPW, runs = KW / 16;
   const int r0 = (int)gt_sched_share_start(z, runs, SPLIT), r1 = (int)gt_sched_share_start(z + 1, runs, SPLIT);
   const __global uint4 *B4 = (const __global uint4 *)B, *A4 = (const __global uint4 *)A;
   const size_t rowW = (size_t)KW / 4; /* 16-byte pieces per row */

   float acc[RF][TF][4];
   GT_TUNROLL
   for (int f = 0; f < RF; f++)
      GT_TUNROLL
      for (int j = 0; j < TF; j++)
         GT_TUNROLL
         for (int e = 0; e < 4; e++)
            acc[f][j][e] = 0.0f;

   /* Every warp makes the same number of turns (the emulated MMA is called by the whole
    * work-group at once); a run past the block's end loads nothing and multiplies zeros. */
   const int turns = (r1 - r0 + WARPS * KU - 1) / (WARPS * KU);
   for (int turn = 0; turn < turns; turn++) {
      uint4 w[KU][RF][2], x[KU][TF];
      GT_TUNROLL
      for (int u = 0; u < KU; u++) {
         const int run = r0 + (turn * KU + u) * WARPS + warp;
         const bool live = run < r1;
         const size_t piece = (size_t)run * 4 + t;
         GT_TUNROLL
         for (int f = 0; f < RF; f++)
            GT_TUNROLL
            for (int h = 0; h < 2; h++)
               w[u][f][h] = live ? GT_LOAD_BW4(B4[(size_t)(n0 + 16 * f + g + 8 * h) * rowW + piece]) : GT_SPLAT_UINT4(0u);
         GT_TUNROLL
         for (int j = 0; j < TF; j++)
            x[u][j] = live ? GT_LOAD_AW4(A4[(size_t)(m0 + 8 * j + g) * rowW + piece]) : GT_SPLAT_UINT4(0u);
      }
      GT_TUNROLL
      for (int u = 0; u < KU; u++)
         GT_TUNROLL
         for (int q = 0; q < 2; q++)
            GT_TUNROLL
            for (int f = 0; f < RF; f++) {
               uint a[4];
               a[0] = GT_FRAG_WORD(WORD_OF(w[u][f][0], q, 0));
               a[1] = GT_FRAG_WORD(WORD_OF(w[u][f][1], q, 0));
               a[2] = GT_FRAG_WORD(WORD_OF(w[u][f][0], q, 1));
               a[3] = GT_FRAG_WORD(WORD_OF(w[u][f][1], q, 1));
               GT_TUNROLL
               for (int j = 0; j < TF; j++) {
                  uint b[2];
                  b[0] = GT_FRAG_WORD(WORD_OF(x[u][j], q, 0));
                  b[1] = GT_FRAG_WORD(WORD_OF(x[u][j], q, 1));
                  GT_MMA(acc[f][j], a, b);
               }
            }
   }

   /* The warps' sums meet in local memory as [warp][token][weight row]; then each element
    * of the block's C^T is added over the warps in warp order (the same bits every run),
    * consecutive work-items taking consecutive columns of C. */
   GT_TUNROLL
   for (int f = 0; f < RF; f++)
      GT_TUNROLL
      for (int j = 0; j < TF; j++)
         GT_TUNROLL
         for (int i = 0; i < 4; i++) {
            const int r = 16 * f + gt_sched_mma_row(lane, i), c = 8 * j + gt_sched_mma_col(lane, i);
            LDS_STORE(0, &sums[(warp * BT + c) * BN + r], acc[f][j][i]);
         }
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int e = tid; e < BN * BT; e += NT) {
      const int r = e % BN, c = e / BN;
      float sum = LDS_LOAD(1, &sums[c * BN + r]);
      for (int v = 1; v < WARPS; v++)
         sum += LDS_LOAD(1, &sums[(v * BT + c) * BN + r]);
      const size_t at = (size_t)gt_sched_swap_c(r, c, n0, m0, N);
#if SPLIT > 1
      GT_STORE_C(W[(size_t)z * M * N + at], sum);
#else
      GT_STORE_C(C[at], beta != REAL_ZERO ? alpha * sum + beta * C[at] : alpha * sum);
#endif
   }
}

/* C = alpha * (the planes' sum, in plane order: the same bits every run) + beta * C; four
 * columns a work-item (N is a multiple of 16, the grid of 64 columns rounded up). Launched
 * only when SPLIT > 1. */
__kernel void gemm_fixup(const int M, const int N, const int K, const real alpha, const __global in_t *A,
                         const __global in_t *B, const real beta, __global real *C, __global real *W) {
   const int col = get_global_id(0) * 4, row = get_global_id(1);
   if (col >= N)
      return;
   const size_t at = ((size_t)row * N + col) / 4, plane = (size_t)M * N / 4;
   const __global real4 *W4 = (const __global real4 *)W;
   real4 sum = W4[at];
   for (int z = 1; z < SPLIT; z++)
      sum = sum + W4[(size_t)z * plane + at];
   __global real4 *c4 = (__global real4 *)C + at;
   real4 v = sum * alpha;
   if (beta != REAL_ZERO)
      v = v + *c4 * beta;
   GT_STORE_CN(4, *c4, v);
}
