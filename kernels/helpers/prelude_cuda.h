/* gemmtop: OpenCL C built-ins for NVRTC (CUDA) and hipRTC (HIP). Prepended before
 * prelude.h when a kernel file is compiled by a CUDA or HIP backend, so one kernel text
 * serves three runtimes (as in CLBlast and myGEMM). C++ is available here. */
#define GT_CUDA 1
#define __kernel extern "C" __global__
#define __global
#define __local __shared__
#define __constant
#define __private
#define LOCAL_PTR
#define restrict __restrict__
#define CLK_LOCAL_MEM_FENCE 1
#define CLK_GLOBAL_MEM_FENCE 2
typedef unsigned char uchar;
typedef unsigned short ushort;
typedef unsigned int uint;
typedef unsigned long ulong;

__device__ inline void barrier(int flags) { __syncthreads(); }
__device__ inline int get_local_id(int d) { return d == 0 ? threadIdx.x : d == 1 ? threadIdx.y : threadIdx.z; }
__device__ inline int get_group_id(int d) { return d == 0 ? blockIdx.x : d == 1 ? blockIdx.y : blockIdx.z; }
__device__ inline int get_local_size(int d) { return d == 0 ? blockDim.x : d == 1 ? blockDim.y : blockDim.z; }
__device__ inline int get_num_groups(int d) { return d == 0 ? gridDim.x : d == 1 ? gridDim.y : gridDim.z; }
__device__ inline int get_global_id(int d) { return get_group_id(d) * get_local_size(d) + get_local_id(d); }
__device__ inline int get_global_size(int d) { return get_num_groups(d) * get_local_size(d); }
__device__ inline uint atomic_inc(uint *p) { return atomicAdd(p, 1u); }
__device__ inline float mad(float a, float b, float c) { return fmaf(a, b, c); }
__device__ inline double mad(double a, double b, double c) { return fma(a, b, c); }

/* The shared-memory address of a pointer, as the hardware's banks see it. */
#if defined(__HIP_DEVICE_COMPILE__) || defined(__HIPCC_RTC__)
#define GT_LOCAL_ADDRESS(p) ((uint)(size_t)(p))
#else
#define GT_LOCAL_ADDRESS(p) ((uint)__cvta_generic_to_shared(p))
#endif

/* OpenCL's vector arithmetic on float2/float4/double2/double4. */
#define GT_VEC_OPS2(T, S)                                                                                       \
   __device__ inline T operator+(T a, T b) { T r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }                \
   __device__ inline T operator-(T a, T b) { T r; r.x = a.x - b.x; r.y = a.y - b.y; return r; }                \
   __device__ inline T operator*(T a, T b) { T r; r.x = a.x * b.x; r.y = a.y * b.y; return r; }                \
   __device__ inline T operator*(T a, S b) { T r; r.x = a.x * b; r.y = a.y * b; return r; }                    \
   __device__ inline T operator*(S a, T b) { return b * a; }                                                   \
   __device__ inline T &operator+=(T &a, T b) { a.x += b.x; a.y += b.y; return a; }                            \
   __device__ inline T &operator*=(T &a, S b) { a.x *= b; a.y *= b; return a; }
#define GT_VEC_OPS4(T, S)                                                                                       \
   __device__ inline T operator+(T a, T b) { T r; r.x = a.x + b.x; r.y = a.y + b.y; r.z = a.z + b.z; r.w = a.w + b.w; return r; } \
   __device__ inline T operator-(T a, T b) { T r; r.x = a.x - b.x; r.y = a.y - b.y; r.z = a.z - b.z; r.w = a.w - b.w; return r; } \
   __device__ inline T operator*(T a, T b) { T r; r.x = a.x * b.x; r.y = a.y * b.y; r.z = a.z * b.z; r.w = a.w * b.w; return r; } \
   __device__ inline T operator*(T a, S b) { T r; r.x = a.x * b; r.y = a.y * b; r.z = a.z * b; r.w = a.w * b; return r; } \
   __device__ inline T operator*(S a, T b) { return b * a; }                                                   \
   __device__ inline T &operator+=(T &a, T b) { a.x += b.x; a.y += b.y; a.z += b.z; a.w += b.w; return a; }    \
   __device__ inline T &operator*=(T &a, S b) { a.x *= b; a.y *= b; a.z *= b; a.w *= b; return a; }
