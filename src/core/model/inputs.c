#include "core/model/inputs.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdatomic.h>
#include <string.h>

#include "base/lowprec.h"
#include "base/parallel.h"
#include "base/philox.h"
#include "core/model/npy.h"
#include "core/model/scales.h"

static _Atomic unsigned long nextGeneration = 1;

/* ---- random inputs: a counter-based stream per matrix (base/philox.h) ---- */

/* The streams under an input seed: each matrix's values by stored index, and the FP8
 * operands' block magnitudes by block index. */
enum { STREAM_A = 1, STREAM_B = 2, STREAM_C0 = 3, STREAM_MAG_A = 4, STREAM_MAG_B = 5 };

/* Elements per piece of the parallel loops, and words made at a time. */
#define PIECE ((size_t)1 << 16)
#define WORDS 1024

/* A matrix being made: stored rows x cols of kind from stream, or (drawn set, dst NULL)
 * only the values before rounding, into op(S)'s logical row-major floats. The FP8 operands
 * multiply each value by its block's magnitude and divide it by its scale. */
typedef struct Gen_ {
   const Problem *p;
   uint64_t seed;
   uint32_t stream;
   Storage kind;
   void *dst;
   size_t cols;          /* stored */
   bool a, trans;        /* an operand: which, and stored transposed (op(S) (i, k) at (k, i)) */
   const float *mag;     /* FP8: the magnitudes of the blocked geometry's blocks */
   const float *scales;  /* FP8: the quantising scales (p's scaling), NULL in the amax pass */
   double *amax;         /* FP8's first pass: each block's largest magnitude (blocked geometry) */
   float *drawn;         /* op(S) as drawn, row-major (Inputs_drawn), or NULL */
   size_t lcols;         /* op(S)'s columns, for drawn */
} Gen;

/* The blocked geometry (SCALING_BLOCK whatever p's): where the FP8 magnitudes live. */
static Problem blockedOf(const Problem *p) {
   Problem b = *p;
   b.scaling = SCALING_BLOCK;
   return b;
}

/* op(S)'s row and column of stored (r, c). */
static void logicalOf(const Gen *g, size_t r, size_t c, size_t *lr, size_t *lc) {
   *lr = g->trans ? c : r;
   *lc = g->trans ? r : c;
}

static size_t magIndex(const Problem *blocked, bool a, size_t lr, size_t lc) {
   return a ? Scales_indexA(blocked, lr, lc) : Scales_indexB(blocked, lr, lc);
}

/* The magnitude of FP8 block b: 2^u, u uniform in [-4, 4). */
static float blockMagnitude(uint64_t seed, bool a, size_t b) {
   return (float)exp2(-4.0 + 8.0 * (double)Philox_unit24(Philox_word(seed, a ? STREAM_MAG_A : STREAM_MAG_B, b)));
}

/* Elements [s0, s0 + n) of a 16- or 32-bit kind (or FP8, a pass of it) from their words. */
static void narrowRun(Gen *g, size_t s0, size_t n, const uint32_t *w) {
   const Problem blocked = blockedOf(g->p);
   switch (g->kind) {
   case STORAGE_F32:
      for (size_t i = 0; i < n; i++)
         ((float *)g->dst)[s0 + i] = Philox_signed24(w[i]);
      return;
   case STORAGE_BF16:
      for (size_t i = 0; i < n; i++)
         ((uint16_t *)g->dst)[s0 + i] = LowPrec_bf16FromFloat(Philox_signed24(w[i]));
      return;
   case STORAGE_F16:
      for (size_t i = 0; i < n; i++)
         ((uint16_t *)g->dst)[s0 + i] = LowPrec_halfFromFloat(Philox_signed24(w[i]));
      return;
   default: /* FP8: the value times its block's magnitude; its amax, or quantised */
      for (size_t i = 0; i < n; i++) {
         size_t lr, lc;
         logicalOf(g, (s0 + i) / g->cols, (s0 + i) % g->cols, &lr, &lc);
         const float v = Philox_signed24(w[i]) * g->mag[magIndex(&blocked, g->a, lr, lc)];
         if (!g->scales) {
            double *m = &g->amax[magIndex(&blocked, g->a, lr, lc)];
            *m = fabs((double)v) > *m ? fabs((double)v) : *m;
         } else {
            const size_t sc = g->a ? Scales_indexA(g->p, lr, lc) : Scales_indexB(g->p, lr, lc);
            Storage_store(g->kind, g->dst, s0 + i, (double)v / (double)g->scales[sc]);
         }
      }
      return;
   }
}

