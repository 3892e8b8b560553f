#include "core/run/listing.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ListingKind Listing_kind(const char *kind_name, const char *text) {
   const char *k = kind_name ? kind_name : "";
   if (!strncmp(k, "PTX", 3))
      return LISTING_PTX;
   if (!strncmp(k, "SASS", 4))
      return LISTING_SASS;
   if (!strncmp(k, "ISA", 3) || strstr(k, "AMD"))
      return LISTING_AMD;
   if (!strncmp(k, "CPU code", 8))
      return LISTING_CPU;
   if (strstr(k, "source") || !strncmp(k, "OpenCL C", 8))
      return LISTING_SOURCE;
   /* A vague name: look at the text. */
   if (text && strstr(text, ".version") && strstr(text, ".target"))
      return LISTING_PTX;
   if (text && strstr(text, "file format elf64-amdgpu"))
      return LISTING_AMD;
   return LISTING_OTHER;
}

const char *Listing_kindName(ListingKind k) {
   switch (k) {
   case LISTING_PTX: return "PTX";
   case LISTING_SASS: return "SASS";
   case LISTING_AMD: return "AMD ISA";
   case LISTING_CPU: return "CPU code";
   case LISTING_SOURCE: return "source";
   case LISTING_OTHER: return "listing";
   }
   return "?";
}

static bool startsWith(const char *s, const char *prefix) { return !strncmp(s, prefix, strlen(prefix)); }

/* The first token of s (up to blank, ';' or ',') into out. */
static void token(const char *s, char *out, size_t outlen) {
   size_t n = 0;
   while (s[n] && !isspace((unsigned char)s[n]) && s[n] != ';' && s[n] != ',' && n + 1 < outlen) {
      out[n] = s[n];
      n++;
   }
   out[n] = '\0';
}

/* Skips a guard predicate: "@%p1 " (PTX), "@!P0 " (SASS). */
static const char *skipPredicate(const char *s) {
   if (*s != '@')
      return s;
   while (*s && !isspace((unsigned char)*s))
      s++;
   while (isspace((unsigned char)*s))
      s++;
   return s;
}

/* The mnemonic of one PTX line, or "" when the line is no instruction (directives,
 * labels, braces, comments, declarations). */
static void ptxMnemonic(const char *line, char *out, size_t outlen) {
   out[0] = '\0';
   const char *s = skipPredicate(line);
   if (!isalpha((unsigned char)*s))
      return;
   const char *semi = strchr(s, ';');
   const char *colon = strchr(s, ':');
   if (!semi || (colon && colon < semi && !strchr(s, ' ')))
      return;
   token(s, out, outlen);
}

/* SASS from cuobjdump: an address comment, then "FFMA R4, R5, R6, R4 ;" and the encoding. */
static void sassMnemonic(const char *line, char *out, size_t outlen) {
   out[0] = '\0';
   if (!startsWith(line, "/*"))
      return;
   const char *end = strstr(line + 2, "*/");
   if (!end)
      return;
   for (const char *p = line + 2; p < end; p++)
      if (!isxdigit((unsigned char)*p))
         return;
   const char *s = end + 2;
   while (isspace((unsigned char)*s))
      s++;
   s = skipPredicate(s);
   if (!isupper((unsigned char)*s))
      return;
   token(s, out, outlen);
}

/* AMD ISA from llvm-objdump: "\tv_fmac_f32_e32 v5, v7, v8   // 000000001B3C: ...". */
static void amdMnemonic(const char *line, char *out, size_t outlen) {
   out[0] = '\0';
   if (!islower((unsigned char)*line))
      return;
   token(line, out, outlen);
   /* Every AMD instruction is unit_operation: s_, v_, ds_, global_, buffer_, ... */
   if (!strchr(out, '_') || strchr(out, ':') || strchr(out, '<'))
      out[0] = '\0';
}

/* llvm-objdump of CPU code: "    1e6f:      \tvfmadd213ps\t4160(%rsp,%rsi), %xmm5, %xmm6". */
static void cpuMnemonic(const char *line, char *out, size_t outlen) {
   out[0] = '\0';
   const char *s = line;
   if (!isxdigit((unsigned char)*s))
      return;
   while (isxdigit((unsigned char)*s))
      s++;
   if (*s != ':' || !isspace((unsigned char)s[1]))
      return;
   s++;
   while (isspace((unsigned char)*s))
      s++;
   if (!isalpha((unsigned char)*s))
      return;
   token(s, out, outlen);
}

