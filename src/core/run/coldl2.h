/* Cold-L2 timing: each timed launch reads operands that are not in the L2 cache. Either a
 * rotation through copies of A and B (enough that between two uses of one copy more than
 * twice the L2 of other operands was read), or, when that many copies do not fit or the
 * launch reads operands that a helper has just written, a flush: twice the L2 written
 * before each launch, outside the timed event. The copies are identical, so the result is
 * the same. */
#ifndef GEMMTOP_COLDL2_H
#define GEMMTOP_COLDL2_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

#define COLDL2_MAX_COPIES 32
/* What gemmtop assumes when the driver does not say how large the L2 is. */
#define COLDL2_ASSUMED_BYTES (128ull << 20)

typedef struct ColdL2_ {
   const Backend *be;
   Context *ctx;
   int copies;                        /* rotation: sets of operands, the originals first; 0: flushing */
   Buffer *a[COLDL2_MAX_COPIES], *b[COLDL2_MAX_COPIES];
   Buffer *flush, *flush_src;         /* flushing: flush_bytes (2 x L2) copied into flush before each launch */
   size_t flush_bytes;
   char method[96];                   /* "rotating 5 copies of A and B (160 MiB)", "flushing 100 MiB" */
} ColdL2;

/* Sets c up for operands A and B (bytes each) on dev; rotate false: flush. False with a
 * message when even a flush cannot be had (out of device memory). */
bool ColdL2_setup(ColdL2 *c, const Backend *be, Context *ctx, const DeviceInfo *dev, Buffer *A, size_t bytesA,
                  Buffer *B, size_t bytesB, bool rotate, char *err, size_t errlen);
/* Before timed launch i: rotating, the operands to use in *A and *B; flushing, the flush
 * is enqueued (A and B stay). */
bool ColdL2_before(ColdL2 *c, int i, Buffer **A, Buffer **B, char *err, size_t errlen);
void ColdL2_release(ColdL2 *c);

#endif
