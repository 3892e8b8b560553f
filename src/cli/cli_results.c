/* gemmtop results: the results store (core/results/store.h) seen from the command line. Its
 * subcommands are a table: list (filtered rows, newest last), best (the best verified
 * result per device, kernel and size, with % of the vendor library), compare (two devices,
 * or two date ranges of one device), export (CSV, JSON Lines, Kernel Tuner's T4) and
 * import (T4 and CLBlast tuner files). The formats are core/results/resultfmt.c; the ranking is
 * core/results/results.c. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "core/results/resultfmt.h"
#include "core/results/results.h"
#include "core/results/store.h"
#include "base/util.h"

#define DEFAULT_LIMIT 50
#define RING_LIMIT 4096 /* list keeps at most this many rows in a ring; more: all, then the newest */

/* ---- the options each subcommand takes ---- */

enum {
   TAKES_FILTERS = 1u << 0,  /* --device --kernel --size --precision --origin --since --until --ok */
   TAKES_LIMIT = 1u << 1,
   TAKES_AGAINST = 1u << 2,  /* --against, --against-since, --against-until */
   TAKES_FORMAT = 1u << 3,
   TAKES_OUT = 1u << 4,      /* --out, --force */
   TAKES_LABELS = 1u << 5,   /* --device --kernel --size --precision, as import's labels */
   TAKES_SHAPES = 1u << 6,   /* --shapes (export --format dispatch) */
};

/* The results options: the subcommands (TAKES_ bits) that take each, and the field that
 * says it was given (a text that is not NULL, or a flag), in its group of options. */
typedef enum { IN_RESULTS, IN_SELECTION, IN_SHAPE } GivenGroup;
static const struct {
   unsigned bit;
   const char *spelling;
   GivenGroup group;
   size_t field;
   bool text;
} kGiven[] = {
#define TEXT(g, type, f) g, offsetof(type, f), true
#define FLAG(g, type, f) g, offsetof(type, f), false
    {TAKES_FILTERS | TAKES_LABELS, "--device", TEXT(IN_RESULTS, ResultsOptions, filter_device)},
    {TAKES_FILTERS | TAKES_LABELS, "--kernel", TEXT(IN_SELECTION, SelectionOptions, kernel)},
    {TAKES_FILTERS | TAKES_LABELS, "--size", TEXT(IN_RESULTS, ResultsOptions, filter_size)},
    {TAKES_FILTERS | TAKES_LABELS, "--precision", FLAG(IN_SHAPE, ShapeOptions, has_precision)},
    {TAKES_FILTERS, "--origin", TEXT(IN_RESULTS, ResultsOptions, origin)},
    {TAKES_FILTERS, "--since", TEXT(IN_RESULTS, ResultsOptions, since)},
    {TAKES_FILTERS, "--until", TEXT(IN_RESULTS, ResultsOptions, until)},
    {TAKES_FILTERS, "--ok", FLAG(IN_RESULTS, ResultsOptions, ok_only)},
    {TAKES_LIMIT, "--limit", FLAG(IN_RESULTS, ResultsOptions, has_limit)},
    {TAKES_AGAINST, "--against", TEXT(IN_RESULTS, ResultsOptions, against)},
    {TAKES_AGAINST, "--against-since", TEXT(IN_RESULTS, ResultsOptions, against_since)},
    {TAKES_AGAINST, "--against-until", TEXT(IN_RESULTS, ResultsOptions, against_until)},
    {TAKES_FORMAT, "--format", TEXT(IN_RESULTS, ResultsOptions, format)},
    {TAKES_OUT, "--out", TEXT(IN_RESULTS, ResultsOptions, out)},
    {TAKES_OUT, "--force", FLAG(IN_RESULTS, ResultsOptions, force)},
    {TAKES_SHAPES, "--shapes", TEXT(IN_SHAPE, ShapeOptions, shapes)},
#undef TEXT
#undef FLAG
};

static bool given(const CommandArgs *o, size_t i) {
   const void *group = kGiven[i].group == IN_RESULTS     ? (const void *)o->results
                       : kGiven[i].group == IN_SELECTION ? (const void *)o->sel
                                                         : (const void *)o->shape;
   const char *at = (const char *)group + kGiven[i].field;
   return kGiven[i].text ? *(const char *const *)at != NULL : *(const bool *)at;
}

/* ---- a plain table: columns as wide as their widest cell ---- */

#define TABLE_MAX_COLUMNS 12

typedef struct Table_ {
   int ncols, nrows, cap;
   const char *heads[TABLE_MAX_COLUMNS];
   bool right[TABLE_MAX_COLUMNS]; /* numbers align right */
   char **cells;                  /* nrows * ncols */
} Table;

static void Table_init(Table *t, const char *heads, const char *right) {
   *t = (Table){0};
   static char copy[512];
   Util_copy(copy, sizeof copy, heads);
   for (char *save = NULL, *h = strtok_r(copy, "|", &save); h && t->ncols < TABLE_MAX_COLUMNS;
        h = strtok_r(NULL, "|", &save)) {
      t->right[t->ncols] = right[t->ncols] == 'r';
      t->heads[t->ncols++] = h;
   }
}

