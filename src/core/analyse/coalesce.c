#include "core/analyse/coalesce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analyse/tracekey.h"

const char *Coalescing_siteName(int site) { return site == COALESCE_A ? "A" : site == COALESCE_B ? "B" : "?"; }

int Coalescing_phaseLanes(unsigned width, int simd_width) {
   int lanes = width > 0 && width < COALESCE_LINE ? COALESCE_LINE / (int)width : 1;
   return lanes < simd_width ? lanes : simd_width;
}

/* Distinct values among v[0..n) (n is at most a warp: a quadratic scan is cheapest). */
static int distinct(const unsigned *v, int n) {
   int d = 0;
   for (int i = 0; i < n; i++) {
      int j = 0;
      while (j < i && v[j] != v[i])
         j++;
      d += j == i;
   }
   return d;
}

/* One request: the records [first, last) of one site, group, warp and execution. */
static CoalesceStats requestOf(const Trace *t, const TraceKey *keys, size_t first, size_t last, int simd) {
   CoalesceStats s = {.requests = 1};
   unsigned lines[64], sectors[256];
   int nsec = 0;
   for (size_t i = first; i < last; i++)
      if (t->records[keys[i].index].width > s.width)
         s.width = t->records[keys[i].index].width;
   const int perPhase = Coalescing_phaseLanes(s.width, simd);
   for (int phase = 0; phase * perPhase < simd; phase++) {
      int n = 0;
      for (size_t i = first; i < last; i++) {
         const TraceRecord *r = &t->records[keys[i].index];
         if ((int)(r->item % (unsigned)simd) / perPhase == phase && n < 64)
            lines[n++] = r->address / COALESCE_LINE;
      }
      s.wavefronts += distinct(lines, n);
   }
   for (size_t i = first; i < last; i++) {
      const TraceRecord *r = &t->records[keys[i].index];
      const unsigned w = r->width ? r->width : 1;
      for (unsigned a = r->address / COALESCE_SECTOR; a <= (r->address + w - 1) / COALESCE_SECTOR && nsec < 256; a++)
         sectors[nsec++] = a;
      s.bytes += w;
      s.accesses++;
   }
   s.sectors = distinct(sectors, nsec);
   return s;
}

static void add(CoalesceStats *to, const CoalesceStats *r) {
   to->requests += r->requests;
   to->accesses += r->accesses;
   to->wavefronts += r->wavefronts;
   to->sectors += r->sectors;
   to->bytes += r->bytes;
   if (r->width > to->width)
      to->width = r->width;
}

static void finish(CoalesceStats *s) { s->ratio = s->bytes > 0 ? s->wavefronts / (s->bytes / COALESCE_LINE) : 0; }

bool Coalescing_of(const Trace *t, int simd_width, Coalescing *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   const int simd = simd_width > 0 && simd_width <= 64 ? simd_width : 32;
   out->simd_width = simd;
   out->dropped = t->dropped;
   size_t n = 0;
   for (size_t i = 0; i < t->count; i++)
      n += t->records[i].global && t->records[i].site < COALESCE_SITES;
   if (n == 0) {
      snprintf(err, errlen, "the trace holds no global load of A or B (the kernel loads them another way: TMA, "
                            "cp.async, or its own code)");
      return false;
   }
   TraceKey *keys = malloc(n * sizeof *keys);
   if (!keys) {
      snprintf(err, errlen, "out of host memory for %zu global-load records", n);
      return false;
   }
   size_t k = 0;
   for (size_t i = 0; i < t->count; i++) {
      const TraceRecord *r = &t->records[i];
      if (!r->global || r->site >= COALESCE_SITES)
         continue;
      keys[k++] = TraceKey_of(r, i, (unsigned)simd);
   }
   qsort(keys, n, sizeof *keys, TraceKey_compare);
   /* A request: the same site, group, warp and execution (seq). */
   for (size_t first = 0; first < n;) {
      size_t last = first + 1;
      while (last < n && TraceKey_sameRequest(&keys[last], &keys[first]))
         last++;
      const CoalesceStats r = requestOf(t, keys, first, last, simd);
      add(&out->sites[t->records[keys[first].index].site], &r);
      add(&out->total, &r);
      first = last;
   }
   for (int s = 0; s < COALESCE_SITES; s++)
      finish(&out->sites[s]);
   finish(&out->total);
   free(keys);
   return true;
}
