/* What the history pane (draw_history.c) keeps between frames: its cursor and scrolling. */
#ifndef GEMMTOP_UI_DRAW_HISTORY_H
#define GEMMTOP_UI_DRAW_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/panes.h"

typedef struct HistoryPane_ {
   int cursor;                /* -1: follows the current configuration */
   int scroll;
} HistoryPane;

/* The history pane's state among the explorer's (ui.c and the mouse move its cursor); NULL
 * before Panes_start. */
static inline HistoryPane *HistoryPane_of(const PaneStates *s) { return s->of[PANE_HISTORY]; }

#endif
