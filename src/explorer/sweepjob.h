/* The sweep pane's job (sweepjob.c): a sweep of the configuration on screen, a step at a
 * time between the worker's other jobs. */
#ifndef GEMMTOP_SWEEPJOB_H
#define GEMMTOP_SWEEPJOB_H

#include <stdatomic.h>

#include "core/results/record.h"
#include "core/tune/sweeprun.h"
#include "explorer/workerjob.h"

typedef struct SweepJobState_ {
   /* The mailbox, under the worker's mu. */
   bool req, stop;
   unsigned long gen;   /* sweeps asked for: a newer one replaces the one running */
   WorkerConfig cfg;
   int budget;
   bool exhaustive;
   SearchStrategy strategy;
   double timeout;
   atomic_int cancel;   /* stops the sweep's launch in progress */
   /* The thread's own. */
   SweepRun *run;       /* the sweep in progress (core/tune/sweeprun.h), NULL none */
   DeviceInfo dev;      /* the device it measures */
   StoreRecord rec;     /* its latest outcome, to be stored once mu is held again */
   bool rec_due;
   unsigned long started; /* sweeps started: each draws its own sample */
} SweepJobState;

extern const WorkerJob SweepJob_begin, SweepJob_step;
/* Stops the sweep after the configuration in progress (or before it begins). */
void SweepJob_stop(Worker *w);
/* Ends the sweep at once, saying why (the device changed); its outcomes stay. */
void SweepJob_abandon(Worker *w, const char *why);

#endif
