/* Lesson files: see lesson.h for the format. */
#include "core/teach/lesson.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/device.h"
#include "core/run/ablate.h"
#include "core/model/catalog.h"
#include "core/model/preset.h"
#include "core/run/session.h"
#include "base/util.h"

/* Copies a field whole or says which limit it passed: nothing is cut silently. */
static bool setField(char *dst, size_t dstlen, const char *value, const char *path, int line, const char *key,
                     char *err, size_t errlen) {
   size_t n = strlen(value);
   if (n >= dstlen) {
      snprintf(err, errlen, "%s:%d: %s is %zu characters long; at most %zu fit", path, line, key, n, dstlen - 1);
      return false;
   }
   memcpy(dst, value, n + 1);
   return true;
}

/* Appends a line to a joined text (repeatable keys). */
static bool appendLine(char **text, const char *line) {
   size_t old = *text ? strlen(*text) : 0, add = strlen(line);
   char *t = realloc(*text, old + add + 2);
   if (!t)
      return false;
   if (old)
      t[old++] = '\n';
   memcpy(t + old, line, add + 1);
   *text = t;
   return true;
}

/* Printable text only: a lesson is shown on a terminal, where control bytes would act. */
static bool checkPrintable(const char *s, const char *path, int line, char *err, size_t errlen) {
   for (const unsigned char *p = (const unsigned char *)s; *p; p++)
      if (*p < 0x20 || *p == 0x7f) {
         snprintf(err, errlen, "%s:%d: a control character (byte 0x%02x) is not allowed in a lesson", path, line, *p);
         return false;
      }
   return true;
}

static bool parseNumber(const char *value, double *out) {
   char *end;
   errno = 0;
   double v = strtod(value, &end);
   if (end == value || *end || errno || !isfinite(v) || v < 0)
      return false;
   *out = v;
   return true;
}

typedef struct {
   Lesson *l;
   const char *path;
   int line;
   char *err;
   size_t errlen;
} ParseState;

/* "128x128x4096": three sizes of 1 to LESSON_MAX_CPU_SIZE. */
#define LESSON_MAX_CPU_SIZE 65536
static bool parseCpuSize(const char *value, int dims[3]) {
   const char *p = value;
   for (int i = 0; i < 3; i++) {
      char *end;
      errno = 0;
      long v = strtol(p, &end, 10);
      if (end == p || errno || v < 1 || v > LESSON_MAX_CPU_SIZE || *p == '+' || *p == '-')
         return false;
      dims[i] = (int)v;
      if (i < 2 && *end != 'x')
         return false;
      p = end + (i < 2);
      if (i == 2 && *end)
         return false;
   }
   return true;
}

/* A text's placeholders, refused with the line they are on. */
static bool placeholders(ParseState *s, const char *key, const char *value) {
   char why[200];
   if (Lesson_checkPlaceholders(value, why, sizeof why))
      return true;
   snprintf(s->err, s->errlen, "%s:%d: %s: %s", s->path, s->line, key, why);
   return false;
}

/* A title is listed where no configuration is: no placeholder can be computed there. */
static bool noPlaceholder(ParseState *s, const char *value) {
   if (!strchr(value, '{') && !strchr(value, '}'))
      return true;
   snprintf(s->err, s->errlen, "%s:%d: a title takes no placeholder ({...}): it is listed where no configuration "
            "is; put the counts in the text", s->path, s->line);
   return false;
}

static bool lessonKey(ParseState *s, const char *key, const char *value) {
   Lesson *l = s->l;
   if (!strcmp(key, "title"))
      return noPlaceholder(s, value) && setField(l->title, sizeof l->title, value, s->path, s->line, key, s->err, s->errlen);
   if (!strcmp(key, "cpu_size")) {
      if (!parseCpuSize(value, l->cpu_size)) {
         snprintf(s->err, s->errlen, "%s:%d: cpu_size = %s: write MxNxK, three sizes from 1 to %d (e.g. "
                  "128x128x4096)", s->path, s->line, value, LESSON_MAX_CPU_SIZE);
         memset(l->cpu_size, 0, sizeof l->cpu_size);
         return false;
      }
      return true;
   }
   if (!strcmp(key, "source"))
      return setField(l->source, sizeof l->source, value, s->path, s->line, key, s->err, s->errlen);
   if (!strcmp(key, "about")) {
      if (!placeholders(s, key, value))
         return false;
      if (!appendLine(&l->about, value))
         return snprintf(s->err, s->errlen, "%s:%d: out of memory", s->path, s->line), false;
      return true;
   }
   snprintf(s->err, s->errlen,
            "%s:%d: unknown key '%s' before the first step (the lesson takes title, source, about, cpu_size; a "
            "step starts with step = PRESET)",
            s->path, s->line, key);
   return false;
}

