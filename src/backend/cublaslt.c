/* cuBLASLt's FP8 GEMM: see cublaslt.h for how the problem and its scales are put to it.
 * The few declarations it needs are written out here, their values from cublasLt.h,
 * library_types.h and cublas_api.h (CUDA 13.0), so gemmtop builds without the toolkit. */
#include "backend/cublaslt.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* cublasStatus_t */
enum { LT_SUCCESS = 0, LT_ALLOC_FAILED = 3, LT_INVALID_VALUE = 7, LT_NOT_SUPPORTED = 15 };
/* cudaDataType_t, cublasComputeType_t, cublasOperation_t */
enum { LT_R_32F = 0, LT_R_16BF = 14, LT_R_8F_E4M3 = 28, LT_R_8F_E5M2 = 29 };
enum { LT_COMPUTE_32F = 68 };
enum { LT_OP_N = 0, LT_OP_T = 1 };
/* cublasLtMatmulDescAttributes_t, cublasLtMatmulPreferenceAttributes_t */
enum {
   LT_DESC_TRANSA = 3, LT_DESC_TRANSB = 4, LT_DESC_A_SCALE_POINTER = 17, LT_DESC_B_SCALE_POINTER = 18,
   LT_DESC_A_SCALE_MODE = 31, LT_DESC_B_SCALE_MODE = 32,
};
enum { LT_PREF_MAX_WORKSPACE_BYTES = 1 };
/* cublasLtMatmulMatrixScale_t */
enum { LT_SCALE_SCALAR_32F = 0, LT_SCALE_VEC128_32F = 4, LT_SCALE_BLK128x128_32F = 5 };

typedef struct {
   uint64_t data[8];
} LtAlgo; /* cublasLtMatmulAlgo_t */
typedef struct {
   LtAlgo algo;
   size_t workspaceSize;
   int state;
   float wavesCount;
   int reserved[4];
} LtHeuristic; /* cublasLtMatmulHeuristicResult_t */
typedef void *LtHandle, *LtDesc, *LtLayout, *LtPref;

#define LT_ALGOS 8                 /* asked of the heuristic */
#define LT_WORKSPACE (32u << 20)   /* bytes: cuBLASLt's FP8 kernels want a large one */
#define LT_PLANS 16                /* algorithm choices kept */
#define LT_BLOCK 128               /* the scales' block along K (core/model/scales.h's SCALES_BLOCK) */
#define LT_FP8_PROMOTE_INTERVAL 128 /* products between promotions, as verification assumes it */

/* The algorithm chosen for one problem. */
typedef struct LtPlan_ {
   int m, n, k;
   Precision precision;
   BackendScales scales;
   bool c_bf16, beta;
   LtAlgo algo;
   size_t workspace;
   int offered;                    /* algorithms the heuristic offered */
   unsigned long last_use;         /* 0: free */
} LtPlan;

struct CublasLt_ {
   void *lib;
   char why[300];                  /* why there is no library, or no handle */
   size_t version;                 /* cublasLtGetVersion: 130100 for 13.1.0 */
   int (*create)(LtHandle *);
   int (*destroy)(LtHandle);
   size_t (*getVersion)(void);
   const char *(*statusString)(int);
   int (*descCreate)(LtDesc *, int, int);
   int (*descDestroy)(LtDesc);
   int (*descSet)(LtDesc, int, const void *, size_t);
   int (*layoutCreate)(LtLayout *, int, uint64_t, uint64_t, int64_t);
   int (*layoutDestroy)(LtLayout);
   int (*prefCreate)(LtPref *);
   int (*prefDestroy)(LtPref);
   int (*prefSet)(LtPref, int, const void *, size_t);
   int (*heuristic)(LtHandle, LtDesc, LtLayout, LtLayout, LtLayout, LtLayout, LtPref, int, LtHeuristic *, int *);
   int (*matmul)(LtHandle, LtDesc, const void *, const void *, LtLayout, const void *, LtLayout, const void *,
                 const void *, LtLayout, void *, LtLayout, const LtAlgo *, void *, size_t, void *);
   LtHandle handle;
   unsigned long long workspace;
   /* The scales on the device in cuBLASLt's layout: [0] its A's (gemmtop B's), [1] its B's. */
   unsigned long long scales[2];
   size_t scale_bytes[2];
   unsigned long scales_generation;
   BackendScales scales_kind;
   int scales_m, scales_n, scales_k;
   LtPlan plans[LT_PLANS];
   unsigned long clock;
};

