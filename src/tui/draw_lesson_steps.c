/* The lesson pane's steps (draw_lesson.h): a step loads its preset whole (PaneCtx_loadPreset,
 * preset_ui.c's) with the step's ablation and simulated limits, nothing else carried over;
 * the worker's figures of exactly that configuration fill the step's row of the ladder; the
 * chooser and the export. What a step does to the rest of the explorer (the panes it shows,
 * the bank grid zoomed, the footer, the log) goes through its context's verbs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "core/run/ablate.h"
#include "base/outfile.h"
#include "base/util.h"
#include "tui/draw_lesson.h"
#include "tui/layout.h"
#include "tui/text.h"

void LessonPane_init(LessonPane *L) {
   memset(L, 0, sizeof *L);
   L->current = -1;
}

static void loadList(const PaneCtx *ctx, LessonPane *L) {
   if (L->loaded)
      return;
   char dir[1200], err[256];
   bool shipped = Lesson_defaultDir(ctx->kernels_dir, dir, sizeof dir);
   LessonList_load(&L->list, shipped ? dir : NULL, err, sizeof err);
   L->loaded = true;
   /* What each needs (a Hopper GPU), for the chooser: from its steps' kernels. */
   free(L->needs);
   L->needs = L->list.count ? calloc((size_t)L->list.count, sizeof *L->needs) : NULL;
   PresetList presets;
   char perr[1536];
   PresetList_load(&presets, ctx->presets_dir, perr, sizeof perr);
   for (int i = 0; L->needs && i < L->list.count; i++) {
      const char *needs = Lesson_needs(&L->list.items[i], &presets, ctx->cat);
      Util_copy(L->needs[i], sizeof L->needs[i], needs ? needs : "");
   }
   PresetList_free(&presets);
   if (L->list.warnings[0])
      PaneCtx_log(ctx, LOG_WARN, "lessons that could not be read:\n%s", L->list.warnings);
}

static bool sameConfig(const WorkerConfig *a, const WorkerConfig *b) {
   return !strcmp(a->kernel, b->kernel) && !memcmp(a->values, b->values, sizeof a->values) &&
          Problem_same(&a->problem, &b->problem) && a->ablate == b->ablate && !strcmp(a->limits, b->limits);
}

/* A step whose lesson is the bank grid (show = banks) opens it zoomed, large enough to read
 * a whole warp, on the site its first banks check names; the next step that does not show
 * it closes the zoom it opened (a zoom of the lecturer's own stays). k: the step's kernel. */
static void showStep(const PaneCtx *ctx, LessonPane *L, const LessonStep *st, const KernelInfo *k) {
   if (st->show != LESSON_SHOW_BANKS) {
      if (L->zoomed_banks)
         PaneCtx_closeBankGrid(ctx, L->banks_opened);
      L->zoomed_banks = L->banks_opened = false;
      return;
   }
   int site = -1;
   for (int c = 0; c < st->nchecks; c++) {
      if (st->checks[c].kind != LESSON_CHECK_BANKS)
         continue;
      for (int i = 0; k && i < k->nsites; i++)
         if (!strcasecmp(k->sites[i], st->checks[c].site))
            site = i;
      break;
   }
   const bool was_hidden = PaneCtx_zoomBankGrid(ctx, site);
   if (!L->zoomed_banks)
      L->banks_opened = was_hidden;
   L->zoomed_banks = true;
}

/* Loads step i of the lesson: its preset whole, its ablation and limits (none when it
 * names none), the lesson's size override. */
