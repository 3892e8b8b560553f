/* The CUDA backend: NVRTC compiles the kernel file (after prelude_cuda.h maps OpenCL C to
 * CUDA), the driver API runs it. Both libraries are loaded at run time with dlopen, so
 * gemmtop builds and runs without the CUDA toolkit, and this backend says so and steps
 * aside when the libraries or a GPU are absent. The few driver and NVRTC declarations it
 * needs are written out here (they are stable C ABIs). */
#include <dlfcn.h>
#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "core/diskcache.h"
#include "core/util.h"

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;
typedef struct _nvrtcProgram *nvrtcProgram;
typedef int nvrtcResult;

enum {
   CU_ATTR_MAX_THREADS_PER_BLOCK = 1, CU_ATTR_MAX_BLOCK_DIM_X = 2, CU_ATTR_MAX_BLOCK_DIM_Y = 3,
   CU_ATTR_MAX_BLOCK_DIM_Z = 4, CU_ATTR_MAX_SHARED_PER_BLOCK = 8, CU_ATTR_WARP_SIZE = 10, CU_ATTR_CLOCK_RATE = 13,
   CU_ATTR_MULTIPROCESSOR_COUNT = 16, CU_ATTR_CC_MAJOR = 75, CU_ATTR_CC_MINOR = 76,
};
enum { CU_FUNC_MAX_THREADS = 0, CU_FUNC_SHARED_BYTES = 1, CU_FUNC_LOCAL_BYTES = 3, CU_FUNC_NUM_REGS = 4 };
#define CUDA_ERROR_OUT_OF_MEMORY 2

static struct {
   bool tried, ok;
   char why[512];
   void *cuda, *nvrtc;
   CUresult (*cuInit)(unsigned);
   CUresult (*cuDriverGetVersion)(int *);
   CUresult (*cuDeviceGetCount)(int *);
   CUresult (*cuDeviceGet)(CUdevice *, int);
   CUresult (*cuDeviceGetName)(char *, int, CUdevice);
   CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
   CUresult (*cuDeviceTotalMem)(size_t *, CUdevice);
   CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
   CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
   CUresult (*cuCtxSetCurrent)(CUcontext);
   CUresult (*cuCtxSynchronize)(void);
   CUresult (*cuStreamCreate)(CUstream *, unsigned);
   CUresult (*cuStreamDestroy)(CUstream);
   CUresult (*cuStreamSynchronize)(CUstream);
   CUresult (*cuStreamQuery)(CUstream);
   CUresult (*cuModuleLoadData)(CUmodule *, const void *);
   CUresult (*cuModuleUnload)(CUmodule);
   CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
   CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);
   CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
   CUresult (*cuMemFree)(CUdeviceptr);
   CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
   CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
   CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
   CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                              CUstream, void **, void **);
   CUresult (*cuEventCreate)(CUevent *, unsigned);
   CUresult (*cuEventRecord)(CUevent, CUstream);
   CUresult (*cuEventSynchronize)(CUevent);
   CUresult (*cuEventElapsedTime)(float *, CUevent, CUevent);
   CUresult (*cuEventDestroy)(CUevent);
   CUresult (*cuGetErrorString)(CUresult, const char **);
   nvrtcResult (*nvrtcVersion)(int *, int *);
   nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *, const char *, const char *, int, const char *const *,
                                     const char *const *);
   nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram, int, const char *const *);
   nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram, size_t *);
   nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram, char *);
   nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram, size_t *);
   nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram, char *);
   nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram, size_t *);
   nvrtcResult (*nvrtcGetPTX)(nvrtcProgram, char *);
   nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *);
   const char *(*nvrtcGetErrorString)(nvrtcResult);
   int nvrtc_major, nvrtc_minor;
} api;

/* dlsym under the first name that exists (the _v2 names of the current ABI first). */
static void *symbol(void *lib, const char *a, const char *b) {
   void *p = dlsym(lib, a);
   if (!p && b)
      p = dlsym(lib, b);
   return p;
}

