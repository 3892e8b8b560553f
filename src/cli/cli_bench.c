/* gemmtop bench: chosen configurations and the vendor BLAS, in one process, on the same
 * device and inputs, across square sizes; a table of GFLOPS and % of vendor per size.
 *   gemmtop bench [--preset P | --kernel K --set ...] [PRESET ...] [--sizes 1024,2048]
 * With no configuration, every shipped preset (the ladder) is benchmarked. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/recorder.h"
#include "cli/report.h"
#include "core/rng.h"
#include "core/util.h"

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
   Observation obs;      /* the driver's figures in the last round (obs.known false: none) */
   StoreRecord rec;      /* its verified round (or its failure), for the results store */
} BenchCell;

/* A bench: its configurations, sizes and results, and the sessions that measure them. */
typedef struct Bench_ {
   const Options *o;
   Session *s;
   Session *ref;             /* --reference's session, or NULL */
   const Backend *be;
   const DeviceInfo *dev;
   BenchConfig *configs;
   int nconf, cap;
   int sizes[OPTIONS_MAX_SIZES];
   int nsizes;
   BenchCell *cells;         /* [config * OPTIONS_MAX_SIZES + size] */
   VendorResult vendor[OPTIONS_MAX_SIZES], reference[OPTIONS_MAX_SIZES];
   double vg[BENCH_MAX_ROUNDS], rg[BENCH_MAX_ROUNDS]; /* one size's rounds of the libraries */
   double *cg, *cms;         /* one size's rounds of the configurations: [config * BENCH_MAX_ROUNDS + round] */
   RunResult *r;
   Recorder rec;             /* the results store */
} Bench;

static BenchCell *cellOf(const Bench *b, int c, int si) { return &b->cells[c * OPTIONS_MAX_SIZES + si]; }

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
   RunOptions ro = {.reps = o->reps, .warmup = o->warmup, .verify = round == 0, .cold_l2 = o->cold_l2, .observe = true};
   Session_vendor(s, p, in, &ro, round == 0 ? v : &now);
   const VendorResult *got = round == 0 ? v : &now;
   gflops[round] = got->gflops;
   if (round > 0 && now.status != RUN_OK)
      *v = now;
   else if (round > 0 && now.obs.known)
      v->obs = now.obs;
}

/* The configurations: --kernel or --preset, then the presets named as arguments; with
 * none, every shipped preset. Returns 0, or 2 with the message printed. */
static int collectConfigs(Bench *b, const Catalog *cat) {
   const Options *o = b->o;
   char dir[1024], err[1536];
   PresetList list;
   Preset_defaultDir(cat->dir, dir, sizeof dir);
   PresetList_load(&list, dir, err, sizeof err);
   int rc = 0;
   b->cap = 1 + o->npositional + list.count;
   b->configs = calloc((size_t)b->cap, sizeof *b->configs);
   if (!b->configs) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      PresetList_free(&list);
      return 1;
   }
   if (o->kernel || o->preset) {
      BenchConfig *c = &b->configs[b->nconf];
      rc = Cli_resolveConfig(o, cat, &c->kernel, c->values, &c->problem);
      if (rc == 0) {
         snprintf(c->label, sizeof c->label, "%s", o->preset ? o->preset : c->kernel->name);
         b->nconf++;
      }
   }
   for (int i = 0; rc == 0 && i < o->npositional; i++) {
      const Preset *pr = PresetList_find(&list, o->positional[i]);
      if (!pr) {
         fprintf(stderr, "gemmtop: no preset named '%s'; see 'gemmtop list presets'\n", o->positional[i]);
         rc = 2;
      } else if (addPreset(o, cat, pr, &b->configs[b->nconf])) {
         b->nconf++;
      } else {
         rc = 2;
      }
   }
   if (rc == 0 && b->nconf == 0)
      for (int i = 0; i < list.count; i++)
         if (!list.items[i].user && addPreset(o, cat, &list.items[i], &b->configs[b->nconf]))
            b->nconf++;
   PresetList_free(&list);
   if (rc == 0 && b->nconf == 0) {
      fprintf(stderr, "gemmtop: nothing to benchmark: give --kernel, --preset or preset names\n");
      rc = 2;
   }
   return rc;
}

