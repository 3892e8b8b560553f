/* Fuzzes the .npy reader (src/core/model/npy.c): the input is the file. A file it accepts must
 * hold the data its shape says (float16, float32, float64, or uint8: FP8 patterns), every
 * element must read as a double, and converting it both ways must work. */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>

#include "core/model/npy.h"

int Fuzz_npy(const uint8_t *data, size_t size) {
   const char *path = Fuzz_tempFile(data, size);
   NpyArray a;
   char err[512];
   if (!Npy_read(path, &a, err, sizeof err))
      return 0;
   if (a.ndim < 1 || a.ndim > 2 || !a.data)
      abort();
   size_t elems = a.shape[0] * a.shape[1], elsize = a.is_double ? 8 : a.is_half ? 2 : a.is_bytes ? 1 : 4;
   if (elems * elsize > size)
      abort(); /* more data than the file could hold */
   /* Touch every element: ASan reports a buffer smaller than the shape. */
   volatile unsigned char sink = 0;
   for (size_t i = 0; i < elems * elsize; i++)
      sink ^= ((const unsigned char *)a.data)[i];
   (void)sink;
   for (size_t i = 0; i < elems; i++)
      (void)NpyArray_at(&a, i);
   if (!NpyArray_convert(&a, !a.is_double) || !NpyArray_convert(&a, !a.is_double))
      abort();
   NpyArray_free(&a);
   return 0;
}

FUZZ_ENTRY(Fuzz_npy)
