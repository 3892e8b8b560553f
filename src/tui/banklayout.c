/* The bank pane's geometry (banklayout.h): pure arithmetic, no ncurses. */
#include "tui/banklayout.h"

#include <string.h>

int BankLayout_gridWidth(int banks) { return BANKLAYOUT_LABEL_W + banks + BANKLAYOUT_ADDRESS_W; }

int BankLayout_sideWidth(int w, int banks) {
   int side = w - BankLayout_gridWidth(banks) - 1; /* one blank column between */
   return side >= BANKLAYOUT_MIN_SIDE_W ? side : 0;
}

static int phasesOf(int lanes, int lpp) {
   if (lpp <= 0 || lpp >= lanes)
      return 1;
   return (lanes + lpp - 1) / lpp;
}

int BankLayout_rows(int lanes, int lpp) {
   if (lanes <= 0)
      return 0;
   const int phases = phasesOf(lanes, lpp);
   return lanes + (phases > 1 ? phases : 0);
}

int BankLayout_rowLane(int lanes, int lpp, int r) {
   if (r < 0 || r >= BankLayout_rows(lanes, lpp))
      return lanes; /* past the end: no lane */
   if (phasesOf(lanes, lpp) == 1)
      return r;
   /* Each phase is its heading, then its lanes. */
   int phase = r / (lpp + 1), at = r % (lpp + 1);
   return at == 0 ? -1 - phase : phase * lpp + at - 1;
}

/* The grid in a rectangle of h rows: how many rows it shows and whether it scrolls. */
static void fitGrid(const BankPaneNeeds *n, int h, BankPaneLayout *o) {
   int room = h - BANKLAYOUT_HEAD_ROWS;
   if (room < 1) {
      o->shown = 0;
      o->scrolls = o->rows > 0;
      return;
   }
   o->scrolls = o->rows > room;
   /* The last row then says which lanes are shown and how to see the others. */
   o->shown = o->scrolls ? (room > 1 ? room - 1 : 1) : o->rows;
}

/* Stacked: notes_h rows of notes above, the grid under them with at least one lane row,
 * then lesson_h rows of the lesson step's lines (as many as leave the grid one lane). */
static void stackNotes(const BankPaneNeeds *n, int notes_h, int w, int h, BankPaneLayout *o) {
   int lesson_h = n->lesson_rows;
   if (lesson_h > h - BANKLAYOUT_HEAD_ROWS - 1)
      lesson_h = h - BANKLAYOUT_HEAD_ROWS - 1;
   if (lesson_h < 0)
      lesson_h = 0;
   int above = h - lesson_h;
   if (notes_h > above - BANKLAYOUT_HEAD_ROWS - 1)
      notes_h = above - BANKLAYOUT_HEAD_ROWS - 1;
   if (notes_h < 0)
      notes_h = 0;
   o->notes = (Rect){0, 0, w, notes_h};
   o->grid = (Rect){0, notes_h, w, above - notes_h};
   fitGrid(n, o->grid.h, o);
   /* The grid's rows that are drawn, then the step's lines right under them. */
   int grid_used = o->grid.h >= BANKLAYOUT_HEAD_ROWS ? BANKLAYOUT_HEAD_ROWS + o->shown + (o->scrolls ? 1 : 0) : 0;
   if (grid_used > o->grid.h)
      grid_used = o->grid.h;
   if (lesson_h) {
      o->grid.h = grid_used;
      o->lesson = (Rect){0, notes_h + grid_used, w, h - notes_h - grid_used};
   }
}

/* The lanes among the first o->shown grid rows (phase headings are rows too). */
static int lanesShown(const BankPaneNeeds *n, const BankPaneLayout *o) {
   int lanes = 0;
   for (int r = 0; r < o->shown; r++)
      lanes += BankLayout_rowLane(n->lanes, n->lanes_per_phase, r) >= 0;
   return lanes;
}

