/* gemmtop micro-kernels: the device's measured peaks (multiply-add rate, copy, read and L2
 * bandwidth, local memory, an empty launch).
 * Compiled with -DDOUBLE=0|1 after the prelude (the tensor one: see gt_peak_mma). */

/* Each work-item runs 8 independent chains of 4-wide multiply-adds for ITERS rounds:
 * enough independent work to fill the pipelines (and, on CPUs, the SIMD lanes), nothing
 * from memory. 2*8*4*ITERS flops each. */
#ifndef ITERS
#define ITERS 512
#endif
__kernel void gt_peak_fma(__global real *out, const real seed) {
   const real s0 = seed + (real)get_global_id(0);
   real4 a0 = MAKE_REAL4(s0, s0 + (real)1, s0 + (real)2, s0 + (real)3);
   real4 a1 = a0 + SPLAT_REAL4((real)4), a2 = a0 + SPLAT_REAL4((real)8), a3 = a0 + SPLAT_REAL4((real)12);
   real4 a4 = a0 + SPLAT_REAL4((real)16), a5 = a0 + SPLAT_REAL4((real)20), a6 = a0 + SPLAT_REAL4((real)24);
   real4 a7 = a0 + SPLAT_REAL4((real)28);
   const real4 m = SPLAT_REAL4((real)0.999), c = SPLAT_REAL4((real)0.001);
   for (int i = 0; i < ITERS; i++) {
      a0 = mad(a0, m, c); a1 = mad(a1, m, c); a2 = mad(a2, m, c); a3 = mad(a3, m, c);
      a4 = mad(a4, m, c); a5 = mad(a5, m, c); a6 = mad(a6, m, c); a7 = mad(a7, m, c);
   }
   const real4 t = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
   out[get_global_id(0)] = t.x + t.y + t.z + t.w;
}

/* dst = src, one real4 per work-item: read + write bytes over time is the copy bandwidth. */
__kernel void gt_peak_copy(__global real4 *dst, const __global real4 *src) {
   const size_t i = get_global_id(0);
   dst[i] = src[i];
}

/* Reads only: in round r, work-group g reads the run of float4s that starts at
 * (g + r * groups) * group size, wrapped by mask (a power of two minus one, a multiple of
 * the group size less one), lane l its element l: the lanes of a group read neighbours (a
 * GPU coalesces them, a CPU's vectoriser sees consecutive elements). With a buffer of
 * ITERS x global elements and mask ~0, every byte is read once, from DRAM: the read
 * bandwidth. With a mask that keeps them inside the L2 (a working set of half of it), read
 * over and over after a warm-up launch: the L2's read bandwidth. The sum is stored only
 * where it equals never (a run-time value), so no read can be dropped and no write costs
 * time. ITERS is small and the loop unrolled: a body without a loop is what PoCL
 * vectorises across work-items. 16*ITERS bytes read per work-item. */
__kernel void gt_peak_read(__global real *out, const __global float4 *src, const uint mask, const float never) {
   const uint lid = (uint)get_local_id(0), n = (uint)get_local_size(0);
   const uint g = (uint)get_group_id(0), groups = (uint)get_num_groups(0);
   float4 acc0 = SPLAT_FLOAT4(0.0f), acc1 = SPLAT_FLOAT4(0.0f), acc2 = SPLAT_FLOAT4(0.0f), acc3 = SPLAT_FLOAT4(0.0f);
#pragma unroll
   for (uint r = 0; r < ITERS; r += 4) {
      acc0 += src[(((g + r * groups) * n) & mask) + lid];
      acc1 += src[(((g + (r + 1) * groups) * n) & mask) + lid];
      acc2 += src[(((g + (r + 2) * groups) * n) & mask) + lid];
      acc3 += src[(((g + (r + 3) * groups) * n) & mask) + lid];
   }
   const float4 t = (acc0 + acc1) + (acc2 + acc3);
   const float sum = t.x + t.y + t.z + t.w;
   if (sum == never)
      out[get_global_id(0)] = (real)sum;
}

/* Local-memory bandwidth: each group fills a tile of LOCAL_WORDS floats, then each work-item
 * reads ITERS words of it, lane i the word after lane i-1 (conflict-free: consecutive banks),
 * the start moving each round so that no read repeats another's address in a register.
 * 4*ITERS bytes read per work-item. */
