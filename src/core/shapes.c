#include "core/shapes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* A field copied whole, or the limit it passed named: nothing is cut silently. */
static bool setField(char *dst, size_t dstlen, const char *value, const char *where, const char *key, char *err,
                     size_t errlen) {
   if (Util_copyWhole(dst, dstlen, value))
      return true;
   snprintf(err, errlen, "%s: %s is %zu characters long; at most %zu fit", where, key, strlen(value), dstlen - 1);
   return false;
}

/* "MxNxK": three whole numbers from 1 to SHAPES_MAX_SIZE. */
static bool parseShape(const char *word, Shape *s) {
   long v[3];
   const char *p = word;
   for (int i = 0; i < 3; i++) {
      char *end;
      errno = 0;
      if (*p < '0' || *p > '9')
         return false;
      v[i] = strtol(p, &end, 10);
      if (errno || v[i] < 1 || v[i] > SHAPES_MAX_SIZE || (i < 2 && *end != 'x') || (i == 2 && *end))
         return false;
      p = end + 1;
   }
   s->m = (int)v[0], s->n = (int)v[1], s->k = (int)v[2];
   return true;
}

/* A label names a folder of gemmtop tune's exports: it starts with a letter or a digit
 * (never "." or "..", nor a "-" that a shell would take for an option). */
static bool labelOk(const char *s) {
   if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
      return false;
   for (; *s; s++)
      if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || strchr("._-+", *s)))
         return false;
   return true;
}

