/* gemmtop export-kernel: the configuration that --preset, --kernel and --set select, on
 * the problem the options give, written as a standalone kernel for its backend (OpenCL C,
 * or CUDA C++ for nvcc), a launcher that builds, runs, times and verifies it, and a
 * Makefile (core/teach/export.h). With --arch, for an architecture without its device. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "base/util.h"
#include "core/teach/export.h"

/* The export's target: the device the options open (*s), or --arch's description. */
static int openTarget(const CommandArgs *o, const Catalog *cat, ExportTarget *t, DeviceInfo *offline, Session **s) {
   *s = NULL;
   t->cat = cat;
   t->arch = NULL;
   if (o->inspect->arch) {
      t->be = Cli_offlineBackend(o);
      if (!t->be)
         return 2;
      t->be->offline->device(o->inspect->arch, offline);
      if (o->inspect->compute_units)
         offline->compute_units = offline->limits.compute_units = (unsigned)o->inspect->compute_units;
      t->dev = offline;
      t->arch = o->inspect->arch;
      return 0;
   }
   int rc;
   if (!(*s = Cli_openSession(o, cat, &rc)))
      return rc;
   t->be = Session_backend(*s);
   t->dev = Session_device(*s);
   return 0;
}

static int execExportKernel(const CommandArgs *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   ExportTarget target;
   DeviceInfo offline;
   Session *s = NULL;
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   if (!rc && !Cli_computeUnitsFit(o, "an export"))
      rc = 2;
   if (!rc)
      rc = openTarget(o, &cat, &target, &offline, &s);
   if (rc) {
      Catalog_free(&cat);
      return rc;
   }
   char dir[1024], err[1536];
   if (o->output->dir && !Util_copyWhole(dir, sizeof dir, o->output->dir)) {
      fprintf(stderr, "gemmtop: --dir is %zu characters long; at most %zu\n", strlen(o->output->dir), sizeof dir - 1);
      Session_close(s);
      Catalog_free(&cat);
      return 2;
   }
   if (!o->output->dir)
      snprintf(dir, sizeof dir, "%s-export", k->name);
   ExportFiles files;
   ExportStatus st = Export_kernel(&target, k, values, &p, dir, &files, err, sizeof err);
   rc = st == EXPORT_OK ? 0 : st == EXPORT_REFUSED ? 2 : 1;
   if (st == EXPORT_OK) {
      printf("wrote %s\n      %s\n      %s\n", files.kernel, files.launcher, files.makefile);
      if (files.torch_script[0])
         printf("      %s\n      %s\n      %s\n", files.torch_entry, files.torch_binding, files.torch_script);
      printf("build and run: %s   (needs %s)\n", files.build, files.needs);
      if (files.torch_script[0])
         printf("in PyTorch:    python3 %s   (torch.utils.cpp_extension builds it; the script checks it and times "
                "it beside torch.matmul)\n",
                files.torch_script);
   } else {
      fprintf(stderr, "gemmtop: export-kernel: %s\n", err);
   }
   if (s)
      Session_close(s);
   Catalog_free(&cat);
   return rc;
}

const CommandEntry Cli_exportCommand = {
    .name = "export-kernel",
    .groups = GROUPS_CONFIGURED | IN_GROUP(INSPECT),
    .words = "",
    .summary = "the configuration as a standalone kernel (OpenCL C or CUDA C++) and a launcher that verifies it",
    .max_positional = 0,
    .exec = execExportKernel,
};
