/*@gemmtop
name:     test_misbehave
title:    Test: the right C, plus one misdeed a verdict must name (for the tests)
ladder:   test
step:     1
hidden:   yes
about:    The naive kernel, which computes every element of C right, and with BUG > 0 does one
about:    thing more that gemmtop must find and name. BUG=1 writes two elements outside C,
about:    C[M*N+7] and C[-3]; BUG=2 writes A[-2] and BUG=3 B[K*N+1], outside the inputs;
about:    BUG=4 computes NaN in row 1 (0/0 of its own, not C's poison); BUG=5 leaves column 2
about:    unwritten.
param:    BUG = 0 in 0, 1, 2, 3, 4, 5 ; 0 correct; 1 writes outside C; 2 outside A; 3 outside B; 4 computes NaN; 5 leaves a column unwritten
operands: any
global:   ceil(N, 16), ceil(M, 16)
local:    16, 16
*/
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   if (row >= M || col >= N)
      return;
   real acc = REAL_ZERO;
   for (int k = 0; k < K; k++) {
#if TRANSA
      const real a = A[(size_t)k * M + row];
#else
      const real a = A[(size_t)row * K + k];
#endif
#if TRANSB
      const real b = B[(size_t)col * K + k];
#else
      const real b = B[(size_t)k * N + col];
#endif
      acc += a * b;
   }
   const size_t idx = (size_t)row * N + col;
   real value = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
#if BUG == 4
   /* a NaN of the kernel's own arithmetic: zero over a zero it cannot fold away */
   const real zero = (real)(row - 1) * acc;
   if (row == 1)
      value = zero / zero;
#endif
#if BUG == 5
   if (col == 2)
      return;
#endif
   C[idx] = value;
   if (row == 0 && col == 0) {
#if BUG == 1
      C[(size_t)M * N + 7] = value;
      C[-3] = value;
#elif BUG == 2
      ((__global real*)A)[-2] = value;
#elif BUG == 3
      ((__global real*)B)[(size_t)K * N + 1] = value;
#endif
   }
}
