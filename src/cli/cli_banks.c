/* gemmtop banks: runs a tracing build of one configuration on a small problem, analyses
 * the local-memory accesses under the device's bank model and prints, per access site,
 * requests, wavefronts, the ideal number and conflicts; with --site, one request as a
 * lanes x banks grid. */
#define _GNU_SOURCE /* strcasestr */

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/analyse/banks.h"
#include "core/analyse/banks_compiled.h"
#include "core/analyse/swizzle.h"
#include "cli/cli.h"
#include "cli/report.h"
#include "base/util.h"

/* The site that --site names: an index or a name from the kernel's sites: line (case
 * insensitive, or a unique part of one). -1 with a message when there is none. */
static int resolveSite(const KernelInfo *k, const char *want, char *err, size_t errlen) {
   char list[KERNEL_MAX_SITES * 56] = "";
   size_t n = 0;
   for (int i = 0; i < k->nsites; i++)
      if (k->sites[i][0] && n < sizeof list)
         n += (size_t)snprintf(list + n, sizeof list - n, "%s%d=%s", n ? ", " : "", i, k->sites[i]);
   const char *p = want;
   while (isdigit((unsigned char)*p))
      p++;
   if (*want && !*p) {
      int idx = atoi(want);
      if (idx < KERNEL_MAX_SITES && idx < k->nsites && k->sites[idx][0])
         return idx;
      snprintf(err, errlen, "--site %s: kernel %s has no site %s; its sites: %s", want, k->name, want,
               n ? list : "none (it declares no sites: line)");
      return -1;
   }
   int found = -1, partial = -1, npartial = 0;
   for (int i = 0; i < k->nsites; i++) {
      if (!k->sites[i][0])
         continue;
      if (!strcasecmp(k->sites[i], want))
         found = i;
      else if (strcasestr(k->sites[i], want))
         partial = i, npartial++;
   }
   if (found >= 0)
      return found;
   if (npartial == 1)
      return partial;
   snprintf(err, errlen, "--site '%s': %s site of kernel %s; its sites: %s", want,
            npartial > 1 ? "names more than one" : "names no", k->name, n ? list : "none");
   return -1;
}

static const char *siteName(const KernelInfo *k, int site) {
   return site < k->nsites && k->sites[site][0] ? k->sites[site] : "(unnamed)";
}

static const char *siteKind(const BankSiteStats *s) {
   return s->load_requests && s->store_requests ? "both" : s->store_requests ? "store" : "load";
}

/* ---- table ---- */

static void printSiteRow(const char *label, const BankSiteStats *s, bool kind) {
   char width[16] = "";
   if (kind)
      snprintf(width, sizeof width, "%u B", s->width);
   printf("%-26s %-5s %5s %9lld %11lld %7lld %10lld %7.2fx %7.2fx\n", label, kind ? siteKind(s) : "", width,
          s->requests, s->wavefronts, s->ideal, s->conflicts, s->worst_degree, s->avg_degree);
}

static void printGrid(const KernelInfo *k, const BankGrid *g, int flatWarp, int execution, int executions) {
   printf("\nsite %u (%s), warp %d (group %u, warp %u), execution %d of %d (seq %u)\n", g->site,
          siteName(k, (int)g->site), flatWarp, g->group, g->warp, execution, executions, g->seq);
   printf("%s of %u B per lane; %d phase%s of %d lanes%s; %d wavefront%s, ideal %d, %d conflict%s\n",
          g->store ? "store" : "load", g->width, g->phases, g->phases == 1 ? "" : "s", g->lanes_per_phase,
          g->paired ? " (lanes agree in pairs: double-width phases)" : "",
          g->wavefronts, g->wavefronts == 1 ? "" : "s", g->ideal, g->wavefronts - g->ideal,
          g->wavefronts - g->ideal == 1 ? "" : "s");
   printf("cell: the pass in which that bank serves the lane (1 = first); '.' not touched; lanes reading "
          "the same word share its pass (broadcast)\n\n");
   /* Bank numbers read downwards: tens above units. */
   char tens[BANKS_MAX_BANKS + 1];
   int ntens = 0;
   for (int b = 0; b < g->banks; b += 10)
      ntens = b + 1;
   for (int b = 0; b < ntens; b++)
      tens[b] = b % 10 == 0 ? (char)('0' + b / 10 % 10) : ' ';
   tens[ntens] = '\0';
   printf("bank    %s\n        ", tens);
   for (int b = 0; b < g->banks; b++)
      putchar((char)('0' + b % 10));
   printf("   byte offset\n");
   for (int l = 0; l < g->lanes; l++) {
      if (g->phases > 1 && l % g->lanes_per_phase == 0)
         printf("phase %d: %d wavefront%s\n", l / g->lanes_per_phase, g->phase_wavefronts[l / g->lanes_per_phase],
                g->phase_wavefronts[l / g->lanes_per_phase] == 1 ? "" : "s");
      printf("lane %2d ", l);
      for (int b = 0; b < g->banks; b++)
         putchar(BankGrid_glyph(g->pass[l][b]));
      if (g->active[l])
         printf("   %u\n", g->address[l]);
      else
         printf("   (no access)\n");
   }
}

