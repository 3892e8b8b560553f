/* CUDA: Backend_cuda() (backend.h) runs kernels on NVIDIA GPUs; these compile through
 * NVRTC without one (cuda_offline.c, the backend's offline table, and the tests). */
#ifndef GEMMTOP_BACKEND_CUDA_H
#define GEMMTOP_BACKEND_CUDA_H

#include <stdbool.h>
#include <stddef.h>

#include "backend/backend.h"

/* Whether options (Config_defines) ask for the architecture-specific target: sm_90 becomes
 * sm_90a (a kernel with `arch: sm_90a`). */
bool Cuda_archSpecific(const char *options);
/* GEMMTOP_CUDA_COMPILER: nvcc (or its path) builds the kernels instead of NVRTC, for
 * comparing the two compilers on one kernel; NULL when NVRTC does (the default). */
const char *Cuda_nvccWanted(void);
/* NVRTC (or that nvcc) alone, no GPU needed: CUBIN or PTX of source for arch ("sm_90";
 * with Cuda_archSpecific(options), "sm_90a"). */
BackendStatus Cuda_compileOnly(const char *source, const char *options, const char *arch, bool want_ptx, char **out,
                               size_t *outlen, char **log, char *err, size_t errlen);
/* cuTensorMapEncodeTiled's data type for elements of elem_bytes bytes (1, 2 or 4), -1 otherwise. */
int Cuda_tensorMapDataType(int elem_bytes);
/* Whether NVRTC can be loaded. */
bool Cuda_nvrtcPresent(void);

/* The CUDA backend's offline table (Backend.offline). */
extern const BackendOffline Cuda_offline;

#endif
