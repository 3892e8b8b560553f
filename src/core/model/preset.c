#include "core/model/preset.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "base/util.h"

static bool parseInt(const char *s, long long *v) {
   char *end;
   errno = 0;
   *v = strtoll(s, &end, 10);
   return end != s && *end == '\0' && errno == 0;
}

static bool parseDouble(const char *s, double *v) {
   char *end;
   *v = strtod(s, &end);
   return end != s && *end == '\0' && isfinite(*v);
}

/* Copies a value whole into a field of size bytes, or refuses naming the limit. */
static bool setText(const Preset *p, int line, const char *key, char *field, size_t size, const char *value, char *err,
                    size_t errlen) {
   if (Util_copyWhole(field, size, value))
      return true;
   snprintf(err, errlen, "%s:%d: %s is %zu characters long; at most %zu", p->path, line, key, strlen(value), size - 1);
   return false;
}

/* One more line of the opening comment, after a space. Four whole lines fit; where a line does
 * not, " ..." marks the cut and false ends the description. */
static bool addDescription(Preset *p, const char *text) {
   static const char cut[] = " ...";
   const size_t used = strlen(p->description);
   if (!*text)
      return true;
   if (used + 1 + strlen(text) + sizeof cut <= sizeof p->description) {
      snprintf(p->description + used, sizeof p->description - used, "%s%s", used ? " " : "", text);
      return true;
   }
   snprintf(p->description + used, sizeof p->description - used, "%s", cut);
   return false;
}

static bool parseLine(Preset *p, char *key, char *value, int line, char *err, size_t errlen) {
   long long v;
   double d;
   if (!strcmp(key, "kernel"))
      return setText(p, line, "the kernel name", p->kernel, sizeof p->kernel, value, err, errlen);
   if (!strcmp(key, "description"))
      return setText(p, line, "the description", p->description, sizeof p->description, value, err, errlen);
   if (!strcmp(key, "size") || !strcmp(key, "m") || !strcmp(key, "n") || !strcmp(key, "k")) {
      if (!parseInt(value, &v) || v < 1 || v > 1000000) {
         snprintf(err, errlen, "%s:%d: %s = '%s' is not a size (a positive integer)", p->path, line, key, value);
         return false;
      }
      if (key[0] == 's' || key[0] == 'm')
         p->has_m = true, p->m = (int)v;
      if (key[0] == 's' || key[0] == 'n')
         p->has_n = true, p->n = (int)v;
      if (key[0] == 's' || key[0] == 'k')
         p->has_k = true, p->k = (int)v;
      return true;
   }
   if (!strcmp(key, "precision")) {
      if (!Precision_parse(value, &p->precision)) {
         snprintf(err, errlen, "%s:%d: precision = '%s': use float or double", p->path, line, value);
         return false;
      }
      p->has_precision = true;
      return true;
   }
   if (!strcmp(key, "scaling")) {
      if (!Scaling_parse(value, &p->scaling)) {
         snprintf(err, errlen, "%s:%d: scaling = '%s': use tensor or block (the FP8 types' scales)", p->path, line, value);
         return false;
      }
      p->has_scaling = true;
      return true;
   }
   if (!strcmp(key, "layout")) {
      Problem tmp;
      if (!Problem_parseLayout(&tmp, value)) {
         snprintf(err, errlen, "%s:%d: layout = '%s': use NN, NT, TN or TT", p->path, line, value);
         return false;
      }
      p->has_layout = true;
      p->trans_a = tmp.trans_a;
      p->trans_b = tmp.trans_b;
      return true;
   }
   if (!strcmp(key, "alpha") || !strcmp(key, "beta")) {
      if (!parseDouble(value, &d)) {
         snprintf(err, errlen, "%s:%d: %s = '%s' is not a finite number", p->path, line, key, value);
         return false;
      }
      if (key[0] == 'a')
         p->has_alpha = true, p->alpha = d;
      else
         p->has_beta = true, p->beta = d;
      return true;
   }
   for (const char *c = key; *c; c++)
      if (!(isalnum((unsigned char)*c) || *c == '_')) {
         snprintf(err, errlen, "%s:%d: '%s' is not a parameter name", p->path, line, key);
         return false;
      }
   if (!parseInt(value, &v)) {
      snprintf(err, errlen, "%s:%d: %s = '%s': parameter values are integers", p->path, line, key, value);
      return false;
   }
   if (p->nparams == PRESET_MAX_PARAMS) {
      snprintf(err, errlen, "%s:%d: more than %d parameters", p->path, line, PRESET_MAX_PARAMS);
      return false;
   }
   if (!setText(p, line, "the parameter name", p->params[p->nparams].name, sizeof p->params[0].name, key, err, errlen))
      return false;
   p->params[p->nparams].value = v;
   p->params[p->nparams].line = line;
   p->nparams++;
   return true;
}

