/* The vendor library's GEMM on the session's device: verified once, then timed. */
#include "core/run/session_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/run/ablate.h"
#include "core/run/coldl2.h"
#include "base/util.h"

/* The vendor call's operands on the device: A, B (and C0 when beta reads C) allocated and
 * uploaded unless these inputs are there already. False with v's status and message. */
static bool vendorOperands(Session *s, const Problem *p, const Inputs *inputs, VendorResult *v) {
   char err[512];
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      v->status = RUN_OUT_OF_MEMORY;
      snprintf(v->message, sizeof v->message, "out of host memory");
      return false;
   }
   size_t es = Precision_size(p->precision), ies = Precision_inputSize(p->precision);
   size_t bytesA = Problem_sizeA(p) * ies, bytesB = Problem_sizeB(p) * ies, bytesC = Problem_sizeC(p) * es;
   if (!Session_fits(s, p, v->message, sizeof v->message) || !Session_ensureBuffer(s, BUF_A, bytesA, r) ||
       !Session_ensureBuffer(s, BUF_B, bytesB, r) || !Session_ensureBuffer(s, BUF_C, bytesC, r) ||
       (p->beta != 0.0 && !Session_ensureBuffer(s, BUF_C0, bytesC, r))) {
      v->status = RUN_OUT_OF_MEMORY;
      if (r->message[0])
         snprintf(v->message, sizeof v->message, "%s", r->message);
      free(r);
      return false;
   }
   free(r);
   Buffer *A = s->bufs[BUF_A].buf, *B = s->bufs[BUF_B].buf, *C0 = s->bufs[BUF_C0].buf;
   if (s->uploaded_generation != inputs->generation) {
      if (s->be->write(s->ctx, A, inputs->a, bytesA, err, sizeof err) != BACKEND_OK ||
          s->be->write(s->ctx, B, inputs->b, bytesB, err, sizeof err) != BACKEND_OK ||
          (p->beta != 0.0 && s->be->write(s->ctx, C0, inputs->c0, bytesC, err, sizeof err) != BACKEND_OK)) {
         v->status = RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         return false;
      }
      s->uploaded_generation = inputs->generation;
   }
   s->result_bytes = bytesC;
   return true;
}

/* The vendor library's figures from its timed calls (v->reps of them in times), and what
 * the observer saw over them (observer NULL: none). */
static void vendorFigures(VendorResult *v, const Problem *p, bool verify, const double *times, Observer *observer) {
   v->median_ms = Util_median(times, v->reps);
   v->min_ms = times[0];
   for (int i = 1; i < v->reps; i++)
      if (times[i] < v->min_ms)
         v->min_ms = times[i];
   v->gflops = v->median_ms > 0 ? Problem_flops(p) / (v->median_ms * 1e6) : 0;
   if (observer)
      Observer_end(observer, v->reps, Problem_flops(p), v->gflops, &v->obs);
   if (verify && !v->verified)
      v->status = RUN_NOT_VERIFIED;
   snprintf(v->message, sizeof v->message, "%s: %s", v->name, verify ? v->verify.message : "timed, not verified again");
}

/* The operands the library is handed: as uploaded, or K-major copies where it takes only
 * those (Backend.vendorKMajor), which v->note then names. */
static bool vendorInputs(Session *s, const Problem *p, Buffer **A, Buffer **B, VendorResult *v) {
   *A = s->bufs[BUF_A].buf;
   *B = s->bufs[BUF_B].buf;
   if (!s->be->vendorKMajor || !s->be->vendorKMajor(p->precision))
      return true;
   RunResult *r = calloc(1, sizeof *r);
   if (!r) {
      v->status = RUN_OUT_OF_MEMORY;
      snprintf(v->message, sizeof v->message, "out of host memory");
      return false;
   }
   char moved[16];
   bool ok = Session_kMajorOperands(s, p, A, B, moved, sizeof moved, r);
   if (!ok) {
      v->status = r->status == RUN_OK ? RUN_DEVICE_ERROR : r->status;
      snprintf(v->message, sizeof v->message, "%s", r->message);
   } else if (moved[0]) {
      snprintf(v->note, sizeof v->note, "%s transposed on the device before its calls, untimed: it takes A and B with "
                                        "K contiguous only", moved);
   }
   RunResult_free(r);
   free(r);
   return ok;
}

