/* The lesson pane's state (core/teach/lesson.h): the lesson being taught, its step, the
 * ladder table it builds (core/teach/ladder.h) from the worker's verified figures, the
 * lesson chooser (L) and the export of the ladder (E). Its files, each given a context
 * (panectx.h) and this state, never the explorer's:
 *   draw_lesson.c        the pane: its text, drawing, keys and class (Lesson_pane);
 *   draw_lesson_steps.c  a step loaded, the ladder's figures, the chooser, the export: what
 *                        acts on the rest of the explorer, through the context's verbs;
 *   draw_lesson_text.c   what is read of the state alone (the lesson, the grid's step, the
 *                        step's lines): under the verbs, so that panehost.c can give the
 *                        bank pane the step's text without a call circle. */
#ifndef GEMMTOP_UI_DRAW_LESSON_H
#define GEMMTOP_UI_DRAW_LESSON_H

#include <stdbool.h>
#include <stddef.h>

#include "core/teach/ladder.h"
#include "core/teach/lesson.h"
#include "explorer/worker.h"
#include "tui/paint.h"
#include "tui/panectx.h"
#include "tui/panes.h"

typedef struct LessonPane_ {
   LessonList list;           /* every lesson, for the chooser */
   char (*needs)[64];         /* what each lesson of the list needs that not every device has ("" none) */
   bool loaded;
   int chooser_cursor;
   int current;               /* index in list of the lesson taught, -1 none (LessonPane_init) */
   int step;                  /* 0-based */
   bool step_loaded;          /* the step's preset applied (false: it could not be) */
   WorkerConfig step_config;  /* what the step loaded: figures of it go in the ladder */
   char step_error[1536];     /* why the step's preset could not be loaded */
   int size[3];               /* gemmtop lesson --size / -m -n -k: M, N, K for every step (0: the preset's) */
   LessonSize sizing;         /* how every step is sized here: those, or on a CPU the lesson's CPU
                               * shape or size (core/teach/lesson.h) */
   bool row_taken;            /* this visit of the step has given the ladder its row */
   bool show_about;           /* I: the lesson's introduction shown on every step, not only the first */
   bool show_notes;           /* o: the steps' speaker notes in the pane */
   bool goto_active;          /* g: a step number is being typed */
   char goto_text[4];
   Ladder ladder;
   int scroll;                /* the pane's first line */
   char exported[1200];       /* the files written last, for the pane */
   bool zoomed_banks;         /* the step opened the bank grid zoomed (show = banks): the next
                               * step that does not closes it */
   bool banks_opened;         /* ... and showed the bank pane, hidden before: hidden again then */
} LessonPane;

/* The lesson pane's state among the explorer's (start.c, the chooser's dialog, the keys and
 * panehost.c: the lesson taught, the bank grid's step); NULL before Panes_start. */
static inline LessonPane *LessonPane_of(const PaneStates *s) { return s->of[PANE_LESSON]; }

/* ---- draw_lesson_text.c: read from the state (and a context) alone ---- */

/* The lesson, when one is taught (else NULL). */
const Lesson *LessonPane_lesson(const LessonPane *L);
/* The step on screen when its lesson is the bank grid (show = banks), else NULL: where the
 * lesson pane is not shown (the grid zoomed, the projector's layout), the bank pane keeps
 * the step's heading, figure and text in view beside or under the grid. */
const LessonStep *LessonPane_gridStep(const LessonPane *L);
/* Those lines of the step on screen, word-wrapped to width, each given to emit with its
 * Style (PaneCtx_lessonStepText, for the bank pane). */
void LessonPane_stepText(const PaneCtx *ctx, const LessonPane *L, int width,
                         void (*emit)(void *arg, const char *line, int style), void *arg);

/* The pane's text: lines word-wrapped to its width, kept whole (the pane scrolls). */
#define LESSON_MAX_LINES 400
typedef struct LessonLines_ {
   char *buf;                 /* every line's text, one after another */
   size_t len, cap;
   size_t at[LESSON_MAX_LINES]; /* where each line starts in buf */
   Style style[LESSON_MAX_LINES];
   int n;
   int width;
   int height;                /* the pane's rows for text */
} LessonLines;

void LessonLines_add(LessonLines *L, const char *s, Style st);
/* A paragraph, word-wrapped (the file's line breaks are not the screen's). */
void LessonLines_para(LessonLines *L, Style st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A lesson's text with its counts ({EXPR}) computed for the configuration on screen. */
void LessonLines_rendered(const PaneCtx *ctx, LessonLines *L, Style st, const char *prefix, const char *text);
/* What must stay in view wherever the step is shown: its heading, the figure measured (or
 * why there is none) and its whole text. */
void LessonLines_step(const PaneCtx *ctx, const LessonPane *lp, LessonLines *L);

/* ---- draw_lesson_steps.c: what acts on the explorer, through the context's verbs ---- */

/* The state before any lesson (none taught). */
void LessonPane_init(LessonPane *L);
/* Before the worker starts: the lesson named at start (UiStart.lesson) on its first step.
 * Returns 0, or the exit code with a message on stderr. */
int LessonPane_begin(const PaneCtx *ctx, LessonPane *L);
/* Starts lesson index i of the list on its first step. */
void LessonPane_start(const PaneCtx *ctx, LessonPane *L, int i);
/* The next (1) or previous (-1) step. */
void LessonPane_stepBy(const PaneCtx *ctx, LessonPane *L, int dir);
/* After a new snapshot: the step's figure into the ladder. */
void LessonPane_poll(const PaneCtx *ctx, LessonPane *L);
/* Whether the configuration on screen is the one the step loaded (not changed since). */
bool LessonPane_onStep(const PaneCtx *ctx, const LessonPane *L);
/* g: asks for a step number (the footer shows what is typed). */
void LessonPane_goToStart(const PaneCtx *ctx, LessonPane *L);
/* While a number is asked for: digits, Backspace, Enter (go) and Esc (stay) are taken
 * here; true when ch was. Any other key ends the question and goes on as usual. */
bool LessonPane_goToKey(const PaneCtx *ctx, LessonPane *L, int ch);
/* o: the steps' speaker notes shown in the pane, or hidden (the default). */
void LessonPane_toggleNotes(const PaneCtx *ctx, LessonPane *L);
/* I: the lesson's introduction on every step, or on its first only. */
void LessonPane_toggleAbout(const PaneCtx *ctx, LessonPane *L);
/* E: writes the ladder as Markdown, CSV and SVG into the current folder. */
void LessonPane_export(const PaneCtx *ctx, LessonPane *L);
void LessonPane_free(LessonPane *L);

/* The chooser dialog (DLG_LESSONS), given the lesson pane's context. */
void LessonPane_openChooser(const PaneCtx *ctx, LessonPane *L);
void LessonPane_chooserKey(const PaneCtx *ctx, LessonPane *L, int ch);
void LessonPane_drawChooser(const PaneCtx *ctx, LessonPane *L);

#endif
