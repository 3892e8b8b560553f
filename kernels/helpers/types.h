/* gemmtop kernel helpers: the element types, in one place. gemmtop joins this file right
 * after prelude.h (kernels cannot #include: the backends compile one text), so `real` and
 * GT_CUDA are known here. A new element type is one block below (its define, its in_t and
 * its IN_TO_FLOAT) and one row of src/base/types.c; the CUDA prelude's wgmma type strings
 * (GT_WG_TYPES, prelude_cuda.h) are the one other place, since its functions come first. */

/* The element types of A and B. GT_TF32, GT_HALF, GT_BF16 (at most one is 1) pick the
 * tensor-core types; real (C, alpha, beta) is then float and accumulation is in FP32.
 *   in_t           the stored element of A and B: real for float, double and tf32; the raw
 *                  16-bit pattern (ushort) for half and bfloat16, so that a kernel reads
 *                  the same in OpenCL and CUDA and needs no cl_khr_fp16
 *   IN_TO_FLOAT(x) an in_t element as a number: half and bfloat16 to float (exact); real
 *                  itself for the others (for tf32 the rounding to TF32 is the kernel's)
 *   e4m3, e5m2     GT_E4M3, GT_E5M2 (GT_FP8 either): in_t is the byte pattern (uchar)
 * GT_TENSOR_PTX is 1 when the kernel (one that declares `tensor: yes`) is compiled for an
 * NVIDIA GPU of sm_80 or newer, where inline PTX tensor instructions run; 0 elsewhere. */
#ifndef GT_TF32
#define GT_TF32 0
#endif
#ifndef GT_HALF
#define GT_HALF 0
#endif
#ifndef GT_BF16
#define GT_BF16 0
#endif
#ifndef GT_E4M3
#define GT_E4M3 0
#endif
#ifndef GT_E5M2
#define GT_E5M2 0
#endif
#define GT_FP8 (GT_E4M3 || GT_E5M2)
#ifndef GT_SCALE_BLOCK
#define GT_SCALE_BLOCK 0 /* 1: --scaling block (a scale per 1x128 of A, per 128x128 of B) */
#endif
#ifndef GT_TENSOR_PTX
#define GT_TENSOR_PTX 0
#endif
#if GT_HALF || GT_BF16
typedef ushort in_t;
#elif GT_FP8
typedef uchar in_t;
#else
typedef real in_t;
#endif

/* FP8 (e4m3: float8_e4m3fn, e5m2: float8_e5m2): the kernel gets FP32 scales after C, one
 * per tensor or per block (src/core/model/scales.h): GT_SCALE_PARAMS in its parameter list.
 * gt_fp8_to_float decodes one pattern exactly (bit arithmetic, the same in OpenCL and CUDA). */
#if GT_FP8
#define GT_SCALE_PARAMS , const __global float *SA, const __global float *SB
/* A scale of A or B, read through these so that ablation no-a / no-b (prelude.h) takes the
 * operand's scales out with its values: the result then depends on neither. */
#if GT_ABLATE_NO_A
#define GT_SCALE_A(i) 1.0f
#else
#define GT_SCALE_A(i) SA[i]
#endif
#if GT_ABLATE_NO_B
#define GT_SCALE_B(i) 1.0f
#else
#define GT_SCALE_B(i) SB[i]
#endif
#define GT_FP8_FRAC (GT_E4M3 ? 3 : 2)
#define GT_FP8_BIAS (GT_E4M3 ? 7 : 15)
#if GT_CUDA
#define GT_FP8_U2F(u) __uint_as_float(u)
#define GT_FP8_FN __device__ inline
#else
#define GT_FP8_U2F(u) as_float(u)
#define GT_FP8_FN
#endif
GT_FP8_FN float gt_fp8_to_float(uint b);
GT_FP8_FN float gt_fp8_to_float(uint b) {
   const uint sign = (b & 0x80u) << 24, e = (b & 0x7fu) >> GT_FP8_FRAC, m = b & ((1u << GT_FP8_FRAC) - 1u);
   if (GT_E5M2 && e == 31u)
      return GT_FP8_U2F(sign | 0x7f800000u | (m << 21));
   if (GT_E4M3 && e == 15u && m == 7u)
      return GT_FP8_U2F(0x7fc00000u); /* e4m3fn's one NaN */
   if (e == 0u) { /* zero or subnormal: m * 2^(1 - bias - frac) */
      const float f = (float)m * (GT_E4M3 ? 0.001953125f : 1.52587890625e-5f);
      return sign ? -f : f;
   }
   return GT_FP8_U2F(sign | ((e + 127u - GT_FP8_BIAS) << 23) | (m << (23 - GT_FP8_FRAC)));
}
#else
#define GT_SCALE_PARAMS
#endif
#if GT_BF16
#if GT_CUDA
#define IN_TO_FLOAT(x) __uint_as_float((uint)(x) << 16)
#else
#define IN_TO_FLOAT(x) as_float((uint)(x) << 16)
#endif
#elif GT_FP8
#define IN_TO_FLOAT(x) gt_fp8_to_float((uint)(x))
#elif GT_HALF
#define IN_TO_FLOAT(x) gt_half_to_float(x)
#if GT_CUDA && !defined(__HIP__) && !defined(__HIPCC_RTC__)
/* The hardware conversion (PTX cvt), with no header needed. */
__device__ inline float gt_half_to_float(ushort h) {
   float f;
   asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
   return f;
}
#elif GT_CUDA
/* HIP: the bits rebuilt by hand (exact; subnormals through one multiply). */
__device__ inline float gt_half_to_float(ushort h) {
   const uint sign = (uint)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, frac = h & 0x3ffu;
   if (e == 0x1fu)
      return __uint_as_float(sign | 0x7f800000u | frac << 13);
   if (e)
      return __uint_as_float(sign | (e + 112u) << 23 | frac << 13);
   const float sub = (float)frac * 5.9604644775390625e-8f; /* 2^-24 */
   return sign ? -sub : sub;
}
#else
/* vload_half reads a half pattern as float without cl_khr_fp16. */
float gt_half_to_float(ushort h);
float gt_half_to_float(ushort h) { return vload_half(0, (const half *)&h); }
#endif
#else
#define IN_TO_FLOAT(x) (x)
#endif
