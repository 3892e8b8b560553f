#define _GNU_SOURCE /* strcasestr */
#include "core/select.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool Select_loadCatalog(Catalog *cat, char *err, size_t errlen) {
   char dir[1024];
   if (!Catalog_defaultDir(dir, sizeof dir)) {
      snprintf(err, errlen, "cannot find the kernels folder (looked next to the program and in %s); set GEMMTOP_KERNELS",
               dir);
      return false;
   }
   return Catalog_load(cat, dir, err, errlen);
}

const Backend *Select_backend(const char *name, char *err, size_t errlen) {
   if (!name)
      name = "opencl";
   const Backend *b = Backend_byName(name);
   if (!b)
      snprintf(err, errlen, "unknown backend '%s'; available: opencl, cuda, hip", name);
   return b;
}

int Select_device(const DeviceInfo *devs, int count, const char *want, char *err, size_t errlen) {
   if (want) {
      char *end;
      long idx = strtol(want, &end, 10);
      if (end != want && !*end) {
         if (idx >= 0 && idx < count)
            return (int)idx;
         snprintf(err, errlen, "no device %ld: there are %d (0 to %d); see 'gemmtop list devices'", idx, count, count - 1);
         return -1;
      }
      for (int i = 0; i < count; i++)
         if (strcasestr(devs[i].name, want) || strcasestr(devs[i].platform, want))
            return i;
      snprintf(err, errlen, "no device matches '%s'; see 'gemmtop list devices'", want);
      return -1;
   }
   static const DeviceType order[] = {DEVICE_GPU, DEVICE_ACCELERATOR, DEVICE_CPU, DEVICE_OTHER};
   for (size_t t = 0; t < sizeof order / sizeof order[0]; t++)
      for (int i = 0; i < count; i++)
         if (devs[i].type == order[t])
            return i;
   snprintf(err, errlen, "no device");
   return -1;
}

static bool hasGpu(const DeviceInfo *devs, int n) {
   for (int i = 0; i < n; i++)
      if (devs[i].type == DEVICE_GPU)
         return true;
   return false;
}

const Backend *Select_defaultBackend(DeviceInfo **devs, int *count, char *err, size_t errlen) {
   const Backend *be = Backend_opencl();
   char why[512] = "";
   *count = be->listDevices(devs, why, sizeof why);
   snprintf(err, errlen, "opencl: %s", *count > 0 ? "no GPU" : why[0] ? why : "no device");
   if (*count > 0 && hasGpu(*devs, *count))
      return be;
   static const char *const others[] = {"cuda", "hip"};
   for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
      const Backend *o = Backend_byName(others[i]);
      DeviceInfo *odevs = NULL;
      char owhy[512] = "";
      int n = o->listDevices(&odevs, owhy, sizeof owhy);
      if (n > 0 && hasGpu(odevs, n)) {
         free(*devs);
         *devs = odevs;
         *count = n;
         return o;
      }
      free(odevs);
      size_t used = strlen(err);
      snprintf(err + used, errlen - used, "; %s: %s", others[i], owhy[0] ? owhy : "no device");
   }
   return be; /* OpenCL's CPU devices, or none */
}

Session *Select_openSession(const Selection *sel, const Catalog *cat, int *exit_code, char *err, size_t errlen) {
   *exit_code = 2;
   const Backend *be = Select_backend(sel->backend, err, errlen);
   if (!be)
      return NULL;
   DeviceInfo *devs = NULL;
   int n = be->listDevices(&devs, err, errlen);
   if (n <= 0) {
      free(devs);
      *exit_code = 1;
      return NULL;
   }
   int idx = Select_device(devs, n, sel->device, err, errlen);
   free(devs);
   if (idx < 0)
      return NULL;
   char why[1024];
   Session *s = Session_open(be, idx, cat, why, sizeof why);
   if (!s) {
      snprintf(err, errlen, "cannot open device %d: %s", idx, why);
      *exit_code = 1;
   }
   return s;
}

bool Select_loadPreset(const char *preset, const Catalog *cat, Preset *out, char *err, size_t errlen) {
   if (strchr(preset, '/') || strstr(preset, ".preset"))
      return Preset_load(preset, out, err, errlen);
   char dir[1024];
   PresetList list;
   Preset_defaultDir(cat->dir, dir, sizeof dir);
   PresetList_load(&list, dir, err, errlen);
   const Preset *p = PresetList_find(&list, preset);
   if (p)
      *out = *p;
   PresetList_free(&list);
   if (!p)
      snprintf(err, errlen, "no preset named '%s'; see 'gemmtop list presets'", preset);
   return p != NULL;
}

/* The problem: the defaults, then the preset's fields, then those given explicitly. */
static void explicitProblem(const Selection *sel, Problem *p) {
   const Problem *o = &sel->problem;
   if (sel->has_m) p->m = o->m;
   if (sel->has_n) p->n = o->n;
   if (sel->has_k) p->k = o->k;
   if (sel->has_precision) p->precision = o->precision;
   if (sel->has_layout) p->trans_a = o->trans_a, p->trans_b = o->trans_b;
   if (sel->has_alpha) p->alpha = o->alpha;
   if (sel->has_beta) p->beta = o->beta;
}

bool Select_resolve(const Selection *sel, const Catalog *cat, Resolved *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   Preset preset;
   bool has_preset = sel->preset != NULL;
   if (has_preset && !Select_loadPreset(sel->preset, cat, &preset, err, errlen))
      return false;
   const char *name = sel->kernel ? sel->kernel : has_preset ? preset.kernel : NULL;
   if (!name) {
      snprintf(err, errlen, "which kernel? give --kernel NAME or --preset NAME; see 'gemmtop list kernels'");
      return false;
   }
   const KernelInfo *k = Catalog_find(cat, name);
   if (!k) {
      bool named_by_preset = has_preset && !sel->kernel;
      snprintf(err, errlen, "no kernel named '%s'%s%s; see 'gemmtop list kernels'", name,
               named_by_preset ? " (named by preset " : "", named_by_preset ? preset.path : "");
      return false;
   }
   KernelInfo_defaults(k, out->values);
   Problem p = sel->problem;
   Problem_setDefaults(&p);
   if (has_preset && !Preset_apply(&preset, k, out->values, &p, err, errlen))
      return false;
   explicitProblem(sel, &p);
   for (int i = 0; i < sel->nsets; i++)
      if (!Config_setParam(k, out->values, sel->sets[i], err, errlen))
         return false;
   out->kernel = k;
   out->problem = p;
   out->preset_sized = has_preset && (preset.has_m || preset.has_n || preset.has_k);
   return true;
}

bool Select_sets(const Selection *sel, const char *param) {
   size_t n = strlen(param);
   for (int i = 0; i < sel->nsets; i++)
      if (!strncmp(sel->sets[i], param, n) && sel->sets[i][n] == '=')
         return true;
   return false;
}
