/* The OpenCL backend, through the ICD loader. Compiled programs are also kept on disk
 * (program binaries keyed by source, options, device and driver), so a configuration
 * seen before skips the compiler even in a new process. */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend/backend.h"
#include "base/diskcache.h"
#include "backend/poclbin.h"
#include "base/util.h"

struct Context_ {
   cl_context context;
   cl_command_queue queue;
   cl_device_id device;
   DeviceInfo info;
   bool nvidia;
   /* PoCL with its own kernel cache on (its default): it keeps each program's code, so
    * gemmtop's disk cache holds a record of the build, not the binary (see build()). */
   bool pocl_keeps_code;
};

struct Program_ {
   cl_program program;
   Context *ctx;
};

struct Kernel_ {
   cl_kernel kernel;
};

struct Buffer_ {
   cl_mem mem;   /* what kernels and copies see */
   cl_mem whole; /* allocGuarded's: mem is its sub-buffer between the guards; else NULL */
   size_t bytes, guard;
};

struct Event_ {
   cl_event event;
};

static const char *clErrorName(cl_int e) {
   switch (e) {
   case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
   case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
   case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
   case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
   case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
   case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
   case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
   case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
   case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
   case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
   case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
   case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
   case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
   case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
   case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
   case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
   case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
   case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
   case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
   case -1001: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform is installed)";
   case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
   default: return "OpenCL error";
   }
}

static BackendStatus statusOf(cl_int e) {
   if (e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES || e == CL_OUT_OF_HOST_MEMORY ||
       e == CL_INVALID_BUFFER_SIZE)
      return BACKEND_ERR_OUT_OF_MEMORY;
   return BACKEND_ERR_OTHER;
}

static BackendStatus fail(cl_int e, const char *what, char *err, size_t errlen) {
   snprintf(err, errlen, "%s failed: %s (%d)", what, clErrorName(e), (int)e);
   return statusOf(e);
}

typedef struct {
   cl_platform_id platform;
   cl_device_id device;
} DeviceRef;

/* PoCL lists no device when it cannot create its cache folder (POCL_CACHE_DIR, else
 * $XDG_CACHE_HOME/pocl, else ~/.cache/pocl), even with POCL_KERNEL_CACHE=0: name it. */
static void explainNoDevice(const cl_platform_id *plats, cl_uint nplat, char *err, size_t errlen) {
   snprintf(err, errlen, "OpenCL platforms were found but they list no device");
   bool pocl = false;
   for (cl_uint p = 0; p < nplat; p++) {
      char name[256] = "";
      clGetPlatformInfo(plats[p], CL_PLATFORM_NAME, sizeof name, name, NULL);
      pocl = pocl || strstr(name, "Portable Computing Language") != NULL;
   }
   const char *env = getenv("POCL_CACHE_DIR"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
   char dir[2048];
   if (env && *env)
      snprintf(dir, sizeof dir, "%s", env);
   else if (xdg && *xdg)
      snprintf(dir, sizeof dir, "%s/pocl", xdg);
   else if (home && *home)
      snprintf(dir, sizeof dir, "%s/.cache/pocl", home);
   else
      return;
   if (!pocl || (Util_mkdirs(dir) && access(dir, W_OK | X_OK) == 0))
      return;
   snprintf(err, errlen,
            "OpenCL platforms were found but they list no device: PoCL needs its cache folder %s, which cannot be "
            "created or written (%s); make it writable, or point %s at a folder that is",
            dir, strerror(errno), env && *env ? "POCL_CACHE_DIR" : "XDG_CACHE_HOME (or POCL_CACHE_DIR)");
}

/* Every device of every platform, in a stable order. */
static int enumerate(DeviceRef **out, char *err, size_t errlen) {
   cl_uint nplat = 0;
   cl_int e = clGetPlatformIDs(0, NULL, &nplat);
   if (e != CL_SUCCESS || nplat == 0) {
      snprintf(err, errlen,
               "no OpenCL platform found (%s). Install a driver: on Debian 'apt-get install pocl-opencl-icd' for the "
               "CPU, or your GPU vendor's OpenCL ICD",
               e == CL_SUCCESS ? "the ICD loader lists none" : clErrorName(e));
      return 0;
   }
   cl_platform_id *plats = calloc(nplat, sizeof *plats);
   clGetPlatformIDs(nplat, plats, NULL);
   int count = 0, cap = 0;
   DeviceRef *refs = NULL;
   for (cl_uint p = 0; p < nplat; p++) {
      cl_uint ndev = 0;
      if (clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 0, NULL, &ndev) != CL_SUCCESS || ndev == 0)
         continue;
      cl_device_id *devs = calloc(ndev, sizeof *devs);
      clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, ndev, devs, NULL);
      for (cl_uint d = 0; d < ndev; d++) {
         if (count == cap) {
            cap = cap ? cap * 2 : 8;
            DeviceRef *n = realloc(refs, sizeof *n * (size_t)cap);
            if (!n)
               break;
            refs = n;
         }
         refs[count].platform = plats[p];
         refs[count].device = devs[d];
         count++;
      }
      free(devs);
   }
   if (count == 0)
      explainNoDevice(plats, nplat, err, errlen);
   free(plats);
   *out = refs;
   return count;
}

