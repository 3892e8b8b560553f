/* The lesson pane (8): the step's title and whole text, the figure the source reported,
 * and beside the measured figure what explains it: the access-count model (core/analyse/traffic.h),
 * bank wavefronts against the ideal, registers and occupancy; then the ladder table the
 * class has built so far. Every paragraph is word-wrapped to the pane and the pane scrolls
 * (Up, Down, PgUp, PgDn when focused): nothing is cut. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/analyse/banks.h"
#include "core/analyse/traffic.h"
#include "tui/draw_lesson.h"
#include "tui/panedraw.h"
#include "tui/panes_table.h"
#include "tui/text.h"

/* text word-wrapped after a hanging indent of indent columns (`prefix` on the first line):
 * a table's last column that is never cut. */
static void addHanging(LessonLines *L, Style st, const char *prefix, int indent, const char *text) {
   char buf[8192], line[1024];
   const char *lines[64];
   /* A pane too narrow for the column: the prefix on a line of its own, the text under it. */
   if (L->width - indent < 24) {
      if (prefix[0])
         LessonLines_add(L, prefix, st);
      prefix = "";
      indent = 5;
   }
   const int width = L->width - indent > 16 ? L->width - indent : 16;
   int n = Text_wrap(text, width, buf, sizeof buf, lines, 64);
   for (int i = 0; i < n; i++) {
      snprintf(line, sizeof line, "%-*s%s", indent, i == 0 ? prefix : "", lines[i]);
      LessonLines_add(L, line, st);
   }
}

/* Registers and occupancy: from the inspect pane's reading when it has this configuration,
 * else what the build reported. */
static void explainResources(const PaneCtx *ctx, LessonLines *L) {
   const WorkerSnapshot *s = ctx->snap;
   const WorkerConfig *last = &ctx->inspect->last.config;
   const Inspection *in = ctx->inspect->have ? &ctx->inspect->last.inspection : NULL;
   bool inspected = in && in->ok && !strcmp(last->kernel, ctx->info->name) &&
                    !memcmp(last->values, ctx->values, sizeof last->values);
   int regs = inspected && in->registers >= 0 ? in->registers : ctx->snap_current ? s->result.registers : -1;
   const DeviceInfo *dev = ctx->device;
   char occ[200] = "occupancy: 6 shows the inspect pane, which estimates it";
   /* A CPU has no occupancy to estimate: the inspect pane then compiles for a GPU (T). */
   if (!inspected && regs < 0 && dev && dev->type == DEVICE_CPU)
      snprintf(occ, sizeof occ, "occupancy: none on a CPU (6 then T: a GPU's, compiled offline)");
   if (inspected && in->occ.known)
      snprintf(occ, sizeof occ, "occupancy %.0f%% (%d of %d warps per SM/CU, limited by %s)", 100 * in->occ.fraction,
               in->occ.waves, in->occ.max_waves, in->occ.limited_by ? in->occ.limited_by : "?");
   else if (inspected)
      snprintf(occ, sizeof occ, "occupancy unknown on this device");
   if (regs >= 0)
      LessonLines_para(L, ST_NORMAL, "registers: %d per work-item; %s", regs, occ);
   else
      LessonLines_para(L, ST_DIM, "registers: not reported by this runtime; %s", occ);
   /* An ablation's teaching point (the MAGMA log's): is the loop being optimised out? */
   if (!ctx->ablate)
      return;
   char words[512];
   if (inspected && in->have_real && last->ablate == ctx->ablate) {
      bool kept = Ablate_loopKept(&in->real_stats, &in->stats, ctx->ablate, words, sizeof words);
      LessonLines_para(L, kept ? ST_NORMAL : ST_BAD, "is the loop optimised out? %s: %s", kept ? "no" : "YES", words);
   } else {
      LessonLines_para(L, ST_DIM, "is the loop optimised out? 6 shows the inspect pane, which counts the compiled code of this "
                         "ablation against the real kernel's");
   }
}

/* Bank wavefronts against the ideal, from the trace the bank pane shows; a kernel with no
 * local memory has no bank pane worth opening. */
