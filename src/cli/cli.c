#include "cli/cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/npy.h"
#include "core/diskcache.h"
#include "core/rng.h"
#include "core/util.h"
#include "core/peaks.h"
#include "cli/report.h"

bool Cli_loadCatalog(Catalog *cat) {
   char dir[1024], err[1024];
   if (!Catalog_defaultDir(dir, sizeof dir)) {
      fprintf(stderr, "gemmtop: cannot find the kernels folder (looked next to the program and in %s); set GEMMTOP_KERNELS\n",
              dir);
      return false;
   }
   if (!Catalog_load(cat, dir, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return false;
   }
   if (cat->warnings[0])
      fprintf(stderr, "gemmtop: some kernel files were skipped:\n%s", cat->warnings);
   return true;
}

static const Backend *pickBackend(const Options *o) {
   const Backend *b = o->backend ? Backend_byName(o->backend) : Backend_at(0);
   if (!b) {
      char names[128];
      Backend_names(names, sizeof names);
      fprintf(stderr, "gemmtop: unknown backend '%s'; available: %s\n", o->backend, names);
   }
   return b;
}

int Cli_pickDevice(const DeviceInfo *devs, int count, const char *want, char *err, size_t errlen) {
   return Device_pick(devs, count, want, err, errlen);
}

static bool hasGpu(const DeviceInfo *devs, int n) {
   for (int i = 0; i < n; i++)
      if (devs[i].type == DEVICE_GPU)
         return true;
   return false;
}

const Backend *Cli_defaultBackend(DeviceInfo **devs, int *count, char *err, size_t errlen) {
   const Backend *first = Backend_at(0);
   *devs = NULL;
   *count = 0;
   err[0] = '\0';
   for (int i = 0; i < Backend_count(); i++) {
      const Backend *be = Backend_at(i);
      DeviceInfo *found = NULL;
      char why[512] = "";
      int n = be->findDevices(&found, why, sizeof why);
      if (n > 0 && hasGpu(found, n)) {
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

Session *Cli_openSession(const Options *o, const Catalog *cat, int *exit_code) {
   const Backend *be = pickBackend(o);
   *exit_code = 2;
   if (!be)
      return NULL;
   DeviceInfo *devs = NULL;
   char err[1536];
   int n = Backend_listDevices(be, &devs, err, sizeof err);
   if (n <= 0) {
      fprintf(stderr, "gemmtop: %s\n", err);
      *exit_code = 1;
      return NULL;
   }
   int idx = Cli_pickDevice(devs, n, o->device, err, sizeof err);
   free(devs);
   if (idx < 0) {
      fprintf(stderr, "gemmtop: %s backend: %s\n", be->title, err);
      return NULL;
   }
   Session *s = Session_open(be, idx, cat, err, sizeof err);
   if (!s) {
      fprintf(stderr, "gemmtop: cannot open device %d: %s\n", idx, err);
      *exit_code = 1;
   }
   return s;
}

int Cli_resolveConfig(const Options *o, const Catalog *cat, const KernelInfo **kernel, long long *values,
                      Problem *problem) {
   Preset preset;
   bool has_preset = false;
   char err[1536];
   if (o->preset) {
      if (strchr(o->preset, '/') || strstr(o->preset, ".preset")) {
         if (!Preset_load(o->preset, &preset, err, sizeof err)) {
            fprintf(stderr, "gemmtop: %s\n", err);
            return 2;
         }
      } else {
         char dir[1024];
         PresetList list;
         Preset_defaultDir(cat->dir, dir, sizeof dir);
         PresetList_load(&list, dir, err, sizeof err);
         const Preset *p = PresetList_find(&list, o->preset);
         if (p)
            preset = *p;
         PresetList_free(&list);
         if (!p) {
            fprintf(stderr, "gemmtop: no preset named '%s'; see 'gemmtop list presets'\n", o->preset);
            return 2;
         }
      }
      has_preset = true;
   }
   const char *name = o->kernel ? o->kernel : has_preset ? preset.kernel : NULL;
   if (!name) {
      fprintf(stderr, "gemmtop: which kernel? give --kernel NAME or --preset NAME; see 'gemmtop list kernels'\n");
      return 2;
   }
   const KernelInfo *k = Catalog_find(cat, name);
   if (!k) {
      bool by_preset = has_preset && !o->kernel;
      fprintf(stderr, "gemmtop: no kernel named '%s'%s%s%s; see 'gemmtop list kernels'\n", name,
              by_preset ? " (named by preset " : "", by_preset ? preset.path : "", by_preset ? ")" : "");
      return 2;
   }
   KernelInfo_defaults(k, values);
   Problem p = o->problem;
   Problem_setDefaults(&p);
   if (has_preset && !Preset_apply(&preset, k, values, &p, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 2;
   }
   /* Explicit options override the preset. */
   if (o->has_m) p.m = o->problem.m;
   if (o->has_n) p.n = o->problem.n;
   if (o->has_k) p.k = o->problem.k;
   if (o->has_precision) p.precision = o->problem.precision;
   if (o->has_layout) p.trans_a = o->problem.trans_a, p.trans_b = o->problem.trans_b;
   if (o->has_alpha) p.alpha = o->problem.alpha;
   if (o->has_beta) p.beta = o->problem.beta;
   for (int i = 0; i < o->nsets; i++)
      if (!Config_setParam(k, values, o->sets[i], err, sizeof err)) {
         fprintf(stderr, "gemmtop: %s\n", err);
         return 2;
      }
   *kernel = k;
   *problem = p;
   return 0;
}

/* ---- list ---- */

/* One backend's part of 'list devices': its devices, or what it found instead. */
typedef struct BackendDevices_ {
   const Backend *be;
   DeviceInfo *devs;
   int n;
   int best;    /* the default device, -1 when it is on another backend */
   Peaks *peaks;
   char why[1536];
} BackendDevices;

/* Each device's peaks: measured now with --measure, else as measured before. */
static int devicePeaks(const Options *o, BackendDevices *bd, int nb) {
   Catalog cat;
   bool haveCatalog = o->measure && Cli_loadCatalog(&cat);
   int rc = o->measure && !haveCatalog ? 1 : 0;
   for (int b = 0; b < nb; b++) {
      bd[b].peaks = bd[b].n > 0 ? calloc((size_t)bd[b].n, sizeof *bd[b].peaks) : NULL;
      for (int i = 0; bd[b].peaks && i < bd[b].n; i++) {
         if (!haveCatalog) {
            Peaks_cached(&bd[b].devs[i], bd[b].be->name, &bd[b].peaks[i]);
            continue;
         }
         if (o->format == FORMAT_TABLE)
            fprintf(stderr, "measuring %s device %d (%s)...\n", bd[b].be->name, i, bd[b].devs[i].name);
         char err[1024];
         Session *s = Session_open(bd[b].be, i, &cat, err, sizeof err);
         if (!s || !Peaks_measure(s, &cat, &bd[b].peaks[i], err, sizeof err)) {
            fprintf(stderr, "gemmtop: %s device %d: cannot measure its peaks: %s\n", bd[b].be->name, i, err);
            rc = 1;
         } else if (bd[b].peaks[i].tensor_error[0]) {
            fprintf(stderr, "gemmtop: %s device %d: cannot measure its tensor-core peaks: %s\n", bd[b].be->name, i,
                    bd[b].peaks[i].tensor_error);
         }
         Session_close(s);
      }
   }
   if (haveCatalog)
      Catalog_free(&cat);
   return rc;
}

/* With --backend, that backend alone (none found: exit 1, as every command says); else
 * every backend, and the default device marked where the explorer would start: the first
 * backend with a GPU, else the first backend (Cli_defaultBackend). */
static int listDevices(const Options *o) {
   const Backend *only = o->backend ? pickBackend(o) : NULL;
   if (o->backend && !only)
      return 2;
   int nb = only ? 1 : Backend_count();
   BackendDevices *bd = calloc((size_t)nb, sizeof *bd);
   if (!bd) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      return 1;
   }
   int total = 0, fallback = -1, chosen = -1;
   for (int b = 0; b < nb; b++) {
      bd[b].be = only ? only : Backend_at(b);
      bd[b].best = -1;
      bd[b].n = only ? Backend_listDevices(only, &bd[b].devs, bd[b].why, sizeof bd[b].why)
                     : bd[b].be->findDevices(&bd[b].devs, bd[b].why, sizeof bd[b].why);
      bd[b].n = bd[b].n > 0 ? bd[b].n : 0;
      total += bd[b].n;
      if (chosen < 0 && hasGpu(bd[b].devs, bd[b].n))
         chosen = b;
      if (b == 0 && bd[b].n > 0)
         fallback = b;
   }
   if (chosen < 0)
      chosen = fallback;
   int rc = 0;
   if (total == 0) {
      if (only)
         fprintf(stderr, "gemmtop: %s\n", bd[0].why);
      else
         fprintf(stderr, "gemmtop: no device on any backend:\n");
      for (int b = 0; !only && b < nb; b++)
         fprintf(stderr, "   %s: %s\n", bd[b].be->title, bd[b].why[0] ? bd[b].why : "no device");
      rc = 1;
   } else {
      char pick[256];
      bd[chosen].best = Cli_pickDevice(bd[chosen].devs, bd[chosen].n, NULL, pick, sizeof pick);
      rc = devicePeaks(o, bd, nb);
      Report_devicesHeader(stdout, o->format);
      for (int b = 0; b < nb; b++) {
         if (o->format == FORMAT_TABLE && b > 0)
            putchar('\n');
         if (bd[b].n > 0 || o->format == FORMAT_TABLE)
            Report_backendDevices(stdout, o->format, bd[b].be, bd[b].devs, bd[b].n, bd[b].best, bd[b].peaks,
                                  bd[b].why);
         else /* JSON and CSV lines are devices: what a backend found instead goes beside */
            fprintf(stderr, "gemmtop: %s: %s\n", bd[b].be->title, bd[b].why[0] ? bd[b].why : "no device");
      }
   }
   for (int b = 0; b < nb; b++) {
      free(bd[b].devs);
      free(bd[b].peaks);
   }
   free(bd);
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
   if (in.note[0])
      fprintf(stderr, "gemmtop: %s\n", in.note);
   RunOptions ro = {.reps = o->reps, .warmup = o->warmup, .verify = !o->no_verify, .max_seconds = o->max_seconds,
                    .ablate = o->ablate};
   RunStatus st = Session_run(s, k, values, &p, &in, &ro, r);
   Peaks peaks;
   Peaks_cached(Session_device(s), Session_backend(s)->name, &peaks);
   VendorResult vendor;
   /* An ablated run is not compared with the vendor library: it is not a GEMM; nor is an
    * emulated one: its times are not the tensor cores'. */
   bool with_vendor = o->vendor && !o->ablate && !r->geo.emulated && (st == RUN_OK || st == RUN_NOT_VERIFIED);
   if (o->vendor && o->ablate)
      fprintf(stderr, "gemmtop: --vendor ignored: an ablated run is not compared with the vendor BLAS\n");
   else if (o->vendor && r->geo.emulated)
      fprintf(stderr, "gemmtop: --vendor ignored: an emulated tensor kernel is not compared with the vendor BLAS\n");
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
