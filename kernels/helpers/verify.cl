/* gemmtop's own check of a GEMM's C where C is: on the device, so that only vectors come
 * back (core/run/session_verify.c launches these; core/run/verify.c compares them with what it
 * computes from the inputs on the host). No code of the kernel under test is used.
 *
 *  gt_verify_rows       C x and |C| |x| per row, in double with Kahan's compensation; the
 *                       row's elements that are not finite (NaN, infinities, and of the
 *                       NaN those still poisoned: never written) counted, and the first
 *                       one's column
 *  gt_verify_cols       y^T C and |y|^T |C| over a band of rows, per column (partial sums)
 *  gt_verify_cols_join  the bands' partial sums joined, in band order
 *  gt_verify_gather     C at the sample positions, widened to double
 *
 * Every sum's order is fixed by the shape and GT_VERIFY_WG alone, so a device gives the same
 * figures at every run. Needs FP64 (cl_khr_fp64): without it the host checks C instead.
 * GT_VERIFY_POISON: the 32-bit word C was filled with before the run (Verify_poisonWord; a
 * double's is the word twice), which the session defines. */
#if !GT_CUDA
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif

/* Work-items per group of gt_verify_rows, gt_verify_cols and gt_verify_cols_join (a power
 * of two: the rows' tree reduction halves it). */
#define GT_VERIFY_WG 256

/* An element's bits, to tell NaN from infinity without the compiler's help (fast-math
 * options may assume neither exists). */
#if GT_CUDA
#define GT_BITS32(v) __float_as_uint(v)
#define GT_BITS64(v) ((ulong)__double_as_longlong(v))
#else
#define GT_BITS32(v) as_uint(v)
#define GT_BITS64(v) as_ulong(v)
#endif

/* 0: finite; 1: NaN; 2: an infinity; 3: the poison (a NaN never written). */
GT_FN int gt_verify_class(real v) {
#if DOUBLE
   const ulong b = GT_BITS64(v);
   if (((b >> 52) & 0x7ff) != 0x7ff)
      return 0;
   if (b == ((ulong)GT_VERIFY_POISON << 32 | (ulong)GT_VERIFY_POISON))
      return 3;
   return (b & 0xfffffffffffffUL) ? 1 : 2;
#else
   const uint b = GT_BITS32(v);
   if (((b >> 23) & 0xff) != 0xff)
      return 0;
   if (b == (uint)GT_VERIFY_POISON)
      return 3;
   return (b & 0x7fffffu) ? 1 : 2;
#endif
}

/* The sum of (s1 - c1) and (s2 - c2), Kahan pairs: the new sum exact up to its rounding,
 * which goes into the compensation (Knuth's two-sum). */
#define GT_VERIFY_JOIN(s1, c1, s2, c2)                                  \
   do {                                                                 \
      const double gt_t = (s1) + (s2), gt_bp = gt_t - (s1);             \
      const double gt_e = ((s1) - (gt_t - gt_bp)) + ((s2) - gt_bp);     \
      (c1) = (c1) + (c2) - gt_e;                                        \
      (s1) = gt_t;                                                      \
   } while (0)

/* Kahan's step: s - c += t. */
#define GT_VERIFY_KAHAN(s, c, t)                                        \
   do {                                                                 \
      const double gt_y = (t) - (c), gt_u = (s) + gt_y;                 \
      (c) = (gt_u - (s)) - gt_y;                                        \
      (s) = gt_u;                                                       \
   } while (0)

/* One group per row i: cx[i] = sum_j C[i][j] x[j], cx[M + i] = sum_j |C[i][j]| |x[j]|;
 * nf[4i], nf[4i+1], nf[4i+2]: the row's NaN (the poisoned ones included), infinities and
 * poisoned NaN, nf[4i+3]: the first one's column (-1). */
