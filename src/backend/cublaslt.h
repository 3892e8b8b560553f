/* cuBLASLt's FP8 GEMM (cublasLtMatmul), loaded at run time: the CUDA backend's vendor
 * reference for e4m3 and e5m2. It is kept apart from backend_cuda.c and reaches the device
 * only through a CublasLtDevice, so that tests/unit/test_cublaslt.c drives it with a
 * made-up library (tests/unit/fake_cublaslt.c) on host memory.
 *
 * How gemmtop's row-major problem is put to it (cuBLASLt is column-major, as cuBLAS):
 *   C = op(A) op(B) (M x N, row-major) is C^T = op(B)^T op(A)^T (N x M, column-major), so
 *   cuBLASLt's first operand is gemmtop's B and its second gemmtop's A. FP8 takes only
 *   "TN": its first operand transposed, its second not, both with K contiguous: gemmtop's
 *   A stored M x K and B stored N x K (layout NT); anything else is refused here (the
 *   engine transposes first: Backend.vendorKMajor).
 *     A (cuBLASLt)  = gemmtop B: rows K, cols N, ld K, CUBLASLT_MATMUL_DESC_TRANSA = T
 *     B (cuBLASLt)  = gemmtop A: rows K, cols M, ld K, CUBLASLT_MATMUL_DESC_TRANSB = N
 *     C, D          = gemmtop C: rows N, cols M, ld N, FP32 (or bfloat16 when asked)
 *   FP32 compute and scale type; fast accumulation off (cuBLASLt promotes its partial sums).
 * Scales (device memory, FP32), per tensor: CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F, one
 * value each. Block scales, where the installed cuBLASLt has them on the device:
 *   gemmtop A's 1 x 128 slices: cuBLASLt B's CUBLASLT_MATMUL_MATRIX_SCALE_VEC128_32F, laid
 *     ceil(K/128) rows of roundup(M, 4): scale of (row i, k-block kb) at kb * roundup(M, 4) + i
 *   gemmtop B's 128 x 128 blocks: cuBLASLt A's CUBLASLT_MATMUL_MATRIX_SCALE_BLK128x128_32F,
 *     laid ceil(N/128) rows of roundup(ceil(K/128), 4): block (kb, jb) at
 *     jb * roundup(ceil(K/128), 4) + kb
 *   (the layouts PyTorch's _scaled_mm and Transformer Engine hand cuBLASLt; the padding
 *   keeps each row 16-byte aligned). */
#ifndef GEMMTOP_CUBLASLT_H
#define GEMMTOP_CUBLASLT_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/gpu_common.h"

/* What cuBLASLt needs of the device: its stream, memory and timing events. */
typedef struct CublasLtDevice_ {
   const GpuRuntime *rt;    /* its events time the calls */
   void *stream;            /* CUstream */
   int sm;                  /* compute capability x10 (90), for messages */
   GpuHold *hold;           /* timed calls queued behind it (gpu_common.h); NULL: none */
   void *self;              /* given back to the calls below */
   int (*alloc)(void *self, size_t bytes, unsigned long long *ptr); /* 0 on success */
   void (*release)(void *self, unsigned long long ptr);
   int (*upload)(void *self, unsigned long long dst, const void *src, size_t bytes); /* 0 on success */
} CublasLtDevice;

typedef struct CublasLt_ CublasLt;

/* Whether cuBLASLt is gemmtop's reference for type p (the types with scales: FP8). */
bool CublasLt_takes(Precision p);

/* One C = alpha op(A) op(B) + beta C on device pointers A (M x K), B (N x K) and C, finished,
 * its device time in out->ms, its name ("cuBLASLt 13.1.0 e4m3 block") and note in out.
 * *lt is made on the first call (the library loaded: $GEMMTOP_CUBLASLT alone when set, else
 * libcublasLt.so.13, libcublasLt.so; a handle; a 32 MiB workspace) and kept for the
 * device's later calls. The first call of each size, type, scaling, C type and beta-ness
 * asks the heuristic for up to 8 algorithms, runs each once untimed and once timed, and
 * keeps the fastest for the session. BACKEND_ERR_NO_RUNTIME without the library,
 * BACKEND_ERR_UNSUPPORTED when it has no such GEMM (a type, a layout, block scales on this
 * device, a size): err says which; nothing else is ever put in its place. */
BackendStatus CublasLt_gemm(CublasLt **lt, const CublasLtDevice *dev, const BackendGemm *p, unsigned long long A,
                            unsigned long long B, unsigned long long C, BackendVendorCall *out, char *err,
                            size_t errlen);
/* Its device memory, handle and library; lt may be NULL. */
void CublasLt_free(CublasLt *lt, const CublasLtDevice *dev);

#endif