/* --coalescing: the global loads of A and B, per operand and together. */
static void printCoalescing(const Coalescing *c) {
   printf("\nglobal loads of A and B (each work-item's first 64 per operand), as the L1 serves them: a wavefront per "
          "128-byte line that a phase of lanes touches\n");
   if (!c->total.requests) {
      printf("none traced: this configuration loads A and B another way (cp.async, TMA or its own code)\n");
      return;
   }
   printf("%-8s %5s %9s %11s %9s %11s %11s %8s\n", "operand", "width", "requests", "wavefronts", "sectors",
          "per request", "ideal", "ratio");
   for (int i = 0; i <= COALESCE_SITES; i++) {
      const CoalesceStats *x = i < COALESCE_SITES ? &c->sites[i] : &c->total;
      if (!x->requests)
         continue;
      char width[16] = "";
      if (i < COALESCE_SITES)
         snprintf(width, sizeof width, "%u B", x->width);
      printf("%-8s %5s %9lld %11lld %9lld %11.2f %11.1f %7.2fx\n", i < COALESCE_SITES ? Coalescing_siteName(i) : "total",
             width, x->requests, x->wavefronts, x->sectors, (double)x->wavefronts / x->requests,
             x->bytes / COALESCE_LINE, x->ratio);
   }
   printf("ideal = the bytes / 128 (every phase filling its lines); ratio = wavefronts / ideal. explain counts the "
          "loads against the local memory's ceiling at this ratio\n");
}

static void jsonCoalescing(const Coalescing *c) {
   printf(",\"coalescing\":{\"line_bytes\":%d,\"simd_width\":%d,\"sites\":[", COALESCE_LINE, c->simd_width);
   bool first = true;
   for (int i = 0; i <= COALESCE_SITES; i++) {
      const CoalesceStats *x = i < COALESCE_SITES ? &c->sites[i] : &c->total;
      if (i < COALESCE_SITES && !x->requests)
         continue;
      if (i == COALESCE_SITES)
         printf("],\"total\":");
      else
         printf("%s{\"operand\":\"%s\",\"width\":%u,", first ? "" : ",", Coalescing_siteName(i), x->width);
      if (i == COALESCE_SITES)
         printf("{");
      printf("\"requests\":%lld,\"accesses\":%lld,\"wavefronts\":%lld,\"sectors\":%lld,\"bytes\":%.0f,"
             "\"ratio\":%.6g}",
             x->requests, x->accesses, x->wavefronts, x->sectors, x->bytes, x->ratio);
      first = false;
   }
   printf("}");
}

