/* What the kernel pane (draw_kernel.c) keeps between frames: its cursor and scrolling
 * (ui.c and the mouse move the cursor too). */
#ifndef GEMMTOP_UI_DRAW_KERNEL_H
#define GEMMTOP_UI_DRAW_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "tui/panes.h"

typedef struct KernelPane_ {
   int cursor;                /* selectable row: the variant picker, a parameter, a variant */
   int scroll;
} KernelPane;

/* The kernel pane's state among the explorer's (ui.c and the mouse move its cursor, the
 * compile ahead reads it); NULL before Panes_start. */
static inline KernelPane *KernelPane_of(const PaneStates *s) { return s->of[PANE_KERNEL]; }

#endif
