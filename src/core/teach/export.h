/* A configuration shipped outside gemmtop (`gemmtop export-kernel`): the kernel as one
 * standalone source for its backend (OpenCL C, or CUDA C++ for nvcc: the preludes and
 * helpers it uses inlined, the parameters and the type baked in as #defines, so it builds
 * with no options), and a minimal launcher that builds it with the vendor's compiler, runs
 * it on random inputs, times it with events and verifies it against a product of its own.
 * What gemmtop checks before it runs a configuration is checked here too: a configuration
 * gemmtop refuses is not exported. */
#ifndef GEMMTOP_EXPORT_H
#define GEMMTOP_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"
#include "backend/device.h"
#include "core/model/catalog.h"
#include "core/model/problem.h"

/* Where the export is meant to run: an open device, or (offline) the description of an
 * architecture that the backend compiles for without one (`--arch`). */
typedef struct ExportTarget_ {
   const Backend *be;
   const DeviceInfo *dev;
   const Catalog *cat;
   const char *arch;     /* offline: the --arch named; NULL for a device */
} ExportTarget;

typedef struct ExportFiles_ {
   char kernel[1200];    /* the kernel's file written */
   char launcher[1200];  /* the launcher's source */
   char makefile[1200];  /* its Makefile */
   /* CUDA: the PyTorch extension (the kernel's launch, its binding, the loader that checks
    * it); empty where the backend's export has none */
   char torch_entry[1200], torch_binding[1200], torch_script[1200];
   char build[256];      /* the command that builds and runs the launcher, for the message */
   const char *needs;    /* what building it needs, in words */
} ExportFiles;

typedef enum {
   EXPORT_OK = 0,
   EXPORT_REFUSED,   /* the configuration is refused, or the launcher does not make its launch, or a file exists */
   EXPORT_FAILED     /* the system refused: a folder that cannot be made, a write that failed, memory */
} ExportStatus;

/* Whether Export_kernel would write k with values on p for t (nothing is written, no file
 * looked at): false with err saying why not. */
bool Export_possible(const ExportTarget *t, const KernelInfo *k, const long long *values, const Problem *p, char *err,
                     size_t errlen);
/* Writes k with values on p, as t's device would run it, into the folder dir (made when
 * absent). Never overwrites: refuses when one of its files exists. Not EXPORT_OK: err says
 * why. */
ExportStatus Export_kernel(const ExportTarget *t, const KernelInfo *k, const long long *values, const Problem *p,
                           const char *dir, ExportFiles *out, char *err, size_t errlen);

#endif
