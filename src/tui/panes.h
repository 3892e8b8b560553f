/* Every pane of the explorer, one line each: the one place a pane is declared. The layout
 * (layout.c: sizes, what is dropped first), the preferences (prefs.c: its name), the keys
 * (its digit, what it does with the keys when focused, the mouse wheel), the drawing and
 * what the worker must compute for it all read this list. A new pane is a line here and
 * a file with its draw function (and its key function, if it has keys of its own).
 *
 * Columns: id; title; name in the preferences file; the digit that shows or hides it;
 * minimum height (its title row included) and width; preferred height (filled before the
 * weights share the rest; 0 none); weight; drop rank (when there is no room, rank 0 is
 * dropped first, and each rank is one pane's); draw function; key function when focused
 * (PaneKeyFn; PaneKeys_none when it has no keys: stepping keys it does not use go to the
 * kernel pane); lines one notch of the mouse wheel scrolls (0: none); what it needs from
 * the worker. The functions are declared from this list (panes_table.h). */
#ifndef GEMMTOP_UI_PANES_H
#define GEMMTOP_UI_PANES_H

#define PANE_LIST(X)                                                                                                   \
   X(KERNEL, "Kernel", "kernel", '1', 6, 30, 0, 3, 9, Draw_kernel, PaneKeys_kernel, 1, 0)                             \
   X(RESULTS, "Results", "results", '2', 5, 36, 12, 1, 8, Draw_results, PaneKeys_none, 0, 0)                          \
   X(HISTORY, "History", "history", '3', 4, 30, 0, 2, 5, Draw_history, PaneKeys_history, 1, 0)                        \
   X(LOG, "Log", "log", '4', 3, 30, 0, 2, 6, Draw_log, PaneKeys_log, 3, 0)                                            \
   X(BANKS, "Bank conflicts", "banks", '5', 6, 36, 0, 3, 2, Draw_banks, PaneKeys_banks, 3, PANE_NEEDS_BANKS)          \
   X(INSPECT, "Inspect", "inspect", '6', 6, 36, 0, 3, 1, Draw_inspect, PaneKeys_inspect, 3, PANE_NEEDS_INSPECT)       \
   X(SWEEP, "Sweep", "sweep", '7', 8, 40, 0, 3, 3, SweepView_draw, PaneKeys_sweep, 0, 0)                              \
   X(LESSON, "Lesson", "lesson", '8', 4, 40, 0, 4, 7, Draw_lesson, PaneKeys_lesson, 3, 0)                             \
   X(COMPARE, "Compare", "compare", '9', 4, 50, 0, 3, 4, Draw_compare, PaneKeys_none, 0,                                \
     PANE_NEEDS_BANKS | PANE_NEEDS_INSPECT)                                                                      \
   X(ROOFLINE, "Roofline", "roofline", '0', 6, 40, 0, 3, 0, Draw_roofline, PaneKeys_none, 0, 0)

#define PANE_ENUM_(id, ...) PANE_##id,
typedef enum { PANE_LIST(PANE_ENUM_) PANE_COUNT } PaneId;
#undef PANE_ENUM_

/* What a pane needs the worker to compute while it is shown. */
enum { PANE_NEEDS_BANKS = 1u << 0, PANE_NEEDS_INSPECT = 1u << 1 };

/* A pane's data columns (panes.c): what the preferences and the keys read. */
typedef struct PaneInfo_ {
   const char *title;
   const char *pref;          /* its name in the preferences file */
   int digit;                 /* the key that shows or hides it */
   int wheel;                 /* lines a notch of the mouse wheel scrolls */
   unsigned needs;            /* PANE_NEEDS_* */
} PaneInfo;

/* Pane p's data; NULL when there is none. */
const PaneInfo *Pane_info(int p);
/* The pane whose digit is ch, or -1. */
int Pane_byDigit(int ch);
/* The pane of a name in the preferences file, or -1. */
int Pane_byPrefName(const char *name);
/* What the panes of visible (PANE_BIT mask) need from the worker (PANE_NEEDS_*). */
unsigned Pane_needs(unsigned visible);

#endif
