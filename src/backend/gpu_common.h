/* What the CUDA and HIP backends share, written once: kernel arguments, the grid from
 * OpenCL's global and local sizes, timing events in pairs, a kernel's resources, the
 * device's limits, the disk-cached compile, error messages, loading a library, splitting
 * compiler options, and the column-major call of cuBLAS and rocBLAS for gemmtop's
 * row-major problem. Each backend hands its runtime's calls over as a GpuRuntime; the
 * two runtimes mirror each other call by call, so these take plain ints and pointers. */
#ifndef GEMMTOP_GPU_COMMON_H
#define GEMMTOP_GPU_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

typedef void *GpuEvent;
typedef void *GpuStream;

/* One kernel argument as the launch call takes it: a pointer to this. A TMA tensor map
 * (CUtensorMap: 128 bytes, 64-byte aligned) is passed by value too. */
typedef union GpuArg_ {
   unsigned long long ptr; /* CUdeviceptr */
   void *vptr;             /* hipDeviceptr_t */
   int i;
   float f;
   double d;
   _Alignas(64) unsigned char tensor_map[128];
} GpuArg;

/* The device attributes gemmtop reads, in the runtime's numbering (GpuRuntime.attr). */
typedef enum {
   GPU_ATTR_MAX_THREADS_PER_BLOCK, GPU_ATTR_MAX_BLOCK_DIM_X, GPU_ATTR_MAX_BLOCK_DIM_Y, GPU_ATTR_MAX_BLOCK_DIM_Z,
   GPU_ATTR_MAX_SHARED_PER_BLOCK, GPU_ATTR_WARP_SIZE, GPU_ATTR_CLOCK_RATE, GPU_ATTR_MULTIPROCESSOR_COUNT,
   GPU_ATTR_COUNT
} GpuAttribute;

/* A kernel's attributes: the same numbers in both runtimes (cuFuncGetAttribute). */
enum { GPU_FUNC_MAX_THREADS = 0, GPU_FUNC_SHARED_BYTES = 1, GPU_FUNC_LOCAL_BYTES = 3, GPU_FUNC_NUM_REGS = 4 };

typedef struct GpuRuntime_ {
   const char *name;        /* "CUDA", "HIP": in messages */
   const char *cache;       /* the disk cache's folder: the backend's name */
   int out_of_memory;       /* its out-of-memory error code */
   int attr[GPU_ATTR_COUNT];
   const char *(*errorString)(int r);
   int (*deviceAttribute)(int *value, int attr, int device);
   int (*funcAttribute)(int *value, int attr, void *fn);
   int (*eventCreate)(GpuEvent *ev);
   int (*eventRecord)(GpuEvent ev, GpuStream stream);
   int (*eventSynchronize)(GpuEvent ev);
   int (*eventElapsed)(float *ms, GpuEvent start, GpuEvent end);
   int (*eventDestroy)(GpuEvent ev);
   int (*launchKernel)(void *fn, const unsigned grid[3], const unsigned block[3], GpuStream stream, void **params);
   /* Puts a buffer's device pointer in a kernel argument. */
   void (*bufferArg)(const Buffer *b, GpuArg *slot);
   /* Encodes a tensor map of a buffer into slot->tensor_map; NULL: the runtime has none. */
   BackendStatus (*tensorMapArg)(const KernelArg *arg, GpuArg *slot, char *err, size_t errlen);
} GpuRuntime;

/* A stream held while timed work is queued behind it. Without it the start event is
 * recorded on an idle device as soon as it is queued, and the event pair also times the
 * host's few microseconds of launching what follows (5-7 us on the H200: 20% of a 30 us
 * GEMM). The holding kernel spins until the host, having queued the start event, the
 * work and the end event, writes the hold's ticket into a page-locked counter, or
 * until limit_ns pass (a hold never released costs that, never a hang). */
typedef struct GpuHold_ {
   void *fn;                          /* the holding kernel as launchKernel takes it; NULL: none */
   unsigned long long counter;        /* the counter's device address */
   volatile unsigned long long *host; /* the same counter as the host writes it */
   unsigned long long ticket;         /* the last hold's number */
   unsigned long long limit_ns;       /* the longest a hold lasts */
} GpuHold;

/* Whether a profiler is injected into this process (Nsight Compute or Systems), which
 * serialises launches: a held stream would then wait out the hold's limit at every timed
 * launch. Told by the environment the tool starts the program with. */
bool Gpu_profilerInjected(void);

/* The holding kernel in PTX (any NVIDIA GPU from sm_50; the driver compiles it): entry
 * gemmtop_hold(counter, ticket, limit_ns). */
extern const char Gpu_holdPtx[];

/* Both backends' events: a pair around the work, timed by the device. */
struct Event_ {
   const GpuRuntime *rt;
   GpuEvent start, end;
   GpuHold *hold;            /* held before the start; released after the end is queued */
   unsigned long long ticket; /* this pair's hold, 0 when none or released */
};

