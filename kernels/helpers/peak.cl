/* gemmtop micro-kernels: the device's measured peaks (multiply-add rate, copy bandwidth).
 * Compiled with -DDOUBLE=0|1 after the prelude. */

/* Each work-item runs 16 independent multiply-add chains for ITERS rounds: enough
 * independent work to fill the pipelines, nothing from memory. 2*16*ITERS flops each. */
#ifndef ITERS
#define ITERS 512
#endif
__kernel void gt_peak_fma(__global real *out, const real seed) {
   real a0 = seed + (real)get_global_id(0), a1 = a0 + (real)1, a2 = a0 + (real)2, a3 = a0 + (real)3;
   real a4 = a0 + (real)4, a5 = a0 + (real)5, a6 = a0 + (real)6, a7 = a0 + (real)7;
   real a8 = a0 + (real)8, a9 = a0 + (real)9, a10 = a0 + (real)10, a11 = a0 + (real)11;
   real a12 = a0 + (real)12, a13 = a0 + (real)13, a14 = a0 + (real)14, a15 = a0 + (real)15;
   const real m = (real)0.999, c = (real)0.001;
   for (int i = 0; i < ITERS; i++) {
      a0 = mad(a0, m, c); a1 = mad(a1, m, c); a2 = mad(a2, m, c); a3 = mad(a3, m, c);
      a4 = mad(a4, m, c); a5 = mad(a5, m, c); a6 = mad(a6, m, c); a7 = mad(a7, m, c);
      a8 = mad(a8, m, c); a9 = mad(a9, m, c); a10 = mad(a10, m, c); a11 = mad(a11, m, c);
      a12 = mad(a12, m, c); a13 = mad(a13, m, c); a14 = mad(a14, m, c); a15 = mad(a15, m, c);
   }
   out[get_global_id(0)] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15;
}

/* dst = src, one real4 per work-item: read + write bytes over time is the copy bandwidth. */
__kernel void gt_peak_copy(__global real4 *dst, const __global real4 *src) {
   const size_t i = get_global_id(0);
   dst[i] = src[i];
}
