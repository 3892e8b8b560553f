/* One trial: a configuration measured on an open session, every step in one place for
 * every front end (run and explain, bench, the accuracy frontier, the measuring child,
 * the explorer's worker). The steps, in order:
 *
 *   check    the kernel's target and rules on the device (or simulated limits), once
 *   fit      the problem's buffers in the device's memory
 *   inputs   given, the session's kept set, or held by the caller and made when stale
 *   compile  apart from the run when asked (the compile-ahead pool's program awaited first)
 *   run      launches, verification, timing (Session_run)
 *   vendor   the vendor library beside it, when asked and comparable
 *   observe  the outcome handed to each observer (store, log, telemetry) in turn
 *
 * A trial stops at the first step that fails; the observers still hear how it ended. */
#ifndef GEMMTOP_TRIAL_H
#define GEMMTOP_TRIAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/model/catalog.h"
#include "core/model/inputs.h"
#include "core/model/problem.h"
#include "core/run/ahead.h"
#include "core/run/session.h"

typedef enum {
   TRIAL_CHECK,
   TRIAL_FIT,
   TRIAL_INPUTS,
   TRIAL_COMPILE,
   TRIAL_RUN,
   TRIAL_VENDOR,
   TRIAL_DONE, /* every step ran (the run's own status may still be a failure) */
} TrialStep;

/* "check", "fit", ...: for messages. */
const char *TrialStep_name(TrialStep s);

/* Where a trial's A, B and C0 come from. */
typedef enum {
   TRIAL_INPUTS_GIVEN,   /* inputs: made by the caller for this problem */
   TRIAL_INPUTS_SESSION, /* the session's kept random set for (problem, seed): Session_inputs */
   TRIAL_INPUTS_HELD,    /* held: the caller's, kept across trials; made again from seed (and files)
                          * when they do not fit the problem or were made from another seed */
} TrialInputsFrom;

typedef struct TrialRequest_ TrialRequest;
typedef struct TrialOutcome_ TrialOutcome;

/* Someone told of a trial's outcome: the results store, a log, telemetry. Called in
 * order after the last step the trial reached, with the caller's ctx. */
typedef struct TrialObserver_ {
   void (*outcome)(void *ctx, const TrialRequest *rq, const TrialOutcome *out);
   void *ctx;
} TrialObserver;

/* Progress and cancellation between the steps (each may be NULL). before is called
 * before each step with what the steps before gave (out->result: the compile's figures
 * before TRIAL_RUN); keepGoing after each step: false ends the trial there, RUN_CANCELLED
 * (a newer configuration was asked for). A run is stopped within by RunOptions.cancel. */
typedef struct TrialHooks_ {
   void (*before)(void *ctx, TrialStep next, const TrialRequest *rq, const TrialOutcome *out);
   bool (*keepGoing)(void *ctx);
   void *ctx;
} TrialHooks;

#define TRIAL_MAX_OBSERVERS 4

struct TrialRequest_ {
   const KernelInfo *kernel;
   const long long *values;
   const Problem *problem;
   const char *limits;          /* smaller limits simulated for this trial (a lesson step's
                                 * "max_wg=256"); NULL or "": the device's own */
   TrialInputsFrom inputs_from;
   uint64_t seed;               /* SESSION and HELD: the random inputs' seed */
   const Inputs *inputs;        /* GIVEN */
   Inputs *held;                /* HELD: valid when *have_held */
   bool *have_held;
   const InputFiles *files;     /* HELD: read over the random inputs when they are made (NULL none) */
   bool compile_apart;          /* compile before the run, so that hooks and observers see the
                                 * build apart (the explorer's log); else the run compiles */
   Ahead *ahead;                /* with compile_apart: the pool whose compile of this configuration
                                 * is awaited rather than repeated (NULL: none) */
   atomic_int *ahead_stop;      /* stops that wait (may be NULL) */
   RunOptions run;              /* the run's; run.checked is the trial's own */
   const RunOptions *vendor;    /* time the vendor library beside a finished, comparable run (not
                                 * ablated, not emulated) with these options; NULL: not */
   VendorResult *vendor_result; /* where, with vendor */
   TrialObserver observers[TRIAL_MAX_OBSERVERS];
   int nobservers;
   TrialHooks hooks;
};

struct TrialOutcome_ {
   RunResult *result;           /* the caller's: the run's figures, or why the trial stopped */
   TrialStep stopped_at;        /* the step that failed, or TRIAL_DONE */
   const Inputs *inputs;        /* the inputs the run used (NULL when none were reached) */
   bool made_inputs;            /* HELD: made for this trial */
   char inputs_note[768];       /* what reading input files did to their values ("" nothing) */
   bool vendor_ran;             /* rq->vendor_result holds the library's figures */
};

/* Runs the trial's steps on s, r holding the run's result (r->build_log is freed first;
 * the caller frees what is left with RunResult_free). r->phases gains the trial's own
 * steps: the checks (setup), the inputs made, a compile apart, the vendor library and
 * the observers (store). Returns r->status. */
RunStatus Trial_run(Session *s, const TrialRequest *rq, RunResult *r, TrialOutcome *out);

#endif
