/* gemmtop sweep: searches a kernel's parameter space. Configurations that break a rule
 * are dropped before compiling; a search strategy (core/search.h: random by default,
 * exhaustive, or anneal, genetic and bayes, which learn from what was measured) proposes
 * the rest, within --budget and --time-budget. What it proposes is compiled in parallel
 * into the disk cache, then verified and timed one by one in a child process, where a
 * launch that does not end can be abandoned (core/measurer.h); the outcomes go back to the
 * strategy. Every skipped configuration says why: invalid, compile failed, wrong result,
 * timeout. With a list of --size, each size is searched and the best across them named.
 * --simulate replays a recorded space instead (cli_simulate.c); --mpi measures on the
 * ranks of an MPI job instead of here (a SweepDriver: cli_sweep.h, mpisweep.c). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_sweep.h"
#include "cli/mpisweep.h"
#include "core/ahead.h"
#include "core/shapes.h"
#include "core/measurer.h"
#include "cli/recorder.h"
#include "base/diskcache.h"
#include "core/peaks.h"
#include "cli/report.h"
#include "base/rng.h"
#include "core/search.h"
#include "core/sweep.h"
#include "base/util.h"

static void progress(bool tty, const char *what, int done, int total, double t0, const char *best) {
   if (!tty)
      return;
   int width = 30, fill = total ? done * width / total : width;
   double elapsed = (Util_nowMs() - t0) / 1000, eta = done ? elapsed * (total - done) / done : 0;
   fprintf(stderr, "\r%-9s [", what);
   for (int i = 0; i < width; i++)
      fputc(i < fill ? '#' : ' ', stderr);
   fprintf(stderr, "] %d/%d  ETA %d:%02d  %s\033[K", done, total, (int)eta / 60, (int)eta % 60, best);
   fflush(stderr);
}

void Cli_sweepProgress(bool tty, const char *what, int done, int total, double t0, const char *best) {
   progress(tty, what, done, total, t0, best);
}

/* The progress line of SweepRun_measureAll (core/sweeprun.h): a phase ends with best NULL. */
static void onProgress(void *ctx, const char *phase, int done, int total, double since, const char *best) {
   CliSweepProgress *pr = ctx;
   if (best)
      Util_copy(pr->best, sizeof pr->best, best);
   progress(pr->tty, phase, done, total, since, pr->best);
   if (!best && pr->tty)
      fputc('\n', stderr);
   if (!best)
      pr->best[0] = '\0';
}

static void onNote(void *ctx, const char *text) {
   (void)ctx;
   fprintf(stderr, "gemmtop: %s\n", text);
}

SweepEvents Cli_sweepEvents(CliSweepProgress *pr) {
   return (SweepEvents){.progress = onProgress, .note = onNote, .ctx = pr};
}

/* A record into the store through the command's recorder, which says a failure once. */
static void recordInto(void *ctx, StoreRecord *r) { Recorder_add(ctx, r, 1); }

/* What limits configuration c (core/limiter.h) as a table's column; false, col empty, when
 * dev's ceilings are not measured, it failed, or it was emulated. */
static bool limitOf(const DeviceInfo *dev, const char *backend, const KernelInfo *k, const Problem *p,
                    const SweepCandidate *c, bool emulated, char *col, size_t len) {
   col[0] = '\0';
   Peaks peaks;
   if (c->outcome != SWEEP_OK || emulated || !Peaks_cached(dev, backend, &peaks) || !peaks.known)
      return false;
   LimiterInputs li;
   Limiter lim;
   Limiter_ofCandidate(dev, k, p, c, &peaks, &li, &lim);
   Limiter_column(&lim, &li, col, len);
   return col[0] != '\0';
}

/* Every tried configuration as CSV or JSON lines into f (the caller checks the writes);
 * JSON says what limits each where the ceilings are measured. */