bool CublasLt_takes(Precision p) { return Types_of(p)->scaled; }

/* cuBLASLt's data type of A and B for p: the OCP FP8 formats gemmtop's types are. */
static int abType(Precision p) {
   static const int kLtTypes[STORAGE_KINDS] = {[STORAGE_E4M3] = LT_R_8F_E4M3, [STORAGE_E5M2] = LT_R_8F_E5M2};
   return kLtTypes[Types_of(p)->in];
}

static const char *statusText(const CublasLt *lt, int st) {
   const char *s = lt->statusString ? lt->statusString(st) : NULL;
   return s ? s : "status";
}

static void *sym(void *lib, const char *name) { return dlsym(lib, name); }

/* The library and a handle; on failure lt->why says which is missing. */
static CublasLt *open_(void) {
   CublasLt *lt = calloc(1, sizeof *lt);
   if (!lt)
      return NULL;
   const char *env = getenv("GEMMTOP_CUBLASLT");
   if (env && *env) {
      /* The named file alone: the tests point it at a made-up library, and at none. */
      lt->lib = dlopen(env, RTLD_NOW | RTLD_LOCAL);
      if (!lt->lib)
         snprintf(lt->why, sizeof lt->why, "cuBLASLt is not available ($GEMMTOP_CUBLASLT=%s: %s)", env, dlerror());
   } else {
      const char *names[] = {"libcublasLt.so.13", "libcublasLt.so", "libcublasLt.so.12", NULL};
      lt->lib = Gpu_openLibrary(names, "/usr/local/cuda*/lib*/libcublasLt.so*", NULL, 0);
      if (!lt->lib)
         snprintf(lt->why, sizeof lt->why,
                  "cuBLASLt is not available (libcublasLt.so.13 not found: it comes with the CUDA toolkit or "
                  "the nvidia-cublas package)");
   }
   if (!lt->lib)
      return lt;
#define LT_SYM(field, name) *(void **)&lt->field = sym(lt->lib, name)
   LT_SYM(create, "cublasLtCreate");
   LT_SYM(destroy, "cublasLtDestroy");
   LT_SYM(getVersion, "cublasLtGetVersion");
   LT_SYM(statusString, "cublasLtGetStatusString");
   LT_SYM(descCreate, "cublasLtMatmulDescCreate");
   LT_SYM(descDestroy, "cublasLtMatmulDescDestroy");
   LT_SYM(descSet, "cublasLtMatmulDescSetAttribute");
   LT_SYM(layoutCreate, "cublasLtMatrixLayoutCreate");
   LT_SYM(layoutDestroy, "cublasLtMatrixLayoutDestroy");
   LT_SYM(prefCreate, "cublasLtMatmulPreferenceCreate");
   LT_SYM(prefDestroy, "cublasLtMatmulPreferenceDestroy");
   LT_SYM(prefSet, "cublasLtMatmulPreferenceSetAttribute");
   LT_SYM(heuristic, "cublasLtMatmulAlgoGetHeuristic");
   LT_SYM(matmul, "cublasLtMatmul");
#undef LT_SYM
   if (!lt->create || !lt->destroy || !lt->descCreate || !lt->descDestroy || !lt->descSet || !lt->layoutCreate ||
       !lt->layoutDestroy || !lt->prefCreate || !lt->prefDestroy || !lt->prefSet || !lt->heuristic || !lt->matmul) {
      snprintf(lt->why, sizeof lt->why, "cuBLASLt is not available (the library lacks cublasLtMatmul or its "
                                        "descriptors: too old?)");
      return lt;
   }
   lt->version = lt->getVersion ? lt->getVersion() : 0;
   int st = lt->create(&lt->handle);
   if (st != LT_SUCCESS) {
      lt->handle = NULL;
      snprintf(lt->why, sizeof lt->why, "cuBLASLt is not available (cublasLtCreate failed: %s, %d)", statusText(lt, st),
               st);
   }
   return lt;
}

void CublasLt_free(CublasLt *lt, const CublasLtDevice *dev) {
   if (!lt)
      return;
   if (dev) {
      if (lt->workspace)
         dev->release(dev->self, lt->workspace);
      for (int i = 0; i < 2; i++)
         if (lt->scales[i])
            dev->release(dev->self, lt->scales[i]);
   }
   if (lt->handle)
      lt->destroy(lt->handle);
   if (lt->lib)
      dlclose(lt->lib);
   free(lt);
}

