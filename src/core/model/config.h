/* One configuration: a kernel variant, its parameter values, the problem and the device's
 * limits. Checks every constraint before compiling and derives the launch geometry. */
#ifndef GEMMTOP_CONFIG_H
#define GEMMTOP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/device.h" /* DeviceLimits */
#include "core/model/catalog.h"
#include "core/model/problem.h"

/* The most work-groups launched in one dimension (the grid limit of CUDA and HIP; PoCL
 * aborts on a launch of 2^59 groups). A launch past it is refused with this reason before
 * it reaches a device. */
#define CONFIG_MAX_GROUPS 2147483647LL

typedef struct Geometry_ {
   int dims;
   size_t global[3];
   size_t local[3];
   long long localmem;        /* bytes per group, from the metadata */
   int m, n, k;               /* the sizes the kernel runs on (rounded up when it pads) */
   bool pad;                  /* m, n or k differ from the problem's */
   bool pad_a, pad_b, pad_c;  /* ... those of A (m, k), of B (k, n), of C (m, n): the copies it takes */
   bool trans_a, trans_b;     /* storage the kernel reads */
   long long dynamic_smem;    /* bytes of dynamic shared memory per group (`dynamic_smem:`) */
   int ntma;                  /* tensor maps, from `tma:` */
   struct {
      char operand;           /* 'A' or 'B' */
      int box[2];             /* inner (contiguous), outer: elements */
      int swizzle;            /* 0, 32, 64, 128 bytes */
   } tma[KERNEL_MAX_TMA];
   bool tensor_ptx;           /* GT_TENSOR_PTX=1: a `tensor: yes` kernel where PTX tensor instructions run */
   bool cpu;                  /* GT_CPU=1: compiled for a CPU (DeviceLimits.cpu) */
   bool fp8_accumulator;      /* the products are summed in the FP8 tensor core's accumulator
                               * (`accumulate:`, where the PTX runs; the emulation sums in FP32) */
   long long promote_interval; /* products between its promotions into FP32; 0: never */
   bool emulated;             /* a `tensor: yes` kernel without them: the portable emulation runs, whose
                               * times are not a tensor core's (never compared, ranked or put against a peak) */
   bool has_workspace;        /* the kernel takes a workspace argument (`workspace:`) */
   long long workspace;       /* its bytes for this configuration (0: an argument all the same) */
   unsigned cus;              /* the compute units a persistent launch counts on, given to the kernel as
                               * -DCUS=; 0 when no launch expression names CUS */
   long long work;            /* items a persistent grid shares out (`work:`); 0: one per work-group */
   long long band;            /* tile rows per band of the grid's tile order (`band:`); 0: not one */
   long long band_unit;       /* tiles one above the other the band walks as one (`unit:`); 1 unless named */
   bool staggered;            /* its blocks stand at different K steps from the start (`staggered:`) */
   int fixup_dims;            /* the fix-up launch (`fixup:`); 0 when there is none for this configuration */
   size_t fixup_global[3];
   size_t fixup_local[3];
} Geometry;

/* The operand that tensor map i of g reads, as stored: rows x cols, cols contiguous (A is
 * M x K, K x M transposed; B is K x N, N x K transposed). */
void Config_tmaShape(const Geometry *g, int i, long long *rows, long long *cols);

/* Checks everything; fills geo when it passes. On failure, msg names the broken rule,
 * the values involved, and the values of each parameter that would be valid; with msglen
 * 0 (msg may be NULL) it only answers, which is much quicker. */
bool Config_check(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                  Geometry *geo, char *msg, size_t msglen);

/* For each value of parameter pi, whether the configuration with that value passes. */
void Config_validValues(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                        int pi, bool *valid);

/* Compiler options: "-DTS=16 -DWPT=4 -DTRANSA=0 -DTRANSB=0 -DDOUBLE=0", then -DGT_TF32=1,
 * -DGT_HALF=1 or -DGT_BF16=1 for those types, -DGT_TENSOR_PTX=1 and -DGT_CPU=1 when geo says so. */
void Config_defines(const KernelInfo *k, const long long *values, const Problem *p, const Geometry *geo, char *out,
                    size_t outlen);

/* Whether k can be compiled and run for target: a kernel with `arch: sm_90a`, tensor maps or
 * dynamic shared memory needs a backend that has them, and sm_90a a device of compute
 * capability 9.0. false with the reason, and what would work, in msg. */
typedef struct ConfigTarget_ {
   const char *backend;  /* its title: "OpenCL", "CUDA", "HIP" */
   bool arch_specific;   /* the backend compiles for sm_90a and launches with tensor maps */
   bool dynamic_smem;    /* the backend launches with dynamic shared memory (DeviceLimits.dynamic_smem) */
   const char *arch;     /* the device's or --arch's: "sm_90", "sm_90a", "gfx906"; "" unknown */
   bool is_pocl;
   bool nvidia;
   bool amd;             /* an AMD GPU (HIP, AMD's OpenCL, or --arch gfxNNN offline) */
} ConfigTarget;
/* Whether k runs its tensor instructions as PTX for p's type on a device of these limits
 * (NVIDIA, inline PTX, a compute capability the type's MMA exists on: FP8 from sm_89);
 * otherwise a tensor kernel runs its emulation. */
bool Config_tensorPtx(const KernelInfo *k, const DeviceLimits *lim, Precision p);
bool Config_targetOk(const KernelInfo *k, const ConfigTarget *t, char *msg, size_t msglen);

/* Evaluates one of the kernel's expressions (`reuse:`, ...) with the names the rules see;
 * false with msg naming the expression when it cannot. */
bool Config_eval(const KernelInfo *k, const long long *values, const Problem *p, const DeviceLimits *lim,
                 const char *expr, long long *out, char *msg, size_t msglen);

/* Parses "NAME=VALUE" into values; message names valid names/values on failure. */
bool Config_setParam(const KernelInfo *k, long long *values, const char *assignment, char *msg, size_t msglen);

#endif
