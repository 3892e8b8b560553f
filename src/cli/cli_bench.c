/* gemmtop bench: chosen configurations and the vendor BLAS, in one process, on the same
 * device and inputs, across square sizes; a table of GFLOPS and % of vendor per size.
 *   gemmtop bench [--preset P | --kernel K --set ...] [PRESET ...] [--sizes 1024,2048]
 * With no configuration, every shipped preset (the ladder) is benchmarked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report.h"
#include "core/rng.h"
#include "core/util.h"

#define BENCH_MAX_CONFIGS 64
#define BENCH_MAX_SIZES 16
#define BENCH_MAX_ROUNDS 32

typedef struct BenchConfig_ {
   char label[64];
   const KernelInfo *kernel;
   long long values[KERNEL_MAX_PARAMS];
   Problem problem;      /* precision, layout, alpha, beta; sizes come from --sizes */
} BenchConfig;

typedef struct BenchCell_ {
   RunStatus status;
   bool emulated;        /* tensor instructions emulated: its GFLOPS are not compared with the vendor's */
   double gflops, ms;
   char message[256];
} BenchCell;

static int parseSizes(const char *text, int *sizes) {
   int n = 0;
   char buf[256];
   snprintf(buf, sizeof buf, "%s", text ? text : "1024,2048,4096");
   char *save = NULL;
   for (char *tok = strtok_r(buf, ",", &save); tok && n < BENCH_MAX_SIZES; tok = strtok_r(NULL, ",", &save)) {
      char *end;
      long v = strtol(tok, &end, 10);
      if (end == tok || *end || v < 1 || v > 65536)
         return -1;
      sizes[n++] = (int)v;
   }
   return n;
}

