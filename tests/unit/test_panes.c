/* A pane is one file and one line (docs/architecture.md, "Where to add things"): a toy
 * pane, declared here as panes.h declares the shipped ones (a row of a list with
 * PANE_LIST's columns, naming a PaneClass defined beside it), is driven through the same
 * walks the explorer calls (panes_table.h): its state made from its class (its size, its
 * init) with no member of the Ui nor a line anywhere else naming it, drawn when shown and
 * only then, given the worker's news on a snapshot and on every pass, its own key reached
 * from any pane, its key function when focused, its capture while it types, the rows its
 * content wants, its state freed at the end, and its rows and digit listed on the help
 * page. Its functions see what a pane sees: its context (panectx.h: its area, what it
 * reads, the verbs by which it acts) and its own state, never the explorer's state, which
 * only the test's driving half touches. The toy lives in this test only: the shipped list
 * does not have it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "tui/app.h"
#include "tui/draw_history.h"
#include "tui/draw_lesson.h"
#include "tui/sweepview.h"

/* ---- the toy's file, as a new pane's would be: its functions read and act through their
 * context and state only (a shipped pane's file includes panectx.h, not app.h) ---- */

/* Its state, declared in its file: the walks make it from the class's state_size. */
typedef struct ToyPane_ {
   unsigned magic;            /* TOY_MAGIC once its init ran */
   int init_id;               /* ctx->id its init was given */
   int drawn, snapshots, polls, own_keys, focused_keys, captured;
   int last_key, last_width;
   Rect drawn_at;
   int focus_seen;            /* ctx->focus when it drew */
   unsigned long frame_seen;  /* ctx->frame when it drew */
   bool typing;               /* its capture takes keys while set */
   int rows;                  /* what its content wants */
} ToyPane;

#define TOY_MAGIC 0x70a5u
/* States the toy's free was given: its state is freed by the walks once the free returns,
 * so what it did is counted here. */
static int toysFreed;

static bool toyInit(const PaneCtx *ctx, void *state) {
   ToyPane *t = state;
   t->magic = TOY_MAGIC;
   t->init_id = ctx->id;
   return true;
}
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
static void toyFree(const PaneCtx *ctx, void *state) {
   ToyPane *t = state;
   assert_int_equal(t->magic, TOY_MAGIC); /* given its own state, still whole */
   toysFreed++;
}

static const KeyBinding toyKeys[] = {
    {{'@', '~'}, "@", "~", "toy pane: a key of its own\nwith a second help line", .on_pane = toyOwnKey},
};
const PaneClass Toy_pane = {.state_size = sizeof(ToyPane), .init = toyInit, .draw = toyDraw,
                            .key = toyFocusedKey, .keys = toyKeys, .nkeys = 1, .capture = toyCapture,
                            .rows = toyWantRows, .snapshot = toySnapshot, .poll = toyPoll, .free = toyFree};

/* ... and its line, in a list of panes.h's columns. '#' is a digit no key has. */
#define TOY_LIST(X) X(TOY, "Toy", "toy", '#', 4, 20, 0, 1, 0, 0, 0, Toy_pane)

static const PaneInfo toyInfo[] = {TOY_LIST(PANE_INFO_ROW)};
static const PaneClass *const toyClasses[] = {TOY_LIST(PANE_CLASS_ROW)};
/* ---- the test's driving half: the explorer's state, which the toy's state joins ---- */

static const PaneSet toys = {(int)(sizeof toyInfo / sizeof toyInfo[0]), toyInfo, toyClasses};

/* A Ui with the toy's set started, as start.c starts the shipped set. */
static Ui *newUi(void) {
   Ui *ui = calloc(1, sizeof *ui);
   assert_non_null(ui);
   ui->zoom = -1;
   assert_true(Panes_start(&toys, ui));
   return ui;
}

/* The toy's state, as the walks hand it to the toy's functions. */
static ToyPane *toyOf(Ui *ui) {
   assert_non_null(ui->panes.of[0]);
   return ui->panes.of[0];
}

static void endUi(Ui *ui) {
   Panes_free(&toys, ui);
   free(ui);
}

/* Its state is the set's: made once per explorer from the class alone (zeroes, then its
 * init given its context), handed to its functions, and freed after its free. */
