/* The made-up cuBLASLt: see fake_cublaslt.h. Only the calls gemmtop makes, with cuBLASLt's
 * shapes and numbers (cublasLt.h, library_types.h); its own FP8 decoder, written apart from
 * gemmtop's. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fake_cublaslt.h"

enum { OK = 0, INVALID_VALUE = 7, NOT_SUPPORTED = 15 };
enum { R_32F = 0, R_16BF = 14, R_E4M3 = 28, R_E5M2 = 29 };
enum { VEC128 = 4, BLK128x128 = 5 };
#define ALGO_MAGIC 0xfa4eu

typedef struct {
   int compute, scale_type, transa, transb, a_mode, b_mode;
   const void *a_scale, *b_scale;
} Desc;
typedef struct {
   int type;
   unsigned long long rows, cols;
   long long ld;
} Layout;
typedef struct {
   unsigned long long max_workspace;
} Pref;
typedef struct {
   uint64_t data[8];
} Algo;
typedef struct {
   Algo algo;
   size_t workspaceSize;
   int state;
   float wavesCount;
   int reserved[4];
} Heuristic;

static FakeLtScript script;
static FakeLtCalls calls;
static int handle_token;

/* Exported for the test, and cuBLASLt's calls. */
void FakeLt_script(const FakeLtScript *s);
const FakeLtCalls *FakeLt_calls(void);
int cublasLtCreate(void **h);
int cublasLtDestroy(void *h);
size_t cublasLtGetVersion(void);
const char *cublasLtGetStatusString(int st);
int cublasLtMatmulDescCreate(Desc **d, int compute, int scale_type);
int cublasLtMatmulDescDestroy(Desc *d);
int cublasLtMatmulDescSetAttribute(Desc *d, int attr, const void *buf, size_t size);
int cublasLtMatrixLayoutCreate(Layout **l, int type, uint64_t rows, uint64_t cols, int64_t ld);
int cublasLtMatrixLayoutDestroy(Layout *l);
int cublasLtMatmulPreferenceCreate(Pref **p);
int cublasLtMatmulPreferenceDestroy(Pref *p);
int cublasLtMatmulPreferenceSetAttribute(Pref *p, int attr, const void *buf, size_t size);
int cublasLtMatmulAlgoGetHeuristic(void *h, Desc *d, Layout *a, Layout *b, Layout *c, Layout *dl, Pref *p, int want,
                                   Heuristic *out, int *count);
int cublasLtMatmul(void *h, Desc *d, const void *alpha, const void *A, Layout *a, const void *B, Layout *b,
                   const void *beta, const void *C, Layout *c, void *D, Layout *dl, const Algo *algo, void *ws,
                   size_t wsSize, void *stream);

void FakeLt_script(const FakeLtScript *s) {
   script = *s;
   memset(&calls, 0, sizeof calls);
}
const FakeLtCalls *FakeLt_calls(void) { return &calls; }

int cublasLtCreate(void **h) {
   calls.creates++;
   *h = script.create_status == OK ? &handle_token : NULL;
   return script.create_status;
}
int cublasLtDestroy(void *h) {
   calls.destroys++;
   return h == &handle_token ? OK : INVALID_VALUE;
}
size_t cublasLtGetVersion(void) { return script.version; }
const char *cublasLtGetStatusString(int st) {
   return st == OK ? "CUBLAS_STATUS_SUCCESS" : st == NOT_SUPPORTED ? "CUBLAS_STATUS_NOT_SUPPORTED" : "CUBLAS_STATUS_OTHER";
}

int cublasLtMatmulDescCreate(Desc **d, int compute, int scale_type) {
   *d = calloc(1, sizeof **d);
   if (!*d)
      return 3;
   (*d)->compute = compute;
   (*d)->scale_type = scale_type;
   calls.live_objects++;
   return OK;
}
int cublasLtMatmulDescDestroy(Desc *d) {
   free(d);
   calls.live_objects--;
   return OK;
}
int cublasLtMatmulDescSetAttribute(Desc *d, int attr, const void *buf, size_t size) {
   int32_t v = 0;
   const void *ptr = NULL;
   if (size == sizeof v)
      memcpy(&v, buf, sizeof v);
   else if (size == sizeof ptr)
      memcpy(&ptr, buf, sizeof ptr);
   else
      return INVALID_VALUE;
   switch (attr) {
   case 3: d->transa = v; return OK;
   case 4: d->transb = v; return OK;
   case 17: d->a_scale = ptr; return OK;
   case 18: d->b_scale = ptr; return OK;
   case 31:
   case 32:
      if (!script.scale_modes)
         return INVALID_VALUE; /* a cuBLASLt older than the scale modes */
      *(attr == 31 ? &d->a_mode : &d->b_mode) = v;
      return OK;
   default: return INVALID_VALUE;
   }
}

