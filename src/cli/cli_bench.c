/* gemmtop bench: chosen configurations and the vendor BLAS, in one process, on the same
 * device and inputs, across sizes; a table (or CSV, JSON) of GFLOPS and % of vendor per size.
 *   gemmtop bench [--preset P | --kernel K --set ...] [PRESET ...] [--sizes 1024,64x64x128]
 * With no configuration, every shipped preset (the ladder) is benchmarked. With --shapes
 * and --best, a column takes at each shape the best configuration the results store holds
 * for this device (core/results/results.h: Results_shapeBest, what gemmtop tune ships). Each
 * configuration is compared with the vendor library in its own precision. On a CPU the
 * bench says first about how long it will take; Ctrl-C stops it after the launch in
 * progress and prints what was measured. */
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/recorder.h"
#include "cli/report.h"
#include "core/model/shapes.h"
#include "base/rng.h"
#include "core/analyse/limiter.h"
#include "core/results/record.h"
#include "core/results/results.h"
#include "core/sweep/measurer.h"
#include "core/run/peaks.h"
#include "core/run/trial.h"
#include "base/util.h"

#define BENCH_MAX_ROUNDS 32
#define BENCH_MAX_SIZES SHAPES_MAX /* --sizes takes OPTIONS_MAX_SIZES; a shape suite more */
#define BENCH_EXIT_INTERRUPTED 130 /* as a shell reports a process ended by SIGINT */
#define BENCH_TYPES (PRECISION_COUNT * SCALING_COUNT) /* a vendor figure per type and scaling */

/* A kernel and its parameter values. */
typedef struct BenchPick_ {
   const KernelInfo *kernel; /* NULL: none (--best, where the store has none for the shape) */
   long long values[KERNEL_MAX_PARAMS];
} BenchPick;

typedef struct BenchConfig_ {
   char label[64];
   const KernelInfo *kernel;
   long long values[KERNEL_MAX_PARAMS];
   Problem problem;      /* precision, layout, alpha, beta; sizes come from --sizes */
   int prec;             /* its type's index in Bench.precs: the vendor figure it is compared with */
   BenchPick *picks;     /* --best: each size's own configuration instead of kernel and values; else NULL */
} BenchConfig;

typedef struct BenchCell_ {
   RunStatus status;
   bool emulated;        /* tensor instructions emulated: its GFLOPS are not compared with the vendor's */
   int rounds;           /* rounds measured (fewer than --rounds when interrupted) */
   double gflops, ms;
   char message[256];
   bool has_err;         /* max_rel_err was measured: the first round verified here */
   double max_rel_err;   /* that round's worst sampled error (verify.h), given beside the speed */
   Observation obs;      /* the driver's figures in the last round (obs.known false: none) */
   int registers;        /* per work-item as built (0: not known, as on a class server) */
   long long local_mem;  /* static local memory per group as built */
   StoreRecord rec;      /* its verified round (or its failure), for the results store */
} BenchCell;

/* A vendor library at one precision and size, with its rounds. */
typedef struct BenchLib_ {
   VendorResult result;
   int rounds;
   double gflops[BENCH_MAX_ROUNDS];
} BenchLib;

/* A bench: its configurations, sizes and results, and the sessions that measure them. */
typedef struct Bench_ {
   const CommandArgs *o;
   Session *s;
   Session *ref;             /* --reference's session, or NULL */
   const Backend *be;
   const DeviceInfo *dev;
   BenchConfig *configs;
   int nconf, cap;
   BenchSize sizes[BENCH_MAX_SIZES];
   int nsizes;
   char suite[64];           /* --shapes: the suite's name ("" for --sizes) */
   ShapeSuite *shapes;       /* --shapes: the suite; else NULL */
   int measured;             /* sizes begun (all of them unless interrupted) */
   Problem precs[BENCH_TYPES];       /* the configurations' types (precision, and scaling for FP8), in order of
                                      * appearance: each has its own inputs and vendor figure */
   char prec_label[BENCH_TYPES][32]; /* "bfloat16", "e4m3 block" */
   int nprec;
   BenchCell *cells;         /* [config * BENCH_MAX_SIZES + size] */
   BenchLib vendor[BENCH_TYPES][BENCH_MAX_SIZES], reference[BENCH_TYPES][BENCH_MAX_SIZES];
   double *cg, *cms;         /* one size's rounds of the configurations: [config * BENCH_MAX_ROUNDS + round] */
   RunResult *r;
   Recorder rec;             /* the results store */
   const char *server;       /* a class server measures (--server): its device described here */
   int server_device;
   DeviceInfo server_dev;
   Measurer **measurers;     /* on the server: one connection per configuration, for a size */
} Bench;

/* Set by SIGINT: every run and vendor call stops between launches. */
static atomic_int interrupted;

static void onInterrupt(int sig) {
   (void)sig;
   atomic_store(&interrupted, 1);
}

static BenchCell *cellOf(const Bench *b, int c, int si) { return &b->cells[c * BENCH_MAX_SIZES + si]; }

/* Configuration c's kernel at size si and its values: --best's own for the shape (NULL
 * where the store has none), else the configuration's. */
static const KernelInfo *kernelAt(const Bench *b, int c, int si, const long long **values) {
   const BenchConfig *cf = &b->configs[c];
   if (cf->picks) {
      *values = cf->picks[si].values;
      return cf->picks[si].kernel;
   }
   *values = cf->values;
   return cf->kernel;
}

static bool square(const BenchSize *z) { return z->m == z->n && z->n == z->k; }

/* "1024" or "64x64x128". */
static void sizeLabel(const BenchSize *z, char *out, size_t len) {
   if (square(z))
      snprintf(out, len, "%d", z->m);
   else
      snprintf(out, len, "%dx%dx%d", z->m, z->n, z->k);
}

/* How a message names a size: a shape's label and its size, else the size. */
static void sizeName(const BenchSize *z, char *out, size_t len) {
   char size[48];
   sizeLabel(z, size, sizeof size);
   if (z->label[0])
      snprintf(out, len, "%s (%s)", z->label, size);
   else
      snprintf(out, len, "%s", size);
}

