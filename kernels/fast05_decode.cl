/*@gemmtop
name:     fast05_decode
title:    Decode: a few tokens, the weight streamed once at the memory's speed
ladder:   fast
step:     5
tune:     yes
bound:    memory
precisions: float double half bfloat16
about:    For M of 1 to 16 (a model's decode: the tokens in flight times a weight), a GEMM
about:    is a stream of the weight B: at 8 x 8192 x 8192 in bfloat16 the weight is 134 MB
about:    and A 131 kB, so the figure to reach is the memory's, not the multiply-adds'. B is
about:    read as a model stores it, N x K (layout NT): each row of B is a column of C, its K
about:    elements contiguous. A work-group takes WG / LK * RN rows of B and one of SPLIT
about:    runs of K, so that the grid fills every multiprocessor several times over (N / 64
about:    x SPLIT groups); LK work-items share a row, each loading 16 bytes at a time (LK x
about:    16 contiguous bytes a row per step), with UNROLL loads in flight per row before
about:    their multiply-adds. Each work-item keeps RN x MR sums in registers; the MR rows
about:    of A are read from the L1 cache, the same 16 bytes for every row group of a warp,
about:    and serve RN rows of B each. The LK partial sums of a row are added through local
about:    memory in a fixed order; with SPLIT > 1 each run of K writes a plane of partial
about:    sums and a small fix-up adds the planes in plane order (the same bits every run).
about:    CUDA cores only, in plain OpenCL C: it runs everywhere, and its share of the
about:    measured copy bandwidth is reported beside % of the vendor library. In half and
about:    bfloat16 each element of B costs MR multiply-adds, which caps it below the
about:    memory's speed past about 12 tokens on an H200 (tensor08_swapab takes those).
param:    MR = 8 in 1, 2, 4, 8, 16 ; rows of A (tokens) per work-group, kept in registers as sums
param:    RN = 2 in 1, 2, 4 ; rows of B (columns of C) per work-item
param:    LK = 8 in 1, 2, 4, 8, 16, 32 ; work-items sharing a row of B, each 16 bytes at a time
param:    WG = 128 in 32, 64, 128, 256 ; work-items per group
param:    UNROLL = 2 in 1, 2, 4 ; 16-byte loads in flight per row of B and work-item
param:    SPLIT = 8 in 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64 ; work-groups that share K (1: no workspace, no fix-up)
require:  WG % LK == 0 ; the work-group must split into rows of LK work-items
operands: A=N B=T
pad:      M=MR K=16/IN_SIZE
global:   div(N, WG / LK * RN) * WG, M / MR, SPLIT
local:    WG, 1, 1
localmem: WG * RN * MR * REAL_SIZE
workspace: SPLIT > 1 ? SPLIT * M * N * REAL_SIZE : 0
fixup:    gemm_fixup
fixup_global: SPLIT > 1 ? ceil(N, 64) : 0, M
fixup_local: 64, 1
reuse:    A=RN*WG/LK B=MR
sites:    0=sums store, 1=sums load
*/
#define GROUPS (WG / LK)      /* row groups of a work-group */
#define ROWS (GROUPS * RN)    /* rows of B (columns of C) per work-group */

/* 16 bytes of A or B: VEC elements, as a vector of the stored type, made numbers by UNPACK.
 * Half and bfloat16 come as four words of two (tensor.h's word loads); float and double as
 * a real4 or real2. Every load goes through the ablation macros. */
#if GT_HALF || GT_BF16
#define VEC 8
typedef uint4 piece_t;
#define LOAD_A16(p) GT_LOAD_AW4(*(const __global uint4 *)(p))
#define LOAD_B16(p) GT_LOAD_BW4(*(const __global uint4 *)(p))
#define ZERO16 GT_SPLAT_UINT4(0u)
GT_FN void unpack(uint4 w, real *x) {
   x[0] = IN_TO_FLOAT((ushort)(w.x & 0xffffu));
   x[1] = IN_TO_FLOAT((ushort)(w.x >> 16));
   x[2] = IN_TO_FLOAT((ushort)(w.y & 0xffffu));
   x[3] = IN_TO_FLOAT((ushort)(w.y >> 16));
   x[4] = IN_TO_FLOAT((ushort)(w.z & 0xffffu));
   x[5] = IN_TO_FLOAT((ushort)(w.z >> 16));
   x[6] = IN_TO_FLOAT((ushort)(w.w & 0xffffu));
   x[7] = IN_TO_FLOAT((ushort)(w.w >> 16));
}
#elif DOUBLE
#define VEC 2
typedef real2 piece_t;
#define LOAD_A16(p) GT_LOAD_AN(2, *(const __global real2 *)(p))
#define LOAD_B16(p) GT_LOAD_BN(2, *(const __global real2 *)(p))
#define ZERO16 SPLAT_REAL2(REAL_ZERO)
GT_FN void unpack(real2 w, real *x) {
   x[0] = w.x;
   x[1] = w.y;
}
#else
#define VEC 4
typedef real4 piece_t;
#define LOAD_A16(p) GT_LOAD_AN(4, *(const __global real4 *)(p))
#define LOAD_B16(p) GT_LOAD_BN(4, *(const __global real4 *)(p))
#define ZERO16 SPLAT_REAL4(REAL_ZERO)
GT_FN void unpack(real4 w, real *x) {
   x[0] = w.x;
   x[1] = w.y;
   x[2] = w.z;
   x[3] = w.w;
}
#endif

