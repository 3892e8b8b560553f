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

/* Compiled by NVRTC or hipRTC, prelude_cuda.h comes first and defines GT_CUDA: the
 * OpenCL built-ins are mapped there. Portable kernels declare local arrays with __local
 * and write LOCAL_PTR (not __local) in pointer types and casts. */
#ifndef GT_CUDA
#define GT_CUDA 0
#define LOCAL_PTR __local
#endif

/* GT_CPU is 1 where the kernel is compiled for a CPU (PoCL). There the work-items of a
 * group run as loops that PoCL builds around the kernel's code at its first launch, and
 * LLVM's unroller takes much longer on a long loop unrolled inside them: GT_UNROLL unrolls
 * a loop whole on a GPU (#pragma unroll) and four steps at a time on a CPU. fast01's loop
 * over BK = 16 took 15 s to compile unrolled whole, 4 s by four, and ran as fast
 * (docs/perf.md). */
#ifndef GT_CPU
#define GT_CPU 0
#endif
#if GT_CPU
#define GT_UNROLL _Pragma("unroll 4")
#else
#define GT_UNROLL _Pragma("unroll")
#endif

/* A helper function a kernel file defines for its kernels: a device function under NVRTC
 * and hipRTC, a plain one in OpenCL C. */
#if GT_CUDA
#define GT_FN static __device__ __forceinline__
#else
#define GT_FN static inline
#endif

#if DOUBLE
#if !GT_CUDA
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
typedef double real;
typedef double2 real2;
typedef double4 real4;
#if !GT_CUDA
typedef double8 real8;
typedef double16 real16;
#endif
#define REAL_ZERO 0.0
#else
typedef float real;
typedef float2 real2;
typedef float4 real4;
#if !GT_CUDA
typedef float8 real8;
typedef float16 real16;
#endif
#define REAL_ZERO 0.0f
#endif

/* The element types of A and B (in_t, IN_TO_FLOAT, GT_TF32, GT_HALF, GT_BF16) are in
 * helpers/types.h, which gemmtop joins right after this file. */

/* Vector values that read the same in OpenCL C and CUDA: (real4)(a, b, c, d) is
 * OpenCL-only syntax. */
#if GT_CUDA
#if DOUBLE
#define MAKE_REAL2(a, b) make_double2((a), (b))
#define MAKE_REAL4(a, b, c, d) make_double4((a), (b), (c), (d))
#else
#define MAKE_REAL2(a, b) make_float2((a), (b))
#define MAKE_REAL4(a, b, c, d) make_float4((a), (b), (c), (d))
#endif
#define SPLAT_REAL2(x) MAKE_REAL2((x), (x))
#define SPLAT_REAL4(x) MAKE_REAL4((x), (x), (x), (x))
#define SPLAT_FLOAT2(x) make_float2((x), (x))
#define SPLAT_FLOAT4(x) make_float4((x), (x), (x), (x))
#else
#define MAKE_REAL2(a, b) ((real2)((a), (b)))
#define MAKE_REAL4(a, b, c, d) ((real4)((a), (b), (c), (d)))
#define SPLAT_REAL2(x) ((real2)(x))
#define SPLAT_REAL4(x) ((real4)(x))
#define SPLAT_FLOAT2(x) ((float2)(x))
#define SPLAT_FLOAT4(x) ((float4)(x))
#endif

/* The work-group size a kernel is written for, put after __kernel void: lets the compiler
 * budget registers (OpenCL reqd_work_group_size; CUDA __launch_bounds__). */
#if GT_CUDA
#define GT_WORKGROUP(x, y, z) __launch_bounds__((x) * (y) * (z))
#else
#define GT_WORKGROUP(x, y, z) __attribute__((reqd_work_group_size((x), (y), (z))))
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
/* A vector of width w (1, 2 or 4) with every element x. */
#define SPLAT_REALN(w, x) GT_CAT(GT_SPLAT_REAL_, w)(x)
#define GT_SPLAT_REAL_1(x) (x)
#define GT_SPLAT_REAL_2(x) SPLAT_REAL2(x)
#define GT_SPLAT_REAL_4(x) SPLAT_REAL4(x)
#define GT_SPLAT_REAL_8(x) ((real8)(x))
#define GT_SPLAT_REAL_16(x) ((real16)(x))

/* Local-memory accesses. Plain accesses normally. A tracing build (GT_TRACE=1, used by
 * the bank-conflict analysis) records every access of the first GT_TRACE_GROUPS work-groups:
 * site, load or store, width, work-group, work-item, the work-item's own execution count of
 * that site, and the local address. The kernel's parameter list ends with GT_TRACE_PARAM,
 * which adds the trace buffer in a tracing build and nothing otherwise.
 * ptr is evaluated twice when tracing: it must have no side effects. */