static void explainBanks(const PaneCtx *ctx, LessonLines *L) {
   if (ctx->info->nsites == 0) {
      LessonLines_para(L, ST_NORMAL, "local-memory banks: none: this kernel uses no local memory (its reuse comes from "
                            "registers and the caches)");
      return;
   }
   const BankAnalysis *a = ctx->banks->have ? ctx->banks->analysis.analysis : NULL;
   bool current = a && ctx->snap->have_config && ctx->banks->analysis.config_serial == ctx->snap->config_serial &&
                  ctx->snap_current;
   if (!current) {
      LessonLines_para(L, ST_DIM, "local-memory banks: %s", ctx->visible & PANE_BIT(PANE_BANKS)
                                                        ? "tracing this configuration (the bank pane)..."
                                                        : "5 shows the bank pane: wavefronts against the ideal");
      return;
   }
   if (!a->total.requests) {
      LessonLines_para(L, ST_NORMAL, "local-memory banks: this kernel makes no local-memory access");
      return;
   }
   double degree = a->total.avg_degree;
   LessonLines_para(L, degree > 1.05 ? ST_WARN : ST_NORMAL,
           "local-memory banks: %lld wavefronts for %lld ideal (%.2fx) over %lld requests, %lld with a conflict; "
           "worst site %.1f-way (the bank pane has each site)",
           a->total.wavefronts, a->total.ideal, degree, a->total.requests, a->total.conflicted,
           a->total.worst_degree);
}

/* What explains the measured figure. */
static void explainStep(const PaneCtx *ctx, LessonLines *L) {
   if (ctx->limits[0])
      LessonLines_para(L, ST_WARN, "simulated limits: %s (this device allows more)", ctx->limits);
   TrafficModel t;
   char err[600], text[700];
   if (Traffic_model(ctx->info, ctx->values, ctx->problem, ctx->device_limits, &t, err, sizeof err)) {
      Traffic_ablate(&t, ctx->ablate, ctx->problem);
      Traffic_describe(&t, text, sizeof text);
      LessonLines_para(L, t.known ? ST_NORMAL : ST_DIM, "access model: %s", text);
   } else {
      LessonLines_para(L, ST_BAD, "access model: %s", err);
   }
   explainBanks(ctx, L);
   explainResources(ctx, L);
}

/* What limits the step, as the roofline pane (0) and `gemmtop explain` say; after the
 * ladder, which a class reads first. */
static void limitOfStep(const PaneCtx *ctx, const LessonPane *lu, LessonLines *L) {
   LimiterInputs in;
   Limiter l;
   char msg[256];
   if (!PaneCtx_limiter(ctx, &in, &l, msg, sizeof msg))
      return;
   LessonLines_para(L, l.kind == LIMIT_COMPUTE ? ST_GOOD : ST_NORMAL, "limit of this step: %s (0: the roofline)", l.brief);
   /* How the step moved it: the limiter of the nearest earlier step measured with the
    * ceilings known. */
   int before = Ladder_previousLimit(&lu->ladder, lu->step);
   if (before >= 0 && (in.peak_gflops > 0 || in.copy_gbps > 0))
      LessonLines_para(L, ST_DIM, "before it, step %d was limited by %s: %s", before + 1, lu->ladder.rows[before].limit,
              strcmp(lu->ladder.rows[before].limit, l.brief) ? "this step moved the limit" : "the same limit");
}