static void applyStep(const PaneCtx *ctx, LessonPane *L, int i) {
   const Lesson *lesson = LessonPane_lesson(L);
   if (!lesson || i < 0 || i >= lesson->nsteps)
      return;
   const LessonStep *st = &lesson->steps[i];
   L->step = i;
   L->scroll = 0;
   L->step_loaded = false;
   L->row_taken = false;
   L->step_error[0] = '\0';
   PresetList presets;
   char err[1536];
   PresetList_load(&presets, ctx->presets_dir, err, sizeof err);
   const Preset *p = PresetList_find(&presets, st->preset);
   char why[1024];
   if (!p && PresetList_refused(&presets, st->preset, why, sizeof why))
      snprintf(L->step_error, sizeof L->step_error, "%s:%d: step %d names preset %s, which is refused: %s",
               lesson->path, st->line, i + 1, st->preset, why);
   else if (!p)
      snprintf(L->step_error, sizeof L->step_error, "%s:%d: step %d names preset %s, which is not in %s or yours",
               lesson->path, st->line, i + 1, st->preset, ctx->presets_dir);
   else if (PaneCtx_loadPreset(ctx, p, (const LessonSize[1]){LessonSize_forStep(&L->sizing, st)}, st->ablate,
                               st->limits, &L->step_config, err, sizeof err))
      L->step_loaded = true;
   else
      snprintf(L->step_error, sizeof L->step_error, "step %d: %s", i + 1, err);
   PresetList_free(&presets);
   if (!L->step_loaded) {
      PaneCtx_log(ctx, LOG_ERROR, "%s", L->step_error);
      PaneCtx_flash(ctx, ST_BAD, "step %d/%d cannot be loaded: the lesson pane says why", i + 1, lesson->nsteps);
      return;
   }
   showStep(ctx, L, st, Catalog_find(ctx->cat, L->step_config.kernel));
   PaneCtx_log(ctx, LOG_INFO, "lesson %s, step %d/%d: %s", lesson->name, i + 1, lesson->nsteps,
               st->title[0] ? st->title : st->preset);
   PaneCtx_flash(ctx, ST_NORMAL, "step %d/%d: %s  (n next, N previous)", i + 1, lesson->nsteps,
                 st->title[0] ? st->title : st->preset);
}

/* The presets' sizes are a GPU's: on a CPU, without a size asked for, every step runs at
 * the lesson's CPU shape, or with M, N and K brought down to the explorer's CPU size (512),
 * so a step gives its figure in seconds, not minutes. */
static void chooseSizing(const PaneCtx *ctx, LessonPane *L) {
   const DeviceInfo *d = ctx->device;
   Lesson_size(LessonPane_lesson(L), L->size, d && d->type == DEVICE_CPU, LESSON_CPU_SIZE, &L->sizing);
   const LessonSize *s = &L->sizing;
   if (s->cpu_shape)
      PaneCtx_log(ctx, LOG_INFO,
                  "lesson on a CPU: the presets' sizes are a GPU's, so every step runs at the lesson's CPU shape "
                  "(its cpu_size, or a step's own; the lesson pane gives each step's) ('gemmtop lesson NAME --size N' "
                  "runs another size)");
   else if (s->cap)
      PaneCtx_log(ctx, LOG_INFO,
                  "lesson on a CPU: the presets' sizes are a GPU's, so every step runs at most %dx%dx%d "
                  "('gemmtop lesson NAME --size N' runs another size)",
                  s->cap, s->cap, s->cap);
}

static void initLadder(const PaneCtx *ctx, LessonPane *L) {
   chooseSizing(ctx, L);
   const DeviceInfo *d = ctx->device;
   const LessonSize *s = &L->sizing;
   char device[200];
   int n = snprintf(device, sizeof device, "%s (%s)", d ? d->name : "?", ctx->backend);
   if (s->cpu_shape) {
      snprintf(device + n, sizeof device - (size_t)n, ", each step at the lesson's shape scaled for a CPU (the "
               "configuration column gives its size; the presets' sizes are a GPU's)");
   } else if (s->dims[0] || s->dims[1] || s->dims[2]) {
      n += snprintf(device + n, sizeof device - (size_t)n, ", every step at");
      for (int i = 0; i < 3 && n > 0 && (size_t)n < sizeof device; i++)
         if (s->dims[i])
            n += snprintf(device + n, sizeof device - (size_t)n, " %c=%d", "MNK"[i], s->dims[i]);
   } else if (s->cap) {
      snprintf(device + n, sizeof device - (size_t)n, ", every step at most %d (a CPU; the presets' sizes are a GPU's)",
               s->cap);
   }
   Ladder_free(&L->ladder);
   Ladder_init(&L->ladder, LessonPane_lesson(L), device);
   L->exported[0] = '\0';
}

int LessonPane_begin(const PaneCtx *ctx, LessonPane *L) {
   loadList(ctx, L);
   const Lesson *lesson = LessonList_find(&L->list, ctx->start->lesson);
   if (!lesson) {
      fprintf(stderr, "gemmtop: no lesson '%s' ('gemmtop list lessons' lists them)\n", ctx->start->lesson);
      return 2;
   }
   const Selection *sel = &ctx->start->sel;
   L->size[0] = sel->has_m ? sel->problem.m : 0;
   L->size[1] = sel->has_n ? sel->problem.n : 0;
   L->size[2] = sel->has_k ? sel->problem.k : 0;
   L->current = (int)(lesson - L->list.items);
   initLadder(ctx, L);
   applyStep(ctx, L, 0);
   if (!L->step_loaded) {
      fprintf(stderr, "gemmtop: lesson %s: %s\n", lesson->name, L->step_error);
      return 2;
   }
   return 0;
}