/* Adds a row of ncols cells (copied). False out of memory. */
static bool Table_add(Table *t, char cells[][160]) {
   if (t->nrows == t->cap) {
      int cap = t->cap ? t->cap * 2 : 64;
      char **more = realloc(t->cells, (size_t)cap * (size_t)t->ncols * sizeof *more);
      if (!more)
         return false;
      t->cells = more;
      t->cap = cap;
   }
   /* Cells hold text from the store, which another program may have written. */
   for (int c = 0; c < t->ncols; c++) {
      char shown[400];
      t->cells[t->nrows * t->ncols + c] = strdup(Util_visible(cells[c], shown, sizeof shown));
   }
   t->nrows++;
   return true;
}

static void Table_print(const Table *t, FILE *out) {
   int width[TABLE_MAX_COLUMNS];
   for (int c = 0; c < t->ncols; c++) {
      width[c] = (int)strlen(t->heads[c]);
      for (int r = 0; r < t->nrows; r++) {
         const char *cell = t->cells[r * t->ncols + c];
         int w = cell ? (int)strlen(cell) : 0;
         width[c] = w > width[c] ? w : width[c];
      }
   }
   for (int r = -1; r < t->nrows; r++) {
      for (int c = 0; c < t->ncols; c++) {
         const char *cell = r < 0 ? t->heads[c] : t->cells[r * t->ncols + c];
         bool last = c == t->ncols - 1;
         if (t->right[c])
            fprintf(out, "%*s%s", width[c], cell ? cell : "?", last ? "" : "  ");
         else
            fprintf(out, "%-*s%s", last ? 0 : width[c], cell ? cell : "?", last ? "" : "  ");
      }
      fputc('\n', out);
   }
}

static void Table_free(Table *t) {
   for (int i = 0; i < t->nrows * t->ncols; i++)
      free(t->cells[i]);
   free(t->cells);
}

/* ---- cells ---- */

static void sizeText(const Problem *p, char out[160]) {
   if (p->m == p->n && p->n == p->k)
      snprintf(out, 160, "%d", p->m);
   else
      snprintf(out, 160, "%dx%dx%d", p->m, p->n, p->k);
}

static void typeText(const Problem *p, char out[160]) {
   char layout[3];
   Problem_layoutName(p, layout);
   snprintf(out, 160, "%s%s%s", Precision_name(p->precision), strcmp(layout, "NN") ? " " : "",
            strcmp(layout, "NN") ? layout : "");
}

static void number(double v, const char *fmt, char out[160]) {
   if (isfinite(v))
      snprintf(out, 160, fmt, v);
   else
      snprintf(out, 160, "-");
}

static void dateText(long long t, char out[160]) {
   char iso[32];
   ResultFmt_isoTime(t, iso);
   snprintf(out, 160, "%.10s %.5s", iso, iso + 11);
}

/* "ok" only for a verified, real result; otherwise what it is. */
static const char *resultWord(const StoreRecord *r) {
   if (strcmp(r->outcome, "ok"))
      return r->outcome;
   return r->emulated ? "emulated" : r->verified ? "ok" : "unverified";
}

/* ---- the store and the filters ---- */

/* Unix seconds of a day's start (UTC); --since and --until were checked by the parser. */
static long long dayStart(const char *day) {
   long long t = 0;
   return day && ResultFmt_parseTime(day, &t) ? t : 0;
}

static int filterFromOptions(const CommandArgs *o, StoreFilter *f, bool with_device, bool with_dates) {
   StoreFilter_init(f);
   f->device = with_device ? o->results->filter_device : NULL;
   f->kernel = o->sel->kernel;
   f->origin = o->results->origin;
   if (o->results->filter_size) {
      f->m = o->shape->problem.m;
      f->n = o->shape->problem.n;
      f->k = o->shape->problem.k;
   }
   f->precision = o->shape->has_precision ? (int)o->shape->problem.precision : -1;
   f->ok_only = o->results->ok_only;
   if (with_dates) {
      f->since = o->results->since ? dayStart(o->results->since) : 0;
      f->until = o->results->until ? dayStart(o->results->until) + 86399 : 0;
   }
   if (o->results->since && o->results->until && dayStart(o->results->since) > dayStart(o->results->until)) {
      fprintf(stderr, "gemmtop: results: --since %s is after --until %s\n", o->results->since, o->results->until);
      return 2;
   }
   return 0;
}

/* Reading commands open the store read-only: a store this user may read but not write (a
 * read-only folder, another user's) still lists, compares and exports. */
static bool sameFile(const char *path, Store *s);
static bool isStoreCompanion(const char *path, Store *s);

static Store *openStore(const CommandArgs *o, bool writing) {
   char err[1024];
   Store *s = writing ? Store_open(o->storage->path, err, sizeof err) : Store_openReadOnly(o->storage->path, err, sizeof err);
   if (!s)
      fprintf(stderr, "gemmtop: results: %s\n", err);
   return s;
}

/* The matching rows, all in memory. 0, or 1 with the message printed. */
static int gather(Store *s, const StoreFilter *f, ResultSet *set) {
   char err[1024];
   *set = (ResultSet){0};
   bool ok = Store_query(s, f, ResultSet_addRow, set, err, sizeof err);
   if (set->out_of_memory)
      snprintf(err, sizeof err, "out of memory after %d rows; narrow them with --device, --kernel or --size",
               set->n);
   if (!ok || set->out_of_memory) {
      fprintf(stderr, "gemmtop: results: %s: %s\n", Store_path(s), err);
      ResultSet_free(set);
      return 1;
   }
   return 0;
}