/* "cuBLASLt 13.1.0 e4m3 block" (", bf16 C" when C is bfloat16). */
static void nameOf(const CublasLt *lt, const BackendGemm *p, char *out, size_t len) {
   char version[32] = "";
   if (lt && lt->version)
      snprintf(version, sizeof version, " %zu.%zu.%zu", lt->version / 10000, lt->version / 100 % 100,
               lt->version % 100);
   if (!CublasLt_takes(p->precision))
      snprintf(out, len, "cuBLASLt%s", version);
   else
      snprintf(out, len, "cuBLASLt%s %s %s%s", version, Types_of(p->precision)->name,
               p->scales == BACKEND_SCALES_BLOCK ? "block" : "tensor", p->c_bf16 ? ", bf16 C" : "");
}

static size_t ceilDiv(size_t a, size_t b) { return (a + b - 1) / b; }
static size_t roundUp4(size_t a) { return (a + 3) / 4 * 4; }

/* The scales in cuBLASLt's layout (cublaslt.h), uploaded when they changed: [0] for its A
 * (gemmtop B's), [1] for its B (gemmtop A's). */
static BackendStatus uploadScales(CublasLt *lt, const CublasLtDevice *dev, const BackendGemm *p, char *err,
                                  size_t errlen) {
   if (p->scales_generation && p->scales_generation == lt->scales_generation && p->scales == lt->scales_kind &&
       p->m == lt->scales_m && p->n == lt->scales_n && p->k == lt->scales_k)
      return BACKEND_OK;
   const size_t M = (size_t)p->m, N = (size_t)p->n, KB = ceilDiv((size_t)p->k, LT_BLOCK);
   const size_t NB = ceilDiv(N, LT_BLOCK);
   const bool block = p->scales == BACKEND_SCALES_BLOCK;
   const size_t ldb = roundUp4(KB), lda = roundUp4(M);
   size_t count[2] = {block ? NB * ldb : 1, block ? KB * lda : 1};
   float *host[2] = {malloc(count[0] * sizeof(float)), malloc(count[1] * sizeof(float))};
   BackendStatus st = BACKEND_OK;
   if (!host[0] || !host[1]) {
      snprintf(err, errlen, "out of host memory for cuBLASLt's scales");
      st = BACKEND_ERR_OUT_OF_MEMORY;
      goto done;
   }
   if (!block) {
      host[0][0] = p->scale_b[0];
      host[1][0] = p->scale_a[0];
   } else {
      for (size_t i = 0; i < count[0]; i++)
         host[0][i] = 1.0f; /* the padding, never read */
      for (size_t i = 0; i < count[1]; i++)
         host[1][i] = 1.0f;
      for (size_t kb = 0; kb < KB; kb++)
         for (size_t jb = 0; jb < NB; jb++)
            host[0][jb * ldb + kb] = p->scale_b[kb * NB + jb];
      for (size_t i = 0; i < M; i++)
         for (size_t kb = 0; kb < KB; kb++)
            host[1][kb * lda + i] = p->scale_a[i * KB + kb];
   }
   for (int i = 0; i < 2 && st == BACKEND_OK; i++) {
      size_t bytes = count[i] * sizeof(float);
      if (lt->scale_bytes[i] < bytes) {
         if (lt->scales[i])
            dev->release(dev->self, lt->scales[i]);
         lt->scales[i] = 0;
         lt->scale_bytes[i] = 0;
         if (dev->alloc(dev->self, bytes, &lt->scales[i]) != 0) {
            snprintf(err, errlen, "out of device memory for cuBLASLt's scales (%zu bytes)", bytes);
            st = BACKEND_ERR_OUT_OF_MEMORY;
            break;
         }
         lt->scale_bytes[i] = bytes;
      }
      if (dev->upload(dev->self, lt->scales[i], host[i], bytes) != 0) {
         snprintf(err, errlen, "uploading cuBLASLt's scales failed");
         st = BACKEND_ERR_OTHER;
      }
   }
   if (st == BACKEND_OK) {
      lt->scales_generation = p->scales_generation;
      lt->scales_kind = p->scales;
      lt->scales_m = p->m, lt->scales_n = p->n, lt->scales_k = p->k;
   } else {
      lt->scales_generation = 0;
   }
done:
   free(host[0]);
   free(host[1]);
   return st;
}

