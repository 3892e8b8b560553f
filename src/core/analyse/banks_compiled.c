#include "core/analyse/banks_compiled.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/analyse/tracekey.h"

#define MAX_VECTOR_BYTES 16
/* How far ahead (in the work-item's executions of a site) a run's next address is looked
 * for: an unrolled loop's neighbours are close; farther is another loop. */
#define RUN_WINDOW 64

/* ---- widths ---- */

void BankWidths_rule(BankWidths *w, const char *why) {
   memset(w, 0, sizeof *w);
   w->load_max = w->store_max = MAX_VECTOR_BYTES;
   snprintf(w->source, sizeof w->source, "the rule (a work-item's neighbouring accesses of a site merged, up to 16 B)%s%s",
            why && *why ? ": " : "", why ? why : "");
}

/* The size of a PTX type suffix (".f32", ".b64"), 0 when it is none. */
static unsigned ptxTypeSize(const char *p) {
   if (p[0] != '.' || !strchr("fbusFBUS", p[1]))
      return 0;
   int bits = atoi(p + 2);
   return bits == 8 || bits == 16 || bits == 32 || bits == 64 || bits == 128 ? (unsigned)bits / 8 : 0;
}

/* One PTX instruction "ld.shared[::cta][.v2|.v4].TYPE": its width in bytes, or 0. */
static unsigned ptxWidth(const char *p) {
   unsigned vec = 1, size = 0;
   while (*p == '.' || *p == ':') {
      if (!strncmp(p, ".v2", 3) && !isalnum((unsigned char)p[3]))
         vec = 2;
      else if (!strncmp(p, ".v4", 3) && !isalnum((unsigned char)p[3]))
         vec = 4;
      else if (ptxTypeSize(p))
         size = ptxTypeSize(p);
      p++;
      while (isalnum((unsigned char)*p) || *p == ':' || *p == '_')
         p++;
   }
   return vec * size;
}

/* AMD "ds_read_b128", "ds_write_b64", "ds_load_b96", "ds_store_b32": width, or 0. ds_read2
 * reads two separate words: 4 bytes each, for the banks. */
static unsigned isaWidth(const char *p, bool *store) {
   static const char *const ops[] = {"ds_read_b", "ds_load_b", "ds_write_b", "ds_store_b"};
   for (int i = 0; i < 4; i++)
      if (!strncmp(p, ops[i], strlen(ops[i]))) {
         *store = i >= 2;
         int bits = atoi(p + strlen(ops[i]));
         return bits >= 8 && bits <= 128 ? (unsigned)bits / 8 : 0;
      }
   return 0;
}

bool BankWidths_fromCode(const char *code, const char *kind, BankWidths *w) {
   if (!code)
      return false;
   unsigned ld = 0, st = 0;
   bool ptx = false;
   for (const char *p = code; *p; p++) {
      if (p != code && (isalnum((unsigned char)p[-1]) || p[-1] == '_' || p[-1] == '.'))
         continue;
      bool store = false;
      unsigned width = 0;
      if (!strncmp(p, "ld.shared", 9) || !strncmp(p, "st.shared", 9)) {
         store = *p == 's';
         width = ptxWidth(p + 9);
         ptx = true;
      } else {
         width = isaWidth(p, &store);
      }
      if (store && width > st)
         st = width;
      else if (!store && width > ld)
         ld = width;
   }
   if (!ld && !st)
      return false;
   memset(w, 0, sizeof *w);
   w->from_code = true;
   /* A kind of access the code never makes cannot be merged either. */
   w->load_max = ld ? ld : 4;
   w->store_max = st ? st : 4;
   snprintf(w->source, sizeof w->source, "the compiled code (%s): local loads up to %u B, stores up to %u B (%s)",
            kind && *kind ? kind : "code", w->load_max, w->store_max,
            ptx ? "ld.shared/st.shared" : "ds_read/ds_write");
   return true;
}

/* ---- regrouping ---- */

/* Records of one site in (group, item, seq) order: indices into the trace. */
typedef struct SiteOrder_ {
   const TraceRecord *rec;
   size_t *idx;
   size_t n;
} SiteOrder;

