/* A run: the pipeline of launches (helpers, the GEMM), verification and timing. */
#include "core/run/session_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/run/coldl2.h"
#include "core/model/scales.h"
#include "base/util.h"

static size_t roundUp(size_t v, size_t m) { return (v + m - 1) / m * m; }

static void addCopyPad(Pipeline *pl, Kernel *copyPad, const char *what, int Lr, int Lc, bool src_trans, Buffer *src,
                       int dr, int dc, bool dst_trans, Buffer *dst) {
   Step *st = &pl->steps[pl->nsteps++];
   memset(st, 0, sizeof *st);
   st->kernel = copyPad;
   KernelArg a[] = {{.kind = ARG_INT, .i = Lr},      {.kind = ARG_INT, .i = Lc},      {.kind = ARG_INT, .i = src_trans},
                    {.kind = ARG_BUFFER, .buffer = src}, {.kind = ARG_INT, .i = dr}, {.kind = ARG_INT, .i = dc},
                    {.kind = ARG_INT, .i = dst_trans}, {.kind = ARG_BUFFER, .buffer = dst}};
   memcpy(st->args, a, sizeof a);
   st->nargs = 8;
   st->dims = 2;
   st->global[0] = roundUp((size_t)dc, 16);
   st->global[1] = roundUp((size_t)dr, 16);
   st->local[0] = st->local[1] = 16;
   st->use_local = true;
   snprintf(st->what, sizeof st->what, "%s", what);
}

/* A launch the driver refused for lack of resources, when the compiled kernel's own limit
 * on work-items per group (registers are shared by the group) is below what the
 * configuration asks: say so, as a refused configuration. */
static void explainLaunchFailure(const Step *st, RunResult *r) {
   size_t wg = 1;
   for (int d = 0; d < st->dims; d++)
      wg *= st->local[d];
   if (!st->is_gemm || !r->max_wg_for_kernel || wg <= r->max_wg_for_kernel)
      return;
   char regs[48] = "";
   if (r->registers > 0)
      snprintf(regs, sizeof regs, ", which uses %d registers per work-item,", r->registers);
   char was[256];
   snprintf(was, sizeof was, "%s", r->message);
   snprintf(r->message, sizeof r->message,
            "the driver refused the launch (%s): the kernel as compiled%s allows at most %zu work-items per group on "
            "this device and this configuration needs %zu; choose a smaller work-group or fewer elements per work-item",
            was, regs, r->max_wg_for_kernel, wg);
   r->status = RUN_INVALID;
}

double Pipeline_gemmMs(const Pipeline *pl, const double *times) {
   return times[pl->gemm_index] + (pl->fixup_index >= 0 ? times[pl->fixup_index] : 0);
}

bool Pipeline_run(Session *s, Pipeline *pl, bool real_double, bool timed, double *times, RunResult *r,
                        Buffer *c0, Buffer *c, size_t cbytes) {
   char err[512];
   Event *events[PIPELINE_MAX_STEPS] = {0};
   for (int i = 0; i < pl->nsteps; i++) {
      Step *st = &pl->steps[i];
      if (st->restore_c && !Session_checkStatus(s, s->be->copy(s->ctx, c, c0, cbytes, err, sizeof err), err, r))
         goto failed;
      BackendStatus bs = s->be->launch(s->ctx, st->kernel, st->args, st->nargs, real_double, st->dims, st->global,
                                       st->use_local ? st->local : NULL, timed ? &events[i] : NULL, err, sizeof err);
      if (bs != BACKEND_OK) {
         snprintf(r->message, sizeof r->message, "%s: %s", st->what, err);
         r->status = bs == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY : RUN_DEVICE_ERROR;
         explainLaunchFailure(st, r);
         goto failed;
      }
   }
   BackendStatus done = pl->timeout_ms > 0 && s->be->finishWithin
                           ? s->be->finishWithin(s->ctx, pl->timeout_ms, err, sizeof err)
                           : s->be->finish(s->ctx, err, sizeof err);
   if (done == BACKEND_ERR_TIMEOUT) {
      /* The launch cannot be stopped: it and its events are left to run on. */
      s->stuck = true;
      r->status = RUN_TIMEOUT;
      snprintf(r->message, sizeof r->message,
               "a launch of %s did not finish within %.3g s: abandoned (a launch cannot be stopped; the device stays "
               "busy with it until this process ends)",
               pl->steps[pl->gemm_index].what, pl->timeout_ms / 1000);
      return false;
   }
   if (!Session_checkStatus(s, done, err, r))
      goto failed;
   for (int i = 0; i < pl->nsteps; i++)
      if (events[i]) {
         times[i] = s->be->eventMs(events[i]);
         s->be->releaseEvent(events[i]);
      }
   /* After every pass, timed or not: a write outside an operand fails the run. */
   return Session_checkGuards(s, pl, r);
failed:
   for (int i = 0; i < pl->nsteps; i++)
      s->be->releaseEvent(events[i]);
   return false;
}

