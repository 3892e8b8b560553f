/* The accuracy frontier: one set of float32 inputs through every element type gemmtop has
 * (FP32, 3xTF32, tf32, bfloat16, half, e4m3 and e5m2 with per-tensor and block scales),
 * each path's speed beside its error against the float64 product of the original inputs,
 * so that the rounding of the inputs to the type counts. `gemmtop bench --frontier`
 * (cli/cli_frontier.c) runs it; this is its data and arithmetic. */
#ifndef GEMMTOP_FRONTIER_H
#define GEMMTOP_FRONTIER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/model/problem.h"

#define FRONTIER_CANDIDATES 8

/* A path: its type and the configurations that serve it, best first: preset names, or
 * "kernel:NAME" for a kernel at its defaults. The first that runs on the device is used. */
typedef struct FrontierPath_ {
   const char *label;         /* "FP32", "3xTF32", "tf32", "e4m3 block" */
   Precision precision;
   Scaling scaling;
   int tensor;                /* 1: a tensor-core kernel only (3xTF32 is float on one), 0: none, -1: either */
   const char *candidates[FRONTIER_CANDIDATES];
} FrontierPath;

const FrontierPath *Frontier_paths(int *count);

/* The error of C against the float64 product of op(A) (M x K) and op(B) (K x N), given as
 * logical row-major floats: |c_ij - (alpha sum_k a_ik b_kj + beta c0_ij)| / (|alpha| sum_k
 * |a_ik b_kj| + |beta c0_ij|) at sampled entries (all of C up to 4096 entries; else the
 * corners and 4092 random ones). C and C0 (NULL when beta is 0) are M x N in p's output type. */
typedef struct FrontierError_ {
   double max, median;
   size_t samples;
} FrontierError;
void Frontier_error(const Problem *p, const float *A, const float *B, const void *C0, const void *C, uint64_t seed,
                    FrontierError *out);

/* One point of the chart. */
typedef struct FrontierPoint_ {
   char label[96];            /* "e4m3 block: fp8mma1_scaled" */
   double gflops, max_err, median_err;
   bool vendor, emulated;
} FrontierPoint;

/* A scatter of error (log scale, down is more accurate) against GFLOPS (log scale, right is
 * faster), one labelled point a path (vendor libraries hollow); NULL when out of memory. */
char *Frontier_svg(const FrontierPoint *points, int n, const char *title, const char *subtitle);

#endif