#define GT_VEC_MAD(T)                                                                                           \
   __device__ inline T mad(T a, T b, T c) { return a * b + c; }
/* HIP's vector types come with these operators; CUDA's do not. */
#if !defined(__HIP__)
GT_VEC_OPS2(float2, float)
GT_VEC_OPS2(double2, double)
GT_VEC_OPS4(float4, float)
GT_VEC_OPS4(double4, double)
#endif
GT_VEC_MAD(float2)
GT_VEC_MAD(double2)
GT_VEC_MAD(float4)
GT_VEC_MAD(double4)

/* vloadN / vstoreN: p + offset*N, as in OpenCL (aligned to the element only). */
__device__ inline float2 vload2(size_t i, const float *p) { return make_float2(p[2 * i], p[2 * i + 1]); }
__device__ inline float4 vload4(size_t i, const float *p) {
   return make_float4(p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]);
}
__device__ inline double2 vload2(size_t i, const double *p) { return make_double2(p[2 * i], p[2 * i + 1]); }
__device__ inline double4 vload4(size_t i, const double *p) {
   return make_double4(p[4 * i], p[4 * i + 1], p[4 * i + 2], p[4 * i + 3]);
}
__device__ inline void vstore2(float2 v, size_t i, float *p) { p[2 * i] = v.x; p[2 * i + 1] = v.y; }
__device__ inline void vstore4(float4 v, size_t i, float *p) {
   p[4 * i] = v.x; p[4 * i + 1] = v.y; p[4 * i + 2] = v.z; p[4 * i + 3] = v.w;
}
__device__ inline void vstore2(double2 v, size_t i, double *p) { p[2 * i] = v.x; p[2 * i + 1] = v.y; }
__device__ inline void vstore4(double4 v, size_t i, double *p) {
   p[4 * i] = v.x; p[4 * i + 1] = v.y; p[4 * i + 2] = v.z; p[4 * i + 3] = v.w;
}

/* GT_ABLATE_NO_FMA (prelude.h): the multiply-add acc += v*s becomes one bitwise operation on
 * the bit patterns, which keeps every operand in use without the floating-point unit. */
__device__ inline float gt_mix(float c, float v, float s) {
   return __uint_as_float(__float_as_uint(c) ^ __float_as_uint(v) ^ __float_as_uint(s));
}
__device__ inline double gt_mix(double c, double v, double s) {
   return __longlong_as_double(__double_as_longlong(c) ^ __double_as_longlong(v) ^ __double_as_longlong(s));
}
__device__ inline float2 gt_mix(float2 c, float2 v, float s) { return make_float2(gt_mix(c.x, v.x, s), gt_mix(c.y, v.y, s)); }
__device__ inline float4 gt_mix(float4 c, float4 v, float s) {
   return make_float4(gt_mix(c.x, v.x, s), gt_mix(c.y, v.y, s), gt_mix(c.z, v.z, s), gt_mix(c.w, v.w, s));
}
__device__ inline double2 gt_mix(double2 c, double2 v, double s) {
   return make_double2(gt_mix(c.x, v.x, s), gt_mix(c.y, v.y, s));
}
__device__ inline double4 gt_mix(double4 c, double4 v, double s) {
   return make_double4(gt_mix(c.x, v.x, s), gt_mix(c.y, v.y, s), gt_mix(c.z, v.z, s), gt_mix(c.w, v.w, s));
}

/* Hopper (sm_90a): the bulk tensor copy (TMA), mbarriers, wgmma and setmaxnreg as inline
 * PTX, for kernels that declare `arch: sm_90a` (the engine then defines GT_ARCH_SPECIFIC
 * and compiles for sm_90a). No CUDA header is needed: a tensor map is 128 opaque bytes
 * that the driver encoded (cuTensorMapEncodeTiled) and the launch passes by value. */