/* One call's descriptors. */
typedef struct LtCall_ {
   LtDesc desc;
   LtLayout a, b, c;   /* cuBLASLt's A (gemmtop B), B (gemmtop A), and C and D */
} LtCall;

static void releaseCall(const CublasLt *lt, LtCall *call) {
   if (call->desc)
      lt->descDestroy(call->desc);
   LtLayout layouts[] = {call->a, call->b, call->c};
   for (int i = 0; i < 3; i++)
      if (layouts[i])
         lt->layoutDestroy(layouts[i]);
   memset(call, 0, sizeof *call);
}

/* The descriptors of p (cublaslt.h's mapping); UNSUPPORTED when the library does not know
 * the block scale modes. */
static BackendStatus describe(const CublasLt *lt, const CublasLtDevice *dev, const BackendGemm *p, LtCall *call,
                              char *err, size_t errlen) {
   memset(call, 0, sizeof *call);
   const int transa = LT_OP_T, transb = LT_OP_N, ab = abType(p->precision), ct = p->c_bf16 ? LT_R_16BF : LT_R_32F;
   const void *sa = (const void *)(uintptr_t)lt->scales[0], *sb = (const void *)(uintptr_t)lt->scales[1];
   int st = lt->descCreate(&call->desc, LT_COMPUTE_32F, LT_R_32F);
   if (st == LT_SUCCESS)
      st = lt->descSet(call->desc, LT_DESC_TRANSA, &transa, sizeof transa);
   if (st == LT_SUCCESS)
      st = lt->descSet(call->desc, LT_DESC_TRANSB, &transb, sizeof transb);
   if (st == LT_SUCCESS)
      st = lt->descSet(call->desc, LT_DESC_A_SCALE_POINTER, &sa, sizeof sa);
   if (st == LT_SUCCESS)
      st = lt->descSet(call->desc, LT_DESC_B_SCALE_POINTER, &sb, sizeof sb);
   if (st == LT_SUCCESS && p->scales == BACKEND_SCALES_BLOCK) {
      const int32_t modeA = LT_SCALE_BLK128x128_32F, modeB = LT_SCALE_VEC128_32F;
      st = lt->descSet(call->desc, LT_DESC_A_SCALE_MODE, &modeA, sizeof modeA);
      if (st == LT_SUCCESS)
         st = lt->descSet(call->desc, LT_DESC_B_SCALE_MODE, &modeB, sizeof modeB);
      if (st != LT_SUCCESS) {
         char name[64];
         nameOf(lt, p, name, sizeof name);
         snprintf(err, errlen,
                  "cuBLASLt has no block-scaled FP8 on this device (sm_%d): %s does not take the scale modes "
                  "VEC128_32F and BLK128x128_32F (%s); per-tensor scales are another problem, not put in its place",
                  dev->sm, name, statusText(lt, st));
         releaseCall(lt, call);
         return BACKEND_ERR_UNSUPPORTED;
      }
   }
   const uint64_t M = (uint64_t)p->m, N = (uint64_t)p->n, K = (uint64_t)p->k;
   if (st == LT_SUCCESS)
      st = lt->layoutCreate(&call->a, ab, K, N, (int64_t)K);
   if (st == LT_SUCCESS)
      st = lt->layoutCreate(&call->b, ab, K, M, (int64_t)K);
   if (st == LT_SUCCESS)
      st = lt->layoutCreate(&call->c, ct, N, M, (int64_t)N);
   if (st != LT_SUCCESS) {
      snprintf(err, errlen, "cuBLASLt: making its descriptors failed: %s (%d)", statusText(lt, st), st);
      releaseCall(lt, call);
      return st == LT_ALLOC_FAILED ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
   }
   return BACKEND_OK;
}