int cublasLtMatrixLayoutCreate(Layout **l, int type, uint64_t rows, uint64_t cols, int64_t ld) {
   *l = calloc(1, sizeof **l);
   if (!*l)
      return 3;
   **l = (Layout){type, rows, cols, ld};
   calls.live_objects++;
   return OK;
}
int cublasLtMatrixLayoutDestroy(Layout *l) {
   free(l);
   calls.live_objects--;
   return OK;
}
int cublasLtMatmulPreferenceCreate(Pref **p) {
   *p = calloc(1, sizeof **p);
   calls.live_objects++;
   return *p ? OK : 3;
}
int cublasLtMatmulPreferenceDestroy(Pref *p) {
   free(p);
   calls.live_objects--;
   return OK;
}
int cublasLtMatmulPreferenceSetAttribute(Pref *p, int attr, const void *buf, size_t size) {
   if (attr != 1 || size != sizeof p->max_workspace)
      return INVALID_VALUE;
   memcpy(&p->max_workspace, buf, size);
   return OK;
}

static bool fp8(int t) { return t == R_E4M3 || t == R_E5M2; }
static bool blockMode(int m) { return m == VEC128 || m == BLK128x128; }

/* What the real library offers for FP8 (cuBLASLt's documentation of cublasLtMatmul). */
static int supported(const Desc *d, const Layout *a, const Layout *b, const Layout *c, const Layout *dl) {
   if (!script.fp8 || !fp8(a->type) || !fp8(b->type) || (a->type == R_E5M2 && b->type == R_E5M2))
      return NOT_SUPPORTED;
   if (d->transa != 1 || d->transb != 0 || d->compute != 68 || d->scale_type != R_32F)
      return NOT_SUPPORTED; /* FP8 is "TN" with FP32 compute only */
   if (c->type != dl->type || (dl->type != R_32F && dl->type != R_16BF))
      return NOT_SUPPORTED;
   if (blockMode(d->a_mode) || blockMode(d->b_mode)) {
      if (!script.block || !blockMode(d->a_mode) || !blockMode(d->b_mode) ||
          (d->a_mode == BLK128x128 && d->b_mode == BLK128x128) || (script.block_bf16_only && dl->type != R_16BF))
         return NOT_SUPPORTED;
   } else if (d->a_mode || d->b_mode) {
      return NOT_SUPPORTED;
   }
   /* op(A) = A^T is cols x rows, op(B) = B is rows x cols: K must agree, D be op(A) op(B). */
   if (a->rows != b->rows || dl->rows != a->cols || dl->cols != b->cols || c->rows != dl->rows ||
       c->cols != dl->cols || a->ld < (long long)a->rows || b->ld < (long long)b->rows || dl->ld < (long long)dl->rows ||
       c->ld < (long long)c->rows)
      return INVALID_VALUE;
   return OK;
}

int cublasLtMatmulAlgoGetHeuristic(void *h, Desc *d, Layout *a, Layout *b, Layout *c, Layout *dl, Pref *p, int want,
                                   Heuristic *out, int *count) {
   calls.heuristics++;
   calls.requested = want;
   calls.max_workspace = p ? p->max_workspace : 0;
   *count = 0;
   if (h != &handle_token || want <= 0)
      return INVALID_VALUE;
   int st = supported(d, a, b, c, dl);
   if (st != OK)
      return st;
   int n = script.algos < want ? script.algos : want;
   for (int i = 0; i < n; i++) {
      memset(&out[i], 0, sizeof out[i]);
      out[i].algo.data[0] = (uint64_t)i;
      out[i].algo.data[1] = ALGO_MAGIC;
      out[i].workspaceSize = (size_t)1 << 20;
      out[i].wavesCount = 1;
   }
   *count = n;
   return OK;
}

