/*@gemmtop
name:     mygemm04_wide
title:    Wider data types: vector loads and stores
ladder:   mygemm
step:     4
about:    As step 2, but each work-item handles WIDTH neighbouring columns of C and moves data
about:    as real2 or real4 vectors: one 8- or 16-byte load of B and one store of C replace
about:    WIDTH scalar ones, so fewer memory instructions are issued and the loads are wider.
about:    A's tile is loaded as vectors along K and kept as scalars; the multiply-add works on
about:    a vector of WIDTH accumulators. (The tutorial also tried 8 wide; CUDA has no 8-wide
about:    type, so this portable version stops at 4.)
param:    TS = 32 in 8, 16, 32, 64 ; tile side
param:    WIDTH = 4 in 1, 2, 4 ; elements per vector
require:  TS % WIDTH == 0 ; TS must be a multiple of WIDTH
require:  M % TS == 0 ; M must be a multiple of TS
require:  N % TS == 0 ; N must be a multiple of TS
require:  K % TS == 0 ; K must be a multiple of TS
operands: A=N B=N
global:   N / WIDTH, M
local:    TS / WIDTH, TS
reuse:    A=TS B=TS
local_reuse: A=WIDTH B=1
localmem: 2 * TS * TS * REAL_SIZE
sites:    0=Asub store, 1=Bsub store, 2=Asub load, 3=Bsub load
*/
#define realW GT_REALN(WIDTH)
#define TSW (TS / WIDTH)
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_local_id(0), row = get_local_id(1); /* col counts vectors */
   const int gcol = get_global_id(0), grow = get_global_id(1);
   __local realW Asub[TS][TSW];
   __local realW Bsub[TS][TSW];
   const __global realW *Aw = (const __global realW *)A;
   const __global realW *Bw = (const __global realW *)B;
   realW acc = SPLAT_REALN(WIDTH, REAL_ZERO);
   const int tiles = K / TS;
   for (int t = 0; t < tiles; t++) {
      LDS_STORE(0, &Asub[row][col], GT_LOAD_AN(WIDTH, Aw[((size_t)grow * K + t * TS) / WIDTH + col]));
      LDS_STORE(1, &Bsub[row][col], GT_LOAD_BN(WIDTH, Bw[((size_t)(t * TS + row) * N) / WIDTH + gcol]));
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int kv = 0; kv < TSW; kv++) {
         const realW a = LDS_LOAD(2, &Asub[row][kv]);
#if WIDTH == 1
         GT_FMA(acc, a, LDS_LOAD(3, &Bsub[kv][col]));
#else
         GT_FMAN(WIDTH, acc, LDS_LOAD(3, &Bsub[kv * WIDTH + 0][col]), a.x);
         GT_FMAN(WIDTH, acc, LDS_LOAD(3, &Bsub[kv * WIDTH + 1][col]), a.y);
#if WIDTH == 4
         GT_FMAN(WIDTH, acc, LDS_LOAD(3, &Bsub[kv * WIDTH + 2][col]), a.z);
         GT_FMAN(WIDTH, acc, LDS_LOAD(3, &Bsub[kv * WIDTH + 3][col]), a.w);
#endif
#endif
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   __global realW *Cw = (__global realW *)C;
   const size_t idx = ((size_t)grow * N) / WIDTH + gcol;
   if (beta == REAL_ZERO)
      GT_STORE_CN(WIDTH, Cw[idx], acc * alpha);
   else
      GT_STORE_CN(WIDTH, Cw[idx], acc * alpha + Cw[idx] * beta);
}
