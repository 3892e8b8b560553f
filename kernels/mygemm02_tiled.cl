/*@gemmtop
name:     mygemm02_tiled
title:    Tiling in local memory
ladder:   mygemm
step:     2
about:    A work-group computes a TS x TS tile of C. Step by step along K, its work-items copy a
about:    TS x TS tile of A and of B into local memory (one element each), wait at a barrier,
about:    and multiply the tiles from there: each element read from global memory now serves
about:    TS multiply-adds instead of one. A is read along rows (broadcast within a warp), B
about:    along columns (consecutive addresses): no bank conflicts.
param:    TS = 32 in 4, 8, 16, 32 ; tile side: work-items per group along N and M
require:  M % TS == 0 ; M must be a multiple of TS
require:  N % TS == 0 ; N must be a multiple of TS
require:  K % TS == 0 ; K must be a multiple of TS
operands: A=N B=N
global:   N, M
local:    TS, TS
reuse:    A=TS B=TS
local_reuse: A=1 B=1
localmem: 2 * TS * TS * REAL_SIZE
sites:    0=Asub store, 1=Bsub store, 2=Asub load, 3=Bsub load
*/
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_local_id(0), row = get_local_id(1);
   const int gcol = get_global_id(0), grow = get_global_id(1);
   __local real Asub[TS][TS];
   __local real Bsub[TS][TS];
   real acc = REAL_ZERO;
   const int tiles = K / TS;
   for (int t = 0; t < tiles; t++) {
      LDS_STORE(0, &Asub[row][col], GT_LOAD_A(A[(size_t)grow * K + t * TS + col]));
      LDS_STORE(1, &Bsub[row][col], GT_LOAD_B(B[(size_t)(t * TS + row) * N + gcol]));
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int k = 0; k < TS; k++)
         GT_FMA(acc, LDS_LOAD(2, &Asub[row][k]), LDS_LOAD(3, &Bsub[k][col]));
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   const size_t idx = (size_t)grow * N + gcol;
   GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc : alpha * acc + beta * C[idx]);
}
