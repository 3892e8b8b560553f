#include "core/scales.h"

#include <math.h>
#include <stdlib.h>

static size_t blocks(int n) { return ((size_t)n + SCALES_BLOCK - 1) / SCALES_BLOCK; }

void Scales_shape(const Problem *p, bool a, size_t *rows, size_t *cols) {
   if (p->scaling != SCALING_BLOCK) {
      *rows = *cols = 1;
      return;
   }
   *rows = a ? (size_t)p->m : blocks(p->k);
   *cols = a ? blocks(p->k) : blocks(p->n);
}

size_t Scales_count(const Problem *p, bool a) {
   size_t r, c;
   Scales_shape(p, a, &r, &c);
   return r * c;
}

size_t Scales_indexA(const Problem *p, size_t i, size_t k) {
   return p->scaling == SCALING_BLOCK ? i * blocks(p->k) + k / SCALES_BLOCK : 0;
}

size_t Scales_indexB(const Problem *p, size_t k, size_t j) {
   return p->scaling == SCALING_BLOCK ? (k / SCALES_BLOCK) * blocks(p->n) + j / SCALES_BLOCK : 0;
}

size_t Scales_storedA(const Problem *p, size_t i, size_t k) {
   return p->trans_a ? k * (size_t)p->m + i : i * (size_t)p->k + k;
}

size_t Scales_storedB(const Problem *p, size_t k, size_t j) {
   return p->trans_b ? j * (size_t)p->k + k : k * (size_t)p->n + j;
}

/* Calls visit(ctx, row, col, stored index, scale index) for every element of op(A) (M x K)
 * or op(B) (K x N). */
typedef void (*Visit)(void *ctx, size_t stored, size_t scale);
static void forEach(const Problem *p, bool a, Visit visit, void *ctx) {
   const size_t rows = a ? (size_t)p->m : (size_t)p->k, cols = a ? (size_t)p->k : (size_t)p->n;
   for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < cols; c++)
         visit(ctx, a ? Scales_storedA(p, r, c) : Scales_storedB(p, r, c),
               a ? Scales_indexA(p, r, c) : Scales_indexB(p, r, c));
}

typedef struct {
   Scales_valueFn value;
   const void *src;
   void *stored;
   float *scales;
   double *amax; /* each block's largest magnitude, exact */
   Storage to;
} Quantizing;

static void amaxOf(void *ctx, size_t s, size_t sc) {
   Quantizing *q = ctx;
   const double v = fabs(q->value(q->src, s));
   if (v > q->amax[sc])
      q->amax[sc] = v;
}

static void store(void *ctx, size_t s, size_t sc) {
   Quantizing *q = ctx;
   Storage_store(q->to, q->stored, s, q->value(q->src, s) / (double)q->scales[sc]);
}

/* amax / max, rounded up in FP32: no value divided by its scale may pass the largest
 * finite one, where saturation would change it silently. */
float Scales_ofAmax(double amax, Storage to) {
   const double max = Storage_max(to);
   float s = amax == 0 ? 1.0f : (float)(amax / max);
   while ((double)s * max < amax)
      s = nextafterf(s, INFINITY);
   return s;
}

bool Scales_quantize(const Problem *p, bool a, Scales_valueFn value, const void *src, void *stored, float *scales) {
   const size_t n = Scales_count(p, a);
   Quantizing q = {.value = value, .src = src, .stored = stored, .scales = scales, .amax = calloc(n, sizeof(double)),
                   .to = Types_of(p->precision)->in};
   if (!q.amax)
      return false;
   forEach(p, a, amaxOf, &q);
   for (size_t i = 0; i < n; i++)
      scales[i] = Scales_ofAmax(q.amax[i], q.to);
   free(q.amax);
   forEach(p, a, store, &q);
   return true;
}

typedef struct {
   const void *stored;
   const float *scales;
   double *out;
   Storage from;
} Dequantizing;

static void dequantOne(void *ctx, size_t s, size_t sc) {
   Dequantizing *d = ctx;
   d->out[s] = Storage_load(d->from, d->stored, s) * (double)d->scales[sc];
}

void Scales_dequantize(const Problem *p, bool a, const void *stored, const float *scales, double *out) {
   Dequantizing d = {.stored = stored, .scales = scales, .out = out, .from = Types_of(p->precision)->in};
   forEach(p, a, dequantOne, &d);
}

float *Scales_padded(const Problem *p, bool a, const float *scales, int gm, int gn, int gk, size_t *count) {
   size_t rows, cols;
   Scales_shape(p, a, &rows, &cols);
   size_t prow = rows, pcol = cols;
   if (p->scaling == SCALING_BLOCK) {
      prow = a ? (size_t)gm : blocks(gk);
      pcol = a ? blocks(gk) : blocks(gn);
   }
   float *out = malloc(prow * pcol * sizeof *out);
   if (!out)
      return NULL;
   for (size_t r = 0; r < prow; r++)
      for (size_t c = 0; c < pcol; c++)
         out[r * pcol + c] = r < rows && c < cols ? scales[r * cols + c] : 1.0f;
   *count = prow * pcol;
   return out;
}

void Scales_range(const Problem *p, bool a, const float *scales, double *lo, double *hi) {
   const size_t n = Scales_count(p, a);
   *lo = INFINITY;
   *hi = 0;
   for (size_t i = 0; i < n; i++) {
      *lo = fmin(*lo, scales[i]);
      *hi = fmax(*hi, scales[i]);
   }
}
