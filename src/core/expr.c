#include "core/expr.h"

#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
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

/* ---- Lexing, shared by the interpreter, the compiler and Expr_identifiers ---- */

static void skipSpaceAt(const char **p) {
   while (isspace((unsigned char)**p))
      (*p)++;
}

static bool acceptAt(const char **p, const char *tok) {
   skipSpaceAt(p);
   size_t n = strlen(tok);
   if (strncmp(*p, tok, n) != 0)
      return false;
   /* Don't take '<' from '<=' or '&' from '&&' etc. */
   if (n == 1 && (tok[0] == '<' || tok[0] == '>' || tok[0] == '!' || tok[0] == '=') && (*p)[1] == '=')
      return false;
   *p += n;
   return true;
}

static bool startsName(char c) { return isalpha((unsigned char)c) || c == '_'; }

/* The identifier at *p (startsName holds) into name (truncated to 63 characters); returns
 * its stored length. */
static size_t scanName(const char **p, char name[64]) {
   size_t n = 0;
   while (isalnum((unsigned char)**p) || **p == '_') {
      if (n < 63)
         name[n++] = **p;
      (*p)++;
   }
   name[n] = '\0';
   return n;
}

/* The decimal number at *p (a digit is there). */
static long long scanNumber(const char **p) {
   long long v = 0;
   while (isdigit((unsigned char)**p)) {
      v = v * 10 + (**p - '0');
      (*p)++;
   }
   return v;
}

