/* The bank pane: the bank model, then per access site the requests, wavefronts, ideal
 * passes and conflicts of the traced work-group; then one request (site, warp, execution,
 * stepped with [ ] { } ( )) drawn as lanes x banks, each cell the pass that serves it,
 * with bank numbers in two rows (tens, units), a separator before each phase of a wide
 * access and a legend. Where the notes and the grid go, and which lanes are drawn, is
 * banklayout.c's pure function; the grid scrolls with the pane's Up Down PgUp PgDn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/analyse/banks.h"
#include "tui/app.h"
#include "tui/banklayout.h"
#include "tui/lesson_ui.h"
#include "tui/text.h"

/* Keeps site, warp and iter valid for the analysis held (site: one that made accesses). */
static void clampBanks(Ui *ui) {
   const BankAnalysis *a = ui->banks_pane.have ? ui->banks_pane.analysis.analysis : NULL;
   if (!a || !a->nrequests) {
      ui->banks_pane.site = ui->banks_pane.warp = ui->banks_pane.iter = 0;
      return;
   }
   if (ui->banks_pane.site < 0 || ui->banks_pane.site >= a->nsites || !a->sites[ui->banks_pane.site].requests) {
      ui->banks_pane.site = 0;
      while (ui->banks_pane.site < a->nsites - 1 && !a->sites[ui->banks_pane.site].requests)
         ui->banks_pane.site++;
   }
   int warps = a->warps * a->groups;
   if (ui->banks_pane.warp >= warps)
      ui->banks_pane.warp = warps > 0 ? warps - 1 : 0;
   if (ui->banks_pane.warp < 0)
      ui->banks_pane.warp = 0;
   int wpg = a->warps > 0 ? a->warps : 1;
   int n = BankAnalysis_executions(a, (unsigned)ui->banks_pane.site, (unsigned)(ui->banks_pane.warp / wpg),
                                   (unsigned)(ui->banks_pane.warp % wpg));
   if (ui->banks_pane.iter >= n)
      ui->banks_pane.iter = n > 0 ? n - 1 : 0;
   if (ui->banks_pane.iter < 0)
      ui->banks_pane.iter = 0;
}

static Style passStyle(int pass) {
   return pass < 0 ? ST_DIM : pass == 0 ? ST_GOOD : pass == 1 ? ST_WARN : ST_BAD;
}

/* A message in place of the analysis, wrapped; returns its rows. */
static int message(Ui *ui, Rect r, const char *m, Style st) {
   char buf[2048];
   const char *wl[16];
   int n = Text_wrap(m, r.w - 2, buf, sizeof buf, wl, r.h - 1 < 16 ? r.h - 1 : 16);
   for (int i = 0; i < n; i++)
      Paint_text(&ui->paint, r.y + 1 + i, r.x + 1, r.w - 2, wl[i], st, false);
   return n;
}

/* ---- the notes: model, what was traced, the site table, the request, the legend ---- */

#define MAX_NOTES 160
typedef struct Note_ {
   char text[320];
   Style st;
   bool pad;
} Note;

typedef struct Notes_ {
   Note line[MAX_NOTES];
   int n;
   int table;                  /* where the site table starts (after the model and the trace) */
   int request;                /* where it ends: the request drawn, the legend */
   int before_legend;          /* lines before the legend (its last lines); 0 without one */
} Notes;

static void note(Notes *ns, Style st, bool pad, const char *text) {
   if (ns->n >= MAX_NOTES)
      return; /* more than any pane has rows */
   Note *n = &ns->line[ns->n++];
   *n = (Note){.st = st, .pad = pad};
   snprintf(n->text, sizeof n->text, "%s", text);
}

/* text word-wrapped to width, each line a note. */
static void wrapped(Notes *ns, Style st, int width, const char *text) {
   char buf[2048];
   const char *wl[12];
   int n = Text_wrap(text, width > 8 ? width : 8, buf, sizeof buf, wl, 12);
   for (int i = 0; i < n; i++)
      note(ns, st, false, wl[i]);
}

/* The numeric columns of the site table after the name. */
#define SITE_NUMBERS_W 53

