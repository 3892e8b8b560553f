/* gemmtop bench --frontier: one set of float32 inputs through every path gemmtop has on the
 * device (core/analyse/frontier.h), each with its speed, its % of the vendor library in the same
 * type, and its error against the float64 product of the original inputs. A table, CSV or
 * JSON; --save FILE.svg draws the scatter (error against GFLOPS), .csv and .json save rows. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "base/rng.h"
#include "base/util.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "core/analyse/frontier.h"
#include "core/run/select.h"
#include "core/run/trial.h"

/* One path as measured: its configuration, its figures, and the vendor library's in its
 * type (measured once per type and scaling, on the first path of it). */
typedef struct FrontierRow_ {
   const FrontierPath *path;
   char config[96];           /* the preset or kernel used, "" when none runs here */
   char why[512];             /* why none runs, or what failed */
   RunStatus status;
   bool emulated, verified;
   double gflops;
   FrontierError err;
   bool has_vendor;           /* this row measured its type's vendor library */
   VendorResult vendor;
   FrontierError vendor_err;
   int vendor_row;            /* the row whose vendor figure this one is compared with (-1: none) */
} FrontierRow;

/* The first candidate of the path that runs on this device at size m, n, k: its kernel,
 * values and problem. False with why (the first candidate's refusal). */
static bool choose(Session *s, const Catalog *cat, const FrontierPath *fp, int m, int n, int k, const KernelInfo **kp,
                   long long *values, Problem *p, FrontierRow *row) {
   const DeviceLimits *lim = &Session_device(s)->limits;
   /* Presets tuned through CUDA (named -cuda) keep their tiles in dynamic shared memory:
    * on a backend that launches without it, the next candidate. */
   const bool dynamic = lim->dynamic_smem;
   row->why[0] = '\0';
   for (int c = 0; c < FRONTIER_CANDIDATES && fp->candidates[c]; c++) {
      const char *name = fp->candidates[c];
      const size_t len = strlen(name);
      if (!dynamic && len > 5 && !strcmp(name + len - 5, "-cuda"))
         continue;
      char err[1024] = "";
      Problem_setDefaults(p);
      const KernelInfo *kernel = NULL;
      if (!strncmp(name, "kernel:", 7)) {
         kernel = Catalog_find(cat, name + 7);
         if (kernel)
            KernelInfo_defaults(kernel, values);
      } else {
         Preset pr;
         if (!Select_loadPreset(name, cat, &pr, err, sizeof err) || !Preset_resolve(&pr, cat, &kernel, values, p, err, sizeof err))
            kernel = NULL;
      }
      if (!kernel) {
         if (!row->why[0])
            snprintf(row->why, sizeof row->why, "%s: %s", name, err[0] ? err : "not in the catalog");
         continue;
      }
      p->m = m, p->n = n, p->k = k, p->precision = fp->precision, p->scaling = fp->scaling, p->alpha = 1, p->beta = 0;
      Geometry g;
      if (fp->tensor >= 0 && kernel->tensor != (fp->tensor == 1)) {
         snprintf(err, sizeof err, "%s is %sa tensor-core kernel", kernel->name, kernel->tensor ? "" : "not ");
      } else if (Session_check(s, kernel, values, p, lim, &g, err, sizeof err)) {
         *kp = kernel;
         Util_copy(row->config, sizeof row->config, name);
         return true;
      }
      if (!row->why[0])
         snprintf(row->why, sizeof row->why, "%s: %s", name, err);
   }
   return false;
}

