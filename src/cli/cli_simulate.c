/* gemmtop sweep --simulate FILE: compares search strategies without a device. FILE is
 * what `gemmtop sweep --save` wrote (CSV, or JSON lines), best an exhaustive sweep; its
 * recorded outcomes answer each strategy's proposals (Search_replay). For every strategy,
 * over --repeat seeds: the evaluations needed to reach 95% and 99% of the recorded best
 * (median, least, most) and the best reached within --budget. The space is the file's
 * configurations; a parameter's steps (for anneal and genetic) are its recorded values in
 * order. The configurations are shuffled with each seed: a file lists the best first, and
 * the sweep's starting configuration is not recorded. */
#define _GNU_SOURCE /* strcasestr */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/report.h"
#include "base/rng.h"
#include "core/sweep/search.h"
#include "core/results/store.h"
#include "base/util.h"

typedef struct Record_ {
   char kernel[64], device[128], precision[16];
   int m, n, k;
   char names[KERNEL_MAX_PARAMS][32];
   long long values[KERNEL_MAX_PARAMS];
   int nparams;
   SweepOutcome outcome;
   double gflops;
   bool emulated;
} Record;

typedef struct Records_ {
   Record *r;
   int n, cap;
} Records;

static bool parseOutcome(const char *s, SweepOutcome *out) {
   for (int o = SWEEP_OK; o < SWEEP_OUTCOMES; o++)
      if (!strcmp(s, SweepOutcome_name((SweepOutcome)o))) {
         *out = (SweepOutcome)o;
         return true;
      }
   return false;
}

/* "TS=32 WPT=8" into the record's names and values. */
static bool parseParams(const char *s, Record *r) {
   r->nparams = 0;
   while (*s) {
      while (*s == ' ')
         s++;
      if (!*s)
         break;
      size_t len = strcspn(s, "=");
      char *end;
      if (!s[len] || len == 0 || len >= sizeof r->names[0] || r->nparams == KERNEL_MAX_PARAMS)
         return false;
      snprintf(r->names[r->nparams], sizeof r->names[0], "%.*s", (int)len, s);
      errno = 0;
      r->values[r->nparams++] = strtoll(s + len + 1, &end, 10);
      if (end == s + len + 1 || errno || (*end && *end != ' '))
         return false;
      s = end;
   }
   return r->nparams > 0;
}

/* ---- CSV ---- */

enum {
   C_KERNEL, C_PARAMS, C_DEVICE, C_M, C_N, C_K, C_PRECISION, C_OUTCOME, C_GFLOPS, C_TIME_MS, C_COMPILE_MS,
   C_MAX_REL_ERR, C_REASON, C_EMULATED, C_COLUMNS
};

/* A figure of a saved result: empty (not measured), or a whole finite number from 0. The
 * column's name goes into why when it is not. */
static bool figureField(const char *text, const char *column, double *out, char *why, size_t whylen) {
   char *end;
   *out = 0;
   if (!*text)
      return true;
   errno = 0;
   double v = strtod(text, &end);
   if (end == text || *end)
      snprintf(why, whylen, "%s '%s' is not a number", column, text);
   else if (!isfinite(v) || errno == ERANGE)
      snprintf(why, whylen, "%s '%s' is not a finite number", column, text);
   else if (v < 0)
      snprintf(why, whylen, "%s %s is negative", column, text);
   else {
      *out = v;
      return true;
   }
   return false;
}

