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
#include "core/model/config.h"
#include "core/analyse/traffic.h"
#include "base/util.h"
#include "tui/app.h"
#include "tui/lesson_ui.h"
#include "tui/text.h"

#define MAX_LINES 400

typedef struct {
   char *buf;                 /* every line's text, one after another */
   size_t len, cap;
   size_t at[MAX_LINES];      /* where each line starts in buf */
   Style style[MAX_LINES];
   int n;
   int width;
   int height;                /* the pane's rows for text */
} Lines;

static void addLine(Lines *L, const char *s, Style st) {
   size_t n = strlen(s) + 1;
   if (L->n == MAX_LINES)
      return;
   if (L->len + n > L->cap) {
      size_t cap = (L->cap + n) * 2;
      char *b = realloc(L->buf, cap);
      if (!b)
         return;
      L->buf = b;
      L->cap = cap;
   }
   memcpy(L->buf + L->len, s, n);
   L->at[L->n] = L->len;
   L->style[L->n++] = st;
   L->len += n;
}

/* A paragraph, word-wrapped to the pane (the file's line breaks are not the screen's). */
static void addPara(Lines *L, Style st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void addPara(Lines *L, Style st, const char *fmt, ...) {
   char text[4096];
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(text, sizeof text, fmt, ap);
   va_end(ap);
   for (char *c = text; *c; c++)
      if (*c == '\n')
         *c = ' ';
   char buf[8192];
   const char *lines[64];
   int n = Text_wrap(text, L->width, buf, sizeof buf, lines, 64);
   for (int i = 0; i < n; i++)
      addLine(L, lines[i], st);
}

/* text word-wrapped after a hanging indent of indent columns (`prefix` on the first line):
 * a table's last column that is never cut. */
static void addHanging(Lines *L, Style st, const char *prefix, int indent, const char *text) {
   char buf[8192], line[1024];
   const char *lines[64];
   /* A pane too narrow for the column: the prefix on a line of its own, the text under it. */
   if (L->width - indent < 24) {
      if (prefix[0])
         addLine(L, prefix, st);
      prefix = "";
      indent = 5;
   }
   const int width = L->width - indent > 16 ? L->width - indent : 16;
   int n = Text_wrap(text, width, buf, sizeof buf, lines, 64);
   for (int i = 0; i < n; i++) {
      snprintf(line, sizeof line, "%-*s%s", indent, i == 0 ? prefix : "", lines[i]);
      addLine(L, line, st);
   }
}

/* Registers and occupancy: from the inspect pane's reading when it has this configuration,
 * else what the build reported. */
static void explainResources(Ui *ui, Lines *L) {
   const WorkerSnapshot *s = &ui->snap;
   const Inspection *in = ui->inspect_pane.have ? &ui->inspect_pane.last.inspection : NULL;
   bool inspected = in && in->ok && !strcmp(ui->inspect_pane.last.config.kernel, Ui_kernel(ui)->name) &&
                    !memcmp(ui->inspect_pane.last.config.values, ui->values, sizeof ui->values);
   int regs = inspected && in->registers >= 0 ? in->registers : Ui_snapIsCurrent(ui) ? s->result.registers : -1;
   const DeviceInfo *dev = Ui_deviceInfo(ui);
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
      addPara(L, ST_NORMAL, "registers: %d per work-item; %s", regs, occ);
   else
      addPara(L, ST_DIM, "registers: not reported by this runtime; %s", occ);
   /* An ablation's teaching point (the MAGMA log's): is the loop being optimised out? */
   if (!ui->ablate)
      return;
   char words[512];
   if (inspected && in->have_real && ui->inspect_pane.last.config.ablate == ui->ablate) {
      bool kept = Ablate_loopKept(&in->real_stats, &in->stats, ui->ablate, words, sizeof words);
      addPara(L, kept ? ST_NORMAL : ST_BAD, "is the loop optimised out? %s: %s", kept ? "no" : "YES", words);
   } else {
      addPara(L, ST_DIM, "is the loop optimised out? 6 shows the inspect pane, which counts the compiled code of this "
                         "ablation against the real kernel's");
   }
}

/* Bank wavefronts against the ideal, from the trace the bank pane shows; a kernel with no
 * local memory has no bank pane worth opening. */
static void explainBanks(Ui *ui, Lines *L) {
   if (Ui_kernel(ui)->nsites == 0) {
      addPara(L, ST_NORMAL, "local-memory banks: none: this kernel uses no local memory (its reuse comes from "
                            "registers and the caches)");
      return;
   }
   const BankAnalysis *a = ui->banks_pane.have ? ui->banks_pane.analysis.analysis : NULL;
   bool current = a && ui->snap.have_config && ui->banks_pane.analysis.config_serial == ui->snap.config_serial &&
                  Ui_snapIsCurrent(ui);
   if (!current) {
      addPara(L, ST_DIM, "local-memory banks: %s", ui->visible & PANE_BIT(PANE_BANKS)
                                                        ? "tracing this configuration (the bank pane)..."
                                                        : "5 shows the bank pane: wavefronts against the ideal");
      return;
   }
   if (!a->total.requests) {
      addPara(L, ST_NORMAL, "local-memory banks: this kernel makes no local-memory access");
      return;
   }
   double degree = a->total.avg_degree;
   addPara(L, degree > 1.05 ? ST_WARN : ST_NORMAL,
           "local-memory banks: %lld wavefronts for %lld ideal (%.2fx) over %lld requests, %lld with a conflict; "
           "worst site %.1f-way (the bank pane has each site)",
           a->total.wavefronts, a->total.ideal, degree, a->total.requests, a->total.conflicted,
           a->total.worst_degree);
}

/* Before a step's first figure: how long a launch should take, judged by the nearest
 * earlier step measured here, when that is more than a few seconds (a GPU's size on a
 * slow device), so that a class is not left waiting without a word. */
static void expectedTime(Ui *ui, Lines *L) {
   const LessonUi *lu = ui->lesson;
   if (!lu)
      return;
   int basis;
   double seconds = Ladder_expectedSeconds(&lu->ladder, lu->step, Problem_flops(&ui->problem), &basis);
   if (seconds > 3)
      addPara(L, ST_WARN, "expect about %.0f s a launch here, after the compile (step %d ran at %.1f GFLOPS on this "
                          "device); a smaller size: 'gemmtop lesson NAME --size N'",
              seconds, basis + 1, lu->ladder.rows[basis].gflops);
}

/* The measured figure, first under the step's title: on a small terminal it stays in view. */
static void measuredLine(Ui *ui, Lines *L) {
   const WorkerSnapshot *s = &ui->snap;
   bool current = Ui_snapIsCurrent(ui);
   char gf[64];
   Draw_fmtRate(s->gflops, "GFLOPS", gf, sizeof gf);
   if (!current || !s->have_result) {
      addPara(L, ST_DIM, "measured: waiting for its first run");
      expectedTime(ui, L);
   }
   else if (Ui_snapRefused(ui))
      addPara(L, ST_WARN, "refused: %s", s->result.message);
   else if (s->state == WS_STOPPED)
      addPara(L, ST_BAD, "did not run: %s: %s", RunStatus_name(s->result.status), s->result.message);
   else if (ui->ablate && s->nwindow) {
      char names[64];
      Ablate_name(ui->ablate, names, sizeof names);
      addPara(L, ST_WARN, "measured: %s ABLATED (%s): not a GEMM result, not verified, never ranked", gf, names);
   } else if (s->nwindow && s->result.verified_run && s->result.verify.ok)
      addPara(L, ST_GOOD, "measured: %s (spread %.0f%%), verified%s", gf, s->spread_pct,
              s->result.geo.emulated ? " (emulated: not ranked)" : "");
   else if (s->nwindow && s->result.verified_run)
      addPara(L, ST_BAD, "measured: %s but NOT VERIFIED: %s", gf, s->result.verify.message);
   else
      addPara(L, ST_DIM, "measured: verifying...");
}

/* What explains the measured figure. */
static void explainStep(Ui *ui, Lines *L) {
   if (ui->limits[0])
      addPara(L, ST_WARN, "simulated limits: %s (this device allows more)", ui->limits);
   TrafficModel t;
   char err[600], text[700];
   if (Traffic_model(Ui_kernel(ui), ui->values, &ui->problem, Ui_limits(ui), &t, err, sizeof err)) {
      Traffic_ablate(&t, ui->ablate, &ui->problem);
      Traffic_describe(&t, text, sizeof text);
      addPara(L, t.known ? ST_NORMAL : ST_DIM, "access model: %s", text);
   } else {
      addPara(L, ST_BAD, "access model: %s", err);
   }
   explainBanks(ui, L);
   explainResources(ui, L);
}

/* What limits the step, as the roofline pane (0) and `gemmtop explain` say; after the
 * ladder, which a class reads first. */
static void limitOfStep(const PaneCtx *ctx, Ui *ui, Lines *L) {
   LimiterInputs in;
   Limiter l;
   char msg[256];
   if (!PaneCtx_limiter(ctx, &in, &l, msg, sizeof msg))
      return;
   addPara(L, l.kind == LIMIT_COMPUTE ? ST_GOOD : ST_NORMAL, "limit of this step: %s (0: the roofline)", l.brief);
   /* How the step moved it: the limiter of the nearest earlier step measured with the
    * ceilings known. */
   const LessonUi *lu = ui->lesson;
   int before = lu ? Ladder_previousLimit(&lu->ladder, lu->step) : -1;
   if (before >= 0 && (in.peak_gflops > 0 || in.copy_gbps > 0))
      addPara(L, ST_DIM, "before it, step %d was limited by %s: %s", before + 1, lu->ladder.rows[before].limit,
              strcmp(lu->ladder.rows[before].limit, l.brief) ? "this step moved the limit" : "the same limit");
}

static void ladderRows(Ui *ui, Lines *L) {
   const LessonUi *lu = ui->lesson;
   const Ladder *ld = &lu->ladder;
   char row[512];
   addLine(L, "", ST_NORMAL);
   snprintf(row, sizeof row, "ladder: %d of %d steps  (E exports Markdown, CSV, SVG)", Ladder_done(ld), ld->nrows);
   addLine(L, row, ST_LABEL);
   /* The full row is 53 columns before the title; a narrower pane (80x24) keeps the step,
    * its figure, the step before and the best, and says where the others are. */
   const int full = 2 + 4 + 1 + 10 + 1 + 8 + 1 + 8 + 1 + 7 + 1 + 8 + 2;
   const bool narrow = L->width < full;
   if (narrow)
      snprintf(row, sizeof row, "  %-4s %10s %8s %7s  %s", "step", "GFLOPS", "vs prev", "% best", "title");
   else
      snprintf(row, sizeof row, "  %-4s %10s %8s %8s %7s %8s  %s", "step", "GFLOPS", "vs prev", "vs 1", "% best",
               "vs real", L->width >= full + 40 ? "title; under it, what the source reported" : "title");
   addLine(L, row, ST_LABEL);
   if (narrow)
      addPara(L, ST_DIM, "(against step 1 and the source's figure: in the export, E)");
   addPara(L, ST_DIM, "%s: within the two figures' spread, the steps cannot be told apart here",
           Paint_glyph(&ui->paint, "\xe2\x89\x88", "~"));
   const Lesson *lesson = LessonUi_lesson(ui);
   for (int i = 0; i < ld->nrows; i++) {
      const LadderRow *r = &ld->rows[i];
      char gf[48] = "-", sp[16] = "-", sf[16] = "-", pb[16] = "-", vr[16] = "-";
      if (r->measured)
         snprintf(gf, sizeof gf, "%.1f%s", r->gflops, r->ablated ? " abl" : r->emulated ? " emu" : "");
      else if (r->refused[0])
         snprintf(gf, sizeof gf, "refused");
      /* A ratio within the two figures' spread: the steps cannot be told apart here. */
      const char *approx = Paint_glyph(&ui->paint, "\xe2\x89\x88", "~");
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
      addPara(L, ST_DIM, "exported: %s", lu->exported);
}

/* A placeholder of a lesson's text ({EXPR}), for the configuration on screen. */
static bool evalOnScreen(void *ctx, const char *expr, long long *v, char *why, size_t whylen) {
   Ui *ui = ctx;
   return Config_eval(Ui_kernel(ui), ui->values, &ui->problem, Ui_limits(ui), expr, v, why, whylen);
}

/* A lesson's text with its counts computed for the configuration on screen, wrapped. */
static void addRendered(Ui *ui, Lines *L, Style st, const char *prefix, const char *text) {
   char out[4096];
   if (!Lesson_render(text, evalOnScreen, ui, out, sizeof out))
      st = ST_BAD; /* longer than any lesson's: shown as far as it goes, in red */
   addPara(L, st, "%s%s", prefix, out);
}

/* What must stay in view wherever the step is shown (this pane, the bank pane's zoom): its
 * heading, the figure measured (or why there is none) and its whole text. */
static void stepLines(Ui *ui, Lines *L) {
   const Lesson *lesson = LessonUi_lesson(ui);
   const LessonUi *lu = ui->lesson;
   const LessonStep *st = &lesson->steps[lu->step];
   addPara(L, ST_GOOD, "Step %d of %d: %s", lu->step + 1, lesson->nsteps, st->title[0] ? st->title : st->preset);
   if (!lu->step_loaded) {
      addPara(L, ST_BAD, "%s", lu->step_error);
      return;
   }
   measuredLine(ui, L);
   if (st->text)
      addRendered(ui, L, ST_NORMAL, "", st->text);
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
static int paneRows(Ui *ui, int width) {
   const Lesson *lesson = LessonUi_lesson(ui);
   if (!lesson)
      return 0;
   Lines L;
   memset(&L, 0, sizeof L);
   L.width = width - 2 > 10 ? width - 2 : 10;
   stepLines(ui, &L);
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

void LessonUi_stepText(Ui *ui, int width, void (*emit)(void *ctx, const char *line, int style), void *ctx) {
   if (!LessonUi_lesson(ui))
      return;
   Lines L;
   memset(&L, 0, sizeof L);
   L.width = width > 10 ? width : 10;
   stepLines(ui, &L);
   for (int i = 0; i < L.n; i++)
      emit(ctx, L.buf + L.at[i], (int)L.style[i]);
   free(L.buf);
}

static void build(const PaneCtx *ctx, Ui *ui, Lines *L) {
   const Lesson *lesson = LessonUi_lesson(ui);
   const LessonUi *lu = ui->lesson;
   if (!lesson) {
      addPara(L, ST_DIM, "No lesson is being taught. L chooses one; 'gemmtop lesson NAME' starts one. A lesson "
                         "is a ladder taught step by step: n and N move between its steps.");
      return;
   }
   const LessonStep *st = &lesson->steps[lu->step];
   /* The lesson's title above the step only where the step's lines still fit under it:
    * the pane's title names the lesson anyway. */
   if (L->height >= paneRows(ui, L->width + 2) - 1 + wrappedRows(lesson->title, L->width))
      addPara(L, ST_LABEL, "%s", lesson->title);
   stepLines(ui, L);
   if (!lu->step_loaded)
      return;
   /* The lecturer's notes only when asked for: the pane is what the class sees. */
   if (st->notes && lu->show_notes)
      addRendered(ui, L, ST_WARN, "notes (o hides them): ", st->notes);
   else if (st->notes)
      addPara(L, ST_DIM, "o: the lecturer's notes for this step");
   /* The introduction (the lesson's caveats among it) after the first step's text; I keeps
    * it on every step. */
   if (lesson->about && (lu->step == 0 || lu->show_about))
      addRendered(ui, L, ST_NORMAL, "", lesson->about);
   else if (lesson->about)
      addPara(L, ST_DIM, "I shows the lesson's introduction");
   addPara(L, ST_DIM, "preset %s%s%s", st->preset, st->ablate ? ", ablated" : "", st->limits[0] ? ", simulated limits" : "");
   const LessonSize size = LessonSize_forStep(&lu->sizing, st);
   if (size.cpu_shape)
      addPara(L, ST_DIM, "size: %dx%dx%d on this CPU, the lesson's shape scaled for a CPU (the presets' sizes are a "
                         "GPU's; 'gemmtop lesson %s --size N' runs another)", size.dims[0], size.dims[1],
              size.dims[2], lesson->name);
   else if (size.cap)
      addPara(L, ST_DIM, "size: at most %d on this CPU (the presets' sizes are a GPU's; 'gemmtop lesson %s --size N' "
                         "runs another)", size.cap, lesson->name);
   const DeviceInfo *dev = Ui_deviceInfo(ui);
   if (dev && dev->type == DEVICE_CPU)
      addPara(L, ST_WARN, "on a CPU the ladder may invert: it has no local-memory banks and no GPU's memory "
                          "hierarchy, so a step made for a GPU (local memory, padding, double buffering) can be "
                          "slower here. Watch what holds on any device: the access model and the bank grid.");
   /* The ablation's reading rules are a GPU's (docs/lesson-magma.md): said where they fail. */
   if (dev && dev->type == DEVICE_CPU && st->ablate)
      addPara(L, ST_WARN, "ablation on a CPU: the reading rules (a big drop without A's loads: A's traffic or latency "
                          "limits; little change without the multiply-adds: not compute bound) assume a GPU's "
                          "memory system and latency hiding; a CPU's caches, prefetchers and out-of-order cores answer "
                          "differently, and its compiler may vectorise the ablated loop otherwise. Here the figures say "
                          "what each switch costs on this CPU, not what limits the kernel on a GPU.");
   addPara(L, ST_NORMAL, "the source reported: %s", st->reference[0] ? st->reference : "nothing for this step");
   addLine(L, "", ST_NORMAL);
   if (!LessonUi_onStep(ui))
      addPara(L, ST_WARN, "the configuration was changed since the step loaded: the figures below are not the "
                          "step's and stay out of the ladder (n or N, then back, loads the step again)");
   explainStep(ui, L);
   ladderRows(ui, L);
   limitOfStep(ctx, ui, L);
}

static void drawLesson(const PaneCtx *ctx, void *state) {
   Ui *ui = state;
   Rect r = ctx->area;
   Lines L;
   memset(&L, 0, sizeof L);
   L.width = r.w - 2 > 10 ? r.w - 2 : 10;
   int body = r.h - 1;
   L.height = body;
   build(ctx, ui, &L);
   int scroll = ui->lesson ? ui->lesson->scroll : 0;
   if (scroll > L.n - body)
      scroll = L.n - body;
   if (scroll < 0)
      scroll = 0;
   if (ui->lesson)
      ui->lesson->scroll = scroll;
   const Lesson *lesson = LessonUi_lesson(ui);
   char extra[160] = "", right[64] = "";
   if (lesson)
      snprintf(extra, sizeof extra, "%s: step %d/%d", lesson->name, ui->lesson->step + 1, lesson->nsteps);
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
      Paint_text(&ui->paint, r.y + 1 + i, r.x + 1, r.w - 2, L.buf + L.at[scroll + i], L.style[scroll + i], false);
   free(L.buf);
}

static void paneKey(const PaneCtx *ctx, Ui *ui, int ch) {
   if (!ui->lesson)
      return;
   int page = ctx->area.h - 2;
   page = page > 1 ? page : 1;
   switch (ch) {
   case KEY_UP: case 'k': ui->lesson->scroll--; break;
   case KEY_DOWN: case 'j': ui->lesson->scroll++; break;
   case KEY_PPAGE: ui->lesson->scroll -= page; break;
   case KEY_NPAGE: ui->lesson->scroll += page; break;
   case KEY_HOME: ui->lesson->scroll = 0; break;
   case KEY_END: ui->lesson->scroll = MAX_LINES; break; /* drawing keeps the last page in view */
   default: return;
   }
   if (ui->lesson->scroll < 0)
      ui->lesson->scroll = 0;
}

/* ---- its keys ---- */

/* The lesson pane's state is the whole explorer (lesson_ui.h says why). */
static bool focusedKey(const PaneCtx *ctx, void *state, int ch) {
   if (PaneCtx_isSteppingKey(ch))
      return false;
   paneKey(ctx, state, ch);
   return true;
}

static void lessonStepKey(const PaneCtx *ctx, void *state, int ch) { LessonUi_stepBy(state, ch == 'N' ? -1 : 1); }
static void lessonExportKey(const PaneCtx *ctx, void *state, int ch) { LessonUi_export(state); }
static void lessonAboutKey(const PaneCtx *ctx, void *state, int ch) { LessonUi_toggleAbout(state); }
static void lessonNotesKey(const PaneCtx *ctx, void *state, int ch) { LessonUi_toggleNotes(state); }
static void lessonGoToKey(const PaneCtx *ctx, void *state, int ch) { LessonUi_goToStart(state); }
static bool goToKey(const PaneCtx *ctx, void *state, int ch) { return LessonUi_goToKey(state, ch); }
static int rows(const PaneCtx *ctx, void *state, int width) { return paneRows(state, width); }
static void snapshot(const PaneCtx *ctx, void *state) { LessonUi_poll(ctx, state); }

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

const PaneClass Lesson_pane = {.draw = drawLesson, .key = focusedKey, .keys = keys, .nkeys = 5,
                               .capture = goToKey, .rows = rows, .snapshot = snapshot};
