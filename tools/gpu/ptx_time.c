/* Times one PTX or cubin file's "gemm" kernel through the CUDA driver (diagnostic for the
 * OpenCL-vs-CUDA gap). Usage: ptx_time FILE N BM BN NT [CARVEOUT [DYNSMEM]], CARVEOUT the
 * preferred percentage of the L1/shared memory that is shared (- or absent: the driver
 * chooses), DYNSMEM the bytes of dynamic shared memory a block takes (gemmtop's CUDA PTX
 * keeps its tiles there: inspect's "local mem" line). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
   const char *file = argv[1];
   int n = atoi(argv[2]), bm = atoi(argv[3]), bn = atoi(argv[4]), nt = atoi(argv[5]);
   FILE *f = fopen(file, "rb"); fseek(f, 0, SEEK_END); long sz = ftell(f); rewind(f);
   char *img = malloc(sz + 1); fread(img, 1, sz, f); img[sz] = 0; fclose(f);
   CUdevice dev; CUcontext ctx; CUmodule mod; CUfunction fn;
   cuInit(0); cuDeviceGet(&dev, 0); cuCtxCreate(&ctx, NULL, 0, dev);
   CUresult r = cuModuleLoadData(&mod, img);
   if (r) { printf("load %d\n", r); return 1; }
   if (cuModuleGetFunction(&fn, mod, "gemm")) { printf("no gemm\n"); return 1; }
   if (argc > 6 && strcmp(argv[6], "-") &&
       cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, atoi(argv[6]))) {
      printf("carveout %s refused\n", argv[6]);
      return 1;
   }
   unsigned dyn = argc > 7 ? (unsigned)atoi(argv[7]) : 0;
   if (dyn > 48 * 1024 && cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn)) {
      printf("dynamic shared memory %u refused\n", dyn);
      return 1;
   }
   CUdeviceptr A, B, C; size_t bytes = (size_t)n * n * 4;
   cuMemAlloc(&A, bytes); cuMemAlloc(&B, bytes); cuMemAlloc(&C, bytes);
   cuMemsetD32(A, 0x3f800000, (size_t)n * n); cuMemsetD32(B, 0x3f800000, (size_t)n * n);
   float alpha = 1, beta = 0;
   void *args[] = {&n, &n, &n, &alpha, &A, &B, &beta, &C};
   CUevent e0, e1; cuEventCreate(&e0, 0); cuEventCreate(&e1, 0);
   float best = 1e9, t[30];
   for (int i = 0; i < 30; i++) {
      cuEventRecord(e0, 0);
      r = cuLaunchKernel(fn, n / bn, n / bm, 1, nt, 1, 1, dyn, 0, args, NULL);
      cuEventRecord(e1, 0); cuEventSynchronize(e1);
      cuEventElapsedTime(&t[i], e0, e1);
      if (r) { printf("launch %d\n", r); return 1; }
   }
   for (int i = 5; i < 30; i++) if (t[i] < best) best = t[i];
   /* median of the last 25 */
   for (int i = 5; i < 30; i++) for (int j = i + 1; j < 30; j++) if (t[j] < t[i]) { float x = t[i]; t[i] = t[j]; t[j] = x; }
   float med = t[17];
   printf("%-14s carveout %-4s median %.4f ms  min %.4f  %.1f TFLOPS\n", file, argc > 6 ? argv[6] : "-", med, best, 2.0 * n * n * (double)n / med / 1e9);
   return 0;
}