/* What cuBLASLt says when it has no algorithm for p, in words. */
static void noAlgorithm(const CublasLt *lt, const CublasLtDevice *dev, const BackendGemm *p, int st, char *err,
                        size_t errlen) {
   char name[64];
   nameOf(lt, p, name, sizeof name);
   const char *type = Types_of(p->precision)->name;
   if (p->scales == BACKEND_SCALES_BLOCK)
      snprintf(err, errlen,
               "cuBLASLt has no block-scaled FP8 on this device (sm_%d): %s offers no algorithm for %s x %s with 1x128 "
               "(VEC128_32F) and 128x128 (BLK128x128_32F) scales at %dx%dx%d (%s); per-tensor scales are another "
               "problem, not put in its place",
               dev->sm, name, type, type, p->m, p->n, p->k, statusText(lt, st));
   else
      snprintf(err, errlen,
               "cuBLASLt has no FP8 GEMM for %s x %s%s on this device (sm_%d) at %dx%dx%d: %s offers no algorithm "
               "(%s)%s",
               type, type, p->c_bf16 ? " with bfloat16 C" : "", dev->sm, p->m, p->n, p->k, name, statusText(lt, st),
               abType(p->precision) == LT_R_8F_E5M2
                   ? "; NVIDIA documents its FP8 GEMMs with at least one operand in e4m3"
                   : dev->sm < 89 ? "; FP8 tensor cores need sm_89 or newer" : "");
}

static LtPlan *findPlan(CublasLt *lt, const BackendGemm *p) {
   for (int i = 0; i < LT_PLANS; i++) {
      LtPlan *pl = &lt->plans[i];
      if (pl->last_use && pl->m == p->m && pl->n == p->n && pl->k == p->k && pl->precision == p->precision &&
          pl->scales == p->scales && pl->c_bf16 == p->c_bf16 && pl->beta == (p->beta != 0))
         return pl;
   }
   return NULL;
}

/* One cublasLtMatmul on the device's stream, between events when ms is wanted. */
static int matmul(CublasLt *lt, const CublasLtDevice *dev, const LtCall *call, const BackendGemm *p, const LtAlgo *algo,
                  size_t workspace, unsigned long long A, unsigned long long B, unsigned long long C,
                  unsigned long long D, double *ms, BackendStatus *timing, char *err, size_t errlen) {
   const float alpha = (float)p->alpha, beta = (float)p->beta;
   Event *e = NULL;
   *timing = BACKEND_OK;
   if (ms) {
      *ms = -1;
      e = Gpu_eventStart(dev->rt, dev->stream, dev->hold, err, errlen);
      if (!e) {
         *timing = BACKEND_ERR_OTHER;
         return LT_SUCCESS;
      }
   }
   /* cuBLASLt's A is gemmtop's B and its B gemmtop's A (cublaslt.h). */
   int st = lt->matmul(lt->handle, call->desc, &alpha, (const void *)(uintptr_t)B, call->a, (const void *)(uintptr_t)A,
                       call->b, &beta, (const void *)(uintptr_t)C, call->c, (void *)(uintptr_t)D, call->c, algo,
                       (void *)(uintptr_t)lt->workspace, workspace, dev->stream);
   if (e) {
      *timing = Gpu_eventStop(e, dev->stream, err, errlen);
      if (*timing == BACKEND_OK)
         *timing = Gpu_eventWait(e, ms, "waiting for cuBLASLt", err, errlen);
      Gpu_releaseEvent(e);
   }
   return st;
}

/* The heuristic's algorithms for a call (up to LT_ALGOS into found, *count of them). */
static int ask(const CublasLt *lt, const LtCall *call, LtHeuristic *found, int *count) {
   LtPref pref = NULL;
   uint64_t wsBytes = LT_WORKSPACE;
   *count = 0;
   int st = lt->prefCreate(&pref);
   if (st == LT_SUCCESS)
      st = lt->prefSet(pref, LT_PREF_MAX_WORKSPACE_BYTES, &wsBytes, sizeof wsBytes);
   if (st == LT_SUCCESS)
      st = lt->heuristic(lt->handle, call->desc, call->a, call->b, call->c, call->c, pref, LT_ALGOS, found, count);
   if (pref)
      lt->prefDestroy(pref);
   return st;
}

/* Whether cuBLASLt offers p's block scales with a bfloat16 C, where it offered none with
 * FP32: said so, not timed in its place. */
static bool blockOnlyInBf16(const CublasLt *lt, const CublasLtDevice *dev, const BackendGemm *p) {
   if (p->scales != BACKEND_SCALES_BLOCK || p->c_bf16)
      return false;
   BackendGemm q = *p;
   q.c_bf16 = true;
   q.beta = 0;
   LtCall call;
   char ignored[256];
   LtHeuristic found[LT_ALGOS];
   int count = 0;
   if (describe(lt, dev, &q, &call, ignored, sizeof ignored) != BACKEND_OK)
      return false;
   int st = ask(lt, &call, found, &count);
   releaseCall(lt, &call);
   return st == LT_SUCCESS && count > 0;
}

