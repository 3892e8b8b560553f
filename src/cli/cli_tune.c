/* gemmtop tune --shapes SUITE: a dispatch that picks per shape. At each shape of the suite
 * every candidate kernel's parameters are searched by core's one sweep (core/sweeprun.h:
 * the strategy, the store's results taken instead of measured again, each configuration
 * verified and timed in a child process and recorded as soon as it is known), the shape's
 * budget (--budget, --time-budget) shared among the candidates. Then, in one step, the
 * shape's best configuration that a program can ship (core/export.h: one that runs as
 * measured, without gemmtop's padding or transposes) is read back from the store and
 * written out: the dispatch table (DIR/dispatch.h and DIR/dispatch.json, as `results
 * export --format dispatch` writes them) and each shape's kernel with its launcher
 * (DIR/LABEL/, as `export-kernel` writes them). A tune stopped in any way loses at most
 * the configuration in flight: run again, it takes what the store holds.
 *
 * The candidates are data: --kernel (or --preset) names one; else the suite's
 * `candidates =` line; else every kernel whose metadata says `tune: yes`. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "base/rng.h"
#include "base/util.h"
#include "cli/cli.h"
#include "cli/cli_sweep.h"
#include "cli/recorder.h"
#include "core/config.h"
#include "core/export.h"
#include "core/record.h"
#include "core/resultfmt.h"
#include "core/results.h"
#include "core/shapes.h"
#include "core/sweeprun.h"

#define TUNE_MAX_CANDIDATES 32

typedef struct Candidate_ {
   const KernelInfo *k;
   long long base[KERNEL_MAX_PARAMS]; /* where its search starts: defaults, or the preset and --set */
   unsigned free_mask;                /* the parameters searched: all but those --set fixes */
} Candidate;

/* What was shipped for a shape, and what was fastest when that could not be shipped. */
typedef struct Pick_ {
   char kernel[64], params[512];
   double gflops;             /* 0: none */
   char why[400];             /* the fastest: why it is not shipped ("" when it is) */
} Pick;

typedef struct Tune_ {
   const Options *o;
   Catalog cat;
   ShapeSuite *suite;
   Problem problem;           /* type, scaling, layout, alpha, beta; each shape its sizes */
   Candidate cands[TUNE_MAX_CANDIDATES];
   int ncands;
   const Backend *be;
   DeviceInfo dev;
   SearchStrategy strategy;
   int budget;                /* configurations a shape; 0: every valid one */
   uint64_t seed;
   char dir[PATH_MAX];
   Recorder rec;
   bool tty;
   int swept;                 /* configurations tried in all (taken from the store or measured) */
   int taken;                 /* of them taken from the store */
} Tune;

/* ---- the candidates ---- */

/* A candidate the device runs and ranks, or false with why not in why. */
static bool usable(const Tune *t, const KernelInfo *k, char *why, size_t len) {
   ConfigTarget target = Session_targetFor(t->be, &t->dev);
   if (!(k->precisions & PRECISION_BIT(t->problem.precision))) {
      snprintf(why, len, "it does not take %s", Precision_name(t->problem.precision));
      return false;
   }
   if (!Config_targetOk(k, &target, why, len))
      return false;
   if (k->tensor && !Config_tensorPtx(k, &t->dev.limits, t->problem.precision)) {
      snprintf(why, len, "its tensor instructions run emulated on %s: verified, never ranked", t->dev.name);
      return false;
   }
   return true;
}

static int addCandidate(Tune *t, const KernelInfo *k, const long long *base, unsigned free_mask, bool named) {
   char why[1024];
   if (!usable(t, k, why, sizeof why)) {
      fprintf(stderr, "gemmtop: tune: %s is %s: %s\n", k->name, named ? "refused" : "left out", why);
      return named ? 2 : 0;
   }
   for (int i = 0; i < t->ncands; i++)
      if (t->cands[i].k == k)
         return 0; /* named twice */
   if (t->ncands == TUNE_MAX_CANDIDATES) {
      fprintf(stderr, "gemmtop: tune: more than %d candidate kernels; name fewer\n", TUNE_MAX_CANDIDATES);
      return 2;
   }
   Candidate *c = &t->cands[t->ncands++];
   c->k = k;
   memcpy(c->base, base, sizeof c->base);
   c->free_mask = free_mask;
   return 0;
}

/* The suite's `candidates =` line, else every kernel that says `tune: yes`. 0, or 2 with
 * the message printed. */
