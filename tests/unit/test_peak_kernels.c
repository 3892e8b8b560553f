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
#include "core/model/catalog.h"
#include "core/run/session.h"
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
   compileClean("-DDOUBLE=0 -DGT_ARCH_SPECIFIC=1 -DGT_WGMMA_PEAK=1", entries, "sm_90a", 168);
}

/* mma.sync in every type, e4m3 (m16n8k32) included, in one program: the tensor ceilings
 * of kernels that use it. */
static void test_mma_peak_compiles(void **state) {
   (void)state;
   if (!Backend_cuda()->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the peak micro-kernels cannot be compiled here");
   static const char *const entries[] = {"gt_peak_mma_tf32", "gt_peak_mma_f16", "gt_peak_mma_bf16", "gt_peak_mma_e4m3",
                                         NULL};
   compileClean("-DDOUBLE=0 -DGT_TENSOR_PTX=1 -DGT_MMA_FP8=1", entries, "sm_90", 128);
}

/* Each loop count is its own: a program compiled for the tensor ceilings (MMA_ITERS 4096)
 * keeps the read kernel's loop at READ_ITERS. Unrolled 4096 times, that loop made each
 * such program a minute's compile and the measurement ran past a minute on an H200. The
 * PTX of gt_peak_read is counted in lines: a few hundred, not tens of thousands. */
static void test_loop_counts_apart(void **state) {
   (void)state;
   if (!Backend_cuda()->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the peak micro-kernels cannot be compiled here");
   Catalog cat;
   char err[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   char *src = Session_source(&cat, true, cat.peak);
   OfflineCode code;
   memset(&code, 0, sizeof code);
   BackendStatus st = Backend_cuda()->offline->compile(src, "-DDOUBLE=0 -DGT_TENSOR_PTX=1 -DMMA_ITERS=4096", "sm_90",
                                                       "gt_peak_read", OFFLINE_LIST_ONLY, &code, err, sizeof err);
   if (st != BACKEND_OK)
      fail_msg("%s\n%s", err, code.log ? code.log : "");
   assert_non_null(code.code);
   const char *read = strstr(code.code, ".entry gt_peak_read(");
   assert_non_null(read);
   const char *next = strstr(read + 1, ".entry ");
   int lines = 0;
   for (const char *c = read; *c && (!next || c < next); c++)
      lines += *c == '\n';
   print_message("# gt_peak_read: %d lines of PTX\n", lines);
   assert_true(lines > 20 && lines < 1000);
   OfflineCode_free(&code);
   free(src);
   Catalog_free(&cat);
}

/* The local-memory ceiling reads 16 bytes a lane: on the H200 4-byte reads were issue-bound
 * at 80% of the banks' 128 bytes a clock (26.6 against 33 TB/s). Every shared-memory load
 * of gt_peak_local's loop in the PTX is a v4.f32 one. */
static void test_local_reads_wide(void **state) {
   (void)state;
   if (!Backend_cuda()->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the peak micro-kernels cannot be compiled here");
   Catalog cat;
   char err[1024];
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   char *src = Session_source(&cat, true, cat.peak);
   OfflineCode code;
   memset(&code, 0, sizeof code);
   BackendStatus st =
       Backend_cuda()->offline->compile(src, "-DDOUBLE=0", "sm_90", "gt_peak_local", OFFLINE_LIST_ONLY, &code, err, sizeof err);
   if (st != BACKEND_OK)
      fail_msg("%s\n%s", err, code.log ? code.log : "");
   const char *local = code.code ? strstr(code.code, ".entry gt_peak_local(") : NULL;
   assert_non_null(local);
   const char *next = strstr(local + 1, ".entry ");
   int wide = 0, narrow = 0;
   for (const char *c = strstr(local, "ld.shared."); c && (!next || c < next); c = strstr(c + 1, "ld.shared."))
      if (!strncmp(c, "ld.shared.v4.f32", 16))
         wide++;
      else
         narrow++;
   print_message("# gt_peak_local: %d 16-byte and %d narrower shared-memory loads\n", wide, narrow);
   assert_true(wide >= 4);
   assert_int_equal(narrow, 0);
   OfflineCode_free(&code);
   free(src);
   Catalog_free(&cat);
}

/* The verification kernels for a float C and a double one. */
static void test_verify_kernels_compile(void **state) {
   (void)state;
   if (!Backend_cuda()->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the verification kernels cannot be compiled here");
   static const char *const entries[] = {"gt_verify_rows", "gt_verify_cols", "gt_verify_cols_join", "gt_verify_gather",
                                         NULL};
   /* The poison words session_verify.c passes (Verify_poisonWord): float's, double's. */
   compileCleanOf(true, "-DDOUBLE=0 -DGT_VERIFY_POISON=0x7fb0cafeu", entries, "sm_90", 64);
   compileCleanOf(true, "-DDOUBLE=1 -DGT_VERIFY_POISON=0x7ff6cafeu", entries, "sm_90", 64);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_verify_kernels_compile),
       cmocka_unit_test(test_wgmma_peak_compiles),
       cmocka_unit_test(test_mma_peak_compiles),
       cmocka_unit_test(test_loop_counts_apart),
       cmocka_unit_test(test_local_reads_wide),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
