/* ptxas verbose reports as NVRTC and NVIDIA's OpenCL print them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend/ptxas.h"

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

/* ptxas's advisory that it serialised an entry's wgmma comes before the entry's report and
 * names the function; another function's advisory is not this one's. */
static void test_wgmma_serialized(void **state) {
   (void)state;
   static const char *log =
       "ptxas info    : (C7514) Potential Performance Loss: wgmma.mma_async instructions are serialized due to "
       "non wgmma instructions reading accumulator registers of  a wgmma between start and end of the pipeline "
       "stage in the function 'gemm'\n"
       "ptxas info    : 0 bytes gmem\n"
       "ptxas info    : Compiling entry function 'gemm' for 'sm_90a'\n"
       "ptxas info    : Function properties for gemm\n"
       "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
       "ptxas info    : Used 168 registers, used 1 barriers\n"
       "ptxas info    : Compiling entry function 'gemm_fixup' for 'sm_90a'\n"
       "ptxas info    : Function properties for gemm_fixup\n"
       "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
       "ptxas info    : Used 20 registers\n";
   PtxasInfo p;
   assert_true(Ptxas_parse(log, "gemm", &p));
   assert_int_equal(p.registers, 168);
   assert_string_equal(p.wgmma_serialized, "non wgmma instructions reading accumulator registers of a wgmma between "
                                           "start and end of the pipeline stage");
   assert_true(Ptxas_parse(log, "gemm_fixup", &p));
   assert_int_equal(p.registers, 20);
   assert_string_equal(p.wgmma_serialized, "");
   assert_true(Ptxas_parse(LOG, "gemm", &p));
   assert_string_equal(p.wgmma_serialized, "");
}

/* Ptxas_ofPtx runs the ptxas it finds on PATH: here a stand-in script that prints the
 * report for the -arch it is given and checks the PTX file exists, a real process. */
static void test_of_ptx(void **state) {
   (void)state;
   char dir[] = "/tmp/gemmtop-test-ptxas-XXXXXX";
   assert_non_null(mkdtemp(dir));
   char script[128], oldPath[4096];
   snprintf(script, sizeof script, "%s/ptxas", dir);
   FILE *f = fopen(script, "w");
   assert_non_null(f);
   fprintf(f, "#!/bin/sh\nfor a; do case $a in -arch=*) arch=${a#-arch=} ;; *.ptx) test -s \"$a\" || exit 3 ;; "
              "esac; done\necho \"ptxas info    : Compiling entry function 'gemm' for '$arch'\"\n"
              "echo \"ptxas         .     8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\"\n"
              "echo \"ptxas info    : Used 40 registers, used 1 barriers, 2048 bytes smem\"\n"
              "test \"$arch\" = sm_90\n");
   fclose(f);
   chmod(script, 0755);
   snprintf(oldPath, sizeof oldPath, "%s", getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
   char path[4300];
   snprintf(path, sizeof path, "%s:%s", dir, oldPath);
   setenv("PATH", path, 1);
   PtxasInfo info;
   const char *ptx = "//\n.version 8.4\n.target sm_90, texmode_independent\n.address_size 64\n.entry gemm()\n{\n}\n";
   assert_true(Ptxas_ofPtx(ptx, "gemm", &info));
   assert_int_equal(info.registers, 40);
   assert_int_equal(info.stack_bytes, 8);
   assert_int_equal(info.shared_bytes, 2048);
   /* No .target line: nothing to run. */
   assert_false(Ptxas_ofPtx(".version 8.4\n.entry gemm()\n", "gemm", &info));
   unlink(script);
   rmdir(dir);
   setenv("PATH", oldPath, 1);
}

int main(void) {
   const struct CMUnitTest tests[] = {cmocka_unit_test(test_named_entry), cmocka_unit_test(test_first_entry_and_missing),
       cmocka_unit_test(test_wgmma_serialized),
                                      cmocka_unit_test(test_of_ptx)};
   return cmocka_run_group_tests(tests, NULL, NULL);
}
