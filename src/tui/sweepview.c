/* The sweep pane: S sweeps the current kernel's parameters on the current problem in the
 * worker thread; the pane shows the progress, the best verified configuration, what was
 * skipped and why, and a scatter of GFLOPS against one parameter (X picks which). Only
 * verified configurations are plotted; B (or Enter here) puts the best in the kernel pane. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tui/panedraw.h"
#include "tui/sweepview.h"
#include "tui/panes_table.h"
#include "tui/text.h"
#include "base/util.h"

/* Configurations tried when no --budget is given: enough to see a shape, quick on a GPU. */
#define SWEEP_DEFAULT_BUDGET 24

static int budget(const PaneCtx *ctx) {
   return ctx->start->sweep_budget > 0 ? ctx->start->sweep_budget : SWEEP_DEFAULT_BUDGET;
}

/* Every valid configuration: --exhaustive, or the exhaustive strategy without --budget
 * (as `gemmtop sweep` takes them). */
static bool everyOne(const PaneCtx *ctx, SweepPane *sp) {
   return ctx->start->sweep_exhaustive || (sp->strategy == SEARCH_EXHAUSTIVE && ctx->start->sweep_budget <= 0);
}

/* How the configurations are proposed, in words: "random", "in order", "anneal"... */
static const char *strategyWords(SearchStrategy s) {
   return s == SEARCH_EXHAUSTIVE ? "in order" : SearchStrategy_name(s);
}

/* What a sweep tries: "all", "random", "in order"
 * (the exhaustive strategy's first N), or a learning strategy's name. */
static const char *sweepWords(const WorkerSweep *sw) {
   bool every = sw->exhaustive && (sw->strategy == SEARCH_EXHAUSTIVE || sw->strategy == SEARCH_RANDOM);
   return every ? "all" : strategyWords(sw->strategy);
}

/* The next search strategy for the next sweep (core/sweep/search.h). */
static void cycleStrategy(const PaneCtx *ctx, SweepPane *sp) {
   sp->strategy = (SearchStrategy)((sp->strategy + 1) % SEARCH_STRATEGIES);
   PaneCtx_flash(ctx, ST_NORMAL, "next sweep: %s (%s)%s", SearchStrategy_name(sp->strategy),
            SearchStrategy_describe(sp->strategy), sp->sweep->running ? "; this one goes on as it began" : "");
}

/* The kernel whose parameters the pane shows: the swept one, else the current one. */
static const KernelInfo *shownKernel(const PaneCtx *ctx, SweepPane *sp) {
   const KernelInfo *k = sp->sweep->started ? Catalog_find(ctx->cat, sp->sweep->config.kernel) : NULL;
   return k ? k : ctx->info;
}

/* The fastest verified point; none in an emulated sweep, whose times are not ranked. */
static int bestPoint(const WorkerSweep *sw) {
   int best = -1;
   if (sw->emulated)
      return -1;
   for (int i = 0; i < sw->done && i < WORKER_SWEEP_MAX; i++)
      if (sw->points[i].outcome == SWEEP_OK && (best < 0 || sw->points[i].gflops > sw->points[best].gflops))
         best = i;
   return best;
}

static void fmtGflops(double v, char *out, size_t n) {
   if (v >= 100)
      snprintf(out, n, "%.0f", v);
   else if (v >= 10)
      snprintf(out, n, "%.1f", v);
   else
      snprintf(out, n, "%.2f", v);
}

