/*@gemmtop
name:     magma_fermi
title:    MAGMA Fermi GEMM: 64x64 block tile, 4x4 strided per thread, register prefetch
ladder:   magma
step:     1
about:    The GEMM of "An Improved MAGMA GEMM for Fermi GPUs" (Nath, Tomov, Dongarra, 2010),
about:    written with compile-time constants as in the experiment log. A work-group of
about:    DIM_X x DIM_Y work-items (16 x 16) computes a BLK_M x BLK_N block of C (64 x 64);
about:    each work-item a 4 x 4 register block whose rows are DIM_X apart and columns DIM_Y
about:    apart, so that neighbouring work-items always touch neighbouring addresses (the
about:    stores of C and the local-memory reads coalesce instead of each work-item owning a
about:    contiguous 4 x 4 square). K advances by BLK_K (16). The tiles of the two operands
about:    are staged in local memory (padded by one element against bank conflicts); for
about:    the loads the work-group is reshaped to DIM_XA x DIM_YA (the BLK_M x BLK_K tile)
about:    and DIM_XB x DIM_YB (the BLK_K x BLK_N tile), each shape chosen so that a warp reads
about:    consecutive addresses. While one tile is multiplied, the next is already loaded
about:    from global memory into registers (the paper's prefetch), then written to local
about:    memory between two barriers.
about:    Storage: MAGMA and BLAS are column-major. gemmtop's matrices are row-major, and a
about:    row-major C = A*B is, read as column-major, C^T = B^T A^T: so this kernel is MAGMA's
about:    column-major NN kernel applied to (B, A), with MAGMA's M = gemmtop's N and MAGMA's N
about:    = gemmtop's M. In the code, "Am" (MAGMA's A, BLK_M side) is gemmtop's B and "Bm" is
about:    gemmtop's A; --ablate no-a still means gemmtop's A (MAGMA's B).
about:    Try the log's ablation method on it: gemmtop run --preset magma-1-fermi --ablate
about:    no-a,no-b (loads off), then no-fma, then const-store (docs/lesson-magma.md).
param:    DIM_X = 16 in 8, 16, 32 ; work-items per group along MAGMA's M (gemmtop's N, dimension 0)
param:    DIM_Y = 16 in 4, 8, 16, 32 ; work-items per group along MAGMA's N (gemmtop's M)
param:    BLK_M = 64 in 32, 64, 96, 128 ; block of C along MAGMA's M (gemmtop's N, columns of C)
param:    BLK_N = 64 in 32, 64, 96, 128 ; block of C along MAGMA's N (gemmtop's M, rows of C)
param:    BLK_K = 16 in 8, 16, 32 ; depth of one step along K
param:    DIM_XA = 16 in 8, 16, 32, 64 ; load shape of the BLK_M x BLK_K tile: work-items along BLK_M
param:    DIM_YA = 16 in 4, 8, 16, 32 ; ... and along BLK_K (DIM_XA * DIM_YA = DIM_X * DIM_Y)
param:    DIM_XB = 16 in 4, 8, 16, 32 ; load shape of the BLK_K x BLK_N tile: work-items along BLK_K
param:    DIM_YB = 16 in 8, 16, 32, 64 ; ... and along BLK_N (DIM_XB * DIM_YB = DIM_X * DIM_Y)
require:  BLK_M % DIM_X == 0 && BLK_N % DIM_Y == 0 ; BLK_M must be a multiple of DIM_X and BLK_N of DIM_Y
require:  DIM_XA * DIM_YA == DIM_X * DIM_Y ; the A load shape DIM_XA x DIM_YA must use every work-item (DIM_X * DIM_Y)
require:  DIM_XB * DIM_YB == DIM_X * DIM_Y ; the B load shape DIM_XB x DIM_YB must use every work-item (DIM_X * DIM_Y)
require:  BLK_M % DIM_XA == 0 && BLK_K % DIM_YA == 0 ; the BLK_M x BLK_K tile must split evenly over DIM_XA x DIM_YA
require:  BLK_K % DIM_XB == 0 && BLK_N % DIM_YB == 0 ; the BLK_K x BLK_N tile must split evenly over DIM_XB x DIM_YB
operands: A=N B=N
pad:      M=BLK_N N=BLK_M K=BLK_K
global:   N / BLK_M * DIM_X, M / BLK_N * DIM_Y
local:    DIM_X, DIM_Y
reuse:    A=BLK_M B=BLK_N
local_reuse: A=BLK_M/DIM_X B=BLK_N/DIM_Y
localmem: (BLK_K * (BLK_M + 1) + BLK_N * (BLK_K + 1)) * REAL_SIZE
sites:    0=sA store, 1=sB store, 2=sA load, 3=sB load
*/
#define THR_M (BLK_M / DIM_X)   /* rows of MAGMA's C per work-item */
#define THR_N (BLK_N / DIM_Y)   /* columns of MAGMA's C per work-item */
#define LA_M (BLK_M / DIM_XA)   /* prefetched elements of the Am tile per work-item, along M */
#define LA_K (BLK_K / DIM_YA)   /* ... along K */
#define LB_K (BLK_K / DIM_XB)   /* prefetched elements of the Bm tile, along K */
#define LB_N (BLK_N / DIM_YB)   /* ... along N */

