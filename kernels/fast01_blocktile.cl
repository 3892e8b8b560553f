/*@gemmtop
name:     fast01_blocktile
title:    Block tiles, 4-wide loads, transposed A in local memory, double buffering
ladder:   fast
step:     1
about:    A work-group computes a BM x BN block of C; each work-item an (RM*4) x (RN*4) micro
about:    tile kept in registers. Tiles of A and B are read from global memory as real4 (one
about:    16-byte load each), A is stored transposed in local memory so that the inner loop
about:    reads both operands as real4 too, and each thread's rows (and columns) come in
about:    groups of 4 spaced BM/RM apart, so the lanes of a warp read neighbouring or
about:    identical addresses: the loads are conflict-free. The transposed store of A is not
about:    (2-way on the H100, as the bank view shows): a place to improve. Two local buffers let the next tile be
about:    loaded while the current one is multiplied (one barrier per step). Sizes that are
about:    not tile multiples are padded.
param:    BM = 128 in 32, 64, 128, 256 ; rows of C per work-group
param:    BN = 64 in 32, 64, 128, 256 ; columns of C per work-group
param:    BK = 16 in 4, 8, 16, 32 ; depth of one step along K
param:    RM = 2 in 1, 2 ; groups of 4 rows per work-item (micro tile height 4*RM)
param:    RN = 2 in 1, 2 ; groups of 4 columns per work-item (micro tile width 4*RN)
require:  BM % (4 * RM) == 0 && BN % (4 * RN) == 0 ; BM and BN must split into micro tiles
require:  (BM * BK) % (4 * (BM / (4 * RM)) * (BN / (4 * RN))) == 0 ; the A tile must split into real4 loads, the same number per work-item
require:  (BN * BK) % (4 * (BM / (4 * RM)) * (BN / (4 * RN))) == 0 ; the B tile must split into real4 loads, the same number per work-item
require:  (BM / (4 * RM)) * (BN / (4 * RN)) >= 32 ; at least one warp of work-items
operands: A=N B=N
pad:      M=BM N=BN K=BK
global:   N / (4 * RN), M / (4 * RM)
local:    BN / (4 * RN), BM / (4 * RM)
reuse:    A=BN B=BM
local_reuse: A=4*RN B=4*RM
localmem: 2 * BK * (BM + BN) * REAL_SIZE
sites:    0=A store (transposed), 1=B store, 2=A load, 3=B load
*/
#define TX (BN / (4 * RN))          /* work-items along N */
#define TY (BM / (4 * RM))          /* work-items along M */
#define NT (TX * TY)
#define LA (BM * BK / 4 / NT)       /* real4 loads of A per work-item and step */
#define LB (BK * BN / 4 / NT)       /* real4 loads of B per work-item and step */

