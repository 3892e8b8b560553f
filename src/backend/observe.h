/* What the driver says about the device while it measures: clocks, power, temperature and
 * energy, read through NVML on NVIDIA (libnvidia-ml.so.1, loaded at run time) and the
 * equivalent on AMD where present. Observing never changes a device setting. A field the
 * driver does not give stays unknown (NaN; known == false when none is given). */
#ifndef GEMMTOP_OBSERVE_H
#define GEMMTOP_OBSERVE_H

#include <stdbool.h>

typedef struct Observation_ {
   bool known;               /* the driver gave at least one figure */
   char source[16];          /* "NVML", "ROCm SMI", "sysfs" */
   double sm_mhz;            /* graphics/SM clock during the timed launches (median of samples) */
   double sm_mhz_min;        /* the lowest seen: below sm_mhz_start means it fell */
   double sm_mhz_start;      /* at the start of the timed launches */
   double mem_mhz;
   double power_w;           /* average over the timed launches */
   double temp_c;
   double energy_j;          /* per GEMM launch (energy counter difference / launches) */
   double gflops_per_w;
   bool throttled;           /* the clock fell during the measurement, or the driver said so */
   char throttle_reason[96]; /* "power cap", "thermal", "clock fell 1980 -> 1755 MHz" */
} Observation;

/* An observation with every figure unknown. */
void Observation_clear(Observation *o);

#endif