#ifndef LOCAL_WORDS
#define LOCAL_WORDS 1024
#endif
__kernel void gt_peak_local(__global float *out, const uint seed) {
   __local float tile[LOCAL_WORDS];
   const uint lid = (uint)get_local_id(0), n = (uint)get_local_size(0);
   for (uint i = lid; i < LOCAL_WORDS; i += n)
      tile[i] = (float)(i ^ seed);
   barrier(CLK_LOCAL_MEM_FENCE);
   float acc0 = 0, acc1 = 0, acc2 = 0, acc3 = 0;
   for (uint r = 0; r < ITERS; r += 4) {
      acc0 += tile[(lid + r * 33u) & (LOCAL_WORDS - 1)];
      acc1 += tile[(lid + r * 33u + 33u) & (LOCAL_WORDS - 1)];
      acc2 += tile[(lid + r * 33u + 66u) & (LOCAL_WORDS - 1)];
      acc3 += tile[(lid + r * 33u + 99u) & (LOCAL_WORDS - 1)];
   }
   out[get_global_id(0)] = acc0 + acc1 + acc2 + acc3;
}

/* Nothing: the time of a launch itself (queueing, start, end). */
__kernel void gt_peak_empty(__global float *out) {
   if (get_global_id(0) == 0x7fffffff)
      out[0] = 0;
}

/* The tensor-core peak (NVIDIA sm_80 and newer, -DGT_TENSOR_PTX=1): each warp keeps 8
 * independent accumulator tiles and feeds them back-to-back mma.sync instructions, ITERS
 * rounds of 8, operands in registers, nothing from memory. GT_MMA_KIND picks the shape
 * and type: 0 tf32 (m16n8k8, 2*16*8*8 flops per warp and instruction), 1 f16 and 2 bf16
 * (m16n8k16, 2*16*8*16), 3 e4m3 (m16n8k32, 2*16*8*32; sm_89 and newer). FP32
 * accumulation. Each lane holds 4 A, 2 B and 4 C registers of every shape, so one asm
 * line serves all four. */
#if GT_TENSOR_PTX
#ifndef GT_MMA_KIND
#define GT_MMA_KIND 1
#endif
#if GT_MMA_KIND == 0
#define GT_MMA_OP "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"
#define GT_MMA_ONE 0x3c000000u /* 2^-7 in FP32 (TF32) */
#elif GT_MMA_KIND == 1
#define GT_MMA_OP "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"
#define GT_MMA_ONE 0x20002000u /* two halves of 2^-7 */
#elif GT_MMA_KIND == 2
#define GT_MMA_OP "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"
#define GT_MMA_ONE 0x3c003c00u /* two bfloat16 of 2^-7 */
#else
#define GT_MMA_OP "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32"
#define GT_MMA_ONE 0x08080808u /* four e4m3 of 2^-6 */
#endif
#define GT_MMA(c)                                                                                             \
   asm volatile(GT_MMA_OP " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                           \
                : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                                              \
                : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
__kernel void gt_peak_mma(__global float *out, const uint seed) {
   /* Operands from the seed (never known when compiling); small, so the sums stay finite. */
   const uint a0 = GT_MMA_ONE ^ (seed & 1u), a1 = GT_MMA_ONE, a2 = GT_MMA_ONE ^ (seed & 2u), a3 = GT_MMA_ONE;
   const uint b0 = GT_MMA_ONE ^ (seed & 4u), b1 = GT_MMA_ONE;
   float c0[4] = {0, 0, 0, 0}, c1[4] = {0, 0, 0, 0}, c2[4] = {0, 0, 0, 0}, c3[4] = {0, 0, 0, 0};
   float c4[4] = {0, 0, 0, 0}, c5[4] = {0, 0, 0, 0}, c6[4] = {0, 0, 0, 0}, c7[4] = {0, 0, 0, 0};
   for (int i = 0; i < ITERS; i++) {
      GT_MMA(c0); GT_MMA(c1); GT_MMA(c2); GT_MMA(c3);
      GT_MMA(c4); GT_MMA(c5); GT_MMA(c6); GT_MMA(c7);
   }
   float t = 0;
   for (int j = 0; j < 4; j++)
      t += c0[j] + c1[j] + c2[j] + c3[j] + c4[j] + c5[j] + c6[j] + c7[j];
   out[get_global_id(0)] = t;
}
#endif
