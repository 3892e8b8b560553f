/* How a kernel's global loads of A and B coalesce, from a global-load trace
 * (Session_trace with global loads): per warp request, the 128-byte lines each phase of
 * lanes touches. On NVIDIA GPUs the L1's data stage takes one wavefront per line a phase
 * touches, a phase being the lanes whose bytes fill 128 (a warp for 4-byte loads, half of
 * it for 8, a quarter for 16), hit or miss (H200, Nsight Compute: 01-naive 1.5 wavefronts
 * per request, DCU step 1 in FP64 5, as this count gives). The ratio of those wavefronts
 * to the loads' bytes / 128 scales the loads' share of the local-memory unit in the
 * limiter, as the bank ratio scales local reads. Pure functions over a Trace. */
#ifndef GEMMTOP_COALESCE_H
#define GEMMTOP_COALESCE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/run/session.h"

#define COALESCE_LINE 128   /* bytes of an L1 line */
#define COALESCE_SECTOR 32  /* bytes of a sector */

enum { COALESCE_A, COALESCE_B, COALESCE_SITES };

typedef struct CoalesceStats_ {
   long long requests;       /* warp requests (one execution of a site by one warp) */
   long long accesses;       /* lane loads */
   long long wavefronts;     /* lines per phase, summed */
   long long sectors;        /* distinct 32-byte sectors per request, summed */
   double bytes;             /* the lanes' bytes, a broadcast counted per lane */
   unsigned width;           /* bytes per lane load, the widest seen */
   double ratio;             /* wavefronts / (bytes / 128): 1 where every phase fills its lines */
} CoalesceStats;

typedef struct Coalescing_ {
   CoalesceStats sites[COALESCE_SITES];
   CoalesceStats total;
   int simd_width;           /* lanes of a warp */
   size_t dropped;           /* records lost over the trace's capacity */
} Coalescing;

/* The loads of A and B in t (records flagged global), warps of simd_width lanes. False
 * with a message when t holds no global load or out of memory. */
bool Coalescing_of(const Trace *t, int simd_width, Coalescing *out, char *err, size_t errlen);
/* Lanes served in one phase for a load of width bytes: 128 / width, 1 to simd_width. */
int Coalescing_phaseLanes(unsigned width, int simd_width);
const char *Coalescing_siteName(int site);

#endif
