#include "expr.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct {
   const char *p;
   Expr_Lookup lookup;
   void *ctx;
   char *err;
   size_t errlen;
   bool failed;
} Parser;

static long long parseTernary(Parser *ps);

static void fail(Parser *ps, const char *msg, const char *detail) {
   if (ps->failed)
      return;
   ps->failed = true;
   if (detail)
      snprintf(ps->err, ps->errlen, "%s '%s'", msg, detail);
   else
      snprintf(ps->err, ps->errlen, "%s at '%.20s'", msg, ps->p);
}

static void skipSpace(Parser *ps) {
   while (isspace((unsigned char)*ps->p))
      ps->p++;
}

static bool accept(Parser *ps, const char *tok) {
   skipSpace(ps);
   size_t n = strlen(tok);
   if (strncmp(ps->p, tok, n) != 0)
      return false;
   /* Don't take '<' from '<=' or '&' from '&&' etc. */
   if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!' || tok[0] == '=') && ps->p[1] == '=')
      return false;
   ps->p += n;
   return true;
}

static void expect(Parser *ps, const char *tok) {
   if (!accept(ps, tok)) {
      char msg[32];
      snprintf(msg, sizeof msg, "expected '%s'", tok);
      fail(ps, msg, NULL);
   }
}

static long long divide(Parser *ps, long long a, long long b, bool mod) {
   if (b == 0) {
      fail(ps, "division by zero", NULL);
      return 0;
   }
   return mod ? a % b : a / b;
}

static long long callFunction(Parser *ps, const char *name) {
   long long args[2] = {0, 0};
   int nargs = 0;
   expect(ps, "(");
   if (!accept(ps, ")")) {
      do {
         long long v = parseTernary(ps);
         if (nargs < 2)
            args[nargs] = v;
         nargs++;
      } while (accept(ps, ","));
      expect(ps, ")");
   }
   if (ps->failed)
      return 0;
   int want = strcmp(name, "pow2") == 0 ? 1 : 2;
   if (nargs != want) {
      fail(ps, "wrong number of arguments to", name);
      return 0;
   }
   if (!strcmp(name, "min"))
      return args[0] < args[1] ? args[0] : args[1];
   if (!strcmp(name, "max"))
      return args[0] > args[1] ? args[0] : args[1];
   if (!strcmp(name, "div"))
      return args[1] == 0 ? divide(ps, 0, 0, false) : (args[0] + args[1] - 1) / args[1];
   if (!strcmp(name, "ceil"))
      return args[1] == 0 ? divide(ps, 0, 0, false) : (args[0] + args[1] - 1) / args[1] * args[1];
   /* pow2 */
   return args[0] > 0 && (args[0] & (args[0] - 1)) == 0;
}

static bool isFunction(const char *name) {
   return !strcmp(name, "min") || !strcmp(name, "max") || !strcmp(name, "div") || !strcmp(name, "ceil") ||
          !strcmp(name, "pow2");
}

static long long parsePrimary(Parser *ps) {
   skipSpace(ps);
   if (ps->failed)
      return 0;
   if (accept(ps, "(")) {
      long long v = parseTernary(ps);
      expect(ps, ")");
      return v;
   }
   if (isdigit((unsigned char)*ps->p)) {
      long long v = 0;
      while (isdigit((unsigned char)*ps->p)) {
         v = v * 10 + (*ps->p - '0');
         ps->p++;
      }
      return v;
   }
   if (isalpha((unsigned char)*ps->p) || *ps->p == '_') {
      char name[64];
      size_t n = 0;
      while ((isalnum((unsigned char)*ps->p) || *ps->p == '_')) {
         if (n < sizeof name - 1)
            name[n++] = *ps->p;
         ps->p++;
      }
      name[n] = '\0';
      skipSpace(ps);
      if (*ps->p == '(' && isFunction(name))
         return callFunction(ps, name);
      long long v = 0;
      if (!ps->lookup || !ps->lookup(ps->ctx, name, &v)) {
         fail(ps, "unknown name", name);
         return 0;
      }
      return v;
   }
   fail(ps, *ps->p ? "unexpected text" : "unexpected end of expression", NULL);
   return 0;
}

