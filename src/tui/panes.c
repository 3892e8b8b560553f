/* The data columns of the panes' list (panes.h): each pane's title, name in the
 * preferences, digit, mouse wheel and what it needs of the worker, and the lookups by
 * them. It names no pane's function, so that the preferences and the keys read it without
 * reaching the panes (their functions' table is panes_table.c). */
#include "tui/panes.h"

#include <string.h>

static const PaneInfo infos[PANE_COUNT] = {PANE_LIST(PANE_INFO_ROW)};

const PaneInfo *Pane_infos(void) { return infos; }

const PaneInfo *Pane_info(int p) { return p >= 0 && p < PANE_COUNT ? &infos[p] : NULL; }

int Pane_byDigit(int ch) {
   for (int p = 0; p < PANE_COUNT; p++)
      if (infos[p].digit == ch)
         return p;
   return -1;
}

int Pane_byPrefName(const char *name) {
   for (int p = 0; p < PANE_COUNT; p++)
      if (!strcmp(infos[p].pref, name))
         return p;
   return -1;
}

unsigned Pane_needs(unsigned visible) {
   unsigned needs = 0;
   for (int p = 0; p < PANE_COUNT; p++)
      if (visible & (1u << p))
         needs |= infos[p].needs;
   return needs;
}
