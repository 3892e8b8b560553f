/* gemmtop micro-kernels: the device's measured peaks (multiply-add rate, copy bandwidth).
 * Compiled with -DDOUBLE=0|1 after the prelude. */

/* Each work-item runs 8 independent chains of 4-wide multiply-adds for ITERS rounds:
 * enough independent work to fill the pipelines (and, on CPUs, the SIMD lanes), nothing
 * from memory. 2*8*4*ITERS flops each. */
#ifndef ITERS
#define ITERS 512
#endif
__kernel void gt_peak_fma(__global real *out, const real seed) {
   const real s0 = seed + (real)get_global_id(0);
   real4 a0 = MAKE_REAL4(s0, s0 + (real)1, s0 + (real)2, s0 + (real)3);
   real4 a1 = a0 + SPLAT_REAL4((real)4), a2 = a0 + SPLAT_REAL4((real)8), a3 = a0 + SPLAT_REAL4((real)12);
   real4 a4 = a0 + SPLAT_REAL4((real)16), a5 = a0 + SPLAT_REAL4((real)20), a6 = a0 + SPLAT_REAL4((real)24);
   real4 a7 = a0 + SPLAT_REAL4((real)28);
   const real4 m = SPLAT_REAL4((real)0.999), c = SPLAT_REAL4((real)0.001);
   for (int i = 0; i < ITERS; i++) {
      a0 = mad(a0, m, c); a1 = mad(a1, m, c); a2 = mad(a2, m, c); a3 = mad(a3, m, c);
      a4 = mad(a4, m, c); a5 = mad(a5, m, c); a6 = mad(a6, m, c); a7 = mad(a7, m, c);
   }
   const real4 t = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
   out[get_global_id(0)] = t.x + t.y + t.z + t.w;
}

/* dst = src, one real4 per work-item: read + write bytes over time is the copy bandwidth. */
__kernel void gt_peak_copy(__global real4 *dst, const __global real4 *src) {
   const size_t i = get_global_id(0);
   dst[i] = src[i];
}