static bool stepKey(ParseState *s, LessonStep *st, const char *key, const char *value) {
   if (!strcmp(key, "title"))
      return noPlaceholder(s, value) &&
             setField(st->title, sizeof st->title, value, s->path, s->line, key, s->err, s->errlen);
   if ((!strcmp(key, "text") || !strcmp(key, "notes")) && !placeholders(s, key, value))
      return false;
   if (!strcmp(key, "cpu_size")) {
      if (!parseCpuSize(value, st->cpu_size)) {
         snprintf(s->err, s->errlen, "%s:%d: cpu_size = %s: write MxNxK, three sizes from 1 to %d (e.g. "
                  "8x4096x4096)", s->path, s->line, value, LESSON_MAX_CPU_SIZE);
         memset(st->cpu_size, 0, sizeof st->cpu_size);
         return false;
      }
      return true;
   }
   if (!strcmp(key, "reference"))
      return setField(st->reference, sizeof st->reference, value, s->path, s->line, key, s->err, s->errlen);
   if (!strcmp(key, "text")) {
      if (!appendLine(&st->text, value))
         return snprintf(s->err, s->errlen, "%s:%d: out of memory", s->path, s->line), false;
      return true;
   }
   if (!strcmp(key, "notes")) {
      if (!appendLine(&st->notes, value))
         return snprintf(s->err, s->errlen, "%s:%d: out of memory", s->path, s->line), false;
      return true;
   }
   if (!strcmp(key, "ablate")) {
      char why[256];
      if (!Ablate_parse(value, &st->ablate, why, sizeof why)) {
         snprintf(s->err, s->errlen, "%s:%d: %s", s->path, s->line, why);
         return false;
      }
      return true;
   }
   if (!strcmp(key, "limits")) {
      char why[256];
      if (!Session_simulateLimits(value, NULL, why, sizeof why)) {
         snprintf(s->err, s->errlen, "%s:%d: limits: %s", s->path, s->line, why);
         return false;
      }
      return setField(st->limits, sizeof st->limits, value, s->path, s->line, key, s->err, s->errlen);
   }
   if (!strcmp(key, "reference_gflops")) {
      if (!parseNumber(value, &st->reference_gflops)) {
         snprintf(s->err, s->errlen, "%s:%d: reference_gflops = %s is not a number of GFLOPS (0 or more)", s->path,
                  s->line, value);
         return false;
      }
      return true;
   }
   if (!strcmp(key, "show")) {
      if (strcmp(value, "banks")) {
         snprintf(s->err, s->errlen,
                  "%s:%d: show = %s: a step can show banks (its bank grid, zoomed on the site its first banks check "
                  "names)", s->path, s->line, value);
         return false;
      }
      st->show = LESSON_SHOW_BANKS;
      return true;
   }
   if (!strcmp(key, "check")) {
      char why[256];
      if (st->nchecks == LESSON_MAX_CHECKS)
         return snprintf(s->err, s->errlen, "%s:%d: a step takes at most %d check lines", s->path, s->line,
                         LESSON_MAX_CHECKS),
                false;
      if (!Lesson_parseCheck(value, &st->checks[st->nchecks], why, sizeof why)) {
         snprintf(s->err, s->errlen, "%s:%d: check = %s: %s", s->path, s->line, value, why);
         return false;
      }
      st->nchecks++;
      return true;
   }
   snprintf(s->err, s->errlen,
            "%s:%d: unknown key '%s' in a step (a step takes title, text, notes, reference, reference_gflops, "
            "ablate, limits, check, show, cpu_size)", s->path,
            s->line, key);
   return false;
}

