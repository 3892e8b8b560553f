/* The bank pane's geometry as a pure function, like layout.h (no ncurses; tested in
 * tests/unit/test_banklayout.c): the pane's inside and what it must hold (the notes:
 * model, site table, request, legend; the grid: lanes x banks with a heading row
 * before each phase when there are several) -> where the notes and the grid go and which grid
 * rows are drawn. When the notes above the grid leave too few rows for a whole warp and
 * the pane is wide enough, the notes go beside the grid; when not even one phase of the
 * grid fits under the notes (80x24), their legend is left out; when the grid still does
 * not fit, it scrolls and its last row says which lanes are shown. A lesson step whose
 * point is the grid keeps its own lines (heading, measured figure, text) in view: under
 * the grid, which gets shorter, or under the notes beside it; the notes are then cut to
 * the site table and the request when the grid would otherwise show fewer lanes than
 * BANKLAYOUT_MIN_LANES. */
#ifndef GEMMTOP_UI_BANKLAYOUT_H
#define GEMMTOP_UI_BANKLAYOUT_H

#include <stdbool.h>

#include "tui/layout.h"

/* The grid's columns: "l31  " before the banks, " @12345" after them. */
#define BANKLAYOUT_LABEL_W 5
#define BANKLAYOUT_ADDRESS_W 8
/* The rows above the lanes: bank tens, bank units. */
#define BANKLAYOUT_HEAD_ROWS 2
/* The narrowest column of notes beside the grid. */
#define BANKLAYOUT_MIN_SIDE_W 50
/* With a lesson step's lines to keep in view: the fewest lane rows worth a grid. */
#define BANKLAYOUT_MIN_LANES 4
/* The lanes of a grid a class can read from the back of a room: half a warp. */
#define BANKLAYOUT_READABLE_LANES 16

typedef struct BankPaneNeeds_ {
   int w, h;               /* the pane's inside, its title row left out */
   int notes_rows;         /* rows the notes take across the whole width */
   int notes_rows_side;    /* the same in the column beside the grid (BankLayout_sideWidth) */
   int notes_rows_short;   /* the notes above the grid without their legend, its last rows (0: none) */
   int notes_rows_compact; /* ... and without the model and trace lines: the site table and the
                            * request (0: none) */
   int lesson_rows;        /* a lesson step's lines across the whole width (0: no step) */
   int lesson_rows_side;   /* the same in the column beside the grid */
   int lanes;              /* 0: no grid (only notes) */
   int banks;
   int lanes_per_phase;    /* lanes served together; <= 0 or >= lanes: one phase */
   int scroll;             /* the first grid row asked for (clamped in the result) */
} BankPaneNeeds;

typedef struct BankPaneLayout_ {
   bool side;              /* the grid on the left, the notes on its right */
   bool legend_left_out;   /* stacked, the notes cut to notes_rows_short for a whole phase */
   bool compact;           /* ... or to notes_rows_compact, for a lesson step's lines */
   Rect lesson;            /* where the step's lines go (h 0: none); fewer rows than asked for
                            * only when the pane cannot hold them with one lane */
   Rect notes;             /* x, y relative to the pane's inside */
   Rect grid;              /* the head rows, then the lane rows */
   int rows;               /* grid rows in all: lanes and phase separators */
   int first, shown;       /* the grid rows drawn: [first, first + shown) */
   bool scrolls;           /* not all are shown: the grid's last row says so */
   int banks_shown;        /* bank columns that fit */
   bool address;           /* room for the byte offset after the banks */
} BankPaneLayout;

/* The grid's width with its label and address columns. */
int BankLayout_gridWidth(int banks);
/* The notes' width beside a grid of banks columns in a pane w wide; 0 when there is no
 * room for notes beside it. */
int BankLayout_sideWidth(int w, int banks);
/* Grid rows (lanes and separators) of lanes lanes in phases of lanes_per_phase. */
int BankLayout_rows(int lanes, int lanes_per_phase);
/* What grid row r shows: a lane (>= 0), or -1 - p for the separator before phase p. */
int BankLayout_rowLane(int lanes, int lanes_per_phase, int r);
void BankLayout_compute(const BankPaneNeeds *n, BankPaneLayout *out);
/* The rows of a readable grid: its head rows, the rows of its first
 * BANKLAYOUT_READABLE_LANES lanes (phase headings included) and the row that says how to
 * scroll to the others. */
int BankLayout_readableHeight(int lanes, int lanes_per_phase);

#endif