/* The GEMM's tensor maps (`tma:`), after its usual arguments: each operand as the kernel
 * reads it (Ak, Bk: transposed or padded when it asks), in the geometry's boxes. */
static bool addTensorMaps(Step *gs, const Geometry *g, const Problem *p, Buffer *Ak, Buffer *Bk, RunResult *r) {
   if (gs->nargs + g->ntma > (int)(sizeof gs->args / sizeof gs->args[0])) {
      r->status = RUN_INVALID;
      snprintf(r->message, sizeof r->message, "a kernel with tensor maps cannot be traced");
      return false;
   }
   for (int i = 0; i < g->ntma; i++) {
      long long rows, cols;
      Config_tmaShape(g, i, &rows, &cols);
      KernelArg *a = &gs->args[gs->nargs++];
      memset(a, 0, sizeof *a);
      a->kind = ARG_TENSOR_MAP;
      a->buffer = g->tma[i].operand == 'A' ? Ak : Bk;
      a->tmap = (TensorMapSpec){.elem_bytes = (int)Precision_inputSize(p->precision), .rows = rows, .cols = cols,
                                .box_cols = g->tma[i].box[0], .box_rows = g->tma[i].box[1], .swizzle = g->tma[i].swizzle};
   }
   return true;
}

/* The GEMM kernel compiled (or found), and what its build says, into r. */
static CachedProgram *gemmKernel(Session *s, const KernelInfo *k, bool extra, RunResult *r) {
   char *source = Session_sourceNamed(s->catalog, Backend_can(s->be, BACKEND_CAP_CUDA_PRELUDE), k->source, k->path);
   if (!source) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory");
      return NULL;
   }
   bool fresh = false;
   CachedProgram *gemm = Session_cachedKernel(s, source, r->defines, k->entry, r, &fresh);
   free(source);
   if (!gemm)
      return NULL;
   r->compile_ms = fresh ? gemm->info.compile_ms : 0;
   r->cached_memory = !fresh;
   r->cached = !fresh || gemm->info.cached_disk;
   r->registers = gemm->info.registers;
   r->private_mem = gemm->info.private_mem;
   r->local_mem = Session_localMemOf(&gemm->info, &r->geo, extra);
   if (gemm->info.log && gemm->info.log[0])
      r->build_log = strdup(gemm->info.log);
   r->max_wg_for_kernel = gemm->info.max_wg_for_kernel;
   return gemm;
}

/* The helper kernels a layout or padding needs (helpers.cl). Operands narrower than C
 * (half, bfloat16, FP8) are moved by gt_copy_pad_in (in_t), C by gt_copy_pad (real); for
 * the other types both are real, and gt_copy_pad does it all. */
typedef struct Helpers_ {
   Kernel *copyPad, *copyPadIn, *unpad;
} Helpers;

static bool helperKernels(Session *s, const Problem *p, bool prepAB, bool pad, Helpers *h, RunResult *r) {
   memset(h, 0, sizeof *h);
   if (!prepAB && !pad)
      return true;
   const bool narrow = Precision_inputSize(p->precision) != Precision_size(p->precision) && prepAB;
   char *hsrc = Session_joinSource(s, s->catalog->helpers);
   char hdefs[64];
   Precision_defines(p->precision, hdefs, sizeof hdefs);
   bool hfresh;
   CachedProgram *h1 = hsrc ? Session_cachedKernel(s, hsrc, hdefs, "gt_copy_pad", r, &hfresh) : NULL;
   CachedProgram *h2 = h1 ? Session_cachedKernel(s, hsrc, hdefs, "gt_unpad", r, &hfresh) : NULL;
   CachedProgram *h3 = h2 && narrow ? Session_cachedKernel(s, hsrc, hdefs, "gt_copy_pad_in", r, &hfresh) : NULL;
   free(hsrc);
   if (!h1 || !h2 || (narrow && !h3)) {
      if (r->status == RUN_OK)
         r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message + strlen(r->message), sizeof r->message - strlen(r->message), " (in the helper kernels)");
      return false;
   }
   /* An earlier one may have been evicted by a later insertion only if the cache had one slot. */
   h->copyPad = h1->kernel;
   h->unpad = h2->kernel;
   h->copyPadIn = h3 ? h3->kernel : h->copyPad;
   return true;
}

/* The FP8 scales as the geometry reads them (padded), uploaded at every preparation: they
 * are small, and their padding follows the kernel's geometry, not the inputs. */