void LessonPane_start(const PaneCtx *ctx, LessonPane *L, int i) {
   if (i < 0 || i >= L->list.count)
      return;
   L->current = i;
   initLadder(ctx, L);
   PaneCtx_show(ctx, 0);
   applyStep(ctx, L, 0);
}

/* The lesson taught; when there is none, says what chooses one (then, after it: what the
 * key would have done) and gives NULL. */
static const Lesson *taught(const PaneCtx *ctx, const LessonPane *L, const char *then) {
   const Lesson *lesson = LessonPane_lesson(L);
   if (!lesson)
      PaneCtx_flash(ctx, ST_WARN, "no lesson is being taught: L chooses one%s", then);
   return lesson;
}

void LessonPane_stepBy(const PaneCtx *ctx, LessonPane *L, int dir) {
   const Lesson *lesson = taught(ctx, L, "");
   if (!lesson)
      return;
   int next = L->step + dir;
   if (next < 0) {
      PaneCtx_flash(ctx, ST_WARN, "this is the lesson's first step");
      return;
   }
   if (next >= lesson->nsteps) {
      PaneCtx_flash(ctx, ST_WARN, "this is the lesson's last step (%d/%d): E exports the ladder table", lesson->nsteps,
                    lesson->nsteps);
      return;
   }
   PaneCtx_show(ctx, 0);
   applyStep(ctx, L, next);
}

void LessonPane_toggleAbout(const PaneCtx *ctx, LessonPane *L) {
   const Lesson *lesson = taught(ctx, L, "");
   if (!lesson)
      return;
   if (!lesson->about) {
      PaneCtx_flash(ctx, ST_WARN, "lesson %s has no introduction ('about =' lines)", lesson->name);
      return;
   }
   L->show_about = !L->show_about;
   PaneCtx_show(ctx, 0);
   L->scroll = 0;
   PaneCtx_flash(ctx, ST_NORMAL, "the lesson's introduction: %s", L->show_about ? "on every step" : "on the first step");
}

static void goToPrompt(const PaneCtx *ctx, const LessonPane *L) {
   PaneCtx_prompt(ctx, "go to step: %s_  (1 to %d, Enter goes, Esc stays)", L->goto_text,
                  LessonPane_lesson(L)->nsteps);
}

void LessonPane_goToStart(const PaneCtx *ctx, LessonPane *L) {
   if (!taught(ctx, L, ""))
      return;
   L->goto_active = true;
   L->goto_text[0] = '\0';
   goToPrompt(ctx, L);
}

bool LessonPane_goToKey(const PaneCtx *ctx, LessonPane *L, int ch) {
   const Lesson *lesson = LessonPane_lesson(L);
   if (!L->goto_active || !lesson)
      return false;
   size_t n = strlen(L->goto_text);
   if (ch >= '0' && ch <= '9') {
      if (n + 1 < sizeof L->goto_text) {
         L->goto_text[n] = (char)ch;
         L->goto_text[n + 1] = '\0';
      }
      goToPrompt(ctx, L);
      return true;
   }
   if (ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
      if (n)
         L->goto_text[n - 1] = '\0';
      goToPrompt(ctx, L);
      return true;
   }
   L->goto_active = false;
   if (ch == 27) {
      PaneCtx_flash(ctx, ST_NORMAL, "staying on step %d", L->step + 1);
      return true;
   }
   if (ch != '\n' && ch != '\r' && ch != KEY_ENTER) {
      PaneCtx_promptDone(ctx);
      return false;
   }
   int step = atoi(L->goto_text);
   if (step < 1 || step > lesson->nsteps) {
      PaneCtx_flash(ctx, ST_WARN, "no step '%s': lesson %s has steps 1 to %d (g asks again)", L->goto_text,
                    lesson->name, lesson->nsteps);
      return true;
   }
   PaneCtx_show(ctx, 0);
   applyStep(ctx, L, step - 1);
   return true;
}

void LessonPane_toggleNotes(const PaneCtx *ctx, LessonPane *L) {
   if (!taught(ctx, L, ""))
      return;
   L->show_notes = !L->show_notes;
   PaneCtx_show(ctx, 0);
   PaneCtx_flash(ctx, ST_NORMAL, "speaker notes %s", L->show_notes ? "shown (o hides them)" : "hidden");
}

