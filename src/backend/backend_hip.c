/* The HIP backend: hipRTC (inside libamdhip64) compiles the kernel file through the same
 * prelude as CUDA, the HIP module API loads and runs it; rocBLAS is the vendor reference.
 * Everything is loaded at run time with dlopen, so gemmtop builds without ROCm, and the
 * backend says what it found and steps aside when the runtime or an AMD GPU is absent.
 * Compiling needs no GPU: LLVM's tools then read the code object (llvm-readelf --notes for
 * VGPR/SGPR/spill/LDS counts, llvm-objdump for the ISA).
 * The run path shares gpu_common.c with backend_cuda.c (that one is verified on an H100):
 * arguments, grid, events, limits, the disk-cached compile and the BLAS call's layout. Its
 * declarations (hip_api.h) are checked against AMD's headers by tests/unit/test_hip_abi.c,
 * but it has not yet been run on an AMD GPU. */
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend_hip.h"
#include "backend/gpu_common.h"
#include "backend/hip_api.h"
#include "base/util.h"

static struct {
   bool tried;
   void *lib;
   HiprtcCreateProgramFn *create;
   HiprtcCompileProgramFn *compile;
   HiprtcSizeFn *logSize;
   HiprtcTextFn *log;
   HiprtcSizeFn *codeSize;
   HiprtcTextFn *code;
   HiprtcDestroyProgramFn *destroy;
   HiprtcGetErrorStringFn *errorString;
   char version[96]; /* what the disk cache records: hiprtcVersion's, or the library's name */
} rtc;

static bool loadRtc(void) {
   if (rtc.tried)
      return rtc.create != NULL;
   rtc.tried = true;
   const char *env = getenv("GEMMTOP_HIPRTC");
   const char *names[] = {env && *env ? env : "libhiprtc.so", "libhiprtc.so.7", "libhiprtc.so.6", "libamdhip64.so",
                          "libamdhip64.so.7", "libamdhip64.so.6", "libamdhip64.so.5", NULL};
   for (int i = 0; names[i] && !rtc.lib; i++) {
      void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
      if (h && dlsym(h, "hiprtcCreateProgram")) {
         rtc.lib = h;
         snprintf(rtc.version, sizeof rtc.version, "hipRTC %s", names[i]);
      } else if (h)
         dlclose(h);
   }
   if (!rtc.lib)
      return false;
   rtc.create = (HiprtcCreateProgramFn *)dlsym(rtc.lib, "hiprtcCreateProgram");
   rtc.compile = (HiprtcCompileProgramFn *)dlsym(rtc.lib, "hiprtcCompileProgram");
   rtc.logSize = (HiprtcSizeFn *)dlsym(rtc.lib, "hiprtcGetProgramLogSize");
   rtc.log = (HiprtcTextFn *)dlsym(rtc.lib, "hiprtcGetProgramLog");
   rtc.codeSize = (HiprtcSizeFn *)dlsym(rtc.lib, "hiprtcGetCodeSize");
   rtc.code = (HiprtcTextFn *)dlsym(rtc.lib, "hiprtcGetCode");
   rtc.destroy = (HiprtcDestroyProgramFn *)dlsym(rtc.lib, "hiprtcDestroyProgram");
   rtc.errorString = (HiprtcGetErrorStringFn *)dlsym(rtc.lib, "hiprtcGetErrorString");
   int (*version)(int *, int *) = (int (*)(int *, int *))dlsym(rtc.lib, "hiprtcVersion");
   int major = 0, minor = 0;
   if (version && version(&major, &minor) == 0)
      snprintf(rtc.version, sizeof rtc.version, "hipRTC %d.%d", major, minor);
   if (!rtc.compile || !rtc.logSize || !rtc.log || !rtc.codeSize || !rtc.code || !rtc.destroy) {
      rtc.create = NULL;
      return false;
   }
   return true;
}

bool Hip_available(char *err, size_t errlen) {
   if (loadRtc())
      return true;
   snprintf(err, errlen, "HIP backend: hipRTC not found (libamdhip64.so; on Debian: apt-get install libamdhip64-dev)");
   return false;
}

