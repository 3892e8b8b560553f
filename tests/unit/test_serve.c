/* The class server's pure parts: the fair queue (serve/fairq.c), the roster
 * (serve/roster.c) and the board (serve/board.c), on cases worked out by hand. The
 * daemon itself is driven by tests/e2e/class_serve.sh and class_crowd.sh. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "serve/board.h"
#include "serve/fairq.h"
#include "serve/roster.h"
#include "serve/vet.h"
#include "testing.h"

/* A takes five requests in, B one, C two, before anything is served: round robin by
 * student serves A B C A C A A A, whatever the order of arrival within a student. */
static void test_round_robin_by_student(void **state) {
   (void)state;
   FairQueue q;
   FairQueue_init(&q);
   static char payload[8][4];
   const uid_t who[8] = {1, 1, 1, 2, 1, 3, 1, 3};
   for (int i = 0; i < 8; i++) {
      snprintf(payload[i], sizeof payload[i], "%c%d", 'A' + (int)who[i] - 1, i);
      assert_true(FairQueue_push(&q, who[i], -1, payload[i]));
   }
   assert_int_equal(FairQueue_countOf(&q, 1), 5);
   /* B's only request is second in line, C's last is seventh */
   assert_int_equal(FairQueue_position(&q, payload[3]), 2);
   assert_int_equal(FairQueue_position(&q, payload[7]), 5);
   char order[64] = "";
   for (const char *p; (p = FairQueue_pop(&q, 0));)
      strncat(order, p, 1);
   assert_string_equal(order, "ABCACAAA");
   assert_int_equal(FairQueue_position(&q, payload[0]), 0);
   FairQueue_free(&q);
}

/* A student served recently waits behind one who arrives later but has not been served
 * since; a request pinned to another device is left for it. */
static void test_least_recently_served_and_pinned(void **state) {
   (void)state;
   FairQueue q;
   FairQueue_init(&q);
   char a1[] = "a1", a2[] = "a2", b1[] = "b1", pinned[] = "p";
   FairQueue_push(&q, 1, -1, a1);
   assert_ptr_equal(FairQueue_pop(&q, 0), a1);
   FairQueue_push(&q, 1, -1, a2);
   FairQueue_push(&q, 2, 1, pinned);
   FairQueue_push(&q, 2, -1, b1);
   assert_ptr_equal(FairQueue_pop(&q, 0), b1); /* 2 was never served: before 1 */
   assert_ptr_equal(FairQueue_pop(&q, 0), a2);
   assert_null(FairQueue_pop(&q, 0));         /* only device 1's is left */
   assert_false(FairQueue_remove(&q, a2));
   assert_true(FairQueue_remove(&q, pinned));
   assert_null(FairQueue_pop(&q, 1));
   FairQueue_free(&q);
}

static void writeFile(const char *path, const char *text) {
   FILE *f = fopen(path, "w");
   assert_non_null(f);
   fputs(text, f);
   fclose(f);
}

