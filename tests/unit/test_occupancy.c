/* Occupancy against hand-computed figures (CUDA occupancy calculator rules). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "core/analyse/occupancy.h"
#include "core/analyse/waves.h"

static void test_sm90_register_limited(void **state) {
   (void)state;
   const ArchLimits *a = Occupancy_arch("sm_90");
   assert_non_null(a);
   /* sm_90a (the architecture-specific target of the Hopper steps) is the same multiprocessor;
    * an unknown sm_XXa is unknown, and gfx90a is its own entry, not gfx90's. */
   assert_ptr_equal(Occupancy_arch("sm_90a"), a);
   assert_null(Occupancy_arch("sm_99a"));
   assert_string_equal(Occupancy_arch("gfx90a")->arch, "gfx90a");
   /* 128 registers x 32 = 4096 per warp; 65536/4096 = 16 warps; 256-item groups are 8 warps:
    * 2 groups by registers, 2048/256 = 8 by items, 228 KiB/(8 KiB + 1 KiB) = 25 by shared. */
   Occupancy o = Occupancy_estimate(a, 128, 8192, 256);
   assert_true(o.known);
   assert_int_equal(o.by_registers, 2);
   assert_int_equal(o.by_items, 8);
   assert_int_equal(o.by_local, 25);
   assert_int_equal(o.groups, 2);
   assert_string_equal(o.limited_by, "registers");
   assert_int_equal(o.waves, 16);
   assert_int_equal(o.max_waves, 64);
}

static void test_sm90_local_and_items(void **state) {
   (void)state;
   const ArchLimits *a = Occupancy_arch("sm_90");
   /* 32 registers: 1024 per warp -> 64 warps; 1024-item groups (32 warps): 2 by registers,
    * 2 by items; 48 KiB + 1 KiB shared: 233472/50176 = 4. */
   Occupancy o = Occupancy_estimate(a, 32, 49152, 1024);
   assert_int_equal(o.by_registers, 2);
   assert_int_equal(o.by_items, 2);
   assert_int_equal(o.by_local, 4);
   assert_int_equal(o.groups, 2);
   assert_int_equal(o.waves, 64);
   assert_true(o.fraction > 0.999);
   /* 40 KiB + 1 KiB with small groups: shared memory limits. */
   o = Occupancy_estimate(a, 32, 40960, 128);
   assert_int_equal(o.by_local, 5);
   assert_int_equal(o.groups, 5);
   assert_string_equal(o.limited_by, "local memory");
   /* Tiny groups: the 32 block slots limit. */
   o = Occupancy_estimate(a, 16, 0, 32);
   assert_int_equal(o.groups, 32);
   assert_string_equal(o.limited_by, "group slots");
   /* Register granularity: 33 registers round up to 1280 per warp -> 51 warps -> 6 groups of 8. */
   o = Occupancy_estimate(a, 33, 0, 256);
   assert_int_equal(o.by_registers, 6);
}

static void test_amd(void **state) {
   (void)state;
   const ArchLimits *a = Occupancy_arch("gfx906");
   assert_non_null(a);
   /* 64 VGPRs: 256/64 = 4 waves per SIMD, x4 SIMDs = 16 waves; 256-item groups = 4 waves: 4 groups. */
   Occupancy o = Occupancy_estimate(a, 64, 16384, 256);
   assert_int_equal(o.by_registers, 4);
   assert_int_equal(o.by_local, 4);
   assert_int_equal(o.groups, 4);
   /* 20 VGPRs -> 12 per lane... capped at 10 waves per SIMD: 40 waves, 10 groups of 4. */
   o = Occupancy_estimate(a, 20, 0, 256);
   assert_int_equal(o.by_registers, 10);
   assert_null(Occupancy_arch("sm_1"));
   char list[256];
   Occupancy_listArchs(list, sizeof list);
   assert_non_null(strstr(list, "gfx90a"));
}

