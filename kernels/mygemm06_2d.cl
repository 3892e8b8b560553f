/*@gemmtop
name:     mygemm06_2d
title:    2D register blocking
ladder:   mygemm
step:     6
about:    Each work-item computes a WPTM x WPTN block of C (rows RTSM = TSM/WPTM apart, columns
about:    RTSN = TSN/WPTN apart) from registers: per step along K it reads WPTN values of B and
about:    WPTM of A from local memory and does WPTM*WPTN multiply-adds, so local-memory traffic
about:    per multiply-add falls from 2 to 1/WPTM + 1/WPTN. Tiles are TSM x TSK of A (stored
about:    transposed, As[k][m]) and TSK x TSN of B; each work-item loads LPTA and LPTB elements.
param:    TSM = 128 in 16, 32, 64, 128 ; rows of C per work-group
param:    TSN = 64 in 16, 32, 64, 128 ; columns of C per work-group
param:    TSK = 8 in 8, 16, 32 ; tile depth along K
param:    WPTM = 4 in 1, 2, 4, 8 ; rows of C per work-item
param:    WPTN = 4 in 1, 2, 4, 8 ; columns of C per work-item
require:  TSM % WPTM == 0 && TSN % WPTN == 0 ; TSM must be a multiple of WPTM and TSN of WPTN
require:  (TSM * TSK) % ((TSM / WPTM) * (TSN / WPTN)) == 0 ; the A tile must split evenly over the work-items
require:  (TSN * TSK) % ((TSM / WPTM) * (TSN / WPTN)) == 0 ; the B tile must split evenly over the work-items
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
#define LPTA (TSM * TSK / NT)
#define LPTB (TSN * TSK / NT)
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int tx = get_local_id(0), ty = get_local_id(1);
   const int tid = ty * RTSN + tx;
   const int row0 = get_group_id(1) * TSM, col0 = get_group_id(0) * TSN;
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
         const int r = id / TSK, k = id % TSK;
         LDS_STORE(0, &Asub[k][r], GT_LOAD_A(A[(size_t)(row0 + r) * K + t * TSK + k]));
      }
      for (int l = 0; l < LPTB; l++) {
         const int id = tid + l * NT;
         const int k = id / TSN, c = id % TSN;
         LDS_STORE(1, &Bsub[k][c], GT_LOAD_B(B[(size_t)(t * TSK + k) * N + col0 + c]));
      }
      barrier(CLK_LOCAL_MEM_FENCE);
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