/* Starts a sweep of the current kernel on the current problem, or stops the one running. */
static void toggleSweep(const PaneCtx *ctx, SweepPane *sp) {
   WorkerSweep *sw = sp->sweep;
   if (sw->running) {
      Worker_sweepStop(ctx->worker);
      PaneCtx_flash(ctx, ST_WARN, "sweep stopped: the %d configurations tried stay in the sweep pane (7)", sw->done);
      return;
   }
   const KernelInfo *k = ctx->info;
   WorkerConfig c;
   memset(&c, 0, sizeof c);
   Util_copy(c.kernel, sizeof c.kernel, k->name);
   memcpy(c.values, ctx->values, sizeof c.values);
   c.problem = *ctx->problem;
   c.cold_l2 = ctx->cold_l2;
   Worker_sweepStart(ctx->worker, &c, budget(ctx), everyOne(ctx, sp), sp->strategy,
                     ctx->start->sweep_timeout);
   /* Shown at once: what was there before is the old sweep. */
   memset(sw, 0, sizeof *sw);
   sw->started = sw->running = true;
   sw->config = c;
   sw->started_ms = Util_nowMs();
   if (sp->x < 0 || sp->x >= k->nparams)
      sp->x = 0;
   PaneCtx_show(ctx, PANE_SHOW_FOCUS | PANE_SHOW_UNZOOM);
   if (everyOne(ctx, sp))
      PaneCtx_flash(ctx, ST_NORMAL, "sweeping %s: every valid configuration (%s); S or c stops", k->name,
               strategyWords(sp->strategy));
   else
      PaneCtx_flash(ctx, ST_NORMAL, "sweeping %s: %d valid configurations (all when fewer), %s; S or c stops", k->name,
               budget(ctx), strategyWords(sp->strategy));
}

/* The next parameter across the scatter. */
static void cycleAxis(const PaneCtx *ctx, SweepPane *sp) {
   const KernelInfo *k = shownKernel(ctx, sp);
   if (k->nparams == 0) {
      PaneCtx_flash(ctx, ST_WARN, "%s has no parameters to plot against", k->name);
      return;
   }
   sp->x = (sp->x + 1) % k->nparams;
   PaneCtx_flash(ctx, ST_NORMAL, "sweep plot: GFLOPS against %s", k->params[sp->x].name);
}

/* Puts the sweep's best verified configuration in the kernel pane. */
static void applyBest(const PaneCtx *ctx, SweepPane *sp) {
   const WorkerSweep *sw = sp->sweep;
   int b = bestPoint(sw);
   if (b < 0) {
      PaneCtx_flash(ctx, ST_WARN,
                    sw->started ? "no verified configuration in the sweep yet" : "no sweep yet: S starts one");
      return;
   }
   const KernelInfo *k = Catalog_find(ctx->cat, sw->config.kernel);
   if (!k) {
      PaneCtx_flash(ctx, ST_BAD, "kernel %s is no longer in the catalog", sw->config.kernel);
      return;
   }
   long long values[KERNEL_MAX_PARAMS];
   memcpy(values, sw->points[b].values, sizeof values);
   double gflops = sw->points[b].gflops;
   char params[512];
   KernelInfo_formatParams(k, values, params, sizeof params);
   PaneCtx_selectKernel(ctx, (int)(k - ctx->cat->kernels), values, &sw->config.problem);
   PaneCtx_flash(ctx, ST_GOOD, "applied the sweep's best: %s %s (%.2f GFLOPS in the sweep)%s", k->name, params, gflops,
            sw->running ? "; measured when the sweep ends" : "");
}

/* GFLOPS (y) against the chosen parameter's values (x, evenly spaced), in rows y..bottom-1:
 * the plot, then the axis row. */
