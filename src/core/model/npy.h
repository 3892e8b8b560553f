/* Reading and writing NumPy .npy files (format versions 1.0, 2.0, 3.0).
 * Only 2-D (or 1-D) arrays of little-endian float16 / float32 / float64, and uint8 (the FP8
 * types' bit patterns: a float8 array saved with .view(np.uint8)), are needed by gemmtop;
 * C order and Fortran order are both read (Fortran is converted to row-major). */
#ifndef GEMMTOP_NPY_H
#define GEMMTOP_NPY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/outfile.h"

typedef struct NpyArray_ {
   int ndim;            /* 1 or 2 */
   size_t shape[2];     /* rows, cols (for 1-D: shape[0] = n, shape[1] = 1) */
   bool is_double;      /* float64 if true, float32 otherwise */
   bool is_half;        /* float16 (is_double false): the raw IEEE binary16 patterns, uint16_t */
   bool is_bytes;       /* uint8 ('|u1'): bytes, which gemmtop reads as FP8 patterns */
   void *data;          /* row-major, rows*cols elements, malloc'ed */
} NpyArray;

/* Returns true on success. On failure writes a message naming the file and the problem
 * (not .npy, unsupported dtype such as '<i4' or '>f4', truncated data, 3-D array...). */
bool Npy_read(const char *path, NpyArray *out, char *err, size_t errlen);

/* Writes a 2-D C-order array, '<f4' or '<f8', format 1.0, through outfile.h: a temporary
 * file renamed over the target, links followed, anything but a regular file refused. */
bool Npy_write(const char *path, const void *data, size_t rows, size_t cols, bool is_double, char *err, size_t errlen);
/* The same for any of the types ('<f2': data holds binary16 patterns, uint16_t; '|u1': bytes). */
typedef enum { NPY_FLOAT32, NPY_FLOAT64, NPY_FLOAT16, NPY_UINT8 } NpyType;
bool Npy_writeAs(const char *path, const void *data, size_t rows, size_t cols, NpyType type, char *err,
                 size_t errlen);
/* The same into a file opened earlier (so that a run can refuse a bad --out before it
 * starts); commits f, or discards it on failure. */
bool Npy_writeTo(OutFile *f, const void *data, size_t rows, size_t cols, NpyType type, char *err, size_t errlen);

/* Converts to float or double in place (float16 decoded exactly, float64 rounded to float,
 * uint8 as the integers 0..255). */
bool NpyArray_convert(NpyArray *a, bool to_double);
/* Element i (row-major) as a double, whatever the type. */
double NpyArray_at(const NpyArray *a, size_t i);

void NpyArray_free(NpyArray *a);

#endif
