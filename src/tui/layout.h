/* Screen geometry of the explorer as a pure function: terminal size and the panes the
 * user wants -> one rectangle per pane. No ncurses here, so it is tested over thousands
 * of sizes (tests/unit/test_layout.c). */
#ifndef GEMMTOP_UI_LAYOUT_H
#define GEMMTOP_UI_LAYOUT_H

#include <stdbool.h>

#include "tui/panes.h" /* PaneId: the list of panes, their sizes and drop order */

#define PANE_BIT(p) (1u << (p))
#define PANES_ALL ((1u << PANE_COUNT) - 1)
#define PANES_DEFAULT (PANE_BIT(PANE_KERNEL) | PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_HISTORY) | PANE_BIT(PANE_LOG))

/* Below this the explorer shows "terminal too small (need WxH)" instead. */
#define LAYOUT_MIN_W 60
#define LAYOUT_MIN_H 16
#define LAYOUT_HEADER_H 2
#define LAYOUT_FOOTER_H 1

typedef struct Rect_ {
   int x, y, w, h;
} Rect;

typedef struct Layout_ {
   int cols, rows;
   bool too_small;          /* then only need_w/need_h mean anything */
   int need_w, need_h;
   Rect header, footer, body;
   Rect pane[PANE_COUNT];   /* w == h == 0 when not shown */
   unsigned shown;          /* panes that got a rectangle */
   unsigned dropped;        /* wanted but no room at this size */
   bool side_by_side;       /* kernel pane on the left, the others stacked on the right */
   Rect divider;            /* the column between them (w == 0 when none) */
   bool wants_met;          /* every shown pane got the rows its content wants (LayoutWants) */
} Layout;

/* What a pane's content asks for: the rows (its title row included) it needs at a width
 * to show what must stay in view (the lesson pane: its step's heading, figure and text);
 * 0 when nothing in particular. A pure function of the pane and the width, for the layout
 * to stay one. */
typedef struct LayoutWants_ {
   int (*rows)(void *ctx, PaneId p, int width);
   void *ctx;
} LayoutWants;

/* visible: PANE_BIT mask of the panes the user wants; zoom: a pane shown alone over the
 * whole body, or -1. Each shown pane gets at least Layout_minHeight rows (its title row
 * included) and Layout_minWidth columns; panes that do not fit are dropped, the least
 * important first (the drop ranks of panes.h: inspect, banks, sweep, compare, history,
 * log, lesson, results, kernel). */
void Layout_compute(int cols, int rows, unsigned visible, int zoom, Layout *out);
/* The same with the panes' wants (NULL: none): a pane's want is met before any preferred
 * height; when the column beside the kernel pane is too narrow to meet every want and the
 * whole width would, the kernel pane gives way (dropped: "no room: 1") and the others
 * stack across the screen. */
void Layout_computeWanting(int cols, int rows, unsigned visible, int zoom, const LayoutWants *wants, Layout *out);

int Layout_minHeight(PaneId p);
/* The digit key that shows or hides pane p (and names it in its title). */
int Layout_paneKey(PaneId p);
int Layout_minWidth(PaneId p);
/* Its place in the order panes are dropped when there is no room (0: first). */
int Layout_dropRank(PaneId p);
const char *Layout_paneName(PaneId p);

/* A centred dialog of at most want_w x want_h, inside the screen with a margin. */
Rect Layout_dialog(int cols, int rows, int want_w, int want_h);

/* Whether (x, y) lies in r. */
bool Rect_contains(Rect r, int x, int y);

#endif
