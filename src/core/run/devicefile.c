/* A device described by the JSON line of `gemmtop list devices --format json --measure`. */
#include "core/run/devicefile.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const PeakJsonName DeviceFile_tensorPeaks[8] = {
    {"tensor_tf32_peak_gflops", false, PEAK_TF32}, {"tensor_f16_peak_gflops", false, PEAK_F16},
    {"tensor_bf16_peak_gflops", false, PEAK_BF16}, {"tensor_fp8_peak_gflops", false, PEAK_FP8},
    {"wgmma_tf32_peak_gflops", true, PEAK_TF32},   {"wgmma_f16_peak_gflops", true, PEAK_F16},
    {"wgmma_bf16_peak_gflops", true, PEAK_BF16},   {"wgmma_fp8_peak_gflops", true, PEAK_FP8}};

/* A number of obj, or 0 when absent or null (the listing writes null for what was not
 * measured); false when it is there but not a finite number of at least 0. */
static bool number(const cJSON *obj, const char *key, double *out, char *why, size_t whylen) {
   *out = 0;
   const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
   if (!v || cJSON_IsNull(v))
      return true;
   if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0) {
      snprintf(why, whylen, "\"%s\" is not a number of at least 0 (as gemmtop list devices --format json writes it)",
               key);
      return false;
   }
   *out = v->valuedouble;
   return true;
}

static void text(const cJSON *obj, const char *key, char *out, size_t outlen) {
   const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
   if (cJSON_IsString(v) && v->valuestring)
      Util_visible(v->valuestring, out, outlen); /* another machine's words, printed here */
}

bool DeviceFile_parse(const char *json, DeviceInfo *dev, Peaks *peaks, char *why, size_t whylen) {
   memset(peaks, 0, sizeof *peaks);
   const char *end = NULL;
   cJSON *obj = cJSON_ParseWithOpts(json, &end, false);
   if (!cJSON_IsObject(obj)) {
      snprintf(why, whylen, "not a JSON object: give the line `gemmtop list devices --format json --measure` printed "
                            "for the device");
      cJSON_Delete(obj);
      return false;
   }
   bool ok = true;
   double cus = 0, clock = 0, l2 = 0, local = 0, group = 0, global = 0, v;
   ok = number(obj, "compute_units", &cus, why, whylen) && number(obj, "clock_mhz", &clock, why, whylen) &&
        number(obj, "l2_bytes", &l2, why, whylen) && number(obj, "local_mem_bytes", &local, why, whylen) &&
        number(obj, "max_work_group", &group, why, whylen) && number(obj, "global_mem_bytes", &global, why, whylen);
   /* The ceilings, as the listing names them. */
   struct {
      const char *key;
      double *field;
   } ceilings[] = {{"fp32_peak_gflops", &peaks->gflops[PEAK_FP32]}, {"fp64_peak_gflops", &peaks->gflops[PEAK_FP64]},
                   {"copy_peak_gbps", &peaks->copy_gbps},           {"read_peak_gbps", &peaks->read_gbps},
                   {"l2_peak_gbps", &peaks->l2_gbps},               {"local_peak_gbps", &peaks->local_gbps},
                   {"launch_us", &peaks->launch_us},                {"peaks_sm_mhz", &peaks->sm_mhz},
                   {"peaks_mem_mhz", &peaks->mem_mhz},              {"tensor_peaks_sm_mhz", &peaks->tensor_sm_mhz}};
   for (size_t i = 0; ok && i < sizeof ceilings / sizeof ceilings[0]; i++)
      ok = number(obj, ceilings[i].key, ceilings[i].field, why, whylen);
   for (size_t i = 0; ok && i < sizeof DeviceFile_tensorPeaks / sizeof DeviceFile_tensorPeaks[0]; i++) {
      const PeakJsonName *t = &DeviceFile_tensorPeaks[i];
      ok = number(obj, t->name, &v, why, whylen);
      (t->wgmma ? peaks->wgmma_gflops : peaks->gflops)[t->kind] = v;
   }
   if (ok && (cus < 1 || cus > 4096)) {
      snprintf(why, whylen, "\"compute_units\" must be 1 to 4096 (the device's multiprocessors)");
      ok = false;
   }
   if (ok && (peaks->gflops[PEAK_FP32] <= 0 || peaks->copy_gbps <= 0)) {
      snprintf(why, whylen, "no measured ceilings (\"fp32_peak_gflops\", \"copy_peak_gbps\"): list the device with "
                            "--measure on the machine that has it");
      ok = false;
   }
   if (ok) {
      text(obj, "name", dev->name, sizeof dev->name);
      text(obj, "driver", dev->driver, sizeof dev->driver);
      text(obj, "peaks_measured", peaks->measured_at, sizeof peaks->measured_at);
      text(obj, "peaks_not_measured", peaks->not_measured, sizeof peaks->not_measured);
      dev->compute_units = dev->limits.compute_units = (unsigned)cus;
      if (clock > 0)
         dev->clock_mhz = (unsigned)clock;
      if (l2 > 0)
         dev->l2_bytes = (unsigned long long)l2;
      if (local > 0)
         dev->limits.local_mem = (unsigned long long)local;
      if (group > 0)
         dev->limits.max_wg = (size_t)group;
      if (global > 0)
         dev->global_mem = (unsigned long long)global;
      peaks->known = true;
   }
   cJSON_Delete(obj);
   return ok;
}

bool DeviceFile_read(const char *path, DeviceInfo *dev, Peaks *peaks, char *why, size_t whylen) {
   char kind[256];
   size_t len = 0;
   char *text = Util_readUserFile(path, UTIL_MAX_TEXT_BYTES, &len, kind, sizeof kind);
   if (!text) {
      snprintf(why, whylen, "%s: %s", path, kind);
      return false;
   }
   char inner[768];
   bool ok = DeviceFile_parse(text, dev, peaks, inner, sizeof inner);
   if (!ok)
      snprintf(why, whylen, "%s: %s", path, inner);
   free(text);
   return ok;
}