static bool uploadScales(Session *s, const Problem *p, const Inputs *inputs, const Geometry *g, RunResult *r) {
   const float *host[2] = {inputs->sa, inputs->sb};
   const int which[2] = {BUF_SA, BUF_SB};
   char err[512];
   for (int i = 0; i < 2; i++) {
      size_t count = 0;
      float *padded = host[i] ? Scales_padded(p, i == 0, host[i], g->m, g->n, g->k, &count) : NULL;
      bool ok = padded && Session_ensureBuffer(s, which[i], count * sizeof *padded, r) &&
                Session_checkStatus(s, s->be->write(s->ctx, s->bufs[which[i]].buf, padded, count * sizeof *padded, err,
                                                    sizeof err), err, r);
      if (!padded && r->status == RUN_OK) {
         r->status = RUN_OUT_OF_MEMORY;
         snprintf(r->message, sizeof r->message, "out of host memory for the %s scales", i ? "B" : "A");
      }
      free(padded);
      if (!ok)
         return false;
   }
   return true;
}

/* Device buffers (A and B of the input type, C of the output type, and the copies the
 * kernel reads when it wants another layout or padding), with the inputs uploaded unless
 * they are there already. */
static bool operandBuffers(Session *s, const Problem *p, const Inputs *inputs, bool prepA, bool prepB,
                           Prepared *out, RunResult *r) {
   const Geometry *g = &r->geo;
   char err[1024];
   size_t es = Precision_size(p->precision), ies = Precision_inputSize(p->precision);
   size_t bytesA = Problem_sizeA(p) * ies, bytesB = Problem_sizeB(p) * ies, bytesC = Problem_sizeC(p) * es;
   size_t bytesAk = (size_t)g->m * (size_t)g->k * ies, bytesBk = (size_t)g->k * (size_t)g->n * ies;
   size_t bytesCk = (size_t)g->m * (size_t)g->n * es;
   if (!Session_ensureBuffer(s, BUF_A, bytesA, r) || !Session_ensureBuffer(s, BUF_B, bytesB, r) ||
       !Session_ensureBuffer(s, BUF_C, bytesC, r) || (p->beta != 0.0 && !Session_ensureBuffer(s, BUF_C0, bytesC, r)) ||
       (prepA && !Session_ensureBuffer(s, BUF_AK, bytesAk, r)) ||
       (prepB && !Session_ensureBuffer(s, BUF_BK, bytesBk, r)) || (g->pad_c && !Session_ensureBuffer(s, BUF_CK, bytesCk, r)) ||
       (g->has_workspace && !Session_ensureBuffer(s, BUF_WS, g->workspace > 16 ? (size_t)g->workspace : 16, r)))
      return false;
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf, *C0 = s->bufs[BUF_C0].buf;
   if (s->uploaded_generation != inputs->generation) {
      if (!Session_checkStatus(s, s->be->write(s->ctx, A, inputs->a, bytesA, err, sizeof err), err, r) ||
          !Session_checkStatus(s, s->be->write(s->ctx, B, inputs->b, bytesB, err, sizeof err), err, r) ||
          (p->beta != 0.0 && !Session_checkStatus(s, s->be->write(s->ctx, C0, inputs->c0, bytesC, err, sizeof err), err, r)))
         return false;
      s->uploaded_generation = inputs->generation;
   }
   if (Problem_scaled(p) && !uploadScales(s, p, inputs, g, r))
      return false;
   s->result_bytes = bytesC;
   out->C0 = C0;
   out->C = s->bufs[BUF_C].buf;
   out->Ck = g->pad_c ? s->bufs[BUF_CK].buf : out->C;
   out->bytesC = bytesC;
   out->bytesCk = bytesCk;
   out->es = es;
   return true;
}

/* The GEMM's launch: its arguments (a trace buffer, tensor maps), geometry and shared memory. */
static bool gemmStep(Session *s, const KernelInfo *k, CachedProgram *gemm, const Problem *p, Buffer *Ak, Buffer *Bk,
                     Buffer *Ck, Buffer *trace, Step *gs, RunResult *r) {
   const Geometry *g = &r->geo;
   memset(gs, 0, sizeof *gs);
   gs->kernel = gemm->kernel;
   gs->is_gemm = true;
   gs->restore_c = !g->pad_c && p->beta != 0.0;
   snprintf(gs->what, sizeof gs->what, "%s", k->name);
   KernelArg ga[] = {{.kind = ARG_INT, .i = g->m},        {.kind = ARG_INT, .i = g->n},
                     {.kind = ARG_INT, .i = g->k},        {.kind = ARG_REAL, .real = p->alpha},
                     {.kind = ARG_BUFFER, .buffer = Ak},  {.kind = ARG_BUFFER, .buffer = Bk},
                     {.kind = ARG_REAL, .real = p->beta}, {.kind = ARG_BUFFER, .buffer = Ck}};
   memcpy(gs->args, ga, sizeof ga);
   gs->nargs = 8;
   if (Problem_scaled(p)) { /* the FP8 types' scales, after C */
      gs->args[gs->nargs++] = (KernelArg){.kind = ARG_BUFFER, .buffer = s->bufs[BUF_SA].buf};
      gs->args[gs->nargs++] = (KernelArg){.kind = ARG_BUFFER, .buffer = s->bufs[BUF_SB].buf};
   }
   if (g->has_workspace) /* split-K's partial sums, after the scales */
      gs->args[gs->nargs++] = (KernelArg){.kind = ARG_BUFFER, .buffer = s->bufs[BUF_WS].buf};
   gs->fixup_nargs = gs->nargs; /* the fix-up takes the same, up to here */
   if (trace)
      gs->args[gs->nargs++] = (KernelArg){.kind = ARG_BUFFER, .buffer = trace};
   if (g->ntma && !addTensorMaps(gs, g, p, Ak, Bk, r))
      return false;
   char err[512];
   if (g->dynamic_smem > 0 && s->be->setDynamicShared &&
       !Session_checkStatus(s, s->be->setDynamicShared(gemm->kernel, (size_t)g->dynamic_smem, err, sizeof err), err, r))
      return false;
   gs->dims = g->dims;
   gs->use_local = true;
   memcpy(gs->global, g->global, sizeof g->global);
   memcpy(gs->local, g->local, sizeof g->local);
   return true;
}

