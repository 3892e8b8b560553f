/* The device interface: one struct of function pointers and capabilities, one file per
 * implementation (backend_opencl.c, backend_cuda.c, backend_hip.c; gpu_common.c holds
 * what CUDA and HIP share), and one registry of them all (backend.c) that the rest of
 * gemmtop iterates instead of naming backends. The rest of gemmtop sees only this. */
#ifndef GEMMTOP_BACKEND_H
#define GEMMTOP_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend/device.h"
#include "backend/ptxas.h"
#include "base/types.h"

/* How the FP8 types' operands are scaled, as a vendor library is given them. */
typedef enum {
   BACKEND_SCALES_NONE,   /* a type without scales */
   BACKEND_SCALES_TENSOR, /* one FP32 scale for all of A, one for all of B */
   BACKEND_SCALES_BLOCK,  /* A: one per 1 x 128 slice of a row of op(A) along K; B: one per 128 x 128 block of op(B) */
} BackendScales;

/* A GEMM as a vendor library is asked for it (vendorGemm): C = alpha * op(A) * op(B) +
 * beta * C, row-major, the element type's (base/types.h). The engine's Problem says the
 * same; the backends know nothing of the engine. */
typedef struct BackendGemm_ {
   int m, n, k;
   Precision precision;
   bool trans_a, trans_b;
   double alpha, beta;
   /* The FP8 types' scales on the host, laid as core/model/scales.h lays them whatever the
    * operands' storage: one float each (tensor), or A's M x ceil(K/128) and B's
    * ceil(K/128) x ceil(N/128), row-major over op(A) and op(B) (block). A library that
    * keeps them on the device uploads them again when scales_generation changes (0: at
    * every call). */
   BackendScales scales;
   const float *scale_a, *scale_b;
   unsigned long scales_generation;
   bool c_bf16;               /* C written in bfloat16 instead of the type's C (beta 0; FP8 through cuBLASLt) */
} BackendGemm;

/* What one vendorGemm call gives back besides C. */
typedef struct BackendVendorCall_ {
   double ms;                 /* the whole call's device time, -1 when unknown */
   char name[64];             /* the library, its version and the call: "cuBLAS 13.1.0 GemmEx FAST_TF32" */
   char note[192];            /* how it multiplied where a reader needs to know (TF32's rounding, FP8's scales
                               * and the algorithm chosen), "" when nothing */
   bool fp8_accumulator;      /* it summed in the FP8 tensor core's accumulator (core/run/verify.h) */
   long long promote_interval; /* products between its promotions into FP32 (0: never) */
} BackendVendorCall;

typedef struct BuildInfo_ {
   char *log;                 /* compiler messages, malloc'ed (may be NULL) */
   double compile_ms;         /* wall time of the build (or of loading the cached binary) */
   bool cached_memory, cached_disk;
   int registers;             /* -1 when the backend can't tell */
   long long private_mem;     /* bytes per work-item (spills); -1 unknown */
   long long local_mem;       /* bytes per group as compiled; -1 unknown */
   size_t max_wg_for_kernel;  /* CL_KERNEL_WORK_GROUP_SIZE; 0 unknown */
} BuildInfo;

/* A TMA tensor map of a row-major matrix in a buffer (ARG_TENSOR_MAP): the backend encodes
 * it (CUDA: cuTensorMapEncodeTiled, 128 bytes) and passes it by value. */
typedef struct TensorMapSpec_ {
   int elem_bytes;            /* 1, 2 or 4 (the copy moves bits: no type conversion) */
   long long rows, cols;      /* as stored: cols contiguous */
   int box_rows, box_cols;    /* the box one copy moves, in elements */
   int swizzle;               /* bytes: 0 (none), 32, 64, 128 */
} TensorMapSpec;

typedef enum { ARG_BUFFER, ARG_INT, ARG_REAL, ARG_TENSOR_MAP } ArgKind;
typedef struct KernelArg_ {
   ArgKind kind;
   struct Buffer_ *buffer;    /* ARG_BUFFER, and the matrix of ARG_TENSOR_MAP */
   int i;
   double real;               /* passed as float or double per the precision */
   TensorMapSpec tmap;        /* ARG_TENSOR_MAP */
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
   BACKEND_ERR_UNSUPPORTED,       /* the library has no such operation (vendorGemm: no GEMM of that type) */
} BackendStatus;

/* What a backend can do beyond running kernels (Backend.caps). What depends on the device
 * (PoCL, inline PTX, tensor instructions) is in DeviceInfo instead. */
enum {
   BACKEND_CAP_CUDA_PRELUDE = 1u << 0, /* kernel files compile as CUDA C++, through helpers/prelude_cuda.h */
   BACKEND_CAP_REGISTERS = 1u << 1,    /* the runtime reports every kernel's registers (OpenCL: NVIDIA's build log) */
   BACKEND_CAP_ARCH_SPECIFIC = 1u << 2, /* compiles for sm_90a (wgmma, setmaxnreg) and passes TMA tensor maps
                                         * (ARG_TENSOR_MAP) */
   BACKEND_CAP_NVCC = 1u << 3,         /* its kernels, exported, are CUDA C++ that nvcc builds (export-kernel) */
};