/* ---- list ---- */

/* The newest limit rows (all with 0), kept in a ring as they come oldest first. */
typedef struct Newest_ {
   StoreRecord *ring;
   long limit, seen;
} Newest;

static bool keepNewest(const StoreRecord *r, void *ctx) {
   Newest *nw = ctx;
   nw->ring[nw->seen % nw->limit] = *r;
   nw->seen++;
   return true;
}

static void listRow(Table *t, const StoreRecord *r) {
   char c[11][160];
   snprintf(c[0], 160, "%lld", r->id);
   dateText(r->time, c[1]);
   snprintf(c[2], 160, "%s", r->origin);
   snprintf(c[3], 160, "%s", r->device);
   snprintf(c[4], 160, "%s", r->kernel);
   snprintf(c[5], 160, "%s", r->params[0] ? r->params : "-");
   sizeText(&r->problem, c[6]);
   typeText(&r->problem, c[7]);
   snprintf(c[8], 160, "%s", resultWord(r));
   number(r->median_ms, "%.4g", c[9]);
   number(r->gflops, "%.1f", c[10]);
   Table_add(t, c);
}

static int resultsList(const CommandArgs *o, Store *s) {
   StoreFilter f;
   int rc = filterFromOptions(o, &f, true, true);
   if (rc)
      return rc;
   long limit = o->results->has_limit ? o->results->limit : DEFAULT_LIMIT;
   ResultSet all = {0};
   Newest nw = {.limit = limit};
   const StoreRecord *first; /* the rows shown, oldest first */
   long shown, total;
   if (limit == 0 || limit > RING_LIMIT) { /* all of them, then the newest limit */
      if ((rc = gather(s, &f, &all)))
         return rc;
      total = all.n;
      shown = limit && limit < total ? limit : total;
      first = all.rows + (total - shown);
   } else {
      char err[1024];
      nw.ring = malloc((size_t)limit * sizeof *nw.ring);
      if (!nw.ring || !Store_query(s, &f, keepNewest, &nw, err, sizeof err)) {
         fprintf(stderr, "gemmtop: results: %s: %s\n", Store_path(s), nw.ring ? err : "out of memory");
         free(nw.ring);
         return 1;
      }
      total = nw.seen;
      shown = total < limit ? total : limit;
      first = NULL;
   }
   if (total == 0) {
      printf("no results match in %s\n", Store_path(s));
   } else {
      Table t;
      Table_init(&t, "ID|DATE (UTC)|ORIGIN|DEVICE|KERNEL|PARAMS|SIZE|TYPE|RESULT|MS|GFLOPS", "r.....r..rr");
      for (long i = 0; i < shown; i++)
         listRow(&t, first ? &first[i] : &nw.ring[(total - shown + i) % limit]);
      Table_print(&t, stdout);
      Table_free(&t);
      if (shown < total)
         printf("(the newest %ld of %ld rows; --limit 0 lists all)\n", shown, total);
   }
   ResultSet_free(&all);
   free(nw.ring);
   return 0;
}

/* ---- best ---- */

static int resultsBest(const CommandArgs *o, Store *s) {
   StoreFilter f;
   ResultSet set;
   int rc = filterFromOptions(o, &f, true, true);
   if (rc || (rc = gather(s, &f, &set)))
      return rc;
   ResultBest *best;
   int n = Results_best(&set, &best);
   if (n < 0) {
      fprintf(stderr, "gemmtop: results: out of memory\n");
      ResultSet_free(&set);
      return 1;
   }
   if (n == 0) {
      printf("no verified results match in %s\n", Store_path(s));
   } else {
      Table t;
      Table_init(&t, "DEVICE|SIZE|TYPE|KERNEL|PARAMS|GFLOPS|MS|% VENDOR|VENDOR|ORIGIN|DATE (UTC)|ID", ".r...rrr...r");
      for (int i = 0; i < n; i++) {
         const StoreRecord *r = &set.rows[best[i].row];
         char c[12][160];
         snprintf(c[0], 160, "%s", r->device);
         sizeText(&r->problem, c[1]);
         typeText(&r->problem, c[2]);
         snprintf(c[3], 160, "%s", r->kernel);
         snprintf(c[4], 160, "%s", r->params[0] ? r->params : "-");
         number(r->gflops, "%.1f", c[5]);
         number(r->median_ms, "%.4g", c[6]);
         number(best[i].pct_of_vendor, "%.0f%%", c[7]);
         snprintf(c[8], 160, "%s", best[i].vendor >= 0 ? set.rows[best[i].vendor].kernel : "-");
         snprintf(c[9], 160, "%s", r->origin);
         dateText(r->time, c[10]);
         snprintf(c[11], 160, "%lld", r->id);
         Table_add(&t, c);
      }
      Table_print(&t, stdout);
      Table_free(&t);
   }
   free(best);
   ResultSet_free(&set);
   return 0;
}

/* ---- compare ---- */