static void ladderRows(const PaneCtx *ctx, const LessonPane *lu, LessonLines *L) {
   const Ladder *ld = &lu->ladder;
   char row[512];
   LessonLines_add(L, "", ST_NORMAL);
   snprintf(row, sizeof row, "ladder: %d of %d steps  (E exports Markdown, CSV, SVG)", Ladder_done(ld), ld->nrows);
   LessonLines_add(L, row, ST_LABEL);
   /* The full row is 53 columns before the title; a narrower pane (80x24) keeps the step,
    * its figure, the step before and the best, and says where the others are. */
   const int full = 2 + 4 + 1 + 10 + 1 + 8 + 1 + 8 + 1 + 7 + 1 + 8 + 2;
   const bool narrow = L->width < full;
   if (narrow)
      snprintf(row, sizeof row, "  %-4s %10s %8s %7s  %s", "step", "GFLOPS", "vs prev", "% best", "title");
   else
      snprintf(row, sizeof row, "  %-4s %10s %8s %8s %7s %8s  %s", "step", "GFLOPS", "vs prev", "vs 1", "% best",
               "vs real", L->width >= full + 40 ? "title; under it, what the source reported" : "title");
   LessonLines_add(L, row, ST_LABEL);
   if (narrow)
      LessonLines_para(L, ST_DIM, "(against step 1 and the source's figure: in the export, E)");
   LessonLines_para(L, ST_DIM, "%s: within the two figures' spread, the steps cannot be told apart here",
           Paint_glyph(ctx->paint, "\xe2\x89\x88", "~"));
   const Lesson *lesson = LessonPane_lesson(lu);
   for (int i = 0; i < ld->nrows; i++) {
      const LadderRow *r = &ld->rows[i];
      char gf[48] = "-", sp[16] = "-", sf[16] = "-", pb[16] = "-", vr[16] = "-";
      if (r->measured)
         snprintf(gf, sizeof gf, "%.1f%s", r->gflops, r->ablated ? " abl" : r->emulated ? " emu" : "");
      else if (r->refused[0])
         snprintf(gf, sizeof gf, "refused");
      /* A ratio within the two figures' spread: the steps cannot be told apart here. */
      const char *approx = Paint_glyph(ctx->paint, "\xe2\x89\x88", "~");
      if (Ladder_speedupPrevious(ld, i) > 0)
         snprintf(sp, sizeof sp, "%s%.2fx", Ladder_withinSpread(ld, i, i - 1) ? approx : "",
                  Ladder_speedupPrevious(ld, i));
      if (Ladder_speedupFirst(ld, i) > 0)
         snprintf(sf, sizeof sf, "%s%.2fx", Ladder_withinSpread(ld, i, 0) ? approx : "", Ladder_speedupFirst(ld, i));
      if (Ladder_ranked(ld, i))
         snprintf(pb, sizeof pb, "%.0f%%", Ladder_percentOfBest(ld, i));
      if (Ladder_vsReal(ld, i) > 0)
         snprintf(vr, sizeof vr, "%s%.2fx", Ladder_withinSpread(ld, i, Ladder_realRow(ld, i)) ? approx : "",
                  Ladder_vsReal(ld, i));
      /* The figures, then the step's title and the source's figure, wrapped under the last
       * column: labelled rows, nothing cut. */
      const Style st = i == lu->step ? ST_SELECT : r->measured || r->refused[0] ? ST_NORMAL : ST_DIM;
      const LessonStep *ls = lesson && i < lesson->nsteps ? &lesson->steps[i] : NULL;
      const int indent = narrow ? 2 + 4 + 1 + 10 + 1 + 8 + 1 + 7 + 2 : full;
      if (narrow)
         snprintf(row, sizeof row, "%s %-4d %10s %8s %7s  ", i == lu->step ? ">" : " ", i + 1, gf, sp, pb);
      else
         snprintf(row, sizeof row, "%s %-4d %10s %8s %8s %7s %8s  ", i == lu->step ? ">" : " ", i + 1, gf, sp, sf, pb,
                  vr);
      addHanging(L, st, row, indent, ls && ls->title[0] ? ls->title : ls ? ls->preset : "-");
      if (r->reference[0])
         addHanging(L, ST_DIM, "", indent, r->reference);
   }
   if (lu->exported[0])
      LessonLines_para(L, ST_DIM, "exported: %s", lu->exported);
}

/* Rows of text s word-wrapped to width. */
static int wrappedRows(const char *s, int width) {
   char buf[8192];
   const char *lines[64];
   return Text_wrap(s, width, buf, sizeof buf, lines, 64);
}

/* The rows (its title row included) the pane needs at a width for what must stay in view:
 * the step's heading, its measured figure and its whole text, as long as the lesson's
 * longest step needs, so that the layout keeps from step to step (0: no lesson). */
static int paneRows(const PaneCtx *ctx, const LessonPane *lp, int width) {
   const Lesson *lesson = LessonPane_lesson(lp);
   if (!lesson)
      return 0;
   LessonLines L;
   memset(&L, 0, sizeof L);
   L.width = width - 2 > 10 ? width - 2 : 10;
   LessonLines_step(ctx, lp, &L);
   free(L.buf);
   int rows = L.n;
   /* The longest step of the lesson with the longest figure line, so that the panes keep
    * their places from step to step. */
   char head[256], text[4096];
   const int figure = wrappedRows("measured: 12345.6 GFLOPS (spread 10%), verified (emulated: not ranked)", L.width);
   for (int i = 0; i < lesson->nsteps; i++) {
      const LessonStep *st = &lesson->steps[i];
      snprintf(head, sizeof head, "Step %d of %d: %s", i + 1, lesson->nsteps, st->title[0] ? st->title : st->preset);
      snprintf(text, sizeof text, "%s", st->text ? st->text : "");
      for (char *c = text; *c; c++)
         if (*c == '\n')
            *c = ' ';
      int r = wrappedRows(head, L.width) + figure + (text[0] ? wrappedRows(text, L.width) : 0);
      if (r > rows)
         rows = r;
   }
   return 1 + rows; /* the pane's title row */
}