/* --reference: a second session, another runtime on the same device (by name), whose
 * vendor library becomes the yardstick: cuBLAS beside NVIDIA's OpenCL. Absent: reported. */
static void openReference(Bench *b, const Catalog *cat) {
   const Options *o = b->o;
   char ref_why[512] = "";
   if (Backend_byName(o->reference) == b->be) {
      snprintf(ref_why, sizeof ref_why, "the reference backend is the one being measured (%s)", b->be->name);
   } else {
      Options ro2 = *o;
      ro2.backend = o->reference;
      ro2.device = b->dev->name;
      int ref_rc;
      fflush(stderr);
      b->ref = Cli_openSession(&ro2, cat, &ref_rc);
      if (!b->ref)
         snprintf(ref_why, sizeof ref_why, "no %s device named '%s' (see the message above)", o->reference,
                  b->dev->name);
   }
   if (!b->ref)
      fprintf(stderr, "gemmtop: --reference %s: %s; percentages are of %s's own vendor library\n", o->reference,
              ref_why, b->be->name);
}

/* One round of every configuration at size si on inputs in (or their own, when the
 * precision differs). */
static void benchConfigs(Bench *b, int si, int round, const Inputs *in, uint64_t seed) {
   const Options *o = b->o;
   for (int c = 0; c < b->nconf; c++) {
      BenchCell *cell = cellOf(b, c, si);
      if (round > 0 && cell->status != RUN_OK)
         continue; /* failed or invalid in an earlier round: said once */
      Problem p = b->configs[c].problem;
      p.m = p.n = p.k = b->sizes[si];
      Inputs own;
      const Inputs *use = in;
      if (!Inputs_fit(in, &p)) {
         if (!Inputs_random(&own, &p, seed)) {
            cell->status = RUN_OUT_OF_MEMORY;
            continue;
         }
         use = &own;
      }
      fprintf(stderr, "size %d, round %d of %d: %s...\n", b->sizes[si], round + 1, o->rounds, b->configs[c].label);
      /* Verified in the first round; later rounds time the same program. */
      RunOptions ro = {.reps = o->reps, .warmup = o->warmup, .verify = round == 0, .max_seconds = o->max_seconds,
                       .launch_timeout_s = o->max_seconds, .cold_l2 = o->cold_l2, .observe = true};
      RunStatus st = Session_run(b->s, b->configs[c].kernel, b->configs[c].values, &p, use, &ro, b->r);
      cell->emulated = b->r->geo.emulated;
      if (b->r->obs.known)
         cell->obs = b->r->obs;
      if (round == 0 || st != RUN_OK) {
         cell->status = st;
         snprintf(cell->message, sizeof cell->message, "%s", b->r->message);
         RecordPlace at = {b->be->name, b->dev};
         Record_fromRun(&cell->rec, "bench", &at, b->configs[c].kernel, b->configs[c].values, &p, st, b->r);
      }
      b->cg[c * BENCH_MAX_ROUNDS + round] = b->r->gflops;
      b->cms[c * BENCH_MAX_ROUNDS + round] = b->r->median_ms;
      if (use != in)
         Inputs_free(&own);
   }
}

/* Size si's results into the results store: each configuration's (its figures the
 * medians over the rounds) and the vendor libraries'. */
static void recordSize(Bench *b, int si, const Problem *vp) {
   StoreRecord *recs = calloc((size_t)b->nconf + 2, sizeof *recs);
   if (!recs)
      return;
   int n = 0;
   for (int c = 0; c < b->nconf; c++) {
      BenchCell *cell = cellOf(b, c, si);
      recs[n] = cell->rec;
      if (cell->status == RUN_OK)
         recs[n].gflops = cell->gflops, recs[n].median_ms = cell->ms;
      n += recs[n].origin[0] != '\0'; /* never run (out of memory): nothing to record */
   }
   RecordPlace at = {b->be->name, b->dev};
   Record_fromVendor(&recs[n++], &at, vp, &b->vendor[si]);
   if (b->ref) {
      RecordPlace ref = {Session_backend(b->ref)->name, Session_device(b->ref)};
      Record_fromVendor(&recs[n++], &ref, vp, &b->reference[si]);
   }
   Recorder_add(&b->rec, recs, n);
   free(recs);
}

