/* GEMM verification on the host: a non-finite scan of C, Freivalds' test from both sides,
 * and exactly computed sample entries.  See verify.h.
 *
 * Speed: each pass over a matrix is one loop spread over every core (base/parallel.h),
 * its rows (or bands of its columns) converted to doubles a segment at a time and summed
 * in compensated (Kahan) double sums, in lanes the compiler can vectorise. The pieces
 * and the order of every sum depend only on the matrix's shape, so the result is the
 * same bit for bit on any number of threads. FP8 operands are read as stored, each
 * element times its scale (exact in double), never expanded into a copy. */
#include "core/run/verify.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/lowprec.h"
#include "base/parallel.h"
#include "base/rng.h"
#include "core/model/scales.h"

/* Extra sample entries taken along each edge (first/last row, first/last column), and at
 * random positions; every entry is checked when C has at most ALL_SAMPLES_MAX of them. */
#define EDGE_SAMPLES 4
#define RANDOM_SAMPLES 256
#define ALL_SAMPLES_MAX 4096

/* An unwritten element's bits (Verify_poison), by the element's width: signalling NaNs
 * (the quiet bit clear), which no arithmetic returns; a kernel that reads one makes it
 * quiet. The double's is the float word twice over, so that a device fills C with it as
 * 32-bit words (Verify_poisonWord). */
#define POISON_F32 UINT32_C(0x7fb0cafe)
#define POISON_F64_WORD UINT32_C(0x7ff6cafe)
#define POISON_F64 ((uint64_t)POISON_F64_WORD << 32 | POISON_F64_WORD)

uint32_t Verify_poisonWord(Storage kind) { return Storage_size(kind) == sizeof(uint64_t) ? POISON_F64_WORD : POISON_F32; }

void Verify_poison(void *C, size_t count, Storage kind) {
   for (size_t i = 0; i < count; i++)
      if (Storage_size(kind) == sizeof(uint64_t))
         memcpy((char *)C + i * sizeof(uint64_t), &(uint64_t){POISON_F64}, sizeof(uint64_t));
      else
         memcpy((char *)C + i * sizeof(uint32_t), &(uint32_t){POISON_F32}, sizeof(uint32_t));
}

/* Whether element i of C still holds the poison: its bits compared, since converting a
 * signalling NaN to double would quieten it. */
static bool isPoison(const void *C, size_t i, Storage kind) {
   if (Storage_size(kind) == sizeof(uint64_t)) {
      uint64_t b;
      memcpy(&b, (const char *)C + i * sizeof b, sizeof b);
      return b == POISON_F64;
   }
   uint32_t b;
   memcpy(&b, (const char *)C + i * sizeof b, sizeof b);
   return b == POISON_F32;
}

/* The accumulation's (and C's) epsilon: FP32 for every type but double. */
static double precisionEps(Precision p) { return Storage_epsilon(Types_of(p)->out); }

/* Far above rounding (verify.h), far below one term of the sum. */
#define SAMPLE_TOLERANCE_EPS 8.0
/* The error of this check's own Freivalds sums, in double's epsilons of the magnitudes
 * summed: a product's rounding and Kahan's 2u in each of the two chained products
 * (A (B x)), and the combination with alpha, beta and C0 x; generous. */
#define PASS_ERROR_EPS 6.0

/* For tf32 the inputs' cut to TF32 adds up to 2^-9 of sum |p|, which the samples' scale
 * (at least sum |p|) and Freivalds' magnitude both bound. */
double Verify_tolerance(const Problem *p) {
   return SAMPLE_TOLERANCE_EPS * precisionEps(p->precision) + Types_of(p->precision)->product_error;
}

double Verify_freivaldsTolerance(const Problem *p) {
   double k = p->k > 0 ? (double)p->k : 0.0;
   double f = 4.0 * sqrt(k);
   if (f < 32.0)
      f = 32.0;
   return f * precisionEps(p->precision) + Types_of(p->precision)->product_error;
}

static int cmpSize(const void *a, const void *b) {
   size_t x = *(const size_t *)a, y = *(const size_t *)b;
   return x < y ? -1 : x > y;
}

/* Fills idx with sorted, distinct linear indices into C; returns their count. idx must
 * hold ALL_SAMPLES_MAX entries (more than the corner/edge/random count). */
static size_t pickSamples(size_t M, size_t N, Rng *rng, size_t *idx) {
   size_t total = M * N, n = 0;
   if (total <= ALL_SAMPLES_MAX) {
      for (size_t i = 0; i < total; i++)
         idx[n++] = i;
      return n;
   }
   idx[n++] = 0;
   idx[n++] = N - 1;
   idx[n++] = (M - 1) * N;
   idx[n++] = (M - 1) * N + N - 1;
   for (int e = 0; e < EDGE_SAMPLES; e++) {
      size_t j = (size_t)Rng_below(rng, N), i = (size_t)Rng_below(rng, M);
      idx[n++] = j;                 /* first row */
      idx[n++] = (M - 1) * N + j;   /* last row */
      idx[n++] = i * N;             /* first column */
      idx[n++] = i * N + N - 1;     /* last column */
   }
   for (int s = 0; s < RANDOM_SAMPLES; s++)
      idx[n++] = (size_t)Rng_below(rng, total);
   qsort(idx, n, sizeof *idx, cmpSize);
   size_t u = 0;
   for (size_t i = 0; i < n; i++)
      if (u == 0 || idx[i] != idx[u - 1])
         idx[u++] = idx[i];
   return u;
}

static void fail(VerifyResult *out, const char *msg) {
   out->ok = false;
   snprintf(out->message, sizeof out->message, "%s", msg);
}

static int compareDouble(const void *a, const void *b) {
   double x = *(const double *)a, y = *(const double *)b;
   return (x > y) - (x < y);
}

/* Isolated wrong elements hide under the worst-case bounds, which grow with the row's
 * length. The residuals of a correct result are rounding noise of one size in every row;
 * a residual that stands 64 times above the median, and above floor[i] (what one element
 * within the tolerance, or the rounding of the whole row, can give), carries an error.
 * Returns how many stand out and the worst ratio to its threshold. Needs 16 rows. */
static size_t outliers(const double *res, const double *floor, size_t n, size_t *worst, double *worst_ratio) {
   *worst_ratio = 0;
   *worst = 0;
   if (n < 16)
      return 0;
   double *sorted = malloc(n * sizeof *sorted);
   if (!sorted)
      return 0;
   memcpy(sorted, res, n * sizeof *sorted);
   qsort(sorted, n, sizeof *sorted, compareDouble);
   double median = sorted[n / 2];
   free(sorted);
   size_t over = 0;
   for (size_t i = 0; i < n; i++) {
      double threshold = 64 * median > floor[i] ? 64 * median : floor[i];
      if (!(threshold > 0))
         continue;
      double r = res[i] / threshold;
      if (r > 1.0)
         over++;
      if (r > *worst_ratio) {
         *worst_ratio = r;
         *worst = i;
      }
   }
   return over;
}

