/* One problem size's sweep, the one implementation behind `gemmtop sweep` (cli_sweep.c)
 * and the explorer's sweep pane (explorer/sweepjob.c): the space's valid configurations
 * (core/sweep/sweep.h) searched by a strategy (core/sweep/search.h, ask/tell), what the results store
 * already holds under the sweep's key taken instead of measured again (resuming), each
 * configuration verified and timed in a child process (core/sweep/measurer.h: a launch that
 * does not end is abandoned with its process), and each outcome recorded as soon as it is
 * known, so that a sweep stopped after it does not measure it again.
 *
 * It can be driven a configuration at a time (SweepRun_propose, SweepRun_measureNext: the
 * explorer's worker, between its other jobs), all at once with a compile-ahead pool of its
 * own (SweepRun_measureAll: the command line), or by a SweepDriver that measures elsewhere
 * (SweepRun_drive: the ranks of an MPI job, cli/mpisweep.c). */
#ifndef GEMMTOP_SWEEPRUN_H
#define GEMMTOP_SWEEPRUN_H

#include <stdatomic.h>
#include <stdbool.h>

#include "core/sweep/measurer.h"
#include "core/results/record.h"
#include "core/sweep/search.h"
#include "core/results/store.h"
#include "core/sweep/sweep.h"

typedef struct SweepSetup_ {
   const KernelInfo *k;
   const char *kernels_dir;   /* the catalog's folders (the measuring child loads them) */
   const char *backend;
   const DeviceInfo *dev;     /* the device measured (and the space checked against) */
   Problem problem;
   const long long *base;     /* the starting configuration */
   unsigned free_mask;        /* the parameters searched (bit i: parameter i) */
   SearchStrategy strategy;
   int budget;                /* configurations to try; 0: every valid one */
   double time_budget_s;      /* measure no more once this long after t0; 0: no limit */
   double t0;                 /* Util_nowMs() when the sweep began */
   uint64_t seed;             /* the inputs and the strategy's choices */
   int reps, warmup;          /* timed and untimed launches of each configuration */
   double timeout_s;          /* one launch may take this long (Sweep_timeout) */
   bool cold_l2;              /* timed with the L2 cold: another sweep than a warm one */
   bool emulated;             /* a tensor kernel's emulation: verified, never ranked */
   const char *server;        /* a class server's socket: measured there, on its device slot
                               * server_device (-1 any), nothing compiled ahead here; NULL: here */
   int server_device;
   Store *store;              /* resumed from (unless fresh); NULL: nothing taken */
   bool fresh;                /* take nothing from the store; measure everything again */
   /* Adds a record to the store (the caller says a failure its own way); NULL: nothing
    * is recorded. */
   void (*record)(void *ctx, StoreRecord *r);
   void *record_ctx;
} SweepSetup;

typedef struct SweepRun_ SweepRun;

/* A sweep of space (moved in: *space is emptied) under setup, whose pointers must stay
 * valid until SweepRun_close. Marks the sweep as running on the store and takes what the
 * store holds under its key. NULL when out of memory. */
SweepRun *SweepRun_open(const SweepSetup *setup, SweepSpace *space);
void SweepRun_close(SweepRun *r);

const SweepSetup *SweepRun_setup(const SweepRun *r);
const SweepSpace *SweepRun_space(const SweepRun *r);
/* The configurations this sweep tries, counting those taken from the store. */
int SweepRun_budget(const SweepRun *r);
/* Taken from the store (kept), and stored as failed and so measured again. */
int SweepRun_taken(const SweepRun *r);
int SweepRun_retried(const SweepRun *r);
/* Another sweep of this space was running on the store when this one opened. */
bool SweepRun_another(const SweepRun *r);
/* The sweep's key in the store (Record_sweepKey). */
const char *SweepRun_key(const SweepRun *r);
/* The strategy learns from outcomes (anneal, genetic, bayes): proposals come in batches
 * no larger than what compiles at once. */
bool SweepRun_learns(const SweepRun *r);
/* The time budget ran out (nothing more is proposed or measured). */
bool SweepRun_outOfTime(const SweepRun *r);