__kernel GT_WORKGROUP(TX, TY, 1) void gemm(const int M, const int N, const int K, const real alpha,
                   const __global real* A, const __global real* B,
                   const real beta, __global real* C GT_TRACE_PARAM) {
   /* 16-byte aligned, or NVIDIA's OpenCL compiler splits each real4 load into four. */
   __local real As[2][BK][BM] __attribute__((aligned(16)));
   __local real Bs[2][BK][BN] __attribute__((aligned(16)));
   const int tx = get_local_id(0), ty = get_local_id(1);
   const int tid = ty * TX + tx;
   const int row0 = get_group_id(1) * BM, col0 = get_group_id(0) * BN;
   const __global real4 *A4 = (const __global real4 *)A;
   const __global real4 *B4 = (const __global real4 *)B;

   real4 ra[LA], rb[LB];
   real acc[4 * RM][4 * RN];
   for (int i = 0; i < 4 * RM; i++)
      for (int j = 0; j < 4 * RN; j++)
         acc[i][j] = REAL_ZERO;

   /* Global -> registers for the step starting at k0. */
#define LOAD_GLOBAL(k0)                                                                   \
   for (int l = 0; l < LA; l++) {                                                         \
      const int v = tid + l * NT, r = v / (BK / 4), c = v % (BK / 4);                     \
      ra[l] = GT_LOAD_AN(4, A4[((size_t)(row0 + r) * K + (k0)) / 4 + c]);                 \
   }                                                                                      \
   for (int l = 0; l < LB; l++) {                                                         \
      const int v = tid + l * NT, r = v / (BN / 4), c = v % (BN / 4);                     \
      rb[l] = GT_LOAD_BN(4, B4[((size_t)((k0) + r) * N + col0) / 4 + c]);                 \
   }
   /* Registers -> local buffer s: A transposed (As[k][m]), B as is. */
#define STORE_LOCAL(s)                                                                    \
   for (int l = 0; l < LA; l++) {                                                         \
      const int v = tid + l * NT, r = v / (BK / 4), c = (v % (BK / 4)) * 4;              \
      LDS_STORE(0, &As[s][c + 0][r], ra[l].x);                                            \
      LDS_STORE(0, &As[s][c + 1][r], ra[l].y);                                            \
      LDS_STORE(0, &As[s][c + 2][r], ra[l].z);                                            \
      LDS_STORE(0, &As[s][c + 3][r], ra[l].w);                                            \
   }                                                                                      \
   for (int l = 0; l < LB; l++) {                                                         \
      const int v = tid + l * NT, r = v / (BN / 4), c = (v % (BN / 4)) * 4;              \
      LDS_STORE(1, (LOCAL_PTR real4 *)&Bs[s][r][c], rb[l]);                               \
   }

   LOAD_GLOBAL(0);
   STORE_LOCAL(0);
   barrier(CLK_LOCAL_MEM_FENCE);
   const int steps = K / BK;
   for (int t = 0; t < steps; t++) {
      const int cur = t & 1;
      if (t + 1 < steps) {
         LOAD_GLOBAL((t + 1) * BK);
      }
      GT_UNROLL /* #pragma unroll; by four on a CPU, which compiles that faster */
      for (int k = 0; k < BK; k++) {
         real4 a[RM], b[RN];
         for (int i = 0; i < RM; i++)
            a[i] = LDS_LOAD(2, (LOCAL_PTR real4 *)&As[cur][k][ty * 4 + i * (BM / RM)]);
         for (int j = 0; j < RN; j++)
            b[j] = LDS_LOAD(3, (LOCAL_PTR real4 *)&Bs[cur][k][tx * 4 + j * (BN / RN)]);
         for (int i = 0; i < RM; i++)
            for (int j = 0; j < RN; j++) {
               const real ai[4] = {a[i].x, a[i].y, a[i].z, a[i].w};
               const real bj[4] = {b[j].x, b[j].y, b[j].z, b[j].w};
               for (int ii = 0; ii < 4; ii++)
                  for (int jj = 0; jj < 4; jj++)
                     GT_MAD(acc[i * 4 + ii][j * 4 + jj], ai[ii], bj[jj]);
            }
      }
      if (t + 1 < steps) {
         STORE_LOCAL(cur ^ 1);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }

   for (int i = 0; i < RM; i++)
      for (int ii = 0; ii < 4; ii++) {
         const int row = row0 + ty * 4 + i * (BM / RM) + ii;
         for (int j = 0; j < RN; j++) {
            const int col = col0 + tx * 4 + j * (BN / RN);
            __global real4 *c4 = (__global real4 *)&C[(size_t)row * N + col];
            real4 v = MAKE_REAL4(acc[i * 4 + ii][j * 4 + 0], acc[i * 4 + ii][j * 4 + 1], acc[i * 4 + ii][j * 4 + 2],
                                 acc[i * 4 + ii][j * 4 + 3]);
            v = v * alpha;
            if (beta != REAL_ZERO)
               v = v + *c4 * beta;
            GT_STORE_CN(4, *c4, v);
         }
      }
}