static double ratioOf(double residual, double bound) {
   if (isnan(residual) || isnan(bound))
      return INFINITY;
   if (residual == 0)
      return 0.0;
   if (!(bound > 0))
      return INFINITY;
   return residual / bound;
}

/* ---- matrices as the passes read them ---- */

/* A matrix as stored: rows x cols, row-major, of kind. For an FP8 operand each element is
 * multiplied by its scale, found through the logical position: op(A)[i][k] or op(B)[k][j]
 * is stored at (i, k) or (k, i) transposed. */
typedef struct Mat_ {
   const void *data;
   Storage kind;
   size_t rows, cols;
   const float *scales;  /* NULL: the values as stored */
   const Problem *p;     /* with scales: the scaling and sizes */
   bool a, trans;        /* with scales: which operand, and whether stored transposed */
   float fp8[256];       /* the FP8 kinds: every pattern's value */
} Mat;

static void Mat_init(Mat *m, const void *data, Storage kind, size_t rows, size_t cols) {
   memset(m, 0, sizeof *m);
   m->data = data;
   m->kind = kind;
   m->rows = rows;
   m->cols = cols;
   if (Storage_size(kind) == 1)
      for (int b = 0; b < 256; b++) {
         const uint8_t byte = (uint8_t)b;
         m->fp8[b] = (float)Storage_load(kind, &byte, 0);
      }
}

/* An operand of p (a: A, else B) as stored, with its scales (NULL: none). */
static void Mat_operand(Mat *m, const Problem *p, bool a, const void *data, Storage kind, const float *scales) {
   const size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
   const bool trans = a ? p->trans_a : p->trans_b;
   const size_t lrows = a ? M : K, lcols = a ? K : N;
   Mat_init(m, data, kind, trans ? lcols : lrows, trans ? lrows : lcols);
   m->scales = scales;
   m->p = p;
   m->a = a;
   m->trans = trans;
}

static size_t scaleIndex(const Mat *m, size_t r, size_t c) {
   const size_t lr = m->trans ? c : r, lc = m->trans ? r : c;
   return m->a ? Scales_indexA(m->p, lr, lc) : Scales_indexB(m->p, lr, lc);
}

/* Stored row r, columns [c0, c0 + n), as doubles into out. */
static void loadRow(const Mat *m, size_t r, size_t c0, size_t n, double *out) {
   const size_t base = r * m->cols + c0;
   switch (m->kind) {
   case STORAGE_F64:
      memcpy(out, (const double *)m->data + base, n * sizeof *out);
      break;
   case STORAGE_F16: {
      const uint16_t *s = (const uint16_t *)m->data + base;
      for (size_t i = 0; i < n; i++)
         out[i] = LowPrec_halfToFloat(s[i]);
      break;
   }
   case STORAGE_BF16: {
      const uint16_t *s = (const uint16_t *)m->data + base;
      for (size_t i = 0; i < n; i++)
         out[i] = LowPrec_bf16ToFloat(s[i]);
      break;
   }
   case STORAGE_E4M3:
   case STORAGE_E5M2: {
      const uint8_t *s = (const uint8_t *)m->data + base;
      for (size_t i = 0; i < n; i++)
         out[i] = m->fp8[s[i]];
      break;
   }
   default: {
      const float *s = (const float *)m->data + base;
      for (size_t i = 0; i < n; i++)
         out[i] = s[i];
      break;
   }
   }
   if (m->scales) /* FP8 times FP32 needs 4 + 24 bits: exact */
      for (size_t i = 0; i < n; i++)
         out[i] *= (double)m->scales[scaleIndex(m, r, c0 + i)];
}

/* ---- the passes ----
 * A row pass sums along each stored row with a vector over the columns:
 *    out[r] = sum_c S[r][c] v[c], absout[r] = sum_c |S[r][c]| absv[c],
 *    sq[r] = sum_c S[r][c]^2, mx[r] = max_c |S[r][c]| absv[c];
 * a column pass down each column with a vector over the rows. Signed sums are Kahan's,
 * the others plain (they only scale bounds). Rows go a SEGMENT at a time through a buffer
 * of doubles; a row's sum runs in LANES interleaved sums (lane = column mod LANES), joined
 * in lane order: an order fixed by the shape alone. */
#define SEGMENT 1024 /* a multiple of LANES */
#define LANES 4
#define BAND 256     /* the columns one piece of a column pass sums */

/* Non-finite elements of a piece of C's rows: NaN, infinities, the NaN still poisoned
 * (unwritten), the first one's index. */
typedef struct NonFiniteCount_ {
   size_t nan, inf, unwritten, first;
} NonFiniteCount;

typedef struct Pass_ {
   const Mat *m;
   const double *v, *absv;
   double *out, *absout, *sq, *mx; /* sq, mx may be NULL */
   /* a row pass over C: its non-finite elements, per piece (of grain rows) */
   NonFiniteCount *nf;
   size_t grain;
} Pass;

static inline void kahan(double *sum, double *comp, double t) {
   const double y = t - *comp, s = *sum + y;
   *comp = (s - *sum) - y;
   *sum = s;
}

static void rowPiece(void *ctx, size_t begin, size_t end) {
   const Pass *ps = ctx;
   const Mat *m = ps->m;
   double seg[SEGMENT];
   NonFiniteCount nf = {0, 0, 0, (size_t)-1};
   for (size_t r = begin; r < end; r++) {
      double s[LANES] = {0}, c[LANES] = {0}, ab[LANES] = {0}, sq[LANES] = {0}, mx[LANES] = {0};
      for (size_t c0 = 0; c0 < m->cols; c0 += SEGMENT) {
         const size_t n = m->cols - c0 < SEGMENT ? m->cols - c0 : SEGMENT;
         loadRow(m, r, c0, n, seg);
         const double *v = ps->v + c0, *av = ps->absv + c0;
         if (ps->nf) {
            size_t bad = 0;
            for (size_t j = 0; j < n; j++)
               bad += !isfinite(seg[j]);
            for (size_t j = 0; bad && j < n; j++)
               if (!isfinite(seg[j])) {
                  nf.nan += isnan(seg[j]) != 0;
                  nf.inf += isinf(seg[j]) != 0;
                  nf.unwritten += isnan(seg[j]) && isPoison(m->data, r * m->cols + c0 + j, m->kind);
                  if (nf.first == (size_t)-1)
                     nf.first = r * m->cols + c0 + j;
               }
         }
         size_t j = 0;
         for (; j + LANES <= n; j += LANES)
            for (int l = 0; l < LANES; l++) {
               const double x = seg[j + l], ax = fabs(x) * av[j + l];
               kahan(&s[l], &c[l], x * v[j + l]);
               ab[l] += ax;
               sq[l] += x * x;
               mx[l] = ax > mx[l] ? ax : mx[l];
            }
         for (; j < n; j++) {
            const int l = (int)(j % LANES);
            const double x = seg[j], ax = fabs(x) * av[j];
            kahan(&s[l], &c[l], x * v[j]);
            ab[l] += ax;
            sq[l] += x * x;
            mx[l] = ax > mx[l] ? ax : mx[l];
         }
      }
      double sum = 0, comp = 0, abs_sum = 0, sq_sum = 0, mx_all = 0;
      for (int l = 0; l < LANES; l++) {
         kahan(&sum, &comp, s[l]);
         kahan(&sum, &comp, -c[l]);
         abs_sum += ab[l];
         sq_sum += sq[l];
         mx_all = mx[l] > mx_all ? mx[l] : mx_all;
      }
      ps->out[r] = sum - comp;
      ps->absout[r] = abs_sum;
      if (ps->sq)
         ps->sq[r] = sq_sum;
      if (ps->mx)
         ps->mx[r] = mx_all;
   }
   if (ps->nf)
      ps->nf[begin / ps->grain] = nf;
}

