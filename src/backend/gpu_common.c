/* The part of the CUDA and HIP backends that is the same in both (gpu_common.h). */
#include "backend/gpu_common.h"

#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diskcache.h"
#include "base/util.h"

BackendStatus Gpu_fail(const GpuRuntime *rt, int r, const char *what, char *err, size_t errlen) {
   const char *s = rt->errorString ? rt->errorString(r) : NULL;
   snprintf(err, errlen, "%s failed: %s (%d)", what, s ? s : "unknown error", r);
   return r == rt->out_of_memory ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
}

/* Nsight Systems sets CUDA_INJECTION64_PATH; Nsight Compute 2025.3 does not (it preloads
 * its injection), but sets its own transport variables (H200 machine, 2026-12-03: every
 * held launch under it waited out the 50 ms limit). */
static const char *const profilerVariables[] = {"CUDA_INJECTION64_PATH", "NV_NSIGHT_INJECTION_TRANSPORT_TYPE",
                                                "NV_TPS_LAUNCH_TOKEN"};

bool Gpu_profilerInjected(void) {
   for (size_t i = 0; i < sizeof profilerVariables / sizeof profilerVariables[0]; i++) {
      const char *v = getenv(profilerVariables[i]);
      if (v && *v)
         return true;
   }
   return false;
}

const char Gpu_holdPtx[] =
    ".version 6.0\n"
    ".target sm_50\n"
    ".address_size 64\n"
    ".visible .entry gemmtop_hold(.param .u64 counter, .param .u64 ticket, .param .u64 limit_ns)\n"
    "{\n"
    "   .reg .pred %p<3>;\n"
    "   .reg .b64 %rd<8>;\n"
    "   ld.param.u64 %rd1, [counter];\n"
    "   ld.param.u64 %rd2, [ticket];\n"
    "   ld.param.u64 %rd3, [limit_ns];\n"
    "   mov.u64 %rd4, %globaltimer;\n"
    "SPIN:\n"
    "   ld.volatile.global.u64 %rd5, [%rd1];\n"
    "   setp.ge.u64 %p1, %rd5, %rd2;\n"
    "   @%p1 bra DONE;\n"
    "   mov.u64 %rd6, %globaltimer;\n"
    "   sub.u64 %rd7, %rd6, %rd4;\n"
    "   setp.lt.u64 %p2, %rd7, %rd3;\n"
    "   @%p2 bra SPIN;\n"
    "DONE:\n"
    "   ret;\n"
    "}\n";

