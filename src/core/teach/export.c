#include "core/teach/export.h"

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
#include "core/model/config.h"
#include "core/run/session.h"

/* What one backend's export needs beside the configuration. */
typedef struct Export_ {
   const ExportTarget *t;
   const KernelInfo *k;
   const long long *values;
   const Problem *p;
   const Geometry *g;
   const char *defines;
   char arch[24];        /* CUDA: what nvcc compiles for ("sm_90a") */
} Export;

/* One backend's export: its files, what its launcher can make, and the launcher's text.
 * A backend takes the first whose capabilities it has (Backend.caps). */
typedef struct ExportFormat_ {
   unsigned caps;             /* BACKEND_CAP_* the backend has */
   unsigned without;          /* and those it has not */
   bool arch;                 /* nvcc is told the architecture (Export.arch) */
   const char *kernel_ext;    /* of the kernel's file */
   const char *launcher_ext;  /* of the launcher's */
   const char *needs;         /* what building the launcher needs */
   bool (*exportable)(const Export *e, char *err, size_t errlen);
   char *(*launcher)(const Export *e, const char *kernel_name);
   char *(*makefile)(const Export *e);
   bool torch;                /* a PyTorch extension beside the launcher */
} ExportFormat;

/* What every launcher does alike: one launch of the GEMM itself (and its fix-up), on the
 * operands stored as the kernel reads them, at a size it does not pad. */
static bool launchable(const Export *e, char *err, size_t errlen) {
   const KernelInfo *k = e->k;
   const Geometry *g = e->g;
   if (g->pad)
      snprintf(err, errlen, "%s pads this size (it runs on %dx%dx%d): the exported launcher runs the kernel alone; "
                            "choose a size its tiles divide, or a kernel for any size", k->name, g->m, g->n, g->k);
   else if (g->trans_a != e->p->trans_a || g->trans_b != e->p->trans_b)
      snprintf(err, errlen, "%s reads %s transposed and gemmtop transposes it first: the exported launcher runs the "
                            "kernel alone; choose the layout it reads (--layout %s%s)", k->name,
               g->trans_a != e->p->trans_a ? "A" : "B", g->trans_a ? "T" : "N", g->trans_b ? "T" : "N");
   else
      return true;
   return false;
}

/* OpenCL: the launcher's reference is plain C over float or double operands. */
static bool openclExportable(const Export *e, char *err, size_t errlen) {
   const TypeTraits *t = Types_of(e->p->precision);
   if (!launchable(e, err, errlen))
      return false;
   /* A, B and C stored alike in a C type (float or double), multiplied with no cut. */
   if (t->in != t->out || Storage_size(t->out) < sizeof(float) || t->product_error > 0 || e->k->tensor || t->scaled)
      snprintf(err, errlen, "the OpenCL export takes float and double GEMMs on CUDA cores (its launcher's reference is "
                            "plain C); this is %s%s; --backend cuda exports tensor-core kernels for nvcc",
               Precision_name(e->p->precision), e->k->tensor ? " on tensor cores" : "");
   else if (e->g->ntma || e->g->dynamic_smem > 0)
      snprintf(err, errlen, "%s uses tensor maps or dynamic shared memory, which only the CUDA backend gives: "
                            "--backend cuda exports it for nvcc", e->k->name);
   else
      return true;
   return false;
}

/* CUDA: every type (FP8 with per-tensor or block scales), on an architecture nvcc is told; a
 * persistent grid is sized for a real device's multiprocessors. */
