/* The host-side operands of a run: A, B and C0 (C before the run), stored as the problem
 * says: A and B in its input type (half and bfloat16 as 16-bit patterns, rounded to nearest
 * even from the values drawn or read), C0 in its output type. Random by default (fresh
 * values, never zeros), or read from .npy files. */
#ifndef GEMMTOP_INPUTS_H
#define GEMMTOP_INPUTS_H

#include <stdint.h>

#include "core/problem.h"

/* Inputs.generated: the operands that hold the generator's values for Inputs.seed. */
enum { INPUTS_GEN_A = 1u, INPUTS_GEN_B = 2u, INPUTS_GEN_C0 = 4u };

typedef struct Inputs_ {
   Problem shape;       /* the problem they were made for */
   void *a, *b, *c0;    /* c0 is NULL when beta == 0 */
   float *sa, *sb;      /* the FP8 types' scales (core/scales.h), NULL for the others */
   uint64_t seed;
   unsigned generated;  /* INPUTS_GEN_*: which of them Inputs_random made (not read from files) */
   unsigned long generation; /* changes whenever the contents change */
   char note[768];      /* what loading .npy files did to their values ("" when nothing) */
} Inputs;

/* Uniform random values in [-1, 1). The FP8 types quantise such values (scales.h), each
 * 1 x 128 slice of A and 128 x 128 block of B first multiplied by a magnitude of its own
 * (2^-4 .. 2^4), so that block scales differ and a kernel that takes the wrong one fails.
 * Returns false when out of host memory.
 *
 * The values come from a counter-based generator (base/philox.h), a stream per matrix:
 * the element stored at index s of A, B or C0 is word s of its stream (words 2s and 2s+1
 * for double's 53 bits), a block magnitude word b of its own; so the matrices are made on
 * every core at once, are the same for one seed on every backend, device and thread count,
 * and any element can be made again alone (Inputs_operandAt). */
bool Inputs_random(Inputs *in, const Problem *p, uint64_t seed);
/* op(A)[row][col] (a true; M x K) or op(B)[row][col] (K x N) as the kernel multiplies it:
 * the stored value, times its scale for the FP8 types. Made again from the seed when the
 * operand was generated (INPUTS_GEN_A, _B), without reading the matrix; else read. */
double Inputs_operandAt(const Inputs *in, const Problem *p, bool a, size_t row, size_t col);
/* The K elements a sample entry of C multiplies: op(A)'s row index (a true) or op(B)'s
 * column index, as Inputs_operandAt gives them, into out (K values); a contiguous line of
 * a generated operand is made a block of words at a time. */
void Inputs_operandLine(const Inputs *in, const Problem *p, bool a, size_t index, double *out);
/* The values Inputs_random(p, seed) draws for A and B before they are rounded to the input
 * type (quantised, for FP8): op(A) (M x K) and op(B) (K x N) as logical row-major floats,
 * malloc'ed; what the accuracy frontier measures a type's error against. False (both NULL)
 * when out of host memory. */
bool Inputs_drawn(const Problem *p, uint64_t seed, float **A, float **B);
/* True when in was made for the same shapes, precision and beta-ness as p. */
bool Inputs_fit(const Inputs *in, const Problem *p);
/* Loads any of a, b, c from .npy files (NULL paths keep the random ones); checks shapes
 * against p (as stored: transposed operands have swapped shapes). Files of another float
 * type are converted; A and B of half and bfloat16 are rounded to nearest even (a float16
 * file is taken as it is for half), which in->note reports. */
bool Inputs_loadNpy(Inputs *in, const Problem *p, const char *a_path, const char *b_path, const char *c_path, char *err,
                    size_t errlen);
/* The same with the FP8 types' files too. For e4m3 and e5m2, A and B are either float files
 * (float16, float32, float64), quantised with p's scaling as users do (scales.h), or uint8
 * files of FP8 patterns with their scales (a_scale, b_scale: float32 of Scales_shape's
 * shape, finite and positive). NaN and infinite patterns are refused, named. */
typedef struct InputFiles_ {
   const char *a, *b, *c, *a_scale, *b_scale;
} InputFiles;
bool Inputs_loadFiles(Inputs *in, const Problem *p, const InputFiles *files, char *err, size_t errlen);
/* Loading also refuses a NaN or an infinity, and a float64 value too large for float, and
 * notes a float64 file read as float. Inputs_checkRange is false (err says why) when
 * alpha op(A) op(B) + beta C0 could overflow: a product a_ik b_kj that does, or sums
 * that can reach half the largest value. The result would then not be finite, and the
 * verification would blame the kernel. */
bool Inputs_checkRange(const Inputs *in, const Problem *p, char *err, size_t errlen);
/* Inputs made from given values: op(A) (M x K) and op(B) (K x N) as logical row-major
 * floats, stored in p's layout and input type (rounded to nearest even; the FP8 types
 * quantised with p's scaling), no C0 (p->beta must be 0). The same numbers thus reach every
 * type, as the accuracy frontier needs. False when out of host memory. */
/* The operands as multiplied, in p's layout as doubles: for the FP8 types each stored value
 * times its scale (exact). *A and *B malloc'ed; false (both NULL) when out of memory or the
 * scales are missing. */
bool Inputs_scaledValues(const Inputs *in, const Problem *p, double **A, double **B);
bool Inputs_fromValues(Inputs *in, const Problem *p, const float *A, const float *B, uint64_t seed);
void Inputs_free(Inputs *in);

#endif
