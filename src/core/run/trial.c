#include "core/run/trial.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/run/ablate.h"

const char *TrialStep_name(TrialStep s) {
   static const char *const names[] = {"check", "fit", "inputs", "compile", "run", "vendor", "done"};
   return s >= TRIAL_CHECK && s <= TRIAL_DONE ? names[s] : "?";
}

static void before(const TrialRequest *rq, TrialStep next, const TrialOutcome *out) {
   if (rq->hooks.before)
      rq->hooks.before(rq->hooks.ctx, next, rq, out);
}

static bool keepGoing(const TrialRequest *rq, RunResult *r) {
   if (!rq->hooks.keepGoing || rq->hooks.keepGoing(rq->hooks.ctx))
      return true;
   r->status = RUN_CANCELLED;
   snprintf(r->message, sizeof r->message, "cancelled: another configuration was asked for");
   return false;
}

/* The target and the rules, against the device's limits or the smaller ones the request
 * simulates; a refusal under simulated limits says so, so that it is never taken for the
 * device's own. */
static bool check(Session *s, const TrialRequest *rq, RunResult *r) {
   DeviceLimits lim = Session_device(s)->limits;
   bool simulated = rq->limits && rq->limits[0];
   if (simulated && !Session_simulateLimits(rq->limits, &lim, r->message, sizeof r->message))
      return false;
   if (!Session_targetOk(s, rq->kernel, r->message, sizeof r->message))
      return false;
   if (Config_check(rq->kernel, rq->values, rq->problem, &lim, &r->geo, r->message, sizeof r->message))
      return true;
   size_t n = strlen(r->message);
   if (simulated)
      snprintf(r->message + n, sizeof r->message - n, " (simulated limits: %s)", rq->limits);
   else if (Session_device(s)->limits_simulated)
      snprintf(r->message + n, sizeof r->message - n, " (device limits simulated by GEMMTOP_DEVICE_LIMITS)");
   return false;
}

/* The held inputs, made again when stale: random from the seed, then the request's files
 * read over them and their range checked. False with r's status and message. */
static bool makeHeld(const TrialRequest *rq, RunResult *r, TrialOutcome *out) {
   const Problem *p = rq->problem;
   Inputs *in = rq->held;
   if (*rq->have_held && Inputs_fit(in, p) && in->seed == rq->seed)
      return true;
   before(rq, TRIAL_INPUTS, out);
   if (*rq->have_held)
      Inputs_free(in);
   *rq->have_held = false;
   if (!Inputs_random(in, p, rq->seed)) {
      r->status = RUN_OUT_OF_MEMORY;
      snprintf(r->message, sizeof r->message, "out of host memory for %dx%dx%d inputs", p->m, p->n, p->k);
      return false;
   }
   const InputFiles *f = rq->files;
   if (f && (f->a || f->b || f->c || f->a_scale || f->b_scale)) {
      bool loaded = Inputs_loadFiles(in, p, f, r->message, sizeof r->message);
      Util_copy(out->inputs_note, sizeof out->inputs_note, in->note);
      if (!loaded || !Inputs_checkRange(in, p, r->message, sizeof r->message)) {
         Inputs_free(in);
         r->status = RUN_INVALID;
         return false;
      }
   }
   *rq->have_held = out->made_inputs = true;
   return true;
}

static bool inputs(Session *s, const TrialRequest *rq, RunResult *r, TrialOutcome *out) {
   switch (rq->inputs_from) {
   case TRIAL_INPUTS_GIVEN:
      out->inputs = rq->inputs;
      return true;
   case TRIAL_INPUTS_SESSION:
      out->inputs = Session_inputs(s, rq->problem, rq->seed);
      if (!out->inputs) {
         r->status = RUN_OUT_OF_MEMORY;
         snprintf(r->message, sizeof r->message, "out of host memory for the inputs");
      }
      return out->inputs != NULL;
   case TRIAL_INPUTS_HELD:
      if (!makeHeld(rq, r, out))
         return false;
      out->inputs = rq->held;
      return true;
   }
   return false;
}

/* A compile of its own, after the compile-ahead pool's of the same configuration, if one
 * is under way, has ended (a second compile of it would only take longer than loading). */