/* "what failed: the runtime's message (code)"; OUT_OF_MEMORY or OTHER. */
BackendStatus Gpu_fail(const GpuRuntime *rt, int r, const char *what, char *err, size_t errlen);

/* Packs the arguments, derives the grid (local NULL: up to 256 per block) and launches;
 * with ev, the launch between a pair of events (held by hold when it is not NULL). */
BackendStatus Gpu_launch(const GpuRuntime *rt, GpuStream stream, GpuHold *hold, void *fn, const KernelArg *args,
                         int nargs, bool real_double, int dims, const size_t *global, const size_t *local,
                         Event **ev, char *err, size_t errlen);
/* Gpu_launch's steps, for a test: the grid and blocks of an NDRange. */
BackendStatus Gpu_grid(int dims, const size_t *global, const size_t *local, unsigned grid[3], unsigned block[3],
                       char *err, size_t errlen);

/* A pair of events with the start recorded on stream, behind a hold of the stream when
 * hold has a kernel (a hold that fails to launch is left out: the timing is as before);
 * NULL and a message on failure. Gpu_eventStop releases the hold after queueing the end,
 * Gpu_releaseEvent when the pair was never stopped. */
Event *Gpu_eventStart(const GpuRuntime *rt, GpuStream stream, GpuHold *hold, char *err, size_t errlen);
BackendStatus Gpu_eventStop(Event *e, GpuStream stream, char *err, size_t errlen);
/* Waits for the end; its time in *ms (-1 when the runtime cannot say). */
BackendStatus Gpu_eventWait(Event *e, double *ms, const char *what, char *err, size_t errlen);
double Gpu_eventMs(Event *e);
void Gpu_releaseEvent(Event *e);

/* Registers, local (spill) and shared memory, the largest block, into info. */
void Gpu_kernelInfo(const GpuRuntime *rt, void *fn, BuildInfo *info);
/* A module that the runtime loads from code in memory (CUDA: cuModuleLoadData of PTX,
 * which the driver compiles for the current context's device). */
typedef struct GpuModuleOps_ {
   int (*load)(void **module, const void *image);
   int (*function)(void **fn, void *module, const char *entry);
   int (*unload)(void *module);
} GpuModuleOps;
/* Loads image, finds entry and reports its resources as Gpu_kernelInfo does (registers,
 * private and shared bytes); the module is unloaded whatever happens. */
BackendStatus Gpu_moduleResources(const GpuRuntime *rt, const GpuModuleOps *ops, const char *image,
                                  const char *entry, BuildInfo *info, char *err, size_t errlen);
/* Compute units, clock and the limits of a device from its attributes. */
void Gpu_describeLimits(const GpuRuntime *rt, int device, DeviceInfo *info);

/* A compile to a code image for arch: CUBIN or a code object. */
typedef BackendStatus GpuCompileFn(const char *source, const char *options, const char *arch, char **image,
                                   size_t *size, char **log, char *err, size_t errlen);
/* The image of source and options for arch by the compiler at version: from the disk
 * cache, else compiled and stored. info gets the log, cached_disk and compile_ms. */
BackendStatus Gpu_compileCached(const GpuRuntime *rt, GpuCompileFn *compile, const char *source, const char *options,
                                const char *arch, const void *version, size_t versionlen, char **image, size_t *size,
                                BuildInfo *info, char *err, size_t errlen);

/* A compile without a device (inspect --arch) through the disk cache of folder: the image
 * and its log (for a CUBIN, ptxas's report of the resources), from the cache when both are
 * there, else compiled by compile and both stored. what names the entry ("offline ptx"),
 * version the compiler's ("NVRTC 13.0"). */
BackendStatus Gpu_offlineCached(const char *folder, const char *what, GpuCompileFn *compile, const char *source,
                                const char *options, const char *arch, const char *version, char **image,
                                size_t *size, char **log, char *err, size_t errlen);

/* The first of names that dlopen opens, else the newest match of pattern; its name in
 * opened (may be NULL). */
void *Gpu_openLibrary(const char *const *names, const char *pattern, char *opened, size_t openedlen);
/* "-DA=1 -DB=2" into argv-style options in buf, which it cuts up: their count, or -1 when
 * there are more than max. */
int Gpu_splitOptions(char *buf, const char **opts, int max);

/* Row-major C = op(A) op(B) is the column-major C^T = op(B)^T op(A)^T, which is what
 * cuBLAS and rocBLAS compute, so no data moves: B is their first operand, A the second. */
typedef struct GpuGemmCall_ {
   bool trans_first, trans_second;
   int m, n, k;
   int ld_first, ld_second, ld_c;
} GpuGemmCall;
GpuGemmCall Gpu_columnMajor(const BackendGemm *p);

#endif