static void printTable(const Session *s, const KernelInfo *k, const long long *values,
                       const Trace *t, const BankAnalysis *a, const BankGrid *g, int flatWarp, int execution,
                       int executions) {
   char params[512], model[96];
   KernelInfo_formatParams(k, values, params, sizeof params);
   BankModel_describe(&a->model, model, sizeof model);
   const DeviceInfo *dev = Session_device(s);
   printf("kernel     %s  %s\n", k->name, params);
   printf("device     %s (%s, %s)\n", dev->name, Session_backend(s)->name, DeviceType_name(dev->type));
   printf("model      %s: %s%s\n", a->model.name, model, a->model.known ? "" : " (assumed)");
   printf("           %s\n", a->model.source);
   printf("traced     %d work-group%s of %zu work-items (%d warp%s each) on a %dx%dx%d problem; %zu accesses\n",
          a->groups, a->groups == 1 ? "" : "s", a->wg_size, a->warps, a->warps == 1 ? "" : "s", t->problem.m,
          t->problem.n, t->problem.k, t->count);
   if (a->dropped)
      printf("warning    the trace is incomplete: %zu accesses over its capacity were dropped\n", a->dropped);
   if (!a->nrequests) {
      printf("\nno local-memory accesses were traced: this configuration makes none through LDS_LOAD/LDS_STORE\n");
      return;
   }
   printf("\n%-26s %-5s %5s %9s %11s %7s %10s %8s %8s\n", "site", "kind", "width", "requests", "wavefronts", "ideal",
          "conflicts", "worst", "average");
   for (int i = 0; i < a->nsites; i++) {
      if (!a->sites[i].requests)
         continue;
      char label[64];
      snprintf(label, sizeof label, "%-2d %s", i, siteName(k, i));
      printSiteRow(label, &a->sites[i], true);
   }
   printSiteRow("total", &a->total, false);
   if (!g)
      printf("\nconflicts = wavefronts - ideal; degree = wavefronts / ideal (1.00x: conflict-free). "
             "Draw one request: --site N --warp W\n");
   if (g)
      printGrid(k, g, flatWarp, execution, executions);
}

/* ---- JSON and CSV ---- */

static void jsonStats(const BankSiteStats *s) {
   printf("\"requests\":%lld,\"load_requests\":%lld,\"store_requests\":%lld,\"accesses\":%lld,\"wavefronts\":%lld,"
          "\"ideal_wavefronts\":%lld,\"conflicts\":%lld,\"conflicted_requests\":%lld,\"worst_degree\":%.6g,"
          "\"avg_degree\":%.6g",
          s->requests, s->load_requests, s->store_requests, s->accesses, s->wavefronts, s->ideal, s->conflicts,
          s->conflicted, s->worst_degree, s->avg_degree);
}

static void printCompiledJson(const KernelInfo *k, const BankViews *v);

static void jsonGrid(const BankGrid *g, int flatWarp, int execution, int executions) {
   printf(",\"grid\":{\"site\":%u,\"warp\":%d,\"group\":%u,\"group_warp\":%u,\"execution\":%d,\"executions\":%d,"
          "\"seq\":%u,\"kind\":\"%s\",\"width_bytes\":%u,\"lanes\":%d,\"banks\":%d,\"lanes_per_phase\":%d,"
          "\"phases\":%d,\"paired\":%s,\"wavefronts\":%d,\"ideal_wavefronts\":%d,\"conflicts\":%d,"
          "\"phase_wavefronts\":[",
          g->site, flatWarp, g->group, g->warp, execution, executions, g->seq, g->store ? "store" : "load",
          g->width, g->lanes, g->banks, g->lanes_per_phase, g->phases, g->paired ? "true" : "false",
          g->wavefronts, g->ideal,
          g->wavefronts - g->ideal);
   for (int p = 0; p < g->phases; p++)
      printf("%s%d", p ? "," : "", g->phase_wavefronts[p]);
   printf("],\"addresses\":[");
   for (int l = 0; l < g->lanes; l++) {
      if (g->active[l])
         printf("%s%u", l ? "," : "", g->address[l]);
      else
         printf("%snull", l ? "," : "");
   }
   printf("],\"rows\":[");
   for (int l = 0; l < g->lanes; l++) {
      char row[BANKS_MAX_BANKS + 1];
      for (int b = 0; b < g->banks; b++)
         row[b] = BankGrid_glyph(g->pass[l][b]);
      row[g->banks] = '\0';
      printf("%s\"%s\"", l ? "," : "", row);
   }
   printf("]}");
}

/* {"schema":..,"kernel":..,"params":{..} (the object left open). */
static void jsonHead(const KernelInfo *k, const long long *values) {
   printf("{\"schema\":%d,\"kernel\":", REPORT_SCHEMA);
   Report_jsonString(stdout, k->name);
   printf(",\"params\":{");
   for (int i = 0; i < k->nparams; i++) {
      printf("%s", i ? "," : "");
      Report_jsonString(stdout, k->params[i].name);
      printf(":%lld", values[i]);
   }
   printf("}");
}

