/* The explorer's layout over many terminal sizes and pane choices: nothing overlaps,
 * nothing leaves the screen, every pane shown has its minimum size, panes are dropped
 * only when there is no room, and small terminals say how big they must be. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "tui/layout.h"
#include "tui/panes_table.h"

static bool overlap(Rect a, Rect b) {
   return a.w > 0 && a.h > 0 && b.w > 0 && b.h > 0 && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
          b.y < a.y + a.h;
}

static bool inside(Rect inner, Rect outer) {
   return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w &&
          inner.y + inner.h <= outer.y + outer.h;
}

static void checkWanting(int cols, int rows, unsigned visible, int zoom, const LayoutWants *wants, Layout *out);

static void check(int cols, int rows, unsigned visible, int zoom) {
   Layout l;
   checkWanting(cols, rows, visible, zoom, NULL, &l);
}

/* The invariants of check, with the panes' wants: and each want met where the layout says
 * so. */
static void checkWanting(int cols, int rows, unsigned visible, int zoom, const LayoutWants *wants, Layout *out) {
   Layout l;
   Layout_computeWanting(cols, rows, visible, zoom, wants, &l);
   *out = l;
   char where[96];
   snprintf(where, sizeof where, "%dx%d visible=%#x zoom=%d", cols, rows, visible, zoom);
   if (cols < LAYOUT_MIN_W || rows < LAYOUT_MIN_H) {
      if (!l.too_small)
         fail_msg("%s: should be too small", where);
      assert_int_equal(l.need_w, LAYOUT_MIN_W);
      assert_int_equal(l.need_h, LAYOUT_MIN_H);
      assert_int_equal(l.shown, 0);
      return;
   }
   if (l.too_small)
      fail_msg("%s: should fit", where);
   Rect screen = {0, 0, cols, rows};
   assert_true(inside(l.header, screen) && inside(l.footer, screen) && inside(l.body, screen));
   assert_int_equal(l.header.y, 0);
   assert_int_equal(l.footer.y, rows - 1);
   assert_false(overlap(l.header, l.body) || overlap(l.footer, l.body) || overlap(l.header, l.footer));
   /* Shown panes are among the wanted ones; wanted ones are shown or dropped. */
   assert_int_equal(l.shown & ~visible, 0);
   if (zoom < 0 || !(visible & PANE_BIT(zoom)))
      assert_int_equal(l.shown | l.dropped, visible & PANES_ALL);
   else
      assert_int_equal(l.shown, PANE_BIT(zoom));
   assert_int_equal(l.shown & l.dropped, 0);
   int area = 0;
   for (int p = 0; p < PANE_COUNT; p++) {
      Rect r = l.pane[p];
      if (!(l.shown & PANE_BIT(p))) {
         if (r.w || r.h)
            fail_msg("%s: pane %d not shown but has a rectangle", where, p);
         continue;
      }
      if (!inside(r, l.body))
         fail_msg("%s: pane %d (%d,%d %dx%d) leaves the body", where, p, r.x, r.y, r.w, r.h);
      if (r.h < Layout_minHeight(p) || r.w < Layout_minWidth(p))
         fail_msg("%s: pane %d is %dx%d, below its minimum", where, p, r.w, r.h);
      if (l.divider.w && overlap(r, l.divider))
         fail_msg("%s: pane %d covers the divider", where, p);
      for (int q = p + 1; q < PANE_COUNT; q++)
         if ((l.shown & PANE_BIT(q)) && overlap(r, l.pane[q]))
            fail_msg("%s: panes %d and %d overlap", where, p, q);
      area += r.w * r.h;
   }
   /* The body is used: no rows are left empty below the panes. */
   if (l.shown) {
      int divider = l.divider.w * l.divider.h;
      if (area + divider != l.body.w * l.body.h)
         fail_msg("%s: panes cover %d of %d cells", where, area + divider, l.body.w * l.body.h);
   }
   /* The results pane is the last one given up (before the kernel pane). */
   if ((visible & PANE_BIT(PANE_RESULTS)) && zoom < 0)
      assert_true(l.shown & PANE_BIT(PANE_RESULTS));
   /* Wants: met where the layout says so; the kernel pane gives way only for one. */
   for (int p = 0; wants && p < PANE_COUNT; p++) {
      if (!(l.shown & PANE_BIT(p)) || (zoom >= 0 && (visible & PANE_BIT(zoom))))
         continue;
      int want = wants->rows(wants->ctx, (PaneId)p, l.pane[p].w);
      if (l.wants_met && l.pane[p].h < want)
         fail_msg("%s: pane %d has %d rows, wants %d, said met", where, p, l.pane[p].h, want);
   }
   if (!wants && (l.dropped & PANE_BIT(PANE_KERNEL)))
      fail_msg("%s: the kernel pane dropped with no want to make room for", where);
}

