#include "core/problem.h"

#include <string.h>
#include <strings.h>

const char *Precision_name(Precision p) { return p == PRECISION_DOUBLE ? "double" : "float"; }

bool Precision_parse(const char *s, Precision *out) {
   if (!strcasecmp(s, "float") || !strcasecmp(s, "single") || !strcasecmp(s, "fp32") || !strcasecmp(s, "s")) {
      *out = PRECISION_FLOAT;
      return true;
   }
   if (!strcasecmp(s, "double") || !strcasecmp(s, "fp64") || !strcasecmp(s, "d")) {
      *out = PRECISION_DOUBLE;
      return true;
   }
   return false;
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
          a->trans_b == b->trans_b && a->alpha == b->alpha && a->beta == b->beta;
}

double Problem_flops(const Problem *p) { return 2.0 * p->m * (double)p->n * p->k; }

double Problem_bytes(const Problem *p) {
   double elems = (double)Problem_sizeA(p) + (double)Problem_sizeB(p) + (double)Problem_sizeC(p) * (p->beta != 0.0 ? 2 : 1);
   return elems * (double)Precision_size(p->precision);
}