/* The distinct device names of one side, for the heading ("" none). */
static void sideDevices(const ResultSet *set, const unsigned char *side, int which, char *out, size_t len) {
   out[0] = '\0';
   for (int i = 0; i < set->n; i++) {
      if (side[i] != which || strstr(out, set->rows[i].device))
         continue;
      size_t used = strlen(out);
      snprintf(out + used, len - used, "%s%s", used ? "; " : "", set->rows[i].device);
   }
}

/* Whether text holds part, any case (as the store's --device filter matches). */
static bool containsAnyCase(const char *text, const char *part) {
   size_t n = strlen(part);
   for (const char *p = text; *p; p++)
      if (!strncasecmp(p, part, n))
         return true;
   return n == 0;
}

/* Which side each row is on: two devices (--against), or two date ranges of one. */
static int assignSides(const CommandArgs *o, const ResultSet *set, unsigned char *side) {
   bool by_device = o->results->against != NULL;
   long long a0 = o->results->since ? dayStart(o->results->since) : 0, a1 = o->results->until ? dayStart(o->results->until) + 86399 : 0;
   long long b0 = o->results->against_since ? dayStart(o->results->against_since) : 0,
             b1 = o->results->against_until ? dayStart(o->results->against_until) + 86399 : 0;
   for (int i = 0; i < set->n; i++) {
      const StoreRecord *r = &set->rows[i];
      bool in_a, in_b;
      if (by_device) {
         in_a = containsAnyCase(r->device, o->results->filter_device);
         in_b = containsAnyCase(r->device, o->results->against);
      } else {
         in_a = (!a0 || r->time >= a0) && (!a1 || r->time <= a1);
         in_b = (!b0 || r->time >= b0) && (!b1 || r->time <= b1);
      }
      if (in_a && in_b) {
         fprintf(stderr, "gemmtop: results compare: row %lld (%s, %s) is on both sides; %s\n", r->id, r->device,
                 r->kernel, by_device ? "make --device and --against name different devices"
                                      : "make the two date ranges apart");
         return 2;
      }
      side[i] = in_a ? 0 : in_b ? 1 : 2;
   }
   return 0;
}

static int checkCompare(const CommandArgs *o) {
   bool dates = o->results->against_since || o->results->against_until;
   const char *why = !o->results->filter_device ? "needs --device NAME (the first side)"
                     : o->results->against && dates ? "compares two devices (--against) or two date ranges (--against-since, "
                                             "--against-until), not both"
                     : !o->results->against && !dates ? "needs --against NAME (another device), or --against-since and/or "
                                               "--against-until DATE (the same device at other dates)"
                                             : NULL;
   if (why)
      fprintf(stderr, "gemmtop: results compare %s\nsee 'gemmtop results --help'\n", why);
   return why ? 2 : 0;
}

static void printPairs(const ResultSet *set, const ResultPair *pairs, int n) {
   Table t;
   Table_init(&t, "KERNEL|PARAMS|SIZE|TYPE|A GFLOPS|B GFLOPS|B/A", "..r.rrr");
   double log_sum = 0;
   int both = 0;
   for (int i = 0; i < n; i++) {
      const StoreRecord *any = &set->rows[pairs[i].a >= 0 ? pairs[i].a : pairs[i].b];
      char c[7][160];
      snprintf(c[0], 160, "%s", any->kernel);
      snprintf(c[1], 160, "%s", any->params[0] ? any->params : "-");
      sizeText(&any->problem, c[2]);
      typeText(&any->problem, c[3]);
      number(pairs[i].a >= 0 ? set->rows[pairs[i].a].gflops : NAN, "%.1f", c[4]);
      number(pairs[i].b >= 0 ? set->rows[pairs[i].b].gflops : NAN, "%.1f", c[5]);
      number(pairs[i].ratio, "%.2f", c[6]);
      Table_add(&t, c);
      if (isfinite(pairs[i].ratio) && pairs[i].ratio > 0) {
         log_sum += log(pairs[i].ratio);
         both++;
      }
   }
   Table_print(&t, stdout);
   Table_free(&t);
   if (both)
      printf("%d configuration%s on both sides; B/A geometric mean %.2f\n", both, both == 1 ? "" : "s",
             exp(log_sum / both));
   else
      printf("no configuration (kernel, parameters, size, type) is on both sides\n");
}

static int resultsCompare(const CommandArgs *o, Store *s) {
   int rc = checkCompare(o);
   StoreFilter f;
   ResultSet set;
   bool by_device = o->results->against != NULL;
   if (rc || (rc = filterFromOptions(o, &f, !by_device, by_device)) || (rc = gather(s, &f, &set)))
      return rc;
   unsigned char *side = malloc((size_t)(set.n ? set.n : 1));
   ResultPair *pairs = NULL;
   int n = 0;
   if (!side || (rc = assignSides(o, &set, side)) || (n = Results_compare(&set, side, &pairs)) < 0) {
      if (!rc)
         fprintf(stderr, "gemmtop: results: out of memory\n");
      rc = rc ? rc : 1;
   } else {
      char a[1024], b[1024];
      sideDevices(&set, side, 0, a, sizeof a);
      sideDevices(&set, side, 1, b, sizeof b);
      if (by_device) {
         printf("A: %s\nB: %s\n", a[0] ? a : "(no device matches --device)", b[0] ? b : "(no device matches --against)");
      } else {
         printf("A: %s, %s to %s\nB: %s, %s to %s\n", o->results->filter_device, o->results->since ? o->results->since : "the start",
                o->results->until ? o->results->until : "now", o->results->filter_device, o->results->against_since ? o->results->against_since : "the start",
                o->results->against_until ? o->results->against_until : "now");
      }
      if (n)
         printPairs(&set, pairs, n);
      else
         printf("no verified results on either side\n");
   }
   free(pairs);
   free(side);
   ResultSet_free(&set);
   return rc;
}

