#include "core/analyse/banks.h"
#include "core/analyse/tracekey.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* ---- models ---- */

static BankModel model(const char *name, int banks, int width, int simd, bool known, const char *source) {
   BankModel m;
   memset(&m, 0, sizeof m);
   Util_copy(m.name, sizeof m.name, name);
   m.banks = banks;
   m.bank_width = width;
   m.simd_width = simd;
   m.known = known;
   Util_copy(m.source, sizeof m.source, source);
   return m;
}

BankModel BankModel_nvidia(void) {
   BankModel m = model("NVIDIA", 32, 4, 32, true,
                       "CUDA C++ Programming Guide, shared memory (compute capability 5.0 and later): 32 banks "
                       "of 4-byte words, the same word broadcast; 8- and 16-byte accesses per half- and "
                       "quarter-warp, loads whose lanes agree in pairs per warp and half-warp (Nsight Compute "
                       "on an H100)");
   m.pair_merge = true;
   return m;
}

BankModel BankModel_amd(int simd_width) {
   return model("AMD GCN/CDNA", 32, 4, simd_width > 0 && simd_width <= BANKS_MAX_LANES ? simd_width : 64, true,
                "AMD OpenCL Optimization Guide and GCN/CDNA ISA guides: LDS of 32 banks x 4 bytes, conflicts "
                "checked per half wavefront (lanes 0-31, 32-63) for 4-byte accesses; 8-byte accesses per 16 "
                "lanes and 16-byte per 8 lanes (ROCm CK-Tile LDS notes for ds_write_b128; assumed for reads)");
}

BankModel BankModel_default(int simd_width) {
   return model("default", 32, 4, simd_width > 0 && simd_width <= BANKS_MAX_LANES ? simd_width : 32, false,
                "no bank model is known for this device: 32 banks x 4 bytes served like NVIDIA's, assumed");
}

BankModel BankModel_forDevice(const DeviceInfo *d) {
   int warp = d->limits.warp;
   /* A CPU has no banks, and PoCL's CPU device carries its processor's vendor ("AMD EPYC"). */
   if (d->type == DEVICE_CPU)
      return BankModel_default(32);
   if (d->vendor_kind == VENDOR_NVIDIA) {
      BankModel m = BankModel_nvidia();
      /* Kepler (sm_3x) had a configurable 8-byte bank mode; Fermi and older differ too. */
      if (!strncmp(d->arch, "sm_", 3) && d->arch[3] >= '1' && d->arch[3] <= '3' && d->arch[4] >= '0' &&
          d->arch[4] <= '9' && !d->arch[5]) {
         m.known = false;
         snprintf(m.source, sizeof m.source, "the NVIDIA model of compute capability 5.0 and later, assumed for %s",
                  d->arch);
      }
      return m;
   }
   if (d->vendor_kind == VENDOR_AMD) {
      BankModel m = BankModel_amd(warp);
      /* GCN and CDNA (gfx6..gfx9) are what the sources describe; RDNA's LDS differs. */
      bool gcn = !strncmp(d->arch, "gfx", 3) && d->arch[3] >= '6' && d->arch[3] <= '9' && d->arch[4] != '\0' &&
                 strlen(d->arch) == 6;
      if (!gcn) {
         m.known = false;
         snprintf(m.source, sizeof m.source, "the GCN/CDNA LDS model, assumed for %s",
                  d->arch[0] ? d->arch : "an AMD device of unknown architecture");
      }
      return m;
   }
   return BankModel_default(warp);
}

static BankModel nvidiaOfWidth(int simd_width) {
   (void)simd_width; /* a warp is 32 lanes */
   return BankModel_nvidia();
}

bool BankModel_named(const char *name, int simd_width, BankModel *out) {
   static const struct {
      const char *name;
      BankModel (*make)(int simd_width);
   } models[] = {{"nvidia", nvidiaOfWidth}, {"amd", BankModel_amd}, {"default", BankModel_default}};
   for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
      if (!strcmp(name, models[i].name)) {
         *out = models[i].make(simd_width);
         return true;
      }
   return false;
}