static void deviceString(cl_device_id d, cl_device_info what, char *out, size_t len) {
   out[0] = '\0';
   clGetDeviceInfo(d, what, len, out, NULL);
   out[len - 1] = '\0';
   char *t = Util_trim(out);
   memmove(out, t, strlen(t) + 1);
}

/* The PCI address as NVML and sysfs name it ("0000:65:00.0"), from the vendors' device
 * queries (cl_nv_device_attribute_query, cl_amd_device_attribute_query); "" elsewhere. */
static void pciBusId(cl_device_id d, const char *ext, char *out, size_t len) {
   out[0] = '\0';
   if (strstr(ext, "cl_nv_device_attribute_query")) {
      cl_uint bus = 0, slot = 0, domain = 0;
      if (clGetDeviceInfo(d, 0x4008 /* CL_DEVICE_PCI_BUS_ID_NV */, sizeof bus, &bus, NULL) != CL_SUCCESS ||
          clGetDeviceInfo(d, 0x4009 /* CL_DEVICE_PCI_SLOT_ID_NV */, sizeof slot, &slot, NULL) != CL_SUCCESS)
         return;
      if (clGetDeviceInfo(d, 0x400A /* CL_DEVICE_PCI_DOMAIN_ID_NV */, sizeof domain, &domain, NULL) != CL_SUCCESS)
         domain = 0; /* older drivers: the first domain */
      /* the slot id holds the device number above the function's three bits */
      snprintf(out, len, "%04x:%02x:%02x.%x", domain, bus & 0xff, (slot >> 3) & 0x1f, slot & 7);
   } else if (strstr(ext, "cl_amd_device_attribute_query")) {
      struct { cl_uint type; cl_char unused[17], bus, device, function; } topo; /* cl_device_topology_amd */
      if (clGetDeviceInfo(d, 0x4037 /* CL_DEVICE_TOPOLOGY_AMD */, sizeof topo, &topo, NULL) == CL_SUCCESS &&
          topo.type == 1 /* PCIe */)
         snprintf(out, len, "0000:%02x:%02x.%x", (unsigned char)topo.bus, (unsigned char)topo.device,
                  (unsigned char)topo.function);
   }
}

static void describe(const DeviceRef *ref, int index, DeviceInfo *info) {
   memset(info, 0, sizeof *info);
   info->index = index;
   cl_device_id d = ref->device;
   deviceString(d, CL_DEVICE_NAME, info->name, sizeof info->name);
   deviceString(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
   deviceString(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
   deviceString(d, CL_DEVICE_VERSION, info->version, sizeof info->version);
   clGetPlatformInfo(ref->platform, CL_PLATFORM_NAME, sizeof info->platform, info->platform, NULL);
   info->platform[sizeof info->platform - 1] = '\0';
   cl_device_type type = 0;
   clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
   info->type = (type & CL_DEVICE_TYPE_GPU)           ? DEVICE_GPU
                : (type & CL_DEVICE_TYPE_CPU)         ? DEVICE_CPU
                : (type & CL_DEVICE_TYPE_ACCELERATOR) ? DEVICE_ACCELERATOR
                                                      : DEVICE_OTHER;
   cl_uint u = 0;
   clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof u, &u, NULL);
   info->compute_units = u;
   u = 0;
   clGetDeviceInfo(d, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof u, &u, NULL);
   info->clock_mhz = u;
   cl_ulong ul = 0;
   clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof ul, &ul, NULL);
   info->global_mem = ul;
   ul = 0;
   clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof ul, &ul, NULL);
   info->max_alloc = ul;
   ul = 0;
   clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof ul, &ul, NULL);
   /* PoCL takes a CPU's caches from the OS (sysfs through hwloc), which some machines and
    * containers do not have: it then reports 0. The processor itself still tells its
    * per-core L2 (the C library asks CPUID), the level a CPU's L2 ceiling is measured in. */
   long host_l2 = info->type == DEVICE_CPU && ul == 0 ? sysconf(_SC_LEVEL2_CACHE_SIZE) : 0;
   info->l2_bytes = host_l2 > 0 ? (unsigned long long)host_l2 : ul;
   size_t wg = 0;
   clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
   info->limits.max_wg = wg;
   size_t wi[3] = {0, 0, 0};
   clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof wi, wi, NULL);
   memcpy(info->limits.max_wi, wi, sizeof wi);
   ul = 0;
   clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof ul, &ul, NULL);
   info->limits.local_mem = ul;
   cl_device_fp_config fp = 0;
   clGetDeviceInfo(d, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL);
   char ext[8192];
   deviceString(d, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
   info->limits.fp64 = fp != 0 || strstr(ext, "cl_khr_fp64") != NULL;
   /* SIMD width: NVIDIA reports its warp size; AMD wavefronts are 64 (gfx9) or 32 (RDNA).
    * Elsewhere gemmtop assumes 32 and says so where it matters. */
   info->limits.warp = 32;
   cl_uint ccMajor = 0, ccMinor = 0;
   if (strstr(ext, "cl_nv_device_attribute_query") &&
       clGetDeviceInfo(d, 0x4000 /* CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV */, sizeof ccMajor, &ccMajor, NULL) == CL_SUCCESS &&
       clGetDeviceInfo(d, 0x4001 /* CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV */, sizeof ccMinor, &ccMinor, NULL) == CL_SUCCESS)
      snprintf(info->arch, sizeof info->arch, "sm_%u%u", ccMajor, ccMinor);
   cl_uint warp = 0;
   if (strstr(ext, "cl_nv_device_attribute_query") &&
       clGetDeviceInfo(d, 0x4003 /* CL_DEVICE_WARP_SIZE_NV */, sizeof warp, &warp, NULL) == CL_SUCCESS && warp)
      info->limits.warp = (int)warp;
   else if (strstr(ext, "cl_amd_device_attribute_query") &&
            clGetDeviceInfo(d, 0x4043 /* CL_DEVICE_WAVEFRONT_WIDTH_AMD */, sizeof warp, &warp, NULL) == CL_SUCCESS &&
            warp)
      info->limits.warp = (int)warp;
   /* NVIDIA's own platform ("NVIDIA CUDA") takes inline PTX in OpenCL C; PoCL's is
    * "Portable Computing Language" even on its CUDA device. */
   info->inline_ptx = strstr(info->platform, "NVIDIA") != NULL;
   pciBusId(d, ext, info->pci_bus_id, sizeof info->pci_bus_id);
   Device_classify(info);
}