/* The counter only grows, so a late release of an older ticket frees nothing early. */
static void holdRelease(Event *e) {
   if (!e->hold || !e->ticket)
      return;
   volatile unsigned long long *c = e->hold->host;
   unsigned long long seen = __atomic_load_n(c, __ATOMIC_RELAXED);
   while (seen < e->ticket &&
          !__atomic_compare_exchange_n(c, &seen, e->ticket, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
   }
   e->ticket = 0;
}

/* One thread, one block of the holding kernel ahead of the start event. */
static void holdStream(Event *e, GpuHold *hold, GpuStream stream) {
   if (!hold || !hold->fn)
      return;
   unsigned long long ticket = hold->ticket + 1, limit = hold->limit_ns;
   void *params[] = {&hold->counter, &ticket, &limit};
   const unsigned one[3] = {1, 1, 1};
   if (e->rt->launchKernel(hold->fn, one, one, stream, params) != 0)
      return;
   hold->ticket = ticket;
   e->hold = hold;
   e->ticket = ticket;
}

void Gpu_releaseEvent(Event *e) {
   if (!e)
      return;
   holdRelease(e);
   if (e->start)
      e->rt->eventDestroy(e->start);
   if (e->end)
      e->rt->eventDestroy(e->end);
   free(e);
}

Event *Gpu_eventStart(const GpuRuntime *rt, GpuStream stream, GpuHold *hold, char *err, size_t errlen) {
   Event *e = calloc(1, sizeof *e);
   if (!e) {
      snprintf(err, errlen, "out of host memory");
      return NULL;
   }
   e->rt = rt;
   int r = rt->eventCreate(&e->start);
   if (r == 0)
      r = rt->eventCreate(&e->end);
   if (r == 0) {
      holdStream(e, hold, stream);
      r = rt->eventRecord(e->start, stream);
   }
   if (r != 0) {
      Gpu_fail(rt, r, "creating timing events", err, errlen);
      Gpu_releaseEvent(e);
      return NULL;
   }
   return e;
}

BackendStatus Gpu_eventStop(Event *e, GpuStream stream, char *err, size_t errlen) {
   int r = e->rt->eventRecord(e->end, stream);
   holdRelease(e);
   return r == 0 ? BACKEND_OK : Gpu_fail(e->rt, r, "recording a timing event", err, errlen);
}

BackendStatus Gpu_eventWait(Event *e, double *ms, const char *what, char *err, size_t errlen) {
   *ms = -1;
   int r = e->rt->eventSynchronize(e->end);
   if (r != 0)
      return Gpu_fail(e->rt, r, what, err, errlen);
   float t = -1;
   if (e->rt->eventElapsed(&t, e->start, e->end) == 0)
      *ms = t;
   return BACKEND_OK;
}

double Gpu_eventMs(Event *e) {
   double ms;
   char err[256];
   return Gpu_eventWait(e, &ms, "waiting for the kernel", err, sizeof err) == BACKEND_OK ? ms : -1;
}

BackendStatus Gpu_grid(int dims, const size_t *global, const size_t *local, unsigned grid[3], unsigned block[3],
                       char *err, size_t errlen) {
   for (int d = 0; d < 3; d++)
      grid[d] = block[d] = 1;
   if (dims < 1 || dims > 3) {
      snprintf(err, errlen, "a launch has 1 to 3 dimensions, not %d", dims);
      return BACKEND_ERR_LAUNCH;
   }
   for (int d = 0; d < dims; d++) {
      size_t b = local ? local[d] : (global[d] < 256 ? global[d] : 256);
      if (b == 0 || global[d] % b) {
         snprintf(err, errlen, "global size %zu is not a multiple of the block size %zu", global[d], b);
         return BACKEND_ERR_LAUNCH;
      }
      if (global[d] / b > 0xffffffffu) {
         snprintf(err, errlen, "a grid of %zu blocks is too many for one dimension", global[d] / b);
         return BACKEND_ERR_LAUNCH;
      }
      block[d] = (unsigned)b;
      grid[d] = (unsigned)(global[d] / b);
   }
   return BACKEND_OK;
}

#define GPU_MAX_ARGS 16

BackendStatus Gpu_launch(const GpuRuntime *rt, GpuStream stream, GpuHold *hold, void *fn, const KernelArg *args,
                         int nargs, bool real_double, int dims, const size_t *global, const size_t *local,
                         Event **ev, char *err, size_t errlen) {
   GpuArg values[GPU_MAX_ARGS];
   void *params[GPU_MAX_ARGS];
   if (nargs > GPU_MAX_ARGS) {
      snprintf(err, errlen, "too many kernel arguments (%d; at most %d)", nargs, GPU_MAX_ARGS);
      return BACKEND_ERR_LAUNCH;
   }
   for (int i = 0; i < nargs; i++) {
      memset(&values[i], 0, sizeof values[i]);
      if (args[i].kind == ARG_TENSOR_MAP) {
         if (!rt->tensorMapArg) {
            snprintf(err, errlen, "%s has no TMA tensor maps (argument %d)", rt->name, i);
            return BACKEND_ERR_LAUNCH;
         }
         BackendStatus st = rt->tensorMapArg(&args[i], &values[i], err, errlen);
         if (st != BACKEND_OK)
            return st;
      } else if (args[i].kind == ARG_BUFFER)
         rt->bufferArg(args[i].buffer, &values[i]);
      else if (args[i].kind == ARG_INT)
         values[i].i = args[i].i;
      else if (real_double)
         values[i].d = args[i].real;
      else
         values[i].f = (float)args[i].real;
      params[i] = &values[i];
   }
   unsigned grid[3], block[3];
   BackendStatus st = Gpu_grid(dims, global, local, grid, block, err, errlen);
   if (st != BACKEND_OK)
      return st;
   Event *e = NULL;
   if (ev && !(e = Gpu_eventStart(rt, stream, hold, err, errlen)))
      return BACKEND_ERR_LAUNCH;
   int r = rt->launchKernel(fn, grid, block, stream, params);
   if (r != 0) {
      Gpu_releaseEvent(e);
      st = Gpu_fail(rt, r, "launching the kernel", err, errlen);
      return st == BACKEND_ERR_OTHER ? BACKEND_ERR_LAUNCH : st;
   }
   if (e && Gpu_eventStop(e, stream, err, errlen) != BACKEND_OK) {
      Gpu_releaseEvent(e);
      return BACKEND_ERR_LAUNCH;
   }
   if (ev)
      *ev = e;
   return BACKEND_OK;
}

void Gpu_kernelInfo(const GpuRuntime *rt, void *fn, BuildInfo *info) {
   int v = 0;
   if (rt->funcAttribute(&v, GPU_FUNC_NUM_REGS, fn) == 0)
      info->registers = v;
   if (rt->funcAttribute(&v, GPU_FUNC_LOCAL_BYTES, fn) == 0)
      info->private_mem = v;
   if (rt->funcAttribute(&v, GPU_FUNC_SHARED_BYTES, fn) == 0)
      info->local_mem = v;
   if (rt->funcAttribute(&v, GPU_FUNC_MAX_THREADS, fn) == 0)
      info->max_wg_for_kernel = (size_t)v;
}

BackendStatus Gpu_moduleResources(const GpuRuntime *rt, const GpuModuleOps *ops, const char *image,
                                  const char *entry, BuildInfo *info, char *err, size_t errlen) {
   void *module = NULL, *fn = NULL;
   int r = ops->load(&module, image);
   if (r != 0)
      return Gpu_fail(rt, r, "loading the PTX", err, errlen);
   r = ops->function(&fn, module, entry);
   if (r == 0)
      Gpu_kernelInfo(rt, fn, info);
   ops->unload(module);
   return r == 0 ? BACKEND_OK : Gpu_fail(rt, r, "finding the kernel in the PTX", err, errlen);
}

/* An attribute, 0 when the runtime does not give it (the limits then refuse everything
 * rather than promise what the device may not have). */
static int attribute(const GpuRuntime *rt, int device, GpuAttribute which) {
   int v = 0;
   if (rt->deviceAttribute(&v, rt->attr[which], device) != 0 || v < 0)
      v = 0;
   return v;
}

void Gpu_describeLimits(const GpuRuntime *rt, int device, DeviceInfo *info) {
   info->type = DEVICE_GPU;
   info->compute_units = (unsigned)attribute(rt, device, GPU_ATTR_MULTIPROCESSOR_COUNT);
   info->clock_mhz = (unsigned)(attribute(rt, device, GPU_ATTR_CLOCK_RATE) / 1000); /* kHz */
   info->limits.max_wg = (size_t)attribute(rt, device, GPU_ATTR_MAX_THREADS_PER_BLOCK);
   info->limits.max_wi[0] = (size_t)attribute(rt, device, GPU_ATTR_MAX_BLOCK_DIM_X);
   info->limits.max_wi[1] = (size_t)attribute(rt, device, GPU_ATTR_MAX_BLOCK_DIM_Y);
   info->limits.max_wi[2] = (size_t)attribute(rt, device, GPU_ATTR_MAX_BLOCK_DIM_Z);
   /* Static __shared__ arrays are limited to 48 KiB (CUDA) whatever the opt-in maximum. */
   info->limits.local_mem = (unsigned long long)attribute(rt, device, GPU_ATTR_MAX_SHARED_PER_BLOCK);
   info->limits.fp64 = true; /* every CUDA GPU, and every GCN, CDNA and RDNA GPU */
   int warp = attribute(rt, device, GPU_ATTR_WARP_SIZE);
   info->limits.warp = warp > 0 ? warp : 32;
}

BackendStatus Gpu_compileCached(const GpuRuntime *rt, GpuCompileFn *compile, const char *source, const char *options,
                                const char *arch, const void *version, size_t versionlen, char **image, size_t *size,
                                BuildInfo *info, char *err, size_t errlen) {
   double t0 = Util_nowMs();
   /* The compiler's version as the cache entry records it: "CUDA 12.4" (its ints). */
   char driver[96];
   int n = snprintf(driver, sizeof driver, "%s", rt->name);
   for (size_t i = 0; i + sizeof(int) <= versionlen && n < (int)sizeof driver; i += sizeof(int)) {
      int v;
      memcpy(&v, (const char *)version + i, sizeof v);
      n += snprintf(driver + n, sizeof driver - (size_t)n, "%c%d", i ? '.' : ' ', v);
   }
   const DiskCacheId id = {.what = "program", .source = source, .options = options, .device = arch, .driver = driver};
   /* One process (or thread) builds, the others wait and load what it stored. */
   int lock = DiskCache_lock(rt->cache, &id);
   *size = 0;
   *image = (char *)DiskCache_load(rt->cache, &id, size);
   if (*image) {
      info->cached_disk = true;
   } else {
      BackendStatus st = compile(source, options, arch, image, size, &info->log, err, errlen);
      if (st != BACKEND_OK) {
         DiskCache_unlock(lock);
         info->compile_ms = Util_nowMs() - t0;
         return st;
      }
      DiskCache_store(rt->cache, &id, *image, *size);
   }
   DiskCache_unlock(lock);
   info->compile_ms = Util_nowMs() - t0;
   return BACKEND_OK;
}

BackendStatus Gpu_offlineCached(const char *folder, const char *what, GpuCompileFn *compile, const char *source,
                                const char *options, const char *arch, const char *version, char **image,
                                size_t *size, char **log, char *err, size_t errlen) {
   char logWhat[96];
   snprintf(logWhat, sizeof logWhat, "%s log", what);
   const DiskCacheId id = {.what = what, .source = source, .options = options ? options : "", .device = arch,
                           .driver = version};
   const DiskCacheId logId = {.what = logWhat, .source = source, .options = id.options, .device = arch,
                              .driver = version};
   int lock = DiskCache_lock(folder, &id);
   size_t logLen = 0;
   /* a load ends the data with a NUL: the PTX and the log read as C strings */
   *image = (char *)DiskCache_load(folder, &id, size);
   *log = *image ? (char *)DiskCache_load(folder, &logId, &logLen) : NULL;
   if (*image && *log) {
      DiskCache_unlock(lock);
      return BACKEND_OK;
   }
   free(*image);
   free(*log);
   *image = *log = NULL;
   BackendStatus st = compile(source, options, arch, image, size, log, err, errlen);
   if (st == BACKEND_OK && DiskCache_store(folder, &id, *image, *size))
      DiskCache_store(folder, &logId, *log ? *log : "", (*log ? strlen(*log) : 0) + 1);
   DiskCache_unlock(lock);
   return st;
}

void *Gpu_openLibrary(const char *const *names, const char *pattern, char *opened, size_t openedlen) {
   for (int i = 0; names[i]; i++) {
      void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
      if (h) {
         if (opened)
            Util_copy(opened, openedlen, names[i]);
         return h;
      }
   }
   glob_t g;
   void *h = NULL;
   if (pattern && glob(pattern, 0, NULL, &g) == 0) {
      for (size_t i = g.gl_pathc; i-- > 0 && !h;)
         if ((h = dlopen(g.gl_pathv[i], RTLD_NOW | RTLD_LOCAL)) != NULL && opened)
            Util_copy(opened, openedlen, g.gl_pathv[i]);
      globfree(&g);
   }
   return h;
}

/* strtok_r: sweeps compile in parallel threads, and strtok's hidden state mixed their
 * options up. */
int Gpu_splitOptions(char *buf, const char **opts, int max) {
   int n = 0;
   char *save = NULL;
   for (char *tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
      if (n == max)
         return -1;
      opts[n++] = tok;
   }
   return n;
}

GpuGemmCall Gpu_columnMajor(const BackendGemm *p) {
   GpuGemmCall c = {
       .trans_first = p->trans_b,
       .trans_second = p->trans_a,
       .m = p->n,
       .n = p->m,
       .k = p->k,
       .ld_first = p->trans_b ? p->k : p->n,
       .ld_second = p->trans_a ? p->m : p->k,
       .ld_c = p->n,
   };
   return c;
}
