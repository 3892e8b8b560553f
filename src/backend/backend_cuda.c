/* The CUDA backend: NVRTC compiles the kernel file (after prelude_cuda.h maps OpenCL C to
 * CUDA), the driver API runs it. Both libraries are loaded at run time with dlopen, so
 * gemmtop builds and runs without the CUDA toolkit, and this backend says so and steps
 * aside when the libraries or a GPU are absent. The few driver and NVRTC declarations it
 * needs are written out here (they are stable C ABIs); what it shares with the HIP backend
 * is in gpu_common.c. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend/backend_cuda.h"
#include "backend/cublaslt.h"
#include "backend/gpu_common.h"
#include "base/util.h"

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
   CU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN = 97, CU_ATTR_L2_CACHE_SIZE = 38,
};
enum { CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8 };
/* cuTensorMapEncodeTiled's enumerations (cuda.h, CUDA 12 and later) */
enum { CU_TENSOR_MAP_DATA_TYPE_UINT8 = 0, CU_TENSOR_MAP_DATA_TYPE_UINT16 = 1, CU_TENSOR_MAP_DATA_TYPE_UINT32 = 2 };
enum { CU_TENSOR_MAP_SWIZZLE_NONE = 0, CU_TENSOR_MAP_SWIZZLE_32B, CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B };
enum { CU_TENSOR_MAP_L2_PROMOTION_L2_128B = 2 };
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
   /* optional: CUDA 12 and later (Hopper's kernels refuse to launch without them) */
   CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
   CUresult (*cuTensorMapEncodeTiled)(void *, int, unsigned, void *, const unsigned long long *,
                                      const unsigned long long *, const unsigned *, const unsigned *, int, int, int, int);
   CUresult (*cuCtxGetCurrent)(CUcontext *); /* optional: ptxResources restores the caller's context */
   /* optional: for the observers (NVML matches the device by it) */
   CUresult (*cuDeviceGetPCIBusId)(char *, int, CUdevice);
   /* optional: C poisoned on the device, page-locked host memory */
   CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned int, size_t, CUstream);
   CUresult (*cuMemHostAlloc)(void **, size_t, unsigned);
   CUresult (*cuMemFreeHost)(void *);
   CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned); /* optional: the timing hold */
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

