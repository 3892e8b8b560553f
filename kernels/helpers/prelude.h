/* gemmtop prelude: prepended to every kernel before compiling. */
#ifndef DOUBLE
#define DOUBLE 0
#endif
#ifndef TRANSA
#define TRANSA 0
#endif
#ifndef TRANSB
#define TRANSB 0
#endif

#if DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double real;
typedef double2 real2;
typedef double4 real4;
typedef double8 real8;
typedef double16 real16;
#define REAL_ZERO 0.0
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
typedef float8 real8;
typedef float16 real16;
#define REAL_ZERO 0.0f
#endif

#define GT_CAT_(a, b) a##b
#define GT_CAT(a, b) GT_CAT_(a, b)
/* real, real2, real4, ... by width; width 1 maps to the scalar type. */
#define GT_REALN(w) GT_CAT(GT_REAL_, w)
#define GT_REAL_1 real
#define GT_REAL_2 real2
#define GT_REAL_4 real4
#define GT_REAL_8 real8
#define GT_REAL_16 real16

/* Local-memory accesses. Plain accesses normally; a tracing build (GT_TRACE=1) records
 * (site, work-item, byte address, width) of the first work-group(s) into a trace buffer. */
#ifndef GT_TRACE
#define GT_TRACE 0
#endif
#if GT_TRACE
#ifndef GT_TRACE_CAP
#define GT_TRACE_CAP 65536
#endif
/* The trace buffer is a kernel-global pointer set by the tracing entry wrapper. */
#define LDS_LOAD(site, ptr) (gt_trace_access(site, (__local const void *)(ptr), sizeof(*(ptr)), 0), *(ptr))
#define LDS_STORE(site, ptr, value) (gt_trace_access(site, (__local const void *)(ptr), sizeof(*(ptr)), 1), *(ptr) = (value))
#else
#define LDS_LOAD(site, ptr) (*(ptr))
#define LDS_STORE(site, ptr, value) (*(ptr) = (value))
#endif
