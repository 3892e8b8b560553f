/* The scales of the FP8 types (Types_of(p)->scaled), and quantising to FP8 the way users
 * do: the largest magnitude of each block (amax), a scale that maps it to the format's
 * largest finite value, every value divided by its scale and rounded to nearest even,
 * saturated. The operand a kernel multiplies is the stored FP8 value times its scale.
 *
 * The scales are FP32, row-major, laid over op(A) (M x K) and op(B) (K x N) whatever the
 * operands' storage (NN, NT, TN, TT):
 *   tensor scaling: A's is 1 x 1, B's is 1 x 1
 *   block scaling:  A's is M x ceil(K/128): SA[i][k / 128], one per 1 x 128 slice of a row;
 *                   B's is ceil(K/128) x ceil(N/128): SB[k / 128][j / 128], one per block
 * These shapes are also those of the --a-scale and --b-scale .npy files. */
#ifndef GEMMTOP_SCALES_H
#define GEMMTOP_SCALES_H

#include <stdbool.h>
#include <stddef.h>

#include "core/problem.h"

#define SCALES_BLOCK 128

/* Rows and columns of A's scales (a true) or B's, for p's scaling. */
void Scales_shape(const Problem *p, bool a, size_t *rows, size_t *cols);
size_t Scales_count(const Problem *p, bool a);

/* The index in A's scales of op(A)[i][k], and in B's of op(B)[k][j]. */
size_t Scales_indexA(const Problem *p, size_t i, size_t k);
size_t Scales_indexB(const Problem *p, size_t k, size_t j);

/* The index in the stored operand (p's layout) of op(A)[i][k], of op(B)[k][j]. */
size_t Scales_storedA(const Problem *p, size_t i, size_t k);
size_t Scales_storedB(const Problem *p, size_t k, size_t j);

/* The scale of a block whose largest magnitude is amax, for FP8 storage `to`: amax over the
 * largest finite value, rounded up in FP32; 1 for a block of zeros. */
float Scales_ofAmax(double amax, Storage to);

/* Quantises A (a true) or B: value(src, s) gives the stored element s (p's layout) as a
 * number, finite. Writes the FP8 patterns into stored (p's layout) and the scales. A block
 * of zeros gets the scale 1. False when out of memory. */
typedef double (*Scales_valueFn)(const void *src, size_t s);
bool Scales_quantize(const Problem *p, bool a, Scales_valueFn value, const void *src, void *stored, float *scales);

/* The operand as the kernel multiplies it, stored element times its scale, in p's layout:
 * exact in double (FP8 times FP32 needs 4 + 24 bits). out holds Problem_sizeA or _sizeB. */
void Scales_dequantize(const Problem *p, bool a, const void *stored, const float *scales, double *out);

/* The scales as a kernel launched over a padded geometry (gm x gn x gk) reads them: A's
 * gm x ceil(gk/128), B's ceil(gk/128) x ceil(gn/128), the problem's where they cover it and
 * 1 beyond (the padding's operands are zeros). Per-tensor scales are returned as they are.
 * *count is the element count; NULL when out of memory. */
float *Scales_padded(const Problem *p, bool a, const float *scales, int gm, int gn, int gk, size_t *count);

/* The largest and smallest scale, for a problem line ("scales 1.2e-3 .. 4.5e-3"). */
void Scales_range(const Problem *p, bool a, const float *scales, double *lo, double *hi);

#endif
