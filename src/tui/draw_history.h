/* What the history pane (draw_history.c) keeps between frames: its cursor and scrolling. */
#ifndef GEMMTOP_UI_DRAW_HISTORY_H
#define GEMMTOP_UI_DRAW_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

typedef struct HistoryPane_ {
   int cursor;                /* -1: follows the current configuration */
   int scroll;
} HistoryPane;

#endif
