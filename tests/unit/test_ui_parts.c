/* The explorer's pure parts: UTF-8 widths and clipping, charts, the log, preferences and
 * the history of configurations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tui/app.h"
#include "tui/chart.h"
#include "tui/history.h"
#include "tui/layout.h"
#include "explorer/logbuf.h"
#include "tui/prefs.h"
#include "tui/text.h"

static void test_width(void **state) {
   (void)state;
   assert_int_equal(Text_width("abc"), 3);
   assert_int_equal(Text_width(""), 0);
   assert_int_equal(Text_width("\xce\xb1=1"), 3);            /* α=1 */
   assert_int_equal(Text_width("\xe2\x96\x88\xe2\x96\x88"), 2); /* ██ */
   assert_int_equal(Text_width("\xe4\xb8\xad"), 2);          /* a wide CJK character */
   assert_int_equal(Text_width("e\xcc\x81"), 1);             /* e + combining accent */
   assert_int_equal(Text_width("\xff\xfe"), 2);              /* invalid bytes count one each */
   unsigned cp;
   assert_int_equal(Text_decode("\xc0\xaf", 2, &cp), 1);     /* overlong */
   assert_int_equal(cp, 0xFFFDu);
   assert_int_equal(Text_decode("\xe2\x82", 2, &cp), 1);     /* truncated */
}

static void test_fit(void **state) {
   (void)state;
   char out[64];
   assert_int_equal(Text_fit(out, sizeof out, "hello", 10, true, false), 5);
   assert_string_equal(out, "hello");
   assert_int_equal(Text_fit(out, sizeof out, "hello", 8, true, true), 8);
   assert_string_equal(out, "hello   ");
   Text_fit(out, sizeof out, "hello world", 6, true, false);
   assert_string_equal(out, "hello\xe2\x80\xa6");
   Text_fit(out, sizeof out, "hello world", 6, false, false);
   assert_string_equal(out, "hello~");
   Text_fit(out, sizeof out, "\xce\xb1\xce\xb2", 5, false, false); /* ASCII mode: '?' */
   assert_string_equal(out, "??");
   Text_fit(out, sizeof out, "a\tb\nc", 10, true, false);         /* controls become spaces */
   assert_string_equal(out, "a b c");
   Text_fit(out, sizeof out, "\xe4\xb8\xad\xe4\xb8\xad\xe4\xb8\xad", 4, true, false);
   assert_int_equal(Text_width(out), 3);                            /* one wide char + ellipsis */
   assert_int_equal(Text_fit(out, sizeof out, "abc", 0, true, true), 0);
   assert_string_equal(out, "");
   assert_int_equal(Text_fit(out, 4, "abcdefgh", 20, true, false), 3); /* a small buffer stays terminated */
   assert_string_equal(out, "abc");
}

static void test_wrap(void **state) {
   (void)state;
   char buf[256];
   const char *lines[8];
   int n = Text_wrap("the quick brown fox jumps", 10, buf, sizeof buf, lines, 8);
   assert_int_equal(n, 3);
   assert_string_equal(lines[0], "the quick");
   assert_string_equal(lines[1], "brown fox");
   assert_string_equal(lines[2], "jumps");
   n = Text_wrap("abcdefghijkl", 5, buf, sizeof buf, lines, 8);
   assert_int_equal(n, 3);
   assert_string_equal(lines[2], "kl");
   n = Text_wrap("one\n\ntwo", 10, buf, sizeof buf, lines, 8);
   assert_int_equal(n, 3);
   assert_string_equal(lines[1], "");
   n = Text_wrap("a b c d e f g", 3, buf, sizeof buf, lines, 2);
   assert_int_equal(n, 2);
   n = Text_wrap("\xe4\xb8\xad\xe4\xb8\xad", 1, buf, sizeof buf, lines, 8); /* wider than the line: no hang */
   assert_int_equal(n, 2);
}

static void test_bar(void **state) {
   (void)state;
   char out[256];
   Chart_bar(out, sizeof out, 0.5, 10, CHART_ASCII);
   assert_string_equal(out, "#####     ");
   Chart_bar(out, sizeof out, 1.7, 4, CHART_ASCII);
   assert_string_equal(out, "####");
   Chart_bar(out, sizeof out, -1, 3, CHART_ASCII);
   assert_string_equal(out, "   ");
   Chart_bar(out, sizeof out, 0.9375, 2, CHART_BLOCKS); /* 15 eighths: one full, one 7/8 */
   assert_int_equal(Text_width(out), 2);
   assert_string_equal(out, "\xe2\x96\x88\xe2\x96\x89");
   for (int w = 1; w < 30; w++)
      for (double f = 0; f <= 1.0; f += 0.03) {
         Chart_bar(out, sizeof out, f, w, CHART_BLOCKS);
         assert_int_equal(Text_width(out), w);
      }
}

