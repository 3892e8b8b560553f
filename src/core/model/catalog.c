#include "core/model/catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

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

/* Copies a value whole into a field of size bytes, or refuses naming the limit: a cut
 * value would be a different one (a rule cut short is a weaker rule). */
static bool setField(char *field, size_t size, const char *what, const char *value, char *err, size_t errlen) {
   if (Util_copyWhole(field, size, value))
      return true;
   snprintf(err, errlen, "%s is %zu characters long; at most %zu", what, strlen(value), size - 1);
   return false;
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
   if (!isIdentifier(name)) {
      snprintf(err, errlen, "param name '%s' is not an identifier", name);
      return false;
   }
   if (!setField(p->name, sizeof p->name, "the param name", name, err, errlen))
      return false;
   char *end, *def = Util_trim(eq + 1);
   errno = 0;
   p->def = strtoll(def, &end, 10);
   if (end == def || *Util_trim(end) || errno == ERANGE) {
      snprintf(err, errlen, "param %s: default is not an integer", p->name);
      return false;
   }
   p->nvalues = 0;
   bool defFound = false;
   char *save = NULL;
   for (char *tok = strtok_r(in + 4, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      tok = Util_trim(tok);
      errno = 0;
      long long v = strtoll(tok, &end, 10);
      if (end == tok || *Util_trim(end) || errno == ERANGE) {
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
   return setField(p->description, sizeof p->description, "the param description", description ? description : "", err,
                   errlen);
}

/* Splits at top-level commas: "ceil(N, TS), M" is two expressions. Returns the count, or
 * -1 (err says why) when there are more than max or one is longer than its field. */
static int splitList(char *text, char out[][128], int max, const char *key, char *err, size_t errlen) {
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
         if (n == max) {
            snprintf(err, errlen, "%s: 1 to %d comma-separated expressions", key, max);
            return -1;
         }
         char what[64];
         snprintf(what, sizeof what, "%s: expression %d", key, n + 1);
         if (!setField(out[n++], 128, what, Util_trim(start), err, errlen))
            return -1;
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
      if (!setField(k->pad[idx], sizeof k->pad[idx], "pad: an expression", tok + 2, err, errlen))
         return false;
   }
   return true;
}

/* `reuse: A=expr B=expr` (and `local_reuse:`): both operands, no spaces inside. */
static bool parseReuse(char (*dst)[128], const char *key, char *v, char *err, size_t errlen) {
   char *save = NULL;
   dst[0][0] = dst[1][0] = '\0';
   for (char *tok = strtok_r(v, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
      int idx = tok[0] == 'A' ? 0 : tok[0] == 'B' ? 1 : -1;
      if (idx < 0 || tok[1] != '=' || !tok[2]) {
         snprintf(err, errlen, "%s: '%s' should be A=expr or B=expr (no spaces inside)", key, tok);
         return false;
      }
      if (!setField(dst[idx], sizeof dst[idx], "reuse: an expression", tok + 2, err, errlen))
         return false;
   }
   if (!dst[0][0] || !dst[1][0]) {
      snprintf(err, errlen, "%s: give both A=expr and B=expr", key);
      return false;
   }
   return true;
}

static bool parseSites(KernelInfo *k, char *v, char *err, size_t errlen) {
   char *save = NULL;
   for (char *tok = strtok_r(v, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      char *eq = strchr(tok, '='), *end = NULL;
      long idx = eq ? strtol(tok, &end, 10) : -1;
      if (!eq || end == tok || Util_trim(end) != eq || idx < 0 || idx >= KERNEL_MAX_SITES) {
         snprintf(err, errlen, "sites: '%s' should be INDEX=name with INDEX below %d", Util_trim(tok), KERNEL_MAX_SITES);
         return false;
      }
      if (!setField(k->sites[idx], sizeof k->sites[idx], "sites: a name", Util_trim(eq + 1), err, errlen))
         return false;
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
   int n = splitList(box + 4, list, 3, "tma: box", err, errlen);
   if (n < 0)
      return false;
   if (n != 2 || !list[0][0] || !list[1][0]) {
      snprintf(err, errlen, "tma: box=INNER,OUTER takes two expressions");
      return false;
   }
   memcpy(t->box, list, sizeof t->box); /* fits: the same 128-character fields */
   if (!setField(t->swizzle, sizeof t->swizzle, "tma: swizzle", sw ? Util_trim(sw + 8) : "0", err, errlen))
      return false;
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

/* `accumulate: fp32` or `accumulate: fp8-tensor-core EXPR` (the promotion interval). */
static bool parseAccumulate(KernelInfo *k, char *v, char *err, size_t errlen) {
   static const char kFp8[] = "fp8-tensor-core";
   if (!strcmp(v, "fp32")) {
      k->accumulate[0] = '\0';
      return true;
   }
   const size_t n = sizeof kFp8 - 1;
   if (strncmp(v, kFp8, n) || (v[n] != ' ' && v[n] != '\t' && v[n] != '\0')) {
      snprintf(err, errlen, "accumulate: '%.60s' is not an accumulator gemmtop knows; 'fp32', or 'fp8-tensor-core "
               "EXPR' with EXPR the products summed between promotions into FP32 (0: never)", v);
      return false;
   }
   char *expr = v + n;
   while (*expr == ' ' || *expr == '\t')
      expr++;
   if (!*expr) {
      snprintf(err, errlen, "accumulate: fp8-tensor-core needs the promotion interval, an expression (0: never)");
      return false;
   }
   return setField(k->accumulate, sizeof k->accumulate, "accumulate", expr, err, errlen);
}

static bool parseLine(KernelInfo *k, const char *key, char *v, char *err, size_t errlen) {
   if (!strcmp(key, "name")) {
      if (!isIdentifier(v)) {
         snprintf(err, errlen, "name '%s' must be letters, digits and '_'", v);
         return false;
      }
      return setField(k->name, sizeof k->name, "name", v, err, errlen);
   } else if (!strcmp(key, "title")) {
      return setField(k->title, sizeof k->title, "title", v, err, errlen);
   } else if (!strcmp(key, "ladder")) {
      return setField(k->ladder, sizeof k->ladder, "ladder", v, err, errlen);
   } else if (!strcmp(key, "step")) {
      char *end;
      long step = strtol(v, &end, 10);
      if (end == v || *end || step < 0 || step > 9999) {
         snprintf(err, errlen, "step '%s' is not a number from 0 to 9999", v);
         return false;
      }
      k->step = (int)step;
   } else if (!strcmp(key, "about")) {
      size_t n = strlen(k->about);
      if (n + (n > 0) + strlen(v) >= sizeof k->about) {
         snprintf(err, errlen, "about: the lines come to over %zu characters in all", sizeof k->about - 1);
         return false;
      }
      if (n)
         strcat(k->about, " ");
      strcat(k->about, v);
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
      KernelRule *r = &k->rules[k->nrules];
      if (!setField(r->expr, sizeof r->expr, "require: the rule", expr, err, errlen) ||
          !setField(r->message, sizeof r->message, "require: the message", message ? message : expr, err, errlen))
         return false;
      k->nrules++;
   } else if (!strcmp(key, "global") || !strcmp(key, "local")) {
      char(*dst)[128] = !strcmp(key, "global") ? k->global : k->local;
      int n = splitList(v, dst, 3, key, err, errlen);
      if (n < 1)
         return false;
      if (k->dims && k->dims != n) {
         snprintf(err, errlen, "global and local have different numbers of dimensions");
         return false;
      }
      k->dims = n;
   } else if (!strcmp(key, "fixup_global") || !strcmp(key, "fixup_local")) {
      char(*dst)[128] = !strcmp(key, "fixup_global") ? k->fixup_global : k->fixup_local;
      int n = splitList(v, dst, 3, key, err, errlen);
      if (n < 1)
         return false;
      if (k->fixup_dims && k->fixup_dims != n) {
         snprintf(err, errlen, "fixup_global and fixup_local have different numbers of dimensions");
         return false;
      }
      k->fixup_dims = n;
   } else if (!strcmp(key, "fixup")) {
      if (!isIdentifier(v)) {
         snprintf(err, errlen, "fixup '%s' must be an entry name: letters, digits and '_'", v);
         return false;
      }
      return setField(k->fixup_entry, sizeof k->fixup_entry, "fixup", v, err, errlen);
   } else if (!strcmp(key, "work")) {
      return setField(k->work, sizeof k->work, "work", v, err, errlen);
   } else if (!strcmp(key, "band")) {
      return setField(k->band, sizeof k->band, "band", v, err, errlen);
   } else if (!strcmp(key, "unit")) {
      return setField(k->unit, sizeof k->unit, "unit", v, err, errlen);
   } else if (!strcmp(key, "staggered")) {
      return setField(k->staggered, sizeof k->staggered, "staggered", v, err, errlen);
   } else if (!strcmp(key, "workspace")) {
      return setField(k->workspace, sizeof k->workspace, "workspace", v, err, errlen);
   } else if (!strcmp(key, "localmem")) {
      return setField(k->localmem, sizeof k->localmem, "localmem", v, err, errlen);
   } else if (!strcmp(key, "operands")) {
      return parseOperands(k, v, err, errlen);
   } else if (!strcmp(key, "pad")) {
      return parsePad(k, v, err, errlen);
   } else if (!strcmp(key, "entry")) {
      if (!isIdentifier(v)) {
         snprintf(err, errlen, "entry '%s' must be letters, digits and '_'", v);
         return false;
      }
      return setField(k->entry, sizeof k->entry, "entry", v, err, errlen);
   } else if (!strcmp(key, "sites")) {
      return parseSites(k, v, err, errlen);
   } else if (!strcmp(key, "arch")) {
      if (strcmp(v, "sm_90a")) {
         snprintf(err, errlen, "arch: '%s' is not a target gemmtop knows; sm_90a is (Hopper's wgmma and TMA)", v);
         return false;
      }
      Util_copy(k->arch, sizeof k->arch, v);
   } else if (!strcmp(key, "dynamic_smem")) {
      return setField(k->dynamic_smem, sizeof k->dynamic_smem, "dynamic_smem", v, err, errlen);
   } else if (!strcmp(key, "tma")) {
      return parseTma(k, v, err, errlen);
   } else if (!strcmp(key, "hidden")) {
      k->hidden = !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "1");
   } else if (!strcmp(key, "precisions")) {
      return parsePrecisions(k, v, err, errlen);
   } else if (!strcmp(key, "tensor")) {
      return parseYesNo(key, v, &k->tensor, err, errlen);
   } else if (!strcmp(key, "accumulate")) {
      return parseAccumulate(k, v, err, errlen);
   } else if (!strcmp(key, "tune")) {
      return parseYesNo(key, v, &k->tune, err, errlen);
   } else if (!strcmp(key, "gpu_run")) {
      return parseYesNo(key, v, &k->gpu_run, err, errlen);
   } else if (!strcmp(key, "reuse")) {
      return parseReuse(k->reuse, key, v, err, errlen);
   } else if (!strcmp(key, "local_reuse")) {
      return parseReuse(k->local_reuse, key, v, err, errlen);
   } else if (!strcmp(key, "bound")) {
      if (strcmp(v, "memory") && strcmp(v, "compute")) {
         snprintf(err, errlen, "bound: '%s' is not a limit gemmtop reports against; memory or compute", v);
         return false;
      }
      k->memory_bound = !strcmp(v, "memory");
   } else {
      snprintf(err, errlen, "unknown key '%s'", key);
      return false;
   }
   return true;
}

bool KernelInfo_parse(KernelInfo *k, const char *text, const char *filename, char *err, size_t errlen) {
   memset(k, 0, sizeof *k);
   if (!Util_copyWhole(k->path, sizeof k->path, filename)) {
      snprintf(err, errlen, "%.200s...: the path is over %zu characters", filename, sizeof k->path - 1);
      return false;
   }
   strcpy(k->entry, "gemm");
   strcpy(k->localmem, "0");
   strcpy(k->dynamic_smem, "0");
   k->gpu_run = true;
   k->precisions = Types_cudaCoreMask();
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
   /* 'gemmtop list kernels' prints the metadata: a control byte would reach the terminal. */
   int at;
   size_t bad = Util_findControl(start, (size_t)(end - start), &at);
   if (bad < (size_t)(end - start)) {
      char name[8];
      Util_controlName((unsigned char)start[bad], name);
      snprintf(err, errlen, "%s:%d: control character %s in the metadata; it is plain text", filename, line + at - 1,
               name);
      return false;
   }
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
         snprintf(err, errlen, "%s:%d: line of %zu characters; at most %zu", filename, line, n, sizeof buf - 1);
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
      const char *dot = strrchr(base, '.');
      size_t n = dot ? (size_t)(dot - base) : strlen(base);
      if (n >= sizeof k->name) {
         snprintf(err, errlen, "%s: the file name is over %zu characters: give a shorter 'name:'", filename,
                  sizeof k->name - 1);
         return false;
      }
      memcpy(k->name, base, n);
      k->name[n] = '\0';
   }
   if (!k->dims) {
      snprintf(err, errlen, "%s: 'global:' and 'local:' are required", filename);
      return false;
   }
   if ((k->fixup_entry[0] != '\0') != (k->fixup_dims > 0) || (k->fixup_dims && !k->fixup_global[0][0]) ||
       (k->fixup_dims && !k->fixup_local[0][0])) {
      snprintf(err, errlen, "%s: 'fixup:' needs both 'fixup_global:' and 'fixup_local:', and they need 'fixup:'", filename);
      return false;
   }
   if (k->fixup_entry[0] && !k->workspace[0]) {
      snprintf(err, errlen, "%s: 'fixup:' finishes C from the workspace: give 'workspace:' its bytes", filename);
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

int KernelParam_valueIndex(const KernelParam *p, long long v) {
   for (int i = 0; i < p->nvalues; i++)
      if (p->values[i] == v)
         return i;
   return -1;
}

const char *KernelInfo_shortName(const KernelInfo *k) {
   size_t n = strlen(k->ladder);
   if (n && !strncmp(k->name, k->ladder, n) && k->name[n])
      return k->name[n] == '_' ? k->name + n + 1 : k->name + n;
   return k->name;
}

void KernelInfo_formatParams(const KernelInfo *k, const long long *values, char *out, size_t outlen) {
   size_t n = 0;
   out[0] = '\0';
   for (int i = 0; i < k->nparams && n < outlen; i++)
      n += (size_t)snprintf(out + n, outlen - n, "%s%s=%lld", i ? " " : "", k->params[i].name, values[i]);
}

void KernelInfo_hash(const KernelInfo *k, char out[17]) {
   const char *text = k->source ? k->source : "";
   snprintf(out, 17, "%016llx", Util_hash(UTIL_HASH_INIT, text, strlen(text)));
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

/* Room for one more kernel at c->kernels[c->count]. */
static bool growKernels(Catalog *c, int *cap) {
   int more = *cap ? *cap * 2 : 32;
   KernelInfo *nk = realloc(c->kernels, sizeof *nk * (size_t)more);
   if (!nk)
      return false;
   c->kernels = nk;
   *cap = more;
   return true;
}

static void addWarning(Catalog *c, const char *msg) { Util_appendLine(c->warnings, sizeof c->warnings, msg); }

static bool shippedDir(char *out, size_t outlen);

/* The helpers (prelude, transposes, peaks) come from the first folder that has them: the
 * shipped one; folders of the user's own kernels need none. */
static bool loadHelpers(Catalog *c, char **folders, int nfolders, char *err, size_t errlen) {
   for (int i = 0; i < nfolders; i++) {
      char path[1024];
      snprintf(path, sizeof path, "%s/helpers/prelude.h", folders[i]);
      if (access(path, F_OK) != 0)
         continue;
      static const char *files[] = {"prelude.h", "helpers.cl", "prelude_cuda.h", "peak.cl",
                                    "tensor.h",  "types.h",    "schedule.h",     "verify.cl"};
      char *tensor = NULL, *types = NULL, *schedule = NULL;
      char **dst[] = {&c->prelude, &c->helpers, &c->prelude_cuda, &c->peak, &tensor, &types, &schedule, &c->verify};
      for (int f = 0; f < 8; f++) {
         snprintf(path, sizeof path, "%s/helpers/%s", folders[i], files[f]);
         char why[160];
         *dst[f] = Util_readUserFile(path, UTIL_MAX_KERNEL_BYTES, NULL, why, sizeof why);
      }
      if (c->prelude && c->helpers && c->prelude_cuda && c->peak && tensor && types && schedule && c->verify) {
         /* The element types, the tensor-core helpers, then the scheduling arithmetic
          * follow the prelude (kernels cannot #include: the backends compile one text);
          * macros and inline functions only, free for the other kernels. */
         const char *parts[] = {c->prelude, types, tensor, schedule};
         size_t total = 0;
         for (int p = 0; p < 4; p++)
            total += strlen(parts[p]) + 1;
         char *joined = malloc(total);
         if (joined) {
            size_t at = 0;
            for (int p = 0; p < 4; p++) {
               size_t n = strlen(parts[p]);
               memcpy(joined + at, parts[p], n);
               at += n;
               joined[at++] = p < 3 ? '\n' : '\0';
            }
         }
         free(tensor);
         free(types);
         free(schedule);
         free(c->prelude);
         c->prelude = joined;
         if (joined)
            return true;
         snprintf(err, errlen, "out of memory reading %s/helpers/", folders[i]);
         return false;
      }
      free(tensor);
      free(types);
      free(schedule);
      snprintf(err, errlen,
               "%s/helpers/ lacks prelude.h, prelude_cuda.h, helpers.cl, peak.cl, verify.cl, tensor.h, types.h or schedule.h: the "
               "installation is incomplete",
               folders[i]);
      return false;
   }
   const char *env = getenv("GEMMTOP_KERNELS");
   char shipped[2048];
   bool fromEnv = env && *env && !strncmp(c->dir, env, strlen(env)); /* then maybe the user's own folder */
   if (fromEnv && shippedDir(shipped, sizeof shipped))
      /* The variable replaced the shipped folder, which holds the helpers every kernel needs. */
      snprintf(err, errlen,
               "no folder in GEMMTOP_KERNELS (%s) has helpers/prelude.h: the variable replaces the shipped kernels "
               "folder, which has them; add it to the list (GEMMTOP_KERNELS=%s:%s), or unset GEMMTOP_KERNELS",
               env, shipped, env);
   else if (fromEnv)
      snprintf(err, errlen,
               "no folder in GEMMTOP_KERNELS (%s) has helpers/prelude.h: the variable replaces the shipped kernels "
               "folder, and no shipped folder was found beside gemmtop (the installation is incomplete)",
               env);
   else
      snprintf(err, errlen, "no kernels folder in %s has helpers/prelude.h: the installation is incomplete", c->dir);
   return false;
}

/* Whether path is a file directly in folder dir. */
static bool isIn(const char *path, const char *dir) {
   size_t n = strlen(dir);
   return !strncmp(path, dir, n) && path[n] == '/' && !strchr(path + n + 1, '/');
}

/* Adds the kernel parsed into c->kernels[c->count]. A name taken by a kernel of an earlier
 * folder is replaced, and a note says so; one taken in the same folder (files are read in
 * name order) is skipped with a warning. */
static void addKernel(Catalog *c, const char *dir) {
   KernelInfo *k = &c->kernels[c->count];
   KernelInfo *old = (KernelInfo *)Catalog_find(c, k->name);
   char msg[1400];
   if (!old) {
      c->count++;
   } else if (isIn(old->path, dir)) {
      snprintf(msg, sizeof msg, "%s: the name %s is taken by %s; skipped", k->path, k->name, old->path);
      addWarning(c, msg);
      KernelInfo_free(k);
   } else {
      snprintf(msg, sizeof msg, "kernel %s: %s replaces %s", k->name, k->path, old->path);
      Util_appendLine(c->notes, sizeof c->notes, msg);
      KernelInfo_free(old);
      *old = *k;
   }
}

static int byName(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* Reads the .cl files of dir in name order, so that which file wins never depends on the
 * order the file system lists them in. */
static void loadFolder(Catalog *c, const char *dir, int *cap) {
   struct dirent **names = NULL;
   int count = scandir(dir, &names, NULL, byName);
   for (int i = 0; i < count; i++) {
      const char *file = names[i]->d_name;
      size_t n = strlen(file);
      char path[1024], msg[1400];
      snprintf(path, sizeof path, "%s/%s", dir, file);
      if (n < 4 || strcmp(file + n - 3, ".cl") != 0)
         continue;
      size_t len = 0;
      char why[160];
      char *text = Util_readUserFile(path, UTIL_MAX_KERNEL_BYTES, &len, why, sizeof why);
      if (!text) {
         snprintf(msg, sizeof msg, "%s: skipped: %s", path, why);
         addWarning(c, msg);
         continue;
      }
      int line;
      if (strlen(text) != len) {
         Util_findControl(text, len, &line);
         snprintf(msg, sizeof msg, "%s:%d: NUL byte: a kernel file is text (the file would have ended there)", path, line);
         addWarning(c, msg);
      } else if (c->count == *cap && !growKernels(c, cap)) {
         addWarning(c, "out of memory: the kernels after this were not read");
      } else if (KernelInfo_parse(&c->kernels[c->count], text, path, msg, sizeof msg)) {
         addKernel(c, dir);
      } else {
         addWarning(c, msg);
      }
      free(text);
   }
   for (int i = 0; i < count; i++)
      free(names[i]);
   free(names);
}

bool Catalog_load(Catalog *c, const char *dirs, char *err, size_t errlen) {
   memset(c, 0, sizeof *c);
   if (!Util_copyWhole(c->dir, sizeof c->dir, dirs)) {
      snprintf(err, errlen, "the list of kernel folders is %zu characters long; at most %zu", strlen(dirs),
               sizeof c->dir - 1);
      return false;
   }
   char list[sizeof c->dir];
   strcpy(list, dirs);
   char *folders[CATALOG_MAX_FOLDERS], *save = NULL;
   int nfolders = 0;
   for (char *f = strtok_r(list, ":", &save); f; f = strtok_r(NULL, ":", &save)) {
      if (nfolders == CATALOG_MAX_FOLDERS) {
         snprintf(err, errlen, "more than %d kernel folders in %s", CATALOG_MAX_FOLDERS, dirs);
         return false;
      }
      DIR *d = opendir(f);
      if (!d) {
         snprintf(err, errlen, "cannot read the kernels folder %s: %s (set GEMMTOP_KERNELS)", f, strerror(errno));
         return false;
      }
      closedir(d);
      folders[nfolders++] = f;
   }
   if (!nfolders) {
      snprintf(err, errlen, "no kernels folder given (set GEMMTOP_KERNELS)");
      return false;
   }
   if (!loadHelpers(c, folders, nfolders, err, errlen)) {
      Catalog_free(c);
      return false;
   }
   int cap = 0;
   for (int i = 0; i < nfolders; i++)
      loadFolder(c, folders[i], &cap);
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
   free(c->verify);
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

/* The shipped folder: next to the executable, else ./kernels. */
static bool shippedDir(char *out, size_t outlen) {
   char exe[2048];
   if (Util_exeDir(exe, sizeof exe)) {
      const char *candidates[] = {"%s/../share/gemmtop/kernels", "%s/../kernels", "%s/kernels"};
      for (size_t i = 0; i < sizeof candidates / sizeof candidates[0]; i++) {
         char path[4096];
         snprintf(path, sizeof path, candidates[i], exe);
         if (isDir(path)) {
            char *real = realpath(path, NULL);
            bool fits = Util_copyWhole(out, outlen, real ? real : path);
            free(real);
            return fits;
         }
      }
   }
   Util_copy(out, outlen, "kernels");
   return isDir(out);
}

bool Catalog_defaultDir(char *out, size_t outlen) {
   const char *env = getenv("GEMMTOP_KERNELS");
   out[0] = '\0';
   if (env && *env ? !Util_copyWhole(out, outlen, env) : !shippedDir(out, outlen))
      return false;
   char user[1024];
   if (Util_userDir("config", user, sizeof user - 8)) {
      strcat(user, "/kernels");
      size_t n = strlen(out);
      if (isDir(user) && n + 1 + strlen(user) < outlen)
         snprintf(out + n, outlen - n, ":%s", user);
   }
   return true;
}
