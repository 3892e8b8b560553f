/* What the inspect pane (draw_inspect.c) keeps between frames: the inspection it shows
 * (the compare pane reads it too) and where in it. */
#ifndef GEMMTOP_UI_DRAW_INSPECT_H
#define GEMMTOP_UI_DRAW_INSPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "explorer/worker.h"
#include "tui/panes.h"

typedef struct InspectPane_ {
   WorkerInspect last;        /* the newest inspection (owned) */
   bool have;
   bool source;               /* v: the source after the preprocessor instead of the code */
   int target;                /* T: 0 the device measured, else an offline architecture */
   size_t *lines;             /* where each line of the text shown starts */
   int nlines;
   int scroll;                /* the first listing line shown */
} InspectPane;

/* The inspect pane's state among the explorer's (panehost.c: the contexts' inspection);
 * NULL before Panes_start. */
static inline InspectPane *InspectPane_of(const PaneStates *s) { return s->of[PANE_INSPECT]; }

#endif