bool BankModel_override(BankModel *m, int banks, int bank_width, int simd_width, char *err, size_t errlen) {
   if (banks && (banks < 1 || banks > BANKS_MAX_BANKS)) {
      snprintf(err, errlen, "--banks %d: use 1 to %d", banks, BANKS_MAX_BANKS);
      return false;
   }
   if (bank_width && bank_width != 4 && bank_width != 8) {
      snprintf(err, errlen, "--bank-width %d: use 4 or 8 (bytes)", bank_width);
      return false;
   }
   if (simd_width && (simd_width < 1 || simd_width > BANKS_MAX_LANES)) {
      snprintf(err, errlen, "--simd-width %d: use 1 to %d", simd_width, BANKS_MAX_LANES);
      return false;
   }
   bool changed = (banks && banks != m->banks) || (bank_width && bank_width != m->bank_width) ||
                  (simd_width && simd_width != m->simd_width);
   if (banks) m->banks = banks;
   if (bank_width) m->bank_width = bank_width;
   if (simd_width) m->simd_width = simd_width;
   if (changed) {
      char was[32];
      Util_copy(was, sizeof was, m->name);
      Util_copy(m->name, sizeof m->name, "custom");
      m->known = false;
      snprintf(m->source, sizeof m->source, "set by --banks/--bank-width/--simd-width (from the %s model)", was);
   }
   return true;
}

int BankModel_phaseLanes(const BankModel *m, unsigned width) {
   unsigned w = width > (unsigned)m->bank_width ? width : (unsigned)m->bank_width;
   int lanes = (int)((unsigned)(m->banks * m->bank_width) / w);
   if (lanes < 1)
      lanes = 1;
   return lanes < m->simd_width ? lanes : m->simd_width;
}

void BankModel_describe(const BankModel *m, char *out, size_t outlen) {
   snprintf(out, outlen, "%d banks x %d B, SIMD %d", m->banks, m->bank_width, m->simd_width);
}

static bool modelValid(const BankModel *m) {
   return m->banks >= 1 && m->banks <= BANKS_MAX_BANKS && m->bank_width >= 1 && m->bank_width <= 16 &&
          m->simd_width >= 1 && m->simd_width <= BANKS_MAX_LANES;
}

/* ---- one request ---- */

/* A word asked for in the current phase, with the pass its bank serves it in. */
typedef struct Word_ {
   unsigned long long word;
   int bank;
   int pass;
} Word;

typedef struct Workspace_ {
   Word *words;
   size_t cap;
} Workspace;

static bool reserve(Workspace *w, size_t n) {
   if (n <= w->cap)
      return true;
   Word *nw = realloc(w->words, n * sizeof *nw);
   if (!nw)
      return false;
   w->words = nw;
   w->cap = n;
   return true;
}

/* NVIDIA's uniform-pair rule for 8- and 16-byte loads: lane n and lane n^1 (or n and n^2)
 * read the same address wherever both take part. Seen with Nsight Compute on an H100:
 * a float2 broadcast is 1 wavefront, a float4 one 2, a float4 read by pairs 2 instead of 4;
 * stores and other patterns keep the half/quarter-warp phases. */
static bool pairsAgree(const BankModel *m, const TraceRecord *rec, size_t n) {
   bool active[BANKS_MAX_LANES] = {false};
   unsigned address[BANKS_MAX_LANES];
   for (size_t i = 0; i < n; i++) {
      unsigned lane = rec[i].item % (unsigned)m->simd_width;
      active[lane] = true;
      address[lane] = rec[i].address;
   }
   for (int step = 1; step <= 2; step++) {
      bool agree = true;
      for (int l = 0; l < m->simd_width && agree; l++) {
         int partner = l ^ step;
         if (partner < m->simd_width && active[l] && active[partner] && address[l] != address[partner])
            agree = false;
      }
      if (agree)
         return true;
   }
   return false;
}

/* Counts the passes of one request (records of one warp, sorted by lane). With g, also
 * fills the grid. Records carry addresses already made relative to their group's base.
 * Returns false when out of memory. */