/* The launch that copies the padded C back into C. */
static void addUnpad(Pipeline *pl, Kernel *unpad, const Problem *p, const Geometry *g, Buffer *Ck, Buffer *C) {
   Step *st = &pl->steps[pl->nsteps++];
   memset(st, 0, sizeof *st);
   st->kernel = unpad;
   KernelArg ua[] = {{.kind = ARG_INT, .i = p->m}, {.kind = ARG_INT, .i = p->n}, {.kind = ARG_INT, .i = g->n},
                     {.kind = ARG_BUFFER, .buffer = Ck}, {.kind = ARG_BUFFER, .buffer = C}};
   memcpy(st->args, ua, sizeof ua);
   st->nargs = 5;
   st->dims = 2;
   st->global[0] = roundUp((size_t)p->n, 16);
   st->global[1] = roundUp((size_t)p->m, 16);
   st->local[0] = st->local[1] = 16;
   st->use_local = true;
   snprintf(st->what, sizeof st->what, "unpad C");
}

/* The GEMM's fix-up launch (`fixup:`): the entry from the GEMM's program, the GEMM's
 * arguments but a trace buffer and tensor maps, its own geometry. */
static bool addFixup(Session *s, const KernelInfo *k, CachedProgram *gemm, const Geometry *g, Pipeline *pl,
                     RunResult *r) {
   char err[512];
   if (!gemm->fixup) {
      BuildInfo info = {0};
      gemm->fixup = s->be->kernel(gemm->program, k->fixup_entry, &info, err, sizeof err);
      if (!gemm->fixup) {
         r->status = RUN_COMPILE_ERROR;
         snprintf(r->message, sizeof r->message, "the fix-up entry %s of %s: %s", k->fixup_entry, k->name, err);
         return false;
      }
   }
   const Step *gs = &pl->steps[pl->gemm_index];
   Step *st = &pl->steps[pl->nsteps];
   memset(st, 0, sizeof *st);
   st->kernel = gemm->fixup;
   memcpy(st->args, gs->args, sizeof gs->args[0] * (size_t)gs->fixup_nargs);
   st->nargs = gs->fixup_nargs;
   st->dims = g->fixup_dims;
   memcpy(st->global, g->fixup_global, sizeof st->global);
   memcpy(st->local, g->fixup_local, sizeof st->local);
   st->use_local = true;
   snprintf(st->what, sizeof st->what, "%s fix-up", k->name);
   pl->fixup_index = pl->nsteps++;
   return true;
}

