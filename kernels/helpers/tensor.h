/* gemmtop tensor-core helpers: warp MMA, ldmatrix, cp.async and the TF32 rounding, as
 * inline PTX on NVIDIA (GT_TENSOR_PTX=1: NVIDIA's OpenCL or NVRTC, sm_80 or newer) and as a
 * portable emulation in plain OpenCL C / CUDA C++ elsewhere (GT_TENSOR_PTX=0: PoCL, AMD),
 * with the same fragment layouts, so one kernel text runs and verifies everywhere.
 * Put after prelude.h (the catalog appends it to the prelude); it only defines macros and
 * inline functions, and only for the tensor types (tf32, half, bfloat16).
 *
 * FRAGMENTS (PTX ISA, "Matrix Fragments for mma.m16n8k8" (.tf32) and "for mma.m16n8k16
 * with floating point type" (.f16/.bf16); "Warp-level matrix load instruction: ldmatrix").
 * Lane l of the warp: g = l / 4 (groupID), t = l % 4 (threadID_in_group). Every fragment is
 * held in 32-bit words (uint): one TF32 element, or two 16-bit elements (the lower column
 * or row index in the lower 16 bits). Counted in words, TF32 and f16/bf16 agree:
 *   A (16 rows x 8 words, row-major): a[j] = A[g + 8*(j%2)][t + 4*(j/2)]    j = 0..3
 *       tf32: element (row, k = word); f16/bf16: elements k = 2*word, 2*word+1
 *   B (8 words of k x 8 columns):     b[j] = B[t + 4*j][g]                  j = 0..1
 *       tf32: element (k = word, n = g); f16/bf16: elements k = 2*word, 2*word+1 of column g
 *   C, D (16 x 8 floats):             d[i] = C[g + 8*(i/2)][2*t + i%2]       i = 0..3
 * ldmatrix .m8n8 .b16 .xN (N = 1, 2, 4 matrices of 8 rows x 16 bytes): lane 8*m + r gives the
 * address of row r of matrix m; lane l receives in r[m] the word l%4 of row l/4 of matrix m.
 * With .trans, r[m] holds the 16-bit elements (row 2*(l%4), column l/4) (lower half) and
 * (row 2*(l%4)+1, column l/4) of matrix m. So ldmatrix.x4 at rows (l%16), word 4*(l/16) of a
 * row-major A tile gives an A fragment, and ldmatrix.x2.trans of a [k][n] tile of 16-bit
 * elements (rows k0 + l%16, columns n0..n0+7) gives an f16/bf16 B fragment.
 *
 * RULES FOR KERNEL WRITERS
 * - Declare GT_TENSOR_SCRATCH(W); at the outermost scope of the kernel, W = warps per
 *   work-group. It is the emulation's per-warp exchange area in local memory (768 bytes a
 *   warp, not in the kernel's localmem: line, PoCL has plenty) and nothing on NVIDIA.
 * - A warp is 32 consecutive flattened local ids; the work-group is whole warps.
 * - Every GT_MMA*, GT_LDMATRIX_* call is made by every work-item of the work-group, the
 *   same calls in the same order (no divergent branches around them): the emulation
 *   exchanges the lanes' registers through local memory between work-group barriers.
 * - Shared tiles are written, then barrier(CLK_LOCAL_MEM_FENCE), then read (ldmatrix or
 *   plain loads); GT_CP_ASYNC_WAIT(n) then a barrier before the copied data is read.
 * - Local-memory accesses stay traceable: GT_LDMATRIX_* records each address-giving lane
 *   reading 16 bytes at its row address, GT_CP_ASYNC16 a 16-byte store per lane, at the
 *   site given (sites: line of the metadata); plain fragment loads go through LDS_LOAD. */
/* GT_TENSOR_PTX, GT_TF32, GT_HALF and GT_BF16 default to 0 in helpers/types.h. */
/* Only the tensor types see the helpers (and -DGT_TENSOR_HELPERS=1, for the tests that
 * check each one): float and double kernels compile exactly what they did before. */
#if GT_TF32 || GT_HALF || GT_BF16 || GT_FP8 || defined(GT_TENSOR_HELPERS)

