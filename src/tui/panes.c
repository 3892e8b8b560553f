/* The panes' table (panes.h) with the functions of each: what draw.c, keys.c, panekeys.c,
 * news.c and prefs.c iterate instead of naming panes. */
#include "tui/panes_table.h"

#include <string.h>

#include "tui/lesson_ui.h"

#define PANE_ROW_(id, title, pref, digit, min_h, min_w, pref_h, weight, drop, draw, key, wheel, needs)                 \
   [PANE_##id] = {title, pref, digit, draw, key, wheel, needs},
static const PaneClass classes[PANE_COUNT] = {PANE_LIST(PANE_ROW_)};
#undef PANE_ROW_

/* The panes whose content asks the layout for rows (layout.h's wants). */
static int (*const wants[PANE_COUNT])(struct Ui_ *ui, int width) = {[PANE_LESSON] = LessonUi_paneRows,
                                                                     [PANE_BANKS] = Draw_banksRows,
                                                                     [PANE_COMPARE] = Draw_compareRows};

int Pane_wantRows(struct Ui_ *ui, int p, int width) {
   return p >= 0 && p < PANE_COUNT && wants[p] ? wants[p](ui, width) : 0;
}

const PaneClass *Pane_class(int p) { return p >= 0 && p < PANE_COUNT ? &classes[p] : NULL; }

int Pane_byDigit(int ch) {
   for (int p = 0; p < PANE_COUNT; p++)
      if (classes[p].digit == ch)
         return p;
   return -1;
}

int Pane_byPrefName(const char *name) {
   for (int p = 0; p < PANE_COUNT; p++)
      if (!strcmp(classes[p].pref, name))
         return p;
   return -1;
}

unsigned Pane_needs(unsigned visible) {
   unsigned needs = 0;
   for (int p = 0; p < PANE_COUNT; p++)
      if (visible & (1u << p))
         needs |= classes[p].needs;
   return needs;
}
