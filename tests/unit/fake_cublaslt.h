/* A made-up cuBLASLt (libcublasLt) for test_cublaslt: built as a shared library beside the
 * tests (libfake_cublaslt.so), loaded by gemmtop through $GEMMTOP_CUBLASLT, and scripted
 * by the test through FakeLt_script in the same loaded copy. Its "device pointers" are host
 * pointers: cublasLtMatmul multiplies on the host, reading FP8 operands and FP32 scales as
 * cuBLASLt's documentation and its users (PyTorch, Transformer Engine) lay them, so that a
 * wrong transposition, leading dimension or scale layout gives a wrong C. It refuses what
 * the real library refuses for FP8 (anything but TN, e5m2 x e5m2, a C type other than D's)
 * and records each call's arguments. */
#ifndef GEMMTOP_FAKE_CUBLASLT_H
#define GEMMTOP_FAKE_CUBLASLT_H

#include <stdbool.h>
#include <stddef.h>

#define FAKE_LT_ALGOS 8

typedef struct FakeLtScript_ {
   int create_status;            /* cublasLtCreate's answer (0: success) */
   size_t version;               /* cublasLtGetVersion: 130100 for 13.1.0 */
   bool fp8;                     /* its heuristic offers FP8 GEMMs with per-tensor scales */
   bool block;                   /* ... and with VEC128_32F / BLK128x128_32F scales */
   bool block_bf16_only;         /* ... those with a bfloat16 C only (as PyTorch offers them on Hopper) */
   bool scale_modes;             /* its descriptors know the attributes A_SCALE_MODE and B_SCALE_MODE */
   int algos;                    /* how many algorithms the heuristic offers (up to FAKE_LT_ALGOS) */
   double algo_ms[FAKE_LT_ALGOS]; /* the time each takes on the fake device's clock */
} FakeLtScript;

/* One cublasLtMatmul as it was called. */
typedef struct FakeLtCall_ {
   int transa, transb, compute, scale_type;
   int a_type, b_type, c_type, d_type;
   unsigned long long a_rows, a_cols, b_rows, b_cols, c_rows, c_cols, d_rows, d_cols;
   long long lda, ldb, ldc, ldd;
   int a_scale_mode, b_scale_mode;
   const void *a_scale, *b_scale;
   float alpha, beta;
   int algo;                     /* the algorithm it ran (its index in the heuristic's answer) */
   size_t workspace;
   bool workspace_given;
   bool in_place;                /* C and D the same memory */
} FakeLtCall;

typedef struct FakeLtCalls_ {
   int creates, destroys;
   int heuristics;               /* cublasLtMatmulAlgoGetHeuristic calls */
   unsigned long long max_workspace; /* the preference's CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES */
   int requested;                /* algorithms asked for */
   int matmuls;                  /* cublasLtMatmul calls that ran */
   int runs[FAKE_LT_ALGOS];      /* ... per algorithm */
   int live_objects;             /* descriptors and preferences made and not destroyed */
   FakeLtCall last;
   double clock_ms;              /* the fake device's clock: each matmul adds its algorithm's time */
} FakeLtCalls;

typedef void FakeLtScriptFn(const FakeLtScript *script);
typedef const FakeLtCalls *FakeLtCallsFn(void);

#endif