static void test_roster(void **state) {
   (void)state;
   char dir[] = "/tmp/gemmtop-roster-XXXXXX", path[64], err[512];
   assert_non_null(mkdtemp(dir));
   snprintf(path, sizeof path, "%s/roster", dir);
   writeFile(path, "# the class\n\n20001  Ada Lovelace   # first\nlecturer 20002 Grace Hopper\nroot Root Account\n");
   Roster r;
   assert_true(Roster_load(&r, path, 4242, err, sizeof err));
   RosterEntry e;
   assert_true(Roster_find(&r, 20001, &e));
   assert_string_equal(e.name, "Ada Lovelace");
   assert_false(e.lecturer);
   assert_true(Roster_find(&r, 20002, &e));
   assert_true(e.lecturer);
   assert_true(Roster_find(&r, 0, &e)); /* by login */
   assert_string_equal(e.account, "root");
   assert_false(Roster_find(&r, 20003, &e)); /* not on it */
   assert_true(Roster_find(&r, 4242, &e));   /* the server's own account */
   assert_true(e.lecturer);
   Roster_free(&r);
   static const struct {
      const char *text, *why;
   } bad[] = {
       {"20001 Ada\n20001 Ada again\n", "line 2: account 20001 (uid 20001) is on the roster twice"},
       {"20001\n", "line 1: account 20001 has no name"},
       {"20001 <script>\n", "line 1: the name of 20001 has a character a board cannot show"},
       {"no-such-login-anywhere Eve\n", "line 1: 'no-such-login-anywhere' is neither a uid nor an account"},
       {"lecturer\n", "line 1: an account is missing after 'lecturer'"},
       /* C1 controls (CSI) as UTF-8 and as a raw 8-bit byte, refused like ESC */
       {"20001 Ada\n20002 Bob \xc2\x9b" "2J\n", "line 2: U+009B: a roster is plain text"},
       {"20001 Ada \x9b" "2J\n", "line 1: U+009B"},
       {"20001 Ada \x1b]0;pwned\a\n", "line 1: ESC"},
   };
   for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      writeFile(path, bad[i].text);
      assert_false(Roster_load(&r, path, 4242, err, sizeof err));
      if (!strstr(err, bad[i].why))
         fail_msg("'%s': %s", bad[i].text, err);
   }
   /* A NUL used to end the roster there: the students after it were strangers. */
   FILE *f = fopen(path, "wb");
   assert_non_null(f);
   fwrite("20001 Ada\n\0\n20002 Bob\n", 1, 23, f);
   fclose(f);
   assert_false(Roster_load(&r, path, 4242, err, sizeof err));
   if (!strstr(err, "line 2: a NUL byte: a roster is plain text"))
      fail_msg("%s", err);
   /* letters whose UTF-8 bytes lie in 0x80..0x9F are no controls */
   writeFile(path, "20001 Zo\xc3\xab \xc4\x80ngstr\xc3\xb6m \xe2\x80\x94 \xf0\x9f\x98\x80\n");
   assert_true(Roster_load(&r, path, 4242, err, sizeof err));
   assert_true(Roster_find(&r, 20001, &e));
   assert_string_equal(e.name, "Zo\xc3\xab \xc4\x80ngstr\xc3\xb6m \xe2\x80\x94 \xf0\x9f\x98\x80");
   Roster_free(&r);
   unlink(path);
   rmdir(dir);
   /* no roster: anyone, named by account */
   assert_true(Roster_load(&r, NULL, 4242, err, sizeof err));
   assert_true(Roster_find(&r, 20009, &e));
   assert_string_equal(e.name, "20009");
   assert_false(e.lecturer);
}

static Submission sub(long long id, uid_t uid, const char *user, bool verified, double gflops) {
   Submission s;
   memset(&s, 0, sizeof s);
   s.id = id;
   s.uid = uid;
   snprintf(s.user, sizeof s.user, "%s", user);
   snprintf(s.state, sizeof s.state, "judged");
   snprintf(s.kernel, sizeof s.kernel, "k%lld", id);
   s.time = 1000 + id;
   s.verified = verified;
   s.gflops = verified ? gflops : NAN;
   s.pct = s.max_rel_err = NAN;
   return s;
}