#if GT_CUDA
#define GT_TFN static __device__ __forceinline__
#define GT_U2F(u) __uint_as_float(u)
#define GT_F2U(f) __float_as_uint(f)
#else
#define GT_TFN static inline
#define GT_U2F(u) as_float(u)
#define GT_F2U(f) as_uint(f)
#endif

/* 16-bit inputs pack two elements per word, FP8 four; TF32 one. GT_MMA_K: elements of k
 * per MMA (m16n8k8 TF32, m16n8k16 half and bfloat16, m16n8k32 FP8). */
#if GT_FP8
#define GT_EPW 4
#define GT_MMA_K 32
#elif GT_HALF || GT_BF16
#define GT_EPW 2
#define GT_MMA_K 16
#else
#define GT_EPW 1
#define GT_MMA_K 8
#endif

/* Loops over fragments: unrolled on NVIDIA (registers, not memory); kept as loops in the
 * emulation, where every MMA and ldmatrix inlines a work-group barrier: unrolled, they
 * multiply the barrier regions PoCL compiles (the compile time went from 5 to 30 s). */
#if GT_TENSOR_PTX
#define GT_TUNROLL _Pragma("unroll")
#elif defined(__clang__)
#define GT_TUNROLL _Pragma("nounroll")
#else
#define GT_TUNROLL
#endif

/* The trace buffer, handed to the helpers in a tracing build. A cp.async's write into local
 * memory is recorded as a store with GT_TRACE_ASYNC in its width: one instruction loads and
 * stores, and Nsight Compute counts no store wavefronts for it. */
#define GT_TRACE_ASYNC 0x80u
#if GT_TRACE
#define GT_TP , __global uint *gt_trace
#define GT_TA , gt_trace
#define GT_TRECORD(site, p, width, store) gt_record(gt_trace, (site), (LOCAL_PTR const void *)(p), (width), (store))
#else
#define GT_TP
#define GT_TA
#define GT_TRECORD(site, p, width, store) ((void)0)
#endif

GT_TFN uint gt_flat_lid(void) {
   return (uint)get_local_id(0) + (uint)get_local_size(0) * ((uint)get_local_id(1) + (uint)get_local_size(1) * (uint)get_local_id(2));
}
#define GT_LANE() (gt_flat_lid() % 32u)
#define GT_WARP() (gt_flat_lid() / 32u)

/* cvt.rna.tf32.f32: round to the nearest TF32 value (10 mantissa bits), ties away from
 * zero; the result is a float's bit pattern with the low 13 bits zero. */
#if GT_TENSOR_PTX
GT_TFN uint gt_to_tf32(float x) {
   uint r;
   asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
   return r;
}
#else
GT_TFN uint gt_to_tf32(float x) {
   uint u = GT_F2U(x);
   if ((u & 0x7f800000u) == 0x7f800000u) /* Inf and NaN stay */
      return u;
   return (u + 0x1000u) & 0xffffe000u;
}
#endif

/* A word as read from A or B, made ready for the MMA: TF32 rounds, 16-bit pairs are kept. */
#if GT_EPW == 1
#define GT_FRAG_WORD(w) gt_to_tf32(GT_U2F(w))
#else
#define GT_FRAG_WORD(w) (w)
#endif
/* Two 16-bit elements into one word, lo in the lower half. */
#define GT_PACK16(lo, hi) ((uint)(lo) | ((uint)(hi) << 16))

#if GT_TENSOR_PTX
/* ---------------------------------------------------------------- NVIDIA: inline PTX */
#define GT_TENSOR_SCRATCH(warps)

/* The .shared address of a local pointer. NVRTC's pointers are generic; in NVIDIA's
 * OpenCL a __local pointer converted to an integer is already the shared-window address
 * (GT_SMEM_CVTA=1 switches to converting a generic address instead, for a compiler that
 * gives those: tools/gpu/gpu_tensor_probe.sh tells which one reads the right data). */
