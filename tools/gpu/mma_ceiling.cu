/* The mma.sync ceiling at a GEMM kernel's occupancy (diagnostic for the tensor ladder's
 * step 5, docs/lesson-tensor.md). gemmtop's measured peak (list devices --measure) runs
 * many light warps a multiprocessor; a GEMM warp holding a 64 x 64 tile of C keeps 128
 * FP32 accumulators a lane, so only 8 warps fit one. This times back-to-back
 * mma.sync.m16n8k16 (f16 in, FP32 accumulators) with nothing from global memory:
 *   - WARPS warps a multiprocessor (blocks of 4 warps, their count a multiprocessor fixed
 *     by the dynamic shared memory each asks for), one wave of blocks;
 *   - each warp NACC independent accumulator tiles (32: a 64 x 64 warp tile; 8: the peak's);
 *   - LDSM 0: operands stay in registers; 1: each depth's fragments come from shared memory
 *     through ldmatrix.x4 as step 5 loads them (MI = 4 A fragments, 4 x4.trans for NJ = 8 B
 *     fragments, double-buffered, conflict-free rows), one depth ahead of the MMAs.
 * Prints one line per case: warps/SM, NACC, LDSM, TFLOPS (median of 7 launches timed with
 * events after 2 warm-ups), and the share of the first line (16 light warps, as the peak).
 * Build: nvcc -O3 -arch=sm_90 -o mma_ceiling tools/gpu/mma_ceiling.cu */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                                                   \
   do {                                                                                            \
      cudaError_t e_ = (x);                                                                        \
      if (e_ != cudaSuccess) {                                                                     \
         fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e_));                                 \
         exit(1);                                                                                  \
      }                                                                                            \
   } while (0)

__device__ __forceinline__ void mma(float *d, const unsigned *a, const unsigned *b) {
   asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                "{%0,%1,%2,%3};"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
__device__ __forceinline__ void ldsm4(unsigned *r, unsigned addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(addr));
}
__device__ __forceinline__ void ldsm4t(unsigned *r, unsigned addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(addr));
}