/* One site's row: its full name wrapped in the name column, never cut. */
static void siteRow(Notes *ns, const Ui *ui, const BankAnalysis *a, int i, int namew) {
   const KernelInfo *k = Catalog_find(&ui->cat, ui->banks_pane.analysis.config.kernel);
   const BankSiteStats *st = &a->sites[i];
   const char *nm = k && i < k->nsites && k->sites[i][0] ? k->sites[i] : "(unnamed)";
   char label[160], buf[512], line[320];
   snprintf(label, sizeof label, "%d %s", i, nm);
   const char *wl[6];
   int n = Text_wrap(label, namew, buf, sizeof buf, wl, 6);
   bool sel = i == ui->banks_pane.site;
   Style style = sel ? ST_SELECT : st->conflicts ? ST_WARN : ST_NORMAL;
   snprintf(line, sizeof line, "%s %-*s %8lld %9lld %7lld %9lld %6.2fx %6.2fx", sel ? ">" : " ", namew,
            n > 0 ? wl[0] : "", st->requests, st->wavefronts, st->ideal, st->conflicts, st->worst_degree,
            st->avg_degree);
   note(ns, style, true, line);
   for (int j = 1; j < n; j++) {
      snprintf(line, sizeof line, "  %s", wl[j]);
      note(ns, style, true, line);
   }
}

static void siteTable(Notes *ns, const Ui *ui, const BankAnalysis *a, int width) {
   int namew = width - 2 - SITE_NUMBERS_W;
   if (namew < 12)
      namew = 12;
   /* No wider than the longest name needs. */
   const KernelInfo *k = Catalog_find(&ui->cat, ui->banks_pane.analysis.config.kernel);
   int longest = 4;
   for (int i = 0; i < a->nsites; i++) {
      const char *nm = k && i < k->nsites && k->sites[i][0] ? k->sites[i] : "(unnamed)";
      int lw = Text_width(nm) + (i >= 10 ? 3 : 2);
      if (a->sites[i].requests && lw > longest)
         longest = lw;
   }
   if (namew > longest)
      namew = longest;
   char line[320];
   snprintf(line, sizeof line, "  %-*s %8s %9s %7s %9s %7s %7s", namew, "site", "requests", "wavefront", "ideal",
            "conflicts", "worst", "avg");
   note(ns, ST_HEADER, true, line);
   for (int i = 0; i < a->nsites; i++)
      if (a->sites[i].requests)
         siteRow(ns, ui, a, i, namew);
}

/* The request drawn: which it is and what it costs. */
static void requestNotes(Notes *ns, const Ui *ui, const BankAnalysis *a, const BankGrid *g, int width) {
   char line[512];
   int execs = BankAnalysis_executions(a, (unsigned)ui->banks_pane.site, g->group, g->warp);
   int conflicts = g->wavefronts - g->ideal;
   snprintf(line, sizeof line, "site %d warp %d/%d iter %d/%d: %s %u B, %d wavefront%s, ideal %d, %d conflict%s",
            ui->banks_pane.site, ui->banks_pane.warp, a->warps * a->groups, ui->banks_pane.iter + 1, execs, g->store ? "store" : "load",
            g->width, g->wavefronts, g->wavefronts == 1 ? "" : "s", g->ideal, conflicts, conflicts == 1 ? "" : "s");
   wrapped(ns, g->wavefronts > g->ideal ? ST_WARN : ST_GOOD, width, line);
   if (g->phases > 1) {
      snprintf(line, sizeof line, "%d phases of %d lanes, served one after the other%s", g->phases, g->lanes_per_phase,
               g->paired ? " (the lanes agree in pairs: double-width phases)" : "");
      wrapped(ns, ST_DIM, width, line);
   }
}

static void legend(Notes *ns, const Ui *ui, const BankGrid *g, int width) {
   char line[512];
   snprintf(line, sizeof line,
            "cell: the pass in which that bank serves the lane: 1 first, 2-9 a-z later (each a conflict); "
            ". not touched; lanes reading one word share its pass (broadcast)%s",
            g && g->phases > 1 ? "; only lanes of the same phase can conflict" : "");
   wrapped(ns, ST_DIM, width, line);
}

