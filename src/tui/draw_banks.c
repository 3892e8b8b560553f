/* The bank pane: the bank model, then per access site the requests, wavefronts, ideal
 * passes and conflicts of the traced work-group; then one request (site, warp, execution,
 * stepped with [ ] { } ( )) drawn as lanes x banks, each cell the pass that serves it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/banks.h"
#include "tui/app.h"
#include "tui/text.h"

void Draw_clampBanks(Ui *ui) {
   const BankAnalysis *a = ui->have_banks ? ui->banks.analysis : NULL;
   if (!a || !a->nrequests) {
      ui->bank_site = ui->bank_warp = ui->bank_iter = 0;
      return;
   }
   if (ui->bank_site < 0 || ui->bank_site >= a->nsites || !a->sites[ui->bank_site].requests) {
      ui->bank_site = 0;
      while (ui->bank_site < a->nsites - 1 && !a->sites[ui->bank_site].requests)
         ui->bank_site++;
   }
   int warps = a->warps * a->groups;
   if (ui->bank_warp >= warps)
      ui->bank_warp = warps > 0 ? warps - 1 : 0;
   if (ui->bank_warp < 0)
      ui->bank_warp = 0;
   int wpg = a->warps > 0 ? a->warps : 1;
   int n = BankAnalysis_executions(a, (unsigned)ui->bank_site, (unsigned)(ui->bank_warp / wpg),
                                   (unsigned)(ui->bank_warp % wpg));
   if (ui->bank_iter >= n)
      ui->bank_iter = n > 0 ? n - 1 : 0;
   if (ui->bank_iter < 0)
      ui->bank_iter = 0;
}

static Style passStyle(int pass) {
   return pass < 0 ? ST_DIM : pass == 0 ? ST_GOOD : pass == 1 ? ST_WARN : ST_BAD;
}


/* A message in place of the analysis, wrapped. */
static void message(Ui *ui, Rect r, const char *m, Style st) {
   char buf[2048];
   const char *wl[16];
   int n = Text_wrap(m, r.w - 2, buf, sizeof buf, wl, r.h - 1 < 16 ? r.h - 1 : 16);
   for (int i = 0; i < n; i++)
      Draw_text(ui, r.y + 1 + i, r.x + 1, r.w - 2, wl[i], st, false);
}

/* The model, what was traced and the table of sites from row y; returns the next row. */
static int drawSites(Ui *ui, Rect r, const BankAnalysis *a, int y) {
   int x = r.x + 1, w = r.w - 2, bottom = r.y + r.h;
   const KernelInfo *k = Catalog_find(&ui->cat, ui->banks.config.kernel);
   char line[1024], model[96];
   BankModel_describe(&a->model, model, sizeof model);
   snprintf(line, sizeof line, "model %s: %s%s", a->model.name, model, a->model.known ? "" : " (assumed)");
   Draw_text(ui, y++, x, w, line, a->model.known ? ST_NORMAL : ST_WARN, false);
   const Problem *p = &ui->banks.config.problem;
   snprintf(line, sizeof line, "traced %d group%s of %zu items (%d warp%s) on %dx%dx%d; %zu accesses%s", a->groups,
            a->groups == 1 ? "" : "s", a->wg_size, a->warps, a->warps == 1 ? "" : "s", p->m, p->n, p->k, a->nrecords,
            a->dropped ? " (incomplete)" : "");
   if (y < bottom)
      Draw_text(ui, y++, x, w, line, ST_DIM, false);
   if (!a->nrequests) {
      if (y < bottom)
         Draw_text(ui, y++, x, w, "this kernel uses no local memory", ST_NORMAL, false);
      return y;
   }
   if (y < bottom) {
      snprintf(line, sizeof line, "  %-22s %8s %9s %7s %9s %7s %7s", "site", "requests", "wavefront", "ideal",
               "conflicts", "worst", "avg");
      Draw_text(ui, y++, x, w, line, ST_HEADER, true);
   }
   for (int i = 0; i < a->nsites && y < bottom; i++) {
      const BankSiteStats *st = &a->sites[i];
      if (!st->requests)
         continue;
      const char *nm = k && i < k->nsites && k->sites[i][0] ? k->sites[i] : "(unnamed)";
      char label[40];
      snprintf(label, sizeof label, "%d %s", i, nm);
      snprintf(line, sizeof line, "%s %-22.22s %8lld %9lld %7lld %9lld %6.2fx %6.2fx", i == ui->bank_site ? ">" : " ",
               label, st->requests, st->wavefronts, st->ideal, st->conflicts, st->worst_degree, st->avg_degree);
      Draw_text(ui, y++, x, w, line, i == ui->bank_site ? ST_SELECT : st->conflicts ? ST_WARN : ST_NORMAL, true);
   }
   return y;
}