static bool csvRecord(char *line, Record *r, char *why, size_t whylen) {
   char *f[C_COLUMNS + 1];
   if (Util_csvSplit(line, f, C_COLUMNS + 1) != C_COLUMNS)
      return false;
   static const struct {
      int column;
      const char *name;
   } figures[] = {{C_GFLOPS, "gflops"}, {C_TIME_MS, "time_ms"}, {C_COMPILE_MS, "compile_ms"},
                  {C_MAX_REL_ERR, "max_rel_err"}};
   for (size_t i = 0; i < sizeof figures / sizeof figures[0]; i++) {
      double v;
      if (!figureField(f[figures[i].column], figures[i].name, &v, why, whylen))
         return false;
      if (figures[i].column == C_GFLOPS)
         r->gflops = v;
   }
   Util_copy(r->kernel, sizeof r->kernel, f[C_KERNEL]);
   Util_copy(r->device, sizeof r->device, f[C_DEVICE]);
   Util_copy(r->precision, sizeof r->precision, f[C_PRECISION]);
   r->m = atoi(f[C_M]);
   r->n = atoi(f[C_N]);
   r->k = atoi(f[C_K]);
   r->emulated = !strcmp(f[C_EMULATED], "true");
   return parseParams(f[C_PARAMS], r) && parseOutcome(f[C_OUTCOME], &r->outcome) && r->m > 0 && r->n > 0 && r->k > 0;
}

/* ---- JSON lines: one flat object each, with "params" an object of numbers ---- */

static const char *skipSpace(const char *p) {
   while (*p == ' ' || *p == '\t' || *p == '\r')
      p++;
   return p;
}

/* A JSON string at p into out (escapes read, \u kept as '?'); the text after it, or NULL. */
static const char *jsonString(const char *p, char *out, size_t outlen) {
   if (*p != '"')
      return NULL;
   size_t n = 0;
   for (p++; *p && *p != '"'; p++) {
      char c = *p;
      if (c == '\\') {
         c = *++p;
         if (!c)
            return NULL;
         if (c == 'u') {
            for (int i = 0; i < 4; i++)
               if (!*++p)
                  return NULL;
            c = '?';
         } else if (c == 'n' || c == 't' || c == 'r') {
            c = ' ';
         }
      }
      if (n + 1 < outlen)
         out[n++] = c;
   }
   if (outlen)
      out[n] = '\0';
   return *p == '"' ? p + 1 : NULL;
}

static const char *jsonParams(const char *p, Record *r) {
   r->nparams = 0;
   p = skipSpace(p + 1);
   while (*p == '"') {
      if (r->nparams == KERNEL_MAX_PARAMS || !(p = jsonString(p, r->names[r->nparams], sizeof r->names[0])))
         return NULL;
      p = skipSpace(p);
      if (*p != ':')
         return NULL;
      char *end;
      errno = 0;
      r->values[r->nparams++] = strtoll(p + 1, &end, 10);
      if (end == p + 1 || errno)
         return NULL;
      p = skipSpace(end);
      if (*p == ',')
         p = skipSpace(p + 1);
   }
   return *p == '}' ? p + 1 : NULL;
}