static void jsonModel(const BankModel *m) {
   printf(",\"model\":{\"name\":");
   Report_jsonString(stdout, m->name);
   printf(",\"banks\":%d,\"bank_width_bytes\":%d,\"simd_width\":%d,\"pair_merge\":%s,\"known\":%s,\"source\":",
          m->banks, m->bank_width, m->simd_width, m->pair_merge ? "true" : "false", m->known ? "true" : "false");
   Report_jsonString(stdout, m->source);
   printf("}");
}

/* "sites":[...],"total":{...} of a: the sites that made a request. */
static void jsonSites(const KernelInfo *k, const BankAnalysis *a) {
   printf("\"sites\":[");
   bool first = true;
   for (int i = 0; i < a->nsites; i++) {
      const BankSiteStats *st = &a->sites[i];
      if (!st->requests)
         continue;
      printf("%s{\"site\":%d,\"name\":", first ? "" : ",", i);
      Report_jsonString(stdout, siteName(k, i));
      printf(",\"kind\":\"%s\",\"width_bytes\":%u,", siteKind(st), st->width);
      jsonStats(st);
      printf("}");
      first = false;
   }
   printf("],\"total\":{");
   jsonStats(&a->total);
   printf("}");
}

static void printJson(const Session *s, const KernelInfo *k, const long long *values, const Trace *t,
                      const BankAnalysis *a, const BankViews *v, const BankGrid *g, int flatWarp, int execution,
                      int executions, const Coalescing *c) {
   const DeviceInfo *dev = Session_device(s);
   jsonHead(k, values);
   printf(",\"backend\":");
   Report_jsonString(stdout, Session_backend(s)->name);
   printf(",\"device\":");
   Report_jsonString(stdout, dev->name);
   jsonModel(&a->model);
   printf(",\"problem\":{\"m\":%d,\"n\":%d,\"k\":%d,\"precision\":\"%s\"}", t->problem.m, t->problem.n, t->problem.k,
          Precision_name(t->problem.precision));
   /* The sizes the traced launch ran on (rounded up where the kernel pads) and its work-groups:
      what the traced groups are a share of, so that a reader can scale the trace's counts per
      multiply-add to another problem (tools/gpu/gpu_limits_ncu.py does). */
   Geometry geo;
   if (Config_check(k, values, &t->problem, &dev->limits, &geo, NULL, 0)) {
      long long groups = 1;
      for (int d = 0; d < t->dims && d < 3; d++)
         groups *= t->local[d] ? (long long)(geo.global[d] / t->local[d]) : 1;
      printf(",\"launch\":{\"m\":%d,\"n\":%d,\"k\":%d,\"work_groups\":%lld}", geo.m, geo.n, geo.k, groups);
   }
   printf(",\"groups\":%d,\"work_group_items\":%zu,\"warps_per_group\":%d,\"records\":%zu,\"dropped\":%zu,"
          "\"complete\":%s,",
          a->groups, a->wg_size, a->warps, t->count, a->dropped, a->dropped ? "false" : "true");
   jsonSites(k, a);
   if (g)
      jsonGrid(g, flatWarp, execution, executions);
   if (v)
      printCompiledJson(k, v);
   if (c)
      jsonCoalescing(c);
   printf("}\n");
}

static void printCsv(const KernelInfo *k, const BankAnalysis *a, const BankViews *v) {
   printf("site,name,kind,width_bytes,requests,wavefronts,ideal_wavefronts,conflicts,worst_degree,avg_degree%s\n",
          v ? ",compiled_width_bytes,compiled_requests,compiled_wavefronts,compiled_ideal_wavefronts,compiled_conflicts"
            : "");
   for (int i = 0; i <= a->nsites; i++) {
      const BankSiteStats *st = i < a->nsites ? &a->sites[i] : &a->total;
      if (i < a->nsites && !st->requests)
         continue;
      const char *name = i < a->nsites ? siteName(k, i) : "";
      if (i < a->nsites)
         printf("%d,", i);
      else
         printf("total,");
      if (strpbrk(name, ",\""))
         printf("\"%s\",", name);
      else
         printf("%s,", name);
      printf("%s,%u,%lld,%lld,%lld,%lld,%.6g,%.6g", i < a->nsites ? siteKind(st) : "", i < a->nsites ? st->width : 0,
             st->requests, st->wavefronts, st->ideal, st->conflicts, st->worst_degree, st->avg_degree);
      if (v) {
         const BankSiteStats *c = i < a->nsites ? &v->compiled.sites[i] : &v->compiled.total;
         printf(",%u,%lld,%lld,%lld,%lld", i < a->nsites ? c->width : 0, c->requests, c->wavefronts, c->ideal,
                c->conflicts);
      }
      putchar('\n');
   }
}

