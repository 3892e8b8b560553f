/* The functions of each pane (panes.h's list, panes.c's table). */
#ifndef GEMMTOP_UI_PANES_TABLE_H
#define GEMMTOP_UI_PANES_TABLE_H

#include <stdbool.h>

#include "tui/panes.h"

struct Ui_;
/* A key in the focused pane: whether the pane used it (a stepping key it does not use
 * then goes to the kernel pane). */
typedef bool (*PaneKeyFn)(struct Ui_ *ui, int ch);

typedef struct PaneClass_ {
   const char *title;
   const char *pref;          /* its name in the preferences file */
   int digit;                 /* the key that shows or hides it */
   void (*draw)(struct Ui_ *ui);
   PaneKeyFn key;             /* PaneKeys_none: none */
   int wheel;                 /* lines a notch of the mouse wheel scrolls */
   unsigned needs;            /* PANE_NEEDS_* */
} PaneClass;

/* Pane p's row; NULL when there is none. */
const PaneClass *Pane_class(int p);
/* The rows pane p's content needs at a width (LayoutWants' rows; 0: nothing in particular). */
int Pane_wantRows(struct Ui_ *ui, int p, int width);
/* The bank pane's: when it shows a lesson step's grid and text without the lesson pane (the
 * projector's layout), a readable grid (draw_banks.c). The lesson pane's: lesson_ui.h. */
int Draw_banksRows(struct Ui_ *ui, int width);
/* The compare pane's, once a configuration is pinned: every row it has (draw_compare.c). */
int Draw_compareRows(struct Ui_ *ui, int width);

/* The panes' functions, declared from the list. */
#define PANE_DECLARE_(id, title, pref, digit, min_h, min_w, pref_h, weight, drop, draw, key, wheel, needs)             \
   void draw(struct Ui_ *ui);                                                                                          \
   bool key(struct Ui_ *ui, int ch);
PANE_LIST(PANE_DECLARE_)
#undef PANE_DECLARE_
/* A pane with no keys of its own. */
bool PaneKeys_none(struct Ui_ *ui, int ch);

#endif