static bool addPreset(const CommandArgs *o, const Catalog *cat, const Preset *pr, BenchConfig *c) {
   const KernelInfo *k;
   char err[3300];
   Problem_setDefaults(&c->problem);
   if (!Preset_resolve(pr, cat, &k, c->values, &c->problem, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      return false;
   }
   const Selection sel = Cli_selection(o); /* its sizes are --sizes', not given here */
   Select_applyProblem(&sel, &c->problem);
   if (Cli_checkScalars(o, &c->problem, true) != 0)
      return false;
   c->kernel = k;
   snprintf(c->label, sizeof c->label, "%s", pr->name);
   return true;
}

/* One round of a vendor library: its figure goes to lib->gflops; the first round's result
 * (name, verification) is kept, a failure in any round is the result. Verified in the
 * first round only, as the configurations are. An interruption keeps the rounds done. */
/* A job for the class server: p with kernel k (NULL: the vendor library). */
static MeasureJob serverJob(const Bench *b, const KernelInfo *k, const Problem *p, uint64_t seed) {
   const CommandArgs *o = b->o;
   return MeasureJob_forServer(b->server, b->server_device, k, p, seed, o->timing->reps,
                               o->timing->warmup, o->timing->max_seconds, o->timing->cold_l2);
}

static void benchVendor(const Bench *b, Session *s, const Problem *p, const Inputs *in, int round, BenchLib *lib) {
   const CommandArgs *o = b->o;
   if (round > 0 && lib->result.status != RUN_OK)
      return;
   VendorResult now;
   RunOptions ro = {.reps = o->timing->reps, .warmup = o->timing->warmup, .verify = round == 0, .cancel = &interrupted,
                    .cold_l2 = o->timing->cold_l2, .observe = true, .vendor_bf16 = o->timing->vendor_bf16,
                    .verify_on = o->timing->verify_on};
   VendorResult *got = round == 0 ? &lib->result : &now;
   if (b->server) {
      /* On the class server: a request of its own each round, verified there. */
      MeasureJob j = serverJob(b, NULL, p, Rng_freshSeed());
      Measurer *m = Measurer_new(&j);
      char name[256] = "out of memory";
      double gflops = m ? Measurer_vendor(m, name, sizeof name) : 0;
      Measurer_free(m);
      Measurer_vendorResult(gflops, name, p, o->timing->reps, got);
   } else
      Session_vendor(s, p, in, &ro, got);
   if (got->status == RUN_OK)
      lib->gflops[lib->rounds++] = got->gflops;
   if (round > 0 && now.status != RUN_OK && now.status != RUN_CANCELLED)
      lib->result = now;
   else if (round > 0 && now.status == RUN_OK && now.obs.known)
      lib->result.obs = now.obs;
}

/* Each configuration's type gets an index in b->precs: one vendor figure each. The FP8
 * types' scalings are types of their own here (cuBLASLt's per-tensor and block-scaled
 * GEMMs are different calls, and the inputs are quantised differently). */
static void collectPrecisions(Bench *b) {
   for (int c = 0; c < b->nconf; c++) {
      const Problem *p = &b->configs[c].problem;
      int i = 0;
      while (i < b->nprec && !(b->precs[i].precision == p->precision &&
                               (!Problem_scaled(p) || b->precs[i].scaling == p->scaling)))
         i++;
      if (i == b->nprec) {
         b->precs[b->nprec] = *p;
         Problem_typeLabel(p, b->prec_label[b->nprec], sizeof b->prec_label[b->nprec]);
         b->nprec++;
      }
      b->configs[c].prec = i;
   }
}

/* The configurations: --kernel or --preset, then the presets named as arguments; with
 * none, every shipped preset. Returns 0, or 2 with the message printed. */
static int collectConfigs(Bench *b, const Catalog *cat) {
   const CommandArgs *o = b->o;
   char dir[1024], err[1536];
   PresetList list;
   Preset_defaultDir(cat->dir, dir, sizeof dir);
   PresetList_load(&list, dir, err, sizeof err);
   int rc = 0;
   b->cap = 2 + o->npositional + list.count; /* --kernel or --preset, --best, the presets */
   b->configs = calloc((size_t)b->cap, sizeof *b->configs);
   if (!b->configs) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      PresetList_free(&list);
      return 1;
   }
   if (o->sel->kernel || o->sel->preset) {
      BenchConfig *c = &b->configs[b->nconf];
      rc = Cli_resolveConfig(o, cat, &c->kernel, c->values, &c->problem);
      if (rc == 0) {
         snprintf(c->label, sizeof c->label, "%s", o->sel->preset ? o->sel->preset : c->kernel->name);
         b->nconf++;
      }
   }
   for (int i = 0; rc == 0 && i < o->npositional; i++) {
      const Preset *pr = PresetList_find(&list, o->positional[i]);
      if (!pr) {
         char why[1280];
         PresetList_missing(&list, o->positional[i], why, sizeof why);
         fprintf(stderr, "gemmtop: %s\n", why);
         rc = 2;
      } else if (addPreset(o, cat, pr, &b->configs[b->nconf])) {
         b->nconf++;
      } else {
         rc = 2;
      }
   }
   if (rc == 0 && b->nconf == 0 && !o->bench->best)
      for (int i = 0; i < list.count; i++)
         if (!list.items[i].user && addPreset(o, cat, &list.items[i], &b->configs[b->nconf]))
            b->nconf++;
   PresetList_free(&list);
   if (rc == 0 && b->nconf == 0 && !o->bench->best) {
      fprintf(stderr, "gemmtop: nothing to benchmark: give --kernel, --preset or preset names\n");
      rc = 2;
   }
   collectPrecisions(b);
   return rc;
}

/* --best: a column whose configuration at each shape is the best the results store holds
 * for this device, backend, type and layout, with the kernel's file as it is now (what
 * gemmtop tune ships: Results_shapeBest). A shape with none gets none. 0, or the exit code
 * with the message printed. */
static int addBest(Bench *b, const Catalog *cat) {
   const CommandArgs *o = b->o;
   BenchConfig *c = &b->configs[b->nconf];
   const Selection sel = Cli_selection(o);
   Problem_setDefaults(&c->problem);
   Select_applyProblem(&sel, &c->problem);
   int rc = Cli_checkScalars(o, &c->problem, true);
   c->picks = calloc(BENCH_MAX_SIZES, sizeof *c->picks);
   DispatchEntry *e = calloc(BENCH_MAX_SIZES, sizeof *e);
   if (!rc && (!c->picks || !e)) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
   }
   char err[1536];
   Store *st = rc ? NULL : Store_openReadOnly(o->storage->path, err, sizeof err);
   if (!rc && !st)
      fprintf(stderr, "gemmtop: --best: %s: every shape has no stored configuration\n", err);
   ResultSet set = {0};
   ResultsScope scope = {.cat = cat, .device = b->dev->name, .backend = b->be->name, .limits = &b->dev->limits,
                         .problem = c->problem, .cold_l2 = o->timing->cold_l2};
   if (st && !Results_shapeBest(st, &scope, b->shapes, &set, e, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --best: %s: %s\n", Store_path(st), err);
      rc = 1;
   }
   for (int si = 0; st && !rc && si < b->nsizes; si++) {
      if (e[si].row < 0)
         continue;
      const StoreRecord *r = &set.rows[e[si].row];
      BenchPick *pick = &c->picks[si];
      pick->kernel = Catalog_find(cat, r->kernel); /* Results_keepScope kept what the catalog has and parses */
      if (!pick->kernel || !Record_parseParams(pick->kernel, r->params, pick->values))
         pick->kernel = NULL;
   }
   ResultSet_free(&set);
   Store_close(st);
   free(e);
   if (rc) {
      free(c->picks);
      c->picks = NULL;
      return rc;
   }
   snprintf(c->label, sizeof c->label, "best stored");
   b->nconf++;
   collectPrecisions(b);
   return 0;
}

/* Under a --best table: what the store gave each shape. */
static void printPicks(const Bench *b) {
   for (int c = 0; c < b->nconf; c++) {
      if (!b->configs[c].picks)
         continue;
      printf("%s, each shape's:\n", b->configs[c].label);
      for (int si = 0; si < b->nsizes; si++) {
         const long long *values;
         const KernelInfo *k = kernelAt(b, c, si, &values);
         char params[300] = "";
         if (k)
            KernelInfo_formatParams(k, values, params, sizeof params);
         printf("  %-18.18s %s %s\n", b->sizes[si].label, k ? k->name : "none stored", params);
      }
   }
}

/* --reference: a second session, another runtime on the same device (by name), whose
 * vendor library becomes the yardstick: cuBLAS beside NVIDIA's OpenCL. Absent: reported. */
static void openReference(Bench *b, const Catalog *cat) {
   const CommandArgs *o = b->o;
   char ref_why[512] = "";
   if (Backend_byName(o->bench->reference) == b->be) {
      snprintf(ref_why, sizeof ref_why, "the reference backend is the one being measured (%s)", b->be->name);
   } else {
      SelectionOptions ref_sel = *o->sel;
      ref_sel.backend = o->bench->reference;
      ref_sel.device = b->dev->name;
      CommandArgs ro2 = *o;
      ro2.sel = &ref_sel;
      int ref_rc;
      fflush(stderr);
      b->ref = Cli_openSession(&ro2, cat, &ref_rc);
      if (!b->ref)
         snprintf(ref_why, sizeof ref_why, "no %s device named '%s' (see the message above)", o->bench->reference,
                  b->dev->name);
   }
   if (!b->ref)
      fprintf(stderr, "gemmtop: --reference %s: %s; percentages are of %s's own vendor library\n", o->bench->reference,
              ref_why, b->be->name);
}

