/* GEMM verification on the host: a non-finite scan of C, Freivalds' test from both sides,
 * and exactly computed sample entries, all accumulated in long double.  See verify.h.
 *
 * The passes over the matrices are independent of each other and run as tasks on a few
 * threads; each pass keeps its own summation order, so the result is bit-identical to a
 * serial run whatever the thread count. */
#include "core/verify.h"

#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/lowprec.h"
#include "base/rng.h"

typedef long double ldouble;

/* Extra sample entries taken along each edge (first/last row, first/last column), and at
 * random positions; every entry is checked when C has at most ALL_SAMPLES_MAX of them. */
#define EDGE_SAMPLES 4
#define RANDOM_SAMPLES 256
#define ALL_SAMPLES_MAX 4096

/* How a matrix is stored (core/types.h): A and B in the problem's input type, C and C0 in
 * its output type. */
typedef Storage ElemKind;

static inline double load(const void *p, size_t i, ElemKind kind) { return Storage_load(kind, p, i); }

/* An unwritten element's bits (Verify_poison): signalling NaNs (the quiet bit clear), which
 * no arithmetic returns; a kernel that reads one makes it quiet. */
#define POISON_F32 UINT32_C(0x7fb0cafe)
#define POISON_F64 UINT64_C(0x7ff6b0cafeb0cafe)

void Verify_poison(void *C, size_t count, Storage kind) {
   for (size_t i = 0; i < count; i++)
      if (kind == STORAGE_F64)
         memcpy((char *)C + i * sizeof(uint64_t), &(uint64_t){POISON_F64}, sizeof(uint64_t));
      else
         memcpy((char *)C + i * sizeof(uint32_t), &(uint32_t){POISON_F32}, sizeof(uint32_t));
}

/* Whether element i of C still holds the poison: its bits compared, since converting a
 * signalling NaN to double would quieten it. */