static void drawScatter(const PaneCtx *ctx, SweepPane *sp, const KernelInfo *k, int x, int y, int w, int bottom) {
   const WorkerSweep *sw = sp->sweep;
   int ch = bottom - y - 1;
   if (ch < 1 || k->nparams == 0)
      return;
   if (ch > 64)
      ch = 64;
   if (sp->x < 0 || sp->x >= k->nparams)
      sp->x = 0;
   const KernelParam *kp = &k->params[sp->x];
   double xs[WORKER_SWEEP_MAX], ys[WORKER_SWEEP_MAX], ymax = 0;
   int n = 0, best = -1;
   for (int i = 0; i < sw->done && i < WORKER_SWEEP_MAX; i++) {
      const WorkerSweepPoint *pt = &sw->points[i];
      int vi = KernelParam_valueIndex(kp, pt->values[sp->x]);
      if (pt->outcome != SWEEP_OK || vi < 0 || !(pt->gflops > 0))
         continue;
      xs[n] = vi;
      ys[n] = pt->gflops;
      ymax = fmax(ymax, pt->gflops);
      if (best < 0 || ys[n] > ys[best])
         best = n;
      n++;
   }
   /* The middle row's label is the value at its centre. */
   int perY = ctx->spark == CHART_BRAILLE ? 4 : 1, midRow = ch / 2;
   double midDot = (ch - 1 - midRow) * perY + (perY - 1) / 2.0;
   char top[32], mid[32];
   fmtGflops(ymax, top, sizeof top);
   fmtGflops(ch * perY > 1 ? ymax * midDot / (ch * perY - 1) : ymax, mid, sizeof mid);
   int lw = (int)strlen(top) > 6 ? (int)strlen(top) : 6;
   int pw = w - lw - 1;
   if (pw < 4)
      return;
   size_t rowlen = (size_t)pw * 3 + 1;
   char *buf = malloc(rowlen * (size_t)ch);
   char *rows[64];
   if (!buf)
      return;
   for (int r = 0; r < ch; r++)
      rows[r] = buf + rowlen * (size_t)r;
   double xlo = -0.5, xhi = kp->nvalues - 0.5;
   Chart_scatter(rows, rowlen, ch, pw, xs, ys, n, xlo, xhi, 0, ymax > 0 ? ymax : 1, ctx->spark);
   const char *vbar = Paint_glyph(ctx->paint, "\xe2\x94\x82", "|");
   for (int r = 0; r < ch; r++) {
      const char *lab = "";
      if (n && r == 0)
         lab = top;
      else if (r == 1 && ch >= 4)
         lab = "GFLOPS";
      else if (n && ch >= 5 && r == midRow)
         lab = mid;
      else if (r == ch - 1)
         lab = "0";
      char l[40];
      snprintf(l, sizeof l, "%*s", lw, lab);
      Paint_text(ctx->paint, y + r, x, lw, l, ST_LABEL, false);
      Paint_text(ctx->paint, y + r, x + lw, 1, vbar, ST_DIM, false);
      Paint_text(ctx->paint, y + r, x + lw + 1, pw, rows[r], ST_GOOD, false);
   }
   free(buf);
   /* The best point stands out: the configuration B would apply. */
   int brow, bcol;
   if (best >= 0 && Chart_scatterCell(xs[best], ys[best], xlo, xhi, 0, ymax > 0 ? ymax : 1, ch, pw, ctx->spark, &brow,
                                      &bcol))
      Paint_text(ctx->paint, y + brow, x + lw + 1 + bcol, 1, Paint_glyph(ctx->paint, "\xe2\x97\x86", "#"), ST_WARN,
                 false);
   if (!n) {
      const char *m = sw->done ? "no verified configuration to plot yet" : "points appear as configurations verify";
      int mw = Text_width(m);
      Paint_text(ctx->paint, y + ch / 2, x + lw + 1 + (pw > mw ? (pw - mw) / 2 : 0), pw, m, ST_DIM, false);
   }
   /* The axis: the parameter's name, then its values under their columns. */
   int ay = y + ch;
   char name[40];
   snprintf(name, sizeof name, "%*.*s", lw, lw, kp->name);
   Paint_text(ctx->paint, ay, x, lw, name, ST_LABEL, false);
   Paint_text(ctx->paint, ay, x + lw, 1, Paint_glyph(ctx->paint, "\xe2\x94\x94", "+"), ST_DIM, false);
   int free_from = 0; /* the first plot column not yet written */
   for (int j = 0; j < kp->nvalues; j++) {
      char v[24];
      int vw = snprintf(v, sizeof v, "%lld", kp->values[j]);
      int col = Chart_scatterColumn(j, xlo, xhi, pw, ctx->spark) - vw / 2;
      if (col + vw > pw)
         col = pw - vw;
      if (col < free_from)
         continue; /* no room between its neighbours */
      Paint_text(ctx->paint, ay, x + lw + 1 + col, vw, v, ST_LABEL, false);
      free_from = col + vw + 1;
   }
}