static int findDevices(DeviceInfo **out, char *err, size_t errlen) {
   DeviceRef *refs = NULL;
   int n = enumerate(&refs, err, errlen);
   *out = NULL;
   if (n <= 0) {
      free(refs);
      return 0;
   }
   DeviceInfo *infos = calloc((size_t)n, sizeof *infos);
   if (!infos) {
      free(refs);
      snprintf(err, errlen, "out of host memory");
      return 0;
   }
   for (int i = 0; i < n; i++)
      describe(&refs[i], i, &infos[i]);
   free(refs);
   *out = infos;
   return n;
}

static Context *openDevice(int index, DeviceInfo *info, char *err, size_t errlen) {
   DeviceRef *refs = NULL;
   int n = enumerate(&refs, err, errlen);
   if (n <= 0) {
      free(refs);
      return NULL;
   }
   if (index < 0 || index >= n) {
      snprintf(err, errlen, "no OpenCL device %d: there are %d (0 to %d); see 'gemmtop list devices'", index, n, n - 1);
      free(refs);
      return NULL;
   }
   Context *ctx = calloc(1, sizeof *ctx);
   ctx->device = refs[index].device;
   describe(&refs[index], index, &ctx->info);
   cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)refs[index].platform, 0};
   free(refs);
   cl_int e;
   ctx->context = clCreateContext(props, 1, &ctx->device, NULL, NULL, &e);
   if (e != CL_SUCCESS) {
      fail(e, "clCreateContext", err, errlen);
      free(ctx);
      return NULL;
   }
   ctx->queue = clCreateCommandQueue(ctx->context, ctx->device, CL_QUEUE_PROFILING_ENABLE, &e);
   if (e != CL_SUCCESS) {
      fail(e, "clCreateCommandQueue", err, errlen);
      clReleaseContext(ctx->context);
      free(ctx);
      return NULL;
   }
   ctx->nvidia = strstr(ctx->info.platform, "NVIDIA") != NULL;
   const char *pocl_cache = getenv("POCL_KERNEL_CACHE");
   ctx->pocl_keeps_code = strstr(ctx->info.platform, "Portable Computing Language") != NULL &&
                          !(pocl_cache && strcmp(pocl_cache, "0") == 0);
   if (info)
      *info = ctx->info;
   return ctx;
}

static void closeDevice(Context *ctx) {
   if (!ctx)
      return;
   clFinish(ctx->queue);
   clReleaseCommandQueue(ctx->queue);
   clReleaseContext(ctx->context);
   free(ctx);
}

static char *buildLog(Context *ctx, cl_program prog) {
   size_t len = 0;
   clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
   char *log = malloc(len + 1);
   if (!log)
      return NULL;
   log[0] = '\0';
   clGetProgramBuildInfo(prog, ctx->device, CL_PROGRAM_BUILD_LOG, len, log, NULL);
   log[len] = '\0';
   char *t = Util_trim(log);
   memmove(log, t, strlen(t) + 1);
   return log;
}

/* NVIDIA's -cl-nv-verbose puts ptxas' report in the log: "Used 40 registers". */
static int registersFromLog(const char *log) {
   const char *p = log ? strstr(log, "Used ") : NULL;
   int regs;
   if (p && sscanf(p, "Used %d registers", &regs) == 1)
      return regs;
   return -1;
}

/* What a program is built from, for the disk cache (diskcache.h): the source, the
 * options, the device (platform, name, version) and its driver. */
typedef struct CacheId_ {
   DiskCacheId id;
   char device[400];
} CacheId;

static void cacheId(Context *ctx, const char *source, const char *options, const char *what, CacheId *c) {
   snprintf(c->device, sizeof c->device, "%s | %s | %s", ctx->info.platform, ctx->info.name, ctx->info.version);
   c->id = (DiskCacheId){.what = what, .source = source, .options = options, .device = c->device,
                         .driver = ctx->info.driver};
}

