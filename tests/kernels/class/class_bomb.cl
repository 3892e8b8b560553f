/*@gemmtop
name:     class_bomb
title:    A compile bomb (for the class server's tests)
ladder:   test
step:     1
hidden:   yes
about:    Macros that expand to 2^48 terms: a compile that never ends.
param:    TS = 16 in 8, 16 ; work-group side
require:  M % TS == 0 && N % TS == 0 ; M and N multiples of TS
operands: any
global:   N, M
local:    TS, TS
*/
#define X0 A[0]
#define X1 (X0 + X0)
#define X2 (X1 + X1)
#define X3 (X2 + X2)
#define X4 (X3 + X3)
#define X5 (X4 + X4)
#define X6 (X5 + X5)
#define X7 (X6 + X6)
#define X8 (X7 + X7)
#define X9 (X8 + X8)
#define X10 (X9 + X9)
#define X11 (X10 + X10)
#define X12 (X11 + X11)
#define X13 (X12 + X12)
#define X14 (X13 + X13)
#define X15 (X14 + X14)
#define X16 (X15 + X15)
#define X17 (X16 + X16)
#define X18 (X17 + X17)
#define X19 (X18 + X18)
#define X20 (X19 + X19)
#define X21 (X20 + X20)
#define X22 (X21 + X21)
#define X23 (X22 + X22)
#define X24 (X23 + X23)
#define X25 (X24 + X24)
#define X26 (X25 + X25)
#define X27 (X26 + X26)
#define X28 (X27 + X27)
#define X29 (X28 + X28)
#define X30 (X29 + X29)
#define X31 (X30 + X30)
#define X32 (X31 + X31)
#define X33 (X32 + X32)
#define X34 (X33 + X33)
#define X35 (X34 + X34)
#define X36 (X35 + X35)
#define X37 (X36 + X36)
#define X38 (X37 + X37)
#define X39 (X38 + X38)
#define X40 (X39 + X39)
#define X41 (X40 + X40)
#define X42 (X41 + X41)
#define X43 (X42 + X42)
#define X44 (X43 + X43)
#define X45 (X44 + X44)
#define X46 (X45 + X45)
#define X47 (X46 + X46)
#define X48 (X47 + X47)
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
   acc += X48;
   GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx]);
}
