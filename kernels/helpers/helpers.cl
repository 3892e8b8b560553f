/* gemmtop helper kernels: operand transposition and padding, run before and after a GEMM
 * kernel that needs them. Timed and reported separately from the GEMM kernel. */

/* L is the logical matrix, Lr x Lc. src holds L (src_trans=0, Lr x Lc row-major) or its
 * transpose (src_trans=1, Lc x Lr). dst receives a dr x dc row-major matrix holding L
 * (dst_trans=0) or its transpose (dst_trans=1), zero outside L: padding and transposition
 * in one pass. Launched over (dc, dr). gt_copy_pad moves real elements (C, and A and B
 * when in_t is real); gt_copy_pad_in moves in_t elements (A and B of half and bfloat16,
 * whose zero is the pattern 0). */
#define GT_COPY_PAD(NAME, T, ZERO)                                                                          \
   __kernel void NAME(const int Lr, const int Lc, const int src_trans, const __global T *src, const int dr, \
                      const int dc, const int dst_trans, __global T *dst) {                                 \
      const int c = get_global_id(0);                                                                       \
      const int r = get_global_id(1);                                                                       \
      if (r >= dr || c >= dc)                                                                               \
         return;                                                                                            \
      const int i = dst_trans ? c : r;                                                                      \
      const int j = dst_trans ? r : c;                                                                      \
      T v = ZERO;                                                                                           \
      if (i < Lr && j < Lc)                                                                                 \
         v = src_trans ? src[(size_t)j * Lr + i] : src[(size_t)i * Lc + j];                                 \
      dst[(size_t)r * dc + c] = v;                                                                          \
   }
GT_COPY_PAD(gt_copy_pad, real, REAL_ZERO)
GT_COPY_PAD(gt_copy_pad_in, in_t, (in_t)0)

/* Copies the top-left M x N block of a padded C (ld columns) into an M x N matrix. */
__kernel void gt_unpad(const int M, const int N, const int ld, const __global real *src, __global real *dst) {
   const int c = get_global_id(0);
   const int r = get_global_id(1);
   if (r >= M || c >= N)
      return;
   dst[(size_t)r * N + c] = src[(size_t)r * ld + c];
}
