#include "core/results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/config.h"
#include "core/record.h"

bool ResultSet_addRow(const StoreRecord *r, void *ctx) {
   ResultSet *s = ctx;
   if (s->n == s->cap) {
      int cap = s->cap ? s->cap * 2 : 256;
      StoreRecord *rows = realloc(s->rows, (size_t)cap * sizeof *rows);
      if (!rows) {
         s->out_of_memory = true;
         return false;
      }
      s->rows = rows;
      s->cap = cap;
   }
   s->rows[s->n++] = *r;
   return true;
}

void ResultSet_free(ResultSet *s) {
   free(s->rows);
   *s = (ResultSet){0};
}

bool Results_ranks(const StoreRecord *r) {
   return !strcmp(r->outcome, "ok") && r->verified && !r->emulated && isfinite(r->gflops) && r->gflops > 0;
}

static bool isVendor(const StoreRecord *r) { return !strcmp(r->origin, "vendor"); }

/* Orders problems: sizes, type (with the FP8 types' scaling), layout (alpha and beta do
 * not change what is compared). */
static int cmpProblem(const Problem *a, const Problem *b) {
   const int ka[] = {a->m, a->n, a->k, (int)a->precision, Problem_scaled(a) ? (int)a->scaling : 0, a->trans_a, a->trans_b};
   const int kb[] = {b->m, b->n, b->k, (int)b->precision, Problem_scaled(b) ? (int)b->scaling : 0, b->trans_a, b->trans_b};
   for (int i = 0; i < 7; i++)
      if (ka[i] != kb[i])
         return ka[i] < kb[i] ? -1 : 1;
   return 0;
}

static int cmpGflopsDesc(const StoreRecord *a, const StoreRecord *b) {
   return a->gflops > b->gflops ? -1 : a->gflops < b->gflops ? 1 : 0;
}

/* qsort has no context: the set being sorted. */
static const ResultSet *sorting;

static int cmpBest(const void *x, const void *y) {
   const StoreRecord *a = &sorting->rows[*(const int *)x], *b = &sorting->rows[*(const int *)y];
   int c = strcmp(a->device, b->device);
   if (!c)
      c = cmpProblem(&a->problem, &b->problem);
   if (!c)
      c = strcmp(a->kernel, b->kernel);
   if (!c)
      c = cmpGflopsDesc(a, b);
   return c;
}

/* The ranking rows' indices, sorted with cmp. */
static int *sortedRanking(const ResultSet *s, int (*cmp)(const void *, const void *), int *count) {
   int *idx = malloc((size_t)(s->n ? s->n : 1) * sizeof *idx);
   if (!idx)
      return NULL;
   int n = 0;
   for (int i = 0; i < s->n; i++)
      if (Results_ranks(&s->rows[i]) || (isVendor(&s->rows[i]) && !strcmp(s->rows[i].outcome, "ok") &&
                                         isfinite(s->rows[i].gflops)))
         idx[n++] = i;
   sorting = s;
   qsort(idx, (size_t)n, sizeof *idx, cmp);
   *count = n;
   return idx;
}

/* The vendor row with the most GFLOPS on r's device and problem, or -1. */
static int bestVendor(const ResultSet *s, const int *idx, int n, const StoreRecord *r) {
   int best = -1;
   for (int j = 0; j < n; j++) {
      const StoreRecord *v = &s->rows[idx[j]];
      if (isVendor(v) && !strcmp(v->device, r->device) && !cmpProblem(&v->problem, &r->problem) &&
          (best < 0 || v->gflops > s->rows[best].gflops))
         best = idx[j];
   }
   return best;
}

