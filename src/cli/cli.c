#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/diskcache.h"
#include "base/rng.h"
#include "base/util.h"
#include "cli/recorder.h"
#include "cli/report.h"
#include "core/analyse/banks.h"
#include "core/model/npy.h"
#include "core/run/peaks.h"
#include "core/run/trial.h"
#include "core/model/shapes.h"

Selection Cli_selection(const CommandArgs *o) {
   Selection sel = {.backend = o->sel->backend, .device = o->sel->device, .kernel = o->sel->kernel, .preset = o->sel->preset,
                    .sets = o->sel->sets, .nsets = o->sel->nsets, .problem = o->shape->problem, .has_m = o->shape->has_m, .has_n = o->shape->has_n,
                    .has_k = o->shape->has_k, .has_precision = o->shape->has_precision, .has_layout = o->shape->has_layout,
                    .has_alpha = o->shape->has_alpha, .has_beta = o->shape->has_beta,
                    .has_scaling = o->shape->has_scaling};
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
   if (cat->notes[0])
      fprintf(stderr, "gemmtop: kernels replaced by a later folder's:\n%s", cat->notes);
   return true;
}

/* The errno of a write to standard output that failed before the end (stdio flags the
 * stream and keeps going); a later call may have replaced errno, so only the errors a
 * write can give are taken from it. */
static int writeErrno(void) {
   switch (errno) {
   case ENOSPC:
   case EIO:
   case EPIPE:
   case EFBIG:
   case EDQUOT:
      return errno;
   default:
      return 0;
   }
}

void Cli_closeStdout(void) {
   bool failed = ferror(stdout) != 0;
   int e = failed ? writeErrno() : 0;
   if (fflush(stdout) != 0) {
      failed = true;
      e = errno;
   }
   if (fclose(stdout) != 0 && errno != EBADF && !failed) {
      failed = true;
      e = errno;
   }
   if (failed) {
      fprintf(stderr, "gemmtop: write error on standard output%s%s\n", e ? ": " : "", e ? strerror(e) : "");
      _exit(1);
   }
}

void Cli_leave(int code) {
   Cli_closeStdout();
   fflush(stderr);
   _exit(code);
}

int Cli_openOutput(const char *option, const char *path, unsigned flags, OutFile **f) {
   *f = NULL;
   if (!path)
      return 0;
   char err[1200];
   OutFileStatus st = OutFile_open(path, flags, f, err, sizeof err);
   if (st == OUTFILE_OK)
      return 0;
   fprintf(stderr, "gemmtop: %s %s\n", option, err);
   return st == OUTFILE_REFUSED ? 2 : 1;
}

/* --backend, or the first backend; prints why there is none of that name. */
static const Backend *pickBackend(const CommandArgs *o) {
   char err[256];
   const Backend *b = Select_backend(o->sel->backend, err, sizeof err);
   if (!b)
      fprintf(stderr, "gemmtop: %s\n", err);
   return b;
}

/* "--backend cuda (--arch sm_90) or --backend hip (--arch gfx906)": those that compile offline. */
static void offlineBackends(char *out, size_t len) {
   size_t used = 0;
   out[0] = '\0';
   for (int i = 0; i < Backend_count() && used < len; i++) {
      const Backend *be = Backend_at(i);
      if (be->offline)
         used += (size_t)snprintf(out + used, len - used, "%s--backend %s (--arch %s)", used ? " or " : "", be->name,
                                  be->offline->arch_example);
   }
}

const Backend *Cli_offlineBackend(const CommandArgs *o) {
   const Backend *be = o->sel->backend ? Backend_byName(o->sel->backend) : NULL;
   if (!be || !be->offline) {
      char which[256];
      offlineBackends(which, sizeof which);
      fprintf(stderr, "gemmtop: --arch compiles without a device: use it with %s\n", which);
      return NULL;
   }
   const BackendOffline *off = be->offline;
   if (strncmp(o->inspect->arch, off->arch_prefix, strlen(off->arch_prefix)) != 0) {
      fprintf(stderr, "gemmtop: --arch %s: the %s backend compiles for %s architectures (e.g. %s)\n", o->inspect->arch,
              be->title, off->arch_prefix, off->arch_example);
      return NULL;
   }
   return be;
}

