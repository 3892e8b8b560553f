/* What the sweep pane (sweepview.c) keeps between frames: its copy of the worker's sweep
 * (the export and the keys read it too), the axis and the next strategy. */
#ifndef GEMMTOP_UI_SWEEPVIEW_H
#define GEMMTOP_UI_SWEEPVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "explorer/worker.h"
#include "tui/panes.h"

typedef struct SweepPane_ {
   WorkerSweep *sweep;        /* the pane's copy of the worker's sweep (owned) */
   unsigned long seen;
   int x;                     /* the parameter across the scatter (index in the swept kernel) */
   SearchStrategy strategy;   /* how the next sweep proposes configurations (Y cycles it) */
} SweepPane;

/* The sweep pane's state among the explorer's (the export and the quit key read its copy of
 * the sweep); NULL before Panes_start. */
static inline SweepPane *SweepPane_of(const PaneStates *s) { return s->of[PANE_SWEEP]; }

#endif
