/* What the panes hold between frames, apart from the Ui that all of them share (app.h):
 * the kernel, history and log panes' cursors and scrolling, the bank pane (draw_banks.c),
 * the sweep pane (sweepview.c) and the inspect pane (draw_inspect.c). A pane's fields are
 * its own file's and its keys' to change; others read them (news.c fills them from the
 * worker). The results and compare panes keep nothing of their own. */
#ifndef GEMMTOP_UI_PANE_STATE_H
#define GEMMTOP_UI_PANE_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "explorer/worker.h"

typedef struct KernelPane_ {
   int cursor;                /* selectable row: the variant picker, a parameter, a variant */
   int scroll;
} KernelPane;

typedef struct HistoryPane_ {
   int cursor;                /* -1: follows the current configuration */
   int scroll;
} HistoryPane;

typedef struct LogPane_ {
   int scroll;                /* lines up from the newest (0 follows) */
} LogPane;

typedef struct BanksPane_ {
   WorkerBanks analysis;      /* the newest bank analysis (owned) */
   bool have;
   int site, warp, iter;      /* the request drawn: site, flat warp, execution */
   int scroll;                /* the first grid row drawn (lanes and phase separators) */
   int page;                  /* grid rows drawn last time: PgUp PgDn's step */
   WorkerConfig before;       /* the configuration traced before the one shown (its title names
                               * first the parameters that changed: what a step is about) */
   bool have_before;
} BanksPane;

typedef struct SweepPane_ {
   WorkerSweep *sweep;        /* the pane's copy of the worker's sweep (owned) */
   unsigned long seen;
   int x;                     /* the parameter across the scatter (index in the swept kernel) */
   SearchStrategy strategy;   /* how the next sweep proposes configurations (Y cycles it) */
} SweepPane;

/* The roofline pane: the configurations measured before the one on screen, as points. */
#define ROOFLINE_TRAIL 16
typedef struct RooflinePane_ {
   double x[ROOFLINE_TRAIL], y[ROOFLINE_TRAIL]; /* flops per byte (the model's), GFLOPS */
   unsigned long serial[ROOFLINE_TRAIL];        /* the worker's post each answers */
   int n;
} RooflinePane;

typedef struct InspectPane_ {
   WorkerInspect last;        /* the newest inspection (owned) */
   bool have;
   bool source;               /* v: the source after the preprocessor instead of the code */
   int target;                /* T: 0 the device measured, else an offline architecture */
   size_t *lines;             /* where each line of the text shown starts */
   int nlines;
   int scroll;                /* the first listing line shown */
} InspectPane;

#endif