static void countCpu(const char *m, ListingStats *s) {
   /* x86 FMA3/FMA4 and AArch64 fused multiply-adds (scalar or vector: one instruction). */
   if (startsWith(m, "vfmadd") || startsWith(m, "vfmsub") || startsWith(m, "vfnmadd") || startsWith(m, "vfnmsub") ||
       startsWith(m, "fmla") || startsWith(m, "fmadd") || startsWith(m, "fmls") || startsWith(m, "fmsub") ||
       startsWith(m, "fnmadd") || startsWith(m, "fnmsub"))
      s->fma++;
}

static void countPtx(const char *m, ListingStats *s) {
   if ((startsWith(m, "fma.") || startsWith(m, "mad.")) && strstr(m, ".f"))
      s->fma++;
   else if (startsWith(m, "ld.shared") || startsWith(m, "ld.volatile.shared") || startsWith(m, "ldmatrix"))
      s->shared_loads++;
   else if (startsWith(m, "st.shared") || startsWith(m, "st.volatile.shared"))
      s->shared_stores++;
   else if (startsWith(m, "ld.global") || startsWith(m, "ldu.global") || startsWith(m, "ld.volatile.global"))
      s->global_loads++;
   else if (startsWith(m, "st.global") || startsWith(m, "st.volatile.global"))
      s->global_stores++;
   else if (startsWith(m, "ld.local"))
      s->local_loads++;
   else if (startsWith(m, "st.local"))
      s->local_stores++;
   else if (startsWith(m, "bar.") || startsWith(m, "barrier."))
      s->barriers++;
}

static void countSass(const char *m, ListingStats *s) {
   char base[32];
   size_t n = strcspn(m, ".");
   snprintf(base, sizeof base, "%.*s", (int)(n < sizeof base ? n : sizeof base - 1), m);
   if (!strcmp(base, "FFMA") || !strcmp(base, "DFMA") || !strcmp(base, "HFMA2") || !strcmp(base, "FFMA2"))
      s->fma++;
   else if (!strcmp(base, "LDS") || !strcmp(base, "LDSM"))
      s->shared_loads++;
   else if (!strcmp(base, "STS"))
      s->shared_stores++;
   else if (!strcmp(base, "LDG"))
      s->global_loads++;
   else if (!strcmp(base, "STG"))
      s->global_stores++;
   else if (!strcmp(base, "LDL"))
      s->local_loads++;
   else if (!strcmp(base, "STL"))
      s->local_stores++;
   else if (!strcmp(base, "BAR"))
      s->barriers++;
}

static void countAmd(const char *m, ListingStats *s) {
   if (startsWith(m, "v_fma_f") || startsWith(m, "v_fmac_f") || startsWith(m, "v_mac_f") || startsWith(m, "v_mad_f") ||
       startsWith(m, "v_pk_fma_f") || startsWith(m, "v_fma_mix") || startsWith(m, "v_mad_mix"))
      s->fma++;
   else if (startsWith(m, "ds_read") || startsWith(m, "ds_load"))
      s->shared_loads++;
   else if (startsWith(m, "ds_write") || startsWith(m, "ds_store"))
      s->shared_stores++;
   else if (startsWith(m, "global_load") || startsWith(m, "buffer_load") || startsWith(m, "flat_load"))
      s->global_loads++;
   else if (startsWith(m, "global_store") || startsWith(m, "buffer_store") || startsWith(m, "flat_store"))
      s->global_stores++;
   else if (startsWith(m, "scratch_load"))
      s->local_loads++;
   else if (startsWith(m, "scratch_store"))
      s->local_stores++;
   else if (!strcmp(m, "s_barrier"))
      s->barriers++;
}

