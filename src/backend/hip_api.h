/* The few declarations of the HIP runtime, hipRTC and rocBLAS that the HIP backend calls,
 * written out so that gemmtop builds without ROCm and loads the libraries at run time (as
 * backend_cuda.c does for CUDA). Types and tags are those of AMD's headers: where
 * /usr/include/hip exists, tests/unit/test_hip_abi.c checks every function type and
 * constant here against hip_runtime_api.h and hiprtc.h at compile time. */
#ifndef GEMMTOP_HIP_API_H
#define GEMMTOP_HIP_API_H

#include <stddef.h>

/* hipError_t, hiprtcResult, hipDeviceAttribute_t, hipFunction_attribute and rocBLAS's
 * enums hold only non-negative values, so GCC and Clang make them unsigned int: passed and
 * returned exactly as these are. */
typedef unsigned int HipError;
typedef unsigned int HiprtcResult;
typedef unsigned int HipAttribute;
typedef unsigned int HipFuncAttribute;
typedef int HipDevice;
typedef struct ihipStream_t *HipStream;
typedef struct ihipModule_t *HipModule;
typedef struct ihipModuleSymbol_t *HipFunction;
typedef struct ihipEvent_t *HipEvent;
typedef void *HipDeviceptr;
typedef struct _hiprtcProgram *HiprtcProgram;
struct hipDeviceProp_t;

enum {
   HIP_SUCCESS_ = 0,
   HIP_ERROR_OUT_OF_MEMORY_ = 2,  /* hipErrorOutOfMemory */
   HIP_ERROR_NO_DEVICE_ = 100,    /* hipErrorNoDevice */
};

/* hipDeviceAttribute_t: the same values from HIP 5.0 to 7 (new ones were appended). */
enum {
   HIP_ATTR_CLOCK_RATE = 5,
   HIP_ATTR_MAX_BLOCK_DIM_X = 26,
   HIP_ATTR_MAX_BLOCK_DIM_Y = 27,
   HIP_ATTR_MAX_BLOCK_DIM_Z = 28,
   HIP_ATTR_MAX_THREADS_PER_BLOCK = 56,
   HIP_ATTR_MULTIPROCESSOR_COUNT = 63,
   HIP_ATTR_MAX_SHARED_PER_BLOCK = 74,
   HIP_ATTR_WARP_SIZE = 87,
};
/* hipFunction_attribute (the CUDA values). */
enum { HIP_FUNC_MAX_THREADS = 0, HIP_FUNC_SHARED_BYTES = 1, HIP_FUNC_LOCAL_BYTES = 3, HIP_FUNC_NUM_REGS = 4 };

/* Room for hipDeviceProp_t of any HIP version (792 bytes in 5.x, about 1.5 KiB in 6.x);
 * the arch name is found in it by content, not by offset (see Hip_archFromProps). */
#define HIP_PROPS_BYTES 16384

typedef HipError HipInitFn(unsigned int flags);
typedef HipError HipIntOutFn(int *value); /* hipDriverGetVersion, hipRuntimeGetVersion, hipGetDeviceCount */
typedef HipError HipSetDeviceFn(int device);
typedef HipError HipDeviceGetNameFn(char *name, int len, HipDevice device);
typedef HipError HipDeviceGetAttributeFn(int *value, HipAttribute attr, int device);
typedef HipError HipDeviceTotalMemFn(size_t *bytes, HipDevice device);
typedef HipError HipGetDevicePropertiesFn(struct hipDeviceProp_t *props, int device);
typedef HipError HipStreamCreateFn(HipStream *stream);
typedef HipError HipStreamFn(HipStream stream); /* hipStreamDestroy, hipStreamSynchronize */
typedef HipError HipModuleLoadDataFn(HipModule *module, const void *image);
typedef HipError HipModuleUnloadFn(HipModule module);
typedef HipError HipModuleGetFunctionFn(HipFunction *function, HipModule module, const char *name);
typedef HipError HipFuncGetAttributeFn(int *value, HipFuncAttribute attr, HipFunction function);
typedef HipError HipMallocFn(void **ptr, size_t bytes);
typedef HipError HipFreeFn(void *ptr);
typedef HipError HipMemcpyHtoDFn(HipDeviceptr dst, void *src, size_t bytes);
typedef HipError HipMemcpyDtoHFn(void *dst, HipDeviceptr src, size_t bytes);
typedef HipError HipMemcpyDtoDAsyncFn(HipDeviceptr dst, HipDeviceptr src, size_t bytes, HipStream stream);
typedef HipError HipModuleLaunchKernelFn(HipFunction f, unsigned int gridX, unsigned int gridY, unsigned int gridZ,
                                         unsigned int blockX, unsigned int blockY, unsigned int blockZ,
                                         unsigned int sharedBytes, HipStream stream, void **params, void **extra);
typedef HipError HipEventCreateFn(HipEvent *event);
typedef HipError HipEventRecordFn(HipEvent event, HipStream stream);
typedef HipError HipEventFn(HipEvent event); /* hipEventSynchronize, hipEventDestroy */
typedef HipError HipEventElapsedTimeFn(float *ms, HipEvent start, HipEvent stop);
typedef const char *HipGetErrorStringFn(HipError error);

typedef HiprtcResult HiprtcCreateProgramFn(HiprtcProgram *prog, const char *src, const char *name, int numHeaders,
                                           const char **headers, const char **includeNames);
typedef HiprtcResult HiprtcCompileProgramFn(HiprtcProgram prog, int numOptions, const char **options);
typedef HiprtcResult HiprtcSizeFn(HiprtcProgram prog, size_t *size); /* GetProgramLogSize, GetCodeSize */
typedef HiprtcResult HiprtcTextFn(HiprtcProgram prog, char *out);    /* GetProgramLog, GetCode */
typedef HiprtcResult HiprtcDestroyProgramFn(HiprtcProgram *prog);
typedef const char *HiprtcGetErrorStringFn(HiprtcResult result);

/* rocBLAS (rocblas.h): column-major, host-side alpha and beta (the default pointer mode). */
typedef unsigned int RocblasStatus;
typedef unsigned int RocblasOperation;
typedef struct _rocblas_handle *RocblasHandle;
enum { ROCBLAS_OP_NONE = 111, ROCBLAS_OP_TRANSPOSE = 112 };
enum { ROCBLAS_STATUS_MEMORY_ERROR = 5 };
typedef RocblasStatus RocblasCreateHandleFn(RocblasHandle *handle);
typedef RocblasStatus RocblasSetStreamFn(RocblasHandle handle, HipStream stream);
typedef RocblasStatus RocblasVersionStringFn(char *buf, size_t len);
typedef const char *RocblasStatusToStringFn(RocblasStatus status);
typedef RocblasStatus RocblasSgemmFn(RocblasHandle handle, RocblasOperation transA, RocblasOperation transB, int m, int n,
                                     int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
                                     const float *beta, float *C, int ldc);
typedef RocblasStatus RocblasDgemmFn(RocblasHandle handle, RocblasOperation transA, RocblasOperation transB, int m, int n,
                                     int k, const double *alpha, const double *A, int lda, const double *B, int ldb,
                                     const double *beta, double *C, int ldc);

#endif
