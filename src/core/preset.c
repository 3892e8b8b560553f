#include "core/preset.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "core/util.h"

static bool parseInt(const char *s, long long *v) {
   char *end;
   errno = 0;
   *v = strtoll(s, &end, 10);
   return end != s && *end == '\0' && errno == 0;
}

static bool parseDouble(const char *s, double *v) {
   char *end;
   *v = strtod(s, &end);
   return end != s && *end == '\0';
}

static bool parseLine(Preset *p, char *key, char *value, int line, char *err, size_t errlen) {
   long long v;
   double d;
   if (!strcmp(key, "kernel")) {
      Util_copy(p->kernel, sizeof p->kernel, value);
      return true;
   }
   if (!strcmp(key, "description")) {
      Util_copy(p->description, sizeof p->description, value);
      return true;
   }
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
         snprintf(err, errlen, "%s:%d: %s = '%s' is not a number", p->path, line, key, value);
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
   Util_copy(p->params[p->nparams].name, sizeof p->params[0].name, key);
   p->params[p->nparams].value = v;
   p->params[p->nparams].line = line;
   p->nparams++;
   return true;
}

bool Preset_load(const char *path, Preset *out, char *err, size_t errlen) {
   memset(out, 0, sizeof *out);
   Util_copy(out->path, sizeof out->path, path);
   const char *base = strrchr(path, '/');
   Util_copy(out->name, sizeof out->name, base ? base + 1 : path);
   char *dot = strstr(out->name, ".preset");
   if (dot)
      *dot = '\0';
   char *text = Util_readFile(path, NULL);
   if (!text) {
      snprintf(err, errlen, "%s: %s", path, strerror(errno));
      return false;
   }
   int line = 0;
   bool ok = true;
   char *save = NULL;
   for (char *l = text; ok && l; l = save) {
      save = strchr(l, '\n');
      if (save)
         *save++ = '\0';
      line++;
      if (strlen(l) > 400) {
         snprintf(err, errlen, "%s:%d: line too long", path, line);
         ok = false;
         break;
      }
      char *s = Util_trim(l);
      if (!*s)
         continue;
      if (*s == '#') {
         if (!out->description[0])
            Util_copy(out->description, sizeof out->description, Util_trim(s + 1));
         continue;
      }
      char *eq = strchr(s, '=');
      if (!eq) {
         snprintf(err, errlen, "%s:%d: expected 'key = value', got '%.40s'", path, line, s);
         ok = false;
         break;
      }
      *eq = '\0';
      ok = parseLine(out, Util_trim(s), Util_trim(eq + 1), line, err, errlen);
   }
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
   }
   return true;
}

bool Preset_save(const char *path, const char *description, const KernelInfo *k, const long long *values,
                 const Problem *prob, char *err, size_t errlen) {
   char buf[4096];
   char layout[3];
   Problem_layoutName(prob, layout);
   int n = snprintf(buf, sizeof buf,
                    "# %s\nkernel = %s\nm = %d\nn = %d\nk = %d\nprecision = %s\nlayout = %s\nalpha = %.17g\nbeta = %.17g\n",
                    description && *description ? description : "saved from gemmtop", k->name, prob->m, prob->n,
                    prob->k, Precision_name(prob->precision), layout, prob->alpha, prob->beta);
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

static void loadDir(PresetList *l, const char *dir, bool user, int *cap) {
   DIR *d = opendir(dir);
   if (!d)
      return;
   struct dirent *e;
   while ((e = readdir(d))) {
      size_t n = strlen(e->d_name);
      if (n < 8 || strcmp(e->d_name + n - 7, ".preset"))
         continue;
      if (l->count == *cap) {
         *cap = *cap ? *cap * 2 : 32;
         Preset *np = realloc(l->items, sizeof *np * (size_t)*cap);
         if (!np)
            break;
         l->items = np;
      }
      char path[1024], err[1200];
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      if (Preset_load(path, &l->items[l->count], err, sizeof err)) {
         l->items[l->count].user = user;
         l->count++;
      } else {
         size_t w = strlen(l->warnings);
         snprintf(l->warnings + w, sizeof l->warnings - w, "%s\n", err);
      }
   }
   closedir(d);
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

bool Preset_defaultDir(const char *kernels_dir, char *out, size_t outlen) {
   const char *env = getenv("GEMMTOP_PRESETS");
   if (env && *env) {
      Util_copy(out, outlen, env);
      return true;
   }
   snprintf(out, outlen, "%s/../presets", kernels_dir);
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
