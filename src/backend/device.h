/* A device as the backends describe it: its names, limits and the properties the rest of
 * gemmtop asks about (who made it, whether it is PoCL, whether it runs inline PTX), so
 * that nothing above the backend layer reads a platform or vendor string. Also the one
 * place a device is chosen from what a user types (--device). No catalog here: core's
 * config.h includes this for DeviceLimits. */
#ifndef GEMMTOP_DEVICE_H
#define GEMMTOP_DEVICE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { DEVICE_GPU, DEVICE_CPU, DEVICE_ACCELERATOR, DEVICE_OTHER } DeviceType;

/* Who made the device (for a CPU device under PoCL: the processor's maker). */
typedef enum { VENDOR_OTHER, VENDOR_NVIDIA, VENDOR_AMD, VENDOR_INTEL } VendorKind;

typedef struct DeviceLimits_ {
   size_t max_wg;             /* work-items per group */
   size_t max_wi[3];          /* per dimension */
   unsigned long long local_mem; /* bytes per group */
   unsigned long long local_mem_optin; /* with dynamic shared memory (CUDA's opt-in maximum); 0: local_mem */
   bool dynamic_smem;         /* the backend launches with dynamic shared memory (CUDA, whose
                               * setDynamicShared gives it): a kernel may hold its tiles there
                               * instead of in static local memory */
   bool fp64;
   int warp;                  /* SIMD width when known, else 32 */
   bool tensor_ptx;           /* a tensor kernel gets GT_TENSOR_PTX=1: DeviceInfo.tensor_ptx, unless
                               * GEMMTOP_DEVICE_LIMITS=tensor_ptx=0 took it away (configurations are
                               * checked against the limits alone) */
   int tensor_sm;             /* with tensor_ptx: the compute capability times 10 (90 for sm_90), which
                               * decides the types whose instructions exist (FP8 from 89) */
   bool cpu;                  /* the device is a CPU (PoCL): kernels get GT_CPU=1 and unroll as a CPU
                               * compiler wants (kernels/helpers/prelude.h, GT_UNROLL) */
   unsigned compute_units;    /* DeviceInfo.compute_units (a persistent kernel launches a group or a few
                               * per unit); 0 when not known */
} DeviceLimits;

typedef struct DeviceInfo_ {
   int index;                 /* across all platforms of the backend */
   char name[128];
   char vendor[128];
   char platform[128];
   char driver[64];
   char arch[16];             /* "sm_90", "gfx906" when known, else "" */
   char version[128];         /* e.g. "OpenCL 3.0 CUDA" */
   /* Who builds the kernels where it is not the runtime's own compiler: "nvcc" when
    * GEMMTOP_CUDA_COMPILER has it build them instead of NVRTC (from one source the two have
    * made code up to 15% apart on an H200); "" otherwise. Part of a sweep's key. */
   char compiler[16];
   DeviceType type;
   unsigned compute_units;
   unsigned clock_mhz;
   unsigned long long global_mem;
   unsigned long long max_alloc;
   unsigned long long l2_bytes; /* last-level cache before global memory (cold-L2 timing); 0 unknown */
   char pci_bus_id[32];       /* "0000:65:00.0" when the runtime says (the observers match the device by it) */
   DeviceLimits limits;
   bool limits_simulated;     /* GEMMTOP_DEVICE_LIMITS made them smaller */
   /* Properties, set by Device_classify from what the backend filled in above: */
   VendorKind vendor_kind;
   bool is_pocl;              /* PoCL's OpenCL (a CPU, or PoCL's own GPU drivers) */
   bool inline_ptx;           /* its compiler takes inline PTX: CUDA, and NVIDIA's own OpenCL (the backend sets it) */
   bool tensor_ptx;           /* inline PTX tensor instructions (mma.sync): inline_ptx on sm_80 or newer */
} DeviceInfo;

const char *DeviceType_name(DeviceType t);
const char *VendorKind_name(VendorKind v);

/* Sets vendor_kind, is_pocl and tensor_ptx from the names, platform, arch and inline_ptx;
 * every backend calls it on each device it describes. */
void Device_classify(DeviceInfo *d);

/* The device a user means among devs: NULL for the best one (a GPU, else an accelerator,
 * else a CPU); an index ("0"); a kind ("pocl", "nvidia", "amd", "intel", "cpu", "gpu"),
 * the best of that kind; else the first whose name or platform contains want, in any
 * case ("Portable Computing Language"). If none: -1, and a message that lists the
 * devices and the kinds. */
int Device_pick(const DeviceInfo *devs, int count, const char *want, char *err, size_t errlen);
/* Whether word is a kind --device takes ("pocl", "gpu", ...), and all of them as a list
 * ("pocl, nvidia, amd, intel, cpu, gpu"): the one list, here. */
bool Device_isKind(const char *word);
void Device_kindNames(char *out, size_t len);
/* The kinds the device is of, as --device takes them: "pocl, amd, cpu". */
void Device_kinds(const DeviceInfo *d, char *out, size_t len);

#endif