/* The vendor's problem at precision index pi and size si: the first configuration of that
 * precision decides its layout and scalars. */
static Problem vendorProblem(const Bench *b, int pi, int si) {
   Problem p = b->configs[0].problem;
   for (int c = 0; c < b->nconf; c++)
      if (b->configs[c].prec == pi) {
         p = b->configs[c].problem;
         break;
      }
   p.m = b->sizes[si].m, p.n = b->sizes[si].n, p.k = b->sizes[si].k;
   return p;
}

/* One round of configuration c at size si on the class server: its connection stays for
 * the size's rounds (the server verifies the first request of each and times all). */
static void serverConfig(Bench *b, int c, int si, int round, const Problem *p, uint64_t seed) {
   BenchCell *cell = cellOf(b, c, si);
   const long long *values;
   const KernelInfo *k = kernelAt(b, c, si, &values);
   Measurer **m = &b->measurers[c];
   if (!*m) {
      MeasureJob j = serverJob(b, k, p, seed);
      *m = Measurer_new(&j);
   }
   SweepCandidate sc;
   memset(&sc, 0, sizeof sc);
   memcpy(sc.values, values, sizeof sc.values);
   if (!*m) {
      sc.outcome = SWEEP_FAILED;
      snprintf(sc.reason, sizeof sc.reason, "out of host memory");
   } else
      Measurer_run(*m, values, k->nparams, &interrupted, &sc);
   RunStatus st = SweepOutcome_runStatus(sc.outcome);
   if (st == RUN_OK) {
      b->cg[c * BENCH_MAX_ROUNDS + cell->rounds] = sc.gflops;
      b->cms[c * BENCH_MAX_ROUNDS + cell->rounds] = sc.median_ms;
      cell->rounds++;
   }
   if (round == 0 || (st != RUN_OK && st != RUN_CANCELLED)) {
      cell->status = st;
      snprintf(cell->message, sizeof cell->message, "%s", st == RUN_OK ? "verified on the server" : sc.reason);
      RecordPlace at = {b->be->name, b->dev};
      if (st != RUN_CANCELLED) {
         Record_fromCandidate(&cell->rec, "bench", &at, k, p, &sc, false, b->o->timing->cold_l2, "");
         cell->rec.reps = st == RUN_OK ? b->o->timing->reps : 0;
      }
   }
}

/* One round of every configuration at size si on the size's inputs (its problem's, made
 * once by the session for every round: Session_inputs). */
static void benchConfigs(Bench *b, int si, int round, uint64_t seed) {
   const CommandArgs *o = b->o;
   char size[112];
   sizeName(&b->sizes[si], size, sizeof size);
   for (int c = 0; c < b->nconf && !atomic_load(&interrupted); c++) {
      BenchCell *cell = cellOf(b, c, si);
      const long long *values;
      const KernelInfo *k = kernelAt(b, c, si, &values);
      if (!k || (round > 0 && cell->status != RUN_OK))
         continue; /* none stored (--best), or failed or invalid in an earlier round: said once */
      Problem p = b->configs[c].problem;
      p.m = b->sizes[si].m, p.n = b->sizes[si].n, p.k = b->sizes[si].k;
      if (b->server) {
         fprintf(stderr, "size %s, round %d of %d: %s on the server...\n", size, round + 1, o->bench->rounds,
                 b->configs[c].label);
         serverConfig(b, c, si, round, &p, seed);
         continue;
      }
      fprintf(stderr, "size %s, round %d of %d: %s...\n", size, round + 1, o->bench->rounds, b->configs[c].label);
      /* Verified in the first round; later rounds time the same program, on the size's
       * inputs (made once by the session for every round). */
      TrialRequest rq = {
          .kernel = k, .values = values, .problem = &p, .inputs_from = TRIAL_INPUTS_SESSION, .seed = seed,
          .run = {.reps = o->timing->reps, .warmup = o->timing->warmup, .verify = round == 0,
                  .max_seconds = o->timing->max_seconds, .launch_timeout_s = o->timing->max_seconds,
                  .cancel = &interrupted, .cold_l2 = o->timing->cold_l2, .observe = true,
                  .verify_on = o->timing->verify_on},
      };
      TrialOutcome outcome;
      RunStatus st = Trial_run(b->s, &rq, b->r, &outcome);
      if (outcome.stopped_at == TRIAL_INPUTS) { /* none measured: nothing to record */
         cell->status = st;
         snprintf(cell->message, sizeof cell->message, "%s", b->r->message);
         continue;
      }
      cell->emulated = b->r->geo.emulated;
      cell->registers = b->r->registers;
      cell->local_mem = b->r->local_mem;
      if (b->r->obs.known)
         cell->obs = b->r->obs;
      if (st == RUN_OK) {
         b->cg[c * BENCH_MAX_ROUNDS + cell->rounds] = b->r->gflops;
         b->cms[c * BENCH_MAX_ROUNDS + cell->rounds] = b->r->median_ms;
         cell->rounds++;
      }
      /* An interruption after the first round keeps the rounds measured. */
      if (round == 0 || (st != RUN_OK && st != RUN_CANCELLED)) {
         cell->status = st;
         snprintf(cell->message, sizeof cell->message, "%s", b->r->message);
         RecordPlace at = {b->be->name, b->dev};
         if (st != RUN_CANCELLED)
            Record_fromRun(&cell->rec, "bench", &at, k, values, &p, st, b->r);
         cell->has_err = b->r->verified_run && b->r->verify.samples > 0;
         cell->max_rel_err = b->r->verify.max_rel_err;
      }
   }
}

/* The libraries' turn in one round at size si, on the configurations' inputs. */
static void benchLibraries(Bench *b, int si, int round, uint64_t seed) {
   const CommandArgs *o = b->o;
   char size[112];
   sizeName(&b->sizes[si], size, sizeof size);
   for (int pi = 0; pi < b->nprec && !atomic_load(&interrupted); pi++) {
      Problem vp = vendorProblem(b, pi, si);
      const char *prec = b->nprec > 1 ? b->prec_label[pi] : "";
      fprintf(stderr, "size %s, round %d of %d: vendor%s%s...\n", size, round + 1, o->bench->rounds, *prec ? " " : "", prec);
      /* (On a class server the inputs are made there.) */
      const Inputs *in = b->server ? NULL : Session_inputs(b->s, &vp, seed);
      if (!b->server && !in) {
         b->vendor[pi][si].result.status = RUN_OUT_OF_MEMORY;
         continue;
      }
      benchVendor(b, b->s, &vp, in, round, &b->vendor[pi][si]);
      if (b->ref) {
         fprintf(stderr, "size %s, round %d of %d: reference (%s)...\n", size, round + 1, o->bench->rounds, o->bench->reference);
         benchVendor(b, b->ref, &vp, in, round, &b->reference[pi][si]);
      }
   }
}

/* Size si's results into the results store: each configuration's (its figures the
 * medians over the rounds) and the vendor libraries' of each precision. What Ctrl-C left
 * unmeasured is not recorded. */
static void recordSize(Bench *b, int si) {
   StoreRecord *recs = calloc((size_t)b->nconf + 2 * (size_t)b->nprec, sizeof *recs);
   if (!recs)
      return;
   int n = 0;
   for (int c = 0; c < b->nconf; c++) {
      BenchCell *cell = cellOf(b, c, si);
      if (cell->status == RUN_CANCELLED && !cell->rounds)
         continue;
      recs[n] = cell->rec;
      if (cell->status == RUN_OK)
         recs[n].gflops = cell->gflops, recs[n].median_ms = cell->ms;
      n += recs[n].origin[0] != '\0'; /* never run (out of memory): nothing to record */
   }
   for (int pi = 0; pi < b->nprec; pi++) {
      Problem vp = vendorProblem(b, pi, si);
      RecordPlace at = {b->be->name, b->dev};
      if (b->vendor[pi][si].result.status != RUN_CANCELLED)
         Record_fromVendor(&recs[n++], &at, &vp, &b->vendor[pi][si].result);
      if (b->ref && b->reference[pi][si].result.status != RUN_CANCELLED) {
         RecordPlace ref = {Session_backend(b->ref)->name, Session_device(b->ref)};
         Record_fromVendor(&recs[n++], &ref, &vp, &b->reference[pi][si].result);
      }
   }
   Recorder_add(&b->rec, recs, n);
   free(recs);
}