/* A pane's text of some length, word-wrapped: the rows it wants at a width (its title row
 * included), as the lesson pane asks. */
typedef struct FakeText_ {
   int chars[PANE_COUNT];
} FakeText;

static int fakeRows(void *ctx, PaneId p, int width) {
   const FakeText *t = ctx;
   int inner = width - 2 > 1 ? width - 2 : 1;
   return t->chars[p] ? 1 + (t->chars[p] + inner - 1) / inner : 0;
}

/* The lesson pane's want over many sizes and lengths: the invariants hold; the want is met
 * beside the kernel pane when it fits there, else across the width without the kernel
 * pane when it fits there; never is the kernel pane dropped where the want fitted beside
 * it. */
static void test_wants(void **state) {
   (void)state;
   const unsigned lesson = PANE_BIT(PANE_KERNEL) | PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_LESSON);
   const unsigned masks[] = {lesson, lesson | PANE_BIT(PANE_BANKS), PANES_ALL, PANES_DEFAULT,
                             PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_BANKS)};
   for (int cols = LAYOUT_MIN_W - 1; cols <= 220; cols += cols < 130 ? 3 : 11)
      for (int rows = LAYOUT_MIN_H - 1; rows <= 70; rows += 3)
         for (int chars = 0; chars <= 1400; chars += 175)
            for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
               FakeText t = {{0}};
               t.chars[PANE_LESSON] = chars;
               t.chars[PANE_BANKS] = chars / 2;
               const LayoutWants w = {fakeRows, &t};
               Layout l, plain, zoomed;
               checkWanting(cols, rows, masks[m], -1, &w, &l);
               checkWanting(cols, rows, masks[m], PANE_LESSON, &w, &zoomed);
               if (l.too_small)
                  continue;
               Layout_compute(cols, rows, masks[m], -1, &plain);
               if ((l.dropped & PANE_BIT(PANE_KERNEL)) && !(plain.dropped & PANE_BIT(PANE_KERNEL))) {
                  /* It gave way: beside it the want was not met, across it is. */
                  assert_true(l.wants_met);
                  assert_false(l.side_by_side);
                  assert_int_equal(l.pane[PANE_LESSON].w, cols);
               }
            }
}

/* The shipped lessons' longest step (tensor 6: heading, a figure and 530 characters of
 * text, more rows than that once word-wrapped) at 80x24 and 120x40: whole, with the results pane kept. */
static void test_lesson_at_small_terminals(void **state) {
   (void)state;
   const unsigned lesson = PANE_BIT(PANE_KERNEL) | PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_LESSON);
   FakeText t = {{0}};
   t.chars[PANE_LESSON] = 80 + 60 + 600;
   const LayoutWants w = {fakeRows, &t};
   Layout l;
   Layout_computeWanting(80, 24, lesson, -1, &w, &l);
   assert_true(l.wants_met);
   assert_true(l.shown & PANE_BIT(PANE_RESULTS));
   assert_true(l.pane[PANE_LESSON].h >= fakeRows(&t, PANE_LESSON, l.pane[PANE_LESSON].w));
   /* Beside the kernel pane the column is 47 wide: 16 rows of text do not fit under the
    * results' minimum, so the kernel pane gives way. */
   assert_true(l.dropped & PANE_BIT(PANE_KERNEL));
   Layout_computeWanting(120, 40, lesson, -1, &w, &l);
   assert_true(l.wants_met);
   assert_true(l.side_by_side);
   assert_true(l.pane[PANE_RESULTS].h >= 12);
   /* A short step keeps the kernel pane at 80x24. */
   t.chars[PANE_LESSON] = 200;
   Layout_computeWanting(80, 24, lesson, -1, &w, &l);
   assert_true(l.side_by_side);
   assert_true(l.wants_met);
   /* The projector's layout of a grid step: results and a readable grid (1 + 2 + 17 + 1
    * rows) at 120x40; at 80x24 not, which keys.c answers with the grid alone. */
   const unsigned proj = PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_BANKS);
   t.chars[PANE_LESSON] = 0;
   t.chars[PANE_BANKS] = (21 - 1) * 118 - 1; /* 21 rows at 120 columns */
   Layout_computeWanting(120, 40, proj, -1, &w, &l);
   assert_true(l.wants_met);
   assert_true(l.pane[PANE_BANKS].h >= 21);
   t.chars[PANE_BANKS] = (21 - 1) * 78 - 1;
   Layout_computeWanting(80, 24, proj, -1, &w, &l);
   assert_false(l.wants_met);
}

