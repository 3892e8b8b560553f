/* The bank pane's geometry (tui/banklayout.h) as a pure function over many pane sizes:
 * the notes and the grid stay inside the pane and apart, a whole warp is shown when it
 * fits (at 120x40 zoomed: 32 lanes), the grid scrolls when it does not and the scroll
 * reaches the last lane, and phase separators sit where the phases change. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tui/banklayout.h"

static bool inside(Rect in, int w, int h) {
   return in.w == 0 || in.h == 0 || (in.x >= 0 && in.y >= 0 && in.x + in.w <= w && in.y + in.h <= h);
}

static bool apart(Rect a, Rect b) {
   return a.w <= 0 || a.h <= 0 || b.w <= 0 || b.h <= 0 || a.x + a.w <= b.x || b.x + b.w <= a.x ||
          a.y + a.h <= b.y || b.y + b.h <= a.y;
}

static void rowsAndLanes(void **state) {
   /* One phase: rows are lanes. */
   assert_int_equal(BankLayout_rows(32, 32), 32);
   assert_int_equal(BankLayout_rowLane(32, 32, 31), 31);
   /* 8-byte accesses on 32 banks x 4 B: two phases of 16, each under its heading. */
   assert_int_equal(BankLayout_rows(32, 16), 34);
   assert_int_equal(BankLayout_rowLane(32, 16, 0), -1); /* the heading of phase 0 */
   assert_int_equal(BankLayout_rowLane(32, 16, 1), 0);
   assert_int_equal(BankLayout_rowLane(32, 16, 16), 15);
   assert_int_equal(BankLayout_rowLane(32, 16, 17), -2); /* the heading of phase 1 */
   assert_int_equal(BankLayout_rowLane(32, 16, 18), 16);
   assert_int_equal(BankLayout_rowLane(32, 16, 33), 31);
   /* 16-byte: four phases of 8. */
   assert_int_equal(BankLayout_rows(32, 8), 36);
   assert_int_equal(BankLayout_rowLane(32, 8, 27), -4);
   assert_int_equal(BankLayout_rowLane(32, 8, 35), 31);
   /* Every lane appears exactly once, in order, over many shapes. */
   for (int lanes = 1; lanes <= 64; lanes++)
      for (int lpp = 1; lpp <= 64; lpp++) {
         int next = 0, rows = BankLayout_rows(lanes, lpp);
         for (int r = 0; r < rows; r++) {
            int l = BankLayout_rowLane(lanes, lpp, r);
            if (l >= 0)
               assert_int_equal(l, next++);
         }
         assert_int_equal(next, lanes);
      }
}

/* The explorer zoomed at 120x40: the pane's inside is 118 x 36. */
static void wholeWarpAt120x40(void **state) {
   BankPaneNeeds n = {.w = 118, .h = 36, .notes_rows = 12, .notes_rows_side = 14, .lanes = 32, .banks = 32,
                      .lanes_per_phase = 32};
   BankPaneLayout l;
   BankLayout_compute(&n, &l);
   assert_true(l.side);
   assert_false(l.scrolls);
   assert_int_equal(l.shown, 32);
   assert_int_equal(l.first, 0);
   assert_int_equal(l.banks_shown, 32);
   assert_true(l.address);
   /* 8-byte phases: a heading for each, still whole. */
   n.lanes_per_phase = 16;
   BankLayout_compute(&n, &l);
   assert_false(l.scrolls);
   assert_int_equal(l.shown, 34);
}

/* 80x24 zoomed: 78 x 20; the grid scrolls, and the end is reachable. */
static void scrollsAt80x24(void **state) {
   BankPaneNeeds n = {.w = 78, .h = 20, .notes_rows = 11, .notes_rows_side = 30, .lanes = 32, .banks = 32,
                      .lanes_per_phase = 32, .scroll = 1000};
   BankPaneLayout l;
   BankLayout_compute(&n, &l);
   assert_false(l.side);
   assert_true(l.scrolls);
   assert_true(l.shown >= 1);
   assert_int_equal(l.first + l.shown, l.rows);
   assert_int_equal(BankLayout_rowLane(32, 32, l.first + l.shown - 1), 31);
   n.scroll = -5;
   BankLayout_compute(&n, &l);
   assert_int_equal(l.first, 0);
}

/* 80x24 zoomed with 8-byte accesses (the DCU chapter's doubles): under all the notes not
 * even phase 0 fits, so the legend is left out and the grid shows more; where the whole
 * notes leave a phase, the legend stays. */
static void legendLeftOutAt80x24(void **state) {
   BankPaneNeeds n = {.w = 78, .h = 20, .notes_rows = 15, .notes_rows_short = 10, .notes_rows_side = 30,
                      .lanes = 32, .banks = 32, .lanes_per_phase = 16};
   BankPaneLayout l;
   BankLayout_compute(&n, &l);
   assert_false(l.side);
   assert_true(l.legend_left_out);
   assert_int_equal(l.notes.h, 10);
   /* 20 - 10 notes - 2 heads - 1 scroll row */
   assert_int_equal(l.shown, 7);
   n.h = 40; /* tall enough for a phase under every note */
   BankLayout_compute(&n, &l);
   assert_false(l.legend_left_out);
   assert_int_equal(l.notes.h, 15);
   n.h = 20, n.notes_rows_short = 0; /* no legend to leave out */
   BankLayout_compute(&n, &l);
   assert_false(l.legend_left_out);
   assert_int_equal(l.notes.h, 15);
}

