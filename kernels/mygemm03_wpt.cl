/*@gemmtop
name:     mygemm03_wpt
title:    More work per thread
ladder:   mygemm
step:     3
about:    As step 2, but each work-item computes WPT elements of C, in rows RTS = TS/WPT apart,
about:    so a group has TS x RTS work-items. An element of B read from local memory now
about:    serves WPT multiply-adds from registers, there are fewer work-items to schedule, and
about:    each loads WPT elements of each tile. The accumulators live in registers.
param:    TS = 32 in 8, 16, 32, 64 ; tile side
param:    WPT = 8 in 1, 2, 4, 8, 16 ; elements of C per work-item (rows)
require:  TS % WPT == 0 ; TS must be a multiple of WPT
require:  M % TS == 0 ; M must be a multiple of TS
require:  N % TS == 0 ; N must be a multiple of TS
require:  K % TS == 0 ; K must be a multiple of TS
operands: A=N B=N
global:   N, M / WPT
local:    TS, TS / WPT
reuse:    A=TS B=TS
local_reuse: A=1 B=WPT
localmem: 2 * TS * TS * REAL_SIZE
sites:    0=Asub store, 1=Bsub store, 2=Asub load, 3=Bsub load
*/
#define RTS (TS / WPT)
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_local_id(0), row = get_local_id(1);
   const int gcol = get_group_id(0) * TS + col, grow = get_group_id(1) * TS + row;
   __local real Asub[TS][TS];
   __local real Bsub[TS][TS];
   real acc[WPT];
   for (int w = 0; w < WPT; w++)
      acc[w] = REAL_ZERO;
   const int tiles = K / TS;
   for (int t = 0; t < tiles; t++) {
      for (int w = 0; w < WPT; w++) {
         LDS_STORE(0, &Asub[row + w * RTS][col], GT_LOAD_A(A[(size_t)(grow + w * RTS) * K + t * TS + col]));
         LDS_STORE(1, &Bsub[row + w * RTS][col], GT_LOAD_B(B[(size_t)(t * TS + row + w * RTS) * N + gcol]));
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int k = 0; k < TS; k++) {
         const real b = LDS_LOAD(3, &Bsub[k][col]);
         for (int w = 0; w < WPT; w++)
            GT_FMA(acc[w], LDS_LOAD(2, &Asub[row + w * RTS][k]), b);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   for (int w = 0; w < WPT; w++) {
      const size_t idx = (size_t)(grow + w * RTS) * N + gcol;
      GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[w] : alpha * acc[w] + beta * C[idx]);
   }
}