/* NACC accumulator tiles as MI x NJ with MI = 4 (NACC 32: 4 x 8; 16: 4 x 4; 8: 4 x 2). */
template <int NACC, int LDSM>
__global__ void __launch_bounds__(128) ceiling(float *out, int depths, unsigned seed) {
   constexpr int MI = 4, NJ = NACC / MI;
   extern __shared__ __align__(16) unsigned char smem[];
   const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
   /* Each warp reads its own 4 KiB: lane l gives row address 16 l of a 512-byte matrix set,
    * so the eight rows of every matrix are 128 contiguous bytes (no bank conflict). */
   unsigned *region = (unsigned *)(smem + warp * 4096);
   if (LDSM) {
      for (int i = lane; i < 1024; i += 32)
         region[i] = 0x3c003c00u ^ (seed & 0x00010001u) ^ (unsigned)i;
      __syncwarp();
   }
   const unsigned base = (unsigned)__cvta_generic_to_shared(region) + 16u * (unsigned)lane;
   unsigned a[2][MI][4], b[2][NJ][2];
   for (int p = 0; p < 2; p++) {
      for (int i = 0; i < MI; i++)
         for (int q = 0; q < 4; q++)
            a[p][i][q] = 0x20002000u ^ (seed & (1u << q));
      for (int j = 0; j < NJ; j++)
         for (int q = 0; q < 2; q++)
            b[p][j][q] = 0x20002000u ^ (seed & (4u << q));
   }
   float acc[MI][NJ][4];
   for (int i = 0; i < MI; i++)
      for (int j = 0; j < NJ; j++)
         for (int e = 0; e < 4; e++)
            acc[i][j][e] = 0.0f;
   for (int d = 0; d < depths; d += 2) {
#pragma unroll
      for (int p = 0; p < 2; p++) {
         if (LDSM) { /* the next depth's fragments: 512 bytes a matrix set, 4 KiB a depth */
#pragma unroll
            for (int i = 0; i < MI; i++)
               ldsm4(a[p ^ 1][i], base + 512u * (unsigned)i);
#pragma unroll
            for (int j = 0; j < NJ; j += 2) {
               unsigned r[4];
               ldsm4t(r, base + 2048u + 512u * (unsigned)(j / 2));
               b[p ^ 1][j][0] = r[0];
               b[p ^ 1][j][1] = r[1];
               b[p ^ 1][j + 1][0] = r[2];
               b[p ^ 1][j + 1][1] = r[3];
            }
         }
#pragma unroll
         for (int i = 0; i < MI; i++)
#pragma unroll
            for (int j = 0; j < NJ; j++)
               mma(acc[i][j], a[p][i], b[p][j]);
      }
   }
   float s = 0;
   for (int i = 0; i < MI; i++)
      for (int j = 0; j < NJ; j++)
         for (int e = 0; e < 4; e++)
            s += acc[i][j][e];
   out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static float median(float *t, int n) {
   for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
         if (t[j] < t[i]) {
            float x = t[i];
            t[i] = t[j];
            t[j] = x;
         }
   return t[n / 2];
}

template <int NACC, int LDSM> static double run(int warps_per_sm, int sms, size_t smem_per_sm) {
   const int blocks_per_sm = warps_per_sm / 4, depths = 4096;
   /* Dynamic shared memory that lets exactly blocks_per_sm blocks share a multiprocessor
    * (1 KiB of each block's share is the system's). */
   size_t smem = smem_per_sm / (size_t)blocks_per_sm - 1024; /* at least 16 KiB: 4 warps x 4 KiB */
   if (smem > 227 * 1024)
      smem = 227 * 1024;
   smem &= ~(size_t)1023;
   CHECK(cudaFuncSetAttribute(ceiling<NACC, LDSM>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
   int fit = 0;
   CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, ceiling<NACC, LDSM>, 128, smem));
   const int blocks = sms * blocks_per_sm;
   float *out;
   CHECK(cudaMalloc(&out, (size_t)blocks * 128 * sizeof(float)));
   cudaEvent_t e0, e1;
   CHECK(cudaEventCreate(&e0));
   CHECK(cudaEventCreate(&e1));
   float t[7];
   for (int r = -2; r < 7; r++) {
      CHECK(cudaEventRecord(e0));
      ceiling<NACC, LDSM><<<blocks, 128, smem>>>(out, depths, (unsigned)r * 2654435761u);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      if (r >= 0)
         CHECK(cudaEventElapsedTime(&t[r], e0, e1));
   }
   CHECK(cudaFree(out));
   const double flops = 2.0 * 16 * 8 * 16 * NACC * (double)depths * (blocks * 4.0);
   const double tflops = flops / (median(t, 7) * 1e-3) / 1e12;
   if (fit != blocks_per_sm)
      printf("  (%d blocks fit a multiprocessor, not %d: registers)\n", fit, blocks_per_sm);
   return fit == blocks_per_sm ? tflops : -1.0;
}

int main(void) {
   cudaDeviceProp prop;
   CHECK(cudaGetDeviceProperties(&prop, 0));
   const size_t smem_sm = prop.sharedMemPerMultiprocessor;
   printf("%s, %d SMs; mma.sync m16n8k16 f16 -> f32, back to back\n", prop.name, prop.multiProcessorCount);
   printf("%-10s %-6s %-5s %10s %8s\n", "warps/SM", "NACC", "LDSM", "TFLOPS", "share");
   struct Case {
      int warps, nacc, ldsm;
   } cases[] = {{16, 8, 0}, {32, 8, 0}, {8, 8, 0}, {16, 16, 0}, {16, 16, 1}, {12, 16, 0}, {12, 16, 1},
                {8, 16, 0},  {8, 16, 1},  {8, 32, 0}, {8, 32, 1},   {4, 32, 0},  {4, 32, 1}};
   double first = 0;
   for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
      const Case k = cases[c];
      double tf = -1;
      if (k.nacc == 8)
         tf = k.ldsm ? run<8, 1>(k.warps, prop.multiProcessorCount, smem_sm) : run<8, 0>(k.warps, prop.multiProcessorCount, smem_sm);
      else if (k.nacc == 16)
         tf = k.ldsm ? run<16, 1>(k.warps, prop.multiProcessorCount, smem_sm) : run<16, 0>(k.warps, prop.multiProcessorCount, smem_sm);
      else
         tf = k.ldsm ? run<32, 1>(k.warps, prop.multiProcessorCount, smem_sm) : run<32, 0>(k.warps, prop.multiProcessorCount, smem_sm);
      if (c == 0)
         first = tf;
      if (tf < 0)
         printf("%-10d %-6d %-5d %10s\n", k.warps, k.nacc, k.ldsm, "n/a");
      else
         printf("%-10d %-6d %-5d %10.1f %7.1f%%\n", k.warps, k.nacc, k.ldsm, tf, 100.0 * tf / first);
   }
   return 0;
}
