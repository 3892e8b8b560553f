/* The explorer's configuration: the kernel, its parameter values, the problem and the
 * device chosen, each change sent to the worker (worker.h); the variants listed; the
 * kernel files, reloaded on request or when they change on disk. */
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/util.h"
#include "tui/app.h"
#include "tui/draw_history.h"
#include "tui/draw_kernel.h"

void Ui_buildList(Ui *ui) {
   free(ui->list);
   ui->list = malloc(sizeof *ui->list * (size_t)(ui->cat.count ? ui->cat.count : 1));
   ui->nlist = 0;
   for (int i = 0; ui->list && i < ui->cat.count; i++)
      if (!ui->cat.kernels[i].hidden || i == ui->kernel)
         ui->list[ui->nlist++] = i;
}

static int listPos(const Ui *ui, int catalog_index) {
   for (int i = 0; i < ui->nlist; i++)
      if (ui->list[i] == catalog_index)
         return i;
   return -1;
}

/* ---- the configuration ---- */

void Ui_apply(Ui *ui) {
   const KernelInfo *k = Ui_kernel(ui);
   memcpy(ui->remembered[ui->kernel], ui->values, sizeof ui->values);
   ui->has_remembered[ui->kernel] = true;
   WorkerConfig c;
   memset(&c, 0, sizeof c);
   Util_copy(c.kernel, sizeof c.kernel, k->name);
   memcpy(c.values, ui->values, sizeof c.values);
   c.problem = ui->problem;
   c.ablate = ui->ablate;
   c.cold_l2 = ui->cold_l2;
   Util_copy(c.limits, sizeof c.limits, ui->limits);
   c.ready = AheadUi_ready(ui);
   Worker_post(ui->worker, &c);
   HistoryPane_of(&ui->panes)->cursor = -1;
   ui->dirty = true;
}

void Ui_selectKernel(Ui *ui, int idx, const long long *values) {
   if (idx < 0 || idx >= ui->cat.count)
      return;
   KernelPane *kp = KernelPane_of(&ui->panes);
   bool inList = kp->cursor > Ui_kernel(ui)->nparams;
   memcpy(ui->remembered[ui->kernel], ui->values, sizeof ui->values);
   ui->has_remembered[ui->kernel] = true;
   ui->kernel = idx;
   memset(ui->values, 0, sizeof ui->values);
   if (values)
      memcpy(ui->values, values, sizeof ui->values);
   else if (ui->has_remembered[idx])
      memcpy(ui->values, ui->remembered[idx], sizeof ui->values);
   else
      KernelInfo_defaults(Ui_kernel(ui), ui->values);
   if (listPos(ui, idx) < 0)
      Ui_buildList(ui);
   /* The cursor stays on what it was on: the picker, or this variant in the list. */
   if (inList)
      kp->cursor = 1 + Ui_kernel(ui)->nparams + listPos(ui, idx);
   else if (kp->cursor > Ui_kernel(ui)->nparams)
      kp->cursor = 0;
   Ui_apply(ui);
}

void Ui_setProblem(Ui *ui, const Problem *p) {
   ui->problem = *p;
   Ui_apply(ui);
}

void Ui_setDevice(Ui *ui, const char *backend, DeviceInfo *devices, int ndevices, int device) {
   if (devices != ui->devices) {
      free(ui->devices);
      ui->devices = devices;
      ui->ndevices = ndevices;
   }
   Util_copy(ui->backend, sizeof ui->backend, backend);
   ui->device = device;
   Worker_setDevice(ui->worker, backend, device);
   ui->dirty = true;
}

void Ui_stepVariant(Ui *ui, int dir) {
   int pos = listPos(ui, ui->kernel);
   int next = pos + dir;
   if (next < 0 || next >= ui->nlist) {
      Ui_flash(ui, ST_WARN, dir < 0 ? "this is the first variant" : "this is the last variant");
      return;
   }
   Ui_selectKernel(ui, ui->list[next], NULL);
}

