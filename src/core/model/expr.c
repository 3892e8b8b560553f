#include "core/model/expr.h"

#include <ctype.h>
#include <limits.h>
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
   int depth; /* nesting of the recursive descent, bounded by EXPR_MAX_DEPTH */
} Parser;

/* Deeper nesting than this is refused: the recursion would otherwise follow the text
 * (a hostile "((((...", "----...1" or "1?1?1?..." overflows the stack). */
#define EXPR_MAX_DEPTH 200
/* Identifiers are parameter names, at most this long; a longer one is an error, never cut. */
#define EXPR_MAX_NAME 63

/* The operations, shared by the interpreter and the compiled form so that both compute
 * (and refuse) exactly the same. */
enum {
   OP_NUM, OP_NAME, OP_NEG, OP_NOT, OP_MUL, OP_DIV, OP_MOD, OP_ADD, OP_SUB, OP_LE, OP_GE, OP_LT, OP_GT, OP_EQ,
   OP_NE, OP_AND, OP_OR, OP_TERN, OP_MIN, OP_MAX, OP_CDIV, OP_CEIL, OP_POW2
};

/* a op b in 64-bit signed arithmetic. A result that does not fit (overflow, and
 * LLONG_MIN / -1, which traps on x86) or a division by zero is refused: a rule that
 * wrapped around could pass when it should fail. On refusal why says what happened. */
static bool applyOp(int op, long long a, long long b, long long *out, char *why, size_t whylen) {
   static const char *sym[] = {[OP_NEG] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%", [OP_ADD] = "+",
                               [OP_SUB] = "-", [OP_CDIV] = "div", [OP_CEIL] = "ceil"};
   bool over = false;
   long long t;
   switch (op) {
   case OP_NEG: over = __builtin_sub_overflow(0LL, a, out); break;
   case OP_NOT: *out = !a; break;
   case OP_MUL: over = __builtin_mul_overflow(a, b, out); break;
   case OP_ADD: over = __builtin_add_overflow(a, b, out); break;
   case OP_SUB: over = __builtin_sub_overflow(a, b, out); break;
   case OP_DIV:
   case OP_MOD:
   case OP_CDIV:
   case OP_CEIL:
      if (b == 0) {
         snprintf(why, whylen, "division by zero");
         return false;
      }
      if (op == OP_DIV || op == OP_MOD) {
         over = a == LLONG_MIN && b == -1;
         *out = over ? 0 : op == OP_DIV ? a / b : a % b;
         break;
      }
      /* div(a, b) = (a + b - 1) / b; ceil(a, b) = div(a, b) * b */
      over = __builtin_add_overflow(a, b, &t) || __builtin_sub_overflow(t, 1LL, &t) || (t == LLONG_MIN && b == -1);
      if (!over)
         *out = t / b;
      if (!over && op == OP_CEIL)
         over = __builtin_mul_overflow(*out, b, out);
      break;
   case OP_LE: *out = a <= b; break;
   case OP_GE: *out = a >= b; break;
   case OP_LT: *out = a < b; break;
   case OP_GT: *out = a > b; break;
   case OP_EQ: *out = a == b; break;
   case OP_NE: *out = a != b; break;
   case OP_AND: *out = a && b; break;
   case OP_OR: *out = a || b; break;
   case OP_MIN: *out = a < b ? a : b; break;
   case OP_MAX: *out = a > b ? a : b; break;
   default: *out = a > 0 && (a & (a - 1)) == 0; break; /* OP_POW2 */
   }
   if (!over)
      return true;
   if (op == OP_NEG)
      snprintf(why, whylen, "overflow: -(%lld) does not fit in 64 bits", a);
   else if (op == OP_CDIV || op == OP_CEIL)
      snprintf(why, whylen, "overflow: %s(%lld, %lld) does not fit in 64 bits", sym[op], a, b);
   else
      snprintf(why, whylen, "overflow: %lld %s %lld does not fit in 64 bits", a, sym[op], b);
   return false;
}

static long long parseTernary(Parser *ps);
static long long parseUnary(Parser *ps);

