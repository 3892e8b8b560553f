#include "core/analyse/waves.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/analyse/occupancy.h"

/* The waves of w's groups at per_unit of them on each unit at once. */
static void fill(Waves *w, int per_unit) {
   const long long slots = (long long)w->units * per_unit;
   w->per_unit = per_unit;
   w->full = (int)(w->groups / slots);
   w->waves = (double)w->groups / (double)slots;
   const long long rest = w->groups % slots;
   w->last_fill = rest ? (double)rest / (double)slots : 1.0;
   w->busy = w->waves / ceil(w->waves);
   w->rounds = 0;
   if (w->work > 0) { /* the groups' time is busy as far as the items fill their rounds */
      w->rounds = (w->work + w->groups - 1) / w->groups;
      w->busy *= (double)w->work / ((double)w->groups * (double)w->rounds);
   }
}

Waves Waves_of(const DeviceInfo *dev, const Geometry *g, int registers, long long local_mem) {
   Waves w = {0};
   const ArchLimits *a = dev->type == DEVICE_GPU ? Occupancy_arch(dev->arch) : NULL;
   long long groups = 1, items = 1;
   for (int d = 0; d < g->dims; d++) {
      if (!g->local[d])
         return w;
      groups *= (long long)(g->global[d] / g->local[d]);
      items *= (long long)g->local[d];
   }
   if (!a || registers <= 0 || dev->compute_units == 0 || groups < 1)
      return w;
   /* the launch's dynamic shared memory is the group's too (a wgmma kernel's ring: the one
    * thing that keeps a second group off a unit where the registers would admit it) */
   const long long local = (local_mem > 0 ? local_mem : 0) + (g->dynamic_smem > 0 ? g->dynamic_smem : 0);
   Occupancy occ = Occupancy_estimate(a, registers, local, items);
   if (!occ.known || occ.groups < 1)
      return w;
   w.known = true;
   w.groups = groups;
   w.units = (int)dev->compute_units;
   w.occupancy = occ.fraction;
   w.work = g->work > 0 ? g->work : 0;
   fill(&w, occ.groups);
   return w;
}

bool Waves_takesUnitWhole(const KernelInfo *k) { return k && k->tensor && k->arch[0] != '\0'; }

Waves Waves_byUnit(const Waves *w) {
   Waves unit = *w;
   if (w->known && w->per_unit > 1)
      fill(&unit, 1);
   return unit;
}

void Waves_describe(const Waves *w, char *out, size_t len) {
   if (!w->known) {
      if (len)
         out[0] = '\0';
      return;
   }
   int n = snprintf(out, len, "%.2f wave%s: %lld work-groups on %d multiprocessors at %d each", w->waves,
                    w->waves == 1 ? "" : "s", w->groups, w->units, w->per_unit);
   if (n >= 0 && (size_t)n < len && w->work > 0)
      n += snprintf(out + n, len - (size_t)n, ", sharing %lld items of work, at most %lld each", w->work, w->rounds);
   if (n < 0 || (size_t)n >= len)
      return;
   if (w->waves > 1 && w->last_fill < 1)
      snprintf(out + n, len - (size_t)n, "; the last one %.0f%% full, %.0f%% of the slots busy", 100 * w->last_fill,
               100 * w->busy);
   else
      snprintf(out + n, len - (size_t)n, "; %.0f%% of the slots busy", 100 * w->busy);
}

double Waves_describeFor(const Waves *w, const KernelInfo *k, char *out, size_t len) {
   Waves_describe(w, out, len);
   if (!w->known)
      return -1;
   if (!Waves_takesUnitWhole(k) || w->per_unit < 2)
      return w->busy;
   const Waves u = Waves_byUnit(w);
   /* Where both views agree (whole waves, or a grid built for two blocks a unit, BLOCKS=2,
    * whose blocks do share one), the slots' line says it all. */
   if (fabs(u.busy - w->busy) < 0.005)
      return w->busy;
   size_t n = strlen(out);
   if (n < len)
      snprintf(out + n, len - n, "; by multiprocessors, one block each taking one whole: %.2f wave%s, %.0f%% busy",
               u.waves, u.waves == 1 ? "" : "s", 100 * u.busy);
   return u.busy;
}