/* Only the values drawn, at their logical places, as floats (Inputs_drawn). */
static void drawnRun(Gen *g, size_t s0, size_t n, const uint32_t *w, bool wide) {
   const Problem blocked = blockedOf(g->p);
   for (size_t i = 0; i < n; i++) {
      size_t lr, lc;
      logicalOf(g, (s0 + i) / g->cols, (s0 + i) % g->cols, &lr, &lc);
      float v = wide ? (float)Philox_signed53(w[2 * i], w[2 * i + 1]) : Philox_signed24(w[i]);
      if (g->mag)
         v *= g->mag[magIndex(&blocked, g->a, lr, lc)];
      g->drawn[lr * g->lcols + lc] = v;
   }
}

static void genPiece(void *ctx, size_t begin, size_t end) {
   Gen *g = ctx;
   uint32_t w[WORDS];
   const bool wide = Storage_size(g->kind) == sizeof(double); /* 53 bits from two words */
   const size_t per = wide ? WORDS / 2 : WORDS;
   for (size_t s0 = begin; s0 < end; s0 += per) {
      const size_t n = end - s0 < per ? end - s0 : per;
      Philox_words(g->seed, g->stream, wide ? 2 * (uint64_t)s0 : s0, wide ? 2 * n : n, w);
      if (g->drawn)
         drawnRun(g, s0, n, w, wide);
      else if (wide)
         for (size_t i = 0; i < n; i++)
            ((double *)g->dst)[s0 + i] = Philox_signed53(w[2 * i], w[2 * i + 1]);
      else
         narrowRun(g, s0, n, w);
   }
}

/* The FP8 amax pass, a band of SCALES_BLOCK stored rows at a time: every block's elements
 * lie in one band, so the bands' maxima are their own. */
static void amaxBands(void *ctx, size_t begin, size_t end) {
   Gen *g = ctx;
   const size_t first = begin * SCALES_BLOCK * g->cols, last = end * SCALES_BLOCK * g->cols;
   const size_t total = Problem_sizeA(g->p) * g->a + Problem_sizeB(g->p) * !g->a;
   genPiece(g, first, last < total ? last : total);
}

/* One operand (a) or C0 of p into dst, stored as p says; the FP8 operands with their
 * scales into *scales (malloc'ed). With drawn, only op(S)'s values before rounding. */
static bool generateMatrix(const Problem *p, uint64_t seed, int which, void *dst, float **scales, float *drawn) {
   const bool a = which == 0, operand = which < 2;
   const size_t count = which == 0 ? Problem_sizeA(p) : which == 1 ? Problem_sizeB(p) : Problem_sizeC(p);
   const size_t lrows = a ? (size_t)p->m : (size_t)p->k, lcols = a ? (size_t)p->k : (size_t)p->n;
   const bool trans = operand && (a ? p->trans_a : p->trans_b);
   Gen g = {.p = p, .seed = seed, .stream = which == 0 ? STREAM_A : which == 1 ? STREAM_B : STREAM_C0,
            .kind = operand ? Types_of(p->precision)->in : Types_of(p->precision)->out, .dst = dst,
            .cols = !operand ? (size_t)p->n : trans ? lrows : lcols, .a = a, .trans = trans, .drawn = drawn,
            .lcols = lcols};
   if (!operand || !Problem_scaled(p)) {
      Parallel_for(count, PIECE, genPiece, &g);
      return true;
   }
   const Problem blocked = blockedOf(p);
   const size_t nmag = Scales_count(&blocked, a), nscales = Scales_count(p, a);
   float *mag = malloc(nmag * sizeof *mag);
   double *amax = calloc(nmag, sizeof *amax);
   if (!mag || !amax || (!drawn && !(*scales = malloc(nscales * sizeof **scales)))) {
      free(mag);
      free(amax);
      return false;
   }
   for (size_t b = 0; b < nmag; b++)
      mag[b] = blockMagnitude(seed, a, b);
   g.mag = mag;
   if (drawn) {
      Parallel_for(count, PIECE, genPiece, &g);
   } else {
      /* Two passes, as Scales_quantize does it: each scaling block's amax, then every value
       * divided by its scale. Per tensor, the amax is the blocks' largest. */
      const size_t stored_rows = count / (g.cols ? g.cols : 1);
      g.amax = amax;
      Parallel_for((stored_rows + SCALES_BLOCK - 1) / SCALES_BLOCK, 1, amaxBands, &g);
      double all = 0;
      for (size_t b = 0; b < nmag; b++)
         all = amax[b] > all ? amax[b] : all;
      for (size_t i = 0; i < nscales; i++)
         (*scales)[i] = Scales_ofAmax(p->scaling == SCALING_BLOCK ? amax[i] : all, g.kind);
      g.scales = *scales;
      Parallel_for(count, PIECE, genPiece, &g);
   }
   free(mag);
   free(amax);
   return true;
}