/* idx[0..n): the records of one site, put in (group, item, seq) order. */
static bool sortSite(const TraceRecord *rec, size_t *idx, size_t n) {
   TraceKey *keys = malloc(n * sizeof *keys);
   if (!keys)
      return false;
   for (size_t i = 0; i < n; i++) /* a work-item's accesses together, in seq order */
      keys[i] = (TraceKey){(unsigned long long)rec[idx[i]].group << 32 | rec[idx[i]].item, rec[idx[i]].seq, idx[i]};
   qsort(keys, n, sizeof *keys, TraceKey_compare);
   for (size_t i = 0; i < n; i++)
      idx[i] = keys[i].index;
   free(keys);
   return true;
}

/* Partitions one work-item's accesses (idx[0..n), in seq order) into runs of f. leader[i]
 * gets the run's rank for the first access of a run, -1 for the others. False when an
 * access fits no run. */
static bool partitionItem(const TraceRecord *rec, const size_t *idx, size_t n, unsigned f, int *leader, bool *used) {
   memset(used, 0, n * sizeof *used);
   int runs = 0;
   for (size_t i = 0; i < n; i++) {
      leader[i] = -1;
      if (used[i])
         continue;
      const TraceRecord *a = &rec[idx[i]];
      const unsigned w = a->width ? a->width : 1;
      if (a->address % (f * w) != 0)
         return false;
      used[i] = true;
      for (unsigned e = 1; e < f; e++) {
         size_t j = i + 1, end = i + 1 + RUN_WINDOW < n ? i + 1 + RUN_WINDOW : n;
         while (j < end && (used[j] || rec[idx[j]].address != a->address + e * w || rec[idx[j]].width != a->width)) {
            if (rec[idx[j]].address == a->address)
               j = end; /* the first address again: a later iteration */
            else
               j++;
         }
         if (j >= end)
            return false;
         used[j] = true;
      }
      leader[i] = runs++;
   }
   return true;
}

/* Whether the site's records (in item order) merge by f, every work-item forming its runs
 * at the same executions. With out, writes the merged records there (count in *nout). */
static bool mergeSite(const SiteOrder *o, unsigned f, int *leader, int *pattern, bool *used, TraceRecord *out,
                      size_t *nout) {
   size_t first = 0, patternLen = 0;
   bool havePattern = false;
   while (first < o->n) {
      const TraceRecord *r0 = &o->rec[o->idx[first]];
      size_t end = first + 1;
      while (end < o->n && o->rec[o->idx[end]].group == r0->group && o->rec[o->idx[end]].item == r0->item)
         end++;
      size_t n = end - first;
      if (n % f || !partitionItem(o->rec, o->idx + first, n, f, leader, used))
         return false;
      if (!havePattern) {
         memcpy(pattern, leader, n * sizeof *leader);
         patternLen = n;
         havePattern = true;
      } else if (n != patternLen || memcmp(pattern, leader, n * sizeof *leader)) {
         return false;
      }
      for (size_t i = 0; out && i < n; i++)
         if (leader[i] >= 0) {
            TraceRecord m = o->rec[o->idx[first + i]];
            m.width *= f;
            m.seq = (unsigned)leader[i];
            out[(*nout)++] = m;
         }
      first = end;
   }
   return true;
}

/* The largest factor by which the site merges under the cap (bytes), 1 when none. */
static unsigned siteFactor(const SiteOrder *o, unsigned cap, int *leader, int *pattern, bool *used) {
   const unsigned w = o->rec[o->idx[0]].width ? o->rec[o->idx[0]].width : 1;
   for (unsigned f = MAX_VECTOR_BYTES / w; f >= 2; f /= 2)
      if (f * w <= cap && mergeSite(o, f, leader, pattern, used, NULL, NULL))
         return f;
   return 1;
}

/* The largest run of one work-item's records in o (the scratch arrays' size). */
static size_t longestItem(const SiteOrder *o) {
   size_t longest = 0;
   for (size_t first = 0; first < o->n;) {
      size_t end = first + 1;
      while (end < o->n && o->rec[o->idx[end]].group == o->rec[o->idx[first]].group &&
             o->rec[o->idx[end]].item == o->rec[o->idx[first]].item)
         end++;
      if (end - first > longest)
         longest = end - first;
      first = end;
   }
   return longest;
}

