#include "core/run/ablate.h"

#include <stdio.h>
#include <string.h>

#include "core/run/listing.h"

static const struct {
   const char *name;
   unsigned flag;
   const char *define;
} Ablate_table[] = {
    {"no-a", ABLATE_NO_A, "-DGT_ABLATE_NO_A=1"},
    {"no-b", ABLATE_NO_B, "-DGT_ABLATE_NO_B=1"},
    {"no-fma", ABLATE_NO_FMA, "-DGT_ABLATE_NO_FMA=1"},
    {"const-store", ABLATE_CONST_STORE, "-DGT_ABLATE_CONST_STORE=1"},
};
#define ABLATE_COUNT (sizeof Ablate_table / sizeof Ablate_table[0])

bool Ablate_parse(const char *s, unsigned *mask, char *err, size_t errlen) {
   *mask = 0;
   if (!s)
      return true;
   const char *p = s;
   while (*p) {
      const char *end = strchr(p, ',');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      bool found = false;
      for (size_t i = 0; i < ABLATE_COUNT && !found; i++)
         if (strlen(Ablate_table[i].name) == len && !strncmp(p, Ablate_table[i].name, len)) {
            *mask |= Ablate_table[i].flag;
            found = true;
         }
      if (!found && len == 4 && !strncmp(p, "none", 4))
         found = true;
      if (!found) {
         snprintf(err, errlen, "--ablate: '%.*s' is not an ablation; valid: %s, comma-separated", (int)len, p,
                  ABLATE_VALID_NAMES);
         *mask = 0;
         return false;
      }
      p += len;
      if (*p == ',') {
         p++;
         if (!*p) {
            snprintf(err, errlen, "--ablate '%s': empty name after ','; valid: %s", s, ABLATE_VALID_NAMES);
            *mask = 0;
            return false;
         }
      }
   }
   return true;
}

void Ablate_name(unsigned mask, char *out, size_t outlen) {
   if (!outlen)
      return;
   out[0] = '\0';
   if (!(mask & ABLATE_ALL)) {
      snprintf(out, outlen, "none");
      return;
   }
   for (size_t i = 0; i < ABLATE_COUNT; i++)
      if (mask & Ablate_table[i].flag) {
         size_t used = strlen(out);
         snprintf(out + used, outlen - used, "%s%s", used ? "," : "", Ablate_table[i].name);
      }
}

void Ablate_defines(unsigned mask, char *out, size_t outlen) {
   if (!outlen)
      return;
   out[0] = '\0';
   for (size_t i = 0; i < ABLATE_COUNT; i++)
      if (mask & Ablate_table[i].flag) {
         size_t used = strlen(out);
         snprintf(out + used, outlen - used, "%s%s", used ? " " : "", Ablate_table[i].define);
      }
}

void Ablate_appendDefines(unsigned mask, char *defines, size_t len) {
   char extra[160];
   Ablate_defines(mask, extra, sizeof extra);
   size_t used = strlen(defines);
   if (*extra && used < len)
      snprintf(defines + used, len - used, " %s", extra);
}

unsigned Ablate_next(unsigned mask) {
   static const unsigned cycle[] = {0, ABLATE_NO_A, ABLATE_NO_B, ABLATE_NO_FMA, ABLATE_CONST_STORE,
                                    ABLATE_NO_A | ABLATE_NO_B};
   const size_t n = sizeof cycle / sizeof cycle[0];
   for (size_t i = 0; i < n; i++)
      if (cycle[i] == (mask & ABLATE_ALL))
         return cycle[(i + 1) % n];
   return 0; /* a combination from the command line: back to a real run */
}

double Ablate_bytes(const Problem *p, unsigned mask) {
   double es = (double)Precision_size(p->precision), ies = (double)Precision_inputSize(p->precision);
   double a = (mask & ABLATE_NO_A) ? 0 : (double)Problem_sizeA(p);
   double b = (mask & ABLATE_NO_B) ? 0 : (double)Problem_sizeB(p);
   double c = (double)Problem_sizeC(p);
   double creads = p->beta != 0.0 ? c : 0;
   return (a + b) * ies + (c + creads) * es;
}

double Ablate_coreBytes(const Problem *p) {
   return 2.0 * (double)p->m * (double)p->n * (double)p->k * (double)Precision_inputSize(p->precision);
}

bool Ablate_loopKept(const ListingStats *real, const ListingStats *ablated, unsigned ablate, char *words, size_t len) {
   const int real_loads = real->global_loads + real->shared_loads, abl_loads = ablated->global_loads + ablated->shared_loads;
   const bool fewer = real->instructions > 0 && ablated->instructions * 4 < real->instructions;
   const bool fma_gone = !(ablate & ABLATE_NO_FMA) && real->fma > 0 && ablated->fma == 0;
   const bool loads_gone = (ablate & (ABLATE_NO_A | ABLATE_NO_B)) != (ABLATE_NO_A | ABLATE_NO_B) && real_loads > 0 &&
                           abl_loads == 0;
   const bool kept = !fewer && !fma_gone && !loads_gone;
   snprintf(words, len, "%d of the real kernel's %d instructions (%.0f%%), %d of its %d FMA, %d of its %d loads: %s",
            ablated->instructions, real->instructions,
            real->instructions > 0 ? 100.0 * ablated->instructions / real->instructions : 0.0, ablated->fma, real->fma,
            abl_loads, real_loads,
            kept ? "the loop runs (what is left is timed)"
            : fewer ? "the compiler removed most of the code: the loop is optimised out, the figure times an empty kernel"
            : fma_gone ? "the multiply-adds are gone though kept: the compiler optimised the loop out"
                       : "every load is gone though an operand's were kept: the compiler optimised the loop out");
   return kept;
}