static void test_spark(void **state) {
   (void)state;
   char r0[512], r1[512];
   char *rows[2] = {r0, r1};
   double v[6] = {1, 2, 3, 4, 5, 6};
   assert_int_equal(Chart_spark(rows, sizeof r0, 1, 8, v, 6, 0, 6, CHART_ASCII), 6);
   assert_int_equal((int)strlen(r0), 8);
   assert_string_equal(r0, "  __-==#"); /* right-aligned, rising to full at the newest */
   /* Two rows of blocks: the top row is empty for values under half. */
   Chart_spark(rows, sizeof r0, 2, 6, v, 6, 0, 6, CHART_BLOCKS);
   assert_int_equal(Text_width(r0), 6);
   assert_int_equal(Text_width(r1), 6);
   assert_int_equal(r0[0], ' ');
   /* Braille: two values per cell, so 6 values take 3 cells, right-aligned. */
   Chart_spark(rows, sizeof r0, 1, 5, v, 6, 0, 6, CHART_BRAILLE);
   assert_int_equal(Text_width(r0), 5);
   assert_int_equal(r0[0], ' ');
   assert_int_equal(r0[1], ' ');
   assert_string_equal(r0 + 2 + 6, "\xe2\xa3\xbe"); /* the last cell: 3 of 4 dots, then 4: ⣾ */
   /* More values than fit: the newest are kept. */
   double many[100];
   for (int i = 0; i < 100; i++)
      many[i] = i;
   assert_int_equal(Chart_spark(rows, sizeof r0, 1, 10, many, 100, 0, 0, CHART_BRAILLE), 20);
   assert_int_equal(Chart_spark(rows, sizeof r0, 1, 10, many, 100, 0, 0, CHART_BLOCKS), 10);
   /* All equal: no division by zero, something is drawn. */
   double same[4] = {3, 3, 3, 3};
   Chart_spark(rows, sizeof r0, 1, 4, same, 4, 3, 3, CHART_ASCII);
   assert_string_equal(r0, "####");
}

static void test_log(void **state) {
   (void)state;
   LogBuf b;
   LogBuf_init(&b, 4);
   LogBuf_add(&b, LOG_INFO, "one\ntwo\n\n");
   assert_int_equal(b.count, 2);
   assert_int_equal(LogBuf_line(&b, 0)->first, 1);
   assert_int_equal(LogBuf_line(&b, 1)->first, 0);
   assert_string_equal(LogBuf_line(&b, 1)->text, "two");
   LogBuf_addf(&b, LOG_ERROR, "x%d\ty", 3);
   assert_string_equal(LogBuf_line(&b, 2)->text, "x3  y");
   LogBuf_add(&b, LOG_WARN, "a\r\nb\nc");
   assert_int_equal(b.count, 4); /* bounded: the oldest went */
   assert_string_equal(LogBuf_line(&b, 0)->text, "x3  y");
   assert_string_equal(LogBuf_line(&b, 1)->text, "a");
   assert_null(LogBuf_line(&b, 4));
   LogBuf other;
   LogBuf_init(&other, 10);
   LogBuf_add(&other, LOG_INFO, "moved");
   LogBuf_move(&b, &other);
   assert_int_equal(other.count, 0);
   assert_string_equal(LogBuf_line(&b, 3)->text, "moved");
   LogBuf_free(&other);
   LogBuf_free(&b);
}

static void test_rename_source(void **state) {
   (void)state;
   char *s = LogBuf_renameSource("error: /root/.cache/pocl/kcache/tempfile_rdx5dz.cl:36:22: use of 'x'\n"
                                 "<source>:3:1: warning: w\ndefault_program(7): error\nfile.cl is fine; a.cl:x",
                                 "k.cl");
   assert_string_equal(s, "error: k.cl:36:22: use of 'x'\nk.cl:3:1: warning: w\nk.cl(7): error\nfile.cl is fine; a.cl:x");
   free(s);
   s = LogBuf_renameSource("", "k.cl");
   assert_string_equal(s, "");
   free(s);
}