/* ---- export ---- */

static bool writeRow(const StoreRecord *r, void *ctx) {
   ResultWriter_row(ctx, r);
   return true;
}

/* Why the dispatch table written to out is a C header, when out's name does not say it: ""
 * for a name ending in .json (JSON) or .h (C), or no out (stdout). */
static const char *dispatchFormatWhy(const char *out) {
   if (!out || Cli_endsWith(out, ".json") || Cli_endsWith(out, ".h"))
      return "";
   return ": the name ends in neither .h nor .json; .json writes JSON, any other name C";
}

/* export --format dispatch --shapes SUITE: the suite's dispatch table (a C header, or JSON
 * for an --out ending in .json) from one device's rows of one type. */
static int resultsDispatch(const CommandArgs *o, Store *s, OutFile *file) {
   Catalog cat;
   char err[1200];
   if (!Cli_loadCatalog(&cat))
      return 1;
   ShapeSuite *suite = malloc(sizeof *suite);
   DispatchEntry *e = suite ? malloc(sizeof *e * SHAPES_MAX) : NULL;
   StoreFilter f;
   ResultSet set = {0};
   int rc = filterFromOptions(o, &f, true, true);
   if (!rc && (!suite || !e)) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      rc = 1;
   } else if (!rc && !Shapes_resolve(o->shape->shapes, cat.dir, suite, err, sizeof err)) {
      fprintf(stderr, "gemmtop: results export --shapes: %s\n", err);
      rc = 2;
   }
   f.ok_only = true;
   if (!rc && s)
      rc = gather(s, &f, &set);
   /* One device and one type: a table that mixed them would pick across machines. */
   for (int i = 1; !rc && i < set.n; i++) {
      const StoreRecord *a = &set.rows[0], *b = &set.rows[i];
      const bool devices = strcmp(a->device, b->device) != 0;
      if (devices || a->problem.precision != b->problem.precision) {
         fprintf(stderr, "gemmtop: results export --format dispatch: the rows are of %s (%s and %s): choose one with "
                         "%s\n", devices ? "several devices" : "several types", devices ? a->device : Precision_name(a->problem.precision),
                 devices ? b->device : Precision_name(b->problem.precision), devices ? "--device" : "--precision");
         rc = 2;
      }
   }
   char *text = NULL;
   const bool json = o->results->out && Cli_endsWith(o->results->out, ".json");
   if (!rc) {
      Results_dispatch(&set, suite, e);
      text = ResultFmt_dispatch(json, &set, suite, e);
      if (!text) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         rc = 1;
      }
   }
   if (!rc) {
      fputs(text, file ? OutFile_stream(file) : stdout);
      int found = 0;
      for (int i = 0; i < suite->count; i++)
         found += e[i].row >= 0;
      char name[sizeof suite->name * 4];
      if (file && !OutFile_commit(file, err, sizeof err)) {
         fprintf(stderr, "gemmtop: --out %s\n", err);
         rc = 1;
      } else
         fprintf(stderr, "gemmtop: dispatch table of %s: %d of %d shapes have a verified configuration%s%s (%s%s)\n",
                 Util_visible(suite->name, name, sizeof name), found, suite->count, file ? ", written to " : "",
                 file ? o->results->out : "", json ? "JSON" : "a C header", dispatchFormatWhy(o->results->out));
      file = NULL;
   }
   OutFile_discard(file);
   free(text);
   ResultSet_free(&set);
   free(e);
   free(suite);
   Catalog_free(&cat);
   return rc;
}