bool Lesson_parseCheck(const char *text, LessonCheck *out, char *why, size_t whylen) {
   memset(out, 0, sizeof *out);
   char names[128], usage[320];
   Device_kindNames(names, sizeof names);
   snprintf(usage, sizeof usage, "write 'banks SITE = RATIO' (e.g. banks A fragment load = 4.00), 'refused', or "
            "'verifies KIND' (a --device kind: %s)", names);
   if (!strncmp(text, "banks ", 6)) {
      const char *eq = strrchr(text, '=');
      char *end;
      double ratio = eq ? strtod(eq + 1, &end) : 0;
      if (!eq || end == eq + 1 || *end || !(ratio >= 1.0) || ratio > 64) {
         snprintf(why, whylen, "a bank check ends with '= RATIO', wavefronts over the ideal from 1 to 64; %s", usage);
         return false;
      }
      const char *site = text + 6;
      while (*site == ' ')
         site++;
      size_t n = (size_t)(eq - site);
      while (n && site[n - 1] == ' ')
         n--;
      if (!n || n >= sizeof out->site) {
         snprintf(why, whylen, "a bank check names its access site, as 'gemmtop banks' lists it; %s", usage);
         return false;
      }
      out->kind = LESSON_CHECK_BANKS;
      memcpy(out->site, site, n);
      out->ratio = ratio;
      return true;
   }
   if (!strcmp(text, "refused")) {
      out->kind = LESSON_CHECK_REFUSED;
      return true;
   }
   if (!strncmp(text, "verifies ", 9) && Device_isKind(text + 9) && Util_copyWhole(out->device, sizeof out->device, text + 9)) {
      out->kind = LESSON_CHECK_VERIFIES;
      return true;
   }
   snprintf(why, whylen, "%s", usage);
   return false;
}

static bool parseLine(ParseState *s, char *line) {
   char *t = Util_trim(line);
   if (!*t || *t == '#')
      return true;
   char *eq = strchr(t, '=');
   if (!eq) {
      snprintf(s->err, s->errlen, "%s:%d: expected key = value", s->path, s->line);
      return false;
   }
   *eq = 0;
   char *key = Util_trim(t), *value = Util_trim(eq + 1);
   if (!checkPrintable(value, s->path, s->line, s->err, s->errlen))
      return false;
   Lesson *l = s->l;
   if (!strcmp(key, "step")) {
      if (l->nsteps == LESSON_MAX_STEPS) {
         snprintf(s->err, s->errlen, "%s:%d: more than %d steps", s->path, s->line, LESSON_MAX_STEPS);
         return false;
      }
      LessonStep *st = &l->steps[l->nsteps++];
      st->line = s->line;
      return setField(st->preset, sizeof st->preset, value, s->path, s->line, "step", s->err, s->errlen);
   }
   return l->nsteps ? stepKey(s, &l->steps[l->nsteps - 1], key, value) : lessonKey(s, key, value);
}

static void baseName(const char *path, char *out, size_t outlen) {
   const char *slash = strrchr(path, '/');
   Util_copy(out, outlen, slash ? slash + 1 : path);
   char *dot = strrchr(out, '.');
   if (dot && !strcmp(dot, ".lesson"))
      *dot = 0;
}

bool Lesson_parse(const char *text, size_t len, const char *path, Lesson *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   Util_copy(out->path, sizeof out->path, path);
   baseName(path, out->name, sizeof out->name);
   if (memchr(text, 0, len)) {
      int line = 1;
      for (const char *p = text; *p; p++)
         line += *p == '\n';
      snprintf(err, errlen, "%s:%d: a NUL byte: not a lesson text file", path, line);
      return false;
   }
   ParseState s = {out, path, 0, err, errlen};
   const char *p = text, *end = text + len;
   while (p < end) {
      const char *nl = memchr(p, '\n', (size_t)(end - p));
      size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
      char *line = malloc(n + 1);
      if (!line)
         return snprintf(err, errlen, "%s: out of memory", path), Lesson_free(out), false;
      memcpy(line, p, n);
      line[n] = 0;
      if (n && line[n - 1] == '\r')
         line[n - 1] = 0;
      s.line++;
      bool ok = parseLine(&s, line);
      free(line);
      if (!ok)
         return Lesson_free(out), false;
      p += n + (nl != NULL);
   }
   if (!out->nsteps) {
      snprintf(err, errlen, "%s: no steps (each starts with a line step = PRESET)", path);
      Lesson_free(out);
      return false;
   }
   if (!*out->title)
      Util_copy(out->title, sizeof out->title, out->name);
   return true;
}

bool Lesson_load(const char *path, Lesson *out, char *err, size_t errlen) {
   size_t len = 0;
   char why[160];
   char *text = Util_readUserFile(path, UTIL_MAX_TEXT_BYTES, &len, why, sizeof why);
   if (!text) {
      memset(out, 0, sizeof *out);
      snprintf(err, errlen, "%s: skipped: %s", path, why);
      return false;
   }
   bool ok = Lesson_parse(text, len, path, out, err, errlen);
   free(text);
   return ok;
}

