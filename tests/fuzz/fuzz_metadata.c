/* Fuzzes the kernel metadata parser (src/core/model/catalog.c) and what reads the metadata next
 * (src/core/model/config.c: rules, launch geometry, local memory, the suggestions of valid
 * values, the compiler's -D options). The input is a kernel file. */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/catalog.h"
#include "core/model/config.h"
#include "core/model/problem.h"
#include "base/util.h"

/* What 'gemmtop list kernels' prints must hold no control byte. */
static void checkKernelText(const char *s) {
   if (Util_findControl(s, strlen(s), NULL) < strlen(s))
      abort();
}

static void checkConfigs(const KernelInfo *k) {
   static const int sizes[][3] = {{64, 64, 64}, {1, 1, 1}, {1000, 24, 7}, {1048576, 1048576, 1048576}};
   DeviceLimits lim = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .fp64 = true, .warp = 32};
   long long values[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(k, values);
   for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
      Problem p;
      Problem_setDefaults(&p);
      p.m = sizes[i][0], p.n = sizes[i][1], p.k = sizes[i][2];
      p.precision = i % 2 ? PRECISION_DOUBLE : PRECISION_FLOAT;
      Geometry g;
      char msg[2048], defines[4096];
      if (Config_check(k, values, &p, &lim, &g, msg, sizeof msg)) {
         for (int d = 0; d < g.dims; d++)
            if (g.global[d] < 1 || g.local[d] < 1 || g.global[d] % g.local[d] ||
                g.global[d] / g.local[d] > (size_t)CONFIG_MAX_GROUPS || g.localmem < 0)
               abort(); /* passed a launch it should refuse */
         Config_defines(k, values, &p, &g, defines, sizeof defines);
      } else if (!msg[0]) {
         abort(); /* a refusal always says why */
      }
   }
   char params[512];
   KernelInfo_formatParams(k, values, params, sizeof params);
}

int Fuzz_metadata(const uint8_t *data, size_t size) {
   if (memchr(data, '\0', size))
      return 0; /* Catalog_load refuses a kernel file with a NUL before parsing it */
   char *text = malloc(size + 1);
   if (!text)
      return 0;
   memcpy(text, data, size);
   text[size] = '\0';
   KernelInfo k;
   char err[1024];
   if (KernelInfo_parse(&k, text, "fuzz.cl", err, sizeof err)) {
      if (!k.name[0] || k.dims < 1 || k.dims > 3)
         abort();
      checkKernelText(k.name);
      checkKernelText(k.title);
      checkKernelText(k.ladder);
      checkKernelText(k.about);
      for (int i = 0; i < k.nparams; i++)
         checkKernelText(k.params[i].description);
      checkConfigs(&k);
      KernelInfo_free(&k);
   } else if (!err[0]) {
      abort();
   }
   free(text);
   return 0;
}

FUZZ_ENTRY(Fuzz_metadata)