/* A bfloat16 C read back (its first M*N*2 bytes) widened in place to the problem's C type,
 * from the last element down so that nothing is overwritten before it is read. */
static void widenBf16(const Problem *p, void *host) {
   const Storage out = Types_of(p->precision)->out;
   for (size_t i = Problem_sizeC(p); i-- > 0;)
      Storage_store(out, host, i, Storage_load(STORAGE_BF16, host, i));
}

/* The library's C (the problem's type) checked on the device, as a kernel's is: its verdict
 * in v; false with v's status and message when the device or the host's memory failed. */
static bool verifyOnDevice(Session *s, const Problem *p, const Inputs *inputs, Buffer *C, uint64_t seed,
                           const VerifyAccumulation *acc, VendorResult *v) {
   RunResult *r = calloc(1, sizeof *r);
   bool built = false;
   bool ok = r && Session_verifyOnDevice(s, p, inputs, C, seed, acc, &built, r);
   if (r && !built) { /* the kernels did not build */
      r->status = RUN_DEVICE_ERROR;
      snprintf(r->message, sizeof r->message, "cannot check the vendor library's C: %s", r->verified_on);
   }
   if (ok) {
      v->verify = r->verify;
   } else {
      v->status = r ? r->status : RUN_OUT_OF_MEMORY;
      snprintf(v->message, sizeof v->message, "%s", r ? r->message : "out of host memory");
   }
   if (r)
      RunResult_free(r);
   free(r);
   return ok;
}

