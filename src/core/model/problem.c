#include "core/model/problem.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/model/scales.h"

const char *Precision_name(Precision p) { return Types_of(p)->name; }
const char *Precision_inputType(Precision p) { return Types_of(p)->input; }
const char *Precision_computeType(Precision p) { return Types_of(p)->compute; }
const char *Precision_outputType(Precision p) { return Types_of(p)->output; }

bool Precision_parse(const char *s, Precision *out) {
   for (int p = 0; p < PRECISION_COUNT; p++) {
      const TypeTraits *t = Types_of((Precision)p);
      bool match = !strcasecmp(s, t->name);
      for (int a = 0; a < 3 && t->aliases[a]; a++)
         match |= !strcasecmp(s, t->aliases[a]);
      if (match) {
         *out = (Precision)p;
         return true;
      }
   }
   return false;
}

void Precision_listNames(unsigned mask, char *out, size_t outlen) {
   size_t n = 0;
   out[0] = '\0';
   for (int p = 0; p < PRECISION_COUNT && n < outlen; p++)
      if (mask & PRECISION_BIT(p))
         n += (size_t)snprintf(out + n, outlen - n, "%s%s", n ? ", " : "", Types_of((Precision)p)->name);
}

void Precision_defines(Precision p, char *out, size_t outlen) {
   const TypeTraits *t = Types_of(p);
   snprintf(out, outlen, "-DDOUBLE=%d%s%s%s", t->fp64, t->define ? " -D" : "", t->define ? t->define : "",
            t->define ? "=1" : "");
}

bool Problem_parseLayout(Problem *p, const char *s) {
   if (strlen(s) != 2)
      return false;
   bool t[2];
   for (int i = 0; i < 2; i++) {
      if (s[i] == 'N' || s[i] == 'n')
         t[i] = false;
      else if (s[i] == 'T' || s[i] == 't')
         t[i] = true;
      else
         return false;
   }
   p->trans_a = t[0];
   p->trans_b = t[1];
   return true;
}

void Problem_layoutName(const Problem *p, char out[3]) {
   out[0] = p->trans_a ? 'T' : 'N';
   out[1] = p->trans_b ? 'T' : 'N';
   out[2] = '\0';
}

void Problem_setDefaults(Problem *p) {
   memset(p, 0, sizeof *p);
   p->m = p->n = p->k = 1024;
   p->precision = PRECISION_FLOAT;
   p->alpha = 1.0;
   p->beta = 0.0;
}

bool Problem_same(const Problem *a, const Problem *b) {
   return a->m == b->m && a->n == b->n && a->k == b->k && a->precision == b->precision && a->trans_a == b->trans_a &&
          a->trans_b == b->trans_b && a->alpha == b->alpha && a->beta == b->beta &&
          (!Problem_scaled(a) || a->scaling == b->scaling);
}

const char *Problem_typeLabel(const Problem *p, char *buf, size_t len) {
   snprintf(buf, len, "%s%s%s", Precision_name(p->precision), Problem_scaled(p) ? " " : "",
            Problem_scaled(p) ? Scaling_name(p->scaling) : "");
   return buf;
}

static const char *const kScalingNames[SCALING_COUNT] = {[SCALING_TENSOR] = "tensor", [SCALING_BLOCK] = "block"};

const char *Scaling_name(Scaling s) { return (unsigned)s < SCALING_COUNT ? kScalingNames[s] : "?"; }

bool Scaling_parse(const char *s, Scaling *out) {
   for (int i = 0; i < SCALING_COUNT; i++)
      if (!strcasecmp(s, kScalingNames[i])) {
         *out = (Scaling)i;
         return true;
      }
   return false;
}

double Problem_flops(const Problem *p) { return 2.0 * p->m * (double)p->n * p->k; }

double Problem_bytes(const Problem *p) {
   double in = ((double)Problem_sizeA(p) + (double)Problem_sizeB(p)) * (double)Precision_inputSize(p->precision);
   if (Problem_scaled(p)) /* the scales, FP32 each */
      in += 4.0 * (double)(Scales_count(p, true) + Scales_count(p, false));
   return in + (double)Problem_sizeC(p) * (p->beta != 0.0 ? 2 : 1) * (double)Precision_size(p->precision);
}
