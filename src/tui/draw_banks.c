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
#include "tui/draw_banks.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/banklayout.h"
#include "tui/text.h"

/* Keeps site, warp and iter valid for the analysis held (site: one that made accesses). */
static void clampBanks(const PaneCtx *ctx, BanksPane *bp) {
   const BankAnalysis *a = bp->have ? bp->analysis.analysis : NULL;
   if (!a || !a->nrequests) {
      bp->site = bp->warp = bp->iter = 0;
      return;
   }
   if (bp->site < 0 || bp->site >= a->nsites || !a->sites[bp->site].requests) {
      bp->site = 0;
      while (bp->site < a->nsites - 1 && !a->sites[bp->site].requests)
         bp->site++;
   }
   int warps = a->warps * a->groups;
   if (bp->warp >= warps)
      bp->warp = warps > 0 ? warps - 1 : 0;
   if (bp->warp < 0)
      bp->warp = 0;
   int wpg = a->warps > 0 ? a->warps : 1;
   int n = BankAnalysis_executions(a, (unsigned)bp->site, (unsigned)(bp->warp / wpg),
                                   (unsigned)(bp->warp % wpg));
   if (bp->iter >= n)
      bp->iter = n > 0 ? n - 1 : 0;
   if (bp->iter < 0)
      bp->iter = 0;
}

static Style passStyle(int pass) {
   return pass < 0 ? ST_DIM : pass == 0 ? ST_GOOD : pass == 1 ? ST_WARN : ST_BAD;
}