static void writeResults(FILE *f, bool json, bool header, const KernelInfo *k, const Problem *p, const char *backend,
                         const SweepModel *models, const SweepCandidate *c, int n, bool emulated) {
   if (!json && header)
      fprintf(f, "kernel,params,device,m,n,k,precision,outcome,gflops,time_ms,compile_ms,max_rel_err,reason,emulated\n");
   for (int i = 0; i < n; i++) {
      char params[512];
      KernelInfo_formatParams(k, c[i].values, params, sizeof params);
      const DeviceInfo *dev = &models[c[i].model].dev;
      if (json) {
         fprintf(f, "{\"schema\":%d,\"kernel\":", REPORT_SCHEMA);
         Report_jsonString(f, k->name);
         fprintf(f, ",\"params\":{");
         for (int j = 0; j < k->nparams; j++) {
            fprintf(f, "%s", j ? "," : "");
            Report_jsonString(f, k->params[j].name);
            fprintf(f, ":%lld", c[i].values[j]);
         }
         fprintf(f, "},\"device\":");
         Report_jsonString(f, dev->name);
         fprintf(f,
                 ",\"m\":%d,\"n\":%d,\"k\":%d,\"precision\":\"%s\",\"input_type\":\"%s\",\"compute_type\":\"%s\","
                 "\"output_type\":\"%s\",\"outcome\":\"%s\",\"verified\":%s",
                 p->m, p->n, p->k, Precision_name(p->precision), Precision_inputType(p->precision),
                 Precision_computeType(p->precision), Precision_outputType(p->precision), SweepOutcome_name(c[i].outcome),
                 c[i].outcome == SWEEP_OK ? "true" : "false");
         if (c[i].outcome == SWEEP_OK)
            fprintf(f, ",\"gflops\":%.6g,\"time_ms\":%.6g,\"compile_ms\":%.6g,\"max_rel_err\":%.3g", c[i].gflops,
                    c[i].median_ms, c[i].compile_ms, c[i].max_rel_err);
         if (c[i].outcome == SWEEP_OK && c[i].vendor_gflops > 0)
            fprintf(f, ",\"vendor_gflops\":%.6g", c[i].vendor_gflops);
         char limit[64];
         if (limitOf(dev, backend, k, p, &c[i], emulated, limit, sizeof limit)) {
            fprintf(f, ",\"limit\":");
            Report_jsonString(f, limit);
         }
         fprintf(f, ",\"reason\":");
         Report_jsonString(f, c[i].reason);
         fprintf(f, ",\"emulated\":%s}\n", emulated ? "true" : "false");
      } else {
         fprintf(f, "%s,\"%s\",\"%s\",%d,%d,%d,%s,%s,", k->name, params, dev->name, p->m, p->n, p->k,
                 Precision_name(p->precision), SweepOutcome_name(c[i].outcome));
         if (c[i].outcome == SWEEP_OK)
            fprintf(f, "%.6g,%.6g,%.6g,%.3g,", c[i].gflops, c[i].median_ms, c[i].compile_ms, c[i].max_rel_err);
         else
            fprintf(f, ",,,,");
         fputc('"', f);
         for (const char *s = c[i].reason; *s; s++) {
            if (*s == '"')
               fputc('"', f);
            fputc(*s == '\n' ? ' ' : *s, f);
         }
         fprintf(f, "\",%s\n", emulated ? "true" : "false");
      }
   }
}

static bool isJsonName(const char *path) { return strlen(path) > 5 && !strcmp(path + strlen(path) - 5, ".json"); }

/* One problem size's sweep: its space, then its run (core/sweeprun.h), and what was tried
 * (best first once ranked). */
typedef struct SizeRun_ {
   Problem p;
   char label[112];   /* how reports name it: "4096x4096x1024", or a shape's "qkv-128 (128x6144x4096)" */
   double weight;     /* in the geometric mean across sizes (a shape suite's, else 1) */
   SweepSpace sp;     /* listed; moved into the run when it opens */
   SweepRun *run;
   SweepCandidate *tried;
   int n;
   int counts[SWEEP_OUTCOMES];
   int stopped;       /* a driver's exit code: the sweep was stopped (a signal) */
} SizeRun;

/* Everything a size's search needs that is the same for every size. */
typedef struct SweepPlan_ {
   const Options *o;
   const Catalog *cat;
   const KernelInfo *k;
   const long long *base;
   DeviceInfo dev;
   char backend[16];
   SearchStrategy strategy;
   int budget;             /* configurations per size; 0 all */
   unsigned free_mask;
   Recorder *rec;
   uint64_t seed;
   bool emulated, tty;
   double t0;              /* when the sweep began, for --time-budget */
   const SweepDriver *driver; /* who measures (NULL: this process) */
   SweepModel models[SWEEP_MAX_MODELS]; /* the device models that measured (the driver's; else dev) */
   int nmodels;
   char suite[64];         /* --shapes: the suite's name ("" for --size) */
   const char *server;     /* a class server measures (--server), on device slot server_device */
   int server_device;
} SweepPlan;