static BackendStatus rtcBuild(const char *source, const char *options, const char *arch, char **out, size_t *outlen,
                              char **log, char *err, size_t errlen) {
   char *buf = strdup(options ? options : "");
   if (!buf) {
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   const char *opts[128];
   char archopt[300];
   snprintf(archopt, sizeof archopt, "--gpu-architecture=%s", arch);
   int n = 0;
   opts[n++] = archopt;
   opts[n++] = "-O3";
   int more = Gpu_splitOptions(buf, opts + n, (int)(sizeof opts / sizeof opts[0]) - n);
   if (more < 0) {
      free(buf);
      snprintf(err, errlen, "too many compiler options (at most %d)", (int)(sizeof opts / sizeof opts[0]) - n);
      return BACKEND_ERR_OTHER;
   }
   n += more;
   HiprtcProgram prog;
   HiprtcResult r = rtc.create(&prog, source, "kernel.cl", 0, NULL, NULL);
   if (r != 0) {
      free(buf);
      snprintf(err, errlen, "hiprtcCreateProgram failed (%u)", r);
      return BACKEND_ERR_OTHER;
   }
   r = rtc.compile(prog, n, opts);
   free(buf);
   size_t loglen = 0;
   if (rtc.logSize(prog, &loglen) == 0 && (*log = calloc(loglen + 1, 1)) != NULL && loglen && rtc.log(prog, *log) != 0)
      (*log)[0] = '\0';
   if (r != 0) {
      snprintf(err, errlen, "the kernel did not compile (hipRTC: %s); the build log follows",
               rtc.errorString ? rtc.errorString(r) : "error");
      rtc.destroy(&prog);
      return BACKEND_ERR_COMPILE;
   }
   size_t size = 0;
   r = rtc.codeSize(prog, &size);
   if (r == 0 && !(*out = malloc(size ? size : 1))) {
      rtc.destroy(&prog);
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   if (r == 0)
      r = rtc.code(prog, *out);
   rtc.destroy(&prog);
   if (r != 0) {
      free(*out);
      *out = NULL;
      snprintf(err, errlen, "hipRTC gave no code object: %s", rtc.errorString ? rtc.errorString(r) : "error");
      return BACKEND_ERR_OTHER;
   }
   *outlen = size;
   return BACKEND_OK;
}

BackendStatus Hip_compileOnly(const char *source, const char *options, const char *arch, char **out, size_t *outlen,
                              char **log, char *err, size_t errlen) {
   *out = *log = NULL;
   if (!Hip_available(err, errlen))
      return BACKEND_ERR_NO_RUNTIME;
   /* Kept in the disk cache (as the CUDA backend's offline compiles): hipRTC takes seconds
    * for a kernel, and inspect and the offline checks compile the same one again and again. */
   return Gpu_offlineCached("hip", "offline code object", rtcBuild, source, options, arch, rtc.version, out, outlen,
                            log, err, errlen);
}

/* Runs an LLVM tool on the code object; its output, malloc'ed, or NULL. */
static char *llvmTool(const char *tool, const char *args, const char *code, size_t size) {
   char dir[] = "/tmp/gemmtop-hip-XXXXXX";
   if (!mkdtemp(dir))
      return NULL;
   char path[128];
   snprintf(path, sizeof path, "%s/k.co", dir);
   char *out = NULL;
   if (Util_writeFileAtomic(path, code, size)) {
      const char *versions[] = {"", "-19", "-18", "-17", "-16", "-15", "-14", NULL};
      for (int v = 0; versions[v] && !out; v++) {
         char cmd[512];
         snprintf(cmd, sizeof cmd, "%s%s %s %s 2>/dev/null", tool, versions[v], args, path);
         out = Util_capture(cmd);
      }
      unlink(path);
   }
   rmdir(dir);
   return out;
}

static long noteValue(const char *notes, const char *key) {
   const char *p = notes ? strstr(notes, key) : NULL;
   if (!p)
      return -1;
   p += strlen(key);
   while (*p == ':' || *p == ' ')
      p++;
   return strtol(p, NULL, 10);
}

bool Hip_resources(const char *code, size_t size, HipResources *out) {
   memset(out, 0, sizeof *out);
   char *notes = llvmTool("llvm-readelf", "--notes", code, size);
   if (!notes)
      return false;
   out->vgprs = (int)noteValue(notes, ".vgpr_count");
   out->sgprs = (int)noteValue(notes, ".sgpr_count");
   out->vgpr_spills = (int)noteValue(notes, ".vgpr_spill_count");
   out->sgpr_spills = (int)noteValue(notes, ".sgpr_spill_count");
   out->lds_bytes = noteValue(notes, ".group_segment_fixed_size");
   out->scratch_bytes = noteValue(notes, ".private_segment_fixed_size");
   free(notes);
   out->found = out->vgprs >= 0;
   return out->found;
}

char *Hip_disassemble(const char *code, size_t size, const char *arch) {
   char args[64];
   snprintf(args, sizeof args, "-d --mcpu=%s", arch);
   return llvmTool("llvm-objdump", args, code, size);
}

/* ---- the runtime: devices, modules, memory, launches, events ---- */

static struct {
   bool tried, ok;
   char why[512];
   char libname[64];
   void *lib;
   int runtime_version;
   HipInitFn *hipInit;
   HipIntOutFn *hipRuntimeGetVersion;
   HipIntOutFn *hipGetDeviceCount;
   HipSetDeviceFn *hipSetDevice;
   HipDeviceGetNameFn *hipDeviceGetName;
   HipDeviceGetAttributeFn *hipDeviceGetAttribute;
   HipDeviceTotalMemFn *hipDeviceTotalMem;
   HipGetDevicePropertiesFn *hipGetDeviceProperties;
   HipStreamCreateFn *hipStreamCreate;
   HipStreamFn *hipStreamDestroy;
   HipStreamFn *hipStreamSynchronize;
   HipModuleLoadDataFn *hipModuleLoadData;
   HipModuleUnloadFn *hipModuleUnload;
   HipModuleGetFunctionFn *hipModuleGetFunction;
   HipFuncGetAttributeFn *hipFuncGetAttribute;
   HipMallocFn *hipMalloc;
   HipFreeFn *hipFree;
   HipMemcpyHtoDFn *hipMemcpyHtoD;
   HipMemcpyDtoHFn *hipMemcpyDtoH;
   HipMemcpyDtoDAsyncFn *hipMemcpyDtoDAsync;
   HipModuleLaunchKernelFn *hipModuleLaunchKernel;
   HipEventCreateFn *hipEventCreate;
   HipEventRecordFn *hipEventRecord;
   HipEventFn *hipEventSynchronize;
   HipEventElapsedTimeFn *hipEventElapsedTime;
   HipEventFn *hipEventDestroy;
   HipGetErrorStringFn *hipGetErrorString;
   HipDeviceGetNameFn *hipDeviceGetPCIBusId; /* optional (same shape as the name's call): for the observers */
} hip;

static const char *hipError(HipError r) {
   const char *s = hip.hipGetErrorString ? hip.hipGetErrorString(r) : NULL;
   return s ? s : "unknown HIP error";
}

static bool load(char *err, size_t errlen) {
   if (hip.tried) {
      if (!hip.ok)
         snprintf(err, errlen, "%s", hip.why);
      return hip.ok;
   }
   hip.tried = true;
   const char *env = getenv("GEMMTOP_HIP_RUNTIME");
   const char *names[] = {env && *env ? env : "libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
                          "libamdhip64.so.5", NULL};
   hip.lib = Gpu_openLibrary(names, "/opt/rocm*/lib/libamdhip64.so*", hip.libname, sizeof hip.libname);
   if (!hip.lib) {
      snprintf(hip.why, sizeof hip.why,
               "no HIP runtime (libamdhip64.so not found; Debian: apt-get install libamdhip64-5, or ROCm)");
      snprintf(err, errlen, "%s", hip.why);
      return false;
   }
#define HIP(name) hip.name = (__typeof__(hip.name))dlsym(hip.lib, #name)
   HIP(hipInit);
   HIP(hipRuntimeGetVersion);
   HIP(hipGetDeviceCount);
   HIP(hipSetDevice);
   HIP(hipDeviceGetName);
   HIP(hipDeviceGetAttribute);
   HIP(hipDeviceTotalMem);
   HIP(hipStreamCreate);
   HIP(hipStreamDestroy);
   HIP(hipStreamSynchronize);
   HIP(hipModuleLoadData);
   HIP(hipModuleUnload);
   HIP(hipModuleGetFunction);
   HIP(hipFuncGetAttribute);
   HIP(hipMalloc);
   HIP(hipFree);
   HIP(hipMemcpyHtoD);
   HIP(hipMemcpyDtoH);
   HIP(hipMemcpyDtoDAsync);
   HIP(hipModuleLaunchKernel);
   HIP(hipEventCreate);
   HIP(hipEventRecord);
   HIP(hipEventSynchronize);
   HIP(hipEventElapsedTime);
   HIP(hipEventDestroy);
   HIP(hipGetErrorString);
   HIP(hipDeviceGetPCIBusId);
#undef HIP
   /* HIP 6 renamed the properties call with its new struct; either suits the search by content. */
   hip.hipGetDeviceProperties = (HipGetDevicePropertiesFn *)dlsym(hip.lib, "hipGetDevicePropertiesR0600");
   if (!hip.hipGetDeviceProperties)
      hip.hipGetDeviceProperties = (HipGetDevicePropertiesFn *)dlsym(hip.lib, "hipGetDeviceProperties");
   const void *needed[] = {hip.hipInit, hip.hipRuntimeGetVersion, hip.hipGetDeviceCount, hip.hipSetDevice,
                           hip.hipDeviceGetName, hip.hipDeviceGetAttribute, hip.hipDeviceTotalMem,
                           hip.hipGetDeviceProperties, hip.hipStreamCreate, hip.hipStreamDestroy,
                           hip.hipStreamSynchronize, hip.hipModuleLoadData, hip.hipModuleUnload,
                           hip.hipModuleGetFunction, hip.hipMalloc, hip.hipFree, hip.hipMemcpyHtoD, hip.hipMemcpyDtoH,
                           hip.hipMemcpyDtoDAsync, hip.hipModuleLaunchKernel, hip.hipEventCreate, hip.hipEventRecord,
                           hip.hipEventSynchronize, hip.hipEventElapsedTime, hip.hipEventDestroy,
                           hip.hipGetErrorString};
   for (size_t i = 0; i < sizeof needed / sizeof needed[0]; i++)
      if (!needed[i]) {
         snprintf(hip.why, sizeof hip.why, "%s lacks a function gemmtop needs (too old?)", hip.libname);
         snprintf(err, errlen, "%s", hip.why);
         return false;
      }
   if (!loadRtc()) {
      snprintf(hip.why, sizeof hip.why,
               "hipRTC not found beside %s (libhiprtc.so); set GEMMTOP_HIPRTC to its path", hip.libname);
      snprintf(err, errlen, "%s", hip.why);
      return false;
   }
   if (hip.hipRuntimeGetVersion(&hip.runtime_version) != HIP_SUCCESS_)
      hip.runtime_version = 0;
   /* hipInit fails when there is no GPU (hipErrorInvalidDevice); the device count says it
    * plainly, so listDevices reports that instead. */
   hip.hipInit(0);
   hip.ok = true;
   return true;
}

/* "HIP 5.2.21153": HIP_VERSION is major * 10^7 + minor * 10^5 + patch. */
static void runtimeName(char *out, size_t len) {
   int v = hip.runtime_version;
   snprintf(out, len, "HIP %d.%d.%d", v / 10000000, v / 100000 % 100, v % 100000);
}

/* The arch name in a hipDeviceProp_t of any layout: a NUL-terminated string of target
 * characters that starts with "gfx" and a digit ("gfx90a:sramecc+:xnack-"); one that starts
 * a string (after a NUL) first, since gcnArchName follows an int whose last byte is not
 * always 0. target gets all of it, base the part before the first ':'. */
bool Hip_archFromProps(const void *props, size_t size, char *target, size_t targetlen, char *base, size_t baselen) {
   const unsigned char *p = props;
   for (int pass = 0; pass < 2; pass++)
      for (size_t i = 0; i + 4 < size; i++) {
         if ((pass == 0 && i > 0 && p[i - 1] != '\0') || memcmp(p + i, "gfx", 3) != 0 || p[i + 3] < '0' ||
             p[i + 3] > '9')
            continue;
         size_t n = 3;
         while (i + n < size && p[i + n] && n < 255 &&
                ((p[i + n] >= '0' && p[i + n] <= '9') || (p[i + n] >= 'a' && p[i + n] <= 'z') || p[i + n] == ':' ||
                 p[i + n] == '+' || p[i + n] == '-' || p[i + n] == '_'))
            n++;
         if (i + n >= size || p[i + n] != '\0')
            continue;
         snprintf(target, targetlen, "%.*s", (int)n, (const char *)p + i);
         size_t b = 0;
         while (b < n && p[i + b] != ':')
            b++;
         snprintf(base, baselen, "%.*s", (int)b, (const char *)p + i);
         return true;
      }
   return false;
}

struct Context_ {
   int dev;
   HipStream stream;
   DeviceInfo info;
   char target[256]; /* the full target id hipRTC compiles for ("gfx90a:sramecc+:xnack-") */
};
struct Program_ {
   HipModule module;
   Context *ctx;
   char *image; /* the code object, kept while the module lives */
   size_t size;
};
struct Kernel_ {
   HipFunction fn;
};
struct Buffer_ {
   HipDeviceptr ptr;  /* what kernels and copies see */
   HipDeviceptr base; /* allocGuarded's allocation, ptr guard bytes into it; else NULL */
   size_t bytes, guard;
};

/* ---- the runtime as gpu_common.c calls it ---- */

static const char *hipErrorString(int r) { return hip.hipGetErrorString ? hip.hipGetErrorString((HipError)r) : NULL; }
static int hipDeviceAttribute(int *v, int which, int device) {
   return (int)hip.hipDeviceGetAttribute(v, (HipAttribute)which, device);
}
static int hipFuncAttribute(int *v, int which, void *fn) {
   return hip.hipFuncGetAttribute ? (int)hip.hipFuncGetAttribute(v, (HipFuncAttribute)which, fn) : -1;
}
static int hipEventNew(GpuEvent *ev) {
   HipEvent e = NULL;
   HipError r = hip.hipEventCreate(&e);
   *ev = e;
   return (int)r;
}
static int hipEventRecordOn(GpuEvent ev, GpuStream stream) { return (int)hip.hipEventRecord(ev, stream); }
static int hipEventWait(GpuEvent ev) { return (int)hip.hipEventSynchronize(ev); }
static int hipEventElapsed(float *ms, GpuEvent start, GpuEvent end) { return (int)hip.hipEventElapsedTime(ms, start, end); }
static int hipEventFree(GpuEvent ev) { return (int)hip.hipEventDestroy(ev); }
static int hipLaunch(void *fn, const unsigned grid[3], const unsigned block[3], GpuStream stream, void **params) {
   return (int)hip.hipModuleLaunchKernel(fn, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0, stream, params,
                                         NULL);
}
static void hipBufferArg(const Buffer *b, GpuArg *slot) { slot->vptr = b->ptr; }

static const GpuRuntime hipRt = {
    .name = "HIP",
    .cache = "hip",
    .out_of_memory = HIP_ERROR_OUT_OF_MEMORY_,
    .attr =
        {
            [GPU_ATTR_MAX_THREADS_PER_BLOCK] = HIP_ATTR_MAX_THREADS_PER_BLOCK,
            [GPU_ATTR_MAX_BLOCK_DIM_X] = HIP_ATTR_MAX_BLOCK_DIM_X,
            [GPU_ATTR_MAX_BLOCK_DIM_Y] = HIP_ATTR_MAX_BLOCK_DIM_Y,
            [GPU_ATTR_MAX_BLOCK_DIM_Z] = HIP_ATTR_MAX_BLOCK_DIM_Z,
            [GPU_ATTR_MAX_SHARED_PER_BLOCK] = HIP_ATTR_MAX_SHARED_PER_BLOCK,
            [GPU_ATTR_WARP_SIZE] = HIP_ATTR_WARP_SIZE,
            [GPU_ATTR_CLOCK_RATE] = HIP_ATTR_CLOCK_RATE,
            [GPU_ATTR_MULTIPROCESSOR_COUNT] = HIP_ATTR_MULTIPROCESSOR_COUNT,
        },
    .errorString = hipErrorString,
    .deviceAttribute = hipDeviceAttribute,
    .funcAttribute = hipFuncAttribute,
    .eventCreate = hipEventNew,
    .eventRecord = hipEventRecordOn,
    .eventSynchronize = hipEventWait,
    .eventElapsed = hipEventElapsed,
    .eventDestroy = hipEventFree,
    .launchKernel = hipLaunch,
    .bufferArg = hipBufferArg,
};

static BackendStatus hipFail(HipError r, const char *what, char *err, size_t errlen) {
   return Gpu_fail(&hipRt, (int)r, what, err, errlen);
}

static BackendStatus describe(int d, DeviceInfo *info, char *target, size_t targetlen, char *err, size_t errlen) {
   memset(info, 0, sizeof *info);
   info->index = d;
   target[0] = '\0';
   size_t mem = 0;
   HipError r = hip.hipDeviceGetName(info->name, sizeof info->name, d);
   if (r == HIP_SUCCESS_)
      r = hip.hipDeviceTotalMem(&mem, d);
   char *props = calloc(1, HIP_PROPS_BYTES);
   if (!props) {
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   /* Without the properties the device is still listed, its target unknown: opening it
    * then says why it cannot be compiled for. */
   if (r == HIP_SUCCESS_ && hip.hipGetDeviceProperties((struct hipDeviceProp_t *)props, d) == HIP_SUCCESS_)
      Hip_archFromProps(props, HIP_PROPS_BYTES, target, targetlen, info->arch, sizeof info->arch);
   free(props);
   if (r != HIP_SUCCESS_)
      return hipFail(r, "describing a HIP device", err, errlen);
   snprintf(info->vendor, sizeof info->vendor, "Advanced Micro Devices, Inc.");
   snprintf(info->platform, sizeof info->platform, "AMD HIP (module API, hipRTC)");
   runtimeName(info->driver, sizeof info->driver);
   snprintf(info->version, sizeof info->version, "%s, %s", target[0] ? target : "gfx target unknown", info->driver);
   info->global_mem = mem;
   info->max_alloc = mem;
   Gpu_describeLimits(&hipRt, d, info);
   if (hip.hipDeviceGetPCIBusId &&
       hip.hipDeviceGetPCIBusId(info->pci_bus_id, (int)sizeof info->pci_bus_id, d) != HIP_SUCCESS_)
      info->pci_bus_id[0] = '\0';
   Device_classify(info);
   return BACKEND_OK;
}

static int findDevices(DeviceInfo **out, char *err, size_t errlen) {
   *out = NULL;
   if (!load(err, errlen))
      return 0;
   int n = 0;
   HipError r = hip.hipGetDeviceCount(&n);
   if (r != HIP_SUCCESS_ || n <= 0) {
      char rt[64];
      runtimeName(rt, sizeof rt);
      snprintf(err, errlen, "the HIP runtime (%s, %s) found no AMD GPU (hipGetDeviceCount: %s)", hip.libname, rt,
               r != HIP_SUCCESS_ ? hipError(r) : "0 devices");
      return 0;
   }
   DeviceInfo *infos = calloc((size_t)n, sizeof *infos);
   if (!infos) {
      snprintf(err, errlen, "out of host memory");
      return 0;
   }
   char target[256];
   for (int i = 0; i < n; i++)
      if (describe(i, &infos[i], target, sizeof target, err, errlen) != BACKEND_OK) {
         free(infos);
         return 0;
      }
   *out = infos;
   return n;
}

static Context *openDevice(int index, DeviceInfo *info, char *err, size_t errlen) {
   DeviceInfo *all = NULL;
   int n = findDevices(&all, err, errlen);
   free(all);
   if (n <= 0)
      return NULL;
   if (index < 0 || index >= n) {
      snprintf(err, errlen, "no HIP device %d: there are %d", index, n);
      return NULL;
   }
   Context *c = calloc(1, sizeof *c);
   if (!c) {
      snprintf(err, errlen, "out of host memory");
      return NULL;
   }
   c->dev = index;
   HipError r = hip.hipSetDevice(index);
   if (r == HIP_SUCCESS_)
      r = hip.hipStreamCreate(&c->stream);
   if (r != HIP_SUCCESS_) {
      hipFail(r, "opening the HIP device", err, errlen);
      free(c);
      return NULL;
   }
   if (describe(index, &c->info, c->target, sizeof c->target, err, errlen) != BACKEND_OK) {
      hip.hipStreamDestroy(c->stream);
      free(c);
      return NULL;
   }
   if (!c->target[0]) {
      snprintf(err, errlen, "HIP device %d (%s): its gfx target is not in hipGetDeviceProperties, so hipRTC cannot "
               "compile for it", index, c->info.name);
      hip.hipStreamDestroy(c->stream);
      free(c);
      return NULL;
   }
   if (info)
      *info = c->info;
   return c;
}

static void closeDevice(Context *c) {
   if (!c)
      return;
   hip.hipSetDevice(c->dev);
   hip.hipStreamSynchronize(c->stream);
   hip.hipStreamDestroy(c->stream);
   free(c);
}

static BackendStatus hiprtcCode(const char *source, const char *options, const char *arch, char **image, size_t *size,
                                char **log, char *err, size_t errlen) {
   return Hip_compileOnly(source, options, arch, image, size, log, err, errlen);
}

static BackendStatus build(Context *c, const char *source, const char *options, Program **out, BuildInfo *info,
                           char *err, size_t errlen) {
   double t0 = Util_nowMs();
   memset(info, 0, sizeof *info);
   info->registers = -1;
   info->private_mem = info->local_mem = -1;
   *out = NULL;
   char *image = NULL;
   size_t size = 0;
   BackendStatus st = Gpu_compileCached(&hipRt, hiprtcCode, source, options, c->target, &hip.runtime_version,
                                        sizeof hip.runtime_version, &image, &size, info, err, errlen);
   if (st != BACKEND_OK)
      return st;
   HipModule mod;
   HipError r = hip.hipSetDevice(c->dev);
   if (r == HIP_SUCCESS_)
      r = hip.hipModuleLoadData(&mod, image);
   if (r != HIP_SUCCESS_) {
      free(image);
      return hipFail(r, "loading the compiled module", err, errlen);
   }
   Program *p = calloc(1, sizeof *p);
   if (!p) {
      hip.hipModuleUnload(mod);
      free(image);
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   p->module = mod;
   p->ctx = c;
   p->image = image;
   p->size = size;
   info->compile_ms = Util_nowMs() - t0;
   *out = p;
   return BACKEND_OK;
}

static Kernel *kernelOf(Program *p, const char *entry, BuildInfo *info, char *err, size_t errlen) {
   HipFunction fn;
   HipError r = hip.hipModuleGetFunction(&fn, p->module, entry);
   if (r != HIP_SUCCESS_) {
      snprintf(err, errlen, "kernel entry '%s' not found in the module (%s)", entry, hipError(r));
      return NULL;
   }
   if (info) {
      Gpu_kernelInfo(&hipRt, fn, info);
      /* Where the runtime does not say, the code object's notes do (with LLVM installed). */
      HipResources hr;
      if ((info->registers < 0 || info->private_mem < 0 || info->local_mem < 0) &&
          Hip_resources(p->image, p->size, &hr)) {
         if (info->registers < 0)
            info->registers = hr.vgprs;
         if (info->private_mem < 0)
            info->private_mem = hr.scratch_bytes;
         if (info->local_mem < 0)
            info->local_mem = hr.lds_bytes;
      }
   }
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
      hip.hipModuleUnload(p->module);
      free(p->image);
      free(p);
   }
}

/* The ISA, when llvm-objdump is installed. */
static char *programCode(Program *p, char *kind, size_t kindlen) {
   char *code = Hip_disassemble(p->image, p->size, p->ctx->info.arch);
   if (code)
      snprintf(kind, kindlen, "ISA");
   return code;
}

static BackendStatus allocBuffer(Context *c, size_t bytes, Buffer **out, char *err, size_t errlen) {
   *out = NULL;
   void *ptr = NULL;
   HipError r = hip.hipSetDevice(c->dev);
   if (r == HIP_SUCCESS_)
      r = hip.hipMalloc(&ptr, bytes ? bytes : 1);
   if (r != HIP_SUCCESS_) {
      BackendStatus st = hipFail(r, "hipMalloc", err, errlen);
      if (st == BACKEND_ERR_OUT_OF_MEMORY)
         snprintf(err, errlen, "out of device memory allocating %.1f MiB", bytes / 1048576.0);
      return st;
   }
   Buffer *b = calloc(1, sizeof *b);
   if (!b) {
      hip.hipFree(ptr);
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
      hip.hipFree(b->base ? b->base : b->ptr);
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
   b->ptr = (char *)b->base + guard;
   b->bytes = bytes;
   b->guard = guard;
   return BACKEND_OK;
}

static BackendStatus guards(Context *c, Buffer *b, void *before, void *after, bool write, char *err, size_t errlen) {
   if (!b->base) {
      snprintf(err, errlen, "a buffer without guard zones");
      return BACKEND_ERR_OTHER;
   }
   HipDeviceptr at[2] = {b->base, (char *)b->ptr + (b->bytes ? b->bytes : 1)};
   void *host[2] = {before, after};
   HipError r = hip.hipStreamSynchronize(c->stream);
   for (int i = 0; i < 2 && r == HIP_SUCCESS_; i++)
      r = write ? hip.hipMemcpyHtoD(at[i], host[i], b->guard) : hip.hipMemcpyDtoH(host[i], at[i], b->guard);
   return r == HIP_SUCCESS_ ? BACKEND_OK : hipFail(r, write ? "writing guard zones" : "reading guard zones", err, errlen);
}

/* The synchronous copies wait for the stream first: a launch on it may still use b. */
static BackendStatus writeBuffer(Context *c, Buffer *b, const void *host, size_t bytes, char *err, size_t errlen) {
   HipError r = hip.hipStreamSynchronize(c->stream);
   if (r == HIP_SUCCESS_)
      r = hip.hipMemcpyHtoD(b->ptr, (void *)(uintptr_t)host, bytes); /* HIP 5 declares src non-const */
   return r == HIP_SUCCESS_ ? BACKEND_OK : hipFail(r, "writing to the device", err, errlen);
}

static BackendStatus readBuffer(Context *c, Buffer *b, void *host, size_t bytes, char *err, size_t errlen) {
   HipError r = hip.hipStreamSynchronize(c->stream);
   if (r == HIP_SUCCESS_)
      r = hip.hipMemcpyDtoH(host, b->ptr, bytes);
   return r == HIP_SUCCESS_ ? BACKEND_OK : hipFail(r, "reading from the device", err, errlen);
}

static BackendStatus copyBuffer(Context *c, Buffer *dst, Buffer *src, size_t bytes, char *err, size_t errlen) {
   HipError r = hip.hipMemcpyDtoDAsync(dst->ptr, src->ptr, bytes, c->stream);
   return r == HIP_SUCCESS_ ? BACKEND_OK : hipFail(r, "copying on the device", err, errlen);
}

static BackendStatus launch(Context *c, Kernel *k, const KernelArg *args, int nargs, bool real_double, int dims,
                            const size_t *global, const size_t *local, Event **ev, char *err, size_t errlen) {
   return Gpu_launch(&hipRt, c->stream, NULL, k->fn, args, nargs, real_double, dims, global, local, ev, err, errlen);
}

static BackendStatus finish(Context *c, char *err, size_t errlen) {
   HipError r = hip.hipStreamSynchronize(c->stream);
   return r == HIP_SUCCESS_ ? BACKEND_OK : hipFail(r, "waiting for the device", err, errlen);
}

/* rocBLAS, loaded at run time: the AMD reference (hipBLAS, where installed, calls it);
 * Gpu_columnMajor: no data moves. */
static struct {
   bool tried;
   void *lib;
   char libname[64];
   char version[64];
   RocblasHandle handle;
   RocblasCreateHandleFn *create;
   RocblasSetStreamFn *setStream;
   RocblasVersionStringFn *versionString;
   RocblasStatusToStringFn *statusString;
   RocblasSgemmFn *sgemm;
   RocblasDgemmFn *dgemm;
} rocblas;

static void loadRocblas(Context *c) {
   rocblas.tried = true;
   const char *names[] = {"librocblas.so", "librocblas.so.5", "librocblas.so.4", "librocblas.so.3", "librocblas.so.0",
                          NULL};
   rocblas.lib = Gpu_openLibrary(names, "/opt/rocm*/lib/librocblas.so*", rocblas.libname, sizeof rocblas.libname);
   if (!rocblas.lib)
      return;
   rocblas.create = (RocblasCreateHandleFn *)dlsym(rocblas.lib, "rocblas_create_handle");
   rocblas.setStream = (RocblasSetStreamFn *)dlsym(rocblas.lib, "rocblas_set_stream");
   rocblas.versionString = (RocblasVersionStringFn *)dlsym(rocblas.lib, "rocblas_get_version_string");
   rocblas.statusString = (RocblasStatusToStringFn *)dlsym(rocblas.lib, "rocblas_status_to_string");
   rocblas.sgemm = (RocblasSgemmFn *)dlsym(rocblas.lib, "rocblas_sgemm");
   rocblas.dgemm = (RocblasDgemmFn *)dlsym(rocblas.lib, "rocblas_dgemm");
   if (hip.hipSetDevice(c->dev) != HIP_SUCCESS_ || !rocblas.create || rocblas.create(&rocblas.handle) != 0)
      rocblas.handle = NULL;
   if (rocblas.versionString && rocblas.versionString(rocblas.version, sizeof rocblas.version) != 0)
      rocblas.version[0] = '\0';
}

/* rocBLAS's call for each element type: 's' sgemm, 'd' dgemm, 0 none wired in (rocblas_gemm_ex). */
static const char kRocblasTypes[PRECISION_COUNT] = {[PRECISION_FLOAT] = 's', [PRECISION_DOUBLE] = 'd'};

static BackendStatus vendorGemm(Context *c, const BackendGemm *p, Buffer *A, Buffer *B, Buffer *C,
                                BackendVendorCall *out, char *err, size_t errlen) {
   out->ms = -1;
   out->note[0] = '\0';
   if (!rocblas.tried)
      loadRocblas(c);
   snprintf(out->name, sizeof out->name, "rocBLAS%s%s", rocblas.version[0] ? " " : "", rocblas.version);
   const char call = (unsigned)p->precision < PRECISION_COUNT ? kRocblasTypes[p->precision] : 0;
   if (!call) {
      snprintf(err, errlen, "no rocBLAS reference for %s in gemmtop yet (rocblas_gemm_ex is not wired in); the CUDA "
                            "backend compares with %s", Types_of(p->precision)->name,
               Types_of(p->precision)->scaled ? "cuBLASLt's FP8 GEMM" : "cuBLAS GemmEx");
      return BACKEND_ERR_OTHER;
   }
   if (p->c_bf16) {
      snprintf(err, errlen, "rocBLAS writes C in the type's own precision here; a bfloat16 C is offered for the FP8 "
                            "types through CUDA (cuBLASLt) only");
      return BACKEND_ERR_UNSUPPORTED;
   }
   if (!rocblas.handle || !rocblas.sgemm || !rocblas.dgemm || !rocblas.setStream) {
      snprintf(err, errlen, "rocBLAS is not available (%s)",
               !rocblas.lib ? "librocblas.so not found; it comes with ROCm, Debian has no package of it"
                            : "rocblas_create_handle failed or a function is missing");
      return BACKEND_ERR_NO_RUNTIME;
   }
   HipError r = hip.hipSetDevice(c->dev);
   if (r != HIP_SUCCESS_)
      return hipFail(r, "hipSetDevice", err, errlen);
   RocblasStatus st = rocblas.setStream(rocblas.handle, c->stream);
   if (st != 0) {
      snprintf(err, errlen, "rocblas_set_stream failed (%u)", st);
      return BACKEND_ERR_OTHER;
   }
   GpuGemmCall g = Gpu_columnMajor(p);
   RocblasOperation opFirst = g.trans_first ? ROCBLAS_OP_TRANSPOSE : ROCBLAS_OP_NONE;
   RocblasOperation opSecond = g.trans_second ? ROCBLAS_OP_TRANSPOSE : ROCBLAS_OP_NONE;
   Event *e = Gpu_eventStart(&hipRt, c->stream, NULL, err, errlen);
   if (!e)
      return BACKEND_ERR_OTHER;
   if (call == 'd') {
      double alpha = p->alpha, beta = p->beta;
      st = rocblas.dgemm(rocblas.handle, opFirst, opSecond, g.m, g.n, g.k, &alpha, (const double *)B->ptr, g.ld_first,
                         (const double *)A->ptr, g.ld_second, &beta, (double *)C->ptr, g.ld_c);
   } else {
      float alpha = (float)p->alpha, beta = (float)p->beta;
      st = rocblas.sgemm(rocblas.handle, opFirst, opSecond, g.m, g.n, g.k, &alpha, (const float *)B->ptr, g.ld_first,
                         (const float *)A->ptr, g.ld_second, &beta, (float *)C->ptr, g.ld_c);
   }
   BackendStatus done = Gpu_eventStop(e, c->stream, err, errlen);
   if (done == BACKEND_OK)
      done = Gpu_eventWait(e, &out->ms, "waiting for rocBLAS", err, errlen);
   Gpu_releaseEvent(e);
   if (st != 0) {
      snprintf(err, errlen, "rocBLAS %cgemm failed: %s (%u)", call,
               rocblas.statusString ? rocblas.statusString(st) : "status", st);
      return st == ROCBLAS_STATUS_MEMORY_ERROR ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
   }
   return done;
}

bool Hip_rtcPresent(void) { return loadRtc(); }

static const Backend hipBackend = {
    .name = "hip",
    .title = "HIP",
    .caps = BACKEND_CAP_CUDA_PRELUDE | BACKEND_CAP_REGISTERS,
    .vendor_library = "rocBLAS",
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
    .launch = launch,
    .finish = finish,
    .eventMs = Gpu_eventMs,
    .releaseEvent = Gpu_releaseEvent,
    .programCode = programCode,
    .vendorGemm = vendorGemm,
    .offline = &Hip_offline,
};

const Backend *Backend_hip(void) { return &hipBackend; }
