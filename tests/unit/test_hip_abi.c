/* The HIP backend's hand-written declarations (src/hip_api.h) against AMD's own headers:
 * where /usr/include/hip exists (Debian: libamdhip64-dev), every function type and constant
 * the backend uses is checked at compile time, so a wrong prototype does not build. Then
 * the search for the gfx target in hipDeviceProp_t, on the real struct and on random ones. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backend/backend.h"
#include "backend/backend_hip.h"
#include "backend/hip_api.h"
#include "base/rng.h"
#include "testing.h"

#if defined(__has_include)
#if __has_include(<hip/hip_runtime_api.h>) && __has_include(<hip/hiprtc.h>)
#define HAVE_HIP_HEADERS 1
#endif
#if __has_include(<rocblas/rocblas.h>)
#define HAVE_ROCBLAS_HEADER 1
#endif
#endif

#ifdef HAVE_HIP_HEADERS
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#include <hip/hip_runtime_api.h>
#include <hip/hiprtc.h>

/* The function the header declares has exactly the type the backend calls it through. */
#define SAME_TYPE(fn, type) \
   _Static_assert(__builtin_types_compatible_p(__typeof__(fn), type), #fn " does not match " #type " in hip_api.h")

SAME_TYPE(hipInit, HipInitFn);
SAME_TYPE(hipRuntimeGetVersion, HipIntOutFn);
SAME_TYPE(hipGetDeviceCount, HipIntOutFn);
SAME_TYPE(hipSetDevice, HipSetDeviceFn);
SAME_TYPE(hipDeviceGetName, HipDeviceGetNameFn);
SAME_TYPE(hipDeviceGetAttribute, HipDeviceGetAttributeFn);
SAME_TYPE(hipDeviceTotalMem, HipDeviceTotalMemFn);
SAME_TYPE(hipGetDeviceProperties, HipGetDevicePropertiesFn);
SAME_TYPE(hipStreamCreate, HipStreamCreateFn);
SAME_TYPE(hipStreamDestroy, HipStreamFn);
SAME_TYPE(hipStreamSynchronize, HipStreamFn);
SAME_TYPE(hipModuleLoadData, HipModuleLoadDataFn);
SAME_TYPE(hipModuleUnload, HipModuleUnloadFn);
SAME_TYPE(hipModuleGetFunction, HipModuleGetFunctionFn);
SAME_TYPE(hipFuncGetAttribute, HipFuncGetAttributeFn);
SAME_TYPE(hipMalloc, HipMallocFn);
SAME_TYPE(hipFree, HipFreeFn);
SAME_TYPE(hipMemcpyHtoD, HipMemcpyHtoDFn);
SAME_TYPE(hipMemcpyDtoH, HipMemcpyDtoHFn);
SAME_TYPE(hipMemcpyDtoDAsync, HipMemcpyDtoDAsyncFn);
SAME_TYPE(hipModuleLaunchKernel, HipModuleLaunchKernelFn);
SAME_TYPE(hipEventCreate, HipEventCreateFn);
SAME_TYPE(hipEventRecord, HipEventRecordFn);
SAME_TYPE(hipEventSynchronize, HipEventFn);
SAME_TYPE(hipEventDestroy, HipEventFn);
SAME_TYPE(hipEventElapsedTime, HipEventElapsedTimeFn);
SAME_TYPE(hipGetErrorString, HipGetErrorStringFn);

SAME_TYPE(hiprtcCreateProgram, HiprtcCreateProgramFn);
SAME_TYPE(hiprtcCompileProgram, HiprtcCompileProgramFn);
SAME_TYPE(hiprtcGetProgramLogSize, HiprtcSizeFn);
SAME_TYPE(hiprtcGetProgramLog, HiprtcTextFn);
SAME_TYPE(hiprtcGetCodeSize, HiprtcSizeFn);
SAME_TYPE(hiprtcGetCode, HiprtcTextFn);
SAME_TYPE(hiprtcDestroyProgram, HiprtcDestroyProgramFn);
SAME_TYPE(hiprtcGetErrorString, HiprtcGetErrorStringFn);

_Static_assert(sizeof(hipError_t) == sizeof(HipError), "hipError_t size");
_Static_assert(sizeof(hipDeviceptr_t) == sizeof(HipDeviceptr), "hipDeviceptr_t size");
_Static_assert((int)hipSuccess == (int)HIP_SUCCESS_, "hipSuccess");
_Static_assert((int)hipErrorOutOfMemory == (int)HIP_ERROR_OUT_OF_MEMORY_, "hipErrorOutOfMemory");
_Static_assert((int)hipErrorNoDevice == (int)HIP_ERROR_NO_DEVICE_, "hipErrorNoDevice");
_Static_assert((int)hipDeviceAttributeClockRate == (int)HIP_ATTR_CLOCK_RATE, "ClockRate");
_Static_assert((int)hipDeviceAttributeMaxBlockDimX == (int)HIP_ATTR_MAX_BLOCK_DIM_X, "MaxBlockDimX");
_Static_assert((int)hipDeviceAttributeMaxBlockDimY == (int)HIP_ATTR_MAX_BLOCK_DIM_Y, "MaxBlockDimY");
_Static_assert((int)hipDeviceAttributeMaxBlockDimZ == (int)HIP_ATTR_MAX_BLOCK_DIM_Z, "MaxBlockDimZ");
_Static_assert((int)hipDeviceAttributeMaxThreadsPerBlock == (int)HIP_ATTR_MAX_THREADS_PER_BLOCK, "MaxThreadsPerBlock");
_Static_assert((int)hipDeviceAttributeMultiprocessorCount == (int)HIP_ATTR_MULTIPROCESSOR_COUNT, "MultiprocessorCount");
_Static_assert((int)hipDeviceAttributeMaxSharedMemoryPerBlock == (int)HIP_ATTR_MAX_SHARED_PER_BLOCK, "MaxSharedMemoryPerBlock");
_Static_assert((int)hipDeviceAttributeWarpSize == (int)HIP_ATTR_WARP_SIZE, "WarpSize");
_Static_assert((int)HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK == (int)HIP_FUNC_MAX_THREADS, "MAX_THREADS_PER_BLOCK");
_Static_assert((int)HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES == (int)HIP_FUNC_SHARED_BYTES, "SHARED_SIZE_BYTES");
_Static_assert((int)HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES == (int)HIP_FUNC_LOCAL_BYTES, "LOCAL_SIZE_BYTES");
_Static_assert((int)HIP_FUNC_ATTRIBUTE_NUM_REGS == (int)HIP_FUNC_NUM_REGS, "NUM_REGS");
_Static_assert(sizeof(hipDeviceProp_t) <= HIP_PROPS_BYTES, "hipDeviceProp_t fits the buffer the backend passes");
#endif

#ifdef HAVE_ROCBLAS_HEADER
#include <rocblas/rocblas.h>
SAME_TYPE(rocblas_create_handle, RocblasCreateHandleFn);
SAME_TYPE(rocblas_set_stream, RocblasSetStreamFn);
SAME_TYPE(rocblas_get_version_string, RocblasVersionStringFn);
SAME_TYPE(rocblas_status_to_string, RocblasStatusToStringFn);
SAME_TYPE(rocblas_sgemm, RocblasSgemmFn);
SAME_TYPE(rocblas_dgemm, RocblasDgemmFn);
_Static_assert((int)rocblas_operation_none == (int)ROCBLAS_OP_NONE, "rocblas_operation_none");
_Static_assert((int)rocblas_operation_transpose == (int)ROCBLAS_OP_TRANSPOSE, "rocblas_operation_transpose");
_Static_assert((int)rocblas_status_memory_error == (int)ROCBLAS_STATUS_MEMORY_ERROR, "rocblas_status_memory_error");
#endif

static const char *const NAMES[] = {"AMD Instinct MI100", "Radeon RX 7900 XTX", "Vega 20", "", "AMD Radeon Pro VII"};
static const char *const BASES[] = {"gfx906", "gfx908", "gfx90a", "gfx942", "gfx1030", "gfx1100", "gfx803"};
static const char *const FEATURES[] = {"", ":sramecc+:xnack-", ":xnack-", ":sramecc-", ":sramecc+:xnack+"};
#define COUNT(a) (sizeof(a) / sizeof(a)[0])

static Rng rng;

static int setup(void **state) {
   (void)state;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   printf("# seed %llu\n", (unsigned long long)seed);
   return 0;
}

/* Bytes that are never ASCII, so no stray "gfx" appears by chance. */
static void noise(unsigned char *p, size_t n) {
   for (size_t i = 0; i < n; i++)
      p[i] = (unsigned char)(0x80 + Rng_below(&rng, 0x80));
}

static void test_arch_in_real_props(void **state) {
   (void)state;
#ifdef HAVE_HIP_HEADERS
   for (int round = 0; round < 50; round++) {
      hipDeviceProp_t props;
      noise((unsigned char *)&props, sizeof props);
      const char *name = NAMES[Rng_below(&rng, COUNT(NAMES))];
      const char *base = BASES[Rng_below(&rng, COUNT(BASES))];
      char want[64];
      snprintf(want, sizeof want, "%s%s", base, FEATURES[Rng_below(&rng, COUNT(FEATURES))]);
      snprintf(props.name, sizeof props.name, "%s", name);
      snprintf(props.gcnArchName, sizeof props.gcnArchName, "%s", want);
      char target[256], got[16];
      assert_true(Hip_archFromProps(&props, sizeof props, target, sizeof target, got, sizeof got));
      assert_string_equal(target, want);
      assert_string_equal(got, base);
   }
#else
   SKIP_BECAUSE("the HIP headers (hip/hip_runtime_api.h, hip/hiprtc.h) are not installed: hipDeviceProp_t not checked");
#endif
}

/* Any layout: the target string anywhere in a buffer, after a NUL. */
static void test_arch_anywhere(void **state) {
   (void)state;
   for (int round = 0; round < 200; round++) {
      size_t size = 512 + (size_t)Rng_below(&rng, HIP_PROPS_BYTES - 512);
      unsigned char *buf = malloc(size);
      assert_non_null(buf);
      noise(buf, size);
      char want[64];
      const char *base = BASES[Rng_below(&rng, COUNT(BASES))];
      snprintf(want, sizeof want, "%s%s", base, FEATURES[Rng_below(&rng, COUNT(FEATURES))]);
      size_t len = strlen(want);
      size_t at = 1 + (size_t)Rng_below(&rng, size - len - 2);
      buf[at - 1] = '\0';
      memcpy(buf + at, want, len + 1);
      char target[256], got[16];
      assert_true(Hip_archFromProps(buf, size, target, sizeof target, got, sizeof got));
      assert_string_equal(target, want);
      assert_string_equal(got, base);
      free(buf);
   }
}

static void test_arch_absent(void **state) {
   (void)state;
   char target[256] = "unchanged", base[16] = "unchanged";
   unsigned char buf[4096];
   noise(buf, sizeof buf);
   assert_false(Hip_archFromProps(buf, sizeof buf, target, sizeof target, base, sizeof base));
   /* Not a target: no digit, a character a target never has, no end. */
   const char *bad[] = {"gfx", "gfxabc", "gfx906 name", "GFX906"};
   for (size_t i = 0; i < COUNT(bad); i++) {
      noise(buf, sizeof buf);
      buf[99] = '\0';
      memcpy(buf + 100, bad[i], strlen(bad[i]) + 1);
      assert_false(Hip_archFromProps(buf, sizeof buf, target, sizeof target, base, sizeof base));
   }
   memcpy(buf + sizeof buf - 6, "gfx906", 6); /* runs off the end: no terminating NUL */
   buf[sizeof buf - 7] = '\0';
   assert_false(Hip_archFromProps(buf, sizeof buf, target, sizeof target, base, sizeof base));
   assert_string_equal(target, "unchanged");
}

/* A string that starts after a NUL wins over one inside other bytes; failing that, the
 * latter is taken (gcnArchName may follow an int whose last byte is not 0). */
static void test_arch_prefers_string_start(void **state) {
   (void)state;
   unsigned char buf[1024];
   noise(buf, sizeof buf);
   size_t early = 10 + (size_t)Rng_below(&rng, 100), late = 300 + (size_t)Rng_below(&rng, 500);
   memcpy(buf + early, "gfx900", 7);
   buf[late - 1] = '\0';
   memcpy(buf + late, "gfx90a:xnack-", 14);
   char target[256], base[16];
   assert_true(Hip_archFromProps(buf, sizeof buf, target, sizeof target, base, sizeof base));
   assert_string_equal(target, "gfx90a:xnack-");
   assert_string_equal(base, "gfx90a");
   buf[late - 1] = 0x9c; /* now neither starts a string: the first is taken */
   assert_true(Hip_archFromProps(buf, sizeof buf, target, sizeof target, base, sizeof base));
   assert_string_equal(target, "gfx900");
}

static void test_backend_complete(void **state) {
   (void)state;
   const Backend *b = Backend_byName("hip");
   assert_non_null(b);
   assert_ptr_equal(b, Backend_hip());
   assert_string_equal(b->name, "hip");
   assert_true(b->caps & BACKEND_CAP_CUDA_PRELUDE);
   assert_non_null(b->offline);
   assert_non_null(b->offline->present);
   assert_non_null(b->findDevices);
   assert_non_null(b->open);
   assert_non_null(b->close);
   assert_non_null(b->build);
   assert_non_null(b->kernel);
   assert_non_null(b->releaseKernel);
   assert_non_null(b->releaseProgram);
   assert_non_null(b->alloc);
   assert_non_null(b->free);
   assert_non_null(b->write);
   assert_non_null(b->read);
   assert_non_null(b->copy);
   assert_non_null(b->launch);
   assert_non_null(b->finish);
   assert_non_null(b->eventMs);
   assert_non_null(b->releaseEvent);
   assert_non_null(b->programCode);
   assert_non_null(b->vendorGemm);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_arch_in_real_props),
       cmocka_unit_test(test_arch_anywhere),
       cmocka_unit_test(test_arch_absent),
       cmocka_unit_test(test_arch_prefers_string_start),
       cmocka_unit_test(test_backend_complete),
   };
   return cmocka_run_group_tests(tests, setup, NULL);
}