/* Every note for a pane width: what is measured and what is drawn come from here. */
static void buildNotes(Notes *ns, const Ui *ui, const BankAnalysis *a, const BankGrid *g, int width) {
   ns->n = ns->before_legend = ns->table = ns->request = 0;
   char line[512], model[96];
   BankModel_describe(&a->model, model, sizeof model);
   snprintf(line, sizeof line, "model %s: %s%s", a->model.name, model, a->model.known ? "" : " (assumed)");
   wrapped(ns, a->model.known ? ST_NORMAL : ST_WARN, width, line);
   const Problem *p = &ui->banks_pane.analysis.traced;
   snprintf(line, sizeof line, "traced %d group%s of %zu items (%d warp%s) on %dx%dx%d; %zu accesses%s", a->groups,
            a->groups == 1 ? "" : "s", a->wg_size, a->warps, a->warps == 1 ? "" : "s", p->m, p->n, p->k, a->nrecords,
            a->dropped ? " (incomplete)" : "");
   wrapped(ns, ST_DIM, width, line);
   if (!a->nrequests) {
      note(ns, ST_NORMAL, false, "this kernel uses no local memory");
      return;
   }
   ns->table = ns->n;
   siteTable(ns, ui, a, width);
   ns->request = ns->n;
   if (g) {
      requestNotes(ns, ui, a, g, width);
      ns->before_legend = ns->n;
      legend(ns, ui, g, width);
   } else {
      snprintf(line, sizeof line, "site %d, warp %d: no access", ui->banks_pane.site, ui->banks_pane.warp);
      note(ns, ST_DIM, false, line);
   }
}

/* The notes from line first, in h rows. */
static void drawNotes(Ui *ui, const Notes *ns, int first, int x, int y, int w, int h) {
   for (int i = 0; first + i < ns->n && i < h; i++)
      Paint_text(&ui->paint, y + i, x, w, ns->line[first + i].text, ns->line[first + i].st, ns->line[first + i].pad);
}

/* ---- the grid ---- */

static void gridHead(Ui *ui, const BankGrid *g, const BankPaneLayout *l, int x, int y) {
   char tens[BANKS_MAX_BANKS + 16], units[BANKS_MAX_BANKS + 16];
   int o = snprintf(tens, sizeof tens, "bank "), u = snprintf(units, sizeof units, "     ");
   for (int b = 0; b < l->banks_shown; b++) {
      tens[o++] = b % 10 == 0 ? (char)('0' + b / 10 % 10) : ' ';
      units[u++] = (char)('0' + b % 10);
   }
   tens[o] = units[u] = '\0';
   if (l->address)
      snprintf(units + u, sizeof units - (size_t)u, " offset");
   Paint_text(&ui->paint, y, x, l->grid.w, tens, ST_LABEL, false);
   Paint_text(&ui->paint, y + 1, x, l->grid.w, units, ST_LABEL, false);
}

static void laneRow(Ui *ui, const BankGrid *g, const BankPaneLayout *l, int lane, int x, int y) {
   char lab[8], c[2] = {0, 0}, addr[24];
   snprintf(lab, sizeof lab, "l%-3d ", lane);
   Paint_text(&ui->paint, y, x, BANKLAYOUT_LABEL_W, lab, ST_LABEL, false);
   for (int b = 0; b < l->banks_shown; b++) {
      int ps = g->pass[lane][b];
      c[0] = BankGrid_glyph(ps);
      Paint_text(&ui->paint, y, x + BANKLAYOUT_LABEL_W + b, 1, c, passStyle(ps), false);
   }
   if (l->address && g->active[lane]) {
      snprintf(addr, sizeof addr, " @%u", g->address[lane]);
      Paint_text(&ui->paint, y, x + BANKLAYOUT_LABEL_W + l->banks_shown, BANKLAYOUT_ADDRESS_W, addr, ST_DIM, false);
   }
}