__kernel GT_WORKGROUP(DIM_X, DIM_Y, 1)
void gemm(const int M, const int N, const int K, const real alpha,
          const __global real* A, const __global real* B,
          const real beta, __global real* C GT_TRACE_PARAM) {
   /* MAGMA's column-major view (see about): Cm = Am * Bm, Cm is Mm x Nm. */
   const int Mm = N, Nm = M;
   const __global real *Am = B; /* Mm x K, column-major: Am(i, k) = Am[i + k*lda] */
   const __global real *Bm = A; /* K x Nm, column-major: Bm(k, j) = Bm[k + j*ldb] */
   const int lda = Mm, ldb = K, ldc = Mm;
   (void)Nm;

   const int idx = get_local_id(0), idy = get_local_id(1);
   const int idt = DIM_X * idy + idx;
   const int idxA = idt % DIM_XA, idyA = idt / DIM_XA;
   const int idxB = idt % DIM_XB, idyB = idt / DIM_XB;
   const int blx = get_group_id(0), bly = get_group_id(1);

   __local real sA[BLK_K][BLK_M + 1]; /* the Am tile, [k][m] */
   __local real sB[BLK_N][BLK_K + 1]; /* the Bm tile, [n][k] */

   real rC[THR_N][THR_M];
   real rA[THR_M], rB[THR_N];
   real ra[LA_K][LA_M]; /* the next tiles, in flight */
   real rb[LB_N][LB_K];
   for (int n = 0; n < THR_N; n++)
      for (int m = 0; m < THR_M; m++)
         rC[n][m] = REAL_ZERO;

   /* Global -> registers for the step at kk: Am's tile read along M (contiguous in
    * column-major), Bm's along K (contiguous too). MAGMA's Am is gemmtop's B and the
    * other way round: the ablation switches follow gemmtop's names. */
   const size_t offA = (size_t)blx * BLK_M + idxA + (size_t)idyA * lda;
   const size_t offB = (size_t)idxB + ((size_t)bly * BLK_N + idyB) * ldb;
#define FETCH(kk)                                                                           \
   for (int n = 0; n < LA_K; n++)                                                           \
      for (int m = 0; m < LA_M; m++)                                                        \
         ra[n][m] = GT_LOAD_B(Am[offA + (size_t)((kk) + n * DIM_YA) * lda + m * DIM_XA]);   \
   for (int n = 0; n < LB_N; n++)                                                           \
      for (int m = 0; m < LB_K; m++)                                                        \
         rb[n][m] = GT_LOAD_A(Bm[offB + (size_t)n * DIM_YB * ldb + (kk) + m * DIM_XB]);
   /* Registers -> local memory. */
#define PUT()                                                                               \
   for (int n = 0; n < LA_K; n++)                                                           \
      for (int m = 0; m < LA_M; m++)                                                        \
         LDS_STORE(0, &sA[idyA + n * DIM_YA][idxA + m * DIM_XA], ra[n][m]);                 \
   for (int n = 0; n < LB_N; n++)                                                           \
      for (int m = 0; m < LB_K; m++)                                                        \
         LDS_STORE(1, &sB[idyB + n * DIM_YB][idxB + m * DIM_XB], rb[n][m]);

   FETCH(0);
   PUT();
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int kk = 0; kk < K; kk += BLK_K) {
      if (kk + BLK_K < K) {
         FETCH(kk + BLK_K);
      }
#pragma unroll
      for (int k = 0; k < BLK_K; k++) {
         for (int m = 0; m < THR_M; m++)
            rA[m] = LDS_LOAD(2, &sA[k][m * DIM_X + idx]);
         for (int n = 0; n < THR_N; n++)
            rB[n] = LDS_LOAD(3, &sB[n * DIM_Y + idy][k]);
         for (int n = 0; n < THR_N; n++)
            for (int m = 0; m < THR_M; m++)
               GT_FMA(rC[n][m], rA[m], rB[n]);
      }
      barrier(CLK_LOCAL_MEM_FENCE);
      if (kk + BLK_K < K) {
         PUT();
      }
      barrier(CLK_LOCAL_MEM_FENCE);
   }

   /* Cm(i, j) = C[i + j*ldc]: neighbouring idx, neighbouring addresses. */
   for (int n = 0; n < THR_N; n++) {
      const int j = bly * BLK_N + n * DIM_Y + idy;
      for (int m = 0; m < THR_M; m++) {
         const int i = blx * BLK_M + m * DIM_X + idx;
         const size_t at = (size_t)j * ldc + i;
         GT_STORE_C(C[at], beta == REAL_ZERO ? alpha * rC[n][m] : alpha * rC[n][m] + beta * C[at]);
      }
   }
}