/* ---- as compiled (--as-compiled) ---- */

static void printCompiledTable(const KernelInfo *k, const BankViews *v) {
   printf("\nas written and as compiled (%s)\n", v->widths.source);
   printf("%-26s %-5s | %5s %9s %11s %10s | %5s %9s %11s %10s\n", "site", "kind", "width", "requests", "wavefronts",
          "conflicts", "width", "requests", "wavefronts", "conflicts");
   for (int i = 0; i <= v->source.nsites; i++) {
      bool total = i == v->source.nsites;
      const BankSiteStats *a = total ? &v->source.total : &v->source.sites[i];
      const BankSiteStats *c = total ? &v->compiled.total : &v->compiled.sites[i];
      if (!total && !a->requests)
         continue;
      char label[64], wa[16] = "", wc[16] = "";
      snprintf(label, sizeof label, total ? "total" : "%-2d %s", i, siteName(k, i));
      if (!total) {
         snprintf(wa, sizeof wa, "%u B", a->width);
         snprintf(wc, sizeof wc, "%u B", c->width);
      }
      printf("%-26s %-5s | %5s %9lld %11lld %10lld | %5s %9lld %11lld %10lld\n", label, total ? "" : siteKind(a), wa,
             a->requests, a->wavefronts, a->conflicts, wc, c->requests, c->wavefronts, c->conflicts);
   }
   printf("as compiled: a work-item's neighbouring accesses of a site merged into one (up to 16 B), as the "
          "compiler does for an unrolled loop; docs/banks.md\n");
}

static void printCompiledJson(const KernelInfo *k, const BankViews *v) {
   printf(",\"as_compiled\":{\"widths_from_code\":%s,\"load_max_bytes\":%u,\"store_max_bytes\":%u,\"widths\":",
          v->widths.from_code ? "true" : "false", v->widths.load_max, v->widths.store_max);
   Report_jsonString(stdout, v->widths.source);
   printf(",\"sites\":[");
   bool first = true;
   for (int i = 0; i < v->compiled.nsites; i++) {
      const BankSiteStats *st = &v->compiled.sites[i];
      if (!st->requests)
         continue;
      printf("%s{\"site\":%d,\"name\":", first ? "" : ",", i);
      Report_jsonString(stdout, siteName(k, i));
      printf(",\"kind\":\"%s\",\"merged\":%u,\"width_bytes\":%u,", siteKind(st), v->merges[i].factor, st->width);
      jsonStats(st);
      printf("}");
      first = false;
   }
   printf("],\"total\":{");
   jsonStats(&v->compiled.total);
   printf("}}");
}

/* A kernel that reads its tiles through tensor maps runs on Hopper only and cannot be
 * traced: the two accesses of its A tile are modelled from its layout and swizzle instead
 * (Swizzle_modelTrace) and analysed under NVIDIA's bank model. Both are drawn. */
static void printModelledJson(const KernelInfo *k, const long long *values, const BankAnalysis *a, int rows,
                              int width, int swizzle, const BankGrid *g) {
   jsonHead(k, values);
   printf(",\"modelled\":true,\"tile\":{\"operand\":\"A\",\"rows\":%d,\"box_bytes\":%d,\"swizzle_bytes\":%d}", rows,
          width, swizzle);
   jsonModel(&a->model);
   printf(",");
   jsonSites(k, a);
   if (g)
      jsonGrid(g, 0, 0, 1);
   printf("}\n");
}