static void drawGrid(Ui *ui, const BankGrid *g, const BankPaneLayout *l, int x0, int y0) {
   int x = x0 + l->grid.x, y = y0 + l->grid.y;
   if (l->grid.h < BANKLAYOUT_HEAD_ROWS)
      return;
   gridHead(ui, g, l, x, y);
   y += BANKLAYOUT_HEAD_ROWS;
   int lpp = g->lanes_per_phase, first = g->lanes, last = -1;
   for (int r = l->first; r < l->first + l->shown; r++, y++) {
      int lane = BankLayout_rowLane(g->lanes, lpp, r);
      if (lane >= g->lanes)
         break;
      if (lane < 0) {
         int p = -1 - lane;
         char sep[96];
         snprintf(sep, sizeof sep, "%s phase %d: lanes %d-%d, %d wavefront%s", Paint_glyph(&ui->paint, "\xe2\x94\x80\xe2\x94\x80", "--"),
                  p, p * lpp, (p + 1) * lpp - 1 < g->lanes - 1 ? (p + 1) * lpp - 1 : g->lanes - 1,
                  g->phase_wavefronts[p], g->phase_wavefronts[p] == 1 ? "" : "s");
         Paint_text(&ui->paint, y, x, l->grid.w, sep, ST_DIM, false);
         continue;
      }
      first = lane < first ? lane : first;
      last = lane > last ? lane : last;
      laneRow(ui, g, l, lane, x, y);
   }
   if (l->scrolls && l->grid.h > BANKLAYOUT_HEAD_ROWS + 1) {
      char more[160];
      snprintf(more, sizeof more, "lanes %d-%d of %d: Up Down PgUp PgDn scroll%s%s", first, last, g->lanes,
               ui->zoom == PANE_BANKS ? "" : ", z zooms", l->banks_shown < g->banks ? "; banks clipped" : "");
      Paint_text(&ui->paint, y0 + l->grid.y + l->grid.h - 1, x, l->grid.w, more, ST_DIM, false);
   }
}

/* A step whose lesson is the grid (show = banks) keeps its heading, measured figure and text
 * (the lesson pane's own lines) beside the grid or under it, where the layout leaves them
 * room, so the class reads the grid, the step and its speed on one screen. */
static void addStepLine(void *ctx, const char *line, int style) { note(ctx, (Style)style, false, line); }

static void stepNotes(Ui *ui, Notes *ls, int width) {
   ls->n = 0;
   if (width < 20)
      return;
   LessonUi_stepText(ui, width, addStepLine, ls);
}

/* What does not fit is said to be in the lesson pane, never cut silently. */
static void drawStep(Ui *ui, const Notes *ls, Rect r, int x0, int y0) {
   if (r.h <= 0 || r.w < 20)
      return;
   int shown = ls->n <= r.h ? ls->n : r.h - 1;
   drawNotes(ui, ls, 0, x0 + r.x, y0 + r.y, r.w, shown);
   if (shown < ls->n)
      Paint_text(&ui->paint, y0 + r.y + shown, x0 + r.x, r.w, "... the rest of the step's text: z, then the lesson pane", ST_DIM,
                false);
}

/* Before the grid is traced: the step's lines under the message of used rows. */
static void stepUnder(Ui *ui, Rect r, int used) {
   if (!LessonUi_gridStep(ui) || (ui->layout.shown & PANE_BIT(PANE_LESSON)))
      return;
   static Notes step;
   stepNotes(ui, &step, r.w - 2);
   drawStep(ui, &step, (Rect){0, used + 1, r.w - 2, r.h - 1 - used - 1}, r.x + 1, r.y + 1);
}

/* The grid of the request chosen, or NULL (no access there, or no memory). */
static BankGrid *chosenGrid(const Ui *ui, const BankAnalysis *a) {
   int wpg = a->warps > 0 ? a->warps : 1;
   const BankRequest *req = BankAnalysis_request(a, (unsigned)ui->banks_pane.site, (unsigned)(ui->banks_pane.warp / wpg),
                                                 (unsigned)(ui->banks_pane.warp % wpg), ui->banks_pane.iter);
   BankGrid *g = req ? malloc(sizeof *g) : NULL;
   if (g && !BankAnalysis_grid(a, req, g)) {
      free(g);
      g = NULL;
   }
   return g;
}

/* The kernel's parameters, those that differ from the configuration traced before (of the
 * same kernel) first: where the title is cut, it keeps what the change was about (PADDING,
 * SWZ). */
static void changedFirst(const Ui *ui, const KernelInfo *k, const long long *values, char *out, size_t len) {
   const WorkerConfig *b = &ui->banks_pane.before;
   const bool compare = ui->banks_pane.have_before && !strcmp(b->kernel, k->name);
   size_t n = 0;
   out[0] = '\0';
   for (int pass = 0; pass < 2; pass++)
      for (int i = 0; i < k->nparams && n < len; i++) {
         const bool changed = compare && b->values[i] != values[i];
         if (changed == (pass == 0))
            n += (size_t)snprintf(out + n, len - n, "%s%s=%lld", n ? " " : "", k->params[i].name, values[i]);
      }
}

