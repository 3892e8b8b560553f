#include "core/inputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "core/npy.h"
#include "core/rng.h"

static _Atomic unsigned long nextGeneration = 1;

static void *randomMatrix(size_t count, Precision prec, Rng *r) {
   size_t es = Precision_size(prec);
   void *m = malloc(count ? count * es : 1);
   if (!m)
      return NULL;
   for (size_t i = 0; i < count; i++) {
      double v = Rng_range(r, -1.0, 1.0);
      if (prec == PRECISION_DOUBLE)
         ((double *)m)[i] = v;
      else
         ((float *)m)[i] = (float)v;
   }
   return m;
}

bool Inputs_random(Inputs *in, const Problem *p, uint64_t seed) {
   memset(in, 0, sizeof *in);
   in->shape = *p;
   in->seed = seed;
   Rng r;
   Rng_seed(&r, seed);
   in->a = randomMatrix(Problem_sizeA(p), p->precision, &r);
   in->b = randomMatrix(Problem_sizeB(p), p->precision, &r);
   if (p->beta != 0.0)
      in->c0 = randomMatrix(Problem_sizeC(p), p->precision, &r);
   in->generation = nextGeneration++;
   if (!in->a || !in->b || (p->beta != 0.0 && !in->c0)) {
      Inputs_free(in);
      return false;
   }
   return true;
}

bool Inputs_fit(const Inputs *in, const Problem *p) {
   const Problem *s = &in->shape;
   return in->a && s->m == p->m && s->n == p->n && s->k == p->k && s->precision == p->precision &&
          s->trans_a == p->trans_a && s->trans_b == p->trans_b && (s->beta != 0.0) == (p->beta != 0.0);
}

static bool loadOne(const char *path, const char *what, size_t rows, size_t cols, const char *hint, Precision prec,
                    void **slot, char *err, size_t errlen) {
   NpyArray arr;
   char msg[512];
   if (!Npy_read(path, &arr, msg, sizeof msg)) {
      snprintf(err, errlen, "--%s: %s", what, msg);
      return false;
   }
   if (arr.shape[0] != rows || arr.shape[1] != cols) {
      snprintf(err, errlen, "--%s %s: shape (%zu, %zu) does not fit the problem, which needs (%zu, %zu) for %s", what,
               path, arr.shape[0], arr.shape[1], rows, cols, hint);
      NpyArray_free(&arr);
      return false;
   }
   if (!NpyArray_convert(&arr, prec == PRECISION_DOUBLE)) {
      snprintf(err, errlen, "--%s %s: out of memory converting", what, path);
      NpyArray_free(&arr);
      return false;
   }
   free(*slot);
   *slot = arr.data;
   return true;
}

bool Inputs_loadNpy(Inputs *in, const Problem *p, const char *a_path, const char *b_path, const char *c_path, char *err,
                    size_t errlen) {
   if (a_path && !loadOne(a_path, "a", p->trans_a ? (size_t)p->k : (size_t)p->m, p->trans_a ? (size_t)p->m : (size_t)p->k,
                          p->trans_a ? "A stored transposed (K x M)" : "A (M x K)", p->precision, &in->a, err, errlen))
      return false;
   if (b_path && !loadOne(b_path, "b", p->trans_b ? (size_t)p->n : (size_t)p->k, p->trans_b ? (size_t)p->k : (size_t)p->n,
                          p->trans_b ? "B stored transposed (N x K)" : "B (K x N)", p->precision, &in->b, err, errlen))
      return false;
   if (c_path) {
      if (p->beta == 0.0) {
         snprintf(err, errlen, "--c is only read when beta is not zero (C = alpha*A*B + beta*C); set --beta");
         return false;
      }
      if (!loadOne(c_path, "c", (size_t)p->m, (size_t)p->n, "C (M x N)", p->precision, &in->c0, err, errlen))
         return false;
   }
   in->generation = nextGeneration++;
   return true;
}

void Inputs_free(Inputs *in) {
   free(in->a);
   free(in->b);
   free(in->c0);
   in->a = in->b = in->c0 = NULL;
}