static void test_toy_state_is_made_and_freed(void **state) {
   (void)state;
   Ui *one = calloc(1, sizeof *one), *two = calloc(1, sizeof *two);
   assert_non_null(one);
   assert_non_null(two);
   assert_null(one->panes.of[0]);
   assert_true(Panes_start(&toys, one));
   assert_true(Panes_start(&toys, two));
   ToyPane *a = toyOf(one), *b = toyOf(two);
   assert_ptr_not_equal(a, b); /* one per explorer, not one per class */
   assert_int_equal(a->magic, TOY_MAGIC);
   assert_int_equal(a->init_id, 0);
   assert_int_equal(a->drawn + a->polls + a->own_keys + a->rows, 0); /* zeroes beyond what its init set */
   /* what the walks do to one explorer's toy reaches that toy's state only */
   one->layout.shown = two->layout.shown = PANE_BIT(0);
   Panes_draw(&toys, one);
   Panes_draw(&toys, one);
   Panes_draw(&toys, two);
   assert_int_equal(a->drawn, 2);
   assert_int_equal(b->drawn, 1);
   toysFreed = 0;
   Panes_free(&toys, one);
   assert_int_equal(toysFreed, 1);
   assert_null(one->panes.of[0]);
   Panes_free(&toys, one); /* nothing left to free */
   assert_int_equal(toysFreed, 1);
   Panes_free(&toys, two);
   assert_int_equal(toysFreed, 2);
   free(one);
   free(two);
}

/* A pane whose init fails (out of memory): the start fails and keeps no state, the toy's
 * made before it freed through its free. */
static bool brokenInit(const PaneCtx *ctx, void *state) { return false; }
static void brokenDraw(const PaneCtx *ctx, void *state) {}
static const PaneClass Broken_pane = {.state_size = 64, .init = brokenInit, .draw = brokenDraw};
#define BROKEN_LIST(X)                                                                                                 \
   X(TOY, "Toy", "toy", '#', 4, 20, 0, 1, 0, 0, 0, Toy_pane)                                                           \
   X(BROKEN, "Broken", "broken", '%', 4, 20, 0, 1, 1, 0, 0, Broken_pane)
static const PaneInfo brokenInfo[] = {BROKEN_LIST(PANE_INFO_ROW)};
static const PaneClass *const brokenClasses[] = {BROKEN_LIST(PANE_CLASS_ROW)};

static void test_a_failed_start_keeps_nothing(void **state) {
   (void)state;
   const PaneSet broken = {2, brokenInfo, brokenClasses};
   Ui *ui = calloc(1, sizeof *ui);
   assert_non_null(ui);
   toysFreed = 0;
   assert_false(Panes_start(&broken, ui));
   assert_null(ui->panes.of[0]);
   assert_null(ui->panes.of[1]);
   assert_int_equal(toysFreed, 1);
   /* nor is a set of more panes than the explorer has room for */
   const PaneSet tooMany = {PANE_COUNT + 1, toyInfo, toyClasses};
   assert_false(Panes_start(&tooMany, ui));
   assert_null(ui->panes.of[0]);
   free(ui);
}

/* The shipped set: a state for each pane whose class has one, each its own, made as its
 * init says (the history follows the configuration, the sweep has its copy and the
 * strategy the options name, no lesson is taught), all freed at the end. */
static void test_shipped_states(void **state) {
   (void)state;
   for (int exhaustive = 0; exhaustive < 2; exhaustive++) {
      Ui *ui = calloc(1, sizeof *ui);
      assert_non_null(ui);
      ui->start.sweep_exhaustive = exhaustive;
      const PaneSet *shipped = Panes_shipped();
      assert_true(Panes_start(shipped, ui));
      int made = 0;
      for (int p = 0; p < shipped->count; p++) {
         assert_int_equal(ui->panes.of[p] != NULL, shipped->cls[p]->state_size > 0);
         made += ui->panes.of[p] != NULL;
         for (int q = 0; q < p; q++)
            assert_true(!ui->panes.of[p] || ui->panes.of[p] != ui->panes.of[q]);
      }
      assert_true(made >= PANE_COUNT - 1); /* every pane but the results keeps one */
      assert_int_equal(HistoryPane_of(&ui->panes)->cursor, -1);
      assert_non_null(SweepPane_of(&ui->panes)->sweep);
      assert_int_equal(SweepPane_of(&ui->panes)->strategy, exhaustive ? SEARCH_EXHAUSTIVE : SEARCH_RANDOM);
      assert_null(LessonPane_lesson(LessonPane_of(&ui->panes)));
      Panes_free(shipped, ui);
      for (int p = 0; p < PANE_COUNT; p++)
         assert_null(ui->panes.of[p]);
      free(ui);
   }
}

