/*@gemmtop
name:     test_wgmma_serialized
title:    Deliberately serialised (for the tests): wgmma sums read after two waits join
ladder:   test
step:     1
hidden:   yes
tensor:   yes
arch:     sm_90a
precisions: bfloat16
about:    The pattern ptxas cannot keep asynchronous (its advisory C7514), hopper5_order's
about:    promotion before 2026-11-30: each k-step waits for all its wgmma or for all but one
about:    under one condition, fences the sums (gt_fence_reg) and reads them under a second
about:    test of the same condition, after the two paths join. ptxas then makes every wgmma
about:    wait for the one before, and gemmtop inspect must say so. Only compiled, never run:
about:    the tile is never loaded.
operands: A=N B=T
pad:      M=64 N=64 K=16
global:   N / 64 * (M / 64) * 128, 1
local:    128, 1
dynamic_smem: 2 * 64 * 16 * 2 + 1024
*/
__kernel __launch_bounds__(128, 1) void gemm(const int M, const int N, const int K, const real alpha,
                                             const __global in_t *A, const __global in_t *B, const real beta,
                                             __global real *C) {
   extern __shared__ __align__(1024) unsigned char gt_dynamic[];
   const uint a = gt_smem_addr(gt_dynamic), b = a + 64 * 16 * 2;
   float acc[32], sum[32];
   for (int i = 0; i < 32; i++)
      acc[i] = sum[i] = 0.0f;
   for (int t = 0; t < K / 16; t++) {
      const int promote = (t + 1) % 2 == 0 || t + 1 == K / 16;
      gt_wgmma_fence();
      gt_wgmma_n64(acc, gt_wgmma_desc(a, 128, 256, 0), gt_wgmma_desc(b, 128, 256, 0), 1);
      gt_wgmma_commit();
      if (promote)
         gt_wgmma_wait(0);
      else
         gt_wgmma_wait(1);
      for (int i = 0; i < 32; i++)
         gt_fence_reg(acc[i]);
      if (promote) /* the same condition tested again, after the join: ptxas cannot tell */
         for (int i = 0; i < 32; i++)
            sum[i] += acc[i];
   }
   gt_wgmma_wait(0);
   const int r = blockIdx.x / (N / 64) * 64 + threadIdx.x / 2, c = blockIdx.x % (N / 64) * 64 + threadIdx.x % 2 * 32;
   for (int i = 0; i < 32; i++)
      C[(size_t)r * N + c + i] = alpha * (sum[i] + acc[i]) + beta * C[(size_t)r * N + c + i];
}
