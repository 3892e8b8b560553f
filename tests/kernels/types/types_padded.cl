/*@gemmtop
name:       types_padded
title:      Test: scalar GEMM in tf32, half and bfloat16 that reads A and B as stored (N), padded
ladder:     test
hidden:     yes
step:       2
precisions: tf32 half bfloat16
about:      Like types_scalar with BUG=0, but with no bounds checks: the engine pads M, N and K to
about:      multiples of TS and transposes A or B for the T layouts beforehand (gt_copy_pad_in
about:      moves the 16-bit operands, gt_copy_pad pads C), then unpads C. It proves those
about:      helpers for the element types.
param:      TS = 8 in 8, 16 ; work-group side, and the multiple M, N and K are padded to
operands:   A=N B=N
pad:        M=TS N=TS K=TS
global:     N, M
local:      TS, TS
*/
#if GT_CUDA
#define T_BITS(x) __float_as_uint(x)
#define T_FLOAT(u) __uint_as_float(u)
#else
#define T_BITS(x) as_uint(x)
#define T_FLOAT(u) as_float(u)
#endif
#if GT_TF32
#define T_IN(x) T_FLOAT((T_BITS(x) + 0xfffu + ((T_BITS(x) >> 13) & 1u)) & ~0x1fffu)
#else
#define T_IN(x) IN_TO_FLOAT(x)
#endif

__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global in_t* A, const __global in_t* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   float acc = 0.0f;
   for (int k = 0; k < K; k++)
      acc += T_IN(A[(size_t)row * K + k]) * T_IN(B[(size_t)k * N + col]);
   const size_t idx = (size_t)row * N + col;
   C[idx] = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
}