static void colPiece(void *ctx, size_t begin, size_t end) {
   const Pass *ps = ctx;
   const Mat *m = ps->m;
   double seg[BAND], s[BAND], c[BAND], ab[BAND], sq[BAND], mx[BAND];
   for (size_t band = begin; band < end; band++) {
      const size_t c0 = band * BAND, n = m->cols - c0 < BAND ? m->cols - c0 : BAND;
      for (size_t j = 0; j < n; j++)
         s[j] = c[j] = ab[j] = sq[j] = mx[j] = 0;
      for (size_t r = 0; r < m->rows; r++) {
         loadRow(m, r, c0, n, seg);
         const double w = ps->v[r], aw = ps->absv[r];
         for (size_t j = 0; j < n; j++) {
            const double x = seg[j], ax = fabs(x) * aw;
            kahan(&s[j], &c[j], x * w);
            ab[j] += ax;
            sq[j] += x * x;
            mx[j] = ax > mx[j] ? ax : mx[j];
         }
      }
      for (size_t j = 0; j < n; j++) {
         ps->out[c0 + j] = s[j] - c[j];
         ps->absout[c0 + j] = ab[j];
         if (ps->sq)
            ps->sq[c0 + j] = sq[j];
         if (ps->mx)
            ps->mx[c0 + j] = mx[j];
      }
   }
}

/* Rows of at least 64 Ki elements per piece: enough work to be worth a thread's turn. */
static size_t rowGrain(const Mat *m) {
   size_t g = ((size_t)1 << 16) / (m->cols ? m->cols : 1);
   return g ? g : 1;
}

static void rowPass(Pass *ps) {
   ps->grain = rowGrain(ps->m);
   Parallel_for(ps->m->rows, ps->grain, rowPiece, ps);
}

static void colPass(Pass *ps) { Parallel_for((ps->m->cols + BAND - 1) / BAND, 1, colPiece, ps); }

/* Summed along op(S)'s rows (along = true: a row pass when S is stored as op(S), a column
 * pass when stored transposed) or down its columns. */
static void opPass(const Mat *m, bool along_rows, const double *v, const double *absv, double *out, double *absout,
                   double *sq) {
   Pass ps = {.m = m, .v = v, .absv = absv, .out = out, .absout = absout, .sq = sq};
   if (along_rows != m->trans)
      rowPass(&ps);
   else
      colPass(&ps);
}

/* ---- the check ---- */

/* The K elements a sample multiplies, as the kernel multiplies them: op(A)'s row index (a)
 * or op(B)'s column index. */
typedef void (*VerifyLineFn)(const void *ctx, bool a, size_t index, double *out);

typedef struct VerifyCtx_ {
   const Problem *p;
   Mat A, B, C0, C;
   size_t M, N, K;
   bool use_c0;
   double alpha, beta, aalpha, abeta;
   double tol;          /* the samples' (Verify_tolerance) */
   double tol_rounding; /* its part for the rounding of the sum (the rest: tf32's cut of the inputs) */
   long long acc_interval; /* the FP8 tensor core's promotion interval in products (K: never); 0: FP32 */
   char tol_extra[96];     /* " + FP8 tensor-core accumulation, ...": what the tolerance allowed for */
   const double *x, *ax, *y, *ay;
   /* the passes over C, or what computed them where C is (of) */
   double *cx, *acx, *yc, *ayc;
   const VerifyOfC *of;
   size_t nan_count, inf_count, unwritten, first_nf;
   /* the reference side */
   double *bx, *abx, *abx_, *aabx; /* B x, then A (B x) */
   double *ya, *aya, *yab, *ayab;  /* y^T A, then (y^T A) B */
   double *c0x, *ac0x, *yc0, *ayc0;
   /* for the outlier floors */
   double *anorm, *bnorm, *c0rmax, *c0cmax;
   /* sample entries: op(A)[i][k] and op(B)[k][j] as multiplied */
   VerifyLineFn line;
   const void *line_ctx;
   const size_t *idx;
   size_t ns, bad_samples, first_bad;
   double bad_got, bad_ref, bad_rel, max_rel;
   double *sample_rel, *sample_ref; /* per sample */
   /* the distinct rows of op(A) and columns of op(B) the samples use, and their lines
    * (rows first, K each), or lines NULL */
   const size_t *rows, *cols;
   size_t nrows, ncols;
   double *lines;
} VerifyCtx;

/* Where value x is in the sorted distinct values of set. */
static size_t lineSlot(const size_t *set, size_t n, size_t x) {
   size_t lo = 0, hi = n;
   while (hi - lo > 1) {
      const size_t mid = lo + (hi - lo) / 2;
      if (set[mid] <= x)
         lo = mid;
      else
         hi = mid;
   }
   return lo;
}

/* The pass over C: non-finite elements, C x and y^T C; or their values computed where C
 * is. */
static bool passC(VerifyCtx *v) {
   if (v->of) {
      memcpy(v->cx, v->of->cx, v->M * sizeof *v->cx);
      memcpy(v->acx, v->of->acx, v->M * sizeof *v->acx);
      memcpy(v->yc, v->of->yc, v->N * sizeof *v->yc);
      memcpy(v->ayc, v->of->ayc, v->N * sizeof *v->ayc);
      v->nan_count = v->of->nan;
      v->inf_count = v->of->inf;
      v->unwritten = v->of->unwritten;
      v->first_nf = v->of->nan + v->of->inf ? v->of->first : (size_t)-1;
      return true;
   }
   Pass rows = {.m = &v->C, .v = v->x, .absv = v->ax, .out = v->cx, .absout = v->acx};
   const size_t pieces = (v->M + rowGrain(&v->C) - 1) / rowGrain(&v->C);
   rows.nf = malloc(pieces * sizeof *rows.nf);
   if (!rows.nf)
      return false;
   rowPass(&rows);
   v->nan_count = v->inf_count = v->unwritten = 0;
   v->first_nf = (size_t)-1;
   for (size_t i = 0; i < pieces; i++) {
      v->nan_count += rows.nf[i].nan;
      v->inf_count += rows.nf[i].inf;
      v->unwritten += rows.nf[i].unwritten;
      if (v->first_nf == (size_t)-1)
         v->first_nf = rows.nf[i].first;
   }
   free(rows.nf);
   Pass cols = {.m = &v->C, .v = v->y, .absv = v->ay, .out = v->yc, .absout = v->ayc};
   colPass(&cols);
   return true;
}

