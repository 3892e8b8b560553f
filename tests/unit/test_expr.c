/* Expressions of kernel metadata: arithmetic, precedence, functions, errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/expr.h"
#include "base/rng.h"

static bool lookup(void *ctx, const char *name, long long *v) {
   const long long *vars = ctx; /* TS, M, N */
   if (!strcmp(name, "TS")) return *v = vars[0], true;
   if (!strcmp(name, "M")) return *v = vars[1], true;
   if (!strcmp(name, "N")) return *v = vars[2], true;
   return false;
}

static long long eval(const char *text, long long ts, long long m, long long n) {
   long long vars[3] = {ts, m, n}, out = -999;
   char err[128];
   assert_true(Expr_eval(text, lookup, vars, &out, err, sizeof err));
   return out;
}

static void test_precedence(void **state) {
   (void)state;
   assert_int_equal(eval("1 + 2 * 3", 0, 0, 0), 7);
   assert_int_equal(eval("(1 + 2) * 3", 0, 0, 0), 9);
   assert_int_equal(eval("10 - 4 - 3", 0, 0, 0), 3);
   assert_int_equal(eval("100 / 10 / 5", 0, 0, 0), 2);
   assert_int_equal(eval("-3 + 5", 0, 0, 0), 2);
   assert_int_equal(eval("!0 + !7", 0, 0, 0), 1);
   assert_int_equal(eval("1 < 2 == 1", 0, 0, 0), 1);
   assert_int_equal(eval("2 <= 2 && 3 >= 4 || 5 != 5", 0, 0, 0), 0);
   assert_int_equal(eval("0 ? 4 : 1 ? 5 : 6", 0, 0, 0), 5);
}

static void test_random_arithmetic_matches_c(void **state) {
   (void)state;
   Rng r;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&r, seed);
   for (int i = 0; i < 500; i++) {
      long long a = (long long)Rng_below(&r, 2000) - 1000, b = (long long)Rng_below(&r, 999) + 1;
      long long c = (long long)Rng_below(&r, 50);
      char text[128];
      snprintf(text, sizeof text, "TS * %lld + M %% %lld - N / %lld", c, b, b);
      long long got = eval(text, a, a * 3, a - 7);
      long long want = a * c + (a * 3) % b - (a - 7) / b;
      if (got != want)
         fail_msg("seed %llu: %s with TS=%lld gives %lld, want %lld", (unsigned long long)seed, text, a, got, want);
   }
}

static void test_functions(void **state) {
   (void)state;
   assert_int_equal(eval("min(TS, 8)", 16, 0, 0), 8);
   assert_int_equal(eval("max(TS, 8)", 16, 0, 0), 16);
   assert_int_equal(eval("ceil(M, TS)", 16, 100, 0), 112);
   assert_int_equal(eval("ceil(M, TS)", 16, 96, 0), 96);
   assert_int_equal(eval("div(M, TS)", 16, 100, 0), 7);
   assert_int_equal(eval("pow2(TS)", 16, 0, 0), 1);
   assert_int_equal(eval("pow2(TS)", 12, 0, 0), 0);
   assert_int_equal(eval("M % TS == 0 && N % TS == 0", 16, 256, 128), 1);
   assert_int_equal(eval("M % TS == 0 && N % TS == 0", 16, 256, 120), 0);
}

static void expectError(const char *text, const char *fragment) {
   long long vars[3] = {16, 0, 64}, out;
   char err[128] = "";
   assert_false(Expr_eval(text, lookup, vars, &out, err, sizeof err));
   if (!strstr(err, fragment))
      fail_msg("'%s': message '%s' lacks '%s'", text, err, fragment);
}

static void test_errors(void **state) {
   (void)state;
   expectError("N / M", "division by zero");
   expectError("N % M", "division by zero");
   expectError("ceil(N, M)", "division by zero");
   expectError("TS + WPT", "unknown name 'WPT'");
   expectError("(TS + 1", "expected ')'");
   expectError("TS +", "unexpected end");
   expectError("TS 4", "unexpected text");
   expectError("min(TS)", "wrong number of arguments");
}

/* The same failure whether the text is compiled and kept or interpreted each time. */
static void expectErrorBoth(const char *text, const char *fragment) {
   for (int cache = 0; cache < 2; cache++) {
      Expr_useCache(cache);
      expectError(text, fragment);
   }
   Expr_useCache(true);
}

/* 64-bit overflow is an error, never a wrapped value that could make a rule pass:
 * LLONG_MIN / -1 (and %) used to kill the process with SIGFPE. */