/* A library's median over the rounds it measured; a round 0 cut short is "cancelled". */
static void finishLib(BenchLib *lib) {
   if (lib->result.status == RUN_OK && lib->rounds > 0)
      lib->result.gflops = Util_median(lib->gflops, lib->rounds);
}

/* Every round at size si. Rounds: the libraries and the configurations take turns (the
 * libraries first in even rounds, last in odd ones), so that a clock or temperature
 * drift during the run favours neither side; each figure is the median of its rounds'
 * medians. */
static void benchSize(Bench *b, int si) {
   const CommandArgs *o = b->o;
   char err[1536] = "", size[112];
   sizeName(&b->sizes[si], size, sizeof size);
   uint64_t seed = o->timing->has_seed ? o->timing->seed : Rng_freshSeed();
   int made = 0;
   /* Until measured: what Ctrl-C leaves; --best's shape without a stored configuration. */
   for (int c = 0; c < b->nconf; c++) {
      const long long *values;
      BenchCell *cell = cellOf(b, c, si);
      if (!kernelAt(b, c, si, &values)) {
         cell->status = RUN_INVALID;
         snprintf(cell->message, sizeof cell->message, "the results store has no verified configuration for this "
                  "shape on this device, backend, type and layout (gemmtop tune --shapes %s makes them)", b->suite);
         continue;
      }
      cell->status = RUN_CANCELLED;
      snprintf(cell->message, sizeof cell->message, "not measured (interrupted)");
   }
   for (int pi = 0; pi < b->nprec; pi++) {
      b->vendor[pi][si].result.status = b->reference[pi][si].result.status = RUN_CANCELLED;
      Problem vp = vendorProblem(b, pi, si);
      /* Made before the rounds, so that a size too large for the host is said once. (On a
       * class server the inputs are made there.) */
      if (!Session_fitsOn(b->dev, &vp, err, sizeof err) || (!b->server && !Session_inputs(b->s, &vp, seed)))
         break;
      made++;
   }
   if (made < b->nprec) {
      fprintf(stderr, "gemmtop: size %s: %s\n", size, err[0] ? err : "out of host memory");
      for (int c = 0; c < b->nconf; c++)
         cellOf(b, c, si)->status = RUN_OUT_OF_MEMORY;
      for (int pi = 0; pi < b->nprec; pi++)
         b->vendor[pi][si].result.status = RUN_OUT_OF_MEMORY;
      return;
   }
   for (int round = 0; round < o->bench->rounds && !atomic_load(&interrupted); round++)
      for (int turn = 0; turn < 2; turn++) {
         if (turn != round % 2)
            benchConfigs(b, si, round, seed);
         else
            benchLibraries(b, si, round, seed);
      }
   for (int pi = 0; pi < b->nprec; pi++) {
      finishLib(&b->vendor[pi][si]);
      if (b->ref)
         finishLib(&b->reference[pi][si]);
   }
   for (int c = 0; c < b->nconf; c++) {
      BenchCell *cell = cellOf(b, c, si);
      if (cell->status == RUN_OK && cell->rounds > 0) {
         cell->gflops = Util_median(&b->cg[c * BENCH_MAX_ROUNDS], cell->rounds);
         cell->ms = Util_median(&b->cms[c * BENCH_MAX_ROUNDS], cell->rounds);
      }
   }
   for (int c = 0; b->server && c < b->nconf; c++) {
      Measurer_free(b->measurers[c]);
      b->measurers[c] = NULL;
   }
   recordSize(b, si);
}

/* The yardstick of configuration c at size si: the reference library when there is one,
 * else the backend's own, in c's precision. */
static const VendorResult *yardOf(const Bench *b, int c, int si) {
   int pi = b->configs[c].prec;
   return b->ref ? &b->reference[pi][si].result : &b->vendor[pi][si].result;
}

static const char CSV_HEADER[] = "config,kernel,params,device,size,precision,status,verified,gflops,time_ms,vendor,"
                                 "vendor_gflops,pct_of_vendor,reference,reference_gflops,pct_of_reference,rounds,l2,"
                                 "sm_mhz,power_w,energy_j,gflops_per_w,vendor_sm_mhz,vendor_power_w,vendor_energy_j,"
                                 "vendor_gflops_per_w,m,n,k,emulated,shape,weight\n";

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

/* One configuration at one size as a JSON line. */
/* What limits configuration c at size si (core/analyse/limiter.h, docs/limits.md) as a table's
 * column ("compute 85%"); false, col empty, when the device's ceilings are not measured,
 * the run failed or its tensor instructions were emulated. */
static bool limitOf(const Bench *b, int c, int si, char *col, size_t len) {
   const BenchCell *cell = cellOf(b, c, si);
   const BenchConfig *cf = &b->configs[c];
   const long long *values;
   const KernelInfo *k = kernelAt(b, c, si, &values);
   col[0] = '\0';
   Peaks peaks;
   if (!k || cell->status != RUN_OK || cell->emulated || !Peaks_cached(b->dev, b->be->name, &peaks) || !peaks.known)
      return false;
   Problem p = cf->problem;
   p.m = b->sizes[si].m, p.n = b->sizes[si].n, p.k = b->sizes[si].k;
   SweepCandidate sc = {.outcome = SWEEP_OK, .gflops = cell->gflops, .median_ms = cell->ms,
                        .registers = cell->registers, .local_mem = cell->local_mem,
                        .sm_mhz = Observation_smMhz(&cell->obs)};
   memcpy(sc.values, values, sizeof sc.values);
   LimiterInputs li;
   Limiter lim;
   Limiter_ofCandidate(b->dev, k, &p, &sc, &peaks, &li, &lim);
   Limiter_column(&lim, &li, col, len);
   return col[0] != '\0';
}

/* Configuration c's % of the measured copy bandwidth at size si, for a kernel that is
 * memory-bound by design (`bound: memory`, core/run/peaks.h: Peaks_copyShare); 0 when it is
 * not one, did not run, ran emulated or the peaks are not measured. */
static double copyPctOf(const Bench *b, int c, int si) {
   const BenchCell *cell = cellOf(b, c, si);
   const long long *values;
   const KernelInfo *k = kernelAt(b, c, si, &values); /* --best: the shape's own, or none */
   Peaks peaks;
   if (!k || !k->memory_bound || si >= b->measured || cell->status != RUN_OK || cell->emulated ||
       !Peaks_cached(b->dev, b->be->name, &peaks))
      return 0;
   Problem p = b->configs[c].problem;
   p.m = b->sizes[si].m, p.n = b->sizes[si].n, p.k = b->sizes[si].k;
   return 100 * Peaks_copyShare(&peaks, &p, cell->ms, NULL);
}

/* Under the table: each memory-bound configuration's share of the measured copy bandwidth,
 * beside its % of the vendor library in the table. */