static int listedCandidates(Tune *t) {
   long long defaults[KERNEL_MAX_PARAMS];
   const unsigned all = (1u << KERNEL_MAX_PARAMS) - 1;
   if (!t->suite->candidates[0]) {
      for (int i = 0; i < t->cat.count; i++) {
         const KernelInfo *k = &t->cat.kernels[i];
         if (!k->tune || k->hidden)
            continue;
         KernelInfo_defaults(k, defaults);
         int rc = addCandidate(t, k, defaults, all, false);
         if (rc)
            return rc;
      }
      return 0;
   }
   char names[sizeof t->suite->candidates];
   Util_copy(names, sizeof names, t->suite->candidates);
   for (char *save = NULL, *w = strtok_r(names, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
      const KernelInfo *k = Catalog_find(&t->cat, w);
      if (!k) {
         fprintf(stderr, "gemmtop: tune: the suite %s names the candidate '%s', which is no kernel (see 'gemmtop "
                         "list kernels')\n", t->suite->path, w);
         return 2;
      }
      KernelInfo_defaults(k, defaults);
      int rc = addCandidate(t, k, defaults, all, false); /* a suite's list may hold other types' kernels */
      if (rc)
         return rc;
   }
   return 0;
}

/* The candidates and the problem: --kernel or --preset (one candidate, its --set values
 * fixed), else the listed ones. 0, or 2 with the message printed. */
static int chooseCandidates(Tune *t) {
   const Options *o = t->o;
   if (o->sel.kernel || o->sel.preset) {
      const KernelInfo *k;
      long long values[KERNEL_MAX_PARAMS];
      int rc = Cli_resolveConfig(o, &t->cat, &k, values, &t->problem);
      if (rc)
         return rc;
      Selection sel = Cli_selection(o);
      unsigned free_mask = 0;
      for (int i = 0; i < k->nparams; i++)
         if (!Select_sets(&sel, k->params[i].name))
            free_mask |= 1u << i;
      return addCandidate(t, k, values, free_mask, true);
   }
   if (o->sel.nsets) {
      fprintf(stderr, "gemmtop: tune: --set fixes a parameter of one kernel: give it with --kernel\n");
      return 2;
   }
   Selection sel = Cli_selection(o);
   Problem_setDefaults(&t->problem);
   Select_applyProblem(&sel, &t->problem);
   int rc = listedCandidates(t);
   if (!rc && t->ncands == 0) {
      fprintf(stderr, "gemmtop: tune: no candidate kernel for %s on %s: name one with --kernel, or list them in the "
                      "suite (candidates = KERNEL ...)\n", Precision_name(t->problem.precision), t->dev.name);
      rc = 2;
   }
   return rc;
}

/* ---- the output folder ---- */

/* Whether path is a folder with nothing in it. */
static bool emptyFolder(const char *path) {
   DIR *d = opendir(path);
   if (!d)
      return false;
   struct dirent *e;
   bool empty = true;
   while (empty && (e = readdir(d)))
      empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
   closedir(d);
   return empty;
}

/* --dir: a new or empty folder; else the first of SUITE-tune, SUITE-tune-2, ... that does
 * not exist. Decided before anything is measured. 0, or 2 with the message. */
static int chooseDir(Tune *t) {
   const char *dir = t->o->output.dir;
   struct stat st;
   if (dir) {
      if (!Util_copyWhole(t->dir, sizeof t->dir - 64, dir)) {
         fprintf(stderr, "gemmtop: tune: --dir is %zu characters long; at most %zu\n", strlen(dir), sizeof t->dir - 65);
         return 2;
      }
      if (lstat(dir, &st) == 0 && !(S_ISDIR(st.st_mode) && emptyFolder(dir))) {
         fprintf(stderr, "gemmtop: tune: --dir %s exists%s: tune writes only into a new or empty folder and never "
                         "over a file; remove it or name another\n", dir, S_ISDIR(st.st_mode) ? " and holds files" : "");
         return 2;
      }
      return 0;
   }
   char stem[sizeof t->suite->name + 8];
   static const char *const folder[] = {""};
   snprintf(stem, sizeof stem, "%s-tune", t->suite->name);
   if (!OutFile_freeName(stem, folder, 1, t->dir, sizeof t->dir - 64)) {
      fprintf(stderr, "gemmtop: tune: %s to %s-999 all exist here: name a folder with --dir\n", stem, stem);
      return 2;
   }
   return 0;
}

/* ---- the sweeps ---- */

static void recordInto(void *ctx, StoreRecord *r) { Recorder_add(ctx, r, 1); }

/* Candidate c at shape si with a budget of configurations (0: all) and of seconds (0: no
 * limit): its space listed and searched. Returns how many configurations it tried, or -1
 * when out of memory. */
static int sweepCandidate(Tune *t, int si, const Candidate *c, int budget, double seconds) {
   const Options *o = t->o;
   const Shape *sh = &t->suite->shapes[si];
   Problem p = t->problem;
   p.m = sh->m, p.n = sh->n, p.k = sh->k;
   Rng rng;
   Rng_seed(&rng, t->seed + (uint64_t)si);
   SweepSpace sp;
   if (!Sweep_enumerate(c->k, c->base, c->free_mask, &p, &t->dev.limits, &rng, &sp))
      return -1;
   if (sp.count == 0) {
      fprintf(stderr, "  %s: no valid configuration at this shape (%d invalid; e.g. %s)\n", c->k->name, sp.invalid,
              sp.first_invalid);
      SweepSpace_free(&sp);
      return 0;
   }
   Sweep_shuffle(&sp, c->k, c->base, &rng);
   SweepSetup su = {.k = c->k, .kernels_dir = t->cat.dir, .backend = t->be->name, .dev = &t->dev, .problem = p,
                    .base = c->base, .free_mask = c->free_mask, .strategy = t->strategy, .budget = budget,
                    .time_budget_s = seconds, .t0 = Util_nowMs(), .seed = t->seed, .reps = o->timing.reps,
                    .warmup = o->timing.warmup, .timeout_s = Sweep_timeout(o->sweep.timeout, &t->dev),
                    .cold_l2 = o->timing.cold_l2, .store = t->rec.store, .fresh = o->storage.fresh,
                    .record = recordInto, .record_ctx = &t->rec};
   SweepRun *run = SweepRun_open(&su, &sp);
   if (!run) {
      SweepSpace_free(&sp);
      return -1;
   }
   if (SweepRun_another(run))
      fprintf(stderr, "  %s: another sweep of this space is running on this store; run this tune again when it "
                      "is done to take its results\n", c->k->name);
   CliSweepProgress pr = {.tty = t->tty};
   SweepEvents ev = Cli_sweepEvents(&pr);
   bool ok = SweepRun_measureAll(run, o->sweep.jobs, &ev);
   int counts[SWEEP_OUTCOMES], n = 0;
   SweepRun_rank(run, counts);
   const SweepCandidate *tried = SweepRun_tried(run, &n);
   int taken = SweepRun_taken(run);
   t->swept += n;
   t->taken += taken;
   fprintf(stderr, "  %s: %d of %d valid tried", c->k->name, n, SweepRun_space(run)->count);
   if (taken)
      fprintf(stderr, " (%d from the store)", taken);
   fprintf(stderr, ": %d ok", counts[SWEEP_OK]);
   for (int oc = SWEEP_INVALID; oc < SWEEP_OUTCOMES; oc++)
      if (counts[oc])
         fprintf(stderr, ", %d %s", counts[oc], SweepOutcome_name((SweepOutcome)oc));
   if (n > 0 && tried[0].outcome == SWEEP_OK) {
      char params[512];
      KernelInfo_formatParams(c->k, tried[0].values, params, sizeof params);
      fprintf(stderr, "; best %.2f GFLOPS, %s", tried[0].gflops, params);
   }
   fputc('\n', stderr);
   SweepRun_close(run);
   SweepSpace_free(&sp);
   return ok ? n : -1;
}

/* Every candidate at shape si, the shape's budgets shared: each candidate gets what is
 * left divided by the candidates still to come, so that what a small space leaves goes to
 * the next. False when out of memory. */
static bool sweepShape(Tune *t, int si) {
   const Shape *sh = &t->suite->shapes[si];
   Problem p = t->problem;
   p.m = sh->m, p.n = sh->n, p.k = sh->k;
   char why[1024];
   fprintf(stderr, "shape %s (%dx%dx%d), %d of %d:\n", sh->label, sh->m, sh->n, sh->k, si + 1, t->suite->count);
   if (!Session_fitsOn(&t->dev, &p, why, sizeof why)) {
      fprintf(stderr, "  skipped: %s\n", why);
      return true;
   }
   const double seconds = t->o->sweep.time_budget, start = Util_nowMs();
   int left = t->budget;
   for (int c = 0; c < t->ncands; c++) {
      int share = 0; /* all */
      if (t->budget) {
         share = left / (t->ncands - c);
         if (share < 1)
            share = 1;
      }
      double time_share = 0;
      if (seconds > 0) {
         double remaining = seconds - (Util_nowMs() - start) / 1000;
         if (remaining <= 0) {
            fprintf(stderr, "  the shape's --time-budget is spent: %d candidate%s not tried here\n", t->ncands - c,
                    t->ncands - c == 1 ? "" : "s");
            break;
         }
         time_share = remaining / (t->ncands - c);
      }
      int tried = sweepCandidate(t, si, &t->cands[c], share, time_share);
      if (tried < 0)
         return false;
      left -= tried;
   }
   return true;
}

/* ---- what is shipped ---- */

/* The scope of a shape's best: this device, backend and problem, a candidate's kernel. */
static bool isCandidate(void *ctx, const StoreRecord *r, const KernelInfo *k, const long long *values) {
   const Tune *t = ctx;
   for (int i = 0; i < t->ncands; i++)
      if (t->cands[i].k == k)
         return true;
   return false;
}

/* ... and one that the export writes: it runs as it was measured. */
static bool shippable(void *ctx, const StoreRecord *r, const KernelInfo *k, const long long *values) {
   const Tune *t = ctx;
   Problem p = t->problem;
   p.m = r->problem.m, p.n = r->problem.n, p.k = r->problem.k;
   ExportTarget target = {.be = t->be, .dev = &t->dev, .cat = &t->cat};
   char why[1536];
   return isCandidate(ctx, r, k, values) && Export_possible(&target, k, values, &p, why, sizeof why);
}

/* The row a dispatch entry names; with t, also why it could not be exported. */
static void pickOf(const Tune *t, const ResultSet *set, const DispatchEntry *e, Pick *out) {
   memset(out, 0, sizeof *out);
   if (e->row < 0)
      return;
   const StoreRecord *r = &set->rows[e->row];
   Util_copy(out->kernel, sizeof out->kernel, r->kernel);
   Util_copy(out->params, sizeof out->params, r->params);
   out->gflops = r->gflops;
   const KernelInfo *k = t ? Catalog_find(&t->cat, r->kernel) : NULL;
   long long values[KERNEL_MAX_PARAMS];
   if (k && Record_parseParams(k, r->params, values)) {
      Problem p = t->problem;
      p.m = r->problem.m, p.n = r->problem.n, p.k = r->problem.k;
      ExportTarget target = {.be = t->be, .dev = &t->dev, .cat = &t->cat};
      char why[1536];
      if (!Export_possible(&target, k, values, &p, why, sizeof why))
         Util_copy(out->why, sizeof out->why, why);
   }
}

/* path holding text, written only when nothing is there. False with the message printed. */
static bool writeNew(const char *path, const char *text) {
   char err[1536];
   struct stat st;
   if (lstat(path, &st) == 0) {
      fprintf(stderr, "gemmtop: tune: %s exists: tune never writes over a file; the results are in the store, so "
                      "running tune again with another --dir writes them without measuring\n", path);
      return false;
   }
   if (!OutFile_write(path, text, strlen(text), err, sizeof err)) {
      fprintf(stderr, "gemmtop: tune: %s\n", err);
      return false;
   }
   return true;
}

/* The dispatch table in both forms, then each shipped shape's kernel in DIR/LABEL. The
 * count of kernels written, or -1 with the message printed. */
static int writeShipment(Tune *t, const ResultSet *set, const DispatchEntry *e) {
   if (!Util_mkdirs(t->dir)) {
      fprintf(stderr, "gemmtop: tune: cannot make the folder %s: %s\n", t->dir, strerror(errno));
      return -1;
   }
   static const char *const names[] = {"dispatch.h", "dispatch.json"};
   for (int json = 0; json < 2; json++) {
      char path[PATH_MAX + 16];
      snprintf(path, sizeof path, "%s/%s", t->dir, names[json]);
      char *text = ResultFmt_dispatch(json, set, t->suite, e);
      bool ok = text && writeNew(path, text);
      if (!text)
         fprintf(stderr, "gemmtop: out of host memory\n");
      free(text);
      if (!ok)
         return -1;
   }
   int written = 0;
   ExportTarget target = {.be = t->be, .dev = &t->dev, .cat = &t->cat};
   for (int i = 0; i < t->suite->count; i++) {
      if (e[i].row < 0)
         continue;
      const StoreRecord *r = &set->rows[e[i].row];
      const KernelInfo *k = Catalog_find(&t->cat, r->kernel);
      long long values[KERNEL_MAX_PARAMS];
      if (!k || !Record_parseParams(k, r->params, values))
         continue; /* Results_keepScope kept only rows that parse */
      Problem p = t->problem;
      p.m = r->problem.m, p.n = r->problem.n, p.k = r->problem.k;
      char dir[PATH_MAX + 64], err[1536];
      snprintf(dir, sizeof dir, "%s/%s", t->dir, t->suite->shapes[i].label);
      ExportFiles files;
      if (Export_kernel(&target, k, values, &p, dir, &files, err, sizeof err) != EXPORT_OK) {
         fprintf(stderr, "gemmtop: tune: %s: %s\n", t->suite->shapes[i].label, err);
         return -1;
      }
      written++;
   }
   return written;
}

/* The table on stdout: each shape's shipped configuration, the fastest one where that
 * could not be shipped, and the vendor library's figure where the store has it. */
static void report(const Tune *t, const Pick *shipped, const Pick *fastest, const DispatchEntry *e, int written) {
   char layout[3];
   Problem_layoutName(&t->problem, layout);
   printf("tune of %s on %s (%s), %s %s: %d shape%s, %d candidate%s:", t->suite->name, t->dev.name, t->be->name,
          Precision_name(t->problem.precision), layout, t->suite->count, t->suite->count == 1 ? "" : "s", t->ncands,
          t->ncands == 1 ? "" : "s");
   for (int c = 0; c < t->ncands; c++)
      printf(" %s", t->cands[c].k->name);
   printf("\n%-18s %-20s %-20s %12s %9s  %s\n", "shape", "MxNxK", "kernel", "GFLOPS", "% vendor", "parameters");
   for (int i = 0; i < t->suite->count; i++) {
      const Shape *sh = &t->suite->shapes[i];
      char size[48], pct[16] = "-";
      snprintf(size, sizeof size, "%dx%dx%d", sh->m, sh->n, sh->k);
      if (!shipped[i].gflops) {
         printf("%-18.18s %-20s %-20s %12s %9s  %s\n", sh->label, size, "none", "-", "-",
                fastest[i].gflops ? "no verified configuration can be exported (below)" : "no verified configuration");
         continue;
      }
      if (isfinite(e[i].pct_of_vendor))
         snprintf(pct, sizeof pct, "%.1f%%", e[i].pct_of_vendor);
      printf("%-18.18s %-20s %-20.20s %12.2f %9s  %s\n", sh->label, size, shipped[i].kernel, shipped[i].gflops, pct,
             shipped[i].params);
   }
   for (int i = 0; i < t->suite->count; i++)
      if (fastest[i].gflops > shipped[i].gflops)
         printf("%s: the fastest measured, %s %s (%.2f GFLOPS), is not exported: %s; %s\n", t->suite->shapes[i].label,
                fastest[i].kernel, fastest[i].params, fastest[i].gflops, fastest[i].why,
                shipped[i].gflops ? "the table ships the fastest that is" : "no other is either");
   printf("%d configurations tried in all, %d of them taken from the results store (%s)\n", t->swept, t->taken,
          Store_path(t->rec.store));
   printf("wrote %s/dispatch.h, %s/dispatch.json and %d kernel%s (%s/LABEL: make -C %s/LABEL run builds, runs and "
          "verifies one)\n", t->dir, t->dir, written, written == 1 ? "" : "s", t->dir, t->dir);
}

/* Reads each shape's best back from the store and writes what a program ships. The exit
 * code: 0 when every shape has a configuration, 1 otherwise or when a write failed. */
static int ship(Tune *t) {
   int n = t->suite->count;
   DispatchEntry *e = calloc((size_t)n, sizeof *e);
   Pick *shipped = calloc((size_t)n, sizeof *shipped), *fastest = calloc((size_t)n, sizeof *fastest);
   ResultSet set = {0};
   char err[1536];
   int rc = 0;
   ResultsScope scope = {.cat = &t->cat, .device = t->dev.name, .backend = t->be->name, .limits = &t->dev.limits,
                         .problem = t->problem, .cold_l2 = t->o->timing.cold_l2, .keep = isCandidate, .ctx = t};
   if (!e || !shipped || !fastest) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
   } else if (!t->rec.store) { /* recording stopped (said above): the table cannot be read back */
      fprintf(stderr, "gemmtop: tune: nothing written: the results store could not be written; run tune again "
                      "once it can, and it resumes from what was recorded\n");
      rc = 1;
   } else if (!Results_shapeBest(t->rec.store, &scope, t->suite, &set, e, err, sizeof err)) {
      fprintf(stderr, "gemmtop: tune: %s: %s\n", Store_path(t->rec.store), err);
      rc = 1;
   }
   for (int i = 0; !rc && i < n; i++)
      pickOf(t, &set, &e[i], &fastest[i]);
   if (!rc) {
      scope.keep = shippable;
      Results_keepScope(&set, &scope);
      Results_dispatch(&set, t->suite, e);
      for (int i = 0; i < n; i++)
         pickOf(NULL, &set, &e[i], &shipped[i]);
      int written = writeShipment(t, &set, e);
      if (written < 0)
         rc = 1;
      else {
         report(t, shipped, fastest, e, written);
         if (written < n) {
            fprintf(stderr, "gemmtop: tune: %d of %d shapes have no configuration to ship (see the table)\n", n - written, n);
            rc = 1;
         }
      }
   }
   ResultSet_free(&set);
   free(e);
   free(shipped);
   free(fastest);
   return rc;
}