/* Moves parameter pi to the next value in direction dir: the next valid one, or with
 * any the adjacent one even if a constraint refuses it (its reason is then shown). */
void Ui_stepParam(Ui *ui, int pi, int dir, bool any) {
   const KernelInfo *k = Ui_kernel(ui);
   const KernelParam *p = &k->params[pi];
   int cur = KernelParam_valueIndex(p, ui->values[pi]);
   bool valid[KERNEL_MAX_VALUES];
   Config_validValues(k, ui->values, &ui->problem, Ui_limits(ui), pi, valid);
   for (int j = cur + dir; j >= 0 && j < p->nvalues; j += dir)
      if (any || valid[j]) {
         ui->values[pi] = p->values[j];
         Ui_apply(ui);
         return;
      }
   if (!any && cur + dir >= 0 && cur + dir < p->nvalues)
      Ui_flash(ui, ST_WARN, "%s: no valid value %s %lld here (- and + step through unavailable ones too)%s", p->name,
               dir < 0 ? "below" : "above", ui->values[pi], Ui_simulatedNote(ui));
   else
      Ui_flash(ui, ST_WARN, "%s: %lld is its %s value", p->name, ui->values[pi], dir < 0 ? "smallest" : "largest");
}

void Ui_setParamValue(Ui *ui, int pi, int vi) {
   const KernelInfo *k = Ui_kernel(ui);
   if (pi < 0 || pi >= k->nparams || vi < 0 || vi >= k->params[pi].nvalues)
      return;
   ui->values[pi] = k->params[pi].values[vi];
   Ui_apply(ui);
}

void Ui_restoreHistory(Ui *ui, int i) {
   if (i < 0 || i >= ui->hist.count)
      return;
   const HistoryEntry *e = &ui->hist.items[i];
   const KernelInfo *k = Catalog_find(&ui->cat, e->kernel);
   if (!k) {
      Ui_flash(ui, ST_BAD, "kernel %s is no longer in the catalog", e->kernel);
      return;
   }
   int idx = (int)(k - ui->cat.kernels);
   ui->problem = e->problem;
   ui->ablate = e->ablate;
   if (strcmp(e->backend, ui->backend) || e->device != ui->device) {
      if (!strcmp(e->backend, ui->backend) && e->device < ui->ndevices)
         Ui_setDevice(ui, ui->backend, ui->devices, ui->ndevices, e->device);
      else
         Ui_flash(ui, ST_WARN, "that configuration ran on %s device %d: choose it in setup (F2)", e->backend,
                  e->device);
   }
   int keep = HistoryPane_of(&ui->panes)->cursor;
   Ui_selectKernel(ui, idx, e->values);
   HistoryPane_of(&ui->panes)->cursor = keep;
   Ui_flash(ui, ST_NORMAL, "back to %s %s", e->kernel, e->params);
}

/* ---- kernel files: reload on request or when they change on disk ---- */

/* dirs: the catalog's folders, "a" or "a:b". */
unsigned long long Ui_kernelsSignature(const char *dirs) {
   unsigned long long h = UTIL_HASH_INIT;
   const char *subs[] = {"", "/helpers"};
   for (const char *dir = dirs; *dir; dir += strcspn(dir, ":"), dir += *dir == ':')
   for (int s = 0; s < 2; s++) {
      char path[1200];
      snprintf(path, sizeof path, "%.*s%s", (int)strcspn(dir, ":"), dir, subs[s]);
      DIR *d = opendir(path);
      if (!d)
         continue;
      struct dirent *e;
      while ((e = readdir(d))) {
         size_t n = strlen(e->d_name);
         if (n < 3 || (strcmp(e->d_name + n - 3, ".cl") && strcmp(e->d_name + n - 2, ".h")))
            continue;
         char f[1500];
         struct stat st;
         snprintf(f, sizeof f, "%s/%s", path, e->d_name);
         if (stat(f, &st) != 0)
            continue;
         /* Order-independent: entries are summed. */
         unsigned long long one = Util_hash(UTIL_HASH_INIT, e->d_name, n);
         one = Util_hash(one, &st.st_mtim, sizeof st.st_mtim);
         one = Util_hash(one, &st.st_size, sizeof st.st_size);
         h += one;
      }
      closedir(d);
   }
   return h;
}