static bool cudaExportable(const Export *e, char *err, size_t errlen) {
   if (!launchable(e, err, errlen))
      return false;
   if (!e->arch[0])
      snprintf(err, errlen, "%s reports no architecture for nvcc: name one with --arch (e.g. sm_90)",
               e->t->dev->name);
   else if (e->g->cus && e->t->arch && !e->t->dev->limits.compute_units)
      snprintf(err, errlen, "%s's persistent grid is sized for the device's multiprocessors, which --arch does not "
                            "tell: give them with --compute-units N (132 on an H100 SXM), or export on the machine "
                            "with the GPU (without --arch)", e->k->name);
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

/* The first lines of every file: what this is and where it came from. */
static void putOrigin(TextBuf *t, const Export *e, const char *close) {
   char params[512], date[32], where[200];
   KernelInfo_formatParams(e->k, e->values, params, sizeof params);
   time_t now = time(NULL);
   struct tm tm;
   gmtime_r(&now, &tm);
   strftime(date, sizeof date, "%Y-%m-%d", &tm);
   const Problem *p = e->p;
   if (e->t->arch)
      snprintf(where, sizeof where, "%s (%s, no device)", e->t->arch, e->t->be->name);
   else
      snprintf(where, sizeof where, "%s (%s)", e->t->dev->name, e->t->be->name);
   TextBuf_put(t, "/* %s %s, exported by gemmtop %s on %s\n", e->k->name, params, GEMMTOP_VERSION, date);
   TextBuf_put(t, " * for %dx%dx%d %s, %c%c, alpha %g, beta %g, on %s.\n", p->m, p->n, p->k,
               Precision_name(p->precision), p->trans_a ? 'T' : 'N', p->trans_b ? 'T' : 'N', p->alpha, p->beta, where);
   TextBuf_put(t, " * The same in gemmtop: gemmtop run --backend %s --kernel %s --set '%s' -m %d -n %d -k %d "
                  "--precision %s --layout %c%c --alpha %g --beta %g %s\n",
               e->t->be->name, e->k->name, params, p->m, p->n, p->k, Precision_name(p->precision),
               p->trans_a ? 'T' : 'N', p->trans_b ? 'T' : 'N', p->alpha, p->beta, close);
}

static char *kernelFile(const Export *e) {
   char *source = Session_sourceNamed(e->t->cat, Backend_can(e->t->be, BACKEND_CAP_CUDA_PRELUDE), e->k->source,
                                      e->k->path);
   if (!source)
      return NULL;
   TextBuf t = {0};
   putOrigin(&t, e, "*/");
   TextBuf_put(&t, "/* Its parameters and element type, as gemmtop passes them to the compiler. */\n");
   putDefines(&t, e->defines);
   TextBuf_put(&t, "\n%s\n", source);
   free(source);
   return TextBuf_finish(&t);
}

/* The problem and the check, as both launchers define them. The bound of a sum of K
 * products in any order, with or without fused multiply-adds, plus alpha's and beta's
 * roundings: (K + 4) units of the last place; and what the inputs lose before they are
 * multiplied (TF32), or 3xTF32's dropped lo*lo and lo cut to TF32 (2^-19 of a product). */
static void putProblem(TextBuf *t, const Export *e) {
   const Problem *p = e->p;
   const TypeTraits *tt = Types_of(p->precision);
   bool dbl = tt->fp64;
   /* FP32 inputs on tensor cores (no rounding of their own): 3xTF32; A, B and C stored
    * alike, not in double, with no cut is float */
   bool fp32_in = tt->in == tt->out && !tt->fp64 && tt->product_error == 0;
   double split3 = e->k->tensor && fp32_in ? 0x1p-19 : 0;
   TextBuf_put(t, "#define GEMM_M %d\n#define GEMM_N %d\n#define GEMM_K %d\n", p->m, p->n, p->k);
   TextBuf_put(t, "#define GEMM_TRANS_A %d\n#define GEMM_TRANS_B %d\n", p->trans_a ? 1 : 0, p->trans_b ? 1 : 0);
   TextBuf_put(t, "#define GEMM_ALPHA ((double)%.17g)\n#define GEMM_BETA ((double)%.17g)\n", p->alpha, p->beta);
   TextBuf_put(t, "#define GEMM_ROUNDS 21\n");
   TextBuf_put(t, "#define GEMM_TOL %.3g\n", (p->k + 4) * (dbl ? 0x1p-52 : 0x1p-23) + tt->product_error + split3);
   /* The FP8 tensor core's accumulator (core/run/verify.h): promoted into FP32 every
    * GEMM_FP8_INTERVAL products; 0: summed in FP32. */
   const Geometry *g = e->g;
   TextBuf_put(t, "#define GEMM_BLOCK_SCALES %d\n", Problem_scaled(p) && p->scaling == SCALING_BLOCK);
   TextBuf_put(t, "#define GEMM_FP8_INTERVAL %lld\n",
               g->fp8_accumulator ? (g->promote_interval > 0 ? g->promote_interval : (long long)p->k) : 0LL);
}

/* Inputs, the median and the check: plain C that both launchers share. gemm_in (an
 * element of A and B as stored), real, GEMM_VALUE(array, i) (an element as a number) and
 * the problem's GEMM_ names come before it. */
static const char *const checkBody =
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
    "/* C against a product in double: every element while that is at most 2^28 multiply-adds,\n"
    " * else 2^28 / K elements drawn at random. An element passes within GEMM_TOL of the sum of\n"
    " * the magnitudes that made it (rounding grows with that sum, not with the result).\n"
    " * Returns the elements beyond; *worst and *checked say the rest. */\n"
    "#ifndef GEMM_VALUE_A /* an operand's value: with its scale, where it has one */\n"
    "#define GEMM_VALUE_A GEMM_VALUE\n"
    "#define GEMM_VALUE_B GEMM_VALUE\n"
    "#endif\n"
    "#ifndef GEMM_SCALE_OF_A /* a block's scale, where the operands have block scales */\n"
    "#define GEMM_SCALE_OF_A(i, p) 1.0\n"
    "#define GEMM_SCALE_OF_B(p, j) 1.0\n"
    "#endif\n"
    "/* op(A)[i][p] and op(B)[p][j] as numbers, from the storage of the layout */\n"
    "#define GEMM_A(x, i, p) (GEMM_VALUE_A(x, GEMM_TRANS_A ? (p) * GEMM_M + (i) : (i) * GEMM_K + (p)) * GEMM_SCALE_OF_A(i, p))\n"
    "#define GEMM_B(x, p, j) (GEMM_VALUE_B(x, GEMM_TRANS_B ? (j) * GEMM_K + (p) : (p) * GEMM_N + (j)) * GEMM_SCALE_OF_B(p, j))\n"
    "#ifndef GEMM_FP8_INTERVAL\n"
    "#define GEMM_FP8_INTERVAL 0\n"
    "#endif\n"
    "\n"
    "#if GEMM_FP8_INTERVAL\n"
    "/* The FP8 tensor core's accumulator, as gemmtop bounds it (its core/run/verify.h): about 13\n"
    " * fraction bits kept over each k-step of 32 products, added into FP32 every\n"
    " * GEMM_FP8_INTERVAL products: 2 2^-13 sqrt(sum over the steps of 32 m^2), m the largest of\n"
    " * the interval's running sum before and after the step and of its products. */\n"
    "static double accumulatorBound(const gemm_in *a, const gemm_in *b, size_t i, size_t j) {\n"
    "   double squares = 0;\n"
    "   for (size_t i0 = 0; i0 < GEMM_K; i0 += GEMM_FP8_INTERVAL) {\n"
    "      size_t i1 = i0 + GEMM_FP8_INTERVAL < GEMM_K ? i0 + GEMM_FP8_INTERVAL : GEMM_K;\n"
    "      double s = 0;\n"
    "      for (size_t g0 = i0; g0 < i1; g0 += 32) {\n"
    "         size_t g1 = g0 + 32 < i1 ? g0 + 32 : i1;\n"
    "         double m = fabs(s);\n"
    "         for (size_t p = g0; p < g1; p++) {\n"
    "            double x = GEMM_A(a, i, p), y = GEMM_B(b, p, j);\n"
    "            s += x * y;\n"
    "            if (fabs(x * y) > m)\n"
    "               m = fabs(x * y);\n"
    "         }\n"
    "         if (fabs(s) > m)\n"
    "            m = fabs(s);\n"
    "         squares += (double)(g1 - g0) * m * m;\n"
    "      }\n"
    "   }\n"
    "   return 2 * 0x1p-13 * sqrt(squares);\n"
    "}\n"
    "#endif\n"
    "\n"
    "static size_t check(const gemm_in *a, const gemm_in *b, const real *c0, const real *c, double *worst,\n"
    "                    size_t *checked) {\n"
    "   const size_t nc = (size_t)GEMM_M * GEMM_N, budget = ((size_t)1 << 28) / GEMM_K + 1;\n"
    "   const int all = nc <= budget;\n"
    "   size_t bad = 0;\n"
    "   *checked = all ? nc : budget;\n"
    "   *worst = 0;\n"
    "   for (size_t s = 0; s < *checked; s++) {\n"
    "      size_t e = all ? s : (size_t)((uniform() + 1) / 2 * (double)nc) % nc;\n"
    "      size_t i = e / GEMM_N, j = e % GEMM_N;\n"
    "      double sum = 0, mag = 0;\n"
    "      for (size_t p = 0; p < GEMM_K; p++) {\n"
    "         double x = GEMM_A(a, i, p), y = GEMM_B(b, p, j);\n"
    "         sum += x * y;\n"
    "         mag += fabs(x * y);\n"
    "      }\n"
    "      double ref = GEMM_ALPHA * sum + GEMM_BETA * (double)c0[e];\n"
    "      double scale = fabs(GEMM_ALPHA) * mag + fabs(GEMM_BETA * (double)c0[e]) + 1e-30;\n"
    "#if GEMM_FP8_INTERVAL\n"
    "      /* the accumulator's bound beside the rounding's, on the tolerance's scale */\n"
    "      scale += fabs(GEMM_ALPHA) * accumulatorBound(a, b, i, j) / GEMM_TOL;\n"
    "#endif\n"
    "      double err = fabs((double)c[e] - ref) / scale;\n"
    "      if (!(err <= GEMM_TOL))\n"
    "         bad++;\n"
    "      if (!(err <= *worst))\n"
    "         *worst = err;\n"
    "   }\n"
    "   return bad;\n"
    "}\n"
    "\n"
    "/* The last lines, alike for every launcher; the exit status 0 verified, 1 wrong. */\n"
    "static int report(const char *entry, const char *device, double *ms, size_t bad, double worst, size_t checked) {\n"
    "   qsort(ms, GEMM_ROUNDS, sizeof ms[0], cmp);\n"
    "   double median = ms[GEMM_ROUNDS / 2];\n"
    "   printf(\"%s on %s: %dx%dx%d, median %.4f ms of %d launches, %.2f GFLOPS\\n\", entry, device, GEMM_M, GEMM_N,\n"
    "          GEMM_K, median, GEMM_ROUNDS, 2.0 * GEMM_M * GEMM_N * GEMM_K / median / 1e6);\n"
    "   const size_t nc = (size_t)GEMM_M * GEMM_N;\n"
    "   char what[96];\n"
    "   if (checked == nc)\n"
    "      snprintf(what, sizeof what, \"all %zu elements\", nc);\n"
    "   else\n"
    "      snprintf(what, sizeof what, \"%zu of %zu elements, drawn at random\", checked, nc);\n"
    "   if (bad) {\n"
    "      printf(\"WRONG: %zu of %s beyond the tolerance (worst relative error %.3g, tolerance %.3g)\\n\", bad, what,\n"
    "             worst, (double)GEMM_TOL);\n"
    "      return 1;\n"
    "   }\n"
    "   printf(\"verified: %s, worst relative error %.3g (tolerance %.3g)\\n\", what, worst, (double)GEMM_TOL);\n"
    "   return 0;\n"
    "}\n"
    "\n";

/* The OpenCL launcher: plain C99 and the OpenCL 1.2 API. */
static const char *const openclHead =
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
    "\n";

static const char *const openclMain =
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
    "   /* A is M x K (K x M stored when GEMM_TRANS_A), B is K x N (N x K when GEMM_TRANS_B), C is M x N;\n"
    "    * all row-major. */\n"
    "   size_t na = (size_t)GEMM_M * GEMM_K, nb = (size_t)GEMM_K * GEMM_N, nc = (size_t)GEMM_M * GEMM_N;\n"
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
    "   cl_int m = GEMM_M, n = GEMM_N, k = GEMM_K;\n"
    "   real alpha = (real)GEMM_ALPHA, beta = (real)GEMM_BETA;\n"
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
    "   /* NaN bits in every slot: a fix-up that reads one no work-group wrote shows in C */\n"
    "   const cl_uint ones = 0xffffffffu;\n"
    "   if ((e = clEnqueueFillBuffer(q, dw, &ones, sizeof ones, 0, WORKSPACE > 16 ? WORKSPACE : 16, 0, NULL, NULL)) !=\n"
    "       CL_SUCCESS)\n"
    "      die(\"clEnqueueFillBuffer (workspace)\", e);\n"
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
    "   /* One untimed launch, then GEMM_ROUNDS timed ones, each on C as it was when beta reads\n"
    "    * it (C goes up again before each, untimed); with beta 0 back to back, as gemmtop times. */\n"
    "   double ms[GEMM_ROUNDS];\n"
    "   for (int r = -1; r < GEMM_ROUNDS; r++) {\n"
    "      if ((r < 0 || GEMM_BETA != 0) &&\n"
    "          (e = clEnqueueWriteBuffer(q, dc, CL_TRUE, 0, nc * sizeof *c, c0, 0, NULL, NULL)) != CL_SUCCESS)\n"
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
    "   double worst;\n"
    "   size_t checked, bad = check(a, b, c0, c, &worst, &checked);\n"
    "   return report(ENTRY, name, ms, bad, worst, checked);\n"
    "}\n";

/* The CUDA launcher: C++ for nvcc and the CUDA runtime API. It includes the kernel's file
 * (one translation unit); the system's headers come first, so that the kernel's OpenCL
 * words (__global, __local) reach none of them. */
static const char *const cudaHead =
    "#include <math.h>\n"
    "#include <stdio.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "#include <cuda.h>\n"
    "#include <cuda_runtime.h>\n"
    "\n";

/* Host-side 16-bit conversions, rounding to nearest even; the inputs lie in [-1, 1). */
static const char *const cudaConvert =
    "#if GEMM_IN_KIND == 1\n"
    "static unsigned short toHalf(double x) {\n"
    "   unsigned short sign = signbit(x) ? 0x8000 : 0;\n"
    "   x = fabs(x);\n"
    "   if (x < 0x1p-14) /* subnormal: steps of 2^-24 (1024 of them is the first normal) */\n"
    "      return sign | (unsigned short)nearbyint(x * 0x1p24);\n"
    "   int e;\n"
    "   double f = frexp(x, &e); /* x = f 2^e, f in [0.5, 1) */\n"
    "   double m = nearbyint((f * 2 - 1) * 1024);\n"
    "   if (m == 1024)\n"
    "      m = 0, e++;\n"
    "   return sign | (unsigned short)((e - 1 + 15) << 10) | (unsigned short)m;\n"
    "}\n"
    "static double fromHalf(unsigned short h) {\n"
    "   int e = (h >> 10) & 31, m = h & 1023;\n"
    "   double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);\n"
    "   return h & 0x8000 ? -v : v;\n"
    "}\n"
    "#define GEMM_VALUE(x, i) fromHalf((x)[i])\n"
    "#define GEMM_STORE(x) toHalf(x)\n"
    "#elif GEMM_IN_KIND == 2\n"
    "static unsigned short toBf16(double x) {\n"
    "   float f = (float)x;\n"
    "   unsigned u;\n"
    "   memcpy(&u, &f, 4);\n"
    "   return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);\n"
    "}\n"
    "static double fromBf16(unsigned short b) {\n"
    "   unsigned u = (unsigned)b << 16;\n"
    "   float f;\n"
    "   memcpy(&f, &u, 4);\n"
    "   return f;\n"
    "}\n"
    "#define GEMM_VALUE(x, i) fromBf16((x)[i])\n"
    "#define GEMM_STORE(x) toBf16(x)\n"
    "#elif GEMM_IN_KIND == 3 || GEMM_IN_KIND == 4\n"
    "/* FP8 patterns (e4m3: float8_e4m3fn, e5m2: float8_e5m2), rounding to nearest even; each\n"
    " * operand's values are its patterns times its scale (GEMM_SCALE_A, GEMM_SCALE_B: powers of\n"
    " * two, so that the inputs' [-1, 1) lies in the patterns' range as 1/scale times it). */\n"
    "#define GEMM_FP8_FRAC (GEMM_IN_KIND == 3 ? 3 : 2)\n"
    "#define GEMM_FP8_BIAS (GEMM_IN_KIND == 3 ? 7 : 15)\n"
    "static unsigned char toFp8(double x) {\n"
    "   unsigned char sign = signbit(x) ? 0x80 : 0;\n"
    "   x = fabs(x);\n"
    "   if (x < ldexp(1, 1 - GEMM_FP8_BIAS)) /* subnormal: 2^frac steps below the first normal */\n"
    "      return sign | (unsigned char)nearbyint(ldexp(x, GEMM_FP8_BIAS - 1 + GEMM_FP8_FRAC));\n"
    "   int e;\n"
    "   double f = frexp(x, &e); /* x = f 2^e, f in [0.5, 1) */\n"
    "   double m = nearbyint((f * 2 - 1) * (1 << GEMM_FP8_FRAC));\n"
    "   if (m == (1 << GEMM_FP8_FRAC))\n"
    "      m = 0, e++;\n"
    "   return sign | (unsigned char)(((e - 1 + GEMM_FP8_BIAS) << GEMM_FP8_FRAC) | (int)m);\n"
    "}\n"
    "static double fromFp8(unsigned char b) {\n"
    "   int e = (b & 0x7f) >> GEMM_FP8_FRAC, m = b & ((1 << GEMM_FP8_FRAC) - 1);\n"
    "   double v = e ? ldexp((1 << GEMM_FP8_FRAC) + m, e - GEMM_FP8_BIAS - GEMM_FP8_FRAC)\n"
    "                : ldexp(m, 1 - GEMM_FP8_BIAS - GEMM_FP8_FRAC);\n"
    "   return b & 0x80 ? -v : v;\n"
    "}\n"
    "/* fromFp8 through a table: the check reads up to 2^29 operands */\n"
    "static double fp8Value(unsigned char b) {\n"
    "   static double table[256];\n"
    "   static int filled;\n"
    "   if (!filled) {\n"
    "      for (int i = 0; i < 256; i++)\n"
    "         table[i] = fromFp8((unsigned char)i);\n"
    "      filled = 1;\n"
    "   }\n"
    "   return table[b];\n"
    "}\n"
    "#define GEMM_SCALE_A 0.0625 /* A's values up to 16 as patterns */\n"
    "#define GEMM_SCALE_B 0.125\n"
    "#define GEMM_VALUE_A(x, i) (fp8Value((x)[i]) * GEMM_SCALE_A)\n"
    "#define GEMM_VALUE_B(x, i) (fp8Value((x)[i]) * GEMM_SCALE_B)\n"
    "#define GEMM_STORE_A(x) toFp8((x) / GEMM_SCALE_A)\n"
    "#define GEMM_STORE_B(x) toFp8((x) / GEMM_SCALE_B)\n"
    "#else\n"
    "#define GEMM_VALUE(x, i) ((double)(x)[i])\n"
    "#define GEMM_STORE(x) ((gemm_in)(x))\n"
    "#endif\n"
    "#ifndef GEMM_STORE_A\n"
    "#define GEMM_STORE_A GEMM_STORE\n"
    "#define GEMM_STORE_B GEMM_STORE\n"
    "#endif\n"
    "#if GEMM_BLOCK_SCALES\n"
    "/* Block scales, laid out as gemmtop lays them (its core/model/scales.h): A's M x KB, one\n"
    " * per 1 x 128 slice of a row of op(A); B's KB x NB, one per 128 x 128 block of op(B).\n"
    " * Each is a power of two drawn per block (1/4 to 1/64): a kernel that reads a block\n"
    " * with another's scale is off by a power of two wherever the two differ. They replace\n"
    " * the per-tensor scales above in the operands' values. */\n"
    "#define GEMM_KB ((GEMM_K + 127) / 128)\n"
    "#define GEMM_NB ((GEMM_N + 127) / 128)\n"
    "static float *scalesA, *scalesB;\n"
    "#define GEMM_SCALE_OF_A(i, p) ((double)scalesA[(size_t)(i) * GEMM_KB + (size_t)(p) / 128])\n"
    "#define GEMM_SCALE_OF_B(p, j) ((double)scalesB[(size_t)(p) / 128 * GEMM_NB + (size_t)(j) / 128])\n"
    "#undef GEMM_VALUE_A\n"
    "#undef GEMM_VALUE_B\n"
    "#define GEMM_VALUE_A(x, i) fp8Value((x)[i])\n"
    "#define GEMM_VALUE_B(x, i) fp8Value((x)[i])\n"
    "#endif\n"
    "\n"
    "static void check_cuda(cudaError_t e, const char *what) {\n"
    "   if (e != cudaSuccess) {\n"
    "      fprintf(stderr, \"%s failed: %s\\n\", what, cudaGetErrorString(e));\n"
    "      exit(2);\n"
    "   }\n"
    "}\n"
    "\n";

/* Tensor maps, encoded by the driver's cuTensorMapEncodeTiled, reached through the runtime
 * (no -lcuda): a row-major matrix of rows x cols, in boxes of box_rows x box_cols. NULL, or
 * why not (the PyTorch extension's launch returns it; the launcher's tensorMap exits). */
static const char *const cudaTensorMapEncode =
    "typedef CUresult (*EncodeTiled)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,\n"
    "                                const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,\n"
    "                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);\n"
    "static const char *encodeTensorMap(GtTensorMap *out, void *base, long long rows, long long cols, int box_rows,\n"
    "                                   int box_cols, int swizzle) {\n"
    "   static EncodeTiled encode;\n"
    "   static char why[160];\n"
    "   if (!encode) {\n"
    "      void *fn = NULL;\n"
    "      cudaDriverEntryPointQueryResult found;\n"
    "#if CUDART_VERSION >= 12050\n"
    "      cudaError_t e = cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", &fn, 12000, cudaEnableDefault, &found);\n"
    "#else\n"
    "      cudaError_t e = cudaGetDriverEntryPoint(\"cuTensorMapEncodeTiled\", &fn, cudaEnableDefault, &found);\n"
    "#endif\n"
    "      if (e != cudaSuccess || !fn || found != cudaDriverEntryPointSuccess)\n"
    "         return \"this driver has no cuTensorMapEncodeTiled (CUDA 12 or later is needed for TMA)\";\n"
    "      encode = (EncodeTiled)fn;\n"
    "   }\n"
    "   const CUtensorMapSwizzle swizzles[5] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,\n"
    "                                           CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_64B,\n"
    "                                           CU_TENSOR_MAP_SWIZZLE_128B};\n"
    "   const cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};\n"
    "   const cuuint64_t strides[1] = {(cuuint64_t)cols * sizeof(gemm_in)};\n"
    "   const cuuint32_t box[2] = {(cuuint32_t)box_cols, (cuuint32_t)box_rows}, unit[2] = {1, 1};\n"
    "   CUtensorMap map;\n"
    "   CUresult r = encode(&map, sizeof(gemm_in) == 1   ? CU_TENSOR_MAP_DATA_TYPE_UINT8\n"
    "                             : sizeof(gemm_in) == 2 ? CU_TENSOR_MAP_DATA_TYPE_UINT16\n"
    "                                                    : CU_TENSOR_MAP_DATA_TYPE_UINT32,\n"
    "                       2, base, dims, strides, box, unit, CU_TENSOR_MAP_INTERLEAVE_NONE, swizzles[swizzle / 32],\n"
    "                       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);\n"
    "   if (r != CUDA_SUCCESS) {\n"
    "      snprintf(why, sizeof why, \"cuTensorMapEncodeTiled (%lld x %lld, box %d x %d, swizzle %d) failed: error %d\",\n"
    "               rows, cols, box_rows, box_cols, swizzle, (int)r);\n"
    "      return why;\n"
    "   }\n"
    "   memcpy(out, &map, sizeof *out);\n"
    "   return NULL;\n"
    "}\n"
    "\n";