#ifndef GT_TRACE
#define GT_TRACE 0
#endif
#if GT_TRACE
#ifndef GT_LOCAL_ADDRESS
#define GT_LOCAL_ADDRESS(p) ((uint)(size_t)(p))
#endif
#define GT_TRACE_PARAM , __global uint *gt_trace
/* Buffer layout (uints): [0] records written, [1] records dropped (over GT_TRACE_CAP),
 * [2..3] unused; then GT_TRACE_GROUPS*GT_TRACE_WG*GT_TRACE_SITES counters; then records of
 * four uints: site | global<<6 | store<<7 | width<<8 | group<<16, work-item, sequence,
 * address. A record of site for this work-item of a traced group, its flags (bits 6 and 7)
 * and width given, while its execution count is below most. */
void gt_trace_put(__global uint *tr, uint site, uint flags, uint width, uint address, uint most);
void gt_trace_put(__global uint *tr, uint site, uint flags, uint width, uint address, uint most) {
   const uint g = get_group_id(0) + get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
   if (g >= GT_TRACE_GROUPS || site >= GT_TRACE_SITES)
      return;
   const uint lid = get_local_id(0) + get_local_size(0) * (get_local_id(1) + get_local_size(1) * get_local_id(2));
   __global uint *counter = tr + 4 + (g * GT_TRACE_WG + lid) * GT_TRACE_SITES + site;
   const uint seq = *counter;
   *counter = seq + 1;
   if (seq >= most)
      return;
   const uint idx = atomic_inc(&tr[0]);
   if (idx >= GT_TRACE_CAP) {
      atomic_inc(&tr[1]);
      return;
   }
   __global uint *rec = tr + 4 + GT_TRACE_GROUPS * GT_TRACE_WG * GT_TRACE_SITES + idx * 4;
   rec[0] = site | flags | (width << 8) | (g << 16);
   rec[1] = lid;
   rec[2] = seq;
   rec[3] = address;
}
void gt_record(__global uint *tr, uint site, LOCAL_PTR const void *p, uint width, uint store);
void gt_record(__global uint *tr, uint site, LOCAL_PTR const void *p, uint width, uint store) {
   gt_trace_put(tr, site, store << 7, width, GT_LOCAL_ADDRESS(p), 0xffffffffu);
}
#if GT_TRACE_GLOBAL
/* A global-load trace (GT_TRACE_GLOBAL=1, the coalescing analysis): the loads of A and B
 * through the GT_LOAD_* macros below, each work-item's first GT_TRACE_GSEQ executions of
 * a site (the pattern repeats along K), flagged with bit 6 of the first word; the
 * address is the low 32 bits of the global one (buffers start on a 128-byte line).
 * Local accesses are recorded too. */
#ifndef GT_TRACE_GSEQ
#define GT_TRACE_GSEQ 64u
#endif
/* The global loads' counters follow the local sites': A's at GT_TRACE_SITES - 2, B's last. */
#define GT_GTRACE(site, lvalue)                                                                 \
   (gt_trace_put(gt_trace, GT_TRACE_SITES - 2u + (site), 1u << 6, sizeof(lvalue), (uint)(size_t)&(lvalue), \
                 GT_TRACE_GSEQ),                                                                 \
    (lvalue))
#endif
#define LDS_LOAD(site, ptr) (gt_record(gt_trace, (site), (LOCAL_PTR const void *)(ptr), sizeof(*(ptr)), 0u), *(ptr))
#define LDS_STORE(site, ptr, value) \
   (gt_record(gt_trace, (site), (LOCAL_PTR const void *)(ptr), sizeof(*(ptr)), 1u), *(ptr) = (value))
#else
#define GT_TRACE_PARAM
#define LDS_LOAD(site, ptr) (*(ptr))
#define LDS_STORE(site, ptr, value) (*(ptr) = (value))
#endif
#ifndef GT_TRACE_GLOBAL
#define GT_TRACE_GLOBAL 0
#endif
/* GT_GTRACE(0 for A or 1 for B, lvalue): the lvalue, its load recorded in a global-load
 * trace. The GT_LOAD_A/B/AN/BN macros below do it themselves; a kernel wraps the lvalue
 * itself where its load is not one of theirs (a word made of several elements). */
#if !GT_TRACE_GLOBAL
#define GT_GTRACE(site, lvalue) (lvalue)
#endif

/* Ablation (gemmtop run --ablate): switch one kind of work off and see what the time does,
 * as in the MAGMA/Fermi experiment log. Kernels write their global loads of A and B, their
 * multiply-adds and their final store of C through the macros below; without a
 * -DGT_ABLATE_* switch each is exactly the plain code. Every replacement keeps a data
 * dependence, so that the compiler cannot delete the work the other switches keep:
 *   GT_ABLATE_NO_A / NO_B: the global load becomes a value made from the work-item's
 *     index (not known when compiling, never 0); the address and the load are gone, every
 *     local-memory store and multiply-add that used the value stays.
 *   GT_ABLATE_NO_FMA: acc += a*b becomes acc = bits(acc) ^ bits(a) ^ bits(b): one integer
 *     logic operation instead of a floating-point multiply-add; every operand is still read
 *     (from registers or local memory) and the chain through acc stays.
 *   GT_ABLATE_CONST_STORE: C gets GT_ABLATE_CONSTANT; the value is kept through
 *     value * 0 + constant (not foldable without fast-math), so loads and arithmetic stay.
 * Scalar forms take one real; the N forms take a vector of width w (1, 2, 4; 8, 16 in
 * OpenCL): GT_FMAN(w, acc, vec, s) is acc += vec * s with s a scalar. */
