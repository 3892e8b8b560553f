/*@gemmtop
name:       types_scalar
title:      Test: scalar GEMM in tf32, half and bfloat16 with FP32 accumulation, and three broken copies
ladder:     test
hidden:     yes
step:       1
precisions: tf32 half bfloat16
about:      The plainest GEMM for the tensor-core element types, which verification must pass with
about:      BUG=0 and fail with each bug: one work-item per element of C, A and B read as in_t and
about:      turned into float with IN_TO_FLOAT (for tf32 rounded to TF32, to nearest even, as the
about:      tensor cores multiply), products accumulated in FP32, any size and layout.
about:      BUG=1 skips one k-step; BUG=2 rounds its inputs wrongly (tf32 and half cut to
about:      bfloat16's 7 fraction bits, bfloat16 rounds each product to bfloat16 before adding it:
about:      rounding twice); BUG=3 reads a wrong element of A for the last k.
param:      BUG = 0 in 0, 1, 2, 3 ; 0 correct; 1 skips a k-step; 2 rounds wrongly; 3 reads a wrong element
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
/* To TF32 (10 fraction bits), to nearest even: half an ulp added, one less when the kept
 * part is even, the 13 low bits cleared (finite inputs only: a test kernel). */
#define T_TF32(x) T_FLOAT((T_BITS(x) + 0xfffu + ((T_BITS(x) >> 13) & 1u)) & ~0x1fffu)
/* Cut to bfloat16's 7 fraction bits: the wrong rounding of BUG=2. */
#define T_CUT_BF16(x) T_FLOAT(T_BITS(x) & 0xffff0000u)

#if GT_TF32
#define T_IN(x) T_TF32(x)
#else
#define T_IN(x) IN_TO_FLOAT(x)
#endif

__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global in_t* A, const __global in_t* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   if (row >= M || col >= N)
      return;
   float acc = 0.0f;
   for (int k = 0; k < K; k++) {
#if BUG == 1
      if (k == K / 2)
         continue; /* one k-step skipped */
#endif
#if BUG == 3
      const int ka = k == K - 1 && K > 1 ? k - 1 : k; /* the last k reads its neighbour */
#else
      const int ka = k;
#endif
#if TRANSA
      float a = T_IN(A[(size_t)ka * M + row]);
#else
      float a = T_IN(A[(size_t)row * K + ka]);
#endif
#if TRANSB
      float b = T_IN(B[(size_t)col * K + k]);
#else
      float b = T_IN(B[(size_t)k * N + col]);
#endif
#if BUG == 2 && GT_BF16
      acc += T_CUT_BF16(a * b); /* the product rounded again, to bfloat16 */
#elif BUG == 2
      acc += T_CUT_BF16(a) * T_CUT_BF16(b); /* inputs cut to bfloat16, not rounded to the type */
#else
      acc += a * b;
#endif
   }
   const size_t idx = (size_t)row * N + col;
   C[idx] = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
}