static bool jsonRecord(const char *line, Record *r, char *why, size_t whylen) {
   const char *p = skipSpace(line);
   if (*p != '{')
      return false;
   p = skipSpace(p + 1);
   bool have_params = false, have_outcome = false;
   while (*p == '"') {
      char key[32], text[256];
      if (!(p = jsonString(p, key, sizeof key)) || *(p = skipSpace(p)) != ':')
         return false;
      p = skipSpace(p + 1);
      if (!strcmp(key, "params")) {
         if (*p != '{' || !(p = jsonParams(p, r)))
            return false;
         have_params = true;
      } else if (*p == '"') {
         if (!(p = jsonString(p, text, sizeof text)))
            return false;
         if (!strcmp(key, "kernel"))
            Util_copy(r->kernel, sizeof r->kernel, text);
         else if (!strcmp(key, "device"))
            Util_copy(r->device, sizeof r->device, text);
         else if (!strcmp(key, "precision"))
            Util_copy(r->precision, sizeof r->precision, text);
         else if (!strcmp(key, "outcome"))
            have_outcome = parseOutcome(text, &r->outcome);
      } else {
         char *end;
         double v = strtod(p, &end);
         if (end == p && !strncmp(p, "true", 4))
            end = (char *)p + 4, v = 1;
         else if (end == p && (!strncmp(p, "false", 5) || !strncmp(p, "null", 4)))
            end = (char *)p + (*p == 'f' ? 5 : 4), v = 0;
         if (end == p)
            return false;
         p = end;
         bool figure = !strcmp(key, "gflops") || !strcmp(key, "time_ms") || !strcmp(key, "compile_ms") ||
                       !strcmp(key, "max_rel_err");
         if (figure && (!isfinite(v) || v < 0)) {
            snprintf(why, whylen, "%s %s", key, isfinite(v) ? "is negative" : "is not a finite number");
            return false;
         }
         if (!strcmp(key, "m") || !strcmp(key, "n") || !strcmp(key, "k"))
            (key[0] == 'm' ? &r->m : key[0] == 'n' ? &r->n : &r->k)[0] = (int)v;
         else if (!strcmp(key, "gflops"))
            r->gflops = v;
         else if (!strcmp(key, "emulated"))
            r->emulated = v != 0;
      }
      p = skipSpace(p);
      if (*p == ',')
         p = skipSpace(p + 1);
   }
   return *p == '}' && have_params && have_outcome && r->m > 0 && r->n > 0 && r->k > 0;
}

static bool growRecords(Records *rs) {
   if (rs->n < rs->cap)
      return true;
   int ncap = rs->cap ? 2 * rs->cap : 256;
   Record *r = realloc(rs->r, sizeof *r * (size_t)ncap);
   if (!r)
      return false;
   rs->r = r;
   rs->cap = ncap;
   return true;
}

/* Every record of the file; false with a message naming the line that is not one. */
static bool readRecords(const char *path, Records *out, char *err, size_t errlen) {
   FILE *f = fopen(path, "r");
   if (!f) {
      snprintf(err, errlen, "--simulate %s: %s", path, strerror(errno));
      return false;
   }
   char *line = NULL;
   size_t cap = 0;
   bool ok = true, csv = false;
   for (int lineno = 1; ok && getline(&line, &cap, f) > 0; lineno++) {
      line[strcspn(line, "\r\n")] = '\0';
      if (lineno == 1 && !strncmp(line, "kernel,params,", 14)) {
         csv = true;
         continue;
      }
      if (!*line)
         continue;
      if (!growRecords(out)) {
         snprintf(err, errlen, "--simulate %s: out of host memory", path);
         ok = false;
         break;
      }
      Record *r = &out->r[out->n];
      memset(r, 0, sizeof *r);
      char why[160] = "";
      if (!(csv ? csvRecord(line, r, why, sizeof why) : jsonRecord(line, r, why, sizeof why))) {
         if (why[0])
            snprintf(err, errlen, "--simulate %s: line %d: %s; a saved figure is a finite number from 0", path,
                     lineno, why);
         else
            snprintf(err, errlen,
                     "--simulate %s: line %d is not a sweep result; use a file that 'gemmtop sweep --save' wrote "
                     "(CSV with its header, or JSON lines)",
                     path, lineno);
         ok = false;
      } else {
         out->n++;
      }
   }
   free(line);
   fclose(f);
   if (ok && out->n == 0) {
      snprintf(err, errlen, "--simulate %s: no results in it", path);
      ok = false;
   }
   return ok;
}

/* ---- the results store: --simulate store ---- */

typedef struct StoreRead_ {
   Records *rs;
   bool oom;
   int emulated;      /* skipped */
} StoreRead;