/* Each student's best verified figure, ranked; names as the viewer may see them. */
static void test_board(void **state) {
   (void)state;
   Submission subs[] = {sub(1, 7, "Ann", true, 10), sub(2, 8, "Ben", true, 30), sub(3, 7, "Ann", true, 50),
                        sub(4, 9, "Cat", false, 0), sub(5, 8, "Ben", false, 0)};
   BoardViewer ben = {.uid = 8};
   int n = 0;
   BoardRow *rows = Board_rows(subs, 5, &ben, &n);
   assert_int_equal(n, 3);
   assert_string_equal(rows[0].name, "student 1"); /* Ann, first to submit, hidden */
   assert_true(rows[0].gflops == 50 && rows[0].rank == 1 && rows[0].submissions == 2);
   assert_string_equal(rows[1].name, "Ben");
   assert_true(rows[1].you && rows[1].rank == 2 && rows[1].verified == 1 && rows[1].submissions == 2);
   assert_string_equal(rows[2].name, "student 3");
   assert_int_equal(rows[2].rank, 0); /* nothing verified: not ranked */
   free(rows);
   BoardViewer lecturer = {.uid = (uid_t)-1, .lecturer = true};
   rows = Board_rows(subs, 5, &lecturer, &n);
   assert_string_equal(rows[0].name, "Ann");
   assert_string_equal(rows[2].name, "Cat");
   free(rows);
   Assignment a = {.name = "hw1", .sizes = "64x64x64", .precision = "float", .rounds = 3, .open = true};
   BoardViewer page = {.uid = (uid_t)-1};
   /* Ann's best (50) is her step 3, Ben's 30 his step 2; step 1 has no verified one. */
   snprintf(subs[2].ladder, sizeof subs[2].ladder, "mygemm");
   subs[2].step = 3;
   snprintf(subs[1].ladder, sizeof subs[1].ladder, "mygemm");
   subs[1].step = 2;
   snprintf(subs[0].ladder, sizeof subs[0].ladder, "mygemm");
   subs[0].step = 2;
   const BoardStep steps[] = {{1, "mygemm01_naive", "Naive"}, {2, "mygemm02_tiled", "Tiling"},
                              {3, "mygemm03_wpt", "More work"}};
   BoardLadder ladder = {.name = "mygemm", .steps = steps, .nsteps = 3};
   const Submission *best[3];
   Board_ladderBest(subs, 5, &ladder, best);
   assert_null(best[0]);
   assert_true(best[1] == &subs[1]); /* Ben's 30 beats Ann's 10 at step 2 */
   assert_true(best[2] == &subs[2]);
   char *text = Board_render(&a, subs, 5, &ben, &ladder, BOARD_TABLE);
   assert_non_null(strstr(text, "   2  mygemm02_tiled                30.00  Ben\n"));
   assert_non_null(strstr(text, "   3  mygemm03_wpt                  50.00  student 1\n"));
   assert_non_null(strstr(text, "   1  mygemm01_naive                    -  -\n"));
   free(text);
   char *html = Board_render(&a, subs, 5, &page, &ladder, BOARD_HTML);
   assert_non_null(html);
   assert_non_null(strstr(html, "<table id=\"ranking\">"));
   assert_non_null(strstr(html, "<svg id=\"chart\""));
   assert_non_null(strstr(html, "<table id=\"ladder\">"));
   assert_null(strstr(html, "Ann"));
   assert_null(strstr(html, "Ben"));
   free(html);
   char *csv = Board_render(&a, subs, 5, &lecturer, NULL, BOARD_CSV);
   assert_non_null(strstr(csv, "1,\"Ann\",0,50,,,2,2,k3\n"));
   free(csv);
}

/* Text another person wrote, printed: every control character in caret form, C1 ones in
 * UTF-8 and as raw bytes too, letters (whose UTF-8 bytes may lie in 0x80..0x9F) as they are. */
static void test_visible(void **state) {
   (void)state;
   char out[128];
   assert_string_equal(Util_visible("\x1b]0;pwned\a\x1b[2J<b>", out, sizeof out), "^[]0;pwned^G^[[2J<b>");
   assert_string_equal(Util_visible("a\xc2\x9b" "2Jb\x9b" "c\x85", out, sizeof out), "aM-^[2JbM-^[cM-^E");
   const char *letters = "\xc4\x80 \xe2\x80\x94 \xf0\x9f\x98\x80 \xc3\xa9";
   assert_string_equal(Util_visible(letters, out, sizeof out), letters);
   /* cut to fit, never inside a character */
   assert_string_equal(Util_visible("ab\xe2\x80\x94", out, 5), "ab");
   char *dup = Util_visibleDup("\x9b\x9b\x9b");
   assert_string_equal(dup, "M-^[M-^[M-^[");
   free(dup);
   int line = 0;
   const char *text = "ok \xe2\x80\x94\n\xc2\x9b";
   assert_int_equal(Util_findControl(text, strlen(text), &line), 8);
   assert_int_equal(line, 2);
   assert_int_equal(Util_findControl(letters, strlen(letters), NULL), strlen(letters));
   char name[8];
   Util_controlName(0x9b, name);
   assert_string_equal(name, "U+009B");
}