/* The class server's device (--device: its slot there), as the server describes it. */
static bool serverDevice(const Options *o, const char *server, SweepPlan *pl) {
   char why[1024];
   pl->server_device = o->sel.device ? atoi(o->sel.device) : -1;
   if (!Measurer_serverDevice(server, pl->server_device, &pl->dev, pl->backend, sizeof pl->backend, why,
                              sizeof why)) {
      fprintf(stderr, "gemmtop: %s\n", why);
      return false;
   }
   return true;
}

/* Opens a size's run on its listed space: the store's key, and what it holds. False when
 * out of memory. */
static bool openRun(const SweepPlan *pl, SizeRun *run) {
   const Options *o = pl->o;
   bool store = pl->rec->store != NULL;
   SweepSetup su = {.k = pl->k, .kernels_dir = pl->cat->dir, .backend = pl->backend, .dev = &pl->dev,
                    .problem = run->p, .base = pl->base, .free_mask = pl->free_mask, .strategy = pl->strategy,
                    .budget = pl->budget, .time_budget_s = o->sweep.time_budget, .t0 = pl->t0, .seed = pl->seed,
                    .reps = o->timing.reps, .warmup = o->timing.warmup,
                    .timeout_s = Sweep_timeout(o->sweep.timeout, &pl->dev), .cold_l2 = o->timing.cold_l2,
                    .emulated = pl->emulated, .server = pl->server, .server_device = pl->server_device,
                    .store = pl->rec->store, .fresh = o->storage.fresh,
                    .record = store ? recordInto : NULL, .record_ctx = pl->rec};
   run->run = SweepRun_open(&su, &run->sp);
   if (run->run && SweepRun_another(run->run))
      fprintf(stderr, "gemmtop: another sweep of this space is running on this store: each sweep takes what "
                      "the store holds when it starts, so the two may measure the same configurations; run "
                      "this one again when the other is done to take its results\n");
   return run->run != NULL;
}

/* Searches one size: here (compiled ahead, measured in a child process) or by the driver.
 * False when out of memory. */
static bool searchSize(SweepPlan *pl, SizeRun *run) {
   if (pl->driver) {
      run->stopped = SweepRun_drive(run->run, pl->driver, pl->tty, pl->models, &pl->nmodels);
      return run->stopped >= 0;
   }
   CliSweepProgress pr = {.tty = pl->tty};
   SweepEvents ev = Cli_sweepEvents(&pr);
   return SweepRun_measureAll(run->run, pl->o->sweep.jobs, &ev);
}

/* The table (or CSV/JSON) on stdout, best first; first: the first size (the CSV header). */
/* One device model's table, best first: against its peak and, when it was timed, the
 * vendor BLAS of the GPU that measured each (sweep --mpi). With several models each
 * says which it is. */
static void reportModel(const SweepPlan *pl, const SizeRun *run, int model) {
   const SweepModel *sm = &pl->models[model];
   const SweepCandidate *all = run->tried;
   Peaks peaks;
   Peaks_cached(&sm->dev, pl->backend, &peaks);
   double peak = Peaks_for(&peaks, run->p.precision, pl->k, pl->emulated);
   bool vendor = false;
   for (int i = 0; i < run->n; i++)
      vendor |= all[i].model == model && all[i].outcome == SWEEP_OK && all[i].vendor_gflops > 0;
   if (pl->nmodels > 1)
      printf("%s%s:\n", model ? "\n" : "", sm->dev.name);
   char vendorHead[80];
   snprintf(vendorHead, sizeof vendorHead, "%% %s", sm->vendor_name);
   /* What limits each (core/limiter.h), where the device's ceilings are measured. */
   bool limits = peaks.known && !pl->emulated;
   printf("%-4s %-48s %12s %10s %8s", pl->emulated ? "#" : "rank", "parameters", "GFLOPS", "ms",
          peak > 0 ? "% peak" : "");
   if (vendor)
      printf(" %10s", vendorHead);
   printf(limits ? "  limit\n" : "\n");
   int shown = 0;
   for (int i = 0; i < run->n && shown < 15; i++) {
      if (all[i].outcome != SWEEP_OK || all[i].model != model)
         continue;
      char params[512];
      KernelInfo_formatParams(pl->k, all[i].values, params, sizeof params);
      printf("%-4d %-48s %12.2f %10.4f", ++shown, params, all[i].gflops, all[i].median_ms);
      if (peak > 0)
         printf(" %7.1f%%", 100 * all[i].gflops / peak);
      else if (vendor)
         printf(" %8s", "");
      if (vendor && all[i].vendor_gflops > 0)
         printf(" %9.1f%%", 100 * all[i].gflops / all[i].vendor_gflops);
      else if (vendor && limits)
         printf(" %10s", "");
      char col[64];
      if (limits && limitOf(&sm->dev, pl->backend, pl->k, &run->p, &all[i], pl->emulated, col, sizeof col))
         printf("  %s", col);
      putchar('\n');
   }
}

