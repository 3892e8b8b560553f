/*@gemmtop
name:     mygemm05_transposed
title:    Transposed B and rectangular tiles
ladder:   mygemm
step:     5
about:    B arrives transposed (N x K, transposed beforehand by a helper kernel when it is not
about:    stored so), so both operands are read along K: a work-group loads a TS x TSDK tile of
about:    A and of B, each work-item LPT = TSDK*WPT/TS elements of each, coalesced along K.
about:    B's tile is written into local memory transposed, Bsub[k][n]: neighbouring work-items
about:    write neighbouring k, TS+PADDING words apart. With TS=32 and no padding a warp's
about:    stores pile into one bank (32-way with TSDK=32, 16-way with TSDK=16: see the bank
about:    view). With TSDK=32 one word of padding spreads them over all 32 banks; with TSDK=16
about:    a warp writes two half-columns, which one word still maps two-to-a-bank: it takes 2.
about:    Each work-item computes WPT rows of C, as in step 3.
param:    TS = 32 in 16, 32, 64 ; tile side along M and N
param:    TSDK = 32 in 8, 16, 32 ; tile depth along K
param:    WPT = 16 in 1, 2, 4, 8, 16 ; rows of C per work-item
param:    PADDING = 0 in 0, 1, 2 ; extra words per row of the transposed B tile in local memory
require:  TS % WPT == 0 ; TS must be a multiple of WPT
require:  (TSDK * WPT) % TS == 0 ; each work-item must load the same number of elements (TSDK*WPT a multiple of TS)
require:  M % TS == 0 ; M must be a multiple of TS
require:  N % TS == 0 ; N must be a multiple of TS
require:  K % TSDK == 0 ; K must be a multiple of TSDK
operands: A=N B=T
global:   N, M / WPT
local:    TS, TS / WPT
reuse:    A=TS B=TS
local_reuse: A=1 B=WPT
localmem: (TS * TSDK + TSDK * (TS + PADDING)) * REAL_SIZE
sites:    0=Asub store, 1=Bsub store (transposed), 2=Asub load, 3=Bsub load
*/
#define RTS (TS / WPT)
#define LPT (TSDK * WPT / TS)
__kernel void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   const int col = get_local_id(0), row = get_local_id(1);
   const int tid = row * TS + col;
   const int row0 = get_group_id(1) * TS, col0 = get_group_id(0) * TS;
   __local real Asub[TS][TSDK];
   __local real Bsub[TSDK][TS + PADDING];
   real acc[WPT];
   for (int w = 0; w < WPT; w++)
      acc[w] = REAL_ZERO;
   const int tiles = K / TSDK;
   for (int t = 0; t < tiles; t++) {
      for (int l = 0; l < LPT; l++) {
         const int id = tid + l * TS * RTS;
         const int r = id / TSDK, k = id % TSDK;
         LDS_STORE(0, &Asub[r][k], GT_LOAD_A(A[(size_t)(row0 + r) * K + t * TSDK + k]));
         /* B is N x K: element (k, n) is B[n*K + k]; stored transposed, Bsub[k][n]. */
         LDS_STORE(1, &Bsub[k][r], GT_LOAD_B(B[(size_t)(col0 + r) * K + t * TSDK + k]));
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int k = 0; k < TSDK; k++) {
         const real b = LDS_LOAD(3, &Bsub[k][col]);
         for (int w = 0; w < WPT; w++)
            GT_FMA(acc[w], LDS_LOAD(2, &Asub[row + w * RTS][k]), b);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   for (int w = 0; w < WPT; w++) {
      const size_t idx = (size_t)(row0 + row + w * RTS) * N + col0 + col;
      GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[w] : alpha * acc[w] + beta * C[idx]);
   }
}