static int banksModelled(const CommandArgs *o, const KernelInfo *k, const long long *values, const Problem *p, int site) {
   if (o->banks->as_compiled) {
      fprintf(stderr, "gemmtop: --as-compiled: %s's shared-memory accesses are modelled, not traced: the TMA and wgmma "
                      "reach shared memory without load or store instructions to read widths from; leave "
                      "--as-compiled out\n",
              k->name);
      return 2;
   }
   BankModel named;
   if (o->banks->model && BankModel_named(o->banks->model, 0, &named) && strcmp(named.name, BankModel_nvidia().name)) {
      fprintf(stderr, "gemmtop: --bank-model %s: %s's tiles are laid out by NVIDIA's TMA swizzle, modelled on NVIDIA's "
                      "banks only; use --bank-model nvidia or leave it out\n",
              o->banks->model, k->name);
      return 2;
   }
   if ((o->banks->has_warp && o->banks->warp != 0) || (o->banks->has_iteration && o->banks->iteration != 0)) {
      fprintf(stderr, "gemmtop: --warp and --iteration: %s's model has one request per site (warp 0, iteration 0)\n",
              k->name);
      return 2;
   }
   DeviceLimits lim = {.max_wg = 1024, .max_wi = {1024, 1024, 64}, .local_mem = 49152, .local_mem_optin = 232448,
                       .fp64 = true, .warp = 32, .dynamic_smem = true};
   Geometry g;
   char err[1536];
   if (!Config_check(k, values, p, &lim, &g, err, sizeof err)) {
      fprintf(stderr, "gemmtop: refused: %s\n", err);
      return 2;
   }
   int ia = g.tma[0].operand == 'A' ? 0 : 1;
   const int sw = g.tma[ia].swizzle, rows = g.tma[ia].box[1], width = sw ? sw : 16;
   Trace t;
   BankAnalysis a;
   memset(&a, 0, sizeof a);
   BankModel model = BankModel_nvidia();
   BankModel_override(&model, o->banks->count, o->banks->bank_width, o->banks->simd_width, err, sizeof err);
   if (!Swizzle_modelTrace(sw, rows, width < 32 ? 32 : width, &t, err, sizeof err) ||
       !BankAnalysis_run(&a, &t, &model, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      Trace_free(&t);
      return 1;
   }
   BankGrid *grid = NULL;
   if (o->output->format == FORMAT_TABLE || (o->output->format == FORMAT_JSON && site >= 0)) { /* what draws a grid */
      grid = malloc(sizeof *grid);
      if (!grid) {
         fprintf(stderr, "gemmtop: out of host memory\n");
         BankAnalysis_free(&a);
         Trace_free(&t);
         return 1;
      }
   }
   if (o->output->format == FORMAT_CSV) {
      printCsv(k, &a, NULL);
   } else if (o->output->format == FORMAT_JSON) {
      bool drawn = site >= 0 && BankAnalysis_grid(&a, BankAnalysis_request(&a, (unsigned)site, 0, 0, 0), grid);
      printModelledJson(k, values, &a, rows, width, sw, drawn ? grid : NULL);
   } else {
      char params[512], desc[96];
      KernelInfo_formatParams(k, values, params, sizeof params);
      BankModel_describe(&a.model, desc, sizeof desc);
      printf("kernel     %s  %s\n", k->name, params);
      printf("model      %s: %s%s\n", a.model.name, desc, a.model.known ? "" : " (assumed)");
      printf("modelled   not traced (TMA and wgmma run on Hopper only): the A tile, %d rows in boxes of %d bytes, "
             "swizzle %s\n", rows, width, sw ? (sw == 32 ? "32-byte" : sw == 64 ? "64-byte" : "128-byte") : "none "
             "(columns of 8 x 16-byte core matrices)");
      printf("\n%-26s %-5s %5s %9s %11s %7s %10s %8s %8s\n", "site", "kind", "width", "requests", "wavefronts",
             "ideal", "conflicts", "worst", "average");
      for (int i = 0; i < a.nsites; i++) {
         char label[64];
         snprintf(label, sizeof label, "%-2d %s", i, siteName(k, i));
         printSiteRow(label, &a.sites[i], true);
      }
      for (unsigned i = 0; i < (unsigned)a.nsites; i++)
         if ((site < 0 || (unsigned)site == i) && BankAnalysis_grid(&a, BankAnalysis_request(&a, i, 0, 0, 0), grid))
            printGrid(k, grid, 0, 0, 1);
   }
   free(grid);
   BankAnalysis_free(&a);
   Trace_free(&t);
   return 0;
}

/* The request that --site, --warp and --iteration name, drawn into *grid (malloc'ed).
 * Returns 0, or the exit code with the message printed. */
static int pickRequest(const CommandArgs *o, const KernelInfo *k, int site, const BankAnalysis *a, BankGrid **grid,
                       int *executions) {
   int warps = a->warps * a->groups, flatWarp = o->banks->warp, execution = o->banks->iteration;
   if (!BankAnalysis_hasSite(a, (unsigned)site)) {
      fprintf(stderr, "gemmtop: --site %s: site %d (%s) made no local-memory access in the traced work-group%s\n",
              o->banks->site, site, siteName(k, site), a->groups == 1 ? "" : "s");
      return 2;
   }
   if (flatWarp >= warps) {
      fprintf(stderr, "gemmtop: --warp %d: the trace has %d warp%s (0 to %d: %d work-group%s of %zu work-items, "
                      "SIMD width %d)\n",
              flatWarp, warps, warps == 1 ? "" : "s", warps - 1, a->groups, a->groups == 1 ? "" : "s", a->wg_size,
              a->model.simd_width);
      return 2;
   }
   unsigned group = (unsigned)(flatWarp / a->warps), warp = (unsigned)(flatWarp % a->warps);
   *executions = BankAnalysis_executions(a, (unsigned)site, group, warp);
   if (*executions == 0) {
      fprintf(stderr, "gemmtop: --warp %d: site %d (%s) was not executed by that warp\n", flatWarp, site,
              siteName(k, site));
      return 2;
   }
   if (execution >= *executions) {
      fprintf(stderr, "gemmtop: --iteration %d: warp %d executed site %d (%s) %d time%s (0 to %d)\n", execution,
              flatWarp, site, siteName(k, site), *executions, *executions == 1 ? "" : "s", *executions - 1);
      return 2;
   }
   *grid = malloc(sizeof **grid);
   if (!*grid || !BankAnalysis_grid(a, BankAnalysis_request(a, (unsigned)site, group, warp, execution), *grid)) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      return 1;
   }
   return 0;
}