static void storeBinary(cl_program prog, const DiskCacheId *id) {
   if (!DiskCache_enabled()) /* not even asked for: making a binary can cost a compile */
      return;
   size_t size = 0;
   if (clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0)
      return;
   unsigned char *bin = malloc(size);
   if (!bin)
      return;
   unsigned char *bins[1] = {bin};
   if (clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
      DiskCache_store("opencl", id, bin, size);
   free(bin);
}

static cl_program loadBinary(Context *ctx, const DiskCacheId *id, const char *options) {
   size_t size = 0;
   unsigned char *bin = DiskCache_load("opencl", id, &size);
   if (!bin)
      return NULL;
   cl_int status, e;
   const unsigned char *bins[1] = {bin};
   cl_program prog = clCreateProgramWithBinary(ctx->context, 1, &ctx->device, &size, bins, &status, &e);
   free(bin);
   if (e != CL_SUCCESS || status != CL_SUCCESS)
      return NULL;
   if (clBuildProgram(prog, 1, &ctx->device, options, NULL, NULL) != CL_SUCCESS) {
      clReleaseProgram(prog);
      return NULL;
   }
   return prog;
}

/* NVIDIA writes registers and spills into the log of a build from source only; a program
 * loaded from the disk cache has an empty log. So the log is kept beside the binary and
 * given back with it, and the inspect pane and occupancy keep their figures. */
static void keepBuildLog(Context *ctx, const char *source, const char *options, BuildInfo *info) {
   CacheId log;
   cacheId(ctx, source, options, "build log", &log);
   bool empty = !info->log || !*Util_trim(info->log);
   if (!info->cached_disk) {
      if (!empty)
         DiskCache_store("opencl", &log.id, info->log, strlen(info->log));
      return;
   }
   if (!empty)
      return;
   size_t n = 0;
   unsigned char *saved = DiskCache_load("opencl", &log.id, &n);
   char *text = saved ? malloc(n + 1) : NULL;
   if (text) {
      memcpy(text, saved, n);
      text[n] = '\0';
      free(info->log);
      info->log = text;
   }
   free(saved);
}

/* A build from source. PoCL's own kernel cache can make a build fail when several
 * processes compile the same program at once (pocl issue 1480); such a failure carries no
 * compiler error, where a real one always does: it is tried once more. */
static cl_int buildFromSource(Context *ctx, const char *source, const char *opts, cl_program *out, char **log) {
   size_t len = strlen(source);
   for (int attempt = 0;; attempt++) {
      cl_int e;
      cl_program prog = clCreateProgramWithSource(ctx->context, 1, &source, &len, &e);
      if (e != CL_SUCCESS)
         return e;
      e = clBuildProgram(prog, 1, &ctx->device, opts, NULL, NULL);
      if (e == CL_SUCCESS) {
         *out = prog;
         return e;
      }
      free(*log);
      *log = buildLog(ctx, prog);
      clReleaseProgram(prog);
      bool silent = !*log || !strstr(*log, "error");
      if (e != CL_BUILD_PROGRAM_FAILURE || !silent || attempt > 0)
         return e;
   }
}

static BackendStatus build(Context *ctx, const char *source, const char *options, Program **out, BuildInfo *info,
                           char *err, size_t errlen) {
   double t0 = Util_nowMs();
   memset(info, 0, sizeof *info);
   info->registers = -1;
   info->private_mem = -1;
   info->local_mem = -1;
   *out = NULL;
   char opts[4096];
   /* GEMMTOP_CL_OPTIONS: extra compiler options for experts (e.g. -cl-nv-opt-level=3). */
   const char *extra = getenv("GEMMTOP_CL_OPTIONS");
   snprintf(opts, sizeof opts, "%s%s%s%s", options, ctx->nvidia ? " -cl-nv-verbose" : "", extra ? " " : "",
            extra ? extra : "");
   /* PoCL makes a program's binary by compiling every kernel once more for any group size
    * (its "0-0-0" code), which gemmtop never launches: for fast01's 8x8 tile that took 28 s
    * of a 50 s first run. Its own kernel cache already keeps what a build and each launch
    * compile, found again by a build from the source, so with that cache on gemmtop stores a
    * record that the program was built here instead of asking for the binary (an entry
    * either way: a binary stored with that cache off counts as the record, and a record
    * read with it off is no binary and is built again). */
   CacheId cid;
   cacheId(ctx, source, opts, "program", &cid);
   /* One process (or thread) builds, the others wait and load what it stored. */
   int lock = DiskCache_lock("opencl", &cid.id);
   cl_program prog = NULL;
   if (ctx->pocl_keeps_code) {
      size_t n = 0;
      unsigned char *record = DiskCache_load("opencl", &cid.id, &n);
      info->cached_disk = record != NULL;
      free(record);
   } else {
      prog = loadBinary(ctx, &cid.id, opts);
      info->cached_disk = prog != NULL;
   }
   if (!prog) {
      cl_int e = buildFromSource(ctx, source, opts, &prog, &info->log);
      if (e != CL_SUCCESS) {
         DiskCache_unlock(lock);
         info->compile_ms = Util_nowMs() - t0;
         if (e == CL_BUILD_PROGRAM_FAILURE || e == CL_INVALID_BUILD_OPTIONS) {
            snprintf(err, errlen, "the kernel did not compile (%s); the build log follows", clErrorName(e));
            return BACKEND_ERR_COMPILE;
         }
         return fail(e, "clBuildProgram", err, errlen);
      }
      if (!ctx->pocl_keeps_code)
         storeBinary(prog, &cid.id);
      else if (!info->cached_disk) {
         static const char record[] = "built; PoCL's kernel cache keeps the code\n";
         DiskCache_store("opencl", &cid.id, record, sizeof record - 1);
      }
   }
   DiskCache_unlock(lock);
   free(info->log);
   info->log = buildLog(ctx, prog);
   keepBuildLog(ctx, source, opts, info);
   info->registers = registersFromLog(info->log);
   info->compile_ms = Util_nowMs() - t0;
   Program *p = calloc(1, sizeof *p);
   p->program = prog;
   p->ctx = ctx;
   *out = p;
   return BACKEND_OK;
}

static Kernel *kernelOf(Program *prog, const char *entry, BuildInfo *info, char *err, size_t errlen) {
   cl_int e;
   cl_kernel k = clCreateKernel(prog->program, entry, &e);
   if (e != CL_SUCCESS) {
      snprintf(err, errlen, "kernel entry '%s' not found in the program (%s)", entry, clErrorName(e));
      return NULL;
   }
   if (info) {
      cl_ulong v = 0;
      if (clGetKernelWorkGroupInfo(k, prog->ctx->device, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof v, &v, NULL) == CL_SUCCESS)
         info->private_mem = (long long)v;
      if (clGetKernelWorkGroupInfo(k, prog->ctx->device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof v, &v, NULL) == CL_SUCCESS)
         info->local_mem = (long long)v;
      size_t wg = 0;
      if (clGetKernelWorkGroupInfo(k, prog->ctx->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL) == CL_SUCCESS)
         info->max_wg_for_kernel = wg;
   }
   Kernel *kk = calloc(1, sizeof *kk);
   kk->kernel = k;
   return kk;
}

static void releaseKernel(Kernel *k) {
   if (k) {
      clReleaseKernel(k->kernel);
      free(k);
   }
}

static void releaseProgram(Program *p) {
   if (p) {
      clReleaseProgram(p->program);
      free(p);
   }
}

/* PoCL's binary carries the CPU code it built for each kernel: disassembled with
 * llvm-objdump (Debian: llvm), the work-group function alone (its wrappers inline it). */
static char *poclCode(const unsigned char *bin, size_t size, char *kind, size_t kindlen) {
   size_t off, len;
   char path[600];
   if (!Poclbin_findKernel(bin, size, &off, &len, path, sizeof path))
      return NULL;
   /* "/gemm/32-32-1-goffs0-smallgrid/gemm.so": the kernel and the group size. */
   char name[128] = "", sizes[64] = "";
   sscanf(path, "/%127[A-Za-z0-9_]/%63[0-9-]", name, sizes);
   if (!name[0])
      return NULL;
   char dir[] = "/tmp/gemmtop-pocl-XXXXXX";
   if (!mkdtemp(dir))
      return NULL;
   char file[128], cmd[1024];
   snprintf(file, sizeof file, "%s/k.so", dir);
   char *out = NULL;
   if (Util_writeFileAtomic(file, bin + off, len)) {
      snprintf(cmd, sizeof cmd,
               "t=$(command -v llvm-objdump || ls /usr/bin/llvm-objdump-* 2>/dev/null | tail -n 1); [ -n \"$t\" ] && "
               "\"$t\" -d --no-show-raw-insn --disassemble-symbols=_pocl_kernel_%s %s 2>/dev/null",
               name, file);
      out = Util_capture(cmd);
      unlink(file);
   }
   rmdir(dir);
   /* From the function's label on: the lines above name the temporary file. */
   const char *start = out ? strstr(out, "<_pocl_kernel_") : NULL;
   while (start && start > out && start[-1] != '\n')
      start--;
   if (!start) {
      free(out);
      return NULL;
   }
   memmove(out, start, strlen(start) + 1);
   int gx = 0, gy = 0, gz = 0;
   if (sscanf(sizes, "%d-%d-%d", &gx, &gy, &gz) == 3 && gx > 0)
      snprintf(kind, kindlen, "CPU code (PoCL, group %dx%dx%d)", gx, gy, gz);
   else
      snprintf(kind, kindlen, "CPU code (PoCL, any group size)");
   return out;
}

static char *programCode(Program *p, char *kind, size_t kindlen) {
   size_t size = 0;
   if (clGetProgramInfo(p->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || size == 0)
      return NULL;
   char *bin = malloc(size + 1);
   if (!bin)
      return NULL;
   unsigned char *bins[1] = {(unsigned char *)bin};
   if (clGetProgramInfo(p->program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) != CL_SUCCESS) {
      free(bin);
      return NULL;
   }
   bin[size] = '\0';
   if (Poclbin_is((unsigned char *)bin, size)) {
      char *code = poclCode((unsigned char *)bin, size, kind, kindlen);
      free(bin);
      return code;
   }
   /* NVIDIA counts the PTX's terminating NUL in its size. */
   while (size > 0 && bin[size - 1] == '\0')
      size--;
   /* Only text is worth showing: NVIDIA's binaries are PTX; PoCL's and others' are not text. */
   for (size_t i = 0; i < size; i++)
      if (bin[i] == '\0' || ((unsigned char)bin[i] < 9)) {
         free(bin);
         return NULL;
      }
   snprintf(kind, kindlen, "%s", strstr(bin, ".version") ? "PTX" : "program binary (text)");
   return bin;
}

static BackendStatus allocBuffer(Context *ctx, size_t bytes, Buffer **out, char *err, size_t errlen) {
   *out = NULL;
   if (bytes > ctx->info.max_alloc) {
      snprintf(err, errlen, "out of device memory: a buffer of %.1f MiB exceeds this device's largest allocation (%.1f MiB)",
               bytes / 1048576.0, ctx->info.max_alloc / 1048576.0);
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   cl_int e;
   cl_mem m = clCreateBuffer(ctx->context, CL_MEM_READ_WRITE, bytes ? bytes : 1, NULL, &e);
   if (e != CL_SUCCESS) {
      BackendStatus s = fail(e, "clCreateBuffer", err, errlen);
      if (s == BACKEND_ERR_OUT_OF_MEMORY)
         snprintf(err, errlen, "out of device memory allocating %.1f MiB (%s)", bytes / 1048576.0, clErrorName(e));
      return s;
   }
   Buffer *b = calloc(1, sizeof *b);
   b->mem = m;
   b->bytes = bytes;
   *out = b;
   return BACKEND_OK;
}

static void freeBuffer(Buffer *b) {
   if (b) {
      clReleaseMemObject(b->mem);
      if (b->whole)
         clReleaseMemObject(b->whole);
      free(b);
   }
}

/* The whole allocation, and the sub-buffer between its guards for everything else. */
static BackendStatus allocGuarded(Context *ctx, size_t bytes, size_t guard, Buffer **out, char *err, size_t errlen) {
   *out = NULL;
   const size_t data = bytes ? bytes : 1;
   cl_uint align_bits = 0;
   if (clGetDeviceInfo(ctx->device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof align_bits, &align_bits, NULL) !=
           CL_SUCCESS ||
       align_bits == 0 || guard % (align_bits / 8 ? align_bits / 8 : 1) != 0) {
      snprintf(err, errlen, "guard zones of %zu bytes do not fit this device's alignment of a sub-buffer (%u bits)",
               guard, align_bits);
      return BACKEND_ERR_OTHER;
   }
   Buffer *whole;
   BackendStatus st = allocBuffer(ctx, data + 2 * guard, &whole, err, errlen);
   if (st != BACKEND_OK)
      return st;
   cl_buffer_region region = {.origin = guard, .size = data};
   cl_int e;
   cl_mem mid = clCreateSubBuffer(whole->mem, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &e);
   if (e != CL_SUCCESS) {
      freeBuffer(whole);
      return fail(e, "clCreateSubBuffer", err, errlen);
   }
   whole->whole = whole->mem;
   whole->mem = mid;
   whole->bytes = bytes;
   whole->guard = guard;
   *out = whole;
   return BACKEND_OK;
}

static BackendStatus guards(Context *ctx, Buffer *b, void *before, void *after, bool write, char *err, size_t errlen) {
   if (!b->whole) {
      snprintf(err, errlen, "a buffer without guard zones");
      return BACKEND_ERR_OTHER;
   }
   const size_t at[2] = {0, b->guard + (b->bytes ? b->bytes : 1)};
   void *host[2] = {before, after};
   for (int i = 0; i < 2; i++) {
      cl_int e = write ? clEnqueueWriteBuffer(ctx->queue, b->whole, CL_TRUE, at[i], b->guard, host[i], 0, NULL, NULL)
                       : clEnqueueReadBuffer(ctx->queue, b->whole, CL_TRUE, at[i], b->guard, host[i], 0, NULL, NULL);
      if (e != CL_SUCCESS)
         return fail(e, write ? "writing guard zones" : "reading guard zones", err, errlen);
   }
   return BACKEND_OK;
}

static BackendStatus writeBuffer(Context *ctx, Buffer *b, const void *host, size_t bytes, char *err, size_t errlen) {
   cl_int e = clEnqueueWriteBuffer(ctx->queue, b->mem, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
   return e == CL_SUCCESS ? BACKEND_OK : fail(e, "writing to the device", err, errlen);
}

static BackendStatus readBuffer(Context *ctx, Buffer *b, void *host, size_t bytes, char *err, size_t errlen) {
   cl_int e = clEnqueueReadBuffer(ctx->queue, b->mem, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
   return e == CL_SUCCESS ? BACKEND_OK : fail(e, "reading from the device", err, errlen);
}

static BackendStatus copyBuffer(Context *ctx, Buffer *dst, Buffer *src, size_t bytes, char *err, size_t errlen) {
   cl_int e = clEnqueueCopyBuffer(ctx->queue, src->mem, dst->mem, 0, 0, bytes, 0, NULL, NULL);
   return e == CL_SUCCESS ? BACKEND_OK : fail(e, "copying on the device", err, errlen);
}

static BackendStatus fillBuffer(Context *ctx, Buffer *b, uint32_t word, size_t bytes, char *err, size_t errlen) {
   cl_int e = clEnqueueFillBuffer(ctx->queue, b->mem, &word, sizeof word, 0, bytes, 0, NULL, NULL);
   return e == CL_SUCCESS ? BACKEND_OK : fail(e, "filling a buffer on the device", err, errlen);
}

static BackendStatus launch(Context *ctx, Kernel *k, const KernelArg *args, int nargs, bool real_double, int dims,
                            const size_t *global, const size_t *local, Event **ev, char *err, size_t errlen) {
   for (int i = 0; i < nargs; i++) {
      cl_int e;
      if (args[i].kind == ARG_BUFFER) {
         e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof(cl_mem), &args[i].buffer->mem);
      } else if (args[i].kind == ARG_INT) {
         cl_int v = args[i].i;
         e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof v, &v);
      } else if (real_double) {
         cl_double v = args[i].real;
         e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof v, &v);
      } else {
         cl_float v = (cl_float)args[i].real;
         e = clSetKernelArg(k->kernel, (cl_uint)i, sizeof v, &v);
      }
      if (e != CL_SUCCESS) {
         char what[64];
         snprintf(what, sizeof what, "setting kernel argument %d", i);
         return fail(e, what, err, errlen);
      }
   }
   cl_event event = NULL;
   cl_int e = clEnqueueNDRangeKernel(ctx->queue, k->kernel, (cl_uint)dims, NULL, global, local, 0, NULL,
                                     ev ? &event : NULL);
   if (e != CL_SUCCESS) {
      BackendStatus s = fail(e, "launching the kernel", err, errlen);
      return s == BACKEND_ERR_OTHER ? BACKEND_ERR_LAUNCH : s;
   }
   if (ev) {
      *ev = calloc(1, sizeof **ev);
      (*ev)->event = event;
   }
   return BACKEND_OK;
}

static BackendStatus finish(Context *ctx, char *err, size_t errlen) {
   cl_int e = clFinish(ctx->queue);
   return e == CL_SUCCESS ? BACKEND_OK : fail(e, "waiting for the device", err, errlen);
}

/* A marker after everything enqueued, watched until it completes or the time is up:
 * clFinish would wait for ever on a launch that does not end. The waits start short (a
 * GEMM of a few microseconds) and grow to 2 ms, so a long run costs little CPU. */
static BackendStatus finishWithin(Context *ctx, double timeout_ms, char *err, size_t errlen) {
   cl_event marker;
   cl_int e = clEnqueueMarkerWithWaitList(ctx->queue, 0, NULL, &marker);
   if (e != CL_SUCCESS)
      return fail(e, "waiting for the device", err, errlen);
   clFlush(ctx->queue);
   double deadline = Util_nowMs() + timeout_ms;
   long sleep_us = 20;
   for (;;) {
      cl_int status = CL_QUEUED;
      e = clGetEventInfo(marker, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
      if (e != CL_SUCCESS || status <= CL_COMPLETE) {
         clReleaseEvent(marker);
         if (e != CL_SUCCESS)
            return fail(e, "waiting for the device", err, errlen);
         return status == CL_COMPLETE ? BACKEND_OK : fail(status, "a launch", err, errlen);
      }
      if (Util_nowMs() >= deadline) {
         snprintf(err, errlen, "still running after %.1f s", timeout_ms / 1000);
         return BACKEND_ERR_TIMEOUT; /* the marker is left: the queue is given up */
      }
      usleep((useconds_t)sleep_us);
      sleep_us = sleep_us * 2 > 2000 ? 2000 : sleep_us * 2;
   }
}

static double eventMs(Event *ev) {
   cl_ulong start = 0, end = 0;
   clWaitForEvents(1, &ev->event);
   if (clGetEventProfilingInfo(ev->event, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL) != CL_SUCCESS ||
       clGetEventProfilingInfo(ev->event, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL) != CL_SUCCESS)
      return -1;
   return (double)(end - start) * 1e-6;
}

static void releaseEvent(Event *ev) {
   if (ev) {
      clReleaseEvent(ev->event);
      free(ev);
   }
}

/* CLBlast, loaded at run time (Debian's libclblast1): the OpenCL reference. Its C API
 * takes our cl_mem buffers and queue directly. */
typedef int (*ClblastGemmF)(int, int, int, size_t, size_t, size_t, float, cl_mem, size_t, size_t, cl_mem, size_t, size_t,
                            float, cl_mem, size_t, size_t, cl_command_queue *, cl_event *);
typedef int (*ClblastGemmD)(int, int, int, size_t, size_t, size_t, double, cl_mem, size_t, size_t, cl_mem, size_t, size_t,
                            double, cl_mem, size_t, size_t, cl_command_queue *, cl_event *);
static struct {
   bool tried;
   void *lib;
   ClblastGemmF sgemm;
   ClblastGemmD dgemm;
} clblast;

/* Why CLBlast has no GEMM for a low-precision type with FP32 C and accumulation: it has no
 * TF32 or bfloat16 GEMM at all, and its Hgemm keeps C, alpha and beta in half (and needs
 * cl_khr_fp16, which the device may lack). */
/* CLBlast's call for each element type: 'S' Sgemm, 'D' Dgemm, 0 none; and for which of the
 * others its only GEMM (Hgemm) keeps C in half. */
static const char kClblastTypes[PRECISION_COUNT] = {[PRECISION_FLOAT] = 'S', [PRECISION_DOUBLE] = 'D'};
static const bool kClblastHalfC[PRECISION_COUNT] = {[PRECISION_HALF] = true};

static void unsupportedType(Context *ctx, Precision precision, char *err, size_t errlen) {
   const char *type = Types_of(precision)->name;
   /* The FP8 types' reference is cuBLASLt's; the others' cuBLAS's GemmEx. */
   const char *cuda = Types_of(precision)->scaled ? "cuBLASLt's FP8 GEMM" : "cuBLAS GemmEx";
   char ext[8192];
   deviceString(ctx->device, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
   if ((unsigned)precision >= PRECISION_COUNT || !kClblastHalfC[precision])
      snprintf(err, errlen, "CLBlast has no %s GEMM: no vendor reference for %s on OpenCL; the CUDA backend compares "
               "with %s", type, type, cuda);
   else if (!strstr(ext, "cl_khr_fp16"))
      snprintf(err, errlen, "CLBlast has no half GEMM with FP32 C, and this device lacks fp16 (no cl_khr_fp16) for "
               "its Hgemm: no vendor reference for half here; the CUDA backend compares with cuBLAS GemmEx");
   else
      snprintf(err, errlen, "CLBlast has no half GEMM with FP32 C (its Hgemm keeps C in half): no vendor reference "
               "for half on OpenCL; the CUDA backend compares with cuBLAS GemmEx");
}

static BackendStatus vendorGemm(Context *ctx, const BackendGemm *p, Buffer *A, Buffer *B, Buffer *C,
                                BackendVendorCall *out, char *err, size_t errlen) {
   out->ms = -1;
   out->note[0] = '\0';
   if (!clblast.tried) {
      clblast.tried = true;
      const char *env = getenv("GEMMTOP_CLBLAST");
      clblast.lib = dlopen(env && *env ? env : "libclblast.so.1", RTLD_NOW | RTLD_LOCAL);
      if (!clblast.lib)
         clblast.lib = dlopen("libclblast.so", RTLD_NOW | RTLD_LOCAL);
      if (clblast.lib) {
         clblast.sgemm = (ClblastGemmF)dlsym(clblast.lib, "CLBlastSgemm");
         clblast.dgemm = (ClblastGemmD)dlsym(clblast.lib, "CLBlastDgemm");
      }
   }
   snprintf(out->name, sizeof out->name, "CLBlast");
   const char call = (unsigned)p->precision < PRECISION_COUNT ? kClblastTypes[p->precision] : 0;
   if (!call) {
      unsupportedType(ctx, p->precision, err, errlen);
      return BACKEND_ERR_UNSUPPORTED;
   }
   if (p->c_bf16) {
      snprintf(err, errlen, "CLBlast writes C in the type's own precision; a bfloat16 C is offered for the FP8 types "
                            "through CUDA (cuBLASLt) only");
      return BACKEND_ERR_UNSUPPORTED;
   }
   if (!clblast.sgemm || !clblast.dgemm) {
      snprintf(err, errlen, "CLBlast is not installed (libclblast.so.1; on Debian: apt-get install libclblast1)");
      return BACKEND_ERR_NO_RUNTIME;
   }
   const int rowMajor = 101, no = 111, yes = 112;
   size_t lda = p->trans_a ? (size_t)p->m : (size_t)p->k;
   size_t ldb = p->trans_b ? (size_t)p->k : (size_t)p->n;
   double t0 = Util_nowMs();
   int st;
   if (call == 'D')
      st = clblast.dgemm(rowMajor, p->trans_a ? yes : no, p->trans_b ? yes : no, (size_t)p->m, (size_t)p->n,
                         (size_t)p->k, p->alpha, A->mem, 0, lda, B->mem, 0, ldb, p->beta, C->mem, 0, (size_t)p->n,
                         &ctx->queue, NULL);
   else
      st = clblast.sgemm(rowMajor, p->trans_a ? yes : no, p->trans_b ? yes : no, (size_t)p->m, (size_t)p->n,
                         (size_t)p->k, (float)p->alpha, A->mem, 0, lda, B->mem, 0, ldb, (float)p->beta, C->mem, 0,
                         (size_t)p->n, &ctx->queue, NULL);
   cl_int e = clFinish(ctx->queue);
   out->ms = Util_nowMs() - t0;
   if (st != 0) {
      snprintf(err, errlen, "CLBlast %cgemm failed with status %d", call, st);
      return st == CL_MEM_OBJECT_ALLOCATION_FAILURE || st == CL_OUT_OF_RESOURCES ? BACKEND_ERR_OUT_OF_MEMORY
                                                                                  : BACKEND_ERR_OTHER;
   }
   return e == CL_SUCCESS ? BACKEND_OK : fail(e, "waiting for CLBlast", err, errlen);
}

static const Backend openclBackend = {
    .name = "opencl",
    .alias = "cl",
    .title = "OpenCL",
    .vendor_library = "CLBlast",
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
    .launch = launch,
    .finish = finish,
    .finishWithin = finishWithin,
    .eventMs = eventMs,
    .releaseEvent = releaseEvent,
    .vendorGemm = vendorGemm,
    .programCode = programCode,
};

const Backend *Backend_opencl(void) { return &openclBackend; }
