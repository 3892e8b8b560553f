#include "serve/vet.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* Names that reach for another file, wherever they stand outside comments and literals
 * (a directive's name cannot come from a macro, so the word itself must be there). */
static const struct {
   const char *word, *why;
} fileWords[] = {
    {"include", "reaches for another file"},
    {"include_next", "reaches for another file"},
    {"import", "reaches for another file"},
    {"embed", "reaches for another file"},
    {"__has_include", "tests another file"},
    {"__has_include_next", "tests another file"},
    {"__has_include__", "tests another file"},
    {"__has_include_next__", "tests another file"},
    {"__has_embed", "tests another file"},
};
/* Words of a #pragma line that test or load another file (GCC dependency, clang module). */
static const char *const pragmaWords[] = {"dependency", "include_alias", "include_instead", "module"};

/* The trigraphs and the character each stands for. */
static const char trigraphs[] = "=#/\\'^(\\[)]!|<{>}-~";

/* The most parameters of all the file's macros that are remembered (see pastes). */
#define VET_MAX_PARAMS 512

typedef struct {
   const char *s; /* the text as the compiler's phases 1 and 2 leave it */
   const int *line; /* each byte's line in the file as it was sent */
   size_t n;
   /* The parameters of every macro so far: a paste onto one is refused. */
   size_t param_at[VET_MAX_PARAMS], param_len[VET_MAX_PARAMS];
   int nparams;
   char *why;
   size_t whylen;
} Lexer;

static bool refuse(char *why, size_t whylen, int line, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static bool refuse(char *why, size_t whylen, int line, const char *fmt, ...) {
   int used = snprintf(why, whylen, "line %d: ", line);
   if (used < 0 || (size_t)used >= whylen)
      return false;
   va_list ap;
   va_start(ap, fmt);
   vsnprintf(why + used, whylen - (size_t)used, fmt, ap);
   va_end(ap);
   return false;
}

static bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\f' || c == '\v'; }
static bool wordChar(char c) {
   return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }

/* Windows line ends made Unix ones in place: every compiler then reads the lines that
 * were vetted. The new length. */
static size_t unixLineEnds(char *text, size_t len) {
   size_t n = 0;
   for (size_t i = 0; i < len; i++)
      if (!(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n'))
         text[n++] = text[i];
   return n;
}

/* What compilers read in different ways is refused outright, so that what the server
 * vets is what each of them reads (and control characters, which their messages would
 * quote to a terminal): a NUL, a carriage return that ends no line, Unicode's
 * line separators, trigraphs (OpenCL C honours them, C++17 does not), and a backslash
 * followed by blanks at a line's end (joined with a warning by some, not by others). */
static bool ambiguous(const char *t, size_t n, char *why, size_t whylen) {
   int line = 1;
   size_t at = Util_findControl(t, n, &line);
   if (at < n && t[at]) {
      /* the compiler's messages quote the text: a control would reach a terminal */
      char name[8];
      Util_controlName((unsigned char)t[at], name);
      return refuse(why, whylen, line, "a control character (%s): a kernel file is text", name);
   }
   line = 1;
   for (size_t i = 0; i < n; i++) {
      const unsigned char c = (unsigned char)t[i];
      if (c == '\n')
         line++;
      else if (c == '\0')
         return refuse(why, whylen, line, "a NUL byte: a kernel file is text");
      else if (c == '\r')
         return refuse(why, whylen, line,
                       "a carriage return that ends no line (a \\r not followed by \\n): compilers disagree on "
                       "whether it ends one; save the file with \\n or \\r\\n line ends");
      else if ((c == 0xe2 && i + 2 < n && (unsigned char)t[i + 1] == 0x80 &&
                ((unsigned char)t[i + 2] == 0xa8 || (unsigned char)t[i + 2] == 0xa9)) ||
               (c == 0xc2 && i + 1 < n && (unsigned char)t[i + 1] == 0x85))
         return refuse(why, whylen, line,
                       "a Unicode line separator (U+2028, U+2029 or U+0085): compilers disagree on whether it "
                       "ends a line; use \\n");
      else if (c == '?' && i + 2 < n && t[i + 1] == '?' && t[i + 2]) {
         const char *tri = strchr(trigraphs, t[i + 2]);
         if (tri && (tri - trigraphs) % 2 == 0)
            return refuse(why, whylen, line,
                          "'?\?%c' is a trigraph, which some compilers read as '%c' and others do not; write '%c'",
                          t[i + 2], tri[1], tri[1]);
      } else if (c == '\\') {
         size_t j = i + 1;
         while (j < n && isBlank(t[j]))
            j++;
         if (j > i + 1 && j < n && t[j] == '\n')
            return refuse(why, whylen, line,
                          "a backslash followed by blanks ends the line: some compilers join the next line to "
                          "it, others do not; remove the blanks after the backslash");
      }
   }
   return true;
}

/* Line splices (a backslash ending a line) removed, each byte keeping its line. */
static char *spliced(const char *t, size_t n, int *lines, size_t *outn) {
   char *out = malloc(n + 1);
   if (!out)
      return NULL;
   size_t o = 0;
   int line = 1;
   for (size_t i = 0; i < n; i++) {
      if (t[i] == '\\' && i + 1 < n && t[i + 1] == '\n') {
         i++;
         line++;
         continue;
      }
      lines[o] = line;
      out[o++] = t[i];
      if (t[i] == '\n')
         line++;
   }
   out[o] = '\0';
   *outn = o;
   return out;
}

/* Past blanks and block comments (a comment is a blank, newlines in it too). */
static size_t skipBlanks(const Lexer *L, size_t i) {
   for (;;) {
      while (i < L->n && isBlank(L->s[i]))
         i++;
      if (i + 1 < L->n && L->s[i] == '/' && L->s[i + 1] == '*') {
         const char *end = strstr(L->s + i + 2, "*/");
         i = end ? (size_t)(end - L->s) + 2 : L->n;
      } else
         return i;
   }
}

static size_t wordEnd(const Lexer *L, size_t i) {
   while (i < L->n && wordChar(L->s[i]))
      i++;
   return i;
}

static bool isWord(const Lexer *L, size_t at, size_t len, const char *word) {
   return strlen(word) == len && !memcmp(L->s + at, word, len);
}

/* The word at [at, at+len): refused when it reaches for another file (or, on a #pragma
 * line, tests one). */
static bool checkWord(Lexer *L, size_t at, size_t len, bool pragma) {
   for (size_t w = 0; w < sizeof fileWords / sizeof fileWords[0]; w++)
      if (isWord(L, at, len, fileWords[w].word))
         return refuse(L->why, L->whylen, L->line[at],
                       "'%s' %s, which the server does not allow: a kernel file is one file (gemmtop adds its "
                       "helpers itself)",
                       fileWords[w].word, fileWords[w].why);
   for (size_t w = 0; pragma && w < sizeof pragmaWords / sizeof pragmaWords[0]; w++)
      if (isWord(L, at, len, pragmaWords[w]))
         return refuse(L->why, L->whylen, L->line[at],
                       "'#pragma ... %s' tests or loads another file, which the server does not allow",
                       pragmaWords[w]);
   return true;
}

static bool isParam(const Lexer *L, size_t at, size_t len) {
   for (int p = 0; p < L->nparams; p++)
      if (L->param_len[p] == len && !memcmp(L->s + L->param_at[p], L->s + at, len))
         return true;
   return false;
}

/* _Pragma at [at, end): its string is a #pragma line, vetted as one; a string that is not
 * written out there (a macro's argument, a stringized one) could hide a pragma's file. */
static bool checkPragmaOperator(Lexer *L, size_t at, size_t end) {
   size_t i = skipBlanks(L, end);
   if (i < L->n && L->s[i] == '(')
      i = skipBlanks(L, i + 1);
   if (i >= L->n || L->s[i] != '"')
      return refuse(L->why, L->whylen, L->line[at],
                    "'_Pragma' takes its string written out right after it on the server, as _Pragma(\"unroll\")");
   for (i++; i < L->n && L->s[i] != '"'; i++) {
      if (L->s[i] == '\\' || L->s[i] == '\n')
         return refuse(L->why, L->whylen, L->line[i],
                       "a _Pragma's string holds %s, which the server does not take",
                       L->s[i] == '\n' ? "no closing quote" : "a backslash (a quoted name?)");
      if (wordChar(L->s[i]) && !wordChar(L->s[i - 1]) && !checkWord(L, i, wordEnd(L, i) - i, true))
         return false;
   }
   return true;
}

/* A #define's parameters (the identifiers between the parentheses right after its
 * name), added to those of every macro before it. */
static bool noteParams(Lexer *L, size_t i) {
   i = skipBlanks(L, i);
   i = wordEnd(L, i);
   if (i >= L->n || L->s[i] != '(')
      return true; /* an object-like macro */
   for (i = skipBlanks(L, i + 1); i < L->n && L->s[i] != ')' && L->s[i] != '\n'; i = skipBlanks(L, i)) {
      if (!wordChar(L->s[i])) {
         i++;
         continue;
      }
      size_t end = wordEnd(L, i);
      if (isParam(L, i, end - i)) {
         i = end;
         continue;
      }
      if (L->nparams == VET_MAX_PARAMS)
         return refuse(L->why, L->whylen, L->line[i], "more than %d macro parameters in one file; the server "
                                                      "takes at most that many", VET_MAX_PARAMS);
      L->param_at[L->nparams] = i;
      L->param_len[L->nparams++] = end - i;
      i = end;
   }
   return true;
}

/* The text after the compiler's phases 1 and 2, read as its preprocessor reads tokens.
 * Each way of reaching another file is refused: the names above, outside comments and
 * literals (a directive's name is never a macro's expansion), and a paste ('##') that
 * could build one of the names that are tests (they begin with '_') out of a macro's
 * argument. What C and C++ read differently is refused too (raw strings, digit
 * separators), and the rest of an #error or #warning line is read as clang reads it: as
 * raw text, in which "/" "*" opens no comment. */
static bool lex(Lexer *L) {
   const char *s = L->s;
   size_t n = L->n;
   bool pragma = false;                /* on a #pragma line */
   size_t last_at = 0, last_len = 0;   /* the last token, when it was a word */
   for (size_t i = 0; i < n;) {
      char c = s[i];
      if (c == '\n') {
         pragma = false;
         last_len = 0;
         i++;
      } else if (isBlank(c))
         i++;
      else if (c == '/' && i + 1 < n && s[i + 1] == '/') {
         while (i < n && s[i] != '\n')
            i++;
      } else if (c == '/' && i + 1 < n && s[i + 1] == '*')
         i = skipBlanks(L, i);
      else if (c == '"' || c == '\'') {
         size_t j = i + 1;
         while (j < n && s[j] != c && s[j] != '\n')
            j += s[j] == '\\' && j + 1 < n && s[j + 1] != '\n' ? 2 : 1;
         i = j < n && s[j] == c ? j + 1 : j;
         last_len = 0;
      } else if (c == '#' && i + 1 < n && s[i + 1] == '#') {
         if (last_len && (s[last_at] == '_' || isParam(L, last_at, last_len)))
            return refuse(L->why, L->whylen, L->line[i],
                          "'##' pastes onto '%.*s', %s: a pasted name could be a test that reaches for another "
                          "file, which the server does not take; paste onto a name written out (as "
                          "gt_wgmma_n##n)",
                          (int)(last_len > 60 ? 60 : last_len), s + last_at,
                          s[last_at] == '_' ? "a name starting with '_'" : "a macro's parameter");
         i += 2;
         last_len = 0;
      } else if (c == '#') {
         size_t name = skipBlanks(L, i + 1), end = wordEnd(L, name);
         if (isWord(L, name, end - name, "error") || isWord(L, name, end - name, "warning")) {
            /* raw text to the line's end: only its words are checked */
            for (size_t j = end; j < n && s[j] != '\n'; j++)
               if (wordChar(s[j]) && !wordChar(s[j - 1]) && !checkWord(L, j, wordEnd(L, j) - j, false))
                  return false;
            while (end < n && s[end] != '\n')
               end++;
            i = end;
            continue;
         }
         /* A line's name changes the file the compiler's messages name, and GCC's caret
          * lines quote that file's text. */
         if (isWord(L, name, end - name, "line") || (name < n && isDigit(s[name])))
            return refuse(L->why, L->whylen, L->line[i],
                          "'#line' (or '# NUMBER') renames the file in the compiler's messages, which the server "
                          "does not allow");
         if (isWord(L, name, end - name, "pragma"))
            pragma = true;
         if (isWord(L, name, end - name, "define") && !noteParams(L, end))
            return false;
         i++;
         last_len = 0;
      } else if (c == '%' && i + 1 < n && s[i + 1] == ':')
         return refuse(L->why, L->whylen, L->line[i], "'%%:' spells '#' in a way the server does not take; write '#'");
      else if (c == '\\')
         return refuse(L->why, L->whylen, L->line[i],
                       "a backslash outside a literal or a comment (a universal character name?): the server takes "
                       "one only at a line's end, to join the next line");
      else if (isDigit(c) || (c == '.' && i + 1 < n && isDigit(s[i + 1]))) {
         /* a preprocessing number: digits, letters, '.', and a sign after an exponent */
         size_t j = i + 1;
         for (;;) {
            if (j < n && (wordChar(s[j]) || s[j] == '.'))
               j++;
            else if (j < n && (s[j] == '+' || s[j] == '-') && strchr("eEpP", s[j - 1]))
               j++;
            else if (j + 1 < n && s[j] == '\'' && wordChar(s[j + 1]))
               return refuse(L->why, L->whylen, L->line[j],
                             "a digit separator ('): C++ reads it inside a number, C as a character literal; "
                             "write the number without it");
            else
               break;
         }
         i = j;
         last_len = 0;
      } else if (wordChar(c)) {
         size_t end = wordEnd(L, i);
         if (!checkWord(L, i, end - i, pragma) || (isWord(L, i, end - i, "_Pragma") && !checkPragmaOperator(L, i, end)))
            return false;
         static const char *const raw[] = {"R", "LR", "uR", "UR", "u8R"};
         for (size_t r = 0; end < n && s[end] == '"' && r < sizeof raw / sizeof raw[0]; r++)
            if (isWord(L, i, end - i, raw[r]))
               return refuse(L->why, L->whylen, L->line[i],
                             "a raw string literal (%s\"...\"): C++ reads it across lines, C does not; write an "
                             "ordinary string", raw[r]);
         last_at = i;
         last_len = end - i;
         i = end;
      } else {
         i++;
         last_len = 0;
      }
   }
   return true;
}

bool Vet_kernelSource(char *text, size_t *len, char *why, size_t whylen) {
   size_t n = unixLineEnds(text, *len);
   if (n < *len)
      text[n] = '\0';
   *len = n;
   if (!ambiguous(text, n, why, whylen))
      return false;
   int *lines = malloc((n + 1) * sizeof *lines);
   Lexer L = {.line = lines, .why = why, .whylen = whylen};
   char *plain = lines ? spliced(text, n, lines, &L.n) : NULL;
   if (!plain) {
      free(lines);
      snprintf(why, whylen, "out of memory on the server");
      return false;
   }
   L.s = plain;
   bool ok = lex(&L);
   free(plain);
   free(lines);
   return ok;
}

bool Vet_fileLine(const char *line, char *name, size_t namelen, size_t *len, char *why, size_t whylen) {
   char size[64];
   int used = 0;
   if (namelen < 80 || sscanf(line, "file %79s %63s%n", name, size, &used) != 2 || line[used]) {
      snprintf(why, whylen, "a file line is 'file NAME BYTES'");
      return false;
   }
   size_t nl = strlen(name);
   bool good = nl > 3 && nl < 64 && !strcmp(name + nl - 3, ".cl") && name[0] != '.';
   for (size_t i = 0; good && i < nl; i++)
      good = wordChar(name[i]) || name[i] == '-' || name[i] == '.';
   if (!good) {
      snprintf(why, whylen, "the kernel file's name '%.60s' must be letters, digits, '_', '-' or '.', end in .cl and "
                            "be under 64 characters", name);
      return false;
   }
   /* the size as it was sent: a number past the largest integer is quoted, not its overflow */
   char *end;
   errno = 0;
   unsigned long long n = strtoull(size, &end, 10);
   if (*end || !isDigit(size[0])) {
      snprintf(why, whylen, "the kernel file's size '%s' is not a number of bytes", size);
      return false;
   }
   if (errno == ERANGE || n > UTIL_MAX_KERNEL_BYTES) {
      snprintf(why, whylen, "the kernel file is %s bytes; the server takes at most %u", size, UTIL_MAX_KERNEL_BYTES);
      return false;
   }
   *len = (size_t)n;
   return true;
}
