/* Loading a preset in the explorer, whole: the preset dialog, a lesson step and the start
 * of a lesson all come here, so that a preset never inherits the previous problem, the
 * previous ablation or a previous step's simulated limits. */
#include <stdio.h>
#include <string.h>

#include "core/run/ablate.h"
#include "base/util.h"
#include "tui/app.h"

int Ui_defaultSize(const Ui *ui) {
   const DeviceInfo *d = Ui_deviceInfo(ui);
   return d && d->type == DEVICE_CPU ? 512 : 2048;
}

/* "size (2048), layout (NN)": what went back to the defaults, with the values taken. */
static void describeDefaults(const Preset *p, const Problem *prob, char *out, size_t outlen) {
   char names[128];
   Preset_unstated(p, names, sizeof names);
   out[0] = '\0';
   char lay[3];
   Problem_layoutName(prob, lay);
   int n = 0;
   for (char *tok = strtok(names, ", "); tok && n >= 0 && (size_t)n < outlen; tok = strtok(NULL, ", ")) {
      char value[64];
      if (!strcmp(tok, "size"))
         snprintf(value, sizeof value, "%d", prob->m);
      else if (!strcmp(tok, "M") || !strcmp(tok, "N") || !strcmp(tok, "K"))
         snprintf(value, sizeof value, "%d", tok[0] == 'M' ? prob->m : tok[0] == 'N' ? prob->n : prob->k);
      else if (!strcmp(tok, "precision"))
         snprintf(value, sizeof value, "%s", Precision_name(prob->precision));
      else if (!strcmp(tok, "layout"))
         snprintf(value, sizeof value, "%s", lay);
      else
         snprintf(value, sizeof value, "%g", tok[0] == 'a' ? prob->alpha : prob->beta);
      n += snprintf(out + n, outlen - (size_t)n, "%s%s=%s", n ? ", " : "", tok, value);
   }
}

bool Ui_loadPreset(Ui *ui, const Preset *p, const LessonSize *sizing, unsigned ablate, const char *limits, char *err,
                   size_t errlen) {
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   memset(values, 0, sizeof values);
   Problem prob;
   Problem_setDefaults(&prob);
   prob.m = prob.n = prob.k = Ui_defaultSize(ui);
   if (!Preset_resolve(p, &ui->cat, &k, values, &prob, err, errlen))
      return false;
   char defaulted[256];
   describeDefaults(p, &prob, defaulted, sizeof defaulted);
   const bool resized = sizing && LessonSize_apply(sizing, &prob.m, &prob.n, &prob.k);
   const bool sized = resized && (sizing->dims[0] || sizing->dims[1] || sizing->dims[2]) && !sizing->cpu_shape;
   const bool shaped = resized && sizing->cpu_shape, capped = resized && sizing->cap;
   ui->problem = prob;
   ui->ablate = ablate;
   Util_copy(ui->limits, sizeof ui->limits, limits ? limits : "");
   Util_copy(ui->preset_name, sizeof ui->preset_name, p->name);
   int idx = (int)(k - ui->cat.kernels);
   if (ui->worker) {
      Ui_selectKernel(ui, idx, values);
   } else { /* at start: the worker is started on this configuration */
      ui->kernel = idx;
      memcpy(ui->values, values, sizeof ui->values);
   }
   char lay[3], abl[64] = "";
   Problem_layoutName(&prob, lay);
   if (ablate)
      Ablate_name(ablate, abl, sizeof abl);
   Ui_log(ui, LOG_INFO, "preset %s loaded whole (%s): M=%d N=%d K=%d %s %s alpha=%g beta=%g%s%s%s%s%s%s", p->name,
          p->path, prob.m, prob.n, prob.k, Precision_name(prob.precision), lay, prob.alpha, prob.beta,
          defaulted[0] ? "; not in the preset, so the defaults: " : "", defaulted,
          sized ? "; the lesson's size override" : "",
          shaped ? "; the lesson's CPU shape" : capped ? "; sizes brought down to the lesson's CPU size" : "",
          ablate ? "; ablated: " : "; no ablation", abl);
   if (limits && *limits)
      Ui_log(ui, LOG_INFO, "simulated device limits for this step: %s", limits);
   if (defaulted[0])
      Ui_flash(ui, ST_NORMAL, "preset %s loaded whole; not in it, so the defaults: %s", p->name, defaulted);
   else
      Ui_flash(ui, ST_NORMAL, "preset %s loaded whole: %s", p->name, p->description);
   return true;
}