/* A NUL or a control character anywhere in the file is refused with its line: a NUL used to
 * end the file silently there, and ESC or BEL reached the terminal through the listing. */
static bool checkBytes(const char *path, const char *text, size_t len, char *err, size_t errlen) {
   int line;
   size_t at = Util_findControl(text, len, &line);
   if (at == len)
      return true;
   char name[8];
   Util_controlName((unsigned char)text[at], name);
   if (text[at])
      snprintf(err, errlen, "%s:%d: control character %s: a preset is plain text (listing it would send %s to the terminal)",
               path, line, name, name);
   else
      snprintf(err, errlen, "%s:%d: NUL byte: a preset is plain text (the file would have ended there)", path, line);
   return false;
}

/* Keys seen so far: a key given twice is refused (which one would win is a guess). */
typedef struct {
   char key[PRESET_MAX_LINE + 1];
   int line;
} SeenKey;

static bool checkDuplicate(const char *path, SeenKey *seen, int *nseen, int max, const char *key, int line, char *err,
                           size_t errlen) {
   for (int i = 0; i < *nseen; i++)
      if (!strcmp(seen[i].key, key)) {
         snprintf(err, errlen, "%s:%d: '%s' is given twice (first on line %d); keep one", path, line, key, seen[i].line);
         return false;
      }
   if (*nseen < max) {
      Util_copy(seen[*nseen].key, sizeof seen[0].key, key); /* fits: a key is part of a line */
      seen[(*nseen)++].line = line;
   }
   return true;
}

/* Parses the lines of text (NUL-free). */
static bool parseText(Preset *out, char *text, char *err, size_t errlen) {
   enum { MAX_KEYS = PRESET_MAX_PARAMS + 12 }; /* the params and every fixed key, and one over */
   SeenKey *seen = malloc(MAX_KEYS * sizeof *seen);
   if (!seen) {
      snprintf(err, errlen, "%s: out of memory", out->path);
      return false;
   }
   int nseen = 0, line = 0;
   bool ok = true, heading = true; /* the comment lines that open the file describe it */
   char *save = NULL;
   for (char *l = text; ok && l; l = save) {
      save = strchr(l, '\n');
      if (save)
         *save++ = '\0';
      line++;
      if (strlen(l) > PRESET_MAX_LINE) {
         snprintf(err, errlen, "%s:%d: line of %zu characters; at most %d", out->path, line, strlen(l), PRESET_MAX_LINE);
         ok = false;
         break;
      }
      char *s = Util_trim(l);
      if (!*s) {
         heading = heading && !out->description[0]; /* a blank line ends the opening comment */
         continue;
      }
      if (*s == '#') {
         if (heading)
            heading = addDescription(out, Util_trim(s + 1));
         continue;
      }
      heading = false;
      char *eq = strchr(s, '=');
      if (!eq) {
         snprintf(err, errlen, "%s:%d: expected 'key = value', got '%.40s'", out->path, line, s);
         ok = false;
         break;
      }
      *eq = '\0';
      char *key = Util_trim(s);
      ok = checkDuplicate(out->path, seen, &nseen, MAX_KEYS, key, line, err, errlen) &&
           parseLine(out, key, Util_trim(eq + 1), line, err, errlen);
   }
   free(seen);
   return ok;
}

bool Preset_load(const char *path, Preset *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   const char *base = strrchr(path, '/');
   base = base ? base + 1 : path;
   size_t namelen = strstr(base, ".preset") ? (size_t)(strstr(base, ".preset") - base) : strlen(base);
   if (!Util_copyWhole(out->path, sizeof out->path, path) || namelen >= sizeof out->name) {
      snprintf(err, errlen, "%.200s...: the path is over %zu or the name over %zu characters", path,
               sizeof out->path - 1, sizeof out->name - 1);
      return false;
   }
   memcpy(out->name, base, namelen);
   out->name[namelen] = '\0';
   if (Util_findControl(out->name, namelen, NULL) < namelen) {
      snprintf(err, errlen, "%s: the file name has a control character", path);
      return false;
   }
   size_t len = 0;
   char why[160];
   char *text = Util_readUserFile(path, UTIL_MAX_TEXT_BYTES, &len, why, sizeof why);
   if (!text) {
      snprintf(err, errlen, "%s: skipped: %s", path, why);
      return false;
   }
   bool ok = checkBytes(path, text, len, err, errlen) && parseText(out, text, err, errlen);
   free(text);
   if (ok && !out->kernel[0]) {
      snprintf(err, errlen, "%s: no 'kernel = NAME' line", path);
      ok = false;
   }
   return ok;
}