#ifndef GT_ABLATE_NO_A
#define GT_ABLATE_NO_A 0
#endif
#ifndef GT_ABLATE_NO_B
#define GT_ABLATE_NO_B 0
#endif
#ifndef GT_ABLATE_NO_FMA
#define GT_ABLATE_NO_FMA 0
#endif
#ifndef GT_ABLATE_CONST_STORE
#define GT_ABLATE_CONST_STORE 0
#endif
#define GT_ABLATE_CONSTANT 1.25
/* A stand-in for a loaded element: 1/16 .. 15/16, from the work-item's index. */
#define GT_ABLATE_VALUE(salt) \
   ((real)((((int)get_local_id(0) + 3 * (int)get_local_id(1) + (salt)) & 7)) * (real)0.125 + (real)0.0625)

#if GT_ABLATE_NO_A
#define GT_LOAD_A(expr) GT_ABLATE_VALUE(1)
#define GT_LOAD_AN(w, expr) SPLAT_REALN(w, GT_ABLATE_VALUE(1))
#else
#define GT_LOAD_A(expr) GT_GTRACE(0u, expr)
#define GT_LOAD_AN(w, expr) GT_GTRACE(0u, expr)
#endif
#if GT_ABLATE_NO_B
#define GT_LOAD_B(expr) GT_ABLATE_VALUE(6)
#define GT_LOAD_BN(w, expr) SPLAT_REALN(w, GT_ABLATE_VALUE(6))
#else
#define GT_LOAD_B(expr) GT_GTRACE(1u, expr)
#define GT_LOAD_BN(w, expr) GT_GTRACE(1u, expr)
#endif

#if GT_ABLATE_NO_FMA
#if GT_CUDA
/* gt_mix is in prelude_cuda.h (overloaded per type). */
#define GT_MIXN(w, c, v, s) gt_mix((c), (v), (s))
#else
#if DOUBLE
#define GT_BITS_1 as_ulong
#define GT_BITS_2 as_ulong2
#define GT_BITS_4 as_ulong4
#define GT_BITS_8 as_ulong8
#define GT_BITS_16 as_ulong16
#define GT_FROM_BITS_1 as_double
#define GT_FROM_BITS_2 as_double2
#define GT_FROM_BITS_4 as_double4
#define GT_FROM_BITS_8 as_double8
#define GT_FROM_BITS_16 as_double16
#else
#define GT_BITS_1 as_uint
#define GT_BITS_2 as_uint2
#define GT_BITS_4 as_uint4
#define GT_BITS_8 as_uint8
#define GT_BITS_16 as_uint16
#define GT_FROM_BITS_1 as_float
#define GT_FROM_BITS_2 as_float2
#define GT_FROM_BITS_4 as_float4
#define GT_FROM_BITS_8 as_float8
#define GT_FROM_BITS_16 as_float16
#endif
#define GT_MIXN(w, c, v, s) \
   GT_CAT(GT_FROM_BITS_, w)(GT_CAT(GT_BITS_, w)(c) ^ GT_CAT(GT_BITS_, w)(v) ^ GT_BITS_1((real)(s)))
#endif
#define GT_FMA(acc, a, b) ((acc) = GT_MIXN(1, (acc), (real)(a), (b)))
#define GT_MAD(acc, a, b) GT_FMA(acc, a, b)
#define GT_FMAN(w, acc, vec, s) ((acc) = GT_MIXN(w, (acc), (vec), (s)))
#else
#define GT_FMA(acc, a, b) ((acc) += (a) * (b))
#define GT_MAD(acc, a, b) ((acc) = mad((a), (b), (acc)))
#define GT_FMAN(w, acc, vec, s) ((acc) += (vec) * (s))
#endif

#if GT_ABLATE_CONST_STORE
#define GT_STORE_C(lvalue, value) ((lvalue) = (value) * (real)0 + (real)GT_ABLATE_CONSTANT)
#define GT_STORE_CN(w, lvalue, value) ((lvalue) = (value) * (real)0 + SPLAT_REALN(w, (real)GT_ABLATE_CONSTANT))
#else
#define GT_STORE_C(lvalue, value) ((lvalue) = (value))
#define GT_STORE_CN(w, lvalue, value) ((lvalue) = (value))
#endif