static void test_prefs(void **state) {
   (void)state;
   UiPrefs p;
   Prefs_init(&p);
   assert_int_equal(p.panes, PANES_DEFAULT);
   Prefs_parse(&p, "# c\npanes = kernel, log\nfocus = log\nkernel = k1\nparam.TS = 16\nparam.W = x\nbogus\nz = 1\n",
               "ui.conf");
   assert_int_equal(p.panes, PANE_BIT(PANE_KERNEL) | PANE_BIT(PANE_LOG));
   assert_int_equal(p.focus, PANE_LOG);
   assert_string_equal(p.kernel, "k1");
   assert_int_equal(p.nparams, 1);
   assert_string_equal(p.params[0].name, "TS");
   assert_int_equal(p.params[0].value, 16);
   assert_non_null(strstr(p.warnings, "ui.conf:6:"));
   assert_non_null(strstr(p.warnings, "ui.conf:7:"));
   assert_non_null(strstr(p.warnings, "ui.conf:8:"));
   /* Round trip. */
   char text[1024];
   Prefs_format(&p, text, sizeof text);
   UiPrefs q;
   Prefs_init(&q);
   Prefs_parse(&q, text, "again");
   assert_string_equal(q.warnings, "");
   assert_int_equal(q.panes, p.panes);
   assert_int_equal(q.focus, p.focus);
   assert_string_equal(q.kernel, "k1");
   assert_int_equal(q.params[0].value, 16);
   /* Bad panes keep the default. */
   Prefs_init(&q);
   Prefs_parse(&q, "panes = kernel, sideways\n", "x");
   assert_int_equal(q.panes, PANES_DEFAULT);
   /* Saved atomically into a folder it creates; a missing file is fine. */
   char dir[] = "/tmp/gemmtop-prefs-XXXXXX", path[256];
   assert_non_null(mkdtemp(dir));
   snprintf(path, sizeof path, "%s/sub/ui.conf", dir);
   assert_true(Prefs_load(&q, path));
   char err[256];
   assert_true(Prefs_save(&p, path, err, sizeof err));
   assert_true(Prefs_load(&q, path));
   assert_string_equal(q.kernel, "k1");
   /* A file over the 1 MiB cap is not read, and the warning (the log's) says why. */
   FILE *big = fopen(path, "w");
   assert_non_null(big);
   for (int i = 0; i < 70000; i++)
      fputs("# a comment line\n", big); /* 17 bytes: 1.19 MB */
   assert_int_equal(fclose(big), 0);
   assert_false(Prefs_load(&q, path));
   assert_string_equal(q.kernel, "");
   assert_non_null(strstr(q.warnings, "ui.conf: not read (1190000 bytes, more than the 1048576"));
   assert_non_null(strstr(q.warnings, "the defaults are used"));
   remove(path);
   snprintf(path, sizeof path, "%s/sub", dir);
   rmdir(path);
   rmdir(dir);
}

/* The sweep pane is kept in the preferences by name, like the others. */
static void test_prefs_sweep(void **state) {
   (void)state;
   UiPrefs p, q;
   Prefs_init(&p);
   Prefs_parse(&p, "panes = results sweep\nfocus = sweep\n", "ui.conf");
   assert_string_equal(p.warnings, "");
   assert_int_equal(p.panes, PANE_BIT(PANE_RESULTS) | PANE_BIT(PANE_SWEEP));
   assert_int_equal(p.focus, PANE_SWEEP);
   char text[1024];
   Prefs_format(&p, text, sizeof text);
   assert_non_null(strstr(text, "panes = results sweep\n"));
   assert_non_null(strstr(text, "focus = sweep\n"));
   Prefs_init(&q);
   Prefs_parse(&q, text, "again");
   assert_int_equal(q.panes, p.panes);
   assert_int_equal(q.focus, PANE_SWEEP);
}

static void test_history(void **state) {
   (void)state;
   static History h;
   History_init(&h);
   HistoryEntry e;
   memset(&e, 0, sizeof e);
   strcpy(e.backend, "opencl");
   strcpy(e.kernel, "k");
   e.nvalues = 1;
   e.values[0] = 16;
   e.problem.m = e.problem.n = e.problem.k = 64;
   e.gflops = 1;
   assert_int_equal(History_update(&h, &e), 0);
   e.gflops = 2; /* the same configuration: updated */
   assert_int_equal(History_update(&h, &e), 0);
   assert_int_equal(h.count, 1);
   assert_true(h.items[0].gflops == 2);
   e.values[0] = 32;
   e.gflops = 5;
   e.state = HIST_NOT_VERIFIED;
   assert_int_equal(History_update(&h, &e), 1);
   assert_int_equal(History_best(&h), 0); /* a wrong result is never the best */
   assert_true(History_maxGflops(&h) == 5);
   e.problem.k = 128; /* another problem is another configuration */
   assert_int_equal(History_update(&h, &e), 2);
   for (int i = 0; i < HISTORY_MAX + 5; i++) {
      e.values[0] = 1000 + i;
      History_update(&h, &e);
   }
   assert_int_equal(h.count, HISTORY_MAX);
   assert_int_equal(h.items[HISTORY_MAX - 1].values[0], 1000 + HISTORY_MAX + 4);
}