static bool serveRequest(const BankModel *m, const TraceRecord *rec, size_t n, Workspace *ws, BankRequest *r,
                         BankGrid *g) {
   unsigned width = 1;
   for (size_t i = 0; i < n; i++)
      if (rec[i].width > width)
         width = rec[i].width;
   const unsigned bw = (unsigned)m->bank_width;
   int lpp = BankModel_phaseLanes(m, width);
   const bool paired = m->pair_merge && !r->store && width > bw && lpp < m->simd_width && pairsAgree(m, rec, n);
   if (paired)
      lpp = 2 * lpp < m->simd_width ? 2 * lpp : m->simd_width;
   const int phases = (m->simd_width + lpp - 1) / lpp;
   /* Words one lane can touch: its width, plus one when misaligned. */
   if (!reserve(ws, (size_t)lpp * (width / bw + 2)))
      return false;
   int bankCount[BANKS_MAX_BANKS];
   r->wavefronts = r->ideal = 0;
   r->width = width;
   r->paired = paired;
   r->lanes = 0;
   if (g) {
      memset(g, 0, sizeof *g);
      g->lanes = m->simd_width;
      g->banks = m->banks;
      g->lanes_per_phase = lpp;
      g->phases = phases;
      g->paired = paired;
      g->width = width;
      g->max_pass = -1;
      for (int l = 0; l < BANKS_MAX_LANES; l++)
         for (int b = 0; b < BANKS_MAX_BANKS; b++)
            g->pass[l][b] = -1;
   }
   size_t i = 0;
   for (int p = 0; p < phases; p++) {
      memset(bankCount, 0, sizeof bankCount);
      size_t nwords = 0;
      int lanes = 0;
      for (; i < n && (int)(rec[i].item % (unsigned)m->simd_width) / lpp == p; i++) {
         const TraceRecord *t = &rec[i];
         const int lane = (int)(t->item % (unsigned)m->simd_width);
         unsigned w = t->width ? t->width : 1;
         unsigned long long lo = t->address / bw, hi = ((unsigned long long)t->address + w - 1) / bw;
         lanes++;
         if (g) {
            g->active[lane] = true;
            g->address[lane] = t->address;
         }
         for (unsigned long long word = lo; word <= hi; word++) {
            const int bank = (int)(word % (unsigned)m->banks);
            int pass = -1;
            for (size_t k = 0; k < nwords; k++)
               if (ws->words[k].word == word) {
                  pass = ws->words[k].pass;
                  break;
               }
            bool shared = pass >= 0;
            if (!shared) {
               if (!reserve(ws, nwords + 1))
                  return false;
               pass = bankCount[bank]++;
               ws->words[nwords++] = (Word){word, bank, pass};
            }
            if (g && pass > g->pass[lane][bank]) {
               g->pass[lane][bank] = (short)pass;
               g->shared[lane][bank] = shared;
               if (pass > g->max_pass)
                  g->max_pass = pass;
            }
         }
      }
      if (!lanes)
         continue;
      int worst = 1;
      for (int b = 0; b < m->banks; b++)
         if (bankCount[b] > worst)
            worst = bankCount[b];
      /* The fewest passes: every bank busy each pass, broadcasts free. */
      int ideal = (int)((nwords + (size_t)m->banks - 1) / (size_t)m->banks);
      if (ideal < 1)
         ideal = 1;
      r->wavefronts += worst;
      r->ideal += ideal;
      r->lanes += lanes;
      if (g)
         g->phase_wavefronts[p] = worst;
   }
   if (g) {
      g->wavefronts = r->wavefronts;
      g->ideal = r->ideal;
      g->site = r->site;
      g->group = r->group;
      g->warp = r->warp;
      g->seq = r->seq;
      g->store = r->store;
   }
   return true;
}

/* ---- the analysis ---- */

static void addRequest(BankSiteStats *s, const BankRequest *r, size_t accesses) {
   s->requests++;
   if (r->store)
      s->store_requests++;
   else
      s->load_requests++;
   s->wavefronts += r->wavefronts;
   s->ideal += r->ideal;
   s->conflicts += r->wavefronts - r->ideal;
   if (r->wavefronts > r->ideal)
      s->conflicted++;
   s->accesses += (long long)accesses;
   double degree = r->ideal ? (double)r->wavefronts / r->ideal : 1;
   if (degree > s->worst_degree)
      s->worst_degree = degree;
   if (r->width > s->width)
      s->width = r->width;
}

static void finishStats(BankSiteStats *s) {
   s->avg_degree = s->ideal ? (double)s->wavefronts / (double)s->ideal : 0;
}

/* Each group's base: its lowest address rounded down to a whole row of banks. Assumes
 * each local array begins bank-aligned, as the device's allocator makes it. */