/* Every round at size si. Rounds: the libraries and the configurations take turns (the
 * libraries first in even rounds, last in odd ones), so that a clock or temperature
 * drift during the run favours neither side; each figure is the median of its rounds'
 * medians. */
static void benchSize(Bench *b, int si) {
   const Options *o = b->o;
   const int rounds = o->rounds;
   char err[1536] = "";
   /* Precision and scalars of the first configuration decide the vendor's problem. */
   Problem vp = b->configs[0].problem;
   vp.m = vp.n = vp.k = b->sizes[si];
   Inputs in;
   uint64_t seed = o->has_seed ? o->seed : Rng_freshSeed();
   b->reference[si].status = RUN_DEVICE_ERROR;
   if (!Session_fits(b->s, &vp, err, sizeof err) || !Inputs_random(&in, &vp, seed)) {
      fprintf(stderr, "gemmtop: size %d: %s\n", b->sizes[si], err[0] ? err : "out of host memory");
      for (int c = 0; c < b->nconf; c++)
         cellOf(b, c, si)->status = RUN_OUT_OF_MEMORY;
      b->vendor[si].status = RUN_OUT_OF_MEMORY;
      return;
   }
   for (int round = 0; round < rounds; round++) {
      for (int turn = 0; turn < 2; turn++) {
         if (turn != round % 2) {
            benchConfigs(b, si, round, &in, seed);
            continue;
         }
         fprintf(stderr, "size %d, round %d of %d: vendor...\n", b->sizes[si], round + 1, rounds);
         benchVendor(b->s, &vp, &in, o, round, &b->vendor[si], b->vg);
         if (b->ref) {
            fprintf(stderr, "size %d, round %d of %d: reference (%s)...\n", b->sizes[si], round + 1, rounds,
                    o->reference);
            benchVendor(b->ref, &vp, &in, o, round, &b->reference[si], b->rg);
         }
      }
   }
   if (b->vendor[si].status == RUN_OK)
      b->vendor[si].gflops = Util_median(b->vg, rounds);
   if (b->ref && b->reference[si].status == RUN_OK)
      b->reference[si].gflops = Util_median(b->rg, rounds);
   for (int c = 0; c < b->nconf; c++) {
      BenchCell *cell = cellOf(b, c, si);
      if (cell->status == RUN_OK) {
         cell->gflops = Util_median(&b->cg[c * BENCH_MAX_ROUNDS], rounds);
         cell->ms = Util_median(&b->cms[c * BENCH_MAX_ROUNDS], rounds);
      }
   }
   Inputs_free(&in);
   recordSize(b, si, &vp);
}

/* The driver's clock, power, energy per GEMM and GFLOPS/W: JSON members (null where
 * unknown) or four CSV fields (empty), each after a comma. */
static void saveObservation(FILE *save, bool json, const char *prefix, const Observation *ob) {
   static const char *names[] = {"sm_mhz", "power_w", "energy_j", "gflops_per_w"};
   const double v[] = {ob->sm_mhz, ob->power_w, ob->energy_j, ob->gflops_per_w};
   for (int i = 0; i < 4; i++) {
      bool known = ob->known && isfinite(v[i]);
      if (json && known)
         fprintf(save, ",\"%s%s\":%.6g", prefix, names[i], v[i]);
      else if (json)
         fprintf(save, ",\"%s%s\":null", prefix, names[i]);
      else if (known)
         fprintf(save, ",%.6g", v[i]);
      else
         fputc(',', save);
   }
}