/* C0 x and y^T C0 with their maxima max_j |c0_ij| |x_j| and max_i |c0_ij| |y_i| (zero when
 * beta == 0: C0 is then never read). */
static void passC0(VerifyCtx *v) {
   const size_t M = v->M, N = v->N;
   if (!v->use_c0) {
      for (size_t i = 0; i < M; i++)
         v->c0x[i] = v->ac0x[i] = v->c0rmax[i] = 0;
      for (size_t j = 0; j < N; j++)
         v->yc0[j] = v->ayc0[j] = v->c0cmax[j] = 0;
      return;
   }
   Pass rows = {.m = &v->C0, .v = v->x, .absv = v->ax, .out = v->c0x, .absout = v->ac0x, .mx = v->c0rmax};
   rowPass(&rows);
   Pass cols = {.m = &v->C0, .v = v->y, .absv = v->ay, .out = v->yc0, .absout = v->ayc0, .mx = v->c0cmax};
   colPass(&cols);
}

/* y^T A and B x (K-vectors), then A (B x) with op(A)'s row norms and (y^T A) B with op(B)'s
 * column norms. */
static void passOperands(VerifyCtx *v) {
   const size_t M = v->M, N = v->N;
   if (v->K == 0) {
      for (size_t i = 0; i < M; i++)
         v->abx_[i] = v->aabx[i] = v->anorm[i] = 0;
      for (size_t j = 0; j < N; j++)
         v->yab[j] = v->ayab[j] = v->bnorm[j] = 0;
      return;
   }
   opPass(&v->A, false, v->y, v->ay, v->ya, v->aya, NULL);
   opPass(&v->B, true, v->x, v->ax, v->bx, v->abx, NULL);
   opPass(&v->A, true, v->bx, v->abx, v->abx_, v->aabx, v->anorm);
   opPass(&v->B, false, v->ya, v->aya, v->yab, v->ayab, v->bnorm);
   for (size_t i = 0; i < M; i++)
      v->anorm[i] = sqrt(v->anorm[i]);
   for (size_t j = 0; j < N; j++)
      v->bnorm[j] = sqrt(v->bnorm[j]);
}

/* a * b as hi + lo exactly (Dekker: Veltkamp's split, no fused multiply-add needed). */
static void twoProduct(double a, double b, double *hi, double *lo) {
   const double split = 134217729.0; /* 2^27 + 1 */
   const double ta = split * a, ah = ta - (ta - a), al = a - ah;
   const double tb = split * b, bh = tb - (tb - b), bl = b - bh;
   *hi = a * b;
   *lo = ((ah * bh - *hi) + ah * bl + al * bh) + al * bl;
}

/* sum += t, the rounding error of each addition gathered in *err (Knuth's two-sum). */
static void twoSum(double *sum, double *err, double t) {
   const double s = *sum + t, bp = s - *sum;
   *err += (*sum - (s - bp)) + (t - bp);
   *sum = s;
}

/* A sample's elements read from the matrices as the passes read them: op(A)'s row index or
 * op(B)'s column index. */
static void matLine(const void *ctx, bool a, size_t index, double *out) {
   const VerifyCtx *v = ctx;
   const Mat *m = a ? &v->A : &v->B;
   for (size_t k = 0; k < v->K; k++) {
      const size_t row = a ? index : k, col = a ? k : index;
      loadRow(m, m->trans ? col : row, m->trans ? row : col, 1, &out[k]);
   }
}

/* The FP8 tensor core's accumulator (verify.h): u = 2^-13 kept, FP8_KSTEP products a wgmma
 * k-step, promoted into FP32 every `interval` products; the margin of 2 on the random walk. */
#define FP8_ACC_UNIT 0x1p-13
#define FP8_KSTEP 32
#define FP8_ACC_MARGIN 2.0

/* 2 u sqrt(sum_g n m_g^2) over the k-steps g of each interval, m_g the largest of the
 * interval's running sum before and after the step and of its products (in double: the
 * bound needs no more). */
static double fp8AccumulatorBound(const double *arow, const double *bcol, size_t K, long long interval) {
   const size_t L = (size_t)interval;
   double squares = 0;
   for (size_t i0 = 0; i0 < K; i0 += L) {
      const size_t i1 = i0 + L < K ? i0 + L : K;
      double s = 0;
      for (size_t g0 = i0; g0 < i1; g0 += FP8_KSTEP) {
         const size_t g1 = g0 + FP8_KSTEP < i1 ? g0 + FP8_KSTEP : i1;
         double m = fabs(s);
         for (size_t k = g0; k < g1; k++) {
            const double p = arow[k] * bcol[k];
            s += p;
            if (fabs(p) > m)
               m = fabs(p);
         }
         if (fabs(s) > m)
            m = fabs(s);
         squares += (double)(g1 - g0) * m * m;
      }
   }
   return FP8_ACC_MARGIN * FP8_ACC_UNIT * sqrt(squares);
}

/* The sample entries, each computed as if in twice double's precision (exact products,
 * compensated sums: Ogita, Rump and Oishi's Dot2) and compared with C's. */
static void samplePiece(void *ctx, size_t begin, size_t end) {
   VerifyCtx *v = ctx;
   const size_t N = v->N, K = v->K;
   double *own = v->lines ? NULL : malloc(2 * (K + 1) * sizeof *own);
   for (size_t s = begin; s < end; s++) {
      const size_t i = v->idx[s] / N, j = v->idx[s] % N;
      const double *arow = own, *bcol = own + K + 1;
      if (v->lines) { /* made once for every sample of its row, of its column */
         arow = v->lines + K * lineSlot(v->rows, v->nrows, i);
         bcol = v->lines + K * (v->nrows + lineSlot(v->cols, v->ncols, j));
      } else if (own) {
         v->line(v->line_ctx, true, i, own);
         v->line(v->line_ctx, false, j, own + K + 1);
      } else { /* no memory: the entry counts as wrong, and the verdict says so */
         v->sample_rel[s] = INFINITY;
         v->sample_ref[s] = NAN;
         continue;
      }
      /* The rounding scale (verify.h): sqrt(K) ||p||_2 + sqrt(sum of the partial sums^2);
       * and sum |p| for tf32's cut of the inputs. */
      double acc = 0, err = 0, squares = 0, partials = 0, absolute = 0;
      for (size_t k = 0; k < K; k++) {
         double hi, lo;
         twoProduct(arow[k], bcol[k], &hi, &lo);
         twoSum(&acc, &err, hi);
         twoSum(&acc, &err, lo);
         squares += hi * hi;
         partials += acc * acc;
         absolute += fabs(hi);
      }
      double ref = 0, ref_err = 0, hi, lo;
      twoProduct(v->alpha, acc, &hi, &lo);
      twoSum(&ref, &ref_err, hi);
      twoSum(&ref, &ref_err, lo + v->alpha * err);
      double scale = v->aalpha * (sqrt((double)K * squares) + sqrt(partials)), sum = v->aalpha * absolute;
      const double accumulator = v->acc_interval ? v->aalpha * fp8AccumulatorBound(arow, bcol, K, v->acc_interval) : 0;
      if (v->use_c0) {
         double c0;
         loadRow(&v->C0, i, j, 1, &c0);
         twoProduct(v->beta, c0, &hi, &lo);
         twoSum(&ref, &ref_err, hi);
         twoSum(&ref, &ref_err, lo);
         scale += v->abeta * fabs(c0);
         sum += v->abeta * fabs(c0);
      }
      /* The error against the entry's bound, expressed on the tolerance's scale: rel <= tol
       * exactly when it is within the bound (for all but tf32, rel = err / scale). */
      const double bound = v->tol_rounding * scale + (v->tol - v->tol_rounding) * sum + accumulator;
      double c;
      if (v->of)
         c = v->of->at[s];
      else
         loadRow(&v->C, i, j, 1, &c);
      const double e = fabs((c - ref) - ref_err);
      double rel;
      if (isnan(e))
         rel = INFINITY;
      else if (e == 0)
         rel = 0.0;
      else if (bound > 0)
         rel = e / bound * v->tol;
      else
         rel = INFINITY;
      v->sample_rel[s] = rel;
      v->sample_ref[s] = ref + ref_err;
   }
   free(own);
}