static bool takeStoreRow(const StoreRecord *sr, void *ctx) {
   StoreRead *st = ctx;
   if (sr->emulated) {
      st->emulated++;
      return true;
   }
   if (!growRecords(st->rs)) {
      st->oom = true;
      return false;
   }
   Record *r = &st->rs->r[st->rs->n];
   memset(r, 0, sizeof *r);
   Util_copy(r->kernel, sizeof r->kernel, sr->kernel);
   Util_copy(r->device, sizeof r->device, sr->device);
   Util_copy(r->precision, sizeof r->precision, Precision_name(sr->problem.precision));
   r->m = sr->problem.m;
   r->n = sr->problem.n;
   r->k = sr->problem.k;
   r->gflops = isfinite(sr->gflops) ? sr->gflops : 0;
   /* A vendor library's timing or a record of another tool is not a configuration. */
   if (parseParams(sr->params, r) && parseOutcome(sr->outcome, &r->outcome))
      st->rs->n++;
   return true;
}

/* The store's measurements that the options select (kernel, size, precision, device). */
static bool readStore(const CommandArgs *o, Records *rs, char *err, size_t errlen) {
   Store *store = Store_openReadOnly(o->storage->path, err, errlen);
   if (!store)
      return false;
   StoreFilter f;
   StoreFilter_init(&f);
   f.kernel = o->sel->kernel;
   f.device = o->sel->device;
   if (o->shape->has_m)
      f.m = o->shape->problem.m, f.n = o->shape->problem.n, f.k = o->shape->problem.k;
   if (o->shape->has_precision)
      f.precision = (int)o->shape->problem.precision;
   StoreRead st = {rs, false, 0};
   bool ok = Store_query(store, &f, takeStoreRow, &st, err, errlen);
   if (ok && st.oom)
      ok = false, snprintf(err, errlen, "out of host memory");
   if (ok && rs->n == 0)
      ok = false, snprintf(err, errlen, "--simulate store: the results store (%s) has no measurement of a kernel "
                                        "configuration that matches --kernel, --size, --precision and --device%s",
                           Store_path(store), st.emulated ? " (emulated ones are not ranked)" : "");
   Store_close(store);
   return ok;
}

/* ---- choosing one space ---- */

/* Whether r is in the space that the options select. */
static bool selected(const CommandArgs *o, const Record *r) {
   if (o->sel->kernel && strcmp(o->sel->kernel, r->kernel))
      return false;
   if (o->sel->device && !strcasestr(r->device, o->sel->device))
      return false;
   if (o->shape->has_m && (r->m != o->shape->problem.m || r->n != o->shape->problem.n || r->k != o->shape->problem.k))
      return false;
   if (o->shape->has_precision && strcmp(r->precision, Precision_name(o->shape->problem.precision)))
      return false;
   return true;
}

static bool sameSpace(const Record *a, const Record *b) {
   return !strcmp(a->kernel, b->kernel) && !strcmp(a->device, b->device) && a->m == b->m && a->n == b->n &&
          a->k == b->k && !strcmp(a->precision, b->precision);
}

static int compareValues(const void *a, const void *b) {
   const SweepCandidate *x = a, *y = b;
   for (int i = 0; i < KERNEL_MAX_PARAMS; i++)
      if (x->values[i] != y->values[i])
         return (x->values[i] > y->values[i]) - (x->values[i] < y->values[i]);
   return 0;
}

/* The selected records as a space (first of each configuration kept); 0, or 2 with a
 * message when the selection is empty, mixed or not rankable. */