/* Measures one path: its kernel, and the vendor library when it is the first of its type. */
static void measurePath(Session *s, const Catalog *cat, const CommandArgs *o, FrontierRow *rows, int i, int m, int n, int k,
                        const float *A, const float *B, uint64_t seed, RunResult *r) {
   FrontierRow *row = &rows[i];
   const KernelInfo *kernel;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   row->vendor_row = -1;
   for (int j = 0; j < i; j++)
      if (rows[j].path->precision == row->path->precision && rows[j].has_vendor &&
          (!Types_of(row->path->precision)->scaled || rows[j].path->scaling == row->path->scaling))
         row->vendor_row = j;
   if (!choose(s, cat, row->path, m, n, k, &kernel, values, &p, row)) {
      row->status = RUN_INVALID;
      return;
   }
   Inputs in;
   void *c = malloc(Problem_sizeC(&p) * Precision_size(p.precision) + 1);
   if (!c || !Inputs_fromValues(&in, &p, A, B, seed)) {
      free(c);
      row->status = RUN_OUT_OF_MEMORY;
      snprintf(row->why, sizeof row->why, "out of host memory");
      return;
   }
   TrialRequest rq = {.kernel = kernel, .values = values, .problem = &p, .inputs_from = TRIAL_INPUTS_GIVEN,
                      .inputs = &in,
                      .run = {.reps = o->timing->reps, .warmup = o->timing->warmup, .verify = true, .verified_c = c,
                              .max_seconds = o->timing->max_seconds}};
   TrialOutcome outcome;
   fprintf(stderr, "frontier %s: %s...\n", row->path->label, row->config);
   row->status = Trial_run(s, &rq, r, &outcome);
   row->emulated = r->geo.emulated;
   row->verified = r->verified_run && r->verify.ok;
   if (row->status == RUN_OK) {
      row->gflops = r->gflops;
      Frontier_error(&p, A, B, NULL, c, seed ^ 0xf0f0, &row->err);
   } else {
      snprintf(row->why, sizeof row->why, "%s", r->message);
   }
   RunResult_free(r);
   memset(r, 0, sizeof *r);
   /* The type's vendor library, once, even beside an emulated kernel (whose speed is then
    * not compared): the row says what it did, or that there is none for the type here. */
   if (row->vendor_row < 0) {
      if (Session_vendor(s, &p, &in, &rq.run, &row->vendor) == RUN_OK)
         Frontier_error(&p, A, B, NULL, c, seed ^ 0xf0f0, &row->vendor_err);
      row->has_vendor = true;
      row->vendor_row = i;
   }
   Inputs_free(&in);
   free(c);
}

static double pctOfVendor(const FrontierRow *rows, int i) {
   const FrontierRow *row = &rows[i];
   if (row->status != RUN_OK || row->emulated || row->vendor_row < 0)
      return 0;
   const VendorResult *v = &rows[row->vendor_row].vendor;
   return v->status == RUN_OK && v->gflops > 0 ? 100 * row->gflops / v->gflops : 0;
}

static void printTable(const FrontierRow *rows, int n, const DeviceInfo *dev, int m, int nn, int k, uint64_t seed) {
   printf("accuracy frontier at %dx%dx%d on %s: one set of float32 inputs (uniform in [-1, 1), seed %llu) through "
          "every path\n", m, nn, k, dev->name, (unsigned long long)seed);
   printf("%-12s %-34s %12s %8s %11s %11s\n", "path", "configuration", "GFLOPS", "%vend", "max err", "median err");
   for (int i = 0; i < n; i++) {
      const FrontierRow *r = &rows[i];
      if (r->status == RUN_INVALID && !r->config[0]) {
         printf("%-12s %-34s %.80s\n", r->path->label, "-", r->why[0] ? r->why : "no configuration runs here");
         continue;
      }
      if (r->status != RUN_OK) {
         printf("%-12s %-34.34s %s: %.70s\n", r->path->label, r->config, RunStatus_name(r->status), r->why);
         continue;
      }
      double pct = pctOfVendor(rows, i);
      char pcts[16] = "-";
      if (r->emulated)
         snprintf(pcts, sizeof pcts, "emul.");
      else if (pct > 0)
         snprintf(pcts, sizeof pcts, "%.1f%%", pct);
      printf("%-12s %-34.34s %12.1f %8s %11.2e %11.2e%s\n", r->path->label, r->config, r->gflops, pcts, r->err.max,
             r->err.median, r->verified ? "" : "  (not verified)");
      if (r->has_vendor) {
         const VendorResult *v = &r->vendor;
         char label[64];
         snprintf(label, sizeof label, "  %s (%s)", v->name[0] ? v->name : "vendor", r->path->label);
         if (v->status == RUN_OK)
            printf("%-47.47s %12.1f %8s %11.2e %11.2e\n", label, v->gflops, "", r->vendor_err.max, r->vendor_err.median);
         else /* in full: it says where the type's reference is */
            printf("%-47.47s %s\n", label, v->message);
      }
   }
   size_t samples = 0;
   for (int i = 0; i < n; i++)
      samples = rows[i].err.samples > samples ? rows[i].err.samples : samples;
   printf("error: |C - C64| / (|A||B|) at %zu entries of C, C64 the float64 product of the float32 inputs: the\n"
          "input's rounding to each type counts; GFLOPS: median device time of the GEMM kernel; emul.: tensor\n"
          "instructions emulated here, not a tensor core's speed, not compared\n", samples);
}

