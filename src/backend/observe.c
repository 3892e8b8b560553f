/* Observation: see observe.h. */
#include "backend/observe.h"

#include <math.h>
#include <string.h>

void Observation_clear(Observation *o) {
   memset(o, 0, sizeof *o);
   o->sm_mhz = o->sm_mhz_min = o->sm_mhz_start = o->mem_mhz = NAN;
   o->power_w = o->temp_c = o->energy_j = o->gflops_per_w = NAN;
}
