#include "core/export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/outfile.h"
#include "base/textbuf.h"
#include "base/types.h"
#include "base/util.h"
#include "core/config.h"

/* What the launcher can make: one launch of the GEMM itself, on operands stored as the
 * kernel reads them, in single or double precision (its reference product is plain C). */
static bool exportable(const Session *s, const KernelInfo *k, const Problem *p, const Geometry *g, char *err,
                       size_t errlen) {
   const TypeTraits *t = Types_of(p->precision);
   /* The kernel files compile as OpenCL C unless a backend puts the CUDA prelude first. */
   if (Backend_can(Session_backend(s), BACKEND_CAP_CUDA_PRELUDE))
      snprintf(err, errlen, "export-kernel writes OpenCL C and an OpenCL launcher; %s compiles the kernels as C++: "
                            "use --backend opencl", Session_backend(s)->title);
   else if (t->in != t->out || (t->out != STORAGE_F32 && t->out != STORAGE_F64) || t->product_error > 0 || k->tensor)
      snprintf(err, errlen, "export-kernel exports float and double GEMMs on CUDA cores (the launcher's reference is "
                            "plain C); this is %s%s", Precision_name(p->precision), k->tensor ? " on tensor cores" : "");
   else if (g->pad)
      snprintf(err, errlen, "%s pads this size (it runs on %dx%dx%d): the exported launcher runs the kernel alone; "
                            "choose a size its tiles divide, or a kernel for any size", k->name, g->m, g->n, g->k);
   else if (g->trans_a != p->trans_a || g->trans_b != p->trans_b)
      snprintf(err, errlen, "%s reads %s transposed and gemmtop transposes it first: the exported launcher runs the "
                            "kernel alone; choose the layout it reads (--layout %s%s)", k->name,
               g->trans_a != p->trans_a ? "A" : "B", g->trans_a ? "T" : "N", g->trans_b ? "T" : "N");
   else if (g->ntma || g->dynamic_smem > 0)
      snprintf(err, errlen, "%s uses tensor maps or dynamic shared memory, which only the CUDA backend gives", k->name);
   else if (Problem_scaled(p))
      snprintf(err, errlen, "the FP8 types' scales are not exported");
   else
      return true;
   return false;
}

/* "-DTS=32 -DWPT=8" as #define lines. */
static void putDefines(TextBuf *t, const char *defines) {
   const char *d = defines;
   while ((d = strstr(d, "-D")) != NULL) {
      d += 2;
      size_t len = strcspn(d, " ");
      const char *eq = memchr(d, '=', len);
      if (eq)
         TextBuf_put(t, "#define %.*s %.*s\n", (int)(eq - d), d, (int)(len - (size_t)(eq - d) - 1), eq + 1);
      else
         TextBuf_put(t, "#define %.*s 1\n", (int)len, d);
      d += len;
   }
}

/* The first lines of both files: what this is and where it came from. */
static void putOrigin(TextBuf *t, const Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                      const char *open, const char *close) {
   char params[512], date[32];
   KernelInfo_formatParams(k, values, params, sizeof params);
   time_t now = time(NULL);
   struct tm tm;
   gmtime_r(&now, &tm);
   strftime(date, sizeof date, "%Y-%m-%d", &tm);
   TextBuf_put(t, "%s %s %s, exported by gemmtop %s on %s\n", open, k->name, params, GEMMTOP_VERSION, date);
   TextBuf_put(t, " * for %dx%dx%d %s, %c%c, alpha %g, beta %g, on %s (%s).\n", p->m, p->n, p->k,
               Precision_name(p->precision), p->trans_a ? 'T' : 'N', p->trans_b ? 'T' : 'N', p->alpha, p->beta,
               Session_device(s)->name, Session_backend(s)->name);
   TextBuf_put(t, " * The same in gemmtop: gemmtop run --kernel %s --set '%s' -m %d -n %d -k %d --precision %s "
                  "--layout %c%c --alpha %g --beta %g %s\n",
               k->name, params, p->m, p->n, p->k, Precision_name(p->precision), p->trans_a ? 'T' : 'N',
               p->trans_b ? 'T' : 'N', p->alpha, p->beta, close);
}

