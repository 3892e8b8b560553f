/* The kernel catalog: every variant in kernels/, with its metadata (docs/kernel-guide.md). */
#ifndef GEMMTOP_CATALOG_H
#define GEMMTOP_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model/problem.h"

#define KERNEL_MAX_PARAMS 20
#define KERNEL_MAX_VALUES 32
#define KERNEL_MAX_RULES 24
#define KERNEL_MAX_SITES 16
#define CATALOG_MAX_FOLDERS 8
#define KERNEL_MAX_TMA 2

/* `tma: A box=INNER,OUTER swizzle=BYTES`: the operand gets a TMA tensor map (CUDA's
 * cuTensorMapEncodeTiled), passed after the usual arguments; INNER and OUTER are the box
 * in elements (INNER along the stored rows), BYTES 0, 32, 64 or 128 (expressions). */
typedef struct KernelTma_ {
   char operand;      /* 'A' or 'B' */
   char box[2][128];  /* inner, outer */
   char swizzle[128];
} KernelTma;

typedef struct KernelParam_ {
   char name[32];
   long long values[KERNEL_MAX_VALUES];
   int nvalues;
   long long def;
   char description[128];
} KernelParam;

typedef struct KernelRule_ {
   char expr[256];
   char message[192];
} KernelRule;

typedef struct KernelInfo_ {
   char name[64];
   char title[128];
   char ladder[32];
   int step;
   char about[2048];
   char path[512];
   char *source; /* whole file text, owned */
   KernelParam params[KERNEL_MAX_PARAMS];
   int nparams;
   KernelRule rules[KERNEL_MAX_RULES];
   int nrules;
   int dims;
   char global[3][128];
   char local[3][128];
   char localmem[256];
   bool operands_any;     /* the kernel handles TRANSA/TRANSB itself */
   bool a_trans, b_trans; /* otherwise: the storage it reads */
   bool has_pad;
   char pad[3][128]; /* M, N, K multiples */
   char entry[64];
   char sites[KERNEL_MAX_SITES][48];
   int nsites;
   bool hidden;
   char arch[16];           /* `arch: sm_90a`: compiled for that target only (wgmma, TMA); "" any */
   char dynamic_smem[256];  /* `dynamic_smem:` bytes of dynamic shared memory per group ("0") */
   KernelTma tma[KERNEL_MAX_TMA];
   int ntma;
   unsigned precisions;   /* PRECISION_BIT()s of the element types it takes (`precisions:`);
                           * float and double when the key is absent */
   bool tensor;           /* `tensor: yes`: it uses the tensor-core helpers (GT_TENSOR_PTX) */
   /* `accumulate: fp8-tensor-core EXPR`: its products are summed in the FP8 tensor core's
    * accumulator, added into FP32 every EXPR products (0: never); "" for FP32 throughout. */
   char accumulate[128];
   bool tune;             /* `tune: yes`: a candidate of gemmtop tune (a suite's own list replaces them) */
   bool gpu_run;          /* false for `gpu_run: no`: written and compiled offline, not yet run on
                           * a GPU (the lists say so); true when the key is absent */
   /* The access-count model (`reuse:`, `local_reuse:`): how many multiply-adds each element
    * of A and of B serves per load from global (local) memory; expressions, "" when not
    * given (core/analyse/traffic.h turns them into loads per multiply-add). */
   char reuse[2][128];
   char local_reuse[2][128];
   /* `bound: memory`: written to stream an operand at the memory's speed (a decode GEMM
    * reads its weight once): its runs are also put against the measured copy bandwidth. */
   bool memory_bound;
   /* `workspace:` bytes of a scratch buffer passed after C (and the FP8 scales): where
    * split-K and stream-K keep partial sums. "" when the kernel takes none. */
   char workspace[256];
   /* `fixup: ENTRY`, `fixup_global:`, `fixup_local:`: a second entry of the same source,
    * launched after the GEMM with the same arguments (less a trace buffer and tensor maps)
    * to finish C from the workspace; its time is the GEMM's. A global size of 0 in any
    * dimension skips it for that configuration. "" when none. */
   char fixup_entry[64];
   /* `work:` how many equal items of work a persistent grid shares out among its work-groups
    * (tiles; tiles times K steps for stream-K): the waves then count the items, not the
    * groups. "" for a grid of one item per work-group. */
   char work[128];
   /* `band:` the order of a grid's BM x BN tiles (`reuse:` A=BN B=BM), its work-groups
    * numbered x fastest: BAND tile rows at a time, column by column inside a band (the Hopper
    * steps' and the warp-tile steps' GROUP; 1: row by row). Only the limiter's DRAM reads use
    * it; "" (or 0 for a configuration) when the grid is not one. */
   char band[128];
   /* `unit:` tiles one above the other that the `band:` order walks as one (a cluster of
    * blocks that share their B tile through TMA multicast: each takes its rank's tile).
    * Only the limiter's DRAM reads use it; "" for 1, 0 for a configuration whose unit is
    * another shape (side by side). */
   char unit[128];
   /* `staggered:` nonzero for a configuration whose blocks stand at different K steps from
    * the start (stream-K's pieces): their TMA requests for a line do not arrive together,
    * so the L2 answers each one. Only the limiter's L2 share uses it; "" never. */
   char staggered[128];
   char fixup_global[3][128];
   char fixup_local[3][128];
   int fixup_dims;
} KernelInfo;