/* A request's configuration values ("run 32 8 1"): as many as are there, up to the most. */
static void test_read_ints(void **state) {
   (void)state;
   long long v[4] = {0};
   assert_int_equal(Util_readInts(" 32 8 -1", v, 4), 3);
   assert_true(v[0] == 32 && v[1] == 8 && v[2] == -1);
   assert_int_equal(Util_readInts("1 2 3 4 5", v, 4), 4);
   assert_true(v[3] == 4);
   assert_int_equal(Util_readInts("7 x 9", v, 4), 1);
   assert_int_equal(Util_readInts("", v, 4), 0);
   assert_int_equal(Util_readInts("12345678901234", v, 1), 1);
   assert_true(v[0] == 12345678901234LL);
}

/* What the compilers would read as a directive: every spelling the server took before
 * (a lone \r, backslash + blanks + newline, backslash-CRLF, the trigraph ??/, #error's
 * raw text) and the other ways a file is reached or named; and text that only looks like
 * them, which is taken. Windows line ends are made Unix ones in the text that is kept. */
static void test_vet(void **state) {
   (void)state;
   char why[512];
   static const char *const good[] = {
       "__kernel void gemm() { int included = 1; }\n",
       "// we include the tail here\n/* #include \"x\" */\n__kernel void gemm() {}\n",
       "#define X 1\n#pragma unroll\n__kernel void gemm() { const char *s = \"include\"; }\n",
       "#define M(a, b) \\\r\n   ((a) + (b))\r\n__kernel void gemm() { int x = M(1, 2); }\r\n",
       "#define U _Pragma(\"unroll\") for (;;)\n#define WGMMA_N(n) gt_wgmma_n##n\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n",
       "#if 0\n// what??\n#endif\nconst char q = '?'; float f = 1.5e+3f, g = .5, h = 0x1p-3;\n",
       "int a = '\\\\'; const char *s = \"a\\\"b\"; // a \"quote\n",
       "\xef\xbb\xbf/* caf\xc3\xa9 */ int x;\n",
   };
   for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
      char text[512];
      size_t len = strlen(good[i]);
      memcpy(text, good[i], len + 1);
      if (!Vet_kernelSource(text, &len, why, sizeof why))
         fail_msg("refused '%s': %s", good[i], why);
      assert_null(memchr(text, '\r', len));
      assert_int_equal(len, strlen(text));
   }
   static const struct {
      const char *text, *why;
   } bad[] = {
       {"#include \"/etc/passwd\"\n", "line 1: 'include' reaches for another file"},
       {"\n\n  #  include_next <x>\n", "line 3: 'include_next'"},
       {"#inc\\\nlude \"a\"\n", "line 1: 'include'"},
       {"int a;\n#inc\\\r\nlude \"a\"\r\n", "line 2: 'include'"},
       {"// x\r#include \"a\"\n", "line 1: a carriage return that ends no line"},
       {"#inc\\ \nlude \"a\"\n", "line 1: a backslash followed by blanks ends the line"},
       {"#inc\\ \t\r\nlude \"a\"\n", "a backslash followed by blanks"},
       {"int a;\f\n", "line 1: a control character (0x0c)"},
       {"#inc?\?/\nlude \"a\"\n", "line 1: '?\?/' is a trigraph, which some compilers read as '\\'"},
       {"// x ?\?/\nint y;\n", "'?\?/' is a trigraph"},
       {"?\?=include \"a\"\n", "'?\?=' is a trigraph"},
       {"%:include \"a\"\n", "'%:' spells '#'"},
       {"/* */ # /* */ import \"a\"\n", "'import'"},
       {"#if __has_include(\"/srv/x\")\n#endif\n", "'__has_include' tests another file"},
       {"#embed \"/srv/class.db\"\n", "'embed'"},
       {"int x;\n\n#warning /*\n#include \"/srv/x\"\n*/\n", "line 4: 'include'"},
       {"#error don't /*\n#import \"/srv/x\"\n*/\n", "line 2: 'import'"},
       {"#define C(a, b) a##b\n#if C(__has_inc, lude)(\"/x\")\n#endif\n", "line 1: '##' pastes onto 'a', a macro's"},
       {"#define C(/*)*/ a, b) a ## b\n", "'##' pastes onto 'a'"},
       {"#define H __has_inc##lude\n", "'##' pastes onto '__has_inc', a name starting with '_'"},
       {"#define P(...) _Prag ## __VA_ARGS__\n", "pastes onto '_Prag'"},
       {"_Pragma(\"message \\\"/x\\\"\")\n", "line 1: a _Pragma's string holds a backslash"},
       {"_Pragma(\"GCC dependency <x>\")\n", "'#pragma ... dependency'"},
       {"#define P(x) _Pragma(x)\n", "'_Pragma' takes its string written out"},
       {"#define P(x) _Pragma(#x)\n", "'_Pragma' takes its string written out"},
       {"#pragma GCC dependency \"/srv/x\"\n", "'#pragma ... dependency' tests or loads another file"},
       {"#pragma clang module import x\n", "'#pragma ... module'"},
       {"#line 1 \"/etc/passwd\"\n", "'#line' (or '# NUMBER') renames the file"},
       {"# 7 \"/etc/passwd\"\n", "'#line' (or '# NUMBER')"},
       {"int\\u0069 = 1;\n", "a backslash outside a literal or a comment"},
       {"int x = 1'000;\n", "a digit separator"},
       {"const char *s = R\"(\n#include \"/x\"\n)\";\n", "line 1: a raw string literal (R\"...\")"},
       {"int a;\n/*\xe2\x80\xa8*/\n", "line 2: a Unicode line separator"},
       {"int a;\n#error \x1b]0;pwned\a\n", "line 2: a control character (ESC)"},
       {"// \xc2\x9b" "2J\n", "line 1: a control character (U+009B)"},
   };
   for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
      char text[512];
      size_t len = strlen(bad[i].text);
      memcpy(text, bad[i].text, len + 1);
      if (Vet_kernelSource(text, &len, why, sizeof why))
         fail_msg("took '%s'", bad[i].text);
      if (!strstr(why, bad[i].why))
         fail_msg("'%s': %s", bad[i].text, why);
   }
   /* a NUL byte (the rest would be read by the compiler, which takes it as a blank) */
   char nul[] = "int x;\n\0\n#include \"/x\"\n";
   size_t len = sizeof nul - 1;
   assert_false(Vet_kernelSource(nul, &len, why, sizeof why));
   assert_non_null(strstr(why, "line 2: a NUL byte"));
}

