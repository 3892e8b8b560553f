/* The tensor-core helpers (kernels/helpers/tensor.h), each on its own, for test_tensor.c and
 * tools/gpu/gpu_tensor_probe.sh. One work-group of two warps; each warp works on its own
 * inputs, so a helper that mixed up the warps would show. Offsets in 32-bit words; the host
 * side (test_tensor.c) builds `in` and checks `out` with the same offsets. Every lane
 * builds its fragments from the PTX ISA's layouts (see tensor.h), so on a GPU a wrong
 * layout in these formulas or in the helpers gives a wrong product. */
#define MMA_IN(w, kind) (((w) * 3 + (kind)) * 320) /* A 16x8 words, B 8x8 words, C 16x8 floats */
#define TILE_IN(w) (1920 + (w) * 256)              /* 32 rows of 8 words */
#define CP_IN(w) (2432 + (w) * 256)                /* 64 chunks of 16 bytes */
#define CVT_IN(w) (2944 + (w) * 32)
#define MMA_OUT(w, kind) (((w) * 3 + (kind)) * 128)
#define LDSM_OUT(w, v) (768 + (w) * 768 + (v) * 128) /* 6 variants: 32 lanes x 4 words */
#define CP_OUT(w) (2304 + (w) * 256)
#define CVT_OUT(w) (2816 + (w) * 32)

/* The row and word whose address lane l gives to ldmatrix: rows in a scrambled order,
 * and the second half of the row for some lanes. */
#define LDSM_ROW(l) (((l) * 5 + 3) % 32)
#define LDSM_WORD(l) (4 * (((l) >> 2) & 1))

__kernel GT_WORKGROUP(64, 1, 1) void probe(const __global uint *in, __global uint *out) {
   GT_TENSOR_SCRATCH(2);
   __local uint tile[2][32 * 8] __attribute__((aligned(16)));
   __local uint cbuf[2][256] __attribute__((aligned(16)));
   const uint w = GT_WARP(), l = GT_LANE(), g = l / 4, t = l % 4;

   /* MMA of each kind: D = A B + C, fragments straight from the layouts. */
   for (int kind = 0; kind < 3; kind++) {
      const __global uint *A = in + MMA_IN(w, kind), *B = A + 128;
      const __global float *C = (const __global float *)(A + 192);
      uint a[4], b[2];
      float d[4];
      for (int j = 0; j < 4; j++)
         a[j] = A[(g + 8 * (j % 2)) * 8 + t + 4 * (j / 2)];
      for (int j = 0; j < 2; j++)
         b[j] = B[(t + 4 * j) * 8 + g];
      for (int i = 0; i < 4; i++)
         d[i] = C[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2];
      if (kind == 0)
         GT_MMA_TF32(d, a, b);
      else if (kind == 1)
         GT_MMA_F16(d, a, b);
      else
         GT_MMA_BF16(d, a, b);
      __global float *D = (__global float *)(out + MMA_OUT(w, kind));
      for (int i = 0; i < 4; i++)
         D[(g + 8 * (i / 2)) * 8 + 2 * t + i % 2] = d[i];
   }

   /* ldmatrix: lane l gives row LDSM_ROW(l), word LDSM_WORD(l) of its warp's tile. */
   for (int k = 0; k < 8; k++)
      tile[w][l * 8 + k] = in[TILE_IN(w) + l * 8 + k];
   barrier(CLK_LOCAL_MEM_FENCE);
   LOCAL_PTR uint *row = &tile[w][LDSM_ROW(l) * 8 + LDSM_WORD(l)];
   uint r[4];
   for (int v = 0; v < 6; v++) {
      r[0] = r[1] = r[2] = r[3] = 0xdeadbeefu;
      if (v == 0)
         GT_LDMATRIX_X1(0, r, row);
      else if (v == 1)
         GT_LDMATRIX_X2(0, r, row);
      else if (v == 2)
         GT_LDMATRIX_X4(0, r, row);
      else if (v == 3)
         GT_LDMATRIX_X1_TRANS(0, r, row);
      else if (v == 4)
         GT_LDMATRIX_X2_TRANS(0, r, row);
      else
         GT_LDMATRIX_X4_TRANS(0, r, row);
      for (int m = 0; m < 4; m++)
         out[LDSM_OUT(w, v) + l * 4 + m] = r[m];
   }

   /* cp.async in two groups: source chunk c of group q goes to chunk 32q + (c * (7 + 4q)) % 32. */
   const __global uint *src = in + CP_IN(w);
   GT_CP_ASYNC16(1, &cbuf[w][((l * 7) % 32) * 4], src + l * 4);
   GT_CP_ASYNC_COMMIT();
   GT_CP_ASYNC16(1, &cbuf[w][(32 + (l * 11) % 32) * 4], src + (32 + l) * 4);
   GT_CP_ASYNC_COMMIT();
   GT_CP_ASYNC_WAIT(1);
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int k = 0; k < 4; k++)
      out[CP_OUT(w) + l * 4 + k] = cbuf[w][l * 4 + k];
   GT_CP_ASYNC_WAIT(0);
   barrier(CLK_LOCAL_MEM_FENCE);
   for (int k = 0; k < 4; k++)
      out[CP_OUT(w) + 128 + l * 4 + k] = cbuf[w][128 + l * 4 + k];

   /* cvt.rna.tf32.f32 */
   out[CVT_OUT(w) + l] = gt_to_tf32(GT_U2F(in[CVT_IN(w) + l]));
}
