#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/npy.h"
#include "core/diskcache.h"
#include "core/rng.h"
#include "core/util.h"
#include "core/peaks.h"
#include "cli/report.h"

Selection Cli_selection(const Options *o) {
   Selection sel = {.backend = o->backend, .device = o->device, .kernel = o->kernel, .preset = o->preset,
                    .sets = o->sets, .nsets = o->nsets, .problem = o->problem, .has_m = o->has_m, .has_n = o->has_n,
                    .has_k = o->has_k, .has_precision = o->has_precision, .has_layout = o->has_layout,
                    .has_alpha = o->has_alpha, .has_beta = o->has_beta};
   return sel;
}

bool Cli_loadCatalog(Catalog *cat) {
   char err[1024];
   if (!Select_loadCatalog(cat, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return false;
   }
   if (cat->warnings[0])
      fprintf(stderr, "gemmtop: some kernel files were skipped:\n%s", cat->warnings);
   return true;
}

Session *Cli_openSession(const Options *o, const Catalog *cat, int *exit_code) {
   Selection sel = Cli_selection(o);
   char err[1536];
   Session *s = Select_openSession(&sel, cat, exit_code, err, sizeof err);
   if (!s)
      fprintf(stderr, "gemmtop: %s\n", err);
   return s;
}

int Cli_resolveConfig(const Options *o, const Catalog *cat, const KernelInfo **kernel, long long *values,
                      Problem *problem) {
   Selection sel = Cli_selection(o);
   Resolved r;
   char err[1536];
   if (!Select_resolve(&sel, cat, &r, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 2;
   }
   *kernel = r.kernel;
   memcpy(values, r.values, sizeof r.values);
   *problem = r.problem;
   return 0;
}

/* ---- list ---- */

static int listDevices(const Options *o) {
   char err[1024];
   const Backend *be = Select_backend(o->backend, err, sizeof err);
   if (!be) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 2;
   }
   DeviceInfo *devs = NULL;
   int n = be->listDevices(&devs, err, sizeof err);
   if (n <= 0) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 1;
   }
   char pick[256];
   int best = Select_device(devs, n, NULL, pick, sizeof pick);
   Peaks *peaks = calloc((size_t)n, sizeof *peaks);
   int rc = 0;
   Catalog cat;
   bool haveCatalog = o->measure && Cli_loadCatalog(&cat);
   if (o->measure && !haveCatalog)
      rc = 1;
   for (int i = 0; peaks && i < n; i++) {
      if (!haveCatalog) {
         Peaks_cached(&devs[i], be->name, &peaks[i]);
         continue;
      }
      if (o->format == FORMAT_TABLE)
         fprintf(stderr, "measuring device %d (%s)...\n", i, devs[i].name);
      Session *s = Session_open(be, i, &cat, err, sizeof err);
      if (!s || !Peaks_measure(s, &cat, &peaks[i], err, sizeof err)) {
         fprintf(stderr, "gemmtop: device %d: cannot measure its peaks: %s\n", i, err);
         rc = 1;
      }
      Session_close(s);
   }
   Report_devices(stdout, o->format, be->name, devs, n, best, peaks);
   if (haveCatalog)
      Catalog_free(&cat);
   free(peaks);
   free(devs);
   return rc;
}

static int listKernels(const Options *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   Report_kernels(stdout, o->format, &cat);
   Catalog_free(&cat);
   return 0;
}

static int listPresets(const Options *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   char dir[1024], err[256];
   Preset_defaultDir(cat.dir, dir, sizeof dir);
   PresetList list;
   PresetList_load(&list, dir, err, sizeof err);
   if (list.warnings[0])
      fprintf(stderr, "gemmtop: some presets could not be read:\n%s", list.warnings);
   Report_presets(stdout, o->format, &list);
   PresetList_free(&list);
   Catalog_free(&cat);
   return 0;
}

int Cli_list(const Options *o) {
   const char *what = o->npositional > 0 ? o->positional[0] : "kernels";
   if (!strcmp(what, "devices"))
      return listDevices(o);
   if (!strcmp(what, "kernels"))
      return listKernels(o);
   if (!strcmp(what, "presets"))
      return listPresets(o);
   fprintf(stderr, "gemmtop: list what? '%s' is not devices, kernels or presets\n", what);
   return 2;
}

/* ---- run ---- */