/* Students start from the shipped kernels: the server takes every one of them as it is,
 * and with Windows line ends. */
static void test_vet_takes_shipped_kernels(void **state) {
   (void)state;
   char *names[512];
   const char *dir = GEMMTOP_SOURCE_DIR "/kernels";
   int n = Util_filesEndingIn(dir, ".cl", names, 512);
   assert_true(n > 20);
   for (int i = 0; i < n; i++) {
      char path[1024], why[512];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      size_t len = 0;
      char *text = Util_readUserFile(path, UTIL_MAX_KERNEL_BYTES, &len, why, sizeof why);
      assert_non_null(text);
      if (!Vet_kernelSource(text, &len, why, sizeof why))
         fail_msg("%s refused: %s", names[i], why);
      char *crlf = malloc(2 * len + 1);
      size_t m = 0;
      for (size_t j = 0; j < len; j++) {
         if (text[j] == '\n')
            crlf[m++] = '\r';
         crlf[m++] = text[j];
      }
      crlf[m] = '\0';
      if (!Vet_kernelSource(crlf, &m, why, sizeof why))
         fail_msg("%s with \\r\\n line ends refused: %s", names[i], why);
      assert_int_equal(m, len);
      assert_memory_equal(crlf, text, len);
      free(crlf);
      free(text);
      free(names[i]);
   }
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_round_robin_by_student),
       cmocka_unit_test(test_least_recently_served_and_pinned),
       cmocka_unit_test(test_roster),
       cmocka_unit_test(test_board),
       cmocka_unit_test(test_vet),
       cmocka_unit_test(test_vet_takes_shipped_kernels),
       cmocka_unit_test(test_read_ints),
       cmocka_unit_test(test_visible),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