int Results_best(const ResultSet *s, ResultBest **out) {
   int n;
   int *idx = sortedRanking(s, cmpBest, &n);
   ResultBest *best = malloc((size_t)(n ? n : 1) * sizeof *best);
   if (!idx || !best) {
      free(idx);
      free(best);
      return -1;
   }
   int count = 0;
   for (int i = 0; i < n; i++) {
      const StoreRecord *r = &s->rows[idx[i]];
      const StoreRecord *prev = i ? &s->rows[idx[i - 1]] : NULL;
      bool first = !prev || strcmp(prev->device, r->device) || cmpProblem(&prev->problem, &r->problem) ||
                   strcmp(prev->kernel, r->kernel);
      if (!first || isVendor(r))
         continue;
      ResultBest b = {.row = idx[i], .vendor = bestVendor(s, idx, n, r), .pct_of_vendor = NAN};
      if (b.vendor >= 0)
         b.pct_of_vendor = 100.0 * r->gflops / s->rows[b.vendor].gflops;
      best[count++] = b;
   }
   /* Within a device and problem, the fastest kernel first. */
   for (int i = 1; i < count; i++)
      for (int j = i; j > 0; j--) {
         const StoreRecord *a = &s->rows[best[j - 1].row], *b = &s->rows[best[j].row];
         if (strcmp(a->device, b->device) || cmpProblem(&a->problem, &b->problem) || a->gflops >= b->gflops)
            break;
         ResultBest t = best[j];
         best[j] = best[j - 1];
         best[j - 1] = t;
      }
   free(idx);
   *out = best;
   return count;
}

/* Parameters in one order ("TSM=8 TSN=16" and "TSN=16 TSM=8" are one configuration:
 * another tool may list them otherwise), per row while compare sorts. */
static char (*canonical)[sizeof ((StoreRecord *)0)->params];