/* NVRTC alone is enough to compile (gemmtop inspect); running needs the driver too. */
static bool loadNvrtc(void) {
   if (api.nvrtc)
      return true;
   const char *env = getenv("GEMMTOP_NVRTC");
   const char *names[] = {env && *env ? env : "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so.11.2",
                          NULL};
   api.nvrtc = Gpu_openLibrary(names, "/usr/local/cuda*/lib*/libnvrtc.so*", NULL, 0);
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
   if (!api.nvrtcVersion || !api.nvrtcCreateProgram || !api.nvrtcCompileProgram || !api.nvrtcGetProgramLogSize ||
       !api.nvrtcGetProgramLog || !api.nvrtcGetPTXSize || !api.nvrtcGetPTX || !api.nvrtcDestroyProgram ||
       !api.nvrtcGetErrorString || api.nvrtcVersion(&api.nvrtc_major, &api.nvrtc_minor) != 0) {
      dlclose(api.nvrtc);
      api.nvrtc = NULL;
      return false;
   }
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
   api.cuda = Gpu_openLibrary(cudaNames, NULL, NULL, 0);
   if (!api.cuda) {
      snprintf(api.why, sizeof api.why, "no NVIDIA driver (libcuda.so.1 not found)");
      snprintf(err, errlen, "%s", api.why);
      return false;
   }
   if (!loadNvrtc()) {
      snprintf(api.why, sizeof api.why,
               "NVRTC (libnvrtc.so) not found; install the CUDA toolkit or set GEMMTOP_NVRTC to its path");
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
   CU(cuFuncSetAttribute, "cuFuncSetAttribute");
   CU(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
   CU(cuCtxGetCurrent, "cuCtxGetCurrent");
   CU(cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId");
   CU(cuMemsetD32Async, "cuMemsetD32Async");
   CU(cuMemHostAlloc, "cuMemHostAlloc");
   CU(cuMemFreeHost, "cuMemFreeHost");
   CU(cuMemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2");
#undef CU
   void **fns = (void **)&api.cuInit;
   void **end = (void **)&api.cuGetErrorString;
   for (void **f = fns; f <= end; f++)
      if (!*f) {
         snprintf(api.why, sizeof api.why, "the driver library lacks a function gemmtop needs (too old?)");
         snprintf(err, errlen, "%s", api.why);
         return false;
      }
   CUresult r = api.cuInit(0);
   if (r != 0) {
      const char *s = NULL;
      api.cuGetErrorString(r, &s);
      snprintf(api.why, sizeof api.why, "cuInit failed: %s (%d)", s ? s : "?", r);
      snprintf(err, errlen, "%s", api.why);
      return false;
   }
   api.ok = true;
   return true;
}

struct Kernel_ {
   CUfunction fn;
   unsigned dynamic_shared; /* bytes at each launch (setDynamicShared) */
};
struct Context_ {
   CUdevice dev;
   CUcontext ctx;
   CUstream stream;
   DeviceInfo info;
   int cc_major, cc_minor;
   CublasLt *lt;          /* cuBLASLt, made on the first FP8 vendor call */
   GpuHold hold;          /* timed work queued behind it (gpu_common.h); hold.fn NULL: none */
   Kernel holdKernel;
   CUmodule holdModule;
   void *holdCounter;     /* page-locked */
};
struct Program_ {
   CUmodule module;
   Context *ctx;
};
struct Buffer_ {
   CUdeviceptr ptr;  /* what kernels and copies see */
   CUdeviceptr base; /* allocGuarded's allocation, ptr guard bytes into it; else 0 */
   size_t bytes, guard;
};

/* ---- the driver API as gpu_common.c calls it ---- */

static const char *cuErrorString(int r) {
   const char *s = NULL;
   if (api.cuGetErrorString)
      api.cuGetErrorString(r, &s);
   return s;
}
static int cuDeviceAttribute(int *v, int which, int device) { return api.cuDeviceGetAttribute(v, which, device); }
static int cuFuncAttribute(int *v, int which, void *fn) { return api.cuFuncGetAttribute(v, which, fn); }
static int cuEventNew(GpuEvent *ev) {
   CUevent e = NULL;
   CUresult r = api.cuEventCreate(&e, 0);
   *ev = e;
   return r;
}
static int cuEventRecordOn(GpuEvent ev, GpuStream stream) { return api.cuEventRecord(ev, stream); }
static int cuEventWait(GpuEvent ev) { return api.cuEventSynchronize(ev); }
static int cuEventElapsed(float *ms, GpuEvent start, GpuEvent end) { return api.cuEventElapsedTime(ms, start, end); }
static int cuEventFree(GpuEvent ev) { return api.cuEventDestroy(ev); }
/* fn is our Kernel: it carries its dynamic shared memory. */
static int cuLaunch(void *fn, const unsigned grid[3], const unsigned block[3], GpuStream stream, void **params) {
   const Kernel *k = fn;
   return api.cuLaunchKernel(k->fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], k->dynamic_shared, stream,
                             params, NULL);
}
static void cuBufferArg(const Buffer *b, GpuArg *slot) { slot->ptr = b->ptr; }

static BackendStatus cuTensorMapArg(const KernelArg *arg, GpuArg *slot, char *err, size_t errlen);

static const GpuRuntime cuda = {
    .name = "CUDA",
    .cache = "cuda",
    .out_of_memory = CUDA_ERROR_OUT_OF_MEMORY,
    .attr =
        {
            [GPU_ATTR_MAX_THREADS_PER_BLOCK] = CU_ATTR_MAX_THREADS_PER_BLOCK,
            [GPU_ATTR_MAX_BLOCK_DIM_X] = CU_ATTR_MAX_BLOCK_DIM_X,
            [GPU_ATTR_MAX_BLOCK_DIM_Y] = CU_ATTR_MAX_BLOCK_DIM_Y,
            [GPU_ATTR_MAX_BLOCK_DIM_Z] = CU_ATTR_MAX_BLOCK_DIM_Z,
            [GPU_ATTR_MAX_SHARED_PER_BLOCK] = CU_ATTR_MAX_SHARED_PER_BLOCK,
            [GPU_ATTR_WARP_SIZE] = CU_ATTR_WARP_SIZE,
            [GPU_ATTR_CLOCK_RATE] = CU_ATTR_CLOCK_RATE,
            [GPU_ATTR_MULTIPROCESSOR_COUNT] = CU_ATTR_MULTIPROCESSOR_COUNT,
        },
    .errorString = cuErrorString,
    .deviceAttribute = cuDeviceAttribute,
    .funcAttribute = cuFuncAttribute,
    .eventCreate = cuEventNew,
    .eventRecord = cuEventRecordOn,
    .eventSynchronize = cuEventWait,
    .eventElapsed = cuEventElapsed,
    .eventDestroy = cuEventFree,
    .launchKernel = cuLaunch,
    .bufferArg = cuBufferArg,
    .tensorMapArg = cuTensorMapArg,
};

/* The copy engine moves bytes: an element is an unsigned integer of its width (FP8 one
 * byte, half and bfloat16 two, FP32 four); -1 for a width it has no type for. */
int Cuda_tensorMapDataType(int elem_bytes) {
   switch (elem_bytes) {
   case 1: return CU_TENSOR_MAP_DATA_TYPE_UINT8;
   case 2: return CU_TENSOR_MAP_DATA_TYPE_UINT16;
   case 4: return CU_TENSOR_MAP_DATA_TYPE_UINT32;
   default: return -1;
   }
}

/* A 2D tiled tensor map of a row-major matrix: dimension 0 is the contiguous one. */
static BackendStatus cuTensorMapArg(const KernelArg *arg, GpuArg *slot, char *err, size_t errlen) {
   const TensorMapSpec *t = &arg->tmap;
   if (!api.cuTensorMapEncodeTiled) {
      snprintf(err, errlen, "this NVIDIA driver has no cuTensorMapEncodeTiled (CUDA 12 or later is needed for TMA)");
      return BACKEND_ERR_LAUNCH;
   }
   const int type = Cuda_tensorMapDataType(t->elem_bytes);
   if (type < 0) {
      snprintf(err, errlen, "a tensor map of %d-byte elements: the copy engine takes 1, 2 or 4 bytes here", t->elem_bytes);
      return BACKEND_ERR_LAUNCH;
   }
   const int swizzles[] = {[0] = CU_TENSOR_MAP_SWIZZLE_NONE, [1] = CU_TENSOR_MAP_SWIZZLE_32B,
                           [2] = CU_TENSOR_MAP_SWIZZLE_64B, [4] = CU_TENSOR_MAP_SWIZZLE_128B};
   const unsigned long long dims[2] = {(unsigned long long)t->cols, (unsigned long long)t->rows};
   const unsigned long long strides[1] = {(unsigned long long)t->cols * (unsigned long long)t->elem_bytes};
   const unsigned box[2] = {(unsigned)t->box_cols, (unsigned)t->box_rows}, unit[2] = {1, 1};
   CUresult r = api.cuTensorMapEncodeTiled(
       slot->tensor_map, type, 2,
       (void *)(uintptr_t)arg->buffer->ptr, dims, strides, box, unit, 0, swizzles[t->swizzle / 32],
       CU_TENSOR_MAP_L2_PROMOTION_L2_128B, 0);
   if (r != 0) {
      char what[160];
      snprintf(what, sizeof what, "cuTensorMapEncodeTiled (%lld x %lld, box %d x %d, swizzle %d)", t->rows, t->cols,
               t->box_rows, t->box_cols, t->swizzle);
      return Gpu_fail(&cuda, r, what, err, errlen) == BACKEND_ERR_OUT_OF_MEMORY ? BACKEND_ERR_OUT_OF_MEMORY
                                                                                : BACKEND_ERR_LAUNCH;
   }
   return BACKEND_OK;
}

static BackendStatus cuFail(CUresult r, const char *what, char *err, size_t errlen) {
   return Gpu_fail(&cuda, r, what, err, errlen);
}

static int attr(CUdevice d, int which) {
   int v = 0;
   return api.cuDeviceGetAttribute(&v, which, d) == 0 ? v : 0;
}

static BackendStatus describe(CUdevice d, int index, DeviceInfo *info, char *err, size_t errlen) {
   memset(info, 0, sizeof *info);
   info->index = index;
   CUresult r = api.cuDeviceGetName(info->name, sizeof info->name, d);
   size_t mem = 0;
   if (r == 0)
      r = api.cuDeviceTotalMem(&mem, d);
   if (r != 0)
      return cuFail(r, "describing a CUDA device", err, errlen);
   snprintf(info->vendor, sizeof info->vendor, "NVIDIA Corporation");
   /* Which compiler builds the kernels is part of every figure (the store's driver, a sweep's
    * key): from one source nvcc and NVRTC have made code up to 15% apart (docs/fp8.md). */
   const bool nvcc = Cuda_nvccWanted() != NULL;
   snprintf(info->platform, sizeof info->platform, "NVIDIA CUDA (driver API, %s)", nvcc ? "nvcc" : "NVRTC");
   if (nvcc)
      snprintf(info->compiler, sizeof info->compiler, "nvcc");
   int drv = 0;
   if (api.cuDriverGetVersion(&drv) == 0)
      snprintf(info->driver, sizeof info->driver, "CUDA %d.%d%s", drv / 1000, (drv % 1000) / 10,
               nvcc ? ", kernels by nvcc" : "");
   else
      snprintf(info->driver, sizeof info->driver, "CUDA (version unknown)%s", nvcc ? ", kernels by nvcc" : "");
   int major = attr(d, CU_ATTR_CC_MAJOR), minor = attr(d, CU_ATTR_CC_MINOR);
   if (nvcc)
      snprintf(info->version, sizeof info->version, "sm_%d%d, nvcc (GEMMTOP_CUDA_COMPILER)", major, minor);
   else
      snprintf(info->version, sizeof info->version, "sm_%d%d, NVRTC %d.%d", major, minor, api.nvrtc_major,
               api.nvrtc_minor);
   snprintf(info->arch, sizeof info->arch, "sm_%d%d", major, minor);
   info->global_mem = mem;
   info->max_alloc = mem;
   Gpu_describeLimits(&cuda, d, info);
   info->limits.local_mem_optin = (unsigned long long)attr(d, CU_ATTR_MAX_SHARED_PER_BLOCK_OPTIN);
   info->limits.dynamic_smem = true; /* setDynamicShared */
   info->l2_bytes = (unsigned long long)attr(d, CU_ATTR_L2_CACHE_SIZE);
   if (api.cuDeviceGetPCIBusId && api.cuDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof info->pci_bus_id, d) != 0)
      info->pci_bus_id[0] = '\0';
   info->inline_ptx = true;
   Device_classify(info);
   return BACKEND_OK;
}

static int findDevices(DeviceInfo **out, char *err, size_t errlen) {
   *out = NULL;
   if (!load(err, errlen))
      return 0;
   int n = 0;
   CUresult r = api.cuDeviceGetCount(&n);
   if (r != 0 || n <= 0) {
      snprintf(err, errlen, "no CUDA device (%s)", r ? cuErrorString(r) : "the driver lists none");
      return 0;
   }
   DeviceInfo *infos = calloc((size_t)n, sizeof *infos);
   if (!infos) {
      snprintf(err, errlen, "out of host memory");
      return 0;
   }
   for (int i = 0; i < n; i++) {
      CUdevice d;
      r = api.cuDeviceGet(&d, i);
      if (r != 0)
         cuFail(r, "cuDeviceGet", err, errlen);
      if (r != 0 || describe(d, i, &infos[i], err, errlen) != BACKEND_OK) {
         free(infos);
         return 0;
      }
   }
   *out = infos;
   return n;
}

static void holdClose(Context *c) {
   if (c->holdModule)
      api.cuModuleUnload(c->holdModule);
   if (c->holdCounter)
      api.cuMemFreeHost(c->holdCounter);
   c->holdModule = NULL;
   c->holdCounter = NULL;
   memset(&c->hold, 0, sizeof c->hold);
}

/* The timing hold (gpu_common.h), unless a profiler is injected into the process
 * (Gpu_profilerInjected). GEMMTOP_HOLD=0 turns it off. Without it (or when a step fails)
 * timing is as before: the host's launch inside. */
static void holdOpen(Context *c) {
   const char *off = getenv("GEMMTOP_HOLD");
   if ((off && strcmp(off, "0") == 0) || Gpu_profilerInjected() || !api.cuMemHostAlloc || !api.cuMemFreeHost ||
       !api.cuMemHostGetDevicePointer)
      return;
   CUdeviceptr dev = 0;
   if (api.cuMemHostAlloc(&c->holdCounter, 64, 0x01 | 0x02 /* PORTABLE | DEVICEMAP */) != 0) {
      c->holdCounter = NULL;
      return;
   }
   memset(c->holdCounter, 0, 64);
   if (api.cuMemHostGetDevicePointer(&dev, c->holdCounter, 0) != 0 ||
       api.cuModuleLoadData(&c->holdModule, Gpu_holdPtx) != 0 ||
       api.cuModuleGetFunction(&c->holdKernel.fn, c->holdModule, "gemmtop_hold") != 0) {
      holdClose(c); /* frees what there is */
      return;
   }
   c->hold = (GpuHold){.fn = &c->holdKernel, .counter = dev, .host = c->holdCounter, .limit_ns = 50000000ull};
}

static Context *openDevice(int index, DeviceInfo *info, char *err, size_t errlen) {
   DeviceInfo *all = NULL;
   int n = findDevices(&all, err, errlen);
   free(all);
   if (n <= 0)
      return NULL;
   if (index < 0 || index >= n) {
      snprintf(err, errlen, "no CUDA device %d: there are %d", index, n);
      return NULL;
   }
   Context *c = calloc(1, sizeof *c);
   if (!c) {
      snprintf(err, errlen, "out of host memory");
      return NULL;
   }
   CUresult r = api.cuDeviceGet(&c->dev, index);
   bool retained = false;
   if (r == 0 && (r = api.cuDevicePrimaryCtxRetain(&c->ctx, c->dev)) == 0)
      retained = true;
   if (r == 0)
      r = api.cuCtxSetCurrent(c->ctx);
   if (r == 0)
      r = api.cuStreamCreate(&c->stream, 0);
   if (r != 0 || describe(c->dev, index, &c->info, err, errlen) != BACKEND_OK) {
      if (r != 0)
         cuFail(r, "opening the CUDA device", err, errlen);
      if (c->stream)
         api.cuStreamDestroy(c->stream);
      if (retained)
         api.cuDevicePrimaryCtxRelease(c->dev);
      free(c);
      return NULL;
   }
   c->cc_major = attr(c->dev, CU_ATTR_CC_MAJOR);
   c->cc_minor = attr(c->dev, CU_ATTR_CC_MINOR);
   holdOpen(c);
   if (info)
      *info = c->info;
   return c;
}

static CublasLtDevice ltDevice(Context *c);

static void closeDevice(Context *c) {
   if (!c)
      return;
   api.cuCtxSetCurrent(c->ctx);
   api.cuStreamSynchronize(c->stream);
   const CublasLtDevice lt = ltDevice(c);
   CublasLt_free(c->lt, &lt);
   holdClose(c);
   api.cuStreamDestroy(c->stream);
   api.cuDevicePrimaryCtxRelease(c->dev);
   free(c);
}

/* GEMMTOP_CUDA_COMPILER=nvcc (or nvcc's path): the toolkit's nvcc builds the CUBIN (or the
 * PTX) instead of NVRTC, to compare the two on one kernel: the same CUDA 13.0 made different
 * code from the same source: FP8 step 5 with block scales ran 11-15% faster from nvcc on an
 * H200 until its source changed (docs/fp8.md). NULL: NVRTC, the default. */
extern char **environ;

const char *Cuda_nvccWanted(void) {
   const char *c = getenv("GEMMTOP_CUDA_COMPILER");
   return c && c[0] && strcmp(c, "nvrtc") != 0 ? c : NULL;
}

/* The source into a temporary .cu, nvcc on it with the options (the -D of the
 * configuration), its messages (ptxas's report with -v) as the log. */
static BackendStatus nvccBuild(const char *nvcc, const char *source, const char *options, const char *arch,
                               bool want_ptx, char **out, size_t *outlen, char **log, char *err, size_t errlen) {
   *out = *log = NULL;
   *outlen = 0;
   char dir[] = "/tmp/gemmtop-nvcc-XXXXXX";
   if (!mkdtemp(dir)) {
      snprintf(err, errlen, "nvcc: no temporary folder: %s", strerror(errno));
      return BACKEND_ERR_OTHER;
   }
   char src[64], obj[64], msg[64], archopt[32];
   snprintf(src, sizeof src, "%s/kernel.cu", dir);
   snprintf(obj, sizeof obj, "%s/kernel.%s", dir, want_ptx ? "ptx" : "cubin");
   snprintf(msg, sizeof msg, "%s/messages.txt", dir);
   size_t archlen = strlen(arch);
   bool suffix = Cuda_archSpecific(options) && archlen && arch[archlen - 1] != 'a';
   snprintf(archopt, sizeof archopt, "-arch=%s%s", arch, suffix ? "a" : "");
   char *buf = strdup(options ? options : "");
   BackendStatus st = BACKEND_OK;
   const char *argv[160];
   int n = 0;
   argv[n++] = nvcc;
   argv[n++] = want_ptx ? "-ptx" : "-cubin";
   argv[n++] = archopt;
   argv[n++] = "-O3";
   argv[n++] = "-lineinfo";
   argv[n++] = "-diag-suppress=1444,177";
   if (!want_ptx) {
      argv[n++] = "-Xptxas";
      argv[n++] = "-v";
   }
   int more = buf ? Gpu_splitOptions(buf, argv + n, (int)(sizeof argv / sizeof argv[0]) - n - 4) : -1;
   if (more < 0) {
      snprintf(err, errlen, "nvcc: too many compiler options, or out of memory");
      st = BACKEND_ERR_OTHER;
   } else {
      n += more;
      argv[n++] = "-o";
      argv[n++] = obj;
      argv[n++] = src;
      argv[n] = NULL;
   }
   if (st == BACKEND_OK && !Util_writeFileAtomic(src, source, strlen(source))) {
      snprintf(err, errlen, "nvcc: cannot write %s", src);
      st = BACKEND_ERR_OTHER;
   }
   if (st == BACKEND_OK) {
      posix_spawn_file_actions_t fa;
      posix_spawn_file_actions_init(&fa);
      posix_spawn_file_actions_addopen(&fa, 1, msg, O_WRONLY | O_CREAT | O_TRUNC, 0600);
      posix_spawn_file_actions_adddup2(&fa, 1, 2);
      pid_t pid;
      int rc = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
      if (rc == ENOENT && strcmp(nvcc, "nvcc") == 0) { /* not on PATH: the toolkit's usual place */
         argv[0] = "/usr/local/cuda/bin/nvcc";
         rc = posix_spawn(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
      }
      posix_spawn_file_actions_destroy(&fa);
      int status = 0;
      if (rc != 0) {
         snprintf(err, errlen, "GEMMTOP_CUDA_COMPILER=%s: cannot start it (%s); unset it for NVRTC", nvcc, strerror(rc));
         st = BACKEND_ERR_NO_RUNTIME;
      } else if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
         snprintf(err, errlen, "the kernel did not compile (%s); its messages follow", nvcc);
         st = BACKEND_ERR_COMPILE;
      }
      size_t loglen = 0;
      *log = Util_readFile(msg, &loglen);
      if (st == BACKEND_OK && !(*out = Util_readFile(obj, outlen))) {
         snprintf(err, errlen, "%s wrote no %s", nvcc, want_ptx ? "PTX" : "CUBIN");
         st = BACKEND_ERR_OTHER;
      }
   }
   unlink(src);
   unlink(obj);
   unlink(msg);
   rmdir(dir);
   free(buf);
   return st;
}

/* NVRTC compile of prelude_cuda.h + source for arch ("sm_90"); returns CUBIN (or PTX when
 * want_ptx) in *out. Shared by running and by inspection without a GPU. */
static BackendStatus nvrtcBuild(const char *source, const char *options, const char *arch, bool want_ptx, char **out,
                                size_t *outlen, char **log, char *err, size_t errlen) {
   *out = NULL;
   *log = NULL;
   *outlen = 0;
   char *buf = strdup(options ? options : "");
   if (!buf) {
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   const char *opts[128];
   char archopt[64];
   size_t archlen = strlen(arch);
   bool suffix = Cuda_archSpecific(options) && archlen && arch[archlen - 1] != 'a';
   snprintf(archopt, sizeof archopt, "--gpu-architecture=%s%s", arch, suffix ? "a" : "");
   int n = 0;
   opts[n++] = archopt;
   opts[n++] = "-default-device";
   opts[n++] = "-diag-suppress=1444"; /* double4 is deprecated in CUDA 13; it is what OpenCL means */
   opts[n++] = "-lineinfo";
   if (!want_ptx)
      opts[n++] = "--ptxas-options=-v"; /* registers, spills, shared memory into the log */
   int more = Gpu_splitOptions(buf, opts + n, (int)(sizeof opts / sizeof opts[0]) - n);
   if (more < 0) {
      free(buf);
      snprintf(err, errlen, "too many compiler options (at most %d)", (int)(sizeof opts / sizeof opts[0]) - n);
      return BACKEND_ERR_OTHER;
   }
   n += more;
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
   if (api.nvrtcGetProgramLogSize(prog, &loglen) == 0 && (*log = calloc(loglen + 1, 1)) != NULL && loglen &&
       api.nvrtcGetProgramLog(prog, *log) != 0)
      (*log)[0] = '\0';
   if (r != 0) {
      snprintf(err, errlen, "the kernel did not compile (NVRTC: %s); the build log follows", api.nvrtcGetErrorString(r));
      api.nvrtcDestroyProgram(&prog);
      return BACKEND_ERR_COMPILE;
   }
   /* NVRTC before 11.1 gives no CUBIN: the driver then compiles the PTX. */
   bool ptx = want_ptx || !api.nvrtcGetCUBINSize || !api.nvrtcGetCUBIN;
   size_t size = 0;
   r = ptx ? api.nvrtcGetPTXSize(prog, &size) : api.nvrtcGetCUBINSize(prog, &size);
   if (r == 0 && !(*out = malloc(size + 1))) {
      api.nvrtcDestroyProgram(&prog);
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   if (r == 0)
      r = ptx ? api.nvrtcGetPTX(prog, *out) : api.nvrtcGetCUBIN(prog, *out);
   api.nvrtcDestroyProgram(&prog);
   if (r != 0) {
      free(*out);
      *out = NULL;
      snprintf(err, errlen, "NVRTC gave no %s: %s", ptx ? "PTX" : "CUBIN", api.nvrtcGetErrorString(r));
      return BACKEND_ERR_OTHER;
   }
   (*out)[size] = '\0';
   *outlen = size;
   return BACKEND_OK;
}

static BackendStatus nvrtcCubin(const char *source, const char *options, const char *arch, char **image, size_t *size,
                                char **log, char *err, size_t errlen) {
   return nvrtcBuild(source, options, arch, false, image, size, log, err, errlen);
}

static BackendStatus nvrtcPtx(const char *source, const char *options, const char *arch, char **image, size_t *size,
                              char **log, char *err, size_t errlen) {
   return nvrtcBuild(source, options, arch, true, image, size, log, err, errlen);
}

static BackendStatus nvccCubin(const char *source, const char *options, const char *arch, char **image, size_t *size,
                               char **log, char *err, size_t errlen) {
   return nvccBuild(Cuda_nvccWanted(), source, options, arch, false, image, size, log, err, errlen);
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
   if ((size_t)snprintf(opts, sizeof opts, "%s%s%s", options, extra ? " " : "", extra ? extra : "") >= sizeof opts) {
      snprintf(err, errlen, "the compiler options (with GEMMTOP_NVRTC_OPTIONS) are longer than %zu bytes", sizeof opts);
      return BACKEND_ERR_OTHER;
   }
   /* The compiler is part of the cache entry's version: NVRTC's, or nvcc's (a third number). */
   const char *nvcc = Cuda_nvccWanted();
   const int version[3] = {api.nvrtc_major, api.nvrtc_minor, nvcc ? 1 : 0};
   char *image = NULL;
   size_t size = 0;
   BackendStatus st = Gpu_compileCached(&cuda, nvcc ? nvccCubin : nvrtcCubin, source, opts, arch, version,
                                        nvcc ? sizeof version : 2 * sizeof(int), &image, &size, info, err, errlen);
   if (st != BACKEND_OK)
      return st;
   CUmodule mod;
   CUresult r = api.cuCtxSetCurrent(c->ctx);
   if (r == 0)
      r = api.cuModuleLoadData(&mod, image);
   free(image);
   if (r != 0)
      return cuFail(r, "loading the compiled module", err, errlen);
   Program *p = calloc(1, sizeof *p);
   if (!p) {
      api.cuModuleUnload(mod);
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   p->module = mod;
   p->ctx = c;
   info->compile_ms = Util_nowMs() - t0;
   *out = p;
   return BACKEND_OK;
}

static Kernel *kernelOf(Program *p, const char *entry, BuildInfo *info, char *err, size_t errlen) {
   CUfunction fn;
   CUresult r = api.cuModuleGetFunction(&fn, p->module, entry);
   if (r != 0) {
      snprintf(err, errlen, "kernel entry '%s' not found in the module (%s)", entry, cuErrorString(r));
      return NULL;
   }
   if (info)
      Gpu_kernelInfo(&cuda, fn, info);
   Kernel *k = calloc(1, sizeof *k);
   if (!k) {
      snprintf(err, errlen, "out of host memory");
      return NULL;
   }
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
   CUresult r = api.cuCtxSetCurrent(c->ctx);
   if (r == 0)
      r = api.cuMemAlloc(&ptr, bytes ? bytes : 1);
   if (r != 0) {
      BackendStatus st = cuFail(r, "cuMemAlloc", err, errlen);
      if (st == BACKEND_ERR_OUT_OF_MEMORY)
         snprintf(err, errlen, "out of device memory allocating %.1f MiB", bytes / 1048576.0);
      return st;
   }
   Buffer *b = calloc(1, sizeof *b);
   if (!b) {
      api.cuMemFree(ptr);
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   b->ptr = ptr;
   b->bytes = bytes;
   *out = b;
   return BACKEND_OK;
}

static void freeBuffer(Buffer *b) {
   if (b) {
      api.cuMemFree(b->base ? b->base : b->ptr);
      free(b);
   }
}

/* One allocation; kernels get the pointer past its first guard. */
static BackendStatus allocGuarded(Context *c, size_t bytes, size_t guard, Buffer **out, char *err, size_t errlen) {
   const size_t data = bytes ? bytes : 1;
   BackendStatus st = allocBuffer(c, data + 2 * guard, out, err, errlen);
   if (st != BACKEND_OK)
      return st;
   Buffer *b = *out;
   b->base = b->ptr;
   b->ptr = b->base + guard;
   b->bytes = bytes;
   b->guard = guard;
   return BACKEND_OK;
}

static BackendStatus guards(Context *c, Buffer *b, void *before, void *after, bool write, char *err, size_t errlen) {
   if (!b->base) {
      snprintf(err, errlen, "a buffer without guard zones");
      return BACKEND_ERR_OTHER;
   }
   const CUdeviceptr at[2] = {b->base, b->ptr + (b->bytes ? b->bytes : 1)};
   void *host[2] = {before, after};
   CUresult r = api.cuStreamSynchronize(c->stream);
   for (int i = 0; i < 2 && r == 0; i++)
      r = write ? api.cuMemcpyHtoD(at[i], host[i], b->guard) : api.cuMemcpyDtoH(host[i], at[i], b->guard);
   return r == 0 ? BACKEND_OK : cuFail(r, write ? "writing guard zones" : "reading guard zones", err, errlen);
}

/* The synchronous copies wait for the stream first: a launch on it may still use b. */
static BackendStatus writeBuffer(Context *c, Buffer *b, const void *host, size_t bytes, char *err, size_t errlen) {
   CUresult r = api.cuStreamSynchronize(c->stream);
   if (r == 0)
      r = api.cuMemcpyHtoD(b->ptr, host, bytes);
   return r == 0 ? BACKEND_OK : cuFail(r, "writing to the device", err, errlen);
}

static BackendStatus readBuffer(Context *c, Buffer *b, void *host, size_t bytes, char *err, size_t errlen) {
   CUresult r = api.cuStreamSynchronize(c->stream);
   if (r == 0)
      r = api.cuMemcpyDtoH(host, b->ptr, bytes);
   return r == 0 ? BACKEND_OK : cuFail(r, "reading from the device", err, errlen);
}

static BackendStatus copyBuffer(Context *c, Buffer *dst, Buffer *src, size_t bytes, char *err, size_t errlen) {
   CUresult r = api.cuMemcpyDtoDAsync(dst->ptr, src->ptr, bytes, c->stream);
   return r == 0 ? BACKEND_OK : cuFail(r, "copying on the device", err, errlen);
}

static BackendStatus fillBuffer(Context *c, Buffer *b, uint32_t word, size_t bytes, char *err, size_t errlen) {
   if (!api.cuMemsetD32Async) {
      snprintf(err, errlen, "this NVIDIA driver has no cuMemsetD32Async");
      return BACKEND_ERR_UNSUPPORTED;
   }
   CUresult r = api.cuMemsetD32Async(b->ptr, word, bytes / 4, c->stream);
   return r == 0 ? BACKEND_OK : cuFail(r, "filling a buffer on the device", err, errlen);
}

/* Page-locked: the copies of C run at the bus's speed, with no staging through the driver. */
static void *hostAlloc(Context *c, size_t bytes) {
   void *p = NULL;
   return api.cuMemHostAlloc && api.cuMemFreeHost && api.cuCtxSetCurrent(c->ctx) == 0 &&
                  api.cuMemHostAlloc(&p, bytes ? bytes : 1, 0) == 0
              ? p
              : NULL;
}

static void hostFree(Context *c, void *host) {
   if (host && api.cuCtxSetCurrent(c->ctx) == 0)
      api.cuMemFreeHost(host);
}

static BackendStatus launch(Context *c, Kernel *k, const KernelArg *args, int nargs, bool real_double, int dims,
                            const size_t *global, const size_t *local, Event **ev, char *err, size_t errlen) {
   return Gpu_launch(&cuda, c->stream, &c->hold, k, args, nargs, real_double, dims, global, local, ev, err, errlen);
}

static BackendStatus setDynamicShared(Kernel *k, size_t bytes, char *err, size_t errlen) {
   if (bytes > 48 * 1024) {
      if (!api.cuFuncSetAttribute) {
         snprintf(err, errlen, "this NVIDIA driver has no cuFuncSetAttribute: at most 48 KiB of dynamic shared memory");
         return BACKEND_ERR_LAUNCH;
      }
      CUresult r = api.cuFuncSetAttribute(k->fn, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)bytes);
      if (r != 0) {
         char what[96];
         snprintf(what, sizeof what, "allowing the kernel %zu bytes of dynamic shared memory", bytes);
         return cuFail(r, what, err, errlen);
      }
   }
   k->dynamic_shared = (unsigned)bytes;
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

/* cuBLAS, loaded at run time: the CUDA reference (Gpu_columnMajor: no data moves).
 * Default math mode: true FP32, no TF32. The tensor-core types go through cublasGemmEx
 * with the same types as the kernels: half or bfloat16 A and B, FP32 C and
 * CUBLAS_COMPUTE_32F; tf32 as FP32 A, B and C with CUBLAS_COMPUTE_32F_FAST_TF32 (inputs
 * made TF32, FP32 accumulation). The FP8 types go to cuBLASLt (cublaslt.c). */
typedef struct cublasContext *cublasHandle_t;
enum { CUBLAS_OP_N = 0, CUBLAS_OP_T = 1 };
/* cudaDataType_t, cublasComputeType_t and cublasGemmAlgo_t values (library_types.h, cublas_api.h). */
enum { CUDA_R_32F_ = 0, CUDA_R_16F_ = 2, CUDA_R_16BF_ = 14 };
enum { CUBLAS_COMPUTE_32F_ = 68, CUBLAS_COMPUTE_32F_FAST_TF32_ = 77 };
enum { CUBLAS_GEMM_DEFAULT_ = -1 };
typedef int CublasGemmExFn(cublasHandle_t, int, int, int, int, int, const void *, const void *, int, int, const void *,
                           int, int, const void *, void *, int, int, int, int);
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
   CublasGemmExFn *gemmEx;
   int version;
} cublas;

/* How cuBLAS multiplies each element type: the call, A and B's data type and the compute
 * type for GemmEx, the words that say so in the library's name, and what a reader needs
 * to know of its rounding. CUBLAS_NONE: no reference for the type (a new type's row says
 * so until it is wired in); CUBLAS_LT: cuBLASLt's FP8 GEMM (cublaslt.c). */
typedef enum { CUBLAS_NONE, CUBLAS_SGEMM, CUBLAS_DGEMM, CUBLAS_GEMMEX, CUBLAS_LT } CublasCall;
static const struct {
   CublasCall call;
   int ab, compute;
   const char *what;
   const char *rounding;
} kCublasTypes[PRECISION_COUNT] = {
    [PRECISION_FLOAT] = {CUBLAS_SGEMM, CUDA_R_32F_, CUBLAS_COMPUTE_32F_, "", ""},
    [PRECISION_DOUBLE] = {CUBLAS_DGEMM, 0, 0, "", ""},
    /* NVIDIA documents only that FAST_TF32 "down-converts" FP32 inputs to TF32, not how it
     * rounds; a tensor core fed FP32 bits keeps TF32's 19 and drops the rest (toward zero),
     * while cvt.rna rounds to nearest. tools/gpu/gpu_cublaslt.sh probes which it does. */
    [PRECISION_TF32] = {CUBLAS_GEMMEX, CUDA_R_32F_, CUBLAS_COMPUTE_32F_FAST_TF32_, "GemmEx FAST_TF32",
                        "FP32 inputs made TF32 by cuBLAS's FAST_TF32 (its rounding is not documented: cut toward "
                        "zero where a kernel feeds the tensor cores FP32 bits, to nearest where it rounds with "
                        "cvt.rna), FP32 accumulation"},
    [PRECISION_HALF] = {CUBLAS_GEMMEX, CUDA_R_16F_, CUBLAS_COMPUTE_32F_, "GemmEx half, FP32 C", ""},
    [PRECISION_BF16] = {CUBLAS_GEMMEX, CUDA_R_16BF_, CUBLAS_COMPUTE_32F_, "GemmEx bfloat16, FP32 C", ""},
    [PRECISION_E4M3] = {CUBLAS_LT, 0, 0, "", ""},
    [PRECISION_E5M2] = {CUBLAS_LT, 0, 0, "", ""},
};

static void loadCublas(Context *c) {
   cublas.tried = true;
   const char *names[] = {"libcublas.so", "libcublas.so.13", "libcublas.so.12", "libcublas.so.11", NULL};
   cublas.lib = Gpu_openLibrary(names, "/usr/local/cuda*/lib*/libcublas.so*", NULL, 0);
   if (!cublas.lib)
      return;
   cublas.create = symbol(cublas.lib, "cublasCreate_v2", NULL);
   cublas.setStream = symbol(cublas.lib, "cublasSetStream_v2", NULL);
   cublas.setMathMode = symbol(cublas.lib, "cublasSetMathMode", NULL);
   cublas.getVersion = symbol(cublas.lib, "cublasGetVersion_v2", NULL);
   cublas.sgemm = symbol(cublas.lib, "cublasSgemm_v2", NULL);
   cublas.dgemm = symbol(cublas.lib, "cublasDgemm_v2", NULL);
   cublas.gemmEx = (CublasGemmExFn *)symbol(cublas.lib, "cublasGemmEx", NULL);
   if (api.cuCtxSetCurrent(c->ctx) != 0 || !cublas.create || cublas.create(&cublas.handle) != 0)
      cublas.handle = NULL;
   if (cublas.handle && cublas.getVersion && cublas.getVersion(cublas.handle, &cublas.version) != 0)
      cublas.version = 0;
}

/* The device as cuBLASLt reaches it (cublaslt.h). */
static int ltAlloc(void *self, size_t bytes, unsigned long long *ptr) {
   (void)self;
   CUdeviceptr p = 0;
   int r = api.cuMemAlloc(&p, bytes);
   *ptr = p;
   return r;
}
static void ltRelease(void *self, unsigned long long ptr) {
   (void)self;
   api.cuMemFree((CUdeviceptr)ptr);
}
static int ltUpload(void *self, unsigned long long dst, const void *src, size_t bytes) {
   (void)self;
   return api.cuMemcpyHtoD((CUdeviceptr)dst, src, bytes);
}
static CublasLtDevice ltDevice(Context *c) {
   return (CublasLtDevice){.rt = &cuda, .stream = c->stream, .sm = c->cc_major * 10 + c->cc_minor,
                           .hold = &c->hold, .self = c, .alloc = ltAlloc, .release = ltRelease, .upload = ltUpload};
}

static bool vendorKMajor(Precision p) { return CublasLt_takes(p); }

static BackendStatus vendorGemm(Context *c, const BackendGemm *p, Buffer *A, Buffer *B, Buffer *C,
                                BackendVendorCall *out, char *err, size_t errlen) {
   out->ms = -1;
   out->note[0] = '\0';
   const CublasCall call = (unsigned)p->precision < PRECISION_COUNT ? kCublasTypes[p->precision].call : CUBLAS_NONE;
   if (call == CUBLAS_LT) {
      CUresult r = api.cuCtxSetCurrent(c->ctx);
      if (r != 0)
         return cuFail(r, "cuCtxSetCurrent", err, errlen);
      const CublasLtDevice dev = ltDevice(c);
      return CublasLt_gemm(&c->lt, &dev, p, A->ptr, B->ptr, C->ptr, out, err, errlen);
   }
   if (!cublas.tried)
      loadCublas(c);
   if (call == CUBLAS_NONE) {
      snprintf(out->name, sizeof out->name, "cuBLAS");
      snprintf(err, errlen, "no cuBLAS reference for %s in gemmtop", Types_of(p->precision)->name);
      return BACKEND_ERR_UNSUPPORTED;
   }
   const bool ex = call == CUBLAS_GEMMEX;
   const int abType = kCublasTypes[p->precision].ab, computeType = kCublasTypes[p->precision].compute;
   const char *what = kCublasTypes[p->precision].what;
   if (cublas.version)
      snprintf(out->name, sizeof out->name, "cuBLAS %d.%d.%d%s%s", cublas.version / 10000, cublas.version / 100 % 100,
               cublas.version % 100, ex ? " " : "", what);
   else
      snprintf(out->name, sizeof out->name, "cuBLAS%s%s", ex ? " " : "", what);
   snprintf(out->note, sizeof out->note, "%s", kCublasTypes[p->precision].rounding);
   if (p->c_bf16) {
      snprintf(err, errlen, "a bfloat16 C is offered for the FP8 types (cuBLASLt) only; cuBLAS writes %s's C in %s",
               Types_of(p->precision)->name, Storage_npyName(Types_of(p->precision)->out));
      return BACKEND_ERR_UNSUPPORTED;
   }
   if (!cublas.handle || !cublas.sgemm || !cublas.dgemm || !cublas.setStream || (ex && !cublas.gemmEx)) {
      snprintf(err, errlen, "cuBLAS is not available (libcublas.so not found, cublasCreate failed%s)",
               ex ? " or it has no cublasGemmEx" : "");
      return BACKEND_ERR_NO_RUNTIME;
   }
   CUresult r = api.cuCtxSetCurrent(c->ctx);
   if (r != 0)
      return cuFail(r, "cuCtxSetCurrent", err, errlen);
   int st = cublas.setStream(cublas.handle, c->stream);
   if (st == 0 && cublas.setMathMode)
      st = cublas.setMathMode(cublas.handle, 0);
   if (st != 0) {
      snprintf(err, errlen, "cuBLAS: setting its stream and math mode failed with status %d", st);
      return BACKEND_ERR_OTHER;
   }
   GpuGemmCall g = Gpu_columnMajor(p);
   int opFirst = g.trans_first ? CUBLAS_OP_T : CUBLAS_OP_N, opSecond = g.trans_second ? CUBLAS_OP_T : CUBLAS_OP_N;
   Event *e = Gpu_eventStart(&cuda, c->stream, &c->hold, err, errlen);
   if (!e)
      return BACKEND_ERR_OTHER;
   if (ex) {
      float alpha = (float)p->alpha, beta = (float)p->beta;
      st = cublas.gemmEx(cublas.handle, opFirst, opSecond, g.m, g.n, g.k, &alpha, (const void *)(uintptr_t)B->ptr, abType,
                         g.ld_first, (const void *)(uintptr_t)A->ptr, abType, g.ld_second, &beta,
                         (void *)(uintptr_t)C->ptr, CUDA_R_32F_, g.ld_c, computeType, CUBLAS_GEMM_DEFAULT_);
   } else if (call == CUBLAS_DGEMM) {
      double alpha = p->alpha, beta = p->beta;
      st = cublas.dgemm(cublas.handle, opFirst, opSecond, g.m, g.n, g.k, &alpha,
                        (const double *)(uintptr_t)B->ptr, g.ld_first, (const double *)(uintptr_t)A->ptr, g.ld_second,
                        &beta, (double *)(uintptr_t)C->ptr, g.ld_c);
   } else {
      float alpha = (float)p->alpha, beta = (float)p->beta;
      st = cublas.sgemm(cublas.handle, opFirst, opSecond, g.m, g.n, g.k, &alpha,
                        (const float *)(uintptr_t)B->ptr, g.ld_first, (const float *)(uintptr_t)A->ptr, g.ld_second,
                        &beta, (float *)(uintptr_t)C->ptr, g.ld_c);
   }
   BackendStatus done = Gpu_eventStop(e, c->stream, err, errlen);
   if (done == BACKEND_OK)
      done = Gpu_eventWait(e, &out->ms, "waiting for cuBLAS", err, errlen);
   Gpu_releaseEvent(e);
   if (st != 0) {
      snprintf(err, errlen, "cuBLAS %s failed with status %d",
               ex ? "GemmEx" : call == CUBLAS_DGEMM ? "Dgemm" : "Sgemm", st);
      return st == 3 /* CUBLAS_STATUS_ALLOC_FAILED */ ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
   }
   return done;
}

bool Cuda_nvrtcPresent(void) { return loadNvrtc(); }

/* PTX that another runtime built (NVIDIA's OpenCL): the driver loads it on the first
 * device's primary context, which says its registers and memory; the thread's context is
 * put back after. */
static int cuLoadImage(void **module, const void *image) { return api.cuModuleLoadData((CUmodule *)module, image); }
static int cuFunction(void **fn, void *module, const char *entry) {
   return api.cuModuleGetFunction((CUfunction *)fn, module, entry);
}
static int cuUnload(void *module) { return api.cuModuleUnload(module); }

static BackendStatus ptxResources(const char *ptx, const char *entry, BuildInfo *info, char *err, size_t errlen) {
   static const GpuModuleOps ops = {cuLoadImage, cuFunction, cuUnload};
   if (!load(err, errlen))
      return BACKEND_ERR_NO_RUNTIME;
   CUdevice dev;
   CUcontext ctx = NULL, before = NULL;
   CUresult r = api.cuDeviceGet(&dev, 0);
   if (r == 0)
      r = api.cuDevicePrimaryCtxRetain(&ctx, dev);
   if (r != 0)
      return Gpu_fail(&cuda, r, "opening the first CUDA device", err, errlen);
   if (api.cuCtxGetCurrent)
      api.cuCtxGetCurrent(&before);
   r = api.cuCtxSetCurrent(ctx);
   BackendStatus st = r == 0 ? Gpu_moduleResources(&cuda, &ops, ptx, entry, info, err, errlen)
                             : Gpu_fail(&cuda, r, "making the CUDA context current", err, errlen);
   api.cuCtxSetCurrent(before);
   api.cuDevicePrimaryCtxRelease(dev);
   return st;
}

static const Backend cudaBackend = {
    .name = "cuda",
    .title = "CUDA",
    .caps = BACKEND_CAP_CUDA_PRELUDE | BACKEND_CAP_REGISTERS | BACKEND_CAP_ARCH_SPECIFIC | BACKEND_CAP_NVCC,
    .vendor_library = "cuBLAS and cuBLASLt",
    .findDevices = findDevices,
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
    .allocGuarded = allocGuarded,
    .guards = guards,
    .fill = fillBuffer,
    .hostAlloc = hostAlloc,
    .hostFree = hostFree,
    .launch = launch,
    .setDynamicShared = setDynamicShared,
    .finish = finish,
    .finishWithin = finishWithin,
    .eventMs = Gpu_eventMs,
    .releaseEvent = Gpu_releaseEvent,
    .vendorGemm = vendorGemm,
    .vendorKMajor = vendorKMajor,
    .ptxResources = ptxResources,
    .offline = &Cuda_offline,
};

const Backend *Backend_cuda(void) { return &cudaBackend; }

bool Cuda_archSpecific(const char *options) { return options && strstr(options, "-DGT_ARCH_SPECIFIC=1") != NULL; }

/* Compiles without a device: for inspection (PTX) and for CI on machines without GPUs. */
BackendStatus Cuda_compileOnly(const char *source, const char *options, const char *arch, bool want_ptx, char **out,
                               size_t *outlen, char **log, char *err, size_t errlen) {
   if (Cuda_nvccWanted())
      return nvccBuild(Cuda_nvccWanted(), source, options, arch, want_ptx, out, outlen, log, err, errlen);
   if (!loadNvrtc()) {
      snprintf(err, errlen, "NVRTC (libnvrtc.so) not found; install the CUDA toolkit or set GEMMTOP_NVRTC");
      *out = *log = NULL;
      return BACKEND_ERR_NO_RUNTIME;
   }
   /* Kept in the disk cache beside the runtime's programs: inspect, the explorer's inspect
    * pane and the offline checks compile the same kernel again and again, NVRTC taking a
    * second or more each time (and the PTX and the CUBIN are two compiles). */
   char version[64];
   snprintf(version, sizeof version, "NVRTC %d.%d", api.nvrtc_major, api.nvrtc_minor);
   return Gpu_offlineCached("cuda", want_ptx ? "offline ptx" : "offline cubin", want_ptx ? nvrtcPtx : nvrtcCubin,
                            source, options, arch, version, out, outlen, log, err, errlen);
}