static char *kernelFile(const Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                        const char *defines) {
   char *source = Session_kernelSource(s, k);
   if (!source)
      return NULL;
   TextBuf t = {0};
   putOrigin(&t, s, k, values, p, "/*", "*/");
   TextBuf_put(&t, "/* Its parameters and element type, as gemmtop passes them to the compiler. */\n");
   putDefines(&t, defines);
   TextBuf_put(&t, "\n%s\n", source);
   free(source);
   return TextBuf_finish(&t);
}

/* The launcher: plain C99 and the OpenCL 1.2 API. Its figures are filled in by
 * launcherFile; everything else is fixed text. */
static const char *const launcherBody =
    "#define CL_TARGET_OPENCL_VERSION 120\n"
    "#include <CL/cl.h>\n"
    "#include <math.h>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "\n"
    "static void die(const char *what, cl_int e) {\n"
    "   fprintf(stderr, \"%s failed (OpenCL error %d)\\n\", what, (int)e);\n"
    "   exit(2);\n"
    "}\n"
    "\n"
    "static char *readAll(const char *path) {\n"
    "   FILE *f = fopen(path, \"rb\");\n"
    "   if (!f) {\n"
    "      perror(path);\n"
    "      exit(2);\n"
    "   }\n"
    "   fseek(f, 0, SEEK_END);\n"
    "   long n = ftell(f);\n"
    "   rewind(f);\n"
    "   char *s = malloc((size_t)n + 1);\n"
    "   if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {\n"
    "      fprintf(stderr, \"cannot read %s\\n\", path);\n"
    "      exit(2);\n"
    "   }\n"
    "   s[n] = '\\0';\n"
    "   fclose(f);\n"
    "   return s;\n"
    "}\n"
    "\n"
    "/* xorshift64*: inputs in [-1, 1), reproducible from the seed. */\n"
    "static unsigned long long state = 88172645463325252ULL;\n"
    "static double uniform(void) {\n"
    "   state ^= state >> 12, state ^= state << 25, state ^= state >> 27;\n"
    "   return (double)((state * 2685821657736338717ULL) >> 11) / 9007199254740992.0 * 2 - 1;\n"
    "}\n"
    "\n"
    "static int cmp(const void *a, const void *b) {\n"
    "   double x = *(const double *)a, y = *(const double *)b;\n"
    "   return (x > y) - (x < y);\n"
    "}\n"
    "\n"
    "int main(int argc, char **argv) {\n"
    "   const char *path = argc > 1 ? argv[1] : SOURCE;\n"
    "   int want = argc > 2 ? atoi(argv[2]) : 0;\n"
    "   if (argc > 3)\n"
    "      state = strtoull(argv[3], NULL, 10) | 1;\n"
    "   /* The device: the want-th of all platforms' devices. */\n"
    "   cl_platform_id plats[16];\n"
    "   cl_uint np = 0, seen = 0;\n"
    "   cl_device_id dev = NULL;\n"
    "   if (clGetPlatformIDs(16, plats, &np) != CL_SUCCESS || np == 0) {\n"
    "      fprintf(stderr, \"no OpenCL platform\\n\");\n"
    "      return 2;\n"
    "   }\n"
    "   for (cl_uint i = 0; i < np && !dev; i++) {\n"
    "      cl_device_id ds[16];\n"
    "      cl_uint nd = 0;\n"
    "      if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 16, ds, &nd) != CL_SUCCESS)\n"
    "         continue;\n"
    "      for (cl_uint j = 0; j < nd && !dev; j++, seen++)\n"
    "         if ((int)seen == want)\n"
    "            dev = ds[j];\n"
    "   }\n"
    "   if (!dev) {\n"
    "      fprintf(stderr, \"no OpenCL device %d (there are %u)\\n\", want, (unsigned)seen);\n"
    "      return 2;\n"
    "   }\n"
    "   char name[256] = \"\";\n"
    "   clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);\n"
    "   cl_int e;\n"
    "   cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);\n"
    "   if (e != CL_SUCCESS)\n"
    "      die(\"clCreateContext\", e);\n"
    "   cl_command_queue q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e);\n"
    "   if (e != CL_SUCCESS)\n"
    "      die(\"clCreateCommandQueue\", e);\n"
    "   const char *src = readAll(path);\n"
    "   cl_program prog = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);\n"
    "   if (e != CL_SUCCESS)\n"
    "      die(\"clCreateProgramWithSource\", e);\n"
    "   if ((e = clBuildProgram(prog, 1, &dev, \"\", NULL, NULL)) != CL_SUCCESS) {\n"
    "      static char log[1 << 16];\n"
    "      clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);\n"
    "      fprintf(stderr, \"%s does not build:\\n%s\\n\", path, log);\n"
    "      return 2;\n"
    "   }\n"
    "   cl_kernel kern = clCreateKernel(prog, ENTRY, &e);\n"
    "   if (e != CL_SUCCESS)\n"
    "      die(\"clCreateKernel\", e);\n"
    "   /* A is M x K (K x M stored when TRANS_A), B is K x N (N x K when TRANS_B), C is M x N;\n"
    "    * all row-major. */\n"
    "   size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;\n"
    "   real *a = malloc(na * sizeof *a), *b = malloc(nb * sizeof *b), *c0 = malloc(nc * sizeof *c0);\n"
    "   real *c = malloc(nc * sizeof *c);\n"
    "   if (!a || !b || !c0 || !c) {\n"
    "      fprintf(stderr, \"out of memory\\n\");\n"
    "      return 2;\n"
    "   }\n"
    "   for (size_t i = 0; i < na; i++)\n"
    "      a[i] = (real)uniform();\n"
    "   for (size_t i = 0; i < nb; i++)\n"
    "      b[i] = (real)uniform();\n"
    "   for (size_t i = 0; i < nc; i++)\n"
    "      c0[i] = (real)uniform();\n"
    "   cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, na * sizeof *a, a, &e);\n"
    "   cl_mem db = e == CL_SUCCESS ? clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, nb * sizeof *b, b, &e) : NULL;\n"
    "   cl_mem dc = e == CL_SUCCESS ? clCreateBuffer(ctx, CL_MEM_READ_WRITE, nc * sizeof *c, NULL, &e) : NULL;\n"
    "   if (e != CL_SUCCESS)\n"
    "      die(\"clCreateBuffer\", e);\n"
    "   cl_int m = M, n = N, k = K;\n"
    "   real alpha = (real)ALPHA, beta = (real)BETA;\n"
    "   clSetKernelArg(kern, 0, sizeof m, &m);\n"
    "   clSetKernelArg(kern, 1, sizeof n, &n);\n"
    "   clSetKernelArg(kern, 2, sizeof k, &k);\n"
    "   clSetKernelArg(kern, 3, sizeof alpha, &alpha);\n"
    "   clSetKernelArg(kern, 4, sizeof da, &da);\n"
    "   clSetKernelArg(kern, 5, sizeof db, &db);\n"
    "   clSetKernelArg(kern, 6, sizeof beta, &beta);\n"
    "   clSetKernelArg(kern, 7, sizeof dc, &dc);\n"
    "#if WORKSPACE >= 0\n"
    "   /* split-K, stream-K: the partial sums' workspace, after C */\n"
    "   cl_mem dw = clCreateBuffer(ctx, CL_MEM_READ_WRITE, WORKSPACE > 16 ? WORKSPACE : 16, NULL, &e);\n"
    "   if (e != CL_SUCCESS)\n"
    "      die(\"clCreateBuffer (workspace)\", e);\n"
    "   clSetKernelArg(kern, 8, sizeof dw, &dw);\n"
    "#endif\n"
    "#ifdef FIXUP\n"
    "   /* the second launch that finishes C from the workspace: the same arguments */\n"
    "   cl_kernel fix = clCreateKernel(prog, FIXUP, &e);\n"
    "   if (e != CL_SUCCESS)\n"
    "      die(\"clCreateKernel (fix-up)\", e);\n"
    "   clSetKernelArg(fix, 0, sizeof m, &m);\n"
    "   clSetKernelArg(fix, 1, sizeof n, &n);\n"
    "   clSetKernelArg(fix, 2, sizeof k, &k);\n"
    "   clSetKernelArg(fix, 3, sizeof alpha, &alpha);\n"
    "   clSetKernelArg(fix, 4, sizeof da, &da);\n"
    "   clSetKernelArg(fix, 5, sizeof db, &db);\n"
    "   clSetKernelArg(fix, 6, sizeof beta, &beta);\n"
    "   clSetKernelArg(fix, 7, sizeof dc, &dc);\n"
    "   clSetKernelArg(fix, 8, sizeof dw, &dw);\n"
    "   const size_t fglobal[3] = {FIXUP_GLOBAL0, FIXUP_GLOBAL1, FIXUP_GLOBAL2};\n"
    "   const size_t flocal[3] = {FIXUP_LOCAL0, FIXUP_LOCAL1, FIXUP_LOCAL2};\n"
    "#endif\n"
    "   const size_t global[3] = {GLOBAL0, GLOBAL1, GLOBAL2}, local[3] = {LOCAL0, LOCAL1, LOCAL2};\n"
    "   /* One untimed launch, then ROUNDS timed ones, each on C as it was (beta reads it). */\n"
    "   double ms[ROUNDS];\n"
    "   for (int r = -1; r < ROUNDS; r++) {\n"
    "      if ((e = clEnqueueWriteBuffer(q, dc, CL_TRUE, 0, nc * sizeof *c, c0, 0, NULL, NULL)) != CL_SUCCESS)\n"
    "         die(\"clEnqueueWriteBuffer\", e);\n"
    "      cl_event ev;\n"
    "      if ((e = clEnqueueNDRangeKernel(q, kern, DIMS, NULL, global, local, 0, NULL, &ev)) != CL_SUCCESS)\n"
    "         die(\"clEnqueueNDRangeKernel\", e);\n"
    "      clWaitForEvents(1, &ev);\n"
    "      cl_ulong t0 = 0, t1 = 0;\n"
    "      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);\n"
    "      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);\n"
    "      clReleaseEvent(ev);\n"
    "      if (r >= 0)\n"
    "         ms[r] = (double)(t1 - t0) / 1e6;\n"
    "#ifdef FIXUP\n"
    "      /* the fix-up's time is the GEMM's too */\n"
    "      if ((e = clEnqueueNDRangeKernel(q, fix, FIXUP_DIMS, NULL, fglobal, flocal, 0, NULL, &ev)) != CL_SUCCESS)\n"
    "         die(\"clEnqueueNDRangeKernel (fix-up)\", e);\n"
    "      clWaitForEvents(1, &ev);\n"
    "      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);\n"
    "      clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);\n"
    "      clReleaseEvent(ev);\n"
    "      if (r >= 0)\n"
    "         ms[r] += (double)(t1 - t0) / 1e6;\n"
    "#endif\n"
    "   }\n"
    "   if ((e = clEnqueueReadBuffer(q, dc, CL_TRUE, 0, nc * sizeof *c, c, 0, NULL, NULL)) != CL_SUCCESS)\n"
    "      die(\"clEnqueueReadBuffer\", e);\n"
    "   qsort(ms, ROUNDS, sizeof ms[0], cmp);\n"
    "   double median = ms[ROUNDS / 2];\n"
    "   /* The reference in double; an element passes within TOL of the sum of the magnitudes\n"
    "    * that made it (rounding grows with that sum, not with the result). */\n"
    "   double worst = 0;\n"
    "   size_t bad = 0;\n"
    "   for (int i = 0; i < M; i++)\n"
    "      for (int j = 0; j < N; j++) {\n"
    "         double sum = 0, mag = 0;\n"
    "         for (int p = 0; p < K; p++) {\n"
    "            double x = TRANS_A ? a[(size_t)p * M + i] : a[(size_t)i * K + p];\n"
    "            double y = TRANS_B ? b[(size_t)j * K + p] : b[(size_t)p * N + j];\n"
    "            sum += x * y;\n"
    "            mag += fabs(x * y);\n"
    "         }\n"
    "         double ref = ALPHA * sum + BETA * c0[(size_t)i * N + j];\n"
    "         double scale = fabs(ALPHA) * mag + fabs(BETA * c0[(size_t)i * N + j]) + 1e-30;\n"
    "         double err = fabs(c[(size_t)i * N + j] - ref) / scale;\n"
    "         if (!(err <= TOL))\n"
    "            bad++;\n"
    "         if (!(err <= worst))\n"
    "            worst = err;\n"
    "      }\n"
    "   printf(\"%s on %s: %dx%dx%d, median %.4f ms of %d launches, %.2f GFLOPS\\n\", ENTRY, name, M, N, K, median,\n"
    "          ROUNDS, 2.0 * M * N * K / median / 1e6);\n"
    "   if (bad) {\n"
    "      printf(\"WRONG: %zu of %zu elements beyond the tolerance (worst relative error %.3g, tolerance %.3g)\\n\", bad,\n"
    "             nc, worst, (double)TOL);\n"
    "      return 1;\n"
    "   }\n"
    "   printf(\"verified: worst relative error %.3g (tolerance %.3g)\\n\", worst, (double)TOL);\n"
    "   return 0;\n"
    "}\n";