/* The fastest of the heuristic's algorithms for p, into a new plan: each run once untimed,
 * then once timed (into a scratch D when C is read, so that C stays as it was). */
static BackendStatus choose(CublasLt *lt, const CublasLtDevice *dev, const BackendGemm *p, const LtCall *call,
                            unsigned long long A, unsigned long long B, unsigned long long C, LtPlan **out, char *err,
                            size_t errlen) {
   LtHeuristic found[LT_ALGOS];
   int count = 0;
   int st = ask(lt, call, found, &count);
   if (st != LT_SUCCESS || count <= 0) {
      noAlgorithm(lt, dev, p, st, err, errlen);
      if (blockOnlyInBf16(lt, dev, p)) {
         char name[64];
         nameOf(lt, p, name, sizeof name);
         snprintf(err, errlen,
                  "%s: cuBLASLt offers block-scaled FP8 on this device (sm_%d) with a bfloat16 C only, none with "
                  "gemmtop's FP32 C (%s); --vendor-output bfloat16 times that one", name, dev->sm, statusText(lt, st));
      }
      return st == LT_SUCCESS || st == LT_NOT_SUPPORTED || st == LT_INVALID_VALUE ? BACKEND_ERR_UNSUPPORTED
                                                                                 : BACKEND_ERR_OTHER;
   }
   const size_t cBytes = (size_t)p->m * (size_t)p->n * (p->c_bf16 ? 2 : 4);
   unsigned long long D = C;
   if (p->beta != 0 && dev->alloc(dev->self, cBytes, &D) != 0) {
      snprintf(err, errlen, "out of device memory for a scratch C (%zu bytes) to time cuBLASLt's algorithms in",
               cBytes);
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   int best = -1, lastStatus = LT_SUCCESS;
   double bestMs = 0;
   BackendStatus timing = BACKEND_OK;
   for (int i = 0; i < count && timing == BACKEND_OK; i++) {
      if (found[i].state != LT_SUCCESS || found[i].workspaceSize > LT_WORKSPACE)
         continue;
      double ms;
      int s1 = matmul(lt, dev, call, p, &found[i].algo, found[i].workspaceSize, A, B, C, D, NULL, &timing, err, errlen);
      int s2 = s1 == LT_SUCCESS ? matmul(lt, dev, call, p, &found[i].algo, found[i].workspaceSize, A, B, C, D, &ms,
                                         &timing, err, errlen)
                                : s1;
      if (s2 != LT_SUCCESS) {
         lastStatus = s2;
         continue;
      }
      if (timing == BACKEND_OK && ms >= 0 && (best < 0 || ms < bestMs)) {
         best = i;
         bestMs = ms;
      }
   }
   if (D != C)
      dev->release(dev->self, D);
   if (timing != BACKEND_OK)
      return timing;
   if (best < 0) {
      char name[64];
      nameOf(lt, p, name, sizeof name);
      snprintf(err, errlen, "cuBLASLt: none of the %d algorithms %s offered ran (the last: %s, %d)", count, name,
               statusText(lt, lastStatus), lastStatus);
      return lastStatus == LT_ALLOC_FAILED ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
   }
   LtPlan *pl = &lt->plans[0];
   for (int i = 1; i < LT_PLANS; i++)
      if (lt->plans[i].last_use < pl->last_use)
         pl = &lt->plans[i];
   *pl = (LtPlan){.m = p->m, .n = p->n, .k = p->k, .precision = p->precision, .scales = p->scales,
                  .c_bf16 = p->c_bf16, .beta = p->beta != 0, .algo = found[best].algo,
                  .workspace = found[best].workspaceSize, .offered = count};
   *out = pl;
   return BACKEND_OK;
}

/* What gemmtop refuses before asking cuBLASLt: NULL when p may be put to it. */
static const char *refusal(const BackendGemm *p, char *why, size_t len) {
   const char *type = Types_of(p->precision)->name;
   if (!CublasLt_takes(p->precision))
      snprintf(why, len, "no cuBLASLt reference for %s in gemmtop (it is the reference for the FP8 types)", type);
   else if (p->scales != BACKEND_SCALES_TENSOR && p->scales != BACKEND_SCALES_BLOCK)
      snprintf(why, len, "cuBLASLt's FP8 GEMM was given %s without its scales", type);
   else if (!p->scale_a || !p->scale_b)
      snprintf(why, len, "cuBLASLt's FP8 GEMM was given no scales for %s", type);
   else if (p->trans_a || !p->trans_b)
      snprintf(why, len,
               "cuBLASLt's FP8 GEMM takes A and B with K contiguous only (\"TN\"; gemmtop's layout NT: A stored M x K, "
               "B stored N x K); this call had A stored %s and B stored %s",
               p->trans_a ? "K x M" : "M x K", p->trans_b ? "N x K" : "K x N");
   else if (p->k % 16 != 0)
      snprintf(why, len, "cuBLASLt's FP8 GEMM needs K a multiple of 16 (rows of A and B 16-byte aligned); K is %d",
               p->k);
   else if (p->c_bf16 && p->beta != 0)
      snprintf(why, len, "a bfloat16 C from cuBLASLt is timed with beta = 0 only (C would be read as bfloat16 too)");
   else
      return NULL;
   return why;
}

BackendStatus CublasLt_gemm(CublasLt **ltp, const CublasLtDevice *dev, const BackendGemm *p, unsigned long long A,
                            unsigned long long B, unsigned long long C, BackendVendorCall *out, char *err,
                            size_t errlen) {
   out->ms = -1;
   out->note[0] = '\0';
   char why[400];
   if (refusal(p, why, sizeof why)) {
      nameOf(*ltp, p, out->name, sizeof out->name);
      snprintf(err, errlen, "%s", why);
      return BACKEND_ERR_UNSUPPORTED;
   }
   if (!*ltp && !(*ltp = open_())) {
      snprintf(err, errlen, "out of host memory");
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   CublasLt *lt = *ltp;
   nameOf(lt, p, out->name, sizeof out->name);
   if (!lt->handle) {
      snprintf(err, errlen, "%s", lt->why);
      return BACKEND_ERR_NO_RUNTIME;
   }
   if (!lt->workspace && dev->alloc(dev->self, LT_WORKSPACE, &lt->workspace) != 0) {
      lt->workspace = 0;
      snprintf(err, errlen, "out of device memory for cuBLASLt's workspace (%u MiB)", LT_WORKSPACE >> 20);
      return BACKEND_ERR_OUT_OF_MEMORY;
   }
   BackendStatus bs = uploadScales(lt, dev, p, err, errlen);
   LtCall call;
   if (bs != BACKEND_OK || (bs = describe(lt, dev, p, &call, err, errlen)) != BACKEND_OK)
      return bs;
   LtPlan *pl = findPlan(lt, p);
   if (!pl)
      bs = choose(lt, dev, p, &call, A, B, C, &pl, err, errlen);
   if (bs == BACKEND_OK) {
      pl->last_use = ++lt->clock;
      int st = matmul(lt, dev, &call, p, &pl->algo, pl->workspace, A, B, C, C, &out->ms, &bs, err, errlen);
      if (st != LT_SUCCESS) {
         snprintf(err, errlen, "cuBLASLt's cublasLtMatmul failed: %s (%d)", statusText(lt, st), st);
         bs = st == LT_ALLOC_FAILED ? BACKEND_ERR_OUT_OF_MEMORY : BACKEND_ERR_OTHER;
      }
      /* cuBLASLt does not publish how often it promotes: checked as every 128 products, the
       * default of CUTLASS's FP8 wgmma kernels (four k32 steps), which its measured errors
       * fit (docs/fp8.md) */
      out->fp8_accumulator = true;
      out->promote_interval = LT_FP8_PROMOTE_INTERVAL;
      snprintf(out->note, sizeof out->note,
               "%s scales (%s), FP32 accumulation promoted by cuBLASLt (fast accumulation off), the fastest of %d "
               "algorithm%s its heuristic offered",
               p->scales == BACKEND_SCALES_BLOCK ? "A's 1x128 and B's 128x128" : "per-tensor",
               p->scales == BACKEND_SCALES_BLOCK ? "VEC128_32F, BLK128x128_32F" : "SCALAR_32F", pl->offered,
               pl->offered == 1 ? "" : "s");
   }
   releaseCall(lt, &call);
   return bs;
}
