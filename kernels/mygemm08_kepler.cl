/*@gemmtop
name:     mygemm08_kepler
title:    The CUDA/Kepler flavour: read-only loads, fixed group size, unrolled steps
ladder:   mygemm
step:     8
about:    The tutorial's kernel 8 was written in CUDA for Kepler: __ldg read-only loads and warp
about:    shuffles that pass B's values between lanes instead of through shared memory. OpenCL
about:    1.2 has no portable shuffle, so here the exchange stays in local memory (as in step
about:    7, whose kernel this is); what carries over is the read-only path (const restrict
about:    pointers, which NVIDIA's compilers turn into read-only/__ldg loads), a work-group
about:    size fixed at compile time (reqd_work_group_size / __launch_bounds__, so registers are
about:    budgeted for it) and a fully unrolled inner loop. Compare registers and time with
about:    step 7 in inspect.
param:    TSM = 64 in 32, 64, 128 ; rows of C per work-group
param:    TSN = 128 in 32, 64, 128 ; columns of C per work-group
param:    TSK = 8 in 8, 16, 32 ; tile depth along K
param:    WPTM = 8 in 2, 4, 8 ; rows of C per work-item
param:    WPTN = 8 in 2, 4, 8 ; columns of C per work-item
param:    WIDTH = 4 in 1, 2, 4 ; elements per global load
require:  TSM % WPTM == 0 && TSN % WPTN == 0 ; TSM must be a multiple of WPTM and TSN of WPTN
require:  TSK % WIDTH == 0 && TSN % WIDTH == 0 ; TSK and TSN must be multiples of WIDTH
require:  (TSM * TSK / WIDTH) % ((TSM / WPTM) * (TSN / WPTN)) == 0 ; the A tile must split evenly into vector loads
require:  (TSN * TSK / WIDTH) % ((TSM / WPTM) * (TSN / WPTN)) == 0 ; the B tile must split evenly into vector loads
require:  M % TSM == 0 ; M must be a multiple of TSM
require:  N % TSN == 0 ; N must be a multiple of TSN
require:  K % TSK == 0 ; K must be a multiple of TSK
operands: A=N B=N
global:   N / WPTN, M / WPTM
local:    TSN / WPTN, TSM / WPTM
reuse:    A=TSN B=TSM
local_reuse: A=WPTN B=WPTM
localmem: (TSK * TSM + TSK * TSN) * REAL_SIZE
sites:    0=Asub store (transposed), 1=Bsub store, 2=Asub load, 3=Bsub load
*/
#define RTSM (TSM / WPTM)
#define RTSN (TSN / WPTN)
#define NT (RTSM * RTSN)
#define LPTA (TSM * TSK / WIDTH / NT)
#define LPTB (TSN * TSK / WIDTH / NT)
#define realW GT_REALN(WIDTH)
__kernel GT_WORKGROUP(TSN / WPTN, TSM / WPTM, 1)
void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* restrict A, const __global real* restrict B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int tx = get_local_id(0), ty = get_local_id(1);
   const int tid = ty * RTSN + tx;
   const int row0 = get_group_id(1) * TSM, col0 = get_group_id(0) * TSN;
   const __global realW *restrict Aw = (const __global realW *)A;
   const __global realW *restrict Bw = (const __global realW *)B;
   __local real Asub[TSK][TSM];
   __local real Bsub[TSK][TSN];
   real acc[WPTM][WPTN];
   for (int wm = 0; wm < WPTM; wm++)
      for (int wn = 0; wn < WPTN; wn++)
         acc[wm][wn] = REAL_ZERO;
   real breg[WPTN];
   const int tiles = K / TSK;
   for (int t = 0; t < tiles; t++) {
      for (int l = 0; l < LPTA; l++) {
         const int id = tid + l * NT;
         const int r = id / (TSK / WIDTH), kv = id % (TSK / WIDTH);
         const realW v = GT_LOAD_AN(WIDTH, Aw[((size_t)(row0 + r) * K + t * TSK) / WIDTH + kv]);
#if WIDTH == 1
         LDS_STORE(0, &Asub[kv][r], v);
#else
         LDS_STORE(0, &Asub[kv * WIDTH + 0][r], v.x);
         LDS_STORE(0, &Asub[kv * WIDTH + 1][r], v.y);
#if WIDTH == 4
         LDS_STORE(0, &Asub[kv * WIDTH + 2][r], v.z);
         LDS_STORE(0, &Asub[kv * WIDTH + 3][r], v.w);
#endif
#endif
      }
      for (int l = 0; l < LPTB; l++) {
         const int id = tid + l * NT;
         const int k = id / (TSN / WIDTH), cv = id % (TSN / WIDTH);
         LDS_STORE(1, (LOCAL_PTR realW *)&Bsub[k][cv * WIDTH], GT_LOAD_BN(WIDTH, Bw[((size_t)(t * TSK + k) * N + col0) / WIDTH + cv]));
      }
      barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
      for (int k = 0; k < TSK; k++) {
         for (int wn = 0; wn < WPTN; wn++)
            breg[wn] = LDS_LOAD(3, &Bsub[k][tx + wn * RTSN]);
         for (int wm = 0; wm < WPTM; wm++) {
            const real a = LDS_LOAD(2, &Asub[k][ty + wm * RTSM]);
            for (int wn = 0; wn < WPTN; wn++)
               GT_FMA(acc[wm][wn], a, breg[wn]);
         }
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   for (int wm = 0; wm < WPTM; wm++)
      for (int wn = 0; wn < WPTN; wn++) {
         const size_t idx = (size_t)(row0 + ty + wm * RTSM) * N + col0 + tx + wn * RTSN;
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[wm][wn] : alpha * acc[wm][wn] + beta * C[idx]);
      }
}