void Lesson_free(Lesson *l) {
   free(l->about);
   l->about = NULL;
   for (int i = 0; i < l->nsteps; i++) {
      free(l->steps[i].text);
      free(l->steps[i].notes);
      l->steps[i].text = l->steps[i].notes = NULL;
   }
}

static void warn(LessonList *l, const char *msg) {
   size_t w = strlen(l->warnings);
   snprintf(l->warnings + w, sizeof l->warnings - w, "%s\n", msg);
}

static void addLesson(LessonList *l, Lesson *lesson, int *cap) {
   for (int i = 0; i < l->count; i++)
      if (!strcmp(l->items[i].name, lesson->name)) {
         lesson->replaces_shipped = !l->items[i].user;
         Lesson_free(&l->items[i]);
         l->items[i] = *lesson;
         return;
      }
   if (l->count == *cap) {
      int ncap = *cap ? *cap * 2 : 8;
      Lesson *ni = realloc(l->items, sizeof *ni * (size_t)ncap);
      if (!ni) {
         warn(l, "out of memory while loading lessons");
         Lesson_free(lesson);
         return;
      }
      l->items = ni;
      *cap = ncap;
   }
   l->items[l->count++] = *lesson;
}

/* Reads a folder's *.lesson files in name order. */
static void loadDir(LessonList *l, const char *dir, bool user, int *cap) {
   char *names[256];
   const int n = Util_filesEndingIn(dir, ".lesson", names, 256);
   for (int i = 0; i < n; i++) {
      char path[1024], err[1400];
      snprintf(path, sizeof path, "%s/%s", dir, names[i]);
      free(names[i]);
      Lesson lesson;
      if (Lesson_load(path, &lesson, err, sizeof err)) {
         lesson.user = user;
         lesson.replaces_shipped = false;
         addLesson(l, &lesson, cap);
      } else {
         warn(l, err);
      }
   }
}

static int compareLessons(const void *a, const void *b) {
   return strcmp(((const Lesson *)a)->name, ((const Lesson *)b)->name);
}

bool LessonList_load(LessonList *l, const char *dir, char *err, size_t errlen) {
   memset(l, 0, sizeof *l);
   int cap = 0;
   if (dir)
      loadDir(l, dir, false, &cap);
   char base[900];
   if (Util_userDir("config", base, sizeof base)) {
      char user[1024];
      snprintf(user, sizeof user, "%s/lessons", base);
      loadDir(l, user, true, &cap);
   }
   if (l->count > 1)
      qsort(l->items, (size_t)l->count, sizeof *l->items, compareLessons);
   (void)err;
   (void)errlen;
   return true;
}

void LessonList_free(LessonList *l) {
   for (int i = 0; i < l->count; i++)
      Lesson_free(&l->items[i]);
   free(l->items);
   memset(l, 0, sizeof *l);
}

const Lesson *LessonList_find(const LessonList *l, const char *name) {
   for (int i = 0; i < l->count; i++)
      if (!strcmp(l->items[i].name, name))
         return &l->items[i];
   return NULL;
}

bool Lesson_defaultDir(const char *kernels_dir, char *out, size_t outlen) {
   return Util_shippedDir(kernels_dir, "lessons", "GEMMTOP_LESSONS", out, outlen);
}

/* ---- placeholders ---- */

/* Where the placeholder that opens at p ('{') closes: its '}' (NULL: never), with the
 * noun's '|' in *bar (NULL: none). */
static const char *closing(const char *p, const char **bar) {
   *bar = NULL;
   for (const char *q = p + 1; *q; q++) {
      if (*q == '{')
         return NULL;
      if (*q == '|' && !*bar && q[1] != '|' && (q == p + 1 || q[-1] != '|'))
         *bar = q;
      if (*q == '}')
         return q;
   }
   return NULL;
}

bool Lesson_checkPlaceholders(const char *text, char *why, size_t whylen) {
   for (const char *p = text; *p; p++) {
      if (*p == '}') {
         snprintf(why, whylen, "a '}' with no '{' before it (placeholders are {EXPR} or {EXPR|NOUN})");
         return false;
      }
      if (*p != '{')
         continue;
      const char *bar, *end = closing(p, &bar);
      if (!end) {
         snprintf(why, whylen, "a placeholder opened at '%.20s' is not closed by '}' before the line ends or the "
                  "next '{'", p);
         return false;
      }
      const char *expr_end = bar ? bar : end;
      bool blank = true;
      for (const char *q = p + 1; q < expr_end; q++)
         blank &= *q == ' ';
      if (blank) {
         snprintf(why, whylen, "an empty placeholder: write {EXPR}, e.g. {M / BM * N / BN}");
         return false;
      }
      for (const char *q = bar ? bar + 1 : end; q < end; q++)
         if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') || *q == '-' || *q == ' ')) {
            snprintf(why, whylen, "the noun of {%.*s} takes letters and hyphens only", (int)(end - p - 1), p + 1);
            return false;
         }
      if (bar && end == bar + 1) {
         snprintf(why, whylen, "{EXPR|} names no noun: write {EXPR|work-group}, or {EXPR}");
         return false;
      }
      p = end;
   }
   return true;
}

