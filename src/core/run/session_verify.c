/* A run's C checked where it is: gemmtop's own kernels (kernels/helpers/verify.cl) compute
 * C's side of the check on the device (C x, y^T C, the non-finite elements, the sample
 * entries), only those come back, and verify.c compares them with what the host computes
 * from the inputs (Verify_inputsOf). A 16384 x 57344 FP32 C is 3.76 GB; what comes back
 * here is under 2 MB. */
#include "core/run/session_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* GT_VERIFY_WG of verify.cl: the work-items of a group of its reductions. */
#define VERIFY_WG 256
/* y^T C goes down the columns in at most this many bands of rows (each a work-item per
 * column), of at least VERIFY_BAND_ROWS rows: enough work-items to fill a GPU, and partial
 * sums of at most 64 x N x 3 doubles. */
#define VERIFY_BANDS_MAX 64
#define VERIFY_BAND_ROWS 128

const char *VerifyOn_name(VerifyOn v) {
   switch (v) {
   case VERIFY_ON_DEVICE:
      return "device";
   case VERIFY_ON_HOST:
      return "host";
   default:
      return "auto";
   }
}

bool Session_verifiesOnDevice(const Session *s, VerifyOn want, char *why, size_t len) {
   why[0] = '\0';
   if (want == VERIFY_ON_HOST) {
      snprintf(why, len, "host");
      return false;
   }
   if (!s->info.limits.fp64) {
      snprintf(why, len, "host (the device has no FP64 for the check's sums)");
      return false;
   }
   if (want == VERIFY_ON_AUTO && s->info.type == DEVICE_CPU) {
      snprintf(why, len, "host (the device is the host's processor)");
      return false;
   }
   snprintf(why, len, "device");
   return true;
}

static size_t roundUp(size_t v, size_t m) { return (v + m - 1) / m * m; }

/* The verification kernels: one program (C's type), its four entries. */
typedef struct VerifyKernels_ {
   Kernel *rows, *cols, *join, *gather;
} VerifyKernels;

/* False, and why, when they cannot be built (then the host checks C): built in a scratch
 * result, so that the run's own build log and status stay as they are. */
static bool verifyKernels(Session *s, const Problem *p, VerifyKernels *vk, char *why, size_t len) {
   char *source = Session_joinSource(s, s->catalog->verify);
   RunResult *r = calloc(1, sizeof *r);
   if (!source || !r) {
      free(source);
      free(r);
      snprintf(why, len, "out of host memory");
      return false;
   }
   char defines[64];
   const Storage out = Types_of(p->precision)->out;
   snprintf(defines, sizeof defines, "-DDOUBLE=%d -DGT_VERIFY_POISON=0x%08xu", Types_of(p->precision)->fp64,
            (unsigned)Verify_poisonWord(out));
   static const char *const entries[] = {"gt_verify_rows", "gt_verify_cols", "gt_verify_cols_join",
                                         "gt_verify_gather"};
   Kernel **dst[] = {&vk->rows, &vk->cols, &vk->join, &vk->gather};
   bool ok = true;
   /* Each entry is looked up on its own; the disk cache builds the program once. An entry
    * found may be evicted by a later one only if the cache had fewer slots than entries. */
   for (int e = 0; e < 4 && ok; e++) {
      bool fresh;
      CachedProgram *c = Session_cachedKernel(s, source, defines, entries[e], r, &fresh);
      ok = c != NULL;
      if (c)
         *dst[e] = c->kernel;
   }
   free(source);
   if (!ok) /* the first line of what went wrong: the whole log would not fit a report's line */
      snprintf(why, len, "%.*s", (int)strcspn(r->message, "\n"), r->message);
   RunResult_free(r);
   free(r);
   return ok;
}

/* Launches one kernel over dims dimensions, unfinished. */
static bool launch(Session *s, Kernel *k, const KernelArg *args, int nargs, int dims, const size_t *global,
                   const size_t *local, RunResult *r) {
   char err[512];
   BackendStatus st = s->be->launch(s->ctx, k, args, nargs, false, dims, global, local, NULL, err, sizeof err);
   if (st == BACKEND_OK)
      return true;
   r->status = st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY : RUN_DEVICE_ERROR;
   snprintf(r->message, sizeof r->message, "the verification kernels: %s", err);
   return false;
}

