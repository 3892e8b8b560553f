/* The scheduling arithmetic of kernels/helpers/schedule.h, the very functions the kernels
 * compile (gemmtop joins the file to their prelude), run here on the host: the tile order
 * is a permutation with its inverse, split-K's and stream-K's shares cut the K steps once
 * each and evenly, every stream-K piece lands in the workspace slot the fix-up reads, the
 * data-parallel + stream-K hybrid covers every tile once with equal work per work-group
 * and hands its pieces over in the kernel to a unit that reads each once, and the accumulator and swap-AB index maps reach every element of C once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "../../kernels/helpers/schedule.h"

static void test_tile_order(void **state) {
   (void)state;
   static const int groups[] = {1, 2, 3, 4, 8, 16};
   for (int tm_count = 1; tm_count <= 13; tm_count++)
      for (int tn_count = 1; tn_count <= 9; tn_count++)
         for (size_t gi = 0; gi < sizeof groups / sizeof *groups; gi++) {
            const int group = groups[gi], tiles = tm_count * tn_count;
            char seen[13 * 9] = {0};
            int prev_m = -1, prev_n = -1;
            for (long t = 0; t < tiles; t++) {
               int tm, tn;
               gt_sched_tile_at(t, tm_count, tn_count, group, &tm, &tn);
               assert_true(tm >= 0 && tm < tm_count && tn >= 0 && tn < tn_count);
               assert_int_equal(seen[tm * tn_count + tn], 0);
               seen[tm * tn_count + tn] = 1;
               assert_int_equal(gt_sched_tile_index(tm, tn, tm_count, tn_count, group), t);
               /* Inside a band the order goes down a column of tiles, then to the next
                * column: the tiles in flight share B's columns and a few rows of A. */
               if (t > 0 && tm / group == prev_m / group)
                  assert_true((tn == prev_n && tm == prev_m + 1) || (tn == prev_n + 1 && tm == tm / group * group));
               prev_m = tm;
               prev_n = tn;
            }
         }
}

static void test_shares(void **state) {
   (void)state;
   for (long total = 1; total <= 70; total++)
      for (long units = 1; units <= 80; units++) {
         long next = 0, smallest = total, largest = 0;
         for (long u = 0; u < units; u++) {
            const long s = gt_sched_share_start(u, total, units), e = gt_sched_share_start(u + 1, total, units);
            assert_int_equal(s, next); /* the runs are back to back */
            next = e;
            smallest = e - s < smallest ? e - s : smallest;
            largest = e - s > largest ? e - s : largest;
            for (long it = s; it < e; it++)
               assert_int_equal(gt_sched_share_owner(it, total, units), u);
         }
         assert_int_equal(next, total); /* ... and end at the last item */
         assert_true(largest - smallest <= 1);
      }
}

/* A stream-K grid walked as the kernels walk it: each unit's pieces into `slots` (the
 * piece's first K step + 1, per tile) and `whole` (tiles finished in place); then the
 * fix-up's reading of them. */