/* The rows and columns the samples use, each line made once (in parallel). */
static void linePiece(void *ctx, size_t begin, size_t end) {
   VerifyCtx *v = ctx;
   for (size_t l = begin; l < end; l++) {
      const bool a = l < v->nrows;
      v->line(v->line_ctx, a, a ? v->rows[l] : v->cols[l - v->nrows], v->lines + v->K * l);
   }
}

/* At most this many doubles of lines kept for the samples (else each sample makes its own). */
#define SAMPLE_LINES_MAX ((size_t)8 << 20)

static void gatherLines(VerifyCtx *v, size_t *rows, size_t *cols) {
   v->nrows = v->ncols = 0;
   for (size_t s = 0; s < v->ns; s++) { /* idx is sorted: its rows come in order */
      const size_t i = v->idx[s] / v->N;
      if (!v->nrows || rows[v->nrows - 1] != i)
         rows[v->nrows++] = i;
      cols[v->ncols++] = v->idx[s] % v->N;
   }
   qsort(cols, v->ncols, sizeof *cols, cmpSize);
   size_t u = 0;
   for (size_t c = 0; c < v->ncols; c++)
      if (!u || cols[c] != cols[u - 1])
         cols[u++] = cols[c];
   v->ncols = u;
   v->rows = rows, v->cols = cols;
   const size_t count = (v->nrows + v->ncols) * v->K;
   v->lines = count <= SAMPLE_LINES_MAX ? malloc((count ? count : 1) * sizeof *v->lines) : NULL;
   if (v->lines)
      Parallel_for(v->nrows + v->ncols, 1, linePiece, v);
}

/* The samples' verdicts, in order: how many are over, the first, the worst. */
static void samples(VerifyCtx *v) {
   size_t *rows = malloc(2 * (v->ns + 1) * sizeof *rows);
   v->lines = NULL;
   if (rows)
      gatherLines(v, rows, rows + v->ns + 1);
   Parallel_for(v->ns, v->K > 4096 ? 1 : 4096 / (v->K + 1) + 1, samplePiece, v);
   free(v->lines);
   free(rows);
   v->lines = NULL;
   v->bad_samples = 0;
   v->first_bad = (size_t)-1;
   v->bad_got = v->bad_ref = v->bad_rel = v->max_rel = 0;
   for (size_t s = 0; s < v->ns; s++) {
      const double rel = v->sample_rel[s];
      if (rel > v->max_rel)
         v->max_rel = rel;
      if (rel > v->tol) {
         v->bad_samples++;
         if (v->first_bad == (size_t)-1) {
            v->first_bad = v->idx[s];
            if (v->of)
               v->bad_got = v->of->at[s];
            else
               loadRow(&v->C, v->idx[s] / v->N, v->idx[s] % v->N, 1, &v->bad_got);
            v->bad_ref = v->sample_ref[s];
            v->bad_rel = rel;
         }
      }
   }
}

/* What the Freivalds checks found: the worst ratio to its bound, rows then columns, and
 * how many were over; then the outliers among the residuals. */
typedef struct Residuals_ {
   double worst_r, worst_c;
   size_t worst_row, worst_col, rows_over, cols_over;
   size_t orow, ocol, out_rows, out_cols;
   double orow_ratio, ocol_ratio;
} Residuals;

/* Bound per row: tol * (|alpha| |A||B||x| + |beta| |C0||x|), plus the rounding of C to
 * the storage precision (eps |C||x|), plus this check's own rounding (PASS_ERROR_EPS). The same
 * per column with y. With res (2 (M + N) values), each row's and column's residual and
 * magnitude are kept there for the outlier check. */
static void freivalds(const VerifyCtx *c, double tol, double eps, double *res, Residuals *o) {
   const size_t M = c->M, N = c->N;
   const double own_err = (PASS_ERROR_EPS + (double)(c->K + M + N) * DBL_EPSILON) * DBL_EPSILON;
   double *rres = res, *rmag = res ? res + M : NULL, *cres = res ? res + 2 * M : NULL,
           *cmag = res ? res + 2 * M + N : NULL;
   for (size_t i = 0; i < M; i++) {
      double ref = c->alpha * c->abx_[i] + c->beta * c->c0x[i];
      double mag = c->aalpha * c->aabx[i] + c->abeta * c->ac0x[i];
      double bound = tol * mag + (double)eps * c->acx[i] + own_err * (mag + c->acx[i]);
      if (res) {
         rres[i] = fabs(c->cx[i] - ref);
         rmag[i] = mag + c->acx[i];
      }
      double r = ratioOf(fabs(c->cx[i] - ref), bound);
      if (r > 1.0)
         o->rows_over++;
      if (r > o->worst_r) {
         o->worst_r = r;
         o->worst_row = i;
      }
   }
   for (size_t j = 0; j < N; j++) {
      double ref = c->alpha * c->yab[j] + c->beta * c->yc0[j];
      double mag = c->aalpha * c->ayab[j] + c->abeta * c->ayc0[j];
      double bound = tol * mag + (double)eps * c->ayc[j] + own_err * (mag + c->ayc[j]);
      if (res) {
         cres[j] = fabs(c->yc[j] - ref);
         cmag[j] = mag + c->ayc[j];
      }
      double r = ratioOf(fabs(c->yc[j] - ref), bound);
      if (r > 1.0)
         o->cols_over++;
      if (r > o->worst_c) {
         o->worst_c = r;
         o->worst_col = j;
      }
   }
}

/* Outliers among the residuals (res, as freivalds left it): a few wrong elements in an
 * otherwise right result. The floor of a row: the most one element within the tolerance
 * can move its residual, tol * max_j s_ij |x_j|, bounded with Cauchy-Schwarz (s_ij <=
 * |alpha| |a_i| |b_j| + |beta| |c0_ij|) so that it costs O(MK + KN + MN); and the rounding
 * of its N elements, 4 eps |mag| / sqrt(N). The magnitude arrays are reused for the floors. */
