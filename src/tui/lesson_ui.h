/* The explorer's side of a lesson (core/teach/lesson.h): the lesson being taught, its step, the
 * ladder table it builds (core/teach/ladder.h) from the worker's verified figures, the lesson
 * chooser (L) and the export of the ladder (E). draw_lesson.c draws its pane.
 * The lesson pane is the one pane whose state is the whole explorer (panes_table.c), not a
 * struct of its own: a step drives the explorer (a preset loaded whole, the panes a step
 * shows, the bank grid zoomed, the chooser opened, the log), which the other panes reach
 * only through their context (panectx.h). docs/architecture.md, "What a pane receives". */
#ifndef GEMMTOP_UI_LESSON_UI_H
#define GEMMTOP_UI_LESSON_UI_H

#include <stdbool.h>

#include "core/teach/ladder.h"
#include "core/teach/lesson.h"
#include "explorer/worker.h"
#include "tui/panectx.h"

typedef struct Ui_ Ui;

typedef struct LessonUi_ {
   LessonList list;           /* every lesson, for the chooser */
   char (*needs)[64];         /* what each lesson of the list needs that not every device has ("" none) */
   bool loaded;
   int chooser_cursor;
   int current;               /* index in list of the lesson taught, -1 none */
   int step;                  /* 0-based */
   bool step_loaded;          /* the step's preset applied (false: it could not be) */
   WorkerConfig step_config;  /* what the step loaded: figures of it go in the ladder */
   char step_error[1536];     /* why the step's preset could not be loaded */
   int size[3];               /* gemmtop lesson --size / -m -n -k: M, N, K for every step (0: the preset's) */
   LessonSize sizing;         /* how every step is sized here: those, or on a CPU the lesson's CPU
                               * shape or size (core/teach/lesson.h) */
   bool row_taken;            /* this visit of the step has given the ladder its row */
   bool show_about;
   bool show_notes;           /* o: the steps' speaker notes in the pane */
   bool goto_active;          /* g: a step number is being typed */
   char goto_text[4];           /* I: the lesson's introduction shown on every step, not only the first */
   Ladder ladder;
   int scroll;                /* the pane's first line */
   char exported[1200];       /* the files written last, for the pane */
   bool zoomed_banks;         /* the step opened the bank grid zoomed (show = banks): the next
                               * step that does not closes it */
   bool banks_opened;         /* ... and showed the bank pane, hidden before: hidden again then */
} LessonUi;

/* Before the worker starts: the lesson named at start (UiStart.lesson) on its first step.
 * Returns 0, or the exit code with a message on stderr. */
int LessonUi_begin(Ui *ui);
/* The lesson, when one is taught (else NULL). */
const Lesson *LessonUi_lesson(const Ui *ui);
/* Starts lesson index i of the list on its first step. */
void LessonUi_start(Ui *ui, int i);
/* The next (1) or previous (-1) step. */
void LessonUi_stepBy(Ui *ui, int dir);
/* After a new snapshot (the lesson pane's, with its context): the step's figure into the
 * ladder. */
void LessonUi_poll(const PaneCtx *ctx, Ui *ui);
/* The step on screen when its lesson is the bank grid (show = banks), else NULL: where the
 * lesson pane is not shown (the grid zoomed, the projector's layout), the bank pane keeps
 * the step's heading, figure and text in view beside or under the grid. */
const LessonStep *LessonUi_gridStep(const Ui *ui);
/* Whether the configuration on screen is the one the step loaded (not changed since). */
bool LessonUi_onStep(const Ui *ui);
/* g: asks for a step number (the footer's flash shows what is typed). */
void LessonUi_goToStart(Ui *ui);
/* While a number is asked for: digits, Backspace, Enter (go) and Esc (stay) are taken
 * here; true when ch was. Any other key ends the question and goes on as usual. */
bool LessonUi_goToKey(Ui *ui, int ch);
/* o: the steps' speaker notes shown in the pane, or hidden (the default). */
void LessonUi_toggleNotes(Ui *ui);
/* I: the lesson's introduction on every step, or on its first only. */
void LessonUi_toggleAbout(Ui *ui);
/* E: writes the ladder as Markdown, CSV and SVG into the current folder. */
void LessonUi_export(Ui *ui);
void LessonUi_free(Ui *ui);

/* The chooser dialog (DLG_LESSONS). */
void LessonUi_openChooser(Ui *ui);
void LessonUi_chooserKey(Ui *ui, int ch);
void LessonUi_drawChooser(Ui *ui);

/* draw_lesson.c: the pane (its class, Lesson_pane: panes_table.h). */
/* Those lines of the step on screen, word-wrapped to width, each given to emit with its
 * Style: the bank pane shows them beside its grid when the step's lesson is the grid. */
void LessonUi_stepText(Ui *ui, int width, void (*emit)(void *ctx, const char *line, int style), void *ctx);

#endif