/* The title: the configuration traced, and the keys (what z does depends on the zoom). */
static void title(Ui *ui) {
   char extra[400] = "local-memory bank conflicts", params[256] = "";
   if (ui->banks_pane.have) {
      const KernelInfo *k = Catalog_find(&ui->cat, ui->banks_pane.analysis.config.kernel);
      if (k)
         changedFirst(ui, k, ui->banks_pane.analysis.config.values, params, sizeof params);
      const Problem *t = &ui->banks_pane.analysis.traced;
      snprintf(extra, sizeof extra, "%s%s%s (%s, traced at %dx%dx%d)", ui->banks_pane.analysis.config.kernel,
               params[0] ? " " : "", params, Precision_name(t->precision), t->m, t->n, t->k);
   }
   /* The keys in short where the configuration would be cut for them (80x24). */
   const bool zoomed = ui->zoom == PANE_BANKS;
   const char *keys = zoomed ? "[ ] site { } warp ( ) iter  z back" : "[ ] site { } warp ( ) iter  z zoom";
   const int room = ui->layout.pane[PANE_BANKS].w - Text_width(Layout_paneName(PANE_BANKS)) - 6;
   if (Text_width(extra) + Text_width(keys) + 1 > room)
      keys = zoomed ? "z back" : "z zoom";
   Draw_paneTitle(ui, PANE_BANKS, extra, keys);
}

static int Draw_banksRows(Ui *ui, int width) {
   const BankAnalysis *a = ui->banks_pane.have ? ui->banks_pane.analysis.analysis : NULL;
   if (!a || !a->nrequests || !LessonUi_gridStep(ui) || (ui->visible & PANE_BIT(PANE_LESSON)))
      return 0;
   BankGrid *g = chosenGrid(ui, a);
   int rows = g ? 1 + BankLayout_readableHeight(g->lanes, g->lanes_per_phase) : 0;
   free(g);
   return rows;
}

static void drawBanks(Ui *ui) {
   Rect r = ui->layout.pane[PANE_BANKS];
   const BankAnalysis *a = ui->banks_pane.have ? ui->banks_pane.analysis.analysis : NULL;
   bool current = ui->banks_pane.have && ui->snap.have_config && ui->banks_pane.analysis.config_serial == ui->snap.config_serial;
   title(ui);
   if (!current) {
      const char *m = !ui->snap.have_config || !ui->snap.result.verified_run
                         ? "waiting for a verified run of this configuration, then its local memory is traced"
                         : "tracing the local-memory accesses of one work-group (apart from the timed launches)...";
      if (ui->snap.have_result && ui->snap.result.status != RUN_OK && !ui->snap.result.verified_run)
         m = "this configuration did not run: nothing to trace";
      stepUnder(ui, r, message(ui, r, m, ST_DIM));
      return;
   }
   if (!a) {
      stepUnder(ui, r, message(ui, r, ui->banks_pane.analysis.message, ST_BAD));
      return;
   }
   int x0 = r.x + 1, y0 = r.y + 1, w = r.w - 2, h = r.h - 1;
   BankGrid *g = a->nrequests ? chosenGrid(ui, a) : NULL;
   static Notes full, side, step, step_side; /* large: kept off the stack */
   buildNotes(&full, ui, a, g, w);
   int side_w = g ? BankLayout_sideWidth(w, g->banks) : 0;
   buildNotes(&side, ui, a, g, side_w ? side_w : w);
   /* The step's lines, when the lesson pane is not there to show them. */
   const bool with_step = LessonUi_gridStep(ui) && !(ui->layout.shown & PANE_BIT(PANE_LESSON));
   step.n = step_side.n = 0;
   if (with_step) {
      stepNotes(ui, &step, w);
      stepNotes(ui, &step_side, side_w ? side_w : w);
   }
   BankPaneNeeds need = {.w = w, .h = h, .notes_rows = full.n, .notes_rows_side = side.n,
                         .notes_rows_short = full.before_legend,
                         .notes_rows_compact = full.request - full.table,
                         .lesson_rows = step.n, .lesson_rows_side = step_side.n,
                         .lanes = g ? g->lanes : 0, .banks = g ? g->banks : 0,
                         .lanes_per_phase = g ? g->lanes_per_phase : 0, .scroll = ui->banks_pane.scroll};
   BankPaneLayout l;
   BankLayout_compute(&need, &l);
   ui->banks_pane.scroll = l.first;
   ui->banks_pane.page = l.shown > 1 ? l.shown : 1;
   const Notes *ns = l.side ? &side : &full;
   drawNotes(ui, ns, l.compact ? ns->table : 0, x0 + l.notes.x, y0 + l.notes.y, l.notes.w, l.notes.h);
   if (with_step)
      drawStep(ui, l.side ? &step_side : &step, l.lesson, x0, y0);
   if (g)
      drawGrid(ui, g, &l, x0, y0);
   free(g);
}