static int cmpWord(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

static void canonicalParams(const char *params, char *out, size_t len) {
   char copy[sizeof ((StoreRecord *)0)->params], *words[128];
   int n = 0;
   Util_copy(copy, sizeof copy, params);
   for (char *save = NULL, *w = strtok_r(copy, " ", &save); w && n < 128; w = strtok_r(NULL, " ", &save))
      words[n++] = w;
   qsort(words, (size_t)n, sizeof *words, cmpWord);
   out[0] = '\0';
   for (int i = 0; i < n; i++) {
      size_t used = strlen(out);
      snprintf(out + used, len - used, "%s%s", i ? " " : "", words[i]);
   }
}

static int cmpPair(const void *x, const void *y) {
   int ia = *(const int *)x, ib = *(const int *)y;
   const StoreRecord *a = &sorting->rows[ia], *b = &sorting->rows[ib];
   int c = strcmp(a->kernel, b->kernel);
   if (!c)
      c = cmpProblem(&a->problem, &b->problem);
   if (!c)
      c = strcmp(canonical[ia], canonical[ib]);
   return c;
}

int Results_compare(const ResultSet *s, const unsigned char *side, ResultPair **out) {
   canonical = malloc((size_t)(s->n ? s->n : 1) * sizeof *canonical);
   if (!canonical)
      return -1;
   for (int i = 0; i < s->n; i++)
      canonicalParams(s->rows[i].params, canonical[i], sizeof canonical[i]);
   int n;
   int *idx = sortedRanking(s, cmpPair, &n);
   ResultPair *pairs = malloc((size_t)(n ? n : 1) * sizeof *pairs);
   if (!idx || !pairs) {
      free(idx);
      free(pairs);
      free(canonical);
      canonical = NULL;
      return -1;
   }
   int count = 0;
   for (int i = 0; i < n;) {
      int end = i;
      while (end < n && cmpPair(&idx[i], &idx[end]) == 0)
         end++;
      ResultPair p = {.a = -1, .b = -1, .ratio = NAN};
      for (int j = i; j < end; j++) {
         int r = idx[j];
         int *slot = side[r] == 0 ? &p.a : side[r] == 1 ? &p.b : NULL;
         if (slot && (*slot < 0 || s->rows[r].gflops > s->rows[*slot].gflops))
            *slot = r;
      }
      if (p.a >= 0 && p.b >= 0)
         p.ratio = s->rows[p.b].gflops / s->rows[p.a].gflops;
      if (p.a >= 0 || p.b >= 0)
         pairs[count++] = p;
      i = end;
   }
   free(idx);
   free(canonical);
   canonical = NULL;
   *out = pairs;
   return count;
}

unsigned long long Results_importKey(const StoreRecord *r) {
   char text[1024];
   int len = snprintf(text, sizeof text, "%s|%s|%s|%s|%d|%d|%d|%d|%d%d|%.9g", r->origin, r->device, r->kernel, r->params,
                      r->problem.m, r->problem.n, r->problem.k, (int)r->problem.precision, r->problem.trans_a,
                      r->problem.trans_b, r->median_ms);
   return Util_hash(1469598103934665603ULL, text, len > 0 && (size_t)len < sizeof text ? (size_t)len : sizeof text - 1);
}

void Results_dispatch(const ResultSet *s, const ShapeSuite *suite, DispatchEntry *out) {
   for (int i = 0; i < suite->count; i++) {
      const Shape *sh = &suite->shapes[i];
      DispatchEntry *e = &out[i];
      *e = (DispatchEntry){.row = -1, .vendor = -1, .pct_of_vendor = NAN};
      for (int r = 0; r < s->n; r++) {
         const StoreRecord *rec = &s->rows[r];
         if (rec->problem.m != sh->m || rec->problem.n != sh->n || rec->problem.k != sh->k || !Results_ranks(rec))
            continue;
         int *best = isVendor(rec) ? &e->vendor : &e->row;
         if (*best < 0 || rec->gflops > s->rows[*best].gflops)
            *best = r;
      }
      if (e->row >= 0 && e->vendor >= 0 && s->rows[e->vendor].gflops > 0)
         e->pct_of_vendor = 100 * s->rows[e->row].gflops / s->rows[e->vendor].gflops;
   }
}

/* Whether r was measured where and on what scope says. */
static bool inScope(const StoreRecord *r, const ResultsScope *scope) {
   const Problem *p = &r->problem, *want = &scope->problem;
   return !strcmp(r->device, scope->device) && !strcmp(r->backend, scope->backend) &&
          p->precision == want->precision && (!Problem_scaled(want) || p->scaling == want->scaling) &&
          p->trans_a == want->trans_a && p->trans_b == want->trans_b && r->cold_l2 == scope->cold_l2;
}

/* Whether r is a configuration that runs as it was measured: its kernel's text unchanged,
 * its parameters valid at its size on the device, and taken by scope->keep. */
static bool runsToday(const StoreRecord *r, const ResultsScope *scope) {
   const KernelInfo *k = Catalog_find(scope->cat, r->kernel);
   long long values[KERNEL_MAX_PARAMS];
   char hash[17];
   if (!k || !Results_ranks(r) || !Record_parseParams(k, r->params, values))
      return false;
   KernelInfo_hash(k, hash);
   Problem p = scope->problem;
   p.m = r->problem.m, p.n = r->problem.n, p.k = r->problem.k;
   return !strcmp(hash, r->kernel_hash) && Config_check(k, values, &p, scope->limits, NULL, NULL, 0) &&
          (!scope->keep || scope->keep(scope->ctx, r, k, values));
}

void Results_keepScope(ResultSet *s, const ResultsScope *scope) {
   int kept = 0;
   for (int i = 0; i < s->n; i++) {
      const StoreRecord *r = &s->rows[i];
      if (inScope(r, scope) && (isVendor(r) || runsToday(r, scope)))
         s->rows[kept++] = *r;
   }
   s->n = kept;
}

bool Results_shapeBest(Store *st, const ResultsScope *scope, const ShapeSuite *suite, ResultSet *set,
                       DispatchEntry *e, char *err, size_t errlen) {
   StoreFilter f;
   StoreFilter_init(&f);
   f.device = scope->device;
   f.precision = (int)scope->problem.precision;
   f.ok_only = true;
   *set = (ResultSet){0};
   if (!Store_query(st, &f, ResultSet_addRow, set, err, errlen) || set->out_of_memory) {
      if (set->out_of_memory)
         snprintf(err, errlen, "out of memory after %d rows of the results store", set->n);
      ResultSet_free(set);
      return false;
   }
   Results_keepScope(set, scope);
   Results_dispatch(set, suite, e);
   return true;
}
