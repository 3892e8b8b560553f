/* The device's peaks, measured by gemmtop's own micro-kernels (never from a datasheet):
 * FP32 and FP64 multiply-add rates and copy bandwidth. Cached per device and driver in
 * $XDG_CACHE_HOME/gemmtop/peaks/, since a measurement takes a second or two. */
#ifndef GEMMTOP_PEAKS_H
#define GEMMTOP_PEAKS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/session.h"

typedef struct Peaks_ {
   bool known;
   double fp32_gflops;
   double fp64_gflops;   /* 0 when the device has no double support */
   double copy_gbps;     /* bytes read + bytes written per second */
   char measured_at[32]; /* date of the measurement, YYYY-MM-DD HH:MM */
} Peaks;

/* Runs the micro-kernels now and stores the result. */
bool Peaks_measure(Session *s, const Catalog *cat, Peaks *out, char *err, size_t errlen);
/* The cached figures of this device (known == false when never measured). */
bool Peaks_cached(const DeviceInfo *dev, const char *backend, Peaks *out);

#endif
