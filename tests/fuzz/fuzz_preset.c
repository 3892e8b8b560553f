/* Fuzzes the preset reader (src/core/model/preset.c): the input is the .preset file. One it
 * accepts is applied to a small kernel and a problem, as `gemmtop run --preset` does. */
#include "fuzz.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/catalog.h"
#include "core/model/preset.h"
#include "core/model/problem.h"
#include "base/util.h"

/* What 'gemmtop list presets' prints must hold no control byte (ESC, BEL reached the
 * terminal before presets refused them). */
static void checkPresetText(const char *s) {
   if (Util_findControl(s, strlen(s), NULL) < strlen(s))
      abort();
}

static const char *KERNEL = "/*@gemmtop\nname: mygemm02_tiled\nparam: TS = 16 in 4, 8, 16, 32 ; tile\n"
                            "param: WPT = 1 in 1, 2, 4, 8 ; work\nglobal: N, M\nlocal: TS, TS\n*/\n";

int Fuzz_preset(const uint8_t *data, size_t size) {
   static KernelInfo kernel;
   static bool parsed;
   char err[1024];
   if (!parsed && !(parsed = KernelInfo_parse(&kernel, KERNEL, "fuzz.cl", err, sizeof err)))
      abort();
   const char *path = Fuzz_tempFile(data, size);
   Preset p;
   if (!Preset_load(path, &p, err, sizeof err)) {
      if (!err[0])
         abort(); /* a refusal always says why */
      return 0;
   }
   if (!p.kernel[0])
      abort();
   checkPresetText(p.name);
   checkPresetText(p.kernel);
   checkPresetText(p.description);
   for (int i = 0; i < p.nparams; i++)
      checkPresetText(p.params[i].name);
   long long values[KERNEL_MAX_PARAMS];
   KernelInfo_defaults(&kernel, values);
   Problem prob;
   Problem_setDefaults(&prob);
   Preset_apply(&p, &kernel, values, &prob, err, sizeof err);
   return 0;
}

FUZZ_ENTRY(Fuzz_preset)
