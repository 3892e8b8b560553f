#include "core/catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"

static bool isIdentifier(const char *s) {
   if (!*s || !(isalpha((unsigned char)*s) || *s == '_'))
      return false;
   for (; *s; s++)
      if (!(isalnum((unsigned char)*s) || *s == '_'))
         return false;
   return true;
}

/* Splits "a ; b" at the first ';' into two trimmed parts. */
static char *splitSemicolon(char *s, char **rest) {
   char *semi = strchr(s, ';');
   if (semi) {
      *semi = '\0';
      *rest = Util_trim(semi + 1);
   } else {
      *rest = NULL;
   }
   return Util_trim(s);
}

/* "TS = 16 in 4, 8, 16, 32 ; tile size" */
static bool parseParam(KernelParam *p, char *text, char *err, size_t errlen) {
   char *description;
   char *spec = splitSemicolon(text, &description);
   char *eq = strchr(spec, '=');
   char *in = strstr(spec, " in ");
   if (!eq || !in || in < eq) {
      snprintf(err, errlen, "param '%s': expected 'NAME = DEFAULT in V1, V2, ... ; description'", spec);
      return false;
   }
   *eq = '\0';
   *in = '\0';
   char *name = Util_trim(spec);
   if (!isIdentifier(name) || strlen(name) >= sizeof p->name) {
      snprintf(err, errlen, "param name '%s' is not an identifier", name);
      return false;
   }
   Util_copy(p->name, sizeof p->name, name);
   char *end;
   p->def = strtoll(Util_trim(eq + 1), &end, 10);
   if (*Util_trim(end)) {
      snprintf(err, errlen, "param %s: default is not an integer", p->name);
      return false;
   }
   p->nvalues = 0;
   bool defFound = false;
   char *save = NULL;
   for (char *tok = strtok_r(in + 4, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      tok = Util_trim(tok);
      long long v = strtoll(tok, &end, 10);
      if (end == tok || *Util_trim(end)) {
         snprintf(err, errlen, "param %s: value '%s' is not an integer", p->name, tok);
         return false;
      }
      if (p->nvalues == KERNEL_MAX_VALUES) {
         snprintf(err, errlen, "param %s: more than %d values", p->name, KERNEL_MAX_VALUES);
         return false;
      }
      p->values[p->nvalues++] = v;
      defFound |= v == p->def;
   }
   if (p->nvalues == 0) {
      snprintf(err, errlen, "param %s: no values", p->name);
      return false;
   }
   if (!defFound) {
      snprintf(err, errlen, "param %s: default %lld is not among its values", p->name, p->def);
      return false;
   }
   Util_copy(p->description, sizeof p->description, description ? description : "");
   return true;
}

/* Splits at top-level commas: "ceil(N, TS), M" is two expressions. */
static int splitList(char *text, char out[][128], int max) {
   int n = 0, depth = 0;
   char *start = text;
   for (char *p = text;; p++) {
      if (*p == '(')
         depth++;
      else if (*p == ')')
         depth--;
      if ((*p == ',' && depth == 0) || *p == '\0') {
         bool end = *p == '\0';
         *p = '\0';
         if (n == max)
            return -1;
         Util_copy(out[n++], 128, Util_trim(start));
         if (end)
            break;
         start = p + 1;
      }
   }
   return n;
}

static bool parseOperands(KernelInfo *k, char *v, char *err, size_t errlen) {
   if (!strcmp(v, "any")) {
      k->operands_any = true;
      return true;
   }
   char *save = NULL;
   for (char *tok = strtok_r(v, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
      if ((tok[0] == 'A' || tok[0] == 'B') && tok[1] == '=' && (tok[2] == 'N' || tok[2] == 'T') && !tok[3]) {
         if (tok[0] == 'A')
            k->a_trans = tok[2] == 'T';
         else
            k->b_trans = tok[2] == 'T';
      } else {
         snprintf(err, errlen, "operands: '%s' is not A=N, A=T, B=N, B=T or any", tok);
         return false;
      }
   }
   return true;
}

static bool parsePad(KernelInfo *k, char *v, char *err, size_t errlen) {
   k->has_pad = true;
   for (int i = 0; i < 3; i++)
      strcpy(k->pad[i], "1");
   char *save = NULL;
   for (char *tok = strtok_r(v, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
      int idx = tok[0] == 'M' ? 0 : tok[0] == 'N' ? 1 : tok[0] == 'K' ? 2 : -1;
      if (idx < 0 || tok[1] != '=' || !tok[2]) {
         snprintf(err, errlen, "pad: '%s' should be M=expr, N=expr or K=expr (no spaces inside)", tok);
         return false;
      }
      Util_copy(k->pad[idx], sizeof k->pad[idx], tok + 2);
   }
   return true;
}

static bool parseSites(KernelInfo *k, char *v, char *err, size_t errlen) {
   char *save = NULL;
   for (char *tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      char *eq = strchr(tok, '=');
      int idx = eq ? atoi(tok) : -1;
      if (!eq || idx < 0 || idx >= KERNEL_MAX_SITES) {
         snprintf(err, errlen, "sites: '%s' should be INDEX=name with INDEX below %d", Util_trim(tok), KERNEL_MAX_SITES);
         return false;
      }
      Util_copy(k->sites[idx], sizeof k->sites[idx], Util_trim(eq + 1));
      if (idx + 1 > k->nsites)
         k->nsites = idx + 1;
   }
   return true;
}

/* "A box=BK,BM swizzle=128": the values are expressions and may hold spaces; each runs
 * to the next key or the end. */
static bool parseTma(KernelInfo *k, char *v, char *err, size_t errlen) {
   if (k->ntma == KERNEL_MAX_TMA) {
      snprintf(err, errlen, "tma: at most %d tensor maps (A and B)", KERNEL_MAX_TMA);
      return false;
   }
   KernelTma *t = &k->tma[k->ntma];
   memset(t, 0, sizeof *t);
   if ((v[0] != 'A' && v[0] != 'B') || (v[1] != ' ' && v[1] != '\t')) {
      snprintf(err, errlen, "tma: '%s' should start with the operand, A or B, then box=INNER,OUTER", v);
      return false;
   }
   t->operand = v[0];
   for (int i = 0; i < k->ntma; i++)
      if (k->tma[i].operand == t->operand) {
         snprintf(err, errlen, "tma: operand %c has two tensor maps", t->operand);
         return false;
      }
   char *rest = Util_trim(v + 2), *box = strstr(rest, "box="), *sw = strstr(rest, "swizzle=");
   char *second = sw && box && sw > box ? sw : box;
   if (!box || (box != rest && sw != rest) || (sw && !isspace((unsigned char)second[-1]))) {
      snprintf(err, errlen, "tma: '%s' should be box=INNER,OUTER and optionally swizzle=BYTES", rest);
      return false;
   }
   if (sw)
      second[-1] = '\0'; /* ends the first key's text */
   char list[3][128];
   if (splitList(box + 4, list, 2) != 2 || !list[0][0] || !list[1][0]) {
      snprintf(err, errlen, "tma: box=INNER,OUTER takes two expressions");
      return false;
   }
   Util_copy(t->box[0], sizeof t->box[0], list[0]);
   Util_copy(t->box[1], sizeof t->box[1], list[1]);
   Util_copy(t->swizzle, sizeof t->swizzle, sw ? Util_trim(sw + 8) : "0");
   if (!t->swizzle[0]) {
      snprintf(err, errlen, "tma: swizzle= needs a number of bytes (0, 32, 64, 128) or an expression");
      return false;
   }
   k->ntma++;
   return true;
}

/* "precisions: tf32 half bfloat16": names separated by spaces or commas. */
static bool parsePrecisions(KernelInfo *k, char *v, char *err, size_t errlen) {
   k->precisions = 0;
   char *save = NULL;
   for (char *tok = strtok_r(v, " \t,", &save); tok; tok = strtok_r(NULL, " \t,", &save)) {
      Precision p;
      if (!Precision_parse(tok, &p)) {
         char all[96];
         Precision_listNames(~0u, all, sizeof all);
         snprintf(err, errlen, "precisions: '%s' is not an element type (%s)", tok, all);
         return false;
      }
      k->precisions |= PRECISION_BIT(p);
   }
   if (!k->precisions) {
      snprintf(err, errlen, "precisions: no element type named (float, double, tf32, half, bfloat16)");
      return false;
   }
   return true;
}

static bool parseYesNo(const char *key, const char *v, bool *out, char *err, size_t errlen) {
   if (!strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1"))
      *out = true;
   else if (!strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "0"))
      *out = false;
   else {
      snprintf(err, errlen, "%s: '%s' is not yes or no", key, v);
      return false;
   }
   return true;
}

static bool parseLine(KernelInfo *k, const char *key, char *v, char *err, size_t errlen) {
   if (!strcmp(key, "name")) {
      if (!isIdentifier(v)) {
         snprintf(err, errlen, "name '%s' must be letters, digits and '_'", v);
         return false;
      }
      Util_copy(k->name, sizeof k->name, v);
   } else if (!strcmp(key, "title")) {
      Util_copy(k->title, sizeof k->title, v);
   } else if (!strcmp(key, "ladder")) {
      Util_copy(k->ladder, sizeof k->ladder, v);
   } else if (!strcmp(key, "step")) {
      k->step = atoi(v);
   } else if (!strcmp(key, "about")) {
      size_t n = strlen(k->about);
      if (n && n + 1 < sizeof k->about)
         strcat(k->about, " ");
      strncat(k->about, v, sizeof k->about - strlen(k->about) - 1);
   } else if (!strcmp(key, "param")) {
      if (k->nparams == KERNEL_MAX_PARAMS) {
         snprintf(err, errlen, "more than %d parameters", KERNEL_MAX_PARAMS);
         return false;
      }
      if (!parseParam(&k->params[k->nparams], v, err, errlen))
         return false;
      k->nparams++;
   } else if (!strcmp(key, "require")) {
      if (k->nrules == KERNEL_MAX_RULES) {
         snprintf(err, errlen, "more than %d rules", KERNEL_MAX_RULES);
         return false;
      }
      char *message;
      char *expr = splitSemicolon(v, &message);
      KernelRule *r = &k->rules[k->nrules++];
      Util_copy(r->expr, sizeof r->expr, expr);
      Util_copy(r->message, sizeof r->message, message ? message : expr);
   } else if (!strcmp(key, "global") || !strcmp(key, "local")) {
      char(*dst)[128] = !strcmp(key, "global") ? k->global : k->local;
      int n = splitList(v, dst, 3);
      if (n < 1) {
         snprintf(err, errlen, "%s: 1 to 3 comma-separated expressions", key);
         return false;
      }
      if (k->dims && k->dims != n) {
         snprintf(err, errlen, "global and local have different numbers of dimensions");
         return false;
      }
      k->dims = n;
   } else if (!strcmp(key, "localmem")) {
      Util_copy(k->localmem, sizeof k->localmem, v);
   } else if (!strcmp(key, "operands")) {
      return parseOperands(k, v, err, errlen);
   } else if (!strcmp(key, "pad")) {
      return parsePad(k, v, err, errlen);
   } else if (!strcmp(key, "entry")) {
      Util_copy(k->entry, sizeof k->entry, v);
   } else if (!strcmp(key, "sites")) {
      return parseSites(k, v, err, errlen);
   } else if (!strcmp(key, "arch")) {
      if (strcmp(v, "sm_90a")) {
         snprintf(err, errlen, "arch: '%s' is not a target gemmtop knows; sm_90a is (Hopper's wgmma and TMA)", v);
         return false;
      }
      Util_copy(k->arch, sizeof k->arch, v);
   } else if (!strcmp(key, "dynamic_smem")) {
      Util_copy(k->dynamic_smem, sizeof k->dynamic_smem, v);
   } else if (!strcmp(key, "tma")) {
      return parseTma(k, v, err, errlen);
   } else if (!strcmp(key, "hidden")) {
      k->hidden = !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1");
   } else if (!strcmp(key, "precisions")) {
      return parsePrecisions(k, v, err, errlen);
   } else if (!strcmp(key, "tensor")) {
      return parseYesNo(key, v, &k->tensor, err, errlen);
   } else {
      snprintf(err, errlen, "unknown key '%s'", key);
      return false;
   }
   return true;
}

bool KernelInfo_parse(KernelInfo *k, const char *text, const char *filename, char *err, size_t errlen) {
   memset(k, 0, sizeof *k);
   Util_copy(k->path, sizeof k->path, filename);
   strcpy(k->entry, "gemm");
   strcpy(k->localmem, "0");
   strcpy(k->dynamic_smem, "0");
   k->precisions = PRECISION_BIT(PRECISION_FLOAT) | PRECISION_BIT(PRECISION_DOUBLE);
   const char *start = strstr(text, "/*@gemmtop");
   if (!start) {
      snprintf(err, errlen, "%s: no '/*@gemmtop' metadata block", filename);
      return false;
   }
   const char *end = strstr(start, "*/");
   if (!end) {
      snprintf(err, errlen, "%s: metadata block is not closed with */", filename);
      return false;
   }
   /* Count lines before the block for messages. */
   int line = 1;
   for (const char *p = text; p < start; p++)
      line += *p == '\n';
   const char *p = strchr(start, '\n');
   while (p && p < end) {
      p++;
      line++;
      const char *eol = strchr(p, '\n');
      if (!eol || eol > end)
         eol = end;
      char buf[1024];
      size_t n = (size_t)(eol - p);
      if (n >= sizeof buf) {
         snprintf(err, errlen, "%s:%d: line too long", filename, line);
         return false;
      }
      memcpy(buf, p, n);
      buf[n] = '\0';
      char *s = Util_trim(buf);
      p = eol;
      if (!*s || *s == '#')
         continue;
      char *colon = strchr(s, ':');
      if (!colon) {
         snprintf(err, errlen, "%s:%d: expected 'key: value'", filename, line);
         return false;
      }
      *colon = '\0';
      char msg[400];
      if (!parseLine(k, Util_trim(s), Util_trim(colon + 1), msg, sizeof msg)) {
         snprintf(err, errlen, "%s:%d: %s", filename, line, msg);
         return false;
      }
   }
   if (!k->name[0]) {
      const char *base = strrchr(filename, '/');
      base = base ? base + 1 : filename;
      Util_copy(k->name, sizeof k->name, base);
      char *dot = strrchr(k->name, '.');
      if (dot)
         *dot = '\0';
   }
   if (!k->dims) {
      snprintf(err, errlen, "%s: 'global:' and 'local:' are required", filename);
      return false;
   }
   for (int i = 0; i < k->nparams; i++)
      for (int j = 0; j < i; j++)
         if (!strcmp(k->params[i].name, k->params[j].name)) {
            snprintf(err, errlen, "%s: parameter %s is declared twice", filename, k->params[i].name);
            return false;
         }
   if (!k->title[0])
      Util_copy(k->title, sizeof k->title, k->name);
   if (!k->ladder[0])
      strcpy(k->ladder, "other");
   k->source = strdup(text);
   return k->source != NULL;
}

void KernelInfo_free(KernelInfo *k) {
   free(k->source);
   k->source = NULL;
}

int KernelInfo_paramIndex(const KernelInfo *k, const char *name) {
   for (int i = 0; i < k->nparams; i++)
      if (!strcmp(k->params[i].name, name))
         return i;
   return -1;
}

void KernelInfo_defaults(const KernelInfo *k, long long *values) {
   for (int i = 0; i < k->nparams; i++)
      values[i] = k->params[i].def;
}

void KernelInfo_formatParams(const KernelInfo *k, const long long *values, char *out, size_t outlen) {
   size_t n = 0;
   out[0] = '\0';
   for (int i = 0; i < k->nparams && n < outlen; i++)
      n += (size_t)snprintf(out + n, outlen - n, "%s%s=%lld", i ? " " : "", k->params[i].name, values[i]);
}

/* Ladders sort in teaching order; unknown ladders after, alphabetically. */
static int ladderRank(const char *ladder) {
   static const char *order[] = {"general", "mygemm", "m1", "dcu", "magma", "fast", "hopper"};
   for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
      if (!strcmp(ladder, order[i]))
         return (int)i;
   return 100;
}

static int compareKernels(const void *a, const void *b) {
   const KernelInfo *x = a, *y = b;
   int rx = ladderRank(x->ladder), ry = ladderRank(y->ladder);
   if (rx != ry)
      return rx - ry;
   int c = strcmp(x->ladder, y->ladder);
   if (c)
      return c;
   if (x->step != y->step)
      return x->step - y->step;
   return strcmp(x->name, y->name);
}

static void addWarning(Catalog *c, const char *msg) {
   size_t n = strlen(c->warnings);
   snprintf(c->warnings + n, sizeof c->warnings - n, "%s\n", msg);
}

bool Catalog_load(Catalog *c, const char *dir, char *err, size_t errlen) {
   memset(c, 0, sizeof *c);
   Util_copy(c->dir, sizeof c->dir, dir);
   DIR *d = opendir(dir);
   if (!d) {
      snprintf(err, errlen, "cannot read the kernels folder %s: %s (set GEMMTOP_KERNELS)", dir, strerror(errno));
      return false;
   }
   char path[1024];
   snprintf(path, sizeof path, "%s/helpers/prelude.h", dir);
   c->prelude = Util_readFile(path, NULL);
   snprintf(path, sizeof path, "%s/helpers/helpers.cl", dir);
   c->helpers = Util_readFile(path, NULL);
   snprintf(path, sizeof path, "%s/helpers/prelude_cuda.h", dir);
   c->prelude_cuda = Util_readFile(path, NULL);
   snprintf(path, sizeof path, "%s/helpers/peak.cl", dir);
   c->peak = Util_readFile(path, NULL);
   if (!c->prelude || !c->helpers || !c->prelude_cuda || !c->peak) {
      snprintf(err, errlen,
               "%s/helpers/ lacks prelude.h, prelude_cuda.h, helpers.cl or peak.cl: the installation is incomplete", dir);
      closedir(d);
      Catalog_free(c);
      return false;
   }
   int cap = 0;
   struct dirent *e;
   while ((e = readdir(d))) {
      size_t n = strlen(e->d_name);
      if (n < 4 || strcmp(e->d_name + n - 3, ".cl") != 0)
         continue;
      snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
      char *text = Util_readFile(path, NULL);
      char msg[600];
      if (!text) {
         snprintf(msg, sizeof msg, "%s: %s", path, strerror(errno));
         addWarning(c, msg);
         continue;
      }
      if (c->count == cap) {
         cap = cap ? cap * 2 : 32;
         KernelInfo *nk = realloc(c->kernels, sizeof *nk * (size_t)cap);
         if (!nk) {
            free(text);
            break;
         }
         c->kernels = nk;
      }
      KernelInfo *k = &c->kernels[c->count];
      if (KernelInfo_parse(k, text, path, msg, sizeof msg)) {
         if (Catalog_find(c, k->name)) {
            char dup[700];
            snprintf(dup, sizeof dup, "%s: the name %s is taken by another file; skipped", path, k->name);
            addWarning(c, dup);
            KernelInfo_free(k);
         } else {
            c->count++;
         }
      } else {
         addWarning(c, msg);
      }
      free(text);
   }
   closedir(d);
   if (c->count > 1)
      qsort(c->kernels, (size_t)c->count, sizeof *c->kernels, compareKernels);
   return true;
}

void Catalog_free(Catalog *c) {
   for (int i = 0; i < c->count; i++)
      KernelInfo_free(&c->kernels[i]);
   free(c->kernels);
   free(c->prelude);
   free(c->prelude_cuda);
   free(c->peak);
   free(c->helpers);
   memset(c, 0, sizeof *c);
}

const KernelInfo *Catalog_find(const Catalog *c, const char *name) {
   for (int i = 0; i < c->count; i++)
      if (!strcmp(c->kernels[i].name, name))
         return &c->kernels[i];
   return NULL;
}

static bool isDir(const char *path) {
   struct stat st;
   return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool Catalog_defaultDir(char *out, size_t outlen) {
   const char *env = getenv("GEMMTOP_KERNELS");
   if (env && *env) {
      Util_copy(out, outlen, env);
      return true;
   }
   char exe[2048];
   if (Util_exeDir(exe, sizeof exe)) {
      const char *candidates[] = {"%s/../share/gemmtop/kernels", "%s/../kernels", "%s/kernels"};
      for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
         char path[4096];
         snprintf(path, sizeof path, candidates[i], exe);
         if (isDir(path)) {
            char *real = realpath(path, NULL);
            Util_copy(out, outlen, real ? real : path);
            free(real);
            return true;
         }
      }
   }
   Util_copy(out, outlen, "kernels");
   return isDir(out);
}