bool LessonPane_onStep(const PaneCtx *ctx, const LessonPane *L) {
   if (!LessonPane_lesson(L) || !L->step_loaded)
      return false;
   WorkerConfig c;
   PaneCtx_config(ctx, &c);
   return sameConfig(&c, &L->step_config);
}

/* The step's row takes its figure once the measurement has settled (Ladder_settled), once
 * a visit of the step: later launches go on in the results pane, the row keeps its figure. */
void LessonPane_poll(const PaneCtx *ctx, LessonPane *L) {
   const WorkerSnapshot *s = ctx->snap;
   if (!LessonPane_lesson(L) || !L->step_loaded || L->row_taken || !s->have_config || !s->have_result ||
       !sameConfig(&s->config, &L->step_config))
      return;
   double total_ms = 0;
   for (int i = 0; i < s->nwindow; i++)
      total_ms += s->window[i];
   bool settled = s->nwindow > 0 && Ladder_settled(s->nwindow, total_ms, s->spread_pct);
   const KernelInfo *k = Catalog_find(ctx->cat, s->config.kernel);
   char params[400] = "", config[256];
   if (k)
      KernelInfo_formatParams(k, s->config.values, params, sizeof params);
   const Problem *p = &s->config.problem;
   snprintf(config, sizeof config, "%s %s, %dx%dx%d %s", s->config.kernel, params, p->m, p->n, p->k,
            Precision_name(p->precision));
   if (ctx->snap_refused) {
      Ladder_refuse(&L->ladder, L->step, s->result.message, config);
      L->row_taken = true;
   } else if (settled && s->config.ablate) {
      char names[64];
      Ablate_name(s->config.ablate, names, sizeof names);
      Ladder_record(&L->ladder, L->step, s->gflops, s->spread_pct, config, s->result.geo.emulated, names);
      L->row_taken = true;
   } else if (settled && s->result.verified_run && s->result.verify.ok) {
      Ladder_record(&L->ladder, L->step, s->gflops, s->spread_pct, config, s->result.geo.emulated, NULL);
      L->row_taken = true;
      /* What limited it, where the device's ceilings are measured: the next step says
       * how it moved. */
      LimiterInputs in;
      Limiter lim;
      char msg[256];
      if (!s->result.geo.emulated && PaneCtx_limiter(ctx, &in, &lim, msg, sizeof msg) &&
          (in.peak_gflops > 0 || in.copy_gbps > 0))
         Ladder_setLimit(&L->ladder, L->step, lim.brief);
   }
   if (L->row_taken && !L->ladder.date[0]) {
      time_t now = time(NULL);
      struct tm tm;
      if (gmtime_r(&now, &tm))
         strftime(L->ladder.date, sizeof L->ladder.date, "%Y-%m-%d %H:%M UTC", &tm);
   }
}

void LessonPane_export(const PaneCtx *ctx, LessonPane *L) {
   const Lesson *lesson = taught(ctx, L, ", then E exports its ladder table");
   if (!lesson)
      return;
   char stem[128], base[1000], err[1400] = "out of memory";
   snprintf(stem, sizeof stem, "lesson-%s", lesson->name);
   char *texts[3] = {Ladder_markdown(&L->ladder), Ladder_csv(&L->ladder), Ladder_svg(&L->ladder)};
   static const char *const ext[] = {".md", ".csv", ".svg"};
   bool ok = texts[0] && texts[1] && texts[2] &&
             OutFile_writeSet(stem, (const char *const *)texts, ext, 3, base, sizeof base, err, sizeof err);
   for (int e = 0; e < 3; e++)
      free(texts[e]);
   if (!ok) {
      PaneCtx_log(ctx, LOG_ERROR, "ladder table not exported: %s", err);
      PaneCtx_flash(ctx, ST_BAD, "ladder table not exported: %s", err);
      return;
   }
   char cwd[600] = ".";
   if (!getcwd(cwd, sizeof cwd))
      Util_copy(cwd, sizeof cwd, ".");
   snprintf(L->exported, sizeof L->exported, "%s/%s.md, .csv, .svg", cwd, base);
   PaneCtx_log(ctx, LOG_GOOD, "ladder table exported (%d of %d steps): %s", Ladder_done(&L->ladder), L->ladder.nrows,
               L->exported);
   PaneCtx_flash(ctx, ST_GOOD, "ladder exported: %s.md .csv .svg", base);
}

void LessonPane_free(LessonPane *L) {
   if (L->loaded)
      LessonList_free(&L->list);
   free(L->needs);
   Ladder_free(&L->ladder);
   LessonPane_init(L);
}

/* ---- the chooser (L) ---- */

