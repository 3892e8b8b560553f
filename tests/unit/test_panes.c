/* A pane is one file and one line (docs/architecture.md, "Where to add things"): a toy
 * pane, declared here as panes.h declares the shipped ones (a row of a list with
 * PANE_LIST's columns, naming a PaneClass defined beside it), is driven through the same
 * walks the explorer calls (panes_table.h): drawn when shown and only then, given the
 * worker's news on a snapshot and on every pass, its own key reached from any pane, its
 * key function when focused, its capture while it types, the rows its content wants,
 * freed at the end, and its rows and digit listed on the help page. Its functions see
 * what a pane sees: its context (panectx.h: its area, what it reads, the verbs by which
 * it acts) and its own state, never the explorer's state, which only the test's driving
 * half touches. The toy lives in this test only: the shipped list does not have it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "tui/app.h"

/* ---- the toy's file, as a new pane's would be: its functions read and act through their
 * context and state only (a shipped pane's file includes panectx.h, not app.h) ---- */

/* Its state (in a header beside its file, for a shipped pane). */
typedef struct ToyPane_ {
   int drawn, snapshots, polls, own_keys, focused_keys, captured, freed;
   int last_key, last_width;
   Rect drawn_at;
   int focus_seen;            /* ctx->focus when it drew */
   unsigned long frame_seen;  /* ctx->frame when it drew */
   bool typing;               /* its capture takes keys while set */
   int rows;                  /* what its content wants */
} ToyPane;

static void toyDraw(const PaneCtx *ctx, void *state) {
   ToyPane *t = state;
   t->drawn++;
   t->drawn_at = ctx->area;
   t->focus_seen = ctx->focus;
   t->frame_seen = ctx->frame;
}
static bool toyFocusedKey(const PaneCtx *ctx, void *state, int ch) {
   ToyPane *t = state;
   t->focused_keys++;
   t->last_key = ch;
   return !PaneCtx_isSteppingKey(ch); /* it leaves the stepping keys to the kernel pane */
}
/* Its own key says so in the footer, through its context's verb. */
static void toyOwnKey(const PaneCtx *ctx, void *state, int ch) {
   ToyPane *t = state;
   t->own_keys++;
   t->last_key = ch;
   PaneCtx_flash(ctx, ST_GOOD, "toy key %c pressed %d times", ch, t->own_keys);
}
static bool toyCapture(const PaneCtx *ctx, void *state, int ch) {
   ToyPane *t = state;
   if (t->typing)
      t->captured++, t->last_key = ch;
   return t->typing;
}
static int toyWantRows(const PaneCtx *ctx, void *state, int width) {
   ToyPane *t = state;
   t->last_width = width;
   return t->rows;
}
static void toySnapshot(const PaneCtx *ctx, void *state) { ((ToyPane *)state)->snapshots++; }
static void toyPoll(const PaneCtx *ctx, void *state) {
   ((ToyPane *)state)->polls++;
   PaneCtx_dirty(ctx);
}
static void toyFree(const PaneCtx *ctx, void *state) { ((ToyPane *)state)->freed++; }

static const KeyBinding toyKeys[] = {
    {{'@', '~'}, "@", "~", "toy pane: a key of its own\nwith a second help line", .on_pane = toyOwnKey},
};
const PaneClass Toy_pane = {.draw = toyDraw,     .key = toyFocusedKey, .keys = toyKeys,      .nkeys = 1,
                            .capture = toyCapture, .rows = toyWantRows, .snapshot = toySnapshot,
                            .poll = toyPoll,       .free = toyFree};

/* ... and its line, in a list of panes.h's columns. '#' is a digit no key has. */
#define TOY_LIST(X) X(TOY, "Toy", "toy", '#', 4, 20, 0, 1, 0, 0, 0, Toy_pane)

static const PaneInfo toyInfo[] = {TOY_LIST(PANE_INFO_ROW)};
static const PaneClass *const toyClasses[] = {TOY_LIST(PANE_CLASS_ROW)};
/* ---- the test's driving half: the explorer's state, and where the toy's state lives ---- */

static ToyPane seen;

static void *toyState(Ui *ui, int p) {
   (void)ui;
   return p == 0 ? &seen : NULL;
}

static const PaneSet toys = {(int)(sizeof toyInfo / sizeof toyInfo[0]), toyInfo, toyClasses, toyState};

static Ui *newUi(void) {
   memset(&seen, 0, sizeof seen);
   Ui *ui = calloc(1, sizeof *ui);
   assert_non_null(ui);
   ui->zoom = -1;
   return ui;
}

