/* Shared-memory swizzles of Hopper's copy engine (TMA) and wgmma, as address functions:
 * CUTLASS's Swizzle<B,M,S> on byte offsets, which XORs the B bits above bit M+S into the
 * B bits above bit M (M = 4: 16-byte units). 128-byte = Swizzle<3,4,3>, 64-byte =
 * <2,4,3>, 32-byte = <1,4,3>, none = <0,4,3>. And the tile layout of the hopper kernels
 * (kernels/hopper*.cl) with a bank model of their two shared-memory accesses, as a Trace
 * that banks.c analyses like a traced one. Pure functions. */
#ifndef GEMMTOP_SWIZZLE_H
#define GEMMTOP_SWIZZLE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/run/session.h" /* Trace */

typedef struct SwizzleFn_ {
   int bits;  /* B: how many 16-byte-unit bits are XORed */
   int base;  /* M: 4 (16-byte units) */
   int shift; /* S: 3 (from 8 units, one 128-byte row, above) */
} SwizzleFn;

/* The function of a swizzle of `bytes` (0, 32, 64, 128); false for any other width. */
bool Swizzle_forBytes(int bytes, SwizzleFn *f);
/* The physical byte offset of logical byte offset x (within a tile aligned to 1024 bytes). */
unsigned Swizzle_apply(SwizzleFn f, unsigned x);

/* The layout of a K-major tile of `rows` rows and kbytes bytes of K per row, as the hopper
 * kernels load it: boxes of rows x W bytes side by side along K (W = the swizzle width, or
 * 16 without swizzle: columns of 8 x 16-byte core matrices), each box swizzled. With
 * swizzle -1: plain row-major rows of kbytes bytes, unswizzled (for comparison). The
 * physical byte offset of (row, byte along K). */
unsigned Swizzle_tileOffset(int swizzle, int rows, int kbytes, int row, int kbyte);

/* The two shared-memory accesses of a hopper kernel's A tile, modelled as a trace of one
 * warp (group 0, 32 lanes), for BankAnalysis_run:
 *   site 0, store: the copy engine writing the first 512 bytes of the first box, 16 bytes
 *                  per lane in the box's row order (the order of global memory);
 *   site 1, load:  wgmma reading warp 0's 16 rows at the first k-step (32 bytes of K):
 *                  four 8 x 16-byte core matrices, lane l reading row 8 (l/8 % 2) + l%8,
 *                  16 bytes at byte 16 (l/16) of K (as ldmatrix.x4 would);
 *   site 2, load:  the same read had the rows been plain unswizzled 128-byte lines (one
 *                  box of 32 floats or 64 halves per row, no swizzle), for comparison.
 * The hardware's own order inside the copy engine and the tensor cores is not published:
 * this shows what the swizzle does to the banks of rows that share K. false when out of
 * memory or a width is invalid (err says why). Free with Trace_free. */
bool Swizzle_modelTrace(int swizzle, int rows, int kbytes, Trace *t, char *err, size_t errlen);

#endif
