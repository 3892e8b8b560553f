/*@gemmtop
name:     test_dead_loop
title:    Deliberately badly ablated (for the tests): const-store lets the compiler drop the loop
ladder:   test
step:     4
hidden:   yes
about:    A naive kernel whose const-store ablation writes the constant straight into C instead
about:    of through GT_STORE_C, so nothing reads the sum: the compiler removes the loop and
about:    the ablated figure would time an empty kernel. inspect --ablate const-store must say
about:    the loop was optimised out; the other ablations keep it.
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
      const real a = GT_LOAD_A(TRANSA ? A[(size_t)k * M + row] : A[(size_t)row * K + k]);
      const real b = GT_LOAD_B(TRANSB ? B[(size_t)col * K + k] : B[(size_t)k * N + col]);
      GT_FMA(acc, a, b);
   }
   const size_t at = (size_t)row * N + col;
#if GT_ABLATE_CONST_STORE
   C[at] = (real)GT_ABLATE_CONSTANT; /* the mistake: the sum is never used */
#else
   GT_STORE_C(C[at], beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[at]);
#endif
}