static int buildSpace(const CommandArgs *o, const char *path, const Records *rs, SweepSpace *sp, const Record **first,
                      char *err, size_t errlen) {
   memset(sp, 0, sizeof *sp);
   *first = NULL;
   sp->cands = calloc((size_t)rs->n, sizeof *sp->cands);
   if (!sp->cands)
      return snprintf(err, errlen, "out of host memory"), 1;
   for (int i = 0; i < rs->n; i++) {
      const Record *r = &rs->r[i];
      if (!selected(o, r))
         continue;
      if (!*first) {
         *first = r;
      } else if (!sameSpace(*first, r)) {
         snprintf(err, errlen,
                  "--simulate %s holds more than one space (%s %dx%dx%d %s on %s, and %s %dx%dx%d %s on %s): pick "
                  "one with --kernel, --size, --precision or --device",
                  path, (*first)->kernel, (*first)->m, (*first)->n, (*first)->k, (*first)->precision, (*first)->device,
                  r->kernel, r->m, r->n, r->k, r->precision, r->device);
         return 2;
      } else if (r->nparams != (*first)->nparams ||
                 memcmp(r->names, (*first)->names, sizeof r->names[0] * (size_t)r->nparams)) {
         snprintf(err, errlen, "--simulate %s: the results of %s name different parameters", path, r->kernel);
         return 2;
      }
      if (r->emulated) {
         snprintf(err, errlen, "--simulate %s: %s was emulated (no tensor cores): its times are not ranked", path,
                  r->kernel);
         return 2;
      }
      SweepCandidate *c = &sp->cands[sp->count++];
      memcpy(c->values, r->values, sizeof c->values);
      c->outcome = r->outcome;
      c->gflops = r->outcome == SWEEP_OK ? r->gflops : 0;
   }
   if (!*first) {
      snprintf(err, errlen, "--simulate %s: no result matches --kernel, --size, --precision and --device", path);
      return 2;
   }
   /* A configuration measured more than once (sweeps run again, the store) counts once. */
   qsort(sp->cands, (size_t)sp->count, sizeof *sp->cands, compareValues);
   int kept = 0;
   for (int i = 0; i < sp->count; i++)
      if (kept == 0 || compareValues(&sp->cands[kept - 1], &sp->cands[i]))
         sp->cands[kept++] = sp->cands[i];
   sp->count = kept;
   return 0;
}

/* ---- the comparison ---- */

typedef struct Figures_ {
   int reached95, reached99;       /* runs that reached it within the budget */
   int med95, min95, max95, med99, min99, max99; /* evaluations; -1 not reached */
   double med_best, min_best;      /* best reached within the budget, % of the space's best */
} Figures;