static void test_overflow_is_an_error(void **state) {
   (void)state;
   expectErrorBoth("(0-9223372036854775807-1) / (0-1)", "overflow: -9223372036854775808 / -1");
   expectErrorBoth("(0-9223372036854775807-1) % (0-1)", "overflow: -9223372036854775808 % -1");
   expectErrorBoth("999999999999999999 * 10", "overflow: 999999999999999999 * 10 does not fit");
   expectErrorBoth("9223372036854775807 + TS", "overflow: 9223372036854775807 + 16");
   expectErrorBoth("0 - 9223372036854775807 - 2", "overflow");
   expectErrorBoth("-(0 - 9223372036854775807 - 1)", "overflow: -(-9223372036854775808)");
   expectErrorBoth("div(9223372036854775807, 2)", "overflow: div(9223372036854775807, 2)");
   expectErrorBoth("ceil(9223372036854775806, 4)", "overflow: ceil(9223372036854775806, 4)");
   expectErrorBoth("99999999999999999999 > 0", "number over 9223372036854775807");
   expectErrorBoth("div(0 - 9223372036854775807, 0 - 9223372036854775807 - 1)", "overflow: div(");
   /* b = LLONG_MIN: a + b - 1 is taken left to right, so these fit (b - 1 first did not). */
   assert_true(eval("div(1, 0 - 9223372036854775807 - 1) == 1", 0, 0, 0));
   assert_true(eval("ceil(1, 0 - 9223372036854775807 - 1) == 0 - 9223372036854775807 - 1", 0, 0, 0));
   /* The largest values still work. */
   assert_true(eval("9223372036854775807 == 0 - (0 - 9223372036854775807)", 0, 0, 0) == 1);
   assert_true(eval("(0 - 9223372036854775807 - 1) / 1 < 0", 0, 0, 0) == 1);
   assert_true(eval("3037000499 * 3037000499", 0, 0, 0) == 9223372030926249001LL);
}

/* Hostile shapes: deep nesting is refused (it would overflow the stack), a long chain is
 * evaluated, and a long name is refused rather than cut to a shorter, valid one. */
static void test_limits(void **state) {
   (void)state;
   char text[40000];
   size_t n = 0;
   for (int i = 0; i < 5000; i++)
      text[n++] = '(';
   text[n++] = '1';
   for (int i = 0; i < 5000; i++)
      text[n++] = ')';
   text[n] = '\0';
   expectErrorBoth(text, "nested more than 200 levels");
   memset(text, '-', 20000);
   strcpy(text + 20000, "1");
   expectErrorBoth(text, "nested more than 200 levels");
   n = 0;
   for (int i = 0; i < 10000; i++)
      n += (size_t)sprintf(text + n, "1+");
   strcpy(text + n, "1");
   for (int cache = 0; cache < 2; cache++) {
      Expr_useCache(cache);
      assert_int_equal(eval(text, 0, 0, 0), 10001);
   }
   char name[80];
   memset(name, 'T', 64);
   name[64] = '\0';
   expectErrorBoth(name, "name longer than 63 characters");
   assert_int_equal(eval("((((((((((1))))))))))", 0, 0, 0), 1);
}

static void collect(void *ctx, const char *name) {
   strcat(ctx, name);
   strcat(ctx, ";");
}

static void test_identifiers(void **state) {
   (void)state;
   char out[128] = "";
   Expr_identifiers("M % TS == 0 && min(TS, WPT) > 1 && ceil(N, TS2)", collect, out);
   assert_string_equal(out, "M;TS;WPT;N;TS2;");
}

/* A random expression text from the grammar, with random spacing; sometimes broken (a
 * token dropped or doubled) or naming an unknown identifier, or dividing by zero. */