/* Waves of a launch on an H100 (sm_90, 132 multiprocessors): 128 x 8192 in 128 x 128 tiles
 * is 64 work-groups, under half a wave; 4096 x 4096 is 1024, 7.76 waves at 1 a
 * multiprocessor (the last one 76% full); a CPU has none. */
static void test_waves(void **state) {
   (void)state;
   DeviceInfo h100 = {.type = DEVICE_GPU, .compute_units = 132};
   strcpy(h100.arch, "sm_90");
   /* 256 work-items of 168 registers each: one group per multiprocessor by registers */
   Geometry g = {.dims = 2, .global = {64 * 256, 1}, .local = {256, 1}};
   Waves w = Waves_of(&h100, &g, 168, 0);
   assert_true(w.known);
   assert_int_equal(w.groups, 64);
   assert_int_equal(w.per_unit, 1);
   assert_int_equal(w.full, 0);
   assert_true(w.waves > 0.484 && w.waves < 0.485);
   assert_true(w.busy == w.waves && w.last_fill == w.waves);
   char text[192];
   Waves_describe(&w, text, sizeof text);
   assert_string_equal(text, "0.48 waves: 64 work-groups on 132 multiprocessors at 1 each; 48% of the slots busy");
   g.global[0] = 32 * 256, g.global[1] = 32;
   w = Waves_of(&h100, &g, 168, 0);
   assert_int_equal(w.groups, 1024);
   assert_int_equal(w.full, 7);
   assert_true(fabs(w.last_fill - 100.0 / 132) < 1e-12);
   Waves_describe(&w, text, sizeof text);
   assert_non_null(strstr(text, "7.76 waves: 1024 work-groups on 132 multiprocessors at 1 each; the last one 76% full, "
                                "97% of the slots busy"));
   /* a persistent grid of 132 groups over the 64 tiles: one wave, and still 48% busy; the
    * same tiles cut into 1024 K steps each (stream-K): all but a fraction of a step */
   Geometry pg = {.dims = 1, .global = {132 * 256}, .local = {256}, .work = 64};
   w = Waves_of(&h100, &pg, 168, 0);
   assert_int_equal(w.groups, 132);
   assert_int_equal(w.rounds, 1);
   assert_true(fabs(w.busy - 64.0 / 132) < 1e-12);
   Waves_describe(&w, text, sizeof text);
   assert_string_equal(text, "1.00 wave: 132 work-groups on 132 multiprocessors at 1 each, sharing 64 items of work, "
                             "at most 1 each; 48% of the slots busy");
   pg.work = 64 * 1024;
   w = Waves_of(&h100, &pg, 168, 0);
   assert_int_equal(w.rounds, 497);
   assert_true(w.busy > 0.998 && w.busy < 1.0);
   /* two groups a multiprocessor: half the waves */
   w = Waves_of(&h100, &g, 64, 0);
   assert_true(w.per_unit >= 2);
   /* A persistent grid of one group a unit over 512 tiles, where two groups would fit: by
    * slots half of them idle; by units (a warp-specialised wgmma kernel takes one whole)
    * each takes 4 rounds, the last one 116 of 132 full. */
   pg.work = 512;
   w = Waves_of(&h100, &pg, 64, 0);
   assert_true(w.per_unit >= 2 && w.busy < 0.5);
   Waves unit = Waves_byUnit(&w);
   assert_int_equal(unit.per_unit, 1);
   assert_int_equal(unit.groups, 132);
   assert_int_equal(unit.full, 1);
   assert_int_equal(unit.rounds, 4);
   assert_true(fabs(unit.busy - 512.0 / (132 * 4)) < 1e-12);
   assert_true(unit.occupancy == w.occupancy); /* the warps resident stay the estimate's */
   /* 1024 tiles as 1024 such groups: 7.76 waves of one a unit, the last one 76% full */
   w = Waves_of(&h100, &g, 64, 0);
   unit = Waves_byUnit(&w);
   assert_int_equal(unit.per_unit, 1);
   assert_int_equal(unit.full, 7);
   assert_true(fabs(unit.last_fill - 100.0 / 132) < 1e-12);
   assert_true(fabs(unit.busy - 1024.0 / (132 * 8)) < 1e-12);
   /* Described for a kernel: a wgmma kernel that takes a unit whole (arch and tensor cores)
    * gets the units' view beside the slots', and its tail is judged by it; any other
    * kernel, and a grid of one group a unit, by the slots alone. */
   pg.work = 512;
   w = Waves_of(&h100, &pg, 64, 0);
   KernelInfo wgmma = {.tensor = true}, simt = {0};
   strcpy(wgmma.arch, "sm_90a");
   assert_true(Waves_takesUnitWhole(&wgmma) && !Waves_takesUnitWhole(&simt) && !Waves_takesUnitWhole(NULL));
   char slots[192], both[288];
   Waves_describe(&w, slots, sizeof slots);
   double busy = Waves_describeFor(&w, &wgmma, both, sizeof both);
   assert_true(fabs(busy - 512.0 / (132 * 4)) < 1e-12);
   assert_memory_equal(both, slots, strlen(slots));
   assert_string_equal(both + strlen(slots), "; by multiprocessors, one block each taking one whole: 1.00 wave, 97% busy");
   assert_true(Waves_describeFor(&w, &simt, both, sizeof both) == w.busy);
   assert_string_equal(both, slots);
   wgmma.tensor = false; /* arch alone: not a wgmma kernel */
   assert_true(Waves_describeFor(&w, &wgmma, both, sizeof both) == w.busy);
   assert_true(Waves_describeFor(&(Waves){0}, &simt, both, sizeof both) == -1 && both[0] == '\0');
   /* Where the two views agree the slots' line stands alone: 1024 groups, 7.76 waves of one a
    * unit or 3.88 of two, 97% busy either way (as a grid built for two blocks a unit). */
   wgmma.tensor = true;
   w = Waves_of(&h100, &g, 64, 0);
   assert_true(w.per_unit >= 2);
   Waves_describe(&w, slots, sizeof slots);
   assert_true(fabs(Waves_describeFor(&w, &wgmma, both, sizeof both) - Waves_byUnit(&w).busy) < 0.005);
   assert_string_equal(both, slots);
   /* The launch's dynamic shared memory counts: 64 registers would admit two groups a unit,
    * a ring of 196 KB admits one (hopper-5-t64n64-s12 on the H200 was shown "at 4 each"
    * while it ran one a unit); with a little static memory beside it, still one. */
   g.dynamic_smem = 196 * 1024;
   w = Waves_of(&h100, &g, 64, 0);
   assert_int_equal(w.per_unit, 1);
   assert_int_equal(Waves_of(&h100, &g, 64, 1024).per_unit, 1);
   g.dynamic_smem = 0;
   /* unknown stays unknown; one a unit already: the same */
   Waves none = {0};
   assert_false(Waves_byUnit(&none).known);
   w = Waves_of(&h100, &g, 168, 0);
   unit = Waves_byUnit(&w);
   assert_true(unit.busy == w.busy && unit.waves == w.waves && unit.per_unit == 1);
   /* unknown: a CPU, an architecture not in the table, registers not known */
   DeviceInfo cpu = {.type = DEVICE_CPU, .compute_units = 2};
   assert_false(Waves_of(&cpu, &g, 64, 0).known);
   strcpy(h100.arch, "sm_1");
   assert_false(Waves_of(&h100, &g, 64, 0).known);
   strcpy(h100.arch, "sm_90");
   assert_false(Waves_of(&h100, &g, -1, 0).known);
   Waves_describe(&(Waves){0}, text, sizeof text);
   assert_string_equal(text, "");
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_sm90_register_limited),
       cmocka_unit_test(test_sm90_local_and_items),
       cmocka_unit_test(test_amd),
       cmocka_unit_test(test_waves),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