/* ---- the command ---- */

/* The suite, the device and the candidates, and every check that needs no measurement.
 * 0, or the exit code with the message printed. */
static int prepare(Tune *t) {
   const Options *o = t->o;
   char err[1200];
   if (!o->shape.shapes) {
      fprintf(stderr, "gemmtop: tune needs --shapes SUITE: the shapes to choose a configuration for ('gemmtop list "
                      "shapes' lists the suites)\n");
      return 2;
   }
   t->suite = malloc(sizeof *t->suite);
   if (!t->suite) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      return 1;
   }
   if (!Shapes_resolve(o->shape.shapes, t->cat.dir, t->suite, err, sizeof err)) {
      fprintf(stderr, "gemmtop: tune --shapes: %s\n", err);
      return 2;
   }
   int rc = chooseDir(t);
   if (rc)
      return rc;
   /* The device, described; the measuring processes open it themselves. */
   Session *s = Cli_openSession(o, &t->cat, &rc);
   if (!s)
      return rc;
   t->be = Session_backend(s);
   t->dev = *Session_device(s);
   Session_close(s);
   if ((rc = chooseCandidates(t)))
      return rc;
   for (int i = 0; i < t->suite->count; i++) {
      Problem p = t->problem;
      p.k = t->suite->shapes[i].k;
      if ((rc = Cli_checkScalars(o, &p, true)))
         return rc;
   }
   Cli_sweepSearch(o, &t->strategy, &t->budget);
   t->seed = o->timing.has_seed ? o->timing.seed : Rng_freshSeed();
   Recorder_open(&t->rec, o);
   if (!t->rec.store) {
      fprintf(stderr, "gemmtop: tune keeps every result in the results store (that is how a stopped tune "
                      "resumes, and where the dispatch table is read from): name one that can be written with "
                      "--store FILE\n");
      return 1;
   }
   return 0;
}

