/* An independent check of a kernel exported for OpenCL (export-kernel, gemmtop tune), for
 * the end-to-end tests: the exported launcher is included only for its launch geometry and
 * problem (its #defines: ENTRY, DIMS, GLOBALn, LOCALn, GEMM_M, ..., GEMM_ALPHA, GEMM_BETA)
 * and its file reader; the inputs (from this file's own generator and the seed given), the
 * launch and the check against a product in double are this file's. Build with
 *    cc -std=c99 -DLAUNCHER='"DIR/KERNEL_launch.c"' export_check.c -lOpenCL -lm
 * and run as  ./export_check KERNEL.cl DEVICE SEED  (DEVICE: the index over all platforms).
 * Prints how many elements it checked and the worst error; exit 0 right, 1 wrong, 2 when it
 * cannot run (or the kernel needs a workspace or a fix-up, which this check does not make). */
#define main launcher_main
#include LAUNCHER
#undef main

/* splitmix64: not the launcher's generator, so the inputs are not the launcher's either */
static unsigned long long mix;
static double next(void) {
   unsigned long long z = (mix += 0x9E3779B97F4A7C15ull);
   z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
   z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
   z ^= z >> 31;
   return (double)(z >> 11) / 9007199254740992.0 * 2 - 1; /* [-1, 1) */
}

int main(int argc, char **argv) {
   if (argc < 4) {
      fprintf(stderr, "usage: %s KERNEL.cl DEVICE SEED\n", argv[0]);
      return 2;
   }
#if WORKSPACE >= 0 || defined(FIXUP)
   fprintf(stderr, "this check launches a kernel without a workspace or a fix-up\n");
   return 2;
#else
   mix = strtoull(argv[3], NULL, 10);
   int want = atoi(argv[2]);
   cl_platform_id plats[16];
   cl_uint np = 0, seen = 0;
   cl_device_id dev = NULL;
   if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS)
      return 2;
   for (cl_uint i = 0; i < np && !dev; i++) {
      cl_device_id ds[16];
      cl_uint nd = 0;
      if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS)
         continue;
      for (cl_uint j = 0; j < nd && !dev; j++, seen++)
         if ((int)seen == want)
            dev = ds[j];
   }
   if (!dev)
      return 2;
   cl_int e;
   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
   cl_command_queue q = e == CL_SUCCESS ? clCreateCommandQueue(ctx, dev, 0, &e) : NULL;
   const char *src = readAll(argv[1]);
   cl_program prog = e == CL_SUCCESS ? clCreateProgramWithSource(ctx, 1, &src, NULL, &e) : NULL;
   if (e != CL_SUCCESS || clBuildProgram(prog, 1, &dev, "", NULL, NULL) != CL_SUCCESS)
      return 2;
   cl_kernel kern = clCreateKernel(prog, ENTRY, &e);
   if (e != CL_SUCCESS)
      return 2;
   size_t na = (size_t)GEMM_M * GEMM_K, nb = (size_t)GEMM_K * GEMM_N, nc = (size_t)GEMM_M * GEMM_N;
   real *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c0 = malloc(nc * sizeof *c0);
   real *c = malloc(nc * sizeof *c);
   if (!a || !b || !c0 || !c)
      return 2;
   for (size_t i = 0; i < na; i++)
      a[i] = (real)next();
   for (size_t i = 0; i < nb; i++)
      b[i] = (real)next();
   for (size_t i = 0; i < nc; i++)
      c0[i] = (real)next();
   cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * sizeof *a, a, &e);
   cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nb * sizeof *b, b, &e);
   cl_mem dc = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nc * sizeof *c, c0, &e);
   cl_int m = GEMM_M, n = GEMM_N, k = GEMM_K;
   real alpha = (real)GEMM_ALPHA, beta = (real)GEMM_BETA;
   clSetKernelArg(kern, 0, sizeof m, &m);
   clSetKernelArg(kern, 1, sizeof n, &n);
   clSetKernelArg(kern, 2, sizeof k, &k);
   clSetKernelArg(kern, 3, sizeof alpha, &alpha);
   clSetKernelArg(kern, 4, sizeof da, &da);
   clSetKernelArg(kern, 5, sizeof db, &db);
   clSetKernelArg(kern, 6, sizeof beta, &beta);
   clSetKernelArg(kern, 7, sizeof dc, &dc);
   const size_t global[3] = {GLOBAL0, GLOBAL1, GLOBAL2}, local[3] = {LOCAL0, LOCAL1, LOCAL2};
   if (clEnqueueNDRangeKernel(q, kern, DIMS, NULL, global, local, 0, NULL, NULL) != CL_SUCCESS ||
       clEnqueueReadBuffer(q, dc, CL_TRUE, 0, nc * sizeof *c, c, 0, NULL, NULL) != CL_SUCCESS)
      return 2;
   /* Every element against the product in double, within what a sum of K products of the
    * type may lose in any order, relative to the sum of the magnitudes. */
   const double ulp = sizeof(real) == 4 ? 0x1p-24 : 0x1p-53, tol = 2 * (GEMM_K + 4) * ulp;
   size_t bad = 0;
   double worst = 0;
   for (size_t i = 0; i < (size_t)GEMM_M; i++)
      for (size_t j = 0; j < (size_t)GEMM_N; j++) {
         double sum = 0, mag = 0;
         for (size_t p = 0; p < (size_t)GEMM_K; p++) {
            double x = a[GEMM_TRANS_A ? p * GEMM_M + i : i * GEMM_K + p];
            double y = b[GEMM_TRANS_B ? j * GEMM_K + p : p * GEMM_N + j];
            sum += x * y;
            mag += fabs(x * y);
         }
         double ref = GEMM_ALPHA * sum + GEMM_BETA * c0[i * GEMM_N + j];
         double err = fabs(c[i * GEMM_N + j] - ref) / (fabs(GEMM_ALPHA) * mag + fabs(GEMM_BETA * c0[i * GEMM_N + j]) + 1e-300);
         bad += !(err <= tol);
         if (!(err <= worst))
            worst = err;
      }
   printf("independent check: %zu of %zu elements beyond %.3g (worst %.3g)\n", bad, nc, tol, worst);
   return bad ? 1 : 0;
#endif
}