void LessonPane_openChooser(const PaneCtx *ctx, LessonPane *L) {
   if (L->loaded) { /* read again: a lecturer may have just written one */
      bool teaching = L->current >= 0;
      char name[64] = "";
      if (teaching)
         Util_copy(name, sizeof name, L->list.items[L->current].name);
      LessonList_free(&L->list);
      L->loaded = false;
      loadList(ctx, L);
      const Lesson *again = teaching ? LessonList_find(&L->list, name) : NULL;
      L->current = again ? (int)(again - L->list.items) : -1;
      if (again && (again->nsteps != L->ladder.nrows || L->step >= again->nsteps)) {
         /* Its file changed under the class: start it again rather than mix two versions. */
         PaneCtx_log(ctx, LOG_WARN, "lesson %s changed on disk: it starts again on its first step", name);
         LessonPane_start(ctx, L, L->current);
      }
   } else {
      loadList(ctx, L);
   }
   L->chooser_cursor = L->current >= 0 ? L->current : 0;
}

void LessonPane_chooserKey(const PaneCtx *ctx, LessonPane *L, int ch) {
   int n = L->list.count;
   switch (ch) {
   case 27: case 'q': PaneCtx_closeDialog(ctx); return;
   case KEY_UP: case 'k': L->chooser_cursor--; break;
   case KEY_DOWN: case 'j': L->chooser_cursor++; break;
   case KEY_HOME: L->chooser_cursor = 0; break;
   case KEY_END: L->chooser_cursor = n - 1; break;
   case '\n': case '\r': case KEY_ENTER:
      if (n > 0) {
         PaneCtx_closeDialog(ctx);
         LessonPane_start(ctx, L, L->chooser_cursor);
      }
      return;
   default: return;
   }
   if (L->chooser_cursor >= n)
      L->chooser_cursor = n - 1;
   if (L->chooser_cursor < 0)
      L->chooser_cursor = 0;
}

void LessonPane_drawChooser(const PaneCtx *ctx, LessonPane *L) {
   const Paint *pt = ctx->paint;
   int n = L->list.count;
   Rect r = Layout_dialog(pt->cols, pt->rows, 100, n + 12);
   Paint_box(pt, r, "Lessons (L): Enter starts one on its first step, Esc closes");
   int x = r.x + 2, w = r.w - 4;
   if (!n) {
      Paint_text(pt, r.y + 1, x, w, "no lessons: see docs/lessons.md to write one in $XDG_CONFIG_HOME/gemmtop/lessons",
                 ST_DIM, false);
      return;
   }
   if (L->chooser_cursor >= n)
      L->chooser_cursor = n - 1;
   int listH = r.h > 10 ? r.h - 9 : 1, first = L->chooser_cursor >= listH ? L->chooser_cursor - listH + 1 : 0;
   for (int i = first, y = r.y + 1; i < n && y < r.y + 1 + listH; i++, y++) {
      const Lesson *l = &L->list.items[i];
      bool sel = i == L->chooser_cursor;
      Style st = sel ? ST_CURSOR : ST_NORMAL;
      char row[400];
      /* What it needs first: a long title is cut at the dialog's edge, this must not be. */
      const bool needs = L->needs && L->needs[i][0];
      snprintf(row, sizeof row, "%-11s %2d steps  %s%s%s", l->name, l->nsteps, needs ? "[needs an H100 or H200] " : "",
               l->title, l->replaces_shipped ? "  (yours, replacing the shipped one)" : l->user ? "  (yours)" : "");
      Paint_fill(pt, y, r.x + 1, r.w - 2, st);
      Paint_text(pt, y, x, w, row, st, false);
      PaneCtx_hit(ctx, (Rect){r.x, y, r.w, 1}, HIT_ROW, i, 0);
   }
   const Lesson *l = &L->list.items[L->chooser_cursor];
   char about[2048], buf[2400];
   const char *lines[7];
   /* Its file by name, where it is said without the machine's absolute path; first, so that
    * a long introduction cut at the dialog's last line never takes it. */
   snprintf(about, sizeof about, "(%s%s.lesson)  %s", l->user ? "yours: $XDG_CONFIG_HOME/gemmtop/lessons/" : "shipped: ",
            l->name, l->about ? l->about : l->title);
   for (char *c = about; *c; c++)
      if (*c == '\n')
         *c = ' ';
   int nl = Text_wrap(about, w, buf, sizeof buf, lines, 7);
   for (int i = 0; i < nl; i++)
      Paint_text(pt, r.y + r.h - 8 + i, x, w, lines[i], ST_DIM, false);
}