/* ---- its news and keys ---- */

static void freeBanks(Ui *ui) {
   if (ui->banks_pane.have && ui->banks_pane.analysis.analysis) {
      BankAnalysis_free(ui->banks_pane.analysis.analysis);
      free(ui->banks_pane.analysis.analysis);
   }
   ui->banks_pane.analysis.analysis = NULL;
   ui->banks_pane.have = false;
}

/* The worker's newest bank analysis, when there is one. */
static void poll(Ui *ui) {
   WorkerBanks nb;
   if (!Worker_takeBanks(ui->worker, &nb))
      return;
   if (ui->banks_pane.have) {
      ui->banks_pane.before = ui->banks_pane.analysis.config;
      ui->banks_pane.have_before = true;
   }
   freeBanks(ui);
   ui->banks_pane.analysis = nb;
   ui->banks_pane.have = true;
   clampBanks(ui);
   ui->dirty = true;
}

/* Steps the bank pane's site (what 0), warp (1) or execution (2). */
static void stepBanks(Ui *ui, int what, int d) {
   if (!(ui->visible & PANE_BIT(PANE_BANKS))) {
      Ui_flash(ui, ST_WARN, "the bank pane is hidden: 5 shows it");
      return;
   }
   const BankAnalysis *a = ui->banks_pane.have ? ui->banks_pane.analysis.analysis : NULL;
   if (!a || !a->nrequests)
      return;
   if (what == 0) {
      int s = ui->banks_pane.site;
      for (int i = 0; i < a->nsites; i++) {
         s = (s + d + a->nsites) % a->nsites;
         if (a->sites[s].requests)
            break;
      }
      ui->banks_pane.site = s;
      ui->banks_pane.iter = 0;
   } else if (what == 1) {
      int n = a->warps * a->groups;
      ui->banks_pane.warp = n > 0 ? (ui->banks_pane.warp + d + n) % n : 0;
   } else {
      ui->banks_pane.iter += d;
   }
   clampBanks(ui);
   ui->dirty = true;
}
static void stepKey(Ui *ui, int ch) {
   const char *keys = "[]{}()", *at = strchr(keys, ch);
   int i = (int)(at - keys);
   stepBanks(ui, i / 2, i % 2 ? 1 : -1);
}

/* Its grid: a row, a page, its top or its end (drawing clamps). */
static void scrollKey(Ui *ui, int ch) {
   int page = ui->banks_pane.page > 1 ? ui->banks_pane.page - 1 : 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->banks_pane.scroll--; break;
   case KEY_DOWN: case 'j': ui->banks_pane.scroll++; break;
   case KEY_PPAGE: ui->banks_pane.scroll -= page; break;
   case KEY_NPAGE: ui->banks_pane.scroll += page; break;
   case KEY_HOME: ui->banks_pane.scroll = 0; break;
   case KEY_END: ui->banks_pane.scroll = BANKS_MAX_LANES * 2; break; /* drawing keeps the last page in view */
   default: return;
   }
   if (ui->banks_pane.scroll < 0)
      ui->banks_pane.scroll = 0;
   ui->dirty = true;
}

static bool focusedKey(Ui *ui, int ch) {
   if (Ui_isSteppingKey(ch))
      return false;
   scrollKey(ui, ch);
   return true;
}

static const KeyBinding keys[] = {
    {{'[', ']', '{', '}', '(', ')'}, "[ ] { } ( )", NULL, "bank pane: previous / next site, warp, loop iteration",
     stepKey, false},
};

const PaneClass Banks_pane = {.draw = drawBanks, .key = focusedKey, .keys = keys, .nkeys = 1, .rows = Draw_banksRows,
                              .poll = poll, .free = freeBanks};