static void printCopyShares(const Bench *b) {
   char size[48];
   bool head = false, cached = false;
   for (int c = 0; c < b->nconf; c++) {
      bool any = false;
      for (int si = 0; si < b->measured; si++) {
         const double pct = copyPctOf(b, c, si);
         if (pct <= 0)
            continue;
         if (!head)
            printf("memory (memory-bound by design: %% of the measured copy bandwidth):\n");
         head = true;
         if (!any)
            printf("  %-30.30s", b->configs[c].label);
         sizeLabel(&b->sizes[si], size, sizeof size);
         printf("%s %s %.1f%%", any ? "," : "", size, pct);
         any = true;
         cached = cached || pct > 100;
      }
      if (any)
         putchar('\n');
   }
   if (cached)
      printf("  (above 100%%: the operands were read from a cache, not from memory)\n");
}

/* Under the table: what limits each configuration at each size, where the ceilings are
 * measured. */
static void printLimits(const Bench *b) {
   char col[64], size[48];
   bool head = false;
   for (int c = 0; c < b->nconf; c++) {
      bool any = false;
      for (int si = 0; si < b->measured; si++) {
         if (!limitOf(b, c, si, col, sizeof col))
            continue;
         if (!head)
            printf("limit (against the measured ceilings, docs/limits.md):\n");
         head = true;
         if (!any)
            printf("  %-30.30s", b->configs[c].label);
         sizeLabel(&b->sizes[si], size, sizeof size);
         printf("%s %s %s", any ? "," : "", size, col);
         any = true;
      }
      if (any)
         putchar('\n');
   }
}

static void jsonRow(FILE *out, const Bench *b, int c, int si, const char *kernel, const char *params, double pct,
                    double rpct) {
   const BenchConfig *cf = &b->configs[c];
   const BenchCell *cell = cellOf(b, c, si);
   const BenchSize *z = &b->sizes[si];
   const VendorResult *vendor = &b->vendor[cf->prec][si].result, *reference = &b->reference[cf->prec][si].result;
   fprintf(out, "{\"schema\":%d,\"config\":", REPORT_SCHEMA);
   Report_jsonString(out, cf->label);
   fprintf(out, ",\"kernel\":");
   Report_jsonString(out, kernel);
   fprintf(out, ",\"params\":");
   Report_jsonString(out, params);
   fprintf(out, ",\"device\":");
   Report_jsonString(out, b->dev->name);
   fprintf(out, ",\"platform\":"); /* as run's: the runtime and the kernels' compiler */
   Report_jsonString(out, b->dev->platform);
   /* "size": the number of a square size, else "MxNxK"; m, n, k always. */
   if (square(z))
      fprintf(out, ",\"size\":%d", z->m);
   else
      fprintf(out, ",\"size\":\"%dx%dx%d\"", z->m, z->n, z->k);
   fprintf(out, ",\"m\":%d,\"n\":%d,\"k\":%d,\"precision\":\"%s\",\"status\":\"%s\",\"verified\":%s", z->m, z->n, z->k,
           Precision_name(cf->problem.precision), RunStatus_name(cell->status),
           cell->status == RUN_OK ? "true" : "false");
   if (cell->status == RUN_OK)
      fprintf(out, ",\"gflops\":%.6g,\"time_ms\":%.6g", cell->gflops, cell->ms);
   if (cell->has_err)
      fprintf(out, ",\"max_rel_err\":%.3g", cell->max_rel_err);
   char limit[64];
   if (limitOf(b, c, si, limit, sizeof limit)) {
      fprintf(out, ",\"limit\":");
      Report_jsonString(out, limit);
   }
   fprintf(out, ",\"l2\":\"%s\"", b->o->timing->cold_l2 ? "cold" : "warm");
   saveObservation(out, true, "", &cell->obs);
   saveObservation(out, true, "vendor_", &vendor->obs);
   fprintf(out, ",\"emulated\":%s,\"vendor\":", cell->emulated ? "true" : "false");
   Report_jsonString(out, vendor->name);
   fputs(",\"vendor_note\":", out);
   Report_jsonString(out, vendor->note);
   if (vendor->status == RUN_OK)
      fprintf(out, ",\"vendor_gflops\":%.6g", vendor->gflops);
   if (vendor->status == RUN_OK && vendor->verify.samples > 0)
      fprintf(out, ",\"vendor_max_rel_err\":%.3g", vendor->verify.max_rel_err);
   if (pct > 0)
      fprintf(out, ",\"pct_of_vendor\":%.4g", pct);
   const double copy = copyPctOf(b, c, si);
   if (copy > 0)
      fprintf(out, ",\"pct_of_copy\":%.4g", copy);
   if (b->ref) {
      fprintf(out, ",\"reference\":");
      Report_jsonString(out, reference->name);
      if (reference->status == RUN_OK)
         fprintf(out, ",\"reference_gflops\":%.6g", reference->gflops);
      if (rpct > 0)
         fprintf(out, ",\"pct_of_reference\":%.4g", rpct);
   }
   if (z->label[0]) {
      fprintf(out, ",\"suite\":");
      Report_jsonString(out, b->suite);
      fprintf(out, ",\"shape\":");
      Report_jsonString(out, z->label);
      fprintf(out, ",\"weight\":%.6g", z->weight);
   }
   fprintf(out, ",\"rounds\":%d}\n", cell->rounds);
}

/* One configuration at one size as a line of CSV (CSV_HEADER) or JSON. */
static void writeRow(FILE *out, bool json, const Bench *b, int c, int si) {
   const BenchConfig *cf = &b->configs[c];
   const BenchCell *cell = cellOf(b, c, si);
   const BenchSize *z = &b->sizes[si];
   const VendorResult *vendor = &b->vendor[cf->prec][si].result, *reference = &b->reference[cf->prec][si].result;
   char params[300] = "", size[48];
   const long long *values;
   const KernelInfo *k = kernelAt(b, c, si, &values);
   if (k)
      KernelInfo_formatParams(k, values, params, sizeof params);
   const char *kernel = k ? k->name : "";
   sizeLabel(z, size, sizeof size);
   bool comparable = cell->status == RUN_OK && !cell->emulated;
   double pct = vendor->status == RUN_OK && comparable ? 100 * cell->gflops / vendor->gflops : 0;
   double rpct = b->ref && reference->status == RUN_OK && comparable ? 100 * cell->gflops / reference->gflops : 0;
   if (json) {
      jsonRow(out, b, c, si, kernel, params, pct, rpct);
      return;
   }
   fprintf(out, "%s,%s,\"%s\",\"%s\",%s,%s,%s,%s,", cf->label, kernel, params, b->dev->name, size,
           Precision_name(cf->problem.precision), RunStatus_name(cell->status), cell->status == RUN_OK ? "true" : "false");
   if (cell->status == RUN_OK)
      fprintf(out, "%.6g,%.6g,", cell->gflops, cell->ms);
   else
      fprintf(out, ",,");
   fprintf(out, "%s,", vendor->name);
   if (vendor->status == RUN_OK)
      fprintf(out, "%.6g,", vendor->gflops);
   else
      fprintf(out, ",");
   if (pct > 0)
      fprintf(out, "%.4g,", pct);
   else
      fprintf(out, ",");
   if (b->ref && reference->status == RUN_OK)
      fprintf(out, "%s,%.6g,%.4g,", reference->name, reference->gflops, rpct);
   else
      fprintf(out, ",,,");
   fprintf(out, "%d,%s", cell->rounds, b->o->timing->cold_l2 ? "cold" : "warm");
   saveObservation(out, false, "", &cell->obs);
   saveObservation(out, false, "vendor_", &vendor->obs);
   fprintf(out, ",%d,%d,%d,%s,", z->m, z->n, z->k, cell->emulated ? "true" : "false");
   Util_csvField(out, z->label, false);
   fprintf(out, "%.6g\n", z->weight);
}

/* Configuration c's % of its yardstick at size si, 0 when there is none to give (not
 * measured, failed, emulated, or no yardstick). */
static double pctOf(const Bench *b, int c, int si) {
   const BenchCell *cell = cellOf(b, c, si);
   const VendorResult *yard = yardOf(b, c, si);
   if (si >= b->measured || cell->status != RUN_OK || cell->emulated || yard->status != RUN_OK || yard->gflops <= 0)
      return 0;
   return 100 * cell->gflops / yard->gflops;
}