/* OCP FP8, decoded on its own terms. */
static double e4m3(uint8_t v) {
   int sign = v >> 7, exp = (v >> 3) & 15, man = v & 7;
   if (exp == 15 && man == 7)
      return NAN;
   double x = exp ? ldexp(1.0 + man / 8.0, exp - 7) : ldexp(man / 8.0, -6);
   return sign ? -x : x;
}
static double e5m2(uint8_t v) {
   int sign = v >> 7, exp = (v >> 2) & 31, man = v & 3;
   if (exp == 31)
      return man ? NAN : sign ? -INFINITY : INFINITY;
   double x = exp ? ldexp(1.0 + man / 4.0, exp - 15) : ldexp(man / 4.0, -14);
   return sign ? -x : x;
}
static double fp8Value(int type, const uint8_t *p, size_t i) { return type == R_E5M2 ? e5m2(p[i]) : e4m3(p[i]); }

static float bf16ToFloat(uint16_t h) {
   uint32_t u = (uint32_t)h << 16;
   float f;
   memcpy(&f, &u, sizeof f);
   return f;
}
static uint16_t bf16FromFloat(float f) {
   uint32_t u;
   memcpy(&u, &f, sizeof u);
   u += 0x7fffu + ((u >> 16) & 1u); /* to nearest, ties to even (finite values) */
   return (uint16_t)(u >> 16);
}

static size_t round4(size_t x) { return (x + 3) / 4 * 4; }

/* The scale of element (k, outer) of a K x outer operand stored with K contiguous. */
static double scaleOf(int mode, const void *ptr, size_t k, size_t outer, size_t K, size_t outers) {
   const float *s = ptr;
   if (!s)
      return 1.0;
   if (mode == VEC128) /* ceil(K/128) rows of roundup(outers, 4) */
      return s[(k / 128) * round4(outers) + outer];
   if (mode == BLK128x128) /* ceil(outers/128) rows of roundup(ceil(K/128), 4) */
      return s[(outer / 128) * round4((K + 127) / 128) + k / 128];
   return s[0];
}

static double cValue(const Layout *l, const void *C, size_t i, size_t j) {
   size_t at = i + j * (size_t)l->ld;
   return l->type == R_16BF ? bf16ToFloat(((const uint16_t *)C)[at]) : ((const float *)C)[at];
}

int cublasLtMatmul(void *h, Desc *d, const void *alpha, const void *A, Layout *a, const void *B, Layout *b,
                   const void *beta, const void *C, Layout *c, void *D, Layout *dl, const Algo *algo, void *ws,
                   size_t wsSize, void *stream) {
   (void)stream;
   if (h != &handle_token || !algo || algo->data[1] != ALGO_MAGIC || (int)algo->data[0] >= script.algos)
      return INVALID_VALUE;
   int st = supported(d, a, b, c, dl);
   if (st != OK)
      return st;
   if (wsSize && !ws)
      return INVALID_VALUE;
   const int idx = (int)algo->data[0];
   const size_t K = a->rows, N = a->cols, M = b->cols;
   const double al = *(const float *)alpha, be = *(const float *)beta;
   for (size_t j = 0; j < M; j++)
      for (size_t i = 0; i < N; i++) {
         double sum = 0;
         for (size_t k = 0; k < K; k++) {
            double x = fp8Value(a->type, A, k + i * (size_t)a->ld) * scaleOf(d->a_mode, d->a_scale, k, i, K, N);
            double y = fp8Value(b->type, B, k + j * (size_t)b->ld) * scaleOf(d->b_mode, d->b_scale, k, j, K, M);
            sum += x * y;
         }
         double v = al * sum + (be != 0 ? be * cValue(c, C, i, j) : 0);
         size_t at = i + j * (size_t)dl->ld;
         if (dl->type == R_16BF)
            ((uint16_t *)D)[at] = bf16FromFloat((float)v);
         else
            ((float *)D)[at] = (float)v;
      }
   calls.matmuls++;
   calls.runs[idx]++;
   calls.clock_ms += script.algo_ms[idx];
   calls.last = (FakeLtCall){.transa = d->transa, .transb = d->transb, .compute = d->compute,
                             .scale_type = d->scale_type, .a_type = a->type, .b_type = b->type, .c_type = c->type,
                             .d_type = dl->type, .a_rows = a->rows, .a_cols = a->cols, .b_rows = b->rows,
                             .b_cols = b->cols, .c_rows = c->rows, .c_cols = c->cols, .d_rows = dl->rows,
                             .d_cols = dl->cols, .lda = a->ld, .ldb = b->ld, .ldc = c->ld, .ldd = dl->ld,
                             .a_scale_mode = d->a_mode, .b_scale_mode = d->b_mode, .a_scale = d->a_scale,
                             .b_scale = d->b_scale, .alpha = (float)al, .beta = (float)be, .algo = idx,
                             .workspace = wsSize, .workspace_given = ws != NULL, .in_place = C == D};
   return OK;
}