static void test_many_sizes(void **state) {
   (void)state;
   for (int cols = 1; cols <= 260; cols += (cols < 140 ? 1 : 7))
      for (int rows = 1; rows <= 90; rows += (rows < 50 ? 1 : 5))
         for (unsigned v = 0; v <= PANES_ALL; v++)
            check(cols, rows, v, -1);
}

static void test_zoom(void **state) {
   (void)state;
   for (int cols = 55; cols <= 200; cols += 5)
      for (int rows = 12; rows <= 60; rows += 3)
         for (int z = 0; z < PANE_COUNT; z++) {
            check(cols, rows, PANES_ALL, z);
            check(cols, rows, PANES_DEFAULT, z);
         }
}

static void test_standard_terminals(void **state) {
   (void)state;
   Layout l;
   /* 80x24: every default pane fits, kernel on the left. */
   Layout_compute(80, 24, PANES_DEFAULT, -1, &l);
   assert_false(l.too_small);
   assert_int_equal(l.shown, PANES_DEFAULT);
   assert_true(l.side_by_side);
   assert_int_equal(l.pane[PANE_KERNEL].x, 0);
   assert_true(l.pane[PANE_RESULTS].x > l.pane[PANE_KERNEL].x);
   assert_true(l.pane[PANE_RESULTS].h >= 10);
   /* 120x40 with the bank-conflict pane too (all but the compare and roofline panes: more
    * panes' minimum heights no longer fit in 37 rows). */
   const unsigned most = PANES_ALL & ~PANE_BIT(PANE_COMPARE) & ~PANE_BIT(PANE_ROOFLINE);
   Layout_compute(120, 40, most, -1, &l);
   assert_int_equal(l.shown, most);
   /* 120x50: every pane. */
   Layout_compute(120, 50, PANES_ALL, -1, &l);
   assert_int_equal(l.shown, PANES_ALL);
   /* Wide: the kernel pane stays 48 columns up to 160, then grows (variant names uncut). */
   Layout_compute(150, 50, PANES_DEFAULT, -1, &l);
   assert_int_equal(l.pane[PANE_KERNEL].w, 48);
   Layout_compute(200, 60, PANES_DEFAULT, -1, &l);
   assert_int_equal(l.pane[PANE_KERNEL].w, 60);
   assert_true(l.pane[PANE_RESULTS].w >= 120);
   Layout_compute(400, 60, PANES_DEFAULT, -1, &l);
   assert_int_equal(l.pane[PANE_KERNEL].w, 72);
   /* Narrow: stacked. */
   Layout_compute(62, 30, PANES_DEFAULT, -1, &l);
   assert_false(l.side_by_side);
   assert_true(l.pane[PANE_KERNEL].y < l.pane[PANE_RESULTS].y);
   /* The minimum itself works, dropping what does not fit. */
   Layout_compute(LAYOUT_MIN_W, LAYOUT_MIN_H, PANES_ALL, -1, &l);
   assert_false(l.too_small);
   assert_true(l.shown & PANE_BIT(PANE_RESULTS));
   assert_true(l.dropped & PANE_BIT(PANE_BANKS));
}

/* The sweep pane (7) beside the others: every check above at many sizes, the pane given
 * up only when its minimum height does not fit beside the panes kept (and after the
 * bank pane), and alone or zoomed it takes the whole body. */
