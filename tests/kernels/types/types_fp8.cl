/*@gemmtop
name:       types_fp8
title:      Test: scalar FP8 GEMM with per-tensor or block scales, and four broken copies
ladder:     test
hidden:     yes
step:       3
precisions: e4m3 e5m2
about:      The plainest scaled FP8 GEMM, which verification must pass with BUG=0 and fail with each
about:      bug: one work-item per element of C, A and B decoded exactly, products summed in FP32
about:      per 128-deep block of k, each block's sum times its scales (block scaling) added into
about:      an FP32 sum, the per-tensor scales applied once at the end. Any size and layout.
about:      BUG=1 takes the scale of the wrong block (block scaling: the neighbouring row's slice
about:      of A; per tensor: A's scale where B's belongs); BUG=2 drops a 32-deep slice of k;
about:      BUG=3 keeps all of K in an accumulator of 13 fraction bits, truncated after every
about:      product and never promoted into FP32, as an FP8 tensor core's own accumulator does;
about:      BUG=4 applies the scales twice.
param:      BUG = 0 in 0, 1, 2, 3, 4 ; 0 correct; 1 wrong scale block; 2 drops a k-slice; 3 reduced-precision accumulator; 4 scales twice
param:      TS = 8 in 8, 16 ; work-group side
operands:   any
global:     ceil(N, TS), ceil(M, TS)
local:      TS, TS
*/
#if GT_CUDA
#define T_BITS(x) __float_as_uint(x)
#define T_FLOAT(u) __uint_as_float(u)
#else
#define T_BITS(x) as_uint(x)
#define T_FLOAT(u) as_float(u)
#endif
#define A_AT(i, k) IN_TO_FLOAT(TRANSA ? A[(size_t)(k) * M + (i)] : A[(size_t)(i) * K + (k)])
#define B_AT(k, j) IN_TO_FLOAT(TRANSB ? B[(size_t)(j) * K + (k)] : B[(size_t)(k) * N + (j)])
#define KBLK 128

__kernel void gemm(const int M, const int N, const int K, const real alpha, const __global in_t *A,
                   const __global in_t *B, const real beta, __global real *C GT_SCALE_PARAMS GT_TRACE_PARAM) {
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   if (row >= M || col >= N)
      return;
   const int kblocks = (K + KBLK - 1) / KBLK, nblocks = (N + KBLK - 1) / KBLK;
   const int skip = K >= 64 ? 32 : 1; /* BUG=2: the last slice of k left out */
   float sum = 0.0f;
   for (int k0 = 0; k0 < K; k0 += KBLK) {
      float part = 0.0f;
      for (int k = k0; k < K && k < k0 + KBLK; k++) {
         if (BUG == 2 && k >= K - skip)
            continue;
         part += A_AT(row, k) * B_AT(k, col);
         if (BUG == 3) /* 13 fraction bits, cut */
            part = T_FLOAT(T_BITS(part) & 0xfffffc00u);
      }
#if GT_SCALE_BLOCK
      const int arow = BUG == 1 && (row ^ 1) < M ? row ^ 1 : row;
      float s = SA[(size_t)arow * kblocks + k0 / KBLK] * SB[(size_t)(k0 / KBLK) * nblocks + col / KBLK];
      if (BUG == 4)
         s *= s;
      sum += s * part;
#else
      sum += part;
#endif
      if (BUG == 3) /* the sum stays in the reduced accumulator too */
         sum = T_FLOAT(T_BITS(sum) & 0xfffffc00u);
   }
#if GT_SCALE_BLOCK
   const float scale = alpha;
#else
   const float sb = BUG == 1 ? SA[0] : SB[0];
   const float scale = BUG == 4 ? alpha * (SA[0] * sb) * (SA[0] * sb) : alpha * (SA[0] * sb);
#endif
   const float v = scale * sum;
   const size_t idx = (size_t)row * N + col;
   C[idx] = beta == REAL_ZERO ? v : v + beta * C[idx];
}
