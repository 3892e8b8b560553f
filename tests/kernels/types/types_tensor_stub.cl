/*@gemmtop
name:       types_tensor_stub
title:      Test: a `tensor: yes` kernel in plain code, for the engine's handling of tensor kernels
ladder:     test
hidden:     yes
step:       3
precisions: tf32 half bfloat16
tensor:     yes
about:      Declares tensor: yes so that the engine treats it as a tensor-core kernel: compiled with
about:      GT_TENSOR_PTX=1 on NVIDIA sm_80 or newer (where it rounds its tf32 inputs with the PTX
about:      instruction cvt.rna.tf32.f32, proving that inline PTX reaches the kernel), labelled
about:      emulated everywhere else. The GEMM itself is scalar, as in types_scalar.
param:      TS = 8 in 8, 16 ; work-group side
operands:   any
global:     ceil(N, TS), ceil(M, TS)
local:      TS, TS
*/
#if GT_TF32 && GT_TENSOR_PTX
/* Round to TF32, ties away from zero: what CUTLASS feeds the tensor cores. */
#define T_IN(x) t_cvt_tf32(x)
#if GT_CUDA
__device__
#endif
float t_cvt_tf32(float x);
#if GT_CUDA
__device__
#endif
float t_cvt_tf32(float x) {
   uint u;
   asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(u) : "f"(x));
#if GT_CUDA
   return __uint_as_float(u);
#else
   return as_float(u);
#endif
}
#elif GT_TF32
#if GT_CUDA
#define T_IN(x) __uint_as_float((__float_as_uint(x) + 0xfffu + ((__float_as_uint(x) >> 13) & 1u)) & ~0x1fffu)
#else
#define T_IN(x) as_float((as_uint(x) + 0xfffu + ((as_uint(x) >> 13) & 1u)) & ~0x1fffu)
#endif
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
#if TRANSA
      const float a = T_IN(A[(size_t)k * M + row]);
#else
      const float a = T_IN(A[(size_t)row * K + k]);
#endif
#if TRANSB
      const float b = T_IN(B[(size_t)col * K + k]);
#else
      const float b = T_IN(B[(size_t)k * N + col]);
#endif
      acc += a * b;
   }
   const size_t idx = (size_t)row * N + col;
   C[idx] = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
}