/* One configuration at one size as a line of the --save file. */
static void saveRow(FILE *save, bool json, const Bench *b, int c, int si) {
   const BenchConfig *cf = &b->configs[c];
   const BenchCell *cell = cellOf(b, c, si);
   const VendorResult *vendor = b->vendor, *reference = b->reference;
   const Problem p = cf->problem;
   const int rounds = b->o->rounds;
   char params[300];
   KernelInfo_formatParams(cf->kernel, cf->values, params, sizeof params);
   bool comparable = cell->status == RUN_OK && !cell->emulated;
   double pct = vendor[si].status == RUN_OK && comparable ? 100 * cell->gflops / vendor[si].gflops : 0;
   double rpct = reference[si].status == RUN_OK && comparable ? 100 * cell->gflops / reference[si].gflops : 0;
   if (json) {
      fprintf(save, "{\"schema\":%d,\"config\":", REPORT_SCHEMA);
      Report_jsonString(save, cf->label);
      fprintf(save, ",\"kernel\":");
      Report_jsonString(save, cf->kernel->name);
      fprintf(save, ",\"params\":");
      Report_jsonString(save, params);
      fprintf(save, ",\"device\":");
      Report_jsonString(save, b->dev->name);
      fprintf(save, ",\"size\":%d,\"precision\":\"%s\",\"status\":\"%s\",\"verified\":%s", b->sizes[si],
              Precision_name(p.precision), RunStatus_name(cell->status), cell->status == RUN_OK ? "true" : "false");
      if (cell->status == RUN_OK)
         fprintf(save, ",\"gflops\":%.6g,\"time_ms\":%.6g", cell->gflops, cell->ms);
      fprintf(save, ",\"l2\":\"%s\"", b->o->cold_l2 ? "cold" : "warm");
      saveObservation(save, true, "", &cell->obs);
      saveObservation(save, true, "vendor_", &vendor[si].obs);
      fprintf(save, ",\"emulated\":%s,\"vendor\":", cell->emulated ? "true" : "false");
      Report_jsonString(save, vendor[si].name);
      if (vendor[si].status == RUN_OK)
         fprintf(save, ",\"vendor_gflops\":%.6g", vendor[si].gflops);
      if (pct > 0)
         fprintf(save, ",\"pct_of_vendor\":%.4g", pct);
      if (b->ref) {
         fprintf(save, ",\"reference\":");
         Report_jsonString(save, reference[si].name);
         if (reference[si].status == RUN_OK)
            fprintf(save, ",\"reference_gflops\":%.6g", reference[si].gflops);
         if (rpct > 0)
            fprintf(save, ",\"pct_of_reference\":%.4g", rpct);
      }
      fprintf(save, ",\"rounds\":%d}\n", rounds);
   } else {
      fprintf(save, "%s,%s,\"%s\",\"%s\",%d,%s,%s,%s,", cf->label, cf->kernel->name, params, b->dev->name, b->sizes[si],
              Precision_name(p.precision), RunStatus_name(cell->status), cell->status == RUN_OK ? "true" : "false");
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
      if (b->ref && reference[si].status == RUN_OK)
         fprintf(save, "%s,%.6g,%.4g,%d", reference[si].name, reference[si].gflops, rpct, rounds);
      else
         fprintf(save, ",,,%d", rounds);
      fprintf(save, ",%s", b->o->cold_l2 ? "cold" : "warm");
      saveObservation(save, false, "", &cell->obs);
      saveObservation(save, false, "vendor_", &vendor[si].obs);
      fputc('\n', save);
   }
}

/* One row of the table: GFLOPS and % of the yardstick per size. */
static void printCells(const Bench *b, const VendorResult *yard, int c) {
   for (int si = 0; si < b->nsizes; si++) {
      const BenchCell *cell = cellOf(b, c, si);
      if (cell->status == RUN_OK && cell->emulated)
         printf(" %10.1f %6s", cell->gflops, "emul.");
      else if (cell->status == RUN_OK && yard[si].status == RUN_OK)
         printf(" %10.1f %5.1f%%", cell->gflops, 100 * cell->gflops / yard[si].gflops);
      else if (cell->status == RUN_OK)
         printf(" %10.1f %6s", cell->gflops, "-");
      else
         printf(" %10s %6s", RunStatus_name(cell->status), "");
   }
   putchar('\n');
}

/* Under a row, when the driver said anything: the SM clock and GFLOPS per watt per size. */
static void printObservations(const Bench *b, const Observation *const *obs) {
   bool any = false;
   for (int si = 0; si < b->nsizes; si++)
      any |= obs[si]->known && (isfinite(obs[si]->sm_mhz) || isfinite(obs[si]->gflops_per_w));
   if (!any)
      return;
   printf("%-32s", "  SM MHz, GFLOPS/W");
   for (int si = 0; si < b->nsizes; si++) {
      const Observation *ob = obs[si];
      char mhz[16] = "", per[16] = "";
      if (ob->known && isfinite(ob->sm_mhz))
         snprintf(mhz, sizeof mhz, "%.0f%s", ob->sm_mhz, ob->throttled ? "!" : "");
      if (ob->known && isfinite(ob->gflops_per_w))
         snprintf(per, sizeof per, "%.1f", ob->gflops_per_w);
      printf(" %10s %6s", mhz, per);
   }
   putchar('\n');
}