bool Preset_apply(const Preset *p, const KernelInfo *k, long long *values, Problem *prob, char *err, size_t errlen) {
   for (int i = 0; i < p->nparams; i++) {
      int pi = KernelInfo_paramIndex(k, p->params[i].name);
      if (pi < 0) {
         snprintf(err, errlen, "%s:%d: kernel %s has no parameter %s", p->path, p->params[i].line, k->name,
                  p->params[i].name);
         return false;
      }
      bool allowed = false;
      for (int v = 0; v < k->params[pi].nvalues; v++)
         allowed |= k->params[pi].values[v] == p->params[i].value;
      if (!allowed) {
         char list[256] = "";
         for (int v = 0; v < k->params[pi].nvalues; v++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%lld", v ? ", " : "", k->params[pi].values[v]);
         snprintf(err, errlen, "%s:%d: %s = %lld is not allowed; %s takes %s", p->path, p->params[i].line,
                  p->params[i].name, p->params[i].value, p->params[i].name, list);
         return false;
      }
      values[pi] = p->params[i].value;
   }
   if (prob) {
      if (p->has_m) prob->m = p->m;
      if (p->has_n) prob->n = p->n;
      if (p->has_k) prob->k = p->k;
      if (p->has_precision) prob->precision = p->precision;
      if (p->has_layout) prob->trans_a = p->trans_a, prob->trans_b = p->trans_b;
      if (p->has_alpha) prob->alpha = p->alpha;
      if (p->has_beta) prob->beta = p->beta;
      if (p->has_scaling) prob->scaling = p->scaling;
   }
   return true;
}

bool Preset_resolve(const Preset *p, const Catalog *cat, const KernelInfo **k, long long *values, Problem *prob,
                    char *err, size_t errlen) {
   *k = Catalog_find(cat, p->kernel);
   if (!*k) {
      snprintf(err, errlen, "preset %s (%s) names kernel %s, which is not in the catalog (%s)", p->name, p->path,
               p->kernel, cat->dir);
      return false;
   }
   KernelInfo_defaults(*k, values);
   return Preset_apply(p, *k, values, prob, err, errlen);
}

void Preset_unstated(const Preset *p, char *out, size_t outlen) {
   struct {
      bool stated;
      const char *name;
   } fields[] = {{p->has_m, "M"}, {p->has_n, "N"}, {p->has_k, "K"}, {p->has_precision, "precision"},
                 {p->has_layout, "layout"}, {p->has_alpha, "alpha"}, {p->has_beta, "beta"}};
   bool sizes = !p->has_m && !p->has_n && !p->has_k;
   int n = snprintf(out, outlen, "%s", sizes ? "size" : "");
   for (size_t i = sizes ? 3 : 0; i < sizeof fields / sizeof fields[0] && n >= 0 && (size_t)n < outlen; i++)
      if (!fields[i].stated)
         n += snprintf(out + n, outlen - (size_t)n, "%s%s", n ? ", " : "", fields[i].name);
}

bool Preset_save(const char *path, const char *description, const KernelInfo *k, const long long *values,
                 const Problem *prob, char *err, size_t errlen) {
   /* What Preset_load would refuse is not written: a newline would even start a key line. */
   size_t dlen = description ? strlen(description) : 0;
   if (dlen > PRESET_MAX_LINE - 2 || Util_findControl(description ? description : "", dlen, NULL) < dlen ||
       (description && strpbrk(description, "\r\n"))) {
      snprintf(err, errlen, "the description must be one line of at most %d characters, without control characters",
               PRESET_MAX_LINE - 2);
      return false;
   }
   char buf[4096]; /* fits: one line of description and 20 parameters of 31-character names */
   char layout[3];
   Problem_layoutName(prob, layout);
   int n = snprintf(buf, sizeof buf,
                    "# %s\nkernel = %s\nm = %d\nn = %d\nk = %d\nprecision = %s\nlayout = %s\nalpha = %.17g\nbeta = %.17g\n",
                    description && *description ? description : "saved from gemmtop", k->name, prob->m, prob->n,
                    prob->k, Precision_name(prob->precision), layout, prob->alpha, prob->beta);
   if (Problem_scaled(prob))
      n += snprintf(buf + n, sizeof buf - (size_t)n, "scaling = %s\n", Scaling_name(prob->scaling));
   for (int i = 0; i < k->nparams && n < (int)sizeof buf; i++)
      n += snprintf(buf + n, sizeof buf - (size_t)n, "%s = %lld\n", k->params[i].name, values[i]);
   if (!Util_writeFileAtomic(path, buf, strlen(buf))) {
      snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
      return false;
   }
   return true;
}

static int comparePresets(const void *a, const void *b) {
   const Preset *x = a, *y = b;
   if (x->user != y->user)
      return x->user - y->user;
   return strcmp(x->name, y->name);
}

static int byName(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* Reads dir's presets in name order (so that the warnings come in a stable order too). */
static void loadDir(PresetList *l, const char *dir, bool user, int *cap) {
   struct dirent **names = NULL;
   int count = scandir(dir, &names, NULL, byName);
   for (int i = 0; i < count; i++) {
      const char *file = names[i]->d_name;
      size_t n = strlen(file);
      if (n < 8 || strcmp(file + n - 7, ".preset"))
         continue;
      if (l->count == *cap) {
         *cap = *cap ? *cap * 2 : 32;
         Preset *np = realloc(l->items, sizeof *np * (size_t)*cap);
         if (!np)
            break;
         l->items = np;
      }
      char path[1024], err[1200];
      snprintf(path, sizeof path, "%s/%s", dir, file);
      if (Preset_load(path, &l->items[l->count], err, sizeof err)) {
         l->items[l->count].user = user;
         l->count++;
      } else {
         Util_appendLine(l->warnings, sizeof l->warnings, err);
      }
   }
   for (int i = 0; i < count; i++)
      free(names[i]);
   free(names);
}

bool PresetList_load(PresetList *l, const char *dir, char *err, size_t errlen) {
   memset(l, 0, sizeof *l);
   int cap = 0;
   if (dir)
      loadDir(l, dir, false, &cap);
   char user[1024];
   if (Preset_userDir(user, sizeof user, false))
      loadDir(l, user, true, &cap);
   if (l->count > 1)
      qsort(l->items, (size_t)l->count, sizeof *l->items, comparePresets);
   (void)err;
   (void)errlen;
   return true;
}

void PresetList_free(PresetList *l) {
   free(l->items);
   memset(l, 0, sizeof *l);
}

const Preset *PresetList_find(const PresetList *l, const char *name) {
   /* The user's preset of the same name wins. */
   const Preset *found = NULL;
   for (int i = 0; i < l->count; i++)
      if (!strcmp(l->items[i].name, name))
         found = &l->items[i];
   return found;
}

bool PresetList_refused(const PresetList *l, const char *name, char *out, size_t outlen) {
   char file[160];
   snprintf(file, sizeof file, "/%s.preset:", name);
   for (const char *line = l->warnings; *line;) {
      size_t len = strcspn(line, "\n");
      const char *hit = strstr(line, file);
      if (hit && hit < line + len) {
         snprintf(out, outlen, "%.*s", (int)len, line);
         return true;
      }
      line += len + (line[len] == '\n');
   }
   return false;
}

void PresetList_missing(const PresetList *l, const char *name, char *out, size_t outlen) {
   char why[1024];
   if (PresetList_refused(l, name, why, sizeof why))
      snprintf(out, outlen, "preset '%s' is refused: %s", name, why);
   else
      snprintf(out, outlen, "no preset named '%s'; see 'gemmtop list presets'", name);
}

bool Preset_defaultDir(const char *kernels_dir, char *out, size_t outlen) {
   const char *env = getenv("GEMMTOP_PRESETS");
   if (env && *env) {
      Util_copy(out, outlen, env);
      return true;
   }
   /* The first of the kernel folders is the shipped one: its presets are beside it. */
   size_t first = strcspn(kernels_dir, ":");
   snprintf(out, outlen, "%.*s/../presets", (int)first, kernels_dir);
   struct stat st;
   return stat(out, &st) == 0 && S_ISDIR(st.st_mode);
}

bool Preset_userDir(char *out, size_t outlen, bool create) {
   char base[900];
   if (!Util_userDir("config", base, sizeof base))
      return false;
   snprintf(out, outlen, "%s/presets", base);
   return !create || Util_mkdirs(out);
}