/* ---- compiling for a GPU that is not here (Backend.offline) ---- */

/* What an offline compile is asked to list. */
typedef enum {
   OFFLINE_LIST_NONE,    /* resources only */
   OFFLINE_LIST_DEFAULT, /* the backend's usual listing: PTX, AMD ISA */
   OFFLINE_LIST_MACHINE, /* the machine code where it differs from the default (SASS), else the default */
   OFFLINE_LIST_ONLY,    /* the default listing alone, resources not needed (a device said them) */
} OfflineListing;

/* What an offline compile gave. Every field is set by compile (-1: not known); log and
 * code are malloc'ed (OfflineCode_free). */
typedef struct OfflineCode_ {
   char *log;               /* the compiler's messages, NULL if none */
   char *code;              /* the listing asked for, NULL when none */
   char code_kind[64];      /* "PTX", "SASS", "ISA" */
   char code_arch[32];      /* the target compiled for ("sm_90a"): the architecture asked for, or more */
   char arch[32];           /* the processor occupancy tables know it by ("sm_90", "gfx90a") */
   int registers;           /* per work-item */
   long long private_mem;   /* bytes per work-item (spills, scratch) */
   long long local_mem;     /* static shared / local bytes per group as compiled */
   PtxasInfo ptxas;         /* NVIDIA: ptxas's report (spills, stack) */
   char registers_from[64]; /* where registers came from, when not from the compiler's log */
   char resources[160];     /* what only this backend reports (AMD: VGPRs, SGPRs), or why nothing */
   char note[256];          /* why code is NULL though a listing was asked for */
   char warning[256];       /* what was listed instead of what was asked for */
   char compiler[48];       /* what compiled it where not the backend's own compiler ("nvcc"), else "" */
} OfflineCode;

void OfflineCode_free(OfflineCode *c);

/* A GPU the explorer offers to compile for (its inspect pane's T key). */
typedef struct OfflineTarget_ {
   const char *arch;           /* "sm_90" */
   const char *gpu;            /* "H100" */
} OfflineTarget;

typedef struct BackendOffline_ {
   const char *compiler;       /* "NVRTC", "hipRTC" */
   const char *arch_prefix;    /* of --arch: "sm_", "gfx" */
   const char *arch_example;   /* "sm_90", "gfx906" */
   const char *listings;       /* what it lists, for 'list devices': "PTX, SASS" */
   const char *limits_text;    /* the limits a configuration is checked against, in words */
   bool own_llvm;              /* it brings an LLVM of its own, which aborts a process that holds
                                * PoCL's ("Option ... registered more than once") */
   const OfflineTarget *targets; /* ended by {NULL} */
   /* Whether the compiler is installed here. */
   bool (*present)(void);
   /* A typical GPU of arch, as a device of this backend would describe itself: its limits,
    * architecture and vendor (classified: Device_classify). */
   void (*device)(const char *arch, DeviceInfo *out);
   /* Compiles source (the preludes joined) with options for arch, with the resources of
    * its function entry; on failure out->log and err say why, and nothing else in out is
    * set. */
   BackendStatus (*compile)(const char *source, const char *options, const char *arch, const char *entry,
                            OfflineListing want, OfflineCode *out, char *err, size_t errlen);
} BackendOffline;