static bool compileApart(Session *s, const TrialRequest *rq, RunResult *r, TrialOutcome *out) {
   before(rq, TRIAL_COMPILE, out);
   if (rq->ahead) {
      AheadTarget t = Ahead_target(Session_backend(s)->name, Session_device(s)->index, rq->kernel->name, rq->problem,
                                   rq->run.ablate & ABLATE_ALL);
      Ahead_await(rq->ahead, &t, rq->values, rq->run.cancel, rq->ahead_stop);
   }
   if (!keepGoing(rq, r))
      return false;
   Geometry checked = r->geo;
   RunStatus st = Session_compileAblated(s, rq->kernel, rq->values, rq->problem, rq->run.ablate, r, NULL, NULL, 0);
   r->geo = checked;
   return st == RUN_OK;
}

/* Where the run ended: a failure before it stops the trial at its step. */
static RunStatus stop(const TrialRequest *rq, TrialStep at, RunResult *r, TrialOutcome *out) {
   out->stopped_at = at;
   if (at < TRIAL_RUN) { /* as asked, also when refused */
      r->cold_l2 = rq->run.cold_l2;
      r->ablate = rq->run.ablate & ABLATE_ALL;
   }
   double t = Util_nowMs();
   for (int i = 0; i < rq->nobservers; i++)
      rq->observers[i].outcome(rq->observers[i].ctx, rq, out);
   r->phases.ms[PHASE_STORE] += Util_nowMs() - t;
   return r->status;
}

RunStatus Trial_run(Session *s, const TrialRequest *rq, RunResult *r, TrialOutcome *out) {
   free(r->build_log);
   memset(r, 0, sizeof *r);
   memset(out, 0, sizeof *out);
   out->result = r;
   r->registers = -1;
   r->private_mem = r->local_mem = -1;
   double t = Util_nowMs();
   before(rq, TRIAL_CHECK, out);
   if (!check(s, rq, r)) {
      r->status = RUN_INVALID;
      return stop(rq, TRIAL_CHECK, r, out);
   }
   if (!Session_fits(s, rq->problem, r->message, sizeof r->message)) {
      r->status = RUN_OUT_OF_MEMORY;
      return stop(rq, TRIAL_FIT, r, out);
   }
   const Geometry geo = r->geo;
   const double setup_ms = Util_nowMs() - t;
   t = Util_nowMs();
   if (!inputs(s, rq, r, out))
      return stop(rq, TRIAL_INPUTS, r, out);
   const double inputs_ms = Util_nowMs() - t;
   if (!keepGoing(rq, r))
      return stop(rq, TRIAL_INPUTS, r, out);
   double compile_ms = 0;
   /* A compile apart's figures: the run then finds the program in memory. */
   double built_ms = 0;
   bool built_cached = false, built_memory = false;
   if (rq->compile_apart) {
      t = Util_nowMs();
      bool compiled = compileApart(s, rq, r, out);
      compile_ms = Util_nowMs() - t;
      if (!compiled || !keepGoing(rq, r))
         return stop(rq, TRIAL_COMPILE, r, out);
      built_ms = r->compile_ms;
      built_cached = r->cached;
      built_memory = r->cached_memory;
   }
   before(rq, TRIAL_RUN, out);
   RunOptions ro = rq->run;
   ro.checked = &geo;
   RunStatus st = Session_run(s, rq->kernel, rq->values, rq->problem, out->inputs, &ro, r);
   if (rq->compile_apart) { /* the trial's compile, not the run's lookup of it */
      r->compile_ms = built_ms;
      r->cached = built_cached;
      r->cached_memory = built_memory;
   }
   r->phases.ms[PHASE_SETUP] += setup_ms;
   r->phases.ms[PHASE_INPUTS] += out->made_inputs ? inputs_ms : 0;
   r->phases.ms[PHASE_COMPILE] += compile_ms;
   /* An ablated run is not a GEMM, an emulated one's times are not the tensor cores': neither
    * is compared with the vendor library. */
   if (rq->vendor && (st == RUN_OK || st == RUN_NOT_VERIFIED) && !r->ablate && !r->geo.emulated) {
      before(rq, TRIAL_VENDOR, out);
      t = Util_nowMs();
      Session_vendor(s, rq->problem, out->inputs, rq->vendor, rq->vendor_result);
      r->phases.ms[PHASE_VENDOR] += Util_nowMs() - t;
      out->vendor_ran = true;
   }
   return stop(rq, TRIAL_DONE, r, out);
}
