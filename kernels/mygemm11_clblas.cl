/*@gemmtop
name:     mygemm11_clblas
title:    clBlas style: register tiles straight from global memory
ladder:   mygemm
step:     11
about:    The approach of AMD's clBlas kernels that the tutorial compared against: no local
about:    memory at all. Each work-item computes an MT x NT block of C, reading its MT rows of A
about:    as real4 vectors along K and, for each k, an NT-wide vector of B along N, with the K
about:    loop unrolled four at a time. Reuse comes from registers and the caches only, so it
about:    depends on how well the L1/L2 caches serve neighbouring work-items.
param:    MT = 4 in 2, 4, 8 ; rows of C per work-item
param:    NT = 4 in 2, 4 ; columns of C per work-item (one vector)
param:    WGX = 16 in 8, 16, 32 ; work-items per group along N
param:    WGY = 16 in 4, 8, 16, 32 ; work-items per group along M
require:  M % (MT * WGY) == 0 ; M must be a multiple of MT*WGY
require:  N % (NT * WGX) == 0 ; N must be a multiple of NT*WGX
require:  K % 4 == 0 ; K must be a multiple of 4
operands: A=N B=N
global:   N / NT, M / MT
local:    WGX, WGY
reuse:    A=NT B=MT
*/
#define realN GT_REALN(NT)
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int cv = get_global_id(0);          /* vector column of C */
   const int r0 = get_global_id(1) * MT;     /* first row of C */
   const __global real4 *A4 = (const __global real4 *)A;
   const __global realN *Bn = (const __global realN *)B;
   realN acc[MT];
   for (int i = 0; i < MT; i++)
      acc[i] = SPLAT_REALN(NT, REAL_ZERO);
   for (int k = 0; k < K; k += 4) {
      const realN b0 = GT_LOAD_BN(NT, Bn[((size_t)(k + 0) * N) / NT + cv]);
      const realN b1 = GT_LOAD_BN(NT, Bn[((size_t)(k + 1) * N) / NT + cv]);
      const realN b2 = GT_LOAD_BN(NT, Bn[((size_t)(k + 2) * N) / NT + cv]);
      const realN b3 = GT_LOAD_BN(NT, Bn[((size_t)(k + 3) * N) / NT + cv]);
      for (int i = 0; i < MT; i++) {
         const real4 a = GT_LOAD_AN(4, A4[((size_t)(r0 + i) * K + k) / 4]);
         GT_FMAN(NT, acc[i], b0, a.x);
         GT_FMAN(NT, acc[i], b1, a.y);
         GT_FMAN(NT, acc[i], b2, a.z);
         GT_FMAN(NT, acc[i], b3, a.w);
      }
   }
   __global realN *Cn = (__global realN *)C;
   for (int i = 0; i < MT; i++) {
      const size_t idx = ((size_t)(r0 + i) * N) / NT + cv;
      if (beta == REAL_ZERO)
         GT_STORE_CN(NT, Cn[idx], acc[i] * alpha);
      else
         GT_STORE_CN(NT, Cn[idx], acc[i] * alpha + Cn[idx] * beta);
   }
}
