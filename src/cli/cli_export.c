/* gemmtop export-kernel: the configuration that --preset, --kernel and --set select, on
 * the problem the options give, written as a standalone OpenCL kernel, a C launcher that
 * builds, runs, times and verifies it, and a Makefile (core/export.h). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "base/util.h"
#include "core/export.h"

int Cli_exportKernel(const Options *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   Session *s = rc ? NULL : Cli_openSession(o, &cat, &rc);
   if (!s) {
      Catalog_free(&cat);
      return rc;
   }
   char dir[1024], err[1536];
   if (o->output.dir && !Util_copyWhole(dir, sizeof dir, o->output.dir)) {
      fprintf(stderr, "gemmtop: --dir is %zu characters long; at most %zu\n", strlen(o->output.dir), sizeof dir - 1);
      Session_close(s);
      Catalog_free(&cat);
      return 2;
   }
   if (!o->output.dir)
      snprintf(dir, sizeof dir, "%s-export", k->name);
   ExportFiles files;
   ExportStatus st = Export_kernel(s, k, values, &p, dir, &files, err, sizeof err);
   rc = st == EXPORT_OK ? 0 : st == EXPORT_REFUSED ? 2 : 1;
   if (st == EXPORT_OK) {
      printf("wrote %s\n      %s\n      %s\n", files.kernel, files.launcher, files.makefile);
      printf("build and run: %s   (needs a C compiler and the OpenCL ICD loader's headers)\n", files.build);
   } else {
      fprintf(stderr, "gemmtop: export-kernel: %s\n", err);
   }
   Session_close(s);
   Catalog_free(&cat);
   return rc;
}