#if defined(GT_ARCH_SPECIFIC) && !defined(__HIP__) && !defined(__HIPCC_RTC__)
typedef unsigned long long gt_u64;
struct __align__(64) GtTensorMap {
   gt_u64 opaque[16];
};
#define GT_TENSOR_MAP const __grid_constant__ GtTensorMap

__device__ inline uint gt_smem_addr(const void *p) { return (uint)__cvta_generic_to_shared(p); }

/* This thread's warpgroup, broadcast from lane 0 so that the compiler knows the warp agrees
 * on it: what is computed from it (a consumer's rows, its wgmma descriptors) then lives in
 * uniform registers, not in per-lane ones moved over before every wgmma (R2UR). The FP8
 * steps keep threadIdx.x / 128: with this their block-scaled step 5 ran 9 points slower on
 * the H200 (2026-12-01, docs/shapes.md). */
__device__ inline int gt_warpgroup(void) { return __shfl_sync(0xffffffffu, (int)threadIdx.x / 128, 0); }

/* The slot before slot s of a ring of n: (t - 1) % n for s = t % n and t > 0, from the
 * warp-uniform s, so that giving a slot back costs no division in per-lane registers. */
__device__ inline int gt_ring_prev(int s, int n) { return (s == 0 ? n : s) - 1; }

/* mbarriers: a count of arrivals plus, for the TMA, a count of bytes to come. */
__device__ inline void gt_mbar_init(gt_u64 *bar, uint count) {
   asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(gt_smem_addr(bar)), "r"(count) : "memory");
}
__device__ inline void gt_mbar_fence_init(void) { asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory"); }
__device__ inline void gt_mbar_expect_tx(gt_u64 *bar, uint bytes) {
   asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(gt_smem_addr(bar)), "r"(bytes)
                : "memory");
}
__device__ inline void gt_mbar_arrive(gt_u64 *bar) {
   asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(gt_smem_addr(bar)) : "memory");
}
/* The same by this thread only where `lead` holds (a warp's one lane): a predicated arrival,
 * every lane computing the address, with no branch around it. Around a branch NVRTC's code
 * voted the address uniform (VOTEU) between a wgmma and its wait; predicated, FP8 step 5's
 * cluster kernel ran 1-3% faster on an H200. */
__device__ inline void gt_mbar_arrive_if(gt_u64 *bar, bool lead) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.u32 p, %1, 0;\n@p mbarrier.arrive.shared::cta.b64 _, [%0];\n}" ::"r"(
                    gt_smem_addr(bar)),
                "r"((uint)lead)
                : "memory");
}
__device__ inline uint gt_mbar_try(uint addr, uint phase) {
   uint done;
   asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}\n"
                : "=r"(done)
                : "r"(addr), "r"(phase)
                : "memory");
   return done;
}
/* Waits until the barrier's phase of parity `phase` has completed. */
__device__ inline void gt_mbar_wait(gt_u64 *bar, uint phase) {
   const uint addr = gt_smem_addr(bar);
   while (!gt_mbar_try(addr, phase)) {
   }
}

/* One box of a 2D tensor map into shared memory; c0 is the inner (contiguous) coordinate. */
__device__ inline void gt_tma_load(void *dst, const GtTensorMap *map, int c0, int c1, gt_u64 *bar) {
   asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                ::"r"(gt_smem_addr(dst)), "l"((gt_u64)map), "r"(c0), "r"(c1), "r"(gt_smem_addr(bar))
                : "memory");
}
/* A tensor map brought into the copy engine's cache before the ring's first load, which
 * would otherwise wait for the map's fetch from the kernel's parameters as well: part of a
 * microsecond, which counts in a decode that is over in thirty-odd of them. */
