/* What the driver says about the device while it measures: clocks, power, temperature and
 * energy, read through NVML on NVIDIA (libnvidia-ml.so.1, loaded at run time) and the
 * equivalent on AMD where present. Observing never changes a device setting. A field the
 * driver does not give stays unknown (NaN; known == false when none is given). */
#ifndef GEMMTOP_OBSERVE_H
#define GEMMTOP_OBSERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/device.h"

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
/* The SM clock the launches held (sm_mhz), or 0 where the driver gave none. */
double Observation_smMhz(const Observation *o);

/* A source of observations for one device, opened once and kept (a session opens it on
 * its first observed run). The sources, in order: NVML (libnvidia-ml.so.1, or the file
 * $GEMMTOP_NVML names) for an NVIDIA GPU; the amdgpu driver's hwmon files under /sys (or
 * $GEMMTOP_SYSFS_ROOT) for an AMD GPU. None for PoCL and CPUs. The device is matched by its
 * PCI bus id (DeviceInfo.pci_bus_id); without one, the driver's only GPU, else none. */
typedef struct Observer_ Observer;

/* NULL when no source covers the device; why says what was missing. */
Observer *Observer_open(const DeviceInfo *dev, char *why, size_t whylen);
void Observer_close(Observer *o);
/* The source and the device it read: "NVML, 0000:65:00.0 (by PCI bus id)". */
const char *Observer_describe(const Observer *o);

/* The timed launches: begin before the first, sample after each (it reads the driver at
 * most every OBSERVE_SAMPLE_MS, so it costs nothing measurable), end after the last with
 * the launches made and the flops of one. Fills out (every figure the source gave):
 * sm_mhz the median of the samples; power the energy counter's average over the window,
 * else the mean of the power samples; energy per launch only when the counter moved and
 * the window lasted OBSERVE_MIN_ENERGY_MS (a shorter one is below the counter's
 * resolution: unknown, never a wrong figure). */
#define OBSERVE_SAMPLE_MS 10.0
#define OBSERVE_MIN_ENERGY_MS 100.0
void Observer_begin(Observer *o);
void Observer_sample(Observer *o);
void Observer_end(Observer *o, int launches, double flops_per_launch, double gflops, Observation *out);

/* For the tests: the clock the observer reads (milliseconds; NULL: the real one). */
void Observer_useClock(Observer *o, double (*now_ms)(void *arg), void *arg);

/* A clock fall counts as throttling past this fraction of the starting clock (the boost
 * clock moves by a step or two on its own). */
#define OBSERVE_CLOCK_FALL 0.02

#endif
