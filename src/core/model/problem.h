/* The GEMM problem: C = alpha * op(A) * op(B) + beta * C, all row-major. */
#ifndef GEMMTOP_PROBLEM_H
#define GEMMTOP_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/types.h"

/* op(A) is M x K, op(B) is K x N, C is M x N.  Storage is row-major:
 *   A not transposed: M x K, A[i*K + k];   transposed: K x M, A[k*M + i]
 *   B not transposed: K x N, B[k*N + j];   transposed: N x K, B[j*K + k]
 *   C: M x N, C[i*N + j]                                                  */
/* How the FP8 types' scales are laid (core/model/scales.h); other types have none and ignore it.
 *   tensor: one FP32 scale for A and one for B (torch._scaled_mm's per-tensor scaling)
 *   block:  one per 1 x 128 slice of op(A) along K (each row) and one per 128 x 128 block
 *           of op(B), as DeepGEMM and cuBLASLt's block scaling do */
typedef enum { SCALING_TENSOR = 0, SCALING_BLOCK = 1 } Scaling;
#define SCALING_COUNT 2

typedef struct Problem_ {
   int m, n, k;
   Precision precision;
   bool trans_a, trans_b;
   double alpha, beta;
   Scaling scaling; /* the FP8 types' scales (Types_of(precision)->scaled) */
} Problem;

/* Bytes of one element of C, alpha and beta (the kernel's `real`). */
static inline size_t Precision_size(Precision p) { return Storage_size(Types_of(p)->out); }
/* Bytes of one element of A and B (the kernel's `in_t`). */
static inline size_t Precision_inputSize(Precision p) { return Storage_size(Types_of(p)->in); }
/* A and B stored as 16-bit patterns (half, bfloat16). */
static inline bool Precision_is16(Precision p) { return Precision_inputSize(p) == 2; }
/* "float", "double", "tf32", "half", "bfloat16". */
const char *Precision_name(Precision p);
/* The types of a run, as a report names them: A and B as stored, the multiplies, C. */
const char *Precision_inputType(Precision p);
const char *Precision_computeType(Precision p);
const char *Precision_outputType(Precision p);
/* Accepts the names above and fp32, fp64, fp16, f16, bf16 (any case). */
bool Precision_parse(const char *s, Precision *out);
/* "float, double" for a bit set of PRECISION_BIT()s. */
void Precision_listNames(unsigned mask, char *out, size_t outlen);
/* The compiler's -D options for the element type: "-DDOUBLE=0", then -DGT_TF32=1,
 * -DGT_HALF=1 or -DGT_BF16=1 for those types (float and double get exactly the line
 * they always had). */
void Precision_defines(Precision p, char *out, size_t outlen);

/* "tensor", "block"; parsing takes those names (any case). */
const char *Scaling_name(Scaling s);
bool Scaling_parse(const char *s, Scaling *out);
/* Whether p's operands carry scales, and so p->scaling means something. */
static inline bool Problem_scaled(const Problem *p) { return Types_of(p->precision)->scaled; }
/* The type as a problem line names it: "float", "e4m3 block" (an FP8 type and its scaling). */
const char *Problem_typeLabel(const Problem *p, char *buf, size_t len);

/* "NN", "NT", "TN", "TT": first letter op(A), second op(B). */
bool Problem_parseLayout(Problem *p, const char *s);
void Problem_layoutName(const Problem *p, char out[3]);
void Problem_setDefaults(Problem *p);
/* Whether two problems are the same GEMM (sizes, precision, layout, alpha, beta). */
bool Problem_same(const Problem *a, const Problem *b);

/* Element counts of the stored operands. */
static inline size_t Problem_sizeA(const Problem *p) { return (size_t)p->m * (size_t)p->k; }
static inline size_t Problem_sizeB(const Problem *p) { return (size_t)p->k * (size_t)p->n; }
static inline size_t Problem_sizeC(const Problem *p) { return (size_t)p->m * (size_t)p->n; }

/* 2*M*N*K floating point operations. */
double Problem_flops(const Problem *p);
/* Compulsory global-memory traffic: A, B read once, C written (and read if beta != 0). */
double Problem_bytes(const Problem *p);

#endif