static const char *const cudaTensorMaps =
    "static GtTensorMap tensorMap(void *base, long long rows, long long cols, int box_rows, int box_cols, int swizzle) {\n"
    "   GtTensorMap out;\n"
    "   const char *why = encodeTensorMap(&out, base, rows, cols, box_rows, box_cols, swizzle);\n"
    "   if (why) {\n"
    "      fprintf(stderr, \"%s\\n\", why);\n"
    "      exit(2);\n"
    "   }\n"
    "   return out;\n"
    "}\n"
    "\n";

/* main's first part: the device, the inputs, the buffers. */
static const char *const cudaMainStart =
    "int main(int argc, char **argv) {\n"
    "   int want = argc > 1 ? atoi(argv[1]) : 0;\n"
    "   if (argc > 2)\n"
    "      state = strtoull(argv[2], NULL, 10) | 1;\n"
    "   int count = 0;\n"
    "   cudaError_t e = cudaGetDeviceCount(&count);\n"
    "   if (e != cudaSuccess || count == 0) {\n"
    "      fprintf(stderr, \"no CUDA device (%s)\\n\", e != cudaSuccess ? cudaGetErrorString(e) : \"none found\");\n"
    "      return 2;\n"
    "   }\n"
    "   if (want < 0 || want >= count) {\n"
    "      fprintf(stderr, \"no CUDA device %d (there are %d)\\n\", want, count);\n"
    "      return 2;\n"
    "   }\n"
    "   check_cuda(cudaSetDevice(want), \"cudaSetDevice\");\n"
    "   cudaDeviceProp prop;\n"
    "   check_cuda(cudaGetDeviceProperties(&prop, want), \"cudaGetDeviceProperties\");\n"
    "   const int sm = prop.major * 10 + prop.minor;\n"
    "   if (GEMM_ARCH_SPECIFIC ? sm != GEMM_SM : sm < GEMM_SM) {\n"
    "      fprintf(stderr, \"%s is sm_%d; this launcher was built for %s%s: %s\\n\", prop.name, sm, GEMM_ARCH,\n"
    "              GEMM_ARCH_SPECIFIC ? \", which runs on that architecture alone\" : \" and newer\",\n"
    "              GEMM_ARCH_SPECIFIC ? \"this kernel needs it\" : \"rebuild with make ARCH=sm_XX for this GPU\");\n"
    "      return 2;\n"
    "   }\n"
    "   /* A is M x K (K x M stored when GEMM_TRANS_A), B is K x N (N x K when GEMM_TRANS_B),\n"
    "    * C is M x N; all row-major. */\n"
    "   const size_t na = (size_t)GEMM_M * GEMM_K, nb = (size_t)GEMM_K * GEMM_N, nc = (size_t)GEMM_M * GEMM_N;\n"
    "   gemm_in *a = (gemm_in *)malloc(na * sizeof *a), *b = (gemm_in *)malloc(nb * sizeof *b);\n"
    "   real *c0 = (real *)malloc(nc * sizeof *c0), *c = (real *)malloc(nc * sizeof *c);\n"
    "   if (!a || !b || !c0 || !c) {\n"
    "      fprintf(stderr, \"out of memory\\n\");\n"
    "      return 2;\n"
    "   }\n"
    "#if GEMM_BLOCK_SCALES\n"
    "   const size_t nsa = (size_t)GEMM_M * GEMM_KB, nsb = (size_t)GEMM_KB * GEMM_NB;\n"
    "   scalesA = (float *)malloc(nsa * sizeof *scalesA);\n"
    "   scalesB = (float *)malloc(nsb * sizeof *scalesB);\n"
    "   if (!scalesA || !scalesB) {\n"
    "      fprintf(stderr, \"out of memory\\n\");\n"
    "      return 2;\n"
    "   }\n"
    "   for (size_t s = 0; s < nsa; s++)\n"
    "      scalesA[s] = (float)ldexp(1, -2 - (int)((uniform() + 1) * 2.5));\n"
    "   for (size_t s = 0; s < nsb; s++)\n"
    "      scalesB[s] = (float)ldexp(1, -2 - (int)((uniform() + 1) * 2.5));\n"
    "   /* each element is its value over its block's scale, as FP8 */\n"
    "   for (size_t i = 0; i < (size_t)GEMM_M; i++)\n"
    "      for (size_t p = 0; p < (size_t)GEMM_K; p++)\n"
    "         a[GEMM_TRANS_A ? p * GEMM_M + i : i * GEMM_K + p] = toFp8(uniform() / GEMM_SCALE_OF_A(i, p));\n"
    "   for (size_t p = 0; p < (size_t)GEMM_K; p++)\n"
    "      for (size_t j = 0; j < (size_t)GEMM_N; j++)\n"
    "         b[GEMM_TRANS_B ? j * GEMM_K + p : p * GEMM_N + j] = toFp8(uniform() / GEMM_SCALE_OF_B(p, j));\n"
    "#else\n"
    "   for (size_t i = 0; i < na; i++)\n"
    "      a[i] = GEMM_STORE_A(uniform());\n"
    "   for (size_t i = 0; i < nb; i++)\n"
    "      b[i] = GEMM_STORE_B(uniform());\n"
    "#endif\n"
    "   for (size_t i = 0; i < nc; i++)\n"
    "      c0[i] = (real)uniform();\n"
    "   gemm_in *da, *db;\n"
    "   real *dc;\n"
    "   check_cuda(cudaMalloc((void **)&da, na * sizeof *a), \"cudaMalloc (A)\");\n"
    "   check_cuda(cudaMalloc((void **)&db, nb * sizeof *b), \"cudaMalloc (B)\");\n"
    "   check_cuda(cudaMalloc((void **)&dc, nc * sizeof *c), \"cudaMalloc (C)\");\n"
    "   check_cuda(cudaMemcpy(da, a, na * sizeof *a, cudaMemcpyHostToDevice), \"cudaMemcpy (A)\");\n"
    "   check_cuda(cudaMemcpy(db, b, nb * sizeof *b, cudaMemcpyHostToDevice), \"cudaMemcpy (B)\");\n"
    "#if GEMM_BLOCK_SCALES\n"
    "   /* the block scales, after C */\n"
    "   float *dsa, *dsb;\n"
    "   check_cuda(cudaMalloc((void **)&dsa, nsa * sizeof *dsa), \"cudaMalloc (A's scales)\");\n"
    "   check_cuda(cudaMalloc((void **)&dsb, nsb * sizeof *dsb), \"cudaMalloc (B's scales)\");\n"
    "   check_cuda(cudaMemcpy(dsa, scalesA, nsa * sizeof *dsa, cudaMemcpyHostToDevice), \"cudaMemcpy (A's scales)\");\n"
    "   check_cuda(cudaMemcpy(dsb, scalesB, nsb * sizeof *dsb, cudaMemcpyHostToDevice), \"cudaMemcpy (B's scales)\");\n"
    "#elif defined(GEMM_SCALE_A)\n"
    "   /* the per-tensor scales, one float each, after C */\n"
    "   const float scales[2] = {(float)GEMM_SCALE_A, (float)GEMM_SCALE_B};\n"
    "   float *dsa, *dsb;\n"
    "   check_cuda(cudaMalloc((void **)&dsa, sizeof *dsa), \"cudaMalloc (A's scale)\");\n"
    "   check_cuda(cudaMalloc((void **)&dsb, sizeof *dsb), \"cudaMalloc (B's scale)\");\n"
    "   check_cuda(cudaMemcpy(dsa, &scales[0], sizeof *dsa, cudaMemcpyHostToDevice), \"cudaMemcpy (A's scale)\");\n"
    "   check_cuda(cudaMemcpy(dsb, &scales[1], sizeof *dsb, cudaMemcpyHostToDevice), \"cudaMemcpy (B's scale)\");\n"
    "#endif\n"
    "#if GEMM_WORKSPACE >= 0\n"
    "   /* split-K, stream-K: the partial sums' workspace, after C */\n"
    "   void *dw;\n"
    "   check_cuda(cudaMalloc(&dw, GEMM_WORKSPACE > 16 ? GEMM_WORKSPACE : 16), \"cudaMalloc (workspace)\");\n"
    "   /* NaN bits in every slot: a fix-up that reads one no work-group wrote shows in C */\n"
    "   check_cuda(cudaMemset(dw, 0xff, GEMM_WORKSPACE > 16 ? GEMM_WORKSPACE : 16), \"cudaMemset (workspace)\");\n"
    "#endif\n"
    "#if GEMM_SMEM > 0\n"
    "   check_cuda(cudaFuncSetAttribute(gemm, cudaFuncAttributeMaxDynamicSharedMemorySize, GEMM_SMEM),\n"
    "              \"cudaFuncSetAttribute (dynamic shared memory)\");\n"
    "#endif\n";