static void test_sweep_pane(void **state) {
   (void)state;
   const unsigned S = PANE_BIT(PANE_SWEEP);
   const unsigned masks[] = {S, PANES_DEFAULT | S, PANES_ALL, PANE_BIT(PANE_KERNEL) | S,
                             PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_BANKS) | S};
   assert_int_equal(Layout_paneKey(PANE_SWEEP), 7);
   assert_string_equal(Layout_paneName(PANE_SWEEP), "Sweep");
   for (int cols = LAYOUT_MIN_W - 2; cols <= 300; cols += cols < 130 ? 1 : 9)
      for (int rows = LAYOUT_MIN_H - 2; rows <= 100; rows += rows < 60 ? 1 : 7)
         for (size_t m = 0; m < sizeof masks / sizeof masks[0]; m++) {
            unsigned v = masks[m];
            check(cols, rows, v, -1);
            check(cols, rows, v, PANE_SWEEP);
            Layout l;
            Layout_compute(cols, rows, v, -1, &l);
            if (l.too_small)
               continue;
            if (v == S) {
               assert_int_equal(l.shown, S);
               assert_memory_equal(&l.pane[PANE_SWEEP], &l.body, sizeof l.body);
            }
            Layout z;
            Layout_compute(cols, rows, v, PANE_SWEEP, &z);
            assert_memory_equal(&z.pane[PANE_SWEEP], &z.body, sizeof z.body);
            if (!(l.dropped & S))
               continue;
            /* Dropped: it did not fit in its column with the panes that were kept. */
            int need = Layout_minHeight(PANE_SWEEP);
            for (int p = 0; p < PANE_COUNT; p++)
               if ((l.shown & PANE_BIT(p)) && !(l.side_by_side && p == PANE_KERNEL))
                  need += Layout_minHeight(p);
            if (need <= l.body.h)
               fail_msg("%dx%d visible=%#x: the sweep pane was dropped with room for it", cols, rows, v);
            if ((v & PANE_BIT(PANE_BANKS)) && (l.shown & PANE_BIT(PANE_BANKS)))
               fail_msg("%dx%d visible=%#x: the sweep pane was dropped before the bank pane", cols, rows, v);
         }
   /* 80x24 with the default panes and the sweep: all fit, the sweep on the right. */
   Layout l;
   Layout_compute(80, 24, PANES_DEFAULT | S, -1, &l);
   assert_int_equal(l.shown, PANES_DEFAULT | S);
   assert_true(l.side_by_side);
   assert_true(l.pane[PANE_SWEEP].x > l.pane[PANE_KERNEL].x);
   assert_true(l.pane[PANE_SWEEP].h >= Layout_minHeight(PANE_SWEEP));
}

/* The inspect pane (6): beside the kernel pane with the defaults at common sizes, the
 * first pane given up when there is no room, and alone when zoomed. */
static void test_inspect_pane(void **state) {
   (void)state;
   unsigned want = PANES_DEFAULT | PANE_BIT(PANE_INSPECT);
   for (int cols = 80; cols <= 240; cols += 4)
      for (int rows = 30; rows <= 80; rows += 2) {
         Layout l;
         Layout_compute(cols, rows, want, -1, &l);
         char where[64];
         snprintf(where, sizeof where, "%dx%d", cols, rows);
         if (!(l.shown & PANE_BIT(PANE_INSPECT)))
            fail_msg("%s: no room for the inspect pane", where);
         Rect r = l.pane[PANE_INSPECT];
         if (r.x + r.w > cols || r.y + r.h > rows - LAYOUT_FOOTER_H || r.x < 0 || r.y < LAYOUT_HEADER_H)
            fail_msg("%s: the inspect pane leaves the screen", where);
         assert_true(l.side_by_side);
         assert_true(r.x > l.pane[PANE_KERNEL].x + l.pane[PANE_KERNEL].w - 1);
      }
   Layout l;
   Layout_compute(LAYOUT_MIN_W, LAYOUT_MIN_H, PANES_ALL, -1, &l);
   assert_true(l.dropped & PANE_BIT(PANE_INSPECT));
   /* With every pane wanted and rows for all but one, it is the inspect pane that goes. */
   Layout_compute(120, 24, PANES_ALL, -1, &l);
   if (l.dropped)
      assert_true(l.dropped & PANE_BIT(PANE_INSPECT));
   Layout_compute(100, 30, want, PANE_INSPECT, &l);
   assert_int_equal(l.shown, PANE_BIT(PANE_INSPECT));
   assert_memory_equal(&l.pane[PANE_INSPECT], &l.body, sizeof l.body);
   assert_string_equal(Layout_paneName(PANE_INSPECT), "Inspect");
}