static void checkStreamK(long tiles, long steps, long units) {
   const long total = tiles * steps;
   long *slot_tile = calloc((size_t)units * 2, sizeof *slot_tile), *slot_kb = calloc((size_t)units * 2, sizeof *slot_kb);
   long *slot_ke = calloc((size_t)units * 2, sizeof *slot_ke);
   char *whole = calloc((size_t)tiles, 1);
   assert_non_null(slot_tile);
   assert_non_null(slot_kb);
   assert_non_null(slot_ke);
   assert_non_null(whole);
   for (long i = 0; i < units * 2; i++)
      slot_tile[i] = -1;
   for (long u = 0; u < units; u++) {
      const long it0 = gt_sched_share_start(u, total, units), it1 = gt_sched_share_start(u + 1, total, units);
      int kb, ke;
      for (long it = it0; it < it1; it += ke - kb) {
         const long tile = gt_sched_piece(it, it1, steps, &kb, &ke);
         assert_true(tile < tiles && kb < ke && ke <= steps);
         if (kb == 0 && ke == steps) {
            assert_int_equal(whole[tile], 0);
            whole[tile] = 1;
         } else {
            const long slot = u * 2 + (it == it0 ? 0 : 1);
            assert_int_equal(slot_tile[slot], -1); /* no slot written twice */
            slot_tile[slot] = tile;
            slot_kb[slot] = kb;
            slot_ke[slot] = ke;
         }
      }
   }
   /* The fix-up: a tile one unit covered is finished; the others are its owners' pieces,
    * found by gt_sched_piece_slot, which together cover its K steps once, in unit order. */
   for (long tile = 0; tile < tiles; tile++) {
      const long first = gt_sched_share_owner(tile * steps, total, units);
      const long last = gt_sched_share_owner(tile * steps + steps - 1, total, units);
      if (first == last) {
         assert_int_equal(whole[tile], 1);
         continue;
      }
      assert_int_equal(whole[tile], 0);
      long covered = 0;
      for (long u = first; u <= last; u++) {
         if (gt_sched_share_start(u, total, units) == gt_sched_share_start(u + 1, total, units))
            continue; /* an empty share wrote nothing */
         const long slot = gt_sched_piece_slot(u, tile * steps, total, units);
         assert_int_equal(slot_tile[slot], tile);
         assert_int_equal(slot_kb[slot], covered);
         covered = slot_ke[slot];
      }
      assert_int_equal(covered, steps);
   }
   free(slot_tile);
   free(slot_kb);
   free(slot_ke);
   free(whole);
}

static void test_stream_k(void **state) {
   (void)state;
   for (long tiles = 1; tiles <= 20; tiles++)
      for (long steps = 1; steps <= 12; steps++)
         for (long units = 1; units <= 40; units += units < 8 ? 1 : 5)
            checkStreamK(tiles, steps, units);
   checkStreamK(64, 256, 132); /* 128 x 8192 x 8192 in 128 x 128 tiles, BK 32, on an H100 */
   checkStreamK(2, 1, 132);    /* more units than K steps: most shares empty */
}

static void test_hybrid(void **state) {
   (void)state;
   for (long tiles = 1; tiles <= 300; tiles += tiles < 40 ? 1 : 7)
      for (long units = 1; units <= 40; units += units < 10 ? 1 : 3)
         for (int waves = 0; waves <= 1; waves++)
            for (long steps = 1; steps <= 5; steps += 2) {
               const long sk = gt_sched_hybrid_sk_tiles(tiles, units, waves), dp = tiles - sk;
               assert_true(sk >= 0 && sk <= tiles);
               assert_int_equal(dp % units, 0); /* whole waves of whole tiles */
               if (tiles % units == 0)
                  assert_int_equal(sk, 0);
               else if (waves && tiles >= units + tiles % units)
                  assert_int_equal(sk, units + tiles % units); /* every share holds a tile's steps */
               else
                  assert_int_equal(sk, tiles % units);
               /* Each work-group: dp / units whole tiles and its share of the region's
                * steps; the work differs by at most one K step. */
               long least = -1, most = 0;
               for (long u = 0; u < units; u++) {
                  const long work = dp / units * steps + gt_sched_share_start(u + 1, sk * steps, units) -
                                    gt_sched_share_start(u, sk * steps, units);
                  least = least < 0 || work < least ? work : least;
                  most = work > most ? work : most;
                  if (waves && sk >= units)
                     assert_true(gt_sched_share_start(u + 1, sk * steps, units) - gt_sched_share_start(u, sk * steps, units) >= steps);
               }
               assert_true(most - least <= 1);
               if (sk > 0)
                  checkStreamK(sk, steps, units); /* the region is stream-K's own */
            }
}

/* fp8h6_hybrid's hand-off, walked as the kernel walks it with the 32-bit functions it
 * compiles: unit g takes its share of the region's K steps (gt_sched_piece32), then whole
 * tiles g + sk, g + sk + units, ... A piece that starts inside its tile (kb > 0) can only be
 * a share's first, so each unit fills one slot at most; the unit holding a tile's K step 0
 * adds the slots of the units after it, up to the owner of the tile's last step, skipping
 * empty shares. Checked: every K step of every tile once, every slot written is read exactly
 * once by the unit that holds its tile's first step, and always a later unit's (so a unit
 * only waits for units after it, which never wait before storing: no deadlock when the
 * blocks start in order). */