bool Inputs_random(Inputs *in, const Problem *p, uint64_t seed) {
   memset(in, 0, sizeof *in);
   in->shape = *p;
   in->seed = seed;
   const size_t ies = Precision_inputSize(p->precision), es = Precision_size(p->precision);
   in->a = malloc(Problem_sizeA(p) * ies + 1);
   in->b = malloc(Problem_sizeB(p) * ies + 1);
   in->c0 = p->beta != 0.0 ? malloc(Problem_sizeC(p) * es + 1) : NULL;
   bool ok = in->a && in->b && (p->beta == 0.0 || in->c0) && generateMatrix(p, seed, 0, in->a, &in->sa, NULL) &&
             generateMatrix(p, seed, 1, in->b, &in->sb, NULL) &&
             (p->beta == 0.0 || generateMatrix(p, seed, 2, in->c0, NULL, NULL));
   if (!ok) {
      Inputs_free(in);
      return false;
   }
   in->generated = INPUTS_GEN_A | INPUTS_GEN_B | (in->c0 ? INPUTS_GEN_C0 : 0u);
   in->generation = nextGeneration++;
   return true;
}

bool Inputs_drawn(const Problem *p, uint64_t seed, float **A, float **B) {
   const size_t na = Problem_sizeA(p), nb = Problem_sizeB(p);
   *A = malloc((na ? na : 1) * sizeof **A);
   *B = malloc((nb ? nb : 1) * sizeof **B);
   if (*A && *B && generateMatrix(p, seed, 0, NULL, NULL, *A) && generateMatrix(p, seed, 1, NULL, NULL, *B))
      return true;
   free(*A);
   free(*B);
   *A = *B = NULL;
   return false;
}

/* The element of a generated operand at stored index s (logical row, col), from its words
 * (w1 for double's second): rounded to the stored type (quantised, for FP8) the general
 * way (Storage_store), not as the loops that made the matrix do it, then as multiplied. */
static double generatedAt(const Inputs *in, const Problem *p, bool a, size_t row, size_t col, uint32_t w0,
                          uint32_t w1) {
   const TypeTraits *t = Types_of(p->precision);
   const Storage kind = t->in;
   const float *scales = a ? in->sa : in->sb;
   const double scale = scales ? (double)scales[a ? Scales_indexA(p, row, col) : Scales_indexB(p, row, col)] : 1.0;
   double v;
   if (t->fp64) {
      v = Philox_signed53(w0, w1);
   } else if (Problem_scaled(p)) {
      const Problem blocked = blockedOf(p);
      v = (double)(Philox_signed24(w0) * blockMagnitude(in->seed, a, magIndex(&blocked, a, row, col))) / scale;
   } else {
      v = Philox_signed24(w0);
   }
   unsigned char one[8];
   Storage_store(kind, one, 0, v);
   return Storage_load(kind, one, 0) * scale;
}

static double storedAt(const Inputs *in, const Problem *p, bool a, size_t row, size_t col) {
   const float *scales = a ? in->sa : in->sb;
   const size_t s = a ? Scales_storedA(p, row, col) : Scales_storedB(p, row, col);
   const double scale = scales ? (double)scales[a ? Scales_indexA(p, row, col) : Scales_indexB(p, row, col)] : 1.0;
   return Storage_load(Types_of(p->precision)->in, a ? in->a : in->b, s) * scale;
}

double Inputs_operandAt(const Inputs *in, const Problem *p, bool a, size_t row, size_t col) {
   if (!(in->generated & (a ? INPUTS_GEN_A : INPUTS_GEN_B)))
      return storedAt(in, p, a, row, col);
   const uint32_t stream = a ? STREAM_A : STREAM_B;
   const uint64_t s = a ? Scales_storedA(p, row, col) : Scales_storedB(p, row, col);
   if (Types_of(p->precision)->fp64)
      return generatedAt(in, p, a, row, col, Philox_word(in->seed, stream, 2 * s), Philox_word(in->seed, stream, 2 * s + 1));
   return generatedAt(in, p, a, row, col, Philox_word(in->seed, stream, s), 0);
}

void Inputs_operandLine(const Inputs *in, const Problem *p, bool a, size_t index, double *out) {
   const size_t K = (size_t)p->k;
   const bool trans = a ? p->trans_a : p->trans_b;
   /* Contiguous when stored as op(A) (a row of A) or transposed (a column of op(B)). */
   const bool contiguous = a ? !trans : trans;
   if (!(in->generated & (a ? INPUTS_GEN_A : INPUTS_GEN_B)) || !contiguous) {
      for (size_t k = 0; k < K; k++)
         out[k] = Inputs_operandAt(in, p, a, a ? index : k, a ? k : index);
      return;
   }
   const bool wide = Types_of(p->precision)->fp64;
   const uint32_t stream = a ? STREAM_A : STREAM_B;
   uint32_t w[WORDS];
   const size_t per = wide ? WORDS / 2 : WORDS, first = index * K;
   for (size_t k0 = 0; k0 < K; k0 += per) {
      const size_t n = K - k0 < per ? K - k0 : per;
      Philox_words(in->seed, stream, wide ? 2 * (uint64_t)(first + k0) : first + k0, wide ? 2 * n : n, w);
      for (size_t i = 0; i < n; i++) {
         const size_t k = k0 + i;
         out[k] = generatedAt(in, p, a, a ? index : k, a ? k : index, wide ? w[2 * i] : w[i], wide ? w[2 * i + 1] : 0);
      }
   }
}