#ifndef GT_SMEM_CVTA
#define GT_SMEM_CVTA 0
#endif
#if GT_CUDA
#define GT_SMEM_ADDR(p) ((uint)__cvta_generic_to_shared((const void *)(p)))
#elif GT_SMEM_CVTA
GT_TFN uint gt_tensor_smem_addr(ulong generic) {
   ulong s;
   asm("cvta.to.shared.u64 %0, %1;" : "=l"(s) : "l"(generic));
   return (uint)s;
}
#define GT_SMEM_ADDR(p) gt_tensor_smem_addr((ulong)(size_t)(p))
#else
#define GT_SMEM_ADDR(p) ((uint)(size_t)(p))
#endif

GT_TFN void gt_mma_tf32(float *d, const uint *a, const uint *b) {
   asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                "{%10,%11,%12,%13};"
                : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]),
                  "f"(d[3]));
}
GT_TFN void gt_mma_f16(float *d, const uint *a, const uint *b) {
   asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                "{%10,%11,%12,%13};"
                : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]),
                  "f"(d[3]));
}
GT_TFN void gt_mma_bf16(float *d, const uint *a, const uint *b) {
   asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                "{%10,%11,%12,%13};"
                : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]),
                  "f"(d[3]));
}
/* FP8 (sm_89 and newer): m16n8k32, four elements a word, the same word layout. */
GT_TFN void gt_mma_e4m3(float *d, const uint *a, const uint *b) {
   asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                "{%10,%11,%12,%13};"
                : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]),
                  "f"(d[3]));
}
GT_TFN void gt_mma_e5m2(float *d, const uint *a, const uint *b) {
   asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                "{%10,%11,%12,%13};"
                : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(d[0]), "f"(d[1]), "f"(d[2]),
                  "f"(d[3]));
}
#define GT_MMA_TF32(d, a, b) gt_mma_tf32((d), (a), (b))
#define GT_MMA_F16(d, a, b) gt_mma_f16((d), (a), (b))
#define GT_MMA_BF16(d, a, b) gt_mma_bf16((d), (a), (b))
#define GT_MMA_E4M3(d, a, b) gt_mma_e4m3((d), (a), (b))
#define GT_MMA_E5M2(d, a, b) gt_mma_e5m2((d), (a), (b))

GT_TFN void gt_ldsm_x1(uint *r, uint addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
}
GT_TFN void gt_ldsm_x2(uint *r, uint addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
}
GT_TFN void gt_ldsm_x4(uint *r, uint addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(addr));
}
GT_TFN void gt_ldsm_x1_trans(uint *r, uint addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r[0]) : "r"(addr));
}
GT_TFN void gt_ldsm_x2_trans(uint *r, uint addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r[0]), "=r"(r[1]) : "r"(addr));
}
GT_TFN void gt_ldsm_x4_trans(uint *r, uint addr) {
   asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                : "r"(addr));
}
/* In a tracing build the lanes that give an address record it (16 bytes each). */
#if GT_TRACE
#define GT_LDSM_TRACE(site, p, n) \
   ((GT_LANE() < 8u * (n)) ? GT_TRECORD((site), (p), 16u, 0u) : (void)0)
#else
#define GT_LDSM_TRACE(site, p, n) ((void)0)
#endif
#define GT_LDMATRIX_X1(site, r, p) (GT_LDSM_TRACE(site, p, 1u), gt_ldsm_x1((r), GT_SMEM_ADDR(p)))
#define GT_LDMATRIX_X2(site, r, p) (GT_LDSM_TRACE(site, p, 2u), gt_ldsm_x2((r), GT_SMEM_ADDR(p)))
#define GT_LDMATRIX_X4(site, r, p) (GT_LDSM_TRACE(site, p, 4u), gt_ldsm_x4((r), GT_SMEM_ADDR(p)))
#define GT_LDMATRIX_X1_TRANS(site, r, p) (GT_LDSM_TRACE(site, p, 1u), gt_ldsm_x1_trans((r), GT_SMEM_ADDR(p)))
#define GT_LDMATRIX_X2_TRANS(site, r, p) (GT_LDSM_TRACE(site, p, 2u), gt_ldsm_x2_trans((r), GT_SMEM_ADDR(p)))
#define GT_LDMATRIX_X4_TRANS(site, r, p) (GT_LDSM_TRACE(site, p, 4u), gt_ldsm_x4_trans((r), GT_SMEM_ADDR(p)))
/* The same at word `off` of a local array `base`: the address is base's shared address (one
 * register for the whole kernel) plus 4 * off in 32-bit arithmetic, so constant parts of
 * off become the instruction's immediate offset. */
