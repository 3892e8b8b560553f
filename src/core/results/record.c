/* Measurements as results-store records: see record.h. */
#include "core/results/record.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

const char *Record_outcomeOf(RunStatus st) {
   switch (st) {
   case RUN_OK:
      return SweepOutcome_name(SWEEP_OK);
   case RUN_INVALID:
      return SweepOutcome_name(SWEEP_INVALID);
   case RUN_NOT_VERIFIED:
      return SweepOutcome_name(SWEEP_WRONG);
   case RUN_COMPILE_ERROR:
      return SweepOutcome_name(SWEEP_COMPILE);
   case RUN_TIMEOUT:
      return SweepOutcome_name(SWEEP_TIMEOUT);
   default:
      return SweepOutcome_name(SWEEP_FAILED);
   }
}

/* The fields every record has: where, what kernel, which problem. */
static void recordBase(StoreRecord *out, const char *origin, const RecordPlace *at, const KernelInfo *k,
                       const long long *values, const Problem *p) {
   StoreRecord_init(out, origin);
   Util_copy(out->backend, sizeof out->backend, at->backend);
   Util_copy(out->device, sizeof out->device, at->dev->name);
   Util_copy(out->driver, sizeof out->driver, at->dev->driver);
   Util_copy(out->arch, sizeof out->arch, at->dev->arch);
   if (k) {
      Util_copy(out->kernel, sizeof out->kernel, k->name);
      KernelInfo_hash(k, out->kernel_hash);
      KernelInfo_formatParams(k, values, out->params, sizeof out->params);
   }
   out->problem = *p;
}

/* A figure, or unknown (NaN) when the run did not give one. */
static double figure(double v, bool ran) { return ran && v > 0 ? v : NAN; }

void Record_fromRun(StoreRecord *out, const char *origin, const RecordPlace *at, const KernelInfo *k,
                    const long long *values, const Problem *p, RunStatus st, const RunResult *r) {
   recordBase(out, origin, at, k, values, p);
   bool ran = (st == RUN_OK || st == RUN_NOT_VERIFIED) && r->reps > 0;
   Util_copy(out->outcome, sizeof out->outcome, Record_outcomeOf(st));
   out->verified = st == RUN_OK && r->verified_run && r->verify.ok && !r->ablate;
   out->emulated = r->geo.emulated || r->ablate;
   out->cold_l2 = r->cold_l2;
   out->reps = ran ? r->reps : 0;
   out->median_ms = figure(r->median_ms, ran);
   out->min_ms = figure(r->min_ms, ran);
   out->max_ms = figure(r->max_ms, ran);
   out->spread_pct = ran ? r->spread_pct : NAN;
   out->gflops = figure(r->gflops, ran);
   out->compile_ms = r->compile_ms > 0 ? r->compile_ms : NAN;
   out->max_rel_err = r->verified_run ? r->verify.max_rel_err : NAN;
   out->obs = r->obs;
   if (st != RUN_OK)
      Util_copy(out->reason, sizeof out->reason, r->message);
   else if (r->ablate)
      snprintf(out->reason, sizeof out->reason, "ablated: not a GEMM, never verified");
   else if (!r->verified_run)
      snprintf(out->reason, sizeof out->reason, "not verified (--no-verify)");
}

void Record_fromVendor(StoreRecord *out, const RecordPlace *at, const Problem *p, const VendorResult *v) {
   recordBase(out, "vendor", at, NULL, NULL, p);
   Util_copy(out->kernel, sizeof out->kernel, v->name[0] ? v->name : "vendor BLAS");
   bool ran = (v->status == RUN_OK || v->status == RUN_NOT_VERIFIED) && v->reps > 0;
   Util_copy(out->outcome, sizeof out->outcome, Record_outcomeOf(v->status));
   out->verified = v->status == RUN_OK && v->verified;
   out->cold_l2 = v->cold_l2;
   out->reps = ran ? v->reps : 0;
   out->median_ms = figure(v->median_ms, ran);
   out->min_ms = figure(v->min_ms, ran);
   out->gflops = figure(v->gflops, ran);
   out->max_rel_err = v->verified ? v->verify.max_rel_err : NAN;
   out->obs = v->obs;
   if (v->status != RUN_OK)
      Util_copy(out->reason, sizeof out->reason, v->message);
}

void Record_fromCandidate(StoreRecord *out, const char *origin, const RecordPlace *at, const KernelInfo *k,
                          const Problem *p, const SweepCandidate *c, bool emulated, bool cold_l2,
                          const char *sweep_key) {
   recordBase(out, origin, at, k, c->values, p);
   bool ok = c->outcome == SWEEP_OK;
   Util_copy(out->outcome, sizeof out->outcome, SweepOutcome_name(c->outcome));
   Util_copy(out->reason, sizeof out->reason, c->reason);
   out->verified = ok;
   out->emulated = emulated;
   out->cold_l2 = cold_l2;
   out->median_ms = figure(c->median_ms, ok);
   out->gflops = figure(c->gflops, ok);
   out->compile_ms = c->compile_ms > 0 ? c->compile_ms : NAN;
   out->max_rel_err = ok ? c->max_rel_err : NAN;
   Util_copy(out->sweep_key, sizeof out->sweep_key, sweep_key ? sweep_key : "");
}

void Record_sweepKey(const RecordPlace *at, const KernelInfo *k, const Problem *p, const long long *base,
                     unsigned free_mask, bool cold_l2, char out[33]) {
   char hash[17];
   KernelInfo_hash(k, hash);
   Store_sweepKey(at->dev->name, at->backend, at->dev->compiler, hash, p, base, k->nparams, free_mask, cold_l2, out);
}

bool Record_parseParams(const KernelInfo *k, const char *params, long long *values) {
   const char *p = params;
   for (int i = 0; i < k->nparams; i++) {
      size_t len = strlen(k->params[i].name);
      while (*p == ' ')
         p++;
      if (strncmp(p, k->params[i].name, len) != 0 || p[len] != '=')
         return false;
      char *end;
      values[i] = strtoll(p + len + 1, &end, 10);
      if (end == p + len + 1)
         return false;
      p = end;
   }
   return *p == '\0';
}

void Record_toCandidate(const StoreRecord *r, SweepCandidate *c) {
   c->outcome = SWEEP_FAILED;
   for (int o = SWEEP_OK; o < SWEEP_OUTCOMES; o++)
      if (!strcmp(r->outcome, SweepOutcome_name((SweepOutcome)o)))
         c->outcome = (SweepOutcome)o;
   Util_copy(c->reason, sizeof c->reason, r->reason);
   c->gflops = isfinite(r->gflops) ? r->gflops : 0;
   c->median_ms = isfinite(r->median_ms) ? r->median_ms : 0;
   c->compile_ms = isfinite(r->compile_ms) ? r->compile_ms : 0;
   c->max_rel_err = isfinite(r->max_rel_err) ? r->max_rel_err : 0;
}