static void drawSweep(const PaneCtx *ctx, void *state) {
   SweepPane *sp = state;
   Rect r = ctx->area;
   const WorkerSweep *sw = sp->sweep;
   const KernelInfo *k = shownKernel(ctx, sp);
   int x = r.x + 1, w = r.w - 2, y = r.y + 1, bottom = r.y + r.h;
   char line[1024], extra[160];
   const Problem *p = sw->started ? &sw->config.problem : ctx->problem;
   snprintf(extra, sizeof extra, "%s %dx%dx%d", k->name, p->m, p->n, p->k);
   Draw_paneTitle(ctx, extra, "S start/stop  Y strategy  X axis  B apply best");
   if (!sw->started) {
      const char *how = SearchStrategy_name(sp->strategy);
      if (everyOne(ctx, sp))
         snprintf(line, sizeof line,
                  "S sweeps %s on %dx%dx%d: every valid configuration (%s; Y changes it) is compiled, verified and "
                  "timed in turn, in a process of its own; what the results store holds is not measured again.",
                  k->name, p->m, p->n, p->k, how);
      else
         snprintf(line, sizeof line,
                  "S sweeps %s on %dx%dx%d: %d valid configurations proposed by the %s strategy (Y changes it; "
                  "--budget N or --exhaustive the count), each compiled, verified and timed in a process of its "
                  "own; what the results store holds is not measured again.",
                  k->name, p->m, p->n, p->k, budget(ctx), how);
      Paint_wrapped(ctx->paint, y, x, w, bottom, line, ST_DIM, 16);
      return;
   }
   /* Progress. */
   if (!sw->running && sw->total == 0) {
      snprintf(line, sizeof line, "sweep not run: %s", sw->message);
      Paint_wrapped(ctx->paint, y, x, w, bottom, line, sw->stopped ? ST_WARN : ST_BAD, 16);
      return;
   }
   double elapsed = sw->running ? Util_nowMs() - sw->started_ms : sw->elapsed_ms;
   char progress[64];
   if (sw->running && sw->total == 0)
      snprintf(progress, sizeof progress, "listing the configurations");
   else if (sw->running && sw->done > sw->taken) {
      double eta = elapsed / (sw->done - sw->taken) * (sw->total - sw->done) / 1000;
      snprintf(progress, sizeof progress, "ETA %d:%02d", (int)eta / 60, (int)eta % 60);
   } else if (sw->running)
      snprintf(progress, sizeof progress, "ETA -:--");
   else
      snprintf(progress, sizeof progress, "%s in %.1f s", sw->stopped ? "stopped" : "done", elapsed / 1000);
   /* The bar gives way before the words: a learning strategy's name must fit. */
   int bw = w >= 80 ? 20 : w >= 50 ? 14 : 10;
   char bar[256];
   Chart_bar(bar, sizeof bar, sw->total ? (double)sw->done / sw->total : 0, bw, ctx->bars);
   Paint_text(ctx->paint, y, x, 1, "[", ST_DIM, false);
   Paint_text(ctx->paint, y, x + 1, bw, bar, ST_BAR, false);
   Paint_text(ctx->paint, y, x + 1 + bw, 1, "]", ST_DIM, false);
   snprintf(line, sizeof line, " %d/%d  %s | %d valid of %.0f: %s", sw->done, sw->total, progress, sw->valid,
            sw->space, sweepWords(sw));
   Style st = sw->running ? ST_NORMAL : sw->stopped ? ST_WARN : ST_GOOD;
   Paint_text(ctx->paint, y, x + bw + 2, w - bw - 2, line, st, false);
   y++;
   /* The best verified configuration. */
   int b = bestPoint(sw);
   if (y < bottom) {
      if (b >= 0) {
         char params[512], g[32];
         KernelInfo_formatParams(k, sw->points[b].values, params, sizeof params);
         fmtGflops(sw->points[b].gflops, g, sizeof g);
         snprintf(line, sizeof line, "best %s GFLOPS: %s  (B applies it)", g, params);
         Paint_text(ctx->paint, y, x, w, line, ST_GOOD, false);
      } else if (sw->emulated) {
         Paint_text(ctx->paint, y, x, w, "emulated (no tensor cores here): configurations verified, not ranked",
                    ST_WARN, false);
      } else {
         Paint_text(ctx->paint, y, x, w, "best: no verified configuration yet", ST_DIM, false);
      }
      y++;
   }
   /* What was skipped, by reason. */
   if (y < bottom) {
      int skipped = sw->invalid + sw->done - sw->counts[SWEEP_OK];
      int n = snprintf(line, sizeof line, "skipped: %d invalid, %d compile failed, %d wrong result, %d timeout",
                       sw->invalid + sw->counts[SWEEP_INVALID], sw->counts[SWEEP_COMPILE], sw->counts[SWEEP_WRONG],
                       sw->counts[SWEEP_TIMEOUT]);
      if (sw->counts[SWEEP_FAILED])
         n += snprintf(line + n, sizeof line - (size_t)n, ", %d failed", sw->counts[SWEEP_FAILED]);
      if (sw->invalid + sw->counts[SWEEP_INVALID] > 0 && n < (int)sizeof line)
         snprintf(line + n, sizeof line - (size_t)n, "%s", ctx->simulated_note);
      Paint_text(ctx->paint, y, x, w, line, skipped > sw->invalid ? ST_WARN : ST_NORMAL, false);
      y++;
   }
   if (sw->taken && y < bottom) {
      snprintf(line, sizeof line, "%d from the results store, not measured again", sw->taken);
      Paint_text(ctx->paint, y++, x, w, line, ST_DIM, false);
   }
   if (sw->last_skip[0] && bottom - y >= 7) {
      snprintf(line, sizeof line, "last skipped: %s%s", sw->last_skip, ctx->simulated_note);
      Paint_text(ctx->paint, y++, x, w, line, ST_DIM, false);
   }
   drawScatter(ctx, sp, k, x, y, w, bottom);
}

