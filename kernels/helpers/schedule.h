/* gemmtop scheduling arithmetic: which tile, which K steps and which element of C a
 * work-group or a lane takes, for the kernels that share out work (split-K, stream-K, the
 * data-parallel + stream-K hybrid, swap-AB). gemmtop joins it after the other helpers;
 * it is plain integer arithmetic that reads the same in OpenCL C, CUDA and C11, so that
 * tests/unit/test_schedule.c checks these very functions on the host (every tile covered
 * once, every K step once, the shares equal) and the kernels run them on the device.
 * Names start with gt_sched_ so that a kernel's own helpers never clash with them. */
#ifndef GT_FN
#define GT_FN static inline
#endif

/* Tile `tile` of the launch order: bands of `group` tile rows, walked column by column, so
 * that the tiles in flight at once share rows of A and columns of B in L2. The last band
 * may be short (tiles_m not a multiple of group). group 1 is row by row. */
GT_FN void gt_sched_tile_at(long tile, int tiles_m, int tiles_n, int group, int *tm, int *tn) {
   const long in_group = (long)group * tiles_n;
   const int first = (int)(tile / in_group) * group;
   const int rows = tiles_m - first < group ? tiles_m - first : group;
   const int in_band = (int)(tile % in_group);
   *tm = first + in_band % rows;
   *tn = in_band / rows;
}

/* The inverse: the place in the order of the tile at tile row tm, column tn. */
GT_FN long gt_sched_tile_index(int tm, int tn, int tiles_m, int tiles_n, int group) {
   const int first = tm / group * group;
   const int rows = tiles_m - first < group ? tiles_m - first : group;
   return (long)first * tiles_n + (long)tn * rows + (tm - first);
}

/* Unit u's share of `total` items cut into `units` equal runs: [start(u), start(u + 1)).
 * Split-K's K steps per split and stream-K's K steps per work-group both cut so; the runs
 * differ by at most one item, and some are empty when units > total. */
GT_FN long gt_sched_share_start(long u, long total, long units) { return u * total / units; }

/* The unit whose share holds item `it` (0 <= it < total): the last u with start(u) <= it. */
GT_FN long gt_sched_share_owner(long it, long total, long units) { return ((it + 1) * units + total - 1) / total - 1; }

/* The piece of a share that starts at item `it` (it < end, the share's end), K steps laid
 * tile after tile, `steps` to a tile: its tile (returned) and its K steps [*kb, *ke). A
 * work-group walks its share piece by piece: it = start; it < end; it += *ke - *kb. */
GT_FN long gt_sched_piece(long it, long end, long steps, int *kb, int *ke) {
   *kb = (int)(it % steps);
   *ke = (int)(steps < *kb + (end - it) ? steps : *kb + (end - it));
   return it / steps;
}

/* A stream-K piece's workspace slot: each unit keeps two, 0 for the piece where its share
 * begins, 1 for the piece where it ends; the fix-up finds unit u's piece of the tile whose
 * K steps start at item tile_first: the first slot when u's share begins inside that tile. */
GT_FN long gt_sched_piece_slot(long u, long tile_first, long total, long units) {
   return u * 2 + (gt_sched_share_start(u, total, units) >= tile_first ? 0 : 1);
}

/* share_start, share_owner, piece and tile_at in 32-bit unsigned arithmetic, for a kernel that
 * cannot afford the routine a long division by a value known only at run time calls (its
 * saved registers spilled fp8h6_hybrid's 192 live sums): items times units, and tiles, must
 * fit 32 bits. Division by a units known when compiling (CUS) is a multiply and a shift. */
GT_FN int gt_sched_share_start32(int u, int total, int units) {
   return (int)((unsigned)u * (unsigned)total / (unsigned)units);
}
GT_FN int gt_sched_share_owner32(int it, int total, int units) {
   return (int)(((unsigned)(it + 1) * (unsigned)units + (unsigned)total - 1) / (unsigned)total) - 1;
}
GT_FN int gt_sched_piece32(int it, int end, int steps, int *kb, int *ke) {
   *kb = it % steps;
   *ke = steps < *kb + (end - it) ? steps : *kb + (end - it);
   return it / steps;
}
GT_FN void gt_sched_tile_at32(int tile, int tiles_m, int tiles_n, int group, int *tm, int *tn) {
   const int in_group = group * tiles_n, first = tile / in_group * group;
   const int rows = tiles_m - first < group ? tiles_m - first : group, in_band = tile % in_group;
   *tm = first + in_band % rows;
   *tn = in_band / rows;
}

/* The data-parallel + stream-K hybrid (Osama et al., 2023): of `tiles` tiles on `units`
 * persistent work-groups, the whole waves run as whole tiles and only the rest is shared
 * out in K steps. With sk_waves 0 the stream-K region is the last, partial wave alone;
 * with 1 it is that wave and one full wave before it (where there is one), so that each
 * work-group's share holds at least one tile's K steps ("DP + two-tile SK"). A number of
 * tiles that is a whole number of waves has no stream-K region. The region is the first
 * tiles of the order; the data-parallel tiles follow, work-group g taking g, g + units, ... */
GT_FN long gt_sched_hybrid_sk_tiles(long tiles, long units, int sk_waves) {
   const long rest = tiles % units;
   if (rest == 0)
      return 0;
   return rest + (sk_waves && tiles - rest >= units ? units : 0);
}

/* wgmma's accumulator layout (PTX ISA, "Register Fragments and Shared Memory Matrix Layouts
 * for wgmma", D of m64nNk*): thread t (0..127) of the warpgroup holds element i (0 .. N/2-1)
 * of a 64 x N tile at this row and column. */
GT_FN int gt_sched_wgmma_row(int t, int i) { return 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2); }
GT_FN int gt_sched_wgmma_col(int t, int i) { return 8 * (i / 4) + 2 * (t % 4) + i % 2; }

/* mma.sync's m16n8 accumulator: lane l holds d[i] (i 0..3) at this row and column. */
GT_FN int gt_sched_mma_row(int lane, int i) { return lane / 4 + 8 * (i / 2); }
GT_FN int gt_sched_mma_col(int lane, int i) { return 2 * (lane % 4) + i % 2; }

/* Swap-AB computes C^T = B^T A^T: the MMA's rows are C's columns (n) and its columns C's
 * rows (m). The element at MMA row r and column c of the tile whose corner is (n0, m0) is
 * C's element (m0 + c, n0 + r), at this offset of row-major C with N columns. */
GT_FN long gt_sched_swap_c(int r, int c, int n0, int m0, int N) { return (long)(m0 + c) * N + (n0 + r); }

/* Fragments straight from global memory, 16 bytes a lane: lane (g = l/4, t = l%4) loads
 * words 4t .. 4t+3 of a 16-word run of k, of row g (and g + 8) of the MMA's A and of column
 * g of its B. mma.sync's fragments want words t and t + 4 of an 8-word step; the order of k
 * inside a dot product is free as long as A and B agree, so step q (0, 1) of the run takes
 * word 4t + 2q as its word t and 4t + 2q + 1 as its word t + 4: the 16 words once each. */
GT_FN int gt_sched_run_word(int t, int q, int hi) { return 4 * t + 2 * q + hi; }