bool Inputs_fit(const Inputs *in, const Problem *p) {
   const Problem *s = &in->shape;
   return in->a && s->m == p->m && s->n == p->n && s->k == p->k && s->precision == p->precision &&
          s->trans_a == p->trans_a && s->trans_b == p->trans_b && (s->beta != 0.0) == (p->beta != 0.0) &&
          (!Problem_scaled(p) || s->scaling == p->scaling);
}

static const char *npyTypeName(const NpyArray *a) {
   return a->is_bytes ? "uint8" : a->is_half ? "float16" : a->is_double ? "float64" : "float32";
}

/* A or B of half or bfloat16 from any .npy float type: float16 kept as it is for half,
 * everything else rounded to nearest even, and the note says how many values changed. A
 * finite value too large for the type is refused rather than turned into infinity. */
static bool roundOperand(NpyArray *arr, const char *what, const char *path, Precision prec, char *note, size_t notelen,
                         char *err, size_t errlen) {
   const Storage to = Types_of(prec)->in;
   const bool half = !strcmp(Storage_npyName(to), "float16"); /* the one 16-bit type .npy has */
   if (half && arr->is_half)
      return true;
   size_t count = arr->shape[0] * arr->shape[1], changed = 0;
   uint16_t *bits = malloc(count ? count * sizeof *bits : 1);
   if (!bits) {
      snprintf(err, errlen, "--%s %s: out of memory converting", what, path);
      return false;
   }
   for (size_t i = 0; i < count; i++) {
      double v = NpyArray_at(arr, i);
      Storage_store(to, bits, i, v);
      double back = Storage_load(to, bits, i);
      if (isfinite(v) && !isfinite(back)) {
         snprintf(err, errlen, "--%s %s: element %zu (%g) is too large for %s (largest finite value %s)", what, path, i,
                  v, Precision_name(prec), Storage_maxText(to));
         free(bits);
         return false;
      }
      changed += back != v && !(isnan(v) && isnan(back));
   }
   size_t used = strlen(note);
   snprintf(note + used, notelen - used, "%s--%s %s: %s values rounded to %s (round to nearest even%s%s%s): %zu of %zu changed",
            used ? "; " : "", what, path, npyTypeName(arr), Precision_name(prec), half ? "" : "; .npy has no ",
            half ? "" : Precision_name(prec), half ? "" : " type", changed, count);
   free(arr->data);
   arr->data = bits;
   arr->is_half = half;
   arr->is_double = false;
   return true;
}

/* Before a float64 file is read as FP32 (float, tf32, or C of the 16-bit types): says how
 * many values round, and refuses one that does not fit. */
static bool narrowToFloat(const NpyArray *arr, const char *what, const char *path, Precision prec, char *note,
                          size_t notelen, char *err, size_t errlen) {
   const double *v = arr->data;
   size_t count = arr->shape[0] * arr->shape[1], changed = 0;
   for (size_t i = 0; i < count; i++) {
      if (isfinite(v[i]) && fabs(v[i]) > FLT_MAX) {
         snprintf(err, errlen,
                  "--%s %s: element (%zu, %zu) = %.17g does not fit in float (largest %.9g); use --precision double",
                  what, path, i / arr->shape[1], i % arr->shape[1], v[i], FLT_MAX);
         return false;
      }
      changed += (double)(float)v[i] != v[i] && !isnan(v[i]);
   }
   size_t used = strlen(note);
   snprintf(note + used, notelen - used, "%s--%s %s: float64 values read as float (--precision %s): %s", used ? "; " : "",
            what, path, Precision_name(prec), changed ? "" : "every value fits exactly");
   used = strlen(note);
   if (changed)
      snprintf(note + used, notelen - used, "%zu of %zu rounded", changed, count);
   return true;
}

/* gemmtop checks results against finite inputs: a NaN or an infinity in an operand would
 * make every product it meets non-finite, and the verification blame the kernel. */