RunStatus Session_prepare(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                          const Inputs *inputs, const char *extra_defines, Buffer *trace, const Geometry *checked,
                          Prepared *out, RunResult *r) {
   free(r->build_log);
   memset(r, 0, sizeof *r);
   memset(out, 0, sizeof *out);
   r->registers = -1;
   r->private_mem = r->local_mem = -1;
   if (Session_refuseIfStuck(s, &r->status, r->message, sizeof r->message))
      return r->status;
   if (checked)
      r->geo = *checked;
   else if (!Session_check(s, k, values, p, NULL, &r->geo, r->message, sizeof r->message))
      return r->status = RUN_INVALID;
   if (!Session_fits(s, p, r->message, sizeof r->message))
      return r->status = RUN_OUT_OF_MEMORY;
   const Geometry *g = &r->geo;
   Config_defines(k, values, p, g, r->defines, sizeof r->defines);
   bool extra = extra_defines && *extra_defines;
   if (extra)
      snprintf(r->defines + strlen(r->defines), sizeof r->defines - strlen(r->defines), " %s", extra_defines);
   out->dbl = Types_of(p->precision)->fp64;
   /* Only an operand whose own sizes are padded is copied: a few tokens padded to a tile's
    * rows copy A, not the weight B (a copy of all of B before each launch also left the
    * GEMM's reads of it behind the write-back of the copy's dirty lines). */
   bool prepA = g->trans_a != p->trans_a || g->pad_a;
   bool prepB = g->trans_b != p->trans_b || g->pad_b;
   Helpers h;
   double t = Util_nowMs();
   CachedProgram *gemm = gemmKernel(s, k, extra, r);
   bool built = gemm && helperKernels(s, p, prepA || prepB, g->pad_c, &h, r);
   r->phases.ms[PHASE_COMPILE] += Util_nowMs() - t;
   if (!built)
      return r->status;
   t = Util_nowMs();
   bool uploaded = operandBuffers(s, p, inputs, prepA, prepB, out, r);
   r->phases.ms[PHASE_UPLOAD] += Util_nowMs() - t;
   if (!uploaded)
      return r->status;

   /* The pipeline: the operands into the layout the kernel reads, the GEMM, C back. */
   Pipeline *pl = &out->pl;
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf;
   Buffer *Ak = prepA ? s->bufs[BUF_AK].buf : A;
   Buffer *Bk = prepB ? s->bufs[BUF_BK].buf : B;
   if (prepA) {
      const char *what = g->pad_a ? (g->trans_a != p->trans_a ? "pad+transpose A" : "pad A") : "transpose A";
      addCopyPad(pl, h.copyPadIn, what, p->m, p->k, p->trans_a, A, g->trans_a ? g->k : g->m, g->trans_a ? g->m : g->k,
                 g->trans_a, Ak);
   }
   if (prepB) {
      /* op(B) is K x N logically. */
      const char *what = g->pad_b ? (g->trans_b != p->trans_b ? "pad+transpose B" : "pad B") : "transpose B";
      addCopyPad(pl, h.copyPadIn, what, p->k, p->n, p->trans_b, B, g->trans_b ? g->n : g->k, g->trans_b ? g->k : g->n,
                 g->trans_b, Bk);
   }
   if (g->pad_c && p->beta != 0.0)
      addCopyPad(pl, h.copyPad, "pad C", p->m, p->n, false, out->C0, g->m, g->n, false, out->Ck);
   pl->gemm_index = pl->nsteps;
   pl->fixup_index = -1;
   pl->in_es = Precision_inputSize(p->precision);
   pl->out_es = out->es;
   if (!gemmStep(s, k, gemm, p, Ak, Bk, out->Ck, trace, &pl->steps[pl->nsteps++], r))
      return r->status;
   if (g->fixup_dims && !addFixup(s, k, gemm, g, pl, r))
      return r->status;
   if (g->pad_c)
      addUnpad(pl, h.unpad, p, g, out->Ck, out->C);
   return r->status = RUN_OK;
}

bool Session_kMajorOperands(Session *s, const Problem *p, Buffer **A, Buffer **B, char *moved, size_t movedlen,
                            RunResult *r) {
   const bool moveA = p->trans_a, moveB = !p->trans_b; /* K contiguous: A not transposed, B transposed */
   const size_t ies = Precision_inputSize(p->precision);
   *A = s->bufs[BUF_A].buf;
   *B = s->bufs[BUF_B].buf;
   snprintf(moved, movedlen, "%s%s%s", moveA ? "A" : "", moveA && moveB ? " and " : "", moveB ? "B" : "");
   if (!moveA && !moveB)
      return true;
   Helpers h;
   if (!helperKernels(s, p, true, false, &h, r) ||
       (moveA && !Session_ensureBuffer(s, BUF_AK, Problem_sizeA(p) * ies, r)) ||
       (moveB && !Session_ensureBuffer(s, BUF_BK, Problem_sizeB(p) * ies, r)))
      return false;
   Pipeline pl = {.gemm_index = 0, .fixup_index = -1};
   if (moveA) /* op(A), M x K, from its K x M storage into M x K */
      addCopyPad(&pl, h.copyPadIn, "transpose A", p->m, p->k, true, *A, p->m, p->k, false, s->bufs[BUF_AK].buf);
   if (moveB) /* op(B), K x N, from its K x N storage into N x K */
      addCopyPad(&pl, h.copyPadIn, "transpose B", p->k, p->n, false, *B, p->n, p->k, true, s->bufs[BUF_BK].buf);
   if (!Pipeline_run(s, &pl, false, false, NULL, r, NULL, NULL, 0))
      return false;
   if (moveA)
      *A = s->bufs[BUF_AK].buf;
   if (moveB)
      *B = s->bufs[BUF_BK].buf;
   return true;
}

/* Cold L2 for a run: rotation of the operands the GEMM reads as uploaded; a flush when it
 * reads both as a helper wrote them just before (transposed, padded). */