static void report(const SweepPlan *pl, const SizeRun *run, bool first, bool several) {
   const Options *o = pl->o;
   const KernelInfo *k = pl->k;
   const SweepCandidate *all = run->tried;
   int n = run->n;
   const int *counts = run->counts;
   if (o->output.format != FORMAT_TABLE) {
      writeResults(stdout, o->output.format == FORMAT_JSON, first, k, &run->p, pl->backend, pl->models, all, n,
                   pl->emulated);
      return;
   }
   if (several)
      printf("%s%s:\n", first ? "" : "\n", run->label);
   if (pl->emulated && first)
      printf("EMULATED: no tensor cores on %s: the configurations were verified; their times are the\n"
             "emulation's, in the order tried, not ranked\n",
             pl->dev.name);
   for (int m = 0; m < pl->nmodels; m++)
      reportModel(pl, run, m);
   printf("\ntried %d of %d valid (%d invalid dropped before compiling): %d ok, %d compile failed, %d wrong result, "
          "%d timeout, %d failed; %.1f s; timed with a %s L2%s",
          n, SweepRun_space(run->run)->count, SweepRun_space(run->run)->invalid, counts[SWEEP_OK],
          counts[SWEEP_COMPILE], counts[SWEEP_WRONG], counts[SWEEP_TIMEOUT], counts[SWEEP_FAILED],
          (Util_nowMs() - pl->t0) / 1000, pl->o->timing.cold_l2 ? "cold" : "warm",
          SweepRun_outOfTime(run->run) ? "; --time-budget reached" : "");
   if (SweepRun_taken(run->run))
      printf("; %d of them from the results store", SweepRun_taken(run->run));
   putchar('\n');
   for (int i = 0; i < n; i++)
      if (all[i].outcome != SWEEP_OK && all[i].outcome != SWEEP_PENDING) {
         char params[512];
         KernelInfo_formatParams(k, all[i].values, params, sizeof params);
         char *nl = strchr(all[i].reason, '\n');
         printf("  skipped %s: %s: %.*s\n", params, SweepOutcome_name(all[i].outcome),
                nl ? (int)(nl - all[i].reason) : 200, all[i].reason);
      }
}

/* --save-presets: the best ones as presets in the user's folder. 0 or 1. */
static int savePresets(const Options *o, const KernelInfo *k, const Problem *p, const DeviceInfo *dev,
                       const SweepCandidate *all, int ok) {
   char dir[1024], err[1024];
   if (!Preset_userDir(dir, sizeof dir, true)) {
      fprintf(stderr, "gemmtop: cannot create the presets folder\n");
      return 1;
   }
   for (int i = 0; i < o->sweep.save_presets && i < ok; i++) {
      char path[1200], desc[256];
      snprintf(path, sizeof path, "%s/sweep-%s-%d-%d.preset", dir, k->name, p->m, i + 1);
      snprintf(desc, sizeof desc, "sweep #%d of %s: %.1f GFLOPS at %dx%dx%d on %s", i + 1, k->name, all[i].gflops,
               p->m, p->n, p->k, dev->name);
      if (!Preset_save(path, desc, k, all[i].values, p, err, sizeof err)) {
         fprintf(stderr, "gemmtop: %s\n", err);
         return 1;
      }
      fprintf(stderr, "saved %s\n", path);
   }
   return 0;
}