/* Configuration c at size si as a table's cell: GFLOPS and % of the yardstick, or why not. */
static void printCell(const Bench *b, int c, int si) {
   const BenchCell *cell = cellOf(b, c, si);
   const double pct = pctOf(b, c, si);
   if (si >= b->measured || (cell->status == RUN_CANCELLED && !cell->rounds))
      printf(" %10s %6s", "-", "");
   else if (cell->status == RUN_OK && cell->emulated)
      printf(" %10.1f %6s", cell->gflops, "emul.");
   else if (cell->status == RUN_OK && pct > 0)
      printf(" %10.1f %5.1f%%", cell->gflops, pct);
   else if (cell->status == RUN_OK)
      printf(" %10.1f %6s", cell->gflops, "-");
   else
      printf(" %10s %6s", RunStatus_name(cell->status), "");
}

/* The suite's weighted geometric mean of configuration c's % of its yardstick, over the
 * shapes that have one (*used of them). */
static double suiteMean(const Bench *b, int c, int *used) {
   double pct[BENCH_MAX_SIZES], w[BENCH_MAX_SIZES];
   for (int si = 0; si < b->nsizes; si++) {
      pct[si] = pctOf(b, c, si);
      w[si] = b->sizes[si].weight;
   }
   return Shapes_weightedGeomean(pct, w, b->nsizes, used);
}

/* Under a suite's table: each configuration's weighted geometric mean, and how many of the
 * shapes it counts (a shape without a figure, or emulated, counts for nothing). */
static void printSuiteMeans(const Bench *b) {
   if (!b->suite[0])
      return;
   printf("suite %s: the weighted geometric mean of %% of %s over its %d shapes\n", b->suite,
          b->ref ? "the reference" : "the vendor library", b->nsizes);
   for (int c = 0; c < b->nconf; c++) {
      int used;
      double mean = suiteMean(b, c, &used);
      if (used > 0)
         printf("  %-30.30s %6.1f%%%s", b->configs[c].label, mean, used < b->nsizes ? "" : "\n");
      else
         printf("  %-30.30s %7s", b->configs[c].label, "-");
      if (used < b->nsizes)
         printf("  (%d of %d shapes have a figure to compare)\n", used, b->nsizes);
   }
}

/* The suite's means as JSON lines, one per configuration. */
static void jsonSuiteMeans(FILE *out, const Bench *b) {
   for (int c = 0; b->suite[0] && c < b->nconf; c++) {
      int used;
      double mean = suiteMean(b, c, &used);
      fprintf(out, "{\"schema\":%d,\"suite\":", REPORT_SCHEMA);
      Report_jsonString(out, b->suite);
      fprintf(out, ",\"config\":");
      Report_jsonString(out, b->configs[c].label);
      if (used > 0)
         fprintf(out, ",\"%s\":%.4g", b->ref ? "geomean_pct_of_reference" : "geomean_pct_of_vendor", mean);
      fprintf(out, ",\"shapes_compared\":%d,\"shapes\":%d}\n", used, b->nsizes);
   }
}

/* A suite's table, a row per shape (a column per size would be too wide): the label and
 * size, each vendor library's GFLOPS, each configuration's GFLOPS and %. */
static void printShapeRows(const Bench *b) {
   printf("%-18s %-20s", "shape", "MxNxK");
   for (int pi = 0; pi < b->nprec; pi++) {
      const char *name = b->vendor[pi][0].result.name;
      char head[40];
      snprintf(head, sizeof head, "%.20s%s%s", b->ref ? b->o->bench->reference : name[0] ? name : "vendor",
               b->nprec > 1 ? " " : "", b->nprec > 1 ? b->prec_label[pi] : "");
      printf(" %16.16s", head);
   }
   for (int c = 0; c < b->nconf; c++)
      printf(" %17.17s", b->configs[c].label);
   putchar('\n');
   for (int si = 0; si < b->nsizes; si++) {
      char size[48];
      sizeLabel(&b->sizes[si], size, sizeof size);
      printf("%-18.18s %-20s", b->sizes[si].label[0] ? b->sizes[si].label : size, size);
      for (int pi = 0; pi < b->nprec; pi++) {
         const VendorResult *v = b->ref ? &b->reference[pi][si].result : &b->vendor[pi][si].result;
         if (si < b->measured && v->status == RUN_OK)
            printf(" %16.1f", v->gflops);
         else
            printf(" %16s", "-");
      }
      for (int c = 0; c < b->nconf; c++)
         printCell(b, c, si);
      putchar('\n');
   }
}