void Listing_count(const char *text, ListingKind kind, ListingStats *out) {
   memset(out, 0, sizeof *out);
   out->kind = kind;
   if (!text)
      return;
   const char *p = text;
   char line[512], m[64];
   while (*p) {
      const char *nl = strchr(p, '\n');
      size_t len = nl ? (size_t)(nl - p) : strlen(p);
      out->lines++;
      /* Only the start of a line matters: the mnemonic. */
      const char *s = p;
      while (s < p + len && isspace((unsigned char)*s))
         s++;
      size_t take = (size_t)(p + len - s);
      if (take >= sizeof line)
         take = sizeof line - 1;
      memcpy(line, s, take);
      line[take] = '\0';
      m[0] = '\0';
      switch (kind) {
      case LISTING_PTX: ptxMnemonic(line, m, sizeof m); break;
      case LISTING_SASS: sassMnemonic(line, m, sizeof m); break;
      case LISTING_AMD: amdMnemonic(line, m, sizeof m); break;
      case LISTING_CPU: cpuMnemonic(line, m, sizeof m); break;
      default: break;
      }
      if (m[0]) {
         out->instructions++;
         if (kind == LISTING_PTX)
            countPtx(m, out);
         else if (kind == LISTING_SASS)
            countSass(m, out);
         else if (kind == LISTING_CPU)
            countCpu(m, out);
         else
            countAmd(m, out);
      }
      p = nl ? nl + 1 : p + len;
   }
}

static void addCount(char *out, size_t outlen, bool *first, int n, const char *one, const char *many) {
   if (n <= 0)
      return;
   size_t l = strlen(out);
   snprintf(out + l, outlen - l, "%s%d %s", *first ? ": " : ", ", n, n == 1 ? one : many);
   *first = false;
}

void Listing_summary(const ListingStats *s, char *out, size_t outlen) {
   if (s->kind == LISTING_SOURCE || s->kind == LISTING_OTHER) {
      snprintf(out, outlen, "%d line%s of %s", s->lines, s->lines == 1 ? "" : "s",
               s->kind == LISTING_SOURCE ? "source" : "text");
      return;
   }
   snprintf(out, outlen, "%d instruction%s", s->instructions, s->instructions == 1 ? "" : "s");
   bool first = true;
   const char *sh = s->kind == LISTING_AMD ? "LDS" : "shared";
   char l1[32], lm[32], s1[32], sm[32];
   snprintf(l1, sizeof l1, "%s load", sh);
   snprintf(lm, sizeof lm, "%s loads", sh);
   snprintf(s1, sizeof s1, "%s store", sh);
   snprintf(sm, sizeof sm, "%s stores", sh);
   addCount(out, outlen, &first, s->fma, "FMA", "FMA");
   addCount(out, outlen, &first, s->shared_loads, l1, lm);
   addCount(out, outlen, &first, s->shared_stores, s1, sm);
   addCount(out, outlen, &first, s->global_loads, "global load", "global loads");
   addCount(out, outlen, &first, s->global_stores, "global store", "global stores");
   addCount(out, outlen, &first, s->local_loads, "spill load", "spill loads");
   addCount(out, outlen, &first, s->local_stores, "spill store", "spill stores");
   addCount(out, outlen, &first, s->barriers, "barrier", "barriers");
}

int Listing_split(const char *text, size_t **starts) {
   *starts = NULL;
   size_t cap = 64;
   int n = 0;
   size_t *a = malloc(cap * sizeof *a);
   if (!a)
      return -1;
   if (!text)
      text = "";
   for (size_t i = 0; text[i];) {
      if ((size_t)n == cap) {
         size_t *b = realloc(a, cap * 2 * sizeof *a);
         if (!b) {
            free(a);
            return -1;
         }
         a = b;
         cap *= 2;
      }
      a[n++] = i;
      const char *nl = strchr(text + i, '\n');
      if (!nl)
         break;
      i = (size_t)(nl - text) + 1;
   }
   *starts = a;
   return n;
}

void Listing_line(const char *text, const size_t *starts, int nlines, int i, char *out, size_t outlen) {
   if (!outlen)
      return;
   out[0] = '\0';
   if (!text || i < 0 || i >= nlines)
      return;
   size_t o = 0;
   for (const char *p = text + starts[i]; *p && *p != '\n' && o + 1 < outlen; p++) {
      if (*p == '\t') {
         do
            out[o++] = ' ';
         while (o % 8 && o + 1 < outlen);
      } else if (*p != '\r') {
         out[o++] = *p;
      }
   }
   out[o] = '\0';
}