static int resultsExport(const CommandArgs *o, Store *s) {
   ResultFormat format = RESULT_FORMAT_CSV;
   const bool dispatch = o->results->format && !strcmp(o->results->format, "dispatch");
   if (o->results->format && !dispatch &&
       (!ResultFormat_parse(o->results->format, &format) || format == RESULT_FORMAT_CLBLAST)) {
      fprintf(stderr, "gemmtop: results export --format %s: export writes csv, jsonl, t4 or dispatch (CLBlast's tuner "
                      "format is only read, by import)\n", o->results->format);
      return 2;
   }
   if (dispatch != (o->shape->shapes != NULL)) {
      fprintf(stderr, "gemmtop: results export: %s\n", dispatch ? "--format dispatch needs --shapes SUITE: the shapes "
                      "to choose a configuration for" : "--shapes is for --format dispatch");
      return 2;
   }
   struct stat st;
   if (o->results->out && s && (sameFile(o->results->out, s) || isStoreCompanion(o->results->out, s))) {
      fprintf(stderr, "gemmtop: results export: --out %s is the results store itself (or its -wal or -shm); give "
                      "another file\n", o->results->out);
      return 2;
   }
   if (o->results->out && !o->results->force && stat(o->results->out, &st) == 0 && S_ISREG(st.st_mode)) {
      fprintf(stderr, "gemmtop: results export: %s exists; --force replaces it\n", o->results->out);
      return 2;
   }
   StoreFilter f;
   OutFile *file = NULL;
   int rc = filterFromOptions(o, &f, true, true);
   if (rc || (rc = Cli_openOutput("--out", o->results->out, OUTFILE_STREAM_OK, &file)))
      return rc;
   if (dispatch)
      return resultsDispatch(o, s, file);
   ResultWriter w;
   ResultWriter_begin(&w, file ? OutFile_stream(file) : stdout, format);
   char err[1200];
   if (s && !Store_query(s, &f, writeRow, &w, err, sizeof err)) { /* no store yet: no rows */
      fprintf(stderr, "gemmtop: results: %s: %s\n", Store_path(s), err);
      OutFile_discard(file);
      return 1;
   }
   ResultWriter_end(&w);
   if (file && !OutFile_commit(file, err, sizeof err)) {
      fprintf(stderr, "gemmtop: --out %s\n", err);
      return 1;
   }
   if (file)
      fprintf(stderr, "gemmtop: exported %ld result%s to %s (%s)\n", w.rows, w.rows == 1 ? "" : "s",
              o->results->out, ResultFormat_title(format));
   return 0;
}

/* ---- import ---- */

typedef struct Keys_ {
   unsigned long long *keys;
   int n, cap;
   bool out_of_memory;
} Keys;

static bool collectKey(const StoreRecord *r, void *ctx) {
   Keys *k = ctx;
   if (k->n == k->cap) {
      int cap = k->cap ? k->cap * 2 : 256;
      unsigned long long *more = realloc(k->keys, (size_t)cap * sizeof *more);
      if (!more) {
         k->out_of_memory = true;
         return false;
      }
      k->keys = more;
      k->cap = cap;
   }
   k->keys[k->n++] = Results_importKey(r);
   return true;
}

static int cmpKey(const void *x, const void *y) {
   unsigned long long a = *(const unsigned long long *)x, b = *(const unsigned long long *)y;
   return a < b ? -1 : a > b;
}

/* The import keys of every row the store has, sorted: a row imported again is found. */
static bool knownKeys(Store *s, Keys *known, char *err, size_t errlen) {
   *known = (Keys){0};
   if (!Store_query(s, NULL, collectKey, known, err, errlen) || known->out_of_memory) {
      if (known->out_of_memory)
         snprintf(err, errlen, "out of memory");
      free(known->keys);
      known->keys = NULL;
      return false;
   }
   if (known->n) /* keys is NULL when the store has none */
      qsort(known->keys, (size_t)known->n, sizeof *known->keys, cmpKey);
   return true;
}

static bool isKnown(const Keys *known, const StoreRecord *r) {
   unsigned long long key = Results_importKey(r);
   return known->n && bsearch(&key, known->keys, (size_t)known->n, sizeof key, cmpKey);
}

/* A tuner's file may be this large: its text is held whole while its rows stream in. */
#define IMPORT_MAX_BYTES (1ull << 30)

typedef struct Importing_ {
   StoreBatch *batch;
   Keys known;
   long fresh, already;
   double said;               /* when progress was last said (ms) */
   char err[1024];
} Importing;

static bool importRow(StoreRecord *r, void *ctx) {
   Importing *im = ctx;
   if (isKnown(&im->known, r))
      im->already++;
   else if (!Store_batchAdd(im->batch, r, im->err, sizeof im->err))
      return false;
   else
      im->fresh++;
   /* A long import says that it goes on: every 100,000 rows, and at least once a second. */
   long read = im->fresh + im->already;
   double now = Util_nowMs();
   if (read % 100000 == 0 || now - im->said >= 1000) {
      fprintf(stderr, "gemmtop: results import: %ld results read...\n", read);
      im->said = now;
   }
   return true;
}

/* Imports a T4 or CLBlast tuner file: every row or none. 0, 1 (unreadable, or the store
 * failed) or 2 (not a file gemmtop imports), with the message printed. */