/* Proposes up to max more configurations (fewer when the budget, the space or the time
 * runs out). Returns how many. */
int SweepRun_propose(SweepRun *r, int max);
/* The proposed configurations not measured yet: *first and the count. */
int SweepRun_pending(SweepRun *r, SweepCandidate **first);
/* Verifies and times the next pending configuration (unless it is already known not to
 * compile), records it and tells the strategy. NULL when none is pending, or when *cancel
 * (if given) stopped it: it stays pending then, and *stopped is set. */
const SweepCandidate *SweepRun_measureNext(SweepRun *r, const atomic_int *cancel, bool *stopped);
/* Measures values outside the search (another size's best), recorded and added to what
 * was tried. False when out of memory. */
bool SweepRun_measureExtra(SweepRun *r, const long long *values);

/* What SweepRun_measureAll says while it works: phase "compiling" or "running", done of
 * total since since_ms (Util_nowMs), the best so far in words ("" none yet). */
typedef struct SweepEvents_ {
   void (*progress)(void *ctx, const char *phase, int done, int total, double since_ms, const char *best);
   void (*note)(void *ctx, const char *text); /* a problem worth saying that does not stop the sweep */
   void *ctx;
} SweepEvents;

/* Measures the whole budget: proposed in batches (all at once for a strategy that learns
 * nothing and no time budget), each batch compiled into the disk cache by a pool of jobs
 * threads first (jobs 0: one a core). False when out of memory. */
bool SweepRun_measureAll(SweepRun *r, int jobs, const SweepEvents *ev);

/* ---- measured elsewhere: a driver ---- */

/* Device models in one sweep: an MPI job may span several; each gets its own table. */
#define SWEEP_MAX_MODELS 16

typedef struct SweepModel_ {
   DeviceInfo dev;
   char vendor_name[64];   /* the vendor BLAS timed on it ("" when none was) */
} SweepModel;

/* What a driver is given: the sweep as planned. */
typedef struct SweepWork_ {
   const KernelInfo *k;
   const MeasureJob *job;     /* the problem, inputs' seed, repetitions, timeout; device: this process's */
   const DeviceInfo *dev;     /* the device the space was checked against */
   const long long *base;     /* the starting configuration */
   unsigned free_mask;        /* the parameters searched */
   bool emulated, tty;
   double t0;                 /* Util_nowMs() at the start */
   const SweepRun *run;       /* records each outcome: SweepRun_record */
   const char *kernels_dir;   /* the catalog's folders (compiling ahead) */
} SweepWork;

typedef struct SweepDriver_ {
   /* Verifies and times all[0..n-1] (only those still SWEEP_PENDING), compiling where they
    * are measured, and names the device models in models (one, when empty: plan->dev) with
    * each candidate's model. Returns 0, or an exit code to stop with (interrupted). */
   int (*measure)(void *ctx, const SweepWork *plan, SweepCandidate *all, int n, SweepModel *models, int *nmodels);
   void *ctx;
   bool no_store;             /* nothing from or into the results store (a simulation) */
} SweepDriver;

/* Proposes the whole budget (a strategy that learns nothing) and has d measure it; the
 * outcomes go back to the strategy. Returns d's code (0, or an exit code: stopped), or -1
 * when out of memory. */
int SweepRun_drive(SweepRun *r, const SweepDriver *d, bool tty, SweepModel *models, int *nmodels);
/* One outcome into the store as soon as it is known, measured on dev (NULL: the setup's). */
void SweepRun_record(const SweepRun *r, const DeviceInfo *dev, const SweepCandidate *c);

/* ---- the outcome ---- */

/* What was tried: those taken from the store first, then in the order measured (until
 * SweepRun_rank). */
SweepCandidate *SweepRun_tried(SweepRun *r, int *n);
/* The index in what was tried of values, or -1. */
int SweepRun_find(const SweepRun *r, const long long *values);
/* Sorts what was tried best first (not an emulated sweep's: its times are not ranked) and
 * counts the outcomes into counts[SWEEP_OUTCOMES]. Call when nothing is pending. */
void SweepRun_rank(SweepRun *r, int *counts);

#endif