/* The stream held while a timed round is queued, as gemmtop times (gpu_common.h): without
 * it the start event is recorded on an idle GPU, which then waits for the host's launch,
 * and a short kernel's time grows by the host's microseconds. The host releases the hold
 * by writing the round's ticket into a page-locked counter; 50 ms at most. */
static const char *const cudaHold =
    "/* No hold under a profiler (Nsight Systems, Nsight Compute), which serialises the launches:\n"
    " * the hold would wait out its 50 ms before every timed round. */\n"
    "static int profiler_injected(void) {\n"
    "   const char *names[] = {\"CUDA_INJECTION64_PATH\", \"NV_NSIGHT_INJECTION_TRANSPORT_TYPE\", \"NV_TPS_LAUNCH_TOKEN\"};\n"
    "   for (int i = 0; i < 3; i++) {\n"
    "      const char *v = getenv(names[i]);\n"
    "      if (v && *v)\n"
    "         return 1;\n"
    "   }\n"
    "   return 0;\n"
    "}\n"
    "\n"
    "__global__ void hold_stream(const volatile unsigned long long *counter, unsigned long long ticket) {\n"
    "   unsigned long long t0, t;\n"
    "   asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t0));\n"
    "   do {\n"
    "      if (*counter >= ticket)\n"
    "         return;\n"
    "      asm volatile(\"mov.u64 %0, %%globaltimer;\" : \"=l\"(t));\n"
    "   } while (t - t0 < 50000000ull);\n"
    "}\n"
    "\n";