/* A message in place of the analysis, wrapped; returns its rows. */
static int message(const PaneCtx *ctx, Rect r, const char *m, Style st) {
   char buf[2048];
   const char *wl[16];
   int n = Text_wrap(m, r.w - 2, buf, sizeof buf, wl, r.h - 1 < 16 ? r.h - 1 : 16);
   for (int i = 0; i < n; i++)
      Paint_text(ctx->paint, r.y + 1 + i, r.x + 1, r.w - 2, wl[i], st, false);
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
static void siteRow(Notes *ns, const PaneCtx *ctx, const BanksPane *bp, const BankAnalysis *a, int i, int namew) {
   const KernelInfo *k = Catalog_find(ctx->cat, bp->analysis.config.kernel);
   const BankSiteStats *st = &a->sites[i];
   const char *nm = k && i < k->nsites && k->sites[i][0] ? k->sites[i] : "(unnamed)";
   char label[160], buf[512], line[320];
   snprintf(label, sizeof label, "%d %s", i, nm);
   const char *wl[6];
   int n = Text_wrap(label, namew, buf, sizeof buf, wl, 6);
   bool sel = i == bp->site;
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

static void siteTable(Notes *ns, const PaneCtx *ctx, const BanksPane *bp, const BankAnalysis *a, int width) {
   int namew = width - 2 - SITE_NUMBERS_W;
   if (namew < 12)
      namew = 12;
   /* No wider than the longest name needs. */
   const KernelInfo *k = Catalog_find(ctx->cat, bp->analysis.config.kernel);
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
         siteRow(ns, ctx, bp, a, i, namew);
}

/* The request drawn: which it is and what it costs. */
static void requestNotes(Notes *ns, const PaneCtx *ctx, const BanksPane *bp, const BankAnalysis *a, const BankGrid *g,
                         int width) {
   char line[512];
   int execs = BankAnalysis_executions(a, (unsigned)bp->site, g->group, g->warp);
   int conflicts = g->wavefronts - g->ideal;
   snprintf(line, sizeof line, "site %d warp %d/%d iter %d/%d: %s %u B, %d wavefront%s, ideal %d, %d conflict%s",
            bp->site, bp->warp, a->warps * a->groups, bp->iter + 1, execs, g->store ? "store" : "load",
            g->width, g->wavefronts, g->wavefronts == 1 ? "" : "s", g->ideal, conflicts, conflicts == 1 ? "" : "s");
   wrapped(ns, g->wavefronts > g->ideal ? ST_WARN : ST_GOOD, width, line);
   if (g->phases > 1) {
      snprintf(line, sizeof line, "%d phases of %d lanes, served one after the other%s", g->phases, g->lanes_per_phase,
               g->paired ? " (the lanes agree in pairs: double-width phases)" : "");
      wrapped(ns, ST_DIM, width, line);
   }
}

static void legend(Notes *ns, const PaneCtx *ctx, const BanksPane *bp, const BankGrid *g, int width) {
   char line[512];
   snprintf(line, sizeof line,
            "cell: the pass in which that bank serves the lane: 1 first, 2-9 a-z later (each a conflict); "
            ". not touched; lanes reading one word share its pass (broadcast)%s",
            g && g->phases > 1 ? "; only lanes of the same phase can conflict" : "");
   wrapped(ns, ST_DIM, width, line);
}

/* Every note for a pane width: what is measured and what is drawn come from here. */
static void buildNotes(Notes *ns, const PaneCtx *ctx, const BanksPane *bp, const BankAnalysis *a, const BankGrid *g,
                       int width) {
   ns->n = ns->before_legend = ns->table = ns->request = 0;
   char line[512], model[96];
   BankModel_describe(&a->model, model, sizeof model);
   snprintf(line, sizeof line, "model %s: %s%s", a->model.name, model, a->model.known ? "" : " (assumed)");
   wrapped(ns, a->model.known ? ST_NORMAL : ST_WARN, width, line);
   const Problem *p = &bp->analysis.traced;
   snprintf(line, sizeof line, "traced %d group%s of %zu items (%d warp%s) on %dx%dx%d; %zu accesses%s", a->groups,
            a->groups == 1 ? "" : "s", a->wg_size, a->warps, a->warps == 1 ? "" : "s", p->m, p->n, p->k, a->nrecords,
            a->dropped ? " (incomplete)" : "");
   wrapped(ns, ST_DIM, width, line);
   if (!a->nrequests) {
      note(ns, ST_NORMAL, false, "this kernel uses no local memory");
      return;
   }
   ns->table = ns->n;
   siteTable(ns, ctx, bp, a, width);
   ns->request = ns->n;
   if (g) {
      requestNotes(ns, ctx, bp, a, g, width);
      ns->before_legend = ns->n;
      legend(ns, ctx, bp, g, width);
   } else {
      snprintf(line, sizeof line, "site %d, warp %d: no access", bp->site, bp->warp);
      note(ns, ST_DIM, false, line);
   }
}

/* The notes from line first, in h rows. */
static void drawNotes(const PaneCtx *ctx, const Notes *ns, int first, int x, int y, int w, int h) {
   for (int i = 0; first + i < ns->n && i < h; i++)
      Paint_text(ctx->paint, y + i, x, w, ns->line[first + i].text, ns->line[first + i].st, ns->line[first + i].pad);
}

/* ---- the grid ---- */

static void gridHead(const PaneCtx *ctx, const BankGrid *g, const BankPaneLayout *l, int x, int y) {
   char tens[BANKS_MAX_BANKS + 16], units[BANKS_MAX_BANKS + 16];
   int o = snprintf(tens, sizeof tens, "bank "), u = snprintf(units, sizeof units, "     ");
   for (int b = 0; b < l->banks_shown; b++) {
      tens[o++] = b % 10 == 0 ? (char)('0' + b / 10 % 10) : ' ';
      units[u++] = (char)('0' + b % 10);
   }
   tens[o] = units[u] = '\0';
   if (l->address)
      snprintf(units + u, sizeof units - (size_t)u, " offset");
   Paint_text(ctx->paint, y, x, l->grid.w, tens, ST_LABEL, false);
   Paint_text(ctx->paint, y + 1, x, l->grid.w, units, ST_LABEL, false);
}

static void laneRow(const PaneCtx *ctx, const BankGrid *g, const BankPaneLayout *l, int lane, int x, int y) {
   char lab[8], c[2] = {0, 0}, addr[24];
   snprintf(lab, sizeof lab, "l%-3d ", lane);
   Paint_text(ctx->paint, y, x, BANKLAYOUT_LABEL_W, lab, ST_LABEL, false);
   for (int b = 0; b < l->banks_shown; b++) {
      int ps = g->pass[lane][b];
      c[0] = BankGrid_glyph(ps);
      Paint_text(ctx->paint, y, x + BANKLAYOUT_LABEL_W + b, 1, c, passStyle(ps), false);
   }
   if (l->address && g->active[lane]) {
      snprintf(addr, sizeof addr, " @%u", g->address[lane]);
      Paint_text(ctx->paint, y, x + BANKLAYOUT_LABEL_W + l->banks_shown, BANKLAYOUT_ADDRESS_W, addr, ST_DIM, false);
   }
}

static void drawGrid(const PaneCtx *ctx, const BankGrid *g, const BankPaneLayout *l, int x0, int y0) {
   int x = x0 + l->grid.x, y = y0 + l->grid.y;
   if (l->grid.h < BANKLAYOUT_HEAD_ROWS)
      return;
   gridHead(ctx, g, l, x, y);
   y += BANKLAYOUT_HEAD_ROWS;
   int lpp = g->lanes_per_phase, first = g->lanes, last = -1;
   for (int r = l->first; r < l->first + l->shown; r++, y++) {
      int lane = BankLayout_rowLane(g->lanes, lpp, r);
      if (lane >= g->lanes)
         break;
      if (lane < 0) {
         int p = -1 - lane;
         char sep[96];
         snprintf(sep, sizeof sep, "%s phase %d: lanes %d-%d, %d wavefront%s",
                  Paint_glyph(ctx->paint, "\xe2\x94\x80\xe2\x94\x80", "--"), p, p * lpp,
                  (p + 1) * lpp - 1 < g->lanes - 1 ? (p + 1) * lpp - 1 : g->lanes - 1, g->phase_wavefronts[p],
                  g->phase_wavefronts[p] == 1 ? "" : "s");
         Paint_text(ctx->paint, y, x, l->grid.w, sep, ST_DIM, false);
         continue;
      }
      first = lane < first ? lane : first;
      last = lane > last ? lane : last;
      laneRow(ctx, g, l, lane, x, y);
   }
   if (l->scrolls && l->grid.h > BANKLAYOUT_HEAD_ROWS + 1) {
      char more[160];
      snprintf(more, sizeof more, "lanes %d-%d of %d: Up Down PgUp PgDn scroll%s%s", first, last, g->lanes,
               ctx->zoom == PANE_BANKS ? "" : ", z zooms", l->banks_shown < g->banks ? "; banks clipped" : "");
      Paint_text(ctx->paint, y0 + l->grid.y + l->grid.h - 1, x, l->grid.w, more, ST_DIM, false);
   }
}

/* A step whose lesson is the grid (show = banks) keeps its heading, measured figure and text
 * (the lesson pane's own lines) beside the grid or under it, where the layout leaves them
 * room, so the class reads the grid, the step and its speed on one screen. */
static void addStepLine(void *ctx, const char *line, int style) { note(ctx, (Style)style, false, line); }

static void stepNotes(const PaneCtx *ctx, Notes *ls, int width) {
   ls->n = 0;
   if (width < 20)
      return;
   PaneCtx_lessonStepText(ctx, width, addStepLine, ls);
}

/* What does not fit is said to be in the lesson pane, never cut silently. */
static void drawStep(const PaneCtx *ctx, const Notes *ls, Rect r, int x0, int y0) {
   if (r.h <= 0 || r.w < 20)
      return;
   int shown = ls->n <= r.h ? ls->n : r.h - 1;
   drawNotes(ctx, ls, 0, x0 + r.x, y0 + r.y, r.w, shown);
   if (shown < ls->n)
      Paint_text(ctx->paint, y0 + r.y + shown, x0 + r.x, r.w,
                 "... the rest of the step's text: z, then the lesson pane", ST_DIM, false);
}

/* Before the grid is traced: the step's lines under the message of used rows. */
static void stepUnder(const PaneCtx *ctx, Rect r, int used) {
   if (!ctx->grid_step || (ctx->shown & PANE_BIT(PANE_LESSON)))
      return;
   static Notes step;
   stepNotes(ctx, &step, r.w - 2);
   drawStep(ctx, &step, (Rect){0, used + 1, r.w - 2, r.h - 1 - used - 1}, r.x + 1, r.y + 1);
}

/* The grid of the request chosen, or NULL (no access there, or no memory). */
static BankGrid *chosenGrid(const PaneCtx *ctx, BanksPane *bp, const BankAnalysis *a) {
   int wpg = a->warps > 0 ? a->warps : 1;
   const BankRequest *req = BankAnalysis_request(a, (unsigned)bp->site, (unsigned)(bp->warp / wpg),
                                                 (unsigned)(bp->warp % wpg), bp->iter);
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
static void changedFirst(const PaneCtx *ctx, BanksPane *bp, const KernelInfo *k, const long long *values, char *out,
                         size_t len) {
   const WorkerConfig *b = &bp->before;
   const bool compare = bp->have_before && !strcmp(b->kernel, k->name);
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
static void title(const PaneCtx *ctx, BanksPane *bp) {
   char extra[400] = "local-memory bank conflicts", params[256] = "";
   if (bp->have) {
      const KernelInfo *k = Catalog_find(ctx->cat, bp->analysis.config.kernel);
      if (k)
         changedFirst(ctx, bp, k, bp->analysis.config.values, params, sizeof params);
      const Problem *t = &bp->analysis.traced;
      snprintf(extra, sizeof extra, "%s%s%s (%s, traced at %dx%dx%d)", bp->analysis.config.kernel,
               params[0] ? " " : "", params, Precision_name(t->precision), t->m, t->n, t->k);
   }
   /* The keys in short where the configuration would be cut for them (80x24). */
   const bool zoomed = ctx->zoom == PANE_BANKS;
   const char *keys = zoomed ? "[ ] site { } warp ( ) iter  z back" : "[ ] site { } warp ( ) iter  z zoom";
   const int room = ctx->area.w - Text_width(Layout_paneName(PANE_BANKS)) - 6;
   if (Text_width(extra) + Text_width(keys) + 1 > room)
      keys = zoomed ? "z back" : "z zoom";
   Draw_paneTitle(ctx, extra, keys);
}

static int banksRows(const PaneCtx *ctx, void *state, int width) {
   BanksPane *bp = state;
   const BankAnalysis *a = bp->have ? bp->analysis.analysis : NULL;
   if (!a || !a->nrequests || !ctx->grid_step || (ctx->visible & PANE_BIT(PANE_LESSON)))
      return 0;
   BankGrid *g = chosenGrid(ctx, bp, a);
   int rows = g ? 1 + BankLayout_readableHeight(g->lanes, g->lanes_per_phase) : 0;
   free(g);
   return rows;
}

static void drawBanks(const PaneCtx *ctx, void *state) {
   BanksPane *bp = state;
   Rect r = ctx->area;
   const BankAnalysis *a = bp->have ? bp->analysis.analysis : NULL;
   bool current = bp->have && ctx->snap->have_config && bp->analysis.config_serial == ctx->snap->config_serial;
   title(ctx, bp);
   if (!current) {
      const char *m = !ctx->snap->have_config || !ctx->snap->result.verified_run
                         ? "waiting for a verified run of this configuration, then its local memory is traced"
                         : "tracing the local-memory accesses of one work-group (apart from the timed launches)...";
      if (ctx->snap->have_result && ctx->snap->result.status != RUN_OK && !ctx->snap->result.verified_run)
         m = "this configuration did not run: nothing to trace";
      stepUnder(ctx, r, message(ctx, r, m, ST_DIM));
      return;
   }
   if (!a) {
      stepUnder(ctx, r, message(ctx, r, bp->analysis.message, ST_BAD));
      return;
   }
   int x0 = r.x + 1, y0 = r.y + 1, w = r.w - 2, h = r.h - 1;
   BankGrid *g = a->nrequests ? chosenGrid(ctx, bp, a) : NULL;
   static Notes full, side, step, step_side; /* large: kept off the stack */
   buildNotes(&full, ctx, bp, a, g, w);
   int side_w = g ? BankLayout_sideWidth(w, g->banks) : 0;
   buildNotes(&side, ctx, bp, a, g, side_w ? side_w : w);
   /* The step's lines, when the lesson pane is not there to show them. */
   const bool with_step = ctx->grid_step && !(ctx->shown & PANE_BIT(PANE_LESSON));
   step.n = step_side.n = 0;
   if (with_step) {
      stepNotes(ctx, &step, w);
      stepNotes(ctx, &step_side, side_w ? side_w : w);
   }
   BankPaneNeeds need = {.w = w, .h = h, .notes_rows = full.n, .notes_rows_side = side.n,
                         .notes_rows_short = full.before_legend,
                         .notes_rows_compact = full.request - full.table,
                         .lesson_rows = step.n, .lesson_rows_side = step_side.n,
                         .lanes = g ? g->lanes : 0, .banks = g ? g->banks : 0,
                         .lanes_per_phase = g ? g->lanes_per_phase : 0, .scroll = bp->scroll};
   BankPaneLayout l;
   BankLayout_compute(&need, &l);
   bp->scroll = l.first;
   bp->page = l.shown > 1 ? l.shown : 1;
   const Notes *ns = l.side ? &side : &full;
   drawNotes(ctx, ns, l.compact ? ns->table : 0, x0 + l.notes.x, y0 + l.notes.y, l.notes.w, l.notes.h);
   if (with_step)
      drawStep(ctx, l.side ? &step_side : &step, l.lesson, x0, y0);
   if (g)
      drawGrid(ctx, g, &l, x0, y0);
   free(g);
}

/* ---- its news and keys ---- */

static void freeBanks(const PaneCtx *ctx, void *state) {
   BanksPane *bp = state;
   if (bp->have && bp->analysis.analysis) {
      BankAnalysis_free(bp->analysis.analysis);
      free(bp->analysis.analysis);
   }
   bp->analysis.analysis = NULL;
   bp->have = false;
}

/* The worker's newest bank analysis, when there is one. */
static void poll(const PaneCtx *ctx, void *state) {
   BanksPane *bp = state;
   WorkerBanks nb;
   if (!Worker_takeBanks(ctx->worker, &nb))
      return;
   if (bp->have) {
      bp->before = bp->analysis.config;
      bp->have_before = true;
   }
   freeBanks(ctx, bp);
   bp->analysis = nb;
   bp->have = true;
   clampBanks(ctx, bp);
   PaneCtx_dirty(ctx);
}

/* Steps the bank pane's site (what 0), warp (1) or execution (2). */
static void stepBanks(const PaneCtx *ctx, BanksPane *bp, int what, int d) {
   if (!(ctx->visible & PANE_BIT(PANE_BANKS))) {
      PaneCtx_flash(ctx, ST_WARN, "the bank pane is hidden: 5 shows it");
      return;
   }
   const BankAnalysis *a = bp->have ? bp->analysis.analysis : NULL;
   if (!a || !a->nrequests)
      return;
   if (what == 0) {
      int s = bp->site;
      for (int i = 0; i < a->nsites; i++) {
         s = (s + d + a->nsites) % a->nsites;
         if (a->sites[s].requests)
            break;
      }
      bp->site = s;
      bp->iter = 0;
   } else if (what == 1) {
      int n = a->warps * a->groups;
      bp->warp = n > 0 ? (bp->warp + d + n) % n : 0;
   } else {
      bp->iter += d;
   }
   clampBanks(ctx, bp);
   PaneCtx_dirty(ctx);
}
static void stepKey(const PaneCtx *ctx, void *state, int ch) {
   BanksPane *bp = state;
   const char *keys = "[]{}()", *at = strchr(keys, ch);
   int i = (int)(at - keys);
   stepBanks(ctx, bp, i / 2, i % 2 ? 1 : -1);
}

/* Its grid: a row, a page, its top or its end (drawing clamps). */
static void scrollKey(const PaneCtx *ctx, BanksPane *bp, int ch) {
   int page = bp->page > 1 ? bp->page - 1 : 1;
   switch (ch) {
   case KEY_UP: case 'k': bp->scroll--; break;
   case KEY_DOWN: case 'j': bp->scroll++; break;
   case KEY_PPAGE: bp->scroll -= page; break;
   case KEY_NPAGE: bp->scroll += page; break;
   case KEY_HOME: bp->scroll = 0; break;
   case KEY_END: bp->scroll = BANKS_MAX_LANES * 2; break; /* drawing keeps the last page in view */
   default: return;
   }
   if (bp->scroll < 0)
      bp->scroll = 0;
   PaneCtx_dirty(ctx);
}

static bool focusedKey(const PaneCtx *ctx, void *state, int ch) {
   BanksPane *bp = state;
   if (PaneCtx_isSteppingKey(ch))
      return false;
   scrollKey(ctx, bp, ch);
   return true;
}

static const KeyBinding keys[] = {
    {{'[', ']', '{', '}', '(', ')'}, "[ ] { } ( )", NULL, "bank pane: previous / next site, warp, loop iteration",
     .on_pane = stepKey},
};

const PaneClass Banks_pane = {.state_size = sizeof(BanksPane), .draw = drawBanks, .key = focusedKey, .keys = keys,
                              .nkeys = 1, .rows = banksRows, .poll = poll, .free = freeBanks};