static void randomText(Rng *rng, char *out, size_t len, int depth) {
   static const char *ops[] = {"+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||"};
   static const char *atoms[] = {"TS",         "M", "N", "0", "1", "2", "7", "16", "100", "3037000500", "9223372036854775807",
                                 "X",          "min_", "(", ")"};
   static const char *fns[] = {"min", "max", "div", "ceil", "pow2"};
   const char *sp = Rng_below(rng, 3) ? "" : " ";
   size_t n = strlen(out);
   /* At most three levels of operators. The two large atoms make some texts overflow,
    * which both forms must refuse alike. */
   unsigned kind = depth > 2 ? 0 : (unsigned)Rng_below(rng, 7);
   if (kind == 0) {
      /* An atom: mostly well-formed; rarely a stray parenthesis or an unknown name. */
      unsigned a = (unsigned)Rng_below(rng, 100);
      const char *t = a < 80 ? atoms[Rng_below(rng, 9)] : a < 88 ? atoms[9 + Rng_below(rng, 2)] : atoms[11 + Rng_below(rng, 4)];
      snprintf(out + n, len - n, "%s%s%s", sp, t, sp);
   } else if (kind <= 3) {
      randomText(rng, out, len, depth + 1);
      n = strlen(out);
      snprintf(out + n, len - n, "%s%s%s", sp, ops[Rng_below(rng, 13)], sp);
      randomText(rng, out, len, depth + 1);
   } else if (kind == 4) {
      const char *un[] = {"-", "+", "!"};
      snprintf(out + n, len - n, "%s", un[Rng_below(rng, 3)]);
      randomText(rng, out, len, depth + 1);
   } else if (kind == 5) {
      snprintf(out + n, len - n, "(");
      randomText(rng, out, len, depth + 1);
      n = strlen(out);
      snprintf(out + n, len - n, "%s?%s", sp, sp);
      randomText(rng, out, len, depth + 1);
      n = strlen(out);
      snprintf(out + n, len - n, "%s:%s", sp, sp);
      randomText(rng, out, len, depth + 1);
      n = strlen(out);
      snprintf(out + n, len - n, ")");
   } else {
      int f = (int)Rng_below(rng, 5), args = (int)Rng_below(rng, 10) == 0 ? (int)Rng_below(rng, 4) : (f == 4 ? 1 : 2);
      snprintf(out + n, len - n, "%s%s(", fns[f], sp);
      for (int i = 0; i < args; i++) {
         if (i) {
            n = strlen(out);
            snprintf(out + n, len - n, ",%s", sp);
         }
         randomText(rng, out, len, depth + 1);
      }
      n = strlen(out);
      snprintf(out + n, len - n, ")");
   }
}

/* Compiled once and kept, or parsed every time: the same value, or the same failure with
 * the same message, for thousands of random texts (broken ones included), evaluated twice
 * so that the second run comes from the table. */
static void test_compiled_matches_interpreted(void **state) {
   (void)state;
   Rng rng;
   uint64_t seed = Rng_freshSeed();
   Rng_seed(&rng, seed);
   int ok = 0, failed = 0, overflowed = 0;
   for (int i = 0; i < 4000; i++) {
      char text[2048] = "";
      randomText(&rng, text, sizeof text, 0);
      if (Rng_below(&rng, 8) == 0 && strlen(text) > 2) {
         /* Broken on purpose: a character dropped. */
         size_t at = Rng_below(&rng, strlen(text));
         memmove(text + at, text + at + 1, strlen(text + at));
      }
      long long vars[3] = {(long long)Rng_below(&rng, 64), (long long)Rng_below(&rng, 101),
                           (long long)Rng_below(&rng, 3) - 1};
      for (int pass = 0; pass < 2; pass++) {
         long long a = -1, b = -2;
         char ea[256] = "", eb[256] = "";
         Expr_useCache(false);
         bool ra = Expr_eval(text, lookup, vars, &a, ea, sizeof ea);
         Expr_useCache(true);
         bool rb = Expr_eval(text, lookup, vars, &b, eb, sizeof eb);
         if (ra != rb || (ra && a != b) || (!ra && strcmp(ea, eb) != 0))
            fail_msg("seed %llu: '%s': interpreted %s %lld '%s', compiled %s %lld '%s'", (unsigned long long)seed, text,
                     ra ? "ok" : "failed", a, ea, rb ? "ok" : "failed", b, eb);
         if (pass == 0)
            ra ? ok++ : failed++;
         if (pass == 0 && !ra && strstr(ea, "overflow"))
            overflowed++;
      }
   }
   /* Every kind was drawn: values, failures and overflows. */
   if (!(ok > 100 && failed > 100 && overflowed > 20))
      fail_msg("seed %llu: %d values, %d failures, %d overflows", (unsigned long long)seed, ok, failed, overflowed);
}

int main(void) {
   const struct CMUnitTest tests[] = {
       cmocka_unit_test(test_precedence),  cmocka_unit_test(test_random_arithmetic_matches_c),
       cmocka_unit_test(test_functions),   cmocka_unit_test(test_errors),
       cmocka_unit_test(test_identifiers), cmocka_unit_test(test_compiled_matches_interpreted),
       cmocka_unit_test(test_overflow_is_an_error), cmocka_unit_test(test_limits),
   };
   return cmocka_run_group_tests(tests, NULL, NULL);
}