/* One shape line: "MxNxK LABEL [WEIGHT]". */
static bool shapeLine(char *t, const char *where, ShapeSuite *out, char *err, size_t errlen) {
   char *words[4] = {NULL, NULL, NULL, NULL};
   int n = 0;
   for (char *save = NULL, *w = strtok_r(t, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
      words[n < 4 ? n : 3] = w, n++;
   Shape s = {.weight = 1.0};
   if (n < 2 || n > 3 || !parseShape(words[0], &s)) { /* n >= 1: the line is not empty */
      snprintf(err, errlen, "%s: '%s' is not a shape line: write MxNxK LABEL [WEIGHT] (e.g. 128x8192x8192 decode-128 "
               "0.5), each size 1 to %d; or KEY = VALUE with title, about or source",
               where, words[0], SHAPES_MAX_SIZE);
      return false;
   }
   if (!labelOk(words[1]) || !Util_copyWhole(s.label, sizeof s.label, words[1])) {
      snprintf(err, errlen, "%s: the label '%s' must be 1 to %zu letters, digits or . _ - +, the first a letter or "
               "a digit", where, words[1], sizeof s.label - 1);
      return false;
   }
   if (n == 3) {
      char *end;
      errno = 0;
      s.weight = strtod(words[2], &end);
      if (end == words[2] || *end || errno || !isfinite(s.weight) || s.weight <= 0) {
         snprintf(err, errlen, "%s: the weight '%s' of %s must be a positive number", where, words[2], s.label);
         return false;
      }
   }
   for (int i = 0; i < out->count; i++)
      if (!strcmp(out->shapes[i].label, s.label)) {
         snprintf(err, errlen, "%s: the label %s is used twice; each shape has its own", where, s.label);
         return false;
      }
   if (out->count == SHAPES_MAX) {
      snprintf(err, errlen, "%s: more than %d shapes; split the suite in two", where, SHAPES_MAX);
      return false;
   }
   out->shapes[out->count++] = s;
   return true;
}

static bool parseLine(char *line, const char *where, ShapeSuite *out, char *err, size_t errlen) {
   char *t = Util_trim(line);
   if (!*t || *t == '#')
      return true;
   char *eq = strchr(t, '=');
   if (!eq)
      return shapeLine(t, where, out, err, errlen);
   *eq = '\0';
   const char *key = Util_trim(t), *value = Util_trim(eq + 1);
   if (!strcmp(key, "title"))
      return setField(out->title, sizeof out->title, value, where, "title", err, errlen);
   if (!strcmp(key, "source"))
      return setField(out->source, sizeof out->source, value, where, "source", err, errlen);
   if (!strcmp(key, "about") || !strcmp(key, "candidates")) {
      bool about = key[0] == 'a';
      char *field = about ? out->about : out->candidates;
      size_t size = about ? sizeof out->about : sizeof out->candidates;
      size_t used = strlen(field), add = strlen(value) + (used ? 1 : 0);
      if (used + add >= size) {
         snprintf(err, errlen, "%s: %s is longer than %zu characters in all", where, key, size - 1);
         return false;
      }
      snprintf(field + used, size - used, "%s%s", used ? " " : "", value);
      return true;
   }
   snprintf(err, errlen, "%s: unknown key '%s'; a suite takes title, about, source and candidates, and shape lines "
            "MxNxK LABEL [WEIGHT]", where, key);
   return false;
}

bool Shapes_parse(const char *text, size_t len, const char *path, ShapeSuite *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   const char *base = strrchr(path, '/');
   base = base ? base + 1 : path;
   size_t blen = strlen(base);
   if (blen > 7 && !strcmp(base + blen - 7, ".shapes"))
      blen -= 7;
   if (blen == 0 || blen >= sizeof out->name || !Util_copyWhole(out->path, sizeof out->path, path)) {
      snprintf(err, errlen, "%s: the file's name does not make a suite name (1 to %zu characters before .shapes)",
               path, sizeof out->name - 1);
      return false;
   }
   memcpy(out->name, base, blen);
   int bad = 0;
   size_t at = Util_findControl(text, len, &bad);
   if (at < len) {
      char name[8];
      Util_controlName((unsigned char)text[at], name);
      snprintf(err, errlen, "%s:%d: a control character (%s) is not allowed in a shape suite", path, bad, name);
      return false;
   }
   char *copy = malloc(len + 1);
   if (!copy) {
      snprintf(err, errlen, "%s: out of memory", path);
      return false;
   }
   memcpy(copy, text, len);
   copy[len] = '\0';
   bool ok = true;
   int line = 1;
   for (char *p = copy, *nl; ok && p; p = nl ? nl + 1 : NULL, line++) {
      nl = strchr(p, '\n');
      if (nl)
         *nl = '\0';
      char where[1100];
      snprintf(where, sizeof where, "%s:%d", path, line);
      ok = parseLine(p, where, out, err, errlen);
   }
   free(copy);
   if (ok && out->count == 0) {
      snprintf(err, errlen, "%s: no shapes: a suite needs at least one line MxNxK LABEL [WEIGHT]", path);
      ok = false;
   }
   return ok;
}

bool Shapes_load(const char *path, ShapeSuite *out, char *err, size_t errlen) {
   size_t len = 0;
   char why[160];
   char *text = Util_readUserFile(path, UTIL_MAX_TEXT_BYTES, &len, why, sizeof why);
   if (!text) {
      memset(out, 0, sizeof *out);
      snprintf(err, errlen, "%s: %s", path, why);
      return false;
   }
   bool ok = Shapes_parse(text, len, path, out, err, errlen);
   free(text);
   return ok;
}

/* A suite into the list; a user's replaces a shipped one of the same name. */
static void addSuite(ShapeSuites *s, const ShapeSuite *suite, int *cap) {
   for (int i = 0; i < s->count; i++)
      if (!strcmp(s->items[i].name, suite->name)) {
         s->items[i] = *suite;
         return;
      }
   if (s->count == *cap) {
      int ncap = *cap ? *cap * 2 : 8;
      ShapeSuite *ni = realloc(s->items, sizeof *ni * (size_t)ncap);
      if (!ni) {
         Util_appendLine(s->warnings, sizeof s->warnings, "out of memory while loading shape suites");
         return;
      }
      s->items = ni;
      *cap = ncap;
   }
   s->items[s->count++] = *suite;
}

/* A folder's *.shapes in name order. */
static void loadDir(ShapeSuites *s, const char *dir, bool user, int *cap) {
   char *names[256];
   const int n = Util_filesEndingIn(dir, ".shapes", names, 256);
   ShapeSuite *suite = malloc(sizeof *suite);
   for (int i = 0; i < n; i++) {
      char path[1024], err[1400];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      free(names[i]);
      if (!suite)
         continue;
      if (Shapes_load(path, suite, err, sizeof err)) {
         suite->user = user;
         addSuite(s, suite, cap);
      } else {
         Util_appendLine(s->warnings, sizeof s->warnings, err);
      }
   }
   free(suite);
}

static int compareSuites(const void *a, const void *b) {
   return strcmp(((const ShapeSuite *)a)->name, ((const ShapeSuite *)b)->name);
}

void ShapeSuites_load(ShapeSuites *s, const char *dir) {
   memset(s, 0, sizeof *s);
   int cap = 0;
   if (dir)
      loadDir(s, dir, false, &cap);
   char base[900];
   if (Util_userDir("config", base, sizeof base)) {
      char user[1024];
      snprintf(user, sizeof user, "%s/shapes", base);
      loadDir(s, user, true, &cap);
   }
   if (s->count > 1)
      qsort(s->items, (size_t)s->count, sizeof *s->items, compareSuites);
}

void ShapeSuites_free(ShapeSuites *s) {
   free(s->items);
   memset(s, 0, sizeof *s);
}

const ShapeSuite *ShapeSuites_find(const ShapeSuites *s, const char *name) {
   for (int i = 0; i < s->count; i++)
      if (!strcmp(s->items[i].name, name))
         return &s->items[i];
   return NULL;
}

bool Shapes_defaultDir(const char *kernels_dir, char *out, size_t outlen) {
   return Util_shippedDir(kernels_dir, "shapes", "GEMMTOP_SHAPES", out, outlen);
}

bool Shapes_resolve(const char *word, const char *kernels_dir, ShapeSuite *out, char *err, size_t errlen) {
   size_t len = strlen(word);
   if (strchr(word, '/') || (len > 7 && !strcmp(word + len - 7, ".shapes")))
      return Shapes_load(word, out, err, errlen);
   char dir[1024];
   ShapeSuites all;
   ShapeSuites_load(&all, Shapes_defaultDir(kernels_dir, dir, sizeof dir) ? dir : NULL);
   const ShapeSuite *s = ShapeSuites_find(&all, word);
   if (s)
      *out = *s;
   else {
      int n = snprintf(err, errlen, "no shape suite named '%s'; there are:", word);
      for (int i = 0; i < all.count && n > 0 && (size_t)n < errlen; i++)
         n += snprintf(err + n, errlen - (size_t)n, " %s", all.items[i].name);
      if (all.count == 0 && n > 0 && (size_t)n < errlen)
         snprintf(err + n, errlen - (size_t)n, " none (gemmtop list shapes says where they are looked for)");
   }
   ShapeSuites_free(&all);
   return s != NULL;
}

double Shapes_weightedGeomean(const double *values, const double *weights, int n, int *used) {
   double logs = 0, total = 0;
   int count = 0;
   for (int i = 0; i < n; i++)
      if (isfinite(values[i]) && values[i] > 0 && weights[i] > 0) {
         logs += weights[i] * log(values[i]);
         total += weights[i];
         count++;
      }
   if (used)
      *used = count;
   return total > 0 ? exp(logs / total) : 0;
}