int Cli_run(const Options *o) {
   if (o->npositional > 0) {
      fprintf(stderr, "gemmtop: run takes no argument '%s'; see 'gemmtop --help'\n", o->positional[0]);
      return 2;
   }
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   if (rc) {
      Catalog_free(&cat);
      return rc;
   }
   int exit_code;
   Session *s = Cli_openSession(o, &cat, &exit_code);
   if (!s) {
      Catalog_free(&cat);
      return exit_code;
   }
   Inputs in;
   uint64_t seed = o->has_seed ? o->seed : Rng_freshSeed();
   char err[1024];
   /* Refuse a bad configuration before making inputs: at large sizes that takes a while. */
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
      goto done_session;
   }
   if (!Config_check(k, values, &p, &Session_device(s)->limits, NULL, r->message, sizeof r->message)) {
      r->status = RUN_INVALID;
      RunOptions none = {.warmup = o->warmup};
      Report_run(stdout, o->format, Session_backend(s)->name, Session_device(s), k, values, &p, seed, &none, r, NULL, NULL);
      fprintf(stderr, "gemmtop: refused: %s\n", r->message);
      rc = 2;
      free(r);
      goto done_session;
   }
   if (!Session_fits(s, &p, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      rc = 1;
      free(r);
      goto done_session;
   }
   rc = 1;
   if (!Inputs_random(&in, &p, seed)) {
      fprintf(stderr, "gemmtop: out of host memory for a %dx%dx%d problem\n", p.m, p.n, p.k);
      free(r);
      goto done_session;
   }
   if ((o->a_path || o->b_path || o->c_path) && !Inputs_loadNpy(&in, &p, o->a_path, o->b_path, o->c_path, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      rc = 2;
      free(r);
      goto done_inputs;
   }
   RunOptions ro = {.reps = o->reps, .warmup = o->warmup, .verify = !o->no_verify, .max_seconds = o->max_seconds,
                    .ablate = o->ablate};
   RunStatus st = Session_run(s, k, values, &p, &in, &ro, r);
   Peaks peaks;
   Peaks_cached(Session_device(s), Session_backend(s)->name, &peaks);
   VendorResult vendor;
   /* An ablated run is not compared with the vendor library: it is not a GEMM. */
   bool with_vendor = o->vendor && !o->ablate && (st == RUN_OK || st == RUN_NOT_VERIFIED);
   if (o->vendor && o->ablate)
      fprintf(stderr, "gemmtop: --vendor ignored: an ablated run is not compared with the vendor BLAS\n");
   if (with_vendor)
      Session_vendor(s, &p, &in, &(RunOptions){.reps = o->reps, .warmup = o->warmup, .verify = true}, &vendor);
   Report_run(stdout, o->format, Session_backend(s)->name, Session_device(s), k, values, &p, seed, &ro, r, &peaks,
              with_vendor ? &vendor : NULL);
   if (st == RUN_INVALID)
      fprintf(stderr, "gemmtop: refused: %s\n", r->message);
   else if (st == RUN_COMPILE_ERROR)
      fprintf(stderr, "gemmtop: %s\n%s\n", r->message, r->build_log ? r->build_log : "(no build log)");
   else if (st != RUN_OK)
      fprintf(stderr, "gemmtop: %s: %s\n", RunStatus_name(st), r->message);
   rc = RunStatus_exitCode(st);
   if (o->out_path && (st == RUN_OK || st == RUN_NOT_VERIFIED)) {
      size_t bytes = Problem_sizeC(&p) * Precision_size(p.precision);
      void *host = malloc(bytes);
      if (!host || !Session_readResult(s, host, bytes, err, sizeof err) ||
          !Npy_write(o->out_path, host, (size_t)p.m, (size_t)p.n, p.precision == PRECISION_DOUBLE, err, sizeof err)) {
         fprintf(stderr, "gemmtop: --out %s: %s\n", o->out_path, host ? err : "out of host memory");
         rc = 1;
      }
      free(host);
   }
   RunResult_free(r);
   free(r);
done_inputs:
   Inputs_free(&in);
done_session:
   Session_close(s);
   Catalog_free(&cat);
   return rc;
}

/* ---- cache ---- */

int Cli_cache(const Options *o) {
   const char *what = o->npositional > 0 ? o->positional[0] : "";
   if (strcmp(what, "clear") != 0) {
      fprintf(stderr, "gemmtop: cache takes 'clear'\n");
      return 2;
   }
   char dir[1024];
   int n = DiskCache_clear(dir, sizeof dir);
   if (n < 0) {
      fprintf(stderr, "gemmtop: cannot find the cache folder (no HOME or XDG_CACHE_HOME)\n");
      return 1;
   }
   printf("removed %d compiled program%s from %s\n", n, n == 1 ? "" : "s", dir);
   return 0;
}