/* A lesson step whose point is the grid (dcu step 6) at 80x24 zoomed (78 x 20): its
 * heading, figure and 5 lines of text (7 rows) under a shorter grid, the notes cut to the
 * site table, at least BANKLAYOUT_MIN_LANES lanes in view. At 120x40 (118 x 36): beside
 * the grid, under every note, and the whole warp. */
static void lessonStepInView(void **state) {
   BankPaneNeeds n = {.w = 78, .h = 20, .notes_rows = 14, .notes_rows_short = 11, .notes_rows_compact = 5,
                      .notes_rows_side = 16, .lesson_rows = 7, .lesson_rows_side = 9, .lanes = 32, .banks = 32,
                      .lanes_per_phase = 16};
   BankPaneLayout l;
   BankLayout_compute(&n, &l);
   assert_false(l.side);
   assert_true(l.compact);
   assert_int_equal(l.notes.h, 5);
   assert_true(l.lesson.h >= 7);
   assert_true(apart(l.lesson, l.grid) && apart(l.lesson, l.notes) && apart(l.notes, l.grid));
   int lanes = 0;
   for (int r = l.first; r < l.first + l.shown; r++)
      lanes += BankLayout_rowLane(32, 16, r) >= 0;
   assert_true(lanes >= BANKLAYOUT_MIN_LANES);
   /* The step's lines right under the grid's last row (its scroll row). */
   assert_int_equal(l.lesson.y, l.grid.y + l.grid.h);
   n.w = 118, n.h = 36;
   BankLayout_compute(&n, &l);
   assert_true(l.side);
   assert_false(l.scrolls);
   assert_int_equal(l.notes.h, 16);
   assert_true(l.lesson.h >= 9);
   assert_int_equal(l.lesson.x, l.notes.x);
   assert_true(apart(l.lesson, l.grid) && apart(l.lesson, l.notes));
   /* Not traced yet (no grid): the notes, then the step. */
   n.lanes = 0;
   BankLayout_compute(&n, &l);
   assert_true(l.lesson.h >= 7 && l.lesson.y >= l.notes.y + l.notes.h);
   /* A readable grid: half a warp and the rows around it. */
   assert_int_equal(BankLayout_readableHeight(32, 32), BANKLAYOUT_HEAD_ROWS + 16 + 1);
   assert_int_equal(BankLayout_readableHeight(32, 16), BANKLAYOUT_HEAD_ROWS + 17 + 1);
   assert_int_equal(BankLayout_readableHeight(8, 32), BANKLAYOUT_HEAD_ROWS + 8);
}

/* Over many sizes and shapes: inside, apart, consistent. */
static void manySizes(void **state) {
   for (int w = 1; w <= 200; w += 3)
      for (int h = 1; h <= 60; h += 2)
         for (int lanes = 0; lanes <= 64; lanes += 16)
            for (int notes = 0; notes <= 40; notes += 13) {
               BankPaneNeeds n = {.w = w, .h = h, .notes_rows = notes, .notes_rows_side = notes + 4,
                                  .notes_rows_short = notes / 2, .notes_rows_compact = notes / 3,
                                  .lesson_rows = (w + h) % 11, .lesson_rows_side = (w + h) % 13,
                                  .lanes = lanes, .banks = 32, .lanes_per_phase = 16, .scroll = (w * h) % 70};
               BankPaneLayout l;
               BankLayout_compute(&n, &l);
               char where[96];
               snprintf(where, sizeof where, "%dx%d lanes %d notes %d", w, h, lanes, notes);
               if (!inside(l.notes, w, h) || !inside(l.grid, w, h) || !apart(l.notes, l.grid) ||
                   !inside(l.lesson, w, h) || !apart(l.lesson, l.grid) || !apart(l.lesson, l.notes))
                  fail_msg("%s: rectangles leave the pane or overlap", where);
               /* The step's lines whole wherever one lane of grid and they fit. */
               const int step_rows = l.side ? n.lesson_rows_side : n.lesson_rows;
               if (lanes && h >= step_rows + BANKLAYOUT_HEAD_ROWS + 1 && l.lesson.h < step_rows)
                  fail_msg("%s: %d rows for the step's %d", where, l.lesson.h, step_rows);
               if (l.first < 0 || l.shown < 0 || l.first + l.shown > l.rows)
                  fail_msg("%s: rows %d+%d of %d", where, l.first, l.shown, l.rows);
               if (!l.scrolls && l.shown != l.rows)
                  fail_msg("%s: not scrolling but %d of %d rows shown", where, l.shown, l.rows);
               if (l.grid.h >= BANKLAYOUT_HEAD_ROWS && l.shown + BANKLAYOUT_HEAD_ROWS + (l.scrolls ? 1 : 0) > l.grid.h &&
                   l.shown > 1)
                  fail_msg("%s: %d rows do not fit a grid %d high", where, l.shown, l.grid.h);
               if (l.banks_shown > 32 || (l.banks_shown > 0 && l.banks_shown + BANKLAYOUT_LABEL_W > l.grid.w))
                  fail_msg("%s: %d banks in a grid %d wide", where, l.banks_shown, l.grid.w);
            }
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(rowsAndLanes),
       cmocka_unit_test(wholeWarpAt120x40),
       cmocka_unit_test(scrollsAt80x24),
       cmocka_unit_test(legendLeftOutAt80x24),
       cmocka_unit_test(lessonStepInView),
       cmocka_unit_test(manySizes),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