/* main's last part, after the tensor maps: rounds timed with events, the check. */
static const char *const cudaMainEnd =
    "   cudaEvent_t start, stop;\n"
    "   check_cuda(cudaEventCreate(&start), \"cudaEventCreate\");\n"
    "   check_cuda(cudaEventCreate(&stop), \"cudaEventCreate\");\n"
    "   unsigned long long *hold, *dhold;\n"
    "   check_cuda(cudaHostAlloc((void **)&hold, sizeof *hold, cudaHostAllocMapped), \"cudaHostAlloc (hold)\");\n"
    "   *(volatile unsigned long long *)hold = 0;\n"
    "   check_cuda(cudaHostGetDevicePointer((void **)&dhold, hold, 0), \"cudaHostGetDevicePointer (hold)\");\n"
    "   const int unheld = profiler_injected();\n"
    "   /* One untimed launch, then GEMM_ROUNDS timed ones, each on C as it was when beta reads\n"
    "    * it (C goes up again before each, untimed); with beta 0 back to back, as gemmtop times. */\n"
    "   double ms[GEMM_ROUNDS];\n"
    "   for (int r = -1; r < GEMM_ROUNDS; r++) {\n"
    "      if (r < 0 || GEMM_BETA != 0)\n"
    "         check_cuda(cudaMemcpy(dc, c0, nc * sizeof *c, cudaMemcpyHostToDevice), \"cudaMemcpy (C)\");\n"
    "      if (!unheld)\n"
    "         hold_stream<<<1, 1>>>(dhold, (unsigned long long)(r + 2));\n"
    "      check_cuda(cudaEventRecord(start), \"cudaEventRecord\");\n"
    "      GEMM_LAUNCH;\n"
    "      check_cuda(cudaGetLastError(), \"the launch of \" GEMM_ENTRY);\n"
    "      check_cuda(cudaEventRecord(stop), \"cudaEventRecord\");\n"
    "      *(volatile unsigned long long *)hold = (unsigned long long)(r + 2);\n"
    "      check_cuda(cudaEventSynchronize(stop), GEMM_ENTRY);\n"
    "      float t = 0;\n"
    "      check_cuda(cudaEventElapsedTime(&t, start, stop), \"cudaEventElapsedTime\");\n"
    "      if (r >= 0)\n"
    "         ms[r] = t;\n"
    "   }\n"
    "   check_cuda(cudaFreeHost(hold), \"cudaFreeHost (hold)\");\n"
    "   check_cuda(cudaMemcpy(c, dc, nc * sizeof *c, cudaMemcpyDeviceToHost), \"cudaMemcpy (C back)\");\n"
    "   double worst;\n"
    "   size_t checked, bad = check(a, b, c0, c, &worst, &checked);\n"
    "   return report(GEMM_ENTRY, prop.name, ms, bad, worst, checked);\n"
    "}\n";

/* A pointer the kernel takes as whatever type it declares (the workspace). */
static const char *const cudaAnyPointer =
    "struct AnyPointer {\n"
    "   void *p;\n"
    "   template <class T> operator T *() const { return (T *)p; }\n"
    "};\n"
    "\n";

/* The OpenCL launcher's own lines: the kernel's file, its entry, the launch geometry. */
static void putOpenclLaunch(TextBuf *t, const Export *e, const char *kernel_name) {
   const Geometry *g = e->g;
   const KernelInfo *k = e->k;
   TextBuf_put(t, "#define SOURCE \"%s\"\n#define ENTRY \"%s\"\n", kernel_name, k->entry);
   TextBuf_put(t, "#define DIMS %d\n", g->dims);
   for (int i = 0; i < 3; i++)
      TextBuf_put(t, "#define GLOBAL%d %zu\n#define LOCAL%d %zu\n", i, i < g->dims ? g->global[i] : 1, i,
                  i < g->dims ? g->local[i] : 1);
   /* split-K, stream-K: a workspace (-1: the kernel takes none) and a fix-up launch */
   TextBuf_put(t, "#define WORKSPACE %lld\n", g->has_workspace ? g->workspace : -1LL);
   if (g->fixup_dims) {
      TextBuf_put(t, "#define FIXUP \"%s\"\n#define FIXUP_DIMS %d\n", k->fixup_entry, g->fixup_dims);
      for (int i = 0; i < 3; i++)
         TextBuf_put(t, "#define FIXUP_GLOBAL%d %zu\n#define FIXUP_LOCAL%d %zu\n", i,
                     i < g->fixup_dims ? g->fixup_global[i] : 1, i, i < g->fixup_dims ? g->fixup_local[i] : 1);
   }
}

/* Where the persistent grid's size comes from, when the kernel has one. */
static void putPersistent(TextBuf *t, const Export *e) {
   if (e->g->cus && e->t->arch)
      TextBuf_put(t, "/* Its persistent grid is sized for %u compute units (--compute-units; CUS in the kernel):\n"
                     " * on another device it gives the same result, its grid sized for that count. */\n",
                  e->g->cus);
   else if (e->g->cus)
      TextBuf_put(t, "/* Its persistent grid is sized for the %u compute units of %s (CUS in the kernel): on\n"
                     " * another device it gives the same result, its grid sized for this one. */\n",
                  e->g->cus, e->t->dev->name);
}

static char *openclLauncher(const Export *e, const char *kernel_name) {
   const char *name = e->k->name;
   bool dbl = Types_of(e->p->precision)->fp64;
   TextBuf t = {0};
   putOrigin(&t, e, "");
   TextBuf_put(&t, " * A launcher of its own: builds %s with the system's OpenCL, runs it on random inputs,\n"
                   " * times it with the device's events and verifies it against a product in double.\n"
                   " * Build: make (or: cc -O2 -std=c99 -o %s_launch %s_launch.c -lOpenCL -lm)\n"
                   " * Run:   ./%s_launch [KERNEL.cl [DEVICE [SEED]]]   (device: the index over all platforms) */\n",
               kernel_name, name, name, name);
   putPersistent(&t, e);
   putOpenclLaunch(&t, e, kernel_name);
   putProblem(&t, e);
   TextBuf_put(&t, "typedef %s real;\ntypedef real gemm_in;\n#define GEMM_VALUE(x, i) ((double)(x)[i])\n\n",
               dbl ? "double" : "float");
   TextBuf_put(&t, "%s%s%s", openclHead, checkBody, openclMain);
   return TextBuf_finish(&t);
}

/* "dim3(grid), dim3(block)" of an OpenCL launch of dims dimensions: the grid is the global
 * size over the group's. */
static void putGrid(TextBuf *t, int dims, const size_t *global, const size_t *local) {
   size_t grid[3], block[3];
   for (int i = 0; i < 3; i++) {
      block[i] = i < dims ? local[i] : 1;
      grid[i] = i < dims ? global[i] / block[i] : 1;
   }
   TextBuf_put(t, "dim3(%zu, %zu, %zu), dim3(%zu, %zu, %zu)", grid[0], grid[1], grid[2], block[0], block[1],
               block[2]);
}

/* The CUDA launch of the GEMM (and its fix-up): the grid is OpenCL's global size over the
 * group's, the arguments gemmtop passes, in its order. */
static void putCudaLaunch(TextBuf *t, const Export *e, bool on_stream) {
   const Geometry *g = e->g;
   const KernelInfo *k = e->k;
   const char *common = Problem_scaled(e->p) ? "GEMM_M, GEMM_N, GEMM_K, (real)GEMM_ALPHA, da, db, (real)GEMM_BETA, "
                                               "dc, dsa, dsb"
                                             : "GEMM_M, GEMM_N, GEMM_K, (real)GEMM_ALPHA, da, db, (real)GEMM_BETA, dc";
   const char *ws = g->has_workspace ? ", AnyPointer{dw}" : "";
   TextBuf_put(t, "#define GEMM_LAUNCH %s<<<", k->entry);
   putGrid(t, g->dims, g->global, g->local);
   TextBuf_put(t, ", GEMM_SMEM%s>>>(%s%s", on_stream ? ", stream" : "", common, ws);
   for (int i = 0; i < g->ntma; i++)
      TextBuf_put(t, ", tm%d", i);
   TextBuf_put(t, ")");
   if (g->fixup_dims) {
      /* the fix-up's time is the GEMM's too: it runs between the same events */
      TextBuf_put(t, "; \\\n   %s<<<", k->fixup_entry);
      putGrid(t, g->fixup_dims, g->fixup_global, g->fixup_local);
      TextBuf_put(t, "%s>>>(%s%s)", on_stream ? ", 0, stream" : "", common, ws);
   }
   TextBuf_put(t, "\n\n");
}

/* The operands' tensor maps, as gemmtop encodes them: each as the kernel reads it. */
static void putTensorMaps(TextBuf *t, const Export *e, bool returning) {
   const Geometry *g = e->g;
   for (int i = 0; i < g->ntma; i++) {
      long long rows, cols;
      Config_tmaShape(g, i, &rows, &cols);
      if (returning)
         TextBuf_put(t, "   GtTensorMap tm%d;\n   if ((why = encodeTensorMap(&tm%d, %s, %lld, %lld, %d, %d, %d))) /* %c */\n"
                        "      return why;\n",
                     i, i, g->tma[i].operand == 'A' ? "da" : "db", rows, cols, g->tma[i].box[1], g->tma[i].box[0],
                     g->tma[i].swizzle, g->tma[i].operand);
      else
         TextBuf_put(t, "   const GtTensorMap tm%d = tensorMap(%s, %lld, %lld, %d, %d, %d); /* %c */\n", i,
                     g->tma[i].operand == 'A' ? "da" : "db", rows, cols, g->tma[i].box[1], g->tma[i].box[0],
                     g->tma[i].swizzle, g->tma[i].operand);
   }
}

/* The launcher's code for A's and B's storage: 0 as float, 1 half, 2 bfloat16, 3 e4m3, 4 e5m2. */
static int inKind(Precision p) {
   static const int kInKinds[STORAGE_KINDS] = {[STORAGE_F16] = 1, [STORAGE_BF16] = 2, [STORAGE_E4M3] = 3,
                                               [STORAGE_E5M2] = 4};
   return kInKinds[Types_of(p)->in];
}

