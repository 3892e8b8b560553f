/* gemmtop micro-kernels: the device's measured peaks (multiply-add rate, copy, read and L2
 * bandwidth, local memory, an empty launch, the tensor cores through mma.sync and, on
 * Hopper, wgmma).
 * Compiled with -DDOUBLE=0|1 after the prelude (the tensor ones: see gt_peak_mma_* and
 * gt_peak_wgmma_*). Every entry is in every program, so each loop count has a name of its
 * own with its default here: a count meant for one kernel never unrolls another (the read
 * loop unrolled 4096 times cost NVRTC a minute a program). */
#ifndef FMA_ITERS
#define FMA_ITERS 512
#endif
#ifndef READ_ITERS
#define READ_ITERS 8
#endif
#ifndef LOCAL_ITERS
#define LOCAL_ITERS 2048
#endif
#ifndef MMA_ITERS
#define MMA_ITERS 4096
#endif
#ifndef WGMMA_ITERS
#define WGMMA_ITERS 512
#endif

/* Each work-item runs 8 independent chains of 4-wide multiply-adds for FMA_ITERS rounds:
 * enough independent work to fill the pipelines (and, on CPUs, the SIMD lanes), nothing
 * from memory. 2*8*4*FMA_ITERS flops each. */
__kernel void gt_peak_fma(__global real *out, const real seed) {
   const real s0 = seed + (real)get_global_id(0);
   real4 a0 = MAKE_REAL4(s0, s0 + (real)1, s0 + (real)2, s0 + (real)3);
   real4 a1 = a0 + SPLAT_REAL4((real)4), a2 = a0 + SPLAT_REAL4((real)8), a3 = a0 + SPLAT_REAL4((real)12);
   real4 a4 = a0 + SPLAT_REAL4((real)16), a5 = a0 + SPLAT_REAL4((real)20), a6 = a0 + SPLAT_REAL4((real)24);
   real4 a7 = a0 + SPLAT_REAL4((real)28);
   const real4 m = SPLAT_REAL4((real)0.999), c = SPLAT_REAL4((real)0.001);
   for (int i = 0; i < FMA_ITERS; i++) {
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
 * (g + r * groups) * group size + r * skew, wrapped by mask (a power of two minus one, a
 * multiple of the group size less one), lane l its element l: the lanes of a group read
 * neighbours (a GPU coalesces them, a CPU's vectoriser sees consecutive elements). With a
 * buffer of READ_ITERS x global elements, mask ~0 and no skew, every byte is read once,
 * from DRAM: the read bandwidth. With a mask that keeps them inside the L2 (a working set
 * of half of it), read over and over after a warm-up launch: the L2's read bandwidth. The
 * skew moves a group's run each round: where the grid is a multiple of the working set,
 * (g + r * groups) * group size wraps to the same run in every round, and a group would
 * re-read its own run from the L1 (on the H200 that figure, 26.9 TB/s, was twice what
 * Nsight Compute's L2 sectors allow). The sum is stored only where it equals never (a
 * run-time value), so no read can be dropped and no write costs time. READ_ITERS is small
 * and the loop unrolled: a body without a loop is what PoCL vectorises across work-items.
 * 16*READ_ITERS bytes read per work-item. */
__kernel void gt_peak_read(__global real *out, const __global float4 *src, const uint mask, const uint skew,
                           const float never) {
   const uint lid = (uint)get_local_id(0), n = (uint)get_local_size(0);
   const uint g = (uint)get_group_id(0), groups = (uint)get_num_groups(0);
   float4 acc0 = SPLAT_FLOAT4(0.0f), acc1 = SPLAT_FLOAT4(0.0f), acc2 = SPLAT_FLOAT4(0.0f), acc3 = SPLAT_FLOAT4(0.0f);
#pragma unroll
   for (uint r = 0; r < READ_ITERS; r += 4) {
      acc0 += src[(((g + r * groups) * n + r * skew) & mask) + lid];
      acc1 += src[(((g + (r + 1) * groups) * n + (r + 1) * skew) & mask) + lid];
      acc2 += src[(((g + (r + 2) * groups) * n + (r + 2) * skew) & mask) + lid];
      acc3 += src[(((g + (r + 3) * groups) * n + (r + 3) * skew) & mask) + lid];
   }
   const float4 t = (acc0 + acc1) + (acc2 + acc3);
   const float sum = t.x + t.y + t.z + t.w;
   if (sum == never)
      out[get_global_id(0)] = (real)sum;
}

/* Local-memory bandwidth: each group fills a tile of LOCAL_WORDS floats, then each work-item
 * reads LOCAL_ITERS float4s of it, lane i the 16 bytes after lane i-1 (conflict-free: a
 * warp's 512 bytes are four wavefronts over all the banks), the start moving each round
 * so that no read repeats another's address in a register. 16*LOCAL_ITERS bytes read per
 * work-item. Four bytes a lane were too few: with its address arithmetic and the add, a
 * 4-byte read took six PTX instructions, and issuing them, not the banks, set the pace
 * (the H200 measured 26.6 TB/s, 80% of its 132 x 128 B a clock at 1.98 GHz); a 16-byte
 * read keeps the banks busy four clocks for the same instructions. */
#ifndef LOCAL_WORDS
#define LOCAL_WORDS 1024
#endif
__kernel void gt_peak_local(__global float *out, const uint seed) {
   __local float4 tile[LOCAL_WORDS / 4];
   const uint lid = (uint)get_local_id(0), n = (uint)get_local_size(0);
   const uint mask = LOCAL_WORDS / 4 - 1;
   for (uint i = lid; i < LOCAL_WORDS / 4; i += n)
      tile[i] = SPLAT_FLOAT4((float)(i ^ seed));
   barrier(CLK_LOCAL_MEM_FENCE);
   float4 acc0 = SPLAT_FLOAT4(0.0f), acc1 = SPLAT_FLOAT4(0.0f), acc2 = SPLAT_FLOAT4(0.0f), acc3 = SPLAT_FLOAT4(0.0f);
   for (uint r = 0; r < LOCAL_ITERS; r += 4) {
      acc0 += tile[(lid + r * 33u) & mask];
      acc1 += tile[(lid + r * 33u + 33u) & mask];
      acc2 += tile[(lid + r * 33u + 66u) & mask];
      acc3 += tile[(lid + r * 33u + 99u) & mask];
   }
   const float4 t = (acc0 + acc1) + (acc2 + acc3);
   out[get_global_id(0)] = t.x + t.y + t.z + t.w;
}

/* Nothing: the time of a launch itself (queueing, start, end). */
__kernel void gt_peak_empty(__global float *out) {
   if (get_global_id(0) == 0x7fffffff)
      out[0] = 0;
}

/* The tensor-core peak (NVIDIA sm_80 and newer, -DGT_TENSOR_PTX=1): each warp keeps 8
 * independent accumulator tiles and feeds them back-to-back mma.sync instructions,
 * MMA_ITERS rounds of 8, operands in registers, nothing from memory. One entry per type,
 * in one program: gt_peak_mma_tf32 (m16n8k8, 2*16*8*8 flops per warp and instruction),
 * _f16 and _bf16 (m16n8k16, 2*16*8*16) and, with -DGT_MMA_FP8=1 (sm_89 and newer),
 * _e4m3 (m16n8k32, 2*16*8*32). FP32 accumulation. Each lane holds 4 A, 2 B and 4 C
 * registers of every shape, so one asm line serves all four. */
#if GT_TENSOR_PTX
#define GT_MMA(op, c)                                                                                         \
   asm volatile(op " {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                                  \
                : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])                                              \
                : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1))
/* one: a small value of the type in every element, so the sums stay finite; the operands
 * from the seed (never known when compiling). */
#define GT_MMA_PEAK(name, op, one)                                                                            \
   __kernel void name(__global float *out, const uint seed) {                                                 \
      const uint a0 = (one) ^ (seed & 1u), a1 = (one), a2 = (one) ^ (seed & 2u), a3 = (one);                 \
      const uint b0 = (one) ^ (seed & 4u), b1 = (one);                                                        \
      float c0[4] = {0, 0, 0, 0}, c1[4] = {0, 0, 0, 0}, c2[4] = {0, 0, 0, 0}, c3[4] = {0, 0, 0, 0};          \
      float c4[4] = {0, 0, 0, 0}, c5[4] = {0, 0, 0, 0}, c6[4] = {0, 0, 0, 0}, c7[4] = {0, 0, 0, 0};          \
      for (int i = 0; i < MMA_ITERS; i++) {                                                                   \
         GT_MMA(op, c0); GT_MMA(op, c1); GT_MMA(op, c2); GT_MMA(op, c3);                                      \
         GT_MMA(op, c4); GT_MMA(op, c5); GT_MMA(op, c6); GT_MMA(op, c7);                                      \
      }                                                                                                       \
      float t = 0;                                                                                            \
      for (int j = 0; j < 4; j++)                                                                             \
         t += c0[j] + c1[j] + c2[j] + c3[j] + c4[j] + c5[j] + c6[j] + c7[j];                                  \
      out[get_global_id(0)] = t;                                                                              \
   }
/* 2^-7 in FP32 (TF32); two halves of 2^-7; two bfloat16 of 2^-7; four e4m3 of 2^-6. */
GT_MMA_PEAK(gt_peak_mma_tf32, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 0x3c000000u)
GT_MMA_PEAK(gt_peak_mma_f16, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 0x20002000u)
GT_MMA_PEAK(gt_peak_mma_bf16, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 0x3c003c00u)
#if GT_MMA_FP8
GT_MMA_PEAK(gt_peak_mma_e4m3, "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32", 0x08080808u)
#endif
#endif

/* The tensor-core peak through wgmma (Hopper, sm_90a: -DGT_ARCH_SPECIFIC=1 -DGT_WGMMA_PEAK=1,
 * the CUDA backend): one warpgroup per block issues back-to-back asynchronous m64n256
 * products into one set of 128 FP32 accumulators a thread, both operands read from shared
 * memory through matrix descriptors (K-major, 128-byte swizzle: the layout the Hopper
 * ladder's fastest steps use), four k-steps of 32 bytes a group and at most two groups in
 * flight; nothing from global memory. One entry per type, in one program (one compile):
 * gt_peak_wgmma_tf32 (k8), _f16 and _bf16 (k16), _e4m3 (k32); 2*64*256*k flops per
 * warpgroup and instruction. The operands repeat: the tensor cores' rate, not the data's,
 * is measured. The PTX is written here rather than in the shared helpers so that a change
 * to the GEMM kernels' wgmma never moves the ceiling. */
#if GT_WGMMA_PEAK && defined(GT_ARCH_SPECIFIC)
#define GT_WGP_A_BYTES (64 * 128)  /* 64 rows of 128 bytes: four k-steps */
#define GT_WGP_B_BYTES (256 * 128) /* 256 rows of 128 bytes */
/* The 128 accumulators, then the descriptors as %128 and %129; scale-d true (accumulate). */
#define GT_WGP_ASM(op, trans)                                                                        \
   asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" op " {"                                    \
   "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, " \
   "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, " \
   "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, " \
   "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, " \
   "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, " \
   "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, " \
   "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
   "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}" \
                ", %128, %129, p, 1, 1" trans ";\n}\n"                                                \
                : GT_WGP_D                                                                           \
                : "l"(da), "l"(db))
#define GT_WGP_D \
   "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), \
   "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), \
   "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), \
   "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), \
   "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), \
   "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), \
   "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), \
   "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), \
   "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), \
   "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), \
   "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), \
   "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), \
   "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), \
   "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), \
   "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), \
   "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127]) \

