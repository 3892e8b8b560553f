/* Every pane of the explorer, one line each: the one place a pane is declared. The layout
 * (layout.c: sizes, what is dropped first), the preferences (prefs.c: its name), the keys
 * (its digit, its own keys, what it does with the keys when focused, the mouse wheel), the
 * help page, the drawing and the worker's news all read this list. A new pane is a line
 * here and one file that defines its class (panes_table.h: draw, keys, news, its state's
 * size, made and freed), whose state the walks over the panes keep (PaneStates).
 *
 * Columns: id; title; name in the preferences file; the digit that shows or hides it;
 * minimum height (its title row included) and width; preferred height (filled before the
 * weights share the rest; 0 none); weight; drop rank (when there is no room, rank 0 is
 * dropped first, and each rank is one pane's); lines one notch of the mouse wheel scrolls
 * (0: none); what it needs from the worker; its class (a PaneClass its file defines). */
#ifndef GEMMTOP_UI_PANES_H
#define GEMMTOP_UI_PANES_H

#define PANE_LIST(X)                                                                                                   \
   X(KERNEL, "Kernel", "kernel", '1', 6, 30, 0, 3, 9, 1, 0, Kernel_pane)                                               \
   X(RESULTS, "Results", "results", '2', 5, 36, 12, 1, 8, 0, 0, Results_pane)                                          \
   X(HISTORY, "History", "history", '3', 4, 30, 0, 2, 5, 1, 0, History_pane)                                           \
   X(LOG, "Log", "log", '4', 3, 30, 0, 2, 6, 3, 0, Log_pane)                                                           \
   X(BANKS, "Bank conflicts", "banks", '5', 6, 36, 0, 3, 2, 3, PANE_NEEDS_BANKS, Banks_pane)                           \
   X(INSPECT, "Inspect", "inspect", '6', 6, 36, 0, 3, 1, 3, PANE_NEEDS_INSPECT, Inspect_pane)                          \
   X(SWEEP, "Sweep", "sweep", '7', 8, 40, 0, 3, 3, 0, 0, Sweep_pane)                                                   \
   X(LESSON, "Lesson", "lesson", '8', 4, 40, 0, 4, 7, 3, 0, Lesson_pane)                                               \
   X(COMPARE, "Compare", "compare", '9', 4, 50, 0, 3, 4, 0, PANE_NEEDS_BANKS | PANE_NEEDS_INSPECT, Compare_pane)       \
   X(ROOFLINE, "Roofline", "roofline", '0', 6, 40, 0, 3, 0, 0, 0, Roofline_pane)

#define PANE_ENUM_(id, ...) PANE_##id,
typedef enum { PANE_LIST(PANE_ENUM_) PANE_COUNT } PaneId;
#undef PANE_ENUM_

/* Each pane's state, kept for the explorer (Ui.panes) by the walks over the panes
 * (panes_table.h: Panes_start makes of[p] from pane p's class, Panes_free frees it); NULL
 * for a pane that keeps none. A pane's header may give the files that must reach its
 * state one typed accessor on it (KernelPane_of). */
typedef struct PaneStates_ {
   void *of[PANE_COUNT];
} PaneStates;

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

/* A row of the data, from a list of panes.h's columns. */
#define PANE_INFO_ROW(id, title, pref, digit, min_h, min_w, pref_h, weight, drop, wheel, needs, cls)                  \
   {title, pref, digit, wheel, needs},

/* The shipped list's data, PANE_COUNT rows. */
const PaneInfo *Pane_infos(void);
/* Pane p's data; NULL when there is none. */
const PaneInfo *Pane_info(int p);
/* The pane whose digit is ch, or -1. */
int Pane_byDigit(int ch);
/* The pane of a name in the preferences file, or -1. */
int Pane_byPrefName(const char *name);
/* What the panes of visible (PANE_BIT mask) need from the worker (PANE_NEEDS_*). */
unsigned Pane_needs(unsigned visible);

#endif