static bool startCold(Session *s, const Step *gemm, const Problem *p, ColdL2 *cold, RunResult *r) {
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf;
   bool readsA = false, readsB = false;
   for (int i = 0; i < gemm->nargs; i++) {
      readsA |= gemm->args[i].buffer == A;
      readsB |= gemm->args[i].buffer == B;
   }
   size_t ies = Precision_inputSize(p->precision);
   char err[512];
   if (!ColdL2_setup(cold, s->be, s->ctx, &s->info, A, Problem_sizeA(p) * ies, readsA, B, Problem_sizeB(p) * ies,
                     readsB, err, sizeof err)) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "%s", err);
      return false;
   }
   snprintf(r->cold_l2_method, sizeof r->cold_l2_method, "%s", cold->method);
   return true;
}

/* Before timed launch i: the GEMM's operands (buffers and tensor maps) from the next copy,
 * or the flush enqueued. */
static bool coldOperands(Session *s, ColdL2 *cold, int i, Step *gemm, RunResult *r) {
   Buffer *A = NULL, *B = NULL;
   char err[512];
   if (!ColdL2_before(cold, i, &A, &B, err, sizeof err))
      return Session_checkStatus(s, BACKEND_ERR_OTHER, err, r);
   if (cold->copies > 0)
      for (int j = 0; j < gemm->nargs; j++) {
         Buffer **b = &gemm->args[j].buffer;
         int was = i == 0 ? 0 : (i - 1) % cold->copies;
         if (*b && *b == cold->a[was])
            *b = A;
         else if (*b && *b == cold->b[was])
            *b = B;
      }
   return true;
}

/* The workspace of split-K and stream-K filled with NaN bits before the checked pass, as C
 * is: a fix-up that reads a slot no work-group wrote then shows in C, where a workspace
 * left as an earlier configuration (or a fresh allocation) had it can hide it. */
static bool poisonWorkspace(Session *s, const Geometry *g, RunResult *r) {
   if (!g->has_workspace || g->workspace <= 0)
      return true;
   return Session_poison(s, s->bufs[BUF_WS].buf, (size_t)g->workspace, UINT32_MAX, r);
}

/* Verification: C (and a padded C) poisoned (Verify_poison), one pass, then C checked where on
 * says: on the device (session_verify.c: only vectors come back), or read back once into
 * the session's host copy and checked there. verified_c, when asked for, is read straight
 * into. With timedSteps, the pass is device-timed and each step's time goes there: a
 * judged launch, whose figure is the very launch that was checked. */
static bool verifyOnce(Session *s, Prepared *pr, const Problem *p, const Inputs *inputs, VerifyOn on,
                       void *verified_c, double *timedSteps, RunResult *r) {
   double *ph = r->phases.ms, t = Util_nowMs();
   char err[1024];
   double stepTimes[PIPELINE_MAX_STEPS];
   const uint32_t poison = Verify_poisonWord(Types_of(p->precision)->out);
   bool ok = Session_poison(s, pr->C, pr->bytesC, poison, r) &&
             (!r->geo.pad_c || Session_poison(s, pr->Ck, pr->bytesCk, poison, r)) && poisonWorkspace(s, &r->geo, r);
   ph[PHASE_UPLOAD] += Util_nowMs() - t;
   t = Util_nowMs();
   ok = ok && Pipeline_run(s, &pr->pl, pr->dbl, timedSteps != NULL, timedSteps ? timedSteps : stepTimes, r, pr->C0,
                           pr->C, pr->bytesC);
   ph[PHASE_LAUNCHES] += Util_nowMs() - t;
   bool built = false;
   if (ok && Session_verifiesOnDevice(s, on, r->verified_on, sizeof r->verified_on)) {
      const VerifyAccumulation acc = {r->geo.fp8_accumulator, r->geo.promote_interval};
      ok = Session_verifyOnDevice(s, p, inputs, pr->C, inputs->seed ^ 0x5eed, &acc, &built, r);
      if (built) {
         r->verified_run = ok;
         t = Util_nowMs();
         ok = ok && (!verified_c || Session_checkStatus(s, s->be->read(s->ctx, pr->C, verified_c, pr->bytesC, err,
                                                                       sizeof err), err, r));
         ph[PHASE_DOWNLOAD] += Util_nowMs() - t;
         return ok;
      }
      ok = true; /* the verification kernels did not build: the host checks (verified_on says why) */
   }
   /* The host copy after the poisoning, which may have written from it (and grown it). */
   t = Util_nowMs();
   void *host = ok ? Session_hostC(s, pr->bytesC) : NULL;
   if (ok && !host) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory (%zu bytes for C)", pr->bytesC);
      ok = false;
   }
   ok = ok && Session_checkStatus(s, s->be->read(s->ctx, pr->C, host, pr->bytesC, err, sizeof err), err, r);
   ph[PHASE_DOWNLOAD] += Util_nowMs() - t;
   if (ok) {
      t = Util_nowMs();
      const VerifyAccumulation acc = {r->geo.fp8_accumulator, r->geo.promote_interval};
      Verify_inputsAccumulated(p, inputs, host, Types_of(p->precision)->out, &acc, inputs->seed ^ 0x5eed,
                               &r->verify);
      r->verified_run = true;
      if (verified_c)
         memcpy(verified_c, host, pr->bytesC);
      ph[PHASE_VERIFY] += Util_nowMs() - t;
   }
   return ok;
}

