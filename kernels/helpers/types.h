/* gemmtop kernel helpers: the element types, in one place. gemmtop joins this file right
 * after prelude.h (kernels cannot #include: the backends compile one text), so `real` and
 * GT_CUDA are known here. A new element type is one block below (its define, its in_t and
 * its IN_TO_FLOAT) and one row of src/core/types.c; the CUDA prelude's wgmma type strings
 * (GT_WG_TYPES, prelude_cuda.h) are the one other place, since its functions come first. */

/* The element types of A and B. GT_TF32, GT_HALF, GT_BF16 (at most one is 1) pick the
 * tensor-core types; real (C, alpha, beta) is then float and accumulation is in FP32.
 *   in_t           the stored element of A and B: real for float, double and tf32; the raw
 *                  16-bit pattern (ushort) for half and bfloat16, so that a kernel reads
 *                  the same in OpenCL and CUDA and needs no cl_khr_fp16
 *   IN_TO_FLOAT(x) an in_t element as a number: half and bfloat16 to float (exact); real
 *                  itself for the others (for tf32 the rounding to TF32 is the kernel's)
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
#ifndef GT_TENSOR_PTX
#define GT_TENSOR_PTX 0
#endif
#if GT_HALF || GT_BF16
typedef ushort in_t;
#else
typedef real in_t;
#endif
#if GT_BF16
#if GT_CUDA
#define IN_TO_FLOAT(x) __uint_as_float((uint)(x) << 16)
#else
#define IN_TO_FLOAT(x) as_float((uint)(x) << 16)
#endif
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
