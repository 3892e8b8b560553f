/* Occupancy estimate: how many work-groups fit on one multiprocessor (NVIDIA SM) or
 * compute unit (AMD CU) given a kernel's registers, shared memory and group size, and
 * which resource limits it. A pure function over published per-architecture limits. */
#ifndef GEMMTOP_OCCUPANCY_H
#define GEMMTOP_OCCUPANCY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ArchLimits_ {
   const char *arch;          /* "sm_90", "gfx906" */
   int simd_width;            /* 32 (warp) or 64 (wavefront) */
   int regs_per_unit;         /* 32-bit registers per SM; AMD: VGPRs per lane per SIMD */
   int reg_granule;           /* allocation unit: registers per warp (NVIDIA) / VGPRs per lane (AMD) */
   int max_regs_per_item;
   int max_items_per_unit;    /* threads per SM; AMD: waves per SIMD x 64 x SIMDs */
   int max_groups_per_unit;
   int local_per_unit;        /* bytes of shared memory / LDS per SM or CU */
   int local_reserved;        /* bytes the runtime reserves per group */
   int simds;                 /* AMD: SIMDs per CU; NVIDIA: 1 */
   int max_waves_per_simd;    /* AMD only */
   const char *source;        /* where the figures come from */
} ArchLimits;

typedef struct Occupancy_ {
   bool known;
   int groups;                /* work-groups per SM/CU */
   int by_registers, by_local, by_items, by_groups;
   int waves;                 /* warps/wavefronts resident per SM/CU */
   int max_waves;
   double fraction;           /* waves / max_waves */
   const char *limited_by;    /* "registers", "local memory", "work-items", "group slots" */
} Occupancy;

/* NULL when the architecture is not in the table. */
const ArchLimits *Occupancy_arch(const char *arch);
/* registers per work-item, local memory bytes per group, work-items per group. */
Occupancy Occupancy_estimate(const ArchLimits *a, int registers, long long local_bytes, long long group_items);
/* "sm_80, sm_90, gfx906, ..." */
void Occupancy_listArchs(char *out, size_t outlen);

#endif
