/* What the compiler made of one configuration: its resources (registers, spills or
 * private memory, local memory per work-group), an occupancy estimate with the resource
 * that limits it, the compiled code with its instruction counts, and the kernel after the
 * preprocessor. On an open device (any backend), or without a device through NVRTC
 * (cuda, sm_XX) or hipRTC (hip, gfxNNN). `gemmtop inspect` and the explorer's inspect
 * pane both read it from here. */
#ifndef GEMMTOP_INSPECT_H
#define GEMMTOP_INSPECT_H

#include <stdbool.h>

#include "core/model/catalog.h"
#include "core/run/listing.h"
#include "core/analyse/occupancy.h"
#include "backend/ptxas.h"
#include "core/run/session.h"

typedef enum {
   INSPECT_CODE_DEFAULT = 0, /* the device's code: PTX on CUDA, AMD ISA on HIP, what OpenCL gives */
   INSPECT_CODE_SASS,        /* CUDA: SASS through cuobjdump (PTX when it is not installed) */
   INSPECT_CODE_NONE,        /* resources only: no disassembler's time */
} InspectCode;

typedef struct InspectRequest_ {
   const Catalog *catalog;   /* its preludes go in front of the kernel */
   const KernelInfo *kernel;
   const long long *values;
   const Problem *problem;
   unsigned ablate;          /* AblateFlag bits: the code of the ablated kernel, as a run compiles it */
   InspectCode code;
   bool source;              /* also the kernel after the preprocessor */
   unsigned compute_units;   /* offline: the multiprocessors of the device meant (CUS); 0: the arch's own */
} InspectRequest;

typedef struct Inspection_ {
   bool ok;                  /* compiled: the fields below mean something */
   char message[1536];       /* why not */
   char *build_log;          /* the compiler's messages (owned), NULL if none */
   char target[96];          /* "cuda sm_90 (NVRTC, no device needed)", "opencl <device>" */
   char arch[32];            /* "sm_90", "gfx906" (the processor only), "" unknown */
   char code_arch[32];       /* the target the listing was compiled for offline ("sm_90a", "gfx90a:xnack-"); "" when arch says it */
   int registers;            /* per work-item, -1 not reported */
   long long private_mem;    /* spills / private memory per work-item, bytes, -1 not reported */
   long long local_mem;      /* shared / local memory per work-group, bytes */
   long long group_items;    /* work-items per work-group */
   Geometry geo;             /* offline: the launch, as checked against that kind of GPU's limits */
   PtxasInfo ptxas;          /* spills and stack, from NVIDIA's verbose build log */
   char registers_from[64];  /* where registers came from when not the build: "ptxas on the PTX", "" */
   char resources[160];      /* what only this backend reports (HIP: VGPRs, SGPRs, spills) */
   Occupancy occ;
   bool assembly;            /* code holds compiled code */
   char code_kind[64];       /* "PTX", "SASS", "ISA", "CPU code (PoCL, group 32x32x1)" */
   char *code;               /* owned; NULL when none is readable (or none was asked for) */
   ListingStats stats;       /* counted from code */
   bool have_real;           /* an ablated kernel's: the real kernel's code was counted too */
   ListingStats real_stats;  /* ... into here (Ablate_loopKept compares them) */
   char note[256];           /* why there is no code */
   char warning[256];        /* what was given instead of what was asked for */
   char source_kind[128];    /* "OpenCL C after the preprocessor" */
   char *source;             /* the kernel as the compiler reads it (owned), when asked for */
} Inspection;

/* On an open device: the program as a run compiles it (the memory or disk cache, so no
 * second compile); on CUDA the code comes from NVRTC with the same defines, for the
 * device's architecture. Returns RUN_OK, or why not (message, build_log). */
RunStatus Inspect_onDevice(Session *s, const InspectRequest *rq, Inspection *out);

/* Without a device, on a backend that can (Backend.offline: NVRTC for sm_XX, hipRTC for
 * gfxNNN), checked against the limits of that kind of GPU. Returns RUN_OK, RUN_INVALID when the limits or the backend refuse it, or
 * RUN_COMPILE_ERROR (message, build_log). */
RunStatus Inspect_offline(const Backend *be, const char *arch, const InspectRequest *rq, Inspection *out);

void Inspection_free(Inspection *in);

/* Its name as a child of this program (base/children.h): `gemmtop __inspect-child`. */
#define INSPECT_CHILD "inspect"

/* Inspect_offline in a child process of this program (INSPECT_CHILD), for a
 * process where it cannot run: hipRTC's LLVM beside PoCL's aborts the process. The
 * catalog is loaded again from kernels_dir there. Same result as Inspect_offline, or
 * RUN_DEVICE_ERROR with a message when the child could not be run. (core/analyse/inspectchild.c) */
RunStatus Inspect_offlineApart(const char *kernels_dir, const char *backend, const char *arch,
                               const InspectRequest *rq, Inspection *out);
/* The child's side: reads the request on stdin, answers on stdout; the exit code. */
int Inspect_childMain(void);

#endif