int Cli_tune(const Options *o) {
   Tune *t = calloc(1, sizeof *t);
   if (!t) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      return 1;
   }
   t->o = o;
   t->tty = isatty(2);
   if (!Cli_loadCatalog(&t->cat)) {
      free(t);
      return 1;
   }
   int rc = prepare(t);
   if (!rc) {
      char layout[3];
      Problem_layoutName(&t->problem, layout);
      fprintf(stderr, "tune %s on %s (%s), %s %s: %d shapes, %d candidate%s, ", t->suite->name, t->dev.name,
              t->be->name, Precision_name(t->problem.precision), layout, t->suite->count, t->ncands,
              t->ncands == 1 ? "" : "s");
      if (t->budget)
         fprintf(stderr, "%d configuration%s a shape", t->budget, t->budget == 1 ? "" : "s");
      else
         fprintf(stderr, "every valid configuration");
      if (o->sweep.time_budget > 0)
         fprintf(stderr, " within %g s a shape", o->sweep.time_budget);
      fprintf(stderr, " (%s); the files go to %s\n", SearchStrategy_name(t->strategy), t->dir);
   }
   for (int i = 0; !rc && i < t->suite->count; i++)
      if (!sweepShape(t, i)) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         rc = 1;
      }
   if (!rc)
      rc = ship(t);
   Recorder_close(&t->rec);
   free(t->suite);
   Catalog_free(&t->cat);
   free(t);
   return rc;
}