void BankLayout_compute(const BankPaneNeeds *n, BankPaneLayout *o) {
   memset(o, 0, sizeof *o);
   int w = n->w > 0 ? n->w : 0, h = n->h > 0 ? n->h : 0;
   o->rows = BankLayout_rows(n->lanes, n->lanes_per_phase);
   if (o->rows == 0) {
      /* No grid: the notes, then the step's lines. */
      int lesson_h = n->lesson_rows < h ? n->lesson_rows : h;
      if (lesson_h <= 0) {
         o->notes = (Rect){0, 0, w, h};
         return;
      }
      int notes_h = n->notes_rows < h - lesson_h ? n->notes_rows : h - lesson_h;
      o->notes = (Rect){0, 0, w, notes_h};
      o->lesson = (Rect){0, notes_h, w, h - notes_h};
      return;
   }
   BankPaneLayout stacked = *o;
   stackNotes(n, n->notes_rows, w, h, &stacked);
   /* Not one whole phase under the notes: without the legend, if that shows more. */
   const int phase_rows = phasesOf(n->lanes, n->lanes_per_phase) > 1 ? n->lanes_per_phase + 1 : o->rows;
   if (stacked.scrolls && stacked.shown < phase_rows && n->notes_rows_short > 0 &&
       n->notes_rows_short < n->notes_rows) {
      BankPaneLayout shorter = *o;
      stackNotes(n, n->notes_rows_short, w, h, &shorter);
      shorter.legend_left_out = true;
      if (shorter.shown > stacked.shown)
         stacked = shorter;
   }
   /* A lesson step's lines leave too short a grid: the notes cut to the site table. */
   const int enough = BANKLAYOUT_MIN_LANES < n->lanes ? BANKLAYOUT_MIN_LANES : n->lanes;
   if (n->lesson_rows > 0 && lanesShown(n, &stacked) < enough && n->notes_rows_compact > 0 &&
       n->notes_rows_compact < stacked.notes.h) {
      BankPaneLayout compact = *o;
      stackNotes(n, n->notes_rows_compact, w, h, &compact);
      compact.legend_left_out = compact.compact = true;
      if (compact.shown > stacked.shown)
         stacked = compact;
   }
   *o = stacked;
   /* Beside: chosen only when it shows more lanes and every note (and the step's lines) fits. */
   int side_w = BankLayout_sideWidth(w, n->banks);
   if (stacked.scrolls && side_w && n->notes_rows_side + n->lesson_rows_side <= h) {
      BankPaneLayout side = stacked;
      side.side = true;
      side.legend_left_out = side.compact = false;
      int gw = BankLayout_gridWidth(n->banks);
      side.grid = (Rect){0, 0, gw, h};
      side.notes = (Rect){gw + 1, 0, side_w, n->lesson_rows_side > 0 ? n->notes_rows_side : h};
      side.lesson = n->lesson_rows_side > 0 ? (Rect){gw + 1, n->notes_rows_side, side_w, h - n->notes_rows_side}
                                            : (Rect){0, 0, 0, 0};
      fitGrid(n, h, &side);
      if (side.shown > stacked.shown)
         *o = side;
   }
   int avail = o->grid.w - BANKLAYOUT_LABEL_W;
   o->banks_shown = n->banks < avail ? n->banks : avail > 0 ? avail : 0;
   o->address = o->grid.w - BANKLAYOUT_LABEL_W - o->banks_shown >= BANKLAYOUT_ADDRESS_W;
   int max_first = o->rows - o->shown;
   o->first = n->scroll < 0 ? 0 : n->scroll > max_first ? max_first : n->scroll;
   if (o->first < 0)
      o->first = 0;
}

int BankLayout_readableHeight(int lanes, int lpp) {
   const int rows = BankLayout_rows(lanes, lpp);
   int r = 0; /* the rows through the last readable lane */
   for (int i = 0; i < rows; i++) {
      const int lane = BankLayout_rowLane(lanes, lpp, i);
      if (lane >= BANKLAYOUT_READABLE_LANES)
         break;
      if (lane >= 0)
         r = i + 1;
   }
   return BANKLAYOUT_HEAD_ROWS + r + (r < rows ? 1 : 0);
}