static bool isPoison(const void *C, size_t i, ElemKind kind) {
   if (kind == STORAGE_F64) {
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

/* S is a rows x cols row-major matrix.
 *   along_rows:  out[r] = sum_c S[r][c] v[c]   (out has rows entries)
 *   otherwise:   out[c] = sum_r S[r][c] v[r]   (out has cols entries)
 * and likewise absout from |S| and absv. */
static void matvec(const void *S, ElemKind kind, size_t rows, size_t cols, bool along_rows, const ldouble *v,
                   const ldouble *absv, ldouble *out, ldouble *absout) {
   if (along_rows) {
      for (size_t r = 0; r < rows; r++) {
         ldouble acc = 0, aacc = 0;
         size_t base = r * cols;
         for (size_t c = 0; c < cols; c++) {
            ldouble s = load(S, base + c, kind);
            acc += s * v[c];
            aacc += fabsl(s) * absv[c];
         }
         out[r] = acc;
         absout[r] = aacc;
      }
   } else {
      for (size_t c = 0; c < cols; c++)
         out[c] = absout[c] = 0;
      for (size_t r = 0; r < rows; r++) {
         ldouble vr = v[r], avr = absv[r];
         size_t base = r * cols;
         for (size_t c = 0; c < cols; c++) {
            ldouble s = load(S, base + c, kind);
            out[c] += s * vr;
            absout[c] += fabsl(s) * avr;
         }
      }
   }
}

/* Stored A is M x K (or K x M transposed); stored B is K x N (or N x K). */
static inline double opA(const Problem *p, const void *A, size_t i, size_t k, ElemKind kind) {
   return p->trans_a ? load(A, k * (size_t)p->m + i, kind) : load(A, i * (size_t)p->k + k, kind);
}

static inline double opB(const Problem *p, const void *B, size_t k, size_t j, ElemKind kind) {
   return p->trans_b ? load(B, j * (size_t)p->k + k, kind) : load(B, k * (size_t)p->n + j, kind);
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

static int compareLd(const void *a, const void *b) {
   ldouble x = *(const ldouble *)a, y = *(const ldouble *)b;
   return (x > y) - (x < y);
}

/* Isolated wrong elements hide under the worst-case bounds, which grow with the row's
 * length. The residuals of a correct result are rounding noise of one size in every row;
 * a residual that stands 64 times above the median, and above floor[i] (what one element
 * within the tolerance, or the rounding of the whole row, can give), carries an error.
 * Returns how many stand out and the worst ratio to its threshold. Needs 16 rows. */
static size_t outliers(const ldouble *res, const ldouble *floor, size_t n, size_t *worst, double *worst_ratio) {
   *worst_ratio = 0;
   *worst = 0;
   if (n < 16)
      return 0;
   ldouble *sorted = malloc(n * sizeof *sorted);
   if (!sorted)
      return 0;
   memcpy(sorted, res, n * sizeof *sorted);
   qsort(sorted, n, sizeof *sorted, compareLd);
   ldouble median = sorted[n / 2];
   free(sorted);
   size_t over = 0;
   for (size_t i = 0; i < n; i++) {
      ldouble threshold = 64 * median > floor[i] ? 64 * median : floor[i];
      if (!(threshold > 0))
         continue;
      double r = (double)(res[i] / threshold);
      if (r > 1.0)
         over++;
      if (r > *worst_ratio) {
         *worst_ratio = r;
         *worst = i;
      }
   }
   return over;
}

static double ratioOf(ldouble residual, ldouble bound) {
   if (isnan(residual) || isnan(bound))
      return INFINITY;
   if (residual == 0)
      return 0.0;
   if (!(bound > 0))
      return INFINITY;
   return (double)(residual / bound);
}

/* ---- the passes, as tasks ----
 * Each task reads the inputs and the random vectors and writes only its own outputs, so
 * tasks can run at the same time in any order. */
typedef struct VerifyCtx_ {
   const Problem *p;
   const void *A, *B, *C0, *C;
   size_t M, N, K;
   ElemKind in_kind, out_kind; /* A and B; C and C0 */
   bool use_c0;
   ldouble alpha, beta, aalpha, abeta;
   double tol;          /* the samples' (Verify_tolerance) */
   double tol_rounding; /* its part for the rounding of the sum (the rest: tf32's cut of the inputs) */
   const ldouble *x, *ax, *y, *ay;
   /* pass over C */
   ldouble *cx, *acx, *yc, *ayc;
   size_t nan_count, inf_count, unwritten, first_nf;
   /* the reference side */
   ldouble *bx, *abx, *abx_, *aabx; /* B x, then A (B x) */
   ldouble *ya, *aya, *yab, *ayab;  /* y^T A, then (y^T A) B */
   ldouble *c0x, *ac0x, *yc0, *ayc0;
   /* for the outlier floors; NULL when there was no memory for them */
   ldouble *anorm, *bnorm, *c0rmax, *c0cmax;
   /* sample entries */
   const size_t *idx;
   size_t ns, bad_samples, first_bad;
   double bad_got, bad_ref, bad_rel, max_rel;
} VerifyCtx;

typedef void (*VerifyTaskFn)(VerifyCtx *);

/* One pass over an M x N matrix S (C or C0): S x, |S| |x|, y^T S and |y|^T |S|, each sum in
 * ascending index order. nf, when given, also counts the non-finite elements, those of them
 * still poisoned (unwritten), and where the first one is. */
typedef struct NonFinite_ {
   size_t nan_count, inf_count, unwritten, first;
} NonFinite;

static void bothSides(const void *S, ElemKind kind, size_t M, size_t N, const ldouble *x, const ldouble *ax,
                      const ldouble *y, const ldouble *ay, ldouble *sx, ldouble *asx, ldouble *ys, ldouble *ays,
                      NonFinite *nf) {
   if (nf)
      *nf = (NonFinite){0, 0, 0, (size_t)-1};
   for (size_t j = 0; j < N; j++)
      ys[j] = ays[j] = 0;
   for (size_t i = 0; i < M; i++) {
      ldouble acc = 0, aacc = 0, yi = y[i], ayi = ay[i];
      const size_t base = i * N;
      for (size_t j = 0; j < N; j++) {
         double c = load(S, base + j, kind);
         if (nf && !isfinite(c)) {
            if (isnan(c)) {
               nf->nan_count++;
               nf->unwritten += isPoison(S, base + j, kind);
            } else
               nf->inf_count++;
            if (nf->first == (size_t)-1)
               nf->first = base + j;
         }
         ldouble lc = c, alc = fabsl(lc);
         acc += lc * x[j];
         aacc += alc * ax[j];
         ys[j] += yi * lc;
         ays[j] += ayi * alc;
      }
      sx[i] = acc;
      asx[i] = aacc;
   }
}

/* The pass over C: non-finite scan, C x and y^T C. */
static void taskC(VerifyCtx *v) {
   NonFinite nf;
   bothSides(v->C, v->out_kind, v->M, v->N, v->x, v->ax, v->y, v->ay, v->cx, v->acx, v->yc, v->ayc, &nf);
   v->nan_count = nf.nan_count;
   v->inf_count = nf.inf_count;
   v->unwritten = nf.unwritten;
   v->first_nf = nf.first;
}

/* B x (a K-vector), then A (B x) (an M-vector). */
static void taskABx(VerifyCtx *v) {
   const Problem *p = v->p;
   const size_t M = v->M, N = v->N, K = v->K;
   if (K == 0) {
      for (size_t i = 0; i < M; i++)
         v->abx_[i] = v->aabx[i] = 0;
      return;
   }
   if (!p->trans_b)
      matvec(v->B, v->in_kind, K, N, true, v->x, v->ax, v->bx, v->abx);
   else
      matvec(v->B, v->in_kind, N, K, false, v->x, v->ax, v->bx, v->abx);
   if (!p->trans_a)
      matvec(v->A, v->in_kind, M, K, true, v->bx, v->abx, v->abx_, v->aabx);
   else
      matvec(v->A, v->in_kind, K, M, false, v->bx, v->abx, v->abx_, v->aabx);
}

/* y^T A (a K-vector), then (y^T A) B (an N-vector). */
static void taskYAB(VerifyCtx *v) {
   const Problem *p = v->p;
   const size_t M = v->M, N = v->N, K = v->K;
   if (K == 0) {
      for (size_t j = 0; j < N; j++)
         v->yab[j] = v->ayab[j] = 0;
      return;
   }
   if (!p->trans_a)
      matvec(v->A, v->in_kind, M, K, false, v->y, v->ay, v->ya, v->aya);
   else
      matvec(v->A, v->in_kind, K, M, true, v->y, v->ay, v->ya, v->aya);
   if (!p->trans_b)
      matvec(v->B, v->in_kind, K, N, false, v->ya, v->aya, v->yab, v->ayab);
   else
      matvec(v->B, v->in_kind, N, K, true, v->ya, v->aya, v->yab, v->ayab);
}

/* C0 x and y^T C0 (zero when beta == 0: C0 is then never read). */
static void taskC0(VerifyCtx *v) {
   const size_t M = v->M, N = v->N;
   if (!v->use_c0) {
      for (size_t i = 0; i < M; i++)
         v->c0x[i] = v->ac0x[i] = 0;
      for (size_t j = 0; j < N; j++)
         v->yc0[j] = v->ayc0[j] = 0;
      return;
   }
   bothSides(v->C0, v->out_kind, M, N, v->x, v->ax, v->y, v->ay, v->c0x, v->ac0x, v->yc0, v->ayc0, NULL);
}

/* S is a rows x cols row-major matrix; out[r] = sqrt(sum_c S[r][c]^2) along rows, else
 * out[c] = sqrt(sum_r S[r][c]^2). Either way each sum runs in ascending index order. */
static void norms(const void *S, ElemKind kind, size_t rows, size_t cols, bool along_rows, ldouble *out) {
   if (along_rows) {
      for (size_t r = 0; r < rows; r++) {
         ldouble sq = 0;
         for (size_t c = 0; c < cols; c++) {
            ldouble s = load(S, r * cols + c, kind);
            sq += s * s;
         }
         out[r] = sqrtl(sq);
      }
   } else {
      for (size_t c = 0; c < cols; c++)
         out[c] = 0;
      for (size_t r = 0; r < rows; r++)
         for (size_t c = 0; c < cols; c++) {
            ldouble s = load(S, r * cols + c, kind);
            out[c] += s * s;
         }
      for (size_t c = 0; c < cols; c++)
         out[c] = sqrtl(out[c]);
   }
}

/* Row norms of op(A), column norms of op(B). Only used when C is all finite, but computed
 * alongside the other passes rather than after the non-finite scan. */
static void taskNorms(VerifyCtx *v) {
   const Problem *p = v->p;
   const size_t M = v->M, N = v->N, K = v->K;
   if (!p->trans_a)
      norms(v->A, v->in_kind, M, K, true, v->anorm);
   else
      norms(v->A, v->in_kind, K, M, false, v->anorm);
   if (!p->trans_b)
      norms(v->B, v->in_kind, K, N, false, v->bnorm);
   else
      norms(v->B, v->in_kind, N, K, true, v->bnorm);
}

/* max_j |c0_ij| |x_j| per row and max_i |c0_ij| |y_i| per column (zero when beta == 0). */
static void taskC0max(VerifyCtx *v) {
   const size_t M = v->M, N = v->N;
   for (size_t i = 0; i < M; i++)
      v->c0rmax[i] = 0;
   for (size_t j = 0; j < N; j++)
      v->c0cmax[j] = 0;
   for (size_t i = 0; v->use_c0 && i < M; i++)
      for (size_t j = 0; j < N; j++) {
         ldouble c0 = fabsl((ldouble)load(v->C0, i * N + j, v->out_kind));
         ldouble along_row = c0 * v->ax[j], along_col = c0 * v->ay[i];
         if (along_row > v->c0rmax[i])
            v->c0rmax[i] = along_row;
         if (along_col > v->c0cmax[j])
            v->c0cmax[j] = along_col;
      }
}

/* The sample entries, computed exactly (to long double), compared element-wise. */
static void taskSamples(VerifyCtx *v) {
   const Problem *p = v->p;
   const size_t N = v->N, K = v->K;
   const ElemKind in = v->in_kind, out = v->out_kind;
   v->bad_samples = 0;
   v->first_bad = (size_t)-1;
   v->bad_got = v->bad_ref = v->bad_rel = v->max_rel = 0;
   for (size_t s = 0; s < v->ns; s++) {
      size_t i = v->idx[s] / N, j = v->idx[s] % N;
      /* The rounding scale (verify.h): sqrt(K) ||p||_2 + sqrt(sum of the partial sums^2);
       * and sum |p| for tf32's cut of the inputs. */
      ldouble acc = 0, squares = 0, partials = 0, absolute = 0;
      for (size_t k = 0; k < K; k++) {
         ldouble prod = (ldouble)opA(p, v->A, i, k, in) * (ldouble)opB(p, v->B, k, j, in);
         acc += prod;
         squares += prod * prod;
         partials += acc * acc;
         absolute += fabsl(prod);
      }
      ldouble ref = v->alpha * acc, scale = v->aalpha * (sqrtl((ldouble)K * squares) + sqrtl(partials));
      ldouble sum = v->aalpha * absolute;
      if (v->use_c0) {
         ldouble c0 = load(v->C0, v->idx[s], out);
         ref += v->beta * c0;
         scale += v->abeta * fabsl(c0);
         sum += v->abeta * fabsl(c0);
      }
      /* The error against the entry's bound, expressed on the tolerance's scale: rel <= tol
       * exactly when it is within the bound (for all but tf32, rel = err / scale). */
      ldouble bound = (ldouble)v->tol_rounding * scale + (ldouble)(v->tol - v->tol_rounding) * sum;
      double c = load(v->C, v->idx[s], out);
      ldouble err = fabsl((ldouble)c - ref);
      double rel;
      if (isnan(err))
         rel = INFINITY;
      else if (err == 0)
         rel = 0.0;
      else if (bound > 0)
         rel = (double)(err / bound * (ldouble)v->tol);
      else
         rel = INFINITY;
      if (rel > v->max_rel)
         v->max_rel = rel;
      if (rel > v->tol) {
         v->bad_samples++;
         if (v->first_bad == (size_t)-1) {
            v->first_bad = v->idx[s];
            v->bad_got = c;
            v->bad_ref = (double)ref;
            v->bad_rel = rel;
         }
      }
   }
}

/* ---- running the tasks ---- */

/* Below this many matrix elements (M N + M K + K N) threads cost more than they save. */
#define PARALLEL_MIN_ELEMENTS 65536
#define MAX_TASKS 8

static atomic_int threadsWanted; /* Verify_setThreads: 0 automatic, 1 serial, n up to n */

void Verify_setThreads(int n) { atomic_store(&threadsWanted, n > 0 ? n : 0); }

typedef struct TaskQueue_ {
   VerifyTaskFn fn[MAX_TASKS];
   size_t n;
   VerifyCtx *ctx;
   atomic_size_t next;
} TaskQueue;

/* Every thread, the caller's included, takes the next task until none are left. */
static void *TaskQueue_drain(void *arg) {
   TaskQueue *q = arg;
   for (size_t t; (t = atomic_fetch_add(&q->next, 1)) < q->n;)
      q->fn[t](q->ctx);
   return NULL;
}

static size_t threadCount(size_t tasks, size_t elements) {
   int wanted = atomic_load(&threadsWanted);
   size_t n;
   if (wanted > 0) {
      n = (size_t)wanted;
   } else {
      long cpus = sysconf(_SC_NPROCESSORS_ONLN);
      n = elements < PARALLEL_MIN_ELEMENTS || cpus < 1 ? 1 : (size_t)cpus;
   }
   return n < tasks ? n : tasks;
}

/* Runs the queue on up to threadCount() threads. A thread that cannot be started is not
 * an error: the calling thread takes its tasks. */
static void TaskQueue_run(TaskQueue *q, size_t elements) {
   atomic_init(&q->next, 0);
   size_t threads = threadCount(q->n, elements), started = 0;
   pthread_t tid[MAX_TASKS];
   while (started + 1 < threads && pthread_create(&tid[started], NULL, TaskQueue_drain, q) == 0)
      started++;
   TaskQueue_drain(q);
   for (size_t t = 0; t < started; t++)
      pthread_join(tid[t], NULL);
}

static void TaskQueue_add(TaskQueue *q, VerifyTaskFn fn) { q->fn[q->n++] = fn; }

/* What the Freivalds checks found: the worst ratio to its bound, rows then columns, and
 * how many were over; then the outliers among the residuals. */
typedef struct Residuals_ {
   double worst_r, worst_c;
   size_t worst_row, worst_col, rows_over, cols_over;
   size_t orow, ocol, out_rows, out_cols;
   double orow_ratio, ocol_ratio;
} Residuals;

/* Bound per row: tol * (|alpha| |A||B||x| + |beta| |C0||x|), plus the rounding of C to
 * the storage precision (eps |C||x|), plus this check's own long double rounding. The same
 * per column with y. With res (2 (M + N) values), each row's and column's residual and
 * magnitude are kept there for the outlier check. */
static void freivalds(const VerifyCtx *c, double tol, double eps, ldouble *res, Residuals *o) {
   const size_t M = c->M, N = c->N;
   const ldouble ld_err = (ldouble)(c->K + M + N + 4) * LDBL_EPSILON;
   ldouble *rres = res, *rmag = res ? res + M : NULL, *cres = res ? res + 2 * M : NULL,
           *cmag = res ? res + 2 * M + N : NULL;
   for (size_t i = 0; i < M; i++) {
      ldouble ref = c->alpha * c->abx_[i] + c->beta * c->c0x[i];
      ldouble mag = c->aalpha * c->aabx[i] + c->abeta * c->ac0x[i];
      ldouble bound = (ldouble)tol * mag + (ldouble)eps * c->acx[i] + ld_err * (mag + c->acx[i]);
      if (res) {
         rres[i] = fabsl(c->cx[i] - ref);
         rmag[i] = mag + c->acx[i];
      }
      double r = ratioOf(fabsl(c->cx[i] - ref), bound);
      if (r > 1.0)
         o->rows_over++;
      if (r > o->worst_r) {
         o->worst_r = r;
         o->worst_row = i;
      }
   }
   for (size_t j = 0; j < N; j++) {
      ldouble ref = c->alpha * c->yab[j] + c->beta * c->yc0[j];
      ldouble mag = c->aalpha * c->ayab[j] + c->abeta * c->ayc0[j];
      ldouble bound = (ldouble)tol * mag + (ldouble)eps * c->ayc[j] + ld_err * (mag + c->ayc[j]);
      if (res) {
         cres[j] = fabsl(c->yc[j] - ref);
         cmag[j] = mag + c->ayc[j];
      }
      double r = ratioOf(fabsl(c->yc[j] - ref), bound);
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
static void outlierCheck(const VerifyCtx *c, double tol, double eps, ldouble *res, Residuals *o) {
   const size_t M = c->M, N = c->N;
   ldouble *rres = res, *rmag = res + M, *cres = res + 2 * M, *cmag = res + 2 * M + N;
   const ldouble *anorm = c->anorm, *bnorm = c->bnorm;
   ldouble bx_max = 0, ay_max = 0;
   for (size_t j = 0; j < N; j++)
      if (bnorm[j] * c->ax[j] > bx_max)
         bx_max = bnorm[j] * c->ax[j];
   for (size_t i = 0; i < M; i++)
      if (anorm[i] * c->ay[i] > ay_max)
         ay_max = anorm[i] * c->ay[i];
   for (size_t i = 0; i < M; i++) {
      ldouble one = (ldouble)tol * (c->aalpha * anorm[i] * bx_max + c->abeta * c->c0rmax[i]);
      ldouble noise = 4 * (ldouble)eps * rmag[i] / sqrtl((ldouble)(N ? N : 1));
      rmag[i] = one > noise ? one : noise;
   }
   for (size_t j = 0; j < N; j++) {
      ldouble one = (ldouble)tol * (c->aalpha * bnorm[j] * ay_max + c->abeta * c->c0cmax[j]);
      ldouble noise = 4 * (ldouble)eps * cmag[j] / sqrtl((ldouble)(M ? M : 1));
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
               "%.2g)",
               out->bad_samples, c->ns, out->first_bad_row, out->first_bad_col, digits, c->bad_got, digits, c->bad_ref,
               c->bad_rel, out->tolerance);
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
      snprintf(out->message, sizeof out->message, "verified (max rel err %.2g, tol %.2g)", out->max_rel_err,
               out->tolerance);
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

/* How many long doubles the work vectors of an M x N x K check take (carveVectors). */
static size_t workVectors(size_t M, size_t N, size_t K) {
   size_t Kv = K ? K : 1;
   return 2 * N + 2 * M      /* x, |x|, y, |y| */
          + 2 * Kv + 2 * M   /* Bx, |B||x|, A(Bx), |A||B||x| */
          + 2 * M + 2 * M    /* Cx, |C||x|, C0x, |C0||x| */
          + 2 * Kv + 2 * N   /* y^T A, |y|^T|A|, (y^T A) B, abs */
          + 2 * N + 2 * N;   /* y^T C, abs, y^T C0, abs */
}

/* The work vectors, in that order, out of mem: x, |x|, y, |y| returned, the rest in c. */
static void carveVectors(VerifyCtx *c, ldouble *mem, ldouble **x, ldouble **ax, ldouble **y, ldouble **ay) {
   const size_t M = c->M, N = c->N, Kv = c->K ? c->K : 1;
   ldouble *q = mem;
#define TAKE(n) (q += (n), q - (n))
   *x = TAKE(N), *ax = TAKE(N), *y = TAKE(M), *ay = TAKE(M);
   c->x = *x, c->ax = *ax, c->y = *y, c->ay = *ay;
   c->bx = TAKE(Kv), c->abx = TAKE(Kv), c->abx_ = TAKE(M), c->aabx = TAKE(M);
   c->cx = TAKE(M), c->acx = TAKE(M), c->c0x = TAKE(M), c->ac0x = TAKE(M);
   c->ya = TAKE(Kv), c->aya = TAKE(Kv), c->yab = TAKE(N), c->ayab = TAKE(N);
   c->yc = TAKE(N), c->ayc = TAKE(N), c->yc0 = TAKE(N), c->ayc0 = TAKE(N);
#undef TAKE
}

/* x and y: random magnitudes in [0.5, 1.5) with random signs; ax and ay the magnitudes. */
static void randomVectors(Rng *rng, ldouble *x, ldouble *ax, size_t N, ldouble *y, ldouble *ay, size_t M) {
   for (size_t j = 0; j < N; j++) {
      ldouble v = Rng_range(rng, 0.5, 1.5);
      ax[j] = v;
      x[j] = (Rng_next(rng) & 1) ? -v : v;
   }
   for (size_t i = 0; i < M; i++) {
      ldouble v = Rng_range(rng, 0.5, 1.5);
      ay[i] = v;
      y[i] = (Rng_next(rng) & 1) ? -v : v;
   }
}

static void verifyKinds(const Problem *p, const void *A, const void *B, Storage in_kind, const void *C0, const void *C,
                        uint64_t seed, VerifyResult *out) {
   if (!worthChecking(p, A, B, C0, C, out))
      return;
   const size_t M = (size_t)p->m, N = (size_t)p->n, K = (size_t)p->k;
   const bool use_c0 = p->beta != 0.0;
   const bool dbl = Types_of(p->precision)->out == STORAGE_F64;
   const double eps = precisionEps(p->precision);
   const double tol = Verify_freivaldsTolerance(p); /* the samples use out->tolerance */
   /* The device sees alpha and beta in the storage precision. */
   const ldouble alpha = dbl ? (ldouble)p->alpha : (ldouble)(float)p->alpha;
   const ldouble beta = dbl ? (ldouble)p->beta : (ldouble)(float)p->beta;

   Rng rng;
   Rng_seed(&rng, seed);

   /* ---- work vectors ---- */
   ldouble *mem = malloc(workVectors(M, N, K) * sizeof *mem);
   size_t *idx = malloc(ALL_SAMPLES_MAX * sizeof *idx);
   if (!mem || !idx) {
      free(mem);
      free(idx);
      fail(out, "FAILED: cannot verify: out of memory");
      return;
   }
   VerifyCtx ctx = {
      .p = p, .A = A, .B = B, .C0 = C0, .C = C, .M = M, .N = N, .K = K,
      .in_kind = in_kind, .out_kind = Types_of(p->precision)->out, .use_c0 = use_c0,
      .alpha = alpha, .beta = beta, .aalpha = fabsl(alpha), .abeta = fabsl(beta), .tol = out->tolerance,
      .tol_rounding = SAMPLE_TOLERANCE_EPS * eps, .idx = idx,
   };
   ldouble *x, *ax, *y, *ay;
   carveVectors(&ctx, mem, &x, &ax, &y, &ay);
   randomVectors(&rng, x, ax, N, y, ay, M);
   /* The sample positions are the next draws after x and y. */
   size_t ns = ctx.ns = pickSamples(M, N, &rng, idx);

   /* Residuals and magnitudes (rows then columns), and norms and C0 maxima for the outlier
    * floors: without memory for these the outlier check is skipped (the others still run). */
   ldouble *res = malloc(2 * (M + N + 1) * sizeof *res);
   ldouble *floors = res ? malloc(2 * (M + N + 1) * sizeof *floors) : NULL;

   if (floors) {
      ctx.anorm = floors;
      ctx.bnorm = floors + M;
      ctx.c0rmax = floors + M + N;
      ctx.c0cmax = floors + 2 * M + N;
   }
   /* The longest tasks first, so that the short ones fill in at the end. */
   TaskQueue tq = {.ctx = &ctx};
   TaskQueue_add(&tq, taskC);
   TaskQueue_add(&tq, taskABx);
   TaskQueue_add(&tq, taskYAB);
   TaskQueue_add(&tq, taskC0);
   if (floors) {
      TaskQueue_add(&tq, taskNorms);
      TaskQueue_add(&tq, taskC0max);
   }
   TaskQueue_add(&tq, taskSamples);
   TaskQueue_run(&tq, M * N + M * K + K * N);

   out->non_finite = ctx.nan_count + ctx.inf_count;
   out->unwritten = ctx.unwritten;
   Residuals o = {0};
   freivalds(&ctx, tol, eps, res, &o);
   out->freivalds_ratio = o.worst_r > o.worst_c ? o.worst_r : o.worst_c;
   if (floors && out->non_finite == 0)
      outlierCheck(&ctx, tol, eps, res, &o);
   free(floors);
   free(res);
   bool outlier_fail = o.out_rows > 0 || o.out_cols > 0;
   out->outlier_ratio = o.orow_ratio > o.ocol_ratio ? o.orow_ratio : o.ocol_ratio;
   /* the sample entries (computed by taskSamples) */
   out->bad_samples = ctx.bad_samples;
   out->samples = ns;
   out->max_rel_err = ctx.max_rel;
   out->ok = out->non_finite == 0 && out->bad_samples == 0 && out->freivalds_ratio <= 1.0 && !outlier_fail;
   describe(&ctx, &o, outlier_fail, dbl, out);
   free(mem);
   free(idx);
}

void Verify_gemm(const Problem *p, const void *A, const void *B, const void *C0, const void *C, uint64_t seed,
                 VerifyResult *out) {
   verifyKinds(p, A, B, Types_of(p->precision)->in, C0, C, seed, out);
}

void Verify_inputs(const Problem *p, const Inputs *in, const void *C, uint64_t seed, VerifyResult *out) {
   if (!Problem_scaled(p)) {
      Verify_gemm(p, in->a, in->b, in->c0, C, seed, out);
      return;
   }
   double *A, *B;
   if (!Inputs_scaledValues(in, p, &A, &B)) {
      if (worthChecking(p, in->a, in->b, in->c0, C, out))
         fail(out, !in->sa || !in->sb ? "FAILED: cannot verify: the FP8 scales are missing"
                                      : "FAILED: cannot verify: out of memory");
   } else {
      verifyKinds(p, A, B, STORAGE_F64, in->c0, C, seed, out);
   }
   free(A);
   free(B);
}
