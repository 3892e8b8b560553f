/* The GEMM problem: C = alpha * op(A) * op(B) + beta * C, all row-major. */
#ifndef GEMMTOP_PROBLEM_H
#define GEMMTOP_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

typedef enum { PRECISION_FLOAT = 0, PRECISION_DOUBLE = 1 } Precision;

/* op(A) is M x K, op(B) is K x N, C is M x N.  Storage is row-major:
 *   A not transposed: M x K, A[i*K + k];   transposed: K x M, A[k*M + i]
 *   B not transposed: K x N, B[k*N + j];   transposed: N x K, B[j*K + k]
 *   C: M x N, C[i*N + j]                                                  */
typedef struct Problem_ {
   int m, n, k;
   Precision precision;
   bool trans_a, trans_b;
   double alpha, beta;
} Problem;

static inline size_t Precision_size(Precision p) { return p == PRECISION_DOUBLE ? 8 : 4; }
const char *Precision_name(Precision p);
bool Precision_parse(const char *s, Precision *out);

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