static void fail(Parser *ps, const char *msg, const char *detail) {
   if (ps->failed)
      return;
   ps->failed = true;
   if (detail)
      snprintf(ps->err, ps->errlen, "%s '%s'", msg, detail);
   else if (*ps->p)
      snprintf(ps->err, ps->errlen, "%s at '%.20s'", msg, ps->p);
   else
      snprintf(ps->err, ps->errlen, "%s", msg);
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

/* The identifier at *p (startsName holds) into name (its first EXPR_MAX_NAME characters);
 * returns its whole length, which callers refuse when it is over EXPR_MAX_NAME. */
static size_t scanName(const char **p, char name[EXPR_MAX_NAME + 1]) {
   size_t n = 0;
   while (isalnum((unsigned char)**p) || **p == '_') {
      if (n < EXPR_MAX_NAME)
         name[n] = **p;
      n++;
      (*p)++;
   }
   name[n < EXPR_MAX_NAME ? n : EXPR_MAX_NAME] = '\0';
   return n;
}

/* The decimal number at *p (a digit is there); false when it is over LLONG_MAX. */
static bool scanNumber(const char **p, long long *v) {
   bool fits = true;
   *v = 0;
   while (isdigit((unsigned char)**p)) {
      fits = fits && !__builtin_mul_overflow(*v, 10LL, v) && !__builtin_add_overflow(*v, (long long)(**p - '0'), v);
      (*p)++;
   }
   return fits;
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

/* a op b, or 0 and a failure (quoting the text after the right operand, as the compiled
 * form does). */
static long long arith(Parser *ps, int op, long long a, long long b) {
   char why[128];
   long long v = 0;
   if (ps->failed)
      return 0;
   if (!applyOp(op, a, b, &v, why, sizeof why)) {
      fail(ps, why, NULL);
      return 0;
   }
   return v;
}

static int functionOp(const char *name) {
   return !strcmp(name, "min")    ? OP_MIN
          : !strcmp(name, "max")  ? OP_MAX
          : !strcmp(name, "div")  ? OP_CDIV
          : !strcmp(name, "ceil") ? OP_CEIL
                                  : OP_POW2;
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
   return arith(ps, functionOp(name), args[0], args[1]);
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
      long long v;
      if (!scanNumber(&ps->p, &v))
         fail(ps, "number over 9223372036854775807 (64 bits)", NULL);
      return v;
   }
   if (startsName(*ps->p)) {
      char name[EXPR_MAX_NAME + 1];
      if (scanName(&ps->p, name) > EXPR_MAX_NAME) {
         fail(ps, "name longer than 63 characters", NULL);
         return 0;
      }
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

/* false (and a failure) when the descent is already EXPR_MAX_DEPTH deep. */
static bool enter(Parser *ps) {
   if (ps->depth >= EXPR_MAX_DEPTH) {
      fail(ps, "expression nested more than 200 levels deep", NULL);
      return false;
   }
   ps->depth++;
   return true;
}

static long long parseUnaryIn(Parser *ps) {
   if (accept(ps, "-")) {
      long long v = parseUnary(ps);
      return arith(ps, OP_NEG, v, 0);
   }
   if (accept(ps, "+"))
      return parseUnary(ps);
   if (accept(ps, "!"))
      return !parseUnary(ps);
   return parsePrimary(ps);
}

static long long parseUnary(Parser *ps) {
   if (!enter(ps))
      return 0;
   long long v = parseUnaryIn(ps);
   ps->depth--;
   return v;
}

static long long parseMul(Parser *ps) {
   long long v = parseUnary(ps);
   for (;;) {
      int op = accept(ps, "*") ? OP_MUL : accept(ps, "/") ? OP_DIV : accept(ps, "%") ? OP_MOD : -1;
      if (op < 0 || ps->failed)
         return v;
      long long r = parseUnary(ps);
      v = arith(ps, op, v, r);
   }
}

static long long parseAdd(Parser *ps) {
   long long v = parseMul(ps);
   for (;;) {
      int op = accept(ps, "+") ? OP_ADD : accept(ps, "-") ? OP_SUB : -1;
      if (op < 0 || ps->failed)
         return v;
      long long r = parseMul(ps);
      v = arith(ps, op, v, r);
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
   if (!enter(ps))
      return 0;
   long long c = parseOr(ps);
   if (accept(ps, "?")) {
      long long a = parseTernary(ps);
      expect(ps, ":");
      long long b = parseTernary(ps);
      c = c ? a : b;
   }
   ps->depth--;
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

typedef struct {
   unsigned char op;
   int a, b, c;       /* operands (node indices), -1 when absent */
   long long num;     /* OP_NUM */
   int name;          /* OP_NAME: offset of the NUL-terminated name in Program.names */
   int at;            /* text offset the interpreter would quote for a failed operation */
   int height;        /* of the subtree: evaluation recurses this deep */
} Node;

/* A tree higher than this (a long chain "1+1+1+...") is left to the interpreter, which
 * loops over a chain instead of recursing: evaluating it would recurse too deep. */
#define EXPR_MAX_HEIGHT 1000

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
   int depth; /* as Parser.depth: the builder refuses exactly where the interpreter does */
} Builder;

static int buildTernary(Builder *b);
static int buildUnary(Builder *b);

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
   int kids[3] = {x, y, z};
   for (int i = 0; i < 3; i++)
      if (kids[i] >= 0 && g->nodes[kids[i]].height > n->height)
         n->height = g->nodes[kids[i]].height;
   if (++n->height > EXPR_MAX_HEIGHT)
      b->failed = true;
   return g->nnodes++;
}

static bool benter(Builder *b) {
   if (b->depth >= EXPR_MAX_DEPTH)
      b->failed = true;
   b->depth++;
   return !b->failed;
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
      long long v;
      if (!scanNumber(&b->p, &v))
         b->failed = true; /* the interpreter says how */
      int n = node(b, OP_NUM, -1, -1, -1);
      if (n >= 0)
         b->prog->nodes[n].num = v;
      return n;
   }
   if (startsName(*b->p)) {
      char name[EXPR_MAX_NAME + 1];
      size_t n = scanName(&b->p, name);
      if (n > EXPR_MAX_NAME) {
         b->failed = true;
         return -1;
      }
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
         int op = functionOp(name);
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

static int buildUnaryIn(Builder *b) {
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

static int buildUnary(Builder *b) {
   if (!benter(b))
      return -1;
   int v = buildUnaryIn(b);
   b->depth--;
   return v;
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
   if (!benter(b))
      return -1;
   int c = buildLevel(b, 0);
   if (baccept(b, "?")) {
      int x = buildTernary(b);
      bexpect(b, ":");
      int y = buildTernary(b);
      c = node(b, OP_TERN, c, x, y);
   }
   b->depth--;
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
   else if (r->g->text[at])
      snprintf(r->err, r->errlen, "%s at '%.20s'", msg, r->g->text + at);
   else
      snprintf(r->err, r->errlen, "%s", msg);
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
   if (n->op == OP_TERN)
      return a ? b : c;
   long long v = 0;
   char why[128];
   if (!applyOp(n->op, a, b, &v, why, sizeof why))
      runFail(r, why, NULL, n->at);
   return v;
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
static int cacheUsed[CACHE_MAX]; /* the slots in use, for Expr_forgetCache */
static int cacheCount;
static pthread_mutex_t cacheLock = PTHREAD_MUTEX_INITIALIZER;
static atomic_bool cacheOff;

void Expr_useCache(bool on) { atomic_store(&cacheOff, !on); }

void Expr_forgetCache(void) {
   pthread_mutex_lock(&cacheLock);
   for (int u = 0; u < cacheCount; u++) {
      Slot *slot = &cacheSlots[cacheUsed[u]];
      free(slot->text);
      programFree(slot->prog);
      *slot = (Slot){0, NULL, NULL};
   }
   cacheCount = 0;
   pthread_mutex_unlock(&cacheLock);
}

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
         cacheUsed[cacheCount++] = (int)i;
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