static void outlierCheck(const VerifyCtx *c, double tol, double eps, double *res, Residuals *o) {
   const size_t M = c->M, N = c->N;
   double *rres = res, *rmag = res + M, *cres = res + 2 * M, *cmag = res + 2 * M + N;
   const double *anorm = c->anorm, *bnorm = c->bnorm;
   double bx_max = 0, ay_max = 0;
   for (size_t j = 0; j < N; j++)
      if (bnorm[j] * c->ax[j] > bx_max)
         bx_max = bnorm[j] * c->ax[j];
   for (size_t i = 0; i < M; i++)
      if (anorm[i] * c->ay[i] > ay_max)
         ay_max = anorm[i] * c->ay[i];
   for (size_t i = 0; i < M; i++) {
      double one = tol * (c->aalpha * anorm[i] * bx_max + c->abeta * c->c0rmax[i]);
      double noise = 4 * eps * rmag[i] / sqrt((double)(N ? N : 1));
      rmag[i] = one > noise ? one : noise;
   }
   for (size_t j = 0; j < N; j++) {
      double one = tol * (c->aalpha * bnorm[j] * ay_max + c->abeta * c->c0cmax[j]);
      double noise = 4 * eps * cmag[j] / sqrt((double)(M ? M : 1));
      cmag[j] = one > noise ? one : noise;
   }
   o->out_rows = outliers(rres, rmag, M, &o->orow, &o->orow_ratio);
   o->out_cols = outliers(cres, cmag, N, &o->ocol, &o->ocol_ratio);
}

/* One line saying what happened: the first failing check in this order (non-finite
 * elements, wrong samples, outliers, the Freivalds bound), or the verified figures. */
static void describe(const VerifyCtx *c, const Residuals *o, bool outlier_fail, bool dbl, VerifyResult *out) {
   const size_t N = c->N;
   const int digits = dbl ? 17 : 9;
   if (out->non_finite) {
      out->first_bad_row = (int)(c->first_nf / N);
      out->first_bad_col = (int)(c->first_nf % N);
      const size_t computed_nan = c->nan_count - c->unwritten;
      /* With beta 0 C is not to be read: a kernel that reads it finds the poison, and the
       * NaN it then computes comes from there. */
      const char *hint = !c->use_c0 ? "; or read from C, which holds NaN before the run and with beta 0 is not to be "
                                      "read" : "";
      if (out->non_finite == c->unwritten)
         snprintf(out->message, sizeof out->message, "FAILED: %zu element%s not written (NaN), first at (%d,%d)",
                  c->unwritten, c->unwritten == 1 ? "" : "s", out->first_bad_row, out->first_bad_col);
      else if (out->non_finite == computed_nan)
         snprintf(out->message, sizeof out->message,
                  "FAILED: %zu element%s NaN, computed by the kernel (not left unwritten), first at (%d,%d)%s",
                  computed_nan, computed_nan == 1 ? "" : "s", out->first_bad_row, out->first_bad_col, hint);
      else
         snprintf(out->message, sizeof out->message,
                  "FAILED: %zu element%s not finite (%zu not written, %zu NaN computed, %zu Inf), first at (%d,%d)",
                  out->non_finite, out->non_finite == 1 ? "" : "s", c->unwritten, computed_nan, c->inf_count,
                  out->first_bad_row, out->first_bad_col);
   } else if (out->bad_samples) {
      out->first_bad_row = (int)(c->first_bad / N);
      out->first_bad_col = (int)(c->first_bad % N);
      snprintf(out->message, sizeof out->message,
               "FAILED: %zu of %zu sampled entries wrong, first at (%d,%d): got %.*g, expected %.*g (rel err %.2g, tol "
               "%.2g%s)",
               out->bad_samples, c->ns, out->first_bad_row, out->first_bad_col, digits, c->bad_got, digits, c->bad_ref,
               c->bad_rel, out->tolerance, c->tol_extra);
   } else if (outlier_fail && o->worst_r <= 1.0 && o->worst_c <= 1.0) {
      bool by_row = o->out_rows > 0 && (o->out_cols == 0 || o->orow_ratio >= o->ocol_ratio);
      out->first_bad_row = by_row ? (int)o->orow : (o->out_rows ? (int)o->orow : -1);
      out->first_bad_col = by_row ? (o->out_cols ? (int)o->ocol : -1) : (int)o->ocol;
      snprintf(out->message, sizeof out->message,
               "FAILED: Freivalds residual of %s %zu stands %.3gx above the others' (%zu row%s, %zu column%s): "
               "isolated wrong elements, first near (%d,%d)",
               by_row ? "row" : "column", by_row ? o->orow : o->ocol, by_row ? o->orow_ratio : o->ocol_ratio,
               o->out_rows, o->out_rows == 1 ? "" : "s", o->out_cols, o->out_cols == 1 ? "" : "s", out->first_bad_row,
               out->first_bad_col);
   } else if (!(out->freivalds_ratio <= 1.0)) {
      /* Name the side where the failure is localised: a wrong row puts one row over the
       * bound (and perhaps every column), a wrong column the reverse. */
      bool by_row = o->rows_over > 0 && (o->cols_over == 0 || o->rows_over < o->cols_over ||
                                          (o->rows_over == o->cols_over && o->worst_r >= o->worst_c));
      out->first_bad_row = by_row ? (int)o->worst_row : -1;
      out->first_bad_col = by_row ? -1 : (int)o->worst_col;
      snprintf(out->message, sizeof out->message,
               "FAILED: Freivalds check off by %.3gx its bound in %s %zu (%zu row%s, %zu column%s over)",
               by_row ? o->worst_r : o->worst_c, by_row ? "row" : "column", by_row ? o->worst_row : o->worst_col,
               o->rows_over, o->rows_over == 1 ? "" : "s", o->cols_over, o->cols_over == 1 ? "" : "s");
   } else {
      snprintf(out->message, sizeof out->message, "verified (max rel err %.2g, tol %.2g%s)", out->max_rel_err,
               out->tolerance, c->tol_extra);
   }
}

/* The result for what needs no check (an empty C) or cannot have one (no problem, a
 * negative size, a matrix missing); true when the check is to be made. */
static bool worthChecking(const Problem *p, const void *A, const void *B, const void *C0, const void *C,
                          VerifyResult *out) {
   memset(out, 0, sizeof *out);
   out->first_bad_row = out->first_bad_col = -1;
   if (!p) {
      fail(out, "FAILED: no problem to verify");
      return false;
   }
   out->tolerance = Verify_tolerance(p);
   if (p->m < 0 || p->n < 0 || p->k < 0) {
      fail(out, "FAILED: negative matrix size");
      return false;
   }
   if (p->m == 0 || p->n == 0) {
      out->ok = true;
      snprintf(out->message, sizeof out->message, "verified (C is empty)");
      return false;
   }
   const bool use_c0 = p->beta != 0.0;
   if (!C || (p->k > 0 && (!A || !B)) || (use_c0 && !C0)) {
      fail(out, use_c0 && !C0 ? "FAILED: cannot verify: C before the run is needed when beta != 0"
                              : "FAILED: cannot verify: a matrix is missing");
      return false;
   }
   return true;
}