typedef struct Catalog_ {
   KernelInfo *kernels;
   int count;
   char dir[512];      /* the folders, as given: "a" or "a:b" */
   char *prelude;  /* kernels/helpers/prelude.h, then types.h, tensor.h and schedule.h */
   char *prelude_cuda; /* kernels/helpers/prelude_cuda.h: OpenCL C built-ins for NVRTC/hipRTC */
   char *helpers;  /* kernels/helpers/helpers.cl: transpose and padding kernels */
   char *peak;     /* kernels/helpers/peak.cl: micro-kernels for the device's peaks */
   char *verify;   /* kernels/helpers/verify.cl: C's side of the verification, on the device */
   char warnings[2048]; /* files that could not be read, one per line */
   char notes[2048];    /* kernels of a later folder that replace an earlier one's, one per line */
} Catalog;

/* Reads every .cl file of each folder of dirs ("a" or "a:b:c", at most CATALOG_MAX_FOLDERS),
 * sorted by ladder, step, name, and the helpers/ of the first folder that has them. Files
 * are read in name order. A kernel of a later folder replaces an earlier folder's kernel of
 * the same name (the user's own override the shipped ones), named in notes; a second file
 * with a taken name in the same folder, and files with bad metadata, are skipped and named
 * in warnings. Fails only if a folder can't be read at all or no folder has the helpers. */
bool Catalog_load(Catalog *c, const char *dirs, char *err, size_t errlen);
void Catalog_free(Catalog *c);
const KernelInfo *Catalog_find(const Catalog *c, const char *name);

/* The kernel folders: $GEMMTOP_KERNELS (one folder or a colon-separated list), else the one
 * next to the executable (build tree or PREFIX/share/gemmtop/kernels); then the user's own,
 * $XDG_CONFIG_HOME/gemmtop/kernels, when it exists. False when none is found or the list
 * does not fit in outlen. */
bool Catalog_defaultDir(char *out, size_t outlen);

/* Parses the metadata of one kernel source (text is copied). For tests and Catalog_load. */
bool KernelInfo_parse(KernelInfo *k, const char *text, const char *filename, char *err, size_t errlen);
void KernelInfo_free(KernelInfo *k);

int KernelInfo_paramIndex(const KernelInfo *k, const char *name);
/* Fills values[] with each parameter's default. */
void KernelInfo_defaults(const KernelInfo *k, long long *values);
/* "TS=16 WPT=4" */
void KernelInfo_formatParams(const KernelInfo *k, const long long *values, char *out, size_t outlen);
/* The index of v among p's allowed values, or -1. */
int KernelParam_valueIndex(const KernelParam *p, long long v);
/* Its name without its ladder's ("tiled" for "sgemm_tiled" on the ladder "sgemm"). */
const char *KernelInfo_shortName(const KernelInfo *k);
/* The kernel file's text as 16 hex digits (FNV-1a 64): which version of a kernel a
 * stored result was measured with. */
void KernelInfo_hash(const KernelInfo *k, char out[17]);

#endif