static void jsonRow(FILE *out, const FrontierRow *rows, int i, bool vendor, int m, int n, int k) {
   const FrontierRow *r = &rows[i];
   const bool ok = vendor ? r->vendor.status == RUN_OK : r->status == RUN_OK;
   const FrontierError *e = vendor ? &r->vendor_err : &r->err;
   fprintf(out, "{\"schema\":%d,\"path\":", REPORT_SCHEMA);
   Report_jsonString(out, r->path->label);
   fprintf(out, ",\"kind\":\"%s\",\"config\":", vendor ? "vendor" : "kernel");
   Report_jsonString(out, vendor ? r->vendor.name : r->config);
   fprintf(out, ",\"precision\":\"%s\",\"scaling\":\"%s\",\"m\":%d,\"n\":%d,\"k\":%d,\"status\":\"%s\",\"emulated\":%s",
           Precision_name(r->path->precision), Types_of(r->path->precision)->scaled ? Scaling_name(r->path->scaling) : "",
           m, n, k, RunStatus_name(vendor ? r->vendor.status : r->status), !vendor && r->emulated ? "true" : "false");
   fprintf(out, ",\"verified\":%s", (vendor ? r->vendor.verified : r->verified) ? "true" : "false");
   if (ok) {
      fprintf(out, ",\"gflops\":%.6g,\"max_err\":%.4g,\"median_err\":%.4g,\"samples\":%zu",
              vendor ? r->vendor.gflops : r->gflops, e->max, e->median, e->samples);
      double pct = vendor ? 0 : pctOfVendor(rows, i);
      if (pct > 0)
         fprintf(out, ",\"pct_of_vendor\":%.4g", pct);
   } else {
      fputs(",\"reason\":", out);
      Report_jsonString(out, vendor ? r->vendor.message : r->why);
   }
   fputs("}\n", out);
}

static void csvRow(FILE *out, const FrontierRow *rows, int i, bool vendor, int m, int n, int k) {
   const FrontierRow *r = &rows[i];
   const bool ok = vendor ? r->vendor.status == RUN_OK : r->status == RUN_OK;
   const FrontierError *e = vendor ? &r->vendor_err : &r->err;
   Util_csvField(out, r->path->label, false);
   Util_csvField(out, vendor ? "vendor" : "kernel", false);
   Util_csvField(out, vendor ? r->vendor.name : r->config, false);
   fprintf(out, "%s,%s,%d,%d,%d,%s,%s,%s,", Precision_name(r->path->precision),
           Types_of(r->path->precision)->scaled ? Scaling_name(r->path->scaling) : "", m, n, k,
           RunStatus_name(vendor ? r->vendor.status : r->status), !vendor && r->emulated ? "true" : "false",
           (vendor ? r->vendor.verified : r->verified) ? "true" : "false");
   double pct = vendor ? 0 : pctOfVendor(rows, i);
   if (ok)
      fprintf(out, "%.6g,%.4g,%.4g,", vendor ? r->vendor.gflops : r->gflops, e->max, e->median);
   else
      fputs(",,,", out);
   if (pct > 0)
      fprintf(out, "%.4g,", pct);
   else
      fputs(",", out);
   Util_csvField(out, ok ? "" : vendor ? r->vendor.message : r->why, true);
}

