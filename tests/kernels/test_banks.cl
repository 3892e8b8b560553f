/*@gemmtop
name:     test_banks
title:    Synthetic local-memory access patterns (bank-conflict tests)
ladder:   test
step:     0
hidden:   yes
about:    Each work-group of 32 work-items stores and then loads one vector of VEC floats at
about:    word index lane*STRIDE*VEC (STRIDE 0: every lane the same address, a broadcast),
about:    so the bank-conflict analysis can be checked against patterns whose answer is
about:    known. The GEMM itself is the naive one and is correct.
param:    STRIDE = 1 in 0, 1, 2, 4, 8, 16, 32, 33 ; vectors between neighbouring lanes
param:    VEC = 1 in 1, 2, 4 ; floats per access (4, 8 or 16 bytes)
require:  N % 32 == 0 ; N must be a multiple of 32
operands: any
global:   N, M
local:    32, 1
localmem: 32 * 33 * 4 * 4 + 16
sites:    0=pattern store, 1=pattern load
*/
#define GT_VEC_FLOAT_1 float
#define GT_VEC_FLOAT_2 float2
#define GT_VEC_FLOAT_4 float4
#define VTYPE GT_CAT(GT_VEC_FLOAT_, VEC)
#define GT_SPLAT_1(x) (x)
#define GT_SPLAT_2(x) SPLAT_FLOAT2(x)
#define GT_SPLAT_4(x) SPLAT_FLOAT4(x)
#define SPLAT GT_CAT(GT_SPLAT_, VEC)

__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   __local float buf[32 * 33 * 4 + 4];
   const int lane = get_local_id(0);
   LOCAL_PTR VTYPE *slot = (LOCAL_PTR VTYPE *)&buf[lane * STRIDE * VEC];
   LDS_STORE(0, slot, SPLAT((float)lane));
   barrier(CLK_LOCAL_MEM_FENCE);
   const VTYPE got = LDS_LOAD(1, slot);
   barrier(CLK_LOCAL_MEM_FENCE);
   /* Every component is used, so the compiler keeps the load as wide as written. */
#if VEC == 1
   const float probe = got;
#elif VEC == 2
   const float probe = got.x + got.y;
#else
   const float probe = got.x + got.y + got.z + got.w;
#endif
   const int col = get_global_id(0);
   const int row = get_global_id(1);
   real acc = REAL_ZERO;
   for (int k = 0; k < K; k++) {
#if TRANSA
      const real a = A[k * M + row];
#else
      const real a = A[row * K + k];
#endif
#if TRANSB
      const real b = B[col * K + k];
#else
      const real b = B[k * N + col];
#endif
      acc += a * b;
   }
   /* probe - probe is 0 for the finite values stored above; it keeps the accesses alive. */
   acc += (real)(probe - probe);
   const int idx = row * N + col;
   C[idx] = beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx];
}