/* The help's rows: keys.c's table, then each pane's own rows in the list's order. */
static int allRows(const PaneSet *panes, const KeyBinding **rows, int max, int *nkeys) {
   int n = 0;
   for (int i = 0; i < Keys_count() && n < max; i++)
      rows[n++] = Keys_at(i);
   *nkeys = n;
   for (int p = 0; p < panes->count; p++)
      for (int i = 0; i < panes->cls[p]->nkeys && n < max; i++)
         rows[n++] = &panes->cls[p]->keys[i];
   return n;
}

/* The key tables (keys.c's and the panes' own): every key code reaches one row only (a
 * second row would never run), a row with codes has a handler and the other way round
 * (keys.c's rows are given the explorer, the panes' their context and state: one each),
 * and the help page made from them has one line per row (and per continuation) with its
 * keys in the keys column. */
static void test_key_table(void **state) {
   (void)state;
   const PaneSet *panes = Panes_shipped();
   const KeyBinding *rows[256];
   int nkeys = 0, n = allRows(panes, rows, 256, &nkeys), lines = 0;
   assert_true(n < 256);
   assert_true(Keys_count() >= 30);
   assert_true(n > Keys_count()); /* the panes have keys of their own */
   for (int i = 0; i < n; i++) {
      const KeyBinding *b = rows[i];
      assert_non_null(b->key);
      bool handled = i < nkeys ? b->handler != NULL : b->on_pane != NULL;
      assert_true(i < nkeys ? !b->on_pane : !b->handler);
      assert_true((b->codes[0] != 0) == handled);
      assert_true(b->what || handled); /* a row the help leaves out still does something */
      for (int c = 0; b->codes[c]; c++)
         for (int j = 0; j < n; j++)
            for (int d = 0; j != i && rows[j]->codes[d]; d++)
               if (rows[j]->codes[d] == b->codes[c])
                  fail_msg("key code %d is in the rows of %s and %s", b->codes[c], b->key, rows[j]->key);
      for (const char *w = b->what; w; w = strchr(w, '\n'), w = w ? w + 1 : NULL)
         lines++;
   }
   assert_null(Keys_at(Keys_count()));
   /* A pane whose digit has no row gets a help line from the pane list, after the rows. */
   int unbound = 0;
   for (int p = 0; p < PANE_COUNT; p++) {
      bool bound = false;
      for (int i = 0; i < n; i++)
         for (int c = 0; rows[i]->codes[c]; c++)
            bound |= rows[i]->codes[c] == Pane_info(p)->digit;
      if (!bound) {
         char k[64], t[256];
         Keys_helpLine(panes, lines + unbound, k, sizeof k, t, sizeof t);
         assert_int_equal(k[0], Pane_info(p)->digit);
         assert_non_null(strstr(t, Pane_info(p)->title));
         unbound++;
      }
   }
   assert_true(unbound >= 1); /* the roofline pane's 0 */
   assert_int_equal(Keys_helpCount(panes), lines + unbound);
   char keys[64], text[256];
   Keys_helpLine(panes, 0, keys, sizeof keys, text, sizeof text);
   assert_string_equal(keys, "F1  ? h");
   assert_string_equal(text, "this help");
   for (int i = 0, line = 0; i < n; i++) {
      const KeyBinding *b = rows[i];
      for (const char *w = b->what; w; w = strchr(w, '\n'), w = w ? w + 1 : NULL, line++) {
         Keys_helpLine(panes, line, keys, sizeof keys, text, sizeof text);
         assert_true(strlen(keys) < KEYS_HELP_WIDTH);
         assert_true(w == b->what ? strstr(keys, b->key) == keys : keys[0] == '\0');
         assert_true(text[0] && !strncmp(text, w, strlen(text)));
      }
   }
   Keys_helpLine(panes, lines + unbound, keys, sizeof keys, text, sizeof text);
   assert_string_equal(keys, "");
   assert_string_equal(text, "");
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_width), cmocka_unit_test(test_fit),   cmocka_unit_test(test_wrap),
       cmocka_unit_test(test_bar),   cmocka_unit_test(test_spark), cmocka_unit_test(test_log),
       cmocka_unit_test(test_rename_source), cmocka_unit_test(test_prefs), cmocka_unit_test(test_history),
       cmocka_unit_test(test_prefs_sweep), cmocka_unit_test(test_key_table),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
