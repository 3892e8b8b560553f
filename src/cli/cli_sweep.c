/* gemmtop sweep: searches a kernel's parameter space. Configurations that break a rule
 * are dropped before compiling; the rest (a random sample within the budget, or all)
 * are compiled in parallel into the disk cache, then verified and timed one by one in a
 * child process, where a launch that does not end can be abandoned (cli/measure.h).
 * Every skipped configuration says why: invalid, compile failed, wrong result, timeout. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/ahead.h"
#include "cli/measure.h"
#include "cli/recorder.h"
#include "core/diskcache.h"
#include "core/peaks.h"
#include "cli/report.h"
#include "core/rng.h"
#include "core/sweep.h"
#include "core/util.h"

typedef SweepCandidate Candidate;

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

static int compareGflops(const void *a, const void *b) {
   const Candidate *x = a, *y = b;
   if (x->outcome != y->outcome)
      return (x->outcome != SWEEP_OK) - (y->outcome != SWEEP_OK);
   return (x->gflops < y->gflops) - (x->gflops > y->gflops);
}

/* Every tried configuration as CSV or JSON lines into f (the caller checks the writes). */
static void writeResults(FILE *f, bool json, const KernelInfo *k, const Problem *p, const DeviceInfo *dev,
                         const Candidate *c, int n, bool emulated) {
   if (!json)
      fprintf(f, "kernel,params,device,m,n,k,precision,outcome,gflops,time_ms,compile_ms,max_rel_err,reason,emulated\n");
   for (int i = 0; i < n; i++) {
      char params[512];
      KernelInfo_formatParams(k, c[i].values, params, sizeof params);
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

/* Compiles the candidates into the disk cache with the compile-ahead pool (its own
 * session on the same device, --jobs threads), so that the runs load them; a candidate
 * that does not compile is marked with the compiler's message and not run. */
static void compileAhead(const Options *o, const Catalog *cat, Session *s, const KernelInfo *k, const Problem *p,
                         Candidate *cands, int n, bool tty, double t0) {
   long cores = sysconf(_SC_NPROCESSORS_ONLN);
   int jobs = o->jobs ? o->jobs : (int)(cores > 0 ? cores : 1);
   if (jobs > AHEAD_MAX_THREADS)
      jobs = AHEAD_MAX_THREADS;
   char err[1024];
   Ahead *pool = Ahead_start(cat->dir, jobs, err, sizeof err);
   long long (*values)[KERNEL_MAX_PARAMS] = malloc(sizeof *values * (size_t)n);
   if (!pool || !values) {
      fprintf(stderr, "gemmtop: compiling one by one: %s\n", pool ? "out of host memory" : err);
      free(values);
      Ahead_stop(pool, 1000);
      return;
   }
   for (int i = 0; i < n; i++)
      memcpy(values[i], cands[i].values, sizeof values[i]);
   AheadTarget t = Ahead_target(Session_backend(s)->name, Session_device(s)->index, k->name, p, 0);
   Ahead_want(pool, &t, (const long long (*)[KERNEL_MAX_PARAMS])values, n);
   free(values);
   AheadStatus st;
   do {
      Ahead_status(pool, &st);
      progress(tty, "compiling", st.done + st.failed, n, t0, "");
   } while (!Ahead_wait(pool, 100));
   progress(tty, "compiling", n, n, t0, "");
   if (tty)
      fputc('\n', stderr);
   Ahead_status(pool, &st);
   if (st.error[0])
      fprintf(stderr, "gemmtop: compiling ahead: %s; the runs compile instead\n", st.error);
   for (int i = 0; i < n; i++) {
      RunStatus rs;
      if (Ahead_job(pool, i, &rs, err, sizeof err) == AHEAD_FAILED && rs == RUN_COMPILE_ERROR) {
         cands[i].outcome = SWEEP_COMPILE;
         snprintf(cands[i].reason, sizeof cands[i].reason, "%s", err);
      }
   }
   /* Idle now: its threads end at once. */
   Ahead_stop(pool, 10000);
}

/* Where a sweep's results go: the store (rec), under the sweep's key. */
typedef struct SweepRecording_ {
   Recorder *rec;
   RecordPlace at;
   const Problem *p;
   int reps;          /* timed launches of each configuration */
   char key[33];
} SweepRecording;

/* One configuration's outcome into the store as soon as it is known: a sweep killed
 * after it does not measure it again. */
static void recordOne(const SweepRecording *sr, const KernelInfo *k, const Candidate *c, bool emulated) {
   StoreRecord r;
   Record_fromCandidate(&r, "sweep", &sr->at, k, sr->p, c, emulated, false, sr->key);
   r.reps = c->outcome == SWEEP_OK ? sr->reps : 0;
   Recorder_add(sr->rec, &r, 1);
}

/* Verifies and times the candidates one by one, in a child process (cli/measure.h): a
 * launch over the timeout is abandoned with its process, and the sweep goes on. */
static void measureAll(const MeasureJob *job, const KernelInfo *k, Candidate *all, int n, bool emulated, bool tty,
                       const SweepRecording *sr) {
   Measurer *m = Measurer_new(job);
   double t1 = Util_nowMs();
   char best[256] = "";
   double bestGflops = 0;
   for (int i = 0; i < n; i++) {
      Candidate *c = &all[i];
      progress(tty, "running", i, n, t1, best);
      if (c->outcome == SWEEP_COMPILE) {
         recordOne(sr, k, c, emulated);
         continue;
      }
      if (!m) {
         c->outcome = SWEEP_FAILED;
         snprintf(c->reason, sizeof c->reason, "out of host memory");
         continue;
      }
      Measurer_run(m, c->values, k->nparams, c);
      recordOne(sr, k, c, emulated);
      if (c->outcome == SWEEP_OK && !emulated && c->gflops > bestGflops) {
         bestGflops = c->gflops;
         char params[200];
         KernelInfo_formatParams(k, c->values, params, sizeof params);
         snprintf(best, sizeof best, "best %.1f GFLOPS (%s)", c->gflops, params);
      }
   }
   progress(tty, "running", n, n, t1, best);
   if (tty)
      fputc('\n', stderr);
   Measurer_free(m);
}

/* The table (or CSV/JSON) on stdout, best first. */
static void report(const Options *o, const KernelInfo *k, const Problem *p, const DeviceInfo *dev, const char *backend,
                   Candidate *all, int n, int nall, int invalid, const int *counts, bool emulated, double t0,
                   int taken) {
   Peaks peaks;
   Peaks_cached(dev, backend, &peaks);
   double peak = Peaks_for(&peaks, p->precision, k->tensor, emulated);
   if (o->format != FORMAT_TABLE) {
      writeResults(stdout, o->format == FORMAT_JSON, k, p, dev, all, n, emulated);
      return;
   }
   if (emulated)
      printf("EMULATED: no tensor cores on %s: the configurations were verified; their times are the\n"
             "emulation's, in the order tried, not ranked\n",
             dev->name);
   printf("%-4s %-48s %12s %10s %8s\n", emulated ? "#" : "rank", "parameters", "GFLOPS", "ms", peak > 0 ? "% peak" : "");
   int shown = 0;
   for (int i = 0; i < n && shown < 15; i++) {
      if (all[i].outcome != SWEEP_OK)
         continue;
      char params[512];
      KernelInfo_formatParams(k, all[i].values, params, sizeof params);
      printf("%-4d %-48s %12.2f %10.4f", ++shown, params, all[i].gflops, all[i].median_ms);
      if (peak > 0)
         printf(" %7.1f%%", 100 * all[i].gflops / peak);
      putchar('\n');
   }
   printf("\ntried %d of %d valid (%d invalid dropped before compiling): %d ok, %d compile failed, %d wrong result, "
          "%d timeout, %d failed; %.1f s",
          n, nall, invalid, counts[SWEEP_OK], counts[SWEEP_COMPILE], counts[SWEEP_WRONG], counts[SWEEP_TIMEOUT],
          counts[SWEEP_FAILED], (Util_nowMs() - t0) / 1000);
   if (taken)
      printf("; %d of them from the results store", taken);
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
                       const Candidate *all, int ok) {
   char dir[1024], err[1024];
   if (!Preset_userDir(dir, sizeof dir, true)) {
      fprintf(stderr, "gemmtop: cannot create the presets folder\n");
      return 1;
   }
   for (int i = 0; i < o->save_presets && i < ok; i++) {
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

typedef struct Stored_ {
   const KernelInfo *k;
   Candidate *all;
   int nall;
   bool *taken;      /* [nall]: its outcome is the store's */
} Stored;

static bool takeRecord(const StoreRecord *r, void *ctx) {
   Stored *st = ctx;
   long long values[KERNEL_MAX_PARAMS];
   if (!Record_parseParams(st->k, r->params, values))
      return true;
   size_t bytes = sizeof values[0] * (size_t)st->k->nparams;
   for (int i = 0; i < st->nall; i++)
      if (!memcmp(st->all[i].values, values, bytes)) {
         /* Oldest first: a later record of the same configuration (--fresh) wins. */
         Record_toCandidate(r, &st->all[i]);
         st->taken[i] = true;
         break;
      }
   return true;
}

/* Resuming: the configurations that the store has under this sweep's key take their
 * outcome from it and move to the front, ahead of the budget. Returns how many. */
static int takeStored(Recorder *rec, const char *key, const KernelInfo *k, Candidate *all, int nall) {
   Stored st = {k, all, nall, calloc((size_t)nall, sizeof(bool))};
   StoreFilter f;
   StoreFilter_init(&f);
   f.sweep_key = key;
   char err[1536];
   if (!st.taken)
      return 0;
   if (!Store_query(rec->store, &f, takeRecord, &st, err, sizeof err))
      fprintf(stderr, "gemmtop: nothing taken from the store: %s\n", err);
   /* A stable partition: the taken ones first, each group in its shuffled order. */
   Candidate *sorted = malloc(sizeof *sorted * (size_t)nall);
   int taken = 0;
   for (int i = 0; sorted && i < nall; i++)
      taken += st.taken[i];
   for (int i = 0, front = 0, back = taken; sorted && i < nall; i++)
      sorted[st.taken[i] ? front++ : back++] = all[i];
   if (sorted)
      memcpy(all, sorted, sizeof *sorted * (size_t)nall);
   else
      taken = 0;
   free(sorted);
   free(st.taken);
   return taken;
}

/* Opens the store and names the sweep (sr's key); unless --fresh, what the store has of
 * it is not measured again: those configurations go first and n grows to hold them.
 * Returns how many were taken. */
static int resume(const Options *o, SweepRecording *sr, const KernelInfo *k, const long long *base,
                  unsigned free_mask, Candidate *all, int nall, int *n) {
   Recorder_open(sr->rec, o);
   Record_sweepKey(&sr->at, k, sr->p, base, free_mask, false, sr->key);
   int taken = sr->rec->store && !o->fresh ? takeStored(sr->rec, sr->key, k, all, nall) : 0;
   if (taken > *n)
      *n = taken;
   return taken;
}

int Cli_sweep(const Options *o) {
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long base[KERNEL_MAX_PARAMS];
   Problem p;
   int rc = Cli_resolveConfig(o, &cat, &k, base, &p);
   OutFile *save = NULL;
   if (rc || (rc = Cli_openOutput("--save", o->save, OUTFILE_STREAM_OK, &save))) {
      Catalog_free(&cat);
      return rc;
   }
   /* The free parameters: those not fixed with --set. */
   Selection sel = Cli_selection(o);
   unsigned free_mask = 0;
   for (int i = 0; i < k->nparams; i++)
      if (!Select_sets(&sel, k->params[i].name))
         free_mask |= 1u << i;
   Session *s = Cli_openSession(o, &cat, &rc);
   if (!s) {
      OutFile_discard(save);
      Catalog_free(&cat);
      return rc;
   }
   rc = 0;
   char backend[16], err[1024] = "";
   Util_copy(backend, sizeof backend, Session_backend(s)->name);
   const DeviceInfo dev = *Session_device(s);
   uint64_t seed = o->has_seed ? o->seed : Rng_freshSeed();
   Rng rng;
   Rng_seed(&rng, seed);
   /* Enumerate (or, for huge spaces, draw) configurations; drop the invalid ones now. */
   SweepSpace sp;
   if (!Sweep_enumerate(k, base, free_mask, &p, &dev.limits, &rng, &sp)) {
      fprintf(stderr, "gemmtop: out of host memory for %.0f configurations\n", sp.space);
      rc = 1;
   } else if (sp.count == 0) {
      fprintf(stderr, "gemmtop: no valid configuration of %s for this problem and device (%d invalid; e.g. %s)\n",
              k->name, sp.invalid, sp.first_invalid);
      rc = 2;
   } else if (!Session_fits(s, &p, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      rc = 1;
   }
   if (rc) {
      SweepSpace_free(&sp);
      OutFile_discard(save);
      Session_close(s);
      Catalog_free(&cat);
      return rc;
   }
   Candidate *all = sp.cands;
   int nall = sp.count, invalid = sp.invalid;
   /* A tensor kernel without tensor cores runs its emulation: each configuration is still
    * verified, but times that are not a tensor core's are not ranked. */
   const bool emulated = k->tensor && !dev.limits.tensor_ptx;
   /* Shuffle (the starting configuration, defaults and --set values, first), then take the budget. */
   Sweep_shuffle(&sp, k, base, &rng);
   int budget = o->exhaustive ? nall : (o->budget ? o->budget : 40);
   int n = budget < nall ? budget : nall;
   Recorder rec;
   SweepRecording sr = {.rec = &rec, .at = {backend, &dev}, .p = &p, .reps = o->reps};
   int taken = resume(o, &sr, k, base, free_mask, all, nall, &n);
   bool tty = isatty(2);
   fprintf(stderr, "sweep %s on %s: %.0f configurations, %d invalid, %d valid; trying %d (%s), %dx%dx%d %s\n", k->name,
           dev.name, sp.space, invalid, nall, n, o->exhaustive ? "all" : "random sample", p.m, p.n, p.k,
           Precision_name(p.precision));
   if (taken)
      fprintf(stderr, "%d of %d configurations taken from the store (%s); --fresh measures them again\n", taken, n,
              Store_path(rec.store));
   double t0 = Util_nowMs();
   if (DiskCache_enabled() && n - taken > 1)
      compileAhead(o, &cat, s, k, &p, all + taken, n - taken, tty, t0);
   /* The device is the measuring process's from here. */
   Session_close(s);
   MeasureJob job = {.device = dev.index, .problem = p, .seed = seed, .reps = o->reps, .warmup = o->warmup,
                     .timeout_s = o->timeout > 0 ? o->timeout : 5};
   Util_copy(job.backend, sizeof job.backend, backend);
   Util_copy(job.kernel, sizeof job.kernel, k->name);
   measureAll(&job, k, all + taken, n - taken, emulated, tty, &sr);
   Recorder_close(&rec);

   if (!emulated)
      qsort(all, (size_t)n, sizeof *all, compareGflops);
   int counts[SWEEP_OUTCOMES] = {0};
   for (int i = 0; i < n; i++)
      counts[all[i].outcome]++;
   report(o, k, &p, &dev, backend, all, n, nall, invalid, counts, emulated, t0, taken);
   rc = counts[SWEEP_OK] > 0 ? 0 : 1;
   if (save) {
      writeResults(OutFile_stream(save), isJsonName(o->save), k, &p, &dev, all, n, emulated);
      if (!OutFile_commit(save, err, sizeof err)) {
         fprintf(stderr, "gemmtop: --save %s\n", err);
         rc = 1;
      }
   }
   if (o->save_presets && emulated)
      fprintf(stderr, "gemmtop: --save-presets ignored: an emulated sweep is not ranked\n");
   else if (o->save_presets && counts[SWEEP_OK] > 0 && savePresets(o, k, &p, &dev, all, counts[SWEEP_OK]))
      rc = 1;
   SweepSpace_free(&sp);
   Catalog_free(&cat);
   return rc;
}