static void skipSpace(Parser *ps) { skipSpaceAt(&ps->p); }
static bool accept(Parser *ps, const char *tok) { return acceptAt(&ps->p, tok); }

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
   if (isdigit((unsigned char)*ps->p))
      return scanNumber(&ps->p);
   if (startsName(*ps->p)) {
      char name[64];
      scanName(&ps->p, name);
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

static bool interpret(const char *text, Expr_Lookup lookup, void *ctx, long long *out, char *err, size_t errlen) {
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
      if (startsName(*p)) {
         char name[64];
         scanName(&p, name);
         const char *q = p;
         skipSpaceAt(&q);
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

/* ---- Compiled expressions ----------------------------------------------------------
 * A sweep checks every configuration of a space against the same few rules (147,456 for
 * magma_fermi), and parsing each rule's text every time took seconds. So each text is
 * parsed once into a tree of nodes, kept in a table for the life of the process, and
 * evaluated from there. Evaluation mirrors the interpreter above exactly: every operand
 * is evaluated, left to right (no short cut for &&, || or ?:), and the first error is the
 * one reported, with the same message. A text that does not parse is left to the
 * interpreter, whose message then also matches. */

enum {
   OP_NUM, OP_NAME, OP_NEG, OP_NOT, OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_LE, OP_GE, OP_LT, OP_GT, OP_EQ,
   OP_NE, OP_AND, OP_OR, OP_TERN, OP_MIN, OP_MAX, OP_CDIV, OP_CEIL, OP_POW2
};

typedef struct {
   unsigned char op;
   int a, b, c;       /* operands (node indices), -1 when absent */
   long long num;     /* OP_NUM */
   int name;          /* OP_NAME: offset of the NUL-terminated name in Program.names */
   int at;            /* text offset the interpreter would quote for a division by zero */
} Node;

typedef struct Program_ {
   Node *nodes;
   int nnodes, cap, root;
   char *names;
   size_t nameslen, namescap;
   const char *text;
} Program;

typedef struct {
   const char *p;
   Program *prog;
   bool failed;
} Builder;

static int buildTernary(Builder *b);

static void bskip(Builder *b) { skipSpaceAt(&b->p); }
static bool baccept(Builder *b, const char *tok) { return acceptAt(&b->p, tok); }

static int node(Builder *b, int op, int x, int y, int z) {
   Program *g = b->prog;
   if (b->failed)
      return -1;
   if (g->nnodes == g->cap) {
      int cap = g->cap ? 2 * g->cap : 16;
      Node *n = realloc(g->nodes, (size_t)cap * sizeof *n);
      if (!n) {
         b->failed = true;
         return -1;
      }
      g->nodes = n;
      g->cap = cap;
   }
   Node *n = &g->nodes[g->nnodes];
   memset(n, 0, sizeof *n);
   n->op = (unsigned char)op;
   n->a = x;
   n->b = y;
   n->c = z;
   n->at = (int)(b->p - g->text);
   return g->nnodes++;
}

static void bexpect(Builder *b, const char *tok) {
   if (!baccept(b, tok))
      b->failed = true;
}

static int buildPrimary(Builder *b) {
   bskip(b);
   if (b->failed)
      return -1;
   if (baccept(b, "(")) {
      int v = buildTernary(b);
      bexpect(b, ")");
      return v;
   }
   if (isdigit((unsigned char)*b->p)) {
      long long v = scanNumber(&b->p);
      int n = node(b, OP_NUM, -1, -1, -1);
      if (n >= 0)
         b->prog->nodes[n].num = v;
      return n;
   }
   if (startsName(*b->p)) {
      char name[64];
      size_t n = scanName(&b->p, name);
      bskip(b);
      if (*b->p == '(' && isFunction(name)) {
         int args[2] = {-1, -1}, nargs = 0;
         bexpect(b, "(");
         if (!baccept(b, ")")) {
            do {
               int v = buildTernary(b);
               if (nargs < 2)
                  args[nargs] = v;
               nargs++;
            } while (!b->failed && baccept(b, ","));
            bexpect(b, ")");
         }
         int op = !strcmp(name, "min")    ? OP_MIN
                  : !strcmp(name, "max")  ? OP_MAX
                  : !strcmp(name, "div")  ? OP_CDIV
                  : !strcmp(name, "ceil") ? OP_CEIL
                                          : OP_POW2;
         if (nargs != (op == OP_POW2 ? 1 : 2))
            b->failed = true; /* the interpreter says how */
         return node(b, op, args[0], args[1], -1);
      }
      Program *g = b->prog;
      if (g->nameslen + n + 1 > g->namescap) {
         size_t cap = g->namescap ? 2 * g->namescap + n + 1 : 64 + n;
         char *m = realloc(g->names, cap);
         if (!m) {
            b->failed = true;
            return -1;
         }
         g->names = m;
         g->namescap = cap;
      }
      memcpy(g->names + g->nameslen, name, n + 1);
      int nd = node(b, OP_NAME, -1, -1, -1);
      if (nd >= 0)
         g->nodes[nd].name = (int)g->nameslen;
      g->nameslen += n + 1;
      return nd;
   }
   b->failed = true;
   return -1;
}

static int buildUnary(Builder *b) {
   if (baccept(b, "-")) {
      int x = buildUnary(b);
      return node(b, OP_NEG, x, -1, -1);
   }
   if (baccept(b, "+"))
      return buildUnary(b);
   if (baccept(b, "!")) {
      int x = buildUnary(b);
      return node(b, OP_NOT, x, -1, -1);
   }
   return buildPrimary(b);
}

/* Left-associative levels: the operators of each, in the order the interpreter tries them. */
typedef struct {
   const char *tok;
   int op;
} Level;

static int buildLevel(Builder *b, int level);

static const Level levels[][5] = {
    {{"||", OP_OR}, {NULL, 0}},
    {{"&&", OP_AND}, {NULL, 0}},
    {{"==", OP_EQ}, {"!=", OP_NE}, {NULL, 0}},
    {{"<=", OP_LE}, {">=", OP_GE}, {"<", OP_LT}, {">", OP_GT}, {NULL, 0}},
    {{"+", OP_ADD}, {"-", OP_SUB}, {NULL, 0}},
    {{"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}, {NULL, 0}},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static int buildLevel(Builder *b, int level) {
   if (level == NLEVELS)
      return buildUnary(b);
   int v = buildLevel(b, level + 1);
   for (;;) {
      int op = -1;
      for (const Level *l = levels[level]; l->tok && op < 0; l++)
         if (baccept(b, l->tok))
            op = l->op;
      if (op < 0 || b->failed)
         return v;
      int r = buildLevel(b, level + 1);
      v = node(b, op, v, r, -1);
   }
}

static int buildTernary(Builder *b) {
   int c = buildLevel(b, 0);
   if (baccept(b, "?")) {
      int x = buildTernary(b);
      bexpect(b, ":");
      int y = buildTernary(b);
      return node(b, OP_TERN, c, x, y);
   }
   return c;
}

static void programFree(Program *g) {
   if (g) {
      free(g->nodes);
      free(g->names);
      free(g);
   }
}

/* NULL when the text does not parse (or memory runs out). */
static Program *compile(const char *text) {
   Program *g = calloc(1, sizeof *g);
   if (!g)
      return NULL;
   g->text = text;
   Builder b = {.p = text, .prog = g};
   g->root = buildTernary(&b);
   bskip(&b);
   if (b.failed || *b.p || g->root < 0) {
      programFree(g);
      return NULL;
   }
   return g;
}

typedef struct {
   const Program *g;
   Expr_Lookup lookup;
   void *ctx;
   char *err;
   size_t errlen;
   bool failed;
} Run;

static void runFail(Run *r, const char *msg, const char *detail, int at) {
   if (r->failed)
      return;
   r->failed = true;
   if (detail)
      snprintf(r->err, r->errlen, "%s '%s'", msg, detail);
   else
      snprintf(r->err, r->errlen, "%s at '%.20s'", msg, r->g->text + at);
}

static long long evalNode(Run *r, int i) {
   if (r->failed || i < 0)
      return 0;
   const Node *n = &r->g->nodes[i];
   if (n->op == OP_NUM)
      return n->num;
   if (n->op == OP_NAME) {
      const char *name = r->g->names + n->name;
      long long v = 0;
      if (!r->lookup || !r->lookup(r->ctx, name, &v)) {
         runFail(r, "unknown name", name, 0);
         return 0;
      }
      return v;
   }
   long long a = evalNode(r, n->a);
   long long b = evalNode(r, n->b);
   long long c = evalNode(r, n->c);
   if (r->failed)
      return 0;
   switch (n->op) {
   case OP_NEG: return -a;
   case OP_NOT: return !a;
   case OP_MUL: return a * b;
   case OP_DIV:
   case OP_MOD:
      if (b == 0) {
         runFail(r, "division by zero", NULL, n->at);
         return 0;
      }
      return n->op == OP_MOD ? a % b : a / b;
   case OP_ADD: return a + b;
   case OP_SUB: return a - b;
   case OP_LE: return a <= b;
   case OP_GE: return a >= b;
   case OP_LT: return a < b;
   case OP_GT: return a > b;
   case OP_EQ: return a == b;
   case OP_NE: return a != b;
   case OP_AND: return a && b;
   case OP_OR: return a || b;
   case OP_TERN: return a ? b : c;
   case OP_MIN: return a < b ? a : b;
   case OP_MAX: return a > b ? a : b;
   case OP_CDIV:
   case OP_CEIL:
      if (b == 0) {
         runFail(r, "division by zero", NULL, n->at);
         return 0;
      }
      return n->op == OP_CDIV ? (a + b - 1) / b : (a + b - 1) / b * b;
   default: return a > 0 && (a & (a - 1)) == 0; /* OP_POW2 */
   }
}

/* The table of compiled texts: open addressing on the text's hash, never shrunk; its
 * entries live as long as the process (kernel metadata is a few hundred texts). */
#define CACHE_SLOTS 8192
#define CACHE_MAX 4096
typedef struct {
   unsigned long long hash;
   char *text;
   Program *prog;
} Slot;
static Slot cacheSlots[CACHE_SLOTS];
static int cacheCount;
static pthread_mutex_t cacheLock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool cacheOff;

void Expr_useCache(bool on) { atomic_store(&cacheOff, !on); }

static unsigned long long hashText(const char *s) {
   unsigned long long h = 1469598103934665603ULL;
   for (; *s; s++)
      h = (h ^ (unsigned char)*s) * 1099511628211ULL;
   return h;
}

/* The compiled form of text, compiling it the first time; NULL when it does not parse or
 * the table is full. */
static const Program *cached(const char *text) {
   unsigned long long h = hashText(text);
   pthread_mutex_lock(&cacheLock);
   size_t i = h % CACHE_SLOTS;
   while (cacheSlots[i].text && (cacheSlots[i].hash != h || strcmp(cacheSlots[i].text, text) != 0))
      i = (i + 1) % CACHE_SLOTS;
   const Program *g = cacheSlots[i].prog;
   if (!cacheSlots[i].text && cacheCount < CACHE_MAX) {
      char *copy = strdup(text);
      Program *made = copy ? compile(copy) : NULL;
      if (made) {
         cacheSlots[i] = (Slot){h, copy, made};
         cacheCount++;
         g = made;
      } else {
         free(copy); /* not kept: the interpreter handles it, each time */
      }
   }
   pthread_mutex_unlock(&cacheLock);
   return g;
}

bool Expr_eval(const char *text, Expr_Lookup lookup, void *ctx, long long *out, char *err, size_t errlen) {
   const Program *g = atomic_load(&cacheOff) ? NULL : cached(text);
   if (!g)
      return interpret(text, lookup, ctx, out, err, errlen);
   char dummy[8];
   Run r = {.g = g, .lookup = lookup, .ctx = ctx, .err = err ? err : dummy, .errlen = err ? errlen : sizeof dummy};
   long long v = evalNode(&r, g->root);
   if (r.failed)
      return false;
   *out = v;
   return true;
}