/* ---- several sizes ---- */

#define CROSS_TOP 3 /* each size's best, also run at the other sizes */

static int findTried(const SizeRun *run, const long long *values) { return SweepRun_find(run->run, values); }

static void rankRun(SizeRun *run) {
   SweepRun_rank(run->run, run->counts);
   run->tried = SweepRun_tried(run->run, &run->n);
}

/* Each size's best few are also run at the other sizes (where valid and not tried), so
 * that the best across sizes is chosen among configurations verified at every size.
 * False when out of memory. */
static bool crossCheck(const SweepPlan *pl, SizeRun *runs, int nruns) {
   long long picks[SWEEP_MAX_SIZES * CROSS_TOP][KERNEL_MAX_PARAMS];
   int npicks = 0;
   for (int a = 0; a < nruns; a++)
      for (int i = 0; i < runs[a].n && i < CROSS_TOP && runs[a].tried[i].outcome == SWEEP_OK; i++)
         memcpy(picks[npicks++], runs[a].tried[i].values, sizeof picks[0]);
   for (int b = 0; b < nruns; b++) {
      int added = 0;
      for (int x = 0; x < npicks; x++) {
         if (findTried(&runs[b], picks[x]) >= 0 ||
             !Config_check(pl->k, picks[x], &runs[b].p, &pl->dev.limits, NULL, NULL, 0))
            continue;
         if (!SweepRun_measureExtra(runs[b].run, picks[x]))
            return false;
         added++;
      }
      if (added) {
         fprintf(stderr, "%s: %d of the other sizes' best also run here\n", runs[b].label, added);
         rankRun(&runs[b]);
      }
   }
   return true;
}

/* The best per size, and the best across them: the highest (weighted, for a shape suite)
 * geometric mean of its fraction of each size's best, among the configurations verified at
 * every size. On stderr for --format csv and json, whose stdout is the results. */
static void acrossSizes(const SweepPlan *pl, const SizeRun *runs, int nruns) {
   FILE *out = pl->o->output.format == FORMAT_TABLE ? stdout : stderr;
   int best = -1, everywhere = 0;
   double bestScore = 0;
   fprintf(out, "\nbest per size:\n");
   for (int s = 0; s < nruns; s++) {
      char params[512] = "none verified";
      bool ok = runs[s].n > 0 && runs[s].tried[0].outcome == SWEEP_OK;
      if (ok)
         KernelInfo_formatParams(pl->k, runs[s].tried[0].values, params, sizeof params);
      fprintf(out, "  %-18s %-48s", runs[s].label, params);
      if (ok)
         fprintf(out, " %12.2f GFLOPS", runs[s].tried[0].gflops);
      fputc('\n', out);
   }
   for (int i = 0; i < runs[0].n && runs[0].tried[i].outcome == SWEEP_OK; i++) {
      double frac[SWEEP_MAX_SIZES], w[SWEEP_MAX_SIZES];
      bool all = true;
      for (int s = 0; s < nruns && all; s++) {
         int j = findTried(&runs[s], runs[0].tried[i].values);
         all = j >= 0 && runs[s].tried[j].outcome == SWEEP_OK;
         if (all)
            frac[s] = runs[s].tried[j].gflops / runs[s].tried[0].gflops, w[s] = runs[s].weight;
      }
      double score = all ? Shapes_weightedGeomean(frac, w, nruns, NULL) : 0;
      if (all && (everywhere++ == 0 || score > bestScore))
         best = i, bestScore = score;
   }
   if (best < 0) {
      fprintf(out, "best across the %d sizes: none: no configuration was verified at every size\n", nruns);
      return;
   }
   char params[512];
   KernelInfo_formatParams(pl->k, runs[0].tried[best].values, params, sizeof params);
   fprintf(out, "best across the %d sizes: %s: %.1f%% of each size's best (%sgeometric mean;", nruns, params,
           100 * bestScore, pl->suite[0] ? "weighted " : "");
   for (int s = 0; s < nruns; s++) {
      int j = findTried(&runs[s], runs[0].tried[best].values);
      fprintf(out, "%s %.1f%% at %s", s ? "," : "", 100 * runs[s].tried[j].gflops / runs[s].tried[0].gflops,
              runs[s].label);
   }
   fprintf(out, ")\n  the rule: the highest %sgeometric mean of the fraction of each size's best, among the %d "
                "configurations verified at every size (each size's best %d were also run at the others)\n",
           pl->suite[0] ? "weighted (the suite's weights) " : "", everywhere, CROSS_TOP);
}

