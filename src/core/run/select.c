#include "core/run/select.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool Select_loadCatalog(Catalog *cat, char *err, size_t errlen) {
   char dir[1024];
   if (!Catalog_defaultDir(dir, sizeof dir)) {
      const char *env = getenv("GEMMTOP_KERNELS");
      if (env && *env)
         snprintf(err, errlen, "GEMMTOP_KERNELS is %zu characters long; at most %zu", strlen(env), sizeof dir - 1);
      else
         snprintf(err, errlen,
                  "cannot find the kernels folder (looked next to the program and in %s); set GEMMTOP_KERNELS", dir);
      return false;
   }
   return Catalog_load(cat, dir, err, errlen);
}

const Backend *Select_backend(const char *name, char *err, size_t errlen) {
   const Backend *b = name ? Backend_byName(name) : Backend_at(0);
   if (!b) {
      char names[128];
      Backend_names(names, sizeof names);
      snprintf(err, errlen, "unknown backend '%s'; available: %s", name, names);
   }
   return b;
}

bool Select_hasGpu(const DeviceInfo *devs, int n) {
   for (int i = 0; i < n; i++)
      if (devs[i].type == DEVICE_GPU)
         return true;
   return false;
}

const Backend *Select_defaultBackend(DeviceInfo **devs, int *count, char *err, size_t errlen) {
   const Backend *first = Backend_at(0);
   *devs = NULL;
   *count = 0;
   err[0] = '\0';
   for (int i = 0; i < Backend_count(); i++) {
      const Backend *be = Backend_at(i);
      DeviceInfo *found = NULL;
      char why[512] = "";
      int n = be->findDevices(&found, why, sizeof why);
      if (n > 0 && Select_hasGpu(found, n)) {
         free(*devs);
         *devs = found;
         *count = n;
         return be;
      }
      size_t used = strlen(err);
      snprintf(err + used, errlen - used, "%s%s: %s", used ? "; " : "", be->name,
               n > 0 ? "no GPU" : why[0] ? why : "no device");
      if (be == first) {
         *devs = found; /* the first backend's devices (PoCL's CPU) when no backend has a GPU */
         *count = n > 0 ? n : 0;
      } else {
         free(found);
      }
   }
   return first;
}

Session *Select_openSession(const Selection *sel, const Catalog *cat, int *exit_code, char *err, size_t errlen) {
   *exit_code = 2;
   const Backend *be = Select_backend(sel->backend, err, errlen);
   if (!be)
      return NULL;
   DeviceInfo *devs = NULL;
   int n = Backend_listDevices(be, &devs, err, errlen);
   if (n <= 0) {
      free(devs);
      *exit_code = 1;
      return NULL;
   }
   char why[1024];
   int idx = Device_pick(devs, n, sel->device, why, sizeof why);
   free(devs);
   if (idx < 0) {
      snprintf(err, errlen, "%s backend: %s", be->title, why);
      return NULL;
   }
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
   else
      PresetList_missing(&list, preset, err, errlen);
   PresetList_free(&list);
   return p != NULL;
}

void Select_applyProblem(const Selection *sel, Problem *p) {
   const Problem *o = &sel->problem;
   if (sel->has_m) p->m = o->m;
   if (sel->has_n) p->n = o->n;
   if (sel->has_k) p->k = o->k;
   if (sel->has_precision) p->precision = o->precision;
   if (sel->has_layout) p->trans_a = o->trans_a, p->trans_b = o->trans_b;
   if (sel->has_alpha) p->alpha = o->alpha;
   if (sel->has_beta) p->beta = o->beta;
   if (sel->has_scaling) p->scaling = o->scaling;
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
      snprintf(err, errlen, "no kernel named '%s'%s%s%s; see 'gemmtop list kernels'", name,
               named_by_preset ? " (named by preset " : "", named_by_preset ? preset.path : "",
               named_by_preset ? ")" : "");
      return false;
   }
   KernelInfo_defaults(k, out->values);
   Problem p;
   Problem_setDefaults(&p);
   if (has_preset && !Preset_apply(&preset, k, out->values, &p, err, errlen))
      return false;
   Select_applyProblem(sel, &p);
   /* A scaling is the FP8 types' alone: for another type it would be ignored unsaid. */
   if ((sel->has_scaling || (has_preset && preset.has_scaling)) && !Problem_scaled(&p)) {
      char who[300];
      if (sel->has_scaling)
         snprintf(who, sizeof who, "--scaling %s", Scaling_name(p.scaling));
      else
         snprintf(who, sizeof who, "%s: scaling = %s", preset.path, Scaling_name(p.scaling));
      snprintf(err, errlen, "%s is for the FP8 types (--precision e4m3 or e5m2), not %s", who,
               Precision_name(p.precision));
      return false;
   }
   for (int i = 0; i < sel->nsets; i++)
      if (!Config_setParam(k, out->values, sel->sets[i], err, errlen))
         return false;
   out->kernel = k;
   out->problem = p;
   out->preset_sized = has_preset && (preset.has_m || preset.has_n || preset.has_k);
   return true;
}

bool Select_checkScalars(const Selection *sel, const Problem *p, bool random_inputs, char *err, size_t errlen) {
   const TypeTraits *t = Types_of(p->precision);
   const bool dbl = t->fp64;
   const double big = Storage_max(t->out);
   /* The bound is that of C's type (alpha's, beta's and the accumulation's), float for the
    * narrow input types: the message names it, and whose it is. */
   char whose[96] = "";
   if (strcmp(t->output, Precision_name(p->precision)))
      snprintf(whose, sizeof whose, "; %s keeps C, alpha and beta in %s", Precision_name(p->precision), t->output);
   const struct {
      const char *name;
      double value;
      bool given;
   } scalars[] = {{"alpha", p->alpha, sel->has_alpha}, {"beta", p->beta, sel->has_beta}};
   for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
      char who[96];
      snprintf(who, sizeof who, scalars[i].given ? "--%s %g" : "%s = %g (from the preset)", scalars[i].name,
               scalars[i].value);
      if (!isfinite(scalars[i].value)) {
         snprintf(err, errlen, "%s: %s must be a finite number", who, scalars[i].name);
         return false;
      }
      if (fabs(scalars[i].value) > big) {
         snprintf(err, errlen, "%s does not fit in %s (largest %.3g%s)", who, t->output, big, whose);
         return false;
      }
   }
   /* Random inputs lie in [-1, 1): |alpha| K + |beta| bounds every partial sum. */
   double alpha = fabs(dbl ? p->alpha : (double)(float)p->alpha), beta = fabs(dbl ? p->beta : (double)(float)p->beta);
   if (random_inputs && alpha * p->k + beta > big / 2) {
      snprintf(err, errlen,
               "alpha %g, beta %g and K=%d: the result can reach %.3g with inputs in [-1, 1), beyond half of %s's "
               "largest value (%.3g%s)",
               p->alpha, p->beta, p->k, alpha * p->k + beta, t->output, big, whose);
      return false;
   }
   return true;
}

bool Select_sets(const Selection *sel, const char *param) {
   size_t n = strlen(param);
   for (int i = 0; i < sel->nsets; i++)
      if (!strncmp(sel->sets[i], param, n) && sel->sets[i][n] == '=')
         return true;
   return false;
}
