#include "core/analyse/occupancy.h"

#include <stdio.h>
#include <string.h>

/* NVIDIA: CUDA C Programming Guide, "Compute Capabilities" table (registers per SM, threads
 * and blocks per SM, shared memory per SM, 1 KiB reserved per block from sm_80), register
 * allocation per warp in units of 256. AMD: the GCN/CDNA ISA guides and the CDNA2 (MI200)
 * whitepaper (4 SIMDs per CU, 256 VGPRs per lane on gfx906 and 512 on gfx90a with AGPRs,
 * granule 4 / 8, 10 / 8 waves per SIMD, 64 KiB LDS per CU). */
static const ArchLimits archs[] = {
    {"sm_70", 32, 65536, 256, 255, 2048, 32, 98304, 0, 1, 0, "CUDA Programming Guide, compute capability 7.0"},
    {"sm_75", 32, 65536, 256, 255, 1024, 16, 65536, 0, 1, 0, "CUDA Programming Guide, compute capability 7.5"},
    {"sm_80", 32, 65536, 256, 255, 2048, 32, 167936, 1024, 1, 0, "CUDA Programming Guide, compute capability 8.0"},
    {"sm_86", 32, 65536, 256, 255, 1536, 16, 102400, 1024, 1, 0, "CUDA Programming Guide, compute capability 8.6"},
    {"sm_89", 32, 65536, 256, 255, 1536, 24, 102400, 1024, 1, 0, "CUDA Programming Guide, compute capability 8.9"},
    {"sm_90", 32, 65536, 256, 255, 2048, 32, 233472, 1024, 1, 0, "CUDA Programming Guide, compute capability 9.0"},
    {"gfx906", 64, 256, 4, 256, 2560, 40, 65536, 0, 4, 10, "AMD Vega ISA guide (GCN5): 4 SIMDs x 10 waves, 256 VGPRs"},
    {"gfx90a", 64, 512, 8, 512, 2048, 32, 65536, 0, 4, 8, "AMD CDNA2 ISA guide: 4 SIMDs x 8 waves, 512 VGPRs+AGPRs"},
};

const ArchLimits *Occupancy_arch(const char *arch) {
   /* sm_90a is sm_90 with its architecture-specific instructions (wgmma, setmaxnreg): the
    * same multiprocessor. */
   const size_t n = strlen(arch);
   const bool specific = n > 3 && !strncmp(arch, "sm_", 3) && arch[n - 1] == 'a';
   for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
      if (!strcmp(archs[i].arch, arch) ||
          (specific && strlen(archs[i].arch) == n - 1 && !strncmp(archs[i].arch, arch, n - 1)))
         return &archs[i];
   return NULL;
}

void Occupancy_listArchs(char *out, size_t outlen) {
   out[0] = '\0';
   for (size_t i = 0; i < sizeof archs / sizeof archs[0]; i++)
      snprintf(out + strlen(out), outlen - strlen(out), "%s%s", i ? ", " : "", archs[i].arch);
}

static int roundUp(int v, int m) { return (v + m - 1) / m * m; }

Occupancy Occupancy_estimate(const ArchLimits *a, int registers, long long local_bytes, long long group_items) {
   Occupancy o;
   memset(&o, 0, sizeof o);
   o.limited_by = "unknown";
   if (!a || group_items < 1 || registers < 0)
      return o;
   int waves_per_group = (int)((group_items + a->simd_width - 1) / a->simd_width);
   if (a->simds == 1) {
      /* NVIDIA: registers are allocated per warp. */
      int per_warp = roundUp((registers > 0 ? registers : 1) * a->simd_width, a->reg_granule);
      int warps_by_regs = a->regs_per_unit / per_warp;
      o.by_registers = registers > a->max_regs_per_item ? 0 : warps_by_regs / waves_per_group;
      o.max_waves = a->max_items_per_unit / a->simd_width;
   } else {
      /* AMD: VGPRs per lane on each SIMD; a group's waves spread over the SIMDs. */
      int vgprs = roundUp(registers > 0 ? registers : 1, a->reg_granule);
      int waves_per_simd = a->regs_per_unit / vgprs;
      if (waves_per_simd > a->max_waves_per_simd)
         waves_per_simd = a->max_waves_per_simd;
      o.by_registers = registers > a->max_regs_per_item ? 0 : waves_per_simd * a->simds / waves_per_group;
      o.max_waves = a->max_waves_per_simd * a->simds;
   }
   long long need = local_bytes + a->local_reserved;
   o.by_local = need > 0 ? (int)(a->local_per_unit / need) : a->max_groups_per_unit;
   o.by_items = (int)(a->max_items_per_unit / (waves_per_group * a->simd_width));
   o.by_groups = a->max_groups_per_unit;
   o.groups = o.by_registers;
   o.limited_by = "registers";
   if (o.by_local < o.groups) {
      o.groups = o.by_local;
      o.limited_by = "local memory";
   }
   if (o.by_items < o.groups) {
      o.groups = o.by_items;
      o.limited_by = "work-items";
   }
   if (o.by_groups < o.groups) {
      o.groups = o.by_groups;
      o.limited_by = "group slots";
   }
   o.waves = o.groups * waves_per_group;
   if (o.waves > o.max_waves)
      o.waves = o.max_waves;
   o.fraction = o.max_waves ? (double)o.waves / o.max_waves : 0;
   o.known = true;
   return o;
}