__device__ inline void gt_tma_prefetch_map(const GtTensorMap *map) {
   asm volatile("prefetch.tensormap [%0];" ::"l"((gt_u64)map) : "memory");
}
/* Thread-block clusters: this block's rank in its cluster; a barrier of every thread of
 * the cluster; an arrival on the mbarrier at bar's offset in block `rank` of the cluster
 * (release at the block's scope: a release at the cluster's costs a MEMBAR.ALL.GPU per
 * arrival, which halved step 5's speed, and a slot's release publishes no data);
 * one box copied to the same offset in each block of `mask`, each block's own mbarrier at
 * bar's offset counting the bytes it receives (TMA multicast). */
__device__ inline uint gt_cluster_rank(void) {
   uint r;
   asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
   return r;
}
__device__ inline void gt_cluster_sync(void) {
   asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}
__device__ inline void gt_mbar_arrive_cluster(gt_u64 *bar, uint rank) {
   asm volatile("{\n.reg .b32 remote;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
                "mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(gt_smem_addr(bar)),
                "r"(rank)
                : "memory");
}
__device__ inline void gt_mbar_arrive_cluster_if(gt_u64 *bar, uint rank, bool lead) {
   asm volatile("{\n.reg .b32 remote;\n.reg .pred p;\nsetp.ne.u32 p, %2, 0;\nmapa.shared::cluster.u32 remote, %0, %1;\n"
                "@p mbarrier.arrive.shared::cluster.b64 _, [remote];\n}" ::"r"(gt_smem_addr(bar)),
                "r"(rank), "r"((uint)lead)
                : "memory");
}
__device__ inline void gt_tma_load_multicast(void *dst, const GtTensorMap *map, int c0, int c1, gt_u64 *bar,
                                             unsigned short mask) {
   asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                " [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(gt_smem_addr(dst)), "l"((gt_u64)map), "r"(c0), "r"(c1),
                "r"(gt_smem_addr(bar)), "h"(mask)
                : "memory");
}
/* Two floats into shared memory at a 32-bit shared address (gt_smem_addr, 8-byte aligned).
 * Through a generic pointer each store needs a 64-bit address: with 96 sums per thread live,
 * ptxas spilled registers for them (the FP8 staged epilogue at BN=192). */
__device__ inline void gt_st_shared_f2(uint addr, float2 v) {
   asm volatile("st.shared.v2.f32 [%0], {%1, %2};" ::"r"(addr), "f"(v.x), "f"(v.y) : "memory");
}
__device__ inline float2 gt_ld_shared_f2(uint addr) {
   float2 v;
   asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];" : "=f"(v.x), "=f"(v.y) : "r"(addr) : "memory");
   return v;
}
/* x, once `after` is known: x + min(|after|, 0), which is x + 0 for every `after` (min gives
 * 0 for a NaN too), in instructions the compiler keeps, so that x's uses wait for `after` as
 * well. The FP8 steps' promotion takes its block scales through it with a wgmma sum as
 * `after`: otherwise ptxas may put the first use of a scale, and so the wait for its load
 * from global memory, before the k-block's last wgmma, which it then holds back. It did so in
 * NVRTC's build of step 5 and not in nvcc's (H200: 11-15% slower); with this the two run
 * alike, and step 5 with block scales gained 6-15% (steps 2-4 and 6 do not use it yet). */
__device__ inline float gt_after(float x, float after) {
   float r;
   asm volatile("{\n.reg .f32 t;\nabs.f32 t, %1;\nmin.f32 t, t, 0f00000000;\nadd.f32 %0, %2, t;\n}"
                : "=f"(r)
                : "f"(after), "f"(x));
   return r;
}
/* The FP8 steps' block scales, each first used through a k-block's sums: sa[m][0..1], this
 * thread's two rows of 64-row slice m (of slices), after that slice's first sum; sb[0..nsb-1],
 * the tile's blocks of B, after the second sum of the first slice. */
#define GT_SCALES_AFTER(sa, slices, sb, nsb, acc)                                                                     \
   do {                                                                                                             \
      _Pragma("unroll") for (int m_ = 0; m_ < (slices); m_++) _Pragma("unroll") for (int h_ = 0; h_ < 2; h_++)      \
         (sa)[m_][h_] = gt_after((sa)[m_][h_], (acc)[m_][0]);                                                        \
      _Pragma("unroll") for (int q_ = 0; q_ < (nsb); q_++)(sb)[q_] = gt_after((sb)[q_], (acc)[0][1]);               \
   } while (0)