/* The table: GFLOPS and % of vendor per size, then what failed. Returns the failures. */
static int printTable(const Bench *b) {
   const Options *o = b->o;
   const VendorResult *vendor = b->vendor, *reference = b->reference;
   /* Percentages are of the reference library when there is one, else of the backend's own. */
   const VendorResult *yard = b->ref ? reference : vendor;
   printf("device %s (%s), %s L2\n%-32s", b->dev->name, b->be->name, o->cold_l2 ? "cold" : "warm", "configuration");
   for (int si = 0; si < b->nsizes; si++)
      printf(" %10d %6s", b->sizes[si], b->ref ? "%ref" : "%vend");
   putchar('\n');
   for (int row = b->ref ? 0 : 1; row < 2; row++) {
      const VendorResult *v = row == 0 ? reference : vendor;
      char label[96];
      snprintf(label, sizeof label, "%s%s%s%s", v[0].name[0] ? v[0].name : "vendor BLAS", row == 0 ? " (" : "",
               row == 0 ? o->reference : "", row == 0 ? ")" : "");
      printf("%-32.32s", label);
      for (int si = 0; si < b->nsizes; si++) {
         if (v[si].status == RUN_OK && yard[si].status == RUN_OK)
            printf(" %10.1f %5.1f%%", v[si].gflops, 100 * v[si].gflops / yard[si].gflops);
         else if (v[si].status == RUN_OK)
            printf(" %10.1f %6s", v[si].gflops, "-");
         else
            printf(" %10s %6s", "-", "");
      }
      putchar('\n');
      const Observation *obs[OPTIONS_MAX_SIZES];
      for (int si = 0; si < b->nsizes; si++)
         obs[si] = &v[si].obs;
      printObservations(b, obs);
   }
   int failures = 0;
   for (int c = 0; c < b->nconf; c++) {
      printf("%-32.32s", b->configs[c].label);
      printCells(b, yard, c);
      const Observation *obs[OPTIONS_MAX_SIZES];
      for (int si = 0; si < b->nsizes; si++)
         obs[si] = &cellOf(b, c, si)->obs;
      printObservations(b, obs);
      for (int si = 0; si < b->nsizes; si++)
         failures += cellOf(b, c, si)->status != RUN_OK && cellOf(b, c, si)->status != RUN_INVALID;
   }
   for (int si = 0; si < b->nsizes; si++)
      if (vendor[si].status != RUN_OK)
         printf("vendor at %d: %s\n", b->sizes[si], vendor[si].message);
   for (int si = 0; b->ref && si < b->nsizes; si++)
      if (reference[si].status != RUN_OK)
         printf("reference at %d: %s\n", b->sizes[si], reference[si].message);
   for (int c = 0; c < b->nconf; c++)
      for (int si = 0; si < b->nsizes; si++)
         if (cellOf(b, c, si)->status != RUN_OK)
            printf("%s at %d: %s: %s\n", b->configs[c].label, b->sizes[si], RunStatus_name(cellOf(b, c, si)->status),
                   cellOf(b, c, si)->message);
   printf("GFLOPS = 2*N^3 / median device time of the GEMM kernel; the vendor library is timed around whole calls; "
          "every result verified\n");
   printf("each figure: the median of %d round%s in which the libraries and the configurations took turns\n", o->rounds,
          o->rounds == 1 ? "" : "s");
   if (o->cold_l2 && b->vendor[0].cold_l2_method[0])
      printf("cold L2: each launch and library call read operands out of the L2 (%s)\n", b->vendor[0].cold_l2_method);
   else if (!o->cold_l2)
      printf("warm L2: repeated launches on the same operands, as they find the cache (--cold-l2 for a cold one)\n");
   bool observed = false, throttled = false;
   for (int c = 0; c < b->nconf; c++)
      for (int si = 0; si < b->nsizes; si++) {
         observed |= cellOf(b, c, si)->obs.known;
         throttled |= cellOf(b, c, si)->obs.throttled;
      }
   if (observed)
      printf("SM MHz: the median clock while timing (the last round's; %s), GFLOPS/W from the driver's energy counter "
             "or power\n",
             throttled ? "! marks throttling: the clock fell or the driver held it down" : "no throttling seen");
   for (int c = 0; c < b->nconf; c++)
      if (cellOf(b, c, 0)->emulated) {
         printf("emul.: tensor instructions emulated on this device (no tensor cores): verified, not compared\n");
         break;
      }
   return failures;
}