static int compareInt(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
static int compareDouble(const void *a, const void *b) {
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

/* Median, least and most of evals (not reached: -1, counting as more than any). */
static void summarise(int *evals, int n, int *reached, int *med, int *lo, int *hi) {
   for (int i = 0; i < n; i++)
      if (evals[i] < 0)
         evals[i] = INT32_MAX;
   qsort(evals, (size_t)n, sizeof *evals, compareInt);
   *reached = 0;
   for (int i = 0; i < n; i++)
      *reached += evals[i] != INT32_MAX;
   int m = evals[(n - 1) / 2];
   *med = m == INT32_MAX ? -1 : m;
   *lo = evals[0] == INT32_MAX ? -1 : evals[0];
   *hi = evals[n - 1] == INT32_MAX ? -1 : evals[n - 1];
}

/* Replays strategy st over repeat seeds; false when out of memory. */
static bool compare(SearchStrategy st, const SweepSpace *recorded, int nparams, uint64_t seed, int repeat, int budget,
                    Figures *fig) {
   int *e95 = malloc(sizeof *e95 * (size_t)repeat), *e99 = malloc(sizeof *e99 * (size_t)repeat);
   double *best = malloc(sizeof *best * (size_t)repeat);
   SweepSpace sp = {.count = recorded->count};
   sp.cands = malloc(sizeof *sp.cands * (size_t)recorded->count);
   bool ok = e95 && e99 && best && sp.cands;
   for (int r = 0; ok && r < repeat; r++) {
      memcpy(sp.cands, recorded->cands, sizeof *sp.cands * (size_t)recorded->count);
      Rng rng;
      Rng_seed(&rng, seed + (uint64_t)r);
      for (int i = sp.count - 1; i > 0; i--) {
         int j = (int)Rng_below(&rng, (uint64_t)i + 1);
         SweepCandidate t = sp.cands[i];
         sp.cands[i] = sp.cands[j];
         sp.cands[j] = t;
      }
      SearchReplay rep;
      ok = Search_replay(st, &sp, nparams, seed + (uint64_t)r, budget, &rep);
      e95[r] = rep.evals95;
      e99[r] = rep.evals99;
      best[r] = 100 * rep.reached / rep.best;
   }
   if (ok) {
      summarise(e95, repeat, &fig->reached95, &fig->med95, &fig->min95, &fig->max95);
      summarise(e99, repeat, &fig->reached99, &fig->med99, &fig->min99, &fig->max99);
      qsort(best, (size_t)repeat, sizeof *best, compareDouble);
      fig->med_best = best[(repeat - 1) / 2];
      fig->min_best = best[0];
   }
   free(e95);
   free(e99);
   free(best);
   free(sp.cands);
   return ok;
}

/* "37 [12-80]", or "- (3/10)" when fewer than half the runs reached it. */
static void spread(char *out, size_t len, int med, int lo, int hi, int reached, int repeat) {
   if (med < 0)
      snprintf(out, len, "- (%d/%d)", reached, repeat);
   else if (reached < repeat)
      snprintf(out, len, "%d [%d-, %d/%d]", med, lo, reached, repeat);
   else
      snprintf(out, len, "%d [%d-%d]", med, lo, hi);
}

static void printRow(const CommandArgs *o, SearchStrategy st, const Figures *f, int repeat, int budget, int count,
                     double bestg) {
   const char *name = SearchStrategy_name(st);
   if (o->output->format == FORMAT_TABLE) {
      char a[48], b[48];
      spread(a, sizeof a, f->med95, f->min95, f->max95, f->reached95, repeat);
      spread(b, sizeof b, f->med99, f->min99, f->max99, f->reached99, repeat);
      printf("%-11s %-22s %-22s %7.1f%% %7.1f%%\n", name, a, b, f->med_best, f->min_best);
   } else if (o->output->format == FORMAT_CSV) {
      printf("%s,%d,%d,%d,%.6g,%d,%d,%d,%d,%d,%d,%d,%d,%.2f,%.2f\n", name, repeat, budget, count, bestg, f->med95,
             f->min95, f->max95, f->reached95, f->med99, f->min99, f->max99, f->reached99, f->med_best, f->min_best);
   } else {
      printf("{\"strategy\":\"%s\",\"repeat\":%d,\"budget\":%d,\"space\":%d,\"best_gflops\":%.6g,"
             "\"evals95_median\":%d,\"evals95_min\":%d,\"evals95_max\":%d,\"reached95\":%d,"
             "\"evals99_median\":%d,\"evals99_min\":%d,\"evals99_max\":%d,\"reached99\":%d,"
             "\"best_pct_median\":%.2f,\"best_pct_min\":%.2f}\n",
             name, repeat, budget, count, bestg, f->med95, f->min95, f->max95, f->reached95, f->med99, f->min99,
             f->max99, f->reached99, f->med_best, f->min_best);
   }
}

static void printHeader(const CommandArgs *o, const Record *first, const SweepSpace *sp, double bestg, int bestAt,
                        int repeat, uint64_t seed, int budget) {
   if (o->output->format == FORMAT_CSV) {
      printf("strategy,repeat,budget,space,best_gflops,evals95_median,evals95_min,evals95_max,reached95,"
             "evals99_median,evals99_min,evals99_max,reached99,best_pct_median,best_pct_min\n");
      return;
   }
   if (o->output->format != FORMAT_TABLE)
      return;
   int ok = 0;
   for (int i = 0; i < sp->count; i++)
      ok += sp->cands[i].outcome == SWEEP_OK;
   char params[512] = "";
   for (int i = 0, n = 0; i < first->nparams; i++)
      n += snprintf(params + n, sizeof params - (size_t)n, "%s%s=%lld", i ? " " : "", first->names[i],
                    sp->cands[bestAt].values[i]);
   printf("replay of %s on %s, %dx%dx%d %s: %d configurations recorded, %d verified; best %.2f GFLOPS (%s)\n",
          first->kernel, first->device, first->m, first->n, first->k, first->precision, sp->count, ok, bestg, params);
   printf("%d seed%s from %llu; budget %d evaluations%s. Evaluations to reach 95%% and 99%% of the best: median "
          "[least-most] over the seeds; best within the budget as %% of the best: median, least\n\n",
          repeat, repeat == 1 ? "" : "s", (unsigned long long)seed, budget,
          budget == sp->count ? " (the whole space)" : "");
   printf("%-11s %-22s %-22s %8s %8s\n", "strategy", "to 95%", "to 99%", "best", "least");
}

int Cli_simulate(const CommandArgs *o) {
   char err[1024];
   if (o->sweep->time_budget > 0 || o->sweep->exhaustive || o->shape->nsize_list > 1 || o->output->save || o->sweep->save_presets) {
      fprintf(stderr, "gemmtop: --simulate measures nothing: %s does not apply (use --budget for a count)\n",
              o->sweep->time_budget > 0 ? "--time-budget"
              : o->sweep->exhaustive    ? "--exhaustive"
              : o->shape->nsize_list > 1 ? "a list of --size"
              : o->output->save           ? "--save"
                                  : "--save-presets");
      return 2;
   }
   unsigned mask = 0;
   SearchStrategy one;
   if (o->sweep->strategies)
      Options_parseStrategies(o->sweep->strategies, &mask, err, sizeof err);
   else if (o->sweep->strategy && SearchStrategy_parse(o->sweep->strategy, &one))
      mask = 1u << one;
   else
      mask = (1u << SEARCH_STRATEGIES) - 1;
   Records rs = {0};
   SweepSpace sp = {0};
   const Record *first = NULL;
   bool fromStore = !strcmp(o->sweep->simulate, "store");
   bool read = fromStore ? readStore(o, &rs, err, sizeof err) : readRecords(o->sweep->simulate, &rs, err, sizeof err);
   int rc = read ? buildSpace(o, fromStore ? "store" : o->sweep->simulate, &rs, &sp, &first, err, sizeof err) : 2;
   int bestAt = -1;
   for (int i = 0; !rc && i < sp.count; i++)
      if (sp.cands[i].outcome == SWEEP_OK && (bestAt < 0 || sp.cands[i].gflops > sp.cands[bestAt].gflops))
         bestAt = i;
   if (!rc && (bestAt < 0 || sp.cands[bestAt].gflops <= 0)) {
      snprintf(err, sizeof err, "--simulate %s: no configuration of the space was verified: nothing to reach",
               o->sweep->simulate);
      rc = 2;
   }
   if (rc) {
      fprintf(stderr, "gemmtop: %s\n", err);
      free(rs.r);
      SweepSpace_free(&sp);
      return rc;
   }
   uint64_t seed = o->timing->has_seed ? o->timing->seed : 1;
   int repeat = o->sweep->repeat > 0 ? o->sweep->repeat : 10;
   int budget = o->sweep->budget > 0 && o->sweep->budget < sp.count ? o->sweep->budget : sp.count;
   double bestg = sp.cands[bestAt].gflops;
   printHeader(o, first, &sp, bestg, bestAt, repeat, seed, budget);
   for (int st = 0; st < SEARCH_STRATEGIES && !rc; st++) {
      Figures fig;
      if (!(mask & (1u << st)))
         continue;
      if (!compare((SearchStrategy)st, &sp, first->nparams, seed, repeat, budget, &fig)) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         rc = 1;
      } else {
         printRow(o, (SearchStrategy)st, &fig, repeat, budget, sp.count, bestg);
         fflush(stdout);
      }
   }
   free(rs.r);
   SweepSpace_free(&sp);
   return rc;
}
