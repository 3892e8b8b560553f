#include "core/analyse/swizzle.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool Swizzle_forBytes(int bytes, SwizzleFn *f) {
   static const struct {
      int bytes, bits;
   } table[] = {{0, 0}, {32, 1}, {64, 2}, {128, 3}};
   for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
      if (table[i].bytes == bytes) {
         *f = (SwizzleFn){.bits = table[i].bits, .base = 4, .shift = 3};
         return true;
      }
   return false;
}

unsigned Swizzle_apply(SwizzleFn f, unsigned x) {
   const unsigned mask = ((1u << f.bits) - 1u) << (f.base + f.shift);
   return x ^ ((x & mask) >> f.shift);
}

unsigned Swizzle_tileOffset(int swizzle, int rows, int kbytes, int row, int kbyte) {
   if (swizzle < 0)
      return (unsigned)(row * kbytes + kbyte);
   const int width = swizzle ? swizzle : 16;
   SwizzleFn f = {0, 4, 3};
   Swizzle_forBytes(swizzle, &f);
   const unsigned logical = (unsigned)((kbyte / width) * rows * width + row * width + kbyte % width);
   return Swizzle_apply(f, logical);
}

static void record(Trace *t, unsigned site, bool store, unsigned lane, unsigned address) {
   t->records[t->count++] = (TraceRecord){
       .site = site, .store = store, .width = 16, .group = 0, .item = lane, .seq = 0, .address = address};
}

bool Swizzle_modelTrace(int swizzle, int rows, int kbytes, Trace *t, char *err, size_t errlen) {
   memset(t, 0, sizeof *t);
   SwizzleFn f;
   if (swizzle != -1 && !Swizzle_forBytes(swizzle, &f)) {
      snprintf(err, errlen, "swizzle %d bytes: 0, 32, 64 or 128 (or -1 for plain rows)", swizzle);
      return false;
   }
   const int width = swizzle > 0 ? swizzle : swizzle == 0 ? 16 : kbytes;
   if (rows < 16 || rows % 8 || kbytes < 32 || kbytes % width) {
      snprintf(err, errlen, "a tile of %d rows x %d bytes: at least 16 rows (a multiple of 8) and 32 bytes, "
               "in whole %d-byte boxes", rows, kbytes, width);
      return false;
   }
   if (!(t->records = calloc(96, sizeof *t->records))) {
      snprintf(err, errlen, "out of host memory");
      return false;
   }
   for (unsigned lane = 0; lane < 32; lane++) {
      /* the copy engine: chunk `lane` of the first box, rows of `width` bytes */
      const int chunks = width / 16, row = (int)lane / chunks, kbyte = (int)lane % chunks * 16;
      record(t, 0, true, lane, Swizzle_tileOffset(swizzle, rows, kbytes, row, kbyte));
   }
   for (unsigned lane = 0; lane < 32; lane++) {
      const int row = 8 * (int)(lane / 8 % 2) + (int)lane % 8, kbyte = 16 * (int)(lane / 16);
      record(t, 1, false, lane, Swizzle_tileOffset(swizzle, rows, kbytes, row, kbyte));
      record(t, 2, false, lane, Swizzle_tileOffset(-1, rows, 128, row, kbyte));
   }
   t->groups = 1;
   t->wg_size = 32;
   t->local[0] = 32;
   t->local[1] = t->local[2] = 1;
   t->dims = 1;
   return true;
}