/* Regroups one site's records into out (appending at *nout). False when out of memory. */
static bool regroupSite(const SiteOrder *o, const BankWidths *w, TraceRecord *out, size_t *nout, BankMerge *merge) {
   const TraceRecord *r0 = &o->rec[o->idx[0]];
   merge->factor = 1;
   merge->width = r0->width;
   size_t longest = longestItem(o);
   int *leader = malloc((longest ? longest : 1) * sizeof *leader);
   int *pattern = malloc((longest ? longest : 1) * sizeof *pattern);
   bool *used = malloc(longest ? longest : 1);
   if (!leader || !pattern || !used) {
      free(leader), free(pattern), free(used);
      return false;
   }
   /* A site of mixed widths (a kernel that writes two types through one site) stays as it is. */
   bool uniform = true;
   for (size_t i = 1; i < o->n && uniform; i++)
      uniform = o->rec[o->idx[i]].width == r0->width && o->rec[o->idx[i]].store == r0->store;
   unsigned f = uniform ? siteFactor(o, r0->store ? w->store_max : w->load_max, leader, pattern, used) : 1;
   if (f > 1) {
      mergeSite(o, f, leader, pattern, used, out, nout);
      merge->factor = f;
      merge->width = r0->width * f;
   } else {
      for (size_t i = 0; i < o->n; i++)
         out[(*nout)++] = o->rec[o->idx[i]];
   }
   free(leader), free(pattern), free(used);
   return true;
}

bool BankTrace_asCompiled(const Trace *t, const BankWidths *w, Trace *out, BankMerge merges[BANKS_MAX_SITES],
                          char *err, size_t errlen) {
   *out = *t;
   out->records = malloc((t->count ? t->count : 1) * sizeof *out->records);
   size_t *idx = malloc((t->count ? t->count : 1) * sizeof *idx);
   if (!out->records || !idx) {
      free(out->records), free(idx);
      memset(out, 0, sizeof *out);
      snprintf(err, errlen, "out of host memory regrouping %zu trace records", t->count);
      return false;
   }
   out->count = 0;
   for (unsigned site = 0; site < BANKS_MAX_SITES; site++) {
      merges[site] = (BankMerge){1, 0};
      size_t n = 0;
      for (size_t i = 0; i < t->count; i++)
         if (t->records[i].site == site && !t->records[i].global)
            idx[n++] = i;
      if (!n)
         continue;
      SiteOrder o = {t->records, idx, n};
      if (!sortSite(t->records, idx, n) || !regroupSite(&o, w, out->records, &out->count, &merges[site])) {
         free(idx);
         Trace_free(out);
         snprintf(err, errlen, "out of host memory regrouping %zu trace records", t->count);
         return false;
      }
   }
   /* Records of sites past the analysis's range and global loads pass through
    * (BankAnalysis_run skips them). */
   for (size_t i = 0; i < t->count; i++)
      if (t->records[i].site >= BANKS_MAX_SITES || t->records[i].global)
         out->records[out->count++] = t->records[i];
   free(idx);
   return true;
}

/* ---- both views ---- */

bool BankViews_run(BankViews *v, const Trace *t, const BankModel *m, const char *code, const char *kind,
                   const char *why_no_code, char *err, size_t errlen) {
   memset(v, 0, sizeof *v);
   if (!BankWidths_fromCode(code, kind, &v->widths))
      BankWidths_rule(&v->widths, why_no_code);
   Trace merged;
   if (!BankAnalysis_run(&v->source, t, m, err, errlen))
      return false;
   if (!BankTrace_asCompiled(t, &v->widths, &merged, v->merges, err, errlen)) {
      BankAnalysis_free(&v->source);
      return false;
   }
   bool ok = BankAnalysis_run(&v->compiled, &merged, m, err, errlen);
   Trace_free(&merged);
   if (!ok)
      BankAnalysis_free(&v->source);
   return ok;
}

void BankViews_free(BankViews *v) {
   BankAnalysis_free(&v->source);
   BankAnalysis_free(&v->compiled);
}
