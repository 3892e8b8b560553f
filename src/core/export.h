/* A configuration shipped outside gemmtop (`gemmtop export-kernel`): the kernel as one
 * standalone OpenCL C file (the preludes and helpers it uses inlined, the parameters and
 * the type baked in as #defines, so it builds with no options), and a minimal C launcher
 * that builds it with the system's OpenCL, runs it on random inputs, times it with events
 * and verifies it against a product of its own. What gemmtop checks before it runs a
 * configuration is checked here too: a configuration gemmtop refuses is not exported. */
#ifndef GEMMTOP_EXPORT_H
#define GEMMTOP_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/session.h"

typedef struct ExportFiles_ {
   char kernel[1200];    /* the .cl file written */
   char launcher[1200];  /* the launcher's .c file */
   char makefile[1200];  /* its Makefile */
   char build[256];      /* the command that builds the launcher, for the message */
} ExportFiles;

typedef enum {
   EXPORT_OK = 0,
   EXPORT_REFUSED,   /* the configuration is refused, or the launcher does not make its launch, or a file exists */
   EXPORT_FAILED     /* the system refused: a folder that cannot be made, a write that failed, memory */
} ExportStatus;

/* Writes k with values on p, as s's device would run it, into the folder dir (made when
 * absent). Never overwrites: refuses when one of the three files exists. Not EXPORT_OK:
 * err says why. */
ExportStatus Export_kernel(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                           const char *dir, ExportFiles *out, char *err, size_t errlen);

#endif