typedef struct Backend_ {
   const char *name;           /* what --backend takes: "opencl", "cuda", "hip" */
   const char *alias;          /* another name --backend takes ("cl"), or NULL */
   const char *title;          /* in messages: "OpenCL", "CUDA", "HIP" */
   unsigned caps;              /* BACKEND_CAP_* */
   const char *vendor_library; /* what vendorGemm calls: "CLBlast", "cuBLAS and cuBLASLt", "rocBLAS" */
   /* Lists devices: returns the count; with none, 0 and in err what it found instead ("no
    * NVIDIA driver (libcuda.so.1 not found)"). Backend_listDevices says it to a user. */
   int (*findDevices)(DeviceInfo **out, char *err, size_t errlen);
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
   /* Device memory of bytes with guard bytes on each side, to catch a kernel's writes just
    * outside an operand: the buffer is the middle part, all that write, read, copy, free and
    * kernels see; guards() writes (write true) or reads the zones before and after it,
    * guard bytes each, waiting for the queue. guard: a multiple of 4096 (the strictest
    * alignment a device asks of a part of a buffer). */
   BackendStatus (*allocGuarded)(Context *ctx, size_t bytes, size_t guard, Buffer **out, char *err, size_t errlen);
   BackendStatus (*guards)(Context *ctx, Buffer *b, void *before, void *after, bool write, char *err, size_t errlen);
   /* Enqueues setting the first bytes of b (a multiple of 4) to word, repeated in the host's
    * byte order, on the device (no host copy: poisoning a large C costs nothing); NULL when
    * the backend cannot, BACKEND_ERR_UNSUPPORTED when the runtime lacks it: the caller
    * writes the bytes instead. */
   BackendStatus (*fill)(Context *ctx, Buffer *b, uint32_t word, size_t bytes, char *err, size_t errlen);
   /* Host memory the device copies to and from at full speed (CUDA: page-locked), freed with
    * hostFree; NULL (either function) when the backend has none, or it returns NULL: the
    * caller takes malloc's. */
   void *(*hostAlloc)(Context *ctx, size_t bytes);
   void (*hostFree)(Context *ctx, void *host);
   /* Enqueues a launch; with ev non-NULL returns an event for timing. Arguments of kind
    * ARG_REAL are passed in the given precision. */
   BackendStatus (*launch)(Context *ctx, Kernel *k, const KernelArg *args, int nargs, bool real_double, int dims,
                           const size_t *global, const size_t *local, Event **ev, char *err, size_t errlen);
   /* Dynamic shared memory for k's launches from now on (bytes; CUDA raises the kernel's
    * limit past 48 KiB); NULL when the backend has none. */
   BackendStatus (*setDynamicShared)(Kernel *k, size_t bytes, char *err, size_t errlen);
   BackendStatus (*finish)(Context *ctx, char *err, size_t errlen);
   /* finish, giving up after timeout_ms: BACKEND_ERR_TIMEOUT when the work is still running.
    * A launch cannot be withdrawn (OpenCL has no way to stop one), so the context is then
    * unusable: nothing more may be enqueued, released or waited for on it. */
   BackendStatus (*finishWithin)(Context *ctx, double timeout_ms, char *err, size_t errlen);
   /* Device time of a finished event in milliseconds (waits for it). */
   double (*eventMs)(Event *ev);
   void (*releaseEvent)(Event *ev);
   /* The compiled code as text when the runtime gives it (NVIDIA's OpenCL: PTX; PoCL: CPU
    * code; HIP: ISA); NULL otherwise, or NULL itself. kind names it ("PTX"). malloc'ed. */
   char *(*programCode)(Program *p, char *kind, size_t kindlen);
   /* The vendor library's GEMM (CLBlast, cuBLAS, cuBLASLt, rocBLAS) on this context's
    * buffers, row-major as the problem says; one call, finished, its time in out->ms (the
    * whole call: a library may launch several kernels), its name and note in out.
    * BACKEND_ERR_NO_RUNTIME when the library is absent, BACKEND_ERR_UNSUPPORTED when it
    * has no GEMM of the problem's type, scales or layout (err says which). */
   BackendStatus (*vendorGemm)(Context *ctx, const BackendGemm *p, Buffer *A, Buffer *B, Buffer *C,
                               BackendVendorCall *out, char *err, size_t errlen);
   /* Whether the vendor library multiplies type p only with op(A) stored M x K and op(B)
    * stored N x K, K contiguous in both (cuBLASLt's FP8 GEMM: "TN" in its column-major
    * terms, gemmtop's layout NT); the engine then hands it such copies. NULL: any layout. */
   bool (*vendorKMajor)(Precision p);
   /* Registers, private (spill) and static shared bytes of entry in PTX text, as this
    * backend's runtime compiles it for its first device (CUDA: the driver loads the PTX);
    * for code another runtime built without saying them (NVIDIA's OpenCL, when its own JIT
    * cache answered and left no build log). Sets info->registers, private_mem, local_mem.
    * NULL when the backend cannot. */
   BackendStatus (*ptxResources)(const char *ptx, const char *entry, BuildInfo *info, char *err, size_t errlen);
   /* Compiling for a named architecture without a device (--arch; the explorer's offline
    * inspect targets); NULL when the backend cannot. On a device whose program is not text
    * (CUDA keeps CUBIN), the listing comes this way too. */
   const BackendOffline *offline;
} Backend;

/* Whether be has every capability in cap. */
static inline bool Backend_can(const Backend *be, unsigned cap) { return (be->caps & cap) == cap; }

/* Each backend's own table; the rest of gemmtop goes through the registry below. */
const Backend *Backend_opencl(void);
const Backend *Backend_cuda(void);
const Backend *Backend_hip(void);
/* The registry: every backend, in the order a default device is looked for (the first
 * backend with a GPU, else the first backend's devices). */
int Backend_count(void);
const Backend *Backend_at(int i);
/* By name or alias, in any case ("opencl" or "cl", "cuda", "hip"); NULL if unknown. */
const Backend *Backend_byName(const char *name);
/* "opencl, cuda, hip": for messages that say what --backend takes. */
void Backend_names(char *out, size_t len);
/* findDevices, with a message for a user when there is none: the backend, what it found,
 * and what to do instead ("HIP backend: ...; run with --backend opencl, or ..."). */
int Backend_listDevices(const Backend *be, DeviceInfo **out, char *err, size_t errlen);
/* What it can do, in words, for 'list devices': "compiles for sm_ architectures without a GPU
 * (PTX, SASS), kernels as CUDA C++, reports registers, vendor GEMM cuBLAS". */
void Backend_describeCaps(const Backend *be, char *out, size_t len);
const char *Backend_statusName(BackendStatus s);

#endif