/* The grid of request g from row y: "l31 " then one column per bank, clipped to the pane. */
static void drawGrid(Ui *ui, Rect r, const BankGrid *g, int y) {
   int x = r.x + 1, w = r.w - 2, bottom = r.y + r.h;
   int nb = g->banks < w - 4 ? g->banks : w - 4;
   if (nb < 1 || y >= bottom)
      return;
   char hdr[BANKS_MAX_BANKS + 8], line[1024];
   int o = snprintf(hdr, sizeof hdr, "bnk ");
   for (int b = 0; b < nb; b++)
      hdr[o++] = (char)('0' + b % 10);
   hdr[o] = '\0';
   Draw_text(ui, y++, x, w, hdr, ST_LABEL, false);
   int rows = bottom - y;
   int lanes = g->lanes;
   bool more = lanes > rows;
   if (more)
      lanes = rows > 1 ? rows - 1 : rows;
   for (int l = 0; l < lanes && y < bottom; l++, y++) {
      char lab[8];
      snprintf(lab, sizeof lab, "l%-2d ", l);
      Draw_text(ui, y, x, 4, lab, ST_LABEL, false);
      for (int b = 0; b < nb; b++) {
         int ps = g->pass[l][b];
         char c[2] = {BankGrid_glyph(ps), '\0'};
         Draw_text(ui, y, x + 4 + b, 1, c, passStyle(ps), false);
      }
      if (g->active[l] && w - 4 - nb > 8) {
         snprintf(line, sizeof line, " @%u", g->address[l]);
         Draw_text(ui, y, x + 4 + nb, w - 4 - nb, line, ST_DIM, false);
      }
   }
   if (more && y < bottom) {
      snprintf(line, sizeof line, "... %d more lanes (z zooms the pane)%s", g->lanes - lanes,
               nb < g->banks ? "; banks clipped" : "");
      Draw_text(ui, y, x, w, line, ST_DIM, false);
   }
}

/* The request chosen (site, warp, execution) from row y: a line about it, then its grid. */
static void drawRequest(Ui *ui, Rect r, const BankAnalysis *a, int y) {
   int x = r.x + 1, w = r.w - 2;
   if (y >= r.y + r.h)
      return;
   int wpg = a->warps > 0 ? a->warps : 1;
   unsigned group = (unsigned)(ui->bank_warp / wpg), warp = (unsigned)(ui->bank_warp % wpg);
   int execs = BankAnalysis_executions(a, (unsigned)ui->bank_site, group, warp);
   const BankRequest *req = BankAnalysis_request(a, (unsigned)ui->bank_site, group, warp, ui->bank_iter);
   char line[1024];
   if (!req) {
      snprintf(line, sizeof line, "site %d, warp %d: no access", ui->bank_site, ui->bank_warp);
      Draw_text(ui, y, x, w, line, ST_DIM, false);
      return;
   }
   BankGrid *g = malloc(sizeof *g);
   if (!g || !BankAnalysis_grid(a, req, g)) {
      free(g);
      Draw_text(ui, y, x, w, "cannot draw this request", ST_BAD, false);
      return;
   }
   snprintf(line, sizeof line, "site %d warp %d/%d iter %d/%d: %s %u B, %d wavefront%s, ideal %d, %d conflict%s",
            ui->bank_site, ui->bank_warp, a->warps * a->groups, ui->bank_iter + 1, execs, g->store ? "store" : "load",
            g->width, g->wavefronts, g->wavefronts == 1 ? "" : "s", g->ideal, g->wavefronts - g->ideal,
            g->wavefronts - g->ideal == 1 ? "" : "s");
   Draw_text(ui, y++, x, w, line, g->wavefronts > g->ideal ? ST_WARN : ST_GOOD, false);
   drawGrid(ui, r, g, y);
   free(g);
}

void Draw_banks(Ui *ui) {
   Rect r = ui->layout.pane[PANE_BANKS];
   const BankAnalysis *a = ui->have_banks ? ui->banks.analysis : NULL;
   bool current = ui->have_banks && ui->snap.have_config && ui->banks.config_serial == ui->snap.config_serial;
   Draw_paneTitle(ui, PANE_BANKS, "local-memory bank conflicts", "[ ] site  { } warp  ( ) iteration");
   if (!current) {
      const char *m = !ui->snap.have_config || !ui->snap.verified_run
                         ? "waiting for a verified run of this configuration, then its local memory is traced"
                         : "tracing the local-memory accesses of one work-group...";
      if (ui->snap.have_result && ui->snap.status != RUN_OK && !ui->snap.verified_run)
         m = "this configuration did not run: nothing to trace";
      message(ui, r, m, ST_DIM);
      return;
   }
   if (!a) {
      message(ui, r, ui->banks.message, ST_BAD);
      return;
   }
   int y = drawSites(ui, r, a, r.y + 1);
   if (a->nrequests)
      drawRequest(ui, r, a, y);
}
