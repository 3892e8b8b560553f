/* Every kernel's tracing build compiles for the GPU that explain traces on: the bank trace
 * (GT_TRACE) and, for a kernel that does not load through TMA, the global-load trace
 * (GT_TRACE_GLOBAL, which takes the address of each GT_LOAD's argument), through NVRTC for
 * sm_90a without a GPU. A build that fails there leaves explain without its conflicts and
 * the loads' coalescing on the H200, said only on stderr: on 2026-11-30 tensor step 9's
 * weight loads, an inline-asm value, had no address to take. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/catalog.h"
#include "core/model/config.h"
#include "core/run/session.h"
#include "testing.h"

/* The smallest square problem from 256 up that the configuration accepts, as the trace's. */
static bool problemFor(const KernelInfo *k, const long long *values, const DeviceInfo *dev, Problem *p, Geometry *g) {
   static const int sizes[] = {256, 512, 1024, 2048};
   int precision = 0;
   while (precision < PRECISION_COUNT && !(k->precisions & PRECISION_BIT(precision)))
      precision++; /* the first type it takes */
   for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      Problem_setDefaults(p);
      if (precision < PRECISION_COUNT)
         p->precision = (Precision)precision;
      p->m = p->n = p->k = sizes[i];
      if (Config_check(k, values, p, &dev->limits, g, NULL, 0))
         return true;
   }
   return false;
}

static void test_trace_builds_compile(void **state) {
   (void)state;
   const Backend *be = Backend_cuda();
   if (!be->offline || !be->offline->present())
      SKIP_BECAUSE("NVRTC is not installed: the CUDA tracing builds are not compiled here");
   Catalog cat;
   char err[4096];
   /* The shipped kernels (the suite's own test kernels include one that must not compile). */
   assert_true(Catalog_load(&cat, GEMMTOP_SOURCE_DIR "/kernels", err, sizeof err));
   DeviceInfo dev;
   be->offline->device("sm_90a", &dev);
   int compiled = 0;
   for (int i = 0; i < cat.count; i++) {
      const KernelInfo *k = &cat.kernels[i];
      long long values[KERNEL_MAX_PARAMS];
      KernelInfo_defaults(k, values);
      Problem p;
      Geometry g;
      if (!problemFor(k, values, &dev, &p, &g))
         continue; /* its defaults need another device: not one explain traces here */
      char defines[2048];
      Config_defines(k, values, &p, &g, defines, sizeof defines);
      size_t wg = 1;
      for (int d = 0; d < g.dims; d++)
         wg *= g.local[d];
      const size_t used = strlen(defines);
      snprintf(defines + used, sizeof defines - used,
               " -DGT_TRACE=1 -DGT_TRACE_GROUPS=1u -DGT_TRACE_WG=%zuu -DGT_TRACE_SITES=18u -DGT_TRACE_CAP=1024u%s", wg,
               k->ntma ? "" : " -DGT_TRACE_GLOBAL=1");
      char *source = Session_sourceNamed(&cat, true, k->source, k->path);
      assert_non_null(source);
      OfflineCode code;
      memset(&code, 0, sizeof code);
      BackendStatus st = be->offline->compile(source, defines, "sm_90a", k->entry, OFFLINE_LIST_NONE, &code, err,
                                              sizeof err);
      if (st != BACKEND_OK)
         fail_msg("%s: its tracing build (%s) does not compile for sm_90a: %s\n%.2000s", k->name,
                  k->ntma ? "local memory" : "local memory and global loads", err, code.log ? code.log : "");
      OfflineCode_free(&code);
      free(source);
      compiled++;
   }
   print_message("# %d kernels' tracing builds compiled for sm_90a\n", compiled);
   assert_true(compiled >= 30);
   Catalog_free(&cat);
}

int main(void) {
   const struct CMUnitTest tests[] = {cmocka_unit_test(test_trace_builds_compile)};
   return cmocka_run_group_tests(tests, NULL, NULL);
}