static char *cudaLauncher(const Export *e, const char *kernel_name) {
   const char *name = e->k->name;
   const Geometry *g = e->g;
   TextBuf t = {0};
   putOrigin(&t, e, "");
   TextBuf_put(&t, " * A launcher of its own: builds %s with nvcc for %s, runs it on random inputs, times it\n"
                   " * with CUDA events and verifies it against a product in double.\n"
                   " * Build: make (or: nvcc -O3 -gencode arch=compute_XX,code=%s -o %s_launch %s_launch.cu)\n"
                   " * Run:   ./%s_launch [DEVICE [SEED]] */\n",
               kernel_name, e->arch, e->arch, name, name, name);
   putPersistent(&t, e);
   TextBuf_put(&t, "#define GEMM_ENTRY \"%s\"\n#define GEMM_ARCH \"%s\"\n#define GEMM_SM %d\n", e->k->entry, e->arch,
               atoi(e->arch + strcspn(e->arch, "0123456789")));
   TextBuf_put(&t, "#define GEMM_ARCH_SPECIFIC %d\n", e->arch[strlen(e->arch) - 1] == 'a');
   TextBuf_put(&t, "#define GEMM_IN_KIND %d /* A and B: 0 as real, 1 half, 2 bfloat16 (16-bit patterns), 3 e4m3, 4 e5m2 */\n",
               inKind(e->p->precision));
   TextBuf_put(&t, "#define GEMM_SMEM %lld /* bytes of dynamic shared memory */\n", g->dynamic_smem);
   TextBuf_put(&t, "#define GEMM_WORKSPACE %lld\n", g->has_workspace ? g->workspace : -1LL);
   putProblem(&t, e);
   TextBuf_put(&t, "\n%s#include \"%s\"\n\ntypedef in_t gemm_in;\n\n", cudaHead, kernel_name);
   TextBuf_put(&t, "%s%s", cudaConvert, checkBody);
   if (g->ntma)
      TextBuf_put(&t, "%s%s", cudaTensorMapEncode, cudaTensorMaps);
   if (g->has_workspace)
      TextBuf_put(&t, "%s", cudaAnyPointer);
   putCudaLaunch(&t, e, false);
   TextBuf_put(&t, "%s%s", cudaHold, cudaMainStart);
   putTensorMaps(&t, e, false);
   TextBuf_put(&t, "%s", cudaMainEnd);
   return TextBuf_finish(&t);
}

static char *openclMakefile(const Export *e) {
   const char *name = e->k->name;
   TextBuf t = {0};
   TextBuf_put(&t, "# Builds the launcher of %s (exported by gemmtop); `make run` runs it.\n", name);
   TextBuf_put(&t, "CC ?= cc\nCFLAGS ?= -O2 -std=c99\n\n");
   TextBuf_put(&t, "%s_launch: %s_launch.c\n\t$(CC) $(CFLAGS) -o $@ $< -lOpenCL -lm\n\n", name, name);
   TextBuf_put(&t, "run: %s_launch\n\t./%s_launch %s.cl\n\n.PHONY: run\n", name, name, name);
   return TextBuf_finish(&t);
}

/* nvcc from PATH, else the toolkit's usual place. The double4 warnings are CUDA 13's
 * deprecation of a type that OpenCL C means. */
static char *cudaMakefile(const Export *e) {
   const char *name = e->k->name;
   TextBuf t = {0};
   TextBuf_put(&t, "# Builds the launcher of %s (exported by gemmtop) with nvcc; `make run` runs it.\n", name);
   TextBuf_put(&t, "NVCC ?= $(shell command -v nvcc || echo /usr/local/cuda/bin/nvcc)\nARCH ?= %s\n"
                   "NVCCFLAGS ?= -O3 -lineinfo\n", e->arch);
   /* the machine code for ARCH and its PTX, which a later GPU compiles (sm_90a's: Hopper alone) */
   TextBuf_put(&t, "VIRTUAL = $(subst sm_,compute_,$(ARCH))\n\n");
   TextBuf_put(&t, "%s_launch: %s_launch.cu %s.cu\n\t$(NVCC) $(NVCCFLAGS) -gencode arch=$(VIRTUAL),code=[$(ARCH),$(VIRTUAL)] "
                   "-diag-suppress=1444 -Xcompiler -Wno-deprecated-declarations -o $@ %s_launch.cu\n\n",
               name, name, name, name);
   TextBuf_put(&t, "run: %s_launch\n\t./%s_launch\n\n.PHONY: run\n", name, name);
   return TextBuf_finish(&t);
}

/* ---- The PyTorch extension (CUDA exports) ----
 * Three files beside the launcher: NAME_entry.cu (the kernel and one C function that makes
 * its launch on a stream, returning why not), NAME_torch.cpp (torch tensors in, checked,
 * C out) and NAME_torch.py (builds both with torch.utils.cpp_extension.load; run, checks
 * the result against a product in float64 and times it beside torch.matmul). Two
 * translation units: the kernel's #defines (BM, __global, restrict) must not meet torch's
 * headers. */

static const char *const kTorchDtypes[STORAGE_KINDS] = {
    [STORAGE_F32] = "Float", [STORAGE_F64] = "Double", [STORAGE_F16] = "Half", [STORAGE_BF16] = "BFloat16",
    [STORAGE_E4M3] = "Float8_e4m3fn", [STORAGE_E5M2] = "Float8_e5m2"};
static const char *const kPythonDtypes[STORAGE_KINDS] = {
    [STORAGE_F32] = "float32", [STORAGE_F64] = "float64", [STORAGE_F16] = "float16", [STORAGE_BF16] = "bfloat16",
    [STORAGE_E4M3] = "float8_e4m3fn", [STORAGE_E5M2] = "float8_e5m2"};

/* 0 no scales, 1 one per tensor, 2 per block (A's 1 x 128, B's 128 x 128) */
static int scalesKind(const Problem *p) {
   return !Problem_scaled(p) ? 0 : p->scaling == SCALING_BLOCK ? 2 : 1;
}

static char *torchEntry(const Export *e, const char *kernel_name) {
   const Geometry *g = e->g;
   TextBuf t = {0};
   putOrigin(&t, e, "");
   TextBuf_put(&t, " * The CUDA half of its PyTorch extension (%s_torch.py builds it): the kernel and\n"
                   " * gemmtop_%s_launch, which makes its launch on a stream. */\n",
               e->k->name, e->k->name);
   TextBuf_put(&t, "#define GEMM_SMEM %lld /* bytes of dynamic shared memory */\n", g->dynamic_smem);
   putProblem(&t, e);
   TextBuf_put(&t, "\n#include <stdio.h>\n#include <string.h>\n#include <cuda.h>\n#include <cuda_runtime.h>\n\n"
                   "#include \"%s\"\n\ntypedef in_t gemm_in;\n\n",
               kernel_name);
   if (g->ntma)
      TextBuf_put(&t, "%s", cudaTensorMapEncode);
   if (g->has_workspace)
      TextBuf_put(&t, "%s", cudaAnyPointer);
   putCudaLaunch(&t, e, true);
   TextBuf_put(&t, "/* A, B, C (and the scales, the workspace) as the kernel reads them: NULL, or why not. */\n"
                   "extern \"C\" const char *gemmtop_%s_launch(void *a, void *b, void *c, void *sa, void *sb, void *w,\n"
                   "                                           cudaStream_t stream) {\n"
                   "   gemm_in *da = (gemm_in *)a, *db = (gemm_in *)b;\n"
                   "   real *dc = (real *)c;\n",
               e->k->name);
   /* only what the launch passes: nvcc warns of a variable set and never used */
   TextBuf_put(&t, "%s", Problem_scaled(e->p) ? "   float *dsa = (float *)sa, *dsb = (float *)sb;\n" : "   (void)sa, (void)sb;\n");
   TextBuf_put(&t, "%s", g->has_workspace ? "   void *dw = w;\n" : "   (void)w;\n");
   if (g->ntma)
      TextBuf_put(&t, "   const char *why;\n");
   /* the dynamic shared memory asked for once a device, not at every call */
   if (g->dynamic_smem > 0)
      TextBuf_put(&t, "   static unsigned long long sized; /* a bit a device */\n"
                      "   int device = 0;\n"
                      "   if (cudaGetDevice(&device) != cudaSuccess)\n"
                      "      return \"cudaGetDevice failed\";\n"
                      "   if (device >= 64 || !(sized >> device & 1)) {\n"
                      "      if (cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, GEMM_SMEM) != cudaSuccess)\n"
                      "         return \"cudaFuncSetAttribute (dynamic shared memory) failed\";\n"
                      "      if (device < 64)\n"
                      "         sized |= 1ull << device;\n"
                      "   }\n",
                  e->k->entry);
   putTensorMaps(&t, e, true);
   TextBuf_put(&t, "   GEMM_LAUNCH;\n"
                   "   cudaError_t err = cudaGetLastError();\n"
                   "   return err == cudaSuccess ? NULL : cudaGetErrorString(err);\n"
                   "}\n");
   return TextBuf_finish(&t);
}