#define GT_LDMATRIX_X4_AT(site, r, base, off) \
   (GT_LDSM_TRACE(site, &(base)[off], 4u), gt_ldsm_x4((r), GT_SMEM_ADDR(base) + 4u * (uint)(off)))
#define GT_LDMATRIX_X4_TRANS_AT(site, r, base, off) \
   (GT_LDSM_TRACE(site, &(base)[off], 4u), gt_ldsm_x4_trans((r), GT_SMEM_ADDR(base) + 4u * (uint)(off)))

/* cp.async: 16 bytes from global to local memory, without registers, asynchronously. */
#if GT_CUDA
#define GT_GLOBAL_ADDR(p) ((const void *)(p))
#else
#define GT_GLOBAL_ADDR(p) ((ulong)(size_t)(p))
#endif
#define GT_CP_ASYNC16(site, dst, src)                                                                          \
   do {                                                                                                        \
      GT_TRECORD((site), (dst), 16u | GT_TRACE_ASYNC, 1u);                                                          \
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(GT_SMEM_ADDR(dst)), "l"(GT_GLOBAL_ADDR(src))); \
   } while (0)
#define GT_CP_ASYNC_COMMIT() asm volatile("cp.async.commit_group;" ::: "memory")
/* Waits until at most n committed groups are in flight; n a constant (0..7) once unrolled. */
GT_TFN void gt_cp_async_wait(int n) {
   switch (n) {
   case 0: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
   case 1: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
   case 2: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
   case 3: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
   case 4: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
   case 5: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
   case 6: asm volatile("cp.async.wait_group 6;" ::: "memory"); break;
   default: asm volatile("cp.async.wait_group 7;" ::: "memory"); break;
   }
}
#define GT_CP_ASYNC_WAIT(n) gt_cp_async_wait(n)

#else
/* ---------------------------------------------------------------- portable emulation
 * Each call: a work-group barrier (the previous call's reads are done), every lane writes
 * what it holds into its warp's exchange area, a barrier, every lane reads what the
 * instruction would give it. */
#define GT_SCRATCH_WORDS 192 /* A: 32 lanes x 4 words, B: 32 x 2; ldmatrix: 32 x 4 */
#define GT_TENSOR_SCRATCH(warps) __local uint gt_tscratch[(warps) * GT_SCRATCH_WORDS]
/* The warp's own area. Indexed here, in the kernel, with a value known only at run time:
 * PoCL 3.1 gives each work-group its own copy of a __local array only when the kernel
 * uses it through such an instruction; passed as a plain array (a constant address) it
 * stayed one global shared by all threads, and concurrent work-groups overwrote each
 * other's exchanges (wrong results in about one run in four). */
#define GT_WARP_SCRATCH() (gt_tscratch + GT_WARP() * GT_SCRATCH_WORDS)

GT_TFN LOCAL_PTR uint *gt_exchange(LOCAL_PTR uint *area) {
   barrier(CLK_LOCAL_MEM_FENCE);
   return area;
}