static char *launcherFile(const Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                          const Geometry *g, const char *source_name) {
   bool dbl = Types_of(p->precision)->out == STORAGE_F64;
   TextBuf t = {0};
   putOrigin(&t, s, k, values, p, "/*", "");
   TextBuf_put(&t, " * A launcher of its own: builds %s with the system's OpenCL, runs it on random inputs,\n"
                   " * times it with the device's events and verifies it against a product in double.\n"
                   " * Build: make (or: cc -O2 -std=c99 -o %s_launch %s_launch.c -lOpenCL -lm)\n"
                   " * Run:   ./%s_launch [KERNEL.cl [DEVICE [SEED]]]   (device: the index over all platforms) */\n",
               source_name, k->name, k->name, k->name);
   if (g->cus)
      TextBuf_put(&t, "/* Its persistent grid is sized for the %u compute units of %s (CUS in the kernel): on\n"
                      " * another device it gives the same result, its grid sized for this one. */\n",
                  g->cus, Session_device(s)->name);
   TextBuf_put(&t, "#define SOURCE \"%s\"\n#define ENTRY \"%s\"\n", source_name, k->entry);
   TextBuf_put(&t, "#define M %d\n#define N %d\n#define K %d\n", p->m, p->n, p->k);
   TextBuf_put(&t, "#define TRANS_A %d\n#define TRANS_B %d\n", p->trans_a ? 1 : 0, p->trans_b ? 1 : 0);
   TextBuf_put(&t, "#define ALPHA %.17g\n#define BETA %.17g\n", p->alpha, p->beta);
   TextBuf_put(&t, "#define DIMS %d\n", g->dims);
   for (int i = 0; i < 3; i++)
      TextBuf_put(&t, "#define GLOBAL%d %zu\n#define LOCAL%d %zu\n", i, i < g->dims ? g->global[i] : 1, i,
                  i < g->dims ? g->local[i] : 1);
   /* split-K, stream-K: a workspace (-1: the kernel takes none) and a fix-up launch */
   TextBuf_put(&t, "#define WORKSPACE %lld\n", g->has_workspace ? g->workspace : -1LL);
   if (g->fixup_dims) {
      TextBuf_put(&t, "#define FIXUP \"%s\"\n#define FIXUP_DIMS %d\n", k->fixup_entry, g->fixup_dims);
      for (int i = 0; i < 3; i++)
         TextBuf_put(&t, "#define FIXUP_GLOBAL%d %zu\n#define FIXUP_LOCAL%d %zu\n", i,
                     i < g->fixup_dims ? g->fixup_global[i] : 1, i, i < g->fixup_dims ? g->fixup_local[i] : 1);
   }
   TextBuf_put(&t, "#define ROUNDS 21\n");
   /* The worst-case bound of a sum of K products in any order, with or without fused
    * multiply-adds, plus alpha's and beta's roundings: (K + 4) units of the last place. */
   TextBuf_put(&t, "#define TOL %.3g\ntypedef %s real;\n\n", (p->k + 4) * (dbl ? 0x1p-52 : 0x1p-23),
               dbl ? "double" : "float");
   TextBuf_put(&t, "%s", launcherBody);
   return TextBuf_finish(&t);
}

