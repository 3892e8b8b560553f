/* What is read of the lesson pane's state with a context alone (draw_lesson.h): the lesson
 * taught, the bank grid's step, and the step's lines that stay in view wherever it is shown
 * (this pane, the bank pane's zoom). It calls none of the context's verbs: panehost.c calls
 * it to give the bank pane the step's text, and the verbs live in panehost.c. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/config.h"
#include "core/run/ablate.h"
#include "tui/draw_lesson.h"
#include "tui/panedraw.h"
#include "tui/text.h"

const Lesson *LessonPane_lesson(const LessonPane *L) {
   return L->current >= 0 && L->current < L->list.count ? &L->list.items[L->current] : NULL;
}

const LessonStep *LessonPane_gridStep(const LessonPane *L) {
   const Lesson *lesson = LessonPane_lesson(L);
   if (!lesson || !L->step_loaded || L->step < 0 || L->step >= lesson->nsteps ||
       lesson->steps[L->step].show != LESSON_SHOW_BANKS)
      return NULL;
   return &lesson->steps[L->step];
}

void LessonLines_add(LessonLines *L, const char *s, Style st) {
   size_t n = strlen(s) + 1;
   if (L->n == LESSON_MAX_LINES)
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

void LessonLines_para(LessonLines *L, Style st, const char *fmt, ...) {
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
      LessonLines_add(L, lines[i], st);
}

/* Before a step's first figure: how long a launch should take, judged by the nearest
 * earlier step measured here, when that is more than a few seconds (a GPU's size on a
 * slow device), so that a class is not left waiting without a word. */
static void expectedTime(const PaneCtx *ctx, const LessonPane *lp, LessonLines *L) {
   int basis;
   double seconds = Ladder_expectedSeconds(&lp->ladder, lp->step, Problem_flops(ctx->problem), &basis);
   if (seconds > 3)
      LessonLines_para(L, ST_WARN, "expect about %.0f s a launch here, after the compile (step %d ran at %.1f GFLOPS on "
                                   "this device); a smaller size: 'gemmtop lesson NAME --size N'",
                       seconds, basis + 1, lp->ladder.rows[basis].gflops);
}

/* The measured figure, first under the step's title: on a small terminal it stays in view. */
static void measuredLine(const PaneCtx *ctx, const LessonPane *lp, LessonLines *L) {
   const WorkerSnapshot *s = ctx->snap;
   char gf[64];
   Draw_fmtRate(s->gflops, "GFLOPS", gf, sizeof gf);
   if (!ctx->snap_current || !s->have_result) {
      LessonLines_para(L, ST_DIM, "measured: waiting for its first run");
      expectedTime(ctx, lp, L);
   }
   else if (ctx->snap_refused)
      LessonLines_para(L, ST_WARN, "refused: %s", s->result.message);
   else if (s->state == WS_STOPPED)
      LessonLines_para(L, ST_BAD, "did not run: %s: %s", RunStatus_name(s->result.status), s->result.message);
   else if (ctx->ablate && s->nwindow) {
      char names[64];
      Ablate_name(ctx->ablate, names, sizeof names);
      LessonLines_para(L, ST_WARN, "measured: %s ABLATED (%s): not a GEMM result, not verified, never ranked", gf,
                       names);
   } else if (s->nwindow && s->result.verified_run && s->result.verify.ok)
      LessonLines_para(L, ST_GOOD, "measured: %s (spread %.0f%%), verified%s", gf, s->spread_pct,
                       s->result.geo.emulated ? " (emulated: not ranked)" : "");
   else if (s->nwindow && s->result.verified_run)
      LessonLines_para(L, ST_BAD, "measured: %s but NOT VERIFIED: %s", gf, s->result.verify.message);
   else
      LessonLines_para(L, ST_DIM, "measured: verifying...");
}

/* A placeholder of a lesson's text ({EXPR}), for the configuration on screen. */
static bool evalOnScreen(void *arg, const char *expr, long long *v, char *why, size_t whylen) {
   const PaneCtx *ctx = arg;
   return Config_eval(ctx->info, ctx->values, ctx->problem, ctx->device_limits, expr, v, why, whylen);
}

void LessonLines_rendered(const PaneCtx *ctx, LessonLines *L, Style st, const char *prefix, const char *text) {
   char out[4096];
   if (!Lesson_render(text, evalOnScreen, (void *)ctx, out, sizeof out))
      st = ST_BAD; /* longer than any lesson's: shown as far as it goes, in red */
   LessonLines_para(L, st, "%s%s", prefix, out);
}

void LessonLines_step(const PaneCtx *ctx, const LessonPane *lp, LessonLines *L) {
   const Lesson *lesson = LessonPane_lesson(lp);
   const LessonStep *st = &lesson->steps[lp->step];
   LessonLines_para(L, ST_GOOD, "Step %d of %d: %s", lp->step + 1, lesson->nsteps,
                    st->title[0] ? st->title : st->preset);
   if (!lp->step_loaded) {
      LessonLines_para(L, ST_BAD, "%s", lp->step_error);
      return;
   }
   measuredLine(ctx, lp, L);
   if (st->text)
      LessonLines_rendered(ctx, L, ST_NORMAL, "", st->text);
}

void LessonPane_stepText(const PaneCtx *ctx, const LessonPane *lp, int width,
                         void (*emit)(void *arg, const char *line, int style), void *arg) {
   if (!LessonPane_lesson(lp))
      return;
   LessonLines L;
   memset(&L, 0, sizeof L);
   L.width = width > 10 ? width : 10;
   LessonLines_step(ctx, lp, &L);
   for (int i = 0; i < L.n; i++)
      emit(arg, L.buf + L.at[i], (int)L.style[i]);
   free(L.buf);
}
