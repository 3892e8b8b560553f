/*@gemmtop
name:     mygemm10_padding
title:    Any matrix size: padding helper kernels
ladder:   mygemm
step:     10
about:    Step 9's kernel, made to accept every M, N and K: before it runs, helper kernels copy
about:    A and B into zero-filled buffers rounded up to the tile sizes (transposing on the way
about:    when the layout asks for it), and after it another copies the M x N result out of the
about:    padded C. The zeros add nothing to the dot products. The helpers' time is shown apart
about:    from the GEMM kernel's; at tile-multiple sizes they do not run at all.
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
operands: A=N B=N
pad:      M=TSM N=TSN K=TSK
global:   N / WPTN, M / WPTM
local:    TSN / WPTN, TSM / WPTM
reuse:    A=TSN B=TSM
local_reuse: A=WPTN B=WPTM
localmem: 2 * (TSK * TSM + TSK * TSN) * REAL_SIZE
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
   __local real Asub[2][TSK][TSM];
   __local real Bsub[2][TSK][TSN];
   real acc[WPTM][WPTN];
   for (int wm = 0; wm < WPTM; wm++)
      for (int wn = 0; wn < WPTN; wn++)
         acc[wm][wn] = REAL_ZERO;
   real breg[WPTN];
   realW pa[LPTA], pb[LPTB];
   const int tiles = K / TSK;
   /* Global -> registers for tile t; registers -> local buffer s. */
#define FETCH(t)                                                                           \
   for (int l = 0; l < LPTA; l++) {                                                        \
      const int id = tid + l * NT, r = id / (TSK / WIDTH), kv = id % (TSK / WIDTH);        \
      pa[l] = GT_LOAD_AN(WIDTH, Aw[((size_t)(row0 + r) * K + (t) * TSK) / WIDTH + kv]);     \
   }                                                                                       \
   for (int l = 0; l < LPTB; l++) {                                                        \
      const int id = tid + l * NT, k = id / (TSN / WIDTH), cv = id % (TSN / WIDTH);        \
      pb[l] = GT_LOAD_BN(WIDTH, Bw[((size_t)((t) * TSK + k) * N + col0) / WIDTH + cv]);     \
   }
#if WIDTH == 1
#define PUT_A(s, kv, r, v) LDS_STORE(0, &Asub[s][kv][r], v)
#elif WIDTH == 2
#define PUT_A(s, kv, r, v)                                                                 \
   LDS_STORE(0, &Asub[s][(kv) * 2 + 0][r], (v).x);                                         \
   LDS_STORE(0, &Asub[s][(kv) * 2 + 1][r], (v).y)
#else
#define PUT_A(s, kv, r, v)                                                                 \
   LDS_STORE(0, &Asub[s][(kv) * 4 + 0][r], (v).x);                                         \
   LDS_STORE(0, &Asub[s][(kv) * 4 + 1][r], (v).y);                                         \
   LDS_STORE(0, &Asub[s][(kv) * 4 + 2][r], (v).z);                                         \
   LDS_STORE(0, &Asub[s][(kv) * 4 + 3][r], (v).w)
#endif
#define PUT(s)                                                                             \
   for (int l = 0; l < LPTA; l++) {                                                        \
      const int id = tid + l * NT, r = id / (TSK / WIDTH), kv = id % (TSK / WIDTH);        \
      PUT_A(s, kv, r, pa[l]);                                                              \
   }                                                                                       \
   for (int l = 0; l < LPTB; l++) {                                                        \
      const int id = tid + l * NT, k = id / (TSN / WIDTH), cv = id % (TSN / WIDTH);        \
      LDS_STORE(1, (LOCAL_PTR realW *)&Bsub[s][k][cv * WIDTH], pb[l]);                     \
   }
   FETCH(0);
   PUT(0);
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int t = 0; t < tiles; t++) {
      const int cur = t & 1;
      if (t + 1 < tiles) {
         FETCH(t + 1);
      }
#pragma unroll
      for (int k = 0; k < TSK; k++) {
         for (int wn = 0; wn < WPTN; wn++)
            breg[wn] = LDS_LOAD(3, &Bsub[cur][k][tx + wn * RTSN]);
         for (int wm = 0; wm < WPTM; wm++) {
            const real a = LDS_LOAD(2, &Asub[cur][k][ty + wm * RTSM]);
            for (int wn = 0; wn < WPTN; wn++)
               GT_FMA(acc[wm][wn], a, breg[wn]);
         }
      }
      if (t + 1 < tiles) {
         PUT(cur ^ 1);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }
   for (int wm = 0; wm < WPTM; wm++)
      for (int wn = 0; wn < WPTN; wn++) {
         const size_t idx = (size_t)(row0 + ty + wm * RTSM) * N + col0 + tx + wn * RTSN;
         GT_STORE_C(C[idx], beta == REAL_ZERO ? alpha * acc[wm][wn] : alpha * acc[wm][wn] + beta * C[idx]);
      }
}
