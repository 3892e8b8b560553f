/* Fuzzes the expression evaluator (src/core/model/expr.c). The first byte picks the values of
 * the names TS, M, N, K (small, zero, negative, or the 64-bit extremes); the rest is the
 * text. Differential: the interpreter, the freshly compiled form and the kept compiled form
 * must give the same value, or the same failure with the same message. */
#include "fuzz.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/model/expr.h"

static const long long interesting[] = {0, 1, -1, 16, 1024, 3037000500LL, LLONG_MAX, LLONG_MIN};

static bool lookup(void *ctx, const char *name, long long *v) {
   const long long *vars = ctx;
   static const char *names[] = {"TS", "M", "N", "K"};
   for (int i = 0; i < 4; i++)
      if (!strcmp(name, names[i])) {
         *v = vars[i];
         return true;
      }
   return false;
}

/* Expr_identifiers hands out whole identifiers of at most 63 characters. */
static void checkName(void *ctx, const char *name) {
   (void)ctx;
   size_t n = strlen(name);
   if (n == 0 || n > 63)
      abort();
}

int Fuzz_expr(const uint8_t *data, size_t size) {
   if (size < 1)
      return 0;
   long long vars[4];
   for (int i = 0; i < 4; i++)
      vars[i] = interesting[(data[0] >> (2 * i)) & 3] * ((data[0] & 0x80) && i == 3 ? -1 : 1);
   if (data[0] & 0x40)
      vars[1] = interesting[6 + (data[0] & 1)];
   char *text = malloc(size);
   if (!text)
      return 0;
   memcpy(text, data + 1, size - 1);
   text[size - 1] = '\0';
   long long got[3] = {0, 0, 0};
   char err[3][256];
   bool ok[3];
   Expr_useCache(false);
   ok[0] = Expr_eval(text, lookup, vars, &got[0], err[0], sizeof err[0]);
   Expr_useCache(true);
   ok[1] = Expr_eval(text, lookup, vars, &got[1], err[1], sizeof err[1]);
   ok[2] = Expr_eval(text, lookup, vars, &got[2], err[2], sizeof err[2]);
   for (int i = 1; i < 3; i++)
      if (ok[i] != ok[0] || (ok[0] && got[i] != got[0]) || (!ok[0] && strcmp(err[i], err[0]) != 0)) {
         fprintf(stderr, "fuzz_expr: '%s': interpreted %s %lld '%s', compiled (%s) %s %lld '%s'\n", text,
                 ok[0] ? "ok" : "failed", got[0], ok[0] ? "" : err[0], i == 1 ? "fresh" : "kept",
                 ok[i] ? "ok" : "failed", got[i], ok[i] ? "" : err[i]);
         abort();
      }
   Expr_identifiers(text, checkName, NULL);
   free(text);
   Expr_forgetCache(); /* the table keeps 4096 texts: keep compiling fresh ones */
   return 0;
}

FUZZ_ENTRY(Fuzz_expr)
