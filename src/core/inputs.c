#include "core/inputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "core/lowprec.h"
#include "core/npy.h"
#include "core/rng.h"

static _Atomic unsigned long nextGeneration = 1;

/* One element of the given size from v: half and bfloat16 rounded to nearest even. */
static void store(void *m, size_t i, Precision prec, bool operand, double v) {
   if (prec == PRECISION_DOUBLE)
      ((double *)m)[i] = v;
   else if (operand && prec == PRECISION_HALF)
      ((uint16_t *)m)[i] = LowPrec_halfFromDouble(v);
   else if (operand && prec == PRECISION_BF16)
      ((uint16_t *)m)[i] = LowPrec_bf16FromDouble(v);
   else
      ((float *)m)[i] = (float)v;
}

/* operand: A or B (the input type); otherwise C (the output type). */
static void *randomMatrix(size_t count, Precision prec, bool operand, Rng *r) {
   size_t es = operand ? Precision_inputSize(prec) : Precision_size(prec);
   void *m = malloc(count ? count * es : 1);
   if (!m)
      return NULL;
   for (size_t i = 0; i < count; i++)
      store(m, i, prec, operand, Rng_range(r, -1.0, 1.0));
   return m;
}

bool Inputs_random(Inputs *in, const Problem *p, uint64_t seed) {
   memset(in, 0, sizeof *in);
   in->shape = *p;
   in->seed = seed;
   Rng r;
   Rng_seed(&r, seed);
   in->a = randomMatrix(Problem_sizeA(p), p->precision, true, &r);
   in->b = randomMatrix(Problem_sizeB(p), p->precision, true, &r);
   if (p->beta != 0.0)
      in->c0 = randomMatrix(Problem_sizeC(p), p->precision, false, &r);
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

static const char *npyTypeName(const NpyArray *a) { return a->is_half ? "float16" : a->is_double ? "float64" : "float32"; }

/* A or B of half or bfloat16 from any .npy float type: float16 kept as it is for half,
 * everything else rounded to nearest even, and the note says how many values changed. A
 * finite value too large for the type is refused rather than turned into infinity. */
static bool roundOperand(NpyArray *arr, const char *what, const char *path, Precision prec, char *note, size_t notelen,
                         char *err, size_t errlen) {
   if (prec == PRECISION_HALF && arr->is_half)
      return true;
   size_t count = arr->shape[0] * arr->shape[1], changed = 0;
   uint16_t *bits = malloc(count ? count * sizeof *bits : 1);
   if (!bits) {
      snprintf(err, errlen, "--%s %s: out of memory converting", what, path);
      return false;
   }
   const bool half = prec == PRECISION_HALF;
   for (size_t i = 0; i < count; i++) {
      double v = NpyArray_at(arr, i);
      bits[i] = half ? LowPrec_halfFromDouble(v) : LowPrec_bf16FromDouble(v);
      double back = half ? LowPrec_halfToFloat(bits[i]) : LowPrec_bf16ToFloat(bits[i]);
      if (isfinite(v) && !isfinite(back)) {
         snprintf(err, errlen, "--%s %s: element %zu (%g) is too large for %s (largest finite value %s)", what, path, i,
                  v, Precision_name(prec), half ? "65504" : "3.39e38");
         free(bits);
         return false;
      }
      changed += back != v && !(isnan(v) && isnan(back));
   }
   size_t used = strlen(note);
   snprintf(note + used, notelen - used, "%s--%s %s: %s values rounded to %s (round to nearest even%s): %zu of %zu changed",
            used ? "; " : "", what, path, npyTypeName(arr), Precision_name(prec),
            half ? "" : "; .npy has no bfloat16 type", changed, count);
   free(arr->data);
   arr->data = bits;
   arr->is_half = half;
   arr->is_double = false;
   return true;
}

/* operand: A or B (stored in the input type); otherwise C (the output type). */
static bool loadOne(const char *path, const char *what, size_t rows, size_t cols, const char *hint, Precision prec,
                    bool operand, void **slot, char *note, size_t notelen, char *err, size_t errlen) {
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
   if (operand && Precision_is16(prec)) {
      if (!roundOperand(&arr, what, path, prec, note, notelen, err, errlen)) {
         NpyArray_free(&arr);
         return false;
      }
   } else if (!NpyArray_convert(&arr, prec == PRECISION_DOUBLE)) {
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
   in->note[0] = '\0';
   if (a_path && !loadOne(a_path, "a", p->trans_a ? (size_t)p->k : (size_t)p->m, p->trans_a ? (size_t)p->m : (size_t)p->k,
                          p->trans_a ? "A stored transposed (K x M)" : "A (M x K)", p->precision, true, &in->a, in->note,
                          sizeof in->note, err, errlen))
      return false;
   if (b_path && !loadOne(b_path, "b", p->trans_b ? (size_t)p->n : (size_t)p->k, p->trans_b ? (size_t)p->k : (size_t)p->n,
                          p->trans_b ? "B stored transposed (N x K)" : "B (K x N)", p->precision, true, &in->b, in->note,
                          sizeof in->note, err, errlen))
      return false;
   if (c_path) {
      if (p->beta == 0.0) {
         snprintf(err, errlen, "--c is only read when beta is not zero (C = alpha*A*B + beta*C); set --beta");
         return false;
      }
      if (!loadOne(c_path, "c", (size_t)p->m, (size_t)p->n, "C (M x N)", p->precision, false, &in->c0, in->note,
                   sizeof in->note, err, errlen))
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