static bool groupBases(BankAnalysis *a, const Trace *t, const BankModel *m, unsigned groups) {
   unsigned long long span = (unsigned long long)m->banks * (unsigned long long)m->bank_width;
   unsigned *lowest = a->base;
   bool *seen = calloc(groups ? groups : 1, sizeof *seen);
   if (!seen)
      return false;
   for (size_t i = 0; i < t->count; i++) {
      const TraceRecord *r = &t->records[i];
      if (r->site >= BANKS_MAX_SITES || r->global)
         continue;
      if (!seen[r->group] || r->address < lowest[r->group])
         lowest[r->group] = r->address;
      seen[r->group] = true;
   }
   free(seen);
   for (unsigned gi = 0; gi < groups; gi++)
      a->base[gi] = (unsigned)(lowest[gi] / span * span);
   return true;
}

/* The sorted records served: runs of one (site, group, warp, seq) are one request, added
 * to its site's figures and the total's. */
static bool serveRuns(BankAnalysis *a, const TraceKey *keys, const BankModel *m, Workspace *ws) {
   const unsigned simd = (unsigned)m->simd_width;
   const size_t n = a->nrecords;
   for (size_t i = 0; i < n;) {
      size_t j = i + 1;
      while (j < n && keys[j].hi == keys[i].hi && keys[j].lo >> 32 == keys[i].lo >> 32)
         j++;
      const TraceRecord *first = &a->records[i];
      BankRequest *r = &a->requests[a->nrequests];
      memset(r, 0, sizeof *r);
      r->site = first->site;
      r->group = first->group;
      r->warp = first->item / simd;
      r->seq = first->seq;
      r->store = first->store;
      r->first = i;
      r->count = j - i;
      if (!serveRequest(m, first, j - i, ws, r, NULL))
         return false;
      addRequest(&a->sites[r->site], r, r->count);
      addRequest(&a->total, r, r->count);
      if ((int)r->site + 1 > a->nsites)
         a->nsites = (int)r->site + 1;
      a->nrequests++;
      i = j;
   }
   return true;
}

bool BankAnalysis_run(BankAnalysis *a, const Trace *t, const BankModel *m, char *err, size_t errlen) {
   memset(a, 0, sizeof *a);
   if (!modelValid(m)) {
      snprintf(err, errlen, "invalid bank model (%d banks x %d B, SIMD %d)", m->banks, m->bank_width, m->simd_width);
      return false;
   }
   a->model = *m;
   a->dropped = t->dropped;
   a->wg_size = t->wg_size;
   a->groups = t->groups;
   const unsigned simd = (unsigned)m->simd_width;
   size_t n = 0;
   for (size_t i = 0; i < t->count; i++)
      if (t->records[i].site < BANKS_MAX_SITES && !t->records[i].global) /* a global load is no bank's */
         n++;
   unsigned maxItem = 0, groups = t->groups > 0 ? (unsigned)t->groups : 0;
   for (size_t i = 0; i < t->count; i++) {
      if (t->records[i].group + 1 > groups)
         groups = t->records[i].group + 1;
      if (t->records[i].item > maxItem)
         maxItem = t->records[i].item;
   }
   a->groups = (int)groups;
   size_t items = a->wg_size > (size_t)maxItem + 1 ? a->wg_size : (size_t)maxItem + 1;
   a->warps = (int)((items + simd - 1) / simd);
   a->base = calloc(groups ? groups : 1, sizeof *a->base);
   TraceKey *keys = malloc((n ? n : 1) * sizeof *keys);
   a->records = malloc((n ? n : 1) * sizeof *a->records);
   /* At most one request per record. */
   a->requests = malloc((n ? n : 1) * sizeof *a->requests);
   Workspace ws = {0};
   if (!a->base || !keys || !a->records || !a->requests)
      goto oom;
   if (!groupBases(a, t, m, groups))
      goto oom;
   size_t k = 0;
   for (size_t i = 0; i < t->count; i++) {
      const TraceRecord *r = &t->records[i];
      if (r->site >= BANKS_MAX_SITES || r->global)
         continue;
      keys[k++] = TraceKey_of(r, i, simd);
   }
   qsort(keys, n, sizeof *keys, TraceKey_compare);
   for (size_t i = 0; i < n; i++) {
      a->records[i] = t->records[keys[i].index];
      a->records[i].address -= a->base[a->records[i].group];
   }
   a->nrecords = n;
   if (!serveRuns(a, keys, m, &ws))
      goto oom;
   if (a->nrequests) {
      BankRequest *shrunk = realloc(a->requests, a->nrequests * sizeof *a->requests);
      if (shrunk)
         a->requests = shrunk;
   }
   for (int s = 0; s < a->nsites; s++)
      finishStats(&a->sites[s]);
   finishStats(&a->total);
   free(keys);
   free(ws.words);
   return true;
oom:
   free(keys);
   free(ws.words);
   BankAnalysis_free(a);
   snprintf(err, errlen, "out of host memory analysing %zu trace records", t->count);
   return false;
}