/* kind: 0 tf32, 1 half, 2 bfloat16, 3 e4m3 (a constant once inlined). tf32 and the FP8
 * types take no transpose operands. */
__device__ __forceinline__ void gt_peak_wgmma_one(int kind, float *d, gt_u64 da, gt_u64 db) {
   switch (kind) {
   case 0: GT_WGP_ASM("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", ""); break;
   case 1: GT_WGP_ASM("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", ", 0, 0"); break;
   case 2: GT_WGP_ASM("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", ", 0, 0"); break;
   default: GT_WGP_ASM("wgmma.mma_async.sync.aligned.m64n256k32.f32.e4m3.e4m3", ""); break;
   }
}

/* one: a small value of the type in every element (2^-7, e4m3's 2^-6), so sums stay finite. */
__device__ __forceinline__ void gt_peak_wgmma(int kind, uint one, __global float *out, uint seed) {
   /* The tiles at a 1024-byte boundary, as the 128-byte swizzle wants. */
   __shared__ unsigned char raw[GT_WGP_A_BYTES + GT_WGP_B_BYTES + 1024];
   const uint start = gt_smem_addr(raw), base = (start + 1023u) & ~1023u;
   uint *tiles = (uint *)(raw + (base - start));
   for (uint i = threadIdx.x; i < (GT_WGP_A_BYTES + GT_WGP_B_BYTES) / 4; i += blockDim.x)
      tiles[i] = one ^ (seed & i & 1u);
   gt_fence_proxy_async(); /* the tensor cores read what the threads wrote */
   __syncthreads();
   gt_u64 da[4], db[4];
   for (int kk = 0; kk < 4; kk++) {
      da[kk] = gt_wgmma_desc(base + 32u * (uint)kk, 16, 1024, 128);
      db[kk] = gt_wgmma_desc(base + GT_WGP_A_BYTES + 32u * (uint)kk, 16, 1024, 128);
   }
   float d[128];
   for (int i = 0; i < 128; i++)
      d[i] = 0.0f;
   for (int i = 0; i < WGMMA_ITERS; i++) {
      gt_wgmma_fence();
#pragma unroll
      for (int kk = 0; kk < 4; kk++)
         gt_peak_wgmma_one(kind, d, da[kk], db[kk]);
      gt_wgmma_commit();
      gt_wgmma_wait(1);
   }
   gt_wgmma_wait(0);
   float t = 0;
   for (int i = 0; i < 128; i++)
      t += d[i];
   out[get_global_id(0)] = t;
}
__kernel void gt_peak_wgmma_tf32(__global float *out, const uint seed) { gt_peak_wgmma(0, 0x3c000000u, out, seed); }
__kernel void gt_peak_wgmma_f16(__global float *out, const uint seed) { gt_peak_wgmma(1, 0x20002000u, out, seed); }
__kernel void gt_peak_wgmma_bf16(__global float *out, const uint seed) { gt_peak_wgmma(2, 0x3c003c00u, out, seed); }
__kernel void gt_peak_wgmma_e4m3(__global float *out, const uint seed) { gt_peak_wgmma(3, 0x08080808u, out, seed); }
#endif