GT_TFN float gt_f16_bits_to_float(uint h) {
   const uint sign = (h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
   if (e == 0) { /* zero or subnormal: m * 2^-24 */
      const float f = (float)m * 5.9604644775390625e-8f;
      return sign ? -f : f;
   }
   if (e == 31)
      return GT_U2F(sign | 0x7f800000u | (m << 13));
   return GT_U2F(sign | ((e + 112u) << 23) | (m << 13));
}

/* Element `part` of a word (the word itself for TF32, its halves for 16-bit pairs, its
 * bytes for FP8, the lowest first), as a float. */
#define GT_KIND_TF32 0
#define GT_KIND_F16 1
#define GT_KIND_BF16 2
#define GT_KIND_FP8 3 /* the run's FP8 format (GT_E4M3 or GT_E5M2) */
GT_TFN float gt_elem(uint w, int upper, int kind) {
   if (kind == GT_KIND_TF32)
      return GT_U2F(w & 0xffffe000u); /* the tensor core reads only the TF32 bits */
#if GT_FP8
   if (kind == GT_KIND_FP8)
      return gt_fp8_to_float((w >> (8 * upper)) & 0xffu);
#endif
   const uint h = upper ? (w >> 16) : (w & 0xffffu);
   return kind == GT_KIND_F16 ? gt_f16_bits_to_float(h) : GT_U2F(h << 16);
}

GT_TFN void gt_mma_emu(LOCAL_PTR uint *scratch, float *d, const uint *a, const uint *b, int kind) {
   LOCAL_PTR uint *s = gt_exchange(scratch);
   const uint lane = GT_LANE();
   for (int j = 0; j < 4; j++)
      s[lane * 4u + (uint)j] = a[j];
   for (int j = 0; j < 2; j++)
      s[128u + lane * 2u + (uint)j] = b[j];
   barrier(CLK_LOCAL_MEM_FENCE);
   const uint g = lane / 4u, t = lane % 4u;
   const int epw = kind == GT_KIND_TF32 ? 1 : kind == GT_KIND_FP8 ? 4 : 2, ks = 8 * epw;
   for (int i = 0; i < 4; i++) {
      const uint row = g + 8u * (uint)(i / 2), col = 2u * t + (uint)(i % 2);
      float acc = d[i];
      for (int k = 0; k < ks; k++) {
         const uint w = (uint)(k / epw), upper = (uint)(k % epw);
         /* A[row][w] is a[(row/8) + 2*(w/4)] of lane (row%8)*4 + w%4; B[w][col] is
          * b[w/4] of lane col*4 + w%4 (the layouts above, inverted). */
         const uint aw = s[((row % 8u) * 4u + w % 4u) * 4u + row / 8u + 2u * (w / 4u)];
         const uint bw = s[128u + (col * 4u + w % 4u) * 2u + w / 4u];
         acc = fma(gt_elem(aw, (int)upper, kind), gt_elem(bw, (int)upper, kind), acc);
      }
      d[i] = acc;
   }
}
#define GT_MMA_TF32(d, a, b) gt_mma_emu(GT_WARP_SCRATCH(), (d), (a), (b), GT_KIND_TF32)
#define GT_MMA_F16(d, a, b) gt_mma_emu(GT_WARP_SCRATCH(), (d), (a), (b), GT_KIND_F16)
#define GT_MMA_BF16(d, a, b) gt_mma_emu(GT_WARP_SCRATCH(), (d), (a), (b), GT_KIND_BF16)
#define GT_MMA_E4M3(d, a, b) gt_mma_emu(GT_WARP_SCRATCH(), (d), (a), (b), GT_KIND_FP8)
#define GT_MMA_E5M2(d, a, b) gt_mma_emu(GT_WARP_SCRATCH(), (d), (a), (b), GT_KIND_FP8)

/* ldmatrix of n matrices: lanes 0 .. 8n-1 read their 16-byte rows into the exchange area. */
GT_TFN void gt_ldsm_emu(LOCAL_PTR uint *scratch, uint *r, LOCAL_PTR const uint *p, int n, int trans,
                        uint site GT_TP) {
   LOCAL_PTR uint *s = gt_exchange(scratch);
   const uint lane = GT_LANE();
   if (lane < 8u * (uint)n) {
      GT_TRECORD(site, p, 16u, 0u);
      for (int w = 0; w < 4; w++)
         s[lane * 4u + (uint)w] = p[w];
   }
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int m = 0; m < n; m++) {
      LOCAL_PTR const uint *mat = s + 32u * (uint)m; /* 8 rows of 4 words */
      if (!trans) {
         r[m] = mat[(lane / 4u) * 4u + lane % 4u];
      } else {
         const uint row = 2u * (lane % 4u), col = lane / 4u, sh = 16u * (col % 2u);
         const uint lo = (mat[row * 4u + col / 2u] >> sh) & 0xffffu;
         const uint hi = (mat[(row + 1u) * 4u + col / 2u] >> sh) & 0xffffu;
         r[m] = lo | (hi << 16);
      }
   }
}
#define GT_LDSM_EMU(site, r, p, n, trans) \
   gt_ldsm_emu(GT_WARP_SCRATCH(), (r), (LOCAL_PTR const uint *)(p), (n), (trans), (uint)(site)GT_TA)