/* How many doubles the work vectors of an M x N x K check take (carveVectors). */
static size_t workVectors(size_t M, size_t N, size_t K) {
   size_t Kv = K ? K : 1;
   return 2 * N + 2 * M      /* x, |x|, y, |y| */
          + 2 * Kv + 2 * M   /* Bx, |B||x|, A(Bx), |A||B||x| */
          + 2 * M + 2 * M    /* Cx, |C||x|, C0x, |C0||x| */
          + 2 * Kv + 2 * N   /* y^T A, |y|^T|A|, (y^T A) B, abs */
          + 2 * N + 2 * N    /* y^T C, abs, y^T C0, abs */
          + 2 * M + 2 * N;   /* op(A)'s row norms, op(B)'s column norms, C0's maxima */
}

/* The work vectors, in that order, out of mem: x, |x|, y, |y| returned, the rest in c. */
static void carveVectors(VerifyCtx *c, double *mem, double **x, double **ax, double **y, double **ay) {
   const size_t M = c->M, N = c->N, Kv = c->K ? c->K : 1;
   double *q = mem;
#define TAKE(n) (q += (n), q - (n))
   *x = TAKE(N), *ax = TAKE(N), *y = TAKE(M), *ay = TAKE(M);
   c->x = *x, c->ax = *ax, c->y = *y, c->ay = *ay;
   c->bx = TAKE(Kv), c->abx = TAKE(Kv), c->abx_ = TAKE(M), c->aabx = TAKE(M);
   c->cx = TAKE(M), c->acx = TAKE(M), c->c0x = TAKE(M), c->ac0x = TAKE(M);
   c->ya = TAKE(Kv), c->aya = TAKE(Kv), c->yab = TAKE(N), c->ayab = TAKE(N);
   c->yc = TAKE(N), c->ayc = TAKE(N), c->yc0 = TAKE(N), c->ayc0 = TAKE(N);
   c->anorm = TAKE(M), c->c0rmax = TAKE(M), c->bnorm = TAKE(N), c->c0cmax = TAKE(N);
#undef TAKE
}

/* x and y: random magnitudes in [0.5, 1.5) with random signs; ax and ay the magnitudes. */
static void randomVectors(Rng *rng, double *x, double *ax, size_t N, double *y, double *ay, size_t M) {
   for (size_t j = 0; j < N; j++) {
      double v = Rng_range(rng, 0.5, 1.5);
      ax[j] = v;
      x[j] = (Rng_next(rng) & 1) ? -v : v;
   }
   for (size_t i = 0; i < M; i++) {
      double v = Rng_range(rng, 0.5, 1.5);
      ay[i] = v;
      y[i] = (Rng_next(rng) & 1) ? -v : v;
   }
}

/* The check's random draws from seed: x and y, then the sample positions (idx holds
 * ALL_SAMPLES_MAX); returns the samples' count. One order for both ways of checking. */
static size_t draw(uint64_t seed, size_t M, size_t N, double *x, double *ax, double *y, double *ay, size_t *idx) {
   Rng rng;
   Rng_seed(&rng, seed);
   randomVectors(&rng, x, ax, N, y, ay, M);
   return pickSamples(M, N, &rng, idx);
}

void VerifyPlan_free(VerifyPlan *plan) {
   free(plan->x);
   free(plan->y);
   free(plan->at);
   memset(plan, 0, sizeof *plan);
}

bool VerifyPlan_make(VerifyPlan *plan, const Problem *p, uint64_t seed) {
   memset(plan, 0, sizeof *plan);
   const size_t M = p->m > 0 ? (size_t)p->m : 0, N = p->n > 0 ? (size_t)p->n : 0;
   double *ax = malloc((N + 1) * sizeof *ax), *ay = malloc((M + 1) * sizeof *ay);
   plan->x = malloc((N + 1) * sizeof *plan->x);
   plan->y = malloc((M + 1) * sizeof *plan->y);
   plan->at = malloc(ALL_SAMPLES_MAX * sizeof *plan->at);
   bool ok = ax && ay && plan->x && plan->y && plan->at;
   if (ok && M && N) {
      plan->samples = draw(seed, M, N, plan->x, ax, plan->y, ay, plan->at);
      plan->m = M, plan->n = N;
   }
   free(ax);
   free(ay);
   if (!ok)
      VerifyPlan_free(plan);
   return ok;
}

/* The operands as stored (A and B with their FP8 scales, or NULL), and where the sample
 * entries take their elements (line NULL: from the matrices). */
typedef struct Operands_ {
   const void *A, *B, *C0;
   const float *sa, *sb;
   VerifyLineFn line;
   const void *line_ctx;
} Operands;

/* rounded: the format C was rounded to after the sum (its epsilon widens both tolerances
 * and C's own rounding term), or the output type's own. C on the host, or (C NULL) what
 * of says of it, computed from plan's draws, which are then seed's. accumulation: how the
 * kernel summed (NULL: in FP32). */
