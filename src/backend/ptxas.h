/* Resource usage from ptxas' verbose report, which NVRTC (--ptxas-options=-v) and
 * NVIDIA's OpenCL (-cl-nv-verbose) put into the build log. */
#ifndef GEMMTOP_PTXAS_H
#define GEMMTOP_PTXAS_H

#include <stdbool.h>

typedef struct PtxasInfo_ {
   bool found;
   int registers;
   int stack_bytes;
   int spill_stores, spill_loads; /* bytes */
   int shared_bytes;              /* static shared memory per block */
   int barriers;
   /* ptxas's advisory that it made the entry's wgmma wait for one another (C7514 and its
    * kin: "... are serialized due to REASON in the function 'NAME'"): REASON, "" if none */
   char wgmma_serialized[192];
} PtxasInfo;

/* Reads the report of the entry function entry (or the first one when NULL). */
bool Ptxas_parse(const char *log, const char *entry, PtxasInfo *out);
/* Runs ptxas -v (on PATH, else the newest under /usr/local/cuda*) on PTX text for the
 * target its .target line names, and reads the report of entry. False when ptxas is
 * absent or refuses the PTX. */
bool Ptxas_ofPtx(const char *ptx, const char *entry, PtxasInfo *out);

#endif