/* ---- the command ---- */

/* The sizes swept: a shape suite's (--shapes, with labels and weights), --size's list, or
 * the one problem. Their count, or -1 with the message printed. */
static int sizeRuns(const Options *o, const Problem *p, const char *kernels_dir, SizeRun *runs, char *suite,
                    size_t suitelen) {
   ShapeSuite *ss = NULL;
   char err[1024];
   int n = o->shape.nsize_list > 1 ? o->shape.nsize_list : 1;
   if (o->shape.shapes && o->shape.nsize_list > 1) {
      fprintf(stderr, "gemmtop: --shapes and a list of --size both give the sizes: give one\n");
      return -1;
   }
   if (o->shape.shapes) {
      ss = malloc(sizeof *ss);
      if (!ss || !Shapes_resolve(o->shape.shapes, kernels_dir, ss, err, sizeof err)) {
         fprintf(stderr, "gemmtop: %s\n", ss ? err : "out of host memory");
         free(ss);
         return -1;
      }
      n = ss->count;
      Util_copy(suite, suitelen, ss->name);
   }
   for (int i = 0; i < n; i++) {
      SizeRun *r = &runs[i];
      r->p = *p;
      r->weight = 1;
      if (ss)
         r->p.m = ss->shapes[i].m, r->p.n = ss->shapes[i].n, r->p.k = ss->shapes[i].k, r->weight = ss->shapes[i].weight;
      else if (n > 1)
         r->p.m = o->shape.size_list[i][0], r->p.n = o->shape.size_list[i][1], r->p.k = o->shape.size_list[i][2];
      if (ss)
         snprintf(r->label, sizeof r->label, "%s (%dx%dx%d)", ss->shapes[i].label, r->p.m, r->p.n, r->p.k);
      else
         snprintf(r->label, sizeof r->label, "%dx%dx%d", r->p.m, r->p.n, r->p.k);
   }
   free(ss);
   return n;
}

/* Lists each size's valid configurations; 0, or the exit code with the message printed. */
static int listSpaces(SweepPlan *pl, const Backend *be, SizeRun *runs, int nruns, unsigned free_mask) {
   /* The device first: no parameter makes a kernel run where its instructions cannot. */
   char why[1024];
   ConfigTarget target = Session_targetFor(be, &pl->dev);
   if (!Config_targetOk(pl->k, &target, why, sizeof why)) {
      fprintf(stderr, "gemmtop: refused: %s\n", why);
      return 2;
   }
   Rng rng;
   Rng_seed(&rng, pl->seed);
   for (int i = 0; i < nruns; i++) {
      SweepSpace *sp = &runs[i].sp;
      char err[1024];
      if (!Sweep_enumerate(pl->k, pl->base, free_mask, &runs[i].p, &pl->dev.limits, &rng, sp)) {
         fprintf(stderr, "gemmtop: out of host memory for %.0f configurations\n", sp->space);
         return 1;
      }
      if (sp->count == 0) {
         fprintf(stderr,
                 "gemmtop: no valid configuration of %s for %dx%dx%d on this device (%d invalid; e.g. %s)\n",
                 pl->k->name, runs[i].p.m, runs[i].p.n, runs[i].p.k, sp->invalid, sp->first_invalid);
         return 2;
      }
      if (!Session_fitsOn(&pl->dev, &runs[i].p, err, sizeof err)) {
         fprintf(stderr, "gemmtop: %s\n", err);
         return 1;
      }
      /* Shuffled (the starting configuration, defaults and --set values, first). */
      Sweep_shuffle(sp, pl->k, pl->base, &rng);
   }
   return 0;
}