/* C's side: what the device's kernels gave, read back (host holds 2M + 2N + ns doubles,
 * then 4M ints). */
static bool computeOfC(Session *s, const Problem *p, Buffer *C, const VerifyPlan *plan, const VerifyKernels *vk,
                       double *host, VerifyOfC *of, RunResult *r) {
   const size_t M = plan->m, N = plan->n, ns = plan->samples;
   size_t bands = (M + VERIFY_BAND_ROWS - 1) / VERIFY_BAND_ROWS;
   if (bands > VERIFY_BANDS_MAX)
      bands = VERIFY_BANDS_MAX;
   const size_t band_rows = (M + bands - 1) / bands;
   bands = (M + band_rows - 1) / band_rows;
   uint64_t *at = malloc(ns * sizeof *at);
   if (!at) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory");
      return false;
   }
   for (size_t i = 0; i < ns; i++)
      at[i] = plan->at[i];
   char err[512];
   bool ok = Session_ensureBuffer(s, BUF_VX, N * sizeof(double), r) &&
             Session_ensureBuffer(s, BUF_VY, M * sizeof(double), r) &&
             Session_ensureBuffer(s, BUF_VROWS, 2 * M * sizeof(double), r) &&
             Session_ensureBuffer(s, BUF_VNF, 4 * M * sizeof(int), r) &&
             Session_ensureBuffer(s, BUF_VPART, 3 * bands * N * sizeof(double), r) &&
             Session_ensureBuffer(s, BUF_VCOLS, 2 * N * sizeof(double), r) &&
             Session_ensureBuffer(s, BUF_VAT, ns * sizeof *at, r) &&
             Session_ensureBuffer(s, BUF_VSAMPLES, ns * sizeof(double), r);
   Buffer *b[BUF_COUNT];
   for (int i = 0; i < BUF_COUNT; i++)
      b[i] = s->bufs[i].buf;
   ok = ok && Session_checkStatus(s, s->be->write(s->ctx, b[BUF_VX], plan->x, N * sizeof(double), err, sizeof err),
                                  err, r) &&
        Session_checkStatus(s, s->be->write(s->ctx, b[BUF_VY], plan->y, M * sizeof(double), err, sizeof err), err, r) &&
        Session_checkStatus(s, s->be->write(s->ctx, b[BUF_VAT], at, ns * sizeof *at, err, sizeof err), err, r);
   free(at);
   const int m = p->m, n = p->n;
   const KernelArg rowArgs[] = {{.kind = ARG_INT, .i = m},           {.kind = ARG_INT, .i = n},
                                {.kind = ARG_BUFFER, .buffer = C},   {.kind = ARG_BUFFER, .buffer = b[BUF_VX]},
                                {.kind = ARG_BUFFER, .buffer = b[BUF_VROWS]}, {.kind = ARG_BUFFER, .buffer = b[BUF_VNF]}};
   const KernelArg colArgs[] = {{.kind = ARG_INT, .i = m},         {.kind = ARG_INT, .i = n},
                                {.kind = ARG_INT, .i = (int)band_rows}, {.kind = ARG_BUFFER, .buffer = C},
                                {.kind = ARG_BUFFER, .buffer = b[BUF_VY]}, {.kind = ARG_BUFFER, .buffer = b[BUF_VPART]}};
   const KernelArg joinArgs[] = {{.kind = ARG_INT, .i = n}, {.kind = ARG_INT, .i = (int)bands},
                                 {.kind = ARG_BUFFER, .buffer = b[BUF_VPART]},
                                 {.kind = ARG_BUFFER, .buffer = b[BUF_VCOLS]}};
   const KernelArg gatherArgs[] = {{.kind = ARG_INT, .i = (int)ns}, {.kind = ARG_BUFFER, .buffer = C},
                                   {.kind = ARG_BUFFER, .buffer = b[BUF_VAT]},
                                   {.kind = ARG_BUFFER, .buffer = b[BUF_VSAMPLES]}};
   const size_t wg[2] = {VERIFY_WG, 1}, gatherWg[1] = {64};
   const size_t rowsGlobal[1] = {M * VERIFY_WG}, colsGlobal[2] = {roundUp(N, VERIFY_WG), bands},
                joinGlobal[1] = {roundUp(N, VERIFY_WG)}, gatherGlobal[1] = {roundUp(ns, 64)};
   ok = ok && launch(s, vk->rows, rowArgs, 6, 1, rowsGlobal, wg, r) &&
        launch(s, vk->cols, colArgs, 6, 2, colsGlobal, wg, r) && launch(s, vk->join, joinArgs, 4, 1, joinGlobal, wg, r) &&
        launch(s, vk->gather, gatherArgs, 4, 1, gatherGlobal, gatherWg, r) &&
        Session_checkStatus(s, s->be->finish(s->ctx, err, sizeof err), err, r);
   double t = Util_nowMs();
   int *nf = (int *)(host + 2 * M + 2 * N + ns);
   ok = ok &&
        Session_checkStatus(s, s->be->read(s->ctx, b[BUF_VROWS], host, 2 * M * sizeof *host, err, sizeof err), err, r) &&
        Session_checkStatus(s, s->be->read(s->ctx, b[BUF_VCOLS], host + 2 * M, 2 * N * sizeof *host, err, sizeof err),
                            err, r) &&
        Session_checkStatus(
           s, s->be->read(s->ctx, b[BUF_VSAMPLES], host + 2 * M + 2 * N, ns * sizeof *host, err, sizeof err), err, r) &&
        Session_checkStatus(s, s->be->read(s->ctx, b[BUF_VNF], nf, 4 * M * sizeof *nf, err, sizeof err), err, r);
   r->phases.ms[PHASE_DOWNLOAD] += Util_nowMs() - t;
   r->phases.ms[PHASE_VERIFY] -= Util_nowMs() - t;
   if (!ok)
      return false;
   *of = (VerifyOfC){.cx = host, .acx = host + M, .yc = host + 2 * M, .ayc = host + 2 * M + N,
                     .at = host + 2 * M + 2 * N, .first = 0};
   bool first = true;
   for (size_t i = 0; i < M; i++) {
      of->nan += (size_t)nf[4 * i];
      of->inf += (size_t)nf[4 * i + 1];
      of->unwritten += (size_t)nf[4 * i + 2];
      if (first && nf[4 * i + 3] >= 0) {
         of->first = i * N + (size_t)nf[4 * i + 3];
         first = false;
      }
   }
   return true;
}