static bool checkFinite(const NpyArray *arr, const char *what, const char *path, char *err, size_t errlen) {
   for (size_t i = 0; i < arr->shape[0] * arr->shape[1]; i++) {
      double v = NpyArray_at(arr, i);
      if (!isfinite(v)) {
         snprintf(err, errlen, "--%s %s: element (%zu, %zu) is %s; gemmtop multiplies and verifies finite values only",
                  what, path, i / arr->shape[1], i % arr->shape[1], isnan(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
         return false;
      }
   }
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
   if (arr.is_bytes) {
      snprintf(err, errlen, "--%s %s: uint8 values are read as FP8 patterns, for --precision e4m3 or e5m2 (with "
               "--%s-scale); for %s give float16, float32 or float64", what, path, what, Precision_name(prec));
      NpyArray_free(&arr);
      return false;
   }
   bool to16 = operand && Precision_is16(prec);
   const bool dbl = Types_of(prec)->fp64;
   if (!checkFinite(&arr, what, path, err, errlen) ||
       (arr.is_double && !dbl && !to16 &&
        !narrowToFloat(&arr, what, path, prec, note, notelen, err, errlen))) {
      NpyArray_free(&arr);
      return false;
   }
   if (to16) {
      if (!roundOperand(&arr, what, path, prec, note, notelen, err, errlen)) {
         NpyArray_free(&arr);
         return false;
      }
   } else if (!NpyArray_convert(&arr, dbl)) {
      snprintf(err, errlen, "--%s %s: out of memory converting", what, path);
      NpyArray_free(&arr);
      return false;
   }
   free(*slot);
   *slot = arr.data;
   return true;
}

static double npyAt(const void *src, size_t i) { return NpyArray_at(src, i); }

/* The scales of a --a-scale or --b-scale file into scales (FP32, what kernels read): each a
 * positive, normal float32. A scale beyond float32 would be infinite; a subnormal one (or
 * one that rounds to a subnormal) leaves the values it scales with fewer digits than FP32
 * keeps, or none where a GPU flushes them to zero, and the check would then blame the
 * kernel. float64 scales are rounded to float32, which the note says. */
static bool takeScales(const NpyArray *sc, const char *what, const char *path, float *scales, char *note, size_t notelen,
                       char *err, size_t errlen) {
   const size_t rows = sc->shape[0], cols = sc->shape[1];
   size_t changed = 0;
   double worst = 0; /* the largest rounding, relative to the scale */
   for (size_t i = 0; i < rows * cols; i++) {
      const double v = NpyArray_at(sc, i);
      const float f = (float)v;
      if (!isfinite(v) || !(v > 0))
         snprintf(err, errlen, "--%s-scale %s: element (%zu, %zu) is %g; a scale must be a finite positive float32",
                  what, path, i / cols, i % cols, v);
      else if (!isfinite(f))
         snprintf(err, errlen, "--%s-scale %s: element (%zu, %zu) is %g, beyond float32's largest value (%.3g): scales "
                  "are float32, which it overflows; scale the operands down", what, path, i / cols,
                  i % cols, v, FLT_MAX);
      else if (f < FLT_MIN)
         snprintf(err, errlen, "--%s-scale %s: element (%zu, %zu) is %g, below float32's smallest normal value (%.3g): "
                  "the values it scales would keep fewer digits than FP32 has (a GPU may flush them to zero); scale the "
                  "operands up", what, path, i / cols, i % cols, v, FLT_MIN);
      else {
         scales[i] = f;
         if ((double)f != v) {
            changed++;
            worst = fmax(worst, fabs((double)f - v) / v);
         }
         continue;
      }
      return false;
   }
   if (sc->is_double) {
      size_t used = strlen(note);
      snprintf(note + used, notelen - used, "%s--%s-scale %s: float64 scales read as float32, the type kernels take: ",
               used ? "; " : "", what, path);
      used = strlen(note);
      if (changed)
         snprintf(note + used, notelen - used, "%zu of %zu rounded, by at most %.2g of their value", changed,
                  rows * cols, worst);
      else
         snprintf(note + used, notelen - used, "every scale fits exactly");
   }
   return true;
}

/* A or B of an FP8 type: FP8 patterns (uint8) with their scales from scale_path, or float
 * values quantised here (amax per block, scales.h), which the note says. */
static bool loadScaled(const Problem *p, bool a, const char *path, const char *scale_path, Inputs *in, char *err,
                       size_t errlen) {
   const char *what = a ? "a" : "b";
   const bool trans = a ? p->trans_a : p->trans_b;
   const size_t outer = a ? (size_t)p->m : (size_t)p->n, inner = (size_t)p->k;
   const size_t rows = a ? (trans ? inner : outer) : (trans ? outer : inner);
   const size_t cols = a ? (trans ? outer : inner) : (trans ? inner : outer);
   const Storage st = Types_of(p->precision)->in;
   NpyArray arr, sc = {0};
   char msg[512];
   if (!Npy_read(path, &arr, msg, sizeof msg)) {
      snprintf(err, errlen, "--%s: %s", what, msg);
      return false;
   }
   bool ok = false;
   size_t srows, scols;
   Scales_shape(p, a, &srows, &scols);
   void **slot = a ? &in->a : &in->b;
   float **sslot = a ? &in->sa : &in->sb;
   float *scales = malloc(srows * scols * sizeof *scales);
   if (arr.shape[0] != rows || arr.shape[1] != cols)
      snprintf(err, errlen, "--%s %s: shape (%zu, %zu) does not fit the problem, which needs (%zu, %zu) for %s%s", what,
               path, arr.shape[0], arr.shape[1], rows, cols, a ? "A" : "B", trans ? " stored transposed" : "");
   else if (!scales)
      snprintf(err, errlen, "--%s %s: out of memory", what, path);
   else if (arr.is_bytes && !scale_path)
      snprintf(err, errlen, "--%s %s holds FP8 patterns (uint8): their scales are needed too, --%s-scale FILE.npy of "
               "shape (%zu, %zu) (%s scaling)", what, path, what, srows, scols, Scaling_name(p->scaling));
   else if (!arr.is_bytes && scale_path)
      snprintf(err, errlen, "--%s-scale is for FP8 patterns (a uint8 .npy); --%s %s holds %s values, which gemmtop "
               "quantises with scales of its own", what, what, path, npyTypeName(&arr));
   else if (arr.is_bytes) {
      ok = true;
      for (size_t i = 0; ok && i < rows * cols; i++) {
         const double v = Storage_load(st, arr.data, i);
         if (!isfinite(v)) {
            snprintf(err, errlen, "--%s %s: element (%zu, %zu) is the pattern 0x%02x, %s in %s; gemmtop multiplies "
                     "finite values only", what, path, i / cols, i % cols, ((uint8_t *)arr.data)[i],
                     isnan(v) ? "NaN" : "an infinity", Precision_name(p->precision));
            ok = false;
         }
      }
      if (ok && !Npy_read(scale_path, &sc, msg, sizeof msg)) {
         snprintf(err, errlen, "--%s-scale: %s", what, msg);
         ok = false;
      } else if (ok && (sc.shape[0] != srows || sc.shape[1] != scols || sc.is_bytes)) {
         snprintf(err, errlen, "--%s-scale %s: %s (%zu, %zu) does not fit: %s scaling of this problem needs float32 "
                  "of shape (%zu, %zu)", what, scale_path, npyTypeName(&sc), sc.shape[0], sc.shape[1],
                  Scaling_name(p->scaling), srows, scols);
         ok = false;
      }
      ok = ok && takeScales(&sc, what, scale_path, scales, in->note, sizeof in->note, err, errlen);
      if (ok) {
         free(*slot);
         *slot = arr.data;
         arr.data = NULL;
      }
   } else if (checkFinite(&arr, what, path, err, errlen)) {
      uint8_t *q = malloc(rows * cols > 0 ? rows * cols : 1);
      ok = q && Scales_quantize(p, a, npyAt, &arr, q, scales);
      if (!ok) {
         free(q);
         snprintf(err, errlen, "--%s %s: out of memory quantising", what, path);
      } else {
         free(*slot);
         *slot = q;
         size_t used = strlen(in->note);
         snprintf(in->note + used, sizeof in->note - used, "%s--%s %s: %s values quantised to %s with %s scales (the "
                  "largest magnitude of each block mapped to %s, round to nearest even)", used ? "; " : "", what, path,
                  npyTypeName(&arr), Precision_name(p->precision), Scaling_name(p->scaling), Storage_maxText(st));
      }
   }
   if (ok) {
      free(*sslot);
      *sslot = scales;
   } else
      free(scales);
   NpyArray_free(&arr);
   NpyArray_free(&sc);
   return ok;
}

bool Inputs_loadNpy(Inputs *in, const Problem *p, const char *a_path, const char *b_path, const char *c_path, char *err,
                    size_t errlen) {
   return Inputs_loadFiles(in, p, &(InputFiles){.a = a_path, .b = b_path, .c = c_path}, err, errlen);
}

bool Inputs_loadFiles(Inputs *in, const Problem *p, const InputFiles *files, char *err, size_t errlen) {
   const char *a_path = files->a, *b_path = files->b, *c_path = files->c;
   in->note[0] = '\0';
   if ((files->a_scale || files->b_scale) && !Problem_scaled(p)) {
      snprintf(err, errlen, "--%s-scale is for the FP8 types (--precision e4m3 or e5m2), not %s",
               files->a_scale ? "a" : "b", Precision_name(p->precision));
      return false;
   }
   if ((files->a_scale && !a_path) || (files->b_scale && !b_path)) {
      snprintf(err, errlen, "--%s-scale FILE gives the scales of FP8 values read with --%s: give --%s too",
               files->a_scale && !a_path ? "a" : "b", files->a_scale && !a_path ? "a" : "b",
               files->a_scale && !a_path ? "a" : "b");
      return false;
   }
   /* What is read from a file is no longer the generator's. */
   in->generated &= ~((a_path ? INPUTS_GEN_A : 0u) | (b_path ? INPUTS_GEN_B : 0u) | (c_path ? INPUTS_GEN_C0 : 0u));
   if (Problem_scaled(p)) {
      if ((a_path && !loadScaled(p, true, a_path, files->a_scale, in, err, errlen)) ||
          (b_path && !loadScaled(p, false, b_path, files->b_scale, in, err, errlen)))
         return false;
      a_path = b_path = NULL; /* read */
   }
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

/* |element i| of a matrix stored as kind. */
static double magnitude(const void *m, size_t i, Storage kind) { return fabs(Storage_load(kind, m, i)); }

/* Column maxima of a rows x cols operand (along_rows false: over each column) or row
 * maxima (true). */
static void maxima(const void *m, size_t rows, size_t cols, Storage kind, bool along_rows, double *out) {
   for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < cols; c++) {
         double v = magnitude(m, r * cols + c, kind);
         size_t slot = along_rows ? r : c;
         if (v > out[slot])
            out[slot] = v;
      }
}

/* max over i of sum_k |op(S)_ik| w_k, where op(S) is S (rows x cols, k along the columns)
 * or its transpose (k along the rows). */
static double weightedMax(const void *m, size_t rows, size_t cols, Storage kind, bool k_along_cols, const double *w,
                          double *scratch, size_t nout) {
   for (size_t i = 0; i < nout; i++)
      scratch[i] = 0;
   for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < cols; c++) {
         double v = magnitude(m, r * cols + c, kind);
         if (k_along_cols)
            scratch[r] += v * w[c];
         else
            scratch[c] += v * w[r];
      }
   double best = 0;
   for (size_t i = 0; i < nout; i++)
      if (scratch[i] > best)
         best = scratch[i];
   return best;
}

bool Inputs_checkRange(const Inputs *in, const Problem *p, char *err, size_t errlen) {
   const bool dbl = Types_of(p->precision)->fp64;
   const size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
   const double big = dbl ? DBL_MAX : FLT_MAX; /* the accumulation's and C's */
   const char *type = dbl ? "double" : "float";
   double alpha = fabs(dbl ? p->alpha : (double)(float)p->alpha), beta = fabs(dbl ? p->beta : (double)(float)p->beta);
   double *amax = calloc(K + 1, sizeof *amax), *bmax = calloc(K + 1, sizeof *bmax);
   double *scratch = calloc((M > N ? M : N) + 1, sizeof *scratch);
   /* The values multiplied: for the FP8 types each stored value times its scale. */
   const bool scaled = Problem_scaled(p);
   double *sa = NULL, *sb = NULL;
   const Storage kind = scaled ? STORAGE_F64 : Types_of(p->precision)->in;
   bool ok = amax && bmax && scratch && (!scaled || Inputs_scaledValues(in, p, &sa, &sb));
   if (!ok)
      snprintf(err, errlen, "out of host memory checking the inputs");
   const void *A = scaled ? (const void *)sa : in->a, *B = scaled ? (const void *)sb : in->b;
   const char *instead = dbl || scaled ? "" : " or use --precision double";
   /* max_i |a_ik| and max_j |b_kj| for each k: a product overflows exactly when one of
    * theirs does. */
   if (ok) {
      maxima(A, p->trans_a ? K : M, p->trans_a ? M : K, kind, p->trans_a, amax);
      maxima(B, p->trans_b ? N : K, p->trans_b ? K : N, kind, !p->trans_b, bmax);
   }
   for (size_t k = 0; ok && k < K; k++)
      if (amax[k] * bmax[k] > big) {
         snprintf(err, errlen, "the inputs overflow %s: products a(i,%zu)*b(%zu,j) reach %.3g, beyond its largest value "
                  "%.3g; scale them down%s", type, k, k, amax[k] * bmax[k], big, instead);
         ok = false;
      }
   /* The other end: products so small that FP32's underflow (FP64's for double) can move
    * C by more than the check allows. A product or a partial sum below the smallest normal
    * value loses up to that much (a GPU flushing to zero: all of it), K products and K sums
    * 2 K of them; an entry's tolerance is at least 8 eps sqrt(K) |alpha| max_k |a_ik b_kj|
    * (verify.h). When not even the largest product reaches sqrt(K) small / (4 eps), no entry
    * can be checked: refused rather than every entry blamed on the kernel. */
   if (ok) {
      const double small = dbl ? DBL_MIN : FLT_MIN, eps = Storage_epsilon(Types_of(p->precision)->out);
      const double need = sqrt((double)(K > 0 ? K : 1)) * small / (4 * eps);
      double largest = 0;
      for (size_t k = 0; k < K; k++)
         largest = fmax(largest, alpha * amax[k] * bmax[k]);
      if (largest > 0 && largest < need) {
         snprintf(err, errlen, "the inputs underflow %s: |alpha| |a(i,k) b(k,j)| reach at most %.3g, and with K=%zu the "
                  "check needs products of %.3g to tell rounding below its smallest normal value (%.3g; a GPU may "
                  "flush such values to zero) from a kernel's error; scale them up", type, largest, K, need, small);
         ok = false;
      }
   }
   /* Every partial sum of C's entries is at most sum_k |a_ik| |b_kj|, which is bounded
    * from A's rows and from B's columns. */
   if (ok) {
      double rows = weightedMax(A, p->trans_a ? K : M, p->trans_a ? M : K, kind, !p->trans_a, bmax, scratch, M);
      double cols = weightedMax(B, p->trans_b ? N : K, p->trans_b ? K : N, kind, p->trans_b, amax, scratch, N);
      double c0 = 0;
      for (size_t i = 0; beta != 0 && in->c0 && i < M * N; i++)
         c0 = fmax(c0, magnitude(in->c0, i, Types_of(p->precision)->out));
      double bound = alpha * fmin(rows, cols) + beta * c0;
      if (!(bound <= big / 2)) {
         snprintf(err, errlen, "the inputs can overflow %s: |alpha| sum_k |a_ik b_kj| + |beta| |c0_ij| can reach %.3g, "
                  "beyond half its largest value (%.3g); scale them down%s", type, bound, big, instead);
         ok = false;
      }
   }
   free(sa);
   free(sb);
   free(amax);
   free(bmax);
   free(scratch);
   return ok;
}

bool Inputs_scaledValues(const Inputs *in, const Problem *p, double **A, double **B) {
   *A = in->sa && in->sb ? malloc((Problem_sizeA(p) + 1) * sizeof **A) : NULL;
   *B = *A ? malloc((Problem_sizeB(p) + 1) * sizeof **B) : NULL;
   if (!*B) {
      free(*A);
      *A = NULL;
      return false;
   }
   Scales_dequantize(p, true, in->a, in->sa, *A);
   Scales_dequantize(p, false, in->b, in->sb, *B);
   return true;
}

/* Element s of a stored operand as the logical one holds it: for quantising in p's layout. */
typedef struct {
   const Problem *p;
   const float *logical;
   bool a;
} Relaid;

static double relaidAt(const void *src, size_t s) {
   const Relaid *r = src;
   const Problem *p = r->p;
   const bool trans = r->a ? p->trans_a : p->trans_b;
   const size_t rows = r->a ? (size_t)p->m : (size_t)p->k, cols = r->a ? (size_t)p->k : (size_t)p->n;
   const size_t i = trans ? s % rows : s / cols, j = trans ? s / rows : s % cols;
   return (double)r->logical[i * cols + j];
}

bool Inputs_fromValues(Inputs *in, const Problem *p, const float *A, const float *B, uint64_t seed) {
   memset(in, 0, sizeof *in);
   in->shape = *p;
   in->seed = seed;
   in->generation = nextGeneration++;
   for (int a = 1; a >= 0; a--) {
      const size_t count = a ? Problem_sizeA(p) : Problem_sizeB(p);
      const Relaid r = {.p = p, .logical = a ? A : B, .a = a};
      void *stored = malloc((count ? count : 1) * Precision_inputSize(p->precision));
      float *scales = Problem_scaled(p) ? malloc(Scales_count(p, a) * sizeof *scales) : NULL;
      *(a ? &in->a : &in->b) = stored;
      *(a ? &in->sa : &in->sb) = scales;
      if (!stored || (Problem_scaled(p) && !scales)) {
         Inputs_free(in);
         return false;
      }
      if (Problem_scaled(p) && !Scales_quantize(p, a, relaidAt, &r, stored, scales)) {
         Inputs_free(in);
         return false;
      }
      for (size_t s = 0; !Problem_scaled(p) && s < count; s++)
         Storage_store(Types_of(p->precision)->in, stored, s, relaidAt(&r, s));
   }
   return true;
}

void Inputs_free(Inputs *in) {
   free(in->a);
   free(in->b);
   free(in->c0);
   free(in->sa);
   free(in->sb);
   in->a = in->b = in->c0 = NULL;
   in->sa = in->sb = NULL;
}