static void announce(const SweepPlan *pl, const SizeRun *run) {
   const SweepSpace *sp = SweepRun_space(run->run);
   int budget = SweepRun_budget(run->run), taken = SweepRun_taken(run->run), retried = SweepRun_retried(run->run);
   const char *how = pl->strategy == SEARCH_EXHAUSTIVE ? "all"
                     : pl->strategy == SEARCH_RANDOM   ? "random sample"
                                                       : SearchStrategy_name(pl->strategy);
   if (pl->strategy == SEARCH_EXHAUSTIVE && budget < sp->count)
      how = "in order";
   fprintf(stderr, "sweep %s on %s: %.0f configurations, %d invalid, %d valid; trying %d (%s)", pl->k->name,
           pl->dev.name, sp->space, sp->invalid, sp->count, budget, how);
   if (pl->o->sweep.time_budget > 0)
      fprintf(stderr, " within %g s", pl->o->sweep.time_budget);
   fprintf(stderr, ", %dx%dx%d %s, %s L2\n", run->p.m, run->p.n, run->p.k, Precision_name(run->p.precision),
           pl->o->timing.cold_l2 ? "cold" : "warm");
   if (taken)
      fprintf(stderr, "%d of %d configurations taken from the store (%s); --fresh measures them again\n", taken,
              budget, Store_path(pl->rec->store));
   if (retried)
      fprintf(stderr, "%d configuration%s stored as failed %s measured again\n", retried, retried == 1 ? "" : "s",
              retried == 1 ? "is" : "are");
}

void Cli_sweepSearch(const Options *o, SearchStrategy *strategy, int *budget) {
   *strategy = o->sweep.exhaustive ? SEARCH_EXHAUSTIVE : SEARCH_RANDOM;
   if (o->sweep.strategy)
      SearchStrategy_parse(o->sweep.strategy, strategy); /* the option's choices are the names */
   bool all = o->sweep.exhaustive || (*strategy == SEARCH_EXHAUSTIVE && !o->sweep.budget);
   *budget = all ? 0 : o->sweep.budget ? o->sweep.budget : 40;
}

/* The strategy and the budget from the options. */
static void planSearch(const Options *o, SweepPlan *pl) { Cli_sweepSearch(o, &pl->strategy, &pl->budget); }