RunStatus Session_vendor(Session *s, const Problem *p, const Inputs *inputs, const RunOptions *o, VendorResult *v) {
   int reps = o->reps, warmup = o->warmup;
   atomic_int *cancel = o->cancel;
   memset(v, 0, sizeof *v);
   char err[512];
   if (Session_refuseIfStuck(s, &v->status, v->message, sizeof v->message))
      return v->status;
   if (!s->be->vendorGemm) {
      v->status = RUN_DEVICE_ERROR;
      snprintf(v->message, sizeof v->message, "the %s backend has no vendor library", s->be->name);
      return v->status;
   }
   Buffer *A, *B;
   if (!vendorOperands(s, p, inputs, v) || !vendorInputs(s, p, &A, &B, v))
      return v->status;
   size_t ies = Precision_inputSize(p->precision);
   size_t bytesA = Problem_sizeA(p) * ies, bytesB = Problem_sizeB(p) * ies, bytesC = s->result_bytes;
   /* What the library writes: C in the problem's type, or in bfloat16 when asked. */
   size_t bytesOut = o->vendor_bf16 ? Problem_sizeC(p) * Storage_size(STORAGE_BF16) : bytesC;
   Buffer *C = s->bufs[BUF_C].buf, *C0 = s->bufs[BUF_C0].buf;
   if (reps < 1)
      reps = 1;
   if (reps > RUN_MAX_TIMES)
      reps = RUN_MAX_TIMES;
   double *times = calloc((size_t)reps, sizeof *times);
   /* C checked on the device, or read back to verify; a bfloat16 C is widened on the host. */
   char where[96];
   const bool onDevice = o->verify && !o->vendor_bf16 && Session_verifiesOnDevice(s, o->verify_on, where, sizeof where);
   void *host = o->verify && !onDevice ? Session_hostC(s, bytesC) : NULL;
   if (!times || (o->verify && !onDevice && !host)) {
      free(times);
      v->status = RUN_OUT_OF_MEMORY;
      snprintf(v->message, sizeof v->message, "out of host memory");
      return v->status;
   }
   v->status = RUN_OK;
   v->cold_l2 = o->cold_l2;
   Observation_clear(&v->obs);
   ColdL2 cold = {0};
   if (o->cold_l2) {
      if (!ColdL2_setup(&cold, s->be, s->ctx, &s->info, A, bytesA, true, B, bytesB, true, err, sizeof err)) {
         v->status = RUN_OUT_OF_MEMORY;
         snprintf(v->message, sizeof v->message, "%s", err);
      }
      snprintf(v->cold_l2_method, sizeof v->cold_l2_method, "%s", cold.method);
   }
   Observer *observer = o->observe ? Session_observer(s, NULL) : NULL;
   bool observing = false;
   const BackendScales scales = !Problem_scaled(p)              ? BACKEND_SCALES_NONE
                                : p->scaling == SCALING_BLOCK ? BACKEND_SCALES_BLOCK
                                                              : BACKEND_SCALES_TENSOR;
   /* The operands as handed over: K-major copies say so in their layout. */
   const bool kmajor = A != s->bufs[BUF_A].buf || B != s->bufs[BUF_B].buf;
   const BackendGemm g = {.m = p->m, .n = p->n, .k = p->k, .precision = p->precision,
                          .trans_a = kmajor ? false : p->trans_a, .trans_b = kmajor ? true : p->trans_b,
                          .alpha = p->alpha, .beta = p->beta, .scales = scales, .scale_a = inputs->sa,
                          .scale_b = inputs->sb, .scales_generation = inputs->generation, .c_bf16 = o->vendor_bf16};
   for (int i = 0; i < warmup + reps + 1 && v->status == RUN_OK; i++) {
      if (cancel && atomic_load(cancel)) {
         v->status = RUN_CANCELLED;
         snprintf(v->message, sizeof v->message, "cancelled");
         break;
      }
      /* C0 back into C before each call when C is read (beta != 0). */
      if (p->beta != 0.0 && s->be->copy(s->ctx, C, C0, bytesC, err, sizeof err) != BACKEND_OK) {
         v->status = RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         break;
      }
      bool timed = i > warmup && !(i == 0 && o->verify);
      Buffer *a = A, *b = B;
      if (timed && o->cold_l2 && !ColdL2_before(&cold, v->reps, &a, &b, err, sizeof err)) {
         v->status = RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         break;
      }
      if (timed && observer && !observing) {
         Observer_begin(observer);
         observing = true;
      }
      BackendVendorCall call = {.ms = 0};
      BackendStatus st = s->be->vendorGemm(s->ctx, &g, a, b, C, &call, err, sizeof err);
      snprintf(v->name, sizeof v->name, "%s", call.name);
      if (i == 0 && call.note[0]) { /* the library's words first, then the engine's */
         char engine[sizeof v->note];
         snprintf(engine, sizeof engine, "%s", v->note);
         snprintf(v->note, sizeof v->note, "%s%s%s", call.note, engine[0] ? "; " : "", engine);
      }
      if (observing)
         Observer_sample(observer);
      if (st != BACKEND_OK) {
         /* A library without a GEMM of this type refuses it: not a device error. */
         v->status = st == BACKEND_ERR_OUT_OF_MEMORY ? RUN_OUT_OF_MEMORY
                     : st == BACKEND_ERR_UNSUPPORTED ? RUN_INVALID
                                                      : RUN_DEVICE_ERROR;
         snprintf(v->message, sizeof v->message, "%s", err);
         break;
      }
      if (i == 0 && o->verify && onDevice) {
         /* The first call's result is checked: a reference must be right too. */
         const VerifyAccumulation acc = {call.fp8_accumulator, call.promote_interval};
         if (!verifyOnDevice(s, p, inputs, C, inputs->seed ^ 0xb1a5, &acc, v))
            break;
         v->verified = v->verify.ok;
         if (o->verified_c && s->be->read(s->ctx, C, o->verified_c, bytesC, err, sizeof err) != BACKEND_OK) {
            v->status = RUN_DEVICE_ERROR;
            snprintf(v->message, sizeof v->message, "%s", err);
            break;
         }
      } else if (i == 0 && o->verify) {
         if (s->be->read(s->ctx, C, host, bytesOut, err, sizeof err) != BACKEND_OK) {
            v->status = RUN_DEVICE_ERROR;
            snprintf(v->message, sizeof v->message, "%s", err);
            break;
         }
         if (o->vendor_bf16)
            widenBf16(p, host);
         const VerifyAccumulation acc = {call.fp8_accumulator, call.promote_interval};
         Verify_inputsAccumulated(p, inputs, host, o->vendor_bf16 ? STORAGE_BF16 : Types_of(p->precision)->out, &acc,
                                  inputs->seed ^ 0xb1a5, &v->verify);
         v->verified = v->verify.ok;
         if (o->verified_c)
            memcpy(o->verified_c, host, bytesC);
      } else if (i > warmup) {
         times[v->reps++] = call.ms;
      }
   }
   if (v->status == RUN_OK && v->reps > 0)
      vendorFigures(v, p, o->verify, times, observing ? observer : NULL);
   ColdL2_release(&cold);
   free(times);
   return v->status;
}