#define GT_LDMATRIX_X1(site, r, p) GT_LDSM_EMU(site, r, p, 1, 0)
#define GT_LDMATRIX_X2(site, r, p) GT_LDSM_EMU(site, r, p, 2, 0)
#define GT_LDMATRIX_X4(site, r, p) GT_LDSM_EMU(site, r, p, 4, 0)
#define GT_LDMATRIX_X1_TRANS(site, r, p) GT_LDSM_EMU(site, r, p, 1, 1)
#define GT_LDMATRIX_X2_TRANS(site, r, p) GT_LDSM_EMU(site, r, p, 2, 1)
#define GT_LDMATRIX_X4_TRANS(site, r, p) GT_LDSM_EMU(site, r, p, 4, 1)
#define GT_LDMATRIX_X4_AT(site, r, base, off) GT_LDSM_EMU(site, r, &(base)[off], 4, 0)
#define GT_LDMATRIX_X4_TRANS_AT(site, r, base, off) GT_LDSM_EMU(site, r, &(base)[off], 4, 1)

/* cp.async: a plain 16-byte copy (it is complete at once, so commit and wait do nothing). */
#define GT_CP_ASYNC16(site, dst, src)                                                    \
   do {                                                                                  \
      GT_TRECORD((site), (dst), 16u | GT_TRACE_ASYNC, 1u);                               \
      LOCAL_PTR uint *gt_d_ = (LOCAL_PTR uint *)(dst);                                   \
      const __global uint *gt_s_ = (const __global uint *)(src);                         \
      gt_d_[0] = gt_s_[0];                                                               \
      gt_d_[1] = gt_s_[1];                                                               \
      gt_d_[2] = gt_s_[2];                                                               \
      gt_d_[3] = gt_s_[3];                                                               \
   } while (0)
#define GT_CP_ASYNC_COMMIT() ((void)0)
#define GT_CP_ASYNC_WAIT(n) ((void)(n))
#endif

/* The MMA of the run's input type: m16n8k8 for TF32, m16n8k16 for half and bfloat16,
 * m16n8k32 for FP8. */
#if GT_ABLATE_NO_FMA
/* Ablation no-fma (prelude.h): one integer operation per accumulator instead of the MMA,
 * every fragment register still read, the chain through d kept. */
#define GT_MMA(d, a, b)                                                                        \
   do {                                                                                        \
      for (int gt_i_ = 0; gt_i_ < 4; gt_i_++)                                                  \
         (d)[gt_i_] = GT_U2F(GT_F2U((d)[gt_i_]) ^ (a)[gt_i_] ^ (b)[gt_i_ % 2]);                \
   } while (0)
#elif GT_E4M3
#define GT_MMA(d, a, b) GT_MMA_E4M3(d, a, b)
#elif GT_E5M2
#define GT_MMA(d, a, b) GT_MMA_E5M2(d, a, b)
#elif GT_HALF
#define GT_MMA(d, a, b) GT_MMA_F16(d, a, b)
#elif GT_BF16
#define GT_MMA(d, a, b) GT_MMA_BF16(d, a, b)
#else
#define GT_MMA(d, a, b) GT_MMA_TF32(d, a, b)
#endif

/* The bits of one in_t element (TF32: a float's; half and bfloat16: the 16-bit pattern). */
#if GT_EPW == 1
#define GT_IN_BITS(x) GT_F2U(x)
#else
#define GT_IN_BITS(x) ((uint)(x))
#endif

/* Ablation no-a / no-b (prelude.h) for word loads: a word of the input type made from the
 * work-item's index (1/16 .. 15/16 in each element, never 0) instead of the load. */