/* Appends n bytes of s to out (len, at *at), whole or not at all; false when it did not fit. */
static bool put(char *out, size_t outlen, size_t *at, const char *s, size_t n) {
   if (*at + n >= outlen)
      return false;
   memcpy(out + *at, s, n);
   *at += n;
   out[*at] = '\0';
   return true;
}

bool Lesson_render(const char *text, LessonEval eval, void *ctx, char *out, size_t outlen) {
   size_t at = 0;
   if (!outlen)
      return false;
   out[0] = '\0';
   for (const char *p = text; *p; p++) {
      const char *bar = NULL, *end = *p == '{' ? closing(p, &bar) : NULL;
      if (!end) {
         if (!put(out, outlen, &at, p, 1))
            return false;
         continue;
      }
      char expr[256], noun[64] = "", piece[512], why[200];
      const char *expr_end = bar ? bar : end;
      snprintf(expr, sizeof expr, "%.*s", (int)(expr_end - p - 1), p + 1);
      if (bar)
         snprintf(noun, sizeof noun, "%.*s", (int)(end - bar - 1), bar + 1);
      char *n = Util_trim(noun);
      long long v;
      if (eval && eval(ctx, expr, &v, why, sizeof why))
         snprintf(piece, sizeof piece, "%lld%s%s%s", v, n[0] ? " " : "", n, n[0] && v != 1 ? "s" : "");
      else
         snprintf(piece, sizeof piece, "[%s: %s]", Util_trim(expr), eval ? why : "no configuration to compute it");
      if (!put(out, outlen, &at, piece, strlen(piece)))
         return false;
      p = end;
   }
   return true;
}

/* ---- sizes ---- */

void Lesson_size(const Lesson *l, const int asked[3], bool cpu, int cpu_cap, LessonSize *out) {
   memset(out, 0, sizeof *out);
   bool any = asked && (asked[0] > 0 || asked[1] > 0 || asked[2] > 0);
   if (any) {
      for (int i = 0; i < 3; i++)
         out->dims[i] = asked[i] > 0 ? asked[i] : 0;
   } else if (cpu) {
      bool shaped = l && l->cpu_size[0];
      for (int i = 0; l && i < l->nsteps; i++)
         shaped |= l->steps[i].cpu_size[0] > 0;
      out->cpu_shape = shaped;
      if (l && l->cpu_size[0])
         memcpy(out->dims, l->cpu_size, sizeof out->dims);
      else
         out->cap = cpu_cap;
   }
}

LessonSize LessonSize_forStep(const LessonSize *s, const LessonStep *st) {
   LessonSize one = *s;
   if (s->cpu_shape && st && st->cpu_size[0]) {
      memcpy(one.dims, st->cpu_size, sizeof one.dims);
      one.cap = 0;
   }
   one.cpu_shape = s->cpu_shape && (one.dims[0] > 0);
   return one;
}

bool LessonSize_apply(const LessonSize *s, int *m, int *n, int *k) {
   int *dims[3] = {m, n, k};
   bool changed = false;
   for (int i = 0; i < 3; i++) {
      int want = s->dims[i] > 0 ? s->dims[i] : s->cap > 0 && *dims[i] > s->cap ? s->cap : *dims[i];
      changed |= want != *dims[i];
      *dims[i] = want;
   }
   return changed;
}

const char *Lesson_needs(const Lesson *l, const PresetList *presets, const Catalog *cat) {
   int hopper = 0;
   for (int i = 0; i < l->nsteps; i++) {
      const Preset *p = PresetList_find(presets, l->steps[i].preset);
      const KernelInfo *k = p ? Catalog_find(cat, p->kernel) : NULL;
      hopper += k && (k->arch[0] || k->ntma);
   }
   return l->nsteps && hopper == l->nsteps ? "an sm_90a GPU, an H100 or H200, with --backend cuda" : NULL;
}
