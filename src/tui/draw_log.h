/* What the log pane (draw_log.c) keeps between frames: its scrolling. */
#ifndef GEMMTOP_UI_DRAW_LOG_H
#define GEMMTOP_UI_DRAW_LOG_H

#include <stdbool.h>
#include <stddef.h>

typedef struct LogPane_ {
   int scroll;                /* lines up from the newest (0 follows) */
} LogPane;

#endif
