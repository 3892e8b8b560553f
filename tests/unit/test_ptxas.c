/* ptxas verbose reports as NVRTC and NVIDIA's OpenCL print them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/ptxas.h"

static const char *LOG =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'gt_copy_pad' for 'sm_90'\n"
    "ptxas info    : Function properties for gt_copy_pad\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 12 registers\n"
    "ptxas info    : Compiling entry function 'gemm' for 'sm_90'\n"
    "ptxas info    : Function properties for gemm\n"
    "ptxas         .     40 bytes stack frame, 36 bytes spill stores, 28 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 1 barriers, 16912 bytes smem\n"
    "ptxas info    : Compile time = 21.134 ms\n";

static void test_named_entry(void **state) {
   (void)state;
   PtxasInfo p;
   assert_true(Ptxas_parse(LOG, "gemm", &p));
   assert_int_equal(p.registers, 255);
   assert_int_equal(p.stack_bytes, 40);
   assert_int_equal(p.spill_stores, 36);
   assert_int_equal(p.spill_loads, 28);
   assert_int_equal(p.shared_bytes, 16912);
   assert_int_equal(p.barriers, 1);
}

static void test_first_entry_and_missing(void **state) {
   (void)state;
   PtxasInfo p;
   assert_true(Ptxas_parse(LOG, NULL, &p));
   assert_int_equal(p.registers, 12);
   assert_int_equal(p.shared_bytes, 0);
   assert_false(Ptxas_parse(LOG, "nosuch", &p));
   assert_false(Ptxas_parse("no report here", NULL, &p));
   assert_false(Ptxas_parse(NULL, NULL, &p));
}

int main(void) {
   const struct CMUnitTest tests[] = {cmocka_unit_test(test_named_entry), cmocka_unit_test(test_first_entry_and_missing)};
   return cmocka_run_group_tests(tests, NULL, NULL);
}