static void build(const PaneCtx *ctx, const LessonPane *lu, LessonLines *L) {
   const Lesson *lesson = LessonPane_lesson(lu);
   if (!lesson) {
      LessonLines_para(L, ST_DIM, "No lesson is being taught. L chooses one; 'gemmtop lesson NAME' starts one. A lesson "
                         "is a ladder taught step by step: n and N move between its steps.");
      return;
   }
   const LessonStep *st = &lesson->steps[lu->step];
   /* The lesson's title above the step only where the step's lines still fit under it:
    * the pane's title names the lesson anyway. */
   if (L->height >= paneRows(ctx, lu, L->width + 2) - 1 + wrappedRows(lesson->title, L->width))
      LessonLines_para(L, ST_LABEL, "%s", lesson->title);
   LessonLines_step(ctx, lu, L);
   if (!lu->step_loaded)
      return;
   /* The lecturer's notes only when asked for: the pane is what the class sees. */
   if (st->notes && lu->show_notes)
      LessonLines_rendered(ctx, L, ST_WARN, "notes (o hides them): ", st->notes);
   else if (st->notes)
      LessonLines_para(L, ST_DIM, "o: the lecturer's notes for this step");
   /* The introduction (the lesson's caveats among it) after the first step's text; I keeps
    * it on every step. */
   if (lesson->about && (lu->step == 0 || lu->show_about))
      LessonLines_rendered(ctx, L, ST_NORMAL, "", lesson->about);
   else if (lesson->about)
      LessonLines_para(L, ST_DIM, "I shows the lesson's introduction");
   LessonLines_para(L, ST_DIM, "preset %s%s%s", st->preset, st->ablate ? ", ablated" : "", st->limits[0] ? ", simulated limits" : "");
   const LessonSize size = LessonSize_forStep(&lu->sizing, st);
   if (size.cpu_shape)
      LessonLines_para(L, ST_DIM, "size: %dx%dx%d on this CPU, the lesson's shape scaled for a CPU (the presets' sizes are a "
                         "GPU's; 'gemmtop lesson %s --size N' runs another)", size.dims[0], size.dims[1],
              size.dims[2], lesson->name);
   else if (size.cap)
      LessonLines_para(L, ST_DIM, "size: at most %d on this CPU (the presets' sizes are a GPU's; 'gemmtop lesson %s --size N' "
                         "runs another)", size.cap, lesson->name);
   const DeviceInfo *dev = ctx->device;
   if (dev && dev->type == DEVICE_CPU)
      LessonLines_para(L, ST_WARN, "on a CPU the ladder may invert: it has no local-memory banks and no GPU's memory "
                          "hierarchy, so a step made for a GPU (local memory, padding, double buffering) can be "
                          "slower here. Watch what holds on any device: the access model and the bank grid.");
   /* The ablation's reading rules are a GPU's (docs/lesson-magma.md): said where they fail. */
   if (dev && dev->type == DEVICE_CPU && st->ablate)
      LessonLines_para(L, ST_WARN, "ablation on a CPU: the reading rules (a big drop without A's loads: A's traffic or latency "
                          "limits; little change without the multiply-adds: not compute bound) assume a GPU's "
                          "memory system and latency hiding; a CPU's caches, prefetchers and out-of-order cores answer "
                          "differently, and its compiler may vectorise the ablated loop otherwise. Here the figures say "
                          "what each switch costs on this CPU, not what limits the kernel on a GPU.");
   LessonLines_para(L, ST_NORMAL, "the source reported: %s", st->reference[0] ? st->reference : "nothing for this step");
   LessonLines_add(L, "", ST_NORMAL);
   if (!LessonPane_onStep(ctx, lu))
      LessonLines_para(L, ST_WARN, "the configuration was changed since the step loaded: the figures below are not the "
                          "step's and stay out of the ladder (n or N, then back, loads the step again)");
   explainStep(ctx, L);
   ladderRows(ctx, lu, L);
   limitOfStep(ctx, lu, L);
}

