/*@gemmtop
name:     class_outside
title:    Writes just outside C besides the right answer (for the class server's tests)
ladder:   test
step:     1
hidden:   yes
about:    class_honest, whose first work-item also writes C[M*N+7] and C[-3]: every element of
about:    C is right, and on a GPU the two stray writes land in another buffer.
param:    TS = 16 in 8, 16 ; work-group side
require:  M % TS == 0 && N % TS == 0 ; M and N multiples of TS
operands: any
global:   N, M
local:    TS, TS
*/
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   real acc = REAL_ZERO;
   for (int k = 0; k < K; k++) {
#if TRANSA
      const real a = GT_LOAD_A(A[k * M + row]);
#else
      const real a = GT_LOAD_A(A[row * K + k]);
#endif
#if TRANSB
      const real b = GT_LOAD_B(B[col * K + k]);
#else
      const real b = GT_LOAD_B(B[k * N + col]);
#endif
      GT_FMA(acc, a, b);
   }
   const int idx = row * N + col;
   GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx]);
   if (idx == 0) {
      C[M * N + 7] = acc;
      C[-3] = acc;
   }
}
