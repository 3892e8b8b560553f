/* The device interface: one struct of function pointers, one file per implementation
 * (backend_opencl.c, backend_cuda.c, backend_hip.c). The rest of gemmtop sees only this. */
#ifndef GEMMTOP_BACKEND_H
#define GEMMTOP_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"

typedef enum { DEVICE_GPU, DEVICE_CPU, DEVICE_ACCELERATOR, DEVICE_OTHER } DeviceType;

typedef struct DeviceInfo_ {
   int index;                 /* across all platforms of the backend */
   char name[128];
   char vendor[128];
   char platform[128];
   char driver[64];
   char arch[16];             /* "sm_90", "gfx906" when known, else "" */
   char version[128];         /* e.g. "OpenCL 3.0 CUDA" */
   DeviceType type;
   unsigned compute_units;
   unsigned clock_mhz;
   unsigned long long global_mem;
   unsigned long long max_alloc;
   DeviceLimits limits;
   bool limits_simulated;     /* GEMMTOP_DEVICE_LIMITS made them smaller */
} DeviceInfo;

typedef struct BuildInfo_ {
   char *log;                 /* compiler messages, malloc'ed (may be NULL) */
   double compile_ms;         /* wall time of the build (or of loading the cached binary) */
   bool cached_memory, cached_disk;
   int registers;             /* -1 when the backend can't tell */
   long long private_mem;     /* bytes per work-item (spills); -1 unknown */
   long long local_mem;       /* bytes per group as compiled; -1 unknown */
   size_t max_wg_for_kernel;  /* CL_KERNEL_WORK_GROUP_SIZE; 0 unknown */
} BuildInfo;

typedef enum { ARG_BUFFER, ARG_INT, ARG_REAL } ArgKind;
typedef struct KernelArg_ {
   ArgKind kind;
   struct Buffer_ *buffer;
   int i;
   double real;               /* passed as float or double per the precision */
} KernelArg;

typedef struct Context_ Context;   /* an open device */
typedef struct Program_ Program;   /* a built program */
typedef struct Kernel_ Kernel;     /* one entry point */
typedef struct Buffer_ Buffer;     /* device memory */
typedef struct Event_ Event;       /* a launched command, for timing */

typedef enum {
   BACKEND_OK = 0,
   BACKEND_ERR_NO_RUNTIME,        /* the runtime or any platform is absent */
   BACKEND_ERR_DEVICE,            /* bad index, can't open */
   BACKEND_ERR_COMPILE,           /* build failed: see log */
   BACKEND_ERR_OUT_OF_MEMORY,
   BACKEND_ERR_LAUNCH,
   BACKEND_ERR_TIMEOUT,           /* still running after the time allowed (finishWithin) */
   BACKEND_ERR_OTHER,
} BackendStatus;

typedef struct Backend_ {
   const char *name;  /* "opencl", "cuda", "hip" */
   const char *prelude; /* a prelude file in kernels/helpers/ put before prelude.h; NULL for none */
   /* Lists devices: returns the count (0 and a message when there are none). */
   int (*listDevices)(DeviceInfo **out, char *err, size_t errlen);
   Context *(*open)(int device, DeviceInfo *info, char *err, size_t errlen);
   void (*close)(Context *ctx);
   /* Builds source with options; program is NULL on failure (info->log says why). */
   BackendStatus (*build)(Context *ctx, const char *source, const char *options, Program **out, BuildInfo *info,
                          char *err, size_t errlen);
   Kernel *(*kernel)(Program *prog, const char *entry, BuildInfo *info, char *err, size_t errlen);
   void (*releaseKernel)(Kernel *k);
   void (*releaseProgram)(Program *p);
   BackendStatus (*alloc)(Context *ctx, size_t bytes, Buffer **out, char *err, size_t errlen);
   void (*free)(Buffer *b);
   BackendStatus (*write)(Context *ctx, Buffer *b, const void *host, size_t bytes, char *err, size_t errlen);
   BackendStatus (*read)(Context *ctx, Buffer *b, void *host, size_t bytes, char *err, size_t errlen);
   BackendStatus (*copy)(Context *ctx, Buffer *dst, Buffer *src, size_t bytes, char *err, size_t errlen);
   /* Enqueues a launch; with ev non-NULL returns an event for timing. Arguments of kind
    * ARG_REAL are passed in the given precision. */
   BackendStatus (*launch)(Context *ctx, Kernel *k, const KernelArg *args, int nargs, bool real_double, int dims,
                           const size_t *global, const size_t *local, Event **ev, char *err, size_t errlen);
   BackendStatus (*finish)(Context *ctx, char *err, size_t errlen);
   /* finish, giving up after timeout_ms: BACKEND_ERR_TIMEOUT when the work is still running.
    * A launch cannot be withdrawn (OpenCL has no way to stop one), so the context is then
    * unusable: nothing more may be enqueued, released or waited for on it. */
   BackendStatus (*finishWithin)(Context *ctx, double timeout_ms, char *err, size_t errlen);
   /* Device time of a finished event in milliseconds (waits for it). */
   double (*eventMs)(Event *ev);
   void (*releaseEvent)(Event *ev);
   /* The vendor library's GEMM (CLBlast, cuBLAS) on this context's buffers, row-major as
    * the problem says; one call, finished, its time in *ms (the whole call: a library may
    * launch several kernels). BACKEND_ERR_NO_RUNTIME when the library is absent; name
    * gets the library and its version. */
   /* The compiled code as text when the runtime gives it (NVIDIA's OpenCL: PTX); NULL
    * otherwise. kind names it ("PTX"). malloc'ed. */
   char *(*programCode)(Program *p, char *kind, size_t kindlen);
   BackendStatus (*vendorGemm)(Context *ctx, const Problem *p, Buffer *A, Buffer *B, Buffer *C, double *ms, char *name,
                               size_t namelen, char *err, size_t errlen);
} Backend;

const Backend *Backend_opencl(void);
const Backend *Backend_cuda(void);
const Backend *Backend_hip(void);
/* NVRTC alone, no GPU needed: CUBIN or PTX of source for arch ("sm_90"). */
BackendStatus Cuda_compileOnly(const char *source, const char *options, const char *arch, bool want_ptx, char **out,
                               size_t *outlen, char **log, char *err, size_t errlen);
/* By name ("opencl", "cuda", "hip"); NULL if unknown. */
const Backend *Backend_byName(const char *name);
const char *Backend_statusName(BackendStatus s);
const char *DeviceType_name(DeviceType t);

#endif
