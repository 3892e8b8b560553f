/* A device described by a file instead of opened: the JSON line `gemmtop list devices
 * --format json --measure` prints for it (its size, its L2, the ceilings measured on it).
 * explain --arch --device-file judges a time taken on that device (a profiler's) with the
 * limiter, compiling the kernel offline: the model tried on a GPU's figures where there is
 * no GPU (tools/gpu/gpu_limits_ncu.py --rescore --replay). docs/limits.md. */
#ifndef GEMMTOP_DEVICEFILE_H
#define GEMMTOP_DEVICEFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/device.h"
#include "core/run/peaks.h"

/* The tensor ceilings' JSON names, the one table the listing writes and the file reader
 * reads: mma.sync's (tensor_*) and wgmma's (wgmma_*) rate of each type. */
typedef struct PeakJsonName_ {
   const char *name;
   bool wgmma;
   PeakKind kind;
} PeakJsonName;
extern const PeakJsonName DeviceFile_tensorPeaks[8];

/* Reads the first JSON object of text (a listing's line, or a file of one) into dev, over
 * what dev holds (the offline target's: its limits and architecture stay): the name,
 * compute units, clock, memory, L2 size and group size; and its ceilings into peaks. False,
 * with why naming the field and what would be valid, when the text is not such a line or
 * lacks what the limiter needs (the compute units, the FP32 and copy ceilings). */
bool DeviceFile_parse(const char *text, DeviceInfo *dev, Peaks *peaks, char *why, size_t whylen);
/* The same from a file (a regular file of at most 1 MB). */
bool DeviceFile_read(const char *path, DeviceInfo *dev, Peaks *peaks, char *why, size_t whylen);

#endif