bool Session_verifyOnDevice(Session *s, const Problem *p, const Inputs *inputs, Buffer *C, uint64_t seed,
                            const VerifyAccumulation *acc, bool *built, RunResult *r) {
   double t = Util_nowMs();
   VerifyKernels vk;
   char why[160];
   *built = verifyKernels(s, p, &vk, why, sizeof why);
   r->phases.ms[PHASE_COMPILE] += Util_nowMs() - t;
   if (!*built) {
      snprintf(r->verified_on, sizeof r->verified_on, "host (the verification kernels did not build: %s)", why);
      return false;
   }
   t = Util_nowMs();
   VerifyPlan plan;
   if (!VerifyPlan_make(&plan, p, seed)) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for the verification");
      return false;
   }
   bool ok = true;
   if (plan.m && plan.n) {
      const size_t M = plan.m, N = plan.n;
      double *host = malloc((2 * M + 2 * N + plan.samples) * sizeof *host + 4 * M * sizeof(int));
      VerifyOfC of = {0};
      ok = host != NULL;
      if (!ok) {
         r->status = RUN_OUT_OF_MEMORY;
         snprintf(r->message, sizeof r->message, "out of host memory for the verification");
      }
      ok = ok && computeOfC(s, p, C, &plan, &vk, host, &of, r);
      if (ok)
         Verify_inputsOf(p, inputs, &plan, &of, acc, &r->verify);
      free(host);
   } else {
      Verify_inputsOf(p, inputs, &plan, NULL, acc, &r->verify); /* an empty C: nothing to check */
   }
   VerifyPlan_free(&plan);
   r->phases.ms[PHASE_VERIFY] += Util_nowMs() - t;
   return ok;
}