/* --as-compiled: both views of the trace, the widths from the plain program's code where
 * the device gives a GPU's code (a CPU's says nothing of a GPU's local accesses). NULL
 * with the message printed on failure. */
static BankViews *analyseAsCompiled(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                                    const Trace *t, const BankModel *model, RunResult *r) {
   char *code = NULL, kind[32] = "", why[160], err[512];
   const DeviceInfo *dev = Session_device(s);
   if (dev->type == DEVICE_CPU)
      snprintf(why, sizeof why, "a CPU's compiled code says nothing of a GPU's local accesses");
   else if (Session_compile(s, k, values, p, r, &code, kind, sizeof kind) != RUN_OK)
      snprintf(why, sizeof why, "the plain program did not compile here");
   else if (!code)
      snprintf(why, sizeof why, "%s gives no compiled code", Session_backend(s)->title);
   else
      snprintf(why, sizeof why, "its %s names no local-memory access", kind[0] ? kind : "code");
   BankViews *v = malloc(sizeof *v);
   bool ok = v && BankViews_run(v, t, model, code, kind, why, err, sizeof err);
   free(code);
   if (!ok) {
      fprintf(stderr, "gemmtop: %s\n", v ? err : "out of host memory");
      free(v);
      return NULL;
   }
   return v;
}