static char *makefileText(const KernelInfo *k) {
   TextBuf t = {0};
   TextBuf_put(&t, "# Builds the launcher of %s (exported by gemmtop); `make run` runs it.\n", k->name);
   TextBuf_put(&t, "CC ?= cc\nCFLAGS ?= -O2 -std=c99\n\n");
   TextBuf_put(&t, "%s_launch: %s_launch.c\n\t$(CC) $(CFLAGS) -o $@ $< -lOpenCL -lm\n\n", k->name, k->name);
   TextBuf_put(&t, "run: %s_launch\n\t./%s_launch %s.cl\n\n.PHONY: run\n", k->name, k->name, k->name);
   return TextBuf_finish(&t);
}

static bool exists(const char *path) {
   struct stat st;
   return lstat(path, &st) == 0;
}

ExportStatus Export_kernel(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                           const char *dir, ExportFiles *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   Geometry g;
   char msg[1536];
   if (!Session_targetOk(s, k, msg, sizeof msg) ||
       !Config_check(k, values, p, &Session_device(s)->limits, &g, msg, sizeof msg)) {
      snprintf(err, errlen, "refused: %s", msg);
      return EXPORT_REFUSED;
   }
   if (!exportable(s, k, p, &g, err, errlen))
      return EXPORT_REFUSED;
   snprintf(out->kernel, sizeof out->kernel, "%s/%s.cl", dir, k->name);
   snprintf(out->launcher, sizeof out->launcher, "%s/%s_launch.c", dir, k->name);
   snprintf(out->makefile, sizeof out->makefile, "%s/Makefile", dir);
   snprintf(out->build, sizeof out->build, "make -C %s run", dir);
   const char *paths[3] = {out->kernel, out->launcher, out->makefile};
   for (int i = 0; i < 3; i++)
      if (exists(paths[i])) {
         snprintf(err, errlen, "%s exists: export-kernel never overwrites a file; remove it or choose another --dir",
                  paths[i]);
         return EXPORT_REFUSED;
      }
   if (!Util_mkdirs(dir)) {
      snprintf(err, errlen, "cannot make the folder %s: %s", dir, strerror(errno));
      return EXPORT_FAILED;
   }
   char defines[sizeof((RunResult *)0)->defines];
   Config_defines(k, values, p, &g, defines, sizeof defines);
   const char *base = strrchr(out->kernel, '/') + 1;
   char *texts[3] = {kernelFile(s, k, values, p, defines), launcherFile(s, k, values, p, &g, base), makefileText(k)};
   bool ok = texts[0] && texts[1] && texts[2];
   if (!ok)
      snprintf(err, errlen, "out of host memory");
   for (int i = 0; i < 3 && ok; i++)
      ok = OutFile_write(paths[i], texts[i], strlen(texts[i]), err, errlen);
   for (int i = 0; i < 3; i++)
      free(texts[i]);
   return ok ? EXPORT_OK : EXPORT_FAILED;
}