static void test_toy_is_drawn_when_shown(void **state) {
   (void)state;
   Ui *ui = newUi();
   Rng rng;
   Rng_seed(&rng, Rng_freshSeed());
   Rect r = {(int)Rng_below(&rng, 40), 1 + (int)Rng_below(&rng, 20), 20 + (int)Rng_below(&rng, 100),
             4 + (int)Rng_below(&rng, 40)};
   ui->layout.pane[0] = r;
   ui->layout.shown = 0;
   Panes_draw(&toys, ui);
   assert_int_equal(seen.drawn, 0); /* hidden: not drawn */
   ui->layout.shown = PANE_BIT(0);
   ui->focus = 0;
   ui->frame = 1 + Rng_below(&rng, 1000);
   Panes_draw(&toys, ui);
   assert_int_equal(seen.drawn, 1);
   /* its context: its area, and what it reads of the explorer as it is now */
   assert_memory_equal(&seen.drawn_at, &r, sizeof r);
   assert_int_equal(seen.focus_seen, 0);
   assert_int_equal(seen.frame_seen, ui->frame);
   ui->frame++;
   Panes_draw(&toys, ui);
   assert_int_equal(seen.frame_seen, ui->frame);
   free(ui);
}

static void test_toy_gets_the_news(void **state) {
   (void)state;
   Ui *ui = newUi();
   Panes_news(&toys, ui, false);
   assert_int_equal(seen.snapshots, 0);
   assert_int_equal(seen.polls, 1);
   assert_true(ui->dirty); /* its poll's verb reached the explorer */
   Panes_news(&toys, ui, true);
   assert_int_equal(seen.snapshots, 1);
   assert_int_equal(seen.polls, 2);
   Panes_free(&toys, ui);
   assert_int_equal(seen.freed, 1);
   free(ui);
}

static void test_toy_keys(void **state) {
   (void)state;
   Ui *ui = newUi();
   /* its own row, from any pane: both of its codes reach it */
   int pane = -1;
   const KeyBinding *b = Panes_binding(&toys, '~', &pane);
   assert_non_null(b);
   assert_int_equal(pane, 0);
   assert_null(b->handler); /* a pane's row: its own function, given its context */
   Panes_runBinding(&toys, ui, pane, b, '~');
   assert_int_equal(seen.own_keys, 1);
   assert_int_equal(seen.last_key, '~');
   assert_string_equal(ui->flash, "toy key ~ pressed 1 times"); /* its verb: the footer */
   assert_int_equal(ui->flash_style, ST_GOOD);
   assert_null(Panes_binding(&toys, 'q', NULL)); /* keys.c's, not the toy's */
   /* focused: its key function, which says what it used */
   assert_true(Panes_focusedKey(&toys, ui, 0, KEY_DOWN));
   assert_false(Panes_focusedKey(&toys, ui, 0, KEY_LEFT));
   assert_int_equal(seen.focused_keys, 2);
   assert_false(Panes_focusedKey(&toys, ui, 1, KEY_DOWN)); /* no such pane */
   assert_int_equal(seen.focused_keys, 2);
   /* its capture takes keys only while it types */
   assert_false(Panes_capture(&toys, ui, '7'));
   seen.typing = true;
   assert_true(Panes_capture(&toys, ui, '7'));
   assert_int_equal(seen.captured, 1);
   free(ui);
}

static void test_toy_wants_rows(void **state) {
   (void)state;
   Ui *ui = newUi();
   Rng rng;
   Rng_seed(&rng, Rng_freshSeed());
   for (int i = 0; i < 20; i++) {
      int width = 20 + (int)Rng_below(&rng, 300);
      seen.rows = 1 + (int)Rng_below(&rng, 60);
      assert_int_equal(Panes_wantRows(&toys, ui, 0, width), seen.rows);
      assert_int_equal(seen.last_width, width);
   }
   assert_int_equal(Panes_wantRows(&toys, ui, 1, 40), 0);
   free(ui);
}

/* The help page of a set with the toy: keys.c's rows, then the toy's two lines with its
 * keys, then its digit (no row takes '#') from its title. */
static void test_toy_in_the_help(void **state) {
   (void)state;
   int n = Keys_helpCount(&toys);
   bool own = false, second = false, digit = false;
   for (int line = 0; line < n; line++) {
      char keys[64], text[256];
      Keys_helpLine(&toys, line, keys, sizeof keys, text, sizeof text);
      if (!strcmp(text, "toy pane: a key of its own")) {
         own = true;
         assert_string_equal(keys, "@ ~");
         Keys_helpLine(&toys, line + 1, keys, sizeof keys, text, sizeof text);
         assert_string_equal(keys, "");
         assert_string_equal(text, "with a second help line");
         second = true;
      }
      if (!strcmp(text, "show / hide the Toy pane")) {
         digit = true;
         assert_string_equal(keys, "#");
         assert_int_equal(line, n - 1); /* after every row */
      }
   }
   assert_true(own && second && digit);
   /* the shipped help has none of it */
   const PaneSet *shipped = Panes_shipped();
   for (int line = 0; line < Keys_helpCount(shipped); line++) {
      char keys[64], text[256];
      Keys_helpLine(shipped, line, keys, sizeof keys, text, sizeof text);
      assert_null(strstr(text, "toy pane"));
      assert_null(strstr(text, "Toy"));
   }
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_toy_is_drawn_when_shown), cmocka_unit_test(test_toy_gets_the_news),
       cmocka_unit_test(test_toy_keys), cmocka_unit_test(test_toy_wants_rows), cmocka_unit_test(test_toy_in_the_help),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