static void *openFirst(const char *const *names, const char *pattern) {
   for (int i = 0; names[i]; i++) {
      void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
      if (h)
         return h;
   }
   glob_t g;
   void *h = NULL;
   if (pattern && glob(pattern, 0, NULL, &g) == 0) {
      for (size_t i = g.gl_pathc; i-- > 0 && !h;)
         h = dlopen(g.gl_pathv[i], RTLD_NOW | RTLD_LOCAL);
      globfree(&g);
   }
   return h;
}

/* NVRTC alone is enough to compile (gemmtop inspect); running needs the driver too. */
static bool loadNvrtc(void) {
   if (api.nvrtc)
      return true;
   const char *env = getenv("GEMMTOP_NVRTC");
   const char *names[] = {env && *env ? env : "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                          NULL};
   api.nvrtc = openFirst(names, "/usr/local/cuda*/lib*/libnvrtc.so*");
   if (!api.nvrtc)
      return false;
#define NV(name) api.name = symbol(api.nvrtc, #name, NULL)
   NV(nvrtcVersion);
   NV(nvrtcCreateProgram);
   NV(nvrtcCompileProgram);
   NV(nvrtcGetProgramLogSize);
   NV(nvrtcGetProgramLog);
   NV(nvrtcGetCUBINSize);
   NV(nvrtcGetCUBIN);
   NV(nvrtcGetPTXSize);
   NV(nvrtcGetPTX);
   NV(nvrtcDestroyProgram);
   NV(nvrtcGetErrorString);
#undef NV
   if (!api.nvrtcCreateProgram || !api.nvrtcCompileProgram || !api.nvrtcGetPTX || !api.nvrtcVersion) {
      dlclose(api.nvrtc);
      api.nvrtc = NULL;
      return false;
   }
   api.nvrtcVersion(&api.nvrtc_major, &api.nvrtc_minor);
   return true;
}

static bool load(char *err, size_t errlen) {
   if (api.tried) {
      if (!api.ok)
         snprintf(err, errlen, "%s", api.why);
      return api.ok;
   }
   api.tried = true;
   const char *cudaNames[] = {"libcuda.so.1", "libcuda.so", NULL};
   api.cuda = openFirst(cudaNames, NULL);
   if (!api.cuda) {
      snprintf(api.why, sizeof api.why, "CUDA backend: no NVIDIA driver (libcuda.so.1 not found); use --backend opencl");
      snprintf(err, errlen, "%s", api.why);
      return false;
   }
   if (!loadNvrtc()) {
      snprintf(api.why, sizeof api.why,
               "CUDA backend: NVRTC (libnvrtc.so) not found; install the CUDA toolkit or set GEMMTOP_NVRTC to its path");
      snprintf(err, errlen, "%s", api.why);
      return false;
   }
#define CU(name, alt) api.name = symbol(api.cuda, alt, #name)
   CU(cuInit, "cuInit");
   CU(cuDriverGetVersion, "cuDriverGetVersion");
   CU(cuDeviceGetCount, "cuDeviceGetCount");
   CU(cuDeviceGet, "cuDeviceGet");
   CU(cuDeviceGetName, "cuDeviceGetName");
   CU(cuDeviceGetAttribute, "cuDeviceGetAttribute");
   CU(cuDeviceTotalMem, "cuDeviceTotalMem_v2");
   CU(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
   CU(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
   CU(cuCtxSetCurrent, "cuCtxSetCurrent");
   CU(cuCtxSynchronize, "cuCtxSynchronize");
   CU(cuStreamCreate, "cuStreamCreate");
   CU(cuStreamDestroy, "cuStreamDestroy_v2");
   CU(cuStreamSynchronize, "cuStreamSynchronize");
   CU(cuStreamQuery, "cuStreamQuery");
   CU(cuModuleLoadData, "cuModuleLoadData");
   CU(cuModuleUnload, "cuModuleUnload");
   CU(cuModuleGetFunction, "cuModuleGetFunction");
   CU(cuFuncGetAttribute, "cuFuncGetAttribute");
   CU(cuMemAlloc, "cuMemAlloc_v2");
   CU(cuMemFree, "cuMemFree_v2");
   CU(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
   CU(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
   CU(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2");
   CU(cuLaunchKernel, "cuLaunchKernel");
   CU(cuEventCreate, "cuEventCreate");
   CU(cuEventRecord, "cuEventRecord");
   CU(cuEventSynchronize, "cuEventSynchronize");
   CU(cuEventElapsedTime, "cuEventElapsedTime_v2");
   CU(cuEventDestroy, "cuEventDestroy_v2");
   CU(cuGetErrorString, "cuGetErrorString");
#undef CU
   void **fns = (void **)&api.cuInit;
   void **end = (void **)&api.cuGetErrorString;
   for (void **f = fns; f <= end; f++)
      if (!*f) {
         snprintf(api.why, sizeof api.why, "CUDA backend: the driver library lacks a function gemmtop needs (too old?)");
         snprintf(err, errlen, "%s", api.why);
         return false;
      }
   CUresult r = api.cuInit(0);
   if (r != 0) {
      const char *s = NULL;
      api.cuGetErrorString(r, &s);
      snprintf(api.why, sizeof api.why, "CUDA backend: cuInit failed: %s (%d)", s ? s : "?", r);
      snprintf(err, errlen, "%s", api.why);
      return false;
   }
   api.ok = true;
   return true;
}

static const char *cuError(CUresult r) {
   const char *s = NULL;
   if (api.cuGetErrorString)
      api.cuGetErrorString(r, &s);
   return s ? s : "unknown CUDA error";
}

static BackendStatus cuFail(CUresult r, const char *what, char *err, size_t errlen) {
   snprintf(err, errlen, "%s failed: %s (%d)", what, cuError(r), r);
   return r == CUDA_ERROR_OUT_OF_MEMORY ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
}

struct Context_ {
   CUdevice dev;
   CUcontext ctx;
   CUstream stream;
   DeviceInfo info;
   int cc_major, cc_minor;
};
struct Program_ {
   CUmodule module;
   Context *ctx;
};
struct Kernel_ {
   CUfunction fn;
};
struct Buffer_ {
   CUdeviceptr ptr;
   size_t bytes;
};
struct Event_ {
   CUevent start, end;
};

static int attr(CUdevice d, int which) {
   int v = 0;
   api.cuDeviceGetAttribute(&v, which, d);
   return v;
}

static void describe(CUdevice d, int index, DeviceInfo *info) {
   memset(info, 0, sizeof *info);
   info->index = index;
   api.cuDeviceGetName(info->name, sizeof info->name, d);
   snprintf(info->vendor, sizeof info->vendor, "NVIDIA Corporation");
   snprintf(info->platform, sizeof info->platform, "NVIDIA CUDA (driver API, NVRTC)");
   int drv = 0;
   api.cuDriverGetVersion(&drv);
   snprintf(info->driver, sizeof info->driver, "CUDA %d.%d", drv / 1000, (drv % 1000) / 10);
   snprintf(info->version, sizeof info->version, "sm_%d%d, NVRTC %d.%d", attr(d, CU_ATTR_CC_MAJOR),
            attr(d, CU_ATTR_CC_MINOR), api.nvrtc_major, api.nvrtc_minor);
   snprintf(info->arch, sizeof info->arch, "sm_%d%d", attr(d, CU_ATTR_CC_MAJOR), attr(d, CU_ATTR_CC_MINOR));
   info->type = DEVICE_GPU;
   info->compute_units = (unsigned)attr(d, CU_ATTR_MULTIPROCESSOR_COUNT);
   info->clock_mhz = (unsigned)(attr(d, CU_ATTR_CLOCK_RATE) / 1000);
   size_t mem = 0;
   api.cuDeviceTotalMem(&mem, d);
   info->global_mem = mem;
   info->max_alloc = mem;
   info->limits.max_wg = (size_t)attr(d, CU_ATTR_MAX_THREADS_PER_BLOCK);
   info->limits.max_wi[0] = (size_t)attr(d, CU_ATTR_MAX_BLOCK_DIM_X);
   info->limits.max_wi[1] = (size_t)attr(d, CU_ATTR_MAX_BLOCK_DIM_Y);
   info->limits.max_wi[2] = (size_t)attr(d, CU_ATTR_MAX_BLOCK_DIM_Z);
   /* Static __shared__ arrays are limited to 48 KiB whatever the opt-in maximum. */
   info->limits.local_mem = (unsigned long long)attr(d, CU_ATTR_MAX_SHARED_PER_BLOCK);
   info->limits.fp64 = true;
   info->limits.warp = attr(d, CU_ATTR_WARP_SIZE);
}

static int listDevices(DeviceInfo **out, char *err, size_t errlen) {
   *out = NULL;
   if (!load(err, errlen))
      return 0;
   int n = 0;
   CUresult r = api.cuDeviceGetCount(&n);
   if (r != 0 || n == 0) {
      snprintf(err, errlen, "CUDA backend: no CUDA device (%s)", r ? cuError(r) : "the driver lists none");
      return 0;
   }
   DeviceInfo *infos = calloc((size_t)n, sizeof *infos);
   for (int i = 0; i < n; i++) {
      CUdevice d;
      api.cuDeviceGet(&d, i);
      describe(d, i, &infos[i]);
   }
   *out = infos;
   return n;
}

static Context *openDevice(int index, DeviceInfo *info, char *err, size_t errlen) {
   DeviceInfo *all = NULL;
   int n = listDevices(&all, err, errlen);
   free(all);
   if (n <= 0)
      return NULL;
   if (index < 0 || index >= n) {
      snprintf(err, errlen, "no CUDA device %d: there are %d", index, n);
      return NULL;
   }
   Context *c = calloc(1, sizeof *c);
   api.cuDeviceGet(&c->dev, index);
   CUresult r = api.cuDevicePrimaryCtxRetain(&c->ctx, c->dev);
   if (r == 0)
      r = api.cuCtxSetCurrent(c->ctx);
   if (r == 0)
      r = api.cuStreamCreate(&c->stream, 0);
   if (r != 0) {
      cuFail(r, "opening the CUDA device", err, errlen);
      free(c);
      return NULL;
   }
   describe(c->dev, index, &c->info);
   c->cc_major = attr(c->dev, CU_ATTR_CC_MAJOR);
   c->cc_minor = attr(c->dev, CU_ATTR_CC_MINOR);
   if (info)
      *info = c->info;
   return c;
}

static void closeDevice(Context *c) {
   if (!c)
      return;
   api.cuCtxSetCurrent(c->ctx);
   api.cuStreamSynchronize(c->stream);
   api.cuStreamDestroy(c->stream);
   api.cuDevicePrimaryCtxRelease(c->dev);
   free(c);
}

/* Splits "-DA=1 -DB=2" into argv-style options for NVRTC. strtok_r: sweeps compile in
 * parallel threads, and strtok's hidden state mixed their options up. */
static int splitOptions(char *buf, const char **opts, int max) {
   int n = 0;
   char *save = NULL;
   for (char *tok = strtok_r(buf, " \t", &save); tok && n < max; tok = strtok_r(NULL, " \t", &save))
      opts[n++] = tok;
   return n;
}

/* NVRTC compile of prelude_cuda.h + source for arch ("sm_90"); returns CUBIN (or PTX when
 * want_ptx) in *out. Shared by running and by inspection without a GPU. */
static BackendStatus nvrtcBuild(const char *source, const char *options, const char *arch, bool want_ptx, char **out,
                                size_t *outlen, char **log, char *err, size_t errlen) {
   *out = NULL;
   *log = NULL;
   char *buf = strdup(options ? options : "");
   const char *opts[128];
   char archopt[64];
   snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
   int n = 0;
   opts[n++] = archopt;
   opts[n++] = "-default-device";
   opts[n++] = "-diag-suppress=1444"; /* double4 is deprecated in CUDA 13; it is what OpenCL means */
   opts[n++] = "-lineinfo";
   if (!want_ptx)
      opts[n++] = "--ptxas-options=-v"; /* registers, spills, shared memory into the log */
   n += splitOptions(buf, opts + n, 120);
   nvrtcProgram prog;
   nvrtcResult r = api.nvrtcCreateProgram(&prog, source, "kernel.cl", 0, NULL, NULL);
   if (r != 0) {
      free(buf);
      snprintf(err, errlen, "nvrtcCreateProgram failed: %s", api.nvrtcGetErrorString(r));
      return BACKEND_ERR_OTHER;
   }
   r = api.nvrtcCompileProgram(prog, n, opts);
   free(buf);
   size_t loglen = 0;
   api.nvrtcGetProgramLogSize(prog, &loglen);
   *log = calloc(loglen + 1, 1);
   if (*log && loglen)
      api.nvrtcGetProgramLog(prog, *log);
   if (r != 0) {
      snprintf(err, errlen, "the kernel did not compile (NVRTC: %s); the build log follows", api.nvrtcGetErrorString(r));
      api.nvrtcDestroyProgram(&prog);
      return BACKEND_ERR_COMPILE;
   }
   size_t size = 0;
   if (want_ptx || !api.nvrtcGetCUBINSize)
      api.nvrtcGetPTXSize(prog, &size);
   else
      api.nvrtcGetCUBINSize(prog, &size);
   *out = malloc(size + 1);
   if (want_ptx || !api.nvrtcGetCUBINSize)
      api.nvrtcGetPTX(prog, *out);
   else
      api.nvrtcGetCUBIN(prog, *out);
   (*out)[size] = '\0';
   *outlen = size;
   api.nvrtcDestroyProgram(&prog);
   return BACKEND_OK;
}

static BackendStatus build(Context *c, const char *source, const char *options, Program **out, BuildInfo *info,
                           char *err, size_t errlen) {
   double t0 = Util_nowMs();
   memset(info, 0, sizeof *info);
   info->registers = -1;
   info->private_mem = info->local_mem = -1;
   *out = NULL;
   char arch[16];
   snprintf(arch, sizeof arch, "sm_%d%d", c->cc_major, c->cc_minor);
   /* GEMMTOP_NVRTC_OPTIONS: extra NVRTC options for experts (e.g. --ptxas-options=-O1). */
   const char *extra = getenv("GEMMTOP_NVRTC_OPTIONS");
   char opts[4096];
   snprintf(opts, sizeof opts, "%s%s%s", options, extra ? " " : "", extra ? extra : "");
   options = opts;
   char nvrtc[32];
   snprintf(nvrtc, sizeof nvrtc, "NVRTC %d.%d", api.nvrtc_major, api.nvrtc_minor);
   const DiskCacheId id = {.what = "program", .source = source, .options = options, .device = arch, .driver = nvrtc};
   /* One process (or thread) builds, the others wait and load what it stored. */
   int lock = DiskCache_lock("cuda", &id);
   size_t size = 0;
   char *image = (char *)DiskCache_load("cuda", &id, &size);
   if (image) {
      info->cached_disk = true;
   } else {
      BackendStatus st = nvrtcBuild(source, options, arch, false, &image, &size, &info->log, err, errlen);
      if (st != BACKEND_OK) {
         DiskCache_unlock(lock);
         info->compile_ms = Util_nowMs() - t0;
         return st;
      }
      DiskCache_store("cuda", &id, image, size);
   }
   DiskCache_unlock(lock);
   api.cuCtxSetCurrent(c->ctx);
   CUmodule mod;
   CUresult r = api.cuModuleLoadData(&mod, image);
   free(image);
   if (r != 0)
      return cuFail(r, "loading the compiled module", err, errlen);
   info->compile_ms = Util_nowMs() - t0;
   Program *p = calloc(1, sizeof *p);
   p->module = mod;
   p->ctx = c;
   *out = p;
   return BACKEND_OK;
}

static Kernel *kernelOf(Program *p, const char *entry, BuildInfo *info, char *err, size_t errlen) {
   CUfunction fn;
   CUresult r = api.cuModuleGetFunction(&fn, p->module, entry);
   if (r != 0) {
      snprintf(err, errlen, "kernel entry '%s' not found in the module (%s)", entry, cuError(r));
      return NULL;
   }
   if (info) {
      int v = 0;
      if (api.cuFuncGetAttribute(&v, CU_FUNC_NUM_REGS, fn) == 0)
         info->registers = v;
      if (api.cuFuncGetAttribute(&v, CU_FUNC_LOCAL_BYTES, fn) == 0)
         info->private_mem = v;
      if (api.cuFuncGetAttribute(&v, CU_FUNC_SHARED_BYTES, fn) == 0)
         info->local_mem = v;
      if (api.cuFuncGetAttribute(&v, CU_FUNC_MAX_THREADS, fn) == 0)
         info->max_wg_for_kernel = (size_t)v;
   }
   Kernel *k = calloc(1, sizeof *k);
   k->fn = fn;
   return k;
}

static void releaseKernel(Kernel *k) { free(k); }

static void releaseProgram(Program *p) {
   if (p) {
      api.cuModuleUnload(p->module);
      free(p);
   }
}

static BackendStatus allocBuffer(Context *c, size_t bytes, Buffer **out, char *err, size_t errlen) {
   *out = NULL;
   CUdeviceptr ptr;
   CUresult r = api.cuMemAlloc(&ptr, bytes ? bytes : 1);
   if (r != 0) {
      BackendStatus st = cuFail(r, "cuMemAlloc", err, errlen);
      if (st == BACKEND_ERR_OUT_OF_MEMORY)
         snprintf(err, errlen, "out of device memory allocating %.1f MiB", bytes / 1048576.0);
      return st;
   }
   Buffer *b = calloc(1, sizeof *b);
   b->ptr = ptr;
   b->bytes = bytes;
   *out = b;
   return BACKEND_OK;
}

static void freeBuffer(Buffer *b) {
   if (b) {
      api.cuMemFree(b->ptr);
      free(b);
   }
}

static BackendStatus writeBuffer(Context *c, Buffer *b, const void *host, size_t bytes, char *err, size_t errlen) {
   api.cuStreamSynchronize(c->stream);
   CUresult r = api.cuMemcpyHtoD(b->ptr, host, bytes);
   return r == 0 ? BACKEND_OK : cuFail(r, "writing to the device", err, errlen);
}

static BackendStatus readBuffer(Context *c, Buffer *b, void *host, size_t bytes, char *err, size_t errlen) {
   api.cuStreamSynchronize(c->stream);
   CUresult r = api.cuMemcpyDtoH(host, b->ptr, bytes);
   return r == 0 ? BACKEND_OK : cuFail(r, "reading from the device", err, errlen);
}

static BackendStatus copyBuffer(Context *c, Buffer *dst, Buffer *src, size_t bytes, char *err, size_t errlen) {
   CUresult r = api.cuMemcpyDtoDAsync(dst->ptr, src->ptr, bytes, c->stream);
   return r == 0 ? BACKEND_OK : cuFail(r, "copying on the device", err, errlen);
}

static BackendStatus launch(Context *c, Kernel *k, const KernelArg *args, int nargs, bool real_double, int dims,
                            const size_t *global, const size_t *local, Event **ev, char *err, size_t errlen) {
   union {
      CUdeviceptr ptr;
      int i;
      float f;
      double d;
   } values[16];
   void *params[16];
   if (nargs > 16) {
      snprintf(err, errlen, "too many kernel arguments");
      return BACKEND_ERR_LAUNCH;
   }
   for (int i = 0; i < nargs; i++) {
      if (args[i].kind == ARG_BUFFER)
         values[i].ptr = args[i].buffer->ptr;
      else if (args[i].kind == ARG_INT)
         values[i].i = args[i].i;
      else if (real_double)
         values[i].d = args[i].real;
      else
         values[i].f = (float)args[i].real;
      params[i] = &values[i];
   }
   size_t block[3] = {1, 1, 1}, grid[3] = {1, 1, 1};
   for (int d = 0; d < dims; d++) {
      block[d] = local ? local[d] : (global[d] < 256 ? global[d] : 256);
      if (global[d] % block[d]) {
         snprintf(err, errlen, "global size %zu is not a multiple of the block size %zu", global[d], block[d]);
         return BACKEND_ERR_LAUNCH;
      }
      grid[d] = global[d] / block[d];
   }
   Event *e = NULL;
   if (ev) {
      e = calloc(1, sizeof *e);
      api.cuEventCreate(&e->start, 0);
      api.cuEventCreate(&e->end, 0);
      api.cuEventRecord(e->start, c->stream);
   }
   CUresult r = api.cuLaunchKernel(k->fn, (unsigned)grid[0], (unsigned)grid[1], (unsigned)grid[2], (unsigned)block[0],
                                   (unsigned)block[1], (unsigned)block[2], 0, c->stream, params, NULL);
   if (r != 0) {
      if (e) {
         api.cuEventDestroy(e->start);
         api.cuEventDestroy(e->end);
         free(e);
      }
      BackendStatus st = cuFail(r, "launching the kernel", err, errlen);
      return st == BACKEND_ERR_OTHER ? BACKEND_ERR_LAUNCH : st;
   }
   if (e) {
      api.cuEventRecord(e->end, c->stream);
      *ev = e;
   }
   return BACKEND_OK;
}

static BackendStatus finish(Context *c, char *err, size_t errlen) {
   CUresult r = api.cuStreamSynchronize(c->stream);
   return r == 0 ? BACKEND_OK : cuFail(r, "waiting for the device", err, errlen);
}

/* The stream polled until it is idle or the time is up (cuStreamSynchronize would wait for
 * ever on a launch that does not end); the waits grow from 20 us to 2 ms. */
static BackendStatus finishWithin(Context *c, double timeout_ms, char *err, size_t errlen) {
   const CUresult notReady = 600; /* CUDA_ERROR_NOT_READY */
   double deadline = Util_nowMs() + timeout_ms;
   long sleep_us = 20;
   api.cuCtxSetCurrent(c->ctx);
   for (;;) {
      CUresult r = api.cuStreamQuery(c->stream);
      if (r != notReady)
         return r == 0 ? BACKEND_OK : cuFail(r, "waiting for the device", err, errlen);
      if (Util_nowMs() >= deadline) {
         snprintf(err, errlen, "still running after %.1f s", timeout_ms / 1000);
         return BACKEND_ERR_TIMEOUT;
      }
      usleep((useconds_t)sleep_us);
      sleep_us = sleep_us * 2 > 2000 ? 2000 : sleep_us * 2;
   }
}

static double eventMs(Event *e) {
   float ms = -1;
   api.cuEventSynchronize(e->end);
   if (api.cuEventElapsedTime(&ms, e->start, e->end) != 0)
      return -1;
   return ms;
}

static void releaseEvent(Event *e) {
   if (e) {
      api.cuEventDestroy(e->start);
      api.cuEventDestroy(e->end);
      free(e);
   }
}

/* cuBLAS, loaded at run time: the CUDA reference. Row-major C = op(A) op(B) is computed
 * as the column-major C^T = op(B)^T op(A)^T, so no data moves. Default math mode: true
 * FP32, no TF32. */
typedef struct cublasContext *cublasHandle_t;
static struct {
   bool tried;
   void *lib;
   cublasHandle_t handle;
   int (*create)(cublasHandle_t *);
   int (*setStream)(cublasHandle_t, CUstream);
   int (*setMathMode)(cublasHandle_t, int);
   int (*getVersion)(cublasHandle_t, int *);
   int (*sgemm)(cublasHandle_t, int, int, int, int, int, const float *, const float *, int, const float *, int,
                const float *, float *, int);
   int (*dgemm)(cublasHandle_t, int, int, int, int, int, const double *, const double *, int, const double *, int,
                const double *, double *, int);
   int version;
} cublas;

static BackendStatus vendorGemm(Context *c, const Problem *p, Buffer *A, Buffer *B, Buffer *C, double *ms, char *name,
                                size_t namelen, char *err, size_t errlen) {
   if (!cublas.tried) {
      cublas.tried = true;
      const char *names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11", NULL};
      cublas.lib = openFirst(names, "/usr/local/cuda*/lib*/libcublas.so*");
      if (cublas.lib) {
         cublas.create = symbol(cublas.lib, "cublasCreate_v2", NULL);
         cublas.setStream = symbol(cublas.lib, "cublasSetStream_v2", NULL);
         cublas.setMathMode = symbol(cublas.lib, "cublasSetMathMode", NULL);
         cublas.getVersion = symbol(cublas.lib, "cublasGetVersion_v2", NULL);
         cublas.sgemm = symbol(cublas.lib, "cublasSgemm_v2", NULL);
         cublas.dgemm = symbol(cublas.lib, "cublasDgemm_v2", NULL);
         api.cuCtxSetCurrent(c->ctx);
         if (cublas.create && cublas.create(&cublas.handle) != 0)
            cublas.handle = NULL;
         if (cublas.handle && cublas.getVersion)
            cublas.getVersion(cublas.handle, &cublas.version);
      }
   }
   if (cublas.version)
      snprintf(name, namelen, "cuBLAS %d.%d.%d", cublas.version / 10000, cublas.version / 100 % 100, cublas.version % 100);
   else
      snprintf(name, namelen, "cuBLAS");
   if (!cublas.handle || !cublas.sgemm || !cublas.dgemm || !cublas.setStream) {
      snprintf(err, errlen, "cuBLAS is not available (libcublas.so not found or cublasCreate failed)");
      return BACKEND_ERR_NO_RUNTIME;
   }
   api.cuCtxSetCurrent(c->ctx);
   cublas.setStream(cublas.handle, c->stream);
   if (cublas.setMathMode)
      cublas.setMathMode(cublas.handle, 0);
   int opA = p->trans_a ? 1 : 0, opB = p->trans_b ? 1 : 0;
   int lda = p->trans_a ? p->m : p->k, ldb = p->trans_b ? p->k : p->n;
   CUevent e0, e1;
   api.cuEventCreate(&e0, 0);
   api.cuEventCreate(&e1, 0);
   api.cuEventRecord(e0, c->stream);
   int st;
   if (p->precision == PRECISION_DOUBLE) {
      double alpha = p->alpha, beta = p->beta;
      st = cublas.dgemm(cublas.handle, opB, opA, p->n, p->m, p->k, &alpha, (const double *)(uintptr_t)B->ptr, ldb,
                        (const double *)(uintptr_t)A->ptr, lda, &beta, (double *)(uintptr_t)C->ptr, p->n);
   } else {
      float alpha = (float)p->alpha, beta = (float)p->beta;
      st = cublas.sgemm(cublas.handle, opB, opA, p->n, p->m, p->k, &alpha, (const float *)(uintptr_t)B->ptr, ldb,
                        (const float *)(uintptr_t)A->ptr, lda, &beta, (float *)(uintptr_t)C->ptr, p->n);
   }
   api.cuEventRecord(e1, c->stream);
   CUresult r = api.cuEventSynchronize(e1);
   float t = -1;
   api.cuEventElapsedTime(&t, e0, e1);
   api.cuEventDestroy(e0);
   api.cuEventDestroy(e1);
   *ms = t;
   if (st != 0) {
      snprintf(err, errlen, "cuBLAS %cgemm failed with status %d", p->precision == PRECISION_DOUBLE ? 'D' : 'S', st);
      return st == 3 /* CUBLAS_STATUS_ALLOC_FAILED */ ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
   }
   return r == 0 ? BACKEND_OK : cuFail(r, "waiting for cuBLAS", err, errlen);
}

static const Backend cudaBackend = {
    .name = "cuda",
    .prelude = "prelude_cuda.h",
    .listDevices = listDevices,
    .open = openDevice,
    .close = closeDevice,
    .build = build,
    .kernel = kernelOf,
    .releaseKernel = releaseKernel,
    .releaseProgram = releaseProgram,
    .alloc = allocBuffer,
    .free = freeBuffer,
    .write = writeBuffer,
    .read = readBuffer,
    .copy = copyBuffer,
    .launch = launch,
    .finish = finish,
    .finishWithin = finishWithin,
    .eventMs = eventMs,
    .releaseEvent = releaseEvent,
    .vendorGemm = vendorGemm,
};

const Backend *Backend_cuda(void) { return &cudaBackend; }

/* Compiles without a device: for inspection (PTX) and for CI on machines without GPUs. */
BackendStatus Cuda_compileOnly(const char *source, const char *options, const char *arch, bool want_ptx, char **out,
                               size_t *outlen, char **log, char *err, size_t errlen) {
   if (!loadNvrtc()) {
      snprintf(err, errlen, "NVRTC (libnvrtc.so) not found; install the CUDA toolkit or set GEMMTOP_NVRTC");
      *out = *log = NULL;
      return BACKEND_ERR_NO_RUNTIME;
   }
   return nvrtcBuild(source, options, arch, want_ptx, out, outlen, log, err, errlen);
}
