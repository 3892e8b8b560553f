/* Cold-L2 timing: see coldl2.h. */
#include "core/run/coldl2.h"

#include <stdio.h>
#include <string.h>

static const double MiB = 1048576.0;

/* "160 MiB", "64 KiB" */
static const char *sizeText(double bytes, char *out, size_t len) {
   if (bytes >= MiB)
      snprintf(out, len, "%.4g MiB", bytes / MiB);
   else
      snprintf(out, len, "%.4g KiB", bytes / 1024);
   return out;
}

/* The rotation: copies 1..n-1 of the rotated operands made on the device from the
 * originals; an operand not rotated is the original in every set. */
static bool setupRotation(ColdL2 *c, Buffer *A, size_t bytesA, bool rotateA, Buffer *B, size_t bytesB, bool rotateB,
                          int n) {
   char err[512];
   c->a[0] = A;
   c->b[0] = B;
   c->copies = 1;
   for (int j = 1; j < n; j++) {
      c->a[j] = A;
      c->b[j] = B;
      if (rotateA && c->be->alloc(c->ctx, bytesA, &c->a[j], err, sizeof err) != BACKEND_OK) {
         c->a[j] = NULL;
         return false;
      }
      if (rotateB && c->be->alloc(c->ctx, bytesB, &c->b[j], err, sizeof err) != BACKEND_OK) {
         c->b[j] = NULL;
         return false;
      }
      c->copies = j + 1;
      if ((rotateA && c->be->copy(c->ctx, c->a[j], A, bytesA, err, sizeof err) != BACKEND_OK) ||
          (rotateB && c->be->copy(c->ctx, c->b[j], B, bytesB, err, sizeof err) != BACKEND_OK))
         return false;
   }
   return c->be->finish(c->ctx, err, sizeof err) == BACKEND_OK;
}

bool ColdL2_setup(ColdL2 *c, const Backend *be, Context *ctx, const DeviceInfo *dev, Buffer *A, size_t bytesA,
                  bool rotateA, Buffer *B, size_t bytesB, bool rotateB, char *err, size_t errlen) {
   memset(c, 0, sizeof *c);
   c->be = be;
   c->ctx = ctx;
   unsigned long long l2 = dev->l2_bytes ? dev->l2_bytes : COLDL2_ASSUMED_BYTES;
   char l2text[64], size[32];
   snprintf(l2text, sizeof l2text, dev->l2_bytes ? "L2 %s" : "L2 size unknown, %s assumed",
            sizeText((double)l2, size, sizeof size));
   size_t per = (rotateA ? bytesA : 0) + (rotateB ? bytesB : 0);
   if (per > 0) {
      /* n copies: between two uses of one, n - 1 others (at least 2 x L2) were read. */
      unsigned long long n = (2 * l2 + per - 1) / per + 1;
      if (n < 2)
         n = 2;
      double extra = (double)(n - 1) * (double)per;
      if (n <= COLDL2_MAX_COPIES && (!dev->global_mem || extra <= dev->global_mem / 2.0)) {
         if (setupRotation(c, A, bytesA, rotateA, B, bytesB, rotateB, (int)n)) {
            const char *which = rotateA && rotateB ? "A and B"
                                : rotateA          ? "A; B as a helper writes it"
                                                   : "B; A as a helper writes it";
            snprintf(c->method, sizeof c->method, "rotating %d copies of %s (%s; %s)", c->copies, which,
                     sizeText((double)c->copies * (double)per, size, sizeof size), l2text);
            return true;
         }
         ColdL2_release(c); /* not enough memory after all: flush instead */
         c->be = be;
         c->ctx = ctx;
      }
   }
   c->copies = 0;
   c->flush_bytes = (size_t)(2 * l2);
   if (be->alloc(ctx, c->flush_bytes, &c->flush, err, errlen) != BACKEND_OK ||
       be->alloc(ctx, c->flush_bytes, &c->flush_src, err, errlen) != BACKEND_OK) {
      snprintf(err, errlen, "cold L2: no device memory for two %.0f MiB flush buffers", c->flush_bytes / MiB);
      ColdL2_release(c);
      return false;
   }
   snprintf(c->method, sizeof c->method, "writing %s before each launch (%s)",
            sizeText((double)c->flush_bytes, size, sizeof size), l2text);
   return true;
}

bool ColdL2_before(ColdL2 *c, int i, Buffer **A, Buffer **B, char *err, size_t errlen) {
   if (c->copies > 0) {
      *A = c->a[i % c->copies];
      *B = c->b[i % c->copies];
      return true;
   }
   /* Finished before the launch, outside its timing event (a vendor library's call may be
    * timed on the host's clock). */
   return c->be->copy(c->ctx, c->flush, c->flush_src, c->flush_bytes, err, errlen) == BACKEND_OK &&
          c->be->finish(c->ctx, err, errlen) == BACKEND_OK;
}

void ColdL2_release(ColdL2 *c) {
   if (!c->be)
      return;
   for (int j = 1; j < COLDL2_MAX_COPIES; j++) {
      if (c->a[j] && c->a[j] != c->a[0])
         c->be->free(c->a[j]);
      if (c->b[j] && c->b[j] != c->b[0])
         c->be->free(c->b[j]);
   }
   if (c->flush)
      c->be->free(c->flush);
   if (c->flush_src)
      c->be->free(c->flush_src);
   memset(c, 0, sizeof *c);
}
