/*@gemmtop
name:     tensor09_decode
title:    Tensor cores 9: decode in one launch, the weight streamed in whole cache lines
ladder:   tensor
step:     9
tune:     yes
tensor:   yes
bound:    memory
precisions: tf32 half bfloat16
about:    Step 8's swap-AB, made for decode (M of 1 to 16) at the memory's speed. The weight
about:    B (N x K, K-major, layout NT) is again the MMA's 16-row A operand and the tokens its
about:    n8, each lane loading its fragments straight from global memory; three things
about:    change. (1) A run of k is PL x 16 words: lane (g, t) loads pieces t, t + 4, ... of
about:    16 bytes of rows g and g + 8, so the quad of a row reads whole 128-byte lines (PL
about:    2) and MMA step q takes the words 16 (q / 2) + 4t + 2 (q % 2) and the next as its
about:    t and t + 4, the tokens the same (any order of k works while both agree). (2) The
about:    K split lives inside the block: WARPS warps (up to 16) take turns of KU runs each,
about:    and add their sums in warp order through local memory, so that with SPLIT 1 a
about:    decode is one launch with no workspace and no fix-up (a second launch costs
about:    microseconds out of about 35), and the grid, N / (16 RF) blocks, still fills every
about:    multiprocessor several times over at N = 8192. SPLIT > 1 (planes and an ordered
about:    fix-up, as step 8) is for narrow N. (3) With NC 1 the weight's loads skip L1 and
about:    ask L2 for 256-byte lines (PTX ld.global.nc.L1::no_allocate.L2::256B): each
about:    weight byte is used once. KU x RF x PL x 1 KiB of weight are in flight per warp.
about:    Off NVIDIA the MMA is emulated (labelled so) with the same layouts and plain loads.
param:    RF = 1 in 1, 2, 4 ; 16-row fragments of the weight per warp: 16 * RF columns of C per block
param:    TF = 1 in 1, 2 ; 8-token fragments: 8 * TF rows of C per block (2 for 9 to 16 tokens)
param:    WARPS = 8 in 1, 2, 4, 8, 16 ; warps that share a block's K, adding their sums in warp order
param:    KU = 2 in 1, 2, 4 ; runs of k each warp loads before their MMAs (loads in flight)
param:    PL = 2 in 1, 2, 4 ; 16-byte pieces per lane and row in a run: a run is 64 * PL bytes of a row
param:    NC = 1 in 0, 1 ; weight loads past L1 with 256-byte L2 lines (NVIDIA; plain loads elsewhere)
param:    SPLIT = 1 in 1, 2, 3, 4, 6, 8 ; blocks that share K (1: one launch, no workspace, no fix-up)
require:  RF * TF <= 8 ; at most 8 MMA tiles (32 accumulators) per lane
require:  KU * PL * (2 * RF + TF) <= 24 ; at most 24 loads of 16 bytes (96 registers) in flight per lane
require:  WARPS * RF * TF <= 64 ; the warps' sums meet in at most 32 KiB of local memory
operands: A=N B=T
pad:      M=8*TF N=16*RF K=64*PL/IN_SIZE
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
#define RUNW (16 * PL) /* words of k per run */

/* The weight's 16 bytes: read once, so past L1 and with a 256-byte L2 fetch on NVIDIA. A
 * global-load trace takes the plain load, whose address it can record (the same lines). */
#if GT_TENSOR_PTX && NC && !GT_TRACE_GLOBAL
GT_TFN uint4 gt_decode_stream16(const __global uint4 *p) {
   uint4 v;
   asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];"
       : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
       : "l"(GT_GLOBAL_ADDR(p)));
   return v;
}
#define LOAD_W16(p) GT_LOAD_BW4(gt_decode_stream16(p))
#else
#define LOAD_W16(p) GT_LOAD_BW4(*(p))
#endif

/* MMA step q of a run from a lane's pieces v[0..PL-1]: piece q / 2, its words 2 (q % 2) and
 * 2 (q % 2) + 1 as the fragment's words t (hi 0) and t + 4 (hi 1). */
#define WORD_OF(v, q, hi) \
   (((q) % 2) == 0 ? ((hi) == 0 ? (v)[(q) / 2].x : (v)[(q) / 2].y) : ((hi) == 0 ? (v)[(q) / 2].z : (v)[(q) / 2].w))

__kernel GT_WORKGROUP(NT, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C, __global real *W GT_TRACE_PARAM) {
   GT_TENSOR_SCRATCH(WARPS);
   __local float sums[WARPS * BN * BT];
   const int tid = (int)gt_flat_lid(), warp = tid / 32, lane = tid % 32;
   const int g = lane / 4, t = lane % 4;
   const int n0 = get_group_id(0) * BN, m0 = get_group_id(1) * BT, z = get_group_id(2);
   /* K in runs of RUNW words; block z takes runs [r0, r1), its warps in turn. */
   const int KW = K / GT_EPW, runs = KW / RUNW;
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
      uint4 w[KU][RF][2][PL], x[KU][TF][PL];
      GT_TUNROLL
      for (int u = 0; u < KU; u++) {
         /* Neighbouring warps take neighbouring runs: a turn reads WARPS x KU runs of each
          * row as one stretch. */
         const int run = r0 + (turn * KU + u) * WARPS + warp;
         const bool live = run < r1;
         /* Past the end: load run r0 again and zero it, so that no load sits behind a
          * branch and all of them can be in flight at once. */
         const size_t at = (size_t)(live ? run : r0) * (4 * PL) + t;
         GT_TUNROLL
         for (int f = 0; f < RF; f++)
            GT_TUNROLL
            for (int h = 0; h < 2; h++)
               GT_TUNROLL
               for (int p = 0; p < PL; p++)
                  w[u][f][h][p] = LOAD_W16(&B4[(size_t)(n0 + 16 * f + g + 8 * h) * rowW + at + 4 * p]);
         GT_TUNROLL
         for (int j = 0; j < TF; j++)
            GT_TUNROLL
            for (int p = 0; p < PL; p++)
               x[u][j][p] = GT_LOAD_AW4(A4[(size_t)(m0 + 8 * j + g) * rowW + at + 4 * p]);
         if (!live) { /* both zeroed: the products are zeros, even of an Inf weight */
            GT_TUNROLL
            for (int p = 0; p < PL; p++) {
               GT_TUNROLL
               for (int f = 0; f < RF; f++)
                  w[u][f][0][p] = w[u][f][1][p] = GT_SPLAT_UINT4(0u);
               GT_TUNROLL
               for (int j = 0; j < TF; j++)
                  x[u][j][p] = GT_SPLAT_UINT4(0u);
            }
         }
      }
      GT_TUNROLL
      for (int u = 0; u < KU; u++)
         GT_TUNROLL
         for (int q = 0; q < 2 * PL; q++)
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

   /* The warps' sums meet in local memory as [warp][token][weight row]; each element of the
    * block's C^T is then added over the warps in warp order (the same bits every run),
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
 * columns a work-item (N is a multiple of 16). Launched only when SPLIT > 1. */
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