static void test_too_small(void **state) {
   (void)state;
   Layout l;
   Layout_compute(40, 10, PANES_DEFAULT, -1, &l);
   assert_true(l.too_small);
   Layout_compute(LAYOUT_MIN_W - 1, 50, PANES_DEFAULT, -1, &l);
   assert_true(l.too_small);
   Layout_compute(200, LAYOUT_MIN_H - 1, PANES_DEFAULT, -1, &l);
   assert_true(l.too_small);
   Layout_compute(0, 0, PANES_DEFAULT, -1, &l);
   assert_true(l.too_small);
}

static void test_dialog(void **state) {
   (void)state;
   for (int cols = 1; cols < 200; cols += 3)
      for (int rows = 1; rows < 80; rows += 2)
         for (int w = 1; w < 120; w += 13)
            for (int h = 1; h < 40; h += 7) {
               Rect r = Layout_dialog(cols, rows, w, h);
               assert_true(r.x >= 0 && r.y >= 0 && r.x + r.w <= cols && r.y + r.h <= rows);
               assert_true(r.w <= w || r.w <= cols);
               assert_true(r.h <= h || r.h <= rows);
            }
}

/* The pane table (panes.h) is whole: every pane has its class (a draw function at least), a digit, a name in the
 * preferences and a drop rank of its own, and the lookups find each by them. */
static void test_pane_table(void **state) {
   (void)state;
   unsigned ranks = 0, digits = 0;
   for (int p = 0; p < PANE_COUNT; p++) {
      const PaneClass *cls = Pane_class(p);
      assert_non_null(cls);
      assert_non_null(cls->draw);
      assert_true(cls->nkeys == 0 || cls->keys);
      const PaneInfo *pc = Pane_info(p);
      assert_non_null(pc);
      assert_true(pc->title && pc->title[0]);
      assert_string_equal(pc->title, Layout_paneName((PaneId)p));
      assert_true(pc->digit >= '0' && pc->digit <= '9');
      assert_int_equal(Layout_paneKey((PaneId)p), pc->digit - '0');
      assert_false(digits & (1u << (pc->digit - '0')));
      digits |= 1u << (pc->digit - '0');
      assert_int_equal(Pane_byDigit(pc->digit), p);
      assert_int_equal(Pane_byPrefName(pc->pref), p);
      int rank = Layout_dropRank((PaneId)p);
      assert_true(rank >= 0 && rank < PANE_COUNT);
      assert_false(ranks & (1u << rank));
      ranks |= 1u << rank;
      assert_true(pc->wheel >= 0);
      /* alone, every pane fits the smallest terminal the explorer draws on */
      assert_true(Layout_minHeight((PaneId)p) <= LAYOUT_MIN_H - LAYOUT_HEADER_H - LAYOUT_FOOTER_H);
      assert_true(Layout_minWidth((PaneId)p) <= LAYOUT_MIN_W);
   }
   assert_int_equal(ranks, PANES_ALL);
   assert_null(Pane_class(PANE_COUNT));
   assert_null(Pane_class(-1));
   assert_null(Pane_info(PANE_COUNT));
   assert_null(Pane_info(-1));
   assert_int_equal(Pane_byDigit('0'), PANE_ROOFLINE);
   assert_int_equal(Pane_byDigit('x'), -1);
   assert_int_equal(Pane_byPrefName("nosuch"), -1);
   /* what the worker computes follows the panes shown */
   assert_int_equal(Pane_needs(PANES_DEFAULT), 0);
   assert_int_equal(Pane_needs(PANE_BIT(PANE_BANKS)), PANE_NEEDS_BANKS);
   assert_int_equal(Pane_needs(PANE_BIT(PANE_COMPARE)), PANE_NEEDS_BANKS | PANE_NEEDS_INSPECT);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_many_sizes),   cmocka_unit_test(test_zoom), cmocka_unit_test(test_standard_terminals),
       cmocka_unit_test(test_inspect_pane), cmocka_unit_test(test_too_small), cmocka_unit_test(test_dialog),
       cmocka_unit_test(test_sweep_pane),   cmocka_unit_test(test_pane_table), cmocka_unit_test(test_wants),
       cmocka_unit_test(test_lesson_at_small_terminals),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