void Ui_reloadKernels(Ui *ui, const char *why) {
   Catalog fresh;
   char err[1024];
   if (!Catalog_load(&fresh, ui->kernels_dir, err, sizeof err)) {
      Ui_log(ui, LOG_ERROR, "cannot reload the kernels: %s", err);
      return;
   }
   char name[64];
   Util_copy(name, sizeof name, Ui_kernel(ui)->name);
   long long old[KERNEL_MAX_PARAMS];
   memcpy(old, ui->values, sizeof old);
   KernelInfo oldInfo = *Ui_kernel(ui); /* names of the parameters only */
   const KernelInfo *k = Catalog_find(&fresh, name);
   int idx = k ? (int)(k - fresh.kernels) : -1;
   if (idx < 0)
      for (int i = 0; i < fresh.count && idx < 0; i++)
         if (!fresh.kernels[i].hidden)
            idx = i;
   if (idx < 0) {
      Ui_log(ui, LOG_ERROR, "the reloaded kernels folder %s has no kernel; keeping the old catalog", ui->kernels_dir);
      Catalog_free(&fresh);
      return;
   }
   long long (*rem)[KERNEL_MAX_PARAMS] = calloc((size_t)fresh.count, sizeof *rem);
   bool *has = calloc((size_t)fresh.count, sizeof *has);
   if (!rem || !has) {
      free(rem);
      free(has);
      Catalog_free(&fresh);
      return;
   }
   free(ui->remembered);
   free(ui->has_remembered);
   ui->remembered = rem;
   ui->has_remembered = has;
   /* Values carry over by parameter name where the new metadata still allows them. */
   k = &fresh.kernels[idx];
   memset(ui->values, 0, sizeof ui->values);
   KernelInfo_defaults(k, ui->values);
   if (!strcmp(k->name, name))
      for (int i = 0; i < oldInfo.nparams; i++) {
         int pi = KernelInfo_paramIndex(k, oldInfo.params[i].name);
         if (pi >= 0 && KernelParam_valueIndex(&k->params[pi], old[i]) >= 0)
            ui->values[pi] = old[i];
      }
   Catalog_free(&ui->cat);
   ui->cat = fresh;
   ui->kernel = idx;
   Ui_buildList(ui);
   KernelPane *kp = KernelPane_of(&ui->panes);
   if (kp->cursor >= Ui_kernelRows(ui))
      kp->cursor = 0;
   if (ui->cat.warnings[0])
      Ui_log(ui, LOG_WARN, "some kernel files were skipped:\n%s", ui->cat.warnings);
   if (ui->cat.notes[0])
      Ui_log(ui, LOG_INFO, "kernels replaced by a later folder's:\n%s", ui->cat.notes);
   Ui_log(ui, LOG_INFO, "kernels reloaded (%s): %d variants", why, ui->cat.count);
   Worker_reload(ui->worker);
   if (ui->ahead)
      Ahead_reload(ui->ahead);
   Ui_apply(ui);
}

void Ui_watchKernels(Ui *ui) {
   double now = Util_nowMs();
   if (now < ui->next_watch)
      return;
   ui->next_watch = now + 1000;
   Screen_guardSignals();
   unsigned long long sig = Ui_kernelsSignature(ui->kernels_dir);
   if (ui->kernels_sig && sig != ui->kernels_sig)
      Ui_reloadKernels(ui, "a file changed");
   ui->kernels_sig = sig;
}