static long long parseUnary(Parser *ps) {
   if (accept(ps, "-"))
      return -parseUnary(ps);
   if (accept(ps, "+"))
      return parseUnary(ps);
   if (accept(ps, "!"))
      return !parseUnary(ps);
   return parsePrimary(ps);
}

static long long parseMul(Parser *ps) {
   long long v = parseUnary(ps);
   for (;;) {
      if (accept(ps, "*"))
         v *= parseUnary(ps);
      else if (accept(ps, "/"))
         v = divide(ps, v, parseUnary(ps), false);
      else if (accept(ps, "%"))
         v = divide(ps, v, parseUnary(ps), true);
      else
         return v;
   }
}

static long long parseAdd(Parser *ps) {
   long long v = parseMul(ps);
   for (;;) {
      if (accept(ps, "+"))
         v += parseMul(ps);
      else if (accept(ps, "-"))
         v -= parseMul(ps);
      else
         return v;
   }
}

static long long parseCompare(Parser *ps) {
   long long v = parseAdd(ps);
   for (;;) {
      if (accept(ps, "<="))
         v = v <= parseAdd(ps);
      else if (accept(ps, ">="))
         v = v >= parseAdd(ps);
      else if (accept(ps, "<"))
         v = v < parseAdd(ps);
      else if (accept(ps, ">"))
         v = v > parseAdd(ps);
      else
         return v;
   }
}

static long long parseEquality(Parser *ps) {
   long long v = parseCompare(ps);
   for (;;) {
      if (accept(ps, "=="))
         v = v == parseCompare(ps);
      else if (accept(ps, "!="))
         v = v != parseCompare(ps);
      else
         return v;
   }
}

static long long parseAnd(Parser *ps) {
   long long v = parseEquality(ps);
   while (accept(ps, "&&")) {
      long long r = parseEquality(ps);
      v = v && r;
   }
   return v;
}

static long long parseOr(Parser *ps) {
   long long v = parseAnd(ps);
   while (accept(ps, "||")) {
      long long r = parseAnd(ps);
      v = v || r;
   }
   return v;
}

static long long parseTernary(Parser *ps) {
   long long c = parseOr(ps);
   if (accept(ps, "?")) {
      long long a = parseTernary(ps);
      expect(ps, ":");
      long long b = parseTernary(ps);
      return c ? a : b;
   }
   return c;
}

bool Expr_eval(const char *text, Expr_Lookup lookup, void *ctx, long long *out, char *err, size_t errlen) {
   char dummy[8];
   Parser ps = {.p = text, .lookup = lookup, .ctx = ctx, .err = err ? err : dummy, .errlen = err ? errlen : sizeof dummy};
   long long v = parseTernary(&ps);
   skipSpace(&ps);
   if (!ps.failed && *ps.p)
      fail(&ps, "unexpected text", NULL);
   if (ps.failed)
      return false;
   *out = v;
   return true;
}

void Expr_identifiers(const char *text, void (*fn)(void *ctx, const char *name), void *ctx) {
   char seen[1024] = " ";
   const char *p = text;
   while (*p) {
      if (isalpha((unsigned char)*p) || *p == '_') {
         char name[64];
         size_t n = 0;
         while (isalnum((unsigned char)*p) || *p == '_') {
            if (n < sizeof name - 1)
               name[n++] = *p;
            p++;
         }
         name[n] = '\0';
         const char *q = p;
         while (isspace((unsigned char)*q))
            q++;
         if (*q == '(' && isFunction(name))
            continue;
         char key[68];
         snprintf(key, sizeof key, " %s ", name);
         if (strstr(seen, key))
            continue;
         if (strlen(seen) + strlen(name) + 2 < sizeof seen) {
            strcat(seen, name);
            strcat(seen, " ");
         }
         fn(ctx, name);
      } else if (isdigit((unsigned char)*p)) {
         while (isalnum((unsigned char)*p))
            p++;
      } else {
         p++;
      }
   }
}
