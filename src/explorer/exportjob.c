/* The explorer's K: the configuration on screen exported as export-kernel does it (a
 * standalone kernel for the device's backend, a launcher that verifies it, a Makefile),
 * into the first free KERNEL-export folder of the current one. What happened goes to the
 * log. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "core/export.h"
#include "explorer/worker_int.h"

/* "mygemm03_wpt-export", else "-export-2" ...: a folder that does not exist yet, so that
 * no file of an earlier export is in the way. False when the first 99 are taken. */
static bool freeFolder(const char *name, char *out, size_t len) {
   struct stat st;
   for (int i = 1; i < 100; i++) {
      if (i == 1)
         snprintf(out, len, "%s-export", name);
      else
         snprintf(out, len, "%s-export-%d", name, i);
      if (lstat(out, &st) != 0 && errno == ENOENT)
         return true;
   }
   return false;
}

void ExportJob_run(Worker *w) {
   w->export_req = false;
   WorkerConfig cfg = w->export_cfg;
   const KernelInfo *k = Catalog_find(&w->cat, cfg.kernel);
   if (!k) {
      Worker_log(w, LOG_ERROR, "nothing exported: no kernel is chosen");
      return;
   }
   if (!w->session) {
      Worker_log(w, LOG_ERROR, "nothing exported: %s", w->server[0] ? "the explorer measures on a class server; "
                                                                      "export on the machine with the device (gemmtop export-kernel)"
                                                                    : "no device is open");
      return;
   }
   if (cfg.ablate) {
      Worker_log(w, LOG_ERROR, "nothing exported: this configuration is ablated (a: back to none)");
      return;
   }
   char dir[PATH_MAX], cwd[PATH_MAX], err[1536];
   if (!freeFolder(k->name, dir, sizeof dir)) {
      Worker_log(w, LOG_ERROR, "nothing exported: %s-export and 98 more folders exist here", k->name);
      return;
   }
   ExportTarget t = {.be = Session_backend(w->session), .dev = Session_device(w->session), .cat = &w->cat};
   ExportFiles files;
   ExportStatus st = Export_kernel(&t, k, cfg.values, &cfg.problem, dir, &files, err, sizeof err);
   if (st != EXPORT_OK) {
      Worker_log(w, LOG_ERROR, "%s not exported: %s", k->name, err);
      return;
   }
   const char *where = getcwd(cwd, sizeof cwd) ? cwd : ".";
   Worker_log(w, LOG_GOOD, "exported %s to %s/%s: make -C %s run builds, runs and verifies it (needs %s)", k->name,
              where, dir, dir, files.needs);
}
