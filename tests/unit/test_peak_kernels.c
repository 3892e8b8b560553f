/* The tensor-core peak micro-kernels of kernels/helpers/peak.cl compiled for Hopper without
 * a GPU (NVRTC, sm_90a): the wgmma one in each type it measures (tf32, half, bfloat16, e4m3)
 * and mma.sync's FP8 one. A spill would put local-memory traffic into a ceiling meant to
 * hold only the tensor cores' rate, and a wgmma kernel needs the architecture-specific
 * target. Also gemmtop's verification kernels (verify.cl), which the GPU machine runs after
 * every checked launch: for float and double C, without a spill. Skipped, saying so, where
 * NVRTC is not installed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "backend/backend_cuda.h"
#include "backend/ptxas.h"
#include "core/catalog.h"
#include "core/session.h"
#include "testing.h"

/* Compiles a helper file (peak.cl, verify.cl: which) with defines for sm_90 (the program,
 * once), then checks what ptxas reports of each of entries (NULL-ended): the target, no
 * spill, at most max_registers. */
static void compileCleanOf(bool verify, const char *defines, const char *const *entries, const char *want_arch,
                           int max_registers) {
   const BackendOffline *off = Backend_cuda()->offline;
   Catalog cat;
   char err[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   char *src = Session_source(&cat, true, verify ? cat.verify : cat.peak);
   assert_non_null(src);
   OfflineCode code;
   memset(&code, 0, sizeof code);
   BackendStatus st = off->compile(src, defines, "sm_90", entries[0], OFFLINE_LIST_DEFAULT, &code, err, sizeof err);
   if (st != BACKEND_OK)
      fail_msg("%s (%s): %s\n%s", entries[0], defines, err, code.log ? code.log : "");
   assert_string_equal(code.code_arch, want_arch);
   for (int i = 0; entries[i]; i++) {
      /* NVRTC's log has ptxas's report of every entry, or, where it has none, ptxas on the PTX. */
      PtxasInfo info;
      if (!Ptxas_parse(code.log, entries[i], &info) && !(code.code && Ptxas_ofPtx(code.code, entries[i], &info)))
         fail_msg("%s (%s): no ptxas report\n%s", entries[i], defines, code.log ? code.log : "");
      print_message("# %s %s: %d registers, %d bytes of stack, spills %d/%d\n", entries[i], defines, info.registers,
                    info.stack_bytes, info.spill_stores, info.spill_loads);
      assert_int_equal(info.spill_stores, 0);
      assert_int_equal(info.spill_loads, 0);
      assert_int_equal(info.stack_bytes, 0);
      assert_true(info.registers > 0 && info.registers <= max_registers);
   }
   /* ptxas serialises wgmma it cannot keep asynchronous, and says so: not at the peak. */
   assert_null(code.log ? strstr(code.log, "serialized") : NULL);
   OfflineCode_free(&code);
   free(src);
   Catalog_free(&cat);
}

static void compileClean(const char *defines, const char *const *entries, const char *want_arch, int max_registers) {
   compileCleanOf(false, defines, entries, want_arch, max_registers);
}

/* The four wgmma types, in one program: sm_90a, and few enough registers that three
 * warpgroups share a multiprocessor's 64 K (peaks.c launches a whole number of waves for
 * 1, 2, 3, 4 or 6 a multiprocessor). */
static void test_wgmma_peak_compiles(void **state) {
   (void)state;
   if (!Backend_cuda()->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the peak micro-kernels cannot be compiled here");
   static const char *const entries[] = {"gt_peak_wgmma_tf32", "gt_peak_wgmma_f16", "gt_peak_wgmma_bf16",
                                         "gt_peak_wgmma_e4m3", NULL};
   compileClean("-DDOUBLE=0 -DGT_ARCH_SPECIFIC=1 -DGT_WGMMA_PEAK=1 -DITERS=512", entries, "sm_90a", 168);
}

/* mma.sync in e4m3 (m16n8k32), the FP8 ceiling of kernels that use it. */
static void test_fp8_mma_peak_compiles(void **state) {
   (void)state;
   if (!Backend_cuda()->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the peak micro-kernels cannot be compiled here");
   static const char *const entries[] = {"gt_peak_mma", NULL};
   compileClean("-DDOUBLE=0 -DGT_TENSOR_PTX=1 -DGT_MMA_KIND=3 -DITERS=4096", entries, "sm_90", 128);
}

/* The verification kernels for a float C and a double one. */
static void test_verify_kernels_compile(void **state) {
   (void)state;
   if (!Backend_cuda()->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the verification kernels cannot be compiled here");
   static const char *const entries[] = {"gt_verify_rows", "gt_verify_cols", "gt_verify_cols_join", "gt_verify_gather",
                                         NULL};
   compileCleanOf(true, "-DDOUBLE=0", entries, "sm_90", 64);
   compileCleanOf(true, "-DDOUBLE=1", entries, "sm_90", 64);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_verify_kernels_compile),
       cmocka_unit_test(test_wgmma_peak_compiles),
       cmocka_unit_test(test_fp8_mma_peak_compiles),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