static int importFile(const CommandArgs *o, const char *path, Store *s) {
   ResultFormat format, found = RESULT_FORMAT_T4;
   bool has_format = o->results->format && ResultFormat_parse(o->results->format, &format);
   if (o->results->format && !has_format) { /* dispatch: a table export writes, not a file of results */
      fprintf(stderr, "gemmtop: results import --format %s: import reads t4 or clblast files\n", o->results->format);
      return 2;
   }
   struct stat st;
   size_t len = 0;
   char why[256];
   if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) {
      fprintf(stderr, "gemmtop: results import: %s: %s\n", path,
              stat(path, &st) != 0 ? strerror(errno) : "not a regular file");
      return 2;
   }
   char *text = Util_readUserFile(path, IMPORT_MAX_BYTES, &len, why, sizeof why);
   if (!text) {
      fprintf(stderr, "gemmtop: results import: %s: %s\n", path, why);
      return (unsigned long long)st.st_size > IMPORT_MAX_BYTES ? 2 : 1;
   }
   ImportLabels labels = {.device = o->results->filter_device, .kernel = o->sel->kernel, .precision = -1};
   if (o->results->filter_size) {
      labels.m = o->shape->problem.m;
      labels.n = o->shape->problem.n;
      labels.k = o->shape->problem.k;
   }
   if (o->shape->has_precision)
      labels.precision = (int)o->shape->problem.precision;
   Importing im = {.said = Util_nowMs()};
   char err[1024];
   if (!knownKeys(s, &im.known, err, sizeof err) || !(im.batch = Store_begin(s, err, sizeof err))) {
      fprintf(stderr, "gemmtop: results import: %s\n", err);
      free(im.known.keys);
      free(text);
      return 1;
   }
   long rows = 0;
   bool read = ResultImport_each(path, text, len, has_format ? &format : NULL, &labels, (long long)st.st_mtime,
                                 importRow, &im, &rows, &found, err, sizeof err);
   free(text);
   free(im.known.keys);
   /* A row the store refused stopped the reading: its reason is the store's. */
   bool added = !im.err[0];
   char endErr[1024] = "";
   bool committed = Store_end(im.batch, read && added, endErr, sizeof endErr);
   if (!added || (read && !committed)) {
      fprintf(stderr, "gemmtop: results import: %s; nothing was imported\n", added ? endErr : im.err);
      return 1;
   }
   if (!read) {
      fprintf(stderr, "gemmtop: results import: %s\n", err);
      return 2;
   }
   printf("imported %ld result%s from %s (%s) into %s", im.fresh, im.fresh == 1 ? "" : "s", path,
          ResultFormat_title(found), Store_path(s));
   if (im.already)
      printf("; %ld already there", im.already);
   printf("\n");
   return 0;
}

/* ---- import of another gemmtop store (a damaged one's readable rows) ---- */

#define SALVAGE_BATCH 512

typedef struct Salvage_ {
   Store *into;
   Keys known;               /* sorted: the rows the store has already */
   StoreRecord *batch;
   int nbatch;
   long long added, already;
   bool failed;
   char err[1024];
} Salvage;

static bool flushBatch(Salvage *sv) {
   if (sv->nbatch && !Store_add(sv->into, sv->batch, sv->nbatch, sv->err, sizeof sv->err))
      sv->failed = true;
   else
      sv->added += sv->nbatch;
   sv->nbatch = 0;
   return !sv->failed;
}

static bool takeSalvaged(const StoreRecord *r, void *ctx) {
   Salvage *sv = ctx;
   if (isKnown(&sv->known, r)) {
      sv->already++;
      return true;
   }
   sv->batch[sv->nbatch] = *r;
   sv->batch[sv->nbatch].id = 0;
   return ++sv->nbatch < SALVAGE_BATCH || flushBatch(sv);
}