static void test_toy_is_drawn_when_shown(void **state) {
   (void)state;
   Ui *ui = newUi();
   ToyPane *seen = toyOf(ui);
   Rng rng;
   Rng_seed(&rng, Rng_freshSeed());
   Rect r = {(int)Rng_below(&rng, 40), 1 + (int)Rng_below(&rng, 20), 20 + (int)Rng_below(&rng, 100),
             4 + (int)Rng_below(&rng, 40)};
   ui->layout.pane[0] = r;
   ui->layout.shown = 0;
   Panes_draw(&toys, ui);
   assert_int_equal(seen->drawn, 0); /* hidden: not drawn */
   ui->layout.shown = PANE_BIT(0);
   ui->focus = 0;
   ui->frame = 1 + Rng_below(&rng, 1000);
   Panes_draw(&toys, ui);
   assert_int_equal(seen->drawn, 1);
   /* its context: its area, and what it reads of the explorer as it is now */
   assert_memory_equal(&seen->drawn_at, &r, sizeof r);
   assert_int_equal(seen->focus_seen, 0);
   assert_int_equal(seen->frame_seen, ui->frame);
   ui->frame++;
   Panes_draw(&toys, ui);
   assert_int_equal(seen->frame_seen, ui->frame);
   endUi(ui);
}

static void test_toy_gets_the_news(void **state) {
   (void)state;
   Ui *ui = newUi();
   ToyPane *seen = toyOf(ui);
   Panes_news(&toys, ui, false);
   assert_int_equal(seen->snapshots, 0);
   assert_int_equal(seen->polls, 1);
   assert_true(ui->dirty); /* its poll's verb reached the explorer */
   Panes_news(&toys, ui, true);
   assert_int_equal(seen->snapshots, 1);
   assert_int_equal(seen->polls, 2);
   endUi(ui);
}

static void test_toy_keys(void **state) {
   (void)state;
   Ui *ui = newUi();
   ToyPane *seen = toyOf(ui);
   /* its own row, from any pane: both of its codes reach it */
   int pane = -1;
   const KeyBinding *b = Panes_binding(&toys, '~', &pane);
   assert_non_null(b);
   assert_int_equal(pane, 0);
   assert_null(b->handler); /* a pane's row: its own function, given its context */
   Panes_runBinding(&toys, ui, pane, b, '~');
   assert_int_equal(seen->own_keys, 1);
   assert_int_equal(seen->last_key, '~');
   assert_string_equal(ui->flash, "toy key ~ pressed 1 times"); /* its verb: the footer */
   assert_int_equal(ui->flash_style, ST_GOOD);
   assert_null(Panes_binding(&toys, 'q', NULL)); /* keys.c's, not the toy's */
   /* focused: its key function, which says what it used */
   assert_true(Panes_focusedKey(&toys, ui, 0, KEY_DOWN));
   assert_false(Panes_focusedKey(&toys, ui, 0, KEY_LEFT));
   assert_int_equal(seen->focused_keys, 2);
   assert_false(Panes_focusedKey(&toys, ui, 1, KEY_DOWN)); /* no such pane */
   assert_int_equal(seen->focused_keys, 2);
   /* its capture takes keys only while it types */
   assert_false(Panes_capture(&toys, ui, '7'));
   seen->typing = true;
   assert_true(Panes_capture(&toys, ui, '7'));
   assert_int_equal(seen->captured, 1);
   endUi(ui);
}

static void test_toy_wants_rows(void **state) {
   (void)state;
   Ui *ui = newUi();
   ToyPane *seen = toyOf(ui);
   Rng rng;
   Rng_seed(&rng, Rng_freshSeed());
   for (int i = 0; i < 20; i++) {
      int width = 20 + (int)Rng_below(&rng, 300);
      seen->rows = 1 + (int)Rng_below(&rng, 60);
      assert_int_equal(Panes_wantRows(&toys, ui, 0, width), seen->rows);
      assert_int_equal(seen->last_width, width);
   }
   assert_int_equal(Panes_wantRows(&toys, ui, 1, 40), 0);
   endUi(ui);
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
       cmocka_unit_test(test_toy_state_is_made_and_freed), cmocka_unit_test(test_a_failed_start_keeps_nothing),
       cmocka_unit_test(test_shipped_states),
       cmocka_unit_test(test_toy_is_drawn_when_shown), cmocka_unit_test(test_toy_gets_the_news),
       cmocka_unit_test(test_toy_keys), cmocka_unit_test(test_toy_wants_rows), cmocka_unit_test(test_toy_in_the_help),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