static void drawLesson(const PaneCtx *ctx, void *state) {
   LessonPane *lp = state;
   Rect r = ctx->area;
   LessonLines L;
   memset(&L, 0, sizeof L);
   L.width = r.w - 2 > 10 ? r.w - 2 : 10;
   int body = r.h - 1;
   L.height = body;
   build(ctx, lp, &L);
   int scroll = lp->scroll;
   if (scroll > L.n - body)
      scroll = L.n - body;
   if (scroll < 0)
      scroll = 0;
   lp->scroll = scroll;
   const Lesson *lesson = LessonPane_lesson(lp);
   char extra[160] = "", right[64] = "";
   if (lesson)
      snprintf(extra, sizeof extra, "%s: step %d/%d", lesson->name, lp->step + 1, lesson->nsteps);
   int last = scroll + body < L.n ? scroll + body : L.n;
   if (L.n > body)
      snprintf(right, sizeof right, "lines %d-%d of %d", scroll + 1, last, L.n);
   else
      snprintf(right, sizeof right, "n next  N previous");
   /* In a narrow pane the step's heading comes first: the line count in short. */
   if (L.n > body && (int)strlen(extra) + (int)strlen(right) + 14 > r.w)
      snprintf(right, sizeof right, "%d-%d/%d", scroll + 1, last, L.n);
   Draw_paneTitle(ctx, extra, right);
   for (int i = 0; i < body && scroll + i < L.n; i++)
      Paint_text(ctx->paint, r.y + 1 + i, r.x + 1, r.w - 2, L.buf + L.at[scroll + i], L.style[scroll + i], false);
   free(L.buf);
}

/* ---- its keys ---- */

/* Focused: the keys that scroll it. */
static bool focusedKey(const PaneCtx *ctx, void *state, int ch) {
   if (PaneCtx_isSteppingKey(ch))
      return false;
   LessonPane *lp = state;
   int page = ctx->area.h - 2;
   page = page > 1 ? page : 1;
   switch (ch) {
   case KEY_UP: case 'k': lp->scroll--; break;
   case KEY_DOWN: case 'j': lp->scroll++; break;
   case KEY_PPAGE: lp->scroll -= page; break;
   case KEY_NPAGE: lp->scroll += page; break;
   case KEY_HOME: lp->scroll = 0; break;
   case KEY_END: lp->scroll = LESSON_MAX_LINES; break; /* drawing keeps the last page in view */
   default: return true;
   }
   if (lp->scroll < 0)
      lp->scroll = 0;
   return true;
}

static void lessonStepKey(const PaneCtx *ctx, void *state, int ch) { LessonPane_stepBy(ctx, state, ch == 'N' ? -1 : 1); }
static void lessonExportKey(const PaneCtx *ctx, void *state, int ch) { LessonPane_export(ctx, state); }
static void lessonAboutKey(const PaneCtx *ctx, void *state, int ch) { LessonPane_toggleAbout(ctx, state); }
static void lessonNotesKey(const PaneCtx *ctx, void *state, int ch) { LessonPane_toggleNotes(ctx, state); }
static void lessonGoToKey(const PaneCtx *ctx, void *state, int ch) { LessonPane_goToStart(ctx, state); }
static bool goToKey(const PaneCtx *ctx, void *state, int ch) { return LessonPane_goToKey(ctx, state, ch); }
static int rows(const PaneCtx *ctx, void *state, int width) { return paneRows(ctx, state, width); }
static void snapshot(const PaneCtx *ctx, void *state) { LessonPane_poll(ctx, state); }
static bool init(const PaneCtx *ctx, void *state) {
   LessonPane_init(state);
   return true;
}
static void freeLesson(const PaneCtx *ctx, void *state) { LessonPane_free(state); }

static const KeyBinding keys[] = {
    {{'n', 'N'}, "n N", NULL,
     "lesson: next / previous step: its preset whole (the whole problem),\nwith its simulated limits and ablation",
     .on_pane = lessonStepKey},
    {{'E'}, "E", NULL, "lesson: export the ladder (Markdown, CSV, SVG) into this folder", .on_pane = lessonExportKey},
    {{'I'}, "I", NULL, "lesson: its introduction on every step (or on the first only)", .on_pane = lessonAboutKey},
    {{'o'}, "o", NULL, "lesson: the lecturer's speaker notes (notes =) in its pane, or hidden",
     .on_pane = lessonNotesKey},
    {{'g'}, "g", NULL, "lesson: go to a step: type its number, then Enter (Esc: stay)", .on_pane = lessonGoToKey},
};

const PaneClass Lesson_pane = {.state_size = sizeof(LessonPane), .init = init, .draw = drawLesson,
                               .key = focusedKey, .keys = keys, .nkeys = 5, .capture = goToKey, .rows = rows,
                               .snapshot = snapshot, .free = freeLesson};