/* Rows as CSV or JSON lines: every path, and each vendor library measured. */
static void writeRows(FILE *out, bool json, const FrontierRow *rows, int n, int m, int nn, int k) {
   if (!json)
      fputs("path,kind,config,precision,scaling,m,n,k,status,emulated,verified,gflops,max_err,median_err,"
            "pct_of_vendor,reason\n", out);
   for (int i = 0; i < n; i++)
      for (int vendor = 0; vendor < (rows[i].has_vendor ? 2 : 1); vendor++)
         (json ? jsonRow : csvRow)(out, rows, i, vendor, m, nn, k);
}

static char *svgOf(const FrontierRow *rows, int n, const DeviceInfo *dev, int m, int nn, int k) {
   FrontierPoint pts[64];
   int np = 0;
   for (int i = 0; i < n && np < 62; i++) {
      const FrontierRow *r = &rows[i];
      if (r->status == RUN_OK) {
         FrontierPoint *pt = &pts[np++];
         *pt = (FrontierPoint){.gflops = r->gflops, .max_err = r->err.max, .median_err = r->err.median,
                               .emulated = r->emulated};
         snprintf(pt->label, sizeof pt->label, "%s", r->path->label);
      }
      if (r->has_vendor && r->vendor.status == RUN_OK) {
         FrontierPoint *pt = &pts[np++];
         *pt = (FrontierPoint){.gflops = r->vendor.gflops, .max_err = r->vendor_err.max,
                               .median_err = r->vendor_err.median, .vendor = true};
         /* The FP8 reference's name says its type and scaling already ("cuBLASLt 13.1.0 e4m3
          * block"); the others' say the library alone. */
         const bool named = Types_of(r->path->precision)->scaled;
         snprintf(pt->label, sizeof pt->label, "%s%s%s", r->vendor.name, named ? "" : " ", named ? "" : r->path->label);
      }
   }
   char title[160], sub[256];
   snprintf(title, sizeof title, "Accuracy against speed at %dx%dx%d", m, nn, k);
   snprintf(sub, sizeof sub, "%s: one set of float32 inputs through every type; error against their float64 product",
            dev->name);
   return Frontier_svg(pts, np, title, sub);
}