static void checkHandoff(int tiles, int steps, int units, int waves) {
   const int sk = (int)gt_sched_hybrid_sk_tiles(tiles, units, waves), total = sk * steps;
   int *done = calloc((size_t)tiles * (size_t)steps, sizeof *done);
   int *slot_tile = malloc((size_t)units * sizeof *slot_tile), *slot_kb = malloc((size_t)units * sizeof *slot_kb);
   int *slot_ke = malloc((size_t)units * sizeof *slot_ke), *slot_reads = calloc((size_t)units, sizeof *slot_reads);
   assert_true(done && slot_tile && slot_kb && slot_ke && slot_reads);
   for (int u = 0; u < units; u++) {
      slot_tile[u] = -1;
      assert_int_equal(gt_sched_share_start32(u, total, units), gt_sched_share_start(u, total, units));
   }
   for (int it = 0; it < total; it++)
      assert_int_equal(gt_sched_share_owner32(it, total, units), gt_sched_share_owner(it, total, units));
   for (int g = 0; g < units; g++) {
      const int it0 = gt_sched_share_start32(g, total, units), it1 = gt_sched_share_start32(g + 1, total, units);
      int kb, ke;
      for (int it = it0; it < it1; it += ke - kb) {
         const int tile = gt_sched_piece32(it, it1, steps, &kb, &ke);
         assert_true(tile < sk && kb < ke && ke <= steps);
         for (int k = kb; k < ke; k++)
            done[tile * steps + k]++;
         if (kb > 0) {
            assert_int_equal(it, it0); /* only a share's first piece starts inside a tile */
            slot_tile[g] = tile;
            slot_kb[g] = kb;
            slot_ke[g] = ke;
         }
      }
      for (int tile = sk + g; tile < tiles; tile += units)
         for (int k = 0; k < steps; k++)
            done[tile * steps + k]++;
   }
   for (int i = 0; i < tiles * steps; i++)
      assert_int_equal(done[i], 1);
   /* the adding units, in the kernel's order: each tile's first piece's unit reads the rest */
   for (int tile = 0; tile < sk; tile++) {
      const int first = gt_sched_share_owner32(tile * steps, total, units);
      const int last = gt_sched_share_owner32(tile * steps + steps - 1, total, units);
      int covered = gt_sched_share_start32(first + 1, total, units) - tile * steps;
      covered = covered < steps ? covered : steps; /* the first unit's own piece */
      for (int v = first + 1; v <= last; v++) {
         if (gt_sched_share_start32(v, total, units) == gt_sched_share_start32(v + 1, total, units))
            continue;
         assert_true(v > first);
         assert_int_equal(slot_tile[v], tile);
         assert_int_equal(slot_kb[v], covered);
         covered = slot_ke[v];
         slot_reads[v]++;
      }
      assert_int_equal(covered, steps);
   }
   for (int u = 0; u < units; u++)
      assert_int_equal(slot_reads[u], slot_tile[u] >= 0 ? 1 : 0);
   free(done);
   free(slot_tile);
   free(slot_kb);
   free(slot_ke);
   free(slot_reads);
}

static void test_hybrid_handoff(void **state) {
   (void)state;
   for (int tiles = 1; tiles <= 90; tiles += tiles < 30 ? 1 : 7)
      for (int units = 1; units <= 40; units += units < 10 ? 1 : 3)
         for (int waves = 0; waves <= 1; waves++)
            for (int steps = 1; steps <= 9; steps += 2)
               checkHandoff(tiles, steps, units, waves);
   checkHandoff(704, 32, 132, 1);  /* 4096 in 128 x 192 tiles on an H200: 176 tiles shared out */
   checkHandoff(22, 112, 132, 1);  /* 128 x 4096 x 14336: fewer tiles than units, stream-K */
   checkHandoff(2752, 64, 132, 0); /* 8192 */
   /* the tile order in 32 bits is the long one */
   for (int tm_count = 1; tm_count <= 9; tm_count++)
      for (int tn_count = 1; tn_count <= 7; tn_count++)
         for (int group = 1; group <= 8; group *= 2)
            for (int t = 0; t < tm_count * tn_count; t++) {
               int a, b, c, d;
               gt_sched_tile_at32(t, tm_count, tn_count, group, &a, &b);
               gt_sched_tile_at(t, tm_count, tn_count, group, &c, &d);
               assert_int_equal(a, c);
               assert_int_equal(b, d);
            }
}