/* 4 bytes from global to shared memory by cp.async, no register between; then the stage's
 * barrier counts this thread's arrival once all its cp.async copies have landed (`noinc`:
 * the barrier's count includes these arrivals). */
__device__ inline void gt_cp_async4(void *to, const void *from) {
   asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(gt_smem_addr(to)),
                "l"((gt_u64)__cvta_generic_to_global(from))
                : "memory");
}
__device__ inline void gt_cp_async_mbar_arrive(gt_u64 *bar) {
   asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(gt_smem_addr(bar)) : "memory");
}
/* Before the copying thread leaves: its copies have landed. */
__device__ inline void gt_cp_async_wait_all(void) { asm volatile("cp.async.wait_all;" ::: "memory"); }
/* The FP8 steps' block scales beside a stage (their SCALES=1), a region of rows + 4 floats a
 * stage: a producer warp copies k-block t's (A's for the tile's `rows` rows from row0, then
 * B's nsb 128-column blocks from col0's) by cp.async, each lane arriving on the stage's
 * barrier `bar` when its copies land, so that the warp goes on to the next stage at once (with
 * loads and stores through registers it waited for each k-block's loads, and step 5 ran 17-27%
 * slower than without it); a consumer then reads its two rows of each 64-row slice from `row`
 * (its row in the tile) and B's, after its wait for the stage and before it gives the slot
 * back. One warp's 128 copies a k-block in place of every consumer thread's own loads, which
 * the consumers had to issue, and wait for, beside their wgmma. */
#define GT_COPY_SCALES(to, lane, rows, nsb, row0, col0, t, kblocks, nblocks, bar)                                 \
   do {                                                                                                             \
      const float *a_ = &GT_SCALE_A((size_t)((row0) + (lane)) * (kblocks) + (t));                                  \
      _Pragma("unroll") for (int i_ = 0; i_ < (rows) / 32; i_++)                                                   \
         gt_cp_async4(&(to)[(lane) + 32 * i_], a_ + (size_t)(32 * i_) * (kblocks));                                \
      if ((lane) < (nsb))                                                                                           \
         gt_cp_async4(&(to)[(rows) + (lane)], &GT_SCALE_B((size_t)(t) * (nblocks) + (col0) / 128 + (lane)));       \
      gt_cp_async_mbar_arrive(bar);                                                                                 \
   } while (0)
#define GT_READ_SCALES(from, rows, row, sa, slices, sb, nsb)                                                        \
   do {                                                                                                             \
      _Pragma("unroll") for (int m_ = 0; m_ < (slices); m_++) _Pragma("unroll") for (int h_ = 0; h_ < 2; h_++)      \
         (sa)[m_][h_] = (from)[(row) + m_ * 64 + 8 * h_];                                                            \
      _Pragma("unroll") for (int q_ = 0; q_ < (nsb); q_++)(sb)[q_] = (from)[(rows) + q_];                           \
   } while (0)

/* Ordinary shared-memory stores that the tensor cores or the TMA see next. */
__device__ inline void gt_fence_proxy_async(void) { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }
/* A barrier of `threads` threads (a multiple of 32) under id (1..15; 0 is __syncthreads). */
__device__ inline void gt_named_barrier(int id, int threads) {
   asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}
/* Blocks of one grid handing partial sums to each other (fp8h6_hybrid): a flag written with
 * release and read with acquire at the GPU's scope, so that the sums stored before the
 * release are seen after the acquire; two floats read from L2 past this multiprocessor's L1,
 * which is not kept coherent with the other multiprocessors' stores. */