/* Measures every size, writing each one's results to the --save file (opened before any
 * work, in saveFile) as it goes. Returns 0, or 1 when the file could not be written. */
static int benchAll(Bench *b, OutFile *saveFile) {
   const Options *o = b->o;
   int rc = 0;
   FILE *save = saveFile ? OutFile_stream(saveFile) : NULL;
   bool json = o->save && strlen(o->save) > 5 && !strcmp(o->save + strlen(o->save) - 5, ".json");
   if (save && !json)
      fprintf(save, "config,kernel,params,device,size,precision,status,verified,gflops,time_ms,vendor,vendor_gflops,"
                    "pct_of_vendor,reference,reference_gflops,pct_of_reference,rounds,l2,sm_mhz,power_w,energy_j,"
                    "gflops_per_w,vendor_sm_mhz,vendor_power_w,vendor_energy_j,vendor_gflops_per_w\n");
   for (int si = 0; si < b->nsizes; si++) {
      benchSize(b, si);
      for (int c = 0; save && c < b->nconf; c++)
         saveRow(save, json, b, c, si);
   }
   char err[1300];
   if (saveFile && !OutFile_commit(saveFile, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --save %s\n", err);
      rc = 1;
   }
   return rc;
}

/* Returns whether a launch was abandoned (--max-seconds): then the process must end
 * without the clean-up, which would wait for it. */
static bool freeBench(Bench *b) {
   if (b->r)
      RunResult_free(b->r);
   free(b->r);
   bool stuck = (b->s && Session_stuck(b->s)) || (b->ref && Session_stuck(b->ref));
   if (b->ref)
      Session_close(b->ref);
   Session_close(b->s);
   free(b->configs);
   free(b->cells);
   free(b->cg);
   free(b->cms);
   free(b);
   return stuck;
}

int Cli_bench(const Options *o) {
   Bench *b = calloc(1, sizeof *b);
   if (!b) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      return 1;
   }
   b->o = o;
   char err[256];
   b->nsizes = Options_parseSizes(o->sizes, b->sizes, OPTIONS_MAX_SIZES, err, sizeof err);
   if (b->nsizes <= 0) {
      fprintf(stderr, "gemmtop: %s\n", err);
      free(b);
      return 2;
   }
   Catalog cat;
   if (!Cli_loadCatalog(&cat)) {
      free(b);
      return 1;
   }
   OutFile *saveFile = NULL;
   int rc = collectConfigs(b, &cat);
   if (rc == 0)
      rc = Cli_openOutput("--save", o->save, OUTFILE_STREAM_OK, &saveFile);
   if (rc == 0)
      b->s = Cli_openSession(o, &cat, &rc);
   if (b->s) {
      b->be = Session_backend(b->s);
      b->dev = Session_device(b->s);
      if (o->reference)
         openReference(b, &cat);
      b->cells = calloc((size_t)b->nconf * OPTIONS_MAX_SIZES, sizeof *b->cells);
      b->cg = calloc((size_t)b->nconf * BENCH_MAX_ROUNDS, sizeof *b->cg);
      b->cms = calloc((size_t)b->nconf * BENCH_MAX_ROUNDS, sizeof *b->cms);
      b->r = calloc(1, sizeof *b->r);
      if (!b->cells || !b->cg || !b->cms || !b->r) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         rc = 1;
      } else {
         Recorder_open(&b->rec, o);
         rc = benchAll(b, saveFile);
         Recorder_close(&b->rec);
         saveFile = NULL;
         int failures = printTable(b);
         rc = rc ? rc : failures ? 1 : 0;
      }
   }
   OutFile_discard(saveFile);
   bool stuck = freeBench(b);
   Catalog_free(&cat);
   if (stuck)
      Cli_leave(rc ? rc : 1);
   return rc;
}