/* The device-timed launches (after the warm-up): the GEMM's times into r, each helper's
 * into helperTimes; stops early when cancelled or past max_seconds. Returns how many ran,
 * or -1 with r's status. */
static int timedRounds(Session *s, Prepared *pr, const Problem *p, const RunOptions *o, int reps,
                       double helperTimes[][RUN_MAX_TIMES], RunResult *r) {
   Pipeline *pl = &pr->pl;
   double stepTimes[PIPELINE_MAX_STEPS];
   ColdL2 cold = {0};
   if (o->cold_l2 && !startCold(s, &pl->steps[pl->gemm_index], p, &cold, r))
      return -1;
   Observer *observer = o->observe ? Session_observer(s, NULL) : NULL;
   double tStart = Util_nowMs();
   int done = 0;
   if (observer)
      Observer_begin(observer);
   for (; done < reps; done++) {
      if (o->cancel && atomic_load(o->cancel))
         break;
      if (done > 0 && o->max_seconds > 0 && Util_nowMs() - tStart > o->max_seconds * 1e3)
         break;
      if ((o->cold_l2 && !coldOperands(s, &cold, done, &pl->steps[pl->gemm_index], r)) ||
          !Pipeline_run(s, pl, pr->dbl, true, stepTimes, r, pr->C0, pr->C, pr->bytesC)) {
         if (!s->stuck)
            ColdL2_release(&cold); /* after an abandoned launch the buffers may still be read */
         return -1;
      }
      if (observer)
         Observer_sample(observer);
      for (int i = 0; i < pl->nsteps; i++)
         helperTimes[i][done] = stepTimes[i];
      r->times_ms[done] = Pipeline_gemmMs(pl, stepTimes);
   }
   ColdL2_release(&cold);
   r->reps = done;
   return done;
}

/* Median, spread, the helpers' medians and the rates of the done timed launches. */
static void runFigures(const Pipeline *pl, const Problem *p, int done, double helperTimes[][RUN_MAX_TIMES],
                       RunResult *r) {
   r->median_ms = Util_median(r->times_ms, done);
   r->min_ms = r->max_ms = r->times_ms[0];
   for (int i = 1; i < done; i++) {
      r->min_ms = fmin(r->min_ms, r->times_ms[i]);
      r->max_ms = fmax(r->max_ms, r->times_ms[i]);
   }
   double q1 = Util_percentile(r->times_ms, done, 0.25), q3 = Util_percentile(r->times_ms, done, 0.75);
   r->spread_pct = r->median_ms > 0 ? 100.0 * (q3 - q1) / r->median_ms : 0;
   r->fixup_ms = pl->fixup_index >= 0 ? Util_median(helperTimes[pl->fixup_index], done) : 0;
   for (int i = 0; i < pl->nsteps; i++) {
      if (i == pl->gemm_index || i == pl->fixup_index || r->nhelpers == RUN_MAX_HELPERS)
         continue;
      HelperTiming *h = &r->helpers[r->nhelpers++];
      snprintf(h->what, sizeof h->what, "%s", pl->steps[i].what);
      h->median_ms = Util_median(helperTimes[i], done);
      r->helpers_ms += h->median_ms;
   }
   if (r->median_ms > 0) {
      r->gflops = Problem_flops(p) / (r->median_ms * 1e6);
      r->gbps = Ablate_bytes(p, r->ablate) / (r->median_ms * 1e6);
      r->core_gbps = Ablate_coreBytes(p) / (r->median_ms * 1e6);
   }
}

/* The run's status and message: a wrong result, a cancellation, an ablation, or the
 * verification's words. */
static RunStatus runOutcome(RunResult *r, bool cancelled, int reps) {
   if (r->verified_run && !r->verify.ok) {
      r->status = RUN_NOT_VERIFIED;
      snprintf(r->message, sizeof r->message, "%s", r->verify.message);
   } else if (cancelled) {
      r->status = RUN_CANCELLED;
      snprintf(r->message, sizeof r->message, "cancelled after %d of %d launches", r->reps, reps);
   } else if (r->ablate) {
      r->status = RUN_OK;
      char names[64];
      Ablate_name(r->ablate, names, sizeof names);
      snprintf(r->message, sizeof r->message, "ablated (not verified): %s", names);
   } else {
      r->status = RUN_OK;
      snprintf(r->message, sizeof r->message, "%s", r->verified_run ? r->verify.message : "not verified (not asked)");
   }
   return r->status;
}

/* The warm-up, then one launch that is both timed and verified (RunOptions.verify_timed):
 * a kernel that computes only when it is checked, or keeps an answer from an earlier
 * launch, cannot pass. With a cold L2 its operands are fresh copies, as in timedRounds. */