bool Cli_computeUnitsFit(const CommandArgs *o, const char *what) {
   if (!o->inspect->compute_units || o->inspect->arch)
      return true;
   fprintf(stderr, "gemmtop: --compute-units describes the device of %s for --arch; without --arch the device's own "
                   "count is used\n", what);
   return false;
}

Session *Cli_openSession(const CommandArgs *o, const Catalog *cat, int *exit_code) {
   Selection sel = Cli_selection(o);
   char err[1536];
   Session *s = Select_openSession(&sel, cat, exit_code, err, sizeof err);
   if (!s)
      fprintf(stderr, "gemmtop: %s\n", err);
   return s;
}

int Cli_checkScalars(const CommandArgs *o, const Problem *p, bool random_inputs) {
   Selection sel = Cli_selection(o);
   char err[512];
   if (Select_checkScalars(&sel, p, random_inputs, err, sizeof err))
      return 0;
   fprintf(stderr, "gemmtop: %s\n", err);
   return 2;
}

int Cli_resolveConfig(const CommandArgs *o, const Catalog *cat, const KernelInfo **kernel, long long *values,
                      Problem *problem) {
   Selection sel = Cli_selection(o);
   Resolved r;
   char err[1536];
   if (!Select_resolve(&sel, cat, &r, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return 2;
   }
   bool random_inputs = !o->io || (!o->io->a_path && !o->io->b_path && !o->io->c_path);
   int rc = Cli_checkScalars(o, &r.problem, random_inputs);
   if (rc)
      return rc;
   *kernel = r.kernel;
   memcpy(values, r.values, sizeof r.values);
   *problem = r.problem;
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
static int devicePeaks(const CommandArgs *o, BackendDevices *bd, int nb) {
   Catalog cat;
   bool haveCatalog = o->list->measure && Cli_loadCatalog(&cat);
   int rc = o->list->measure && !haveCatalog ? 1 : 0;
   for (int b = 0; b < nb; b++) {
      bd[b].peaks = bd[b].n > 0 ? calloc((size_t)bd[b].n, sizeof *bd[b].peaks) : NULL;
      for (int i = 0; bd[b].peaks && i < bd[b].n; i++) {
         if (!haveCatalog) {
            Peaks_cached(&bd[b].devs[i], bd[b].be->name, &bd[b].peaks[i]);
            continue;
         }
         char err[1024];
         if (o->output->format == FORMAT_TABLE) {
            Peaks before;
            Peaks_cached(&bd[b].devs[i], bd[b].be->name, &before);
            fprintf(stderr, "measuring %s device %d (%s): about %.0f s%s...\n", bd[b].be->name, i, bd[b].devs[i].name,
                    Peaks_expectedSeconds(&bd[b].devs[i], &before), before.seconds > 0 ? ", as the last time" : "");
         }
         Session *s = Session_open(bd[b].be, i, &cat, err, sizeof err);
         if (!s || !Peaks_measure(s, &cat, &bd[b].peaks[i], err, sizeof err)) {
            fprintf(stderr, "gemmtop: %s device %d: cannot measure its peaks: %s\n", bd[b].be->name, i, err);
            rc = 1;
         } else if (bd[b].peaks[i].not_measured[0]) {
            fprintf(stderr, "gemmtop: %s device %d: not measured: %s\n", bd[b].be->name, i,
                    bd[b].peaks[i].not_measured);
         }
         if (s && bd[b].peaks[i].known && Peaks_contradict(&bd[b].peaks[i], err, sizeof err))
            fprintf(stderr, "gemmtop: %s device %d: the peaks measured contradict each other: %s\n", bd[b].be->name, i,
                    err);
         Session_close(s);
      }
   }
   if (haveCatalog)
      Catalog_free(&cat);
   return rc;
}

/* With --backend, that backend alone (none found: exit 1, as every command says); else
 * every backend, and the default device marked where the explorer would start: the first
 * backend with a GPU, else the first backend (Select_defaultBackend). */
static int listDevices(const CommandArgs *o) {
   const Backend *only = o->sel->backend ? pickBackend(o) : NULL;
   if (o->sel->backend && !only)
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
      if (chosen < 0 && Select_hasGpu(bd[b].devs, bd[b].n))
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
      bd[chosen].best = Device_pick(bd[chosen].devs, bd[chosen].n, NULL, pick, sizeof pick);
      rc = devicePeaks(o, bd, nb);
      Report_devicesHeader(stdout, o->output->format);
      for (int b = 0; b < nb; b++) {
         if (o->output->format == FORMAT_TABLE && b > 0)
            putchar('\n');
         if (bd[b].n > 0 || o->output->format == FORMAT_TABLE)
            Report_backendDevices(stdout, o->output->format, bd[b].be, bd[b].devs, bd[b].n, bd[b].best, bd[b].peaks,
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

static int listKernels(const CommandArgs *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   Report_kernels(stdout, o->output->format, &cat);
   Catalog_free(&cat);
   return 0;
}

static int listPresets(const CommandArgs *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   char dir[1024], err[256];
   Preset_defaultDir(cat.dir, dir, sizeof dir);
   PresetList list;
   PresetList_load(&list, dir, err, sizeof err);
   if (list.warnings[0])
      fprintf(stderr, "gemmtop: some presets could not be read:\n%s", list.warnings);
   Report_presets(stdout, o->output->format, &list);
   PresetList_free(&list);
   Catalog_free(&cat);
   return 0;
}

/* gemmtop list shapes [NAME|FILE]: the suites, or one suite's shapes. */
static int listShapes(const CommandArgs *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   char dir[1024] = "", err[1024];
   bool have = Shapes_defaultDir(cat.dir, dir, sizeof dir);
   int rc = 0;
   if (o->npositional > 1) {
      ShapeSuite *suite = malloc(sizeof *suite);
      if (suite && Shapes_resolve(o->positional[1], cat.dir, suite, err, sizeof err))
         Report_shapes(stdout, o->output->format, suite);
      else {
         fprintf(stderr, "gemmtop: %s\n", suite ? err : "out of memory");
         rc = 2;
      }
      free(suite);
   } else {
      ShapeSuites all;
      ShapeSuites_load(&all, have ? dir : NULL);
      if (all.warnings[0])
         fprintf(stderr, "gemmtop: some shape suites could not be read:\n%s", all.warnings);
      Report_shapeSuites(stdout, o->output->format, &all, dir);
      ShapeSuites_free(&all);
   }
   Catalog_free(&cat);
   return rc;
}

static int execList(const CommandArgs *o) {
   static const struct {
      const char *what;
      int (*list)(const CommandArgs *o);
   } kinds[] = {{"devices", listDevices}, {"kernels", listKernels}, {"presets", listPresets},
                {"lessons", Cli_listLessons}, {"shapes", listShapes}};
   const char *what = o->npositional > 0 ? o->positional[0] : "kernels";
   for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
      if (strcmp(what, kinds[i].what))
         continue;
      if (o->npositional > 1 && kinds[i].list != listShapes) {
         fprintf(stderr, "gemmtop: list %s takes no other word ('%s'); only list shapes takes one, a suite\n", what,
                 o->positional[1]);
         return 2;
      }
      return kinds[i].list(o);
   }
   fprintf(stderr, "gemmtop: list what? '%s' is not devices, kernels, presets, lessons or shapes\n", what);
   return 2;
}

/* ---- run ---- */

/* --out: the verified run's C (verified_c), or with --no-verify or --ablate the last launch's, read
 * back now. rc is the run's exit code; returns it, or 1 when the file failed. */
static int writeOut(const CommandArgs *o, Session *s, const Problem *p, OutFile *out, void *verified_c, RunStatus st,
                    int rc) {
   if (!out)
      return rc;
   if (st != RUN_OK && st != RUN_NOT_VERIFIED) {
      OutFile_discard(out);
      fprintf(stderr, "gemmtop: --out %s not written: the run did not finish\n", o->io->out_path);
      return rc;
   }
   char err[1300] = "out of host memory";
   size_t bytes = Problem_sizeC(p) * Precision_size(p->precision);
   void *last = verified_c ? NULL : malloc(bytes ? bytes : 1);
   if (!verified_c && (!last || !Session_readResult(s, last, bytes, err, sizeof err))) {
      OutFile_discard(out);
      fprintf(stderr, "gemmtop: --out %s: %s\n", o->io->out_path, err);
      free(last);
      return 1;
   }
   if (last)
      fprintf(stderr, "gemmtop: note: --out %s holds the last launch's C, not verified (--no-verify)\n", o->io->out_path);
   bool ok = Npy_writeTo(out, verified_c ? verified_c : last, (size_t)p->m, (size_t)p->n,
                         Types_of(p->precision)->fp64 ? NPY_FLOAT64 : NPY_FLOAT32, err, sizeof err);
   if (!ok)
      fprintf(stderr, "gemmtop: --out %s: %s\n", o->io->out_path, err);
   free(last);
   return ok ? rc : 1;
}

bool Cli_endsWith(const char *s, const char *suffix) {
   size_t n = strlen(s), m = strlen(suffix);
   return n >= m && !strcmp(s + n - m, suffix);
}

/* The trial's observer for the results store: a run that reached the device, and the
 * vendor library's figures when timed beside it. */
typedef struct RunRecording_ {
   const CommandArgs *o;
   const Session *s;
} RunRecording;

static void recordRun(void *ctx, const TrialRequest *rq, const TrialOutcome *out) {
   const RunRecording *rr = ctx;
   if (out->stopped_at != TRIAL_DONE)
      return; /* refused, or no inputs: nothing was measured */
   Recorder rec;
   Recorder_open(&rec, rr->o);
   StoreRecord recs[2];
   RecordPlace at = {Session_backend(rr->s)->name, Session_device(rr->s)};
   int n = 0;
   Record_fromRun(&recs[n++], "run", &at, rq->kernel, rq->values, rq->problem, out->result->status, out->result);
   if (out->vendor_ran)
      Record_fromVendor(&recs[n++], &at, rq->problem, rq->vendor_result);
   Recorder_add(&rec, recs, n);
   Recorder_close(&rec);
}

/* The run's report (with the vendor library's, timed in the same process when asked and
 * comparable), its record in the store, and why it failed on stderr. */
/* explain --save: the roofline as an SVG (core/analyse/limiter.h). Returns the exit code. */
static int saveRoofline(const CommandArgs *o, OutFile *svg, const KernelInfo *k, const long long *values,
                        const LimiterInputs *li, const Limiter *lim, const DeviceInfo *dev) {
   char params[512], title[800], label[700], err[1300];
   KernelInfo_formatParams(k, values, params, sizeof params);
   snprintf(title, sizeof title, "Roofline: %s on %s", k->name, dev->name);
   snprintf(label, sizeof label, "%s %s", k->name, params);
   char *text = Limiter_svg(li, lim, title, label);
   if (!text) {
      OutFile_discard(svg);
      fprintf(stderr, "gemmtop: --save %s not written: %s\n", o->output->save,
              li->peak_gflops > 0 && li->copy_gbps > 0 ? "out of host memory"
                                                       : "the device's ceilings are not measured, so there is no roof "
                                                         "(gemmtop list devices --measure)");
      return 1;
   }
   fputs(text, OutFile_stream(svg));
   free(text);
   if (!OutFile_commit(svg, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --save %s\n", err);
      return 1;
   }
   fprintf(stderr, "roofline written to %s\n", o->output->save);
   return 0;
}

/* From a trace of one work-group (the bank pane's, with the global loads of A and B on a
 * problem of at least 256 each way where loads): the local-memory wavefronts over the ideal,
 * for the limiter's rule on conflicts, how the loads coalesce and the local stores; 0 where
 * the trace fails (said on stderr: the limiter then goes without) or has none. */
static LimiterTrace traceRatios(const CommandArgs *o, Session *s, const KernelInfo *k, const long long *values,
                                const Problem *p, bool banked, bool loads) {
   BankAnalysis a;
   Coalescing c;
   Problem traced;
   char why[1024];
   LimiterTrace t = {0};
   static const BanksOptions deviceModel = {0}; /* run and explain take no bank options: the device's */
   const BanksOptions *bk = o->banks ? o->banks : &deviceModel;
   if (BankAnalysis_ofConfig(&a, s, k, values, p, 1, bk->count, bk->bank_width, bk->simd_width, loads ? &c : NULL,
                             &traced, why, sizeof why) == RUN_OK) {
      t = LimiterTrace_of(&a, loads ? &c : NULL, banked, k, values, &traced, Session_device(s));
   } else
      fprintf(stderr, "gemmtop: the trace for the limiter: %s (it goes without)\n", why);
   BankAnalysis_free(&a);
   return t;
}

static int reportRun(const CommandArgs *o, Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                     uint64_t seed, const RunOptions *ro, RunResult *r, const VendorResult *vendor, bool explain,
                     OutFile *svg) {
   int rc = 0;
   RunStatus st = r->status;
   Peaks peaks;
   Peaks_cached(Session_device(s), Session_backend(s)->name, &peaks);
   if (o->timing->vendor && o->timing->ablate)
      fprintf(stderr, "gemmtop: --vendor ignored: an ablated run is not compared with the vendor BLAS\n");
   else if (o->timing->vendor && r->geo.emulated)
      fprintf(stderr, "gemmtop: --vendor ignored: an emulated tensor kernel is not compared with the vendor BLAS\n");
   Report_run(stdout, o->output->format, Session_backend(s)->name, Session_device(s), k, values, p, seed, ro, r, &peaks,
              vendor);
   if (explain && r->reps > 0) { /* what limits it (core/analyse/limiter.h) */
      LimiterInputs li;
      Limiter lim;
      /* Conflicts are judged where the kernel uses local memory and the bank model is the
       * device's own (a CPU has no banks: conflicts there would be a GPU's). */
      long long local = r->local_mem >= 0 ? r->local_mem : r->geo.localmem;
      const DeviceInfo *dev = Session_device(s);
      /* A build's static local memory, or its dynamic shared memory where the kernel reads
       * it itself (tensor step 5 on CUDA; a TMA kernel's is wgmma's, which no trace sees). */
      bool banked = (local > 0 || (r->geo.dynamic_smem > 0 && k->ntma == 0)) && BankModel_forDevice(dev).known;
      /* The global loads' coalescing where they pass the L1 as local memory does (NVIDIA;
       * TMA's copies do not). */
      bool loads = Limiter_loadsThroughL1(dev, k) && !r->ablate;
      LimiterRun run = LimiterRun_of(r);
      if (o->timing->judge_ms > 0) { /* another tool's time of this kernel, at its clock */
         run.median_ms = o->timing->judge_ms;
         run.gflops = 2.0 * p->m * p->n * p->k / (o->timing->judge_ms * 1e6);
         run.sm_mhz = o->timing->judge_mhz;
         char clock[64] = " (its clock unknown: the peaks' own taken)";
         if (run.sm_mhz > 0)
            snprintf(clock, sizeof clock, " at %.0f MHz", run.sm_mhz);
         if (o->output->format == FORMAT_TABLE)
            printf("\njudged     the time given (--judge-ms): %.6g ms, %.4g GFLOPS%s, not this run's %.6g ms\n",
                   run.median_ms, run.gflops, clock, r->median_ms);
      }
      LimiterTrace trace = {0};
      if (banked || loads)
         trace = traceRatios(o, s, k, values, p, banked, loads);
      Limiter_inputs(dev, k, values, p, &run, &peaks, &trace, &li);
      Limiter_of(&li, &lim);
      Report_limits(stdout, o->output->format, &li, &lim);
      if (o->output->format == FORMAT_TABLE && local > 0 && !banked)
         printf("banks      not judged: %s (gemmtop banks shows the trace under it)\n",
                Session_device(s)->type == DEVICE_CPU ? "a CPU has no local-memory banks, its bank model is assumed"
                                                      : "this device's bank model is only assumed");
      if (svg)
         rc = saveRoofline(o, svg, k, values, &li, &lim, Session_device(s));
   } else if (svg) {
      OutFile_discard(svg);
      fprintf(stderr, "gemmtop: --save %s not written: the run has no figure to place\n", o->output->save);
      rc = 1;
   }
   if (st == RUN_INVALID)
      fprintf(stderr, "gemmtop: refused: %s\n", r->message);
   else if (st == RUN_COMPILE_ERROR)
      fprintf(stderr, "gemmtop: %s\n%s\n", r->message, r->build_log ? r->build_log : "(no build log)");
   else if (st != RUN_OK)
      fprintf(stderr, "gemmtop: %s: %s\n", RunStatus_name(st), r->message);
   return rc;
}

/* run, and explain: the same run with what limits it after it. */
static int runCommand(const CommandArgs *o, bool explain) {
   const double t0 = Util_nowMs();
   /* An ablated C is wrong on purpose: it may be written (to study what a switch leaves),
    * but only under a name that says so, never where a result is expected. */
   if (o->io->out_path && o->timing->ablate && !Cli_endsWith(o->io->out_path, ".ablated.npy")) {
      fprintf(stderr, "gemmtop: --out with --ablate: an ablated kernel computes a wrong C on purpose, so it is "
                      "written only to a file named *.ablated.npy (got %s); or drop --ablate\n", o->io->out_path);
      return 2;
   }
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   OutFile *out = NULL, *svg = NULL;
   /* explain --save: an SVG roofline, named so. */
   if (explain && o->output->save && !Cli_endsWith(o->output->save, ".svg")) {
      fprintf(stderr, "gemmtop: explain --save writes the roofline as an SVG image: name the file *.svg (got %s)\n",
              o->output->save);
      Catalog_free(&cat);
      return 2;
   }
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   if (rc || (rc = Cli_openOutput("--out", o->io->out_path, 0, &out)) ||
       (explain && (rc = Cli_openOutput("--save", o->output->save, 0, &svg)))) {
      OutFile_discard(out);
      Catalog_free(&cat);
      return rc;
   }
   int exit_code;
   Session *s = Cli_openSession(o, &cat, &exit_code);
   if (!s) {
      OutFile_discard(out);
      Catalog_free(&cat);
      return exit_code;
   }
   uint64_t seed = o->timing->has_seed ? o->timing->seed : Rng_freshSeed();
   RunResult *r = calloc(1, sizeof *r);
   VendorResult *vendor = o->timing->vendor ? calloc(1, sizeof *vendor) : NULL;
   size_t bytesC = Problem_sizeC(&p) * Precision_size(p.precision);
   /* An ablated run is never verified: its --out (*.ablated.npy) is the last launch's C. */
   bool keep_verified = out && !o->timing->no_verify && !o->timing->ablate;
   void *verified_c = keep_verified ? malloc(bytesC ? bytesC : 1) : NULL;
   Inputs in;
   bool have_in = false;
   if (!r || (keep_verified && !verified_c) || (o->timing->vendor && !vendor)) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
      goto done_session;
   }
   /* Random inputs, or read from .npy files (a note for each narrowed file), checked so that
    * a result that cannot be finite is refused, not blamed on the kernel. --max-seconds also
    * bounds each launch: one that does not end is abandoned. */
   const InputFiles files = {.a = o->io->a_path, .b = o->io->b_path, .c = o->io->c_path,
                             .a_scale = o->io->a_scale_path, .b_scale = o->io->b_scale_path};
   RunRecording recording = {o, s};
   TrialRequest rq = {
       .kernel = k, .values = values, .problem = &p,
       .inputs_from = TRIAL_INPUTS_HELD, .seed = seed, .held = &in, .have_held = &have_in, .files = &files,
       .run = {.reps = o->timing->reps, .warmup = o->timing->warmup, .verify = !o->timing->no_verify,
               .max_seconds = o->timing->max_seconds, .ablate = o->timing->ablate, .verified_c = verified_c,
               .launch_timeout_s = o->timing->max_seconds, .cold_l2 = o->timing->cold_l2, .observe = true,
               .verify_on = o->timing->verify_on},
       .vendor = &(RunOptions){.reps = o->timing->reps, .warmup = o->timing->warmup, .verify = true,
                               .cold_l2 = o->timing->cold_l2, .observe = true, .vendor_bf16 = o->timing->vendor_bf16,
                               .verify_on = o->timing->verify_on},
       .vendor_result = vendor,
       .observers = {{recordRun, &recording}},
       .nobservers = 1,
   };
   if (!o->timing->vendor)
      rq.vendor = NULL;
   TrialOutcome outcome;
   const double setup_ms = Util_nowMs() - t0;
   RunStatus st = Trial_run(s, &rq, r, &outcome);
   if (outcome.inputs_note[0])
      fprintf(stderr, "gemmtop: note: %s\n", outcome.inputs_note);
   if (outcome.stopped_at == TRIAL_CHECK) {
      /* The device before the parameters: no parameter makes a kernel run where its
       * instructions cannot, and the rules' hints would send the user the wrong way. */
      RunOptions none = {.warmup = o->timing->warmup};
      Report_run(stdout, o->output->format, Session_backend(s)->name, Session_device(s), k, values, &p, seed, &none, r, NULL, NULL);
      fprintf(stderr, "gemmtop: refused: %s\n", r->message);
      rc = 2;
      goto done_session;
   }
   if (outcome.stopped_at < TRIAL_RUN) { /* the device's memory, or the inputs */
      fprintf(stderr, "gemmtop: %s\n", r->message);
      rc = st == RUN_INVALID ? 2 : 1;
      goto done_session;
   }
   r->phases.ms[PHASE_SETUP] += setup_ms;
   int src = reportRun(o, s, k, values, &p, seed, &rq.run, r, outcome.vendor_ran ? vendor : NULL, explain, svg);
   svg = NULL;
   rc = writeOut(o, s, &p, out, verified_c, st, RunStatus_exitCode(st));
   if (rc == 0)
      rc = src;
   out = NULL;
done_session:
   if (have_in)
      Inputs_free(&in);
   free(vendor);
   OutFile_discard(out);
   OutFile_discard(svg);
   free(verified_c);
   if (r)
      RunResult_free(r);
   free(r);
   bool stuck = Session_stuck(s);
   Session_close(s);
   Catalog_free(&cat);
   if (stuck)
      Cli_leave(rc); /* the abandoned launch ends with the process */
   return rc;
}

/* --vendor-output bfloat16 asks for the vendor library's C in bfloat16: only beside --vendor,
 * and only where gemmtop times the library itself (a class server times it with its own C). */
static int checkVendorOutput(const CommandArgs *o) {
   if (!o->timing->vendor_bf16)
      return 0;
   if (Cli_server(o)) {
      fprintf(stderr, "gemmtop: --vendor-output bfloat16 is not sent to a class server, which times the vendor "
                      "library with gemmtop's C; drop --server or --vendor-output\n");
      return 2;
   }
   if (!o->timing->vendor) {
      fprintf(stderr, "gemmtop: --vendor-output bfloat16 is the vendor library's C: give --vendor too\n");
      return 2;
   }
   return 0;
}

static int execRun(const CommandArgs *o) {
   int rc = checkVendorOutput(o);
   return rc ? rc : Cli_server(o) ? Cli_runRemote(o) : runCommand(o, false);
}

static int execExplain(const CommandArgs *o) {
   if (o->timing->judge_mhz > 0 && !(o->timing->judge_ms > 0)) {
      fprintf(stderr, "gemmtop: --judge-mhz is the clock of a time given with --judge-ms: give both, or neither\n");
      return 2;
   }
   if (o->inspect->arch)
      return Cli_explainOffline(o);
   if (o->inspect->device_file || o->timing->bank_ratio > 0 || o->timing->load_ratio > 0 ||
       o->timing->store_wavefronts > 0) {
      fprintf(stderr, "gemmtop: %s describes where a time was taken for explain --arch (no device here); with a "
                      "device, explain runs and traces the kernel itself\n",
              o->inspect->device_file      ? "--device-file"
              : o->timing->bank_ratio > 0 ? "--bank-ratio"
              : o->timing->load_ratio > 0 ? "--load-ratio"
                                          : "--store-wavefronts");
      return 2;
   }
   int rc = checkVendorOutput(o);
   return rc ? rc : runCommand(o, true);
}

/* ---- cache ---- */

static int execCache(const CommandArgs *o) {
   const char *what = o->npositional > 0 ? o->positional[0] : "";
   if (strcmp(what, "clear") != 0) {
      fprintf(stderr, "gemmtop: cache takes 'clear'\n");
      return 2;
   }
   char dir[1024];
   int temporaries = 0;
   /* Each backend keeps its own folder, named as the backend is. */
   const char *folders[16];
   int nfolders = 0;
   for (int b = 0; b < Backend_count() && nfolders < 16; b++)
      folders[nfolders++] = Backend_at(b)->name;
   int n = DiskCache_clear(folders, nfolders, dir, sizeof dir, &temporaries);
   if (n < 0) {
      fprintf(stderr, "gemmtop: cannot find the cache folder (no HOME or XDG_CACHE_HOME)\n");
      return 1;
   }
   printf("removed %d compiled program%s", n, n == 1 ? "" : "s");
   if (temporaries)
      printf(" and %d unfinished file%s of killed writers", temporaries, temporaries == 1 ? "" : "s");
   printf(" from %s\n", dir);
   return 0;
}

/* No command: the explorer, which main.c starts (the command line does not see the UI). */
static int execExplorer(const CommandArgs *o) { return CLI_START_EXPLORER; }

const CommandEntry Cli_explorerCommand = {
    .name = "",
    .groups = GROUPS_CONFIGURED | IN_GROUP(TIMING) | IN_GROUP(STORAGE) | IN_GROUP(SWEEP) | IN_GROUP(BANKS) |
              IN_GROUP(CLASS),
    .words = "",
    .summary = "the interactive explorer",
    .max_positional = 0,
    .exec = execExplorer,
};

const CommandEntry Cli_listCommand = {
    .name = "list",
    .groups = IN_GROUP(SELECTION) | IN_GROUP(OUTPUT) | IN_GROUP(LIST) | IN_GROUP(GENERAL),
    .words = "[devices|kernels|presets|lessons|shapes [SUITE]]",
    .summary = "devices, kernel variants, presets, lessons or shape suites",
    .max_positional = 2,
    .exec = execList,
};

const CommandEntry Cli_runCommand = {
    .name = "run",
    .groups = GROUPS_CONFIGURED | IN_GROUP(TIMING) | IN_GROUP(IO) | IN_GROUP(STORAGE) | IN_GROUP(CLASS),
    .words = "",
    .summary = "one verified, timed run (here, or on a class server with --server)",
    .max_positional = 0,
    .exec = execRun,
};

const CommandEntry Cli_explainCommand = {
    .name = "explain",
    .groups = GROUPS_CONFIGURED | IN_GROUP(TIMING) | IN_GROUP(IO) | IN_GROUP(STORAGE) | IN_GROUP(INSPECT),
    .words = "",
    .summary = "one run, and what limits it: ceilings, roofline, waves, the limiter in words",
    .max_positional = 0,
    .exec = execExplain,
};

const CommandEntry Cli_cacheCommand = {
    .name = "cache",
    .groups = IN_GROUP(GENERAL),
    .words = "clear",
    .summary = "forget compiled programs kept on disk",
    .max_positional = 1,
    .exec = execCache,
};