/* One row of the table: GFLOPS and % of the yardstick per size. */
static void printCells(const Bench *b, int c) {
   for (int si = 0; si < b->nsizes; si++)
      printCell(b, c, si);
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

/* The libraries' rows: per precision, the vendor library (and the reference). */
static void printLibraries(const Bench *b) {
   const CommandArgs *o = b->o;
   for (int pi = 0; pi < b->nprec; pi++)
      for (int row = b->ref ? 0 : 1; row < 2; row++) {
         const BenchLib *libs = row == 0 ? b->reference[pi] : b->vendor[pi];
         const BenchLib *yard = b->ref ? b->reference[pi] : b->vendor[pi];
         char label[96], prec[24] = "";
         if (b->nprec > 1)
            snprintf(prec, sizeof prec, " %s", b->prec_label[pi]);
         snprintf(label, sizeof label, "%s%s%s%s%s", libs[0].result.name[0] ? libs[0].result.name : "vendor BLAS", prec,
                  row == 0 ? " (" : "", row == 0 ? o->bench->reference : "", row == 0 ? ")" : "");
         printf("%-32.32s", label);
         for (int si = 0; si < b->nsizes; si++) {
            const VendorResult *v = &libs[si].result, *y = &yard[si].result;
            if (si < b->measured && v->status == RUN_OK && y->status == RUN_OK)
               printf(" %10.1f %5.1f%%", v->gflops, 100 * v->gflops / y->gflops);
            else if (si < b->measured && v->status == RUN_OK)
               printf(" %10.1f %6s", v->gflops, "-");
            else
               printf(" %10s %6s", "-", "");
         }
         putchar('\n');
         const Observation *obs[BENCH_MAX_SIZES];
         for (int si = 0; si < b->nsizes; si++)
            obs[si] = &libs[si].result.obs;
         printObservations(b, obs);
      }
}

/* Whether a result counts as not verified: a configuration or library that ran and
 * failed, not one refused (invalid: no result) or not reached because of Ctrl-C. */
static bool failedResult(RunStatus st) { return st != RUN_OK && st != RUN_INVALID && st != RUN_CANCELLED; }

/* Adds "03-wpt at 64 (wrong result)" to the footer's list of failures. */
static void addFailure(char *list, size_t len, int *count, const char *what, const char *size, RunStatus st) {
   size_t used = strlen(list);
   if (used + 4 >= len)
      return;
   snprintf(list + used, len - used, "%s%s at %s (%s)", *count ? ", " : "", what, size, RunStatus_name(st));
   if (strlen(list) + 4 >= len)
      strcpy(list + len - 4, "...");
   ++*count;
}

/* The libraries' messages at size si (what they refused or why they failed). */
static void printLibraryMessages(const Bench *b, int si, char *failed, size_t len, int *nfailed) {
   char size[112];
   sizeName(&b->sizes[si], size, sizeof size);
   for (int pi = 0; pi < b->nprec; pi++)
      for (int lib = 0; lib < (b->ref ? 2 : 1); lib++) {
         const VendorResult *v = lib ? &b->reference[pi][si].result : &b->vendor[pi][si].result;
         if (v->status == RUN_OK || v->status == RUN_CANCELLED)
            continue;
         printf("%s%s%s at %s: %s\n", lib ? "reference" : "vendor", b->nprec > 1 ? " " : "",
                b->nprec > 1 ? b->prec_label[pi] : "", size, v->message);
         /* An absent or refusing library made no result; a wrong one did. */
         if (v->status == RUN_NOT_VERIFIED)
            addFailure(failed, len, nfailed, v->name[0] ? v->name : "vendor", size, v->status);
      }
}

/* How the L2 was, and what the driver said. */
static void printL2AndDriver(const Bench *b) {
   const VendorResult *first = &b->vendor[0][0].result;
   if (b->o->timing->cold_l2 && first->cold_l2_method[0])
      printf("cold L2: each launch and library call read operands out of the L2 (%s)\n", first->cold_l2_method);
   else if (!b->o->timing->cold_l2)
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
}

/* The lines under the table: what failed, how the figures were made, and whether every
 * result was verified (naming those that were not). Returns the configurations' failures. */
static int printFooter(const Bench *b) {
   const CommandArgs *o = b->o;
   char size[112], failed[1024] = "";
   int nfailed = 0, failures = 0;
   for (int si = 0; si < b->measured; si++) {
      sizeName(&b->sizes[si], size, sizeof size);
      printLibraryMessages(b, si, failed, sizeof failed, &nfailed);
      for (int c = 0; c < b->nconf; c++) {
         const BenchCell *cell = cellOf(b, c, si);
         if (cell->status == RUN_OK || cell->status == RUN_CANCELLED)
            continue;
         printf("%s at %s: %s: %s\n", b->configs[c].label, size, RunStatus_name(cell->status), cell->message);
         if (failedResult(cell->status)) {
            addFailure(failed, sizeof failed, &nfailed, b->configs[c].label, size, cell->status);
            failures++;
         }
      }
   }
   printf("GFLOPS = 2*M*N*K / median device time of the GEMM kernel; the vendor library is timed around whole calls, "
          "in each configuration's precision\n");
   if (nfailed == 0)
      printf("every result verified%s\n", atomic_load(&interrupted) ? " (of those measured)" : "");
   else
      printf("not every result verified: %s\n", failed);
   printf("each figure: the median of %d round%s in which the libraries and the configurations took turns\n", o->bench->rounds,
          o->bench->rounds == 1 ? "" : "s");
   printL2AndDriver(b);
   return failures;
}

/* The table: GFLOPS and % of vendor per size, then what failed. Returns the failures. */
static int printTable(const Bench *b) {
   char size[48];
   printf("device %s (%s%s%s), %s L2", b->dev->name, b->be->name, b->dev->compiler[0] ? ", kernels built by " : "",
          b->dev->compiler, b->o->timing->cold_l2 ? "cold" : "warm");
   if (b->suite[0])
      printf(", shape suite %s", b->suite);
   putchar('\n');
   if (b->suite[0]) {
      printShapeRows(b);
   } else {
      printf("%-32s", "configuration");
      for (int si = 0; si < b->nsizes; si++) {
         sizeLabel(&b->sizes[si], size, sizeof size);
         printf(" %10s %6s", size, b->ref ? "%ref" : "%vend");
      }
      putchar('\n');
      printLibraries(b);
      for (int c = 0; c < b->nconf; c++) {
         printf("%-32.32s", b->configs[c].label);
         printCells(b, c);
         const Observation *obs[BENCH_MAX_SIZES];
         for (int si = 0; si < b->nsizes; si++)
            obs[si] = &cellOf(b, c, si)->obs;
         printObservations(b, obs);
      }
   }
   printSuiteMeans(b);
   printPicks(b);
   printCopyShares(b);
   printLimits(b);
   int failures = printFooter(b);
   for (int c = 0; c < b->nconf; c++)
      if (cellOf(b, c, 0)->emulated) {
         printf("emul.: tensor instructions emulated on this device (no tensor cores): verified, not compared\n");
         break;
      }
   if (atomic_load(&interrupted)) {
      sizeLabel(&b->sizes[b->measured > 0 ? b->measured - 1 : 0], size, sizeof size);
      printf("interrupted (Ctrl-C) during size %s: figures are of the rounds measured; '-' was not measured\n", size);
   }
   return failures;
}

/* The failures among the configurations, for the exit status of CSV and JSON output. */
static int countFailures(const Bench *b) {
   int failures = 0;
   for (int si = 0; si < b->measured; si++)
      for (int c = 0; c < b->nconf; c++)
         failures += failedResult(cellOf(b, c, si)->status);
   return failures;
}

/* The work of the whole bench in launches of 2*M*N*K: every configuration and library at
 * every size, warm-up and timed launches in every round, one verification launch. */
static double benchFlops(const Bench *b) {
   const CommandArgs *o = b->o;
   double launches = (double)o->bench->rounds * (o->timing->warmup + o->timing->reps) + 1;
   int items = b->nconf + b->nprec * (b->ref ? 2 : 1);
   double flops = 0;
   for (int si = 0; si < b->nsizes; si++)
      flops += 2.0 * b->sizes[si].m * b->sizes[si].n * b->sizes[si].k;
   return flops * launches * items;
}

/* On a CPU a bench can take hours: before it starts, one quick run of the first
 * configuration at a small size gives a rate, and the whole bench's work at that rate is
 * said, as an estimate. */
static void estimateCpu(Bench *b) {
   const BenchConfig *c = &b->configs[0];
   const long long *values = NULL;
   const KernelInfo *k = NULL;
   for (int si = 0; si < b->nsizes && !k; si++)
      k = kernelAt(b, 0, si, &values);
   if (!k)
      return; /* --best alone, and the store has nothing: nothing runs */
   Problem p = c->problem;
   int edge = 128;
   p.m = b->sizes[0].m < edge ? b->sizes[0].m : edge;
   p.n = b->sizes[0].n < edge ? b->sizes[0].n : edge;
   p.k = b->sizes[0].k < edge ? b->sizes[0].k : edge;
   Inputs in;
   bool have_in = false;
   TrialRequest rq = {.kernel = k, .values = values, .problem = &p, .inputs_from = TRIAL_INPUTS_HELD,
                      .seed = Rng_freshSeed(), .held = &in, .have_held = &have_in,
                      .run = {.reps = 1, .warmup = 0, .verify = false, .cancel = &interrupted}};
   TrialOutcome outcome;
   RunStatus st = Trial_run(b->s, &rq, b->r, &outcome);
   if (have_in)
      Inputs_free(&in);
   if (st != RUN_OK || b->r->gflops <= 0) {
      fprintf(stderr, "gemmtop: on a CPU this bench may take long (no estimate: a first quick run of %s failed); "
                      "Ctrl-C stops it and prints what was measured\n", c->label);
      return;
   }
   double seconds = benchFlops(b) / (b->r->gflops * 1e9);
   char when[64];
   if (seconds < 1.5)
      snprintf(when, sizeof when, "a second");
   else if (seconds < 120)
      snprintf(when, sizeof when, "%.0f seconds", seconds);
   else if (seconds < 7200)
      snprintf(when, sizeof when, "%.0f minutes", seconds / 60);
   else
      snprintf(when, sizeof when, "%.1f hours", seconds / 3600);
   fprintf(stderr,
           "gemmtop: on a CPU this bench takes about %s (an estimate: every launch at %.3g GFLOPS, the rate of a first "
           "quick run of %s at %dx%dx%d, plus compiles); Ctrl-C stops it and prints what was measured\n",
           when, b->r->gflops, c->label, p.m, p.n, p.k);
}

/* Measures every size, writing each one's results to the --save file (opened before any
 * work, in saveFile) as it goes. Returns 0, or 1 when the file could not be written. */
static int benchAll(Bench *b, OutFile *saveFile) {
   const CommandArgs *o = b->o;
   int rc = 0;
   FILE *save = saveFile ? OutFile_stream(saveFile) : NULL;
   bool json = o->output->save && strlen(o->output->save) > 5 && !strcmp(o->output->save + strlen(o->output->save) - 5, ".json");
   if (save && !json)
      fputs(CSV_HEADER, save);
   if (b->dev->type == DEVICE_CPU && !b->server)
      estimateCpu(b);
   for (int si = 0; si < b->nsizes && !atomic_load(&interrupted); si++) {
      b->measured = si + 1;
      benchSize(b, si);
      for (int c = 0; save && c < b->nconf; c++)
         writeRow(save, json, b, c, si);
   }
   if (save && json)
      jsonSuiteMeans(save, b);
   char err[1300];
   if (saveFile && !OutFile_commit(saveFile, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --save %s\n", err);
      rc = 1;
   }
   return rc;
}

/* The results on standard output: the table, or CSV or JSON lines (--format). Returns the
 * configurations' failures. */
static int printResults(const Bench *b) {
   if (b->o->output->format == FORMAT_TABLE)
      return printTable(b);
   bool json = b->o->output->format == FORMAT_JSON;
   if (!json)
      fputs(CSV_HEADER, stdout);
   for (int si = 0; si < b->measured; si++)
      for (int c = 0; c < b->nconf; c++)
         writeRow(stdout, json, b, c, si);
   if (json)
      jsonSuiteMeans(stdout, b);
   return countFailures(b);
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
   for (int c = 0; c < b->nconf; c++)
      free(b->configs[c].picks);
   free(b->configs);
   free(b->shapes);
   free(b->cells);
   free(b->cg);
   free(b->cms);
   free(b->measurers);
   free(b);
   return stuck;
}

/* Measures and prints; the exit status. Ctrl-C is caught meanwhile. */
static int measureAndPrint(Bench *b, OutFile *saveFile) {
   struct sigaction catch = {.sa_handler = onInterrupt}, old;
   sigemptyset(&catch.sa_mask);
   atomic_store(&interrupted, 0);
   sigaction(SIGINT, &catch, &old);
   Recorder_open(&b->rec, b->o);
   int rc = benchAll(b, saveFile);
   Recorder_close(&b->rec);
   sigaction(SIGINT, &old, NULL);
   int failures = printResults(b);
   if (atomic_load(&interrupted))
      return BENCH_EXIT_INTERRUPTED;
   return rc ? rc : failures ? 1 : 0;
}

/* The sizes of a shape suite (--shapes), with their labels and weights; the count, or -1
 * with err. */
static int suiteSizes(Bench *b, const char *word, const char *kernels_dir, char *err, size_t errlen) {
   ShapeSuite *suite = malloc(sizeof *suite);
   if (!suite || !Shapes_resolve(word, kernels_dir, suite, err, errlen)) {
      if (!suite)
         snprintf(err, errlen, "out of host memory");
      free(suite);
      return -1;
   }
   b->shapes = suite;
   for (int i = 0; i < suite->count; i++) {
      const Shape *sh = &suite->shapes[i];
      b->sizes[i] = (BenchSize){.m = sh->m, .n = sh->n, .k = sh->k, .weight = sh->weight};
      Util_copy(b->sizes[i].label, sizeof b->sizes[i].label, sh->label);
   }
   Util_copy(b->suite, sizeof b->suite, suite->name);
   return suite->count;
}

/* --server: the class server's device, as it describes it; nothing is opened here. */
static int openServer(Bench *b) {
   const CommandArgs *o = b->o;
   if (o->bench->reference) {
      fprintf(stderr, "gemmtop: --reference cannot go with --server: the server times its own vendor library\n");
      return 2;
   }
   char why[1024], backend[16];
   b->server_device = o->sel->device ? atoi(o->sel->device) : -1;
   if (!Measurer_serverDevice(b->server, b->server_device, &b->server_dev, backend, sizeof backend, why,
                              sizeof why)) {
      fprintf(stderr, "gemmtop: %s\n", why);
      return 1;
   }
   b->be = Backend_byName(backend); /* Measurer_serverDevice made sure of it */
   b->dev = &b->server_dev;
   fprintf(stderr, "gemmtop: measured on the class server %s (%s), each request in its turn\n", b->server,
           b->dev->name);
   return 0;
}

static int execBench(const CommandArgs *o) {
   if (o->timing->vendor_bf16 && (o->bench->frontier || Cli_server(o))) {
      fprintf(stderr, "gemmtop: --vendor-output bfloat16 is not taken with %s, which times the vendor library with "
                      "gemmtop's C\n", o->bench->frontier ? "--frontier" : "--server");
      return 2;
   }
   if (o->bench->frontier)
      return Cli_frontier(o);
   Bench *b = calloc(1, sizeof *b);
   if (!b) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      return 1;
   }
   b->o = o;
   char err[1024];
   Catalog cat;
   if (!Cli_loadCatalog(&cat)) {
      free(b);
      return 1;
   }
   if (o->shape->shapes && o->bench->sizes) {
      snprintf(err, sizeof err, "--shapes and --sizes both give the sizes: give one");
      b->nsizes = -1;
   } else if (o->bench->best && !o->shape->shapes) {
      snprintf(err, sizeof err, "--best takes each shape's best configuration from the results store: give the "
               "shapes with --shapes SUITE");
      b->nsizes = -1;
   } else if (o->shape->shapes)
      b->nsizes = suiteSizes(b, o->shape->shapes, cat.dir, err, sizeof err);
   else
      b->nsizes = Options_parseSizes(o->bench->sizes, b->sizes, OPTIONS_MAX_SIZES, err, sizeof err);
   if (b->nsizes <= 0) {
      fprintf(stderr, "gemmtop: %s\n", err);
      Catalog_free(&cat);
      free(b->shapes);
      free(b);
      return 2;
   }
   OutFile *saveFile = NULL;
   int rc = collectConfigs(b, &cat);
   if (rc == 0)
      rc = Cli_openOutput("--save", o->output->save, OUTFILE_STREAM_OK, &saveFile);
   b->server = Cli_server(o);
   if (rc == 0 && b->server)
      rc = openServer(b);
   else if (rc == 0)
      b->s = Cli_openSession(o, &cat, &rc);
   if (b->s || (b->server && rc == 0)) {
      rc = 0; /* an open session leaves no exit code to keep */
      if (b->s) {
         b->be = Session_backend(b->s);
         b->dev = Session_device(b->s);
      }
      if (o->bench->best)
         rc = addBest(b, &cat);
      if (o->bench->reference && !rc)
         openReference(b, &cat);
      b->measurers = calloc((size_t)b->nconf, sizeof *b->measurers);
      b->cells = calloc((size_t)b->nconf * BENCH_MAX_SIZES, sizeof *b->cells);
      b->cg = calloc((size_t)b->nconf * BENCH_MAX_ROUNDS, sizeof *b->cg);
      b->cms = calloc((size_t)b->nconf * BENCH_MAX_ROUNDS, sizeof *b->cms);
      b->r = calloc(1, sizeof *b->r);
      if (!rc && (!b->cells || !b->cg || !b->cms || !b->r || !b->measurers)) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         rc = 1;
      } else if (!rc) {
         rc = measureAndPrint(b, saveFile);
         saveFile = NULL;
      }
   }
   OutFile_discard(saveFile);
   bool stuck = freeBench(b);
   Catalog_free(&cat);
   if (stuck)
      Cli_leave(rc ? rc : 1);
   return rc;
}

const CommandEntry Cli_benchCommand = {
    .name = "bench",
    .groups = GROUPS_CONFIGURED | IN_GROUP(TIMING) | IN_GROUP(STORAGE) | IN_GROUP(BENCH) | IN_GROUP(CLASS),
    .words = "[PRESET ...]",
    .summary = "configurations and the vendor BLAS across sizes",
    .max_positional = OPTIONS_MAX_POSITIONAL,
    .exec = execBench,
};