#if GT_EPW == 1
#define GT_ABLATE_WORD(salt) GT_F2U((float)GT_ABLATE_VALUE(salt))
#elif GT_FP8 /* each byte 1 down to 5/8 (e4m3) or 1/4 (e5m2), never 0 */
#define GT_ABLATE_WORD(salt) (0x01010101u * ((GT_E4M3 ? 0x38u : 0x3cu) - (((uint)get_local_id(0) + (salt)) & 7u)))
#elif GT_HALF
#define GT_ABLATE_WORD(salt) (0x3c003c00u - ((((uint)get_local_id(0) + (salt)) & 7u) * 0x00800080u) - 0x00400040u)
#else
#define GT_ABLATE_WORD(salt) (0x3f803f80u - ((((uint)get_local_id(0) + (salt)) & 7u) * 0x00100010u) - 0x00080008u)
#endif
/* A word may be made of several elements (GT_PACK16): the kernel wraps each element's load
 * in GT_GTRACE itself for the global-load trace. */
#if GT_ABLATE_NO_A
#define GT_LOAD_AW(expr) GT_ABLATE_WORD(1)
#else
#define GT_LOAD_AW(expr) (expr)
#endif
#if GT_ABLATE_NO_B
#define GT_LOAD_BW(expr) GT_ABLATE_WORD(6)
#else
#define GT_LOAD_BW(expr) (expr)
#endif
#if GT_CUDA
#define GT_SPLAT_UINT4(x) make_uint4((x), (x), (x), (x))
#else
#define GT_SPLAT_UINT4(x) ((uint4)(x))
#endif
/* The same for 16-byte (uint4) loads of A and B. */
#if GT_ABLATE_NO_A
#define GT_LOAD_AW4(expr) GT_SPLAT_UINT4(GT_ABLATE_WORD(1))
#else
#define GT_LOAD_AW4(expr) GT_GTRACE(0u, expr)
#endif
#if GT_ABLATE_NO_B
#define GT_LOAD_BW4(expr) GT_SPLAT_UINT4(GT_ABLATE_WORD(6))
#else
#define GT_LOAD_BW4(expr) GT_GTRACE(1u, expr)
#endif

/* XOR swizzle of a tile stored in rows of cpr 16-byte chunks: chunk c of row r is kept at
 * chunk c ^ f(r). With f(r) = (r / max(1, 8/cpr)) % min(cpr, 8), eight consecutive rows
 * read at one logical chunk (an ldmatrix phase: 8 lanes x 16 bytes) land on the 8
 * different 16-byte bank groups of a 128-byte line: no bank conflict, and no padding. */
#define GT_SWZ_ROWS(cpr) ((cpr) >= 8 ? 1 : 8 / (cpr))
#define GT_SWZ_MASK(cpr) ((cpr) >= 8 ? 8 : (cpr))
#define GT_SWIZZLE(r, c, cpr) ((c) ^ (((r) / GT_SWZ_ROWS(cpr)) % GT_SWZ_MASK(cpr)))

/* cp.async of A or B: with no-a / no-b the 16 bytes are made, not loaded. */
#define GT_CP_ASYNC_MADE(site, dst, salt)                                                       \
   do {                                                                                        \
      LOCAL_PTR uint *gt_d_ = (LOCAL_PTR uint *)(dst);                                         \
      GT_TRECORD((site), gt_d_, 16u, 1u);                                                      \
      gt_d_[0] = gt_d_[1] = gt_d_[2] = gt_d_[3] = GT_ABLATE_WORD(salt);                        \
   } while (0)
#if GT_ABLATE_NO_A
#define GT_CP_ASYNC16_A(site, dst, src) GT_CP_ASYNC_MADE(site, dst, 1u)
#else
#define GT_CP_ASYNC16_A(site, dst, src) GT_CP_ASYNC16(site, dst, src)
#endif
#if GT_ABLATE_NO_B
#define GT_CP_ASYNC16_B(site, dst, src) GT_CP_ASYNC_MADE(site, dst, 6u)
#else
#define GT_CP_ASYNC16_B(site, dst, src) GT_CP_ASYNC16(site, dst, src)
#endif
#endif /* the tensor types */
