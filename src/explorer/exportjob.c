/* The explorer's K: the configuration on screen exported as export-kernel does it (a
 * standalone kernel for the device's backend, a launcher that verifies it, a Makefile),
 * into the first free KERNEL-export folder of the current one. What happened goes to the
 * log. */
#include "explorer/exportjob.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "base/outfile.h"
#include "core/teach/export.h"
#include "explorer/worker_int.h"

/* export_cfg written as export-kernel writes it, into a new folder here; the log says
 * where, or why not. */
static void exportKernel(Worker *w) {
   w->export_job.req = false;
   WorkerConfig cfg = w->export_job.cfg;
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
   /* a folder that does not exist yet: no file of an earlier export is in the way */
   char stem[PATH_MAX], dir[PATH_MAX], cwd[PATH_MAX], err[1536];
   static const char *const folder[] = {""};
   snprintf(stem, sizeof stem, "%s-export", k->name);
   if (!OutFile_freeName(stem, folder, 1, dir, sizeof dir)) {
      Worker_log(w, LOG_ERROR, "nothing exported: %s to %s-999 all exist here", stem, stem);
      return;
   }
   /* the files are written without the mailbox's lock (the catalog and the session are
    * this thread's own): the screen does not wait for the disk */
   ExportTarget t = {.be = Session_backend(w->session), .dev = Session_device(w->session), .cat = &w->cat};
   ExportFiles files;
   pthread_mutex_unlock(&w->mu);
   ExportStatus st = Export_kernel(&t, k, cfg.values, &cfg.problem, dir, &files, err, sizeof err);
   const char *where = getcwd(cwd, sizeof cwd) ? cwd : ".";
   pthread_mutex_lock(&w->mu);
   if (st != EXPORT_OK)
      Worker_log(w, LOG_ERROR, "%s not exported: %s", k->name, err);
   else
      Worker_log(w, LOG_GOOD, "exported %s to %s/%s: make -C %s run builds, runs and verifies it (needs %s)%s%s%s",
                 k->name, where, dir, dir, files.needs, files.torch_script[0] ? "; in PyTorch: python3 " : "",
                 files.torch_script[0] ? files.torch_script : "", files.torch_script[0] ? " (torch.utils.cpp_extension)" : "");
}

static bool exportAsked(const Worker *w) { return w->export_job.req; }

const WorkerJob ExportJob_entry = {"export the kernel", exportAsked, exportKernel};