__device__ inline void gt_flag_release(unsigned *flag, unsigned v) {
   asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"((gt_u64)__cvta_generic_to_global(flag)), "r"(v)
                : "memory");
}
__device__ inline unsigned gt_flag_acquire(const unsigned *flag) {
   unsigned v;
   asm volatile("ld.acquire.gpu.global.u32 %0, [%1];"
                : "=r"(v)
                : "l"((gt_u64)__cvta_generic_to_global(flag))
                : "memory");
   return v;
}
__device__ inline float2 gt_ld_cg_f2(const float *p) {
   float2 v;
   asm volatile("ld.global.cg.v2.f32 {%0, %1}, [%2];"
                : "=f"(v.x), "=f"(v.y)
                : "l"((gt_u64)__cvta_generic_to_global(p))
                : "memory");
   return v;
}
/* The copy engine's bulk copy of `bytes` contiguous bytes (a multiple of 16; both addresses
 * 16-byte aligned) from shared to global memory, no tensor map, in this thread's current bulk
 * group; the group closed; a wait until this thread's groups have read their shared memory
 * (which may then be written again, or the block end). */
__device__ inline void gt_bulk_store(void *dst, const void *src, uint bytes) {
   asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                    (gt_u64)__cvta_generic_to_global(dst)),
                "r"(gt_smem_addr(src)), "r"(bytes)
                : "memory");
}
__device__ inline void gt_bulk_commit(void) { asm volatile("cp.async.bulk.commit_group;" ::: "memory"); }
__device__ inline void gt_bulk_wait_read(void) { asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory"); }
/* The rows of C a consumer warp staged, sent by the copy engine (FP8 steps 4 to 6, Hopper step
 * 7's EPI): in the wgmma layout warp w of a warpgroup holds rows 16w to 16w + 15 of each of
 * its `slices` 64-row slices, so once its stores are visible to the copy engine lanes 0-15
 * send one row each, `bytes` from staging rows `stride` bytes apart to rows of C `ld` floats
 * apart from `at`, in one bulk group. ctid: the thread in its warpgroup. */
__device__ __forceinline__ void gt_bulk_send_rows(int ctid, float *at, size_t ld, const unsigned char *stg, uint stride,
                                                  int slices, uint bytes) {
   const int warp = ctid / 32, lane = ctid % 32;
   gt_fence_proxy_async(); /* the copy engine reads what the lanes' stores wrote */
   __syncwarp();
   if (lane < 16) {
#pragma unroll
      for (int m = 0; m < slices; m++) {
         const int r = m * 64 + 16 * warp + lane;
         gt_bulk_store(at + (size_t)r * ld, stg + (size_t)r * stride, bytes);
      }
      gt_bulk_commit();
   }
}
/* ... or until they have written global memory, ordered before this thread's later
 * (generic) accesses: a flag raised after it covers what they wrote. */
__device__ inline void gt_bulk_wait_write(void) {
   asm volatile("cp.async.bulk.wait_group 0;\nfence.proxy.async.global;" ::: "memory");
}
#define gt_setmaxnreg_inc(n) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(n))
#define gt_setmaxnreg_dec(n) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(n))

/* FP32 to TF32, rounded to nearest (ties away): the low 13 bits become zero. */
__device__ inline float gt_tf32_round(float x) {
   uint r;
   asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
   return __uint_as_float(r);
}

/* wgmma: a warpgroup (4 warps, the first a multiple of 4) multiplies a 64 x K slice of A
 * by a K x N slice of B, both in shared memory as described by a matrix descriptor, into
 * N/2 FP32 accumulators per thread. K is 32 bytes: 8 tf32, 16 half/bfloat16 or 32 FP8. */
__device__ inline void gt_wgmma_fence(void) { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ inline void gt_wgmma_commit(void) { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
#define gt_wgmma_wait(n) asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(n) : "memory")
/* Keeps the compiler from moving accumulator reads and writes across the asynchronous MMA. */
__device__ inline void gt_fence_reg(float &r) { asm volatile("" : "+f"(r)::"memory"); }

/* A lane of the wgmma accumulator holds two columns of each group of 8 (gt_sched_wgmma_col):
 * p0 in group j, p1 in group j + 1 (j even). Neighbouring lanes swap one pair, so each holds
 * four consecutive columns, starting *col columns after group j's first: one 16-byte store
 * instead of two 8-byte ones. At 8 bytes a lane the epilogue of a 128 x 256 tile waited for
 * the store queue (ncu: lg throttle) a tenth of the consumers' time. */
__device__ inline float4 gt_wgmma_pairs4(float2 p0, float2 p1, int lane, int *col) {
   const bool even = lane % 2 == 0;
   const float2 send = even ? p1 : p0;
   const float gx = __shfl_xor_sync(0xffffffffu, send.x, 1), gy = __shfl_xor_sync(0xffffffffu, send.y, 1);
   *col = even ? 2 * (lane % 4) : 8 + 2 * (lane % 4 - 1);
   return even ? make_float4(p0.x, p0.y, gx, gy) : make_float4(gx, gy, p1.x, p1.y);
}

/* The matrix descriptor of a K-major tile in shared memory (PTX ISA, "Matrix Descriptor"):
 * start address, leading byte offset (the K-direction stride between core matrices; used
 * without swizzle only), stride byte offset (between groups of 8 rows), and the swizzle
 * mode (bits 62-63: 1 = 128-byte, 2 = 64-byte, 3 = 32-byte, 0 = none). */
__device__ inline gt_u64 gt_wgmma_desc(uint addr, uint lbo, uint sbo, int swizzle) {
   const gt_u64 mode = swizzle == 128 ? 1 : swizzle == 64 ? 2 : swizzle == 32 ? 3 : 0;
   return (gt_u64)((addr & 0x3FFFF) >> 4) | (gt_u64)((lbo & 0x3FFFF) >> 4) << 16 |
          (gt_u64)((sbo & 0x3FFFF) >> 4) << 32 | mode << 62;
}

/* The byte offset of k-step kk (32 bytes of K) of rows row0.. in a K-major tile of `rows` rows
 * as TMA lays it: boxes of rows x `atom` bytes side by side along K (atom: the swizzle width,
 * or 16 without swizzle). A descriptor's address field counts 16 bytes and a shared address
 * is below 2^18, so a descriptor plus this offset / 16 is the descriptor of that address: the
 * Hopper steps' consumers add constants to the ring's first one instead of building each. */
#define GT_WGMMA_KOFF(rows, row0, kk, atom)                                                                          \
   ((uint)((kk) * 32 / (atom)) * (rows) * (atom) + (uint)((kk) * 32 % (atom)) + (uint)(row0) * (atom))

/* wgmma's words for the element type (the other type macros: helpers/types.h, joined
 * after this file; hence defined() here). */
#if defined(GT_HALF) && GT_HALF
#define GT_WG_SHAPE_K "k16"
#define GT_WG_TYPES "f32.f16.f16"
#define GT_WG_TRANS ", 0, 0"
#elif defined(GT_BF16) && GT_BF16
#define GT_WG_SHAPE_K "k16"
#define GT_WG_TYPES "f32.bf16.bf16"
#define GT_WG_TRANS ", 0, 0"
#elif defined(GT_E4M3) && GT_E4M3 /* FP8: k is 32 bytes too; both operands K-major, no transpose */
#define GT_WG_SHAPE_K "k32"
#define GT_WG_TYPES "f32.e4m3.e4m3"
#define GT_WG_TRANS ""
#elif defined(GT_E5M2) && GT_E5M2
#define GT_WG_SHAPE_K "k32"
#define GT_WG_TYPES "f32.e5m2.e5m2"
#define GT_WG_TRANS ""
#else
#define GT_WG_SHAPE_K "k8"
#define GT_WG_TYPES "f32.tf32.tf32"
#define GT_WG_TRANS ""
#endif
/* The narrow wgmma N of swap-AB (hopper9_swapab): a few tokens as the columns, the
 * weight's rows filling the 64 rows. */
__device__ inline void gt_wgmma_n8(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n8" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3"
                "}, %4, %5, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                : "l"(da), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_n16(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n16" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7"
                "}, %8, %9, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                : "l"(da), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_n32(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n32" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
                "}, %16, %17, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
                : "l"(da), "l"(db), "r"(scale_d));
}
/* 48 columns: 48 tokens in swap-AB without padding them to 64. */
__device__ inline void gt_wgmma_n48(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %26, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n48" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23"
                "}, %24, %25, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
                : "l"(da), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_n64(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n64" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                "}, %32, %33, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                : "l"(da), "l"(db), "r"(scale_d));
}
/* 96 columns: 128 blocks of 64 x 96 for a 128-token projection 6144 wide (cuBLAS's tile there). */
__device__ inline void gt_wgmma_n96(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n96" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
                "}, %48, %49, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
                : "l"(da), "l"(db), "r"(scale_d));
}
/* 112 columns divide 7168 (64 x 112: two 128-row tiles of a 256-token projection 7168 wide make
 * 128 blocks, where 128 columns make 112) and 3584 and 14336. */