/* The results of every size into --save; false with the message printed. */
static bool saveAll(const SweepPlan *pl, OutFile *save, const SizeRun *runs, int nruns) {
   char err[1024];
   bool json = isJsonName(pl->o->output.save);
   for (int i = 0; i < nruns; i++)
      writeResults(OutFile_stream(save), json, i == 0, pl->k, &runs[i].p, pl->backend, pl->models, runs[i].tried, runs[i].n,
                   pl->emulated);
   if (!OutFile_commit(save, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --save %s\n", err);
      return false;
   }
   return true;
}

static int finish(const SweepPlan *pl, SizeRun *runs, int nruns, OutFile *save, int rc) {
   const Options *o = pl->o;
   for (int i = 0; i < nruns && rc == 0; i++)
      if (!runs[i].counts[SWEEP_OK])
         rc = 1;
   if (save && !saveAll(pl, save, runs, nruns))
      rc = 1;
   if (o->sweep.save_presets && pl->emulated)
      fprintf(stderr, "gemmtop: --save-presets ignored: an emulated sweep is not ranked\n");
   for (int i = 0; i < nruns && o->sweep.save_presets && !pl->emulated; i++)
      if (runs[i].counts[SWEEP_OK] > 0 &&
          savePresets(o, pl->k, &runs[i].p, &pl->dev, runs[i].tried, runs[i].counts[SWEEP_OK]))
         rc = 1;
   return rc;
}

/* What sweep --mpi takes: one size, a strategy that learns nothing (the whole budget is
 * handed out at once), no --time-budget. 0, or 2 with the message. */
static int driverRefuses(const Options *o, const SweepPlan *pl) {
   if (o->shape.nsize_list <= 1 && pl->strategy < SEARCH_ANNEAL && o->sweep.time_budget <= 0)
      return 0;
   fprintf(stderr, "gemmtop: --mpi sweeps one size with the exhaustive or random strategy, without --time-budget\n");
   return 2;
}

int Cli_sweep(const Options *o) {
   if (o->sweep.simulate)
      return Cli_simulate(o);
   if (o->sweep.mpi || o->sweep.mpi_simulate)
      return MpiSweep_main(o);
   return Cli_sweepWith(o, NULL);
}

int Cli_sweepWith(const Options *o, const SweepDriver *d) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   SweepPlan pl = {.o = o, .cat = &cat, .tty = isatty(2), .driver = d, .nmodels = 1};
   long long base[KERNEL_MAX_PARAMS];
   Problem p;
   int rc = Cli_resolveConfig(o, &cat, &pl.k, base, &p);
   pl.base = base;
   OutFile *save = NULL;
   if (rc || (rc = Cli_openOutput("--save", o->output.save, OUTFILE_STREAM_OK, &save))) {
      Catalog_free(&cat);
      return rc;
   }
   const KernelInfo *k = pl.k;
   /* The free parameters: those not fixed with --set. */
   Selection sel = Cli_selection(o);
   unsigned free_mask = 0;
   for (int i = 0; i < k->nparams; i++)
      if (!Select_sets(&sel, k->params[i].name))
         free_mask |= 1u << i;
   SizeRun *runs = calloc(SWEEP_MAX_SIZES, sizeof *runs);
   int nruns = runs ? sizeRuns(o, &p, cat.dir, runs, pl.suite, sizeof pl.suite) : -1;
   /* On a class server: its device, described by it; nothing is opened here. */
   const char *server = d ? NULL : Cli_server(o);
   Session *s = nruns > 0 && !server ? Cli_openSession(o, &cat, &rc) : NULL;
   if (nruns > 0 && server && !serverDevice(o, server, &pl))
      rc = 1;
   if (!s && (!server || rc || nruns <= 0)) {
      if (!runs)
         fprintf(stderr, "gemmtop: out of host memory\n");
      free(runs);
      OutFile_discard(save);
      Catalog_free(&cat);
      return nruns < 0 ? 2 : rc;
   }
   if (s) {
      Util_copy(pl.backend, sizeof pl.backend, Session_backend(s)->name);
      pl.dev = *Session_device(s);
   }
   pl.server = server;
   pl.seed = o->timing.has_seed ? o->timing.seed : Rng_freshSeed();
   pl.models[0].dev = pl.dev;
   planSearch(o, &pl);
   if (d && (rc = driverRefuses(o, &pl))) {
      Session_close(s);
      free(runs);
      OutFile_discard(save);
      Catalog_free(&cat);
      return rc;
   }
   /* A tensor kernel without tensor cores runs its emulation: each configuration is still
    * verified, but times that are not a tensor core's are not ranked. */
   pl.emulated = k->tensor && !Config_tensorPtx(k, &pl.dev.limits, p.precision);
   pl.free_mask = free_mask;
   rc = listSpaces(&pl, s ? Session_backend(s) : Backend_byName(pl.backend), runs, nruns, free_mask);
   if (!rc && server)
      fprintf(stderr, "gemmtop: measured on the class server %s (%s), each configuration in its turn\n", server,
              pl.dev.name);
   /* The device is the measuring processes' from here. */
   Session_close(s);
   pl.t0 = Util_nowMs();
   /* Resume: what the store has for a size's sweep is not measured again (unless --fresh);
    * a simulation neither takes from the store nor records. */
   Recorder rec = {0};
   if (!d || !d->no_store)
      Recorder_open(&rec, o);
   pl.rec = &rec;
   for (int i = 0; i < nruns && !rc; i++)
      if (!openRun(&pl, &runs[i])) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         rc = 1;
      }
   for (int i = 0; i < nruns && !rc; i++) {
      announce(&pl, &runs[i]);
      if (!searchSize(&pl, &runs[i])) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         rc = 1;
      } else
         rc = runs[i].stopped;
      rankRun(&runs[i]);
   }
   if (!rc && nruns > 1 && !pl.emulated && !crossCheck(&pl, runs, nruns)) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
   }
   Recorder_close(&rec);
   for (int i = 0; i < nruns && !rc; i++)
      report(&pl, &runs[i], i == 0, nruns > 1);
   if (!rc && nruns > 1 && !pl.emulated)
      acrossSizes(&pl, runs, nruns);
   if (rc)
      OutFile_discard(save);
   else
      rc = finish(&pl, runs, nruns, save, rc);
   for (int i = 0; i < nruns; i++) {
      SweepSpace_free(&runs[i].sp);
      SweepRun_close(runs[i].run);
   }
   free(runs);
   Catalog_free(&cat);
   return rc;
}
