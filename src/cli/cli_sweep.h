/* gemmtop sweep's one workflow (cli_sweep.c): options resolved, the space enumerated and
 * shuffled, the budget taken, then measured, classified, reported and saved. Who measures
 * is the only part that differs: this process (compiling ahead, then a child process per
 * configuration), or the ranks of an MPI job (cli/mpisweep.h), through a SweepDriver. */
#ifndef GEMMTOP_CLI_SWEEP_H
#define GEMMTOP_CLI_SWEEP_H

#include <stdbool.h>

#include "cli/measure.h"
#include "cli/options.h"
#include "core/shapes.h"
#include "core/sweep.h"

/* Sizes in one sweep: a list of --size, or a shape suite (core/shapes.h). */
#define SWEEP_MAX_SIZES SHAPES_MAX

/* Device models in one sweep: an MPI job may span several; each gets its own table. */
#define SWEEP_MAX_MODELS 16

typedef struct SweepModel_ {
   DeviceInfo dev;
   char vendor_name[64];   /* the vendor BLAS timed on it ("" when none was) */
} SweepModel;

typedef struct SweepRecording_ SweepRecording;

/* What a driver is given: the sweep as planned. */
typedef struct SweepWork_ {
   const Options *o;
   const KernelInfo *k;
   const MeasureJob *job;     /* the problem, inputs' seed, repetitions, timeout; device: this process's */
   const DeviceInfo *dev;     /* the device the space was checked against */
   const long long *base;     /* the starting configuration */
   unsigned free_mask;        /* the parameters searched */
   bool emulated, tty;
   double t0;                 /* Util_nowMs() at the start */
   const SweepRecording *recording; /* the results store, under the sweep's key (Cli_sweepRecord) */
   const char *kernels_dir;   /* the catalog's folder (compiling ahead) */
} SweepWork;

typedef struct SweepDriver_ {
   /* Verifies and times all[0..n-1] (only those still SWEEP_PENDING), compiling where they
    * are measured, and names the device models in models (one, when empty: plan->dev) with
    * each candidate's model. Returns 0, or an exit code to stop with (interrupted). */
   int (*measure)(void *ctx, const SweepWork *plan, SweepCandidate *all, int n, SweepModel *models, int *nmodels);
   void *ctx;
   bool no_store;             /* nothing from or into the results store (a simulation) */
} SweepDriver;

/* One tried configuration into the results store as soon as it is known, measured on dev
 * (NULL: the plan's device), so that a sweep stopped after it does not measure it again.
 * The same command resumes: what the store holds under the sweep's key is taken before the
 * driver is called, which measures the rest. */
void Cli_sweepRecord(const SweepWork *plan, const DeviceInfo *dev, const SweepCandidate *c);

/* The sweep that o describes, measured by d (NULL: here). Returns the exit code. */
int Cli_sweepWith(const Options *o, const SweepDriver *d);

/* The progress line on stderr (when tty): what, done of total, the ETA, best. */
void Cli_sweepProgress(bool tty, const char *what, int done, int total, double t0, const char *best);

#endif