__kernel GT_WORKGROUP(GT_VERIFY_WG, 1, 1) void gt_verify_rows(const int M, const int N, const __global real *C,
                                                              const __global double *x, __global double *cx,
                                                              __global int *nf) {
   __local double ls[GT_VERIFY_WG], lc[GT_VERIFY_WG], la[GT_VERIFY_WG];
   __local int lnan[GT_VERIFY_WG], linf[GT_VERIFY_WG], lpoison[GT_VERIFY_WG], lfirst[GT_VERIFY_WG];
   const int i = get_group_id(0), t = get_local_id(0);
   const __global real *row = C + (size_t)i * (size_t)N;
   double s = 0, c = 0, a = 0;
   int nans = 0, infs = 0, poisoned = 0, first = N;
   for (int j = t; j < N; j += GT_VERIFY_WG) {
      const real v = row[j];
      const int k = gt_verify_class(v);
      if (k) {
         nans += k == 1 || k == 3;
         infs += k == 2;
         poisoned += k == 3;
         first = j < first ? j : first;
      }
      const double d = (double)v, xj = x[j];
      GT_VERIFY_KAHAN(s, c, d * xj);
      a += fabs(d) * fabs(xj);
   }
   ls[t] = s, lc[t] = c, la[t] = a, lnan[t] = nans, linf[t] = infs, lpoison[t] = poisoned, lfirst[t] = first;
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int stride = GT_VERIFY_WG / 2; stride > 0; stride /= 2) {
      if (t < stride) {
         double s1 = ls[t], c1 = lc[t];
         GT_VERIFY_JOIN(s1, c1, ls[t + stride], lc[t + stride]);
         ls[t] = s1, lc[t] = c1;
         la[t] += la[t + stride];
         lnan[t] += lnan[t + stride];
         linf[t] += linf[t + stride];
         lpoison[t] += lpoison[t + stride];
         lfirst[t] = lfirst[t + stride] < lfirst[t] ? lfirst[t + stride] : lfirst[t];
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   if (t == 0) {
      cx[i] = ls[0] - lc[0];
      cx[M + i] = la[0];
      nf[4 * (size_t)i] = lnan[0];
      nf[4 * (size_t)i + 1] = linf[0];
      nf[4 * (size_t)i + 2] = lpoison[0];
      nf[4 * (size_t)i + 3] = lfirst[0] < N ? lfirst[0] : -1;
   }
}

/* Work-item (j, band): rows [band * rows, band * rows + rows) of column j, summed down;
 * part holds three planes of bands x N: the sums, their compensations, the absolute sums. */
__kernel GT_WORKGROUP(GT_VERIFY_WG, 1, 1) void gt_verify_cols(const int M, const int N, const int rows,
                                                              const __global real *C, const __global double *y,
                                                              __global double *part) {
   const int j = get_group_id(0) * GT_VERIFY_WG + get_local_id(0), band = get_group_id(1);
   const int bands = get_num_groups(1);
   if (j >= N)
      return;
   const int i0 = band * rows, i1 = M - i0 < rows ? M : i0 + rows;
   double s = 0, c = 0, a = 0;
   for (int i = i0; i < i1; i++) {
      const double d = (double)C[(size_t)i * (size_t)N + j], yi = y[i];
      GT_VERIFY_KAHAN(s, c, d * yi);
      a += fabs(d) * fabs(yi);
   }
   const size_t plane = (size_t)bands * (size_t)N, at = (size_t)band * (size_t)N + (size_t)j;
   part[at] = s;
   part[plane + at] = c;
   part[2 * plane + at] = a;
}

/* yc[j] = sum_i y[i] C[i][j] and yc[N + j] = sum_i |y[i]| |C[i][j]| from gt_verify_cols's
 * bands, joined in band order. */
__kernel GT_WORKGROUP(GT_VERIFY_WG, 1, 1) void gt_verify_cols_join(const int N, const int bands,
                                                                   const __global double *part, __global double *yc) {
   const int j = get_group_id(0) * GT_VERIFY_WG + get_local_id(0);
   if (j >= N)
      return;
   const size_t plane = (size_t)bands * (size_t)N;
   double s = 0, c = 0, a = 0;
   for (int b = 0; b < bands; b++) {
      const size_t at = (size_t)b * (size_t)N + (size_t)j;
      GT_VERIFY_JOIN(s, c, part[at], part[plane + at]);
      a += part[2 * plane + at];
   }
   yc[j] = s - c;
   yc[N + j] = a;
}

/* out[k] = C at linear index at[k], for k < count. */
__kernel void gt_verify_gather(const int count, const __global real *C, const __global ulong *at,
                               __global double *out) {
   const int k = get_group_id(0) * get_local_size(0) + get_local_id(0);
   if (k < count)
      out[k] = (double)C[at[k]];
}