__kernel GT_WORKGROUP(WG, 1, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                         const __global in_t *A, const __global in_t *B, const real beta,
                                         __global real *C, __global real *W GT_TRACE_PARAM) {
   __local real sums[RN * MR * WG];
   const int tid = get_local_id(0), lk = tid % LK, rg = tid / LK;
   const int n0 = get_group_id(0) * ROWS, m0 = get_group_id(1) * MR, z = get_group_id(2);
   /* K as 16-byte pieces (K is padded to whole ones); run z of them for this group. */
   const int pieces = K / VEC;
   const int p0 = (int)gt_sched_share_start(z, pieces, SPLIT), p1 = (int)gt_sched_share_start(z + 1, pieces, SPLIT);
   /* Rows n0 + rg + r * GROUPS: a warp's row groups side by side, LK x 16 bytes a row. */
   int rows[RN];
#pragma unroll
   for (int r = 0; r < RN; r++)
      rows[r] = min(n0 + rg + r * GROUPS, N - 1); /* past N: read row N - 1, never stored */

   real acc[RN][MR];
#pragma unroll
   for (int r = 0; r < RN; r++)
#pragma unroll
      for (int m = 0; m < MR; m++)
         acc[r][m] = REAL_ZERO;

   for (int p = p0 + lk; p < p1; p += LK * UNROLL) {
      /* UNROLL pieces of each row in flight before the first multiply-add */
      piece_t wv[UNROLL][RN];
#pragma unroll
      for (int u = 0; u < UNROLL; u++)
#pragma unroll
         for (int r = 0; r < RN; r++)
            wv[u][r] = p + u * LK < p1 ? LOAD_B16(B + (size_t)rows[r] * K + (size_t)(p + u * LK) * VEC) : ZERO16;
#pragma unroll
      for (int u = 0; u < UNROLL; u++) {
         if (p + u * LK < p1) {
            real w[RN][VEC];
#pragma unroll
            for (int r = 0; r < RN; r++)
               unpack(wv[u][r], w[r]);
#pragma unroll
            for (int m = 0; m < MR; m++) {
               real a[VEC];
               unpack(LOAD_A16(A + (size_t)(m0 + m) * K + (size_t)(p + u * LK) * VEC), a);
#pragma unroll
               for (int r = 0; r < RN; r++)
#pragma unroll
                  for (int e = 0; e < VEC; e++)
                     GT_FMA(acc[r][m], w[r][e], a[e]);
            }
         }
      }
   }

   /* The LK work-items of a row add their sums in lk order; consecutive work-items then
    * take consecutive columns of C. */
#pragma unroll
   for (int r = 0; r < RN; r++)
#pragma unroll
      for (int m = 0; m < MR; m++)
         LDS_STORE(0, &sums[(r * MR + m) * WG + tid], acc[r][m]);
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int e = tid; e < ROWS * MR; e += WG) {
      const int row = e % ROWS, m = e / ROWS, g = row % GROUPS, r = row / GROUPS;
      const int n = n0 + row;
      if (n >= N)
         continue;
      real sum = REAL_ZERO;
      for (int l = 0; l < LK; l++)
         sum += LDS_LOAD(1, &sums[(r * MR + m) * WG + g * LK + l]);
      const size_t at = (size_t)(m0 + m) * N + n;
#if SPLIT > 1
      GT_STORE_C(W[(size_t)z * M * N + at], sum);
#else
      GT_STORE_C(C[at], beta != REAL_ZERO ? alpha * sum + beta * C[at] : alpha * sum);
#endif
   }
}

/* C = alpha * (the planes' sum, in plane order: the same bits every run) + beta * C, one
 * element a work-item (the grid is N rounded up to 64). Launched only when SPLIT > 1. */
__kernel void gemm_fixup(const int M, const int N, const int K, const real alpha, const __global in_t *A,
                         const __global in_t *B, const real beta, __global real *C, __global real *W) {
   const int col = get_global_id(0), row = get_global_id(1);
   if (col >= N)
      return;
   const size_t at = (size_t)row * N + col, plane = (size_t)M * N;
   real sum = W[at];
   for (int z = 1; z < SPLIT; z++)
      sum += W[(size_t)z * plane + at];
   GT_STORE_C(C[at], beta != REAL_ZERO ? alpha * sum + beta * C[at] : alpha * sum);
}