static void verifyOperands(const Problem *p, const Operands *ops, const void *C, const VerifyPlan *plan,
                           const VerifyOfC *of, Storage rounded, const VerifyAccumulation *accumulation,
                           uint64_t seed, VerifyResult *out) {
   if (!worthChecking(p, ops->A, ops->B, ops->C0, C ? C : (const void *)of, out))
      return;
   if (!C && (!plan || plan->m != (size_t)p->m || plan->n != (size_t)p->n)) {
      fail(out, "FAILED: cannot verify: C's sums were computed for another problem");
      return;
   }
   const size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
   const bool use_c0 = p->beta != 0.0;
   const bool dbl = Types_of(p->precision)->fp64;
   const double narrow = rounded != Types_of(p->precision)->out ? Storage_epsilon(rounded) : 0;
   const double eps = precisionEps(p->precision) > narrow ? precisionEps(p->precision) : narrow;
   out->tolerance += narrow;
   /* The FP8 accumulator's promotion interval (K when never promoted), 0 for FP32. */
   long long interval = 0;
   if (accumulation && accumulation->fp8_tensor_core && K > 0)
      interval = accumulation->interval > 0 && (size_t)accumulation->interval < K ? accumulation->interval : (long long)K;
   /* the samples use out->tolerance; Freivalds' gets the accumulator's worst case (verify.h) */
   const double tol = Verify_freivaldsTolerance(p) + narrow +
                      (interval ? FP8_ACC_MARGIN * FP8_ACC_UNIT * sqrt((double)interval) : 0.0);
   /* The device sees alpha and beta in the storage precision. */
   const double alpha = dbl ? p->alpha : (double)(float)p->alpha;
   const double beta = dbl ? p->beta : (double)(float)p->beta;
   const Storage in_kind = Types_of(p->precision)->in, out_kind = Types_of(p->precision)->out;

   /* ---- work vectors ---- */
   VerifyCtx *ctx = malloc(sizeof *ctx);
   double *mem = malloc(workVectors(M, N, K) * sizeof *mem);
   size_t *idx = malloc(ALL_SAMPLES_MAX * sizeof *idx);
   double *per_sample = malloc(2 * ALL_SAMPLES_MAX * sizeof *per_sample);
   /* Residuals and magnitudes, rows then columns, for the outlier check. */
   double *res = malloc(2 * (M + N + 1) * sizeof *res);
   if (!ctx || !mem || !idx || !per_sample || !res) {
      free(ctx);
      free(mem);
      free(idx);
      free(per_sample);
      free(res);
      fail(out, "FAILED: cannot verify: out of memory");
      return;
   }
   *ctx = (VerifyCtx){
      .p = p, .M = M, .N = N, .K = K, .use_c0 = use_c0,
      .alpha = alpha, .beta = beta, .aalpha = fabs(alpha), .abeta = fabs(beta), .tol = out->tolerance,
      .tol_rounding = SAMPLE_TOLERANCE_EPS * precisionEps(p->precision), .idx = idx,
      .sample_rel = per_sample, .sample_ref = per_sample + ALL_SAMPLES_MAX, .acc_interval = interval,
   };
   if (interval) {
      char name[80];
      snprintf(ctx->tol_extra, sizeof ctx->tol_extra, " + %s", VerifyAccumulation_name(accumulation, name, sizeof name));
   }
   Mat_operand(&ctx->A, p, true, ops->A, in_kind, ops->sa);
   Mat_operand(&ctx->B, p, false, ops->B, in_kind, ops->sb);
   Mat_init(&ctx->C0, ops->C0, out_kind, M, N);
   Mat_init(&ctx->C, C, out_kind, M, N);
   ctx->line = ops->line ? ops->line : matLine;
   ctx->line_ctx = ops->line ? ops->line_ctx : ctx;
   ctx->of = C ? NULL : of;
   double *x, *ax, *y, *ay;
   carveVectors(ctx, mem, &x, &ax, &y, &ay);
   size_t ns;
   if (C) {
      ns = draw(seed, M, N, x, ax, y, ay, idx);
   } else { /* the draws C's side was computed with */
      for (size_t j = 0; j < N; j++)
         ax[j] = fabs(x[j] = plan->x[j]);
      for (size_t i = 0; i < M; i++)
         ay[i] = fabs(y[i] = plan->y[i]);
      ns = plan->samples;
      memcpy(idx, plan->at, ns * sizeof *idx);
   }
   ctx->ns = ns;

   /* Each pass over all the cores, one after another. */
   bool ok = passC(ctx);
   passC0(ctx);
   passOperands(ctx);
   samples(ctx);

   out->non_finite = ok ? ctx->nan_count + ctx->inf_count : 0;
   out->unwritten = ok ? ctx->unwritten : 0;
   Residuals o = {0};
   freivalds(ctx, tol, eps, res, &o);
   out->freivalds_ratio = o.worst_r > o.worst_c ? o.worst_r : o.worst_c;
   if (ok && out->non_finite == 0)
      outlierCheck(ctx, tol, eps, res, &o);
   free(res);
   bool outlier_fail = o.out_rows > 0 || o.out_cols > 0;
   out->outlier_ratio = o.orow_ratio > o.ocol_ratio ? o.orow_ratio : o.ocol_ratio;
   /* the sample entries */
   out->bad_samples = ctx->bad_samples;
   out->samples = ns;
   out->max_rel_err = ctx->max_rel;
   out->ok = ok && out->non_finite == 0 && out->bad_samples == 0 && out->freivalds_ratio <= 1.0 && !outlier_fail;
   if (ok)
      describe(ctx, &o, outlier_fail, dbl, out);
   else
      fail(out, "FAILED: cannot verify: out of memory");
   free(mem);
   free(idx);
   free(per_sample);
   free(ctx);
}

void Verify_gemm(const Problem *p, const void *A, const void *B, const void *C0, const void *C, uint64_t seed,
                 VerifyResult *out) {
   verifyOperands(p, &(Operands){.A = A, .B = B, .C0 = C0}, C, NULL, NULL, Types_of(p->precision)->out, NULL, seed,
                  out);
}

typedef struct InputsAt_ {
   const Inputs *in;
   const Problem *p;
} InputsAt;

/* A sample's elements from the inputs: made again from their seed when generated. */
static void inputsLine(const void *ctx, bool a, size_t index, double *out) {
   const InputsAt *at = ctx;
   Inputs_operandLine(at->in, at->p, a, index, out);
}

void Verify_inputs(const Problem *p, const Inputs *in, const void *C, uint64_t seed, VerifyResult *out) {
   Verify_inputsRounded(p, in, C, Types_of(p->precision)->out, seed, out);
}

const char *VerifyAccumulation_name(const VerifyAccumulation *acc, char *buf, size_t len) {
   if (!acc || !acc->fp8_tensor_core)
      snprintf(buf, len, "%s", "");
   else if (acc->interval > 0)
      snprintf(buf, len, "FP8 tensor-core accumulation, promoted every %lld", acc->interval);
   else
      snprintf(buf, len, "FP8 tensor-core accumulation, never promoted");
   return buf;
}

/* C on the host, or (C NULL) what of says of it, from plan's draws. */
static void verifyInputs(const Problem *p, const Inputs *in, const void *C, const VerifyPlan *plan,
                         const VerifyOfC *of, Storage rounded, const VerifyAccumulation *acc, uint64_t seed,
                         VerifyResult *out) {
   const InputsAt at = {in, p};
   const Operands ops = {.A = in->a, .B = in->b, .C0 = in->c0, .sa = in->sa, .sb = in->sb,
                         .line = inputsLine, .line_ctx = &at};
   if (Problem_scaled(p) && (!in->sa || !in->sb)) {
      if (worthChecking(p, in->a, in->b, in->c0, C ? C : (const void *)of, out))
         fail(out, "FAILED: cannot verify: the FP8 scales are missing");
      return;
   }
   verifyOperands(p, &ops, C, plan, of, rounded, acc, seed, out);
}

void Verify_inputsRounded(const Problem *p, const Inputs *in, const void *C, Storage rounded, uint64_t seed,
                          VerifyResult *out) {
   verifyInputs(p, in, C, NULL, NULL, rounded, NULL, seed, out);
}

void Verify_inputsAccumulated(const Problem *p, const Inputs *in, const void *C, Storage rounded,
                              const VerifyAccumulation *acc, uint64_t seed, VerifyResult *out) {
   verifyInputs(p, in, C, NULL, NULL, rounded, acc, seed, out);
}

void Verify_inputsOf(const Problem *p, const Inputs *in, const VerifyPlan *plan, const VerifyOfC *of,
                     const VerifyAccumulation *acc, VerifyResult *out) {
   verifyInputs(p, in, NULL, plan, of, Types_of(p->precision)->out, acc, 0, out);
}