static char *torchBinding(const Export *e) {
   const Problem *p = e->p;
   const Geometry *g = e->g;
   const TypeTraits *tt = Types_of(p->precision);
   const char *name = e->k->name;
   int sm = atoi(e->arch + strcspn(e->arch, "0123456789"));
   TextBuf t = {0};
   putOrigin(&t, e, "");
   TextBuf_put(&t, " * Its PyTorch binding: gemm(a, b, c=None, scale_a=None, scale_b=None) checks the tensors\n"
                   " * against the problem it was exported for and launches it on the current stream. */\n");
   TextBuf_put(&t, "#include <torch/extension.h>\n#include <ATen/cuda/CUDAContext.h>\n#include <c10/cuda/CUDAGuard.h>\n"
                   "#include <cuda_runtime.h>\n\n");
   TextBuf_put(&t, "extern \"C\" const char *gemmtop_%s_launch(void *a, void *b, void *c, void *sa, void *sb, void *w,\n"
                   "                                           cudaStream_t stream);\n\n",
               name);
   TextBuf_put(&t, "static const int64_t M = %d, N = %d, K = %d;\nstatic const bool TRANS_A = %s, TRANS_B = %s;\n", p->m,
               p->n, p->k, p->trans_a ? "true" : "false", p->trans_b ? "true" : "false");
   TextBuf_put(&t, "static const double BETA = %.17g;\nstatic const int64_t WORKSPACE = %lld; /* bytes; -1: none */\n",
               p->beta, g->has_workspace ? g->workspace : -1LL);
   TextBuf_put(&t, "static const int SCALES = %d; /* 0 none, 1 one a tensor, 2 A's 1 x 128 and B's 128 x 128 blocks */\n",
               scalesKind(p));
   TextBuf_put(&t, "static const int SM = %d;\nstatic const bool ARCH_SPECIFIC = %s; /* %s */\n", sm,
               e->arch[strlen(e->arch) - 1] == 'a' ? "true" : "false", e->arch);
   TextBuf_put(&t, "static const torch::ScalarType IN = torch::k%s, OUT = torch::k%s;\n\n", kTorchDtypes[tt->in],
               kTorchDtypes[tt->out]);
   TextBuf_put(&t,
               "static void expect(const torch::Tensor &x, const char *what, torch::ScalarType type, int64_t rows,\n"
               "                   int64_t cols) {\n"
               "   TORCH_CHECK(x.is_cuda(), what, \" must be on a CUDA device\");\n"
               "   TORCH_CHECK(x.scalar_type() == type, what, \" must be \", c10::toString(type), \", not \",\n"
               "               c10::toString(x.scalar_type()));\n"
               "   TORCH_CHECK(x.dim() == 2 && x.size(0) == rows && x.size(1) == cols, what, \" must be \", rows, \" x \", cols,\n"
               "               \" (the size this kernel was exported for), not \", x.sizes());\n"
               "   TORCH_CHECK(x.is_contiguous(), what, \" must be contiguous (row-major)\");\n"
               "}\n\n");
   TextBuf_put(&t,
               "torch::Tensor gemm(torch::Tensor a, torch::Tensor b, c10::optional<torch::Tensor> c,\n"
               "                   c10::optional<torch::Tensor> scale_a, c10::optional<torch::Tensor> scale_b) {\n"
               "   expect(a, \"A\", IN, TRANS_A ? K : M, TRANS_A ? M : K);\n"
               "   expect(b, \"B\", IN, TRANS_B ? N : K, TRANS_B ? K : N);\n"
               "   TORCH_CHECK(a.device() == b.device(), \"A and B must be on one device\");\n"
               "   const c10::cuda::CUDAGuard guard(a.device());\n"
               "   const cudaDeviceProp *prop = at::cuda::getDeviceProperties(a.device().index()); /* PyTorch's, kept */\n"
               "   const int sm = prop->major * 10 + prop->minor;\n"
               "   TORCH_CHECK(ARCH_SPECIFIC ? sm == SM : sm >= SM, \"%s was built for sm_\", SM, ARCH_SPECIFIC ? \"a\" : \"\",\n"
               "               \"; \", prop->name, \" is sm_\", sm);\n"
               "   torch::Tensor out;\n"
               "   if (BETA != 0) {\n"
               "      TORCH_CHECK(c.has_value(), \"beta is \", BETA, \": pass C (\", M, \" x \", N, \")\");\n"
               "      expect(*c, \"C\", OUT, M, N);\n"
               "      out = c->clone();\n"
               "   } else {\n"
               "      out = torch::empty({M, N}, a.options().dtype(OUT));\n"
               "   }\n"
               "   void *sa = nullptr, *sb = nullptr;\n"
               "   if (SCALES) {\n"
               "      TORCH_CHECK(scale_a.has_value() && scale_b.has_value(), \"this kernel takes scale_a and scale_b (float32)\");\n"
               "      const int64_t kb = (K + 127) / 128, nb = (N + 127) / 128;\n"
               "      expect(*scale_a, \"scale_a\", torch::kFloat, SCALES == 2 ? M : 1, SCALES == 2 ? kb : 1);\n"
               "      expect(*scale_b, \"scale_b\", torch::kFloat, SCALES == 2 ? kb : 1, SCALES == 2 ? nb : 1);\n"
               "      sa = scale_a->data_ptr();\n"
               "      sb = scale_b->data_ptr();\n"
               "   } else {\n"
               "      TORCH_CHECK(!scale_a.has_value() && !scale_b.has_value(), \"this kernel takes no scales\");\n"
               "   }\n"
               "   torch::Tensor w;\n"
               "   if (WORKSPACE >= 0) {\n"
               "      /* the partial sums' workspace, all bits set as gemmtop leaves it: NaN, \"not ready\" */\n"
               "      w = torch::empty({WORKSPACE > 16 ? WORKSPACE : 16}, a.options().dtype(torch::kUInt8));\n"
               "      w.fill_(255);\n"
               "   }\n"
               "   const char *why = gemmtop_%s_launch(a.data_ptr(), b.data_ptr(), out.data_ptr(), sa, sb,\n"
               "                                      WORKSPACE >= 0 ? w.data_ptr() : nullptr,\n"
               "                                      at::cuda::getCurrentCUDAStream());\n"
               "   TORCH_CHECK(!why, \"%s: \", why ? why : \"\");\n"
               "   return out;\n"
               "}\n\n",
               name, name, name);
   TextBuf_put(&t, "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n"
                   "   m.def(\"gemm\", &gemm, \"C = alpha op(A) op(B) + beta C by %s, for the size it was exported for\",\n"
                   "         pybind11::arg(\"a\"), pybind11::arg(\"b\"), pybind11::arg(\"c\") = pybind11::none(),\n"
                   "         pybind11::arg(\"scale_a\") = pybind11::none(), pybind11::arg(\"scale_b\") = pybind11::none());\n"
                   "}\n",
               name);
   return TextBuf_finish(&t);
}

/* The loader and its check, in Python: the numbers are the export's, the rest alike. */
static const char *const torchScriptBody =
    "def load(verbose=False):\n"
    "    \"\"\"Builds the extension on first use (nvcc and ninja, torch.utils.cpp_extension) and loads it.\"\"\"\n"
    "    from torch.utils.cpp_extension import load as build\n"
    "    virtual = ARCH.replace(\"sm_\", \"compute_\")\n"
    "    return build(name=\"gemmtop_\" + NAME, verbose=verbose,\n"
    "                 sources=[os.path.join(HERE, NAME + \"_torch.cpp\"), os.path.join(HERE, NAME + \"_entry.cu\")],\n"
    "                 extra_cuda_cflags=[\"-O3\", \"-gencode\", \"arch=%s,code=%s\" % (virtual, ARCH), \"-diag-suppress=1444\",\n"
    "                                    \"-Xcompiler\", \"-Wno-deprecated-declarations\"])\n"
    "\n"
    "\n"
    "def _median_ms(f, rounds=21):\n"
    "    f()\n"
    "    torch.cuda.synchronize()\n"
    "    times = []\n"
    "    for _ in range(rounds):\n"
    "        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)\n"
    "        start.record()\n"
    "        f()\n"
    "        stop.record()\n"
    "        stop.synchronize()\n"
    "        times.append(start.elapsed_time(stop))\n"
    "    return sorted(times)[rounds // 2]\n"
    "\n"
    "\n"
    "def main():\n"
    "    \"\"\"Random inputs (seed: the first argument, else fresh), C against a product in float64 over the\n"
    "    magnitudes that made each element, and the time beside torch.matmul's. Exit 0 verified, 1 wrong.\n"
    "    --build: only build it (several at once, then time them one at a time).\"\"\"\n"
    "    if sys.argv[1:] == [\"--build\"]:\n"
    "        load()\n"
    "        print(\"built gemmtop_\" + NAME)\n"
    "        return 0\n"
    "    seed = int(sys.argv[1]) if len(sys.argv) > 1 else int.from_bytes(os.urandom(4), \"little\")\n"
    "    gen = torch.Generator(device=\"cuda\").manual_seed(seed)\n"
    "    ext = load()\n"
    "    uniform = lambda r, c: torch.rand(r, c, device=\"cuda\", generator=gen, dtype=torch.float64) * 2 - 1\n"
    "    # FP8 to and from float32: not every PyTorch converts it to or from float64\n"
    "    store = lambda t: t.float().to(IN) if IN.itemsize == 1 else t.to(IN)\n"
    "    value = lambda t: t.float().double() if IN.itemsize == 1 else t.double()\n"
    "    kb, nb = (K + 127) // 128, (N + 127) // 128\n"
    "    if SCALES == 2:  # powers of two per block, each element stored over its block's scale\n"
    "        sa = torch.pow(2.0, -2 - torch.randint(0, 5, (M, kb), device=\"cuda\", generator=gen)).float()\n"
    "        sb = torch.pow(2.0, -2 - torch.randint(0, 5, (kb, nb), device=\"cuda\", generator=gen)).float()\n"
    "        full_a = sa.double().repeat_interleave(128, 1)[:, :K]\n"
    "        full_b = sb.double().repeat_interleave(128, 0)[:K].repeat_interleave(128, 1)[:, :N]\n"
    "    elif SCALES == 1:\n"
    "        sa = torch.tensor([[0.0625]], device=\"cuda\")\n"
    "        sb = torch.tensor([[0.125]], device=\"cuda\")\n"
    "        full_a, full_b = sa.double(), sb.double()\n"
    "    else:\n"
    "        sa = sb = None\n"
    "        full_a = full_b = torch.ones((), dtype=torch.float64, device=\"cuda\")\n"
    "    op_a = store(uniform(M, K) / full_a)  # op(A), M x K, as stored values\n"
    "    op_b = store(uniform(K, N) / full_b)\n"
    "    a = op_a.t().contiguous() if TRANS_A else op_a\n"
    "    b = op_b.t().contiguous() if TRANS_B else op_b\n"
    "    c0 = uniform(M, N).to(OUT) if BETA != 0 else None\n"
    "    out = ext.gemm(a, b, c0, sa, sb)\n"
    "    x, y = value(op_a) * full_a, value(op_b) * full_b\n"
    "    ref = ALPHA * (x @ y)\n"
    "    mag = abs(ALPHA) * (x.abs() @ y.abs())\n"
    "    if c0 is not None:\n"
    "        ref += BETA * c0.double()\n"
    "        mag += abs(BETA) * c0.double().abs()\n"
    "    err = ((out.double() - ref).abs() / (mag + 1e-30)).max().item()\n"
    "    ms = _median_ms(lambda: ext.gemm(a, b, c0, sa, sb))\n"
    "    flops = 2.0 * M * N * K\n"
    "    print(\"%s on %s: %dx%dx%d %s, median %.4f ms of 21 calls, %.2f GFLOPS (seed %d)\" % (\n"
    "        NAME, torch.cuda.get_device_name(), M, N, K, IN, ms, flops / ms / 1e6, seed))\n"
    "    if IN.itemsize > 1:  # torch.matmul takes no FP8\n"
    "        tms = _median_ms(lambda: torch.matmul(op_a, op_b))\n"
    "        print(\"torch.matmul in %s: median %.4f ms, %.2f GFLOPS (ours %.1f%% of it)\" % (\n"
    "            IN, tms, flops / tms / 1e6, 100 * tms / ms))\n"
    "    if not err <= TOL:\n"
    "        print(\"WRONG: worst relative error %.3g, tolerance %.3g\" % (err, TOL))\n"
    "        return 1\n"
    "    print(\"verified: all %d elements, worst relative error %.3g (tolerance %.3g)\" % (M * N, err, TOL))\n"
    "    return 0\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    sys.exit(main())\n";