/* Traces the configuration on the session's device and reports it. Returns the exit code. */
static int traceAndReport(const CommandArgs *o, Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                          int site) {
   char err[1536];
   Trace t;
   BankAnalysis a;
   memset(&a, 0, sizeof a);
   memset(&t, 0, sizeof t);
   BankGrid *grid = NULL;
   BankViews *views = NULL;
   int executions = 0, rc = 1;
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      fprintf(stderr, "gemmtop: out of host memory\n");
      return 1;
   }
   RunStatus st = Session_trace(s, k, values, p, o->banks->groups ? o->banks->groups : 1, o->banks->coalescing, &t, r);
   if (st != RUN_OK) {
      if (st == RUN_COMPILE_ERROR)
         fprintf(stderr, "gemmtop: %s\n%s\n", r->message, r->build_log ? r->build_log : "(no build log)");
      else
         fprintf(stderr, "gemmtop: %s%s\n", st == RUN_INVALID ? "refused: " : "", r->message);
      rc = RunStatus_exitCode(st);
      goto done;
   }
   BankModel model = BankModel_forDevice(Session_device(s));
   if (o->banks->model)
      BankModel_named(o->banks->model, o->banks->simd_width, &model); /* the options table checked the name */
   BankModel_override(&model, o->banks->count, o->banks->bank_width, o->banks->simd_width, err, sizeof err);
   if (o->banks->as_compiled && !(views = analyseAsCompiled(s, k, values, p, &t, &model, r))) {
      rc = 1;
      goto done;
   }
   if (!BankAnalysis_run(&a, &t, &model, err, sizeof err)) {
      fprintf(stderr, "gemmtop: %s\n", err);
      goto done;
   }
   if (a.dropped)
      fprintf(stderr, "gemmtop: warning: the trace is incomplete: %zu accesses over its capacity were dropped; the "
                      "figures cover the first %zu\n",
              a.dropped, t.count);
   if (site >= 0 && (rc = pickRequest(o, k, site, &a, &grid, &executions)) != 0)
      goto done;
   Coalescing c;
   if (o->banks->coalescing && !Coalescing_of(&t, model.simd_width, &c, err, sizeof err))
      memset(&c, 0, sizeof c); /* none traced: said in the report */
   if (o->output->format == FORMAT_JSON)
      printJson(s, k, values, &t, &a, views, grid, o->banks->warp, o->banks->iteration, executions,
                o->banks->coalescing ? &c : NULL);
   else if (o->output->format == FORMAT_CSV)
      printCsv(k, &a, views);
   else
      printTable(s, k, values, &t, &a, grid, o->banks->warp, o->banks->iteration, executions);
   if (views && o->output->format == FORMAT_TABLE && a.nrequests)
      printCompiledTable(k, views);
   if (o->banks->coalescing && o->output->format == FORMAT_TABLE)
      printCoalescing(&c);
   rc = 0;
done:
   free(grid);
   if (views)
      BankViews_free(views);
   free(views);
   BankAnalysis_free(&a);
   Trace_free(&t);
   RunResult_free(r);
   free(r);
   return rc;
}

static int execBanks(const CommandArgs *o) {
   /* The options table holds --groups, --banks, --bank-width and --simd-width to their ranges. */
   if ((o->banks->has_warp || o->banks->has_iteration) && !o->banks->site) {
      fprintf(stderr, "gemmtop: --warp and --iteration pick a request of the site that --site names; give --site too\n");
      return 2;
   }
   Catalog cat;
   if (!Cli_loadCatalog(&cat))
      return 1;
   const KernelInfo *k;
   long long values[KERNEL_MAX_PARAMS];
   Problem p;
   char err[1536];
   int rc = Cli_resolveConfig(o, &cat, &k, values, &p);
   int site = -1;
   if (rc == 0 && o->banks->site && (site = resolveSite(k, o->banks->site, err, sizeof err)) < 0) {
      fprintf(stderr, "gemmtop: %s\n", err);
      rc = 2;
   }
   if (rc == 0 && o->banks->coalescing && o->output->format == FORMAT_CSV) {
      fprintf(stderr, "gemmtop: --coalescing has no CSV form: give --format table or json\n");
      rc = 2;
   }
   if (rc == 0 && o->banks->coalescing && k->ntma) {
      fprintf(stderr, "gemmtop: --coalescing: %s loads A and B through TMA, which does not pass the L1: there are no "
                      "global loads to trace\n", k->name);
      rc = 2;
   }
   if (rc == 0 && k->ntma) {
      rc = banksModelled(o, k, values, &p, site);
      Catalog_free(&cat);
      return rc;
   }
   Session *s = rc ? NULL : Cli_openSession(o, &cat, &rc);
   if (s)
      rc = traceAndReport(o, s, k, values, &p, site);
   Session_close(s);
   Catalog_free(&cat);
   return rc;
}

const CommandEntry Cli_banksCommand = {
    .name = "banks",
    .groups = GROUPS_CONFIGURED | IN_GROUP(BANKS),
    .words = "",
    .summary = "local-memory bank conflicts per access site",
    .max_positional = 0,
    .exec = execBanks,
};