/* --save: .svg the chart, .json JSON lines, else CSV. 0, or 1 when it could not be written. */
static int save(const CommandArgs *o, OutFile *f, const FrontierRow *rows, int n, const DeviceInfo *dev, int m, int nn,
                int k) {
   if (!f)
      return 0;
   const char *path = o->output->save;
   size_t len = strlen(path);
   char err[1300];
   if (len > 4 && !strcmp(path + len - 4, ".svg")) {
      char *svg = svgOf(rows, n, dev, m, nn, k);
      if (svg)
         fputs(svg, OutFile_stream(f));
      free(svg);
      if (!svg) {
         OutFile_discard(f);
         fprintf(stderr, "gemmtop: --save %s: out of memory\n", path);
         return 1;
      }
   } else {
      writeRows(OutFile_stream(f), len > 5 && !strcmp(path + len - 5, ".json"), rows, n, m, nn, k);
   }
   if (!OutFile_commit(f, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --save %s\n", err);
      return 1;
   }
   return 0;
}

/* The problem's size: --sizes with one size, else 4096 on a GPU and 256 on a CPU. */
static int frontierSize(const CommandArgs *o, const DeviceInfo *dev, int mnk[3]) {
   if (!o->bench->sizes) {
      mnk[0] = mnk[1] = mnk[2] = dev->type == DEVICE_CPU ? 256 : 4096;
      return 0;
   }
   BenchSize sizes[OPTIONS_MAX_SIZES];
   char err[512];
   int count = Options_parseSizes(o->bench->sizes, sizes, OPTIONS_MAX_SIZES, err, sizeof err);
   if (count != 1) {
      fprintf(stderr, "gemmtop: %s\n", count < 0 ? err : "--frontier measures one size: give --sizes N or MxNxK");
      return 2;
   }
   mnk[0] = sizes[0].m, mnk[1] = sizes[0].n, mnk[2] = sizes[0].k;
   return 0;
}

int Cli_frontier(const CommandArgs *o) {
   if (o->sel->kernel || o->sel->preset || o->npositional > 0 || o->shape->shapes || o->bench->reference) {
      fprintf(stderr, "gemmtop: --frontier chooses a configuration per type itself: give no kernel, preset, "
                      "--shapes or --reference (see docs/fp8.md)\n");
      return 2;
   }
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   int rc = 0;
   OutFile *f = NULL;
   Session *s = NULL;
   if ((rc = Cli_openOutput("--save", o->output->save, OUTFILE_STREAM_OK, &f)) == 0)
      s = Cli_openSession(o, &cat, &rc);
   int mnk[3] = {0, 0, 0};
   if (s)
      rc = frontierSize(o, Session_device(s), mnk);
   int npaths;
   const FrontierPath *paths = Frontier_paths(&npaths);
   FrontierRow *rows = calloc((size_t)npaths, sizeof *rows);
   float *A = s && !rc ? malloc((size_t)mnk[0] * (size_t)mnk[2] * sizeof *A) : NULL;
   float *B = A ? malloc((size_t)mnk[2] * (size_t)mnk[1] * sizeof *B) : NULL;
   RunResult *r = calloc(1, sizeof *r);
   if (s && !rc && (!rows || !A || !B || !r)) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
   }
   if (s && !rc) {
      const uint64_t seed = o->timing->has_seed ? o->timing->seed : Rng_freshSeed();
      Rng rng;
      Rng_seed(&rng, seed);
      for (size_t i = 0; i < (size_t)mnk[0] * (size_t)mnk[2]; i++)
         A[i] = (float)Rng_range(&rng, -1.0, 1.0);
      for (size_t i = 0; i < (size_t)mnk[2] * (size_t)mnk[1]; i++)
         B[i] = (float)Rng_range(&rng, -1.0, 1.0);
      for (int i = 0; i < npaths; i++) {
         rows[i].path = &paths[i];
         measurePath(s, &cat, o, rows, i, mnk[0], mnk[1], mnk[2], A, B, seed, r);
      }
      if (o->output->format == FORMAT_TABLE)
         printTable(rows, npaths, Session_device(s), mnk[0], mnk[1], mnk[2], seed);
      else
         writeRows(stdout, o->output->format == FORMAT_JSON, rows, npaths, mnk[0], mnk[1], mnk[2]);
      rc = save(o, f, rows, npaths, Session_device(s), mnk[0], mnk[1], mnk[2]);
      f = NULL;
      for (int i = 0; i < npaths && !rc; i++) /* a result that did not verify is a failure */
         if ((rows[i].status != RUN_OK && rows[i].status != RUN_INVALID) || (rows[i].status == RUN_OK && !rows[i].verified))
            rc = 1;
   }
   OutFile_discard(f);
   free(A);
   free(B);
   free(rows);
   free(r);
   bool stuck = s && Session_stuck(s);
   Session_close(s);
   Catalog_free(&cat);
   if (stuck)
      Cli_leave(rc ? rc : 1);
   return rc;
}