RunStatus BankAnalysis_ofConfig(BankAnalysis *a, Session *s, const KernelInfo *k, const long long *values,
                                const Problem *p, int groups, int banks, int bank_width, int simd_width,
                                Coalescing *loads, Problem *traced, char *why, size_t whylen) {
   memset(a, 0, sizeof *a);
   if (loads)
      memset(loads, 0, sizeof *loads);
   Trace t;
   memset(&t, 0, sizeof t);
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      snprintf(why, whylen, "out of host memory");
      return RUN_OUT_OF_MEMORY;
   }
   RunStatus st = Session_trace(s, k, values, p, groups, loads != NULL, &t, r);
   if (traced)
      *traced = t.problem;
   char err[512] = "";
   BankModel m = BankModel_forDevice(Session_device(s));
   if (st != RUN_OK)
      snprintf(why, whylen, "the trace failed: %s: %s", RunStatus_name(st), r->message);
   else if (!BankModel_override(&m, banks, bank_width, simd_width, err, sizeof err))
      snprintf(why, whylen, "the bank model: %s", err), st = RUN_INVALID;
   else if (!BankAnalysis_run(a, &t, &m, err, sizeof err))
      snprintf(why, whylen, "the analysis failed: %s", err), st = RUN_OUT_OF_MEMORY; /* its one failure left */
   /* A kernel that loads A and B another way leaves loads empty (requests 0). */
   if (st == RUN_OK && loads && !Coalescing_of(&t, m.simd_width, loads, err, sizeof err))
      memset(loads, 0, sizeof *loads);
   Trace_free(&t);
   RunResult_free(r);
   free(r);
   return st;
}

void BankAnalysis_free(BankAnalysis *a) {
   free(a->records);
   free(a->requests);
   free(a->base);
   memset(a, 0, sizeof *a);
}

/* Orders requests like the sort: site, group, warp, then seq. */
static int compareRequest(const BankRequest *r, unsigned site, unsigned group, unsigned warp) {
   if (r->site != site)
      return r->site < site ? -1 : 1;
   if (r->group != group)
      return r->group < group ? -1 : 1;
   if (r->warp != warp)
      return r->warp < warp ? -1 : 1;
   return 0;
}

/* First request of (site, group, warp) by binary search; a->nrequests when there is none. */
static size_t lowerBound(const BankAnalysis *a, unsigned site, unsigned group, unsigned warp) {
   size_t lo = 0, hi = a->nrequests;
   while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (compareRequest(&a->requests[mid], site, group, warp) < 0)
         lo = mid + 1;
      else
         hi = mid;
   }
   return lo;
}

int BankAnalysis_executions(const BankAnalysis *a, unsigned site, unsigned group, unsigned warp) {
   size_t i = lowerBound(a, site, group, warp);
   int n = 0;
   while (i < a->nrequests && compareRequest(&a->requests[i], site, group, warp) == 0)
      i++, n++;
   return n;
}

const BankRequest *BankAnalysis_request(const BankAnalysis *a, unsigned site, unsigned group, unsigned warp, int n) {
   if (n < 0)
      return NULL;
   size_t i = lowerBound(a, site, group, warp) + (size_t)n;
   if (i >= a->nrequests || compareRequest(&a->requests[i], site, group, warp) != 0)
      return NULL;
   return &a->requests[i];
}

bool BankAnalysis_hasSite(const BankAnalysis *a, unsigned site) {
   return site < BANKS_MAX_SITES && a->sites[site].requests > 0;
}

bool BankAnalysis_grid(const BankAnalysis *a, const BankRequest *r, BankGrid *g) {
   if (!r || r->first + r->count > a->nrecords)
      return false;
   Workspace ws = {0};
   BankRequest copy = *r;
   bool ok = serveRequest(&a->model, &a->records[r->first], r->count, &ws, &copy, g);
   free(ws.words);
   return ok;
}

char BankGrid_glyph(int pass) {
   static const char glyphs[] = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
   if (pass < 0)
      return '.';
   return pass < (int)sizeof glyphs - 1 ? glyphs[pass] : '#';
}
