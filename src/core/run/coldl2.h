/* Cold-L2 timing: each timed launch reads operands that are not in the L2 cache. Either a
 * rotation through copies of the operands the launch reads as uploaded (enough that between
 * two uses of one copy more than twice the L2 of other operands was read; an operand a
 * helper writes just before each launch is in the L2 whatever is done), or, when that many
 * copies do not fit or the launch reads no operand as uploaded, a flush: twice the L2
 * written before each launch, outside the timed event. A flush leaves the L2 full of
 * written lines, whose write-back then shares DRAM with the launch's reads (a 134 MB decode
 * on the H200 ran at 75% of the copy bandwidth after it, 90% after a rotation): so it is
 * the last resort. The copies are identical, so the result is the same. */
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
   int copies;                        /* rotation: sets of operands, the originals first (an operand not
                                         rotated is its original in every set); 0: flushing */
   Buffer *a[COLDL2_MAX_COPIES], *b[COLDL2_MAX_COPIES];
   Buffer *flush, *flush_src;         /* flushing: flush_bytes (2 x L2) copied into flush before each launch */
   size_t flush_bytes;
   char method[128];                  /* "rotating 5 copies of A and B (160 MiB)", "flushing 100 MiB" */
} ColdL2;

/* Sets c up for operands A and B (bytes each) on dev, rotating those asked for; neither:
 * flush. False with a message when even a flush cannot be had (out of device memory). */
bool ColdL2_setup(ColdL2 *c, const Backend *be, Context *ctx, const DeviceInfo *dev, Buffer *A, size_t bytesA,
                  bool rotateA, Buffer *B, size_t bytesB, bool rotateB, char *err, size_t errlen);
/* Before timed launch i: rotating, the operands to use in *A and *B; flushing, the flush
 * is enqueued (A and B stay). */
bool ColdL2_before(ColdL2 *c, int i, Buffer **A, Buffer **B, char *err, size_t errlen);
void ColdL2_release(ColdL2 *c);

#endif