static bool addPreset(const Options *o, const Catalog *cat, const Preset *pr, BenchConfig *c) {
   const KernelInfo *k = Catalog_find(cat, pr->kernel);
   char err[1024];
   if (!k) {
      fprintf(stderr, "gemmtop: preset %s names kernel %s, which is not in the catalog\n", pr->name, pr->kernel);
      return false;
   }
   KernelInfo_defaults(k, c->values);
   Problem_setDefaults(&c->problem);
   if (!Preset_apply(pr, k, c->values, &c->problem, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return false;
   }
   if (o->has_precision)
      c->problem.precision = o->problem.precision;
   if (o->has_layout)
      c->problem.trans_a = o->problem.trans_a, c->problem.trans_b = o->problem.trans_b;
   if (o->has_alpha)
      c->problem.alpha = o->problem.alpha;
   if (o->has_beta)
      c->problem.beta = o->problem.beta;
   if (Cli_checkScalars(o, &c->problem, true) != 0)
      return false;
   c->kernel = k;
   snprintf(c->label, sizeof c->label, "%s", pr->name);
   return true;
}

/* One round of a vendor library: its figures go to gflops[round]; the first round's result
 * (name, verification) is kept, a failure in any round is the result. Verified in the
 * first round only, as the configurations are. */
static void benchVendor(Session *s, const Problem *p, const Inputs *in, const Options *o, int round, VendorResult *v,
                        double *gflops) {
   if (round > 0 && v->status != RUN_OK)
      return;
   VendorResult now;
   RunOptions ro = {.reps = o->reps, .warmup = o->warmup, .verify = round == 0};
   Session_vendor(s, p, in, &ro, round == 0 ? v : &now);
   const VendorResult *got = round == 0 ? v : &now;
   gflops[round] = got->gflops;
   if (round > 0 && now.status != RUN_OK)
      *v = now;
}

int Cli_bench(const Options *o) {
   int sizes[BENCH_MAX_SIZES];
   int nsizes = parseSizes(o->sizes, sizes);
   if (nsizes <= 0) {
      fprintf(stderr, "gemmtop: --sizes '%s': comma-separated sizes, e.g. 1024,2048,4096\n", o->sizes);
      return 2;
   }
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   static BenchConfig configs[BENCH_MAX_CONFIGS];
   int nconf = 0, rc = 0;
   char dir[1024], err[1536];
   PresetList list;
   Preset_defaultDir(cat.dir, dir, sizeof dir);
   PresetList_load(&list, dir, err, sizeof err);
   if (o->kernel || o->preset) {
      BenchConfig *c = &configs[nconf];
      rc = Cli_resolveConfig(o, &cat, &c->kernel, c->values, &c->problem);
      if (rc == 0) {
         char params[200];
         KernelInfo_formatParams(c->kernel, c->values, params, sizeof params);
         snprintf(c->label, sizeof c->label, "%s", o->preset ? o->preset : c->kernel->name);
         nconf++;
      }
   }
   for (int i = 0; rc == 0 && i < o->npositional && nconf < BENCH_MAX_CONFIGS; i++) {
      const Preset *pr = PresetList_find(&list, o->positional[i]);
      if (!pr) {
         fprintf(stderr, "gemmtop: no preset named '%s'; see 'gemmtop list presets'\n", o->positional[i]);
         rc = 2;
      } else if (addPreset(o, &cat, pr, &configs[nconf])) {
         nconf++;
      } else {
         rc = 2;
      }
   }
   if (rc == 0 && nconf == 0)
      for (int i = 0; i < list.count && nconf < BENCH_MAX_CONFIGS; i++)
         if (!list.items[i].user && addPreset(o, &cat, &list.items[i], &configs[nconf]))
            nconf++;
   PresetList_free(&list);
   if (rc || nconf == 0) {
      if (!rc)
         fprintf(stderr, "gemmtop: nothing to benchmark: give --kernel, --preset or preset names\n");
      Catalog_free(&cat);
      return rc ? rc : 2;
   }
   OutFile *saveFile = NULL;
   int open_rc = Cli_openOutput("--save", o->save, OUTFILE_STREAM_OK, &saveFile);
   Session *s = open_rc ? NULL : Cli_openSession(o, &cat, &open_rc);
   if (!s) {
      OutFile_discard(saveFile);
      Catalog_free(&cat);
      return open_rc;
   }
   const Backend *be = Session_backend(s);
   const DeviceInfo *dev = Session_device(s);
   static BenchCell cells[BENCH_MAX_CONFIGS][BENCH_MAX_SIZES];
   static VendorResult vendor[BENCH_MAX_SIZES], reference[BENCH_MAX_SIZES];
   /* --reference: a second session, another runtime on the same device (by name), whose
    * vendor library becomes the yardstick: cuBLAS beside NVIDIA's OpenCL. Absent: reported. */
   Session *ref = NULL;
   char ref_why[512] = "";
   if (o->reference) {
      if (Backend_byName(o->reference) == be) {
         snprintf(ref_why, sizeof ref_why, "the reference backend is the one being measured (%s)", be->name);
      } else {
         Options ro2 = *o;
         ro2.backend = o->reference;
         ro2.device = dev->name;
         int ref_rc;
         fflush(stderr);
         ref = Cli_openSession(&ro2, &cat, &ref_rc);
         if (!ref)
            snprintf(ref_why, sizeof ref_why, "no %s device named '%s' (see the message above)", o->reference,
                     dev->name);
      }
      if (!ref)
         fprintf(stderr, "gemmtop: --reference %s: %s; percentages are of %s's own vendor library\n", o->reference,
                 ref_why, be->name);
   }
   RunResult *r = calloc(1, sizeof *r);
   FILE *save = saveFile ? OutFile_stream(saveFile) : NULL;
   bool json = o->save && strlen(o->save) > 5 && !strcmp(o->save + strlen(o->save) - 5, ".json");
   if (save && !json)
      fprintf(save, "config,kernel,params,device,size,precision,status,verified,gflops,time_ms,vendor,vendor_gflops,"
                    "pct_of_vendor,reference,reference_gflops,pct_of_reference,rounds\n");
   const int rounds = o->rounds;
   for (int si = 0; r && si < nsizes; si++) {
      /* Precision and scalars of the first configuration decide the vendor's problem. */
      Problem vp = configs[0].problem;
      vp.m = vp.n = vp.k = sizes[si];
      Inputs in;
      uint64_t seed = o->has_seed ? o->seed : Rng_freshSeed();
      if (!Session_fits(s, &vp, err, sizeof err) || !Inputs_random(&in, &vp, seed)) {
         fprintf(stderr, "gemmtop: size %d: %s\n", sizes[si], err);
         for (int c = 0; c < nconf; c++)
            cells[c][si].status = RUN_OUT_OF_MEMORY;
         vendor[si].status = RUN_OUT_OF_MEMORY;
         continue;
      }
      /* Rounds: the libraries and the configurations take turns (the libraries first in
       * even rounds, last in odd ones), so that a clock or temperature drift during the
       * run favours neither side; each figure is the median of its rounds' medians. */
      double vg[BENCH_MAX_ROUNDS], rg[BENCH_MAX_ROUNDS];
      static double cg[BENCH_MAX_CONFIGS][BENCH_MAX_ROUNDS], cms[BENCH_MAX_CONFIGS][BENCH_MAX_ROUNDS];
      reference[si].status = RUN_DEVICE_ERROR;
      for (int round = 0; round < rounds; round++) {
         for (int turn = 0; turn < 2; turn++) {
            if (turn == round % 2) {
               fprintf(stderr, "size %d, round %d of %d: vendor...\n", sizes[si], round + 1, rounds);
               benchVendor(s, &vp, &in, o, round, &vendor[si], vg);
               if (ref) {
                  fprintf(stderr, "size %d, round %d of %d: reference (%s)...\n", sizes[si], round + 1, rounds,
                          o->reference);
                  benchVendor(ref, &vp, &in, o, round, &reference[si], rg);
               }
               continue;
            }
            for (int c = 0; c < nconf; c++) {
               BenchCell *cell = &cells[c][si];
               if (round > 0 && cell->status != RUN_OK)
                  continue; /* failed or invalid in an earlier round: said once */
               Problem p = configs[c].problem;
               p.m = p.n = p.k = sizes[si];
               Inputs own;
               const Inputs *use = &in;
               if (!Inputs_fit(&in, &p)) {
                  if (!Inputs_random(&own, &p, seed)) {
                     cell->status = RUN_OUT_OF_MEMORY;
                     continue;
                  }
                  use = &own;
               }
               fprintf(stderr, "size %d, round %d of %d: %s...\n", sizes[si], round + 1, rounds, configs[c].label);
               /* Verified in the first round; later rounds time the same program. */
               RunOptions ro = {.reps = o->reps, .warmup = o->warmup, .verify = round == 0,
                                .max_seconds = o->max_seconds, .launch_timeout_s = o->max_seconds};
               RunStatus st = Session_run(s, configs[c].kernel, configs[c].values, &p, use, &ro, r);
               cell->emulated = r->geo.emulated;
               if (round == 0 || st != RUN_OK) {
                  cell->status = st;
                  snprintf(cell->message, sizeof cell->message, "%s", r->message);
               }
               cg[c][round] = r->gflops;
               cms[c][round] = r->median_ms;
               if (use != &in)
                  Inputs_free(&own);
            }
         }
      }
      if (vendor[si].status == RUN_OK)
         vendor[si].gflops = Util_median(vg, rounds);
      if (ref && reference[si].status == RUN_OK)
         reference[si].gflops = Util_median(rg, rounds);
      for (int c = 0; c < nconf; c++) {
         BenchCell *cell = &cells[c][si];
         Problem p = configs[c].problem;
         if (cell->status == RUN_OK) {
            cell->gflops = Util_median(cg[c], rounds);
            cell->ms = Util_median(cms[c], rounds);
         }
         if (save) {
            char params[300];
            KernelInfo_formatParams(configs[c].kernel, configs[c].values, params, sizeof params);
            bool comparable = cell->status == RUN_OK && !cell->emulated;
            double pct = vendor[si].status == RUN_OK && comparable ? 100 * cell->gflops / vendor[si].gflops : 0;
            double rpct = reference[si].status == RUN_OK && comparable ? 100 * cell->gflops / reference[si].gflops : 0;
            if (json) {
               fprintf(save, "{\"schema\":%d,\"config\":", REPORT_SCHEMA);
               Report_jsonString(save, configs[c].label);
               fprintf(save, ",\"kernel\":");
               Report_jsonString(save, configs[c].kernel->name);
               fprintf(save, ",\"params\":");
               Report_jsonString(save, params);
               fprintf(save, ",\"device\":");
               Report_jsonString(save, dev->name);
               fprintf(save, ",\"size\":%d,\"precision\":\"%s\",\"status\":\"%s\",\"verified\":%s", sizes[si],
                       Precision_name(p.precision), RunStatus_name(cell->status), cell->status == RUN_OK ? "true" : "false");
               if (cell->status == RUN_OK)
                  fprintf(save, ",\"gflops\":%.6g,\"time_ms\":%.6g", cell->gflops, cell->ms);
               fprintf(save, ",\"emulated\":%s,\"vendor\":", cell->emulated ? "true" : "false");
               Report_jsonString(save, vendor[si].name);
               if (vendor[si].status == RUN_OK)
                  fprintf(save, ",\"vendor_gflops\":%.6g", vendor[si].gflops);
               if (pct > 0)
                  fprintf(save, ",\"pct_of_vendor\":%.4g", pct);
               if (ref) {
                  fprintf(save, ",\"reference\":");
                  Report_jsonString(save, reference[si].name);
                  if (reference[si].status == RUN_OK)
                     fprintf(save, ",\"reference_gflops\":%.6g", reference[si].gflops);
                  if (rpct > 0)
                     fprintf(save, ",\"pct_of_reference\":%.4g", rpct);
               }
               fprintf(save, ",\"rounds\":%d}\n", rounds);
            } else {
               fprintf(save, "%s,%s,\"%s\",\"%s\",%d,%s,%s,%s,", configs[c].label, configs[c].kernel->name, params,
                       dev->name, sizes[si], Precision_name(p.precision), RunStatus_name(cell->status),
                       cell->status == RUN_OK ? "true" : "false");
               if (cell->status == RUN_OK)
                  fprintf(save, "%.6g,%.6g,", cell->gflops, cell->ms);
               else
                  fprintf(save, ",,");
               fprintf(save, "%s,", vendor[si].name);
               if (vendor[si].status == RUN_OK)
                  fprintf(save, "%.6g,", vendor[si].gflops);
               else
                  fprintf(save, ",");
               if (pct > 0)
                  fprintf(save, "%.4g,", pct);
               else
                  fprintf(save, ",");
               if (ref && reference[si].status == RUN_OK)
                  fprintf(save, "%s,%.6g,%.4g,%d\n", reference[si].name, reference[si].gflops, rpct, rounds);
               else
                  fprintf(save, ",,,%d\n", rounds);
            }
         }
      }
      Inputs_free(&in);
   }
   if (saveFile && !OutFile_commit(saveFile, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --save %s\n", err);
      rc = 1;
   }
   /* The table: GFLOPS and % of vendor per size. */
   /* Percentages are of the reference library when there is one, else of the backend's own. */
   const VendorResult *yard = ref ? reference : vendor;
   printf("device %s (%s)\n%-32s", dev->name, be->name, "configuration");
   for (int si = 0; si < nsizes; si++)
      printf(" %10d %6s", sizes[si], ref ? "%ref" : "%vend");
   putchar('\n');
   for (int row = ref ? 0 : 1; row < 2; row++) {
      const VendorResult *v = row == 0 ? reference : vendor;
      char label[96];
      snprintf(label, sizeof label, "%s%s%s%s", v[0].name[0] ? v[0].name : "vendor BLAS", row == 0 ? " (" : "",
               row == 0 ? o->reference : "", row == 0 ? ")" : "");
      printf("%-32.32s", label);
      for (int si = 0; si < nsizes; si++) {
         if (v[si].status == RUN_OK && yard[si].status == RUN_OK)
            printf(" %10.1f %5.1f%%", v[si].gflops, 100 * v[si].gflops / yard[si].gflops);
         else if (v[si].status == RUN_OK)
            printf(" %10.1f %6s", v[si].gflops, "-");
         else
            printf(" %10s %6s", "-", "");
      }
      putchar('\n');
   }
   int failures = 0;
   for (int c = 0; c < nconf; c++) {
      printf("%-32.32s", configs[c].label);
      for (int si = 0; si < nsizes; si++) {
         BenchCell *cell = &cells[c][si];
         if (cell->status == RUN_OK && cell->emulated)
            printf(" %10.1f %6s", cell->gflops, "emul.");
         else if (cell->status == RUN_OK && yard[si].status == RUN_OK)
            printf(" %10.1f %5.1f%%", cell->gflops, 100 * cell->gflops / yard[si].gflops);
         else if (cell->status == RUN_OK)
            printf(" %10.1f %6s", cell->gflops, "-");
         else
            printf(" %10s %6s", RunStatus_name(cell->status), "");
         failures += cell->status != RUN_OK && cell->status != RUN_INVALID;
      }
      putchar('\n');
   }
   for (int si = 0; si < nsizes; si++)
      if (vendor[si].status != RUN_OK)
         printf("vendor at %d: %s\n", sizes[si], vendor[si].message);
   for (int si = 0; ref && si < nsizes; si++)
      if (reference[si].status != RUN_OK)
         printf("reference at %d: %s\n", sizes[si], reference[si].message);
   for (int c = 0; c < nconf; c++)
      for (int si = 0; si < nsizes; si++)
         if (cells[c][si].status != RUN_OK)
            printf("%s at %d: %s: %s\n", configs[c].label, sizes[si], RunStatus_name(cells[c][si].status),
                   cells[c][si].message);
   printf("GFLOPS = 2*N^3 / median device time of the GEMM kernel; the vendor library is timed around whole calls; "
          "every result verified\n");
   printf("each figure: the median of %d round%s in which the libraries and the configurations took turns\n", rounds,
          rounds == 1 ? "" : "s");
   for (int c = 0; c < nconf; c++)
      if (cells[c][0].emulated) {
         printf("emul.: tensor instructions emulated on this device (no tensor cores): verified, not compared\n");
         break;
      }
   if (r)
      RunResult_free(r);
   free(r);
   /* After an abandoned launch (--max-seconds), the process ends without the clean-up. */
   bool stuck = Session_stuck(s) || (ref && Session_stuck(ref));
   if (ref)
      Session_close(ref);
   Session_close(s);
   Catalog_free(&cat);
   if (stuck)
      Cli_leave(rc ? rc : 1);
   return rc ? rc : failures ? 1 : 0;
}