/* Whether path names the same file as the store s (importing a store into itself). */
static bool sameFile(const char *path, Store *s) {
   struct stat a, b;
   return stat(path, &a) == 0 && stat(Store_path(s), &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Whether path is the store's -wal or -shm (SQLite's own files beside it): replacing one
 * under a live connection loses its commits. */
static bool isStoreCompanion(const char *path, Store *s) {
   struct stat a, b;
   if (stat(path, &a) != 0)
      return false;
   static const char *const suffixes[] = {"-wal", "-shm"};
   for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++) {
      char companion[4200];
      snprintf(companion, sizeof companion, "%s%s", Store_path(s), suffixes[i]);
      if (stat(companion, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
         return true;
   }
   return false;
}

/* Whether the file starts as a SQLite database does. Only ever a file other than the open
 * store (sameFile first): a descriptor of the store itself must not be closed here. */
static bool looksLikeSqlite(const char *path) {
   char head[16] = "";
   FILE *f = fopen(path, "rb");
   size_t got = f ? fread(head, 1, sizeof head, f) : 0;
   if (f)
      fclose(f);
   return got == sizeof head && !memcmp(head, "SQLite format 3", sizeof head);
}

/* Every readable row of another gemmtop store, a corrupt one included, that s lacks. */
static int importStore(const char *path, Store *s) {
   Salvage sv = {.into = s};
   StoreSalvage got;
   char err[1024];
   sv.batch = malloc(SALVAGE_BATCH * sizeof *sv.batch);
   if (!sv.batch || !knownKeys(s, &sv.known, err, sizeof err)) {
      fprintf(stderr, "gemmtop: results import: %s\n", !sv.batch ? "out of memory" : err);
      free(sv.batch);
      return 1;
   }
   bool read = Store_salvage(path, takeSalvaged, &sv, &got, err, sizeof err);
   if (read && !sv.failed)
      flushBatch(&sv);
   int rc = 0;
   if (!read) {
      fprintf(stderr, "gemmtop: results import: %s\n", err);
      rc = 1;
   } else if (sv.failed) {
      fprintf(stderr, "gemmtop: results import: %s (%lld rows were imported before it)\n", sv.err, sv.added);
      rc = 1;
   } else {
      printf("imported %lld result%s from the gemmtop store %s into %s", sv.added, sv.added == 1 ? "" : "s", path,
             Store_path(s));
      if (sv.already)
         printf("; %lld already there", sv.already);
      if (got.damaged)
         printf("; %d damaged run%s of rows could not be read and %s skipped", got.damaged,
                got.damaged == 1 ? "" : "s", got.damaged == 1 ? "was" : "were");
      printf("\n");
   }
   free(sv.batch);
   free(sv.known.keys);
   return rc;
}

static int resultsImport(const CommandArgs *o, Store *s) {
   const char *path = o->positional[1];
   if (sameFile(path, s)) {
      fprintf(stderr, "gemmtop: results import: %s is the store being imported into; give another --store FILE\n",
              path);
      return 2;
   }
   if (looksLikeSqlite(path)) {
      if (o->results->format || o->results->filter_device || o->sel->kernel || o->results->filter_size || o->shape->has_precision) {
         fprintf(stderr, "gemmtop: results import: %s is a gemmtop store: its rows keep their own labels and format "
                         "(drop --format, --device, --kernel, --size and --precision)\n", path);
         return 2;
      }
      return importStore(path, s);
   }
   return importFile(o, path, s);
}

/* ---- the subcommands ---- */

static const struct {
   const char *name;
   int (*run)(const CommandArgs *o, Store *s);
   unsigned takes;
   bool file;                /* takes FILE */
} kSubcommands[] = {
    {"list", resultsList, TAKES_FILTERS | TAKES_LIMIT, false},
    {"best", resultsBest, TAKES_FILTERS, false},
    {"compare", resultsCompare, TAKES_FILTERS | TAKES_AGAINST, false},
    {"export", resultsExport, TAKES_FILTERS | TAKES_FORMAT | TAKES_OUT | TAKES_SHAPES, false},
    {"import", resultsImport, TAKES_LABELS | TAKES_FORMAT, true},
};
#define SUBCOMMANDS "list, best, compare, export or import"

/* The subcommand argv names, or -1 with the message printed. */
static int findSubcommand(const CommandArgs *o) {
   if (o->npositional == 0) {
      fprintf(stderr, "gemmtop: results needs a subcommand: %s\nsee 'gemmtop results --help'\n", SUBCOMMANDS);
      return -1;
   }
   for (size_t i = 0; i < sizeof kSubcommands / sizeof kSubcommands[0]; i++)
      if (!strcmp(o->positional[0], kSubcommands[i].name))
         return (int)i;
   fprintf(stderr, "gemmtop: results: unknown subcommand '%s': use %s\n", o->positional[0], SUBCOMMANDS);
   return -1;
}

/* The options and words that this subcommand does not take. */
static int checkTakes(const CommandArgs *o, int sub) {
   const char *name = kSubcommands[sub].name;
   for (size_t i = 0; i < sizeof kGiven / sizeof kGiven[0]; i++)
      if (given(o, i) && !(kGiven[i].bit & kSubcommands[sub].takes)) {
         fprintf(stderr, "gemmtop: results %s does not take %s\nsee 'gemmtop results --help'\n", name,
                 kGiven[i].spelling);
         return 2;
      }
   if (kSubcommands[sub].file && o->npositional < 2) {
      fprintf(stderr, "gemmtop: results %s needs a FILE (a T4 or CLBlast tuner JSON file, or another gemmtop store)\n", name);
      return 2;
   }
   if (!kSubcommands[sub].file && o->npositional > 1) {
      fprintf(stderr, "gemmtop: results %s takes no file ('%s'); %s\n", name, o->positional[1],
              !strcmp(name, "export") ? "write to one with --out FILE" : "see 'gemmtop results --help'");
      return 2;
   }
   return 0;
}

/* Whether the store is absent: reading one does not make it. A default one that is not
 * there yet holds no results; one that --store names must be there (2 with a message). */
static int storeAbsent(const CommandArgs *o, bool *absent) {
   char path[4096];
   struct stat st;
   *absent = false;
   if (o->storage->path)
      Util_copy(path, sizeof path, o->storage->path);
   else if (!Store_defaultPath(path, sizeof path))
      return 0; /* Store_open says why */
   if (stat(path, &st) == 0 || errno != ENOENT)
      return 0;
   *absent = true;
   if (o->storage->path) {
      fprintf(stderr, "gemmtop: results: --store %s: no such file\n", o->storage->path);
      return 2;
   }
   fprintf(stderr, "gemmtop: results: no results store at %s yet (gemmtop run, sweep, bench and the explorer "
                   "record there)\n", path);
   return 0;
}

static int execResults(const CommandArgs *o) {
   int sub = findSubcommand(o);
   if (sub < 0)
      return 2;
   int rc = checkTakes(o, sub);
   if (rc)
      return rc;
   bool absent = false;
   if (!kSubcommands[sub].file && ((rc = storeAbsent(o, &absent)) || absent))
      return rc || kSubcommands[sub].run != resultsExport ? rc : resultsExport(o, NULL);
   Store *s = openStore(o, kSubcommands[sub].file);
   if (!s)
      return 1;
   rc = kSubcommands[sub].run(o, s);
   Store_close(s);
   return rc;
}

const CommandEntry Cli_resultsCommand = {
    .name = "results",
    .groups = IN_GROUP(SELECTION) | IN_GROUP(SHAPE) | IN_GROUP(STORAGE) | IN_GROUP(RESULTS) | IN_GROUP(GENERAL),
    .words = "list|best|compare|export|import [FILE]",
    .summary = "the results store: list, best, compare, export (CSV, JSON Lines, T4), import (T4, CLBlast)",
    .max_positional = 2,
    .exec = execResults,
};