/* ---- its news and keys ---- */

/* The worker's sweep, when it changed. */
static void poll(const PaneCtx *ctx, void *state) {
   SweepPane *sp = state;
   if (Worker_sweep(ctx->worker, sp->sweep, &sp->seen))
      PaneCtx_dirty(ctx);
}

/* Enter applies the sweep's best configuration. */
static bool focusedKey(const PaneCtx *ctx, void *state, int ch) {
   SweepPane *sp = state;
   if (ch != '\n' && ch != '\r' && ch != KEY_ENTER)
      return false;
   applyBest(ctx, sp);
   return true;
}

static void sweepKey(const PaneCtx *ctx, void *state, int ch) {
   SweepPane *sp = state;
   toggleSweep(ctx, sp);
}
static void sweepAxisKey(const PaneCtx *ctx, void *state, int ch) {
   SweepPane *sp = state;
   cycleAxis(ctx, sp);
}
static void sweepBestKey(const PaneCtx *ctx, void *state, int ch) {
   SweepPane *sp = state;
   applyBest(ctx, sp);
}
static void sweepStrategyKey(const PaneCtx *ctx, void *state, int ch) {
   SweepPane *sp = state;
   cycleStrategy(ctx, sp);
}

static const KeyBinding keys[] = {
    {{'S'}, "S", NULL, "sweep the kernel's parameters on this problem / stop it", .on_pane = sweepKey},
    {{'X'}, "X", NULL, "sweep pane: plot GFLOPS against the next parameter", .on_pane = sweepAxisKey},
    {{'B'}, "B", NULL, "apply the sweep's best configuration (Enter in its pane)", .on_pane = sweepBestKey},
    {{'Y'}, "Y", NULL, "sweep: the next search strategy (random, exhaustive, anneal, genetic, bayes)",
     .on_pane = sweepStrategyKey},
};

/* Its copy of the worker's sweep, and the strategy the options name (the first sweep's). */
static bool initSweep(const PaneCtx *ctx, void *state) {
   SweepPane *sp = state;
   sp->strategy = ctx->start->sweep_exhaustive ? SEARCH_EXHAUSTIVE : SEARCH_RANDOM;
   if (ctx->start->sweep_strategy)
      SearchStrategy_parse(ctx->start->sweep_strategy, &sp->strategy); /* the option's choices are the names */
   sp->sweep = calloc(1, sizeof *sp->sweep);
   return sp->sweep != NULL;
}

static void freeSweep(const PaneCtx *ctx, void *state) {
   SweepPane *sp = state;
   free(sp->sweep);
   sp->sweep = NULL;
}

const PaneClass Sweep_pane = {.state_size = sizeof(SweepPane), .init = initSweep, .draw = drawSweep, .key = focusedKey,
                              .keys = keys, .nkeys = 4, .poll = poll, .free = freeSweep};