static RunStatus judgedLaunch(Session *s, Prepared *pr, const Problem *p, const Inputs *inputs, const RunOptions *o,
                              RunResult *r, double t0) {
   double stepTimes[PIPELINE_MAX_STEPS], t = Util_nowMs();
   for (int i = 0; i < o->warmup; i++)
      if (!Pipeline_run(s, &pr->pl, pr->dbl, false, stepTimes, r, pr->C0, pr->C, pr->bytesC))
         return r->status;
   r->phases.ms[PHASE_LAUNCHES] += Util_nowMs() - t;
   ColdL2 cold = {0};
   if (o->cold_l2 && (!startCold(s, &pr->pl.steps[pr->pl.gemm_index], p, &cold, r) ||
                      !coldOperands(s, &cold, 0, &pr->pl.steps[pr->pl.gemm_index], r))) {
      ColdL2_release(&cold);
      return r->status;
   }
   bool ok = verifyOnce(s, pr, p, inputs, o->verify_on, o->verified_c, stepTimes, r);
   if (!s->stuck)
      ColdL2_release(&cold);
   if (!ok)
      return r->status;
   double helperTimes[PIPELINE_MAX_STEPS][RUN_MAX_TIMES];
   for (int i = 0; i < pr->pl.nsteps; i++)
      helperTimes[i][0] = stepTimes[i];
   r->times_ms[0] = Pipeline_gemmMs(&pr->pl, stepTimes);
   r->reps = 1;
   runFigures(&pr->pl, p, 1, helperTimes, r);
   r->wall_ms = Util_nowMs() - t0;
   return runOutcome(r, false, 1);
}

static RunStatus runTimed(Session *s, const KernelInfo *k, const long long *values, const Problem *p,
                          const Inputs *inputs, const RunOptions *o, RunResult *r, double t0) {
   Prepared pr;
   char ablate_defs[160];
   Ablate_defines(o->ablate, ablate_defs, sizeof ablate_defs);
   RunStatus st = Session_prepare(s, k, values, p, inputs, ablate_defs, NULL, o->checked, &pr, r);
   r->ablate = o->ablate & ABLATE_ALL;
   r->cold_l2 = o->cold_l2; /* as asked, also when refused */
   if (st != RUN_OK)
      return st;
   Observation_clear(&r->obs);
   pr.pl.timeout_ms = o->launch_timeout_s > 0 ? o->launch_timeout_s * 1e3 : 0;
   /* An ablated kernel computes a wrong C on purpose: it is not checked. */
   if (o->verify_timed && !r->ablate)
      return judgedLaunch(s, &pr, p, inputs, o, r, t0);
   if (o->verify && !r->ablate && !verifyOnce(s, &pr, p, inputs, o->verify_on, o->verified_c, NULL, r))
      return r->status;

   /* Timing: warm-up, then device-timed launches. */
   int reps = o->reps < 1 ? 1 : o->reps > RUN_MAX_TIMES ? RUN_MAX_TIMES : o->reps;
   double stepTimes[PIPELINE_MAX_STEPS], t = Util_nowMs();
   for (int i = 0; i < o->warmup; i++) {
      if (o->cancel && atomic_load(o->cancel))
         break;
      if (!Pipeline_run(s, &pr.pl, pr.dbl, false, stepTimes, r, pr.C0, pr.C, pr.bytesC))
         return r->status;
   }
   double helperTimes[PIPELINE_MAX_STEPS][RUN_MAX_TIMES];
   int done = timedRounds(s, &pr, p, o, reps, helperTimes, r);
   r->phases.ms[PHASE_LAUNCHES] += Util_nowMs() - t;
   if (done < 0)
      return r->status;
   if (done == 0) {
      r->status = RUN_CANCELLED;
      snprintf(r->message, sizeof r->message, "cancelled");
      r->wall_ms = Util_nowMs() - t0;
      return r->status;
   }
   runFigures(&pr.pl, p, done, helperTimes, r);
   Observer *observer = o->observe ? Session_observer(s, NULL) : NULL;
   if (observer)
      Observer_end(observer, done, Problem_flops(p), r->gflops, &r->obs);
   r->wall_ms = Util_nowMs() - t0;
   return runOutcome(r, done < reps && o->cancel && atomic_load(o->cancel), reps);
}

RunStatus Session_run(Session *s, const KernelInfo *k, const long long *values, const Problem *p, const Inputs *inputs,
                      const RunOptions *o, RunResult *r) {
   double t0 = Util_nowMs();
   RunStatus st = runTimed(s, k, values, p, inputs, o, r, t0);
   /* What the phases did not take: the checks, the pipeline's making, the figures. */
   r->phases.ms[PHASE_SETUP] = 0;
   double rest = Util_nowMs() - t0 - RunPhases_total(&r->phases);
   r->phases.ms[PHASE_SETUP] = rest > 0 ? rest : 0;
   return st;
}
