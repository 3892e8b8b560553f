/* What the bank pane (draw_banks.c) keeps between frames: the analysis it shows (the
 * compare pane, the lesson and the limiter read it too) and where in it. */
#ifndef GEMMTOP_UI_DRAW_BANKS_H
#define GEMMTOP_UI_DRAW_BANKS_H

#include <stdbool.h>
#include <stddef.h>

#include "explorer/worker.h"
#include "tui/panes.h"

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

/* The bank pane's state among the explorer's (panehost.c: the contexts' bank analysis, the
 * lesson's zoomed grid); NULL before Panes_start. */
static inline BanksPane *BanksPane_of(const PaneStates *s) { return s->of[PANE_BANKS]; }

#endif