static void test_accumulator_layouts(void **state) {
   (void)state;
   static const int widths[] = {8, 16, 24, 32, 64, 128, 256};
   for (size_t w = 0; w < sizeof widths / sizeof *widths; w++) {
      const int n = widths[w];
      char *seen = calloc((size_t)64 * n, 1);
      assert_non_null(seen);
      for (int t = 0; t < 128; t++)
         for (int i = 0; i < n / 2; i++) {
            const int r = gt_sched_wgmma_row(t, i), c = gt_sched_wgmma_col(t, i);
            assert_true(r >= 0 && r < 64 && c >= 0 && c < n);
            assert_int_equal(seen[r * n + c], 0);
            seen[r * n + c] = 1;
            /* pairs 2j, 2j+1 are neighbours in a row: one 8-byte store */
            if (i % 2)
               assert_true(gt_sched_wgmma_row(t, i - 1) == r && gt_sched_wgmma_col(t, i - 1) == c - 1);
         }
      free(seen);
   }
   char seen[16 * 8] = {0};
   for (int l = 0; l < 32; l++)
      for (int i = 0; i < 4; i++) {
         const int r = gt_sched_mma_row(l, i), c = gt_sched_mma_col(l, i);
         assert_true(r >= 0 && r < 16 && c >= 0 && c < 8);
         assert_int_equal(seen[r * 8 + c], 0);
         seen[r * 8 + c] = 1;
      }
}

static void test_swap_maps(void **state) {
   (void)state;
   /* A 64 x 16 swap-AB tile (64 columns of C by 16 rows) at n0 = 128, m0 = 16 of a C of
    * 48 x 200: every element of C's block once, nothing outside it. */
   enum { M = 48, N = 200, ROWS = 64, COLS = 16, N0 = 128, M0 = 16 };
   char seen[M * N] = {0};
   for (int t = 0; t < 128; t++)
      for (int i = 0; i < COLS / 2; i++) {
         const long at = gt_sched_swap_c(gt_sched_wgmma_row(t, i), gt_sched_wgmma_col(t, i), N0, M0, N);
         assert_true(at >= 0 && at < M * N);
         assert_int_equal(seen[at], 0);
         seen[at] = 1;
         assert_true(at / N >= M0 && at / N < M0 + COLS && at % N >= N0 && at % N < N0 + ROWS);
      }
   int count = 0;
   for (int i = 0; i < M * N; i++)
      count += seen[i];
   assert_int_equal(count, ROWS * COLS);

   /* The 16-word run of k: two steps of 8 words, each word once; in each step a lane's
    * words t and t + 4 are the two words of its pair (one 8-byte half of its 16 bytes). */
   char word[16] = {0};
   for (int t = 0; t < 4; t++)
      for (int q = 0; q < 2; q++) {
         for (int hi = 0; hi < 2; hi++) {
            const int w = gt_sched_run_word(t, q, hi);
            assert_true(w >= 4 * t && w < 4 * t + 4); /* inside the lane's own 16 bytes */
            assert_int_equal(word[w], 0);
            word[w] = 1;
         }
         assert_int_equal(gt_sched_run_word(t, q, 1), gt_sched_run_word(t, q, 0) + 1);
      }
   for (int w = 0; w < 16; w++)
      assert_int_equal(word[w], 1);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_tile_order), cmocka_unit_test(test_shares),
       cmocka_unit_test(test_stream_k),   cmocka_unit_test(test_hybrid), cmocka_unit_test(test_hybrid_handoff),
       cmocka_unit_test(test_accumulator_layouts), cmocka_unit_test(test_swap_maps),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