__device__ inline void gt_wgmma_n112(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %58, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n112" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55"
                "}, %56, %57, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
                : "l"(da), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_n128(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n128" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
                "}, %64, %65, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                : "l"(da), "l"(db), "r"(scale_d));
}
/* 144 columns divide 4608 (32 x 144: Qwen2.5-7B's QKV) and 9216 into whole tiles whose waves
 * fill 132 multiprocessors better than 128's or 160's. */
__device__ inline void gt_wgmma_n144(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %74, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n144" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71"
                "}, %72, %73, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
                : "l"(da), "l"(db), "r"(scale_d));
}
/* 160 and 224 columns divide the widths models have (10240 = 64 x 160, 28672 = 128 x 224): whole
 * tiles, and waves that the multiprocessors fill better than 192's. */
__device__ inline void gt_wgmma_n160(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %82, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n160" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79"
                "}, %80, %81, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
                : "l"(da), "l"(db), "r"(scale_d));
}
/* 176 columns: cuBLAS's tile for 512 x 28672 x 4096 (163 tiles a row, 4.94 waves of 132 where
 * 224 columns make 3.88). */
__device__ inline void gt_wgmma_n176(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n176" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                "%80, %81, %82, %83, %84, %85, %86, %87"
                "}, %88, %89, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
                : "l"(da), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_n192(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %98, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n192" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
                "}, %96, %97, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
                : "l"(da), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_n224(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %114, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n224" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111"
                "}, %112, %113, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111])
                : "l"(da), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_n256(float *d, gt_u64 da, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n256" GT_WG_SHAPE_K "." GT_WG_TYPES " {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
                "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
                "}, %128, %129, p, 1, 1" GT_WG_TRANS ";\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                : "l"(da), "l"(db), "r"(scale_d));
}
/* wgmma with A from registers (the tf32 shapes: 3xTF32 splits A there, hopper5_order
 * AREG=1). a[4] is this thread's part of the 64 x 8 slice of A: rows 16 w + g and 16 w + g + 8
 * at k = t, then the same rows at k = t + 4 (w: the warp in the warpgroup, g = lane / 4,
 * t = lane % 4). The registers must hold until a wait covers the wgmma. */
#if !(defined(GT_HALF) && GT_HALF) && !(defined(GT_BF16) && GT_BF16) && !(defined(GT_E4M3) && GT_E4M3) && \
    !(defined(GT_E5M2) && GT_E5M2)
__device__ inline void gt_wgmma_rs_n64(float *d, const uint *a, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
                "}, {%32, %33, %34, %35}, %36, p, 1, 1;\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_rs_n128(float *d, const uint *a, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
                "}, {%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_rs_n192(float *d, const uint *a, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %101, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n192k8.f32.tf32.tf32 {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95"
                "}, {%96, %97, %98, %99}, %100, p, 1, 1;\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}
__device__ inline void gt_wgmma_rs_n256(float *d, const uint *a, gt_u64 db, int scale_d) {
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %133, 0;\n"
                "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
                "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
                "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
                "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
                "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
                "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
                "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
                "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
                "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
                "}, {%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
                  "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
                  "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
                  "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
                  "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
                  "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
                  "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
                  "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
                  "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
                  "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
                  "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
                  "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
                  "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
                  "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
                  "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
                  "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(scale_d));
}
#endif
#endif /* GT_ARCH_SPECIFIC */