static char *torchScript(const Export *e) {
   const Problem *p = e->p;
   const TypeTraits *tt = Types_of(p->precision);
   const char *name = e->k->name;
   double tol = (p->k + 4) * (tt->fp64 ? 0x1p-52 : 0x1p-23) + tt->product_error;
   if (e->k->tensor && tt->in == tt->out && !tt->fp64 && tt->product_error == 0)
      tol += 0x1p-19; /* 3xTF32: lo * lo dropped, lo cut to TF32 */
   if (Problem_scaled(p))
      tol += 0x1p-10; /* the FP8 tensor core's accumulator, bounded loosely: a wrong scale is off by far more */
   TextBuf t = {0};
   char params[512];
   KernelInfo_formatParams(e->k, e->values, params, sizeof params);
   TextBuf_put(&t, "\"\"\"%s %s, exported by gemmtop %s, as a PyTorch extension.\n\n", name, params, GEMMTOP_VERSION);
   TextBuf_put(&t, "For %dx%dx%d %s, %c%c, alpha %g, beta %g, built for %s:\n\n", p->m, p->n, p->k,
               Precision_name(p->precision), p->trans_a ? 'T' : 'N', p->trans_b ? 'T' : 'N', p->alpha, p->beta,
               e->arch);
   TextBuf_put(&t, "    import %s_torch\n    ext = %s_torch.load()\n    c = ext.gemm(a, b%s%s)\n\n", name, name,
               p->beta != 0 ? ", c" : "", Problem_scaled(p) ? ", scale_a=sa, scale_b=sb" : "");
   TextBuf_put(&t, "a is %s (%s), b %s (%s), both %s, contiguous, on the GPU; c comes back %d x %d\n"
                   "in %s. Run as a script it builds the extension, checks it on random inputs against a\n"
                   "product in float64 and times it beside torch.matmul.\n\"\"\"\n",
               p->trans_a ? "K x M" : "M x K", p->trans_a ? "A transposed" : "A", p->trans_b ? "N x K" : "K x N",
               p->trans_b ? "B transposed" : "B", kPythonDtypes[tt->in], p->m, p->n, kPythonDtypes[tt->out]);
   TextBuf_put(&t, "import os\nimport sys\n\nimport torch\n\nHERE = os.path.dirname(os.path.abspath(__file__))\n");
   TextBuf_put(&t, "NAME = \"%s\"\nARCH = \"%s\"\nM, N, K = %d, %d, %d\nTRANS_A, TRANS_B = %s, %s\n", name, e->arch,
               p->m, p->n, p->k, p->trans_a ? "True" : "False", p->trans_b ? "True" : "False");
   TextBuf_put(&t, "ALPHA, BETA = %.17g, %.17g\nIN, OUT = torch.%s, torch.%s\nSCALES = %d\nTOL = %.3g\n\n\n", p->alpha,
               p->beta, kPythonDtypes[tt->in], kPythonDtypes[tt->out], scalesKind(p), tol);
   TextBuf_put(&t, "%s", torchScriptBody);
   return TextBuf_finish(&t);
}

static const ExportFormat kFormats[] = {
    {0, BACKEND_CAP_CUDA_PRELUDE, false, ".cl", ".c", "a C compiler and the OpenCL ICD loader's headers",
     openclExportable, openclLauncher, openclMakefile, false},
    {BACKEND_CAP_CUDA_PRELUDE | BACKEND_CAP_NVCC, 0, true, ".cu", ".cu", "nvcc (the CUDA toolkit)", cudaExportable,
     cudaLauncher, cudaMakefile, true},
};

static const ExportFormat *formatOf(const Backend *be) {
   for (size_t i = 0; i < sizeof kFormats / sizeof kFormats[0]; i++)
      if (Backend_can(be, kFormats[i].caps) && !(be->caps & kFormats[i].without))
         return &kFormats[i];
   return NULL;
}

static bool exists(const char *path) {
   struct stat st;
   return lstat(path, &st) == 0;
}

/* What nvcc compiles for: the architecture a kernel names (`arch: sm_90a`, which the
 * target was checked against), else the device's or --arch's. */
static void nvccArch(const ExportTarget *t, const KernelInfo *k, char *out, size_t len) {
   Util_copy(out, len, k->arch[0] ? k->arch : t->arch ? t->arch : t->dev->arch);
}

/* What Export_kernel and Export_possible check first: a format for the backend, the
 * configuration valid on the target, and the format's own conditions; e (with *g and
 * defines, the caller's) made ready. EXPORT_OK, or EXPORT_REFUSED with err. */
static ExportStatus prepare(const ExportTarget *t, const KernelInfo *k, const long long *values, const Problem *p,
                            Geometry *g, char *defines, size_t definelen, Export *e, const ExportFormat **f,
                            char *err, size_t errlen) {
   *f = formatOf(t->be);
   if (!*f) {
      snprintf(err, errlen, "export-kernel writes OpenCL C (--backend opencl) or CUDA C++ (--backend cuda); the %s "
                            "backend's export is not written", t->be->title);
      return EXPORT_REFUSED;
   }
   char msg[1536];
   ConfigTarget target = Session_targetFor(t->be, t->dev);
   if (t->arch)
      target.arch = t->arch;
   if (!Config_targetOk(k, &target, msg, sizeof msg) ||
       !Config_check(k, values, p, &t->dev->limits, g, msg, sizeof msg)) {
      snprintf(err, errlen, "refused: %s", msg);
      return EXPORT_REFUSED;
   }
   Config_defines(k, values, p, g, defines, definelen);
   *e = (Export){.t = t, .k = k, .values = values, .p = p, .g = g, .defines = defines};
   if ((*f)->arch)
      nvccArch(t, k, e->arch, sizeof e->arch);
   return (*f)->exportable(e, err, errlen) ? EXPORT_OK : EXPORT_REFUSED;
}

bool Export_possible(const ExportTarget *t, const KernelInfo *k, const long long *values, const Problem *p, char *err,
                     size_t errlen) {
   Geometry g;
   Export e;
   const ExportFormat *f;
   char defines[sizeof((RunResult *)0)->defines];
   return prepare(t, k, values, p, &g, defines, sizeof defines, &e, &f, err, errlen) == EXPORT_OK;
}

ExportStatus Export_kernel(const ExportTarget *t, const KernelInfo *k, const long long *values, const Problem *p,
                           const char *dir, ExportFiles *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   Geometry g;
   Export e;
   const ExportFormat *f;
   char defines[sizeof((RunResult *)0)->defines];
   ExportStatus st = prepare(t, k, values, p, &g, defines, sizeof defines, &e, &f, err, errlen);
   if (st != EXPORT_OK)
      return st;
   snprintf(out->kernel, sizeof out->kernel, "%s/%s%s", dir, k->name, f->kernel_ext);
   snprintf(out->launcher, sizeof out->launcher, "%s/%s_launch%s", dir, k->name, f->launcher_ext);
   snprintf(out->makefile, sizeof out->makefile, "%s/Makefile", dir);
   snprintf(out->build, sizeof out->build, "make -C %s run", dir);
   out->needs = f->needs;
   int nfiles = 3;
   if (f->torch) {
      snprintf(out->torch_entry, sizeof out->torch_entry, "%s/%s_entry.cu", dir, k->name);
      snprintf(out->torch_binding, sizeof out->torch_binding, "%s/%s_torch.cpp", dir, k->name);
      snprintf(out->torch_script, sizeof out->torch_script, "%s/%s_torch.py", dir, k->name);
      nfiles = 6;
   }
   const char *paths[6] = {out->kernel, out->launcher, out->makefile, out->torch_entry, out->torch_binding,
                           out->torch_script};
   for (int i = 0; i < nfiles; i++)
      if (exists(paths[i])) {
         snprintf(err, errlen, "%s exists: export-kernel never overwrites a file; remove it or choose another --dir",
                  paths[i]);
         return EXPORT_REFUSED;
      }
   if (!Util_mkdirs(dir)) {
      snprintf(err, errlen, "cannot make the folder %s: %s", dir, strerror(errno));
      return EXPORT_FAILED;
   }
   const char *base = strrchr(out->kernel, '/') + 1;
   char *texts[6] = {kernelFile(&e), f->launcher(&e, base), f->makefile(&e)};
   if (f->torch) {
      texts[3] = torchEntry(&e, base);
      texts[4] = torchBinding(&e);
      texts[5] = torchScript(&e);
   }
   bool ok = true;
   for (int i = 0; i < nfiles; i++)
      ok = ok && texts[i];
   if (!ok)
      snprintf(err, errlen, "out of host memory");
   for (int i = 0; i < nfiles && ok; i++)
      ok = OutFile_write(paths[i], texts[i], strlen(texts[i]), err, errlen);
   for (int i = 0; i < nfiles; i++)
      free(texts[i]);
   return ok ? EXPORT_OK : EXPORT_FAILED;
}
